"""Weather on Jane's 0-9 scale in six-hour periods, by region: stochastic, scripted, or both.

Jane (seed 004): "The umpire prepares weather in six-hour periods on a 0-9 scale with barometer trend."
The state is read as the Beaufort force capped at 9 (``data/weather.yaml``, ``scale``, says why and what
each state's sea looks like). A :class:`WeatherState` also carries the barometer trend, the direction the
wind and its sea come from, and the visibility in nautical miles.

Two sources behind one interface, :class:`Weather`:

* stochastic: per region, a Markov chain over the states, one step per period (00, 06, 12, 18 UTC),
  reversible with the region's August stationary distribution (a Weibull wind climate binned into
  Beaufort forces); wind direction and visibility are drawn per period from the region's tables;
* scripted: periods from the scenario (:func:`parse_script`; the historical one is
  ``data/weather_1914.yaml``, :func:`historical_script`) override any of the four fields where and when
  they apply. The chain continues from a scripted state, so a scripted calm ends as a calm, not a jump.

Randomness (DESIGN.md principle 5): the given generator yields four words once; each region's chain is
drawn from its own generator seeded by those words and the region's name, all of it at the region's first
use, in period order, with a fixed number of draws per period. So the weather does not depend on which
region or time is asked first, a script does not reshuffle the draws of other periods (common random
numbers), and adding a region leaves the others' weather alone.

The effects are small functions, each with its rule's source in ``data/weather.yaml`` (``effects``):
:func:`visibility_factor`, :func:`head_sea_speed_loss_kn`, :func:`coaling_at_sea_possible`,
:func:`gunnery_range_shift_yd`, :func:`main_deck_guns_may_fire`, :func:`very_bad_weather`,
:func:`submarine_can_take_air`.
"""

from __future__ import annotations

import bisect
import functools
import hashlib
import itertools
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any, Literal, get_args

import numpy as np
import shapely
from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    ValidationError,
    ValidationInfo,
    field_validator,
    model_validator,
)
from scipy.special import ndtri

from campaign.clock import parse_utc
from campaign.datafile import load_yaml
from campaign.model.ships import ShipType
from campaign.paths import DATA_DIR

WEATHER_FILE = DATA_DIR / "weather.yaml"
HISTORICAL_SCRIPT_FILE = DATA_DIR / "weather_1914.yaml"

Barometer = Literal["rising", "steady", "falling"]
FIELDS = ("state", "barometer", "wind_from_deg", "visibility_nm")
MAX_STATE = 9
M_S_PER_KN = 1852.0 / 3600.0
# Draws per period and region (fixed, so that a region's stream never depends on scripts or queries):
# state step, wind regime kept?, wind regime, wind scatter, visibility kept?, visibility category, haze.
_DRAWS = 7
# Region crossings along a track are looked for at this step, then bisected to a second.
CROSSING_STEP = timedelta(minutes=10)


# ------------------------------------------------------------------------------------------ records


@dataclass(frozen=True)
class WeatherState:
    """The weather at one place for one stretch of time (a period, or the part a script splits off).

    ``state`` is Jane's 0-9 (Beaufort force, 9 = 9 or more); ``wind_from_deg`` the direction the wind and
    its sea come from, degrees true; ``visibility_nm`` the meteorological visibility, nautical miles.
    ``source`` is "scripted" when any field came from a script (``scripted`` names which).
    """

    state: int
    barometer: Barometer
    wind_from_deg: float
    visibility_nm: float
    region: str
    period_start: datetime
    period_end: datetime
    source: Literal["scripted", "stochastic"]
    scripted: frozenset[str] = frozenset()
    note: str | None = None


@dataclass(frozen=True)
class ScriptedPeriod:
    """One period of a weather script; ``None`` fields are left to the stochastic model."""

    start: datetime
    end: datetime | None
    regions: tuple[str, ...]  # ("all",) for every region
    state: int | None = None
    barometer: Barometer | None = None
    wind_from_deg: float | None = None
    visibility_nm: float | None = None
    note: str | None = None
    source: str | None = None

    def applies_to(self, region: str) -> bool:
        return "all" in self.regions or region in self.regions

    def covers(self, when: datetime) -> bool:
        return self.start <= when and (self.end is None or when < self.end)


