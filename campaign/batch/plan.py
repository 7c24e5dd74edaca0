"""What a batch is — a scenario, its variants, design points, replicates and seeds — and its tasks.

A batch runs ``runs`` replicates of each variant (``base`` is the scenario itself, always first: paired
differences are taken from it) at each design point (one, without a design). Its tasks are *chunks*:
``chunk`` consecutive replicates of one variant at one design point, so that Dask's cost per task (a
few milliseconds) stays small beside the replicates' and each task writes one Zarr chunk of every
result variable (campaign/batch/store.py). The chunking is part of the batch: a resumed batch keeps it.
"""

from __future__ import annotations

import functools
import json
import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from campaign.batch.bundle import ScenarioFiles
from campaign.batch.design import Design
from campaign.batch.measures import MEASURE_NAMES
from campaign.batch.parameters import Override
from campaign.batch.seeds import replicate_seeds
from campaign.batch.software import Software

BASE = "base"  # the variant name of the scenario itself
# Default replicates per task: a 32nd of the runs, so that even a batch of one variant has many more
# tasks than workers and the last tasks to finish leave the workers idle only briefly (the tail); at
# most this many, so that a task takes well under a minute of the historical campaign and an interrupted
# batch loses little. Dask's cost per task (milliseconds) is negligible beside a replicate (a second).
MAX_DEFAULT_CHUNK = 20
TASKS_PER_CELL = 32
SCENARIO_FILES = "scenario_files"  # the identity's {path: SHA-256} of the files the workers load
SOFTWARE = "software"  # the identity's code digest and library versions (campaign/batch/software.py)


def default_chunk(runs: int) -> int:
    """Replicates per task for a batch of ``runs`` replicates a variant."""
    return max(1, min(MAX_DEFAULT_CHUNK, math.ceil(runs / TASKS_PER_CELL)))


@dataclass(frozen=True)
class Chunk:
    """One task: replicates ``r0`` .. ``r1``-1 of variant number ``v`` at design point ``p`` (0 without
    a design)."""

    v: int
    p: int
    r0: int
    r1: int

    @property
    def n(self) -> int:
        return self.r1 - self.r0


@dataclass(frozen=True)
class BatchPlan:
    """A batch: the scenario file, the variants (``base`` first), replicates, seed, chunking, design,
    tactical engine (None: the scenario's), the scenario's files as read when the batch was planned
    (campaign/batch/bundle.py; None: the workers read them from ``scenario``'s folder themselves) and
    the driver's software, which every worker must have (campaign/batch/software.py; None: unchecked);
    ``overrides``: the variants' own values of design parameters that the design replaces
    (campaign/batch/parameters.py ``overrides``), for the batch's notes: worked out from the files, so
    not part of the batch's identity."""

    scenario: str
    scenario_name: str
    variants: tuple[str, ...]
    runs: int
    seed: int
    chunk: int
    design: Design | None = None
    engine: str | None = None
    files: ScenarioFiles | None = None
    software: Software | None = None
    overrides: tuple[Override, ...] = ()

    def __post_init__(self) -> None:
        if not self.variants or self.variants[0] != BASE:
            raise ValueError("a batch's first variant is the base scenario")
        if self.runs < 1 or self.chunk < 1 or self.seed < 0:
            raise ValueError("runs and chunk must be 1 or more, the seed 0 or more")

    @property
    def n_points(self) -> int:
        return self.design.n_points if self.design is not None else 1

    @property
    def dims(self) -> tuple[str, ...]:
        return ("variant", "point", "replicate") if self.design is not None else ("variant", "replicate")

    @property
    def shape(self) -> tuple[int, ...]:
        if self.design is not None:
            return (len(self.variants), self.n_points, self.runs)
        return (len(self.variants), self.runs)

    @property
    def n_replicates(self) -> int:
        return len(self.variants) * self.n_points * self.runs

    def seeds(self) -> np.ndarray:
        """The run seed of each replicate: the same for every variant and point (campaign/batch/seeds.py).
        Read-only, and worked out once a plan (a few microseconds a replicate, so seconds for millions)."""
        return self._seeds

    @functools.cached_property
    def _seeds(self) -> np.ndarray:
        seeds = replicate_seeds(self.seed, self.runs)
        seeds.setflags(write=False)
        return seeds

    def chunks(self) -> list[Chunk]:
        """Every task of the batch, variant by variant, point by point, in replicate order."""
        return [Chunk(v, p, r0, min(r0 + self.chunk, self.runs))
                for v in range(len(self.variants)) for p in range(self.n_points)
                for r0 in range(0, self.runs, self.chunk)]

    def index(self, c: Chunk) -> tuple[Any, ...]:
        """The chunk's cells in arrays of shape :attr:`shape`."""
        if self.design is not None:
            return (c.v, c.p, slice(c.r0, c.r1))
        return (c.v, slice(c.r0, c.r1))

    def point(self, p: int) -> dict[str, float]:
        """Design point ``p``'s parameter values ({} without a design)."""
        return self.design.point(p) if self.design is not None else {}

    def identity(self) -> dict[str, Any]:
        """What makes two batches the same batch (stored with the results; a resume must match it)."""
        return {"scenario": self.scenario, "scenario_name": self.scenario_name,
                "variants": json.dumps(list(self.variants)), "runs": self.runs, "batch_seed": self.seed,
                "chunk_replicates": self.chunk, "design": self.design.describe() if self.design else "",
                "engine": self.engine or "", "measures": json.dumps(list(MEASURE_NAMES)),
                SCENARIO_FILES: json.dumps(dict(self.files.sha256)) if self.files is not None else "",
                SOFTWARE: self.software.as_json() if self.software is not None else ""}
