"""The batch driver on Dask: the same inputs give the same Dataset whatever the workers; a killed worker,
an interrupted and resumed batch and a failed task all end with every replicate exactly once."""

from __future__ import annotations

import functools
import os

import numpy as np
import pytest

from campaign.batch.analyse import analyse
from campaign.batch.design import parse_design
from campaign.batch.measures import MEASURE_NAMES, flatten
from campaign.batch.replicate import rerun
from campaign.batch.run import make_plan, run_batch
from campaign.batch.store import DONE, open_results
from tests.batch import helpers
from tests.batch.conftest import CHUNK, RUNS, SEED

SMALL = "base,same"  # the smaller batches of the failure tests: two variants,
SMALL_RUNS = 10  # ten replicates each


def dataset(out):
    return open_results(out).load()


def assert_same_as_reference(ds, ref) -> None:
    """Every measure of ``ds`` equals the reference batch's for the same variants and replicates (the
    same seeds: replicate r's seed depends on the batch seed and r alone)."""
    names = [str(v) for v in ds["variant_name"].values]
    rows = [list(ref["variant_name"].values).index(v) for v in names]
    n = ds.sizes["replicate"]
    assert ds["seed"].values.tolist() == ref["seed"].values[:n].tolist()
    assert ds[DONE].values.all()
    for m in MEASURE_NAMES:
        np.testing.assert_array_equal(ds[m].values, ref[m].values[rows, :n], err_msg=m)


def written(out) -> int:
    """Chunks of the completion mask written so far (a file each)."""
    return sum(p.is_file() for p in (out / "results.zarr" / DONE / "c").rglob("*"))


def record_files(out) -> list[tuple[str, str]]:
    return sorted((p.parent.parent.name, p.parent.name) for p in (out / "records").rglob("events.jsonl"))


def expected_records(ds) -> list[tuple[str, str]]:
    return sorted((str(v), str(s)) for v in ds["variant_name"].values for s in ds["seed"].values)


def test_the_reference_batch_is_complete_and_varies_with_the_seed(reference) -> None:
    ds = dataset(reference)
    assert dict(ds.sizes) == {"variant": 3, "replicate": RUNS}
    assert list(ds["variant_name"].values) == ["base", "faster", "same"]
    assert ds[DONE].values.all()
    assert len(np.unique(ds["events"].values[0])) > 1  # replicates differ: the test below is not trivial
    assert record_files(reference) == expected_records(ds)


def test_one_worker_gives_the_same_dataset_as_two(small, reference, tmp_path) -> None:
    outcome = run_batch(make_plan(small, "all", RUNS, SEED, CHUNK), tmp_path, workers=1, progress=False)
    assert outcome.complete and outcome.workers == 1 and not outcome.failed
    assert dataset(tmp_path).identical(dataset(reference))


def test_the_workers_need_no_copy_of_the_scenarios_files(cluster, reference, tmp_path) -> None:
    # The workers of a cluster on other machines see neither the driver's folder nor a shared one; the
    # files go with the tasks. Here the folder is gone before the batch starts.
    import shutil

    from tests.batch.conftest import write_small

    small = write_small(tmp_path / "s")
    plan = make_plan(small, "all", RUNS, SEED, CHUNK)
    shutil.rmtree(small.parent)
    outcome = run_batch(plan, tmp_path / "out", scheduler=cluster, progress=False)
    assert outcome.complete and not outcome.failed
    assert_same_as_reference(dataset(tmp_path / "out"), dataset(reference))


def test_a_worker_with_other_software_refuses_its_tasks_naming_the_difference(small, cluster, tmp_path) -> None:
    # As a worker started from another checkout, or with another numpy, would: here the driver's is changed.
    import dataclasses

    plan = make_plan(small, "base", 4, SEED, 2)
    mine = plan.software
    other = dataclasses.replace(mine, versions=tuple((n, "0.0" if n == "numpy" else v) for n, v in mine.versions))
    outcome = run_batch(dataclasses.replace(plan, software=other), tmp_path, scheduler=cluster, progress=False,
                        retries=0)
    assert outcome.ran == 0 and len(outcome.failed) == 2
    assert all(f"numpy {np.__version__} on the worker, 0.0 on the driver" in error for _, error in outcome.failed)
    assert not dataset(tmp_path)[DONE].values.any()


