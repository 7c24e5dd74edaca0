"""Gunfire, torpedoes and damage at the end of a Jane move (seed 004).

Order (l.115, l.23, l.27): "at the end of each move big guns fire in the order tickets were dropped" -
the ships' order is drawn afresh each move (tickets are dropped during the simultaneous move) - then the
quick-firers, struck "in rapid succession without checking results", then torpedoes ("a ship sunk before
its torpedo is scored cannot score it"). Damage takes effect at once: "a disabled gun may not return
fire".

Target choice: the seed leaves it to the players ("For each big gun separate shots may be made", l.25).
STAND-IN: each gun group fires at the nearest enemy in sight that is within its mounting's reach
(``campaign.model.guns``; the light quick-firers never at an armoured ship, data file ``guns``), on whose
bearing some of its barrels bear, and whom no consort masks (``masked_by_consort``); each torpedo, from a loaded tube whose arc bears
(``campaign.tactics.tubes``), at the nearest such enemy within the table's range.

The line of fire (l.53, "Ships in the line of fire may receive the fire on a coin toss"): a ship nearer
the firer than her target, across the arc the target's hull subtends from the firer
(``campaign.tactics.plane.hull.in_line_of_fire``), takes the fire on the toss.

The light (l.35, "sun ... night ... shift to targets 1,000-2,000 yards farther"; l.11, sighting by light):
where the setting knows where the light comes from (``Setting.light_direction``), each firer's shift goes by
her line of sight to the target (``jane_rulebook.light_shift_yd``: the sun in her eyes by day, the target
against the bright or the dark sky in twilight) and is recorded in the fire event (``light_shift_yd``); in
twilight she sees a target only within the range toward the target's bearing
(``Setting.visibility_toward_yd``: farther against the bright sky).
"""

from __future__ import annotations

import bisect
import functools
import math
from collections.abc import Callable
from dataclasses import dataclass, field
from operator import itemgetter
from types import MappingProxyType
from typing import Any

import numpy as np

from campaign.model.penetration import Shell
from campaign.tactics.ammunition import default_ammunition_rules
from campaign.tactics.jane_rulebook import (
    aspect_fraction,
    deck_share,
    displacement_lt,
    hit_chance,
    light_shift_yd,
    passing_range_shift_yd,
    penetrates,
    raking_weight,
    range_shift_yd,
    shell_penetrates,
    strikes_eyes_shut,
    torpedo_chance_in_six,
    torpedo_range_yd,
)
from campaign.tactics.jane_rules import JaneRules
from campaign.tactics.jane_ship import (
    GunGroup,
    ShipState,
    arc_sector,
    can_use,
    damage_fraction,
    disable_mount,
)
from campaign.tactics.kinematics import range_yd
from campaign.tactics.plane.hull import Hull, Pose
from campaign.tactics.plane.hull import in_line_of_fire as hull_in_line_of_fire
from campaign.tactics.protocol import Setting, TickEvent
from campaign.tactics.tubes import TubeBank

BEAM_DEG = 90.0
DIE_FACES = 6


_by_range = itemgetter(0)

#: How near the limit's square (as a fraction of the speeds' scale squared) the squared relative speed
#: from the math module's velocities may come before ``FireContext.passing`` takes numpy's instead.
ROUGH_MARGIN = 1e-9

#: The slots of a firer's ``FireContext.hostiles_by_range`` entries, ``[range_yd, enemy, sector, sight]``:
#: the arc sector the enemy lies in and the firer's ``Sight`` of her are None until first wanted.
RANGE_SLOT, ENEMY_SLOT, SECTOR_SLOT, SIGHT_SLOT = range(4)

#: A ship's outline for ``ships_across_line``: (ship, her pose, her hull).
Outline = tuple[ShipState, Pose, Hull]


class Sight:
    """What a firer sees of a ship she fires at during a fire phase, each part worked out as it is first
    wanted: the range, the ships across the line between them (``FireContext.in_line_of_fire``) and her
    aim (``FireContext.aim``)."""

    __slots__ = ("aim", "crossing", "range_yd")

    def __init__(self, range_yd: float) -> None:
        self.range_yd = range_yd
        self.crossing: list[tuple[float, ShipState]] | None = None
        self.aim: Aim | None = None


class Aim:
    """A firer's fire at one target this move, as far as it does not depend on the gun: the figures of
    ``Strike`` and those the fire event records (rounded)."""

    __slots__ = (
        "aspect_fraction",
        "chance",
        "chance_rounded",
        "eyes_shut",
        "light_shift_yd",
        "off_beam_rounded_deg",
        "range_rounded_yd",
        "shifted_range_rounded_yd",
    )

    def __init__(self, chance: float, shifted_range_yd: float, eyes_shut: bool, off_beam_deg: float,
                 aspect_fraction: float, range_yd: float, light_shift_yd: float = 0.0) -> None:
        self.chance = chance
        self.light_shift_yd = light_shift_yd
        self.eyes_shut = eyes_shut
        self.aspect_fraction = aspect_fraction
        self.range_rounded_yd = round(range_yd, 1)
        self.shifted_range_rounded_yd = round(shifted_range_yd, 1)
        self.off_beam_rounded_deg = round(off_beam_deg, 2)
        self.chance_rounded = round(chance, 6)


