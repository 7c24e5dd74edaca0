"""The batch driver: a batch's chunks as tasks on dask.distributed, their results into the Zarr store.

By default the batch runs on a ``LocalCluster`` of ``workers`` single-threaded worker processes (one
per core: a replicate is pure Python, so threads would only wait for each other); given a scheduler
address it runs on an existing Dask cluster instead — a cluster started by hand, or a Slurm allocation
through dask-jobqueue — with no other change. Every worker must have this package installed (the same
software as the driver's: campaign/batch/software.py); the scenario's files go with the tasks
(campaign/batch/bundle.py), as the driver read them when the batch was planned, and only the driver
writes into the output folder (the results, and the records kept with ``--keep-records``, which the
workers return), so the workers need no file system of the driver's.

Tasks are submitted replicate-chunk by replicate-chunk across variants and points, so that an
interrupted batch has the same replicates of every variant (paired differences stay possible), and a
window at a time (campaign/batch/window.py: a few for each worker thread), so that a batch of any size
starts at once and an interrupted one leaves little to cancel. As each finishes, the driver writes its
measures into the store and advances the progress bar; a task that raises is retried (``retries``), and
one whose worker dies is rescheduled by the scheduler on another worker (up to
``distributed.scheduler.allowed-failures`` deaths). If the scheduler itself is lost, Dask cancels every
task on it and its client tries to reconnect for :data:`CONNECT_TIMEOUT`: if it does, the driver submits
those tasks again; if not, the batch stops (:class:`SchedulerLost`). An interrupted batch resumes where
it stopped when the same command is run again: the store's completion mask says which chunks are done
(campaign/batch/store.py). Results do not depend on the number of workers or the order in which tasks
finish: each replicate's seed depends only on the batch seed and its number.
"""

from __future__ import annotations

import logging
import os
import signal
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import dask
from dask.utils import parse_timedelta
from distributed import Client, LocalCluster, WorkerPlugin
from distributed.client import FutureCancelledError
from distributed.comm.addressing import parse_address, parse_host_port
from distributed.comm.core import CommClosedError
from distributed.comm.registry import get_backend
from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.table import Column
from rich.text import Text

from campaign.batch.bundle import KEPT, FilesError, ScenarioFiles, gather, keep, scenario_from
from campaign.batch.design import Design
from campaign.batch.measures import MEASURE_NAMES
from campaign.batch.parameters import apply_parameters, overrides
from campaign.batch.plan import BASE, BatchPlan, Chunk, default_chunk
from campaign.batch.replicate import RECORDS, ChunkResult, ChunkTask, describe, run_chunk, write_records
from campaign.batch.software import this_software
from campaign.batch.store import ResultStore
from campaign.batch.watch import BatchWatch
from campaign.batch.window import TaskWindow
from campaign.batch.wording import counted
from campaign.scenario import overlay as ov
from campaign.scenario.loader import ScenarioError, load_scenario, read_yaml, scan_variants
from campaign.scenario.model import Scenario
from campaign.scenario.schema import MAX_SEED

DEFAULT_RETRIES = 2  # a task that raises is tried this many more times before the batch gives it up
# Deaths of a worker a task may be caught in before the scheduler gives it up (Dask's default is 3).
ALLOWED_WORKER_DEATHS = 3
CONNECT_TIMEOUT = "20s"  # to reach an existing scheduler, and to reach it again after losing it
# The reason Dask gives the futures it cancels on losing the scheduler (distributed.client.Client._reconnect).
LOST_REASON = "scheduler-connection-lost"
RECONNECT_POLL_S = 0.1  # how often the driver looks whether its client has reconnected
RECONNECT_SLACK_S = 5.0  # beyond CONNECT_TIMEOUT, for the client's own last attempt to end
HOST_PORT_SCHEMES = ("tcp", "tls", "ws", "wss")  # Dask's address schemes whose location is host:port
# The most replicates a batch may have (variants x design points x runs): about a month of this
# campaign on a 2-core machine, hours on a cluster. The plan holds every replicate's seed and every
# task, so a mistyped --runs (10**12) would otherwise fill the memory before anything runs.
MAX_REPLICATES = 10_000_000
# A local cluster without a dashboard, its scheduler's HTTP endpoints on a free port (its default, 8787,
# may be taken by another cluster), and without the workers' chatter on the terminal.
LOCAL_QUIET = {"dashboard_address": ":0", "scheduler_kwargs": {"dashboard": False},
               "silence_logs": logging.CRITICAL}
