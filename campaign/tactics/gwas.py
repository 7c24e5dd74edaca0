"""Great War at Sea's damage model (seed 003; ``campaign.tactics.damage``) in the battles of any engine.

An engine fought with ``damage: gwas`` (the board engine always, for its ships with a hit record) scores
the effect of each gunfire hit here instead of by its own rules. ``GwasLedger`` keeps every ship's
``DamageState`` through one battle; ``score`` allocates one hit: the class of the guns that scored it
(``firing_class``), whether they pierce the target's belt (``damage.penetrates``), whether it is plunging
fire (``damage.is_plunging``), then the location roll, its redistribution, the plunging fire's extra hull
box and a critical result (``damage.allocate``). It returns a ``GwasHit``, what the hit did, which the
engine carries into its own bookkeeping (her speed, her fire, her sinking), and the fields of its hit
record. What a hit is under each engine, and what each does with the effects, is argued in
``data/tactics/damage.yaml`` (``engines``).
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import numpy as np

from campaign.tactics import damage
from campaign.tactics.damage import (
    CriticalEntry,
    CriticalResult,
    DamageBoxes,
    DamageRules,
    DamageState,
    HitResult,
)
from campaign.tactics.protocol import Combatant

DAMAGE_OWN = "own"
DAMAGE_GWAS = "gwas"
#: The damage options of a battle: each engine's own rules, or Great War at Sea's damage model.
DAMAGE_CHOICES = (DAMAGE_OWN, DAMAGE_GWAS)
_EPS = 1e-9  # a share of a hit this near a whole one completes it (what rounding leaves of an equality)


def check_damage(option: str) -> str:
    """The option itself if it is one of ``DAMAGE_CHOICES``; ValueError naming the choices if not."""
    if option not in DAMAGE_CHOICES:
        raise ValueError(f"unknown damage option {option!r}: choose one of {', '.join(DAMAGE_CHOICES)}")
    return option


def firing_class(boxes: DamageBoxes, calibre_mm: float, small_gun_class: str) -> str:
    """The class of a firer's guns of ``calibre_mm`` (damage.yaml ``engines``): the class her own gun
    boxes give that calibre; a gun too small to have boxes scores as ``small_gun_class``."""
    return next((g.cls for g in boxes.guns if g.calibre_mm == calibre_mm), small_gun_class)


@dataclass(frozen=True)
class GwasHit:
    """What one hit did: the location ``result`` (with the plunging fire's extra boxes), the critical
    result rolled (None if none) and its table row if it took effect, the class and calibre of the guns
    that scored it and the range (yd), whether they pierced her belt, whether it was long-range fire from
    primary guns, the gun groups that lost a box (in order), the hull boxes lost in all, and her state
    before and after it."""

    result: HitResult
    critical: CriticalResult | None
    critical_entry: CriticalEntry | None
    source: str
    calibre_mm: float
    range_yd: float
    penetrating: bool
    plunging: bool
    guns_lost: tuple[str, ...]
    hull_boxes_lost: int
    before: DamageState
    after: DamageState

    @property
    def engine_hits(self) -> int:
        """Engine and boiler criticals this hit gave."""
        return self.after.engine_hits - self.before.engine_hits

    @property
    def torpedo_mounts_lost(self) -> bool:
        """Whether this hit destroyed her torpedo mounts (seed 003, 8.62)."""
        return self.after.torpedo_lost and not self.before.torpedo_lost

    @property
    def sunk(self) -> bool:
        return self.after.sunk

    def fields(self) -> dict[str, Any]:
        """The hit record's fields of the damage model (``damage_model`` "gwas")."""
        c = self.critical
        return {
            "damage_model": DAMAGE_GWAS, "firing_class": self.source, "calibre_mm": self.calibre_mm,
            "range_yd": round(self.range_yd, 1), "penetrating": self.penetrating,
            "location_roll": self.result.roll, "location": self.result.part,
            "landed": self.result.landed, "guns_lost": list(self.guns_lost),
            "plunging_hull_boxes": self.result.plunging_boxes,
            "critical": None if c is None else c.name, "critical_roll": None if c is None else c.roll,
            "critical_applied": None if c is None else c.applied,
            "hull_boxes_lost": self.hull_boxes_lost,
            "hull_boxes_left": max(0, self.after.boxes.hull - self.after.hull_lost),
        }


def _guns_lost(before: DamageState, after: DamageState) -> tuple[str, ...]:
    out: list[str] = []
    for g, a, b in zip(after.boxes.guns, before.guns_lost, after.guns_lost):
        out += [g.label] * (b - a)
    return tuple(out)


def jane_hit_share(rules: DamageRules, calibre_mm: float, boxes: DamageBoxes, displacement_t: float) -> float:
    """The share of one hit of the model that one shell of ``calibre_mm`` striking a ship of
    ``displacement_t`` with ``boxes`` is worth under Jane's game (damage.yaml, ``engines``, jane): its weight
    (calibre cubed) over ``jane_reference_shells_per_hit`` reference shells, scaled up for a ship whose hull
    boxes are each under ``tonnes_per_hull_box``."""
    weight = (calibre_mm / rules.jane_reference_calibre_mm) ** rules.weight_exponent
    box_t = displacement_t / boxes.hull
    return weight / rules.jane_reference_shells_per_hit * max(1.0, rules.tonnes_per_hull_box / box_t)


class GwasLedger:
    """Every ship's ``DamageState`` through one battle, by name, and the shares of a hit owed towards the
    next whole one (``owe``). A ship carrying damage from an earlier fight begins with it
    (``damage.state_from_fractions`` of her ``Condition``'s damage and gunnery)."""

    def __init__(self, combatants: Iterable[Combatant], rules: DamageRules | None = None) -> None:
        self.rules = rules or damage.load_rules()
        self.small_gun_class = self.rules.small_gun_class
        self.states: dict[str, DamageState] = {}
        self.owed: dict[tuple[str, ...], float] = {}
        for c in combatants:
            boxes = DamageBoxes.from_ship(c.ship, self.rules)
            cond = c.condition
            carried = cond.damage > 0.0 or cond.gunnery < 1.0
            self.states[c.name] = (damage.state_from_fractions(boxes, min(1.0, cond.damage), cond.gunnery,
                                                               self.rules)
                                   if carried else DamageState.fresh(boxes))

    def state(self, name: str) -> DamageState:
        return self.states[name]

    def owe(self, key: tuple[str, ...], share: float) -> int:
        """Add ``share`` of a hit to what ``key`` (a firer, her guns, a target) has scored towards whole
        hits; return the whole hits now completed (taken off what is owed)."""
        owed = self.owed.get(key, 0.0) + share
        whole = math.floor(owed + _EPS)
        self.owed[key] = max(0.0, owed - whole)
        return whole

    def guns_in_action(self, name: str) -> list[tuple[str, float, int]]:
        """Her gun groups with boxes left: (label, calibre mm, boxes left), in her ship's order."""
        s = self.states[name]
        return [(g.label, g.calibre_mm, g.boxes - lost) for g, lost in zip(s.boxes.guns, s.guns_lost)
                if g.boxes - lost > 0]

    def largest_calibre_in_action(self, name: str) -> float:
        """The calibre (mm) of her heaviest guns still in action; 0 if none are."""
        return max((cal for _, cal, _ in self.guns_in_action(name)), default=0.0)

    def lost_every_gun(self, name: str) -> bool:
        """Whether she began with gun boxes and has lost them all (she can fire no more)."""
        s = self.states[name]
        return s.boxes.has_guns and not self.guns_in_action(name)

    def score(self, target: str, firer: str, calibre_mm: float, range_yd: float,
              rng: np.random.Generator) -> GwasHit:
        """One gunfire hit on ``target`` by ``firer``'s guns of ``calibre_mm`` at ``range_yd``: allocated by
        the model (module docstring); her state is updated. The target must be afloat in the model."""
        r = self.rules
        before = self.states[target]
        if before.sunk:
            raise ValueError(f"{target} is already sunk in the damage model: a hit on her is lost")
        source = firing_class(self.states[firer].boxes, calibre_mm, self.small_gun_class)
        pen = damage.penetrates(calibre_mm, before.boxes, r)
        plunging = damage.is_plunging(source, range_yd, r)
        after, results, crits = damage.allocate(before, 1, rng, plunging, source=source, penetrating=pen,
                                                rules=r)
        self.states[target] = after
        crit = crits[0] if crits else None
        entry = r.critical[crit.roll] if crit is not None and crit.applied else None
        return GwasHit(results[0], crit, entry, source, calibre_mm, range_yd, pen, plunging,
                       _guns_lost(before, after),
                       after.hull_lost - before.hull_lost, before, after)
