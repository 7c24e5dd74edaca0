"""Gazetteer: the named places of the campaign, read from ``data/places.yaml``.

A :class:`Place` holds a reference point (a town, a harbour, a lighthouse on a cape), the
*anchorage* a ship sails to when ordered there (the same point unless the reference point is on
land or hard by the GSHHG shore; see the file's header and ``tools/build_anchorages.py``), the
1914 sovereign, the source of the figures and, for ports, the coaling facility and rates.

Names are looked up ignoring case, accents and punctuation, through every historical and modern
name a place is known by ("Bone", "Bône", "Annaba" and "Bona" are one place). A name that is not
found raises :class:`UnknownPlaceError` (a ``KeyError``) listing the closest names.

:func:`load_places` validates a file with pydantic and reports bad data by file, place and field;
:func:`default_places` loads the bundled file once per process. :func:`parse_point` turns the text
of a command-line point ("Messina", "37.5,16.2") into a position.

Latitudes and longitudes are decimal degrees, WGS84, north and east positive; coaling rates are
(long or metric) tons of coal taken aboard per hour by one ship, as the cited sources give them.
"""

from __future__ import annotations

import difflib
import functools
import re
import unicodedata
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any, Literal, get_args

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from campaign.datafile import load_yaml
from campaign.paths import DATA_DIR

PLACES_FILE = DATA_DIR / "places.yaml"
NATIONS_FILE = DATA_DIR / "nations_1914.yaml"

Kind = Literal[
    "port", "naval_base", "cape", "strait", "island", "anchorage", "sea_point", "cable_station",
    "signal_station",
]
Facility = Literal["naval_base", "commercial", "colliers_only", "none"]
KINDS: tuple[str, ...] = get_args(Kind)
FACILITIES: tuple[str, ...] = get_args(Facility)
PORT_KINDS: tuple[str, ...] = ("port", "naval_base")
DEFAULT_KEY = "default"
# Navies that coal in the Mediterranean without owning any of its coast, hence absent from
# data/nations_1914.yaml: the German Empire (Goeben and Breslau).
NAVIES_WITHOUT_COAST: tuple[str, ...] = ("Germany",)

_NON_WORD = re.compile(r"[\W_]+")
_NUMBER = r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?"
_LATLON = re.compile(rf"^\s*({_NUMBER})\s*,\s*({_NUMBER})\s*$")


class PlacesError(ValueError):
    """Bad gazetteer data; the message names the file, the place and the field."""


