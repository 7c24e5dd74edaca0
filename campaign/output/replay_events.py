"""Event records in words, for the replay's events panel and the GeoPackage's event layer.

``PHRASES`` maps an event type to a function that gives the *predicate* of a sentence about one
record ("departs Messina for Philippeville at 16 kn"); the subject (a ship, or a squadron when
several of its ships did the same thing at the same moment) is put in front by :func:`event_lines`.
A new kind of event is one entry in ``PHRASES``; a type without an entry still reads sensibly
("Goeben: engagement start").

``QUIET_TYPES`` are the records that do not earn a frame of their own in the replay (every unit has
a ``start`` and an ``end``; a ``picture`` or an ``orders`` record comes with the sighting, message or
departure that caused it; an ``intercept`` with the transmission it overheard); they are still listed
in words in the frame that shows them.

Messages are told whole: :func:`event_lines` joins each ``message_sent`` to the ``message_received``
or ``message_lost`` of the same ``id``, so the panel reads "Admiralty → Milne: 'Goeben is your
objective' (received 16:32, 2 h 27 min)". A record phrased alone (the GeoPackage's event layer) gives
the expected delay instead.

Texts here are plain (not HTML): whoever shows them escapes them for their medium.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from types import MappingProxyType
from typing import Any

from campaign.clock import parse_utc

Rec = Mapping[str, Any]
Phrase = Callable[[Rec], str]

QUIET_TYPES = frozenset({"start", "end", "picture", "orders", "standing", "message_rerouted", "intercept"})
# Records many commands of one side make at one moment about one thing (every set in hearing range notes
# the same transmission): one sentence for them all, "Dublin, Gloucester and 9 more hear enemy wireless".
SIDE_GROUPED_TYPES = MappingProxyType({"intercept": ("hears ", "hear ")})
MESSAGE_CHARS = 110  # longer message texts are cut in the sentence and given whole in its note

STATUS_WORDS = MappingProxyType({
    "in_port": "in port",
    "underway": "under way",
    "waiting": "lying stopped",
    "coaling": "coaling",
    "out_of_coal": "out of coal",
    "stopped": "stopped",
    "interned": "interned",
    "in_action": "in action",
    "sunk": "sunk",
    "shelling": "shelling a town",
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


def _coal_delayed(r: Rec) -> str:
    text = f"waits for the sea to coal from {r.get('source', '?')}"
    return text + (f" ({r['reason']})" if r.get("reason") else "")


def _coal_end(r: Rec) -> str:
    text = f"finishes coaling from {r.get('source', '?')}: {num(r.get('taken_t'))} t taken"
    if r.get("reason"):
        text += f" ({r['reason']})"
    return text


def _rearm(r: Rec) -> str:
    text = f"takes in {num(r.get('rounds_taken'))} rounds of ammunition at {r.get('source', '?')}"
    if r.get("reason") == "sailed":
        text += ", sailing before her outfit was full"
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


def _shelling(r: Rec) -> str:
    nation = f" ({r['town_nation']})" if r.get("town_nation") else ""
    text = f"shells {r.get('town', '?')}{nation}"
    if r.get("range_nm") is not None:
        text += f" from {num(r.get('range_nm'), 1)} nm"
    return text + (f" until {clock_time(r['until'], r.get('t'))}" if r.get("until") else "")


def _shelling_end(r: Rec) -> str:
    why = {"time": "time up", "next order": "next order", "new orders": "new orders",
           "in action": "in action"}.get(str(r.get("reason")), str(r.get("reason") or ""))
    text = f"ceases shelling {r.get('town', '?')} after {duration(r.get('duration_min'))}"
    return text + (f" ({why})" if why else "")


def _shelling_withheld(r: Rec) -> str:
    return f"lies off {r.get('town', '?')} without shelling it: {r.get('reason') or 'not allowed'}"


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


def _victory_conditions(r: Rec) -> str:
    # A side's secret die roll for its victory conditions (campaign/world/victory.py; seed 000).
    player = r.get("player") or r.get("side") or "a"
    return (f"the {player} player draws his secret victory conditions: column {r.get('draw', '?')} of the "
            f"{r.get('chart', '?')} chart")


def _contact_lost(r: Rec) -> str:
    return f"loses sight of the enemy at {num(r.get('range_nm'))} nm"


def duration(minutes: Any) -> str:
    """"2 h 27 min", "26 min", "31 h" (rounded to the minute); '?' when missing."""
    if minutes is None:
        return "?"
    m = round(float(minutes))
    h, m = divmod(m, 60)
    if not h:
        return f"{m} min"
    return f"{h} h" if not m else f"{h} h {m} min"


def clock_time(iso: Any, since: Any = None) -> str:
    """"16:32" of an ISO UTC time; "5 Aug 02:10" when it falls on another day than ``since``."""
    try:
        t = parse_utc(str(iso))
    except (TypeError, ValueError):
        return "?"
    if since is not None:
        try:
            if parse_utc(str(since)).date() != t.date():
                return f"{t.day} {t:%b %H:%M}"
        except (TypeError, ValueError):
            pass
    return f"{t:%H:%M}"


def quoted(text: Any, limit: int = MESSAGE_CHARS) -> str:
    """A message's text in quotes, cut with an ellipsis beyond ``limit`` characters."""
    t = " ".join(str(text or "").split())
    if len(t) > limit:
        t = t[: limit - 1].rstrip() + "…"
    return f"'{t}'"


