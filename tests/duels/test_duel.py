"""Duel files: checked like scenarios, fought under every engine, and the engines' verdicts compared."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
import yaml

from campaign.duels.duel import duel_setup, fight_duel, load_duel
from campaign.duels.duel_odds import duel_statistics
from campaign.paths import ROOT
from campaign.scenario.loader import ScenarioError
from campaign.tactics.engines import engine_names
from campaign.tactics.kinematics import range_yd

DUELS = sorted((ROOT / "scenarios" / "duels").glob("*.yaml"))
SCRIPT = ROOT / "run_campaign.py"


def test_the_issue_s_duels_are_bundled():
    names = {p.stem for p in DUELS}
    assert {"goeben_vs_battlecruisers", "gloucester_vs_breslau", "troubridge_vs_goeben_day",
            "troubridge_vs_goeben_dawn"} <= names


@pytest.mark.parametrize("path", DUELS, ids=lambda p: p.stem)
def test_every_duel_sets_up_its_range_and_is_fought_under_every_engine(path):
    duel = load_duel(path)
    setup, _ = duel_setup(duel, duel.engine)
    leaders = [c for c in setup.combatants if c.flagship]
    assert len(leaders) == 2
    assert range_yd(leaders[0].x_yd, leaders[0].y_yd, leaders[1].x_yd, leaders[1].y_yd) == pytest.approx(duel.range_yd)
    for engine in engine_names():
        out = fight_duel(duel, engine, seed=1, keep_frames=False)
        assert out.engine == engine and out.reason != "unfinished"
        assert out.duration_s > 0


def test_a_duel_is_the_same_for_the_same_seed():
    duel = load_duel(ROOT / "scenarios" / "duels" / "gloucester_vs_breslau.yaml")
    for engine in engine_names():
        a, b = fight_duel(duel, engine, seed=5), fight_duel(duel, engine, seed=5)
        assert a.events == b.events and dict(a.conditions) == dict(b.conditions)


def test_the_dawn_duel_starts_in_the_twilight_and_ends_in_daylight_light_from_the_sky():
    # Civil dawn off Cape Matapan on 7 Aug 1914 was 03:11 UT, sunrise 03:36 (PyEphem, sun's centre at
    # -6 deg and at the horizon with refraction).
    from campaign.duels.duel import duel_setting

    duel = load_duel(ROOT / "scenarios" / "duels" / "troubridge_vs_goeben_dawn.yaml")
    setup, _ = duel_setup(duel, "jane")
    at = duel_setting(duel, "jane", setup.combatants)
    assert at(0.0).light in ("twilight", "moonlit")  # the rules' words (protocol.LIGHTS), not the world's
    assert at(3600.0).light == "day"
    assert at(3600.0).visibility_yd > at(0.0).visibility_yd


def test_a_hopelessly_outgunned_side_loses_under_every_engine(tmp_path):
    # Gloucester alone against Goeben at 8,000 yards by day, both meaning to fight.
    doc = yaml.safe_load((ROOT / "scenarios" / "duels" / "gloucester_vs_breslau.yaml").read_text())
    doc["name"] = "gloucester_vs_goeben"
    doc["sides"][0]["ships"] = ["Goeben"]
    doc["range_yd"] = 8000
    path = tmp_path / "d.yaml"
    path.write_text(yaml.safe_dump(doc))
    duel = load_duel(path)
    for engine in engine_names():
        s = duel_statistics(duel, engine, runs=30, seed=0)
        # She is sunk or driven off far more often than Goeben is, and Goeben is never sunk.
        assert s.sunk["Goeben"].value == 0.0, engine
        assert (s.broke_off["Britain"].value + s.sunk["Gloucester"].value) * 30 >= 25, (engine, s)
        assert s.damage["Gloucester"].value > s.damage["Goeben"].value, (engine, s)


@pytest.mark.parametrize("change, field, words", [
    (lambda d: d["sides"][1]["ships"].append("Indomitablee"), "sides[1].ships[1]", "no ship named"),
    (lambda d: d.update(range_yd=-5), "range_yd", "must be more than 0, not -5"),
    (lambda d: d.update(when="yesterday"), "when", "not a UTC time"),
    (lambda d: d.update(where={"lat": 37.5, "lon": 15.0}), "where", "on land"),
    (lambda d: d["sides"][0].update(intent="flee"), "sides[0].intent", "engage"),
    (lambda d: d.update(engine="kriegsspiel"), "engine", "nwc1905"),
    (lambda d: d["sides"][1].update(name="Germany"), "sides[1].name", "different names"),
])
def test_a_bad_duel_file_names_its_field_and_fault(tmp_path, change, field, words):
    doc = yaml.safe_load((ROOT / "scenarios" / "duels" / "gloucester_vs_breslau.yaml").read_text())
    change(doc)
    path = tmp_path / "bad.yaml"
    path.write_text(yaml.safe_dump(doc))
    with pytest.raises(ScenarioError) as err:
        load_duel(path)
    text = str(err.value)
    assert str(path) in text and field in text and words in text, text


def _cli(*args, cwd=None):
    return subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True, text=True, timeout=600, cwd=cwd,
                          check=False)


def test_the_duel_command_once_writes_the_account_and_the_battle_replay(tmp_path):
    out = _cli("duel", str(ROOT / "scenarios" / "duels" / "gloucester_vs_breslau.yaml"), "--engine", "jane",
               "--out", str(tmp_path / "d"))
    assert out.returncode == 0, out.stderr
    assert "Gloucester" in out.stdout and "ended after" in out.stdout
    html = (tmp_path / "d" / "battle.html").read_text()
    assert "default-src 'none'" in html and "Plotly.newPlot" in html  # self-contained: nothing fetched
    rows = [json.loads(line) for line in (tmp_path / "d" / "events.jsonl").read_text().splitlines()]
    assert rows and {r["type"] for r in rows} >= {"fire"}


def test_the_duel_command_many_times_compares_the_engines(tmp_path):
    out = _cli("duel", str(ROOT / "scenarios" / "duels" / "gloucester_vs_breslau.yaml"), "--engine", "all",
               "--runs", "3", "--out", str(tmp_path / "d"))
    assert out.returncode == 0, out.stderr
    for engine in engine_names():
        assert engine in out.stdout
    doc = json.loads((tmp_path / "d" / "duel.json").read_text())
    assert [e["engine"] for e in doc["engines"]] == list(engine_names()) and doc["runs"] == 3


def test_bad_duel_arguments_exit_2_and_write_nothing(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("name: x\n")
    out = _cli("duel", str(bad), "--out", str(tmp_path / "o"))
    assert out.returncode == 2 and "Traceback" not in out.stderr and str(bad) in out.stderr
    out = _cli("duel", str(DUELS[0]), "--runs", "0", "--out", str(tmp_path / "o"))
    assert out.returncode == 2 and "--runs" in out.stderr
    out = _cli("duel", str(DUELS[0]), "--engine", "chess")
    assert out.returncode == 2
    assert not (tmp_path / "o").exists()
