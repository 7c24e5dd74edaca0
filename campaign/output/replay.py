"""``replay.html``: an animated chart of a run that a historian opens anywhere, with no network.

Built from the records and tracks alone (DESIGN.md principle 6), in four parts:

* the chart (``replay_map``): GSHHG land drawn as filled traces on a lon/lat plane at the right
  aspect, ports and places, graticule and scale bar, framed on the tracks;
* the frames (``replay_frames``): every 30 minutes and at every record worth seeing, each unit's
  position, course, speed, coal, status, force and order;
* the events in words (``replay_events``), listed beside the chart as the clock passes them;
* the sun (``replay_sun``): the sub-solar point of every frame, from which the page shades twilight
  and night (sun below -6 degrees) across the chart.

The Plotly figure is plain dicts (validated ``graph_objects`` are 100x slower for this many traces)
and plotly.js is embedded, so the page needs nothing from the network; the player script
(``replay_page``) draws each frame from a compact frame x unit table.

Scenario texts (ship, force, place names, orders, notes) reach Plotly escaped and the page's panels
through ``textContent``; the JSON is put in the page with ``<``, ``>`` and ``&`` escaped, so a name like
``<script>alert(1)</script>`` is shown as text and runs nothing.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import numpy as np
import shapely
import xarray as xr

from campaign.output import replay_map as rmap
from campaign.output.replay_events import PHRASES, QUIET_TYPES, STATUS_WORDS, Phrase, event_lines
from campaign.output.replay_frames import FRAME_STEP_MIN, FrameStates, frame_states, frame_times
from campaign.output.replay_page import page
from campaign.output.replay_sun import (
    CIVIL_TWILIGHT_DEG,
    PHASES,
    SUNRISE_ALT_DEG,
    altitude_from_subsolar,
    light_phase,
    subsolar_points,
)
from campaign.world.clock import parse_utc
from campaign.world.units import STATUSES

WAKE_MIN = 360.0  # six hours of wake: a squadron's last change of course stays in view
PANEL_MIN = 24 * 60.0  # the events panel looks back a day
PANEL_MIN_LINES, PANEL_MAX_LINES = 8, 60
RING_MIN = 90.0  # events are ringed on the chart for an hour and a half

SIDE_COLOURS = ("#d62728", "#1f4fb4", "#2ca02c", "#9467bd", "#8c564b", "#e377c2", "#17becf")
# Ship types, most important first: a squadron's marker takes the shape of its heaviest ship.
TYPE_STYLE: tuple[tuple[str, str, int], ...] = (
    ("battlecruiser", "diamond", 15),
    ("dreadnought", "hexagon", 14),
    ("battleship", "square", 12),
    ("armoured_cruiser", "pentagon", 12),
    ("protected_cruiser", "triangle-down", 11),
    ("light_cruiser", "triangle-up", 11),
    ("destroyer", "circle", 8),
    ("torpedo_boat", "circle", 7),
    ("gunboat", "circle", 8),
    ("station_ship", "circle", 8),
    ("supply_ship", "cross", 9),
    ("transport", "cross", 9),
    ("collier", "x", 9),
)
OTHER_STYLE = ("star", 10)
NIGHT_LEVELS_DEG = (SUNRISE_ALT_DEG, CIVIL_TWILIGHT_DEG, -12.0)  # twilight, night, deep night
NIGHT_ALPHAS = (0.13, 0.22, 0.14)  # stacked: about 0.4 of darkness once the sun is 12 degrees down
NIGHT_RGB = "10, 20, 55"
PHASE_WORDS = ("☀ day", "◐ twilight", "☾ night")


def _utc(meta: Mapping[str, Any], key: str) -> datetime:
    return parse_utc(str(meta[key]))


def _local(meta: Mapping[str, Any]) -> tuple[str, float] | None:
    """The scenario's declared local time, (name, offset in hours), from its meta if present.

    Accepts ``local_time: {name, offset_h}`` or flat ``local_time_name``/``local_time_offset_h``.
    """
    lt = meta.get("local_time")
    if isinstance(lt, Mapping) and lt.get("name") and lt.get("offset_h") is not None:
        return str(lt["name"]), float(lt["offset_h"])
    if meta.get("local_time_name") and meta.get("local_time_offset_h") is not None:
        return str(meta["local_time_name"]), float(meta["local_time_offset_h"])
    return None


def clock_label(when: datetime, local: tuple[str, float] | None = None) -> str:
    """"Tue 4 Aug 1914 06:10 UTC · 07:10 CET" (the local part only where a convention is declared)."""
    text = f"{when:%a} {when.day} {when:%b %Y %H:%M} UTC"
    if local is not None:
        lt = when + timedelta(hours=local[1])
        day = "" if lt.date() == when.date() else f"{lt:%a} {lt.day} {lt:%b} "
        text += f" · {day}{lt:%H:%M} {local[0]}"
    return text


def _ints(a: np.ndarray, scale: float, fill: int) -> list[int]:
    v = np.where(np.isfinite(a), np.round(a * scale), fill)
    return v.astype(np.int64).ravel().tolist()


def _sides(events: Sequence[Mapping[str, Any]], tracks: xr.Dataset) -> list[str]:
    """Sides in order of first appearance (the scenario's order), then any only the tracks know."""
    seen: dict[str, None] = {}
    for rec in events:
        if rec.get("side"):
            seen.setdefault(str(rec["side"]), None)
    for s in tracks["side"].values:
        seen.setdefault(str(s), None)
    return list(seen)


def _legend_traces(sides: Sequence[str], types: Sequence[str]) -> list[dict[str, Any]]:
    """Legend-only traces (a point at None draws nothing): a colour per side, a shape per ship type
    present (types drawn alike share an entry), and the night shading. The moving traces change
    every frame and would make the legend flicker, so they stay out of it."""
    out: list[dict[str, Any]] = []
    for s, side in enumerate(sides):
        out.append({"type": "scatter", "mode": "markers", "x": [None], "y": [None],
                    "name": rmap.plotly_text(side),
                    "marker": {"symbol": "circle", "size": 10, "color": SIDE_COLOURS[s % len(SIDE_COLOURS)]},
                    "hoverinfo": "skip", "legendrank": 100 + s})
    present = set(types)
    by_symbol: dict[str, list[str]] = {}
    for type_, symbol, _size in (*TYPE_STYLE, ("other", *OTHER_STYLE)):
        if type_ in present or (type_ == "other" and present - {t for t, _, _ in TYPE_STYLE}):
            by_symbol.setdefault(symbol, []).append(type_.replace("_", " "))
    for symbol, names in by_symbol.items():
        out.append({"type": "scatter", "mode": "markers", "x": [None], "y": [None], "name": ", ".join(names),
                    "marker": {"symbol": symbol, "size": 9, "color": "#555"}, "hoverinfo": "skip",
                    "legendrank": 200})
    out.append({"type": "scatter", "mode": "markers", "x": [None], "y": [None],
                "name": "night (sun below −6°)",
                "marker": {"symbol": "square", "size": 12, "color": f"rgba({NIGHT_RGB}, 0.5)"},
                "hoverinfo": "skip", "legendrank": 300})
    return out


def _figure(view: rmap.Extent, box: rmap.Extent, coverage: rmap.Extent, sides: list[str],
            types: Sequence[str], places: Sequence[Any], land: shapely.Geometry,
            file_name: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """The static figure (plain dicts) and the indices of the traces the player replaces."""
    data: list[dict[str, Any]] = [rmap.land_trace(land, box)]
    night = []
    for level, alpha in zip(NIGHT_LEVELS_DEG, NIGHT_ALPHAS):
        night.append(len(data))
        data.append({"type": "scatter", "mode": "none", "x": [], "y": [], "fill": "toself",
                     "fillcolor": f"rgba({NIGHT_RGB}, {alpha})", "hoverinfo": "skip",
                     "name": f"sun below {level}°", "showlegend": False})
    if not land.is_empty:
        data.append(rmap.outside_trace(coverage, box))
    data += rmap.places_traces(places, box)
    data += rmap.scale_bar_traces(view)
    wakes = []
    for s, side in enumerate(sides):
        wakes.append(len(data))
        data.append({"type": "scatter", "mode": "lines", "x": [], "y": [], "name": rmap.plotly_text(side),
                     "line": {"color": SIDE_COLOURS[s % len(SIDE_COLOURS)], "width": 1.6}, "opacity": 0.75,
                     "hoverinfo": "skip", "showlegend": False})
    data += _legend_traces(sides, types)
    events_i = len(data)
    data.append({"type": "scatter", "mode": "markers", "name": "events", "x": [], "y": [], "hovertext": [],
                 "hoverinfo": "text", "marker": {"symbol": "circle-open", "size": 22,
                                                 "color": "#f0a800", "line": {"width": 2.5}},
                 "showlegend": False})
    ships_i = len(data)
    data.append({"type": "scatter", "mode": "markers", "name": "ships", "x": [], "y": [],
                 "showlegend": False})
    xaxis, yaxis = rmap.graticule_axes(view, box)
    layout = {
        "xaxis": xaxis, "yaxis": yaxis, "plot_bgcolor": rmap.SEA_COLOUR, "paper_bgcolor": "#fafafa",
        "margin": {"l": 48, "r": 12, "t": 8, "b": 30}, "hovermode": "closest", "dragmode": "pan",
        "uirevision": "replay", "showlegend": True,
        # above the chart, so that it hides no sea whatever the scenario's area
        "legend": {"orientation": "h", "x": 0.0, "y": 1.0, "xanchor": "left", "yanchor": "bottom",
                   "font": {"size": 11},
                   "itemclick": False, "itemdoubleclick": False},
        "font": {"family": "system-ui, -apple-system, Segoe UI, Roboto, Helvetica, Arial, sans-serif"},
        "hoverlabel": {"align": "left", "font": {"size": 12}, "namelength": 0},
        "modebar": {"orientation": "v"},  # beside the chart, clear of the legend above it
    }
    config = {"responsive": True, "scrollZoom": True, "displaylogo": False,
              "modeBarButtonsToRemove": ["select2d", "lasso2d", "autoScale2d"],
              "toImageButtonOptions": {"filename": file_name, "scale": 2}}
    traces = {"night": night, "wakes": wakes, "events": events_i, "ships": ships_i}
    return {"data": data, "layout": layout, "config": config}, traces


def _events_payload(events: Sequence[Mapping[str, Any]], times: np.ndarray, start: datetime,
                    phrases: Mapping[str, Phrase]) -> tuple[list[dict[str, Any]], list[int]]:
    """Event sentences with their frame, and the cumulative count of events up to each frame."""
    out = []
    for ln in event_lines(events, phrases):
        f = int(np.clip(np.searchsorted(times, ln.t_min - 1e-6, side="left"), 0, len(times) - 1))
        when = start + timedelta(minutes=ln.t_min)
        out.append({"f": f, "day": f"{when.day} {when:%b}", "time": f"{when:%H:%M}", "text": ln.text,
                    "note": ln.note, "type": ln.type, "quiet": ln.type in QUIET_TYPES,
                    "lat": None if ln.lat is None else round(ln.lat, 4),
                    "lon": None if ln.lon is None else round(ln.lon, 4)})
    out.sort(key=lambda e: e["f"])
    counts = np.bincount([e["f"] for e in out], minlength=len(times)) if out else np.zeros(len(times), int)
    index = [0] + np.cumsum(counts).astype(int).tolist()
    return out, index


def _days(start: datetime, end_min: float) -> list[tuple[float, str]]:
    day = datetime(start.year, start.month, start.day, tzinfo=UTC) + timedelta(days=1)
    out = []
    while (day - start).total_seconds() / 60.0 <= end_min:
        out.append((round((day - start).total_seconds() / 60.0, 2), f"{day.day} {day:%b}"))
        day += timedelta(days=1)
    return out


def replay_payload(events: Sequence[Mapping[str, Any]], tracks: xr.Dataset, scenario_meta: Mapping[str, Any],
                   *, land: shapely.Geometry | None = None, places: Sequence[Any] | None = None,
                   step_min: float = FRAME_STEP_MIN,
                   phrases: Mapping[str, Phrase] = PHRASES) -> dict[str, Any]:
    """Everything the page needs, as JSON-ready data (see :func:`build_replay`)."""
    if land is None:
        from campaign.geo.land import default_land
        land = default_land().lonlat
    if places is None:
        from campaign.geo.places import default_places
        places = default_places().places
    start = _utc(scenario_meta, "start")
    end_min = (_utc(scenario_meta, "end") - start).total_seconds() / 60.0
    local = _local(scenario_meta)
    times = frame_times(events, end_min, step_min)
    fs: FrameStates = frame_states(events, tracks, times)
    b = land.bounds
    coverage = rmap.Extent(b[0], b[2], b[1], b[3])
    view = rmap.view_extent(fs.lat.ravel(), fs.lon.ravel())
    if not land.is_empty:
        view = view.within(coverage)
    span = max(view.lon1 - view.lon0, view.lat1 - view.lat0)
    box = view.grown(max(3.0, 0.5 * span))
    sides = _sides(events, tracks)
    side_index = {s: i for i, s in enumerate(sides)}
    types = [str(t) for t in tracks["ship_type"].values]
    figure, traces = _figure(view, box, coverage, sides, types, places, land,
                             str(scenario_meta.get("name", "replay")))

    when = [start + timedelta(minutes=float(t)) for t in times]
    sub_lat, sub_lon = subsolar_points(when)
    clat, clon = view.centre
    alt_c = altitude_from_subsolar(clat, clon, sub_lat, sub_lon)
    phase = [PHASES.index(light_phase(float(a))) for a in np.atleast_1d(alt_c)]
    ev, ev_index = _events_payload(events, times, start, phrases)

    names = [str(u) for u in tracks["unit"].values]
    style = {t: (sym, size) for t, sym, size in TYPE_STYLE}
    for t in types:
        style.setdefault(t, OTHER_STYLE)
    return {
        "meta": {"name": str(scenario_meta.get("name", "")), "title": str(scenario_meta.get("title", "")),
                 "start": str(scenario_meta["start"]), "end": str(scenario_meta["end"]),
                 "local_time": None if local is None else {"name": local[0], "offset_h": local[1]}},
        "frames": {"t": [round(float(t), 3) for t in times], "clock": [clock_label(w, local) for w in when],
                   "phase": phase, "sub_lat": np.round(sub_lat, 4).tolist(),
                   "sub_lon": np.round(sub_lon, 4).tolist()},
        "units": {"name": names, "type": types, "nation": [str(n) for n in tracks["nation"].values],
                  "side": [side_index[str(s)] for s in tracks["side"].values]},
        "sides": [{"name": s, "colour": SIDE_COLOURS[i % len(SIDE_COLOURS)]} for i, s in enumerate(sides)],
        "symbols": {t: style[t][0] for t in style}, "sizes": {t: style[t][1] for t in style},
        "type_rank": {t: i for i, t in enumerate(style)},
        "statuses": [STATUS_WORDS.get(s, s.replace("_", " ")) for s in STATUSES],
        "state": {"lat": _ints(fs.lat, 1000, 0), "lon": _ints(fs.lon, 1000, 0),
                  "course": _ints(fs.course_deg, 1, -1),
                  "speed": _ints(fs.speed_kn, 10, 0), "coal": _ints(fs.coal_t, 1, -1),
                  "status": fs.status.ravel().tolist(), "force": fs.force.ravel().tolist(),
                  "order": fs.order.ravel().tolist()},
        "strings": list(fs.strings),
        "events": ev, "event_index": ev_index,
        "days": _days(start, end_min),
        "night_box": [round(box.lon0, 3), round(box.lon1, 3), round(box.lat0, 3), round(box.lat1, 3)],
        "night_levels": list(NIGHT_LEVELS_DEG),
        "phase_words": list(PHASE_WORDS), "phase_names": list(PHASES),
        "wake_min": WAKE_MIN, "panel_min": PANEL_MIN, "panel_min_lines": PANEL_MIN_LINES,
        "panel_max_lines": PANEL_MAX_LINES, "ring_min": RING_MIN,
        "traces": traces, "figure": figure,
    }


def script_json(obj: Any) -> str:
    """Compact JSON that is safe inside an HTML ``<script>`` element: ``<``, ``>`` and ``&`` (and the
    JavaScript line separators) escaped as ``\\uXXXX``, so no text can close the element."""
    text = json.dumps(obj, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    return (text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
            .replace("\u2028", "\\u2028").replace("\u2029", "\\u2029"))


def _footer(meta: Mapping[str, Any], local: tuple[str, float] | None) -> str:
    parts = ["Times are UTC"]
    if local is not None:
        parts[0] += f"; local time {local[0]} = UTC{local[1]:+g} h as the scenario declares"
    parts.append("night shaded where the sun is below −6° (ephem)")
    parts.append(f"wakes show the last {WAKE_MIN / 60:g} hours")
    parts.append("coastline GSHHG (LGPL-3.0)")
    parts.append(f"scenario {meta.get('name', '')}, seed {meta.get('seed', '?')}")
    return ". ".join(parts) + "."


def build_replay(events: Sequence[Mapping[str, Any]], tracks: xr.Dataset, scenario_meta: Mapping[str, Any],
                 *, land: shapely.Geometry | None = None, places: Sequence[Any] | None = None,
                 step_min: float = FRAME_STEP_MIN, phrases: Mapping[str, Phrase] = PHRASES,
                 plotly_js: str | None = None) -> str:
    """The replay page (HTML text) of a run.

    ``events``: the records as JSON objects in time order (``events.jsonl``); ``tracks``: the
    Dataset of ``build_tracks`` (time x unit, with ``t_min`` in scenario minutes); ``scenario_meta``:
    ``name``, ``title``, ``start`` and ``end`` (UTC ISO-8601), optionally ``seed`` and ``local_time``
    (``{name, offset_h}``). ``land`` (lon/lat polygons, degrees) and ``places`` default to the
    project's. ``step_min`` is the regular frame interval in minutes. ``plotly_js`` defaults to the
    installed plotly.js bundle, embedded whole.
    """
    payload = replay_payload(events, tracks, scenario_meta, land=land, places=places, step_min=step_min,
                             phrases=phrases)
    if plotly_js is None:
        from plotly.offline import get_plotlyjs
        plotly_js = get_plotlyjs()
    title = str(scenario_meta.get("title") or scenario_meta.get("name") or "Campaign replay")
    return page(title, _footer(scenario_meta, _local(scenario_meta)), plotly_js, script_json(payload))


def write_replay(path: str | Path, events: Sequence[Mapping[str, Any]], tracks: xr.Dataset,
                 scenario_meta: Mapping[str, Any], **kwargs: Any) -> Path:
    """Build the replay and write it to ``path`` (UTF-8). Keyword arguments go to :func:`build_replay`."""
    out = Path(path)
    out.write_text(build_replay(events, tracks, scenario_meta, **kwargs), encoding="utf-8")
    return out


__all__ = ["build_replay", "clock_label", "replay_payload", "script_json", "write_replay"]
