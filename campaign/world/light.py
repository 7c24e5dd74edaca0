"""The light a ship has at a place and time: day, twilight, moonlit night or dark night.

Sighting and gunnery read the state (seed 004, Jane: "Clear daylight sighting 10 miles, moonlit night
about 5 miles, dark nights 1,000 yards or less"); the thresholds and their sources are in
``data/light.yaml`` (:class:`LightRules`).

Method. ``ephem`` (offline; 1914 is well inside its range) gives, once per instant, the apparent
geocentric right ascension and declination of the sun and the moon, the moon's distance and lit
fraction, and Greenwich apparent sidereal time. Each body then has a *sub-point*, the place where it
stands in the zenith (latitude = declination, longitude = right ascension less sidereal time), and numpy
gives its altitude anywhere by spherical trigonometry:

    sin(alt) = sin(lat) sin(dec) + cos(lat) cos(dec) cos(lon - lon_sub)

That is the geometric altitude of the centre seen from the Earth's centre along the local vertical
(``lat`` geodetic), which for the sun (parallax 8.8") is the altitude seen from the ship. The moon is
60 Earth radii away, and its horizontal parallax ``p`` (about 0.95 deg) lowers it as seen from the
surface: topocentric ``alt' = atan2(sin(alt) - sin(p), cos(alt))``, exact for a spherical Earth, which is
``alt - p cos(alt)`` to first order. (The Earth's flattening shifts the observer off the vertical by up to
0.19 deg; its effect on the moon's altitude is below 0.3'.) Refraction is not in the altitudes: it is
folded into the thresholds, as almanacs do, so the altitudes are geometric and the states change at the
almanac's sunrise, civil twilight and moonrise.

Cost: an instant costs one ephem computation of each body (a few tens of microseconds, the moon being
the dearer); altitudes over arrays of places for that instant are numpy. No ephem object outlives a
call, so nothing here is shared or mutable between calls.

Changes of state (:func:`next_change`, :func:`next_change_along`) are found, not polled: the state is
sampled every :data:`SEARCH_STEP` to bracket the first change, and the crossing is solved with
``scipy.optimize.brentq`` on the altitude (or lit-fraction) function that changed sign, to well under a
second. The returned instant is the first at which the new state holds (it is at most
:data:`CROSSING_TOL` after the exact crossing), so sighting code can split time into intervals of
constant light: ``[t0, t) [t, ...)``.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import ephem
import numpy as np
import numpy.typing as npt
from scipy.optimize import brentq

from campaign.datafile import load_yaml
from campaign.paths import DATA_DIR

LIGHT_FILE = DATA_DIR / "light.yaml"

STATES = ("day", "twilight", "moonlit_night", "dark_night")
NIGHT_STATES = frozenset(STATES[2:])
SUN_STATES = ("day", "twilight", "night")  # the sun's part of the rule, for the replay's shading

# Sampling step of the change search. The shortest time between two crossings of one threshold by one
# body's altitude is many hours at Mediterranean latitudes (a body crosses a given altitude once rising
# and once setting), so a step of minutes cannot step over a pair; crossings of different thresholds
# inside one step are all solved (see _refine). Ten minutes costs 144 samples a day, mostly of the sun
# alone (the moon is computed only at night).
# Bounds on how fast the light can change, used to leap over times when no change is possible: an
# altitude changes by at most the Earth's turn (15 deg/h) plus the Moon's own motion (~0.55 deg/h) and a
# ship's (30 kn moves the zenith by 0.5 deg/h), 16.05 deg/h in all, taken as 17 deg/h; the Moon's lit
# fraction changes by at most ~0.04 an hour (a full cycle in 29.5 days), taken as 0.06.
MAX_ALT_RATE_DEG_PER_S = 17.0 / 3600.0
MAX_ILLUM_RATE_PER_S = 0.06 / 3600.0
SEARCH_STEP = timedelta(minutes=10)
# Bounds on how fast the sub-solar point moves, for the holds of :func:`night_and_hold` at a fixed place:
# westward, 360 deg per apparent solar day, which is never shorter than 86400 - 22 s (mid-September), so
# under 15.004 deg/h, taken as 15.01; in declination, at most 0.41 deg a day (at the equinoxes), taken as
# 0.02 deg/h. The tests check both against the tables the altitudes are read from.
SUN_HOUR_ANGLE_RATE_MAX_DEG_PER_S = 15.01 / 3600.0
SUN_DEC_RATE_MAX_DEG_PER_S = 0.02 / 3600.0
# How far an altitude must be from a threshold, degrees, for :func:`night_and_hold` to promise it a
# time on the same side: it covers the rounding of a time to the microsecond (1e-8 degrees) many times.
HOLD_SLACK_DEG = 1e-6
# brentq's tolerance on the crossing, seconds: the change is reported within twice this after it happens.
CROSSING_TOL = timedelta(seconds=0.25)

_EPHEM_EPOCH = datetime(1899, 12, 31, 12, tzinfo=UTC)  # ephem.Date(0): Dublin Julian day 0
_SECONDS_PER_DAY = 86400.0

# The altitude formula is written once and run either on Python floats (math: a scalar call stays at a
# few microseconds) or on arrays (numpy).
_MATH = SimpleNamespace(sin=math.sin, cos=math.cos, asin=math.asin, atan2=math.atan2,
                        radians=math.radians, degrees=math.degrees,
                        clip=lambda x, lo, hi: min(max(x, lo), hi))
_NUMPY = SimpleNamespace(sin=np.sin, cos=np.cos, asin=np.arcsin, atan2=np.arctan2,
                         radians=np.radians, degrees=np.degrees, clip=np.clip)


# ------------------------------------------------------------------------------------------ rules


@dataclass(frozen=True)
class LightRules:
    """Thresholds of the light states (``data/light.yaml``, where each has its source and reason).

    Altitudes in degrees of the body's centre, geometric; topocentric for the moon.
    """

    sunrise_alt_deg: float
    civil_twilight_alt_deg: float
    moonrise_alt_deg: float
    moonlit_min_illumination: float

    def __post_init__(self) -> None:
        if not self.civil_twilight_alt_deg < self.sunrise_alt_deg:
            raise ValueError("civil twilight must begin below the sunrise altitude")
        if not 0.0 <= self.moonlit_min_illumination <= 1.0:
            raise ValueError("moonlit_min_illumination is a fraction of the disc, 0..1")

    @classmethod
    def load(cls, path: Path = LIGHT_FILE) -> LightRules:
        raw = load_yaml(path.read_text())
        return cls(
            sunrise_alt_deg=float(raw["sun"]["sunrise_alt_deg"]),
            civil_twilight_alt_deg=float(raw["sun"]["civil_twilight_alt_deg"]),
            moonrise_alt_deg=float(raw["moon"]["moonrise_alt_deg"]),
            moonlit_min_illumination=float(raw["moon"]["moonlit_min_illumination"]),
        )


@functools.cache
def default_light_rules() -> LightRules:
    """The rules of ``data/light.yaml`` (read once; the record is immutable)."""
    return LightRules.load()


# ------------------------------------------------------------------------------------ ephemeris


def _ephem_date(when: datetime) -> float:
    """ephem's date (days since 1899-12-31 12:00 UT) of a timezone-aware datetime."""
    if when.tzinfo is None:
        raise ValueError(f"naive datetime {when.isoformat()}: pass a timezone-aware UTC time")
    return (when - _EPHEM_EPOCH).total_seconds() / _SECONDS_PER_DAY