# A local cluster's processes share the machine's cores with the workers, so their housekeeping is paced
# for a batch rather than for interactive work (Dask's defaults in parentheses). Its workers' statistical
# profiler (sampling the running task's stack every 10 ms) feeds only the dashboard, which a local
# cluster here does not serve. The event-loop health checks (20 ms), the memory checks (100 ms) and the
# system monitor (500 ms) run in every process, driver, nannies and workers; a replicate takes a fraction
# of a megabyte, so a memory check a second still stops a runaway worker in time. Together they took
# about 7 % of a core beside one worker (all the batch's processes' CPU time a replicate, measured with
# and without them).
LOCAL_HOUSEKEEPING = {
    "distributed.worker.profile.enabled": False,
    "distributed.admin.tick.interval": "200ms",
    "distributed.worker.memory.monitor-interval": "1s",
    "distributed.admin.system-monitor.interval": "2s",
}


MIN_BAR = 4  # characters of the progress bar's bar, however narrow the terminal


class LeaveInterruptsToTheDriver(WorkerPlugin):
    """Ctrl-C at a terminal reaches the whole process group, a local cluster's worker processes too: each
    would print its own traceback beside the driver's message. The driver alone handles it (it keeps
    what was finished and closes the cluster, which stops the workers), so the workers ignore it.
    Registered with the scheduler, the plugin also reaches a worker started again after one died."""

    name = "campaign-leave-interrupts-to-the-driver"

    def setup(self, worker) -> None:
        signal.signal(signal.SIGINT, signal.SIG_IGN)  # plugins are set up on the worker's main thread


class BatchError(ValueError):
    """A batch that cannot be run as asked (unknown variant, bad count, unreachable scheduler)."""


class ResultsNotWritten(RuntimeError):
    """The driver could not write a finished task into the store (a full disk, a file system gone
    read-only). What was written before is kept: the same batch resumes from it."""


class SchedulerLost(RuntimeError):
    """The driver lost its connection to the cluster's scheduler while the batch ran (the scheduler
    stopped, or its machine or the network went down) and could not reconnect within
    :data:`CONNECT_TIMEOUT`. What was finished is in the store: the same batch resumes from it."""


@dataclass
class BatchOutcome:
    """What a call of :func:`run_batch` did."""

    plan: BatchPlan
    out_dir: Path
    chunks: int  # in the whole batch
    already_done: int  # chunks found done in the store (a resumed batch)
    ran: int = 0  # chunks run and written now
    replicates_run: int = 0
    failed: list[tuple[dict, str]] = field(default_factory=list)  # (chunk described, error)
    elapsed_s: float = 0.0
    workers: int = 0  # the most worker processes the cluster had at once while the batch ran

    @property
    def complete(self) -> bool:
        return self.already_done + self.ran == self.chunks


def usable_cores() -> int:
    """The cores this process may run on (a LocalCluster's default size)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def resolve_variants(scenario: str | Path, spec: str | Sequence[str] | None) -> tuple[str, ...]:
    """The batch's variants from ``--variants``: ``all`` (the base and every overlay of the scenario),
    or names separated by commas; ``base`` always comes first, once."""
    found, bad = scan_variants(scenario)
    known = [o.variant for o in found]
    everything = spec is None or spec == "all" or (not isinstance(spec, str) and list(spec) == ["all"])
    if everything:
        names = known
    else:
        names = [s.strip() for s in (spec.split(",") if isinstance(spec, str) else spec) if s.strip()]
        if not names:
            raise BatchError(f"--variants: {spec!r} names no variant; give names separated by commas (base "
                             "alone runs the scenario itself), or all")
        # A variant asked for whose file cannot be read is named with the file's faults.
        bad = [exc for exc in bad if Path(exc.path).stem in names and Path(exc.path).stem not in known]
        unknown = [n for n in names if n != BASE and n not in known and n not in {Path(e.path).stem for e in bad}]
        if unknown:
            raise BatchError(f"--variants: no variant {', '.join(repr(b) for b in unknown)} for {scenario} "
                             f"(known: {BASE}, {', '.join(known) or 'none'})")
    if bad:  # every variant, or one asked for, is in a file that cannot be read
        raise BatchError("--variants: these what-if files cannot be read:\n" + "\n".join(str(e) for e in bad))
    out = [BASE] + [n for n in dict.fromkeys(names) if n != BASE]
    return tuple(out)


def _loaded(path: str, files: ScenarioFiles, variant: str) -> Scenario:
    """Variant ``variant`` of the scenario at ``path`` loaded from ``files``, as the workers will load it.
    A fault is reported as loading the file itself reports it, naming the scenario's own files rather
    than the loader's temporary copies."""
    overlay = None if variant == BASE else variant
    try:
        return scenario_from(files, overlay)
    except ScenarioError:
        load_scenario(path, variant=overlay)  # the same fault, named in the scenario's folder
        raise


