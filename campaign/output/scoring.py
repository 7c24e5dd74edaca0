"""The score of a run under the 1914 board game's victory conditions, and the historian's measures.

Both are computed from the records alone (every output is derived from the records: README, "What a run gives you") and go into ``summary.json`` under
``scoring`` and ``measures`` (campaign/output/summary.py).

:func:`score` applies the rules named by the run's ``meta["scoring"]`` (``"seed000"``: data/scoring.yaml):
each side's secret die roll (the ``victory_conditions`` record, campaign/world/victory.py) picks a column
of its chart; every row counts what the records show (ships sunk, or considered sunk at the end; Goeben out
to the Atlantic; German ships in the Dardanelles; towns shelled, each ship each town each time; divisions
of the French 19th Corps at Toulon by the deadline; Goeben kept out of the Dardanelles) and scores the
column's points for each; the advanced game's additional points (French, Austrian or Italian BB 10, B 6,
CA 2; an enemy home port shelled, 10 each ship each time) are added "in all cases"; the higher total wins
("The game is won on points", seed 000, 'Victory Conditions'). The charts' values are stand-ins: our copy
of the seed lost them (data/scoring.yaml says why each is what it is).

:func:`measures` says, whatever the rules: whether, when and with how much coal Goeben and Breslau got
away; whether and when each was brought to action; the divisions delivered; the towns shelled; the hits;
the ships lost, counted as the score counts them (sunk, or considered sunk at the end under the scoring
rules: colliers and merchant ships as well as warships); the ships that ran out of coal; how often the
enemy sighted each of them; where the German ships took their coal.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from types import MappingProxyType
from typing import Any

from campaign.clock import parse_utc
from campaign.geo.places import place_key
from campaign.model.victory_rules import (
    Definitions,
    RowCount,
    ScoringData,
    VictoryRules,
    default_scoring,
    rules_name,
    scoring_source,
    victory_rules,
)
from campaign.output.run_facts import CONSIDERED_SUNK, HOW_WORDS, Rec, RunFacts, place_nation

SINK_WORDS = MappingProxyType({"dreadnought": "dreadnought (BB)", "battleship": "older battleship (B)",
                               "armoured_cruiser": "armoured cruiser (CA)"})


def facts_of(events: Iterable[Rec], data: ScoringData | None = None) -> RunFacts:
    """The run's facts, as :func:`score` and :func:`measures` read them: made once, they serve both
    (a run's summary and a batch's measures ask for the two)."""
    return RunFacts.from_events(events, (data or default_scoring()).definitions)


def score(events: Iterable[Rec], meta: Mapping[str, Any], data: ScoringData | None = None,
          facts: RunFacts | None = None) -> dict[str, Any] | None:
    """The run's score under its scoring rules (``meta["scoring"]``), or None when it has none.
    ``facts``: :func:`facts_of` these events with this ``data``, when already made.

    Per side (by the scenario's side name): ``player``, ``chart``, ``draw`` (the secret die roll, None if
    the run has no record of it), ``column`` (what that column rewards), ``rows`` and ``additional`` (each
    ``{"row", "count", "points_each", "points", "what"}``), ``total``; then ``winner`` (a side, or None for
    a tie or an undecided score) and ``result`` in words.
    """
    name = rules_name(meta.get("scoring"))
    if name is None:
        return None
    data = data or default_scoring()
    rules = victory_rules(name, data)
    if facts is None:
        facts = facts_of(events, data)
    losses = facts.losses(rules.considered_sunk_at_end.nations)
    sides: dict[str, dict[str, Any]] = {}
    for chart_name, chart in rules.charts.items():
        drawn = facts.draws.get(chart.side)
        number = int(drawn["draw"]) if drawn is not None and drawn.get("draw") is not None else None
        rows = [_scored(row.name, *_count(row.counts, facts, chart.side, data.definitions, losses),
                        row.points[number - 1] if number else None) for row in chart.rows]
        extra = _additional(rules, facts, chart.side, tuple(c.side for c in rules.charts.values()), number)
        total = sum(r["points"] for r in rows + extra) if number else None
        sides[chart.side] = {
            "player": chart.player, "chart": chart_name, "draw": number,
            "drawn_at": drawn.get("t") if drawn is not None else None,
            "column": chart.columns.get(number) if number else None,
            "stand_in": chart.stand_in, "rows": rows, "additional": extra, "total": total,
        }
    winner, result = _result(sides)
    return {"rules": name, "title": rules.title, "won_on": rules.won_on, "sides": sides, "winner": winner,
            "result": result, "left_out": list(rules.left_out), "source": dict(scoring_source())}


def _scored(row: str, count: float, what: list[dict[str, Any]], each: int | None) -> dict[str, Any]:
    count = _tidy(count)
    return {"row": row, "count": count, "points_each": each,
            "points": _tidy(count * each) if each is not None else None, "what": what}


def _tidy(x: float) -> float | int:
    return int(x) if float(x).is_integer() else round(float(x), 2)


def _result(sides: Mapping[str, Mapping[str, Any]]) -> tuple[str | None, str]:
    totals = {s: v["total"] for s, v in sides.items()}
    missing = [s for s, t in totals.items() if t is None]
    if missing:
        return None, f"undecided: no victory-condition draw recorded for {', '.join(missing)}"
    ranked = sorted(totals.items(), key=lambda kv: kv[1], reverse=True)
    if len(ranked) < 2:
        return (ranked[0][0] if ranked else None), "one side only"
    (first, a), (_, b) = ranked[0], ranked[1]
    if a == b:
        return None, f"a draw on points, {_num(a)} each"
    return first, f"{first} win on points, {_num(a)} to {_num(b)}"


def _num(x: float) -> str:
    return str(_tidy(x))


# ------------------------------------------------------------------------------------------------ rows


def _count(c: RowCount, facts: RunFacts, side: str, d: Definitions,
           losses: Mapping[str, tuple[str, Rec]]) -> tuple[float, list[dict[str, Any]]]:
    """How many of the row's things the records show, and which; ``losses`` are the ships the run loses
    (:meth:`RunFacts.losses`: sunk, or considered sunk at the end)."""
    if c.kind == "sunk":
        what = [_loss(facts, ship, *losses[ship]) for ship in _ships(facts, c) if ship in losses]
        return len(what), what
    if c.kind == "exit_west":
        what = [{"ship": s, "t": facts.exited_west[s].get("t"), "lon": facts.exited_west[s].get("lon")}
                for s in _ships(facts, c) if s in facts.exited_west]
        return len(what), what
    if c.kind == "entered_dardanelles":
        what = [{"ship": s, "t": facts.entered_dardanelles[s].get("t"),
                 "place": facts.entered_dardanelles[s].get("place")}
                for s in _ships(facts, c) if s in facts.entered_dardanelles]
        return len(what), what
    if c.kind == "kept_out_of_dardanelles":
        what = [{"ship": s} for s in _ships(facts, c) if s not in facts.entered_dardanelles]
        return len(what), what
    if c.kind == "shelled_town":
        towns = {place_key(t) for t in d.town_list(c.towns or "north_african_coast")}
        who = c.side or side
        what = [{"town": s.town, "t": s.t, "by": s.force, "ships": list(s.ships)} for s in facts.shellings
                if s.side == who and place_key(s.town) in towns]
        return sum(len(w["ships"]) for w in what), what
    if c.kind == "divisions_delivered":
        arrivals = delivered(facts, d)
        what = [a for a in arrivals if a["by_deadline"]]
        return sum(a["divisions"] for a in what), what
    raise ValueError(f"unknown row kind {c.kind!r}")


def _ships(facts: RunFacts, c: RowCount) -> list[str]:
    """The run's ships that a row's filters select (names, nations, types; empty = any)."""
    return [n for n, info in facts.ships.items()
            if (not c.names or n in c.names) and (not c.nations or info.nation in c.nations)
            and (not c.types or info.type in c.types)]


def _loss(facts: RunFacts, ship: str, how: str, rec: Rec) -> dict[str, Any]:
    """A ship lost (:meth:`RunFacts.losses`) as the score's rows and the measures both name her."""
    info = facts.ships[ship]
    out = {"ship": ship, "how": how, "side": info.side, "nation": info.nation, "type": info.type,
           "t": rec.get("t"), "by": rec.get("by"), "battle": rec.get("battle")}
    if how == CONSIDERED_SUNK:
        out.update({"place": rec.get("place"), "lat": rec.get("lat"), "lon": rec.get("lon")})
    return out


