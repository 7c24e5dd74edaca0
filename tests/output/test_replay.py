"""Tests of the replay (campaign/output/replay*.py), the GeoPackage export (gpkg.py) and the
``replay`` command (rebuild.py, cli.py), without a browser (test_replay_browser.py opens the pages).

Sun times come from research/notes.md, Appendix A (PyEphem, computed for the dataset); sizes and
frame counts from the issue: the full campaign's replay is at most 10 MB, with a frame every 30
minutes and one at every record worth seeing.
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
from campaign.output.replay_events import PHRASES, QUIET_TYPES, event_lines, sentence
from campaign.output.replay_frames import FRAME_STEP_MIN, frame_states, frame_times
from campaign.output.replay_sun import (
    altitude_from_subsolar,
    light_phase,
    subsolar_point,
    sun_altitude_deg,
)
from campaign.paths import SCENARIO_DIR
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
    assert sentence({**base, "type": "engagement_start"}) == "Goeben: engagement start"


def test_a_new_event_type_is_one_registry_entry() -> None:
    rec = {"t_min": 10.0, "t": "1914-08-06T22:10:00Z", "type": "sighting", "unit": "Gloucester",
           "force": "Gloucester", "target": "Goeben", "range_nm": 8}
    phrases = {**PHRASES, "sighting": lambda r: f"sights {r['target']} at {r['range_nm']} nm"}
    (line,) = event_lines([rec], phrases)
    assert line.text == "Gloucester sights Goeben at 8 nm"


def test_every_record_of_the_flagship_run_has_a_phrase(goeben: RunResult) -> None:
    assert {e["type"] for e in goeben.events} <= set(PHRASES)
    world_types = {"depart", "arrive", "coal_start", "coal_end", "transfer_start", "transfer_end",
                   "out_of_coal", "neutral_limit", "interned", "detach", "halt", "stop", "speed_change",
                   "order_failed", "order_skipped", "start", "end"}
    assert world_types <= set(PHRASES)


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
    """research notes.md Appendix A: civil dawn and dusk (sun's centre at -6 deg), UT, to the minute."""
    midnight = datetime(1914, 8, day, tzinfo=UTC)
    got_dawn = _crossing(lat, lon, midnight + timedelta(hours=1), midnight + timedelta(hours=6), -6.0)
    got_dusk = _crossing(lat, lon, midnight + timedelta(hours=15), midnight + timedelta(hours=21), -6.0)
    for got, want in ((got_dawn, dawn), (got_dusk, dusk)):
        h, m = map(int, want.split(":"))
        assert abs((got - midnight.replace(hour=h, minute=m)).total_seconds()) <= 120, place


def test_night_detection_against_messina_sunrise_4_august_1914() -> None:
    """Published (research notes.md): civil dawn 03:31, sunrise 03:57 UT at Messina on 4 Aug 1914.

    The table's sunrise column sets a -0:34 horizon on top of PyEphem's own refraction (that setting
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
    event_times = {round(e["t_min"], 3) for e in goeben.events if e["type"] not in QUIET_TYPES}
    assert event_times <= {round(t, 3) for t in frames}
    assert len(payload["state"]["lat"]) == len(frames) * goeben.tracks.sizes["unit"]
    assert payload["frames"]["clock"][0] == "Sun 2 Aug 1914 09:00 UTC · 10:00 CET"
    phases = payload["frames"]["phase"]
    assert 0 in phases and 2 in phases  # days and nights


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
    for name in ("replay.html", "tracks.gpkg"):
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
