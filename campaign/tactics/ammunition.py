"""Ammunition: each gun group's outfit, what a battle spends of it, what is left, and how fast a gun fires.

A ship carries her outfit per gun (``data/guns.yaml`` ``outfit_rounds_per_gun``, with its citation) for every
gun group of hers (``Ship.guns``). A battle spends it under each engine's rule (``data/ammunition.yaml``,
``engines``: Jane one round a strike, seed 004 l.27/l.29; the 1905 rules the guns' rounds in the time they
fire; the board a stand-in per firing), a group with no rounds left does not fire, and the rounds left go
out of the battle in her ``Condition.rounds_left`` (``campaign.tactics.protocol``) and into the next. A ship
fills up at a base with her navy's ammunition (``campaign.world.rearm``).

``Condition.rounds_left`` is one count per gun group, in the order of ``Ship.guns``, of all its barrels
together (the group's magazine); ``None`` is her full outfit.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from types import MappingProxyType

from campaign.datafile import load_yaml
from campaign.model.guns import GunTable, gun_data
from campaign.model.ships import Gun, Ship
from campaign.paths import DATA_DIR
from campaign.tactics.protocol import Condition

AMMUNITION_FILE = DATA_DIR / "ammunition.yaml"

MM_PER_IN = 25.4
#: The 1905 rules' rate law: an n-inch gun fires 8 / n rounds a minute ("12-inch guns fire once every 1.5
#: minutes and 8-inch once a minute", seed 002 l.79; data/tactics/nwc1905.yaml, gun_classes).
RULES_RATE_INCH_ROUNDS = 8.0

NWC_RATES = ("rules", "guns")
JANE_CHANGES = ("loading_interval",)


@dataclass(frozen=True)
class AmmunitionRules:
    """The rules of ``data/ammunition.yaml``: per engine, what a battle spends; the time to fill up; and
    which places hold each navy's ammunition (``bases[nation]``, gazetteer names)."""

    jane_rounds_per_strike: int
    jane_projectile_change: str
    nwc1905_rate: str
    board_minutes_of_fire_per_firing: float
    rearm_full_outfit_h: float
    bases: Mapping[str, tuple[str, ...]]

    def bases_of(self, nation: str) -> tuple[str, ...]:
        """The places where a ship of ``nation`` fills her outfit (none for a navy not listed)."""
        return self.bases.get(nation, ())


class AmmunitionDataError(ValueError):
    """``data/ammunition.yaml`` is malformed; the message names the file and the field."""


def load_ammunition_rules(path: str | Path = AMMUNITION_FILE) -> AmmunitionRules:
    """Read and check an ammunition file (default ``data/ammunition.yaml``)."""
    path = Path(path)
    raw = load_yaml(path.read_text(encoding="utf-8"))
    try:
        eng = raw["engines"]
        rules = AmmunitionRules(
            jane_rounds_per_strike=int(eng["jane"]["rounds_per_strike"]),
            jane_projectile_change=str(eng["jane"]["projectile_change"]),
            nwc1905_rate=str(eng["nwc1905"]["rate"]),
            board_minutes_of_fire_per_firing=float(eng["board"]["minutes_of_fire_per_firing"]),
            rearm_full_outfit_h=float(raw["rearm"]["full_outfit_h"]),
            bases=MappingProxyType({str(n): tuple(str(p) for p in (places or ()))
                                    for n, places in raw["bases"].items() if n != "sources"}),
        )
    except (KeyError, TypeError, ValueError) as exc:
        raise AmmunitionDataError(f"{path}: missing or malformed field: {exc}") from exc
    if rules.jane_rounds_per_strike < 1:
        raise AmmunitionDataError(f"{path}: engines.jane.rounds_per_strike must be at least 1")
    if rules.jane_projectile_change not in JANE_CHANGES:
        raise AmmunitionDataError(f"{path}: engines.jane.projectile_change must be one of {JANE_CHANGES}")
    if rules.nwc1905_rate not in NWC_RATES:
        raise AmmunitionDataError(f"{path}: engines.nwc1905.rate must be one of {NWC_RATES}")
    if not (rules.board_minutes_of_fire_per_firing > 0 and rules.rearm_full_outfit_h > 0):
        raise AmmunitionDataError(f"{path}: minutes_of_fire_per_firing and full_outfit_h must be positive")
    return rules


@cache
def default_ammunition_rules() -> AmmunitionRules:
    """The bundled ``data/ammunition.yaml``, read once."""
    return load_ammunition_rules(AMMUNITION_FILE)


# ----------------------------------------------------------------------------------------------------
# Outfits and rates


def outfit_rounds(gun: Gun, table: GunTable | None = None) -> int:
    """A gun group's outfit: its barrels times the gun's ``outfit_rounds_per_gun`` (``data/guns.yaml``).
    ValueError if the file gives the gun none (every gun of the ships that fight must have one)."""
    per_gun = gun_data(gun, table).outfit_rounds_per_gun
    if per_gun is None:
        raise ValueError(f"data/guns.yaml gives {gun.label!r} no outfit_rounds_per_gun")
    return gun.count * per_gun


def outfits(ship: Ship, table: GunTable | None = None) -> tuple[int, ...]:
    """Her full outfit, one count per gun group in the order of ``ship.guns`` (rounds)."""
    return tuple(outfit_rounds(g, table) for g in ship.guns)


