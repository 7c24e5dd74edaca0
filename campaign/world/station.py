"""Where each ship of a force is: the force's position is its leader's; the others keep station on her.

A force at sea steams in column (line ahead) behind its leader, its first active ship, at the helm's
spacing (``data/tactics/helm.yaml``, formation: 400 yards, seed 002 l.31). A battle scatters it: each ship
leaves the battle where she is (``Offset``), and steams for her station at her best speed, never faster,
so that no ship jumps across a change of scale: at any later time she is at her station if she could
have reached it from where she was reckoned, else as near it as she could have come. Ships in port lie
together: arriving in port ends every offset.

The strategic layer keeps one position for a force (its sightings, routes and signals); the offsets are
taken up when the force next goes into action, so that a battle opens from where its ships are.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from campaign.geo.earth import forward, inverse
from campaign.geo.regions import way_out
from campaign.geo.routing import AvoidArea, RouteError
from campaign.tactics.kinematics import YD_PER_NM
from campaign.world.units import ForceState, ShipState

#: A ship within this many yards of her station is on it.
ON_STATION_YD = 1.0


@dataclass(frozen=True)
class Offset:
    """A ship out of station: where she was reckoned (``lat``, ``lon``) at ``t_min``."""

    lat: float
    lon: float
    t_min: float


def station_yd(index: int, course_deg: float, spacing_yd: float) -> tuple[float, float]:
    """The station (yd east, north of the leader) of the ``index``-th ship of a column on ``course_deg``."""
    back = math.radians(course_deg + 180.0)
    return index * spacing_yd * math.sin(back), index * spacing_yd * math.cos(back)


def best_speed_kn(ship: ShipState) -> float:
    """The most she can make now (kn): her sustained speed less what damage took."""
    return max(0.0, ship.ship.sustained_speed_kn - ship.condition.speed_lost_kn)


def _from(lat: float, lon: float, dx_yd: float, dy_yd: float) -> tuple[float, float]:
    dist_yd = math.hypot(dx_yd, dy_yd)
    if dist_yd <= 0.0:
        return lat, lon
    return forward(lat, lon, math.degrees(math.atan2(dx_yd, dy_yd)) % 360.0, dist_yd / YD_PER_NM)


def station_latlon(force: ForceState, ship: ShipState, t_min: float, spacing_yd: float) -> tuple[float, float]:
    """Where her station is at ``t_min``: her place in column astern of the leader (the force's position)."""
    active = force.active_ships()
    index = active.index(ship) if ship in active else 0
    lat, lon, course = force.position_at(t_min)
    return _from(lat, lon, *station_yd(index, course, spacing_yd))


def ship_latlon(force: ForceState, ship: ShipState, t_min: float, spacing_yd: float,
                areas: tuple[AvoidArea, ...] = ()) -> tuple[float, float]:
    """Where the ship is at ``t_min`` (not before her last reckoning): on her station, or, out of it, as
    near it as her best speed has brought her from where she was last reckoned (so that she never goes
    faster, whatever her force has done meanwhile). Her new reckoning is kept.

    ``areas``: waters barred to her (a neutral's belt). A station or a reckoning in them is taken at the
    nearest water outside (``campaign.geo.regions.way_out``): a ship keeps her station, or steers for
    it, along their edge, never inside (a column whose leader rounds a belt's corner would otherwise cut
    it, astern of him)."""
    target = _outside(station_latlon(force, ship, t_min, spacing_yd), areas)
    off = ship.offset
    if off is None or force.in_port or force.active_ships()[:1] == [ship]:
        ship.offset = None
        return target
    reach_nm = best_speed_kn(ship) * max(0.0, t_min - off.t_min) / 60.0
    brg, gap_nm = inverse(off.lat, off.lon, *target)
    if gap_nm * YD_PER_NM <= reach_nm * YD_PER_NM + ON_STATION_YD:
        ship.offset = None
        return target
    lat, lon = _outside(forward(off.lat, off.lon, brg, reach_nm), areas)
    ship.offset = Offset(lat, lon, max(t_min, off.t_min))
    return lat, lon


def _outside(point: tuple[float, float], areas: tuple[AvoidArea, ...]) -> tuple[float, float]:
    """``point`` (lat, lon), or, inside ``areas``, the nearest water outside them all."""
    if not areas:
        return point
    try:
        out = way_out(areas, *point)
    except RouteError:
        return point  # nothing outside within reach: she stays where the column puts her
    return point if out is None else out


def set_offset(ship: ShipState, lat: float, lon: float, t_min: float) -> None:
    """Reckon the ship at (lat, lon) at ``t_min``, out of station until she has steamed back to it."""
    ship.offset = Offset(lat, lon, t_min)
