"""The 'board' engine: combat and chase rules of the 1914 board game "The Flight of the Goeben" (seed 000).

The board game fights once per six-hour turn between enemy ships in one square: one die per ship on the
combat results table, modified by the firer's gunnery hits and by how far the target outranks her; no
ship fires on one that outranks her while a lower-ranking enemy remains; like fires on like, spread
evenly; hits on the few ships
with a hit record fill gunnery/protection (G/P) or speed boxes by an odd or even die, all others sink on
one hit. A side that runs compares fast chase speeds with a die to escape. Here a battle is a run of
rounds, one per tick (``data/tactics/board.yaml`` ``round``, a stand-in length): each round the ships
exchange the board's fire, move on the plane at their helm orders (no turning or speed-change limits:
the board has none), and a running side rolls to escape. On the plane, "in the same square" is contact:
enemy ships in sight at the start or, later, within gun range; while in contact the range is kept in a
band, and a pursuer that stays up is moved with the chased (the board's chase rule); a side that
escapes is moved beyond visibility so the driver sees it gone.

G/P hits on ships with gun groups also knock out guns through ``campaign.tactics.damage`` (``lose_guns``):
as many gun boxes as bring her gunnery, as the damage model weighs it, down to the board's level for her
G/P boxes; the hit event names them. Every rule and number is in ``data/tactics/board.yaml`` with its line.
"""

from __future__ import annotations

import functools
import math
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any, Protocol

import numpy as np
import yaml

from campaign.paths import DATA_DIR
from campaign.tactics import damage
from campaign.tactics.kinematics import angle_diff_deg, bearing_deg, yd_per_s
from campaign.tactics.protocol import (
    BattleSetup,
    Combatant,
    Condition,
    HelmOrder,
    Setting,
    ShipView,
    TickEvent,
)

BOARD_FILE = DATA_DIR / "tactics" / "board.yaml"
_EPS = 1e-9


# ----------------------------------------------------------------------------------------------------
# Rules


@dataclass(frozen=True)
class BoxEffect:
    """What filling a hit-record box does (seed 000, 'Hit Records': +1/+2, NF, -FS, -1, -2)."""

    fire_modifier: int = 0
    no_fire: bool = False
    fast_speed_lost: bool = False
    squares_per_turn: int | None = None


@dataclass(frozen=True)
class HitCard:
    """A ship's hit record: her G/P boxes and speed boxes in the order they fill."""

    gp: tuple[str, ...]
    speed: tuple[str, ...]

    @property
    def boxes(self) -> int:
        return len(self.gp) + len(self.speed)


@dataclass(frozen=True)
class EnduranceChart:
    """An endurance chart: ``squares`` long; ``rolls[square]`` the highest die that keeps fast speed."""

    squares: int
    rolls: Mapping[int, int]

    def needed(self, use: int) -> int | None:
        """Highest die roll that keeps fast speed at the ``use``-th use (1-based), None if no roll is
        needed; past the last square its roll is needed every time (seed 000, 'Endurance')."""
        return self.rolls.get(min(use, self.squares))


@dataclass(frozen=True)
class BoardRules:
    """The figures of ``data/tactics/board.yaml`` (each cited there)."""

    round_s: float
    move_step_s: float
    min_range_yd: float
    separation_margin_yd: float
    running_arc_deg: float
    gun_ranges: tuple[tuple[float, float], ...]  # (min calibre mm, range yd), largest first
    die_faces: int
    crt: Mapping[int, int]
    per_gp_hit: int
    per_rank_above: int
    towed: int
    coaling: int
    coaling_max_speed_kn: float
    ranks: Mapping[str, int]
    board_type: Mapping[str, str]
    cards: Mapping[str, HitCard]
    boxes: Mapping[str, BoxEffect]
    odd_roll: str
    one_square_kn: float
    fast_use_interval_s: float
    charts: Mapping[str, EnduranceChart]
    sunk_on_contact: frozenset[str]

    def hits(self, modified_roll: int) -> int:
        """Hits for a modified die roll on the combat results table (above the table's top: a miss)."""
        return self.crt.get(min(modified_roll, max(self.crt)), 0)

    def expected_hits(self, modifier: int) -> float:
        """Mean hits of one die at ``modifier``."""
        return sum(self.hits(d + modifier) for d in range(1, self.die_faces + 1)) / self.die_faces

    def gunnery_level(self, modifier: int | None) -> float:
        """Offensive power at a fire modifier, as a fraction of an undamaged ship's: expected hits at
        the modifier over expected hits unmodified (+1 -> 1/2, +2 -> 1/4); None (no fire) -> 0."""
        return 0.0 if modifier is None else self.expected_hits(modifier) / self.expected_hits(0)

    def gun_range_yd(self, calibre_mm: float) -> float:
        return next((r for c, r in self.gun_ranges if calibre_mm >= c), 0.0)


