"""Cheap proof that a wireless receiver is out of range, before the geodesic is asked.

A route search asks whether each friendly set lies within range of the set keying a message: tens of
thousands of questions a run, most about sets hundreds of miles beyond any range. The straight line
through the Earth between two points (the chord) is never longer than the shortest path over the
surface (the geodesic), so a chord longer than a range proves the geodesic longer too. Only a chord
clear of the range by ``CHORD_SLACK`` (relative) and ``CHORD_SLACK_M`` decides; every other case is left
to the geodesic itself (:func:`campaign.geo.earth.distance_nm`), so no decision differs from the geodesic's.

The other way round, a chord short enough proves a receiver within range: no curve on the ellipsoid
bends more sharply than its meridian at the equator (radius b^2/a, 6,335 km), so the geodesic between
two points is no longer than the arc of a circle of radius ``ARC_RADIUS_M`` on their chord
(:func:`within_chord_m`).

Points are Earth-centred, Earth-fixed (x, y, z) in metres on the WGS84 ellipsoid
(:func:`campaign.world.motion.ecef_point`); chords are nautical miles.
"""

from __future__ import annotations

import math

from campaign.geo.earth import M_PER_NM
from campaign.world.motion import ecef_point

# The chord must exceed a range by this fraction and this many metres to decide. They stand for the
# rounding of the chord (a few parts in 1e16 of the Earth's radius: nanometres) and the error of the
# geodesic (pyproj's is good to 15 nanometres): 1e-9 of the shortest range in the data (16 nm) is 30
# micrometres, and the micrometre covers a range of nothing (two points an ulp apart).
CHORD_SLACK = 1e-9
CHORD_SLACK_M = 1e-6
XYZ_MEMO_SIZE = 50_000  # entries of the position memo before it is cleared (memory bound only)

# A radius below the least radius of curvature of the WGS84 ellipsoid (b^2/a = 6,335,439 m), m.
ARC_RADIUS_M = 6_300_000.0
# A chord must be short of the bound by this fraction to prove a range (pyproj's geodesic and the
# chord's rounding are good to parts in 1e9 at a metre, far less beyond).
SURE_SLACK = 1e-7

Xyz = tuple[float, float, float]
# Metres of chord per nautical mile of range beyond which the geodesic is longer than the range.
CHORD_M_PER_NM = M_PER_NM * (1.0 + CHORD_SLACK)


def xyz_m(lat: float, lon: float) -> Xyz:
    """Earth-centred (x, y, z) in metres of a point (degrees) on the WGS84 ellipsoid."""
    return ecef_point(lat, lon)


def beyond(a: Xyz, b: Xyz, range_nm: float) -> bool:
    """True when the chord between two Earth-centred points (metres) proves the geodesic between them
    longer than ``range_nm``. (Hot loops inline it: ``dist(a, b) > range_nm * CHORD_M_PER_NM + CHORD_SLACK_M``.)"""
    return math.dist(a, b) > range_nm * CHORD_M_PER_NM + CHORD_SLACK_M


def beyond_chord_m(range_nm: float) -> float:
    """The chord (m) over which the geodesic between two points is surely longer than ``range_nm`` (nm):
    :func:`beyond` as a threshold, for a loop that compares many chords with one range."""
    return range_nm * CHORD_M_PER_NM + CHORD_SLACK_M


def within_chord_m(range_nm: float) -> float:
    """The chord (m) at or under which the geodesic between two points is surely no longer than
    ``range_nm`` (nm): the chord of an arc ``range_nm`` long on a circle of radius ``ARC_RADIUS_M``,
    less the slack."""
    half_angle = range_nm * M_PER_NM / (2.0 * ARC_RADIUS_M)
    if half_angle >= math.pi / 2.0:
        return 2.0 * ARC_RADIUS_M * (1.0 - SURE_SLACK) - CHORD_SLACK_M
    return 2.0 * ARC_RADIUS_M * math.sin(half_angle) * (1.0 - SURE_SLACK) - CHORD_SLACK_M


class XyzMemo:
    """Earth-centred points of the places asked, remembered: a ship lying in port or waiting at sea is
    asked about at the same place by every route search. Bounded: cleared when full."""

    def __init__(self, size: int = XYZ_MEMO_SIZE) -> None:
        self._size = size
        self._memo: dict[tuple[float, float], Xyz] = {}

    def __call__(self, place: tuple[float, float]) -> Xyz:
        """``xyz_m(*place)`` for a (lat, lon) in degrees, from the memo when the place was asked before."""
        if type(place) is not tuple:
            place = (place[0], place[1])  # a position given as a list, say: the memo's key must hash
        xyz = self._memo.get(place)
        if xyz is None:
            if len(self._memo) >= self._size:
                self._memo.clear()
            xyz = self._memo[place] = ecef_point(place[0], place[1])
        return xyz
