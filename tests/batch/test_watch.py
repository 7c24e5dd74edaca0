"""What the driver says besides the bar: a progress line every so often in a log, whether or not a task
has finished, and a word when the cluster has had no workers for a while, and again when they join."""

from __future__ import annotations

import io
import re

import pytest
from rich.console import Console
from rich.progress import MofNCompleteColumn, Progress

from campaign.batch import watch as watch_module
from campaign.batch.watch import BatchWatch

NONE_SAID = "no workers on the cluster: the batch waits for some to join"


class Cluster:
    """A client's stand-in: ``nthreads()`` gives the workers it is set to have (address -> threads)."""

    def __init__(self) -> None:
        self.workers: dict[str, int] = {}
        self.status = "running"  # "connecting" while a client tries to reach its scheduler again

    def nthreads(self) -> dict[str, int]:
        if self.status != "running":
            raise OSError("no scheduler to ask")
        return dict(self.workers)


def make(speak: bool = True, terminal: bool = False) -> tuple[BatchWatch, Cluster, io.StringIO]:
    out = io.StringIO()
    console = Console(file=out, width=100, force_terminal=terminal)
    bar = Progress(MofNCompleteColumn(), console=console, disable=not speak)
    bar.add_task("batch", total=8)
    cluster = Cluster()
    return BatchWatch(cluster, bar, speak), cluster, out  # type: ignore[arg-type]


def test_no_workers_for_the_grace_is_said_once_then_their_return(monkeypatch) -> None:
    monkeypatch.setattr(watch_module, "NO_WORKERS_GRACE_S", 0.0)
    watch, cluster, out = make()
    assert watch.threads() == 0
    watch.tick()
    watch.tick()
    assert watch.threads() == 0
    watch.tick()
    assert out.getvalue().count(NONE_SAID) == 1  # once, however long the wait
    cluster.workers = {"tcp://a:1": 1, "tcp://b:1": 2}
    assert watch.threads() == 3  # threads, for the task window
    assert watch.most_workers == 2
    text = out.getvalue()
    assert text.index(NONE_SAID) < text.index("2 workers on the cluster: the batch goes on")
    cluster.workers = {}
    watch.threads()
    watch.tick()
    assert out.getvalue().count(NONE_SAID) == 2  # lost again: said again
    assert watch.most_workers == 2  # the most at once


def test_a_gap_shorter_than_the_grace_is_not_worth_a_word(monkeypatch) -> None:
    # A local cluster's nanny starts a dead worker again within seconds.
    monkeypatch.setattr(watch_module, "NO_WORKERS_GRACE_S", 3600.0)
    watch, cluster, out = make()
    watch.threads()
    watch.tick()
    cluster.workers = {"tcp://a:1": 1}
    watch.threads()
    watch.tick()
    assert "workers" not in out.getvalue() and "worker on" not in out.getvalue()


def test_without_progress_it_says_nothing_and_still_counts(monkeypatch) -> None:
    monkeypatch.setattr(watch_module, "NO_WORKERS_GRACE_S", 0.0)
    monkeypatch.setattr(watch_module, "LOG_EVERY_S", 0.0)
    watch, cluster, out = make(speak=False)
    watch.threads()
    watch.tick()
    cluster.workers = {"tcp://a:1": 1}
    watch.threads()
    watch.tick()
    assert out.getvalue() == "" and watch.most_workers == 1


@pytest.mark.parametrize("terminal", [False, True])
def test_the_progress_line_is_written_only_where_the_bar_is_not_redrawn(monkeypatch, terminal) -> None:
    monkeypatch.setattr(watch_module, "LOG_EVERY_S", 0.0)
    watch, cluster, out = make(terminal=terminal)
    cluster.workers = {"tcp://a:1": 1}
    watch.threads()
    watch.tick()  # no task has finished: the line says so
    assert bool(re.search(r"0/8", out.getvalue())) is not terminal


def test_while_the_scheduler_is_lost_the_last_count_stands(monkeypatch) -> None:
    # Asking a lost scheduler would raise or wait: the driver learns of the loss from its cancelled tasks.
    monkeypatch.setattr(watch_module, "NO_WORKERS_GRACE_S", 0.0)
    watch, cluster, out = make()
    cluster.workers = {"tcp://a:1": 2}
    assert watch.threads() == 2
    cluster.status = "connecting"
    assert watch.threads() == 2
    watch.tick()
    assert out.getvalue() == ""  # not "no workers": the workers were not counted
