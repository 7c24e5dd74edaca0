"""Keeping station in a squadron: in column on the leader's wake, or in line of bearing on her.

In column each ship follows the track her leader steamed, so many hundred yards behind her next ahead
along it (``data/tactics/helm.yaml``, formation): she steers for a point a little ahead of her on that
track and makes her next ahead's speed plus what she needs to regain her distance. A column therefore turns in
succession: every ship turns where the leader turned. After a turn together the ships keep the places
they had relative to the leader when they turned (a line of bearing), each steering the leader's course
with what it takes to regain her place.
"""

from __future__ import annotations

import math

from campaign.tactics.kinematics import S_PER_H, YD_PER_NM

#: The wake keeps a point each time the leader has gone this far (yd).
WAKE_POINT_YD = 20.0
#: A follower's place on the wake is looked for within this many points of the last.
SEARCH_BACK, SEARCH_AHEAD = 8, 40


class Wake:
    """The track a squadron's leader has steamed: points (yd) with the distance run to each.

    It begins with a straight track of ``behind_yd`` astern of her, the column she came into action in."""

    __slots__ = ("s", "xs", "ys")

    def __init__(self, x_yd: float, y_yd: float, course_deg: float, behind_yd: float) -> None:
        c = math.radians(course_deg)
        n = max(1, math.ceil(behind_yd / WAKE_POINT_YD))
        self.xs = [x_yd - behind_yd * math.sin(c) * (1.0 - i / n) for i in range(n + 1)]
        self.ys = [y_yd - behind_yd * math.cos(c) * (1.0 - i / n) for i in range(n + 1)]
        self.s = [behind_yd * i / n for i in range(n + 1)]

    @property
    def head_s(self) -> float:
        return self.s[-1]

    def add(self, x_yd: float, y_yd: float) -> None:
        """The leader is now at (x, y)."""
        d = math.hypot(x_yd - self.xs[-1], y_yd - self.ys[-1])
        if d >= WAKE_POINT_YD:
            self.xs.append(x_yd)
            self.ys.append(y_yd)
            self.s.append(self.s[-1] + d)

    def trim(self, keep_yd: float) -> int:
        """Forget the track more than ``keep_yd`` behind the leader; returns how many points went."""
        cut = 0
        while cut < len(self.s) - 2 and self.s[cut + 1] < self.head_s - keep_yd:
            cut += 1
        if cut:
            del self.xs[:cut], self.ys[:cut], self.s[:cut]
        return cut

    def point_at(self, s_yd: float) -> tuple[float, float]:
        """The point of the track ``s_yd`` along it (clamped to its ends)."""
        s = self.s
        if s_yd <= s[0]:
            return self.xs[0], self.ys[0]
        if s_yd >= s[-1]:
            return self.xs[-1], self.ys[-1]
        lo, hi = 0, len(s) - 1
        while hi - lo > 1:
            mid = (lo + hi) // 2
            if s[mid] <= s_yd:
                lo = mid
            else:
                hi = mid
        f = (s_yd - s[lo]) / (s[hi] - s[lo])
        return self.xs[lo] + f * (self.xs[hi] - self.xs[lo]), self.ys[lo] + f * (self.ys[hi] - self.ys[lo])

    def project(self, x_yd: float, y_yd: float, hint: int | None) -> tuple[float, int]:
        """Where along the track (``s``) the point nearest (x, y) lies, and that segment's index; looked for
        near ``hint`` (the last answer), or along the whole track without one."""
        n = len(self.s)
        if n < 2:
            return self.s[0], 0
        lo, hi = (0, n - 1) if hint is None else (max(0, hint - SEARCH_BACK), min(n - 1, hint + SEARCH_AHEAD))
        best = (math.inf, self.s[0], 0)
        for i in range(lo, max(lo + 1, hi)):
            if i + 1 >= n:
                break
            ax, ay, bx, by = self.xs[i], self.ys[i], self.xs[i + 1], self.ys[i + 1]
            dx, dy = bx - ax, by - ay
            seg2 = dx * dx + dy * dy
            t = 0.0 if seg2 <= 0.0 else min(1.0, max(0.0, ((x_yd - ax) * dx + (y_yd - ay) * dy) / seg2))
            d2 = (ax + t * dx - x_yd) ** 2 + (ay + t * dy - y_yd) ** 2
            if d2 < best[0]:
                best = (d2, self.s[i] + t * (self.s[i + 1] - self.s[i]), i)
        return best[1], best[2]


def speed_to_regain_kn(leader_kn: float, behind_yd: float, station_time_s: float) -> float:
    """The speed (kn) that makes up ``behind_yd`` (negative: ahead of her place) in about ``station_time_s``
    while her leader steams ``leader_kn``."""
    return leader_kn + behind_yd / station_time_s * S_PER_H / YD_PER_NM


def follow_wake(wake: Wake, x_yd: float, y_yd: float, lookahead_yd: float, leader_course_deg: float,
                hint: int | None) -> tuple[float, float, int]:
    """(course to steer, how far along the wake she is, the wake segment she is on) for a ship following
    her leader's wake: she steers for the point ``lookahead_yd`` ahead of her on it."""
    s, seg = wake.project(x_yd, y_yd, hint)
    ahead_s = s + lookahead_yd
    if ahead_s >= wake.head_s:
        # Up with the leader's present place: steer his course from there.
        hx, hy = wake.point_at(wake.head_s)
        c = math.radians(leader_course_deg)
        over = ahead_s - wake.head_s
        tx, ty = hx + over * math.sin(c), hy + over * math.cos(c)
    else:
        tx, ty = wake.point_at(ahead_s)
    course = math.degrees(math.atan2(tx - x_yd, ty - y_yd)) % 360.0
    return course, s, seg


def keep_bearing(x_yd: float, y_yd: float, place_x_yd: float, place_y_yd: float, leader_course_deg: float,
                 leader_kn: float, station_time_s: float) -> tuple[float, float]:
    """(course, speed kn) for a ship in line of bearing whose place is (place_x, place_y): the leader's
    velocity plus what closes the gap to her place in about ``station_time_s``."""
    c = math.radians(leader_course_deg)
    v = leader_kn * YD_PER_NM / S_PER_H  # yd/s
    vx = v * math.sin(c) + (place_x_yd - x_yd) / station_time_s
    vy = v * math.cos(c) + (place_y_yd - y_yd) / station_time_s
    speed = math.hypot(vx, vy) * S_PER_H / YD_PER_NM
    if speed <= 1e-9:
        return leader_course_deg, 0.0
    return math.degrees(math.atan2(vx, vy)) % 360.0, speed
