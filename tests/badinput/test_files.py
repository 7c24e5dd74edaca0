"""Bad input in files: every field of the scenario, overlay, duel and design schemas spoiled in turn, each
refused naming the file and the field in the project's words; faults reported all at once; limits on
what a file may be; files named in a scenario kept inside its folder and data/."""

from __future__ import annotations

import math
import os
import typing
from pathlib import Path

import pytest
import yaml
from pydantic import BaseModel

from campaign.batch.design import DesignError, DesignModel, load_design, parse_design
from campaign.datafile import MAX_DEPTH
from campaign.duels.duel import DuelModel, load_duel
from campaign.scenario import schema as s
from campaign.scenario.loader import ScenarioError, load_scenario, scan_variants
from campaign.scenario.overlay import OverlayModel
from campaign.userfile import MAX_FILE_BYTES
from tests.badinput.full import DUEL, GRID, LHS, OVERLAY, SCENARIO, get, leaves, spoiled

# Words of the validator's own that a user must never read.
PYDANTIC_WORDS = ("Input should", "Value error", "validation error", "pydantic", "Field required", "type=")


def dump(path: Path, doc) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(doc if isinstance(doc, str) else yaml.safe_dump(doc, sort_keys=False), encoding="utf-8")
    return path


def field_name(path: tuple, doc: dict) -> str:
    """A path in a scenario as the loader names it: ``forces[0] (Goeben).orders[2].to``."""
    out = ""
    for k, part in enumerate(path):
        if isinstance(part, int):
            out += f"[{part}]"
            force = doc["forces"][part] if k == 1 and path[0] == "forces" else None
            if isinstance(force, dict) and isinstance(force.get("name"), str):
                out += f" ({doc['forces'][part]['name']})"
        else:
            out += f".{part}" if out else str(part)
    return out


def expected_field(path: tuple, doc: dict) -> str:
    if path[-1] == "do":  # an order of unknown kind is named by its place in the list
        path = path[:-1]
    if path[:2] == ("weather", "script") and len(path) > 3:  # a period's fields are checked by the weather model
        path = path[:2]
    return field_name(path, doc)


def bad_values(value) -> list:
    """Values of the wrong kind, or not finite, for a field holding ``value``."""
    if isinstance(value, bool):
        return ["perhaps"]
    if isinstance(value, (int, float)):
        return ["many", math.nan, math.inf]
    if isinstance(value, str):
        return [[1, 2]]
    if isinstance(value, (list, dict)):
        return [5]
    return [[1, 2]]  # null


def spoilings(doc: dict) -> list:
    return [pytest.param(path, value, id=f"{'.'.join(map(str, path))}={value!r}")
            for path in leaves(doc) for value in bad_values(get(doc, path))]


def assert_plain(text: str) -> None:
    assert not any(w in text for w in PYDANTIC_WORDS), text
    assert "Traceback" not in text


# -- every field of each schema is in the corpus ----------------------------------------------------------

def _models(annotation) -> list[type[BaseModel]]:
    if isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return [annotation]
    return [m for a in typing.get_args(annotation) for m in _models(a)]


def schema_fields(model: type[BaseModel], seen: set | None = None) -> set[tuple[str, str]]:
    """(model, field) for every field reachable from ``model``."""
    seen = set() if seen is None else seen
    if model in seen:
        return set()
    seen.add(model)
    out = set()
    for name, info in model.model_fields.items():
        out.add((model.__name__, name))
        for sub in _models(info.annotation):
            out |= schema_fields(sub, seen)
    return out


def used_fields(obj) -> set[tuple[str, str]]:
    """(model, field) for every field given in a validated instance tree."""
    out = set()
    if isinstance(obj, BaseModel):
        for name in obj.model_fields_set:
            out.add((type(obj).__name__, name))
            out |= used_fields(getattr(obj, name))
    elif isinstance(obj, (list, tuple)):
        for x in obj:
            out |= used_fields(x)
    elif isinstance(obj, dict):
        for x in obj.values():
            out |= used_fields(x)
    return out


@pytest.mark.parametrize("model, doc", [(s.ScenarioModel, SCENARIO), (OverlayModel, OVERLAY), (DuelModel, DUEL),
                                        (DesignModel, GRID), (DesignModel, LHS)], ids=lambda x: getattr(x, "__name__", ""))
def test_the_corpus_spoils_every_field_of_every_schema(model, doc) -> None:
    wanted = schema_fields(model)
    if model is DesignModel:  # a grid and a hypercube between them
        used = used_fields(DesignModel.model_validate(GRID)) | used_fields(DesignModel.model_validate(LHS))
    else:
        used = used_fields(model.model_validate(doc))
    assert wanted <= used, sorted(wanted - used)


