"""Steaming: a force sails by sea route at the speed of its slowest ship, burning coal as it goes.

Coal burns at each ship's consumption curve at the leg's speed; the amount is exact at any time
(``ShipState.coal_at``). The sea caps the speed: a low-freeboard ship in a head sea loses speed (Jane,
seed 004; ``data/weather.yaml``, ``effects.head_sea``), so a force makes no more than its slowest ship
can make into the sea on its course (:func:`leg_speed`). A leg is re-planned when the force's slowest
ship drops out, and when the weather changes under it (:func:`watch_the_sea`).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Generator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import shapely
import simpy

from campaign.geo.regions import way_out
from campaign.geo.routing import Route, RouteError
from campaign.model.orders import Order, Sail, Speed
from campaign.world import rearm
from campaign.world.units import ForceState, Leg
from campaign.world.weather import WeatherState, freeboard_class, head_sea_speed_loss_kn

if TYPE_CHECKING:
    from campaign.world.world import World


def resolve_speed(force: ForceState, spec: Speed) -> tuple[float, bool]:
    """(speed in knots, whether it was capped) for an ordered speed.

    A named speed is the slowest ship's figure of that name (squadrons move at their slowest
    member's speed). A number is capped at the slowest ship's sustained speed: what a ship can hold
    for hours on end in August 1914 (``data/ships.yaml``); a dash at design speed must be ordered
    by name.
    """
    ships = force.active_ships()
    if isinstance(spec, str):
        return max(min(getattr(s.ship, f"{spec}_speed_kn") - s.condition.speed_lost_kn for s in ships), 0.0), False
    cap = max(min(s.ship.sustained_speed_kn - s.condition.speed_lost_kn for s in ships), 0.0)
    return (min(float(spec), cap), float(spec) > cap + 1e-9)


# Reasons written on a re-planned leg's ``speed_change`` record.
DROPPED_OUT = "slowest ship dropped out"
HEAD_SEA = "head sea"
SEA_EASED = "head sea eased"


@dataclass(frozen=True)
class LegSpeed:
    """The speed a leg is steamed at (knots) and why: ``capped`` when an ordered number exceeded the
    slowest ship's sustained speed; ``sea`` the weather where the leg starts (None when no ship of the
    force is low-freeboard, so the sea was not asked); ``by_sea`` when the head sea set the speed."""

    speed_kn: float
    capped: bool
    sea: WeatherState | None
    by_sea: bool


def head_sea_limit_kn(world: World, force: ForceState, lat: float, lon: float, course_deg: float,
                      t_min: float) -> tuple[float, WeatherState | None]:
    """(knots, the sea): the most the force can make steering ``course_deg`` (true) in the sea at (lat, lon)
    at ``t_min`` -- the least over its ships of design speed less the head-sea loss (Jane, seed 004: "Low
    freeboard ships lose 3 knots in a head sea"; which ships and which sea: ``data/weather.yaml``,
    ``effects.head_sea``). (inf, None) when no ship of the force is low-freeboard: only they lose speed,
    so the weather is not asked (it keeps the check cheap for the many forces it cannot touch)."""
    if not has_low_freeboard(world, force):
        return math.inf, None
    rules = world.weather.params.effects
    ws = world.weather.at(lat, lon, world.clock.utc(t_min))
    return min(s.ship.design_speed_kn - s.condition.speed_lost_kn - head_sea_speed_loss_kn(s.ship, ws, course_deg, rules)
               for s in force.active_ships()), ws


def has_low_freeboard(world: World, force: ForceState) -> bool:
    """Whether any active ship of the force is low-freeboard (``data/weather.yaml``, ``effects.head_sea``)."""
    rules = world.weather.params.effects
    return any(freeboard_class(s.ship, rules) == "low" for s in force.active_ships())


def leg_speed(world: World, force: ForceState, spec: Speed, route: Route, dist_nm: float) -> LegSpeed:
    """The speed of a leg along ``route`` from ``dist_nm`` now: the ordered speed (:func:`resolve_speed`)
    capped by what the slowest ship can make into the sea there, on the route's course there
    (:func:`head_sea_limit_kn`). The sea and the course are taken where the leg starts: a change of
    either further on is picked up by :func:`watch_the_sea`."""
    speed_kn, capped = resolve_speed(force, spec)
    if not has_low_freeboard(world, force):
        return LegSpeed(speed_kn, capped, None, False)
    lat, lon, course_deg = route.position_at(dist_nm)
    limit_kn, ws = head_sea_limit_kn(world, force, lat, lon, course_deg, world.env.now)
    if limit_kn < speed_kn - 1e-9:
        return LegSpeed(limit_kn, capped, ws, True)
    return LegSpeed(speed_kn, capped, ws, False)


def plan_route(world: World, force: ForceState, order: Sail) -> Route:
    """The sea route from where the force lies through the order's ``via`` points to its goal."""
    lat, lon, _ = force.position_at(world.env.now)
    stops = [(lat, lon)] + [(p.lat, p.lon) for p in order.via] + [(order.to.lat, order.to.lon)]
    try:
        return sea_route(world, force, stops)
    except RouteError as exc:
        from campaign.world.world import OrderImpossible

        raise OrderImpossible(f"no sea route to {order.to.label()}: {exc}") from exc


