"""Conditions along a motion: the light stretch's leaps from one differing step to the next find
what a walk over every step finds."""

from __future__ import annotations

import functools
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from campaign.clock import parse_utc
from campaign.geo.route import Route
from campaign.world.conditions import STRETCH_MIN, LightStretch
from campaign.world.motion import Motion

START = parse_utc("1914-08-06T00:00Z")


def _walk_next_change(s: LightStretch, t: float, t1: float) -> float:
    """``LightStretch.next_change`` as a walk over every step (the form it replaced)."""
    for j in range(s._bracket(t), len(s.codes) - 1):
        if s.times[j] >= t1:
            break
        if s.codes[j] != s.codes[j + 1]:
            for c, _ in s._changes(j):
                if c > t:
                    return c
    return math.inf


def _walk_span(s: LightStretch, t: float) -> tuple[float, float]:
    """The (from, to) that ``LightStretch.state`` gives where nothing in t's own step settles them,
    as a walk over every step."""
    j = s._bracket(t)
    lo, hi = s.start, s.times[-1]
    for jj in range(j - 1, -1, -1):
        if s.codes[jj] != s.codes[jj + 1]:
            lo = s.times[jj + 1]
            break
    for jj in range(j + 1, len(s.codes) - 1):
        if s.codes[jj] != s.codes[jj + 1]:
            hi = s.times[jj]
            break
    return lo, hi


MOTIONS = [
    # Lying at Messina through dusk (the stretch from 12:00 to 18:00 holds sunset and civil dusk).
    Motion(version=1, t0_min=720.0, lat=38.19, lon=15.56),
    # Steaming east through the evening and into the moonlit night.
    Motion(version=2, t0_min=900.0, lat=37.0, lon=22.0,
           route=Route.through([38.19, 37.9, 37.0], [15.56, 17.5, 22.0]), speed_kn=22.0),
]


@pytest.mark.parametrize("motion", MOTIONS)
@pytest.mark.parametrize("k", [0, 1])
def test_leaps_between_differing_steps_find_what_a_walk_finds(motion: Motion, k: int) -> None:
    s = LightStretch(START, motion, motion.t0_min + k * STRETCH_MIN)
    assert s.flips == [j for j in range(len(s.codes) - 1) if s.codes[j] != s.codes[j + 1]]
    probes = [s.start + 3.7 * i for i in range(int(STRETCH_MIN / 3.7) + 1)]
    for t in probes:
        for t1 in (t + 5.0, t + 61.0, s.times[-1], s.times[-1] + 500.0):
            assert s.next_change(t, t1) == _walk_next_change(s, t, t1)
    changes = [c for j in s.flips for c, _ in s._changes(j)]
    for t in probes:
        _, lo, hi = s.state(t)
        assert lo <= t < hi or t >= s.times[-1] or t < s.start
        before = [c for c in changes if c <= t]
        after = [c for c in changes if c > t]
        want_lo, want_hi = _walk_span(s, t)
        # Inside t's own step the solved changes bound the span; elsewhere the walk's neighbours.
        in_step = [c for c, _ in s._changes(s._bracket(t))]
        if not any(c <= t for c in in_step):
            assert lo == want_lo
        else:
            assert lo == max(before)
        if not any(c > t for c in in_step):
            assert hi == want_hi
        else:
            assert hi == min(after)


def test_the_evening_stretch_does_change() -> None:
    s = LightStretch(START, MOTIONS[0], MOTIONS[0].t0_min + STRETCH_MIN)
    assert s.flips, "the test needs a stretch in which the light changes"


# -- the corridor test before a route is traced across the weather regions' edges ------------------

@functools.cache
def _edges() -> tuple:
    from campaign.world.conditions import _region_edges
    from campaign.world.weather import default_params

    return _region_edges(default_params().regions)


