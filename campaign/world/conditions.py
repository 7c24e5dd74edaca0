"""Light and weather as an observer meets them: what the sighting model asks of the world.

``WorldConditions`` joins the light (``campaign.world.light``: sun and moon at a place and time) and the
weather (``campaign.world.weather``: six-hour periods by region) behind the three questions the sighting
model asks — the light and the visibility at a place and time, and when, along a force's motion,
either may change. ``ClearDay`` answers "always clear daylight", for tests of geometry alone.
"""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING

import numpy as np
import shapely

from campaign.geo import earth
from campaign.world.clock import Clock
from campaign.world.motion import Motion

if TYPE_CHECKING:
    from campaign.world.weather import Weather
    from campaign.world.world import World


# How far ahead the changes along a motion are searched at a time, minutes, and how many motions'
# changes are remembered (a run has a few hundred).
EXTEND_MIN = 360.0
# Spacing of the points that trace a route's geodesics when finding where it crosses a weather
# region's edge, nm (a straight line in lon/lat strays from a 5-nm geodesic by metres).
CROSSING_SPACING_NM = 5.0
MEMO_SIZE = 4096


class ClearDay:
    """Clear weather and daylight everywhere, always."""

    def light(self, lat: float, lon: float, t_min: float) -> str:
        return "day"

    def visibility(self, lat: float, lon: float, t_min: float) -> float:
        return 1.0

    def next_change(self, motion: Motion, t0: float, t1: float) -> float | None:
        return None


class WorldConditions:
    """The real sun and moon, and the scenario's weather."""

    def __init__(self, clock: Clock, weather: "Weather") -> None:
        self.clock = clock
        self.weather = weather
        # id(motion) -> (motion, change times found so far, time searched to): see next_change.
        self._memo: dict = {}

    def light(self, lat: float, lon: float, t_min: float) -> str:
        from campaign.world.light import light_at

        return light_at(lat, lon, self.clock.utc(t_min)).state

    def visibility(self, lat: float, lon: float, t_min: float) -> float:
        from campaign.world.weather import visibility_factor

        return visibility_factor(self.weather.at(lat, lon, self.clock.utc(t_min)))

    def next_change(self, motion: Motion, t0: float, t1: float) -> float | None:
        """The first time in (t0, t1) where the light or the weather at a force on ``motion`` may change.

        The changes along a motion are found once, forward from its start, and kept (a motion is an
        immutable plan): the sighting model asks about the same motion window after window.
        """
        if t1 <= t0:
            return None
        memo = self._memo.get(id(motion))
        if memo is None or memo[0] is not motion:
            if len(self._memo) > MEMO_SIZE:
                self._memo.clear()
            memo = (motion, [], [max(motion.t0_min, 0.0)])
            self._memo[id(motion)] = memo
        _, times, done = memo
        while True:
            later = [x for x in times if x > t0]
            if later and later[0] < t1:
                return later[0]
            if done[0] >= t1:
                return None
            # Extend the list by one stretch: up to the next change found, or a day further on.
            a = max(done[0], t0) if not times else done[0]
            b = max(t1, a + EXTEND_MIN)
            nxt = self._first_change(motion, a, b)
            if nxt is None:
                done[0] = b
            else:
                times.append(nxt)
                done[0] = nxt

    def _first_change(self, motion: Motion, t0: float, t1: float) -> float | None:
        from campaign.world.light import next_change_along

        start, end = self.clock.utc(t0), self.clock.utc(t1)

        def where(when: datetime) -> tuple[float, float]:
            return motion.position(self.clock.t_min(when))

        found = []
        light = next_change_along(where, start, end)
        if light is not None:
            found.append(self.clock.t_min(light))
        # Weather changes at six-hour boundaries and script edges, and where the track crosses into
        # another region: look no further than the light's next change (or the window's end).
        horizon = min(found + [t1])
        found += [self.clock.t_min(w) for w in self.weather.changes(start, self.clock.utc(horizon))]
        found += self._crossings(motion)
        inside = [x for x in found if t0 < x < t1]
        return min(inside) if inside else None

    def _crossings(self, motion: Motion) -> list[float]:
        """Times at which a force on ``motion`` crosses from one weather region into another."""
        if motion.route is None or motion.speed_kn <= 0:
            return []
        key = ("crossings", id(motion))
        hit = self._memo.get(key)
        if hit is not None and hit[0] is motion:
            return hit[1]
        # The geodesic legs, densified so that a straight line in lon/lat follows them to metres.
        parts: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []
        route = motion.route
        for i in range(len(route.lats) - 1):
            la, lo = earth.points_along(route.lats[i], route.lons[i], route.lats[i + 1], route.lons[i + 1],
                                        spacing_nm=CROSSING_SPACING_NM)
            d = np.linspace(route.cum_nm[i], route.cum_nm[i + 1], len(la))
            k = 1 if parts else 0  # each leg starts where the last ended
            parts.append((la[k:], lo[k:], d[k:]))
        lats, lons, cum = (np.concatenate([p[j] for p in parts]) for j in range(3))
        line = shapely.LineString(np.column_stack([lons, lats]))
        seg_len = np.hypot(np.diff(lons), np.diff(lats))
        seg_cum = np.concatenate([[0.0], np.cumsum(seg_len)])
        times = []
        for region in self.weather.params.regions:
            hits = shapely.get_parts(line.intersection(region.geometry.boundary))
            for pt in hits:
                if pt.geom_type != "Point":
                    continue
                s_deg = line.project(pt)
                d_nm = float(np.interp(s_deg, seg_cum, cum))
                times.append(motion.t0_min + (d_nm - motion.offset_nm) / motion.speed_kn * 60.0)
        out = sorted(t for t in times if t >= motion.t0_min)
        self._memo[key] = (motion, out)
        return out


def default_conditions(world: "World") -> WorldConditions:
    return WorldConditions(world.clock, world.weather)