def load_rules(path: str | Path = BOARD_FILE) -> BoardRules:
    """Read a board-rules file (cached per path)."""
    return _load_rules(Path(path).resolve())


@functools.cache
def _load_rules(path: Path) -> BoardRules:
    raw = yaml.safe_load(path.read_text(encoding="utf-8"))
    rnd, pl, mod, hr, sp = raw["round"], raw["plane"], raw["modifiers"], raw["hit_records"], raw["speed"]
    boxes = {str(k): BoxEffect(**v) for k, v in hr["boxes"].items()}
    cards = {k: HitCard(tuple(v["gp"]), tuple(v["speed"])) for k, v in hr["cards"].items()}
    for name, card in cards.items():
        if any(b not in boxes for b in (*card.gp, *card.speed)):
            raise ValueError(f"{path}: hit card {name!r} names a box not in hit_records.boxes")
    return BoardRules(
        round_s=float(rnd["length_min"]) * 60.0,
        move_step_s=float(rnd["move_step_min"]) * 60.0,
        min_range_yd=float(pl["min_range_yd"]),
        separation_margin_yd=float(pl["separation_margin_yd"]),
        running_arc_deg=float(pl["running_arc_deg"]),
        gun_ranges=tuple(sorted(((float(g["min_calibre_mm"]), float(g["range_yd"]))
                                 for g in raw["gun_range_yd"]), reverse=True)),
        die_faces=int(raw["crt"]["die_faces"]),
        crt=MappingProxyType({int(k): int(v) for k, v in raw["crt"]["hits"].items()}),
        per_gp_hit=int(mod["per_gp_hit"]), per_rank_above=int(mod["per_rank_above"]),
        towed=int(mod["towed"]), coaling=int(mod["coaling"]),
        coaling_max_speed_kn=float(mod["coaling_max_speed_kn"]),
        ranks=MappingProxyType({str(k): int(v) for k, v in raw["ranks"].items()}),
        board_type=MappingProxyType(dict(raw["board_type"])),
        cards=MappingProxyType(cards), boxes=MappingProxyType(boxes), odd_roll=str(hr["odd_roll"]),
        one_square_kn=float(sp["reference_fast_chase_speed_kn"]) / float(sp["fast_squares_per_turn"]),
        fast_use_interval_s=float(raw["chase"]["fast_use_interval_h"]) * 3600.0,
        charts=MappingProxyType({k: EnduranceChart(int(v["squares"]), MappingProxyType(
            {int(s): int(n) for s, n in v["rolls"].items()})) for k, v in raw["endurance_charts"].items()}),
        sunk_on_contact=frozenset(raw["colliers"]["sunk_on_contact"]),
    )


# ----------------------------------------------------------------------------------------------------
# The rules as functions


def fire_modifier(rules: BoardRules, gp_modifier: int, firer_rank: int, target_rank: int, *,
                  towed: bool = False, coaling: bool = False) -> int:
    """Die modifier of one firer (seed 000, 'Combat'): her G/P boxes, +1 for each rank the target stands
    above her (rank 1 highest), +1 if she is towed ('Towing'), +1 if caught coaling ('Colliers')."""
    return (gp_modifier * rules.per_gp_hit + max(0, firer_rank - target_rank) * rules.per_rank_above
            + (rules.towed if towed else 0) + (rules.coaling if coaling else 0))


def escapes(die: int, chased_kn: float, chaser_kn: float) -> bool:
    """Seed 000, 'Fast Chase Speed': the chased escape a chaser if the die is at most their fast chase
    speed less the chaser's ("If the difference were 2, one or two would have to be rolled")."""
    return die <= chased_kn - chaser_kn


class _Ranked(Protocol):
    btype: str
    rank: int


