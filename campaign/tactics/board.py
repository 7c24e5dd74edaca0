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

The figures and the rules that need no battle are in ``campaign.tactics.board_rules`` (its public names
are importable from here too); a ship's bookkeeping is ``campaign.tactics.board_ship``.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

import numpy as np

from campaign.tactics import damage
from campaign.tactics.board_rules import (
    BOARD_FILE,
    BoardRules,
    BoxEffect,
    EnduranceChart,
    HitCard,
    assign_targets,
    box_hit,
    escape_move_yd,
    escapes,
    fire_modifier,
    load_rules,
    may_fire_on,
)
from campaign.tactics.board_ship import BoardShip
from campaign.tactics.kinematics import angle_diff_deg, bearing_deg, yd_per_s
from campaign.tactics.protocol import (
    BattleSetup,
    Condition,
    HelmOrder,
    Setting,
    ShipView,
    TickEvent,
)

# The engine, with the rules' record, loader and rule functions re-exported from board_rules.
__all__ = ["BOARD_FILE", "BoardBattle", "BoardEngine", "BoardRules", "BoxEffect", "EnduranceChart", "HitCard",
           "assign_targets", "escapes", "fire_modifier", "load_rules", "may_fire_on"]

_EPS = 1e-9  # yards: ships this close are taken to be at one point


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
    ships: list[BoardShip] = field(default_factory=list)
    contact: dict[tuple[int, int], float] = field(default_factory=dict)  # pair -> greatest range kept
    parted: set[tuple[int, int]] = field(default_factory=set)
    running: set[str] = field(default_factory=set)
    by_name: dict[str, BoardShip] = field(default_factory=dict)

    def __post_init__(self) -> None:
        r = self.rules
        self.ships = [BoardShip(c, i, r, self.damage_rules) for i, c in enumerate(self.setup.combatants)]
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

    def _enemies_in_contact(self, s: BoardShip) -> list[BoardShip]:
        out = []
        for (i, j) in self.contact:
            o = j if i == s.index else i if j == s.index else None
            if o is not None and not self.ships[o].sunk:
                out.append(self.ships[o])
        return sorted(out, key=lambda o: o.index)

    def _part(self, a: BoardShip, b: BoardShip) -> None:
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
        plan: list[tuple[BoardShip, BoardShip]] = []
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

    def _hit(self, t: float, s: BoardShip, firer: BoardShip) -> list[TickEvent]:
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
            kind, redirected = box_hit(r, s.card, roll, s.gp, s.spd)
            data.update(roll=roll, redirected=redirected)
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

    def _keep_band(self, a: BoardShip, b: BoardShip, upper: float, r0: float, vel) -> None:
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
                    self._part(g, c)
            if len(fallen) == len(order):
                self._separate(group, setting)
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

    def _separate(self, group: Sequence[BoardShip], setting: Setting) -> None:
        """Move an escaping group straight away from the enemy's centre until every enemy is beyond
        visibility (plus a margin), and part it from them."""
        foes = [e for e in self.ships if e.side != group[0].side and not e.sunk]
        if not foes:
            return
        dx_yd, dy_yd = escape_move_yd([(g.x, g.y) for g in group], [(e.x, e.y) for e in foes], group[0].course,
                                      setting.visibility_yd + self.rules.separation_margin_yd)
        for g in group:
            g.x += dx_yd
            g.y += dy_yd
            for e in foes:
                self._part(g, e)
