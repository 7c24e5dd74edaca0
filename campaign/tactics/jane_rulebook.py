"""The Jane Naval War Game's rules (seed 004) as pure functions of ``JaneRules`` (``jane_rules``).

Each function answers one of the rules' questions - which class is this gun and how often does it
fire, which grade is this plate and does this projectile get through it, what is the chance of a hit
at this range, how far is the target shifted, how many penetrations sink her, how many squares may she
turn - citing the seed's line where the rule is stated.

Hit chances. Jane's player strikes with a pin-pointed striker at a scale drawing of the enemy, "chosen
according to range", drawn "so a gun muzzle has roughly its true chance of being hit", the pin "nearly
but never quite central" (seed 004 l.23). We replace the striking by its chance: the striker's error is
a round normal scatter of fixed size on the card; the drawing shrinks in proportion to range, so in
yards at the target the scatter grows in proportion to range, ``sigma_yd = sigma_yd_per_kyd * range /
1000``. Aimed at the middle of a silhouette ``length_yd`` long and ``height_yd`` high (its presented
area over its length), the chance that the strike lands on it is

    P = erf(length_yd / (2 sqrt(2) sigma_yd)) * erf(height_yd / (2 sqrt(2) sigma_yd)).

``sigma_yd_per_kyd`` is set so that a capital ship's broadside is hit 6 times in 100 at 10,000 yards
in clear daylight (the data file gives the reasoning). With eyes shut (beyond 10,000 yards, seed 004
l.89, or in very bad weather, l.93) the scatter is wider by ``eyes_shut_sigma_factor``. The resulting
table (``hit.table`` in the data file) is what the engine uses; ``derive_hit_chance`` recomputes it.
"""

from __future__ import annotations

import bisect
import functools
import math
import re
from collections.abc import Sequence

from campaign.model.guns import gun_data
from campaign.model.penetration import PenetrationRules, Shell, default_penetration, perforates
from campaign.model.ships import LT_TO_T, Gun, Ship
from campaign.tactics.jane_rules import GRADES, PROJECTILES, YD_PER_M, JaneRules
from campaign.tactics.kinematics import points_to_deg
from campaign.tactics.protocol import Setting

# ----------------------------------------------------------------------------------------------------
# Guns


def gun_class(rules: JaneRules, calibre_mm: float) -> str:
    """Jane's gun class (A heaviest ... F lightest) of a calibre, by the data file's lower bounds."""
    for name, lo in rules.class_min_mm.items():
        if calibre_mm >= lo:
            return name
    return list(rules.class_min_mm)[-1]


def _label_tokens(label: str) -> set[str]:
    return set(re.findall(r"[A-Za-z0-9]+", label.upper()))


def is_quick_firing(rules: JaneRules, gun: Gun) -> bool:
    """Whether Jane would strike this gun 'in rapid succession' (seed 004 l.23).

    ``gun.quick_firing`` where the ship data give it; else the fallback of ``rate.quick_firing_fallback``
    (the same rules the ship data's citations use): a BL gun is not quick-firing; nor is any gun of
    ``heavy_min_mm`` and above; QF, SK and Skoda K10/K11 guns are; so is every gun of ``light_max_mm``
    and below; an unlabelled medium gun is if it is no larger than ``medium_max_mm``.
    """
    flag = getattr(gun, "quick_firing", None)
    if flag is not None:
        return bool(flag)
    tokens = _label_tokens(gun.label or "")
    if "BL" in tokens or gun.calibre_mm >= rules.qf_heavy_min_mm:
        return False
    if tokens & {"QF", "SK", "K10", "K11"} or gun.calibre_mm <= rules.qf_light_max_mm:
        return True
    return gun.calibre_mm <= rules.qf_medium_max_mm


def published_rate_rounds_per_min(rules: JaneRules, gun: Gun) -> float:
    """The gun's rate of fire (rounds a minute): its own from ``data/guns.yaml`` (with its source), else the
    STAND-IN of its class (``rate.unpublished_rate_rounds_per_min``: the slowest published rate of its class)."""
    try:
        rate = gun_data(gun).rate_of_fire_rounds_per_min
    except KeyError:  # a gun the guns file does not list
        rate = None
    return rate if rate else rules.unpublished_rate_rounds_per_min[gun_class(rules, gun.calibre_mm)]


