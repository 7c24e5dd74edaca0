"""Jane's light by direction: the sun in the firer's eyes, the target against the bright or the dark sky.

Seed 004 l.35: "sun, lee sea, night and rolling ships also shift to targets 1,000-2,000 yards farther";
l.11: "Clear daylight sighting 10 miles, moonlit night about 5 miles". The bands and sectors are the data
files' (data/tactics/jane.yaml ``shifts.sun_dazzle_yd``, ``twilight_bright_sky_yd``; data/sighting.yaml
``twilight_by_direction``), labelled stand-ins there.
"""

from __future__ import annotations

import itertools
import math
from datetime import timedelta

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from campaign.duels.duel import duel_setting, duel_setup, fight_duel, load_duel
from campaign.model.ships import find_ship
from campaign.tactics import jane_fire
from campaign.tactics.jane import JaneEngine, load_rules
from campaign.tactics.jane_rulebook import light_shift_yd
from campaign.tactics.jane_ship import from_combatant
from campaign.tactics.protocol import (
    BattleSetup,
    Combatant,
    HelmOrder,
    LightDirection,
    Setting,
    off_bearing_deg,
)
from campaign.world.light import default_light_rules

RULES = load_rules()
DAWN_DUEL = "scenarios/duels/troubridge_vs_goeben_dawn.yaml"
BRIGHT_YD, DARK_YD, TWILIGHT_YD = 17000.0, 8500.0, 12750.0

bearings = st.floats(-720.0, 720.0, allow_nan=False)
azimuths = st.floats(0.0, 360.0, allow_nan=False, exclude_max=True)


def sun(azimuth_deg: float, altitude_deg: float = 5.0) -> Setting:
    """Day with the sun at this azimuth and altitude."""
    return Setting("day", 2, 20000.0, False, LightDirection(azimuth_deg, altitude_deg, 90.0))


def twilight(azimuth_deg: float, altitude_deg: float = -3.0) -> Setting:
    return Setting("twilight", 2, TWILIGHT_YD, False,
                   LightDirection(azimuth_deg, altitude_deg, 90.0, BRIGHT_YD, DARK_YD))


# -- the figures ------------------------------------------------------------------------------------

def test_the_light_shifts_are_the_seeds_1000_to_2000_yards_and_the_bands_two_and_four_points():
    # Seed 004 l.35: the sun's shift, like the night's, is 1,000-2,000 yards farther; the bands' angles
    # are two and four compass points (stand-ins, data/tactics/jane.yaml).
    assert RULES.sun_dazzle == ((22.5, 2000.0), (45.0, 1000.0))
    assert {yd for _, yd in RULES.sun_dazzle} == {1000.0, 2000.0}
    # Against the bright sky as by day; against the dark as the twilight figure (the lesser night shift).
    assert RULES.twilight_bright_sky_yd == RULES.light_shift_yd["day"] == 0.0
    assert RULES.light_shift_yd["twilight"] == RULES.light_shift_yd["moonlit"] == 1000.0
    # No light shift by direction exceeds the greatest by name, which the eyes-shut table is built to take.
    assert max(yd for _, yd in RULES.sun_dazzle) <= max(RULES.light_shift_yd.values())


def test_without_a_direction_the_light_shifts_by_its_name_alone():
    for light, yd in {"day": 0.0, "twilight": 1000.0, "moonlit": 1000.0, "dark": 2000.0}.items():
        for bearing in (0.0, 90.0, 200.0):
            assert light_shift_yd(RULES, Setting(light), bearing) == yd


# -- the sun in the firer's eyes ------------------------------------------------------------------------

def test_a_firer_looking_into_a_low_sun_fires_as_at_a_target_farther_and_one_with_the_sun_behind_does_not():
    s = sun(80.0, 5.0)
    assert light_shift_yd(RULES, s, 80.0) == 2000.0  # straight into it: 5 deg off the line of sight
    assert light_shift_yd(RULES, s, 100.0) == 2000.0  # 20 deg to starboard of it
    assert light_shift_yd(RULES, s, 60.0) == 2000.0  # and to port
    assert light_shift_yd(RULES, s, 115.0) == 1000.0  # 35 deg: within four points, not two
    assert light_shift_yd(RULES, s, 45.0) == 1000.0
    assert light_shift_yd(RULES, s, 130.0) == 0.0  # 50 deg off: clear of it
    assert light_shift_yd(RULES, s, 260.0) == 0.0  # the sun behind her
    assert light_shift_yd(RULES, s, 170.0) == 0.0  # on the beam


