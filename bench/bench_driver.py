"""Benchmark: the batch driver's own cost as a batch grows — how soon it starts, and what it holds.

    python bench/bench_driver.py [--small N] [--large N] [--stop-after N]

Runs a small batch (``--small`` replicates of the base scenario, 20 a task) and a large one (``--large``)
on a LocalCluster of two workers, exactly as the ``batch`` command does, but with tasks that do no work
(each returns its chunk's measures as NaN), and stops each after ``--stop-after`` tasks have come back.
Prints for each: the seconds to work out its replicates' seeds (done once a batch, before the cluster is
sought), from the call of ``run_batch`` to the first task's result and to the last one waited for, and
the driver's peak memory; then the ratio of the large batch's wait for its first result to the small
one's. A driver that keeps a window of tasks waits about as long for any batch. The driver before the
window (which also worked the seeds out three times and had Dask build a graph of every task) waited
in proportion to the batch: 139 s for 100,000 tasks, a ratio of 33.6.
"""

from __future__ import annotations

import argparse
import resource
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from _args import count

from campaign.batch.measures import MEASURE_NAMES
from campaign.batch.replicate import ChunkResult, ChunkTask
from campaign.batch.run import make_plan, run_batch

SCENARIO = ROOT / "scenarios" / "goeben_1914.yaml"
CHUNK = 20  # replicates a task: the default for a batch of 640 replicates or more


def no_work(task: ChunkTask) -> ChunkResult:
    """A task's result without running its replicates (defined in this script: Dask sends it by value)."""
    return ChunkResult(task.chunk, np.full((len(MEASURE_NAMES), task.chunk.n), np.nan))


class Stop(Exception):
    """Raised from the driver's callback to stop a batch once enough tasks came back."""


def peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # Linux: kilobytes


def one(runs: int, stop_after: int) -> tuple[float, float, float, float]:
    """(seeds s, first result s, last result s, driver peak MB) of a batch of ``runs`` replicates."""
    plan = make_plan(SCENARIO, "base", runs=runs, seed=1, chunk=CHUNK)
    t = time.perf_counter()
    plan.seeds()
    seeds_s = time.perf_counter() - t
    times: list[float] = []

    def on_chunk(_chunk, n: int) -> None:
        times.append(time.perf_counter() - t0)
        if n >= stop_after:
            raise Stop

    with tempfile.TemporaryDirectory() as out:
        t0 = time.perf_counter()
        try:
            run_batch(plan, out, workers=2, progress=False, on_chunk=on_chunk, task_fn=no_work)
        except Stop:
            pass
    return seeds_s, times[0], times[-1], peak_mb()


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--small", type=count(CHUNK), default=20_000, help="replicates of the small batch")
    ap.add_argument("--large", type=count(CHUNK), default=2_000_000, help="replicates of the large batch")
    ap.add_argument("--stop-after", type=count(1), default=50, help="tasks to wait for in each batch")
    args = ap.parse_args(argv)
    print(f"driver's own cost, tasks of {CHUNK} replicates doing no work, 2 local workers, "
          f"stopped after {args.stop_after} tasks:")
    first = {}
    for name, runs in (("small", args.small), ("large", args.large)):
        seeds_s, first_s, last_s, mb = one(runs, args.stop_after)
        first[name] = first_s
        print(f"  {name}: {runs:,} replicates ({-(-runs // CHUNK):,} tasks): seeds {seeds_s:.1f} s; first result "
              f"{first_s:.2f} s, result {args.stop_after} at {last_s:.2f} s; driver peak {mb:.0f} MB")
    print(f"  the large batch's wait for its first result / the small one's: {first['large'] / first['small']:.2f}")


if __name__ == "__main__":
    main()