def considered_nations(meta: Mapping[str, Any], data: ScoringData | None = None) -> tuple[str, ...]:
    """The nations whose ships afloat at the end but not got away count as sunk under the run's scoring
    rules (seed 000, 'Ending the Game'); none when the run has no scoring rules."""
    name = rules_name(meta.get("scoring"))
    if name is None:
        return ()
    return tuple(victory_rules(name, data or default_scoring()).considered_sunk_at_end.nations)


def _additional(rules: VictoryRules, facts: RunFacts, side: str, chart_sides: tuple[str, ...],
                number: int | None) -> list[dict[str, Any]]:
    """The advanced game's points "in all cases": French, Austrian or Italian ships sunk by the side, and
    the enemy's home ports it shelled."""
    sink = rules.additional.sink
    out = []
    for type_, points in sink.points_by_type.items():
        what = []
        for ship, info in facts.ships.items():
            if info.nation not in sink.nations or info.type != type_ or facts.lost(ship) is None:
                continue
            if _scorer(facts, ship, chart_sides) == side:
                _, rec = facts.lost(ship)  # type: ignore[misc]
                what.append({"ship": ship, "nation": info.nation, "t": rec.get("t"), "by": rec.get("by")})
        out.append(_scored(f"Sink a French, Austrian or Italian {SINK_WORDS.get(type_, type_)}", len(what),
                           what, points if number else None))
    home = rules.additional.shell_home_port
    what = []
    for s in facts.shellings:
        if s.side != side or not _home_port(home.ports, s.town, s.town_nation):
            continue
        shooter_nations = {facts.ships[x].nation for x in s.ships if x in facts.ships}
        if not any(facts.at_war(n, s.town_nation, s.t_min) for n in shooter_nations):
            continue
        eligible = [x for x in s.ships if x in home.except_ships
                    or (x in facts.ships and facts.ships[x].type not in home.excluded_types)]
        if eligible:
            what.append({"town": s.town, "t": s.t, "by": s.force, "ships": eligible})
    out.append(_scored("Shell an enemy home port (Pola, Toulon, an Italian port)",
                       sum(len(w["ships"]) for w in what), what, home.points if number else None))
    return out


