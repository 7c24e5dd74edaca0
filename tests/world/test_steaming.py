"""Steaming: speed of the slowest ship, coal burnt exactly by the curve, running dry."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from campaign.geo.places import default_places
from campaign.model.ships import default_ships
from tests.conftest import scenario_dict
from tests.world.helpers import one, records, run_file

SHIPS = default_ships()
PLACES = default_places()


def sail_scenario(ships, coal_t, speed, to="Alexandria", start="Valletta", side="Entente", **force):
    return scenario_dict([{"name": "F", "side": side, "ships": ships, "start": start, "coal_t": coal_t,
                           "orders": [{"do": "sail", "to": to, "speed": speed}], **force}],
                         end="1914-08-10T00:00Z")


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(speed=st.floats(6.0, 25.0))
def test_coal_burnt_on_a_leg_equals_the_curve_integrated(write_scenario, speed) -> None:
    g = SHIPS["Gloucester"]
    result = run_file(write_scenario(sail_scenario(["Gloucester"], g.coal_capacity_t, round(speed, 3))))
    dep, arr = one(result, "Gloucester", "depart"), one(result, "Gloucester", "arrive")
    v = dep["speed_kn"]
    hours = (arr["t_min"] - dep["t_min"]) / 60.0
    assert hours == pytest.approx(dep["dist_nm"] / v, rel=1e-6, abs=1e-3)
    burnt = dep["coal_t"] - arr["coal_t"]
    assert burnt == pytest.approx(g.consumption.t_per_h(v) * hours, abs=0.02)
    assert -dep["coal_rate_t_per_h"] == pytest.approx(g.consumption.t_per_h(v), abs=1e-4)
    end = one(result, "Gloucester", "end")
    assert end["run_nm"] == pytest.approx(dep["dist_nm"], abs=0.01)


def test_a_squadron_moves_at_its_slowest_ships_speed(write_scenario) -> None:
    result = run_file(write_scenario(sail_scenario(["Defence", "Gloucester"], None, "sustained")))
    speeds = {e["unit"]: e["speed_kn"] for e in records(result, type_="depart")}
    assert speeds == {"Defence": SHIPS["Defence"].sustained_speed_kn, "Gloucester": SHIPS["Defence"].sustained_speed_kn}


def test_a_numeric_speed_is_capped_at_sustained(write_scenario) -> None:
    result = run_file(write_scenario(sail_scenario(["Defence"], None, 30)))
    dep = one(result, "Defence", "depart")
    assert dep["speed_kn"] == SHIPS["Defence"].sustained_speed_kn and dep["speed_capped"] is True


def test_a_ship_that_runs_dry_stops_where_the_curve_says(write_scenario) -> None:
    g = SHIPS["Gloucester"]
    result = run_file(write_scenario(sail_scenario(["Gloucester"], 50.0, 20)))
    dry = one(result, "Gloucester", "out_of_coal")
    dep = one(result, "Gloucester", "depart")
    hours = 50.0 / g.consumption.t_per_h(20.0)
    assert dry["t_min"] == pytest.approx(hours * 60.0, abs=1e-3)  # t_min is written to 1e-4 min
    assert dry["coal_t"] == 0.0 and dry["status"] == "out_of_coal" and dry["speed_kn"] == 0.0
    assert not records(result, "Gloucester", "arrive")
    # Where she stops: 20 kn for that long along the route from Malta.
    end = one(result, "Gloucester", "end")
    assert end["run_nm"] == pytest.approx(20.0 * hours, abs=0.01)
    assert (end["lat"], end["lon"]) == (dry["lat"], dry["lon"])
    assert dep["route"][0] == pytest.approx([dep["lat"], dep["lon"]], abs=1e-5)


def test_the_rest_of_a_squadron_steams_on_when_one_runs_dry(write_scenario) -> None:
    result = run_file(write_scenario(sail_scenario(["Defence", "Gloucester"], {"Gloucester": 30.0}, 15)))
    assert one(result, "Gloucester", "out_of_coal")
    assert one(result, "Defence", "arrive")["to"] == "Alexandria"
    assert one(result, "Gloucester", "end")["force"] == "Gloucester"


def test_a_ship_stopped_at_sea_burns_her_fixed_load(write_scenario) -> None:
    g = SHIPS["Gloucester"]
    sc = scenario_dict([{"name": "F", "side": "Entente", "ships": ["Gloucester"], "start": {"lat": 36.0, "lon": 17.0},
                         "coal_t": 1000.0, "orders": [{"do": "wait", "until": "1914-08-03T00:00Z"}]}],
                       end="1914-08-03T00:00Z")
    result = run_file(write_scenario(sc))
    end = one(result, "Gloucester", "end")
    assert 1000.0 - end["coal_t"] == pytest.approx(g.consumption.t_per_day(0.0), abs=0.01)


def test_ships_in_port_burn_nothing(write_scenario) -> None:
    sc = scenario_dict([{"name": "F", "side": "Entente", "ships": ["Gloucester"], "start": "Valletta",
                         "coal_t": 1000.0, "orders": [{"do": "stop"}]}])
    result = run_file(write_scenario(sc))
    assert one(result, "Gloucester", "end")["coal_t"] == 1000.0


def test_sail_via_points_and_until(write_scenario) -> None:
    sc = scenario_dict([{"name": "F", "side": "Central Powers", "ships": ["Goeben"], "start": "Messina",
                         "orders": [
                             {"do": "sail", "to": "Philippeville", "via": ["Cape San Vito"], "speed": 16,
                              "until": "1914-08-02T12:00Z"},
                             {"do": "sail", "to": "Philippeville", "speed": 15}]}])
    result = run_file(write_scenario(sc))
    deps = records(result, "Goeben", "depart")
    assert len(deps) == 2 and deps[1]["t_min"] == pytest.approx(12 * 60)
    assert deps[0]["speed_kn"] == 16 and deps[1]["speed_kn"] == 15
    # North about, through the Strait of Messina and past Cape San Vito: longer than south about.
    san_vito = PLACES.get("Cape San Vito").anchorage
    lats = [p[0] for p in deps[0]["route"]]
    assert max(lats) > san_vito[0] - 0.1
    assert not records(result, "Goeben", "halt")  # the second order follows at once


def test_an_order_due_cuts_short_the_one_before(write_scenario) -> None:
    sc = scenario_dict([{"name": "F", "side": "Entente", "ships": ["Gloucester"], "start": "Valletta",
                         "orders": [
                             {"do": "sail", "to": "Gibraltar", "speed": 12},
                             {"do": "sail", "to": "Valletta", "speed": 12, "at": "1914-08-02T10:00Z"}]}])
    result = run_file(write_scenario(sc))
    deps = records(result, "Gloucester", "depart")
    assert deps[1]["t_min"] == pytest.approx(600.0) and deps[1]["to"] == "Valletta"
    assert one(result, "Gloucester", "arrive")["to"] == "Valletta"


def test_a_ship_dead_in_the_water_cannot_sail_and_stays(write_scenario) -> None:
    # Her engines lost in battle (speed lost equal to all she could make): an order to sail fails, named,
    # and she stays where she lies instead of setting off at no speed on a passage that never ends.
    from dataclasses import replace

    from campaign.scenario.loader import load_scenario
    from campaign.world.world import World

    path = write_scenario(sail_scenario(["Gloucester"], 800, 15, start={"lat": 35.0, "lon": 16.0}))
    w = World(load_scenario(path), 0)
    ship = w.ships["Gloucester"]
    ship.condition = replace(ship.condition, speed_lost_kn=ship.ship.design_speed_kn)
    w.run()
    failed = [r for r in w.rec.records if r.type == "order_failed"]
    assert failed and failed[0].data["reason"] == "cannot steam: dead in the water"
    assert not [r for r in w.rec.records if r.type == "depart"]
    end = next(r for r in w.rec.records if r.type == "end")
    assert (end.lat, end.lon) == pytest.approx((35.0, 16.0))
