"""The zoomed battle view: one battle of a run, animated on its own plane, in yards from its centre.

A battle's ``battle_track`` record (``campaign.world.engagement``) carries the frames the tactical
engine kept (``campaign.tactics.battle.track_columns``): every ship's position in yards east and north
of the fight's centre, course, speed and whether she is afloat, at each tick. Its ``fire``, ``hit``,
``torpedo``, ``sunk``, ``break_off`` and ``admiral_disabled`` records (same ``battle`` number) say what
happened, at ``t_battle_s`` seconds into it. The view draws, per frame:

* each ship as an arrow pointed along her course, in her side's colour, with the last
  ``WAKE_FRAMES`` frames of her track as a wake; grey and crossed out from the frame she sinks in;
* a thin line from firer to target, in the firer's colour, on the frame each ``fire`` record falls in
  (the frame at or after it), and a dotted one for a torpedo;
* a burst on the ship hit, labelled with the damage the record gives, and marks where a side broke
  off or an admiral fell.

Who is who follows ``campaign.tactics.protocol.TickEvent``: the record's ``unit`` is the actor (the
firer of ``fire`` and ``torpedo``, the ship hit of ``hit``, the ship sunk of ``sunk``, the flagship of
``admiral_disabled``, the leading ship of ``break_off``) and ``target`` the other ship (the ship fired
at; the firer of a hit). A hit's label gives the damage she now carries as a fraction of what sinks
her (``damage_total`` where the engine gives the hit's own share as ``damage``, as NWC 1905 does).

The slider and the play button run over the frames, each labelled with the battle's time (m:ss, or
h:mm:ss past the hour) and the UTC clock. The clock's start is the track's ``t_start`` if it has one
(the duel command's), else the track's own end ``t`` less its length in scenario minutes
(``t_min - start_min``), else the battle's ``engagement_start`` record.

The figure stays small: coordinates in whole yards, frames carry only the traces that move, and a
long battle is shown at every n-th tick (``MAX_FRAMES``; the records between fall on the next frame
shown). Texts from the scenario (ship, side and force names) reach Plotly escaped
(``replay_map.plotly_text``) and the page through ``script_json``.
"""

from __future__ import annotations

import html
import math
from collections.abc import Mapping, Sequence
from datetime import datetime, timedelta
from types import MappingProxyType
from typing import Any

import numpy as np
import plotly.graph_objects as go

from campaign.clock import parse_utc
from campaign.output.replay_events import num, where
from campaign.output.replay_map import SEA_COLOUR, plotly_text
from campaign.output.replay_page import CSP, script_json

Rec = Mapping[str, Any]

WAKE_FRAMES = 8  # a ship's wake: her last eight frames (4 min at 30 s ticks, 20 min at 2.5 min ticks)
MAX_FRAMES = 240  # longer battles are shown at every n-th tick
FRAME_MS = 150  # playing: one frame every 0.15 s
MARGIN_FRACTION = 0.08  # of the battle's extent, around it
MIN_SPAN_YD = 4000.0  # a battle of ships lying close together is still shown 2 miles across
SAME_TIME_S = 1e-3
# The campaign page shows several battles; past this many bytes of battle data it shows them with fewer
# frames (halving MAX_FRAMES until they fit or are down to MIN_FRAMES).
SECTION_BYTES_BUDGET = 3_000_000
MIN_FRAMES = 30

SIDE_COLOURS = ("#d62728", "#1f4fb4", "#2ca02c", "#9467bd", "#8c564b", "#e377c2", "#17becf")
SUNK_COLOUR = "#7a7a7a"
HIT_COLOUR = "#ffa500"
TORPEDO_COLOUR = "#0b7285"
MARK_COLOUR = "#333333"
SHIP_SYMBOL, SUNK_SYMBOL = "arrow", "x"
TORPEDO_HITS = frozenset({"hit", "sunk", "waterlogged"})  # a torpedo record's result when it struck
TICK_TYPES = frozenset({"fire", "hit", "torpedo", "ram", "collision", "sunk", "break_off", "admiral_disabled"})
REASON_WORDS: Mapping[str, str] = MappingProxyType({  # campaign.tactics.battle: why a battle ended
    "settled": "settled by the umpire", "destroyed": "a side destroyed", "darkness": "night fell",
    "separated": "the sides drew apart", "out_of_range": "out of range", "time": "time limit",
    "unfinished": "the run ended"})


