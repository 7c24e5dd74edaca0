"""Coaling: at a port at its rate for the receiving nation, or from a collier at the collier's rate.

Each ship of a force coals in parallel (seed 000, Coaling Index: "Any number of ships may refuel at
these rates from the same port or collier"); a collier's cargo falls by what it gives. A stay in a
neutral port ends at its time limit (``data/strategic_rules.yaml``).

A collier can lie alongside only in a quiet sea, outside a port (``coaling_at_sea_possible``: state 3 or
less; Zimmer 1916, ``data/weather.yaml``, ``effects.coaling_at_sea``). Where the sea forbids it the ships
wait for the weather change that allows it (``coal_delayed``); a sea that rises during a transfer stops
it at that change (``coal_end``, reason "weather"), and it resumes when the sea allows, within the
order's time. The weather at a force lying still changes only at ``Weather.changes`` times, so both are
exact.
"""

from __future__ import annotations

import math
from collections.abc import Generator
from typing import TYPE_CHECKING, Any

import simpy

from campaign.model.orders import Coal, CoalFromCollier
from campaign.world.units import ForceState, ShipState
from campaign.world.weather import WeatherState, coaling_at_sea_possible

# The reason a transfer stopped because the sea rose (``coal_end``); such ships resume when it allows.
WEATHER = "weather"

if TYPE_CHECKING:
    from campaign.world.world import World


class CollierTransfer:
    """A collier giving coal to the ships alongside her: her cargo falls at the sum of their rates.

    ``empty`` fires when the cargo is gone; ``closed`` when the collier sails. Both are replaced
    after firing, so later recipients wait on fresh events.
    """

    def __init__(self, world: World, collier: ShipState) -> None:
        self.world = world
        self.collier = collier
        self.rates: dict[str, float] = {}
        self.ref_min = world.env.now
        self.version = 0
        self.empty = world.env.event()
        self.closed = world.env.event()

    @property
    def rate_t_per_h(self) -> float:
        return sum(self.rates.values())

    def settle(self, t_min: float) -> None:
        given = self.rate_t_per_h * (t_min - self.ref_min) / 60.0
        given = min(given, self.collier.cargo_t)
        self.collier.cargo_t -= given
        self.collier.given_t += given
        self.ref_min = t_min

    def _reschedule(self) -> None:
        self.version += 1
        rate = self.rate_t_per_h
        if rate <= 0:
            return
        t_empty = self.ref_min + self.collier.cargo_t / rate * 60.0
        self.world.env.process(self._watch(self.version, t_empty))

    def _watch(self, version: int, t_empty: float) -> Generator[simpy.Event, Any, None]:
        # SimPy cannot cancel a timeout: a watch made stale by a later change simply does nothing.
        yield self.world.env.timeout(max(0.0, t_empty - self.world.env.now))
        if version == self.version and not self.empty.triggered:
            self.settle(self.world.env.now)
            self.collier.cargo_t = 0.0
            ev, self.empty = self.empty, self.world.env.event()
            ev.succeed()

    def add(self, ship: ShipState, rate_t_per_h: float) -> None:
        self.settle(self.world.env.now)
        self.rates[ship.name] = rate_t_per_h
        self._reschedule()

    def remove(self, ship: ShipState) -> None:
        self.settle(self.world.env.now)
        self.rates.pop(ship.name, None)
        self._reschedule()

    def close(self) -> None:
        self.settle(self.world.env.now)
        ev, self.closed = self.closed, self.world.env.event()
        ev.succeed()


def _until(world: World, order: Coal) -> float:
    """When a port coaling order ends at the latest: its time, or its hours from now."""
    until = math.inf if order.until_min is None else order.until_min
    if order.hours is not None:
        until = min(until, world.env.now + order.hours * 60.0)
    return until


def _await_all(world: World, procs: list) -> Generator[simpy.Event, Any, None]:
    """Wait for every ship's coaling; new orders stop them all where they are, then take effect."""
    from campaign.world.world import NEW_ORDERS, NewOrders

    done = world.env.all_of(procs)
    new_orders = False
    while not done.triggered:
        try:
            yield done
        except simpy.Interrupt as intr:
            if intr.cause == NEW_ORDERS and not new_orders:
                new_orders = True
                for p in procs:
                    if p.is_alive:
                        p.interrupt("stop")
    if new_orders:
        raise NewOrders()


