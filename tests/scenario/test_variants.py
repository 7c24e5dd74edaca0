"""The what-if overlays of the historical scenario: each changes what it says it changes, and runs.

One test per overlay checks the resolved scenario against the base (seed 000's "What If?" rows and
the staff-college questions); the runs check that every overlay plays to the end.
"""

from __future__ import annotations

import functools
from pathlib import Path

import pytest
import yaml

from campaign.cli import main
from campaign.model.orders import Sail
from campaign.runner import run
from campaign.scenario.loader import ScenarioError, list_variants, load_scenario
from campaign.scenario.overlay import apply_changes, merge_patch

ROOT = Path(__file__).resolve().parents[2]
BASE = ROOT / "scenarios" / "goeben_1914.yaml"
VARIANTS = ("austrian_fleet_sorties", "french_fleet_free", "french_fleet_free_with_cruisers",
            "goeben_moltke_endurance", "goeben_no_fast_speed", "italy_at_war_central", "italy_at_war_entente",
            "italy_hostile_to_germany", "milne_guards_aegean", "moltke_enters_west", "moltke_with_goeben",
            "new_zealand_at_malta", "no_austria_telegram", "souchon_decides", "troubridge_engages")


@functools.cache
def base():
    return load_scenario(BASE)


@functools.cache
def variant(name: str):
    return load_scenario(BASE, variant=name)


def force(sc, name):
    return next(f for f in sc.forces if f.name == name)


def ship_names(sc, name):
    return [s.name for s in force(sc, name).ships]


def political(sc, kind):
    return {(e.t_min, e.nations, e.sovereign) for e in sc.politics.events if e.kind == kind}


def changed_forces(a, b):
    """Names of the forces that differ (or exist in one only) between two scenarios."""
    fa, fb = {f.name: f for f in a.forces}, {f.name: f for f in b.forces}
    return {n for n in fa.keys() | fb.keys() if fa.get(n) != fb.get(n)}


# -- the mechanism --------------------------------------------------------------------------------

def test_merge_patch_merges_mappings_deletes_nulls_and_replaces_lists():
    assert merge_patch({"a": {"x": 1, "y": 2}, "l": [1, 2]}, {"a": {"y": None, "z": 3}, "l": [3]}) == \
        {"a": {"x": 1, "z": 3}, "l": [3]}


def test_keyed_lists_add_remove_change_by_name():
    base_raw = {"forces": [{"name": "A", "coal_t": 1}, {"name": "B"}], "messages": [{"id": "m1", "text": "x"}]}
    out, faults = apply_changes(base_raw, {"forces": {"remove": ["B"], "change": {"A": {"coal_t": 2}},
                                                      "add": [{"name": "C"}]},
                                           "messages": {"remove": ["m1"]}})
    assert faults == []
    assert out["forces"] == [{"name": "A", "coal_t": 2}, {"name": "C"}]
    assert out["messages"] == []
    assert base_raw["forces"][0]["coal_t"] == 1  # the base is not touched


def test_a_fault_in_an_overlay_names_its_file_and_field(tmp_path):
    bad = tmp_path / "variants" / "bad.yaml"
    bad.parent.mkdir()
    (tmp_path / "base.yaml").write_text(BASE.read_text())
    bad.write_text(yaml.safe_dump({"variant": "bad", "base": "../base.yaml", "title": "t", "summary": "s",
                                   "changes": {"messages": {"remove": ["no_such_message"]}}}))
    with pytest.raises(ScenarioError) as exc:
        load_scenario(bad)
    assert "bad.yaml" in str(exc.value) and "changes.messages.remove" in str(exc.value)
    assert "no_such_message" in str(exc.value)


def test_an_overlay_change_that_breaks_the_scenario_is_reported_against_the_overlay(tmp_path):
    bad = tmp_path / "variants" / "slow.yaml"
    bad.parent.mkdir()
    (tmp_path / "base.yaml").write_text(BASE.read_text())
    bad.write_text(yaml.safe_dump({"variant": "slow", "base": "../base.yaml", "title": "t", "summary": "s",
                                   "changes": {"ship_changes": {"Goeben": {"speed_kn": {"sustained": 30}, "note": "x"}}}}))
    with pytest.raises(ScenarioError) as exc:
        load_scenario(bad)
    assert "slow.yaml (over base.yaml)" in str(exc.value) and "ship_changes.Goeben.speed_kn" in str(exc.value)


