"""What a squadron's admiral wants of it: the course its leader should steer and why.

The seeds leave tactics to the players; ``data/tactics/helm.yaml`` holds the project's stand-ins. A side
breaking off runs straight away from the enemy's centre at its best speed. A side that means to fight
chases a running enemy (steering to cut him off where it can, then running on beside him at its
preferred range), and otherwise closes obliquely to its
preferred range, holds it there, and opens obliquely if nearer, always with him on the same side (so
that the squadron passes from closing to holding to opening without reversing), and changing from one to
the next only when the range has left the band by a margin (``band_hysteresis``), the range judged as it
will be ``anticipation_s`` ahead at the present rate of closing, and always by way of holding. To hold
the range it steers parallel to the enemy (``holding_course_deg``). The course
asked for is then held until what the situation calls for differs by more than ``course_deadband_deg``,
and at least ``min_hold_s``; no single alteration exceeds ``max_engaged_turn_deg``, save in a flight.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from campaign.tactics.armament import load_arcs
from campaign.tactics.helm.rules import HelmRules
from campaign.tactics.kinematics import S_PER_H, YD_PER_NM, angle_diff_deg, bearing_deg, range_yd
from campaign.tactics.protocol import ShipView

FIGHT_MODES = ("close", "hold", "open")
#: Speeds within this of each other (kn) are the same, for who conforms to whose course.
SAME_SPEED_KN = 0.5


@dataclass(frozen=True)
class Aim:
    """The admiral's wish: ``mode`` (idle, run, chase, close, hold, open), the course for the leader,
    whether to steam at the fleet speed (keeping the reserve for station) or all the squadron can make,
    and whether the enemy is within gun range."""

    mode: str
    course_deg: float
    fleet_speed: bool
    engaged: bool


def intercept_course_deg(x_yd: float, y_yd: float, speed_kn: float, target: ShipView) -> float:
    """The course that meets ``target`` (holding her course and speed) soonest at ``speed_kn``, or
    straight at her where she cannot be caught."""
    brg = float(bearing_deg(x_yd, y_yd, target.x_yd, target.y_yd))
    if speed_kn <= 0.0:
        return brg
    # Her speed across the line of sight must be matched: sin(lead) = v_t sin(angle) / v.
    angle = math.radians(float(angle_diff_deg(brg, target.course_deg)))
    ratio = target.speed_kn * math.sin(angle) / speed_kn
    if abs(ratio) >= 1.0:
        return brg
    return (brg + math.degrees(math.asin(ratio))) % 360.0


def range_rate_yd_per_s(me: ShipView, enemy: ShipView) -> float:
    """How fast the range between the two is opening (yd/s; negative closing), at their present courses
    and speeds."""
    dx, dy = enemy.x_yd - me.x_yd, enemy.y_yd - me.y_yd
    r = math.hypot(dx, dy)
    if r <= 0.0:
        return 0.0
    ve = (enemy.speed_kn * math.sin(math.radians(enemy.course_deg)), enemy.speed_kn * math.cos(math.radians(enemy.course_deg)))
    vm = (me.speed_kn * math.sin(math.radians(me.course_deg)), me.speed_kn * math.cos(math.radians(me.course_deg)))
    return ((ve[0] - vm[0]) * dx + (ve[1] - vm[1]) * dy) / r * YD_PER_NM / S_PER_H


def next_mode(prev: str | None, r_yd: float, pref_yd: float, band_yd: float, hysteresis: float) -> str:
    """Close, hold or open at range ``r_yd`` about the preferred range. A squadron closing or opening holds
    once the range comes within the band (it never turns from closing straight to opening); once holding,
    the range must leave the band by ``hysteresis`` bands before it closes or opens again."""
    near, far = pref_yd - band_yd, pref_yd + band_yd
    if prev == "close":
        return "close" if r_yd > far else "hold"
    if prev == "open":
        return "open" if r_yd < near else "hold"
    if prev == "hold":
        near, far = pref_yd - hysteresis * band_yd, pref_yd + hysteresis * band_yd
    if r_yd > far:
        return "close"
    if r_yd < near:
        return "open"
    return "hold"


def holding_course_deg(brg_deg: float, side: float, speed_kn: float, current_deg: float, enemy: ShipView,
                       own_side: str, rules: HelmRules) -> float:
    """The course that holds the range to ``enemy`` bearing ``brg_deg``: parallel to him. On his own course
    where that is within 8 points of hers, else on its reciprocal, unless she is the one to conform: the
    faster of the two as they steam now (``speed_kn`` hers; the faster squadron has the choice of range and
    can afford to turn to follow), or at equal speeds the side named first (a tie-break, so that two
    squadrons meeting on opposite courses do not both reverse at once and pass again); she comes round
    away from him. Where parallel would put him within the end-on arcs, ahead or
    astern (``data/tactics/arcs.yaml``), or he lies still, she keeps him abeam on ``side``."""
    if enemy.speed_kn > 0.0:
        opposite = abs(float(angle_diff_deg(current_deg, enemy.course_deg))) > 90.0
        conform = speed_kn > enemy.speed_kn + SAME_SPEED_KN or (
            abs(speed_kn - enemy.speed_kn) <= SAME_SPEED_KN and own_side < enemy.side)
        parallel = enemy.course_deg % 360.0 if (not opposite or conform) else (enemy.course_deg + 180.0) % 360.0
        rel = abs(float(angle_diff_deg(parallel, brg_deg)))
        end_on = load_arcs().end_on_half_arc_deg
        if end_on <= rel <= 180.0 - end_on:
            turn = float(angle_diff_deg(current_deg, parallel))
            if abs(turn) > 90.0:
                # A reversal to conform: turned away from him, the long way if need be, so that the range
                # opens rather than closes while she comes round (8 points at a time: alteration_deg).
                away = -1.0 if float(angle_diff_deg(current_deg, brg_deg)) > 0.0 else 1.0
                return (current_deg + away * 90.0) % 360.0
            return parallel
    return (brg_deg - side * 90.0) % 360.0


def mode_angle_deg(mode: str, rules: HelmRules) -> float:
    """How far off the bearing of the enemy the leader steers in each fighting mode (enemy on the bow,
    the beam, the quarter)."""
    return {"close": rules.closing_angle_deg, "hold": 90.0, "open": 180.0 - rules.closing_angle_deg}[mode]


def decide(guide: ShipView, enemies: Sequence[ShipView], intent: str, running_sides: set[str], prev_mode: str | None,
           prev_side: float | None, current_course_deg: float, pref_yd: float, gun_range_yd: float, speed_kn: float,
           rules: HelmRules) -> tuple[Aim, float | None]:
    """The admiral's aim for a squadron led by ``guide`` (and which side, +1 starboard or -1 port, he keeps
    the enemy on). ``current_course_deg``: the course the squadron was last ordered."""
    if not enemies:
        return Aim("idle", current_course_deg, True, False), prev_side
    nearest = min(enemies, key=lambda e: float(range_yd(guide.x_yd, guide.y_yd, e.x_yd, e.y_yd)))
    r = float(range_yd(guide.x_yd, guide.y_yd, nearest.x_yd, nearest.y_yd))
    engaged = r <= gun_range_yd
    if intent == "break_off":
        cx = sum(e.x_yd for e in enemies) / len(enemies)
        cy = sum(e.y_yd for e in enemies) / len(enemies)
        return Aim("run", float(bearing_deg(cx, cy, guide.x_yd, guide.y_yd)), False, engaged), None
    band = rules.hold_band_fraction * pref_yd
    if nearest.side in running_sides:
        # A chase closes to the preferred range, on the course that cuts the runner off, and there runs on
        # beside him (on his course), not into him.
        if r > pref_yd + band:
            return Aim("chase", intercept_course_deg(guide.x_yd, guide.y_yd, speed_kn, nearest), False, engaged), None
        return Aim("chase", nearest.course_deg % 360.0, False, engaged), None
    # He judges the range as it will be by the time an alteration takes effect, not as it is.
    ahead = r + range_rate_yd_per_s(guide, nearest) * rules.anticipation_s
    mode = next_mode(prev_mode if prev_mode in FIGHT_MODES else None, ahead, pref_yd, band, rules.band_hysteresis)
    brg = float(bearing_deg(guide.x_yd, guide.y_yd, nearest.x_yd, nearest.y_yd))
    theta = mode_angle_deg(mode, rules)
    side = prev_side
    if side is None:
        # The side that asks the least turn of the squadron now, kept from then on.
        stbd, port = (brg - theta) % 360.0, (brg + theta) % 360.0
        side = 1.0 if abs(angle_diff_deg(current_course_deg, stbd)) <= abs(angle_diff_deg(current_course_deg, port)) \
            else -1.0
    if mode == "hold":
        course = holding_course_deg(brg, side, guide.speed_kn, current_course_deg, nearest, guide.side, rules)
    else:
        course = (brg - side * theta) % 360.0
    return Aim(mode, course, True, engaged), side


def alteration_deg(current_deg: float, wanted_deg: float, aim: Aim, rules: HelmRules) -> float | None:
    """The new course to signal, or None to hold the present one: nothing within the deadband; no more than
    ``max_engaged_turn_deg`` at a time, save in a flight."""
    d = float(angle_diff_deg(current_deg, wanted_deg))
    if abs(d) <= rules.course_deadband_deg:
        return None
    if aim.mode != "run":
        d = max(-rules.max_engaged_turn_deg, min(rules.max_engaged_turn_deg, d))
    return (current_deg + d) % 360.0