def test_a_killed_worker_is_replaced_and_every_replicate_written_once(small, cluster, reference, tmp_path) -> None:
    marker = tmp_path / "killed"
    out = tmp_path / "out"
    outcome = run_batch(make_plan(small, SMALL, SMALL_RUNS, SEED), out, scheduler=cluster, progress=False,
                        keep_records=True, task_fn=functools.partial(helpers.kill_once, marker=str(marker)))
    assert marker.exists()  # a worker did die mid-batch
    assert outcome.complete and not outcome.failed
    ds = dataset(out)
    assert_same_as_reference(ds, dataset(reference))
    assert record_files(out) == expected_records(ds)


class Interrupt(Exception):
    pass


def test_an_interrupted_batch_resumes_where_it_stopped(small, cluster, reference, tmp_path) -> None:
    plan = make_plan(small, SMALL, SMALL_RUNS, SEED)
    stop_after = 3

    def stop(chunk, written):
        if written == stop_after:
            raise Interrupt

    with pytest.raises(Interrupt):
        run_batch(plan, tmp_path, scheduler=cluster, progress=False, keep_records=True, on_chunk=stop)
    part = dataset(tmp_path)
    written = int(part[DONE].values.sum())
    assert 0 < written < plan.n_replicates
    assert np.isnan(part["events"].where(~part[DONE])).all()  # nothing but whole chunks was written

    seen = []
    outcome = run_batch(plan, tmp_path, scheduler=cluster, progress=False, keep_records=True,
                        on_chunk=lambda c, n: seen.append(c))
    assert outcome.already_done == stop_after and outcome.ran == len(plan.chunks()) - stop_after
    assert outcome.replicates_run == plan.n_replicates - written
    assert len(seen) == len(set(seen))  # no chunk run twice in the resumed batch
    ds = dataset(tmp_path)
    assert_same_as_reference(ds, dataset(reference))
    assert record_files(tmp_path) == expected_records(ds)
    again = run_batch(plan, tmp_path, scheduler=cluster, progress=False)
    assert again.ran == 0 and again.complete  # a finished batch is left alone


def test_a_failing_variant_is_reported_and_rerun_later(small, cluster, reference, tmp_path) -> None:
    plan = make_plan(small, SMALL, SMALL_RUNS, SEED)
    outcome = run_batch(plan, tmp_path, scheduler=cluster, progress=False, retries=0,
                        task_fn=functools.partial(helpers.fail_variant, variant="same"))
    assert not outcome.complete and outcome.failed
    assert all(where["variant"] == "same" and "boom in same" in err for where, err in outcome.failed)
    done = dataset(tmp_path)[DONE].values
    assert done[0].all() and not done[1].any()
    assert run_batch(plan, tmp_path, scheduler=cluster, progress=False).complete
    assert_same_as_reference(dataset(tmp_path), dataset(reference))


def test_a_design_batch_adds_points_and_keeps_common_seeds(small, cluster, reference, tmp_path) -> None:
    design = parse_design({"kind": "grid", "parameters": {"sighting_range_factor": {"values": [0.5, 1.0]}}})
    plan = make_plan(small, "base", 4, SEED, design=design)
    assert run_batch(plan, tmp_path, scheduler=cluster, progress=False).complete
    ds = dataset(tmp_path)
    assert ds["events"].dims == ("variant", "point", "replicate") and dict(ds.sizes)["point"] == 2
    ref = dataset(reference)
    # At factor 1.0 a replicate is the reference batch's replicate of the same number (the same seed).
    for name in ("events", "battles", "points_entente", "contacts_goeben"):
        assert ds[name].values[0, 1].tolist() == ref[name].values[0, :4].tolist()
    assert not np.array_equal(ds["events"].values[0, 0], ds["events"].values[0, 1])  # the factor matters
    # A design point's replicate reruns exactly (campaign.batch.replicate.rerun) with the point's parameters.
    result = rerun(small, "base", int(ds["seed"].values[2]), {"sighting_range_factor": 0.5})
    assert flatten(result.events, result.meta)["events"] == ds["events"].values[0, 0, 2]
    text, _ = analyse(tmp_path)
    assert "pooled over the design points (sighting_range_factor)" in text and "8 of 8 replicates done" in text
    assert "Sensitivity: each measure's mean at each level of each parameter" in (tmp_path / "analysis.html").read_text()