@dataclass
class FireContext:
    """What a fire phase works on: the rules, the dice, the ships, the move and where events go.

    No ship moves, turns or changes speed while afloat during a fire phase (damage slows her only in
    the next move; a sunk ship is no one's target), so the ranges and bearings between ships, and what
    follows from them, are worked out at most once a phase and kept here, keyed by the ships' ``id`` (a
    context lives for one phase, while its ships do). Whether a ship is afloat, and her guns, change
    during the phase and are always read afresh.
    """

    rules: JaneRules
    rng: np.random.Generator
    ships: list[ShipState]
    move: int
    t_s: float
    setting: Setting
    events: list[TickEvent] = field(default_factory=list)
    on_admiral: Callable[[ShipState, ShipState | None, str], None] | None = None
    #: Under ``damage: gwas``: scores a hit by the damage model instead of Jane's rules
    #: (``campaign.tactics.jane_gwas``): (context, firer, target, gun group, true range yd).
    gwas_hit: Callable[[FireContext, ShipState, ShipState, GunGroup, float], None] | None = None
    _hostiles: dict[int, list[list[Any]]] | None = field(default=None, init=False, repr=False)
    _nearest_hostile_yd: float = field(default=math.inf, init=False, repr=False)
    _sights: dict[tuple[int, int], Sight] = field(default_factory=dict, init=False, repr=False)
    _velocities_kn: dict[int, tuple[float, float]] = field(default_factory=dict, init=False, repr=False)
    _passing: dict[tuple[int, int], bool] = field(default_factory=dict, init=False, repr=False)
    _outlines: list[Outline] | None = field(default=None, init=False, repr=False)

    def emit(self, type_: str, ship: str, target: str | None, **data: Any) -> None:
        self.events.append(TickEvent(self.t_s, type_, ship, target, MappingProxyType(data)))

    def hostiles_by_range(self, firer: ShipState) -> list[list[Any]]:
        """``[range_yd, enemy, sector, sight]`` of each enemy afloat when the phase first asked, nearest
        first, ties in the order of ``ships`` (callers check ``afloat`` again: ships sink during the
        phase). ``sector`` and ``sight`` are None until ``sector`` and ``entry_sight`` fill them in."""
        if self._hostiles is None:
            self._hostiles = self._range_hostiles()
        found = self._hostiles.get(id(firer))
        if found is None:  # a ship sunk before the phase asked (or not one of ``ships``): hers alone
            found = [[distance_yd(firer, s), s, None, None]
                     for s in self.ships if s.afloat and s.side != firer.side]
            found.sort(key=_by_range)
            self._hostiles[id(firer)] = found
        return found

    def _range_hostiles(self) -> dict[int, list[list[Any]]]:
        """Every afloat ship's ``hostiles_by_range``: each pair's range reckoned once (it is the same either
        way round, to the last bit: the differences only change sign), each list filled in the order of
        ``ships`` and sorted stably."""
        hostiles: dict[int, list[list[Any]]] = {id(s): [] for s in self.ships if s.afloat}
        afloat = [(s, s.x_yd, s.y_yd, s.side, hostiles[id(s)]) for s in self.ships if s.afloat]
        for i, (a, ax, ay, side, seen_by_a) in enumerate(afloat):
            for b, bx, by, b_side, seen_by_b in afloat[i + 1:]:
                if b_side != side:
                    r = math.hypot(bx - ax, by - ay)  # ``distance_yd(a, b)``, inline
                    seen_by_a.append([r, b, None, None])
                    seen_by_b.append([r, a, None, None])
        for found in hostiles.values():
            found.sort(key=_by_range)  # stable: equal ranges keep the ships' order
        self._nearest_hostile_yd = min((found[0][RANGE_SLOT] for found in hostiles.values() if found),
                                       default=math.inf)
        return hostiles

    def nearest_hostile_yd(self) -> float:
        """The least range between enemies afloat when the phase first asked (infinite if none)."""
        if self._hostiles is None:
            self._hostiles = self._range_hostiles()
        return self._nearest_hostile_yd

    def sector(self, firer: ShipState, entry: list[Any]) -> int:
        """The arc sector (``jane_ship.SECTOR_*``) the enemy of a ``hostiles_by_range`` entry lies in
        from the firer, kept in the entry."""
        found = entry[SECTOR_SLOT]
        if found is None:
            enemy = entry[ENEMY_SLOT]
            found = entry[SECTOR_SLOT] = arc_sector(scalar_relative_bearing_deg(
                firer.course_deg, firer.x_yd, firer.y_yd, enemy.x_yd, enemy.y_yd))
        return found

    def sight(self, firer: ShipState, target: ShipState) -> Sight:
        """What ``firer`` sees of ``target`` this phase."""
        key = (id(firer), id(target))
        found = self._sights.get(key)
        if found is None:
            found = self._sights[key] = Sight(distance_yd(firer, target))
        return found

    def entry_sight(self, firer: ShipState, entry: list[Any]) -> Sight:
        """The firer's sight of the enemy of a ``hostiles_by_range`` entry, kept in the entry (and apart
        from ``sight``'s: in the rare case both are wanted, both work out the same figures)."""
        found = entry[SIGHT_SLOT]
        if found is None:
            found = entry[SIGHT_SLOT] = Sight(entry[RANGE_SLOT])  # the entry's range is ``distance_yd``'s
        return found

    def in_line_of_fire(self, firer: ShipState, target: ShipState,
                        sight: Sight | None = None) -> ShipState | None:
        """``in_line_of_fire(self.ships, firer, target)``, its geometry once a phase per pair (``sight``
        the firer's of the target, if the caller has it)."""
        if sight is None:
            sight = self.sight(firer, target)
        if sight.crossing is None:
            if self._outlines is None:
                self._outlines = ship_outlines(self.ships)
            sight.crossing = ships_across_line(self.ships, firer, target, self._outlines)
        for _, s in sight.crossing:
            if s.afloat:
                return s
        return None

    def passing(self, a: ShipState, b: ShipState) -> bool:
        """Whether the ships pass at the rules' combined speed, ``relative_speed_kn(a, b) >=
        rules.passing_kn`` (the same either way round: the velocity differences only change sign),
        once a phase per pair.

        The comparison is all the relative speed is wanted for, so it is first made on velocities from
        the math module's sine and cosine (numpy's scalar calls cost ten times as much). Those agree with
        ``velocity_kn``'s to within a few units in the last place, so the squared relative speed agrees
        to some 1e-14 of its scale; only when it lies within ``ROUGH_MARGIN`` of that scale of the
        limit's square is ``relative_speed_kn`` itself taken.
        """
        key = (id(a), id(b)) if id(a) < id(b) else (id(b), id(a))
        found = self._passing.get(key)
        if found is None:
            limit_kn = self.rules.passing_kn
            ax, ay = self._velocity_kn(a)
            bx, by = self._velocity_kn(b)
            dx, dy = ax - bx, ay - by
            gap = dx * dx + dy * dy - limit_kn * limit_kn
            margin = ROUGH_MARGIN * (abs(a.speed_kn) + abs(b.speed_kn) + limit_kn) ** 2
            if gap > margin:
                found = True
            elif gap < -margin:
                found = False
            else:
                found = relative_speed_kn(a, b) >= limit_kn
            self._passing[key] = found
        return found

    def _velocity_kn(self, s: ShipState) -> tuple[float, float]:
        """The ship's velocity (east, north) in knots by the math module (see ``passing``)."""
        found = self._velocities_kn.get(id(s))
        if found is None:
            course_rad = math.radians(s.course_deg)
            found = (s.speed_kn * math.sin(course_rad), s.speed_kn * math.cos(course_rad))
            self._velocities_kn[id(s)] = found
        return found

    def aim(self, firer: ShipState, target: ShipState, sight: Sight | None = None) -> tuple[Sight, Aim]:
        """The firer's sight of the target and her aim at it this phase (``sight`` the firer's of the
        target, if the caller has it)."""
        if sight is None:
            sight = self.sight(firer, target)
        if sight.aim is None:
            off_beam = off_beam_deg(target, firer)
            light_yd = pair_light_shift_yd(self.rules, firer, target, self.setting)
            chance, shifted, shut, aspect = strike_figures(
                self.rules, target, self.setting, sight.range_yd, self.passing(firer, target), off_beam, light_yd)
            sight.aim = Aim(chance, shifted, shut, off_beam, aspect, sight.range_yd, light_yd)
        return sight, sight.aim

    def seen_yd(self, firer: ShipState, target: ShipState) -> float:
        """How far the firer sees a ship on the target's bearing (``Setting.visibility_toward_yd``)."""
        return self.setting.visibility_toward_yd(true_bearing_deg(firer, target))


