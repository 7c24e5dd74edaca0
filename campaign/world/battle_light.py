"""Where the light comes from in a battle: the sun's azimuth and altitude at the fight, minute by minute.

The world already knows the light at a place and time from the real sun and moon
(``campaign.world.light``); a battle's ``Setting`` also carries its direction
(``campaign.tactics.protocol.LightDirection``): the sun's true azimuth and geometric altitude at the
centre of the fight, and in twilight how far a ship is seen against the bright and the dark part of the
sky (``data/sighting.yaml``, ``twilight_by_direction``). Both the duels (``campaign.duels.duel``) and
the campaign's engagements (``campaign.world.engagement``) build it here, so they agree.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from campaign.datafile import load_yaml
from campaign.tactics.kinematics import YD_PER_NM
from campaign.tactics.protocol import LightDirection
from campaign.world.light import sun_position_deg
from campaign.world.sighting import SIGHTING_FILE

TWILIGHT = "twilight"  # the world's state (campaign.world.light.STATES) in which the sky splits


@dataclass(frozen=True)
class TwilightSky:
    """``twilight_by_direction`` of ``data/sighting.yaml``: the bright half-angle about the sun's azimuth
    and the world's light states whose hull ranges apply against the bright and the dark sky."""

    bright_half_angle_deg: float
    bright: str
    dark: str

    @classmethod
    def load(cls, path: Path = SIGHTING_FILE) -> TwilightSky:
        raw = load_yaml(path.read_text())["twilight_by_direction"]
        return cls(float(raw["bright_half_angle_deg"]), str(raw["bright"]), str(raw["dark"]))


@functools.cache
def default_twilight_sky() -> TwilightSky:
    return TwilightSky.load()


def light_direction(lat: float, lon: float, when: datetime, world_light: str,
                    hull_nm: Callable[[str], float], sky: TwilightSky | None = None) -> LightDirection:
    """The light's direction at (lat, lon) at ``when`` (UTC): the sun's position from ephem; in twilight
    (``world_light``, one of the world's states) the bright and dark sky's ranges, ``hull_nm(state)``
    being how far the battle's ships are seen in a world light state (nm; the caller's sighting rule)."""
    sky = sky or default_twilight_sky()
    azimuth_deg, altitude_deg = sun_position_deg(lat, lon, when)
    if world_light != TWILIGHT:
        return LightDirection(azimuth_deg, altitude_deg, sky.bright_half_angle_deg)
    return LightDirection(azimuth_deg, altitude_deg, sky.bright_half_angle_deg,
                          hull_nm(sky.bright) * YD_PER_NM, hull_nm(sky.dark) * YD_PER_NM)