def _scorer(facts: RunFacts, ship: str, chart_sides: tuple[str, ...]) -> str | None:
    """The side a sunk ship scores for: the chart side opposed to hers; a neutral's ship scores for the
    side of the ship that sank her."""
    own = facts.ships[ship].side
    if own in chart_sides:
        others = [s for s in chart_sides if s != own]
        return others[0] if len(others) == 1 else None
    by = (facts.sunk.get(ship) or {}).get("by")
    return facts.ships[by].side if by in facts.ships else None


def _home_port(ports: Iterable[Any], town: str, town_nation: str) -> bool:
    for p in ports:
        if p.nation != town_nation:
            continue
        if p.places == "any" or place_key(town) in {place_key(x) for x in p.places}:
            return True
    return False


def delivered(facts: RunFacts, d: Definitions) -> list[dict[str, Any]]:
    """Each troop transport's first arrival at the destination: when, how many divisions, in time or not.

    Divisions per transport: ``definitions.transports.divisions`` for the seed's three; any other transport
    carries an equal share of the corps (stand-in, data/scoring.yaml)."""
    tr = d.transports
    transports = [n for n, i in facts.ships.items() if i.type == tr.ship_type and i.nation == tr.nation]
    share = tr.corps_divisions / len(transports) if transports else 0.0
    deadline = parse_utc(tr.deadline)
    out = []
    for name in transports:
        for a in facts.arrivals.get(name, []):
            if place_key(str(a.get("place") or a.get("to") or "")) == place_key(tr.destination):
                divisions = _tidy(tr.divisions.get(name, share))
                out.append({"transport": name, "t": a.get("t"), "divisions": divisions,
                            "by_deadline": parse_utc(str(a.get("t"))) <= deadline})
                break
    return out