KIND_WORDS = MappingProxyType({"report": "report", "order": "orders", "info": "message",
                               "politics": "political message"})


def _orders(r: Rec) -> str:
    what = "; ".join(str(o) for o in (r.get("orders") or [])) or "no orders"
    by = r.get("by")
    if by and by not in (r.get("unit"), r.get("force")):
        text = f"has orders from {by}: {what}"
    else:
        text = f"takes up new orders: {what}"
    reason = r.get("reason")
    if reason:
        text += f" ({quoted(reason, 90)[1:-1]})"
    return text


def _standing(r: Rec) -> str:
    changes = r.get("changes") if isinstance(r.get("changes"), Mapping) else {}
    what = "; ".join(_standing_change(str(k), v) for k, v in changes.items()) or "no change"
    by = f" from {r['by']}" if r.get("by") else ""
    via = f" (message {r['message']})" if r.get("message") else ""
    return f"has new standing instructions{by}: {what}{via}"


def _standing_change(key: str, v: Any) -> str:
    if key == "fire_on" and isinstance(v, Mapping):  # per-nation leave to fire, as he believes it
        return "; ".join(f"{'may' if may else 'may not'} fire on {nation}" for nation, may in v.items())
    return f"{key.replace('_', ' ')} {_plain(v)}"


def _plain(v: Any) -> str:
    if isinstance(v, Mapping):
        return str(v.get("name") or ", ".join(f"{k} {x}" for k, x in v.items()))
    if isinstance(v, (list, tuple)):
        return ", ".join(_plain(x) for x in v)
    return str(v).replace("_", " ")


def _message_sent(r: Rec) -> str:
    text = f"→ {r.get('receiver', '?')}: {quoted(r.get('text'))}"
    got = r.get("delivery")
    if isinstance(got, Mapping):
        if got.get("received"):
            return text + f" (received {clock_time(got['received'], r.get('t'))}, {duration(got.get('delay_min'))})"
        if got.get("lost"):
            return text + f" (lost {clock_time(got['lost'], r.get('t'))}: {got.get('reason') or 'no route'})"
        return text + " (not received by the end)"
    if r.get("held") or r.get("expected_delay_min") is None:
        return text + " (held: no route yet)"
    return text + f" (expected in {duration(r.get('expected_delay_min'))})"


def _message_received(r: Rec) -> str:
    kind = KIND_WORDS.get(str(r.get("kind")), "message")
    sent = None
    if r.get("t") and r.get("delay_min") is not None:
        try:
            sent = parse_utc(str(r["t"])) - timedelta(seconds=round(float(r["delay_min"]) * 60.0))
        except (TypeError, ValueError):
            sent = None
    of = f" of {_hm(sent, r.get('t'))}" if sent is not None else ""
    return f"receives {r.get('sender', '?')}'s {kind}{of} after {duration(r.get('delay_min'))}"


def _hm(when: datetime, since: Any) -> str:
    return clock_time(when.strftime("%Y-%m-%dT%H:%M:%SZ"), since)


def _message_lost(r: Rec) -> str:
    text = f"gives up {r.get('sender', '?')}'s message {r.get('id', '')} to {r.get('receiver', '?')}"
    text += f": {r.get('reason') or 'no route'}"
    if r.get("held_min") is not None:
        text += f" after holding it {duration(r.get('held_min'))}"
    return text


def _message_rerouted(r: Rec) -> str:
    hops = r.get("route") or []
    via = ", ".join(str(h.get("to")) for h in hops[:-1] if isinstance(h, Mapping))
    text = f"re-routes message {r.get('id', '')} ({r.get('reason') or 're-routed'})"
    return text + (f" via {via}" if via else "")


def _message_jammed(r: Rec) -> str:
    hop = r.get("hop") if isinstance(r.get("hop"), Mapping) else {}
    jammers = ", ".join(str(j) for j in (r.get("jammers") or [])) or "the enemy"
    return f"cannot get message {r.get('id', '')} through to {hop.get('to', '?')}: jammed by {jammers}"


def _intercept(r: Rec) -> str:
    if not r.get("sea"):
        return "hears enemy wireless from beyond the charted seas"
    return f"hears enemy wireless: the sender is in the {r['sea']}, area {r.get('area') or '?'}"


def _jamming_start(r: Rec) -> str:
    return "begins jamming enemy wireless"


def _jamming_end(r: Rec) -> str:
    return "stops jamming"


PICTURE_LEVELS = MappingProxyType({"smoke": "smoke", "ships": "ships", "recognised": "recognised",
                                   "lost": "contact lost", "intercept": "wireless heard"})


def _picture(r: Rec) -> str:
    node = r.get("node") or "?"
    about = r.get("about") or "a contact"
    if r.get("level") == "intercept":
        where_ = f"the {r['sea']}, area {r.get('area') or '?'}" if r.get("sea") else "an unknown sea"
        return f"{node} notes enemy wireless in {where_}, heard {clock_time(r.get('seen'), r.get('t'))}"
    if r.get("lat") is None or r.get("lon") is None:
        where_ = f"in the {r['sea']}, area {r.get('area') or '?'}" if r.get("sea") else "somewhere"
    else:
        where_ = f"at {where(r)}"
    level = PICTURE_LEVELS.get(str(r.get("level")), str(r.get("level") or ""))
    text = f"{node} now places {about} ({level}) {where_}"
    if r.get("course_deg") is not None and r.get("speed_kn"):
        text += f", course {num(r.get('course_deg'))}°, {speed_text(r.get('speed_kn'))}"
    text += f"; seen {clock_time(r.get('seen'), r.get('t'))}"
    if r.get("source"):
        text += f", {r['source']}"
    return text


def _start(r: Rec) -> str:
    state = STATUS_WORDS.get(str(r.get("status")), str(r.get("status", "")))
    return f"{state} at {where(r)} with {num(r.get('coal_t'))} t of coal"


def _end(r: Rec) -> str:
    state = STATUS_WORDS.get(str(r.get("status")), str(r.get("status", "")))
    return f"ends {state} at {where(r)} with {num(r.get('coal_t'))} t of coal, {num(r.get('run_nm'))} nm run"


def _engagement_start(r: Rec) -> str:
    others = [f for f in (r.get("forces") or []) if f != r.get("force")]
    return (f"goes into action (battle {r.get('battle', '?')}, {r.get('engine', '?')} rules)"
            + (f" with {', '.join(map(str, others))}" if others else ""))


def _engagement_end(r: Rec) -> str:
    if r.get("sunk"):
        state = "sunk"
    else:
        state = (f"damage {num(100 * float(r.get('damage') or 0))} %, gunnery {num(100 * float(r.get('gunnery') or 0))} %"
                 + (f", {num(r.get('speed_lost_kn'), 1)} kn lost" if r.get("speed_lost_kn") else ""))
    why = BATTLE_ENDS.get(str(r.get("reason")), str(r.get("reason") or "?"))
    return (f"comes out of action after {num(r.get('duration_min'))} min ({why}): {state}; "
            f"{num(r.get('coal_burnt_t'))} t of coal burnt")


