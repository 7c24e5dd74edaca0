"""A validated, resolved scenario as plain data: what the world is built from.

The loader (``campaign.scenario.loader``) turns a YAML file into this: ship names become ``Ship``
records, place names become points, UTC times become scenario minutes. Nothing here knows SimPy.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from campaign.command.view import Standing
from campaign.geo.routing import AvoidArea
from campaign.model.orders import Order, Point
from campaign.model.politics import Politics
from campaign.model.ships import Ship


@dataclass(frozen=True)
class ForceSpec:
    """A force at the start: its ships, where it lies, coal on hand per ship, and its orders.

    ``enters_min``: when it comes into the theatre at ``start`` with that coal (scenario minutes; 0, the
    default, for a force there from the start). Before then it is not in the run: unseen, unheard, and
    burning nothing."""

    name: str
    side: str
    nation: str
    ships: tuple[Ship, ...]
    start: Point
    coal_t: Mapping[str, float]
    cargo_t: Mapping[str, float]
    orders: tuple[Order, ...]
    avoid: tuple[AvoidArea, ...] = ()
    note: str | None = None
    enters_min: float = 0.0


@dataclass(frozen=True)
class NeutralNotice:
    """A neutral's notice to a belligerent in one of its ports: the stay limit counts from ``t_min``.

    Hague Convention XIII (1907), Art. 12 limits a belligerent warship's stay in a neutral port to
    24 hours; Italy counted them from its notification, 17:00 on 5 Aug 1914 (a Russian naval narrative,
    probably Bolnykh, litmir.club/br/?b=282688&p=9; Massie, Castles of Steel ch.8).
    """

    port: str
    nation: str
    t_min: float
    note: str | None = None


@dataclass(frozen=True)
class HeadquartersSpec:
    """A command that is not a force: ashore at a telegraph ``station``, or ``aboard`` a force."""

    name: str
    side: str
    nation: str
    station: str | None = None
    aboard: str | None = None
    superior: str | None = None
    relay_to: tuple[str, ...] = ()
    note: str | None = None
    overlooks: tuple[str, ...] = ()  # places (gazetteer names) whose enemy arrivals it reports to its superior


@dataclass(frozen=True)
class MessageSpec:
    """A historical message sent at ``t_min``; ``orders`` (per force) and ``standing`` take effect for
    each force of ``orders_for`` when the message, or a headquarters' copy of it, reaches that force.
    ``id`` is the scenario's id of the message (unique in the scenario; ``messages[i]`` for one without);
    a message to several receivers is one spec per receiver, all with its id."""

    t_min: float
    sender: str
    receiver: str
    text: str
    orders_for: tuple[str, ...] = ()
    orders: Mapping[str, tuple[Order, ...]] = field(default_factory=dict)
    note: str | None = None
    standing: tuple[tuple[str, Any], ...] = ()  # (field, value) changes to the forces' standing instructions
    id: str = ""


@dataclass(frozen=True)
class Variant:
    """The what-if overlay a scenario was built from (campaign/scenario/overlay.py)."""

    name: str
    title: str
    summary: str
    base: str  # the base scenario's name
    path: Path | None = None
    sources: tuple[str, ...] = ()


@dataclass(frozen=True)
class Factors:
    """Multipliers on whole rule tables, for sensitivity studies (campaign/batch/parameters.py): 1.0 is
    the rules as sourced and changes nothing.

    ``sighting_range`` scales every sighting range of data/sighting.yaml (smoke, hull and so recognition);
    ``telegraph_delay`` scales every telegraph delay of data/telegraph.yaml (the 1905 rule's minutes per
    1,000 nm by day and night, each station's handling minutes, a headquarters' dispatch minutes).
    """

    sighting_range: float = 1.0
    telegraph_delay: float = 1.0


@dataclass(frozen=True)
class Scenario:
    name: str
    title: str
    start_utc: datetime
    end_utc: datetime
    sides: Mapping[str, tuple[str, ...]]  # side name -> nations on that side
    forces: tuple[ForceSpec, ...]
    seed: int | None = None
    neutral_sides: frozenset[str] = frozenset()
    neutral_notices: tuple[NeutralNotice, ...] = ()
    politics: Politics = field(default_factory=Politics)
    weather_script: tuple = ()  # campaign.world.weather.ScriptedPeriod
    headquarters: tuple[HeadquartersSpec, ...] = ()
    standing: Mapping[str, Standing] = field(default_factory=dict)
    messages: tuple[MessageSpec, ...] = ()
    description: str = ""
    path: Path | None = None
    local_time: Mapping[str, object] = field(default_factory=dict)
    engine: str = "nwc1905"  # the tactical engine its battles are fought under (campaign.tactics.engines)
    damage: str | None = None  # how their hits do damage: "own", "gwas", None the engine's default
    variant: Variant | None = None  # the what-if overlay it was built from, if any
    scoring: str | None = None  # the scoring rules ("seed000": data/scoring.yaml), if any
    factors: Factors = field(default_factory=Factors)  # rule-table multipliers (sensitivity studies)

    @property
    def duration_min(self) -> float:
        return (self.end_utc - self.start_utc).total_seconds() / 60.0

    def nations(self) -> tuple[str, ...]:
        return tuple(n for nations in self.sides.values() for n in nations)

    def side_of_nation(self, nation: str) -> str | None:
        for side, nations in self.sides.items():
            if nation in nations:
                return side
        return None
