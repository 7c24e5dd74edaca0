"""The story of a run: its notable records in time order, one line each, for ``report.md``.

A run of the whole campaign writes some three thousand records; a historian wants the two hundred that
tell what happened. :func:`story` keeps:

* sailings (a ``depart`` from a named place, or on a scripted order: one that carries a ``note``) and
  arrivals at named places or scripted points, not the legs a captain steers while shadowing; an arrival
  and a sailing on at the same moment read as one line;
* coaling (one line when it ends, with its start), neutral time limits, internment, ships out of coal,
  detachments, orders that could not be carried out;
* encounters: the first sighting between two forces (who saw whom first, and when the other saw back),
  and the moment they lost each other for good or for long (:data:`RESIGHT_GAP_MIN`);
* messages that are not reports (orders and information between commands): text, sender, receivers and
  when each had it; one line for a message sent to many;
* politics; shelling; battles (one line when each begins, every sinking, one line when it ends with the
  hits each ship took); the victory-condition draws.

Ships of one side doing the same thing at one moment read as one line ("Goeben and Breslau arrive ..."
is "Goeben, Breslau arrives ..."), phrased as the replay phrases its events
(:mod:`campaign.output.replay_events`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from campaign.output.replay_events import (
    BATTLE_ENDS,
    PHRASES,
    Phrase,
    clock_time,
    deliveries,
    duration,
    num,
    predicate,
    quoted,
    speed_text,
    where,
)
from campaign.output.run_facts import Rec

# A contact lost and found again within this many minutes is one encounter, not two: the lookouts' view
# flickers as smoke and hulls dip below the horizon (a presentation choice, not a rule).
RESIGHT_GAP_MIN = 120.0
# Longest message text shown whole in a line (orders and telegrams are short; longer ones are cut).
MESSAGE_TEXT_CHARS = 240
# A squadron of more ships than this is named with its count, not its ships.
NAMED_SHIPS_MAX = 4
# Doctrine's own legs (campaign/command/doctrine.py, campaign/world/command.py): steering for a station
# on a contact, watching it, cutting it off, intercepting it, running from it, keeping with a friend,
# walking a patrol line. They carry no note; their destination words start so. The encounters and
# battles tell what they add up to.
DOCTRINE_LEGS = ("station on ", "watching ", "cutting off ", "interception of ", "away from ", "with ",
                 "patrol point ")

SHIP_TYPES = frozenset({"depart", "arrive", "coal_end", "neutral_limit", "interned", "out_of_coal", "detach",
                        "shelling", "shelling_withheld", "sunk", "break_off", "order_failed"})


@dataclass(frozen=True)
class StoryLine:
    t_min: float
    t: str
    text: str


def story(events: Iterable[Rec], marks: Mapping[tuple[str, float], str] | None = None) -> list[StoryLine]:
    """The notable records as lines, in time order. ``marks`` adds words to a ship's arrival at a moment
    ((unit, t_min) -> "in the Dardanelles"), for what the measures found there."""
    events = list(events)
    lines = _ship_lines(events, dict(marks or {}))
    lines += _encounters(events, _squadrons(events))
    lines += _messages(events)
    lines += _battles(events)
    lines += [StoryLine(float(r["t_min"]), str(r["t"]), _politics_line(r)) for r in events
              if r.get("type") in ("politics", "victory_conditions")]
    lines.sort(key=lambda ln: ln.t_min)
    return lines


# -- ships ---------------------------------------------------------------------------------------------


def _ship_lines(events: list[Rec], marks: dict[tuple[str, float], str]) -> list[StoryLine]:
    """Sailings, arrivals, coaling and the other ship records worth telling, grouped across the forces of
    a side that did the same thing at the same moment."""
    last_leg: dict[str, tuple[Any, str]] = {}
    coal_began: dict[str, Rec] = {}
    broke_off: set[tuple[Any, str]] = set()
    said: dict[tuple[str, float], dict[str, Any]] = {}  # (unit, t_min) -> {type: (record, predicate)}
    order: list[tuple[str, float]] = []
    for rec in events:
        type_, unit = rec.get("type"), rec.get("unit")
        if not unit:
            continue
        if type_ == "coal_start":
            coal_began[str(unit)] = rec
        if type_ not in SHIP_TYPES:
            continue
        if type_ == "depart" and not _sailing(rec, last_leg):
            continue
        if type_ == "arrive" and not (rec.get("place") or rec.get("note")):
            continue
        if type_ == "break_off":  # once a battle for each ship: the engine repeats it every move
            key_b = (rec.get("battle"), str(unit))
            if key_b in broke_off:
                continue
            broke_off.add(key_b)
        t = float(rec.get("t_min") or 0.0)
        extra: dict[str, Any] = {}
        if type_ == "arrive" and marks.get((str(unit), t)):
            extra["_mark"] = marks[(str(unit), t)]
        if type_ == "coal_end":
            began = coal_began.pop(str(unit), None)
            extra["_began"] = began.get("t") if began else None
        r = {**rec, **extra}
        key = (str(unit), t)
        if key not in said:
            said[key] = {}
            order.append(key)
        said[key].setdefault(str(type_), (r, predicate(r, STORY_PHRASES)))
    groups: dict[tuple[Any, ...], list[Rec]] = {}
    for key in order:
        by_type = said[key]
        if "arrive" in by_type and "depart" in by_type:  # through a place without stopping: one line
            arr, dep = by_type.pop("arrive"), by_type.pop("depart")
            by_type["arrive"] = (arr[0], f"{arr[1]} and sails on for {_leg(dep[0])}")
        for type_, (rec, pred) in by_type.items():
            groups.setdefault((rec.get("t_min"), type_, rec.get("side"), pred), []).append(rec)
    out = []
    for (t, _, _, pred), recs in groups.items():
        many = len(recs) > 1
        out.append(StoryLine(float(t or 0.0), str(recs[0].get("t")),
                             f"{_subject(recs)} {plural_verb(pred) if many else pred}"))
    return out


def plural_verb(pred: str) -> str:
    """The predicate with its first word, a verb in the third person singular, made plural ("arrives at"
    -> "arrive at"), for a subject of several ships."""
    verb, _, rest = pred.partition(" ")
    irregular = {"is": "are", "has": "have", "was": "were"}
    if verb in irregular:
        plural = irregular[verb]
    elif verb.endswith("ies"):
        plural = verb[:-3] + "y"
    elif verb.endswith(("sses", "shes", "ches", "xes")):
        plural = verb[:-2]
    elif verb.endswith("s") and not verb.endswith("ss"):
        plural = verb[:-1]
    else:
        plural = verb
    return f"{plural} {rest}" if rest else plural


def _subject(recs: list[Rec]) -> str:
    """Who did it: the ships, a squadron by its name and ships (or their number, when many)."""
    forces: dict[str, list[str]] = {}
    for r in recs:
        forces.setdefault(str(r.get("force") or r.get("unit")), []).append(str(r.get("unit")))
    names = []
    for force, ships in forces.items():
        if len(ships) == 1:
            names.append(ships[0])
        elif len(ships) <= NAMED_SHIPS_MAX:
            names.append(f"{force} ({', '.join(ships)})")
        else:
            names.append(f"{force} ({len(ships)} ships)")
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def _sailing(rec: Rec, last_leg: dict[str, tuple[Any, str]]) -> bool:
    """Is this ``depart`` a sailing worth telling (see the module's docstring)? A force steering again for
    the destination it last sailed for is not; the other ships of a force sailing together are."""
    force = str(rec.get("force") or rec.get("unit"))
    to, t = str(rec.get("to") or ""), rec.get("t_min")
    if not rec.get("note") and to.startswith(DOCTRINE_LEGS):
        return False
    prev = last_leg.get(force)
    if prev is not None and prev[1] == to and prev[0] != t and not rec.get("origin"):
        return False
    last_leg[force] = (t, to)
    return True


def _leg(r: Rec) -> str:
    text = f"{r.get('to', '?')} at {speed_text(r.get('speed_kn'))}"
    return text + (f", {num(r.get('dist_nm'))} nm" if r.get("dist_nm") is not None else "")


def _arrive(r: Rec) -> str:
    text = f"arrives at {r.get('to') or where(r)}"
    return text + (f" ({r['_mark']})" if r.get("_mark") else "")


def _coal_end(r: Rec) -> str:
    span = f", {clock_time(r['_began'], r.get('t'))}–{clock_time(r.get('t'))}" if r.get("_began") else ""
    text = f"coals from {r.get('source', '?')}{span}: {num(r.get('taken_t'))} t taken"
    return text + (f" ({r['reason']})" if r.get("reason") else "")


def _shelling(r: Rec) -> str:
    nation = f" ({r['town_nation']})" if r.get("town_nation") else ""
    until = f" until {clock_time(r['until'], r.get('t'))}" if r.get("until") else ""
    return f"shells {r.get('town', '?')}{nation}{until}"


def _shelling_withheld(r: Rec) -> str:
    return f"lies off {r.get('town', '?')} but does not shell it: {r.get('reason') or '?'}"


def _sunk(r: Rec) -> str:
    battle = f" in battle {r['battle']}" if r.get("battle") is not None else ""
    return "is sunk" + (f" by {r['by']}" if r.get("by") else "") + battle


# The replay's phrases, its shelling ones first where it has them, with arrivals, coaling and sinkings told
# more fully.
STORY_PHRASES: Mapping[str, Phrase] = MappingProxyType({
    "shelling": _shelling, "shelling_withheld": _shelling_withheld, **PHRASES,
    "arrive": _arrive, "coal_end": _coal_end, "sunk": _sunk})


def _politics_line(r: Rec) -> str:
    if r.get("type") == "victory_conditions":
        text = PHRASES["victory_conditions"](r)
        return text[:1].upper() + text[1:]
    nations = [str(n) for n in (r.get("nations") or [])]
    kind = r.get("kind")
    if kind == "fire_on_attack" and len(nations) == 2:
        types = "/".join(str(t) for t in (r.get("ship_types") or [])) or "any"
        text = (f"{nations[0]} may fire on {nations[1]} only once {nations[1]} attacks the "
                f"{types} ships of {r.get('protecting') or 'a protected nation'}")
    elif kind in ("permit", "forbid"):
        text = f"{' and '.join(nations)} {'may now' if kind == 'permit' else 'may no longer'} {_permission(r)}"
    elif kind == "keep_out" and r.get("sovereign"):
        width = f"{num(r.get('width_nm'), 1)} nm off" if r.get("width_nm") else "out of the waters of"
        text = f"{' and '.join(nations)} must keep {width} the coasts of {r['sovereign']}"
    else:
        text = PHRASES["politics"](r)
    return text[:1].upper() + text[1:]


def _permission(r: Rec) -> str:
    """A permission's name in words: a restricted water's permit reads "enter the Dardanelles"."""
    from campaign.geo.regions import restricted_waters

    what = str(r.get("what") or "")
    for rw in restricted_waters():
        if rw.permit == what:
            return f"enter the {rw.name}"
    return what.replace("_", " ")


# -- encounters ----------------------------------------------------------------------------------------


def _squadrons(events: list[Rec]) -> set[str]:
    """The forces that held more than one ship at some time (their names take a plural verb)."""
    ships: dict[str, set[str]] = {}
    for r in events:
        if r.get("unit") and r.get("force"):
            ships.setdefault(str(r["force"]), set()).add(str(r["unit"]))
    return {f for f, s in ships.items() if len(s) > 1}


def _verb(subject: str, verb: str, squadrons: set[str]) -> str:
    return f"{subject} {plural_verb(verb) if subject in squadrons else verb}"


def _encounters(events: list[Rec], squadrons: set[str]) -> list[StoryLine]:
    """Two forces coming into sight of each other, and losing each other, as single lines.

    An encounter begins with the first sighting either way ("Chatham sights Goeben (smoke) at 14.8 nm;
    Goeben sees Chatham at 13:27") and ends when neither sees the other and they do not meet again within
    :data:`RESIGHT_GAP_MIN` ("Chatham and Goeben lose sight of each other")."""
    pairs: dict[frozenset[str], list[Rec]] = {}
    for r in events:
        if r.get("type") == "contact_lost" or (r.get("type") == "sighting" and r.get("previous") == "none"):
            pairs.setdefault(frozenset((str(r.get("observer")), str(r.get("target")))), []).append(r)
    out = []
    for recs in pairs.values():
        seeing: set[tuple[str, str]] = set()
        opened: Rec | None = None
        back: Rec | None = None
        for i, r in enumerate(recs):
            way = (str(r.get("observer")), str(r.get("target")))
            if r.get("type") == "sighting":
                if opened is None:
                    opened, back = r, None
                elif way != (opened.get("observer"), opened.get("target")) and back is None:
                    back = r
                seeing.add(way)
                continue
            seeing.discard(way)
            if seeing or opened is None:
                continue
            t = float(r.get("t_min") or 0.0)
            again = next((float(x["t_min"]) for x in recs[i + 1:] if x.get("type") == "sighting"), None)
            if again is not None and again - t <= RESIGHT_GAP_MIN:
                continue
            out.append(_encounter_line(opened, back, squadrons))
            a, b = str(opened.get("observer")), str(opened.get("target"))
            rng = f" at {num(r.get('range_nm'), 1)} nm" if r.get("range_nm") is not None else ""
            text = (f"{a} and {b} lose sight of each other{rng}" if back is not None
                    else f"{_verb(a, 'loses', squadrons)} sight of {b}{rng}")
            out.append(StoryLine(t, str(r["t"]), text))
            opened = back = None
        if opened is not None:  # still in sight at the end
            out.append(_encounter_line(opened, back, squadrons))
    return out


def _encounter_line(opened: Rec, back: Rec | None, squadrons: set[str]) -> StoryLine:
    seen = opened.get("recognised")
    what = ", ".join(map(str, seen)) if isinstance(seen, list) else str(seen or "something")
    light = f", {str(opened['light']).replace('_', ' ')}" if opened.get("light") not in (None, "day") else ""
    text = (f"{_verb(str(opened.get('observer')), 'sights', squadrons)} {opened.get('target')} ({what}) at "
            f"{num(opened.get('range_nm'), 1)} nm{light}")
    if back is not None:
        text += (f"; {_verb(str(back.get('observer')), 'sees', squadrons)} {back.get('target')} at "
                 f"{clock_time(back.get('t'), opened.get('t'))}")
    return StoryLine(float(opened.get("t_min") or 0.0), str(opened.get("t")), text)


# -- messages ------------------------------------------------------------------------------------------


def _messages(events: list[Rec]) -> list[StoryLine]:
    """Messages that carry orders or information between commands (not the ships' reports): one line for
    each text a sender sent at one moment, with each receiver and when it had it. A headquarters passing a
    message on (campaign/world/command.py: "Milne passes on: ...") is told in the line of the message it
    passes on, when that message is in the story."""
    got = deliveries(events)
    groups: dict[tuple[Any, ...], list[Rec]] = {}
    for r in events:
        if r.get("type") == "message_sent" and r.get("kind") != "report":
            groups.setdefault((r.get("t_min"), r.get("sender"), r.get("text")), []).append(r)
    relays: dict[tuple[Any, ...], list[str]] = {}
    folded: set[tuple[Any, ...]] = set()
    for key, recs in groups.items():
        t_min, sender, text = key
        prefix = f"{sender} passes on: "
        if not str(text or "").startswith(prefix):
            continue
        original = str(text)[len(prefix):]
        source = [k for k, rs in groups.items() if k[2] == original and (k[0] or 0) <= (t_min or 0)
                  and any(x.get("receiver") == sender for x in rs)]
        if source:
            relays.setdefault(source[-1], []).append(
                f"{sender} passes it on at {clock_time(recs[0].get('t'), groups[source[-1]][0].get('t'))} to "
                + ", ".join(_heard(r, got) for r in recs))
            folded.add(key)
    out = []
    for key, recs in groups.items():
        if key in folded:
            continue
        t_min, sender, text = key
        heard = [_heard(r, got) for r in recs]
        if len(recs) == 1:
            line = f"{sender} → {recs[0].get('receiver')}: {quoted(text, MESSAGE_TEXT_CHARS)} (received by {heard[0]}"
        else:
            line = (f"{sender} → {len(recs)} commands: {quoted(text, MESSAGE_TEXT_CHARS)} "
                    f"(received by {', '.join(heard)}")
        line += "".join(f"; {x}" for x in relays.get(key, [])) + ")"
        out.append(StoryLine(float(t_min or 0.0), str(recs[0]["t"]), line))
    return out


def stand_in_text(received: Mapping[str, Any]) -> str:
    """" by Nauen W/T (stand-in: ...)": a hop of the message's route whose station's figures are in part
    stand-ins (the ``stand_in`` the signals put in the route), said where the message is told."""
    said = [f" by {h.get('from')} (stand-in: {h['stand_in']})" for h in received.get("route") or ()
            if isinstance(h, Mapping) and h.get("stand_in")]
    return "".join(said)


def _heard(r: Rec, got: Mapping[str, Mapping[str, Any]]) -> str:
    """"Milne 13:03": who had a message and when (or that he never did)."""
    d = got.get(str(r.get("id")), {})
    if d.get("received"):
        return f"{r.get('receiver')} {clock_time(d['received'], r.get('t'))}{stand_in_text(d['record'])}"
    if d.get("lost"):
        return f"{r.get('receiver')} never (lost: {d.get('reason') or 'no route'})"
    return f"{r.get('receiver')} not by the end"


# -- battles -------------------------------------------------------------------------------------------


def _battles(events: list[Rec]) -> list[StoryLine]:
    """One line when a battle begins (who against whom, where, under which rules) and one when it ends
    (why, after how long, hits taken by each ship); sinkings are ship lines of their own."""
    starts: dict[Any, list[Rec]] = {}
    ends: dict[Any, list[Rec]] = {}
    hits: dict[Any, Counter[str]] = {}
    for r in events:
        n = r.get("battle")
        if n is None or not r.get("unit"):
            continue
        if r.get("type") == "engagement_start":
            starts.setdefault(n, []).append(r)
        elif r.get("type") == "engagement_end":
            ends.setdefault(n, []).append(r)
        elif r.get("type") == "hit":
            hits.setdefault(n, Counter())[str(r["unit"])] += 1
    out = []
    for n, recs in starts.items():
        first = recs[0]
        sides: dict[str, list[str]] = {}
        for r in recs:
            sides.setdefault(str(r.get("side")), []).append(str(r["unit"]))
        who = " against ".join(", ".join(ships) for ships in sides.values())
        out.append(StoryLine(float(first["t_min"]), str(first["t"]),
                             f"Battle {n} begins ({first.get('engine', '?')} rules) at {where(first)}: {who}"))
        if n in ends:
            last = ends[n][0]
            why = BATTLE_ENDS.get(str(last.get("reason")), str(last.get("reason") or "?"))
            taken = hits.get(n, Counter())
            hit_text = ", ".join(f"{s} {k}" for s, k in taken.most_common()) or "none"
            sunk = [str(r["unit"]) for r in ends[n] if r.get("sunk")]
            text = (f"Battle {n} ends after {duration(last.get('duration_min'))} ({why}); hits taken: {hit_text}"
                    + (f"; sunk: {', '.join(sunk)}" if sunk else ""))
            out.append(StoryLine(float(last["t_min"]), str(last["t"]), text))
    return out