def may_fire_on(firer: _Ranked, target: _Ranked, enemies: Sequence[_Ranked]) -> bool:
    """Seed 000, 'Combat': a ship may never fire on a ship ranking above her while an enemy of lower
    rank than that ship remains (rank 1 highest)."""
    return target.rank >= firer.rank or not any(e.rank > target.rank for e in enemies)


def assign_targets(firers: Sequence[_Ranked],
                   enemies_of: Mapping[int, Sequence[_Ranked]]) -> dict[int, _Ranked]:
    """Each firer's target, chosen before any fire (seed 000, 'Combat'): among the enemies she may fire
    on (``may_fire_on``), ships fire on their own type if it is there ("three ships of type 'X' ... would
    all have to fire on 'X' type ships if possible"); the others on the type that has drawn the fewest
    firers so far (ties: nearest in rank, then first met), so fire is "distributed evenly among types";
    within a type on the ship with the fewest firers ("as evenly as possible among similar enemy ships").
    ``enemies_of`` maps ``id(firer)`` to the enemies in contact with her; returns ``{id(firer): target}``.
    """
    eligible = {id(f): [e for e in enemies_of.get(id(f), ()) if may_fire_on(f, e, enemies_of[id(f)])]
                for f in firers}
    like = [f for f in firers if any(e.btype == f.btype for e in eligible[id(f)])]
    like_ids = {id(f) for f in like}
    rest = [f for f in firers if id(f) not in like_ids]
    per_type: Counter[str] = Counter()
    per_ship: Counter[int] = Counter()
    out: dict[int, _Ranked] = {}
    for f in like + rest:
        el = eligible[id(f)]
        if not el:
            continue
        first = {}
        for k, e in enumerate(el):
            first.setdefault(e.btype, (k, e.rank))
        ty = f.btype if f.btype in first else min(
            first, key=lambda t: (per_type[t], abs(first[t][1] - f.rank), first[t][0]))
        target = min((e for e in el if e.btype == ty), key=lambda e: per_ship[id(e)])
        per_type[ty] += 1
        per_ship[id(target)] += 1
        out[id(f)] = target
    return out


# ----------------------------------------------------------------------------------------------------
# A ship in battle (the engine's bookkeeping)


