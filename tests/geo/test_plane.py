"""The gnomonic plane of the routing: one point in either direction by the scalar calls gives the array
calls' very doubles."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from campaign.geo.land import default_land


@settings(max_examples=300, deadline=None)
@given(lat=st.floats(min_value=28.0, max_value=48.0), lon=st.floats(min_value=-10.0, max_value=40.0))
def test_a_point_goes_into_the_plane_and_back_alike_by_either_call(lat: float, lon: float) -> None:
    plane = default_land().plane
    x, y = plane.point_xy(lat, lon)
    assert (x, y) == tuple(float(v) for v in plane.to_xy(lat, lon))
    assert plane.point_latlon(x, y) == tuple(float(v) for v in plane.to_latlon(x, y))
