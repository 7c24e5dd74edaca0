"""The command line, as a user runs it: exit statuses, messages, files written or not."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
import xarray as xr

from campaign.paths import ROOT, SCENARIO_DIR
from tests.conftest import scenario_dict

SCRIPT = ROOT / "run_campaign.py"


def cli(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True, text=True, cwd=cwd, timeout=600)


def test_help_explains_every_command() -> None:
    out = cli("--help")
    assert out.returncode == 0
    for word in ("SCENARIO.yaml", "validate", "route", "--seed", "--out"):
        assert word in out.stdout
    for command in ("run", "validate", "route"):
        assert cli(command, "--help").returncode == 0


def test_run_writes_the_records_into_outputs_by_default(tmp_path) -> None:
    out = cli(str(SCENARIO_DIR / "goeben_1914.yaml"), "--seed", "3", cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    folder = tmp_path / "outputs" / "goeben_1914"
    for name in ("events.jsonl", "tracks.nc", "summary.json"):
        assert (folder / name).is_file()
    assert not list(folder.glob("*.partial"))
    events = [json.loads(line) for line in (folder / "events.jsonl").read_text().splitlines()]
    assert [e["t"] for e in events] == sorted(e["t"] for e in events)
    assert all({"t", "type"} <= e.keys() for e in events)
    summary = json.loads((folder / "summary.json").read_text())
    assert summary["scenario"]["seed"] == 3
    goeben = summary["units"]["Goeben"]
    assert 1700 < goeben["distance_run_nm"] < 2200 and goeben["coal_taken_t"] > 1673  # 173 + 1,500 t at Messina
    with xr.open_dataset(folder / "tracks.nc", engine="h5netcdf") as ds:
        assert set(ds.data_vars) >= {"lat", "lon", "speed_kn", "coal_t", "status"}
        assert ds.sizes["unit"] == len(summary["units"])
        assert list(ds["side"].sel(unit=["Goeben", "Inflexible"]).values) == ["Central Powers", "Entente"]


def test_same_seed_gives_identical_event_files(tmp_path) -> None:
    for name in ("a", "b"):
        out = cli(str(SCENARIO_DIR / "goeben_1914.yaml"), "--seed", "11", "--out", str(tmp_path / name))
        assert out.returncode == 0, out.stderr
    assert (tmp_path / "a" / "events.jsonl").read_bytes() == (tmp_path / "b" / "events.jsonl").read_bytes()


@pytest.mark.parametrize("mutate, words", [
    (lambda d: d["forces"][0].update(ships=["Goeben", "Breslua"]), "Breslua"),
    (lambda d: d["forces"][0].update(start="Atlantis"), "unknown place"),
    (lambda d: d["forces"][0].update(start={"lat": 37.75, "lon": 14.99}), "on land"),
    (lambda d: d["forces"][0]["orders"][0].update(at="1915-01-01T00:00Z"), "outside the scenario"),
    (lambda d: d["forces"][0].pop("side"), "required field is missing"),
    (lambda d: d["forces"][0]["orders"][0].update(speed="flank"), "orders[0].speed"),
])
def test_bad_scenarios_exit_2_with_a_clear_message_and_write_nothing(tmp_path, write_scenario, mutate, words) -> None:
    content = scenario_dict([{"name": "Goeben", "side": "Central Powers", "ships": ["Goeben"], "start": "Messina",
                              "orders": [{"do": "sail", "to": "Philippeville", "speed": 16}]}])
    mutate(content)
    path = write_scenario(content, name="broken.yaml")
    out = cli(str(path), "--out", str(tmp_path / "out"))
    assert out.returncode == 2
    assert "Traceback" not in out.stderr
    assert str(path) in out.stderr and words in out.stderr
    assert not (tmp_path / "out").exists()
    assert cli("validate", str(path)).returncode == 2


def test_bad_arguments_exit_2(tmp_path) -> None:
    assert cli(str(SCENARIO_DIR / "goeben_1914.yaml"), "--seed", "minus one").returncode == 2
    assert cli("route", "Messina").returncode == 2
    bad_place = cli("route", "Messina", "Atlantis")
    assert bad_place.returncode == 2 and "Atlantis" in bad_place.stderr and "Traceback" not in bad_place.stderr
    on_land = cli("route", "Messina", "37.75,14.99")
    assert on_land.returncode == 2 and "on land" in on_land.stderr
    assert cli("route", "Messina", "Malta", "--avoid", "Ruritania:6").returncode == 2
    missing = cli(str(tmp_path / "nope.yaml"))
    assert missing.returncode == 2 and "no such file" in missing.stderr


def test_validate_reports_a_good_file() -> None:
    out = cli("validate", str(SCENARIO_DIR / "goeben_1914.yaml"))
    assert out.returncode == 0 and "valid" in out.stdout


def test_route_with_forbidden_waters_and_ship_size() -> None:
    free = cli("route", "Valletta", "39.0,14.5")
    belt = cli("route", "Valletta", "39.0,14.5", "--avoid", "Italy:6")
    assert free.returncode == belt.returncode == 0
    assert float(belt.stdout.split()[0]) > float(free.stdout.split()[0]) + 50
    canal = cli("route", "Patras", "Piraeus", "--ship", "Breslau")
    assert canal.returncode == 0 and "through: Corinth Canal" in canal.stdout



def test_a_listing_cut_short_by_its_reader_is_not_an_error(monkeypatch):
    # `run_campaign.py variants ... | head`: the reader has closed the pipe, so writing fails with
    # BrokenPipeError; the command ends quietly instead of with a traceback.
    import os

    from campaign.cli import main

    read_fd, write_fd = os.pipe()
    os.close(read_fd)
    out = os.fdopen(write_fd, "w", buffering=1)
    monkeypatch.setattr(sys, "stdout", out)
    try:
        assert main(["variants", str(SCENARIO_DIR / "goeben_1914.yaml")]) == 0
    finally:
        monkeypatch.undo()
        try:
            out.close()
        except OSError:
            pass
