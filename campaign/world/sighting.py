"""Sighting: who sees whom, and when, predicted from the forces' legs and scheduled — never polled.

For every ordered pair of hostile forces (observer, target) the model keeps a contact state (not in
sight; smoke; ships; recognised) and the time of the next change of that state, found exactly:

* Between *breakpoints* — a waypoint passed or a leg ended by either force, or a change of the light
  or the weather at the observer — both forces steam along single geodesics at constant speed (or lie
  still) and the sighting ranges are constant. The distance between them is then, to well within a
  yard, a convex function of time (the norm of an affine function in the gnomonic plane), so the first
  time it falls below a range is found by minimising it over the window and bisecting (Brent) before
  the minimum, and the first time it rises above a range by bisecting between the window's ends. Where
  both lie still the distance is constant and only the breakpoints of the light and weather are walked.
* Out of sight, the pair is screened first: two paths farther apart than the longest range of all
  (one vectorised shapely test per motion change, against every other force's path) are skipped; the
  rest are sampled on a shared 30-minute grid (each motion's grid is computed once and kept, its
  points Earth-centred so that chords, never longer than the geodesics, bound the distance from
  below), and only the steps where the forces could close, at their combined speed, to the farthest
  this target can be seen in any light are searched exactly.

A prediction is made when a force's motion changes (a leg starts, ends or changes speed) and
scheduled as a SimPy timeout. SimPy cannot cancel a timeout, so each carries the versions of the two
motions it was made from, and a stale one does nothing when it fires. Most predictions go stale before
they fire (a commander re-plans within the hour), so a prediction searches only :data:`HORIZON_MIN`
ahead at a time: if it finds no change by then it pauses at the first window (or screening step) that
starts at or beyond the horizon, and a timeout picks the search up there if the motions still hold.
The search windows and steps are the ones a single search would have used, so the times found are
the same; what a re-plan makes stale was never searched.

Ranges come from ``data/sighting.yaml``: Jane's ranges by light for a capital ship, smoke by day
(1905 rules, Table I), a size factor, recognition nearer than first sight, and Jane's even chance of
not sighting until 500 yards nearer, thrown once per approach. Each pair throws its own dice, from a
stream seeded by the run's "sighting" generator and the pair's names: when the search happens to need
a throw (which depends on how it searches) never changes which approach gets which (and a change to
one force's plans does not reshuffle the dice of pairs it is not in: DESIGN.md principle 5).
Detection and recognition are distinct, and each side sights the other independently.
"""

from __future__ import annotations

import functools
import math
import zlib
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Protocol

import numpy as np
import shapely
from scipy.optimize import brentq

from campaign.datafile import load_yaml
from campaign.geo import earth
from campaign.geo.seagraph import PLANE_STRETCH_MAX
from campaign.geo.sightline import SightLines
from campaign.model.ships import Ship
from campaign.paths import DATA_DIR
from campaign.world.motion import Motion, bearing_deg, chord_floor_nm, distance_nm, ecef_point

SIGHTING_FILE = DATA_DIR / "sighting.yaml"
LIGHTS = ("day", "twilight", "moonlit_night", "dark_night")
LEVELS = ("none", "smoke", "ships", "recognised")

# Times are solved to this tolerance, minutes (0.06 s): far below any record's resolution.
T_TOL_MIN = 1e-3
# Forces out of sight of each other are screened at this step, minutes: the search then looks
# exactly only where, at their combined speed, they could have come within sight between two steps.
SCREEN_STEP_MIN = 30.0
# A crossing is taken this far beyond its range, nm (20 cm), so that the level read just after an
# event is the new one and rounding cannot make a contact flicker.
HYSTERESIS_NM = 1e-4
# A prediction searches this far ahead, minutes, before it pauses (see the module's docstring). In the
# historical campaign four in five of the predictions made for forces in sight of each other go stale
# before they fire (a re-plan within the hour is usual): searching days ahead is nearly always wasted.
# Any horizon finds the same changes. Less than a commander's half-hourly look is cheapest: a shadower
# steers for a station he reaches just after his next look (``doctrine.shadow``), and a search that
# pauses before that leg's end never works out when the contact would fade were he to stop there.
# Counted in machine instructions (callgrind, which the machine's load does not disturb), a replicate
# cost about 5 % less at 20 minutes than at 240 (seeds 1 and 2 and a busy one); 10 and 25 about the
# same as 20, 30 4 % less, 60 1 % less (docs/performance.md).
HORIZON_MIN = 20.0
# Screens remembered for their pairs of motions (``_screen_bounds``) before all are forgotten.
SCREENS_KEPT = 512
# Lines of sight across a window that land may cross are followed in stretches this long (minutes) at
# the finest: a spell of clear or blocked sight shorter than this may be missed (``_sight_spans``).
SIGHT_STEP_MIN = 1.0
# Lines of sight between forces lying still, remembered by their places, before all are forgotten.
SIGHT_KEPT = 4096
# Ranges are read this long after a window's start, minutes, so that a change of light or weather at
# the start belongs to the window it opens.
AFTER_MIN = 1e-6


