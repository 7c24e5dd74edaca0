"""Sighting: onsets predicted from the legs equal a brute-force fine-step scan; ranges follow the rules."""

from __future__ import annotations

import dataclasses
import math
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from campaign.geo import earth
from campaign.model.ships import default_ships
from campaign.scenario.loader import load_scenario
from campaign.world import sighting as sighting_mod
from campaign.world.conditions import ClearDay
from campaign.world.motion import Motion
from campaign.world.sighting import LEVELS, SightingModel, default_sighting_rules
from campaign.world.world import World
from tests.conftest import scenario_dict

SHIPS = default_ships()
RULES = default_sighting_rules()


class DayThenNight(ClearDay):
    """Daylight until ``dusk_min``, a moonlit night after: a change of range the model must find."""

    def __init__(self, dusk_min: float, night: str = "moonlit_night") -> None:
        self.dusk_min = dusk_min
        self.night = night

    def light(self, lat, lon, t_min):
        return "day" if t_min < self.dusk_min else self.night

    def next_change(self, motion, t0, t1):
        return self.dusk_min if t0 < self.dusk_min < t1 else None


def run_world(write_scenario, forces: list[dict[str, Any]], conditions=None, rules=None, end="1914-08-03T00:00Z"):
    sc = load_scenario(write_scenario(scenario_dict(forces, start="1914-08-02T00:00Z", end=end)))
    world = World(sc, 0, conditions=conditions or ClearDay(), sighting_rules=rules)
    world.run()
    return world


def force(name, side, ships, start, to, speed, at=None):
    order = {"do": "sail", "to": {"lat": to[0], "lon": to[1]}, "speed": speed}
    if at:
        order["at"] = at
    return {"name": name, "side": side, "ships": ships, "start": {"lat": start[0], "lon": start[1]}, "orders": [order]}


def sightings(world, observer=None):
    return [r for r in world.rec.records if r.type in ("sighting", "contact_lost")
            and (observer is None or r.data["observer"] == observer)]


NO_MISS = dataclasses.replace(RULES, miss_chance=0.0)


def test_head_on_approach_is_sighted_at_the_smoke_range(write_scenario) -> None:
    w = run_world(write_scenario, [
        force("Goeben", "Central Powers", ["Goeben"], (36.5, 16.0), (36.5, 19.0), 20),
        force("Gloucester", "Entente", ["Gloucester"], (36.5, 19.0), (36.5, 16.0), 20),
    ], rules=NO_MISS)
    first = sightings(w, "Gloucester")[0]
    # Gloucester sees Goeben's smoke first: 15 nm by day for a single ship (1905 rules, Table I).
    assert first.data["level"] == "smoke" and first.data["range_nm"] == pytest.approx(15.0, abs=1e-3)
    levels = [r.data["level"] for r in sightings(w, "Gloucester") if r.type == "sighting"]
    assert levels == ["smoke", "ships", "recognised"]
    rec = [r for r in sightings(w, "Gloucester") if r.data.get("level") == "recognised"][0]
    goeben_hull = RULES.hull_range_nm["day"] * RULES.size_factor(SHIPS["Goeben"].displacement_t)
    assert rec.data["range_nm"] == pytest.approx(goeben_hull * RULES.recognition_fraction, abs=1e-3)
    assert first.data["recognised"] == "smoke"
    assert "Goeben (battlecruiser)" in rec.data["recognised"]


def test_each_side_sights_the_other_independently(write_scenario) -> None:
    w = run_world(write_scenario, [
        force("Goeben", "Central Powers", ["Goeben"], (36.5, 16.0), (36.5, 19.0), 20),
        force("Beagle", "Entente", ["Beagle"], (36.5, 19.0), (36.5, 16.0), 20),
    ], rules=NO_MISS)
    # Goeben sees the destroyer's hull nearer than Beagle sees Goeben's.
    g = [r for r in sightings(w, "Goeben") if r.data.get("level") == "ships"][0]
    b = [r for r in sightings(w, "Beagle") if r.data.get("level") == "ships"][0]
    assert g.t_min > b.t_min
    assert g.data["range_nm"] == pytest.approx(RULES.hull_range_nm["day"] * RULES.size_factor(SHIPS["Beagle"].displacement_t), abs=1e-3)


