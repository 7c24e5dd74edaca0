"""What a replicate's numbers depend on besides its scenario and seed: this program's code and data, and
the libraries it computes them with.

The same scenario and seed give identical records only under the same software. A batch therefore
carries the driver's software with every task, and a worker whose own differs (a job started from
another checkout, a node with another numpy) refuses the task, naming the difference, rather than put
numbers of another model into the Dataset; and the store keeps the batch's software in its identity
(campaign/batch/plan.py), so that a batch resumed after an upgrade is refused, naming what changed,
rather than mixed.

The software is the SHA-256 of every Python file of the package and every file of ``data/``, and the
versions of Python (major.minor) and of the libraries whose results enter the model's numbers
(:data:`MODEL_LIBRARIES`: numpy's random streams may change between its releases, NEP 19; the others
compute geometry, geodesy, roots and the sun and moon). Libraries that only present, store or schedule
(Plotly, xarray, Zarr, Dask) are left out: a new release of them does not change a replicate.
"""

from __future__ import annotations

import functools
import hashlib
import json
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path

from campaign.paths import DATA_DIR

PACKAGE_DIR = Path(__file__).resolve().parents[1]  # campaign/
# The distributions whose results enter a replicate's numbers (pyproject.toml's dependencies).
MODEL_LIBRARIES = ("numpy", "scipy", "shapely", "pyproj", "simpy", "ephem", "PyYAML")
SHOWN = 5  # changed files named in a message; the rest counted


class SoftwareMismatch(RuntimeError):
    """A worker's software differs from the driver's."""


@dataclass(frozen=True)
class Software:
    """A process's code and data (one SHA-256 over every file's) and its libraries' versions."""

    code: str
    versions: tuple[tuple[str, str], ...]  # (name, version), Python first, then MODEL_LIBRARIES

    def as_dict(self) -> dict[str, str]:
        """``{"code": digest, name: version, ...}``; as JSON, the form kept in a store's attributes."""
        return {"code": self.code, **dict(self.versions)}

    def as_json(self) -> str:
        return json.dumps(self.as_dict())

    def differences(self, other: Mapping[str, str], here: str = "here", there: str = "there") -> list[str]:
        """What differs from ``other`` (an :meth:`as_dict`), in words: ``numpy 2.4.6 here, 2.3.1 there``;
        ``this program's code or data`` for the files (named apart: :meth:`change_since`)."""
        mine = self.as_dict()
        out = []
        for name in mine.keys() | other.keys():
            a, b = mine.get(name), other.get(name)
            if a == b:
                continue
            if name == "code":
                out.append("this program's code or data")
            else:
                out.append(f"{name} {a or 'absent'} {here}, {b or 'absent'} {there}")
        return sorted(out)

    def change_since(self, then: Mapping[str, str], then_files: Mapping[str, str]) -> str:
        """What changed from ``then`` (an :meth:`as_dict`, such as a store keeps) to this software, in
        words: the libraries, and the files named from ``then_files`` (their digests then: the store's
        ``software_files``) against this process's. Meant for this process's software."""
        words = [w for w in self.differences(then, "now", "then") if w != "this program's code or data"]
        if then.get("code") != self.code:
            words.append(changed_files(then_files, these_files()) or "this program's code or data")
        return "; ".join(words)


def file_digests(package_dir: Path, data_dir: Path) -> dict[str, str]:
    """SHA-256 of every Python file under ``package_dir`` and every file under ``data_dir``, by path
    relative to their common parent (POSIX form), in order."""
    root = package_dir.parent
    paths = [*package_dir.rglob("*.py"), *(p for p in data_dir.rglob("*") if p.is_file())]
    return {p.relative_to(root).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(paths) if "__pycache__" not in p.relative_to(root).parts}


def code_digest(digests: Mapping[str, str]) -> str:
    """One SHA-256 over the files' paths and digests."""
    h = hashlib.sha256()
    for rel in sorted(digests):
        h.update(f"{rel}\0{digests[rel]}\n".encode())
    return h.hexdigest()


def library_versions() -> tuple[tuple[str, str], ...]:
    """Python's version (major.minor) and each model library's, as installed."""
    out = [("python", f"{sys.version_info.major}.{sys.version_info.minor}")]
    for name in MODEL_LIBRARIES:
        try:
            out.append((name, metadata.version(name)))
        except metadata.PackageNotFoundError:
            out.append((name, "absent"))
    return tuple(out)


@functools.cache
def these_files() -> dict[str, str]:
    """This process's :func:`file_digests`, once (read when first asked: a batch's driver at its start,
    a worker at its first task)."""
    return file_digests(PACKAGE_DIR, DATA_DIR)


@functools.cache
def this_software() -> Software:
    """This process's software, once."""
    return Software(code_digest(these_files()), library_versions())


def changed(then: Mapping[str, str], now: Mapping[str, str]) -> list[str]:
    """The files (relative paths) whose digests differ between two ``{path: SHA-256}``, or that only one
    has, in order."""
    return sorted(r for r in then.keys() | now.keys() if then.get(r) != now.get(r))


def changed_files(then: Mapping[str, str], now: Mapping[str, str]) -> str:
    """The files whose digests differ between two :func:`file_digests`, in words: the first few named,
    the rest counted."""
    names = changed(then, now)
    shown = ", ".join(names[:SHOWN])
    return shown + (f" and {len(names) - SHOWN} more" if len(names) > SHOWN else "")


def check_worker(driver: Software) -> None:
    """SoftwareMismatch unless this worker's software is the driver's."""
    mine = this_software()
    if mine != driver:
        differ = "; ".join(mine.differences(driver.as_dict(), "on the worker", "on the driver"))
        raise SoftwareMismatch(f"this worker's software differs from the driver's ({differ}): install the same "
                               "version of this program and its libraries on every worker")
