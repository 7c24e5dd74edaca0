"""Writing a run's files into its output folder, all or nothing; checking the folder before any work.

A folder that does not exist yet is written whole under a temporary name beside it (``.NAME.*.partial``)
and renamed into place at the end; into a folder that exists, each file is written beside its final
name with a temporary suffix and renamed once every file is complete. An error, Ctrl-C or SIGTERM (which
the command line turns into an exception) removes what was begun, so no half-written set, empty output
folder or ``.partial`` file is ever left; the renames at the end are made with those signals held back.

JSON is written strictly (``allow_nan=False``): a number that is not finite is a fault of the code that
made it, found here rather than by a strict reader downstream; a value that may be missing is written
as null by whoever makes it (:func:`finite_or_none`).

:func:`check_out_dir` says, before a run or a batch begins, whether a folder can take its outputs.
"""

from __future__ import annotations

import json
import math
import os
import shutil
import signal
import tempfile
import threading
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import xarray as xr

from campaign.paths import ROOT

TMP_SUFFIX = ".partial"
# The project's own folders: outputs never go into them (nor into the project's top folder itself).
SOURCE_FOLDERS = ("campaign", "data", "scenarios", "tests", "docs", "tools", "bench", ".git", ".venv")


class OutDirError(ValueError):
    """An output folder that cannot take a command's outputs: the message says why."""


def finite_or_none(value: float | None) -> float | None:
    """A number for JSON: itself if finite, else None (null), for a figure that may be missing."""
    if value is None:
        return None
    value = float(value)
    return value if math.isfinite(value) else None


def _not_finite(obj: Any, where: str = "") -> str | None:
    """Where in ``obj`` a number is not finite (a key path), if anywhere."""
    if isinstance(obj, float) and not math.isfinite(obj):
        return where or "(the value)"
    if isinstance(obj, Mapping):
        return next((w for k, v in obj.items() if (w := _not_finite(v, f"{where}.{k}" if where else str(k)))), None)
    if isinstance(obj, (list, tuple)):
        return next((w for i, v in enumerate(obj) if (w := _not_finite(v, f"{where}[{i}]"))), None)
    return None


def strict_json(obj: Any, **kwargs: Any) -> str:
    """``json.dumps(obj, allow_nan=False, **kwargs)``; its ValueError names the field that is not finite."""
    try:
        return json.dumps(obj, allow_nan=False, **kwargs)
    except ValueError:
        where = _not_finite(obj)
        if where is None:
            raise
        raise ValueError(f"{where} is not a finite number: strict JSON has no NaN or infinity "
                         "(a value that may be missing is written as null)") from None


def jsonl_bytes(rows: Iterable[Mapping[str, Any]]) -> bytes:
    """The rows as JSON Lines, UTF-8: what :func:`write_jsonl` writes (strict JSON)."""
    return "".join(strict_json(row, ensure_ascii=False, separators=(",", ":")) + "\n" for row in rows).encode()


def write_jsonl(path: Path, rows: Iterable[Mapping[str, Any]]) -> None:
    path.write_bytes(jsonl_bytes(rows))


def read_jsonl(path: Path) -> list[dict[str, Any]]:
    with path.open(encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


def write_json(path: Path, obj: Any) -> None:
    path.write_text(strict_json(obj, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")


def write_netcdf(path: Path, ds: xr.Dataset) -> None:
    ds.to_netcdf(path, engine="h5netcdf")


def source_folder(out: Path) -> Path | None:
    """The project folder ``out`` lies in or is (its top folder, or one of :data:`SOURCE_FOLDERS`), if any."""
    real = out.resolve()
    if real == ROOT:
        return ROOT
    for name in SOURCE_FOLDERS:
        folder = ROOT / name
        if real.is_relative_to(folder):
            return folder
    return None


def check_out_dir(out: Path | str) -> Path:
    """``out`` as a folder that can take a command's outputs, or OutDirError saying why not: empty, an
    existing file, under a file, not writable, or inside the project's own folders. Nothing is made."""
    if str(out).strip() == "":
        raise OutDirError("is empty: give a folder, such as outputs/try1")
    out = Path(out)
    if out.exists() and not out.is_dir():
        raise OutDirError(f"{out} exists and is not a folder")
    inside = source_folder(out)
    if inside is not None:
        where = "the project's top folder" if inside == ROOT else f"the project's {inside.name}/ folder"
        raise OutDirError(f"{out} is {'' if out.resolve() == inside else 'inside '}{where}: write outputs "
                          "elsewhere, such as outputs/NAME")
    there = next((p for p in (out, *out.parents) if p.exists()), Path("."))  # the folder it is or would be made in
    if not there.is_dir():
        raise OutDirError(f"{out} cannot be made: {there} is a file, not a folder")
    try:  # a trial, not os.access: a read-only or special file system refuses even root
        os.rmdir(tempfile.mkdtemp(prefix=".write-test-", dir=there))
    except OSError as exc:
        raise OutDirError(f"{out} cannot be written: {there} is not writable ({exc.strerror or exc})") from None
    return out


@contextmanager
def signals_held() -> Iterator[None]:
    """Ctrl-C and SIGTERM held back (delivered on leaving) while a set of files is put in place, so that
    an interrupt cannot leave it half renamed. Only the main thread of a process can hold them."""
    if not hasattr(signal, "pthread_sigmask") or threading.current_thread() is not threading.main_thread():
        yield
        return
    held = {signal.SIGINT, signal.SIGTERM}
    old = signal.pthread_sigmask(signal.SIG_BLOCK, held)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)


def _made_parents(folder: Path) -> list[Path]:
    """Make ``folder``'s missing parents; those made, deepest first (removed again if the write fails)."""
    missing = [p for p in (folder, *folder.parents) if not p.exists()][::-1]
    made = []
    for p in missing:
        p.mkdir()
        made.append(p)
    return made[::-1]


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def write_all(outdir: Path, writers: Mapping[str, Callable[[Path], None]]) -> list[Path]:
    """Run each writer on a temporary path, then move them all into place (see the module's docstring)."""
    outdir = Path(outdir)
    fresh = not outdir.is_dir()
    made: list[Path] = []
    work = outdir
    done: list[tuple[Path, Path]] = []
    try:
        if fresh:
            made = _made_parents(outdir.parent)
            work = Path(tempfile.mkdtemp(prefix=f".{outdir.name}.", suffix=TMP_SUFFIX, dir=outdir.parent))
            work.chmod(0o777 & ~_umask())  # as a folder made with mkdir would be (mkdtemp's is private)
        for name, write in writers.items():
            final = outdir / name
            tmp = work / name if fresh else outdir / (name + TMP_SUFFIX)
            done.append((tmp, final))
            write(tmp)
        with signals_held():
            if fresh:
                os.rename(work, outdir)
            else:
                for tmp, final in done:
                    os.replace(tmp, final)
    except BaseException:
        if fresh:
            shutil.rmtree(work, ignore_errors=True)
            for p in made:  # deepest first; only if still empty
                try:
                    p.rmdir()
                except OSError:
                    break
        else:
            for tmp, _ in done:
                tmp.unlink(missing_ok=True)
        raise
    return [final for _, final in done]
