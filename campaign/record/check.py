"""A run against its scenario's record, for the outputs that show it (report.md, the replay, compare)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

from campaign.output.replay_events import EventLine
from campaign.record.match import Score, score_run
from campaign.record.schema import Record, load_record, record_for
from campaign.record.tables import markdown_section, panel_lines, start_of

RECORD_FILE = "record_file"  # a meta key: the record file to use instead of the scenario's bundled one


def record_of(meta: Mapping[str, Any]) -> Record | None:
    """The record named by the meta's ``record_file``, else the bundled record of the run's scenario (a
    what-if's base's), or None when it has none."""
    if meta.get(RECORD_FILE):
        return load_record(meta[RECORD_FILE])
    return record_for(meta.get("name")) or record_for(meta.get("base_scenario"))


def check(events: Iterable[Mapping[str, Any]], meta: Mapping[str, Any]) -> tuple[Record, Score] | None:
    """The run scored against its scenario's record; None when the scenario has no record."""
    record = record_of(meta)
    if record is None:
        return None
    return record, score_run(record, events)


def report_section(events: Iterable[Mapping[str, Any]], meta: Mapping[str, Any], table: Callable[..., str],
                   md: Callable[[Any], str]) -> str:
    """``report.md``'s "Against the record" section ("" without a record)."""
    got = check(events, meta)
    return "" if got is None else markdown_section(got[0], got[1], table, md)


def replay_lines(events: Iterable[Mapping[str, Any]], meta: Mapping[str, Any]) -> list[EventLine]:
    """The events panel's lines for the record ([] without a record or a start time)."""
    if not meta.get("start"):
        return []
    got = check(events, meta)
    return [] if got is None else panel_lines(got[1], start_of(meta))
