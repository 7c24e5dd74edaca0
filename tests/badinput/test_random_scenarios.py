"""Scenarios drawn at random within the schema either run to their end or are refused cleanly (a
ScenarioError naming the file): never a crash in the middle of a run, never a number that is not finite
in what a run writes."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from campaign.output.files import jsonl_bytes
from campaign.runner import run
from campaign.scenario.loader import ScenarioError, load_scenario
from tests.conftest import SIDES

# Ships of both sides with a port each near the others, so that short runs can meet.
POOL = [("Goeben", "Central Powers", "Messina"), ("Breslau", "Central Powers", "Messina"),
        ("Gloucester", "Entente", "Valletta"), ("Dublin", "Entente", "Valletta"),
        ("Indomitable", "Entente", "Bizerta"), ("Bogadir", "Central Powers", "Messina")]
CAPACITY = {"Goeben": 3100, "Breslau": 1200, "Gloucester": 1353, "Dublin": 1353, "Indomitable": 3083,
            "Bogadir": 300}
PLACES = ["Messina", "Valletta", "Bizerta", "Cape Bon", "Cape Passero", {"lat": 37.0, "lon": 13.0},
          {"lat": 36.5, "lon": 15.5}, {"lat": 38.5, "lon": 12.0}]

speeds = st.one_of(st.floats(min_value=0.5, max_value=40.0), st.sampled_from(["design", "sustained", "economical"]))


def iso(t: datetime) -> str:
    return t.strftime("%Y-%m-%dT%H:%MZ")


@st.composite
def scenarios(draw) -> dict:
    start = datetime(1914, 8, 2, tzinfo=UTC) + timedelta(hours=draw(st.integers(0, 24 * 10)))
    hours = draw(st.integers(6, 48))
    chosen = draw(st.lists(st.sampled_from(POOL), min_size=2, max_size=4, unique_by=lambda x: x[0]))
    forces = []
    for ship, side, port in chosen:
        orders = []
        for _ in range(draw(st.integers(0, 3))):
            kind = draw(st.sampled_from(["sail", "sail", "wait", "coal", "stop"]))
            at = iso(start + timedelta(minutes=draw(st.integers(0, hours * 60))))
            if kind == "sail":
                orders.append({"do": "sail", "to": draw(st.sampled_from(PLACES)), "speed": draw(speeds)})
            elif kind == "wait":
                orders.append({"do": "wait", "until": at})
            elif kind == "coal":
                orders.append({"do": "coal", "hours": draw(st.floats(0.1, 12))})
            else:
                orders.append({"do": "stop", "at": at})
        force = {"name": ship, "side": side, "ships": [ship], "start": port, "orders": orders,
                 "coal_t": draw(st.floats(0, CAPACITY[ship]))}
        forces.append(force)
    standing = {f["name"]: {"on_contact": draw(st.sampled_from(["report", "shadow", "chase", "evade", "engage"])),
                            "may_fire": draw(st.booleans())} for f in forces}
    return {"name": "drawn", "start": iso(start), "end": iso(start + timedelta(hours=hours)), "sides": SIDES,
            "politics": [{"at": iso(start), "war": ["Germany", "France"]},
                         {"at": iso(start), "war": ["Germany", "United Kingdom"]}],
            "command": {"standing": standing}, "forces": forces,
            "tactics": {"engine": draw(st.sampled_from(["nwc1905", "jane", "board"]))},
            "factors": {"sighting_range": draw(st.floats(0.2, 3.0)), "telegraph_delay": draw(st.floats(0.2, 3.0))}}


def _written(tmp_path, doc: dict):
    path = tmp_path / "drawn.yaml"
    path.write_text(yaml.safe_dump(doc, sort_keys=False))
    return path


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(doc=scenarios())
def test_a_scenario_valid_by_the_schema_loads_or_is_refused_cleanly(tmp_path, doc) -> None:
    path = _written(tmp_path, doc)
    try:
        load_scenario(path)
    except ScenarioError as exc:
        assert str(exc).startswith(str(path)) and exc.faults


# A ship run out of coal at sea (coal_t: 0 is a state the schema allows) still crashes the world's sighting
# model (campaign/world/contacts.py 'gone' on an empty force): the world's own part of issue 43 mends it,
# and this marker goes with it (strict: the test fails here once the world survives).
@pytest.mark.xfail(strict=True, raises=ValueError, reason="issue 43: the world does not yet survive a force "
                                                           "with no ship left steaming")
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                 HealthCheck.too_slow])
@given(doc=scenarios(), seed=st.integers(0, 2**63 - 1))
def test_a_scenario_valid_by_the_schema_runs_to_its_end_or_is_refused_cleanly(tmp_path, doc, seed) -> None:
    path = _written(tmp_path, doc)
    try:
        sc = load_scenario(path)
    except ScenarioError as exc:
        assert str(exc).startswith(str(path)) and exc.faults
        return
    result = run(sc, seed=seed)
    ends = [e for e in result.events if e["type"] == "end"]
    assert len(ends) == len({sh.name for f in sc.forces for sh in f.ships})  # every ship's account closed
    assert ends[0]["t"].startswith(doc["end"][:13])
    jsonl_bytes(result.events)  # strict JSON: every number finite
    json.dumps(result.summary, allow_nan=False)
