"""Files that use every field of their schema, valid as they stand: the corpus of bad input spoils them
one field at a time (tests/badinput/)."""

from __future__ import annotations

import copy
from typing import Any

from tests.conftest import SIDES

T0 = "1914-08-02T00:00Z"

# Every field of a scenario file (campaign/scenario/schema.py), each order and political kind once.
SCENARIO: dict[str, Any] = {
    "name": "full_scenario",
    "title": "every field",
    "description": "a scenario that uses every field of the schema",
    "start": T0,
    "end": "1914-08-03T00:00Z",
    "seed": 7,
    "local_time": {"name": "CET", "offset_h": 1, "note": "UTC+1"},
    "sides": {k: dict(v, note="a side") for k, v in SIDES.items()},
    "neutral_notices": [{"port": "Messina", "nation": "Germany", "at": "1914-08-02T06:00Z", "note": "notice"}],
    "politics": [
        {"id": "war", "at": T0, "war": ["Germany", "France"], "note": "war"},
        {"id": "peace", "at": "1914-08-02T23:00Z", "peace": ["Germany", "France"]},
        {"id": "fire", "at": T0, "fire": {"by": "Germany", "target": "France"}},
        {"id": "hold", "at": "1914-08-02T22:00Z", "hold_fire": {"by": "Germany", "target": "France"}},
        {"id": "belt", "at": T0, "keep_out": {"who": ["United Kingdom"], "sovereign": "Italy", "width_nm": 6}},
        {"id": "belt_open", "at": "1914-08-02T21:00Z", "allow_in": {"who": ["United Kingdom"], "sovereign": "Italy"}},
        {"id": "straits", "at": T0, "permit": {"who": ["Germany"], "what": "enter_dardanelles"}},
        {"id": "no_straits", "at": "1914-08-02T20:00Z", "forbid": {"who": ["Germany"], "what": "enter_dardanelles"}},
        {"id": "convoys", "at": T0, "fire_on_attack": {"by": "United Kingdom", "target": "Germany",
                                                       "protecting": "France", "ship_types": ["transport"]}},
    ],
    "weather": {"script_file": "weather_1914.yaml",
                "script": [{"start": "1914-08-02T12:00Z", "end": "1914-08-02T18:00Z", "state": 2}]},
    "command": {
        "headquarters": [
            {"name": "Admiralty", "side": "Entente", "nation": "United Kingdom", "station": "London",
             "relay_to": ["Gloucester"], "note": "London"},
            {"name": "Consul", "side": "Entente", "nation": "United Kingdom", "station": "Chanak",
             "superior": "Admiralty", "overlooks": ["Chanak narrows"]},
            {"name": "Souchon", "side": "Central Powers", "nation": "Germany", "aboard": "Goeben"},
        ],
        "standing": {"Gloucester": {
            "on_contact": "shadow", "mission": "patrol", "report_to": "Admiralty",
            "patrol": ["Valletta", {"lat": 36.0, "lon": 15.5, "name": "east of Malta"}], "guard": "Valletta",
            "intercept": "Goeben", "escort": "Goeben", "base": "Valletta", "station": ["Valletta"],
            "coal_low": 0.3, "report_every_h": 2, "resume_after_h": 3, "may_fire": False,
            "fire_on": {"Germany": False}, "jam": False, "avoid_superior": True, "note": "shadow"},
            "Goeben": {"mission": "plan", "plan": "souchon", "objective": "Constantinople",
                       "may_enter": ["Dardanelles"]}},
    },
    "tactics": {"engine": "nwc1905", "damage": "own"},
    "messages": [{"id": "orders", "at": "1914-08-02T06:00Z", "from": "Admiralty", "to": ["Gloucester"],
                  "text": "Watch Messina.", "orders_for": ["Gloucester"],
                  "orders": [{"do": "sail", "to": "Valletta"}], "standing": {"on_contact": "shadow"},
                  "note": "a message"}],
    "forces": [
        {"name": "Goeben", "side": "Central Powers", "nation": "Germany", "ships": ["Goeben", "Breslau"],
         "start": "Messina", "coal_t": {"Goeben": 2000, "Breslau": 900},
         "avoid_waters": [{"sovereign": "Italy", "width_nm": 6, "note": "neutral"}], "note": "Souchon",
         "orders": [
             {"do": "coal", "until": "full", "max_t": 100, "hours": 1, "at": "1914-08-02T00:00Z", "note": "coal"},
             {"do": "sail", "to": {"lat": 37.2, "lon": 17.0, "name": "south of Calabria"}, "speed": 16,
              "via": [{"lat": 37.5, "lon": 16.8}], "at": "1914-08-02T02:00Z", "until": "1914-08-02T06:00Z", "note": "out"},
             {"do": "detach", "name": "Breslau", "ships": ["Breslau"], "at": "1914-08-02T06:00Z", "note": "detach",
              "orders": [{"do": "sail", "to": "Bone", "speed": "sustained"},
                         {"do": "bombard", "town": "Bone", "until": "1914-08-02T20:00Z", "hours": 1,
                          "at": "1914-08-02T15:00Z", "note": "shell"}]},
             {"do": "wait", "until": "1914-08-02T08:00Z", "at": "1914-08-02T07:00Z", "note": "wait"},
             {"do": "coal_from_collier", "collier": "Collier", "until": "full", "max_t": 100, "hours": 2,
              "at": "1914-08-02T09:00Z", "note": "coal"},
             {"do": "stop", "at": "1914-08-02T12:00Z", "note": "stop"},
         ]},
        {"name": "Collier", "side": "Central Powers", "ships": ["General"], "start": "Messina",
         "coal_t": 300, "cargo_t": 500},
        {"name": "Gloucester", "side": "Entente", "ships": ["Gloucester"], "start": "Valletta",
         "enters": "1914-08-02T01:00Z"},
    ],
    "sources": ["a source"],
    "ship_changes": {"Goeben": {"speed_kn": {"design": 27, "sustained": 24, "economical": 12},
                                "coal_capacity_t": 3100, "consumption_factor": 1.5, "note": "why"}},
    "scoring": {"rules": "seed000"},
    "factors": {"sighting_range": 1.0, "telegraph_delay": 1.0, "note": "as sourced"},
}

