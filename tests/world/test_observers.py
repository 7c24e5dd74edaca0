"""Observers ashore: a consul overlooking a place telegraphs an enemy's arrival to his superior, who
passes it on; nothing is reported that did not arrive, nor a friend."""

from __future__ import annotations

import pytest

from campaign.scenario.loader import load_scenario
from campaign.world.conditions import ClearDay
from campaign.world.world import World
from tests.conftest import scenario_dict

ADMIRALTY = {"name": "Admiralty", "side": "Entente", "nation": "United Kingdom", "station": "London",
             "relay_to": ["Milne"]}
MILNE = {"name": "Milne", "side": "Entente", "nation": "United Kingdom", "aboard": "Inflexible",
         "superior": "Admiralty"}
CONSUL = {"name": "Consul Dardanelles", "side": "Entente", "nation": "United Kingdom", "station": "Chanak",
          "superior": "Admiralty", "overlooks": ["Chanak narrows"]}


def run(write_scenario, goeben_to: str, ship: str = "Goeben", side: str = "Central Powers"):
    content = scenario_dict([
        {"name": ship, "side": side, "ships": [ship], "start": "Dardanelles entrance",
         "orders": [{"do": "sail", "to": goeben_to, "speed": 10, "at": "1914-08-02T02:00Z"}]},
        {"name": "Inflexible", "side": "Entente", "ships": ["Inflexible"], "start": "Valletta",
         "orders": [{"do": "stop"}]},
    ], start="1914-08-02T00:00Z", end="1914-08-03T00:00Z")
    content["command"] = {"headquarters": [ADMIRALTY, MILNE, CONSUL]}
    world = World(load_scenario(write_scenario(content)), 0, conditions=ClearDay())
    world.run()
    return world


def test_the_consul_reports_goebens_arrival_and_milne_learns_it_through_the_admiralty(write_scenario) -> None:
    world = run(write_scenario, "Chanak narrows")
    arrive = next(r for r in world.rec.records if r.type == "arrive" and r.unit == "Goeben")
    sent = [r for r in world.rec.records if r.type == "message_sent" and r.data["sender"] == "Consul Dardanelles"]
    assert [(r.t_min, r.data["receiver"]) for r in sent] == [(arrive.t_min, "Admiralty")]
    assert "Goeben arrived at Chanak narrows" in sent[0].data["text"]
    pictures = [r for r in world.rec.records if r.type == "picture" and r.data["about"] == "Goeben"]
    by_node = {r.data["node"]: r for r in pictures}
    assert set(by_node) == {"Admiralty", "Milne"}
    milne = by_node["Milne"]
    assert milne.data["place"] == "Chanak narrows" and milne.data["level"] == "recognised"
    assert milne.data["seen"] == world.clock.iso(arrive.t_min)  # what the consul saw, when he saw it
    # The telegram and the Admiralty's copy take the telegraph's time: Milne learns it hours later.
    assert milne.t_min > by_node["Admiralty"].t_min > arrive.t_min + 60.0


@pytest.mark.parametrize("to, ship, side", [("Cape Helles", "Goeben", "Central Powers"),
                                            ("Chanak narrows", "Weymouth", "Entente")])
def test_nothing_is_reported_that_did_not_arrive_there_nor_a_friend(write_scenario, to, ship, side) -> None:
    world = run(write_scenario, to, ship, side)
    assert not [r for r in world.rec.records if r.type == "message_sent"
                and r.data["sender"] == "Consul Dardanelles"]
