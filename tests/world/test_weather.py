"""Weather: determinism, scripts over the stochastic chain, the chain's August statistics, the effects'
rules (seed 004, Jane; thresholds in data/weather.yaml) and the historical script (data/weather_1914.yaml,
from the 1914 narratives: Churchill, Massie, Lorey, Kopp, Hough)."""

from __future__ import annotations

import re
from datetime import datetime, timedelta

import numpy as np
import pytest
import shapely
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

from campaign.clock import parse_utc
from campaign.geo.places import default_places
from campaign.model.ships import default_ships
from campaign.world import weather as W
from campaign.world.weather import (
    Weather,
    WeatherState,
    coaling_at_sea_possible,
    freeboard_class,
    gunnery_range_shift_yd,
    head_sea_speed_loss_kn,
    main_deck_guns_may_fire,
    parse_script,
    submarine_can_take_air,
    very_bad_weather,
    visibility_factor,
)
from tests.world.helpers import boundary_points

START, END = "1914-08-02T09:00Z", "1914-08-13T00:00Z"
PARAMS = W.default_params()
# One sea point well inside each region (lat, lon).
POINTS = {"western": (40.0, 5.0), "tyrrhenian": (39.5, 12.5), "central": (35.5, 17.0),
          "adriatic": (43.0, 15.5), "aegean": (38.0, 25.0), "levant": (33.5, 28.0)}


def utc(text: str) -> datetime:
    return parse_utc(text)


def ws(state: int, wind_from_deg: float = 0.0, visibility_nm: float = 15.0) -> WeatherState:
    t = utc("1914-08-04T00:00Z")
    return WeatherState(state, "steady", wind_from_deg, visibility_nm, "central", t, t + timedelta(hours=6),
                        "stochastic")


def every_period(w: Weather, start: str = START, end: str = END) -> list[datetime]:
    t, out = w.first + w.period * max(0, (utc(start) - w.first) // w.period), []
    while t < utc(end):
        out.append(t)
        t += w.period
    return out


def weather_table(w: Weather, order: list[str]) -> dict:
    return {(name, t): w.at(*POINTS[name], t) for name in order for t in every_period(w)}


# ---------------------------------------------------------------------------------------------- regions


def test_points_and_places_fall_in_their_regions() -> None:
    for name, (lat, lon) in POINTS.items():
        assert PARAMS.region_at(lat, lon).name == name
    places = default_places()
    expected = {"Messina": "central", "Valletta": "central", "Cape Matapan": "central", "Taranto": "central",
                "Philippeville": "western", "Bone": "western", "Toulon": "western", "Bizerta": "western",
                "Palermo": "tyrrhenian", "Pola": "adriatic", "Brindisi": "adriatic", "Denusa": "aegean",
                "Cape Helles": "aegean", "Piraeus": "aegean", "Alexandria": "levant", "Port Said": "levant"}
    for place, region in expected.items():
        p = places.get(place)
        assert PARAMS.region_at(p.lat, p.lon).name == region, place
    assert PARAMS.region_at(43.0, 34.0).name == "aegean"  # the Black Sea: nearest region


# ---------------------------------------------------------------------------------------------- determinism


def test_same_seed_same_weather() -> None:
    a = Weather(START, END, np.random.default_rng(11))
    b = Weather(START, END, np.random.default_rng(11))
    order = list(POINTS)
    assert weather_table(a, order) == weather_table(b, order)
    c = Weather(START, END, np.random.default_rng(12))
    assert weather_table(c, order) != weather_table(a, order)


def test_query_order_does_not_matter() -> None:
    a = Weather(START, END, np.random.default_rng(5))
    b = Weather(START, END, np.random.default_rng(5))
    forward = weather_table(a, list(POINTS))
    backward = weather_table(b, list(reversed(POINTS)))
    assert forward == backward
    c = Weather(START, END, np.random.default_rng(5))  # latest time asked first
    late = c.at(*POINTS["aegean"], "1914-08-12T23:00Z")
    assert late == forward[("aegean", utc("1914-08-12T18:00Z"))]


def test_outside_the_window_is_refused() -> None:
    w = Weather(START, END, np.random.default_rng(0))
    assert w.first == utc("1914-08-02T06:00Z")  # periods are aligned on 00/06/12/18 UTC
    with pytest.raises(ValueError, match="outside its window"):
        w.at(38.0, 25.0, "1914-08-02T05:59Z")
    with pytest.raises(ValueError, match="outside its window"):
        w.at(38.0, 25.0, "1914-08-13T06:00Z")
    w.at(38.0, 25.0, END)  # the end instant itself is inside


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), lat=st.floats(30.0, 46.0), lon=st.floats(-6.0, 36.0),
       minutes=st.integers(0, 10 * 24 * 60))