# ----------------------------------------------------------------------------------------------------
# Geometry


def distance_yd(a: ShipState, b: ShipState) -> float:
    return float(range_yd(a.x_yd, a.y_yd, b.x_yd, b.y_yd))


def scalar_relative_bearing_deg(course_deg: float, x1_yd: float, y1_yd: float, x2_yd: float,
                                y2_yd: float) -> float:
    """``kinematics.relative_bearing_deg`` for one pair of points: its scalar path step by step (the
    same operations, so the same degrees to the last bit) without the numpy absolute value, which
    costs more than the rest."""
    bearing = math.degrees(math.atan2(x2_yd - x1_yd, y2_yd - y1_yd)) % 360.0
    d = (bearing - course_deg + 180.0) % 360.0 - 180.0
    return 180.0 if d == -180.0 else float(abs(d))


def off_beam_deg(target: ShipState, firer: ShipState) -> float:
    """Angle between the line of fire and the target's beam (0 broadside on, 90 end on)."""
    rel = scalar_relative_bearing_deg(target.course_deg, target.x_yd, target.y_yd, firer.x_yd, firer.y_yd)
    return abs(BEAM_DEG - rel)


def velocity_kn(s: ShipState) -> tuple[float, float]:
    """The ship's velocity (east, north) in knots."""
    c = np.radians(s.course_deg)
    return s.speed_kn * np.sin(c), s.speed_kn * np.cos(c)


def relative_speed_kn(a: ShipState, b: ShipState) -> float:
    """Speed of one ship relative to the other (the sum when they pass on opposite courses)."""
    (ax, ay), (bx, by) = velocity_kn(a), velocity_kn(b)
    return float(np.hypot(ax - bx, ay - by))


def true_bearing_deg(firer: ShipState, target: ShipState) -> float:
    """True bearing of ``target`` from ``firer``, degrees clockwise from north in [0, 360) (the plane's
    y axis is north)."""
    return math.degrees(math.atan2(target.x_yd - firer.x_yd, target.y_yd - firer.y_yd)) % 360.0


