"""The zoom: hostile forces that may fight and mean to are handed to a tactical engine and handed back.

The world's side of it is checked here with a transparent test engine (tests/tactics/test_battle.py), so
that each effect (positions, coal, damage, sinkings, resuming orders) is exact; the real engines are
fought in the world in test_engagement_engines below.
"""

from __future__ import annotations

import numpy as np
import pytest

from campaign.geo.land import default_land
from campaign.scenario.loader import load_scenario
from campaign.tactics.kinematics import YD_PER_NM
from campaign.tactics.localplane import LocalPlane
from campaign.tactics.zoom import default_zoom_rules
from campaign.world import engagement
from campaign.world.conditions import ClearDay
from campaign.world.world import World
from tests.conftest import scenario_dict
from tests.tactics.test_battle import _Engine

WAR = [{"at": "1914-08-02T00:00Z", "war": ["Germany", "France"]},
       {"at": "1914-08-02T00:00Z", "war": ["United Kingdom", "Germany"]}]
GOEBEN_EAST = {"name": "Goeben", "side": "Central Powers", "ships": ["Goeben"], "start": {"lat": 36.0, "lon": 16.0},
               "orders": [{"do": "sail", "to": {"lat": 36.0, "lon": 21.0}, "speed": 14}]}
HQ = {"headquarters": [{"name": "Admiralty", "side": "Entente", "nation": "United Kingdom", "station": "London"}]}


def hunter(name="Gloucester", ships=("Gloucester",), lat=36.15, lon=16.6, on_contact="engage", may_fire=True):
    force = {"name": name, "side": "Entente", "ships": list(ships), "start": {"lat": lat, "lon": lon},
             "orders": [{"do": "stop"}]}
    return force, {name: {"on_contact": on_contact, "may_fire": may_fire}}


def run_world(write_scenario, forces, standing, *, politics=WAR, end="1914-08-02T12:00Z", engine=None, seed=0,
              conditions=None):
    content = scenario_dict(forces, start="1914-08-02T00:00Z", end=end)
    content["politics"] = politics
    content["command"] = dict(HQ, standing=standing)
    world = World(load_scenario(write_scenario(content)), seed, conditions=conditions or ClearDay(), engine=engine)
    world.run()
    return world


def recs(world, type_=None, unit=None):
    return [r for r in world.rec.records if (type_ is None or r.type == type_) and (unit is None or r.unit == unit)]


@pytest.fixture
def strong_goeben(monkeypatch):
    """Every battle fought by the test engine: Goeben ten times as strong as anyone."""
    monkeypatch.setattr(engagement, "get_engine", lambda name, damage=None: _Engine({"Goeben": 10.0}, gun_range_yd=9000,
                                                                       damage=0.05))


def test_a_battle_begins_at_the_engines_range_and_every_ship_is_in_it(write_scenario, strong_goeben):
    force, standing = hunter()
    w = run_world(write_scenario, [GOEBEN_EAST, force], standing)
    starts = recs(w, "engagement_start")
    assert {r.unit for r in starts} == {"Goeben", "Gloucester"}
    assert all(r.data["status"] == "in_action" for r in starts)
    t0 = starts[0].t_min
    # The range between them at the start is within the engine's battle range (nwc1905 by default), and
    # more than one approach step's closing earlier.
    from campaign.geo.earth import distance_nm

    g, h = (next(r for r in starts if r.unit == u) for u in ("Goeben", "Gloucester"))
    r_yd = distance_nm(g.lat, g.lon, h.lat, h.lon) * YD_PER_NM
    assert r_yd <= default_zoom_rules().engines["nwc1905"].battle_start_yd + 1
    fires = recs(w, "fire")
    assert fires and all(f.t_min >= t0 for f in fires) and all(f.data["battle"] == 1 for f in fires)
    assert sorted(recs(w, "battle_track")[0].data["names"]) == ["Gloucester", "Goeben"]


