"""The ``nwc1905`` tactical engine: the Naval War College's 1905 fleet tactical game and, in a mêlée,
its duel game (seed 002, "Rules for the Conduct of the War Games"; the rules and every figure with its
source are in ``data/tactics/nwc1905.yaml``).

A move is 2.5 minutes (150 s); when any two hostile ships come within the mêlée distance the fight
goes on "under Duel Game rules, with each move representing half a minute" (seed 002 l.59-61). In
each move:

1. Orders. In a fleet move a ship of a squadron executes the helm order given a move earlier: "A
   signal hoisted at the start of a move cannot be executed in that move; the fleet stands on at its
   existing course and speed" (l.3). The engine keeps one pending order per ship and applies last
   move's; a squadron ship's changed order is recorded as a ``signal`` event when hoisted. A ship
   alone in her unit, and every ship in a mêlée (manoeuvred by her captain, l.59), acts at once.
2. Motion (``nwc1905_motion``): fleet speed at most the most she can make less the 20 % reserve
   (her speed / 1.2, l.29) — all of it in a mêlée —; 1 knot per 30 seconds (l.25); turning at the
   rate of the fleet cards or the duel curve (l.19), losing speed on the circle (l.23).
3. Fire (``nwc1905_fire``), scored at the new positions (l.63) and simultaneously: ships destroyed in
   the move still fire in it and are removed at its end (l.75). Each ship fires at one target
   chosen by the data file's fire-distribution instruction; a torpedo is fired at the nearest enemy
   in the zone when a loaded tube bears.
4. Damage: points received against fighting endurance; offensive power halved at 30 % and quartered
   at 60 % (l.71-73); destroyed ("sunk") at 100 %; a torpedo's 500 points and all her speed (l.53);
   speed lost to gunfire by the data file's STAND-IN.
5. The umpire (``nwc1905_umpire``): a contact lingering within 2,000 yards (armoured) or 4,000 yards
   (unarmoured) for over an hour is settled by relative fighting values (l.35) and the battle ends.

Damage carries in and out through ``Condition``: ``damage`` is points received over fighting
endurance, ``gunnery`` the offensive factor (1, 0.5, 0.25, 0; a lower carried-in gunnery caps it).

In a mêlée the duel game's differences apply: 30-second moves, the duel track's turning, no signals,
all the speed she can make. Its fire is kept in the fleet game's points at the same rate per minute
(the duel's "life of 200 points" and its wand per pair of 8-inch guns, l.47 and l.75, are in the same
proportion; the wand's values are not in our copy). The rules give no effect of light or sea on fire,
so fire is the same by night and in weather; only the setting's visibility limits whom a ship can
fire at. Not modelled: ramming (l.55), fire split between two quadrants (l.47, allowed, not required),
the fleet's formations and the column's change of direction without signal (l.31-33).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

import numpy as np

from campaign.tactics import nwc1905_fire as fire
from campaign.tactics.kinematics import angle_diff_deg, bearing_deg
from campaign.tactics.nwc1905_motion import move_ship
from campaign.tactics.nwc1905_rules import Nwc1905Rules, load_rules
from campaign.tactics.nwc1905_umpire import CRIPPLED, LOSES_HALF, REMOVED, InContact, settle
from campaign.tactics.protocol import (
    BattleSetup,
    Combatant,
    Condition,
    HelmOrder,
    Setting,
    ShipView,
    TickEvent,
)


@dataclass
class _Ship:
    """One ship's bookkeeping in the battle (internal, mutable)."""

    c: Combatant
    kind: str
    endurance: float
    armoured: bool
    squadron: bool
    x: float
    y: float
    course: float
    speed: float
    points: float
    points_at_entry: float
    gunnery_cap: float
    afloat: bool
    active: HelmOrder
    battery: fire.Battery
    pending: HelmOrder | None = None
    torpedoed: bool = False
    torpedoes_fired: int = 0
    turned_deg: float = 0.0
    tubes_ready_s: dict[str, list[float]] = field(default_factory=dict)

    @property
    def damage(self) -> float:
        return min(1.0, self.points / self.endurance)


