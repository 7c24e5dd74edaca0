"""The run summary: per unit, distance run, coal burnt and taken, final state and position; per battle;
the score under the scenario's victory conditions and the historian's measures; the labelled stand-ins
that bore on the run (``stand_ins``: per battle, those of its engine and damage model; for the run, those
and, when any ship filled her outfit at a base, the rearming's: ``campaign.model.stand_ins``).

Built from the records alone: a unit's ``start`` record gives where it began, its ``end`` record
(written when the scenario's time runs out) gives the totals. ``scoring`` is
:func:`campaign.output.scoring.score` (null when the scenario has no scoring rules) and ``measures``
:func:`campaign.output.scoring.measures`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from typing import Any

from campaign.model.stand_ins import bearing_on_battle, bearing_on_rearm, default_stand_ins
from campaign.output.scoring import facts_of, measures, score


def build_summary(events: Iterable[Mapping[str, Any]], meta: Mapping[str, Any]) -> dict[str, Any]:
    """A JSON-ready summary: ``scenario`` (meta), ``events`` (counts by type), ``units``, ``battles`` (each
    with its ``stand_ins``), ``scoring`` (None without scoring rules), ``measures`` and ``stand_ins`` (the ids
    of every labelled stand-in that bore on the run; none without a battle or a rearming)."""
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
    for b in battles.values():
        b["stand_ins"] = [s.id for s in bearing_on_battle(b.get("engine") or "", b.pop("damage_models", []))]
    return {"scenario": dict(meta), "events": dict(sorted(counts.items())), "units": units,
            "battles": [battles[k] for k in sorted(battles)], "scoring": score(events, meta, facts=facts),
            "measures": measures(events, meta, facts=facts),
            "stand_ins": run_stand_ins(battles.values(), rearmed=counts["rearm"] > 0)}


def run_stand_ins(battles: Iterable[Mapping[str, Any]], rearmed: bool) -> list[str]:
    """The ids of the stand-ins that bore on a run: its battles' (``stand_ins`` of each), then, if any ship
    filled her outfit at a base, the rearming's; each once, in the data files' order."""
    ids = {i for b in battles for i in b.get("stand_ins", [])}
    if rearmed:
        ids |= {s.id for s in bearing_on_rearm()}
    return [s.id for s in default_stand_ins() if s.id in ids]


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
        model = rec.get("damage_model")
        if model and model not in b.setdefault("damage_models", []):
            b["damage_models"].append(model)  # which damage model scored its hits: the stand-ins it brings
    elif rec["type"] == "sunk" and unit not in b["sunk"]:
        b["sunk"].append(unit)
