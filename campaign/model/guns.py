"""The guns of the ships: reach, elevation, rate of fire, shells, muzzle velocity and outfit per gun.

The figures live in ``data/guns.yaml`` (each with its citation; the file's header gives the layout, the
units and the stand-in rules). This module checks that file, refusing every fault at once with the file,
the gun and the field named, and looks a ship's gun (``campaign.model.ships.Gun``, by its ``label`` and
``mounting``) up in it. The engines read a gun's reach here (``reach_yd``): the range at the 1914
mounting's greatest elevation, in yards.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from types import MappingProxyType
from typing import Any

import yaml

from campaign.datafile import load_yaml
from campaign.model import ballistics
from campaign.model.ships import Gun, Ship
from campaign.paths import DATA_DIR

GUNS_FILE = DATA_DIR / "guns.yaml"

SHELL_TYPES = ("ap", "apc", "sap", "sapc", "common", "pointed_common", "lyddite", "he", "shrapnel",
               "cast_iron", "practice")
"""The projectile words of the data file (the sources' own, in one spelling)."""

DERIVATION_METHODS = ("convert", "like", "same_as")
"""How a computed stand-in reach was had (data file header, REACH STAND-INS)."""

CITED_FIELDS = ("muzzle_velocity_mps", "rate_of_fire_rounds_per_min", "max_elevation_deg", "max_range_yd",
                "outfit_rounds_per_gun")
"""Fields that need a citation in ``sources`` whatever their value (``shells`` only when empty)."""

#: Plausible bounds of each figure (exclusive low, inclusive high): a figure outside is a slip of the pen
#: (metres for yards, feet for metres per second), refused.
BOUNDS: Mapping[str, tuple[float, float]] = MappingProxyType({
    "calibre_mm": (20.0, 460.0),
    "muzzle_velocity_mps": (300.0, 1100.0),
    "rate_of_fire_rounds_per_min": (0.0, 60.0),
    "max_elevation_deg": (0.0, 45.0),
    "max_range_yd": (2000.0, 35000.0),
    "outfit_rounds_per_gun": (0.0, 1000.0),
    "weight_kg": (0.0, 1000.0),
    "from_elevation_deg": (0.0, 60.0),
    "from_range_yd": (2000.0, 45000.0),
})

_ENTRY_KEYS = frozenset({"calibre_mm", "nation", "designation", "muzzle_velocity_mps", "shells",
                         "rate_of_fire_rounds_per_min", "max_elevation_deg", "max_range_yd", "reach_derivation",
                         "outfit_rounds_per_gun", "aka", "notes", "sources", "mountings"})
_MOUNTING_KEYS = _ENTRY_KEYS - {"calibre_mm", "nation", "aka", "mountings"}
STAND_IN = "stand-in:"
UNKNOWN = "unknown:"


class GunDataError(ValueError):
    """The guns file is malformed; the message names the file and, for each fault, the gun and field."""


@dataclass(frozen=True)
class Shell:
    """A projectile of the gun: its ``type`` (``SHELL_TYPES``), weight (kg) and citation."""

    type: str
    weight_kg: float
    source: str


@dataclass(frozen=True)
class ReachDerivation:
    """How a computed stand-in reach was had: ``convert`` the gun's own ``from_range_yd`` at
    ``from_elevation_deg`` to its 1914 elevation; ``like`` the named ``gun``'s form factor with this gun's
    velocity and shell; ``same_as`` the named ``gun``'s reach (``label`` or ``label@mounting``)."""

    method: str
    gun: str | None = None
    from_elevation_deg: float | None = None
    from_range_yd: float | None = None


@dataclass(frozen=True)
class GunData:
    """One gun on one mounting, as of August 1914 (units in the names; ``None`` where unknown).

    ``max_range_yd`` is the reach: the range at the mounting's ``max_elevation_deg``. ``sources`` maps each
    field to its citation (a citation starting "stand-in:" marks a figure no source gave).
    """

    label: str
    mounting: str | None
    calibre_mm: float
    nation: str
    designation: str
    muzzle_velocity_mps: float | None
    shells: tuple[Shell, ...]
    rate_of_fire_rounds_per_min: float | None
    max_elevation_deg: float | None
    max_range_yd: float
    outfit_rounds_per_gun: int | None
    reach_derivation: ReachDerivation | None = None
    aka: tuple[str, ...] = ()
    notes: str = ""
    sources: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))

    @property
    def heaviest_shell_kg(self) -> float | None:
        """The heaviest listed shell (kg), the one the range tables were drawn for; ``None`` if none."""
        return max((s.weight_kg for s in self.shells), default=None)

    def is_stand_in(self, field_name: str) -> bool:
        """Whether the figure of ``field_name`` is a labelled stand-in."""
        return self.sources.get(field_name, "").strip().lower().startswith(STAND_IN)


