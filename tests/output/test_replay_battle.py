"""Tests of the zoomed battle view (campaign/output/replay_battle.py), on a small battle made by hand.

``TRACK``: Goeben steams east at 18 kn while Gloucester, 5,000 yd east of her, steams north; Goeben
fires at one minute, hits at two and Gloucester sinks at three. As in the engines' records
(``campaign.tactics.protocol.TickEvent``) a ``hit`` names the ship hit as ``unit`` and the firer as
``target``. The campaign page is built from a
day of records around it (two ships lying stopped, the battle, its track), the way ``replay``
rebuilds a page from ``events.jsonl`` alone. The browser check at the end opens both pages in
headless Chromium when it is installed.
"""

from __future__ import annotations

import json
import re
import shutil
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from plotly.offline import get_plotlyjs

from campaign.output.rebuild import units_from_events
from campaign.output.replay import SIDE_COLOURS, build_replay
from campaign.output.replay_battle import (
    HIT_COLOUR,
    MAX_FRAMES,
    SUNK_COLOUR,
    battle_figure,
    battle_html,
    battle_time,
    battle_views,
    battles_section,
    frame_rows,
)
from campaign.output.tracks import build_tracks

CP, EN = "Central Powers", "Entente"
TRACK: dict[str, Any] = {
    "type": "battle_track", "t": "1914-08-07T14:34:00Z", "t_min": 874.0, "lat": 36.2, "lon": 16.1,
    "battle": 1, "engine": "nwc1905", "reason": "destroyed", "start_min": 870.0,
    "sides": {"Goeben": CP, "Gloucester": EN}, "forces": {"Goeben": "Goeben", "Gloucester": "Gloucester"},
    "names": ["Goeben", "Gloucester"], "t_s": [0.0, 60.0, 120.0, 180.0, 240.0],
    "x_yd": [[0.0, 600.0, 1200.0, 1800.0, 2400.0], [5000.0] * 5],
    "y_yd": [[0.0] * 5, [0.0, 800.0, 1600.0, 2400.0, 2400.0]],
    "course_deg": [[90.0] * 5, [0.0, 0.0, 0.0, 0.0, 0.0]],
    "speed_kn": [[18.0] * 5, [24.0, 24.0, 24.0, 24.0, 0.0]],
    "afloat": [[True] * 5, [True, True, True, False, False]],
}


def _rec(type_: str, t_s: float, unit: str | None, **extra: Any) -> dict[str, Any]:
    return {"type": type_, "battle": 1, "t_battle_s": t_s, "unit": unit, **extra}


EVENTS = [
    _rec("fire", 60.0, "Goeben", target="Gloucester", range_yd=5000),
    _rec("hit", 120.0, "Gloucester", by="Goeben", damage=0.1, damage_total=0.4),
    _rec("sunk", 180.0, "Gloucester"),
]


def _trace(fig: Any, name: str) -> int:
    return next(i for i, tr in enumerate(fig.data) if tr.name == name)


def _frame_trace(fig: Any, k: int, name: str) -> Any:
    frame = fig.frames[k]
    return frame.data[list(frame.traces).index(_trace(fig, name))]


# ------------------------------------------------------------------------------------------ the figure


def test_a_frame_per_tick_labelled_with_battle_time_and_utc() -> None:
    fig = battle_figure(TRACK, EVENTS, "Off Cape Matapan")
    assert len(fig.frames) == 5
    steps = fig.layout.sliders[0].steps
    assert [s.label for s in steps] == [f"{m}:00 · 14:3{m} UTC" for m in range(5)]
    assert [list(s.args[0]) for s in steps] == [[f.name] for f in fig.frames]
    assert {b.label for b in fig.layout.updatemenus[0].buttons} == {"▶ Play", "❚❚ Pause"}
    assert battle_time(75) == "1:15" and battle_time(3725) == "1:02:05"


