"""Benchmark: where a replicate of the historical campaign spends its time, subsystem by subsystem.

    python bench/bench_shares.py [--repeat N]

Runs N replicates with a timer around each subsystem's entry points (seeds 1..N), then N others plainly
(seeds N+1..2N), for the replicate's cost without the timers, in one process after a first run (seed 0)
has loaded the sea graph. Each seed runs once: a seed run again would find its own sea routes and
light along its tracks remembered from the first time, and cost less than in a batch. Each subsystem's
time is exclusive (a call into another timed subsystem is counted there: a command's decision that
sends a message pays for its route search under "message route searches"), so the shares add up to
the whole; "everything else" is the rest (SimPy, messages' hop-by-hop delivery and the orders' processes
between the timed calls, coaling, politics). The timers cost time themselves (a few microseconds a
call, on some ten thousand calls a replicate): both totals are printed, and the shares are of the timed
one.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from _args import count

from campaign.geo.routing import Router, default_router
from campaign.records import Recorder
from campaign.scenario.loader import load_scenario
from campaign.tactics.battle import BattleRun
from campaign.world import steaming
from campaign.world.command import CommandRuntime
from campaign.world.conditions import WorldConditions
from campaign.world.sighting import SightingModel
from campaign.world.signals import SignalNetwork
from campaign.world.world import World

SCENARIO = ROOT / "scenarios" / "goeben_1914.yaml"

# Each subsystem and the methods through which the rest of the model calls it.
# (A module stands for its functions: a call within it finds the wrapped one, as it looks the name up.)
SUBSYSTEMS: tuple[tuple[str, tuple[tuple[Any, str], ...]], ...] = (
    ("sighting predictions", ((SightingModel, "next_event"),)),
    ("light and weather along tracks", ((WorldConditions, "along"), (WorldConditions, "next_change"))),
    ("message route searches", ((SignalNetwork, "_plan"),)),
    ("messages' range, jamming, intercepts",
     ((SignalNetwork, "_in_range"), (SignalNetwork, "_jammers"), (SignalNetwork, "_intercepted"))),
    ("sea routes", ((Router, "route"),)),
    ("new legs: plans, bunkers, contacts", ((steaming, "plan_route"), (World, "moved"))),
    ("commands' pictures and decisions",
     ((CommandRuntime, "on_sighting"), (CommandRuntime, "on_message"), (CommandRuntime, "decide"))),
    ("battles (tactical engine)", ((BattleRun, "advance"),)),
    ("records", ((Recorder, "emit"),)),
)
OTHER = "everything else"


@dataclass
class Shares:
    """Exclusive seconds and calls per subsystem, kept by a stack of the subsystems under way."""

    seconds: dict[str, float] = field(default_factory=dict)
    calls: dict[str, int] = field(default_factory=dict)
    stack: list[str] = field(default_factory=list)
    since: float = 0.0  # when the innermost subsystem under way last started or resumed

    def timed(self, label: str, fn: Callable[..., Any]) -> Callable[..., Any]:
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            now = time.perf_counter()
            if self.stack:  # the caller's subsystem pauses
                outer = self.stack[-1]
                self.seconds[outer] = self.seconds.get(outer, 0.0) + now - self.since
            self.stack.append(label)
            self.calls[label] = self.calls.get(label, 0) + 1
            self.since = now
            try:
                return fn(*args, **kwargs)
            finally:
                end = time.perf_counter()
                self.seconds[label] = self.seconds.get(label, 0.0) + end - self.since
                self.stack.pop()
                self.since = end  # the caller's subsystem resumes

        return wrapper


@contextmanager
def timers(shares: Shares) -> Iterator[None]:
    """The subsystems' entry points wrapped by ``shares`` while the block runs (worlds made inside it
    bind the wrapped methods), restored afterwards."""
    saved = [(cls, name, cls.__dict__[name]) for _, methods in SUBSYSTEMS for cls, name in methods]
    try:
        for label, methods in SUBSYSTEMS:
            for cls, name in methods:
                setattr(cls, name, shares.timed(label, cls.__dict__[name]))
        yield
    finally:
        for cls, name, fn in saved:
            setattr(cls, name, fn)


def run(sc, seeds: range) -> float:
    """Seconds for the replicates of ``seeds`` (records only, as a batch's worker runs them)."""
    t0 = time.perf_counter()
    for seed in seeds:
        world = World(sc, seed)
        world.env.run(until=world.end_min)
        world.finish()
    return time.perf_counter() - t0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=count(1), default=12, help="replicates (seeds 1..N) to time (default 12)")
    args = parser.parse_args()
    default_router()
    sc = load_scenario(SCENARIO)
    run(sc, range(1))  # the sea routes and the light along the opening moves, cached
    n = args.repeat
    shares = Shares()
    with timers(shares):
        timed_s = run(sc, range(1, n + 1))
    plain_s = run(sc, range(n + 1, 2 * n + 1))
    shares.seconds[OTHER] = timed_s - sum(shares.seconds.values())
    print(f"scenario          {SCENARIO.name}")
    print(f"replicate         {plain_s / n * 1e3:7.1f} ms mean of seeds {n + 1}-{2 * n}; "
          f"{timed_s / n * 1e3:.1f} ms with the timers (seeds 1-{n})")
    print(f"{'subsystem':38s} {'ms':>7s} {'share':>6s} {'calls':>7s}")
    for label in [s for s, _ in SUBSYSTEMS] + [OTHER]:
        sec = shares.seconds.get(label, 0.0)
        calls = "" if label == OTHER else f"{shares.calls.get(label, 0) / n:7.0f}"
        print(f"{label:38s} {sec / n * 1e3:7.1f} {100 * sec / timed_s:5.1f}% {calls}")


if __name__ == "__main__":
    main()
