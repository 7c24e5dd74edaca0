"""Motion: a remembered position is the one worked out afresh, and the memory stays bounded; the floor on
two forces' distance through a window never exceeds it."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from campaign.geo import earth
from campaign.geo.route import Route
from campaign.world import motion as motion_mod
from campaign.world.motion import Motion


def _leg() -> Motion:
    route = Route.through([37.9, 37.5, 36.8], [15.6, 17.0, 19.5])  # Messina, out into the Ionian
    return Motion(version=3, t0_min=120.0, lat=36.8, lon=19.5, route=route, speed_kn=18.0, offset_nm=4.0)


def _fresh(m: Motion, t_min: float) -> tuple[float, float]:
    """The position worked out afresh (``locate`` remembers nothing)."""
    return m.locate(t_min)


def test_a_remembered_position_is_the_one_worked_out_afresh() -> None:
    m = _leg()
    times = [100.0, 120.0, 120.0 + 1e-9, 200.0, 333.25, 900.0, 5000.0]
    first = [m.position(t) for t in times]
    again = [m.position(t) for t in times]  # now read from the memory
    assert first == again == [_fresh(m, t) for t in times]
    assert m.positions(times)[0].tolist() == [p[0] for p in first]


def test_the_memory_is_emptied_when_full_and_still_answers_the_same(monkeypatch) -> None:
    monkeypatch.setattr(motion_mod, "POSITIONS_KEPT", 4)
    m = _leg()
    times = [150.0 + 10.0 * i for i in range(10)]
    got = [m.position(t) for t in times]
    assert len(m.__dict__["_positions"]) <= 4
    assert got == [_fresh(m, t) for t in times]
    assert [m.position(t) for t in times] == got


def test_locate_remembers_nothing() -> None:
    m = _leg()
    m.locate(250.0)
    assert "_positions" not in m.__dict__


def test_a_force_lying_still_keeps_no_memory() -> None:
    m = Motion(version=1, t0_min=0.0, lat=35.9, lon=14.5)
    assert m.position(10.0) == (35.9, 14.5)
    assert "_positions" not in m.__dict__


def test_the_memory_does_not_make_motions_unequal() -> None:
    a, b = _leg(), _leg()
    a.position(200.0)
    assert a == b and hash(a) == hash(b) and a.geometry == b.geometry


# -- the floor on two forces' distance through a window ---------------------------------------------

def _straight(lat: float, lon: float, az_deg: float, length_nm: float, speed_kn: float,
              t0_min: float = 0.0) -> Motion:
    """A force steaming one geodesic leg from (lat, lon) on initial azimuth ``az_deg``."""
    lon1, lat1, _ = earth.WGS84.fwd(lon, lat, az_deg, length_nm * earth.M_PER_NM)
    return Motion(version=1, t0_min=t0_min, lat=lat1, lon=lon1, route=Route.through([lat, lat1], [lon, lon1]),
                  speed_kn=speed_kn)


def _least_nm(a: Motion, b: Motion, t0: float, t1: float, n: int = 400) -> float:
    """The least geodesic distance between the two forces at n + 1 even instants of [t0, t1]."""
    return min(motion_mod.distance_nm(a, b, t0 + (t1 - t0) * i / n) for i in range(n + 1))


@settings(max_examples=150, deadline=None)
@given(lat=st.floats(-70.0, 70.0), lon=st.floats(-180.0, 180.0), az_a=st.floats(0.0, 360.0),
       az_b=st.floats(0.0, 360.0), off_brg=st.floats(0.0, 360.0), off_nm=st.floats(0.0, 60.0),
       speed_a=st.one_of(st.just(0.0), st.floats(0.5, 30.0)),
       speed_b=st.one_of(st.just(0.0), st.floats(0.5, 30.0)), start=st.floats(0.0, 1.0),
       span=st.floats(0.01, 1.0))
def test_the_floor_never_exceeds_the_distance_in_its_window(lat, lon, az_a, az_b, off_brg, off_nm, speed_a,
                                                            speed_b, start, span) -> None:
    # Legs of 400 nm on any course, anywhere between 70 degrees north and south, the forces up to 60 nm
    # apart at first, lying still or steaming at up to 30 knots. A leg ends at 800 minutes or later, after
    # the window opens; the window closes by the first end.
    a = _straight(lat, lon, az_a, 400.0, speed_a)
    lon_b, lat_b, _ = earth.WGS84.fwd(lon, lat, off_brg, off_nm * earth.M_PER_NM)
    b = _straight(lat_b, lon_b, az_b, 400.0, speed_b)
    t0 = 600.0 * start
    t1 = min([t0 + 600.0 * span] + [m.end_min for m in (a, b) if m.speed_kn > 0.0])
    floor = motion_mod.chord_floor_nm(a, b, t0, t1)
    assert math.isfinite(floor)
    assert floor <= _least_nm(a, b, t0, t1)


def test_the_floor_of_forces_in_company_is_within_metres_of_their_distance() -> None:
    # Two cruisers 10 nm abeam of each other, both at 20 knots on the same course, for half an hour: the
    # bound by their summed speeds (the search's other test) allows a dip of 10 nm; this one a few metres.
    a = _straight(37.0, 16.0, 100.0, 200.0, 20.0)
    lon_b, lat_b, _ = earth.WGS84.fwd(16.0, 37.0, 10.0, 10.0 * earth.M_PER_NM)
    b = _straight(lat_b, lon_b, 100.0, 200.0, 20.0)
    least = _least_nm(a, b, 60.0, 90.0)
    floor = motion_mod.chord_floor_nm(a, b, 60.0, 90.0)
    assert least - 25.0 / earth.M_PER_NM < floor <= least


def test_the_floor_holds_nothing_across_a_turn_or_a_stop() -> None:
    a = _leg()  # turns 40 nm or so out of Messina (its first waypoint), stops at its end
    still = Motion(version=1, t0_min=0.0, lat=36.0, lon=18.0)
    turn = a.next_breakpoint(a.t0_min)
    assert motion_mod.chord_floor_nm(a, still, turn - 10.0, turn + 10.0) == -math.inf
    assert motion_mod.chord_floor_nm(a, still, a.end_min - 1.0, a.end_min + 1.0) == -math.inf
    # A window that ends at the turn, or begins after the stop, has one leg (or none) in it.
    assert math.isfinite(motion_mod.chord_floor_nm(a, still, turn - 10.0, turn))
    after = motion_mod.chord_floor_nm(a, still, a.end_min + 1.0, a.end_min + 60.0)
    assert after == pytest.approx(motion_mod.distance_nm(a, still, a.end_min + 5.0), abs=0.01)