# ------------------------------------------------------------------------------------------ parameters


@dataclass(frozen=True)
class Region:
    """One region's August climate (``data/weather.yaml``, ``regions``)."""

    name: str
    geometry: Any  # shapely geometry, lon/lat
    mean_wind_m_s: float
    weibull_k: float
    step1_prob: float
    step2_prob: float
    wind_from_deg: tuple[float, ...]
    wind_weights: tuple[float, ...]
    wind_spread_deg: float
    wind_persistence: float
    visibility: Mapping[str, tuple[float, ...]]

    @functools.cached_property
    def envelope(self) -> tuple[float, float, float, float]:
        """(lon min, lat min, lon max, lat max) of the region's polygon, degrees: a point outside this box
        is not inside the polygon, so :meth:`WeatherParams.region_at` need not ask GEOS about it."""
        x0, y0, x1, y1 = (float(v) for v in self.geometry.bounds)
        return x0, y0, x1, y1

    def stationary(self, upper_m_s: Sequence[float]) -> np.ndarray:
        """Share of periods at each state: the Weibull wind climate binned at the Beaufort limits (m/s)."""
        scale = self.mean_wind_m_s / math.gamma(1.0 + 1.0 / self.weibull_k)
        cdf = 1.0 - np.exp(-((np.asarray(upper_m_s, float) / scale) ** self.weibull_k))
        return np.diff(np.concatenate(([0.0], cdf, [1.0])))

    def transition_matrix(self, upper_m_s: Sequence[float]) -> np.ndarray:
        """Six-hour transition matrix: Metropolis-Hastings on ``stationary`` with symmetric +-1/+-2 proposals.

        Proposals off the scale are refused (the chain stays), which keeps the proposal symmetric, so
        the chain is reversible and ``stationary`` is exactly its stationary distribution.
        """
        pi = self.stationary(upper_m_s)
        n = len(pi)
        p = np.zeros((n, n))
        for i in range(n):
            for step, q in ((1, self.step1_prob), (2, self.step2_prob)):
                for j in (i - step, i + step):
                    if 0 <= j < n:
                        p[i, j] = q * min(1.0, pi[j] / pi[i])
            p[i, i] = 1.0 - p[i].sum()
        return p


@dataclass(frozen=True)
class EffectRules:
    """Thresholds of the weather's effects (``data/weather.yaml``, ``effects``, with their sources)."""

    reference_visibility_nm: float
    head_sea_loss_kn: float
    head_sea_half_angle_deg: float
    head_sea_min_state: int
    low_freeboard_types: frozenset[str]
    low_freeboard_classes: frozenset[str]
    coaling_max_state: int
    gunnery_shift: tuple[tuple[int, int], ...]  # (min_state, yd), ascending
    dirty_weather_min_state: int
    very_bad_weather_min_state: int
    submarine_max_state: int


@dataclass(frozen=True)
class WeatherParams:
    period_h: int
    upper_m_s: tuple[float, ...]  # upper wind limit of states 0..8, m/s (from kn_upper)
    visibility_names: tuple[str, ...]  # best to worst
    visibility_nm: tuple[float, ...]
    groups: tuple[tuple[str, int], ...]  # (name, max_state), ascending
    visibility_persistence: float
    haze_hours_utc: frozenset[int]
    haze_max_state: int
    haze_probability: float
    regions: tuple[Region, ...]
    effects: EffectRules

    @property
    def region_names(self) -> tuple[str, ...]:
        return tuple(r.name for r in self.regions)

    def region(self, name: str) -> Region:
        for r in self.regions:
            if r.name == name:
                return r
        raise KeyError(f"unknown weather region '{name}'; known: {', '.join(self.region_names)}")

    def region_at(self, lat: float, lon: float) -> Region:
        """The first region whose polygon holds the point, else the nearest one (open Atlantic, Black Sea)."""
        for r in self.regions:
            x0, y0, x1, y1 = r.envelope
            if x0 <= lon <= x1 and y0 <= lat <= y1 and shapely.contains_xy(r.geometry, lon, lat):
                return r
        pt = shapely.Point(lon, lat)
        return min(self.regions, key=lambda r: r.geometry.distance(pt))

    def group_of(self, state: int) -> str:
        return next(name for name, top in self.groups if state <= top)


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class _ScaleRow(_Strict):
    state: int = Field(ge=0, le=MAX_STATE)
    beaufort: str
    knots: str
    kn_upper: float | None
    wave_ft: float
    douglas: int
    sea: str


