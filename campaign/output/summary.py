"""The run summary: per unit, distance run, coal burnt and taken, final state and position.

Built from the records alone: a unit's ``start`` record gives where it began, its ``end`` record
(written when the scenario's time runs out) gives the totals.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from typing import Any


def build_summary(events: Iterable[Mapping[str, Any]], meta: Mapping[str, Any]) -> dict[str, Any]:
    """A JSON-ready summary: ``scenario`` (meta), ``events`` (counts by type) and ``units``."""
    counts: Counter[str] = Counter()
    units: dict[str, dict[str, Any]] = {}
    for rec in events:
        counts[rec["type"]] += 1
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
    return {"scenario": dict(meta), "events": dict(sorted(counts.items())), "units": units}
