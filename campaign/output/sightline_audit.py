"""The audit of lines of sight: every ``sighting`` record whose observer saw across land.

From the records alone: a sighting record stands where the observer's force was and gives the range
and true bearing of the target, so the target stood at the far end of that geodesic. The line is walked
in steps of ``STEP_NM`` and each point tested against the charts' land (``Land.is_land``), but for the
``END_MARGIN_NM`` at either end that the model's own test leaves out (``campaign.geo.sightline``):
written apart from the model's plane segments, so that it checks them rather than repeats them. A line
that goes no deeper than ``LAND_TOLERANCE_NM`` into the land grazes a shore, within what the records'
rounding (bearings to a tenth of a degree) and the plane's straightening of the geodesic can move it: a
contact that opens past a headland is seen along a line that just clears it, and the length of land on a
line so nearly tangent to the shore swings with a metre's shift, its depth does not.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
import shapely

from campaign.geo import earth
from campaign.geo.land import default_land
from campaign.geo.sightline import END_MARGIN_NM

# The step (nm) the audit walks a line of sight in: a tenth of a cable, finer than the land's drawing.
STEP_NM = 0.02
# A line no deeper than this into the land (nm) grazes it (see the module's docstring).
LAND_TOLERANCE_NM = 0.05


@dataclass(frozen=True)
class Crossing:
    """A sighting across land: who saw whom when, from how far, and how much land lay between (nm)."""

    t: str
    observer: str
    target: str
    level: str
    range_nm: float
    land_nm: float
    depth_nm: float

    def line(self) -> str:
        return (f"{self.t}: {self.observer} saw {self.target} ({self.level}) at {self.range_nm:g} nm "
                f"across {self.land_nm:.2f} nm of land, {self.depth_nm:.2f} nm deep")


def _walk(lat: float, lon: float, bearing_deg: float, range_nm: float) -> tuple[np.ndarray, np.ndarray]:
    """Points (lats, lons) every ``STEP_NM`` along the geodesic, its first and last ``END_MARGIN_NM`` apart."""
    d = np.arange(END_MARGIN_NM, range_nm - END_MARGIN_NM + 1e-12, STEP_NM)
    lats, lons = earth.forward(np.full(d.shape, lat), np.full(d.shape, lon), np.full(d.shape, bearing_deg), d)
    return np.atleast_1d(lats), np.atleast_1d(lons)


def land_on_line_nm(lat: float, lon: float, bearing_deg: float, range_nm: float) -> float:
    """How much of the geodesic from (lat, lon) on ``bearing_deg`` for ``range_nm`` lies on land (nm,
    in steps of ``STEP_NM``), its first and last ``END_MARGIN_NM`` apart."""
    if range_nm <= 2.0 * END_MARGIN_NM:
        return 0.0
    lats, lons = _walk(lat, lon, bearing_deg, range_nm)
    return float(np.count_nonzero(default_land().is_land(lats, lons)) * STEP_NM)


def depth_in_land_nm(lat: float, lon: float, bearing_deg: float, range_nm: float) -> float:
    """How far (nm) the same line goes into the land at its deepest: the greatest distance from a point of
    it on land to the shore (plane metres, within the plane's few per cent of true ones); 0 on none."""
    if range_nm <= 2.0 * END_MARGIN_NM:
        return 0.0
    land = default_land()
    lats, lons = _walk(lat, lon, bearing_deg, range_nm)
    on = land.is_land(lats, lons)
    if not on.any():
        return 0.0
    x, y = land.plane.to_xy(lats[on], lons[on])
    pts = shapely.points(np.atleast_1d(x), np.atleast_1d(y))
    deepest = 0.0
    for p in pts:
        part = land.parts_xy[int(land.tree.query(p, predicate="intersects")[0])]
        deepest = max(deepest, float(shapely.distance(part.boundary, p)))
    return deepest / earth.M_PER_NM


def audit_sightlines(events: Iterable[Mapping[str, Any]]) -> list[Crossing]:
    """Every sighting of the records (JSON form) whose line of sight crosses land, in record order."""
    out = []
    for r in events:
        if r.get("type") != "sighting" or r.get("range_nm") is None or r.get("bearing_deg") is None:
            continue
        line = (float(r["lat"]), float(r["lon"]), float(r["bearing_deg"]), float(r["range_nm"]))
        depth = depth_in_land_nm(*line)
        if depth >= LAND_TOLERANCE_NM:
            out.append(Crossing(str(r["t"]), str(r["observer"]), str(r["target"]), str(r.get("level")),
                                float(r["range_nm"]), land_on_line_nm(*line), depth))
    return out