def test_ships_go_into_action_at_the_speed_their_force_was_steaming(write_scenario, monkeypatch):
    """The engine is handed each ship at her force's speed when the battle began (Goeben steaming east
    at 14 kn, Gloucester coming on at her best to engage), not stopped: the legs end as the battle
    begins, and every ship used to start it at 0 kn (a fleet at 21.5 kn took some ten minutes to work
    up again under the 1905 rules)."""
    handed = []

    class Recording(_Engine):
        def begin(self, setup, rng):
            handed.append(setup)
            return super().begin(setup, rng)

    monkeypatch.setattr(engagement, "get_engine", lambda name, damage=None: Recording({"Goeben": 10.0}, gun_range_yd=9000,
                                                                         damage=0.05))
    force, standing = hunter()
    w = run_world(write_scenario, [GOEBEN_EAST, force], standing)
    assert recs(w, "engagement_start") and handed
    t0 = recs(w, "engagement_start")[0].t_min
    by_name = {c.ship.name: c for c in handed[0].combatants}
    for name in ("Goeben", "Gloucester"):
        last_leg = [r for r in recs(w, unit=name) if r.type in ("depart", "speed_change") and r.t_min <= t0][-1]
        assert by_name[name].speed_kn == pytest.approx(last_leg.data["speed_kn"]) and last_leg.data["speed_kn"] > 0
    assert by_name["Goeben"].speed_kn == pytest.approx(14.0)
    assert by_name["Goeben"].course_deg == pytest.approx(90.0, abs=2.0)  # the geodesic east
    assert by_name["Gloucester"].speed_kn == pytest.approx(25.0)  # her best, to close
    assert all(c.speed_kn <= c.max_speed_kn for c in handed[0].combatants)


def test_forces_closing_fast_open_battle_at_the_battle_range_not_inside_it(write_scenario, strong_goeben):
    # Goeben east at 14 kn and a cruiser steaming west at her best to meet her close at ~40 kn: 10 nm in a
    # 15-minute approach step. The watcher looks again when the range is due to reach the battle range,
    # so the battle opens near it, not at torpedo range.
    force = {"name": "Gloucester", "side": "Entente", "ships": ["Gloucester"], "start": {"lat": 36.0, "lon": 17.2},
             "orders": [{"do": "sail", "to": {"lat": 36.0, "lon": 15.0}, "speed": "design"}]}
    w = run_world(write_scenario, [GOEBEN_EAST, force], {"Gloucester": {"on_contact": "engage", "may_fire": True}})
    from campaign.geo.earth import distance_nm

    starts = recs(w, "engagement_start")
    g, h = (next(r for r in starts if r.unit == u) for u in ("Goeben", "Gloucester"))
    r_yd = distance_nm(g.lat, g.lon, h.lat, h.lon) * YD_PER_NM
    battle_yd = default_zoom_rules().engines["nwc1905"].battle_start_yd
    assert 0.85 * battle_yd <= r_yd <= battle_yd + 1


class Night(ClearDay):
    """Clear weather and one of the world's night states everywhere, always."""

    def __init__(self, state: str) -> None:
        super().__init__()
        self.state = state

    def light(self, lat, lon, t_min):
        return self.state


def test_no_battle_begins_on_a_dark_night_under_rules_without_night_action(write_scenario, strong_goeben):
    # The 1905 fleet game has no night rules (data/tactics/zoom.yaml): the world's "dark_night" is the
    # rules' "dark". Once the world's word reached the check unconverted, and night never stopped a fight.
    assert not default_zoom_rules().engines["nwc1905"].night_action
    force, standing = hunter(lat=36.0)  # on Goeben's track: at night they see each other only close to
    w = run_world(write_scenario, [GOEBEN_EAST, force], standing, conditions=Night("dark_night"))
    assert recs(w, "sighting", "Gloucester") and not recs(w, "engagement_start")


def test_a_moonlit_night_is_not_the_rules_darkness(write_scenario, strong_goeben):
    force, standing = hunter(lat=36.0)
    w = run_world(write_scenario, [GOEBEN_EAST, force], standing, conditions=Night("moonlit_night"))
    assert recs(w, "engagement_start")


class MoonRise(ClearDay):
    """A dark night everywhere until ``rise_min``, moonlit after: the change, as the world's conditions
    give it, at ``rise_min``."""

    def __init__(self, rise_min: float) -> None:
        super().__init__()
        self.rise_min = rise_min

    def light(self, lat, lon, t_min):
        return "dark_night" if t_min < self.rise_min else "moonlit_night"

    def next_change(self, motion, t0, t1):
        return self.rise_min if t0 < self.rise_min < t1 else None