def test_every_state_is_well_formed(seed: int, lat: float, lon: float, minutes: int) -> None:
    w = Weather(START, END, np.random.default_rng(seed))
    when = utc(START) + timedelta(minutes=minutes)
    s = w.at(lat, lon, when)
    assert 0 <= s.state <= 9 and isinstance(s.state, int)
    assert s.barometer in ("rising", "steady", "falling")
    assert 0.0 <= s.wind_from_deg < 360.0
    assert s.visibility_nm in PARAMS.visibility_nm
    assert 0.0 < visibility_factor(s) <= 1.0
    assert s.period_start <= when < s.period_end
    assert s.region == PARAMS.region_at(lat, lon).name and s.source == "stochastic"


# ---------------------------------------------------------------------------------------------- scripts


def test_scripted_periods_override_and_leave_the_rest_alone() -> None:
    script = parse_script([{"start": "1914-08-05T00:00Z", "end": "1914-08-05T12:00Z", "region": "aegean",
                            "state": 8, "visibility_nm": 1.0, "wind_from_deg": 20, "note": "test gale"}])
    plain = Weather(START, END, np.random.default_rng(3))
    scripted = Weather(START, END, np.random.default_rng(3), script=script)
    s = scripted.at(*POINTS["aegean"], "1914-08-05T07:00Z")
    assert (s.state, s.visibility_nm, s.wind_from_deg, s.source) == (8, 1.0, 20.0, "scripted")
    assert s.scripted == {"state", "visibility_nm", "wind_from_deg"} and s.note == "test gale"
    # Other regions, and the scripted region before the script, keep their draws (common random numbers).
    for name, point in POINTS.items():
        for t in every_period(plain):
            if name != "aegean" or t < utc("1914-08-05T00:00Z"):
                assert plain.at(*point, t).state == scripted.at(*point, t).state, (name, t)
    # The chain goes on from the scripted state: at most two states a period.
    after = scripted.at(*POINTS["aegean"], "1914-08-05T12:00Z")
    assert abs(after.state - 8) <= 2 and after.source == "stochastic"


def test_fields_layer_by_latest_start_and_a_script_may_split_a_period() -> None:
    script = parse_script([
        {"start": "1914-08-06T00:00Z", "end": "1914-08-08T00:00Z", "region": "all", "state": 1},
        {"start": "1914-08-07T02:00Z", "region": ["central"], "visibility_nm": 4.0},   # open-ended
        {"start": "1914-08-07T09:00Z", "end": "1914-08-07T10:00Z", "region": "central", "state": 5},
    ])
    w = Weather(START, END, np.random.default_rng(9), script=script)
    early = w.at(*POINTS["central"], "1914-08-07T01:00Z")
    split = w.at(*POINTS["central"], "1914-08-07T03:00Z")
    gust = w.at(*POINTS["central"], "1914-08-07T09:30Z")
    assert early.state == 1 and early.scripted == {"state"}
    assert (split.state, split.visibility_nm) == (1, 4.0) and split.scripted == {"state", "visibility_nm"}
    assert (split.period_start, split.period_end) == (utc("1914-08-07T02:00Z"), utc("1914-08-07T06:00Z"))
    assert (gust.state, gust.visibility_nm) == (5, 4.0)
    assert w.at(*POINTS["central"], "1914-08-12T00:00Z").visibility_nm == 4.0  # open-ended lasts
    assert w.at(*POINTS["aegean"], "1914-08-07T03:00Z").scripted == {"state"}
    assert w.period_bounds("1914-08-07T03:00Z") == (utc("1914-08-07T00:00Z"), utc("1914-08-07T06:00Z"))
    assert w.period_bounds("1914-08-07T03:00Z", *POINTS["central"]) == (utc("1914-08-07T02:00Z"),
                                                                        utc("1914-08-07T06:00Z"))
    changes = w.changes("1914-08-07T00:00Z", "1914-08-07T12:00Z")
    assert changes == [utc(t) for t in ("1914-08-07T02:00Z", "1914-08-07T06:00Z", "1914-08-07T09:00Z",
                                        "1914-08-07T10:00Z")]


