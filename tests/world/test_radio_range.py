"""The chord bound of wireless range: never longer than the geodesic, so it never rules out a set in range."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from campaign.geo.earth import distance_nm, forward
from campaign.world.radio_range import CHORD_SLACK, XyzMemo, beyond, beyond_chord_m, within_chord_m, xyz_m

lats = st.floats(min_value=-80.0, max_value=80.0)
lons = st.floats(min_value=-180.0, max_value=180.0)


@settings(max_examples=300, deadline=None)
@given(lat=lats, lon=lons, bearing=st.floats(min_value=0.0, max_value=360.0),
       dist=st.floats(min_value=0.0, max_value=3000.0))
def test_a_chord_proves_out_of_range_only_beyond_the_geodesic(lat: float, lon: float, bearing: float,
                                                              dist: float) -> None:
    lat2, lon2 = (float(x) for x in forward(lat, lon, bearing, dist))
    d = distance_nm(lat, lon, lat2, lon2)
    a, b = xyz_m(lat, lon), xyz_m(lat2, lon2)
    for range_nm in (d, d * (1 + 1e-12), d * (1 - 1e-12), max(d - 1e-6, 0.0), d * 0.999):
        if beyond(a, b, range_nm):
            assert d > range_nm
    # ... and it is a close bound: short of the geodesic by well under one part in a thousand up to
    # 500 nm, so that nearly every set beyond range is settled by it.
    if 1.0 < d < 500.0:
        assert beyond(a, b, d * (1 - 1e-3))


@settings(max_examples=300, deadline=None)
@given(lat=st.floats(min_value=-89.0, max_value=89.0), lon=lons, bearing=st.floats(min_value=0.0, max_value=360.0),
       dist=st.one_of(st.floats(min_value=0.0, max_value=3000.0), st.floats(min_value=0.0, max_value=0.01)))
def test_a_chord_proves_within_range_only_inside_the_geodesic(lat: float, lon: float, bearing: float,
                                                              dist: float) -> None:
    """A chord at or under ``within_chord_m(r)`` proves the geodesic no longer than r, at any latitude and
    distance (the ellipsoid's sharpest bend is its meridian's at the equator)."""
    lat2, lon2 = (float(x) for x in forward(lat, lon, bearing, dist))
    d = distance_nm(lat, lon, lat2, lon2)
    chord_m = math.dist(xyz_m(lat, lon), xyz_m(lat2, lon2))
    for range_nm in (d, d * (1 + 1e-12), d * (1 - 1e-12), max(d - 1e-6, 0.0), d * 1.001, d * 0.999):
        if chord_m <= within_chord_m(range_nm):
            assert d <= range_nm
    # ... and a close bound: a set a thousandth inside its range (up to 500 nm) is settled by the chord.
    if 1.0 < d < 500.0:
        assert chord_m <= within_chord_m(d * (1 + 1e-3))


@settings(max_examples=300, deadline=None)
@given(lat=lats, lon=lons, bearing=st.floats(min_value=0.0, max_value=360.0),
       dist=st.floats(min_value=0.0, max_value=3000.0), near=st.floats(min_value=0.5, max_value=1.0))
def test_a_chord_between_the_two_bounds_proves_the_geodesic_between_two_ranges(
        lat: float, lon: float, bearing: float, dist: float, near: float) -> None:
    """A route search lets the light alone decide when the chord is over ``beyond_chord_m`` of the shorter
    range (day or night) and at or under ``within_chord_m`` of the longer: the geodesic then lies between
    them, so the range the light gives decides it without the geodesic. ``beyond_chord_m`` is
    :func:`beyond`'s threshold."""
    lat2, lon2 = (float(x) for x in forward(lat, lon, bearing, dist))
    d = distance_nm(lat, lon, lat2, lon2)
    a, b = xyz_m(lat, lon), xyz_m(lat2, lon2)
    chord_m = math.dist(a, b)
    for far_nm in (d, d * (1 + 1e-12), d * (1 - 1e-12), d * 1.001, d * 0.999, d * 1.5):
        for sure_nm in (far_nm * near, d, d * (1 - 1e-12), d * 0.999, max(d - 1e-6, 0.0)):
            assert beyond(a, b, sure_nm) == (chord_m > beyond_chord_m(sure_nm))
            if beyond_chord_m(sure_nm) < chord_m <= within_chord_m(far_nm):
                assert sure_nm < d <= far_nm
    # ... and the band it settles is nearly the whole band: a set a thousandth inside it (up to 500 nm).
    if 1.0 < d < 500.0:
        assert beyond_chord_m(d * (1 - 1e-3)) < chord_m <= within_chord_m(d * (1 + 1e-3))


def test_the_within_bound_is_the_arc_of_the_sharpest_bend() -> None:
    """The meridian at the equator (radius b^2/a, 6,335 km) bends most: 300 nm along it, from the
    equator north, is where a chord is longest for its geodesic; the bound's circle is tighter still."""
    lat2, lon2 = (float(x) for x in forward(0.0, 20.0, 0.0, 300.0))
    chord_m = math.dist(xyz_m(0.0, 20.0), xyz_m(lat2, lon2))
    assert within_chord_m(300.0) < chord_m < 300.0 * 1852.0
    assert within_chord_m(0.0) < 0.0  # a range of nothing is proved by no chord, not even a zero one


def test_a_range_of_exactly_the_distance_is_never_ruled_out() -> None:
    lat2, lon2 = (float(x) for x in forward(36.0, 18.0, 90.0, 150.0))
    d = distance_nm(36.0, 18.0, lat2, lon2)
    assert not beyond(xyz_m(36.0, 18.0), xyz_m(lat2, lon2), d)
    assert CHORD_SLACK > 0


def test_the_memo_gives_the_same_points_and_stays_bounded() -> None:
    memo = XyzMemo(size=3)
    places = [(36.0, 18.0 + i) for i in range(10)]
    for p in places + places:
        assert memo(p) == xyz_m(*p)
        assert len(memo._memo) <= 3
    assert memo([36.0, 18.0]) == xyz_m(36.0, 18.0)  # a position given as a list
    assert memo((36.0, 18.0)) == pytest.approx(xyz_m(36.0, 18.0))
