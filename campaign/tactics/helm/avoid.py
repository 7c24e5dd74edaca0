"""The officer of the watch: no ship steers into another.

Before each ship's course and speed go to her engine, they are checked against every other hull near
enough to matter. Each ship's next ``horizon_s`` seconds are reckoned as she would steam them: turning
towards her wanted course at the rate her rules allow and gaining or losing way at theirs (the
handling's ``rates``), then holding it; the other ships likewise towards what their own helms want (an
officer of the watch sees a consort put her helm over, and an enemy's bow swing). If the two hulls
would pass nearer than ``margin_yd`` (and nearer than they are now), she alters: the least turn that
clears, ``step_deg`` at a time, starboard first (the rule of the road), or the side she altered to
last; failing any, she slows, then stops. An enemy she means to ram is not avoided.
(``data/tactics/helm.yaml``, avoid.)
"""

from __future__ import annotations

import math
from collections.abc import Mapping, MutableMapping, Sequence

from campaign.tactics.helm.rules import HelmRules
from campaign.tactics.kinematics import S_PER_H, YD_PER_NM
from campaign.tactics.plane.hull import Pose, clearance_yd
from campaign.tactics.plane.motion import Body
from campaign.tactics.protocol import HelmOrder

#: The look ahead is reckoned in steps of this many seconds.
LOOK_STEP_S = 10.0

Track = list[tuple[float, float, float]]


def reckon(body: Body, course_deg: float, speed_kn: float, horizon_s: float) -> Track:
    """Her poses (x, y, course) at each ``LOOK_STEP_S`` of the next ``horizon_s`` seconds, turning towards
    ``course_deg`` and changing speed towards ``speed_kn`` at her handling's rates."""
    turn_rate, accel = body.handling.rates(body) if hasattr(body.handling, "rates") else (math.inf, math.inf)
    v = made_good_kn(body)
    x, y, c = body.x_yd, body.y_yd, body.course_deg
    if body.stopped:
        return [(x, y, c)] * max(1, math.ceil(horizon_s / LOOK_STEP_S))
    out: Track = []
    h = LOOK_STEP_S
    for _ in range(max(1, math.ceil(horizon_s / h))):
        d = (course_deg - c + 180.0) % 360.0 - 180.0
        cap = turn_rate * h
        d = max(-cap, min(cap, d))
        dv = max(-accel * h, min(accel * h, speed_kn - v))
        run = (v + 0.5 * dv) * YD_PER_NM / S_PER_H * h
        heading = math.radians(c + 0.5 * d)
        x, y = x + run * math.sin(heading), y + run * math.cos(heading)
        c, v = (c + d) % 360.0, v + dv
        out.append((x, y, c))
    return out


def made_good_kn(body: Body) -> float:
    """The speed she is making good now (kn): her handling's word for it where it has one (a ship turning
    on her engines makes far less than her way), else her speed."""
    made = getattr(body.handling, "made_good_kn", None)
    return made(body) if callable(made) else body.speed_kn


def least_clearance_yd(me: Body, mine: Track, other: Body, theirs: Track, enough_yd: float = math.inf) -> float:
    """The least clearance (yd) between two hulls along their reckoned tracks (step by step); at a step
    whose centres are so far apart that the hulls must be at least ``enough_yd`` clear, that lower bound
    stands for the clearance (the hulls' shapes are worked out only where it could be less)."""
    reach = me.hull.reach_yd + other.hull.reach_yd
    least = math.inf
    for a, b in zip(mine, theirs):
        bound = math.hypot(a[0] - b[0], a[1] - b[1]) - reach
        if bound < enough_yd and bound < least:
            bound = clearance_yd(Pose(*a), me.hull, Pose(*b), other.hull)
        least = min(least, bound)
    return least


