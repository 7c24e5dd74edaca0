"""Tests of the light at sea (campaign/world/light.py, data/light.yaml).

Times to check against come from a table computed with PyEphem 4.2.1 (UT; full moon 6 Aug 1914 00:40
UT; the new moon it gives, 21 Aug 1914 12:26 UT, agrees with the greatest eclipse of that day at 12:34:27
UTC, Wikipedia 'Solar eclipse of August 21, 1914', wikimili.com/en/Solar_eclipse_of_August_21,_1914). Two
conventions of that table matter to the tolerances:

* its sunrise, sunset, moonrise and moonset columns set a -0:34 horizon *and* kept PyEphem's default
  pressure (1010 mbar), so refraction is counted twice: every rise is about 4 minutes early and every set
  about 4 minutes late against the standard almanac definition (upper limb on the horizon with 34' of
  refraction), which is what light.py uses;
* its civil dawn and dusk columns are the sun's centre at -6 deg but with PyEphem's refraction at that
  altitude (dawn ~50 s earlier, dusk ~50 s later than the USNO's geometric -6 deg), and its minutes are
  truncated, not rounded (03:31:43 is printed 03:31).

Places are the simulator's own (data/places.yaml).
"""

from __future__ import annotations

import math
from datetime import UTC, datetime, timedelta

import ephem
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.optimize import brentq

from campaign.geo.places import default_places
from campaign.world.light import (
    CROSSING_TOL,
    STATES,
    SUN_STATES,
    Light,
    LightRules,
    default_light_rules,
    is_night,
    light_at,
    light_states,
    moon_altitude_deg,
    moon_illumination,
    next_change,
    night_and_hold,
    next_change_along,
    state_code,
    sublunar_point,
    sun_altitude_deg,
    sun_state_code,
)

RULES = default_light_rules()


def _where(name: str) -> tuple[float, float]:
    place = default_places().get(name)
    return place.lat, place.lon


def _utc(day: int, hh: int = 0, mm: int = 0, ss: int = 0) -> datetime:
    return datetime(1914, 8, day, hh, mm, ss, tzinfo=UTC)


def _hhmm(day: int, text: str) -> datetime:
    hh, mm = map(int, text.split(":"))
    return _utc(day, hh, mm)


def _changes(lat: float, lon: float, t0: datetime, t1: datetime) -> list[tuple[datetime, str, str]]:
    """Every change of light in (t0, t1] at a fixed place: (instant, state before, state after)."""
    out: list[tuple[datetime, str, str]] = []
    t, before = t0, light_at(lat, lon, t0).state
    while (nxt := next_change(lat, lon, t, t1)) is not None:
        t, after = nxt, light_at(lat, lon, nxt).state
        out.append((t, before, after))
        before = after
    return out


def _ephem_observer(lat: float, lon: float, when: datetime | str, horizon: str = "0",
                    pressure: float = 0.0) -> ephem.Observer:
    obs = ephem.Observer()
    obs.lat, obs.lon, obs.horizon, obs.pressure = str(lat), str(lon), horizon, pressure
    obs.date = ephem.Date(when.astimezone(UTC).replace(tzinfo=None)) if isinstance(when, datetime) else when
    return obs


def _ephem_utc(date: ephem.Date) -> datetime:
    return date.datetime().replace(tzinfo=UTC)


# ------------------------------------------------------------------------------------------ the rules


def test_the_rules_file_gives_the_almanac_thresholds() -> None:
    # USNO: 34' of refraction and the sun's 16' semi-diameter
    assert RULES.sunrise_alt_deg == pytest.approx(-(34 + 16) / 60, abs=1e-4)
    assert RULES.civil_twilight_alt_deg == -6.0  # USNO civil twilight, geometric
    assert RULES.moonrise_alt_deg == pytest.approx(-(34 + 15.5) / 60, abs=1e-3)
    assert RULES.moonlit_min_illumination == 0.5  # a quarter moon


def test_rules_refuse_thresholds_out_of_order() -> None:
    with pytest.raises(ValueError):
        LightRules(sunrise_alt_deg=-7.0, civil_twilight_alt_deg=-6.0, moonrise_alt_deg=-0.8,
                   moonlit_min_illumination=0.5)
    with pytest.raises(ValueError):
        LightRules(sunrise_alt_deg=-0.8, civil_twilight_alt_deg=-6.0, moonrise_alt_deg=-0.8,
                   moonlit_min_illumination=1.5)


