"""Moving a ship one Jane move (one minute) towards her helm order, in continuous yards.

Speed (seed 004 l.67, l.71, l.73): a ship gains at most one square (3 knots) a move; any reduction,
stopping included, is made within one move, in which she still runs her old speed's distance ("a
15-knot ship [stops] on the fifth square"); from stopped or astern she gathers sternway one square a
move, up to the third. Turning (l.63, l.65): four points by helm for every ``squares_per_turn`` squares
of way (more for long ships, ``jane_rulebook.squares_per_turn``), each four points turned costing one
square of advance; going astern two squares more per four points; a ship ordered round eight points or
more may instead turn eight points in the move on her engines at the cost of four squares (she is then
"turning with engines" for the enemy's gunnery, l.35).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from math import cos, radians, sin

from campaign.tactics.jane_rulebook import squares_per_turn
from campaign.tactics.jane_rules import JaneRules
from campaign.tactics.kinematics import S_PER_H, YD_PER_NM, angle_diff_deg, points_to_deg

#: Steps along the turning path within one move (positions are integrated over them).
PATH_STEPS = 6


@dataclass(frozen=True)
class Motion:
    """A ship's move: where she ends, her course and speed at the end, and how she turned."""

    x_yd: float
    y_yd: float
    course_deg: float
    speed_kn: float
    turned_deg: float
    engine_turning: bool


def next_speed(rules: JaneRules, speed_kn: float, wanted_kn: float, max_kn: float) -> tuple[float, float]:
    """(speed at the end of the move, speed whose distance she runs this move), in knots."""
    kps = rules.knots_per_square
    wanted = max(-rules.astern_max_squares * kps, min(wanted_kn, max_kn, rules.max_squares * kps))
    gain = rules.gain_squares_per_move * kps
    if speed_kn > 0.0 and wanted < speed_kn:
        return max(wanted, 0.0), speed_kn
    if speed_kn < 0.0 and wanted > speed_kn:
        return min(wanted, 0.0), speed_kn
    if wanted > speed_kn:
        new = min(wanted, speed_kn + gain)
        return new, new
    if wanted < speed_kn:
        new = max(wanted, speed_kn - gain)
        return new, new
    return speed_kn, speed_kn


def move(rules: JaneRules, *, x_yd: float, y_yd: float, course_deg: float, speed_kn: float,
         wanted_course_deg: float, wanted_speed_kn: float, max_speed_kn: float, length_m: float,
         can_steer: bool = True, dt_s: float | None = None) -> Motion:
    """One move of ``dt_s`` seconds (the rules' minute by default) towards the wanted course and speed."""
    return Motion(*motion(rules, x_yd, y_yd, course_deg, speed_kn, wanted_course_deg, wanted_speed_kn,
                          max_speed_kn, squares_per_turn(rules, length_m), can_steer, dt_s))


def motion(rules: JaneRules, x_yd: float, y_yd: float, course_deg: float, speed_kn: float,
           wanted_course_deg: float, wanted_speed_kn: float, max_speed_kn: float,
           helm_squares_per_turn: float, can_steer: bool = True,
           dt_s: float | None = None) -> tuple[float, float, float, float, float, bool]:
    """``move`` as the plain tuple of ``Motion``'s fields, in its order, for the engine's every ship and
    move (positional arguments, and no record built only to be taken apart), given the ship's
    ``squares_per_turn`` (which her length fixes) instead of her length."""
    dt = rules.move_s if dt_s is None else dt_s
    new_speed, run_speed = next_speed(rules, speed_kn, wanted_speed_kn, max_speed_kn)
    squares = abs(run_speed) / rules.knots_per_square * dt / rules.move_s
    per_turn = points_to_deg(rules.points_per_turn)
    k = helm_squares_per_turn + (rules.astern_extra_squares_per_turn if run_speed < 0 else 0.0)
    want = float(angle_diff_deg(course_deg, wanted_course_deg)) if can_steer else 0.0
    helm_cap = per_turn * squares / k
    engine_turn = points_to_deg(rules.engine_turn_points)
    engine_turning = False
    if abs(want) <= helm_cap:
        turn, lost = want, abs(want) / per_turn
    elif abs(want) >= engine_turn and helm_cap < engine_turn:
        turn = math.copysign(engine_turn, want)
        lost, engine_turning = rules.engine_turn_lost_squares, True
    else:
        turn, lost = math.copysign(helm_cap, want), helm_cap / per_turn
    run = max(0.0, squares - lost) / squares if squares > 0 else 0.0
    # ``kinematics.advance`` on scalars, unrolled: the same operations in the same order (so the same
    # yards to the last bit) without its array checks, which cost more than the step itself.
    step_yd = (run_speed * run) * YD_PER_NM / S_PER_H * (dt / PATH_STEPS)
    x, y = x_yd, y_yd
    if turn == 0.0:
        # Every step's heading is then the course plus the same signed zero: one sine and cosine serve
        # all the steps, which are still added one by one.
        heading_rad = radians(course_deg + turn * 0.5 / PATH_STEPS)
        east, north = step_yd * sin(heading_rad), step_yd * cos(heading_rad)
        for _ in range(PATH_STEPS):
            x, y = x + east, y + north
    else:
        for i in range(PATH_STEPS):
            heading_rad = radians(course_deg + turn * (i + 0.5) / PATH_STEPS)
            x, y = x + step_yd * sin(heading_rad), y + step_yd * cos(heading_rad)
    return float(x), float(y), (course_deg + turn) % 360.0, new_speed, turn, engine_turning
