"""The 1905 game with Great War at Sea's damage model (``damage: gwas``; ``campaign.tactics.gwas``).

The 1905 rules score fire as points (seed 002 l.39-45); the damage model needs hits. The fire is kept:
who fires at whom and the points her fire scores. The points each firer scores on each target are
counted through the battle, and each time they reach ``points_per_hit`` (her fighting endurance times
the share of the location table that falls on the hull, over her hull boxes:
``data/tactics/damage.yaml``, ``engines``) one hit is allocated by the model, scored by a group of the
firer's guns bearing on her, reaching her and still in action, drawn in proportion to their value in
8-inch guns (seed 002 l.47-49). The model's effects become the ship's bookkeeping (``nwc1905._Ship``):
hull boxes lost are her damage beside the points a torpedo or a ram gave her, and she is destroyed when
the two make her whole fighting endurance or the model sinks her; the model's ``gunnery_fraction`` caps
her offensive factor; its engine criticals take their share of her speed; torpedo mounts destroyed empty
her tubes for the rest of the battle.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING

import numpy as np

from campaign.tactics.damage import gunnery_fraction, hull_fraction, speed_fraction
from campaign.tactics.gwas import DAMAGE_GWAS, GwasLedger
from campaign.tactics.kinematics import relative_bearing_deg
from campaign.tactics.nwc1905_fire import gun_class, guns_in_reach
from campaign.tactics.nwc1905_rules import Nwc1905Rules
from campaign.tactics.protocol import TickEvent

if TYPE_CHECKING:  # the battle's bookkeeping: only read and written here, never built
    from campaign.tactics.nwc1905 import _Ship


def points_per_hit(endurance: float, hull_boxes: int, hull_share: float) -> float:
    """Points that make one hit of the damage model on a ship of ``endurance`` points and ``hull_boxes``
    hull boxes, ``hull_share`` of the location table falling on the hull (damage.yaml, engines)."""
    return endurance * hull_share / hull_boxes


class NwcGwas:
    """The damage model's ledger of one 1905 battle and each firer's points owed towards the next hit."""

    def __init__(self, ledger: GwasLedger, rules: Nwc1905Rules, ships: Mapping[str, _Ship]) -> None:
        self.ledger, self.rules = ledger, rules
        share = ledger.rules.part_odds()["hull"]
        self.per_hit = {n: points_per_hit(s.endurance, ledger.state(n).boxes.hull, share)
                        for n, s in ships.items()}
        for s in ships.values():
            self.refresh(s)

    def refresh(self, s: _Ship) -> None:
        """Her bookkeeping from her state in the model: hull fraction, gunnery, speed, sunk."""
        st = self.ledger.state(s.c.name)
        s.gwas_hull = hull_fraction(st)
        s.gwas_gunnery = gunnery_fraction(st, self.ledger.rules)
        s.gwas_speed = speed_fraction(st, self.ledger.rules)
        s.gwas_sunk = st.sunk

    def _calibre(self, firer: _Ship, target: _Ship, range_yd: float, rng: np.random.Generator) -> float:
        """The calibre (mm) of the guns that scored a hit: a group of hers bearing on ``target``, reaching
        her at ``range_yd`` (``nwc1905_fire.guns_in_reach``) and still in action (or too small to have
        boxes), drawn by value in 8-inch guns; her heaviest such if none counts."""
        left = {label: n for label, _, n in self.ledger.guns_in_action(firer.c.name)}
        boxed = {g.label for g in self.ledger.state(firer.c.name).boxes.guns}
        rel = float(relative_bearing_deg(firer.course, firer.x, firer.y, target.x, target.y))
        groups = [(g, n) for g, n in guns_in_reach(firer.c.ship, rel, range_yd)
                  if n > 0 and (g.label not in boxed or left.get(g.label, 0) > 0)]
        if not groups:
            return self.ledger.largest_calibre_in_action(firer.c.name)
        weights = np.array([n * gc.value_8in if (gc := gun_class(self.rules, g.calibre_mm)) else 0.0
                            for g, n in groups])
        if weights.sum() <= 0.0:
            return max(g.calibre_mm for g, _ in groups)
        return groups[int(rng.choice(len(groups), p=weights / weights.sum()))][0].calibre_mm

    def gunfire(self, target: _Ship, firer: _Ship, points: float, range_yd: float, t_s: float,
                rng: np.random.Generator) -> list[TickEvent]:
        """``points`` of ``firer``'s fire on ``target`` in a move: the whole hits they complete, each
        allocated by the model, as hit events (the points shared among them), or one hit event with
        ``model_hit`` False if they complete none; hits on a ship the model has sunk are lost."""
        per_hit = self.per_hit[target.c.name]
        share = points / per_hit
        whole = self.ledger.owe((firer.c.name, target.c.name), share)
        base = {"cause": "gunfire", "damage_model": DAMAGE_GWAS, "hit_share": round(share, 5)}
        if not whole:
            return [TickEvent(t_s, "hit", target.c.name, firer.c.name, MappingProxyType({
                **base, "model_hit": False, "points": round(points, 3), "damage": 0.0,
                "damage_total": round(target.damage, 5)}))]
        events = []
        for _ in range(whole):
            if self.ledger.state(target.c.name).sunk:
                break
            calibre = self._calibre(firer, target, range_yd, rng)
            h = self.ledger.score(target.c.name, firer.c.name, calibre, range_yd, rng)
            self.refresh(target)
            if h.torpedo_mounts_lost:
                target.tubes.empty(len(target.tubes.tubes))
            events.append(TickEvent(t_s, "hit", target.c.name, firer.c.name, MappingProxyType({
                **base, "model_hit": True, "points": round(points / whole, 3), "part": h.result.landed,
                **h.fields(), "damage": round(h.hull_boxes_lost / h.after.boxes.hull, 5),
                "damage_total": round(target.damage, 5)})))
        return events