# Every field of a what-if overlay (campaign/scenario/overlay.py).
OVERLAY: dict[str, Any] = {
    "variant": "faster", "base": "../full_scenario.yaml", "title": "Goeben faster",
    "summary": "Goeben steams faster.", "sources": ["a source"],
    "changes": {"ship_changes": {"Goeben": {"speed_kn": {"sustained": 25}, "note": "what if"}}},
}

# Every field of a duel file (campaign/duels/duel.py).
DUEL: dict[str, Any] = {
    "name": "full_duel", "title": "every field", "description": "a duel", "engine": "nwc1905", "damage": "own",
    "when": "1914-08-07T12:35Z", "where": {"lat": 36.3, "lon": 21.9},
    "weather": {"sea_state": 2, "visibility_nm": 10}, "range_yd": 11500,
    "sides": [{"name": "Germany", "ships": ["Breslau"], "intent": "engage", "course_deg": 110, "speed_kn": 20,
               "note": "a side"},
              {"name": "Britain", "ships": ["Gloucester"], "intent": "break_off", "bearing_deg": 290,
               "course_deg": 110, "speed_kn": 22, "preferred_range_yd": 10000}],
    "history": "an exchange", "sources": ["a source"],
    "record": {"kind": "fought", "text": "no loss", "source": "a book", "favoured": None, "sunk": []},
}

# Every field of a design file (campaign/batch/design.py), a grid and a hypercube.
GRID: dict[str, Any] = {"kind": "grid", "parameters": {
    "sighting_range_factor": {"low": 0.8, "high": 1.2, "levels": 2},
    "telegraph_delay_factor": {"values": [1.0, 2.0]}}}
LHS: dict[str, Any] = {"kind": "lhs", "points": 3, "seed": 1, "parameters": {
    "goeben_sustained_kn": {"low": 20, "high": 24}}}


def leaves(doc: Any, path: tuple = ()) -> list[tuple]:
    """Every path to a value in a document (keys and list indices), the mappings and lists too."""
    out = [path] if path else []
    if isinstance(doc, dict):
        for k, v in doc.items():
            out += leaves(v, path + (k,))
    elif isinstance(doc, list):
        for i, v in enumerate(doc):
            out += leaves(v, path + (i,))
    return out


def get(doc: Any, path: tuple) -> Any:
    for p in path:
        doc = doc[p]
    return doc


def spoiled(doc: Any, path: tuple, value: Any) -> Any:
    """A copy of ``doc`` with the value at ``path`` replaced."""
    out = copy.deepcopy(doc)
    get(out, path[:-1])[path[-1]] = value
    return out
