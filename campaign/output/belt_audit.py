"""The audit of neutral waters: every place a run put a ship inside waters barred to her nation then.

From the records alone: the political timeline is read back from the ``politics`` records (each written
when its event took effect), the barred waters at each minute are the world's own rule
(``campaign.geo.regions.barred_waters``: the neutral belts a nation must keep out of, and the straits
closed to its warships), and every ship's track is rebuilt minute by minute (``campaign.output.tracks``).
A position inside barred waters is an intrusion, told apart as:

* ``in port``: lying in a port of the waters' sovereign (a belligerent's port call, Hague Convention XIII
  Art. 12, within the 24 hours the world enforces);
* ``caught inside``: inside when the waters came to be barred to her, and out again within
  ``EXIT_ALLOWANCE_MIN`` (the way out: ``campaign.geo.regions.way_out``);
* ``violation``: anything else.

Wrecks (``sunk``) are not counted, nor a position within ``EDGE_TOLERANCE_NM`` of the edge: routes are
kept clear of the waters in the routing plane, whose straight edges differ from the belt's edges drawn in
longitude and latitude by less than that.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import shapely
import shapely.ops

from campaign.clock import Clock, parse_utc
from campaign.geo import earth
from campaign.geo.land import default_land
from campaign.geo.places import default_places
from campaign.geo.regions import barred_waters, coast_of, restricted_waters
from campaign.geo.routing import AvoidArea
from campaign.model.politics import PoliticalEvent, Politics
from campaign.model.ships import default_ships
from campaign.output.rebuild import units_from_events
from campaign.output.tracks import build_tracks, status_names

# The audit's step, minutes: a ship at 25 knots runs 0.4 nm in a minute, so a pass through a belt's
# edge of any depth worth the name is caught.
AUDIT_STEP_MIN = 1.0
# A ship caught inside waters when they came to be barred to her is allowed this long to leave them
# (minutes): six miles at six knots.
EXIT_ALLOWANCE_MIN = 60.0
# Positions less than this deep inside the waters (nm) lie on their edge (see the module's docstring).
EDGE_TOLERANCE_NM = 0.05
# Political kinds that decide which waters are barred to whom.
_WATERS_KINDS = ("war", "peace", "keep_out", "allow_in", "permit", "forbid")
# Statuses in which a ship is a wreck, not a ship moving: not counted.
_WRECKED = ("sunk",)
VIOLATION, CAUGHT_INSIDE, IN_PORT = "violation", "caught inside", "in port"


@dataclass(frozen=True)
class Intrusion:
    """One ship's stay inside waters barred to her: from ``start`` to ``end`` (UTC; the last minute
    found inside), ``minutes`` audited inside, the nearest she came to land (nm) and where."""

    unit: str
    nation: str
    area: str
    kind: str
    start: str
    end: str
    minutes: float
    nearest_land_nm: float
    lat: float
    lon: float
    status: str

    def line(self) -> str:
        return (f"{self.kind}: {self.unit} ({self.nation}) in {self.area} {self.start} - {self.end}, "
                f"{self.minutes:g} min, {self.nearest_land_nm:.2f} nm off land at {self.lat:.4f},{self.lon:.4f} "
                f"({self.status})")


def politics_from_records(events: Iterable[Mapping[str, Any]]) -> Politics:
    """The political timeline as the run's ``politics`` records give it (each at the time it took
    effect): wars, belts and permissions."""
    out = []
    for r in events:
        if r.get("type") != "politics" or r.get("kind") not in _WATERS_KINDS:
            continue
        out.append(PoliticalEvent(float(r["t_min"]), str(r["kind"]), tuple(r.get("nations") or ()),
                                  sovereign=r.get("sovereign"), width_nm=r.get("width_nm"), what=r.get("what")))
    return Politics(tuple(out))


def audit_belts(events: Sequence[Mapping[str, Any]], start_iso: str, end_min: float,
                step_min: float = AUDIT_STEP_MIN) -> list[Intrusion]:
    """Every intrusion of the run whose records are ``events`` (JSON form, in time order), in order of
    unit and time."""
    politics = politics_from_records(events)
    units = units_from_events(events)
    ships = default_ships()
    ds = build_tracks(events, start_iso, end_min, units, step_min=step_min)
    t = np.asarray(ds["t_min"].values, dtype=float)
    lat, lon = np.asarray(ds["lat"].values), np.asarray(ds["lon"].values)
    status = status_names(ds["status"].values)
    # The times at which the barred waters can change: each piece between two is audited with one set.
    changes = sorted({0.0, *(e.t_min for e in politics.events)})
    bounds = [*changes, math.inf]
    clock = Clock(parse_utc(start_iso))
    out: list[Intrusion] = []
    for j, name in enumerate(ds["unit"].values.tolist()):
        info = units[name]
        if not info.nation:
            continue
        ship = ships.get(name)
        warship = ship is not None and not ship.is_merchant
        inside: dict[str, np.ndarray] = {}
        onsets: dict[str, list[float]] = {}  # when each area came to be barred to her
        was: set[str] = set()
        for k, t0 in enumerate(changes):
            areas = barred_waters(politics, info.nation, warship, t0)
            for area in areas:
                if area.key not in was:
                    onsets.setdefault(area.key, []).append(t0)
            was = {a.key for a in areas}
            sel = np.nonzero((t >= t0) & (t < bounds[k + 1]) & np.isfinite(lat[:, j])
                             & ~np.isin(status[:, j], _WRECKED))[0]
            if sel.size == 0:
                continue
            for area in areas:
                hit = shapely.intersects_xy(_within_edge(area), lon[sel, j], lat[sel, j])
                if hit.any():
                    mask = inside.setdefault(area.key, np.zeros(len(t), dtype=bool))
                    mask[sel[hit]] = True
        for key, mask in sorted(inside.items()):
            out.extend(_episodes(name, info.nation, key, mask, t, lat[:, j], lon[:, j], status[:, j],
                                 onsets[key], clock))
    return out


_SHRUNK: dict[str, shapely.Geometry] = {}


def _within_edge(area: AvoidArea) -> shapely.Geometry:
    """The area less a band ``EDGE_TOLERANCE_NM`` wide inside its edge (degrees of latitude, which are
    at least as long as those of longitude), prepared and kept by key."""
    g = _SHRUNK.get(area.key)
    if g is None:
        g = _SHRUNK[area.key] = area.geometry.buffer(-EDGE_TOLERANCE_NM / 60.0)
        shapely.prepare(g)
    return g


def _episodes(unit: str, nation: str, key: str, mask: np.ndarray, t: np.ndarray, lat: np.ndarray,
              lon: np.ndarray, status: np.ndarray, onsets: list[float], clock: Clock) -> list[Intrusion]:
    """The runs of consecutive audited minutes inside one area, each an ``Intrusion``."""
    step = float(t[1] - t[0]) if len(t) > 1 else 0.0
    idx = np.nonzero(mask)[0]
    runs = np.split(idx, np.nonzero(np.diff(idx) > 1)[0] + 1)
    out = []
    for run in runs:
        off = [_off_shore_nm(key, float(lat[i]), float(lon[i])) for i in run]
        deep = int(run[int(np.argmin(off))])
        t0, t1 = float(t[run[0]]), float(t[run[-1]])
        if all(status[i] in ("in_port", "coaling", "interned") and _port_of(key, lat[i], lon[i]) for i in run):
            kind = IN_PORT
        elif any(o <= t0 < o + step and t1 - o <= EXIT_ALLOWANCE_MIN for o in onsets):
            kind = CAUGHT_INSIDE
        else:
            kind = VIOLATION
        out.append(Intrusion(unit, nation, key, kind, clock.iso(t0), clock.iso(t1), len(run) * step,
                             round(min(off), 3), round(float(lat[deep]), 5), round(float(lon[deep]), 5),
                             str(status[deep])))
    return out


def _off_shore_nm(key: str, lat: float, lon: float) -> float:
    """How far (nm) the point lies off the shore the waters ``key`` are measured from: the sovereign's
    coast, islets and all, for a belt; any land for other waters."""
    sovereign = _sovereign_of(key)
    if key.startswith("belt:") and sovereign is not None:
        near = shapely.ops.nearest_points(coast_of(sovereign), shapely.Point(lon, lat))[0]
        return float(earth.distance_nm(lat, lon, near.y, near.x))
    return default_land().distance_to_land_nm(lat, lon)


def _port_of(key: str, lat: float, lon: float) -> bool:
    """Whether (lat, lon) is the anchorage of a port of the sovereign whose waters ``key`` names."""
    sovereign = _sovereign_of(key)
    for p in default_places().ports():
        if p.nation == sovereign and abs(p.anchorage_lat - lat) < 1e-6 and abs(p.anchorage_lon - lon) < 1e-6:
            return True
    return False


def _sovereign_of(key: str) -> str | None:
    """The sovereign of a barred area's key (``belt:Italy:6nm``, ``restricted:Dardanelles``)."""
    kind, _, rest = key.partition(":")
    if kind == "belt":
        return rest.rpartition(":")[0]
    if kind == "restricted":
        return next((rw.sovereign for rw in restricted_waters() if rw.name == rest), None)
    return None


def count(intrusions: Iterable[Intrusion], kind: str = VIOLATION) -> tuple[int, int, float]:
    """(intrusions by ship, by squadron, ship-minutes inside) of one kind. The ships of a squadron steam
    on one track: their intrusions, at the same times and places, are the squadron's one."""
    sel = [i for i in intrusions if i.kind == kind]
    return len(sel), len({(i.area, i.start, i.end, i.lat, i.lon) for i in sel}), sum(i.minutes for i in sel)
