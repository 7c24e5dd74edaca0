"""The Jane Naval War Game's rules (seed 004) as an immutable record, read from the data file.

Every figure comes from ``data/tactics/jane.yaml``, where each carries its citation ("seed 004 l.N",
N the line of ``seeds/004_4b5429707f084c05.txt``) or its STAND-IN reasoning. This module only reads
and checks that file; ``jane_rulebook`` answers the rules' questions one at a time, and
``jane_ship``, ``jane_motion``, ``jane_fire`` and ``jane`` apply them to ships in a battle.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType
from typing import Any

import yaml

from campaign.datafile import load_yaml
from campaign.paths import DATA_DIR

RULES_FILE = DATA_DIR / "tactics" / "jane.yaml"

#: Armour grades from weakest to strongest; the index is the grade's strength ("none": no armour).
GRADES = ("none", "f", "e", "d", "c", "b", "a", "aa", "aaa", "aaaa")
PROJECTILES = ("shot", "ap", "he")
PARTS = ("belt", "side", "battery", "turret", "conning_tower", "upper_works")
YD_PER_M = 1.0 / 0.9144  # 1 yd = 0.9144 m


class RulesError(ValueError):
    """The rules file is malformed; the message names the file and the field."""


@dataclass(frozen=True)
class TargetClass:
    """A reference silhouette: the ship types drawn alike, their length and presented height."""

    name: str
    types: tuple[str, ...]
    length_yd: float
    freeboard_m: float
    upper_works_m: float
    upper_works_length_fraction: float
    part_shares: Mapping[str, float]

    @property
    def height_yd(self) -> float:
        """Mean height of the silhouette (hull side plus upper works spread over the length), yd."""
        return (self.freeboard_m + self.upper_works_length_fraction * self.upper_works_m) * YD_PER_M


@dataclass(frozen=True)
class HitTable:
    """Hit chance per strike by range (yd) for each target class; linear between rows."""

    range_yd: tuple[float, ...]
    chance: Mapping[str, tuple[float, ...]]


@dataclass(frozen=True)
class JaneRules:
    """The rules of ``data/tactics/jane.yaml`` in yards, knots, degrees, moves and grades."""

    # zoom (read by the driver)
    battle_start_yd: float
    approach_square_yd: float
    approach_step_min: float
    # board and moves
    square_yd: float
    move_s: float
    knots_per_square: float
    max_squares: float
    gain_squares_per_move: float
    astern_max_squares: float
    points_per_turn: float
    squares_per_turn: float
    engine_turn_points: float
    engine_turn_lost_squares: float
    engine_turn_above_points: float
    astern_extra_squares_per_turn: float
    tactical_diameter_lengths: float
    # guns
    class_min_mm: Mapping[str, float]
    big_gun_classes: tuple[str, ...]
    spare_armoured_classes: tuple[str, ...]
    armoured_types: frozenset[str]
    armoured_min_belt_mm: float
    published_rounds_per_strike: float
    unpublished_rate_rounds_per_min: Mapping[str, float]
    qf_strikes_per_move: Mapping[str, int]
    qf_heavy_min_mm: float
    qf_light_max_mm: float
    qf_medium_max_mm: float
    shell_lb_per_in3: float
    # hitting
    sigma_yd_per_kyd: float
    eyes_shut_sigma_factor: float
    eyes_open_max_yd: float
    anchor_class: str
    anchor_range_yd: float
    anchor_chance: float
    target_classes: Mapping[str, TargetClass]
    eyes_open: HitTable
    eyes_shut: HitTable
    aspect_off_beam_deg: tuple[float, ...]
    aspect_fraction: tuple[float, ...]
    # range shifts
    slow_target_kn: float
    slow_target_shift_yd: float
    passing_kn: float
    passing_shift_yd: float
    light_shift_yd: Mapping[str, float]
    sun_dazzle: tuple[tuple[float, float], ...]  # (sun within deg of the line of sight, yd), nearest first
    twilight_bright_sky_yd: float
    sea_shift: tuple[tuple[int, float], ...]
    eyes_shut_sea_state: int
    # armour and penetration
    grade_min_mm: Mapping[str, float]
    deck_slope_factor: float
    coal_grades: int
    secondary_protection_factor: float
    shot_grade: Mapping[str, str]
    reduction: Mapping[str, Mapping[str, int]]
    close_shot_yd: float
    close_shot_gain: int
    all_penetrate_class: str
    all_penetrate_yd: float
    obliquity_steps: tuple[tuple[float, int], ...]
    apc_classes: tuple[str, ...]
    deck_obliquity_deg: float
    # where hits land and what they do
    deck_share_range_yd: tuple[float, ...]
    deck_share: tuple[float, ...]
    funnel_mast_fraction: float
    wrecking_classes: tuple[str, ...]
    bow_fraction: float
    stern_fraction: float
    machinery_from: float
    machinery_to: float
    section_m: float
    sinking_per_1000_lt: float
    raking_off_beam_deg: tuple[float, ...]
    raking_weight: tuple[float, ...]
    raking_shot_weight: tuple[float, ...]
    speed_loss_kn: float
    max_funnel_mast_losses: int
    no_steer_moves: int
    he_gun_out_moves: int
    tube_explosion_in_six: Mapping[str, int]
    # torpedoes
    torpedo_bands: tuple[tuple[float, int], ...]
    torpedo_sink_below_lt: float
    tubes_per_move: int
    waterlogged_speed_factor: float
    # the admiral
    admiral_chance: float
    command_lapse_moves: int
    flagship_sunk_disables_admiral: bool
    # command (the helm's signals and fleet speed)
    signal_delay_s: float
    reserve_fraction: float
    line_of_fire_chance: float

    @property
    def tick_s(self) -> float:
        return self.move_s

    @property
    def hit_table_max_yd(self) -> float:
        """The longest range in the hit table (the eyes-shut rows run furthest); a gun's reach is its
        mounting's (``campaign.model.guns``), and the table runs beyond every reach."""
        return self.eyes_shut.range_yd[-1]


