"""Ammunition in the campaign: the rounds left out of one battle go into the next, and a ship fills her
outfit only at a base that holds her navy's ammunition, in the time the data give it."""

from __future__ import annotations

import functools

import pytest

from campaign.model.ships import find_ship
from campaign.runner import run
from campaign.scenario.loader import load_scenario
from campaign.tactics.ammunition import default_ammunition_rules, missing_share, outfits
from campaign.tactics.engines import engine_names
from campaign.tactics.protocol import Condition
from campaign.world.world import World
from tests.conftest import scenario_dict
from tests.scenario.test_variants import BASE

FULL_H = default_ammunition_rules().rearm_full_outfit_h


def _world(write_scenario, force: dict, condition: Condition, **extra) -> World:
    """A world of one force whose ship comes in with ``condition``, run to its end."""
    w = World(load_scenario(write_scenario(scenario_dict([force], **extra))), 0)
    ship = w.ships[force["ships"][0]]
    ship.condition = condition
    w.run()
    return w


def _records(w: World, type_: str) -> list:
    return [r for r in w.rec.records if r.type == type_]


def test_a_british_ship_fills_her_outfit_at_malta(write_scenario):
    glo = find_ship("Gloucester")
    left = (0, 500, 40)  # her 6-inch dry, her 4-inch and 3-pounders part spent
    force = {"name": "Gloucester", "side": "Entente", "ships": ["Gloucester"], "start": {"lat": 35.75, "lon": 14.75},
             "coal_t": 500, "orders": [{"do": "sail", "to": "Valletta", "speed": 15}]}
    w = _world(write_scenario, force, Condition(rounds_left=left))
    (arrive,) = [r for r in w.rec.records if r.type == "arrive" and r.unit == "Gloucester"]
    (rearm,) = _records(w, "rearm")
    hours = missing_share(glo, left) * FULL_H
    assert rearm.data["reason"] == "full" and rearm.data["source"] == "Valletta"
    assert rearm.t_min == pytest.approx(arrive.t_min + hours * 60.0)
    assert rearm.data["rounds_taken"] == sum(outfits(glo)) - sum(left)
    assert w.ships["Gloucester"].condition.rounds_left is None  # her full outfit again
    assert rearm.data["rounds_left"] == {"BL 6-inch Mk XI": 2 * 150, "BL 4-inch Mk VII": 10 * 150,
                                         "Vickers 3-pounder": 4 * 300}


def test_a_ship_that_sails_before_she_is_full_keeps_what_the_time_gave(write_scenario):
    glo = find_ship("Gloucester")
    left = (0, 1500, 1200)  # only her two 6-inch to fill: 300 rounds, in (their share of her outfit) x 12 h
    need_h = missing_share(glo, left) * FULL_H
    force = {"name": "Gloucester", "side": "Entente", "ships": ["Gloucester"], "start": {"lat": 35.85, "lon": 14.6},
             "coal_t": 500, "orders": [
                 {"do": "sail", "to": "Valletta", "speed": 12},
                 {"do": "sail", "to": {"lat": 35.5, "lon": 15.5}, "speed": 12, "at": "1914-08-02T03:00Z"}]}
    w = _world(write_scenario, force, Condition(rounds_left=left))
    (arrive,) = [r for r in w.rec.records if r.type == "arrive" and r.unit == "Gloucester"
                 and r.data.get("place") == "Valletta"]
    (rearm,) = _records(w, "rearm")
    assert rearm.data["reason"] == "sailed" and rearm.t_min == pytest.approx(180.0)
    share = (rearm.t_min - arrive.t_min) / 60.0 / need_h
    assert 0.0 < share < 1.0
    taken = int(300 * share + 1e-9)
    assert rearm.data["rounds_taken"] == taken
    assert w.ships["Gloucester"].condition.rounds_left == (taken, 1500, 1200)


def test_no_ammunition_for_the_germans_at_messina_or_pola(write_scenario):
    for port in ("Messina", "Pola"):
        force = {"name": "Goeben", "side": "Central Powers", "ships": ["Goeben"], "start": {"lat": 37.88, "lon": 15.52}
                 if port == "Messina" else {"lat": 44.8, "lon": 13.7}, "coal_t": 2000,
                 "orders": [{"do": "sail", "to": port, "speed": 12}]}
        w = _world(write_scenario, force, Condition(rounds_left=(100, 1800, 2400)))
        assert not _records(w, "rearm"), port
        assert w.ships["Goeben"].condition.rounds_left == (100, 1800, 2400)


def test_a_full_ship_takes_nothing(write_scenario):
    force = {"name": "Gloucester", "side": "Entente", "ships": ["Gloucester"], "start": {"lat": 35.75, "lon": 14.75},
             "coal_t": 500, "orders": [{"do": "sail", "to": "Valletta", "speed": 15}]}
    assert not _records(_world(write_scenario, force, Condition()), "rearm")


# ------------------------------------------------------------------------------------------------ the campaign


@functools.cache
def _run(engine: str):
    return run(load_scenario(BASE, variant="troubridge_engages"), seed=0, engine=engine)


def _fired(rec: dict) -> dict[str, int]:
    if "rounds_by_gun" in rec:
        return dict(rec["rounds_by_gun"])
    return {rec["gun"]: rec["rounds"]} if rec.get("rounds") else {}


@pytest.mark.parametrize("engine", engine_names())
def test_the_rounds_left_flow_from_battle_to_battle(engine):
    """Each ship leaves each battle with what she brought in (her outfit, or what she left the last one
    with, plus what she took in at a base since) less what her fire in it recorded; never below nothing."""
    result = _run(engine)
    have: dict[str, dict[str, int]] = {}
    battles = 0
    spent_any = False
    fired: dict[tuple[int, str], dict[str, int]] = {}
    for rec in result.events:
        if rec["type"] == "fire" and rec.get("unit"):
            got = fired.setdefault((rec["battle"], rec["unit"]), {})
            for label, n in _fired(rec).items():
                got[label] = got.get(label, 0) + n
        elif rec["type"] == "rearm":
            have[rec["unit"]] = dict(rec["rounds_left"])
        elif rec["type"] == "engagement_end":
            battles += 1
            ship = find_ship(rec["unit"])
            before = have.get(ship.name)
            if before is None:
                before = {}
                for g, n in zip(ship.guns, outfits(ship)):
                    before[g.label] = before.get(g.label, 0) + n
            spent = fired.get((rec["battle"], ship.name), {})
            spent_any = spent_any or any(spent.values())
            expected = {label: n - spent.get(label, 0) for label, n in before.items()}
            assert rec["rounds_left"] == expected, (engine, rec["battle"], ship.name)
            assert all(n >= 0 for n in rec["rounds_left"].values())
            have[ship.name] = dict(rec["rounds_left"])
    assert battles >= 1 and spent_any, "the what-if brings no battle in which a gun fires"