def test_the_sun_wraps_at_north():
    for az, bearing in ((350.0, 5.0), (350.0, 335.0), (10.0, 350.0), (10.0, 25.0), (359.9, 0.1), (0.1, 359.9)):
        assert light_shift_yd(RULES, sun(az, 3.0), bearing) == 2000.0, (az, bearing)
        assert light_shift_yd(RULES, sun(az, 3.0), bearing + 180.0) == 0.0, (az, bearing)
    assert light_shift_yd(RULES, sun(350.0, 3.0), 30.0) == 1000.0  # 40 deg round north
    assert off_bearing_deg(350.0, 10.0) == off_bearing_deg(10.0, 350.0) == pytest.approx(20.0)


def test_the_sun_high_never_dazzles_and_a_little_lower_only_the_lesser():
    for bearing in range(0, 360, 5):
        assert light_shift_yd(RULES, sun(120.0, 50.0), float(bearing)) == 0.0
        assert light_shift_yd(RULES, sun(120.0, 30.0), float(bearing)) in (0.0, 1000.0)
    assert light_shift_yd(RULES, sun(120.0, 30.0), 120.0) == 1000.0


@given(azimuths, st.floats(default_light_rules().sunrise_alt_deg, 90.0), bearings)
def test_the_dazzle_is_one_of_the_seeds_shifts_and_goes_by_the_angle_to_the_sun(az, alt, bearing):
    s = sun(az, alt)
    yd = light_shift_yd(RULES, s, bearing)
    assert yd in (0.0, 1000.0, 2000.0)
    assert light_shift_yd(RULES, s, bearing + 360.0) == yd
    # The same either side of the sun.
    mirror = 2.0 * az - bearing
    assert light_shift_yd(RULES, s, mirror) == yd or math.isclose(
        off_bearing_deg(bearing, az), 22.5, abs_tol=1e-6) or math.isclose(off_bearing_deg(bearing, az), 45.0,
                                                                              abs_tol=1e-6)
    off_sight = s.light_direction.sun_off_sight_deg(bearing)
    # Never nearer the line of sight than the sun's height, nor (up to the beam) than its azimuth's offset.
    assert off_sight >= max(abs(alt), min(off_bearing_deg(bearing, az), 90.0)) - 1e-9
    if off_sight > 45.0:
        assert yd == 0.0
    # Nearer the sun, never less dazzled.
    nearer = az + 0.5 * ((bearing - az + 180.0) % 360.0 - 180.0)
    assert light_shift_yd(RULES, s, nearer) >= yd


# -- twilight: against the bright or the dark sky ---------------------------------------------------------

def test_in_twilight_a_target_against_the_bright_sky_is_fired_at_as_by_day_and_against_the_dark_as_in_twilight():
    s = twilight(65.0)
    assert light_shift_yd(RULES, s, 100.0) == 0.0  # ESE of the firer, the sun rising ENE
    assert light_shift_yd(RULES, s, 150.0) == 0.0  # 85 deg off: the sun's half of the horizon
    assert light_shift_yd(RULES, s, 280.0) == 1000.0  # the dark west
    assert light_shift_yd(RULES, s, 160.0) == 1000.0  # 95 deg off
    assert light_shift_yd(RULES, twilight(350.0), 40.0) == 0.0  # round north
    assert light_shift_yd(RULES, twilight(350.0), 170.0) == 1000.0


def test_in_twilight_a_ship_is_seen_farther_against_the_bright_sky():
    s = twilight(65.0)
    assert s.visibility_toward_yd(100.0) == BRIGHT_YD
    assert s.visibility_toward_yd(280.0) == DARK_YD
    assert s.farthest_visibility_yd() == BRIGHT_YD
    assert s.directional_visibility
    for plain in (Setting("twilight", 2, TWILIGHT_YD), sun(65.0)):
        assert not plain.directional_visibility
        assert plain.visibility_toward_yd(100.0) == plain.visibility_toward_yd(280.0) == plain.visibility_yd
        assert plain.farthest_visibility_yd() == plain.visibility_yd
    with pytest.raises(ValueError):
        LightDirection(65.0, -3.0, 90.0, BRIGHT_YD, None)