def test_the_finished_bar_shows_the_whole_batchs_rate_not_the_last_moments() -> None:
    # While running, the rate is the bar's recent samples (the time left is reckoned from them); once
    # over, it is replicates run over the time taken, as the driver prints it, a resumed batch's
    # replicates found done not counted.
    from rich.progress import Progress

    from campaign.batch.run import RateColumn

    clock = iter([0.0, 0.0, 10.0, 20.0, 20.0, 20.0, 20.0]).__next__
    with Progress(get_time=clock, disable=True) as bar:
        tid = bar.add_task("b", total=100, completed=40, done_before=40)
        bar.update(tid, completed=90)  # 50 run in the first 10 s
        bar.update(tid, completed=100)  # the last 10 in the next 10 s: finished at 20 s
        task = bar.tasks[0]
        assert task.finished and task.finished_time == 20.0
        assert RateColumn().render(task).plain == "3.00/s"  # (100 - 40) / 20


def test_a_local_clusters_housekeeping_is_paced_for_a_batch_and_its_workers_follow() -> None:
    # The workers' profiler off and the checks slowed, in the worker processes themselves (the nannies
    # pass the configuration on); the driver's configuration is as it was once the cluster is closed.
    import dask

    from campaign.batch.run import LOCAL_HOUSEKEEPING, dask_client

    before = {k: dask.config.get(k) for k in LOCAL_HOUSEKEEPING}
    assert before != LOCAL_HOUSEKEEPING  # Dask's defaults differ, or the test proves nothing
    with dask_client(workers=1) as client:
        seen = client.run(lambda: {k: dask.config.get(k) for k in LOCAL_HOUSEKEEPING})
        profiling = client.run(lambda dask_worker: "profile" in dask_worker.periodic_callbacks)
    assert list(seen.values()) == [LOCAL_HOUSEKEEPING]
    assert list(profiling.values()) == [False]
    assert {k: dask.config.get(k) for k in LOCAL_HOUSEKEEPING} == before


def test_the_bar_names_the_time_elapsed_and_the_time_left() -> None:
    # Two bare clock times side by side read as one of them "left"; each is named after it.
    import io
    import re

    from rich.console import Console

    from campaign.batch.run import _progress

    out = io.StringIO()
    bar = _progress(Console(file=out, width=200, force_terminal=False), True)
    with bar:
        bar.add_task("goeben_1914", total=10, completed=4)
    line = out.getvalue().splitlines()[-1]
    assert re.search(r"4/10 replicates .*\d:\d\d:\d\d elapsed (-:--:--|\d:\d\d:\d\d) left$", line.rstrip()), line


def test_the_bars_figures_are_whole_in_80_columns() -> None:
    # 80 columns: an 80-column terminal, and Rich's width for output written to a file (a Slurm job's log).
    # The bar gives way, not the figures (they read "10000/10… replicates" beside a bar of fixed width).
    import io

    from rich.console import Console

    from campaign.batch.run import MIN_BAR, _progress

    for width in (80, 200):
        out = io.StringIO()
        bar = _progress(Console(file=out, width=width, force_terminal=False), True)
        with bar:
            task = bar.add_task("goeben_1914", total=100_000, completed=0, done_before=0)
            bar.update(task, completed=99_980)
        line = out.getvalue().splitlines()[-1].rstrip()
        assert "…" not in line and "99980/100000 replicates" in line and line.endswith(" left"), line
        assert len(line) <= width and line.count("━") >= MIN_BAR


