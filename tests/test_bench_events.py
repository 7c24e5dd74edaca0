"""bench/bench_events.py: each step is charged to what its event wakes, every step once."""

from __future__ import annotations

import subprocess
import sys

import pytest
import simpy

from tests.conftest import BENCH_DIR, bench_module

PATH = BENCH_DIR / "bench_events.py"


@pytest.fixture(scope="module")
def bench():
    with bench_module("bench_events") as module:
        yield module


def _ticker(env: simpy.Environment, n: int):
    for _ in range(n):
        yield env.timeout(1.0)


def _sleeper(env: simpy.Environment):
    try:
        yield env.timeout(100.0)
    except simpy.Interrupt:
        yield env.timeout(1.0)


def _waker(env: simpy.Environment, other):
    yield env.timeout(2.0)
    other.interrupt("new orders")


def test_an_event_is_charged_to_the_process_it_wakes_or_the_interrupt(bench) -> None:
    env = simpy.Environment()
    ticking = env.process(_ticker(env, 3))
    sleeping = env.process(_sleeper(env))
    env.process(_waker(env, sleeping))
    env.timeout(0.5)  # nobody waits on this one
    kinds = []
    while env.peek() < 10.0:
        kinds.append(bench.kind_of(env._queue[0][3]))
        env.step()
    assert kinds.count("_ticker") == 4  # started, then woken by each of its three timeouts
    assert "Timeout (no one waiting)" in kinds
    assert kinds.count("_sleeper (interrupted)") == 1
    assert not ticking.is_alive


def test_the_ledger_counts_every_step_once_and_its_shares_make_the_whole(bench) -> None:
    env = simpy.Environment()
    env.process(_ticker(env, 50))
    env.process(_ticker(env, 20))
    ledger = bench.Ledger()
    ledger.run(env, 1e9)
    assert sum(ledger.events.values()) == 50 + 20 + 2 + 2  # their timeouts, their starts, their ends
    table = ledger.table(replicates=2)
    assert sum(share for _, share, _, _ in table) == pytest.approx(100.0)
    assert {k: n for k, _, n, _ in table}["_ticker"] == pytest.approx((50 + 20 + 2) / 2)


def test_a_bad_count_stops_it_before_anything_runs() -> None:
    done = subprocess.run([sys.executable, str(PATH), "--repeat", "0"], capture_output=True, text=True,
                          timeout=120, check=False)
    assert done.returncode == 2
    assert "--repeat: must be 1 or more, not 0" in done.stderr
