"""Writing a run's files into its output folder, all or nothing.

Each file is first written beside its final name with a temporary suffix; only when every file is
complete are they renamed into place, so an error never leaves a half-written set.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any

import xarray as xr

TMP_SUFFIX = ".partial"


def jsonl_bytes(rows: Iterable[Mapping[str, Any]]) -> bytes:
    """The rows as JSON Lines, UTF-8: what :func:`write_jsonl` writes."""
    return "".join(json.dumps(row, ensure_ascii=False, separators=(",", ":")) + "\n" for row in rows).encode()


def write_jsonl(path: Path, rows: Iterable[Mapping[str, Any]]) -> None:
    path.write_bytes(jsonl_bytes(rows))


def read_jsonl(path: Path) -> list[dict[str, Any]]:
    with path.open(encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


def write_json(path: Path, obj: Any) -> None:
    path.write_text(json.dumps(obj, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")


def write_netcdf(path: Path, ds: xr.Dataset) -> None:
    ds.to_netcdf(path, engine="h5netcdf")


def write_all(outdir: Path, writers: Mapping[str, Callable[[Path], None]]) -> list[Path]:
    """Run each writer on a temporary path in ``outdir``, then move them all into place."""
    outdir.mkdir(parents=True, exist_ok=True)
    done: list[tuple[Path, Path]] = []
    try:
        for name, write in writers.items():
            final = outdir / name
            tmp = outdir / (name + TMP_SUFFIX)
            done.append((tmp, final))
            write(tmp)
    except BaseException:
        for tmp, _ in done:
            tmp.unlink(missing_ok=True)
        raise
    for tmp, final in done:
        os.replace(tmp, final)
    return [final for _, final in done]
