"""An audit of a run's battles, from its records alone (``events.jsonl``: a campaign's or a duel's).

It measures what the tactical engines should never do, or do rarely, per battle and over many runs:

* pass-throughs: two hulls overlapping in a frame of the ``battle_track`` with no ``ram`` or
  ``collision`` record naming both at or before it; and the least clearance between consorts (same
  side) and between enemies. A hull is a capsule of her length and beam (``data/ships.yaml``) on her
  course (``campaign.output.audit_geometry``, written apart from the engines');
* own-side hits: ``hit`` records whose ``by`` is of the ship hit's side (sides from the track);
* speed: moves between frames longer than her sustained speed allows in that time (``SPEED_TOL_YD``);
* re-laid ships: a ship's position at the end of one battle against the start of her next, less the
  most her sustained speed could cover between (``JUMP_TOL_YD``);
* ends: ``drawn_off`` with a hit in its last ``LATE_HIT_S``; ``separated`` or ``drawn_off`` within
  ``EARLY_END_S``;
* torpedoes fired with the target within ``END_ON_DEG`` of the firer's bow or stern.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt
from pyproj import Geod

from campaign.model.ships import default_ships, find_ship
from campaign.output.audit_geometry import bearing_off_bow_deg, hull_clearance_yd
from campaign.tactics.localplane import LocalPlane

Rec = Mapping[str, Any]
Arr = npt.NDArray[np.float64]

M_PER_YD = 0.9144
YD_PER_NM = 1852.0 / M_PER_YD
SPEED_TOL_YD = 5.0  # a move may exceed her sustained speed by this much: the frames' positions are to 0.1 yd
JUMP_TOL_YD = 50.0  # a re-laying beyond this is a jump: records' positions are to 1e-6 deg (0.1 yd)
LATE_HIT_S = 600.0  # a drawn_off battle with a hit in its last 10 minutes was not drawn off
EARLY_END_S = 300.0  # separated or drawn off in its first 5 minutes: the battle hardly began
END_ON_DEG = 30.0  # a torpedo fired with the target this near the bow or stern (tubes bear on the beam)
SAME_TIME_S = 1e-3
EXCUSES = frozenset({"ram", "collision"})  # records that explain two hulls meeting
_GEOD = Geod(ellps="WGS84")


@dataclass(frozen=True)
class ShipDims:
    """What the audit needs of a ship: her length and beam (yd) and sustained speed (kn), data/ships.yaml."""

    length_yd: float
    beam_yd: float
    sustained_kn: float


def ship_dims(names: Iterable[str]) -> dict[str, ShipDims]:
    """The named ships' dimensions and sustained speeds from ``data/ships.yaml`` (metres to yards)."""
    ships = default_ships()
    out = {}
    for n in names:
        s = find_ship(n, ships)
        out[n] = ShipDims(s.length_m / M_PER_YD, s.beam_m / M_PER_YD, s.sustained_speed_kn)
    return out


@dataclass(frozen=True)
class BattleTrack:
    """A ``battle_track`` record as arrays: per ship (rows, in ``names`` order) and frame (columns)."""

    battle: int
    engine: str
    reason: str
    start_min: float
    lat: float
    lon: float
    names: tuple[str, ...]
    sides: Mapping[str, str]
    t_s: Arr
    x_yd: Arr
    y_yd: Arr
    course_deg: Arr
    afloat: npt.NDArray[np.bool_]

    @classmethod
    def of(cls, rec: Rec) -> BattleTrack:
        n = len(rec["names"])

        def rows(key: str, kind: type) -> npt.NDArray[Any]:
            return np.asarray(rec[key], kind).reshape(n, -1)

        return cls(int(rec["battle"]), str(rec.get("engine", "")), str(rec.get("reason", "")),
                   float(rec.get("start_min") or 0.0), float(rec["lat"]), float(rec["lon"]),
                   tuple(str(x) for x in rec["names"]), {str(k): str(v) for k, v in rec["sides"].items()},
                   np.asarray(rec["t_s"], float), rows("x_yd", float), rows("y_yd", float),
                   rows("course_deg", float), rows("afloat", bool))

    @property
    def duration_s(self) -> float:
        return float(self.t_s[-1]) if len(self.t_s) else 0.0

    def frame_at(self, t_s: float) -> int:
        """The frame at ``t_s`` seconds into the battle, or the last before it."""
        return max(int(np.searchsorted(self.t_s, t_s + SAME_TIME_S, side="right")) - 1, 0)

    def latlon(self, i: int, k: int) -> tuple[float, float]:
        """Where ship ``i`` is in frame ``k`` (deg), on the plane centred on the track's lat/lon."""
        return LocalPlane(self.lat, self.lon).to_latlon(float(self.x_yd[i, k]), float(self.y_yd[i, k]))


