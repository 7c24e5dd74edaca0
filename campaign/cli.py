"""The command line behind ``run_campaign.py``.

    python run_campaign.py SCENARIO.yaml [--seed N] [--out DIR]     run one replicate, write its files
    python run_campaign.py SCENARIO.yaml --variant NAME             run one of its what-ifs
    python run_campaign.py SCENARIO.yaml --set NAME=VALUE [...]     run it at a batch design point
    python run_campaign.py variants SCENARIO.yaml                   list its what-ifs, one line each
    python run_campaign.py validate SCENARIO.yaml                   check a scenario file, run nothing
    python run_campaign.py route FROM TO [--avoid Italy:6] [...]    a sea route's length and waypoints
    python run_campaign.py replay OUTDIR [--scenario FILE]          rebuild replay, GeoPackage, summary, report
    python run_campaign.py compare OUTDIR [--record FILE]           the run beside the historical record
    python run_campaign.py duel DUEL.yaml [--engine E|all] [--runs N] fight a duel, once or many times
    python run_campaign.py batch SCENARIO.yaml [--variants A,B|all] [--runs N] [--seed S] [--workers K]
                               [--scheduler ADDRESS] [--design FILE] [--out DIR]   many replicates, on Dask
    python run_campaign.py analyse DIR                              a batch's estimates, analysis.html

Bad input (a scenario file, a place, an argument, an output folder that cannot be written) prints a
message naming the file or argument, the field and the fault to standard error and exits with status 2,
having written nothing: every command checks all it can before it simulates. Ctrl-C (exit status 130)
or SIGTERM (143) prints one line and leaves nothing half-written. docs/limits.md lists the limits.
"""

from __future__ import annotations

import argparse
import math
import os
import shlex
import signal
import sys
from collections.abc import Sequence
from pathlib import Path

EXIT_BAD_INPUT = 2
EXIT_INTERRUPTED = 130  # 128 + SIGINT, as a shell reports a process stopped by Ctrl-C
EXIT_TERMINATED = 143  # 128 + SIGTERM
# Options of the default command (run): given first, they still mean a run ("--seed 5 SCENARIO").
RUN_OPTIONS = ("--seed", "--out", "--variant", "--engine", "--damage", "--set")
# Duel runs at most: a day or two on one core under the slowest engine (about a second a run), and far
# beyond what a 95 % interval needs; a mistyped --runs (10**9) would otherwise run for decades.
MAX_DUEL_RUNS = 100_000
MAX_WORKERS = 256  # local worker processes at most (a mistyped --workers would start thousands)
MAX_RETRIES = 100
COMMANDS = ("run", "validate", "variants", "route", "replay", "compare", "duel", "batch", "analyse")
ENGINE_CHOICES = ("nwc1905", "jane", "board")
DAMAGE_CHOICES = ("own", "gwas")  # campaign.tactics.gwas.DAMAGE_CHOICES (tests/tactics/test_gwas_engines)


class BadInput(Exception):
    """An error in what the user gave us: reported in one message, exit status 2."""


class Terminated(BaseException):
    """SIGTERM, raised where the process is, so that what was begun is cleaned up as for Ctrl-C."""


def _on_sigterm(signum, frame) -> None:
    raise Terminated()


def _out_dir(text: str | None, default: Path, what: str = "--out") -> Path:
    """The output folder given (``text``) or ``default``, checked before any work
    (campaign/output/files.py ``check_out_dir``)."""
    from campaign.output.files import OutDirError, check_out_dir

    try:
        return check_out_dir(default if text is None else text)
    except OutDirError as exc:
        raise BadInput(f"{what}: {exc}") from None


def _seed(value: int, what: str = "--seed") -> int:
    from campaign.scenario.schema import MAX_SEED

    if not 0 <= value <= MAX_SEED:
        raise BadInput(f"{what}: must be 0 to {MAX_SEED:,} (2**63 - 1, what the outputs can hold), not {value:,}")
    return value


