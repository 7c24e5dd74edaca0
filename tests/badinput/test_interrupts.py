"""An interrupted command leaves nothing behind: Ctrl-C (SIGINT) or SIGTERM during a run prints one line and
exits 130 or 143 with no output folder, no temporary one and no ``.partial`` file; a set of files
interrupted while written is removed, and an existing set kept as it was."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from campaign.output.files import write_all
from campaign.paths import ROOT, SCENARIO_DIR

# As at a terminal: SIGINT raises KeyboardInterrupt even where the test runner's parent ignores it.
AT_A_TERMINAL = ("import runpy, signal, sys; signal.signal(signal.SIGINT, signal.default_int_handler); "
                 "sys.argv = sys.argv[1:]; runpy.run_path(sys.argv[0], run_name='__main__')")


def started(*argv: str, cwd: Path) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-c", AT_A_TERMINAL, str(ROOT / "run_campaign.py"), *argv], cwd=cwd,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


@pytest.mark.parametrize("sig, code, words", [(signal.SIGINT, 130, "interrupted (Ctrl-C): nothing was written"),
                                              (signal.SIGTERM, 143, "terminated (SIGTERM): nothing was written")])
def test_a_run_interrupted_leaves_nothing_behind(tmp_path, sig, code, words) -> None:
    out = tmp_path / "runs" / "historical"
    proc = started(str(SCENARIO_DIR / "goeben_1914.yaml"), "--out", str(out), cwd=tmp_path)
    try:
        lines = [proc.stderr.readline()]  # the run says when it starts simulating (not at a terminal: a line)
        while lines[-1] and "simulating" not in lines[-1]:  # (after building the route graph, the first time)
            lines.append(proc.stderr.readline())
        assert "simulating" in lines[-1], "".join(lines) + proc.stderr.read()
        time.sleep(1.0)
        proc.send_signal(sig)
        _, err = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == code, err
    assert err.strip().splitlines() == [words], err  # one line, no traceback
    assert not list(tmp_path.rglob("*")), list(tmp_path.rglob("*"))  # not even the runs/ folder above it


def _writers(stop_at: str | None, sig: type[BaseException] = KeyboardInterrupt):
    def writer(name: str):
        def write(path: Path) -> None:
            path.write_text(f"new {name}\n")
            if name == stop_at:
                raise sig()
        return write

    return {name: writer(name) for name in ("events.jsonl", "tracks.nc", "summary.json")}


def test_a_new_folder_interrupted_while_written_is_not_left(tmp_path) -> None:
    with pytest.raises(KeyboardInterrupt):
        write_all(tmp_path / "a" / "b" / "out", _writers("tracks.nc"))
    assert not list(tmp_path.iterdir())
    assert write_all(tmp_path / "out", _writers(None))
    assert sorted(p.name for p in tmp_path.rglob("*")) == ["events.jsonl", "out", "summary.json", "tracks.nc"]
    assert (os.stat(tmp_path / "out").st_mode & 0o777) == (0o777 & ~_umask())  # as mkdir would have made it


def test_an_existing_folder_interrupted_while_written_keeps_its_files(tmp_path) -> None:
    out = tmp_path / "out"
    write_all(out, {name: (lambda p: p.write_text("old\n")) for name in ("events.jsonl", "tracks.nc", "summary.json")})
    with pytest.raises(SystemExit):
        write_all(out, _writers("summary.json", SystemExit))
    assert sorted(p.name for p in out.iterdir()) == ["events.jsonl", "summary.json", "tracks.nc"]
    assert {p.read_text() for p in out.iterdir()} == {"old\n"}


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask
