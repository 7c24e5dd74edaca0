"""Event records in words, for the replay's events panel and the GeoPackage's event layer.

``PHRASES`` maps an event type to a function that gives the *predicate* of a sentence about one
record ("departs Messina for Philippeville at 16 kn"); the subject (a ship, or a squadron when
several of its ships did the same thing at the same moment) is put in front by :func:`event_lines`.
A new kind of event is one entry in ``PHRASES``; a type without an entry still reads sensibly
("Goeben: engagement start").

``QUIET_TYPES`` are the records that do not earn a frame of their own in the replay (every unit has
a ``start`` and an ``end``); they are still listed in words in the frame that shows them.

Texts here are plain (not HTML): whoever shows them escapes them for their medium.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

Rec = Mapping[str, Any]
Phrase = Callable[[Rec], str]

QUIET_TYPES = frozenset({"start", "end"})

STATUS_WORDS = MappingProxyType({
    "in_port": "in port",
    "underway": "under way",
    "waiting": "lying stopped",
    "coaling": "coaling",
    "out_of_coal": "out of coal",
    "stopped": "stopped",
    "interned": "interned",
})


def num(x: Any, digits: int = 0) -> str:
    """A number with thousands separators ("1,835"); '?' when missing."""
    if x is None:
        return "?"
    try:
        v = float(x)
    except (TypeError, ValueError):
        return str(x)
    text = f"{v:,.{digits}f}"
    return text[:-2] if digits and text.endswith(".0") else text


def speed_text(speed_kn: Any) -> str:
    """"16 kn" or "15.5 kn"."""
    return f"{num(speed_kn, 1)} kn"


def where(rec: Rec) -> str:
    """The record's place name, else its position in degrees and minutes ("38°10'N 15°35'E")."""
    place = rec.get("place")
    if place:
        return str(place)
    lat, lon = rec.get("lat"), rec.get("lon")
    if lat is None or lon is None:
        return "at sea"
    return f"{_dm(float(lat), 'N', 'S')} {_dm(float(lon), 'E', 'W')}"


def _dm(v: float, pos: str, neg: str) -> str:
    a = abs(v)
    d = int(a)
    m = round((a - d) * 60.0)
    if m == 60:
        d, m = d + 1, 0
    return f"{d}°{m:02d}'{pos if v >= 0 else neg}"


def _depart(r: Rec) -> str:
    origin = r.get("origin")
    text = f"departs {origin} for {r.get('to', '?')}" if origin else f"steers for {r.get('to', '?')}"
    text += f" at {speed_text(r.get('speed_kn'))}"
    if r.get("dist_nm") is not None:
        text += f", {num(r.get('dist_nm'))} nm"
    if r.get("passages"):
        text += " through " + ", ".join(str(p) for p in r["passages"])
    return text


def _arrive(r: Rec) -> str:
    return f"arrives at {r.get('to') or where(r)}"


def _coal_start(r: Rec) -> str:
    return f"begins coaling from {r.get('source', '?')} at {num(r.get('rate_t_per_h'))} t/h"


def _coal_end(r: Rec) -> str:
    text = f"finishes coaling from {r.get('source', '?')}: {num(r.get('taken_t'))} t taken"
    if r.get("reason"):
        text += f" ({r['reason']})"
    return text


def _transfer_start(r: Rec) -> str:
    return f"begins giving coal at {where(r)}, {num(r.get('cargo_t'))} t in her holds"


def _transfer_end(r: Rec) -> str:
    return f"has given {num(r.get('given_t'))} t of coal, {num(r.get('cargo_t'))} t left"


def _out_of_coal(r: Rec) -> str:
    return f"runs out of coal at {where(r)}"


def _neutral_limit(r: Rec) -> str:
    return f"must leave {r.get('place') or 'the neutral port'}: {num(r.get('limit_h'))} h neutral stay is up"


def _interned(r: Rec) -> str:
    return f"is interned at {where(r)}"


def _detach(r: Rec) -> str:
    return f"detaches from {r.get('was_in', '?')} at {where(r)}"


def _halt(r: Rec) -> str:
    return f"stops steaming at {where(r)}"


def _stop(r: Rec) -> str:
    return f"stops at {where(r)}"


def _speed_change(r: Rec) -> str:
    text = f"changes speed to {speed_text(r.get('speed_kn'))}"
    return text + (f" ({r['reason']})" if r.get("reason") else "")


def _order_failed(r: Rec) -> str:
    return f"cannot carry out '{r.get('order', '?')}': {r.get('reason', '?')}"


def _order_skipped(r: Rec) -> str:
    return f"skips '{r.get('order', '?')}': {r.get('reason', '?')}"


def _sighting(r: Rec) -> str:
    seen = r.get("recognised")
    what = ", ".join(seen) if isinstance(seen, list) else str(seen or "something")
    verb = "sights" if r.get("previous") == "none" else "makes out"
    return f"{verb} {what} at {num(r.get('range_nm'))} nm, bearing {num(r.get('bearing_deg'))}"


