"""Lines of sight over the sea: whether land lies between two points.

Any land blocks. The charts give shores, not heights: a masthead or a smoke cloud seen over a low spit
would need the height of the land and of the eyes, and we have no terrain heights, so a line of sight
that crosses land, however low, sees nothing (docs/sighting.md). Land within ``END_MARGIN_NM`` of either
end does not count: GSHHG's intermediate shore is drawn to about a kilometre, and the shore a ship lies
against is not between her and what she looks at.

Lines are tested in the routing plane (``campaign.geo.plane``: an ellipsoidal gnomonic projection, in
which geodesics are straight), against the land prepared there once for all (``Land.xy``).
"""

from __future__ import annotations

import math

import shapely

from campaign.geo import earth
from campaign.geo.land import Land

# Land this near either end of a line of sight (nm: a cable) does not block it.
END_MARGIN_NM = 0.1


class SightLines:
    """Line-of-sight tests against one ``Land``."""

    def __init__(self, land: Land) -> None:
        self.land = land
        self.plane = land.plane
        self._margin_m = END_MARGIN_NM * earth.M_PER_NM

    def xy(self, lat: float, lon: float) -> tuple[float, float]:
        """A point (degrees) in the plane (metres)."""
        return self.plane.point_xy(lat, lon)

    def blocked_xy(self, x0: float, y0: float, x1: float, y1: float) -> bool:
        """Whether land lies on the plane segment between two points (metres), but for its ends'
        ``END_MARGIN_NM``."""
        dx, dy = x1 - x0, y1 - y0
        length = math.hypot(dx, dy)
        if length <= 2.0 * self._margin_m:
            return False
        f = self._margin_m / length
        seg = shapely.LineString(((x0 + f * dx, y0 + f * dy), (x1 - f * dx, y1 - f * dy)))
        return bool(shapely.intersects(self.land.xy, seg))

    def blocked(self, lat0: float, lon0: float, lat1: float, lon1: float) -> bool:
        """Whether land lies between two points (degrees) on the geodesic joining them."""
        return self.blocked_xy(*self.xy(lat0, lon0), *self.xy(lat1, lon1))

    def clear_sweep_xy(self, a0: tuple[float, float], a1: tuple[float, float],
                       b0: tuple[float, float], b1: tuple[float, float]) -> bool:
        """True if no land lies in the hull of four plane points: the ends of two straight runs, one by
        each observer. Every line of sight between a point of one run and a point of the other lies in
        it, so it is then clear all through the runs (a false answer proves nothing)."""
        hull = shapely.convex_hull(shapely.MultiPoint((a0, a1, b0, b1)))
        return not bool(shapely.intersects(self.land.xy, hull))