# -------------------------------------------------------------------------------------------- measures


def measures(events: Iterable[Rec], meta: Mapping[str, Any], data: ScoringData | None = None,
             facts: RunFacts | None = None) -> dict[str, Any]:
    """The historian's measures of a run (see the module's docstring); ``meta`` is the run's meta (unused
    beyond its presence: every measure comes from the records). ``facts``: :func:`facts_of` these
    events with this ``data``, when already made."""
    events = list(events)
    data = data or default_scoring()
    d = data.definitions
    if facts is None:
        facts = facts_of(events, data)
    hits = Counter(str(r["unit"]) for r in events if r.get("type") == "hit" and r.get("unit"))
    principal = [s for s in d.principal_ships if s in facts.ships]
    losses = facts.losses(considered_nations(meta, data))  # as the score counts them
    out: dict[str, Any] = {
        "definitions": "data/scoring.yaml (definitions)",
        "ships": {s: _ship_measure(s, facts, events, hits, losses) for s in principal},
        "troops": _troops(facts, d),
        "towns_shelled": [{"town": s.town, "nation": s.town_nation, "by": s.force, "ships": list(s.ships),
                           "t": s.t, "until": s.until} for s in facts.shellings],
        "hits": dict(sorted(hits.items())),
        "sunk": _sunk(facts, losses),
        "out_of_coal": _out_of_coal(facts, events),
        "contacts": {s: _contacts(s, facts, events) for s in principal},
        "coal": _coal(facts, events, {facts.ships[s].nation for s in principal} or {"Germany"}),
    }
    return out


def _ship_measure(ship: str, facts: RunFacts, events: list[Rec], hits: Counter[str],
                  losses: Mapping[str, tuple[str, Rec]]) -> dict[str, Any]:
    info = facts.ships[ship]
    esc = facts.escape(ship)
    end = facts.end.get(ship) or {}
    m: dict[str, Any] = {"side": info.side, "nation": info.nation, "escaped": esc is not None}
    if esc is not None:
        coal = esc.record.get("coal_t")
        m.update({"how": HOW_WORDS[esc.how], "at": esc.t, "place": esc.record.get("place") or esc.record.get("to"),
                  "coal_t": coal, "bunker_t": info.bunker_t,
                  "coal_fraction": round(float(coal) / info.bunker_t, 3) if coal is not None and info.bunker_t > 0
                  else None})
    lost = losses.get(ship)
    m["fate"] = (lost[0] if lost else "escaped" if esc else "interned" if end.get("status") == "interned"
                 else "out of coal" if end.get("status") == "out_of_coal" else "at large at the end")
    if lost:
        m["sunk"] = {"t": lost[1].get("t"), "by": lost[1].get("by"), "battle": lost[1].get("battle"), "how": lost[0]}
    actions = _actions(ship, events)
    m["brought_to_action"] = bool(actions)
    m["actions"] = actions
    m["hits_taken"] = hits.get(ship, 0)
    m["final"] = {"t": end.get("t"), "status": end.get("status"), "place": end.get("place"),
                  "lat": end.get("lat"), "lon": end.get("lon"), "coal_t": end.get("coal_t")}
    return m


