"""Simulation time: ``env.now`` is minutes since the scenario's start; this is the one conversion."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta


def parse_utc(text: str | datetime) -> datetime:
    """A timezone-aware UTC datetime from ISO-8601 text ("1914-08-04T23:00Z") or a datetime.

    Naive values are taken as UTC, as every time in scenario files is.
    """
    if isinstance(text, datetime):
        dt = text
    else:
        s = text.strip()
        if s.endswith("Z"):
            s = s[:-1] + "+00:00"
        dt = datetime.fromisoformat(s)
    if dt.tzinfo is None:
        dt = dt.replace(tzinfo=UTC)
    return dt.astimezone(UTC)


@dataclass(frozen=True)
class Clock:
    """Converts between scenario minutes (``t_min``) and UTC datetimes."""

    start_utc: datetime

    def utc(self, t_min: float) -> datetime:
        return self.start_utc + timedelta(minutes=float(t_min))

    def iso(self, t_min: float) -> str:
        """UTC ISO-8601 to the second, with a trailing Z: "1914-08-04T06:10:00Z".

        Formatted from the datetime's fields (asked for every record written): the text of
        ``strftime("%Y-%m-%dT%H:%M:%SZ")`` for about two thirds of its cost. Years before 1000 go the
        long way, whose year is not padded to four digits on every platform."""
        d = self.utc(t_min)
        if d.year < 1000:
            return d.strftime("%Y-%m-%dT%H:%M:%SZ")
        return f"{d.year}-{d.month:02d}-{d.day:02d}T{d.hour:02d}:{d.minute:02d}:{d.second:02d}Z"

    def t_min(self, when: str | datetime) -> float:
        return (parse_utc(when) - self.start_utc).total_seconds() / 60.0
