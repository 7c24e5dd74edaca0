"""The batch and analyse commands: bad arguments exit 2 with a message and write nothing; a batch on an
existing cluster, resumed, and analysed."""

from __future__ import annotations

import pytest

from campaign.cli import main
from tests.batch.conftest import SEED


@pytest.mark.parametrize(("args", "says"), [
    (["--runs", "0"], "--runs: must be 1 or more"),
    (["--runs", str(10**12)], "= 3,000,000,000,000 replicates, more than 10,000,000 in one batch"),
    (["--seed", "-1"], "--seed: must be 0 to"),
    (["--workers", "0"], "--workers: must be 1 to 256, not 0"),
    (["--workers", "2", "--scheduler", "tcp://127.0.0.1:1"], "not both"),
    (["--variants", "nope"], "no variant 'nope'"),
    (["--variants", ",,"], "names no variant"),
    (["--scheduler", "nonsense"], "'nonsense' is not a scheduler's address"),
    (["--chunk", "0"], "--chunk: must be 1 or more"),
    (["--design", "missing.yaml"], "no such file"),
])
def test_bad_batch_arguments_exit_2_and_write_nothing(small, tmp_path, capsys, args, says) -> None:
    out = tmp_path / "out"
    assert main(["batch", str(small), "--out", str(out), *args]) == 2
    assert says in capsys.readouterr().err
    assert not out.exists()


def test_a_scheduler_that_cannot_be_reached_exits_2_and_writes_nothing(small, tmp_path, capsys,
                                                                        monkeypatch) -> None:
    import socket

    import dask

    import campaign.batch.run

    monkeypatch.setattr(campaign.batch.run, "CONNECT_TIMEOUT", "2s")
    with socket.socket() as s:  # a port nothing listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    out = tmp_path / "out"
    before = dask.config.get("scheduler", None)
    assert main(["batch", str(small), "--out", str(out), "--scheduler", f"tcp://127.0.0.1:{port}"]) == 2
    assert "--scheduler: cannot reach a Dask scheduler" in capsys.readouterr().err
    assert not out.exists()
    # The failed client leaves Dask's configuration as it was (a default client's setting of the
    # process's scheduler would send every later computation of a Dask collection to no cluster).
    assert dask.config.get("scheduler", None) == before


def test_a_scenario_fault_exits_2(tmp_path, capsys) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text("name: x\n")
    assert main(["batch", str(bad), "--out", str(tmp_path / "o")]) == 2
    assert "required field is missing" in capsys.readouterr().err


def test_analyse_of_a_folder_without_results_exits_2(tmp_path, capsys) -> None:
    assert main(["analyse", str(tmp_path)]) == 2
    assert "no batch results" in capsys.readouterr().err


def test_batch_on_a_cluster_resume_and_analyse(small, cluster, tmp_path, capsys) -> None:
    out = tmp_path / "b"
    common = ["batch", str(small), "--variants", "same", "--runs", "4", "--scheduler", cluster, "--out", str(out),
              "--no-progress"]
    args = [*common, "--seed", str(SEED)]
    assert main(args) == 0
    said = capsys.readouterr().out
    assert "2 variants x 1 design point x 4 replicates = 8" in said and "ran 8 replicates" in said
    assert f"python run_campaign.py {out / 'scenario' / 'small.yaml'} --variant same --seed " in said
    assert main(args) == 0
    assert "resumed: 8 of 8 tasks were already done" in capsys.readouterr().out
    assert main([*common, "--seed", "8"]) == 2  # another batch's store
    assert "holds the results of another batch" in capsys.readouterr().err
    assert main(["analyse", str(out), "--measures", "battles,events"]) == 0
    said = capsys.readouterr().out
    assert "== same" in said and "battles" in said and (out / "analysis.html").exists()


