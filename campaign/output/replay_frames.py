"""The replay's frames: when they fall, and every unit's state at each.

Frames fall every ``FRAME_STEP_MIN`` minutes, at the end of the scenario, and at every record worth
seeing (all but ``QUIET_TYPES``), so a departure or an arrival is shown at its minute, not rounded
to the half hour.

A unit's state at a frame comes from two sources. Its *situation* (status, speed, force, current
order) is that of its latest record at or before the frame. Its *position* is interpolated in time
from the tracks' 10-minute samples (over 10 minutes a ship's geodesic path is straight to within
metres) and, where the unit has a record at the frame's very time, taken from that record. Coal
follows the latest record's coal and rate, exactly as the world counts it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import xarray as xr

from campaign.output.replay_events import QUIET_TYPES
from campaign.world.units import STATUSES

FRAME_STEP_MIN = 30.0
SAME_TIME_MIN = 1.0 / 60.0  # records within a second share a frame


def frame_times(events: Sequence[Mapping[str, Any]], end_min: float,
                step_min: float = FRAME_STEP_MIN, min_gap_min: float = SAME_TIME_MIN) -> np.ndarray:
    """Frame times in scenario minutes: a regular grid, the end, and every non-quiet record's time.

    ``min_gap_min`` above a second thins the records' frames: a record's time gets no frame of its own
    within that many minutes of a grid frame or of the last record frame kept (the replay's budget
    valve for a run with a great many records; see ``replay.PAGE_BYTES_BUDGET``)."""
    grid = np.arange(0.0, end_min + 1e-9, step_min)
    extra = np.asarray([float(r["t_min"]) for r in events
                        if r.get("type") not in QUIET_TYPES and r.get("t_min") is not None
                        and 0.0 <= float(r["t_min"]) <= end_min], dtype=float)
    if min_gap_min > SAME_TIME_MIN:
        base = np.unique(np.concatenate([grid, [end_min]]))
        kept: list[float] = []
        for x in np.unique(extra):
            i = int(np.searchsorted(base, x))
            near = min(abs(base[min(i, len(base) - 1)] - x), abs(base[max(i - 1, 0)] - x))
            if near > min_gap_min and (not kept or x - kept[-1] > min_gap_min):
                kept.append(float(x))
        extra = np.asarray(kept, dtype=float)
    t = np.unique(np.concatenate([grid, [end_min], extra]))
    keep = np.ones(len(t), dtype=bool)
    keep[1:] = np.diff(t) > SAME_TIME_MIN
    return t[keep]


@dataclass(frozen=True)
class FrameStates:
    """Per frame (rows) and unit (columns): position (degrees), course (deg, NaN when not under
    way), speed (kn), coal (t), status code (index into ``STATUSES``, -1 when the unit is not yet
    or no longer known), and indices into ``strings`` for the unit's force and current order
    (-1 for none)."""

    t_min: np.ndarray
    lat: np.ndarray
    lon: np.ndarray
    course_deg: np.ndarray
    speed_kn: np.ndarray
    coal_t: np.ndarray
    status: np.ndarray
    force: np.ndarray
    order: np.ndarray
    strings: tuple[str, ...]


def _records_by_unit(events: Sequence[Mapping[str, Any]],
                     units: Sequence[str]) -> dict[str, list[Mapping[str, Any]]]:
    by_unit: dict[str, list[Mapping[str, Any]]] = {u: [] for u in units}
    for rec in events:
        u = rec.get("unit")
        if u in by_unit and rec.get("status") is not None:
            by_unit[u].append(rec)
    for recs in by_unit.values():
        recs.sort(key=lambda r: float(r["t_min"]))  # stable: same-time records keep their order
    return by_unit


def _interp_column(t_src: np.ndarray, v: np.ndarray, t: np.ndarray) -> np.ndarray:
    ok = np.isfinite(v)
    if not ok.any():
        return np.full(len(t), np.nan)
    return np.interp(t, t_src[ok], v[ok])


def frame_states(events: Sequence[Mapping[str, Any]], tracks: xr.Dataset, times: np.ndarray) -> FrameStates:
    """Every unit of ``tracks`` at every frame time (scenario minutes)."""
    units = [str(u) for u in tracks["unit"].values]
    t_src = np.asarray(tracks["t_min"].values, dtype=float)
    lat_src = np.asarray(tracks["lat"].values, dtype=float)
    lon_src = np.asarray(tracks["lon"].values, dtype=float)
    course_src = np.asarray(tracks["course_deg"].values, dtype=float)
    k, n = len(times), len(units)
    lat = np.full((k, n), np.nan)
    lon = np.full((k, n), np.nan)
    course = np.full((k, n), np.nan)
    speed = np.zeros((k, n))
    coal = np.full((k, n), np.nan)
    status = np.full((k, n), -1, dtype=np.int16)
    force = np.full((k, n), -1, dtype=np.int32)
    order = np.full((k, n), -1, dtype=np.int32)
    strings: dict[str, int] = {}
    code = {s: i for i, s in enumerate(STATUSES)}

    def sid(text: Any) -> int:
        return strings.setdefault(str(text), len(strings))

    left = np.clip(np.searchsorted(t_src, times, side="right") - 1, 0, max(len(t_src) - 1, 0))
    by_unit = _records_by_unit(events, units)
    for j, name in enumerate(units):
        lat[:, j] = _interp_column(t_src, lat_src[:, j], times)
        lon[:, j] = _interp_column(t_src, lon_src[:, j], times)
        recs = by_unit[name]
        if not recs:
            continue
        rt = np.array([float(r["t_min"]) for r in recs])
        idx = np.searchsorted(rt, times, side="right") - 1
        last_order = -1
        rec_order = []
        for r in recs:
            if r.get("order"):
                last_order = sid(r["order"])
            rec_order.append(last_order)
        for i in np.nonzero(idx >= 0)[0]:
            r = recs[idx[i]]
            st = code.get(str(r.get("status")), -1)
            status[i, j] = st
            speed[i, j] = float(r.get("speed_kn") or 0.0)
            coal[i, j] = max(0.0, float(r.get("coal_t") or 0.0)
                             + float(r.get("coal_rate_t_per_h") or 0.0) * (times[i] - rt[idx[i]]) / 60.0)
            force[i, j] = sid(r.get("force") or name)
            order[i, j] = rec_order[idx[i]]
            if abs(rt[idx[i]] - times[i]) <= SAME_TIME_MIN and r.get("lat") is not None:
                lat[i, j], lon[i, j] = float(r["lat"]), float(r["lon"])
            if st == code["underway"]:
                c = course_src[left[i], j] if len(t_src) else np.nan
                if not np.isfinite(c) and r.get("course_deg") is not None:
                    c = float(r["course_deg"])
                course[i, j] = c
    return FrameStates(times, lat, lon, course, speed, coal, status, force, order, tuple(strings))