def fire_interval_moves(rules: JaneRules, gun: Gun) -> int:
    """Moves between a gun's discharges: 1 for a quick-firer; for any other gun the fewest whole moves in
    which it fires ``rate.published_rounds_per_strike`` rounds at its published rate, at least 1. The data
    file argues the reading of seed 004 l.27 ("Non-QF 10-inch, 6-inch and 4.7-inch guns fire every two
    moves") and l.111 (big guns fire at the end of each move) it rests on."""
    if is_quick_firing(rules, gun):
        return 1
    minutes = rules.published_rounds_per_strike / published_rate_rounds_per_min(rules, gun)
    return max(1, math.ceil(minutes * 60.0 / rules.move_s - 1e-9))


def strikes_per_move(rules: JaneRules, gun: Gun) -> int:
    """Strikes per barrel when the gun fires: one for a big gun, several for a quick-firer."""
    if not is_quick_firing(rules, gun):
        return 1
    return rules.qf_strikes_per_move[gun_class(rules, gun.calibre_mm)]


def shell_weight_lb(rules: JaneRules, calibre_mm: float) -> float:
    """Shell weight (lb) by the rule of thumb ``k * calibre_in**3`` (data file ``fighting_value``)."""
    return rules.shell_lb_per_in3 * (calibre_mm / 25.4) ** 3


# ----------------------------------------------------------------------------------------------------
# Armour and penetration


@functools.cache
def grade_index(grade: str) -> int:
    """The grade's strength, its place in ``GRADES`` (``ValueError`` for no grade); kept per grade, as
    every penetration asks it twice or more."""
    return GRADES.index(grade)


def armour_grade(rules: JaneRules, thickness_mm: float | None, *, extra_grades: int = 0) -> str:
    """Jane's grade of a plate ``thickness_mm`` thick (Krupp-equivalent), raised ``extra_grades``
    (coal behind it: an unarmoured side with coal behind it counts as thin armour, f); "none" below
    the thinnest grade or where there is no plate."""
    idx = 0
    if thickness_mm:
        for i, g in enumerate(GRADES[1:], start=1):
            if thickness_mm >= rules.grade_min_mm[g]:
                idx = i
    return GRADES[min(len(GRADES) - 1, idx + extra_grades)]


def obliquity_loss(rules: JaneRules, obliquity_deg: float) -> int:
    """Grades lost by an impact ``obliquity_deg`` from the plate's normal (seed 004 l.39)."""
    loss = 0
    for above, grades in rules.obliquity_steps:
        if obliquity_deg > above:
            loss = grades
    return loss


def penetration_power(rules: JaneRules, cls: str, projectile: str, range_yd: float,
                      obliquity_deg: float) -> int:
    """The strongest grade (as an index of ``GRADES``) a projectile of gun class ``cls`` gets through.

    Solid shot's grade by class (stand-in), less two for AP shell (A-C) and four to one for HE/common
    shell; shot gains a grade under 1,000 yards; an impact over 30 degrees loses one grade, over 60
    three (seed 004 l.39, l.41). It may come out at or below zero: no armour is pierced then, though an
    unarmoured part still is (``penetrates``).
    """
    if projectile not in PROJECTILES:
        raise ValueError(f"projectile must be one of {PROJECTILES}, got {projectile!r}")
    power = grade_index(rules.shot_grade[cls]) - rules.reduction[projectile].get(cls, 0)
    if projectile == "shot" and range_yd < rules.close_shot_yd:
        power += rules.close_shot_gain
    return power - obliquity_loss(rules, obliquity_deg)


def penetrates(rules: JaneRules, cls: str, projectile: str, grade: str, range_yd: float,
               obliquity_deg: float = 0.0) -> bool:
    """Whether the projectile gets through armour of ``grade``: unarmoured parts always; an A gun at
    700 yards or less gets through everything (seed 004 l.39); else if its power reaches the grade."""
    g = grade_index(grade)
    if g == 0:
        return True
    if cls == rules.all_penetrate_class and range_yd <= rules.all_penetrate_yd:
        return True
    return penetration_power(rules, cls, projectile, range_yd, obliquity_deg) >= g