def test_a_batch_resumed_after_its_scenarios_files_were_edited_is_refused_and_its_analysis_says_so(
        cluster, tmp_path, capsys) -> None:
    from tests.batch.conftest import write_small

    small = write_small(tmp_path / "s")
    out = tmp_path / "b"
    args = ["batch", str(small), "--variants", "same", "--runs", "4", "--chunk", "2", "--scheduler", cluster,
            "--out", str(out), "--no-progress"]
    assert main(args) == 0
    assert main(["analyse", str(out)]) == 0
    assert "changed since this batch ran" not in capsys.readouterr().out
    overlay = small.parent / "variants" / "same.yaml"
    overlay.write_text(overlay.read_text().replace("a note changes nothing", "a note, edited"))
    before = {p: p.read_bytes() for p in out.rglob("*") if p.is_file()}
    assert main(args) == 2
    err = capsys.readouterr().err
    assert "the scenario's files (variants/same.yaml) changed since it began" in err and "Traceback" not in err
    assert {p: p.read_bytes() for p in out.rglob("*") if p.is_file()} == before  # nothing written
    # Its analysis still reads, and says that a rerun from the files as they are now is not the batch's.
    assert main(["analyse", str(out)]) == 0
    said = capsys.readouterr().out
    assert f"note: variants/same.yaml changed since this batch ran (beside {small})" in said
    assert "its folder keeps the files it ran, in scenario/" in said
    # An overlay the batch does not run is not its concern.
    faster = small.parent / "variants" / "faster.yaml"
    faster.write_text(faster.read_text().replace("speed: 20", "speed: 21"))
    overlay.write_text(overlay.read_text().replace("a note, edited", "a note changes nothing"))
    assert main(args) == 0
    assert "resumed: 4 of 4 tasks were already done" in capsys.readouterr().out
    assert main(["analyse", str(out)]) == 0
    assert "changed since this batch ran" not in capsys.readouterr().out


def test_a_batch_resumed_under_other_software_is_refused_and_its_analysis_says_so(small, cluster, tmp_path, capsys,
                                                                           monkeypatch) -> None:
    import dataclasses

    import campaign.batch.run
    from campaign.batch.software import this_software

    out = tmp_path / "b"
    args = ["batch", str(small), "--variants", "base", "--runs", "2", "--scheduler", cluster, "--out", str(out),
            "--no-progress"]
    assert main(args) == 0
    capsys.readouterr()
    mine = this_software()
    upgraded = dataclasses.replace(mine, versions=tuple((n, "99.0" if n == "scipy" else v) for n, v in mine.versions))
    monkeypatch.setattr(campaign.batch.run, "this_software", lambda: upgraded)
    assert main(args) == 2
    err = capsys.readouterr().err
    assert f"the software (scipy 99.0 now, {dict(mine.versions)['scipy']} then) changed since it began" in err
    assert "Traceback" not in err
    # Its analysis says that a rerun under the new software is not the batch's.
    assert main(["analyse", str(out)]) == 0
    assert "the software changed" not in capsys.readouterr().out
    import campaign.batch.analyse

    monkeypatch.setattr(campaign.batch.analyse, "this_software", lambda: upgraded)
    assert main(["analyse", str(out)]) == 0
    said = capsys.readouterr().out
    assert (f"note: the software changed since this batch ran (scipy 99.0 now, {dict(mine.versions)['scipy']} "
            "then): a replicate rerun with it will not be the batch's") in said


def test_a_kept_replicate_reruns_exactly_with_the_run_command(small, reference, tmp_path) -> None:
    """The rerun the batch prints: the run command with the variant and the replicate's seed gives the very
    records the batch kept (and every other file of a run)."""
    kept = min((reference / "records" / "faster").iterdir())
    out = tmp_path / "rerun"
    assert main(["run", str(small), "--variant", "faster", "--seed", kept.name, "--out", str(out)]) == 0
    assert (out / "events.jsonl").read_bytes() == (kept / "events.jsonl").read_bytes()
    assert (out / "replay.html").exists()


