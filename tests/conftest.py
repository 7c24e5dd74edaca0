"""Shared fixtures: small scenarios written to temporary files; the benchmarks loaded as modules."""

from __future__ import annotations

import importlib.util
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
import yaml
from hypothesis import settings

# Property tests draw the same examples on every run, as everything else here is reproducible: a
# failure is the code's, never the draw's. `pytest --hypothesis-profile explore` draws fresh examples
# each run to hunt for new counter-examples; whatever it finds becomes an @example in the test.
settings.register_profile("repeatable", derandomize=True)
settings.register_profile("explore", derandomize=False, database=None)
settings.load_profile("repeatable")

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


BENCH_DIR = Path(__file__).resolve().parents[1] / "bench"


@contextmanager
def bench_module(name: str) -> Iterator[ModuleType]:
    """``bench/<name>.py`` loaded as a module (the benchmarks are scripts, not a package), registered in
    ``sys.modules`` while in use (a dataclass in it looks its module up there), then removed."""
    spec = importlib.util.spec_from_file_location(name, BENCH_DIR / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
        yield module
    finally:
        del sys.modules[name]
