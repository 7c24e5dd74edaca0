"""The secret victory-condition draws of seed 000 (campaign/world/victory.py).

Seed 000, 'Time Record': "GVC-SDR (German victory conditions SDR, before the 1500 Aug. 3 turn)" and "BVC-SDR
(British victory conditions SDR, before the 0300 Aug. 4 turn)"; 'The Secret Die Roll': counters numbered 1-6.
The scenario reads the game's turns as UTC (its start, 09:00Z 2 Aug, is the game's first turn).
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from math import sqrt

import numpy as np
import pytest

from campaign.scenario.loader import load_scenario
from campaign.world import victory
from campaign.world.world import RNG_STREAMS, World
from tests.conftest import scenario_dict

GOEBEN = {"name": "Goeben", "side": "Central Powers", "ships": ["Goeben"], "start": {"lat": 36.0, "lon": 16.0},
          "orders": [{"do": "stop"}]}
GLOUCESTER = {"name": "Gloucester", "side": "Entente", "ships": ["Gloucester"],
              "start": {"lat": 35.0, "lon": 20.0}, "orders": [{"do": "stop"}]}


class _Scored:
    """A resolved scenario with a ``scoring`` field, whatever the Scenario class carries."""

    def __init__(self, scenario, rules):
        self._scenario, self.scoring = scenario, rules

    def __getattr__(self, name):
        return getattr(self._scenario, name)


def scored(scenario, rules="seed000"):
    try:
        return dataclasses.replace(scenario, scoring=rules)
    except TypeError:  # a Scenario without the field
        return _Scored(scenario, rules)


@pytest.fixture
def scenario(write_scenario):
    def make(end="1914-08-05T00:00Z", rules="seed000"):
        sc = load_scenario(write_scenario(scenario_dict([GOEBEN, GLOUCESTER], start="1914-08-02T09:00Z", end=end)))
        return scored(sc, rules)
    return make


def run_world(sc, seed=0):
    world = World(sc, seed)
    world.run()
    return world


def draws(world):
    return [r for r in world.rec.records if r.type == victory.RECORD_TYPE]


def test_the_scoring_stream_is_the_last_so_older_streams_keep_their_dice():
    assert RNG_STREAMS[-1] == "scoring"
    assert RNG_STREAMS[:5] == ("weather", "sighting", "combat", "signals", "command")


def test_each_side_draws_at_its_time_record_turn(scenario):
    world = run_world(scenario())
    got = {r.side: r for r in draws(world)}
    assert set(got) == {"Central Powers", "Entente"}
    german, british = got["Central Powers"], got["Entente"]
    assert world.clock.iso(german.t_min) == "1914-08-03T15:00:00Z"
    assert world.clock.iso(british.t_min) == "1914-08-04T03:00:00Z"
    assert (german.data["chart"], german.data["player"]) == ("GVC", "German")
    assert (british.data["chart"], british.data["player"]) == ("BVC", "British")
    for r in (german, british):
        assert r.data["draw"] in range(1, 7)
        assert r.data["secret"] is True
        assert r.unit is None and r.lat is None


def test_same_seed_same_draws_and_records(scenario):
    a, b = run_world(scenario(), seed=5), run_world(scenario(), seed=5)
    assert a.rec.records == b.rec.records
    assert [r.data["draw"] for r in draws(a)] == [r.data["draw"] for r in draws(b)]


def test_the_draws_change_with_the_seed(scenario):
    sc = scenario()
    seen = {tuple(r.data["draw"] for r in draws(run_world(sc, seed=s))) for s in range(12)}
    assert len(seen) > 1


def test_no_scoring_no_draw_and_nothing_else_moves(scenario):
    plain, with_scoring = run_world(scenario(rules=None), seed=3), run_world(scenario(), seed=3)
    assert draws(plain) == []
    rest = [r for r in with_scoring.rec.records if r.type != victory.RECORD_TYPE]
    assert rest == list(plain.rec.records)


def test_a_draw_after_the_end_is_made_at_the_start(scenario):
    world = run_world(scenario(end="1914-08-04T00:00Z"))
    got = {r.side: r for r in draws(world)}
    assert world.clock.iso(got["Central Powers"].t_min) == "1914-08-03T15:00:00Z"
    assert got["Entente"].t_min == 0.0
    assert "outside the run" in got["Entente"].data["note"]


def test_the_draw_is_a_fair_d6_over_seeds():
    """600 runs' first draws, each from the run's own scoring stream as the world spawns it: every face
    within four binomial standard deviations of 100."""
    n, faces = 600, 6
    idx = RNG_STREAMS.index("scoring")

    def stream(seed: int) -> np.random.Generator:
        return np.random.default_rng(np.random.SeedSequence(seed).spawn(len(RNG_STREAMS))[idx])

    counts = Counter(victory.throw(stream(s), faces) for s in range(n))
    assert set(counts) == set(range(1, 7))
    mean, sd = n / faces, sqrt(n * (1 / faces) * (1 - 1 / faces))
    for face in range(1, 7):
        assert abs(counts[face] - mean) <= 4 * sd, counts
    assert victory.throw(stream(42), faces) == victory.throw(stream(42), faces)  # same seed, same draw
