"""Coaling at ports at their rates, the neutral 24-hour limit, and colliers that lose what they give."""

from __future__ import annotations

import pytest

from campaign.geo.places import default_places
from campaign.model.ships import default_ships
from campaign.world.rules import default_rules
from tests.conftest import scenario_dict
from tests.world.helpers import one, records, run_file

SHIPS = default_ships()
PLACES = default_places()
LIMIT_H = default_rules().neutral_stay_limit_h


def coal_in_port(ship, side, port, coal_t, orders, **extra):
    return scenario_dict([{"name": ship, "side": side, "ships": [ship], "start": port, "coal_t": coal_t,
                           "orders": orders}], **extra)


def test_the_neutral_stay_limit_is_24_hours_under_hague_xiii() -> None:
    assert LIMIT_H == 24


@pytest.mark.parametrize("ship, side, port", [
    ("Gloucester", "Entente", "Valletta"),   # British at Malta: 240 t/h (HMS New Zealand, Timaru Herald 1913)
    ("Courbet", "Entente", "Valletta"),      # French at Malta: the board game's 6 units
    ("Goeben", "Central Powers", "Messina"),  # German at Messina: 1,500 t in 23 h (Massie; Tuchman)
    ("Defence", "Entente", "Bizerte"),
])
def test_port_coaling_fills_at_the_ports_rate_for_the_nation(write_scenario, ship, side, port) -> None:
    s = SHIPS[ship]
    start = 0.7 * s.coal_capacity_t
    result = run_file(write_scenario(coal_in_port(ship, side, port, start, [{"do": "coal"}])))
    begin, end = one(result, ship, "coal_start"), one(result, ship, "coal_end")
    rate = PLACES.get(port).coaling.rate_t_per_h(s.nation)
    assert begin["rate_t_per_h"] == pytest.approx(rate, abs=0.01)
    assert end["reason"] == "full" and end["coal_t"] == pytest.approx(s.coal_capacity_t, abs=0.01)
    hours = (end["t_min"] - begin["t_min"]) / 60.0
    assert hours == pytest.approx((s.coal_capacity_t - start) / rate, rel=1e-6, abs=1e-4)
    assert end["taken_t"] == pytest.approx(s.coal_capacity_t - start, abs=0.02)


def test_messina_rate_reproduces_goebens_1500_tons(write_scenario) -> None:
    # Coal from early afternoon on 5 Aug; ~1,500 t by noon on 6 Aug (Massie, Castles of Steel ch.8; Tuchman,
    # The Guns of August p.21).
    sc = coal_in_port("Goeben", "Central Powers", "Messina", 1000.0,
                      [{"do": "coal", "until": "1914-08-02T23:00Z"}], start="1914-08-02T00:00Z")
    end = one(run_file(write_scenario(sc)), "Goeben", "coal_end")
    assert end["taken_t"] == pytest.approx(1500.0, rel=0.01)
    assert end["reason"] == "ordered time"


def test_a_warship_leaves_a_neutral_port_after_24_hours(write_scenario) -> None:
    sc = coal_in_port("Goeben", "Central Powers", "Messina", 500.0, [{"do": "coal"}])
    result = run_file(write_scenario(sc))
    end = one(result, "Goeben", "coal_end")
    assert end["reason"] == "neutral time limit"
    assert end["t_min"] == pytest.approx(LIMIT_H * 60.0)
    assert end["taken_t"] == pytest.approx(LIMIT_H * PLACES.get("Messina").coaling.rate_t_per_h("Germany"), abs=0.05)
    limit = one(result, "Goeben", "neutral_limit")
    assert limit["t_min"] == pytest.approx(LIMIT_H * 60.0) and limit["status"] == "waiting"
    assert one(result, "Goeben", "end")["status"] == "waiting"  # at sea off the port, not in it


def test_a_warship_put_to_sea_by_the_limit_is_no_longer_reached_by_the_ports_telegraph(write_scenario) -> None:
    # In port her commanders could be handed telegrams there; off the port, only her wireless reaches her
    # (a telegram to Souchon off Matapan was delivered 'at Messina', where he had been a day before).
    from campaign.scenario.loader import load_scenario
    from campaign.world.world import World

    world = World(load_scenario(write_scenario(coal_in_port("Goeben", "Central Powers", "Messina", 500.0,
                                                            [{"do": "coal"}]))), 0)
    net = world.command.net
    world.env.run(until=60.0)
    assert net._node("Goeben").station == "Messina"
    world.run()
    assert records_of(world, "neutral_limit") and net._node("Goeben").station is None


def records_of(world, type_: str) -> list:
    return [r for r in world.rec.records if r.type == type_]


def test_a_warship_that_stays_is_interned(write_scenario) -> None:
    result = run_file(write_scenario(coal_in_port("Goeben", "Central Powers", "Messina", 2000.0, [{"do": "stop"}])))
    interned = one(result, "Goeben", "interned")
    assert interned["t_min"] == pytest.approx(LIMIT_H * 60.0)
    assert one(result, "Goeben", "end")["status"] == "interned"


def test_a_neutrals_notice_restarts_the_clock(write_scenario) -> None:
    sc = coal_in_port("Goeben", "Central Powers", "Messina", 500.0, [{"do": "coal"}],
                      neutral_notices=[{"port": "Messina", "nation": "Germany", "at": "1914-08-02T10:00Z"}])
    end = one(run_file(write_scenario(sc)), "Goeben", "coal_end")
    assert end["t_min"] == pytest.approx((10 + LIMIT_H) * 60.0)


