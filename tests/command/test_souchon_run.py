"""Souchon deciding (the variant ``souchon_decides``), and the base scenario's timetable."""

from __future__ import annotations

import pytest

from campaign.model.orders import Sail
from campaign.paths import SCENARIO_DIR
from campaign.runner import run
from campaign.scenario.loader import load_scenario

BASE = SCENARIO_DIR / "goeben_1914.yaml"
GERMAN = ("Goeben", "Breslau")
DECIDES = "souchon_decides"


def _orders(result) -> list[dict]:
    return [e for e in result.events if e["type"] == "orders" and e["unit"] in GERMAN]


@pytest.fixture(scope="module")
def runs():
    return (run(load_scenario(BASE, variant=DECIDES), seed=0),
            run(load_scenario(BASE, variant=DECIDES), seed=0))


def test_two_runs_with_one_seed_give_identical_orders_records(runs) -> None:
    first, second = runs
    assert _orders(first) and _orders(first) == _orders(second)


def test_goeben_reaches_chanak_on_10_august_and_every_german_order_says_why(runs) -> None:
    result, _ = runs
    arrive = [e for e in result.events if e["type"] == "arrive" and e["unit"] == "Goeben" and e["to"] == "Chanak narrows"]
    assert arrive and arrive[0]["t"].startswith("1914-08-10")
    for e in _orders(result):
        assert e.get("by") in GERMAN and e.get("reason"), e


def test_the_wait_off_the_straits_is_one_decision_not_a_failure_an_hour(runs) -> None:
    result, _ = runs
    assert not [e for e in result.events if e["type"] == "order_failed" and e["unit"] in GERMAN]
    waits = [e for e in _orders(result) if e["unit"] == "Goeben" and "Dardanelles" in e["reason"]
             and "wait" in e["reason"]]
    assert len(waits) <= 1


def test_the_base_gives_the_german_forces_only_the_timetables_orders() -> None:
    timed = load_scenario(BASE)
    base = load_scenario(BASE, variant=DECIDES)
    for name in GERMAN:
        st = timed.standing[name]
        assert st.mission == "script" and st.plan is None and st.objective is None and not st.may_enter
        assert base.standing[name].mission == "plan"
    # The messages still reach him and change nothing.
    for m in timed.messages:
        if m.receiver == "Souchon":
            assert not m.orders_for and not m.standing
    forces = {f.name: f for f in timed.forces}
    base_forces = {f.name: f for f in base.forces}
    for name in GERMAN:
        assert forces[name].orders == base_forces[name].orders  # the timetable as given
    # Its departures are the record's: Messina 23:30 on 2 Aug (van der Vat) for the Algerian coast, Messina
    # at 17:00 local, 16:00 UTC, on 6 Aug (Churchill time-table p.107), Denusa at 05:45 German time, 04:45
    # UTC, on 10 Aug (Lorey p.10), in scenario minutes from 09:00 on 2 Aug.
    goeben_sails = [o.at_min for o in forces["Goeben"].orders if isinstance(o, Sail) and o.at_min is not None]
    assert goeben_sails == [870.0, 6180.0, 11265.0]


def test_coaled_at_messina_he_stays_his_time_and_sails_when_put_out(runs) -> None:
    # 1,500 t by noon on 6 Aug, the crew spent (Tuchman p.21); out at 5 p.m. local, 16:00 UTC, when Italy's
    # 24 hours from its notice were up (Churchill time-table p.107). He sailed at once on the coal's end.
    result, _ = runs
    goeben = [e for e in result.events if e.get("unit") == "Goeben"]
    coaled = [e for e in goeben if e["type"] == "coal_end" and e["t"].startswith("1914-08-06")]
    assert coaled and coaled[0]["taken_t"] == pytest.approx(1500.0, abs=0.01)
    limit = next(e for e in goeben if e["type"] == "neutral_limit" and e["t"].startswith("1914-08-06"))
    assert limit["t"] == "1914-08-06T16:00:00Z"
    leave = next(e for e in goeben if e["type"] == "depart" and e.get("origin") == "Messina"
                 and e["t"].startswith("1914-08-06"))
    assert limit["t_min"] <= leave["t_min"] <= limit["t_min"] + 60.0