BATTLE_ENDS = MappingProxyType({"destroyed": "a side destroyed", "separated": "out of sight",
                                "drawn_off": "the enemy drew off",
                                "out_of_range": "out of range", "darkness": "night fell",
                                "settled": "the umpire settled it", "escaped": "the runner escaped",
                                "time": "time limit",
                                "unfinished": "the scenario ended"})


def _fire(r: Rec) -> str:
    return f"fires on {r.get('target', '?')} at {num(r.get('range_yd'))} yd"


def _hit(r: Rec) -> str:
    what = r.get("part") or r.get("cause") or ""
    by = f" by {r['by']}" if r.get("by") else ""
    dmg = f", damage {num(100 * float(r['damage']))} %" if isinstance(r.get("damage"), (int, float)) else ""
    text = f"is hit{by}" + (f" ({what})" if what else "") + dmg
    # Great War at Sea's damage model (campaign.tactics.gwas): plunging fire and critical hits
    if r.get("plunging_hull_boxes"):
        text += f"; plunging fire: {r['plunging_hull_boxes']} more hull box"
    if r.get("critical"):
        crit = str(r["critical"]).replace("_", " ")
        text += f"; critical hit, {crit}" + ("" if r.get("critical_applied", True) else " (stopped by her armour)")
    return text


def _torpedo(r: Rec) -> str:
    result = r.get("result") or ("hits" if r.get("hit") else "misses")
    tube = f" from her {r['tube']} tube" if r.get("tube") else ""
    return f"fires a torpedo{tube} at {r.get('target', '?')} at {num(r.get('range_yd'))} yd: {result}"


def _sunk(r: Rec) -> str:
    return "sinks" + (f", sunk by {r['by']}" if r.get("by") else "")


def _break_off(r: Rec) -> str:
    return f"breaks off the action ({r.get('of_side') or r.get('side') or 'her side'} outmatched)"


def _admiral_disabled(r: Rec) -> str:
    return "has her admiral put out of action"


SIGNAL_WORDS = MappingProxyType({"in_succession": "turn in succession", "together": "turn together",
                                 "speed": "speed"})


def _signal(r: Rec) -> str:
    kind = SIGNAL_WORDS.get(str(r.get("kind")), str(r.get("kind") or "new course and speed"))
    order = f"{kind} to {num(r.get('course_deg'))}°" if r.get("kind") != "speed" else kind
    order += f", {speed_text(r.get('speed_kn'))}" if r.get("speed_kn") is not None else ""
    how = "signals" if r.get("signalled", True) else "leads the column round"
    return f"{how}: {order}"


def _ram(r: Rec) -> str:
    return f"rams {r.get('target', '?')} at {num(r.get('closing_kn'), 1)} kn: {r.get('result', '?')}"


def _collision(r: Rec) -> str:
    return f"collides with {r.get('target', '?')} at {num(r.get('closing_kn'), 1)} kn: {r.get('result', '?')}"


def _settlement(r: Rec) -> str:
    lots = ", ".join(f"{n} {str(lot).replace('_', ' ')}" for n, lot in (r.get("lots") or {}).items())
    return (f"the umpire settles the contact of {' and '.join(map(str, r.get('forces') or []))} "
            f"({r.get('superior', '?')} superior, {num(r.get('ratio'), 2)} to 1): {lots}")


def _battle_track(r: Rec) -> str:
    return f"battle {r.get('battle', '?')} ends ({BATTLE_ENDS.get(str(r.get('reason')), r.get('reason'))})"


PHRASES: Mapping[str, Phrase] = MappingProxyType({
    "engagement_start": _engagement_start,
    "engagement_end": _engagement_end,
    "fire": _fire,
    "hit": _hit,
    "torpedo": _torpedo,
    "sunk": _sunk,
    "break_off": _break_off,
    "admiral_disabled": _admiral_disabled,
    "signal": _signal,
    "ram": _ram,
    "collision": _collision,
    "settlement": _settlement,
    "battle_track": _battle_track,
    "sighting": _sighting,
    "contact_lost": _contact_lost,
    "course_change": _course_change,
    "politics": _politics,
    "victory_conditions": _victory_conditions,
    "orders": _orders,
    "standing": _standing,
    "message_sent": _message_sent,
    "message_received": _message_received,
    "message_lost": _message_lost,
    "message_rerouted": _message_rerouted,
    "message_jammed": _message_jammed,
    "intercept": _intercept,
    "jamming_start": _jamming_start,
    "jamming_end": _jamming_end,
    "picture": _picture,
    "depart": _depart,
    "arrive": _arrive,
    "coal_start": _coal_start,
    "coal_delayed": _coal_delayed,
    "coal_end": _coal_end,
    "rearm": _rearm,
    "transfer_start": _transfer_start,
    "transfer_end": _transfer_end,
    "out_of_coal": _out_of_coal,
    "neutral_limit": _neutral_limit,
    "interned": _interned,
    "shelling": _shelling,
    "shelling_end": _shelling_end,
    "shelling_withheld": _shelling_withheld,
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


def deliveries(events: Iterable[Rec]) -> dict[str, dict[str, Any]]:
    """What became of each message, by ``id``: ``{"received": t, "delay_min": m, "receiver_rec": rec}``
    or ``{"lost": t, "reason": r}``; a message still travelling at the end has no entry."""
    out: dict[str, dict[str, Any]] = {}
    for rec in events:
        type_, mid = rec.get("type"), rec.get("id")
        if mid is None:
            continue
        if type_ == "message_received":
            out[str(mid)] = {"received": rec.get("t"), "t_min": rec.get("t_min"),
                             "delay_min": rec.get("delay_min"), "record": rec}
        elif type_ == "message_lost" and str(mid) not in out:
            out[str(mid)] = {"lost": rec.get("t"), "t_min": rec.get("t_min"), "reason": rec.get("reason"),
                             "record": rec}
    return out


def with_deliveries(events: Iterable[Rec]) -> list[Rec]:
    """The records, each ``message_sent`` given a ``delivery`` (see :func:`deliveries`, or ``{}`` when
    the message never arrived) and, when its text is too long for a sentence, the whole text as its
    ``note``."""
    events = list(events)
    got = deliveries(events)
    out: list[Rec] = []
    for rec in events:
        if rec.get("type") == "message_sent":
            d = got.get(str(rec.get("id")), {})
            extra: dict[str, Any] = {"delivery": {k: v for k, v in d.items() if k != "record"}}
            text = " ".join(str(rec.get("text") or "").split())
            if len(text) > MESSAGE_CHARS and not rec.get("note"):
                extra["note"] = text
            rec = {**rec, **extra}
        out.append(rec)
    return out


def event_lines(events: Iterable[Rec], phrases: Mapping[str, Phrase] = PHRASES) -> list[EventLine]:
    """The records as sentences, in time order; a squadron's identical records at one moment become one.

    Nine ships of "Group C" departing Malta together read "Group C (Bouvet, ...) departs Malta ...",
    so the panel reads like a log rather than a roll call.
    """
    events = with_deliveries(events)
    groups: dict[tuple[Any, ...], list[Rec]] = {}
    for rec in events:
        pred = predicate(rec, phrases)
        force = rec.get("force") if rec.get("unit") else None
        who = rec.get("side") if rec.get("type") in SIDE_GROUPED_TYPES else force or rec.get("unit")
        key = (rec.get("t_min"), rec.get("type"), who, pred, rec.get("note"))
        groups.setdefault(key, []).append(rec)
    lines = []
    for (t_min, type_, _, pred, note), recs in groups.items():
        first = recs[0]
        units = tuple(str(r["unit"]) for r in recs if r.get("unit"))
        if len(units) > 1 and type_ in SIDE_GROUPED_TYPES:
            names = list(units[:3]) + ([f"{len(units) - 3} more"] if len(units) > 3 else [])
            verb, plural = SIDE_GROUPED_TYPES[str(type_)]
            rest = pred.removeprefix(verb)
            text = f"{', '.join(names[:-1])} and {names[-1]} {plural}{rest}"
        elif len(units) > 1:
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
