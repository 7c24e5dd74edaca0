"""A ship's damage in boxes: her guns by class, her hull, her torpedo mounts (seed 003, "Great War at Sea").

Seed 003 (a Russian fragment of the "Great War at Sea" rules; the English is the project's own)
gives the rules this module follows: hits on a class of guns a ship never had, or has lost, are
redistributed (8.6, 8.61), one hit on the torpedo mounts destroys them all (8.62), critical hits are
rolled on two dice, never from tertiary guns and stopped by armour unless the result says otherwise,
and a primary-gun hit at long range that rolls 10 on the damage table destroys one more hull box
(plunging fire) unless the ship's hull boxes are framed. The fragment's tables (Gunnery Damage Table,
Critical Hits Table, ship specifications) are missing; ``data/tactics/damage.yaml`` holds labelled
stand-ins for them.

``DamageBoxes`` is what a ship can lose (derived from a ``Ship``); ``DamageState`` what she has lost.
``allocate`` rolls hits onto a state; ``resolve_part`` is the deterministic redistribution;
``gunnery_fraction``, ``hull_fraction`` and ``speed_fraction`` map a state onto the common ``Condition``.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from types import MappingProxyType

import numpy as np

from campaign.datafile import load_yaml
from campaign.model.ships import Ship
from campaign.paths import DATA_DIR
from campaign.tactics.armament import arc_counts

DAMAGE_FILE = DATA_DIR / "tactics" / "damage.yaml"
GUN_CLASSES = ("primary", "secondary", "tertiary")
PARTS = (*GUN_CLASSES, "hull", "torpedo")
_EPS = 1e-9


# ----------------------------------------------------------------------------------------------------
# Rules


@dataclass(frozen=True)
class CriticalEntry:
    """One row of the (stand-in) Critical Hits Table; see data/tactics/damage.yaml ``critical``."""

    name: str
    hull_boxes: int = 0
    engine_hits: int = 0
    primary_boxes: int = 0
    fire_control: bool = False
    bridge: bool = False
    sinks: bool = False
    armour_protects: bool = True


@dataclass(frozen=True)
class DamageRules:
    """The figures of ``data/tactics/damage.yaml`` (each cited there)."""

    primary_min_calibre_mm: float
    secondary_min_calibre_mm: float
    tertiary_min_calibre_mm: float
    weight_exponent: float
    tonnes_per_hull_box: float
    min_hull_boxes: int
    merchant_max_hull_boxes: int
    torpedo_boxes_if_fitted: int
    location_dice: int
    location: Mapping[int, tuple[str, bool]]  # two-dice roll -> (part, critical)
    penetration_calibre_ratio: float
    critical_dice: int
    no_critical_from: frozenset[str]
    critical: Mapping[int, CriticalEntry]
    fire_control_factor: float
    speed_loss_per_engine_hit: float
    plunging_source_class: str
    plunging_trigger_roll: int
    plunging_extra_hull_boxes: int
    plunging_min_range_yd: float
    framed_min_deck_mm: float
    small_gun_class: str = "tertiary"  # the class a hit by a gun too small to have boxes scores as
    jane_reference_calibre_mm: float = 305.0  # Jane's shells per hit of the model (damage.yaml, engines)
    jane_reference_shells_per_hit: float = 2.0

    def part_odds(self) -> dict[str, float]:
        """Probability that a hit rolls each part on the location table (two six-sided dice)."""
        odds = dict.fromkeys(PARTS, 0.0)
        for roll, (part, _) in self.location.items():
            odds[part] += _dice_probability(roll, self.location_dice)
        return odds


def _dice_probability(total: int, dice: int, faces: int = 6) -> float:
    """Probability that ``dice`` fair dice sum to ``total``."""
    ways = np.zeros(dice * faces + 1)
    ways[0] = 1.0
    for _ in range(dice):
        nxt = np.zeros_like(ways)
        for f in range(1, faces + 1):
            nxt[f:] += ways[:-f]
        ways = nxt
    return float(ways[total] / faces**dice) if 0 <= total < len(ways) else 0.0


def load_rules(path: str | Path = DAMAGE_FILE) -> DamageRules:
    """Read a damage-rules file (cached per path)."""
    return _load_rules(Path(path).resolve())


@functools.cache
def _load_rules(path: Path) -> DamageRules:
    raw = load_yaml(path.read_text(encoding="utf-8"))
    g, h, loc, crit, pl = raw["gun_classes"], raw["hull"], raw["location"], raw["critical"], raw["plunging"]
    location = {int(k): (str(v["part"]), bool(v["critical"])) for k, v in loc["rows"].items()}
    if any(p not in PARTS for p, _ in location.values()):
        raise ValueError(f"{path}: location rows name a part outside {PARTS}")
    span = range(loc["dice"], 6 * loc["dice"] + 1)
    if sorted(location) != list(span):
        raise ValueError(f"{path}: location rows must cover every roll {span.start}-{span.stop - 1}")
    critical = {int(k): CriticalEntry(**v) for k, v in crit["rows"].items()}
    if sorted(critical) != list(range(crit["dice"], 6 * crit["dice"] + 1)):
        raise ValueError(f"{path}: critical rows must cover every roll of {crit['dice']} dice")
    small = str(raw["engines"]["small_gun_class"])
    if small not in GUN_CLASSES:
        raise ValueError(f"{path}: engines.small_gun_class {small!r} is not one of {GUN_CLASSES}")
    return DamageRules(
        primary_min_calibre_mm=float(g["primary_min_calibre_mm"]),
        secondary_min_calibre_mm=float(g["secondary_min_calibre_mm"]),
        tertiary_min_calibre_mm=float(g["tertiary_min_calibre_mm"]),
        weight_exponent=float(g["weight_exponent"]),
        tonnes_per_hull_box=float(h["tonnes_per_box"]),
        min_hull_boxes=int(h["min_boxes"]),
        merchant_max_hull_boxes=int(h["merchant_max_boxes"]),
        torpedo_boxes_if_fitted=int(raw["torpedo"]["boxes_if_fitted"]),
        location_dice=int(loc["dice"]),
        location=MappingProxyType(location),
        penetration_calibre_ratio=float(raw["penetration"]["calibre_ratio"]),
        critical_dice=int(crit["dice"]),
        no_critical_from=frozenset(crit["no_critical_from"]),
        critical=MappingProxyType(critical),
        fire_control_factor=float(crit["fire_control_factor"]),
        speed_loss_per_engine_hit=float(crit["speed_loss_per_engine_hit"]),
        plunging_source_class=str(pl["source_class"]),
        plunging_trigger_roll=int(pl["trigger_roll"]),
        plunging_extra_hull_boxes=int(pl["extra_hull_boxes"]),
        plunging_min_range_yd=float(pl["min_range_yd"]),
        framed_min_deck_mm=float(pl["framed_min_deck_mm"]),
        small_gun_class=small,
        jane_reference_calibre_mm=_positive(path, "engines.jane.reference_calibre_mm",
                                            raw["engines"]["jane"]["reference_calibre_mm"]),
        jane_reference_shells_per_hit=_positive(path, "engines.jane.reference_shells_per_hit",
                                                raw["engines"]["jane"]["reference_shells_per_hit"]),
    )


def _positive(path: Path, field: str, value: object) -> float:
    """``value`` as a float if it is a number above 0; ValueError naming the file and the field if not."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value <= 0:
        raise ValueError(f"{path}: {field}: {value!r} is not a number above 0")
    return float(value)


