"""How far a shadower keeps from the enemy: the distances of the record, by the light and by his quarry.

Plain data from ``data/shadowing.yaml`` (each figure with its source): by day a light cruiser kept out of a
battlecruiser's gun range, a battlecruiser closer; at dusk and by night every shadower closed in, keeping
touch by the moon and by smoke. Decision code reads it (``campaign.command.doctrine.shadow``).
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

from campaign.datafile import load_yaml
from campaign.paths import DATA_DIR

SHADOWING_FILE = DATA_DIR / "shadowing.yaml"
ROLES = ("outranked", "other")


@dataclass(frozen=True)
class ShadowRules:
    """``station_nm[light][role]``: the distance kept, nm, by the light where he is and whether he takes the
    enemy for a superior force (``outranked``) or not (``other``); ``fraction_of_sight``: the most of his
    range of sight he uses; ``quarter_deg``: his bearing off the enemy's stern."""

    station_nm: Mapping[str, Mapping[str, float]]
    fraction_of_sight: float
    quarter_deg: float

    def __post_init__(self) -> None:
        for light, by_role in self.station_nm.items():
            if set(by_role) != set(ROLES) or any(not nm > 0.0 for nm in by_role.values()):
                raise ValueError(f"station_nm.{light}: give a distance above 0 for each of {ROLES}")
        if not 0.0 < self.fraction_of_sight <= 1.0:
            raise ValueError("fraction_of_sight is a fraction of the range of sight, in (0, 1]")

    @classmethod
    def load(cls, path: Path = SHADOWING_FILE) -> ShadowRules:
        raw = load_yaml(path.read_text())
        return cls({str(light): {role: float(nm) for role, nm in by_role.items()}
                    for light, by_role in raw["station_nm"].items()},
                   float(raw["fraction_of_sight"]), float(raw["quarter_deg"]))

    def station(self, lights: Iterable[str], outranked: bool) -> float:
        """The distance, nm, he keeps in the worst of ``lights`` (the nearest of their distances)."""
        role = "outranked" if outranked else "other"
        return min(self.station_nm[light][role] for light in lights)


@functools.cache
def default_shadow_rules() -> ShadowRules:
    """The rules of ``data/shadowing.yaml`` (read once; the record is immutable)."""
    return ShadowRules.load()