@pytest.mark.parametrize("track_extra, events, clock", [
    ({"t_start": "1914-08-07T09:15:00Z"}, [], "09:16"),
    ({"t": None}, [{"type": "engagement_start", "battle": 1, "t": "1914-08-07T10:00:00Z"}], "10:01"),
    ({"t": None}, [], None),
])
def test_the_clock_comes_from_the_track_or_the_engagement(track_extra: dict[str, Any],
                                                         events: list[dict[str, Any]], clock: str | None) -> None:
    fig = battle_figure({**TRACK, **track_extra}, events, "t")
    label = fig.layout.sliders[0].steps[1].label
    assert label == ("1:00" if clock is None else f"1:00 · {clock} UTC")


def test_fire_is_a_line_from_firer_to_target_on_its_frame_only() -> None:
    fig = battle_figure(TRACK, EVENTS, "t")
    fire = [list(_frame_trace(fig, k, f"{CP} fire").x) for k in range(5)]
    assert fire[1] == [600, 5000, None]
    assert all(f == [] for k, f in enumerate(fire) if k != 1)
    assert list(_frame_trace(fig, 1, f"{CP} fire").y) == [0, 800, None]
    assert all(list(_frame_trace(fig, k, f"{EN} fire").x) == [] for k in range(5))
    assert fig.data[_trace(fig, f"{CP} fire")].line.color == SIDE_COLOURS[0]


def test_a_hit_is_a_burst_on_the_ship_hit_with_its_damage() -> None:
    fig = battle_figure(TRACK, EVENTS, "t")
    hits = _frame_trace(fig, 2, "hits")
    assert (list(hits.x), list(hits.y), list(hits.text)) == ([5000], [1600], ["hit, 40% damaged"])
    assert list(hits.marker.color) == [HIT_COLOUR] and list(hits.marker.symbol) == ["star"]
    assert "2:00 Gloucester hit by Goeben (damage now 40%)" in hits.hovertext[0]
    assert all(list(_frame_trace(fig, k, "hits").x) == [] for k in (0, 1, 3, 4))


def test_a_ram_or_a_collision_is_marked_on_the_ship_that_struck() -> None:
    events = [_rec("ram", 60.0, "Goeben", target="Gloucester", result="struck sunk"),
              _rec("collision", 120.0, "Gloucester", target="Goeben", result="no damage")]
    fig = battle_figure(TRACK, events, "t")
    ram, collision = _frame_trace(fig, 1, "hits"), _frame_trace(fig, 2, "hits")
    assert list(ram.text) == ["ram"] and "1:00 Goeben rams Gloucester (result struck sunk)" in ram.hovertext[0]
    assert list(collision.text) == ["collision"] and "collides with Goeben" in collision.hovertext[0]


def test_a_torpedo_is_a_dotted_line_of_its_own() -> None:
    events = [_rec("torpedo", 60.0, "Gloucester", target="Goeben", result="hit"),
              _rec("torpedo", 120.0, "Gloucester", target="Goeben", result="miss")]
    fig = battle_figure(TRACK, events, "t")
    assert list(_frame_trace(fig, 1, "torpedoes").x) == [5000, 600, None]
    assert fig.data[_trace(fig, "torpedoes")].line.dash == "dot"
    assert list(_frame_trace(fig, 1, "hits").text) == ["torpedo hit"]
    assert list(_frame_trace(fig, 1, "hits").x) == [600]  # on the ship it struck
    assert list(_frame_trace(fig, 2, "torpedoes").x) == [5000, 1200, None]
    assert list(_frame_trace(fig, 2, "hits").x) == []  # a miss is only its track
    assert list(_frame_trace(fig, 1, f"{EN} fire").x) == []


@pytest.mark.parametrize("afloat, events", [
    (TRACK["afloat"], []),  # the track says so
    ([[True] * 5, [True] * 5], [_rec("sunk", 150.0, "Gloucester")]),  # her sunk record says so (next frame)
])
def test_a_ship_is_greyed_and_crossed_from_her_sinking_frame(afloat: list[list[bool]],
                                                             events: list[dict[str, Any]]) -> None:
    fig = battle_figure({**TRACK, "afloat": afloat}, events, "t")
    ships = [_frame_trace(fig, k, "ships") for k in range(5)]
    assert [s.marker.color[1] for s in ships] == [SIDE_COLOURS[1]] * 3 + [SUNK_COLOUR] * 2
    assert [s.marker.symbol[1] for s in ships] == ["arrow"] * 3 + ["x"] * 2
    assert [s.marker.color[0] for s in ships] == [SIDE_COLOURS[0]] * 5
    assert "sunk at 3:00" in ships[4].hovertext[1]


