"""Files a user gives: read within limits, and the files they name kept inside their own folder.

A scenario, overlay, duel or design file is read only if it is a regular file of at most
:data:`MAX_FILE_BYTES` (a device such as ``/dev/zero``, a pipe, a folder or a loop of symbolic links is
refused before a byte is read), as UTF-8 YAML read strictly (``campaign.datafile.load_strict_yaml``).

A file named inside such a file (a scripted-weather file, an overlay's base scenario) resolves only
inside the folders it may come from — the scenario's own folder and the project's ``data/`` — after
every symbolic link is followed (:func:`confined`): a scenario shared by someone else cannot make the
simulator read, or copy into its outputs and a batch's bundle, any other file on the machine.
"""

from __future__ import annotations

import errno
import os
import stat
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import yaml

from campaign.datafile import YamlLimitError, load_strict_yaml

# 80 times the historical scenario (49 kB): a file larger than this is not a scenario.
MAX_FILE_BYTES = 4_000_000


class UserFileError(ValueError):
    """A user's file that cannot be read: ``where`` (a line, or '' for the whole file) and the fault."""

    def __init__(self, path: Path | str, where: str, fault: str) -> None:
        self.path = str(path)
        self.where = where
        self.fault = fault
        super().__init__(f"{self.path}: {where}: {fault}" if where else f"{self.path}: {fault}")


def read_text(path: Path, max_bytes: int = MAX_FILE_BYTES) -> str:
    """The UTF-8 text of a regular file of at most ``max_bytes``; UserFileError naming the fault."""
    try:
        st = os.stat(path)
    except FileNotFoundError:
        raise UserFileError(path, "", "no such file") from None
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise UserFileError(path, "", "a loop of symbolic links, not a file") from None
        raise UserFileError(path, "", f"cannot read the file ({exc.strerror or exc})") from None
    if stat.S_ISDIR(st.st_mode):
        raise UserFileError(path, "", "is a folder, not a file")
    if not stat.S_ISREG(st.st_mode):
        raise UserFileError(path, "", "is not a regular file (a device or a pipe): give a YAML file")
    if st.st_size > max_bytes:
        raise UserFileError(path, "", f"is {st.st_size:,} bytes, more than the {max_bytes:,} a file here may have")
    try:
        with open(path, "rb") as fh:
            data = fh.read(max_bytes + 1)
    except OSError as exc:
        raise UserFileError(path, "", f"cannot read the file ({exc.strerror or exc})") from None
    if len(data) > max_bytes:  # (it grew since it was looked at)
        raise UserFileError(path, "", f"is more than the {max_bytes:,} bytes a file here may have")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise UserFileError(path, "", f"is not UTF-8 text (byte {exc.start} cannot be read)") from None


def read_yaml(path: Path) -> Any:
    """The YAML document in a user's file, read within the limits; UserFileError naming the line and fault."""
    text = read_text(path)
    try:
        return load_strict_yaml(text)
    except YamlLimitError as exc:
        raise UserFileError(path, f"line {exc.line}" if exc.line else "", exc.fault) from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f"line {mark.line + 1}, column {mark.column + 1}" if mark else ""
        problem = getattr(exc, "problem", None) or str(exc)
        raise UserFileError(path, where, f"not valid YAML: {problem}") from None


def confined(reference: str, roots: Sequence[Path]) -> Path | None:
    """The file ``reference`` names (relative to each of ``roots`` in turn, or absolute), once every
    symbolic link is followed, if it lies inside one of ``roots``; None if there is no such file.

    ValueError (its message says why) for a name that leads outside every root, by an absolute path, by
    '..' or by a symbolic link: a file outside may not be read, whether it exists or not."""
    reals = [r.resolve() for r in roots]
    outside = False
    for real in reals:
        candidate = (real / reference).resolve()  # an absolute reference stays itself
        if not any(candidate.is_relative_to(r) for r in reals):
            outside = True
            continue
        if candidate.is_file():
            return candidate
    if outside:
        raise ValueError(f"'{reference}' leads outside the scenario's folder and the project's data/ (by an "
                         "absolute path, '..' or a symbolic link): a file named in a scenario must lie inside them")
    return None