def grade_ratio(rules: JaneRules) -> float:
    """How much thinner each of Jane's grades is than the next (the data file's one ratio, about 0.705:
    ``armour.grade_min_mm`` from f to aaaa)."""
    lo, hi = rules.grade_min_mm[GRADES[1]], rules.grade_min_mm[GRADES[-1]]
    return (lo / hi) ** (1.0 / (len(GRADES) - 2))


def coal_thickness_mm(rules: JaneRules, waterline_mm: float | None, coal_grades: int) -> float | None:
    """The waterline plate with coal behind it: "coal improves one grade" (seed 004 l.39), a grade's ratio
    thicker per grade; an unarmoured side with coal behind it counts as thin armour (the thinnest grade,
    f), as ``armour_grade`` grades it."""
    if not coal_grades:
        return waterline_mm
    if not waterline_mm:
        return rules.grade_min_mm[GRADES[1]] / grade_ratio(rules) ** (coal_grades - 1)
    return waterline_mm / grade_ratio(rules) ** coal_grades


def shell_penetrates(rules: JaneRules, cls: str, shell: Shell | None, projectile: str,
                     thickness_mm: float | None, range_yd: float, plan_deg: float = 0.0,
                     deck: bool = False, pen: PenetrationRules | None = None) -> bool:
    """Whether a hit of a gun of class ``cls`` gets through a plate ``thickness_mm`` thick (data file,
    ``penetration``): unarmoured parts and plates thinner than the thinnest grade always (seed 004 l.39,
    "f thin armour"); an A gun at 700 yards or less through everything (l.39); else Krupp's formula for
    ``shell`` at the true range, the angle of fall there and the plate's turn ``plan_deg`` in plan from
    square to the line of fire, or on a deck (``campaign.model.penetration.perforates``). A gun with no
    shell figures falls back on Jane's graded table (``penetrates``, column ``projectile``)."""
    if not thickness_mm or thickness_mm < rules.grade_min_mm[GRADES[1]]:
        return True
    if cls == rules.all_penetrate_class and range_yd <= rules.all_penetrate_yd:
        return True
    if shell is None:
        obliquity = rules.deck_obliquity_deg if deck else plan_deg
        return penetrates(rules, cls, projectile, armour_grade(rules, thickness_mm), range_yd, obliquity)
    return perforates(pen or default_penetration(), shell, thickness_mm, range_yd, plan_deg, deck)


# ----------------------------------------------------------------------------------------------------
# Hitting


def derive_hit_chance(sigma_yd_per_kyd: float, length_yd: float, height_yd: float, range_yd: float) -> float:
    """Chance that a strike with round normal scatter ``sigma_yd_per_kyd * range / 1000`` yards, aimed
    at the middle of a ``length_yd`` by ``height_yd`` silhouette, lands on it (module docstring)."""
    sigma = sigma_yd_per_kyd * max(range_yd, 1.0) / 1000.0
    k = 2.0 * math.sqrt(2.0) * sigma
    return math.erf(length_yd / k) * math.erf(height_yd / k)


def calibrate_sigma(length_yd: float, height_yd: float, range_yd: float, chance: float) -> float:
    """The scatter (yd per 1,000 yd) at which ``derive_hit_chance`` gives ``chance`` (bisection)."""
    lo, hi = 1e-3, 1e3
    for _ in range(200):
        mid = math.sqrt(lo * hi)
        if derive_hit_chance(mid, length_yd, height_yd, range_yd) > chance:
            lo = mid
        else:
            hi = mid
    return math.sqrt(lo * hi)


def derive_hit_table(rules: JaneRules, eyes_shut: bool) -> dict[str, list[float]]:
    """The hit table recomputed from the derivation's parameters (to 3 decimals), for checking."""
    table = rules.eyes_shut if eyes_shut else rules.eyes_open
    sigma = rules.sigma_yd_per_kyd * (rules.eyes_shut_sigma_factor if eyes_shut else 1.0)
    return {name: [round(derive_hit_chance(sigma, tc.length_yd, tc.height_yd, r), 3) for r in table.range_yd]
            for name, tc in rules.target_classes.items()}


