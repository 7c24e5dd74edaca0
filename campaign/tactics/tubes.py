"""A ship's torpedo tubes: where they lie, which of them bear on a target, and their state in a battle.

The layout (bow, stern, beam and deck mounts, each submerged or above water) is the ship's
``torpedo_tubes.mounts`` in ``data/ships.yaml`` where a source gives it, else the labelled STAND-IN
layout rule of ``data/tactics/tubes.yaml`` (:func:`ships_without_tube_data` names the ships that use
it). The arcs, the time to change a gyro setting and to reload are in the same file, each with its
source: a submerged beam tube is "set by gyroscope to fire abeam or at a pre-announced angle (five
minutes to change setting)" and "it requires five minutes to reload a torpedo tube" (seed 002 l.51,
l.81).

Bearings are signed relative bearings, degrees off the bow in (-180, 180]: positive to starboard,
negative to port (``kinematics.angle_diff_deg(course, bearing)``).
"""

from __future__ import annotations

import functools
import math
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from campaign.datafile import load_yaml
from campaign.model.ships import Ship, TubeMount
from campaign.paths import DATA_DIR

TUBES_FILE = DATA_DIR / "tactics" / "tubes.yaml"

HALF_TURN_DEG = 180.0
FULL_TURN_DEG = 360.0
STARBOARD, PORT, CENTRELINE = 1, -1, 0
SIDE_NAMES = {STARBOARD: "starboard", PORT: "port"}
NEVER = math.inf
"""The time an empty tube that is never reloaded is next ready."""


class TubeRulesError(ValueError):
    """The tubes file is malformed; the message names the file and the field."""


@dataclass(frozen=True)
class TubeRules:
    """The arcs, times and stand-in layout rule of ``data/tactics/tubes.yaml`` (see its ``sources``)."""

    aim_half_arc_deg: float
    beam_abeam_deg: float
    beam_gyro_limit_deg: float
    beam_above_water_arc_deg: tuple[float, float]
    deck_arc_deg: tuple[float, float]
    gyro_change_s: float
    reload_s: float
    counted_submerged: tuple[str, ...]
    counted_above_water: tuple[str, ...]
    submerged_words: tuple[str, ...]
    above_water_words: tuple[str, ...]
    deck_types: frozenset[str]
    submerged_ends: dict[str, tuple[str, ...]]

    @classmethod
    def load(cls, path: Path = TUBES_FILE) -> TubeRules:
        """Read and check a tubes file; :class:`TubeRulesError` names the file and the field at fault."""
        path = Path(path)
        raw = load_yaml(path.read_text(encoding="utf-8"))

        def fail(key: str, why: str) -> TubeRulesError:
            return TubeRulesError(f"{path}: field {key}: {why}")

        try:
            layout = raw["stand_in_layout"]
            rules = cls(
                aim_half_arc_deg=float(raw["aim_half_arc_deg"]),
                beam_abeam_deg=float(raw["beam_abeam_deg"]),
                beam_gyro_limit_deg=float(raw["beam_gyro_limit_deg"]),
                beam_above_water_arc_deg=_pair(raw["beam_above_water_arc_deg"]),
                deck_arc_deg=_pair(raw["deck_arc_deg"]),
                gyro_change_s=float(raw["gyro_change_s"]),
                reload_s=float(raw["reload_s"]),
                counted_submerged=tuple(str(w).lower() for w in layout["counted"]["submerged"]),
                counted_above_water=tuple(str(w).lower() for w in layout["counted"]["above_water"]),
                submerged_words=tuple(str(w).lower() for w in layout["submerged_words"]),
                above_water_words=tuple(str(w).lower() for w in layout["above_water_words"]),
                deck_types=frozenset(str(t) for t in layout["deck_types"]),
                submerged_ends={str(k): tuple(str(p) for p in v or ())
                                for k, v in layout["submerged_ends"].items()},
            )
            cited = raw["sources"]
        except (KeyError, TypeError, ValueError) as exc:
            raise TubeRulesError(f"{path}: missing or malformed field: {exc}") from exc
        if not 0.0 < rules.aim_half_arc_deg < 90.0:
            raise fail("aim_half_arc_deg", f"must lie in (0, 90), got {rules.aim_half_arc_deg}")
        if not 0.0 <= rules.beam_gyro_limit_deg < rules.beam_abeam_deg <= 90.0:
            raise fail("beam_gyro_limit_deg", "need 0 <= limit < abeam <= 90")
        for key in ("beam_above_water_arc_deg", "deck_arc_deg"):
            lo, hi = getattr(rules, key)
            if not 0.0 <= lo <= hi <= HALF_TURN_DEG:
                raise fail(key, f"need 0 <= low <= high <= 180, got [{lo}, {hi}]")
        for key in ("gyro_change_s", "reload_s"):
            if getattr(rules, key) < 0:
                raise fail(key, "must be >= 0")
        for key in ("1", "2", "odd", "even"):
            ends = rules.submerged_ends.get(key)
            if ends is None or any(p not in ("bow", "stern") for p in ends):
                raise fail(f"stand_in_layout.submerged_ends.{key}", "give a list of bow and/or stern")
        for key in ("aim_half_arc_deg", "beam_abeam_deg", "beam_gyro_limit_deg", "beam_above_water_arc_deg",
                    "deck_arc_deg", "gyro_change_s", "reload_s", "stand_in_layout"):
            if len(str(cited.get(key, "")).strip()) < 10:
                raise fail(f"sources.{key}", "no source")
        return rules


