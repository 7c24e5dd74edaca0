"""A ship's motion through one move of the NWC 1905 war game (seed 002).

She turns towards the course ordered at the rules' rate (fleet turning cards: 16 points in 3 min 20 s;
duel track curve: 16 points in 2.5 min; seed 002 l.19), gains or loses speed at 1 knot per 30 seconds
(l.25), and loses speed while turning on the circle (12 to 9 knots over a full turn, regained at the
same rate, l.23). Motion is integrated in 15-second steps, the marks of the duel track curve (l.19).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from campaign.tactics.kinematics import S_PER_H, YD_PER_NM
from campaign.tactics.nwc1905_rules import Nwc1905Rules


@dataclass(frozen=True)
class MoveResult:
    """Where a ship ends a move: position (yd), course (deg), speed (kn) and the total angle she turned
    through in the move (deg, for the "more than 8 points" rule, seed 002 l.21)."""

    x_yd: float
    y_yd: float
    course_deg: float
    speed_kn: float
    turned_deg: float


def substep(x_yd: float, y_yd: float, course_deg: float, speed_kn: float, want_course_deg: float,
            want_speed_kn: float, limit_kn: float, h_s: float, max_turn_deg: float, dv_kn: float,
            kept_per_16_points: float, steady_deg: float = 0.0) -> tuple[float, float, float, float, float]:
    """One integration step of ``h_s`` seconds: (x_yd, y_yd, course_deg, speed_kn, turned_deg).

    She turns towards the wanted course by at most ``max_turn_deg``, changes speed by at most ``dv_kn``
    towards the wanted speed (never above ``limit_kn``), and keeps ``kept_per_16_points`` of her speed over
    a 16-point turn, geometric in the angle (so that a whole 16-point turn keeps exactly that, 12 to 9
    knots, whatever the steps). A turn of no more than ``steady_deg`` in the step is her helmsman steadying
    her, not turning on the circle: she keeps her speed and may gather way. A ship with no way on her
    cannot turn (a torpedoed ship lies dead)."""
    v = min(max(0.0, speed_kn), limit_kn)
    want_v = max(0.0, min(want_speed_kn, limit_kn))
    c = course_deg
    if v > 0.0:
        d = (want_course_deg - c + 180.0) % 360.0 - 180.0
        if d == -180.0:
            d = 180.0
        d = max(-max_turn_deg, min(max_turn_deg, d))
    else:
        d = 0.0
    if abs(d) > steady_deg:
        on_circle = v * kept_per_16_points ** (abs(d) / 180.0)
        v_new = min(on_circle, v + max(-dv_kn, min(dv_kn, want_v - v))) if want_v < v else on_circle
    else:
        v_new = v + max(-dv_kn, min(dv_kn, want_v - v))
    run_yd = (v + v_new) / 2.0 * YD_PER_NM / S_PER_H * h_s
    heading = math.radians(c + d / 2.0)
    x, y = x_yd + run_yd * math.sin(heading), y_yd + run_yd * math.cos(heading)
    c = (c + d) % 360.0
    c = 0.0 if c >= 360.0 else c  # float modulo of a tiny negative gives 360.0
    return x, y, c, max(0.0, v_new), abs(d)


def move_ship(rules: Nwc1905Rules, x_yd: float, y_yd: float, course_deg: float, speed_kn: float,
              want_course_deg: float, want_speed_kn: float, limit_kn: float, move_s: float,
              turn_16_points_s: float) -> MoveResult:
    """Move a ship for ``move_s`` seconds towards ``want_course_deg`` and ``want_speed_kn`` (a steady
    order: ``NwcHandling`` on the battle plane takes the helm's order afresh at every step).

    ``limit_kn`` is the most she can make now (her damage): she cannot exceed it at any instant. The
    speed wanted is approached at the rules' rate (1 knot per 30 s, seed 002 l.25); while she turns she
    cannot gain speed and keeps ``1 - speed_lost_per_16_points`` of it over 16 points turned (l.23).
    ``turn_16_points_s`` is the time of a 16-point turn in the game being played (fleet or duel, l.19).
    """
    n = max(1, math.ceil(move_s / rules.integration_step_s - 1e-9))
    h = move_s / n
    max_turn = 180.0 * h / turn_16_points_s
    dv = rules.speed_change_kn_per_s * h
    kept = 1.0 - rules.speed_lost_per_16_points
    x, y, c, v = float(x_yd), float(y_yd), float(course_deg) % 360.0, max(0.0, float(speed_kn))
    turned = 0.0
    for _ in range(n):
        x, y, c, v, d = substep(x, y, c, v, want_course_deg, want_speed_kn, limit_kn, h, max_turn, dv, kept)
        turned += d
    return MoveResult(float(x), float(y), c, v, turned)


class NwcHandling:
    """How a ship answers her helm under the 1905 rules, step by step on the battle plane
    (``campaign.tactics.plane.motion``): ``turn_16_points_s`` for 16 points (fleet card or duel curve,
    seed 002 l.19), ``speed_change_kn_per_s`` (l.25), ``speed_lost_per_16_points`` on the circle (l.23) but
    not while only steadied (``steady_deg_per_s``, data file), never above ``limit_kn``. The board engine
    handles its ships the same way (data/tactics/board.yaml)."""

    __slots__ = ("dv_per_s", "kept", "limit_kn", "steady_deg_per_s", "turn_deg_per_s")

    def __init__(self, limit_kn: float, turn_16_points_s: float, speed_change_kn_per_s: float,
                 speed_lost_per_16_points: float, steady_deg_per_s: float = 0.0) -> None:
        self.limit_kn = max(0.0, limit_kn)
        self.turn_deg_per_s = 180.0 / turn_16_points_s
        self.dv_per_s = speed_change_kn_per_s
        self.kept = 1.0 - speed_lost_per_16_points
        self.steady_deg_per_s = steady_deg_per_s

    @classmethod
    def of(cls, rules: Nwc1905Rules, limit_kn: float, turn_16_points_s: float) -> NwcHandling:
        return cls(limit_kn, turn_16_points_s, rules.speed_change_kn_per_s, rules.speed_lost_per_16_points,
                   rules.steady_deg_per_s)

    def begin(self, body, want, dt_s: float) -> None:
        pass

    def rates(self, body) -> tuple[float, float]:
        """(deg/s she can turn now, kn/s she can gain or lose): for the watch's look ahead."""
        return (self.turn_deg_per_s if body.speed_kn > 0.0 else 0.0), self.dv_per_s

    def step(self, body, want, h_s: float) -> tuple[float, float, float, float]:
        x, y, c, v, _ = substep(body.x_yd, body.y_yd, body.course_deg, body.speed_kn, want.course_deg,
                                want.speed_kn, self.limit_kn, h_s, self.turn_deg_per_s * h_s, self.dv_per_s * h_s,
                                self.kept, self.steady_deg_per_s * h_s)
        return x, y, c, v

    def end(self, body) -> None:
        pass