def test_the_batch_keeps_the_files_it_ran_and_a_replicate_reruns_from_them_after_an_edit(cluster, tmp_path,
                                                                                       capsys) -> None:
    """The command the batch prints reruns its replicate from the files it ran, kept in its folder: the very
    records it kept, after the scenario's own files have changed (from which the rerun differs)."""
    import shlex

    from tests.batch.conftest import write_small

    small = write_small(tmp_path / "s")
    out = tmp_path / "b"
    assert main(["batch", str(small), "--variants", "faster", "--runs", "2", "--scheduler", cluster,
                 "--out", str(out), "--keep-records", "--no-progress"]) == 0
    for rel in ("small.yaml", "variants/faster.yaml"):
        assert (out / "scenario" / rel).read_bytes() == (small.parent / rel).read_bytes()
    assert not (out / "scenario" / "variants" / "same.yaml").exists()  # not one of the batch's variants
    line = next(s for s in capsys.readouterr().out.splitlines() if "rerun any replicate exactly:" in s)
    command = shlex.split(line.split("exactly:", 1)[1].split("(replicate 0")[0])
    assert command[:3] == ["python", "run_campaign.py", str(out / "scenario" / "small.yaml")]
    overlay = small.parent / "variants" / "faster.yaml"
    overlay.write_text(overlay.read_text().replace("speed: 20", "speed: 24"))
    seed = command[command.index("--seed") + 1]
    kept = out / "records" / "faster" / seed / "events.jsonl"
    assert main([*command[2:], "--out", str(tmp_path / "rerun")]) == 0
    assert (tmp_path / "rerun" / "events.jsonl").read_bytes() == kept.read_bytes()
    assert main(["run", str(small), "--variant", "faster", "--seed", seed, "--out", str(tmp_path / "edited")]) == 0
    assert (tmp_path / "edited" / "events.jsonl").read_bytes() != kept.read_bytes()
    # Removed from the folder, the copy comes back when the same batch is run again (nothing left to run).
    import shutil

    shutil.rmtree(out / "scenario")
    overlay.write_text(overlay.read_text().replace("speed: 24", "speed: 20"))
    assert main(["batch", str(small), "--variants", "faster", "--runs", "2", "--scheduler", cluster,
                 "--out", str(out), "--keep-records", "--no-progress"]) == 0
    assert (out / "scenario" / "variants" / "faster.yaml").read_bytes() == overlay.read_bytes()


def test_a_design_point_reruns_exactly_with_the_run_command(small, tmp_path) -> None:
    """``run --set PARAMETER=VALUE``: the run of a design batch's replicate at its point, the same records as
    ``rerun`` gives; and the parameter changes the run (Goeben held to 10 kn)."""
    from campaign.batch.replicate import rerun

    out, plain = tmp_path / "set", tmp_path / "plain"
    assert main(["run", str(small), "--seed", "3", "--set", "goeben_sustained_kn=10", "--out", str(out)]) == 0
    assert main(["run", str(small), "--seed", "3", "--out", str(plain)]) == 0
    direct = rerun(small, "base", 3, {"goeben_sustained_kn": 10.0}).write(tmp_path / "direct")
    assert direct and (out / "events.jsonl").read_bytes() == (tmp_path / "direct" / "events.jsonl").read_bytes()
    assert (out / "events.jsonl").read_bytes() != (plain / "events.jsonl").read_bytes()


@pytest.mark.parametrize(("sets", "says"), [
    (["nope=1"], "unknown parameter 'nope'"),
    (["sighting_range_factor"], "is not PARAMETER=VALUE"),
    (["sighting_range_factor=fast"], "'fast' is not a number"),
    (["sighting_range_factor=50"], "outside 0.1..10"),
    (["sighting_range_factor=1", "sighting_range_factor=2"], "given twice"),
])
def test_bad_design_parameters_exit_2_and_write_nothing(small, tmp_path, capsys, sets, says) -> None:
    out = tmp_path / "out"
    args = [a for s in sets for a in ("--set", s)]
    assert main(["run", str(small), "--out", str(out), *args]) == 2
    err = capsys.readouterr().err
    assert says in err and "--set" in err
    assert not out.exists()