# ----------------------------------------------------------------------------------------------------
# Boxes and state


@dataclass(frozen=True)
class GunBoxes:
    """One gun group's boxes: ``boxes`` barrels of ``calibre_mm`` in class ``cls`` (primary...)."""

    cls: str
    label: str
    calibre_mm: float
    boxes: int


@dataclass(frozen=True)
class DamageBoxes:
    """What a ship can lose: gun boxes per group (by class), hull boxes, torpedo-mount boxes.

    ``belt_mm`` (None: unarmoured) decides penetration and whether armour stops a critical hit;
    ``framed`` marks a hull proof against plunging fire (seed 003, "Навесной огонь").
    """

    name: str
    guns: tuple[GunBoxes, ...]
    hull: int
    torpedo: int
    belt_mm: float | None
    framed: bool

    @classmethod
    def from_ship(cls, ship: Ship, rules: DamageRules | None = None) -> DamageBoxes:
        """Boxes of ``ship`` by the rules of data/tactics/damage.yaml (gun classes by calibre rank and
        band, hull boxes by displacement, one torpedo box if she has tubes)."""
        r = rules or load_rules()
        fitted = [g for g in ship.guns if g.count > 0 and g.calibre_mm >= r.tertiary_min_calibre_mm]
        largest = max((g.calibre_mm for g in fitted), default=0.0)
        groups = []
        for g in fitted:
            if g.calibre_mm == largest and g.calibre_mm >= r.primary_min_calibre_mm:
                c = "primary"
            elif g.calibre_mm >= r.secondary_min_calibre_mm:
                c = "secondary"
            else:
                c = "tertiary"
            groups.append(GunBoxes(c, g.label, g.calibre_mm, max(1, arc_counts(g).broadside)))
        hull = max(r.min_hull_boxes, math.floor(ship.displacement_t / r.tonnes_per_hull_box + 0.5))
        if ship.is_merchant:
            hull = min(hull, r.merchant_max_hull_boxes)
        tubes = ship.torpedo_tubes.count if ship.torpedo_tubes is not None else 0
        deck = ship.armour.deck
        return cls(ship.name, tuple(groups), hull, r.torpedo_boxes_if_fitted if tubes > 0 else 0,
                   ship.armour.belt or None, deck is not None and deck >= r.framed_min_deck_mm)

    def boxes(self, cls: str) -> int:
        """Gun boxes of a class the ship began with."""
        return sum(g.boxes for g in self.guns if g.cls == cls)

    @property
    def has_guns(self) -> bool:
        return bool(self.guns)