def test_ships_point_along_their_course_and_hover_tells_speed_and_course() -> None:
    fig = battle_figure(TRACK, EVENTS, "t")
    ships = _frame_trace(fig, 1, "ships")
    assert list(ships.x) == [600, 5000] and list(ships.y) == [0, 800]
    assert list(ships.marker.angle) == [90, 0]
    assert "<b>Goeben</b> · Central Powers" in ships.hovertext[0]
    assert "18 kn, course 090°" in ships.hovertext[0] and "24 kn, course 000°" in ships.hovertext[1]
    wake = _frame_trace(fig, 2, f"{CP} wakes")
    assert list(wake.x) == [0, 600, 1200, None]


def test_equal_axes_in_yards_holding_every_position() -> None:
    fig = battle_figure(TRACK, EVENTS, "t")
    xa, ya = fig.layout.xaxis, fig.layout.yaxis
    assert ya.scaleanchor == "x" and ya.scaleratio == 1
    assert xa.title.text.startswith("yards east") and "36°12'N 16°06'E" in xa.title.text
    assert ya.title.text.startswith("yards north")
    assert xa.range[0] < 0 and xa.range[1] > 5000 and ya.range[0] < 0 and ya.range[1] > 2400
    legend = [tr.name for tr in fig.data if tr.showlegend is not False]
    assert legend[:2] == [CP, EN] and "sunk" in legend and "hit" in legend and "torpedo" in legend


def test_frames_carry_only_the_moving_traces_in_round_numbers() -> None:
    fig = battle_figure(TRACK, EVENTS, "t")
    legend = {i for i, tr in enumerate(fig.data) if tr.showlegend is not False}
    for frame in fig.frames:
        assert not legend & set(frame.traces)
        assert len(frame.data) == len(frame.traces)
    text = json.dumps(fig.to_plotly_json()["frames"])
    assert not re.search(r"\d\.\d{2,}", text)  # no long decimals anywhere in the frames
    assert "Goeben</b>" in text and '"text"' not in json.dumps(fig.frames[0].data[-1].to_plotly_json())


def test_a_long_battle_is_shown_at_every_nth_tick_and_keeps_its_fire() -> None:
    n = 1000
    track = {**TRACK, "t_s": [30.0 * i for i in range(n)],
             "x_yd": [[10.0 * i for i in range(n)], [5000.0] * n], "y_yd": [[0.0] * n, [20.0 * i for i in range(n)]],
             "course_deg": [[90.0] * n, [0.0] * n], "speed_kn": [[18.0] * n, [24.0] * n],
             "afloat": [[True] * n, [True] * n]}
    rows = frame_rows(track["t_s"])
    assert len(rows) <= MAX_FRAMES + 1 and rows[0] == 0 and rows[-1] == n - 1
    fig = battle_figure(track, [_rec("fire", 30.0 * 7, "Goeben", target="Gloucester")], "t")
    assert len(fig.frames) == len(rows)
    k = next(k for k, r in enumerate(rows) if r >= 7)  # the first frame shown at or after the shot
    assert list(_frame_trace(fig, k, f"{CP} fire").x) == [10 * int(rows[k]), 5000, None]
    assert fig.layout.sliders[0].steps[-1].label.startswith("8:19:30")


# ------------------------------------------------------------------------------------------ the pages


def _ours(page: str) -> str:
    js = get_plotlyjs()
    assert js in page  # embedded whole
    return page.replace(js, "")


