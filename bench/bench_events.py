"""Benchmark: where a replicate of the historical campaign spends its time, by the SimPy events that do it.

    python bench/bench_events.py [--repeat N]

Runs N replicates (seeds 1..N) in one process after a first (seed 0) has loaded the sea graph, and times
each step of the environment (an event's callbacks, and the work held back until the step ends),
charging it to what the event wakes: the process it resumes, by its generator's name, marked
"interrupted" when the event is an interrupt (a force given new orders, or its leg re-planned under it);
or, for an event that resumes no process, the callbacks themselves. Prints each kind's share of the
time, its events a replicate and its mean cost an event: the table of ``docs/performance.md``, "Where
the time goes". The clock read around every step costs a little itself (some 9,000 steps a replicate).
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import simpy
from simpy.events import Event, Interruption, Process

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from _args import count

from campaign.geo.routing import default_router
from campaign.scenario.loader import load_scenario
from campaign.world.world import World

SCENARIO = ROOT / "scenarios" / "goeben_1914.yaml"


def _process_name(process: Process) -> str:
    generator = getattr(process, "_generator", None)  # SimPy keeps the generator it drives there
    return getattr(generator, "__qualname__", None) or process.name


def kind_of(event: Event) -> str:
    """What ``event`` wakes, as this benchmark names it (see the module's docstring)."""
    if isinstance(event, Interruption):
        return f"{_process_name(event.process)} (interrupted)"
    names = []
    for callback in event.callbacks or ():
        owner = getattr(callback, "__self__", None)
        name = _process_name(owner) if isinstance(owner, Process) \
            else getattr(callback, "__qualname__", type(callback).__name__)
        if name not in names:
            names.append(name)
    return " + ".join(names) or f"{type(event).__name__} (no one waiting)"


@dataclass
class Ledger:
    """Seconds and events by kind of event."""

    seconds: Counter = field(default_factory=Counter)
    events: Counter = field(default_factory=Counter)

    def run(self, env: simpy.Environment, until: float) -> None:
        """Step ``env`` until its next event is at ``until`` or later, timing each step by its kind."""
        clock = time.perf_counter
        while env.peek() < until:
            event = env._queue[0][3]  # the next event: SimPy's queue is a heap of (time, priority, id, event)
            kind = kind_of(event)
            t0 = clock()
            env.step()
            self.seconds[kind] += clock() - t0
            self.events[kind] += 1

    def table(self, replicates: int) -> list[tuple[str, float, float, float]]:
        """(kind, share of the time in %, events a replicate, µs an event), dearest first."""
        total = sum(self.seconds.values()) or 1.0
        return [(k, 100.0 * s / total, self.events[k] / replicates, 1e6 * s / self.events[k])
                for k, s in self.seconds.most_common()]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=count(1), default=3, help="replicates to time (default 3)")
    args = parser.parse_args()

    default_router()
    sc = load_scenario(SCENARIO)
    warm = World(sc, 0)
    warm.env.run(until=warm.end_min)
    warm.finish()
    ledger = Ledger()
    t0 = time.perf_counter()
    for seed in range(1, args.repeat + 1):
        world = World(sc, seed)
        ledger.run(world.env, world.end_min)
        world.env.run(until=world.end_min)
        world.finish()
    elapsed = time.perf_counter() - t0
    print(f"scenario        {SCENARIO.name}, seeds 1..{args.repeat} after seed 0")
    print(f"replicate       {elapsed / args.repeat * 1e3:8.1f} ms (the mean, timers included)")
    print(f"SimPy events    {sum(ledger.events.values()) / args.repeat:8.0f} a replicate")
    print(f"{'share':>7} {'events':>9} {'each':>10}  what the event wakes")
    for kind, share, events, each_us in ledger.table(args.repeat):
        print(f"{share:6.1f}% {events:9.1f} {each_us:7.0f} µs  {kind}")


if __name__ == "__main__":
    main()