class _Named(_Strict):
    name: str
    nm: float | None = Field(default=None, gt=0)
    max_state: int | None = Field(default=None, ge=0, le=MAX_STATE)


class _Haze(_Strict):
    start_hours_utc: list[int]
    max_state: int = Field(ge=0, le=MAX_STATE)
    probability: float = Field(ge=0, le=1)


class _RegionFile(_Strict):
    name: str
    polygon: list[tuple[float, float]] = Field(min_length=3)
    mean_wind_m_s: float = Field(gt=0)
    weibull_k: float = Field(gt=0)
    step1_prob: float = Field(ge=0)
    step2_prob: float = Field(ge=0)
    wind_from: list[tuple[float, float]] = Field(min_length=1)
    wind_spread_deg: float = Field(ge=0)
    wind_persistence: float = Field(ge=0, le=1)
    visibility: dict[str, list[float]] | None = None

    @model_validator(mode="after")
    def _rows_sum_to_one(self) -> _RegionFile:
        if self.step1_prob + self.step2_prob > 0.5:
            raise ValueError("step1_prob + step2_prob must be <= 0.5 (each row moves both ways)")
        return self


class _File(_Strict):
    period_h: int = Field(gt=0)
    scale: list[_ScaleRow]
    barometer: dict[str, str]
    visibility_categories: list[_Named]
    state_groups: list[_Named]
    visibility: dict[str, list[float]]
    visibility_persistence: float = Field(ge=0, le=1)
    afternoon_haze: _Haze
    regions: list[_RegionFile] = Field(min_length=1)
    effects: dict[str, dict[str, Any]]


def _probabilities(table: Mapping[str, Sequence[float]], groups: Sequence[str], n: int, where: str) -> dict:
    out = {}
    for g in groups:
        row = tuple(float(x) for x in table.get(g, ()))
        if len(row) != n or min(row) < 0 or abs(sum(row) - 1.0) > 1e-9:
            raise ValueError(f"{where}: visibility row '{g}' must be {n} probabilities summing to 1")
        out[g] = row
    return out


