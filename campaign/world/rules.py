"""The strategic rules of ``data/strategic_rules.yaml`` as an immutable record."""

from __future__ import annotations

import functools
from dataclasses import dataclass
from pathlib import Path

import yaml

from campaign.paths import DATA_DIR

RULES_FILE = DATA_DIR / "strategic_rules.yaml"


@dataclass(frozen=True)
class StrategicRules:
    neutral_stay_limit_h: float
    collier_meet_radius_nm: float

    @classmethod
    def load(cls, path: Path = RULES_FILE) -> StrategicRules:
        raw = yaml.safe_load(path.read_text())
        return cls(
            neutral_stay_limit_h=float(raw["neutral_port"]["stay_limit_h"]),
            collier_meet_radius_nm=float(raw["collier"]["meet_radius_nm"]),
        )


@functools.cache
def default_rules() -> StrategicRules:
    return StrategicRules.load()