def _traced(route: Route) -> tuple[float, ...]:
    """``_route_crossings_nm`` without the corridor test (always tracing the route)."""
    from unittest import mock

    from campaign.world import conditions as C

    with mock.patch.object(C, "_clear_of", lambda route, boundaries: False):
        return C._route_crossings_nm.__wrapped__(route, _edges())


@settings(max_examples=150, deadline=None)
@given(points=st.lists(st.tuples(st.floats(30.0, 46.0), st.floats(-6.0, 36.0)), min_size=2, max_size=5),
       scale=st.sampled_from([0.02, 0.3, 1.0]))
def test_a_route_found_clear_of_the_edges_crosses_none(points: list[tuple[float, float]],
                                                        scale: float) -> None:
    # Short and long legs anywhere in the Mediterranean: the test may only skip a route that, traced
    # point by point, crosses no edge (so the crossings found are the same with it and without it).
    from campaign.world.conditions import _clear_of, _route_crossings_nm

    lat0, lon0 = points[0]
    lats = [lat0 + (la - lat0) * scale for la, _ in points]
    lons = [lon0 + (lo - lon0) * scale for _, lo in points]
    route = Route.through(lats, lons)
    traced = _traced(route)
    if _clear_of(route, _edges()):
        assert traced == ()
    assert _route_crossings_nm(route, _edges()) == traced


def test_the_corridor_test_skips_a_route_inside_one_region_and_not_one_across_an_edge() -> None:
    from campaign.world.conditions import _clear_of

    inside = Route.through([36.0, 36.3, 36.1], [18.0, 18.5, 19.2])  # the central Mediterranean
    across = Route.through([36.0, 36.0], [20.0, 26.0])  # central into the Levant
    assert _clear_of(inside, _edges()) and _traced(inside) == ()
    assert not _clear_of(across, _edges()) and _traced(across) != ()


# -- a motion that starts on a weather region's edge ----------------------------------------------

def test_a_motion_begun_on_a_region_edge_meets_the_weather_beyond_it_as_the_crossing_one_did() -> None:
    # Chatham crossing from the central Mediterranean into the Tyrrhenian north of Messina (seed 6 of
    # the historical campaign): she lost Goeben in the haze beyond the edge and re-planned at that very
    # instant. Her new motion starts on the edge; the traced line puts the crossing a fraction of a
    # metre into it. Counted, it gave her the clear weather behind her for that instant, and she saw
    # Goeben again at once. Both motions must meet the weather beyond the edge.
    from datetime import timedelta

    import numpy as np

    from campaign.clock import Clock
    from campaign.world.conditions import WorldConditions
    from campaign.world.weather import Weather

    weather = Weather(START, START + timedelta(days=2), np.random.default_rng(1))
    cond = WorldConditions(Clock(START), weather)
    names = [r.name for r in weather.params.regions]
    # The visibility as the region's index: which region the conditions read shows in the answer.
    cond._visibility_in = lambda region, t_min: float(names.index(region))
    route = Route.through([38.27325480194658, 38.31932233120149, 38.3541585016608],
                          [15.656584042285845, 15.56827208544301, 15.526678605206866])
    crossing = Motion(1, 905.0, 38.3541585016608, 15.526678605206866, route, 15.63)
    t_edge = cond._crossings(crossing)[0]
    lat, lon = crossing.position(t_edge)
    onward = Motion(2, t_edge, 38.3541585016608, 15.526678605206866,
                    Route.through([lat, 38.3541585016608], [lon, 15.526678605206866]), 24.5)
    before = cond.along(crossing, t_edge - 0.01)[1]
    beyond = cond.along(crossing, t_edge + 1e-6)[1]
    assert before != beyond, "the test needs a route across an edge"
    assert cond.along(onward, t_edge + 1e-6)[1] == beyond
    # Turned back from the edge, she meets the weather behind it again.
    back = Motion(3, t_edge, 38.27325480194658, 15.656584042285845,
                  Route.through([lat, 38.27325480194658], [lon, 15.656584042285845]), 24.5)
    assert cond.along(back, t_edge + 1e-6)[1] == before
