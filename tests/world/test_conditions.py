"""Conditions along a motion: the light stretch's leaps from one differing step to the next find
what a walk over every step finds."""

from __future__ import annotations

import math

import pytest

from campaign.geo.route import Route
from campaign.world.clock import parse_utc
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