@dataclass(frozen=True)
class GunTable:
    """The guns of the data file by label: ``entries[label]`` is the gun on its usual mounting,
    ``mountings[label][words]`` the same gun on a mounting the file describes apart."""

    entries: Mapping[str, GunData]
    mountings: Mapping[str, Mapping[str, GunData]]
    aliases: Mapping[str, str]

    def find(self, label: str, mounting: str | None = None) -> GunData:
        """The gun ``label`` (or one of its ``aka``) on ``mounting`` (data/ships.yaml's words); KeyError
        if the file has no such gun."""
        key = self.aliases.get(label.strip().casefold())
        if key is None:
            raise KeyError(f"{GUNS_FILE.name}: no gun labelled {label!r}")
        own = self.mountings.get(key, {})
        if mounting is not None:
            found = own.get(mounting.strip().casefold())
            if found is not None:
                return found
        return self.entries[key]

    def reference(self, ref: str) -> GunData:
        """The gun a derivation names: ``label`` or ``label@mounting``."""
        label, _, mounting = ref.partition("@")
        return self.find(label, mounting or None)


# ----------------------------------------------------------------------------------------------------
# Loading


def _number(raw: Any, where: str, name: str, faults: list[str], *, null: bool = True) -> float | None:
    if raw is None:
        if not null:
            faults.append(f"{where} field {name}: missing (a number is needed)")
        return None
    if isinstance(raw, bool) or not isinstance(raw, (int, float)):
        faults.append(f"{where} field {name}: {raw!r} is not a number")
        return None
    lo, hi = BOUNDS.get(name, (float("-inf"), float("inf")))
    if not lo < float(raw) <= hi:
        faults.append(f"{where} field {name}: {raw} is outside ({lo:g}, {hi:g}]")
        return None
    return float(raw)


def _shells(raw: Any, where: str, faults: list[str]) -> tuple[Shell, ...]:
    if not isinstance(raw, list):
        faults.append(f"{where} field shells: must be a list (empty where none is known)")
        return ()
    shells = []
    for i, s in enumerate(raw):
        at = f"{where} field shells[{i}]"
        if not isinstance(s, Mapping) or set(s) != {"type", "weight_kg", "source"}:
            faults.append(f"{at}: needs exactly type, weight_kg and source")
            continue
        if s["type"] not in SHELL_TYPES:
            faults.append(f"{at}.type: {s['type']!r} is not one of {', '.join(SHELL_TYPES)}")
        weight = _number(s["weight_kg"], at, "weight_kg", faults, null=False)
        if not isinstance(s["source"], str) or len(s["source"].strip()) < 3:
            faults.append(f"{at}.source: a shell needs its citation")
        if weight is not None and s["type"] in SHELL_TYPES:
            shells.append(Shell(str(s["type"]), weight, str(s["source"])))
    return tuple(shells)


def _derivation(raw: Any, where: str, faults: list[str]) -> ReachDerivation | None:
    if raw is None:
        return None
    at = f"{where} field reach_derivation"
    if not isinstance(raw, Mapping) or raw.get("method") not in DERIVATION_METHODS:
        faults.append(f"{at}: needs a method, one of {', '.join(DERIVATION_METHODS)}")
        return None
    method = raw["method"]
    if method == "convert":
        if set(raw) != {"method", "from_elevation_deg", "from_range_yd"}:
            faults.append(f"{at}: 'convert' takes exactly from_elevation_deg and from_range_yd")
            return None
        elev = _number(raw["from_elevation_deg"], at, "from_elevation_deg", faults, null=False)
        rng = _number(raw["from_range_yd"], at, "from_range_yd", faults, null=False)
        return ReachDerivation(method, None, elev, rng) if elev is not None and rng is not None else None
    if set(raw) != {"method", "gun"} or not isinstance(raw["gun"], str):
        faults.append(f"{at}: {method!r} takes exactly the gun it follows (label or label@mounting)")
        return None
    return ReachDerivation(method, raw["gun"])