@pytest.mark.parametrize("sun, moon, illum, want", [
    (30.0, -40.0, 0.0, "day"),
    (-0.8333, 10.0, 1.0, "day"),  # on the threshold: the sun's upper limb is on the horizon
    (-0.84, 10.0, 1.0, "twilight"),
    (-6.0, -10.0, 1.0, "twilight"),
    (-6.01, 10.0, 1.0, "moonlit_night"),
    (-20.0, -0.825, 0.5, "moonlit_night"),  # the moon's upper limb on the horizon, a quarter lit
    (-20.0, -0.83, 1.0, "dark_night"),  # full moon just below the horizon
    (-20.0, 45.0, 0.49, "dark_night"),  # a high crescent is not moonlight enough
    (-20.0, -30.0, 0.0, "dark_night"),
])
def test_truth_table(sun: float, moon: float, illum: float, want: str) -> None:
    assert STATES[state_code(sun, moon, illum)] == want
    got = np.asarray(STATES)[state_code(np.array([sun, sun]), np.array([moon, moon]), illum)]
    assert got.tolist() == [want, want]
    sun_only = "night" if want in ("moonlit_night", "dark_night") else want
    assert SUN_STATES[sun_state_code(sun)] == sun_only


def test_times_must_be_timezone_aware() -> None:
    with pytest.raises(ValueError, match="naive"):
        light_at(38.0, 15.0, datetime(1914, 8, 4, 12))


# ---------------------------------------------------------------------------------- the altitudes


def test_altitudes_match_ephems_topocentric_altitudes() -> None:
    """The sub-point method (and the moon's parallax correction) against ephem's own topocentric
    altitude, no refraction: within 0.01 deg (ephem also models the Earth's flattening)."""
    rng = np.random.default_rng(1914)
    for _ in range(60):
        when = _utc(1) + timedelta(minutes=float(rng.uniform(0, 30 * 1440)))
        lat, lon = float(rng.uniform(-60, 60)), float(rng.uniform(-180, 180))
        obs = _ephem_observer(lat, lon, when)
        assert sun_altitude_deg(lat, lon, when) == pytest.approx(math.degrees(ephem.Sun(obs).alt), abs=0.01)
        assert moon_altitude_deg(lat, lon, when) == pytest.approx(math.degrees(ephem.Moon(obs).alt), abs=0.01)


def test_the_moons_parallax_is_about_a_degree_and_lowers_it() -> None:
    when = _utc(6, 22)
    sub_lat, sub_lon, parallax = sublunar_point(when)
    assert 0.9 < parallax < 1.0  # 54'-61' over the month
    # At the sub-lunar point the moon is in the zenith either way; on the horizon it is a full parallax low.
    assert moon_altitude_deg(sub_lat, sub_lon, when) == pytest.approx(90.0, abs=1e-6)
    lat = 38.0  # where the moon's geocentric altitude is 0: cos(hour angle) = -tan(lat) tan(dec)
    lon = sub_lon + math.degrees(math.acos(-math.tan(math.radians(lat)) * math.tan(math.radians(sub_lat))))
    assert moon_altitude_deg(lat, lon, when) == pytest.approx(-parallax, abs=0.01)


def test_vectorised_equals_scalar() -> None:
    rng = np.random.default_rng(4)
    lat, lon = rng.uniform(-60, 60, 400), rng.uniform(-180, 180, 400)
    for when in (_utc(2, 9), _utc(4, 3, 40), _utc(6, 18, 30), _utc(10, 23, 59)):
        states = light_states(lat, lon, when)
        sun, moon = sun_altitude_deg(lat, lon, when), moon_altitude_deg(lat, lon, when)
        assert states.shape == sun.shape == moon.shape == (400,)
        for i in range(len(lat)):
            one = light_at(float(lat[i]), float(lon[i]), when)
            assert states[i] == one.state
            assert sun[i] == pytest.approx(one.sun_alt_deg, abs=1e-9)
            assert moon[i] == pytest.approx(one.moon_alt_deg, abs=1e-9)
        assert set(states) > {"day", "dark_night"} or set(states) > {"day", "moonlit_night"}


# ---------------------------------------------------------------------- 1914 sun against the record


@pytest.mark.parametrize("place, day, dawn, dusk", [
    ("Messina", 4, "03:31", "18:35"),
    ("Philippeville", 4, "04:09", "19:06"),
    ("Cape Helles", 10, "02:50", "17:50"),
    ("Denusa", 10, "02:59", "17:44"),
    ("Messina", 6, "03:33", "18:32"),
    ("Denusa", 6, "02:55", "17:49"),
])
def test_civil_dawn_and_dusk_of_1914(place: str, day: int, dawn: str, dusk: str) -> None:
    """The table's civil dawn and dusk (PyEphem, see the module docstring), within 2 minutes; and within 5 s
    of ephem's own -6 deg crossing (geometric, pressure 0), found by its rising/setting search rather than
    our sub-point."""
    lat, lon = _where(place)
    changes = _changes(lat, lon, _utc(day), _utc(day, 23, 59))
    got_dawn = [t for t, a, b in changes if a in ("moonlit_night", "dark_night") and b == "twilight"]
    got_dusk = [t for t, a, b in changes if a == "twilight" and b in ("moonlit_night", "dark_night")]
    assert len(got_dawn) == len(got_dusk) == 1, changes
    assert abs((got_dawn[0] - _hhmm(day, dawn)).total_seconds()) <= 120
    assert abs((got_dusk[0] - _hhmm(day, dusk)).total_seconds()) <= 120
    obs = _ephem_observer(lat, lon, _utc(day), horizon="-6")
    assert abs((got_dawn[0] - _ephem_utc(obs.next_rising(ephem.Sun(), use_center=True)))
               .total_seconds()) <= 5
    assert abs((got_dusk[0] - _ephem_utc(obs.next_setting(ephem.Sun(), use_center=True)))
               .total_seconds()) <= 5


