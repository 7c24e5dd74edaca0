"""A force's motion as the world has planned it: along its leg until the leg ends, then lying still.

A ``Motion`` is an immutable snapshot taken whenever a force's leg starts, ends or changes speed; the
sighting model predicts contacts from these snapshots, and a snapshot's ``version`` tells a
prediction made from an older one that it is stale.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

import numpy as np
import shapely

from campaign.geo import earth
from campaign.geo.route import Route


@dataclass(frozen=True)
class Motion:
    """Where a force is at any time from ``t0_min`` on, until its orders change."""

    version: int
    t0_min: float
    lat: float  # where it lies when not on a leg, or where the leg ends
    lon: float
    route: Route | None = None
    speed_kn: float = 0.0
    offset_nm: float = 0.0  # distance already run along the route at t0

    @property
    def end_min(self) -> float:
        """When the leg ends (t0 when there is no leg)."""
        if self.route is None or self.speed_kn <= 0:
            return self.t0_min
        return self.t0_min + (self.route.length_nm - self.offset_nm) / self.speed_kn * 60.0

    def dist_at(self, t_min: float) -> float:
        if self.route is None:
            return 0.0
        return min(self.offset_nm + self.speed_kn * max(t_min - self.t0_min, 0.0) / 60.0, self.route.length_nm)

    def position(self, t_min: float) -> tuple[float, float]:
        """(lat, lon) at ``t_min`` (degrees)."""
        if self.route is None:
            return self.lat, self.lon
        lat, lon, _ = self.route.position_at(self.dist_at(t_min))
        return lat, lon

    def positions(self, t_min: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(lats, lons) at many times at once (vectorised)."""
        ts = np.asarray(t_min, dtype=float)
        if self.route is None:
            return np.full(ts.shape, self.lat), np.full(ts.shape, self.lon)
        d = np.clip(self.offset_nm + self.speed_kn * np.maximum(ts - self.t0_min, 0.0) / 60.0, 0.0,
                    self.route.length_nm)
        lat, lon, _ = self.route.positions_at(d)
        return lat, lon

    def speeds(self, t_min: np.ndarray) -> np.ndarray:
        """Speed in knots at many times (the leg's speed until it ends, then nothing)."""
        ts = np.asarray(t_min, dtype=float)
        if self.route is None:
            return np.zeros(ts.shape)
        return np.where(ts < self.end_min, self.speed_kn, 0.0)

    def speed_at(self, t_min: float) -> float:
        """Speed in knots at ``t_min``: the leg's speed until it ends, then nothing."""
        return self.speed_kn if self.route is not None and t_min < self.end_min else 0.0

    @cached_property
    def path_xy(self) -> shapely.Geometry:
        """Everywhere the force will be, in the routing plane: its route, or the point it lies at.

        A plane distance is at most the plane's greatest stretch (``seagraph.PLANE_STRETCH_MAX``)
        times the true one, so two paths farther apart in the plane than a range times that stretch
        never bring the forces within the range.
        """
        from campaign.geo.land import default_land

        plane = default_land().plane
        if self.route is None:
            x, y = plane.to_xy(self.lat, self.lon)
            return shapely.Point(float(x), float(y))
        x, y = plane.to_xy(np.asarray(self.route.lats), np.asarray(self.route.lons))
        return shapely.LineString(np.column_stack([x, y])) if len(x) > 1 else shapely.Point(x[0], y[0])

    def max_speed(self) -> float:
        return self.speed_kn if self.route is not None else 0.0

    def breakpoints(self, t0: float, t1: float) -> list[float]:
        """Times in (t0, t1) where the force turns (passes a waypoint) or stops: between two of them it
        steams along one geodesic at one speed, or lies still."""
        if self.route is None or self.speed_kn <= 0:
            return []
        cum = np.asarray(self.route.cum_nm)
        times = self.t0_min + (cum - self.offset_nm) / self.speed_kn * 60.0
        times = times[(times > t0) & (times < t1)]
        out = times.tolist()
        end = self.end_min
        if t0 < end < t1 and (not out or abs(out[-1] - end) > 1e-9):
            out.append(end)
        return sorted(set(out))


def distance_nm(a: Motion, b: Motion, t_min: float) -> float:
    """Geodesic distance in nm between two forces at ``t_min``."""
    la, lo = a.position(t_min)
    lb, mb = b.position(t_min)
    return float(earth.distance_nm(la, lo, lb, mb))


def bearing_deg(a: Motion, b: Motion, t_min: float) -> float:
    la, lo = a.position(t_min)
    lb, mb = b.position(t_min)
    return float(earth.bearing_deg(la, lo, lb, mb))


def closing_speed_bound(a: Motion, b: Motion) -> float:
    """An upper bound, in knots, on how fast the distance between the two can change."""
    return a.max_speed() + b.max_speed()

