"""The stand-ins that decide outcomes are announced where a result is read: under a duel's tables, per battle
in a run's summary.json, in report.md, and in docs/battles.md (campaign/model/stand_ins.py)."""

from __future__ import annotations

import json
import re
import subprocess
import sys

import pytest

from campaign.duels.duel import load_duel
from campaign.duels.duel_records import fight_duel_records
from campaign.model.stand_ins import bearing_on_battle, default_stand_ins
from campaign.output.report import build_report
from campaign.output.summary import build_summary
from campaign.paths import ROOT
from campaign.runner import run
from campaign.scenario.loader import load_scenario
from campaign.tactics.engines import engine_names
from tests.conftest import scenario_dict

DUELS = ROOT / "scenarios" / "duels"
IDS = {s.id for s in default_stand_ins()}


def _duel_cli(*args: str) -> str:
    out = subprocess.run([sys.executable, str(ROOT / "run_campaign.py"), "duel", *args], capture_output=True,
                         text=True, timeout=600, check=False)
    assert out.returncode == 0, out.stderr
    return out.stdout


def test_a_jane_duel_prints_the_outfit_stand_in_under_its_table(tmp_path) -> None:
    text = _duel_cli(str(DUELS / "gloucester_vs_breslau.yaml"), "--engine", "jane", "--runs", "2",
                     "--out", str(tmp_path / "d"))
    table, _, listed = text.partition("Stand-ins that bear on this result")
    assert "P(Breslau sunk)" in table
    assert "ammunition_outfits (jane; data/ammunition.yaml)" in listed
    assert "jane_rates_of_fire" in listed and "jane_hit_calibration" in listed
    assert "nwc1905_fire_curve" not in listed and "board_round_length" not in listed  # not fought
    doc = json.loads((tmp_path / "d" / "duel.json").read_text())
    assert doc["stand_ins"]["jane"] == [s.id for s in bearing_on_battle("jane", ["own"])]


def test_one_fight_lists_them_too_and_the_board_brings_the_damage_model_s(tmp_path) -> None:
    text = _duel_cli(str(DUELS / "gloucester_vs_breslau.yaml"), "--engine", "board", "--out", str(tmp_path / "d"))
    listed = text.split("Stand-ins that bear on this result", 1)[1]
    for sid in ("ammunition_outfits", "board_rounds_per_firing", "board_round_length", "gwas_boxes_and_criticals"):
        assert sid in listed
    assert "jane_" not in listed


@pytest.fixture(scope="module")
def battle_run() -> tuple[list[dict], dict]:
    """The campaign's records of one battle (a duel writes them as the world does) and their summary."""
    _, records = fight_duel_records(load_duel(DUELS / "gloucester_vs_breslau.yaml"), "jane", 0)
    return records, json.loads(json.dumps(build_summary(records, {"name": "duel"})))


def test_a_run_with_a_battle_lists_its_stand_ins_in_summary_json(battle_run) -> None:
    records, summary = battle_run
    (battle,) = summary["battles"]
    assert battle["engine"] == "jane"
    assert battle["stand_ins"] == [s.id for s in bearing_on_battle("jane")]
    assert "ammunition_outfits" in battle["stand_ins"] and "jane_hit_calibration" in battle["stand_ins"]
    assert summary["stand_ins"] == battle["stand_ins"]
    meta = {"name": "duel", "start": records[0]["t"], "end": records[-1]["t"]}
    report = build_report(records, summary, meta)
    section = report.split("## Stand-ins that bore on this run", 1)[1].split("\n## ", 1)[0]
    for sid in battle["stand_ins"]:
        assert f"| {sid.replace('_', chr(92) + '_')} | battle 1 |" in section


def test_a_rearming_brings_its_own(battle_run) -> None:
    records, alone = battle_run
    rearm = {**records[-1], "type": "rearm", "battle": None}
    summary = build_summary([*records, rearm], {"name": "duel"})
    assert set(summary["stand_ins"]) == set(alone["stand_ins"]) | {"rearm_time", "ammunition_bases"}
    assert summary["battles"][0]["stand_ins"] == alone["battles"][0]["stand_ins"]  # not a battle's


def test_a_run_with_no_battle_lists_none(write_scenario, tmp_path) -> None:
    sc = scenario_dict([{"name": "F", "side": "Entente", "ships": ["Gloucester"], "start": "Valletta",
                         "orders": [{"do": "sail", "to": "Alexandria", "speed": 12}]}])
    res = run(load_scenario(write_scenario(sc)))
    res.write(tmp_path / "out")
    summary = json.loads((tmp_path / "out" / "summary.json").read_text())
    assert summary["battles"] == [] and summary["stand_ins"] == []
    assert "Stand-ins" not in (tmp_path / "out" / "report.md").read_text()


def test_every_id_named_exists_in_the_data_and_the_docs_name_each() -> None:
    page = (ROOT / "docs" / "battles.md").read_text(encoding="utf-8")
    section = page.split("## Stand-ins that bear on the odds", 1)[1].split("\n## ", 1)[0]
    named = set(re.findall(r"`([a-z0-9_]+)`", section)) - set(engine_names()) - {"stand_ins"}
    assert named <= IDS, named - IDS
    assert IDS <= named, IDS - named
