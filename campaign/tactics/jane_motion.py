"""Moving a ship one Jane move (one minute) towards her helm order, in continuous yards.

``JaneHandling`` moves a ship on the battle plane step by step (the helm asked afresh at every step);
``move`` is one move under a steady order. Speed (seed 004 l.67, l.71, l.73): a ship gains at most one square (3 knots) a move; any reduction,
stopping included, is made within one move, in which she still runs her old speed's distance ("a
15-knot ship [stops] on the fifth square"); from stopped or astern she gathers sternway one square a
move, up to the third. Turning (l.63, l.65): four points by helm for every ``squares_per_turn`` squares
of way (more for long ships, ``jane_rulebook.squares_per_turn``), each four points turned costing one
square of advance; going astern two squares more per four points; a ship ordered round eight points or
more may instead turn eight points in the move on her engines at the cost of four squares (she is then
"turning with engines" for the enemy's gunnery, l.35): the captain does so only to come round more than
``engine_turn_above_points`` (data file).
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
    """One move of ``dt_s`` seconds (the rules' minute by default) towards a steady wanted course and
    speed: ``JaneHandling`` stepped ``PATH_STEPS`` times with the same order."""
    return Motion(*motion(rules, x_yd, y_yd, course_deg, speed_kn, wanted_course_deg, wanted_speed_kn,
                          max_speed_kn, squares_per_turn(rules, length_m), can_steer, dt_s))


def motion(rules: JaneRules, x_yd: float, y_yd: float, course_deg: float, speed_kn: float,
           wanted_course_deg: float, wanted_speed_kn: float, max_speed_kn: float,
           helm_squares_per_turn: float, can_steer: bool = True,
           dt_s: float | None = None) -> tuple[float, float, float, float, float, bool]:
    """``move`` as the plain tuple of ``Motion``'s fields, given the ship's ``squares_per_turn`` (which
    her length fixes) instead of her length."""
    dt = rules.move_s if dt_s is None else dt_s
    handling = JaneHandling(rules, max_speed_kn, helm_squares_per_turn, can_steer)
    want = _Order(wanted_course_deg, wanted_speed_kn)
    ship = _Pose(x_yd, y_yd, course_deg, speed_kn)
    handling.begin(ship, want, dt)
    turned = 0.0
    for _ in range(PATH_STEPS):
        x, y, c, v = handling.step(ship, want, dt / PATH_STEPS)
        turned += (c - ship.course_deg + 180.0) % 360.0 - 180.0
        ship.x_yd, ship.y_yd, ship.course_deg, ship.speed_kn = x, y, c, v
    handling.end(ship)
    return (float(ship.x_yd), float(ship.y_yd), ship.course_deg % 360.0, ship.speed_kn, turned,
            handling.engine_turning)


class _Pose:
    """The least of a ``plane.motion.Body`` that ``JaneHandling`` reads and ``motion`` moves."""

    __slots__ = ("course_deg", "speed_kn", "x_yd", "y_yd")

    def __init__(self, x_yd: float, y_yd: float, course_deg: float, speed_kn: float) -> None:
        self.x_yd, self.y_yd, self.course_deg, self.speed_kn = x_yd, y_yd, course_deg, speed_kn


@dataclass(frozen=True)
class _Order:
    course_deg: float
    speed_kn: float


class JaneHandling:
    """How a ship answers her helm in Jane's game, step by step on the battle plane
    (``campaign.tactics.plane.motion``).

    The move's speed is settled at its start (``next_speed``: she runs ``run_speed``'s distance and ends
    at ``new_speed``). A turn by helm is at most four points for every ``squares_per_turn`` squares of
    way (two more per four points astern), taken as the helm asks through the move, and each four points
    turned costs a square of advance. A ship asked at the start of the move to turn eight points or more
    than her helm allows in the move turns eight points on her engines through the move instead, losing
    four squares (``engine_turning``). She cannot steer at all while her conning tower or aft deck is
    out (``can_steer`` False).
    """

    __slots__ = ("can_steer", "engine_lost_per_s", "engine_rate_deg_per_s", "engine_turning",
                 "helm_cap_deg_per_s", "max_speed_kn", "new_speed_kn", "per_turn_deg", "rules", "run_speed_kn",
                 "squares_per_s", "squares_per_turn")

    def __init__(self, rules: JaneRules, max_speed_kn: float, squares_per_turn: float, can_steer: bool = True) -> None:
        self.rules = rules
        self.max_speed_kn = max_speed_kn
        self.squares_per_turn = squares_per_turn
        self.can_steer = can_steer
        self.per_turn_deg = points_to_deg(rules.points_per_turn)
        self.engine_turning = False
        self.engine_rate_deg_per_s = 0.0
        self.engine_lost_per_s = 0.0
        self.new_speed_kn = self.run_speed_kn = 0.0
        self.squares_per_s = self.helm_cap_deg_per_s = 0.0

    def begin(self, body, want, dt_s: float) -> None:
        rules = self.rules
        self.new_speed_kn, self.run_speed_kn = next_speed(rules, body.speed_kn, want.speed_kn, self.max_speed_kn)
        squares = abs(self.run_speed_kn) / rules.knots_per_square * dt_s / rules.move_s
        self.squares_per_s = squares / dt_s
        k = self.squares_per_turn + (rules.astern_extra_squares_per_turn if self.run_speed_kn < 0 else 0.0)
        helm_cap = self.per_turn_deg * squares / k
        self.helm_cap_deg_per_s = helm_cap / dt_s
        wanted = float(angle_diff_deg(body.course_deg, want.course_deg)) if self.can_steer else 0.0
        engine_turn = points_to_deg(rules.engine_turn_points)
        self.engine_turning = (abs(wanted) > helm_cap and abs(wanted) >= engine_turn and helm_cap < engine_turn
                               and abs(wanted) > points_to_deg(rules.engine_turn_above_points))
        if self.engine_turning:
            self.engine_rate_deg_per_s = math.copysign(engine_turn, wanted) / dt_s
            self.engine_lost_per_s = rules.engine_turn_lost_squares / dt_s
        body.speed_kn = self.run_speed_kn

    def rates(self, body) -> tuple[float, float]:
        """(deg/s she can turn now, kn/s she can gain or lose): for the watch's look ahead."""
        turn = abs(self.engine_rate_deg_per_s) if self.engine_turning else self.helm_cap_deg_per_s
        return turn, self.rules.gain_squares_per_move * self.rules.knots_per_square / self.rules.move_s

    def made_good_kn(self, body) -> float:
        """The speed she is making good through the water this move: her move's speed less the advance a
        turn on her engines costs (a turn by helm costs a little, not counted)."""
        if not self.engine_turning or self.squares_per_s <= 0.0:
            return self.run_speed_kn
        lost = self.engine_lost_per_s / self.squares_per_s
        return self.run_speed_kn * max(0.0, 1.0 - lost)

    def step(self, body, want, h_s: float) -> tuple[float, float, float, float]:
        if self.engine_turning:
            turn = self.engine_rate_deg_per_s * h_s
            lost = self.engine_lost_per_s * h_s
        else:
            wanted = float(angle_diff_deg(body.course_deg, want.course_deg)) if self.can_steer else 0.0
            cap = self.helm_cap_deg_per_s * h_s
            turn = max(-cap, min(cap, wanted))
            lost = abs(turn) / self.per_turn_deg
        squares = self.squares_per_s * h_s
        run = max(0.0, squares - lost) / squares if squares > 0 else 0.0
        step_yd = self.run_speed_kn * run * YD_PER_NM / S_PER_H * h_s
        heading_rad = radians(body.course_deg + 0.5 * turn)
        return (body.x_yd + step_yd * sin(heading_rad), body.y_yd + step_yd * cos(heading_rad),
                (body.course_deg + turn) % 360.0, self.run_speed_kn)

    def end(self, body) -> None:
        body.speed_kn = 0.0 if getattr(body, "stopped", False) else self.new_speed_kn
