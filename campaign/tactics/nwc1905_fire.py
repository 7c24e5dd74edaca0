"""Fire, damage and torpedo arithmetic of the NWC 1905 war game (seed 002), as pure functions.

Gunfire in the 1905 rules is deterministic (seed 002 l.39): a ship scores, each move, the points the
fire-effect curve gives at the range for a first-class battleship's broadside (l.43-45), weighed by
her battery or her type (``fire.basis`` in ``data/tactics/nwc1905.yaml``), halved when she turned
through more than 8 points in the move (l.21), halved at 30 % and quartered at 60 % of her fighting
endurance received (l.71-73), and never over an intervening ship (l.85). A gun counts only within its own
reach (its mounting's range at its 1914 elevation, ``data/guns.yaml``): the curve stops at 8,450 yards,
short of every heavy gun's reach, but not of every light gun's. Torpedoes hit by one die against their
zone of chance (l.51) and do 500 points and take all speed (l.53).
"""

from __future__ import annotations

import bisect
from collections.abc import Iterable, Sequence

import numpy as np

from campaign.model.guns import reach_yd
from campaign.model.ships import Gun, Ship
from campaign.tactics.ammunition import practical_rate_rounds_per_min, rules_rate_rounds_per_min
from campaign.tactics.armament import (
    BEAM_DEG,
    HALF_TURN_DEG,
    ArcRules,
    barrels_bearing,
    fold_bearing_deg,
    load_arcs,
)
from campaign.tactics.nwc1905_rules import GunClass, Nwc1905Rules
from campaign.tactics.plane.hull import Hull, Pose, in_line_of_fire


def curve_points(rules: Nwc1905Rules, rng_yd: float) -> float:
    """Points a first-class battleship's broadside scores in one fleet move (150 s) at ``rng_yd``
    yards: linear between the curve's tabulated ranges, the first point's value inside the first
    range (a melee), nothing beyond the last range (seed 002 l.43; values in the data file)."""
    if rng_yd > rules.gun_range_yd:
        return 0.0
    return float(np.interp(rng_yd, rules.curve_range_yd, rules.curve_points))


def gun_class(rules: Nwc1905Rules, calibre_mm: float) -> GunClass | None:
    """The rules' gun class a calibre (mm) counts in (nearest on a log scale; bounds in the data
    file), or None for guns too small to count."""
    for gc in rules.gun_classes:
        if calibre_mm >= gc.min_mm:
            return gc
    return None


def value_8in(rules: Nwc1905Rules, guns: Iterable[tuple[Gun, int]]) -> float:
    """Value in 8-inch guns of ``(gun group, barrels)`` pairs: 12-inch = 3 (seed 002 l.49), smaller
    guns by half-minute fire equivalence (l.47; the data file's reading)."""
    total = 0.0
    for gun, n in guns:
        gc = gun_class(rules, gun.calibre_mm)
        if gc is not None:
            total += n * gc.value_8in
    return total


def reference_broadside_8in(rules: Nwc1905Rules) -> float:
    """Value in 8-inch guns of the reference first-class battleship's broadside, which the fire-effect
    curve scores (STAND-IN ship named in the data file)."""
    by_name = {gc.name: gc.value_8in for gc in rules.gun_classes}
    return sum(n * by_name[name] for name, n in rules.reference_broadside.items())


def kind_of(rules: Nwc1905Rules, ship: Ship) -> str:
    """The rules' type of one of our ships: battleship, armoured_cruiser, protected_cruiser,
    destroyer or merchant (mapping in the data file)."""
    return rules.type_of[ship.type]


def resistance_factor(rules: Nwc1905Rules, ship: Ship) -> float:
    """What the points she receives from gunfire are multiplied by: 1 as the rules print them; under
    ``target_resistance: armour`` her type's reference belt over her own main belt (a ship of a type
    without a reference belt, or without a belt, takes them as printed). Data file, ``fire``."""
    if rules.target_resistance != "armour":
        return 1.0
    reference = rules.reference_belt_mm.get(kind_of(rules, ship))
    belt = ship.armour.belt or 0.0
    if reference is None or belt <= 0.0:
        return 1.0
    return reference / belt


def endurance_points(rules: Nwc1905Rules, ship: Ship) -> float:
    """Her fighting endurance in points: battleship 1,000, armoured cruiser 500, protected cruiser
    170 (seed 002 l.77); destroyers and merchants by the data file's STAND-INs."""
    return rules.endurance_points[kind_of(rules, ship)]


def is_end_on(rules: Nwc1905Rules, rel_bearing_deg: float) -> bool:
    """Whether a target ``rel_bearing_deg`` off the bow (0-180) lies end-on (ahead or astern)."""
    rel = abs(rel_bearing_deg)
    return rel < rules.end_on_arc_deg or rel > 180.0 - rules.end_on_arc_deg


