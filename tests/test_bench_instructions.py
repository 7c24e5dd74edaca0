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


def test_a_child_that_fails_under_valgrind_stops_the_benchmark_with_its_report(bench, monkeypatch) -> None:
    monkeypatch.setattr(bench.subprocess, "run", lambda cmd, **kw: subprocess.CompletedProcess(
        cmd, 1, stdout="", stderr="Traceback ...\nValueError: boom\n"))
    with pytest.raises(SystemExit, match="boom"):
        bench._counted("simpy", "10")
