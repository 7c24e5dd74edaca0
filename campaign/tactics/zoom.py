"""The zoom rules of ``data/tactics/zoom.yaml``: when the world hands forces to an engine, and how."""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from campaign.datafile import load_yaml
from campaign.paths import DATA_DIR

ZOOM_FILE = DATA_DIR / "tactics" / "zoom.yaml"


@dataclass(frozen=True)
class EngineZoom:
    """Per engine: the approach step (min), the range at which the battle begins (yd), night action."""

    approach_step_min: float
    battle_start_yd: float
    night_action: bool
    preferred_range_cap_yd: float | None = None


@dataclass(frozen=True)
class ZoomRules:
    engines: Mapping[str, EngineZoom]
    fire_back: bool

    @classmethod
    def load(cls, path: Path = ZOOM_FILE) -> ZoomRules:
        raw = load_yaml(path.read_text())
        engines = {name: EngineZoom(float(e["approach_step_min"]), float(e["battle_start_yd"]), bool(e["night_action"]),
                                    None if e.get("preferred_range_cap_yd") is None else float(e["preferred_range_cap_yd"]))
                   for name, e in raw["engines"].items()}
        return cls(engines, bool(raw["fire_back"]["rule"]))


@functools.cache
def default_zoom_rules() -> ZoomRules:
    return ZoomRules.load()