def test_forces_held_apart_by_the_dark_fight_when_the_moon_rises_not_at_the_next_step(write_scenario,
                                                                                       strong_goeben):
    # Goeben passes a cruiser lying on her track on a dark night: in contact and in range, they may not
    # fight (no night action under the 1905 rules). The moon rises 5.5 minutes after they first see each
    # other, between two 15-minute approach steps: the battle begins as it rises, not at the next step,
    # once they have closed on for up to 15 minutes more.
    force, standing = hunter(lat=36.0)
    dark = run_world(write_scenario, [GOEBEN_EAST, force], standing, conditions=Night("dark_night"))
    seen_min = recs(dark, "sighting", "Gloucester")[0].t_min
    rise_min = seen_min + 5.5
    w = run_world(write_scenario, [GOEBEN_EAST, force], standing, conditions=MoonRise(rise_min))
    starts = recs(w, "engagement_start")
    assert starts and rise_min < starts[0].t_min <= rise_min + engagement.AFTER_CHANGE_MIN + 1e-6


def test_the_world_light_states_are_given_to_the_engines_in_the_rules_words() -> None:
    from campaign.tactics.protocol import LIGHTS, WORLD_LIGHTS, Setting, tactical_light
    from campaign.world.light import STATES

    assert set(WORLD_LIGHTS) == set(STATES) and set(WORLD_LIGHTS.values()) == set(LIGHTS)
    assert [tactical_light(s) for s in STATES] == ["day", "twilight", "moonlit", "dark"]
    with pytest.raises(ValueError, match="dark_night"):
        Setting("dark_night")


def test_a_sunk_ship_leaves_her_force_and_the_victor_goes_on_with_her_orders(write_scenario, monkeypatch):
    # Half her fighting value a hit: she is sunk before her break-off takes her out of range.
    monkeypatch.setattr(engagement, "get_engine", lambda name, damage=None: _Engine({"Goeben": 10.0}, gun_range_yd=9000,
                                                                       damage=0.5))
    force, standing = hunter()
    w = run_world(write_scenario, [GOEBEN_EAST, force], standing, end="1914-08-03T06:00Z")
    sunk = recs(w, "sunk", "Gloucester")
    assert len(sunk) == 1 and sunk[0].data["status"] == "sunk"
    assert w.ships["Gloucester"].status == "sunk"
    assert not w.forces["Gloucester"].active_ships()
    end = next(r for r in recs(w, "engagement_end", "Goeben"))
    assert end.data["reason"] == "destroyed" and end.data["sunk"] is False
    # Goeben takes up her sailing orders again and arrives where she was going.
    arrive = [r for r in recs(w, "arrive", "Goeben") if r.t_min > end.t_min]
    assert arrive and abs(arrive[0].lon - 21.0) < 0.05
    # Nothing more happens to the sunk ship.
    assert not [r for r in w.rec.records if r.unit == "Gloucester" and r.t_min > sunk[0].t_min
                and r.type not in ("engagement_end", "end")]


def test_coal_burnt_in_battle_comes_off_the_bunkers(write_scenario, strong_goeben):
    force, standing = hunter()
    w = run_world(write_scenario, [GOEBEN_EAST, force], standing)
    start = next(r for r in recs(w, "engagement_start", "Goeben"))
    end = next(r for r in recs(w, "engagement_end", "Goeben"))
    burnt = end.data["coal_burnt_t"]
    assert burnt > 0
    # The ship's coal fell by the battle's burn while in action (no other burning is booked meanwhile).
    assert start.data["coal_t"] - end.data["coal_t"] == pytest.approx(burnt, abs=0.2)


def test_forces_end_a_battle_at_sea_never_on_land(write_scenario, strong_goeben):
    force, standing = hunter()
    w = run_world(write_scenario, [GOEBEN_EAST, force], standing)
    land = default_land()
    for r in recs(w, "engagement_end") + recs(w, "fire") + recs(w, "hit"):
        if r.lat is not None:
            assert not land.is_land(r.lat, r.lon)


def test_no_battle_when_nobody_means_to_fight(write_scenario, strong_goeben):
    force, standing = hunter(on_contact="shadow")
    w = run_world(write_scenario, [GOEBEN_EAST, force], standing)
    assert recs(w, "sighting") and not recs(w, "engagement_start")


