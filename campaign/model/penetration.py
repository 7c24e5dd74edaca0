"""Armour penetration: the plate of Krupp cemented armour a shell perforates at a range and obliquity.

The figures live in ``data/penetration.yaml`` (each with its citation). Krupp's formula for Krupp cemented
armour gives the plate perforated at normal impact,

    b_mm = 100 * v * sqrt(P) / (K * sqrt(d_mm / 100)),   K = 2400,

with ``v`` the striking velocity (m/s) and ``P`` the shell's weight (kg); a kind of shell pierces its
factor of that (common shell half, after Jane's grades), and a plate struck at obliquity ``q`` from its
normal resists as ``thickness / cos(q) ** n``. The striking velocity and angle of fall at a range come from
the gun's trajectory (``campaign.model.ballistics``, with the muzzle velocity, shell and drag form factor of
``data/guns.yaml``), tabulated once per shell (``StrikingTable``) so that an engine may ask at every hit.

A gun the guns file gives no velocity, shell or published range is filled from the gun its reach is taken
from (``reach_derivation``; a borrowed shell scaled by the cube of the calibres) or from a labelled
stand-in of the penetration file (``gaps``). ``shell_for(gun, "ap" | "common")`` is the one public door for
an engine: the ``Shell`` a ship's gun fires of that kind, or None if it has none.
"""

from __future__ import annotations

import bisect
import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from types import MappingProxyType
from typing import Any

import numpy as np
import yaml

from campaign.datafile import load_yaml
from campaign.model import ballistics
from campaign.model.guns import SHELL_TYPES, GunData, GunTable, default_guns, gun_data, published_pair
from campaign.model.ships import Gun
from campaign.paths import DATA_DIR

PENETRATION_FILE = DATA_DIR / "penetration.yaml"
STAND_IN = "stand-in:"
KINDS = ("ap", "common")
"""What an engine asks a gun for: its armour-piercing shell or its common (HE) shell."""

#: Elevations (deg) of the trajectories a ``StrikingTable`` is interpolated in: fine at the low
#: elevations of battle ranges (about 250 yd apart for a heavy gun), then every half degree.
_TABLE_ELEVATIONS_DEG = tuple(round(0.05 * i, 2) for i in range(1, 101)) + tuple(
    round(5.0 + 0.5 * i, 1) for i in range(1, 81))


class PenetrationDataError(ValueError):
    """The penetration file is malformed; the message names the file and each field at fault."""


@dataclass(frozen=True)
class GapFill:
    """A stand-in for a gun the guns file leaves without a figure the penetration wants."""

    muzzle_velocity_mps: float | None = None
    form_factor_from: str | None = None
    shell_type: str | None = None
    shell_kg: float | None = None


@dataclass(frozen=True)
class Check:
    """A penetration the period printed: the gun, shell and range, the plate, and how it is to compare
    (``equal`` within the tolerance, or ``over``: at least the plate, within the tolerance above it)."""

    name: str
    calibre_mm: float
    shell_type: str
    shell_kg: float
    muzzle_velocity_mps: float
    form_factor_gun: str
    range_yd: float
    published_mm: float
    relation: str
    source: str


@dataclass(frozen=True)
class PenetrationRules:
    """The penetration file: the formula's constant, the obliquity exponent, the factor of each kind of
    shell, the kinds a gun fires at armour in order of preference, the gap stand-ins and the checks."""

    k_krupp_cemented: float
    obliquity_exponent: float
    shell_factors: Mapping[str, float]
    armour_piercing: tuple[str, ...]
    common: tuple[str, ...]
    gaps: Mapping[str, GapFill]
    tolerance_fraction: float
    checks: tuple[Check, ...]
    sources: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))


@dataclass(frozen=True)
class Shell:
    """One shell a gun fires, with what its flight and penetration want (units in the names). ``notes``
    says where any figure not the gun's own came from."""

    gun: str
    type: str
    shell_kg: float
    calibre_mm: float
    muzzle_velocity_mps: float
    form_factor: float
    factor: float
    max_elevation_deg: float = 45.0
    notes: str = ""


# ----------------------------------------------------------------------------------------------------
# The formula


