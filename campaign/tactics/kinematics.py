"""Motion and geometry on a battle's local plane (yards, x east, y north, courses clockwise from north).

The world projects the fight onto an azimuthal-equidistant plane centred on it (pyproj), on which
distances from the centre are true and, over the few miles of a battle, all distances are true to
well under a yard in a thousand; so straight-line arithmetic in yards is exact enough here.
Functions take scalars or numpy arrays and return the same.
"""

from __future__ import annotations

import math

import numpy as np
import numpy.typing as npt

YD_PER_NM = 2025.372  # 1 international nautical mile = 1,852 m; 1 yd = 0.9144 m
S_PER_H = 3600.0


def yd_per_s(speed_kn: npt.ArrayLike) -> npt.ArrayLike:
    """Speed in yards per second of ``speed_kn`` knots."""
    return speed_kn * YD_PER_NM / S_PER_H


# Battles ask about one ship at a time thousands of times a tick: scalars take the math module's path,
# an order of magnitude quicker than numpy's on single numbers; arrays (which math refuses with a
# TypeError) take numpy's.


def advance(x_yd, y_yd, course_deg, speed_kn, dt_s):
    """Position after ``dt_s`` seconds on a steady course and speed."""
    d = yd_per_s(speed_kn) * dt_s
    if np.ndim(d) == 0 and np.ndim(course_deg) == 0 and np.ndim(x_yd) == 0 and np.ndim(y_yd) == 0:
        c = math.radians(course_deg)
        return x_yd + d * math.sin(c), y_yd + d * math.cos(c)
    c = np.radians(course_deg)
    return x_yd + d * np.sin(c), y_yd + d * np.cos(c)


def range_yd(x1, y1, x2, y2):
    """Distance in yards between two points of the plane."""
    try:
        return math.hypot(x2 - x1, y2 - y1)
    except TypeError:
        return np.hypot(np.subtract(x2, x1), np.subtract(y2, y1))


def bearing_deg(x1, y1, x2, y2):
    """True bearing in degrees (0-360) from point 1 to point 2."""
    try:
        return math.degrees(math.atan2(x2 - x1, y2 - y1)) % 360.0
    except TypeError:
        return np.degrees(np.arctan2(np.subtract(x2, x1), np.subtract(y2, y1))) % 360.0


def angle_diff_deg(a, b):
    """Signed smallest turn from ``a`` to ``b`` in degrees, in (-180, 180]."""
    if type(a) is float and type(b) is float:
        d = (b - a + 180.0) % 360.0 - 180.0
        return 180.0 if d == -180.0 else d
    d = (np.subtract(b, a) + 180.0) % 360.0 - 180.0
    return np.where(d == -180.0, 180.0, d) if np.ndim(d) else (180.0 if d == -180.0 else float(d))


def relative_bearing_deg(course_deg, x1, y1, x2, y2):
    """Bearing of point 2 from a ship at point 1 on ``course_deg``, relative to her bow: 0 ahead,
    90 abeam, 180 astern (absolute value, 0-180)."""
    return np.abs(angle_diff_deg(course_deg, bearing_deg(x1, y1, x2, y2)))


def turn_toward(course_deg: float, wanted_deg: float, max_turn_deg: float) -> float:
    """The course after turning towards ``wanted_deg`` by at most ``max_turn_deg`` (the shorter way)."""
    d = angle_diff_deg(course_deg, wanted_deg)
    step = max(-max_turn_deg, min(max_turn_deg, d))
    return (course_deg + step) % 360.0


def change_speed(speed_kn: float, wanted_kn: float, max_change_kn: float) -> float:
    """The speed after changing towards ``wanted_kn`` by at most ``max_change_kn``."""
    d = wanted_kn - speed_kn
    return speed_kn + max(-max_change_kn, min(max_change_kn, d))


def points_to_deg(points: float) -> float:
    """Compass points to degrees (32 points to the circle: 1 point = 11.25 deg)."""
    return points * 11.25