def _pair(value: Any) -> tuple[float, float]:
    lo, hi = value
    return float(lo), float(hi)


@functools.cache
def load_tube_rules(path: Path = TUBES_FILE) -> TubeRules:
    """The rules of ``path`` (default ``data/tactics/tubes.yaml``), read once."""
    return TubeRules.load(path)


# ----------------------------------------------------------------------------------------------------
# Layout


@dataclass(frozen=True)
class Tube:
    """One torpedo tube: its ``label`` ("bow", "starboard beam", "deck", ...), ``position`` (bow, stern,
    beam, deck), ``side`` (``STARBOARD``, ``PORT``, or ``CENTRELINE`` for keel-line and deck tubes) and
    whether it is ``submerged``. A submerged beam tube is ``gyro_set``: it fires along its setting."""

    label: str
    position: str
    side: int
    submerged: bool

    @property
    def gyro_set(self) -> bool:
        return self.position == "beam" and self.submerged


def _counted(text: str, words: Sequence[str]) -> int | None:
    """The number written before one of ``words`` in ``text`` ("2 submerged"), if any."""
    for word in words:
        found = re.search(rf"(\d+)\s*(?:x\s*)?{re.escape(word)}\b", text)
        if found:
            return int(found.group(1))
    return None


def _split_kinds(ship: Ship, rules: TubeRules) -> tuple[int, int]:
    """(submerged, above water) tubes of a ship without a layout, read from her mounting text or type."""
    t = ship.torpedo_tubes
    count = t.count if t is not None else 0
    text = (t.mounting or "").lower() if t is not None else ""
    if text:
        sub = _counted(text, rules.counted_submerged)
        above = _counted(text, rules.counted_above_water)
        if sub is not None or above is not None:
            sub = min(count, sub if sub is not None else count - (above or 0))
            return sub, count - sub
        if any(re.search(rf"\b{re.escape(w)}\b", text) for w in rules.submerged_words):
            return count, 0
        if any(w in text for w in rules.above_water_words):
            return 0, count
    return (0, count) if ship.type in rules.deck_types else (count, 0)


def stand_in_mounts(ship: Ship, rules: TubeRules | None = None) -> tuple[TubeMount, ...]:
    """The STAND-IN layout of ``ship``'s tubes from their count (``stand_in_layout`` in the data file)."""
    rules = rules or load_tube_rules()
    sub, above = _split_kinds(ship, rules)
    mounts: list[TubeMount] = []
    if sub:
        key = str(sub) if str(sub) in rules.submerged_ends else ("odd" if sub % 2 else "even")
        ends = rules.submerged_ends[key]
        beam = sub - len(ends)
        if beam < 0 or beam % 2:
            raise TubeRulesError(f"stand_in_layout.submerged_ends.{key}: leaves {beam} beam tubes of {sub} "
                                 f"(need an even number, at least 0)")
        if "bow" in ends:
            mounts.append(TubeMount("bow", ends.count("bow"), True))
        if beam > 0:
            mounts.append(TubeMount("beam", beam, True))
        if "stern" in ends:
            mounts.append(TubeMount("stern", ends.count("stern"), True))
    if above:
        if ship.type in rules.deck_types:
            mounts.append(TubeMount("deck", above, False))
        else:
            if above >= 2:
                mounts.append(TubeMount("beam", above - above % 2, False))
            if above % 2:
                mounts.append(TubeMount("deck", 1, False))
    return tuple(mounts)


def tube_mounts(ship: Ship, rules: TubeRules | None = None) -> tuple[tuple[TubeMount, ...], bool]:
    """The ship's tube mounts and whether they come from the data (False: the stand-in rule's)."""
    t = ship.torpedo_tubes
    if t is None or t.count <= 0:
        return (), True
    if t.mounts:
        return t.mounts, True
    return stand_in_mounts(ship, rules), False