def test_standalone_page_embeds_plotly_and_fetches_nothing() -> None:
    page = battle_html(TRACK, EVENTS, "Goeben & Gloucester")
    ours = _ours(page)
    assert not re.search(r"https?://|//cdn|\bsrc\s*=|@import|url\(", ours, re.IGNORECASE)
    assert "default-src 'none'" in ours
    assert "<title>Goeben &amp; Gloucester</title>" in ours
    assert len(re.findall(r"<script\b", ours)) == 3  # plotly.js, the figure, the script that draws it
    (data,) = re.findall(r'<script type="application/json" id="battles-data">(.*?)</script>', ours, re.DOTALL)
    (battle,) = json.loads(data)
    assert battle["id"] == "battle-1" and len(battle["figure"]["frames"]) == 5
    assert f'id="{battle["id"]}"' in ours


HOSTILE = "Glou'ce\"ster <script>alert(1)</script>"


def test_names_with_quotes_and_markup_are_escaped() -> None:
    names = ["Goeben", HOSTILE]
    track = {**TRACK, "names": names, "sides": {"Goeben": CP, HOSTILE: "<b>Entente</b>"},
             "forces": {"Goeben": "Goeben", HOSTILE: HOSTILE}}
    events = [_rec("fire", 60.0, "Goeben", target=HOSTILE), _rec("hit", 120.0, HOSTILE, target="Goeben")]
    fig = battle_figure(track, events, "A <i>title</i>")
    texts = json.dumps(fig.to_plotly_json())
    assert "<script" not in texts and "<b>Entente" not in texts and "<i>" not in texts
    assert "Glou&#x27;ce&#34;ster &lt;script&gt;" in texts  # shown by Plotly as the name itself
    ours = _ours(battle_html(track, events, HOSTILE))
    assert "<script>alert" not in ours and HOSTILE not in ours


def _campaign(with_battle: bool) -> tuple[list[dict[str, Any]], Any, dict[str, Any]]:
    """A day of records: Goeben and Gloucester lying stopped off Cape Matapan, fighting at 14:30."""
    meta = {"name": "battle_replay", "title": "A battle", "start": "1914-08-07T00:00Z", "end": "1914-08-08T00:00Z"}
    where = {"Goeben": (36.20, 16.08), "Gloucester": (36.20, 16.13)}
    side = {"Goeben": CP, "Gloucester": EN}

    def rec(t_min: float, type_: str, unit: str, status: str, **extra: Any) -> dict[str, Any]:
        h, m = divmod(int(t_min), 60)
        t = f"1914-08-0{7 + h // 24}T{h % 24:02d}:{m:02d}:00Z"
        return {"t": t, "t_min": t_min, "type": type_, "unit": unit, "side": side[unit], "force": unit,
                "lat": where[unit][0], "lon": where[unit][1], "status": status, "coal_t": 1000.0,
                "coal_rate_t_per_h": 0.0, "speed_kn": 0.0, **extra}

    events = [rec(0.0, "start", u, "waiting") for u in where]
    events += [rec(870.0, "engagement_start", u, "in_action", battle=1, engine="nwc1905") for u in where]
    if with_battle:
        events += [rec(870.0 + r["t_battle_s"] / 60.0, r["type"], r["unit"], "in_action",
                       **{k: v for k, v in r.items() if k not in ("type", "unit")}) for r in EVENTS]
    events += [rec(874.0, "engagement_end", u, "sunk" if u == "Gloucester" else "waiting", battle=1)
               for u in where]
    if with_battle:
        events.append({**TRACK, "t": "1914-08-07T14:34:00Z", "t_min": 874.0, "unit": None, "side": None})
    events += [rec(1440.0, "end", "Goeben", "waiting")]
    events.sort(key=lambda r: r["t_min"])
    tracks = build_tracks(events, meta["start"], 1440.0, units_from_events(events))
    return events, tracks, meta


