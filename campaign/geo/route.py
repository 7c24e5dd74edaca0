"""A sea route as plain data: waypoints joined by WGS84 geodesics."""

from __future__ import annotations

import bisect
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from campaign.geo import earth


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
        """The route through the given points, with its cumulative geodesic distances."""
        la = np.asarray(lats, dtype=float)
        lo = np.asarray(lons, dtype=float)
        if la.size > 1:
            az, seg = earth.inverse(la[:-1], lo[:-1], la[1:], lo[1:])
        else:
            az, seg = np.zeros(0), np.zeros(0)
        cum = np.concatenate([[0.0], np.cumsum(np.atleast_1d(seg))])
        return cls(tuple(la.tolist()), tuple(lo.tolist()), tuple(cum.tolist()), passages,
                   tuple(np.atleast_1d(az).tolist()))

    def positions_at(self, dists_nm: npt.ArrayLike) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(lats, lons, courses) at many distances along the route at once (vectorised)."""
        return along(np.asarray(self.lats), np.asarray(self.lons), np.asarray(dists_nm, dtype=float))

    def position_at(self, dist_nm: float) -> tuple[float, float, float]:
        """(lat, lon, course in degrees) after ``dist_nm`` along the route (clamped to its ends)."""
        cum = self.cum_nm
        if len(cum) < 2 or cum[-1] <= 0.0:
            return self.lats[0], self.lons[0], 0.0
        d = min(max(dist_nm, 0.0), cum[-1])
        i = bisect.bisect_right(cum, d) - 1
        i = min(max(i, 0), len(cum) - 2)
        while i < len(cum) - 2 and cum[i + 1] - cum[i] <= 0.0:
            i += 1
        az = self.azimuths[i] if self.azimuths else earth.bearing_deg(
            self.lats[i], self.lons[i], self.lats[i + 1], self.lons[i + 1])
        # One scalar call on the hot path: the course there is the back azimuth turned round.
        lon, lat, back = earth.WGS84.fwd(self.lons[i], self.lats[i], az, (d - cum[i]) * earth.M_PER_NM)
        return float(lat), float(lon), float((back + 180.0) % 360.0)
