"""A ship's hull on the battle plane: the room she takes up.

A hull is a stadium (a capsule): the rectangle of her length and beam with round ends, its axis on her
course, centred on her position. Two hulls overlap when the distance between their axes is less than
their half-beams together. Lengths and beams are ``data/ships.yaml``'s (``length_m``, ``beam_m``, each
with its source), in yards on the plane.

Parts of a hull for ramming and collision (``part_at``): the bow is the forward ``end_fraction`` of her
length, the stern the after one, the rest her side (``data/tactics/contact.yaml``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from campaign.model.ships import Ship

YD_PER_M = 1.0 / 0.9144

BOW, SIDE, STERN = "bow", "side", "stern"


@dataclass(frozen=True, slots=True)
class Hull:
    """A hull's size in yards: overall length and beam."""

    length_yd: float
    beam_yd: float

    @classmethod
    def of(cls, ship: Ship) -> Hull:
        return cls(ship.length_m * YD_PER_M, ship.beam_m * YD_PER_M)

    @property
    def radius_yd(self) -> float:
        """Half her beam: the radius of the stadium's round ends."""
        return 0.5 * self.beam_yd

    @property
    def half_axis_yd(self) -> float:
        """Half the length of the stadium's straight axis (her length less her beam, halved)."""
        return max(0.0, 0.5 * (self.length_yd - self.beam_yd))

    @property
    def reach_yd(self) -> float:
        """The farthest any part of her lies from her centre: half her length."""
        return max(0.5 * self.length_yd, self.radius_yd)


def axis(x_yd: float, y_yd: float, course_deg: float, hull: Hull) -> tuple[float, float, float, float]:
    """The ends of her axis (stern end, bow end) as (x0, y0, x1, y1) yards."""
    c = math.radians(course_deg)
    dx, dy = hull.half_axis_yd * math.sin(c), hull.half_axis_yd * math.cos(c)
    return x_yd - dx, y_yd - dy, x_yd + dx, y_yd + dy


def _clamp01(v: float) -> float:
    return 0.0 if v < 0.0 else 1.0 if v > 1.0 else v


def segment_closest(ax0: float, ay0: float, ax1: float, ay1: float, bx0: float, by0: float, bx1: float,
                    by1: float) -> tuple[float, float, float]:
    """The closest points of two segments: (distance, s on the first, t on the second), s and t in [0, 1]
    from each segment's first end (the standard clamped solution of the two-segment problem)."""
    ux, uy = ax1 - ax0, ay1 - ay0
    vx, vy = bx1 - bx0, by1 - by0
    wx, wy = ax0 - bx0, ay0 - by0
    a = ux * ux + uy * uy
    b = ux * vx + uy * vy
    c = vx * vx + vy * vy
    d = ux * wx + uy * wy
    e = vx * wx + vy * wy
    eps = 1e-12
    if a <= eps and c <= eps:
        s = t = 0.0
    elif a <= eps:
        s, t = 0.0, _clamp01(e / c)
    elif c <= eps:
        s, t = _clamp01(-d / a), 0.0
    else:
        den = a * c - b * b
        s = _clamp01((b * e - c * d) / den) if den > eps else 0.0
        t = (b * s + e) / c
        if t < 0.0:
            s, t = _clamp01(-d / a), 0.0
        elif t > 1.0:
            s, t = _clamp01((b - d) / a), 1.0
    px, py = ax0 + s * ux - (bx0 + t * vx), ay0 + s * uy - (by0 + t * vy)
    return math.hypot(px, py), s, t


@dataclass(frozen=True, slots=True)
class Pose:
    """Where a hull lies: centre (yd) and heading (deg)."""

    x_yd: float
    y_yd: float
    course_deg: float


def clearance_yd(a: Pose, ha: Hull, b: Pose, hb: Hull) -> float:
    """The least distance between the two hulls (yd); negative where they overlap."""
    d, _, _ = segment_closest(*axis(a.x_yd, a.y_yd, a.course_deg, ha), *axis(b.x_yd, b.y_yd, b.course_deg, hb))
    return d - ha.radius_yd - hb.radius_yd


def contact_points(a: Pose, ha: Hull, b: Pose, hb: Hull) -> tuple[float, float]:
    """Where along each hull the two come nearest, as the distance of that point from her centre towards
    her bow (yd; negative aft), one for each hull."""
    _, s, t = segment_closest(*axis(a.x_yd, a.y_yd, a.course_deg, ha), *axis(b.x_yd, b.y_yd, b.course_deg, hb))
    return (2.0 * s - 1.0) * ha.half_axis_yd, (2.0 * t - 1.0) * hb.half_axis_yd


def part_at(along_yd: float, hull: Hull, end_fraction: float) -> str:
    """The part of the hull ``along_yd`` forward of her centre: bow, side or stern (``end_fraction`` of her
    length at each end). A point on the round end is the end itself."""
    # A point of the straight side lies on the axis at its own distance from the centre; every point of
    # a round end lies on the axis at its end (``half_axis_yd``).
    edge_yd = min(0.5 * hull.length_yd - end_fraction * hull.length_yd, hull.half_axis_yd - 1e-9)
    if along_yd >= edge_yd:
        return BOW
    if along_yd <= -edge_yd:
        return STERN
    return SIDE


def _subtended(fx_yd: float, fy_yd: float, pose: Pose, hull: Hull, ref_deg: float) -> tuple[float, float]:
    """The bearings (deg, relative to ``ref_deg``, within +-180) between which the hull lies as seen from
    (fx, fy): its axis's ends widened by the angle its half-beam subtends there."""
    x0, y0, x1, y1 = axis(pose.x_yd, pose.y_yd, pose.course_deg, hull)
    # Bearings about the hull's own centre first (a hull subtends less than a half circle from outside it,
    # so they cannot wrap round), then moved to ``ref_deg``.
    centre = math.degrees(math.atan2(pose.x_yd - fx_yd, pose.y_yd - fy_yd))
    shift = (centre - ref_deg + 180.0) % 360.0 - 180.0
    lo, hi = math.inf, -math.inf
    for x, y in ((x0, y0), (x1, y1)):
        d = math.hypot(x - fx_yd, y - fy_yd)
        rel = shift + (math.degrees(math.atan2(x - fx_yd, y - fy_yd)) - centre + 180.0) % 360.0 - 180.0
        spread = 90.0 if d <= hull.radius_yd else math.degrees(math.asin(hull.radius_yd / d))
        lo, hi = min(lo, rel - spread), max(hi, rel + spread)
    return lo, hi


def in_line_of_fire(fx_yd: float, fy_yd: float, target: Pose, target_hull: Hull, other: Pose,
                    other_hull: Hull) -> bool:
    """Whether ``other`` lies in the line of fire from (fx, fy) to ``target``: nearer the firer than the
    target, and within the arc the target's hull subtends from the firer (the two arcs overlap)."""
    d_target = math.hypot(target.x_yd - fx_yd, target.y_yd - fy_yd)
    if math.hypot(other.x_yd - fx_yd, other.y_yd - fy_yd) >= d_target:
        return False
    ref = math.degrees(math.atan2(target.x_yd - fx_yd, target.y_yd - fy_yd))
    t_lo, t_hi = _subtended(fx_yd, fy_yd, target, target_hull, ref)
    o_lo, o_hi = _subtended(fx_yd, fy_yd, other, other_hull, ref)
    return o_lo <= t_hi and t_lo <= o_hi
