"""Shared fixtures: small scenarios written to temporary files."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml

SIDES = {
    "Central Powers": {"nations": ["Germany", "Austria-Hungary"]},
    "Entente": {"nations": ["United Kingdom", "France"]},
    "Italy": {"nations": ["Italy"], "neutral": True},
}


def scenario_dict(forces: list[dict[str, Any]], *, start: str = "1914-08-02T00:00Z",
                  end: str = "1914-08-06T00:00Z", **extra: Any) -> dict[str, Any]:
    """A scenario file's contents around the given forces."""
    return {"name": "test_scenario", "title": "test", "start": start, "end": end, "sides": SIDES,
            "forces": forces, **extra}


@pytest.fixture
def write_scenario(tmp_path: Path) -> Callable[..., Path]:
    """Write a scenario dict (or YAML text) to a file and return its path."""
    counter = {"n": 0}

    def write(content: dict[str, Any] | str, name: str | None = None) -> Path:
        counter["n"] += 1
        path = tmp_path / (name or f"scenario_{counter['n']}.yaml")
        path.write_text(content if isinstance(content, str) else yaml.safe_dump(content, sort_keys=False))
        return path

    return write
