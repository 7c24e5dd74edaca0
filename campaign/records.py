"""Event records: the one stream every output is derived from (README, "What a run gives you").

A record is immutable. Its common fields are the time in scenario minutes, the type (a lower-case
word), and where they apply the unit (a ship's name), its side and position; everything else a type
needs sits in ``data``. ``Record.as_json`` gives the form written to ``events.jsonl``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from campaign.clock import Clock


@dataclass(frozen=True, slots=True)
class Record:
    t_min: float
    type: str
    unit: str | None = None
    side: str | None = None
    lat: float | None = None
    lon: float | None = None
    data: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))

    def as_json(self, clock: Clock, iso: str | None = None) -> dict[str, Any]:
        """The JSON object of this record: ``t`` (UTC ISO-8601), ``t_min``, ``type`` and the rest.
        ``iso``: ``clock.iso(self.t_min)`` when the caller has it already (records share instants)."""
        out: dict[str, Any] = {"t": iso if iso is not None else clock.iso(self.t_min), "t_min": round(self.t_min, 4),
                               "type": self.type}
        if self.unit is not None:
            out["unit"] = self.unit
        if self.side is not None:
            out["side"] = self.side
        if self.lat is not None and self.lon is not None:
            out["lat"] = round(self.lat, 6)
            out["lon"] = round(self.lon, 6)
        out.update(self.data)
        return out


class Recorder:
    """Collects records in the order the simulation makes them (time order: SimPy is causal)."""

    def __init__(self) -> None:
        self._records: list[Record] = []

    def emit(self, t_min: float, type_: str, unit: str | None = None, side: str | None = None,
             lat: float | None = None, lon: float | None = None, **data: Any) -> Record:
        rec = Record(float(t_min), type_, unit, side, None if lat is None else float(lat),
                     None if lon is None else float(lon), MappingProxyType(data))
        self._records.append(rec)
        return rec

    @property
    def records(self) -> tuple[Record, ...]:
        return tuple(self._records)

    def __len__(self) -> int:
        return len(self._records)