def test_merchant_ships_and_own_ports_have_no_limit(write_scenario) -> None:
    sc = scenario_dict([
        {"name": "Bogadir", "side": "Central Powers", "ships": ["Bogadir"], "start": "Messina", "orders": [{"do": "stop"}]},
        {"name": "Gloucester", "side": "Entente", "ships": ["Gloucester"], "start": "Valletta", "orders": [{"do": "stop"}]},
    ])
    result = run_file(write_scenario(sc))
    assert not records(result, type_="interned") and not records(result, type_="neutral_limit")
    assert one(result, "Bogadir", "end")["status"] == "in_port"


def collier_scenario(cargo_t, warships, collier_orders=None, **extra):
    forces = [{"name": "Bogadir", "side": "Central Powers", "ships": ["Bogadir"], "start": "Piraeus",
               "cargo_t": cargo_t,
               "orders": collier_orders or [{"do": "sail", "to": "Denusa anchorage", "speed": 9}]}]
    for name, coal_t in warships:
        forces.append({"name": name, "side": "Central Powers", "ships": [name], "start": "Denusa anchorage",
                       "coal_t": coal_t, "orders": [{"do": "coal_from_collier", "collier": "Bogadir"}]})
    # A calm sea, so that a collier can lie alongside at the open anchorage whatever the stochastic
    # weather would be (coaling at sea and its weather: tests/world/test_weather_effects.py).
    extra.setdefault("weather", {"script": [{"start": "1914-08-02T00:00Z", "region": "all", "state": 0}]})
    return scenario_dict(forces, **extra)


def test_a_collier_gives_what_she_has_and_no_more(write_scenario) -> None:
    result = run_file(write_scenario(collier_scenario(500.0, [("Goeben", 1000.0)])))
    arrive = one(result, "Bogadir", "arrive")
    start, end = one(result, "Goeben", "coal_start"), one(result, "Goeben", "coal_end")
    rate = SHIPS["Bogadir"].transfer_rate_t_per_h
    assert start["t_min"] == pytest.approx(arrive["t_min"])  # Goeben waited for her at the rendezvous
    assert end["reason"] == "collier empty"
    assert end["taken_t"] == pytest.approx(500.0, abs=0.02)
    assert (end["t_min"] - start["t_min"]) / 60.0 == pytest.approx(500.0 / rate, rel=1e-6)
    collier = one(result, "Bogadir", "end")
    assert collier["cargo_t"] == pytest.approx(0.0, abs=0.01) and collier["given_t"] == pytest.approx(500.0, abs=0.02)


def test_two_ships_share_one_colliers_cargo(write_scenario) -> None:
    result = run_file(write_scenario(collier_scenario(800.0, [("Goeben", 1000.0), ("Breslau", 600.0)])))
    taken = {u: one(result, u, "coal_end")["taken_t"] for u in ("Goeben", "Breslau")}
    given = one(result, "Bogadir", "end")["given_t"]
    assert sum(taken.values()) == pytest.approx(given, abs=0.05)
    assert given == pytest.approx(800.0, abs=0.05)
    # Breslau fills (600 t of room) while both draw at 70 t/h each: the cargo would last 800/140 h.
    assert one(result, "Breslau", "coal_end")["reason"] in ("full", "collier empty")


def test_ships_cast_off_when_the_collier_sails(write_scenario) -> None:
    orders = [{"do": "sail", "to": "Denusa anchorage", "speed": 9},
              {"do": "sail", "to": "Piraeus", "speed": 9, "at": "1914-08-03T06:00Z"}]
    result = run_file(write_scenario(collier_scenario(3000.0, [("Goeben", 200.0)], collier_orders=orders)))
    end = one(result, "Goeben", "coal_end")
    assert end["reason"] == "collier sailed" and end["t_min"] == pytest.approx(30 * 60.0)


def test_coal_for_a_number_of_hours(write_scenario) -> None:
    sc = coal_in_port("Gloucester", "Entente", "Valletta", 200.0, [{"do": "coal", "hours": 2}])
    end = one(run_file(write_scenario(sc)), "Gloucester", "coal_end")
    assert end["t_min"] == pytest.approx(120.0) and end["reason"] == "ordered time"
    assert end["taken_t"] == pytest.approx(2 * PLACES.get("Valletta").coaling.rate_t_per_h("United Kingdom"), abs=0.02)


def test_coaling_from_a_collier_whose_time_has_passed_is_skipped(write_scenario) -> None:
    # Goeben comes to the rendezvous only after the coaling's time (kept from it, say, by a battle): the
    # order is skipped and she goes on with the next, as one to coal in port is. Once the transfer began
    # all the same, to end before it started (a negative wait, and the run stopped).
    sc = collier_scenario(500.0, [])
    sc["forces"].append({"name": "Goeben", "side": "Central Powers", "ships": ["Goeben"], "start": "Piraeus",
                         "coal_t": 1000.0, "orders": [
                             {"do": "sail", "to": "Denusa anchorage", "speed": 10},
                             {"do": "coal_from_collier", "collier": "Bogadir", "until": "1914-08-02T06:00Z"},
                             {"do": "sail", "to": "Piraeus", "speed": 10}]})
    result = run_file(write_scenario(sc))
    skipped = one(result, "Goeben", "order_skipped")
    assert skipped["order"] == "coal from Bogadir" and skipped["reason"] == "its time had passed"
    assert skipped["t_min"] > 6 * 60.0 and not records(result, "Goeben", "coal_start")
    arrivals = [r["to"] for r in records(result, "Goeben", "arrive")]
    assert arrivals[-1] == "Piraeus"
