"""Shortcuts in the commanders' and the signals' hot paths give the very answers of the long way round.

Each shortcut either proves a result it skips (an envelope that misses a point, a chord longer than a
distance) or computes the same doubles another way; these tests set each beside the direct computation.
"""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import shapely
from hypothesis import given, settings
from hypothesis import strategies as st

from campaign.geo import earth
from campaign.geo.land import default_land
from campaign.model.politics import PoliticalEvent, Politics
from campaign.world.command import COMPANY_NM, CommandRuntime
from campaign.world.radio_range import XyzMemo
from campaign.world.sea_areas import default_sea_areas
from campaign.world.weather import default_params

# The campaign's waters and a margin round them (degrees).
med_lats = st.floats(min_value=28.0, max_value=48.0, allow_nan=False)
med_lons = st.floats(min_value=-10.0, max_value=40.0, allow_nan=False)


def _sea_area_by_tree(lat: float, lon: float) -> tuple[str, str] | None:
    """``sea_area_at`` the long way: the vectorised lookup through the spatial index."""
    areas = default_sea_areas()
    index, _ = areas.index_at(lat, lon)
    return None if index[0] < 0 else areas.areas[int(index[0])].key


def _boundary_points(polygons: list[shapely.Geometry]) -> list[tuple[float, float]]:
    """(lat, lon) of every vertex of the polygons, and of points a third and half way along each edge."""
    out = []
    for poly in polygons:
        xy = shapely.get_coordinates(poly)
        out.extend((float(la), float(lo)) for lo, la in xy)
        for (x0, y0), (x1, y1) in zip(xy[:-1], xy[1:]):
            for f in (1.0 / 3.0, 0.5):
                out.append((float(y0 + f * (y1 - y0)), float(x0 + f * (x1 - x0))))
    return out


@settings(max_examples=500, deadline=None)
@given(lat=med_lats, lon=med_lons)
def test_a_sea_area_is_the_index_lookups_anywhere(lat: float, lon: float) -> None:
    assert default_sea_areas().sea_area_at(lat, lon) == _sea_area_by_tree(lat, lon)


def test_a_sea_area_is_the_index_lookups_on_every_boundary() -> None:
    """Points on an area's edge or corner (shared with a neighbour: the first in file order wins), and on
    the meridians and parallels that cut the seas into areas."""
    areas = default_sea_areas()
    points = _boundary_points([a.polygon for a in areas.areas])
    points += [(float(la), float(lo)) for la in np.arange(30.0, 46.0, 0.25)
               for lo in np.arange(-6.0, 37.0, 0.5)]
    assert len(points) > 1000
    for lat, lon in points:
        assert areas.sea_area_at(lat, lon) == _sea_area_by_tree(lat, lon), (lat, lon)
    assert areas.sea_area_at(float("nan"), 15.0) is None


def _region_by_polygons(lat: float, lon: float) -> str:
    """``region_at`` without the envelopes: every region's polygon asked in turn."""
    params = default_params()
    for r in params.regions:
        if shapely.contains_xy(r.geometry, lon, lat):
            return r.name
    pt = shapely.Point(lon, lat)
    return min(params.regions, key=lambda r: r.geometry.distance(pt)).name


@settings(max_examples=500, deadline=None)
@given(lat=med_lats, lon=med_lons)
def test_a_weather_region_is_the_polygons_anywhere(lat: float, lon: float) -> None:
    assert default_params().region_at(lat, lon).name == _region_by_polygons(lat, lon)


def test_a_weather_region_is_the_polygons_on_every_boundary() -> None:
    params = default_params()
    for lat, lon in _boundary_points([r.geometry for r in params.regions]):
        assert params.region_at(lat, lon).name == _region_by_polygons(lat, lon), (lat, lon)


@settings(max_examples=300, deadline=None)
@given(lat=med_lats, lon=med_lons, bearing=st.floats(min_value=0.0, max_value=360.0),
       dist=st.one_of(st.floats(min_value=0.0, max_value=12.0), st.floats(min_value=0.0, max_value=600.0),
                      st.sampled_from([COMPANY_NM, COMPANY_NM * (1 + 1e-12), COMPANY_NM * (1 - 1e-12)])))
def test_company_is_decided_as_the_geodesic_decides(lat: float, lon: float, bearing: float,
                                                    dist: float) -> None:
    """The chord that rules a friend out of company never rules out one the geodesic would keep."""
    lat2, lon2 = (float(v) for v in earth.forward(lat, lon, bearing, dist))
    runtime = SimpleNamespace(_xyz=XyzMemo())
    own = SimpleNamespace(lat=lat, lon=lon)
    friend = SimpleNamespace(position_at=lambda _t: (lat2, lon2, 0.0))
    here = runtime._xyz((lat, lon))
    near = CommandRuntime._in_company(runtime, own, here, friend, 0.0)  # type: ignore[arg-type]
    assert near == (earth.distance_nm(lat, lon, lat2, lon2) <= COMPANY_NM)


@settings(max_examples=300, deadline=None)
@given(lat=med_lats, lon=med_lons)
def test_a_point_goes_into_the_plane_alike_by_either_call(lat: float, lon: float) -> None:
    """``point_xy`` (the quick test of ``Land.step_off_shore``) gives ``to_xy``'s very doubles."""
    plane = default_land().plane
    assert plane.point_xy(lat, lon) == tuple(float(v) for v in plane.to_xy(lat, lon))


def test_the_political_change_times_are_worked_out_once_and_alike() -> None:
    events = (PoliticalEvent(300.0, "war", ("A", "B")), PoliticalEvent(60.0, "permit", ("A",), what="x"),
              PoliticalEvent(300.0, "fire", ("B", "A")))
    pol = Politics(events)
    assert pol.change_times() == (60.0, 300.0)
    assert pol.change_times() is pol.change_times()
    assert pol == Politics(events)  # the remembered times are no part of its value
