"""The sea and area of a point: the quick lookup (envelopes, then GEOS, in file order) gives the spatial
index's answer everywhere, edges and corners included."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from campaign.world.sea_areas import default_sea_areas
from tests.world.helpers import boundary_points

# The campaign's waters and a margin round them (degrees).
med_lats = st.floats(min_value=28.0, max_value=48.0, allow_nan=False)
med_lons = st.floats(min_value=-10.0, max_value=40.0, allow_nan=False)


def _sea_area_by_tree(lat: float, lon: float) -> tuple[str, str] | None:
    """``sea_area_at`` the long way: the vectorised lookup through the spatial index."""
    areas = default_sea_areas()
    index, _ = areas.index_at(lat, lon)
    return None if index[0] < 0 else areas.areas[int(index[0])].key


@settings(max_examples=500, deadline=None)
@given(lat=med_lats, lon=med_lons)
def test_a_sea_area_is_the_index_lookups_anywhere(lat: float, lon: float) -> None:
    assert default_sea_areas().sea_area_at(lat, lon) == _sea_area_by_tree(lat, lon)


def test_a_sea_area_is_the_index_lookups_on_every_boundary() -> None:
    """Points on an area's edge or corner (shared with a neighbour: the first in file order wins), and on
    the meridians and parallels that cut the seas into areas."""
    areas = default_sea_areas()
    points = boundary_points([a.polygon for a in areas.areas])
    points += [(float(la), float(lo)) for la in np.arange(30.0, 46.0, 0.25)
               for lo in np.arange(-6.0, 37.0, 0.5)]
    assert len(points) > 1000
    for lat, lon in points:
        assert areas.sea_area_at(lat, lon) == _sea_area_by_tree(lat, lon), (lat, lon)
    assert areas.sea_area_at(float("nan"), 15.0) is None
