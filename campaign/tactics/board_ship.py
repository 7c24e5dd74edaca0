"""One ship's bookkeeping in a battle of the 'board' engine (``campaign.tactics.board``).

``BoardShip`` keeps what the battle changes of a ship: her place, course and speed on the plane (moved
there by the plane alone), her hit record (G/P, speed and further boxes filled, or for a ship without a
card whether she is sunk and the fire level she carried in), her fast chase speed (her counter's, where
the game prints one) and endurance-chart uses, and what the damage model's criticals added to her die.
Her gun boxes in the damage model are the battle's (``campaign.tactics.gwas.GwasLedger``). Its methods
read the hit record through the rules of ``campaign.tactics.board_rules``: her fire modifier, the speed
her boxes leave her, her chase speed and her fighting value.
"""

from __future__ import annotations

from campaign.model.guns import longest_reach_yd
from campaign.tactics.board_rules import (
    BoardRules,
    boxes_take_fast_speed,
    card_modifier,
    carried_boxes,
    carried_modifier,
    speed_cap_kn,
)
from campaign.tactics.protocol import Combatant


class BoardShip:
    """One ship's state in a board battle (mutable, owned by the battle)."""

    __slots__ = (
        "btype", "c", "calibre", "card", "carry_mod", "chart", "coaling", "counter_kn", "course", "extra",
        "fast_kn", "fast_ok", "fast_time_s", "fast_uses", "fire_penalty", "gp", "gp0", "gun_range", "guns",
        "index", "max_kn", "merchant", "name", "rank", "side", "spd", "speed", "sunk", "x", "y",
    )

    def __init__(self, c: Combatant, index: int, r: BoardRules) -> None:
        ship = c.ship
        self.c, self.name, self.side, self.index = c, c.name, c.side, index
        self.btype = r.board_type[ship.type]
        self.rank = r.ranks[self.btype]
        self.card = next((r.cards[n] for n in (ship.name, *ship.aka) if n in r.cards), None)
        self.chart = next((r.charts[n] for n in (ship.name, *ship.aka) if n in r.charts), None)
        # The fast chase speed her counter prints (seed 000, 'Fast Chase Speed'), None where it prints none.
        self.counter_kn = r.counter_kn.get(ship.name)
        self.fire_penalty = 0  # added to her die by the damage model's fire-control critical
        self.x, self.y, self.course, self.speed = c.x_yd, c.y_yd, c.course_deg, c.speed_kn
        self.max_kn, self.fast_kn = c.max_speed_kn, c.fast_speed_kn
        self.merchant = ship.is_merchant
        self.calibre = max((g.calibre_mm for g in ship.guns if g.count > 0), default=0.0)
        self.guns = not self.merchant and self.calibre > 0.0
        self.gun_range = longest_reach_yd(ship) if self.guns else 0.0  # data/guns.yaml
        self.sunk = c.condition.sunk
        self.fast_ok = c.fast_speed_kn is not None and not c.condition.fast_speed_lost
        self.fast_uses, self.fast_time_s = 0, 0.0
        self.coaling = False
        self.gp = self.spd = self.extra = 0
        self.carry_mod: int | None = 0
        if self.card is not None:
            self.gp, self.spd, self.extra = carried_boxes(r, self.card, ship.sustained_speed_kn, c.condition)
        else:
            self.carry_mod = carried_modifier(r, c.condition.gunnery)
        self.gp0 = self.gp

    # -- the hit record ---------------------------------------------------------------------------

    def modifier(self, r: BoardRules) -> int | None:
        """Her G/P fire modifier, None if she cannot fire (NF, no guns, sunk)."""
        if self.sunk or not self.guns:
            return None
        m = card_modifier(r, self.card, self.gp) if self.card is not None else self.carry_mod
        return None if m is None else m + self.fire_penalty

    def hits_to_sink(self) -> int:
        return self.card.boxes if self.card is not None else 1

    def hits_taken(self) -> int:
        if self.card is None:
            return 1 if self.sunk else 0
        return self.gp + self.spd + self.extra

    def speed_cap_kn(self, r: BoardRules) -> float:
        """The most her speed boxes let her make (inf if none filled)."""
        return speed_cap_kn(r, self.card, self.spd)

    def fast_available(self, r: BoardRules) -> bool:
        """Whether she still has her fast chase speed: not lost on her endurance chart nor to a -FS box."""
        return self.fast_ok and not boxes_take_fast_speed(r, self.card, self.spd)

    def max_speed(self, r: BoardRules) -> float:
        """The most she can make now (kn): her entry maximum within what her speed boxes allow. She never
        steams faster on the plane; her fast chase speed is the escape roll's figure only."""
        return 0.0 if self.sunk else max(0.0, min(self.max_kn, self.speed_cap_kn(r)))

    def chase_speed(self, r: BoardRules) -> float:
        """Seed 000 'Fast Chase Speed' (data/tactics/board.yaml, chase and counters): while she has fast
        speed, the figure her counter prints, or where the game prints none Combatant.fast_speed_kn (the
        ships' sustained speed); without it her max_speed_kn, never above her counter's figure (her
        "actual maximum effort"); within what her speed boxes allow."""
        if self.counter_kn is not None:
            base = self.counter_kn if self.fast_available(r) else min(self.counter_kn, self.max_kn)
        else:
            base = max(self.fast_kn, self.max_kn) if self.fast_available(r) else self.max_kn
        return 0.0 if self.sunk else max(0.0, min(base, self.speed_cap_kn(r)))

    def fighting_value(self, r: BoardRules) -> float:
        """Expected hits per round she can still deal (unmodified by rank) times the hits she can still
        take: 0 for a ship sunk or unable to fire."""
        m = self.modifier(r)
        return 0.0 if m is None else r.expected_hits(m) * (self.hits_to_sink() - self.hits_taken())