def pair_light_shift_yd(rules: JaneRules, firer: ShipState, target: ShipState, setting: Setting) -> float:
    """The light's shift of the range for ``firer`` aiming at ``target``: by the line of sight between
    them where the setting knows the light's direction (``jane_rulebook.light_shift_yd``)."""
    if setting.light_direction is None:
        return rules.light_shift_yd.get(setting.light, 0.0)  # no bearing wanted: the light by name
    return light_shift_yd(rules, setting, true_bearing_deg(firer, target))


def shifted_range_yd(rules: JaneRules, firer: ShipState, target: ShipState, setting: Setting) -> float:
    """The range the target is chosen for: the true range with the rules' shifts (jane_rulebook)."""
    return distance_yd(firer, target) + range_shift_yd(
        rules, target_speed_kn=target.speed_kn, target_engine_turning=target.engine_turning,
        relative_speed_kn=relative_speed_kn(firer, target), light=setting.light, sea_state=setting.sea_state,
        light_yd=pair_light_shift_yd(rules, firer, target, setting))


@dataclass(frozen=True)
class Strike:
    """How a group strikes at a target this move: chance per strike and what went into it."""

    chance: float
    shifted_range_yd: float
    eyes_shut: bool
    off_beam_deg: float
    aspect_fraction: float
    light_shift_yd: float = 0.0


def strike_chance(rules: JaneRules, firer: ShipState, target: ShipState, setting: Setting) -> Strike:
    """The chance of a hit per strike for ``firer`` striking at ``target``: the table's chance at the
    shifted range (eyes shut where the rules say), times the fraction of the drawing that counts."""
    off_beam = off_beam_deg(target, firer)
    passing = relative_speed_kn(firer, target) >= rules.passing_kn
    light_yd = pair_light_shift_yd(rules, firer, target, setting)
    chance, shifted, shut, aspect = strike_figures(rules, target, setting, distance_yd(firer, target),
                                                   passing, off_beam, light_yd)
    return Strike(chance, shifted, shut, off_beam, aspect, light_yd)


def strike_figures(rules: JaneRules, target: ShipState, setting: Setting, range_yd_: float, passing: bool,
                   off_beam_deg_: float, light_yd: float | None = None) -> tuple[float, float, bool, float]:
    """(chance, shifted range, eyes shut, aspect fraction) of ``strike_chance``, from the firer's true
    range, whether the ships pass at the rules' combined speed (``range_shift_yd``), the line of fire
    off the target's beam and the light's shift by direction (``pair_light_shift_yd``; None: by name)."""
    shifted = range_yd_ + passing_range_shift_yd(rules, target.speed_kn, target.engine_turning, passing,
                                                 setting.light, setting.sea_state, light_yd)
    shut = strikes_eyes_shut(rules, shifted, setting.sea_state)
    aspect = aspect_fraction(rules, off_beam_deg_)
    chance = hit_chance(rules, target.target_class, shifted, shut) * aspect
    return chance, shifted, shut, aspect


def in_line_of_fire(ships: list[ShipState], firer: ShipState, target: ShipState) -> ShipState | None:
    """The ship nearest the firer lying in the line of fire to the target (``ships_across_line``)."""
    return next((s for _, s in ships_across_line(ships, firer, target) if s.afloat), None)


def ship_outlines(ships: list[ShipState]) -> list[Outline]:
    """(ship, her pose, her hull) of each ship, for ``ships_across_line``."""
    return [(s, Pose(s.x_yd, s.y_yd, s.course_deg), Hull.of(s.ship)) for s in ships]


def ships_across_line(ships: list[ShipState], firer: ShipState, target: ShipState,
                      outlines: list[Outline] | None = None) -> list[tuple[float, ShipState]]:
    """(fraction of the way to the target, ship) of every ship but the two, afloat or not, lying in the
    line of fire from the firer to the target: nearer the firer than the target and within the arc the
    target's hull subtends from her (``campaign.tactics.plane.hull.in_line_of_fire``: "Ships in the line of
    fire may receive the fire", seed 004 l.53, taken as it means it), nearest the firer first, ties in
    the order of ``ships``; ``outlines`` the ships' ``ship_outlines``, if the caller keeps them."""
    fx, fy = firer.x_yd, firer.y_yd
    span = math.hypot(target.x_yd - fx, target.y_yd - fy)
    if span <= 0:
        return []
    outlines = outlines if outlines is not None else ship_outlines(ships)
    target_pose, target_hull = next(((p, h) for s, p, h in outlines if s is target),
                                    (Pose(target.x_yd, target.y_yd, target.course_deg), Hull.of(target.ship)))
    across: list[tuple[float, ShipState]] = []
    for s, pose, hull in outlines:
        if s is firer or s is target:
            continue
        if hull_in_line_of_fire(fx, fy, target_pose, target_hull, pose, hull):
            across.append((math.hypot(pose.x_yd - fx, pose.y_yd - fy) / span, s))
    across.sort(key=_by_range)  # stable: equal fractions keep the ships' order
    return across


# ----------------------------------------------------------------------------------------------------
# Projectile and hits