def test_a_look_at_a_pair_in_sight_measures_their_range_once(write_scenario, strong_goeben, monkeypatch):
    # Gloucester, told to shadow, watches Goeben pass: at each of the watch's looks the range is measured
    # once, and beyond battle range nothing else is asked of the pair (who may fire, who means to).
    asked: list[tuple[float, str, float | None]] = []
    measure, may_fire = engagement.Engagements._range_yd, engagement.Engagements.fire_allowed

    def range_yd(self, a, b):
        r = measure(self, a, b)
        asked.append((self.world.env.now, "range", r))
        return r

    def fire_allowed(self, a, b):
        asked.append((self.world.env.now, "fire", None))
        return may_fire(self, a, b)

    monkeypatch.setattr(engagement.Engagements, "_range_yd", range_yd)
    monkeypatch.setattr(engagement.Engagements, "fire_allowed", fire_allowed)
    force, standing = hunter(on_contact="shadow")
    w = run_world(write_scenario, [GOEBEN_EAST, force], standing)
    assert recs(w, "sighting") and not recs(w, "engagement_start")
    looks = sorted({t for t, _, _ in asked})
    start_yd = default_zoom_rules().engines["nwc1905"].battle_start_yd
    assert len(looks) > 5
    for t in looks:
        ranges = [r for when, what, r in asked if when == t and what == "range"]
        assert len(ranges) == 1, t
        if ranges[0] > start_yd:
            assert [what for when, what, _ in asked if when == t] == ["range"], t


def test_no_battle_before_the_war_whatever_the_commander_believes(write_scenario, strong_goeben):
    force, standing = hunter()
    w = run_world(write_scenario, [GOEBEN_EAST, force], standing,
                  politics=[{"at": "1914-08-02T00:00Z", "war": ["Germany", "France"]}])
    assert recs(w, "sighting") and not recs(w, "engagement_start")


def test_a_commander_without_leave_to_fire_does_not_begin_a_battle(write_scenario, strong_goeben):
    force, standing = hunter(may_fire=False)
    w = run_world(write_scenario, [GOEBEN_EAST, force], standing)
    assert not recs(w, "engagement_start")


def test_the_outmatched_side_breaks_off_and_escapes_by_speed(write_scenario, monkeypatch):
    # Goeben ten times as strong, doing no damage: Breslau-fast Gloucester... here Dublin (27 kn) turns away.
    monkeypatch.setattr(engagement, "get_engine", lambda name, damage=None: _Engine({"Goeben": 10.0}, gun_range_yd=9000,
                                                                       damage=0.0))
    force, standing = hunter()
    w = run_world(write_scenario, [GOEBEN_EAST, force], standing)
    ends = recs(w, "engagement_end", "Gloucester")
    assert ends and ends[0].data["broke_off"] == ["Entente"]
    assert ends[0].data["reason"] in ("separated", "out_of_range")


def test_same_seed_same_battle(write_scenario, strong_goeben):
    force, standing = hunter()
    a = run_world(write_scenario, [GOEBEN_EAST, force], standing, seed=3)
    b = run_world(write_scenario, [GOEBEN_EAST, force], standing, seed=3)
    assert [r.as_json(a.clock) for r in a.rec.records] == [r.as_json(b.clock) for r in b.rec.records]


# -- the real engines in the world ----------------------------------------------------------------------

@pytest.mark.parametrize("engine", ["nwc1905", "jane", "board"])
def test_every_engine_fights_in_the_world_and_a_light_cruiser_alone_loses_to_goeben(write_scenario, engine):
    force, standing = hunter()
    w = run_world(write_scenario, [GOEBEN_EAST, force], standing, engine=engine, end="1914-08-02T18:00Z")
    starts = recs(w, "engagement_start")
    assert starts and all(r.data["engine"] == engine for r in starts)
    ends = {r.unit: r for r in recs(w, "engagement_end")}
    assert set(ends) == {"Goeben", "Gloucester"}
    g, h = ends["Goeben"].data, ends["Gloucester"].data
    # Outgunned, Gloucester is sunk or breaks off (and, having broken off, shadows instead of fighting
    # again); Goeben is not sunk.
    assert h["sunk"] or "Entente" in h["broke_off"]
    assert not g["sunk"]
    assert len({r.data["battle"] for r in recs(w, "engagement_start")}) == 1
    # Whatever happened, the records of the battle are in time order and inside the battle.
    t0, t1 = starts[0].t_min, ends["Goeben"].t_min
    for r in recs(w, "fire") + recs(w, "hit"):
        assert t0 <= r.t_min <= t1 and r.data["battle"] == 1
    summary_battles = __import__("campaign.output.summary", fromlist=["build_summary"]).build_summary(
        [r.as_json(w.clock) for r in w.rec.records], {})["battles"]
    assert summary_battles[0]["engine"] == engine and summary_battles[0]["reason"] == g["reason"]


