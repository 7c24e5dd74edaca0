"""Benchmark: a two-hour battle of ten ships under each tactical engine.

    python bench/bench_battle.py [--repeat N]

Five British ships (Indomitable, Indefatigable, Inflexible, Defence, Warrior) against five of the Central
Powers (Goeben, Breslau and three Austro-Hungarian battleships) meet at 14,000 yards and fight for two
hours of battle time (the driver's ends switched off but for the clock, so every engine plays the whole
two hours unless a side is destroyed first). Prints, from one process, per engine: ticks played, the
median CPU time of one battle (this process's, ``time.process_time``: what other processes on the
machine do does not count, as wall time would), the CPU time per tick, how that compares with the
50 ms aim, and the ratio of each engine to the fastest. The 1-minute tick is Jane's move; the NWC 1905 fleet game moves every 2.5
minutes (30 s in a melee); the board game's rounds are its own.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import numpy as np

from campaign.model.ships import find_ship
from campaign.tactics.battle import BattleRun
from campaign.tactics.engines import engine_names, get_engine
from campaign.tactics.helm import default_helm_rules
from campaign.tactics.protocol import BattleSetup, Combatant, Setting

BRITISH = ("Indomitable", "Indefatigable", "Inflexible", "Defence", "Warrior")
CENTRAL = ("Goeben", "Breslau", "Viribus Unitis", "Tegetthoff", "Zrinyi")
BATTLE_S = 2 * 3600.0


def setup() -> BattleSetup:
    ships = []
    for side, names, y0, course in (("Entente", BRITISH, 0.0, 90.0), ("Central", CENTRAL, 14000.0, 90.0)):
        for i, name in enumerate(names):
            try:
                ship = find_ship(name)
            except KeyError:
                continue
            ships.append(Combatant(ship, side, side, -i * 400.0, y0, course, 15.0, ship.sustained_speed_kn,
                                   ship.sustained_speed_kn, flagship=(i == 0)))
    return BattleSetup(tuple(ships), Setting("day", 2, 30000.0, True), {"Entente": "engage", "Central": "engage"})


def one_battle(engine_name: str, seed: int) -> tuple[float, int, int]:
    """(CPU seconds, ticks, events) for two hours of battle (or until a side is destroyed)."""
    rules = replace(default_helm_rules(), break_off_ratio=0.0, no_fire_min=1e9, max_duration_h=BATTLE_S / 3600)
    engine = get_engine(engine_name)
    t0 = time.process_time()
    run = BattleRun(engine, setup(), np.random.default_rng(seed), rules=rules, keep_frames=True)
    ticks = 0
    while run.advance() is not None:
        ticks += 1
    return time.process_time() - t0, ticks, len(run.events)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=20, help="battles per engine (default 20)")
    args = parser.parse_args()
    print(f"10 ships ({len(setup().combatants)} found in data/ships.yaml), 2 hours of battle, {args.repeat} seeds each")
    rows = []
    for name in engine_names():
        one_battle(name, 0)  # warm up (rule files read, caches filled)
        runs = [one_battle(name, s) for s in range(args.repeat)]
        med = statistics.median(r[0] for r in runs)
        ticks = statistics.median(r[1] for r in runs)
        events = statistics.median(r[2] for r in runs)
        rows.append((name, med, ticks, events))
    fastest = min(r[1] for r in rows)
    print(f"{'engine':<10}{'CPU ms':>11}{'ticks':>8}{'ms/tick':>9}{'events':>8}{'vs 50 ms':>10}{'vs fastest':>12}")
    for name, med, ticks, events in rows:
        print(f"{name:<10}{med * 1e3:>11.1f}{ticks:>8.0f}{med * 1e3 / max(ticks, 1):>9.3f}{events:>8.0f}"
              f"{med * 1e3 / 50.0:>9.2f}x{med / fastest:>11.1f}x")


if __name__ == "__main__":
    main()