def _text(text: Any) -> str:
    """Text made safe for Plotly (``replay_map.plotly_text``), with a double quote as ``&#34;``: Plotly
    shows numeric entities as their characters but ``&quot;`` as it is written."""
    return plotly_text(text).replace("&quot;", "&#34;")


def battle_time(t_s: float) -> str:
    """"12:30" (minutes and seconds into the battle), "1:02:30" past the hour."""
    s = round(float(t_s))
    h, rest = divmod(s, 3600)
    m, sec = divmod(rest, 60)
    return f"{h}:{m:02d}:{sec:02d}" if h else f"{m}:{sec:02d}"


def battle_start_utc(track: Rec, events: Sequence[Rec] = ()) -> datetime | None:
    """When the battle's first frame was (UTC), from the track or its ``engagement_start``; None if
    nothing says (see the module)."""
    try:
        if track.get("t_start"):
            return parse_utc(str(track["t_start"]))
        if track.get("t") and track.get("t_min") is not None and track.get("start_min") is not None:
            length_min = float(track["t_min"]) - float(track["start_min"])
            return parse_utc(str(track["t"])) - timedelta(minutes=length_min)
        for rec in events:
            if rec.get("type") == "engagement_start" and rec.get("t"):
                return parse_utc(str(rec["t"]))
    except (TypeError, ValueError):
        return None
    return None


def frame_rows(t_s: Sequence[float], max_frames: int = MAX_FRAMES) -> np.ndarray:
    """Indices of the track's frames to show: all of them, or every n-th and the last when there are
    more than ``max_frames``."""
    n = len(t_s)
    if n <= max_frames:
        return np.arange(n)
    stride = math.ceil(n / max_frames)
    return np.unique(np.append(np.arange(0, n, stride), n - 1))


def _side_colours(sides: Sequence[str], given: Mapping[str, str] | None) -> dict[str, str]:
    out = dict(given or {})
    for s in sides:
        out.setdefault(s, SIDE_COLOURS[len(out) % len(SIDE_COLOURS)])
    return out


def _damage(rec: Rec) -> float | None:
    """The damage the ship hit now carries, as a fraction of what sinks her, if the record says."""
    d = rec.get("damage_total", rec.get("damage"))
    return float(d) if isinstance(d, (int, float)) and not isinstance(d, bool) else None


def _hit_label(rec: Rec) -> str:
    d = _damage(rec)
    return "hit" if d is None else f"hit, {d:.0%} damaged"


def _details(rec: Rec) -> str:
    """What a record adds besides who: gun, range, part, cause, result, damage."""
    parts = [f"{num(rec[k])} {unit}" for k, unit in (("calibre_mm", "mm"), ("range_yd", "yd"))
             if rec.get(k) is not None]
    for key in ("hits", "part", "cause", "result"):
        if rec.get(key) is not None:
            parts.append(f"{key} {str(rec[key]).replace('_', ' ')}")
    if rec.get("type") == "hit" and _damage(rec) is not None:
        parts.append(f"damage now {_damage(rec):.0%}")
    return ", ".join(parts)


class _Plane:
    """The track as arrays (ship x frame), with the frames chosen for the view."""

    def __init__(self, track: Rec, max_frames: int) -> None:
        self.names = [str(n) for n in track.get("names") or []]
        self.t_all = np.asarray(track.get("t_s") or [], dtype=float)
        if not self.names or not len(self.t_all):
            raise ValueError("a battle track needs at least one ship and one frame")
        self.x = np.rint(np.asarray(track["x_yd"], dtype=float)).astype(int)
        self.y = np.rint(np.asarray(track["y_yd"], dtype=float)).astype(int)
        self.course = np.rint(np.asarray(track["course_deg"], dtype=float)).astype(int) % 360
        self.speed = np.asarray(track["speed_kn"], dtype=float)
        self.afloat = np.asarray(track["afloat"], dtype=bool)
        self.rows = frame_rows(self.t_all, max_frames)
        self.t = self.t_all[self.rows]
        self.index = {n: j for j, n in enumerate(self.names)}

    def frame_of(self, t_s: float) -> int:
        """The shown frame at or after ``t_s`` (the last for anything later)."""
        return int(min(np.searchsorted(self.t, t_s - SAME_TIME_S, side="left"), len(self.t) - 1))

    def at(self, name: Any, k: int) -> tuple[int, int] | None:
        """Where the named ship is in frame ``k`` (None for a name not in the battle)."""
        j = self.index.get(str(name)) if name is not None else None
        return None if j is None else (int(self.x[j, self.rows[k]]), int(self.y[j, self.rows[k]]))


