"""The run summary: per unit, distance run, coal burnt and taken, final state and position; per battle;
the score under the scenario's victory conditions and the historian's measures.

Built from the records alone: a unit's ``start`` record gives where it began, its ``end`` record
(written when the scenario's time runs out) gives the totals. ``scoring`` is
:func:`campaign.output.scoring.score` (null when the scenario has no scoring rules) and ``measures``
:func:`campaign.output.scoring.measures`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from typing import Any

from campaign.output.scoring import facts_of, measures, score


def build_summary(events: Iterable[Mapping[str, Any]], meta: Mapping[str, Any]) -> dict[str, Any]:
    """A JSON-ready summary: ``scenario`` (meta), ``events`` (counts by type), ``units``, ``battles``,
    ``scoring`` (None without scoring rules) and ``measures``."""
    events = list(events)
    facts = facts_of(events)  # one reading of the records for the score and the measures
    counts: Counter[str] = Counter()
    units: dict[str, dict[str, Any]] = {}
    battles: dict[int, dict[str, Any]] = {}
    for rec in events:
        counts[rec["type"]] += 1
        if rec["type"] in ("engagement_start", "engagement_end", "hit", "sunk"):
            _battle(battles, rec)
        u = rec.get("unit")
        if u is None:
            continue
        if rec["type"] == "start":
            units[u] = {"side": rec.get("side"), "start": {
                "t": rec["t"], "lat": rec.get("lat"), "lon": rec.get("lon"), "place": rec.get("place"),
                "coal_t": rec.get("coal_t")}}
        elif rec["type"] == "end" and u in units:
            units[u].update({
                "distance_run_nm": rec.get("run_nm"),
                "coal_burnt_t": rec.get("burnt_t"),
                "coal_taken_t": rec.get("taken_t"),
                "final": {"t": rec["t"], "status": rec.get("status"), "force": rec.get("force"),
                          "lat": rec.get("lat"), "lon": rec.get("lon"), "place": rec.get("place"),
                          "coal_t": rec.get("coal_t")},
            })
            if rec.get("cargo_t") is not None:
                units[u]["collier"] = {"coal_given_t": rec.get("given_t"), "cargo_left_t": rec.get("cargo_t")}
        elif rec["type"] == "out_of_coal" and u in units:
            units[u]["out_of_coal_at"] = rec["t"]
        elif rec["type"] == "arrive" and u in units:
            units[u].setdefault("arrivals", []).append({"t": rec["t"], "at": rec.get("to")})
    return {"scenario": dict(meta), "events": dict(sorted(counts.items())), "units": units,
            "battles": [battles[k] for k in sorted(battles)], "scoring": score(events, meta, facts=facts),
            "measures": measures(events, meta, facts=facts)}


def _battle(battles: dict[int, dict[str, Any]], rec: Mapping[str, Any]) -> None:
    """Fold one battle record into the battle's summary: when, under which engine, who was in it, why it
    ended, hits taken, ships sunk, and each ship's damage, speed lost and coal burnt."""
    n = rec.get("battle")
    if n is None:
        return
    b = battles.setdefault(n, {"battle": n, "ships": {}, "hits_taken": {}, "sunk": []})
    unit = rec.get("unit")
    if rec["type"] == "engagement_start":
        b.setdefault("start", rec["t"])
        b.setdefault("lat", rec.get("lat"))
        b.setdefault("lon", rec.get("lon"))
        b["engine"] = rec.get("engine")
        b["ships"].setdefault(unit, {"side": rec.get("side")})
    elif rec["type"] == "engagement_end":
        b["end"] = rec["t"]
        b["reason"] = rec.get("reason")
        b["broke_off"] = rec.get("broke_off", [])
        b["ships"].setdefault(unit, {"side": rec.get("side")}).update(
            {k: rec.get(k) for k in ("damage", "gunnery", "speed_lost_kn", "sunk", "coal_burnt_t")})
    elif rec["type"] == "hit":
        b["hits_taken"][unit] = b["hits_taken"].get(unit, 0) + 1
    elif rec["type"] == "sunk" and unit not in b["sunk"]:
        b["sunk"].append(unit)
