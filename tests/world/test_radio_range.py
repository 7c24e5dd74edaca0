"""The chord bound of wireless range: never longer than the geodesic, so it never rules out a set in range."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from campaign.geo.earth import distance_nm, forward
from campaign.world.radio_range import CHORD_SLACK, XyzMemo, beyond, xyz_m

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