def test_the_campaign_page_shows_its_battles_below_the_chart() -> None:
    events, tracks, meta = _campaign(with_battle=True)
    page = _ours(build_replay(events, tracks, meta))
    assert '<section id="battles"' in page and page.index('id="map"') < page.index('id="battles"')
    (data,) = re.findall(r'<script type="application/json" id="battles-data">(.*?)</script>', page, re.DOTALL)
    (battle,) = json.loads(data)
    assert battle["id"] == "battle-1" and len(battle["figure"]["frames"]) == 5
    # the battle's sides keep the campaign's colours
    legend = {tr["name"]: tr["marker"]["color"] for tr in battle["figure"]["data"] if tr.get("showlegend", True)
              and tr.get("marker", {}).get("symbol") == "arrow"}
    assert legend == {CP: SIDE_COLOURS[0], EN: SIDE_COLOURS[1]}
    assert "Battle 1: Goeben v. Gloucester, Fri 7 Aug 1914 14:30–14:34 UTC" in battle["figure"]["layout"]["title"]["text"]
    assert len(re.findall(r"<script\b", page)) == 5  # plotly.js, data, player; battles' data and script


def test_a_campaign_without_battles_has_no_battle_section() -> None:
    events, tracks, meta = _campaign(with_battle=False)
    page = _ours(build_replay(events, tracks, meta))
    assert 'id="battles"' not in page and "battles-data" not in page
    assert len(re.findall(r"<script\b", page)) == 3
    assert battle_views(events) == [] and battles_section(events) == ""


def test_battle_views_pick_each_battle_and_only_its_records() -> None:
    second = {**TRACK, "battle": 2, "sides": {"Goeben": CP, "Gloucester": EN}}
    records = [*EVENTS, TRACK, _rec("fire", 0.0, "Gloucester", target="Goeben") | {"battle": 2}, second,
               {"type": "battle_track", "battle": 3, "names": [], "t_s": []}]
    views = battle_views(records)
    assert [(n, title.split(":")[0]) for n, title, _ in views] == [(1, "Battle 1"), (2, "Battle 2")]
    one, two = views[0][2], views[1][2]
    assert list(_frame_trace(one, 1, f"{CP} fire").x) and not list(_frame_trace(one, 0, f"{EN} fire").x)
    assert list(_frame_trace(two, 0, f"{EN} fire").x) == [5000, 0, None]
    assert not any(list(_frame_trace(two, k, "hits").x) for k in range(5))


