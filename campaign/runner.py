"""``run(scenario, seed)``: one replicate of a scenario, returning its records, tracks and summary.

Nothing is written unless ``RunResult.write`` is called; the command line and batch runs call the same
function.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any

import xarray as xr

from campaign.clock import Clock
from campaign.output import files
from campaign.output.gpkg import write_tracks_gpkg
from campaign.output.replay import write_replay
from campaign.output.report import write_report
from campaign.output.summary import build_summary
from campaign.output.tracks import UnitInfo, build_tracks
from campaign.progress import simulated_time
from campaign.records import Record
from campaign.scenario.loader import load_scenario
from campaign.scenario.model import Scenario
from campaign.scenario.schema import MAX_SEED
from campaign.world.world import World

DEFAULT_SEED = 0


@dataclass(frozen=True)
class RunResult:
    """The outcome of one run: the scenario, the seed and the records; tracks and summary on demand."""

    scenario: Scenario
    seed: int
    records: tuple[Record, ...]
    units: dict[str, UnitInfo]
    engine: str | None = None  # the tactical engine its battles were fought under (None: the scenario's)

    @property
    def clock(self) -> Clock:
        return Clock(self.scenario.start_utc)

    @cached_property
    def events(self) -> list[dict[str, Any]]:
        """The records as JSON objects, in time order (the lines of ``events.jsonl``)."""
        clock = self.clock
        ordered = sorted(self.records, key=lambda r: r.t_min)  # stable: same-time records keep their order
        iso: dict[float, str] = {}  # many records share an instant: format each instant once
        out = []
        for r in ordered:
            text = iso.get(r.t_min)
            if text is None:
                text = iso[r.t_min] = clock.iso(r.t_min)
            out.append(r.as_json(clock, text))
        return out

    @cached_property
    def tracks(self) -> xr.Dataset:
        sc = self.scenario
        return build_tracks(self.events, self.clock.iso(0.0), sc.duration_min, self.units,
                            attrs=self.meta | {"Conventions": "CF-1.8"})

    @cached_property
    def summary(self) -> dict[str, Any]:
        return build_summary(self.events, self.meta)

    @property
    def meta(self) -> dict[str, Any]:
        """Flat facts about the run (they go into netCDF attributes, so no nested values)."""
        sc = self.scenario
        meta = {"name": sc.name, "title": sc.title, "seed": self.seed, "start": self.clock.iso(0.0),
                "end": self.clock.iso(sc.duration_min), "engine": self.engine or sc.engine}
        if sc.damage is not None:  # how the battles' hits did damage, where the scenario or the run said
            meta["damage"] = sc.damage
        if sc.local_time:
            # The replay shows this clock beside UTC, also when rebuilt from summary.json alone.
            meta["local_time_name"] = str(sc.local_time["name"])
            meta["local_time_offset_h"] = float(sc.local_time["offset_h"])
        if sc.variant is not None:
            meta["variant"] = sc.variant.name
            meta["variant_title"] = sc.variant.title
            meta["base_scenario"] = sc.variant.base
        if sc.scoring is not None:
            meta["scoring"] = sc.scoring
        return meta

    def write(self, outdir: str | Path) -> list[Path]:
        """Write ``events.jsonl``, ``tracks.nc``, ``summary.json``, ``replay.html``, ``tracks.gpkg`` and
        ``report.md`` into ``outdir`` (all or nothing)."""
        out = Path(outdir)
        writers = {
            "events.jsonl": lambda p: files.write_jsonl(p, self.events),
            "tracks.nc": lambda p: files.write_netcdf(p, self.tracks),
            "summary.json": lambda p: files.write_json(p, self.summary),
            "replay.html": lambda p: write_replay(p, self.events, self.tracks, self.meta),
            "tracks.gpkg": lambda p: write_tracks_gpkg(p, self.events, self.tracks),
            "report.md": lambda p: write_report(p, self.events, self.summary, self.meta),
        }
        return files.write_all(out, writers)


def units_of(scenario: Scenario) -> dict[str, UnitInfo]:
    return {sh.name: UnitInfo(sh.name, f.side, sh.nation, sh.type, sh.coal_capacity_t)
            for f in scenario.forces for sh in f.ships}


def run(scenario: Scenario | str | Path, seed: int | None = None, engine: str | None = None,
        progress: bool = False) -> RunResult:
    """Run one replicate. ``scenario`` is a loaded ``Scenario`` or the path of a scenario file;
    ``seed`` defaults to the scenario's own, else 0; ``engine`` names the tactical engine its battles
    are fought under (default: the scenario's). Same scenario, seed and engine give identical records.
    ``progress``: show the simulated time on standard error as it goes (campaign/progress.py)."""
    sc = scenario if isinstance(scenario, Scenario) else load_scenario(scenario)
    if seed is None:
        seed = sc.seed if sc.seed is not None else DEFAULT_SEED
    if not 0 <= seed <= MAX_SEED:
        raise ValueError(f"seed {seed} is outside 0..{MAX_SEED} (what tracks.nc can hold)")
    world = World(sc, seed, engine=engine)
    with simulated_time(sc.name, Clock(sc.start_utc), sc.duration_min, lambda: world.env.now, enabled=progress):
        world.run()
    return RunResult(sc, seed, world.rec.records, units_of(sc), world.engagements.engine_name)
