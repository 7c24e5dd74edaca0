"""Light and weather as an observer meets them: what the sighting model asks of the world.

``WorldConditions`` joins the light (``campaign.world.light``: sun and moon at a place and time) and the
weather (``campaign.world.weather``: six-hour periods by region) behind the questions the sighting
model asks — the light and the visibility at a place and time, when, along a force's motion, either may
change, and what they are along it between two changes. ``ClearDay`` answers "always clear daylight",
for tests of geometry alone.

Along a motion (an immutable plan) the conditions change at three kinds of instant, each found once:

* the light's changes, found in stretches of :data:`STRETCH_MIN` laid from the motion's start, each
  sampled in one vectorised sweep of the track (``light.sample_along``) and each change solved where
  the samples differ, when first needed (``light.solve_bracket``). A stretch depends on nothing but the
  motion's geometry and the clock, so stretches are remembered across runs (:func:`_light_stretch`): a
  thousand replicates of a scenario whose forces keep their plans find each sunset once;
* the weather's period boundaries and script edges (the same for every force of a run);
* the times the track crosses from one weather region into another (a function of the route alone,
  remembered across runs as distances along it: :func:`_route_crossings_nm`).

Between two consecutive instants of these the light state and the visibility along the motion are
constant, and :meth:`WorldConditions.along` reads them once per interval.
"""

from __future__ import annotations

import bisect
import functools
import math
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

import numpy as np
import shapely

from campaign.clock import Clock
from campaign.geo.route import Route
from campaign.world.light import STATES
from campaign.world.motion import Motion

if TYPE_CHECKING:
    from campaign.world.weather import Weather
    from campaign.world.world import World


# The light along a motion is searched in stretches of this many minutes laid from the motion's start.
STRETCH_MIN = 360.0
# Spacing of the points that trace a route's geodesics when finding where it crosses a weather
# region's edge, nm (a straight line in lon/lat strays from a 5-nm geodesic by metres).
CROSSING_SPACING_NM = 5.0
# A degree of latitude is never shorter than this, nm (the meridian's radius of curvature is least at the
# equator: 59.705 nm there), so a track of length L strays at most L / this from an end's latitude.
NM_PER_DEG_LAT_MIN = 59.6
# A crossing found this near the start of a motion, nm, is where the force already is, not one it will
# make: the traced line finds a crossing to within metres, and a force that re-plans at the instant it
# crosses (a contact lost in the haze beyond) starts its new motion on the edge itself. Counted, such a
# crossing would give the new motion an instant of the region behind it, and the force the weather it
# has just left.
START_CROSSING_SLACK_NM = 0.01
# Slack for rounding in the corridor test (degrees): far above the error of a computed point, far below
# anything that matters.
CORRIDOR_SLACK_DEG = 1e-6
# Motions remembered by one run's conditions before the memo is cleared (a run has a few hundred).
MEMO_SIZE = 4096
# Light stretches and route crossings remembered across runs (pure functions of their arguments).
LIGHT_STRETCHES_KEPT = 16384
ROUTES_KEPT = 4096


class ClearDay:
    """Clear weather and daylight everywhere, always."""

    def light(self, lat: float, lon: float, t_min: float) -> str:
        return "day"

    def visibility(self, lat: float, lon: float, t_min: float) -> float:
        return 1.0

    def next_change(self, motion: Motion, t0: float, t1: float) -> float | None:
        return None