def _ships(p: _Plane, k: int, sunk_k: Sequence[int], sides: Mapping[str, str], forces: Mapping[str, str],
           colours: Mapping[str, str]) -> dict[str, Any]:
    r = p.rows[k]
    sym, col, ang, hov = [], [], [], []
    for j, name in enumerate(p.names):
        side = sides.get(name, "")
        force = forces.get(name)
        who = f"<b>{_text(name)}</b> · {_text(side)}"
        if force and force != name:
            who += f" ({_text(force)})"
        if k >= sunk_k[j]:
            sym.append(SUNK_SYMBOL)
            col.append(SUNK_COLOUR)
            ang.append(0)
            hov.append(f"{who}<br>sunk at {battle_time(p.t[sunk_k[j]])}")
        else:
            sym.append(SHIP_SYMBOL)
            col.append(colours.get(side, SUNK_COLOUR))
            ang.append(int(p.course[j, r]))
            hov.append(f"{who}<br>{num(p.speed[j, r], 1)} kn, course {int(p.course[j, r]):03d}°")
    return {"type": "scatter", "x": p.x[:, r].tolist(), "y": p.y[:, r].tolist(), "hovertext": hov,
            "marker": {"symbol": sym, "color": col, "angle": ang}}


def _wakes(p: _Plane, k: int, sunk_k: Sequence[int], side_list: Sequence[str],
           sides: Mapping[str, str]) -> list[dict[str, Any]]:
    xs: dict[str, list[int | None]] = {s: [] for s in side_list}
    ys: dict[str, list[int | None]] = {s: [] for s in side_list}
    rows = p.rows[max(0, k - WAKE_FRAMES):k + 1]
    for j, name in enumerate(p.names):
        if len(rows) < 2 or k - sunk_k[j] >= WAKE_FRAMES:
            continue  # no wake yet, or she went down long enough ago that it has closed
        s = sides.get(name, "")
        xs[s] += p.x[j, rows].tolist() + [None]
        ys[s] += p.y[j, rows].tolist() + [None]
    return [{"type": "scatter", "x": xs[s], "y": ys[s]} for s in side_list]


def _lines_and_marks(p: _Plane, k: int, recs: Sequence[Rec], side_list: Sequence[str],
                     sides: Mapping[str, str]) -> tuple[list[dict[str, Any]], dict[str, Any], dict[str, Any]]:
    """Fire lines per side, torpedo lines, and the marks (hits, break-offs, admirals) of frame ``k``."""
    fx: dict[str, list[int | None]] = {s: [] for s in side_list}
    fy: dict[str, list[int | None]] = {s: [] for s in side_list}
    tx: list[int | None] = []
    ty: list[int | None] = []
    marks: dict[str, list[Any]] = {"x": [], "y": [], "text": [], "hovertext": [], "symbol": [], "color": []}

    def mark(at: tuple[int, int], text: str, hover: str, symbol: str, colour: str) -> None:
        for key, v in zip(marks, (at[0], at[1], text, hover, symbol, colour), strict=True):
            marks[key].append(v)

    when = battle_time(p.t[k])
    for rec in recs:
        type_, a, b = rec.get("type"), p.at(rec.get("unit"), k), p.at(rec.get("target"), k)
        unit, target = _text(rec.get("unit") or "?"), _text(rec.get("target") or "?")
        more = _text(_details(rec))
        more = f" ({more})" if more else ""
        if type_ == "fire" and a and b:
            s = sides.get(str(rec.get("unit")))
            if s in fx:
                fx[s] += [a[0], b[0], None]
                fy[s] += [a[1], b[1], None]
        elif type_ == "torpedo" and a:
            if b:
                tx += [a[0], b[0], None]
                ty += [a[1], b[1], None]
            if b and (rec.get("hit") is True or str(rec.get("result")) in TORPEDO_HITS):
                mark(b, "torpedo hit", f"{when} torpedo from {unit} hits {target}{more}", "star", HIT_COLOUR)
        elif type_ == "hit" and a:
            # A hit's record names the firer ``by`` (the ship hit is its ``unit``).
            by = f" by {_text(rec['by'])}" if rec.get("by") else ""
            mark(a, _hit_label(rec), f"{when} {unit} hit{by}{more}", "star", HIT_COLOUR)
        elif type_ in ("ram", "collision") and a:
            verb = "rams" if type_ == "ram" else "collides with"
            mark(a, type_, f"{when} {unit} {verb} {target}{more}", "x", HIT_COLOUR)
        elif type_ == "break_off" and a:
            side = _text(rec.get("side") or sides.get(str(rec.get("unit")), ""))
            mark(a, "breaks off", f"{when} {side} breaks off, led by {unit}", "circle-open", MARK_COLOUR)
        elif type_ == "admiral_disabled" and a:
            mark(a, "admiral down", f"{when} the admiral in {unit} is disabled{more}", "hexagram-open",
                 MARK_COLOUR)
    fire = [{"type": "scatter", "x": fx[s], "y": fy[s]} for s in side_list]
    m: dict[str, Any] = {"type": "scatter", "x": marks["x"], "y": marks["y"]}
    if marks["x"]:  # an empty trace needs no more (and most frames have no marks)
        m.update(text=marks["text"], hovertext=marks["hovertext"],
                 marker={"symbol": marks["symbol"], "color": marks["color"]})
    return fire, {"type": "scatter", "x": tx, "y": ty}, m