def _sourced(data: Mapping[str, Any], values: Mapping[str, Any], where: str, faults: list[str]) -> None:
    """Every cited field has a citation; a null one says "unknown:", a figure does not."""
    sources = data.get("sources")
    if not isinstance(sources, Mapping):
        faults.append(f"{where} field sources: missing (every field needs its citation)")
        return
    for name, value in values.items():
        cite = sources.get(name)
        if not isinstance(cite, str) or len(cite.strip()) < 3:
            faults.append(f"{where} field {name}: no citation in sources")
        elif value is None and not cite.strip().lower().startswith(UNKNOWN):
            faults.append(f"{where} field {name}: null, so its citation must start with '{UNKNOWN}'")
        elif value is not None and cite.strip().lower().startswith(UNKNOWN):
            faults.append(f"{where} field {name}: a figure is given but its citation says '{UNKNOWN}'")
    if data.get("reach_derivation") is not None:
        cite = str(sources.get("max_range_yd", "")).strip().lower()
        if not cite.startswith(STAND_IN):
            faults.append(f"{where} field max_range_yd: a derived reach is a stand-in; its citation must start "
                          f"with '{STAND_IN}'")


def _gun(label: str, mounting: str | None, data: Mapping[str, Any], base: GunData | None,
         where: str, faults: list[str]) -> GunData | None:
    allowed = _MOUNTING_KEYS if base is not None else _ENTRY_KEYS
    for key in set(data) - allowed:
        faults.append(f"{where} field {key}: not a field of a gun{' mounting' if base else ''}")
    merged: dict[str, Any] = {}
    if base is not None:
        merged.update({k: getattr(base, k) for k in ("designation", "muzzle_velocity_mps",
                                                      "rate_of_fire_rounds_per_min", "max_elevation_deg",
                                                      "max_range_yd", "outfit_rounds_per_gun")})
    n_before = len(faults)
    calibre = base.calibre_mm if base else _number(data.get("calibre_mm"), where, "calibre_mm", faults,
                                                    null=False)
    nation = base.nation if base else data.get("nation")
    if not isinstance(nation, str) or not nation.strip():
        faults.append(f"{where} field nation: missing")
    designation = data.get("designation", merged.get("designation"))
    if not isinstance(designation, str) or not designation.strip():
        faults.append(f"{where} field designation: missing")
    values: dict[str, Any] = {}
    refused: set[str] = set()  # fields whose value was refused above: their citation is not judged
    for name in CITED_FIELDS:
        if name in data:
            before = len(faults)
            values[name] = _number(data[name], where, name, faults, null=name != "max_range_yd")
            if len(faults) > before:
                refused.add(name)
        elif base is None:
            faults.append(f"{where} field {name}: missing (null with an 'unknown:' citation where unknown)")
            values[name] = None
        else:
            values[name] = merged[name]
    outfit = values["outfit_rounds_per_gun"]
    if outfit is not None and outfit != int(outfit):
        faults.append(f"{where} field outfit_rounds_per_gun: {outfit} is not a whole number of rounds")
    shells = _shells(data["shells"], where, faults) if "shells" in data else (base.shells if base else None)
    if shells is None:
        faults.append(f"{where} field shells: missing (an empty list with an 'unknown:' citation)")
        shells = ()
    derivation = _derivation(data.get("reach_derivation"), where, faults) if "reach_derivation" in data \
        else (base.reach_derivation if base else None)
    sources = {**(dict(base.sources) if base else {}), **dict(data.get("sources") or {})}
    cited = {n: values[n] for n in CITED_FIELDS if (base is None or n in data) and n not in refused}
    if data.get("shells") == [] or (base is None and "shells" not in data):
        cited["shells"] = None
    _sourced({"sources": sources, "reach_derivation": data.get("reach_derivation")}, cited, where, faults)
    aka = data.get("aka", [])
    if not isinstance(aka, list) or not all(isinstance(a, str) for a in aka):
        faults.append(f"{where} field aka: must be a list of labels")
        aka = []
    if len(faults) > n_before or calibre is None or values["max_range_yd"] is None:
        return None
    return GunData(label=label, mounting=mounting, calibre_mm=calibre, nation=str(nation),
                   designation=str(designation), muzzle_velocity_mps=values["muzzle_velocity_mps"],
                   shells=shells, rate_of_fire_rounds_per_min=values["rate_of_fire_rounds_per_min"],
                   max_elevation_deg=values["max_elevation_deg"], max_range_yd=values["max_range_yd"],
                   outfit_rounds_per_gun=None if outfit is None else int(outfit), reach_derivation=derivation,
                   aka=tuple(aka) if base is None else base.aka, notes=str(data.get("notes") or ""),
                   sources=MappingProxyType(sources))


