"""The political timeline in the running world: each event is recorded when it takes effect, and
forces under way re-plan their legs round waters they may no longer enter.

The truth of politics lives in ``campaign.model.politics.Politics``; commanders learn of it only by
the messages that tell them.
"""

from __future__ import annotations

from collections.abc import Generator
from typing import TYPE_CHECKING, Any

import shapely
import simpy

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
    steaming.reroute(world, force, (leg.route.lats[-1], leg.route.lons[-1]),
                     reason="political restriction: " + ", ".join(a.key for a in barred))
