"""A battle's tick events as record fields, the same for the campaign's battles and the duels.

The campaign (``campaign.world.engagement``) writes each tick's events when the tick has run, with every
ship where the tick's last frame has her; a duel writes them the same way (``fight_written``), so that
one reader reads both (README, "What a run gives you"). ``tick_fields`` is the one translation of an
engine's ``TickEvent`` into record fields: who the other ship is (``by`` for a hit or a sinking, the
firer; ``target`` otherwise), the battle time and the engine's own data, with the names a record keeps
for itself renamed ``of_<name>`` rather than lost.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from campaign.tactics.battle import BattleOutcome, BattleRun
from campaign.tactics.localplane import LocalPlane
from campaign.tactics.protocol import BattleSetup, Engine, TickEvent

# A ship in a frame: (name, x_yd, y_yd, course_deg, speed_kn, afloat) (campaign.tactics.battle.Frame).
FrameRow = tuple[str, float, float, float, float, bool]

# Record fields an engine's event data may not take over: the record's own, and those every record of a
# ship carries (campaign.world.world.World.emit).
RESERVED = frozenset({"unit", "side", "lat", "lon", "t_min", "type", "t_s",
                      "force", "status", "coal_t", "coal_rate_t_per_h", "speed_kn", "course_deg"})
# The tick events whose other ship fired on the event's ship (protocol.TickEvent): their records call it "by".
BY_TYPES = frozenset({"hit", "sunk"})


def other_field(type_: str) -> str:
    """The name a record gives the event's other ship: ``by`` (the firer) for a hit or a sinking."""
    return "by" if type_ in BY_TYPES else "target"


def tick_fields(ev: TickEvent, battle: int, row: FrameRow | None) -> dict[str, Any]:
    """A tick event's record fields after the ship's bookkeeping (force, status, coal): ``speed_kn`` (kn,
    3 decimals) and ``course_deg`` (deg, 1 decimal) from her frame ``row`` (the tick's last; None: the
    event's ship is not in the frames, and the record has neither), then ``battle``, ``by``/``target``,
    ``t_battle_s`` (s since the battle began, the engine's time of the event) and the engine's data."""
    out: dict[str, Any] = {}
    if row is not None:
        out["speed_kn"] = round(float(row[4]), 3)
        out["course_deg"] = round(float(row[3]), 1)
    data: dict[str, Any] = {"battle": battle, other_field(ev.type): ev.target, "t_battle_s": round(ev.t_s, 1)}
    data.update({(f"of_{k}" if k in RESERVED else k): v for k, v in ev.data.items() if k not in data})
    out.update(data)
    return out


def row_latlon(row: FrameRow, plane: LocalPlane) -> tuple[float, float]:
    """Where the frame row puts the ship (lat, lon degrees) on the battle's plane."""
    return plane.to_latlon(row[1], row[2])


def fight_written(engine: Engine, setup: BattleSetup, rng: np.random.Generator,
                  **kw: Any) -> tuple[BattleOutcome, tuple[int, ...]]:
    """Fight straight through as ``campaign.tactics.battle.fight`` does (same dice, same outcome), and say
    for each event the index of the frame it is written with: the last of its tick, as the world writes
    a tick's events when it has run. Keeps the frames."""
    run = BattleRun(engine, setup, rng, **{**kw, "keep_frames": True})
    written: list[int] = []
    while run.advance() is not None:
        written.extend([len(run.frames) - 1] * (len(run.events) - len(written)))
    written.extend([len(run.frames) - 1] * (len(run.events) - len(written)))
    return run.outcome(), tuple(written)
