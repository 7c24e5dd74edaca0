"""What a run's records say happened to its ships: the facts the score and the measures are built on.

Read from the records alone (every output is derived from the records: README, "What a run gives you"), in one pass over them in time order:

* the ships (every unit with a ``start`` record), with their nation, type and bunkers from the ship data;
* each ship's ``end`` record, her first ``sunk`` record, her arrivals, and the forces she was in;
* when she first entered the Dardanelles (a record at one of the places of ``definitions.dardanelles``, or
  inside its restricted water) and when she first was west of ``definitions.west_exit``;
* the shellings, one per force, town and moment (the world writes a ``shelling`` record for each ship of
  the force, each naming every ship that shells: campaign/world/bombardment.py);
* the political timeline's wars, to tell whether two nations were at war at a moment.

What counts as what is data (data/scoring.yaml, ``definitions``).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from campaign.geo.places import default_places, place_key
from campaign.model.ships import default_ships
from campaign.model.victory_rules import Definitions

Rec = Mapping[str, Any]

# Ship states in which a ship at a port's anchorage lies in that port (campaign/world/world.py enter_port
# and coaling): at the end of the game she has "returned to a friendly port" only in one of these.
IN_PORT_STATES = frozenset({"in_port", "coaling"})


@dataclass(frozen=True)
class ShipInfo:
    """A ship of the run: side from her records; nation, type and bunker capacity (t) from the ship data
    (empty, 'unknown' and NaN for a ship the data does not know)."""

    name: str
    side: str
    nation: str
    type: str
    bunker_t: float
    is_merchant: bool


@dataclass(frozen=True)
class Shelling:
    """One force shelling one town once: when (UTC and scenario minutes), which ships, until when."""

    t: str
    t_min: float
    town: str
    town_nation: str
    force: str
    side: str
    ships: tuple[str, ...]
    until: str | None


@dataclass(frozen=True)
class Escape:
    """How a ship got away (seed 000, 'Ending the Game'): ``how`` is ``dardanelles``, ``west`` or
    ``friendly_port``; ``record`` is the record that shows it (its time, place, coal)."""

    how: str
    record: Rec

    @property
    def t(self) -> str:
        return str(self.record.get("t"))


# How a ship was lost (RunFacts.losses): sunk in the run, or "considered sunk" by the rules at the end
# (seed 000, 'Ending the Game': a German ship neither out of the Mediterranean, nor in a friendly port, nor
# in the Dardanelles when the game ends).
SUNK = "sunk"
CONSIDERED_SUNK = "considered sunk at the end"

HOW_WORDS = MappingProxyType({"dardanelles": "entered the Dardanelles",
                              "west": "left the Mediterranean to the west", "friendly_port": "in a friendly port"})


@dataclass
class RunFacts:
    """The facts of one run (build with :meth:`from_events`)."""

    definitions: Definitions
    ships: dict[str, ShipInfo] = field(default_factory=dict)
    end: dict[str, Rec] = field(default_factory=dict)
    sunk: dict[str, Rec] = field(default_factory=dict)
    arrivals: dict[str, list[Rec]] = field(default_factory=dict)
    entered_dardanelles: dict[str, Rec] = field(default_factory=dict)
    exited_west: dict[str, Rec] = field(default_factory=dict)
    shellings: list[Shelling] = field(default_factory=list)
    wars: list[tuple[float, str, frozenset[str]]] = field(default_factory=list)
    draws: dict[str, Rec] = field(default_factory=dict)
    end_t_min: float = 0.0

    @classmethod
    def from_events(cls, events: Iterable[Rec], definitions: Definitions) -> RunFacts:
        facts = cls(definitions)
        dard_keys = {place_key(p) for p in definitions.dardanelles.places}
        strait = _restricted_water(definitions.dardanelles.restricted_water)
        box = tuple(strait.bounds)
        west_lon = definitions.west_exit.lon_deg
        shellings: dict[tuple[Any, ...], Shelling] = {}
        for rec in events:
            type_, unit = rec.get("type"), rec.get("unit")
            facts.end_t_min = max(facts.end_t_min, float(rec.get("t_min") or 0.0))
            if type_ == "start" and unit:
                facts.ships.setdefault(str(unit), _ship_info(str(unit), str(rec.get("side") or "")))
            if type_ == "politics":
                kind = rec.get("kind")
                if kind in ("war", "peace") and len(rec.get("nations") or []) == 2:
                    facts.wars.append((float(rec["t_min"]), str(kind), frozenset(rec["nations"])))
                continue
            if type_ == "victory_conditions" and rec.get("side"):
                facts.draws.setdefault(str(rec["side"]), rec)
                continue
            if not unit or unit not in facts.ships:
                continue
            if type_ == "end":
                facts.end[unit] = rec
            elif type_ == "sunk":
                facts.sunk.setdefault(unit, rec)
            elif type_ == "arrive":
                facts.arrivals.setdefault(unit, []).append(rec)
            elif type_ == "shelling":
                key = (rec.get("t_min"), place_key(str(rec.get("town") or "")), rec.get("force") or unit)
                ships = tuple(str(s) for s in (rec.get("ships") or [unit]))
                old = shellings.get(key)
                if old is not None:
                    ships = tuple(dict.fromkeys(old.ships + ships))
                shellings[key] = Shelling(str(rec.get("t")), float(rec.get("t_min") or 0.0),
                                          str(rec.get("town") or ""), str(rec.get("town_nation") or ""),
                                          str(rec.get("force") or unit), str(rec.get("side") or ""), ships,
                                          rec.get("until"))
            if unit not in facts.entered_dardanelles and _in_dardanelles(rec, dard_keys, strait, box):
                facts.entered_dardanelles[unit] = rec
            lon = rec.get("lon")
            if unit not in facts.exited_west and lon is not None and float(lon) < west_lon:
                facts.exited_west[unit] = rec
        facts.shellings = sorted(shellings.values(), key=lambda s: s.t_min)
        return facts

    # -- questions ---------------------------------------------------------------------------------

    def at_war(self, a: str, b: str, t_min: float) -> bool:
        """Were nations ``a`` and ``b`` at war at ``t_min`` by the run's ``politics`` records?"""
        pair = frozenset((a, b))
        state = False
        for t, kind, nations in self.wars:
            if t > t_min:
                break
            if nations == pair:
                state = kind == "war"
        return state

    def is_sunk(self, ship: str) -> bool:
        return ship in self.sunk or (self.end.get(ship) or {}).get("status") == "sunk"

    def home_port_at_end(self, ship: str) -> str | None:
        """The friendly port (definitions.friendly_ports of her nation) she lies in at the end, if any."""
        info, end = self.ships.get(ship), self.end.get(ship)
        if info is None or end is None or end.get("status") not in IN_PORT_STATES or not end.get("place"):
            return None
        ports = {place_key(p) for p in self.definitions.ports_friendly_to(info.nation)}
        return str(end["place"]) if place_key(str(end["place"])) in ports else None

    def escape(self, ship: str) -> Escape | None:
        """How and when the ship got away, if she did: the first of entering the Dardanelles and leaving
        the Mediterranean to the west; else lying in a friendly port at the end (from her arrival there)."""
        if self.is_sunk(ship) and ship not in self.entered_dardanelles and ship not in self.exited_west:
            return None
        found = [Escape(how, rec) for how, rec in (("dardanelles", self.entered_dardanelles.get(ship)),
                                                   ("west", self.exited_west.get(ship))) if rec is not None]
        if found:
            return min(found, key=lambda e: float(e.record.get("t_min") or 0.0))
        port = self.home_port_at_end(ship)
        if port is None:
            return None
        came = [a for a in self.arrivals.get(ship, []) if place_key(str(a.get("place") or a.get("to") or ""))
                == place_key(port)]
        return Escape("friendly_port", came[-1] if came else self.end[ship])

    def considered_sunk(self, nations: Iterable[str]) -> list[str]:
        """Ships of ``nations`` afloat at the end that had not escaped: "considered sunk" (seed 000,
        'Ending the Game')."""
        nations = set(nations)
        return [name for name, info in self.ships.items()
                if info.nation in nations and name in self.end and not self.is_sunk(name)
                and self.escape(name) is None]

    def lost(self, ship: str) -> tuple[str, Rec] | None:
        """('sunk', her ``sunk`` record, else her ``end`` record) for a ship sunk in the run; else None."""
        if ship in self.sunk:
            return "sunk", self.sunk[ship]
        if self.is_sunk(ship):
            return "sunk", self.end[ship]
        return None

    def losses(self, considered_nations: Iterable[str] = ()) -> dict[str, tuple[str, Rec]]:
        """Every ship the run loses, in the order of the ships: ``(SUNK, record)`` for one sunk (:meth:`lost`),
        ``(CONSIDERED_SUNK, end record)`` for one of ``considered_nations`` afloat at the end that had not
        escaped (:meth:`considered_sunk`; the scoring rules name the nations, none without them). Warships,
        colliers and merchant ships alike: the score's rows and the measures both count from this, so a
        ship counted lost in one is named lost in the other."""
        considered = set(self.considered_sunk(considered_nations))
        out: dict[str, tuple[str, Rec]] = {}
        for ship in self.ships:
            lost = self.lost(ship)
            if lost is not None:
                out[ship] = (SUNK, lost[1])
            elif ship in considered:
                out[ship] = (CONSIDERED_SUNK, self.end[ship])
        return out


