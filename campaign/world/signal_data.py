"""Data of the signals model: the telegraph network and the wireless sets and shore stations of 1914.

Reads ``data/telegraph.yaml`` (stations, cables and land lines, the 1905 rule, handling minutes) and
``data/wireless.yaml`` (working rules, ship set classes, which ship carries which set, shore stations),
validates them with pydantic and returns immutable records. Every figure's source is in the files.
:func:`default_signal_data` loads the bundled files once per process; :func:`parse_signal_data` builds the
same records from already-parsed mappings (small networks in tests).

Units: distances in nautical miles, times in minutes, positions in degrees (WGS84, north and east positive).
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from types import MappingProxyType
from typing import Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from campaign.datafile import load_yaml
from campaign.geo.earth import distance_nm
from campaign.geo.places import Gazetteer, default_places, place_key
from campaign.paths import DATA_DIR

TELEGRAPH_FILE = DATA_DIR / "telegraph.yaml"
WIRELESS_FILE = DATA_DIR / "wireless.yaml"
ANY = "any"


class SignalDataError(ValueError):
    """Bad telegraph or wireless data; the message names the file and the entry."""


# ------------------------------------------------------------------------------------------ records


@dataclass(frozen=True)
class Station:
    """A telegraph station: a cable landing or a telegraph office (capital, naval base, town)."""

    name: str
    aka: tuple[str, ...]
    lat: float
    lon: float
    nation: str | None
    kind: str
    handling_min: float
    capacity: int
    source: str


@dataclass(frozen=True)
class Link:
    """A cable or land line between two stations (undirected); ``length_basis`` says how the length was got."""

    a: str
    b: str
    kind: str  # "cable" | "land_line"
    length_nm: float
    length_basis: str  # "sourced" | "computed"
    laid: str | None
    source: str


@dataclass(frozen=True)
class Circuit:
    """Stations worked through as one circuit: a message keyed at one of them is read at any other in
    ``transit_min`` (day or night), unhandled by the stations between, whose instruments translate it."""

    name: str
    stations: tuple[str, ...]
    transit_min: float
    source: str


@dataclass(frozen=True)
class TelegraphRules:
    """The 1905 rule (minutes per 1,000 nm by day and night) and the handling of messages at stations."""

    day_min_per_1000_nm: float
    night_min_per_1000_nm: float
    cable_routing_factor: float
    land_line_routing_factor: float
    dispatch_min: float
    hq_capacity: int
    relay_min: float
    relay_capacity: int
    capital_capacity: int

    def line_min(self, length_nm: float, night: bool) -> float:
        """Minutes for a message over ``length_nm`` of cable or line (seed 002, NWC 1905 Strategic Game)."""
        rate = self.night_min_per_1000_nm if night else self.day_min_per_1000_nm
        return length_nm / 1000.0 * rate


@dataclass(frozen=True)
class WirelessSet:
    """A class of W/T set: ranges (nm) by day and night to a reference receiver, and its receive factor."""

    key: str
    day_nm: float
    night_nm: float
    receive_factor: float
    source: str

    def range_nm(self, night: bool) -> float:
        return self.night_nm if night else self.day_nm


@dataclass(frozen=True)
class ShoreStation:
    """A shore W/T station, joined by land line to a telegraph station, serving the listed nations."""

    name: str
    aka: tuple[str, ...]
    lat: float
    lon: float
    nation: str
    serves: tuple[str, ...]
    telegraph: str
    set: WirelessSet
    source: str
    stand_in: str | None = None  # what of its figures is a stand-in (said in the records of its hops)


@dataclass(frozen=True)
class WirelessRules:
    words_per_min: float
    header_words: int
    encipher_min: float
    decipher_min: float
    intercept_factor: float
    jam_margin: float
    jam_retry_min: float
    no_route_retry_min: float
    hold_limit_min: float
    # Whose traffic a ship's set relays: "nation" (her own navy's) or "side" (any navy of her side).
    relay_for: str = "side"

    def transmit_min(self, text: str) -> float:
        """Minutes to key a message of ``text`` with its header at the working speed."""
        return (len(text.split()) + self.header_words) / self.words_per_min


@dataclass(frozen=True)
class FitRule:
    nation: str | None
    types: tuple[str, ...]
    set_key: str | None


@dataclass(frozen=True, eq=False)
class SignalData:
    """Everything the signals model reads: stations and links, sets, fit rules, shore stations, rules."""

    stations: tuple[Station, ...]
    links: tuple[Link, ...]
    telegraph: TelegraphRules
    sets: Mapping[str, WirelessSet]
    fit: tuple[FitRule, ...]
    shore_stations: tuple[ShoreStation, ...]
    wireless: WirelessRules
    circuits: tuple[Circuit, ...] = ()

    def with_telegraph_delay(self, factor: float) -> SignalData:
        """This data with every telegraph delay multiplied by ``factor``: the 1905 rule's minutes per
        1,000 nm by day and by night, each station's handling minutes and a headquarters' dispatch
        minutes (a scenario's ``factors.telegraph_delay``, for sensitivity studies). Wireless is left
        as it is; 1.0 returns the data itself. A through circuit's minutes scale with them."""
        if factor == 1.0:
            return self
        t = self.telegraph
        rules = replace(t, day_min_per_1000_nm=t.day_min_per_1000_nm * factor,
                        night_min_per_1000_nm=t.night_min_per_1000_nm * factor,
                        dispatch_min=t.dispatch_min * factor, relay_min=t.relay_min * factor)
        stations = tuple(replace(s, handling_min=s.handling_min * factor) for s in self.stations)
        circuits = tuple(replace(c, transit_min=c.transit_min * factor) for c in self.circuits)
        return replace(self, stations=stations, circuits=circuits, telegraph=rules)

    def station(self, name: str) -> Station:
        """The telegraph station known by ``name`` or one of its other names (any case or accents)."""
        return _look_up(self._by_key, name)

    @functools.cached_property
    def _by_key(self) -> dict[str, Station]:
        """The stations' index (``station_index``), made once: every force that enters a port looks
        its station up, in every run."""
        return station_index(self.stations)

    def set_for(self, nation: str, ship_type: str) -> str | None:
        """The key of the W/T set a ship of ``nation`` and ``ship_type`` carries, or None (no W/T)."""
        for rule in self.fit:
            if ship_type in rule.types and (rule.nation is None or rule.nation == nation):
                return rule.set_key
        return None


def station_index(stations: tuple[Station, ...]) -> dict[str, Station]:
    """Each station by the lookup key (``place_key``) of each of its names; where two share a name,
    the first of ``stations``."""
    out: dict[str, Station] = {}
    for s in stations:
        for n in (s.name, *s.aka):
            out.setdefault(place_key(n), s)
    return out


def _look_up(index: Mapping[str, Station], name: str) -> Station:
    st = index.get(place_key(name))
    if st is None:
        raise KeyError(f"unknown telegraph station {name!r}")
    return st


# ------------------------------------------------------------------------------------- file schema


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class _HQ(_Model):
    dispatch_min: float = Field(ge=0)
    capacity: int = Field(ge=1)
    source: str = Field(min_length=1)


class _Relay(_Model):
    handling_min: float = Field(ge=0)
    capacity: int = Field(ge=1)
    capital_capacity: int = Field(ge=1)
    source: str = Field(min_length=1)


class _TRules(_Model):
    day_min_per_1000_nm: float = Field(gt=0)
    night_min_per_1000_nm: float = Field(gt=0)
    cable_routing_factor: float = Field(ge=1)
    land_line_routing_factor: float = Field(ge=1)
    headquarters: _HQ
    relay: _Relay


class _Station(_Model):
    name: str = Field(min_length=1)
    aka: list[str] = []
    place: str | None = None
    lat: float | None = Field(default=None, ge=-90, le=90)
    lon: float | None = Field(default=None, ge=-180, le=180)
    nation: str | None = None
    kind: Literal["capital", "cable_station", "telegraph_office", "naval_base"]
    handling_min: float | None = Field(default=None, ge=0)
    capacity: int | None = Field(default=None, ge=1)
    source: str = Field(min_length=1)
    note: str | None = None

    @model_validator(mode="after")
    def _position(self) -> _Station:
        if self.place is None and (self.lat is None or self.lon is None or self.nation is None):
            raise ValueError("give either `place` (a data/places.yaml name) or lat, lon and nation")
        return self


class _Link(_Model):
    a: str
    b: str
    kind: Literal["cable", "land_line"]
    length_nm: float | None = Field(default=None, gt=0)
    laid: str | None = None
    source: str = Field(min_length=1)


class _Circuit(_Model):
    name: str = Field(min_length=1)
    stations: list[str] = Field(min_length=2)
    transit_min: float = Field(ge=0)
    source: str = Field(min_length=1)


class _Telegraph(_Model):
    rules: _TRules
    stations: list[_Station] = Field(min_length=2)
    links: list[_Link] = Field(min_length=1)
    circuits: list[_Circuit] = []


class _Set(_Model):
    day_nm: float = Field(gt=0)
    night_nm: float = Field(gt=0)
    receive_factor: float = Field(gt=0)
    source: str = Field(min_length=1)


class _Fit(_Model):
    nation: str | None = None
    types: list[str] = Field(min_length=1)
    set: str | None
    source: str | None = None


class _Shore(_Model):
    name: str = Field(min_length=1)
    aka: list[str] = []
    nation: str
    lat: float = Field(ge=-90, le=90)
    lon: float = Field(ge=-180, le=180)
    serves: list[str] = Field(min_length=1)
    telegraph: str
    day_nm: float = Field(gt=0)
    night_nm: float = Field(gt=0)
    receive_factor: float = Field(gt=0)
    source: str = Field(min_length=1)
    stand_in: str | None = None


class _WRules(_Model):
    words_per_min: float = Field(gt=0)
    header_words: int = Field(ge=0)
    encipher_min: float = Field(ge=0)
    decipher_min: float = Field(ge=0)
    intercept_factor: float = Field(gt=0)
    jam_margin: float = Field(gt=0)
    jam_retry_min: float = Field(gt=0)
    no_route_retry_min: float = Field(gt=0)
    hold_limit_min: float = Field(ge=0)
    relay_for: Literal["nation", "side"] = "side"


class _Wireless(_Model):
    rules: _WRules
    sets: dict[str, _Set] = Field(min_length=1)
    fit: list[_Fit] = []
    shore_stations: list[_Shore] = []


# ------------------------------------------------------------------------------------------ loading


def _validate(model: type[BaseModel], raw: Any, origin: str) -> Any:
    try:
        return model.model_validate(raw)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        more = f" (and {exc.error_count() - 1} more errors)" if exc.error_count() > 1 else ""
        raise SignalDataError(f"{origin}: field {where!r}: {first['msg']}{more}") from None


def _stations(t: _Telegraph, places: Gazetteer, origin: str) -> tuple[Station, ...]:
    out: list[Station] = []
    seen: set[str] = set()
    for m in t.stations:
        for name in (m.name, *m.aka):
            if place_key(name) in seen:
                raise SignalDataError(f"{origin}: station {m.name!r}: name {name!r} is used twice")
            seen.add(place_key(name))
        if m.place is not None:
            try:
                p = places.get(m.place)
            except KeyError as exc:
                raise SignalDataError(f"{origin}: station {m.name!r}, field 'place': {exc}") from None
            lat, lon, nation = p.lat, p.lon, p.nation
        else:
            lat, lon, nation = float(m.lat), float(m.lon), m.nation  # type: ignore[arg-type]
        capital = m.kind == "capital"
        capacity = m.capacity or (t.rules.relay.capital_capacity if capital else t.rules.relay.capacity)
        handling = t.rules.relay.handling_min if m.handling_min is None else m.handling_min
        out.append(Station(m.name, tuple(m.aka), lat, lon, nation, m.kind, float(handling), capacity, m.source))
    return tuple(out)


def parse_signal_data(telegraph: Mapping[str, Any], wireless: Mapping[str, Any], *,
                      places: Gazetteer | None = None, origin: str = "signal data") -> SignalData:
    """Build :class:`SignalData` from the parsed contents of a telegraph file and a wireless file.

    Link lengths not given are computed: the geodesic between the stations times the routing factor of
    the link's kind (data/telegraph.yaml header). Raises :class:`SignalDataError` naming the entry on bad
    data: unknown station or set, a link joining a station to itself or twice, a shore station joined to
    an unknown telegraph station.
    """
    places = places or default_places()
    t: _Telegraph = _validate(_Telegraph, telegraph, f"{origin} (telegraph)")
    w: _Wireless = _validate(_Wireless, wireless, f"{origin} (wireless)")
    r = t.rules
    rules = TelegraphRules(r.day_min_per_1000_nm, r.night_min_per_1000_nm, r.cable_routing_factor,
                           r.land_line_routing_factor, r.headquarters.dispatch_min, r.headquarters.capacity,
                           r.relay.handling_min, r.relay.capacity, r.relay.capital_capacity)
    stations = _stations(t, places, f"{origin} (telegraph)")
    index = station_index(stations)
    links: list[Link] = []
    pairs: set[frozenset[str]] = set()
    for i, m in enumerate(t.links):
        try:
            a, b = _look_up(index, m.a), _look_up(index, m.b)
        except KeyError as exc:
            raise SignalDataError(f"{origin} (telegraph): link {i + 1} {m.a!r} - {m.b!r}: {exc}") from None
        pair = frozenset((a.name, b.name))
        if a.name == b.name or pair in pairs:
            raise SignalDataError(f"{origin} (telegraph): link {i + 1} {m.a!r} - {m.b!r} is a loop or a duplicate")
        pairs.add(pair)
        if m.length_nm is not None:
            length, basis = float(m.length_nm), "sourced"
        else:
            factor = r.cable_routing_factor if m.kind == "cable" else r.land_line_routing_factor
            length, basis = float(distance_nm(a.lat, a.lon, b.lat, b.lon)) * factor, "computed"
        links.append(Link(a.name, b.name, m.kind, length, basis, m.laid, m.source))
    circuits = _circuits(t.circuits, index, f"{origin} (telegraph)")
    sets = {k: WirelessSet(k, v.day_nm, v.night_nm, v.receive_factor, v.source) for k, v in w.sets.items()}
    fit = []
    for f in w.fit:
        if f.set is not None and f.set not in sets:
            raise SignalDataError(f"{origin} (wireless): fit rule {f.types}: unknown set {f.set!r}")
        fit.append(FitRule(f.nation, tuple(f.types), f.set))
    shores = []
    for s in w.shore_stations:
        try:
            tele = _look_up(index, s.telegraph).name
        except KeyError as exc:
            raise SignalDataError(f"{origin} (wireless): shore station {s.name!r}, field 'telegraph': {exc}") from None
        wset = WirelessSet(f"shore:{s.name}", s.day_nm, s.night_nm, s.receive_factor, s.source)
        shores.append(ShoreStation(s.name, tuple(s.aka), s.lat, s.lon, s.nation, tuple(s.serves), tele, wset, s.source,
                                   s.stand_in))
    wr = w.rules
    wrules = WirelessRules(wr.words_per_min, wr.header_words, wr.encipher_min, wr.decipher_min, wr.intercept_factor,
                           wr.jam_margin, wr.jam_retry_min, wr.no_route_retry_min, wr.hold_limit_min, wr.relay_for)
    return SignalData(stations, tuple(links), rules, MappingProxyType(sets), tuple(fit), tuple(shores), wrules,
                      circuits)


def _circuits(circuits: list[_Circuit], index: Mapping[str, Station], origin: str) -> tuple[Circuit, ...]:
    """The through circuits, their stations by their names in the file (any of a station's names)."""
    out = []
    for c in circuits:
        try:
            names = tuple(_look_up(index, n).name for n in c.stations)
        except KeyError as exc:
            raise SignalDataError(f"{origin}: circuit {c.name!r}: {exc}") from None
        if len(set(names)) != len(names):
            raise SignalDataError(f"{origin}: circuit {c.name!r} names a station twice")
        out.append(Circuit(c.name, names, c.transit_min, c.source))
    return tuple(out)


def _read(path: Path) -> Any:
    try:
        return load_yaml(path.read_text(encoding="utf-8"))
    except yaml.YAMLError as exc:
        raise SignalDataError(f"{path}: not valid YAML: {exc}") from None


def load_signal_data(telegraph_path: Path | str = TELEGRAPH_FILE, wireless_path: Path | str = WIRELESS_FILE,
                     *, places: Gazetteer | None = None) -> SignalData:
    """Read and validate a telegraph file and a wireless file (the schemas of the bundled ones)."""
    tp, wp = Path(telegraph_path), Path(wireless_path)
    return parse_signal_data(_read(tp), _read(wp), places=places, origin=f"{tp} / {wp}")


@functools.cache
def default_signal_data() -> SignalData:
    """The bundled ``data/telegraph.yaml`` and ``data/wireless.yaml``, loaded once per process (immutable)."""
    return load_signal_data(TELEGRAPH_FILE, WIRELESS_FILE)
