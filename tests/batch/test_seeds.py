"""Common random numbers: replicate r of every variant and design point runs with the same seed, derived
from the batch seed and r alone."""

from __future__ import annotations

import numpy as np
import pytest

from campaign.batch.design import parse_design
from campaign.batch.plan import BatchPlan
from campaign.batch.run import tasks_for
from campaign.batch.seeds import SEED_MASK, replicate_seed, replicate_seeds


def test_seed_is_numpys_spawned_child_of_the_batch_seed() -> None:
    children = np.random.SeedSequence(7).spawn(5)
    for r, child in enumerate(children):
        assert replicate_seed(7, r) == int(child.generate_state(1, dtype=np.uint64)[0]) & SEED_MASK


def test_seeds_are_deterministic_distinct_and_fit_int64() -> None:
    a = replicate_seeds(3, 1000)
    assert np.array_equal(a, replicate_seeds(3, 1000))
    assert len(set(a.tolist())) == 1000
    assert a.dtype == np.int64 and (a >= 0).all()
    assert not np.array_equal(a[:10], replicate_seeds(4, 10))
    assert np.array_equal(replicate_seeds(3, 10), a[:10])  # more replicates never change the first ones


def test_negative_inputs_are_refused() -> None:
    with pytest.raises(ValueError):
        replicate_seed(-1, 0)


def test_every_variant_and_point_gets_the_same_seed_for_replicate_r() -> None:
    design = parse_design({"kind": "grid", "parameters": {"sighting_range_factor": {"values": [0.8, 1.0, 1.2]}}})
    plan = BatchPlan("s.yaml", "s", ("base", "a", "b"), runs=10, seed=5, chunk=3, design=design)
    seen: dict[int, set[int]] = {}
    for task in tasks_for(plan, plan.chunks(), None):
        for r, s in zip(range(task.chunk.r0, task.chunk.r1), task.seeds):
            seen.setdefault(r, set()).add(s)
    assert sorted(seen) == list(range(10))
    assert all(len(s) == 1 for s in seen.values())
    assert [next(iter(seen[r])) for r in range(10)] == replicate_seeds(5, 10).tolist()


def test_a_plan_works_its_seeds_out_once_and_they_cannot_be_changed(monkeypatch) -> None:
    from campaign.batch import plan as plan_module

    calls = []
    real = plan_module.replicate_seeds
    monkeypatch.setattr(plan_module, "replicate_seeds", lambda s, n: calls.append(n) or real(s, n))
    plan = BatchPlan("s.yaml", "s", ("base", "a"), runs=10, seed=5, chunk=3)
    first = plan.seeds()
    list(tasks_for(plan, plan.chunks(), None))
    assert plan.seeds() is first and calls == [10]  # a million replicates' seeds take seconds
    assert np.array_equal(first, replicate_seeds(5, 10))
    with pytest.raises(ValueError):
        first[0] = 1  # shared by every caller: read-only
