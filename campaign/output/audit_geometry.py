"""Plane geometry for the battle audit (``campaign.output.battle_audit``), written apart from the engines'
own so that the audit checks them rather than repeats them: hulls as capsules, the distance between two
segments, bearings off the bow. Yards on the battle's plane (x east, y north), courses clockwise from
north. Every function takes numpy arrays of any one shape and works element by element.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

Arr = npt.NDArray[np.float64]
EPS = 1e-12


def hull_segment(x_yd: Arr, y_yd: Arr, course_deg: Arr, length_yd: Arr, beam_yd: Arr
                 ) -> tuple[Arr, Arr, Arr, Arr]:
    """The spine of a hull drawn as a capsule (a stadium: her length overall, her beam across, rounded at
    both ends with radius half the beam) centred on (x, y) along her course: its ends (x0, y0, x1, y1)."""
    half = np.maximum(np.asarray(length_yd) - np.asarray(beam_yd), 0.0) / 2.0
    c = np.radians(course_deg)
    dx, dy = half * np.sin(c), half * np.cos(c)
    return x_yd - dx, y_yd - dy, x_yd + dx, y_yd + dy


def point_segment_yd(px: Arr, py: Arr, ax: Arr, ay: Arr, bx: Arr, by: Arr) -> Arr:
    """Distance from the point P to the segment AB (a point, if A is B)."""
    dx, dy = bx - ax, by - ay
    den = dx * dx + dy * dy
    t = np.where(den > EPS, ((px - ax) * dx + (py - ay) * dy) / np.where(den > EPS, den, 1.0), 0.0)
    t = np.clip(t, 0.0, 1.0)
    return np.hypot(px - (ax + t * dx), py - (ay + t * dy))


def _cross(ax: Arr, ay: Arr, bx: Arr, by: Arr, cx: Arr, cy: Arr) -> Arr:
    """The z of (B - A) x (C - A): which side of line AB the point C lies."""
    return (bx - ax) * (cy - ay) - (by - ay) * (cx - ax)


def segment_segment_yd(ax: Arr, ay: Arr, bx: Arr, by: Arr, cx: Arr, cy: Arr, dx: Arr, dy: Arr) -> Arr:
    """Least distance between the segments AB and CD: 0 where they cross, else the least of the four
    distances from an end of one to the other (in the plane, the nearest points include an end)."""
    ends = np.minimum.reduce([point_segment_yd(ax, ay, cx, cy, dx, dy), point_segment_yd(bx, by, cx, cy, dx, dy),
                              point_segment_yd(cx, cy, ax, ay, bx, by), point_segment_yd(dx, dy, ax, ay, bx, by)])
    d1, d2 = _cross(cx, cy, dx, dy, ax, ay), _cross(cx, cy, dx, dy, bx, by)
    d3, d4 = _cross(ax, ay, bx, by, cx, cy), _cross(ax, ay, bx, by, dx, dy)
    crossing = (d1 * d2 < 0) & (d3 * d4 < 0)
    return np.where(crossing, 0.0, ends)


def hull_clearance_yd(a: tuple[Arr, Arr, Arr, Arr, Arr], b: tuple[Arr, Arr, Arr, Arr, Arr]) -> Arr:
    """Clear water between two capsule hulls, each (x_yd, y_yd, course_deg, length_yd, beam_yd): the
    distance between their spines less their half-beams; negative where the hulls overlap."""
    sa, sb = hull_segment(*a), hull_segment(*b)
    return segment_segment_yd(*sa, *sb) - (np.asarray(a[4]) + np.asarray(b[4])) / 2.0


def bearing_off_bow_deg(x_yd: Arr, y_yd: Arr, course_deg: Arr, tx_yd: Arr, ty_yd: Arr) -> Arr:
    """The bearing of the target (tx, ty) from a ship at (x, y) on ``course_deg``, measured off her bow:
    0 dead ahead, 180 dead astern, either side alike (0 to 180 degrees)."""
    true = np.degrees(np.arctan2(tx_yd - x_yd, ty_yd - y_yd))
    rel = (true - course_deg + 180.0) % 360.0 - 180.0
    return np.abs(rel)
