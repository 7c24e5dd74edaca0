"""The rules of the 'board' engine (``campaign.tactics.board``): the figures of ``data/tactics/board.yaml``
as an immutable record, and the 1914 board game's rules (seed 000) as pure functions.

``BoardRules`` holds every figure of the file (each cited there): the combat results table, the fire
modifiers, the ranks and board types, the hit records (``HitCard``, what each box does: ``BoxEffect``),
the endurance charts (``EnduranceChart``), the fast chase speeds the counters print, how the hit record
and Great War at Sea's damage model fit together (the damage option's default, what a critical fills
on a card, the fire-control critical's die modifier), and the stand-ins that
put the board on the plane (the round and its motion ticks, the ships' handling, the fleet speed's
reserve). The functions are the rules that need no battle: the die modifier of a firer
(``fire_modifier``), the escape roll (``escapes``), whom a ship may fire on (``may_fire_on``) and how a
side distributes its fire (``assign_targets``); which box a hit fills (``box_hit``, ``box_of_kind``),
what a hit record's filled boxes mean for fire and speed, and which boxes explain the damage a ship
carries in from an earlier fight.
"""

from __future__ import annotations

import functools
import math
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType
from typing import Any, Protocol

from campaign.datafile import load_yaml
from campaign.paths import DATA_DIR
from campaign.tactics.gwas import DAMAGE_CHOICES
from campaign.tactics.protocol import Condition

BOARD_FILE = DATA_DIR / "tactics" / "board.yaml"
CRITICAL_EFFECTS = ("hull_boxes", "engine_hits", "primary_boxes")  # damage.CriticalEntry's box counts
CARD_BOX_KINDS = ("hit", "speed", "gp")  # a further box by the odd/even die, a speed box, a G/P box
_EPS = 1e-9  # knots, fractions and yards this close are equal: what rounding leaves of an equality


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
    reserve_fraction: float
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
    counter_kn: Mapping[str, float]  # ship name -> the fast chase speed her counter prints (kn)
    damage_default: str  # "gwas" or "own" (the file's damage.default)
    critical_effects: Mapping[str, str]  # a critical's effect -> the card's box it fills: hit, speed or gp
    fire_control_modifier: int

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

    @property
    def ticks_per_round(self) -> int:
        """Motion ticks (``move_step_s``) in one round of fire and escape (``round_s``)."""
        return round(self.round_s / self.move_step_s)


def load_rules(path: str | Path = BOARD_FILE) -> BoardRules:
    """Read a board-rules file (cached per path)."""
    return _load_rules(Path(path).resolve())


@functools.cache
def _load_rules(path: Path) -> BoardRules:
    raw = load_yaml(path.read_text(encoding="utf-8"))
    rnd, mod, hr, sp = raw["round"], raw["modifiers"], raw["hit_records"], raw["speed"]
    round_s, move_step_s = float(rnd["length_min"]) * 60.0, float(rnd["move_step_min"]) * 60.0
    ticks = round_s / move_step_s if move_step_s > 0.0 else 0.0
    if ticks < 1.0 or abs(ticks - round(ticks)) > _EPS:
        raise ValueError(f"{path}: round.length_min must be a whole number of round.move_step_min")
    boxes = {str(k): BoxEffect(**v) for k, v in hr["boxes"].items()}
    cards = {k: HitCard(tuple(v["gp"]), tuple(v["speed"])) for k, v in hr["cards"].items()}
    for name, card in cards.items():
        if any(b not in boxes for b in (*card.gp, *card.speed)):
            raise ValueError(f"{path}: hit card {name!r} names a box not in hit_records.boxes")
    dmg = raw["damage"]
    if dmg["default"] not in DAMAGE_CHOICES:
        raise ValueError(f"{path}: damage.default {dmg['default']!r} is not one of "
                         f"{', '.join(DAMAGE_CHOICES)}")
    effects = {str(k): str(v) for k, v in dmg["critical_effects"].items()}
    for k, v in effects.items():
        if k not in CRITICAL_EFFECTS or v not in CARD_BOX_KINDS:
            raise ValueError(f"{path}: damage.critical_effects.{k}: {v!r} - the effects are "
                             f"{', '.join(CRITICAL_EFFECTS)}, each filling one of "
                             f"{', '.join(CARD_BOX_KINDS)}")
    return BoardRules(
        round_s=round_s,
        move_step_s=move_step_s,
        reserve_fraction=float(raw["command"]["reserve_fraction"]),
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
        counter_kn=MappingProxyType(_counters(path, raw["counters"])),
        damage_default=str(dmg["default"]),
        critical_effects=MappingProxyType(effects),
        fire_control_modifier=int(dmg["fire_control_modifier"]),
    )