def _interp(xs: Sequence[float], ys: Sequence[float], x: float) -> float:
    if x <= xs[0]:
        return ys[0]
    if x >= xs[-1]:
        return ys[-1]
    i = bisect.bisect_right(xs, x)
    x0, x1, y0, y1 = xs[i - 1], xs[i], ys[i - 1], ys[i]
    return y0 + (y1 - y0) * (x - x0) / (x1 - x0)


def hit_chance(rules: JaneRules, target_class: str, range_yd: float, eyes_shut: bool = False) -> float:
    """Chance of a hit per strike at the (shifted) ``range_yd`` on a broadside target of the class,
    from the data file's table, linear between its rows (the nearest row outside them)."""
    table = rules.eyes_shut if eyes_shut else rules.eyes_open
    return _interp(table.range_yd, table.chance[target_class], range_yd)


def aspect_fraction(rules: JaneRules, off_beam_deg: float) -> float:
    """Fraction of the strikes on the target that count when she lies ``off_beam_deg`` from broadside
    on to the firer (0 broadside, 90 end on): 'at 45 degrees only the near half counts, at 60 degrees
    one quarter' (seed 004 l.23), taken as steps."""
    frac = 1.0
    for angle, f in zip(rules.aspect_off_beam_deg, rules.aspect_fraction):
        if off_beam_deg >= angle:
            frac = f
    return frac


def target_class_of(rules: JaneRules, ship: Ship) -> str:
    """The reference silhouette a ship is struck at, by her type."""
    for name, tc in rules.target_classes.items():
        if ship.type in tc.types:
            return name
    raise KeyError(f"no target class in the Jane rules for ship type {ship.type!r} ({ship.name})")


def is_armoured(rules: JaneRules, ship: Ship) -> bool:
    """Whether she is an armoured ship, at which the light quick-firers do not fire: one of the 1905
    rules' armoured types (seed 002 l.35) or belted with at least ``armoured_min_belt_mm`` (data file)."""
    return ship.type in rules.armoured_types or (ship.armour.belt or 0.0) >= rules.armoured_min_belt_mm


def spares_armoured(rules: JaneRules, cls: str) -> bool:
    """Whether a gun of Jane's class ``cls`` holds its fire at armoured ships (the light quick-firers of
    the anti-torpedo-boat battery: the data file's ``guns.spare_armoured_classes``)."""
    return cls in rules.spare_armoured_classes


def range_shift_yd(rules: JaneRules, *, target_speed_kn: float, target_engine_turning: bool,
                   relative_speed_kn: float, light: str, sea_state: int, light_yd: float | None = None) -> float:
    """Yards added to the range to choose the target (seed 004 l.35, l.37, l.91): 1,000 nearer for a
    target under 6 knots or turning on her engines; 1,000 farther for ships passing at a combined 30
    knots (their relative speed); farther for poor light (``light_yd`` by direction, if given:
    ``light_shift_yd``) and for rolling in a seaway (stand-in bands)."""
    return passing_range_shift_yd(rules, target_speed_kn, target_engine_turning,
                                  relative_speed_kn >= rules.passing_kn, light, sea_state, light_yd)


def passing_range_shift_yd(rules: JaneRules, target_speed_kn: float, target_engine_turning: bool,
                           passing: bool, light: str, sea_state: int, light_yd: float | None = None) -> float:
    """``range_shift_yd`` with ``passing`` (whether the ships' relative speed reaches ``passing_kn``)
    decided by the caller: that comparison is all the relative speed is wanted for. ``light_yd``: the
    light's shift by direction (``light_shift_yd``), if the caller has it; else the light's by name."""
    shift = 0.0
    if abs(target_speed_kn) < rules.slow_target_kn or target_engine_turning:
        shift += rules.slow_target_shift_yd
    if passing:
        shift += rules.passing_shift_yd
    shift += rules.light_shift_yd.get(light, 0.0) if light_yd is None else light_yd
    # The largest shift of the bands the sea state reaches (``max`` over them, 0 if none), unrolled:
    # this is asked for every pair of ships that fire on each other, every move.
    sea_yd = None
    for at_least, yd in rules.sea_shift:
        if sea_state >= at_least and (sea_yd is None or yd > sea_yd):
            sea_yd = yd
    shift += 0.0 if sea_yd is None else sea_yd
    return shift


