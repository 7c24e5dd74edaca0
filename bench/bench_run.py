"""Benchmark: one replicate of the historical campaign, against raw SimPy doing as many events.

    python bench/bench_run.py [--repeat N]

Prints, from one process: the cost of a replicate (records only: no tracks, no files) once the sea
routes are cached, its record and SimPy event counts, the time raw SimPy takes for the same number of
events (a process yielding that many timeouts), and the ratio; the first replicate in a fresh process
(routes not yet cached) and the time to load the sea graph are printed beside it.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from _args import count
from _python import interpreter
from _raw_simpy import ticking

from campaign.geo.routing import default_router
from campaign.scenario.loader import load_scenario
from campaign.world.world import World

SCENARIO = ROOT / "scenarios" / "goeben_1914.yaml"


def one_replicate(sc, seed: int) -> tuple[float, int, int]:
    """(seconds, records, SimPy events) for one run, stepping the environment to count its events."""
    t0 = time.perf_counter()
    world = World(sc, seed)
    env, steps = world.env, 0
    while env.peek() < world.end_min:
        env.step()
        steps += 1
    env.run(until=world.end_min)
    world.finish()
    return time.perf_counter() - t0, len(world.rec), steps


def raw_simpy(n_events: int) -> float:
    """Seconds for SimPy to process ``n_events`` timeouts in one process."""
    env = ticking(n_events)
    t0 = time.perf_counter()
    env.run()
    return time.perf_counter() - t0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=count(1), default=30, help="warm replicates to time (default 30)")
    args = parser.parse_args()

    t0 = time.perf_counter()
    default_router()
    graph_s = time.perf_counter() - t0
    t0 = time.perf_counter()
    sc = load_scenario(SCENARIO)
    load_s = time.perf_counter() - t0
    cold_s, n_records, n_events = one_replicate(sc, 0)
    warm = [one_replicate(sc, seed)[0] for seed in range(1, args.repeat + 1)]
    run_s = statistics.median(warm)
    raw = statistics.median(raw_simpy(n_events) for _ in range(args.repeat))
    print(f"scenario        {SCENARIO.name}")
    print(f"python          {interpreter()}")
    print(f"sea graph load  {graph_s * 1e3:8.1f} ms (from the disk cache; built once per machine)")
    print(f"scenario load   {load_s * 1e3:8.1f} ms (validation and resolution)")
    print(f"first replicate {cold_s * 1e3:8.1f} ms (sea routes computed)")
    print(f"replicate       {run_s * 1e3:8.1f} ms median of {args.repeat} (routes cached; records only)")
    print(f"records         {n_records:8d}")
    print(f"SimPy events    {n_events:8d}")
    print(f"raw SimPy       {raw * 1e3:8.2f} ms for {n_events} timeouts")
    print(f"ratio           {run_s / raw:8.1f} x raw SimPy for the same number of events")


if __name__ == "__main__":
    main()
