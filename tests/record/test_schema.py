"""Record files (campaign/record/schema.py): the bundled record is sound; a bad file is refused naming the
file, the field and the fault, every fault at once, and the command exits 2."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from campaign.cli import EXIT_BAD_INPUT, main
from campaign.paths import SCENARIO_DIR
from campaign.record.schema import RecordError, load_record, parse_record, record_path
from campaign.scenario.loader import load_scenario

GOOD_EVENT = {"id": "seen", "what": "Gloucester sees Goeben", "type": "sighting", "input": False,
              "units": ["Gloucester"], "targets": ["Goeben"], "at": "1914-08-06T16:10Z", "tolerance_h": 1,
              "source": "van der Vat, The Dardanelles Disaster, p.9"}


def test_the_bundled_record_of_the_historical_scenario_loads() -> None:
    record = load_record(record_path("goeben_1914"))
    assert record.file.scenario == "goeben_1914"
    ids = [e.id for e in record.events]
    assert len(ids) == len(set(ids)) >= 20
    assert any(e.input for e in record.events) and any(not e.input for e in record.events)
    # every event cites a published source, never a file
    assert all(len(e.source) > 20 and "shared" not in e.source for e in record.events)


def test_the_record_names_only_ships_and_forces_of_its_scenario() -> None:
    sc = load_scenario(SCENARIO_DIR / "goeben_1914.yaml")
    known = {f.name for f in sc.forces} | {s.name for f in sc.forces for s in f.ships}
    known |= {"Admiralty", "Milne", "Troubridge", "Souchon", "Admiralstab", "Lapeyrere"}
    for e in load_record(record_path("goeben_1914")).events:
        for name in list(getattr(e, "units", [])) + list(getattr(e, "targets", [])) + list(getattr(e, "receivers", [])):
            assert name in known, (e.id, name)
        assert sc.start_utc <= e.start <= e.end <= sc.end_utc, e.id


def test_a_bad_record_is_refused_with_every_fault_named(tmp_path: Path) -> None:
    raw = {"scenario": "goeben_1914", "title": "t", "events": [
        GOOD_EVENT,
        {**GOOD_EVENT, "id": "both", "window": {"from": "1914-08-06T16:00Z", "to": "1914-08-06T17:00Z"}},
        {k: v for k, v in GOOD_EVENT.items() if k != "at"} | {
            "id": "when", "window": {"from": "1914-08-06T17:00Z", "to": "1914-08-06T16:00Z"}},
        {**GOOD_EVENT, "id": "kind", "type": "rumour"},
        {k: v for k, v in GOOD_EVENT.items() if k != "source"} | {"id": "nosource"},
        {**GOOD_EVENT, "id": "badtime", "at": "6 August"},
        {**GOOD_EVENT, "id": "extra", "colour": "red"},
    ]}
    with pytest.raises(RecordError) as err:
        parse_record(tmp_path / "bad.yaml", raw)
    text = str(err.value)
    assert "bad.yaml: events[1] (both): give 'at' or 'window', not both or neither" in text
    assert "bad.yaml: events[2] (when).window: 'to' is before 'from'" in text
    assert "bad.yaml: events[3] (kind).type: unknown type 'rumour'" in text
    assert "bad.yaml: events[4] (nosource).source: required field is missing" in text
    assert "bad.yaml: events[5] (badtime).at: '6 August' is not an ISO-8601 time" in text
    assert "bad.yaml: events[6] (extra).colour: unknown field" in text


def test_a_duplicate_id_and_bad_yaml_are_refused(tmp_path: Path) -> None:
    with pytest.raises(RecordError, match="event id 'seen' is given twice"):
        parse_record("r.yaml", {"scenario": "s", "title": "t", "events": [GOOD_EVENT, GOOD_EVENT]})
    path = tmp_path / "broken.yaml"
    path.write_text("events: [\n", encoding="utf-8")
    with pytest.raises(RecordError, match=r"broken.yaml: line \d+, column \d+: not valid YAML"):
        load_record(path)
    with pytest.raises(RecordError, match="missing.yaml: no such file"):
        load_record(tmp_path / "missing.yaml")


def test_compare_refuses_a_bad_record_with_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    run = tmp_path / "run"
    run.mkdir()
    (run / "events.jsonl").write_text('{"t": "1914-08-02T09:00:00Z", "t_min": 0, "type": "start"}\n')
    (run / "summary.json").write_text('{"scenario": {"name": "goeben_1914", "start": "1914-08-02T09:00:00Z", '
                                      '"end": "1914-08-13T00:00:00Z"}}')
    bad = tmp_path / "bad.yaml"
    bad.write_text(yaml.safe_dump({"scenario": "goeben_1914", "title": "t",
                                   "events": [{**GOOD_EVENT, "tolerance_h": -1}]}))
    assert main(["compare", str(run), "--record", str(bad)]) == EXIT_BAD_INPUT
    err = capsys.readouterr().err
    assert "bad.yaml: events[0] (seen).tolerance_h: must be 0 or more, not -1" in err
    assert main(["compare", str(tmp_path / "nowhere")]) == EXIT_BAD_INPUT
    assert "nowhere: no such folder" in capsys.readouterr().err
