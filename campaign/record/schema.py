"""The form of a record file (``data/record/<scenario>.yaml``), checked with pydantic.

A file names its scenario and lists events of the historical record, each of one ``type``:

* ``sighting`` / ``contact_lost``: a contact between ``units`` (the observers: ships or forces) and
  ``targets`` begins or ends;
* ``arrive``: one of ``units`` arrives within ``place.radius_nm`` of ``place``;
* ``message_received``: a message reaches one of ``receivers`` (from one of ``senders``, its text
  containing ``text``, where given);
* ``coal``: a ship's coal on hand (``coal_t``: min and max), at a moment (``at``) or on her arrival at
  ``place`` (``on_arrival: true``);
* ``coal_taken``: the coal a ship takes at ``place`` within the window (``taken_t``: min and max);
* ``engagement``: a battle between ``units`` and ``targets`` begins.

Each has ``at`` (a moment) or ``window`` (``from``, ``to``), ``tolerance_h`` (how far outside it a run's
event still agrees), optionally a ``place`` with its radius, ``source`` (the original published source,
book and page), ``input`` (true when the scenario feeds the event in: a scripted sailing, coaling or
movement; false when the model must produce it) and ``absent: true`` for something that did NOT happen
(no fleet action; a message never received): it agrees when the run has no such event in the window
widened by the tolerance. A figure the sources do not give is marked ``stand_in`` with why.

A file that does not fit is refused by :class:`RecordError`, naming the file, the field and the fault,
every fault at once.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Annotated, Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from campaign.clock import parse_utc
from campaign.datafile import load_yaml
from campaign.paths import DATA_DIR
from campaign.scenario.wording import plain

RECORD_DIR = DATA_DIR / "record"
TYPES = ("sighting", "contact_lost", "arrive", "message_received", "coal", "coal_taken", "engagement")


class RecordError(ValueError):
    """A record file that cannot be used: names the file and each faulty field."""

    def __init__(self, path: Path | str, faults: list[tuple[str, str]]) -> None:
        self.path = str(path)
        self.faults = faults
        super().__init__("\n".join(f"{self.path}: {f}: {m}" if f else f"{self.path}: {m}" for f, m in faults))


def _utc(v: Any) -> datetime:
    if isinstance(v, datetime):
        return parse_utc(v)
    if not isinstance(v, str):
        raise ValueError("a time is ISO-8601 UTC text, e.g. 1914-08-04T09:30Z")  # noqa: TRY004 (pydantic reports ValueError)
    try:
        return parse_utc(v)
    except ValueError:
        raise ValueError(f"'{v}' is not an ISO-8601 time (e.g. 1914-08-04T09:30Z)") from None


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Window(_Strict):
    """A span of time, UTC; ``from`` at or before ``to``."""

    start: datetime = Field(alias="from")
    end: datetime = Field(alias="to")

    _t = field_validator("start", "end", mode="before")(_utc)

    @model_validator(mode="after")
    def _ordered(self) -> Window:
        if self.end < self.start:
            raise ValueError("'to' is before 'from'")
        return self


class Place(_Strict):
    """Where the event happened, and how far from it a run's event still agrees (nautical miles)."""

    name: str
    lat: float = Field(ge=-90, le=90)
    lon: float = Field(ge=-180, le=180)
    radius_nm: float = Field(gt=0)


class Tonnes(_Strict):
    """A range of coal in tonnes; either end may be open."""

    min: float | None = Field(default=None, ge=0)
    max: float | None = Field(default=None, ge=0)

    @model_validator(mode="after")
    def _some(self) -> Tonnes:
        if self.min is None and self.max is None:
            raise ValueError("give 'min', 'max' or both")
        if self.min is not None and self.max is not None and self.max < self.min:
            raise ValueError("'max' is below 'min'")
        return self


class _Event(_Strict):
    id: str = Field(pattern=r"^[a-z0-9_]+$")
    what: str = Field(min_length=1)
    input: bool
    source: str = Field(min_length=1)
    at: datetime | None = None
    window: Window | None = None
    tolerance_h: float = Field(ge=0)
    place: Place | None = None
    absent: bool = False
    stand_in: str | None = None
    note: str | None = None

    _t = field_validator("at", mode="before")(lambda v: None if v is None else _utc(v))

    @model_validator(mode="after")
    def _when(self) -> _Event:
        if (self.at is None) == (self.window is None):
            raise ValueError("give 'at' or 'window', not both or neither")
        if self.absent and self.window is None:
            raise ValueError("an absent event needs a 'window' (the span in which it did not happen)")
        return self

    @property
    def start(self) -> datetime:
        return self.at if self.at is not None else self.window.start  # type: ignore[union-attr]

    @property
    def end(self) -> datetime:
        return self.at if self.at is not None else self.window.end  # type: ignore[union-attr]