def _check_derivations(table: GunTable, faults: list[str]) -> None:
    """A derivation names a gun the file has, and has what it needs to be computed."""
    every = [*table.entries.values(), *(g for m in table.mountings.values() for g in m.values())]
    for g in every:
        d = g.reach_derivation
        where = f"gun {g.label!r}" + (f" mounting {g.mounting!r}" if g.mounting else "")
        if d is None:
            continue
        if d.method in ("convert", "like") and (g.muzzle_velocity_mps is None or not g.shells
                                                or g.max_elevation_deg is None):
            faults.append(f"{where} field reach_derivation: {d.method!r} needs the gun's muzzle velocity, a "
                          f"shell and max_elevation_deg")
        if d.gun is not None:
            try:
                ref = table.reference(d.gun)
            except KeyError:
                if d.gun.partition("@")[0].strip().casefold() not in table.aliases:  # else its own faults said
                    faults.append(f"{where} field reach_derivation: no gun {d.gun!r} in the file")
                continue
            if ref is g:
                faults.append(f"{where} field reach_derivation: a gun cannot follow itself")
            elif d.method == "like" and (ref.muzzle_velocity_mps is None or not ref.shells
                                         or ref.max_elevation_deg is None):
                faults.append(f"{where} field reach_derivation: {d.gun!r} has no velocity, shell and elevation "
                              f"to lend its form factor")


def parse_guns(raw: Any, path: Path = GUNS_FILE) -> GunTable:
    """Build the gun table from the parsed YAML ``raw``; :class:`GunDataError` lists every fault found."""
    if not isinstance(raw, Mapping) or not isinstance(raw.get("guns"), Mapping):
        raise GunDataError(f"{path}: needs a top-level 'guns:' mapping of gun label to data")
    faults: list[str] = []
    entries: dict[str, GunData] = {}
    mountings: dict[str, dict[str, GunData]] = {}
    aliases: dict[str, str] = {}
    for label, data in raw["guns"].items():
        label = str(label)
        where = f"gun {label!r}"
        if not isinstance(data, Mapping):
            faults.append(f"{where}: entry must be a mapping")
            continue
        base = _gun(label, None, data, None, where, faults)
        for name in [label, *(data.get("aka") or [])]:
            key = str(name).strip().casefold()
            if key in aliases and aliases[key] != label:
                faults.append(f"{where} field aka: label {name!r} already used by {aliases[key]!r}")
            aliases[key] = label
        if base is None:
            continue
        entries[label] = base
        own: dict[str, GunData] = {}
        for words, over in (data.get("mountings") or {}).items():
            at = f"{where} mounting {words!r}"
            if not isinstance(over, Mapping):
                faults.append(f"{at}: must be a mapping of fields")
                continue
            found = _gun(label, str(words), over, base, at, faults)
            if found is not None:
                own[str(words).strip().casefold()] = found
        if own:
            mountings[label] = own
    table = GunTable(MappingProxyType(entries),
                     MappingProxyType({k: MappingProxyType(v) for k, v in mountings.items()}),
                     MappingProxyType(aliases))
    _check_derivations(table, faults)
    if faults:
        raise GunDataError(f"{path}: {len(faults)} fault(s):\n  " + "\n  ".join(faults))
    return table


