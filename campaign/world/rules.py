"""The strategic rules of ``data/strategic_rules.yaml`` as an immutable record."""

from __future__ import annotations

import functools
from dataclasses import dataclass
from pathlib import Path

from campaign.datafile import load_yaml
from campaign.geo.earth import YD_PER_NM
from campaign.paths import DATA_DIR

RULES_FILE = DATA_DIR / "strategic_rules.yaml"


@dataclass(frozen=True)
class StrategicRules:
    neutral_stay_limit_h: float
    collier_meet_radius_nm: float
    # A force shells a town only from within this distance of it (seed 000, 'Shelling a Town'; the
    # range is a stand-in, see the file).
    bombard_range_nm: float

    @classmethod
    def load(cls, path: Path = RULES_FILE) -> StrategicRules:
        raw = load_yaml(path.read_text())
        return cls(
            neutral_stay_limit_h=float(raw["neutral_port"]["stay_limit_h"]),
            collier_meet_radius_nm=float(raw["collier"]["meet_radius_nm"]),
            bombard_range_nm=float(raw["bombardment"]["range_yd"]) / YD_PER_NM,
        )


@functools.cache
def default_rules() -> StrategicRules:
    return StrategicRules.load()