def leave_to_enter_min(world: World, force: ForceState, order: Sail) -> float | None:
    """When the force's nation is given leave to enter the restricted waters (data/restricted_waters.yaml)
    that the order's goal lies in, if that leave is still to come in the political timeline; None if the
    goal lies in none, the force has leave already, or leave never comes (the order then fails as any
    passage without a route does)."""
    from campaign.geo.regions import restricted_waters

    pol = world.scenario.politics
    now = world.env.now
    if not pol.events or all(s.ship.is_merchant for s in force.active_ships()):
        return None
    for rw in restricted_waters():
        if force.nation == rw.sovereign or pol.permitted(force.nation, rw.permit, now):
            continue
        if not shapely.intersects_xy(rw.area.geometry, order.to.lon, order.to.lat):
            continue
        later = [t for t in pol.change_times() if t > now and pol.permitted(force.nation, rw.permit, t)]
        return later[0] if later else None
    return None


def sea_route(world: World, force: ForceState, stops: list[tuple[float, float]]) -> Route:
    """The sea route through ``stops`` ((lat, lon) degrees, the first where the force is), clear of the
    waters it may not enter now (:meth:`World.avoid_areas`). Raises RouteError if there is none.

    A force already inside such waters (a fight carried it there, or they were closed round it) first
    leaves them by the shortest way out (:func:`campaign.geo.regions.way_out`), then keeps clear of
    them: without that it could never leave, and a way through them to its goal would break the very
    order that closed them (the Admiralty's 'keep six miles off the Italian coast')."""
    avoid = world.avoid_areas(force)
    lat, lon = stops[0]
    first = tuple(x for x in avoid if not shapely.intersects_xy(x.geometry, lon, lat))
    if len(first) < len(avoid):  # inside some: out first (the way out may cross those, and no others)
        out = way_out(avoid, lat, lon)
        assert out is not None
        stops = [stops[0], out, *stops[1:]]
    lats: list[float] = []
    lons: list[float] = []
    passages: list[str] = []
    vessel = force.vessel()
    for i, (a, b) in enumerate(itertools.pairwise(stops)):
        r = world.router.route(a, b, avoid=first if i == 0 else avoid, vessel=vessel)
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


def releg(world: World, force: ForceState, reason: str | None = DROPPED_OUT) -> bool:
    """Carry on from here at the speed the force's ships and the sea allow now (:func:`leg_speed`), if
    that is not the leg's speed: after a ship drops out, or when the sea changes. ``reason`` goes on the
    ``speed_change`` record; None names the sea's part (``HEAD_SEA`` when slower, ``SEA_EASED`` when
    faster). Returns whether the leg changed (the caller wakes the force's process if it is not it)."""
    leg = force.leg
    if leg is None:
        return False
    now = world.env.now
    ls = leg_speed(world, force, force.speed_order, leg.route, leg.dist_at(now))
    speed = ls.speed_kn
    if abs(speed - leg.speed_kn) < 1e-9:
        return False
    if reason is None:
        reason = HEAD_SEA if speed < leg.speed_kn else SEA_EASED
    checkpoint(world, force)
    force.leg.speed_kn = speed
    world.moved(force)
    for ship in force.active_ships():
        world.set_status(ship, "underway", -float(ship.ship.consumption.t_per_h(speed)))
        world.emit(ship, "speed_change", route=_route_json(force.leg.route),
                   route_offset_nm=round(force.leg.offset_nm, 4),
                   eta=_eta(world, force.leg), reason=reason,
                   sea_state=ls.sea.state if ls.sea is not None else None)
    return True