def _count(value: int | None, what: str, high: int, low: int = 1) -> None:
    if value is not None and not low <= value <= high:
        raise BadInput(f"{what}: must be {low} to {high:,}, not {value:,}")


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="run_campaign.py",
        description="Naval campaign simulator: the Mediterranean, August 1914. "
                    "Run a scenario with 'run_campaign.py SCENARIO.yaml', or use a command below.",
        epilog="Examples:\n"
               "  python run_campaign.py scenarios/goeben_1914.yaml\n"
               "  python run_campaign.py scenarios/goeben_1914.yaml --seed 7 --out outputs/try7\n"
               "  python run_campaign.py scenarios/goeben_1914.yaml --variant troubridge_engages\n"
               "  python run_campaign.py variants scenarios/goeben_1914.yaml\n"
               "  python run_campaign.py validate scenarios/goeben_1914.yaml\n"
               "  python run_campaign.py route Messina 'Cape Helles'\n"
               "  python run_campaign.py route Malta 39.0,14.5 --avoid Italy:6\n"
               "  python run_campaign.py replay outputs/goeben_1914\n"
               "  python run_campaign.py compare outputs/goeben_1914\n"
               "  python run_campaign.py duel scenarios/duels/gloucester_vs_breslau.yaml --engine all --runs 200\n"
               "  python run_campaign.py batch scenarios/goeben_1914.yaml --variants all --runs 100\n"
               "  python run_campaign.py analyse outputs/goeben_1914-batch\n",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    sub = p.add_subparsers(dest="command", metavar="COMMAND")

    r = sub.add_parser("run", help="run one replicate of a scenario and write its files (the default command)",
                       description="Run one replicate of a scenario and write events.jsonl, tracks.nc, "
                                   "summary.json, replay.html, tracks.gpkg and report.md into the output folder.")
    r.add_argument("scenario", type=Path, help="scenario file (YAML), e.g. scenarios/goeben_1914.yaml")
    r.add_argument("--seed", type=int, default=None,
                   help="random seed (default: the scenario's own seed, else 0); same seed, same records")
    r.add_argument("--out", default=None,
                   help="output folder (default: outputs/<scenario name>/, or outputs/<scenario>-<variant>/)")
    r.add_argument("--variant", default=None, metavar="NAME",
                   help="run a what-if of the scenario: a name from 'run_campaign.py variants SCENARIO' "
                        "(an overlay file in the scenario's variants/ folder)")
    r.add_argument("--engine", choices=ENGINE_CHOICES, default=None,
                   help="tactical engine for the run's battles (default: the scenario's 'tactics: engine', "
                        "else nwc1905): nwc1905 = Naval War College 1905, jane = Jane's game, board = the "
                        "1914 board game's combat table")
    r.add_argument("--damage", choices=DAMAGE_CHOICES, default=None,
                   help="how the battles' hits do damage (default: the scenario's 'tactics: damage', else each "
                        "engine's own; the board engine's is gwas): own = the engine's rules, gwas = Great War "
                        "at Sea's damage model")
    r.add_argument("--set", action="append", default=[], metavar="PARAMETER=VALUE", dest="parameters",
                   help="set a batch design parameter for this run (repeatable), e.g. sighting_range_factor=1.2: "
                        "reruns one replicate of a design batch exactly; parameters: "
                        "sighting_range_factor, telegraph_delay_factor, goeben_sustained_kn")

    v = sub.add_parser("validate", help="check a scenario file and report every fault; run nothing",
                       description="Check a scenario file's form and meaning (ships, places, times, orders).")
    v.add_argument("scenario", type=Path, help="scenario file (YAML), or a what-if overlay file")
    v.add_argument("--variant", default=None, metavar="NAME", help="check this what-if of the scenario")

    va = sub.add_parser("variants", help="list a scenario's what-ifs, one line each",
                        description="List the what-if overlays of a scenario (the files in its variants/ "
                                    "folder that name it as their base): name, then what it changes.")
    va.add_argument("scenario", type=Path, help="scenario file (YAML), e.g. scenarios/goeben_1914.yaml")

    rt = sub.add_parser("route", help="print the sea route between two places or points",
                        description="Print a sea route's length in nautical miles and its waypoints. FROM and "
                                    "TO are place names from data/places.yaml or 'lat,lon' in decimal degrees.")
    rt.add_argument("origin", metavar="FROM", help="place name or lat,lon")
    rt.add_argument("dest", metavar="TO", help="place name or lat,lon")
    rt.add_argument("--avoid", action="append", default=[], metavar="SOVEREIGN:NM",
                    help="keep out of a sovereign's territorial belt, e.g. Italy:6 (repeatable; the width "
                         "more than 0 and at most 50 nm)")
    rt.add_argument("--ship", default=None,
                    help="route for this ship's beam and draught (decides the Corinth Canal)")

    rp = sub.add_parser(
        "replay", help="rebuild replay.html, tracks.gpkg, summary.json and report.md from a run's files, "
                       "without rerunning it",
        description="Rebuild the animated replay (replay.html, self-contained: open it in any browser, no "
                    "network needed), the GIS export (tracks.gpkg), the summary (summary.json, with its score "
                    "and measures) and the report (report.md) of an earlier run from the files in its output "
                    "folder: events.jsonl and summary.json, and tracks.nc (rebuilt from the events when "
                    "missing). Writes all four files or none.")
    rp.add_argument("outdir", type=Path, metavar="OUTDIR",
                    help="a run's output folder, e.g. outputs/goeben_1914")
    rp.add_argument("--scenario", type=Path, default=None,
                    help="the run's scenario file, to show its declared local time beside UTC")
    c = sub.add_parser(
        "compare", help="a run beside the historical record, event by event; the table into report.md and the replay",
        description="Set each event of the historical record (data/record/<scenario>.yaml: contacts, losses of "
                    "contact, arrivals, messages received, coal, battles or their absence, each with its time, "
                    "place, tolerance and source) beside what the run in OUTDIR did (its events.jsonl and "
                    "summary.json), with the difference and whether it is within tolerance. Inputs (events the "
                    "scenario feeds in) and emergent events (the model's own) are scored apart; the headline is "
                    "the share of emergent events within tolerance. Writes the table into OUTDIR's report.md and "
                    "replay.html (rebuilt from the records).")
    c.add_argument("outdir", type=Path, metavar="OUTDIR", help="a run's output folder, e.g. outputs/goeben_1914")
    c.add_argument("--record", type=Path, default=None, metavar="FILE",
                   help="the record file (default: data/record/<the run's scenario>.yaml)")
    d = sub.add_parser(
        "duel", help="fight a duel file (scenarios/duels/) once, or many times for its odds",
        description="Fight the battle a duel file sets up. Once (--runs 1): print its account and write "
                    "events.jsonl (its records, in a run's schema: engagement_start, the fire, hits and "
                    "the rest, engagement_end, battle_track) and battle.html (the zoomed replay) into --out. "
                    "Many times: print each engine's outcomes (ships sunk, damage, hits, duration, who "
                    "broke off, how it ended), each with its 95 % interval, and write duel.json.")
    d.add_argument("duel", type=Path, help="duel file (YAML), e.g. scenarios/duels/gloucester_vs_breslau.yaml")
    d.add_argument("--engine", choices=ENGINE_CHOICES + ("all",), default=None,
                   help="tactical engine (default: the file's); 'all' fights it under every engine")
    d.add_argument("--damage", choices=DAMAGE_CHOICES, default=None,
                   help="how hits do damage (default: the file's 'damage', else each engine's own; the board "
                        "engine's is gwas): own = the engine's rules, gwas = Great War at Sea's damage model")
    d.add_argument("--runs", type=int, default=1,
                   help=f"how many times to fight it (seeds SEED..SEED+RUNS-1; at most {MAX_DUEL_RUNS:,})")
    d.add_argument("--seed", type=int, default=0, help="first seed (default 0)")
    d.add_argument("--workers", type=int, default=1,
                   help="processes to fight the runs on (default 1); the figures do not depend on it")
    d.add_argument("--out", default=None, help="output folder (default: outputs/duels/<name>/)")
    _batch_parsers(sub)
    return p


