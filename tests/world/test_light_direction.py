"""Where the light comes from in a battle: the sun's azimuth and altitude (campaign.world.light,
campaign.world.battle_light) and the twilight sky's bright and dark halves (data/sighting.yaml)."""

from __future__ import annotations

import math
from datetime import UTC, datetime, timedelta

import ephem
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from campaign.scenario.loader import load_scenario
from campaign.tactics.kinematics import YD_PER_NM
from campaign.world import engagement
from campaign.world.battle_light import default_twilight_sky, light_direction
from campaign.world.conditions import ClearDay
from campaign.world.light import azimuth_from_subpoint_deg, default_light_rules, light_at, sun_position_deg
from campaign.world.sighting import default_sighting_rules
from campaign.world.world import World
from tests.conftest import scenario_dict
from tests.tactics.test_battle import _Engine
from tests.world.test_engagement import GOEBEN_EAST, HQ, WAR, hunter

AUG_1914 = datetime(1914, 8, 1, tzinfo=UTC)


def ephem_sun(lat: float, lon: float, when: datetime) -> tuple[float, float]:
    """ephem's own topocentric azimuth and altitude of the sun's centre, without refraction."""
    obs = ephem.Observer()
    obs.lat, obs.lon, obs.pressure, obs.elevation = str(lat), str(lon), 0.0, 0.0
    obs.date = when.strftime("%Y/%m/%d %H:%M:%S")
    sun = ephem.Sun(obs)
    return math.degrees(float(sun.az)), math.degrees(float(sun.alt))


@settings(max_examples=60, deadline=None)
@given(st.floats(30.0, 46.0), st.floats(-6.0, 36.0), st.floats(0.0, 12 * 86400.0))
def test_the_suns_azimuth_and_altitude_are_ephems(lat, lon, t_s):
    when = (AUG_1914 + timedelta(seconds=t_s)).replace(microsecond=0)
    az, alt = sun_position_deg(lat, lon, when)
    ref_az, ref_alt = ephem_sun(lat, lon, when)
    assert 0.0 <= az < 360.0
    assert abs((az - ref_az + 180.0) % 360.0 - 180.0) < 0.05 / max(math.cos(math.radians(alt)), 0.05)
    assert alt == pytest.approx(ref_alt, abs=0.02)
    assert alt == light_at(lat, lon, when).sun_alt_deg  # the altitude the world's light state is read from


def test_azimuths_of_the_four_quarters():
    assert azimuth_from_subpoint_deg(0.0, 0.0, 10.0, 0.0) == pytest.approx(0.0)
    assert azimuth_from_subpoint_deg(0.0, 0.0, 0.0, 10.0) == pytest.approx(90.0)
    assert azimuth_from_subpoint_deg(0.0, 0.0, -10.0, 0.0) == pytest.approx(180.0)
    assert azimuth_from_subpoint_deg(0.0, 0.0, 0.0, -10.0) == pytest.approx(270.0)


def test_the_sun_rises_east_north_east_off_zante_on_7_august_1914():
    # 37.3 N 20.6 E at 03:47 UT (the dawn duel's place): ENE is 67.5 deg +- 11.25.
    az, alt = sun_position_deg(37.3, 20.6, datetime(1914, 8, 7, 3, 47, tzinfo=UTC))
    assert 56.25 < az < 78.75 and abs(alt - default_light_rules().sunrise_alt_deg) < 0.3


def test_the_twilight_sky_is_bright_on_the_suns_half_at_the_days_range_and_dark_at_the_moonlit_nights():
    sky = default_twilight_sky()
    assert (sky.bright_half_angle_deg, sky.bright, sky.dark) == (90.0, "day", "moonlit_night")
    hull = default_sighting_rules().hull_range_nm
    # Their mean is the twilight stand-in: (10 + 5) / 2 = 7.5 nm (seed 004 l.11's day and moonlit ranges).
    assert (hull[sky.bright] + hull[sky.dark]) / 2 == hull["twilight"] == 7.5
    when = datetime(1914, 8, 7, 3, 30, tzinfo=UTC)
    d = light_direction(37.3, 20.6, when, "twilight", lambda state: hull[state])
    assert d.bright_sky_visibility_yd == pytest.approx(10.0 * YD_PER_NM)
    assert d.dark_sky_visibility_yd == pytest.approx(5.0 * YD_PER_NM)
    for state in ("day", "moonlit_night", "dark_night"):
        d = light_direction(37.3, 20.6, when, state, lambda s: hull[s])
        assert d.bright_sky_visibility_yd is None and d.dark_sky_visibility_yd is None
        assert (d.sun_azimuth_deg, d.sun_altitude_deg) == sun_position_deg(37.3, 20.6, when)


class _Recording(_Engine):
    """The transparent test engine, keeping every setting its battles are stepped in."""

    def __init__(self) -> None:
        super().__init__({"Goeben": 10.0}, gun_range_yd=9000, damage=0.05)
        self.settings = []

    def begin(self, setup, rng):
        battle = super().begin(setup, rng)
        step = battle.step

        def recording(helm, setting):
            self.settings.append(setting)
            return step(helm, setting)

        battle.step = recording
        return battle


def _world_settings(write_scenario, monkeypatch, conditions):
    eng = _Recording()
    monkeypatch.setattr(engagement, "get_engine", lambda *args, **kw: eng)
    force, standing = hunter(lat=36.03)  # 2 nm off Goeben's track: sighted in the real weather's haze too
    content = scenario_dict([GOEBEN_EAST, force], start="1914-08-02T05:00Z", end="1914-08-02T12:00Z")
    content["politics"] = WAR
    content["command"] = dict(HQ, standing=standing)
    World(load_scenario(write_scenario(content)), 0, conditions=conditions).run()
    return eng.settings


def test_the_campaigns_battles_know_where_the_sun_is_and_a_clear_day_stand_in_does_not(write_scenario,
                                                                                        monkeypatch):
    real = _world_settings(write_scenario, monkeypatch, None)
    assert len(real) >= 2
    for s in real:
        d = s.light_direction
        assert d is not None and s.light == "day" and d.sun_altitude_deg > 0.0
        assert 45.0 < d.sun_azimuth_deg < 135.0  # a morning sun off Sicily
    azimuths = [s.light_direction.sun_azimuth_deg for s in real]
    assert azimuths == sorted(azimuths) and azimuths[-1] > azimuths[0]  # it moves as the battle goes on
    assert all(s.light_direction is None for s in _world_settings(write_scenario, monkeypatch, ClearDay()))
