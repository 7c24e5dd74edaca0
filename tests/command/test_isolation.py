"""Decision code has no route to the world: by its imports, and by what a view holds."""

from __future__ import annotations

import ast
import dataclasses
from pathlib import Path

import campaign.command as command_pkg
from campaign.scenario.loader import load_scenario
from campaign.world.conditions import ClearDay
from campaign.world.world import World
from tests.conftest import scenario_dict

PKG = Path(command_pkg.__file__).parent
FORBIDDEN = ("campaign.world", "campaign.runner", "campaign.scenario", "campaign.output", "simpy")
LEAVES = (int, float, str, bool, type(None))


def test_the_command_package_imports_nothing_of_the_world() -> None:
    for path in PKG.glob("*.py"):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                names = [node.module or ""]
            for name in names:
                assert not name.startswith(FORBIDDEN), f"{path.name} imports {name}"


def walk(obj, path="view", seen=None):
    """Every value reachable from a view, with its path; fails on anything that is not plain data."""
    seen = set() if seen is None else seen
    if isinstance(obj, LEAVES):
        return
    if id(obj) in seen:
        return
    seen.add(id(obj))
    mod = type(obj).__module__
    if dataclasses.is_dataclass(obj):
        assert mod.startswith(("campaign.command", "campaign.model.orders")), f"{path}: {type(obj)}"
        assert type(obj).__dataclass_params__.frozen, f"{path}: {type(obj).__name__} is not frozen"
        for f in dataclasses.fields(obj):
            walk(getattr(obj, f.name), f"{path}.{f.name}", seen)
    elif isinstance(obj, (tuple, frozenset)):
        for i, v in enumerate(obj):
            walk(v, f"{path}[{i}]", seen)
    else:
        raise AssertionError(f"{path}: {type(obj).__module__}.{type(obj).__name__} is not plain data")


def test_a_view_holds_plain_frozen_data_only(write_scenario) -> None:
    content = scenario_dict([
        {"name": "Goeben", "side": "Central Powers", "ships": ["Goeben"], "start": {"lat": 36.0, "lon": 16.0},
         "orders": [{"do": "sail", "to": {"lat": 36.0, "lon": 21.0}, "speed": 18}]},
        {"name": "Gloucester", "side": "Entente", "ships": ["Gloucester"], "start": {"lat": 36.1, "lon": 16.8},
         "orders": [{"do": "stop"}]},
    ], start="1914-08-02T00:00Z", end="1914-08-02T06:00Z")
    content["command"] = {"standing": {"Gloucester": {"on_contact": "shadow", "base": "Valletta"}}}
    world = World(load_scenario(write_scenario(content)), 0, conditions=ClearDay())
    world.run()
    node = world.command.nodes["Gloucester"]
    assert node.picture.reports()  # she has seen something, so the view is not trivially empty
    walk(world.command.view(node))