def _relative_bearing_deg(s: _Ship, e: _Ship) -> float:
    """Bearing of ``e`` off ``s``'s bow, 0-180 either side: ``kinematics.relative_bearing_deg`` written
    out on scalars, operation for operation (it is asked for every pair of ships every move)."""
    brg = math.degrees(math.atan2(e.x - s.x, e.y - s.y)) % 360.0
    d = (brg - s.course + 180.0) % 360.0 - 180.0
    return 180.0 if d == -180.0 else abs(d)


def _event(t_s: float, kind: str, ship: str, target: str | None = None, **data: Any) -> TickEvent:
    return TickEvent(t_s, kind, ship, target, MappingProxyType(data))


class Nwc1905Battle:
    """One battle under the NWC 1905 rules (satisfies ``campaign.tactics.protocol.Battle``)."""

    def __init__(self, setup: BattleSetup, rng: np.random.Generator, rules: Nwc1905Rules) -> None:
        self.rules = rules
        self.rng = rng
        self.t_s = 0.0
        self._contact_s = 0.0
        self._settlement: list[TickEvent] | None = None
        unit_size: dict[str, int] = {}
        for c in setup.combatants:
            unit_size[c.unit] = unit_size.get(c.unit, 0) + 1
        self._ships: dict[str, _Ship] = {}
        # The hostile pairs afloat with their ranges, as the ships stand now; None once a ship has moved
        # or sunk. The driver, the move and the umpire ask for them several times between changes.
        self._pairs: list[tuple[_Ship, _Ship, float]] | None = None
        for c in setup.combatants:
            kind = fire.kind_of(rules, c.ship)
            endurance = fire.endurance_points(rules, c.ship)
            points = min(1.0, max(0.0, c.condition.damage)) * endurance
            tubes = c.ship.torpedo_tubes.count if c.ship.torpedo_tubes is not None else 0
            per_beam = math.ceil(tubes / 2)
            self._ships[c.name] = _Ship(
                c=c, kind=kind, endurance=endurance, armoured=kind in rules.armoured_types,
                squadron=unit_size[c.unit] > 1, x=c.x_yd, y=c.y_yd, course=c.course_deg % 360.0,
                speed=max(0.0, c.speed_kn), points=points, points_at_entry=points,
                gunnery_cap=max(0.0, min(1.0, c.condition.gunnery)),
                afloat=not (c.condition.sunk or points >= rules.destroyed_at * endurance),
                active=HelmOrder(c.course_deg, c.speed_kn), battery=fire.Battery(rules, c.ship),
                tubes_ready_s={"port": [0.0] * per_beam, "starboard": [0.0] * per_beam},
            )

    # -- what the driver reads ---------------------------------------------------------------------

    def _hostile_pairs(self) -> list[tuple[_Ship, _Ship, float]]:
        """Every pair of hostile ships afloat, in the order of the setup, with the range between them (yd)."""
        if self._pairs is None:
            afloat = [s for s in self._ships.values() if s.afloat]
            self._pairs = [(a, b, math.hypot(b.x - a.x, b.y - a.y))
                           for i, a in enumerate(afloat) for b in afloat[i + 1:] if a.c.side != b.c.side]
        return self._pairs

    def _melee(self) -> bool:
        return any(r <= self.rules.melee_range_yd for _, _, r in self._hostile_pairs())

    def next_tick_s(self) -> float:
        """150 s (a fleet move); 30 s (a duel move) while any hostile pair is within the mêlée
        distance (seed 002 l.59-63; distance a STAND-IN in the data file)."""
        return self.rules.duel_move_s if self._melee() else self.rules.fleet_move_s

    def _limit_kn(self, s: _Ship) -> float:
        """The most she can make now (kn): her entry maximum less what this battle's damage took."""
        if s.torpedoed or not s.afloat:
            return 0.0
        gained = s.damage - s.points_at_entry / s.endurance
        return max(0.0, s.c.max_speed_kn - fire.speed_lost_kn(self.rules, s.c.ship.sustained_speed_kn, gained))

    def _order_cap_kn(self, s: _Ship, melee: bool) -> float:
        """The most the helm may have of her: in a fleet move the fleet speed, her limit less the 20 %
        reserve (seed 002 l.29); in a mêlée all of it (l.59)."""
        limit = self._limit_kn(s)
        return limit if melee else limit / (1.0 + self.rules.fleet_reserve_fraction)

    def _offensive(self, s: _Ship) -> float:
        if not s.afloat:
            return 0.0
        return min(fire.offensive_factor(self.rules, s.damage), s.gunnery_cap)

    def _fighting_value(self, s: _Ship) -> float:
        """Offensive power now (battleship broadsides) x endurance left (battleship lives): the data
        file's STAND-IN for the rules' "relative fighting values"."""
        if not s.afloat:
            return 0.0
        left = max(0.0, s.endurance - s.points) / self.rules.fighting_value_endurance_unit
        return s.battery.broadside_weight * self._offensive(s) * left

    def views(self) -> Sequence[ShipView]:
        """Every ship as the helm may see her; ``max_speed_kn`` is the most the helm may order in the
        coming move (fleet speed, or all she can make in a mêlée)."""
        melee = self._melee()
        out = []
        for s in self._ships.values():
            armed = s.battery.broadside_weight > 0.0
            out.append(ShipView(
                name=s.c.name, side=s.c.side, unit=s.c.unit, x_yd=s.x, y_yd=s.y, course_deg=s.course,
                speed_kn=s.speed, max_speed_kn=self._order_cap_kn(s, melee), afloat=s.afloat,
                can_fire=armed and self._offensive(s) > 0.0,
                gun_range_yd=self.rules.gun_range_yd if armed else 0.0,
                fighting_value=self._fighting_value(s)))
        return out

    def condition(self, name: str) -> Condition:
        """Her damage in common terms: points received over endurance, the offensive factor, the
        speed lost (all of it if torpedoed), what she carried in besides. ``fast_speed_lost`` (the board
        game's "-FS") is set once she is torpedoed or has received 30 % of her endurance, the rules'
        first mark of serious damage (STAND-IN: the 1905 rules have no fast speed)."""
        s = self._ships[name]
        prior = s.c.condition
        sustained = s.c.ship.sustained_speed_kn
        gained = fire.speed_lost_kn(self.rules, sustained, s.damage - s.points_at_entry / s.endurance)
        lost = sustained if s.torpedoed else min(sustained, prior.speed_lost_kn + gained)
        return Condition(
            damage=s.damage, gunnery=self._offensive(s), speed_lost_kn=lost,
            fast_speed_lost=prior.fast_speed_lost or s.torpedoed or fire.offensive_factor(self.rules, s.damage) < 1.0,
            sunk=not s.afloat, waterlogged=prior.waterlogged,
            torpedoes_fired=prior.torpedoes_fired + s.torpedoes_fired)

    def settled(self) -> list[TickEvent] | None:
        """The umpire's settlement once a contact has lingered over the hour (seed 002 l.35), else None."""
        return None if self._settlement is None else list(self._settlement)

    # -- a move ------------------------------------------------------------------------------------

    def step(self, helm: Mapping[str, HelmOrder], setting: Setting) -> list[TickEvent]:
        """Play one move: orders (with the signal delay), motion, fire, torpedoes, damage, the umpire."""
        dt = self.next_tick_s()
        if self._settlement is not None:  # the umpire has ended the battle
            self.t_s += dt
            return []
        melee = dt == self.rules.duel_move_s
        t0, t1 = self.t_s, self.t_s + dt
        events = self._orders(helm, melee, t0)
        turn_s = self.rules.duel_16_point_turn_s if melee else self.rules.fleet_16_point_turn_s
        for s in self._ships.values():
            if not s.afloat:
                s.speed, s.turned_deg = 0.0, 0.0
                continue
            m = move_ship(self.rules, s.x, s.y, s.course, s.speed, s.active.course_deg,
                          min(s.active.speed_kn, self._order_cap_kn(s, melee)), self._limit_kn(s), dt, turn_s)
            s.x, s.y, s.course, s.speed, s.turned_deg = m.x_yd, m.y_yd, m.course_deg, m.speed_kn, m.turned_deg
        self._pairs = None
        received: dict[str, list[tuple[str, float, str]]] = {}
        events += self._gunfire(setting, dt, t1, received)
        events += self._torpedoes(setting, t1, received)
        events += self._damage(received, t1)
        self.t_s = t1
        self._umpire(dt)
        return events

    def _orders(self, helm: Mapping[str, HelmOrder], melee: bool, t0: float) -> list[TickEvent]:
        hoisting: dict[str, list[tuple[_Ship, HelmOrder]]] = {}
        for name, s in self._ships.items():
            if not s.afloat:
                continue
            given = helm.get(name)
            if melee or not s.squadron:
                s.active = given or s.active
                s.pending = None
                continue
            # A squadron ship executes last move's order and hoists this move's (seed 002 l.3-5).
            hoisted = s.pending or s.active
            s.active = hoisted
            if given is not None:
                if self._changed(hoisted, given):
                    hoisting.setdefault(s.c.unit, []).append((s, given))
                s.pending = given
        events = []
        executes = t0 + self.rules.fleet_move_s * self.rules.signal_delay_moves
        for unit, changed in hoisting.items():
            # One hoist per squadron, by her flagship where she is one of the ships signalled.
            flag = next(((s, o) for s, o in changed if s.c.flagship), changed[0])
            events.append(_event(t0, "signal", flag[0].c.name, None, unit=unit,
                                 ships=tuple(s.c.name for s, _ in changed),
                                 course_deg=round(flag[1].course_deg, 1), speed_kn=round(flag[1].speed_kn, 2),
                                 executes_at_s=executes))
        return events

    def _changed(self, old: HelmOrder, new: HelmOrder) -> bool:
        """Whether an order differs from the last one enough to record its signal."""
        turn = abs(float(angle_diff_deg(old.course_deg, new.course_deg)))
        return turn >= self.rules.signal_course_change_deg or \
            abs(old.speed_kn - new.speed_kn) >= self.rules.signal_speed_change_kn

    def _clear(self, firer: _Ship, target: _Ship, afloat: Sequence[_Ship]) -> bool:
        """Whether no other ship of ``afloat`` (either side) masks ``firer``'s line of fire to ``target``."""
        others = [(o.x, o.y) for o in afloat if o is not firer and o is not target]
        return not fire.is_masked(self.rules, (firer.x, firer.y), (target.x, target.y), others)

    def _gunfire(self, setting: Setting, dt: float, t1: float,
                 received: dict[str, list[tuple[str, float, str]]]) -> list[TickEvent]:
        events = []
        afloat = [s for s in self._ships.values() if s.afloat]
        for s in self._ships.values():
            offensive = self._offensive(s)
            if offensive <= 0.0:
                continue
            best = None
            for e in afloat:
                if e.c.side == s.c.side:
                    continue
                r = math.hypot(e.x - s.x, e.y - s.y)
                if r > self.rules.gun_range_yd or r > setting.visibility_yd:
                    continue
                weight, guns = s.battery.at(_relative_bearing_deg(s, e))
                if weight <= 0.0:
                    continue
                key = (self.rules.prefer_own_type and e.kind != s.kind, r)
                # Masking is the dearest test, and only a target that would be preferred needs it.
                if (best is None or key < best[0]) and self._clear(s, e, afloat):
                    best = (key, e, r, weight, guns)
            if best is None:
                continue
            _, e, r, weight, guns = best
            points = fire.fire_points(self.rules, weight, r, offensive, s.turned_deg, dt)
            halved = s.turned_deg > self.rules.gunfire_halved_above_deg
            events.append(_event(t1, "fire", s.c.name, e.c.name, range_yd=round(r, 1), guns_8in=round(guns, 3),
                                 broadsides=round(weight, 4), offensive_factor=offensive,
                                 turning_halved=halved, points=round(points, 3)))
            if points > 0.0:
                received.setdefault(e.c.name, []).append((s.c.name, points, "gunfire"))
        return events

    def _torpedoes(self, setting: Setting, t1: float,
                   received: dict[str, list[tuple[str, float, str]]]) -> list[TickEvent]:
        events = []
        lo, hi = self.rules.torpedo_arc_deg
        afloat = [s for s in self._ships.values() if s.afloat]
        for s in self._ships.values():
            if not s.afloat or not any(s.tubes_ready_s.values()):
                continue
            best = None
            for e in afloat:
                if e.c.side == s.c.side:
                    continue
                r = math.hypot(e.x - s.x, e.y - s.y)
                if r > self.rules.torpedo_range_yd or r > setting.visibility_yd:
                    continue
                rel = float(angle_diff_deg(s.course, float(bearing_deg(s.x, s.y, e.x, e.y))))
                beam = "starboard" if rel > 0 else "port"
                if not lo <= abs(rel) <= hi or not any(t <= t1 for t in s.tubes_ready_s[beam]):
                    continue
                if (best is None or r < best[1]) and self._clear(s, e, afloat):
                    best = (e, r, beam)
            if best is None:
                continue
            e, r, beam = best
            tubes = s.tubes_ready_s[beam]
            tubes[tubes.index(min(tubes))] = t1 + self.rules.torpedo_reload_s
            s.torpedoes_fired += 1
            zone = fire.torpedo_zone(self.rules, r)
            roll = int(self.rng.integers(1, self.rules.die_sides + 1))
            hit = fire.torpedo_hits(zone, roll)
            events.append(_event(t1, "torpedo", s.c.name, e.c.name, range_yd=round(r, 1), zone=zone,
                                 roll=roll, result="hit" if hit else "miss"))
            if hit:
                received.setdefault(e.c.name, []).append((s.c.name, self.rules.torpedo_damage_points, "torpedo"))
        return events

    def _damage(self, received: Mapping[str, list[tuple[str, float, str]]], t1: float) -> list[TickEvent]:
        hits, sunk = [], []
        for name, s in self._ships.items():
            for firer, points, cause in received.get(name, ()):
                s.points += points
                if cause == "torpedo":
                    s.torpedoed = True
                hits.append(_event(t1, "hit", name, firer, cause=cause, points=round(points, 3),
                                   damage=round(points / s.endurance, 5), damage_total=round(s.damage, 5),
                                   offensive_factor=self._offensive(s)))
            if s.afloat and s.points >= self.rules.destroyed_at * s.endurance:
                s.afloat, s.speed = False, 0.0
                self._pairs = None
                last = received[name][-1][0]
                sunk.append(_event(t1, "sunk", name, last, points_received=round(s.points, 3),
                                   endurance=s.endurance))
        return hits + sunk

    def _umpire(self, dt: float) -> None:
        """Time the close contact and settle it when it has lasted over the hour (seed 002 l.35)."""
        r = self.rules
        close: dict[str, _Ship] = {}
        for a, b, rng in self._hostile_pairs():
            limit = r.settle_armoured_range_yd if (a.armoured or b.armoured) else r.settle_unarmoured_range_yd
            if rng <= limit:
                close[a.c.name], close[b.c.name] = a, b
        self._contact_s = self._contact_s + dt if close else 0.0
        if self._contact_s <= r.settle_duration_s:
            return
        forces: dict[str, list[InContact]] = {}
        for s in close.values():
            forces.setdefault(s.c.side, []).append(InContact(s.c.name, self._fighting_value(s), s.armoured))
        decision = settle(r, forces)
        if decision is None:
            return
        events, sunk = [], []
        for name, fate in decision.fates.items():
            s = self._ships[name]
            before = s.points
            if fate == REMOVED:
                s.points = max(s.points, s.endurance)
            elif fate == LOSES_HALF:
                s.points += r.settle_half_loss_fraction * s.endurance
            elif fate == CRIPPLED:
                s.points = max(s.points, r.settle_crippled_damage_fraction * s.endurance)
            data = {"settlement": fate, "ratio": round(decision.ratio, 3), "superior": decision.superior}
            if fate != REMOVED:
                events.append(_event(self.t_s, "hit", name, None, cause="settlement",
                                     points=round(s.points - before, 3),
                                     damage=round((s.points - before) / s.endurance, 5),
                                     damage_total=round(s.damage, 5),
                                     offensive_factor=fire.offensive_factor(r, s.damage), **data))
            if s.points >= r.destroyed_at * s.endurance:
                s.afloat, s.speed = False, 0.0
                self._pairs = None
                sunk.append(_event(self.t_s, "sunk", name, None, points_received=round(s.points, 3),
                                   endurance=s.endurance, **data))
        self._settlement = events + sunk


class Nwc1905Engine:
    """The NWC 1905 rule set (seed 002): ``begin`` returns a fresh :class:`Nwc1905Battle`."""

    name = "nwc1905"

    def __init__(self, rules: Nwc1905Rules | None = None) -> None:
        self.rules = rules or load_rules()

    def begin(self, setup: BattleSetup, rng: np.random.Generator) -> Nwc1905Battle:
        """Set up a battle from ``setup``; the only randomness (torpedo dice) comes from ``rng``."""
        return Nwc1905Battle(setup, rng, self.rules)


__all__ = ["Nwc1905Battle", "Nwc1905Engine", "load_rules"]
