"""``replay.html``: an animated chart of a run that a historian opens anywhere, with no network.

Built from the records and tracks alone (every output can be rebuilt from them), in four parts:

* the chart (``replay_map``): GSHHG land drawn as filled traces on a lon/lat plane at the right
  aspect, ports and places, graticule and scale bar, framed on the tracks;
* the frames (``replay_frames``): every 30 minutes and at every record worth seeing, each unit's
  position, course, speed, coal, status, force and order;
* the events in words (``replay_events``), listed beside the chart as the clock passes them, with the
  historical record's events at their times, each beside what the run did (campaign/record);
* the sun (``replay_sun``): the sub-solar point of every frame, from which the page shades twilight
  and night (sun below -6 degrees) across the chart;
* what each side saw and said (``replay_intel``): lines from observer to target while in contact,
  messages from sender to receiver while they travel, and per side its picture of the enemy, shown by
  the page's view switch ("Truth", "Entente's picture", ...) as ghosts at the last reported positions;
* the battles (``replay_battle``): below the chart, each battle of the run animated on its own plane
  in yards, from its ``battle_track`` record (a run without battles has no such section).

The Plotly figure is plain dicts (validated ``graph_objects`` are 100x slower for this many traces)
and plotly.js is embedded, so the page needs nothing from the network; the player script
(``replay_page``) draws each frame from a compact frame x unit table.

Scenario texts (ship, force, place names, orders, notes) reach Plotly escaped and the page's panels
through ``textContent``; the JSON is put in the page with ``<``, ``>`` and ``&`` escaped, so a name like
``<script>alert(1)</script>`` is shown as text and runs nothing.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import numpy as np
import shapely
import xarray as xr

from campaign.clock import parse_utc
from campaign.output import replay_map as rmap
from campaign.output.replay_battle import battles_section
from campaign.output.replay_events import (
    PHRASES,
    QUIET_TYPES,
    STATUS_WORDS,
    EventLine,
    Phrase,
    event_lines,
)
from campaign.output.replay_frames import (
    FRAME_STEP_MIN,
    SAME_TIME_MIN,
    FrameStates,
    frame_states,
    frame_times,
)
from campaign.output.replay_intel import intel_payload
from campaign.output.replay_page import page, script_json
from campaign.output.replay_sun import (
    CIVIL_TWILIGHT_DEG,
    PHASES,
    SUNRISE_ALT_DEG,
    altitude_from_subsolar,
    light_phase,
    subsolar_points,
)
from campaign.record.check import replay_lines
from campaign.world.units import STATUSES

WAKE_MIN = 360.0  # six hours of wake: a squadron's last change of course stays in view
PANEL_MIN = 24 * 60.0  # the events panel looks back a day
PANEL_MIN_LINES, PANEL_MAX_LINES = 8, 60
REPEAT_MIN = 1.0  # a line repeating the same ships' line within this many minutes is left out of the panel
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

# The page's size valve. plotly.js (about 4.6 MB) and the player leave the data the rest of the 10 MB the
# issue allows. A run whose data needs more first leaves routine lines out of the events panel, in
# PANEL_SHED_TYPES order (every record stays in events.jsonl and tracks.gpkg, and the footer says what was
# left out); if that is not enough, it thins the frames at records (FRAME_GAPS_MIN: no record gets a frame
# of its own within that many minutes of another frame; the 30-minute grid stays) and tries again.
PAGE_BYTES_BUDGET = 10_000_000
PAGE_OVERHEAD_BYTES = 60_000
PANEL_SHED_TYPES = ("picture", "orders", "standing", "message_rerouted", "message_received", "message_jammed",
                    "intercept", "contact_lost", "message_lost", "course_change", "speed_change")
FRAME_GAPS_MIN = (SAME_TIME_MIN, 1.0, 5.0, 15.0)
FRAME_UNIT_BYTES = 36  # the frame x unit table's cost per frame and unit, to skip hopeless frame sets early

SIGHT_COLOUR = "#e8590c"
SIGHT_STYLES = (("dot", 1.6), ("dash", 2.0), ("solid", 2.6))  # smoke, ships, recognised
MESSAGE_COLOUR = "#7b2fa6"
GHOST_GREY = "#666666"
DOUBT_LINE, DOUBT_FILL = "rgba(80, 80, 80, 0.55)", "rgba(80, 80, 80, 0.07)"
AREA_LINE, AREA_FILL = "rgba(214, 140, 0, 0.85)", "rgba(240, 170, 0, 0.08)"
# hatched, so that a shaded sea area is never taken for land
AREA_PATTERN = {"shape": "/", "fgcolor": "rgba(214, 140, 0, 0.55)", "bgcolor": AREA_FILL, "size": 9,
                "solidity": 0.18}


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
    out.append({"type": "scatter", "mode": "markers", "x": [None], "y": [None], "name": "in sight (truth)",
                "marker": {"symbol": "circle-open-dot", "size": 12, "color": SIGHT_COLOUR, "line": {"width": 2}},
                "hoverinfo": "skip", "legendrank": 399})
    for level, (dash, width) in zip(("smoke", "ships", "recognised"), SIGHT_STYLES):
        out.append({"type": "scatter", "mode": "lines", "x": [None], "y": [None], "name": f"in sight: {level}",
                    "line": {"color": SIGHT_COLOUR, "width": width, "dash": dash}, "hoverinfo": "skip",
                    "legendrank": 400})
    out.append({"type": "scatter", "mode": "lines+markers", "x": [None], "y": [None],
                "name": "message on its way", "line": {"color": MESSAGE_COLOUR, "width": 1.6, "dash": "dashdot"},
                "marker": {"symbol": "square", "size": 7, "color": MESSAGE_COLOUR}, "hoverinfo": "skip",
                "legendrank": 410})
    out.append({"type": "scatter", "mode": "markers", "x": [None], "y": [None],
                "name": "enemy as last reported (side views)",
                "marker": {"symbol": "circle-open", "size": 11, "color": GHOST_GREY, "line": {"width": 2}},
                "hoverinfo": "skip", "legendrank": 420})
    out.append({"type": "scatter", "mode": "markers", "x": [None], "y": [None],
                "name": "enemy wireless heard in this area",
                "marker": {"symbol": "square-open", "size": 12, "color": AREA_LINE, "line": {"width": 1.5}},
                "hoverinfo": "skip", "legendrank": 430})
    out.append({"type": "scatter", "mode": "markers", "x": [None], "y": [None],
                "name": "night (sun below −6°)",
                "marker": {"symbol": "square", "size": 12, "color": f"rgba({NIGHT_RGB}, 0.5)"},
                "hoverinfo": "skip", "legendrank": 300})
    return out


def _figure(view: rmap.Extent, box: rmap.Extent, coverage: rmap.Extent, sides: list[str],
            types: Sequence[str], places: Sequence[Any], land: shapely.Geometry,
            file_name: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """The static figure (plain dicts) and the indices of the traces the player replaces."""
    # intercepted sea areas go under the land, which hides the part of an area drawn over it
    data: list[dict[str, Any]] = [{"type": "scatter", "mode": "lines", "name": "intercepted areas", "x": [],
                                   "y": [], "fill": "toself", "fillcolor": AREA_FILL,
                                   "fillpattern": AREA_PATTERN,
                                   "line": {"color": AREA_LINE, "width": 1.2, "dash": "dash"},
                                   "hoverinfo": "skip", "showlegend": False}]
    land_i = len(data)
    data.append(rmap.land_trace(land, box))
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
    doubt_i = len(data)
    data.append({"type": "scatter", "mode": "lines", "name": "doubt", "x": [], "y": [], "fill": "toself",
                 "fillcolor": DOUBT_FILL, "line": {"color": DOUBT_LINE, "width": 1, "dash": "dot"},
                 "hoverinfo": "skip", "showlegend": False})
    msg_lines_i = len(data)
    data.append({"type": "scatter", "mode": "lines", "name": "messages", "x": [], "y": [],
                 "line": {"color": MESSAGE_COLOUR, "width": 1.6, "dash": "dashdot"}, "opacity": 0.8,
                 "hoverinfo": "skip", "showlegend": False})
    sight_i = []
    for level, (dash, width) in zip(("smoke", "ships", "recognised"), SIGHT_STYLES):
        sight_i.append(len(data))
        data.append({"type": "scatter", "mode": "lines", "name": f"sighting: {level}", "x": [], "y": [],
                     "line": {"color": SIGHT_COLOUR, "width": width, "dash": dash}, "hoverinfo": "skip",
                     "showlegend": False})
    events_i = len(data)
    data.append({"type": "scatter", "mode": "markers", "name": "events", "x": [], "y": [], "hovertext": [],
                 "hoverinfo": "text", "marker": {"symbol": "circle-open", "size": 22,
                                                 "color": "#f0a800", "line": {"width": 2.5}},
                 "showlegend": False})
    ships_i = len(data)
    data.append({"type": "scatter", "mode": "markers", "name": "ships", "x": [], "y": [],
                 "showlegend": False})
    ghosts_i = len(data)
    data.append({"type": "scatter", "mode": "markers+text", "name": "last reported", "x": [], "y": [],
                 "showlegend": False})
    sight_marks_i = len(data)
    # a mark on each line, seen at any zoom (a contact at 10 nm is a few pixels long on the whole sea)
    data.append({"type": "scatter", "mode": "markers", "name": "sightings", "x": [], "y": [], "hovertext": [],
                 "hoverinfo": "text", "marker": {"symbol": "circle-open-dot", "size": 15, "color": SIGHT_COLOUR,
                                                 "line": {"width": 2}},
                 "showlegend": False})
    msg_marks_i = len(data)
    data.append({"type": "scatter", "mode": "markers+text", "name": "messages in transit", "x": [], "y": [],
                 "text": [], "hovertext": [], "hoverinfo": "text", "textposition": "top center",
                 "textfont": {"size": 10, "color": MESSAGE_COLOUR},
                 "marker": {"symbol": "square", "size": 7, "color": MESSAGE_COLOUR,
                            "line": {"color": "#ffffff", "width": 1}},
                 "showlegend": False, "cliponaxis": True})
    area_labels_i = len(data)
    data.append({"type": "scatter", "mode": "text", "name": "intercept labels", "x": [], "y": [], "text": [],
                 "hovertext": [], "hoverinfo": "text", "textfont": {"size": 10, "color": "#8a5a00"},
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
    traces = {"land": land_i, "night": night, "wakes": wakes, "events": events_i, "ships": ships_i,
              "areas": 0, "doubt": doubt_i, "msg_lines": msg_lines_i, "sight": sight_i,
              "ghosts": ghosts_i, "sight_marks": sight_marks_i, "msg_marks": msg_marks_i,
              "area_labels": area_labels_i}
    return {"data": data, "layout": layout, "config": config}, traces


def _in_panel(rec: Mapping[str, Any]) -> bool:
    """A command's picture updated by its own ships' lookouts or its own operators says what the
    sighting's or the intercept's line says: the panel leaves it out (the side view shows it)."""
    return not (rec.get("type") == "picture"
                and str(rec.get("source") or "").startswith(("seen by", "intercepted")))


def _panel_lines(events: Sequence[Mapping[str, Any]], phrases: Mapping[str, Phrase]) -> list[EventLine]:
    """The sentences of the events panel: every record's, less the pictures its lines already tell, a
    force's orders repeated word for word (a shadower re-issuing "hold contact" at each look), and a line
    that repeats the same ships' line of its kind of less than a minute before (a leg planned twice in one
    minute)."""
    out: list[EventLine] = []
    last_orders: dict[tuple[str, ...], str] = {}
    last: dict[tuple[tuple[str, ...], str], EventLine] = {}
    for ln in event_lines([r for r in events if _in_panel(r)], phrases):
        if ln.type == "orders":
            if last_orders.get(ln.units) == ln.text:
                continue
            last_orders[ln.units] = ln.text
        before = last.get((ln.units, ln.type)) if ln.units else None
        if before is not None and before.text == ln.text and ln.t_min - before.t_min < REPEAT_MIN:
            continue
        if ln.units:
            last[(ln.units, ln.type)] = ln
        out.append(ln)
    return out


def _events_payload(lines: Sequence[EventLine], times: np.ndarray, side_index: Mapping[str, int],
                    leave_out: frozenset[str] = frozenset()) -> tuple[dict[str, Any], list[int]]:
    """The panel's sentences as columns (texts and notes as indices into ``texts``), each with its frame
    (the frame at or after the record: the first that shows it), type (index into ``types``) and side
    (-1 for none); and the cumulative count of sentences up to each frame. Types in ``leave_out`` are
    left out (the page's size valve)."""
    texts: dict[str, int] = {}
    types: dict[str, int] = {}
    kept = [ln for ln in lines if ln.type not in leave_out]
    t = np.fromiter((ln.t_min for ln in kept), dtype=float, count=len(kept))
    frames = np.clip(np.searchsorted(times, t - 1e-6, side="left"), 0, len(times) - 1).tolist()
    rows = sorted(zip(frames, kept), key=lambda r: r[0])  # stable: time order within a frame
    cols: dict[str, list[Any]] = {k: [] for k in ("f", "t", "text", "note", "type", "side", "lat", "lon")}
    for f, ln in rows:
        for k, v in (("f", f), ("t", round(ln.t_min, 3)), ("text", texts.setdefault(ln.text, len(texts))),
                     ("note", texts.setdefault(ln.note, len(texts)) if ln.note else -1),
                     ("type", types.setdefault(ln.type, len(types))),
                     ("side", side_index.get(str(ln.side), -1) if ln.side else -1),
                     ("lat", None if ln.lat is None else round(ln.lat, 4)),
                     ("lon", None if ln.lon is None else round(ln.lon, 4))):
            cols[k].append(v)
    counts = np.bincount(cols["f"], minlength=len(times)) if rows else np.zeros(len(times), int)
    index = [0] + np.cumsum(counts).astype(int).tolist()
    return {"cols": cols, "texts": list(texts), "types": list(types),
            "quiet": [t in QUIET_TYPES for t in types]}, index


def _days(start: datetime, end_min: float) -> list[tuple[float, str]]:
    day = datetime(start.year, start.month, start.day, tzinfo=UTC) + timedelta(days=1)
    out = []
    while (day - start).total_seconds() / 60.0 <= end_min:
        out.append((round((day - start).total_seconds() / 60.0, 2), f"{day.day} {day:%b}"))
        day += timedelta(days=1)
    return out


def replay_payload(events: Sequence[Mapping[str, Any]], tracks: xr.Dataset, scenario_meta: Mapping[str, Any],
                   *, land: shapely.Geometry | None = None, places: Sequence[Any] | None = None,
                   step_min: float = FRAME_STEP_MIN, phrases: Mapping[str, Phrase] = PHRASES,
                   budget_bytes: int | None = None) -> dict[str, Any]:
    """Everything the page needs, as JSON-ready data (see :func:`build_replay`). ``budget_bytes`` caps
    the data's size in the page (see ``PAGE_BYTES_BUDGET``): routine lines are left out of the events
    panel, and then frames thinned, until it fits; the types left out and their counts are in
    ``left_out``, the thinning in ``frame_gap_min``. Without a budget everything is kept."""
    if land is None:
        from campaign.geo.land import default_land
        land = default_land().lonlat
    if places is None:
        from campaign.geo.places import default_places
        places = default_places().places
    start = _utc(scenario_meta, "start")
    end_min = (_utc(scenario_meta, "end") - start).total_seconds() / 60.0
    local = _local(scenario_meta)
    # The record's events beside the run's, at the record's times (campaign/record).
    lines = sorted(_panel_lines(events, phrases) + replay_lines(events, scenario_meta), key=lambda ln: ln.t_min)
    payload: dict[str, Any] = {}
    n_units = max(1, int(tracks.sizes.get("unit", 1)))
    gaps = FRAME_GAPS_MIN if budget_bytes is not None else FRAME_GAPS_MIN[:1]
    other = 0  # the data besides the frame table and the panel, once measured
    for n, gap in enumerate(gaps):
        times = frame_times(events, end_min, step_min, gap)
        table = len(times) * n_units * FRAME_UNIT_BYTES
        if budget_bytes is not None and n < len(gaps) - 1 and table + other > budget_bytes:
            continue  # the frame table alone would not fit: thin further before building anything
        payload = _assemble(events, tracks, scenario_meta, times, lines, land, places, start, end_min, local)
        payload["frame_gap_min"] = round(gap, 4)
        if budget_bytes is None:
            break
        fits, rest = _fit(payload, lines, times, budget_bytes)
        if fits:
            break
        other = max(0, rest - table)
    return payload


def _assemble(events: Sequence[Mapping[str, Any]], tracks: xr.Dataset, scenario_meta: Mapping[str, Any],
              times: np.ndarray, lines: Sequence[EventLine], land: shapely.Geometry, places: Sequence[Any],
              start: datetime, end_min: float, local: tuple[str, float] | None) -> dict[str, Any]:
    """The payload at these frame times, with every panel line."""
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
    ev, ev_index = _events_payload(lines, times, side_index)

    names = [str(u) for u in tracks["unit"].values]
    style = {t: (sym, size) for t, sym, size in TYPE_STYLE}
    for t in types:
        style.setdefault(t, OTHER_STYLE)
    unit_sides = [side_index[str(s)] for s in tracks["side"].values]
    intel = intel_payload(events, fs, sides, names, unit_sides, types, {t: i for i, t in enumerate(style)},
                          {t: style[t][0] for t in style}, start, end_min, box)
    payload = {
        "meta": {"name": str(scenario_meta.get("name", "")), "title": str(scenario_meta.get("title", "")),
                 "start": str(scenario_meta["start"]), "end": str(scenario_meta["end"]),
                 "local_time": None if local is None else {"name": local[0], "offset_h": local[1]}},
        "frames": {"t": [round(float(t), 3) for t in times], "clock": [clock_label(w, local) for w in when],
                   "phase": phase, "sub_lat": np.round(sub_lat, 4).tolist(),
                   "sub_lon": np.round(sub_lon, 4).tolist()},
        "units": {"name": names, "type": types, "nation": [str(n) for n in tracks["nation"].values],
                  "side": unit_sides},
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
        "events": ev["cols"], "texts": ev["texts"], "event_types": ev["types"], "quiet_types": ev["quiet"],
        "event_index": ev_index, "left_out": {},
        "days": _days(start, end_min),
        "night_box": [round(box.lon0, 3), round(box.lon1, 3), round(box.lat0, 3), round(box.lat1, 3)],
        "view_box": [round(view.lon0, 3), round(view.lon1, 3), round(view.lat0, 3), round(view.lat1, 3)],
        "intel": intel, "ghost_grey": GHOST_GREY,
        "night_levels": list(NIGHT_LEVELS_DEG),
        "phase_words": list(PHASE_WORDS), "phase_names": list(PHASES),
        "wake_min": WAKE_MIN, "panel_min": PANEL_MIN, "panel_min_lines": PANEL_MIN_LINES,
        "panel_max_lines": PANEL_MAX_LINES, "ring_min": RING_MIN,
        "traces": traces, "figure": figure,
    }
    return payload


def _fit(payload: dict[str, Any], lines: Sequence[EventLine], times: np.ndarray,
         budget_bytes: int) -> tuple[bool, int]:
    """Leave routine types out of the events panel, in ``PANEL_SHED_TYPES`` order, until the payload fits;
    (False if it does not fit even without them all, the bytes of the payload besides the panel). Each type's share of the panel is estimated first,
    so that the panel is built and measured only once or twice."""
    side_index = {s["name"]: i for i, s in enumerate(payload["sides"])}
    keys = ("events", "texts", "event_types", "quiet_types", "event_index")
    rest = len(script_json({k: v for k, v in payload.items() if k not in keys}).encode("utf-8"))
    share: dict[str | None, int] = {}
    seen: set[str] = set()
    for ln in lines:  # ~35 bytes of columns a line, and each distinct text once
        cost = 35 + sum(len(x.encode("utf-8")) + 3 for x in (ln.text, ln.note) if x and x not in seen)
        seen.update((ln.text, ln.note))
        share[ln.type] = share.get(ln.type, 0) + cost
    panel = sum(share.values()) + 8 * len(times)
    shed = [t for t in PANEL_SHED_TYPES if share.get(t)]
    n = 0
    while n < len(shed) and rest + panel - sum(share[t] for t in shed[:n]) > budget_bytes:
        n += 1
    while True:
        ev, index = _events_payload(lines, times, side_index, frozenset(shed[:n]))
        part = {"events": ev["cols"], "texts": ev["texts"], "event_types": ev["types"],
                "quiet_types": ev["quiet"], "event_index": index}
        fits = rest + len(script_json(part).encode("utf-8")) <= budget_bytes
        if fits or n >= len(shed):
            break
        n += 1
    payload.update(part)
    payload["left_out"] = {t: sum(1 for ln in lines if ln.type == t) for t in shed[:n]}
    return fits, rest


def _footer(meta: Mapping[str, Any], local: tuple[str, float] | None,
            left_out: Mapping[str, int] | None = None, frame_gap_min: float = SAME_TIME_MIN) -> str:
    parts = ["Times are UTC"]
    if local is not None:
        parts[0] += f"; local time {local[0]} = UTC{local[1]:+g} h as the scenario declares"
    parts.append("night shaded where the sun is below −6° (ephem)")
    parts.append(f"wakes show the last {WAKE_MIN / 60:g} hours")
    parts.append("a side's view: its own ships, the enemy as last reported (dead-reckoned; doubt grows at 28 kn)")
    parts.append("coastline GSHHG (LGPL-3.0)")
    parts.append(f"scenario {meta.get('name', '')}, seed {meta.get('seed', '?')}")
    if left_out:
        what = ", ".join(f"{n:,} {t.replace('_', ' ')}" for t, n in left_out.items())
        parts.append(f"To keep this page under {PAGE_BYTES_BUDGET / 1e6:g} MB the events panel leaves out {what} "
                     "lines (all are in events.jsonl and tracks.gpkg)")
    if frame_gap_min > SAME_TIME_MIN + 1e-3:
        parts.append(f"To keep this page under {PAGE_BYTES_BUDGET / 1e6:g} MB records less than "
                     f"{frame_gap_min:g} min after another frame are shown at the next frame")
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
    if plotly_js is None:
        from plotly.offline import get_plotlyjs
        plotly_js = get_plotlyjs()
    sides = _sides(events, tracks)
    battles = battles_section(events, side_colours={s: SIDE_COLOURS[i % len(SIDE_COLOURS)]
                                                    for i, s in enumerate(sides)})
    budget = (PAGE_BYTES_BUDGET - len(plotly_js.encode("utf-8")) - PAGE_OVERHEAD_BYTES
              - len(battles.encode("utf-8")))
    payload = replay_payload(events, tracks, scenario_meta, land=land, places=places, step_min=step_min,
                             phrases=phrases, budget_bytes=budget)
    title = str(scenario_meta.get("title") or scenario_meta.get("name") or "Campaign replay")
    footer = _footer(scenario_meta, _local(scenario_meta), payload["left_out"], payload["frame_gap_min"])
    if battles:
        footer += " Each battle is drawn on its own below the chart."
    return page(title, footer, plotly_js, script_json(payload), battles)


def write_replay(path: str | Path, events: Sequence[Mapping[str, Any]], tracks: xr.Dataset,
                 scenario_meta: Mapping[str, Any], **kwargs: Any) -> Path:
    """Build the replay and write it to ``path`` (UTF-8). Keyword arguments go to :func:`build_replay`."""
    out = Path(path)
    out.write_text(build_replay(events, tracks, scenario_meta, **kwargs), encoding="utf-8")
    return out


__all__ = ["build_replay", "clock_label", "replay_payload", "script_json", "write_replay"]
