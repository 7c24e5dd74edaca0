"""Which of a ship's guns bear on a target, from her gun groups' arcs.

Each gun group (``campaign.model.ships.Gun``) carries, from ``data/ships.yaml`` with its citation, how
many of its barrels bear on the broadside (``broadside``), right ahead (``ahead``) and right astern
(``astern``), and how many of the broadside barrels bear only within the narrow cross-deck arc about
the beam (``cross_deck``: the far wing turret of an en echelon pair). ``data/tactics/arcs.yaml`` turns
these counts into barrels bearing at a relative bearing: inside ``end_on_half_arc_deg`` of the bow
(stern) the ``ahead`` (``astern``) barrels bear, elsewhere the broadside barrels, less the cross-deck
ones outside ``cross_deck_half_arc_deg`` of the beam. A group without counts in the data falls back to
the layout rule in the same file (a labelled stand-in; :class:`ArcCounts` says which applied).

Bearings are degrees off the bow, either side (0 right ahead, 90 abeam, 180 right astern).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from campaign.datafile import load_yaml
from campaign.model.ships import Gun, Ship
from campaign.paths import DATA_DIR

ARCS_FILE = DATA_DIR / "tactics" / "arcs.yaml"

HALF_TURN_DEG = 180.0
FULL_TURN_DEG = 360.0
BEAM_DEG = 90.0


@dataclass(frozen=True)
class LayoutFractions:
    """Stand-in shares of a group's barrels bearing on the broadside, ahead and astern."""

    broadside: float
    ahead: float
    astern: float


@dataclass(frozen=True)
class ArcRules:
    """The sectors and the stand-in layout rule of ``data/tactics/arcs.yaml`` (see its ``sources``)."""

    end_on_half_arc_deg: float
    cross_deck_half_arc_deg: float
    fallback_turret: LayoutFractions
    fallback_other: LayoutFractions

    @classmethod
    def load(cls, path: Path = ARCS_FILE) -> ArcRules:
        """Read and check an arcs file; ``ValueError`` names the file and the field at fault."""
        raw = load_yaml(Path(path).read_text(encoding="utf-8"))
        try:
            end_on = float(raw["end_on_half_arc_deg"])
            cross = float(raw["cross_deck_half_arc_deg"])
            fb = raw["fallback"]
            turret = LayoutFractions(**{k: float(v) for k, v in fb["turret"].items()})
            other = LayoutFractions(**{k: float(v) for k, v in fb["other"].items()})
            cited = raw["sources"]
        except (KeyError, TypeError) as exc:
            raise ValueError(f"{path}: missing or malformed field: {exc}") from exc
        if not 0.0 <= end_on < BEAM_DEG:
            raise ValueError(f"{path}: end_on_half_arc_deg must be in [0, 90), got {end_on}")
        if not 0.0 <= cross <= BEAM_DEG - end_on:
            raise ValueError(f"{path}: cross_deck_half_arc_deg must lie within the broadside sector, got {cross}")
        for share in (turret, other):
            if not all(0.0 <= x <= 1.0 for x in (share.broadside, share.ahead, share.astern)):
                raise ValueError(f"{path}: fallback fractions must be in [0, 1]")
        for key in ("end_on_half_arc_deg", "cross_deck_half_arc_deg", "fallback"):
            if len(str(cited.get(key, "")).strip()) < 10:
                raise ValueError(f"{path}: {key} has no source")
        return cls(end_on, cross, turret, other)


@functools.cache
def load_arcs(path: Path = ARCS_FILE) -> ArcRules:
    """The arc rules of ``path`` (default ``data/tactics/arcs.yaml``), read once."""
    return ArcRules.load(path)


@dataclass(frozen=True)
class ArcCounts:
    """Barrels of one gun group that bear on the broadside, right ahead and right astern.

    ``cross_deck`` of the ``broadside`` barrels bear only near the beam. ``from_data`` is False when the
    stand-in layout rule supplied the counts (the group has none in ``data/ships.yaml``).
    """

    broadside: int
    ahead: int
    astern: int
    from_data: bool
    cross_deck: int = 0


def _is_turret(gun: Gun) -> bool:
    m = (gun.mounting or "").lower()
    return "turret" in m or "centreline" in m


def arc_counts(gun: Gun, rules: ArcRules | None = None) -> ArcCounts:
    """The group's barrels bearing on each arc: from the data where given, else the stand-in layout rule."""
    b = getattr(gun, "broadside", None)
    a = getattr(gun, "ahead", None)
    s = getattr(gun, "astern", None)
    if b is not None and a is not None and s is not None:
        return ArcCounts(int(b), int(a), int(s), True, int(getattr(gun, "cross_deck", 0) or 0))
    rules = rules or load_arcs()
    share = rules.fallback_turret if _is_turret(gun) else rules.fallback_other
    return ArcCounts(
        broadside=math.ceil(gun.count * share.broadside),
        ahead=math.ceil(gun.count * share.ahead),
        astern=math.floor(gun.count * share.astern),
        from_data=False,
    )


def fold_bearing_deg(rel_bearing_deg: float) -> float:
    """A relative bearing folded onto 0-180 degrees off the bow (the two sides are alike)."""
    if not math.isfinite(rel_bearing_deg):
        raise ValueError(f"rel_bearing_deg must be finite, got {rel_bearing_deg}")
    rel = abs(rel_bearing_deg) % FULL_TURN_DEG
    return FULL_TURN_DEG - rel if rel > HALF_TURN_DEG else rel


def barrels_bearing(gun: Gun, rel_bearing_deg: float, rules: ArcRules | None = None) -> int:
    """Barrels of ``gun`` bearing on a target ``rel_bearing_deg`` off the bow (either side)."""
    rules = rules or load_arcs()
    rel = fold_bearing_deg(rel_bearing_deg)
    c = arc_counts(gun, rules)
    if rel < rules.end_on_half_arc_deg:
        return c.ahead
    if rel > HALF_TURN_DEG - rules.end_on_half_arc_deg:
        return c.astern
    if abs(rel - BEAM_DEG) <= rules.cross_deck_half_arc_deg:
        return c.broadside
    return c.broadside - c.cross_deck


def guns_bearing(ship: Ship, rel_bearing_deg: float) -> list[tuple[Gun, int]]:
    """Gun groups with the number of their barrels bearing on a target ``rel_bearing_deg`` off the bow
    (0 right ahead, 180 right astern, either side); groups with none bearing are left out."""
    rules = load_arcs()
    out: list[tuple[Gun, int]] = []
    for gun in ship.guns:
        n = barrels_bearing(gun, rel_bearing_deg, rules)
        if n > 0:
            out.append((gun, n))
    return out


def barrels_bearing_total(ship: Ship, rel_bearing_deg: float, min_calibre_mm: float = 0.0) -> int:
    """All barrels of at least ``min_calibre_mm`` bearing on a target ``rel_bearing_deg`` off the bow."""
    return sum(n for gun, n in guns_bearing(ship, rel_bearing_deg) if gun.calibre_mm >= min_calibre_mm)


def ships_without_arc_data(ships: Iterable[Ship]) -> list[str]:
    """Names of armed ships with at least one gun group the stand-in layout rule has to fill in."""
    return [s.name for s in ships if any(not arc_counts(g).from_data for g in s.guns)]
