"""Steaming: a force sails by sea route at the speed of its slowest ship, burning coal as it goes.

Coal burns at each ship's consumption curve at the leg's speed; the amount is exact at any time
(``ShipState.coal_at``). A leg is re-planned only when the force's slowest ship drops out.
"""

from __future__ import annotations

import math
from collections.abc import Generator
from typing import TYPE_CHECKING, Any

import simpy

from campaign.geo.routing import Route, RouteError
from campaign.model.orders import Order, Sail, Speed
from campaign.world.units import ForceState, Leg

if TYPE_CHECKING:
    from campaign.world.world import World


def resolve_speed(force: ForceState, spec: Speed) -> tuple[float, bool]:
    """(speed in knots, whether it was capped) for an ordered speed.

    A named speed is the slowest ship's figure of that name (squadrons move at their slowest
    member's speed). A number is capped at the slowest ship's sustained speed: what a ship can hold
    for hours on end in August 1914 (``data/ships.yaml``); a dash at design speed must be ordered
    by name.
    """
    ships = [s.ship for s in force.active_ships()]
    if isinstance(spec, str):
        return min(getattr(s, f"{spec}_speed_kn") for s in ships), False
    cap = min(s.sustained_speed_kn for s in ships)
    return (min(float(spec), cap), float(spec) > cap + 1e-9)


def plan_route(world: World, force: ForceState, order: Sail) -> Route:
    """The sea route from where the force lies through the order's ``via`` points to its goal."""
    lat, lon, _ = force.position_at(world.env.now)
    stops = [(lat, lon)] + [(p.lat, p.lon) for p in order.via] + [(order.to.lat, order.to.lon)]
    lats: list[float] = []
    lons: list[float] = []
    passages: list[str] = []
    vessel = force.vessel()
    avoid = world.avoid_areas(force)
    for a, b in zip(stops[:-1], stops[1:]):
        try:
            r = world.router.route(a, b, avoid=avoid, vessel=vessel)
        except RouteError as exc:
            from campaign.world.world import OrderImpossible

            raise OrderImpossible(f"no sea route to {order.to.label()}: {exc}") from exc
        start = 1 if lats else 0
        lats.extend(r.lats[start:])
        lons.extend(r.lons[start:])
        passages.extend(p for p in r.passages if p not in passages)
    return Route.through(lats, lons, tuple(passages))


def checkpoint(world: World, force: ForceState) -> None:
    """Credit every ship with the distance run on the current leg, and restart the leg from here."""
    leg = force.leg
    if leg is None:
        return
    now = world.env.now
    d = leg.dist_at(now)
    for ship in force.ships:
        ship.run_nm += d - leg.offset_nm
    force.lat, force.lon, force.course_deg = leg.route.position_at(d)
    force.leg = Leg(leg.route, now, leg.speed_kn, d)


def account_distance(world: World, force: ForceState) -> None:
    """End the current leg where the force is now."""
    checkpoint(world, force)
    was_moving = force.leg is not None
    force.leg = None
    if was_moving:
        world.moved(force)


def releg(world: World, force: ForceState) -> None:
    """After a ship drops out, carry on at the speed the remaining ships allow."""
    if force.leg is None:
        return
    speed, _ = resolve_speed(force, force.speed_order)
    if abs(speed - force.leg.speed_kn) < 1e-9:
        return
    checkpoint(world, force)
    force.leg.speed_kn = speed
    world.moved(force)
    for ship in force.active_ships():
        world.set_status(ship, "underway", -float(ship.ship.consumption.t_per_h(speed)))
        world.emit(ship, "speed_change", route=_route_json(force.leg.route),
                   route_offset_nm=round(force.leg.offset_nm, 4),
                   eta=world.clock.iso(force.leg.end_min()), reason="slowest ship dropped out")