def light_shift_yd(rules: JaneRules, setting: Setting, bearing_deg: float) -> float:
    """Yards the light adds to the range of a target on true ``bearing_deg`` from the firer (seed 004
    l.35: "sun ... night ... shift to targets 1,000-2,000 yards farther"; the data file's ``shifts``).
    Without the light's direction, the light's figure by name. By day, the sun's dazzle: the greatest
    shift of the bands whose angle the sun lies within, off the line of sight. In twilight, none for a
    target against the bright sky (``LightDirection.against_bright_sky``), the twilight figure for one
    against the dark. At night the night's figure, whatever the bearing."""
    by_name = rules.light_shift_yd.get(setting.light, 0.0)
    d = setting.light_direction
    if d is None:
        return by_name
    if setting.light == "day":
        off_sight = d.sun_off_sight_deg(bearing_deg)
        return by_name + max((yd for within, yd in rules.sun_dazzle if off_sight <= within), default=0.0)
    if setting.light == "twilight":
        return rules.twilight_bright_sky_yd if d.against_bright_sky(bearing_deg) else by_name
    return by_name


def strikes_eyes_shut(rules: JaneRules, shifted_range_yd: float, sea_state: int) -> bool:
    """Eyes shut beyond the last eyes-open target (seed 004 l.89) or in very bad weather (l.93)."""
    return shifted_range_yd > rules.eyes_open_max_yd or sea_state >= rules.eyes_shut_sea_state


def deck_share(rules: JaneRules, range_yd: float) -> float:
    """Share of hits that fall on the deck (plunging fire) at ``range_yd`` (stand-in table)."""
    return _interp(rules.deck_share_range_yd, rules.deck_share, range_yd)


def raking_weight(rules: JaneRules, off_beam_deg: float, projectile: str = "he") -> float:
    """How many penetrations a waterline penetration counts for, by the line of fire off the target's
    beam: raking shell counts double, at 45 degrees half again; shot three times (seed 004 l.51)."""
    w = 1.0
    weights = rules.raking_shot_weight if projectile == "shot" else rules.raking_weight
    for angle, weight in zip(rules.raking_off_beam_deg, weights, strict=True):
        if off_beam_deg >= angle:
            w = weight
    return w


# ----------------------------------------------------------------------------------------------------
# Ships, torpedoes, turning


def displacement_lt(ship: Ship) -> float:
    """Displacement in long tons, Jane's 'tons' (the data hold metric tonnes)."""
    return ship.displacement_t / LT_TO_T


def sinking_number(rules: JaneRules, ship: Ship) -> int:
    """Penetrations of belt or deck that sink her: two per 1,000 tons (seed 004 l.43, l.45), rounded up
    (she survives any count below the product), at least one."""
    return max(1, math.ceil(rules.sinking_per_1000_lt * displacement_lt(ship) / 1000.0 - 1e-9))


def torpedo_chance_in_six(rules: JaneRules, range_yd: float) -> int:
    """Chance in six that a ship's torpedo hits at ``range_yd`` (seed 004 l.47, l.49); 0 out of range."""
    for below, chance in rules.torpedo_bands:
        if range_yd < below:
            return chance
    return 0


def torpedo_range_yd(rules: JaneRules) -> float:
    """The range beyond which a ship's torpedo has no chance in the table."""
    return rules.torpedo_bands[-1][0]


def squares_per_turn(rules: JaneRules, length_m: float) -> float:
    """Squares of way per four-point turn by helm: the seed's two for the basic piece, more for the
    'larger circles' of long ships (stand-in: a tactical diameter of ``tactical_diameter_lengths``
    ship lengths; the turns form an octagon whose sides are the squares between turns)."""
    basic = rules.squares_per_turn
    octagon_sides = 360.0 / points_to_deg(rules.points_per_turn)
    diameter_yd = rules.tactical_diameter_lengths * length_m * YD_PER_M
    by_length = 1.0 + math.pi * diameter_yd / (octagon_sides * rules.square_yd)
    return max(basic, by_length)
