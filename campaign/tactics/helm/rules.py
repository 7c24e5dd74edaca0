"""The helm's rules of ship handling and the common ends of a battle (``data/tactics/helm.yaml``)."""

from __future__ import annotations

import functools
from dataclasses import dataclass
from pathlib import Path

from campaign.datafile import load_yaml
from campaign.paths import DATA_DIR

HELM_FILE = DATA_DIR / "tactics" / "helm.yaml"


@dataclass(frozen=True)
class HelmRules:
    """Every figure of ``data/tactics/helm.yaml`` (its comments give each one's source or reasoning)."""

    closing_angle_deg: float
    preferred_range_fraction: float
    hold_band_fraction: float
    band_hysteresis: float
    anticipation_s: float
    visibility_fraction: float
    course_deadband_deg: float
    max_engaged_turn_deg: float
    min_hold_s: float
    turn_away_together_deg: float
    spacing_yd: float
    station_time_s: float
    lookahead_yd: float
    keep_up_fraction: float
    avoid_horizon_s: float
    avoid_margin_yd: float
    avoid_step_deg: float
    ram_range_yd: float
    ram_speed_superiority_kn: float
    ram_types: frozenset[str]
    ram_size_fraction: float
    break_off_ratio: float
    no_fire_min: float
    drawn_off_min: float
    drawn_off_gain_yd: float
    drawn_off_quiet_min: float
    max_duration_h: float
    sea_room_step_deg: float

    @classmethod
    def load(cls, path: Path = HELM_FILE) -> HelmRules:
        raw = load_yaml(Path(path).read_text(encoding="utf-8"))
        try:
            a, f, av, ram = raw["approach"], raw["formation"], raw["avoid"], raw["ram"]
            end = raw["end"]
            return cls(
                closing_angle_deg=float(a["closing_angle_deg"]),
                preferred_range_fraction=float(a["preferred_range_fraction"]),
                hold_band_fraction=float(a["hold_band_fraction"]),
                band_hysteresis=float(a["band_hysteresis"]),
                anticipation_s=float(a["anticipation_s"]),
                visibility_fraction=float(a["visibility_fraction"]),
                course_deadband_deg=float(a["course_deadband_deg"]),
                max_engaged_turn_deg=float(a["max_engaged_turn_deg"]),
                min_hold_s=float(a["min_hold_s"]),
                turn_away_together_deg=float(f["turn_away_together_deg"]),
                spacing_yd=float(f["spacing_yd"]),
                station_time_s=float(f["station_time_s"]),
                lookahead_yd=float(f["lookahead_yd"]),
                keep_up_fraction=float(f["keep_up_fraction"]),
                avoid_horizon_s=float(av["horizon_s"]),
                avoid_margin_yd=float(av["margin_yd"]),
                avoid_step_deg=float(av["step_deg"]),
                ram_range_yd=float(ram["range_yd"]),
                ram_speed_superiority_kn=float(ram["speed_superiority_kn"]),
                ram_types=frozenset(str(t) for t in ram["target_types"]),
                ram_size_fraction=float(ram["target_size_fraction"]),
                break_off_ratio=float(raw["break_off"]["fighting_value_ratio"]),
                no_fire_min=float(end["no_fire_min"]),
                drawn_off_min=float(end["drawn_off_min"]),
                drawn_off_gain_yd=float(end["drawn_off_gain_yd"]),
                drawn_off_quiet_min=float(end["drawn_off_quiet_min"]),
                max_duration_h=float(end["max_duration_h"]),
                sea_room_step_deg=float(raw["sea_room"]["step_deg"]),
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise ValueError(f"{path}: missing or malformed field: {exc}") from exc


@functools.cache
def default_helm_rules() -> HelmRules:
    return HelmRules.load()