def krupp_mm(velocity_mps: float, shell_kg: float, calibre_mm: float, k: float = 2400.0) -> float:
    """Krupp cemented plate (mm) perforated at normal impact by a shell of ``shell_kg`` and ``calibre_mm``
    striking at ``velocity_mps``: Krupp's formula (data/penetration.yaml, formula)."""
    if velocity_mps <= 0.0:
        return 0.0
    if shell_kg <= 0.0 or calibre_mm <= 0.0 or k <= 0.0:
        raise ValueError("krupp_mm needs a positive shell weight, calibre and constant")
    return 100.0 * velocity_mps * math.sqrt(shell_kg) / (k * math.sqrt(calibre_mm / 100.0))


def obliquity_factor(obliquity_deg: float, exponent: float = 1.0) -> float:
    """``cos(obliquity) ** exponent``: the share of its normal penetration a shell keeps against a plate
    struck ``obliquity_deg`` from its normal (0 at or beyond 90 degrees: it glances off)."""
    c = math.cos(math.radians(abs(obliquity_deg)))
    return c ** exponent if c > 1e-12 else 0.0


def plate_obliquity_deg(fall_deg: float, plan_deg: float = 0.0, deck: bool = False) -> float:
    """Obliquity (deg from the plate's normal) of a shell falling at ``fall_deg``: on a vertical plate
    turned ``plan_deg`` in plan from square to the line of fire, ``acos(cos(fall) * cos(plan))``; on a
    deck, 90 degrees less the angle of fall."""
    if deck:
        return max(0.0, 90.0 - fall_deg)
    c = math.cos(math.radians(fall_deg)) * math.cos(math.radians(plan_deg))
    return math.degrees(math.acos(max(-1.0, min(1.0, c))))


def penetration_mm(rules: PenetrationRules, velocity_mps: float, shell_kg: float, calibre_mm: float,
                   shell_type: str, obliquity_deg: float = 0.0) -> float:
    """Plate (mm, measured square to its face) the shell perforates: Krupp's formula times the kind's
    factor times ``obliquity_factor``. ValueError for a kind not fired at armour."""
    factor = rules.shell_factors.get(shell_type)
    if factor is None:
        raise ValueError(f"{PENETRATION_FILE.name}: no shell factor for {shell_type!r} "
                         f"(kinds fired at armour: {', '.join(rules.shell_factors)})")
    return (krupp_mm(velocity_mps, shell_kg, calibre_mm, rules.k_krupp_cemented) * factor
            * obliquity_factor(obliquity_deg, rules.obliquity_exponent))


# ----------------------------------------------------------------------------------------------------
# Striking velocity and angle of fall


@dataclass(frozen=True)
class StrikingTable:
    """Striking velocity (m/s) and angle of fall (deg) by range (yd), of one shell's trajectories fired
    at ``_TABLE_ELEVATIONS_DEG`` up to its mounting's elevation (``ballistics.impact``'s integration, all
    at once), linear between; ``reach_yd`` the longest range tabulated."""

    range_yd: tuple[float, ...]
    velocity_mps: tuple[float, ...]
    fall_deg: tuple[float, ...]

    @property
    def reach_yd(self) -> float:
        return self.range_yd[-1]

    def at(self, range_yd: float) -> tuple[float, float]:
        """(striking velocity m/s, angle of fall deg) at ``range_yd`` (the last row's beyond the table)."""
        xs = self.range_yd
        if range_yd <= xs[0]:
            return self.velocity_mps[0], self.fall_deg[0]
        if range_yd >= xs[-1]:
            return self.velocity_mps[-1], self.fall_deg[-1]
        i = bisect.bisect_right(xs, range_yd)
        t = (range_yd - xs[i - 1]) / (xs[i] - xs[i - 1])
        v = self.velocity_mps[i - 1] + t * (self.velocity_mps[i] - self.velocity_mps[i - 1])
        f = self.fall_deg[i - 1] + t * (self.fall_deg[i] - self.fall_deg[i - 1])
        return v, f


