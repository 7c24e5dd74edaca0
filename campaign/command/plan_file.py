"""A commander's plan as data (``data/doctrine/<name>.yaml``): his intent, the moves open to him and their
figures, places resolved to points. Read once per process; plain frozen values, no world."""

from __future__ import annotations

import functools
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from campaign.datafile import load_yaml
from campaign.geo.places import default_places
from campaign.model.orders import Point
from campaign.paths import DATA_DIR

DOCTRINE_DIR = DATA_DIR / "doctrine"


@dataclass(frozen=True)
class Shelling:
    """A town a force shells at the outbreak of war: from ``at`` (UTC) for ``hours``."""

    force: str
    town: str
    at: datetime
    hours: float


@dataclass(frozen=True)
class CoalPort:
    """A port he may coal at: its point, from when it can give coal (UTC), and the coal to be had before
    then (t by force, taken until ``before_war_until``)."""

    point: Point
    ready: datetime
    before_war_t: tuple[tuple[str, float], ...]
    before_war_until: datetime | None
    max_t: tuple[tuple[str, float], ...] = ()  # the coal to be had there for each force, t (none: until full)
    # A neutral port where, coaled, he stays until its time limit puts him out (the crew rests).
    stay_out_time: bool = False


@dataclass(frozen=True)
class Collier:
    """A collier arranged to meet him at ``point`` from ``at`` (UTC)."""

    collier: str
    point: Point
    at: datetime
    wait_at: Point | None = None  # where he waits at sea until it is time to go to the rendezvous


@dataclass(frozen=True)
class Objective:
    """Where an order may send him: the approach, the place beyond it, the leave he needs, and his speed."""

    name: str
    approach: Point
    enter: Point
    leave: str
    speed_kn: float


@dataclass(frozen=True)
class Route:
    """A way to ``to`` (a place, or ``east``: the Aegean round Cape Matapan) through ``via``."""

    name: str
    to: str
    via: tuple[Point, ...]


@dataclass(frozen=True)
class Plan:
    """A commander's plan (``data/doctrine/<name>.yaml``): every figure in knots, hours, nm or fractions."""

    name: str
    commander: str
    shell: tuple[Shelling, ...]
    shell_if_within_h: float
    passage_kn: float
    reserve_fraction: float
    least_reserve_fraction: float
    clear_nm: float
    threat_fresh_h: float
    wait_h: float
    pilot_wait_h: float
    ports: tuple[CoalPort, ...]
    colliers: tuple[Collier, ...]
    objectives: tuple[Objective, ...]
    routes: tuple[Route, ...]

    def objective(self, name: str | None) -> Objective | None:
        return next((o for o in self.objectives if o.name == name), None)


def _utc(v: Any) -> datetime:
    if isinstance(v, datetime):
        return v if v.tzinfo else v.replace(tzinfo=UTC)
    text = str(v).strip()
    return datetime.fromisoformat(text[:-1] + "+00:00" if text.endswith("Z") else text)


def point(where: Any) -> Point:
    """A place of data/places.yaml (its anchorage) or a {lat, lon, name} mapping, as an order's point."""
    if isinstance(where, str):
        p = default_places().get(where)
        return Point(p.anchorage_lat, p.anchorage_lon, p.name, p.name)
    return Point(float(where["lat"]), float(where["lon"]), where.get("name"))


def parse_plan(name: str, raw: dict) -> Plan:
    """A plan from the content of its file."""
    return Plan(
        name=name, commander=raw["commander"],
        shell=tuple(Shelling(s["force"], s["town"], _utc(s["at"]), float(s["hours"])) for s in raw.get("shell", ())),
        shell_if_within_h=float(raw["shell_if_within_h"]), passage_kn=float(raw["passage_kn"]),
        reserve_fraction=float(raw["reserve_fraction"]), least_reserve_fraction=float(raw["least_reserve_fraction"]),
        clear_nm=float(raw["clear_nm"]), threat_fresh_h=float(raw["threat_fresh_h"]), wait_h=float(raw["wait_h"]),
        pilot_wait_h=float(raw["pilot_wait_h"]),
        ports=tuple(CoalPort(point(p["place"]), _utc(p["ready"]),
                             tuple(sorted((k, float(v)) for k, v in (p.get("before_war_t") or {}).items())),
                             _utc(p["before_war_until"]) if p.get("before_war_until") else None,
                             tuple(sorted((k, float(v)) for k, v in (p.get("max_t") or {}).items())),
                             bool(p.get("stay_out_time", False)))
                    for p in raw.get("ports", ())),
        colliers=tuple(Collier(c["collier"], point(c["place"]), _utc(c["from"]),
                               point(c["wait_at"]) if c.get("wait_at") else None) for c in raw.get("colliers", ())),
        objectives=tuple(Objective(k, point(o["approach"]), point(o["enter"]), o["leave"], float(o["speed_kn"]))
                         for k, o in (raw.get("objectives") or {}).items()),
        routes=tuple(Route(r["name"], r["to"], tuple(point(w) for w in r["via"])) for r in raw.get("routes", ())),
    )


@functools.cache
def load_plan(name: str, directory: Path = DOCTRINE_DIR) -> Plan:
    """The plan ``data/doctrine/<name>.yaml``."""
    path = Path(directory) / f"{name}.yaml"
    return parse_plan(name, load_yaml(path.read_text()))