class _Ship:
    """One ship's state in a board battle (mutable, private to a battle)."""

    __slots__ = (
        "btype",
        "c",
        "calibre",
        "card",
        "carry_mod",
        "chart",
        "coaling",
        "course",
        "dstate",
        "extra",
        "fast_kn",
        "fast_ok",
        "fast_time_s",
        "fast_uses",
        "gp",
        "gp0",
        "gun_range",
        "guns",
        "index",
        "max_kn",
        "merchant",
        "name",
        "rank",
        "side",
        "spd",
        "speed",
        "sunk",
        "x",
        "y",
    )

    def __init__(self, c: Combatant, index: int, r: BoardRules, dr: damage.DamageRules) -> None:
        ship = c.ship
        self.c, self.name, self.side, self.index = c, c.name, c.side, index
        self.btype = r.board_type[ship.type]
        self.rank = r.ranks[self.btype]
        self.card = next((r.cards[n] for n in (ship.name, *ship.aka) if n in r.cards), None)
        self.chart = next((r.charts[n] for n in (ship.name, *ship.aka) if n in r.charts), None)
        self.x, self.y, self.course, self.speed = c.x_yd, c.y_yd, c.course_deg, c.speed_kn
        self.max_kn, self.fast_kn = c.max_speed_kn, c.fast_speed_kn
        self.merchant = ship.is_merchant
        self.calibre = max((g.calibre_mm for g in ship.guns if g.count > 0), default=0.0)
        self.guns = not self.merchant and self.calibre > 0.0
        self.gun_range = r.gun_range_yd(self.calibre) if self.guns else 0.0
        self.sunk = c.condition.sunk
        self.fast_ok = c.fast_speed_kn is not None and not c.condition.fast_speed_lost
        self.fast_uses, self.fast_time_s = 0, 0.0
        self.coaling = False
        self.gp = self.spd = self.extra = 0
        self.carry_mod: int | None = 0
        cond = c.condition
        if self.card is not None:
            levels = [r.gunnery_level(_card_modifier(r, self.card, k)) for k in range(len(self.card.gp) + 1)]
            self.gp = min(range(len(levels)), key=lambda k: abs(levels[k] - cond.gunnery))
            damaged_kn = ship.sustained_speed_kn - cond.speed_lost_kn  # weather is not damage
            self.spd = _carried_speed_boxes(r, self.card, damaged_kn, cond.fast_speed_lost)
            if self.gp + self.spd >= self.card.boxes and not self.sunk:
                self.spd = max(0, self.card.boxes - 1 - self.gp)  # afloat: at least one box open
            wanted = math.floor(cond.damage * self.card.boxes + _EPS)
            self.extra = max(0, min(wanted, self.card.boxes - 1) - self.gp - self.spd)
        else:
            mods: list[int | None] = [m for m in range(r.die_faces) if r.expected_hits(m) > 0] + [None]
            self.carry_mod = min(mods, key=lambda m: abs(r.gunnery_level(m) - cond.gunnery))
        self.gp0 = self.gp
        self.dstate = (damage.DamageState.fresh(damage.DamageBoxes.from_ship(ship, dr))
                       if self.card is not None and ship.guns else None)

    # -- the hit record ---------------------------------------------------------------------------

    def modifier(self, r: BoardRules) -> int | None:
        """Her G/P fire modifier, None if she cannot fire (NF, no guns, sunk)."""
        if self.sunk or not self.guns:
            return None
        return _card_modifier(r, self.card, self.gp) if self.card is not None else self.carry_mod

    def hits_to_sink(self) -> int:
        return self.card.boxes if self.card is not None else 1

    def hits_taken(self) -> int:
        if self.card is None:
            return 1 if self.sunk else 0
        return self.gp + self.spd + self.extra

    def speed_cap_kn(self, r: BoardRules) -> float:
        """The most her speed boxes let her make (inf if none filled)."""
        cap = math.inf
        for label in (self.card.speed[:self.spd] if self.card is not None else ()):
            n = r.boxes[label].squares_per_turn
            if n is not None:
                cap = min(cap, n * r.one_square_kn)
        return cap

    def fast_available(self, r: BoardRules) -> bool:
        filled = self.card.speed[:self.spd] if self.card is not None else ()
        return self.fast_ok and not any(r.boxes[b].fast_speed_lost for b in filled)

    def max_speed(self, r: BoardRules) -> float:
        return 0.0 if self.sunk else max(0.0, min(self.max_kn, self.speed_cap_kn(r)))

    def chase_speed(self, r: BoardRules) -> float:
        """Seed 000 'Fast Chase Speed': Combatant.fast_speed_kn while she has fast speed, else her
        max_speed_kn; within what her speed boxes allow."""
        base = max(self.fast_kn, self.max_kn) if self.fast_available(r) else self.max_kn
        return 0.0 if self.sunk else max(0.0, min(base, self.speed_cap_kn(r)))

    def fighting_value(self, r: BoardRules) -> float:
        """Expected hits per round she can still deal (unmodified by rank) times the hits she can still
        take: 0 for a ship sunk or unable to fire."""
        m = self.modifier(r)
        return 0.0 if m is None else r.expected_hits(m) * (self.hits_to_sink() - self.hits_taken())


def _card_modifier(r: BoardRules, card: HitCard, gp: int) -> int | None:
    if gp == 0:
        return 0
    e = r.boxes[card.gp[gp - 1]]
    return None if e.no_fire else e.fire_modifier


def _carried_speed_boxes(r: BoardRules, card: HitCard, max_kn: float, fast_lost: bool) -> int:
    """Speed boxes that explain a carried speed: the last box whose cap she is down to (or -FS if she
    has lost fast speed)."""
    n = 0
    for k, label in enumerate(card.speed, 1):
        e = r.boxes[label]
        if e.squares_per_turn is not None and max_kn <= e.squares_per_turn * r.one_square_kn + _EPS:
            n = k
        elif e.fast_speed_lost and fast_lost:
            n = max(n, k)
    return n


# ----------------------------------------------------------------------------------------------------
# The engine


class BoardEngine:
    """The 1914 board game's combat and chase (seed 000) as a tactical engine."""

    name = "board"

    def __init__(self, rules: BoardRules | None = None,
                 damage_rules: damage.DamageRules | None = None) -> None:
        self.rules = rules or load_rules()
        self.damage_rules = damage_rules or damage.load_rules()

    def begin(self, setup: BattleSetup, rng: np.random.Generator) -> BoardBattle:
        return BoardBattle(setup, rng, self.rules, self.damage_rules)