def _gast_rad(date: float) -> float:
    """Greenwich apparent sidereal time, radians (ephem: mean sidereal time plus nutation)."""
    greenwich = ephem.Observer()  # lat = lon = 0
    greenwich.date = date
    return float(greenwich.sidereal_time())


def _wrap_deg(lon: float) -> float:
    return (lon + 180.0) % 360.0 - 180.0


def _sun_sub_ephem(date: float, gast: float | None = None) -> tuple[float, float]:
    """(sub-solar lat, lon) in degrees; ``gast`` (radians) if already known for ``date``."""
    sun = ephem.Sun()
    sun.compute(date)  # no observer: the apparent geocentric place
    gast = _gast_rad(date) if gast is None else gast
    return math.degrees(float(sun.g_dec)), _wrap_deg(math.degrees(float(sun.g_ra) - gast))


def _moon_sub_ephem(date: float, gast: float | None = None) -> tuple[float, float, float, float]:
    """(sub-lunar lat, lon, horizontal parallax) in degrees and the lit fraction, 0..1."""
    moon = ephem.Moon()
    moon.compute(date)
    gast = _gast_rad(date) if gast is None else gast
    sin_parallax = ephem.earth_radius / (float(moon.earth_distance) * ephem.meters_per_au)
    return (math.degrees(float(moon.g_dec)), _wrap_deg(math.degrees(float(moon.g_ra) - gast)),
            math.degrees(math.asin(sin_parallax)), float(moon.moon_phase))


# -- the sub-points, tabulated ---------------------------------------------------------------------
# The sub-points move smoothly (the sun's 0.25 degrees a minute westward, almost uniformly), so they are
# computed with ephem once a minute, an hour's table at a time, kept (the same for every run and every
# replicate), and read by linear interpolation: the error is under 1e-6 degree, a few milliseconds of
# time at any threshold, far inside the tolerances of every use.
TABLE_STEP_DAYS = 1.0 / 1440.0
TABLE_SAMPLES = 60  # one hour a table


@functools.lru_cache(maxsize=4096)
def _hour_table(hour: int) -> np.ndarray:
    """Columns: sun lat, sun lon (unwrapped), moon lat, moon lon (unwrapped), parallax, lit fraction,
    at the minutes of one hour (``hour`` counted in ephem's days x 24) and the next hour's first."""
    rows = []
    for k in range(TABLE_SAMPLES + 1):
        date = hour / 24.0 + k * TABLE_STEP_DAYS
        gast = _gast_rad(date)
        (sla, slo), (mla, mlo, par, ill) = _sun_sub_ephem(date, gast), _moon_sub_ephem(date, gast)
        rows.append((sla, slo, mla, mlo, par, ill))
    t = np.asarray(rows, dtype=float)
    t[:, 1] = np.degrees(np.unwrap(np.radians(t[:, 1])))
    t[:, 3] = np.degrees(np.unwrap(np.radians(t[:, 3])))
    return t


@functools.lru_cache(maxsize=4096)
def _hour_rows(hour: int) -> tuple[tuple[float, ...], ...]:
    """:func:`_hour_table` as Python floats, for the scalar path: the same doubles, read without numpy's
    per-call overhead."""
    return tuple(tuple(row) for row in _hour_table(hour).tolist())


