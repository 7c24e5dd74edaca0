"""A force's motion as the world has planned it: along its leg until the leg ends, then lying still.

A ``Motion`` is an immutable snapshot taken whenever a force's leg starts, ends or changes speed; the
sighting model predicts contacts from these snapshots, and a snapshot's ``version`` tells a
prediction made from an older one that it is stale.
"""

from __future__ import annotations

import bisect
import dataclasses
import functools
import math
from dataclasses import dataclass
from functools import cached_property

import numpy as np
import shapely

from campaign.geo import earth
from campaign.geo.route import Route

# Positions one motion remembers (instant -> (lat, lon)) before it forgets them all and starts again.
POSITIONS_KEPT = 1024


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

    @cached_property
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
        """(lat, lon) at ``t_min`` (degrees).

        Remembered per motion and instant: the sighting model asks for the same instants again and
        again (an observer against each of its targets, a window's end and the next one's start,
        the light's search at each of its thresholds), and each answer costs a forward geodesic.
        """
        if self.route is None:
            return self.lat, self.lon
        memo = self.__dict__.get("_positions")
        if memo is None or len(memo) >= POSITIONS_KEPT:
            # A cache beside the frozen fields (as ``grid_xyz`` keeps its grid), emptied when full.
            memo = self.__dict__["_positions"] = {}
        p = memo.get(t_min)
        if p is None:
            p = memo[t_min] = self.locate(t_min)
        return p

    def locate(self, t_min: float) -> tuple[float, float]:
        """``position`` worked out afresh, remembering nothing in the motion: for callers that ask each
        instant once (the light's search along a motion that caches across runs would only fill memory).
        The route keeps its last few points (``route.POINTS_KEPT``), a memory that never grows."""
        route = self.route
        if route is None:
            return self.lat, self.lon
        dt = t_min - self.t0_min
        return route.latlon_at(self.offset_nm + self.speed_kn * dt / 60.0 if dt > 0.0 else self.offset_nm)

    def positions(self, t_min: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(lats, lons) at many times at once (vectorised; the same points as ``position``)."""
        ts = np.asarray(t_min, dtype=float)
        if self.route is None:
            return np.full(ts.shape, self.lat), np.full(ts.shape, self.lon)
        d = self.offset_nm + self.speed_kn * np.maximum(ts - self.t0_min, 0.0) / 60.0
        lat, lon = self.route.latlons_at(d.reshape(-1))
        return lat.reshape(ts.shape), lon.reshape(ts.shape)

    def xyz_at(self, t_min: np.ndarray) -> np.ndarray:
        """Earth-centred (x, y, z) in metres of the force at many times, shape (n, 3): chords between
        such points are never longer than the geodesics, so they bound distances from below."""
        lat, lon = self.positions(t_min)
        return ecef(lat, lon)

    def grid_xyz(self, k0: int, k1: int, step_min: float) -> np.ndarray:
        """``xyz_at`` at the times k x ``step_min`` for k in [k0, k1), taken from a grid computed once
        for the motion's whole run (every pair of forces that screens this motion shares it)."""
        grid = self.__dict__.get("_grid")
        if grid is None or grid[0] != step_min:
            grid = (step_min, *_grid(self.geometry, step_min))
            self.__dict__["_grid"] = grid  # a cache beside the frozen fields, as cached_property keeps
        _, kmin, xyz = grid
        if k0 < kmin:
            return self.xyz_at(np.arange(k0, k1) * step_min)
        if k1 - kmin <= len(xyz):
            return xyz[k0 - kmin:k1 - kmin]
        return xyz[np.minimum(np.arange(k0, k1) - kmin, len(xyz) - 1)]

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
        return _plane_path(self.route) if self.route is not None else _plane_point(self.lat, self.lon)

    def max_speed(self) -> float:
        return self.speed_kn if self.route is not None else 0.0

    @cached_property
    def turn_times(self) -> tuple[float, ...]:
        """Every time at which the force passes a waypoint or stops, ascending (empty when lying still)."""
        if self.route is None or self.speed_kn <= 0:
            return ()
        cum = np.asarray(self.route.cum_nm)
        times = (self.t0_min + (cum - self.offset_nm) / self.speed_kn * 60.0).tolist()
        end = self.end_min
        out = sorted(set(times))
        if not any(abs(x - end) <= 1e-9 for x in out):
            out = sorted(out + [end])
        return tuple(out)

    def breakpoints(self, t0: float, t1: float) -> list[float]:
        """Times in (t0, t1) where the force turns (passes a waypoint) or stops: between two of them it
        steams along one geodesic at one speed, or lies still."""
        times = self.turn_times
        if not times:
            return []
        i = bisect.bisect_right(times, t0)
        j = bisect.bisect_left(times, t1)
        return list(times[i:j])

    def next_breakpoint(self, t_min: float) -> float:
        """The first turn or stop after ``t_min`` (inf when there is none)."""
        times = self.turn_times
        i = bisect.bisect_right(times, t_min)
        return times[i] if i < len(times) else math.inf

    @cached_property
    def geometry(self) -> Motion:
        """This motion without its version: equal for equal plans, a key for caches shared across runs."""
        return dataclasses.replace(self, version=0) if self.version != 0 else self


# What is worked out from a motion's geometry alone is remembered across runs (replicates of a
# campaign repeat their plans): this many entries of each kind.
GEOMETRY_KEPT = 4096


@functools.lru_cache(maxsize=GEOMETRY_KEPT)
def _grid(geometry: Motion, step_min: float) -> tuple[int, np.ndarray]:
    """(k_first, xyz): ``xyz_at`` at k x ``step_min`` for k from k_first, the first multiple after the
    motion's start, to the first at or after its end (after which the force lies still)."""
    kmin = math.floor(geometry.t0_min / step_min) + 1
    kmax = max(kmin, math.ceil(geometry.end_min / step_min))
    xyz = geometry.xyz_at(np.arange(kmin, kmax + 1) * step_min)
    xyz.flags.writeable = False  # shared between runs
    return kmin, xyz


@functools.lru_cache(maxsize=GEOMETRY_KEPT)
def _plane_path(route: Route) -> shapely.Geometry:
    from campaign.geo.land import default_land

    x, y = default_land().plane.to_xy(np.asarray(route.lats), np.asarray(route.lons))
    return shapely.LineString(np.column_stack([x, y])) if len(x) > 1 else shapely.Point(x[0], y[0])


@functools.lru_cache(maxsize=GEOMETRY_KEPT)
def _plane_point(lat: float, lon: float) -> shapely.Geometry:
    from campaign.geo.land import default_land

    x, y = default_land().plane.to_xy(lat, lon)
    return shapely.Point(float(x), float(y))


def ecef(lat: np.ndarray, lon: np.ndarray) -> np.ndarray:
    """Earth-centred, Earth-fixed (x, y, z) in metres of points on the WGS84 ellipsoid, shape (n, 3)."""
    a, e2 = earth.WGS84.a, earth.WGS84.es  # the ellipsoid's semi-major axis (m), eccentricity squared
    phi, lam = np.radians(np.atleast_1d(lat)), np.radians(np.atleast_1d(lon))
    sin_phi, cos_phi = np.sin(phi), np.cos(phi)
    n = a / np.sqrt(1.0 - e2 * sin_phi * sin_phi)
    return np.column_stack((n * cos_phi * np.cos(lam), n * cos_phi * np.sin(lam), n * (1.0 - e2) * sin_phi))


def ecef_point(lat: float, lon: float) -> tuple[float, float, float]:
    """``ecef`` of one point, in plain floats (for hot scalar paths)."""
    a, e2 = earth.WGS84.a, earth.WGS84.es
    phi, lam = math.radians(lat), math.radians(lon)
    sin_phi, cos_phi = math.sin(phi), math.cos(phi)
    n = a / math.sqrt(1.0 - e2 * sin_phi * sin_phi)
    return n * cos_phi * math.cos(lam), n * cos_phi * math.sin(lam), n * (1.0 - e2) * sin_phi


def distance_nm(a: Motion, b: Motion, t_min: float) -> float:
    """Geodesic distance in nm between two forces at ``t_min``."""
    la, lo = a.position(t_min)
    lb, mb = b.position(t_min)
    return earth.WGS84.inv(float(lo), float(la), float(mb), float(lb))[2] / earth.M_PER_NM


def bearing_deg(a: Motion, b: Motion, t_min: float) -> float:
    la, lo = a.position(t_min)
    lb, mb = b.position(t_min)
    return earth.WGS84.inv(float(lo), float(la), float(mb), float(lb))[0] % 360.0


# Slack (m) for the rounding of the points and chords that ``chord_floor_nm`` works from: pyproj's
# geodesics are good to nanometres and an Earth-centred point to about a centimetre.
FLOOR_SLACK_M = 1.0


def chord_floor_nm(a: Motion, b: Motion, t0_min: float, t1_min: float) -> float:
    """A lower bound (nm) on the distance between forces on motions ``a`` and ``b`` all through
    [t0_min, t1_min], or -inf when either turns or stops inside it.

    Between its turns a force steams along one geodesic at one speed ``s``. A geodesic's curvature in
    space is the ellipsoid's normal curvature along it, at most 1/(a(1 - e²)) (the meridian's at the
    equator, 6,335 km), so the force strays from the straight line between its two ends by at most
    s²T²/8 times that (a curve of curvature k at speed s bends away from its chord by at most
    k s² (t - t0)(t1 - t)/2). The two forces' offset then strays from the segment between its values
    at the ends by the sum of the two, and the segment's nearest approach to the origin, less that,
    bounds their chord from below; a chord is never longer than the geodesic.
    """
    if a.next_breakpoint(t0_min) < t1_min or b.next_breakpoint(t0_min) < t1_min:
        return -math.inf
    ax0, ay0, az0 = ecef_point(*a.position(t0_min))
    bx0, by0, bz0 = ecef_point(*b.position(t0_min))
    ax1, ay1, az1 = ecef_point(*a.position(t1_min))
    bx1, by1, bz1 = ecef_point(*b.position(t1_min))
    rx, ry, rz = ax0 - bx0, ay0 - by0, az0 - bz0  # the offset at t0 ...
    dx, dy, dz = ax1 - bx1 - rx, ay1 - by1 - ry, az1 - bz1 - rz  # ... and its change by t1
    dd = dx * dx + dy * dy + dz * dz
    u = 0.0 if dd == 0.0 else min(max(-(rx * dx + ry * dy + rz * dz) / dd, 0.0), 1.0)
    nearest_m = math.sqrt((rx + u * dx) ** 2 + (ry + u * dy) ** 2 + (rz + u * dz) ** 2)
    m_per_min = earth.M_PER_NM / 60.0
    sa, sb = a.speed_at(t0_min) * m_per_min, b.speed_at(t0_min) * m_per_min
    least_radius_m = earth.WGS84.a * (1.0 - earth.WGS84.es)
    stray_m = (sa * sa + sb * sb) * (t1_min - t0_min) ** 2 / (8.0 * least_radius_m)
    return (nearest_m - stray_m - FLOOR_SLACK_M) / earth.M_PER_NM


def closing_speed_bound(a: Motion, b: Motion) -> float:
    """An upper bound, in knots, on how fast the distance between the two can change."""
    return a.max_speed() + b.max_speed()

