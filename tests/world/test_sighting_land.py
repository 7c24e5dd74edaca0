"""No sighting across land: the land between two forces hides each from the other (campaign/world/
sighting.py, campaign/geo/sightline.py), checked on the records by the audit of lines of sight
(campaign/output/sightline_audit.py)."""

from __future__ import annotations

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from campaign.geo.land import default_land
from campaign.output.sightline_audit import audit_sightlines
from campaign.runner import run
from campaign.scenario.loader import load_scenario
from tests.conftest import scenario_dict

START, END = "1914-08-11T05:00Z", "1914-08-11T13:00Z"  # a summer morning: the longest ranges


def _run(write_scenario, forces):
    return run(load_scenario(write_scenario(scenario_dict(forces, start=START, end=END))), seed=0)


def _sightings(result, observer=None):
    return [e for e in result.events if e["type"] == "sighting" and observer in (None, e["observer"])]


def test_weymouth_off_the_gallipoli_shore_does_not_see_goeben_at_chanak(write_scenario) -> None:
    # 8 nm apart by day, well within Goeben's smoke range, but with 5.5 nm of the peninsula between.
    r = _run(write_scenario, [
        {"name": "Goeben", "side": "Central Powers", "ships": ["Goeben"], "start": "Chanak narrows",
         "orders": [{"do": "stop"}]},
        {"name": "Weymouth", "side": "Entente", "ships": ["Weymouth"], "start": {"lat": 40.20, "lon": 26.22},
         "orders": [{"do": "stop"}]},
    ])
    assert _sightings(r) == []


def test_a_cruiser_rounding_cape_helles_sees_up_the_strait_only_once_it_opens(write_scenario) -> None:
    # Weymouth steams from off Gaba Tepe round Cape Helles to the entrance: Goeben, lying in the lower
    # strait, is hidden by the peninsula (9.5 nm, within her smoke's reach) until the strait opens, then
    # seen; every sighting's line is clear.
    r = _run(write_scenario, [
        {"name": "Goeben", "side": "Central Powers", "ships": ["Goeben"], "start": {"lat": 40.09, "lon": 26.33},
         "orders": [{"do": "stop"}]},
        {"name": "Weymouth", "side": "Entente", "ships": ["Weymouth"], "start": {"lat": 40.20, "lon": 26.18},
         "orders": [{"do": "sail", "to": "Dardanelles entrance", "speed": 10}]},
    ])
    seen = _sightings(r, "Weymouth")
    assert seen, "seen up the strait from its entrance"
    assert audit_sightlines(r.events) == []
    arrive = next(e for e in r.events if e["type"] == "arrive" and e["unit"] == "Weymouth")
    assert seen[0]["t_min"] > arrive["t_min"] - 60.0  # not from off Gaba Tepe, across the peninsula


AREAS = {"Dardanelles": ((39.85, 40.45), (25.85, 26.75)), "Strait of Messina": ((37.8, 38.5), (15.2, 15.9))}


@settings(max_examples=16, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(area=st.sampled_from(sorted(AREAS)), a=st.tuples(st.floats(0, 1), st.floats(0, 1)),
       a_to=st.tuples(st.floats(0, 1), st.floats(0, 1)), b=st.tuples(st.floats(0, 1), st.floats(0, 1)),
       b_to=st.tuples(st.floats(0, 1), st.floats(0, 1)), b_moves=st.booleans())
@example(area="Dardanelles", a=(0.58, 0.41), a_to=(0.3, 0.4), b=(0.5, 0.6), b_to=(0.5, 0.6), b_moves=False)
def test_no_sighting_crosses_land(write_scenario, area, a, a_to, b, b_to, b_moves) -> None:
    (la0, la1), (lo0, lo1) = AREAS[area]

    def at(u):
        return {"lat": la0 + u[0] * (la1 - la0), "lon": lo0 + u[1] * (lo1 - lo0)}

    land = default_land()
    if any(land.is_land(p["lat"], p["lon"]) for p in (at(a), at(b), at(a_to), at(b_to))):
        return
    r = _run(write_scenario, [
        {"name": "Weymouth", "side": "Entente", "ships": ["Weymouth"], "start": at(a),
         "orders": [{"do": "sail", "to": at(a_to), "speed": 12}]},
        {"name": "Goeben", "side": "Central Powers", "ships": ["Goeben"], "start": at(b),
         "orders": [{"do": "sail", "to": at(b_to), "speed": 10}] if b_moves else [{"do": "stop"}]},
    ])
    assert audit_sightlines(r.events) == []
