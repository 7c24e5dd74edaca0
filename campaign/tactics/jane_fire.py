"""Gunfire, torpedoes and damage at the end of a Jane move (seed 004).

Order (l.115, l.23, l.27): "at the end of each move big guns fire in the order tickets were dropped" -
the ships' order is drawn afresh each move (tickets are dropped during the simultaneous move) - then the
quick-firers, struck "in rapid succession without checking results", then torpedoes ("a ship sunk before
its torpedo is scored cannot score it"). Damage takes effect at once: "a disabled gun may not return
fire".

Target choice: the seed leaves it to the players ("For each big gun separate shots may be made", l.25).
STAND-IN: each gun group fires at the nearest enemy in sight that is within its class's reach and on
whose bearing some of its barrels bear; each torpedo at the nearest enemy within the table's range.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

import numpy as np

from campaign.tactics.armament import guns_bearing
from campaign.tactics.jane_rulebook import (
    aspect_fraction,
    deck_share,
    displacement_lt,
    hit_chance,
    penetrates,
    raking_weight,
    range_shift_yd,
    strikes_eyes_shut,
    torpedo_chance_in_six,
    torpedo_range_yd,
)
from campaign.tactics.jane_rules import JaneRules
from campaign.tactics.jane_ship import GunGroup, ShipState, can_use, damage_fraction
from campaign.tactics.kinematics import range_yd, relative_bearing_deg
from campaign.tactics.protocol import Setting, TickEvent

BEAM_DEG = 90.0
DIE_FACES = 6


@dataclass
class FireContext:
    """What a fire phase works on: the rules, the dice, the ships, the move and where events go."""

    rules: JaneRules
    rng: np.random.Generator
    ships: list[ShipState]
    move: int
    t_s: float
    setting: Setting
    events: list[TickEvent] = field(default_factory=list)
    on_admiral: Callable[[ShipState, ShipState | None, str], None] | None = None

    def emit(self, type_: str, ship: str, target: str | None, **data: Any) -> None:
        self.events.append(TickEvent(self.t_s, type_, ship, target, MappingProxyType(data)))


# ----------------------------------------------------------------------------------------------------
# Geometry


def distance_yd(a: ShipState, b: ShipState) -> float:
    return float(range_yd(a.x_yd, a.y_yd, b.x_yd, b.y_yd))


def off_beam_deg(target: ShipState, firer: ShipState) -> float:
    """Angle between the line of fire and the target's beam (0 broadside on, 90 end on)."""
    rel = float(relative_bearing_deg(target.course_deg, target.x_yd, target.y_yd, firer.x_yd, firer.y_yd))
    return abs(BEAM_DEG - rel)


def relative_speed_kn(a: ShipState, b: ShipState) -> float:
    """Speed of one ship relative to the other (the sum when they pass on opposite courses)."""
    ca, cb = np.radians(a.course_deg), np.radians(b.course_deg)
    dx = a.speed_kn * np.sin(ca) - b.speed_kn * np.sin(cb)
    dy = a.speed_kn * np.cos(ca) - b.speed_kn * np.cos(cb)
    return float(np.hypot(dx, dy))


def shifted_range_yd(rules: JaneRules, firer: ShipState, target: ShipState, setting: Setting) -> float:
    """The range the target is chosen for: the true range with the rules' shifts (jane_rulebook)."""
    return distance_yd(firer, target) + range_shift_yd(
        rules, target_speed_kn=target.speed_kn, target_engine_turning=target.engine_turning,
        relative_speed_kn=relative_speed_kn(firer, target), light=setting.light, sea_state=setting.sea_state)


@dataclass(frozen=True)
class Strike:
    """How a group strikes at a target this move: chance per strike and what went into it."""

    chance: float
    shifted_range_yd: float
    eyes_shut: bool
    off_beam_deg: float
    aspect_fraction: float


def strike_chance(rules: JaneRules, firer: ShipState, target: ShipState, setting: Setting) -> Strike:
    """The chance of a hit per strike for ``firer`` striking at ``target``: the table's chance at the
    shifted range (eyes shut where the rules say), times the fraction of the drawing that counts."""
    shifted = shifted_range_yd(rules, firer, target, setting)
    shut = strikes_eyes_shut(rules, shifted, setting.sea_state)
    off_beam = off_beam_deg(target, firer)
    aspect = aspect_fraction(rules, off_beam)
    chance = hit_chance(rules, target.target_class, shifted, shut) * aspect
    return Strike(chance, shifted, shut, off_beam, aspect)