def test_sunrise_at_messina_on_4_august_1914() -> None:
    """Standard sunrise (upper limb on the horizon, 34' refraction: centre at -0.833 deg) is 04:01:44 UT.

    The computed table's 03:57 counts refraction twice (a -0:34 horizon on top of PyEphem's default
    1010 mbar refraction); that setting reproduces it to the second, 03:57:24.
    """
    lat, lon = _where("Messina")
    sunrise = [t for t, a, b in _changes(lat, lon, _utc(4), _utc(4, 12)) if (a, b) == ("twilight", "day")]
    assert len(sunrise) == 1
    assert abs((sunrise[0] - _utc(4, 4, 1, 44)).total_seconds()) <= 30
    standard = _ephem_observer(lat, lon, "1914/8/4", horizon="-0:50")
    assert abs((sunrise[0] - _ephem_utc(standard.next_rising(ephem.Sun(), use_center=True)))
               .total_seconds()) <= 5
    twice = _ephem_observer(lat, lon, "1914/8/4", horizon="-0:34", pressure=1010.0)
    table = _ephem_utc(twice.next_rising(ephem.Sun()))
    assert table.strftime("%H:%M") == "03:57"
    assert 3.5 * 60 <= (sunrise[0] - table).total_seconds() <= 4.5 * 60


def test_noon_is_day_and_midnight_is_night() -> None:
    for place in ("Messina", "Philippeville", "Cape Helles", "Denusa", "Malta"):
        lat, lon = _where(place)
        noon = _utc(5, 12) - timedelta(hours=lon / 15.0)  # local mean noon
        assert light_at(lat, lon, noon).state == "day"
        assert light_at(lat, lon, noon).sun_alt_deg > 50.0  # early August, latitude 36-40 N
        assert light_at(lat, lon, noon + timedelta(hours=12)).is_night


# --------------------------------------------------------------------- 1914 moon against the record


def test_full_moon_of_6_august_1914() -> None:
    """Full moon 6 Aug 1914 00:40 UT (computed with PyEphem 4.2.1; the installed ephem agrees to the minute).

    The lit fraction is >= 0.999 then; it peaks at least elongation, which follows opposition in
    longitude by about an hour here because the moon stood off the ecliptic, so its maximum is within
    two hours of 00:40. A week either side (the quarters of 29 Jul 23:51 and 14 Aug 00:56) it is a half.
    """
    assert _ephem_utc(ephem.next_full_moon("1914/8/1")).strftime("%d %H:%M") == "06 00:40"
    assert moon_illumination(_utc(6, 0, 40)) >= 0.999
    times = [_utc(5, 12) + timedelta(minutes=10 * i) for i in range(6 * 24)]
    lit = [moon_illumination(t) for t in times]
    peak = times[int(np.argmax(lit))]
    assert max(lit) >= 0.999
    assert abs((peak - _utc(6, 0, 40)).total_seconds()) <= 2 * 3600
    assert moon_illumination(datetime(1914, 7, 29, 23, 51, tzinfo=UTC)) == pytest.approx(0.5, abs=0.03)
    assert moon_illumination(_utc(14, 0, 56)) == pytest.approx(0.5, abs=0.03)
    assert moon_illumination(_utc(21, 12, 26)) < 0.01  # new moon, the total eclipse


def _moon_crossing(lat: float, lon: float, t0: datetime, t1: datetime) -> datetime:
    f = lambda s: moon_altitude_deg(lat, lon, t0 + timedelta(seconds=s)) - RULES.moonrise_alt_deg
    return t0 + timedelta(seconds=brentq(f, 0.0, (t1 - t0).total_seconds(), xtol=0.1))


def test_moonrise_at_messina_on_6_august_1914() -> None:
    """The moon rose at about 18:26 UT at Messina on 6 Aug, shortly after sunset (computed with PyEphem).

    That column counts refraction twice (see the module docstring): the standard moonrise, which
    light.py's moonrise altitude gives, is 18:30 UT, 4 minutes later; it matches ephem's standard
    moonrise (upper limb, 34' horizon, no second refraction) to within seconds.
    """
    lat, lon = _where("Messina")
    rise = _moon_crossing(lat, lon, _utc(6, 17), _utc(6, 20))
    assert abs((rise - _hhmm(6, "18:26")).total_seconds()) <= 5 * 60
    standard = _ephem_observer(lat, lon, "1914/8/6 12:00", horizon="-0:34")
    assert abs((rise - _ephem_utc(standard.next_rising(ephem.Moon()))).total_seconds()) <= 15
    twice = _ephem_observer(lat, lon, "1914/8/6 12:00", horizon="-0:34", pressure=1010.0)
    assert _ephem_utc(twice.next_rising(ephem.Moon())).strftime("%H:%M") == "18:26"
    # The moon rose in twilight: night fell already moonlit.
    assert light_at(lat, lon, rise).state == "twilight"


