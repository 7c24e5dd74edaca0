"""Running small scenarios and reading their records."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from campaign.runner import RunResult, run
from campaign.scenario.loader import load_scenario


def run_file(path: Path, seed: int = 0) -> RunResult:
    return run(load_scenario(path), seed=seed)


def records(result: RunResult, unit: str | None = None, type_: str | None = None) -> list[dict[str, Any]]:
    return [e for e in result.events
            if (unit is None or e.get("unit") == unit) and (type_ is None or e["type"] == type_)]


def one(result: RunResult, unit: str, type_: str) -> dict[str, Any]:
    found = records(result, unit, type_)
    assert len(found) == 1, f"{unit} {type_}: {len(found)} records"
    return found[0]