def battle_tracks(records: Iterable[Rec]) -> list[BattleTrack]:
    """Every battle of the run with frames, in the order they began."""
    tracks = [BattleTrack.of(r) for r in records
              if r.get("type") == "battle_track" and r.get("names") and r.get("t_s")]
    return sorted(tracks, key=lambda t: (t.start_min, t.battle))


def battle_records(records: Iterable[Rec], battle: int) -> list[Rec]:
    """The battle's records other than its track."""
    return [r for r in records if r.get("battle") == battle and r.get("type") != "battle_track"]


# -- (a) hulls -------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class PassThrough:
    """Two hulls overlapping with nothing to say they met: the first such frame and their worst overlap."""

    ship_a: str
    ship_b: str
    t_s: float
    clearance_yd: float


def pair_clearances(track: BattleTrack, dims: Mapping[str, ShipDims]) -> tuple[list[tuple[int, int]], Arr]:
    """Every pair of ships (i < j) and their hull clearance (yd) in each frame: (pairs, array pairs x
    frames), NaN where either is not afloat."""
    n = len(track.names)
    pairs = [(i, j) for i in range(n) for j in range(i + 1, n)]
    if not pairs:
        return pairs, np.empty((0, len(track.t_s)))
    ii, jj = (np.array(p) for p in zip(*pairs, strict=True))
    length = np.array([dims[s].length_yd for s in track.names])[:, None]
    beam = np.array([dims[s].beam_yd for s in track.names])[:, None]

    def hull(k: npt.NDArray[np.int_]) -> tuple[Arr, Arr, Arr, Arr, Arr]:
        return track.x_yd[k], track.y_yd[k], track.course_deg[k], length[k], beam[k]

    clear = hull_clearance_yd(hull(ii), hull(jj))
    return pairs, np.where(track.afloat[ii] & track.afloat[jj], clear, np.nan)


def _excused(recs: Sequence[Rec]) -> dict[frozenset[str], float]:
    """The earliest ram or collision (t_battle_s) naming each pair of ships."""
    out: dict[frozenset[str], float] = {}
    for r in recs:
        if r.get("type") in EXCUSES:
            pair = frozenset(str(r[k]) for k in ("unit", "target", "by") if r.get(k) is not None)
            t = float(r.get("t_battle_s") or 0.0)
            if len(pair) == 2:
                out[pair] = min(t, out.get(pair, t))
    return out


def pass_throughs(track: BattleTrack, recs: Sequence[Rec], dims: Mapping[str, ShipDims]) -> list[PassThrough]:
    """Pairs whose hulls overlap in a frame before any ram or collision record names both (once a pair)."""
    pairs, clear = pair_clearances(track, dims)
    excused = _excused(recs)
    out = []
    for p, (i, j) in enumerate(pairs):
        over = np.nonzero(clear[p] < 0.0)[0]
        since = excused.get(frozenset((track.names[i], track.names[j])), np.inf)
        bad = [k for k in over if track.t_s[k] + SAME_TIME_S < since]
        if bad:
            out.append(PassThrough(track.names[i], track.names[j], float(track.t_s[bad[0]]),
                                   float(np.nanmin(clear[p]))))
    return out


def least_clearances(track: BattleTrack, dims: Mapping[str, ShipDims]) -> tuple[float | None, float | None]:
    """The least hull clearance (yd; negative: overlap) between consorts and between enemies, None if none."""
    pairs, clear = pair_clearances(track, dims)
    out: dict[bool, float | None] = {True: None, False: None}
    for p, (i, j) in enumerate(pairs):
        row = clear[p]
        if np.all(np.isnan(row)):
            continue
        same = track.sides.get(track.names[i]) == track.sides.get(track.names[j])
        least = float(np.nanmin(row))
        out[same] = least if out[same] is None else min(out[same], least)
    return out[True], out[False]


