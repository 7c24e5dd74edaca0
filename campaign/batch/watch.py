"""What the batch driver says as a batch runs, besides its progress bar: how far it is, in a log, and
that the cluster has no workers.

Written to a file (a Slurm job's log, nohup), Rich draws the bar only when the batch ends, so the
progress is also written as a line of its own every :data:`LOG_EVERY_S`, whether or not a task has
finished since the last one. A cluster can lose every worker and go on: a Slurm allocation's jobs end at
their wall time, or have not started when the batch does. Dask then keeps the tasks and waits, saying
nothing; the driver says, once the cluster has had no worker for :data:`NO_WORKERS_GRACE_S`, that it is
waiting, and again when workers join.
"""

from __future__ import annotations

import time

from distributed import Client
from rich.progress import Progress

from campaign.batch.wording import counted

LOG_EVERY_S = 60.0  # how often the progress is written as a line when the output is not a terminal
# How long the cluster must have had no worker before the driver says it is waiting: a local cluster's
# nanny starts a dead worker again within a few seconds, which is not worth a word.
NO_WORKERS_GRACE_S = 10.0


class BatchWatch:
    """Counts the cluster for the task window (:meth:`threads`) and speaks on the bar's console
    (:meth:`tick`, after each finished task and while waiting for one). ``speak`` False (no progress
    asked for) keeps it silent; it still counts."""

    def __init__(self, client: Client, bar: Progress, speak: bool) -> None:
        self._client = client
        self._bar = bar
        self._speak = speak
        live = bar.console.is_terminal or bar.console.is_jupyter  # where Rich redraws the bar as it goes
        self._logged = time.monotonic() if speak and not live else None
        self._none_since: float | None = None
        self._said_none = False
        self.most_workers = 0  # the most worker processes the cluster had at once, as counted
        self._last_threads = 0  # the cluster's worker threads when last counted

    def threads(self) -> int:
        """The cluster's worker threads now (one call to the scheduler), its workers noted; the last count
        while the client has lost the scheduler (the driver sees that by the tasks it had cancelled)."""
        if self._client.status != "running":
            return self._last_threads
        try:
            nthreads = self._client.nthreads()
        except OSError:  # lost just now (Dask's CommClosedError is one)
            return self._last_threads
        workers = len(nthreads)
        self.most_workers = max(self.most_workers, workers)
        if workers:
            self._none_since = None
            if self._said_none:
                self._say(f"{counted(workers, 'worker')} on the cluster: the batch goes on")
                self._said_none = False
        elif self._none_since is None:
            self._none_since = time.monotonic()
        self._last_threads = sum(nthreads.values())
        return self._last_threads

    def tick(self) -> None:
        """Say what is due: that the cluster has had no worker for a while, and the progress line."""
        now = time.monotonic()
        if self._none_since is not None and not self._said_none and now - self._none_since >= NO_WORKERS_GRACE_S:
            self._say("no workers on the cluster: the batch waits for some to join (start workers, or a Slurm "
                      "allocation's jobs; or stop it with Ctrl-C, keeping what is done, and run the same command "
                      "again later to resume)")
            self._said_none = True
        if self._logged is not None and now - self._logged >= LOG_EVERY_S:
            self._bar.console.print(self._bar.make_tasks_table(self._bar.tasks))
            self._logged = now

    def _say(self, text: str) -> None:
        if self._speak:
            self._bar.console.print(text, highlight=False, markup=False, soft_wrap=True)  # one line, for grep