def test_cli_lists_every_variant_on_one_line_each(capsys):
    assert main(["variants", str(BASE)]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    assert [ln.split()[0] for ln in lines] == sorted(VARIANTS)
    assert all(len(ln.split(None, 1)[1]) > 20 for ln in lines)


def test_cli_unknown_variant_exits_2_naming_the_known_ones(capsys, tmp_path):
    assert main([str(BASE), "--variant", "no_such", "--out", str(tmp_path / "o")]) == 2
    err = capsys.readouterr().err
    assert "no variant 'no_such'" in err and "troubridge_engages" in err and "Traceback" not in err
    assert not (tmp_path / "o").exists()


def test_every_overlay_names_the_historical_scenario_as_its_base():
    assert sorted(o.variant for o in list_variants(BASE)) == sorted(VARIANTS)


# -- one test per overlay: it changes what it says, and nothing it does not say -------------------

def test_goeben_no_fast_speed():
    sc = variant("goeben_no_fast_speed")
    g = force(sc, "Goeben").ships[0]
    # Two squares a turn of three (seed 000, 'Fast Speed') of her 23.5 kn.
    assert g.sustained_speed_kn == g.design_speed_kn == pytest.approx(23.5 * 2 / 3, abs=0.05)
    assert force(base(), "Goeben").ships[0].sustained_speed_kn == 23.5
    assert changed_forces(base(), sc) == {"Goeben"}


def test_goeben_moltke_endurance():
    sc = variant("goeben_moltke_endurance")
    moltke = force(variant("moltke_with_goeben"), "Goeben").ships[1]
    assert force(sc, "Goeben").ships[0].sustained_speed_kn == moltke.sustained_speed_kn == 24.5
    # ... and Moltke's coal: the class curve, without her own boilers' factor (data/ships.yaml).
    goeben, base_goeben = force(sc, "Goeben").ships[0], force(base(), "Goeben").ships[0]
    assert base_goeben.consumption_factor == 1.8 and goeben.consumption_factor == 1.0
    assert goeben.consumption.t_per_day(14) == pytest.approx(moltke.consumption.t_per_day(14))
    assert goeben.source_of("consumption.condition_factor").startswith("scenario change:")
    assert changed_forces(base(), sc) == {"Goeben"}


def test_moltke_enters_west():
    sc = variant("moltke_enters_west")
    m = force(sc, "Moltke")
    assert m.start.lon < -5.0  # in the Strait of Gibraltar
    assert m.coal_t["Moltke"] == pytest.approx(16 / 36 * m.ships[0].coal_capacity_t, abs=1)  # 16 coal units of 36
    assert _utc(sc, m.enters_min) == sc.start_utc.replace(day=4, hour=14)  # 15:00 CET 4 Aug
    assert m.orders[0].to.place == "Cape Matapan"
    assert changed_forces(base(), sc) == {"Moltke"}
    assert sc.standing["Moltke"].on_contact == "evade"


def _utc(sc, t_min):
    from datetime import timedelta
    return sc.start_utc + timedelta(minutes=t_min)


def test_moltke_with_goeben():
    sc = variant("moltke_with_goeben")
    assert ship_names(sc, "Goeben") == ["Goeben", "Moltke"]
    assert force(sc, "Goeben").orders == force(base(), "Goeben").orders
    assert changed_forces(base(), sc) == {"Goeben"}


def test_new_zealand_at_malta():
    sc = variant("new_zealand_at_malta")
    assert ship_names(sc, "Battle Cruisers") == ["Indomitable", "Indefatigable", "New Zealand"]
    assert force(sc, "Battle Cruisers").start.place == "Valletta"
    assert changed_forces(base(), sc) == {"Battle Cruisers"}


def test_italy_hostile_to_germany():
    sc = variant("italy_hostile_to_germany")
    assert sc.politics.keep_out("Germany", 0.0) == (("Italy", 6.0),)
    assert base().politics.keep_out("Germany", 10_000.0) == ()
    assert changed_forces(base(), sc) == {"Goeben", "Breslau"}
    for name in ("Goeben", "Breslau"):  # no Messina, no Italian coal
        assert all(getattr(o, "to", None) is None or o.to.place != "Messina" for o in force(sc, name).orders)


@pytest.mark.parametrize("name,enemies,side", [
    ("italy_at_war_entente", ("Germany", "Austria-Hungary"), "Entente"),
    ("italy_at_war_central", ("United Kingdom", "France"), "Central Powers"),
])
def test_italy_at_war(name, enemies, side):
    sc = variant(name)
    t = (sc.start_utc.replace(day=5, hour=14) - sc.start_utc).total_seconds() / 60  # 15:00 5 Aug CET
    for enemy in enemies:
        assert not sc.politics.at_war("Italy", enemy, t - 1) and sc.politics.at_war("Italy", enemy, t)
        assert not base().politics.at_war("Italy", enemy, 1e6)
    assert "Italy" in sc.sides[side] and "Italy" not in sc.neutral_sides
    assert force(sc, "Italian Fleet").side == side and sc.standing["Italian Fleet"].on_contact == "engage"
    assert changed_forces(base(), sc) == {"Italian Fleet"}


def test_austrian_fleet_sorties():
    sc = variant("austrian_fleet_sorties")
    f = force(sc, "Austro-Hungarian Fleet")
    assert f.orders[0].at_min == pytest.approx((sc.start_utc.replace(day=5, hour=2) - sc.start_utc).total_seconds() / 60)
    assert sc.politics.at_war("Austria-Hungary", "United Kingdom", f.orders[0].at_min)
    assert not base().politics.at_war("Austria-Hungary", "United Kingdom", f.orders[0].at_min)
    assert sc.standing["Austro-Hungarian Fleet"].on_contact == "engage"
    assert changed_forces(base(), sc) == {"Austro-Hungarian Fleet"}


def test_the_1st_cruiser_squadron_evades_the_austrian_fleet_it_recognises_as_superior():
    # Not to be brought to action by a superior force (the Admiralty to Milne, 30 July 1914): told only
    # to report, Troubridge's armoured cruisers run from the Austrian dreadnoughts once they recognise
    # them, and are not fought; without the order's standing they were destroyed in every replicate.
    assert base().standing["1st Cruiser Squadron"].avoid_superior
    events = played("austrian_fleet_sorties").events
    ran = [e for e in events if e["type"] == "orders" and e.get("force") == "1st Cruiser Squadron"
           and str(e.get("reason", "")).startswith("steering away from Viribus Unitis")]
    assert ran
    assert not battles_between(events, "1st Cruiser Squadron", "Austro-Hungarian Fleet")


def test_french_fleet_free_leaves_its_cruisers_at_toulon():
    sc = variant("french_fleet_free")
    assert ship_names(sc, "Group A") == ["Danton", "Diderot", "Condorcet", "Vergniaud", "Voltaire"]
    cruisers = force(sc, "1st Light Division")
    assert cruisers.start.place == "Toulon" and len(cruisers.orders) == 1  # stop: not used
    assert sc.standing["Group A"].on_contact == "engage" and sc.standing["Group A"].may_fire
    assert base().standing["Group A"].on_contact == "report"
    assert changed_forces(base(), sc) == {"Group A", "1st Light Division"}


def test_french_fleet_free_with_cruisers_scouts_for_the_battleships():
    sc = variant("french_fleet_free_with_cruisers")
    assert ship_names(sc, "1st Light Division") == ["Edgar Quinet", "Ernest Renan", "Jules Michelet"]
    assert len(force(sc, "1st Light Division").orders) > 1  # at sea, scouting
    st = sc.standing["1st Light Division"]
    assert st.on_contact == "shadow" and st.report_to == "Group A"
    assert sc.standing["Group A"].mission == "intercept" and sc.standing["Group A"].intercept == "Goeben"
    assert changed_forces(base(), sc) == {"Group A", "1st Light Division"}


def test_troubridge_engages():
    sc = variant("troubridge_engages")
    assert sc.standing["1st Cruiser Squadron"].on_contact == "engage"
    assert base().standing["1st Cruiser Squadron"].on_contact == "report"
    texts = {m.text for m in sc.messages}
    assert not any("abandoned the chase" in t for t in texts)
    assert any("abandoned the chase" in m.text for m in base().messages)
    assert changed_forces(base(), sc) == {"1st Cruiser Squadron"}
    # he no longer turns away at 02:50: his dawn leg runs to its point
    assert all(o.until_min is None for o in force(sc, "1st Cruiser Squadron").orders if isinstance(o, Sail))
    assert any(o.until_min is not None for o in force(base(), "1st Cruiser Squadron").orders if isinstance(o, Sail))


def test_milne_guards_aegean():
    sc = variant("milne_guards_aegean")
    infl = force(sc, "Inflexible").orders
    assert infl[0].to.lon > 22 and infl[0].to.lat < 37  # east, off Cape Matapan, not west to 10 E
    assert force(base(), "Inflexible").orders[0].to.place == "Off Pantelleria"
    msg = next(m for m in sc.messages if m.text.startswith("Give up the chase. Join me off Cape Matapan"))
    first = msg.orders["Battle Cruisers"][0]
    assert first.to.lon > 22
    assert dict(msg.standing)["on_contact"] == "engage"
    assert changed_forces(base(), sc) == {"Inflexible"}


def test_no_austria_telegram():
    sc = variant("no_austria_telegram")
    def mistaken(scenario):  # the telegram of 8 Aug, not the true one of 12 Aug
        before_9 = (scenario.start_utc.replace(day=9, hour=0) - scenario.start_utc).total_seconds() / 60
        return [m for m in scenario.messages if "Commence hostilities against Austria" in m.text and m.t_min < before_9]

    assert not mistaken(sc) and mistaken(base())
    before_12 = (sc.start_utc.replace(day=12, hour=0) - sc.start_utc).total_seconds() / 60
    assert not any(dict(m.standing).get("fire_on") for m in sc.messages if m.t_min < before_12)
    assert any(dict(m.standing).get("fire_on") for m in base().messages if m.t_min < before_12)
    chase = [m for m in sc.messages if m.text.startswith("Continue the chase")]
    assert chase and min(m.t_min for m in chase) == pytest.approx(
        (sc.start_utc.replace(day=8, hour=12) - sc.start_utc).total_seconds() / 60)
    assert changed_forces(base(), sc) == set()


# -- every overlay runs to the end ------------------------------------------------------------------

@functools.cache
def played(name: str):
    return run(variant(name))


@pytest.mark.parametrize("name", VARIANTS)
def test_every_variant_runs_to_the_end(name):
    result = played(name)
    assert result.meta["variant"] == name and result.meta["base_scenario"] == "goeben_1914"
    ends = [e for e in result.events if e["type"] == "end"]
    assert len(ends) == sum(len(f.ships) for f in variant(name).forces)


@pytest.mark.xfail(strict=True, reason=(
    "a known defect of the evading doctrine: Moltke reaches Denusa with about 50 t, Dublin (her orders done, "
    "making for her base) comes in sight, and she runs from a light cruiser at full speed on "
    "empty bunkers instead of lying for her collier; strict, so the mend is noticed"))
def test_moltke_entering_on_4_august_comes_with_her_coal_counter_and_reaches_the_dardanelles():
    # She comes through the Strait at 15:00 CET 4 Aug with 16 units of coal (seed 000, German SDR 5), not
    # having lain there since the start burning coal (she once came in 257 t short and ran dry off Matapan).
    events = played("moltke_enters_west").events
    mine = [e for e in events if e.get("unit") == "Moltke"]
    start = mine[0]
    assert start["type"] == "start" and start["t"] == "1914-08-04T14:00:00Z"
    assert start["coal_t"] == pytest.approx(force(variant("moltke_enters_west"), "Moltke").coal_t["Moltke"])
    assert not any(e["type"] == "out_of_coal" for e in mine)
    assert any(e["type"] == "coal_start" for e in mine)  # from Bogadir at Denusa, with Goeben
    assert any(e["type"] == "arrive" and e.get("place") == "Chanak narrows" for e in mine)


def battles_between(events, a, b):
    starts = {}
    for e in events:
        if e["type"] == "engagement_start":
            starts.setdefault(e["battle"], set()).add(e.get("force") or e["unit"])
    return [n for n, fs in starts.items() if a in fs and b in fs]


def test_a_battle_fought_again_opens_where_the_first_left_the_ships():
    # Troubridge's cruisers engage Goeben and lose sight of her (the board engine: she outsteams them out
    # of sight); the chase brings them in sight again and a second battle opens. Every ship opens it where
    # she got to since the first ended, no farther than her best speed could take her (her squadron's
    # leader at its position, the others as they steamed for their stations): once, each force was
    # gathered at its centre and laid out afresh in line ahead, and a battle opened at 3,108 yd one minute
    # after the last had ended at 5,871. Seed 1, in which the chase brings them together twice.
    from campaign.geo.earth import distance_nm
    from campaign.tactics.kinematics import YD_PER_NM
    from campaign.tactics.localplane import LocalPlane

    events = run(variant("troubridge_engages"), seed=1, engine="board").events
    tracks = [e for e in events if e["type"] == "battle_track"]
    assert len(tracks) >= 2

    def where(track, k):  # each ship's (lat, lon) at frame k of the track
        plane = LocalPlane(track["lat"], track["lon"])
        return {n: plane.to_latlon(track["x_yd"][i][k], track["y_yd"][i][k]) for i, n in enumerate(track["names"])
                if track["afloat"][i][k]}

    best = {s.name: s.sustained_speed_kn for f in variant("troubridge_engages").forces for s in f.ships}
    for first, then in zip(tracks, tracks[1:]):
        ended, opened = where(first, -1), where(then, 0)
        gap_min = then["start_min"] - (first["start_min"] + first["t_s"][-1] / 60.0)
        assert gap_min >= 0.0
        for name in set(ended) & set(opened):
            moved_nm = distance_nm(*ended[name], *opened[name])
            assert moved_nm <= best[name] * gap_min / 60.0 + 5.0 / YD_PER_NM, name
        # The range between the sides opens as it closed at the end of the first, less what both steamed.
        side = first["sides"]
        pairs = [(a, b) for a in ended for b in ended if side[a] < side[b] and a in opened and b in opened]
        for a, b in pairs:
            before = distance_nm(*ended[a], *ended[b])
            after = distance_nm(*opened[a], *opened[b])
            assert after >= before - (best[a] + best[b]) * gap_min / 60.0 - 1e-6


def test_troubridge_engaging_brings_goeben_to_action():
    assert battles_between(played("troubridge_engages").events, "1st Cruiser Squadron", "Goeben")
    assert not battles_between(run(base()).events, "1st Cruiser Squadron", "Goeben")


def test_the_french_battleships_used_freely_bring_the_germans_to_action_off_messina():
    events = played("french_fleet_free").events
    assert battles_between(events, "Group A", "Goeben") or battles_between(events, "Group A", "Breslau")
    assert not any(e["type"] == "engagement_start" and e.get("force") == "Group A" for e in run(base()).events)


def test_the_french_cruisers_scouting_north_of_sicily_find_goeben_for_the_battleships():
    # Their station lies on her road from Philippeville back to Messina (past Cape San Vito, 4 Aug):
    # they sight her and report her to Chocheprat, whose Dantons go to intercept her. Once the station
    # lay 20 nm off that road, beyond the smoke of a single ship, and the variant played as
    # french_fleet_free.
    events = played("french_fleet_free_with_cruisers").events
    cruisers = set(ship_names(variant("french_fleet_free_with_cruisers"), "1st Light Division"))
    assert any(e["type"] == "sighting" and e["unit"] in cruisers and e["target"] in ("Goeben", "Breslau")
               for e in events)
    assert any(e["type"] == "message_received" and e["sender"] == "1st Light Division" and e["receiver"] == "Group A"
               for e in events)
    assert any(e["type"] == "orders" and e["unit"] == "Danton" and "intercepting" in (e.get("reason") or "")
               for e in events)
    # They intercept on fresh reports only: never across the Ionian after dead reckoning days old
    # (once they ran on to the coast of Asia Minor after Goeben's reported course of 4 Aug).
    assert max(e["lon"] for e in events if e.get("unit") == "Danton" and e.get("lon") is not None) < 20.0
