"""The record beside a run in words: the command line's table, ``report.md``'s section, the replay's
events panel, and a batch's distribution per event (campaign/batch/analyse.py)."""

from __future__ import annotations

import statistics
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from campaign.clock import parse_utc
from campaign.output.replay_events import EventLine
from campaign.record.match import Outcome, Score
from campaign.record.schema import Record

PANEL_TYPE = "record_check"


def _hm(t: datetime) -> str:
    return f"{t.day} Aug {t:%H:%M}" if t.month == 8 else f"{t:%d %b %H:%M}"


def record_when(ev: Any) -> str:
    """The record's time or window, UTC ("4 Aug 09:00-10:30")."""
    if ev.at is not None:
        return _hm(ev.at)
    a, b = ev.window.start, ev.window.end
    return f"{_hm(a)}-{b:%H:%M}" if a.date() == b.date() else f"{_hm(a)} to {_hm(b)}"


def _range(rng: Any) -> str:
    if rng.min is not None and rng.max is not None:
        return f"{rng.min:,.0f}-{rng.max:,.0f} t"
    return f"at least {rng.min:,.0f} t" if rng.min is not None else f"at most {rng.max:,.0f} t"


def record_text(ev: Any) -> str:
    """What the record says, with when (and where, and how much)."""
    text = f"{'none, ' if ev.absent else ''}{record_when(ev)} ±{ev.tolerance_h:g} h"
    if ev.place is not None:
        text += f", within {ev.place.radius_nm:g} nm of {ev.place.name}"
    if ev.type == "coal":
        text += f", {_range(ev.coal_t)}"
    elif ev.type == "coal_taken":
        text += f", {_range(ev.taken_t)} taken"
    return text


def _hours(dt_h: float) -> str:
    if abs(dt_h) < 1 / 120:
        return "0"
    sign = "+" if dt_h > 0 else "−"
    m = round(abs(dt_h) * 60)
    return f"{sign}{m // 60} h {m % 60:02d} min" if m >= 60 else f"{sign}{m} min"


def run_text(o: Outcome) -> str:
    """What the run did, in words."""
    if o.found is None:
        return "none" if o.event.absent else "not in this run"
    text = _hm(o.found.t)
    if o.dist_nm is not None:
        text += f", {o.dist_nm:,.0f} nm from the place"
    if o.found.value_t is not None and o.event.type in ("coal", "coal_taken"):
        text += f", {o.found.value_t:,.0f} t"
    if o.event.absent:
        text = f"yes: {o.found.label}, {text}"
    return text


def difference_text(o: Outcome) -> str:
    """The difference from the record: time (and coal, and distance beyond the radius)."""
    if o.found is None:
        return "—" if o.event.absent else "missing"
    if o.event.absent:
        return "happened"
    parts = []
    if o.dt_h is not None and o.event.type != "coal" or o.event.type == "coal" and o.event.on_arrival:
        parts.append(_hours(o.dt_h or 0.0))
    if o.off_t is not None and o.off_t != 0.0:
        parts.append(f"{o.off_t:+,.0f} t")
    if o.dist_nm is not None and o.event.place is not None and o.dist_nm > o.event.place.radius_nm:
        parts.append(f"{o.dist_nm - o.event.place.radius_nm:,.0f} nm outside")
    return ", ".join(parts) or "0"


def headline(score: Score) -> str:
    """"Emergent events within tolerance: 7 of 18 (39 %); inputs: 7 of 8"."""
    e, n = score.share(True)
    i, m = score.share(False)
    pct = f" ({100 * e / n:.0f} %)" if n else ""
    return f"Emergent events within tolerance: {e} of {n}{pct}; inputs: {i} of {m}"


def rows(score: Score) -> list[tuple[str, ...]]:
    """(event, kind, record, run, difference, within) for every event, emergent first."""
    out = []
    for o in sorted(score.outcomes, key=lambda o: not o.emergent):
        ev = o.event
        what = ev.what + (f" (STAND-IN: {ev.stand_in})" if ev.stand_in else "")
        out.append((f"{ev.id}: {what}", "emergent" if o.emergent else "input", record_text(ev), run_text(o),
                    difference_text(o), "yes" if o.within else "no"))
    return out


