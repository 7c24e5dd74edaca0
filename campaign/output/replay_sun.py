"""The sun for the replay: where it stands overhead, and whether a place is in day, twilight or night.

The replay shades night over the map frame by frame. For each frame Python gives the page the sub-solar
point (the latitude and longitude where the sun is in the zenith); the page then needs only spherical
trigonometry to get the sun's altitude anywhere on the map:

    sin(alt) = sin(lat) sin(dec) + cos(lat) cos(dec) cos(lon - lon_sun)

the geometric altitude of the sun's centre (no refraction). The astronomy and the thresholds are the
strategic world's (``campaign.world.light`` and ``data/light.yaml``): this module only adapts them to
the replay, so the night the page draws is the night the ships see, and both are checked against 1914
sunrise and twilight times computed with PyEphem (tests/world/test_light.py, tests/output/test_replay.py).

Phases (:data:`PHASES`): ``night`` when the sun is below civil twilight (-6 deg), ``twilight`` from there
to the sunrise altitude (-0.833 deg: 34' refraction plus 16' semi-diameter), ``day`` above. The replay
shades by the sun only; moonlit and dark nights are the light module's.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime

import numpy as np

from campaign.world.light import (
    SUN_STATES,
    default_light_rules,
    subsolar_point,
    sun_altitude_deg,
    sun_state_code,
)
from campaign.world.light import altitude_from_subpoint as altitude_from_subsolar

__all__ = ["CIVIL_TWILIGHT_DEG", "PHASES", "SUNRISE_ALT_DEG", "altitude_from_subsolar", "light_phase",
           "subsolar_point", "subsolar_points", "sun_altitude_deg"]

CIVIL_TWILIGHT_DEG = default_light_rules().civil_twilight_alt_deg
SUNRISE_ALT_DEG = default_light_rules().sunrise_alt_deg
PHASES = SUN_STATES


def subsolar_points(times: Iterable[datetime]) -> tuple[np.ndarray, np.ndarray]:
    """Sub-solar latitudes and longitudes (degrees) for many timezone-aware UTC times."""
    pts = [subsolar_point(t) for t in times]
    if not pts:
        return np.zeros(0), np.zeros(0)
    arr = np.asarray(pts, dtype=float)
    return arr[:, 0], arr[:, 1]


def light_phase(alt_deg: float) -> str:
    """"day", "twilight" (sun between civil twilight and the sunrise altitude) or "night"."""
    return PHASES[int(sun_state_code(alt_deg))]