def test_a_design_batch_prints_the_command_that_reruns_its_replicate(small, cluster, tmp_path, capsys) -> None:
    """A Latin hypercube's point comes back bit for bit from the printed ``--set`` values: the rerun gives
    the records the batch kept."""
    import shlex

    design = tmp_path / "design.yaml"
    design.write_text("kind: lhs\npoints: 2\nseed: 5\nparameters:\n"
                      "  goeben_sustained_kn: {low: 9.0, high: 15.0}\n")
    out = tmp_path / "b"
    assert main(["batch", str(small), "--variants", "base", "--runs", "1", "--design", str(design),
                 "--scheduler", cluster, "--out", str(out), "--keep-records", "--no-progress"]) == 0
    said = capsys.readouterr().out
    line = next(s for s in said.splitlines() if "a design point's replicate:" in s)
    command = shlex.split(line.split("replicate:", 1)[1].split("(point 0")[0])
    assert command[:2] == ["python", "run_campaign.py"] and "--set" in command
    assert main([*command[2:], "--out", str(tmp_path / "rerun")]) == 0
    seed = command[command.index("--seed") + 1]
    kept = out / "records" / "base" / "point0" / seed / "events.jsonl"
    assert (tmp_path / "rerun" / "events.jsonl").read_bytes() == kept.read_bytes()


def test_a_variants_change_that_the_design_sets_is_noted_by_the_batch_and_its_analysis(cluster, tmp_path,
                                                                                       capsys) -> None:
    """A variant whose only change is Goeben's sustained speed, in a design that sets it at every point, is
    the base there: the batch and analyse say so rather than leave its differences of zero unexplained."""
    import yaml

    from tests.batch.conftest import write_small

    scenario = write_small(tmp_path / "small")
    (scenario.parent / "variants" / "slow.yaml").write_text(yaml.safe_dump({
        "variant": "slow", "base": "../small.yaml", "title": "Goeben slow", "summary": "Goeben holds 20 kn.",
        "changes": {"ship_changes": {"Goeben": {"speed_kn": {"sustained": 20.0}, "note": "a test"}}}}))
    design = tmp_path / "design.yaml"
    design.write_text("kind: grid\nparameters:\n  goeben_sustained_kn: {values: [14.0, 18.0]}\n")
    out = tmp_path / "b"
    assert main(["batch", str(scenario), "--variants", "base,slow,faster", "--runs", "1", "--design", str(design),
                 "--scheduler", cluster, "--out", str(out), "--no-progress"]) == 0
    said = capsys.readouterr().out
    note = ("note: slow: the design sets goeben_sustained_kn at every point, in place of the variant's own 20 "
            "(the base's 23.5), so at every point it runs as the base does")
    assert note in said and said.count("note:") == 1  # faster changes Gloucester's orders, which no point sets
    assert main(["analyse", str(out)]) == 0
    assert note in capsys.readouterr().out
    # So does a single run of the variant given the parameter, as a design point's rerun is.
    assert main(["run", str(scenario), "--variant", "slow", "--set", "goeben_sustained_kn=14",
                 "--out", str(tmp_path / "one")]) == 0
    assert ("note: --set goeben_sustained_kn replaces slow's own 20 (the base's 23.5), so this run is the base "
            "scenario's at that value") in capsys.readouterr().out
    assert main(["run", str(scenario), "--variant", "faster", "--set", "goeben_sustained_kn=14",
                 "--out", str(tmp_path / "two")]) == 0
    assert "note:" not in capsys.readouterr().out


@pytest.mark.parametrize("measures", [",", ""])
def test_analyse_of_measures_naming_none_exits_2(reference, capsys, measures) -> None:
    assert main(["analyse", str(reference), "--measures", measures]) == 2
    assert "names no measure" in capsys.readouterr().err


def test_a_measure_named_twice_is_tabulated_once(reference, tmp_path, capsys) -> None:
    import shutil

    out = tmp_path / "b"
    shutil.copytree(reference, out)
    assert main(["analyse", str(out), "--measures", "battles,battles"]) == 0
    table = capsys.readouterr().out.split("== base", 1)[1].split("==", 1)[0]
    assert [line.split()[0] for line in table.splitlines() if line.startswith("battles")] == ["battles"]


