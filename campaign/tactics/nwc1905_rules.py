"""The NWC 1905 war-game rules of ``data/tactics/nwc1905.yaml`` as an immutable record.

Every figure is the data file's, where each carries its citation (seed 002, the Naval War College's
1905 "Rules for the Conduct of the War Games") or its STAND-IN reasoning. This module only reads and
checks the file; ``nwc1905_fire`` and ``nwc1905`` apply the rules.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType
from typing import Any

import yaml

from campaign.datafile import load_yaml
from campaign.paths import DATA_DIR
from campaign.tactics.kinematics import points_to_deg

RULES_FILE = DATA_DIR / "tactics" / "nwc1905.yaml"

FIRE_BASES = ("battery", "type")
LAST_RANGES = ("tables", "wand")  # where scoring stops: the fire-effect tables or the fleet game's wand
RESISTANCES = ("none", "armour")  # target resistance: as printed, or by the main belt


class RulesError(ValueError):
    """The rules file is malformed; the message names the file and the field."""


@dataclass(frozen=True)
class GunClass:
    """One of the rules' gun classes: ``name`` ("12-inch"), nominal ``calibre_in``, the smallest
    calibre in mm that counts in it, and its value in 8-inch guns."""

    name: str
    calibre_in: float
    min_mm: float
    value_8in: float


@dataclass(frozen=True)
class Nwc1905Rules:
    """The rules, in seconds, yards, knots, degrees and points (see the data file for each source)."""

    fleet_move_s: float
    duel_move_s: float
    melee_range_yd: float
    integration_step_s: float
    fleet_16_point_turn_s: float
    duel_16_point_turn_s: float
    gunfire_halved_above_deg: float
    gunfire_factor_when_turning: float
    speed_lost_per_16_points: float
    steady_deg_per_s: float
    speed_change_kn_per_s: float
    fleet_reserve_fraction: float
    speed_lost_at_full_damage: float
    signal_delay_moves: int
    melee_signal_moves: int
    curve_range_yd: tuple[float, ...]
    curve_points: tuple[float, ...]
    fire_basis: str
    reference_broadside: Mapping[str, int]
    gun_classes: tuple[GunClass, ...]
    type_fire_factor: Mapping[str, float]
    end_on_factor: float
    end_on_arc_deg: float
    prefer_own_type: bool
    endurance_points: Mapping[str, float]
    type_of: Mapping[str, str]
    offensive_thresholds: tuple[tuple[float, float], ...]
    destroyed_at: float
    armoured_types: frozenset[str]
    torpedo_damage_points: float
    die_sides: int
    torpedo_zones: tuple[tuple[float, int], ...]
    settle_armoured_range_yd: float
    settle_unarmoured_range_yd: float
    settle_duration_s: float
    settle_remove_ratio: float
    settle_halve_ratio: float
    settle_cripple_ratio: float
    settle_half_loss_fraction: float
    settle_crippled_damage_fraction: float
    settle_inferior_at_cripple_loses_half: bool
    fighting_value_endurance_unit: float
    last_range: str
    wand_range_yd: float
    target_resistance: str
    reference_belt_mm: Mapping[str, float]

    @property
    def gun_range_yd(self) -> float:
        """The last range scored: the fire-effect tables' (seed 002 l.43), or the fleet game's wand's
        (l.47) where ``last_range`` is ``wand``; nothing is scored beyond it."""
        if self.last_range == "wand":
            return min(self.wand_range_yd, self.curve_range_yd[-1])
        return self.curve_range_yd[-1]

    @property
    def torpedo_range_yd(self) -> float:
        """The outer edge of the torpedo's zones of chance (STAND-IN, see the data file)."""
        return self.torpedo_zones[-1][0]

    @classmethod
    def load(cls, path: str | Path = RULES_FILE) -> Nwc1905Rules:
        """Read and check a rules file; :class:`RulesError` names the file and the field at fault."""
        path = Path(path)
        try:
            raw = load_yaml(path.read_text(encoding="utf-8"))
        except (OSError, yaml.YAMLError) as exc:
            raise RulesError(f"{path}: cannot read the rules: {exc}") from exc
        try:
            rules = cls._from_raw(raw)
        except (KeyError, TypeError, ValueError) as exc:
            raise RulesError(f"{path}: {exc}") from exc
        rules._check(path)
        return rules

    @classmethod
    def _from_raw(cls, raw: Mapping[str, Any]) -> Nwc1905Rules:
        mv, tn, sp, sg = raw["moves"], raw["turning"], raw["speed"], raw["signals"]
        fi, dm, tp, st = raw["fire"], raw["damage"], raw["torpedo"], raw["settlement"]
        curve = [(float(r), float(p)) for r, p in fi["curve_points"]]
        return cls(
            fleet_move_s=float(mv["fleet_s"]),
            duel_move_s=float(mv["duel_s"]),
            melee_range_yd=float(mv["melee_range_yd"]),
            integration_step_s=float(mv["integration_step_s"]),
            fleet_16_point_turn_s=float(tn["fleet_16_point_turn_s"]),
            duel_16_point_turn_s=float(tn["duel_16_point_turn_s"]),
            gunfire_halved_above_deg=points_to_deg(float(tn["gunfire_halved_above_points"])),
            gunfire_factor_when_turning=float(tn["gunfire_factor_when_turning"]),
            speed_lost_per_16_points=float(tn["speed_lost_per_16_points"]),
            steady_deg_per_s=float(tn["steady_deg_per_s"]),
            speed_change_kn_per_s=float(sp["change_kn"]) / float(sp["change_per_s"]),
            fleet_reserve_fraction=float(sp["fleet_reserve_fraction"]),
            speed_lost_at_full_damage=float(sp["lost_fraction_at_full_damage"]),
            signal_delay_moves=int(sg["delay_moves"]),
            melee_signal_moves=int(sg["melee_delay_moves"]),
            curve_range_yd=tuple(r for r, _ in curve),
            curve_points=tuple(p for _, p in curve),
            fire_basis=str(fi["basis"]),
            reference_broadside=MappingProxyType({str(k): int(v) for k, v in fi["reference_broadside"].items()}),
            gun_classes=tuple(GunClass(str(n), float(c), float(m), float(v)) for n, c, m, v in fi["gun_classes"]),
            type_fire_factor=MappingProxyType({str(k): float(v) for k, v in fi["type_fire_factor"].items()}),
            end_on_factor=float(fi["end_on_factor"]),
            end_on_arc_deg=float(fi["end_on_arc_deg"]),
            prefer_own_type=bool(fi["prefer_own_type"]),
            endurance_points=MappingProxyType({str(k): float(v) for k, v in dm["endurance_points"].items()}),
            type_of=MappingProxyType({str(k): str(v) for k, v in dm["type_of"].items()}),
            offensive_thresholds=tuple((float(a), float(f)) for a, f in dm["offensive_thresholds"]),
            destroyed_at=float(dm["destroyed_at"]),
            armoured_types=frozenset(str(t) for t in dm["armoured_types"]),
            torpedo_damage_points=float(tp["damage_points"]),
            die_sides=int(tp["die_sides"]),
            torpedo_zones=tuple((float(r), int(z)) for r, z in tp["zones"]),
            settle_armoured_range_yd=float(st["armoured_range_yd"]),
            settle_unarmoured_range_yd=float(st["unarmoured_range_yd"]),
            settle_duration_s=float(st["duration_s"]),
            settle_remove_ratio=float(st["remove_ratio"]),
            settle_halve_ratio=float(st["halve_ratio"]),
            settle_cripple_ratio=float(st["cripple_ratio"]),
            settle_half_loss_fraction=float(st["half_loss_fraction"]),
            settle_crippled_damage_fraction=float(st["crippled_damage_fraction"]),
            settle_inferior_at_cripple_loses_half=bool(st["inferior_at_cripple_loses_half"]),
            fighting_value_endurance_unit=float(st["fighting_value_endurance_unit"]),
            last_range=str(fi["last_range"]),
            wand_range_yd=float(fi["wand_range_yd"]),
            target_resistance=str(fi["target_resistance"]),
            reference_belt_mm=MappingProxyType({str(k): float(v) for k, v in fi["reference_belt_mm"].items()}),
        )

    def _check(self, path: Path) -> None:
        def fail(field: str, why: str) -> None:
            raise RulesError(f"{path}: field {field}: {why}")

        r, p = self.curve_range_yd, self.curve_points
        if len(r) < 2 or any(b <= a for a, b in itertools.pairwise(r)):
            fail("fire.curve_points", "needs two or more points at increasing ranges")
        if any(x < 0 for x in p) or any(b > a for a, b in itertools.pairwise(p)):
            fail("fire.curve_points", "points must be >= 0 and not grow with range")
        if self.fire_basis not in FIRE_BASES:
            fail("fire.basis", f"must be one of {FIRE_BASES}, got {self.fire_basis!r}")
        if self.last_range not in LAST_RANGES:
            fail("fire.last_range", f"must be one of {LAST_RANGES}, got {self.last_range!r}")
        if not 0 < self.wand_range_yd:
            fail("fire.wand_range_yd", "must be positive")
        if self.target_resistance not in RESISTANCES:
            fail("fire.target_resistance", f"must be one of {RESISTANCES}, got {self.target_resistance!r}")
        for kind, belt in self.reference_belt_mm.items():
            if kind not in self.endurance_points or not belt > 0:
                fail(f"fire.reference_belt_mm.{kind}", "needs one of the rules' types and a positive belt")
        names = {g.name for g in self.gun_classes}
        if any(b.min_mm >= a.min_mm for a, b in itertools.pairwise(self.gun_classes)):
            fail("fire.gun_classes", "list the classes from the largest calibre down")
        for k in self.reference_broadside:
            if k not in names:
                fail("fire.reference_broadside", f"unknown gun class {k!r}")
        kinds = set(self.endurance_points)
        for ship_type, kind in self.type_of.items():
            if kind not in kinds or kind not in self.type_fire_factor:
                fail("damage.type_of", f"{ship_type} -> {kind!r} has no endurance or fire factor")
        z = self.torpedo_zones
        if any(b[0] <= a[0] for a, b in itertools.pairwise(z)) or any(not 0 < zz <= self.die_sides for _, zz in z):
            fail("torpedo.zones", "ranges must increase and zones lie in 1..die_sides")
        if any(b[0] <= a[0] for a, b in itertools.pairwise(self.offensive_thresholds)):
            fail("damage.offensive_thresholds", "thresholds must increase")


@functools.cache
def _load_cached(path: str) -> Nwc1905Rules:
    return Nwc1905Rules.load(path)


def load_rules(path: str | Path = RULES_FILE) -> Nwc1905Rules:
    """The rules in ``path`` (default: the bundled ``data/tactics/nwc1905.yaml``), read once per path."""
    return _load_cached(str(Path(path).resolve()))