class LightStretch:
    """The light along a motion over one stretch, [start, start + :data:`STRETCH_MIN`]: sampled every
    ``light.SEARCH_STEP`` in one vectorised sweep when made; the changes between two samples that
    differ are solved when first needed (a motion that lives ten minutes needs none of its evening's).

    What it holds is a pure function of the clock's start, the motion's geometry and the stretch, so
    one object may serve every run that makes the same plan (:func:`_light_stretch`).
    """

    __slots__ = ("codes", "flips", "motion", "solved", "start", "step", "t0_utc", "times")

    def __init__(self, start_utc: datetime, motion: Motion, start_min: float) -> None:
        from campaign.world.light import SEARCH_STEP, sample_along

        self.motion, self.start = motion, start_min
        self.t0_utc = start_utc + timedelta(minutes=start_min)
        self.step = SEARCH_STEP.total_seconds() / 60.0
        xs, codes = sample_along(lambda xs: motion.positions(start_min + xs / 60.0), self.t0_utc,
                                 STRETCH_MIN * 60.0)
        self.times: list[float] = (start_min + xs / 60.0).tolist()
        self.codes: list[int] = codes.tolist()
        # The steps j whose two samples differ, ascending: the only ones that hold a change, so the
        # searches below leap from one to the next instead of walking every step.
        self.flips: list[int] = [j for j in range(len(self.codes) - 1) if self.codes[j] != self.codes[j + 1]]
        self.solved: dict[int, list[tuple[float, int]]] = {}

    def _bracket(self, t: float) -> int:
        """The step [times[j], times[j + 1]] that holds t (clamped to the stretch)."""
        return min(max(int((t - self.start) // self.step), 0), len(self.codes) - 2)

    def _changes(self, j: int) -> list[tuple[float, int]]:
        """(t_min, new state index) of every change between samples j and j + 1 (none if they agree)."""
        ch = self.solved.get(j)
        if ch is None:
            from campaign.world.light import solve_bracket

            codes, start = self.codes, self.start
            ch = []
            if codes[j] != codes[j + 1]:
                def where(x: float) -> tuple[float, float]:
                    # Afresh: this motion is kept across runs, and the probe remembers what it reads.
                    return self.motion.locate(start + x / 60.0)

                a, b = (self.times[j] - start) * 60.0, (self.times[j + 1] - start) * 60.0
                ch = [(start + x / 60.0, st) for x, st in
                      solve_bracket(where, self.t0_utc, a, b, codes[j], codes[j + 1])]
            self.solved[j] = ch
        return ch

    def state(self, t: float) -> tuple[int, float, float]:
        """(state index at t, from, to): the state, and a span of time around t (within this stretch)
        over which it holds. The span may fall short of the neighbouring changes when finding them
        would mean solving a step that nothing has asked about yet."""
        codes, times = self.codes, self.times
        j = self._bracket(t)
        state, lo, hi = codes[j], None, None
        for c, st in self._changes(j):
            if c > t:
                hi = c
                break
            state, lo = st, c
        flips = self.flips
        if lo is None:
            # After the last step before j whose samples differ (the stretch's start if none).
            i = bisect.bisect_left(flips, j)
            lo = times[flips[i - 1] + 1] if i > 0 else self.start
        if hi is None:
            # At the start of the first step after j whose samples differ (the stretch's end if none).
            i = bisect.bisect_right(flips, j)
            hi = times[flips[i]] if i < len(flips) else times[-1]
        return state, lo, hi

    def next_change(self, t: float, t1: float) -> float:
        """The first change after t and before t1 in this stretch (inf if none)."""
        flips, times = self.flips, self.times
        for i in range(bisect.bisect_left(flips, self._bracket(t)), len(flips)):
            j = flips[i]
            if times[j] >= t1:
                break
            for c, _ in self._changes(j):
                if c > t:
                    return c
        return math.inf


@functools.lru_cache(maxsize=LIGHT_STRETCHES_KEPT)
def _light_stretch(start_utc: datetime, motion: Motion, k: int) -> LightStretch:
    """The ``k``-th light stretch of ``motion`` (its geometry: ``Motion.geometry``), from t0 + k S with
    S = :data:`STRETCH_MIN`, kept across runs."""
    return LightStretch(start_utc, motion, motion.t0_min + k * STRETCH_MIN)


def _region_edges(regions: tuple[Any, ...]) -> tuple[Any, ...]:
    """The edges of the weather regions (lon/lat), prepared for the crossing test."""
    edges = tuple(r.geometry.boundary for r in regions)
    for e in edges:
        shapely.prepare(e)
    return edges


def _clear_of(route: Route, boundaries: tuple[Any, ...]) -> bool:
    """True if no point of ``route`` (as traced by :func:`_route_crossings_nm`) can meet any of the
    ``boundaries``: each leg lies in a box of its ends' longitudes (along a geodesic the longitude
    runs one way, by Clairaut's relation) and their latitudes widened by half its length (each point
    of it is within that of an end, and a path between two parallels is no shorter than the meridian
    between them). False where the argument does not hold (near a pole or the antimeridian).

    A few box tests instead of tracing the route: most routes keep within one region.
    """
    lats, lons, cum = route.lats, route.lons, route.cum_nm
    n = len(cum) - 1
    x0, y0, x1, y1 = np.empty(n), np.empty(n), np.empty(n), np.empty(n)
    for i in range(n):
        half = (cum[i + 1] - cum[i]) / 2.0 / NM_PER_DEG_LAT_MIN + CORRIDOR_SLACK_DEG
        x0[i] = min(lons[i], lons[i + 1]) - CORRIDOR_SLACK_DEG
        x1[i] = max(lons[i], lons[i + 1]) + CORRIDOR_SLACK_DEG
        y0[i] = min(lats[i], lats[i + 1]) - half
        y1[i] = max(lats[i], lats[i + 1]) + half
    if n < 1 or x0.min() < -179.0 or x1.max() > 179.0 or y0.min() < -80.0 or y1.max() > 80.0:
        return False
    edges = np.empty(len(boundaries), dtype=object)
    edges[:] = boundaries
    return not shapely.intersects(edges[:, None], shapely.box(x0, y0, x1, y1)[None, :]).any()


@functools.lru_cache(maxsize=ROUTES_KEPT)
def _route_crossings_nm(route: Route, boundaries: tuple[Any, ...]) -> tuple[float, ...]:
    """Distances along ``route``, nm, at which it crosses one of the region ``boundaries`` (shapely
    geometries in lon/lat), ascending. A pure function of the route and the regions."""
    # The geodesic legs, densified so that a straight line in lon/lat follows them to metres (points
    # every CROSSING_SPACING_NM or closer along each leg, all in one vectorised call).
    cum_legs = np.asarray(route.cum_nm)
    if len(cum_legs) < 2 or _clear_of(route, boundaries):
        return ()
    parts = []
    for i in range(len(cum_legs) - 1):
        n = max(2, math.ceil((cum_legs[i + 1] - cum_legs[i]) / CROSSING_SPACING_NM) + 1)
        parts.append(np.linspace(cum_legs[i], cum_legs[i + 1], n)[1 if parts else 0:])
    cum = np.concatenate(parts)
    lats, lons = route.latlons_at(cum)
    if len(lats) < 2:
        return ()
    line = shapely.LineString(np.column_stack([lons, lats]))
    seg_len = np.hypot(np.diff(lons), np.diff(lats))
    seg_cum = np.concatenate([[0.0], np.cumsum(seg_len)])
    out = []
    x0, y0, x1, y1 = line.bounds
    for boundary in boundaries:
        bx0, by0, bx1, by1 = boundary.bounds
        if bx0 > x1 or bx1 < x0 or by0 > y1 or by1 < y0:
            continue  # the boxes do not meet: no crossing
        if not shapely.intersects(line, boundary):
            continue  # the prepared test first: most routes cross few edges, and the intersection costs
        for pt in shapely.get_parts(line.intersection(boundary)):
            if pt.geom_type != "Point":
                continue
            out.append(float(np.interp(line.project(pt), seg_cum, cum)))
    return tuple(sorted(out))


class _Track:
    """What one run's conditions know along one motion: the light stretches fetched so far, the times
    it crosses from one weather region into another, the region between two crossings, and the last
    interval of constant conditions asked about."""

    __slots__ = ("crossings", "geometry", "last", "motion", "regions", "stretches")

    def __init__(self, motion: Motion, crossings: tuple[float, ...]) -> None:
        self.motion = motion
        self.geometry = motion.geometry
        self.stretches: dict[int, LightStretch] = {}
        self.crossings = crossings  # times, ascending
        self.regions: dict[int, tuple[str, float, float]] = {}  # crossing interval -> (region, lat, lon)
        self.last: tuple[float, float, tuple[str, float]] | None = None  # (from, to, (light, visibility))


class WorldConditions:
    """The real sun and moon, and the scenario's weather."""

    def __init__(self, clock: Clock, weather: Weather) -> None:
        from campaign.world.light import _ephem_date

        self.clock = clock
        self.weather = weather
        self._date0 = _ephem_date(clock.start_utc)  # ephem's date of t_min = 0
        # Period boundaries and script edges, t_min ascending: where the weather may change anywhere.
        w_changes = weather.changes(weather.first - weather.period, weather.last_end + weather.period)
        self._weather_t = [clock.t_min(t) for t in w_changes]
        self._boundaries = _region_edges(weather.params.regions)
        # id(motion) -> _Track (the motion is held, so its id cannot be reused while it is remembered).
        self._memo: dict[int, _Track] = {}
        self._visibility: dict[tuple[int, str], float] = {}  # (weather interval, region) -> factor

    # -- at a place ---------------------------------------------------------------------------------

    def light(self, lat: float, lon: float, t_min: float) -> str:
        from campaign.world.light import state_at_date

        return state_at_date(float(lat), float(lon), self._date0 + t_min / 1440.0)

    def visibility(self, lat: float, lon: float, t_min: float) -> float:
        from campaign.world.weather import visibility_factor

        return visibility_factor(self.weather.at(lat, lon, self.clock.utc(t_min)))

    def _visibility_in(self, region: str, t_min: float) -> float:
        """``visibility`` in the region named ``region`` (the one ``visibility`` finds at the point)."""
        from campaign.world.weather import visibility_factor

        return visibility_factor(self.weather.in_region(region, self.clock.utc(t_min)))

    # -- along a motion -----------------------------------------------------------------------------

    def _track(self, motion: Motion) -> _Track:
        tr = self._memo.get(id(motion))
        if tr is None or tr.motion is not motion:
            if len(self._memo) > MEMO_SIZE:
                self._memo.clear()
            tr = self._memo[id(motion)] = _Track(motion, self._crossings(motion))
        return tr

    def _stretch(self, tr: _Track, k: int) -> LightStretch:
        s = tr.stretches.get(k)
        if s is None:
            s = tr.stretches[k] = _light_stretch(self.clock.start_utc, tr.geometry, k)
        return s

    def _next_light(self, tr: _Track, t0: float, t1: float) -> float:
        """The first light change along the track after t0, or inf if none before t1."""
        start = tr.motion.t0_min
        k = math.floor((t0 - start) / STRETCH_MIN)
        while start + k * STRETCH_MIN < t1:
            c = self._stretch(tr, k).next_change(t0, t1)
            if c < math.inf:
                return c
            k += 1
        return math.inf

    def next_change(self, motion: Motion, t0: float, t1: float) -> float | None:
        """The first time in (t0, t1) where the light or the weather at a force on ``motion`` may change.

        The changes along a motion are found once and kept (a motion is an immutable plan): the
        sighting model asks about the same motion window after window.
        """
        if t1 <= t0:
            return None
        tr = self._track(motion)
        best = self._next_light(tr, t0, t1)
        for times in (self._weather_t, tr.crossings):
            i = bisect.bisect_right(times, t0)
            if i < len(times) and times[i] < best:
                best = times[i]
        return best if best < t1 else None

    def along(self, motion: Motion, t_min: float) -> tuple[str, float]:
        """(light state, visibility factor) met by a force on ``motion`` at ``t_min``: those of the
        interval between two of the motion's changes (``next_change``) that holds ``t_min``. The light
        is the state the change search found; the visibility is read once per interval, at its middle
        (so that the tolerance of a crossing time never decides it)."""
        tr = self._track(motion)
        last = tr.last
        if last is not None and last[0] <= t_min < last[1]:
            return last[2]
        start = motion.t0_min
        code, lo, hi = self._stretch(tr, math.floor((t_min - start) / STRETCH_MIN)).state(t_min)
        light = STATES[code]
        w, c = self._weather_t, tr.crossings
        iw, ic = bisect.bisect_right(w, t_min), bisect.bisect_right(c, t_min)
        c_lo = c[ic - 1] if ic > 0 else -math.inf
        c_hi = c[ic] if ic < len(c) else math.inf
        where = tr.regions.get(ic)
        if where is None:
            # The region is the same all along the stretch between two crossings: read it inside.
            a = c_lo if ic > 0 else start
            b = c_hi if ic < len(c) else max(a, motion.end_min) + 1.0
            lat, lon = motion.position((a + b) / 2.0)
            where = tr.regions[ic] = (self.weather.params.region_at(lat, lon).name, lat, lon)
        region, lat, lon = where
        w_lo = w[iw - 1] if iw > 0 else -math.inf
        w_hi = w[iw] if iw < len(w) else math.inf
        vis = self._visibility.get((iw, region))
        if vis is None:
            # One weather for a region all through a period: read it at the period's middle.
            mid = (w_lo + w_hi) / 2.0 if math.isfinite(w_lo) and math.isfinite(w_hi) else t_min
            # The region is the one found at (lat, lon) above: not looked up again.
            vis = self._visibility[(iw, region)] = self._visibility_in(region, mid)
        out = (light, vis)
        tr.last = (max(lo, w_lo, c_lo), min(hi, w_hi, c_hi), out)
        return out

    def _crossings(self, motion: Motion) -> tuple[float, ...]:
        """Times at which a force on ``motion`` crosses from one weather region into another."""
        if motion.route is None or motion.speed_kn <= 0:
            return ()
        dists = _route_crossings_nm(motion.route, self._boundaries)
        start = motion.offset_nm + START_CROSSING_SLACK_NM
        return tuple(sorted(motion.t0_min + (d - motion.offset_nm) / motion.speed_kn * 60.0
                            for d in dists if d > start))


def default_conditions(world: World) -> WorldConditions:
    return WorldConditions(world.clock, world.weather)
