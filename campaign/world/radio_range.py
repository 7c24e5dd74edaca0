"""Cheap proof that a wireless receiver is out of range, before the geodesic is asked.

A route search asks whether each friendly set lies within range of the set keying a message: tens of
thousands of questions a run, most about sets hundreds of miles beyond any range. The straight line
through the Earth between two points (the chord) is never longer than the shortest path over the
surface (the geodesic), so a chord longer than a range proves the geodesic longer too. Only a chord
clear of the range by ``CHORD_SLACK`` (relative) and ``CHORD_SLACK_M`` decides; every other case is left
to the geodesic itself (:func:`campaign.geo.earth.distance_nm`), so no decision differs from the geodesic's.

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