def _legend(side_list: Sequence[str], colours: Mapping[str, str]) -> list[dict[str, Any]]:
    """Legend-only traces (a point at None draws nothing): a colour per side, then the marks."""
    def entry(name: str, **style: Any) -> dict[str, Any]:
        return {"type": "scatter", "x": [None], "y": [None], "name": name, "hoverinfo": "skip", **style}

    out = [entry(_text(s), mode="markers",
                 marker={"symbol": SHIP_SYMBOL, "size": 13, "color": colours[s]}) for s in side_list]
    out.append(entry("sunk", mode="markers", marker={"symbol": SUNK_SYMBOL, "size": 11, "color": SUNK_COLOUR}))
    out.append(entry("gunfire (firer to target)", mode="lines", line={"color": "#555555", "width": 1}))
    out.append(entry("torpedo", mode="lines", line={"color": TORPEDO_COLOUR, "width": 1.5, "dash": "dot"}))
    out.append(entry("hit", mode="markers", marker={"symbol": "star", "size": 13, "color": HIT_COLOUR,
                                                     "line": {"color": MARK_COLOUR, "width": 1}}))
    return out


def _extent(p: _Plane) -> tuple[list[int], list[int]]:
    """The x and y ranges (yd) that hold every position the track has, with a margin."""
    x0, x1, y0, y1 = int(p.x.min()), int(p.x.max()), int(p.y.min()), int(p.y.max())
    pad = MARGIN_FRACTION * max(x1 - x0, y1 - y0, MIN_SPAN_YD)

    def axis(lo: int, hi: int) -> list[int]:
        half = max(hi - lo, MIN_SPAN_YD) / 2 + pad
        mid = (lo + hi) / 2
        return [int(round(mid - half, -1)), int(round(mid + half, -1))]

    return axis(x0, x1), axis(y0, y1)


def _styles(side_list: Sequence[str], colours: Mapping[str, str], names: Sequence[str]) -> list[dict[str, Any]]:
    """What does not change of the moving traces, in their order: wakes and fire per side, torpedoes,
    marks, ships."""
    out: list[dict[str, Any]] = [{"mode": "lines", "name": f"{_text(s)} wakes", "opacity": 0.6,
                                  "line": {"color": colours[s], "width": 1.5}} for s in side_list]
    out += [{"mode": "lines", "name": f"{_text(s)} fire", "opacity": 0.85,
             "line": {"color": colours[s], "width": 1}} for s in side_list]
    out.append({"mode": "lines", "name": "torpedoes", "line": {"color": TORPEDO_COLOUR, "width": 1.5, "dash": "dot"}})
    out.append({"mode": "markers+text", "name": "hits", "textposition": "top center", "hoverinfo": "text",
                "textfont": {"size": 11, "color": "#8a4b00"}, "cliponaxis": False,
                "marker": {"size": 17, "line": {"color": MARK_COLOUR, "width": 1}}})
    out.append({"mode": "markers+text", "name": "ships", "text": [_text(n) for n in names], "hoverinfo": "text",
                "textposition": "middle right", "textfont": {"size": 11, "color": "#1a1a1a"}, "cliponaxis": False,
                "marker": {"size": 15, "line": {"color": "#ffffff", "width": 1}}})
    return out


