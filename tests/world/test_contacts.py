"""The world's eyes: a force's motion is told to the sighting model once the world settles, so that a
leg ended and another begun in the same instant is predicted once; what is seen is exactly what telling
the model at once gives."""

from __future__ import annotations

import math

import pytest

from campaign.batch.replicate import scenario_of
from campaign.paths import SCENARIO_DIR
from campaign.world.sighting import SightingModel
from campaign.world.world import World

SCENARIO = str(SCENARIO_DIR / "goeben_1914.yaml")


def run(variant: str, seed: int, *, deferred: bool, monkeypatch) -> tuple[list, int]:
    """(records, the model's updates) of one run, the model told of each motion at once or when the
    world settles."""
    updates = {"n": 0}
    original = SightingModel.update

    def counted(self, force, motion):
        updates["n"] += 1
        return original(self, force, motion)

    monkeypatch.setattr(SightingModel, "update", counted)
    world = _world(variant, seed, deferred=deferred)
    monkeypatch.undo()
    return [repr(r) for r in world.rec.records], updates["n"]


def _world(variant: str, seed: int, *, deferred: bool = True) -> World:
    """A run of a variant, done."""
    world = World(scenario_of(SCENARIO, variant), seed)
    world.contacts.untold.deferred = deferred
    world.run()
    return world


@pytest.mark.parametrize("variant, seed", [("base", 5), ("troubridge_engages", 0)])
def test_telling_the_model_when_the_world_settles_sees_what_telling_it_at_once_sees(variant, seed,
                                                                                   monkeypatch) -> None:
    at_once, n_at_once = run(variant, seed, deferred=False, monkeypatch=monkeypatch)
    settled, n_settled = run(variant, seed, deferred=True, monkeypatch=monkeypatch)
    assert settled == at_once  # every record, byte for byte
    assert any("type='sighting'" in r for r in settled)
    # Forces given new orders end a leg and begin another in one instant: the first telling is saved.
    assert n_settled < 0.85 * n_at_once


def test_a_force_that_loses_a_ship_is_predicted_afresh_though_its_motion_goes_on() -> None:
    """How far a force is seen depends on its ships (smoke grows with their number, the hull range is
    the biggest ship's): when one leaves, its pairs are predicted again even if its plan is unchanged."""
    world = World(scenario_of(SCENARIO, "base"), 0)
    world.env.run(until=60.0)
    told: list[str] = []
    world.contacts.untold._do = lambda force, motion: told.append(force)
    force = next(f for f in world.forces.values() if len(f.active_ships()) >= 3)
    world.contacts.moved(force)
    world.env.settle()
    assert told == []  # nothing changed: nothing to predict again
    force.ships.remove(force.active_ships()[-1])
    world.contacts.moved(force)
    world.env.settle()
    assert told == [force.name]
    world.contacts.moved(force)
    world.env.settle()
    assert told == [force.name]  # told once for the change, not again


@pytest.mark.parametrize("variant, seed", [("base", 0), ("milne_guards_aegean", 0)])
def test_a_search_in_instalments_sees_what_one_search_to_the_end_sees(variant, seed, monkeypatch) -> None:
    """Predictions search a few hours ahead at a time and pause; the changes found, their times and
    their order among the events of an instant are those of searching to the end of the run at once."""
    from campaign.world import sighting

    pauses = {"n": 0}
    original = sighting.Pause.__init__

    def counted(self, *args, **kwargs):
        pauses["n"] += 1
        original(self, *args, **kwargs)

    monkeypatch.setattr(sighting.Pause, "__init__", counted)
    in_instalments, _ = run(variant, seed, deferred=True, monkeypatch=monkeypatch)
    assert pauses["n"] > 100  # the searches did pause
    monkeypatch.setattr(sighting, "HORIZON_MIN", math.inf)
    at_once = [repr(r) for r in _world(variant, seed).rec.records]
    assert in_instalments == at_once  # every record, byte for byte


def test_the_pairs_an_observer_watches_in_are_all_its_pairs_in_the_order_made() -> None:
    model = _world("base", 1).contacts.model
    observers = {obs for obs, _ in model.pairs}
    assert len(observers) > 10
    for obs in observers:
        assert model.watched_by(obs) == [(tgt, st) for (o, tgt), st in model.pairs.items() if o == obs]
    assert model.watched_by("no such force") == []


def test_a_force_whose_ship_runs_dry_under_way_is_predicted_afresh() -> None:
    """A ship whose bunkers run dry stops and leaves her force; the force steams on with its plan, and
    its pairs are predicted again for the ships it has left (the dry ship, adrift, is no longer active)."""
    world = World(scenario_of(SCENARIO, "base"), 0)
    world.env.run(until=600.0)
    force = next(f for f in world.forces.values() if f.leg is not None and len(f.active_ships()) >= 3)
    told: list[str] = []
    world.contacts.untold._do = lambda name, motion: told.append(name)
    ship = force.active_ships()[-1]
    world.out_of_coal(force, ship)
    world.env.settle()
    assert told == [force.name]
    assert world.contacts.crews[force.name] == tuple(s.ship.name for s in force.active_ships())
