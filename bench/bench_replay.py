"""Benchmark: build the flagship scenario's replay (and GeoPackage) from a run's records.

    python bench/bench_replay.py [SCENARIO.yaml] [--repeat N]
    python bench/bench_replay.py --run OUTDIR [--repeat N]

Prints, from one run of this script: the run's time and the time to build its tracks, then the
replay's build time as a ratio of those, its size, and the GeoPackage's write time and size. With
``--run`` it rebuilds from the files of an earlier run (events.jsonl, summary.json, tracks.nc) instead
of running the scenario. Then the replay's contents: frames, panel lines, sightings, messages and picture
records, and any panel lines the page's size valve left out. The issue asks for the full campaign's
replay in at most 3 s and 10 MB; this script measures, it does not judge.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import json
import re

from campaign.output.gpkg import write_tracks_gpkg
from campaign.output.rebuild import load_run
from campaign.output.replay import build_replay
from campaign.paths import SCENARIO_DIR
from campaign.runner import run


def _timed(fn, repeat: int) -> tuple[float, object]:
    """Median wall time in seconds of ``repeat`` calls, and the last result."""
    times, out = [], None
    for _ in range(repeat):
        t0 = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times), out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("scenario", nargs="?", type=Path, default=SCENARIO_DIR / "goeben_1914.yaml")
    ap.add_argument("--repeat", type=int, default=3, help="builds to take the median of (default 3)")
    ap.add_argument("--run", type=Path, help="rebuild from this earlier run's folder instead of running")
    args = ap.parse_args()

    t0 = time.perf_counter()
    if args.run is not None:
        events, tracks, meta = load_run(args.run)
        name = str(meta.get("name", args.run))
        run_s = time.perf_counter() - t0
        tracks_s = 0.0
    else:
        result = run(args.scenario)
        run_s = time.perf_counter() - t0
        t0 = time.perf_counter()
        tracks = result.tracks
        events = result.events
        tracks_s = time.perf_counter() - t0
        meta = result.meta | {"local_time": dict(result.scenario.local_time)}
        name = result.scenario.name

    # the first build also reads plotly.js from disk; the median covers the steady state
    first_s, _ = _timed(lambda: build_replay(events, tracks, meta), 1)
    build_s, page = _timed(lambda: build_replay(events, tracks, meta), args.repeat)
    size_mb = len(str(page).encode("utf-8")) / 1e6
    with tempfile.TemporaryDirectory() as tmp:
        gpkg_s, path = _timed(lambda: write_tracks_gpkg(Path(tmp) / "tracks.gpkg", events, tracks), 1)
        gpkg_mb = Path(str(path)).stat().st_size / 1e6

    base = run_s + tracks_s
    n_units = tracks.sizes["unit"]
    print(f"scenario {name}: {len(events)} records, {n_units} units, {tracks.sizes['time']} track samples")
    print(f"{'read' if args.run else 'run'} {run_s:.2f} s, tracks {tracks_s:.2f} s (together {base:.2f} s)")
    print(f"replay build {build_s:.2f} s ({build_s / base:.2f} x the run+tracks time; "
          f"first build {first_s:.2f} s), {size_mb:.1f} MB")
    print(f"tracks.gpkg write {gpkg_s:.2f} s ({gpkg_s / base:.2f} x the run+tracks time), {gpkg_mb:.1f} MB")
    data = json.loads(re.search(r'id="replay-data">(.*?)</script>', str(page), re.DOTALL).group(1))
    intel = data["intel"]
    n_pictures = sum(len(p["t"]) for p in intel["pictures"].values())
    print(f"replay: {len(data['frames']['t'])} frames, {len(data['events']['f'])} panel lines, "
          f"{len(intel['contacts']['t0'])} contact segments, {len(intel['messages']['t0'])} messages, "
          f"{n_pictures} picture records in {len(intel['views']) - 1} side views")
    if data["left_out"]:
        print(f"size valve: left out of the panel {data['left_out']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