@dataclass(frozen=True)
class DamageState:
    """What a ship has lost: ``guns_lost`` per gun group (same order as ``boxes.guns``), hull boxes,
    whether her torpedo mounts are gone, and the effects of critical hits so far."""

    boxes: DamageBoxes
    guns_lost: tuple[int, ...]
    hull_lost: int = 0
    torpedo_lost: bool = False
    engine_hits: int = 0
    fire_control: bool = False
    bridge: bool = False
    magazine: bool = False
    criticals: tuple[str, ...] = ()

    @classmethod
    def fresh(cls, boxes: DamageBoxes) -> DamageState:
        return cls(boxes, (0,) * len(boxes.guns))

    def remaining(self, cls: str) -> int:
        """Gun boxes of a class still in action."""
        return sum(g.boxes - lost for g, lost in zip(self.boxes.guns, self.guns_lost) if g.cls == cls)

    @property
    def sunk(self) -> bool:
        return self.magazine or self.hull_lost >= self.boxes.hull


@dataclass(frozen=True)
class HitResult:
    """One hit: the location ``roll`` and the ``part`` it rolled, where it ``landed`` after
    redistribution (a gun class, 'hull', 'torpedo' or 'ignored'), the gun group that lost a box,
    the extra hull boxes of plunging fire, and whether it gave a critical result."""

    roll: int
    part: str
    landed: str
    gun: str | None = None
    plunging_boxes: int = 0
    critical: bool = False


@dataclass(frozen=True)
class CriticalResult:
    """A critical result: the two-dice ``roll``, the table entry, and whether it took effect
    (False when the target's armour stopped it)."""

    roll: int
    name: str
    applied: bool


# ----------------------------------------------------------------------------------------------------
# Rules of the seed


def penetrates(calibre_mm: float, boxes: DamageBoxes, rules: DamageRules | None = None) -> bool:
    """Whether a gun of ``calibre_mm`` pierces the target's belt (stand-in calibre rule, damage.yaml
    ``penetration``); always True against an unarmoured ship."""
    r = rules or load_rules()
    return boxes.belt_mm is None or calibre_mm * r.penetration_calibre_ratio >= boxes.belt_mm


def is_plunging(source_class: str, range_yd: float, rules: DamageRules | None = None) -> bool:
    """Whether hits by guns of ``source_class`` at ``range_yd`` count as plunging fire (seed 003,
    "Навесной огонь": primary guns at long range; the range is a stand-in, damage.yaml)."""
    r = rules or load_rules()
    return source_class == r.plunging_source_class and range_yd >= r.plunging_min_range_yd


