"""The live state of ships and forces in the strategic world (truth, not a side's picture).

A ship's coal is kept as (amount at a reference time, rate since): ``coal_at(t)`` is exact between
changes, and every change first settles the amount to the current time. A force's position comes from
its current leg when asked (``position_at``), never by ticking.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from campaign.geo.routing import Route, Vessel
from campaign.model.orders import Order, Point
from campaign.model.ships import Ship
from campaign.tactics.protocol import Condition

# Statuses a ship can be in; the order is the code written to tracks.nc (CF flag_values): new ones go at
# the end, so that the codes of the others do not change.
STATUSES = ("in_port", "underway", "waiting", "coaling", "out_of_coal", "stopped", "interned", "in_action", "sunk",
            "shelling")
# Statuses of a ship that no longer belongs to her force's doings (a set: ``active_ships`` asks of
# every ship, many times an hour of simulated time).
GONE = frozenset(("out_of_coal", "interned", "sunk"))


@dataclass
class ShipState:
    """One ship: its data, its side, its coal (settled at ``coal_ref_min``) and its status."""

    ship: Ship
    side: str
    force: ForceState
    coal_t: float
    coal_ref_min: float = 0.0
    rate_t_per_h: float = 0.0  # positive while taking coal, negative while burning
    cargo_t: float = 0.0  # coal a collier can still give
    status: str = "in_port"
    version: int = 0  # bumped at every change, so a stale scheduled event can tell it is stale
    run_nm: float = 0.0
    burnt_t: float = 0.0
    taken_t: float = 0.0
    given_t: float = 0.0
    condition: Condition = Condition()  # battle damage carried from fight to fight (campaign.tactics)
    offset: object = None  # out of station after a battle: campaign.world.station.Offset, else None

    @property
    def name(self) -> str:
        return self.ship.name

    def coal_at(self, t_min: float) -> float:
        return self.coal_t + self.rate_t_per_h * (t_min - self.coal_ref_min) / 60.0

    def settle(self, t_min: float) -> None:
        """Bring the coal account up to ``t_min`` at the current rate."""
        dt_h = (t_min - self.coal_ref_min) / 60.0
        delta = self.rate_t_per_h * dt_h
        if delta < 0:
            self.burnt_t -= delta
        else:
            self.taken_t += delta
        self.coal_t = min(max(self.coal_t + delta, 0.0), self.ship.coal_capacity_t)
        self.coal_ref_min = t_min

    def set_rate(self, t_min: float, rate_t_per_h: float) -> None:
        self.settle(t_min)
        self.rate_t_per_h = rate_t_per_h
        self.version += 1


@dataclass
class Leg:
    """Steaming along ``route`` from ``offset_nm`` at ``t0_min``, at ``speed_kn``."""

    route: Route
    t0_min: float
    speed_kn: float
    offset_nm: float = 0.0

    def dist_at(self, t_min: float) -> float:
        """Distance run along the route at ``t_min``, nm (at most its length; asked many times an hour:
        the length read from the cumulative distances directly, as ``length_nm`` does)."""
        return min(self.offset_nm + self.speed_kn * (t_min - self.t0_min) / 60.0, self.route.cum_nm[-1])

    def end_min(self) -> float:
        if self.speed_kn <= 0:
            return float("inf")
        return self.t0_min + (self.route.length_nm - self.offset_nm) / self.speed_kn * 60.0


@dataclass
class ForceState:
    """A named group of ships moving together under one list of orders."""

    name: str
    side: str
    nation: str
    ships: list[ShipState] = field(default_factory=list)
    orders: tuple[Order, ...] = ()
    lat: float = 0.0
    lon: float = 0.0
    course_deg: float = 0.0
    place: str | None = None  # gazetteer name of the port or place it lies at, if any
    in_port: bool = False
    leg: Leg | None = None
    port_clock_min: float | None = None  # when its stay in a neutral port began to count
    pending_notice: float | None = None  # a neutral's notice that restarts the port clock
    interned: bool = False  # held by a neutral for staying beyond the time limit
    current_order: str = ""
    speed_order: object = None  # the Sail order's speed, kept to re-plan the leg if a ship drops out
    avoid: tuple = ()  # AvoidArea: waters this force may not enter
    process: object = None  # its SimPy process (follow_orders), to be interrupted
    order_epoch: int = 0  # bumped each time its orders are replaced
    order_index: int = 0  # the order it is carrying out
    script: tuple = ()  # the orders it was given, kept while its doctrine has it doing something else
    battle: object = None  # the Fight it is in (campaign.world.engagement), if any

    def active_ships(self) -> list[ShipState]:
        return [s for s in self.ships if s.status not in GONE]

    def vessel(self) -> Vessel:
        """Largest beam and draught of the force, for the router (None where a ship's is unknown)."""
        beams = [s.ship.beam_m for s in self.ships]
        drafts = [s.ship.draught_m for s in self.ships]
        return Vessel(None if any(b is None for b in beams) else max(beams),
                      None if any(d is None for d in drafts) else max(drafts))

    def position_at(self, t_min: float) -> tuple[float, float, float]:
        """(lat, lon, course) at ``t_min``: on the current leg, or where the force lies."""
        if self.leg is None:
            return self.lat, self.lon, self.course_deg
        return self.leg.route.position_at(self.leg.dist_at(t_min))

    def at_point(self, p: Point, t_min: float, radius_nm: float) -> bool:
        from campaign.geo.earth import distance_nm

        lat, lon, _ = self.position_at(t_min)
        return self.leg is None and distance_nm(lat, lon, p.lat, p.lon) <= radius_nm
