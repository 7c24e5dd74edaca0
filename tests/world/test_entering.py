"""Forces that come into the theatre after the start (``enters``, seed 000 'What If?': "Moltke enters
western Med 1500 Aug. 4 (coal counter at 16)"): nothing of them is in the run before then."""

from __future__ import annotations

import pytest

from campaign.scenario.loader import load_scenario
from campaign.world.conditions import ClearDay
from campaign.world.world import World
from tests.conftest import scenario_dict

ENTERS = "1914-08-02T12:00Z"
ENTERS_MIN = 12 * 60.0
COAL_T = 1000.0
# Gloucester lies stopped 5 nm from where Breslau comes in, well within sight by day: she sees her
# from the moment she is there, and not before.
GLOUCESTER = {"name": "Gloucester", "side": "Entente", "ships": ["Gloucester"], "start": {"lat": 36.0, "lon": 16.0},
              "orders": [{"do": "stop"}]}
BRESLAU = {"name": "Breslau", "side": "Central Powers", "ships": ["Breslau"], "start": {"lat": 36.0, "lon": 16.1},
           "coal_t": COAL_T, "enters": ENTERS,
           "orders": [{"do": "sail", "to": {"lat": 36.0, "lon": 18.0}, "speed": 15}]}


def run_world(write_scenario, forces, **extra) -> World:
    content = scenario_dict(forces, start="1914-08-02T00:00Z", end="1914-08-03T00:00Z", **extra)
    world = World(load_scenario(write_scenario(content)), 0, conditions=ClearDay())
    world.run()
    return world


def about(world: World, name: str) -> list:
    """Every record of the force or its ship, or seen, heard or told by or about it."""
    return [r for r in world.rec.records
            if name in (r.unit, r.data.get("target"), r.data.get("node"), r.data.get("sender"), r.data.get("receiver"))]


def test_a_force_entering_later_is_absent_till_then_and_comes_with_its_coal(write_scenario) -> None:
    w = run_world(write_scenario, [GLOUCESTER, BRESLAU])
    seen = about(w, "Breslau")
    assert seen and min(r.t_min for r in seen) == pytest.approx(ENTERS_MIN)
    start = next(r for r in w.rec.records if r.type == "start" and r.unit == "Breslau")
    assert start.t_min == pytest.approx(ENTERS_MIN)
    # Her coal counts from her entry: none burnt while she was not there.
    assert start.data["coal_t"] == pytest.approx(COAL_T)
    depart = next(r for r in w.rec.records if r.type == "depart" and r.unit == "Breslau")
    assert depart.t_min == pytest.approx(ENTERS_MIN) and depart.data["coal_t"] == pytest.approx(COAL_T)
    # Gloucester, lying 5 nm off, sights her as she comes in, not before.
    sighted = [r for r in w.rec.records if r.type == "sighting" and r.unit == "Gloucester" and r.data["target"] == "Breslau"]
    assert sighted and sighted[0].t_min == pytest.approx(ENTERS_MIN)
    end = next(r for r in w.rec.records if r.type == "end" and r.unit == "Breslau")
    assert end.data["burnt_t"] == pytest.approx(COAL_T - end.data["coal_t"], abs=0.05)
    assert end.data["run_nm"] > 0.0


def test_the_same_force_there_from_the_start_burns_coal_while_it_waits(write_scenario) -> None:
    # The contrast the entry time makes: waiting at the same place from the start for the same hour
    # burns coal at her idle rate, so she would come in with less than her coal counter says.
    waiting = dict(BRESLAU, enters=None, orders=[{"do": "wait", "until": ENTERS}, *BRESLAU["orders"]])
    del waiting["enters"]
    w = run_world(write_scenario, [GLOUCESTER, waiting])
    depart = next(r for r in w.rec.records if r.type == "depart" and r.unit == "Breslau")
    assert depart.t_min == pytest.approx(ENTERS_MIN) and depart.data["coal_t"] < COAL_T - 1.0


