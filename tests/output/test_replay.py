"""Tests of the replay (campaign/output/replay*.py), the GeoPackage export (gpkg.py) and the
``replay`` command (rebuild.py, cli.py), without a browser (test_replay_browser.py opens the pages).

Sun times are computed with PyEphem 4.2.1 (standard refraction; the sun's centre at -6 deg for civil
twilight; UT); sizes and frame counts from the issue: the full campaign's replay is at most 10 MB, with a
frame every 30 minutes and one at every record worth seeing.

Sightings, messages and pictures (issue 4) are checked on ``INTEL``, a morning off Sicily: Goeben and
Breslau steam east past Gloucester, who reports to Milne aboard Inflexible at Malta, who passes the
reports on to the Admiralty in London; the Admiralty's orders for Inflexible travel the other way.
"""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import ephem
import numpy as np
import pyogrio
import pytest
import yaml

from campaign.cli import main
from campaign.output.gpkg import write_tracks_gpkg
from campaign.output.replay import build_replay, clock_label, replay_payload, script_json
from campaign.output.replay_events import PHRASES, QUIET_TYPES, event_lines, sentence, with_deliveries
from campaign.output.replay_frames import FRAME_STEP_MIN, SAME_TIME_MIN, frame_states, frame_times
from campaign.output.replay_intel import CONTACT_LEVELS
from campaign.output.replay_sun import (
    altitude_from_subsolar,
    light_phase,
    subsolar_point,
    sun_altitude_deg,
)
from campaign.paths import ROOT, SCENARIO_DIR
from campaign.runner import RunResult, run
from campaign.world.units import STATUSES

MESSINA = (38.1938, 15.5540)


SMALL = {
    "name": "small_replay", "title": "Small replay test",
    "start": "1914-08-04T00:00Z", "end": "1914-08-05T00:00Z",
    "local_time": {"name": "CET", "offset_h": 1},
    "sides": {"Central Powers": {"nations": ["Germany"]}, "Entente": {"nations": ["United Kingdom"]}},
    "forces": [
        {"name": "Goeben", "side": "Central Powers", "ships": ["Goeben"], "start": "Messina", "coal_t": 1800,
         "orders": [{"do": "coal", "max_t": 100, "until": "1914-08-04T06:00Z", "note": "coal a little"},
                    {"do": "sail", "to": "Cape Spartivento", "speed": 17, "at": "1914-08-04T08:00Z",
                     "note": "south"}]},
        {"name": "Battle Cruisers", "side": "Entente", "ships": ["Inflexible", "Indomitable"],
         "start": "Malta",
         "orders": [{"do": "sail", "to": {"lat": 36.5, "lon": 15.5, "name": "off Cape Passero"}, "speed": 20,
                     "at": "1914-08-04T01:00Z", "note": "north"}]},
    ],
}
HOSTILE = "<script>alert(1)</script>"

INTEL_ORDER_TEXT = "Goeben is your objective <b>& Breslau</b>"
INTEL = {
    "name": "intel_replay", "title": "Sightings, messages and pictures",
    "start": "1914-08-02T06:00Z", "end": "1914-08-02T16:00Z",
    "local_time": {"name": "CET", "offset_h": 1},
    "sides": {"Central Powers": {"nations": ["Germany"]}, "Entente": {"nations": ["United Kingdom"]},
              "Italy": {"nations": ["Italy"], "neutral": True}},
    "command": {
        "headquarters": [
            {"name": "Admiralty", "side": "Entente", "nation": "United Kingdom", "station": "London"},
            {"name": "Milne", "side": "Entente", "nation": "United Kingdom", "aboard": "Inflexible",
             "superior": "Admiralty", "relay_to": ["Admiralty"]}],
        "standing": {"Gloucester": {"on_contact": "report", "report_to": "Milne"}}},
    "messages": [{"at": "1914-08-02T07:00Z", "from": "Admiralty", "to": "Milne", "text": INTEL_ORDER_TEXT,
                  "orders_for": "Inflexible",
                  "orders": [{"do": "sail", "to": {"lat": 36.0, "lon": 15.5}, "speed": 20}]}],
    "forces": [
        {"name": "Goeben", "side": "Central Powers", "ships": ["Goeben", "Breslau"],
         "start": {"lat": 36.0, "lon": 16.0}, "orders": [{"do": "sail", "to": {"lat": 36.0, "lon": 18.0}, "speed": 18}]},
        {"name": "Gloucester", "side": "Entente", "ships": ["Gloucester"], "start": {"lat": 36.1, "lon": 16.8},
         "orders": [{"do": "stop"}]},
        {"name": "Inflexible", "side": "Entente", "ships": ["Inflexible"], "start": "Valletta",
         "orders": [{"do": "stop"}]},
    ],
}