def in_line_of_fire(ships: list[ShipState], firer: ShipState, target: ShipState) -> ShipState | None:
    """The ship nearest the firer lying across the line to the target (within half her length of it)."""
    dx, dy = target.x_yd - firer.x_yd, target.y_yd - firer.y_yd
    span2 = dx * dx + dy * dy
    best, best_t = None, 1.0
    if span2 <= 0:
        return None
    for s in ships:
        if s is firer or s is target or not s.afloat:
            continue
        t = ((s.x_yd - firer.x_yd) * dx + (s.y_yd - firer.y_yd) * dy) / span2
        if not 0.0 < t < best_t:
            continue
        px, py = firer.x_yd + t * dx - s.x_yd, firer.y_yd + t * dy - s.y_yd
        if px * px + py * py <= (s.length_yd / 2.0) ** 2:
            best, best_t = s, t
    return best


# ----------------------------------------------------------------------------------------------------
# Projectile and hits


def choose_projectile(rules: JaneRules, cls: str, target: ShipState, range_yd_: float) -> str:
    """Jane's column the gun fires on: HE/common shell (``"he"``) if it gets through her waterline at
    normal impact, else capped AP (scored as ``"shot"``) if the class carries it, else HE (data file,
    ``penetration.apc_classes``)."""
    if penetrates(rules, cls, "he", target.waterline_grade, range_yd_):
        return "he"
    return "shot" if cls in rules.apc_classes else "he"