def ship_tubes(ship: Ship, rules: TubeRules | None = None) -> tuple[Tube, ...]:
    """Every tube of ``ship``, mount by mount in the data's order; a beam mount's tubes alternate
    starboard and port (half a side)."""
    out: list[Tube] = []
    for m in tube_mounts(ship, rules)[0]:
        if m.position == "beam":
            for k in range(m.count):
                side = STARBOARD if k % 2 == 0 else PORT
                out.append(Tube(f"{SIDE_NAMES[side]} beam", "beam", side, m.submerged))
        else:
            out.extend(Tube(m.position, m.position, CENTRELINE, m.submerged) for _ in range(m.count))
    return tuple(out)


def above_water_count(ship: Ship, rules: TubeRules | None = None) -> int:
    """Tubes mounted above water (Jane's deck tubes that may blow up when hit, seed 004 l.47)."""
    return sum(m.count for m in tube_mounts(ship, rules)[0] if not m.submerged)


def ships_without_tube_data(ships: Iterable[Ship]) -> list[str]:
    """Names of ships with tubes whose layout the stand-in rule has to fill in."""
    return [s.name for s in ships if s.torpedo_tubes is not None and s.torpedo_tubes.count > 0
            and not tube_mounts(s)[1]]


# ----------------------------------------------------------------------------------------------------
# Bearing


def side_and_off_deg(rel_bearing_deg: float) -> tuple[int, float]:
    """A signed relative bearing as (side, degrees off the bow 0-180); side ``CENTRELINE`` right ahead
    or astern."""
    if not math.isfinite(rel_bearing_deg):
        raise ValueError(f"rel_bearing_deg must be finite, got {rel_bearing_deg}")
    rel = (rel_bearing_deg + HALF_TURN_DEG) % FULL_TURN_DEG - HALF_TURN_DEG  # [-180, 180)
    off = abs(rel)
    if off == 0.0 or off == HALF_TURN_DEG:
        return CENTRELINE, off
    return (STARBOARD if rel > 0 else PORT), off


def gyro_reach_deg(rules: TubeRules) -> tuple[float, float]:
    """The settings a gyro-set beam tube may take, degrees off the bow on its side."""
    return rules.beam_abeam_deg - rules.beam_gyro_limit_deg, rules.beam_abeam_deg + rules.beam_gyro_limit_deg


def can_bear(tube: Tube, rel_bearing_deg: float, rules: TubeRules | None = None) -> bool:
    """Whether ``tube`` bears on a target at ``rel_bearing_deg`` at some setting (a gyro-set beam tube
    anywhere its gyro reaches; every other tube as it always does)."""
    rules = rules or load_tube_rules()
    side, off = side_and_off_deg(rel_bearing_deg)
    aim = rules.aim_half_arc_deg
    if tube.position == "bow":
        return off <= aim
    if tube.position == "stern":
        return off >= HALF_TURN_DEG - aim
    if tube.position == "deck":
        lo, hi = rules.deck_arc_deg
        return side != CENTRELINE and lo <= off <= hi
    if side != tube.side:
        return False
    if tube.submerged:
        lo, hi = gyro_reach_deg(rules)
        return lo - aim <= off <= hi + aim
    lo, hi = rules.beam_above_water_arc_deg
    return lo <= off <= hi


def bears_at_setting(tube: Tube, rel_bearing_deg: float, setting_deg: float,
                     rules: TubeRules | None = None) -> bool:
    """Whether a gyro-set beam tube set ``setting_deg`` off the bow (on its side) bears on a target at
    ``rel_bearing_deg``: within the aim arc of its setting. Any other tube: :func:`can_bear`."""
    rules = rules or load_tube_rules()
    if not tube.gyro_set:
        return can_bear(tube, rel_bearing_deg, rules)
    side, off = side_and_off_deg(rel_bearing_deg)
    return side == tube.side and abs(off - setting_deg) <= rules.aim_half_arc_deg


def setting_for(rel_bearing_deg: float, rules: TubeRules | None = None) -> float:
    """The gyro setting (degrees off the bow on its side) that lays a beam tube on a target at
    ``rel_bearing_deg``, as near it as the gyro reaches."""
    rules = rules or load_tube_rules()
    lo, hi = gyro_reach_deg(rules)
    return min(hi, max(lo, side_and_off_deg(rel_bearing_deg)[1]))


# ----------------------------------------------------------------------------------------------------
# State in a battle