def _scenario_file(tmp: Path, content: dict[str, Any]) -> Path:
    path = tmp / f"{content['name']}.yaml"
    path.write_text(yaml.safe_dump(content, sort_keys=False, allow_unicode=True), encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def small(tmp_path_factory: pytest.TempPathFactory) -> RunResult:
    return run(_scenario_file(tmp_path_factory.mktemp("small"), SMALL))


@pytest.fixture(scope="module")
def small_meta(small: RunResult) -> dict[str, Any]:
    return small.meta | {"local_time": dict(small.scenario.local_time)}


@pytest.fixture(scope="module")
def intel(tmp_path_factory: pytest.TempPathFactory) -> RunResult:
    return run(_scenario_file(tmp_path_factory.mktemp("intel"), INTEL))


@pytest.fixture(scope="module")
def intel_payload(intel: RunResult) -> dict[str, Any]:
    return replay_payload(intel.events, intel.tracks, intel.meta | {"local_time": dict(intel.scenario.local_time)})


@pytest.fixture(scope="module")
def goeben() -> RunResult:
    return run(SCENARIO_DIR / "goeben_1914.yaml")


# ------------------------------------------------------------------------------------ events in words


def test_phrases_read_as_sentences() -> None:
    base = {"unit": "Goeben", "side": "Central Powers", "force": "Goeben", "t_min": 0.0}
    cases = {
        "depart": ({"origin": "Messina", "to": "Philippeville", "speed_kn": 16.0, "dist_nm": 330.4},
                   "Goeben departs Messina for Philippeville at 16 kn, 330 nm"),
        "arrive": ({"to": "Messina", "place": "Messina"}, "Goeben arrives at Messina"),
        "coal_start": ({"source": "Messina", "rate_t_per_h": 65.22},
                       "Goeben begins coaling from Messina at 65 t/h"),
        "coal_end": ({"source": "Messina", "taken_t": 173.0, "reason": "amount ordered"},
                     "Goeben finishes coaling from Messina: 173 t taken (amount ordered)"),
        "out_of_coal": ({"lat": 37.5, "lon": 18.25}, "Goeben runs out of coal at 37°30'N 18°15'E"),
        "neutral_limit": ({"place": "Messina", "limit_h": 24.0},
                          "Goeben must leave Messina: 24 h neutral stay is up"),
        "detach": ({"was_in": "Battle Cruisers", "place": "Off Pantelleria"},
                   "Goeben detaches from Battle Cruisers at Off Pantelleria"),
        "interned": ({"place": "Messina"}, "Goeben is interned at Messina"),
    }
    for type_, (fields, text) in cases.items():
        assert sentence({**base, "type": type_, **fields}) == text
    # a departure from sea (no origin) steers rather than departs
    from_sea = {**base, "type": "depart", "to": "Messina", "speed_kn": 15.5}
    assert sentence(from_sea) == "Goeben steers for Messina at 15.5 kn"
    # a type nobody has phrased yet still reads sensibly
    assert sentence({**base, "type": "mine_laid"}) == "Goeben: mine laid"
    # battles
    battle = {
        "engagement_start": ({"battle": 1, "engine": "jane", "forces": ["Goeben", "Gloucester"]},
                             "Goeben goes into action (battle 1, jane rules) with Gloucester"),
        "fire": ({"target": "Gloucester", "range_yd": 8012.4}, "Goeben fires on Gloucester at 8,012 yd"),
        "hit": ({"by": "Gloucester", "part": "belt", "damage": 0.05}, "Goeben is hit by Gloucester (belt), damage 5 %"),
        "sunk": ({"by": "Indomitable"}, "Goeben sinks, sunk by Indomitable"),
        "engagement_end": ({"reason": "separated", "duration_min": 42.0, "damage": 0.25, "gunnery": 0.5,
                            "speed_lost_kn": 2.0, "sunk": False, "coal_burnt_t": 31.8},
                           "Goeben comes out of action after 42 min (out of sight): damage 25 %, gunnery 50 %, "
                           "2 kn lost; 32 t of coal burnt"),
    }
    for type_, (fields, text) in battle.items():
        assert sentence({**base, "type": type_, **fields}) == text


def test_phrases_of_sightings_signals_commands_and_pictures() -> None:
    t = {"t": "1914-08-02T14:05:00Z", "t_min": 305.0, "side": "Entente"}
    sent = {**t, "type": "message_sent", "unit": "Admiralty", "id": "M0001", "sender": "Admiralty",
            "receiver": "Milne", "kind": "order", "text": "Goeben is your objective.",
            "expected_delay_min": 140.0, "held": False}
    cases = [
        (sent, "Admiralty → Milne: 'Goeben is your objective.' (expected in 2 h 20 min)"),
        ({**sent, "delivery": {"received": "1914-08-02T16:32:00Z", "delay_min": 147.0}},
         "Admiralty → Milne: 'Goeben is your objective.' (received 16:32, 2 h 27 min)"),
        ({**sent, "delivery": {"received": "1914-08-03T01:05:00Z", "delay_min": 660.0}},
         "Admiralty → Milne: 'Goeben is your objective.' (received 3 Aug 01:05, 11 h)"),
        ({**sent, "held": True, "expected_delay_min": None},
         "Admiralty → Milne: 'Goeben is your objective.' (held: no route yet)"),
        ({**t, "type": "message_received", "unit": "Milne", "id": "M0001", "sender": "Admiralty",
          "receiver": "Milne", "kind": "order", "delay_min": 147.0},
         "Milne receives Admiralty's orders of 11:38 after 2 h 27 min"),
        ({**t, "type": "message_lost", "unit": "Gloucester", "id": "M0007", "sender": "Gloucester",
          "receiver": "Milne", "reason": "no route", "held_min": 360.0},
         "Gloucester gives up Gloucester's message M0007 to Milne: no route after holding it 6 h"),
        ({**t, "type": "message_rerouted", "unit": "Gloucester", "id": "M0007", "reason": "out of range",
          "route": [{"from": "Gloucester", "to": "Malta W/T", "by": "wireless"},
                    {"from": "Malta W/T", "to": "Milne", "by": "wireless"}]},
         "Gloucester re-routes message M0007 (out of range) via Malta W/T"),
        ({**t, "type": "message_jammed", "unit": "Goeben", "id": "M0009", "hop": {"from": "Goeben", "to": "General"},
          "jammers": ["Gloucester"]}, "Goeben cannot get message M0009 through to General: jammed by Gloucester"),
        ({**t, "type": "intercept", "unit": "Goeben", "sea": "Ionian", "area": "B"},
         "Goeben hears enemy wireless: the sender is in the Ionian, area B"),
        ({**t, "type": "jamming_start", "unit": "Gloucester"}, "Gloucester begins jamming enemy wireless"),
        ({**t, "type": "jamming_end", "unit": "Gloucester"}, "Gloucester stops jamming"),
        ({**t, "type": "orders", "unit": "Inflexible", "force": "Inflexible", "by": "Milne", "reason": "Go east.",
          "orders": ["sail to Cape Matapan at 20 kn"]},
         "Inflexible has orders from Milne: sail to Cape Matapan at 20 kn (Go east.)"),
        ({**t, "type": "orders", "unit": "Gloucester", "force": "Gloucester", "by": "Gloucester",
          "reason": "holding contact Gloucester-1 at 12 nm", "orders": ["sail to shadowing contact Gloucester-1 at 18 kn"]},
         ("Gloucester takes up new orders: sail to shadowing contact Gloucester-1 at 18 kn "
          "(holding contact Gloucester-1 at 12 nm)")),
        ({**t, "type": "standing", "unit": "Gloucester", "by": "Milne", "message": "M0003",
          "changes": {"on_contact": "shadow", "report_to": "Milne"}},
         "Gloucester has new standing instructions from Milne: on contact shadow; report to Milne (message M0003)"),
        ({**t, "type": "picture", "node": "Milne", "about": "Goeben", "lat": 36.5, "lon": 17.25, "level": "recognised",
          "seen": "1914-08-02T13:40:00Z", "source": "message M0002 from Gloucester", "course_deg": 90.0,
          "speed_kn": 18.0},
         ("Milne now places Goeben (recognised) at 36°30'N 17°15'E, course 90°, 18 kn; seen 13:40, "
          "message M0002 from Gloucester")),
        ({**t, "type": "picture", "node": "Goeben", "about": "wireless in sea Ionian area B", "level": "intercept",
          "seen": "1914-08-02T13:40:00Z", "source": "intercepted wireless", "sea": "Ionian", "area": "B"},
         "Goeben notes enemy wireless in the Ionian, area B, heard 13:40"),
        ({**t, "type": "sighting", "unit": "Gloucester", "observer": "Gloucester", "target": "Goeben",
          "range_nm": 12.0, "bearing_deg": 245.6, "level": "smoke", "previous": "none", "recognised": "smoke"},
         "Gloucester sights smoke at 12 nm, bearing 246"),
        ({**t, "type": "sighting", "unit": "Gloucester", "observer": "Gloucester", "target": "Goeben",
          "range_nm": 5.0, "bearing_deg": 245.6, "level": "recognised", "previous": "ships",
          "recognised": ["Goeben (battlecruiser)", "Breslau (light cruiser)"]},
         "Gloucester makes out Goeben (battlecruiser), Breslau (light cruiser) at 5 nm, bearing 246"),
    ]
    for rec, text in cases:
        assert sentence(rec) == text, rec["type"]


def test_the_panel_leaves_out_repeats() -> None:
    from campaign.output.replay import _panel_lines

    base = {"unit": "Gloucester", "side": "Entente", "force": "Gloucester", "status": "underway"}
    dep = {**base, "type": "depart", "to": "station on Goeben", "speed_kn": 17.0, "dist_nm": 8.0}
    order = {**base, "type": "orders", "by": "Gloucester", "orders": ["sail to station on Goeben at 17 kn"]}
    sight = {**base, "type": "sighting", "level": "smoke", "previous": "none", "recognised": "smoke",
             "range_nm": 3.0, "bearing_deg": 130.0}
    recs = [{**dep, "t_min": 10.0}, {**sight, "t_min": 10.0}, {**dep, "t_min": 10.0 + 1 / 60},  # same leg twice
            {**order, "t_min": 11.0}, {**order, "t_min": 40.0},  # the same orders again, half an hour on
            {**dep, "t_min": 40.0}]  # a new leg, told again
    got = [(ln.t_min, ln.type) for ln in _panel_lines(recs, PHRASES)]
    assert got == [(10.0, "depart"), (10.0, "sighting"), (11.0, "orders"), (40.0, "depart")]


def test_the_listeners_of_one_side_are_one_line() -> None:
    heard = {"t": "1914-08-06T18:14:00Z", "t_min": 5.0, "type": "intercept", "sea": "Ionian", "area": "B"}
    recs = [{**heard, "unit": u, "side": "Entente"} for u in ("Dublin", "Gloucester", "Milne", "Chatham", "Weymouth")]
    recs += [{**heard, "unit": "Goeben", "side": "Central Powers"}, {**heard, "unit": "Chatham", "side": "Entente",
                                                                      "t_min": 6.0}]
    texts = [ln.text for ln in event_lines(recs)]
    assert texts == ["Dublin, Gloucester, Milne and 2 more hear enemy wireless: the sender is in the Ionian, area B",
                     "Goeben hears enemy wireless: the sender is in the Ionian, area B",
                     "Chatham hears enemy wireless: the sender is in the Ionian, area B"]
    two = [ln.text for ln in event_lines(recs[:2])]
    assert two == ["Dublin and Gloucester hear enemy wireless: the sender is in the Ionian, area B"]


def test_a_message_is_told_whole_in_the_panel(intel: RunResult) -> None:
    """"07:00 Admiralty → Milne: '...' (received 10:02, 3 h 2 min)": the sending line knows the arrival."""
    received = {r["id"]: r for r in intel.events if r["type"] == "message_received"}
    sent = [r for r in intel.events if r["type"] == "message_sent"]
    assert sent and received
    lines = {ln.t_min: ln for ln in event_lines(intel.events) if ln.type == "message_sent"}
    for rec in sent:
        got = received.get(rec["id"])
        text = lines[rec["t_min"]].text
        assert text.startswith(f"{rec['sender']} → {rec['receiver']}: '")
        if got is not None:
            assert f"(received {got['t'][11:16]}, " in text
    first = next(ln for ln in event_lines(intel.events) if ln.type == "message_sent")
    assert first.text.startswith(f"Admiralty → Milne: '{INTEL_ORDER_TEXT}' (received ")
    assert re.search(r"\(received \d\d:\d\d, \d+ h \d+ min\)$", first.text)
    # the join leaves the records alone and gives long texts whole in the note
    long = {"t": "1914-08-02T07:00:00Z", "t_min": 60.0, "type": "message_sent", "unit": "A", "id": "M1",
            "sender": "A", "receiver": "B", "text": "word " * 60}
    (joined,) = with_deliveries([long])
    assert joined["note"] == ("word " * 60).strip() and "note" not in long
    assert "…'" in sentence(joined)


def _emitted_types() -> set[str]:
    """Every record type the simulation can emit: the first string of each emit call in its source."""
    found: set[str] = set()
    for path in (ROOT / "campaign").rglob("*.py"):
        if "output" in path.parts:
            continue
        for line in path.read_text(encoding="utf-8").splitlines():
            m = re.search(r"emit(?:_force)?\(", line)
            if not m:
                continue
            first = re.search(r'"([a-z_]+)"(?:\s+if\s+[^"]*?else\s+"([a-z_]+)")?', line[m.end():])
            if first:
                found.update(x for x in first.groups() if x)
    return found


def test_a_new_event_type_is_one_registry_entry() -> None:
    rec = {"t_min": 10.0, "t": "1914-08-06T22:10:00Z", "type": "sighting", "unit": "Gloucester",
           "force": "Gloucester", "target": "Goeben", "range_nm": 8}
    phrases = {**PHRASES, "sighting": lambda r: f"sights {r['target']} at {r['range_nm']} nm"}
    (line,) = event_lines([rec], phrases)
    assert line.text == "Gloucester sights Goeben at 8 nm"


def test_the_battle_plane_records_read_as_words() -> None:
    assert sentence({"type": "ram", "unit": "Dublin", "target": "Waltraute", "closing_kn": 14.2,
                     "result": "struck sunk"}) == "Dublin rams Waltraute at 14.2 kn: struck sunk"
    assert sentence({"type": "collision", "unit": "Defence", "target": "Warrior", "closing_kn": 3.0,
                     "result": "no damage"}) == "Defence collides with Warrior at 3 kn: no damage"
    assert sentence({"type": "signal", "unit": "Defence", "kind": "together", "course_deg": 305.0,
                     "speed_kn": 15.8, "signalled": True}).startswith("Defence signals: turn together to 305°")
    assert sentence({"type": "settlement", "forces": ["Goeben", "Gloucester"], "superior": "Central Powers",
                     "ratio": 7.25, "lots": {"Gloucester": "removed"}}) == (
        "The umpire settles the contact of Goeben and Gloucester (Central Powers superior, 7.25 to 1): "
        "Gloucester removed")
    assert "from her bow tube" in sentence({"type": "torpedo", "unit": "Goeben", "tube": "bow",
                                            "target": "Defence", "range_yd": 450, "result": "miss"})


def test_every_record_type_has_a_phrase(goeben: RunResult, intel: RunResult) -> None:
    """Every type the simulation's source can emit, and every type two runs did emit, reads as words."""
    emitted = _emitted_types()
    known = {"depart", "arrive", "coal_start", "coal_end", "transfer_start", "transfer_end", "out_of_coal",
             "neutral_limit", "interned", "detach", "halt", "stop", "speed_change", "order_failed",
             "order_skipped", "start", "end", "sighting", "contact_lost", "course_change", "politics", "orders",
             "standing", "picture", "message_sent", "message_received", "message_lost", "message_rerouted",
             "message_jammed", "intercept", "jamming_start", "jamming_end"}
    assert known - {"standing"} <= emitted  # the scan finds the emit calls it should
    assert emitted <= set(PHRASES), emitted - set(PHRASES)
    assert {e["type"] for e in goeben.events} <= set(PHRASES)
    assert {e["type"] for e in intel.events} <= set(PHRASES)
    assert {"sighting", "message_sent", "message_received", "picture", "intercept"} <= {
        e["type"] for e in intel.events}


def test_a_squadron_doing_one_thing_is_one_line(small: RunResult) -> None:
    lines = [ln for ln in event_lines(small.events) if ln.type == "depart" and ln.t_min == 60.0]
    assert len(lines) == 1
    assert lines[0].text.startswith(
        "Battle Cruisers (Inflexible, Indomitable) departs Valletta for off Cape Passero at 20 kn")
    assert lines[0].units == ("Inflexible", "Indomitable")
    assert lines[0].note == "north"


# ------------------------------------------------------------------------------------ frames


def test_frames_every_30_minutes_and_at_every_event(small: RunResult) -> None:
    end = small.scenario.duration_min
    t = frame_times(small.events, end)
    grid = np.arange(0.0, end + 1e-9, FRAME_STEP_MIN)
    assert np.isin(grid, t).all()
    for rec in small.events:
        if rec["type"] not in QUIET_TYPES:
            assert np.min(np.abs(t - rec["t_min"])) < 1e-6, rec["type"]
    assert np.all(np.diff(t) > 0)
    # coal_end 01:31:59, the arrivals 03:57:43 and 10:22:01: three frames off the grid
    assert len(t) == len(grid) + 3


def test_frame_states_are_exact_at_records_and_follow_the_tracks(small: RunResult) -> None:
    t = frame_times(small.events, small.scenario.duration_min)
    fs = frame_states(small.events, small.tracks, t)
    units = list(small.tracks["unit"].values)
    for rec in small.events:
        if rec["type"] in QUIET_TYPES:
            continue
        k, j = int(np.argmin(np.abs(t - rec["t_min"]))), units.index(rec["unit"])
        last = [r for r in small.events if r["unit"] == rec["unit"] and r["t_min"] <= rec["t_min"]][-1]
        assert fs.lat[k, j] == pytest.approx(rec["lat"], abs=1e-9)
        assert fs.lon[k, j] == pytest.approx(rec["lon"], abs=1e-9)
        assert fs.coal_t[k, j] == pytest.approx(last["coal_t"], abs=0.01)
        assert STATUSES[fs.status[k, j]] == last["status"]
    # on the 30-minute grid the positions are the tracks' own samples
    on_grid = np.isin(t, small.tracks["t_min"].values)
    rows = np.searchsorted(small.tracks["t_min"].values, t[on_grid])
    assert np.allclose(fs.lat[on_grid], small.tracks["lat"].values[rows], atol=1e-9)
    # the current order is the one the unit sails under
    j = units.index("Goeben")
    k = int(np.searchsorted(t, 9 * 60.0))
    assert fs.strings[fs.order[k, j]] == "sail to Cape Spartivento at 17 kn"
    assert fs.strings[fs.force[k, units.index("Inflexible")]] == "Battle Cruisers"


# ------------------------------------------------------------------------------------ the sun


def _crossing(lat: float, lon: float, t0: datetime, t1: datetime, alt_deg: float) -> datetime:
    """When the sun's altitude passes ``alt_deg`` between t0 and t1 (bisection to a second)."""
    rising = sun_altitude_deg(lat, lon, t0) < alt_deg
    while (t1 - t0).total_seconds() > 1:
        mid = t0 + (t1 - t0) / 2
        below = sun_altitude_deg(lat, lon, mid) < alt_deg
        if below == rising:
            t0 = mid
        else:
            t1 = mid
    return t0


@pytest.mark.parametrize("place, lat, lon, day, dawn, dusk", [
    ("Messina", 38.1938, 15.5540, 4, "03:31", "18:35"),
    ("Philippeville", 36.8762, 6.9092, 4, "04:09", "19:06"),
    ("Cape Helles", 40.0444, 26.1800, 10, "02:50", "17:50"),
])
def test_night_ends_and_begins_at_civil_twilight(place: str, lat: float, lon: float, day: int, dawn: str,
                                                 dusk: str) -> None:
    """Civil dawn and dusk computed with PyEphem (sun's centre at -6 deg), UT, to the minute."""
    midnight = datetime(1914, 8, day, tzinfo=UTC)
    got_dawn = _crossing(lat, lon, midnight + timedelta(hours=1), midnight + timedelta(hours=6), -6.0)
    got_dusk = _crossing(lat, lon, midnight + timedelta(hours=15), midnight + timedelta(hours=21), -6.0)
    for got, want in ((got_dawn, dawn), (got_dusk, dusk)):
        h, m = map(int, want.split(":"))
        assert abs((got - midnight.replace(hour=h, minute=m)).total_seconds()) <= 120, place


def test_night_detection_against_messina_sunrise_4_august_1914() -> None:
    """Computed with PyEphem (sun's centre at -6 deg for civil twilight; upper limb for sunrise): civil dawn
    03:31, sunrise 03:57 UT at Messina on 4 Aug 1914.

    That sunrise figure sets a -0:34 horizon on top of PyEphem's own refraction (that setting
    reproduces 03:57:25 exactly), so it is about 4 minutes early; standard sunrise (centre at
    -0.833 deg) is 04:01 UT. Night, twilight and day are checked on either side of both.
    """
    at = lambda hh, mm: datetime(1914, 8, 4, hh, mm, tzinfo=UTC)
    phase = lambda t: light_phase(sun_altitude_deg(*MESSINA, t))
    assert phase(at(2, 0)) == "night"
    assert phase(at(3, 28)) == "night"
    assert phase(at(3, 36)) == "twilight"
    assert phase(at(3, 55)) == "twilight"
    assert phase(at(4, 5)) == "day"
    assert phase(at(12, 0)) == "day"
    assert phase(at(18, 40)) == "night"
    sunrise = _crossing(*MESSINA, at(3, 0), at(5, 0), -0.833)
    assert abs((sunrise - at(3, 57)).total_seconds()) <= 6 * 60
    observer = ephem.Observer()
    observer.lat, observer.lon, observer.date = str(MESSINA[0]), str(MESSINA[1]), "1914/8/4"
    standard = observer.next_rising(ephem.Sun()).datetime().replace(tzinfo=UTC)
    assert abs((sunrise - standard).total_seconds()) <= 60


def test_the_pages_sun_formula_is_ephems_altitude() -> None:
    """The page computes altitude from the sub-solar point; it must match ephem's (no refraction)."""
    for when in (datetime(1914, 8, 2, 9, 0), datetime(1914, 8, 6, 22, 30), datetime(1914, 8, 10, 4, 45)):
        sub = subsolar_point(when.replace(tzinfo=UTC))
        for lat, lon in ((38.19, 15.55), (36.9, 6.9), (40.04, 26.18), (45.0, -5.0)):
            obs = ephem.Observer()
            obs.lat, obs.lon, obs.pressure, obs.date = str(lat), str(lon), 0.0, ephem.Date(when)
            want = float(np.degrees(float(ephem.Sun(obs).alt)))
            assert float(altitude_from_subsolar(lat, lon, *sub)) == pytest.approx(want, abs=0.02)


# ------------------------------------------------------------------------------------ labels and page


def test_clock_labels_in_utc_and_the_declared_local_time() -> None:
    t = datetime(1914, 8, 4, 6, 10, tzinfo=UTC)
    assert clock_label(t) == "Tue 4 Aug 1914 06:10 UTC"
    assert clock_label(t, ("CET", 1.0)) == "Tue 4 Aug 1914 06:10 UTC · 07:10 CET"
    late = datetime(1914, 8, 3, 23, 30, tzinfo=UTC)
    assert clock_label(late, ("CET", 1.0)) == "Mon 3 Aug 1914 23:30 UTC · Tue 4 Aug 00:30 CET"


def test_script_json_cannot_close_its_element() -> None:
    obj = {"name": "</script><script>alert(1)</script>", "amp": "a & b", "ls": "\u2028"}
    text = script_json(obj)
    assert not set("<>&") & set(text)
    assert json.loads(text) == obj


def _ours(page: str) -> str:
    """The page without the embedded plotly.js (which has URLs of its own, never fetched here)."""
    from plotly.offline import get_plotlyjs

    js = get_plotlyjs()
    assert js in page  # embedded whole: no CDN
    return page.replace(js, "")


def test_page_is_self_contained(small: RunResult, small_meta: dict[str, Any]) -> None:
    page = build_replay(small.events, small.tracks, small_meta)
    ours = _ours(page)
    assert not re.search(r"https?://|//cdn|\bsrc\s*=|@import|url\(", ours, re.IGNORECASE)
    assert "Content-Security-Policy" in ours and "default-src 'none'" in ours
    assert len(re.findall(r"<script\b", ours)) == 3  # plotly.js, data, player
    assert "Tue 4 Aug 1914 00:00 UTC · 01:00 CET" in ours


def test_names_from_scenario_files_are_escaped(tmp_path: Path) -> None:
    hostile = {**SMALL, "name": "hostile", "title": f"Title {HOSTILE}"}
    hostile["forces"] = [dict(SMALL["forces"][0], name=HOSTILE, orders=[
        {"do": "sail", "to": {"lat": 37.6, "lon": 17.2, "name": "<b>there</b>"}, "speed": 16,
         "at": "1914-08-04T01:00Z", "note": "<img src=x onerror=alert(2)>"}])]
    result = run(_scenario_file(tmp_path, hostile))
    page = build_replay(result.events, result.tracks, result.meta)
    ours = _ours(page)
    for raw in (HOSTILE, "<b>there</b>", "<img src=x"):
        assert raw not in ours
    assert f"<title>Title {HOSTILE.replace('<', '&lt;').replace('>', '&gt;')}</title>" in ours
    payload = replay_payload(result.events, result.tracks, result.meta)
    # texts for the page's panels stay plain (the player sets them with textContent) ...
    assert any(HOSTILE == s for s in payload["strings"])
    # ... and every text put into the Plotly figure by Python is HTML-escaped
    figure_texts = json.dumps(payload["figure"]["data"])
    assert "<b>" not in figure_texts and "<script" not in figure_texts


def test_full_campaign_replay_size_and_frames(goeben: RunResult) -> None:
    meta = goeben.meta | {"local_time": dict(goeben.scenario.local_time)}
    page = build_replay(goeben.events, goeben.tracks, meta)
    assert len(page.encode("utf-8")) <= 10_000_000
    payload = replay_payload(goeben.events, goeben.tracks, meta)
    frames = payload["frames"]["t"]
    end = goeben.scenario.duration_min
    assert len(frames) >= end / FRAME_STEP_MIN + 1
    # a frame at every record worth seeing (records within a second of each other share one)
    event_times = np.array(sorted({e["t_min"] for e in goeben.events if e["type"] not in QUIET_TYPES}))
    f = np.asarray(frames)
    i = np.clip(np.searchsorted(f, event_times), 1, len(f) - 1)
    nearest = np.minimum(np.abs(f[i] - event_times), np.abs(f[i - 1] - event_times))
    assert nearest.max() <= SAME_TIME_MIN + 1e-3
    assert len(payload["state"]["lat"]) == len(frames) * goeben.tracks.sizes["unit"]
    assert payload["frames"]["clock"][0] == "Sun 2 Aug 1914 09:00 UTC · 10:00 CET"
    phases = payload["frames"]["phase"]
    assert 0 in phases and 2 in phases  # days and nights


# ------------------------------------------------------------------------------------ sightings, messages, pictures


def test_contact_segments_follow_the_sighting_records(intel: RunResult, intel_payload: dict[str, Any]) -> None:
    c = intel_payload["intel"]["contacts"]
    strings, names = intel_payload["strings"], intel_payload["intel"]["s"]
    recs = [r for r in intel.events if r["type"] in ("sighting", "contact_lost")]
    sightings = [r for r in recs if r["type"] == "sighting"]
    assert len(c["t0"]) == len(sightings) > 0
    end = intel.scenario.duration_min
    for i, rec in enumerate(sightings):
        assert c["t0"][i] == pytest.approx(rec["t_min"], abs=1e-3)
        assert CONTACT_LEVELS[c["level"][i]] == rec["level"]
        assert strings[c["obs"][i]] == rec["observer"] and strings[c["tgt"][i]] == rec["target"]
        assert names[c["on"][i]] == rec["observer"] and names[c["tn"][i]] == rec["target"]
        later = [r for r in recs if r["t_min"] > rec["t_min"] and r["observer"] == rec["observer"]
                 and r["target"] == rec["target"]]
        assert c["t1"][i] == pytest.approx(later[0]["t_min"] if later else end, abs=1e-3)
        # the fallback target position is the record's range and bearing from the observer
        from campaign.geo.earth import distance_nm
        d = float(distance_nm(rec["lat"], rec["lon"], c["tlat"][i], c["tlon"][i]))
        assert d == pytest.approx(rec["range_nm"], rel=0.01)
    sides = [s["name"] for s in intel_payload["sides"]]
    assert {sides[s] for s in c["side"]} == {"Entente", "Central Powers"}  # each side sights the other


def test_messages_run_from_sender_to_receiver_with_their_delay(intel: RunResult,
                                                               intel_payload: dict[str, Any]) -> None:
    m = intel_payload["intel"]["messages"]
    units = intel_payload["units"]["name"]
    strings, texts = intel_payload["strings"], intel_payload["intel"]["s"]
    sent = [r for r in intel.events if r["type"] == "message_sent"]
    got = {r["id"]: r for r in intel.events if r["type"] == "message_received"}
    assert len(m["t0"]) == len(sent)
    for i, rec in enumerate(sent):
        assert m["t0"][i] == pytest.approx(rec["t_min"], abs=1e-3)
        if rec["id"] in got:  # the line's delay is the arrival's
            r = got[rec["id"]]
            assert m["state"][i] == 0 and m["t1"][i] == pytest.approx(r["t_min"], abs=1e-3)
            assert m["t1"][i] - m["t0"][i] == pytest.approx(r["delay_min"], abs=1e-2)
        assert m["id"][i] == rec["id"] and texts[m["text"][i]] == f"'{rec['text']}'"
        assert (texts[m["snd"][i]], texts[m["rcv"][i]]) == (rec["sender"], rec["receiver"])
        for node, (force, unit, lat, lon) in ((rec["sender"], m["a"][i]), (rec["receiver"], m["b"][i])):
            if node == "Admiralty":  # ashore in London: where its records put it
                assert (force, unit) == (-1, -1) and (lat, lon) == pytest.approx((51.5074, -0.1278), abs=1e-3)
            elif node == "Milne":  # aboard Inflexible: drawn where she is
                assert force == -1 and units[unit] == "Inflexible"
            else:  # a force: drawn where its ships are
                assert strings[force] == node
    # the Admiralty's orders went by the Eastern's cable to Malta, where Milne lay, over an hour later
    route = texts[m["route"][0]]
    assert texts[m["kind"][0]] == "orders" and route == "by cable to Valletta"
    assert m["t1"][0] - m["t0"][0] > 60


def test_each_side_has_a_view_of_its_own_pictures_only(intel: RunResult, intel_payload: dict[str, Any]) -> None:
    I = intel_payload["intel"]
    sides = [s["name"] for s in intel_payload["sides"]]
    texts = I["s"]
    assert [v["name"] for v in I["views"]] == ["Truth", "Central Powers' picture", "Entente's picture"]
    assert "Italy" not in {v["name"].split("'")[0] for v in I["views"]}  # saw and said nothing: no view
    pictures = [r for r in intel.events if r["type"] == "picture"]
    for view in I["views"][1:]:
        s = view["side"]
        P = I["pictures"][str(s)]
        mine = [r for r in pictures if r["side"] == sides[s]]
        assert len(P["t"]) == len(mine) > 0
        assert [texts[a] for a in P["about"]] == [r["about"] for r in mine]
        assert [texts[n] for n in P["node"]] == [r["node"] for r in mine]
        assert P["t"] == sorted(P["t"])
        # the side's picture is made of what it was told: no position the records did not give it
        for i, r in enumerate(mine):
            if r.get("lat") is None:
                assert P["lat"][i] is None and P["lon"][i] is None
            else:
                assert (P["lat"][i], P["lon"][i]) == pytest.approx((r["lat"], r["lon"]), abs=1e-4)
        assert I["enemy"][str(s)] == 1 - s  # unrecognised contacts drawn in the other side's colour
    # the Central Powers heard Gloucester's wireless: the areas they learnt of have shapes on the chart
    cp = I["pictures"][str(sides.index("Central Powers"))]
    heard = {cp["area"][i] for i in range(len(cp["t"])) if texts[cp["level"][i]] == "intercept"}
    assert heard and all(I["areas"][a]["x"] and I["areas"][a]["lx"] is not None for a in heard)
    assert all(I["areas"][a]["sea"] in ("Ionian", "Strait of Sicily") for a in heard)
    # Milne's picture changes when Gloucester's report reaches him, not when she saw
    E = I["pictures"][str(sides.index("Entente"))]
    milne = [i for i in range(len(E["t"])) if texts[E["node"][i]] == "Milne"]
    assert milne
    received = sorted(r["t_min"] for r in intel.events if r["type"] == "message_received" and r["unit"] == "Milne")
    for i in milne:
        assert E["seen"][i] < E["t"][i] and any(abs(E["t"][i] - t) < 1e-3 for t in received)


def test_panel_events_carry_their_side(intel_payload: dict[str, Any]) -> None:
    sides = [s["name"] for s in intel_payload["sides"]]
    ev, texts, types = intel_payload["events"], intel_payload["texts"], intel_payload["event_types"]
    assert set(ev["side"]) >= {sides.index("Entente"), sides.index("Central Powers")}
    lines = [(types[ty], texts[tx]) for ty, tx in zip(ev["type"], ev["text"])]
    # a command's picture updated by its own lookouts is left to the sighting's line
    assert not [t for ty, t in lines if ty == "picture" and "seen by" in t]
    assert [t for ty, t in lines if ty == "picture" and "message" in t]
    assert intel_payload["quiet_types"][types.index("picture")] and not intel_payload["left_out"]
    assert ev["f"] == sorted(ev["f"]) and len(intel_payload["event_index"]) == len(intel_payload["frames"]["t"]) + 1


def test_the_size_valve_leaves_routine_lines_out_of_the_panel(intel: RunResult, intel_payload: dict[str, Any]) -> None:
    meta = intel.meta | {"local_time": dict(intel.scenario.local_time)}
    whole = len(script_json(intel_payload).encode("utf-8"))
    tight = replay_payload(intel.events, intel.tracks, meta, budget_bytes=whole - 300)
    assert len(script_json(tight).encode("utf-8")) <= whole - 300
    assert list(tight["left_out"]) == ["picture"]  # the first to go, and enough here
    tighter = replay_payload(intel.events, intel.tracks, meta, budget_bytes=whole - 1200)
    assert len(script_json(tighter).encode("utf-8")) <= whole - 1200
    assert list(tighter["left_out"])[:3] == ["picture", "orders", "message_received"]  # in PANEL_SHED_TYPES order
    texts = [tighter["texts"][i] for i in tighter["events"]["text"]]
    assert any(t.startswith("Admiralty → Milne") for t in texts)  # messages sent stay in the panel
    assert tight["intel"] == intel_payload["intel"]  # the views keep everything
    roomy = replay_payload(intel.events, intel.tracks, meta, budget_bytes=whole + 1000)
    assert roomy["left_out"] == {} and roomy["events"] == intel_payload["events"]


def test_frames_are_thinned_only_past_the_budget(small: RunResult) -> None:
    end = small.scenario.duration_min
    events = [dict(r) for r in small.events]
    # a record every 20 seconds for the whole day: far more frames than the page should carry
    busy = events + [{"t": "", "t_min": t, "type": "sighting"} for t in np.arange(1.0, end, 1 / 3)]
    exact = frame_times(busy, end)
    thin = frame_times(busy, end, min_gap_min=5.0)
    grid = np.arange(0.0, end + 1e-9, FRAME_STEP_MIN)
    assert len(exact) > 4000 and len(thin) < 320
    assert np.isin(grid, thin).all()  # the 30-minute grid is never thinned
    assert np.all(np.diff(thin) > 5.0 - 1e-9)
    assert np.array_equal(frame_times(events, end), frame_times(events, end, min_gap_min=1 / 60))
    meta = small.meta | {"local_time": dict(small.scenario.local_time)}
    whole = replay_payload(busy, small.tracks, meta)  # no budget: a frame at every record
    assert len(whole["frames"]["t"]) == len(exact) and whole["frame_gap_min"] == pytest.approx(1 / 60, abs=1e-4)
    size = len(script_json(whole).encode("utf-8"))
    fitted = replay_payload(busy, small.tracks, meta, budget_bytes=size // 2)
    assert len(script_json(fitted).encode("utf-8")) <= size // 2
    assert fitted["frame_gap_min"] >= 1.0 and len(fitted["frames"]["t"]) < len(exact) / 2
    # the panel lost what it could before the frames were thinned; the records are all still told
    assert sum(fitted["left_out"].values()) + len(fitted["events"]["f"]) == len(whole["events"]["f"])
    roomy = replay_payload(busy, small.tracks, meta, budget_bytes=size + 1000)
    assert roomy["frames"] == whole["frames"] and not roomy["left_out"]


def test_message_texts_are_escaped_in_the_page(intel: RunResult) -> None:
    page = build_replay(intel.events, intel.tracks, intel.meta)
    ours = _ours(page)
    assert INTEL_ORDER_TEXT not in ours and "<b>&" not in ours
    data = re.search(r'<script type="application/json" id="replay-data">(.*?)</script>', ours, re.DOTALL).group(1)
    payload = json.loads(data)
    assert f"'{INTEL_ORDER_TEXT}'" in payload["intel"]["s"]  # plain, for the page to escape


# ------------------------------------------------------------------------------------ GeoPackage


def test_geopackage_layers(small: RunResult, tmp_path: Path) -> None:
    path = write_tracks_gpkg(tmp_path / "tracks.gpkg", small.events, small.tracks)
    layers = dict(pyogrio.list_layers(path))
    assert layers == {"tracks": "LineString", "track_points": "Point", "events": "Point"}
    info = pyogrio.read_info(path, layer="tracks")
    assert info["features"] == small.tracks.sizes["unit"] and info["crs"] == "EPSG:4326"
    assert dict(zip(info["fields"], info["ogr_types"]))["time_start"] == "OFTDateTime"
    _, _, _, fields = pyogrio.raw.read(path, layer="tracks", datetime_as_string=True)
    cols = dict(zip(info["fields"], fields))
    goeben = list(cols["unit"]).index("Goeben")
    assert cols["time_start"][goeben].startswith("1914-08-04T00:00:00")
    assert cols["time_end"][goeben].startswith("1914-08-05T00:00:00")
    ev = pyogrio.read_info(path, layer="events")
    assert ev["features"] == len(small.events)
    _, _, _, ev_fields = pyogrio.raw.read(path, layer="events")
    texts = dict(zip(ev["fields"], ev_fields))["text"]
    assert any(t.startswith("Goeben departs Messina for Cape Spartivento at 17 kn") for t in texts)
    pts = pyogrio.read_info(path, layer="track_points")
    assert 2 <= pts["features"] < small.tracks.sizes["time"] * small.tracks.sizes["unit"]
    assert not list(tmp_path.glob(".gpkg-*"))  # the temporary folder is gone


# ------------------------------------------------------------------------------------ run files and command


def test_run_writes_replay_and_gpkg(small: RunResult, tmp_path: Path) -> None:
    written = small.write(tmp_path / "out")
    names = {p.name for p in written}
    assert {"replay.html", "tracks.gpkg", "events.jsonl", "tracks.nc", "summary.json"} <= names
    assert not list((tmp_path / "out").glob("*.partial"))


def test_replay_command_rebuilds_from_the_records(small: RunResult, tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "out"
    small.write(out)
    original = (out / "replay.html").read_text(encoding="utf-8")
    (out / "replay.html").unlink()
    (out / "tracks.gpkg").unlink()
    scenario = _scenario_file(tmp_path, SMALL)
    assert main(["replay", str(out), "--scenario", str(scenario)]) == 0
    assert (out / "replay.html").read_text(encoding="utf-8") == original
    assert (out / "tracks.gpkg").is_file()
    # without tracks.nc the tracks are rebuilt from the records: the same replay
    (out / "tracks.nc").unlink()
    (out / "replay.html").unlink()
    assert main(["replay", str(out), "--scenario", str(scenario)]) == 0
    assert (out / "replay.html").read_text(encoding="utf-8") == original
    assert "replay.html" in capsys.readouterr().out


def test_replay_command_bad_input_writes_nothing(small: RunResult, tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", str(tmp_path / "missing")]) == 2
    assert "no such folder" in capsys.readouterr().err
    out = tmp_path / "out"
    out.mkdir()
    assert main(["replay", str(out)]) == 2
    assert "events.jsonl: missing" in capsys.readouterr().err
    small.write(out)
    for name in ("replay.html", "tracks.gpkg", "report.md"):
        (out / name).unlink()
    lines = (out / "events.jsonl").read_text(encoding="utf-8").splitlines()
    broken = "\n".join(lines[:3] + ["{not json"] + lines[3:]) + "\n"
    (out / "events.jsonl").write_text(broken, encoding="utf-8")
    assert main(["replay", str(out)]) == 2
    err = capsys.readouterr().err
    assert "events.jsonl: line 4: not JSON" in err and "Traceback" not in err
    assert sorted(p.name for p in out.iterdir()) == ["events.jsonl", "summary.json", "tracks.nc"]


def test_help_explains_replay(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["--help"])
    assert exc.value.code == 0
    assert "replay" in capsys.readouterr().out
    with pytest.raises(SystemExit):
        main(["replay", "--help"])
    text = capsys.readouterr().out
    assert "OUTDIR" in text and "tracks.gpkg" in text and "no network" in text
