"""The 'board' engine: combat and chase rules of the 1914 board game "The Flight of the Goeben" (seed 000).

The board game fights once per six-hour turn between enemy ships in one square: one die per ship on the
combat results table, modified by the firer's gunnery hits and by how far the target outranks her; no
ship fires on one that outranks her while a lower-ranking enemy remains; like fires on like, spread
evenly; hits on the few ships with a hit record fill gunnery/protection (G/P) or speed boxes by an odd or
even die, all others sink on one hit. A side that runs compares fast chase speeds with a die to escape.

The board has no plane inside a square; on ours (``data/tactics/board.yaml`` says why each figure):

* Motion. Every tick (``round.move_step_min``, a minute) the helm decides and the ships steam together
  on the battle plane (``campaign.tactics.plane``), the helm steering them step by step, with the 1905
  rules' handling as a stand-in (``nwc1905_motion.NwcHandling``), never faster than they can make now.
  Hulls that would meet stop where they touch: the board has no ramming, so a meeting is a collision that
  does no damage.
* Rounds. Each round (``round.length_min``, 30 min) begins with the board's exchange of fire and ends
  with its escape roll, so the board's balance of fire and escape per round is kept. A collier in
  contact with an enemy warship is sunk at the start of any tick ('Colliers': at once).
* Reach. A ship fires only at an enemy within her gun reach (her longest-ranged gun's, data/guns.yaml) and in sight, the board's target
  rules applying among those; a pair is "in the same square" (in contact) within the longer reach of the
  two and in sight.
* Escape. A side is running when its intent is to break off (the helm's ``intents``, else the setup's).
  Each round it rolls against the chasers still in contact, fastest first; a chaser outrun falls behind
  (out of the fight with the ships she chased), and when none is left the battle ends as ``escaped``
  (``ended``), every ship where she is: the world takes up the chase.
* Ends. The driver may end a board battle only as destroyed, separated (out of sight), darkness or time
  (``driver_ends``): a faster runner steaming out of gun range is still in the battle until her roll or
  until the sides lose sight of each other.

Damage (``data/tactics/board.yaml``, ``damage``, says how the two fit). The board's hits are its combat
results table's; a ship without a hit record sinks on one, a ship with one fills a G/P or speed box by the
board's odd or even die. Under ``damage="gwas"`` (the file's default) each hit on a ship with a hit record
is then allocated by Great War at Sea's damage model (seed 003; ``campaign.tactics.gwas``): its location,
redistribution, the guns it destroys (her reach is her heaviest guns left, and she fires no more once all
are lost), plunging fire's extra hull box and critical hits, which fill further boxes of her card, add to
her die or blow her up; she sinks when her card is full or the model sinks her. The hit event names all
of it. Under ``damage="own"`` a G/P hit only knocks out as many gun boxes (``damage.lose_guns``) as bring
her gunnery, as the model weighs it, down to the board's level for her G/P boxes.

The figures and the rules that need no battle are in ``campaign.tactics.board_rules`` (its public names
are importable from here too); a ship's bookkeeping is ``campaign.tactics.board_ship``.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, ClassVar

import numpy as np

from campaign.model.guns import reach_up_to_calibre_yd, reach_yd
from campaign.tactics.ammunition import (
    MM_PER_IN,
    Magazine,
    default_ammunition_rules,
    rounds_by_gun,
    rules_rate_rounds_per_min,
)
from campaign.tactics.armament import BEAM_DEG, barrels_bearing
from campaign.tactics.board_rules import (
    BOARD_FILE,
    BoardRules,
    BoxEffect,
    EnduranceChart,
    HitCard,
    assign_targets,
    box_hit,
    box_of_kind,
    escapes,
    fire_modifier,
    load_rules,
    may_fire_on,
)
from campaign.tactics.board_ship import BoardShip
from campaign.tactics.damage import DamageRules, gunnery_fraction, hull_fraction, lose_guns
from campaign.tactics.damage import load_rules as load_damage_rules
from campaign.tactics.gwas import DAMAGE_GWAS, GwasHit, GwasLedger, check_damage
from campaign.tactics.nwc1905_motion import NwcHandling
from campaign.tactics.nwc1905_rules import load_rules as load_nwc1905_rules
from campaign.tactics.plane.contact import default_contact_rules
from campaign.tactics.plane.hull import Hull
from campaign.tactics.plane.motion import HELM_STEP_S, Body, Contact, Pilot, Plane, as_pilot
from campaign.tactics.protocol import (
    BattleSetup,
    Command,
    Condition,
    HelmOrder,
    Setting,
    ShipView,
    TickEvent,
)

# The engine, with the rules' record, loader and rule functions re-exported from board_rules.
__all__ = ["BOARD_FILE", "ESCAPED", "BoardBattle", "BoardEngine", "BoardRules", "BoxEffect", "EnduranceChart",
           "HitCard", "assign_targets", "escapes", "fire_modifier", "load_rules", "may_fire_on"]

#: The board engine's own end of a battle: a running side got away (seed 000, 'Fast Chase Speed').
ESCAPED = "escaped"


# ----------------------------------------------------------------------------------------------------
# Handling


# ----------------------------------------------------------------------------------------------------
# The engine


class BoardEngine:
    """The 1914 board game's combat and chase (seed 000) as a tactical engine."""

    name = "board"

    def __init__(self, rules: BoardRules | None = None,
                 damage_rules: DamageRules | None = None, damage: str | None = None) -> None:
        """``damage``: "gwas" or "own" (module docstring); None: the rules file's ``damage.default``."""
        self.rules = rules or load_rules()
        self.damage_rules = damage_rules or load_damage_rules()
        self.damage = check_damage(damage or self.rules.damage_default)

    def begin(self, setup: BattleSetup, rng: np.random.Generator) -> BoardBattle:
        return BoardBattle(setup, rng, self.rules, self.damage_rules, damage=self.damage)