def choose_projectile(rules: JaneRules, group: GunGroup, target: ShipState, range_yd_: float) -> str:
    """Jane's column the group fires on: its common/HE shell (``"he"``) if that gets through her waterline
    square to the line of fire at this range, else its armour-piercing shell, capped or not (``"ap"``,
    Jane's "armour-piercing shell"), if it has one, else common/HE (data file, ``penetration``). A group
    with no shell figures: Jane's table, AP shell for the classes that carry it (``apc_classes``)."""
    he, ap = group.he_shell, group.ap_shell
    if he is None and ap is None:  # no shell figures: Jane's table
        if penetrates(rules, group.cls, "he", target.waterline_grade, range_yd_):
            return "he"
        return "ap" if group.cls in rules.apc_classes else "he"
    if he is not None and shell_penetrates(rules, group.cls, he, "he", target.waterline_mm, range_yd_):
        return "he"
    return "ap" if ap is not None else "he"


def fired_shell(group: GunGroup, projectile: str) -> Shell | None:
    """The shell behind Jane's column ``projectile``: the group's armour-piercing shell on "ap" (and
    "shot"), its common/HE shell on "he"."""
    return group.he_shell if projectile == "he" else group.ap_shell


def _draw_part(ctx: FireContext, target: ShipState, range_yd_: float) -> str:
    if ctx.rng.random() < deck_share(ctx.rules, range_yd_):
        return "deck"
    parts, cumulative = part_table(target.part_shares)
    # ``Generator.choice(len(parts), p=shares / shares.sum())`` draws one uniform double and finds it
    # in the cumulative shares (``searchsorted``, right side); so does this, without choice's checks
    # of the shares, which cost ten times the draw (``test_part_draw_is_the_generators_choice``).
    return parts[bisect.bisect_right(cumulative, ctx.rng.random())]


@functools.cache
def part_table(part_shares: tuple[tuple[str, float], ...]) -> tuple[tuple[str, ...], tuple[float, ...]]:
    """The parts of ``ShipState.part_shares`` and their cumulative shares, normalised to end at 1 as
    ``Generator.choice`` normalises its ``p``."""
    shares = np.array([s for _, s in part_shares])
    cumulative = (shares / shares.sum()).cumsum()
    cumulative /= cumulative[-1]
    return tuple(p for p, _ in part_shares), tuple(float(c) for c in cumulative)


def _pick_mount(ctx: FireContext, groups: list[GunGroup]):
    mounts = [(g, m) for g in groups for m in g.mounts]
    return mounts[int(ctx.rng.integers(len(mounts)))]


def _zone(rules: JaneRules, u: float) -> str:
    if u < rules.bow_fraction:
        return "bow"
    if u >= 1.0 - rules.stern_fraction:
        return "stern"
    if rules.machinery_from <= u < rules.machinery_to:
        return "machinery"
    return "midships"


def _count_penetration(ctx: FireContext, target: ShipState, weight: float, zone: str,
                       effects: list[str]) -> None:
    """Count a penetration of belt or deck (seed 004 l.43) and what it does where it falls (l.79, l.81)."""
    rules = ctx.rules
    target.penetrations += weight
    if zone == "bow" and not target.bow_lost:
        target.bow_lost = True
        effects.append("bow waterline lost: -3 kn")
    elif zone == "machinery":
        target.engine_hits += 1
        effects.append("engines hit: speed halved" if target.engine_hits == 1 else "engines hit: stopped")
    elif zone == "stern":
        target.no_steer_until_move = max(target.no_steer_until_move, ctx.move + rules.no_steer_moves)
        effects.append(f"aft protective deck pierced: no steering for {rules.no_steer_moves} moves")


