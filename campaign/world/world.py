"""The strategic world: one SimPy environment holding the truth of a run.

Each force follows its orders as a SimPy process (``follow_orders``); steaming and coaling live in
``campaign.world.steaming`` and ``campaign.world.coaling``. Time is minutes since the scenario start.
Nothing moves by ticks: a force's next event is computed from its leg and its ships' coal, and
scheduled. Every change of a ship's state emits a record (``campaign.records``).
"""

from __future__ import annotations

import math
from collections.abc import Generator
from typing import Any

import numpy as np
import simpy

from campaign.clock import Clock
from campaign.geo.places import Gazetteer, Place, default_places
from campaign.geo.routing import Router, default_router
from campaign.model.orders import Bombard, Coal, CoalFromCollier, Detach, Order, Point, Sail, Stop, Wait
from campaign.records import Recorder
from campaign.scenario.model import ForceSpec, Scenario
from campaign.world import bombardment, coaling, politics, rearm, steaming, victory
from campaign.world.command import CommandRuntime
from campaign.world.conditions import default_conditions
from campaign.world.contacts import Contacts
from campaign.world.engagement import Engagements
from campaign.world.environment import WorldEnvironment
from campaign.world.observers import Observers
from campaign.world.rules import StrategicRules, default_rules
from campaign.world.sighting import Conditions, SightingRules
from campaign.world.units import ForceState, ShipState
from campaign.world.weather import Weather

# One generator per subsystem, spawned in this order from the run's SeedSequence (DESIGN.md
# principle 5): adding a subsystem at the end never reshuffles the others' draws.
RNG_STREAMS = ("weather", "sighting", "combat", "signals", "command", "scoring")

PORT_KINDS = frozenset({"port", "naval_base"})

# The causes of interrupts: the force's leg was re-planned under it; the force has new orders.
REPLANNED = "replanned"
NEW_ORDERS = "new orders"


class NewOrders(Exception):
    """Raised inside a force's process when its orders have been replaced."""


class OrderImpossible(Exception):
    """An order that cannot be carried out where and when it falls due (recorded, then skipped)."""