# ----------------------------------------------------------------------------------------------------
# Loading


def _get(raw: Mapping[str, Any], path: str, file: Path) -> Any:
    node: Any = raw
    for key in path.split("."):
        if not isinstance(node, Mapping) or key not in node:
            raise RulesError(f"{file}: missing field {path}")
        node = node[key]
    return node


def _table(raw: Mapping[str, Any], path: str, classes: Sequence[str], file: Path) -> HitTable:
    node = _get(raw, path, file)
    ranges = tuple(float(r) for r in node["range_yd"])
    if list(ranges) != sorted(ranges) or len(set(ranges)) != len(ranges):
        raise RulesError(f"{file}: {path}.range_yd must increase")
    chance = {}
    for name in classes:
        row = tuple(float(p) for p in node.get(name, ()))
        if len(row) != len(ranges) or not all(0.0 <= p <= 1.0 for p in row):
            raise RulesError(f"{file}: {path}.{name} needs {len(ranges)} chances in [0, 1]")
        chance[name] = row
    return HitTable(ranges, MappingProxyType(chance))


def _ints(node: Mapping[str, Any]) -> Mapping[str, int]:
    return MappingProxyType({str(k): int(v) for k, v in node.items()})


def parse_rules(raw: Mapping[str, Any], file: Path = RULES_FILE) -> JaneRules:
    """Build the rules from the parsed YAML ``raw``; ``RulesError`` names the field at fault."""
    g = functools.partial(_get, raw, file=file)
    try:
        classes = {}
        for name, tc in g("hit.target_classes").items():
            shares = {p: float(tc["part_shares"].get(p, 0.0)) for p in PARTS}
            if abs(sum(shares.values()) - 1.0) > 1e-6:
                raise RulesError(f"{file}: hit.target_classes.{name}.part_shares must sum to 1")
            classes[name] = TargetClass(
                name, tuple(tc["types"]), float(tc["length_yd"]), float(tc["freeboard_m"]),
                float(tc["upper_works_m"]), float(tc["upper_works_length_fraction"]),
                MappingProxyType(shares))
        grade_min = {k: float(v) for k, v in g("armour.grade_min_mm").items()}
        if list(grade_min) != list(GRADES[1:]) or list(grade_min.values()) != sorted(grade_min.values()):
            raise RulesError(f"{file}: armour.grade_min_mm must list f..aaaa with rising thicknesses")
        gun_classes = {k: float(v) for k, v in g("guns.class_min_mm").items()}
        reduction = {p: _ints(g(f"penetration.reduction.{p}") or {}) for p in PROJECTILES}
        rules = JaneRules(
            battle_start_yd=float(g("zoom.battle_start_yd")),
            approach_square_yd=float(g("zoom.approach_square_yd")),
            approach_step_min=float(g("zoom.approach_step_min")),
            square_yd=float(g("board.square_yd")),
            move_s=float(g("board.move_s")),
            knots_per_square=float(g("board.knots_per_square")),
            max_squares=float(g("board.max_squares")),
            gain_squares_per_move=float(g("speed.gain_squares_per_move")),
            astern_max_squares=float(g("speed.astern_max_squares")),
            points_per_turn=float(g("turning.points_per_turn")),
            squares_per_turn=float(g("turning.squares_per_turn")),
            engine_turn_points=float(g("turning.engine_turn_points")),
            engine_turn_lost_squares=float(g("turning.engine_turn_lost_squares")),
            engine_turn_above_points=float(g("turning.engine_turn_above_points")),
            astern_extra_squares_per_turn=float(g("turning.astern_extra_squares_per_turn")),
            tactical_diameter_lengths=float(g("turning.tactical_diameter_lengths")),
            class_min_mm=MappingProxyType(gun_classes),
            big_gun_classes=tuple(g("guns.big_gun_classes")),
            spare_armoured_classes=tuple(g("guns.spare_armoured_classes")),
            armoured_types=frozenset(g("guns.armoured_types")),
            armoured_min_belt_mm=float(g("guns.armoured_min_belt_mm")),
            published_rounds_per_strike=float(g("rate.published_rounds_per_strike")),
            unpublished_rate_rounds_per_min=MappingProxyType(
                {str(k): float(v) for k, v in g("rate.unpublished_rate_rounds_per_min").items()}),
            qf_strikes_per_move=_ints(g("rate.qf_strikes_per_move")),
            qf_heavy_min_mm=float(g("rate.quick_firing_fallback.heavy_min_mm")),
            qf_light_max_mm=float(g("rate.quick_firing_fallback.light_max_mm")),
            qf_medium_max_mm=float(g("rate.quick_firing_fallback.medium_max_mm")),
            shell_lb_per_in3=float(g("fighting_value.shell_lb_per_in3")),
            sigma_yd_per_kyd=float(g("hit.sigma_yd_per_kyd")),
            eyes_shut_sigma_factor=float(g("hit.eyes_shut_sigma_factor")),
            eyes_open_max_yd=float(g("hit.eyes_open_max_yd")),
            anchor_class=str(g("hit.anchor.target_class")),
            anchor_range_yd=float(g("hit.anchor.range_yd")),
            anchor_chance=float(g("hit.anchor.chance")),
            target_classes=MappingProxyType(classes),
            eyes_open=_table(raw, "hit.table.eyes_open", list(classes), file),
            eyes_shut=_table(raw, "hit.table.eyes_shut", list(classes), file),
            aspect_off_beam_deg=tuple(float(a) for a in g("hit.aspect.off_beam_deg")),
            aspect_fraction=tuple(float(f) for f in g("hit.aspect.fraction")),
            slow_target_kn=float(g("shifts.slow_target_kn")),
            slow_target_shift_yd=float(g("shifts.slow_or_engine_turning_yd")),
            passing_kn=float(g("shifts.passing_kn")),
            passing_shift_yd=float(g("shifts.passing_yd")),
            light_shift_yd=MappingProxyType({k: float(v) for k, v in g("shifts.light_yd").items()}),
            sun_dazzle=tuple(sorted((float(a), float(b)) for a, b in g("shifts.sun_dazzle_yd"))),
            twilight_bright_sky_yd=float(g("shifts.twilight_bright_sky_yd")),
            sea_shift=tuple((int(a), float(b)) for a, b in g("shifts.sea_state_yd")),
            eyes_shut_sea_state=int(g("shifts.eyes_shut_sea_state")),
            grade_min_mm=MappingProxyType(grade_min),
            deck_slope_factor=float(g("armour.deck_slope_factor")),
            coal_grades=int(g("armour.coal_grades")),
            secondary_protection_factor=float(g("armour.secondary_protection_factor")),
            shot_grade=MappingProxyType({k: str(v) for k, v in g("penetration.shot_grade").items()}),
            reduction=MappingProxyType(reduction),
            close_shot_yd=float(g("penetration.close_shot.range_yd")),
            close_shot_gain=int(g("penetration.close_shot.grades")),
            all_penetrate_class=str(g("penetration.all_penetrate.gun_class")),
            all_penetrate_yd=float(g("penetration.all_penetrate.range_yd")),
            obliquity_steps=tuple((float(a), int(b)) for a, b in g("penetration.obliquity")),
            apc_classes=tuple(g("penetration.apc_classes")),
            deck_obliquity_deg=float(g("penetration.deck_obliquity_deg")),
            deck_share_range_yd=tuple(float(r) for r in g("parts.deck_share.range_yd")),
            deck_share=tuple(float(s) for s in g("parts.deck_share.share")),
            funnel_mast_fraction=float(g("parts.funnel_mast_fraction")),
            wrecking_classes=tuple(g("parts.wrecking_classes")),
            bow_fraction=float(g("parts.zones.bow_fraction")),
            stern_fraction=float(g("parts.zones.stern_fraction")),
            machinery_from=float(g("parts.zones.machinery")[0]),
            machinery_to=float(g("parts.zones.machinery")[1]),
            section_m=float(g("parts.section_m")),
            sinking_per_1000_lt=float(g("damage.sinking_penetrations_per_1000_lt")),
            raking_off_beam_deg=tuple(float(a) for a in g("damage.raking.off_beam_deg")),
            raking_weight=tuple(float(w) for w in g("damage.raking.weight")),
            raking_shot_weight=tuple(float(w) for w in g("damage.raking.shot_weight")),
            speed_loss_kn=float(g("damage.speed_loss_kn")),
            max_funnel_mast_losses=int(g("damage.max_funnel_mast_losses")),
            no_steer_moves=int(g("damage.no_steer_moves")),
            he_gun_out_moves=int(g("damage.he_gun_out_moves")),
            tube_explosion_in_six=_ints(g("damage.tube_explosion_in_six")),
            torpedo_bands=tuple((float(a), int(b)) for a, b in g("torpedo.chance_in_six")),
            torpedo_sink_below_lt=float(g("torpedo.sink_below_lt")),
            tubes_per_move=int(g("torpedo.tubes_per_move")),
            waterlogged_speed_factor=float(g("torpedo.waterlogged.speed_factor")),
            admiral_chance=float(g("admiral.chance")),
            command_lapse_moves=int(g("admiral.command_lapse_moves")),
            flagship_sunk_disables_admiral=bool(g("admiral.flagship_sunk_disables")),
            signal_delay_s=float(g("command.signal_delay_s")),
            reserve_fraction=float(g("command.reserve_fraction")),
            line_of_fire_chance=float(g("line_of_fire.chance")),
        )
    except (KeyError, TypeError, IndexError, AttributeError) as exc:
        raise RulesError(f"{file}: malformed rules: {exc!r}") from exc
    if list(rules.class_min_mm.values()) != sorted(rules.class_min_mm.values(), reverse=True):
        raise RulesError(f"{file}: guns.class_min_mm must run from the heaviest class down")
    for cls in rules.class_min_mm:
        per_class = (rules.shot_grade, rules.qf_strikes_per_move, rules.unpublished_rate_rounds_per_min)
        if not all(cls in table for table in per_class):
            raise RulesError(f"{file}: gun class {cls} needs shot_grade, qf_strikes_per_move and "
                             "unpublished_rate_rounds_per_min")
    if rules.published_rounds_per_strike <= 0 or min(rules.unpublished_rate_rounds_per_min.values()) <= 0:
        raise RulesError(f"{file}: rate.published_rounds_per_strike and the unpublished rates must be positive")
    unknown = set(rules.spare_armoured_classes) - set(rules.class_min_mm)
    if unknown:
        raise RulesError(f"{file}: guns.spare_armoured_classes: {sorted(unknown)} are not gun classes")
    if rules.anchor_class not in rules.target_classes:
        raise RulesError(f"{file}: hit.anchor.target_class {rules.anchor_class!r} is not a target class")
    return rules


def load_rules(path: Path | str = RULES_FILE) -> JaneRules:
    """The rules of ``path`` (default ``data/tactics/jane.yaml``), read once per path."""
    return _load_cached(Path(path).resolve())


@functools.cache
def _load_cached(path: Path) -> JaneRules:
    try:
        raw = load_yaml(path.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as exc:
        raise RulesError(f"{path}: cannot read rules: {exc}") from exc
    return parse_rules(raw, path)
