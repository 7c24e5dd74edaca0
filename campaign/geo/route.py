"""A sea route as plain data: waypoints joined by WGS84 geodesics."""

from __future__ import annotations

import bisect
import functools
from dataclasses import dataclass
from functools import cached_property

import numpy as np
import numpy.typing as npt

from campaign.geo import earth

# Routes remembered by their points (a campaign's replicates plan the same legs again and again).
ROUTES_KEPT = 4096
# Points one route remembers (distance along it -> forward geodesic) before it forgets them all and
# starts again: the world asks where a force is at the same instant again and again (its commander,
# the signals, the sighting model, a leg that has ended), and each answer costs a forward geodesic.
# Few, as routes are kept across runs.
POINTS_KEPT = 32


def along(lats: np.ndarray, lons: np.ndarray, dists_nm: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(lat, lon, course) at each distance in nm along the polyline of geodesics through the points.

    Distances are clamped to the route's ends; course is the forward azimuth at the point, degrees.
    """
    lats = np.asarray(lats, dtype=float)
    lons = np.asarray(lons, dtype=float)
    d = np.asarray(dists_nm, dtype=float)
    if lats.size < 2:
        z = np.zeros_like(d)
        return z + lats[0], z + lons[0], z
    az, seg = earth.inverse(lats[:-1], lons[:-1], lats[1:], lons[1:])
    az, seg = np.atleast_1d(az), np.atleast_1d(seg)
    cum = np.concatenate([[0.0], np.cumsum(seg)])
    d = np.clip(d, 0.0, cum[-1])
    i = np.clip(np.searchsorted(cum, d, side="right") - 1, 0, len(seg) - 1)
    lat, lon = earth.forward(lats[i], lons[i], az[i], d - cum[i])
    lat, lon = np.atleast_1d(lat), np.atleast_1d(lon)
    course, _ = earth.inverse(lat, lon, lats[i + 1], lons[i + 1])
    course = np.where(d < cum[i + 1] - 1e-9, np.atleast_1d(course), az[i])
    return lat, lon, course


@dataclass(frozen=True)
class Route:
    """A sea route: waypoints joined by geodesics.

    ``lats``/``lons`` include both ends. ``cum_nm[i]`` is the distance run from the start to
    waypoint i. ``passages`` names the canals the route uses.
    """

    lats: tuple[float, ...]
    lons: tuple[float, ...]
    cum_nm: tuple[float, ...]
    passages: tuple[str, ...] = ()
    azimuths: tuple[float, ...] = ()  # initial azimuth of each leg, degrees (filled by ``through``)

    @property
    def length_nm(self) -> float:
        return self.cum_nm[-1]

    @property
    def waypoints(self) -> list[tuple[float, float]]:
        return list(zip(self.lats, self.lons))

    @classmethod
    def through(cls, lats: npt.ArrayLike, lons: npt.ArrayLike, passages: tuple[str, ...] = ()) -> Route:
        """The route through the given points, with its cumulative geodesic distances.

        Equal points give the same (immutable) object, also from one run to the next, so that what is
        worked out once about a route (its legs, the lines it draws, where it crosses a region) is
        worked out once for a batch of replicates.
        """
        la = tuple(np.asarray(lats, dtype=float).reshape(-1).tolist())
        lo = tuple(np.asarray(lons, dtype=float).reshape(-1).tolist())
        if cls is not Route:
            return cls._build(la, lo, tuple(passages))
        return _through(la, lo, tuple(passages))

    @classmethod
    def _build(cls, lats: tuple[float, ...], lons: tuple[float, ...], passages: tuple[str, ...]) -> Route:
        la, lo = np.asarray(lats, dtype=float), np.asarray(lons, dtype=float)
        if la.size > 1:
            az, seg = earth.inverse(la[:-1], lo[:-1], la[1:], lo[1:])
        else:
            az, seg = np.zeros(0), np.zeros(0)
        cum = np.concatenate([[0.0], np.cumsum(np.atleast_1d(seg))])
        return cls(lats, lons, tuple(cum.tolist()), passages, tuple(np.atleast_1d(az).tolist()))

    @cached_property
    def _legs(self) -> tuple[tuple[float, ...], np.ndarray, np.ndarray, np.ndarray, np.ndarray, bool]:
        """(initial azimuth of each leg; as arrays: cumulative distances, start lats, lons, azimuths;
        whether any leg has no length)."""
        az = self.azimuths
        if len(az) != len(self.lats) - 1:
            a, _ = earth.inverse(np.asarray(self.lats[:-1]), np.asarray(self.lons[:-1]),
                                 np.asarray(self.lats[1:]), np.asarray(self.lons[1:]))
            az = tuple(np.atleast_1d(a).tolist())
        cum = self.cum_nm
        empty = any(cum[i + 1] - cum[i] <= 0.0 for i in range(len(cum) - 1))
        return (az, np.asarray(cum), np.asarray(self.lats[:-1]), np.asarray(self.lons[:-1]),
                np.asarray(az), empty)

    def _leg_index(self, d: float) -> int:
        """The leg that holds distance ``d`` (in [0, length]), passing over legs of no length."""
        cum = self.cum_nm
        last = len(cum) - 2
        i = bisect.bisect_right(cum, d) - 1
        if i > last:
            i = last
        elif i < 0:
            i = 0
        if self._legs[5]:
            while i < last and cum[i + 1] - cum[i] <= 0.0:
                i += 1
        return i

    def latlon_at(self, dist_nm: float) -> tuple[float, float]:
        """(lat, lon) after ``dist_nm`` along the route (clamped to its ends): ``position_at`` without the
        course, for hot paths (sighting)."""
        cum = self.cum_nm
        if len(cum) < 2 or cum[-1] <= 0.0:
            return self.lats[0], self.lons[0]
        d = min(cum[-1], dist_nm)
        d = max(d, 0.0)
        p = self._forward(d)
        return p[1], p[0]

    def latlons_at(self, dists_nm: npt.ArrayLike) -> tuple[np.ndarray, np.ndarray]:
        """(lats, lons) at many distances along the route at once: ``positions_at`` without the courses,
        each point one forward geodesic from its leg's start (the same as ``latlon_at``)."""
        d = np.atleast_1d(np.asarray(dists_nm, dtype=float))
        cum = self.cum_nm
        if len(cum) < 2 or cum[-1] <= 0.0:
            return np.full(d.shape, self.lats[0]), np.full(d.shape, self.lons[0])
        _, cum_a, lat_a, lon_a, az_a, empty = self._legs
        d = np.clip(d, 0.0, cum[-1])
        # Clamped by minimum and maximum: the same indices as np.clip, which is slow on integers.
        i = np.minimum(np.maximum(np.searchsorted(cum_a, d, side="right") - 1, 0), len(cum) - 2)
        if empty:  # legs of no length: step over them as latlon_at does
            i = np.array([self._leg_index(float(x)) for x in d], dtype=np.int64)
        lon, lat, _ = earth.WGS84.fwd(lon_a[i], lat_a[i], az_a[i], (d - cum_a[i]) * earth.M_PER_NM)
        return np.asarray(lat), np.asarray(lon)

    def positions_at(self, dists_nm: npt.ArrayLike) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(lats, lons, courses) at many distances along the route at once (vectorised)."""
        return along(np.asarray(self.lats), np.asarray(self.lons), np.asarray(dists_nm, dtype=float))

    def position_at(self, dist_nm: float) -> tuple[float, float, float]:
        """(lat, lon, course in degrees) after ``dist_nm`` along the route (clamped to its ends)."""
        cum = self.cum_nm
        if len(cum) < 2 or cum[-1] <= 0.0:
            return self.lats[0], self.lons[0], 0.0
        d = min(max(dist_nm, 0.0), cum[-1])
        # One scalar call on the hot path: the course there is the back azimuth turned round.
        lon, lat, back = self._forward(d)
        return float(lat), float(lon), float((back + 180.0) % 360.0)

    def _forward(self, d: float) -> tuple[float, float, float]:
        """pyproj's forward geodesic (lon, lat, back azimuth in degrees) from the start of the leg that
        holds ``d`` nm (already clamped to [0, length]) to ``d``: the one call behind ``latlon_at`` and
        ``position_at``, remembered for the last few distances asked (see ``POINTS_KEPT``)."""
        memo = self.__dict__.get("_points")
        if memo is None or len(memo) >= POINTS_KEPT:
            # A cache beside the frozen fields (as ``_legs`` is kept), emptied when full.
            memo = self.__dict__["_points"] = {}
        p = memo.get(d)
        if p is None:
            i = self._leg_index(d)
            p = memo[d] = earth.WGS84.fwd(self.lons[i], self.lats[i], self._legs[0][i],
                                          (d - self.cum_nm[i]) * earth.M_PER_NM)
        return p


@functools.lru_cache(maxsize=ROUTES_KEPT)
def _through(lats: tuple[float, ...], lons: tuple[float, ...], passages: tuple[str, ...]) -> Route:
    return Route._build(lats, lons, passages)
