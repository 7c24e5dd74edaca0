"""Orders a force follows, as plain data (no SimPy here).

Times are scenario minutes (``t_min``); the scenario loader converts the UTC times of the file.
Every order may carry ``at_min`` (not before this time) and ``note`` (its historical source or
reason, copied into the records it causes).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, Union

SpeedName = Literal["design", "sustained", "economical"]
Speed = Union[float, SpeedName]


@dataclass(frozen=True)
class Point:
    """A destination: a place (its anchorage) or a sea point. ``name`` is None for bare coordinates."""

    lat: float
    lon: float
    name: str | None = None
    place: str | None = None  # gazetteer name when the point is a place

    def label(self) -> str:
        return self.name or f"{self.lat:.3f},{self.lon:.3f}"


@dataclass(frozen=True)
class Sail:
    """Steam by sea route to ``to`` (through ``via`` in order) at ``speed``.

    ``speed`` is knots or the name of one of the ships' speeds (the slowest ship's figure rules).
    With ``until_min`` the force stops steaming at that time wherever it is and takes its next order.
    """

    to: Point
    speed: Speed = "economical"
    via: tuple[Point, ...] = ()
    at_min: float | None = None
    until_min: float | None = None
    note: str | None = None


@dataclass(frozen=True)
class Wait:
    """Stay where the force is (in port, or stopped at sea with steam up) until ``until_min``."""

    until_min: float
    at_min: float | None = None
    note: str | None = None


@dataclass(frozen=True)
class Coal:
    """Take coal at the port the force lies in, each ship until full, ``max_t`` taken, ``until_min``,
    or ``hours`` after the coaling begins."""

    until_min: float | None = None
    max_t: float | None = None
    hours: float | None = None
    at_min: float | None = None
    note: str | None = None


@dataclass(frozen=True)
class CoalFromCollier:
    """Meet the collier force ``collier`` where this force lies, and coal from it.

    Waits for the collier to arrive (within ``meet_radius_nm``, from data/strategic_rules.yaml), then
    each ship takes coal until full, ``max_t``, ``until_min``, ``hours`` after the coaling begins, or
    the collier's cargo is gone.
    """

    collier: str
    until_min: float | None = None
    max_t: float | None = None
    hours: float | None = None
    at_min: float | None = None
    note: str | None = None


@dataclass(frozen=True)
class Detach:
    """Split ``ships`` off as a new force ``name`` that follows its own ``orders``."""

    name: str
    ships: tuple[str, ...]
    orders: tuple[Order, ...]
    at_min: float | None = None
    note: str | None = None


@dataclass(frozen=True)
class Bombard:
    """Shell the town ``town`` (a gazetteer place name) until ``until_min`` or for ``hours`` from when
    the shelling begins (the earlier, when both are given).

    The force must lie off the town, within gun range of it (``data/strategic_rules.yaml``,
    ``bombardment``); farther off, it first steams there. It shells only if its nation is at war with
    the town's at that moment; else it lies off the town for the time instead (seed 000, "Shelling a
    Town": "The German player may shell any port(s) on the North African Coast at any time").
    """

    town: str
    until_min: float | None = None
    hours: float | None = None
    at_min: float | None = None
    note: str | None = None


@dataclass(frozen=True)
class Stop:
    """Stop and stay for the rest of the scenario (in port, or stopped at sea)."""

    at_min: float | None = None
    note: str | None = None


Order = Union[Sail, Wait, Coal, CoalFromCollier, Detach, Bombard, Stop]
