"""Each event of the record found in a run's records, and scored.

A run's candidates for an event are its occurrences of the event's kind among the units named:

* a contact (``sighting``, ``contact_lost``) is the span in which any observer named sees any target
  named (the union of every pair's spans, from a ``sighting`` with nothing seen before to the
  ``contact_lost``), with gaps of up to ``REGAIN_MIN`` bridged, as a lookout who loses a ship in a
  squall for a few minutes has not lost the contact; its onset is a sighting, its end a loss of contact;
* an ``arrive`` record of a unit named; a ``message_received`` by a receiver named, from a sender named,
  of a message whose text (its ``message_sent``) contains the text given; an ``engagement_start`` of a
  battle with a ship or force named on each side;
* a coal level: the ship's coal at the moment (her last record's coal, less what her rate burnt since),
  or on her arrival at the place; coal taken: what her ``coal_end`` records at the place and in the
  window (widened by the tolerance) add up to.

Names match a ship or her force (a ship's forces are read off her records). The candidate chosen is the
one within the place's radius, else any, nearest in time to the record's window; the difference is the
time from the window to it (0 inside the window; negative before it), and it agrees when within the
tolerance and the radius. An ``absent`` event agrees when there is no candidate in the window widened by
the tolerance (and within the radius, where a place is given).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from campaign.clock import parse_utc
from campaign.geo.earth import distance_nm
from campaign.record.schema import Record

Rec = Mapping[str, Any]
REGAIN_MIN = 60.0  # a contact lost and regained within an hour is one contact


@dataclass(frozen=True)
class Occurrence:
    """One candidate in the run: when (UTC), where (or None), and a figure (coal, t) where one is scored."""

    t: datetime
    lat: float | None = None
    lon: float | None = None
    value_t: float | None = None
    label: str = ""


@dataclass(frozen=True)
class Outcome:
    """An event of the record against the run."""

    event: Any  # a schema event
    found: Occurrence | None  # the run's candidate chosen (for an absent event: the first that breaks it)
    dt_h: float | None  # from the record's window to the run's event (0 inside; negative: earlier)
    dist_nm: float | None  # from the record's place
    off_t: float | None  # coal outside the record's range (tonnes; 0 inside)
    within: bool

    @property
    def emergent(self) -> bool:
        return not self.event.input


@dataclass(frozen=True)
class Score:
    """The outcomes of a run, with the shares of emergent and input events that agree."""

    outcomes: tuple[Outcome, ...]

    def share(self, emergent: bool) -> tuple[int, int]:
        """(agreeing, of) among the emergent events (or the inputs)."""
        group = [o for o in self.outcomes if o.emergent == emergent]
        return sum(o.within for o in group), len(group)


# -- reading the run ------------------------------------------------------------------------------------


class RunIndex:
    """What the matcher needs of a run's records, read once."""

    def __init__(self, events: Iterable[Rec]) -> None:
        self.events = [r for r in events if r.get("t")]
        self.forces: dict[str, set[str]] = {}
        self.by_type: dict[str, list[Rec]] = {}
        self.texts: dict[str, str] = {}
        for r in self.events:
            unit = r.get("unit")
            if unit and r.get("force"):
                self.forces.setdefault(str(unit), set()).add(str(r["force"]))
            self.by_type.setdefault(str(r.get("type")), []).append(r)
            if r.get("type") == "message_sent" and r.get("id") is not None:
                self.texts[str(r["id"])] = str(r.get("text") or "")
        self.end = parse_utc(str(self.events[-1]["t"])) if self.events else None

    def names(self, ship: Any) -> set[str]:
        """A ship's name and those of every force she was in."""
        return {str(ship)} | self.forces.get(str(ship), set())

    def is_(self, ship: Any, named: Sequence[str]) -> bool:
        return bool(self.names(ship) & set(named))


def _t(r: Rec) -> datetime:
    return parse_utc(str(r["t"]))


def _pos(r: Rec) -> tuple[float | None, float | None]:
    lat, lon = r.get("lat"), r.get("lon")
    return (None, None) if lat is None or lon is None else (float(lat), float(lon))


