"""Light and weather as an observer meets them: what the sighting model asks of the world.

``WorldConditions`` joins the light (``campaign.world.light``: sun and moon at a place and time) and the
weather (``campaign.world.weather``: six-hour periods by region) behind the three questions the sighting
model asks — the light and the visibility at a place and time, and when, along a force's motion,
either may change. ``ClearDay`` answers "always clear daylight", for tests of geometry alone.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from campaign.world.clock import Clock
from campaign.world.motion import Motion

if TYPE_CHECKING:
    from campaign.world.weather import Weather
    from campaign.world.world import World


class ClearDay:
    """Clear weather and daylight everywhere, always."""

    def light(self, lat: float, lon: float, t_min: float) -> str:
        return "day"

    def visibility(self, lat: float, lon: float, t_min: float) -> float:
        return 1.0

    def changes(self, motion: Motion, t0: float, t1: float) -> list[float]:
        return []


class WorldConditions:
    """The real sun and moon, and the scenario's weather."""

    def __init__(self, clock: Clock, weather: "Weather") -> None:
        self.clock = clock
        self.weather = weather

    def light(self, lat: float, lon: float, t_min: float) -> str:
        from campaign.world.light import light_at

        return light_at(lat, lon, self.clock.utc(t_min)).state

    def visibility(self, lat: float, lon: float, t_min: float) -> float:
        from campaign.world.weather import visibility_factor

        return visibility_factor(self.weather.at(lat, lon, self.clock.utc(t_min)))

    def changes(self, motion: Motion, t0: float, t1: float) -> list[float]:
        """Times in (t0, t1) where the light or the weather at a force on ``motion`` may change."""
        from campaign.world.light import next_change_along

        out: list[float] = []
        start, end = self.clock.utc(t0), self.clock.utc(t1)

        def where(when: datetime) -> tuple[float, float]:
            return motion.position(self.clock.t_min(when))

        t = start
        while True:
            nxt = next_change_along(where, t, end)
            if nxt is None:
                break
            out.append(self.clock.t_min(nxt))
            t = nxt + timedelta(seconds=1)
        out += [self.clock.t_min(w) for w in self.weather.changes(start, end)]
        return sorted(x for x in out if t0 < x < t1)


def default_conditions(world: "World") -> WorldConditions | ClearDay:
    weather = getattr(world, "weather", None)
    return ClearDay() if weather is None else WorldConditions(world.clock, weather)