def collier_departs(world: World, force: ForceState) -> None:
    """A force about to sail: if it is a collier, the ships alongside cast off, and ships waiting for the
    sea to let them come alongside learn she has gone."""
    for ship in force.ships:
        t = world.transfers.get(ship.name)
        if t is not None:
            t.close()


def _need_t(ship: ShipState, now: float, max_t: float | None) -> float:
    room = ship.ship.coal_capacity_t - ship.coal_at(now)
    return max(0.0, room if max_t is None else min(room, max_t))


def _end_reason(t: float, t_full: float, t_until: float, t_limit: float, max_t: float | None, need: float,
                room: float) -> str:
    if t >= t_limit - 1e-9 and t_limit < min(t_full, t_until):
        return "neutral time limit"
    if t >= t_until - 1e-9 and t_until < t_full:
        return "ordered time"
    if max_t is not None and need < room - 1e-9:
        return "amount ordered"
    return "full"


def coal_in_port(world: World, force: ForceState, order: Coal,
                 cut_min: float = math.inf) -> Generator[simpy.Event, Any, None]:
    """Coal every ship of the force in the port it lies in, in parallel."""
    from campaign.world.world import OrderImpossible

    if not force.in_port or force.place is None:
        raise OrderImpossible("the force is not in port")
    place = world.places.get(force.place)
    if place.coaling is None or place.coaling.facility == "none":
        raise OrderImpossible(f"{place.name} has no coal to give")
    deadline = world.port_deadline(force)
    until = min(_until(world, order), cut_min)
    if until <= world.env.now:
        world._emit_force(force, "order_skipped", order="coal in port", reason="its time had passed")
        return
    procs = [world.env.process(_coal_ship_in_port(world, force, ship, place, order.max_t, until, deadline))
             for ship in force.active_ships()]
    yield from _await_all(world, procs)
    if world.env.now >= deadline - 1e-9 and deadline < world.end_min:
        world.neutral_limit(force)
        if until > world.env.now and until < math.inf:
            yield from world.hold(force, until)


def _coal_ship_in_port(world: World, force: ForceState, ship: ShipState, place, max_t: float | None,
                       until: float, deadline: float) -> Generator[simpy.Event, Any, None]:
    now = world.env.now
    rate = place.coaling.rate_t_per_h(ship.ship.nation)
    room = _need_t(ship, now, None)
    need = _need_t(ship, now, max_t)
    if need <= 0 or rate <= 0 or min(until, deadline) <= now:
        return
    t_full = now + need / rate * 60.0
    t_end = min(t_full, until, deadline, world.end_min)
    world.set_status(ship, "coaling", rate)
    start_coal = ship.coal_at(now)
    world.emit(ship, "coal_start", source=place.name, rate_t_per_h=round(rate, 2))
    reason = _end_reason(t_end, t_full, until, deadline, max_t, need, room)
    try:
        yield world.env.timeout(t_end - now)
    except simpy.Interrupt:
        reason = "new orders"
    world.set_status(ship, "in_port")
    world.emit(ship, "coal_end", source=place.name, taken_t=round(ship.coal_at(world.env.now) - start_coal, 2),
               reason=reason)


