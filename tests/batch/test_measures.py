"""One replicate flattened: a fixed set of named measures, each what campaign/output/scoring.py says, NaN
where a run does not have it."""

from __future__ import annotations

import math

import pytest

from campaign.batch.measures import (
    BY_NAME,
    FLAG,
    MEASURE_NAMES,
    MEASURES,
    PRINCIPALS,
    SHIP_MEASURES,
    SIDES,
    as_row,
    flatten,
)
from campaign.batch.replicate import run_replicate
from campaign.model.victory_rules import default_scoring
from campaign.output.scoring import measures as scoring_measures
from campaign.output.scoring import score
from campaign.runner import run
from campaign.scenario.loader import load_scenario
from tests.conftest import scenario_dict


def test_names_are_unique_and_fixed() -> None:
    assert len(set(MEASURE_NAMES)) == len(MEASURE_NAMES) == len(MEASURES)
    assert all(m.kind in ("flag", "count", "quantity") for m in MEASURES)
    # Units in names: hours, tonnes.
    assert all(BY_NAME[n].units == "h" for n in MEASURE_NAMES if n.endswith("_h"))
    assert all(BY_NAME[n].units == "t" for n in MEASURE_NAMES if n.endswith("_t"))


def test_principal_ships_and_sides_are_those_of_the_scoring_data() -> None:
    data = default_scoring()
    assert list(PRINCIPALS.values()) == list(data.definitions.principal_ships)
    assert set(SIDES.values()) == {c.side for c in data.rules["seed000"].charts.values()}


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_small_run_flattens_to_what_scoring_says(small, seed) -> None:
    sc = load_scenario(small)
    values, result = run_replicate(sc, seed)
    assert list(values) == list(MEASURE_NAMES)
    events, meta = result.events, result.meta
    m, s = scoring_measures(events, meta), score(events, meta)
    g = m["ships"]["Goeben"]
    assert values["goeben_escaped"] == float(g["escaped"]) == 0.0
    assert math.isnan(values["goeben_arrival_h"]) and math.isnan(values["goeben_coal_t"])
    assert values["hits_on_goeben"] == g["hits_taken"]
    assert values["goeben_in_action"] == float(g["brought_to_action"]) == 1.0
    assert values["battles"] == len({e["battle"] for e in events if e["type"] == "engagement_start"})
    assert values["ships_sunk_entente"] == len(m["sunk"]["by_side"].get("Entente", []))
    assert values["points_entente"] == s["sides"]["Entente"]["total"]
    assert values["events"] == len(events)
    assert all(math.isnan(values[n]) for n in MEASURE_NAMES if n.startswith("breslau_") or n.endswith("_breslau"))
    assert all(math.isnan(values[n]) for n, key in SHIP_MEASURES.items() if key == "moltke")  # not in the run
    assert as_row(values).tolist()[MEASURE_NAMES.index("events")] == len(events)
    assert all(values[n] in (0.0, 1.0) or math.isnan(values[n]) for n in MEASURE_NAMES if BY_NAME[n].kind == FLAG)


def test_an_escape_into_the_dardanelles_gives_arrival_hours_and_coal(write_scenario) -> None:
    """Goeben, let into the Dardanelles, steams from its entrance to the Narrows."""
    content = scenario_dict(
        [{"name": "Goeben", "side": "Central Powers", "ships": ["Goeben"], "start": "Dardanelles entrance",
          "coal_t": 1000, "orders": [{"do": "sail", "to": "Chanak narrows", "speed": 10}]}],
        start="1914-08-10T00:00Z", end="1914-08-10T12:00Z",
        politics=[{"at": "1914-08-10T00:00Z", "permit": {"who": ["Germany"], "what": "enter_dardanelles"}}])
    result = run(load_scenario(write_scenario(content)), seed=0)
    values = flatten(result.events, result.meta)
    arrive = next(e for e in result.events if e["type"] == "arrive" and e.get("unit") == "Goeben")
    assert values["goeben_escaped"] == values["goeben_dardanelles"] == 1.0
    entered = scoring_measures(result.events, result.meta)["ships"]["Goeben"]
    hours = (int(entered["at"][11:13]) * 60 + int(entered["at"][14:16]) + int(entered["at"][17:19]) / 60) / 60
    assert values["goeben_arrival_h"] == pytest.approx(hours, abs=1e-9)
    assert 0 < values["goeben_arrival_h"] <= (int(arrive["t"][11:13]) + 1)
    assert values["goeben_coal_t"] == pytest.approx(entered["coal_t"]) and values["goeben_coal_t"] < 1000
    assert math.isnan(values["points_central"]) and math.isnan(values["central_wins"])  # no scoring


def test_moltke_is_followed_in_a_run_she_is_in(write_scenario) -> None:
    """Moltke, a principal ship in the what-ifs that bring her, comes in during the run and is let into
    the Dardanelles: her own measures, where Goeben's are NaN."""
    content = scenario_dict(
        [{"name": "Moltke", "side": "Central Powers", "ships": ["Moltke"], "start": "Dardanelles entrance",
          "enters": "1914-08-10T02:00Z", "coal_t": 1378, "orders": [{"do": "sail", "to": "Chanak narrows", "speed": 10}]}],
        start="1914-08-10T00:00Z", end="1914-08-10T12:00Z",
        politics=[{"at": "1914-08-10T00:00Z", "permit": {"who": ["Germany"], "what": "enter_dardanelles"}}])
    result = run(load_scenario(write_scenario(content)), seed=0)
    values = flatten(result.events, result.meta)
    assert values["moltke_escaped"] == values["moltke_dardanelles"] == 1.0 and values["moltke_sunk"] == 0.0
    assert 2.0 < values["moltke_arrival_h"] < 12.0 and values["moltke_coal_t"] < 1378
    assert all(math.isnan(values[n]) for n, key in SHIP_MEASURES.items() if key == "goeben")


def test_ships_out_of_coal_are_counted_by_side() -> None:
    from campaign.batch.measures import flatten

    def rec(t_min, type_, unit, side, **data):
        return {"t": f"1914-08-0{2 + int(t_min // 1440)}T09:00:00Z", "t_min": t_min, "type": type_, "unit": unit,
                "side": side, "force": unit, "lat": 36.0, "lon": 16.0, **data}

    events = [rec(0.0, "start", "Moltke", "Central Powers", status="waiting"),
              rec(0.0, "start", "Gloucester", "Entente", status="waiting"),
              rec(0.0, "start", "Dublin", "Entente", status="waiting"),
              rec(2000.0, "out_of_coal", "Moltke", "Central Powers", coal_t=0.0),
              rec(3000.0, "out_of_coal", "Gloucester", "Entente", coal_t=0.0),
              rec(4000.0, "out_of_coal", "Dublin", "Entente", coal_t=0.0),
              rec(5000.0, "out_of_coal", "Dublin", "Entente", coal_t=0.0)]
    values = flatten(events, {"start": "1914-08-02T09:00:00Z"})
    assert (values["out_of_coal_central"], values["out_of_coal_entente"]) == (1.0, 2.0)