def test_tracks_follow_a_ship_through_her_battle(write_scenario, monkeypatch):
    from campaign.runner import RunResult, units_of

    # A slow fight (1 % a minute) between equals, neither breaking off, so that the 10-minute samples of
    # tracks.nc fall inside it.
    monkeypatch.setattr(engagement, "get_engine", lambda name, damage=None: _Engine({"Goeben": 1.0}, gun_range_yd=9000,
                                                                       damage=0.001))
    force, standing = hunter()
    w = run_world(write_scenario, [GOEBEN_EAST, force], standing)
    result = RunResult(w.scenario, 0, w.rec.records, units_of(w.scenario))
    ds = result.tracks
    status = ds["status"].sel(unit="Gloucester").values
    codes = list(ds["status"].attrs["flag_meanings"].split())
    assert codes.index("in_action") in status
    # and she is out of action again after it (the fight of equals ends with one drawing off)
    first = list(status).index(codes.index("in_action"))
    assert any(c != codes.index("in_action") for c in status[first:])


def test_a_force_that_breaks_off_may_be_chased(write_scenario, monkeypatch):
    # Goeben means to fight; Gloucester (shadowing) does not and turns away when the battle begins; she
    # is faster, so the battle ends with her drawing off, and Goeben's commander chases her.
    monkeypatch.setattr(engagement, "get_engine", lambda name, damage=None: _Engine({"Goeben": 10.0}, gun_range_yd=9000,
                                                                       damage=0.0))
    goeben = dict(GOEBEN_EAST, orders=[{"do": "stop"}])
    force, standing = hunter(on_contact="shadow", may_fire=False, lat=36.05, lon=16.15)
    standing["Goeben"] = {"on_contact": "engage", "may_fire": True}
    content = scenario_dict([goeben, force], start="1914-08-02T00:00Z", end="1914-08-02T12:00Z")
    content["politics"] = WAR
    content["command"] = {"headquarters": HQ["headquarters"] + [
        {"name": "Admiralstab", "side": "Central Powers", "nation": "Germany", "station": "Berlin"}],
        "standing": standing}
    w = World(load_scenario(write_scenario(content)), 0, conditions=ClearDay())
    w.run()
    end = next(r for r in recs(w, "engagement_end", "Goeben"))
    assert end.data["reason"] in ("separated", "drawn_off", "out_of_range")
    later = [r for r in recs(w, "orders", "Goeben") if r.t_min >= end.t_min]
    assert later and later[0].data["reason"].startswith("chasing")