def _layout(title: str, track: Rec, p: _Plane, labels: Sequence[str]) -> dict[str, Any]:
    """Equal axes in yards round the battle, the title, legend, play button and slider."""
    # a frame chosen on the slider is drawn at once; playing runs one frame after another
    steps = [{"method": "animate", "label": label,
              "args": [[str(k)], {"mode": "immediate", "frame": {"duration": 0, "redraw": True},
                                  "transition": {"duration": 0}}]} for k, label in enumerate(labels)]
    play = {"frame": {"duration": FRAME_MS, "redraw": True}, "fromcurrent": True, "transition": {"duration": 0},
            "mode": "immediate"}
    pause = {"frame": {"duration": 0, "redraw": False}, "mode": "immediate", "transition": {"duration": 0}}
    xr, yr = _extent(p)
    centre = f" ({where({'lat': track['lat'], 'lon': track['lon']})})" if track.get("lat") is not None else ""
    axis = {"zeroline": False, "showline": True, "linecolor": "#777", "mirror": True, "ticks": "outside",
            "gridcolor": "rgba(70, 90, 120, 0.2)", "tickformat": ",d", "constrain": "domain"}
    return {
        "title": {"text": _text(title), "x": 0.01, "xanchor": "left", "font": {"size": 15}},
        "xaxis": {**axis, "title": {"text": f"yards east of the centre{centre}"}, "range": xr},
        "yaxis": {**axis, "title": {"text": "yards north"}, "range": yr, "scaleanchor": "x", "scaleratio": 1},
        "plot_bgcolor": SEA_COLOUR, "paper_bgcolor": "#fafafa", "hovermode": "closest", "dragmode": "pan",
        "margin": {"l": 70, "r": 20, "t": 80, "b": 40}, "uirevision": "battle",
        "legend": {"orientation": "h", "x": 0.0, "y": 1.0, "xanchor": "left", "yanchor": "bottom",
                   "itemclick": False, "itemdoubleclick": False},
        "hoverlabel": {"align": "left", "namelength": 0},
        "updatemenus": [{"type": "buttons", "direction": "left", "showactive": False, "x": 0.0, "y": -0.08,
                         "xanchor": "left", "yanchor": "top", "pad": {"t": 30, "r": 10},
                         "buttons": [{"label": "▶ Play", "method": "animate", "args": [None, play]},
                                     {"label": "❚❚ Pause", "method": "animate", "args": [[None], pause]}]}],
        "sliders": [{"active": 0, "steps": steps, "x": 0.16, "len": 0.8, "y": -0.08, "yanchor": "top",
                     "pad": {"t": 30}, "transition": {"duration": 0},
                     "currentvalue": {"prefix": "battle time ", "font": {"size": 13}}}],
    }


def battle_figure_dict(track: Rec, events: Sequence[Rec], title: str, *,
                       side_colours: Mapping[str, str] | None = None,
                       max_frames: int = MAX_FRAMES) -> dict[str, Any]:
    """The figure of :func:`battle_figure` as plain JSON-ready dicts (``data``, ``layout``, ``frames``),
    built without Plotly's validation (the campaign page builds many). ``title`` is plain text."""
    p = _Plane(track, max_frames)
    sides = {str(k): str(v) for k, v in (track.get("sides") or {}).items()}
    forces = {str(k): str(v) for k, v in (track.get("forces") or {}).items()}
    side_list = list(dict.fromkeys(sides.get(n, "") for n in p.names))
    colours = _side_colours(side_list, side_colours)
    recs = [r for r in events if r.get("type") in TICK_TYPES and r.get("t_battle_s") is not None]
    by_frame: dict[int, list[Rec]] = {}
    for rec in recs:
        by_frame.setdefault(p.frame_of(float(rec["t_battle_s"])), []).append(rec)
    # sunk from the first frame she is not afloat, or her sunk record's frame if that comes first
    sunk_k = []
    for j, name in enumerate(p.names):
        down = np.nonzero(~p.afloat[j, p.rows])[0]
        sunk_k.append(min([int(down[0]) if len(down) else len(p.t)]
                          + [p.frame_of(float(r["t_battle_s"])) for r in recs
                             if r.get("type") == "sunk" and str(r.get("unit")) == name]))

    def moving(k: int) -> list[dict[str, Any]]:
        fire, torpedo, marks = _lines_and_marks(p, k, by_frame.get(k, ()), side_list, sides)
        return [*_wakes(p, k, sunk_k, side_list, sides), *fire, torpedo, marks,
                _ships(p, k, sunk_k, sides, forces, colours)]

    first = moving(0)
    data = []
    for tr, st in zip(first, _styles(side_list, colours, p.names)):
        marker = {**st.get("marker", {}), **tr.get("marker", {})}
        data.append({"hoverinfo": "skip", **st, **tr, **({"marker": marker} if marker else {}),
                     "showlegend": False})
    moving_i = list(range(len(data)))
    data += _legend(side_list, colours)
    frames = [{"name": str(k), "traces": moving_i, "data": first if k == 0 else moving(k)}
              for k in range(len(p.t))]
    start = battle_start_utc(track, events)
    labels = [battle_time(t) + (f" · {start + timedelta(seconds=float(t)):%H:%M} UTC" if start else "")
              for t in p.t]
    return {"data": data, "layout": _layout(title, track, p, labels), "frames": frames}


