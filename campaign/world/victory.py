"""The secret die rolls that choose each side's victory conditions (seed 000).

"Before the 1500 Aug. 3 turn, the German player chooses a number at random-makes a Secret Die Roll, SDR-and
the British player makes an SDR before the 0300, Aug. 4 turn" (seed 000, 'Victory Conditions'; the times
are on the 'Time Record'). Each number picks a column of points on that side's chart. In a run that is
scored under these rules (the scenario's ``scoring``), one process per draw waits for its time, throws a
die from the run's own ``scoring`` generator (campaign/world/world.py RNG_STREAMS) and writes a
``victory_conditions`` record: ``side``, ``player``, ``chart``, ``draw`` (the number), ``secret`` (true:
the other side does not know it). Nothing in the world reads the record; the score is computed from the
records after the run (campaign/output/scoring.py).

The draws and their times are data (data/scoring.yaml, ``rules.<name>.draws``).
"""

from __future__ import annotations

from collections.abc import Generator
from typing import TYPE_CHECKING, Any

import numpy as np
import simpy

from campaign.model.victory_rules import Draw, rules_name, victory_rules

if TYPE_CHECKING:
    from campaign.world.world import World

RECORD_TYPE = "victory_conditions"  # the type of the record each draw writes


def start(world: World) -> None:
    """Schedule the draws of the scenario's scoring rules, if it has any (``scenario.scoring``: a rules
    name such as ``"seed000"``, a mapping ``{"rules": ...}`` or an object with ``rules``)."""
    name = rules_name(getattr(world.scenario, "scoring", None))
    if name is None:
        return
    rules = victory_rules(name)
    for draw in rules.draws:
        world.env.process(draw_victory_conditions(world, draw, name))


def throw(rng: np.random.Generator, faces: int) -> int:
    """One secret die roll: a number from 1 to ``faces``, each equally likely (seed 000, 'The Secret Die
    Roll': counters numbered 1-6 drawn from a bag)."""
    return int(rng.integers(1, faces + 1))


def draw_time_min(world: World, draw: Draw) -> tuple[float, str | None]:
    """When the draw is made, minutes from the start, and why it moved if it did: a draw whose time falls
    outside the run (a scenario that starts after it, or ends before it) is made at the run's start, so
    that every scored run has both sides' conditions."""
    t = world.clock.t_min(draw.at)
    if 0.0 <= t < world.end_min:
        return t, None
    return 0.0, f"drawn at the start: the Time Record's {draw.at:%H%M %d %b} is outside the run"


def draw_victory_conditions(world: World, draw: Draw, rules: str) -> Generator[simpy.Event, Any, None]:
    """Wait for the draw's time, then throw a ``draw.faces``-sided die and record the number."""
    t_min, moved = draw_time_min(world, draw)
    if t_min > world.env.now:
        yield world.env.timeout(t_min - world.env.now)
    number = throw(world.rng["scoring"], draw.faces)
    extra = {"note": moved} if moved else {}
    world.rec.emit(world.env.now, "victory_conditions", None, draw.side, None, None, player=draw.player,
                   chart=draw.chart, draw=number, secret=True, rules=rules, **extra)