@cache
def striking_table(muzzle_velocity_mps: float, shell_kg: float, calibre_mm: float, form_factor_: float,
                   max_elevation_deg: float = 45.0) -> StrikingTable:
    """The ``StrikingTable`` of a shell fired at up to ``max_elevation_deg`` (its mounting's), integrated
    as ``ballistics.impact`` does (same air, drag law and step) for every elevation at once; kept per
    shell."""
    top = min(45.0, max(1.0, max_elevation_deg))
    elev = np.radians(np.array([e for e in _TABLE_ELEVATIONS_DEG if e < top] + [top]))
    n = len(elev)
    area_m2 = math.pi * (calibre_mm / 2000.0) ** 2
    x = np.zeros(n)
    y = np.zeros(n)
    vx = muzzle_velocity_mps * np.cos(elev)
    vy = muzzle_velocity_mps * np.sin(elev)
    out_x = np.full(n, np.nan)
    out_v = np.full(n, np.nan)
    out_f = np.full(n, np.nan)
    flying = np.ones(n, dtype=bool)
    mach = np.array([m for m, _ in ballistics.G1_CD])
    cd = np.array([c for _, c in ballistics.G1_CD])
    dt = ballistics.STEP_S
    while flying.any():
        hi = y < 11000.0
        temp_k = np.where(hi, 288.15 - 0.0065 * y, 216.65)
        rho = np.where(hi, 1.225 * (np.maximum(temp_k, 1.0) / 288.15) ** 4.256,
                       0.3639 * np.exp(-(y - 11000.0) / 6341.0))
        sound = np.sqrt(1.4 * 287.05 * temp_k)
        v = np.hypot(vx, vy)
        k = 0.5 * rho * v * area_m2 * np.interp(v / sound, mach, cd) * form_factor_ / shell_kg
        nx, ny = x + vx * dt, y + vy * dt
        lands = flying & (ny < 0.0) & (vy < 0.0)
        if lands.any():
            out_x[lands] = x[lands] + vx[lands] * dt * (y[lands] / (y[lands] - ny[lands]))
            out_v[lands] = v[lands]
            out_f[lands] = np.degrees(np.arctan2(-vy[lands], vx[lands]))
            flying &= ~lands
        x, y = nx, ny
        vx = vx - k * vx * dt
        vy = vy - (ballistics.GRAVITY_MPS2 + k * vy) * dt
    rows = [(0.0, muzzle_velocity_mps, 0.0)]
    for r, v, f in zip(out_x / ballistics.M_PER_YD, out_v, out_f):
        if r > rows[-1][0]:  # past the greatest range the range falls again: the table stops there
            rows.append((float(r), float(v), float(f)))
        else:
            break
    return StrikingTable(tuple(r for r, _, _ in rows), tuple(v for _, v, _ in rows),
                         tuple(f for _, _, f in rows))


def striking(shell: Shell, range_yd: float) -> tuple[float, float]:
    """(striking velocity m/s, angle of fall deg) of ``shell`` at ``range_yd``."""
    return striking_table(shell.muzzle_velocity_mps, shell.shell_kg, shell.calibre_mm,
                          shell.form_factor, shell.max_elevation_deg).at(range_yd)


def penetration_at_mm(rules: PenetrationRules, shell: Shell, range_yd: float, plan_deg: float = 0.0,
                      deck: bool = False) -> float:
    """Plate (mm) ``shell`` perforates at ``range_yd``: on a vertical plate turned ``plan_deg`` from square
    to the line of fire, or on a deck (``plate_obliquity_deg`` with the angle of fall there)."""
    v, fall = striking(shell, range_yd)
    q = plate_obliquity_deg(fall, plan_deg, deck)
    return (krupp_mm(v, shell.shell_kg, shell.calibre_mm, rules.k_krupp_cemented) * shell.factor
            * obliquity_factor(q, rules.obliquity_exponent))


def perforates(rules: PenetrationRules, shell: Shell, thickness_mm: float | None, range_yd: float,
               plan_deg: float = 0.0, deck: bool = False) -> bool:
    """Whether ``shell`` gets through a plate ``thickness_mm`` thick (no plate: always)."""
    if not thickness_mm or thickness_mm <= 0.0:
        return True
    return penetration_at_mm(rules, shell, range_yd, plan_deg, deck) >= thickness_mm


# ----------------------------------------------------------------------------------------------------
# A gun's shells


