"""Lines of sight: any land between two points blocks the view (campaign/geo/sightline.py)."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from campaign.geo import earth
from campaign.geo.land import default_land
from campaign.geo.places import default_places
from campaign.geo.sightline import END_MARGIN_NM, SightLines
from campaign.output.sightline_audit import land_on_line_nm

SIGHT = SightLines(default_land())
CHANAK = default_places().get("Chanak narrows")


def test_the_gallipoli_peninsula_hides_chanak_from_the_aegean() -> None:
    # Off the Aegean shore of the peninsula, some 8 nm from the Narrows with 5.5 nm of land between.
    assert SIGHT.blocked(40.20, 26.22, CHANAK.lat, CHANAK.lon)
    assert land_on_line_nm(40.20, 26.22, *earth.inverse(40.20, 26.22, CHANAK.lat, CHANAK.lon)) > 5.0


def test_open_water_hides_nothing() -> None:
    assert not SIGHT.blocked(36.0, 16.0, 36.1, 16.2)
    # Down the Dardanelles from inside the entrance to the Narrows' approach, and across the Strait of
    # Messina from Messina to Reggio.
    entrance = default_places().get("Dardanelles entrance")
    assert not SIGHT.blocked(entrance.lat, entrance.lon, 40.09, 26.33)
    assert not SIGHT.blocked(38.19, 15.58, 38.11, 15.63)


def test_the_land_a_ship_lies_against_does_not_blind_her() -> None:
    # From a point on the shore itself (the nearest shore to mid-Strait of Messina) she sees out over the
    # water to that point: the first cable of a line is not tested.
    import shapely.ops

    sea = (38.19, 15.60)
    shore = shapely.ops.nearest_points(default_land().lonlat, shapely.Point(sea[1], sea[0]))[0]
    assert not SIGHT.blocked(shore.y, shore.x, *sea)


AREAS = {"Dardanelles": ((39.9, 40.45), (25.9, 26.8)), "Strait of Messina": ((37.9, 38.45), (15.3, 15.85))}


@settings(max_examples=200, deadline=None)
@given(area=st.sampled_from(sorted(AREAS)), u=st.tuples(st.floats(0, 1), st.floats(0, 1)),
       v=st.tuples(st.floats(0, 1), st.floats(0, 1)))
def test_a_line_of_sight_is_blocked_exactly_when_land_lies_on_it(area, u, v) -> None:
    # Against the audit's own walk of the geodesic in steps of 0.02 nm: a clear line has no land on it
    # (but a graze within the walk's step), and a blocked one has land on it or passes within a step of it.
    (la0, la1), (lo0, lo1) = AREAS[area]
    a = (la0 + u[0] * (la1 - la0), lo0 + u[1] * (lo1 - lo0))
    b = (la0 + v[0] * (la1 - la0), lo0 + v[1] * (lo1 - lo0))
    land = default_land()
    if land.is_land(*a) or land.is_land(*b):
        return
    bearing, dist = earth.inverse(*a, *b)
    on_land = land_on_line_nm(*a, bearing, dist)
    if not SIGHT.blocked(*a, *b):
        assert on_land <= 0.02, (a, b, on_land)
    elif on_land == 0.0:
        d = np.arange(END_MARGIN_NM, dist - END_MARGIN_NM, 0.02)
        lats, lons = earth.forward(np.full(d.shape, a[0]), np.full(d.shape, a[1]), np.full(d.shape, bearing), d)
        assert min(land.distance_to_land_nm(float(la), float(lo)) for la, lo in zip(lats, lons)) < 0.05
