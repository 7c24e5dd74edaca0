"""Fight every duel under every engine many times and write the odds into ``docs/battles.md``.

Usage::

    python tools/battle_odds.py                      # 1,000 runs of each duel under each engine
    python tools/battle_odds.py --runs 50 --workers 2 --doc battles-draft.md   # a draft page to read first

The section between the page's odds markers (``campaign.output.odds_doc``) is rewritten whole; the
figures are those ``run_campaign.py duel FILE --engine all --runs N --seed S`` prints for each duel.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # run as a script from anywhere
    sys.path.insert(0, str(ROOT))

from campaign.duels.duel import load_duel
from campaign.duels.duel_odds import duel_statistics
from campaign.output.odds_doc import duel_section, odds_block, replace_block
from campaign.tactics.engines import engine_names


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=1000, help="runs of each duel under each engine (default 1000)")
    ap.add_argument("--seed", type=int, default=0, help="first seed (default 0)")
    ap.add_argument("--workers", type=int, default=2, help="processes (default 2)")
    ap.add_argument("--doc", type=Path, default=ROOT / "docs" / "battles.md", help="the page to rewrite")
    args = ap.parse_args(argv)
    if args.runs < 1 or args.seed < 0 or args.workers < 1:
        print("--runs and --workers must be 1 or more, --seed 0 or more", file=sys.stderr)
        return 2
    from rich.progress import Progress

    duels = [load_duel(p) for p in sorted((ROOT / "scenarios" / "duels").glob("*.yaml"))]
    engines = engine_names()
    sections = []
    with Progress(transient=True) as progress:
        task = progress.add_task("duels", total=len(duels) * len(engines))
        for duel in duels:
            stats = []
            for engine in engines:
                progress.update(task, description=f"{duel.name} under {engine}")
                stats.append(duel_statistics(duel, engine, args.runs, args.seed, args.workers))
                progress.advance(task)
            sections.append(duel_section(duel, stats))
    command = "python tools/battle_odds.py" + (f" --runs {args.runs}" if args.runs != 1000 else "") + (
        f" --seed {args.seed}" if args.seed else "")
    page = args.doc.read_text(encoding="utf-8") if args.doc.exists() else ""
    args.doc.write_text(replace_block(page, odds_block(sections, command)), encoding="utf-8")
    print(f"wrote {args.doc}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
