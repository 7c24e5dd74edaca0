"""The political timeline in the running world: each event is recorded when it takes effect, forces
under way re-plan their legs round waters they may no longer enter, and forces lying in such waters
steam out of them.

The truth of politics lives in ``campaign.model.politics.Politics``; commanders learn of it only by
the messages that tell them.
"""

from __future__ import annotations

from collections.abc import Generator
from typing import TYPE_CHECKING, Any

import shapely
import simpy

from campaign.geo.regions import way_out
from campaign.geo.routing import RouteError
from campaign.model.orders import Point, Sail
from campaign.world import steaming

if TYPE_CHECKING:
    from campaign.world.units import ForceState
    from campaign.world.world import World


def describe(e) -> dict[str, Any]:
    out: dict[str, Any] = {"kind": e.kind, "nations": list(e.nations)}
    if e.sovereign:
        out["sovereign"] = e.sovereign
    if e.width_nm:
        out["width_nm"] = e.width_nm
    if e.what:
        out["what"] = e.what
    if getattr(e, "protecting", None):
        out["protecting"] = e.protecting
        out["ship_types"] = list(e.ship_types)
    if e.note:
        out["note"] = e.note
    return out


def announce(world: World) -> Generator[simpy.Event, Any, None]:
    """Record each political event as it takes effect and let forces under way obey it."""
    pol = world.scenario.politics
    by_time: dict[float, list] = {}
    for e in pol.events:
        by_time.setdefault(max(e.t_min, 0.0), []).append(e)
    for t in sorted(by_time):
        if t > world.end_min:
            break
        if t > world.env.now:
            yield world.env.timeout(t - world.env.now)
        for e in by_time[t]:
            world.rec.emit(world.env.now, "politics", **describe(e))
        for force in list(world.forces.values()):
            if force.leg is not None and force.active_ships():
                replan_if_barred(world, force)
            else:
                leave_if_inside(world, force, "waters closed to it round where it lay")


def replan_if_barred(world: World, force: ForceState) -> None:
    """If the rest of the force's leg now crosses waters it may not enter, steer round them."""
    areas = world.avoid_areas(force)
    if not areas:
        return
    leg = force.leg
    now = world.env.now
    lat, lon, _ = force.position_at(now)
    # What is left of the leg, as a line in lon/lat (belts are drawn there).
    d0 = leg.dist_at(now)
    rest = [(lon, lat)] + [(lo, la) for la, lo, c in zip(leg.route.lats, leg.route.lons, leg.route.cum_nm) if c > d0]
    line = shapely.LineString(rest) if len(rest) > 1 else shapely.Point(rest[0])
    barred = [a for a in areas if line.intersects(a.geometry)]
    if not barred:
        return
    reason = "political restriction: " + ", ".join(a.key for a in barred)
    dest = (leg.route.lats[-1], leg.route.lons[-1])
    try:
        # A goal inside the closed waters is made for as near as the force may come: outside them.
        near = way_out(areas, *dest) or dest
    except RouteError:
        near = dest
    if steaming.reroute(world, force, near, reason=reason):
        return
    # No way round: it stops where it is rather than steam on into them.
    from campaign.world.world import REPLANNED

    steaming.account_distance(world, force)
    world.set_all(force, "waiting")
    for ship in force.active_ships():
        world.emit(ship, "halt", note=reason)
    world.interrupt(force, REPLANNED)


# The speed a force leaves waters barred to it at: its ships' economical speed, the navy's cruising
# speed (a belt is at most 12 nm deep in 1914: an hour or so).
LEAVING_SPEED = "economical"


def leave_if_inside(world: World, force: ForceState, why: str) -> bool:
    """A force lying still at sea (not in port, not in action) inside waters barred to it now steams out
    of them by the shortest way (``campaign.geo.regions.way_out``) and then goes on with the orders it
    had: the order it was carrying out begins again from the way out. True if it was sent out.

    So a force waiting or stopped where a belt closes round it (Italy's from 4 August 1914), put to sea
    from a neutral port when its 24 hours are up (Hague XIII, Art. 12), or left by a battle inside such
    waters does not lie on in them; one under way re-plans instead (:func:`replan_if_barred`)."""
    if force.leg is not None or force.in_port or force.battle is not None or force.interned:
        return False
    ships = force.active_ships()
    if not ships or all(s.status == "out_of_coal" for s in ships):
        return False
    areas = world.avoid_areas(force)
    if not areas:
        return False
    lat, lon, _ = force.position_at(world.env.now)
    try:
        out = way_out(areas, lat, lon)
    except RouteError:
        return False
    if out is None:
        return False
    barred = ", ".join(a.key for a in areas if shapely.intersects_xy(a.geometry, lon, lat))
    rest = tuple(force.orders[force.order_index:])
    leave = Sail(Point(out[0], out[1], f"out of {barred}"), LEAVING_SPEED, note=why)
    world.give_orders(force, (leave, *rest), why=f"{why}: leaves {barred}")
    return True