def make_plan(scenario: str | Path, variants: str | Sequence[str] | None = "all", runs: int = 100,
              seed: int = 0, chunk: int | None = None, design: Design | None = None,
              engine: str | None = None) -> BatchPlan:
    """A checked batch plan: the scenario's files read for the workers (campaign/batch/bundle.py), every
    variant loads from them, every design point applies to it (ScenarioError, ParameterError or
    BatchError otherwise, before anything is written); this process's software is the batch's
    (campaign/batch/software.py)."""
    if runs < 1:
        raise BatchError(f"--runs: must be 1 or more, not {runs}")
    if not 0 <= seed <= MAX_SEED:
        raise BatchError(f"--seed: must be 0 to {MAX_SEED:,} (2**63 - 1, what the store can hold), not {seed:,}")
    if chunk is not None and chunk < 1:
        raise BatchError(f"--chunk: must be 1 or more, not {chunk}")
    path = str(Path(scenario).resolve())
    raw = read_yaml(Path(scenario))
    if ov.is_overlay(raw):  # its workers would load it without its base: run the base and this variant
        base = raw.get("base")
        name = raw.get("variant")
        raise BatchError(f"{scenario} is a what-if overlay (of {base}): give its base scenario and the variant, "
                         f"as in: python run_campaign.py batch {os.path.normpath(Path(scenario).parent / str(base))} "
                         f"--variants {name}")
    names = resolve_variants(path, variants)
    points = design.n_points if design is not None else 1
    if len(names) * points * runs > MAX_REPLICATES:
        raise BatchError(f"--runs: {runs:,} replicates x {counted(len(names), 'variant')} x "
                         f"{counted(points, 'design point')} = {len(names) * points * runs:,} replicates, more than "
                         f"{MAX_REPLICATES:,} in one batch; split it into several (--out) or give fewer")
    try:
        files = gather(path, names[1:])
    except FilesError as exc:
        raise BatchError(str(exc)) from None
    points = [design.point(p) for p in range(design.n_points)] if design is not None else []
    base, found = None, []
    for v in names:
        sc = _loaded(path, files, v)
        for point in points:
            apply_parameters(sc, point)
        if base is None:
            base = sc
        elif design is not None:
            found += overrides(v, sc, base, design.names, points)
    return BatchPlan(path, base.name, names, runs, seed, chunk or default_chunk(runs), design, engine, files,
                     this_software(), tuple(found))


def tasks_for(plan: BatchPlan, chunks: Sequence[Chunk], keep_records: bool = False) -> Iterator[ChunkTask]:
    """The chunks as worker tasks, ordered replicate-chunk first (every variant gets its early
    replicates early), made as they are asked for (a batch may have hundreds of thousands)."""
    seeds = plan.seeds()
    for c in sorted(chunks, key=lambda c: (c.r0, c.v, c.p)):
        yield ChunkTask(plan.scenario, plan.variants[c.v], c, tuple(int(s) for s in seeds[c.r0:c.r1]),
                        tuple(plan.point(c.p).items()), c.p if plan.design is not None else None, plan.engine,
                        keep_records, plan.files, plan.software)


def check_scheduler_address(address: str) -> None:
    """BatchError unless ``address`` has the form of a Dask scheduler's address (``tcp://host:8786``, or
    another of Dask's schemes). Checked before a client is made: a client given an address of the wrong
    form fails half-made, and its clean-up holds the process up for 40 s as it exits."""
    try:
        scheme, location = parse_address(address)
        get_backend(scheme)  # a scheme Dask knows
        if scheme in HOST_PORT_SCHEMES:
            parse_host_port(location)
    except ValueError as exc:
        raise BatchError(f"--scheduler: {address!r} is not a scheduler's address, such as tcp://host:8786 "
                         f"({exc})") from None


