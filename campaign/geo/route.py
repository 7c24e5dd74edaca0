"""A sea route as plain data: waypoints joined by WGS84 geodesics."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from campaign.geo import earth


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

    @property
    def length_nm(self) -> float:
        return self.cum_nm[-1]

    @property
    def waypoints(self) -> list[tuple[float, float]]:
        return list(zip(self.lats, self.lons))

    @classmethod
    def through(cls, lats: npt.ArrayLike, lons: npt.ArrayLike, passages: tuple[str, ...] = ()) -> "Route":
        """The route through the given points, with its cumulative geodesic distances."""
        la = np.asarray(lats, dtype=float)
        lo = np.asarray(lons, dtype=float)
        seg = earth.distance_nm(la[:-1], lo[:-1], la[1:], lo[1:]) if la.size > 1 else np.zeros(0)
        cum = np.concatenate([[0.0], np.cumsum(np.atleast_1d(seg))])
        return cls(tuple(la.tolist()), tuple(lo.tolist()), tuple(cum.tolist()), passages)

    def position_at(self, dist_nm: float) -> tuple[float, float, float]:
        """(lat, lon, course in degrees) after ``dist_nm`` along the route (clamped to its ends)."""
        cum = self.cum_nm
        if len(cum) < 2 or cum[-1] <= 0.0:
            return self.lats[0], self.lons[0], 0.0
        d = min(max(dist_nm, 0.0), cum[-1])
        i = int(np.searchsorted(cum, d, side="right")) - 1
        i = min(max(i, 0), len(cum) - 2)
        while i < len(cum) - 2 and cum[i + 1] - cum[i] <= 0.0:
            i += 1
        az, _ = earth.inverse(self.lats[i], self.lons[i], self.lats[i + 1], self.lons[i + 1])
        lat, lon = earth.forward(self.lats[i], self.lons[i], az, d - cum[i])
        # The course at that point is the forward azimuth there, not the initial one.
        course, _ = earth.inverse(lat, lon, self.lats[i + 1], self.lons[i + 1]) if d < cum[i + 1] else (az, 0.0)
        return float(lat), float(lon), float(course)