@dataclass(frozen=True)
class SightingRules:
    """The ranges of ``data/sighting.yaml``."""

    hull_range_nm: Mapping[str, float]
    smoke_range_nm: Mapping[str, float]
    smoke_per_extra_ship: float
    smoke_cap_factor: float
    reference_displacement_t: float
    size_exponent: float
    size_factor_min: float
    size_factor_max: float
    recognition_fraction: float
    miss_chance: float
    miss_distance_nm: float

    @classmethod
    def load(cls, path: Path = SIGHTING_FILE) -> SightingRules:
        raw = load_yaml(path.read_text())
        return cls(**{f: raw[f] for f in cls.__dataclass_fields__})

    def size_factor(self, displacement_t: float) -> float:
        f = (displacement_t / self.reference_displacement_t) ** self.size_exponent
        return min(max(f, self.size_factor_min), self.size_factor_max)

    def ranges(self, target: Sequence[Ship], light: str, visibility: float, missed: bool) -> tuple[float, float, float]:
        """(smoke, hull, recognition) ranges in nm at which ``target`` is seen in this light and visibility.

        The hull range is the largest ship's; smoke grows with the number of ships; a "missed" approach
        (Jane's even chance) shortens each by 500 yards.
        """
        size = max(self.size_factor(s.displacement_t) for s in target)
        hull = self.hull_range_nm[light] * size * visibility
        n = len(target)
        smoke = self.smoke_range_nm[light] * min(1.0 + self.smoke_per_extra_ship * (n - 1), self.smoke_cap_factor)
        smoke *= visibility
        recognise = hull * self.recognition_fraction
        if missed:
            hull, smoke, recognise = (max(r - self.miss_distance_nm, 0.0) for r in (hull, smoke, recognise))
        return smoke, hull, recognise

    def scaled(self, factor: float) -> SightingRules:
        """These rules with every sighting range (hull, smoke, and so recognition) multiplied by
        ``factor``: a scenario's ``factors.sighting_range`` for sensitivity studies. Jane's 500 yards
        of a missed approach stay as they are; 1.0 returns the rules themselves."""
        if factor == 1.0:
            return self
        return replace(self, hull_range_nm={k: v * factor for k, v in self.hull_range_nm.items()},
                       smoke_range_nm={k: v * factor for k, v in self.smoke_range_nm.items()})

    def max_range_nm(self) -> float:
        """No force is ever seen farther than this (clear weather, the best light, the biggest smoke)."""
        return max(max(self.smoke_range_nm.values()) * self.smoke_cap_factor,
                   max(self.hull_range_nm.values()) * self.size_factor_max)


@functools.cache
def default_sighting_rules() -> SightingRules:
    return SightingRules.load()


class Conditions(Protocol):
    """Light and weather as an observer meets them (see ``campaign.world.conditions``)."""

    def light(self, lat: float, lon: float, t_min: float) -> str: ...

    def visibility(self, lat: float, lon: float, t_min: float) -> float: ...

    def next_change(self, motion: Motion, t0: float, t1: float) -> float | None:
        """The first time in (t0, t1) at which the light or the weather met by a force on ``motion``
        may change, or None."""
        ...


@dataclass
class PairState:
    level: int = 0  # index into LEVELS
    episode: int = 0
    missed: bool | None = None  # Jane's draw for the current approach, made when first needed
    token: int = 0  # bumped at every new prediction; a firing timeout with an older token is stale
    key: tuple[str, str] | None = None  # (observer, target), when the model made the state
    dice: np.random.Generator | None = None  # the pair's own dice for Jane's draws, one per approach


def _name_word(name: str) -> int:
    """A stable 32-bit number for a force's name (Python's ``hash`` of a str changes between runs)."""
    return zlib.crc32(name.encode("utf-8"))


@dataclass(frozen=True)
class Event:
    t_min: float
    level: int  # the level the pair reaches at t_min
    range_nm: float


@dataclass(frozen=True)
class Pause:
    """A search that reached its horizon without a change: it goes on from ``t_min`` (a window's or a
    screening step's start), where a single search would have gone on."""

    t_min: float