def _resolve(g: GunData, table: GunTable, rules: PenetrationRules) -> tuple[float | None, float | None,
                                                                              list[tuple[str, float]], str]:
    """(muzzle velocity, form factor, [(shell type, kg)], notes) of a gun, its gaps filled from the file's
    stand-ins and then from the gun its reach is taken from (a borrowed shell scaled by the cube of the
    calibres); the form factor fitted to its own published range where it has one, else borrowed."""
    key = (g.label, g.mounting, id(table), id(rules))
    found = _RESOLVED.get(key)
    if found is None:
        found = _RESOLVED[key] = _resolve_uncached(g, table, rules)
    return found


_RESOLVED: dict[tuple[str, str | None, int, int], tuple[float | None, float | None, list[tuple[str, float]],
                                                         str]] = {}


def _fit(g: GunData, v: float | None, shells: list[tuple[str, float]]) -> float | None:
    """The gun's drag form factor fitted to its own published range (``guns.form_factor``'s fit, with
    ``v`` and the heaviest of ``shells`` where the guns file lacks them); None without a published range."""
    pair = published_pair(g)
    if pair is None or v is None or not shells:
        return None
    return ballistics.fit_form_factor(v, pair[0], pair[1] * ballistics.M_PER_YD, max(kg for _, kg in shells),
                                      g.calibre_mm)


def _resolve_uncached(g: GunData, table: GunTable, rules: PenetrationRules) -> tuple[
        float | None, float | None, list[tuple[str, float]], str]:
    v = g.muzzle_velocity_mps
    shells = [(s.type, s.weight_kg) for s in g.shells]
    notes: list[str] = []
    ff_from: str | None = None
    gap = rules.gaps.get(g.label)
    if gap is not None:
        if v is None and gap.muzzle_velocity_mps is not None:
            v = gap.muzzle_velocity_mps
            notes.append("velocity: stand-in (penetration file)")
        if not shells and gap.shell_kg is not None:
            shells = [(gap.shell_type or "ap", gap.shell_kg)]
            notes.append("shell: stand-in (penetration file)")
        ff_from = gap.form_factor_from
    ff = _fit(g, v, shells)
    if ff is None and ff_from is not None:
        ff = _resolve(table.reference(ff_from), table, rules)[1]
        notes.append(f"form factor: {ff_from}'s (penetration file)")
    seen = {id(g)}
    ref = g
    while (v is None or ff is None or not shells) and ref.reach_derivation is not None \
            and ref.reach_derivation.gun is not None:
        ref = table.reference(ref.reach_derivation.gun)
        if id(ref) in seen:
            break
        seen.add(id(ref))
        ref_v, ref_ff, ref_shells, _ = _resolve(ref, table, rules)
        if v is None and ref_v is not None:
            v = ref_v
            notes.append(f"velocity: {ref.label}'s")
        if not shells and ref_shells:
            scale = (g.calibre_mm / ref.calibre_mm) ** 3
            shells = [(t, kg * scale) for t, kg in ref_shells]
            notes.append(f"shells: {ref.label}'s scaled by (calibre ratio) ** 3")
        if ff is None:
            ff = _fit(g, v, shells)
        if ff is None and ref_ff is not None:
            ff = ref_ff
            notes.append(f"form factor: {ref.label}'s")
    return v, ff, shells, "; ".join(notes)


def gun_shell(g: GunData, kind: str, rules: PenetrationRules | None = None,
              table: GunTable | None = None) -> Shell | None:
    """The shell of ``kind`` ("ap": its armour-piercing shell, "common": its common/HE shell) the gun
    fires at armour, the first of the file's preference list it carries; None if it carries none or its
    velocity or drag cannot be had."""
    if kind not in KINDS:
        raise ValueError(f"kind must be one of {KINDS}, got {kind!r}")
    rules = rules or default_penetration()
    table = table or default_guns()
    v, ff, shells, notes = _resolve(g, table, rules)
    if v is None or ff is None:
        return None
    by_type = {t: kg for t, kg in reversed(shells)}  # the first listed of a type
    for t in (rules.armour_piercing if kind == "ap" else rules.common):
        if t in by_type:
            return Shell(gun=g.label, type=t, shell_kg=by_type[t], calibre_mm=g.calibre_mm,
                         muzzle_velocity_mps=v, form_factor=ff, factor=rules.shell_factors[t],
                         max_elevation_deg=g.max_elevation_deg or 45.0, notes=notes)
    return None


