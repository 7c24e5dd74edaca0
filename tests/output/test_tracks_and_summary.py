"""Tracks and summary come from the records alone; files are written all or nothing."""

from __future__ import annotations

import json

import numpy as np
import pytest

from campaign.output import files
from campaign.output.summary import build_summary
from campaign.output.tracks import TRACK_STEP_MIN, build_tracks, status_names
from campaign.paths import SCENARIO_DIR
from campaign.runner import run
from campaign.scenario.loader import load_scenario
from tests.conftest import scenario_dict


@pytest.fixture(scope="module")
def result():
    return run(load_scenario(SCENARIO_DIR / "goeben_1914.yaml"))


def test_tracks_rebuild_from_events_read_back_from_disk(result, tmp_path) -> None:
    path = tmp_path / "events.jsonl"
    files.write_jsonl(path, result.events)
    events = files.read_jsonl(path)
    again = build_tracks(events, result.clock.iso(0.0), result.scenario.duration_min, result.units)
    for var in ("lat", "lon", "coal_t", "speed_kn", "status"):
        np.testing.assert_array_equal(again[var].values, result.tracks[var].values)


def test_tracks_grid_and_metadata(result) -> None:
    tr = result.tracks
    assert float(tr["t_min"][1] - tr["t_min"][0]) == TRACK_STEP_MIN
    assert float(tr["t_min"][-1]) == result.scenario.duration_min
    assert str(tr["time"].values[0]) == "1914-08-02T09:00:00"
    assert tr["status"].attrs["flag_meanings"].split()[1] == "underway"
    assert set(status_names(tr["status"].sel(unit="Goeben").values)) >= {"in_port", "underway", "coaling", "waiting"}


def test_a_leg_in_the_tracks_moves_at_its_speed(write_scenario) -> None:
    sc = scenario_dict([{"name": "F", "side": "Entente", "ships": ["Gloucester"], "start": "Valletta",
                         "orders": [{"do": "sail", "to": "Alexandria", "speed": 12}]}])
    res = run(load_scenario(write_scenario(sc)))
    tr = res.tracks.sel(unit="Gloucester")
    from campaign.geo import earth

    d = earth.distance_nm(tr["lat"].values[:-1], tr["lon"].values[:-1], tr["lat"].values[1:], tr["lon"].values[1:])
    moving = tr["status"].values[:-1] == 1
    # 12 kn for 10 minutes is 2 nm, less only where the route bends between samples.
    assert np.all(d[moving][1:-1] <= 2.0 + 1e-6) and np.median(d[moving]) == pytest.approx(2.0, abs=1e-3)


def test_summary_totals_balance(result) -> None:
    s = build_summary(result.events, result.meta)
    assert s["scenario"]["name"] == "goeben_1914" and s["events"]["depart"] > 50
    for name, u in s["units"].items():
        assert u["final"]["coal_t"] == pytest.approx(u["start"]["coal_t"] + u["coal_taken_t"] - u["coal_burnt_t"],
                                                     abs=0.05), name
    bog = s["units"]["Bogadir"]["collier"]
    taken = sum(e["taken_t"] for e in result.events if e["type"] == "coal_end" and e.get("source") == "Bogadir")
    assert bog["coal_given_t"] == pytest.approx(taken, abs=0.05)


def test_write_all_is_all_or_nothing(tmp_path) -> None:
    def good(p):
        p.write_text("ok")

    def bad(p):
        p.write_text("half")
        raise RuntimeError("disk full")

    with pytest.raises(RuntimeError):
        files.write_all(tmp_path / "out", {"a.txt": good, "b.txt": bad})
    assert list(tmp_path.iterdir()) == []  # not even an empty folder, nor a temporary one
    written = files.write_all(tmp_path / "out", {"a.txt": good})
    assert [p.name for p in written] == ["a.txt"] and json.dumps(written[0].read_text()) == '"ok"'


def test_a_force_still_under_way_at_the_end_is_tracked_to_the_last_instant(write_scenario) -> None:
    path = write_scenario(scenario_dict(
        [{"name": "Chatham", "side": "Entente", "ships": ["Chatham"], "start": "Valletta",
          "orders": [{"do": "sail", "to": "Alexandria", "speed": 12}]}],
        start="1914-08-02T00:00Z", end="1914-08-02T12:00Z"))
    r = run(load_scenario(path))
    end = [e for e in r.events if e["type"] == "end"][0]
    assert end["status"] == "underway" and end["speed_kn"] == 12.0
    assert end["run_nm"] == pytest.approx(12.0 * 12.0, rel=1e-6)
    assert float(r.tracks.speed_kn.values[-1, 0]) == 12.0
