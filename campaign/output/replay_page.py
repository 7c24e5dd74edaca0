"""The replay page: HTML skeleton, style sheet and the player script (plain strings, no templates).

The page is one file: plotly.js, the data (JSON in a ``<script type="application/json">`` block) and
the player below. Its Content-Security-Policy forbids every network fetch (no ``connect-src``, images
only from ``data:``/``blob:``), so even a future Plotly feature that reached for a CDN, a font or a
tile server would fail loudly in the browser test rather than quietly phone out.

The player is kept here as a Python string rather than a ``.js`` file beside the module so that it
travels with the package without package-data configuration.
"""

from __future__ import annotations

import html
import json
from typing import Any

CSP = ("default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; "
       "img-src data: blob:; font-src data:")

CSS = """
* { box-sizing: border-box; }
html, body { margin: 0; height: 100%; font-family: system-ui, -apple-system, "Segoe UI", Roboto,
  Helvetica, Arial, sans-serif; color: #1d1d1d; background: #fafafa; }
#app { display: flex; flex-direction: column; height: 100%; }
header { display: flex; flex-wrap: wrap; align-items: baseline; gap: 4px 18px; padding: 8px 14px 4px; }
header .title { font-size: 17px; font-weight: 600; }
header .clockbar { font-size: 15px; font-variant-numeric: tabular-nums; }
#clock { font-weight: 600; }
.light { margin-left: 10px; padding: 1px 8px; border-radius: 9px; font-size: 13px; }
.light.day { background: #fff3c4; }
.light.twilight { background: #c9c3e6; }
.light.night { background: #1f2a4a; color: #f1f1f1; }
#controls { display: flex; align-items: center; gap: 8px; padding: 2px 14px 6px; }
#controls button, #controls select { font: inherit; font-size: 14px; padding: 3px 10px; }
#play { min-width: 92px; }
#view-note { font-size: 12px; color: #555; }
body.side-view #view-note { color: #7b2fa6; font-weight: 600; }
.slider { position: relative; flex: 1; padding-bottom: 14px; margin: 0 8px; }
#slider { width: 100%; margin: 0; }
#days { position: absolute; left: 0; right: 0; bottom: 0; height: 14px; font-size: 11px; color: #555; }
#days span { position: absolute; transform: translateX(-50%); white-space: nowrap; }
main { flex: 1; display: flex; min-height: 0; overflow: hidden; }
#map { flex: 1; min-width: 0; }
aside { width: 360px; overflow-y: auto; border-left: 1px solid #ddd; padding: 0 12px 12px; background: #fff; }
aside h2 { font-size: 14px; margin: 10px 0 6px; }
#events { list-style: none; margin: 0; padding: 0; font-size: 13px; line-height: 1.35; }
#events li { padding: 4px 0; border-bottom: 1px solid #eee; color: #666; }
#events li.now { color: #111; font-weight: 600; }
#events li.none { font-style: italic; }
#events .t { font-variant-numeric: tabular-nums; margin-right: 6px; color: #777; font-weight: 400; }
#events .note { font-size: 12px; font-weight: 400; color: #777; margin-top: 2px; }
footer { font-size: 11px; color: #666; padding: 3px 14px 6px; }
header, #controls, footer { flex-shrink: 0; }
"""


