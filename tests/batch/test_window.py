"""The task window: every task comes back once, in a window that never holds more than its limit, topped
up in the batch's order; it grows with the cluster; an interrupted batch leaves nothing on the cluster."""

from __future__ import annotations

import operator
import time

import pytest
from distributed import Client

from campaign.batch import window as window_module
from campaign.batch.run import make_plan, run_batch
from campaign.batch.store import open_results
from campaign.batch.window import IN_FLIGHT_PER_THREAD, MIN_IN_FLIGHT, TaskWindow, in_flight_limit
from tests.batch.conftest import CHUNK, RUNS, SEED

TASKS = 40


@pytest.fixture
def client(cluster):
    with Client(cluster, set_as_default=False) as c:
        yield c


@pytest.fixture
def small_window(monkeypatch):
    """A window of at most three tasks on any cluster of up to three threads; counted at every top-up."""
    monkeypatch.setattr(window_module, "MIN_IN_FLIGHT", 3)
    monkeypatch.setattr(window_module, "IN_FLIGHT_PER_THREAD", 1)
    monkeypatch.setattr(window_module, "RECOUNT_S", 0.0)


class Recorder:
    """Submits ``operator.neg`` of each task, recording the order of submission."""

    def __init__(self, client: Client) -> None:
        self.client = client
        self.submitted: list[int] = []

    def __call__(self, t: int):
        self.submitted.append(t)
        return self.client.submit(operator.neg, t, pure=False)


def test_the_limit_is_a_few_tasks_a_thread_and_never_below_the_floor() -> None:
    assert in_flight_limit(0) == MIN_IN_FLIGHT
    assert in_flight_limit(2) == MIN_IN_FLIGHT
    assert in_flight_limit(1000) == IN_FLIGHT_PER_THREAD * 1000


def test_every_task_comes_back_once_and_the_window_never_holds_more_than_its_limit(client, small_window) -> None:
    rec = Recorder(client)
    win = TaskWindow(client, range(TASKS), rec, threads=lambda: 2)
    back = []
    for task, fut in win:
        assert fut.result() == -task
        back.append(task)
        assert win.in_flight <= 3
        assert len(rec.submitted) - len(back) <= 3  # submitted, not yet given back
    assert sorted(back) == list(range(TASKS))
    assert rec.submitted == list(range(TASKS))  # in the batch's order
    assert win.in_flight == 0


def test_the_window_grows_with_the_cluster(client, monkeypatch) -> None:
    monkeypatch.setattr(window_module, "MIN_IN_FLIGHT", 2)
    monkeypatch.setattr(window_module, "IN_FLIGHT_PER_THREAD", 2)
    monkeypatch.setattr(window_module, "RECOUNT_S", 0.0)
    counts = iter([1, 3])  # the cluster's threads as the scheduler tells them: one, then three
    rec = Recorder(client)
    win = TaskWindow(client, range(12), rec, threads=lambda: next(counts, 3))
    it = iter(win)
    next(it)
    assert len(rec.submitted) == 1 + 2 * 3  # the first, given back, and a window of two a thread
    assert win.in_flight == 6
    for _ in it:
        pass
    assert rec.submitted == list(range(12))


def test_cancelling_leaves_nothing_on_the_cluster_and_submits_no_more(client, small_window) -> None:
    rec = Recorder(client)
    win = TaskWindow(client, range(TASKS), rec, threads=lambda: 2)
    for n, _ in enumerate(win, start=1):
        if n == 5:
            break
    win.cancel()
    assert win.in_flight == 0
    assert len(rec.submitted) <= 5 + 3  # what came back, and the window behind it
    assert list(win) == []  # nothing more is submitted or given back
    assert len(rec.submitted) <= 5 + 3


def test_a_batch_through_a_window_of_one_task_gives_the_reference_dataset(small, cluster, reference, tmp_path,
                                                                           monkeypatch) -> None:
    monkeypatch.setattr(window_module, "MIN_IN_FLIGHT", 1)
    monkeypatch.setattr(window_module, "IN_FLIGHT_PER_THREAD", 0)
    outcome = run_batch(make_plan(small, "all", RUNS, SEED, CHUNK), tmp_path, scheduler=cluster, progress=False)
    assert outcome.complete and not outcome.failed
    assert open_results(tmp_path).load().identical(open_results(reference).load())


def test_while_no_task_finishes_the_window_calls_back_and_counts_the_cluster(client, monkeypatch) -> None:
    # A task of half a second and a tick of 50 ms: the driver is called back while it waits, and the
    # cluster is counted again then (a Slurm allocation's workers may leave or join meanwhile).
    monkeypatch.setattr(window_module, "WAIT_TICK_S", 0.05)
    monkeypatch.setattr(window_module, "RECOUNT_S", 0.0)
    counts = iter(range(1, 1000))
    waits: list[int | None] = []
    win = TaskWindow(client, [0.5], lambda t: client.submit(time.sleep, t, pure=False),
                     threads=lambda: next(counts), on_wait=lambda: waits.append(win.threads))
    assert win.threads is None  # not counted before it is iterated
    assert [t for t, _ in win] == [0.5]
    assert len(waits) >= 4  # about ten ticks in half a second
    assert waits[0] == 2 and waits == list(range(2, 2 + len(waits)))  # counted again at every tick

def test_a_task_that_is_ready_is_given_without_waiting_a_tick(client, monkeypatch) -> None:
    monkeypatch.setattr(window_module, "WAIT_TICK_S", 3600.0)
    waited = []
    win = TaskWindow(client, range(5), lambda t: client.submit(operator.neg, t, pure=False), threads=lambda: 2,
                     on_wait=lambda: waited.append(1))
    t0 = time.monotonic()
    assert sorted(t for t, _ in win) == list(range(5))
    assert time.monotonic() - t0 < 2.0 and waited == []  # not an hour: a finished task ends the wait