def coal_from_collier(world: World, force: ForceState, order: CoalFromCollier,
                      cut_min: float = math.inf) -> Generator[simpy.Event, Any, None]:
    """Wait where the force lies for the collier, then coal every ship from her, in parallel."""
    from campaign.world.world import NEW_ORDERS, NewOrders, OrderImpossible

    collier_force = world.forces.get(order.collier)
    if collier_force is None:
        late = next((f for f in world.scenario.forces if f.name == order.collier), None)
        if late is not None and late.enters_min > world.env.now:
            raise OrderImpossible(f"{order.collier} enters only at {world.clock.iso(late.enters_min)}")
        raise OrderImpossible(f"no force named {order.collier}")
    collier = next((s for s in collier_force.ships if s.ship.cargo_coal_t > 0), None)
    if collier is None:
        raise OrderImpossible(f"{order.collier} carries no coal to give")
    until = min(math.inf if order.until_min is None else order.until_min, cut_min)
    if until <= world.env.now:  # the force came after the order's time (as in port: coal_in_port)
        world._emit_force(force, "order_skipped", order=f"coal from {order.collier}", reason="its time had passed")
        return
    if not world.collier_present(force, collier_force):
        arrived = world.env.event()
        world.collier_waiters.append((force, collier_force, arrived))
        if not force.in_port:
            world.set_all(force, "waiting")
        while not arrived.triggered:
            # Wait for her, but keep watching the bunkers: a ship stopped at sea still burns.
            dry_at, _ = world.next_dry(force)
            t_stop = min(until, world.end_min, dry_at)
            try:
                yield world.env.any_of([arrived, world.env.timeout(max(0.0, t_stop - world.env.now))])
            except simpy.Interrupt as intr:
                if intr.cause == NEW_ORDERS:
                    world.collier_waiters = [w for w in world.collier_waiters if w[2] is not arrived]
                    raise NewOrders() from None
                continue
            if arrived.triggered:
                break
            if world.env.now >= dry_at - 1e-9 and world.handle_dry(force):
                if not force.active_ships():
                    return
                continue
            break
        if not arrived.triggered:
            raise OrderImpossible(f"{order.collier} did not come")
    transfer = world.transfers.get(collier.name)
    if transfer is None:
        transfer = CollierTransfer(world, collier)
        world.transfers[collier.name] = transfer
    if collier.cargo_t <= 0:
        raise OrderImpossible(f"{collier.name} has no coal left")
    # What each ship had taken before this order, so that ``max_t`` holds across a transfer the sea stops.
    taken0 = {ship.name: ship.taken_t for ship in force.active_ships()}
    ships = force.active_ships()
    begun = False
    while ships:
        unmet = yield from _wait_for_the_sea(world, force, transfer, until, resumed=begun)
        if unmet:
            # A transfer the sea stopped has told its end (``coal_end``); a first wait that came to
            # nothing is a failed order.
            if not begun and force.active_ships():
                raise OrderImpossible(unmet)
            return
        if not begun and order.hours is not None:  # counted from when the coaling begins, after the waits
            until = min(until, world.env.now + order.hours * 60.0)
        begun = True
        stop_min = _sea_rises_min(world, force, until)
        coaling = [(ship, world.env.process(_coal_ship_from_collier(
                       world, force, ship, transfer, _left_t(ship, order.max_t, taken0), until, stop_min)))
                   for ship in ships if ship in force.active_ships()]
        yield from _await_all(world, [p for _, p in coaling])
        ships = [ship for ship, p in coaling if p.value == WEATHER and ship in force.active_ships()]


def _left_t(ship: ShipState, max_t: float | None, taken0: dict[str, float]) -> float | None:
    """What is left of an order's ``max_t`` for a ship (t): less what she has taken since it began."""
    if max_t is None:
        return None
    return max(0.0, max_t - (ship.taken_t - taken0.get(ship.name, ship.taken_t)))


def sea_at(world: World, force: ForceState, t_min: float) -> WeatherState:
    """The weather where the force lies, at ``t_min``."""
    lat, lon, _ = force.position_at(t_min)
    return world.weather.at(lat, lon, world.clock.utc(t_min))


def _sea_allows(world: World, force: ForceState, t_min: float) -> bool:
    """May a collier lie alongside the force at ``t_min``? Always in a port; at sea or at an open
    anchorage only in a quiet sea (``coaling_at_sea_possible``; ``data/weather.yaml``)."""
    if force.in_port:
        return True
    return coaling_at_sea_possible(sea_at(world, force, t_min), world.weather.params.effects)


def _next_change_min(world: World, force: ForceState, until: float, allows: bool) -> float:
    """The first time after now, before ``until`` and the run's end, at which the weather changes to one
    that allows coaling alongside (``allows``) or forbids it; inf if none. The force lies still, so the
    weather there changes only at ``Weather.changes`` times (period boundaries, scripted starts and ends)."""
    end = min(until, world.end_min)
    now = world.env.now
    if end <= now:
        return math.inf
    for t in world.weather.changes(world.clock.utc(now), world.clock.utc(end)):
        t_min = world.clock.t_min(t)
        if _sea_allows(world, force, t_min) == allows:
            return t_min
    return math.inf


def _sea_rises_min(world: World, force: ForceState, until: float) -> float:
    """When the sea will next forbid coaling alongside the force (inf: not before ``until``, or in port)."""
    if force.in_port:
        return math.inf
    return _next_change_min(world, force, until, allows=False)