def rounds_at_entry(ship: Ship, condition: Condition) -> list[int]:
    """The rounds she brings into a battle per gun group: her condition's ``rounds_left`` (each between 0
    and the group's outfit), or her full outfit where it carries none or one of another armament."""
    full = outfits(ship)
    carried = condition.rounds_left
    if carried is None or len(carried) != len(full):
        return list(full)
    return [min(max(0, int(n)), cap) for n, cap in zip(carried, full)]


def rules_rate_rounds_per_min(calibre_in: float) -> float:
    """The 1905 rules' rate law for a gun of ``calibre_in`` inches: 8 / calibre rounds a minute (seed 002
    l.79: the 12-inch once in 1.5 minutes, the 8-inch once a minute)."""
    return RULES_RATE_INCH_ROUNDS / calibre_in


def practical_rate_rounds_per_min(gun: Gun, table: GunTable | None = None) -> tuple[float, bool]:
    """(rounds a minute, stand-in?) of a gun: its practical rate from ``data/guns.yaml``, or, where the file
    has none, the 1905 rules' law for its calibre (a labelled stand-in: True)."""
    rate = gun_data(gun, table).rate_of_fire_rounds_per_min
    if rate is not None and rate > 0:
        return float(rate), False
    return rules_rate_rounds_per_min(gun.calibre_mm / MM_PER_IN), True


def calibre_weight(gun: Gun) -> float:
    """A round's weight in proportion (the calibre cubed, inches): how long it takes to strike down."""
    return (gun.calibre_mm / MM_PER_IN) ** 3


def missing_share(ship: Ship, rounds_left: Sequence[int]) -> float:
    """The share of her outfit missing (0 full, 1 empty), by weight of round (``calibre_weight``)."""
    full = outfits(ship)
    total = sum(n * calibre_weight(g) for g, n in zip(ship.guns, full))
    if total <= 0:
        return 0.0
    missing = sum((n - min(n, max(0, left))) * calibre_weight(g) for g, n, left in zip(ship.guns, full, rounds_left))
    return missing / total


# ----------------------------------------------------------------------------------------------------
# A ship's rounds in a battle


@dataclass
class Magazine:
    """One ship's rounds in a battle, per gun group (``Ship.guns`` order): what she came in with
    (``entry``), what is left (``left``) and the fractions of a round owed by fire reckoned in time
    (``owed``: the 1905 rules' and the board's), and her full ``outfit`` where known. ``left`` never goes
    below 0; ``entry - left`` is what the battle spent."""

    entry: tuple[int, ...]
    left: list[int] = field(default_factory=list)
    owed: list[float] = field(default_factory=list)
    outfit: tuple[int, ...] | None = None

    def __post_init__(self) -> None:
        if not self.left:
            self.left = list(self.entry)
        if not self.owed:
            self.owed = [0.0] * len(self.entry)

    @classmethod
    def of(cls, ship: Ship, condition: Condition) -> Magazine:
        """Her magazine as she enters a battle (``rounds_at_entry``)."""
        return cls(tuple(rounds_at_entry(ship, condition)), outfit=outfits(ship))

    def has(self, i: int) -> bool:
        """Whether gun group ``i`` has a round left."""
        return self.left[i] > 0

    def dry(self) -> frozenset[int]:
        """The gun groups with no round left."""
        return frozenset(i for i, n in enumerate(self.left) if n <= 0)

    def spend(self, i: int, rounds: int) -> int:
        """Fire up to ``rounds`` from group ``i``: the rounds fired (never more than it has)."""
        fired = min(max(0, int(rounds)), self.left[i])
        self.left[i] -= fired
        return fired

    def spend_time(self, i: int, exact_rounds: float) -> int:
        """Fire ``exact_rounds`` (a fraction of a round carried to the next call) from group ``i``: the
        whole rounds fired, never more than it has (what it lacks is not owed)."""
        due = self.owed[i] + max(0.0, exact_rounds)
        whole = math.floor(due + 1e-9)
        fired = self.spend(i, whole)
        self.owed[i] = due - whole if fired == whole else 0.0
        return fired

    def spent(self) -> tuple[int, ...]:
        """Rounds spent per group since the battle began."""
        return tuple(e - n for e, n in zip(self.entry, self.left))

    def rounds_left(self) -> tuple[int, ...] | None:
        """What is left, for ``Condition.rounds_left``: None while it is her whole outfit (the condition's
        word for a full outfit)."""
        left = tuple(self.left)
        return None if left == self.outfit else left


def rounds_by_gun(ship: Ship, fired: Mapping[int, int]) -> dict[str, int]:
    """Rounds fired per gun group (index -> rounds) as a record's field: by the group's label (groups of one
    label summed), only those that fired."""
    out: dict[str, int] = {}
    for i, n in fired.items():
        if n > 0:
            label = ship.guns[i].label
            out[label] = out.get(label, 0) + n
    return out


def rounds_left_by_gun(ship: Ship, condition: Condition) -> dict[str, int]:
    """Her rounds left per gun label (groups of one label summed), her full outfit if the condition
    carries none: a record's field."""
    out: dict[str, int] = {}
    for g, n in zip(ship.guns, rounds_at_entry(ship, condition)):
        out[g.label] = out.get(g.label, 0) + n
    return out