def battle_figure(track: Rec, events: Sequence[Rec], title: str, *,
                  side_colours: Mapping[str, str] | None = None) -> go.Figure:
    """One battle animated on its plane: ``track`` a ``battle_track`` record, ``events`` the records of
    the battle (at least its ``fire``, ``hit``, ``torpedo``, ``sunk``, ``break_off`` and
    ``admiral_disabled``, with ``t_battle_s`` in seconds), ``title`` plain text. Distances in yards east
    and north of the battle's centre, on equal axes; ``side_colours`` maps a side to its colour (the
    campaign page's, so that a side looks the same in both views). See the module for what is drawn."""
    return go.Figure(battle_figure_dict(track, events, title, side_colours=side_colours))


def battle_title(track: Rec, events: Sequence[Rec] = ()) -> str:
    """"Battle 1: Goeben v. Gloucester, Fri 7 Aug 1914 13:35–14:40 UTC (nwc1905 rules; the sides drew
    apart)" (plain text)."""
    sides, forces = track.get("sides") or {}, track.get("forces") or {}
    by_side: dict[str, dict[str, None]] = {}
    for n in track.get("names") or []:
        by_side.setdefault(str(sides.get(n, "")), {})[str(forces.get(n, n))] = None
    who = " v. ".join(", ".join(fs) for fs in by_side.values())
    text = f"Battle {track.get('battle', '?')}: {who}"
    start = battle_start_utc(track, events)
    if start is not None:
        end = start + timedelta(seconds=float((track.get("t_s") or [0.0])[-1]))
        text += f", {start:%a} {start.day} {start:%b %Y %H:%M}–{end:%H:%M} UTC"
    reason = str(track.get("reason") or "")
    text += f" ({track.get('engine', '?')} rules; {REASON_WORDS.get(reason, reason.replace('_', ' '))})"
    return text


def _battles(records: Sequence[Rec]) -> list[tuple[int, str, Rec, list[Rec]]]:
    """(number, title, track, records of that battle) of every battle_track with frames, in order."""
    by_battle: dict[Any, list[Rec]] = {}
    for rec in records:
        if rec.get("battle") is not None and rec.get("type") != "battle_track":
            by_battle.setdefault(rec["battle"], []).append(rec)
    out = []
    for rec in records:
        if rec.get("type") == "battle_track" and rec.get("names") and rec.get("t_s"):
            n = rec.get("battle")
            evs = by_battle.get(n, [])
            out.append((int(n) if n is not None else len(out) + 1, battle_title(rec, evs), rec, evs))
    return out


def battle_views(records: Sequence[Rec], *,
                 side_colours: Mapping[str, str] | None = None) -> list[tuple[int, str, go.Figure]]:
    """(battle number, title, figure) of every battle of a run, from its records (``events.jsonl``)."""
    return [(n, title, battle_figure(track, evs, title, side_colours=side_colours))
            for n, title, track, evs in _battles(records)]


# ------------------------------------------------------------------------------------------ pages

BATTLE_CSS = """
.battles { padding: 8px 14px 24px; font-family: system-ui, -apple-system, "Segoe UI", Roboto, Helvetica,
  Arial, sans-serif; color: #1d1d1d; background: #fafafa; }
.battles h2 { font-size: 16px; margin: 12px 0 4px; }
.battles .note { font-size: 12px; color: #555; margin: 0 0 8px; }
.battle { margin: 0 0 18px; }
.battle-plot { width: 100%; max-width: 1100px; height: 720px; border: 1px solid #ddd; background: #fff; }
"""

