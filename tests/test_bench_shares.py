"""bench/bench_shares.py's timers: each subsystem's time is exclusive of the subsystems it calls, the
shares add up to the time taken, and the wrapped methods are restored."""

from __future__ import annotations

import itertools

import pytest

from tests.conftest import bench_module


@pytest.fixture(scope="module")
def bench():
    with bench_module("bench_shares") as module:
        yield module


def test_a_nested_call_is_counted_in_its_own_subsystem_not_its_callers(bench, monkeypatch) -> None:
    clock = itertools.count(0.0, 1.0)  # every reading of the clock is one second on
    monkeypatch.setattr(bench.time, "perf_counter", lambda: next(clock))
    shares = bench.Shares()
    inner = shares.timed("inner", lambda: next(clock))  # inner: enters at 2, reads 3, leaves at 4
    outer = shares.timed("outer", lambda: (next(clock), inner(), next(clock)))  # 0 .. 6
    outer()
    # outer: 0 -> 2 (before inner) and 4 -> 6 (after it); inner: 2 -> 4.
    assert shares.seconds == {"outer": 4.0, "inner": 2.0}
    assert shares.calls == {"outer": 1, "inner": 1}
    assert not shares.stack


def test_a_raising_call_still_pops_and_counts(bench) -> None:
    shares = bench.Shares()

    def boom():
        raise ValueError("x")

    with pytest.raises(ValueError):
        shares.timed("boom", boom)()
    assert not shares.stack and shares.calls == {"boom": 1} and shares.seconds["boom"] >= 0.0


def test_the_timers_wrap_every_entry_point_and_restore_them(bench) -> None:
    originals = {(cls, name): cls.__dict__[name] for _, methods in bench.SUBSYSTEMS for cls, name in methods}
    with bench.timers(bench.Shares()):
        assert all(cls.__dict__[name] is not fn for (cls, name), fn in originals.items())
    assert all(cls.__dict__[name] is fn for (cls, name), fn in originals.items())
