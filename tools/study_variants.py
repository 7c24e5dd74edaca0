"""Goeben's fate over many seeds of a scenario and its what-ifs: a quick study on the machine's cores.

    python tools/study_variants.py scenarios/goeben_1914.yaml --variants base,troubridge_engages --runs 50

For each variant (``base`` is the scenario itself) it runs seeds 0..RUNS-1 and prints how often Goeben
reaches the Dardanelles (arrives at Chanak narrows), when (median and range, UTC), with how much coal,
and how often she is brought to action (in a battle). Seeds are the same for every variant, so the
variants differ by their changes, not by their luck.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

ENTERED = "Chanak narrows"  # arriving here, Goeben is inside the Dardanelles


def one(args: tuple[str, str, int]) -> dict:
    """One replicate: Goeben's arrival inside the Dardanelles (UTC), her coal then (t), her battles."""
    from campaign.runner import run
    from campaign.scenario.loader import load_scenario

    path, variant, seed = args
    sc = load_scenario(path, variant=None if variant == "base" else variant)
    try:
        events = run(sc, seed=seed).events
    except Exception as exc:  # a study reports a failed replicate and goes on
        return {"variant": variant, "seed": seed, "error": repr(exc)}
    arrival = next((e for e in events if e["type"] == "arrive" and e.get("unit") == "Goeben"
                    and e.get("to") == ENTERED), None)
    battles = {e["battle"] for e in events if e["type"] == "engagement_start" and e.get("unit") == "Goeben"}
    sunk = any(e["type"] == "sunk" and e.get("unit") == "Goeben" for e in events)
    return {"variant": variant, "seed": seed, "arrived": arrival["t"] if arrival else None,
            "coal_t": arrival.get("coal_t") if arrival else None, "battles": len(battles), "sunk": sunk}


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("scenario")
    p.add_argument("--variants", default="base")
    p.add_argument("--runs", type=int, default=50)
    p.add_argument("--workers", type=int, default=2)
    a = p.parse_args()
    jobs = [(a.scenario, v, s) for v in a.variants.split(",") for s in range(a.runs)]
    with ProcessPoolExecutor(a.workers) as pool:
        rows = list(pool.map(one, jobs, chunksize=5))
    for v in a.variants.split(","):
        failed = [r for r in rows if r["variant"] == v and "error" in r]
        for r in failed:
            print(f"{v}: seed {r['seed']} FAILED: {r['error']}")
        rs = [r for r in rows if r["variant"] == v and "error" not in r]
        arrived = sorted(r["arrived"] for r in rs if r["arrived"])
        coal = [r["coal_t"] for r in rs if r["arrived"]]
        action = sum(r["battles"] > 0 for r in rs)
        print(f"{v}: {len(arrived)}/{len(rs)} reach the Dardanelles", end="")
        if arrived:
            print(f"; arrival median {arrived[len(arrived) // 2][:16]}Z (earliest {arrived[0][:16]}, "
                  f"latest {arrived[-1][:16]}); coal then median {statistics.median(coal):.0f} t "
                  f"({min(coal):.0f}-{max(coal):.0f})", end="")
        print(f"; brought to action in {action}/{len(rs)}; sunk in {sum(r['sunk'] for r in rs)}/{len(rs)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