@contextmanager
def dask_client(workers: int | None = None, scheduler: str | None = None) -> Iterator[Client]:
    """A client of an existing scheduler (``scheduler``: its address), or of a new LocalCluster of
    ``workers`` single-threaded processes (default: one per usable core) with its housekeeping paced
    for a batch (:data:`LOCAL_HOUSEKEEPING`) and its workers leaving Ctrl-C to the driver
    (:class:`LeaveInterruptsToTheDriver`), closed afterwards. An existing cluster keeps its own
    configuration.

    The client is not made the process's default: the batch submits its own tasks, and a default
    client changes Dask's configuration for the whole process (its ``scheduler``), which a client that
    fails to start leaves changed behind it."""
    with dask.config.set({"distributed.scheduler.allowed-failures": ALLOWED_WORKER_DEATHS}):
        if scheduler:
            check_scheduler_address(scheduler)
            try:
                client = Client(scheduler, timeout=CONNECT_TIMEOUT, set_as_default=False)
            except (OSError, TimeoutError) as exc:
                raise BatchError(f"--scheduler: cannot reach a Dask scheduler at {scheduler} ({exc})") from None
            try:
                yield client
            finally:
                client.close()
            return
        n = workers or usable_cores()
        # Set while the cluster starts and runs: the scheduler and the nannies in this process read it as
        # they start, and the nannies pass it on to the worker processes they spawn.
        with dask.config.set(LOCAL_HOUSEKEEPING):
            cluster = LocalCluster(n_workers=n, threads_per_worker=1, processes=True, **LOCAL_QUIET)
            client = Client(cluster, set_as_default=False)
            try:
                client.register_plugin(LeaveInterruptsToTheDriver())
                yield client
            finally:
                client.close()
                cluster.close()


class RateColumn(ProgressColumn):
    """Replicates a second: while the batch runs, from the progress bar's recent samples (what the time
    left is reckoned from); once it is over, the whole batch's, replicates run over the time they took
    (the figure the driver prints after it), not the last half minute's, when the last tasks leave
    workers idle. ``done_before`` (a field of the task): replicates a resumed batch found done."""

    def render(self, task) -> Text:
        speed = task.speed
        if task.finished and task.finished_time:
            speed = (task.completed - task.fields.get("done_before", 0)) / task.finished_time
        return Text("" if speed is None else f"{speed:.2f}/s", style="progress.data.speed")


def _progress(console: Console | None, enabled: bool) -> Progress:
    """The batch's progress bar. The bar itself takes the width the words and figures leave (at least
    :data:`MIN_BAR`): a bar of fixed width made Rich cut the figures short in 80 columns, the width of an
    80-column terminal and of output written to a file (a Slurm job's log), as ``10000/10… replicates``."""
    return Progress(TextColumn("[bold]{task.description}"),
                    BarColumn(bar_width=None, table_column=Column(ratio=1, min_width=MIN_BAR)), MofNCompleteColumn(),
                    TextColumn("replicates"), RateColumn(), TimeElapsedColumn(), TextColumn("elapsed"),
                    TimeRemainingColumn(), TextColumn("left"), console=console, disable=not enabled, transient=False,
                    refresh_per_second=2, expand=True)


def lost_scheduler(client: Client, exc: BaseException) -> bool:
    """Did a task's future fail with ``exc`` because ``client`` lost its scheduler? On losing it, a client
    cancels every future it holds, then tries to reconnect for its timeout (:data:`CONNECT_TIMEOUT`), and
    closes if it cannot."""
    return client.status != "running" or (isinstance(exc, FutureCancelledError) and exc.reason == LOST_REASON)


def reconnected(client: Client) -> bool:
    """Wait while ``client`` tries to reconnect to its scheduler: True once it has, False once it has given
    up (or :data:`CONNECT_TIMEOUT`, and a little more, has passed)."""
    deadline = time.monotonic() + parse_timedelta(CONNECT_TIMEOUT) + RECONNECT_SLACK_S
    while client.status == "connecting" and time.monotonic() < deadline:
        time.sleep(RECONNECT_POLL_S)
    return client.status == "running"


def _lost(address: str) -> str:
    return f"lost the connection to the Dask scheduler at {address}"