def text_table(record: Record, score: Score) -> str:
    """The comparison for the command line."""
    lines = [f"{record.file.title} ({record.path.name}), times UTC", headline(score), ""]
    for label, group in (("Emergent (the model must produce them)", True), ("Inputs (the scenario feeds them in)", False)):
        lines.append(label + ":")
        for o in (o for o in score.outcomes if o.emergent == group):
            mark = "ok  " if o.within else "MISS"
            lines.append(f"  {mark} {o.event.id}: record {record_text(o.event)}; run {run_text(o)}; "
                         f"difference {difference_text(o)}")
        lines.append("")
    return "\n".join(lines).rstrip() + "\n"


def markdown_section(record: Record, score: Score, table: Any, md: Any) -> str:
    """``report.md``'s section; ``table`` and ``md`` are the report's Markdown helpers."""
    about = (f"Each event of the historical record ({md(record.path.name)}, every one with its source) beside "
             "this run, times UTC. Inputs are events the scenario feeds in (sailings, coaling, scripted decisions); "
             "emergent events are the model's own (contacts, their loss, messages received, battles, coal burnt). "
             "A figure marked STAND-IN is not in the sources.\n")
    body = table(("Event", "Kind", "Record", "This run", "Difference", "Within tolerance"), rows(score))
    return f"## Against the record\n\n{about}\n**{md(headline(score))}.**\n\n{body}"


def panel_lines(score: Score, start: datetime) -> list[EventLine]:
    """A line of the replay's events panel for each event of the record, at the record's time."""
    out = []
    for o in score.outcomes:
        ev = o.event
        verdict = "agrees" if o.within else "differs"
        text = (f"Record: {ev.what} ({record_text(ev)}). This run: {run_text(o)}; difference "
                f"{difference_text(o)}: {verdict}.")
        note = f"{'Input' if ev.input else 'Emergent'}. Source: {ev.source}"
        t = ev.start
        lat = lon = None
        if ev.place is not None:
            lat, lon = ev.place.lat, ev.place.lon
        out.append(EventLine((t - start).total_seconds() / 60.0, t.strftime("%Y-%m-%dT%H:%M:%SZ"), PANEL_TYPE,
                             text, note, (), None, lat, lon))
    return out


# -- a batch ------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Spread:
    """One event of the record over a batch's runs of a variant."""

    event: Any
    runs: int
    within: int
    median_dt_h: float | None  # over the runs that have the event (None: none has it, or it is absent)
    found: int

    @property
    def share(self) -> float:
        return self.within / self.runs if self.runs else float("nan")


def spreads(record: Record, scores: Sequence[Score]) -> list[Spread]:
    """Each event's share within tolerance and median time difference over the runs."""
    out = []
    for k, ev in enumerate(record.events):
        outs = [s.outcomes[k] for s in scores]
        dts = [o.dt_h for o in outs if o.dt_h is not None and o.found is not None and not ev.absent]
        out.append(Spread(ev, len(outs), sum(o.within for o in outs),
                          statistics.median(dts) if dts else None, sum(o.found is not None for o in outs)))
    return out


def batch_text(record: Record, by_variant: Mapping[str, Sequence[Score]]) -> str:
    """The batch's distribution per event of the record, by variant: share within tolerance (emergent
    events first), how many runs have the event, the median time difference."""
    lines = [f"Against the record ({record.path.name}): share of runs within tolerance, per event"]
    for variant, scores in by_variant.items():
        sp = spreads(record, scores)
        em = [s for s in sp if not s.event.input]
        mean = sum(s.share for s in em) / len(em) if em else float("nan")
        lines.append(f"\n{variant} ({len(scores)} runs): emergent events within tolerance, mean share {100 * mean:.0f} %")
        for s in sorted(sp, key=lambda s: s.event.input):
            med = "" if s.median_dt_h is None else f", median difference {_hours(s.median_dt_h)}"
            kind = "input   " if s.event.input else "emergent"
            lines.append(f"  {kind} {s.event.id}: {s.within}/{s.runs} ({100 * s.share:.0f} %), found in {s.found}{med}")
    return "\n".join(lines)


def batch_json(by_variant: Mapping[str, Sequence[Score]], record: Record) -> list[dict[str, Any]]:
    """The same as rows for JSON."""
    return [{"variant": v, "event": s.event.id, "input": s.event.input, "runs": s.runs, "within": s.within,
             "share": s.share, "found": s.found, "median_dt_h": s.median_dt_h}
            for v, scores in by_variant.items() for s in spreads(record, scores)]


def start_of(meta: Mapping[str, Any]) -> datetime:
    return parse_utc(str(meta["start"]))


def scores_of(record: Record, runs: Iterable[Iterable[Mapping[str, Any]]]) -> list[Score]:
    from campaign.record.match import score_run

    return [score_run(record, events) for events in runs]