def test_changes_include_region_crossings_along_a_track() -> None:
    w = Weather(START, END, np.random.default_rng(1))
    t0, t1 = utc("1914-08-04T01:00Z"), utc("1914-08-04T05:00Z")

    def where(t: datetime) -> tuple[float, float]:  # due east along 37.5 N across lon 11.05-ish, 1 deg/h
        return 37.5, 10.0 + (t - t0).total_seconds() / 3600.0

    found = w.changes(t0, t1, where)
    crossings = [t for t in found if t not in w.changes(t0, t1)]
    assert len(crossings) == 1
    before, after = where(crossings[0] - timedelta(seconds=2)), where(crossings[0])
    assert PARAMS.region_at(*before).name == "western" and PARAMS.region_at(*after).name == "central"


def test_barometer_foretells_the_next_change() -> None:
    w = Weather("1914-08-01T00:00Z", "1914-09-30T00:00Z", np.random.default_rng(21))
    for lat, lon in POINTS.values():
        nxt = w.at(lat, lon, w.first)
        while nxt.period_end < w.last_end:
            cur, nxt = nxt, w.at(lat, lon, nxt.period_end)
            expected = "falling" if nxt.state > cur.state else "rising" if nxt.state < cur.state else "steady"
            assert cur.barometer == expected


# ---------------------------------------------------------------------------------------------- the chain


@pytest.mark.parametrize("region", [r.name for r in PARAMS.regions])
def test_transition_matrix_is_reversible_with_the_august_climate(region: str) -> None:
    r = PARAMS.region(region)
    pi, p = r.stationary(PARAMS.upper_m_s), r.transition_matrix(PARAMS.upper_m_s)
    assert pi.sum() == pytest.approx(1.0) and (pi > 0).all()
    assert (p >= 0).all() and np.allclose(p.sum(axis=1), 1.0)
    assert np.allclose(pi @ p, pi, atol=1e-14)
    assert np.allclose(pi[:, None] * p, (pi[:, None] * p).T, atol=1e-15)
    assert np.all(np.abs(np.subtract.outer(np.arange(10), np.arange(10)))[p > 0] <= 2)


@pytest.mark.parametrize("region", [r.name for r in PARAMS.regions])
def test_long_run_frequencies_match_the_stationary_distribution(region: str) -> None:
    """Seeded statistics over ~8,000 periods. Tolerance: the binomial variance pi(1-pi)/n widened by the
    chain's autocorrelation, i.e. the exact asymptotic variance of a Markov chain's time average,
    pi_i (2 Z_ii - 1 - pi_i) / n with Z = (I - P + 1 pi')^-1 (Kemeny & Snell's fundamental matrix)."""
    w = Weather("1900-01-01T00:00Z", "1905-06-01T00:00Z", np.random.default_rng(1914))
    r = PARAMS.region(region)
    _, states = w._timeline(region)
    x = np.array([s.state for s in states])
    n = len(x)
    pi, p = r.stationary(PARAMS.upper_m_s), r.transition_matrix(PARAMS.upper_m_s)
    z = np.linalg.inv(np.eye(10) - p + np.outer(np.ones(10), pi))
    sigma = np.sqrt(pi * (2 * np.diag(z) - 1 - pi) / n)
    freq = np.bincount(x, minlength=10) / n
    assert n > 7500
    assert np.all(np.abs(freq - pi) <= 4.5 * sigma + 1.0 / n), (freq.round(4), pi.round(4))


