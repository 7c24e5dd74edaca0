"""Bombardment: a force lying off an enemy town shells it (seed 000, 'Shelling a Town').

Seed 000: "The German player may shell any port(s) on the North African Coast at any time. [...] He gets
points for each ship that does this, to each town, as many times as he likes. The Goeben and Breslau,
despite the difference in their size, get the same number of points for shelling a town."

The force must lie off the town: within gun range of the town's reference point (``data/places.yaml``;
the range is ``bombardment.range_yd`` of ``data/strategic_rules.yaml``). Farther off, it first steams
to the town's anchorage by sea route (``campaign.world.steaming.sail``) at its last ordered speed, or
its sustained speed if it has none. It shells only if its nation is at war with the town's sovereign
at that moment by the political timeline -- the truth, not what its commander believes -- else it lies
off the town for the time instead. Its guns do no modelled harm ashore: the shelling is a record, what
the game scores.

Records, one per ship as every ship's state change is (``World.emit``: each carries ``force``, ``status``,
coal, position):

* ``shelling``: each armed ship afloat of the force as the shelling begins (status ``shelling``), with
  ``town``, ``town_nation``, ``ships`` (every ship of the force that shells), ``until`` (UTC, when it
  is to stop), ``range_nm`` (from the town) and the order's ``note``. One ship shelling one town once
  is one record: the game's points are "for each ship [...] to each town, as many times as he likes".
* ``shelling_end``: each of them when the shelling stops, with ``town``, ``duration_min`` and
  ``reason``: ``time`` (the order's time is up), ``next order`` (the next order's time came),
  ``new orders`` (orders replaced by doctrine or by message) or ``in action`` (a battle began).
* ``shelling_withheld``: each ship of the force when it lies off the town but may not shell, with
  ``town``, ``town_nation``, ``reason`` ("not at war with France", or no ship that can fire) and
  ``until``; the force then lies there for the time.
"""

from __future__ import annotations

import math
from collections.abc import Generator
from typing import TYPE_CHECKING, Any

import simpy

from campaign.geo.earth import distance_nm
from campaign.geo.places import Place
from campaign.model.orders import Bombard, Point, Sail
from campaign.world import steaming
from campaign.world.units import ForceState, ShipState

if TYPE_CHECKING:
    from campaign.world.world import World

SHELLING = "shelling"
# Why a shelling stopped (the ``reason`` of ``shelling_end``).
TIME_UP = "time"
NEXT_ORDER = "next order"
NEW_ORDERS = "new orders"
IN_ACTION = "in action"
# The speed a force with no ordered speed of its own steams to the town at: its slowest ship's sustained
# speed (data/ships.yaml), as a raider making for its target before the alarm is given would.
APPROACH_SPEED = "sustained"


def can_shell(ship: ShipState) -> bool:
    """Is the ship afloat, a warship, and with guns that can still fire?"""
    return (not ship.ship.is_merchant and bool(ship.ship.guns) and not ship.condition.sunk
            and ship.condition.gunnery > 0.0)


def range_to_town_nm(world: World, force: ForceState, place: Place) -> float:
    """Nautical miles from where the force is now to the town's reference point."""
    lat, lon, _ = force.position_at(world.env.now)
    return float(distance_nm(lat, lon, place.lat, place.lon))


def bombard(world: World, force: ForceState, order: Bombard,
            cut_min: float = math.inf) -> Generator[simpy.Event, Any, None]:
    """Carry out a ``Bombard`` order: come off the town if need be, then shell it (or, not at war with its
    sovereign, lie there) until the order's time, its hours from the start of the shelling, or the next
    order's time (``cut_min``), whichever comes first."""
    from campaign.world.world import NewOrders, describe

    env = world.env
    place = world.places.get(order.town)
    end = min(math.inf if order.until_min is None else order.until_min, cut_min)
    if end <= env.now:
        world._emit_force(force, "order_skipped", order=describe(order), reason="its time had passed")
        return
    reach_nm = world.rules.bombard_range_nm
    if range_to_town_nm(world, force, place) > reach_nm:
        speed = force.speed_order if force.speed_order is not None else APPROACH_SPEED
        approach = Sail(Point(place.anchorage_lat, place.anchorage_lon, place.name, place.name), speed,
                        until_min=None if math.isinf(end) else end, note=order.note)
        yield from steaming.sail(world, force, approach, cut_min=cut_min)
        if not force.active_ships() or force.interned or env.now >= world.end_min:
            return
        if range_to_town_nm(world, force, place) > reach_nm:
            world._emit_force(force, "order_skipped", order=describe(order),
                              reason=f"not off {place.name} by {world.clock.iso(env.now)}")
            return
    elif force.leg is not None:
        steaming.account_distance(world, force)
    stop = end if order.hours is None else min(end, env.now + order.hours * 60.0)
    why_stop = NEXT_ORDER if stop >= cut_min else TIME_UP
    until = world.clock.iso(stop)
    town_nation = place.nation or ""
    guns = [s for s in force.active_ships() if can_shell(s)]
    withheld = None
    if not world.at_war(force.nation, town_nation):
        withheld = f"not at war with {town_nation}"
    elif not guns:
        withheld = "no ship of the force can fire"
    if withheld is not None:
        world._emit_force(force, "shelling_withheld", town=place.name, town_nation=town_nation,
                          reason=withheld, until=until, note=order.note)
        yield from world.hold(force, stop)
        return
    names = [s.name for s in guns]
    dist_nm = round(range_to_town_nm(world, force, place), 2)
    for ship in guns:
        world.set_status(ship, SHELLING)
    for ship in guns:
        world.emit(ship, "shelling", town=place.name, town_nation=town_nation, ships=names, until=until,
                   range_nm=dist_nm, note=order.note)
    began = env.now
    try:
        yield from world.advance(force, lambda: stop)
    except NewOrders:
        _cease(world, force, guns, place, began, IN_ACTION if _in_action(world, force) else NEW_ORDERS)
        raise
    if env.now >= world.end_min and stop > world.end_min:
        return  # still shelling when the scenario ends: the ``end`` records say so
    _cease(world, force, guns, place, began, why_stop)


def _in_action(world: World, force: ForceState) -> bool:
    """Was the force taken into a battle now? (A battle may begin and end in one instant, before the
    force's process hears of it: the battle is then over, but it is what stopped the shelling.)"""
    if force.battle is not None:
        return True
    now = world.env.now
    for fight in reversed(world.engagements.fights):
        if fight.start_min < now:
            return False
        if any(f is force for f in fight.forces):
            return True
    return False


def _cease(world: World, force: ForceState, guns: list[ShipState], place: Place, began_min: float,
           reason: str) -> None:
    """The shelling stops: the ships that shelled (and are still with the force) lie where they are, or
    are in action, and each writes ``shelling_end``."""
    still = [s for s in guns if s in force.active_ships()]
    for ship in still:
        if ship.status == SHELLING:
            world.set_status(ship, "in_port" if force.in_port else "waiting")
    for ship in still:
        world.emit(ship, "shelling_end", town=place.name, reason=reason,
                   duration_min=round(world.env.now - began_min, 2))