def _interp(date: float) -> tuple[float, ...]:
    """The six columns of :func:`_hour_table` at ephem ``date`` (days), linearly interpolated.

    In plain floats: each column is ``a + (b - a) * f``, the same IEEE operations numpy does row-wise,
    so the values are the ones a numpy row would hold, at a fraction of the cost of a scalar call.
    """
    x = date * 24.0
    hour = math.floor(x)
    pos = (x - hour) * TABLE_SAMPLES
    k = min(int(pos), TABLE_SAMPLES - 1)
    f = pos - k
    rows = _hour_rows(hour)
    a0, a1, a2, a3, a4, a5 = rows[k]
    b0, b1, b2, b3, b4, b5 = rows[k + 1]
    return (a0 + (b0 - a0) * f, a1 + (b1 - a1) * f, a2 + (b2 - a2) * f,
            a3 + (b3 - a3) * f, a4 + (b4 - a4) * f, a5 + (b5 - a5) * f)


def _interp_many(dates: np.ndarray) -> np.ndarray:
    """Rows of :func:`_interp` for an array of ephem dates (the hour tables touched, stacked, and read
    with one gather)."""
    x = np.asarray(dates, dtype=float) * 24.0
    hours = np.floor(x)
    return _interp_rows(x, hours, int(hours.min()), int(hours.max()))


def _interp_rows(x: np.ndarray, hours: np.ndarray, first: int, last: int) -> np.ndarray:
    """:func:`_interp_many` given ``x`` (the dates in hours), ``hours = floor(x)`` and their least and
    greatest. Each row is ``a + (b - a) * f`` with ``b - a`` read from :func:`_stacked_steps`, where it
    was worked out by the same subtraction once and for all: the same doubles, with one gather."""
    pos = (x - hours) * TABLE_SAMPLES
    k = np.minimum(pos.astype(np.int64), TABLE_SAMPLES - 1)
    f = (pos - k)[:, None]
    both = _stacked_steps(first, last - first + 1)[(hours.astype(np.int64) - first) * (TABLE_SAMPLES + 1) + k]
    return both[:, :6] + both[:, 6:] * f


@functools.lru_cache(maxsize=1024)
def _stacked_tables(first: int, span: int) -> np.ndarray:
    """The hour tables ``first`` .. ``first + span - 1`` one under the other (kept: a track's stretches
    of light read the same hours again and again)."""
    stacked = np.concatenate([_hour_table(first + h) for h in range(span)])
    stacked.flags.writeable = False  # shared between calls
    return stacked


@functools.lru_cache(maxsize=1024)
def _stacked_steps(first: int, span: int) -> np.ndarray:
    """:func:`_stacked_tables` beside each row's step to the next, ``rows[i + 1] - rows[i]`` (12 columns;
    the step of a table's last row, which no interpolation reads, is 0)."""
    rows = _stacked_tables(first, span)
    both = np.zeros((len(rows), 12))
    both[:, :6] = rows
    both[:-1, 6:] = rows[1:] - rows[:-1]
    both.flags.writeable = False  # shared between calls
    return both


def _sun_sub(date: float, gast: float | None = None) -> tuple[float, float]:
    """(sub-solar lat, lon) in degrees at ephem ``date`` (interpolated; ``gast`` is not needed)."""
    row = _interp(date)
    return float(row[0]), _wrap_deg(float(row[1]))


def _moon_sub(date: float, gast: float | None = None) -> tuple[float, float, float, float]:
    """(sub-lunar lat, lon, horizontal parallax) in degrees and the lit fraction (interpolated)."""
    row = _interp(date)
    return float(row[2]), _wrap_deg(float(row[3])), float(row[4]), float(row[5])


def _sky(date: float) -> tuple[tuple[float, float], tuple[float, float, float, float]]:
    """The sun's and the moon's sub-points at one instant."""
    row = _interp(date)
    return ((float(row[0]), _wrap_deg(float(row[1]))),
            (float(row[2]), _wrap_deg(float(row[3])), float(row[4]), float(row[5])))


def subsolar_point(when: datetime) -> tuple[float, float]:
    """(lat, lon) in degrees of the point where the sun's centre is in the zenith at ``when``.

    Latitude is the sun's apparent geocentric declination; longitude its right ascension less Greenwich
    apparent sidereal time, wrapped to [-180, 180).
    """
    return _sun_sub(_ephem_date(when))


def sublunar_point(when: datetime) -> tuple[float, float, float]:
    """(lat, lon, horizontal parallax) in degrees: where the moon's centre is in the zenith at ``when``
    (seen from the Earth's centre), and the parallax that lowers it for an observer on the surface."""
    lat, lon, parallax, _ = _moon_sub(_ephem_date(when))
    return lat, lon, parallax


def moon_illumination(when: datetime) -> float:
    """Fraction of the moon's disc lit by the sun at ``when``, 0 (new) to 1 (full); ephem's
    ``moon_phase``, seen from the Earth's centre (it changes by under 1e-4 across the Earth)."""
    return _moon_sub(_ephem_date(when))[3]


# ------------------------------------------------------------------------------------- altitudes


def _is_scalar(*values: Any) -> bool:
    return all(type(v) is float or type(v) is int or np.ndim(v) == 0 for v in values)