@given(azimuths, st.floats(-90.0, 90.0), bearings, st.sampled_from(["moonlit", "dark"]))
def test_at_night_the_bearing_does_not_matter(az, alt, bearing, light):
    s = Setting(light, 2, 5000.0, False, LightDirection(az, alt, 90.0))
    assert light_shift_yd(RULES, s, bearing) == RULES.light_shift_yd[light]
    assert s.visibility_toward_yd(bearing) == 5000.0


# -- in the engine ---------------------------------------------------------------------------------------

def combatant(name: str, side: str, x: float, y: float, course: float = 0.0, speed: float = 12.0) -> Combatant:
    ship = find_ship(name)
    return Combatant(ship, name, side, x, y, course, speed, ship.sustained_speed_kn)


def test_the_strike_carries_the_light_shift_and_the_range_is_shifted_by_it():
    a = from_combatant(RULES, combatant("Defence", "B", 0.0, 0.0))
    b = from_combatant(RULES, combatant("Goeben", "G", 9000.0, 0.0))  # due east, same course and speed
    into = jane_fire.strike_chance(RULES, a, b, sun(90.0, 4.0))
    away = jane_fire.strike_chance(RULES, b, a, sun(90.0, 4.0))
    assert (into.light_shift_yd, away.light_shift_yd) == (2000.0, 0.0)
    assert into.shifted_range_yd == pytest.approx(11000.0) and away.shifted_range_yd == pytest.approx(9000.0)
    assert into.chance < away.chance
    assert jane_fire.shifted_range_yd(RULES, a, b, sun(90.0, 4.0)) == pytest.approx(11000.0)


def _fight(setting: Setting, moves: int, x_yd: float) -> list:
    """Defence at the origin and Goeben ``x_yd`` due east, both steaming north at 12 knots, for ``moves``."""
    setup = BattleSetup((combatant("Defence", "B", 0.0, 0.0), combatant("Goeben", "G", x_yd, 0.0)),
                        setting, {"B": "engage", "G": "engage"})
    battle = JaneEngine(RULES).begin(setup, np.random.default_rng(7))
    events = []
    for _ in range(moves):
        helm = {v.name: HelmOrder(v.course_deg, v.speed_kn) for v in battle.views() if v.afloat}
        events += battle.step(helm, setting)
    return [e for e in events if e.type == "fire"]


def test_the_fire_events_record_the_light_shift_by_direction():
    fire = _fight(sun(90.0, 4.0), 4, 9000.0)
    shifts = {(e.ship, e.data["light_shift_yd"]) for e in fire}
    assert shifts == {("Defence", 2000.0), ("Goeben", 0.0)}  # Defence looks into the rising sun
    for e in fire:
        assert e.data["shifted_range_yd"] >= e.data["range_yd"] + e.data["light_shift_yd"] - 1.0


def test_in_twilight_the_ship_against_the_dark_sky_sees_nothing_beyond_its_range():
    # 12,000 yards apart: Goeben, east of Defence, stands against the dawn and is seen (17,000 yd);
    # Defence, against the dark west, is not (8,500 yd), though the twilight's 12,750 would reach her.
    fire = _fight(twilight(80.0), 4, 12000.0)
    assert {e.ship for e in fire} == {"Defence"}
    assert all(e.data["light_shift_yd"] == 0.0 for e in fire)
    plain = _fight(Setting("twilight", 2, TWILIGHT_YD), 4, 12000.0)
    assert {e.ship for e in plain} == {"Defence", "Goeben"}
    assert all(e.data["light_shift_yd"] == 1000.0 for e in plain)


# -- the dawn of 7 August 1914 off Zante -----------------------------------------------------------------

@pytest.fixture(scope="module")
def dawn():
    duel = load_duel(DAWN_DUEL)
    setup, _ = duel_setup(duel, "jane")
    return duel, duel_setting(duel, "jane", setup.combatants)


