"""The labelled stand-ins that decide outcomes (campaign/model/stand_ins.py): read from their data files,
checked, and each naming a figure that is a stand-in where it stands."""

from __future__ import annotations

import re

import pytest
import yaml

from campaign.model.guns import default_guns
from campaign.model.stand_ins import (
    STAND_IN_FILES,
    StandInError,
    bearing_on_battle,
    bearing_on_rearm,
    default_stand_ins,
    load_stand_ins,
    parse_stand_ins,
    stand_in,
)
from campaign.paths import ROOT
from campaign.tactics.engines import engine_names

ENTRY = {"id": "x_rule", "what": "A figure no source gave.", "why": "It decides who wins.", "engines": ["jane"]}


def test_the_stand_ins_the_issue_names_are_labelled_in_their_data_files() -> None:
    files = {s.id: s.file for s in default_stand_ins()}
    assert files["ammunition_outfits"] == "data/ammunition.yaml"
    assert files["board_rounds_per_firing"] == "data/ammunition.yaml"
    assert files["rearm_time"] == files["ammunition_bases"] == "data/ammunition.yaml"
    assert files["jane_obliquity"] == files["jane_hit_calibration"] == "data/tactics/jane.yaml"
    assert {s.id for s in bearing_on_rearm()} == {"rearm_time", "ammunition_bases"}


def test_each_engine_has_its_own_and_shares_the_outfits() -> None:
    assert tuple(sorted(engine_names())) == tuple(sorted(("nwc1905", "jane", "board")))
    for engine in engine_names():
        ids = [s.id for s in bearing_on_battle(engine)]
        assert "ammunition_outfits" in ids and any(i.startswith(engine) for i in ids), engine
        assert "rearm_time" not in ids  # the rearming bears on a run that rearmed, not on every battle
    assert "gwas_boxes_and_criticals" not in [s.id for s in bearing_on_battle("jane", ["jane"])]
    assert "gwas_boxes_and_criticals" in [s.id for s in bearing_on_battle("jane", ["gwas"])]


def test_the_outfit_stand_in_says_what_the_guns_file_holds() -> None:
    # "all but the French 240 mm's are stand-ins": 48 of the 49 guns' outfits
    guns = list(default_guns().entries.values())
    real = [g.label for g in guns if not g.is_stand_in("outfit_rounds_per_gun")]
    assert real == ["240 mm (9.4 in)"] and len(guns) == 49
    assert "all but the French 240 mm's" in stand_in("ammunition_outfits").what


def test_every_labelled_figure_is_marked_stand_in_in_its_file() -> None:
    # each entry names the fields it stands for in brackets; the file marks those STAND-IN where they stand
    for s in default_stand_ins():
        text = (ROOT / s.file).read_text(encoding="utf-8")
        body = text.split("\nstand_ins:", 1)[0]
        assert "STAND-IN" in body or "stand-in:" in body, s.id
        for field in re.findall(r"\(([a-z_.]+)[,)]", s.what):
            leaf = field.split(".")[-1]
            assert re.search(rf"\b{re.escape(leaf)}\b", body), (s.id, field)


def test_unknown_ids_are_refused() -> None:
    with pytest.raises(KeyError, match="no stand-in labelled"):
        stand_in("sea_serpents")


@pytest.mark.parametrize(("change", "words"), [
    ({"engines": ["chess"]}, "engines"),
    ({"engines": []}, "engines"),
    ({"scope": "always"}, "scope"),
    ({"damage": "laser"}, "damage"),
    ({"what": ""}, "what"),
    ({"id": "Bad Id"}, "id"),
    ({"colour": "red"}, "unknown fields"),
])
def test_a_malformed_entry_names_its_field(change: dict, words: str) -> None:
    with pytest.raises(StandInError, match=words):
        parse_stand_ins({"stand_ins": [{**ENTRY, **change}]}, "data/x.yaml")


def test_an_id_used_twice_is_refused(tmp_path) -> None:
    for name in ("a.yaml", "b.yaml"):
        (tmp_path / name).write_text(yaml.safe_dump({"stand_ins": [ENTRY]}))
    with pytest.raises(StandInError, match="x_rule"):
        load_stand_ins([tmp_path / "a.yaml", tmp_path / "b.yaml"])
    assert len(load_stand_ins([tmp_path / "a.yaml"])) == 1


def test_the_bundled_files_load() -> None:
    assert load_stand_ins(STAND_IN_FILES) == default_stand_ins()
    assert len({s.id for s in default_stand_ins()}) == len(default_stand_ins()) >= 10