@pytest.mark.parametrize("place", ["Messina", "Cape Matapan", "Zante"])
def test_the_night_of_6_7_august_was_moonlit_all_night(place: str) -> None:
    """"Bright moonlight" on the night of 6/7 Aug (Massie, Castles of Steel, read-anybook.com; Hough, The
    Great War at Sea p.11; Kopp's "moonlight on the water", memoir, Russian tr., onlinekniga.com p.11):
    the moon was up all night in the Ionian, so night is moonlit from dusk to dawn with no change
    between."""
    lat, lon = _where(place)
    changes = _changes(lat, lon, _utc(6, 12), _utc(7, 12))
    states = [b for _, _, b in changes]
    assert states == ["twilight", "moonlit_night", "twilight", "day"], changes
    dusk, dawn = changes[1][0], changes[2][0]
    assert (dawn - dusk) > timedelta(hours=8)
    assert light_at(lat, lon, dusk + (dawn - dusk) / 2).moon_illumination > 0.99


def test_dark_nights() -> None:
    """Dark when the moon is down (Messina, before dawn on 3 Aug: the table's moonset 00:51), near new
    moon (21 Aug 1914), and under a thin crescent that is up (24 Aug, evening)."""
    lat, lon = _where("Messina")
    moon_down = light_at(lat, lon, _utc(3, 2))
    assert moon_down.state == "dark_night"
    assert moon_down.moon_illumination > 0.8 and moon_down.moon_alt_deg < 0.0
    new_moon = light_at(lat, lon, _utc(20, 22))
    assert new_moon.state == "dark_night" and new_moon.moon_illumination < 0.01
    crescent = light_at(lat, lon, _utc(24, 18, 45))
    assert crescent.state == "dark_night"
    assert crescent.moon_alt_deg > 2.0 and 0.05 < crescent.moon_illumination < RULES.moonlit_min_illumination
    # The same night at Messina: dark after moonset on 2/3 Aug, the change solved to the moonset.
    changes = _changes(lat, lon, _utc(2, 20), _utc(3, 6))
    assert [b for _, _, b in changes] == ["dark_night", "twilight", "day"]
    assert changes[0][1] == "moonlit_night"
    assert abs((changes[0][0] - _hhmm(3, "00:51")).total_seconds()) <= 6 * 60  # table sets ~4 min late


# --------------------------------------------------------------------------- exactness of changes


