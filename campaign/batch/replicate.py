"""What a worker does: run the replicates of one chunk and return their measures.

A replicate is ``campaign.runner.run(scenario, seed)`` — the same call as the command line's — flattened into the measures of campaign/batch/measures.py. Nothing else is built: no
tracks, summary or replay (they are derived from the records, and any replicate can be rerun exactly
with them: ``python run_campaign.py SCENARIO --variant V --seed SEED``, with ``--set NAME=VALUE`` for each
parameter of a design point, or :func:`rerun` from Python). With ``keep_records`` each replicate's
``events.jsonl`` is returned too, compressed (about 80 kB a replicate of the historical campaign), and the
driver writes it under ``records/<variant>/[point<p>/]<seed>/`` (:func:`write_records`): a worker writes
nothing, so it needs no file system shared with the driver.

A task carries the scenario's files as the driver read them (campaign/batch/bundle.py), so a worker needs
no copy of them; the scenario of each (files, variant) is loaded once per worker process and kept. Design
parameters are applied to the loaded scenario (campaign/batch/parameters.py).
"""

from __future__ import annotations

import functools
import zlib
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from campaign.batch.bundle import ScenarioFiles, scenario_from
from campaign.batch.collector import settle_collector
from campaign.batch.measures import MEASURE_NAMES, as_row, flatten
from campaign.batch.parameters import apply_parameters
from campaign.batch.plan import BASE, Chunk
from campaign.batch.software import Software, check_worker
from campaign.output import files
from campaign.runner import RunResult, run
from campaign.scenario.loader import load_scenario
from campaign.scenario.model import Scenario

RECORDS = "records"
# zlib's fastest level: it shrinks the historical campaign's records about twelvefold (930 to 80 kB) in a
# few milliseconds of the worker's, beside the replicate's half second.
RECORDS_COMPRESSION = 1


@dataclass(frozen=True)
class ChunkTask:
    """Everything a worker needs for one chunk (small and picklable: the scenario's files, compressed,
    not scenario objects)."""

    scenario: str  # the scenario file's path on the driver's machine (read there only without ``files``)
    variant: str
    chunk: Chunk
    seeds: tuple[int, ...]
    parameters: tuple[tuple[str, float], ...] = ()
    point: int | None = None  # the design point's number (None: the batch has no design)
    engine: str | None = None
    keep_records: bool = False
    files: ScenarioFiles | None = None
    software: Software | None = None  # the driver's, which the worker must have (None: unchecked)


@dataclass(frozen=True)
class ChunkResult:
    chunk: Chunk
    values: np.ndarray  # measures x replicates, MEASURE_NAMES order
    measures: tuple[str, ...] = MEASURE_NAMES
    records: tuple[bytes, ...] = ()  # with keep_records: each replicate's events.jsonl, zlib-compressed


@functools.cache
def scenario_of(path: str, variant: str) -> Scenario:
    """The loaded scenario of a variant (``base``: the file itself), once per process."""
    return load_scenario(path, variant=None if variant == BASE else variant)


def prepared(task: ChunkTask) -> Scenario:
    """The scenario of a task's variant at its design point: from the files it carries, or else from its
    scenario's path."""
    if task.files is not None:
        sc = scenario_from(task.files, None if task.variant == BASE else task.variant)
    else:
        sc = scenario_of(task.scenario, task.variant)
    return apply_parameters(sc, dict(task.parameters))


def record_folder(records_dir: str | Path, variant: str, seed: int, point: int | None = None) -> Path:
    """Where a kept replicate's ``events.jsonl`` goes."""
    base = Path(records_dir) / variant
    if point is not None:
        base = base / f"point{point}"
    return base / str(seed)


def run_replicate(sc: Scenario, seed: int, engine: str | None = None) -> tuple[dict[str, float], RunResult]:
    """One replicate: its measures by name, and the run (records only; nothing else built)."""
    result = run(sc, seed=seed, engine=engine)
    return flatten(result.events, result.meta), result


def run_chunk(task: ChunkTask) -> ChunkResult:
    """Run a chunk's replicates in order and return their measures (SoftwareMismatch, before any, on a
    worker whose software is not the driver's)."""
    if task.software is not None:
        check_worker(task.software)
    sc = prepared(task)
    settle_collector()  # what the worker keeps, its caches, is not walked again by the collector
    cols, records = [], []
    for seed in task.seeds:
        values, result = run_replicate(sc, seed, task.engine)
        cols.append(as_row(values))
        if task.keep_records:
            records.append(zlib.compress(files.jsonl_bytes(result.events), RECORDS_COMPRESSION))
    return ChunkResult(task.chunk, np.stack(cols, axis=1) if cols else np.empty((len(MEASURE_NAMES), 0)),
                       records=tuple(records))


def write_records(records_dir: str | Path, task: ChunkTask, result: ChunkResult) -> None:
    """Write a finished task's kept records (the driver does): each replicate's ``events.jsonl``
    atomically in its folder, so that a task written twice replaces its own files."""
    for seed, data in zip(task.seeds, result.records, strict=True):
        folder = record_folder(records_dir, task.variant, seed, task.point)
        files.write_all(folder, {"events.jsonl": lambda p, data=data: p.write_bytes(zlib.decompress(data))})


def rerun(scenario: str | Path, variant: str, seed: int, parameters: Mapping[str, float] | None = None,
          engine: str | None = None) -> RunResult:
    """Rerun one replicate of a batch exactly (variant, seed and, for a design batch, its point's
    parameters): the result can write every file of a run (``.write(outdir)``: events, tracks, summary,
    replay, report)."""
    sc = apply_parameters(load_scenario(scenario, variant=None if variant == BASE else variant),
                          dict(parameters or {}))
    return run(sc, seed=seed, engine=engine)


def describe(task: ChunkTask) -> dict[str, Any]:
    """A chunk in words, for error messages."""
    c = task.chunk
    return {"variant": task.variant, "point": c.p, "replicates": f"{c.r0}..{c.r1 - 1}",
            "seeds": list(task.seeds)}
