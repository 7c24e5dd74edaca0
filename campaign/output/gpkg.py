"""``tracks.gpkg``: a run's tracks and events for GIS users (QGIS, ArcGIS, GeoPandas).

Three layers, WGS84 longitude/latitude (EPSG:4326), times as UTC ``DATETIME`` fields:

* ``tracks``: one LineString per unit through its 10-minute samples, with ``time_start`` and
  ``time_end`` (the first and last sample), side, nation and ship type;
* ``track_points``: the samples at which a unit moved or changed status or speed, each with
  ``time`` and ``time_end`` (when the next such sample begins), so QGIS's temporal controller can
  animate them with "separate fields for start and end date/time"; plus speed, course, coal, status;
* ``events``: every record as a point with time, type, unit, side, force, place, the record in words
  (``text``, from ``replay_events``) and its scenario note.

Written with pyogrio (no GeoPandas needed). The file is built under a temporary name with the
``.gpkg`` extension GDAL expects and moved into place whole.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import shapely
import xarray as xr
from pyogrio.raw import write

from campaign.output.replay_events import sentence
from campaign.world.units import STATUSES

CRS = "EPSG:4326"
_UTC = 100  # GDAL's time-zone flag for UTC (offsets are counted in 15-minute steps from 100)


def _times(tracks: xr.Dataset) -> np.ndarray:
    """Sample times as datetime64[s] (UTC): the ``time`` coordinate, or ``start`` + ``t_min``."""
    time = tracks["time"].values
    if np.issubdtype(time.dtype, np.datetime64):
        return time.astype("datetime64[s]")
    start = tracks.attrs.get("start")
    if not start:
        raise ValueError("tracks have neither datetime times nor a 'start' attribute")
    t0 = np.datetime64(str(start).rstrip("Z"), "s")
    return t0 + np.round(np.asarray(tracks["t_min"].values, float) * 60.0).astype("timedelta64[s]")


def _iso_time(text: Any) -> np.datetime64:
    return np.datetime64(str(text).rstrip("Z"), "ms")


def _write_layer(path: Path, layer: str, geoms: list[shapely.Geometry | None],
                 fields: Mapping[str, np.ndarray], geometry_type: str) -> None:
    wkb = np.array([None if g is None else shapely.to_wkb(g) for g in geoms], dtype=object)
    names = list(fields)
    tz = {n: np.full(len(geoms), _UTC, dtype=np.int32)
          for n in names if np.issubdtype(fields[n].dtype, np.datetime64)}
    write(str(path), wkb, [fields[n] for n in names], names, layer=layer, driver="GPKG",
          geometry_type=geometry_type, crs=CRS, gdal_tz_offsets=tz)


def _obj(values: Sequence[Any]) -> np.ndarray:
    return np.array([None if v is None else str(v) for v in values], dtype=object)


def _track_layers(tracks: xr.Dataset, times: np.ndarray) -> tuple[tuple, tuple]:
    lat = np.asarray(tracks["lat"].values, float)
    lon = np.asarray(tracks["lon"].values, float)
    speed = np.asarray(tracks["speed_kn"].values, float)
    course = np.asarray(tracks["course_deg"].values, float)
    coal = np.asarray(tracks["coal_t"].values, float)
    status = np.nan_to_num(np.asarray(tracks["status"].values, float), nan=-1).astype(int)
    units = [str(u) for u in tracks["unit"].values]
    side = [str(s) for s in tracks["side"].values]
    nation = [str(s) for s in tracks["nation"].values]
    stype = [str(s) for s in tracks["ship_type"].values]
    line_keys = ("unit", "side", "nation", "ship_type", "time_start", "time_end", "n_samples")
    point_keys = ("unit", "side", "time", "time_end", "speed_kn", "course_deg", "coal_t", "status")
    lines, l_fields = [], {k: [] for k in line_keys}
    pts, p_fields = [], {k: [] for k in point_keys}
    for j, name in enumerate(units):
        ok = np.isfinite(lat[:, j]) & np.isfinite(lon[:, j])
        idx = np.nonzero(ok)[0]
        if idx.size == 0:
            continue
        xy = np.column_stack([lon[idx, j], lat[idx, j]])
        lines.append(shapely.LineString(xy if len(xy) > 1 else np.vstack([xy, xy])))
        for k, v in (("unit", name), ("side", side[j]), ("nation", nation[j]), ("ship_type", stype[j]),
                     ("time_start", times[idx[0]]), ("time_end", times[idx[-1]]),
                     ("n_samples", int(idx.size))):
            l_fields[k].append(v)
        # keep a sample where anything a map would show changes; a ship at anchor for days is one point
        moved = np.ones(idx.size, dtype=bool)
        moved[1:] = ((np.abs(np.diff(xy, axis=0)) > 1e-7).any(axis=1)
                     | (np.diff(status[idx, j]) != 0) | (np.abs(np.diff(speed[idx, j])) > 1e-6))
        keep = idx[moved]
        ends = np.append(times[keep[1:]], times[idx[-1]])
        for i, t_end in zip(keep, ends):
            pts.append(shapely.Point(lon[i, j], lat[i, j]))
            st = status[i, j]
            for k, v in (("unit", name), ("side", side[j]), ("time", times[i]), ("time_end", t_end),
                         ("speed_kn", float(speed[i, j])), ("course_deg", float(course[i, j])),
                         ("coal_t", float(coal[i, j])),
                         ("status", STATUSES[st] if 0 <= st < len(STATUSES) else None)):
                p_fields[k].append(v)
    return (lines, l_fields), (pts, p_fields)


def _as_arrays(fields: Mapping[str, list[Any]], ints: Sequence[str] = (), floats: Sequence[str] = (),
               times: Sequence[str] = ()) -> dict[str, np.ndarray]:
    out: dict[str, np.ndarray] = {}
    for k, v in fields.items():
        if k in ints:
            out[k] = np.asarray(v, dtype=np.int64)
        elif k in floats:
            out[k] = np.asarray(v, dtype=float)
        elif k in times:
            out[k] = np.asarray(v, dtype="datetime64[ms]")
        else:
            out[k] = _obj(v)
    return out


def write_tracks_gpkg(path: str | Path, events: Sequence[Mapping[str, Any]], tracks: xr.Dataset) -> Path:
    """Write the ``tracks``, ``track_points`` and ``events`` layers (see module doc) to ``path``.

    ``events`` are the records as JSON objects; ``tracks`` the Dataset of ``build_tracks`` (or read
    from ``tracks.nc``; sample times come from its ``time`` coordinate or ``start`` + ``t_min``).
    Positions are degrees, speed knots, course degrees true, coal tonnes.
    """
    out = Path(path)
    times = _times(tracks)
    (lines, l_fields), (pts, p_fields) = _track_layers(tracks, times)
    ev_geoms = [shapely.Point(float(r["lon"]), float(r["lat"]))
                if r.get("lat") is not None and r.get("lon") is not None else None for r in events]
    ev_fields = {
        "time": [_iso_time(r["t"]) for r in events],
        "t_min": [float(r.get("t_min", np.nan)) for r in events],
        "type": [r.get("type") for r in events],
        "unit": [r.get("unit") for r in events],
        "side": [r.get("side") for r in events],
        "force": [r.get("force") for r in events],
        "place": [r.get("place") for r in events],
        "text": [sentence(r) for r in events],
        "note": [r.get("note") for r in events],
    }
    with tempfile.TemporaryDirectory(dir=out.parent, prefix=".gpkg-") as tmp:
        tmp_path = Path(tmp) / "tracks.gpkg"
        _write_layer(tmp_path, "tracks", lines,
                     _as_arrays(l_fields, ints=("n_samples",), times=("time_start", "time_end")),
                     "LineString")
        _write_layer(tmp_path, "track_points", pts,
                     _as_arrays(p_fields, floats=("speed_kn", "course_deg", "coal_t"),
                                times=("time", "time_end")),
                     "Point")
        _write_layer(tmp_path, "events", ev_geoms,
                     _as_arrays(ev_fields, floats=("t_min",), times=("time",)), "Point")
        os.replace(tmp_path, out)
    return out