@pytest.mark.parametrize("make", ["an empty folder", "a file", "a group of nothing"])
def test_a_store_it_cannot_read_is_named_and_exits_2(small, tmp_path, capsys, make) -> None:
    import zarr

    store = tmp_path / "results.zarr"
    if make == "an empty folder":
        store.mkdir()
    elif make == "a file":
        store.write_text("x")
    else:
        zarr.open_group(str(store), mode="w").attrs["x"] = 1
    assert main(["analyse", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert f"{store}: cannot read it as a batch's results" in err and "Traceback" not in err
    if make != "a group of nothing":  # that one is refused as another batch's store (test_store)
        assert main(["batch", str(small), "--variants", "base", "--runs", "1", "--out", str(tmp_path)]) == 2
        assert f"{store}: cannot read it as a batch's results" in capsys.readouterr().err


def test_ctrl_c_stops_a_batch_with_one_message_and_no_worker_tracebacks(small, tmp_path) -> None:
    # Ctrl-C at a terminal reaches the whole process group: the local workers as well as the driver. The
    # driver says what was kept and how to resume; the workers leave the interrupt to it.
    import os
    import signal
    import subprocess
    import sys
    import time

    from campaign.paths import ROOT

    out = tmp_path / "b"
    # The driver as a terminal starts it, Ctrl-C live. A process started in the background by a shell (as a
    # test run may be) ignores SIGINT, and its children inherit that: the driver would rightly ignore it too.
    # -X faulthandler: a driver that has not stopped a minute after the interrupt is sent SIGABRT, on which
    # it prints every thread's stack, so that the failure says where it was stuck.
    at_a_terminal = ("import runpy, signal, sys; signal.signal(signal.SIGINT, signal.default_int_handler); "
                     "sys.argv = sys.argv[1:]; runpy.run_path(sys.argv[0], run_name='__main__')")
    proc = subprocess.Popen([sys.executable, "-X", "faulthandler", "-c", at_a_terminal, str(ROOT / "run_campaign.py"),
                             "batch", str(small), "--runs", "2000", "--workers", "1", "--out", str(out),
                             "--no-progress"], cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        deadline = time.monotonic() + 120
        while not any((out / "results.zarr" / "done").rglob("c/*")) and time.monotonic() < deadline:
            assert proc.poll() is None, proc.communicate()
            time.sleep(0.2)
        os.killpg(proc.pid, signal.SIGINT)
        try:
            _, err = proc.communicate(timeout=60)
        except subprocess.TimeoutExpired:
            os.kill(proc.pid, signal.SIGABRT)
            _, err = proc.communicate(timeout=30)
            pytest.fail(f"the driver had not stopped a minute after Ctrl-C; its threads then:\n{err}")
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    assert proc.returncode == 130, err
    assert "interrupted (Ctrl-C): what was finished is in" in err
    assert "Traceback" not in err and "KeyboardInterrupt" not in err, err


def test_an_out_folder_that_cannot_be_made_exits_2(small, tmp_path, capsys) -> None:
    (tmp_path / "a_file").write_text("x")
    out = tmp_path / "a_file" / "b"
    assert main(["batch", str(small), "--runs", "1", "--out", str(out)]) == 2
    assert f"--out: {out} cannot be made: {tmp_path / 'a_file'} is a file, not a folder" in capsys.readouterr().err


def test_a_store_that_cannot_be_written_exits_2(small, cluster, tmp_path, capsys, monkeypatch) -> None:
    # What the folder's permissions do not tell beforehand (a full disk, a file system that refuses).
    from campaign.batch.store import ResultStore

    def refuse(*_args) -> None:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(ResultStore, "create", refuse)
    out = tmp_path / "b"
    assert main(["batch", str(small), "--runs", "1", "--scheduler", cluster, "--out", str(out), "--no-progress"]) == 2
    assert f"--out: cannot write {out} (Permission denied)" in capsys.readouterr().err


def test_analyse_into_a_folder_that_refuses_its_files_exits_2(reference, capsys, monkeypatch) -> None:
    from pathlib import Path

    def refuse(*_args, **_kw) -> None:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(Path, "write_text", refuse)
    assert main(["analyse", str(reference)]) == 2
    assert f"{reference}: cannot write the analysis (Permission denied)" in capsys.readouterr().err
    assert not [p for p in reference.iterdir() if p.name.startswith("analysis.") and p.suffix not in (".html", ".json")]


@pytest.mark.parametrize("address", ["nonsense", "tcp://host", "tcp://host:port", "foo://host:8786", ""])
def test_a_scheduler_address_of_the_wrong_form_is_refused_at_once(small, tmp_path, address) -> None:
    # In a process of its own: a client given such an address would hold the process up as it exits.
    import subprocess
    import sys

    from campaign.paths import ROOT

    out = tmp_path / "out"
    done = subprocess.run([sys.executable, str(ROOT / "run_campaign.py"), "batch", str(small), "--scheduler", address,
                           "--out", str(out)], cwd=ROOT, capture_output=True, text=True, timeout=30, check=False)
    assert done.returncode == 2 and f"--scheduler: {address!r} is not a scheduler's address" in done.stderr
    assert "Traceback" not in done.stderr and not out.exists()


def test_a_lost_scheduler_ends_the_batch_with_one_message_keeping_what_was_done(small, tmp_path, capsys,
                                                                                  monkeypatch) -> None:
    # The scheduler of an existing cluster dies mid-batch (its machine, or the network, goes down): once
    # the client gives up reconnecting, the driver says so and how to resume; what was written is kept.
    import os
    import signal
    import subprocess
    import sys
    import threading
    import time

    import numpy as np

    import campaign.batch.run
    from campaign.batch.store import ResultStore

    monkeypatch.setattr(campaign.batch.run, "CONNECT_TIMEOUT", "2s")  # how long the client tries to reconnect
    script = ("import time\nfrom distributed import LocalCluster\n"
              "if __name__ == '__main__':\n"
              "    with LocalCluster(n_workers=1, threads_per_worker=1, dashboard_address=':0') as c:\n"
              "        print(c.scheduler_address, flush=True)\n"
              "        time.sleep(600)\n")
    (tmp_path / "cluster.py").write_text(script)
    proc = subprocess.Popen([sys.executable, str(tmp_path / "cluster.py")], stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, text=True, start_new_session=True)
    out = tmp_path / "b"
    try:
        address = proc.stdout.readline().strip()

        def kill_the_scheduler_once_a_task_is_written() -> None:
            deadline = time.monotonic() + 120
            while not any((out / "results.zarr" / "done").rglob("c/*")) and time.monotonic() < deadline:
                time.sleep(0.1)
            os.killpg(proc.pid, signal.SIGKILL)

        killer = threading.Thread(target=kill_the_scheduler_once_a_task_is_written, daemon=True)
        killer.start()
        code = main(["batch", str(small), "--variants", "base", "--runs", "2000", "--chunk", "1", "--scheduler",
                     address, "--out", str(out), "--no-progress"])
        killer.join()
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
    err = capsys.readouterr().err
    assert code == 1, err
    assert f"error: lost the connection to the Dask scheduler at {address}" in err
    assert "run the same command again, once the scheduler is back, to resume" in err
    assert "Traceback" not in err and "failed:" not in err, err  # no task blamed for it
    from campaign.batch.run import make_plan

    done = ResultStore.existing(out, make_plan(small, "base", 2000, 0, 1)).done()
    assert 0 < np.count_nonzero(done) < done.size


def test_a_store_that_fills_the_disk_mid_batch_stops_it_with_one_message_and_resumes(small, cluster, tmp_path,
                                                                                      capsys, monkeypatch) -> None:
    import errno

    from campaign.batch.store import ResultStore

    write = ResultStore.write
    calls = {"n": 0}

    def full_on_the_third(self, chunk, values):
        calls["n"] += 1
        if calls["n"] == 3:
            raise OSError(errno.ENOSPC, "No space left on device")
        write(self, chunk, values)

    monkeypatch.setattr(ResultStore, "write", full_on_the_third)
    out = tmp_path / "b"
    args = ["batch", str(small), "--variants", "base", "--runs", "8", "--chunk", "1", "--scheduler", cluster,
            "--out", str(out), "--no-progress"]
    assert main(args) == 1
    err = capsys.readouterr().err
    assert f"error: cannot write {out / 'results.zarr'} (No space left on device)" in err
    assert "run the same command again to resume" in err and "Traceback" not in err
    monkeypatch.setattr(ResultStore, "write", write)  # space freed
    assert main(args) == 0
    assert "resumed: 2 of 8 tasks were already done" in capsys.readouterr().out
