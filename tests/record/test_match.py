"""The matcher (campaign/record/match.py) on a synthetic run whose every answer is known: contacts joined
across short losses, arrivals chosen by place and time, messages by receiver and text, battles by side,
coal levels and coal taken, absent events; each scored exactly, inputs apart from emergent events."""

from __future__ import annotations

from typing import Any

import pytest

from campaign.record.match import REGAIN_MIN, score_run
from campaign.record.schema import parse_record
from campaign.record.tables import batch_text, headline, rows

SRC = "Book, p.1"


def rec(t: str, type_: str, unit: str, **kw: Any) -> dict[str, Any]:
    return {"t": f"1914-08-{t}:00Z", "t_min": 0.0, "type": type_, "unit": unit, "side": "x", **kw}


# A run: Indomitable sees Goeben 09:40-10:10 and again 10:50-14:00 (40 min unseen: one contact) off Bône;
# Goeben arrives at Messina on the 2nd and the 5th; Milne receives the war telegram at 00:45 and another
# message at 00:10; Gloucester and Breslau fight at 13:00 on the 7th; Goeben burns 10 t/h from 1,000 t.
EVENTS = [
    rec("02T14:00", "arrive", "Goeben", force="Goeben", lat=38.18, lon=15.575, to="Messina", coal_t=1800.0),
    rec("04T09:40", "sighting", "Indomitable", force="Battle Cruisers", observer="Indomitable", target="Goeben",
        lat=37.6, lon=7.9, previous="none"),
    rec("04T09:50", "sighting", "Indomitable", force="Battle Cruisers", observer="Indomitable", target="Goeben",
        lat=37.6, lon=7.95, previous="smoke"),  # a closer look, not a new contact
    rec("04T10:10", "contact_lost", "Indomitable", force="Battle Cruisers", observer="Indomitable", target="Goeben",
        lat=37.6, lon=8.0),
    rec("04T10:50", "sighting", "Indomitable", force="Battle Cruisers", observer="Indomitable", target="Goeben",
        lat=37.7, lon=8.3, previous="none"),
    rec("04T14:00", "contact_lost", "Indomitable", force="Battle Cruisers", observer="Indomitable", target="Goeben",
        lat=38.0, lon=10.0),
    rec("04T23:00", "message_sent", "Admiralty", id="M1", sender="Admiralty", receiver="Milne",
        text="Commence hostilities against Germany."),
    rec("04T23:30", "message_sent", "Admiralty", id="M2", sender="Admiralty", receiver="Milne", text="Other news."),
    rec("05T00:10", "message_received", "Milne", id="M2", sender="Admiralty", receiver="Milne"),
    rec("05T00:45", "message_received", "Milne", id="M1", sender="Admiralty", receiver="Milne"),
    rec("05T05:00", "arrive", "Goeben", force="Goeben", lat=38.18, lon=15.575, to="Messina", coal_t=700.0),
    rec("05T12:00", "coal_end", "Goeben", force="Goeben", lat=38.18, lon=15.575, taken_t=900.0),
    rec("06T11:00", "coal_end", "Goeben", force="Goeben", lat=38.18, lon=15.575, taken_t=600.0),
    rec("06T16:00", "depart", "Goeben", force="Goeben", lat=38.18, lon=15.575, coal_t=1000.0,
        coal_rate_t_per_h=-10.0),
    rec("07T13:00", "engagement_start", "Gloucester", force="Gloucester", battle=1, lat=36.6, lon=22.0,
        forces=["Gloucester", "Breslau"]),
    rec("07T13:00", "engagement_start", "Breslau", force="Breslau", battle=1, lat=36.6, lon=22.0,
        forces=["Gloucester", "Breslau"]),
]

BASE = {"input": False, "source": SRC, "tolerance_h": 1}
RECORD = {"scenario": "test", "title": "test record", "events": [
    {**BASE, "id": "bc_sight", "what": "w", "type": "sighting", "units": ["Battle Cruisers"], "targets": ["Goeben"],
     "window": {"from": "1914-08-04T09:00Z", "to": "1914-08-04T09:30Z"},
     "place": {"name": "off Bone", "lat": 37.6, "lon": 7.9, "radius_nm": 30}},
    {**BASE, "id": "bc_lose", "what": "w", "type": "contact_lost", "units": ["Indomitable"], "targets": ["Goeben"],
     "at": "1914-08-04T16:00Z"},
    {**BASE, "id": "war", "what": "w", "type": "message_received", "receivers": ["Milne"],
     "text": "hostilities against germany", "at": "1914-08-05T00:15Z"},
    {**BASE, "input": True, "id": "messina", "what": "w", "type": "arrive", "units": ["Goeben"],
     "at": "1914-08-05T04:00Z", "place": {"name": "Messina", "lat": 38.18, "lon": 15.575, "radius_nm": 5}},
    {**BASE, "input": True, "id": "coaled", "what": "w", "type": "coal_taken", "units": ["Goeben"],
     "window": {"from": "1914-08-05T10:00Z", "to": "1914-08-06T12:00Z"}, "taken_t": {"min": 1400, "max": 1600},
     "place": {"name": "Messina", "lat": 38.18, "lon": 15.575, "radius_nm": 5}},
    {**BASE, "id": "coal_at", "what": "w", "type": "coal", "units": ["Goeben"], "at": "1914-08-06T22:00Z",
     "coal_t": {"max": 900}},
    {**BASE, "id": "fight", "what": "w", "type": "engagement", "units": ["Gloucester"], "targets": ["Breslau"],
     "at": "1914-08-07T12:35Z", "place": {"name": "off Matapan", "lat": 36.6, "lon": 22.0, "radius_nm": 40}},
    {**BASE, "id": "no_fleet", "what": "w", "type": "engagement", "absent": True, "units": ["Battle Cruisers"],
     "targets": ["Goeben"], "window": {"from": "1914-08-02T09:00Z", "to": "1914-08-12T00:00Z"}},
    {**BASE, "id": "not_seen", "what": "w", "type": "sighting", "absent": True, "units": ["Indomitable"],
     "targets": ["Goeben"], "window": {"from": "1914-08-04T15:00Z", "to": "1914-08-04T20:00Z"}},
    {**BASE, "id": "never", "what": "w", "type": "message_received", "absent": True, "receivers": ["Souchon"],
     "window": {"from": "1914-08-02T09:00Z", "to": "1914-08-12T00:00Z"}},
    {**BASE, "id": "dublin", "what": "w", "type": "sighting", "units": ["Dublin"], "targets": ["Goeben"],
     "at": "1914-08-04T14:00Z"},
]}


