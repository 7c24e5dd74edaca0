"""Route: a position remembered along a route is the one worked out afresh, and the memory stays bounded."""

from __future__ import annotations

import bisect

from hypothesis import given, settings
from hypothesis import strategies as st

from campaign.geo import earth
from campaign.geo import route as route_mod
from campaign.geo.route import Route


def _fresh(route: Route, dist_nm: float) -> tuple[float, float, float]:
    """(lat, lon, back azimuth) after ``dist_nm`` along ``route``, the long way: clamp, find the leg
    (stepping over legs of no length), and one forward geodesic from its start, remembering nothing."""
    cum = route.cum_nm
    d = min(max(dist_nm, 0.0), cum[-1])
    last = len(cum) - 2
    i = min(max(bisect.bisect_right(cum, d) - 1, 0), last)
    while i < last and cum[i + 1] - cum[i] <= 0.0:
        i += 1
    lon, lat, back = earth.WGS84.fwd(route.lons[i], route.lats[i], route.azimuths[i],
                                     (d - cum[i]) * earth.M_PER_NM)
    return lat, lon, back


def _messina_out() -> Route:
    return Route.through([37.9, 37.5, 37.5, 36.8], [15.6, 17.0, 17.0, 19.5])  # with a leg of no length


LATS = st.floats(min_value=30.0, max_value=46.0)
LONS = st.floats(min_value=-6.0, max_value=36.0)


@settings(max_examples=60, deadline=None)
@given(points=st.lists(st.tuples(LATS, LONS), min_size=2, max_size=5),
       fractions=st.lists(st.floats(min_value=-0.2, max_value=1.2), min_size=1, max_size=12),
       kept=st.integers(min_value=1, max_value=6))
def test_a_remembered_point_is_the_one_worked_out_afresh(points, fractions, kept) -> None:
    route = Route._build(tuple(p[0] for p in points), tuple(p[1] for p in points), ())
    if route.length_nm <= 0.0:
        return
    dists = [f * route.length_nm for f in fractions] + [route.length_nm, 0.0, 2.0 * route.length_nm]
    old = route_mod.POINTS_KEPT
    route_mod.POINTS_KEPT = kept  # a small memory, emptied often
    try:
        for d in dists + dists[::-1]:  # each asked again, from memory or afresh
            lat, lon, back = _fresh(route, d)
            assert route.latlon_at(d) == (lat, lon)
            assert route.position_at(d) == (lat, lon, (back + 180.0) % 360.0)
            assert len(route.__dict__["_points"]) <= kept
    finally:
        route_mod.POINTS_KEPT = old


def test_latlon_at_and_position_at_share_what_they_remember() -> None:
    route = _messina_out()
    d = 0.4 * route.length_nm
    lat, lon, course = route.position_at(d)
    assert route.latlon_at(d) == (lat, lon)
    assert len(route.__dict__["_points"]) == 1
    lat, lon, back = _fresh(route, d)
    assert (lat, lon, (back + 180.0) % 360.0) == (lat, lon, course)


def test_the_ends_and_a_leg_of_no_length_are_the_points_worked_out_afresh() -> None:
    route = _messina_out()
    at_turn = route.cum_nm[1]  # the leg of no length starts and ends here
    for d in (0.0, -0.0, -5.0, at_turn, route.length_nm, route.length_nm + 1.0, at_turn, 0.0, -0.0):
        lat, lon, _ = _fresh(route, d)
        assert route.latlon_at(d) == (lat, lon), d


@settings(max_examples=60, deadline=None)
@given(lat=st.floats(min_value=-80.0, max_value=80.0), lon=st.floats(min_value=-179.0, max_value=179.0),
       az=st.floats(min_value=0.0, max_value=360.0))
def test_no_distance_is_the_same_forward_geodesic_either_sign(lat, lon, az) -> None:
    # The memory keys a point by its distance, and -0.0 == 0.0 is one key: both must be the same point.
    assert earth.WGS84.fwd(lon, lat, az, -0.0) == earth.WGS84.fwd(lon, lat, az, 0.0)


def test_the_memory_does_not_make_routes_unequal() -> None:
    a = _messina_out()
    b = Route._build(a.lats, a.lons, a.passages)
    a.latlon_at(10.0)
    assert a == b and hash(a) == hash(b) and b.__dict__.get("_points") is None