def _ship_info(name: str, side: str) -> ShipInfo:
    ship = default_ships().get(name)
    if ship is None:
        return ShipInfo(name, side, "", "unknown", math.nan, False)
    return ShipInfo(name, side, ship.nation, ship.type, float(ship.coal_capacity_t), ship.is_merchant)


def _restricted_water(name: str) -> Any:
    from campaign.geo.regions import restricted_waters

    for rw in restricted_waters():
        if rw.name == name:
            return rw.area.geometry
    raise KeyError(f"data/scoring.yaml: definitions.dardanelles.restricted_water: no restricted water '{name}' "
                   "in data/restricted_waters.yaml")


def _in_dardanelles(rec: Rec, place_keys: set[str], strait: Any, box: tuple[float, ...]) -> bool:
    """Is the record at a Dardanelles place, or inside the strait's polygon (``box``: its bounds,
    west, south, east, north in degrees)?"""
    for key in ("place", "to") if rec.get("type") == "arrive" else ("place",):
        if rec.get(key) and place_key(str(rec[key])) in place_keys:
            return True
    lat, lon = rec.get("lat"), rec.get("lon")
    if lat is None or lon is None:
        return False
    # Most records lie far from the strait: its bounding box settles them without a geometry test.
    west, south, east, north = box
    x, y = float(lon), float(lat)
    if not (west <= x <= east and south <= y <= north):
        return False
    import shapely

    return bool(shapely.contains_xy(strait, x, y))


def place_nation(name: str) -> str | None:
    """The 1914 sovereign of a place of data/places.yaml (None for an unknown place or open water)."""
    places = default_places()
    return places.get(name).nation if name in places else None