def _wait_for_the_sea(world: World, force: ForceState, transfer: CollierTransfer, until: float,
                      resumed: bool) -> Generator[simpy.Event, Any, str]:
    """Wait, lying where the force is, until the sea lets the collier come alongside. Returns "" when it
    does (at once if it does now), else why the wait ended first: the order's time, the collier sailing,
    or no ship left. The ships burn their fixed load meanwhile; one whose bunker runs dry drops out.

    A first wait is recorded (``coal_delayed``, with the sea's state); a wait after a transfer the sea
    stopped is already told by that transfer's ``coal_end`` (reason "weather")."""
    from campaign.world.world import NEW_ORDERS, NewOrders

    env = world.env
    if _sea_allows(world, force, env.now):
        return ""
    ws = sea_at(world, force, env.now)
    for ship in force.active_ships():
        if ship.status != "waiting":
            world.set_status(ship, "waiting")
    if not resumed:
        limit = world.weather.params.effects.coaling_max_state
        world._emit_force(force, "coal_delayed", source=transfer.collier.name, sea_state=ws.state,
                          reason=f"sea state {ws.state}: a collier lies alongside only up to state {limit}")
    t_calm = _next_change_min(world, force, until, allows=True)
    closed = transfer.closed
    while True:
        dry_at, _ = world.next_dry(force)
        t_stop = min(t_calm, until, world.end_min, dry_at)
        try:
            yield env.any_of([closed, env.timeout(max(0.0, t_stop - env.now))])
        except simpy.Interrupt as intr:
            if intr.cause == NEW_ORDERS:
                raise NewOrders() from None
            continue
        if closed.triggered:
            return f"{transfer.collier.name} sailed before the sea allowed coaling"
        if env.now >= dry_at - 1e-9 and world.handle_dry(force):
            if not force.active_ships():
                return "no ship left to coal"
            continue
        if env.now >= t_calm - 1e-9:
            return ""
        return f"the sea did not allow coaling from {transfer.collier.name} in the order's time"


def _coal_ship_from_collier(world: World, force: ForceState, ship: ShipState, transfer: CollierTransfer,
                            max_t: float | None, until: float,
                            stop_min: float = math.inf) -> Generator[simpy.Event, Any, str]:
    """One ship takes coal from the collier until full, ``max_t``, ``until``, the collier empty or gone,
    or the sea rising at ``stop_min``. Returns why it stopped ("" if there was nothing to take)."""
    env = world.env
    now = env.now
    collier = transfer.collier
    rate = collier.ship.transfer_rate_t_per_h or 0.0
    room = _need_t(ship, now, None)
    need = _need_t(ship, now, max_t)
    if need <= 0 or rate <= 0 or collier.cargo_t <= 0:
        return ""
    t_full = now + need / rate * 60.0
    t_end = min(t_full, until, world.end_min, stop_min)
    world.set_status(ship, "coaling", rate)
    if not transfer.rates:
        world.set_status(collier, "coaling", world.idle_rate(collier, "in_port"))
        world.emit(collier, "transfer_start", cargo_t=round(collier.cargo_t, 2))
    transfer.add(ship, rate)
    start_coal = ship.coal_at(now)
    world.emit(ship, "coal_start", source=collier.name, rate_t_per_h=round(rate, 2))
    empty, closed = transfer.empty, transfer.closed
    stopped = False
    try:
        yield env.any_of([env.timeout(t_end - now), empty, closed])
    except simpy.Interrupt:
        stopped = True
    transfer.remove(ship)
    status = "in_port" if force.in_port else "waiting"
    world.set_status(ship, status)
    if stopped:
        reason = "new orders"
    elif empty.triggered:
        reason = "collier empty"
    elif closed.triggered:
        reason = "collier sailed"
    elif env.now >= stop_min - 1e-9 and stop_min < min(t_full, until) - 1e-9:
        reason = WEATHER
    else:
        reason = _end_reason(env.now, t_full, until, math.inf, max_t, need, room)
    world.emit(ship, "coal_end", source=collier.name, taken_t=round(ship.coal_at(env.now) - start_coal, 2),
               reason=reason, sea_state=sea_at(world, force, env.now).state if reason == WEATHER else None)
    if not transfer.rates and collier.status == "coaling":
        cstatus = "in_port" if collier.force.in_port else "waiting"
        world.set_status(collier, cstatus)
        world.emit(collier, "transfer_end", cargo_t=round(collier.cargo_t, 2), given_t=round(collier.given_t, 2))
    return reason