@pytest.fixture(scope="module")
def outcomes() -> dict[str, Any]:
    score = score_run(parse_record("test.yaml", RECORD), EVENTS)
    return {o.event.id: o for o in score.outcomes} | {"_score": score}


def test_a_contact_is_joined_across_a_short_loss_and_found_by_force(outcomes: dict[str, Any]) -> None:
    assert REGAIN_MIN == 60.0
    seen = outcomes["bc_sight"]
    assert seen.found.t.hour == 9 and seen.found.t.minute == 40  # onset of the first span
    assert seen.dt_h == pytest.approx(10 / 60)  # ten minutes after the window
    assert seen.dist_nm == pytest.approx(0.0, abs=1e-6)
    assert seen.within
    lost = outcomes["bc_lose"]  # the contact ends at 14:00, not at the 10:10 flicker
    assert lost.found.t.hour == 14 and lost.dt_h == pytest.approx(-2.0) and not lost.within


def test_a_message_is_matched_by_receiver_and_text(outcomes: dict[str, Any]) -> None:
    war = outcomes["war"]
    assert war.found.t.minute == 45 and war.dt_h == pytest.approx(0.5) and war.within


def test_the_arrival_nearest_the_record_is_chosen(outcomes: dict[str, Any]) -> None:
    arr = outcomes["messina"]
    assert arr.found.t.day == 5 and arr.dt_h == pytest.approx(1.0) and arr.within
    assert arr.dist_nm == pytest.approx(0.0, abs=1e-6)


def test_coal_taken_adds_the_coalings_in_the_window_and_a_level_is_burnt_down(outcomes: dict[str, Any]) -> None:
    taken = outcomes["coaled"]
    assert taken.found.value_t == 1500.0 and taken.off_t == 0.0 and taken.within
    level = outcomes["coal_at"]  # 1,000 t at 16:00, 10 t/h for 6 h
    assert level.found.value_t == pytest.approx(940.0) and level.off_t == pytest.approx(40.0)
    assert not level.within


def test_a_battle_is_found_by_its_sides_and_absences_are_scored(outcomes: dict[str, Any]) -> None:
    fight = outcomes["fight"]
    assert fight.dt_h == pytest.approx(25 / 60) and fight.within
    assert outcomes["no_fleet"].within and outcomes["no_fleet"].found is None
    assert outcomes["never"].within
    not_seen = outcomes["not_seen"]  # no contact begins from 15:00 to 20:00
    assert not_seen.within
    assert not outcomes["dublin"].within and outcomes["dublin"].found is None


def test_inputs_and_emergent_events_are_scored_apart(outcomes: dict[str, Any]) -> None:
    score = outcomes["_score"]
    assert score.share(True) == (6, 9)  # bc_sight, war, fight, no_fleet, not_seen, never
    assert score.share(False) == (2, 2)
    assert headline(score) == "Emergent events within tolerance: 6 of 9 (67 %); inputs: 2 of 2"
    table = rows(score)
    assert [r[1] for r in table] == ["emergent"] * 9 + ["input"] * 2
    assert table[0][4:] == ("+10 min", "yes")
    text = batch_text(parse_record("test.yaml", RECORD), {"base": [score, score]})
    assert "emergent bc_sight: 2/2 (100 %), found in 2, median difference +10 min" in text
    assert "mean share 67 %" in text


def test_a_batch_is_scored_from_the_records_it_kept(tmp_path) -> None:
    import json

    from campaign.record.batch import batch_against_record

    for seed in (11, 12):
        folder = tmp_path / "records" / "base" / str(seed)
        folder.mkdir(parents=True)
        (folder / "events.jsonl").write_text("".join(json.dumps(r) + "\n" for r in EVENTS))
    text, rows_ = batch_against_record(tmp_path, "goeben_1914", ["base", "never_run"])
    assert "base (2 runs)" in text and "never_run" not in text
    by_id = {r["event"]: r for r in rows_}
    assert by_id["no_fleet_action"]["within"] == 2 and by_id["dublin_joins_the_chase"]["found"] == 0
    none, _ = batch_against_record(tmp_path / "other", "goeben_1914", ["base"])
    assert "--keep-records" in none
    assert batch_against_record(tmp_path, "no_such_scenario", ["base"]) == ("", [])
