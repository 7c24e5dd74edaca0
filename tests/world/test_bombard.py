"""Bombardment: a force off an enemy town shells it (seed 000, 'Shelling a Town'), and only at war."""

from __future__ import annotations

from pathlib import Path

import pytest

from campaign.geo.earth import YD_PER_NM, distance_nm
from campaign.geo.places import default_places
from campaign.output.replay_events import sentence
from campaign.runner import RunResult, run
from campaign.scenario.loader import ScenarioError, load_scenario
from campaign.world.rules import default_rules
from campaign.world.units import STATUSES
from tests.conftest import scenario_dict
from tests.world.helpers import records

START, END = "1914-08-04T00:00Z", "1914-08-04T08:00Z"
# Germany declared war on France on 3 August 1914 (Muzhenikov, 'Lineynye kreysera Germanii': the notice to
# Souchon, date only); 18:45 CET is the scenario's STAND-IN evening hour (scenarios/goeben_1914.yaml,
# war_germany_france). The bombardments of Philippeville and Bone came at first light on the 4th.
WAR_ON_FRANCE = [{"at": "1914-08-03T17:45Z", "war": ["Germany", "France"]}]
NO_WAR_ON_FRANCE = [{"at": "1914-08-03T17:45Z", "war": ["United Kingdom", "Germany"]}]

# Goeben lies off Philippeville from the start; she shells from 02:00 until 04:25, then steams north.
GOEBEN = {"name": "Goeben", "side": "Central Powers", "ships": ["Goeben"], "start": "Philippeville",
          "orders": [{"do": "bombard", "town": "Philippeville", "until": "1914-08-04T04:25Z",
                      "at": "1914-08-04T02:00Z", "note": "bombard Philippeville at first light"},
                     {"do": "sail", "to": {"lat": 37.6, "lon": 7.0}, "speed": 16}]}
# Breslau, with a collier in company, lies 20 nm north of Bone: she must come off the town first, then
# shells it for an hour.
BRESLAU = {"name": "Division", "side": "Central Powers", "ships": ["Breslau", "Bogadir"],
           "start": {"lat": 37.30, "lon": 7.78},
           "orders": [{"do": "bombard", "town": "Bône", "hours": 1, "note": "bombard Bone"}]}


def scenario(politics: list) -> dict:
    return scenario_dict([GOEBEN, BRESLAU], start=START, end=END, politics=politics)


def _run(path: Path, seed: int = 0) -> RunResult:
    return run(load_scenario(path), seed=seed)


@pytest.fixture(scope="module")
def at_war(tmp_path_factory: pytest.TempPathFactory) -> RunResult:
    import yaml

    path = tmp_path_factory.mktemp("bombard") / "war.yaml"
    path.write_text(yaml.safe_dump(scenario(WAR_ON_FRANCE), sort_keys=False))
    return _run(path)


@pytest.fixture(scope="module")
def at_peace(tmp_path_factory: pytest.TempPathFactory) -> RunResult:
    import yaml

    path = tmp_path_factory.mktemp("bombard") / "peace.yaml"
    path.write_text(yaml.safe_dump(scenario(NO_WAR_ON_FRANCE), sort_keys=False))
    return _run(path)


def test_the_range_is_the_stand_in_of_the_rules_file() -> None:
    # 16,000 yd (data/strategic_rules.yaml, bombardment.range_yd) in nautical miles.
    assert default_rules().bombard_range_nm == pytest.approx(16000 / YD_PER_NM)
    assert default_rules().bombard_range_nm == pytest.approx(7.90, abs=0.01)


