"""bench/bench_instructions.py's parts that run without valgrind: its seeds' argument and its reading
of callgrind's report."""

from __future__ import annotations

import argparse
import subprocess

import pytest

from tests.conftest import bench_module


@pytest.fixture(scope="module")
def bench():
    with bench_module("bench_instructions") as module:
        yield module


def test_seeds_are_whole_numbers_from_one_none_twice(bench) -> None:
    assert bench._seeds("1,2,3") == (1, 2, 3)
    assert bench._seeds("7") == (7,)
    for bad in ("0,1", "1,1", "a", "1,,2", "-3"):
        with pytest.raises(argparse.ArgumentTypeError):
            bench._seeds(bad)


def test_the_instructions_are_read_from_callgrinds_report(bench, monkeypatch) -> None:
    report = "==5501== Events    : Ir\n==5501== Collected : 32056781734\n==5501==\n==5501== I   refs:      32,056,781,734\n"
    seen: list[list[str]] = []

    def fake_run(cmd, **kwargs):
        seen.append(cmd)
        assert kwargs["env"]["PYTHONHASHSEED"] == bench.HASH_SEED  # every child hashes strings alike
        return subprocess.CompletedProcess(cmd, 0, stdout="8778\n", stderr=report)

    monkeypatch.setattr(bench.subprocess, "run", fake_run)
    assert bench._counted("campaign", "1") == (32056781734, "8778\n")
    assert seen[0][:2] == ["valgrind", "--tool=callgrind"] and seen[0][-3:] == ["--child", "campaign", "1"]
    # Only what runs within itertools.starmap is counted: not the start, the warm-up or the exit.
    assert "--collect-atstart=no" in seen[0] and "--toggle-collect=starmap_next" in seen[0]


def test_only_the_seeds_replicates_run_where_callgrind_counts(bench, monkeypatch, capsys) -> None:
    """The child warms up with seed 0 outside ``itertools.starmap`` and runs the seeds inside it, one call
    a seed, printing each one's SimPy events."""
    from campaign.scenario import loader

    ran: list[tuple[str, int]] = []
    inside = {"now": False}
    real_starmap = bench.itertools.starmap

    def one_replicate(sc, seed):
        ran.append(("counted" if inside["now"] else "not counted", seed))
        return 0.0, 0, 1000 + seed

    def counted_starmap(function, items):
        def each(*args):
            inside["now"] = True
            try:
                return function(*args)
            finally:
                inside["now"] = False
        return real_starmap(each, items)

    with bench_module("bench_run") as bench_run:
        monkeypatch.setattr(bench_run, "one_replicate", one_replicate)
        monkeypatch.setattr(loader, "load_scenario", lambda path: "scenario")
        monkeypatch.setattr(bench.itertools, "starmap", counted_starmap)
        bench._campaign((2, 5))
    assert ran == [("not counted", bench.WARM_SEED), ("counted", 2), ("counted", 5)]
    assert capsys.readouterr().out.split() == ["1002", "1005"]


def test_a_child_that_fails_under_valgrind_stops_the_benchmark_with_its_report(bench, monkeypatch) -> None:
    monkeypatch.setattr(bench.subprocess, "run", lambda cmd, **kw: subprocess.CompletedProcess(
        cmd, 1, stdout="", stderr="Traceback ...\nValueError: boom\n"))
    with pytest.raises(SystemExit, match="boom"):
        bench._counted("simpy", "10")


def test_a_python_without_the_counted_functions_symbol_stops_the_benchmark(bench, monkeypatch) -> None:
    """An interpreter stripped of its symbols (in its executable, as Debian's python3.11, or in its libpython)
    has no ``starmap_next`` for callgrind to toggle on: it counts nothing, and the benchmark says why rather
    than print a replicate of 0 instructions."""
    report = "==5501== Events    : Ir\n==5501== Collected : 0\n"
    monkeypatch.setattr(bench.subprocess, "run", lambda cmd, **kw: subprocess.CompletedProcess(
        cmd, 0, stdout="8778\n", stderr=report))
    with pytest.raises(SystemExit, match="starmap_next"):
        bench._counted("campaign", "1")


def test_nothing_in_the_project_runs_through_itertools_starmap() -> None:
    """Callgrind counts while ``starmap_next`` runs and stops when a call to it returns: a replicate that
    used starmap itself would stop the count inside it."""
    from pathlib import Path

    import campaign

    package = Path(campaign.__file__).parent
    users = [p for p in package.rglob("*.py") if "starmap" in p.read_text(encoding="utf-8")]
    assert list(package.rglob("*.py")) and users == []
