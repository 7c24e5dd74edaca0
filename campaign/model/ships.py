"""Ships and ship classes of the August 1914 Mediterranean campaign, as plain typed data.

The figures live in ``data/ships.yaml`` (each with its citation; see that file's header for the
conventions). This module validates that file, merges each ship with its class, converts long tons to
metric tonnes (1 long ton = 1.016 t), and exposes immutable :class:`Ship` records. No SimPy here.

Units are in the names: ``_t`` metric tonnes, ``_lt`` long tons (file only), ``_m`` metres, ``_mm``
millimetres, ``_kn`` knots, ``_nm`` nautical miles, ``_h`` hours, ``_t_per_day`` tonnes per 24 h.

Coal consumption follows :class:`ConsumptionCurve`: a fixed load (auxiliaries, steam kept up for
manoeuvring) plus a propulsion term that grows as the cube of speed. The shape is the 1905 Naval War
College rules' "TABLE III.-Coal consumption for twenty-four hours in percentages of full [bunkers]" (seed
002; the table's figures are not in our copy) together with the Admiralty-coefficient law
``power = Δ^(2/3) v^3 / C``, so that propulsion coal per day goes as ``v^3``. Each curve is calibrated
on the endurance figures of its ship or class (``data/ships.yaml``, ``consumption``).
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from types import MappingProxyType
from typing import Any, ClassVar, Literal, overload

import numpy as np
import numpy.typing as npt
import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from campaign.datafile import load_yaml
from campaign.paths import DATA_DIR

LT_TO_T = 1.016
"""Metric tonnes per long ton (2,240 lb = 1,016.05 kg), rounded as the data file states."""

SHIPS_FILE = DATA_DIR / "ships.yaml"

ShipType = Literal[
    "dreadnought",
    "battleship",
    "battlecruiser",
    "armoured_cruiser",
    "protected_cruiser",
    "light_cruiser",
    "destroyer",
    "torpedo_boat",
    "gunboat",
    "collier",
    "transport",
    "supply_ship",
    "station_ship",
]

MERCHANT_TYPES = frozenset({"collier", "transport", "supply_ship"})

ArrayLike = float | npt.ArrayLike


def _out(x: np.ndarray, scalar: bool) -> float | np.ndarray:
    return float(x.reshape(-1)[0]) if scalar else x


# ----------------------------------------------------------------------------------------------------
# Consumption curve


@dataclass(frozen=True)
class ConsumptionCurve:
    """Daily coal burn as a function of speed: ``fixed_t_per_day + cubic_t_per_day * (v / 10 kn)**3``.

    ``fixed_t_per_day`` is the load that does not depend on speed (auxiliaries, harbour and
    station-keeping steam, the low-speed inefficiency of direct-drive turbines); ``cubic_t_per_day`` is
    the propulsion burn at the 10-knot reference speed, scaled by the cube law (Admiralty coefficient:
    power ∝ Δ^(2/3) v³). All methods take scalars or numpy arrays (broadcast together) and return a
    float for scalar inputs, an ndarray otherwise. Speeds are knots (≥ 0), coal metric tonnes, time
    hours, distance nautical miles.
    """

    fixed_t_per_day: float
    cubic_t_per_day: float

    REFERENCE_SPEED_KN: ClassVar[float] = 10.0

    def __post_init__(self) -> None:
        if not (np.isfinite(self.fixed_t_per_day) and self.fixed_t_per_day >= 0):
            raise ValueError(f"fixed_t_per_day must be finite and >= 0, got {self.fixed_t_per_day}")
        if not (np.isfinite(self.cubic_t_per_day) and self.cubic_t_per_day > 0):
            raise ValueError(f"cubic_t_per_day must be finite and > 0, got {self.cubic_t_per_day}")

    @staticmethod
    def _speed(speed_kn: ArrayLike) -> tuple[np.ndarray, bool]:
        v = np.asarray(speed_kn, dtype=float)
        if np.any(v < 0) or np.any(~np.isfinite(v)):
            raise ValueError("speed_kn must be finite and >= 0")
        return v, v.ndim == 0

    @overload
    def t_per_day(self, speed_kn: float) -> float: ...
    @overload
    def t_per_day(self, speed_kn: npt.ArrayLike) -> np.ndarray: ...
    def t_per_day(self, speed_kn):
        """Coal burnt in 24 hours (t/day) at a constant ``speed_kn``."""
        if type(speed_kn) is float or type(speed_kn) is int:  # the simulation's hot path: no arrays
            if not (0.0 <= speed_kn < float("inf")):
                raise ValueError("speed_kn must be finite and >= 0")
            return self.fixed_t_per_day + self.cubic_t_per_day * (speed_kn / self.REFERENCE_SPEED_KN) ** 3
        v, scalar = self._speed(speed_kn)
        rate = self.fixed_t_per_day + self.cubic_t_per_day * (v / self.REFERENCE_SPEED_KN) ** 3
        return _out(np.asarray(rate, dtype=float), scalar)

    @overload
    def t_per_h(self, speed_kn: float) -> float: ...
    @overload
    def t_per_h(self, speed_kn: npt.ArrayLike) -> np.ndarray: ...
    def t_per_h(self, speed_kn):
        """Coal burnt per hour (t/h) at a constant ``speed_kn``."""
        if type(speed_kn) is float or type(speed_kn) is int:
            return self.t_per_day(speed_kn) / 24.0
        v, scalar = self._speed(speed_kn)
        return _out(np.asarray(self.t_per_day(v), dtype=float) / 24.0, scalar)

    def coal_t(self, speed_kn: ArrayLike, hours: ArrayLike) -> float | np.ndarray:
        """Coal (t) burnt in ``hours`` at constant ``speed_kn``: the exact integral of the rate."""
        v, s1 = self._speed(speed_kn)
        h = np.asarray(hours, dtype=float)
        if np.any(h < 0):
            raise ValueError("hours must be >= 0")
        return _out(np.asarray(np.asarray(self.t_per_h(v)) * h, dtype=float), s1 and h.ndim == 0)

    def hours_to_burn(self, coal_t: ArrayLike, speed_kn: ArrayLike) -> float | np.ndarray:
        """Hours needed to burn ``coal_t`` tonnes at constant ``speed_kn``."""
        v, s1 = self._speed(speed_kn)
        c = np.asarray(coal_t, dtype=float)
        if np.any(c < 0):
            raise ValueError("coal_t must be >= 0")
        return _out(np.asarray(c / np.asarray(self.t_per_h(v)), dtype=float), s1 and c.ndim == 0)

    def endurance_nm(self, coal_t: ArrayLike, speed_kn: ArrayLike) -> float | np.ndarray:
        """Distance (nm) that ``coal_t`` tonnes carry the ship at constant ``speed_kn``."""
        v, s1 = self._speed(speed_kn)
        c = np.asarray(coal_t, dtype=float)
        hours = np.asarray(self.hours_to_burn(c, v), dtype=float)
        return _out(np.asarray(hours * v, dtype=float), s1 and c.ndim == 0)

    def scaled(self, factor: float) -> ConsumptionCurve:
        """The same curve with every tonne multiplied by ``factor`` (> 0): boilers that need that much
        more coal for the same steam burn that much more at every speed, fixed load and propulsion alike."""
        if not (np.isfinite(factor) and factor > 0):
            raise ValueError(f"factor must be finite and > 0, got {factor}")
        return ConsumptionCurve(self.fixed_t_per_day * factor, self.cubic_t_per_day * factor)

    # -- calibration ---------------------------------------------------------------------------------

    @staticmethod
    def rate_from_endurance(bunker_t: float, speed_kn: float, range_nm: float) -> float:
        """t/day implied by ``range_nm`` at ``speed_kn`` on ``bunker_t``: ``bunker * 24 * v / range``."""
        return bunker_t * 24.0 * speed_kn / range_nm

    @classmethod
    def from_two_points(
        cls, bunker_t: float, point_a: tuple[float, float], point_b: tuple[float, float]
    ) -> ConsumptionCurve:
        """Solve both parameters from two (speed_kn, range_nm) endurance figures on the same bunkers."""
        (v1, r1), (v2, r2) = point_a, point_b
        q1 = cls.rate_from_endurance(bunker_t, v1, r1)
        q2 = cls.rate_from_endurance(bunker_t, v2, r2)
        x1 = (v1 / cls.REFERENCE_SPEED_KN) ** 3
        x2 = (v2 / cls.REFERENCE_SPEED_KN) ** 3
        cubic = (q2 - q1) / (x2 - x1)
        return cls(fixed_t_per_day=q1 - cubic * x1, cubic_t_per_day=cubic)

    @classmethod
    def from_one_point(
        cls, bunker_t: float, point: tuple[float, float], fixed_to_cubic: float
    ) -> ConsumptionCurve:
        """Calibrate on one (speed_kn, range_nm) figure with the ratio fixed/cubic taken as given."""
        v, r = point
        q = cls.rate_from_endurance(bunker_t, v, r)
        cubic = q / (fixed_to_cubic + (v / cls.REFERENCE_SPEED_KN) ** 3)
        return cls(fixed_t_per_day=fixed_to_cubic * cubic, cubic_t_per_day=cubic)


# ----------------------------------------------------------------------------------------------------
# Ship records


@dataclass(frozen=True)
class Gun:
    """A group of identical guns: ``count`` barrels of ``calibre_mm`` on the given ``mounting``.

    Arcs (barrels of this group, ``None`` where the data give none): ``broadside`` bear on one beam,
    ``ahead`` right ahead, ``astern`` right astern. ``cross_deck`` of the broadside barrels bear only
    within a limited arc about the beam (the far wing turret of an en echelon pair firing across the
    deck); elsewhere on the broadside ``broadside - cross_deck`` bear. ``quick_firing`` is True for
    quick-firing guns (cased charges, several rounds a minute), False for slower guns (BL bag-charge
    guns and every heavy gun), ``None`` where unknown. The rules behind each figure are in the header
    of ``data/ships.yaml``; ``campaign.tactics.armament`` turns them into barrels bearing.
    """

    count: int
    calibre_mm: float
    label: str
    mounting: str
    broadside: int | None = None
    ahead: int | None = None
    astern: int | None = None
    cross_deck: int = 0
    quick_firing: bool | None = None

    @property
    def has_arcs(self) -> bool:
        """True when the data give all three arc counts (``broadside``, ``ahead``, ``astern``)."""
        return self.broadside is not None and self.ahead is not None and self.astern is not None


TubePosition = Literal["bow", "stern", "beam", "deck"]
"""Where a group of torpedo tubes lies (see :class:`TubeMount`)."""

TUBE_POSITIONS: tuple[str, ...] = ("bow", "stern", "beam", "deck")


@dataclass(frozen=True)
class TubeMount:
    """A group of ``count`` torpedo tubes at one ``position``, ``submerged`` or above water.

    ``bow`` and ``stern`` tubes lie on the keel line; a ``beam`` mount's tubes are split evenly between
    the two sides (a count of 2 is one a side); ``deck`` tubes are trainable mounts on the centreline
    that bear on either beam (always above water). The arcs are in ``data/tactics/tubes.yaml``
    (``campaign.tactics.tubes``).
    """

    position: TubePosition
    count: int
    submerged: bool


@dataclass(frozen=True)
class TorpedoTubes:
    """Torpedo tubes: number, calibre (mm), mounting as the source words it (e.g. 'submerged'), and
    ``mounts``, the layout by position where a source gives it (empty otherwise: the stand-in layout
    rule of ``data/tactics/tubes.yaml`` derives it from the count, ``campaign.tactics.tubes``)."""

    count: int
    calibre_mm: float | None
    mounting: str | None
    mounts: tuple[TubeMount, ...] = ()


ARMOUR_PARTS = ("belt", "deck", "turrets", "barbettes", "conning_tower")
"""The parts ``armour_mm`` gives, in file order."""


@dataclass(frozen=True)
class Armour:
    """Maximum armour thickness in mm of each part (``data/ships.yaml`` header, ARMOUR): a figure from a
    source; ``0`` where the part is not armoured or not fitted (a cited fact, e.g. guns in shielded
    mounts: no turrets); ``None`` where it is not known. Unknown is never read as none: a battle
    refuses a ship with an unknown part (:func:`require_known_armour`)."""

    belt: float | None = None
    deck: float | None = None
    turrets: float | None = None
    barbettes: float | None = None
    conning_tower: float | None = None

    def unknown_parts(self) -> tuple[str, ...]:
        """The parts whose thickness is not known (``None``), in ``ARMOUR_PARTS`` order."""
        return tuple(p for p in ARMOUR_PARTS if getattr(self, p) is None)


@dataclass(frozen=True)
class EndurancePoint:
    """A published endurance figure: ``range_nm`` at ``speed_kn`` on ``bunker_t`` tonnes of fuel."""

    speed_kn: float
    range_nm: float
    bunker_t: float
    source: str


@dataclass(frozen=True)
class Ship:
    """One ship as of August 1914, merged from its class and its own entry in ``data/ships.yaml``.

    Speeds (kn): ``design_speed_kn`` (as designed), ``sustained_speed_kn`` (what she could hold for
    hours in August 1914), ``economical_speed_kn`` (the speed her endurance figure is quoted at).
    ``torpedo_tubes`` is ``None`` where the source read gave none (unknown), a zero count where the
    ship has none; its ``mounts`` are the tubes' layout where a source gives it. ``coal_capacity_t`` is
    the most coal her bunkers hold; ``oil_t`` the oil carried
    for spraying on the coal (kept as data; consumption is modelled as one fuel, see
    ``consumption_basis``). ``consumption`` is what she burns in August 1914: her class's calibrated
    curve (:attr:`calibrated_consumption`, the one that reproduces the published endurance figures)
    times ``consumption_factor``, the state of her boilers then (1.0 unless the data says otherwise,
    as for Goeben's leaking tubes). Merchant ships
    add ``cargo_coal_t`` (coal they can give) and ``transfer_rate_t_per_h`` (collier to warship,
    alongside at anchor). ``sources`` maps field paths (dotted, e.g. ``speed_kn.design``; a prefix
    covers its sub-fields) to citations; ``aka`` lists other spellings or names.
    """

    name: str
    cls: str
    nation: str
    type: ShipType
    displacement_t: float
    length_m: float
    beam_m: float
    draught_m: float
    design_speed_kn: float
    sustained_speed_kn: float
    economical_speed_kn: float
    coal_capacity_t: float
    oil_t: float
    consumption: ConsumptionCurve
    guns: tuple[Gun, ...]
    torpedo_tubes: TorpedoTubes | None
    armour: Armour
    crew: int
    cargo_coal_t: float = 0.0
    transfer_rate_t_per_h: float | None = None
    transfer_rate_at_sea_t_per_h: float | None = None
    sources: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    aka: tuple[str, ...] = ()
    consumption_method: str = ""
    consumption_basis: str = ""
    calibration_points: tuple[EndurancePoint, ...] = ()
    consumption_factor: float = 1.0

    @property
    def calibrated_consumption(self) -> ConsumptionCurve:
        """The curve calibrated on the published endurance figures, before her boilers' state in
        August 1914 (``consumption`` divided by ``consumption_factor``)."""
        return self.consumption.scaled(1.0 / self.consumption_factor)

    @property
    def bunker_t(self) -> float:
        """Fuel the endurance figures are quoted on: coal plus the oil sprayed on it (t)."""
        return self.coal_capacity_t + self.oil_t

    @property
    def is_merchant(self) -> bool:
        return self.type in MERCHANT_TYPES

    def source_of(self, field_path: str) -> str | None:
        """Citation for a dotted field path, or for the nearest enclosing path that has one."""
        parts = field_path.split(".")
        for i in range(len(parts), 0, -1):
            key = ".".join(parts[:i])
            if key in self.sources:
                return self.sources[key]
        return None


# ----------------------------------------------------------------------------------------------------
# File schema (pydantic): the merged entry of one ship


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class _Speed(_Strict):
    design: float = Field(gt=0)
    sustained: float = Field(gt=0)
    economical: float = Field(gt=0)

    @model_validator(mode="after")
    def _ordered(self) -> _Speed:
        if not self.design >= self.sustained >= self.economical:
            raise ValueError(
                f"need design >= sustained >= economical, got {self.design}, {self.sustained}, "
                f"{self.economical}"
            )
        return self


class _Coal(_Strict):
    capacity_t: float | None = Field(default=None, gt=0)
    capacity_lt: float | None = Field(default=None, gt=0)
    oil_t: float | None = Field(default=None, ge=0)
    oil_lt: float | None = Field(default=None, ge=0)

    @model_validator(mode="after")
    def _one_unit(self) -> _Coal:
        if (self.capacity_t is None) == (self.capacity_lt is None):
            raise ValueError("give exactly one of capacity_t or capacity_lt")
        if self.oil_t is not None and self.oil_lt is not None:
            raise ValueError("give at most one of oil_t or oil_lt")
        return self

    @property
    def capacity(self) -> float:
        if self.capacity_t is not None:
            return self.capacity_t
        return float(self.capacity_lt or 0.0) * LT_TO_T

    @property
    def oil(self) -> float:
        if self.oil_t is not None:
            return self.oil_t
        return (self.oil_lt or 0.0) * LT_TO_T


class _Point(_Strict):
    speed_kn: float = Field(gt=0)
    range_nm: float = Field(gt=0)
    source: str = Field(min_length=3)


class _Consumption(_Strict):
    method: Literal["two_point", "one_point", "stand_in"]
    fixed_t_per_day: float = Field(ge=0)
    cubic_t_per_day: float = Field(gt=0)
    bunker: Literal["coal", "coal_plus_oil"] = "coal_plus_oil"
    reference: str | None = None
    points: list[_Point] = Field(default_factory=list)
    rejected_points: list[_Point] = Field(default_factory=list)
    basis: str = Field(min_length=10)
    # Coal per unit of steam relative to the calibrated curve: the ship's boilers in August 1914.
    condition_factor: float = Field(default=1.0, gt=0, le=3)

    @model_validator(mode="after")
    def _points_fit_method(self) -> _Consumption:
        need = {"two_point": 2, "one_point": 1, "stand_in": 0}[self.method]
        if len(self.points) != need:
            raise ValueError(
                f"method {self.method!r} needs {need} calibration point(s), got {len(self.points)}"
            )
        if self.method == "one_point" and not self.reference:
            raise ValueError("method 'one_point' needs a 'reference' (the two-point fit it borrows from)")
        return self


class _Gun(_Strict):
    count: int = Field(gt=0)
    calibre_mm: float = Field(gt=0)
    label: str
    mounting: str
    broadside: int | None = Field(default=None, ge=0)
    ahead: int | None = Field(default=None, ge=0)
    astern: int | None = Field(default=None, ge=0)
    cross_deck: int = Field(default=0, ge=0)
    quick_firing: bool | None = None

    @model_validator(mode="after")
    def _arcs_fit(self) -> _Gun:
        arcs = {"broadside": self.broadside, "ahead": self.ahead, "astern": self.astern}
        given = [k for k, v in arcs.items() if v is not None]
        if given and len(given) != len(arcs):
            raise ValueError(f"give all of broadside, ahead and astern or none (got only {', '.join(given)})")
        for key, value in arcs.items():
            if value is not None and value > self.count:
                raise ValueError(f"{key} = {value} exceeds the group's {self.count} barrels")
        if self.cross_deck > (self.broadside or 0):
            raise ValueError(f"cross_deck = {self.cross_deck} must be part of the broadside ({self.broadside})")
        return self

    @property
    def has_arcs(self) -> bool:
        return self.broadside is not None


class _TubeMount(_Strict):
    position: TubePosition
    count: int = Field(gt=0)
    submerged: bool

    @model_validator(mode="after")
    def _fits(self) -> _TubeMount:
        if self.position == "beam" and self.count % 2:
            raise ValueError(f"a beam mount's tubes are split evenly between the sides: need an even count, "
                             f"got {self.count}")
        if self.position == "deck" and self.submerged:
            raise ValueError("a deck mount is a trainable mount above water: it cannot be submerged")
        return self


class _Torpedo(_Strict):
    count: int = Field(ge=0)
    calibre_mm: float | None = Field(default=None, gt=0)
    mounting: str | None = None
    mounts: list[_TubeMount] | None = None

    @model_validator(mode="after")
    def _mounts_sum_to_count(self) -> _Torpedo:
        if self.mounts is not None:
            total = sum(m.count for m in self.mounts)
            if total != self.count:
                laid = ", ".join(f"{m.position} {m.count}" for m in self.mounts) or "none"
                raise ValueError(f"mounts hold {total} tubes ({laid}) but count is {self.count}")
        return self


class _Armour(_Strict):
    belt: float | None = Field(default=None, ge=0)
    deck: float | None = Field(default=None, ge=0)
    turrets: float | None = Field(default=None, ge=0)
    barbettes: float | None = Field(default=None, ge=0)
    conning_tower: float | None = Field(default=None, ge=0)


class _Entry(_Strict):
    """A ship's merged entry (class data overlaid with the ship's own fields)."""

    nation: str
    type: ShipType
    displacement_t: float | None = Field(default=None, gt=0)
    displacement_lt: float | None = Field(default=None, gt=0)
    length_m: float = Field(gt=0)
    beam_m: float = Field(gt=0)
    draught_m: float = Field(gt=0)
    speed_kn: _Speed
    coal: _Coal
    consumption: _Consumption
    guns: list[_Gun] = Field(default_factory=list)
    torpedo_tubes: _Torpedo | None = _Torpedo(count=0)
    armour_mm: _Armour = _Armour()
    crew: int = Field(gt=0)
    cargo_coal_t: float = Field(default=0.0, ge=0)
    transfer_rate_t_per_h: float | None = Field(default=None, gt=0)
    transfer_rate_at_sea_t_per_h: float | None = Field(default=None, gt=0)
    sources: dict[str, str] = Field(default_factory=dict)
    aka: list[str] = Field(default_factory=list)
    notes: str | None = None

    @model_validator(mode="after")
    def _consistent(self) -> _Entry:
        if (self.displacement_t is None) == (self.displacement_lt is None):
            raise ValueError("give exactly one of displacement_t or displacement_lt")
        merchant = self.type in MERCHANT_TYPES
        if merchant and self.type == "collier" and self.transfer_rate_t_per_h is None:
            raise ValueError("a collier needs transfer_rate_t_per_h")
        if not merchant and (self.cargo_coal_t or self.transfer_rate_t_per_h is not None):
            raise ValueError("only colliers, transports and supply ships carry cargo_coal_t / transfer rates")
        return self


class ShipDataError(ValueError):
    """A ships data file is malformed; the message names the file, the entry and the field."""


class UnknownArmourError(ValueError):
    """A ship whose armour is not fully known was sent into battle; the message names each ship and
    the parts unknown."""


def require_known_armour(ships: Iterable[Ship]) -> None:
    """Refuse ships with any armour part unknown (``None``) before they fight.

    The engines read a missing thickness as no armour (Jane: a 3-pounder's deck hit would count as a
    sinking penetration, any conning-tower hit would stop the steering), so an unknown part is a silent
    guess; the loader accepts it (a collier's may be unknown) but a battle may not. Raises
    :class:`UnknownArmourError` naming every such ship and its unknown parts.
    """
    faults = [f"{s.name} ({', '.join(parts)})" for s in ships if (parts := s.armour.unknown_parts())]
    if faults:
        raise UnknownArmourError(
            f"armour unknown for {'; '.join(faults)}: a ship enters battle only with every armour_mm part "
            "known - give the figure with its source, or 0 with the source that shows the part absent")


# ----------------------------------------------------------------------------------------------------
# Loading


def _deep_merge(base: Mapping[str, Any], over: Mapping[str, Any]) -> dict[str, Any]:
    out = dict(base)
    for key, value in over.items():
        if isinstance(value, Mapping) and isinstance(out.get(key), Mapping):
            out[key] = _deep_merge(out[key], value)
        else:
            out[key] = value
    return out


def _numeric_paths(data: Any, prefix: str = "") -> Iterable[str]:
    """Dotted paths of every non-null number in ``data`` (lists are treated as one field)."""
    if isinstance(data, Mapping):
        for key, value in data.items():
            if key in ("sources", "points", "rejected_points", "aka", "notes"):
                continue
            yield from _numeric_paths(value, f"{prefix}.{key}" if prefix else str(key))
    elif isinstance(data, list):
        if any(list(_numeric_paths(item, prefix)) for item in data):
            yield prefix
    elif isinstance(data, bool):
        return
    elif isinstance(data, (int, float)):
        yield prefix


def unsourced_fields(entry: Mapping[str, Any]) -> list[str]:
    """Numeric field paths of a merged raw entry that have no citation in its ``sources``."""
    sources = entry.get("sources") or {}
    missing = []
    for path in _numeric_paths(entry):
        parts = path.split(".")
        if not any(".".join(parts[:i]) in sources for i in range(len(parts), 0, -1)):
            missing.append(path)
    return missing


def _fmt_errors(path: Path, what: str, err: ValidationError) -> str:
    lines = [f"{path}: {what}:"]
    for e in err.errors():
        loc = ".".join(str(p) for p in e["loc"]) or "(entry)"
        lines.append(f"  field {loc}: {e['msg']}")
    return "\n".join(lines)


TUBE_MOUNTS_SOURCE_KEY = "torpedo_tubes.mounts"
"""Citation key the torpedo tubes' mount layout needs in a ship's ``sources``: the tube count's own
``torpedo_tubes`` citation does not cover where the tubes lie."""

GUN_SOURCE_KEYS = {"arcs": "guns.arcs", "quick_firing": "guns.quick_firing"}
"""Citation keys the gun groups' arc counts and quick-firing flags need in a ship's ``sources``: the
armament list's own ``guns`` citation does not cover how the guns bear or how fast they fire."""


def _gun(g: _Gun) -> Gun:
    return Gun(
        count=g.count,
        calibre_mm=g.calibre_mm,
        label=g.label,
        mounting=g.mounting,
        broadside=g.broadside,
        ahead=g.ahead,
        astern=g.astern,
        cross_deck=g.cross_deck,
        quick_firing=g.quick_firing,
    )


def _check_gun_sources(name: str, entry: _Entry, path: Path) -> None:
    """Arc counts and quick-firing flags must carry their own citation (``guns.arcs``, ``guns.quick_firing``)."""
    needs = {
        "arcs": any(g.has_arcs or g.cross_deck for g in entry.guns),
        "quick_firing": any(g.quick_firing is not None for g in entry.guns),
    }
    for what, needed in needs.items():
        key = GUN_SOURCE_KEYS[what]
        if needed and len(entry.sources.get(key, "").strip()) < 3:
            raise ShipDataError(f"{path}: ship {name!r}: field guns: {what} given without a source ({key})")


def _check_tube_sources(name: str, entry: _Entry, path: Path) -> None:
    """A tube layout (``torpedo_tubes.mounts``) must carry its own citation (``torpedo_tubes.mounts``)."""
    t = entry.torpedo_tubes
    if t is not None and t.mounts and len(entry.sources.get(TUBE_MOUNTS_SOURCE_KEY, "").strip()) < 3:
        raise ShipDataError(f"{path}: ship {name!r}: field torpedo_tubes.mounts: layout given without a "
                            f"source ({TUBE_MOUNTS_SOURCE_KEY})")


def _tubes(t: _Torpedo | None) -> TorpedoTubes | None:
    if t is None:
        return None
    mounts = tuple(TubeMount(m.position, m.count, m.submerged) for m in t.mounts or ())
    return TorpedoTubes(t.count, t.calibre_mm, t.mounting, mounts)


def _build(name: str, cls_name: str, entry: _Entry, path: Path) -> Ship:
    _check_gun_sources(name, entry, path)
    _check_tube_sources(name, entry, path)
    coal = entry.coal
    capacity_t = coal.capacity
    oil_t = coal.oil
    cons = entry.consumption
    bunker_t = capacity_t + oil_t if cons.bunker == "coal_plus_oil" else capacity_t
    try:
        curve = ConsumptionCurve(cons.fixed_t_per_day, cons.cubic_t_per_day).scaled(cons.condition_factor)
    except ValueError as exc:  # pragma: no cover - pydantic bounds catch this first
        raise ShipDataError(f"{path}: ship {name!r}: field consumption: {exc}") from exc
    displacement = (
        entry.displacement_t if entry.displacement_t is not None else entry.displacement_lt * LT_TO_T
    )  # type: ignore[operator]
    return Ship(
        name=name,
        cls=cls_name,
        nation=entry.nation,
        type=entry.type,
        displacement_t=float(displacement),
        length_m=entry.length_m,
        beam_m=entry.beam_m,
        draught_m=entry.draught_m,
        design_speed_kn=entry.speed_kn.design,
        sustained_speed_kn=entry.speed_kn.sustained,
        economical_speed_kn=entry.speed_kn.economical,
        coal_capacity_t=capacity_t,
        oil_t=oil_t,
        consumption=curve,
        guns=tuple(_gun(g) for g in entry.guns),
        torpedo_tubes=_tubes(entry.torpedo_tubes),
        armour=Armour(**entry.armour_mm.model_dump()),
        crew=entry.crew,
        cargo_coal_t=entry.cargo_coal_t,
        transfer_rate_t_per_h=entry.transfer_rate_t_per_h,
        transfer_rate_at_sea_t_per_h=entry.transfer_rate_at_sea_t_per_h,
        sources=MappingProxyType(dict(entry.sources)),
        aka=tuple(entry.aka),
        consumption_method=cons.method,
        consumption_basis=cons.basis,
        calibration_points=tuple(
            EndurancePoint(p.speed_kn, p.range_nm, bunker_t, p.source) for p in cons.points
        ),
        consumption_factor=cons.condition_factor,
    )


def load_ships(path: str | Path) -> dict[str, Ship]:
    """Read, validate and merge a ships file; return ``{ship name: Ship}`` in file order.

    The file has a ``classes:`` mapping (shared data) and a ``ships:`` mapping; each ship names its
    ``class`` and may override any field (mappings merge key by key; lists replace). Long tons
    (``*_lt``) are converted to tonnes at :data:`LT_TO_T`. Every numeric field must carry a citation
    in ``sources``. Raises :class:`ShipDataError` naming the file, the ship and the field at fault.
    """
    path = Path(path)
    try:
        raw = load_yaml(path.read_text(encoding="utf-8"))
    except yaml.YAMLError as exc:
        raise ShipDataError(f"{path}: not valid YAML: {exc}") from exc
    except OSError as exc:
        raise ShipDataError(f"{path}: cannot read: {exc}") from exc
    if not isinstance(raw, Mapping) or not isinstance(raw.get("ships"), Mapping):
        raise ShipDataError(f"{path}: needs a top-level 'ships:' mapping (and optionally 'classes:')")
    classes = raw.get("classes") or {}
    if not isinstance(classes, Mapping):
        raise ShipDataError(f"{path}: 'classes:' must be a mapping of class name to shared data")

    ships: dict[str, Ship] = {}
    seen_names: dict[str, str] = {}
    for name, own in raw["ships"].items():
        name = str(name)
        if not isinstance(own, Mapping):
            raise ShipDataError(f"{path}: ship {name!r}: entry must be a mapping")
        own = dict(own)
        cls_name = own.pop("class", None)
        if cls_name is None:
            raise ShipDataError(f"{path}: ship {name!r}: field class: missing (every ship names its class)")
        if cls_name not in classes:
            close = difflib.get_close_matches(str(cls_name), [str(c) for c in classes], n=3)
            raise ShipDataError(
                f"{path}: ship {name!r}: field class: unknown class {cls_name!r}; close: {close}"
            )
        base = dict(classes[cls_name] or {})
        merged = _deep_merge(base, own)
        merged["sources"] = {**(base.get("sources") or {}), **(own.get("sources") or {})}
        try:
            entry = _Entry.model_validate(merged)
        except ValidationError as exc:
            raise ShipDataError(_fmt_errors(path, f"ship {name!r} (class {cls_name!r})", exc)) from exc
        missing = unsourced_fields(merged)
        if missing:
            raise ShipDataError(f"{path}: ship {name!r}: fields without a source: {', '.join(missing)}")
        for alias in [name, *entry.aka]:
            key = alias.casefold()
            if key in seen_names and seen_names[key] != name:
                raise ShipDataError(
                    f"{path}: ship {name!r}: field aka: name {alias!r} already used by {seen_names[key]!r}"
                )
            seen_names[key] = name
        ships[name] = _build(name, str(cls_name), entry, path)
    return ships


@cache
def default_ships() -> Mapping[str, Ship]:
    """The bundled ``data/ships.yaml``, loaded once (read-only mapping)."""
    return MappingProxyType(load_ships(SHIPS_FILE))


def find_ship(name: str, ships: Mapping[str, Ship] | None = None) -> Ship:
    """Look a ship up by name or alias (``aka``), ignoring case; KeyError lists close matches."""
    pool = default_ships() if ships is None else ships
    wanted = name.strip().casefold()
    for ship in pool.values():
        if ship.name.casefold() == wanted or any(a.casefold() == wanted for a in ship.aka):
            return ship
    names = [s.name for s in pool.values()] + [a for s in pool.values() for a in s.aka]
    close = difflib.get_close_matches(name, names, n=5, cutoff=0.5)
    raise KeyError(f"no ship named {name!r}; close matches: {', '.join(close) if close else 'none'}")