def test_a_force_off_the_town_shells_it_at_the_ordered_time_and_place(at_war: RunResult) -> None:
    town = default_places().get("Philippeville")
    (shell,) = records(at_war, "Goeben", "shelling")
    assert shell["t"] == "1914-08-04T02:00:00Z"
    assert shell["force"] == "Goeben" and shell["side"] == "Central Powers"
    assert shell["town"] == "Philippeville" and shell["town_nation"] == "France"
    assert shell["ships"] == ["Goeben"]
    assert shell["until"] == "1914-08-04T04:25:00Z"
    assert shell["note"] == "bombard Philippeville at first light"
    assert shell["status"] == "shelling"
    # She lies at the town's anchorage, within gun range of the town.
    assert (shell["lat"], shell["lon"]) == pytest.approx(town.anchorage, abs=1e-6)
    d = distance_nm(shell["lat"], shell["lon"], town.lat, town.lon)
    assert d <= default_rules().bombard_range_nm and shell["range_nm"] == pytest.approx(d, abs=0.01)
    (end,) = records(at_war, "Goeben", "shelling_end")
    assert end["t"] == "1914-08-04T04:25:00Z" and end["reason"] == "time" and end["duration_min"] == 145.0
    assert end["status"] == "waiting"
    # Then she takes her next order.
    (dep,) = records(at_war, "Goeben", "depart")
    assert dep["t_min"] == end["t_min"]


def test_shelling_burns_coal_as_lying_stopped_at_sea_does(at_war: RunResult) -> None:
    (shell,) = records(at_war, "Goeben", "shelling")
    (end,) = records(at_war, "Goeben", "shelling_end")
    (start,) = records(at_war, "Goeben", "start")
    assert shell["coal_rate_t_per_h"] == start["coal_rate_t_per_h"] < 0
    assert end["coal_t"] == pytest.approx(shell["coal_t"] + shell["coal_rate_t_per_h"] * 145.0 / 60.0, abs=0.02)


def test_a_force_farther_off_comes_in_first_and_only_its_armed_ships_shell(at_war: RunResult) -> None:
    town = default_places().get("Bône")
    (dep,) = records(at_war, "Breslau", "depart")
    assert dep["t_min"] == 0.0 and dep["to"] == "Bône" and dep["order"] == "bombard Bône"
    (arr,) = records(at_war, "Breslau", "arrive")
    shells = records(at_war, type_="shelling")
    breslau = [r for r in shells if r["force"] == "Division"]
    # One record per ship that shells: the collier has no guns.
    assert [r["unit"] for r in breslau] == ["Breslau"]
    (shell,) = breslau
    assert shell["t_min"] == arr["t_min"] and shell["ships"] == ["Breslau"] and shell["town_nation"] == "France"
    assert distance_nm(shell["lat"], shell["lon"], town.lat, town.lon) <= default_rules().bombard_range_nm
    assert not records(at_war, "Bogadir", "shelling")
    # An hour of it, from when it began.
    (end,) = records(at_war, "Breslau", "shelling_end")
    assert end["t_min"] == pytest.approx(shell["t_min"] + 60.0) and end["reason"] == "time"


def test_the_tracks_show_the_shelling(at_war: RunResult) -> None:
    tracks = at_war.tracks
    at_3 = tracks.sel(time="1914-08-04T03:00:00", unit="Goeben")
    assert STATUSES[int(at_3["status"])] == "shelling"
    assert "shelling" in tracks["status"].attrs["flag_meanings"].split()
    at_5 = tracks.sel(time="1914-08-04T05:00:00", unit="Goeben")
    assert STATUSES[int(at_5["status"])] == "underway"


def test_not_at_war_with_the_towns_nation_the_force_lies_off_without_shelling(at_peace: RunResult) -> None:
    assert not records(at_peace, type_="shelling") and not records(at_peace, type_="shelling_end")
    (held,) = records(at_peace, "Goeben", "shelling_withheld")
    assert held["t"] == "1914-08-04T02:00:00Z" and held["reason"] == "not at war with France"
    assert held["town"] == "Philippeville" and held["town_nation"] == "France"
    # Not at war, France's port is open to her: she lies in it.
    assert held["until"] == "1914-08-04T04:25:00Z" and held["status"] == "in_port"
    # It waits out the time there, then takes its next order.
    (dep,) = records(at_peace, "Goeben", "depart")
    assert dep["t"] == "1914-08-04T04:25:00Z"
    # Every ship of a force that may not shell says so (the collier too: it is the force's order).
    assert {r["unit"] for r in records(at_peace, type_="shelling_withheld")} == {"Goeben", "Breslau", "Bogadir"}


