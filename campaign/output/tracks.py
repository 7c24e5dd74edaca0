"""Tracks: every unit's state on a regular time grid, rebuilt from the event records alone.

Each record of a unit states its status, coal and coal rate, speed, and, when a leg starts, the
route and the distance already run along it. Between records a unit's position follows its leg and
its coal follows its rate, exactly as in the world; so the tracks need nothing but the records
(README: every output is derived from the records), and ``tracks.nc`` can be rebuilt from ``events.jsonl``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
import xarray as xr

from campaign.geo.route import along
from campaign.world.units import STATUSES

# Sample every 10 minutes: a ship at 25 knots moves about 4 nm between samples, well inside the
# 30-minute frames of the replay and the 6-hour turns of the board game.
TRACK_STEP_MIN = 10.0


@dataclass(frozen=True)
class UnitInfo:
    name: str
    side: str
    nation: str
    type: str
    capacity_t: float


def _leg_of(rec: Mapping[str, Any], current: dict | None) -> dict | None:
    """The leg a record puts its unit on: a new one if it carries a route, else the current one."""
    if rec.get("status") != "underway":
        return None
    if "route" in rec:
        pts = np.asarray(rec["route"], dtype=float)
        return {"lats": pts[:, 0], "lons": pts[:, 1], "offset": float(rec.get("route_offset_nm", 0.0)),
                "t0": float(rec["t_min"]), "speed": float(rec["speed_kn"])}
    if current is not None and abs(float(rec.get("speed_kn", current["speed"])) - current["speed"]) > 1e-9:
        raise ValueError(f"record at {rec['t']} changes {rec.get('unit')}'s speed without a route")
    return current


def build_tracks(events: Iterable[Mapping[str, Any]], start_iso: str, end_min: float,
                 units: Mapping[str, UnitInfo], step_min: float = TRACK_STEP_MIN,
                 attrs: Mapping[str, Any] | None = None) -> xr.Dataset:
    """Tracks of every unit as an xarray Dataset with dimensions (time, unit).

    ``events`` are records in their JSON form (``Record.as_json``), in time order. Variables: ``lat``,
    ``lon`` (degrees), ``course_deg``, ``speed_kn``, ``coal_t``, ``status`` (a code; CF flag
    attributes name the statuses). Coordinates: ``time`` (UTC), ``t_min`` (scenario minutes),
    ``unit`` and per unit ``side``, ``nation`` and ``ship_type``.
    """
    t = np.arange(0.0, end_min + 1e-9, step_min)
    if t[-1] < end_min - 1e-9:
        t = np.append(t, end_min)
    names = list(units)
    n_t, n_u = len(t), len(names)
    lat = np.full((n_t, n_u), np.nan)
    lon = np.full((n_t, n_u), np.nan)
    course = np.full((n_t, n_u), np.nan, dtype=np.float32)
    speed = np.zeros((n_t, n_u), dtype=np.float32)
    coal = np.full((n_t, n_u), np.nan, dtype=np.float32)
    status = np.full((n_t, n_u), -1, dtype=np.int8)
    code = {s: i for i, s in enumerate(STATUSES)}

    by_unit: dict[str, list[Mapping[str, Any]]] = {n: [] for n in names}
    for rec in events:
        u = rec.get("unit")
        if u in by_unit and "status" in rec:
            by_unit[u].append(rec)

    for j, name in enumerate(names):
        recs = by_unit[name]
        if not recs:
            continue
        times = np.array([float(r["t_min"]) for r in recs])
        idx = np.searchsorted(times, t, side="right") - 1
        leg = None
        cap = units[name].capacity_t
        for k, rec in enumerate(recs):
            leg = _leg_of(rec, leg)
            sel = np.nonzero(idx == k)[0]
            if sel.size == 0:
                continue
            ts = t[sel]
            dt_h = (ts - float(rec["t_min"])) / 60.0
            coal[sel, j] = np.clip(float(rec["coal_t"]) + float(rec["coal_rate_t_per_h"]) * dt_h, 0.0, cap)
            status[sel, j] = code[rec["status"]]
            if leg is not None:
                d = leg["offset"] + leg["speed"] * (ts - leg["t0"]) / 60.0
                la, lo, co = along(leg["lats"], leg["lons"], d)
                lat[sel, j], lon[sel, j], course[sel, j] = la, lo, co
                speed[sel, j] = leg["speed"]
            else:
                lat[sel, j], lon[sel, j] = float(rec["lat"]), float(rec["lon"])
    start = np.datetime64(start_iso.rstrip("Z"), "s")
    time = start + (t * 60.0).astype("timedelta64[s]")
    ds = xr.Dataset(
        {
            "lat": (("time", "unit"), lat, {"units": "degrees_north", "long_name": "latitude (WGS84)"}),
            "lon": (("time", "unit"), lon, {"units": "degrees_east", "long_name": "longitude (WGS84)"}),
            "course_deg": (("time", "unit"), course, {"units": "degree", "long_name": "course, true"}),
            "speed_kn": (("time", "unit"), speed, {"units": "knot", "long_name": "speed through the water"}),
            "coal_t": (("time", "unit"), coal, {"units": "t", "long_name": "coal on board, metric tonnes"}),
            "status": (("time", "unit"), status, {
                "long_name": "status", "flag_values": np.arange(len(STATUSES), dtype=np.int8),
                "flag_meanings": " ".join(STATUSES), "_FillValue": np.int8(-1)}),
        },
        coords={
            "time": ("time", time),
            "t_min": ("time", t, {"units": "min", "long_name": "minutes from the scenario start"}),
            "unit": ("unit", np.array(names, dtype=object)),
            "side": ("unit", np.array([units[n].side for n in names], dtype=object)),
            "nation": ("unit", np.array([units[n].nation for n in names], dtype=object)),
            "ship_type": ("unit", np.array([units[n].type for n in names], dtype=object)),
        },
        attrs=dict(attrs or {}),
    )
    return ds


def status_names(codes: np.ndarray) -> np.ndarray:
    """Status codes back to names ('' for no data)."""
    table = np.array(("",) + STATUSES, dtype=object)
    return table[np.asarray(codes, dtype=int) + 1]