@cache
def _shell_for(label: str, mounting: str | None, kind: str) -> Shell | None:
    return gun_shell(default_guns().find(label, mounting), kind)


def shell_for(gun: Gun, kind: str) -> Shell | None:
    """``gun_shell`` of a ship's gun group (by its label and mounting) with the bundled files, kept."""
    gun_data(gun)  # KeyError naming the guns file if it lacks the gun
    return _shell_for(gun.label, gun.mounting, kind)


# ----------------------------------------------------------------------------------------------------
# Loading


def _number(raw: Any, where: str, faults: list[str], *, positive: bool = True) -> float | None:
    if isinstance(raw, bool) or not isinstance(raw, (int, float)):
        faults.append(f"{where}: {raw!r} is not a number")
        return None
    if positive and not raw > 0:
        faults.append(f"{where}: {raw} must be positive")
        return None
    return float(raw)


def _cited(data: Mapping[str, Any], names: list[str], where: str, faults: list[str]) -> dict[str, str]:
    sources = data.get("sources")
    if not isinstance(sources, Mapping):
        faults.append(f"{where} field sources: missing (every figure needs its citation)")
        return {}
    out = {}
    for name in names:
        cite = sources.get(name)
        if not isinstance(cite, str) or len(cite.strip()) < 3:
            faults.append(f"{where} field {name}: no citation in sources")
        else:
            out[f"{where}.{name}"] = cite
    return out