def reroute(world: World, force: ForceState, dest: tuple[float, float], *, exempt: set[str] = frozenset(),
            reason: str = "") -> bool:
    """Steer a force under way onto a new route to ``dest`` from where it is, at the same speed,
    avoiding the waters it may not enter (except those in ``exempt``, which it is leaving).
    Returns False, and leaves the leg as it was, if no such route exists."""
    from campaign.world.world import REPLANNED

    leg = force.leg
    if leg is None:
        return False
    lat, lon, _ = force.position_at(world.env.now)
    avoid = tuple(a for a in world.avoid_areas(force) if a.key not in exempt)
    try:
        route = world.router.route((lat, lon), dest, avoid=avoid, vessel=force.vessel())
    except RouteError as exc:
        world._emit_force(force, "order_failed", order="re-plan the leg", reason=str(exc))
        return False
    checkpoint(world, force)
    force.leg = Leg(route, world.env.now, leg.speed_kn)
    world.moved(force)
    for ship in force.active_ships():
        world.emit(ship, "course_change", route=_route_json(route), route_offset_nm=0.0,
                   dist_nm=round(route.length_nm, 2), eta=world.clock.iso(force.leg.end_min()), reason=reason or None)
    world.interrupt(force, REPLANNED)
    return True


def _route_json(route: Route) -> list[list[float]]:
    return [[round(la, 5), round(lo, 5)] for la, lo in zip(route.lats, route.lons)]


def sail(world: World, force: ForceState, order: Sail, next_order: Order | None = None,
         cut_min: float = math.inf) -> Generator[simpy.Event, Any, None]:
    """Carry out a ``Sail`` order: depart, steam, and arrive (or stop steaming at ``until_min``, or
    when the next order falls due at ``cut_min``)."""
    from campaign.world import coaling

    env = world.env
    until = min(math.inf if order.until_min is None else order.until_min, cut_min)
    if until <= env.now:
        world._emit_force(force, "order_skipped", order=f"sail to {order.to.label()}",
                          reason="its time had passed")
        return
    route = plan_route(world, force, order)
    speed, capped = resolve_speed(force, order.speed)
    origin = force.place
    if force.in_port or force.place:
        coaling.collier_departs(world, force)
    if force.in_port:
        world.command.in_port(force, None)
    force.in_port, force.place, force.port_clock_min = False, None, None
    force.pending_notice = None
    force.speed_order = order.speed
    force.leg = Leg(route, env.now, speed)
    world.moved(force)
    for ship in force.active_ships():
        world.set_status(ship, "underway", -float(ship.ship.consumption.t_per_h(speed)))
        world.emit(ship, "depart", origin=origin, to=order.to.label(), dest_lat=round(order.to.lat, 6),
                   dest_lon=round(order.to.lon, 6), dist_nm=round(route.length_nm, 2),
                   eta=world.clock.iso(force.leg.end_min()), route=_route_json(route), route_offset_nm=0.0,
                   passages=list(route.passages) or None, speed_capped=capped or None,
                   order=force.current_order, note=order.note)
    yield from world.advance(force, lambda: min(force.leg.end_min() if force.leg else env.now, until))
    if not force.active_ships() or force.leg is None:
        return
    if env.now >= world.end_min and env.now < force.leg.end_min() - 1e-6:
        return  # the scenario ends under way; World.run settles the leg
    reached = env.now >= force.leg.end_min() - 1e-6
    account_distance(world, force)
    if reached:
        force.lat, force.lon = order.to.lat, order.to.lon
        place = world.place_of(order.to)
        if place is not None and world.is_enterable_port(force, place):
            world.enter_port(force, place)
        else:
            force.place = place.name if place is not None else None
            world.set_all(force, "waiting")
        for ship in force.active_ships():
            world.emit(ship, "arrive", to=order.to.label(), note=order.note)
        world.notify_arrival(force)
        world.command.on_arrival(force)
        return
    # Stopped steaming at the order's time. If the next order sails at once, its departure record
    # carries the change of course and speed; otherwise the force lies stopped at sea.
    sails_on = isinstance(next_order, Sail) and (next_order.at_min is None or next_order.at_min <= env.now)
    world.set_all(force, "waiting")
    if not sails_on:
        for ship in force.active_ships():
            world.emit(ship, "halt", note=order.note)
        world.notify_arrival(force)
