"""Benchmark: the machine instructions a replicate of the historical campaign executes, counted by callgrind.

    python bench/bench_instructions.py [--seeds 1,2,3]

Wall-clock figures on a shared 2-core machine drift by 10-20 % within an hour, which hides a change
worth a few per cent. Valgrind's callgrind counts the instructions a process executes instead: the
same count for the same code, inputs and environment, whatever else the machine is doing. So a change
is measured by running this on the commit before it and on the commit with it. Each child runs with the
same string-hash seed (``PYTHONHASHSEED``): Python draws one at random for every process, and the other
order of sets and dicts that follows made two processes of the same code differ by 0.2 %; with the seed
fixed, by about 0.1 % (what is left follows where objects fall in memory). A smaller change is not measured.

Runs, under callgrind, a process that warms up (imports, the sea graph, the scenario, and a first
replicate, seed 0, which works out the sea routes and light tables later replicates find kept, as
``bench_run`` does) and then runs the seeds, then one that runs raw SimPy for as many timeouts as the
seeds' replicates averaged SimPy events. Only the instructions executed within the seeds' replicates
(within raw SimPy's run) are counted: each child makes them through ``itertools.starmap``, which
nothing in a replicate uses, and callgrind collects only while its C function (``starmap_next``) runs.
Counting whole processes and subtracting one that only warmed up, as this benchmark did at first, left
the difference of two counts of some 24 G instructions, whose 0.1 % of noise each came to half a per
cent of a replicate. An interpreter stripped of its symbols (Debian's ``python3.11``) has no
``starmap_next`` to collect in: the benchmark then stops and says so. Prints both counts and their ratio.
Callgrind runs Python about fifty times slower: some three minutes for three seeds.
"""

from __future__ import annotations

import argparse
import itertools
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from _python import interpreter

SCENARIO = ROOT / "scenarios" / "goeben_1914.yaml"
WARM_SEED = 0  # the replicate that warms a process up, as in bench_run
HASH_SEED = "0"  # every child hashes strings alike (see the module's docstring)
COLLECTED = re.compile(r"Collected\s*:\s*(\d+)")
# Callgrind collects only while this C function runs: itertools.starmap's, through which the children
# make what is counted (see the module's docstring).
COUNTED_FUNCTION = "starmap_next"


def _seeds(text: str) -> tuple[int, ...]:
    """An argparse ``type``: seeds (whole numbers, 1 or more, none twice) separated by commas."""
    try:
        seeds = tuple(int(s) for s in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a list of whole numbers such as 1,2,3") from None
    if any(s < 1 for s in seeds) or len(set(seeds)) != len(seeds):
        raise argparse.ArgumentTypeError(f"{text!r}: seeds are 1 or more, none twice (seed {WARM_SEED} warms up)")
    return seeds


def _campaign(seeds: tuple[int, ...]) -> None:
    """The measured child: warm up, run ``seeds`` as ``bench_run`` does, print the SimPy events of each."""
    from bench_run import one_replicate

    from campaign.scenario.loader import load_scenario

    sc = load_scenario(SCENARIO)
    one_replicate(sc, WARM_SEED)
    for _, _, events in itertools.starmap(one_replicate, [(sc, seed) for seed in seeds]):  # counted
        print(events)


def _simpy(n_events: int) -> None:
    """The raw SimPy child: the benchmarks' ticking process (``_raw_simpy``), run with SimPy alone loaded."""
    from _raw_simpy import ticking

    env = ticking(n_events)
    list(itertools.starmap(env.run, [()]))  # counted


def _counted(*child: str) -> tuple[int, str]:
    """(instructions, standard output) of this script run as ``child`` under callgrind."""
    out = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", "--collect-atstart=no",
                          f"--toggle-collect={COUNTED_FUNCTION}", sys.executable, __file__, "--child", *child],
                         capture_output=True, text=True, check=False,
                         env={**os.environ, "PYTHONHASHSEED": HASH_SEED})
    found = COLLECTED.search(out.stderr)
    if out.returncode != 0 or found is None:
        sys.exit(f"bench_instructions: the child {' '.join(child)} failed under valgrind:\n{out.stderr[-2000:]}")
    if int(found.group(1)) == 0:
        sys.exit(f"bench_instructions: callgrind counted nothing in the child {' '.join(child)}: it found no "
                 f"C function {COUNTED_FUNCTION} in this Python ({sys.executable}), whose executable or library "
                 "must have been stripped of its symbols (as Debian's python3.11 is); use a Python that has "
                 "them, such as one built from source")
    return int(found.group(1)), out.stdout


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=_seeds, default=(1, 2, 3), help="replicates to count (default 1,2,3)")
    parser.add_argument("--child", nargs="+", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        kind, *rest = args.child
        if kind == "campaign":
            _campaign(tuple(int(s) for s in rest))
        else:
            _simpy(int(rest[0]))
        return
    if shutil.which("valgrind") is None:
        parser.error("valgrind is not installed (Debian's package valgrind)")
    seeds = args.seeds
    ran_ir, printed = _counted("campaign", *map(str, seeds))
    events = [int(x) for x in printed.split()]
    per_replicate = ran_ir / len(seeds)
    mean_events = round(sum(events) / len(events))
    raw = _counted("simpy", str(mean_events))[0]
    print(f"scenario        {SCENARIO.name}")
    print(f"python          {interpreter()}")
    print(f"seeds           {','.join(map(str, seeds))} (after seed {WARM_SEED}, which warms the process up)")
    print(f"replicate       {per_replicate / 1e9:8.3f} G instructions, the mean of {len(seeds)}")
    print(f"SimPy events    {mean_events:8d} (the mean)")
    print(f"raw SimPy       {raw / 1e6:8.1f} M instructions for {mean_events} timeouts")
    print(f"ratio           {per_replicate / raw:8.1f} x raw SimPy for the same number of events")


if __name__ == "__main__":
    main()