def _actions(ship: str, events: list[Rec]) -> list[dict[str, Any]]:
    """The battles she was in: start, end, why it ended, whom against, hits she took."""
    battles: dict[Any, dict[str, Any]] = {}
    sides: dict[Any, dict[str, str]] = {}
    for r in events:
        n = r.get("battle")
        if n is None:
            continue
        if r.get("type") == "engagement_start" and r.get("unit"):
            sides.setdefault(n, {})[str(r["unit"])] = str(r.get("side"))
            if r["unit"] == ship:
                battles[n] = {"battle": n, "start": r.get("t"), "engine": r.get("engine"), "hits_taken": 0}
        elif n in battles and r.get("unit") == ship:
            if r.get("type") == "hit":
                battles[n]["hits_taken"] += 1
            elif r.get("type") == "engagement_end":
                battles[n].update({"end": r.get("t"), "reason": r.get("reason"), "damage": r.get("damage"),
                                   "sunk": r.get("sunk")})
    for n, b in battles.items():
        mine = sides[n].get(ship)
        b["against"] = sorted(s for s, side in sides[n].items() if side != mine)
    return [battles[n] for n in sorted(battles)]


def _troops(facts: RunFacts, d: Definitions) -> dict[str, Any]:
    tr = d.transports
    arrivals = delivered(facts, d)
    transports = [n for n, i in facts.ships.items() if i.type == tr.ship_type and i.nation == tr.nation]
    return {
        "destination": tr.destination, "deadline": tr.deadline.strftime("%Y-%m-%dT%H:%M:%SZ"),
        "corps_divisions": _tidy(tr.corps_divisions), "transports": len(transports),
        "delivered_by_deadline": _tidy(sum(a["divisions"] for a in arrivals if a["by_deadline"])),
        "delivered_in_all": _tidy(sum(a["divisions"] for a in arrivals)),
        "arrivals": arrivals,
        "transports_sunk": [t for t in transports if facts.is_sunk(t)],
    }


def _sunk(facts: RunFacts, losses: Mapping[str, tuple[str, Rec]]) -> dict[str, Any]:
    """The ships the run loses, as the score counts them (:meth:`RunFacts.losses`): each with ``how``
    (sunk, or considered sunk at the end by the scoring rules), by side and by nation."""
    ships = [_loss(facts, name, *lost) for name, lost in losses.items()]
    ships.sort(key=lambda s: str(s["t"]))
    by_side: dict[str, list[str]] = {}
    by_nation: dict[str, list[str]] = {}
    for s in ships:
        by_side.setdefault(s["side"], []).append(s["ship"])
        by_nation.setdefault(s["nation"] or "unknown", []).append(s["ship"])
    considered = sum(s["how"] == CONSIDERED_SUNK for s in ships)
    return {"count": len(ships), "in_the_run": len(ships) - considered, "considered_at_the_end": considered,
            "by_side": by_side, "by_nation": by_nation, "ships": ships}


def _out_of_coal(facts: RunFacts, events: list[Rec]) -> dict[str, Any]:
    """The ships that ran out of coal (``out_of_coal`` records), each once, when she first did, with her
    side, nation and place: a ship out of coal lies helpless where she is until coal reaches her."""
    first: dict[str, Rec] = {}
    for r in events:
        if r.get("type") == "out_of_coal" and r.get("unit") and r["unit"] not in first:
            first[str(r["unit"])] = r
    ships = []
    for name, rec in first.items():
        info = facts.ships.get(name)
        ships.append({"ship": name, "side": info.side if info else rec.get("side"),
                      "nation": info.nation if info else None, "t": rec.get("t"),
                      "lat": rec.get("lat"), "lon": rec.get("lon")})
    by_side: dict[str, list[str]] = {}
    for x in ships:
        by_side.setdefault(str(x["side"]), []).append(x["ship"])
    return {"count": len(ships), "by_side": by_side, "ships": ships}