def _counters(path: Path, raw: Mapping[str, Any]) -> dict[str, float]:
    """Each ship's printed fast chase speed from the file's ``counters``; ValueError naming the file, the
    counter and the fault (a speed not above 0, no ships, a ship not in data/ships.yaml or on two
    counters)."""
    from campaign.model.ships import default_ships, find_ship

    ships = default_ships()
    out: dict[str, float] = {}
    for counter, entry in raw.items():
        where = f"{path}: counters.{counter}"
        kn = entry.get("fast_chase_speed_kn") if isinstance(entry, Mapping) else None
        if isinstance(kn, bool) or not isinstance(kn, (int, float)) or kn <= 0:
            raise ValueError(f"{where}.fast_chase_speed_kn: {kn!r} is not a speed above 0 kn")
        names = entry.get("ships")
        if not isinstance(names, list) or not names:
            raise ValueError(f"{where}.ships: the counter needs the list of ships it stands for")
        for name in names:
            try:
                ship = find_ship(str(name), ships)
            except KeyError:
                raise ValueError(f"{where}.ships: no ship named {name!r} in data/ships.yaml") from None
            if ship.name in out:
                raise ValueError(f"{where}.ships: {ship.name} is already on another counter")
            out[ship.name] = float(kn)
    return out


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
# Hit records


def card_modifier(r: BoardRules, card: HitCard, gp: int) -> int | None:
    """The fire modifier of a card with its first ``gp`` G/P boxes filled, None once a filled box says
    no fire (seed 000, 'Hit Records')."""
    if gp == 0:
        return 0
    e = r.boxes[card.gp[gp - 1]]
    return None if e.no_fire else e.fire_modifier


def carried_speed_boxes(r: BoardRules, card: HitCard, max_kn: float, fast_lost: bool) -> int:
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


def speed_cap_kn(r: BoardRules, card: HitCard | None, speed_boxes: int) -> float:
    """The most a ship can make with the first ``speed_boxes`` speed boxes of her card filled (inf if
    none of them caps her speed, or she has no card)."""
    cap = math.inf
    for label in (card.speed[:speed_boxes] if card is not None else ()):
        n = r.boxes[label].squares_per_turn
        if n is not None:
            cap = min(cap, n * r.one_square_kn)
    return cap


def boxes_take_fast_speed(r: BoardRules, card: HitCard | None, speed_boxes: int) -> bool:
    """Whether one of the first ``speed_boxes`` speed boxes of her card filled is a -FS (fast speed lost)."""
    filled = card.speed[:speed_boxes] if card is not None else ()
    return any(r.boxes[b].fast_speed_lost for b in filled)


def carried_boxes(r: BoardRules, card: HitCard, sustained_kn: float, cond: Condition) -> tuple[int, int, int]:
    """The boxes of her card that explain the damage she carries in (``cond``, in any engine's common
    terms): (G/P boxes whose fire level is nearest her gunnery, speed boxes that explain her speed lost
    below ``sustained_kn``, further boxes filled to make up her damage fraction). A ship afloat keeps at
    least one box open."""
    levels = [r.gunnery_level(card_modifier(r, card, k)) for k in range(len(card.gp) + 1)]
    gp = min(range(len(levels)), key=lambda k: abs(levels[k] - cond.gunnery))
    damaged_kn = sustained_kn - cond.speed_lost_kn  # weather is not damage
    spd = carried_speed_boxes(r, card, damaged_kn, cond.fast_speed_lost)
    if gp + spd >= card.boxes and not cond.sunk:
        spd = max(0, card.boxes - 1 - gp)  # afloat: at least one box open
    wanted = math.floor(cond.damage * card.boxes + _EPS)
    extra = max(0, min(wanted, card.boxes - 1) - gp - spd)
    return gp, spd, extra


def carried_modifier(r: BoardRules, gunnery: float) -> int | None:
    """The fire modifier of a ship without a hit record whose offensive power left is ``gunnery``: the
    modifier whose fire level is nearest it, None (no fire) among them."""
    mods: list[int | None] = [m for m in range(r.die_faces) if r.expected_hits(m) > 0] + [None]
    return min(mods, key=lambda m: abs(r.gunnery_level(m) - gunnery))


def box_hit(r: BoardRules, card: HitCard, roll: int, gp: int, speed_boxes: int) -> tuple[str, bool]:
    """Which kind of box a hit fills on a card with ``gp`` G/P and ``speed_boxes`` speed boxes filled
    (seed 000, 'Hit Records'): "gp" on an odd die and "speed" on an even one (or the reverse, as the
    file's ``odd_roll`` says), the other kind if that one is full; and whether it was so redirected."""
    want = r.odd_roll if roll % 2 else ("speed" if r.odd_roll == "gp" else "gp")
    return box_of_kind(card, want, gp, speed_boxes)


def box_of_kind(card: HitCard, want: str, gp: int, speed_boxes: int) -> tuple[str, bool]:
    """The kind of box a hit meant for ``want`` ("gp" or "speed") fills on a card with ``gp`` G/P and
    ``speed_boxes`` speed boxes filled: that kind, or the other if it is full (seed 000, 'Combat': "When
    all boxes of one type are full, apply future hits to the other type box"); and whether it was so
    redirected."""
    room = {"gp": gp < len(card.gp), "speed": speed_boxes < len(card.speed)}
    kind = want if room[want] else ("speed" if want == "gp" else "gp")
    return kind, kind != want