# Draws every battle figure of the page's "battles-data" block; sets data-ready on each plot and
# data-battles-ready on the body when all are drawn.
BATTLE_JS = r"""(function () {
  "use strict";
  var B = JSON.parse(document.getElementById("battles-data").textContent), left = B.length;
  B.forEach(function (b) {
    var gd = document.getElementById(b.id), f = b.figure;
    Plotly.newPlot(gd, {data: f.data, layout: f.layout, frames: f.frames, config: b.config}).then(function () {
      gd.setAttribute("data-ready", "1");
      if (--left === 0) document.body.setAttribute("data-battles-ready", String(B.length));
    });
  });
})();
"""

CONFIG: Mapping[str, Any] = MappingProxyType({"responsive": True, "scrollZoom": True, "displaylogo": False,
                                              "modeBarButtonsToRemove": ("select2d", "lasso2d", "autoScale2d")})
NOTE = ("Each battle on its own plane, in yards from its centre: arrows point along the ships' courses, "
        "thin lines run from firer to target on the ticks they fired, a star marks a hit, a cross a ship sunk.")


def _blocks(figures: Sequence[tuple[int, dict[str, Any]]]) -> tuple[str, str]:
    """The plot divs and the data-and-script elements of these (battle number, figure dict)."""
    divs = "".join(f'<figure class="battle"><div id="battle-{n}" class="battle-plot"></div></figure>\n'
                   for n, _ in figures)
    data = script_json([{"id": f"battle-{n}", "figure": fig, "config": {**CONFIG, "modeBarButtonsToRemove": list(CONFIG["modeBarButtonsToRemove"])}} for n, fig in figures])
    scripts = (f'<script type="application/json" id="battles-data">{data}</script>\n'
               f"<script>{BATTLE_JS}</script>\n")
    return divs, scripts


def battles_section(records: Sequence[Rec], *, side_colours: Mapping[str, str] | None = None,
                    budget_bytes: int = SECTION_BYTES_BUDGET) -> str:
    """The campaign page's "Battles" section (HTML, to go after the chart), or "" for a run without
    battles. Past ``budget_bytes`` the battles are shown with fewer frames (``SECTION_BYTES_BUDGET``)."""
    battles = _battles(records)
    if not battles:
        return ""
    max_frames = MAX_FRAMES
    while True:  # fewer frames until the battles fit
        divs, scripts = _blocks([(n, battle_figure_dict(t, evs, title, side_colours=side_colours,
                                                        max_frames=max_frames)) for n, title, t, evs in battles])
        if len(scripts.encode("utf-8")) <= budget_bytes or max_frames <= MIN_FRAMES:
            break
        max_frames = max(MIN_FRAMES, max_frames // 2)
    return (f'<style>{BATTLE_CSS}</style>\n<section id="battles" class="battles"><h2>Battles</h2>'
            f'<p class="note">{html.escape(NOTE)}</p>\n{divs}</section>\n{scripts}')


def battle_html(track: Rec, events: Sequence[Rec], title: str, *, plotly_js: str | None = None) -> str:
    """A page of its own for one battle (``battle.html`` of the duel command): plotly.js embedded whole,
    nothing fetched from the network. Arguments as :func:`battle_figure`; ``plotly_js`` defaults to the
    installed bundle."""
    if plotly_js is None:
        from plotly.offline import get_plotlyjs
        plotly_js = get_plotlyjs()
    divs, scripts = _blocks([(int(track.get("battle") or 1), battle_figure_dict(track, events, title))])
    return (
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        f'<meta http-equiv="Content-Security-Policy" content="{CSP}">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{html.escape(title)}</title>\n<style>{BATTLE_CSS}</style>\n"
        f'<script type="text/javascript">{plotly_js}</script>\n</head>\n<body>\n'
        f'<main class="battles">\n{divs}<p class="note">{html.escape(NOTE)} Times are UTC.</p>\n</main>\n'
        f"{scripts}</body>\n</html>\n"
    )


__all__ = ["battle_figure", "battle_figure_dict", "battle_html", "battle_start_utc", "battle_time",
           "battle_title", "battle_views", "battles_section", "frame_rows"]
