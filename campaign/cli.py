"""The command line behind ``run_campaign.py``.

    python run_campaign.py SCENARIO.yaml [--seed N] [--out DIR]     run one replicate, write its files
    python run_campaign.py validate SCENARIO.yaml                   check a scenario file, run nothing
    python run_campaign.py route FROM TO [--avoid Italy:6] [...]    a sea route's length and waypoints
    python run_campaign.py replay OUTDIR [--scenario FILE]          rebuild replay.html and tracks.gpkg
    python run_campaign.py duel DUEL.yaml [--engine E|all] [--runs N] fight a duel, once or many times

Bad input (a scenario file, a place, an argument) prints a message naming the file, the field and the
fault to standard error and exits with status 2, having written nothing.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

EXIT_BAD_INPUT = 2
COMMANDS = ("run", "validate", "route", "replay", "duel")
ENGINE_CHOICES = ("nwc1905", "jane", "board")


class BadInput(Exception):
    """An error in what the user gave us: reported in one message, exit status 2."""


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="run_campaign.py",
        description="Naval campaign simulator: the Mediterranean, August 1914. "
                    "Run a scenario with 'run_campaign.py SCENARIO.yaml', or use a command below.",
        epilog="Examples:\n"
               "  python run_campaign.py scenarios/goeben_1914.yaml\n"
               "  python run_campaign.py scenarios/goeben_1914.yaml --seed 7 --out outputs/try7\n"
               "  python run_campaign.py validate scenarios/goeben_1914.yaml\n"
               "  python run_campaign.py route Messina 'Cape Helles'\n"
               "  python run_campaign.py route Malta 39.0,14.5 --avoid Italy:6\n"
               "  python run_campaign.py replay outputs/goeben_1914\n"
               "  python run_campaign.py duel scenarios/duels/gloucester_vs_breslau.yaml --engine all --runs 200\n",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    sub = p.add_subparsers(dest="command", metavar="COMMAND")

    r = sub.add_parser("run", help="run one replicate of a scenario and write its files (the default command)",
                       description="Run one replicate of a scenario and write events.jsonl, tracks.nc, "
                                   "summary.json, replay.html and tracks.gpkg into the output folder.")
    r.add_argument("scenario", type=Path, help="scenario file (YAML), e.g. scenarios/goeben_1914.yaml")
    r.add_argument("--seed", type=int, default=None,
                   help="random seed (default: the scenario's own seed, else 0); same seed, same records")
    r.add_argument("--out", type=Path, default=None,
                   help="output folder (default: outputs/<scenario name>/)")
    r.add_argument("--engine", choices=ENGINE_CHOICES, default=None,
                   help="tactical engine for the run's battles (default: the scenario's 'tactics: engine', "
                        "else nwc1905): nwc1905 = Naval War College 1905, jane = Jane's game, board = the "
                        "1914 board game's combat table")

    v = sub.add_parser("validate", help="check a scenario file and report every fault; run nothing",
                       description="Check a scenario file's form and meaning (ships, places, times, orders).")
    v.add_argument("scenario", type=Path, help="scenario file (YAML)")

    rt = sub.add_parser("route", help="print the sea route between two places or points",
                        description="Print a sea route's length in nautical miles and its waypoints. FROM and "
                                    "TO are place names from data/places.yaml or 'lat,lon' in decimal degrees.")
    rt.add_argument("origin", metavar="FROM", help="place name or lat,lon")
    rt.add_argument("dest", metavar="TO", help="place name or lat,lon")
    rt.add_argument("--avoid", action="append", default=[], metavar="SOVEREIGN:NM",
                    help="keep out of a sovereign's territorial belt, e.g. Italy:6 (repeatable)")
    rt.add_argument("--ship", default=None,
                    help="route for this ship's beam and draught (decides the Corinth Canal)")

    rp = sub.add_parser(
        "replay", help="rebuild replay.html and tracks.gpkg from a run's files, without rerunning it",
        description="Rebuild the animated replay (replay.html, self-contained: open it in any browser, no "
                    "network needed) and the GIS export (tracks.gpkg) of an earlier run from the files in "
                    "its output folder: events.jsonl and summary.json, and tracks.nc (rebuilt from the "
                    "events when missing). Writes both files or neither.")
    rp.add_argument("outdir", type=Path, metavar="OUTDIR",
                    help="a run's output folder, e.g. outputs/goeben_1914")
    rp.add_argument("--scenario", type=Path, default=None,
                    help="the run's scenario file, to show its declared local time beside UTC")
    d = sub.add_parser(
        "duel", help="fight a duel file (scenarios/duels/) once, or many times for its odds",
        description="Fight the battle a duel file sets up. Once (--runs 1): print its account and write "
                    "battle.html (the zoomed replay) and battle_events.jsonl into --out. Many times: print "
                    "each engine's outcomes (ships sunk, damage, duration, who broke off) and write duel.json.")
    d.add_argument("duel", type=Path, help="duel file (YAML), e.g. scenarios/duels/gloucester_vs_breslau.yaml")
    d.add_argument("--engine", choices=ENGINE_CHOICES + ("all",), default=None,
                   help="tactical engine (default: the file's); 'all' fights it under every engine")
    d.add_argument("--runs", type=int, default=1, help="how many times to fight it (seeds SEED..SEED+RUNS-1)")
    d.add_argument("--seed", type=int, default=0, help="first seed (default 0)")
    d.add_argument("--out", type=Path, default=None, help="output folder (default: outputs/duels/<name>/)")
    return p


def _float(text: str, what: str) -> float:
    try:
        return float(text)
    except ValueError:
        raise BadInput(f"{what}: '{text}' is not a number") from None


def cmd_route(args: argparse.Namespace) -> int:
    from campaign.geo.places import default_places, parse_point
    from campaign.geo.regions import sovereigns, territorial_belt
    from campaign.geo.routing import RouteError, Vessel, default_router
    from campaign.model.ships import find_ship

    places = default_places()
    ends = []
    for label, text in (("FROM", args.origin), ("TO", args.dest)):
        try:
            ends.append(parse_point(text, places))
        except (KeyError, ValueError) as exc:
            raise BadInput(f"{label}: {exc.args[0] if exc.args else exc}") from None
    avoid = []
    for item in args.avoid:
        name, _, width = item.partition(":")
        if name not in sovereigns():
            raise BadInput(f"--avoid: unknown sovereign '{name}' (known: {', '.join(sorted(sovereigns()))})")
        avoid.append(territorial_belt(name, _float(width or "6", "--avoid width")))
    vessel = None
    if args.ship:
        try:
            ship = find_ship(args.ship)
        except KeyError as exc:
            raise BadInput(f"--ship: {exc.args[0]}") from None
        vessel = Vessel(ship.beam_m, ship.draught_m)
    try:
        route = default_router().route(ends[0][:2], ends[1][:2], avoid=tuple(avoid), vessel=vessel)
    except RouteError as exc:
        raise BadInput(f"no route: {exc}") from None
    print(f"{route.length_nm:.1f} nm")
    names = {0: ends[0][2], len(route.lats) - 1: ends[1][2]}
    for i, (lat, lon) in enumerate(route.waypoints):
        label = f"  {names[i]}" if names.get(i) else ""
        print(f"{lat:9.4f} {lon:9.4f}  {route.cum_nm[i]:7.1f} nm{label}")
    if route.passages:
        print("through: " + ", ".join(route.passages))
    return 0


def cmd_validate(args: argparse.Namespace) -> int:
    from campaign.scenario.loader import load_scenario

    sc = load_scenario(args.scenario)
    n_ships = sum(len(f.ships) for f in sc.forces)
    n_orders = sum(len(f.orders) for f in sc.forces)
    print(f"{args.scenario}: valid — '{sc.name}', {len(sc.forces)} forces, {n_ships} ships, {n_orders} orders, "
          f"{sc.start_utc:%Y-%m-%d %H:%M}Z to {sc.end_utc:%Y-%m-%d %H:%M}Z")
    return 0


def cmd_run(args: argparse.Namespace) -> int:
    from campaign.runner import run
    from campaign.scenario.loader import load_scenario

    if args.seed is not None and args.seed < 0:
        raise BadInput(f"--seed: must be 0 or more, not {args.seed}")
    sc = load_scenario(args.scenario)
    result = run(sc, seed=args.seed, engine=args.engine)
    out = args.out or Path("outputs") / sc.name
    if out.exists() and not out.is_dir():
        raise BadInput(f"--out: {out} exists and is not a folder")
    written = result.write(out)
    n = len(result.records)
    print(f"{sc.name}: seed {result.seed}, {n} events, {sc.start_utc:%Y-%m-%d %H:%M}Z to {sc.end_utc:%Y-%m-%d %H:%M}Z")
    for path in written:
        print(f"  wrote {path}")
    return 0


def cmd_replay(args: argparse.Namespace) -> int:
    from campaign.output.rebuild import RunFilesError, rebuild_outputs

    local_time = None
    if args.scenario is not None:
        from campaign.scenario.loader import load_scenario

        local_time = load_scenario(args.scenario).local_time or None
    try:
        written = rebuild_outputs(args.outdir, local_time=local_time)
    except RunFilesError as exc:
        raise BadInput(str(exc)) from None
    for path in written:
        print(f"  wrote {path}")
    return 0


def cmd_duel(args: argparse.Namespace) -> int:
    from campaign.output.duel_report import write_duel_once, write_duel_statistics
    from campaign.tactics.duel import load_duel

    if args.runs < 1:
        raise BadInput(f"--runs: must be 1 or more, not {args.runs}")
    if args.seed < 0:
        raise BadInput(f"--seed: must be 0 or more, not {args.seed}")
    duel = load_duel(args.duel)
    out = args.out or Path("outputs") / "duels" / duel.name
    if out.exists() and not out.is_dir():
        raise BadInput(f"--out: {out} exists and is not a folder")
    engines = ENGINE_CHOICES if args.engine == "all" else (args.engine or duel.engine,)
    if args.runs == 1 and len(engines) == 1:
        text, written = write_duel_once(duel, engines[0], args.seed, out)
    else:
        text, written = write_duel_statistics(duel, engines, args.runs, args.seed, out)
    print(text)
    for path in written:
        print(f"  wrote {path}")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    from campaign.scenario.loader import ScenarioError

    argv = list(sys.argv[1:] if argv is None else argv)
    if argv and argv[0] not in COMMANDS and not argv[0].startswith("-"):
        argv.insert(0, "run")
    parser = _parser()
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help()
        return EXIT_BAD_INPUT
    handlers = {"run": cmd_run, "validate": cmd_validate, "route": cmd_route, "replay": cmd_replay,
                "duel": cmd_duel}
    handler = handlers[args.command]
    try:
        return handler(args)
    except ScenarioError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except BadInput as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