def test_the_full_files_are_valid(tmp_path) -> None:
    base = dump(tmp_path / "full_scenario.yaml", SCENARIO)
    assert len(load_scenario(base).forces) == 3
    overlay = dump(tmp_path / "variants" / "faster.yaml", OVERLAY)
    assert load_scenario(overlay).variant.name == "faster"
    assert load_duel(dump(tmp_path / "duel.yaml", DUEL)).name == "full_duel"
    assert parse_design(GRID).n_points == 4 and parse_design(LHS).n_points == 3


# -- each field spoiled ----------------------------------------------------------------------------------

@pytest.mark.parametrize("path, value", spoilings(SCENARIO))
def test_a_scenario_field_of_the_wrong_kind_is_named(tmp_path, path, value) -> None:
    doc = spoiled(SCENARIO, path, value)
    file = dump(tmp_path / "bad.yaml", doc)
    with pytest.raises(ScenarioError) as info:
        load_scenario(file)
    text = str(info.value)
    assert text.startswith(str(file)), text
    assert expected_field(path, doc) in [f.field for f in info.value.faults], text
    assert_plain(text)


@pytest.mark.parametrize("path, value", spoilings(OVERLAY))
def test_an_overlay_field_of_the_wrong_kind_is_named(tmp_path, path, value) -> None:
    dump(tmp_path / "full_scenario.yaml", SCENARIO)
    file = dump(tmp_path / "variants" / "faster.yaml", spoiled(OVERLAY, path, value))
    with pytest.raises(ScenarioError) as info:
        load_scenario(file)
    text = str(info.value)
    assert text.startswith(str(file)), text
    field = field_name(path[1:] if path[0] == "changes" and len(path) > 1 else path, OVERLAY)
    assert any(f.field.startswith(field) or field.startswith(f.field) and f.field for f in info.value.faults), text
    assert_plain(text)


@pytest.mark.parametrize("path, value", spoilings(DUEL))
def test_a_duel_field_of_the_wrong_kind_is_named(tmp_path, path, value) -> None:
    file = dump(tmp_path / "duel.yaml", spoiled(DUEL, path, value))
    with pytest.raises(ScenarioError) as info:
        load_duel(file)
    text = str(info.value)
    assert text.startswith(str(file)) and field_name(path, DUEL) in [f.field for f in info.value.faults], text
    assert_plain(text)


@pytest.mark.parametrize("doc", [GRID, LHS], ids=["grid", "lhs"])
def test_a_design_field_of_the_wrong_kind_is_named(tmp_path, doc) -> None:
    for path in leaves(doc):
        for value in bad_values(get(doc, path)):
            file = dump(tmp_path / "design.yaml", spoiled(doc, path, value))
            with pytest.raises(DesignError) as info:
                load_design(file)
            text = str(info.value)
            field = ".".join(map(str, path))
            assert text.startswith(str(file)) and f": {field}" in text, (path, value, text)
            assert_plain(text)


# -- values of the right kind out of bounds or without meaning -------------------------------------------

FORCE = ("forces", 0)
ORDER = FORCE + ("orders", 1)


@pytest.mark.parametrize("path, value, words", [
    (("end",), "9999-12-31T00:00Z", "more than the 123 a scenario may last"),
    (("end",), "1914-08-01T00:00Z", "is not after the start"),
    (("start",), "1914-08-02T00:00", "has no time zone"),
    (("end",), "1914-08-03", "has no time zone"),
    (ORDER + ("at",), "1914-08-02 02:00", "has no time zone"),
    (("seed",), 2**80, "or less"),
    (("seed",), -1, "0 or more"),
    (("name",), "..", "not starting with '.'"),
    (("name",), "../escape", "not allowed"),
    (("name",), "a" * 101, "at most 100 characters"),
    (ORDER + ("speed",), 1e9, "at most 40"),
    (ORDER + ("speed",), -3, "positive"),
    (ORDER + ("to", "lat"), 91, "90 or less"),
    (FORCE + ("coal_t", "Goeben"), -1, "outside 0..3100"),
    (FORCE + ("coal_t", "Goeben"), 1e12, "outside 0..3100"),
    (FORCE + ("avoid_waters", 0, "width_nm"), 1e9, "50 or less"),
    (FORCE + ("avoid_waters", 0, "width_nm"), -6, "more than 0"),
    (("command", "standing", "Gloucester", "report_every_h"), 1e-9, "0.25 or more"),
    (("command", "standing", "Gloucester", "coal_low"), 1.5, "less than 1"),
    (FORCE + ("orders", 0, "hours"), 1e300, "or less"),
    (FORCE + ("orders", 0, "max_t"), 1e300, "or less"),
    (("local_time", "offset_h"), 99, "14 or less"),
    (("factors", "sighting_range"), 0, "more than 0"),
    (("ship_changes", "Goeben", "consumption_factor"), 1e6, "3 or less"),
    (("weather", "script_file"), "/etc/passwd", "leads outside the scenario's folder"),
    (("weather", "script_file"), "../../../../../../../../etc/passwd", "leads outside the scenario's folder"),
    (("weather", "script_file"), "nowhere.yaml", "no file 'nowhere.yaml'"),
])
def test_a_value_out_of_bounds_is_named(tmp_path, path, value, words) -> None:
    doc = spoiled(SCENARIO, path, value)
    with pytest.raises(ScenarioError) as info:
        load_scenario(dump(tmp_path / "bad.yaml", doc))
    faults = {f.field: f.fault for f in info.value.faults}
    assert words in faults.get(field_name(path, doc), ""), str(info.value)
    assert_plain(str(info.value))