def script_json(obj: Any) -> str:
    """Compact JSON that is safe inside an HTML ``<script>`` element: ``<``, ``>`` and ``&`` (and the
    JavaScript line separators) escaped as ``\\uXXXX``, so no text can close the element."""
    text = json.dumps(obj, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    return (text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
            .replace("\u2028", "\\u2028").replace("\u2029", "\\u2029"))


SPEEDS_H_PER_S = (1, 3, 6, 12, 24)
DEFAULT_SPEED_H_PER_S = 6


def page(title: str, footer: str, plotly_js: str, data_json: str, after_chart: str = "") -> str:
    """The whole page. ``title`` and ``footer`` are plain text (escaped here); ``data_json`` must
    already be safe inside a script element (no ``<``). ``after_chart`` is HTML put below the chart,
    after the player (the battles' section, ``replay_battle.battles_section``)."""
    if "<" in data_json:
        raise ValueError("replay data must have '<' escaped before it is put in the page")
    options = "".join(
        f'<option value="{s}"{" selected" if s == DEFAULT_SPEED_H_PER_S else ""}>{s} h/s</option>'
        for s in SPEEDS_H_PER_S)
    return (
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        f'<meta http-equiv="Content-Security-Policy" content="{CSP}">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{html.escape(title)}</title>\n<style>{CSS}</style>\n"
        f'<script type="text/javascript">{plotly_js}</script>\n</head>\n<body>\n<div id="app">\n'
        f'<header><div class="title">{html.escape(title)}</div>'
        '<div class="clockbar"><span id="clock"></span><span id="light" class="light"></span></div>'
        '<div id="view-note"></div>'
        "</header>\n"
        '<div id="controls"><button id="play" type="button" aria-pressed="false">▶ Play</button>'
        '<button id="prev" type="button" title="previous frame (←)">◀</button>'
        '<button id="next" type="button" title="next frame (→)">▶</button>'
        f'<label>speed <select id="speed" title="simulated hours per second">{options}</select></label>'
        '<div class="slider"><input id="slider" type="range" aria-label="time"><div id="days"></div></div>'
        '<label>view <select id="view" title="the truth, or what one side knew"></select></label>'
        "</div>\n"
        '<main><div id="map"></div><aside><h2>Events</h2><ol id="events"></ol></aside></main>\n'
        f"<footer>{html.escape(footer)}</footer>\n</div>\n"
        f'<script type="application/json" id="replay-data">{data_json}</script>\n'
        f"<script>{PLAYER_JS}</script>\n{after_chart}</body>\n</html>\n"
    )


PLAYER_JS = r"""/* The replay's player: draws frame k of the data embedded in the page with Plotly.react.
 *
 * Why not Plotly's own frames: a frame must hold every ship's position, hover text and wake to be
 * shown on its own (the slider jumps anywhere), which for the full campaign is 15-30 MB of JSON.
 * Instead the page carries one compact table (frame x unit) and builds the few moving traces here.
 * Every text from the scenario reaches Plotly through esc() and the page through textContent. */
(function () {
  "use strict";
  var D = JSON.parse(document.getElementById("replay-data").textContent);
  var gd = document.getElementById("map");
  var F = D.frames, S = D.state, U = D.units, TR = D.traces, I = D.intel;
  var K = F.t.length, N = U.name.length;
  var RAD = Math.PI / 180, EARTH_NM = 3440.065;
  var cur = -1, playing = false, simClock = 0, lastWall = null, timer = null, view = 0;
  var START_MS = Date.parse(D.meta.start), IS = I.s;
  function str(i) { return i >= 0 ? IS[i] : ""; }
  var data = D.figure.data.slice();
  var layout = D.figure.layout;
  var ENT = {"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;"};

  function esc(s) { return String(s).replace(/[&<>"']/g, function (c) { return ENT[c]; }); }
  function at(arr, k, j) { return arr[k * N + j]; }
  function fmt(n) { return Math.round(n).toString().replace(/\B(?=(\d{3})+(?!\d))/g, ","); }
  function html(s) { return esc(s).replace(/\n/g, "<br>"); }
  function dur(min) {  // "3 h 10 min", "26 min"
    var m = Math.max(0, Math.round(min)), h = Math.floor(m / 60);
    m -= 60 * h;
    if (!h) return m + " min";
    return m ? h + " h " + m + " min" : h + " h";
  }
  function ago(min) {  // compact, for labels: "45 min", "5 h", "3 d"
    if (min < 60) return Math.round(min) + " min";
    if (min < 48 * 60) return Math.round(min / 60) + " h";
    return Math.round(min / 1440) + " d";
  }
  function hhmm(tMin) {
    var d = new Date(START_MS + tMin * 60000);
    var p = function (n) { return (n < 10 ? "0" : "") + n; };
    return p(d.getUTCHours()) + ":" + p(d.getUTCMinutes());
  }
  function viewSide() { return I.views[view].side; }
  function shows(side) { var vs = viewSide(); return vs < 0 || side < 0 || side === vs; }

  function frameAt(tMin) {  // last frame at or before tMin
    var lo = 0, hi = K - 1;
    if (tMin <= F.t[0]) return 0;
    while (lo < hi) {
      var mid = (lo + hi + 1) >> 1;
      if (F.t[mid] <= tMin + 1e-6) lo = mid; else hi = mid - 1;
    }
    return lo;
  }

  /* ---------------------------------------------------------------- ships, grouped by place */
  function unitLine(k, j, withName) {
    var st = at(S.status, k, j), sp = at(S.speed, k, j) / 10;
    var co = at(S.course, k, j), coal = at(S.coal, k, j);
    var parts = [];
    if (withName) parts.push(esc(U.name[j]) + " (" + esc(U.type[j].replace(/_/g, " ")) + ")");
    var what = D.statuses[st];
    if (sp > 0) what += " " + sp + " kn";
    if (co >= 0) what += ", course " + co + "°";
    parts.push(what);
    if (coal >= 0) parts.push("coal " + fmt(coal) + " t");
    return parts.join(" · ");
  }

  function orderLine(k, j) {
    var o = at(S.order, k, j);
    if (o < 0) return "";
    var st = D.statuses[at(S.status, k, j)];
    return (st === "under way" ? "order: " : "last order: ") + esc(D.strings[o]);
  }

  function groupHover(k, members) {
    var byForce = {}, forces = [];
    members.forEach(function (j) {
      var f = at(S.force, k, j);
      if (!(f in byForce)) { byForce[f] = []; forces.push(f); }
      byForce[f].push(j);
    });
    var lines = [];
    forces.forEach(function (f) {
      var js = byForce[f], j0 = js[0], fname = D.strings[f];
      if (js.length === 1 && fname === U.name[j0]) {
        lines.push("<b>" + esc(U.name[j0]) + "</b> — " + esc(U.type[j0].replace(/_/g, " ")) + ", " +
                   esc(U.nation[j0]));
        lines.push(unitLine(k, j0, false));
      } else {
        lines.push("<b>" + esc(fname) + "</b> — " + js.length + (js.length > 1 ? " ships" : " ship"));
        js.forEach(function (j) { lines.push("  " + unitLine(k, j, true)); });
      }
      var ol = orderLine(k, j0);
      if (ol) lines.push(ol);
    });
    return { text: lines.join("<br>"), forces: forces };
  }

  function shipsTrace(k, dark) {
    var groups = {}, keys = [], vs = viewSide();
    for (var j = 0; j < N; j++) {
      if (at(S.status, k, j) < 0) continue;
      if (vs >= 0 && U.side[j] !== vs) continue;  // a side's picture: its own ships only
      // 0.02 deg bins: a squadron in company, or ships in one harbour, share a marker
      var key = U.side[j] + "|" + Math.round(at(S.lat, k, j) / 20) + "|" + Math.round(at(S.lon, k, j) / 20);
      if (!(key in groups)) { groups[key] = []; keys.push(key); }
      groups[key].push(j);
    }
    var x = [], y = [], sym = [], col = [], size = [], txt = [], hov = [], tcol = [];
    keys.forEach(function (key) {
      var m = groups[key], la = 0, lo = 0, best = m[0];
      m.forEach(function (j) {
        la += at(S.lat, k, j); lo += at(S.lon, k, j);
        if (D.type_rank[U.type[j]] < D.type_rank[U.type[best]]) best = j;
      });
      la = la / m.length / 1000; lo = lo / m.length / 1000;
      var h = groupHover(k, m);
      var st = D.statuses[at(S.status, k, best)];
      x.push(lo); y.push(la);
      sym.push(D.symbols[U.type[best]] + (st === "out of coal" || st === "interned" ? "-open" : ""));
      col.push(D.sides[U.side[best]].colour);
      size.push(D.sizes[U.type[best]] + Math.min(6, 1.5 * (m.length - 1)));
      var label = D.strings[h.forces[0]];
      if (h.forces.length === 2) label += " & " + D.strings[h.forces[1]];
      else if (h.forces.length > 2) label += " + " + (h.forces.length - 1) + " forces";
      txt.push(esc(label));
      hov.push(h.text);
      tcol.push(dark(la, lo) > 0.45 ? "#f4f4f4" : "#1a1a1a");
    });
    return {
      type: "scatter", mode: "markers+text", name: "ships", x: x, y: y, text: txt, hovertext: hov,
      hoverinfo: "text", textposition: "middle right", textfont: { size: 10, color: tcol },
      marker: { symbol: sym, color: col, size: size, line: { color: "#ffffff", width: 1.2 } },
      showlegend: false, cliponaxis: false
    };
  }

  /* ---------------------------------------------------------------- wakes: the last hours of track */
  function wakeTraces(k) {
    var t = F.t[k];
    var xs = D.sides.map(function () { return []; }), ys = D.sides.map(function () { return []; });
    var vs = viewSide();
    for (var j = 0; j < N; j++) {
      if (at(S.status, k, j) < 0) continue;
      if (vs >= 0 && U.side[j] !== vs) continue;
      var px = [], py = [], lastX = null, lastY = null;
      for (var i = k; i >= 0 && F.t[i] >= t - D.wake_min; i--) {
        if (at(S.status, i, j) < 0) break;
        var lx = at(S.lon, i, j), ly = at(S.lat, i, j);
        if (lx !== lastX || ly !== lastY) { px.push(lx / 1000); py.push(ly / 1000); lastX = lx; lastY = ly; }
      }
      if (px.length < 2) continue;
      var s = U.side[j];
      Array.prototype.push.apply(xs[s], px); xs[s].push(null);
      Array.prototype.push.apply(ys[s], py); ys[s].push(null);
    }
    return D.sides.map(function (side, s) {
      var tr = Object.assign({}, data[TR.wakes[s]]);
      tr.x = xs[s]; tr.y = ys[s];
      return tr;
    });
  }

  /* ---------------------------------------------------------------- night: shade where the sun is low */
  function sunAlt(lat, lon, k) {
    var d = F.sub_lat[k] * RAD, l = F.sub_lon[k] * RAD, p = lat * RAD;
    var s = Math.sin(p) * Math.sin(d) + Math.cos(p) * Math.cos(d) * Math.cos(lon * RAD - l);
    return Math.asin(Math.max(-1, Math.min(1, s))) / RAD;
  }

  function nightPolygons(k, h) {
    // Per row of latitude the day is the longitude interval centred under the sun where alt >= h;
    // the rest of the box is night. Rows are joined into (at most) a western and an eastern polygon.
    var b = D.night_box, rows = 48, cx = (b[0] + b[1]) / 2;
    var d = F.sub_lat[k] * RAD, ls = F.sub_lon[k];
    ls += 360 * Math.round((cx - ls) / 360);
    var west = [], east = [];
    for (var r = 0; r <= rows; r++) {
      var lat = b[2] + (b[3] - b[2]) * r / rows, p = lat * RAD;
      var c = (Math.sin(h * RAD) - Math.sin(p) * Math.sin(d)) / (Math.cos(p) * Math.cos(d));
      if (c >= 1) { west.push([lat, b[0], b[1]]); continue; }   // sun never that high: night all along
      if (c <= -1) continue;                                    // never that low: day all along
      var a = Math.acos(c) / RAD, dlo = ls - a, dhi = ls + a;
      if (dlo > b[0]) west.push([lat, b[0], Math.min(b[1], dlo)]);
      if (dhi < b[1]) east.push([lat, Math.max(b[0], dhi), b[1]]);
      // the night beyond the other side of the globe, in a box wider than the night is short
      if (dhi - 360 > b[0]) west.push([lat, b[0], Math.min(b[1], dhi - 360)]);
      if (dlo + 360 < b[1]) east.push([lat, Math.max(b[0], dlo + 360), b[1]]);
    }
    var x = [], y = [];
    [west, east].forEach(function (poly) {
      if (poly.length < 2) return;
      poly.forEach(function (row) { x.push(row[2]); y.push(row[0]); });
      for (var i = poly.length - 1; i >= 0; i--) { x.push(poly[i][1]); y.push(poly[i][0]); }
      x.push(null); y.push(null);
    });
    return { x: x, y: y };
  }

  function nightTraces(k) {
    return TR.night.map(function (idx, n) {
      var tr = Object.assign({}, data[idx]), p = nightPolygons(k, D.night_levels[n]);
      tr.x = p.x; tr.y = p.y;
      return tr;
    });
  }

  function darkness(k) {
    return function (lat, lon) {
      var alt = sunAlt(lat, lon, k);
      return alt >= D.night_levels[0] ? 0 : Math.min(1, (D.night_levels[0] - alt) / 9);
    };
  }

  /* ---------------------------------------------------------------- events: panel and map rings */
  var E = D.events, MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
  function evDay(i) { var d = new Date(START_MS + E.t[i] * 60000); return d.getUTCDate() + " " + MONTHS[d.getUTCMonth()]; }
  function evTime(i) { return hhmm(E.t[i]); }

  function recentEvents(k) {  // indices into the event columns, newest first
    var t = F.t[k], out = [];
    for (var i = D.event_index[k + 1] - 1; i >= 0; i--) {
      if (F.t[E.f[i]] < t - D.panel_min && out.length >= D.panel_min_lines) break;
      if (!shows(E.side[i])) continue;
      out.push(i);
      if (out.length >= D.panel_max_lines) break;
    }
    return out;
  }

  function eventsTrace(k) {
    var t = F.t[k], x = [], y = [], hov = [];
    for (var i = D.event_index[k + 1] - 1; i >= 0; i--) {
      if (F.t[E.f[i]] < t - D.ring_min) break;
      if (E.lat[i] === null || D.quiet_types[E.type[i]] || !shows(E.side[i])) continue;
      x.push(E.lon[i]); y.push(E.lat[i]); hov.push(esc(evTime(i) + " " + D.texts[E.text[i]]));
    }
    var tr = Object.assign({}, data[TR.events]);
    tr.x = x; tr.y = y; tr.hovertext = hov;
    return tr;
  }

  function renderPanel(k) {
    var list = document.getElementById("events");
    list.textContent = "";
    var evs = recentEvents(k);
    if (!evs.length) {
      var li = document.createElement("li");
      li.className = "none";
      li.textContent = "No events in the last " + Math.round(D.panel_min / 60) + " hours.";
      list.appendChild(li);
    }
    evs.forEach(function (i) {
      var li = document.createElement("li");
      if (E.f[i] === k) li.className = "now";
      var tm = document.createElement("span");
      tm.className = "t";
      tm.textContent = evDay(i) + " " + evTime(i);
      var tx = document.createElement("span");
      tx.className = "text";
      tx.textContent = D.texts[E.text[i]];
      li.appendChild(tm); li.appendChild(tx);
      if (E.note[i] >= 0) {
        var nt = document.createElement("div");
        nt.className = "note";
        nt.textContent = D.texts[E.note[i]];
        li.appendChild(nt);
      }
      list.appendChild(li);
    });
  }


  /* ---------------------------------------------------------------- what each side saw and said */
  function forceCentres(k) {  // force string id -> [lat, lon], the mean of its ships at frame k
    var acc = {}, out = {};
    for (var j = 0; j < N; j++) {
      if (at(S.status, k, j) < 0) continue;
      var f = at(S.force, k, j), a = acc[f] || (acc[f] = [0, 0, 0]);
      a[0] += at(S.lat, k, j); a[1] += at(S.lon, k, j); a[2]++;
    }
    Object.keys(acc).forEach(function (f) {
      var a = acc[f];
      out[f] = [a[0] / a[2] / 1000, a[1] / a[2] / 1000];
    });
    return out;
  }

  function sightTraces(k, centres) {
    var C = I.contacts, t = F.t[k];
    var xs = [[], [], []], ys = [[], [], []], mx = [], my = [], mh = [];
    if (viewSide() < 0) {
      for (var i = 0; i < C.t0.length; i++) {
        if (!(t >= C.t0[i] - 1e-6 && t < C.t1[i] - 1e-6)) continue;
        var o = centres[C.obs[i]] || (C.olat[i] === null ? null : [C.olat[i], C.olon[i]]);
        var g = centres[C.tgt[i]] || (C.tlat[i] === null ? null : [C.tlat[i], C.tlon[i]]);
        if (!o || !g) continue;
        var L = C.level[i];
        xs[L].push(o[1], g[1], null); ys[L].push(o[0], g[0], null);
        mx.push((o[1] + g[1]) / 2); my.push((o[0] + g[0]) / 2);
        mh.push("<b>" + esc(str(C.on[i])) + "</b> has <b>" + esc(str(C.tn[i])) + "</b> in sight: " +
                esc(str(C.what[i])) + "<br>" + C.range[i] + " nm, bearing " + C.bearing[i] + "°" +
                (C.light[i] >= 0 && IS[C.light[i]] ? ", " + esc(IS[C.light[i]]) : "") +
                "<br>in contact for " + dur(t - C.t0[i]));
      }
    }
    var lines = TR.sight.map(function (idx, L) {
      var tr = Object.assign({}, data[idx]);
      tr.x = xs[L]; tr.y = ys[L];
      return tr;
    });
    var marks = Object.assign({}, data[TR.sight_marks]);
    marks.x = mx; marks.y = my; marks.hovertext = mh;
    return { lines: lines, marks: marks };
  }

  function nodePos(k, ep, centres) {  // [force id, unit, lat, lon] -> [lat, lon]
    if (ep[0] >= 0 && centres[ep[0]]) return centres[ep[0]];
    if (ep[1] >= 0 && at(S.status, k, ep[1]) >= 0) return [at(S.lat, k, ep[1]) / 1000, at(S.lon, k, ep[1]) / 1000];
    if (ep[2] !== null) return [ep[2], ep[3]];
    return null;
  }

  function clipToView(a, b) {  // Liang-Barsky: the part of a->b inside the view box, as [u0, u1], or null
    var vb = D.view_box, u0 = 0, u1 = 1, dx = b[1] - a[1], dy = b[0] - a[0];
    var p = [-dx, dx, -dy, dy], q = [a[1] - vb[0], vb[1] - a[1], a[0] - vb[2], vb[3] - a[0]];
    for (var i = 0; i < 4; i++) {
      if (p[i] === 0) { if (q[i] < 0) return null; continue; }
      var r = q[i] / p[i];
      if (p[i] < 0) { if (r > u1) return null; if (r > u0) u0 = r; }
      else { if (r < u0) return null; if (r < u1) u1 = r; }
    }
    return [u0, u1];
  }

  function messageTraces(k, centres) {
    var M = I.messages, t = F.t[k], x = [], y = [], mx = [], my = [], mt = [], mh = [];
    for (var i = 0; i < M.t0.length; i++) {
      if (!(t >= M.t0[i] - 1e-6 && (t < M.t1[i] - 1e-6 || (M.state[i] === 2 && t <= M.t1[i])))) continue;
      if (!shows(M.side[i])) continue;
      var a = nodePos(k, M.a[i], centres), b = nodePos(k, M.b[i], centres);
      if (!a || !b) continue;
      x.push(a[1], b[1], null); y.push(a[0], b[0], null);
      // the label travels with the message, held at the chart's edge while it is beyond it
      var u = clipToView(a, b);
      if (!u) continue;
      var frac = M.t1[i] > M.t0[i] ? (t - M.t0[i]) / (M.t1[i] - M.t0[i]) : 0;
      var um = Math.max(u[0], Math.min(u[1], frac));
      mx.push(a[1] + (b[1] - a[1]) * um); my.push(a[0] + (b[0] - a[0]) * um);
      var delay = M.t1[i] - M.t0[i];
      mt.push(M.state[i] === 0 ? dur(delay) : M.state[i] === 1 ? "lost after " + dur(delay) : "not received");
      var outcome = M.state[i] === 0 ? "received " + hhmm(M.t1[i]) + " UTC after " + dur(delay) :
        M.state[i] === 1 ? "lost " + hhmm(M.t1[i]) + " UTC: " + esc(str(M.why[i])) : "not received by the end";
      mh.push("<b>" + esc(M.id[i] + ": " + str(M.snd[i]) + " → " + str(M.rcv[i])) + "</b> (" + esc(str(M.kind[i])) +
              ")<br>" + esc(str(M.text[i])) + "<br>sent " + hhmm(M.t0[i]) + " UTC, " + outcome +
              (M.route[i] >= 0 && IS[M.route[i]] ? "<br>" + esc(IS[M.route[i]]) : "") +
              "<br>on its way for " + dur(t - M.t0[i]));
    }
    var lines = Object.assign({}, data[TR.msg_lines]);
    lines.x = x; lines.y = y;
    var marks = Object.assign({}, data[TR.msg_marks]);
    marks.x = mx; marks.y = my; marks.text = mt; marks.hovertext = mh;
    return { lines: lines, marks: marks };
  }

  function forward(lat, lon, brg, nm) {  // great circle on a sphere
    var p1 = lat * RAD, l1 = lon * RAD, b = brg * RAD, d = nm / EARTH_NM;
    var p2 = Math.asin(Math.sin(p1) * Math.cos(d) + Math.cos(p1) * Math.sin(d) * Math.cos(b));
    var l2 = l1 + Math.atan2(Math.sin(b) * Math.sin(d) * Math.cos(p1), Math.cos(d) - Math.sin(p1) * Math.sin(p2));
    return [p2 / RAD, l2 / RAD];
  }

  function pictureAt(k, s) {  // about -> index of the report the side holds best at frame k
    var P = I.pictures[String(s)], best = {}, t = F.t[k];
    if (!P) return { P: null, best: best };
    for (var i = 0; i < P.t.length && P.t[i] <= t + 1e-6; i++) {
      if (P.replaces[i] >= 0) delete best[P.replaces[i]];
      var b = best[P.about[i]];
      if (b === undefined || P.seen[i] >= P.seen[b]) best[P.about[i]] = i;
    }
    return { P: P, best: best };
  }

  function sourceWords(P, i, age) {
    var from = str(P.source[i]), node = str(P.node[i]), m;
    if ((m = /^seen by (.+)$/.exec(from))) return "seen " + age + " ago by " + m[1];
    if ((m = /^message (\S+) from (.+)$/.exec(from)))
      return "seen " + age + " ago; " + node + " was told by " + m[2] + " (message " + m[1] + ")";
    if (str(P.level[i]) === "intercept") return "heard " + age + " ago by " + node;
    return "seen " + age + " ago (" + from + "), known to " + node;
  }

  function pictureTraces(k) {
    var s = viewSide(), t = F.t[k];
    var gx = [], gy = [], ax = [], ay = [], lx = [], ly = [], lt = [], lh = [], dx = [], dy = [];
    var groups = {}, keys = [];
    if (s >= 0) {
      var pic = pictureAt(k, s), P = pic.P, enemy = I.enemy[String(s)];
      Object.keys(pic.best).forEach(function (aboutId) {
        var i = pic.best[aboutId], about = str(P.about[i]), level = str(P.level[i]), ageMin = Math.max(0, t - P.seen[i]), age = dur(ageMin), ageH = ageMin / 60;
        if (P.lat[i] === null) {  // an intercept: the sea area, for a while
          var A = P.area[i] >= 0 ? I.areas[P.area[i]] : null;
          if (!A || ageMin > I.intercept_show_min || A.lx === null) return;
          Array.prototype.push.apply(ax, A.x); Array.prototype.push.apply(ay, A.y);
          lx.push(A.lx); ly.push(A.ly);
          lt.push(esc("wireless heard · " + A.sea + " " + A.area + " · " + age + " ago"));
          lh.push(html("Enemy wireless heard in the " + A.sea + ", area " + A.area + "\n" +
                       sourceWords(P, i, age) + " (" + hhmm(P.seen[i]) + " UTC)\nno more than the sea and area"));
          return;
        }
        // Dead reckoning, and a circle of doubt, while the doubt is less than the sea is wide; older news
        // is shown where it was seen (the hover says how wide the doubt has grown).
        var radius = (I.max_enemy_speed_kn + (P.speed[i] || 0)) * ageH, fresh = radius <= I.doubt_max_nm;
        var pos = [P.lat[i], P.lon[i]], dr = fresh && P.course[i] !== null && P.speed[i] > 0 && ageMin > 0;
        if (dr) {  // reckoned on from where it was seen: a dotted line from there
          pos = forward(P.lat[i], P.lon[i], P.course[i], P.speed[i] * ageH);
          dx.push(P.lon[i], pos[1], null); dy.push(P.lat[i], pos[0], null);
        }
        if (radius > 0.5 && fresh) {
          for (var n = 0; n <= 48; n++) {
            var q = forward(pos[0], pos[1], n * 7.5, radius);
            dx.push(q[1]); dy.push(q[0]);
          }
          dx.push(null); dy.push(null);
        }
        var lines = ["<b>" + esc(about) + "</b> — " + esc(level === "lost" ? "contact lost" : level) +
                     ", as " + esc(D.sides[s].name) + " last knew",
                     esc(sourceWords(P, i, age)) + " (" + hhmm(P.seen[i]) + " UTC)"];
        if (P.course[i] !== null || P.speed[i]) {
          var cs = (P.course[i] !== null ? "course " + Math.round(P.course[i]) + "°, " : "") + P.speed[i] + " kn";
          lines.push(cs + (dr ? ": dead-reckoned " + Math.round(P.speed[i] * ageH) + " nm" :
                                (fresh ? "" : ": too old to reckon on; shown where seen")));
        }
        if (ageMin > 0) lines.push("could be anywhere within " + fmt(radius) + " nm");
        if (P.ships[i] >= 0) lines.push("ships: " + esc(IS[P.ships[i]]));
        var key = Math.round(pos[0] * 50) + "|" + Math.round(pos[1] * 50);
        if (!(key in groups)) { groups[key] = []; keys.push(key); }
        groups[key].push({ i: i, about: about, pos: pos, age: ageMin, hover: lines.join("<br>") });
      });
      var x = [], y = [], sym = [], col = [], op = [], txt = [], hov = [], labelled = [];
      keys.sort(function (a, b) {  // freshest first, so that it keeps its label where ghosts crowd
        return Math.min.apply(null, groups[a].map(function (e) { return e.age; })) -
               Math.min.apply(null, groups[b].map(function (e) { return e.age; }));
      });
      var vb = D.view_box, near = 0.02 * (vb[1] - vb[0]);
      keys.forEach(function (key) {
        var g = groups[key].sort(function (a, b) { return a.age - b.age; }), f = g[0], i = f.i;
        var crowded = labelled.some(function (q) {
          return Math.abs(q[0] - f.pos[0]) < near && Math.abs(q[1] - f.pos[1]) < 3 * near;
        });
        if (!crowded && f.age <= I.label_max_min) labelled.push(f.pos);
        var c = P.colour[i] >= 0 ? P.colour[i] : enemy;
        x.push(f.pos[1]); y.push(f.pos[0]);
        sym.push(str(P.symbol[i]) + "-open");
        col.push(c >= 0 ? D.sides[c].colour : D.ghost_grey);
        op.push(Math.max(0.35, 1 - f.age / I.ghost_fade_min));
        // labelled while the news is under a day old; older ghosts keep their hover
        txt.push(crowded || f.age > I.label_max_min ? "" :
                 esc(f.about + (g.length > 1 ? " +" + (g.length - 1) : "") + " · " + ago(f.age)));
        hov.push(g.slice(0, 4).map(function (e) { return e.hover; }).join("<br>—<br>") +
                 (g.length > 4 ? "<br>… and " + (g.length - 4) + " older reports here" : ""));
      });
      gx = { x: x, y: y, sym: sym, col: col, op: op, txt: txt, hov: hov };
    }
    var ghosts = Object.assign({}, data[TR.ghosts]);
    if (gx.x) {
      ghosts.x = gx.x; ghosts.y = gx.y; ghosts.text = gx.txt; ghosts.hovertext = gx.hov;
      ghosts.hoverinfo = "text"; ghosts.textposition = "top center";
      ghosts.textfont = { size: 10, color: "#333" }; ghosts.cliponaxis = false;
      ghosts.marker = { symbol: gx.sym, color: gx.col, opacity: gx.op, size: 14, line: { width: 2.2, color: gx.col } };
    } else { ghosts.x = []; ghosts.y = []; ghosts.text = []; ghosts.hovertext = []; }
    var doubt = Object.assign({}, data[TR.doubt]); doubt.x = dx; doubt.y = dy;
    var areas = Object.assign({}, data[TR.areas]); areas.x = ax; areas.y = ay;
    var labels = Object.assign({}, data[TR.area_labels]);
    labels.x = lx; labels.y = ly; labels.text = lt; labels.hovertext = lh;
    return { ghosts: ghosts, doubt: doubt, areas: areas, labels: labels };
  }

  function setView(v) {
    view = Math.max(0, Math.min(I.views.length - 1, v));
    var sel = document.getElementById("view");
    sel.value = String(view);
    var vs = viewSide(), note = document.getElementById("view-note");
    note.textContent = vs < 0 ? "" : I.views[view].owner + " own ships, and the enemy only as " +
      D.sides[vs].name + " last knew them";
    document.body.classList.toggle("side-view", vs >= 0);
    gd.setAttribute("data-view", String(view));
    if (cur >= 0) render(cur);
    Plotly.Plots.resize(gd);  // the header may have grown a line
  }

  /* ---------------------------------------------------------------- one frame */
  function render(k) {
    k = Math.max(0, Math.min(K - 1, k));
    cur = k;
    var wakes = wakeTraces(k), night = nightTraces(k);
    wakes.forEach(function (tr, s) { data[TR.wakes[s]] = tr; });
    night.forEach(function (tr, n) { data[TR.night[n]] = tr; });
    data[TR.events] = eventsTrace(k);
    data[TR.ships] = shipsTrace(k, darkness(k));
    var centres = forceCentres(k), sight = sightTraces(k, centres), msgs = messageTraces(k, centres);
    sight.lines.forEach(function (tr, L) { data[TR.sight[L]] = tr; });
    data[TR.sight_marks] = sight.marks;
    data[TR.msg_lines] = msgs.lines; data[TR.msg_marks] = msgs.marks;
    var pic = pictureTraces(k);
    data[TR.ghosts] = pic.ghosts; data[TR.doubt] = pic.doubt;
    data[TR.areas] = pic.areas; data[TR.area_labels] = pic.labels;
    Plotly.react(gd, data, layout, D.figure.config);
    document.getElementById("clock").textContent = F.clock[k];
    var light = document.getElementById("light");
    light.textContent = D.phase_words[F.phase[k]];
    light.className = "light " + D.phase_names[F.phase[k]];
    var slider = document.getElementById("slider");
    slider.value = String(F.t[k]);
    slider.setAttribute("aria-valuetext", F.clock[k]);
    renderPanel(k);
    gd.setAttribute("data-frame", String(k));
  }

  /* ---------------------------------------------------------------- playing */
  function speedHoursPerSecond() { return parseFloat(document.getElementById("speed").value); }

  function step() {
    if (!playing) return;
    var now = performance.now();
    simClock += (now - lastWall) / 1000 * speedHoursPerSecond() * 60;
    lastWall = now;
    var k = frameAt(simClock);
    if (k !== cur) render(k);
    if (k >= K - 1) { pause(); return; }
    timer = setTimeout(step, 40);
  }

  function play() {
    if (playing) return;
    if (cur >= K - 1) render(0);
    playing = true;
    simClock = F.t[cur];
    lastWall = performance.now();
    var b = document.getElementById("play");
    b.textContent = "❚❚ Pause"; b.setAttribute("aria-pressed", "true");
    timer = setTimeout(step, 40);
  }

  function pause() {
    playing = false;
    if (timer !== null) { clearTimeout(timer); timer = null; }
    var b = document.getElementById("play");
    b.textContent = "▶ Play"; b.setAttribute("aria-pressed", "false");
  }

  function setup() {
    var slider = document.getElementById("slider");
    slider.min = "0"; slider.max = String(F.t[K - 1]); slider.step = "1";
    slider.addEventListener("input", function () { pause(); render(frameAt(parseFloat(slider.value))); });
    document.getElementById("play").addEventListener("click", function () {
      if (playing) pause(); else play();
    });
    document.getElementById("prev").addEventListener("click", function () { pause(); render(cur - 1); });
    document.getElementById("next").addEventListener("click", function () { pause(); render(cur + 1); });
    document.getElementById("speed").addEventListener("change", function () {
      lastWall = performance.now();
    });
    document.addEventListener("keydown", function (e) {
      var tag = (e.target && e.target.tagName) || "";
      if (tag === "SELECT" || tag === "INPUT") return;
      if (e.key === " ") { e.preventDefault(); if (playing) pause(); else play(); }
      else if (e.key === "ArrowRight") { pause(); render(cur + 1); }
      else if (e.key === "ArrowLeft") { pause(); render(cur - 1); }
    });
    var sel = document.getElementById("view");
    I.views.forEach(function (v, i) {
      var o = document.createElement("option");
      o.value = String(i); o.textContent = v.name;
      sel.appendChild(o);
    });
    sel.addEventListener("change", function () { setView(parseInt(sel.value, 10)); });
    gd.setAttribute("data-view", "0");
    var days = document.getElementById("days"), end = F.t[K - 1] || 1;
    D.days.forEach(function (d) {
      var s = document.createElement("span");
      s.textContent = d[1];
      s.style.left = (100 * d[0] / end) + "%";
      days.appendChild(s);
    });
    Plotly.newPlot(gd, data, layout, D.figure.config).then(function () {
      render(0);
      document.body.setAttribute("data-ready", "1");
    });
  }

  window.replay = {
    render: render, play: play, pause: pause, frameAt: frameAt,
    frameCount: K, traces: TR, setView: setView, views: I.views,
    view: function () { return view; },
    current: function () { return cur; }, isPlaying: function () { return playing; }
  };
  setup();
})();
"""