def contacts(run: RunIndex, observers: Sequence[str], targets: Sequence[str]) -> list[tuple[Occurrence, Occurrence | None]]:
    """The contacts of any observer named with any target named: (onset, loss) with the loss None while
    it lasts at the run's end; pairs' spans joined, gaps up to REGAIN_MIN bridged."""
    spans: list[tuple[datetime, Rec, datetime | None, Rec | None]] = []
    open_: dict[tuple[str, str], Rec] = {}
    for r in run.events:
        kind = r.get("type")
        if kind not in ("sighting", "contact_lost"):
            continue
        obs, tgt = r.get("observer") or r.get("unit"), r.get("target")
        if not run.is_(obs, observers) or not run.is_(tgt, targets):
            continue
        pair = (str(obs), str(tgt))
        if kind == "sighting" and pair not in open_:
            open_[pair] = r
        elif kind == "contact_lost" and pair in open_:
            first = open_.pop(pair)
            spans.append((_t(first), first, _t(r), r))
    for first in open_.values():
        spans.append((_t(first), first, None, None))
    spans.sort(key=lambda s: s[0])
    merged: list[list[Any]] = []
    for start, first, end, last in spans:
        if merged:
            m = merged[-1]
            if m[2] is None or start <= m[2] + timedelta(minutes=REGAIN_MIN):
                if m[2] is not None and (end is None or end > m[2]):
                    m[2], m[3] = end, last
                continue
        merged.append([start, first, end, last])
    out = []
    for start, first, end, last in merged:
        onset = Occurrence(start, *_pos(first), label=f"{first.get('observer') or first.get('unit')} sights "
                                                     f"{first.get('target')}")
        loss = None if end is None else Occurrence(end, *_pos(last), label=f"{last.get('observer') or last.get('unit')} "
                                                                         f"loses {last.get('target')}")
        out.append((onset, loss))
    return out


def _arrivals(run: RunIndex, units: Sequence[str]) -> list[Occurrence]:
    return [Occurrence(_t(r), *_pos(r), value_t=r.get("coal_t"),
                       label=f"{r.get('unit')} arrives at {r.get('to') or r.get('place') or 'sea'}")
            for r in run.by_type.get("arrive", []) if run.is_(r.get("unit"), units)]


def _receipts(run: RunIndex, ev: Any) -> list[Occurrence]:
    out = []
    text = (ev.text or "").lower()
    for r in run.by_type.get("message_received", []):
        if str(r.get("receiver")) not in ev.receivers and not run.is_(r.get("receiver"), ev.receivers):
            continue
        if ev.senders and str(r.get("sender")) not in ev.senders and not run.is_(r.get("sender"), ev.senders):
            continue
        if text and text not in run.texts.get(str(r.get("id")), "").lower():
            continue
        out.append(Occurrence(_t(r), *_pos(r), label=f"{r.get('receiver')} receives {r.get('sender')}'s message"))
    return out


def _battles(run: RunIndex, a: Sequence[str], b: Sequence[str]) -> list[Occurrence]:
    starts: dict[Any, list[Rec]] = {}
    for r in run.by_type.get("engagement_start", []):
        starts.setdefault(r.get("battle"), []).append(r)
    out = []
    for n, recs in starts.items():
        names: set[str] = set()
        for r in recs:
            names |= run.names(r.get("unit")) | {str(f) for f in r.get("forces") or []}
        if names & set(a) and names & set(b):
            first = recs[0]
            out.append(Occurrence(_t(first), *_pos(first), label=f"battle {n}: " + ", ".join(
                sorted({str(r.get('unit')) for r in recs}))))
    return out


def coal_at(run: RunIndex, ship: str, when: datetime) -> Occurrence | None:
    """A ship's coal at a moment: her last record's coal at or before it, less her rate's burn since."""
    last = None
    for r in run.events:
        if r.get("unit") == ship and r.get("coal_t") is not None:
            if _t(r) > when:
                break
            last = r
    if last is None:
        return None
    hours = (when - _t(last)).total_seconds() / 3600.0
    coal = max(0.0, float(last["coal_t"]) + float(last.get("coal_rate_t_per_h") or 0.0) * hours)
    return Occurrence(when, *_pos(last), value_t=coal, label=f"{ship}'s coal")


# -- scoring --------------------------------------------------------------------------------------------


def _dt_h(ev: Any, t: datetime) -> float:
    """Hours from the record's window to t: 0 inside, negative before it."""
    if t < ev.start:
        return (t - ev.start).total_seconds() / 3600.0
    if t > ev.end:
        return (t - ev.end).total_seconds() / 3600.0
    return 0.0