def test_the_next_orders_time_ends_the_shelling(write_scenario) -> None:
    goeben = dict(GOEBEN, orders=[GOEBEN["orders"][0],
                                  dict(GOEBEN["orders"][1], at="1914-08-04T03:00Z")])
    res = _run(write_scenario(scenario_dict([goeben], start=START, end=END, politics=WAR_ON_FRANCE)))
    (end,) = records(res, "Goeben", "shelling_end")
    assert end["t"] == "1914-08-04T03:00:00Z" and end["reason"] == "next order" and end["duration_min"] == 60.0


def test_the_same_seed_gives_the_same_shelling(write_scenario, at_war: RunResult) -> None:
    again = _run(write_scenario(scenario(WAR_ON_FRANCE)))
    assert again.events == at_war.events


def test_the_replay_says_what_happened(at_war: RunResult, at_peace: RunResult) -> None:
    (shell,) = records(at_war, "Goeben", "shelling")
    assert sentence(shell) == "Goeben shells Philippeville (France) from 0.8 nm until 04:25"
    (end,) = records(at_war, "Goeben", "shelling_end")
    assert sentence(end) == "Goeben ceases shelling Philippeville after 2 h 25 min (time up)"
    (held,) = records(at_peace, "Goeben", "shelling_withheld")
    assert sentence(held) == "Goeben lies off Philippeville without shelling it: not at war with France"


@pytest.mark.parametrize(("order", "field", "fault"), [
    ({"do": "bombard", "town": "Atlantis", "until": "1914-08-04T04:25Z"}, "forces[0] (Goeben).orders[0].town",
     "Atlantis"),
    ({"do": "bombard", "town": "Off Pantelleria", "until": "1914-08-04T04:25Z"}, "forces[0] (Goeben).orders[0].town",
     "not a town"),
    ({"do": "bombard", "town": "Philippeville"}, "forces[0] (Goeben).orders[0]", "until"),
    ({"do": "bombard", "town": "Philippeville", "until": "1914-08-09T04:25Z"}, "forces[0] (Goeben).orders[0].until",
     "outside the scenario"),
])
def test_a_bad_bombard_order_is_refused_naming_its_field(write_scenario, order, field, fault) -> None:
    content = scenario_dict([dict(GOEBEN, orders=[order])], start=START, end=END, politics=WAR_ON_FRANCE)
    with pytest.raises(ScenarioError) as exc:
        load_scenario(write_scenario(content))
    faults = {f.field: f.fault for f in exc.value.faults}
    assert field in faults, faults
    assert fault in faults[field]


def test_a_battle_stops_the_shelling_and_it_goes_on_after(write_scenario, monkeypatch) -> None:
    from campaign.world import engagement
    from tests.tactics.test_battle import _Engine

    monkeypatch.setattr(engagement, "get_engine", lambda name, damage=None: _Engine({"Goeben": 10.0}, gun_range_yd=8000,
                                                                       damage=0.05))
    goeben = dict(GOEBEN, orders=[dict(GOEBEN["orders"][0], until="1914-08-04T06:25Z")])
    chatham = {"name": "Chatham", "side": "Entente", "ships": ["Chatham"], "start": {"lat": 37.3, "lon": 6.9},
               "orders": [{"do": "sail", "to": {"lat": 36.95, "lon": 6.95}, "speed": 12, "at": "1914-08-04T02:00Z"}]}
    content = scenario_dict([goeben, chatham], start=START, end=END,
                            politics=WAR_ON_FRANCE + [{"at": "1914-08-03T17:45Z", "war": ["Germany", "United Kingdom"]}],
                            command={"standing": {"Chatham": {"on_contact": "engage", "may_fire": True}}})
    res = _run(write_scenario(content))
    battles = records(res, "Goeben", "engagement_start")
    afters = records(res, "Goeben", "engagement_end")
    ends = records(res, "Goeben", "shelling_end")
    shells = records(res, "Goeben", "shelling")
    assert battles and len(afters) == len(battles)
    # Each battle stops the shelling at its start; after it she takes up her order again, a new shelling
    # of the town, until the order's time.
    assert [e["t_min"] for e in ends[:-1]] == [b["t_min"] for b in battles]
    assert all(e["reason"] == "in action" and e["status"] != "shelling" for e in ends[:-1])
    assert [s["t_min"] for s in shells[1:]] == [a["t_min"] for a in afters]
    assert ends[-1]["t"] == "1914-08-04T06:25:00Z" and ends[-1]["reason"] == "time"
