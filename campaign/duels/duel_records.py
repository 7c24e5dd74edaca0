"""A duel's fight as the campaign's battle records, so that whatever reads a run's ``events.jsonl`` reads
a duel's (README, "What a run gives you").

The records are the campaign's (``campaign.world.engagement``), made by the same classes
(``campaign.records.Record``, ``Clock``) and the same translation of the engine's events
(``campaign.tactics.battle_records.tick_fields``): ``engagement_start`` for every ship, the tick events
as the engine gives them, each written with the last frame of its tick, ``engagement_end`` for every
ship and ``battle_track``. ``t_min`` counts minutes from the duel's ``when``, and ``t`` is that time in
UTC; positions are the ships' frames on a ``LocalPlane`` centred on the duel's ``where`` (where the first
side's leader starts). The duel is battle 1.

Where a duel knows less than the world: a ship's ``force`` is her side (a duel's side is one force);
``coal_t`` is null (a duel has no bunkers: what she burnt is ``engagement_end``'s ``coal_burnt_t``);
``place`` is null (at sea). As in the world, ``status`` is ``in_action`` in the battle, ``sunk`` from
her sinking, and after it ``waiting`` (or ``sunk``), with ``coal_rate_t_per_h`` 0 in action and
afterwards her fixed load stopped at sea, negative (``campaign.world.world.World.idle_rate``).
``engagement_start`` and ``engagement_end`` give her speed and course from her first and last frames
(the world's give 0 and null there: her force's leg has ended).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from campaign.clock import Clock
from campaign.duels.duel import Duel, fight_duel_written
from campaign.model.ships import default_ships, find_ship
from campaign.records import Recorder
from campaign.tactics.battle import BattleOutcome, Frame, track_columns
from campaign.tactics.battle_records import FrameRow, row_latlon, tick_fields
from campaign.tactics.localplane import LocalPlane

BATTLE = 1  # a duel is one battle


def _rows(frame: Frame) -> dict[str, FrameRow]:
    return {row[0]: row for row in frame.ships}


def _motion(row: FrameRow) -> dict[str, float]:
    return {"speed_kn": round(float(row[4]), 3), "course_deg": round(float(row[3]), 1)}


def duel_records(duel: Duel, out: BattleOutcome, written: Sequence[int]) -> list[dict[str, Any]]:
    """The fight's records as JSON objects in time order (the lines of ``events.jsonl``): ``out`` and
    ``written`` as ``campaign.duels.duel.fight_duel_written`` gives them."""
    if not out.frames:
        raise ValueError("a duel's records need its frames (fight it with fight_duel_written)")
    plane = LocalPlane(duel.lat, duel.lon)
    rec = Recorder()
    first, last = _rows(out.frames[0]), _rows(out.frames[-1])
    names = list(first)
    side = {n: out.final[n].side for n in names}
    force = {n: out.final[n].unit for n in names}
    status = dict.fromkeys(names, "in_action")
    forces = list(dict.fromkeys(force.values()))
    for n in names:
        rec.emit(0.0, "engagement_start", n, side[n], *row_latlon(first[n], plane), force=force[n],
                 status="in_action", coal_t=None, coal_rate_t_per_h=0.0, **_motion(first[n]), place=None,
                 battle=BATTLE, engine=out.engine, forces=forces)
    for ev, k in zip(out.events, written, strict=True):
        frame = out.frames[k]
        row = _rows(frame).get(ev.ship)
        fields = tick_fields(ev, BATTLE, row)
        if row is None:  # not a ship of the battle (as the world writes it: no ship's bookkeeping)
            of_side = fields.get("of_side")
            rec.emit(frame.t_s / 60.0, ev.type, None, of_side, **fields)
            continue
        if ev.type == "sunk":
            status[ev.ship] = "sunk"
        rec.emit(frame.t_s / 60.0, ev.type, ev.ship, side[ev.ship], *row_latlon(row, plane),
                 force=force[ev.ship], status=status[ev.ship], coal_t=None, coal_rate_t_per_h=0.0, **fields)
    end_min = out.duration_s / 60.0
    ships = default_ships()
    for n in names:
        c = out.conditions[n]
        idle = 0.0 if c.sunk else -float(find_ship(n, ships).consumption.t_per_h(0.0))
        rec.emit(end_min, "engagement_end", n, side[n], *row_latlon(last[n], plane), force=force[n],
                 status="sunk" if c.sunk else "waiting", coal_t=None, coal_rate_t_per_h=round(idle, 4),
                 **_motion(last[n]), place=None, battle=BATTLE, engine=out.engine, reason=out.reason,
                 duration_min=round(end_min, 1), damage=round(c.damage, 3), gunnery=round(c.gunnery, 3),
                 speed_lost_kn=round(c.speed_lost_kn, 2), sunk=c.sunk,
                 coal_burnt_t=round(out.coal_t.get(n, 0.0), 1), broke_off=list(out.broke_off))
    rec.emit(end_min, "battle_track", None, None, plane.lat0, plane.lon0, battle=BATTLE, engine=out.engine,
             reason=out.reason, start_min=0.0, sides=side, forces=force, **track_columns(out.frames))
    clock = Clock(duel.when)
    return [r.as_json(clock) for r in sorted(rec.records, key=lambda r: r.t_min)]


def fight_duel_records(duel: Duel, engine: str | None = None, seed: int = 0
                       ) -> tuple[BattleOutcome, list[dict[str, Any]]]:
    """Fight the duel once (as ``fight_duel``: the same outcome) and give its records."""
    out, written = fight_duel_written(duel, engine, seed)
    return out, duel_records(duel, out, written)