def _contacts(ship: str, facts: RunFacts, events: list[Rec]) -> dict[str, Any]:
    """The enemy's sightings of the ship: new contacts (a sighting from nothing), every sighting record,
    the first and the last, and who saw her. A sighting is of a force (``target``); the ship counts when
    she was in that force at the time (her records' ``force``)."""
    side = facts.ships[ship].side
    force_of: dict[str, str] = {}
    new = total = 0
    first = last = None
    observers: list[str] = []
    by_sides: set[str] = set()
    for r in events:
        unit = r.get("unit")
        if unit in facts.ships and r.get("force"):
            force_of[str(unit)] = str(r["force"])
        if r.get("type") != "sighting" or r.get("side") == side or force_of.get(ship) != r.get("target"):
            continue
        total += 1
        seen = {"t": r.get("t"), "observer": r.get("observer"), "level": r.get("level"),
                "range_nm": r.get("range_nm")}
        by_sides.add(str(r.get("side")))
        if r.get("previous") == "none":
            new += 1
        first = first or seen
        last = seen
        if r.get("observer") not in observers:
            observers.append(str(r.get("observer")))
    return {"by": sorted({facts.ships[o].side for o in observers if o in facts.ships} | by_sides),
            "contacts": new, "sighting_records": total, "first": first, "last": last, "observers": observers}


def _coal(facts: RunFacts, events: list[Rec], nations: set[str]) -> dict[str, Any]:
    """Where the warships of ``nations`` took coal: from colliers, in neutral, friendly or hostile ports
    (the port's 1914 sovereign, data/places.yaml, against the run's politics at the time)."""
    began: dict[str, Rec] = {}
    per_ship: dict[str, dict[str, Any]] = {}
    for r in events:
        unit = r.get("unit")
        info = facts.ships.get(str(unit)) if unit else None
        if info is None or info.is_merchant or info.nation not in nations:
            continue
        if r.get("type") == "coal_start":
            began[str(unit)] = r
        elif r.get("type") == "coal_end":
            source = str(r.get("source") or "")
            kind = _coal_kind(source, info.nation, info.side, facts, float(r.get("t_min") or 0.0))
            m = per_ship.setdefault(str(unit), {"from_colliers_t": 0.0, "in_neutral_ports_t": 0.0,
                                                "in_friendly_ports_t": 0.0, "in_hostile_ports_t": 0.0,
                                                "coalings": []})
            taken = float(r.get("taken_t") or 0.0)
            key = {"collier": "from_colliers_t", "neutral port": "in_neutral_ports_t",
                   "friendly port": "in_friendly_ports_t", "hostile port": "in_hostile_ports_t"}[kind]
            m[key] = round(m[key] + taken, 2)
            m["coalings"].append({"source": source, "kind": kind, "start": (began.pop(str(unit), None) or r).get("t"),
                                  "end": r.get("t"), "taken_t": taken})
    totals = {k: round(sum(m[k] for m in per_ship.values()), 2)
              for k in ("from_colliers_t", "in_neutral_ports_t", "in_friendly_ports_t", "in_hostile_ports_t")}
    return {"nations": sorted(nations), "ships": per_ship, "totals": totals}


def _coal_kind(source: str, nation: str, side: str, facts: RunFacts, t_min: float) -> str:
    if source in facts.ships:
        return "collier"
    port_nation = place_nation(source)
    if port_nation is None:
        return "neutral port"
    if port_nation == nation or any(i.side == side for i in facts.ships.values() if i.nation == port_nation):
        return "friendly port"
    if facts.at_war(nation, port_nation, t_min):
        return "hostile port"
    return "neutral port"