def _altitude(lat: Any, lon: Any, sub_lat: Any, sub_lon: Any, parallax_deg: float, m: Any) -> Any:
    la, sla = m.radians(lat), m.radians(sub_lat)
    s = m.sin(la) * m.sin(sla) + m.cos(la) * m.cos(sla) * m.cos(m.radians(lon) - m.radians(sub_lon))
    s = m.clip(s, -1.0, 1.0)
    if parallax_deg == 0.0:
        return m.degrees(m.asin(s))
    # Seen from the surface, one Earth radius up the vertical: sin(alt) less sin(p), cos(alt) unchanged
    # in units of the body's distance. cos(alt) = sqrt(1 - s^2) >= 0 since |alt| <= 90 deg.
    c = (1.0 - s * s) ** 0.5
    return m.degrees(m.atan2(s - math.sin(math.radians(parallax_deg)), c))


def _altitude_scalar(lat: float, lon: float, sub_lat: float, sub_lon: float, parallax_deg: float) -> float:
    """:func:`_altitude` on Python floats with ``math``: the same operations in the same order (so the
    same doubles), without the namespace lookups of the generic form, for the hot scalar paths."""
    radians, sin, cos = math.radians, math.sin, math.cos
    la, sla = radians(lat), radians(sub_lat)
    s = sin(la) * sin(sla) + cos(la) * cos(sla) * cos(radians(lon) - radians(sub_lon))
    if s > 1.0:  # min(max(s, -1), 1), as the generic form clips (a NaN passes through either way)
        s = 1.0
    elif s < -1.0:
        s = -1.0
    if parallax_deg == 0.0:
        return math.degrees(math.asin(s))
    c = (1.0 - s * s) ** 0.5
    return math.degrees(math.atan2(s - sin(radians(parallax_deg)), c))


def altitude_from_subpoint(lat: npt.ArrayLike, lon: npt.ArrayLike, sub_lat: npt.ArrayLike,
                           sub_lon: npt.ArrayLike, parallax_deg: float = 0.0) -> Any:
    """Geometric altitude of a body's centre, degrees, at (lat, lon) given its sub-point (degrees).

    ``parallax_deg`` is the body's horizontal parallax (the moon's from :func:`sublunar_point`; 0 for the
    sun), which makes the altitude topocentric. Scalars give a float, arrays an array (broadcast).
    """
    if _is_scalar(lat, lon, sub_lat, sub_lon):
        scalars = (float(lat), float(lon), float(sub_lat), float(sub_lon))  # type: ignore[arg-type]
        return float(_altitude(*scalars, parallax_deg, _MATH))
    arrays = [np.asarray(v, dtype=float) for v in (lat, lon, sub_lat, sub_lon)]
    return _altitude(*arrays, parallax_deg, _NUMPY)


def sun_altitude_deg(lat: npt.ArrayLike, lon: npt.ArrayLike, when: datetime) -> Any:
    """Geometric altitude of the sun's centre, degrees, at a place or an array of places (lat, lon in
    degrees) at one UTC time. No refraction (the thresholds in ``data/light.yaml`` carry it)."""
    sub_lat, sub_lon = subsolar_point(when)
    return altitude_from_subpoint(lat, lon, sub_lat, sub_lon)


def azimuth_from_subpoint_deg(lat: float, lon: float, sub_lat: float, sub_lon: float) -> float:
    """True azimuth of a body, degrees clockwise from north in [0, 360), seen from (lat, lon) given its
    sub-point (degrees): the initial bearing of the great circle towards the sub-point,

        az = atan2(sin(dlon) cos(lat_sub), cos(lat) sin(lat_sub) - sin(lat) cos(lat_sub) cos(dlon)),

    ``dlon = lon_sub - lon`` (parallax moves the moon's azimuth by nothing on a spherical Earth)."""
    la, sla = math.radians(lat), math.radians(sub_lat)
    dlon = math.radians(sub_lon) - math.radians(lon)
    y = math.sin(dlon) * math.cos(sla)
    x = math.cos(la) * math.sin(sla) - math.sin(la) * math.cos(sla) * math.cos(dlon)
    return math.degrees(math.atan2(y, x)) % 360.0


def sun_position_deg(lat: float, lon: float, when: datetime) -> tuple[float, float]:
    """(true azimuth, geometric altitude) of the sun's centre in degrees at a place and a UTC time: the
    altitude of :func:`light_at` (the same operations), the azimuth by :func:`azimuth_from_subpoint_deg`.
    Where the light comes from in a battle (``campaign.world.battle_light``)."""
    row = _interp(_ephem_date(when))
    sub_lat, sub_lon = float(row[0]), _wrap_deg(float(row[1]))
    la, lo = float(lat), float(lon)
    return azimuth_from_subpoint_deg(la, lo, sub_lat, sub_lon), _altitude_scalar(la, lo, sub_lat, sub_lon, 0.0)


def moon_altitude_deg(lat: npt.ArrayLike, lon: npt.ArrayLike, when: datetime) -> Any:
    """Geometric topocentric altitude of the moon's centre, degrees, at a place or an array of places
    at one UTC time: the geocentric altitude lowered by the moon's parallax (about 1 deg; see the
    module's docstring). No refraction."""
    sub_lat, sub_lon, parallax = sublunar_point(when)
    return altitude_from_subpoint(lat, lon, sub_lat, sub_lon, parallax)