def groups_in_reach(ship: Ship, rel_bearing_deg: float, rng_yd: float = 0.0,
                    dry: frozenset[int] = frozenset()) -> list[tuple[int, Gun, int]]:
    """(index in ``ship.guns``, group, barrels bearing) of the groups with barrels bearing on a target
    ``rel_bearing_deg`` off the bow whose reach (``campaign.model.guns``) is ``rng_yd`` or more: a gun never
    fires beyond its own reach. The groups of ``dry`` (no round left) are left out."""
    arcs = load_arcs()
    out = []
    for i, g in enumerate(ship.guns):
        if i in dry:
            continue
        n = barrels_bearing(g, rel_bearing_deg, arcs)
        if n > 0 and reach_yd(g) >= rng_yd:
            out.append((i, g, n))
    return out


def guns_in_reach(ship: Ship, rel_bearing_deg: float, rng_yd: float = 0.0,
                  dry: frozenset[int] = frozenset()) -> list[tuple[Gun, int]]:
    """``armament.guns_bearing`` less the groups whose reach falls short of ``rng_yd`` and those of
    ``dry`` (``groups_in_reach``)."""
    return [(g, n) for _, g, n in groups_in_reach(ship, rel_bearing_deg, rng_yd, dry)]


def rounds_per_min(rules: Nwc1905Rules, gun: Gun, basis: str) -> float:
    """The rate at which a gun spends its rounds while its ship fires (``data/ammunition.yaml``,
    engines.nwc1905): basis "rules", the rules' 8 / calibre for its class's nominal calibre (seed 002
    l.79: a 12-inch once in 1.5 minutes); "guns", its practical rate (``data/guns.yaml``, the rules' law a
    stand-in where none). Nothing for a gun too small to count (it does not fire in the rules)."""
    gc = gun_class(rules, gun.calibre_mm)
    if gc is None:
        return 0.0
    if basis == "guns":
        return practical_rate_rounds_per_min(gun)[0]
    return rules_rate_rounds_per_min(gc.calibre_in)


def fire_weight(rules: Nwc1905Rules, ship: Ship, rel_bearing_deg: float, rng_yd: float = 0.0,
                dry: frozenset[int] = frozenset()) -> float:
    """Her fire at a target ``rel_bearing_deg`` off her bow and ``rng_yd`` away, in first-class
    battleship broadsides, before damage and turning. Basis "battery": the guns bearing that reach so far
    (``guns_in_reach``) in 8-inch guns over the reference broadside's. Basis "type": her type's fraction
    (cruisers divided by two or four, seed 002 l.47), halved end-on ("broadside battery is twice end-on",
    l.47), nothing if no gun that counts bears and reaches. Groups of ``dry`` have no round left."""
    bearing = guns_in_reach(ship, rel_bearing_deg, rng_yd, dry)
    guns = value_8in(rules, bearing)
    if rules.fire_basis == "battery":
        return guns / reference_broadside_8in(rules)
    if guns <= 0.0:
        return 0.0
    aspect = rules.end_on_factor if is_end_on(rules, rel_bearing_deg) else 1.0
    return rules.type_fire_factor[kind_of(rules, ship)] * aspect


def broadside_weight(rules: Nwc1905Rules, ship: Ship) -> float:
    """Her full broadside (a target abeam) in first-class battleship broadsides (see ``fire_weight``)."""
    return fire_weight(rules, ship, 90.0)


def bearing_sector(rules: Nwc1905Rules, arcs: ArcRules, rel_bearing_deg: float) -> tuple[int, bool]:
    """The sector of a bearing ``rel_bearing_deg`` off the bow that decides ``fire_weight``: which of
    the arcs of ``armament.barrels_bearing`` it lies in (0 ahead, 1 astern, 2 the cross-deck arc about
    the beam, 3 the rest of the broadside) and whether it is end-on (``is_end_on``). Two bearings in
    the same sector have the same guns bearing and the same fire weight."""
    rel = fold_bearing_deg(rel_bearing_deg)
    if rel < arcs.end_on_half_arc_deg:
        arc = 0
    elif rel > HALF_TURN_DEG - arcs.end_on_half_arc_deg:
        arc = 1
    elif abs(rel - BEAM_DEG) <= arcs.cross_deck_half_arc_deg:
        arc = 2
    else:
        arc = 3
    return arc, is_end_on(rules, rel_bearing_deg)