def resolve_part(state: DamageState, part: str, penetrating: bool = True) -> str:
    """Where a hit rolled on ``part`` lands after redistribution (seed 003, 8.6, 8.61, 8.62, line 3-7):
    a gun class, 'hull', 'torpedo' or 'ignored'.

    - A primary hit on a ship that never had primary guns counts as secondary; a secondary hit on one
      that never had secondaries as tertiary (8.6).
    - Once all primaries are destroyed a primary hit is a hull hit; once all secondaries are, a
      secondary hit is a hull hit if the firing guns can penetrate her belt (``penetrating``), else
      nothing; tertiary hits after the tertiaries are gone are ignored (8.6).
    - A ship with guns but no tertiaries ignores tertiary hits; a ship with no guns at all takes a
      tertiary hit on the hull and ignores other gun hits (8.61: the specific rule wins over the cascade).
    - A torpedo-mount hit on a ship without tubes (or with them already destroyed) is ignored (8.62).
    A hit cascaded to another class is then treated as a hit of that class.
    """
    if part == "hull":
        return "hull"
    b = state.boxes
    if part == "torpedo":
        return "torpedo" if b.torpedo and not state.torpedo_lost else "ignored"
    if not b.has_guns:
        return "hull" if part == "tertiary" else "ignored"
    if part == "primary":
        if b.boxes("primary") == 0:
            part = "secondary"
        else:
            return "primary" if state.remaining("primary") else "hull"
    if part == "secondary":
        if b.boxes("secondary") == 0:
            part = "tertiary"
        elif state.remaining("secondary"):
            return "secondary"
        else:
            return "hull" if penetrating else "ignored"
    if b.boxes("tertiary") == 0 or state.remaining("tertiary") == 0:
        return "ignored"
    return "tertiary"


def _lose_gun_box(state: DamageState, cls: str) -> tuple[DamageState, str]:
    """One box of ``cls`` lost, from the group of that class with the most boxes left (ties: first)."""
    best, best_left = -1, 0
    for i, (g, lost) in enumerate(zip(state.boxes.guns, state.guns_lost)):
        if g.cls == cls and g.boxes - lost > best_left:
            best, best_left = i, g.boxes - lost
    lost = list(state.guns_lost)
    lost[best] += 1
    return replace(state, guns_lost=tuple(lost)), state.boxes.guns[best].label


def apply_part(state: DamageState, part: str,
               penetrating: bool = True) -> tuple[DamageState, str, str | None]:
    """Apply one hit rolled on ``part``: returns the new state, where it landed (``resolve_part``) and
    the label of the gun group that lost a box, if any."""
    landed = resolve_part(state, part, penetrating)
    if landed == "hull":
        return replace(state, hull_lost=state.hull_lost + 1), landed, None
    if landed == "torpedo":
        return replace(state, torpedo_lost=True), landed, None
    if landed in GUN_CLASSES:
        new, label = _lose_gun_box(state, landed)
        return new, landed, label
    return state, landed, None


def _roll(rng: np.random.Generator, dice: int) -> int:
    return int(rng.integers(1, 7, size=dice).sum())


def _critical(state: DamageState, rng: np.random.Generator, penetrating: bool,
              r: DamageRules) -> tuple[DamageState, CriticalResult]:
    roll = _roll(rng, r.critical_dice)
    e = r.critical[roll]
    armoured = state.boxes.belt_mm is not None
    if e.armour_protects and armoured and not penetrating:
        return state, CriticalResult(roll, e.name, False)
    s = replace(state, hull_lost=state.hull_lost + e.hull_boxes,
                engine_hits=state.engine_hits + e.engine_hits,
                fire_control=state.fire_control or e.fire_control, bridge=state.bridge or e.bridge,
                magazine=state.magazine or e.sinks, criticals=(*state.criticals, e.name))
    for _ in range(e.primary_boxes):
        s, _, _ = apply_part(s, "primary", penetrating)
    return s, CriticalResult(roll, e.name, True)