# -- every fault at once -----------------------------------------------------------------------------------

def test_an_end_before_the_start_hides_no_other_fault(tmp_path) -> None:
    doc = spoiled(spoiled(SCENARIO, ("end",), "1914-08-01T00:00Z"), FORCE + ("ships", 0), "Goebn")
    doc = spoiled(doc, ORDER + ("to",), "Atlantis")
    with pytest.raises(ScenarioError) as info:
        load_scenario(dump(tmp_path / "bad.yaml", doc))
    fields = [f.field for f in info.value.faults]
    assert {"end", "forces[0] (Goeben).ships[0]", "forces[0] (Goeben).orders[1].to"} <= set(fields), fields


def test_an_unreadable_start_hides_no_other_fault(tmp_path) -> None:
    doc = spoiled(SCENARIO, ("start",), "the second of August")
    doc = spoiled(doc, FORCE + ("ships", 0), "Goebn")
    with pytest.raises(ScenarioError) as info:
        load_scenario(dump(tmp_path / "bad.yaml", doc))
    assert {"start", "forces[0] (Goeben).ships[0]"} <= {f.field for f in info.value.faults}, str(info.value)


def test_a_fault_of_form_hides_no_unknown_ship_place_or_side(tmp_path) -> None:
    doc = spoiled(SCENARIO, ORDER + ("speed",), "flank")  # a fault of form
    doc = spoiled(doc, FORCE + ("ships", 1), "Breslua")
    doc = spoiled(doc, ("forces", 1, "start"), "Atlantis")
    doc = spoiled(doc, ("forces", 2, "side"), "Triple Entente")
    doc = spoiled(doc, ("neutral_notices", 0, "port"), "Mesina")
    doc = spoiled(doc, FORCE + ("orders", 2, "orders", 1, "town"), "Bonne")
    doc = spoiled(doc, ("command", "standing", "Gloucester", "guard"), "Valeta")
    doc = spoiled(doc, ("messages", 0, "orders", 0, "to"), "Valeta")
    with pytest.raises(ScenarioError) as info:
        load_scenario(dump(tmp_path / "bad.yaml", doc))
    fields = {f.field for f in info.value.faults}
    assert {"forces[0] (Goeben).orders[1].speed", "forces[0] (Goeben).ships[1]", "forces[1] (Collier).start",
            "forces[2] (Gloucester).side", "neutral_notices[0].port", "forces[0] (Goeben).orders[2].orders[1].town",
            "command.standing.Gloucester.guard", "messages[0].orders[0].to"} <= fields, str(info.value)


def test_a_nan_latitude_is_said_to_be_no_number(tmp_path) -> None:
    doc = spoiled(SCENARIO, ("forces", 1, "start"), {"lat": math.nan, "lon": 15.0})
    with pytest.raises(ScenarioError) as info:
        load_scenario(dump(tmp_path / "bad.yaml", doc))
    assert [(f.field, f.fault) for f in info.value.faults] == [
        ("forces[1] (Collier).start.lat", "must be a finite number, not nan")]


# -- what a file may be ------------------------------------------------------------------------------------

def _refused(path: Path, words: str) -> None:
    with pytest.raises(ScenarioError) as info:
        load_scenario(path)
    assert str(info.value).startswith(str(path)) and words in str(info.value), str(info.value)
    assert_plain(str(info.value))


