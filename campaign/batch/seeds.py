"""Seeds of a batch: common random numbers across variants and design points.

Replicate ``r`` of a batch with seed ``S`` runs with the integer seed :func:`replicate_seed` (S, r),
whatever its variant or design point. A run spawns one numpy Generator per subsystem from its seed
(campaign/world/world.py ``RNG_STREAMS``), so replicate ``r`` of every variant meets the same weather,
the same sighting dice and the same combat dice wherever its changes do not alter what is drawn: two
variants differ by their changes, not by their luck, and the paired differences of
campaign/batch/analyse.py are sharp.

The derivation is numpy's own for independent child streams: ``SeedSequence(S, spawn_key=(r,))`` is
exactly the ``r``-th child of ``SeedSequence(S).spawn(...)``; its first 64-bit word, less the sign bit
(so that it fits Zarr's and the command line's signed integers), is the run's seed. It depends on ``S``
and ``r`` alone: never on the number of workers, the chunking or the order in which tasks finish, so
``python run_campaign.py SCENARIO --variant V --seed SEED`` reruns any replicate exactly.
"""

from __future__ import annotations

import numpy as np

# Seeds are kept below 2**63: they are stored as int64 (Zarr) and typed as non-negative integers.
SEED_MASK = (1 << 63) - 1


def replicate_seed(batch_seed: int, replicate: int) -> int:
    """The run seed of replicate ``replicate`` (0, 1, ...) of a batch seeded ``batch_seed`` (>= 0)."""
    if batch_seed < 0 or replicate < 0:
        raise ValueError(f"batch seed and replicate must be 0 or more (got {batch_seed}, {replicate})")
    ss = np.random.SeedSequence(batch_seed, spawn_key=(replicate,))
    return int(ss.generate_state(1, dtype=np.uint64)[0]) & SEED_MASK


def replicate_seeds(batch_seed: int, runs: int) -> np.ndarray:
    """The run seeds of replicates 0 .. runs-1 (int64), the same for every variant and design point."""
    return np.array([replicate_seed(batch_seed, r) for r in range(runs)], dtype=np.int64)