# -- (b) hits, (c) speed, (e) ends, (f) torpedoes ------------------------------------------------------

def own_side_hits(track: BattleTrack, recs: Sequence[Rec]) -> tuple[int, int]:
    """(hits by a ship of the side of the ship hit, all hits)."""
    hits = [r for r in recs if r.get("type") == "hit"]
    own = sum(1 for r in hits
              if r.get("by") in track.sides and track.sides[r["by"]] == track.sides.get(r.get("unit")))
    return own, len(hits)


def over_speed(track: BattleTrack, dims: Mapping[str, ShipDims],
               tol_yd: float = SPEED_TOL_YD) -> tuple[int, float | None]:
    """(moves between frames longer than her sustained speed allows plus ``tol_yd``, the worst ratio of a
    move to what her sustained speed allows), over the moves of ships afloat at their start."""
    dt_s = np.diff(track.t_s)
    if not len(dt_s):
        return 0, None
    moved = np.hypot(np.diff(track.x_yd, axis=1), np.diff(track.y_yd, axis=1))
    speed = np.array([dims[s].sustained_kn for s in track.names])[:, None]
    allowed = speed * YD_PER_NM * dt_s[None, :] / 3600.0
    ok = track.afloat[:, :-1] & (dt_s[None, :] > 0) & (allowed > 0)
    over = int(np.sum(ok & (moved > allowed + tol_yd)))
    ratio = moved[ok] / allowed[ok]
    return over, (float(ratio.max()) if ratio.size else None)


def late_hit_drawn_off(track: BattleTrack, recs: Sequence[Rec]) -> bool:
    """Did the battle end ``drawn_off`` with a hit in its last ``LATE_HIT_S``?"""
    last = track.duration_s - LATE_HIT_S
    return track.reason == "drawn_off" and any(
        r.get("type") == "hit" and float(r.get("t_battle_s") or 0.0) >= last - SAME_TIME_S for r in recs)


def ended_early(track: BattleTrack) -> bool:
    """Did the battle end ``separated`` or ``drawn_off`` within ``EARLY_END_S`` of its start?"""
    return track.reason in ("separated", "drawn_off") and track.duration_s <= EARLY_END_S + SAME_TIME_S


def torpedo_bearings(track: BattleTrack, recs: Sequence[Rec]) -> list[float]:
    """Each torpedo's target bearing off the firer's bow (deg, 0-180) in the frame it was fired in (or the
    last before), for the torpedo records whose firer and target are in the track."""
    index = {n: i for i, n in enumerate(track.names)}
    out = []
    for r in recs:
        if r.get("type") != "torpedo" or r.get("unit") not in index or r.get("target") not in index:
            continue
        k, i, j = track.frame_at(float(r.get("t_battle_s") or 0.0)), index[r["unit"]], index[r["target"]]
        out.append(float(bearing_off_bow_deg(track.x_yd[i, k], track.y_yd[i, k], track.course_deg[i, k],
                                             track.x_yd[j, k], track.y_yd[j, k])))
    return out


# -- (d) across the zoom -------------------------------------------------------------------------------

@dataclass(frozen=True)
class Relay:
    """A ship from the end of one battle to the start of her next: how far she was moved (yd), the most
    her sustained speed allows in the time between, and the excess (a jump beyond ``JUMP_TOL_YD``)."""

    ship: str
    from_battle: int
    to_battle: int
    moved_yd: float
    allowed_yd: float

    @property
    def excess_yd(self) -> float:
        return self.moved_yd - self.allowed_yd


def relays(tracks: Sequence[BattleTrack], dims: Mapping[str, ShipDims]) -> list[Relay]:
    """Every ship that fights in two battles, from each battle to her next (``tracks``: ``battle_tracks``)."""
    out = []
    last: dict[str, BattleTrack] = {}
    for tr in sorted(tracks, key=lambda t: (t.start_min, t.battle)):
        for j, ship in enumerate(tr.names):
            prev = last.get(ship)
            last[ship] = tr
            if prev is None:
                continue
            i = prev.names.index(ship)
            lat0, lon0 = prev.latlon(i, len(prev.t_s) - 1)
            lat1, lon1 = tr.latlon(j, 0)
            moved_yd = float(_GEOD.inv(lon0, lat0, lon1, lat1)[2]) / M_PER_YD
            gap_h = max(tr.start_min - (prev.start_min + prev.duration_s / 60.0), 0.0) / 60.0
            allowed_yd = dims[ship].sustained_kn * gap_h * YD_PER_NM
            out.append(Relay(ship, prev.battle, tr.battle, moved_yd, allowed_yd))
    return out


