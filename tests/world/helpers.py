"""Running small scenarios and reading their records."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import shapely

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


def boundary_points(polygons: list[shapely.Geometry]) -> list[tuple[float, float]]:
    """(lat, lon) of every vertex of the polygons, and of points a third and half way along each edge."""
    out = []
    for poly in polygons:
        xy = shapely.get_coordinates(poly)
        out.extend((float(la), float(lo)) for lo, la in xy)
        for (x0, y0), (x1, y1) in zip(xy[:-1], xy[1:]):
            for f in (1.0 / 3.0, 0.5):
                out.append((float(y0 + f * (y1 - y0)), float(x0 + f * (x1 - x0))))
    return out
