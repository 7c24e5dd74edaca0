"""The replay in a real browser: headless Chromium (Debian's ``chromium`` and ``chromium-driver``)
driven by Selenium opens ``replay.html`` from disk, as a historian would by double-clicking it.

Checked: no console errors; no request leaves the file (every request the page makes is file://,
or an in-page data:/blob: URL); the coastline and the ships are drawn (in the page's Plotly data, in
its SVG, and in the pixels Plotly renders); pressing Play advances the clock; night is shaded at
night; hover boxes tell a ship's state; hostile names from a scenario file show as text and run
nothing; a sighting draws a line from observer to target while the contact lasts and a message a
line from sender to receiver while it travels; the view switch shows a side its own ships and the
enemy only as it last knew them. Screenshots of the first and a late frame of the flagship scenario,
and of a side's picture, are saved into ``outputs/screenshots/`` for people to look at.

Skipped only when no Chromium is installed (``.ci/run`` installs it).
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
import yaml

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")
CHROMEDRIVER = shutil.which("chromedriver")
if CHROMIUM is None or CHROMEDRIVER is None:
    pytest.skip("no Chromium/chromedriver installed (apt-get install chromium chromium-driver)",
                allow_module_level=True)

from selenium import webdriver
from selenium.common.exceptions import NoAlertPresentException
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.support.ui import Select

from campaign.paths import OUTPUT_DIR, SCENARIO_DIR
from campaign.runner import run
from tests.output.test_replay import INTEL, INTEL_ORDER_TEXT

WINDOW = (1500, 950)
LOAD_TIMEOUT_S = 60.0
LOCAL_SCHEMES = ("file:", "data:", "blob:")  # in-page URLs; anything else would be the network

HOSTILE_FORCE = "<script>alert(1)</script>"
HOSTILE_SIDE = "<b onmouseover=alert(5)>Central</b>"  # <b> too: unescaped, the legend would say "Central"
HOSTILE_PLACE = "<i>Nowhere</i><img src=x onerror=alert(3)>"  # <i> is a tag Plotly would render
HOSTILE_NOTE = "<script>alert(4)</script> & 'single' \"double\" %{x}"
HOSTILE_TITLE = "Hostile <script>alert('title')</script> & names"


def _hostile_scenario() -> dict[str, Any]:
    """A day off Sicily whose force, side, destination, note and title are HTML and script."""
    return {
        "name": "hostile_names", "title": HOSTILE_TITLE,
        "start": "1914-08-04T00:00Z", "end": "1914-08-05T00:00Z",
        "local_time": {"name": "CET", "offset_h": 1},
        "sides": {HOSTILE_SIDE: {"nations": ["Germany"]}, "Entente": {"nations": ["United Kingdom"]}},
        "forces": [
            {"name": HOSTILE_FORCE, "side": HOSTILE_SIDE, "ships": ["Goeben"], "start": "Messina",
             "coal_t": 2000,
             "orders": [{"do": "sail", "to": {"lat": 37.6, "lon": 17.2, "name": HOSTILE_PLACE}, "speed": 16,
                         "at": "1914-08-04T01:00Z", "note": HOSTILE_NOTE}]},
            {"name": "Gloucester", "side": "Entente", "ships": ["Gloucester"], "start": "Malta",
             "orders": [{"do": "sail", "to": "Messina", "speed": 15, "at": "1914-08-04T02:00Z"}]},
        ],
    }


@pytest.fixture(scope="module")
def driver() -> Iterator[webdriver.Chrome]:
    profile = tempfile.mkdtemp(prefix="chromium-profile-")
    opts = Options()
    opts.binary_location = CHROMIUM
    for arg in ("--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                f"--user-data-dir={profile}", f"--window-size={WINDOW[0]},{WINDOW[1]}"):
        opts.add_argument(arg)
    opts.set_capability("goog:loggingPrefs", {"browser": "ALL", "performance": "ALL"})
    drv = webdriver.Chrome(service=Service(CHROMEDRIVER), options=opts)
    drv.set_script_timeout(30)
    try:
        yield drv
    finally:
        drv.quit()
        shutil.rmtree(profile, ignore_errors=True)


@pytest.fixture(scope="module")
def goeben_replay(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("goeben_1914")
    run(SCENARIO_DIR / "goeben_1914.yaml").write(out)
    return out / "replay.html"


@pytest.fixture(scope="module")
def intel_replay(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A morning off Sicily: sightings both ways, Gloucester's reports, the Admiralty's orders, intercepts."""
    folder = tmp_path_factory.mktemp("intel")
    scenario = folder / "intel.yaml"
    scenario.write_text(yaml.safe_dump(INTEL, sort_keys=False, allow_unicode=True), encoding="utf-8")
    run(scenario).write(folder / "out")
    return folder / "out" / "replay.html"


