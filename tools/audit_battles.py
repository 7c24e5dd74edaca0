"""Audit the tactical engines' battles: fight every duel and every what-if that brings battles, under each
engine, for several seeds, and print what the engines should never (or seldom) do, from the records alone
(``campaign.output.battle_audit``): hulls passing through each other, the least clearance between
consorts and between enemies, hits on their own side, moves faster than a ship's sustained speed, ships
re-laid between battles further than they could have steamed, battles drawn off under fire or ended in
their first five minutes, and torpedoes fired end-on.

Usage::

    python tools/audit_battles.py 20                      # 20 seeds of each duel and of each what-if
    python tools/audit_battles.py 20 --campaign-seeds 5   # 20 of each duel, 5 of each what-if
    python tools/audit_battles.py 3 --engines jane --json audit.json   # one engine; the figures as JSON too

Duels: every file in ``scenarios/duels/`` (seeds 0..N-1, ``campaign.duels.duel_records``). What-ifs:
``troubridge_engages`` and ``milne_guards_aegean`` of ``scenarios/goeben_1914.yaml`` (seeds 0..M-1,
``campaign.run``). One table per group, a row per duel or what-if and engine; seeds are plain
integers, as ``--seed`` takes them, so any row reruns by hand.
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import asdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # run as a script from anywhere
    sys.path.insert(0, str(ROOT))

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from campaign.output.battle_audit import AuditSummary, RunAudit, audit_run, summarise
from campaign.tactics.engines import engine_names

DUELS_DIR = ROOT / "scenarios" / "duels"
SCENARIO = ROOT / "scenarios" / "goeben_1914.yaml"
VARIANTS = ("troubridge_engages", "milne_guards_aegean")  # the what-ifs that bring battles

COLUMNS = ("runs", "battles", "pass-\nthroughs", "least clear\nconsorts yd", "least clear\nenemies yd",
           "own-side\nhits", "over-speed\nmoves", "worst\nspeed ratio", "jumps /\nrelays", "worst\njump yd",
           "drawn off\nunder fire", "ended\n< 5 min", "torpedoes\nend-on")


def _num(x: float | None, fmt: str) -> str:
    return "–" if x is None else format(x, fmt)


def row(s: AuditSummary) -> list[str]:
    """A table row of one summary."""
    share = "" if s.own_side_share is None else f" ({s.own_side_share:.1%})"
    return [str(s.runs), str(s.battles), str(s.pass_throughs), _num(s.consort_clearance_yd, ",.0f"),
            _num(s.enemy_clearance_yd, ",.0f"), f"{s.own_side_hits}/{s.hits}{share}", str(s.over_speed_moves),
            _num(s.speed_ratio, ".2f"), f"{s.jumps}/{s.relays}", _num(s.worst_jump_yd, ",.0f"),
            str(s.late_hit_drawn_off), str(s.ended_early), f"{s.torpedoes_end_on}/{s.torpedoes}"]


def table(title: str, rows: dict[tuple[str, str], AuditSummary]) -> Table:
    t = Table(title=title, title_justify="left")
    t.add_column("what")
    t.add_column("engine")
    for c in COLUMNS:
        t.add_column(c, justify="right")
    for (what, engine), s in rows.items():
        t.add_row(what, engine, *row(s))
    return t


def duel_audits(engines: list[str], seeds: int, progress: Progress) -> dict[tuple[str, str], AuditSummary]:
    """Each duel under each engine, ``seeds`` times, summed up; and all duels together per engine."""
    from campaign.duels.duel import load_duel
    from campaign.duels.duel_records import fight_duel_records

    duels = [load_duel(p) for p in sorted(DUELS_DIR.glob("*.yaml"))]
    task = progress.add_task("duels", total=len(duels) * len(engines) * seeds)
    out: dict[tuple[str, str], AuditSummary] = {}
    every: dict[str, list[RunAudit]] = {e: [] for e in engines}
    for duel in duels:
        for engine in engines:
            runs = []
            for seed in range(seeds):
                runs.append(audit_run(fight_duel_records(duel, engine, seed)[1]))
                progress.advance(task)
            every[engine] += runs
            out[(duel.name, engine)] = summarise(runs)
    for engine in engines:
        out[("all duels", engine)] = summarise(every[engine])
    return out


def campaign_audits(engines: list[str], seeds: int, progress: Progress) -> dict[tuple[str, str], AuditSummary]:
    """Each battle-bringing what-if under each engine, ``seeds`` replicates, summed up."""
    from campaign.runner import run
    from campaign.scenario.loader import load_scenario

    task = progress.add_task("what-ifs", total=len(VARIANTS) * len(engines) * seeds)
    out: dict[tuple[str, str], AuditSummary] = {}
    for variant in VARIANTS:
        sc = load_scenario(SCENARIO, variant=variant)
        for engine in engines:
            runs = []
            for seed in range(seeds):
                runs.append(audit_run(run(sc, seed=seed, engine=engine).events))
                progress.advance(task)
            out[(variant, engine)] = summarise(runs)
    return out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("seeds", type=int, help="seeds of each duel under each engine (0..N-1)")
    p.add_argument("--campaign-seeds", type=int, default=None, metavar="M",
                   help="replicates of each what-if under each engine (0..M-1; default N; 0 skips them)")
    p.add_argument("--engines", default=",".join(engine_names()),
                   help="engines, comma-separated (default all)")
    p.add_argument("--json", type=Path, default=None, help="also write the figures to this JSON file")
    args = p.parse_args(argv)
    engines = [e.strip() for e in args.engines.split(",") if e.strip()]
    unknown = [e for e in engines if e not in engine_names()]
    if unknown or args.seeds < 0 or (args.campaign_seeds or 0) < 0:
        p.error(f"unknown engine(s) {', '.join(unknown)}" if unknown else "seeds must be 0 or more")
    campaign_seeds = args.seeds if args.campaign_seeds is None else args.campaign_seeds
    console = Console()
    if not console.is_terminal:  # to a file or a pipe: wide enough for the tables
        console = Console(width=200)
    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                  console=console, transient=True) as progress:
        duels = duel_audits(engines, args.seeds, progress) if args.seeds else {}
        whatifs = campaign_audits(engines, campaign_seeds, progress) if campaign_seeds else {}
    if duels:
        console.print(table(f"Duels, seeds 0-{args.seeds - 1}", duels))
    if whatifs:
        console.print(table(f"What-ifs of {SCENARIO.name}, seeds 0-{campaign_seeds - 1}", whatifs))
    if args.json is not None:
        doc = {"duels": [{"duel": w, "engine": e, **asdict(s), "own_side_share": s.own_side_share}
                         for (w, e), s in duels.items()],
               "whatifs": [{"variant": w, "engine": e, **asdict(s), "own_side_share": s.own_side_share}
                           for (w, e), s in whatifs.items()]}
        args.json.write_text(json.dumps(doc, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