def test_the_light_at_dawn_changes_minute_by_minute_as_the_sun_rises_in_the_east_north_east(dawn):
    _, setting_at = dawn
    settings = [setting_at(60.0 * m) for m in range(91)]
    az = [s.light_direction.sun_azimuth_deg for s in settings]
    alt = [s.light_direction.sun_altitude_deg for s in settings]
    assert all(b > a for a, b in itertools.pairwise(az)) and all(b > a for a, b in itertools.pairwise(alt))
    assert all(56.25 < a < 78.75 for a in az)  # east-north-east (the points ENE +- 11.25 deg)
    lights = [s.light for s in settings]
    assert lights[0] == "moonlit" and lights[-1] == "day" and "twilight" in lights
    assert lights == sorted(lights, key=["moonlit", "twilight", "day"].index)  # night, dawn, day in turn
    for s in settings:
        d = s.light_direction
        if s.light == "twilight":
            # Against the bright sky the day's range, against the dark the moonlit night's: their mean is
            # the twilight figure (data/sighting.yaml: (10 + 5) / 2 = 7.5 nm).
            assert d.bright_sky_visibility_yd > s.visibility_yd > d.dark_sky_visibility_yd
            assert (d.bright_sky_visibility_yd + d.dark_sky_visibility_yd) / 2 == pytest.approx(s.visibility_yd)
            assert d.bright_sky_visibility_yd / d.dark_sky_visibility_yd == pytest.approx(10.0 / 5.0)
        else:
            assert d.bright_sky_visibility_yd is None and not s.directional_visibility


def test_at_dawn_goeben_against_the_bright_east_is_seen_and_hit_farther_than_the_british_against_the_dark(dawn):
    duel, setting_at = dawn
    out = fight_duel(duel, "jane", seed=1)
    tick_s = 60.0  # Jane's move: an event at t_s was fired in the light of t_s - 60, from the frame's places
    frames = {f.t_s: {row[0]: row for row in f.ships} for f in out.frames}
    checked = {"bright": [], "dark": []}
    for e in out.events:
        if e.type != "fire" or not setting_at(e.t_s).light == setting_at(e.t_s - tick_s).light == "twilight":
            continue
        d = setting_at(e.t_s - tick_s).light_direction
        firer, target = frames[e.t_s][e.ship], frames[e.t_s][e.target]
        bearing = math.degrees(math.atan2(target[1] - firer[1], target[2] - firer[2])) % 360.0
        off = off_bearing_deg(bearing, d.sun_azimuth_deg)
        if abs(off - d.bright_sky_half_angle_deg) < 1.0:
            continue  # on the edge of the bright sky: the sun moves during the move
        sky = "bright" if off < d.bright_sky_half_angle_deg else "dark"
        assert e.data["light_shift_yd"] == {"bright": 0.0, "dark": 1000.0}[sky]
        seen_yd = d.bright_sky_visibility_yd if sky == "bright" else d.dark_sky_visibility_yd
        assert e.data["range_yd"] <= seen_yd + 1.0
        checked[sky].append(e)
    british = [e for e in checked["bright"] + checked["dark"] if e.ship != "Goeben"]
    # Goeben, ESE of the British, stands against the dawn: they fire at her as by day ...
    assert british and all(e in checked["bright"] for e in british)
    # ... and see her beyond the range at which she sees them against the dark west.
    dark_yd = setting_at(1200.0).light_direction.dark_sky_visibility_yd
    assert any(e.data["range_yd"] > dark_yd for e in british)
    # She fires at them against the dark west as in twilight, the lesser night shift.
    assert any(e.ship == "Goeben" for e in checked["dark"])


def test_the_dawn_duel_is_the_same_battle_for_the_same_seed(dawn):
    duel, _ = dawn
    a = fight_duel(duel, "jane", seed=3, keep_frames=False)
    b = fight_duel(duel, "jane", seed=3, keep_frames=False)
    assert [(e.t_s, e.type, e.ship, dict(e.data)) for e in a.events] == [
        (e.t_s, e.type, e.ship, dict(e.data)) for e in b.events]
    assert any(e.type == "fire" and "light_shift_yd" in e.data for e in a.events)


def test_the_sun_moves_along_with_the_duel_clock(dawn):
    duel, setting_at = dawn
    from campaign.world.light import sun_position_deg

    for t_s in (0.0, 1800.0, 5400.0):
        az, alt = sun_position_deg(duel.lat, duel.lon, duel.when + timedelta(seconds=t_s))
        d = setting_at(t_s).light_direction
        assert (d.sun_azimuth_deg, d.sun_altitude_deg) == (az, alt)