def watch_the_sea(world: World) -> Generator[simpy.Event, Any, None]:
    """The world's watch on the sea: at each time the weather may change, re-plan the legs it slows or frees.

    The times are ``world.weather.changes`` over the run (Jane's six-hour period boundaries and the starts
    and ends of scripted periods, in any region), all known at the start, so this is one timeout per
    change. At each, every force under way with a low-freeboard ship has its allowed speed checked where it
    is, on its course there (:func:`releg`); only a force whose allowed speed differs from its leg's is
    re-planned (a ``speed_change`` record, reason "head sea" or "head sea eased") and its process woken to
    reschedule its arrival. Nothing is recorded where nothing changes.

    Exact at those times, and only at them: a force that crosses into another region, or turns at a
    waypoint into or out of the sea, between two of them is picked up at the next one (at most one
    period later).
    """
    from campaign.world.world import REPLANNED

    env = world.env
    changes = world.weather.changes(world.clock.utc(0.0), world.clock.utc(world.end_min))
    for t_min in (world.clock.t_min(t) for t in changes):
        if t_min > env.now:
            yield env.timeout(t_min - env.now)
        for force in list(world.forces.values()):
            leg = force.leg
            # A leg that ends now is arriving: re-planning it would only write a record of no use.
            if leg is None or force.speed_order is None or leg.end_min() <= env.now + 1e-9:
                continue
            if not has_low_freeboard(world, force):  # the sea cannot slow it: leave it untouched
                continue
            if releg(world, force, reason=None):
                world.interrupt(force, REPLANNED)


def reroute(world: World, force: ForceState, dest: tuple[float, float], *, reason: str = "") -> bool:
    """Steer a force under way onto a new route to ``dest`` from where it is, at its ordered speed as the
    sea allows on the new course (:func:`leg_speed`), avoiding the waters it may not enter (leaving
    those it is inside by the shortest way out: :func:`sea_route`).
    Returns False, and leaves the leg as it was, if no such route exists."""
    from campaign.world.world import REPLANNED

    leg = force.leg
    if leg is None:
        return False
    lat, lon, _ = force.position_at(world.env.now)
    try:
        route = sea_route(world, force, [(lat, lon), dest])
    except RouteError as exc:
        world._emit_force(force, "order_failed", order="re-plan the leg", reason=str(exc))
        return False
    # The new course may meet the sea differently: the new leg's speed is planned like any leg's.
    ls = leg_speed(world, force, force.speed_order, route, 0.0) if force.speed_order is not None else None
    speed = ls.speed_kn if ls is not None else leg.speed_kn
    checkpoint(world, force)
    force.leg = Leg(route, world.env.now, speed)
    world.moved(force)
    for ship in force.active_ships():
        if abs(speed - leg.speed_kn) >= 1e-9:
            world.set_status(ship, "underway", -float(ship.ship.consumption.t_per_h(speed)))
        world.emit(ship, "course_change", route=_route_json(route), route_offset_nm=0.0,
                   dist_nm=round(route.length_nm, 2), eta=_eta(world, force.leg), reason=reason or None,
                   speed_reason=HEAD_SEA if ls is not None and ls.by_sea else None)
    world.interrupt(force, REPLANNED)
    return True


def _route_json(route: Route) -> list[list[float]]:
    return [[round(la, 5), round(lo, 5)] for la, lo in zip(route.lats, route.lons)]


def _eta(world: World, leg: Leg) -> str | None:
    """When the leg ends (UTC), or None if it never does (no speed)."""
    end = leg.end_min()
    return world.clock.iso(end) if math.isfinite(end) else None


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
    leave_at = leave_to_enter_min(world, force, order)
    if leave_at is not None:
        # Forts let no foreign warship in without their sovereign's leave: ordered in before it is given, she
        # lies off them, asking, until it is (or her orders fall due, or the run ends).
        yield from world.hold(force, min(leave_at, until))
        if env.now >= until - 1e-9 or leave_at > world.end_min:
            return
    route = plan_route(world, force, order)
    ls = leg_speed(world, force, order.speed, route, 0.0)
    speed, capped = ls.speed_kn, ls.capped
    if speed <= 0.0:
        # Dead in the water (her engines lost in battle): she cannot carry out a passage, and stays.
        world._emit_force(force, "order_failed", order=f"sail to {order.to.label()}",
                          reason="cannot steam: dead in the water")
        return
    origin = force.place
    if force.in_port or force.place:
        coaling.collier_departs(world, force)
    if force.in_port:
        world.command.in_port(force, None)
        rearm.leave(world, force)  # what her time at an ammunition base gave her
    force.in_port, force.place, force.port_clock_min = False, None, None
    force.pending_notice = None
    force.speed_order = order.speed
    force.leg = Leg(route, env.now, speed)
    world.moved(force)
    for ship in force.active_ships():
        world.set_status(ship, "underway", -float(ship.ship.consumption.t_per_h(speed)))
        world.emit(ship, "depart", origin=origin, to=order.to.label(), dest_lat=round(order.to.lat, 6),
                   dest_lon=round(order.to.lon, 6), dist_nm=round(route.length_nm, 2),
                   eta=_eta(world, force.leg), route=_route_json(route), route_offset_nm=0.0,
                   passages=list(route.passages) or None, speed_capped=capped or None,
                   speed_reason=HEAD_SEA if ls.by_sea else None,
                   sea_state=ls.sea.state if ls.by_sea and ls.sea is not None else None,
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