def resolve_hit(ctx: FireContext, firer: ShipState, target: ShipState, group: GunGroup, projectile: str,
                true_range_yd: float) -> None:
    """Score one hit on ``target``: where it lands, whether it gets through, what it does (seed 004
    l.39-l.45, l.79, l.81); emit the hit event and the sinking if it comes to that. Under ``damage:
    gwas`` the damage model scores it instead (``ctx.gwas_hit``)."""
    if ctx.gwas_hit is not None:
        ctx.gwas_hit(ctx, firer, target, group, true_range_yd)
        return
    rules = ctx.rules
    part = _draw_part(ctx, target, true_range_yd)
    off_beam = off_beam_deg(target, firer)
    effects: list[str] = []
    grade, pierced, where = "none", False, None
    shell = fired_shell(group, projectile)
    if part in ("belt", "deck"):
        u = float(ctx.rng.random())
        where = _zone(rules, u)
        if part == "belt":
            coal = where == "machinery"
            grade = target.waterline_grade_coal if coal else target.waterline_grade
            plate_mm = target.waterline_coal_mm if coal else target.waterline_mm
            pierced = shell_penetrates(rules, group.cls, shell, projectile, plate_mm, true_range_yd,
                                       off_beam)
            weight = raking_weight(rules, off_beam, projectile)
        else:
            grade = target.deck_grade
            pierced = shell_penetrates(rules, group.cls, shell, projectile, target.deck_mm, true_range_yd,
                                       deck=True)
            weight = 1.0
        if pierced:
            _count_penetration(ctx, target, weight, where, effects)
    elif part in ("turret", "battery"):
        pool = [g for g in target.groups if g.turret == (part == "turret")]
        g, mount = _pick_mount(ctx, pool)
        grade = g.grade
        obliquity = off_beam if g.casemate else 0.0
        pierced = shell_penetrates(rules, group.cls, shell, projectile, g.protection_mm, true_range_yd,
                                   obliquity)
        where = g.gun.label
        if pierced and mount.working > 0:
            effects.append(f"{mount.working} x {g.gun.label} disabled")
            disable_mount(target, mount)
        elif not pierced and projectile == "he" and group.cls in rules.wrecking_classes and mount.working > 0:
            mount.out_until_move = max(mount.out_until_move, ctx.move + 1 + rules.he_gun_out_moves)
            effects.append(f"{g.gun.label} out for {rules.he_gun_out_moves} moves")
    elif part == "conning_tower":
        grade = target.conning_tower_grade
        pierced = shell_penetrates(rules, group.cls, shell, projectile, target.conning_tower_mm,
                                   true_range_yd)
        if pierced:
            target.no_steer_until_move = max(target.no_steer_until_move, ctx.move + rules.no_steer_moves)
            effects.append(f"conning tower pierced: no steering for {rules.no_steer_moves} moves")
    elif part == "upper_works":
        pierced = True
        if (ctx.rng.random() < rules.funnel_mast_fraction and group.cls in rules.wrecking_classes
                and target.funnel_mast_losses < rules.max_funnel_mast_losses):
            target.funnel_mast_losses += 1
            effects.append("funnel, uptake or mast down: -3 kn")
    else:  # side: the hull above the waterline; loaded deck tubes may blow up (seed 004 l.121)
        pierced = True
        if target.above_water_loaded > 0:
            in_section = target.above_water_loaded * rules.section_m / target.ship.length_m
            if ctx.rng.random() < in_section:
                roll = int(ctx.rng.integers(1, DIE_FACES + 1))
                if roll <= rules.tube_explosion_in_six[projectile]:
                    target.above_water_loaded -= 1
                    target.tubes_fired += 1
                    _count_penetration(ctx, target, 1.0, "midships", effects)
                    effects.append(f"torpedo tube exploded (roll {roll})")
    ctx.emit("hit", target.name, firer.name, damage_model="jane", part=part, where=where, penetrated=pierced,
             armour_grade=grade,
             projectile=projectile, gun=group.gun.label, calibre_mm=group.gun.calibre_mm, gun_class=group.cls,
             effects=tuple(effects), penetrations=round(target.penetrations, 3),
             sinking_number=target.sinking_number, damage=round(damage_fraction(target), 4))
    if part == "conning_tower" and target.flagship and group.cls in rules.big_gun_classes and ctx.on_admiral:
        ctx.on_admiral(target, firer, "heavy fire on the conning tower")
    if target.afloat and target.penetrations >= target.sinking_number - 1e-9:
        sink(ctx, target, firer, "penetrations")


def sink(ctx: FireContext, target: ShipState, by: ShipState | None, cause: str) -> None:
    target.afloat = False
    target.speed_kn = 0.0
    ctx.emit("sunk", target.name, by.name if by else None, cause=cause,
             penetrations=round(target.penetrations, 3), sinking_number=target.sinking_number)
    if target.flagship and ctx.on_admiral and ctx.rules.flagship_sunk_disables_admiral:
        ctx.on_admiral(target, by, "flagship sunk")


# ----------------------------------------------------------------------------------------------------
# Phases


def _target_for(ctx: FireContext, firer: ShipState, g: GunGroup, hostiles: list[list[Any]] | None = None,
                visibility_yd: float | None = None) -> tuple[list[Any], int] | None:
    """The nearest enemy afloat within reach on whose bearing some of the group's ready barrels bear
    (the first in ``ctx.ships`` of those equally near), as her ``hostiles_by_range`` entry, with the
    number of them; ``hostiles`` and ``visibility_yd`` the firer's entries and the farthest the setting
    lets a ship be seen, if the caller has them. A light quick-firer passes over armoured ships
    (``GunGroup.spares_armoured``). In twilight an enemy against the dark sky is seen nearer than one
    against the bright (``Setting.visibility_toward_yd``): one beyond her bearing's range is not seen."""
    if hostiles is None:
        hostiles = ctx.hostiles_by_range(firer)
    if visibility_yd is None:
        visibility_yd = ctx.setting.farthest_visibility_yd()
    reach_yd = min(g.max_range_yd, visibility_yd)
    directional = ctx.setting.directional_visibility
    ready = -1  # counted when first wanted: often no enemy is within reach
    for entry in hostiles:
        if entry[RANGE_SLOT] > reach_yd:
            return None
        if not entry[ENEMY_SLOT].afloat or (g.spares_armoured and entry[ENEMY_SLOT].armoured):
            continue
        if directional and entry[RANGE_SLOT] > ctx.seen_yd(firer, entry[ENEMY_SLOT]):
            continue
        if ready < 0:
            count = g.gun.count
            ready = g.ready(ctx.move)
            if not count or not ready:
                return None  # no barrel ready: none bears on anyone (``scaled_barrels`` gives 0 throughout)
            by_sector = g.barrels_by_sector
        sector = entry[SECTOR_SLOT]
        if sector is None:
            sector = ctx.sector(firer, entry)
        # ``scaled_barrels`` inline: this runs for every group, every move.
        n = math.floor(by_sector[sector] * ready / count + 0.5)
        if n > 0 and not masked_by_consort(ctx, firer, entry):
            return entry, n
    return None