def _scan(position, t0: datetime, t1: datetime, step_s: int = 10) -> list[tuple[datetime, str]]:
    """Brute force: the first 10-second sample showing each new state."""
    out, prev = [], light_at(*position(t0), t0).state
    for k in range(1, int((t1 - t0).total_seconds()) // step_s + 1):
        t = t0 + timedelta(seconds=k * step_s)
        state = light_at(*position(t), t).state
        if state != prev:
            out.append((t, state))
            prev = state
    return out


def _check_against_scan(found: list[tuple[datetime, str]], scanned: list[tuple[datetime, str]]) -> None:
    assert [s for _, s in found] == [s for _, s in scanned]
    for (t_found, _), (t_scan, _) in zip(found, scanned, strict=True):
        assert timedelta(0) <= t_scan - t_found <= timedelta(seconds=10)


def test_next_change_equals_a_brute_force_scan_at_a_fixed_place() -> None:
    lat, lon = _where("Malta")
    t0, t1 = _utc(2, 12), _utc(3, 12)  # moonset at 01:04 on the 3rd: all four states
    found = [(t, b) for t, _, b in _changes(lat, lon, t0, t1)]
    assert {s for _, s in found} == set(STATES)
    _check_against_scan(found, _scan(lambda t: (lat, lon), t0, t1))


def test_next_change_along_a_track_equals_a_brute_force_scan() -> None:
    """Goeben-like: 24 knots east-south-east from off Messina through the night of 4/5 Aug; the light
    changes at the ship, not at any fixed place."""
    lat0, lon0 = _where("Messina")
    t0, t1 = _utc(4, 12), _utc(5, 8)

    def track(when: datetime) -> tuple[float, float]:
        h = (when - t0).total_seconds() / 3600.0
        return lat0 - 0.12 * h, lon0 + 0.35 * h  # about 24 kn

    found: list[tuple[datetime, str]] = []
    t = t0
    while (nxt := next_change_along(track, t, t1)) is not None:
        t = nxt
        found.append((t, light_at(*track(t), t).state))
    assert len(found) >= 4
    _check_against_scan(found, _scan(track, t0, t1))
    # The fixed place would have had its changes at other instants (the ship ran east into the night).
    fixed = [t for t, _, _ in _changes(lat0, lon0, t0, t1)]
    assert all(abs((a - b).total_seconds()) > 60 for (a, _), b in zip(found, fixed, strict=False))


def test_the_change_is_found_to_under_a_second() -> None:
    """At the instant returned the new state holds; a second earlier the old one still did."""
    tol = 2 * CROSSING_TOL.total_seconds()
    for place, day in (("Messina", 4), ("Philippeville", 6), ("Denusa", 10)):
        lat, lon = _where(place)
        for t, before, after in _changes(lat, lon, _utc(day), _utc(day + 1)):
            assert before != after
            assert light_at(lat, lon, t - timedelta(seconds=tol)).state == before
            assert light_at(lat, lon, t - timedelta(seconds=1)).state == before


def test_no_change_and_empty_windows() -> None:
    lat, lon = _where("Messina")
    assert next_change(lat, lon, _utc(4, 8), _utc(4, 16)) is None  # all day
    assert next_change(lat, lon, _utc(4, 8), _utc(4, 8)) is None
    assert next_change(lat, lon, _utc(4, 8), _utc(4, 7)) is None
    # The window is half-open: a change exactly at t0 is not reported again from t0.
    sunset = next_change(lat, lon, _utc(4, 16), _utc(4, 20))
    assert sunset is not None and light_at(lat, lon, sunset).state == "twilight"
    assert next_change(lat, lon, sunset, sunset + timedelta(minutes=5)) is None


# ------------------------------------------------------------------------------------ invariants


@settings(max_examples=300, deadline=None)
@given(lat=st.floats(-66.0, 66.0), lon=st.floats(-180.0, 180.0),
       minutes=st.floats(0.0, 365.0 * 1440.0))
def test_states_are_consistent_with_the_altitudes(lat: float, lon: float, minutes: float) -> None:
    when = datetime(1914, 1, 1, tzinfo=UTC) + timedelta(minutes=minutes)
    light = light_at(lat, lon, when)
    assert isinstance(light, Light) and light.state in STATES
    assert -90.0 <= light.sun_alt_deg <= 90.0 and -91.0 <= light.moon_alt_deg <= 90.0
    assert 0.0 <= light.moon_illumination <= 1.0
    assert light.sun_alt_deg == pytest.approx(sun_altitude_deg(lat, lon, when), abs=1e-9)
    assert light.moon_alt_deg == pytest.approx(moon_altitude_deg(lat, lon, when), abs=1e-9)
    assert light.moon_illumination == pytest.approx(moon_illumination(when), abs=1e-12)
    sun, moon = light.sun_alt_deg, light.moon_alt_deg
    if sun >= RULES.sunrise_alt_deg:
        assert light.state == "day"
    elif sun >= RULES.civil_twilight_alt_deg:
        assert light.state == "twilight"
    elif moon >= RULES.moonrise_alt_deg and light.moon_illumination >= RULES.moonlit_min_illumination:
        assert light.state == "moonlit_night"
    else:
        assert light.state == "dark_night"
    assert light.is_night == (sun < RULES.civil_twilight_alt_deg)
    assert is_night(lat, lon, when) == light.is_night


def test_the_suns_night_is_the_lights_night_minute_by_minute() -> None:
    """``is_night`` (the sun alone) against ``light_at`` at every second through Messina's dusk and
    dawn of 6 August 1914 (a moonlit night: the moon never makes it day) and every minute of the day."""
    lat, lon = 38.19, 15.56
    day = datetime(1914, 8, 6, tzinfo=UTC)
    whens = [day + timedelta(minutes=m) for m in range(1440)]
    for hour in (4, 18):  # civil dawn about 04:10 UTC, dusk about 18:40 UTC
        whens += [day + timedelta(hours=hour, seconds=s) for s in range(3600)]
    flips = 0
    for i, when in enumerate(whens):
        night = is_night(lat, lon, when)
        assert night == light_at(lat, lon, when).is_night, when
        flips += i > 0 and night != is_night(lat, lon, whens[i - 1])
    assert flips >= 4  # dusk and dawn, in the minutes and again in the seconds


@settings(max_examples=200, deadline=None)
@given(lat=st.floats(-60.0, 60.0), lon=st.floats(-30.0, 60.0), minutes=st.floats(0.0, 40.0 * 1440.0),
       fractions=st.lists(st.floats(-1.0, 1.0), min_size=1, max_size=20))
def test_night_holds_as_long_as_it_says(lat: float, lon: float, minutes: float, fractions: list[float]) -> None:
    """``night_and_hold``: the answer is ``is_night``'s, and ``is_night`` gives it again at the same place
    at any time within the hold (sampled, and at its very ends)."""
    when = datetime(1914, 7, 20, tzinfo=UTC) + timedelta(minutes=minutes)
    night, hold_s = night_and_hold(lat, lon, when)
    assert night == is_night(lat, lon, when)
    assert hold_s >= 0.0
    for f in [*fractions, 1.0 - 1e-9, -1.0 + 1e-9]:
        assert is_night(lat, lon, when + timedelta(seconds=f * hold_s)) == night


def test_night_holds_for_hours_at_noon_and_not_at_dusk() -> None:
    """At Messina's noon the sun stands ~60 degrees above the civil-twilight altitude: at the fastest the
    sun's altitude moves there (11.85 deg/h) that is over five hours. Across dusk the hold runs out just
    before the change (civil dusk about 18:32 UTC on 6 August 1914), and not long before."""
    lat, lon = 38.19, 15.56
    noon = datetime(1914, 8, 6, 11, 0, tzinfo=UTC)
    night, hold_s = night_and_hold(lat, lon, noon)
    assert not night and hold_s > 5 * 3600
    before = datetime(1914, 8, 6, 18, 0, tzinfo=UTC)
    night, hold_s = night_and_hold(lat, lon, before)
    dusk = brentq(lambda s: sun_altitude_deg(lat, lon, before + timedelta(seconds=s)) - RULES.civil_twilight_alt_deg,
                  0.0, 3 * 3600.0)
    assert not night and 0.85 * dusk < hold_s < dusk  # the sun sinks at ~11 deg/h there, the bound is 11.85


# ------------------------------------------------------------------- fast scalar paths, exactly


@settings(max_examples=300, deadline=None)
@given(minutes=st.floats(0.0, 60.0 * 1440.0))
def test_the_scalar_interpolation_gives_the_numpy_rows_doubles(minutes: float) -> None:
    from campaign.world.light import TABLE_SAMPLES, _ephem_date, _hour_table, _interp, _interp_many

    date = _ephem_date(datetime(1914, 7, 1, tzinfo=UTC)) + minutes / 1440.0
    x = date * 24.0
    hour = math.floor(x)
    pos = (x - hour) * TABLE_SAMPLES
    k = min(int(pos), TABLE_SAMPLES - 1)
    t = _hour_table(hour)
    want = (t[k] + (t[k + 1] - t[k]) * (pos - k)).tolist()  # the numpy form it replaced
    assert list(_interp(date)) == want  # the same doubles, not merely close
    assert _interp_many(np.array([date, date + 0.3]))[0].tolist() == want


@settings(max_examples=300, deadline=None)
@given(lat=st.floats(-80.0, 80.0), lon=st.floats(-180.0, 180.0), sub_lat=st.floats(-30.0, 30.0),
       sub_lon=st.floats(-540.0, 540.0), parallax=st.sampled_from([0.0, 0.9, 1.0]))
def test_the_scalar_altitude_gives_the_generic_forms_doubles(lat, lon, sub_lat, sub_lon, parallax) -> None:
    from campaign.world.light import _MATH, _altitude, _altitude_scalar

    assert _altitude_scalar(lat, lon, sub_lat, sub_lon, parallax) == _altitude(lat, lon, sub_lat, sub_lon,
                                                                               parallax, _MATH)


def test_a_probes_remembered_altitudes_are_the_ones_worked_out_afresh() -> None:
    from campaign.world.light import _SecondsProbe

    lat0, lon0 = _where("Messina")

    def where(x: float) -> tuple[float, float]:
        return lat0 - x / 36000.0, lon0 + x / 18000.0

    t0 = _utc(6, 17)
    probe = _SecondsProbe(where, t0, RULES)
    xs = [0.0, 600.0, 1234.5, 3600.0, 7200.0]
    first = [(probe.sun_alt(x), probe.moon(x), probe.state(x)) for x in xs]
    again = [(probe.sun_alt(x), probe.moon(x), probe.state(x)) for x in xs]
    fresh = [(_SecondsProbe(where, t0, RULES).sun_alt(x), _SecondsProbe(where, t0, RULES).moon(x),
              _SecondsProbe(where, t0, RULES).state(x)) for x in xs]
    assert first == again == fresh
    assert [probe.margin(k, 1234.5) for k in range(4)] == [_SecondsProbe(where, t0, RULES).margin(k, 1234.5)
                                                          for k in range(4)]


# ------------------------------------------------------------- the vectorised sweep, exactly


def _state_codes_the_long_way(lats: np.ndarray, lons: np.ndarray, dates: np.ndarray) -> np.ndarray:
    """``state_codes_along`` as it was first written: every column gathered twice from the stacked
    tables, each body's altitude worked out whole (the sun by the generic ``_altitude``), ``np.clip``,
    and the moon at every point."""
    from campaign.world.light import _NUMPY, TABLE_SAMPLES, _altitude, _stacked_tables

    x = dates * 24.0
    hours = np.floor(x)
    pos = (x - hours) * TABLE_SAMPLES
    k = np.minimum(pos.astype(np.int64), TABLE_SAMPLES - 1)
    f = (pos - k)[:, None]
    first = int(hours.min())
    stacked = _stacked_tables(first, int(hours.max()) - first + 1)
    i = (hours.astype(np.int64) - first) * (TABLE_SAMPLES + 1) + k
    rows = stacked[i] + (stacked[i + 1] - stacked[i]) * f
    la, lo = np.asarray(lats, dtype=float), np.asarray(lons, dtype=float)
    sun_alt = _altitude(la, lo, rows[:, 0], rows[:, 1], 0.0, _NUMPY)
    s = np.clip(np.sin(np.radians(la)) * np.sin(np.radians(rows[:, 2])) + np.cos(np.radians(la))
                * np.cos(np.radians(rows[:, 2])) * np.cos(np.radians(lo) - np.radians(rows[:, 3])), -1.0, 1.0)
    moon_alt = np.degrees(np.arctan2(s - np.sin(np.radians(rows[:, 4])), np.sqrt(1.0 - s * s)))
    return np.asarray(state_code(sun_alt, moon_alt, rows[:, 5], RULES), dtype=np.int64)


@settings(max_examples=150, deadline=None)
@given(lat=st.floats(30.0, 46.0), lon=st.floats(-6.0, 36.0), minutes=st.floats(0.0, 60.0 * 1440.0),
       dlat=st.floats(-0.01, 0.01), dlon=st.floats(-0.01, 0.01), n=st.integers(1, 60))
def test_the_sweep_gives_the_long_ways_states_and_rows(lat, lon, minutes, dlat, dlon, n) -> None:
    """``state_codes_along`` and ``sample_along`` (shared sines, steps read from a table, the moon skipped
    when the sun is up all along) give the states of the long way, and ``_interp_many`` its rows, to the
    bit; by day (the moon skipped), by night and across dusk and dawn."""
    from campaign.world.light import (
        SEARCH_STEP,
        TABLE_SAMPLES,
        _ephem_date,
        _interp_many,
        _stacked_tables,
        sample_along,
        state_codes_along,
    )

    t0 = datetime(1914, 7, 1, tzinfo=UTC) + timedelta(minutes=minutes)
    xs = np.minimum(np.arange(n + 1) * 600.0, n * 600.0 - 1.0)
    lats, lons = lat + dlat * xs / 600.0, lon + dlon * xs / 600.0
    dates = _ephem_date(t0) + xs / 86400.0
    want = _state_codes_the_long_way(lats, lons, dates)
    assert state_codes_along(lats, lons, dates).tolist() == want.tolist()
    assert state_codes_along(lats[::-1], lons[::-1], dates[::-1]).tolist() == want[::-1].tolist()

    x = dates * 24.0
    hours = np.floor(x)
    first = int(hours.min())
    stacked = _stacked_tables(first, int(hours.max()) - first + 1)
    pos = (x - hours) * TABLE_SAMPLES
    k = np.minimum(pos.astype(np.int64), TABLE_SAMPLES - 1)
    i = (hours.astype(np.int64) - first) * (TABLE_SAMPLES + 1) + k
    want_rows = stacked[i] + (stacked[i + 1] - stacked[i]) * (pos - k)[:, None]
    assert _interp_many(dates).tolist() == want_rows.tolist()

    span_s = n * 600.0 - 1.0
    got_xs, got = sample_along(lambda s: (lat + dlat * s / 600.0, lon + dlon * s / 600.0), t0, span_s)
    step_s = SEARCH_STEP.total_seconds()
    long_xs = np.minimum(np.arange(max(1, math.ceil(span_s / step_s)) + 1) * step_s, span_s)
    assert got_xs.tolist() == long_xs.tolist()
    long_codes = _state_codes_the_long_way(lat + dlat * long_xs / 600.0, lon + dlon * long_xs / 600.0,
                                           _ephem_date(t0) + long_xs / 86400.0)
    assert got.tolist() == long_codes.tolist()


def test_the_sweep_skips_the_moon_only_when_it_cannot_matter() -> None:
    """A day's sweep (sun up at every point) and a night's give the long way's states; and the skip is
    taken by day: a NaN moon row would otherwise be read (it is not, because the sun alone decides)."""
    from campaign.world.light import _codes

    lat, lon = _where("Messina")
    for hour, kinds in ((11, {0}), (23, {2, 3})):
        t0 = _utc(6, hour)
        from campaign.world.light import _ephem_date, _interp_many

        dates = _ephem_date(t0) + np.arange(7) * 600.0 / 86400.0
        la, lo = np.full(7, lat), np.full(7, lon)
        rows = _interp_many(dates).copy()
        want = _state_codes_the_long_way(la, lo, dates)
        assert set(want.tolist()) <= kinds
        assert _codes(rows, la, lo, RULES).tolist() == want.tolist()
        rows[:, 2:] = np.nan  # the moon unknown
        got = _codes(rows, la, lo, RULES).tolist()
        assert (got == want.tolist()) == (kinds == {0})


def test_clip_unit_is_np_clip() -> None:
    from campaign.world.light import _clip_unit

    s = np.array([-2.0, -1.0, -0.0, 0.0, 0.3, 1.0, 1.0 + 1e-16, 1.5, np.nan, np.inf, -np.inf])
    got, want = _clip_unit(s), np.clip(s, -1.0, 1.0)
    assert np.array_equal(got, want, equal_nan=True)
    assert np.array_equal(np.signbit(got), np.signbit(want))


# ------------------------------------------------------------- holds at a fixed place


@settings(max_examples=40, deadline=None)
@given(day=st.integers(0, 365), hour=st.integers(0, 23))
def test_the_tabled_sun_moves_no_faster_than_the_holds_assume(day: int, hour: int) -> None:
    """The bounds of :func:`sun_alt_rate_bound_deg_per_s` on the tables the altitudes are read from: the
    sub-solar longitude moves at most SUN_HOUR_ANGLE_RATE_MAX a second, its latitude at most
    SUN_DEC_RATE_MAX, minute by minute (1914, any day; the chord of a minute is what interpolation
    moves along)."""
    from campaign.world.light import (
        SUN_DEC_RATE_MAX_DEG_PER_S,
        SUN_HOUR_ANGLE_RATE_MAX_DEG_PER_S,
        TABLE_STEP_DAYS,
        _ephem_date,
        _hour_table,
    )

    h = math.floor(_ephem_date(datetime(1914, 1, 1, tzinfo=UTC) + timedelta(days=day, hours=hour)) * 24.0)
    t = _hour_table(h)
    step_s = TABLE_STEP_DAYS * 86400.0
    assert np.abs(np.diff(t[:, 1])).max() <= SUN_HOUR_ANGLE_RATE_MAX_DEG_PER_S * step_s
    assert np.abs(np.diff(t[:, 1])).min() >= 14.99 / 3600.0 * step_s  # and it does move: the bound is close
    assert np.abs(np.diff(t[:, 0])).max() <= SUN_DEC_RATE_MAX_DEG_PER_S * step_s


@settings(max_examples=150, deadline=None)
@given(lat=st.floats(-60.0, 60.0), lon=st.floats(-30.0, 60.0), minutes=st.floats(0.0, 60.0 * 1440.0))
def test_a_hold_ends_before_the_sun_reaches_civil_twilight(lat: float, lon: float, minutes: float) -> None:
    """The hold is never longer than the time to the sun's next (and its last) crossing of the
    civil-twilight altitude at that place, found by brentq on the altitude the answer is read from;
    and it is no shorter than the old bound's (the fastest any altitude moves, 17 deg/h)."""
    from campaign.world.light import HOLD_SLACK_DEG, MAX_ALT_RATE_DEG_PER_S, _sun_alt_scalar

    when = datetime(1914, 7, 20, tzinfo=UTC) + timedelta(minutes=minutes)
    night, hold_s = night_and_hold(lat, lon, when)
    alt0 = _sun_alt_scalar(lat, lon, when)
    margin = abs(alt0 - RULES.civil_twilight_alt_deg) - HOLD_SLACK_DEG
    assert hold_s >= (margin / MAX_ALT_RATE_DEG_PER_S if margin > 0.0 else 0.0)

    def above(s: float) -> float:
        return _sun_alt_scalar(lat, lon, when + timedelta(seconds=s)) - RULES.civil_twilight_alt_deg

    for sign in (1.0, -1.0):
        grid = np.arange(0.0, hold_s + 60.0, 60.0) * sign  # the first minute the side changes, if any
        sides = [above(s) >= 0.0 for s in grid]
        flip = next((j for j in range(1, len(sides)) if sides[j] != sides[0]), None)
        if flip is not None:
            a, b = sorted((grid[flip - 1], grid[flip]))
            crossing = abs(brentq(above, a, b, xtol=1e-3))
            assert hold_s < crossing


def test_the_hold_bound_is_cos_lat_times_the_suns_turn() -> None:
    from campaign.world.light import (
        MAX_ALT_RATE_DEG_PER_S,
        SUN_DEC_RATE_MAX_DEG_PER_S,
        SUN_HOUR_ANGLE_RATE_MAX_DEG_PER_S,
        sun_alt_rate_bound_deg_per_s,
    )

    assert sun_alt_rate_bound_deg_per_s(0.0) == pytest.approx(
        SUN_HOUR_ANGLE_RATE_MAX_DEG_PER_S + SUN_DEC_RATE_MAX_DEG_PER_S, rel=1e-11)
    assert sun_alt_rate_bound_deg_per_s(38.0) * 3600.0 == pytest.approx(11.85, abs=0.01)
    assert sun_alt_rate_bound_deg_per_s(-38.0) == sun_alt_rate_bound_deg_per_s(38.0)
    assert all(sun_alt_rate_bound_deg_per_s(lat) < MAX_ALT_RATE_DEG_PER_S for lat in range(-90, 91))
