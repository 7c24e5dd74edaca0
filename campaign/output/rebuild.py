"""Rebuild a run's replay, GeoPackage, summary and report from the files it wrote, without rerunning it.

``python run_campaign.py replay OUTDIR`` reads ``OUTDIR/events.jsonl``, ``OUTDIR/summary.json`` (the
scenario's name, title, start and end) and ``OUTDIR/tracks.nc`` (rebuilt from the records when it is
missing: every output can be rebuilt from the records), then writes ``replay.html``, ``tracks.gpkg``, ``summary.json`` (rebuilt
from the records with the same run facts) and ``report.md`` beside them, all or none.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import xarray as xr

from campaign.clock import parse_utc
from campaign.output import files
from campaign.output.gpkg import write_tracks_gpkg
from campaign.output.replay import write_replay
from campaign.output.report import write_report
from campaign.output.summary import build_summary
from campaign.output.tracks import UnitInfo, build_tracks


class RunFilesError(ValueError):
    """A run folder that cannot be read back; the message names the file and the fault."""


def _read_events(path: Path) -> list[dict[str, Any]]:
    events = []
    with path.open(encoding="utf-8") as fh:
        for n, line in enumerate(fh, start=1):
            if not line.strip():
                continue
            try:
                rec = json.loads(line)
            except json.JSONDecodeError as exc:
                raise RunFilesError(f"{path}: line {n}: not JSON ({exc.msg})") from None
            if not isinstance(rec, dict) or "t" not in rec or "type" not in rec or "t_min" not in rec:
                raise RunFilesError(f"{path}: line {n}: a record needs 't', 't_min' and 'type'")
            events.append(rec)
    if not events:
        raise RunFilesError(f"{path}: no records")
    return events


def _read_meta(path: Path) -> dict[str, Any]:
    try:
        summary = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise RunFilesError(f"{path}: not JSON ({exc.msg})") from None
    meta = summary.get("scenario") if isinstance(summary, dict) else None
    if not isinstance(meta, dict) or not meta.get("start") or not meta.get("end"):
        raise RunFilesError(f"{path}: field scenario: needs the scenario's 'start' and 'end'")
    for key in ("start", "end"):
        try:
            parse_utc(str(meta[key]))
        except ValueError:
            raise RunFilesError(
                f"{path}: field scenario.{key}: '{meta[key]}' is not an ISO-8601 time") from None
    return meta


def units_from_events(events: list[Mapping[str, Any]]) -> dict[str, UnitInfo]:
    """The units of a run from its records (in order of first appearance), their type, nation and
    bunker capacity from the ship data where the ship is known there."""
    from campaign.model.ships import default_ships

    ships = default_ships()
    units: dict[str, UnitInfo] = {}
    for rec in events:
        name = rec.get("unit")
        if not name or name in units:
            continue
        ship = ships.get(name)
        units[name] = UnitInfo(name, str(rec.get("side") or ""), ship.nation if ship else "",
                               ship.type if ship else "unknown", ship.coal_capacity_t if ship else math.inf)
    return units


def read_tracks(path: Path) -> xr.Dataset:
    """``tracks.nc`` into memory. Times are left undecoded: the replay works in ``t_min``, and files
    written before ``t_min`` had plain units ("minutes since scenario start", not a CF reference date)
    make xarray's time decoding fail."""
    try:
        with xr.open_dataset(path, engine="h5netcdf", decode_times=False) as ds:
            tracks = ds.load()
    except (OSError, ValueError) as exc:
        raise RunFilesError(f"{path}: cannot be read as netCDF ({exc})") from None
    needed = ("lat", "lon", "course_deg", "t_min", "side", "nation", "ship_type")
    missing = [v for v in needed if v not in tracks]
    if missing:
        raise RunFilesError(f"{path}: missing {', '.join(missing)}")
    return tracks


def load_run(outdir: str | Path) -> tuple[list[dict[str, Any]], xr.Dataset, dict[str, Any]]:
    """(events, tracks, scenario meta) of a run folder; RunFilesError names what is missing or bad."""
    out = Path(outdir)
    if not out.is_dir():
        raise RunFilesError(f"{out}: no such folder")
    for name in ("events.jsonl", "summary.json"):
        if not (out / name).is_file():
            raise RunFilesError(f"{out / name}: missing (is {out} the output folder of a run?)")
    events = _read_events(out / "events.jsonl")
    meta = _read_meta(out / "summary.json")
    if (out / "tracks.nc").is_file():
        tracks = read_tracks(out / "tracks.nc")
    else:
        start, end = parse_utc(str(meta["start"])), parse_utc(str(meta["end"]))
        tracks = build_tracks(events, str(meta["start"]), (end - start).total_seconds() / 60.0,
                              units_from_events(events),
                              attrs={k: v for k, v in meta.items() if v is not None})
    return events, tracks, meta


def rebuild_outputs(outdir: str | Path, local_time: Mapping[str, Any] | None = None) -> list[Path]:
    """Write ``replay.html``, ``tracks.gpkg``, ``summary.json`` and ``report.md`` into a run folder from
    its records (all or none). The summary keeps the run's facts (``scenario``) and is rebuilt from the
    records, so its score and measures, and the report built on them, agree with ``events.jsonl``.

    ``local_time`` (``{name, offset_h}``) adds a local clock to the replay and the report when the summary
    does not carry one (take it from the scenario file).
    """
    events, tracks, run_meta = load_run(outdir)
    meta = run_meta
    if local_time and not meta.get("local_time"):
        meta = {**meta, "local_time": dict(local_time)}
    summary = build_summary(events, run_meta)
    writers = {
        "replay.html": lambda p: write_replay(p, events, tracks, meta),
        "tracks.gpkg": lambda p: write_tracks_gpkg(p, events, tracks),
        "summary.json": lambda p: files.write_json(p, summary),
        "report.md": lambda p: write_report(p, events, summary, meta),
    }
    return files.write_all(Path(outdir), writers)