def allocate(state: DamageState, hits: int, rng: np.random.Generator, plunging: bool = False, *,
             source: str = "primary", penetrating: bool = True, rules: DamageRules | None = None,
             ) -> tuple[DamageState, list[HitResult], list[CriticalResult]]:
    """Roll ``hits`` gun hits onto ``state``; return the new state, each hit, and the critical results.

    Each hit rolls the location table (stand-in, damage.yaml ``location``) and is redistributed by
    ``resolve_part``. ``source`` is the class of the guns that scored it: tertiary hits give no critical
    damage (seed 003 line 11). ``plunging`` says the hits were scored at long range (``is_plunging``):
    a primary-gun hit rolling the trigger (10) then destroys one more hull box unless the hull is
    framed (seed 003 line 15). ``penetrating`` says the guns pierce the target's belt (``penetrates``):
    it decides the exhausted-secondary rule and whether armour stops a critical. Hits on a sunk ship
    are lost.
    """
    r = rules or load_rules()
    results: list[HitResult] = []
    crits: list[CriticalResult] = []
    for _ in range(hits):
        if state.sunk:
            break
        roll = _roll(rng, r.location_dice)
        part, critical = r.location[roll]
        state, landed, label = apply_part(state, part, penetrating)
        extra = 0
        if (plunging and source == r.plunging_source_class and roll == r.plunging_trigger_roll
                and not state.boxes.framed):
            extra = r.plunging_extra_hull_boxes
            state = replace(state, hull_lost=state.hull_lost + extra)
        gives_critical = critical and source not in r.no_critical_from
        results.append(HitResult(roll, part, landed, label, extra, gives_critical))
        if gives_critical and not state.sunk:
            state, c = _critical(state, rng, penetrating, r)
            crits.append(c)
    return state, results, crits


def lose_guns(state: DamageState, gunnery_at_most: float, rng: np.random.Generator,
              rules: DamageRules | None = None) -> tuple[DamageState, list[str]]:
    """Knock out gun boxes until ``gunnery_fraction`` is at most ``gunnery_at_most``; return the new
    state and the labels of the groups that lost a box, in order.

    For engines whose own rules say how much gunnery a hit costs but not which guns (the board game's
    G/P boxes): each box lost is a gun hit, its class drawn with the odds of the gun rows of the
    location table among the classes with boxes left (a class used up is passed over: the hit is on
    the guns by the engine's rule, so 8.6's turn to the hull does not apply).
    """
    r = rules or load_rules()
    odds = r.part_odds()
    lost: list[str] = []
    while gunnery_fraction(state, r) > gunnery_at_most + _EPS:
        live = [c for c in GUN_CLASSES if state.remaining(c) > 0]
        if not live:
            break
        w = np.array([odds[c] for c in live])
        cls = live[int(rng.choice(len(live), p=w / w.sum()))]
        state, label = _lose_gun_box(state, cls)
        lost.append(label)
    return state, lost


# ----------------------------------------------------------------------------------------------------
# Onto the common Condition


def _weight(g: GunBoxes, r: DamageRules) -> float:
    return g.calibre_mm ** r.weight_exponent


def gunnery_fraction(state: DamageState, rules: DamageRules | None = None) -> float:
    """Fraction of her offensive power left: gun boxes in action weighted by shell weight (calibre
    cubed, stand-in), halved by a fire-control critical; 0 if sunk; 1 for a ship without guns (she
    has lost nothing)."""
    r = rules or load_rules()
    if state.sunk:
        return 0.0
    total = sum(g.boxes * _weight(g, r) for g in state.boxes.guns)
    if total <= 0.0:
        return 1.0
    left = sum((g.boxes - lost) * _weight(g, r) for g, lost in zip(state.boxes.guns, state.guns_lost))
    return left / total * (r.fire_control_factor if state.fire_control else 1.0)


def hull_fraction(state: DamageState) -> float:
    """Fraction of what it takes to sink her: hull boxes lost over hull boxes (1 if sunk)."""
    return 1.0 if state.sunk else min(1.0, state.hull_lost / state.boxes.hull)


def speed_fraction(state: DamageState, rules: DamageRules | None = None) -> float:
    """Fraction of her speed left after engine and boiler criticals (stand-in loss per hit)."""
    r = rules or load_rules()
    return 0.0 if state.sunk else max(0.0, 1.0 - state.engine_hits * r.speed_loss_per_engine_hit)


def state_from_fractions(boxes: DamageBoxes, hull: float, gunnery: float,
                         rules: DamageRules | None = None) -> DamageState:
    """A state carrying damage from elsewhere: ``floor(hull * boxes)`` hull boxes lost (a box is lost
    only when its whole worth is), and every gun group losing the same share ``1 - gunnery`` of its
    boxes (rounded), so that ``gunnery_fraction`` comes back near ``gunnery``."""
    s = DamageState.fresh(boxes)
    lost = tuple(min(g.boxes, math.floor((1.0 - gunnery) * g.boxes + 0.5)) for g in boxes.guns)
    return replace(s, guns_lost=lost, hull_lost=min(boxes.hull, math.floor(hull * boxes.hull + _EPS)))