class SightingModel:
    """Contact states of every hostile pair of forces, and their next changes, kept in a SimPy env."""

    def __init__(self, env, rules: SightingRules, conditions: Conditions, rng: np.random.Generator,
                 end_min: float, *, hostile: Callable[[str, str], bool],
                 ships_of: Callable[[str], Sequence[Ship]],
                 on_change: Callable[[str, str, int, int, Mapping[str, Any]], None],
                 sight_lines: SightLines | None = None) -> None:
        self.env = env
        # Land between observer and target hides it (any land: ``campaign.geo.sightline``); None: no
        # land in the way (the open sea of some tests).
        self.sight_lines = sight_lines
        self._still_sight: dict[tuple, bool] = {}
        self.rules = rules
        self.conditions = conditions
        self.rng = rng
        self.end_min = end_min
        self.hostile = hostile
        self.ships_of = ships_of
        self.on_change = on_change
        self.motions: dict[str, Motion] = {}
        self.pairs: dict[tuple[str, str], PairState] = {}
        self._by_observer: dict[str, list[tuple[str, PairState]]] = {}  # the pairs, by observer
        self.r_max = rules.max_range_nm()
        # Each pair throws its own dice for Jane's draws, from a stream seeded by this run's "sighting"
        # generator and the pair's names: when, and in what order, the model happens to need a draw
        # (which depends on how it searches) never changes which approach gets which throw.
        self._dice_entropy = int(rng.integers(0, 2**63)) if rng is not None else 0
        self.evaluations = 0  # distances computed: the model's cost, for benchmarks
        # Conditions that know the light and weather along a motion interval by interval (the world's)
        # answer without a position; others (tests' stand-ins) are asked at the observer's position.
        self._along = getattr(conditions, "along", None)
        self._ranges: dict[tuple, Any] = {}  # (ships, light, vis, missed) -> ranges; (ships, "reach") -> nm
        # The targets' ships, remembered while one prediction is made (no time passes meanwhile).
        self._ships: dict[str, Sequence[Ship]] | None = None
        # Meanwhile too, the limits of each pair's level under each (light, visibility) met: (pair,
        # level, light, visibility) -> what ``_exact`` compares distances with (see ``_limits_for``).
        self._limits: dict[tuple, tuple] | None = None
        # Meanwhile too, the distances (nm) between two motions at the times measured, for either
        # direction of their pair: (id of one motion, id of the other, lesser first) -> {t_min: nm}.
        # Both directions are predicted in one breath from the same motions and meet the same
        # instants, and a geodesic's length does not depend on which end it is measured from.
        self._dists: dict[tuple[int, int], dict[float, float]] | None = None
        # Each pair of motions' last screen, (id of one motion, id of the other, lesser first) -> (a, b, t1,
        # times, lower bounds): the other direction of the pair, predicted next with the same motions,
        # screens the same steps with the same (symmetric) distances, and a search paused at one of its
        # steps resumes on the rest of it (see ``_screen_bounds``).
        self._screens: dict[tuple[int, int], tuple] = {}
        # The hostile directions between two forces, (a, b) -> ``watches(a, b)``: asked for every other
        # force at every change of motion, and fixed for a run (a force keeps its side and its name, and
        # the neutral sides stay neutral: see ``Contacts.hostile``).
        self._watches: dict[tuple[str, str], tuple[tuple[str, str], ...]] = {}

    # -- the world tells the model --------------------------------------------------------------

    def update(self, force: str, motion: Motion | None) -> None:
        """A force's motion changed (or the force is gone: ``motion`` None). Re-predict its pairs."""
        if motion is None:
            self.motions.pop(force, None)
            for key, st in self.pairs.items():
                if force in key and st.level > 0:
                    self._change(key, 0, math.nan)
                if force in key:
                    st.token += 1
            return
        self.motions[force] = motion
        self._ships, self._limits, self._dists = {}, {}, {}
        try:
            self._repredict(force, motion)
        finally:
            self._ships = self._limits = self._dists = None

    def _repredict(self, force: str, motion: Motion) -> None:
        # The hostile directions of each pair with another force (nothing is predicted between
        # friends, so their paths need not be measured); the order of the motions is kept.
        others, keys = [], []
        watches = self._watches
        for o in self.motions:
            if o != force:
                hostile = watches.get((force, o))
                if hostile is None:
                    hostile = watches[(force, o)] = self.watches(force, o)
                    watches[(o, force)] = hostile[::-1]
                if hostile:
                    others.append(o)
                    keys.append(hostile)
        # Paths that never come within the longest range cannot bring two forces in sight: one
        # vectorised test against every other force's path, for both directions of each pair.
        far = (shapely.distance(motion.path_xy, [self.motions[o].path_xy for o in others])
               > self.r_max * earth.M_PER_NM * PLANE_STRETCH_MAX) if others else ()
        for hostile, is_far in zip(keys, far):
            for key in hostile:
                st = self._state(key)
                if is_far and st.level == 0:
                    st.token += 1  # whatever was predicted from the old motions is stale
                else:
                    self._predict(key, near=not is_far)

    def watches(self, a: str, b: str) -> tuple[tuple[str, str], ...]:
        """The directions of the pair of forces ``a`` and ``b`` that keep watch: of (a, b) and (b, a),
        in that order, those whose observer is hostile to its target."""
        return tuple(k for k in ((a, b), (b, a)) if self.hostile(*k))

    # -- ranges ---------------------------------------------------------------------------------

    def _state(self, key: tuple[str, str]) -> PairState:
        st = self.pairs.get(key)
        if st is None:
            st = self.pairs[key] = PairState(key=key)
            self._by_observer.setdefault(key[0], []).append((key[1], st))
        return st

    def watched_by(self, observer: str) -> list[tuple[str, PairState]]:
        """(target, state) of every pair ``observer`` keeps watch in, in the order the pairs were made."""
        return self._by_observer.get(observer, [])

    def _missed(self, st: PairState) -> bool:
        """Jane's even chance of not sighting until 500 yards nearer, thrown once per approach."""
        if st.missed is None:
            if st.key is None:  # a state the model did not make (tests): the run's generator
                u = self.rng.random()
            else:
                if st.dice is None:
                    st.dice = np.random.default_rng([self._dice_entropy, *map(_name_word, st.key)])
                u = st.dice.random()
            st.missed = bool(u < self.rules.miss_chance)
        return st.missed

    def seen_in(self, key: tuple[str, str], t_min: float) -> tuple[str, float]:
        """(light, visibility) the observer of ``key`` has at ``t_min``."""
        obs = self.motions[key[0]]
        if self._along is not None:
            return self._along(obs, t_min)
        lat, lon = obs.position(t_min)
        return self.conditions.light(lat, lon, t_min), self.conditions.visibility(lat, lon, t_min)

    def _target_ranges(self, target: str, light: str, vis: float, missed: bool) -> tuple[float, float, float]:
        ships = self._ships.get(target) if self._ships is not None else None
        if ships is None:
            ships = self.ships_of(target)
            if self._ships is not None:
                self._ships[target] = ships
        k = (tuple(s.name for s in ships), light, vis, missed)
        r = self._ranges.get(k)
        if r is None:
            r = self._ranges[k] = self.rules.ranges(ships, light, vis, missed)
        return r

    def _reach(self, target: str) -> float:
        """The farthest, nm, this target could be seen from at all (the best light, clear weather)."""
        ships = self._ships.get(target) if self._ships is not None else None
        if ships is None:
            ships = self.ships_of(target)
        k = (tuple(s.name for s in ships), "reach")
        r = self._ranges.get(k)
        if r is None:
            r = self._ranges[k] = max(max(self._target_ranges(target, light, 1.0, False)[:2]) for light in LIGHTS)
        return r

    def both_ranges_at(self, key: tuple[str, str], t_min: float
                       ) -> tuple[tuple[float, float, float], tuple[float, float, float]]:
        """The ranges that hold a level, and those at which one is gained (see ``ranges_at``)."""
        return self._both_ranges(key, *self.seen_in(key, t_min))

    def _both_ranges(self, key: tuple[str, str], light: str, vis: float
                     ) -> tuple[tuple[float, float, float], tuple[float, float, float]]:
        """``both_ranges_at`` for the (light, visibility) the observer has, when already known."""
        st = self._state(key)
        full = self._target_ranges(key[1], light, vis, False)
        near = self._target_ranges(key[1], light, vis, True) if self._missed(st) else full
        return full, near

    def ranges_at(self, key: tuple[str, str], t_min: float, *, closing: bool = False
                  ) -> tuple[float, float, float, str, float]:
        """(smoke, hull, recognition ranges in nm, light, visibility) for a pair at a time.

        Jane's even chance of not sighting until 500 yards nearer shortens the ranges at which a level
        is *gained* (``closing``) on a missed approach; a level once gained is held to the full range,
        so that a contact does not flicker when the next approach's dice are thrown.
        """
        light, vis = self.seen_in(key, t_min)
        st = self._state(key)
        missed = self._missed(st) if closing else False
        smoke, hull, rec = self._target_ranges(key[1], light, vis, missed)
        return smoke, hull, rec, light, vis

    @staticmethod
    def level_for(d: float, smoke: float, hull: float, rec: float, current: int = 0) -> int:
        """The level at distance ``d``: recognised within the recognition range, ships within the hull
        range, smoke within the smoke range. Recognition, once made, holds while the target is in
        sight at all."""
        seen = max(smoke, hull)
        if current == 3 and d <= seen:
            return 3
        if d <= rec:
            return 3
        if d <= hull:
            return 2
        if d <= smoke:
            return 1
        return 0

    @staticmethod
    def bounds(level: int, smoke: float, hull: float, rec: float) -> tuple[float | None, float | None]:
        """(closer, farther): the distances whose crossing changes ``level`` — coming within ``closer``
        raises it, going beyond ``farther`` lowers it (None where no such crossing exists)."""
        seen = max(smoke, hull)
        if level == 0:
            return seen, None
        if level == 1:
            return hull, smoke
        if level == 2:
            return rec, hull
        return None, seen

    # -- prediction -----------------------------------------------------------------------------

    def _dist(self, a: Motion, b: Motion, t: float) -> float:
        self.evaluations += 1
        return distance_nm(a, b, t)

    def next_event(self, key: tuple[str, str], t0: float, t1: float, *, near: bool = False,
                   horizon: float = math.inf) -> Event | Pause | None:
        """The first time in [t0, t1] at which the pair's level differs from its present one.

        ``near``: the caller has found that the two forces' paths come within the longest range.
        ``horizon`` (minutes): with no change found before it, return a ``Pause`` at the first window
        or screening step that starts at or after it (never None when a change lies beyond it).
        """
        outer = self._ships is None
        if outer:
            self._ships, self._limits, self._dists = {}, {}, {}
        try:
            return self._next_event(key, t0, t1, near, horizon)
        finally:
            if outer:
                self._ships = self._limits = self._dists = None

    def _next_event(self, key: tuple[str, str], t0: float, t1: float, near: bool,
                    horizon: float = math.inf) -> Event | Pause | None:
        st = self._state(key)
        a, b = self.motions[key[0]], self.motions[key[1]]
        if st.level > 0:
            return self._exact(key, a, b, t0, t1, horizon)
        # Paths that never come within the longest range cannot bring the forces in sight.
        if not near and shapely.distance(a.path_xy, b.path_xy) > self.r_max * earth.M_PER_NM * PLANE_STRETCH_MAX:
            return None
        reach = self._reach(key[1])
        # Out of sight: screen the whole time both may still move, at a coarse step and in one
        # vectorised sweep, for the stretches where they could come within that range at all; only
        # those are searched exactly.
        t = t0
        moving_until = min(max(a.end_min, b.end_min), t1)
        if moving_until > t0:
            ts, lower = self._screen_bounds(a, b, t0, moving_until)
            for i in np.nonzero(lower <= reach + HYSTERESIS_NM)[0].tolist():
                if i > 0 and ts[i] >= horizon:
                    return Pause(float(ts[i]))  # a step of the shared grid: the screen resumes on it
                if self._out_of_sight_through(key, a, float(ts[i]), float(ts[i + 1]), float(lower[i])):
                    continue
                ev = self._exact(key, a, b, float(ts[i]), float(ts[i + 1]))
                if ev is not None:
                    return ev
            t = moving_until
        if t >= t1:
            return None
        if self._dist(a, b, t) > reach + HYSTERESIS_NM:
            return None  # both lying still, out of sight of each other for good
        return self._exact(key, a, b, t, t1, horizon)

    def _out_of_sight_through(self, key: tuple[str, str], a: Motion, t0: float, t1: float,
                              lower_nm: float) -> bool:
        """True if the pair, out of sight, surely stays so through the screening step [t0, t1], in which
        the forces are never nearer than ``lower_nm``: the light and the weather at the observer (``a``)
        hold all through it, and what they let be seen is nearer than that.

        The screen asks whether the forces come within the farthest the target is ever seen (the best
        light, clear weather); most steps it lets through in vain lie at night, in twilight or in haze.
        The ranges are those the step's search would read first (``_limits_for`` at its start, kept for
        the prediction), so the search, were it made, could only find nothing.
        """
        closer = self._limits_for(key, self.pairs[key], *self.seen_in(key, t0 + AFTER_MIN))[2]
        if closer is not None and lower_nm <= closer:
            return False
        # (Past the step's end by the search's own offset: it reads the light just after each window's start.)
        return self.conditions.next_change(a, t0, t1 + 2.0 * AFTER_MIN) is None

    def _screen_bounds(self, a: Motion, b: Motion, t0: float, t1: float) -> tuple[np.ndarray, np.ndarray]:
        """The screen's times from t0 to t1 (see ``_screen``) and, for each step between two of them, a
        lower bound (nm) on the distance between the two forces during it.

        Both directions of a pair are predicted one after the other from the same motions: the second
        takes the first's arrays, which are the same doubles (the chord and the summed speeds do not
        depend on which force comes first), so the screen is made once for the two. A search that paused
        at one of the screen's steps (``Pause``) resumes on the rest of the same screen: the same steps,
        and the same bounds but perhaps the first, which a fresh screen would work out from the step's
        start placed on its own rather than in the grid's sweep, a difference in the last bits. That can
        only decide whether a step in which nothing changes is searched: a step in which the level
        changes comes within the range less ``HYSTERESIS_NM``, twice that below what the screen asks.
        """
        ia, ib = id(a), id(b)  # both motions are held by the entry, so their ids are not reused meanwhile
        k = (ia, ib) if ia < ib else (ib, ia)
        last = self._screens.get(k)
        if (last is not None and last[2] == t1
                and ((last[0] is a and last[1] is b) or (last[0] is b and last[1] is a))):
            ts, lower = last[3], last[4]
            if ts[0] == t0:
                return ts, lower
            j = int(np.searchsorted(ts, t0))
            if j < len(ts) - 1 and ts[j] == t0:
                return ts[j:], lower[j:]
        ts, d = self._screen(a, b, t0, t1)
        vrel = np.zeros(len(ts) - 1)
        for m in (a, b):
            if m.speed_at(t0) > 0.0:
                vrel[ts[:-1] < m.end_min] += m.speed_kn
        # Speeds within a motion only ever fall, so those at a step's start bound the step; the
        # distances are chords, never longer than the geodesics, so the bound stays a bound.
        lower = (d[:-1] + d[1:]) / 2.0 - vrel * np.diff(ts) / 60.0 / 2.0
        if len(self._screens) >= SCREENS_KEPT:
            self._screens.clear()
        self._screens[k] = (a, b, t1, ts, lower)
        return ts, lower

    def _screen(self, a: Motion, b: Motion, t0: float, t1: float) -> tuple[np.ndarray, np.ndarray]:
        """Times from t0 to t1 (the multiples of ``SCREEN_STEP_MIN`` between them, and both ends) and
        the chord distances (nm) between the two forces then, from each motion's positions on the
        shared grid (computed once per motion, whatever the pair)."""
        k0 = math.floor(t0 / SCREEN_STEP_MIN) + 1
        k1 = max(k0, math.ceil(t1 / SCREEN_STEP_MIN))  # grid points k0 .. k1 - 1 lie strictly inside
        ts = np.empty(k1 - k0 + 2)
        ts[0], ts[1:-1], ts[-1] = t0, np.arange(k0, k1) * SCREEN_STEP_MIN, t1
        xa, xb = np.empty((len(ts), 3)), np.empty((len(ts), 3))
        for m, x in ((a, xa), (b, xb)):
            x[0], x[-1] = ecef_point(*m.position(t0)), ecef_point(*m.position(t1))
            if k1 > k0:
                x[1:-1] = m.grid_xyz(k0, k1, SCREEN_STEP_MIN)
        self.evaluations += len(ts)
        return ts, np.sqrt(((xa - xb) ** 2).sum(axis=1)) / earth.M_PER_NM

    def _exact(self, key: tuple[str, str], a: Motion, b: Motion, t0: float, t1: float,
               horizon: float = math.inf) -> Event | Pause | None:
        """The first change of level in [t0, t1], window by window between breakpoints; a ``Pause`` at
        the first window after t0 that starts at or beyond ``horizon``."""
        st = self.pairs[key]
        seen = self._measured(a, b)

        def f(x: float) -> float:
            d = seen.get(x)
            if d is None:
                # ``_dist`` inlined: this is the search's innermost call.
                d = seen[x] = distance_nm(a, b, x)
                self.evaluations += 1
            return d

        t = t0
        still: float | None = None  # the distance, nm, once both lie still (it stays so)
        sight = self.sight_lines
        while t < t1:
            if t >= horizon and t > t0:
                return Pause(t)
            d = f(t) if still is None else still
            full, near, closer, farther = self._limits_for(key, st, *self.seen_in(key, t + AFTER_MIN))
            if a.end_min <= t and b.end_min <= t:
                if sight is not None and (st.level > 0 or (closer is not None and d <= closer)) \
                        and self._blocked_still(a, b):
                    # Land between them, and neither moves: nothing is seen across it, in any light.
                    return Event(t, 0, d) if st.level > 0 else None
                ev = self._at(st, t, d, full, near, closer, farther)
                if ev is not None:
                    return ev
                # Both lie still from here on: the distance stays d, and only a change of the light
                # or the weather at the observer can change what is seen.
                c = self.conditions.next_change(a, t + T_TOL_MIN, t1)
                if c is None:
                    return None
                # Carried, not measured again (nor written where the other direction reads).
                still, t = d, c
                continue
            w_end = self._next_break(a, b, t, t1)
            if sight is None or self._clear_sweep(a, b, t, w_end):
                ev = self._window(st, f, a, b, t, w_end, d, full, near, closer, farther)
            else:
                ev = self._window_by_land(st, f, a, b, t, w_end, d, full, near, closer, farther)
            if ev is not None:
                return ev
            t = w_end if w_end > t else t + T_TOL_MIN
        return None

    def _at(self, st: PairState, t: float, d: float, full: tuple, near: tuple, closer: float | None,
            farther: float | None) -> Event | None:
        """The change at ``t`` itself, the pair being ``d`` nm apart with a clear line of sight."""
        if closer is not None and d <= closer:
            return Event(t, self.level_for(d, *near, st.level), d)
        if farther is not None and d > farther:
            # The ranges changed at this breakpoint (dusk fell, the haze came down).
            return Event(t, self.level_for(d, *full, st.level), d)
        return None

    def _window(self, st: PairState, f: Callable[[float], float], a: Motion, b: Motion, t0: float, t1: float,
                d0: float, full: tuple, near: tuple, closer: float | None, farther: float | None) -> Event | None:
        """The first change in [t0, t1], a stretch of one window with the line of sight clear all through
        (``d0`` the distance at t0): the range crossing a limit."""
        ev = self._at(st, t0, d0, full, near, closer, farther)
        if ev is not None:
            return ev
        hits = []
        if closer is not None:
            hits.append(self._first_below(f, t0, t1, closer, a.speed_at(t0) + b.speed_at(t0),
                                          lambda: chord_floor_nm(a, b, t0, t1)))
        if farther is not None:
            hits.append(self._first_above(f, t0, t1, farther))
        hits = [h for h in hits if h is not None]
        if not hits:
            return None
        te = min(hits)
        dd = f(te)
        up = closer is not None and dd <= closer + 1e-7
        return Event(te, self.level_for(dd, *(near if up else full), st.level), dd)

    def _window_by_land(self, st: PairState, f: Callable[[float], float], a: Motion, b: Motion, t0: float,
                        t1: float, d0: float, full: tuple, near: tuple, closer: float | None,
                        farther: float | None) -> Event | None:
        """``_window`` for a window in which land may come between the two (``_clear_sweep`` could not
        rule it out): stretch by stretch of clear and blocked sight (``_sight_spans``). A contact is lost
        where the land comes between; out of sight, the land matters only once the range has closed."""
        lo = t0
        if st.level == 0:
            if closer is None:
                return None
            lo = self._first_below(f, t0, t1, closer, a.speed_at(t0) + b.speed_at(t0),
                                   lambda: chord_floor_nm(a, b, t0, t1))
            if lo is None:
                return None
        for u0, u1, clear in self._sight_spans(a, b, lo, t1):
            if not clear:
                if st.level > 0:
                    return Event(u0, 0, f(u0))
                continue
            ev = self._window(st, f, a, b, u0, u1, f(u0), full, near, closer, farther)
            if ev is not None:
                return ev
        return None

    # -- lines of sight -------------------------------------------------------------------------

    def _xy(self, m: Motion, t: float) -> tuple[float, float]:
        return self.sight_lines.xy(*m.position(t))

    def _blocked(self, a: Motion, b: Motion, t: float) -> bool:
        """Whether land lies between the two forces at ``t``."""
        return self.sight_lines.blocked_xy(*self._xy(a, t), *self._xy(b, t))

    def _blocked_still(self, a: Motion, b: Motion) -> bool:
        """``_blocked`` for two forces lying still: kept by their places (ports and stations are few)."""
        k = (a.position(a.end_min), b.position(b.end_min))
        hit = self._still_sight.get(k)
        if hit is None:
            if len(self._still_sight) >= SIGHT_KEPT:
                self._still_sight.clear()
            hit = self._still_sight[k] = self.sight_lines.blocked(*k[0], *k[1])
        return hit

    def _clear_sweep(self, a: Motion, b: Motion, t0: float, t1: float) -> bool:
        """True if no land can come between the two forces in [t0, t1], in which each steams along one
        geodesic (a straight run in the plane) or lies still (``SightLines.clear_sweep_xy``)."""
        return self.sight_lines.clear_sweep_xy(self._xy(a, t0), self._xy(a, t1), self._xy(b, t0), self._xy(b, t1))

    def _sight_spans(self, a: Motion, b: Motion, t0: float, t1: float) -> Iterator[tuple[float, float, bool]]:
        """[t0, t1] in stretches of clear (True) and blocked (False) sight, in order, each stretch as long as
        it can be: halved until a half is proved clear (``_clear_sweep``) or is ``SIGHT_STEP_MIN`` long,
        its ends then telling its state; a change between them is found to ``T_TOL_MIN`` by bisection.
        A blocked or clear spell shorter than ``SIGHT_STEP_MIN`` may be missed."""
        def clear(t: float) -> bool:
            return not self._blocked(a, b, t)

        run: tuple[float, bool] | None = None  # the stretch being merged: its start and state
        stack = [(t0, t1, clear(t0), clear(t1))]
        while stack:
            s0, s1, c0, c1 = stack.pop()
            if c0 and c1 and self._clear_sweep(a, b, s0, s1):
                pieces = ((s0, True),)
            elif s1 - s0 <= SIGHT_STEP_MIN:
                if c0 == c1:
                    pieces = ((s0, c0),)
                else:
                    lo, hi = s0, s1
                    while hi - lo > T_TOL_MIN:
                        mid = 0.5 * (lo + hi)
                        if clear(mid) == c0:
                            lo = mid
                        else:
                            hi = mid
                    pieces = ((s0, c0), (hi, c1))  # the new state from the first time known in it
            else:
                mid = 0.5 * (s0 + s1)
                cm = clear(mid)
                stack.append((mid, s1, cm, c1))
                stack.append((s0, mid, c0, cm))
                continue
            for start, state in pieces:
                if run is None:
                    run = (start, state)
                elif run[1] != state:
                    yield run[0], start, run[1]
                    run = (start, state)
        if run is not None:
            yield run[0], t1, run[1]

    def _measured(self, a: Motion, b: Motion) -> dict[float, float]:
        """The distances (nm) between the forces on motions ``a`` and ``b`` measured so far in the
        prediction under way, by time (minutes): the same dict for (a, b) and (b, a). A fresh one
        outside a prediction."""
        memo = self._dists
        if memo is None:
            return {}
        ia, ib = id(a), id(b)  # both motions are held (in ``motions``) while the prediction is made
        k = (ia, ib) if ia < ib else (ib, ia)
        seen = memo.get(k)
        if seen is None:
            seen = memo[k] = {}
        return seen

    def _limits_for(self, key: tuple[str, str], st: PairState, light: str, vis: float) -> tuple:
        """(full ranges, ranges to gain a level, distance in nm below which the level rises, distance
        above which it falls; None where none) for the pair at its present level in this light.

        Kept for the prediction under way (a pair meets few lights, and its level, its targets' ships
        and its approach's dice cannot change before it is made): ``_exact`` asks at every window.
        """
        k = (key, st.level, light, vis)
        memo = self._limits if self._limits is not None else {}
        lim = memo.get(k)
        if lim is None:
            full, near = self._both_ranges(key, light, vis)
            closer = self.bounds(st.level, *near)[0]
            farther = self.bounds(st.level, *full)[1]
            lim = memo[k] = (full, near, None if closer is None else closer - HYSTERESIS_NM,
                             None if farther is None else farther + HYSTERESIS_NM)
        return lim

    def _next_break(self, a: Motion, b: Motion, t0: float, t1: float) -> float:
        """The end of the window that starts at t0: the next turn or stop of either force, or change
        of the light or weather at the observer (``a``), whichever is first; t1 if none."""
        lo = t0 + T_TOL_MIN
        end = min(t1, a.next_breakpoint(lo), b.next_breakpoint(lo))
        c = self.conditions.next_change(a, lo, end)
        return end if c is None or c >= end else c

    @staticmethod
    def _first_below(f: Callable[[float], float], t0: float, t1: float, r: float,
                     vrel_kn: float = math.inf, floor: Callable[[], float] | None = None) -> float | None:
        """First t in [t0, t1] with f(t) <= r, for convex f with f(t0) > r.

        ``vrel_kn`` bounds |f'| (nm/h): with it a golden-section search for the minimum stops as soon
        as a point within ``r`` is found or the bracket provably stays outside it. ``floor`` gives a
        lower bound on f over the whole of [t0, t1] (``motion.chord_floor_nm``), asked only when the
        ends and ``vrel_kn`` cannot rule the window out: above ``r`` it spares the search, which could
        then only have ended finding nothing.
        """
        if r <= 0:
            return None
        f0 = f(t0)
        if f0 <= r:
            return t0
        f1 = f(t1)
        if f1 <= r:
            return brentq(lambda t: f(t) - r, t0, t1, xtol=T_TOL_MIN / 10)
        span = t1 - t0
        if span <= T_TOL_MIN or (f0 + f1 - vrel_kn * span / 60.0) / 2.0 > r:
            return None  # even closing at full speed from both ends it cannot dip to r
        if floor is not None and floor() > r:
            return None  # their relative track keeps them beyond r (forces in company, or passing)
        # Golden-section search for the minimum of the convex f, watching for a point within r.
        g = (math.sqrt(5.0) - 1.0) / 2.0
        a, b, fa, fb = t0, t1, f0, f1
        c, d = b - g * (b - a), a + g * (b - a)
        fc, fd = f(c), f(d)
        while True:
            for t, ft in ((c, fc), (d, fd)):
                if ft <= r:
                    lo = a if t == c else c
                    return brentq(lambda x: f(x) - r, lo if f(lo) > r else t0, t, xtol=T_TOL_MIN / 10)
            if fc < fd:
                b, fb, d, fd = d, fd, c, fc
                c = b - g * (b - a)
                fc = f(c)
            else:
                a, fa, c, fc = c, fc, d, fd
                d = a + g * (b - a)
                fd = f(d)
            if b - a <= T_TOL_MIN:
                return None
            if (fa + fb - vrel_kn * (b - a) / 60.0) / 2.0 > r:
                return None  # the bracket's ends, closing at full speed, cannot meet within r

    @staticmethod
    def _first_above(f: Callable[[float], float], t0: float, t1: float, r: float) -> float | None:
        """First t in [t0, t1] with f(t) > r, for convex f with f(t0) <= r: the maximum of a convex
        function on an interval is at an end."""
        if f(t0) > r:
            return t0
        if f(t1) <= r:
            return None
        return brentq(lambda t: f(t) - r, t0, t1, xtol=T_TOL_MIN / 10)

    def _predict(self, key: tuple[str, str], *, near: bool = False) -> None:
        st = self._state(key)
        st.token += 1
        # A change of motion can itself change what is seen (a force that stops inside range).
        ev = self.next_event(key, self.env.now, self.end_min, near=near, horizon=self.env.now + HORIZON_MIN)
        if ev is None:
            return
        self.env.process(self._fire(key, st.token, ev))

    def _stale(self, key: tuple[str, str], token: int) -> bool:
        st = self.pairs.get(key)
        return st is None or st.token != token or key[0] not in self.motions or key[1] not in self.motions

    def _fire(self, key: tuple[str, str], token: int, ev: Event | Pause):
        env, now = self.env, self.env.now
        # The change keeps the place among the events of its instant that it would have had were it
        # found at once, whatever the instalments the search took (a plain SimPy environment, as in
        # some tests, cannot reserve one: it is scheduled when found).
        reserve = getattr(env, "reserve", None)
        place = reserve() if reserve is not None else None
        while isinstance(ev, Pause):
            # Resume ahead of the instant's ordinary events, so that a change found at that very
            # instant still goes in its place; the time is computed from ``now`` as the change's is,
            # so the resumption never falls after it.
            resume = now + max(ev.t_min - now, 0.0)
            yield env.first_at(resume) if place is not None else env.timeout(max(resume - env.now, 0.0))
            if self._stale(key, token):
                return  # a motion changed: the rest of the search was never needed
            ev = self.next_event(key, ev.t_min, self.end_min, horizon=env.now + HORIZON_MIN)
            if ev is None:
                return
        # Its time as the search's first instalment would have scheduled it (the same float).
        when = now + max(ev.t_min - now, 0.0)
        if place is not None:
            yield env.event_at(when, place)
        else:
            yield env.timeout(max(when - env.now, 0.0))
        if self._stale(key, token):
            return  # stale: a motion changed since this was predicted
        self._change(key, ev.level, ev.range_nm)
        self._predict(key)

    def _change(self, key: tuple[str, str], level: int, range_nm: float) -> None:
        st = self.pairs[key]
        old = st.level
        st.level = level
        info: dict[str, Any] = {"range_nm": range_nm}
        if key[0] in self.motions and key[1] in self.motions and level > 0:
            a, b = self.motions[key[0]], self.motions[key[1]]
            t = self.env.now
            smoke, hull, rec, light, vis = self.ranges_at(key, t)
            info.update(bearing_deg=bearing_deg(a, b, t), light=light, visibility=vis,
                        ranges_nm=(smoke, hull, rec))
        if level == 0:
            st.episode += 1
            st.missed = None  # a new approach, a new throw of Jane's dice
        self.on_change(key[0], key[1], old, level, info)