# ------------------------------------------------------------------------------------- the rule


def sun_state_code(sun_alt_deg: Any, rules: LightRules | None = None) -> Any:
    """Index into :data:`SUN_STATES` (0 day, 1 twilight, 2 night) for an altitude or an array of them.

    Day from the sunrise altitude up, twilight from civil twilight up to it, night below.
    """
    r = rules or default_light_rules()
    return 2 - (sun_alt_deg >= r.civil_twilight_alt_deg) - (sun_alt_deg >= r.sunrise_alt_deg)


def state_code(sun_alt_deg: Any, moon_alt_deg: Any, moon_illum: Any, rules: LightRules | None = None) -> Any:
    """Index into :data:`STATES` for altitudes (degrees; scalars or arrays) and the moon's lit fraction.

    Night (sun below civil twilight) is moonlit while the moon is up (topocentric centre at or above
    the moonrise altitude) and at least ``moonlit_min_illumination`` lit; dark otherwise.
    """
    r = rules or default_light_rules()
    return _with_moon(sun_state_code(sun_alt_deg, r), moon_alt_deg, moon_illum, r)


def _with_moon(sun: Any, moon_alt_deg: Any, moon_illum: Any, r: LightRules) -> Any:
    """:func:`state_code` given the sun's part (:func:`sun_state_code`): a night moonlit or dark."""
    moonlit = (moon_alt_deg >= r.moonrise_alt_deg) & (moon_illum >= r.moonlit_min_illumination)
    return sun + (sun == 2) * (1 - moonlit)


@dataclass(frozen=True, slots=True)
class Light:
    """The light at one place and time.

    ``state`` is one of :data:`STATES`; altitudes are geometric, of the centre, in degrees (the moon's
    topocentric); ``moon_illumination`` is the lit fraction of the disc, 0..1.
    """

    state: str
    sun_alt_deg: float
    moon_alt_deg: float
    moon_illumination: float

    @property
    def is_night(self) -> bool:
        return self.state in NIGHT_STATES


def light_at(lat: float, lon: float, when: datetime, rules: LightRules | None = None) -> Light:
    """The light at a place (degrees) and a timezone-aware UTC time (rules: ``data/light.yaml``)."""
    (sun_lat, sun_lon), (moon_lat, moon_lon, parallax, illum) = _sky(_ephem_date(when))
    la, lo = float(lat), float(lon)  # one place: the scalar formula, no arrays
    sun_alt = _altitude_scalar(la, lo, sun_lat, sun_lon, 0.0)
    moon_alt = _altitude_scalar(la, lo, moon_lat, moon_lon, parallax)
    return Light(STATES[state_code(sun_alt, moon_alt, illum, rules)], sun_alt, moon_alt, illum)


def is_night(lat: float, lon: float, when: datetime, rules: LightRules | None = None) -> bool:
    """``light_at(lat, lon, when).is_night`` from the sun alone: night, moonlit or dark, is the sun's
    centre below the civil-twilight altitude, whatever the moon. The same altitude, from the same
    operations, as :func:`light_at` (a NaN counts as night there too); no moon, no ``Light``."""
    r = rules or default_light_rules()
    return not _sun_alt_scalar(lat, lon, when) >= r.civil_twilight_alt_deg


def night_and_hold(lat: float, lon: float, when: datetime, rules: LightRules | None = None) -> tuple[bool, float]:
    """(:func:`is_night` at a place and time, the seconds either side of ``when`` during which it surely
    stays the same at that place).

    The hold is the sun's distance in altitude from the civil-twilight altitude, less
    :data:`HOLD_SLACK_DEG`, over the fastest the sun's altitude can change at that fixed place
    (:func:`sun_alt_rate_bound_deg_per_s`); 0 at the threshold (and for a NaN altitude). Whoever asks
    again at the same place within the hold has the same answer.
    """
    r = rules or default_light_rules()
    sun_alt = _sun_alt_scalar(lat, lon, when)
    margin = abs(sun_alt - r.civil_twilight_alt_deg) - HOLD_SLACK_DEG
    if not margin > 0.0:
        return (not sun_alt >= r.civil_twilight_alt_deg), 0.0
    return (not sun_alt >= r.civil_twilight_alt_deg), margin / sun_alt_rate_bound_deg_per_s(lat)


def sun_alt_rate_bound_deg_per_s(lat: float) -> float:
    """The fastest the sun's altitude can change at a fixed place at latitude ``lat`` (degrees), degrees a
    second: ``cos(lat)`` x :data:`SUN_HOUR_ANGLE_RATE_MAX_DEG_PER_S` + :data:`SUN_DEC_RATE_MAX_DEG_PER_S`
    (11.85 deg/h at 38 deg north, where :data:`MAX_ALT_RATE_DEG_PER_S`, for any body seen from a moving
    ship, allows 17).

    Proof. The altitude is 90 deg less the arc from the place P to the sub-solar point S. Over a time
    dt S's longitude changes by dH (one way, westward) and its latitude (the declination) by dd. Turning
    S about the pole by dH changes the arc as turning P by -dH would, and P then moves along its
    parallel, an arc of ``cos(lat) |dH|``, no shorter than the great circle between its ends; moving S
    along its meridian by dd moves it an arc of ``|dd|``. By the triangle inequality the arc P-S, so the
    altitude, changes by at most ``cos(lat) |dH| + |dd|``. The tabulated sub-point is linear between
    minutes, so its rates there are chords of ephem's, no faster than ephem's fastest (the tests check
    the tables against both bounds). Rounding is in :data:`HOLD_SLACK_DEG`; the cosine is rounded up
    by a relative 1e-12.
    """
    return (math.cos(math.radians(lat)) * (1.0 + 1e-12) * SUN_HOUR_ANGLE_RATE_MAX_DEG_PER_S
            + SUN_DEC_RATE_MAX_DEG_PER_S)