def load_guns(path: str | Path = GUNS_FILE) -> GunTable:
    """Read and check a guns file (default ``data/guns.yaml``); :class:`GunDataError` lists every fault."""
    path = Path(path)
    try:
        raw = load_yaml(path.read_text(encoding="utf-8"))
    except yaml.YAMLError as exc:
        raise GunDataError(f"{path}: not valid YAML: {exc}") from exc
    except OSError as exc:
        raise GunDataError(f"{path}: cannot read: {exc}") from exc
    return parse_guns(raw, path)


@cache
def default_guns() -> GunTable:
    """The bundled ``data/guns.yaml``, read once."""
    return load_guns(GUNS_FILE)


def gun_data(gun: Gun, table: GunTable | None = None) -> GunData:
    """The data of a ship's gun group (by its ``label`` and ``mounting``); KeyError if the file lacks it."""
    return (table or default_guns()).find(gun.label, gun.mounting)


def reach_yd(gun: Gun, table: GunTable | None = None) -> float:
    """How far a ship's gun group fires (yd): its mounting's range at its 1914 greatest elevation."""
    return gun_data(gun, table).max_range_yd


def longest_reach_yd(ship: Ship, table: GunTable | None = None) -> float:
    """The reach of her longest-ranged gun (yd); 0 for a ship without guns."""
    return max((reach_yd(g, table) for g in ship.guns), default=0.0)


def reach_up_to_calibre_yd(ship: Ship, calibre_mm: float, table: GunTable | None = None) -> float:
    """The longest reach (yd) of her guns of ``calibre_mm`` and below: her reach once her heavier guns are
    out of action (an engine that tracks her guns by calibre, as the board engine's damage boxes do)."""
    return max((reach_yd(g, table) for g in ship.guns if g.calibre_mm <= calibre_mm), default=0.0)


def published_pair(g: GunData) -> tuple[float, float] | None:
    """(elevation deg, range yd) a source printed for the gun: its ``convert`` derivation's, or its own
    elevation and reach where these are not derived; ``None`` for a reach taken from another gun."""
    d = g.reach_derivation
    if d is None:
        return None if g.max_elevation_deg is None else (g.max_elevation_deg, g.max_range_yd)
    if d.method == "convert" and d.from_elevation_deg is not None and d.from_range_yd is not None:
        return d.from_elevation_deg, d.from_range_yd
    return None


def form_factor(g: GunData) -> float:
    """The drag form factor fitted to the gun's published range (``campaign.model.ballistics``)."""
    pair = published_pair(g)
    shell_kg = g.heaviest_shell_kg
    if pair is None or g.muzzle_velocity_mps is None or shell_kg is None:
        raise ValueError(f"gun {g.label!r} has no published range, velocity and shell to fit a form factor to")
    return ballistics.fit_form_factor(g.muzzle_velocity_mps, pair[0], pair[1] * ballistics.M_PER_YD, shell_kg,
                                      g.calibre_mm)


def derived_reach_yd(g: GunData, table: GunTable | None = None) -> float | None:
    """The reach its ``reach_derivation`` gives (yd), recomputed; ``None`` for a reach read from a source."""
    d = g.reach_derivation
    if d is None:
        return None
    table = table or default_guns()
    if d.method == "same_as":
        return table.reference(str(d.gun)).max_range_yd
    ff = form_factor(g) if d.method == "convert" else form_factor(table.reference(str(d.gun)))
    if g.muzzle_velocity_mps is None or g.max_elevation_deg is None or g.heaviest_shell_kg is None:
        raise ValueError(f"gun {g.label!r}: a computed reach needs velocity, elevation and shell")
    return ballistics.range_m(g.muzzle_velocity_mps, g.max_elevation_deg, g.heaviest_shell_kg, g.calibre_mm,
                              ff) / ballistics.M_PER_YD


def guns_without_data(ships: Iterable[Ship], table: GunTable | None = None) -> list[tuple[str, str]]:
    """(ship, gun label) of every gun group the file does not describe (empty when all are)."""
    missing = []
    for ship in ships:
        for g in ship.guns:
            try:
                gun_data(g, table)
            except KeyError:
                missing.append((ship.name, g.label))
    return missing