def test_written_to_a_file_the_progress_is_a_line_every_so_often(small, cluster, tmp_path, monkeypatch) -> None:
    # Not a terminal (a Slurm job's log): Rich draws the bar only at the end, so the driver writes it as
    # a line of its own every LOG_EVERY_S (here after every task and every tick of waiting for one), none
    # behind the one before.
    import io
    import re

    from rich.console import Console

    from campaign.batch import watch

    monkeypatch.setattr(watch, "LOG_EVERY_S", 0.0)
    out = io.StringIO()
    outcome = run_batch(make_plan(small, "base", 8, SEED, 2), tmp_path, scheduler=cluster,
                        console=Console(file=out, width=100, force_terminal=False))
    assert outcome.complete
    counts = [int(m) for m in re.findall(r"(\d+)/8 replicates", out.getvalue())]
    # A line after every task (and others while waiting for one), then the bar at the end.
    assert counts == sorted(counts) and {2, 4, 6} <= set(counts) and counts[-2:] == [8, 8]
    quiet = io.StringIO()
    run_batch(make_plan(small, "base", 8, SEED, 2), tmp_path / "quiet", scheduler=cluster, progress=False,
              console=Console(file=quiet, force_terminal=False))
    assert quiet.getvalue() == ""


def test_kept_records_need_no_file_system_shared_with_the_workers(small, reference, tmp_path) -> None:
    # The workers return each replicate's records and the driver writes them: workers that cannot write
    # into the driver's folders keep records all the same, byte for byte the reference batch's. (On its own
    # cluster: the workers' refusal to write stays with them.)
    from distributed import LocalCluster

    from campaign.batch.run import LOCAL_QUIET

    plan = make_plan(small, "all", RUNS, SEED, CHUNK)
    with LocalCluster(n_workers=1, threads_per_worker=1, processes=True, **LOCAL_QUIET) as c:
        outcome = run_batch(plan, tmp_path, scheduler=c.scheduler_address, progress=False, keep_records=True,
                            retries=0, task_fn=helpers.no_disk)
    assert outcome.complete and not outcome.failed
    assert record_files(tmp_path) == record_files(reference)
    for variant, seed in record_files(reference):
        rel = f"records/{variant}/{seed}/events.jsonl"
        assert (tmp_path / rel).read_bytes() == (reference / rel).read_bytes()


def test_records_that_cannot_be_written_stop_the_batch_before_their_chunk_is_done(small, cluster, tmp_path,
                                                                                  monkeypatch) -> None:
    import errno

    import campaign.batch.run
    from campaign.batch.run import ResultsNotWritten

    def full(*_):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(campaign.batch.run, "write_records", full)
    with pytest.raises(ResultsNotWritten, match=r"cannot write .*records \(No space left on device\)"):
        run_batch(make_plan(small, "base", 2, SEED), tmp_path, scheduler=cluster, progress=False, keep_records=True)
    assert not dataset(tmp_path)[DONE].values.any()


def test_kept_records_go_under_out_whatever_folder_the_workers_run_in(small, cluster, tmp_path, monkeypatch) -> None:
    # The workers of an existing cluster run in the folder they were started in, not the driver's: a
    # relative --out is the driver's (which writes the records the workers return).
    import shutil
    import uuid

    from distributed import Client

    with Client(cluster, set_as_default=False) as client:
        worker_dirs = set(client.run(os.getcwd).values())
    name = f"out-{uuid.uuid4().hex}"
    monkeypatch.chdir(tmp_path)
    try:
        plan = make_plan(small, "base", 2, SEED)
        assert run_batch(plan, name, scheduler=cluster, progress=False, keep_records=True).complete
        assert record_files(tmp_path / name) == expected_records(dataset(tmp_path / name))
    finally:
        for d in worker_dirs:  # where records written by the workers with the relative path would go
            shutil.rmtree(os.path.join(d, name), ignore_errors=True)