def _course_change(r: Rec) -> str:
    text = f"alters course, {num(r.get('dist_nm'))} nm to go"
    return text + (f" ({r['reason']})" if r.get("reason") else "")


def _politics(r: Rec) -> str:
    nations = r.get("nations") or []
    kind = r.get("kind")
    if kind == "war":
        return f"{' and '.join(nations)} are at war"
    if kind == "peace":
        return f"{' and '.join(nations)} make peace"
    if kind in ("keep_out", "allow_in"):
        verb = "must keep out of" if kind == "keep_out" else "may enter"
        return f"{', '.join(nations)} {verb} {r.get('sovereign')} waters"
    if kind in ("fire", "hold_fire"):
        return f"{nations[0]} {'may' if kind == 'fire' else 'may not'} fire on {nations[-1]}"
    return f"{', '.join(nations)}: {kind} {r.get('what') or ''}".strip()


def _contact_lost(r: Rec) -> str:
    return f"loses sight of the enemy at {num(r.get('range_nm'))} nm"


def _start(r: Rec) -> str:
    state = STATUS_WORDS.get(str(r.get("status")), str(r.get("status", "")))
    return f"{state} at {where(r)} with {num(r.get('coal_t'))} t of coal"


def _end(r: Rec) -> str:
    state = STATUS_WORDS.get(str(r.get("status")), str(r.get("status", "")))
    return f"ends {state} at {where(r)} with {num(r.get('coal_t'))} t of coal, {num(r.get('run_nm'))} nm run"


PHRASES: Mapping[str, Phrase] = MappingProxyType({
    "sighting": _sighting,
    "contact_lost": _contact_lost,
    "course_change": _course_change,
    "politics": _politics,
    "depart": _depart,
    "arrive": _arrive,
    "coal_start": _coal_start,
    "coal_end": _coal_end,
    "transfer_start": _transfer_start,
    "transfer_end": _transfer_end,
    "out_of_coal": _out_of_coal,
    "neutral_limit": _neutral_limit,
    "interned": _interned,
    "detach": _detach,
    "halt": _halt,
    "stop": _stop,
    "speed_change": _speed_change,
    "order_failed": _order_failed,
    "order_skipped": _order_skipped,
    "start": _start,
    "end": _end,
})


def predicate(rec: Rec, phrases: Mapping[str, Phrase] = PHRASES) -> str:
    """What the record says happened, without its subject ("arrives at Messina")."""
    fn = phrases.get(str(rec.get("type")))
    if fn is None:
        return str(rec.get("type", "event")).replace("_", " ")
    return fn(rec)


def sentence(rec: Rec, phrases: Mapping[str, Phrase] = PHRASES) -> str:
    """One record in words, without its time ("Goeben arrives at Messina")."""
    pred = predicate(rec, phrases)
    unit = rec.get("unit")
    if not unit:
        return pred[:1].upper() + pred[1:]
    if str(rec.get("type")) not in phrases:
        return f"{unit}: {pred}"
    return f"{unit} {pred}"


@dataclass(frozen=True)
class EventLine:
    """A sentence about one record, or about several ships of one force doing the same at once."""

    t_min: float
    t: str  # UTC ISO-8601 of the first record
    type: str
    text: str
    note: str
    units: tuple[str, ...]
    side: str | None
    lat: float | None
    lon: float | None


def event_lines(events: Iterable[Rec], phrases: Mapping[str, Phrase] = PHRASES) -> list[EventLine]:
    """The records as sentences, in time order; a squadron's identical records at one moment become one.

    Nine ships of "Group C" departing Malta together read "Group C (Bouvet, ...) departs Malta ...",
    so the panel reads like a log rather than a roll call.
    """
    groups: dict[tuple[Any, ...], list[Rec]] = {}
    for rec in events:
        pred = predicate(rec, phrases)
        force = rec.get("force") if rec.get("unit") else None
        key = (rec.get("t_min"), rec.get("type"), force or rec.get("unit"), pred, rec.get("note"))
        groups.setdefault(key, []).append(rec)
    lines = []
    for (t_min, type_, _, pred, note), recs in groups.items():
        first = recs[0]
        units = tuple(str(r["unit"]) for r in recs if r.get("unit"))
        if len(units) > 1:
            force = str(first.get("force"))
            subject = f"{force} ({', '.join(units)})"
            text = f"{subject} {pred}" if str(type_) in phrases else f"{subject}: {pred}"
        else:
            text = sentence(first, phrases)
        lines.append(EventLine(float(t_min or 0.0), str(first.get("t", "")), str(type_), text,
                               str(note or ""), units, first.get("side"), _f(first.get("lat")),
                               _f(first.get("lon"))))
    lines.sort(key=lambda ln: ln.t_min)
    return lines


def _f(x: Any) -> float | None:
    return None if x is None else float(x)