def test_independent_runs_are_distributed_as_the_stationary_distribution() -> None:
    """The chain starts from the stationary distribution and keeps it, so across independent seeds the
    state of any one period is multinomial(pi): each state's count lies inside its binomial's central
    1 - 2e-4 interval (60 cells: a false alarm about once in a hundred runs of the suite)."""
    n = 2000
    counts = {r.name: np.zeros(10, int) for r in PARAMS.regions}
    for seed in range(n):
        w = Weather("1914-08-01T00:00Z", "1914-08-01T18:00Z", np.random.default_rng([1914, seed]))
        for name, tally in counts.items():
            tally[w.at(*POINTS[name], "1914-08-01T12:00Z").state] += 1
    for r in PARAMS.regions:
        pi = r.stationary(PARAMS.upper_m_s)
        lo, hi = stats.binom.ppf(1e-4, n, pi), stats.binom.isf(1e-4, n, pi)
        assert np.all((lo <= counts[r.name]) & (counts[r.name] <= hi)), (r.name, counts[r.name], n * pi)


def test_regions_draw_their_own_climates() -> None:
    """The Aegean's etesians against the calm summer Adriatic: P(state >= 4) = 0.64 against 0.18."""
    d = W.describe_params()
    assert d["aegean"]["p_state_ge_4"] > 0.6
    assert d["adriatic"]["p_state_ge_4"] < 0.2
    assert all(24 <= v["e_folding_h"] <= 60 for v in d.values())


# ---------------------------------------------------------------------------------------------- effects


def test_visibility_factor_scales_with_visibility_up_to_clear() -> None:
    assert visibility_factor(ws(2, visibility_nm=25.0)) == 1.0
    assert visibility_factor(ws(2, visibility_nm=10.0)) == 1.0
    assert visibility_factor(ws(2, visibility_nm=5.0)) == pytest.approx(0.5)
    assert visibility_factor(ws(2, visibility_nm=0.3)) == pytest.approx(0.03)


def test_low_freeboard_is_destroyers_torpedo_boats_gunboats_and_the_charlemagne_class() -> None:
    ships = default_ships()
    assert PARAMS.effects.low_freeboard_classes <= {s.cls for s in ships.values()}
    for ship in ships.values():
        low = ship.type == "destroyer" or ship.cls == "Charlemagne"
        assert freeboard_class(ship) == ("low" if low else "high"), ship.name
    assert {s.name for s in ships.values() if s.cls == "Charlemagne"} == {"Charlemagne", "Gaulois", "Saint Louis"}
    assert freeboard_class("torpedo_boat") == "low" and freeboard_class("gunboat") == "low"
    assert freeboard_class("battleship") == "high" and freeboard_class("collier") == "high"

    class Monitor:  # a ship that carries its own freeboard
        type, freeboard = "battleship", "low"

    assert freeboard_class(Monitor()) == "low"
    with pytest.raises(ValueError, match="unknown ship type"):
        freeboard_class("submarine")


def test_head_sea_costs_low_freeboard_ships_three_knots_within_45_degrees() -> None:
    ships = default_ships()
    destroyer, goeben = ships["Basilisk"], ships["Goeben"]
    sea = ws(4, wind_from_deg=350.0)
    for course, loss in ((350, 3.0), (35, 3.0), (305, 3.0), (36, 0.0), (304, 0.0), (170, 0.0), (80, 0.0)):
        assert head_sea_speed_loss_kn(destroyer, sea, course) == loss, course
        assert head_sea_speed_loss_kn(goeben, sea, course) == 0.0
    assert head_sea_speed_loss_kn(destroyer, ws(3, wind_from_deg=350.0), 350) == 0.0  # wavelets only
    assert head_sea_speed_loss_kn("torpedo_boat", ws(9, 90.0), 100) == 3.0


@settings(max_examples=200, deadline=None)
@given(state=st.integers(0, 9), wind=st.floats(0, 359.9), course=st.floats(0, 359.9),
       kind=st.sampled_from(["destroyer", "torpedo_boat", "gunboat", "dreadnought", "light_cruiser",
                             "collier"]))
def test_head_sea_rule_truth_table(state: int, wind: float, course: float, kind: str) -> None:
    off = min(abs(course - wind), 360 - abs(course - wind))
    expected = 3.0 if kind in ("destroyer", "torpedo_boat", "gunboat") and state >= 4 and off <= 45 else 0.0
    assert head_sea_speed_loss_kn(kind, ws(state, wind), course) == expected


