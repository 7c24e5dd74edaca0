"""Moving every ship of a battle through one tick together, so that no hull passes through another.

Each engine keeps its own rules of handling (how fast a ship turns and gathers or loses way: a
``Handling``); this module runs them for all ships at once in short sub-steps, asks the helm (a
``Pilot``) for each ship's course and speed at every sub-step (so that a ship keeping station follows
her leader's wake through the tick, and one about to meet another alters in time), and after every
sub-step looks for hulls that would meet (``campaign.tactics.plane.hull``). Two hulls that would meet
are stopped where they touch, and the meeting is a ``Contact``: a ram if the helm meant it, else a
collision; the engine resolves it under its own rules. So hulls never overlap: they touch, and the
record says so.

A sub-step's swept motion is searched finely enough (``SWEEP_STEP_FRACTION`` of the smaller beam) that
no hull can cross another between two looks.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from campaign.tactics.kinematics import S_PER_H, YD_PER_NM
from campaign.tactics.plane.hull import Hull, Pose, clearance_yd, contact_points, part_at
from campaign.tactics.protocol import HelmOrder

#: Swept motion is looked at in pieces no longer than this fraction of the smaller beam of a pair.
SWEEP_STEP_FRACTION = 0.5
#: Hulls nearer than this (yd) are touching: a pair stopped together is not recorded again while they
#: lie so, and one that was apart must come this near to be recorded.
TOUCH_YD = 1.0
#: Bisection for the moment of contact stops within this fraction of a sub-step.
CONTACT_TOL = 1e-4
#: The helm is asked for every ship's course and speed at least this often (s): a helmsman steers all the
#: time, and ships keeping station 400 yards apart follow their leader's track within a few yards only if
#: the helm answers every few dozen yards run (40 yards at 15 knots).
HELM_STEP_S = 5.0


@dataclass(slots=True)
class Body:
    """A ship as the plane moves her: her hull, pose, speed, and her handling for this tick.

    ``stopped``: she lies stopped for the rest of the tick (she has met another hull, or her rules hold
    her motionless this tick). ``turned_deg`` and ``run_yd`` add up what she turned through and the
    ground she covered in the tick; ``path`` keeps her pose after each sub-step (for checks)."""

    name: str
    side: str
    unit: str
    hull: Hull
    x_yd: float
    y_yd: float
    course_deg: float
    speed_kn: float
    handling: Handling
    stopped: bool = False
    turned_deg: float = 0.0
    run_yd: float = 0.0
    path: list[tuple[float, float, float]] = field(default_factory=list)

    @property
    def pose(self) -> Pose:
        return Pose(self.x_yd, self.y_yd, self.course_deg)


class Handling(Protocol):
    """An engine's rules for how one ship answers her helm."""

    def begin(self, body: Body, want: HelmOrder, dt_s: float) -> None:
        """The tick begins with this order (rules that plan a whole move, as Jane's, plan it here)."""
        ...

    def step(self, body: Body, want: HelmOrder, h_s: float) -> tuple[float, float, float, float]:
        """Her (x_yd, y_yd, course_deg, speed_kn) after ``h_s`` seconds towards ``want``."""
        ...

    def rates(self, body: Body) -> tuple[float, float]:
        """(degrees a second she can turn now, knots a second she can gain or lose), for looking ahead."""
        ...

    def end(self, body: Body) -> None:
        """The tick is over (rules that settle speed at the end of a move settle it here)."""
        ...


class Pilot(Protocol):
    """The helm: each ship's wanted course and speed at a moment of the tick."""

    def want(self, t_s: float, bodies: Sequence[Body]) -> Mapping[str, HelmOrder]:
        ...


@dataclass(frozen=True)
class FixedOrders:
    """A pilot that gives every ship the same order all through the tick (ships not named keep their
    course and speed)."""

    orders: Mapping[str, HelmOrder]

    def want(self, t_s: float, bodies: Sequence[Body]) -> Mapping[str, HelmOrder]:
        return self.orders


def as_pilot(helm: Pilot | Mapping[str, HelmOrder]) -> Pilot:
    """A pilot from either a pilot or a plain mapping of orders."""
    return helm if hasattr(helm, "want") else FixedOrders(helm)


@dataclass(frozen=True)
class Contact:
    """Two hulls meeting at ``t_s``: where (the point between them, yd), which part of each was touched,
    whose stem struck (``striker``, None for a side-by-side brush), how fast she was going into the
    other (``closing_kn``: her velocity relative to the other's along her own heading; for stem to stem,
    the greater of the two) and whether her helm meant it (``deliberate``: a ram)."""

    t_s: float
    a: str
    b: str
    x_yd: float
    y_yd: float
    part_a: str
    part_b: str
    striker: str | None
    closing_kn: float
    deliberate: bool

    @property
    def kind(self) -> str:
        return "ram" if self.deliberate else "collision"

    @property
    def struck(self) -> str | None:
        """The ship struck by the striker's stem (None if nobody's stem struck)."""
        if self.striker is None:
            return None
        return self.b if self.striker == self.a else self.a

    @property
    def stem_to_stem(self) -> bool:
        return self.part_a == "bow" and self.part_b == "bow"


