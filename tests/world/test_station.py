"""Ships of a force keep station on its leader, and a force scattered by a battle re-forms by steaming
(campaign/world/station.py): nothing jumps across a change of scale."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from campaign.geo.earth import distance_nm
from campaign.model.ships import find_ship
from campaign.tactics.kinematics import YD_PER_NM
from campaign.geo.earth import forward
from campaign.world.station import Offset, set_offset, ship_latlon, station_yd
from campaign.world.units import ForceState, ShipState

SPACING_YD = 400.0


def _force(names=("Defence", "Warrior", "Duke of Edinburgh"), course=90.0):
    f = ForceState("cs1", "Entente", "United Kingdom", lat=37.0, lon=20.0, course_deg=course)
    f.ships = [ShipState(find_ship(n), "Entente", f, 1000.0, status="waiting") for n in names]
    return f


def _at(dx_yd, dy_yd, lat=37.0, lon=20.0):
    """The point ``dx_yd`` east and ``dy_yd`` north of (lat, lon)."""
    d = math.hypot(dx_yd, dy_yd)
    return (lat, lon) if d == 0 else forward(lat, lon, math.degrees(math.atan2(dx_yd, dy_yd)) % 360, d / YD_PER_NM)


def test_on_station_the_ships_lie_in_column_astern_of_the_leader():
    f = _force(course=90.0)
    assert ship_latlon(f, f.ships[0], 0.0, SPACING_YD) == (37.0, 20.0)
    lat, lon = ship_latlon(f, f.ships[2], 0.0, SPACING_YD)
    assert distance_nm(lat, lon, *_at(-800.0, 0.0)) * YD_PER_NM < 0.01  # two stations astern, due west
    assert station_yd(1, 0.0, SPACING_YD) == pytest.approx((0.0, -400.0), abs=1e-9)


def test_a_scattered_ship_steams_back_to_her_station_no_faster_than_she_can():
    f = _force(course=90.0)
    warrior = f.ships[1]
    station = ship_latlon(f, warrior, 0.0, SPACING_YD)
    # Left by a battle 5 nm north of the leader.
    set_offset(warrior, *_at(0.0, 5.0 * YD_PER_NM), 0.0)
    before = ship_latlon(f, warrior, 0.0, SPACING_YD)
    assert distance_nm(37.0, 20.0, *before) == pytest.approx(5.0, rel=1e-3)
    # She closes her station at her best (19 kn): some 1.58 nm in 5 minutes.
    after = ship_latlon(f, warrior, 5.0, SPACING_YD)
    assert distance_nm(*before, *after) == pytest.approx(19.0 * 5 / 60, rel=1e-3)
    # ... and is on her station within the time her distance takes at that speed.
    gap_nm = distance_nm(*before, *station)
    on = ship_latlon(f, warrior, gap_nm / 19.0 * 60 + 1.0, SPACING_YD)
    assert distance_nm(*on, *station) * YD_PER_NM < 1.0 and warrior.offset is None


@given(dx=st.floats(-20000, 20000), dy=st.floats(-20000, 20000), dt=st.floats(0.0, 120.0),
       course=st.floats(0, 359), moved_nm=st.floats(0, 30))
@settings(max_examples=60, deadline=None)
def test_rejoining_never_moves_a_ship_faster_than_her_best_whatever_her_force_does(dx, dy, dt, course, moved_nm):
    f = _force(course=45.0)
    ship = f.ships[2]
    set_offset(ship, *_at(dx, dy), 0.0)
    a = ship_latlon(f, ship, 0.0, SPACING_YD)
    # Meanwhile the force has gone anywhere (a leg ended, a battle begun): she still only steams.
    f.lat, f.lon = forward(f.lat, f.lon, course, moved_nm)
    f.course_deg = course
    b = ship_latlon(f, ship, dt, SPACING_YD)
    assert distance_nm(*a, *b) <= ship.ship.sustained_speed_kn * dt / 60.0 + 1e-6


def test_set_offset_reckons_a_ship_where_she_is():
    f = _force()
    ship = f.ships[1]
    set_offset(ship, 37.05, 20.02, 10.0)
    assert ship.offset == Offset(37.05, 20.02, 10.0)
    assert distance_nm(*ship_latlon(f, ship, 10.0, SPACING_YD), 37.05, 20.02) * YD_PER_NM < 1.0