def test_coaling_at_sea_up_to_state_three() -> None:
    assert [coaling_at_sea_possible(ws(s)) for s in range(10)] == [True] * 4 + [False] * 6


def test_gunnery_and_dirty_weather_thresholds() -> None:
    assert [gunnery_range_shift_yd(ws(s)) for s in range(10)] == [0] * 5 + [1000] * 2 + [2000] * 3
    assert not main_deck_guns_may_fire(ws(6, wind_from_deg=90.0), bearing_deg=110.0)   # into the sea
    assert main_deck_guns_may_fire(ws(6, wind_from_deg=90.0), bearing_deg=180.0)       # across it
    assert main_deck_guns_may_fire(ws(5, wind_from_deg=90.0), bearing_deg=90.0)        # not dirty yet
    assert [very_bad_weather(ws(s)) for s in (7, 8, 9)] == [False, True, True]
    assert [submarine_can_take_air(ws(s)) for s in (3, 4)] == [True, False]


# ---------------------------------------------------------------------------------------------- 1914


# An original source: a book's page or chapter ("p.6", "ch.10") or a web page ("diarygreatwar.blogspot.com"),
# not the team's compiled notes.
ORIGINAL_SOURCE = re.compile(r"\b(?:p|ch)\.\s?\d+|\b[\w-]+(?:\.[\w-]+)*\.(?:com|net|org|de|ru|it)\b")
COMPILED_NOTES = re.compile(r"notes\.md|\bresearch\b", re.IGNORECASE)


def test_historical_script_cites_original_sources_and_covers_its_days() -> None:
    script = W.historical_script()
    assert len(script) >= 5
    for s in script:
        assert s.source and ORIGINAL_SOURCE.search(s.source), s
        assert not COMPILED_NOTES.search(s.source), s


@pytest.mark.parametrize("seed", range(8))
def test_historical_calm_of_6_to_10_august_and_haze_of_4_august(seed: int) -> None:
    w = Weather(START, END, np.random.default_rng(seed), script=W.historical_script())
    for name, point in POINTS.items():
        for t in every_period(w, "1914-08-06T00:00Z", "1914-08-11T00:00Z"):
            s = w.at(*point, t)
            swell = name == "central" and t.day == 7
            assert s.state <= (3 if swell else 1), (name, t, s)
            assert coaling_at_sea_possible(s) and head_sea_speed_loss_kn("destroyer", s, s.wind_from_deg) == 0
    for name in ("western", "tyrrhenian"):
        # The haze comes on at noon (the sea "turned grey") and is "misty" by mid-afternoon (Massie p.6).
        for t, vis in (("1914-08-04T12:00Z", 9.0), ("1914-08-04T13:59Z", 9.0), ("1914-08-04T14:00Z", 6.0),
                       ("1914-08-04T15:00Z", 6.0), ("1914-08-04T19:59Z", 6.0)):
            s = w.at(*POINTS[name], t)
            assert s.state <= 1 and s.visibility_nm == vis and visibility_factor(s) < 1.0, (name, t, s)
            cited = " ".join(p.source for p in W.historical_script() if p.note and p.note in s.note)
            assert "Massie p.6" in cited
        night = w.at(*POINTS[name], "1914-08-04T21:00Z")
        assert night.visibility_nm == 2.0 and visibility_factor(night) == pytest.approx(0.2)
    haze = w.at(*POINTS["central"], "1914-08-07T14:00Z")
    assert (haze.state, haze.visibility_nm) == (3, 6.0)
    assert w.at(*POINTS["aegean"], "1914-08-10T06:00Z").state == 0


# ---------------------------------------------------------------------------------------------- bad input