def _keep(plan: BatchPlan, out: Path) -> None:
    """Keep the scenario's files the batch runs in ``out`` (campaign/batch/bundle.py ``keep``)."""
    if plan.files is not None:
        try:
            keep(plan.files, out)
        except OSError as exc:
            raise BatchError(f"--out: cannot write {out / KEPT} ({exc.strerror or exc})") from None


def run_batch(plan: BatchPlan, out_dir: str | Path, *, workers: int | None = None, scheduler: str | None = None,
              keep_records: bool = False, retries: int = DEFAULT_RETRIES, progress: bool = True,
              console: Console | None = None, on_chunk: Callable[[Chunk, int], None] | None = None,
              task_fn: Callable[[ChunkTask], ChunkResult] = run_chunk) -> BatchOutcome:
    """Run (or resume) ``plan`` into ``out_dir``; see the module's docstring.

    ``on_chunk(chunk, chunks_written_so_far)`` is called after each chunk is written (whatever it
    raises stops the batch, the store keeping what was written); ``task_fn`` is what the workers run
    for each chunk (``run_chunk``; tests wrap it)."""
    out = Path(out_dir)
    # A resumed batch's store is checked before a cluster is sought; a new one is made only once the
    # cluster is there, so that a scheduler that cannot be reached leaves nothing behind.
    store = ResultStore.existing(out, plan)
    all_chunks = plan.chunks()
    pending = store.pending() if store is not None else all_chunks
    outcome = BatchOutcome(plan, out, len(all_chunks), len(all_chunks) - len(pending))
    if not pending:
        _keep(plan, out)  # (a folder whose copy was removed gets it again)
        return outcome
    tasks = tasks_for(plan, pending, keep_records)
    done_before = sum(c.n for c in all_chunks) - sum(c.n for c in pending)
    t0 = time.perf_counter()
    with dask_client(workers, scheduler) as client, _progress(console, progress) as bar:
        if store is None:
            try:
                store = ResultStore.create(out, plan)
            except OSError as exc:
                raise BatchError(f"--out: cannot write {out} ({exc.strerror or exc})") from None
        _keep(plan, out)
        address = client.scheduler.address  # named if it is lost (a client that gives it up forgets it)
        bar_id = bar.add_task(plan.scenario_name, total=plan.n_replicates, completed=done_before,
                              done_before=done_before)
        # A line of progress every so often in a log, and a word when the cluster has no workers.
        watch = BatchWatch(client, bar, speak=progress)
        window = TaskWindow(client, tasks, lambda t: client.submit(task_fn, t, retries=retries, pure=False),
                            threads=watch.threads, on_wait=watch.tick)
        try:
            for task, fut in window:
                try:
                    result: ChunkResult = fut.result()
                except Exception as exc:  # noqa: BLE001 - whatever the task raised, or KilledWorker: reported
                    if lost_scheduler(client, exc):
                        if not reconnected(client):
                            raise SchedulerLost(_lost(address)) from None
                        window.resubmit(task)  # the scheduler, back or new, knows nothing of it
                        continue
                    outcome.failed.append((describe(task), f"{type(exc).__name__}: {exc}"))
                    continue
                finally:
                    fut.release()
                if tuple(result.measures) != MEASURE_NAMES:  # a worker with another version of the package
                    outcome.failed.append((describe(task), ("the worker's measures differ from the driver's: "
                                                            "install the same version of this package on every "
                                                            "worker")))
                    continue
                where = out / RECORDS
                try:
                    if keep_records:  # before the store marks the chunk done
                        write_records(where, task, result)
                    where = store.path
                    store.write(task.chunk, result.values)
                except OSError as exc:
                    raise ResultsNotWritten(f"cannot write {where} ({exc.strerror or exc})") from None
                outcome.ran += 1
                outcome.replicates_run += task.chunk.n
                bar.advance(bar_id, task.chunk.n)
                watch.tick()
                if on_chunk is not None:
                    on_chunk(task.chunk, outcome.ran)
        except CommClosedError:  # a call to a scheduler gone, made outside the watch (which keeps its last
            # count) and before the cancelled tasks tell of it: the same loss
            raise SchedulerLost(_lost(address)) from None
        finally:
            window.cancel()
            outcome.elapsed_s = time.perf_counter() - t0
            outcome.workers = watch.most_workers
    return outcome
