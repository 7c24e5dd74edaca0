"""Geodesy on the WGS84 ellipsoid, with pyproj's ``Geod``.

Every function takes scalars or arrays (broadcast together, as numpy does) and returns the same
kind: a float for scalar inputs, an ndarray otherwise. Latitudes and longitudes are decimal degrees
(north and east positive); distances are nautical miles (1 nm = 1,852 m exactly, by the 1929
International Hydrographic Conference); bearings are degrees clockwise from true north in [0, 360).
"""

from __future__ import annotations

from typing import overload

import numpy as np
import numpy.typing as npt
from pyproj import Geod

M_PER_NM = 1852.0
YD_PER_NM = M_PER_NM / 0.9144

# pyproj's Geod is immutable and thread-safe; one shared instance is not mutable module state.
WGS84 = Geod(ellps="WGS84")

ArrayLike = float | npt.ArrayLike


def _out(x: np.ndarray, scalar: bool) -> float | np.ndarray:
    return float(np.asarray(x).reshape(-1)[0]) if scalar else np.asarray(x)


def _scalars(*args: ArrayLike) -> bool:
    """Are all the arguments plain Python floats (or numpy's float64, a float)? Then pyproj's scalar call
    serves, with no arrays: the same geodesic computation, for the hot paths (doctrine, the picture)."""
    return all(isinstance(a, float) for a in args)


def _prep(*args: ArrayLike) -> tuple[list[np.ndarray], bool]:
    scalar = all(np.ndim(a) == 0 for a in args)
    arrays = np.broadcast_arrays(*[np.atleast_1d(np.asarray(a, dtype=float)) for a in args])
    return [np.ascontiguousarray(a) for a in arrays], scalar


@overload
def distance_nm(lat1: float, lon1: float, lat2: float, lon2: float) -> float: ...
@overload
def distance_nm(lat1: ArrayLike, lon1: ArrayLike, lat2: ArrayLike, lon2: ArrayLike) -> np.ndarray: ...
def distance_nm(lat1, lon1, lat2, lon2):
    """Geodesic distance in nautical miles between two points (WGS84)."""
    if type(lat1) is float and type(lon1) is float and type(lat2) is float and type(lon2) is float:
        # The simulation's hot path (sighting): pyproj's own scalar call, no arrays.
        return WGS84.inv(lon1, lat1, lon2, lat2)[2] / M_PER_NM
    (a, b, c, d), scalar = _prep(lat1, lon1, lat2, lon2)
    _, _, dist_m = WGS84.inv(b, a, d, c)
    return _out(np.asarray(dist_m) / M_PER_NM, scalar)


def bearing_deg(lat1: ArrayLike, lon1: ArrayLike, lat2: ArrayLike, lon2: ArrayLike) -> float | np.ndarray:
    """Initial true bearing in degrees [0, 360) of the geodesic from point 1 to point 2."""
    if _scalars(lat1, lon1, lat2, lon2):
        return WGS84.inv(lon1, lat1, lon2, lat2)[0] % 360.0
    (a, b, c, d), scalar = _prep(lat1, lon1, lat2, lon2)
    az, _, _ = WGS84.inv(b, a, d, c)
    return _out(np.mod(np.asarray(az), 360.0), scalar)


def inverse(
    lat1: ArrayLike, lon1: ArrayLike, lat2: ArrayLike, lon2: ArrayLike
) -> tuple[float | np.ndarray, float | np.ndarray]:
    """(initial bearing in degrees [0, 360), distance in nm) from point 1 to point 2, in one call."""
    if _scalars(lat1, lon1, lat2, lon2):
        az, _, dist_m = WGS84.inv(lon1, lat1, lon2, lat2)
        return az % 360.0, dist_m / M_PER_NM
    (a, b, c, d), scalar = _prep(lat1, lon1, lat2, lon2)
    az, _, dist_m = WGS84.inv(b, a, d, c)
    return _out(np.mod(np.asarray(az), 360.0), scalar), _out(np.asarray(dist_m) / M_PER_NM, scalar)


def forward(
    lat: ArrayLike, lon: ArrayLike, bearing: ArrayLike, dist_nm: ArrayLike
) -> tuple[float | np.ndarray, float | np.ndarray]:
    """(lat, lon) reached from a point after ``dist_nm`` along the geodesic with initial ``bearing``."""
    if _scalars(lat, lon, bearing, dist_nm):
        lon2, lat2, _ = WGS84.fwd(lon, lat, bearing, dist_nm * M_PER_NM)
        return lat2, lon2
    (a, b, c, d), scalar = _prep(lat, lon, bearing, dist_nm)
    lon2, lat2, _ = WGS84.fwd(b, a, c, d * M_PER_NM)
    return _out(np.asarray(lat2), scalar), _out(np.asarray(lon2), scalar)


def points_along(
    lat1: float, lon1: float, lat2: float, lon2: float, *, n: int | None = None, spacing_nm: float | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """Points along the geodesic from point 1 to point 2, both ends included.

    Give either ``n`` (total number of points, at least 2) or ``spacing_nm`` (the largest gap
    allowed between consecutive points). Returns (lats, lons) arrays.
    """
    if (n is None) == (spacing_nm is None):
        raise ValueError("give exactly one of n or spacing_nm")
    if n is None:
        if spacing_nm is None or spacing_nm <= 0:
            raise ValueError("spacing_nm must be positive")
        d = distance_nm(lat1, lon1, lat2, lon2)
        n = max(2, int(np.ceil(d / spacing_nm)) + 1)
    if n < 2:
        raise ValueError("n must be at least 2")
    inner = WGS84.npts(lon1, lat1, lon2, lat2, n - 2) if n > 2 else []
    lons = np.array([lon1] + [p[0] for p in inner] + [lon2], dtype=float)
    lats = np.array([lat1] + [p[1] for p in inner] + [lat2], dtype=float)
    return lats, lons


def path_length_nm(lats: npt.ArrayLike, lons: npt.ArrayLike) -> float:
    """Length in nm of the polyline of geodesic segments through the given points."""
    la = np.asarray(lats, dtype=float)
    lo = np.asarray(lons, dtype=float)
    if la.size < 2:
        return 0.0
    return float(np.sum(distance_nm(la[:-1], lo[:-1], la[1:], lo[1:])))
