"""Positions along a route at many distances at once (vectorised geodesics)."""

from __future__ import annotations

import numpy as np

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
