"""How each ship is handled in battle: her side's intent turned into a course and a speed each tick.

The seeds leave ship handling to the players; ``data/tactics/helm.yaml`` holds the project's stand-ins
(closing obliquely so the broadside bears, holding a preferred range, breaking off when outmatched),
each with its reasoning. The helm sees the ships in sight as the engine shows them (``ShipView``): in a
battle the enemy is in plain view, so this is what the officers on the bridge see, not a report.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from campaign.datafile import load_yaml
from campaign.paths import DATA_DIR
from campaign.tactics.kinematics import angle_diff_deg, bearing_deg, range_yd
from campaign.tactics.protocol import HelmOrder, ShipView

HELM_FILE = DATA_DIR / "tactics" / "helm.yaml"


@dataclass(frozen=True)
class HelmRules:
    """Ship handling and the common ends of a battle (``data/tactics/helm.yaml``)."""

    closing_angle_deg: float
    preferred_range_fraction: float
    hold_band_fraction: float
    visibility_fraction: float
    break_off_ratio: float
    no_fire_min: float
    drawn_off_min: float
    drawn_off_gain_yd: float
    max_duration_h: float
    sea_room_step_deg: float

    @classmethod
    def load(cls, path: Path = HELM_FILE) -> HelmRules:
        raw = load_yaml(path.read_text())
        return cls(
            closing_angle_deg=float(raw["approach"]["closing_angle_deg"]),
            preferred_range_fraction=float(raw["approach"]["preferred_range_fraction"]),
            hold_band_fraction=float(raw["approach"]["hold_band_fraction"]),
            visibility_fraction=float(raw["approach"]["visibility_fraction"]),
            break_off_ratio=float(raw["break_off"]["fighting_value_ratio"]),
            no_fire_min=float(raw["end"]["no_fire_min"]),
            drawn_off_min=float(raw["end"]["drawn_off_min"]),
            drawn_off_gain_yd=float(raw["end"]["drawn_off_gain_yd"]),
            max_duration_h=float(raw["end"]["max_duration_h"]),
            sea_room_step_deg=float(raw["sea_room"]["step_deg"]),
        )


@functools.cache
def default_helm_rules() -> HelmRules:
    return HelmRules.load()


def _oblique(bearing: float, course: float, angle: float) -> float:
    """``bearing`` turned ``angle`` degrees to whichever side is nearer the ship's present course."""
    left, right = (bearing - angle) % 360.0, (bearing + angle) % 360.0
    return left if abs(angle_diff_deg(course, left)) <= abs(angle_diff_deg(course, right)) else right


def steer(views: Sequence[ShipView], intents: Mapping[str, str], rules: HelmRules | None = None,
          preferred_range_yd: Mapping[str, float] | None = None,
          preferred_cap_yd: float | None = None) -> dict[str, HelmOrder]:
    """Helm orders for every afloat ship.

    A side breaking off steers straight away from the centre of the enemy ships at the most she can
    make. A side that means to fight closes its nearest enemy obliquely (``closing_angle_deg`` off the
    bearing) until within ``hold_band_fraction`` of its preferred range (``preferred_range_yd[side]``,
    else ``preferred_range_fraction`` of the ship's own gun range, never beyond ``preferred_cap_yd``
    where the rules set one: data/tactics/zoom.yaml), holds it by steering the enemy's
    course, and opens obliquely if nearer; an enemy who is running is chased straight at.
    """
    rules = rules or default_helm_rules()
    afloat = [v for v in views if v.afloat]
    out: dict[str, HelmOrder] = {}
    for v in afloat:
        enemies = [e for e in afloat if e.side != v.side]
        if not enemies:
            out[v.name] = HelmOrder(v.course_deg, v.speed_kn)
            continue
        if intents.get(v.side) == "break_off":
            cx = sum(e.x_yd for e in enemies) / len(enemies)
            cy = sum(e.y_yd for e in enemies) / len(enemies)
            away = (float(bearing_deg(cx, cy, v.x_yd, v.y_yd)))
            out[v.name] = HelmOrder(away, v.max_speed_kn)
            continue
        e = min(enemies, key=lambda s: float(range_yd(v.x_yd, v.y_yd, s.x_yd, s.y_yd)))
        r = float(range_yd(v.x_yd, v.y_yd, e.x_yd, e.y_yd))
        brg = float(bearing_deg(v.x_yd, v.y_yd, e.x_yd, e.y_yd))
        pref = (preferred_range_yd or {}).get(v.side)
        if not pref:
            pref = rules.preferred_range_fraction * v.gun_range_yd
            if preferred_cap_yd is not None:
                pref = min(pref, preferred_cap_yd)
        band = rules.hold_band_fraction * pref
        running = intents.get(e.side) == "break_off"
        if r > pref + band:
            course = brg if running else _oblique(brg, v.course_deg, rules.closing_angle_deg)
        elif r < pref - band and not running:
            course = _oblique((brg + 180.0) % 360.0, v.course_deg, rules.closing_angle_deg)
        else:
            course = e.course_deg
        out[v.name] = HelmOrder(course, v.max_speed_kn)
    return out