@dataclass
class BoardBattle:
    """One board battle in progress (see the module docstring for a round)."""

    setup: BattleSetup
    rng: np.random.Generator
    rules: BoardRules
    damage_rules: damage.DamageRules
    t_s: float = 0.0
    round: int = 0
    ships: list[_Ship] = field(default_factory=list)
    contact: dict[tuple[int, int], float] = field(default_factory=dict)  # pair -> greatest range kept
    parted: set[tuple[int, int]] = field(default_factory=set)
    running: set[str] = field(default_factory=set)
    by_name: dict[str, _Ship] = field(default_factory=dict)

    def __post_init__(self) -> None:
        r = self.rules
        self.ships = [_Ship(c, i, r, self.damage_rules) for i, c in enumerate(self.setup.combatants)]
        self.by_name = {s.name: s for s in self.ships}
        self.running = {side for side, intent in self.setup.intents.items() if intent == "break_off"}
        for s in self.ships:  # seed 000 'Colliers': caught coaling = stopped with a collier of her force
            s.coaling = s.guns and s.speed <= r.coaling_max_speed_kn and any(
                o.c.ship.type in r.sunk_on_contact and o.c.unit == s.c.unit and not o.sunk
                for o in self.ships)
        self._update_contact(self.setup.setting, first=True)

    # -- protocol -----------------------------------------------------------------------------------

    def next_tick_s(self) -> float:
        return self.rules.round_s

    def views(self) -> list[ShipView]:
        r = self.rules
        return [ShipView(s.name, s.side, s.c.unit, s.x, s.y, s.course, 0.0 if s.sunk else s.speed,
                         s.max_speed(r), not s.sunk, s.modifier(r) is not None, s.gun_range,
                         s.fighting_value(r)) for s in self.ships]

    def settled(self) -> list[TickEvent] | None:
        return None

    def condition(self, name: str) -> Condition:
        """Her damage in common terms: damage = hits taken / hits to sink; gunnery = the board level of
        her G/P boxes (``BoardRules.gunnery_level``); speed lost = down to one square a turn (-1) or
        dead in the water (-2); fast speed lost by -FS or a failed endurance roll. Carried damage is
        kept where this battle added nothing."""
        s, r = self.by_name[name], self.rules
        cond = s.c.condition
        if s.sunk:
            return Condition(1.0, 0.0, s.max_kn + cond.speed_lost_kn, cond.fast_speed_lost, True,
                             cond.waterlogged, cond.torpedoes_fired)
        dmg = max(cond.damage, s.hits_taken() / s.hits_to_sink())
        gunnery = cond.gunnery if s.gp == s.gp0 else min(cond.gunnery, r.gunnery_level(s.modifier(r)))
        base_kn = s.max_kn + cond.speed_lost_kn
        cap = s.speed_cap_kn(r)
        lost_kn = max(cond.speed_lost_kn, base_kn - cap) if cap < math.inf else cond.speed_lost_kn
        fast_lost = cond.fast_speed_lost or (s.c.fast_speed_kn is not None and (
            not s.fast_available(r) or cap < s.c.fast_speed_kn))
        return Condition(dmg, gunnery, max(0.0, lost_kn), fast_lost, False, cond.waterlogged,
                         cond.torpedoes_fired)

    def step(self, helm: Mapping[str, HelmOrder], setting: Setting) -> list[TickEvent]:
        """One round: contact; colliers found are sunk; the exchange of fire; running sides noted from
        the helm; movement; the escape attempt of each running side."""
        t0, dt = self.t_s, self.rules.round_s
        if self.round:
            self._update_contact(setting, first=False)
        events = self._colliers(t0)
        events += self._fire(t0)
        self._note_running(helm)
        self._move(helm, dt)
        self.t_s = t0 + dt
        events += self._chase(self.t_s, setting)
        self.round += 1
        return events

    # -- contact --------------------------------------------------------------------------------------

    def _pairs(self):
        ships = self.ships
        for i, a in enumerate(ships):
            for b in ships[i + 1:]:
                if a.side != b.side:
                    yield a, b

    def _update_contact(self, setting: Setting, first: bool) -> None:
        for a, b in self._pairs():
            key = (a.index, b.index)
            if a.sunk or b.sunk or key in self.parted:
                self.contact.pop(key, None)
                continue
            rng_yd = math.hypot(a.x - b.x, a.y - b.y)
            reach = max(a.gun_range, b.gun_range)
            if rng_yd > setting.visibility_yd:
                self.contact.pop(key, None)
            elif key not in self.contact and (first or rng_yd <= reach):
                self.contact[key] = max(rng_yd, reach)

    def _enemies_in_contact(self, s: _Ship) -> list[_Ship]:
        out = []
        for (i, j) in self.contact:
            o = j if i == s.index else i if j == s.index else None
            if o is not None and not self.ships[o].sunk:
                out.append(self.ships[o])
        return sorted(out, key=lambda o: o.index)

    def _part(self, a: _Ship, b: _Ship) -> None:
        key = (min(a.index, b.index), max(a.index, b.index))
        self.parted.add(key)
        self.contact.pop(key, None)

    # -- colliers and fire ----------------------------------------------------------------------------

    def _colliers(self, t: float) -> list[TickEvent]:
        """Seed 000 'Colliers': a collier in contact with any enemy warship is sunk at once."""
        events = []
        for s in self.ships:
            if s.sunk or s.c.ship.type not in self.rules.sunk_on_contact:
                continue
            finder = next((e for e in self._enemies_in_contact(s) if not e.merchant), None)
            if finder is not None:
                s.sunk = True
                events.append(TickEvent(t, "sunk", s.name, finder.name, MappingProxyType(
                    {"rule": "collier found by an enemy combat unit", "hits_taken": 0})))
        return events

    def _fire(self, t: float) -> list[TickEvent]:
        r, rng = self.rules, self.rng
        enemies = {id(s): self._enemies_in_contact(s) for s in self.ships if not s.sunk}
        firers = [s for s in self.ships if s.modifier(r) is not None and enemies.get(id(s))]
        plan: list[tuple[_Ship, _Ship]] = []
        for side in self.setup.sides():
            mine = [s for s in firers if s.side == side]
            targets = assign_targets(mine, enemies)
            plan += [(f, targets[id(f)]) for f in mine if id(f) in targets]
        if not plan:
            return []
        dice = rng.integers(1, r.die_faces + 1, size=len(plan))
        shots = []
        for (f, tg), die in zip(plan, dice):  # all dice and modifiers before any damage: simultaneous fire
            mod = fire_modifier(r, f.modifier(r), f.rank, tg.rank, coaling=f.coaling and self.round == 0)
            shots.append((f, tg, int(die), mod, r.hits(int(die) + mod)))
        events: list[TickEvent] = []
        for f, tg, die, mod, hits in shots:
            events.append(TickEvent(t, "fire", f.name, tg.name, MappingProxyType({
                "range_yd": round(math.hypot(f.x - tg.x, f.y - tg.y), 1), "calibre_mm": f.calibre,
                "roll": die, "modifier": mod, "modified_roll": die + mod, "hits": hits})))
            for _ in range(hits):
                if tg.sunk:  # seed 000 'Combat': excess firings and hits are lost
                    break
                events += self._hit(t, tg, f)
        return events

    def _hit(self, t: float, s: _Ship, firer: _Ship) -> list[TickEvent]:
        """One hit (seed 000, 'Combat' and 'Hit Records'): a ship without a card sinks; on a card an odd
        die is a G/P hit, an even one a speed hit, the other type if that one is full; she sinks when
        every box is full."""
        r = self.rules
        data: dict[str, Any] = {}
        if s.card is None:
            s.sunk = True
            data.update(part="hull", box="sunk")
        else:
            roll = int(self.rng.integers(1, r.die_faces + 1))
            want = r.odd_roll if roll % 2 else ("speed" if r.odd_roll == "gp" else "gp")
            room = {"gp": s.gp < len(s.card.gp), "speed": s.spd < len(s.card.speed)}
            kind = want if room[want] else ("speed" if want == "gp" else "gp")
            data.update(roll=roll, redirected=kind != want)
            if kind == "gp":
                s.gp += 1
                data.update(part="gunnery", box=s.card.gp[s.gp - 1])
                if s.dstate is not None:
                    s.dstate, lost = damage.lose_guns(s.dstate, r.gunnery_level(s.modifier(r)), self.rng,
                                                      self.damage_rules)
                    data["guns_lost"] = lost
            else:
                s.spd += 1
                data.update(part="speed", box=s.card.speed[s.spd - 1])
            if s.hits_taken() >= s.card.boxes:
                s.sunk = True
        data.update(hits_taken=s.hits_taken(), hits_to_sink=s.hits_to_sink(),
                    damage=round(s.hits_taken() / s.hits_to_sink(), 4))
        out = [TickEvent(t, "hit", s.name, firer.name, MappingProxyType(data))]
        if s.sunk:
            s.speed = 0.0
            out.append(TickEvent(t, "sunk", s.name, firer.name,
                                 MappingProxyType({"hits_taken": s.hits_taken()})))
        return out

    # -- movement -------------------------------------------------------------------------------------

    def _note_running(self, helm: Mapping[str, HelmOrder]) -> None:
        """A side breaks off when all its moving ships in contact steer straight away from the enemy's
        centre (the helm's break-off course), whatever its setup intent (the driver may change it)."""
        r = self.rules
        for side in self.setup.sides():
            if side in self.running:
                continue
            mine = [s for s in self.ships if s.side == side and not s.sunk and s.max_speed(r) > 0
                    and s.name in helm and self._enemies_in_contact(s)]
            foes = [s for s in self.ships if s.side != side and not s.sunk]
            if not mine or not foes:
                continue
            cx = sum(e.x for e in foes) / len(foes)
            cy = sum(e.y for e in foes) / len(foes)
            if all(abs(angle_diff_deg(helm[s.name].course_deg, float(bearing_deg(cx, cy, s.x, s.y))))
                   <= r.running_arc_deg for s in mine):
                self.running.add(side)

    def _move(self, helm: Mapping[str, HelmOrder], dt: float) -> None:
        """Ships take their helm course at once and the ordered speed within what they can make, in
        steps; after each step the range of every pair in contact is kept within its band (not inside
        ``min_range_yd``; not beyond the range kept, the opening ship being followed by the other)."""
        r = self.rules
        steps = max(1, round(dt / r.move_step_s))
        h = dt / steps
        vel = {}
        for s in self.ships:
            if s.sunk:
                continue
            order = helm.get(s.name)
            if order is not None:
                s.course = order.course_deg % 360.0
                s.speed = max(0.0, min(order.speed_kn, s.max_speed(r)))
            s.speed = min(s.speed, s.max_speed(r))
            d = yd_per_s(s.speed) * h
            c = math.radians(s.course)
            vel[s.index] = (d * math.sin(c), d * math.cos(c))
        pairs = [(self.ships[i], self.ships[j], u) for (i, j), u in self.contact.items()
                 if not (self.ships[i].sunk or self.ships[j].sunk)]
        for _ in range(steps):
            before = [math.hypot(a.x - b.x, a.y - b.y) for a, b, _ in pairs]
            for s in self.ships:
                if s.index in vel:
                    s.x += vel[s.index][0]
                    s.y += vel[s.index][1]
            for (a, b, upper), r0 in zip(pairs, before):
                self._keep_band(a, b, upper, r0, vel)

    def _keep_band(self, a: _Ship, b: _Ship, upper: float, r0: float, vel) -> None:
        dx, dy = b.x - a.x, b.y - a.y
        rr = math.hypot(dx, dy)
        if rr <= _EPS:
            return
        ex, ey = dx / rr, dy / rr
        va, vb = vel.get(a.index, (0.0, 0.0)), vel.get(b.index, (0.0, 0.0))
        close_a, close_b = va[0] * ex + va[1] * ey, -(vb[0] * ex + vb[1] * ey)  # each one's closing
        if rr < self.rules.min_range_yd and rr < r0:
            target = min(r0, self.rules.min_range_yd)
            mover, other = (a, b) if close_a >= close_b else (b, a)
        elif rr > upper and rr > r0:
            target = max(upper, r0)
            run_a, run_b = a.side in self.running, b.side in self.running
            if run_a != run_b:
                mover, other = (b, a) if run_a else (a, b)
            else:
                mover, other = (a, b) if close_a <= close_b else (b, a)
        else:
            return
        k = target / rr
        mover.x = other.x + (mover.x - other.x) * k
        mover.y = other.y + (mover.y - other.y) * k

    # -- chase and escape -----------------------------------------------------------------------------

    def _chase(self, t: float, setting: Setting) -> list[TickEvent]:
        """Seed 000 'Chase' and 'Fast Chase Speed': each running side's moving ships in contact try to
        escape; with no chaser (every enemy in contact also running) they part freely."""
        r, rng = self.rules, self.rng
        events: list[TickEvent] = []
        for side in self.setup.sides():
            if side not in self.running:
                continue
            group = [s for s in self.ships if s.side == side and not s.sunk and s.max_speed(r) > 0
                     and self._enemies_in_contact(s)]
            if not group:
                continue
            chasers = sorted({e.index: e for g in group for e in self._enemies_in_contact(g)
                              if e.side not in self.running}.values(), key=lambda e: e.index)
            if not chasers:
                self._separate(group, setting)
                events.append(TickEvent(t, "break_off", group[0].name, None, MappingProxyType(
                    {"side": side, "escaped": True, "rule": "neither side chases"})))
                continue
            endurance = {s.name: e for s in (*group, *chasers) if (e := self._use_fast_speed(s)) is not None}
            slowest = min(group, key=lambda s: (s.chase_speed(r), s.index))
            chased_kn = slowest.chase_speed(r)
            order = sorted(chasers, key=lambda c: (-c.chase_speed(r), c.index))
            fallen: list[_Ship] = []
            for k, c in enumerate(order):
                die = int(rng.integers(1, r.die_faces + 1))
                got_away = escapes(die, chased_kn, c.chase_speed(r))
                data: dict[str, Any] = {"side": side, "roll": die, "chased_kn": chased_kn,
                                        "chaser_kn": c.chase_speed(r), "escaped": got_away}
                if k == 0 and endurance:
                    data["endurance"] = endurance
                events.append(TickEvent(t, "break_off", slowest.name, c.name, MappingProxyType(data)))
                if got_away:  # this chaser and every slower one fall behind
                    fallen = order[k:]
                    break
            for c in fallen:
                for g in group:
                    self._part(g, c)
            if len(fallen) == len(order):
                self._separate(group, setting)
        return events

    def _use_fast_speed(self, s: _Ship) -> dict[str, Any] | None:
        """A round of fast steaming; a new use of fast speed every ``fast_use_interval_s`` moves her down
        her endurance chart and may need a roll (seed 000, 'Endurance'). Returns the roll made, if any."""
        r = self.rules
        if not s.fast_available(r):
            return None
        out = None
        if s.fast_time_s >= s.fast_uses * r.fast_use_interval_s:
            s.fast_uses += 1
            need = s.chart.needed(s.fast_uses) if s.chart is not None else None
            if need is not None:
                die = int(self.rng.integers(1, r.die_faces + 1))
                kept = die <= need
                if not kept:
                    s.fast_ok = False
                out = {"use": s.fast_uses, "roll": die, "need_at_most": need, "kept": kept}
        s.fast_time_s += r.round_s
        return out

    def _separate(self, group: Sequence[_Ship], setting: Setting) -> None:
        """Move an escaping group straight away from the enemy's centre until every enemy is beyond
        visibility (plus a margin), and part it from them."""
        foes = [e for e in self.ships if e.side != group[0].side and not e.sunk]
        if not foes:
            return
        gx = sum(g.x for g in group) / len(group)
        gy = sum(g.y for g in group) / len(group)
        ux, uy = gx - sum(e.x for e in foes) / len(foes), gy - sum(e.y for e in foes) / len(foes)
        norm = math.hypot(ux, uy)
        if norm <= _EPS:
            c = math.radians(group[0].course)
            ux, uy, norm = math.sin(c), math.cos(c), 1.0
        ux, uy = ux / norm, uy / norm
        reach = setting.visibility_yd + self.rules.separation_margin_yd
        shift = 0.0
        for g in group:
            for e in foes:  # smallest s >= 0 with |g + s u - e| >= reach
                px, py = g.x - e.x, g.y - e.y
                b = px * ux + py * uy
                shift = max(shift, -b + math.sqrt(max(0.0, b * b - (px * px + py * py) + reach * reach)))
        for g in group:
            g.x += shift * ux
            g.y += shift * uy
            for e in foes:
                self._part(g, e)
