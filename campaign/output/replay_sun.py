"""The sun for the replay: where it stands overhead, and whether a place is in day, twilight or night.

The replay shades night over the map frame by frame. Python computes, with ``ephem`` (offline, 1914 is
well inside its range), the sub-solar point for each frame: the latitude (the sun's declination) and
longitude where the sun is in the zenith. The page then needs only spherical trigonometry to get the
sun's altitude anywhere on the map:

    sin(alt) = sin(lat) sin(dec) + cos(lat) cos(dec) cos(lon - lon_sun)

which is the geometric altitude of the sun's centre (no refraction). :func:`sun_altitude_deg` is the
same formula in numpy, so the night the page draws is the night the tests check against 1914 sunrise
times (research notes.md, Appendix A; standard sunrise is the centre at -0.833 deg: 34' refraction
plus 16' semi-diameter).

Phases: ``night`` when the sun is below -6 deg (the end of civil twilight: the horizon fades and a
ship is a shape against the sky, not a silhouette), ``twilight`` from -6 deg to sunrise/sunset
(-0.833 deg), ``day`` above.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from datetime import UTC, datetime

import ephem
import numpy as np
import numpy.typing as npt

CIVIL_TWILIGHT_DEG = -6.0
SUNRISE_ALT_DEG = -0.833  # centre of the sun at sunrise/sunset with standard refraction and semi-diameter
PHASES = ("day", "twilight", "night")


def _ephem_date(when: datetime) -> ephem.Date:
    if when.tzinfo is not None:
        when = when.astimezone(UTC).replace(tzinfo=None)
    return ephem.Date(when)


def subsolar_point(when: datetime) -> tuple[float, float]:
    """(lat, lon) in degrees of the point where the sun is in the zenith at ``when`` (UTC).

    Latitude is the sun's apparent geocentric declination; longitude is its right ascension less
    Greenwich apparent sidereal time, wrapped to [-180, 180).
    """
    greenwich = ephem.Observer()
    greenwich.lat, greenwich.lon, greenwich.elevation = "0", "0", 0.0
    greenwich.pressure = 0.0
    greenwich.date = _ephem_date(when)
    sun = ephem.Sun(greenwich)
    gst = float(greenwich.sidereal_time())
    lon = math.degrees(float(sun.g_ra) - gst)
    lon = (lon + 180.0) % 360.0 - 180.0
    return math.degrees(float(sun.g_dec)), lon


def subsolar_points(times: Iterable[datetime]) -> tuple[np.ndarray, np.ndarray]:
    """Sub-solar latitudes and longitudes (degrees) for many UTC times."""
    pts = [subsolar_point(t) for t in times]
    if not pts:
        return np.zeros(0), np.zeros(0)
    arr = np.asarray(pts, dtype=float)
    return arr[:, 0], arr[:, 1]


def altitude_from_subsolar(lat: npt.ArrayLike, lon: npt.ArrayLike, sub_lat: npt.ArrayLike,
                           sub_lon: npt.ArrayLike) -> np.ndarray:
    """Geometric altitude of the sun's centre, degrees, at (lat, lon) given the sub-solar point."""
    la, lo = np.radians(np.asarray(lat, float)), np.radians(np.asarray(lon, float))
    sla, slo = np.radians(np.asarray(sub_lat, float)), np.radians(np.asarray(sub_lon, float))
    s = np.sin(la) * np.sin(sla) + np.cos(la) * np.cos(sla) * np.cos(lo - slo)
    return np.degrees(np.arcsin(np.clip(s, -1.0, 1.0)))


def sun_altitude_deg(lat: float, lon: float, when: datetime) -> float:
    """Geometric altitude of the sun's centre in degrees at a place (degrees) and UTC time."""
    sub_lat, sub_lon = subsolar_point(when)
    return float(altitude_from_subsolar(lat, lon, sub_lat, sub_lon))


def light_phase(alt_deg: float) -> str:
    """"day", "twilight" (sun between -6 deg and sunrise altitude) or "night" (below -6 deg)."""
    if alt_deg < CIVIL_TWILIGHT_DEG:
        return "night"
    if alt_deg < SUNRISE_ALT_DEG:
        return "twilight"
    return "day"
