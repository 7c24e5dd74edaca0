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


def move_ship(rules: Nwc1905Rules, x_yd: float, y_yd: float, course_deg: float, speed_kn: float,
              want_course_deg: float, want_speed_kn: float, limit_kn: float, move_s: float,
              turn_16_points_s: float) -> MoveResult:
    """Move a ship for ``move_s`` seconds towards ``want_course_deg`` and ``want_speed_kn``.

    ``limit_kn`` is the most she can make now (her damage): she cannot exceed it at any instant. The
    speed wanted is approached at the rules' rate (1 kn per 30 s, seed 002 l.25); while she turns she
    cannot gain speed and keeps ``1 - speed_lost_per_16_points`` of it over 16 points turned (l.23).
    ``turn_16_points_s`` is the time of a 16-point turn in the game being played (fleet or duel, l.19).
    """
    n = max(1, math.ceil(move_s / rules.integration_step_s - 1e-9))
    h = move_s / n
    max_turn = 180.0 * h / turn_16_points_s
    dv = rules.speed_change_kn_per_s * h
    kept_per_16_points = 1.0 - rules.speed_lost_per_16_points
    want_v = max(0.0, min(want_speed_kn, limit_kn))
    want_c = float(want_course_deg)
    x, y, c, v = float(x_yd), float(y_yd), float(course_deg) % 360.0, max(0.0, float(speed_kn))
    turned = 0.0
    # Every ship takes these sub-steps every move: the arithmetic of ``kinematics``' angle_diff_deg,
    # change_speed and advance is written out here, operation for operation, so that the positions
    # come out the same to the last bit without three function calls per sub-step.
    for _ in range(n):
        v = min(v, limit_kn)
        # A ship with no way on her cannot turn (a torpedoed ship lies dead in the water).
        if v > 0.0:
            d = (want_c - c + 180.0) % 360.0 - 180.0
            if d == -180.0:
                d = 180.0
            d = max(-max_turn, min(max_turn, d))
        else:
            d = 0.0
        if d != 0.0:
            # Geometric in the angle, so that a whole 16-point turn keeps exactly (1 - loss) of the
            # speed whatever the steps (12 to 9 knots).
            on_circle = v * kept_per_16_points ** (abs(d) / 180.0)
            v_new = min(on_circle, v + max(-dv, min(dv, want_v - v))) if want_v < v else on_circle
        else:
            v_new = v + max(-dv, min(dv, want_v - v))
        run_yd = (v + v_new) / 2.0 * YD_PER_NM / S_PER_H * h
        heading = math.radians(c + d / 2.0)
        x, y = x + run_yd * math.sin(heading), y + run_yd * math.cos(heading)
        c = (c + d) % 360.0
        c = 0.0 if c >= 360.0 else c  # float modulo of a tiny negative gives 360.0
        v = max(0.0, v_new)
        turned += abs(d)
    return MoveResult(float(x), float(y), c, v, turned)
