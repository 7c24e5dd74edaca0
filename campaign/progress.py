"""Progress on standard error for long work: a run's simulated time, a duel's runs.

Shown with rich when standard error is a terminal, and cleared when the work is done; written to a file
or a pipe, a run says once what it is doing instead, so that a log is not filled with bars. A run's bar
is moved by a thread that reads the simulation's clock four times a second: the simulation itself is
untouched (no event is added to it, so its records are the same with or without the bar).
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from campaign.clock import Clock

REFRESH_S = 0.25


def on_terminal() -> bool:
    """Is standard error a terminal (where a bar can be drawn and cleared)?"""
    return sys.stderr.isatty()


@contextmanager
def simulated_time(label: str, clock: Clock, end_min: float, now: Callable[[], float],
                   enabled: bool = True) -> Iterator[None]:
    """While the block runs, a bar of the simulated time from the start to ``end_min`` (minutes), read
    from ``now``; the simulated date and hour beside it."""
    if not enabled:
        yield
        return
    console = Console(stderr=True)
    if not console.is_terminal:
        console.print(f"{label}: simulating {clock.iso(0.0)[:16]}Z to {clock.iso(end_min)[:16]}Z ...",
                      highlight=False)
        yield
        return
    bar = Progress(TextColumn("[bold]{task.description}"), BarColumn(), TextColumn("{task.fields[at]}"),
                   TimeElapsedColumn(), console=console, transient=True)
    stop = threading.Event()
    with bar:
        task = bar.add_task(label, total=max(end_min, 1e-9), at=clock.iso(0.0)[:16] + "Z")

        def follow() -> None:
            while not stop.wait(REFRESH_S):
                t = min(max(now(), 0.0), end_min)
                bar.update(task, completed=t, at=clock.iso(t)[:16] + "Z")

        watcher = threading.Thread(target=follow, name="run-progress", daemon=True)
        watcher.start()
        try:
            yield
        finally:
            stop.set()
            watcher.join()


@contextmanager
def counted(label: str, total: int, enabled: bool = True) -> Iterator[Callable[[int], None]]:
    """A bar of ``total`` pieces of work; the block is given a function to advance it by ``n``."""
    if not enabled or not on_terminal():
        yield lambda n: None
        return
    bar = Progress(TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                   console=Console(stderr=True), transient=True)
    with bar:
        task = bar.add_task(label, total=total)
        yield lambda n: bar.advance(task, n)