def test_contact_is_lost_at_the_range_it_was_held(write_scenario) -> None:
    w = run_world(write_scenario, [
        force("Goeben", "Central Powers", ["Goeben"], (36.5, 16.0), (36.5, 19.0), 20),
        force("Gloucester", "Entente", ["Gloucester"], (36.5, 19.0), (36.5, 16.0), 20),
    ], rules=NO_MISS)
    lost = [r for r in sightings(w, "Gloucester") if r.type == "contact_lost"]
    assert len(lost) == 1 and lost[0].data["range_nm"] == pytest.approx(15.0, abs=1e-3)


def test_dusk_shortens_the_range(write_scenario) -> None:
    # Closing at 40 kn from ~143 nm: smoke (15 nm) would be sighted at ~3.2 h; dusk at 2 h brings
    # the moonlit-night ranges, 5 nm for a capital ship's hull, and smoke no farther than 1 nm.
    w = run_world(write_scenario, [
        force("Goeben", "Central Powers", ["Goeben"], (36.5, 16.0), (36.5, 19.0), 20),
        force("Gloucester", "Entente", ["Gloucester"], (36.5, 19.0), (36.5, 16.0), 20),
    ], conditions=DayThenNight(120.0), rules=NO_MISS)
    first = sightings(w, "Gloucester")[0]
    hull = RULES.hull_range_nm["moonlit_night"] * RULES.size_factor(SHIPS["Goeben"].displacement_t)
    assert first.data["level"] == "ships" and first.data["range_nm"] == pytest.approx(hull, abs=1e-3)
    assert first.data["light"] == "moonlit_night"


def test_jane_even_chance_of_sighting_500_yards_nearer() -> None:
    ship = [SHIPS["Goeben"]]
    smoke, hull, rec = RULES.ranges(ship, "day", 1.0, missed=False)
    smoke_m, hull_m, rec_m = RULES.ranges(ship, "day", 1.0, missed=True)
    assert smoke - smoke_m == pytest.approx(500 * 0.9144 / 1852, abs=1e-4)
    assert hull - hull_m == pytest.approx(smoke - smoke_m)
    assert RULES.miss_chance == 0.5


def test_the_miss_draw_comes_even_over_many_approaches(write_scenario) -> None:
    # 400 approaches (two forces passing), each a fresh throw: about half are seen 500 yards nearer.
    rng = np.random.default_rng(7)
    model = SightingModel(None, RULES, ClearDay(), rng, 1e9, hostile=lambda a, b: True,
                          ships_of=lambda n: [SHIPS["Goeben"]], on_change=lambda *a: None)
    from campaign.world.sighting import PairState

    draws = [model._missed(PairState()) for _ in range(400)]
    # Binomial(400, 0.5): mean 200, sd 10; four sd either way.
    assert 160 <= sum(draws) <= 240


def test_a_stale_prediction_is_ignored(write_scenario) -> None:
    # Gloucester turns away an hour before the smoke would come in sight.
    w = run_world(write_scenario, [
        force("Goeben", "Central Powers", ["Goeben"], (36.5, 16.0), (36.5, 17.0), 10),
        {"name": "Gloucester", "side": "Entente", "ships": ["Gloucester"], "start": {"lat": 36.5, "lon": 19.0},
         "orders": [{"do": "sail", "to": {"lat": 36.5, "lon": 16.0}, "speed": 20},
                    {"do": "sail", "to": {"lat": 36.5, "lon": 19.5}, "speed": 20, "at": "1914-08-02T01:00Z"}]},
    ], rules=NO_MISS)
    assert sightings(w) == []


# -- onsets against a brute-force scan ------------------------------------------------------------

