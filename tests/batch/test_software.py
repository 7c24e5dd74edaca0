"""The software a replicate's numbers depend on: the program's code and data files and the model's
libraries; a worker with other software refuses a task, naming the difference."""

from __future__ import annotations

import sys
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from campaign.batch.software import (
    MODEL_LIBRARIES,
    Software,
    SoftwareMismatch,
    changed_files,
    check_worker,
    code_digest,
    file_digests,
    this_software,
)


def _tree(root: Path) -> tuple[Path, Path]:
    pkg, data = root / "campaign", root / "data"
    (pkg / "world").mkdir(parents=True)
    (pkg / "__pycache__").mkdir()
    (data / "land").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "world" / "sighting.py").write_text("RANGE_NM = 10\n")
    (pkg / "__pycache__" / "x.py").write_text("compiled")
    (pkg / "notes.txt").write_text("not code")
    (data / "ships.yaml").write_text("Goeben: {speed_kn: 27}\n")
    (data / "land" / "coast.shp").write_bytes(b"\x00\x01")
    return pkg, data


def test_the_code_and_data_files_are_every_python_file_and_every_data_file(tmp_path) -> None:
    pkg, data = _tree(tmp_path)
    digests = file_digests(pkg, data)
    assert list(digests) == ["campaign/__init__.py", "campaign/world/sighting.py", "data/land/coast.shp",
                             "data/ships.yaml"]
    before = code_digest(digests)
    (data / "ships.yaml").write_text("Goeben: {speed_kn: 25}\n")
    after = file_digests(pkg, data)
    assert code_digest(after) != before
    assert changed_files(digests, after) == "data/ships.yaml"
    (pkg / "notes.txt").write_text("edited")  # not code: no change
    assert code_digest(file_digests(pkg, data)) == code_digest(after)


def test_many_changed_files_are_named_a_few_and_counted() -> None:
    then = {f"f{i}.py": "a" for i in range(8)}
    now = {f"f{i}.py": "b" for i in range(8)}
    assert changed_files(then, now) == "f0.py, f1.py, f2.py, f3.py, f4.py and 3 more"


def test_this_processs_software_has_python_and_every_model_library() -> None:
    sw = this_software()
    versions = dict(sw.versions)
    assert list(versions) == ["python", *MODEL_LIBRARIES]
    assert versions["python"] == f"{sys.version_info.major}.{sys.version_info.minor}"
    assert versions["numpy"] == np.__version__
    assert len(sw.code) == 64 and this_software() is sw


def test_a_worker_with_the_drivers_software_runs_and_one_without_says_what_differs() -> None:
    mine = this_software()
    check_worker(mine)
    other = replace(mine, code="0" * 64,
                    versions=tuple((n, "0.0" if n == "numpy" else v) for n, v in mine.versions))
    with pytest.raises(SoftwareMismatch) as err:
        check_worker(other)
    said = str(err.value)
    assert f"numpy {np.__version__} on the worker, 0.0 on the driver" in said
    assert "this program's code or data" in said and "scipy" not in said
    assert Software("c", (("numpy", "1"),)).differences({"code": "c", "numpy": "1", "ephem": "4"}) == [
        "ephem absent here, 4 there"]


def test_a_checkout_in_a_folder_of_any_name_has_its_files_counted(tmp_path) -> None:
    pkg, data = _tree(tmp_path / "__pycache__" / "checkout")  # only the package's own caches are left out
    assert len(file_digests(pkg, data)) == 4