def test_reports_to_a_force_not_yet_in_the_theatre_are_not_sent(write_scenario) -> None:
    # Goeben reports what she sees to Breslau, who comes in later: Gloucester, in sight from the start,
    # goes unreported (there is no one to send to); Dublin, coming up after Breslau is there, is reported.
    goeben = {"name": "Goeben", "side": "Central Powers", "ships": ["Goeben"], "start": {"lat": 36.0, "lon": 16.2},
              "orders": [{"do": "stop"}]}
    dublin = {"name": "Dublin", "side": "Entente", "ships": ["Dublin"], "start": {"lat": 36.0, "lon": 15.0},
              "orders": [{"do": "wait", "until": "1914-08-02T14:00Z"},
                         {"do": "sail", "to": {"lat": 36.0, "lon": 16.0}, "speed": 20}]}
    w = run_world(write_scenario, [GLOUCESTER, goeben, dublin, BRESLAU],
                  command={"standing": {"Goeben": {"on_contact": "report", "report_to": "Breslau"}}})
    first = next(r for r in w.rec.records if r.type == "sighting" and r.unit == "Goeben")
    assert first.t_min == 0.0 and first.data["target"] == "Gloucester"
    sent = [r for r in w.rec.records if r.type == "message_sent" and r.data["receiver"] == "Breslau"]
    assert sent, "Goeben never reported to Breslau once she was there"
    assert min(r.t_min for r in sent) > ENTERS_MIN
    assert any(r.type == "message_received" and r.data["receiver"] == "Breslau" for r in w.rec.records)


def test_a_headquarters_passes_nothing_on_to_a_force_not_yet_in_the_theatre(write_scenario) -> None:
    # Lorelei reports Gloucester at once to Souchon, in Goeben close by, who passes his reports on to
    # Breslau: she is not there yet, so that report goes no farther. Dublin, reported once Breslau is
    # there, is passed on to her.
    goeben = {"name": "Goeben", "side": "Central Powers", "ships": ["Goeben"], "start": {"lat": 36.0, "lon": 16.25},
              "orders": [{"do": "stop"}]}
    lorelei = {"name": "Lorelei", "side": "Central Powers", "ships": ["Lorelei"], "start": {"lat": 36.0, "lon": 16.2},
               "orders": [{"do": "stop"}]}
    dublin = {"name": "Dublin", "side": "Entente", "ships": ["Dublin"], "start": {"lat": 36.0, "lon": 15.0},
              "orders": [{"do": "wait", "until": "1914-08-02T14:00Z"},
                         {"do": "sail", "to": {"lat": 36.0, "lon": 16.0}, "speed": 20}]}
    w = run_world(write_scenario, [GLOUCESTER, goeben, lorelei, dublin, BRESLAU], command={
        "headquarters": [{"name": "Souchon", "side": "Central Powers", "nation": "Germany", "aboard": "Goeben",
                          "relay_to": ["Breslau"]}],
        "standing": {"Lorelei": {"on_contact": "report", "report_to": "Souchon"}}})
    heard = [r for r in w.rec.records if r.type == "message_received" and r.data["receiver"] == "Souchon"]
    assert heard and heard[0].t_min < ENTERS_MIN  # Gloucester's report, before Breslau is there
    relayed = [r for r in w.rec.records if r.type == "message_sent" and r.data["sender"] == "Souchon"]
    assert relayed and all(r.data["receiver"] == "Breslau" and r.t_min > ENTERS_MIN for r in relayed)


def test_coaling_from_a_collier_not_yet_in_the_theatre_fails_saying_when_she_comes(write_scenario) -> None:
    collier = {"name": "Bogadir", "side": "Central Powers", "ships": ["Bogadir"], "start": {"lat": 36.0, "lon": 16.2},
               "enters": ENTERS}
    goeben = {"name": "Goeben", "side": "Central Powers", "ships": ["Goeben"], "start": {"lat": 36.0, "lon": 16.2},
              "coal_t": 1000, "orders": [{"do": "coal_from_collier", "collier": "Bogadir"}]}
    w = run_world(write_scenario, [goeben, collier])
    (failed,) = [r for r in w.rec.records if r.type == "order_failed"]
    assert failed.t_min == 0.0 and "Bogadir enters only at 1914-08-02T12:00" in failed.data["reason"]