def _sun_alt_scalar(lat: float, lon: float, when: datetime) -> float:
    """The sun's altitude, degrees, at a place and time, by the operations of :func:`light_at`."""
    row = _interp(_ephem_date(when))
    return _altitude_scalar(float(lat), float(lon), float(row[0]), _wrap_deg(float(row[1])), 0.0)


def state_at_date(lat: float, lon: float, date: float, rules: LightRules | None = None) -> str:
    """The state of :func:`light_at` at a place (degrees, floats) and an ephem date (days since
    1899-12-31 12:00 UT): the scalar hot path of the world's conditions, no datetimes, no arrays."""
    r = rules or default_light_rules()
    row = _interp(date)
    sun_alt = _altitude_scalar(lat, lon, row[0], row[1], 0.0)
    if sun_alt >= r.sunrise_alt_deg:
        return STATES[0]
    if sun_alt >= r.civil_twilight_alt_deg:
        return STATES[1]
    moon_alt = _altitude_scalar(lat, lon, row[2], row[3], row[4])
    moonlit = moon_alt >= r.moonrise_alt_deg and row[5] >= r.moonlit_min_illumination
    return STATES[2] if moonlit else STATES[3]


def light_states(lat: npt.ArrayLike, lon: npt.ArrayLike, when: datetime,
                 rules: LightRules | None = None) -> np.ndarray:
    """The light state (a string of :data:`STATES`) at each of an array of places at one UTC time.

    The ephemeris is computed once; the places are numpy. Equal to :func:`light_at` place by place.
    """
    (sun_lat, sun_lon), (moon_lat, moon_lon, parallax, illum) = _sky(_ephem_date(when))
    la, lo = np.asarray(lat, dtype=float), np.asarray(lon, dtype=float)
    sun_alt = _altitude(la, lo, sun_lat, sun_lon, 0.0, _NUMPY)
    moon_alt = _altitude(la, lo, moon_lat, moon_lon, parallax, _NUMPY)
    return np.asarray(STATES)[state_code(sun_alt, moon_alt, illum, rules)]


# ----------------------------------------------------------------------------- changes of state


Position = tuple[float, float]


class _Probe:
    """The light along a track, as functions of seconds after ``t0`` (for bracketing and brentq).

    Holds no ephem object; each evaluation computes what it needs (the moon only at night).
    """

    def __init__(self, position_fn: Callable[[datetime], Position] | None, fixed: Position | None,
                 t0: datetime, rules: LightRules) -> None:
        self.position_fn, self.fixed, self.t0, self.rules = position_fn, fixed, t0, rules
        self.date0 = _ephem_date(t0)
        # Altitudes already worked out, by seconds after t0: a bracket's ends are read for each of the
        # four thresholds, the sun's two and the moon's two sharing one evaluation.
        self._sun_memo: dict[float, float] = {}
        self._moon_memo: dict[float, tuple[float, float]] = {}

    def _where(self, x: float) -> Position:
        if self.fixed is not None:
            return self.fixed
        assert self.position_fn is not None
        lat, lon = self.position_fn(self.t0 + timedelta(seconds=x))
        return float(lat), float(lon)

    def sun_alt(self, x: float) -> float:
        alt = self._sun_memo.get(x)
        if alt is None:
            lat, lon = self._where(x)
            sub_lat, sub_lon = _sun_sub(self.date0 + x / _SECONDS_PER_DAY)
            alt = self._sun_memo[x] = _altitude_scalar(lat, lon, sub_lat, sub_lon, 0.0)
        return alt

    def moon(self, x: float) -> tuple[float, float]:
        out = self._moon_memo.get(x)
        if out is None:
            lat, lon = self._where(x)
            sub_lat, sub_lon, parallax, illum = _moon_sub(self.date0 + x / _SECONDS_PER_DAY)
            out = self._moon_memo[x] = (_altitude_scalar(lat, lon, sub_lat, sub_lon, parallax), illum)
        return out

    def state(self, x: float) -> int:
        sun_alt = self.sun_alt(x)
        sun = sun_state_code(sun_alt, self.rules)
        if sun < 2:  # by day and in twilight the moon does not matter: spare its ephemeris
            return int(sun)
        return int(state_code(sun_alt, *self.moon(x), self.rules))

    def margin(self, k: int, x: float) -> float:
        """Signed distance past threshold ``k`` (>= 0 on the upper side) at ``x``: 0 the sun to the
        sunrise altitude, 1 the sun to civil twilight, 2 the moon to moonrise, 3 the lit fraction to the
        moonlit minimum."""
        r = self.rules
        if k < 2:
            return self.sun_alt(x) - (r.sunrise_alt_deg, r.civil_twilight_alt_deg)[k]
        moon_alt, illum = self.moon(x)
        return moon_alt - r.moonrise_alt_deg if k == 2 else illum - r.moonlit_min_illumination