class Battery:
    """One ship's fire by bearing sector (``bearing_sector``) and reach band (how many of her guns'
    distinct reaches the range exceeds): her ``fire_weight`` and the value in 8-inch guns of the guns
    bearing and reaching, each worked out the first time a target lies in the sector and band. Her guns,
    their arcs and reaches never change in a battle, and a battle asks this of every pair of ships every
    move."""

    __slots__ = ("_by_sector", "_reaches", "arcs", "broadside_weight", "rules", "ship")

    def __init__(self, rules: Nwc1905Rules, ship: Ship) -> None:
        self.rules = rules
        self.ship = ship
        self.arcs = load_arcs()
        self._reaches = sorted({reach_yd(g) for g in ship.guns})
        self._by_sector: dict[tuple[int, bool, int, frozenset[int]], tuple[float, float]] = {}
        self.broadside_weight = self.at(BEAM_DEG)[0]

    def at(self, rel_bearing_deg: float, rng_yd: float = 0.0,
           dry: frozenset[int] = frozenset()) -> tuple[float, float]:
        """(``fire_weight``, value in 8-inch guns of the guns bearing and reaching) at a target
        ``rel_bearing_deg`` off the bow and ``rng_yd`` away, the groups of ``dry`` (no round left) out."""
        band = bisect.bisect_left(self._reaches, rng_yd)  # reaches short of the range
        key = (*bearing_sector(self.rules, self.arcs, rel_bearing_deg), band, dry)
        found = self._by_sector.get(key)
        if found is None:
            found = self._by_sector[key] = (
                fire_weight(self.rules, self.ship, rel_bearing_deg, rng_yd, dry),
                value_8in(self.rules, guns_in_reach(self.ship, rel_bearing_deg, rng_yd, dry)))
        return found

    @property
    def longest_reach_yd(self) -> float:
        """The reach of her longest-ranged gun (yd), 0 without guns."""
        return self._reaches[-1] if self._reaches else 0.0

    def reach_with_rounds_yd(self, dry: frozenset[int]) -> float:
        """The reach of her longest-ranged gun with a round left (yd), 0 if none has."""
        if not dry:
            return self.longest_reach_yd
        return max((reach_yd(g) for i, g in enumerate(self.ship.guns) if i not in dry), default=0.0)


def offensive_factor(rules: Nwc1905Rules, damage_fraction: float) -> float:
    """The share of her offensive power left after receiving ``damage_fraction`` of her fighting
    endurance: 1, halved from 30 %, quartered from 60 % (seed 002 l.71-73), 0 once destroyed (l.75)."""
    if damage_fraction >= rules.destroyed_at:
        return 0.0
    factor = 1.0
    for at, f in rules.offensive_thresholds:
        if damage_fraction >= at:
            factor = f
    return factor


def fire_points(rules: Nwc1905Rules, weight: float, rng_yd: float, offensive: float, turned_deg: float,
                move_s: float) -> float:
    """Points scored in a move of ``move_s`` seconds by fire of ``weight`` battleship broadsides at
    ``rng_yd``: the curve (per 150 s, scaled to the move), times her offensive factor, halved if she
    turned through more than 8 points in the move (seed 002 l.21)."""
    turning = rules.gunfire_factor_when_turning if turned_deg > rules.gunfire_halved_above_deg else 1.0
    return curve_points(rules, rng_yd) * weight * offensive * turning * move_s / rules.fleet_move_s


def is_masked(firer_xy: tuple[float, float], target: tuple[Pose, Hull],
              others: Sequence[tuple[Pose, Hull]]) -> bool:
    """Whether any of ``others`` (ships afloat other than firer and target, of either side, as pose and
    hull) lies in the line of fire: nearer the firer than the target and across the arc the target's hull
    subtends from her: "Gun fire shall not be scored upon a ship over an intervening ship" (seed 002
    l.85)."""
    fx, fy = firer_xy
    pose, hull = target
    return any(in_line_of_fire(fx, fy, pose, hull, p, h) for p, h in others)


def torpedo_zone(rules: Nwc1905Rules, rng_yd: float) -> int:
    """The zone of chance (1-5) of a torpedo run of ``rng_yd`` yards, 0 beyond the torpedo's range
    (seed 002 l.51; bands a STAND-IN in the data file)."""
    for upto, zone in rules.torpedo_zones:
        if rng_yd <= upto:
            return zone
    return 0


def torpedo_hits(zone: int, roll: int) -> bool:
    """A torpedo in zone ``zone`` hits when one die shows ``zone`` or less (seed 002 l.51, l.41)."""
    return 1 <= roll <= zone


def speed_lost_kn(rules: Nwc1905Rules, sustained_speed_kn: float, damage_gain: float) -> float:
    """Knots lost to gunfire damage: a STAND-IN in proportion to the fraction of fighting endurance
    received (the rules give only the torpedo's "all her speed", seed 002 l.53)."""
    return rules.speed_lost_at_full_damage * max(0.0, damage_gain) * sustained_speed_kn
