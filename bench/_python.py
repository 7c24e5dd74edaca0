"""What a benchmark ran on: the Python interpreter's build, printed beside its figures.

The same code and libraries ran the historical campaign 6-11 % faster on one build of CPython 3.11 than
on another on the same machine (docs/performance.md, "The interpreter"), so figures compare only
between runs on the same build. A build is named by its version, date and compiler, and by where its
core lies: in the executable (a statically linked interpreter, as Debian's ``python3.11``) or in a
shared ``libpython`` (a CPython configured with ``--enable-shared``, pyenv's builds among them).
"""

from __future__ import annotations

import platform
from pathlib import Path

MAPS = Path("/proc/self/maps")  # Linux: the files mapped into this process's memory


def libpython(maps: str | None = None) -> str:
    """Where the running interpreter's core lies: ``"shared library <file name>"`` when a ``libpython``
    is mapped into the process, ``"in the executable"`` when none is (a statically linked interpreter),
    ``"unknown"`` where the memory map cannot be read (not Linux). ``maps``: the text of
    ``/proc/self/maps`` (read when not given)."""
    if maps is None:
        try:
            maps = MAPS.read_text()
        except OSError:
            return "unknown"
    for line in maps.splitlines():
        name = line.rsplit("/", 1)[-1].strip()
        if "/" in line and name.startswith("libpython"):
            return f"shared library {name}"
    return "in the executable"


def interpreter() -> str:
    """One line naming the running interpreter's build, for a benchmark's header."""
    built = " ".join(platform.python_build()[1].split())  # (the date's day is padded with a space)
    return (f"{platform.python_implementation()} {platform.python_version()}, built {built} with "
            f"{platform.python_compiler()}; its core {libpython()}")