@pytest.mark.parametrize(("raw", "needle"), [
    ({"start": "1914-08-04T00:00Z"}, "expected a list of periods"),
    (["calm"], "period 0: expected a mapping"),
    ([{"state": 3}], "period 0, field 'start': Field required"),
    ([{"start": "4 Aug", "state": 3}], "period 0, field 'start'"),
    ([{"start": "1914-08-04T00:00Z", "state": 12}], "field 'state': Input should be less than or equal to 9"),
    ([{"start": "1914-08-04T00:00Z", "state": 2.5}], "field 'state'"),
    ([{"start": "1914-08-04T00:00Z", "barometer": "up"}], "field 'barometer'"),
    ([{"start": "1914-08-04T00:00Z", "wind_from_deg": 360}], "field 'wind_from_deg'"),
    ([{"start": "1914-08-04T00:00Z", "visibility_nm": 0}], "field 'visibility_nm'"),
    ([{"start": "1914-08-04T06:00Z", "end": "1914-08-04T06:00Z", "state": 1}],
     "field 'end': end 1914-08-04T06:00Z is not after start"),
    ([{"start": "1914-08-04T06:00Z", "state": True}], "field 'state'"),
    ([{"start": "1914-08-04T06:00Z", "note": "nothing set"}], "period 0: a period must set at least one of"),
    ([{"start": "1914-08-04T06:00Z", "region": "Ionian", "state": 1}], "unknown region(s) 'Ionian'"),
    ([{"start": "1914-08-04T06:00Z", "state": 1, "sea": "calm"}],
     "field 'sea': Extra inputs are not permitted"),
])
def test_parse_script_rejects_bad_input_clearly(raw: object, needle: str) -> None:
    with pytest.raises(ValueError) as exc:
        parse_script(raw)
    assert needle in str(exc.value)


def test_parse_script_reports_every_fault_at_once() -> None:
    with pytest.raises(ValueError) as exc:
        parse_script([{"start": "1914-08-04T00:00Z", "state": 1},
                      {"start": "1914-08-04T00:00Z", "state": -1},
                      {"start": "1914-08-05T00:00Z", "region": ["aegean", "Black Sea"], "state": 2}])
    text = str(exc.value)
    assert "period 1, field 'state'" in text and "period 2, field 'region'" in text and "period 0" not in text


def test_weather_accepts_a_raw_script_and_refuses_unknown_regions() -> None:
    w = Weather(START, END, np.random.default_rng(0),
                script=[{"start": "1914-08-04T00:00Z", "end": "1914-08-04T06:00Z", "state": 7}])
    assert w.at(*POINTS["levant"], "1914-08-04T03:00Z").state == 7
    bad = W.ScriptedPeriod(utc("1914-08-04T00:00Z"), None, ("nowhere",), state=1)
    with pytest.raises(ValueError, match="unknown region"):
        Weather(START, END, np.random.default_rng(0), script=[bad])


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), lat=st.floats(30.0, 46.0), lon=st.floats(-6.0, 36.0),
       minutes=st.integers(0, 10 * 24 * 60))
def test_weather_in_a_region_is_the_weather_at_its_points(seed: int, lat: float, lon: float,
                                                          minutes: int) -> None:
    # ``in_region`` is ``at`` for a caller that already knows the point's region.
    w = Weather(START, END, np.random.default_rng(seed))
    when = utc(START) + timedelta(minutes=minutes)
    assert w.in_region(PARAMS.region_at(lat, lon).name, when) == w.at(lat, lon, when)


def _region_by_polygons(lat: float, lon: float) -> str:
    """``region_at`` without the envelopes: every region's polygon asked in turn."""
    for r in PARAMS.regions:
        if shapely.contains_xy(r.geometry, lon, lat):
            return r.name
    pt = shapely.Point(lon, lat)
    return min(PARAMS.regions, key=lambda r: r.geometry.distance(pt)).name


@settings(max_examples=500, deadline=None)
@given(lat=st.floats(min_value=28.0, max_value=48.0), lon=st.floats(min_value=-10.0, max_value=40.0))
def test_a_weather_region_is_the_polygons_anywhere(lat: float, lon: float) -> None:
    """``region_at`` asks GEOS only inside a region's envelope: the answer is the polygons' own."""
    assert PARAMS.region_at(lat, lon).name == _region_by_polygons(lat, lon)


def test_a_weather_region_is_the_polygons_on_every_boundary() -> None:
    for lat, lon in boundary_points([r.geometry for r in PARAMS.regions]):
        assert PARAMS.region_at(lat, lon).name == _region_by_polygons(lat, lon), (lat, lon)