@pytest.mark.parametrize("text, words", [
    ("name: a\nname: b\n", "'name' is given twice in one mapping (first on line 1)"),
    ("forces:\n  - {name: a, name: b}\n", "'name' is given twice"),
    ("a: " + "[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1) + "\n", f"nested more than {MAX_DEPTH} levels"),
    ("a: " + "[" * 5000 + "]" * 5000 + "\n", "nest"),
    ("a: &a [x, x, x, x, x, x, x, x, x, x]\n" + "".join(
        f"{c}: &{c} [{', '.join(['*' + p] * 10)}]\n" for p, c in zip("abcde", "bcdef")), "more than 1,000,000 values"),
    ("name: [unclosed\n", "not valid YAML"),
    ("- a list\n", "mapping"),
    ("", "mapping"),
])
def test_a_file_that_is_no_scenario_is_refused_by_line(tmp_path, text, words) -> None:
    _refused(dump(tmp_path / "bad.yaml", text), words)


def test_a_file_too_large_is_refused_unread(tmp_path) -> None:
    path = tmp_path / "huge.yaml"
    with path.open("wb") as fh:
        fh.truncate(MAX_FILE_BYTES + 1)
    _refused(path, "is 4,000,001 bytes, more than the 4,000,000")


def test_undecodable_bytes_are_refused(tmp_path) -> None:
    path = tmp_path / "latin.yaml"
    path.write_bytes(b"name: Bon\xe9\n")
    _refused(path, "is not UTF-8 text")


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="no /dev/zero")
def test_a_device_is_refused_unread() -> None:
    _refused(Path("/dev/zero"), "not a regular file")


def test_a_folder_and_a_loop_of_links_are_refused(tmp_path) -> None:
    _refused(tmp_path, "is a folder")
    (tmp_path / "a.yaml").symlink_to(tmp_path / "b.yaml")
    (tmp_path / "b.yaml").symlink_to(tmp_path / "a.yaml")
    _refused(tmp_path / "a.yaml", "a loop of symbolic links")


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes")
def test_a_pipe_is_refused_without_waiting_for_a_writer(tmp_path) -> None:
    os.mkfifo(tmp_path / "pipe.yaml")
    _refused(tmp_path / "pipe.yaml", "not a regular file")


# -- files named in a file stay inside its folder and data/ ----------------------------------------------

def test_a_weather_file_linked_from_outside_is_refused_and_not_read(tmp_path) -> None:
    secret = dump(tmp_path / "private" / "secret.yaml", "periods: []\n")
    folder = tmp_path / "shared"
    dump(folder / "s.yaml", spoiled(SCENARIO, ("weather", "script_file"), "calm.yaml"))
    (folder / "calm.yaml").symlink_to(secret)
    _refused(folder / "s.yaml", "leads outside the scenario's folder")


def test_a_weather_file_beside_the_scenario_or_in_data_is_read(tmp_path) -> None:
    calm = [{"start": "1914-08-02T00:00Z", "end": "1914-08-02T06:00Z", "state": 1}]
    dump(tmp_path / "sub" / "calm.yaml", calm)
    doc = spoiled(SCENARIO, ("weather", "script_file"), "sub/calm.yaml")
    assert load_scenario(dump(tmp_path / "s.yaml", doc)).weather_script


@pytest.mark.parametrize("base", ["/etc/passwd", "../../../../../../../etc/passwd", "../../elsewhere.yaml"])
def test_an_overlays_base_outside_its_folders_is_refused(tmp_path, base) -> None:
    dump(tmp_path / "elsewhere.yaml", SCENARIO)
    overlay = dump(tmp_path / "a" / "variants" / "faster.yaml", dict(OVERLAY, base=base))
    _refused(overlay, "base: ")


def test_one_bad_overlay_hides_none_of_the_others(tmp_path) -> None:
    base = dump(tmp_path / "full_scenario.yaml", SCENARIO)
    dump(tmp_path / "variants" / "faster.yaml", OVERLAY)
    dump(tmp_path / "variants" / "broken.yaml", dict(OVERLAY, variant="broken", summary=[1]))
    dump(tmp_path / "variants" / "noise.yaml", "a: [")
    found, bad = scan_variants(base)
    assert [o.variant for o in found] == ["faster"]
    assert sorted(Path(e.path).name for e in bad) == ["broken.yaml", "noise.yaml"]
    assert load_scenario(base, variant="faster").variant.name == "faster"


@pytest.mark.parametrize("name", ["../full_scenario", "/etc/passwd", "variants/faster", "faster.yaml", ""])
def test_a_variant_is_a_name_not_a_path(tmp_path, name) -> None:
    base = dump(tmp_path / "full_scenario.yaml", SCENARIO)
    dump(tmp_path / "variants" / "faster.yaml", OVERLAY)
    with pytest.raises(ScenarioError) as info:
        load_scenario(base, variant=name)
    assert info.value.faults[0].field == "--variant"