def load_params(path: Path = WEATHER_FILE) -> WeatherParams:
    """Read and check ``data/weather.yaml``."""
    f = _File.model_validate(load_yaml(path.read_text()))
    if [r.state for r in f.scale] != list(range(MAX_STATE + 1)):
        raise ValueError(f"{path}: scale must list states 0..{MAX_STATE} in order")
    upper = tuple(float(r.kn_upper) * M_S_PER_KN for r in f.scale[:-1])  # the last state is open-ended
    names = tuple(c.name for c in f.visibility_categories)
    groups = tuple((g.name, int(g.max_state)) for g in f.state_groups)
    if groups[-1][1] != MAX_STATE:
        raise ValueError(f"{path}: the last state group must reach state {MAX_STATE}")
    default_vis = _probabilities(f.visibility, [g for g, _ in groups], len(names), str(path))
    regions = []
    for r in f.regions:
        dirs, weights = zip(*r.wind_from)
        w = np.asarray(weights, float)
        vis = default_vis if r.visibility is None else _probabilities(
            r.visibility, [g for g, _ in groups], len(names), f"{path}: region {r.name}")
        geom = shapely.Polygon(r.polygon)
        shapely.prepare(geom)
        regions.append(Region(r.name, geom, r.mean_wind_m_s, r.weibull_k, r.step1_prob, r.step2_prob,
                              tuple(float(d) % 360.0 for d in dirs), tuple(w / w.sum()),
                              r.wind_spread_deg, r.wind_persistence, vis))
    e = f.effects
    effects = EffectRules(
        reference_visibility_nm=float(e["visibility"]["reference_nm"]),
        head_sea_loss_kn=float(e["head_sea"]["speed_loss_kn"]),
        head_sea_half_angle_deg=float(e["head_sea"]["half_angle_deg"]),
        head_sea_min_state=int(e["head_sea"]["min_state"]),
        low_freeboard_types=frozenset(e["head_sea"]["low_freeboard_types"]),
        low_freeboard_classes=frozenset(e["head_sea"].get("low_freeboard_classes", ())),
        coaling_max_state=int(e["coaling_at_sea"]["max_state"]),
        gunnery_shift=tuple(sorted((int(x["min_state"]), int(x["yd"])) for x in e["gunnery"]["shift_yd"])),
        dirty_weather_min_state=int(e["gunnery"]["dirty_weather_min_state"]),
        very_bad_weather_min_state=int(e["gunnery"]["very_bad_weather_min_state"]),
        submarine_max_state=int(e["submarine"]["max_state_to_take_air"]),
    )
    unknown = effects.low_freeboard_types - set(get_args(ShipType))
    if unknown:
        raise ValueError(f"{path}: low_freeboard_types has unknown ship types {sorted(unknown)}")
    return WeatherParams(
        period_h=f.period_h, upper_m_s=upper, visibility_names=names,
        visibility_nm=tuple(float(c.nm) for c in f.visibility_categories), groups=groups,
        visibility_persistence=f.visibility_persistence,
        haze_hours_utc=frozenset(f.afternoon_haze.start_hours_utc), haze_max_state=f.afternoon_haze.max_state,
        haze_probability=f.afternoon_haze.probability, regions=tuple(regions), effects=effects)


@functools.cache
def default_params() -> WeatherParams:
    return load_params()


def describe_params(params: WeatherParams | None = None) -> dict[str, dict[str, Any]]:
    """Per region: the stationary distribution (%), P(state >= 4), and the chain's e-folding time (h)."""
    params = params or default_params()
    out = {}
    for r in params.regions:
        pi = r.stationary(params.upper_m_s)
        lam = np.sort(np.abs(np.linalg.eigvals(r.transition_matrix(params.upper_m_s))))[::-1][1]
        out[r.name] = {"stationary_pct": np.round(100 * pi, 1).tolist(),
                       "p_state_ge_4": round(float(pi[4:].sum()), 3),
                       "e_folding_h": round(-params.period_h / math.log(lam), 1)}
    return out


# ------------------------------------------------------------------------------------------ scripts


class _ScriptEntry(_Strict):
    start: datetime
    end: datetime | None = None
    region: list[str] = Field(default_factory=lambda: ["all"], min_length=1)
    state: int | None = Field(default=None, ge=0, le=MAX_STATE, strict=True)
    barometer: Barometer | None = None
    wind_from_deg: float | None = Field(default=None, ge=0, lt=360)
    visibility_nm: float | None = Field(default=None, gt=0)
    note: str | None = None
    source: str | None = None

    @field_validator("start", "end", mode="before")
    @classmethod
    def _utc(cls, v: Any) -> Any:
        return v if v is None else parse_utc(v) if isinstance(v, str | datetime) else v

    @field_validator("region", mode="before")
    @classmethod
    def _listed(cls, v: Any) -> Any:
        return [v] if isinstance(v, str) else v

    @field_validator("end")
    @classmethod
    def _after_start(cls, v: datetime | None, info: ValidationInfo) -> datetime | None:
        start = info.data.get("start")
        if v is not None and start is not None and v <= start:
            raise ValueError(f"end {v:%Y-%m-%dT%H:%MZ} is not after start {start:%Y-%m-%dT%H:%MZ}")
        return v

    @model_validator(mode="after")
    def _sense(self) -> _ScriptEntry:
        if all(getattr(self, f) is None for f in FIELDS):
            raise ValueError(f"a period must set at least one of {', '.join(FIELDS)}")
        return self


