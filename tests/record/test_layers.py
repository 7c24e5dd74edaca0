"""The record package reads records only: it never imports the world (the layers, README)."""

from __future__ import annotations

import ast
from pathlib import Path

import campaign.record

FORBIDDEN = ("campaign.world", "campaign.runner", "simpy")


def test_the_record_package_does_not_import_the_world() -> None:
    for path in Path(campaign.record.__file__).parent.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else (
                [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
            for name in names:
                assert not name.startswith(FORBIDDEN), f"{path.name} imports {name}"