def positions(m: Motion, ts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Where a motion puts a force at each time (vectorised, by the replay's own geodesic code)."""
    from campaign.geo.route import along

    if m.route is None:
        return np.full(ts.shape, m.lat), np.full(ts.shape, m.lon)
    lat, lon, _ = along(np.array(m.route.lats), np.array(m.route.lons), np.array([m.dist_at(t) for t in ts]))
    return lat, lon


def scan_levels(model: SightingModel, key, motions: dict[str, Motion], t_end: float, step: float):
    """The level of a pair sampled every ``step`` minutes by the model's own range function."""
    out, level = [], 0
    ts = np.arange(0.0, t_end, step)
    la, lo = positions(motions[key[0]], ts)
    lb, mb = positions(motions[key[1]], ts)
    dist = earth.distance_nm(la, lo, lb, mb)
    for k, t in enumerate(ts):
        d, lat, lon = dist[k], la[k], lo[k]
        light = model.conditions.light(lat, lon, t)
        smoke, hull, rec = model.rules.ranges(model.ships_of(key[1]), light, 1.0, False)
        new = model.level_for(d, smoke, hull, rec, level)
        if new != level:
            out.append((t, new))
            level = new
    return out


@pytest.mark.parametrize("dusk", [None, 200.0, 330.0])
@pytest.mark.parametrize("case", range(6))
def test_onsets_equal_a_brute_force_scan(write_scenario, case, dusk) -> None:
    rng = np.random.default_rng(case)
    lat0, lon0 = 36.0 + rng.uniform(-0.5, 0.5), 18.0 + rng.uniform(-0.5, 0.5)
    brg, dist = rng.uniform(0, 360), rng.uniform(15, 60)
    lat1, lon1 = earth.forward(lat0, lon0, brg, dist)
    a_to = earth.forward(lat1, lon1, rng.uniform(0, 360), rng.uniform(40, 120))
    b_to = earth.forward(lat0, lon0, rng.uniform(0, 360), rng.uniform(40, 120))
    w = run_world(write_scenario, [
        force("German", "Central Powers", ["Breslau"], (lat0, lon0), b_to, round(rng.uniform(8, 25), 1)),
        force("British", "Entente", ["Dublin"], (lat1, lon1), a_to, round(rng.uniform(8, 25), 1)),
    ], conditions=DayThenNight(dusk) if dusk else ClearDay(), rules=NO_MISS, end="1914-08-02T12:00Z")
    model = w.contacts.model
    # The motions of the whole run (each force makes one leg, then lies still).
    motions = dict(w.contacts.current)
    step = 0.05  # minutes: 3 seconds
    for key in (("British", "German"), ("German", "British")):
        want = scan_levels(model, key, motions, 720.0, step)
        got = [(r.t_min, LEVELS.index(r.data["level"]) if r.type == "sighting" else 0)
               for r in w.rec.records if r.type in ("sighting", "contact_lost") and r.data["observer"] == key[0]]
        assert [lvl for _, lvl in got] == [lvl for _, lvl in want], key
        for (tg, _), (tw, _) in zip(got, want):
            assert tw - step - 1e-6 <= tg <= tw + 1e-6, key  # the scan finds it up to a step late


def _pair_model() -> tuple[SightingModel, Motion, Motion]:
    from campaign.geo.route import Route

    model = SightingModel(None, NO_MISS, ClearDay(), np.random.default_rng(0), 1e9, hostile=lambda a, b: True,
                          ships_of=lambda n: [SHIPS["Goeben"]], on_change=lambda *a: None)
    a = Motion(1, 7.0, 37.0, 19.0, Route.through([36.0, 36.4, 37.0], [16.0, 17.5, 19.0]), 18.0)
    b = Motion(1, 3.0, 36.0, 16.5, Route.through([37.2, 36.0], [18.5, 16.5]), 12.0)
    return model, a, b


def test_the_other_direction_of_a_pair_takes_the_same_screen() -> None:
    # The second direction's screen, taken from the first's, is the one it would have made itself.
    model, a, b = _pair_model()
    first = model._screen_bounds(a, b, 10.0, 900.0)
    again = model._screen_bounds(b, a, 10.0, 900.0)
    assert again[0] is first[0] and again[1] is first[1]
    fresh = _pair_model()[0]._screen_bounds(b, a, 10.0, 900.0)
    assert [x.tobytes() for x in again] == [x.tobytes() for x in fresh]
    other = model._screen_bounds(b, a, 10.0, 800.0)  # another window is screened afresh
    assert len(other[0]) < len(first[0])


def test_a_search_resumed_at_a_step_of_its_screen_takes_the_rest_of_it() -> None:
    # A search paused at a step of the screen resumes on the rest of the same arrays, with the steps a
    # fresh screen from there would make and its bounds (the first to within the last bits).
    model, a, b = _pair_model()
    ts, lower = model._screen_bounds(a, b, 10.0, 900.0)
    j = 5
    rest_ts, rest_lower = model._screen_bounds(b, a, float(ts[j]), 900.0)
    assert np.shares_memory(rest_ts, ts) and np.shares_memory(rest_lower, lower)
    fresh_ts, fresh_lower = _pair_model()[0]._screen_bounds(a, b, float(ts[j]), 900.0)
    assert rest_ts.tobytes() == fresh_ts.tobytes()
    assert rest_lower[1:].tobytes() == fresh_lower[1:].tobytes()
    assert rest_lower[0] == pytest.approx(fresh_lower[0], abs=1e-9)
    # A time between two steps is screened afresh.
    between = model._screen_bounds(a, b, float(ts[j]) + 1.0, 900.0)
    assert not np.shares_memory(between[0], ts)


class NightThenDay(ClearDay):
    """A dark night until ``dawn_min``, daylight after."""

    def __init__(self, dawn_min: float) -> None:
        self.dawn_min = dawn_min

    def light(self, lat, lon, t_min):
        return "dark_night" if t_min < self.dawn_min else "day"

    def next_change(self, motion, t0, t1):
        return self.dawn_min if t0 < self.dawn_min < t1 else None


DAWN_MIN = 255.0  # inside the screening step from 240 to 270 minutes


@pytest.mark.parametrize("light", ["dark_night", "day", "dawn"])
def test_a_screened_step_whose_light_keeps_the_forces_out_of_sight_is_not_searched(light, monkeypatch) -> None:
    # A cruiser steams east along 37 N past a ship lying still north of her track, nearer than the
    # farthest a ship is ever seen (the best light, which the screen asks) but farther than a dark night
    # lets her be seen. At night the steps the screen lets through are ruled out by their light and
    # never searched; by day they are searched, and the sighting is found; when dawn breaks inside a
    # step, that step is searched, and the sighting falls at dawn. Each prediction is the one made
    # searching every step.
    from campaign.geo.route import Route

    conditions = {"dark_night": DayThenNight(-1.0, "dark_night"), "day": ClearDay(),
                  "dawn": NightThenDay(DAWN_MIN)}[light]

    def predict(pruning: bool) -> tuple[Any, int]:
        model = SightingModel(None, NO_MISS, conditions, np.random.default_rng(0), 1e9, hostile=lambda a, b: True,
                              ships_of=lambda n: [SHIPS["Goeben"]], on_change=lambda *a: None)
        reach = model._reach("B")
        night = max(RULES.ranges([SHIPS["Goeben"]], "dark_night", 1.0, False)[:2])
        assert night < reach
        lat_b, lon_b = earth.forward(37.0, 17.5, 0.0, (night + reach) / 2.0)
        model.motions.update(A=Motion(1, 0.0, 37.0, 19.0, Route.through([37.0, 37.0], [16.0, 19.0]), 15.0),
                             B=Motion(1, 0.0, lat_b, lon_b))
        searched = []
        exact = model._exact
        monkeypatch.setattr(model, "_exact", lambda *a, **k: searched.append(a[3]) or exact(*a, **k))
        if not pruning:
            monkeypatch.setattr(model, "_out_of_sight_through", lambda *a: False)
        return model.next_event(("A", "B"), 0.0, 900.0), len(searched)

    (pruned, n_pruned), (every, n_every) = predict(True), predict(False)
    assert pruned == every and n_every > 0
    if light == "dark_night":
        assert pruned is None and n_pruned == 0
    elif light == "day":
        assert pruned is not None and pruned.level == 1 and pruned.t_min < DAWN_MIN and n_pruned == n_every
    else:
        assert pruned is not None and pruned.level == 1 and pruned.t_min == pytest.approx(DAWN_MIN)
        assert 0 < n_pruned < n_every


def test_the_limits_kept_during_a_prediction_are_those_worked_out_afresh() -> None:
    model, a, b = _pair_model()
    model.motions.update(A=a, B=b)
    st = model._state(("A", "B"))
    for level in range(4):
        st.level = level
        model._ships, model._limits = {}, {}
        kept = [model._limits_for(("A", "B"), st, light, 0.7) for light in ("day", "dark_night", "day")]
        model._ships = model._limits = None
        afresh = [model._limits_for(("A", "B"), st, light, 0.7) for light in ("day", "dark_night", "day")]
        assert kept == afresh and kept[2] is kept[0]


# -- what one prediction remembers: the hostile directions of a pair, the distances measured ------------

SCENARIO = "goeben_1914.yaml"


class _Forgetful(dict):
    """A memo that never keeps anything: every question is worked out afresh (the long way)."""

    def __setitem__(self, key, value) -> None:
        pass


def _records(variant: str, seed: int, *, remembering: bool, monkeypatch,
             without: str | None = None) -> tuple[list[str], int]:
    """(every record as text, distances the model measured) of one run, with or without what the model
    remembers between its questions (hostile directions; distances shared by a pair's two directions),
    and ``without`` one of its shortcuts: "floor" (``motion.chord_floor_nm``, a window's least distance)
    or "light" (``SightingModel._out_of_sight_through``, a screened step ruled out by its light)."""
    from campaign.batch.replicate import scenario_of
    from campaign.paths import SCENARIO_DIR

    if without == "floor":
        monkeypatch.setattr(sighting_mod, "chord_floor_nm", lambda a, b, t0, t1: -math.inf)
    elif without == "light":
        monkeypatch.setattr(SightingModel, "_out_of_sight_through", lambda self, *a: False)
    if not remembering:
        monkeypatch.setattr(SightingModel, "_measured", lambda self, a, b: {})
    world = World(scenario_of(str(SCENARIO_DIR / SCENARIO), variant), seed)
    if not remembering:
        world.contacts.model._watches = _Forgetful()
    world.run()
    monkeypatch.undo()
    return [repr(r) for r in world.rec.records], world.contacts.model.evaluations


@pytest.mark.parametrize("variant, seed", [("base", 3), ("troubridge_engages", 1)])
def test_what_the_model_remembers_changes_no_record(variant, seed, monkeypatch) -> None:
    kept, n_kept = _records(variant, seed, remembering=True, monkeypatch=monkeypatch)
    afresh, n_afresh = _records(variant, seed, remembering=False, monkeypatch=monkeypatch)
    assert kept == afresh  # every record, byte for byte
    assert any("type='sighting'" in r for r in kept)
    assert n_kept < 0.97 * n_afresh  # the other direction of a pair measured less


@pytest.mark.parametrize("shortcut", ["floor", "light"])
@pytest.mark.parametrize("variant, seed", [("base", 2), ("troubridge_engages", 1)])
def test_the_searches_shortcuts_change_no_record(variant, seed, shortcut, monkeypatch) -> None:
    # The floor spares windows the forces' relative track keeps out of range; the light, screened steps
    # whose light and weather keep them out of sight. Neither may change what is found.
    taken, n_taken = _records(variant, seed, remembering=True, monkeypatch=monkeypatch)
    bare, n_bare = _records(variant, seed, remembering=True, monkeypatch=monkeypatch, without=shortcut)
    assert taken == bare  # every record, byte for byte
    assert any("type='sighting'" in r for r in taken)
    assert n_taken < n_bare  # distances the shortcut spared measuring (about 1 % of them)


def test_a_floor_above_the_range_spares_the_search_and_one_below_it_changes_nothing() -> None:
    # A convex distance whose least, 10.01 nm at minute 5, is just outside a 10 nm range: the ends and the
    # closing speed cannot rule the window out, so without a floor a golden-section search asks point after
    # point to find nothing; a floor of 10.005 nm ends it at once, before asking any point inside.
    def counted(g):
        asked = []

        def f(t: float) -> float:
            asked.append(t)
            return g(t)
        return f, asked

    def outside(t: float) -> float:
        return 10.01 + 0.001 * (t - 5.0) ** 2

    f, asked = counted(outside)
    assert SightingModel._first_below(f, 0.0, 10.0, 10.0, 60.0) is None
    assert len(asked) > 10
    f, asked = counted(outside)
    assert SightingModel._first_below(f, 0.0, 10.0, 10.0, 60.0, lambda: 10.005) is None
    assert asked == [0.0, 10.0]

    def dipping(t: float) -> float:  # within range from about minute 2.76 to 7.24
        return 9.95 + 0.01 * (t - 5.0) ** 2

    f, asked = counted(dipping)
    found = SightingModel._first_below(f, 0.0, 10.0, 10.0, 60.0)
    g, asked_floored = counted(dipping)
    assert SightingModel._first_below(g, 0.0, 10.0, 10.0, 60.0, lambda: 9.9) == found
    assert found == pytest.approx(5.0 - 0.05 ** 0.5 * 10.0, abs=1e-3)
    assert asked_floored == asked


def test_the_hostile_directions_remembered_are_those_asked_at_the_end_of_the_run() -> None:
    # Remembered from the first motions of a pair, they must still be the answer when the run is over:
    # neither the sides nor the neutrals changed meanwhile.
    from campaign.batch.replicate import scenario_of
    from campaign.paths import SCENARIO_DIR

    world = World(scenario_of(str(SCENARIO_DIR / SCENARIO), "base"), 2)
    world.run()
    model, contacts = world.contacts.model, world.contacts
    assert len(model._watches) > 100
    for (a, b), kept in model._watches.items():
        assert kept == tuple(k for k in ((a, b), (b, a)) if contacts.hostile(*k)), (a, b)
    assert any(kept == () for kept in model._watches.values())  # friends, or a neutral
    assert any(len(kept) == 2 for kept in model._watches.values())


def test_the_model_asks_who_is_hostile_once_per_pair() -> None:
    asked: list[tuple[str, str]] = []

    def hostile(a: str, b: str) -> bool:
        asked.append((a, b))
        return a[0] != b[0]

    model = SightingModel(None, NO_MISS, ClearDay(), np.random.default_rng(0), 1e9, hostile=hostile,
                          ships_of=lambda n: [SHIPS["Goeben"]], on_change=lambda *a: None)
    model.motions.update({n: Motion(1, 0.0, 30.0 + 3.0 * i, 10.0) for i, n in enumerate(("A1", "A2", "B1"))})
    for n in ("A1", "B1", "A1"):
        model._repredict(n, model.motions[n])
    assert sorted(asked) == sorted([("A1", "A2"), ("A2", "A1"), ("A1", "B1"), ("B1", "A1"), ("B1", "A2"),
                                    ("A2", "B1")])
    assert model._watches[("A1", "B1")] == (("A1", "B1"), ("B1", "A1")) and model._watches[("A1", "A2")] == ()


def _still_pair() -> tuple[SightingModel, Motion, Motion]:
    """Two forces lying 8 nm apart (within sight of each other by day, not by night): dusk at 300 min."""
    model = SightingModel(None, NO_MISS, DayThenNight(300.0), np.random.default_rng(0), 1e9,
                          hostile=lambda a, b: True, ships_of=lambda n: [SHIPS["Goeben"]],
                          on_change=lambda *a: None)
    lat, lon = earth.forward(37.0, 19.0, 60.0, 8.0)
    a, b = Motion(1, 0.0, 37.0, 19.0), Motion(1, 0.0, float(lat), float(lon))
    model.motions.update(A=a, B=b)
    return model, a, b


def test_forces_lying_still_keep_their_distance_through_a_change_of_light() -> None:
    model, a, b = _still_pair()
    d = earth.distance_nm(37.0, 19.0, b.lat, b.lon)
    st = model._state(("A", "B"))
    st.level = model.level_for(d, *model.ranges_at(("A", "B"), 0.0)[:3])
    assert st.level > 0
    model._ships, model._limits, model._dists = {}, {}, {}
    ev = model._exact(("A", "B"), a, b, 0.0, 1000.0)
    measured = dict(model._measured(a, b))
    model._ships = model._limits = model._dists = None
    assert ev.t_min == 300.0 and ev.range_nm == d and ev.level < st.level
    # The distance carried to dusk is not written where the other direction would read a measurement.
    assert measured == {0.0: d}


@settings(max_examples=80, deadline=None)
@given(t_min=st.floats(min_value=0.0, max_value=3000.0), lat=st.floats(min_value=-70.0, max_value=70.0),
       lon=st.floats(min_value=-170.0, max_value=170.0), az=st.floats(min_value=0.0, max_value=360.0),
       dist_nm=st.floats(min_value=0.0, max_value=300.0))
def test_a_distance_is_the_same_from_either_end(t_min, lat, lon, az, dist_nm) -> None:
    # The two directions of a pair share the distances they measure: the geodesic must be the same both ways.
    from campaign.geo.route import Route
    from campaign.world.motion import distance_nm

    lat2, lon2 = earth.forward(lat, lon, az, dist_nm)
    a = Motion(1, 10.0, lat2, lon2, Route.through([lat, lat2], [lon, lon2]), 15.0)
    b = Motion(1, 0.0, lat2, lon)
    c = Motion(1, 0.0, -lat, lon + 1.0)  # the other hemisphere, the same latitude
    for x, y in ((a, b), (a, c), (b, c)):
        assert distance_nm(x, y, t_min) == distance_nm(y, x, t_min)


def test_both_directions_of_a_pair_predicted_together_find_what_each_finds_alone() -> None:
    model, a, b = _pair_model()
    model.motions.update(A=a, B=b)
    model._ships, model._limits, model._dists = {}, {}, {}
    together = [model.next_event(k, 0.0, 2000.0) for k in (("A", "B"), ("B", "A"))]
    model._ships = model._limits = model._dists = None
    alone, n_alone = [], 0
    for k in (("A", "B"), ("B", "A")):
        fresh = _pair_model()[0]
        fresh.motions.update(A=a, B=b)
        alone.append(fresh.next_event(k, 0.0, 2000.0))
        n_alone += fresh.evaluations
    assert together == alone and together[0] is not None
    assert model.evaluations < n_alone  # the second direction measured fewer distances


def test_the_distances_one_pair_measured_are_not_read_by_another() -> None:
    # Pairs already in sight (smoke) search from the same instant: each must read its own distances.
    c = Motion(1, 0.0, 36.3, 17.2)  # lying still near both tracks
    keys = (("A", "B"), ("A", "C"), ("C", "B"), ("B", "A"))

    def model_of_three() -> SightingModel:
        model, a, b = _pair_model()
        model.motions.update(A=a, B=b, C=c)
        for k in keys:
            model._state(k).level = 1
        return model

    model = model_of_three()
    model._ships, model._limits, model._dists = {}, {}, {}
    together = [model.next_event(k, 0.0, 2000.0) for k in keys]
    model._ships = model._limits = model._dists = None
    alone = [model_of_three().next_event(k, 0.0, 2000.0) for k in keys]
    assert together == alone and all(ev is not None for ev in together)
    assert len({ev.range_nm for ev in together}) == 3  # three pairs, each at its own distance