# -- a run, many runs ----------------------------------------------------------------------------------

@dataclass(frozen=True)
class BattleAudit:
    """One battle's measures."""

    battle: int
    engine: str
    reason: str
    duration_s: float
    pass_throughs: tuple[PassThrough, ...]
    consort_clearance_yd: float | None
    enemy_clearance_yd: float | None
    hits: int
    own_side_hits: int
    over_speed_moves: int
    speed_ratio: float | None
    late_hit_drawn_off: bool
    ended_early: bool
    torpedo_off_bow_deg: tuple[float, ...]


@dataclass(frozen=True)
class RunAudit:
    """A run's battles and its ships' relays from battle to battle."""

    battles: tuple[BattleAudit, ...]
    relays: tuple[Relay, ...]


def audit_battle(track: BattleTrack, recs: Sequence[Rec], dims: Mapping[str, ShipDims]) -> BattleAudit:
    """The measures of one battle from its track and its other records."""
    consorts, enemies = least_clearances(track, dims)
    own, hits = own_side_hits(track, recs)
    over, ratio = over_speed(track, dims)
    return BattleAudit(track.battle, track.engine, track.reason, track.duration_s,
                       tuple(pass_throughs(track, recs, dims)), consorts, enemies, hits, own, over, ratio,
                       late_hit_drawn_off(track, recs), ended_early(track),
                       tuple(torpedo_bearings(track, recs)))


def audit_run(records: Sequence[Rec], dims: Mapping[str, ShipDims] | None = None) -> RunAudit:
    """Audit every battle of one run's records (``dims`` default: ``ship_dims`` of its ships)."""
    tracks = battle_tracks(records)
    if dims is None:
        dims = ship_dims({n for t in tracks for n in t.names})
    battles = tuple(audit_battle(t, battle_records(records, t.battle), dims) for t in tracks)
    return RunAudit(battles, tuple(relays(tracks, dims)))


def _least(values: Iterable[float | None]) -> float | None:
    vals = [v for v in values if v is not None]
    return min(vals) if vals else None


def _most(values: Iterable[float | None]) -> float | None:
    vals = [v for v in values if v is not None]
    return max(vals) if vals else None


@dataclass(frozen=True)
class AuditSummary:
    """Many runs' measures together."""

    runs: int
    battles: int
    pass_throughs: int
    consort_clearance_yd: float | None
    enemy_clearance_yd: float | None
    hits: int
    own_side_hits: int
    over_speed_moves: int
    speed_ratio: float | None
    relays: int
    jumps: int
    worst_jump_yd: float | None  # the largest excess over what she could steam (0: none beyond it)
    late_hit_drawn_off: int
    ended_early: int
    torpedoes: int
    torpedoes_end_on: int

    @property
    def own_side_share(self) -> float | None:
        return self.own_side_hits / self.hits if self.hits else None


def summarise(runs: Sequence[RunAudit], jump_tol_yd: float = JUMP_TOL_YD, end_on_deg: float = END_ON_DEG
              ) -> AuditSummary:
    """The runs' battles and relays summed up: counts, the least clearances, the worst ratio and jump."""
    bs = [b for r in runs for b in r.battles]
    rs = [x for r in runs for x in r.relays]
    bearings = [d for b in bs for d in b.torpedo_off_bow_deg]
    return AuditSummary(
        len(runs), len(bs), sum(len(b.pass_throughs) for b in bs), _least(b.consort_clearance_yd for b in bs),
        _least(b.enemy_clearance_yd for b in bs), sum(b.hits for b in bs), sum(b.own_side_hits for b in bs),
        sum(b.over_speed_moves for b in bs), _most(b.speed_ratio for b in bs), len(rs),
        sum(1 for x in rs if x.excess_yd > jump_tol_yd), _most(max(x.excess_yd, 0.0) for x in rs),
        sum(b.late_hit_drawn_off for b in bs), sum(b.ended_early for b in bs), len(bearings),
        sum(1 for d in bearings if d <= end_on_deg or d >= 180.0 - end_on_deg))