def parse_script(raw: Any, regions: Sequence[str] | None = None) -> tuple[ScriptedPeriod, ...]:
    """Validate a scenario's weather script: a list of periods (mappings), see ``data/weather_1914.yaml``.

    Raises ValueError naming every faulty period (by index) and field at once; the scenario loader adds
    the file. ``regions`` are the known region names (default: those of ``data/weather.yaml``).
    """
    known = tuple(regions) if regions is not None else default_params().region_names
    if not isinstance(raw, list | tuple):  # ValueError, not TypeError: the loader reports all bad input alike
        msg = f"weather script: expected a list of periods, got {type(raw).__name__}"
        raise ValueError(msg)  # noqa: TRY004
    faults: list[str] = []
    out: list[ScriptedPeriod] = []
    for i, entry in enumerate(raw):
        if not isinstance(entry, Mapping):
            faults.append(f"period {i}: expected a mapping of fields, got {type(entry).__name__}")
            continue
        try:
            m = _ScriptEntry.model_validate(dict(entry))
        except ValidationError as exc:
            for err in exc.errors():
                msg = err["msg"].removeprefix("Value error, ")
                if not err["loc"]:
                    faults.append(f"period {i}: {msg}")
                    continue
                field = ".".join(str(x) for x in err["loc"])
                got = "" if err["type"] == "missing" else f" (got {err['input']!r})"
                faults.append(f"period {i}, field '{field}': {msg}{got}")
            continue
        bad = [r for r in m.region if r != "all" and r not in known]
        if bad:
            faults.append(f"period {i}, field 'region': unknown region(s) {', '.join(map(repr, bad))}; "
                          f"known: all, {', '.join(known)}")
            continue
        out.append(ScriptedPeriod(m.start, m.end, tuple(m.region), m.state, m.barometer, m.wind_from_deg,
                                  m.visibility_nm, m.note, m.source))
    if faults:
        raise ValueError("invalid weather script: " + "; ".join(faults))
    return tuple(out)


@functools.cache
def historical_script(path: Path = HISTORICAL_SCRIPT_FILE) -> tuple[ScriptedPeriod, ...]:
    """The scripted weather of 2-12 August 1914 (data/weather_1914.yaml; each period cites its sources)."""
    return parse_script(load_yaml(path.read_text())["periods"])


# ------------------------------------------------------------------------------------------ the model


def _draw(cumulative: np.ndarray, u: float) -> int:
    return min(int(np.searchsorted(cumulative, u, side="right")), len(cumulative) - 1)


def _name_words(name: str) -> list[int]:
    digest = hashlib.sha256(name.encode()).digest()
    return [int.from_bytes(digest[i:i + 4], "little") for i in range(0, 16, 4)]