@dataclass
class BoardBattle:
    """One board battle in progress (the module docstring says what a tick and a round do).

    ``tick`` counts the motion ticks played, ``round`` the rounds of fire and escape; ``parted`` holds the
    pairs (indices, lower first) parted by the chase; ``paths`` each ship's poses through the last tick."""

    #: The driver's ends the board's rules allow (``campaign.tactics.battle``): no drawn_off, out_of_range.
    driver_ends: ClassVar[frozenset[str]] = frozenset({"destroyed", "separated", "darkness", "time"})

    setup: BattleSetup
    rng: np.random.Generator
    rules: BoardRules
    damage_rules: DamageRules
    damage: str = DAMAGE_GWAS
    t_s: float = 0.0
    tick: int = 0
    round: int = 0
    ships: list[BoardShip] = field(default_factory=list)
    parted: set[tuple[int, int]] = field(default_factory=set)
    by_name: dict[str, BoardShip] = field(default_factory=dict)
    paths: dict[str, list[tuple[float, float, float]]] = field(default_factory=dict)
    _end: str | None = None
    #: Each ship's rounds per gun group (``campaign.tactics.ammunition``; a firing spends them: ``_spend``).
    magazines: dict[str, Magazine] = field(default_factory=dict)

    def __post_init__(self) -> None:
        r = self.rules
        self.ships = [BoardShip(c, i, r) for i, c in enumerate(self.setup.combatants)]
        self.by_name = {s.name: s for s in self.ships}
        if len(self.by_name) != len(self.ships):
            raise ValueError("every combatant in a battle needs a distinct name")
        check_damage(self.damage)
        # Every ship's boxes in the damage model (her guns, hull, torpedo mounts), as she came in.
        self.gwas = GwasLedger(self.setup.combatants, self.damage_rules)
        self._entry = dict(self.gwas.states)
        if self.damage == DAMAGE_GWAS:
            for s in self.ships:
                self._rearm(s)
        for s in self.ships:  # seed 000 'Colliers': caught coaling = stopped with a collier of her force
            s.coaling = s.guns and s.speed <= r.coaling_max_speed_kn and any(
                o.c.ship.type in r.sunk_on_contact and o.c.unit == s.c.unit and not o.sunk
                for o in self.ships)
        self.plane = Plane(default_contact_rules().end_fraction)
        # The handling is the 1905 rules' (data/tactics/board.yaml, handling: a stand-in).
        self.handling = load_nwc1905_rules()
        self._hulls = {s.name: Hull.of(s.c.ship) for s in self.ships}
        self.magazines = {s.name: Magazine.of(s.c.ship, s.c.condition) for s in self.ships}
        for s in self.ships:
            self._limit_to_rounds(s)

    # -- protocol -----------------------------------------------------------------------------------

    def next_tick_s(self) -> float:
        """The motion tick (``round.move_step_min``, s): the helm steers every tick; fire and escape
        come at the end of every ``ticks_per_round``-th."""
        return self.rules.move_step_s

    def views(self) -> list[ShipView]:
        r = self.rules
        return [ShipView(s.name, s.side, s.c.unit, s.x, s.y, s.course, 0.0 if s.sunk else s.speed,
                         s.max_speed(r), not s.sunk, s.modifier(r) is not None, s.gun_range,
                         s.fighting_value(r)) for s in self.ships]

    def settled(self) -> list[TickEvent] | None:
        return None

    def ended(self) -> str | None:
        """The board's own end of the battle: ``"escaped"`` once a running side has got away, else None."""
        return self._end

    def command(self) -> Command:
        """How the helm commands under the board (data file, ``command``): no signal delay (the board game
        has none), a column follows its flagship, the fleet speed's reserve (a stand-in from the 1905
        rules) for squadrons in formation; no ramming."""
        return Command(signal_delay_s=0.0, column_head_free=True,
                       reserve_fraction=self.rules.reserve_fraction, reserve_for_all=False, formations=True,
                       ram=False)

    def condition(self, name: str) -> Condition:
        """Her damage in common terms: damage = hits taken / hits to sink (under gwas, or the damage
        model's hull boxes lost over hull boxes if more); gunnery = the board level of her G/P boxes and
        fire-control critical (``BoardRules.gunnery_level``), under gwas no more than the model's
        ``gunnery_fraction``; speed lost = down to one square a turn (-1) or dead in the water (-2); fast
        speed lost by -FS or a failed endurance roll. Carried damage is kept where this battle added
        nothing."""
        s, r = self.by_name[name], self.rules
        cond = s.c.condition
        if s.sunk:
            return Condition(1.0, 0.0, s.max_kn + cond.speed_lost_kn, cond.fast_speed_lost, True,
                             cond.waterlogged, cond.torpedoes_fired, self.magazines[name].rounds_left())
        dmg = max(cond.damage, s.hits_taken() / s.hits_to_sink())
        gunnery = cond.gunnery
        if s.gp != s.gp0 or s.fire_penalty:
            gunnery = min(gunnery, r.gunnery_level(s.modifier(r)))
        state = self.gwas.state(name)
        if self.damage == DAMAGE_GWAS and state != self._entry[name]:
            dmg = max(dmg, hull_fraction(state))
            gunnery = min(gunnery, gunnery_fraction(state, self.damage_rules))
        base_kn = s.max_kn + cond.speed_lost_kn
        cap = s.speed_cap_kn(r)
        lost_kn = max(cond.speed_lost_kn, base_kn - cap) if cap < math.inf else cond.speed_lost_kn
        fast_lost = cond.fast_speed_lost or (s.c.fast_speed_kn is not None and (
            not s.fast_available(r) or cap < s.c.fast_speed_kn))
        return Condition(dmg, gunnery, max(0.0, lost_kn), fast_lost, False, cond.waterlogged,
                         cond.torpedoes_fired, self.magazines[name].rounds_left())

    def step(self, helm: Pilot | Mapping[str, HelmOrder], setting: Setting) -> list[TickEvent]:
        """One tick: the ships move together on the plane (a meeting of hulls is a collision); a collier
        found is sunk; at the end of a round, the exchange of fire and the running sides' escape.
        ``helm``: the pilot (whose ``intents`` say which sides run), or plain orders for each ship."""
        if self._end is not None:  # escaped: the battle is over, nothing moves
            self.t_s += self.rules.move_step_s
            return []
        t0, dt = self.t_s, self.rules.move_step_s
        events = self._colliers(t0, setting)  # found at once ('Colliers')
        if self.tick % self.rules.ticks_per_round == 0:  # a round begins: the exchange of fire
            events += self._fire(t0, setting)
        events += self._move(as_pilot(helm), t0, dt)
        self.t_s = t1 = t0 + dt
        self.tick += 1
        if self.tick % self.rules.ticks_per_round == 0:  # and at its end the running side's escape
            events += self._chase(t1, setting, self._running(helm))
            self.round += 1
        return events

    # -- motion ---------------------------------------------------------------------------------------

    def _move(self, pilot: Pilot, t0: float, dt: float) -> list[TickEvent]:
        """Every afloat ship steams through the tick on the plane at her helm's course and speed, within
        the stand-in handling and the most she can make; hulls that meet stop where they touch."""
        r = self.rules
        bodies = []
        for s in self.ships:
            if s.sunk:
                continue
            handling = NwcHandling.of(self.handling, s.max_speed(r), self.handling.fleet_16_point_turn_s)
            bodies.append(Body(s.name, s.side, s.c.unit, self._hulls[s.name], s.x, s.y, s.course, s.speed,
                               handling))
        contacts = self.plane.move(bodies, pilot, t0, dt, HELM_STEP_S)
        self.paths = {b.name: b.path for b in bodies}
        for b in bodies:
            s = self.by_name[b.name]
            s.x, s.y, s.course, s.speed = b.x_yd, b.y_yd, b.course_deg, b.speed_kn
        return [self._collision(c) for c in contacts]

    @staticmethod
    def _collision(c: Contact) -> TickEvent:
        """A meeting of hulls: the board game has no ramming, so it only stopped the two ships."""
        ship, other = (c.striker, c.struck) if c.striker else (c.a, c.b)
        return TickEvent(c.t_s, "collision", ship, other, MappingProxyType({
            "parts": (c.part_a, c.part_b), "closing_kn": round(c.closing_kn, 2), "x_yd": round(c.x_yd, 1),
            "y_yd": round(c.y_yd, 1), "result": "no damage"}))

    # -- contact and reach ----------------------------------------------------------------------------

    @staticmethod
    def _range_yd(a: BoardShip, b: BoardShip) -> float:
        return math.hypot(b.x - a.x, b.y - a.y)

    def _is_parted(self, a: BoardShip, b: BoardShip) -> bool:
        return (min(a.index, b.index), max(a.index, b.index)) in self.parted

    def _foes(self, s: BoardShip) -> list[BoardShip]:
        """Her enemies afloat and not parted from her by the chase, in the setup's order."""
        return [o for o in self.ships if o.side != s.side and not o.sunk and not self._is_parted(s, o)]

    def in_contact(self, s: BoardShip, setting: Setting) -> list[BoardShip]:
        """The enemies "in the same square" with her: within the longer gun reach of the two and in sight
        (and not parted by the chase)."""
        return [o for o in self._foes(s)
                if self._range_yd(s, o) <= min(max(s.gun_range, o.gun_range), setting.visibility_yd)]

    def in_reach(self, s: BoardShip, setting: Setting) -> list[BoardShip]:
        """The enemies she may fire at: within her own gun reach and in sight (and not parted)."""
        return [o for o in self._foes(s) if self._range_yd(s, o) <= min(s.gun_range, setting.visibility_yd)]

    # -- colliers and fire ----------------------------------------------------------------------------

    def _colliers(self, t: float, setting: Setting) -> list[TickEvent]:
        """Seed 000 'Colliers': a collier in contact with any enemy warship is sunk at once."""
        events = []
        for s in self.ships:
            if s.sunk or s.c.ship.type not in self.rules.sunk_on_contact:
                continue
            finder = next((e for e in self.in_contact(s, setting) if not e.merchant), None)
            if finder is not None:
                s.sunk, s.speed = True, 0.0
                events.append(TickEvent(t, "sunk", s.name, finder.name, MappingProxyType(
                    {"rule": "collier found by an enemy combat unit", "hits_taken": 0})))
        return events

    def _fire(self, t: float, setting: Setting) -> list[TickEvent]:
        """The round's exchange of fire (seed 000, 'Combat'): targets chosen among the enemies within each
        firer's reach, then every die rolled and modified before any damage (fire is simultaneous)."""
        r, rng = self.rules, self.rng
        for s in self.ships:
            self._limit_to_rounds(s)
        firers = [s for s in self.ships if s.modifier(r) is not None]
        enemies = {id(s): self.in_reach(s, setting) for s in firers}
        plan: list[tuple[BoardShip, BoardShip]] = []
        for side in self.setup.sides():
            mine = [s for s in firers if s.side == side and enemies[id(s)]]
            targets = assign_targets(mine, enemies)
            plan += [(f, targets[id(f)]) for f in mine if id(f) in targets]
        if not plan:
            return []
        dice = rng.integers(1, r.die_faces + 1, size=len(plan))
        shots = []
        for (f, tg), die in zip(plan, dice):
            mod = fire_modifier(r, f.modifier(r), f.rank, tg.rank, coaling=f.coaling and self.round == 0)
            shots.append((f, tg, int(die), mod, r.hits(int(die) + mod)))
        events: list[TickEvent] = []
        for f, tg, die, mod, hits in shots:
            fired = self._spend(f, self._range_yd(f, tg))
            events.append(TickEvent(t, "fire", f.name, tg.name, MappingProxyType({
                "range_yd": round(self._range_yd(f, tg), 1), "gun_range_yd": f.gun_range,
                "calibre_mm": f.calibre, "round": self.round + 1, "roll": die, "modifier": mod,
                "modified_roll": die + mod, "hits": hits,
                "rounds": sum(fired.values()), "rounds_by_gun": rounds_by_gun(f.c.ship, fired)})))
            rng_yd = self._range_yd(f, tg)
            for _ in range(hits):
                if tg.sunk:  # seed 000 'Combat': excess firings and hits are lost
                    break
                events += self._hit(t, tg, f, rng_yd)
        return events

    def _spend(self, s: BoardShip, range_yd: float) -> dict[int, int]:
        """The rounds one firing of hers spends (``data/ammunition.yaml``, engines.board, a stand-in): every
        gun group in action (no heavier than her guns' calibre) with rounds left that reaches ``range_yd``
        (its own reach, data/guns.yaml), its barrels bearing on the broadside times the 1905 rules'
        rate (8 / calibre in inches a minute) for the file's minutes of fire; fractions carried to the next
        firing. Returns {index in ``ship.guns``: rounds fired}."""
        minutes = default_ammunition_rules().board_minutes_of_fire_per_firing
        magazine = self.magazines[s.name]
        fired: dict[int, int] = {}
        for i, g in enumerate(s.c.ship.guns):
            if (not magazine.has(i) or g.calibre_mm > s.calibre
                    or reach_yd(g) < range_yd):
                continue
            rate = rules_rate_rounds_per_min(g.calibre_mm / MM_PER_IN)
            fired[i] = magazine.spend_time(i, barrels_bearing(g, BEAM_DEG) * rate * minutes)
        return fired

    def _limit_to_rounds(self, s: BoardShip) -> None:
        """Her guns as her magazine has them: her calibre and reach those of her heaviest group in action
        with rounds left; with none left she fires no more (as with every gun lost, ``_rearm``)."""
        if not s.guns:
            return
        magazine = self.magazines[s.name]
        left = [g.calibre_mm for i, g in enumerate(s.c.ship.guns) if magazine.has(i) and g.calibre_mm <= s.calibre]
        if not left:
            s.guns, s.gun_range = False, 0.0
        elif max(left) < s.calibre:
            s.calibre, s.gun_range = max(left), reach_up_to_calibre_yd(s.c.ship, max(left))

    def _hit(self, t: float, s: BoardShip, firer: BoardShip, range_yd: float) -> list[TickEvent]:
        """One hit (seed 000, 'Combat' and 'Hit Records'): a ship without a card sinks; on a card an odd
        die is a G/P hit, an even one a speed hit, the other type if that one is full; then, under gwas,
        the damage model's allocation (``_allocate``). She sinks when every box is full, or when the
        model sinks her."""
        r = self.rules
        data: dict[str, Any] = {"damage_model": "board"}  # the model's fields say "gwas" where it scored it
        sunk_by = "hit record"
        if s.card is None:
            s.sunk = True
            data.update(part="hull", box="sunk")
        else:
            box = self._card_box(s)
            data.update(box)
            if self.damage == DAMAGE_GWAS:
                data.update(self._allocate(s, firer, range_yd))
                sunk_by = data.pop("sunk_by", sunk_by)
            elif box["part"] == "gunnery" and self.gwas.state(s.name).boxes.has_guns:
                st, lost = lose_guns(self.gwas.state(s.name), r.gunnery_level(s.modifier(r)), self.rng,
                                     self.damage_rules)
                self.gwas.states[s.name] = st
                data["guns_lost"] = lost
            if s.hits_taken() >= s.card.boxes:
                s.sunk = True
        data.update(hits_taken=s.hits_taken(), hits_to_sink=s.hits_to_sink(),
                    damage=round(s.hits_taken() / s.hits_to_sink(), 4))
        out = [TickEvent(t, "hit", s.name, firer.name, MappingProxyType(data))]
        if s.sunk:
            s.speed = 0.0
            out.append(TickEvent(t, "sunk", s.name, firer.name,
                                 MappingProxyType({"hits_taken": s.hits_taken(), "rule": sunk_by})))
        return out

    def _card_box(self, s: BoardShip, want: str | None = None) -> dict[str, Any]:
        """Fill one box of her card (seed 000, 'Hit Records'): of the kind the board's die gives (odd G/P,
        even speed) when ``want`` is None, else of kind ``want`` ("gp" or "speed"); the other kind if that
        one is full. Returns the record's fields (``roll`` only when the die was rolled)."""
        r = self.rules
        assert s.card is not None
        data: dict[str, Any] = {}
        if want is None:
            roll = int(self.rng.integers(1, r.die_faces + 1))
            kind, redirected = box_hit(r, s.card, roll, s.gp, s.spd)
            data["roll"] = roll
        else:
            kind, redirected = box_of_kind(s.card, want, s.gp, s.spd)
        data["redirected"] = redirected
        if kind == "gp":
            s.gp += 1
            data.update(part="gunnery", box=s.card.gp[s.gp - 1])
        else:
            s.spd += 1
            data.update(part="speed", box=s.card.speed[s.spd - 1])
        return data

    def _allocate(self, s: BoardShip, firer: BoardShip, range_yd: float) -> dict[str, Any]:
        """The hit on a ship with a card, allocated by Great War at Sea's damage model fired by
        ``firer``'s heaviest guns in action at ``range_yd`` (data/tactics/board.yaml, ``damage``): the
        model's fields, and ``further_boxes``, the boxes of her card that plunging fire and a critical
        filled; ``sunk_by`` if the model sank her."""
        r = self.rules
        h: GwasHit = self.gwas.score(s.name, firer.name, firer.calibre, range_yd, self.rng)
        data = h.fields()
        further: list[dict[str, Any]] = []

        def fill(cause: str, kind: str) -> None:
            if s.hits_taken() < s.card.boxes:  # a full card has sunk her: nothing more to fill
                further.append({"cause": cause, **self._card_box(s, None if kind == "hit" else kind)})

        for _ in range(h.result.plunging_boxes):
            fill("plunging fire", "hit")
        e = h.critical_entry
        if e is not None:
            for effect, kind in r.critical_effects.items():
                for _ in range(getattr(e, effect)):
                    fill(e.name, kind)
            if h.after.fire_control and not h.before.fire_control:
                s.fire_penalty += r.fire_control_modifier
        data["further_boxes"] = further
        if h.sunk:
            s.sunk = True
            data["sunk_by"] = "magazine critical" if h.after.magazine else "every hull box lost"
        self._rearm(s)
        return data

    def _rearm(self, s: BoardShip) -> None:
        """Her guns as the damage model has them (under gwas, a ship with a card): her reach is that of her
        heaviest guns in action; once every gun box is lost she fires no more."""
        if s.card is None or not s.guns:
            return
        if self.gwas.lost_every_gun(s.name):
            s.guns, s.gun_range = False, 0.0
            return
        calibre = self.gwas.largest_calibre_in_action(s.name)
        if calibre > 0.0:
            s.calibre, s.gun_range = calibre, reach_up_to_calibre_yd(s.c.ship, calibre)

    # -- chase and escape -----------------------------------------------------------------------------

    def _running(self, helm: object) -> set[str]:
        """The sides breaking off: the helm's intents where it has them (the driver changes a side's
        intent when it is outmatched), else the setup's. Never guessed from the ships' courses."""
        intents = getattr(helm, "intents", None)
        if not isinstance(intents, Mapping):
            intents = self.setup.intents
        return {side for side, intent in intents.items() if intent == "break_off"}

    def _chase(self, t: float, setting: Setting, running: set[str]) -> list[TickEvent]:
        """Seed 000 'Chase' and 'Fast Chase Speed': each running side's moving ships in contact roll to
        escape the chasers in contact with them, fastest first; a chaser outrun falls behind with every
        slower one (parted from the group). When none is left, or none chases, the side has escaped and
        the battle ends (``ended``), every ship where she is."""
        r, rng = self.rules, self.rng
        events: list[TickEvent] = []
        for side in self.setup.sides():
            if side not in running:
                continue
            group = [s for s in self.ships if s.side == side and not s.sunk and s.max_speed(r) > 0
                     and self.in_contact(s, setting)]
            if not group:
                continue  # out of contact: no roll; the battle goes on until the sides are out of sight
            chasers = sorted({e.index: e for g in group for e in self.in_contact(g, setting)
                              if e.side not in running}.values(), key=lambda e: e.index)
            if not chasers:
                events.append(TickEvent(t, "break_off", group[0].name, None, MappingProxyType(
                    {"side": side, "escaped": True, "rule": "neither side chases"})))
                self._end = ESCAPED
                break
            endurance = {s.name: e for s in (*group, *chasers) if (e := self._use_fast_speed(s)) is not None}
            slowest = min(group, key=lambda s: (s.chase_speed(r), s.index))
            chased_kn = slowest.chase_speed(r)
            order = sorted(chasers, key=lambda c: (-c.chase_speed(r), c.index))
            fallen: list[BoardShip] = []
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
                    self.parted.add((min(g.index, c.index), max(g.index, c.index)))
            if len(fallen) == len(order):
                self._end = ESCAPED
                break
        return events

    def _use_fast_speed(self, s: BoardShip) -> dict[str, Any] | None:
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