def test_many_battles_are_thinned_to_the_sections_budget() -> None:
    n = 960
    long = {**TRACK, "t_s": [30.0 * i for i in range(n)],
            "x_yd": [[7.0 * i for i in range(n)], [5000.0] * n], "y_yd": [[0.0] * n, [13.0 * i for i in range(n)]],
            "course_deg": [[90.0] * n, [0.0] * n], "speed_kn": [[18.0] * n, [24.0] * n],
            "afloat": [[True] * n, [True] * n]}
    records = [{**long, "battle": b} for b in range(1, 5)]
    full = battles_section(records, budget_bytes=10**9)
    small = battles_section(records, budget_bytes=len(full) // 3)
    assert len(small) < len(full) // 3 + 20_000
    assert small.count('class="battle-plot"') == 4


# ------------------------------------------------------------------------------------------ in a browser

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")
CHROMEDRIVER = shutil.which("chromedriver")
needs_browser = pytest.mark.skipif(CHROMIUM is None or CHROMEDRIVER is None,
                                   reason="no Chromium/chromedriver installed (apt-get install chromium chromium-driver)")


@pytest.fixture(scope="module")
def driver() -> Iterator[Any]:
    from selenium import webdriver
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service

    profile = tempfile.mkdtemp(prefix="chromium-profile-")
    opts = Options()
    opts.binary_location = CHROMIUM
    for arg in ("--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
                "--disable-component-update", "--disable-sync", f"--user-data-dir={profile}",
                "--window-size=1400,1000"):
        opts.add_argument(arg)
    opts.set_capability("goog:loggingPrefs", {"browser": "ALL", "performance": "ALL"})
    drv = webdriver.Chrome(service=Service(CHROMEDRIVER), options=opts)
    try:
        yield drv
    finally:
        drv.quit()
        shutil.rmtree(profile, ignore_errors=True)


def _open(drv: Any, path: Path) -> None:
    drv.get_log("browser")
    drv.get_log("performance")
    drv.get(path.resolve().as_uri())
    deadline = time.monotonic() + 60.0
    while not drv.execute_script("return document.body && document.body.getAttribute('data-battles-ready')"):
        if time.monotonic() > deadline:
            raise AssertionError(f"battles not drawn after 60 s; console: {drv.get_log('browser')}")
        time.sleep(0.1)


def _requests_off_the_page(drv: Any) -> list[str]:
    """What the page asked of anything but itself (the browser's own chrome:// pages aside)."""
    out = []
    for entry in drv.get_log("performance"):
        msg = json.loads(entry["message"])["message"]
        if msg.get("method") != "Network.requestWillBeSent":
            continue
        url, page = msg["params"]["request"]["url"], str(msg["params"].get("documentURL", ""))
        if (page.startswith("file:") and not url.startswith(("file:", "data:", "blob:"))) \
                or url.split(":", 1)[0] in ("http", "https", "ws", "wss"):
            out.append(url)
    return out


DRAWN_JS = """
var gd = document.getElementById('battle-1'), k = arguments[0], done = arguments[arguments.length - 1];
function trace(name) {  // the SVG group of a trace (none while it is empty)
  var i = gd._fullData.findIndex(function (t) { return t.name === name; });
  return gd.querySelector('.scatterlayer .trace' + gd._fullData[i].uid);
}
Plotly.animate(gd, [String(k)], {mode: 'immediate', frame: {duration: 0, redraw: true},
                                 transition: {duration: 0}}).then(function () {
  var fire = trace('Central Powers fire'), line = fire && fire.querySelector('.js-line');
  function points(name) { var g = trace(name); return g ? g.querySelectorAll('path.point').length : 0; }
  done({fire: line ? line.getAttribute('d') : '', hits: points('hits'), ships: points('ships')});
});
"""


@needs_browser
def test_battle_views_draw_in_a_browser_without_errors(driver: Any, tmp_path: Path) -> None:
    events, tracks, meta = _campaign(with_battle=True)
    campaign_page = tmp_path / "replay.html"
    campaign_page.write_text(build_replay(events, tracks, meta), encoding="utf-8")
    single = tmp_path / "battle.html"
    single.write_text(battle_html(TRACK, EVENTS, "Goeben & Gloucester"), encoding="utf-8")
    for path in (campaign_page, single):
        _open(driver, path)
        assert driver.execute_script("return document.body.getAttribute('data-battles-ready')") == "1"
        quiet = driver.execute_async_script(DRAWN_JS, 0)
        fired = driver.execute_async_script(DRAWN_JS, 1)
        hit = driver.execute_async_script(DRAWN_JS, 2)
        assert not quiet["fire"] and re.match(r"M[\d.]+,[\d.]+L[\d.]+,[\d.]+$", fired["fire"])
        assert (quiet["hits"], hit["hits"], hit["ships"]) == (0, 1, 2)
        shown = driver.execute_script("""var gd = document.getElementById('battle-1');
            return [gd._fullLayout.sliders[0].active, gd.querySelector('.slider-label').textContent];""")
        assert shown == [2, "battle time 2:00 · 14:32 UTC"]  # the slider follows, with its clock
        # Play runs the frames on by itself
        driver.execute_script("""document.querySelector('#battle-1 .updatemenu-button')
            .dispatchEvent(new MouseEvent('click'));""")
        deadline, active = time.monotonic() + 10.0, 2
        while active != 4 and time.monotonic() < deadline:
            time.sleep(0.1)
            active = driver.execute_script("return document.getElementById('battle-1')._fullLayout.sliders[0].active")
        assert active == 4
        errors = [e for e in driver.get_log("browser") if e.get("level") == "SEVERE"]
        assert errors == [] and _requests_off_the_page(driver) == []
    assert driver.execute_script("return document.body.getAttribute('data-ready')") is None  # battle.html