def test_a_commander_told_only_to_report_who_is_brought_to_action_keeps_away_afterwards(write_scenario,
                                                                                        monkeypatch):
    # Gloucester, told only to report, is on the second of her orders (west at 14 kn) when Goeben, told to
    # engage and ten times as strong, attacks her. After the battle she keeps away from the contact that
    # fought her (she evades it), rather than steam on into it again, and once she has lost it for her
    # resume_after_h she takes up the order she was on when the battle began. (Once, the battle kept her
    # orders from the one she was on but not the index of it, so her commander's decision at its end took
    # the orders after it, none, as the ones to return to.)
    monkeypatch.setattr(engagement, "get_engine", lambda name, damage=None: _Engine({"Goeben": 10.0}, gun_range_yd=9000,
                                                                       damage=0.0))
    force, standing = hunter(on_contact="report", lat=36.0, lon=17.0)
    force["orders"] = [{"do": "wait", "until": "1914-08-02T00:01Z"},
                       {"do": "sail", "to": {"lat": 36.0, "lon": 14.0}, "speed": 14}]
    standing["Goeben"] = {"on_contact": "engage", "may_fire": True}
    w = run_world(write_scenario, [GOEBEN_EAST, force], standing, end="1914-08-02T18:00Z")
    start, end = recs(w, "engagement_start", "Gloucester")[0], recs(w, "engagement_end", "Gloucester")[0]
    assert start.t_min > 1.0 and end.data["broke_off"] == []  # she was on her second order
    # She keeps away from the contact that fought her, by her name for it (her picture's, not the truth's).
    (change,) = [r.data["changes"] for r in recs(w, "standing", "Gloucester")]
    (label,) = change["keep_away_from"]
    later = [r for r in recs(w, "orders", "Gloucester") if r.t_min >= end.t_min]
    assert later[0].t_min == end.t_min and later[0].data["reason"] == f"steering away from {label}"
    back = [r for r in later if not r.data["reason"].startswith("steering away from")]
    assert back and back[0].data["orders"] == ["sail to 36.000,14.000 at 14 kn"]


def test_a_commander_told_only_to_report_keeps_on_after_a_fight_he_was_not_outmatched_in(write_scenario,
                                                                                       strong_goeben):
    # Goeben, told only to report and ten times as strong, is attacked by Gloucester: she is not
    # outmatched, and keeps her instructions (and her course) after it.
    force, standing = hunter()
    w = run_world(write_scenario, [GOEBEN_EAST, force], standing)
    assert recs(w, "engagement_end", "Goeben") and not recs(w, "standing", "Goeben")
    later = [r for r in recs(w, "orders", "Goeben") if r.t_min >= recs(w, "engagement_end", "Goeben")[0].t_min]
    assert not any(r.data["reason"].startswith("steering away") for r in later)


def test_after_a_battle_the_victor_keeps_his_instructions_and_the_outmatched_shadows(write_scenario, monkeypatch):
    monkeypatch.setattr(engagement, "get_engine", lambda name, damage=None: _Engine({"Goeben": 10.0}, gun_range_yd=9000,
                                                                       damage=0.0))
    force, standing = hunter()
    standing["Goeben"] = {"on_contact": "engage", "may_fire": True}
    w = run_world(write_scenario, [GOEBEN_EAST, force], standing)
    assert recs(w, "engagement_end", "Goeben")[0].data["broke_off"] == ["Entente"]
    assert not recs(w, "standing", "Goeben")
    assert [r.data["changes"] for r in recs(w, "standing", "Gloucester")] == [{"on_contact": "shadow"}]


def test_an_attack_on_a_french_transport_frees_the_british_to_fire(write_scenario, monkeypatch):
    # Seed 000: "British ships can't fire on German ships until 1) the Germans attempt to sink a French
    # Transport". Breslau attacks a transport in sight of Gloucester, whose rules forbid her to fire:
    # the leave is granted, she sees it, and she fights Breslau when that battle is over.
    monkeypatch.setattr(engagement, "get_engine", lambda name, damage=None: _Engine({"Transport Algiers": 0.0, "Breslau": 2.0},
                                                                       damage=0.02, gun_range_yd=8000))
    forces = [
        {"name": "Convoy", "side": "Entente", "ships": ["Transport Algiers"], "start": {"lat": 37.5, "lon": 6.5},
         "orders": [{"do": "stop"}]},
        {"name": "Breslau", "side": "Central Powers", "ships": ["Breslau"], "start": {"lat": 37.55, "lon": 6.6},
         "orders": [{"do": "stop"}]},
        {"name": "Gloucester", "side": "Entente", "ships": ["Gloucester"], "start": {"lat": 37.45, "lon": 6.7},
         "orders": [{"do": "stop"}]},
    ]
    content = scenario_dict(forces, start="1914-08-02T06:00Z", end="1914-08-02T14:00Z")
    content["politics"] = [
        {"at": "1914-08-02T00:00Z", "war": ["Germany", "France"]},
        {"at": "1914-08-02T00:00Z", "fire_on_attack": {"by": "United Kingdom", "target": "Germany",
                                                       "protecting": "France", "ship_types": ["transport"]}}]
    content["command"] = {"headquarters": HQ["headquarters"] + [
        {"name": "Admiralstab", "side": "Central Powers", "nation": "Germany", "station": "Berlin"}],
        "standing": {"Breslau": {"on_contact": "engage", "may_fire": True},
                     "Gloucester": {"on_contact": "engage", "may_fire": False}}}
    w = World(load_scenario(write_scenario(content)), 0, conditions=ClearDay())
    w.run()
    granted = [r for r in recs(w, "politics") if r.data.get("kind") == "fire" and r.data.get("nations") == ["United Kingdom", "Germany"]]
    first = next(r for r in recs(w, "engagement_start", "Breslau"))
    assert len(granted) == 1 and granted[0].t_min == first.t_min
    assert "Transport Algiers" in {r.unit for r in recs(w, "engagement_start") if r.data["battle"] == 1}
    told = recs(w, "standing", "Gloucester")
    assert told and told[0].data["changes"] == {"may_fire": True} and told[0].t_min == first.t_min
    # Gloucester was kept out of the first battle (the leave came with it) and fights Breslau afterwards.
    assert "Gloucester" not in {r.unit for r in recs(w, "engagement_start") if r.data["battle"] == 1}
    assert any(r.data["battle"] >= 2 for r in recs(w, "engagement_start", "Gloucester"))


