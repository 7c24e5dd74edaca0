"""A batch's tasks handed to the cluster a window at a time, not all at once.

Submitting costs the driver and the scheduler some hundreds of microseconds a task, and both keep every
task given: with all of them submitted at once, a batch of two million replicates (100,000 tasks) on a
local cluster waited about half a minute longer for its first result and its driver held 1.6 GB, not
0.7 GB; stopped, it left the scheduler its tasks to cancel as the client closed, and the scheduler's
log filled the terminal.
So the driver keeps only enough tasks on the cluster to keep every worker busy: a few for each of its
threads (one running and the next ones waiting, so that no worker waits for the driver), and never fewer
than :data:`MIN_IN_FLIGHT`, so that the workers of a cluster that grows after the batch starts (a Slurm
allocation's jobs, which start one by one) find tasks waiting. As each task finishes the window is
topped up in the batch's order, the cluster's threads counted again every :data:`RECOUNT_S` seconds.

While no task finishes (the workers are busy with long tasks, or there are none: a Slurm allocation's
jobs not yet started, or ended), the window keeps counting the cluster's threads and calls the driver
back about every :data:`WAIT_TICK_S`, so that it can say how far the batch is and that it is waiting.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Iterator
from typing import Generic, TypeVar

from distributed import Client, Future, as_completed

T = TypeVar("T")

# Tasks kept on the cluster for each of its threads: the one running and the next ones queued.
IN_FLIGHT_PER_THREAD = 4
# At least this many, whatever the cluster has now (a cluster whose workers are still starting has none).
MIN_IN_FLIGHT = 256
RECOUNT_S = 5.0  # how often the cluster's threads are counted again (one call to the scheduler)
WAIT_TICK_S = 1.0  # how often the driver is called back while no task finishes


def in_flight_limit(threads: int) -> int:
    """How many tasks to keep on a cluster of ``threads`` worker threads."""
    return max(MIN_IN_FLIGHT, IN_FLIGHT_PER_THREAD * threads)


class TaskWindow(Generic[T]):
    """Submits ``tasks`` in order through ``submit`` (which returns the task's future), keeping at most
    :func:`in_flight_limit` of them on the cluster; iterating gives (task, future) as each finishes.
    :meth:`cancel` cancels what is on the cluster and submits nothing more.

    ``threads()`` counts the cluster's worker threads (default: asks the scheduler); ``on_wait()`` is
    called about every :data:`WAIT_TICK_S` while no task has finished."""

    def __init__(self, client: Client, tasks: Iterable[T], submit: Callable[[T], Future],
                 threads: Callable[[], int] | None = None, on_wait: Callable[[], None] | None = None) -> None:
        self._client = client
        self._queue = iter(tasks)
        self._submit = submit
        self._threads = threads or (lambda: sum(client.nthreads().values()))
        self._on_wait = on_wait
        self._on_cluster: dict[Future, T] = {}
        self._finished = as_completed(loop=client.loop)
        self._limit = 0
        self._count: int | None = None
        self._counted_at = float("-inf")
        self._exhausted = False

    @property
    def in_flight(self) -> int:
        """Tasks submitted and not yet given back."""
        return len(self._on_cluster)

    @property
    def threads(self) -> int | None:
        """The cluster's worker threads when last counted (at most :data:`RECOUNT_S` ago while the
        window is iterated); None before the first count."""
        return self._count

    def _recount(self) -> None:
        now = time.monotonic()
        if now - self._counted_at >= RECOUNT_S:
            self._count = self._threads()
            self._limit = in_flight_limit(self._count)
            self._counted_at = now

    def _top_up(self) -> None:
        self._recount()  # also once every task is given: the driver asks how many threads there are
        if self._exhausted:
            return
        while len(self._on_cluster) < self._limit:
            try:
                task = next(self._queue)
            except StopIteration:
                self._exhausted = True
                return
            fut = self._submit(task)
            self._on_cluster[fut] = task
            self._finished.add(fut)

    def _next_finished(self) -> Future:
        """The next task to finish, counting the cluster and calling ``on_wait`` while there is none."""
        finished = self._finished
        ticked = time.monotonic()
        while not finished.has_ready():
            # as_completed notifies its thread_condition as it queues each finished task (what its own
            # blocking iteration waits on): asked under the condition's lock, no notice is missed between
            # the question and the wait, and the wait ends as soon as a task finishes.
            with finished.thread_condition:
                if not finished.has_ready():
                    finished.thread_condition.wait(timeout=max(0.0, WAIT_TICK_S - (time.monotonic() - ticked)))
            if time.monotonic() - ticked >= WAIT_TICK_S:
                self._top_up()  # counts the cluster again when due, and fills a window it has grown
                if self._on_wait is not None:
                    self._on_wait()
                ticked = time.monotonic()
        return next(self._finished)

    def __iter__(self) -> Iterator[tuple[T, Future]]:
        self._top_up()
        while self._on_cluster:
            fut = self._next_finished()
            task = self._on_cluster.pop(fut)
            self._top_up()  # before the caller's own work on this result: the workers are not kept waiting
            yield task, fut

    def resubmit(self, task: T) -> None:
        """Submit ``task`` again (its future was cancelled: the client lost its scheduler and reconnected,
        and a scheduler forgets what it had). It is given back again as it finishes."""
        fut = self._submit(task)
        self._on_cluster[fut] = task
        self._finished.add(fut)

    def cancel(self) -> None:
        """Cancel the tasks on the cluster; submit no more."""
        self._exhausted = True
        if self._on_cluster:
            if self._client.status == "running":  # a client that lost its scheduler has nothing to cancel
                self._client.cancel(list(self._on_cluster))
            self._on_cluster.clear()
