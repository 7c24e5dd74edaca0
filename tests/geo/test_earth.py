"""Geodesy against known values (WGS84), and the scalar/array contract."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from campaign.geo import earth

# GeographicLib's documented example (Karney): Wellington, NZ (41.32 S, 174.81 E) to Salamanca, Spain
# (40.96 N, 5.50 W) on WGS84 is 19,959,679.267 m, initial azimuth 161.06767 deg.
WELLINGTON = (-41.32, 174.81)
SALAMANCA = (40.96, -5.50)


def test_wellington_salamanca_distance_and_bearing() -> None:
    d = earth.distance_nm(*WELLINGTON, *SALAMANCA)
    assert d == pytest.approx(19959679.267 / 1852.0, abs=1e-5)
    assert earth.bearing_deg(*WELLINGTON, *SALAMANCA) == pytest.approx(161.06767, abs=1e-5)


def test_degree_of_longitude_and_latitude_at_the_equator() -> None:
    # WGS84: a = 6,378,137 m, so one degree of the equator is 111,319.49 m; a degree of latitude
    # from the equator is 110,574.4 m (meridian arc).
    assert earth.distance_nm(0, 0, 0, 1) == pytest.approx(111319.49 / 1852, rel=1e-6)
    assert earth.distance_nm(0, 0, 1, 0) == pytest.approx(110574.4 / 1852, rel=1e-5)


def test_nautical_mile_is_1852_metres() -> None:
    assert earth.M_PER_NM == 1852.0
    assert earth.YD_PER_NM == pytest.approx(2025.37, abs=0.01)


def test_scalars_in_scalars_out_arrays_in_arrays_out() -> None:
    assert isinstance(earth.distance_nm(36.0, 14.0, 37.0, 15.0), float)
    out = earth.distance_nm(np.array([36.0, 36.0]), 14.0, np.array([37.0, 38.0]), 15.0)
    assert isinstance(out, np.ndarray) and out.shape == (2,)
    lat, lon = earth.forward([36.0, 37.0], [14.0, 15.0], 90.0, 60.0)
    assert lat.shape == lon.shape == (2,)


def test_points_along_spacing_and_ends() -> None:
    lats, lons = earth.points_along(36.0, 14.0, 40.0, 26.0, spacing_nm=25.0)
    assert (lats[0], lons[0], lats[-1], lons[-1]) == (36.0, 14.0, 40.0, 26.0)
    gaps = earth.distance_nm(lats[:-1], lons[:-1], lats[1:], lons[1:])
    assert gaps.max() <= 25.0 + 1e-9
    assert earth.path_length_nm(lats, lons) == pytest.approx(earth.distance_nm(36.0, 14.0, 40.0, 26.0), rel=1e-9)
    with pytest.raises(ValueError):
        earth.points_along(0, 0, 1, 1)


@settings(max_examples=200, deadline=None)
@given(st.floats(30, 46), st.floats(-6, 37), st.floats(0, 360), st.floats(0.1, 1500))
def test_forward_then_inverse_returns_distance_and_bearing(lat, lon, az, dist) -> None:
    lat2, lon2 = earth.forward(lat, lon, az, dist)
    bearing, d = earth.inverse(lat, lon, lat2, lon2)
    assert d == pytest.approx(dist, rel=1e-9, abs=1e-7)
    assert min(abs(bearing - az % 360), 360 - abs(bearing - az % 360)) < 1e-6


@settings(max_examples=300, deadline=None)
@given(st.floats(-80, 80), st.floats(-180, 180), st.floats(-80, 80), st.floats(-180, 180),
       st.floats(-720, 720), st.floats(0, 3000))
def test_plain_floats_take_the_scalar_path_and_give_the_array_paths_numbers(lat1, lon1, lat2, lon2, az, dist) -> None:
    """Scalars go straight to pyproj's scalar call; the numbers are those of a one-element array, bit for
    bit (the simulation's records depend on it), and plain floats come back."""
    one = np.atleast_1d
    b, d = earth.inverse(lat1, lon1, lat2, lon2)
    ab, ad = earth.inverse(one(lat1), one(lon1), one(lat2), one(lon2))
    assert (b, d) == (ab[0], ad[0]) and type(b) is float and type(d) is float
    assert earth.bearing_deg(lat1, lon1, lat2, lon2) == earth.bearing_deg(one(lat1), one(lon1), one(lat2), one(lon2))[0]
    assert 0.0 <= b <= 360.0
    la, lo = earth.forward(lat1, lon1, az, dist)
    ala, alo = earth.forward(one(lat1), one(lon1), one(az), one(dist))
    assert (la, lo) == (ala[0], alo[0]) and type(la) is float