def _lerp_pose(x0: float, y0: float, c0: float, x1: float, y1: float, c1: float, f: float) -> Pose:
    dc = (c1 - c0 + 180.0) % 360.0 - 180.0
    return Pose(x0 + f * (x1 - x0), y0 + f * (y1 - y0), (c0 + f * dc) % 360.0)


@dataclass
class Plane:
    """The battle plane's memory between ticks: which pairs of hulls lie touching (so that a pair stopped
    together is not recorded again while it lies so). ``end_fraction`` is the share of a hull's length
    at each end counted as bow or stern (``data/tactics/contact.yaml``)."""

    end_fraction: float
    touching: set[frozenset[str]] = field(default_factory=set)

    def move(self, bodies: Sequence[Body], pilot: Pilot, t0_s: float, dt_s: float, h_s: float
             ) -> list[Contact]:
        """Move ``bodies`` through ``dt_s`` seconds in sub-steps of at most ``h_s``; return the contacts
        in time order. Bodies' poses, speeds, ``turned_deg``, ``run_yd`` and ``path`` are updated."""
        n = max(1, math.ceil(dt_s / h_s - 1e-9))
        h = dt_s / n
        wants = pilot.want(t0_s, bodies)
        for b in bodies:
            b.turned_deg = 0.0
            b.run_yd = 0.0
            b.path = [(b.x_yd, b.y_yd, b.course_deg)]
            b.handling.begin(b, wants.get(b.name) or HelmOrder(b.course_deg, b.speed_kn), dt_s)
        contacts: list[Contact] = []
        for k in range(n):
            t = t0_s + k * h
            if k:
                wants = pilot.want(t, bodies)
            new = []
            for b in bodies:
                if b.stopped:
                    new.append([b.x_yd, b.y_yd, b.course_deg, 0.0])
                    continue
                order = wants.get(b.name) or HelmOrder(b.course_deg, b.speed_kn)
                new.append(list(b.handling.step(b, order, h)))
            contacts += self._resolve(bodies, new, wants, t, h)
            for b, (x, y, c, v) in zip(bodies, new):
                b.turned_deg += abs((c - b.course_deg + 180.0) % 360.0 - 180.0)
                b.run_yd += math.hypot(x - b.x_yd, y - b.y_yd)
                b.x_yd, b.y_yd, b.course_deg, b.speed_kn = x, y, c % 360.0, v
                b.path.append((x, y, b.course_deg))
        for b in bodies:
            b.handling.end(b)
        self._forget_parted(bodies)
        return contacts

    # -- contacts ---------------------------------------------------------------------------------

    def _forget_parted(self, bodies: Sequence[Body]) -> None:
        by = {b.name: b for b in bodies}
        for key in list(self.touching):
            a, b = tuple(key)
            if a not in by or b not in by or clearance_yd(by[a].pose, by[a].hull, by[b].pose, by[b].hull) > TOUCH_YD:
                self.touching.discard(key)

    def _first_touch(self, a: Body, na: list[float], b: Body, nb: list[float]) -> float | None:
        """The fraction of the sub-step at which the two hulls, moving from their poses to ``na`` and
        ``nb``, would first overlap, or None. A pair overlapping already (it cannot be, but for a pair
        laid so) only may not close further."""
        reach = a.hull.reach_yd + b.hull.reach_yd
        # Relative motion of the centres, straight over the sub-step: its nearest approach, less what
        # turning can swing the ends, must come within the two reaches or nothing can touch.
        rx0, ry0 = b.x_yd - a.x_yd, b.y_yd - a.y_yd
        rx1, ry1 = nb[0] - na[0], nb[1] - na[1]
        dx, dy = rx1 - rx0, ry1 - ry0
        span2 = dx * dx + dy * dy
        f_cpa = 0.0 if span2 <= 0.0 else min(1.0, max(0.0, -(rx0 * dx + ry0 * dy) / span2))
        nearest = math.hypot(rx0 + f_cpa * dx, ry0 + f_cpa * dy)
        if nearest > reach + TOUCH_YD:
            return None
        c0 = clearance_yd(a.pose, a.hull, b.pose, b.hull)
        swing = (abs((na[2] - a.course_deg + 180.0) % 360.0 - 180.0) * a.hull.reach_yd
                 + abs((nb[2] - b.course_deg + 180.0) % 360.0 - 180.0) * b.hull.reach_yd) * math.pi / 180.0
        step_yd = SWEEP_STEP_FRACTION * min(a.hull.beam_yd, b.hull.beam_yd)
        m = max(1, math.ceil((math.sqrt(span2) + swing) / max(step_yd, 1e-6)))
        prev_f, prev_c = 0.0, c0
        for i in range(1, m + 1):
            f = i / m
            pa = _lerp_pose(a.x_yd, a.y_yd, a.course_deg, na[0], na[1], na[2], f)
            pb = _lerp_pose(b.x_yd, b.y_yd, b.course_deg, nb[0], nb[1], nb[2], f)
            c = clearance_yd(pa, a.hull, pb, b.hull)
            if c < 0.0 and c < prev_c:
                if prev_c < 0.0:
                    return prev_f  # overlapping already and closing: no further
                lo, hi = prev_f, f
                while hi - lo > CONTACT_TOL:
                    mid = 0.5 * (lo + hi)
                    pa = _lerp_pose(a.x_yd, a.y_yd, a.course_deg, na[0], na[1], na[2], mid)
                    pb = _lerp_pose(b.x_yd, b.y_yd, b.course_deg, nb[0], nb[1], nb[2], mid)
                    if clearance_yd(pa, a.hull, pb, b.hull) < 0.0:
                        hi = mid
                    else:
                        lo = mid
                return lo
            prev_f, prev_c = f, c
        return None

    def _resolve(self, bodies: Sequence[Body], new: list[list[float]], wants: Mapping[str, HelmOrder],
                 t_s: float, h_s: float) -> list[Contact]:
        """Stop every pair that would meet in this sub-step where they touch; return the new contacts."""
        out: list[Contact] = []
        stopped: set[int] = set()
        while True:
            first: tuple[float, int, int] | None = None
            for i, a in enumerate(bodies):
                for j in range(i + 1, len(bodies)):
                    if i in stopped and j in stopped:
                        continue
                    f = self._first_touch(a, new[i], bodies[j], new[j])
                    if f is not None and (first is None or f < first[0]):
                        first = (f, i, j)
            if first is None:
                return out
            f, i, j = first
            a, b = bodies[i], bodies[j]
            pa = _lerp_pose(a.x_yd, a.y_yd, a.course_deg, new[i][0], new[i][1], new[i][2], f)
            pb = _lerp_pose(b.x_yd, b.y_yd, b.course_deg, new[j][0], new[j][1], new[j][2], f)
            key = frozenset((a.name, b.name))
            if key not in self.touching:
                out.append(self._contact(a, pa, b, pb, wants, t_s + f * h_s))
                self.touching.add(key)
            # Both lie stopped where they touched, for the rest of the tick: the blow takes the way off them.
            new[i] = [pa.x_yd, pa.y_yd, pa.course_deg, 0.0]
            new[j] = [pb.x_yd, pb.y_yd, pb.course_deg, 0.0]
            a.stopped = b.stopped = True
            stopped.update((i, j))

    def _contact(self, a: Body, pa: Pose, b: Body, pb: Pose, wants: Mapping[str, HelmOrder],
                 t_s: float) -> Contact:
        along_a, along_b = contact_points(pa, a.hull, pb, b.hull)
        part_a = part_at(along_a, a.hull, self.end_fraction)
        part_b = part_at(along_b, b.hull, self.end_fraction)
        # Velocities (knots, east and north) just before the meeting.
        va = (a.speed_kn * math.sin(math.radians(a.course_deg)), a.speed_kn * math.cos(math.radians(a.course_deg)))
        vb = (b.speed_kn * math.sin(math.radians(b.course_deg)), b.speed_kn * math.cos(math.radians(b.course_deg)))
        rel = (va[0] - vb[0], va[1] - vb[1])  # a's motion relative to b

        def into(heading_deg: float, sign: float) -> float:
            h = math.radians(heading_deg)
            return sign * (rel[0] * math.sin(h) + rel[1] * math.cos(h))

        closing_a = into(pa.course_deg, 1.0) if part_a == "bow" else 0.0
        closing_b = into(pb.course_deg, -1.0) if part_b == "bow" else 0.0
        if part_a == "bow" and part_b == "bow":
            striker = a.name if closing_a >= closing_b else b.name
            closing = max(0.0, closing_a, closing_b)
        elif closing_a > 0.0:
            striker, closing = a.name, closing_a
        elif closing_b > 0.0:
            striker, closing = b.name, closing_b
        else:
            striker, closing = None, math.hypot(*rel)
        deliberate = False
        if striker is not None:
            other = b.name if striker == a.name else a.name
            order = wants.get(striker)
            deliberate = order is not None and order.ram_target == other
        mx, my = 0.5 * (pa.x_yd + pb.x_yd), 0.5 * (pa.y_yd + pb.y_yd)
        return Contact(t_s, a.name, b.name, mx, my, part_a, part_b, striker, closing, deliberate)


def run_yd(speed_kn: float, s: float) -> float:
    """Yards run in ``s`` seconds at ``speed_kn``."""
    return speed_kn * YD_PER_NM / S_PER_H * s