def masked_by_consort(ctx: FireContext, firer: ShipState, entry: list[Any]) -> bool:
    """Whether a ship of her own side afloat lies in the line of fire to the enemy of a ``hostiles_by_range``
    entry: she is masked and does not fire at him (STAND-IN: the rules let a ship in the line of fire take
    the fire on a coin toss, seed 004 l.53, but no gunlayer of the period fired through a consort: ships
    "masked" by the ships ahead held their fire)."""
    sight = entry[SIGHT_SLOT] or ctx.entry_sight(firer, entry)
    if sight.crossing is None:
        ctx.in_line_of_fire(firer, entry[ENEMY_SLOT], sight)
    return any(s.afloat and s.side == firer.side for _, s in sight.crossing)


def fire_group(ctx: FireContext, firer: ShipState, g: GunGroup) -> None:
    """One gun group's fire this move, if it is loaded and has a target (module docstring)."""
    if ctx.move < g.next_fire_move or not can_use(firer, g):
        return
    found = _target_for(ctx, firer, g)
    if found is not None:
        _fire(ctx, firer, g, *found)


def _fire(ctx: FireContext, firer: ShipState, g: GunGroup, entry: list[Any], barrels: int) -> None:
    """The group's fire with ``barrels`` bearing at the enemy of its ``hostiles_by_range`` entry."""
    rules = ctx.rules
    aimed = target = entry[ENEMY_SLOT]
    # What the phase already knows is read straight from the entry and the sight; the context's
    # methods work out the rest (and keep it).
    sight = entry[SIGHT_SLOT] or ctx.entry_sight(firer, entry)
    crossing = sight.crossing
    if crossing is None:
        ctx.in_line_of_fire(firer, aimed, sight)
        crossing = sight.crossing
    for _, between in crossing:
        if between.afloat:
            if ctx.rng.random() < rules.line_of_fire_chance:
                target = between
                sight = ctx.sight(firer, between)
            break
    if g.spares_armoured and target.armoured:
        g.next_fire_move = ctx.move + g.interval_moves
        return  # light quick-firers' shells diverted onto an armoured ship do nothing (data file ``guns``)
    aim = sight.aim or ctx.aim(firer, target, sight)[1]
    true_range = sight.range_yd
    projectile = choose_projectile(rules, g, target, true_range)
    strikes = strikes_loaded(ctx, firer, g, projectile, barrels * g.strikes)
    if strikes <= 0:
        return  # no round left, or drawing the guns to load another projectile (``strikes_loaded``)
    hits = int(ctx.rng.binomial(strikes, aim.chance * firer.fire_factor))
    g.next_fire_move = ctx.move + g.interval_moves
    gun = g.gun
    # ``ctx.emit`` spelt out: one event per group that fires, every move.
    ctx.events.append(TickEvent(ctx.t_s, "fire", firer.name, target.name, MappingProxyType({
        "range_yd": aim.range_rounded_yd, "shifted_range_yd": aim.shifted_range_rounded_yd,
        "eyes_shut": aim.eyes_shut, "off_beam_deg": aim.off_beam_rounded_deg,
        "aspect_fraction": aim.aspect_fraction, "light_shift_yd": aim.light_shift_yd,
        "gun": gun.label, "calibre_mm": gun.calibre_mm,
        "gun_class": g.cls, "barrels": barrels, "strikes": strikes, "projectile": projectile,
        "hit_chance": aim.chance_rounded, "hits": hits, "aimed_at": aimed.name,
        "rounds": strikes * default_ammunition_rules().jane_rounds_per_strike,
        "rounds_left": firer.magazine.left[g.index] if firer.magazine is not None else None})))
    for _ in range(hits):
        if not target.afloat:
            break
        resolve_hit(ctx, firer, target, g, projectile, true_range)


#: ``GunGroup.next_fire_move`` of a group with no round left: never reached, so it is passed over at once.
NO_ROUNDS_MOVE = 1 << 40


def strikes_loaded(ctx: FireContext, firer: ShipState, g: GunGroup, projectile: str, strikes: int) -> int:
    """How many of the group's ``strikes`` it fires this move, spending a round each from her magazine
    (``data/ammunition.yaml``, engines.jane: one ticket, one round, seed 004 l.27, l.29): none when it has no
    round left, fewer when it has fewer. "Tickets must be ready a move in advance and changing projectile
    needs reload time" (l.27): a group loaded with another projectile than ``projectile`` does not fire; its
    guns are drawn and loaded with the new one, ready after its loading interval (``change_projectile``)."""
    magazine = firer.magazine
    if magazine is not None and not magazine.has(g.index):
        g.next_fire_move = NO_ROUNDS_MOVE  # it fires no more this battle
        return 0
    if g.loaded is not None and g.loaded != projectile:
        change_projectile(ctx, g, projectile)
        return 0
    g.loaded = projectile
    if magazine is None:
        return strikes
    per_strike = default_ammunition_rules().jane_rounds_per_strike
    fired = magazine.spend(g.index, strikes * per_strike) // per_strike
    if not magazine.has(g.index):
        firer.armament_changes += 1  # her last round of this group: her strength and reach change
    return fired