class _SecondsProbe(_Probe):
    """A probe whose track is a function of seconds after ``t0`` (no datetimes on the hot path)."""

    def __init__(self, where_s: Callable[[float], Position], t0: datetime, rules: LightRules) -> None:
        super().__init__(None, None, t0, rules)
        self.where_s = where_s

    def _where(self, x: float) -> Position:
        return self.where_s(x)


def _refine(probe: _Probe, a: float, b: float, before: int) -> float:
    """The first instant in (a, b] at which the state differs from ``before`` (seconds after t0).

    Every threshold function that changes side between a and b is solved with brentq; the crossings are
    taken in time order and the first that changes the state wins (a moonrise by day changes nothing).
    """
    tol = CROSSING_TOL.total_seconds()
    roots = []
    for k in range(4):
        if (probe.margin(k, a) >= 0.0) != (probe.margin(k, b) >= 0.0):
            roots.append(brentq(lambda x, k=k: probe.margin(k, x), a, b, xtol=tol, rtol=1e-12))
    for root in sorted(roots):
        after = min(root + tol, b)
        if probe.state(after) != before:
            return after
    return b


def next_change_along(position_fn: Callable[[datetime], Position], t0: datetime, t1: datetime, *,
                      rules: LightRules | None = None, step: timedelta = SEARCH_STEP) -> datetime | None:
    """The first instant in (t0, t1] at which the light state at a moving point changes, or None.

    ``position_fn(datetime) -> (lat, lon)`` in degrees, defined on [t0, t1] and continuous. The state is
    sampled every ``step`` to bracket the change, which is then solved with brentq; the instant returned
    is the first at which the new state holds, at most 2 x :data:`CROSSING_TOL` after the exact crossing.
    Two crossings of one threshold closer together than ``step`` (a body grazing an altitude) could be
    missed; at Mediterranean latitudes they do not occur.
    """
    return _next_change(_Probe(position_fn, None, t0, rules or default_light_rules()), t0, t1, step)


def state_codes_along(lats: npt.ArrayLike, lons: npt.ArrayLike, dates: npt.ArrayLike,
                      rules: LightRules | None = None) -> np.ndarray:
    """Indices into :data:`STATES` at places and ephem dates taken pairwise (arrays): a track's light
    in one vectorised sweep (the sub-points interpolated from the same tables as :func:`light_at`)."""
    x = np.atleast_1d(np.asarray(dates, dtype=float)) * 24.0
    hours = np.floor(x)
    rows = _interp_rows(x, hours, int(hours.min()), int(hours.max()))
    return _codes(rows, np.asarray(lats, dtype=float), np.asarray(lons, dtype=float),
                  rules or default_light_rules())


def _clip_unit(s: np.ndarray) -> np.ndarray:
    """``np.clip(s, -1.0, 1.0)``: the same doubles (a NaN passes through both), without ``np.clip``'s
    Python-level dispatch, which costs more than the two ufuncs on a stretch's few dozen points."""
    return np.minimum(np.maximum(s, -1.0), 1.0)


def _codes(rows: np.ndarray, la: np.ndarray, lo: np.ndarray, r: LightRules) -> np.ndarray:
    """:func:`state_codes_along` given the interpolated rows. Each altitude is the formula of
    :func:`_altitude` on whole arrays, operation for operation; what both bodies use (the place's
    radians, sine and cosine) is worked out once, and the moon not at all when the sun is up at every
    point (the state is then the sun's alone, whatever the moon's altitude)."""
    la_rad, lo_rad = np.radians(la), np.radians(lo)
    sin_la, cos_la = np.sin(la_rad), np.cos(la_rad)
    sla = np.radians(rows[:, 0])
    s = sin_la * np.sin(sla) + cos_la * np.cos(sla) * np.cos(lo_rad - np.radians(rows[:, 1]))
    sun_alt = np.degrees(np.arcsin(_clip_unit(s)))
    sun = sun_state_code(sun_alt, r)
    if not (sun == 2).any():
        return np.asarray(sun, dtype=np.int64)
    # The moon's parallax varies from instant to instant: the topocentric correction, vectorised.
    mla = np.radians(rows[:, 2])
    s = _clip_unit(sin_la * np.sin(mla) + cos_la * np.cos(mla) * np.cos(lo_rad - np.radians(rows[:, 3])))
    moon_alt = np.degrees(np.arctan2(s - np.sin(np.radians(rows[:, 4])), np.sqrt(1.0 - s * s)))
    return np.asarray(_with_moon(sun, moon_alt, rows[:, 5], r), dtype=np.int64)


def sample_along(where_many: Callable[[np.ndarray], tuple[np.ndarray, np.ndarray]], t0: datetime,
                 span_s: float, *, rules: LightRules | None = None,
                 step: timedelta = SEARCH_STEP) -> tuple[np.ndarray, np.ndarray]:
    """(xs, states): the light state (index into :data:`STATES`) along a track every ``step`` from ``t0``
    over ``span_s`` seconds, both ends included, in one vectorised sweep. ``where_many(xs)`` gives the
    track's (lats, lons) in degrees at ``xs`` seconds after ``t0``. Where two samples differ the state
    changed between them: :func:`solve_bracket` finds when."""
    step_s = step.total_seconds()
    if step_s <= 0.0:
        raise ValueError("step must be positive")
    xs, xs_days = _sample_offsets(span_s, step_s)
    lats, lons = where_many(xs)
    # The dates ascend with xs: the first and the last hour are the least and the greatest.
    x = (_ephem_date(t0) + xs_days) * 24.0
    hours = np.floor(x)
    rows = _interp_rows(x, hours, int(hours[0]), int(hours[-1]))
    return xs, _codes(rows, np.asarray(lats, dtype=float), np.asarray(lons, dtype=float),
                      rules or default_light_rules())


