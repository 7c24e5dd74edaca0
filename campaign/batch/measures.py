"""One replicate's records flattened into a fixed set of named scalar measures, for a batch's Dataset.

Every measure comes from the records through campaign/output/scoring.py (``measures`` and ``score``:
DESIGN.md principle 6); this module only picks and flattens. Names carry their units: ``_h`` hours after
the scenario's start, ``_t`` tonnes; a *flag* is 0 or 1 (its mean is a probability), a *count* a whole
number, a *quantity* a real number. A value that does not exist in a run (Goeben's arrival when she did
not get away, the points of a scenario without scoring) is NaN, never 0.

The ships followed one by one are the principal ships of data/scoring.yaml (``definitions:
principal_ships``: Goeben, Breslau, and Moltke in the what-ifs that bring her); the sides scored are the
two sides of its charts (Central Powers and Entente). A run without one of those ships (Moltke in the
historical campaign, or a small test) gives NaN for her measures (``SHIP_MEASURES``), and a scenario
without scoring NaN for its points.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from campaign.clock import parse_utc
from campaign.output.run_facts import HOW_WORDS
from campaign.output.scoring import facts_of, measures, score

FLAG, COUNT, QUANTITY = "flag", "count", "quantity"

# The principal ships of data/scoring.yaml (definitions: principal_ships), by measure prefix.
PRINCIPALS = {"goeben": "Goeben", "breslau": "Breslau", "moltke": "Moltke"}
# The two sides of the scoring charts of data/scoring.yaml, by measure suffix.
SIDES = {"central": "Central Powers", "entente": "Entente"}


@dataclass(frozen=True)
class Measure:
    """A named scalar of one replicate: ``kind`` flag, count or quantity; ``units`` for the Dataset."""

    name: str
    kind: str
    units: str
    long_name: str


def _ship_measures(key: str, ship: str) -> list[Measure]:
    return [
        Measure(f"{key}_escaped", FLAG, "1", f"{ship} got away (into the Dardanelles, out to the Atlantic "
                                           "or home to a friendly port; data/scoring.yaml)"),
        Measure(f"{key}_dardanelles", FLAG, "1", f"{ship} entered the Dardanelles"),
        Measure(f"{key}_arrival_h", QUANTITY, "h", f"when {ship} got away, hours after the scenario's start "
                                                   "(NaN if she did not)"),
        Measure(f"{key}_coal_t", QUANTITY, "t", f"{ship}'s coal when she got away (NaN if she did not)"),
        Measure(f"{key}_coal_fraction", QUANTITY, "1", f"{ship}'s coal when she got away, over her bunkers"),
        Measure(f"{key}_in_action", FLAG, "1", f"{ship} was brought to action (in a battle)"),
        Measure(f"{key}_battles", COUNT, "1", f"battles {ship} fought"),
        Measure(f"hits_on_{key}", COUNT, "1", f"hits {ship} took"),
        Measure(f"{key}_sunk", FLAG, "1", f"{ship} sunk (or considered sunk at the end)"),
        Measure(f"contacts_{key}", COUNT, "1", f"new enemy contacts on {ship} (sightings from nothing)"),
    ]


# Each principal ship's measures, by her measures' prefix (a key of PRINCIPALS).
_BY_SHIP: Mapping[str, list[Measure]] = {key: _ship_measures(key, ship) for key, ship in PRINCIPALS.items()}

MEASURES: tuple[Measure, ...] = (
    *(m for ms in _BY_SHIP.values() for m in ms),
    Measure("battles", COUNT, "1", "battles fought"),
    Measure("hits", COUNT, "1", "hits on any ship"),
    Measure("ships_sunk", COUNT, "1", "ships sunk (or considered sunk at the end), as the score counts them"),
    Measure("ships_sunk_central", COUNT, "1", "Central Powers ships sunk (or considered sunk at the end)"),
    Measure("ships_sunk_entente", COUNT, "1", "Entente ships sunk (or considered sunk at the end)"),
    Measure("out_of_coal_central", COUNT, "1", "Central Powers ships that ran out of coal (each once)"),
    Measure("out_of_coal_entente", COUNT, "1", "Entente ships that ran out of coal (each once)"),
    Measure("divisions_delivered", QUANTITY, "1", "divisions of the French 19th Corps at Toulon by the "
                                                  "deadline (seed 000)"),
    Measure("divisions_delivered_all", QUANTITY, "1", "divisions of the 19th Corps at Toulon by the end"),
    Measure("towns_shelled", COUNT, "1", "towns shelled (each shelling once)"),
    Measure("german_coal_colliers_t", QUANTITY, "t", "coal the German warships took from colliers"),
    Measure("german_coal_neutral_ports_t", QUANTITY, "t", "coal the German warships took in neutral ports"),
    Measure("points_central", QUANTITY, "1", "Central Powers' points under the scenario's scoring "
                                             "(stand-in charts; NaN without scoring)"),
    Measure("points_entente", QUANTITY, "1", "Entente points under the scenario's scoring"),
    Measure("central_wins", FLAG, "1", "the Central Powers win on points (0: the Entente wins or a draw; "
                                       "NaN without scoring)"),
    Measure("events", COUNT, "1", "records the run wrote (its cost)"),
)
MEASURE_NAMES: tuple[str, ...] = tuple(m.name for m in MEASURES)
# Each principal ship's measures, by name -> her measures' prefix (a key of PRINCIPALS): all NaN in a
# run she is not in, and her ``{key}_escaped`` (0 or 1 when she is) tells which.
SHIP_MEASURES: Mapping[str, str] = {m.name: key for key, ms in _BY_SHIP.items() for m in ms}
# What a run cost rather than what happened in it: left out where runs are compared by their outcomes.
COST_MEASURES: tuple[str, ...] = ("events",)
BY_NAME: Mapping[str, Measure] = {m.name: m for m in MEASURES}
NAN = math.nan


def _hours_after(when: Any, start: Any) -> float:
    if not when or not start:
        return NAN
    return (parse_utc(str(when)) - parse_utc(str(start))).total_seconds() / 3600.0


def _num(x: Any) -> float:
    return NAN if x is None else float(x)


def flatten(events: Iterable[Mapping[str, Any]], meta: Mapping[str, Any]) -> dict[str, float]:
    """The measures of one run (its records as JSON objects, its meta) by name, in ``MEASURE_NAMES``
    order, each a float (NaN where it does not exist)."""
    events = list(events)
    facts = facts_of(events)  # one reading of the records for the measures and the score
    m = measures(events, meta, facts=facts)
    out: dict[str, float] = {}
    for key, ship in PRINCIPALS.items():
        s = m["ships"].get(ship)
        if s is None:
            out.update({m.name: NAN for m in _BY_SHIP[key]})
            continue
        escaped = bool(s["escaped"])
        out[f"{key}_escaped"] = float(escaped)
        out[f"{key}_dardanelles"] = float(escaped and s.get("how") == HOW_WORDS["dardanelles"])
        out[f"{key}_arrival_h"] = _hours_after(s.get("at"), meta.get("start")) if escaped else NAN
        out[f"{key}_coal_t"] = _num(s.get("coal_t")) if escaped else NAN
        out[f"{key}_coal_fraction"] = _num(s.get("coal_fraction")) if escaped else NAN
        out[f"{key}_in_action"] = float(bool(s["brought_to_action"]))
        out[f"{key}_battles"] = float(len(s["actions"]))
        out[f"hits_on_{key}"] = float(s["hits_taken"])
        out[f"{key}_sunk"] = float(s.get("sunk") is not None)  # sunk, or considered sunk at the end
        out[f"contacts_{key}"] = float(m["contacts"][ship]["contacts"])
    out["battles"] = float(len({e.get("battle") for e in events
                                if e.get("type") == "engagement_start" and e.get("battle") is not None}))
    out["hits"] = float(sum(m["hits"].values()))
    sunk = m["sunk"]
    out["ships_sunk"] = float(sunk["count"])
    for key, side in SIDES.items():
        out[f"ships_sunk_{key}"] = float(len(sunk["by_side"].get(side, [])))
        out[f"out_of_coal_{key}"] = float(len(m["out_of_coal"]["by_side"].get(side, [])))
    out["divisions_delivered"] = float(m["troops"]["delivered_by_deadline"])
    out["divisions_delivered_all"] = float(m["troops"]["delivered_in_all"])
    out["towns_shelled"] = float(len(m["towns_shelled"]))
    coal = m["coal"]["totals"] if "Germany" in m["coal"]["nations"] else {}
    out["german_coal_colliers_t"] = float(coal.get("from_colliers_t", 0.0))
    out["german_coal_neutral_ports_t"] = float(coal.get("in_neutral_ports_t", 0.0))
    sc = score(events, meta, facts=facts)
    for key, side in SIDES.items():
        total = ((sc or {}).get("sides") or {}).get(side, {}).get("total")
        out[f"points_{key}"] = _num(total)
    decided = sc is not None and all(v.get("total") is not None for v in sc["sides"].values())
    out["central_wins"] = float(sc["winner"] == SIDES["central"]) if decided else NAN
    out["events"] = float(len(events))
    return {name: out[name] for name in MEASURE_NAMES}


def as_row(values: Mapping[str, float]) -> np.ndarray:
    """The measures in ``MEASURE_NAMES`` order, as float64."""
    return np.array([values[n] for n in MEASURE_NAMES], dtype=np.float64)