def _dist(ev: Any, occ: Occurrence) -> float | None:
    if ev.place is None or occ.lat is None or occ.lon is None:
        return None
    return float(distance_nm(float(ev.place.lat), float(ev.place.lon), float(occ.lat), float(occ.lon)))


def _placed(ev: Any, occ: Occurrence) -> bool:
    d = _dist(ev, occ)
    return ev.place is None or (d is not None and d <= ev.place.radius_nm)


def _off(rng: Any, value: float | None) -> float | None:
    if value is None:
        return None
    if rng.min is not None and value < rng.min:
        return value - rng.min
    if rng.max is not None and value > rng.max:
        return value - rng.max
    return 0.0


def candidates(run: RunIndex, ev: Any) -> list[Occurrence]:
    """The run's occurrences of an event's kind among the units it names."""
    if ev.type == "sighting":
        return [on for on, _ in contacts(run, ev.units, ev.targets)]
    if ev.type == "contact_lost":
        return [off for _, off in contacts(run, ev.units, ev.targets) if off is not None]
    if ev.type == "arrive":
        return _arrivals(run, ev.units)
    if ev.type == "message_received":
        return _receipts(run, ev)
    if ev.type == "engagement":
        return _battles(run, ev.units, ev.targets)
    raise ValueError(f"no candidates for type {ev.type}")


def _choose(ev: Any, occs: Sequence[Occurrence]) -> Occurrence | None:
    if not occs:
        return None
    return min(occs, key=lambda o: (not _placed(ev, o), abs(_dt_h(ev, o.t)), o.t))


def score_event(run: RunIndex, ev: Any) -> Outcome:
    """One event of the record against the run."""
    if ev.type == "coal":
        return _coal_level(run, ev)
    if ev.type == "coal_taken":
        return _coal_taken(run, ev)
    occs = candidates(run, ev)
    if ev.absent:
        tol = timedelta(hours=ev.tolerance_h)
        breaking = [o for o in occs if ev.start - tol <= o.t <= ev.end + tol and _placed(ev, o)]
        first = min(breaking, key=lambda o: o.t) if breaking else None
        return Outcome(ev, first, None if first is None else _dt_h(ev, first.t),
                       None if first is None else _dist(ev, first), None, first is None)
    found = _choose(ev, occs)
    if found is None:
        return Outcome(ev, None, None, None, None, False)
    dt = _dt_h(ev, found.t)
    return Outcome(ev, found, dt, _dist(ev, found), None, abs(dt) <= ev.tolerance_h + 1e-9 and _placed(ev, found))


def _coal_level(run: RunIndex, ev: Any) -> Outcome:
    ship = ev.units[0]
    if ev.on_arrival:
        found = _choose(ev, _arrivals(run, [ship]))
        if found is None:
            return Outcome(ev, None, None, None, None, False)
        dt = _dt_h(ev, found.t)
        off = _off(ev.coal_t, found.value_t)
        ok = abs(dt) <= ev.tolerance_h + 1e-9 and _placed(ev, found) and off == 0.0
        return Outcome(ev, found, dt, _dist(ev, found), off, ok)
    found = coal_at(run, ship, ev.start)
    if found is None:
        return Outcome(ev, None, None, None, None, False)
    off = _off(ev.coal_t, found.value_t)
    return Outcome(ev, found, 0.0, _dist(ev, found), off, off == 0.0)


def _coal_taken(run: RunIndex, ev: Any) -> Outcome:
    ship = ev.units[0]
    tol = timedelta(hours=ev.tolerance_h)
    ends = [r for r in run.by_type.get("coal_end", [])
            if r.get("unit") == ship and ev.start - tol <= _t(r) <= ev.end + tol]
    ends = [r for r in ends if _placed(ev, Occurrence(_t(r), *_pos(r)))]
    if not ends:
        return Outcome(ev, None, None, None, None, False)
    taken = sum(float(r.get("taken_t") or 0.0) for r in ends)
    last = ends[-1]
    found = Occurrence(_t(last), *_pos(last), value_t=taken, label=f"{ship} takes coal")
    off = _off(ev.taken_t, taken)
    return Outcome(ev, found, _dt_h(ev, found.t), _dist(ev, found), off, off == 0.0)


def score_run(record: Record, events: Iterable[Rec]) -> Score:
    """Every event of the record against a run's records."""
    run = RunIndex(events)
    return Score(tuple(score_event(run, ev) for ev in record.events))