def test_a_batch_on_a_cluster_without_workers_says_it_waits_and_goes_on_when_one_joins(small, tmp_path,
                                                                                    monkeypatch) -> None:
    # A Slurm allocation whose jobs have not started (or have ended): the driver writes its progress line
    # while nothing finishes, says that it waits, and finishes once a worker joins.
    import io
    import threading
    import time

    from distributed import LocalCluster
    from rich.console import Console

    from campaign.batch import watch, window
    from campaign.batch.run import LOCAL_QUIET

    monkeypatch.setattr(watch, "NO_WORKERS_GRACE_S", 0.5)
    monkeypatch.setattr(watch, "LOG_EVERY_S", 1.0)
    monkeypatch.setattr(window, "RECOUNT_S", 0.1)
    monkeypatch.setattr(window, "WAIT_TICK_S", 0.1)
    out = io.StringIO()
    with LocalCluster(n_workers=0, threads_per_worker=1, processes=True, **LOCAL_QUIET) as empty:
        def start_a_worker_once_told() -> None:
            deadline = time.monotonic() + 60
            while "the batch waits" not in out.getvalue() and time.monotonic() < deadline:
                time.sleep(0.1)
            time.sleep(1.5)  # long enough for a progress line with nothing done
            empty.scale(1)

        helper = threading.Thread(target=start_a_worker_once_told, daemon=True)
        helper.start()
        outcome = run_batch(make_plan(small, "base", 4, SEED, 2), tmp_path, scheduler=empty.scheduler_address,
                            console=Console(file=out, width=200, force_terminal=False))
        helper.join()
    text = out.getvalue()
    assert outcome.complete and not outcome.failed and outcome.workers == 1
    assert "0/4 replicates" in text  # a line written while nothing had finished
    assert text.count("no workers on the cluster: the batch waits for some to join") == 1
    assert text.index("the batch waits") < text.index("1 worker on the cluster: the batch goes on")


def test_a_scheduler_back_within_the_timeout_finishes_the_batch_without_duplicates(small, reference, tmp_path,
                                                                                   monkeypatch) -> None:
    # The scheduler dies mid-batch and a new one starts at the same address (a supervisor restarting it):
    # the client reconnects, the driver submits again the tasks the client had to cancel, and the batch
    # ends with every replicate once, as the reference batch has them.
    import os
    import signal
    import socket
    import subprocess
    import sys
    import threading
    import time

    from campaign.batch import run as run_module
    from campaign.paths import ROOT

    monkeypatch.setattr(run_module, "CONNECT_TIMEOUT", "60s")  # time for a new scheduler to start
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    script = tmp_path / "cluster.py"
    script.write_text("import time\nfrom distributed import LocalCluster\n"
                      "if __name__ == '__main__':\n"
                      "    with LocalCluster(n_workers=1, threads_per_worker=1, host='127.0.0.1',"
                      f" scheduler_port={port}, dashboard_address=':0') as c:\n"
                      "        print(c.scheduler_address, flush=True)\n"
                      "        time.sleep(600)\n")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}  # the workers unpickle tests.batch.helpers

    def start() -> subprocess.Popen:
        return subprocess.Popen([sys.executable, str(script)], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                text=True, start_new_session=True, env=env)

    clusters = [start()]
    at_restart: list[int] = []  # chunks written when the scheduler was killed
    out = tmp_path / "out"
    try:
        address = clusters[0].stdout.readline().strip()

        def restart_the_scheduler_after_a_few_tasks() -> None:
            deadline = time.monotonic() + 120
            while written(out) < 3 and time.monotonic() < deadline:
                time.sleep(0.05)
            os.killpg(clusters[0].pid, signal.SIGKILL)
            at_restart.append(written(out))
            clusters[0].wait()
            clusters.append(start())

        restarter = threading.Thread(target=restart_the_scheduler_after_a_few_tasks, daemon=True)
        restarter.start()
        outcome = run_batch(make_plan(small, "base", RUNS, SEED, 1), out, scheduler=address, progress=False,
                            task_fn=functools.partial(helpers.slow, seconds=0.3))
        restarter.join()
    finally:
        for c in clusters:
            if c.poll() is None:
                os.killpg(c.pid, signal.SIGKILL)
            c.wait()
    assert len(clusters) == 2 and 3 <= at_restart[0] < RUNS  # the scheduler was restarted mid-batch
    assert outcome.complete and not outcome.failed and outcome.ran == RUNS
    assert_same_as_reference(dataset(out), dataset(reference))