def _threats(me: Body, bodies: Sequence[Body], wants: Mapping[str, HelmOrder], ram_target: str | None,
             horizon_s: float, margin_yd: float) -> list[Body]:
    """The other hulls near enough to come within ``margin_yd`` of hers within the horizon: each at the
    faster of her present and wanted speeds (neither gains more than that in two minutes)."""
    def fastest_kn(b: Body) -> float:
        w = wants.get(b.name)
        return max(abs(b.speed_kn), abs(w.speed_kn) if w is not None else 0.0)

    mine_yd = fastest_kn(me) * YD_PER_NM / S_PER_H * horizon_s
    out = []
    for o in bodies:
        if o is me or o.name == ram_target:
            continue
        gap = math.hypot(o.x_yd - me.x_yd, o.y_yd - me.y_yd) - me.hull.reach_yd - o.hull.reach_yd
        if gap - margin_yd <= mine_yd + fastest_kn(o) * YD_PER_NM / S_PER_H * horizon_s:
            out.append(o)
    return out


class _Watch:
    """One sub-step's look ahead: the others' reckoned tracks, made once and shared."""

    def __init__(self, bodies: Sequence[Body], wants: Mapping[str, HelmOrder], rules: HelmRules) -> None:
        self.rules = rules
        self.wants = wants
        self._tracks: dict[str, Track] = {}
        self.by = {b.name: b for b in bodies}

    def track(self, b: Body) -> Track:
        """Her reckoned track on the order her helm wants (made once a step)."""
        found = self._tracks.get(b.name)
        if found is None:
            w = self.wants.get(b.name) or HelmOrder(b.course_deg, b.speed_kn)
            found = self._tracks[b.name] = reckon(b, w.course_deg, w.speed_kn, self.rules.avoid_horizon_s)
        return found

    def clear(self, me: Body, course_deg: float, speed_kn: float, threats: Sequence[Body]) -> bool:
        """Whether ``me`` on this course and speed passes every threat at the margin or more."""
        w = self.wants.get(me.name)
        if w is not None and w.course_deg == course_deg and w.speed_kn == speed_kn:
            mine = self.track(me)  # her wanted order: the track the others are judged against
        else:
            mine = reckon(me, course_deg, speed_kn, self.rules.avoid_horizon_s)
        margin = self.rules.avoid_margin_yd
        for o in threats:
            ahead = least_clearance_yd(me, mine, o, self.track(o), margin)
            if ahead < margin and ahead < clearance_yd(me.pose, me.hull, o.pose, o.hull) - 1e-6:
                return False
        return True


def avoid(bodies: Sequence[Body], wants: Mapping[str, HelmOrder], rules: HelmRules,
          sides: MutableMapping[str, float]) -> dict[str, HelmOrder]:
    """``wants`` with each ship's order altered the least that keeps her clear of every other hull
    (module docstring). ``sides`` remembers the side (+1 starboard, -1 port) each ship last altered to,
    so that she keeps to it while the danger lasts."""
    out = dict(wants)
    watch: _Watch | None = None
    for me in bodies:
        order = wants.get(me.name)
        if order is None or me.stopped:
            continue
        threats = _threats(me, bodies, wants, order.ram_target, rules.avoid_horizon_s, rules.avoid_margin_yd)
        if not threats:
            sides.pop(me.name, None)
            continue
        if watch is None:
            watch = _Watch(bodies, wants, rules)
        if watch.clear(me, order.course_deg, order.speed_kn, threats):
            sides.pop(me.name, None)
            continue
        first = sides.get(me.name, 1.0)
        steps = int(90.0 // rules.avoid_step_deg)
        chosen: HelmOrder | None = None
        for k in range(1, steps + 1):
            for sign in (first, -first):
                course = (order.course_deg + sign * k * rules.avoid_step_deg) % 360.0
                if watch.clear(me, course, order.speed_kn, threats):
                    chosen = HelmOrder(course, order.speed_kn, order.ram_target)
                    sides[me.name] = sign
                    break
            if chosen is not None:
                break
        if chosen is None:
            for factor in (0.5, 0.0):
                if watch.clear(me, order.course_deg, order.speed_kn * factor, threats):
                    chosen = HelmOrder(order.course_deg, order.speed_kn * factor, order.ram_target)
                    break
        out[me.name] = chosen or HelmOrder(order.course_deg, 0.0, order.ram_target)
    return out