def change_projectile(ctx: FireContext, g: GunGroup, projectile: str) -> None:
    """Load the group with ``projectile`` (seed 004 l.27): its ticket is written afresh and its guns
    reloaded, so it fires next after its own loading interval (``data/ammunition.yaml``, engines.jane
    ``projectile_change: loading_interval``, a stand-in)."""
    g.loaded = projectile
    g.projectile_changes += 1
    g.next_fire_move = ctx.move + g.interval_moves


def gunfire(ctx: FireContext, order: list[ShipState]) -> None:
    """Big guns of every ship in ticket order, then the quick-firers in the same order."""
    move = ctx.move
    visibility_yd = ctx.setting.farthest_visibility_yd()
    for big in (True, False):
        for firer in order:
            hostiles = None
            for g in firer.big_groups if big else firer.quick_groups:
                # ``fire_group`` spelt out (``can_use`` inline): every group of every ship, every move.
                if not firer.afloat or move < g.next_fire_move or (g.casemate and firer.waterlogged):
                    continue
                if hostiles is None:
                    hostiles = ctx.hostiles_by_range(firer)
                found = _target_for(ctx, firer, g, hostiles, visibility_yd)
                if found is not None:
                    _fire(ctx, firer, g, *found)


def signed_relative_bearing_deg(firer: ShipState, target: ShipState) -> float:
    """Bearing of ``target`` off ``firer``'s bow in (-180, 180]: positive to starboard, negative to port
    (``kinematics.angle_diff_deg`` of her course and the true bearing, on scalars)."""
    bearing = math.degrees(math.atan2(target.x_yd - firer.x_yd, target.y_yd - firer.y_yd)) % 360.0
    d = (bearing - firer.course_deg + 180.0) % 360.0 - 180.0
    return 180.0 if d == -180.0 else d


def tubes_of(firer: ShipState) -> TubeBank:
    """The firer's tubes, brought into step with what gunfire did to them: a loaded above-water tube
    that blew up (``resolve_hit``, seed 004 l.121) is counted off ``above_water_loaded`` there and lost
    here."""
    bank = firer.tubes
    if bank is None:  # a state built without ``from_combatant``: all her tubes, less those fired
        bank = firer.tubes = TubeBank.of(firer.ship)
        bank.empty(firer.tubes_fired)
    while bank.loaded_above_water() > firer.above_water_loaded and bank.lose_above_water():
        pass
    return bank


def _torpedo_target(ctx: FireContext, firer: ShipState, bank: TubeBank,
                    reach_yd: float) -> tuple[list[Any], int, float] | None:
    """The nearest enemy afloat within ``reach_yd`` on whose bearing one of the firer's loaded tubes
    bears (the first in ``ctx.ships`` of those equally near), as her ``hostiles_by_range`` entry, with
    that tube's index and the enemy's signed relative bearing. A tube bears where its arc reaches
    (``campaign.tactics.tubes``; Jane's game gives no time to lay or set a tube)."""
    for entry in ctx.hostiles_by_range(firer):
        if entry[RANGE_SLOT] >= reach_yd:
            return None
        enemy = entry[ENEMY_SLOT]
        if not enemy.afloat:
            continue
        rel = signed_relative_bearing_deg(firer, enemy)
        i = bank.first_bearing(rel, ctx.t_s, gyro=False)
        if i is not None:
            return entry, i, rel
    return None


def torpedoes(ctx: FireContext, order: list[ShipState]) -> None:
    """Each ship with a loaded tube that bears fires at the nearest enemy within the torpedo table's
    range on whose bearing it bears (seed 004 l.47; the tubes' arcs, ``data/tactics/tubes.yaml``): under
    5,000 tons she sinks; larger, she is waterlogged; k hits sink a ship of under k * 5,000 tons (data
    file, ``torpedo.waterlogged``). A tube fires once a battle (the seed gives no reload). The event
    names the tube (``tube``: "bow", "starboard beam", ...) and the target's signed relative bearing."""
    rules = ctx.rules
    reach = min(torpedo_range_yd(rules), ctx.setting.visibility_yd)
    if ctx.nearest_hostile_yd() >= reach:
        return  # every ship's nearest enemy is out of reach: none fires (below)
    for firer in order:
        for _ in range(rules.tubes_per_move):
            if not firer.afloat or firer.tubes_left() <= 0:
                break
            bank = tubes_of(firer)
            found = _torpedo_target(ctx, firer, bank, reach)
            if found is None:
                break
            nearest, tube, rel = found
            r, target = nearest[RANGE_SLOT], nearest[ENEMY_SLOT]
            chance = torpedo_chance_in_six(rules, r)
            roll = int(ctx.rng.integers(1, DIE_FACES + 1))
            bank.fire(tube, ctx.t_s, None)
            firer.tubes_fired += 1
            firer.above_water_loaded = bank.loaded_above_water()
            if roll > chance:
                result = "miss"
            else:
                target.torpedo_hits += 1
                if displacement_lt(target.ship) < rules.torpedo_sink_below_lt * target.torpedo_hits:
                    result = "sunk"
                else:
                    result = "waterlogged"
                    target.waterlogged_now = target.waterlogged_now or not target.waterlogged_before
            ctx.emit("torpedo", firer.name, target.name, range_yd=round(r, 1), roll=roll,
                     chance_in_six=chance, result=result, displacement_lt=round(displacement_lt(target.ship)),
                     tube=bank.tubes[tube].label, rel_bearing_deg=round(rel, 1))
            if result == "sunk":
                sink(ctx, target, firer, "torpedo")