class UnknownPlaceError(KeyError):
    """A name that no place in the gazetteer is known by; the message lists close matches."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message

    def __str__(self) -> str:  # KeyError would quote the message
        return self.message


# Names whose keys are remembered: a run's records and a batch's replicates name the same few places
# again and again (every arrival, every shelling), and normalising a name costs some microseconds.
PLACE_KEYS_KEPT = 4096


@functools.lru_cache(maxsize=PLACE_KEYS_KEPT)
def place_key(text: str) -> str:
    """The lookup key of a name: accents stripped, case folded, punctuation and spacing collapsed.

    >>> place_key("  Bône ") == place_key("BONE") == "bone"
    True
    >>> place_key("Malta (Valletta)")
    'malta valletta'
    """
    decomposed = unicodedata.normalize("NFKD", text)
    bare = "".join(c for c in decomposed if not unicodedata.combining(c))
    return " ".join(_NON_WORD.sub(" ", bare.casefold()).split())


# ----------------------------------------------------------------------------------------- records


@dataclass(frozen=True)
class Coaling:
    """Coaling at a port: facility and per-ship rates (t/h) by receiving nation, with a default.

    ``rates`` pairs a receiving nation with its rate; a nation not listed gets ``default_t_per_h``.
    ``basis`` pairs each nation (and ``"default"``) with the derivation named in the file's
    ``coaling_basis`` ("historical:<key>" or "game:<key>"). Rates are physical: whether a ship may
    coal at the port at all (neutrality, war) is decided elsewhere.
    """

    facility: str
    rates: tuple[tuple[str, float], ...]
    default_t_per_h: float
    source: str
    basis: tuple[tuple[str, str], ...] = ()

    def rate_t_per_h(self, receiving_nation: str) -> float:
        """Tons per hour taken aboard one ship of ``receiving_nation`` (case-insensitive)."""
        key = place_key(receiving_nation)
        for nation, rate in self.rates:
            if place_key(nation) == key:
                return rate
        return self.default_t_per_h

    @property
    def rates_t_per_h(self) -> dict[str, float]:
        """The listed rates as a new dict, nation -> t/h (the default under ``"default"``)."""
        return {**dict(self.rates), DEFAULT_KEY: self.default_t_per_h}


@dataclass(frozen=True)
class Place:
    """A named place: reference point and anchorage (degrees), kind, 1914 sovereign, source."""

    name: str
    aka: tuple[str, ...]
    kind: str
    nation: str | None
    lat: float
    lon: float
    anchorage_lat: float
    anchorage_lon: float
    coaling: Coaling | None
    source: str
    anchorage_source: str | None = None

    @property
    def names(self) -> tuple[str, ...]:
        """The name followed by every other name the place is known by."""
        return (self.name, *self.aka)

    @property
    def is_port(self) -> bool:
        """True for ports and naval bases."""
        return self.kind in PORT_KINDS

    @property
    def anchorage(self) -> tuple[float, float]:
        """(lat, lon) in degrees of the point in navigable water a ship sails to."""
        return self.anchorage_lat, self.anchorage_lon


@dataclass(frozen=True)
class Cable:
    """A submarine telegraph cable between two cable stations of the gazetteer (undirected)."""

    a: str
    b: str
    laid: str
    source: str


@dataclass(frozen=True, eq=False)
class Gazetteer:
    """An immutable set of places, looked up by any of their names, and the cables joining them."""

    places: tuple[Place, ...]
    cables: tuple[Cable, ...] = ()
    _index: Mapping[str, Place] = field(init=False, repr=False)
    _spelling: Mapping[str, str] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        index: dict[str, Place] = {}
        spelling: dict[str, str] = {}
        for place in self.places:
            for name in place.names:
                key = place_key(name)
                other = index.get(key)
                if other is not None and other is not place:
                    raise ValueError(f"name {name!r} of {place.name!r} is already a name of {other.name!r}")
                index[key] = place
                spelling.setdefault(key, name)
        for cable in self.cables:
            for end in (cable.a, cable.b):
                station = index.get(place_key(end))
                if station is None or station.kind != "cable_station":
                    raise ValueError(f"cable {cable.a!r} - {cable.b!r}: {end!r} is not a cable station")
        object.__setattr__(self, "_index", MappingProxyType(index))
        object.__setattr__(self, "_spelling", MappingProxyType(spelling))

    def get(self, name: str) -> Place:
        """The place known by ``name`` (any case, with or without accents, any of its names).

        Raises :class:`UnknownPlaceError` (a ``KeyError``) naming the closest known names.
        """
        place = self._index.get(place_key(name))
        if place is not None:
            return place
        raise UnknownPlaceError(self._unknown_message(name))

    def _unknown_message(self, name: str) -> str:
        close = difflib.get_close_matches(place_key(name), list(self._index), n=12, cutoff=0.6)
        hints: list[str] = []
        hinted: set[str] = set()
        for key in close:  # best match first; one spelling per place, at most five places
            spelled, target = self._spelling[key], self._index[key].name
            if target in hinted or len(hints) == 5:
                continue
            hinted.add(target)
            hints.append(repr(spelled) if spelled == target else f"{spelled!r} ({target})")
        tail = f"; did you mean {', '.join(hints)}?" if hints else "; no close match"
        return f"unknown place {name!r}{tail}"

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and place_key(name) in self._index

    def __iter__(self) -> Iterator[Place]:
        return iter(self.places)

    def __len__(self) -> int:
        return len(self.places)

    def ports(self) -> tuple[Place, ...]:
        """Ports and naval bases, in file order."""
        return tuple(p for p in self.places if p.is_port)

    def by_kind(self, kind: str) -> tuple[Place, ...]:
        """Places of one kind (see ``KINDS``), in file order; ValueError for an unknown kind."""
        if kind not in KINDS:
            raise ValueError(f"unknown kind {kind!r}; kinds are {', '.join(KINDS)}")
        return tuple(p for p in self.places if p.kind == kind)


# ------------------------------------------------------------------------------------- file schema


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class _AnchorageModel(_Model):
    lat: float = Field(ge=-90, le=90)
    lon: float = Field(ge=-180, le=180)
    source: str = Field(min_length=1)


class _CoalingModel(_Model):
    facility: Facility
    rate_t_per_h: float | dict[str, float]
    basis: str | dict[str, str] | None = None
    source: str = Field(min_length=1)

    @field_validator("rate_t_per_h")
    @classmethod
    def _rates_valid(cls, v: float | dict[str, float]) -> float | dict[str, float]:
        rates = v if isinstance(v, dict) else {DEFAULT_KEY: v}
        if DEFAULT_KEY not in rates:
            raise ValueError(f"a mapping of rates by nation needs a {DEFAULT_KEY!r} entry")
        for nation, rate in rates.items():
            if rate < 0:
                raise ValueError(f"rate for {nation!r} is negative ({rate})")
        return v

    @model_validator(mode="after")
    def _basis_matches_rates(self) -> _CoalingModel:
        if isinstance(self.basis, dict):
            rates = self.rate_t_per_h if isinstance(self.rate_t_per_h, dict) else {DEFAULT_KEY: 0.0}
            stray = sorted(set(self.basis) - set(rates))
            if stray:
                raise ValueError(f"basis names nations without a rate: {', '.join(stray)}")
        return self


class _PlaceModel(_Model):
    name: str = Field(min_length=1)
    aka: list[str] = []
    kind: Kind
    nation: str | None
    lat: float = Field(ge=-90, le=90)
    lon: float = Field(ge=-180, le=180)
    source: str = Field(min_length=1)
    anchorage: _AnchorageModel | None = None
    coaling: _CoalingModel | None = None
    note: str | None = None

    @field_validator("name", "aka")
    @classmethod
    def _names_have_letters(cls, v: str | list[str]) -> str | list[str]:
        for name in [v] if isinstance(v, str) else v:
            if not place_key(name):
                raise ValueError(f"{name!r} has no letters or digits to look it up by")
        return v


class _CableModel(_Model):
    a: str = Field(min_length=1)
    b: str = Field(min_length=1)
    laid: str
    source: str = Field(min_length=1)


class _FileModel(BaseModel):
    model_config = ConfigDict(extra="forbid")
    coaling_basis: dict[str, Any] | None = None
    places: list[_PlaceModel] = Field(min_length=1)
    cables: list[_CableModel] = []


# ------------------------------------------------------------------------------------------ loading


@functools.cache
def _sovereigns() -> frozenset[str]:
    """The 1914 sovereigns spelled as in data/nations_1914.yaml (read once; immutable)."""
    raw = load_yaml(NATIONS_FILE.read_text(encoding="utf-8"))
    names = set(raw["countries"].values()) | {o["sovereign"] for o in raw.get("overrides", [])}
    return frozenset(names)


_UNION_TAG = re.compile(r"^(float|int|str|bool|none|(dict|list|function-\w+|literal)\[.*\])$")


def _where(path: Path, raw_places: list[Any], loc: tuple[int | str, ...]) -> str:
    """'file: place 'X' (entry n), field 'f'' for a pydantic error location under ``places``."""
    loc = tuple(part for part in loc if not (isinstance(part, str) and _UNION_TAG.match(part)))
    if len(loc) >= 2 and loc[0] == "places" and isinstance(loc[1], int):
        i = loc[1]
        entry = raw_places[i] if i < len(raw_places) else None
        name = entry.get("name") if isinstance(entry, dict) else None
        label = f"place {name!r} (entry {i + 1})" if name else f"entry {i + 1}"
        fields = ".".join(str(part) for part in loc[2:])
        return f"{path}: {label}" + (f", field {fields!r}" if fields else "")
    if len(loc) >= 2 and loc[0] == "cables" and isinstance(loc[1], int):
        fields = ".".join(str(part) for part in loc[2:])
        return f"{path}: cable {loc[1] + 1}" + (f", field {fields!r}" if fields else "")
    return f"{path}: field {'.'.join(str(part) for part in loc)!r}"


def _check_names(path: Path, models: list[_PlaceModel]) -> None:
    """Every name and aka must belong to one entry only (after place_key normalisation)."""
    seen: dict[str, tuple[int, str, str]] = {}  # key -> (entry index, place name, spelling)
    for i, m in enumerate(models):
        for field_name, name in [("name", m.name)] + [("aka", a) for a in m.aka]:
            key = place_key(name)
            owner = seen.setdefault(key, (i, m.name, name))
            if owner[0] != i:
                what = "duplicate name" if field_name == "name" and owner[2] == owner[1] else "name clash"
                raise PlacesError(
                    f"{path}: place {m.name!r} (entry {i + 1}), field {field_name!r}: {what}: "
                    f"{name!r} is already a name of {owner[1]!r} (entry {owner[0] + 1}, as {owner[2]!r})"
                )


def _check_nations(path: Path, models: list[_PlaceModel]) -> None:
    sovereigns = _sovereigns()
    receivers = sovereigns | set(NAVIES_WITHOUT_COAST) | {DEFAULT_KEY}
    for i, m in enumerate(models):
        where = f"{path}: place {m.name!r} (entry {i + 1})"
        if m.nation is not None and m.nation not in sovereigns:
            close = difflib.get_close_matches(m.nation, sorted(sovereigns), n=3)
            hint = f"; did you mean {', '.join(map(repr, close))}?" if close else ""
            raise PlacesError(
                f"{where}, field 'nation': {m.nation!r} is not a 1914 sovereign of {NATIONS_FILE.name}{hint}"
            )
        if m.coaling is not None and isinstance(m.coaling.rate_t_per_h, dict):
            for nation in m.coaling.rate_t_per_h:
                if nation not in receivers:
                    raise PlacesError(
                        f"{where}, field 'coaling.rate_t_per_h': unknown receiving nation {nation!r}"
                    )


def _coaling(m: _CoalingModel) -> Coaling:
    rates = m.rate_t_per_h if isinstance(m.rate_t_per_h, dict) else {DEFAULT_KEY: m.rate_t_per_h}
    basis = m.basis if isinstance(m.basis, dict) else ({DEFAULT_KEY: m.basis} if m.basis else {})
    return Coaling(
        facility=m.facility,
        rates=tuple((n, float(r)) for n, r in rates.items() if n != DEFAULT_KEY),
        default_t_per_h=float(rates[DEFAULT_KEY]),
        source=m.source,
        basis=tuple(basis.items()),
    )


def _place(m: _PlaceModel) -> Place:
    anchor = m.anchorage
    return Place(
        name=m.name,
        aka=tuple(m.aka),
        kind=m.kind,
        nation=m.nation,
        lat=float(m.lat),
        lon=float(m.lon),
        anchorage_lat=float(anchor.lat) if anchor else float(m.lat),
        anchorage_lon=float(anchor.lon) if anchor else float(m.lon),
        coaling=_coaling(m.coaling) if m.coaling else None,
        source=m.source,
        anchorage_source=anchor.source if anchor else None,
    )


def load_places(path: Path | str) -> Gazetteer:
    """Read and validate a gazetteer file (the schema of ``data/places.yaml``).

    Raises :class:`PlacesError` naming the file, the place and the field on bad data: YAML syntax,
    a missing or mistyped field, a latitude outside -90..90 or longitude outside -180..180, an
    unknown kind or coaling facility, a duplicate name or a name (``aka``) shared by two places, a
    nation that is not a 1914 sovereign of ``data/nations_1914.yaml``, a cable whose ends are not
    cable stations.
    """
    path = Path(path)
    try:
        raw = load_yaml(path.read_text(encoding="utf-8"))
    except yaml.YAMLError as exc:
        raise PlacesError(f"{path}: not valid YAML: {exc}") from None
    if not isinstance(raw, dict):
        raise PlacesError(f"{path}: expected a mapping with a 'places' list at the top level")
    raw_places = raw.get("places") if isinstance(raw.get("places"), list) else []
    try:
        model = _FileModel.model_validate(raw)
    except ValidationError as exc:
        first = exc.errors()[0]
        more = f" (and {exc.error_count() - 1} more errors)" if exc.error_count() > 1 else ""
        raise PlacesError(f"{_where(path, raw_places, tuple(first['loc']))}: {first['msg']}{more}") from None
    _check_names(path, model.places)
    _check_nations(path, model.places)
    places = tuple(_place(m) for m in model.places)
    cables = tuple(Cable(c.a, c.b, c.laid, c.source) for c in model.cables)
    try:
        return Gazetteer(places, cables)
    except ValueError as exc:
        raise PlacesError(f"{path}: {exc}") from None


@functools.cache
def default_places() -> Gazetteer:
    """The bundled gazetteer ``data/places.yaml``, loaded once per process (immutable)."""
    return load_places(PLACES_FILE)


def parse_point(text: str, gazetteer: Gazetteer) -> tuple[float, float, str | None]:
    """A point given on the command line: ``(lat, lon, name)`` in degrees.

    ``text`` is a place name (any of its names; the result is the place's anchorage and its name)
    or ``"lat,lon"`` in decimal degrees, north and east positive (``"37.5,16.2"``; the name is
    None). Raises ValueError with a hint otherwise.
    """
    m = _LATLON.match(text)
    if m:
        lat, lon = float(m.group(1)), float(m.group(2))
        if not -90.0 <= lat <= 90.0:
            raise ValueError(f"{text!r}: latitude {lat} is outside -90..90 (write 'lat,lon', latitude first)")
        if not -180.0 <= lon <= 180.0:
            raise ValueError(f"{text!r}: longitude {lon} is outside -180..180")
        return lat, lon, None
    if not text.strip():
        raise ValueError("empty point: give a place name or 'lat,lon' in decimal degrees, e.g. '37.5,16.2'")
    try:
        place = gazetteer.get(text)
    except UnknownPlaceError as exc:
        if not re.search(r"[^\W\d_]", text):  # digits and punctuation only: a mistyped position
            raise ValueError(
                f"{text!r} is not a position: write 'lat,lon' in decimal degrees, north and east positive, "
                "e.g. '37.5,16.2' or '36.1,-5.35'"
            ) from None
        raise ValueError(
            f"{exc.message} (a point is a place name or 'lat,lon' in decimal degrees, e.g. '37.5,16.2')"
        ) from None
    return place.anchorage_lat, place.anchorage_lon, place.name