@pytest.fixture(scope="module")
def hostile_replay(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("hostile")
    scenario = folder / "hostile.yaml"
    text = yaml.safe_dump(_hostile_scenario(), sort_keys=False, allow_unicode=True)
    scenario.write_text(text, encoding="utf-8")
    run(scenario).write(folder / "out")
    return folder / "out" / "replay.html"


class Page:
    """One opened replay: what the browser logged and requested since it was opened."""

    def __init__(self, drv: webdriver.Chrome, path: Path) -> None:
        self.drv = drv
        self.url = path.resolve().as_uri()
        drv.get_log("browser")  # drop what earlier pages logged
        drv.get_log("performance")
        drv.get(self.url)
        deadline = time.monotonic() + LOAD_TIMEOUT_S
        while not drv.execute_script("return document.body && document.body.getAttribute('data-ready')"):
            if time.monotonic() > deadline:
                raise AssertionError(
                    f"replay not ready after {LOAD_TIMEOUT_S} s; console: {drv.get_log('browser')}")
            time.sleep(0.1)

    def js(self, script: str, *args: Any) -> Any:
        return self.drv.execute_script(TRACE_NODE_JS + script, *args)

    def console_errors(self) -> list[dict[str, Any]]:
        return [e for e in self.drv.get_log("browser") if e.get("level") == "SEVERE"]

    def network_requests(self) -> list[str]:
        """URLs requested by this page (or anyone) that are not in-page: anything not file/data/blob
        from the replay's own document, and any http(s)/ws request at all."""
        bad = []
        for entry in self.drv.get_log("performance"):
            msg = json.loads(entry["message"])["message"]
            if msg.get("method") != "Network.requestWillBeSent":
                continue
            params = msg["params"]
            url = params["request"]["url"]
            ours = str(params.get("documentURL", "")).startswith("file:")
            scheme = url.split(":", 1)[0]
            if (ours and not url.startswith(LOCAL_SCHEMES)) or scheme in ("http", "https", "ws", "wss"):
                bad.append(url)
        return bad

    def render_at(self, t_min: float) -> int:
        script = "var k = window.replay.frameAt(arguments[0]); window.replay.render(k); return k;"
        return int(self.js(script, t_min))

    def set_view(self, name: str) -> None:
        """Choose a view from the page's own select box, as a user would."""
        Select(self.drv.find_element("id", "view")).select_by_visible_text(name)

    def frame_inside(self, t0: float, t1: float) -> int:
        """A frame strictly inside [t0, t1), rendered; -1 if none."""
        return int(self.js("""
            var f = window.replay.frameAt, k = f(arguments[0] + (arguments[1] - arguments[0]) / 2);
            var t = JSON.parse(document.getElementById('replay-data').textContent).frames.t;
            for (var i = 0; i < t.length; i++) if (t[i] >= arguments[0] && t[i] < arguments[1] - 1e-3 &&
                                               Math.abs(t[i] - (arguments[0] + arguments[1]) / 2) <
                                               Math.abs(t[k] - (arguments[0] + arguments[1]) / 2)) k = i;
            if (!(t[k] >= arguments[0] && t[k] < arguments[1] - 1e-3)) return -1;
            window.replay.render(k); return k;
        """, t0, t1))

    def trace(self, name: str) -> dict[str, Any]:
        """A trace of the page's figure as drawn now: its points, texts and hovers."""
        return self.js("""
            var gd = document.getElementById('map'), tr = window.replay.traces[arguments[0]];
            var d = gd.data[tr];
            return {x: d.x, y: d.y, text: d.text || [], hover: d.hovertext || [],
                    svg: traceNode(gd, tr) ? traceNode(gd, tr).querySelectorAll('path').length : 0};
        """, name)

    def hover(self, name: str, point: int) -> str:
        """Raise Plotly's hover box on a point of a trace, as the mouse would; its text."""
        return str(self.js("""
            var gd = document.getElementById('map'), i = window.replay.traces[arguments[0]];
            Plotly.Fx.hover(gd, [{curveNumber: i, pointNumber: arguments[1]}]);
            var box = gd.querySelector('.hoverlayer');
            return box ? box.textContent : '';
        """, name, point))

    def clock(self) -> str:
        return str(self.js("return document.getElementById('clock').textContent"))

    def no_alert(self) -> bool:
        try:
            _ = self.drv.switch_to.alert
        except NoAlertPresentException:
            return True
        return False


# The SVG group Plotly draws a scatter trace into carries the trace's uid in its class.
TRACE_NODE_JS = """
function traceNode(gd, i) { return gd.querySelector('.scatterlayer .trace' + gd._fullData[i].uid); }
"""

PIXELS_JS = """
var done = arguments[arguments.length - 1];
var gd = document.getElementById('map');
var want = arguments[0];
Plotly.toImage(gd, {format: 'png', width: 1000, height: 700}).then(function (url) {
  var img = new Image();
  img.onload = function () {
    var c = document.createElement('canvas'); c.width = img.width; c.height = img.height;
    var ctx = c.getContext('2d'); ctx.drawImage(img, 0, 0);
    var px = ctx.getImageData(0, 0, c.width, c.height).data, counts = {};
    Object.keys(want).forEach(function (k) { counts[k] = 0; });
    for (var i = 0; i < px.length; i += 4) {
      Object.keys(want).forEach(function (k) {
        var w = want[k];
        if (Math.abs(px[i] - w[0]) <= w[3] && Math.abs(px[i + 1] - w[1]) <= w[3] &&
            Math.abs(px[i + 2] - w[2]) <= w[3]) counts[k]++;
      });
    }
    counts.total = px.length / 4;
    done(counts);
  };
  img.onerror = function () { done({error: 'image did not load'}); };
  img.src = url;
}).catch(function (e) { done({error: String(e)}); });
"""


def _rgb(hex_colour: str, tol: int) -> list[int]:
    h = hex_colour.lstrip("#")
    return [int(h[0:2], 16), int(h[2:4], 16), int(h[4:6], 16), tol]


def test_full_campaign_opens_offline_without_errors(driver: webdriver.Chrome, goeben_replay: Path) -> None:
    assert goeben_replay.stat().st_size <= 10_000_000
    page = Page(driver, goeben_replay)
    assert page.js("return window.replay.frameCount") > 500
    assert page.clock().startswith("Sun 2 Aug 1914 09:00 UTC")
    assert "CET" in page.clock()
    page.render_at(6000)
    page.render_at(15000)
    assert page.console_errors() == []
    assert page.network_requests() == []
    assert page.no_alert()


def test_coastline_and_ships_are_drawn(driver: webdriver.Chrome, goeben_replay: Path) -> None:
    from campaign.output.replay import SIDE_COLOURS
    from campaign.output.replay_map import LAND_COLOUR, SEA_COLOUR

    page = Page(driver, goeben_replay)
    tr = page.js("return window.replay.traces")
    drawn = page.js("""
        var gd = document.getElementById('map'), tr = arguments[0];
        var land = gd.data[tr.land], ships = gd.data[tr.ships];
        var fills = Array.prototype.map.call(gd.querySelectorAll('.scatterlayer .js-fill'),
                                             function (p) { return (p.getAttribute('d') || '').length; });
        var points = traceNode(gd, tr.ships).querySelectorAll('path.point').length;
        return {land_points: land.x.length, fill_path: Math.max.apply(null, fills),
                ship_markers: ships.x.length, ship_points: points, hover: ships.hovertext};
    """, tr)
    assert drawn["land_points"] > 5000  # GSHHG coastline, simplified to ~1 km
    assert drawn["fill_path"] > 50_000  # the land's SVG path
    assert drawn["ship_markers"] >= 6  # 57 ships, in harbours and squadrons, on 2 Aug 1914
    assert drawn["ship_points"] == drawn["ship_markers"]
    assert any("Goeben" in h and "battlecruiser" in h for h in drawn["hover"])
    counts = page.drv.execute_async_script(PIXELS_JS, {
        "land": _rgb(LAND_COLOUR, 4), "sea": _rgb(SEA_COLOUR, 4),
        "central": _rgb(SIDE_COLOURS[0], 25), "entente": _rgb(SIDE_COLOURS[1], 25)})
    assert "error" not in counts, counts
    assert counts["land"] > 0.10 * counts["total"]  # Italy, the Balkans, North Africa
    assert counts["sea"] > 0.20 * counts["total"]
    assert counts["central"] > 30 and counts["entente"] > 30  # red and blue markers
    assert page.console_errors() == []


def test_play_advances_the_clock(driver: webdriver.Chrome, goeben_replay: Path) -> None:
    page = Page(driver, goeben_replay)
    before = page.clock()
    speeds = page.js("return Array.from(document.querySelectorAll('#speed option'), o => o.value)")
    assert len(speeds) >= 3
    days = page.js("return document.getElementById('days').textContent")
    assert "3 Aug" in days and "12 Aug" in days
    driver.find_element("id", "play").click()
    deadline = time.monotonic() + 15
    while page.clock() == before and time.monotonic() < deadline:
        time.sleep(0.1)
    after = page.clock()
    assert page.js("return window.replay.isPlaying()")
    driver.find_element("id", "play").click()  # pause
    assert not page.js("return window.replay.isPlaying()")
    assert after != before
    assert page.js("return window.replay.current()") > 0
    assert float(page.js("return document.getElementById('slider').value")) > 0
    paused_at = page.clock()
    time.sleep(0.5)
    assert page.clock() == paused_at
    assert page.console_errors() == []


def test_night_is_shaded_and_hover_tells_state(driver: webdriver.Chrome, goeben_replay: Path) -> None:
    page = Page(driver, goeben_replay)
    tr = page.js("return window.replay.traces")
    night_points = "return document.getElementById('map').data[arguments[0]].x.length"
    page.render_at(2400)  # 4 Aug 01:00 UTC: night over the whole central Mediterranean
    assert "night" in page.js("return document.getElementById('light').textContent")
    assert page.js(night_points, tr["night"][1]) > 0
    page.render_at(180)  # 2 Aug 12:00 UTC: day everywhere on the chart
    assert "day" in page.js("return document.getElementById('light').textContent")
    assert page.js(night_points, tr["night"][0]) == 0
    # hover over Goeben's marker: Plotly's own hover box, as a mouse would raise it
    text = page.js("""
        var gd = document.getElementById('map'), i = arguments[0];
        var ht = gd.data[i].hovertext, k = ht.findIndex(function (h) { return h.indexOf('Goeben') >= 0; });
        Plotly.Fx.hover(gd, [{curveNumber: i, pointNumber: k}]);
        var box = gd.querySelector('.hoverlayer');
        return box ? box.textContent : '';
    """, tr["ships"])
    for part in ("Goeben", "battlecruiser", "kn", "coal", "t", "order"):
        assert part in text
    assert page.console_errors() == []


def test_hostile_names_show_as_text_and_run_nothing(driver: webdriver.Chrome, hostile_replay: Path) -> None:
    page = Page(driver, hostile_replay)
    assert page.no_alert()
    assert page.js("return document.title") == HOSTILE_TITLE
    assert page.js("return document.scripts.length") == 3  # plotly.js, the data, the player
    assert page.js("return document.querySelectorAll('[onmouseover], [onerror], img').length") == 0
    page.render_at(120)  # both ships under way, the departure ringed
    tr = page.js("return window.replay.traces")
    shown = page.js("""
        var gd = document.getElementById('map'), i = arguments[0];
        var labels = Array.prototype.map.call(traceNode(gd, i).querySelectorAll('text'),
                                              function (t) { return t.textContent; });
        var legend = gd.querySelector('.legend') ? gd.querySelector('.legend').textContent : '';
        var k = gd.data[i].hovertext.findIndex(function (h) { return h.indexOf('Goeben') >= 0; });
        Plotly.Fx.hover(gd, [{curveNumber: i, pointNumber: k}]);
        var hover = gd.querySelector('.hoverlayer').textContent;
        return {labels: labels, legend: legend, hover: hover,
                panel: document.getElementById('events').textContent};
    """, tr["ships"])
    assert HOSTILE_FORCE in shown["labels"]
    assert HOSTILE_SIDE in shown["legend"]
    assert HOSTILE_FORCE in shown["hover"]
    assert f"sail to {HOSTILE_PLACE} at 16 kn" in shown["hover"]
    assert f"departs Messina for {HOSTILE_PLACE}" in shown["panel"]
    assert HOSTILE_NOTE in shown["panel"]
    assert page.js("return document.querySelectorAll('#events script, #events img, #events b').length") == 0
    assert page.no_alert()
    assert page.console_errors() == []
    assert page.network_requests() == []  # an <img src=x> that rendered would have asked for file:///.../x


def test_screenshots_of_first_and_late_frames(driver: webdriver.Chrome, goeben_replay: Path) -> None:
    """Saved for people to look at (outputs/ is not in git): the opening and the run to the Dardanelles."""
    shots = OUTPUT_DIR / "screenshots"
    shots.mkdir(parents=True, exist_ok=True)
    page = Page(driver, goeben_replay)
    first = shots / "replay_first_frame.png"
    assert driver.save_screenshot(str(first))
    # 10 Aug 1914 08:15 UTC: Goeben and Breslau steaming from Denusa for the Dardanelles
    k = page.render_at(11475)
    assert k > 0
    late = shots / "replay_late_frame.png"
    assert driver.save_screenshot(str(late))
    for path in (first, late):
        assert path.stat().st_size > 50_000
    assert page.console_errors() == []


# ------------------------------------------------------------------------------------ what each side saw and said

INTEL_DATA_JS = "return JSON.parse(document.getElementById('replay-data').textContent)"


def _sight_line_drawn(page: Page) -> str:
    """Render a frame inside the first contact that lasts, and check its line and mark; the mark's hover."""
    data = page.js(INTEL_DATA_JS)
    c = data["intel"]["contacts"]
    segments = sorted(range(len(c["t0"])), key=lambda i: c["t0"][i])
    k = -1
    for i in segments:
        k = page.frame_inside(c["t0"][i], c["t1"][i])
        if k >= 0:
            break
    assert k >= 0, "no frame falls inside any contact"
    level = c["level"][i]
    line = page.js("var gd = document.getElementById('map'); return gd.data[window.replay.traces.sight[arguments[0]]];",
                   level)
    assert len(line["x"]) >= 3 and None in line["x"]  # observer, target, gap
    marks = page.trace("sight_marks")
    assert marks["x"] and marks["svg"] >= 1
    names = data["intel"]["s"]
    text = page.hover("sight_marks", 0)  # the first contact in sight now (perhaps another pair's)
    assert "in sight" in text and any(names[c["on"][j]] in text for j in segments)
    return text


def _message_line_drawn(page: Page) -> tuple[int, str]:
    data = page.js(INTEL_DATA_JS)
    m = data["intel"]["messages"]
    k = -1
    for i in range(len(m["t0"])):
        if m["state"][i] == 0:
            k = page.frame_inside(m["t0"][i], m["t1"][i])
            if k >= 0:
                break
    assert k >= 0, "no frame falls inside any message's journey"
    lines, marks = page.trace("msg_lines"), page.trace("msg_marks")
    assert len(lines["x"]) >= 3 and lines["svg"] >= 1
    assert marks["text"] and all("min" in t or t.endswith(" h") for t in marks["text"])
    return i, page.hover("msg_marks", 0)


def test_a_sighting_draws_a_line_from_observer_to_target(driver: webdriver.Chrome, intel_replay: Path,
                                                        goeben_replay: Path) -> None:
    page = Page(driver, intel_replay)
    text = _sight_line_drawn(page)
    assert "nm, bearing" in text and "in contact for" in text
    page.set_view("Entente's picture")  # the truth's lines are not part of a side's picture
    assert page.trace("sight_marks")["x"] == []
    assert page.console_errors() == []
    flagship = Page(driver, goeben_replay)
    if flagship.js(INTEL_DATA_JS)["intel"]["contacts"]["t0"]:
        _sight_line_drawn(flagship)
    assert flagship.console_errors() == []


def test_a_message_draws_a_line_from_sender_to_receiver(driver: webdriver.Chrome, intel_replay: Path) -> None:
    page = Page(driver, intel_replay)
    data = page.js(INTEL_DATA_JS)
    i, text = _message_line_drawn(page)
    m, names = data["intel"]["messages"], data["intel"]["s"]
    assert f"{m['id'][i]}: {names[m['snd'][i]]} → {names[m['rcv'][i]]}" in text
    assert "on its way for" in text and "sent " in text and "received " in text
    # the Admiralty's orders: the scenario's text shows as text in the hover and the panel, and runs nothing
    k = page.frame_inside(m["t0"][0], m["t1"][0])
    assert k >= 0
    marks = page.trace("msg_marks")
    j = next(n for n, h in enumerate(marks["hover"]) if "M0001" in h)
    assert INTEL_ORDER_TEXT in page.hover("msg_marks", j)
    panel = page.js("return document.getElementById('events').textContent")
    assert f"Admiralty → Milne: '{INTEL_ORDER_TEXT}' (received " in panel
    assert page.js("return document.querySelectorAll('#events b, #events script').length") == 0
    assert page.no_alert()
    assert page.console_errors() == []


def test_a_sides_picture_shows_its_ships_and_the_enemy_as_last_known(driver: webdriver.Chrome,
                                                                    intel_replay: Path) -> None:
    from campaign.output.replay import GHOST_GREY, SIDE_COLOURS

    page = Page(driver, intel_replay)
    views = page.js("return Array.from(document.querySelectorAll('#view option'), o => o.textContent)")
    assert views == ["Truth", "Central Powers' picture", "Entente's picture"]
    data = page.js(INTEL_DATA_JS)
    names = data["intel"]["s"]
    entente = data["intel"]["pictures"][str([s["name"] for s in data["sides"]].index("Entente"))]
    # half an hour after Milne first heard of the enemy from Gloucester
    first = min(t for t, n in zip(entente["t"], entente["node"]) if names[n] == "Milne")
    k = page.render_at(first + 30)
    truth = page.trace("ships")
    colours = page.js("return document.getElementById('map').data[window.replay.traces.ships].marker.color")
    assert SIDE_COLOURS[0] in colours and SIDE_COLOURS[1] in colours  # both sides, where they are
    assert page.trace("ghosts")["x"] == []

    page.set_view("Entente's picture")
    assert page.js("return window.replay.current()") == k
    assert page.js("return document.getElementById('map').getAttribute('data-view')") == "2"
    assert "Entente" in page.js("return document.getElementById('view-note').textContent")
    colours = page.js("return document.getElementById('map').data[window.replay.traces.ships].marker.color")
    assert set(colours) == {SIDE_COLOURS[1]}  # only its own ships ...
    ghosts = page.trace("ghosts")
    assert ghosts["x"] and ghosts["svg"] >= 1  # ... and the enemy as a ghost where it was last reported
    ghost_colours = page.js("return document.getElementById('map').data[window.replay.traces.ghosts].marker.color")
    assert set(ghost_colours) <= {SIDE_COLOURS[0], GHOST_GREY}
    symbols = page.js("return document.getElementById('map').data[window.replay.traces.ghosts].marker.symbol")
    assert all(sym.endswith("-open") for sym in symbols)
    text = page.hover("ghosts", 0)
    assert re.search(r"seen (\d+ h )?\d+ min ago", text) and "Gloucester" in text
    assert "could be anywhere within" in text
    assert len(page.trace("doubt")["x"]) > 40  # the circle of doubt
    # the ghost is not where the enemy truly is: it is where he was reported, reckoned on
    assert len(truth["x"]) > len(page.trace("ships")["x"])

    page.set_view("Central Powers' picture")
    colours = page.js("return document.getElementById('map').data[window.replay.traces.ships].marker.color")
    assert set(colours) == {SIDE_COLOURS[0]}
    cp = data["intel"]["pictures"][str([s["name"] for s in data["sides"]].index("Central Powers"))]
    heard = [t for t, lv in zip(cp["t"], cp["level"]) if names[lv] == "intercept"]
    page.render_at(heard[0] + 10)
    areas, labels = page.trace("areas"), page.trace("area_labels")
    assert len(areas["x"]) > 4 and labels["text"] and "wireless heard" in labels["text"][0]
    assert "no more than the sea and area" in page.hover("area_labels", 0)

    page.set_view("Truth")
    assert page.trace("ghosts")["x"] == [] and page.trace("areas")["x"] == []
    assert page.console_errors() == []
    assert page.network_requests() == []


def _picture_time(data: dict[str, Any], side: str) -> float:
    """A moment worth a screenshot of a side's picture: two hours after its freshest report of a recognised
    enemy (else of any), so that the ghost has been reckoned on and its doubt has grown."""
    names = data["intel"]["s"]
    s = [x["name"] for x in data["sides"]].index(side)
    P = data["intel"]["pictures"].get(str(s))
    if not P or not P["t"]:
        return data["frames"]["t"][len(data["frames"]["t"]) // 2]
    known = [t for t, lv in zip(P["t"], P["level"]) if names[lv] == "recognised"] or P["t"]
    return known[len(known) // 2] + 120


def test_screenshots_of_a_sides_picture(driver: webdriver.Chrome, goeben_replay: Path, intel_replay: Path) -> None:
    """Saved for people to look at: the Entente's picture of the flagship run, and of the morning off Sicily."""
    shots = OUTPUT_DIR / "screenshots"
    shots.mkdir(parents=True, exist_ok=True)
    saved = []
    for path, name, zoom in ((goeben_replay, "replay_picture_entente.png", None),
                             (intel_replay, "replay_picture_intel.png", None)):
        page = Page(driver, path)
        data = page.js(INTEL_DATA_JS)
        page.set_view("Entente's picture")
        page.render_at(_picture_time(data, "Entente"))
        time.sleep(0.3)
        out = shots / name
        assert driver.save_screenshot(str(out))
        saved.append(out)
        assert page.console_errors() == []
    for out in saved:
        assert out.stat().st_size > 50_000