class World:
    """The truth of one run: forces, ships, ports, the clock and the record stream."""

    def __init__(self, scenario: Scenario, seed: int, *, router: Router | None = None,
                 places: Gazetteer | None = None, rules: StrategicRules | None = None,
                 conditions: Conditions | None = None, sighting_rules: SightingRules | None = None,
                 engine: str | None = None) -> None:
        self.scenario = scenario
        self.seed = seed
        self.env = WorldEnvironment()
        self.clock = Clock(scenario.start_utc)
        self.rec = Recorder()
        self.router = router or default_router()
        self.places = places or default_places()
        self.rules = rules or default_rules()
        streams = np.random.SeedSequence(seed).spawn(len(RNG_STREAMS))
        self.rng = {name: np.random.default_rng(s) for name, s in zip(RNG_STREAMS, streams)}
        self.end_min = scenario.duration_min
        # Leaves to fire the run has granted (shooter, target): a conditional leave of the political
        # timeline whose condition came true (campaign.world.engagement.Engagements.grant_on_attack).
        self.fire_granted: set[tuple[str, str]] = set()
        self.forces: dict[str, ForceState] = {}
        self.ships: dict[str, ShipState] = {}
        self.transfers: dict[str, coaling.CollierTransfer] = {}
        self.rearming: dict[str, rearm.Rearming] = {}  # ships taking in ammunition (campaign.world.rearm)
        self.collier_waiters: list[tuple[ForceState, ForceState, simpy.Event]] = []
        self.weather = Weather(scenario.start_utc, scenario.end_utc, self.rng["weather"],
                               script=scenario.weather_script)
        self.contacts = Contacts(self, conditions or default_conditions(self), sighting_rules)
        self.command = CommandRuntime(self)
        self.observers = Observers(self)  # consuls and signal stations overlooking places ashore
        # The tactical engine battles are fought under: the run's choice, else the scenario's.
        self.engagements = Engagements(self, engine or scenario.engine)
        for spec in scenario.forces:
            if spec.enters_min > 0.0:
                self.env.process(self._enter(spec))
            else:
                self._add_force(spec)
        self.env.process(politics.announce(self))
        self.env.process(steaming.watch_the_sea(self))  # head seas slow low-freeboard ships under way
        victory.start(self)  # the secret victory-condition draws of a scored scenario (seed 000)

    # -- set-up ---------------------------------------------------------------------------------

    def _enter(self, spec: ForceSpec) -> Generator[simpy.Event, Any, None]:
        """A force that comes into the theatre after the start (``spec.enters_min``): till then nothing of
        it is in the run (no eyes, no wireless, no coal burnt), then it is added as at the start."""
        yield self.env.timeout(spec.enters_min)
        self._add_force(spec)

    def _add_force(self, spec: ForceSpec) -> None:
        force = ForceState(spec.name, spec.side, spec.nation, orders=spec.orders, avoid=spec.avoid)
        force.lat, force.lon = spec.start.lat, spec.start.lon
        for ship in spec.ships:
            st = ShipState(ship, spec.side, force, coal_t=float(spec.coal_t[ship.name]),
                           coal_ref_min=self.env.now, cargo_t=float(spec.cargo_t.get(ship.name, 0.0)))
            force.ships.append(st)
            self.ships[ship.name] = st
        self.forces[force.name] = force
        self.command.add_force(force)
        place = self.place_of(spec.start)
        if place is not None and self.is_enterable_port(force, place):
            self.enter_port(force, place)
        else:
            force.place = place.name if place else None
            self.set_all(force, "waiting")
        for st in force.ships:
            self.emit(st, "start", note=spec.note)
        self.moved(force)
        force.process = self.env.process(self.follow_orders(force))

    def interrupt(self, force: ForceState, cause: str) -> None:
        """Wake a force's process (its leg was re-planned, or it has new orders)."""
        proc = force.process
        if proc is not None and proc.is_alive and proc is not self.env.active_process:
            proc.interrupt(cause)

    def moved(self, force: ForceState) -> None:
        """A force's motion may have changed (a leg begun, ended or re-planned): tell the eyes, its
        commander's watch on the bunkers, and the enemies who have it in sight."""
        self.contacts.moved(force)
        self.command.coal_watch(force)
        self.command.seen_moving(force)

    # -- places and politics --------------------------------------------------------------------

    def place_of(self, p: Point) -> Place | None:
        return self.places.get(p.place) if p.place else None

    def at_war(self, a: str, b: str) -> bool:
        """Are two nations at war now? By the scenario's political timeline when it has one; else
        every nation of one side is at war with every nation of another, neutrals apart."""
        if self.scenario.politics.events:
            return self.scenario.politics.at_war(a, b, self.env.now)
        sa, sb = self.scenario.side_of_nation(a), self.scenario.side_of_nation(b)
        neutral = self.scenario.neutral_sides
        return sa is not None and sb is not None and sa != sb and sa not in neutral and sb not in neutral

    def may_fire(self, shooter: str, target: str) -> bool:
        """May ships of ``shooter`` open fire on ships of ``target`` now? By the political timeline when
        the scenario has one (war, or leave to fire before war, or leave earned by the target's attack on
        protected ships: ``fire_granted``); else when the two are at war."""
        if self.scenario.politics.events:
            return (self.scenario.politics.may_fire(shooter, target, self.env.now)
                    or (shooter, target) in self.fire_granted)
        return self.at_war(shooter, target)

    def belligerent(self, nation: str) -> bool:
        """Is the nation at war with anyone now (and so bound by the rules for belligerents)?"""
        if self.scenario.politics.events:
            return any(nation in pair for pair in self.scenario.politics.wars(self.env.now))
        return any(self.at_war(nation, other) for other in self.scenario.nations() if other != nation)

    def relation(self, force: ForceState, nation: str | None) -> str:
        """'own', 'friendly', 'hostile' or 'neutral': how a nation stands to the force's nation now."""
        if nation is None:
            return "neutral"
        if nation == force.nation:
            return "own"
        if self.at_war(force.nation, nation):
            return "hostile"
        side = self.scenario.side_of_nation(nation)
        if side is not None and side == force.side and side not in self.scenario.neutral_sides:
            return "friendly"
        return "neutral"

    def avoid_areas(self, force: ForceState) -> tuple:
        """Waters the force may not enter now: its own standing limits and the political timeline's."""
        from campaign.geo.regions import barred_waters

        # Straits closed to foreign warships without the sovereign's leave bar only forces with warships,
        # and only where the scenario has a political timeline (without one, nobody's leave is asked).
        warships = any(not s.ship.is_merchant for s in force.active_ships())
        barred = barred_waters(self.scenario.politics, force.nation, warships, self.env.now)
        keys = {a.key for a in force.avoid}
        return tuple(force.avoid) + tuple(b for b in barred if b.key not in keys)

    def is_enterable_port(self, force: ForceState, place: Place) -> bool:
        return place.kind in PORT_KINDS and self.relation(force, place.nation) != "hostile"

    def enter_port(self, force: ForceState, place: Place) -> None:
        force.place, force.in_port = place.name, True
        self.command.in_port(force, place.name)
        force.lat, force.lon = place.anchorage_lat, place.anchorage_lon
        force.port_clock_min = None
        # Hague XIII limits the stay of belligerent warships; merchant ships (colliers, supply
        # ships) are not bound by it.
        warships = any(not s.ship.is_merchant for s in force.active_ships())
        if warships and self.belligerent(force.nation) and self.relation(force, place.nation) == "neutral":
            force.port_clock_min = self.env.now
            # A neutral's notice, given while the force lies there, restarts the count (Italy counted
            # Goeben's 24 hours at Messina from 17:00 on 5 August: a Russian naval narrative, probably
            # Bolnykh, litmir.club/br/?b=282688&p=9; Massie, Castles of Steel ch.8).
            for notice in self.scenario.neutral_notices:
                if notice.port == place.name and notice.nation == force.nation and notice.t_min > self.env.now:
                    force.pending_notice = notice.t_min
        self.set_all(force, "in_port")
        rearm.arrive(self, force, place)  # at a base with her navy's ammunition she fills her outfit

    def port_deadline(self, force: ForceState) -> float:
        """When the force must be out of the neutral port it lies in (inf when none applies)."""
        if not force.in_port or force.port_clock_min is None:
            return math.inf
        start = force.port_clock_min
        notice = force.pending_notice
        if notice is not None and notice <= start + self.rules.neutral_stay_limit_h * 60.0:
            start = max(start, notice)
        return start + self.rules.neutral_stay_limit_h * 60.0

    # -- state and records ----------------------------------------------------------------------

    def emit(self, ship: ShipState, type_: str, **data: Any) -> None:
        """Record a ship's state change with the fields every output needs to rebuild its track."""
        force = ship.force
        now = self.env.now
        lat, lon, course = force.position_at(now)
        leg = force.leg if ship.status == "underway" else None
        fields: dict[str, Any] = {
            "force": force.name,
            "status": ship.status,
            "coal_t": round(ship.coal_at(now), 2),
            "coal_rate_t_per_h": round(ship.rate_t_per_h, 4),
            "speed_kn": round(leg.speed_kn, 3) if leg else 0.0,
            "course_deg": round(course, 1) if leg else None,
            "place": force.place,
        }
        fields.update({k: v for k, v in data.items() if v is not None})
        self.rec.emit(now, type_, ship.name, ship.side, lat, lon, **fields)

    def set_all(self, force: ForceState, status: str) -> None:
        """Put every active ship of a force in ``status`` with the coal rate that status implies."""
        for ship in force.active_ships():
            self.set_status(ship, status)

    def set_status(self, ship: ShipState, status: str, rate_t_per_h: float | None = None) -> None:
        if rate_t_per_h is None:
            rate_t_per_h = self.idle_rate(ship, status)
        ship.set_rate(self.env.now, rate_t_per_h)
        ship.status = status

    @staticmethod
    def idle_rate(ship: ShipState, status: str) -> float:
        """Coal rate, t/h, of a ship not steaming: nothing in port, the fixed load stopped at sea
        (data/strategic_rules.yaml, after seed 000's Coaling Index)."""
        # A ship shelling a town lies off it with steam up, as one waiting does.
        if status in ("waiting", "stopped", bombardment.SHELLING):
            return -float(ship.ship.consumption.t_per_h(0.0))
        return 0.0

    # -- orders ---------------------------------------------------------------------------------

    def follow_orders(self, force: ForceState) -> Generator[simpy.Event, Any, None]:
        """The force's life: carry out its orders in turn, then lie where it is.

        An order with a time (``at_min``) begins then: the order before it is cut short at that time
        if it is still running, so a script of timed orders reads as a log of what was ordered when.
        New orders (``give_orders``) replace the list at once: the force stops where it is and starts
        on them.
        """
        while True:
            try:
                while force.battle is not None:  # in action: its orders wait for the battle's end
                    yield force.battle.done
                yield from self._carry_out(force)
                return
            except NewOrders:
                steaming.account_distance(self, force)
                if not force.in_port and force.active_ships() and force.battle is None:
                    self.set_all(force, "waiting")
                continue
            except simpy.Interrupt as intr:  # new orders given while it waited for a battle's end
                if intr.cause not in (NEW_ORDERS, REPLANNED):
                    raise
                continue

    def _carry_out(self, force: ForceState) -> Generator[simpy.Event, Any, None]:
        orders = list(force.orders)
        for i, order in enumerate(orders):
            force.order_index = i
            if not force.active_ships() or force.interned:
                return
            nxt = orders[i + 1] if i + 1 < len(orders) else None
            cut = nxt.at_min if nxt is not None and nxt.at_min is not None else math.inf
            if order.at_min is not None and order.at_min > self.env.now:
                yield from self.hold(force, order.at_min)
                if force.interned or not force.active_ships():
                    return
            force.current_order = describe(order)
            try:
                if isinstance(order, Sail):
                    yield from steaming.sail(self, force, order, next_order=nxt, cut_min=cut)
                elif isinstance(order, Wait):
                    yield from self.hold(force, min(order.until_min, cut))
                elif isinstance(order, Coal):
                    yield from coaling.coal_in_port(self, force, order, cut_min=cut)
                elif isinstance(order, CoalFromCollier):
                    yield from coaling.coal_from_collier(self, force, order, cut_min=cut)
                elif isinstance(order, Detach):
                    self.detach(force, order)
                elif isinstance(order, Bombard):
                    yield from bombardment.bombard(self, force, order, cut_min=cut)
                elif isinstance(order, Stop):
                    if not force.in_port:
                        self.set_all(force, "stopped")
                        for ship in force.active_ships():
                            self.emit(ship, "stop", note=order.note)
                    yield from self.hold(force, min(math.inf, cut), staying=True)
            except OrderImpossible as exc:
                self._emit_force(force, "order_failed", order=describe(order), reason=str(exc))
        force.order_index = len(orders)
        force.current_order = ""
        self.command.orders_done(force)  # its commander looks again: his orders are done
        yield from self.hold(force, math.inf, staying=True)

    def give_orders(self, force: ForceState, orders: tuple, *, why: str = "", by: str = "") -> None:
        """Replace a force's orders now: its process drops what it is doing and starts on these."""
        force.orders = tuple(orders)
        # At the first of them from now: what its commander reads as the orders it is on (his script,
        # when his doctrine takes over in this same instant) before its process starts on them.
        force.order_index = 0
        force.order_epoch += 1
        lead = (force.active_ships() or force.ships)[:1]
        for ship in lead:
            self.emit(ship, "orders", by=by or None, reason=why or None,
                      orders=[describe(o) for o in orders][:5])
        if force.process is self.env.active_process:
            raise NewOrders()
        self.interrupt(force, NEW_ORDERS)

    def _emit_force(self, force: ForceState, type_: str, **data: Any) -> None:
        for ship in force.active_ships():
            self.emit(ship, type_, **data)

    def hold(self, force: ForceState, until_min: float, *, staying: bool = False) -> Generator[simpy.Event, Any, None]:
        """Lie where the force is until ``until_min``.

        In a neutral port the stay ends at the port's time limit: the force then puts to sea and waits
        there, or, if its orders are to stay (``staying``), is interned.
        """
        deadline = self.port_deadline(force)
        if not force.in_port and any(s.status == "underway" for s in force.active_ships()):
            self.set_all(force, "waiting")
        stop = min(until_min, deadline, self.end_min)
        yield from self.advance(force, lambda: stop)
        if self.env.now >= deadline - 1e-9 and deadline < self.end_min and deadline <= until_min:
            self.neutral_limit(force, staying=staying)
            if not staying and until_min > self.env.now:
                yield from self.hold(force, until_min)

    @staticmethod
    def next_dry(force: ForceState) -> tuple[float, list[ShipState]]:
        """When the first of the force's burning ships will have an empty bunker, and which ships."""
        dry_at, dry = math.inf, []
        for ship in force.active_ships():
            if ship.rate_t_per_h < 0:
                t = ship.coal_ref_min + ship.coal_t / -ship.rate_t_per_h * 60.0
                if t < dry_at - 1e-9:
                    dry_at, dry = t, [ship]
                elif abs(t - dry_at) <= 1e-9:
                    dry.append(ship)
        return dry_at, dry

    def handle_dry(self, force: ForceState) -> bool:
        """Stop every ship of the force whose bunker is empty now; True if any was."""
        now = self.env.now
        dry = [s for s in force.active_ships() if s.rate_t_per_h < 0 and s.coal_at(now) <= 1e-6]
        for ship in dry:
            self.out_of_coal(force, ship)
        if dry and force.active_ships():
            steaming.releg(self, force)
        return bool(dry)

    def advance(self, force: ForceState, stop_at) -> Generator[simpy.Event, Any, None]:
        """Let time run to ``stop_at()`` for a force, stopping any ship whose coal runs out on the way."""
        while True:
            stop = min(stop_at(), self.end_min)
            dry_at, _ = self.next_dry(force)
            t_next = min(stop, dry_at)
            if t_next > self.env.now:
                try:
                    yield self.env.timeout(t_next - self.env.now)
                except simpy.Interrupt as intr:
                    if intr.cause == NEW_ORDERS:
                        raise NewOrders() from None
                    if intr.cause != REPLANNED:
                        raise
                    continue  # the leg was re-planned: recompute when to stop
            if dry_at <= stop and self.handle_dry(force):
                if not force.active_ships():
                    return
                continue
            return

    def out_of_coal(self, force: ForceState, ship: ShipState) -> None:
        """A ship's bunkers are empty: she stops where she is and leaves her force."""
        now = self.env.now
        steaming.checkpoint(self, force)
        lat, lon, course = force.position_at(now)
        ship.settle(now)
        ship.coal_t = 0.0
        ship.rate_t_per_h = 0.0
        ship.version += 1
        ship.status = "out_of_coal"
        force.ships.remove(ship)
        name = ship.name if ship.name not in self.forces else f"{ship.name} (out of coal)"
        lone = ForceState(name, force.side, force.nation, ships=[ship], lat=lat, lon=lon, course_deg=course,
                          avoid=force.avoid)
        ship.force = lone
        self.forces[name] = lone
        self.command.add_force(lone)
        ship.status = "out_of_coal"
        self.emit(ship, "out_of_coal", was_in=force.name, order=force.current_order or None)
        self.moved(lone)
        self.moved(force)  # a ship fewer: seen nearer, bunkers watched afresh (gone if none left)

    def neutral_limit(self, force: ForceState, *, staying: bool = False) -> None:
        """A force's time in a neutral port is up (Hague XIII, Arts. 12 and 24)."""
        if staying:
            for ship in force.active_ships():
                self.set_status(ship, "interned", 0.0)
                self.emit(ship, "interned", limit_h=self.rules.neutral_stay_limit_h,
                          reason="stayed in a neutral port beyond its time limit")
            force.interned = True
            return
        place = force.place
        force.in_port, force.port_clock_min, force.pending_notice = False, None, None
        self.command.in_port(force, None)  # off the port, the telegraph there no longer reaches her
        self.set_all(force, "waiting")
        self._emit_force(force, "neutral_limit", limit_h=self.rules.neutral_stay_limit_h,
                         reason=f"puts to sea from {place}: its time in the neutral port is up")
        politics.leave_if_inside(self, force, f"put to sea from {place}")  # and out of its waters, if barred
        self.command.orders_done(force)  # put out, its commander looks again (one staying his time there)

    def detach(self, force: ForceState, order: Detach) -> None:
        names = set(order.ships)
        leaving = [s for s in force.active_ships() if s.name in names]
        if len(leaving) != len(names):
            missing = sorted(names - {s.name for s in leaving})
            raise OrderImpossible(f"ships not in {force.name}: {', '.join(missing)}")
        new = ForceState(order.name, force.side, force.nation, orders=order.orders, lat=force.lat,
                         lon=force.lon, course_deg=force.course_deg, place=force.place,
                         in_port=force.in_port, port_clock_min=force.port_clock_min, avoid=force.avoid,
                         pending_notice=force.pending_notice)
        for ship in leaving:
            force.ships.remove(ship)
            ship.force = new
            new.ships.append(ship)
        self.forces[new.name] = new
        self.command.add_force(new, parent=force)
        for ship in leaving:
            self.emit(ship, "detach", was_in=force.name, note=order.note)
        self.moved(new)
        self.moved(force)
        new.process = self.env.process(self.follow_orders(new))

    # -- collier meetings -----------------------------------------------------------------------

    def collier_present(self, force: ForceState, collier: ForceState) -> bool:
        if collier.leg is not None or not collier.active_ships() or force.leg is not None:
            return False
        from campaign.geo.earth import distance_nm

        return distance_nm(force.lat, force.lon, collier.lat, collier.lon) <= self.rules.collier_meet_radius_nm

    def notify_arrival(self, force: ForceState) -> None:
        """A force has stopped somewhere: wake any force waiting there for it (or for whom it waits); an
        observer overlooking the place reports an enemy."""
        self.observers.arrived(force)
        still = []
        for waiter, collier, ev in self.collier_waiters:
            if ev.triggered:
                continue
            if (force is collier or force is waiter) and self.collier_present(waiter, collier):
                ev.succeed()
            else:
                still.append((waiter, collier, ev))
        self.collier_waiters = still

    # -- the run --------------------------------------------------------------------------------

    def run(self) -> None:
        """Run the scenario to its end and close every unit's account."""
        self.env.run(until=self.end_min)
        self.finish()

    def finish(self) -> None:
        """At the scenario's end: settle legs and coal, and write each unit's ``end`` record."""
        # Credit the distance run so far but leave the legs as they are: a force still under way at the
        # end is recorded under way at its speed, and its track runs on to the last instant.
        for force in list(self.forces.values()):
            steaming.checkpoint(self, force)
        for ship in self.ships.values():
            ship.settle(self.end_min)
            for t in self.transfers.values():
                t.settle(self.end_min)
            self.emit(ship, "end", run_nm=round(ship.run_nm, 2), burnt_t=round(ship.burnt_t, 2),
                      taken_t=round(ship.taken_t, 2), given_t=round(ship.given_t, 2),
                      cargo_t=round(ship.cargo_t, 2) if ship.ship.cargo_coal_t else None)


def describe(order: Order) -> str:
    """A short description of an order, in words, for records and the replay."""
    if isinstance(order, Sail):
        via = f" via {', '.join(p.label() for p in order.via)}" if order.via else ""
        speed = f"{order.speed:g} kn" if isinstance(order.speed, (int, float)) else f"{order.speed} speed"
        return f"sail to {order.to.label()}{via} at {speed}"
    if isinstance(order, Wait):
        return "wait"
    if isinstance(order, Coal):
        return "coal in port"
    if isinstance(order, CoalFromCollier):
        return f"coal from {order.collier}"
    if isinstance(order, Detach):
        return f"detach {', '.join(order.ships)} as {order.name}"
    if isinstance(order, Bombard):
        return f"bombard {order.town}"
    if isinstance(order, Stop):
        return "stop"
    return type(order).__name__.lower()
