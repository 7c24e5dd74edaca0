"""The ``nwc1905`` tactical engine: the Naval War College's 1905 fleet tactical game and, in a mêlée,
its duel game (seed 002, "Rules for the Conduct of the War Games"; the rules and every figure with its
source are in ``data/tactics/nwc1905.yaml``).

A move is 2.5 minutes (150 s); when any two hostile ships come within the mêlée distance the fight
goes on "under Duel Game rules, with each move representing half a minute" (seed 002 l.59-61). In
each move:

1. Orders come from the helm (``campaign.tactics.helm``), which keeps the squadrons in formation at
   400 yards (l.31) and hoists the admirals' signals; ``command`` tells it these rules: "A signal
   hoisted at the start of a move cannot be executed in that move" (l.3), so a signal acts a move
   (150 s) later, but "a column led by the flagship may change direction of the head of the column
   without signal" (l.31); the fleet speed keeps the 20 % reserve of every vessel (l.29); in a mêlée
   "ships are manoeuvred by their captains irrespective of fleet tactics and signals cannot be
   answered in less than five moves" (l.59), and ramming is of the duel game (l.55).
2. Motion (``nwc1905_motion.NwcHandling`` on the battle plane, ``campaign.tactics.plane``): at most the
   most she can make (a reserve is the helm's to keep); 1 knot per 30 seconds (l.25); turning at the
   rate of the fleet cards or the duel curve (l.19), losing speed on the circle (l.23). Hulls that
   meet stop where they touch: a stem striking a side or stern at 6 knots or more (seed 004 l.55; the
   1905 rules give no speed) is a successful ramming blow and the ship struck is destroyed (STAND-IN:
   our copy of the rules gives no effect, Jane's "any rammed ship is sunk" is used), the rammer lying
   motionless through the next move (l.55); stem to stem or on opposite courses is a draw: neither is
   harmed, both lie motionless through the next move (STAND-IN reading of "draw").
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

Under ``damage="gwas"`` the points of gunfire are turned into hits of Great War at Sea's damage model,
which then decides what they destroy (``campaign.tactics.nwc1905_gwas``): her damage is the model's
hull boxes lost besides the points of torpedoes and rams, her offensive factor no more than the model's
gunnery. The default is the 1905 rules' own.

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
from campaign.tactics.ammunition import Magazine, default_ammunition_rules, rounds_by_gun
from campaign.tactics.damage import hull_fraction
from campaign.tactics.gwas import DAMAGE_GWAS, DAMAGE_OWN, GwasLedger, check_damage
from campaign.tactics.kinematics import angle_diff_deg, bearing_deg
from campaign.tactics.nwc1905_gwas import NwcGwas
from campaign.tactics.nwc1905_motion import NwcHandling
from campaign.tactics.nwc1905_rules import Nwc1905Rules, load_rules
from campaign.tactics.nwc1905_umpire import CRIPPLED, LOSES_HALF, REMOVED, InContact, settle
from campaign.tactics.plane.contact import RAMMED, STEM_TO_STEM, blow, default_contact_rules
from campaign.tactics.plane.hull import Hull, Pose
from campaign.tactics.plane.motion import HELM_STEP_S, Body, Contact, Pilot, Plane, as_pilot
from campaign.tactics.protocol import (
    BattleSetup,
    Combatant,
    Command,
    Condition,
    HelmOrder,
    Setting,
    ShipView,
    TickEvent,
)
from campaign.tactics.tubes import TubeBank, can_bear, load_tube_rules


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
    battery: fire.Battery
    motionless_until_s: float = -1.0
    torpedoed: bool = False
    torpedoes_fired: int = 0
    turned_deg: float = 0.0
    #: Her torpedo tubes: each loaded or reloading, each beam tube's gyro setting (``tactics.tubes``).
    tubes: TubeBank = field(default_factory=lambda: TubeBank((), load_tube_rules()))
    # Under damage "gwas" (``nwc1905_gwas``): her hull boxes lost over hull boxes, her gunnery and her
    # speed left, and whether the model has sunk her. Under the rules' own damage they stay as here.
    gwas_hull: float = 0.0
    gwas_gunnery: float = 1.0
    gwas_speed: float = 1.0
    gwas_sunk: bool = False
    #: Her rounds per gun group (``campaign.tactics.ammunition``): what her fire spends (``_spend``).
    magazine: Magazine = field(default_factory=lambda: Magazine(()))

    @property
    def points_damage(self) -> float:
        """Points received over fighting endurance (at most 1)."""
        return min(1.0, self.points / self.endurance)

    @property
    def damage(self) -> float:
        """Her damage: the points' share of her endurance and (under gwas) the model's hull share."""
        return 1.0 if self.gwas_sunk else min(1.0, self.points_damage + self.gwas_hull)


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

    name = "nwc1905"  # the damage model of its own hits' records (``damage_model``)

    def __init__(self, setup: BattleSetup, rng: np.random.Generator, rules: Nwc1905Rules,
                 damage: str = DAMAGE_OWN) -> None:
        self.rules = rules
        self.rng = rng
        self.damage = check_damage(damage)
        ledger = GwasLedger(setup.combatants) if self.damage == DAMAGE_GWAS else None
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
        self.contact_rules = default_contact_rules()
        self.plane = Plane(self.contact_rules.end_fraction)
        self._hulls = {c.name: Hull.of(c.ship) for c in setup.combatants}
        self.paths: dict[str, list[tuple[float, float, float]]] = {}  # each ship's poses through the last move
        for c in setup.combatants:
            kind = fire.kind_of(rules, c.ship)
            endurance = fire.endurance_points(rules, c.ship)
            points = min(1.0, max(0.0, c.condition.damage)) * endurance
            if ledger is not None:  # carried damage is in the model's hull boxes, the rest in points
                points = max(0.0, points - hull_fraction(ledger.state(c.name)) * endurance)
            tubes = TubeBank.of(c.ship)  # every tube loaded and set abeam (seed 002 l.51, l.79)
            self._ships[c.name] = _Ship(
                c=c, kind=kind, endurance=endurance, armoured=kind in rules.armoured_types,
                squadron=unit_size[c.unit] > 1, x=c.x_yd, y=c.y_yd, course=c.course_deg % 360.0,
                speed=max(0.0, c.speed_kn), points=points, points_at_entry=points,
                gunnery_cap=max(0.0, min(1.0, c.condition.gunnery)),
                afloat=not (c.condition.sunk or points >= rules.destroyed_at * endurance),
                battery=fire.Battery(rules, c.ship),
                magazine=Magazine.of(c.ship, c.condition),
                tubes=tubes,
            )
        self.gwas = NwcGwas(ledger, rules, self._ships) if ledger is not None else None
        for s in self._ships.values():
            s.afloat = s.afloat and not s.gwas_sunk

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
        gained = s.points_damage - s.points_at_entry / s.endurance
        lost = fire.speed_lost_kn(self.rules, s.c.ship.sustained_speed_kn, gained)
        return max(0.0, s.c.max_speed_kn * s.gwas_speed - lost)

    def command(self) -> Command:
        """The rules of command for the coming move (module docstring, 1.): a signal acts a move later;
        the fleet speed keeps the 20 % reserve (seed 002 l.29); in a mêlée every captain handles his own
        ship, signals take five duel moves and ships may ram (l.55, l.59)."""
        r = self.rules
        if self._melee():
            return Command(signal_delay_s=r.melee_signal_moves * r.duel_move_s, column_head_free=True,
                           reserve_fraction=0.0, reserve_for_all=True, formations=False, ram=True)
        return Command(signal_delay_s=r.signal_delay_moves * r.fleet_move_s, column_head_free=True,
                       reserve_fraction=r.fleet_reserve_fraction, reserve_for_all=True, formations=True, ram=False)

    def _offensive(self, s: _Ship) -> float:
        if not s.afloat:
            return 0.0
        return min(fire.offensive_factor(self.rules, s.points_damage), s.gunnery_cap, s.gwas_gunnery)

    def _fighting_value(self, s: _Ship) -> float:
        """Offensive power now (battleship broadsides) x endurance left (battleship lives): the data
        file's STAND-IN for the rules' "relative fighting values"."""
        if not s.afloat:
            return 0.0
        left = max(0.0, s.endurance - s.points - s.gwas_hull * s.endurance)  # gwas_hull: 0 by the rules' own
        left /= self.rules.fighting_value_endurance_unit
        return self._broadside(s) * self._offensive(s) * left

    def _broadside(self, s: _Ship) -> float:
        """Her full broadside (battleship broadsides) from the guns with rounds left."""
        dry = s.magazine.dry()
        return s.battery.at(fire.BEAM_DEG, 0.0, dry)[0] if dry else s.battery.broadside_weight

    def _spend(self, s: _Ship, rel_bearing_deg: float, rng_yd: float, dry: frozenset[int], offensive: float,
               dt: float) -> dict[int, int]:
        """The rounds her guns fire in a move of ``dt`` seconds at a target ``rel_bearing_deg`` off her bow
        and ``rng_yd`` away (``data/ammunition.yaml``, engines.nwc1905): every group that bears, reaches and
        has rounds, its barrels times its rate (``nwc1905_fire.rounds_per_min``) for the time, times her
        offensive factor (the share of her guns still fighting); fractions carried to the next move.
        Returns {index in ``ship.guns``: rounds fired}."""
        basis = default_ammunition_rules().nwc1905_rate
        fired: dict[int, int] = {}
        for i, g, n in fire.groups_in_reach(s.c.ship, rel_bearing_deg, rng_yd, dry):
            rate = fire.rounds_per_min(self.rules, g, basis)
            if rate > 0.0:
                fired[i] = s.magazine.spend_time(i, n * rate * dt / 60.0 * offensive)
        return fired

    def views(self) -> Sequence[ShipView]:
        """Every ship as the helm may see her; ``max_speed_kn`` is the most she can make now (the fleet
        speed's reserve is the helm's to keep: ``command``)."""
        out = []
        for s in self._ships.values():
            armed = self._broadside(s) > 0.0
            out.append(ShipView(
                name=s.c.name, side=s.c.side, unit=s.c.unit, x_yd=s.x, y_yd=s.y, course_deg=s.course,
                speed_kn=s.speed, max_speed_kn=self._limit_kn(s), afloat=s.afloat,
                can_fire=armed and self._offensive(s) > 0.0,
                gun_range_yd=min(self.rules.gun_range_yd, s.battery.reach_with_rounds_yd(s.magazine.dry())) if armed else 0.0,
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
        gained = fire.speed_lost_kn(self.rules, sustained,
                                    s.points_damage - s.points_at_entry / s.endurance)
        gained += s.c.max_speed_kn * (1.0 - s.gwas_speed)  # the damage model's engine criticals (gwas)
        lost = sustained if s.torpedoed else min(sustained, prior.speed_lost_kn + gained)
        return Condition(
            damage=s.damage, gunnery=self._offensive(s), speed_lost_kn=lost,
            fast_speed_lost=prior.fast_speed_lost or s.torpedoed or fire.offensive_factor(self.rules, s.damage) < 1.0,
            sunk=not s.afloat, waterlogged=prior.waterlogged,
            torpedoes_fired=prior.torpedoes_fired + s.torpedoes_fired, rounds_left=s.magazine.rounds_left())

    def settled(self) -> list[TickEvent] | None:
        """The umpire's settlement once a contact has lingered over the hour (seed 002 l.35), else None."""
        return None if self._settlement is None else list(self._settlement)

    # -- a move ------------------------------------------------------------------------------------

    def step(self, helm: Pilot | Mapping[str, HelmOrder], setting: Setting) -> list[TickEvent]:
        """Play one move: motion on the plane (hulls that meet are rammed or collide), fire, torpedoes,
        damage, the umpire. ``helm``: the pilot, or plain orders for each ship."""
        dt = self.next_tick_s()
        if self._settlement is not None:  # the umpire has ended the battle
            self.t_s += dt
            return []
        melee = dt == self.rules.duel_move_s
        t0, t1 = self.t_s, self.t_s + dt
        received: dict[str, list[tuple[str, float, str]]] = {}
        events = self._move(as_pilot(helm), melee, t0, dt, received)
        self._pairs = None
        events += self._gunfire(setting, dt, t1, received)
        events += self._torpedoes(setting, t1, received)
        events += self._damage(received, t1)
        self.t_s = t1
        self._umpire(dt)
        return events

    def _move(self, pilot: Pilot, melee: bool, t0: float, dt: float,
              received: dict[str, list[tuple[str, float, str]]]) -> list[TickEvent]:
        """Every afloat ship moves at once on the plane; a meeting of hulls is judged (module docstring)."""
        turn_s = self.rules.duel_16_point_turn_s if melee else self.rules.fleet_16_point_turn_s
        bodies = []
        for s in self._ships.values():
            if not s.afloat:
                s.speed, s.turned_deg = 0.0, 0.0
                continue
            b = Body(s.c.name, s.c.side, s.c.unit, self._hulls[s.c.name], s.x, s.y, s.course, s.speed,
                     NwcHandling.of(self.rules, self._limit_kn(s), turn_s))
            b.stopped = s.motionless_until_s > t0 + 1e-9
            bodies.append(b)
        contacts = self.plane.move(bodies, pilot, t0, dt, HELM_STEP_S)
        self.paths = {b.name: b.path for b in bodies}
        for b in bodies:
            s = self._ships[b.name]
            s.x, s.y, s.course, s.speed, s.turned_deg = b.x_yd, b.y_yd, b.course_deg, b.speed_kn, b.turned_deg
        events = []
        for c in contacts:
            events += self._meeting(c, t0 + dt, received)
        return events

    def _meeting(self, c: Contact, t1: float, received: dict[str, list[tuple[str, float, str]]]) -> list[TickEvent]:
        """A meeting of two hulls (seed 002 l.55; module docstring): a successful ram destroys the ship
        struck (scored with the move's damage) and holds the rammer motionless through the next move; a
        draw holds both so; a glancing meeting only stopped them."""
        a, b = self._ships[c.a], self._ships[c.b]
        apart = abs(float(angle_diff_deg(a.course, b.course)))
        kind = blow(c, apart, self.contact_rules)
        still = t1 + self.rules.fleet_move_s
        if kind == RAMMED:
            striker, struck = self._ships[c.striker], self._ships[c.struck]
            received.setdefault(struck.c.name, []).append((striker.c.name, struck.endurance, "rammed"))
            striker.motionless_until_s = max(striker.motionless_until_s, still)
            result = "struck destroyed"
        elif kind == STEM_TO_STEM:
            a.motionless_until_s = max(a.motionless_until_s, still)
            b.motionless_until_s = max(b.motionless_until_s, still)
            result = "draw"
        else:
            result = "no damage"
        ship, other = (c.striker, c.struck) if c.striker else (c.a, c.b)
        return [_event(c.t_s, c.kind, ship, other, blow=kind, parts=(c.part_a, c.part_b), closing_kn=round(c.closing_kn, 2),
                       x_yd=round(c.x_yd, 1), y_yd=round(c.y_yd, 1), result=result)]

    def _clear(self, firer: _Ship, target: _Ship, afloat: Sequence[_Ship]) -> bool:
        """Whether no other ship of ``afloat`` (either side) masks ``firer``'s line of fire to ``target``."""
        others = [(Pose(o.x, o.y, o.course), self._hulls[o.c.name]) for o in afloat if o is not firer and o is not target]
        return not fire.is_masked((firer.x, firer.y), (Pose(target.x, target.y, target.course),
                                                       self._hulls[target.c.name]), others)

    def _gunfire(self, setting: Setting, dt: float, t1: float,
                 received: dict[str, list[tuple[str, float, str]]]) -> list[TickEvent]:
        events = []
        afloat = [s for s in self._ships.values() if s.afloat]
        for s in self._ships.values():
            offensive = self._offensive(s)
            if offensive <= 0.0:
                continue
            best = None
            dry = s.magazine.dry()
            for e in afloat:
                if e.c.side == s.c.side:
                    continue
                r = math.hypot(e.x - s.x, e.y - s.y)
                if r > self.rules.gun_range_yd or r > setting.visibility_yd:
                    continue
                rel = _relative_bearing_deg(s, e)
                weight, guns = s.battery.at(rel, r, dry)  # the guns that reach her and have rounds
                if weight <= 0.0:
                    continue
                key = (self.rules.prefer_own_type and e.kind != s.kind, r)
                # Masking is the dearest test, and only a target that would be preferred needs it.
                if (best is None or key < best[0]) and self._clear(s, e, afloat):
                    best = (key, e, r, weight, guns, rel)
            if best is None:
                continue
            _, e, r, weight, guns, rel = best
            fired = self._spend(s, rel, r, dry, offensive, dt)
            resistance = fire.resistance_factor(self.rules, e.c.ship)  # 1 unless target_resistance: armour
            points = fire.fire_points(self.rules, weight, r, offensive, s.turned_deg, dt) * resistance
            halved = s.turned_deg > self.rules.gunfire_halved_above_deg
            events.append(_event(t1, "fire", s.c.name, e.c.name, range_yd=round(r, 1), guns_8in=round(guns, 3),
                                 broadsides=round(weight, 4), offensive_factor=offensive,
                                 turning_halved=halved, resistance=round(resistance, 3), points=round(points, 3),
                                 rounds=sum(fired.values()), rounds_by_gun=rounds_by_gun(s.c.ship, fired)))
            if points > 0.0:
                received.setdefault(e.c.name, []).append((s.c.name, points, "gunfire"))
        return events

    def _torpedoes(self, setting: Setting, t1: float,
                   received: dict[str, list[tuple[str, float, str]]]) -> list[TickEvent]:
        """At most one torpedo a ship a move: from a loaded tube that bears at its present setting, at
        the nearest enemy in the zone with a clear line (seed 002 l.51, l.79-81; the tubes' arcs and
        times are in ``data/tactics/tubes.yaml``). Then each beam tube whose gyro must be re-set for the
        nearest enemy it could reach is re-set, ready "five minutes" later (l.51)."""
        events = []
        tube_rules = load_tube_rules()
        afloat = [s for s in self._ships.values() if s.afloat]
        for s in self._ships.values():
            bank = s.tubes
            if not s.afloat or not bank.tubes:
                continue
            in_zone = []
            for e in afloat:
                if e.c.side == s.c.side:
                    continue
                r = math.hypot(e.x - s.x, e.y - s.y)
                if r > self.rules.torpedo_range_yd or r > setting.visibility_yd:
                    continue
                rel = float(angle_diff_deg(s.course, float(bearing_deg(s.x, s.y, e.x, e.y))))
                in_zone.append((r, rel, e))
            in_zone.sort(key=lambda z: z[0])  # stable: enemies equally near keep the setup's order
            for r, rel, e in in_zone:
                i = bank.first_bearing(rel, t1, gyro=True)
                if i is None or not self._clear(s, e, afloat):
                    continue
                bank.fire(i, t1, tube_rules.reload_s)
                s.torpedoes_fired += 1
                zone = fire.torpedo_zone(self.rules, r)
                roll = int(self.rng.integers(1, self.rules.die_sides + 1))
                hit = fire.torpedo_hits(zone, roll)
                events.append(_event(t1, "torpedo", s.c.name, e.c.name, range_yd=round(r, 1), zone=zone,
                                     roll=roll, result="hit" if hit else "miss", tube=bank.tubes[i].label,
                                     rel_bearing_deg=round(rel, 1)))
                if hit:
                    received.setdefault(e.c.name, []).append(
                        (s.c.name, self.rules.torpedo_damage_points, "torpedo"))
                break
            for i, tube in enumerate(bank.tubes):
                if not tube.gyro_set:
                    continue
                for _, rel, _ in in_zone:
                    if can_bear(tube, rel, tube_rules):  # the nearest enemy her gyro can reach
                        if bank.needs_setting(i, rel, t1):
                            bank.set_gyro(i, rel, t1, tube_rules.gyro_change_s)
                        break
        return events

    def _damage(self, received: Mapping[str, list[tuple[str, float, str]]], t1: float) -> list[TickEvent]:
        hits, sunk = [], []
        for name, s in self._ships.items():
            for firer, points, cause in received.get(name, ()):
                if cause == "gunfire" and self.gwas is not None:
                    f = self._ships[firer]
                    rng_yd = math.hypot(s.x - f.x, s.y - f.y)
                    hits += self.gwas.gunfire(s, f, points, rng_yd, t1, self.rng)
                    continue
                s.points += points
                if cause == "torpedo":
                    s.torpedoed = True
                hits.append(_event(t1, "hit", name, firer, cause=cause, damage_model=self.name,
                                   points=round(points, 3),
                                   damage=round(points / s.endurance, 5), damage_total=round(s.damage, 5),
                                   offensive_factor=self._offensive(s)))
            gwas_sunk = self.gwas is not None and (s.gwas_sunk or s.damage >= self.rules.destroyed_at)
            if s.afloat and (s.points >= self.rules.destroyed_at * s.endurance or gwas_sunk):
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
        events = self._settle(close.values())
        if events is not None:
            self._settlement = events

    def settle_contact(self) -> list[TickEvent] | None:
        """The umpire's settlement of the whole contact at once, every ship afloat in it: what the world's
        strategic umpire asks of forces that have stayed within the rules' distance of each other for over
        the hour out of battle (seed 002 l.35, "as a strategic device"); None if the odds give him nothing
        to decide by. ``condition`` then gives each ship's lot."""
        return self._settle([s for s in self._ships.values() if s.afloat])

    def _settle(self, ships) -> list[TickEvent] | None:
        """Settle a contact between ``ships`` by relative fighting values (``nwc1905_umpire.settle``); the
        events of each ship's lot, or None if the odds are under 4:3."""
        r = self.rules
        forces: dict[str, list[InContact]] = {}
        for s in ships:
            forces.setdefault(s.c.side, []).append(InContact(s.c.name, self._fighting_value(s), s.armoured))
        decision = settle(r, forces)
        if decision is None:
            return None
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
                                     damage_model=self.name,
                                     points=round(s.points - before, 3),
                                     damage=round((s.points - before) / s.endurance, 5),
                                     damage_total=round(s.damage, 5),
                                     offensive_factor=fire.offensive_factor(r, s.damage), **data))
            if s.points >= r.destroyed_at * s.endurance:
                s.afloat, s.speed = False, 0.0
                self._pairs = None
                sunk.append(_event(self.t_s, "sunk", name, None, points_received=round(s.points, 3),
                                   endurance=s.endurance, **data))
        return events + sunk


class Nwc1905Engine:
    """The NWC 1905 rule set (seed 002): ``begin`` returns a fresh :class:`Nwc1905Battle`."""

    name = "nwc1905"

    def __init__(self, rules: Nwc1905Rules | None = None, damage: str | None = None) -> None:
        """``damage``: "own" (the 1905 rules', the default) or "gwas" (module docstring)."""
        self.rules = rules or load_rules()
        self.damage = check_damage(damage or DAMAGE_OWN)

    def begin(self, setup: BattleSetup, rng: np.random.Generator) -> Nwc1905Battle:
        """Set up a battle from ``setup``; the only randomness (torpedo dice; under gwas the damage
        model's too) comes from ``rng``."""
        return Nwc1905Battle(setup, rng, self.rules, self.damage)


__all__ = ["Nwc1905Battle", "Nwc1905Engine", "load_rules"]