@functools.lru_cache(maxsize=64)
def _sample_offsets(span_s: float, step_s: float) -> tuple[np.ndarray, np.ndarray]:
    """The sample times of :func:`sample_along` in seconds after its ``t0`` (every ``step_s`` and the
    span's end) and in days (``/ 86400``, as ephem's dates count): the same for every stretch, so kept."""
    n = max(1, math.ceil(span_s / step_s))
    xs = np.minimum(np.arange(n + 1) * step_s, span_s)
    xs_days = xs / _SECONDS_PER_DAY
    xs.flags.writeable = xs_days.flags.writeable = False  # shared between calls
    return xs, xs_days


def solve_bracket(where: Callable[[float], Position], t0: datetime, a: float, b: float, before: int,
                  end: int, *, rules: LightRules | None = None) -> list[tuple[float, int]]:
    """Every change of the light state along a track between two samples ``a`` < ``b`` (seconds after
    ``t0``) at which it was ``before`` and ``end``: [(seconds, new state index), ...]. Each is solved as
    :func:`next_change_along` solves it (``_refine``: the first instant at which the new state holds),
    and the bracket is searched again from each change found in it, so that two changes within one step
    (civil dusk and a moonrise) are both found. ``where(x)`` gives (lat, lon) at ``x`` seconds."""
    probe = _SecondsProbe(where, t0, rules or default_light_rules())
    changes: list[tuple[float, int]] = []
    while before != end:
        x = _refine(probe, a, b, before)
        state = probe.state(x) if x < b else end
        if state == before:  # no threshold crossing changed it before b: the change is at b
            x, state = b, end
        changes.append((x, state))
        before, a = state, x
    return changes


def changes_along(where: Callable[[float], Position],
                  where_many: Callable[[np.ndarray], tuple[np.ndarray, np.ndarray]],
                  t0: datetime, span_s: float, *, rules: LightRules | None = None,
                  step: timedelta = SEARCH_STEP) -> tuple[int, list[tuple[float, int]]]:
    """The light state along a track at ``t0`` and every change of it in (0, ``span_s``] seconds after:
    (state index at t0, [(seconds, new state index), ...]); :func:`sample_along` brackets the changes,
    :func:`solve_bracket` solves each bracket."""
    xs, codes = sample_along(where_many, t0, span_s, rules=rules, step=step)
    changes: list[tuple[float, int]] = []
    for j in np.nonzero(codes[1:] != codes[:-1])[0].tolist():
        changes += solve_bracket(where, t0, float(xs[j]), float(xs[j + 1]), int(codes[j]), int(codes[j + 1]),
                                 rules=rules)
    return int(codes[0]), changes


def next_change(lat: float, lon: float, t0: datetime, t1: datetime, *, rules: LightRules | None = None,
                step: timedelta = SEARCH_STEP) -> datetime | None:
    """The first instant in (t0, t1] at which the light state at a fixed place changes, or None.

    As :func:`next_change_along` for a point that stays at (lat, lon), degrees.
    """
    return _next_change(_Probe(None, (float(lat), float(lon)), t0, rules or default_light_rules()),
                        t0, t1, step)


def _safe_seconds(probe: _Probe, x: float, state: int) -> float:
    """A time, seconds, within which no threshold that matters in ``state`` can be crossed from ``x``:
    each altitude moves by at most :data:`MAX_ALT_RATE_DEG_PER_S`, the lit fraction by at most
    :data:`MAX_ILLUM_RATE_PER_S`."""
    r = probe.rules
    sun = probe.sun_alt(x)
    margins = [abs(sun - r.sunrise_alt_deg), abs(sun - r.civil_twilight_alt_deg)]
    safe = min(margins) / MAX_ALT_RATE_DEG_PER_S
    if state >= 2:  # at night the moon matters too
        moon_alt, illum = probe.moon(x)
        safe = min(safe, abs(moon_alt - r.moonrise_alt_deg) / MAX_ALT_RATE_DEG_PER_S,
                   abs(illum - r.moonlit_min_illumination) / MAX_ILLUM_RATE_PER_S)
    return safe


def _next_change(probe: _Probe, t0: datetime, t1: datetime, step: timedelta) -> datetime | None:
    span = (t1 - t0).total_seconds()
    step_s = step.total_seconds()
    if step_s <= 0.0:
        raise ValueError("step must be positive")
    if span <= 0.0:
        return None
    a, before = 0.0, probe.state(0.0)
    while a < span:
        # Where no threshold can be reached yet, leap ahead (the sun at noon is hours from setting);
        # near one, sample at the step to bracket the crossing.
        b = min(a + max(step_s, _safe_seconds(probe, a, before)), span)
        if probe.state(b) != before:
            return t0 + timedelta(seconds=_refine(probe, a, b, before))
        a = b
    return None