@dataclass
class TubeBank:
    """A ship's tubes in one battle: each tube is loaded from ``ready_s`` on (``NEVER``: empty for good)
    and, if gyro-set, set ``setting_deg`` off the bow on its side, a new setting taking effect from
    ``setting_ready_s`` (seed 002 l.51, l.79-81). Times are the battle's seconds."""

    tubes: tuple[Tube, ...]
    rules: TubeRules
    ready_s: list[float] = field(default_factory=list)
    setting_deg: list[float] = field(default_factory=list)
    setting_ready_s: list[float] = field(default_factory=list)

    def __post_init__(self) -> None:
        n = len(self.tubes)
        if not self.ready_s:
            self.ready_s = [0.0] * n  # "all guns and tubes start loaded" (seed 002 l.79)
        if not self.setting_deg:
            self.setting_deg = [self.rules.beam_abeam_deg] * n  # "set ... to fire abeam" (l.51)
        if not self.setting_ready_s:
            self.setting_ready_s = [0.0] * n

    @classmethod
    def of(cls, ship: Ship, rules: TubeRules | None = None) -> TubeBank:
        """All her tubes loaded and set abeam."""
        rules = rules or load_tube_rules()
        return cls(ship_tubes(ship, rules), rules)

    def loaded(self, i: int, t_s: float) -> bool:
        return self.ready_s[i] <= t_s

    def loaded_count(self, t_s: float = NEVER) -> int:
        """Tubes loaded by ``t_s`` (default: loaded or reloading, not empty for good)."""
        return sum(1 for r in self.ready_s if r <= t_s and r != NEVER)

    def loaded_above_water(self, t_s: float = NEVER) -> int:
        return sum(1 for tube, r in zip(self.tubes, self.ready_s, strict=True)
                   if not tube.submerged and r <= t_s and r != NEVER)

    def bears(self, i: int, rel_bearing_deg: float, t_s: float, gyro: bool) -> bool:
        """Whether tube ``i`` is loaded at ``t_s`` and bears on a target at ``rel_bearing_deg``: at its
        present setting, ready by ``t_s``, if ``gyro`` (nwc1905), else anywhere it can be laid (Jane)."""
        if not self.loaded(i, t_s):
            return False
        tube = self.tubes[i]
        if gyro and tube.gyro_set:
            return self.setting_ready_s[i] <= t_s and bears_at_setting(
                tube, rel_bearing_deg, self.setting_deg[i], self.rules)
        return can_bear(tube, rel_bearing_deg, self.rules)

    def first_bearing(self, rel_bearing_deg: float, t_s: float, gyro: bool) -> int | None:
        """The first of her tubes (in layout order) loaded and bearing on the target, or None."""
        for i in range(len(self.tubes)):
            if self.bears(i, rel_bearing_deg, t_s, gyro):
                return i
        return None

    def fire(self, i: int, t_s: float, reload_s: float | None) -> None:
        """Tube ``i`` fires at ``t_s``; loaded again ``reload_s`` later (None: never, as in Jane's game)."""
        if not self.loaded(i, t_s):
            raise ValueError(f"tube {i} ({self.tubes[i].label}) is not loaded at {t_s} s")
        self.ready_s[i] = NEVER if reload_s is None else t_s + reload_s

    def needs_setting(self, i: int, rel_bearing_deg: float, t_s: float) -> bool:
        """Whether gyro-set tube ``i``, its setting not being changed, could be set for a target at
        ``rel_bearing_deg`` that its present setting misses."""
        tube = self.tubes[i]
        return (tube.gyro_set and self.ready_s[i] != NEVER and self.setting_ready_s[i] <= t_s
                and can_bear(tube, rel_bearing_deg, self.rules)
                and not bears_at_setting(tube, rel_bearing_deg, self.setting_deg[i], self.rules))

    def set_gyro(self, i: int, rel_bearing_deg: float, t_s: float, change_s: float) -> float:
        """Re-set tube ``i``'s gyro for a target at ``rel_bearing_deg`` from ``t_s``: the new setting
        (returned) takes effect ``change_s`` later ("five minutes to change setting", seed 002 l.51)."""
        if not self.tubes[i].gyro_set:
            raise ValueError(f"tube {i} ({self.tubes[i].label}) has no gyro setting")
        self.setting_deg[i] = setting_for(rel_bearing_deg, self.rules)
        self.setting_ready_s[i] = t_s + change_s
        return self.setting_deg[i]

    def empty(self, n: int) -> None:
        """Empty ``n`` loaded tubes for good, in layout order (those fired in an earlier battle)."""
        for i in range(len(self.tubes)):
            if n <= 0:
                return
            if self.ready_s[i] != NEVER:
                self.ready_s[i] = NEVER
                n -= 1

    def lose_above_water(self) -> bool:
        """Lose a loaded above-water tube (blown up, seed 004 l.121): the last in layout order."""
        for i in reversed(range(len(self.tubes))):
            if not self.tubes[i].submerged and self.ready_s[i] != NEVER:
                self.ready_s[i] = NEVER
                return True
        return False