def _batch_parsers(sub) -> None:
    """The ``batch`` and ``analyse`` commands (campaign/batch)."""
    b = sub.add_parser(
        "batch", help="run many replicates of a scenario's variants on Dask, results into a Zarr store",
        description="Run RUNS replicates of each variant (base = the scenario itself, always included) and, "
                    "with --design, of each design point, on a Dask LocalCluster of --workers processes or on "
                    "an existing cluster (--scheduler). Replicate r of every variant runs with the same seed "
                    "(common random numbers), derived from --seed and r alone. Results go to "
                    "OUT/results.zarr as they come; run the same command again to resume an interrupted "
                    "batch. Analyse it with 'run_campaign.py analyse OUT'.",
        epilog="Examples:\n"
               "  python run_campaign.py batch scenarios/goeben_1914.yaml --variants all --runs 100\n"
               "  python run_campaign.py batch scenarios/goeben_1914.yaml --variants troubridge_engages "
               "--runs 1000 --seed 1 --workers 2 --out outputs/troubridge\n"
               "  python run_campaign.py batch scenarios/goeben_1914.yaml --variants base --design design.yaml "
               "--runs 50\n"
               "  python run_campaign.py batch scenarios/goeben_1914.yaml --scheduler tcp://scheduler-host:8786\n",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    b.add_argument("scenario", type=Path, help="scenario file (YAML), e.g. scenarios/goeben_1914.yaml")
    b.add_argument("--variants", default="all", metavar="A,B,...|all",
                   help="the what-ifs to run, by name (see 'run_campaign.py variants SCENARIO'), or 'all' "
                        "(default); the base scenario is always run too")
    b.add_argument("--runs", type=int, default=100, help="replicates of each variant (and design point); default 100")
    b.add_argument("--seed", type=int, default=0, help="the batch seed (default 0): every replicate's seed derives "
                                                       "from it and the replicate's number")
    b.add_argument("--workers", type=int, default=None,
                   help="worker processes of the local cluster (default: one per core)")
    b.add_argument("--scheduler", default=None, metavar="ADDRESS",
                   help="run on an existing Dask cluster, e.g. tcp://host:8786 (a dask-jobqueue SLURMCluster's "
                        "scheduler_address serves as well) instead of a local one")
    b.add_argument("--out", default=None, help="output folder (default: outputs/<scenario name>-batch/)")
    b.add_argument("--design", type=Path, default=None, metavar="FILE",
                   help="an experiment design over scenario parameters: a grid or a Latin hypercube "
                        "(campaign/batch/design.py describes the file)")
    b.add_argument("--chunk", type=int, default=None, help="replicates per task (default: runs/32, at most 20)")
    b.add_argument("--engine", choices=ENGINE_CHOICES, default=None,
                   help="tactical engine for every run's battles (default: the scenario's)")
    b.add_argument("--keep-records", action="store_true",
                   help="also write each replicate's events.jsonl under OUT/records/<variant>/<seed>/")
    b.add_argument("--retries", type=int, default=2, help="tries more for a task that fails (default 2)")
    b.add_argument("--no-progress", action="store_true", help="no progress bar")

    a = sub.add_parser(
        "analyse", help="estimates with 95%% confidence intervals per variant, paired differences, analysis.html",
        description="Read a batch's results (DIR/results.zarr) and print, per variant, each measure's estimate "
                    "with its 95 % confidence interval (proportions: Wilson; means: t) and its difference from the "
                    "base paired on common seeds; write DIR/analysis.html (Plotly charts: arrival time and coal, "
                    "escape probability by variant, paired differences, sensitivity to each design parameter) "
                    "and DIR/analysis.json.")
    a.add_argument("outdir", type=Path, metavar="DIR", help="a batch's output folder")
    a.add_argument("--measures", default=None, metavar="A,B,...|all",
                   help="the measures to tabulate (default: the principal ones; 'all': every one)")


def cmd_batch(args: argparse.Namespace) -> int:
    from campaign.batch.bundle import kept_scenario
    from campaign.batch.design import DesignError, load_design
    from campaign.batch.parameters import ParameterError
    from campaign.batch.plan import BASE
    from campaign.batch.run import (
        BatchError,
        ResultsNotWritten,
        SchedulerLost,
        check_scheduler_address,
        make_plan,
        run_batch,
    )
    from campaign.batch.seeds import replicate_seed
    from campaign.batch.store import StoreMismatch, StoreUnreadable, results_path
    from campaign.batch.wording import counted

    _count(args.workers, "--workers", MAX_WORKERS)
    _seed(args.seed)
    if args.workers is not None and args.scheduler:
        raise BadInput("--workers: give the number of local workers or --scheduler, not both")
    if args.scheduler is not None:
        try:
            check_scheduler_address(args.scheduler)
        except BatchError as exc:
            raise BadInput(str(exc)) from None
    _count(args.retries, "--retries", MAX_RETRIES, low=0)
    if args.out is not None:
        _out_dir(args.out, Path())  # an empty or impossible --out is said before the scenario is read
    try:
        design = load_design(args.design) if args.design is not None else None
        plan = make_plan(args.scenario, args.variants, args.runs, args.seed, args.chunk, design, args.engine)
    except (DesignError, ParameterError, BatchError) as exc:
        raise BadInput(str(exc)) from None
    out = _out_dir(args.out, Path("outputs") / f"{plan.scenario_name}-batch")
    print(f"{plan.scenario_name}: {counted(len(plan.variants), 'variant')} x {counted(plan.n_points, 'design point')} "
          f"x {counted(plan.runs, 'replicate')} = {plan.n_replicates}, seed {plan.seed}, "
          f"{counted(plan.chunk, 'replicate')} a task")
    for o in plan.overrides:
        print(f"  note: {o.describe()}")
    try:
        outcome = run_batch(plan, out, workers=args.workers, scheduler=args.scheduler,
                            keep_records=args.keep_records, retries=args.retries, progress=not args.no_progress)
    except (StoreMismatch, StoreUnreadable, BatchError) as exc:
        raise BadInput(str(exc)) from None
    except (KeyboardInterrupt, Terminated) as exc:
        how = "terminated (SIGTERM)" if isinstance(exc, Terminated) else "interrupted (Ctrl-C)"
        print(f"{how}: what was finished is in {results_path(out)}; run the same command again to resume",
              file=sys.stderr)
        return EXIT_TERMINATED if isinstance(exc, Terminated) else EXIT_INTERRUPTED
    except SchedulerLost as exc:
        print(f"error: {exc}; what was finished is in {results_path(out)}; run the same command again, once the "
              "scheduler is back, to resume", file=sys.stderr)
        return 1
    except ResultsNotWritten as exc:
        print(f"error: {exc}; what was written before is kept; mend it (free some space) and run the same command "
              "again to resume", file=sys.stderr)
        return 1
    if outcome.already_done:
        print(f"  resumed: {outcome.already_done} of {counted(outcome.chunks, 'task')} "
              f"{'was' if outcome.already_done == 1 else 'were'} already done")
    if outcome.ran:
        rate = outcome.replicates_run / outcome.elapsed_s if outcome.elapsed_s > 0 else float("nan")
        print(f"  ran {counted(outcome.replicates_run, 'replicate')} in {outcome.elapsed_s:.1f} s on "
              f"{counted(outcome.workers, 'worker')} ({rate:.2f} replicates/s)")
    print(f"  wrote {results_path(out)}")
    example = plan.variants[1] if len(plan.variants) > 1 else BASE
    seed0 = replicate_seed(plan.seed, 0)
    variant_arg = "" if example == BASE else f" --variant {example}"
    # From the files as the batch ran them, kept in its folder: exact whatever becomes of the scenario's own.
    scenario = shlex.quote(str(kept_scenario(plan.files, out) if plan.files is not None else args.scenario))
    print(f"  rerun any replicate exactly: python run_campaign.py {scenario}{variant_arg} --seed {seed0}  "
          f"(replicate 0 of {example}, from the scenario's files as the batch ran them; each replicate's seed is in "
          "the store's 'seed')")
    if plan.design is not None:
        # repr, not a rounded form: a Latin hypercube's values must come back bit for bit.
        sets = " ".join(f"--set {name}={value!r}" for name, value in plan.design.point(0).items())
        print(f"  a design point's replicate: python run_campaign.py {scenario}{variant_arg} --seed {seed0} "
              f"{sets}  (point 0; each point's values are in the store's parameter variables)")
    print(f"  analyse it: python run_campaign.py analyse {out}")
    if outcome.failed:
        for where, error in outcome.failed[:5]:
            print(f"  failed: {where}: {error}", file=sys.stderr)
        print(f"error: {len(outcome.failed)} tasks failed; run the same command again to retry them", file=sys.stderr)
        return 1
    return 0


def cmd_analyse(args: argparse.Namespace) -> int:
    from campaign.batch.analyse import analyse
    from campaign.batch.measures import MEASURE_NAMES

    measures = None
    if args.measures == "all":
        measures = list(MEASURE_NAMES)
    elif args.measures is not None:
        measures = list(dict.fromkeys(m.strip() for m in args.measures.split(",") if m.strip()))
        if not measures:
            raise BadInput(f"--measures: {args.measures!r} names no measure; give names separated by commas, "
                           "or all")
    if args.outdir.is_dir():
        _out_dir(str(args.outdir), args.outdir, "DIR")
    try:
        text, written = analyse(args.outdir, measures)
    except (FileNotFoundError, ValueError) as exc:  # no store, an unreadable one, an unknown measure
        raise BadInput(str(exc)) from None
    except OSError as exc:  # the folder refuses the analysis files
        raise BadInput(f"{args.outdir}: cannot write the analysis ({exc.strerror or exc})") from None
    print(text)
    for path in written:
        print(f"  wrote {path}")
    return 0


def _float(text: str, what: str) -> float:
    """A finite number given as text; BadInput naming ``what`` otherwise (NaN and infinities too)."""
    try:
        value = float(text)
    except ValueError:
        raise BadInput(f"{what}: '{text}' is not a number") from None
    if not math.isfinite(value):
        raise BadInput(f"{what}: '{text}' is not a finite number")
    return value


def cmd_route(args: argparse.Namespace) -> int:
    from campaign.geo.places import default_places, parse_point
    from campaign.geo.regions import sovereigns, territorial_belt
    from campaign.geo.routing import RouteError, Vessel, default_router
    from campaign.model.ships import find_ship
    from campaign.scenario.schema import MAX_BELT_NM

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
        width_nm = _float(width or "6", f"--avoid {item}: the width")
        if not 0 < width_nm <= MAX_BELT_NM:
            raise BadInput(f"--avoid {item}: the width must be more than 0 and at most {MAX_BELT_NM:g} nm, "
                           f"not {width_nm:g}")
        avoid.append(territorial_belt(name, width_nm))
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

    sc = load_scenario(args.scenario, variant=args.variant)
    n_ships = sum(len(f.ships) for f in sc.forces)
    n_orders = sum(len(f.orders) for f in sc.forces)
    print(f"{args.scenario}: valid — '{sc.name}', {len(sc.forces)} forces, {n_ships} ships, {n_orders} orders, "
          f"{sc.start_utc:%Y-%m-%d %H:%M}Z to {sc.end_utc:%Y-%m-%d %H:%M}Z")
    return 0


def cmd_variants(args: argparse.Namespace) -> int:
    from campaign.scenario.loader import read_yaml, scan_variants

    read_yaml(args.scenario)  # a missing or unreadable scenario is reported as such
    found, bad = scan_variants(args.scenario)
    if not found and not bad:
        print(f"{args.scenario}: no what-ifs (none in its variants/ folder)")
        return 0
    width = max((len(o.variant) for o in found), default=0)
    for o in found:
        print(f"{o.variant:<{width}}  {o.summary}")
    for exc in bad:  # the others are listed all the same; each bad file is named with its faults
        print(f"error: {exc} (not listed)", file=sys.stderr)
    return EXIT_BAD_INPUT if bad else 0


def cmd_run(args: argparse.Namespace) -> int:
    from campaign.runner import run
    from campaign.scenario.loader import load_scenario

    if args.seed is not None:
        _seed(args.seed)
    if args.out is not None:
        _out_dir(args.out, Path())  # an empty or impossible --out is said before the scenario is read
    values = _parameter_values(args.parameters)
    sc = load_scenario(args.scenario, variant=args.variant)
    notes = []
    if values:
        from campaign.batch.parameters import ParameterError, apply_parameters, overrides

        try:
            if args.variant is not None:  # a variant's own change that --set replaces is said, as a batch says it
                base = load_scenario(args.scenario)
                notes = [o.describe_set() for o in overrides(args.variant, sc, base, list(values), [values])]
            sc = apply_parameters(sc, values)
        except ParameterError as exc:
            raise BadInput(f"--set: {exc}") from None
    if args.damage is not None:
        from dataclasses import replace

        sc = replace(sc, damage=args.damage)
    out = _out_dir(args.out, Path("outputs") / sc.name)  # checked before the run, not after it
    result = run(sc, seed=args.seed, engine=args.engine, progress=True)
    written = result.write(out)
    n = len(result.records)
    print(f"{sc.name}: seed {result.seed}, {n} events, {sc.start_utc:%Y-%m-%d %H:%M}Z to {sc.end_utc:%Y-%m-%d %H:%M}Z")
    scored = result.summary.get("scoring")
    if scored:
        print(f"  score ({scored['rules']}, stand-in charts): {scored['result']}")
    for note in notes:
        print(f"  note: {note}")
    for path in written:
        print(f"  wrote {path}")
    return 0


def _parameter_values(items: Sequence[str]) -> dict[str, float]:
    """``--set NAME=VALUE`` arguments as {name: value}; BadInput names the faulty one."""
    from campaign.batch.parameters import ParameterError, check_value

    values: dict[str, float] = {}
    for item in items:
        name, eq, text = item.partition("=")
        name = name.strip()
        if not eq or not name:
            raise BadInput(f"--set: '{item}' is not PARAMETER=VALUE")
        value = _float(text.strip(), f"--set {name}")
        try:
            check_value(name, value)
        except ParameterError as exc:
            raise BadInput(f"--set: {exc}") from None
        if name in values:
            raise BadInput(f"--set: {name} is given twice")
        values[name] = value
    return values


def cmd_replay(args: argparse.Namespace) -> int:
    from campaign.output.rebuild import RunFilesError, rebuild_outputs

    if args.outdir.is_dir():
        _out_dir(str(args.outdir), args.outdir, "OUTDIR")  # it must take the rebuilt files
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


def cmd_compare(args: argparse.Namespace) -> int:
    from campaign.output.rebuild import RunFilesError
    from campaign.record.compare import compare_run
    from campaign.record.schema import RecordError

    if args.outdir.is_dir():
        _out_dir(str(args.outdir), args.outdir, "OUTDIR")  # it must take the rewritten report and replay
    try:
        text, written = compare_run(args.outdir, args.record)
    except (RunFilesError, RecordError) as exc:
        raise BadInput(str(exc)) from None
    print(text, end="")
    for path in written:
        print(f"  wrote {path}")
    return 0


def cmd_duel(args: argparse.Namespace) -> int:
    from dataclasses import replace

    from campaign.duels.duel import load_duel
    from campaign.output.duel_report import write_duel_once, write_duel_statistics

    _count(args.runs, "--runs", MAX_DUEL_RUNS)
    _seed(args.seed)
    _seed(args.seed + args.runs - 1, "--seed and --runs: the last seed, SEED + RUNS - 1,")
    _count(args.workers, "--workers", MAX_WORKERS)
    if args.out is not None:
        _out_dir(args.out, Path())
    duel = load_duel(args.duel)
    if args.damage is not None:
        duel = replace(duel, damage=args.damage)
    out = _out_dir(args.out, Path("outputs") / "duels" / duel.name)
    engines = ENGINE_CHOICES if args.engine == "all" else (args.engine or duel.engine,)
    if args.runs == 1 and len(engines) == 1:
        text, written = write_duel_once(duel, engines[0], args.seed, out)
    else:
        text, written = write_duel_statistics(duel, engines, args.runs, args.seed, out, args.workers)
    print(text)
    for path in written:
        print(f"  wrote {path}")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    from campaign.scenario.loader import ScenarioError

    argv = list(sys.argv[1:] if argv is None else argv)
    if argv and argv[0] not in COMMANDS and (not argv[0].startswith("-") or argv[0].split("=")[0] in RUN_OPTIONS):
        argv.insert(0, "run")  # the default command, its options given before the scenario or after it
    parser = _parser()
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help()
        return EXIT_BAD_INPUT
    handlers = {"run": cmd_run, "validate": cmd_validate, "variants": cmd_variants, "route": cmd_route,
                "replay": cmd_replay, "compare": cmd_compare, "duel": cmd_duel, "batch": cmd_batch, "analyse": cmd_analyse}
    handler = handlers[args.command]
    # SIGTERM cleaned up as Ctrl-C is (campaign/output/files.py); the caller's handler back afterwards.
    previous = signal.signal(signal.SIGTERM, _on_sigterm) if threading_main() else None
    try:
        return handler(args)
    except KeyboardInterrupt:
        print("interrupted (Ctrl-C): nothing was written", file=sys.stderr)
        return EXIT_INTERRUPTED
    except Terminated:
        print("terminated (SIGTERM): nothing was written", file=sys.stderr)
        return EXIT_TERMINATED
    except ScenarioError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except BadInput as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except BrokenPipeError:
        # The reader closed the pipe (`... | head`): what it did not read is not wanted. Point standard
        # output at nothing so that the interpreter's last flush does not fail too.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    finally:
        if previous is not None:
            signal.signal(signal.SIGTERM, previous)


def threading_main() -> bool:
    """Is this the main thread (the only one that may set a signal's handler)?"""
    import threading

    return threading.current_thread() is threading.main_thread()