class Contact(_Event):
    type: Literal["sighting", "contact_lost"]
    units: list[str] = Field(min_length=1)
    targets: list[str] = Field(min_length=1)


class Arrival(_Event):
    type: Literal["arrive"]
    units: list[str] = Field(min_length=1)
    place: Place


class Receipt(_Event):
    type: Literal["message_received"]
    receivers: list[str] = Field(min_length=1)
    senders: list[str] = Field(default_factory=list)
    text: str | None = None


class CoalLevel(_Event):
    type: Literal["coal"]
    units: list[str] = Field(min_length=1, max_length=1)
    coal_t: Tonnes
    on_arrival: bool = False

    @model_validator(mode="after")
    def _arrival(self) -> CoalLevel:
        if self.on_arrival and self.place is None:
            raise ValueError("'on_arrival' needs the 'place' arrived at")
        if self.absent:
            raise ValueError("a coal level cannot be absent")
        return self


class CoalTaken(_Event):
    type: Literal["coal_taken"]
    units: list[str] = Field(min_length=1, max_length=1)
    place: Place
    taken_t: Tonnes


class Engagement(_Event):
    type: Literal["engagement"]
    units: list[str] = Field(min_length=1)
    targets: list[str] = Field(min_length=1)


RecordEvent = Annotated[Contact | Arrival | Receipt | CoalLevel | CoalTaken | Engagement, Field(discriminator="type")]


class RecordFile(_Strict):
    scenario: str = Field(min_length=1)
    title: str = Field(min_length=1)
    about: str | None = None
    events: list[RecordEvent] = Field(min_length=1)

    @model_validator(mode="after")
    def _unique(self) -> RecordFile:
        seen: set[str] = set()
        for e in self.events:
            if e.id in seen:
                raise ValueError(f"event id '{e.id}' is given twice")
            seen.add(e.id)
        return self


@dataclass(frozen=True)
class Record:
    """A checked record file and where it came from."""

    path: Path
    file: RecordFile

    @property
    def events(self) -> list[Any]:
        return list(self.file.events)


def _field(loc: tuple[Any, ...], raw: Any) -> str:
    """A pydantic location as a field path, naming events by id ("events[3] (gloucester_sights).window.to");
    the union's tag (the event type) is left out."""
    out, node = "", raw
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
            node = node[part] if isinstance(node, list) and part < len(node) else None
            if isinstance(node, dict) and node.get("id") and out.startswith("events[") and out.count("[") == 1:
                out += f" ({node['id']})"
            continue
        if isinstance(node, dict) and part not in node and part in TYPES:
            continue  # the discriminated union's tag
        out += f".{part}" if out else str(part)
        node = node.get(part) if isinstance(node, dict) else None
    return out


def _message(err: dict[str, Any]) -> str:
    kind = err["type"]
    if kind == "union_tag_invalid":
        return f"unknown type '{err.get('input', {}).get('type')}' (expected {', '.join(TYPES)})"
    if kind == "union_tag_not_found":
        return f"an event needs 'type:' ({', '.join(TYPES)})"
    return plain(err)


def parse_record(path: Path | str, raw: Any) -> Record:
    """A record from a file's parsed YAML; RecordError names every fault."""
    if not isinstance(raw, dict):
        raise RecordError(path, [("", "the file must hold a mapping: scenario, title, events")])
    try:
        model = RecordFile.model_validate(raw)
    except ValidationError as exc:
        faults: list[tuple[str, str]] = []
        for err in exc.errors():
            where = _field(err["loc"], raw)
            if err["type"] in ("union_tag_invalid", "union_tag_not_found"):
                where += ".type"
            fault = (where, _message(err))
            if fault not in faults:
                faults.append(fault)
        raise RecordError(path, faults) from None
    return Record(Path(path), model)


def load_record(path: Path | str) -> Record:
    """Read and check a record file."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise RecordError(p, [("", "no such file")]) from None
    except (IsADirectoryError, PermissionError, UnicodeDecodeError) as exc:
        raise RecordError(p, [("", f"cannot read the file ({exc.__class__.__name__})")]) from None
    try:
        raw = load_yaml(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f"line {mark.line + 1}, column {mark.column + 1}" if mark else ""
        raise RecordError(p, [(where, f"not valid YAML: {getattr(exc, 'problem', None) or exc}")]) from None
    return parse_record(p, raw)


def record_path(scenario_name: str) -> Path:
    """The bundled record of a scenario: ``data/record/<name>.yaml`` (it may not exist)."""
    return RECORD_DIR / f"{scenario_name}.yaml"


def record_for(scenario_name: str | None) -> Record | None:
    """The bundled record of a scenario, or None when it has none."""
    if not scenario_name:
        return None
    path = record_path(str(scenario_name))
    return load_record(path) if path.is_file() else None