def parse_penetration(raw: Any, path: Path = PENETRATION_FILE) -> PenetrationRules:
    """Build the rules from the parsed YAML ``raw``; :class:`PenetrationDataError` lists every fault."""
    if not isinstance(raw, Mapping):
        raise PenetrationDataError(f"{path}: needs a mapping with formula, obliquity, shell_factors, ...")
    faults: list[str] = []
    sources: dict[str, str] = {}

    def section(name: str) -> Mapping[str, Any]:
        s = raw.get(name)
        if not isinstance(s, Mapping):
            faults.append(f"field {name}: missing or not a mapping")
            return {}
        return s

    formula = section("formula")
    if formula and formula.get("name") != "krupp":
        faults.append(f"field formula.name: {formula.get('name')!r} is not 'krupp' (the one formula known)")
    k = (_number(formula.get("k_krupp_cemented"), "field formula.k_krupp_cemented", faults)
         if formula else None)
    sources.update(_cited(formula, ["form", "k_krupp_cemented"], "formula", faults) if formula else {})
    obl = section("obliquity")
    n = _number(obl.get("exponent"), "field obliquity.exponent", faults) if obl else None
    sources.update(_cited(obl, ["exponent"], "obliquity", faults) if obl else {})
    factors_raw = section("shell_factors")
    factors: dict[str, float] = {}
    for t, f in factors_raw.items():
        if t == "sources":
            continue
        if t not in SHELL_TYPES:
            faults.append(f"field shell_factors.{t}: not a projectile word of the guns file "
                          f"({', '.join(SHELL_TYPES)})")
            continue
        val = _number(f, f"field shell_factors.{t}", faults)
        if val is not None:
            if val > 2.0:
                faults.append(f"field shell_factors.{t}: {val} is above 2 (a slip of the pen?)")
            factors[t] = val
    if factors_raw:
        sources.update(_cited(factors_raw, list(factors), "shell_factors", faults))
    orders = {}
    for name in ("armour_piercing", "common"):
        lst = raw.get(name)
        if not isinstance(lst, list) or not lst:
            faults.append(f"field {name}: needs a list of shell types")
            orders[name] = ()
            continue
        for t in lst:
            if t not in factors:
                faults.append(f"field {name}: {t!r} has no shell factor")
        orders[name] = tuple(str(t) for t in lst)
    gaps: dict[str, GapFill] = {}
    for label, gdata in (section("gaps").get("guns") or {}).items():
        where = f"field gaps.guns.{label}"
        if not isinstance(gdata, Mapping):
            faults.append(f"{where}: must be a mapping")
            continue
        keys = {"muzzle_velocity_mps", "form_factor_from", "shell_type", "shell_kg", "sources"}
        for key in set(gdata) - keys:
            faults.append(f"{where}.{key}: not a field of a gap stand-in")
        fill = GapFill(
            muzzle_velocity_mps=_number(gdata["muzzle_velocity_mps"], f"{where}.muzzle_velocity_mps", faults)
            if "muzzle_velocity_mps" in gdata else None,
            form_factor_from=str(gdata["form_factor_from"]) if "form_factor_from" in gdata else None,
            shell_type=str(gdata["shell_type"]) if "shell_type" in gdata else None,
            shell_kg=_number(gdata["shell_kg"], f"{where}.shell_kg", faults) if "shell_kg" in gdata else None)
        if fill.shell_type is not None and fill.shell_type not in factors:
            faults.append(f"{where}.shell_type: {fill.shell_type!r} has no shell factor")
        named = [k_ for k_ in keys - {"sources"} if k_ in gdata]
        cites = _cited(gdata, named, where, faults)
        for key, cite in cites.items():
            if not cite.strip().lower().startswith(STAND_IN):
                faults.append(f"{key}: a gap filled here is a stand-in; its citation must start with "
                              f"'{STAND_IN}'")
        sources.update(cites)
        gaps[str(label)] = fill
    checks_raw = section("checks")
    tol = _number(checks_raw.get("tolerance_fraction"), "field checks.tolerance_fraction", faults) \
        if checks_raw else None
    checks: list[Check] = []
    for i, c in enumerate(checks_raw.get("cases") or []):
        where = f"field checks.cases[{i}]"
        need = ("name", "calibre_mm", "shell_type", "shell_kg", "muzzle_velocity_mps", "form_factor_gun",
                "range_yd", "published_mm", "relation", "source")
        if not isinstance(c, Mapping) or set(c) != set(need):
            faults.append(f"{where}: needs exactly {', '.join(need)}")
            continue
        nums = {f: _number(c[f], f"{where}.{f}", faults) for f in
                ("calibre_mm", "shell_kg", "muzzle_velocity_mps", "range_yd", "published_mm")}
        if c["relation"] not in ("equal", "over"):
            faults.append(f"{where}.relation: {c['relation']!r} is not 'equal' or 'over'")
        if c["shell_type"] not in factors:
            faults.append(f"{where}.shell_type: {c['shell_type']!r} has no shell factor")
        if not isinstance(c["source"], str) or len(c["source"].strip()) < 3:
            faults.append(f"{where}.source: a check needs its citation")
        if all(v is not None for v in nums.values()):
            checks.append(Check(str(c["name"]), nums["calibre_mm"], str(c["shell_type"]), nums["shell_kg"],
                                nums["muzzle_velocity_mps"], str(c["form_factor_gun"]), nums["range_yd"],
                                nums["published_mm"], str(c["relation"]), str(c["source"])))
    if faults:
        raise PenetrationDataError(f"{path}: {len(faults)} fault(s):\n  " + "\n  ".join(faults))
    assert k is not None and n is not None and tol is not None
    return PenetrationRules(k_krupp_cemented=k, obliquity_exponent=n, shell_factors=MappingProxyType(factors),
                            armour_piercing=orders["armour_piercing"], common=orders["common"],
                            gaps=MappingProxyType(gaps), tolerance_fraction=tol, checks=tuple(checks),
                            sources=MappingProxyType(sources))


def load_penetration(path: str | Path = PENETRATION_FILE) -> PenetrationRules:
    """Read and check a penetration file (default ``data/penetration.yaml``)."""
    path = Path(path)
    try:
        raw = load_yaml(path.read_text(encoding="utf-8"))
    except yaml.YAMLError as exc:
        raise PenetrationDataError(f"{path}: not valid YAML: {exc}") from exc
    except OSError as exc:
        raise PenetrationDataError(f"{path}: cannot read: {exc}") from exc
    return parse_penetration(raw, path)


@cache
def default_penetration() -> PenetrationRules:
    """The bundled ``data/penetration.yaml``, read once."""
    return load_penetration(PENETRATION_FILE)