class Weather:
    """The weather of one run, from ``start_utc`` to ``end_utc``, everywhere in the Mediterranean.

    ``rng`` is the world's "weather" generator; ``script`` a sequence of :class:`ScriptedPeriod` (or the
    raw list :func:`parse_script` takes). Asking outside the window raises ValueError.
    """

    def __init__(self, start_utc: datetime | str, end_utc: datetime | str, rng: np.random.Generator,
                 script: Sequence[ScriptedPeriod] | Sequence[Mapping[str, Any]] = (),
                 params: WeatherParams | None = None) -> None:
        self.params = params or default_params()
        self.start_utc, self.end_utc = parse_utc(start_utc), parse_utc(end_utc)
        if self.end_utc <= self.start_utc:
            raise ValueError("weather: end_utc must be after start_utc")
        self.period = timedelta(hours=self.params.period_h)
        day = self.start_utc.replace(hour=0, minute=0, second=0, microsecond=0)
        self.first = day + self.period * ((self.start_utc - day) // self.period)
        self.n_periods = (self.end_utc - self.first) // self.period + 1
        self.last_end = self.first + self.period * self.n_periods
        if script and all(isinstance(s, Mapping) for s in script):
            script = parse_script(list(script), self.params.region_names)
        self.script: tuple[ScriptedPeriod, ...] = tuple(script)  # type: ignore[arg-type]
        for s in self.script:
            bad = [r for r in s.regions if r != "all" and r not in self.params.region_names]
            if bad:
                raise ValueError(f"weather script: unknown region(s) {bad}; "
                                 f"known: {', '.join(self.params.region_names)}")
        self._entropy = [int(w) for w in rng.integers(0, 2**32, size=4, dtype=np.uint64)]
        self._timelines: dict[str, tuple[list[datetime], list[WeatherState]]] = {}

    # -- queries --------------------------------------------------------------------------------

    def at(self, lat: float, lon: float, when: datetime | str) -> WeatherState:
        """The weather at (lat, lon) at ``when`` (UTC)."""
        return self.in_region(self.params.region_at(lat, lon).name, when)

    def in_region(self, region: str, when: datetime | str) -> WeatherState:
        """The weather in the region named ``region`` at ``when`` (UTC): ``at`` for a caller that already
        knows the region of its point (the sighting's conditions find it once per stretch of track)."""
        t = self._check(when)
        starts, states = self._timeline(region)
        return states[bisect.bisect_right(starts, t) - 1]

    def period_bounds(self, when: datetime | str, lat: float | None = None,
                      lon: float | None = None) -> tuple[datetime, datetime]:
        """Jane's six-hour period holding ``when``; with a position, the stretch of unchanged weather
        there (a script may start or end inside a period)."""
        t = self._check(when)
        if lat is None or lon is None:
            start = self.first + self.period * ((t - self.first) // self.period)
            return start, start + self.period
        ws = self.at(lat, lon, t)
        return ws.period_start, ws.period_end

    def changes(self, t0: datetime | str, t1: datetime | str,
                where: Callable[[datetime], tuple[float, float]] | None = None) -> list[datetime]:
        """Times in the open interval (t0, t1) at which the weather may change: period boundaries and the
        starts and ends of scripted periods (any region). With ``where`` (time -> (lat, lon), a force's
        track), also the times the track crosses from one region into another (found at a 10-minute
        step and bisected to the second, so a crossing of a region's corner shorter than that is missed).
        """
        a, b = parse_utc(t0), parse_utc(t1)
        out = set()
        k = max(0, (a - self.first) // self.period + 1)
        while (t := self.first + self.period * k) < b:
            out.add(t)
            k += 1
        for s in self.script:
            out.update(t for t in (s.start, s.end) if t is not None and a < t < b)
        if where is not None:
            out.update(self._crossings(where, a, b))
        return sorted(t for t in out if a < t < b)

    # -- internals ------------------------------------------------------------------------------

    def _check(self, when: datetime | str) -> datetime:
        t = parse_utc(when)
        if not self.first <= t < self.last_end:
            raise ValueError(f"weather asked for {t:%Y-%m-%dT%H:%M:%SZ}, outside its window "
                             f"{self.first:%Y-%m-%dT%H:%MZ} to {self.last_end:%Y-%m-%dT%H:%MZ}")
        return t

    def _crossings(self, where: Callable[[datetime], tuple[float, float]], a: datetime,
                   b: datetime) -> list[datetime]:
        def region(t: datetime) -> str:
            return self.params.region_at(*where(t)).name

        out, t, r = [], a, region(a)
        while t < b:
            nxt = min(t + CROSSING_STEP, b)
            rn = region(nxt)
            if rn != r:
                lo, hi = t, nxt
                while hi - lo > timedelta(seconds=1):
                    mid = lo + (hi - lo) / 2
                    lo, hi = (mid, hi) if region(mid) == r else (lo, mid)
                out.append(hi)
            t, r = nxt, rn
        return out

    def _timeline(self, name: str) -> tuple[list[datetime], list[WeatherState]]:
        if name not in self._timelines:
            self._timelines[name] = self._build(self.params.region(name))
        return self._timelines[name]

    def _build(self, reg: Region) -> tuple[list[datetime], list[WeatherState]]:
        """Draw a region's whole chain, in period order, and lay the script over it.

        One period more than the window is drawn, so the last period's barometer has a next period.
        """
        p = self.params
        gen = np.random.default_rng(np.random.SeedSequence(self._entropy + _name_words(reg.name)))
        n = self.n_periods + 1
        u = gen.random((n, _DRAWS))
        cum_p = np.cumsum(reg.transition_matrix(p.upper_m_s), axis=1)
        cum_pi = np.cumsum(reg.stationary(p.upper_m_s))
        cum_w = np.cumsum(reg.wind_weights)
        cum_vis = {g: np.cumsum(row) for g, row in reg.visibility.items()}
        end = self.first + self.period * n
        scripts = [(s.start, i, s) for i, s in enumerate(self.script) if s.applies_to(reg.name)]
        cuts = {self.first + self.period * k for k in range(n + 1)}
        cuts.update(t for _, _, s in scripts for t in (s.start, s.end)
                    if t is not None and self.first < t < end)
        cuts_sorted = sorted(cuts)

        rows: list[tuple[datetime, datetime, int, float, float, dict[str, ScriptedPeriod]]] = []
        state = regime = base = group = None
        k_prev = -1
        for a, b in itertools.pairwise(cuts_sorted):
            k = (a - self.first) // self.period
            uk = u[k]
            if k != k_prev:  # a new period: one step of the chain from the weather as it last stood
                chain = _draw(cum_pi, uk[0]) if state is None else _draw(cum_p[state], uk[0])
                if regime is None or uk[1] >= reg.wind_persistence:
                    regime = _draw(cum_w, uk[2])
                scatter = reg.wind_spread_deg * float(ndtri(min(max(uk[3], 1e-12), 1 - 1e-12)))
                wind = round((reg.wind_from_deg[regime] + scatter) % 360.0, 1)
                k_prev = k
            by_field = {}
            for f in FIELDS:
                covering = [(st, i, s) for st, i, s in scripts if s.covers(a) and getattr(s, f) is not None]
                if covering:
                    by_field[f] = max(covering, key=lambda c: (c[0], c[1]))[2]
            state = by_field["state"].state if "state" in by_field else chain
            g = p.group_of(state)
            if not (base is not None and g == group and uk[4] < p.visibility_persistence):
                base = _draw(cum_vis[g], uk[5])
            group = g
            period_hour = (self.first + self.period * k).hour
            hazy = (state <= p.haze_max_state and period_hour in p.haze_hours_utc
                    and uk[6] < p.haze_probability)
            cat = min(base + 1, len(p.visibility_nm) - 1) if hazy else base
            wind_deg = by_field["wind_from_deg"].wind_from_deg if "wind_from_deg" in by_field else wind
            vis = (by_field["visibility_nm"].visibility_nm if "visibility_nm" in by_field
                   else p.visibility_nm[cat])
            rows.append((a, b, state, float(wind_deg), float(vis), by_field))

        starts: list[datetime] = []
        states: list[WeatherState] = []
        for i, (a, b, st, wind_deg, vis, by_field) in enumerate(rows):
            if a >= self.last_end:
                break
            if "barometer" in by_field:
                baro = by_field["barometer"].barometer
            else:  # FitzRoy: the glass falls for stronger wind, rises for less (data/weather.yaml)
                nxt = rows[i + 1][2] if i + 1 < len(rows) else st
                baro = "falling" if nxt > st else "rising" if nxt < st else "steady"
            notes = [s.note for s in dict.fromkeys(by_field.values()) if s.note]
            starts.append(a)
            states.append(WeatherState(
                state=int(st), barometer=baro, wind_from_deg=wind_deg, visibility_nm=vis, region=reg.name,
                period_start=a, period_end=b, source="scripted" if by_field else "stochastic",
                scripted=frozenset(by_field), note="; ".join(notes) or None))
        return starts, states


# ------------------------------------------------------------------------------------------ effects


def _rules(rules: EffectRules | None) -> EffectRules:
    return rules or default_params().effects


def angle_off_deg(a_deg: float, b_deg: float) -> float:
    """The smaller angle between two directions, degrees (0-180)."""
    return abs((a_deg - b_deg + 180.0) % 360.0 - 180.0)


def visibility_factor(ws: WeatherState, rules: EffectRules | None = None) -> float:
    """Multiplier of sighting ranges: min(1, visibility_nm / reference_nm); 1.0 in clear weather.

    Koschmieder's law makes every sighting range proportional to the visibility; the reference is the
    visibility of Jane's "clear daylight sighting 10 miles" (seed 004). Source: data/weather.yaml.
    """
    return min(1.0, ws.visibility_nm / _rules(rules).reference_visibility_nm)


def freeboard_class(ship: Any, rules: EffectRules | None = None) -> Literal["low", "high"]:
    """"low" or "high" for a ship (by its own ``freeboard`` if it has one, else its class, else its type),
    for a ship type, or "low"/"high" itself. Which and why: data/weather.yaml, effects.head_sea."""
    r = _rules(rules)
    if isinstance(ship, str):
        if ship in ("low", "high"):
            return ship  # type: ignore[return-value]
        kind = ship
    else:
        own = getattr(ship, "freeboard", None)
        if own in ("low", "high"):
            return own
        if getattr(ship, "cls", None) in r.low_freeboard_classes:
            return "low"
        kind = getattr(ship, "type", None)
    if kind not in get_args(ShipType):
        raise ValueError(f"freeboard of unknown ship type {kind!r}; known: {', '.join(get_args(ShipType))}")
    return "low" if kind in r.low_freeboard_types else "high"


def is_head_sea(ws: WeatherState, course_deg: float, rules: EffectRules | None = None) -> bool:
    """A sea of state >= 4 coming from within 45 degrees of the bow (data/weather.yaml, effects.head_sea)."""
    r = _rules(rules)
    return (ws.state >= r.head_sea_min_state
            and angle_off_deg(course_deg, ws.wind_from_deg) <= r.head_sea_half_angle_deg)


def head_sea_speed_loss_kn(ship: Any, ws: WeatherState, course_deg: float,
                           rules: EffectRules | None = None) -> float:
    """Knots a ship loses steering ``course_deg`` (true): 3 for a low-freeboard ship in a head sea, else 0.

    Jane (seed 004): "Low freeboard ships lose 3 knots in a head sea." ``ship``: see :func:`freeboard_class`.
    """
    r = _rules(rules)
    if freeboard_class(ship, r) == "low" and is_head_sea(ws, course_deg, r):
        return r.head_sea_loss_kn
    return 0.0


def coaling_at_sea_possible(ws: WeatherState, rules: EffectRules | None = None) -> bool:
    """Whether a collier can lie alongside at sea or in an open anchorage: state <= 3 (Zimmer 1916,
    "only possible in calm weather"; data/weather.yaml, effects.coaling_at_sea)."""
    return ws.state <= _rules(rules).coaling_max_state


def gunnery_range_shift_yd(ws: WeatherState, rules: EffectRules | None = None) -> int:
    """Yards added to the range for choosing Jane's shooting target: 0, 1,000 from state 5, 2,000 from 7.

    Jane (seed 004): "rolling ships use targets 1,000-2,000 yards farther". Source: data/weather.yaml.
    """
    shift = 0
    for min_state, yd in _rules(rules).gunnery_shift:
        if ws.state >= min_state:
            shift = yd
    return shift


def main_deck_guns_may_fire(ws: WeatherState, bearing_deg: float, rules: EffectRules | None = None) -> bool:
    """False when main-deck guns would fire into a head sea in dirty weather (state >= 6, bearing within
    45 degrees of the sea's direction). Jane (seed 004); Coronel (data/weather.yaml, effects.gunnery)."""
    r = _rules(rules)
    into_sea = angle_off_deg(bearing_deg, ws.wind_from_deg) <= r.head_sea_half_angle_deg
    return not (ws.state >= r.dirty_weather_min_state and into_sea)


def very_bad_weather(ws: WeatherState, rules: EffectRules | None = None) -> bool:
    """Jane's "very bad weather" in which players strike with eyes shut: state >= 8 (gale)."""
    return ws.state >= _rules(rules).very_bad_weather_min_state


def submarine_can_take_air(ws: WeatherState, rules: EffectRules | None = None) -> bool:
    """Jane: "taking air in weather above 3 swamps it"."""
    return ws.state <= _rules(rules).submarine_max_state