def _draw_part(ctx: FireContext, target: ShipState, range_yd_: float) -> str:
    if ctx.rng.random() < deck_share(ctx.rules, range_yd_):
        return "deck"
    parts = [p for p, _ in target.part_shares]
    shares = np.array([s for _, s in target.part_shares])
    return parts[int(ctx.rng.choice(len(parts), p=shares / shares.sum()))]


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
    l.39-l.45, l.79, l.81); emit the hit event and the sinking if it comes to that."""
    rules = ctx.rules
    part = _draw_part(ctx, target, true_range_yd)
    off_beam = off_beam_deg(target, firer)
    effects: list[str] = []
    grade, pierced, where = "none", False, None
    if part in ("belt", "deck"):
        u = float(ctx.rng.random())
        where = _zone(rules, u)
        if part == "belt":
            grade = target.waterline_grade_coal if where == "machinery" else target.waterline_grade
            pierced = penetrates(rules, group.cls, projectile, grade, true_range_yd, off_beam)
            weight = raking_weight(rules, off_beam, projectile)
        else:
            grade = target.deck_grade
            pierced = penetrates(rules, group.cls, projectile, grade, true_range_yd, rules.deck_obliquity_deg)
            weight = 1.0
        if pierced:
            _count_penetration(ctx, target, weight, where, effects)
    elif part in ("turret", "battery"):
        pool = [g for g in target.groups if g.turret == (part == "turret")]
        g, mount = _pick_mount(ctx, pool)
        grade = g.grade
        obliquity = off_beam if g.casemate else 0.0
        pierced = penetrates(rules, group.cls, projectile, grade, true_range_yd, obliquity)
        where = g.gun.label
        if pierced and mount.working > 0:
            effects.append(f"{mount.working} x {g.gun.label} disabled")
            mount.working = 0
        elif not pierced and projectile == "he" and group.cls in rules.wrecking_classes and mount.working > 0:
            mount.out_until_move = max(mount.out_until_move, ctx.move + 1 + rules.he_gun_out_moves)
            effects.append(f"{g.gun.label} out for {rules.he_gun_out_moves} moves")
    elif part == "conning_tower":
        grade = target.conning_tower_grade
        pierced = penetrates(rules, group.cls, projectile, grade, true_range_yd, 0.0)
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
    ctx.emit("hit", target.name, firer.name, part=part, where=where, penetrated=pierced, armour_grade=grade,
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


def _is_big(rules: JaneRules, g: GunGroup) -> bool:
    return not g.quick_firing or g.cls in rules.big_gun_classes


def _target_for(ctx: FireContext, firer: ShipState, g: GunGroup) -> tuple[ShipState, int] | None:
    reach = min(g.max_range_yd, ctx.setting.visibility_yd)
    best: tuple[float, ShipState, int] | None = None
    for s in ctx.ships:
        if not s.afloat or s.side == firer.side:
            continue
        r = distance_yd(firer, s)
        if r > reach or (best is not None and r >= best[0]):
            continue
        rel = float(relative_bearing_deg(firer.course_deg, firer.x_yd, firer.y_yd, s.x_yd, s.y_yd))
        n = next((k for gun, k in guns_bearing(firer.ship, rel) if gun is g.gun), 0)
        n = g.scaled(n, ctx.move)
        if n > 0:
            best = (r, s, n)
    return (best[1], best[2]) if best else None


def fire_group(ctx: FireContext, firer: ShipState, g: GunGroup) -> None:
    """One gun group's fire this move, if it is loaded and has a target (module docstring)."""
    rules = ctx.rules
    if ctx.move < g.next_fire_move or not can_use(firer, g):
        return
    found = _target_for(ctx, firer, g)
    if found is None:
        return
    aimed, barrels = found
    target = aimed
    between = in_line_of_fire(ctx.ships, firer, aimed)
    if between is not None and ctx.rng.random() < rules.line_of_fire_chance:
        target = between
    true_range = distance_yd(firer, target)
    sc = strike_chance(rules, firer, target, ctx.setting)
    projectile = choose_projectile(rules, g.cls, target, true_range)
    strikes = barrels * g.strikes
    hits = int(ctx.rng.binomial(strikes, sc.chance))
    g.next_fire_move = ctx.move + g.interval_moves
    ctx.emit("fire", firer.name, target.name, range_yd=round(true_range, 1),
             shifted_range_yd=round(sc.shifted_range_yd, 1), eyes_shut=sc.eyes_shut,
             off_beam_deg=round(sc.off_beam_deg, 2), aspect_fraction=sc.aspect_fraction, gun=g.gun.label,
             calibre_mm=g.gun.calibre_mm, gun_class=g.cls, barrels=barrels, strikes=strikes,
             projectile=projectile, hit_chance=round(sc.chance, 6), hits=hits, aimed_at=aimed.name)
    for _ in range(hits):
        if not target.afloat:
            break
        resolve_hit(ctx, firer, target, g, projectile, true_range)


def gunfire(ctx: FireContext, order: list[ShipState]) -> None:
    """Big guns of every ship in ticket order, then the quick-firers in the same order."""
    for big in (True, False):
        for firer in order:
            for g in firer.groups:
                if firer.afloat and _is_big(ctx.rules, g) == big:
                    fire_group(ctx, firer, g)


def torpedoes(ctx: FireContext, order: list[ShipState]) -> None:
    """Each ship with a loaded tube fires at the nearest enemy within the torpedo table's range
    (seed 004 l.47): under 5,000 tons she sinks; larger, she is waterlogged; k hits sink a ship of
    under k * 5,000 tons (data file, ``torpedo.waterlogged``)."""
    rules = ctx.rules
    reach = min(torpedo_range_yd(rules), ctx.setting.visibility_yd)
    for firer in order:
        for _ in range(rules.tubes_per_move):
            if not firer.afloat or firer.tubes_left() <= 0:
                break
            enemies = [(distance_yd(firer, s), i, s) for i, s in enumerate(ctx.ships)
                       if s.afloat and s.side != firer.side]
            enemies = [e for e in enemies if e[0] < reach]
            if not enemies:
                break
            r, _, target = min(enemies)
            chance = torpedo_chance_in_six(rules, r)
            roll = int(ctx.rng.integers(1, DIE_FACES + 1))
            firer.tubes_fired += 1
            firer.above_water_loaded = min(firer.above_water_loaded, firer.tubes_left())
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
                     chance_in_six=chance, result=result, displacement_lt=round(displacement_lt(target.ship)))
            if result == "sunk":
                sink(ctx, target, firer, "torpedo")
