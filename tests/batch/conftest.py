"""Shared fixtures of the batch tests: a small two-force scenario with what-ifs, a Dask cluster kept for
the session, and one reference batch run on it.

The scenario: Goeben steams east across the Ionian Sea at 16 kn and Gloucester west on the same line;
both may fire and mean to engage, under the board game's quick table, for 20 hours. Its replicates take
tens of milliseconds and differ with the seed (the combat dice, the weather). Its what-ifs: ``same``
(a note added to a force: changes nothing), ``faster`` (Gloucester at 20 kn).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
import yaml

from tests.conftest import scenario_dict

RUNS = 20
SEED = 7
CHUNK = 4  # replicates a task in the reference batch: 15 tasks
GOEBEN = {"name": "Goeben", "side": "Central Powers", "ships": ["Goeben"], "start": {"lat": 36.0, "lon": 16.0},
          "orders": [{"do": "sail", "to": {"lat": 36.0, "lon": 21.0}, "speed": 16}]}
GLOUCESTER = {"name": "Gloucester", "side": "Entente", "ships": ["Gloucester"],
              "start": {"lat": 36.02, "lon": 18.5},
              "orders": [{"do": "sail", "to": {"lat": 36.0, "lon": 15.0}, "speed": 14}]}
OVERLAYS = {
    "same": {"variant": "same", "base": "../small.yaml", "title": "The same", "summary": "A note: no change.",
             "changes": {"forces": {"change": {"Goeben": {"note": "a note changes nothing"}}}}},
    "faster": {"variant": "faster", "base": "../small.yaml", "title": "Gloucester faster",
               "summary": "Gloucester at 20 kn.",
               "changes": {"forces": {"change": {"Gloucester": {
                   "orders": [{"do": "sail", "to": {"lat": 36.0, "lon": 15.0}, "speed": 20}]}}}}},
}


def small_scenario() -> dict:
    return scenario_dict(
        [GOEBEN, GLOUCESTER], start="1914-08-02T00:00Z", end="1914-08-02T20:00Z",
        politics=[{"at": "1914-08-02T00:00Z", "war": ["United Kingdom", "Germany"]}],
        command={"standing": {"Gloucester": {"on_contact": "engage", "may_fire": True},
                              "Goeben": {"on_contact": "engage", "may_fire": True}}},
        tactics={"engine": "board"}, scoring={"rules": "seed000"})


def write_small(folder: Path) -> Path:
    """The small scenario and its two overlays, written into ``folder``; the scenario's path."""
    (folder / "variants").mkdir(parents=True, exist_ok=True)
    path = folder / "small.yaml"
    path.write_text(yaml.safe_dump(small_scenario(), sort_keys=False))
    for name, overlay in OVERLAYS.items():
        (folder / "variants" / f"{name}.yaml").write_text(yaml.safe_dump(overlay, sort_keys=False))
    return path


@pytest.fixture(scope="session")
def small(tmp_path_factory) -> Path:
    return write_small(tmp_path_factory.mktemp("small"))


@pytest.fixture(scope="session")
def cluster() -> Iterator[str]:
    """A two-worker LocalCluster for the session; its scheduler's address (batches reach it as an
    existing cluster, with --scheduler)."""
    from distributed import LocalCluster

    from campaign.batch.run import LOCAL_QUIET

    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, **LOCAL_QUIET) as c:
        yield c.scheduler_address


@pytest.fixture(scope="session")
def reference(small, cluster, tmp_path_factory) -> Path:
    """The 20-replicate batch of the small scenario and its what-ifs, on the two-worker cluster."""
    from campaign.batch.run import make_plan, run_batch

    out = tmp_path_factory.mktemp("reference")
    outcome = run_batch(make_plan(small, "all", RUNS, SEED, CHUNK), out, scheduler=cluster, progress=False,
                        keep_records=True)
    assert outcome.complete and not outcome.failed
    return out