def test_without_the_attack_there_is_no_leave(write_scenario, monkeypatch):
    monkeypatch.setattr(engagement, "get_engine", lambda name, damage=None: _Engine(damage=0.02, gun_range_yd=8000))
    force, standing = hunter()
    standing["Gloucester"]["may_fire"] = False
    politics = [{"at": "1914-08-02T00:00Z", "fire_on_attack": {"by": "United Kingdom", "target": "Germany",
                                                               "protecting": "France"}}]
    w = run_world(write_scenario, [GOEBEN_EAST, force], standing, politics=politics)
    assert not recs(w, "engagement_start") and not [r for r in recs(w, "politics") if r.data.get("kind") == "fire"]


def fight_off_cape_passero(write_scenario, monkeypatch):
    """Goeben lies 1.6 nm off Cape Passero and runs from Gloucester, who comes in from the south-east:
    straight away from her is straight inland. The test engine does no damage, so the fight lasts."""
    monkeypatch.setattr(engagement, "get_engine", lambda name, damage=None: _Engine(damage=0.0, gun_range_yd=8000))
    goeben = {"name": "Goeben", "side": "Central Powers", "ships": ["Goeben"], "start": {"lat": 36.64, "lon": 15.14},
              "orders": [{"do": "stop"}]}
    force, standing = hunter(lat=36.55, lon=15.25)
    return run_world(write_scenario, [goeben, force], standing, end="1914-08-02T06:00Z")


def test_a_fight_that_runs_ashore_on_the_plane_ends_at_sea(write_scenario, monkeypatch):
    # The world puts a force back at sea after a battle, never on land (the battle's plane has no coast).
    w = fight_off_cape_passero(write_scenario, monkeypatch)
    land = default_land()
    ends = recs(w, "engagement_end", "Goeben")
    assert ends
    for r in ends:
        assert not land.is_land(r.lat, r.lon)
    assert not land.is_land(*w.forces["Goeben"].position_at(w.end_min)[:2])


def test_ships_in_battle_steer_clear_of_the_land(write_scenario, monkeypatch):
    """Goeben, running from Gloucester straight inland, is turned along the coast by her helm
    (campaign/tactics/searoom.py), so no ship's track in the battle crosses the land; the battle's plane
    alone knows no coast, and she used to steam across Sicily."""
    w = fight_off_cape_passero(write_scenario, monkeypatch)
    land = default_land()
    tracks = recs(w, "battle_track")
    assert tracks and recs(w, "engagement_end", "Goeben")
    for tr in tracks:
        plane = LocalPlane(tr.lat, tr.lon)  # the record is written at the battle plane's centre
        for name, xs, ys in zip(tr.data["names"], tr.data["x_yd"], tr.data["y_yd"]):
            lat, lon = plane.to_latlon(np.asarray(xs, dtype=float), np.asarray(ys, dtype=float))
            ashore = land.is_land(np.asarray(lat), np.asarray(lon))
            assert not np.any(ashore), f"{name} ashore at {np.flatnonzero(ashore).size} of {len(xs)} frames"
