"""bench/_python.py: the interpreter's build named in a benchmark's header, its core found in the process's
memory map."""

from __future__ import annotations

import importlib.util
import platform
import sys
from pathlib import Path

import pytest

PATH = Path(__file__).resolve().parents[1] / "bench" / "_python.py"


@pytest.fixture(scope="module")
def bench_python():
    spec = importlib.util.spec_from_file_location("bench_python", PATH)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


SHARED = """\
55d0c0a00000-55d0c0a01000 r--p 00000000 08:01 1 /opt/python/bin/python3.11
7f1c2a000000-7f1c2a400000 r-xp 00100000 08:01 2 /opt/python/lib/libpython3.11.so.1.0
7f1c2b000000-7f1c2b021000 rw-p 00000000 00:00 0
7f1c2c000000-7f1c2c100000 r-xp 00000000 08:01 3 /usr/lib/x86_64-linux-gnu/libm.so.6
"""
STATIC = """\
55d0c0a00000-55d0c0e00000 r-xp 00000000 08:01 1 /usr/bin/python3.11
7f1c2b000000-7f1c2b021000 rw-p 00000000 00:00 0                          [heap]
7f1c2c000000-7f1c2c100000 r-xp 00000000 08:01 3 /usr/lib/x86_64-linux-gnu/libm.so.6
"""


def test_a_mapped_libpython_is_named(bench_python) -> None:
    assert bench_python.libpython(SHARED) == "shared library libpython3.11.so.1.0"


def test_no_libpython_mapped_means_the_core_is_in_the_executable(bench_python) -> None:
    assert bench_python.libpython(STATIC) == "in the executable"


def test_a_folder_named_libpython_is_not_the_library(bench_python) -> None:
    maps = "7f1c2c000000-7f1c2c100000 r-xp 00000000 08:01 3 /opt/libpython-tools/bin/helper\n"
    assert bench_python.libpython(maps) == "in the executable"


def test_an_unreadable_map_is_unknown(bench_python, monkeypatch, tmp_path) -> None:
    monkeypatch.setattr(bench_python, "MAPS", tmp_path / "missing")
    assert bench_python.libpython() == "unknown"


def test_the_line_names_this_interpreter(bench_python) -> None:
    line = bench_python.interpreter()
    assert line.startswith(f"{platform.python_implementation()} {platform.python_version()}, built ")
    assert platform.python_compiler() in line
    assert "  " not in line  # the build date's padded day is closed up
    if sys.platform == "linux":
        assert line.endswith("its core in the executable") or "its core shared library libpython" in line
