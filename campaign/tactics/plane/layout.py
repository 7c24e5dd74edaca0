"""A battle's ships laid on the plane so that no two hulls overlap as it opens.

The strategic world moves each force as one point, so two forces can come to a battle with hulls that
would overlap on the plane (two ships meeting head on by a dark night, seen only at a few hundred yards,
close them in seconds). Such a ship is laid where she was the moment before: back along her course,
``STEP_YD`` at a time, until her hull is ``CLEAR_YD`` clear of every other; the battle's records say how far
(``engagement_start``'s ``laid_back_yd``).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import replace

from campaign.tactics.plane.hull import Hull, Pose, clearance_yd
from campaign.tactics.protocol import Combatant

#: How far apart hulls are laid at the least (yd), and the step by which a ship is laid back.
CLEAR_YD = 20.0
STEP_YD = 10.0
#: No ship is laid back farther than this (yd): beyond it she stays, overlapping, and the engine's
#: plane keeps her from closing further (campaign.tactics.plane.motion).
MOST_YD = 4000.0


def clear_layout(combatants: Sequence[Combatant]) -> tuple[tuple[Combatant, ...], dict[str, float]]:
    """The combatants, each laid back along her course where her hull would overlap another's; and how far
    each that moved was laid back (yd)."""
    placed: list[Combatant] = []
    moved: dict[str, float] = {}
    for c in combatants:
        hull = Hull.of(c.ship)
        back = math.radians(c.course_deg + 180.0)
        d = 0.0
        x, y = c.x_yd, c.y_yd
        while d < MOST_YD and any(
                clearance_yd(Pose(x, y, c.course_deg), hull, Pose(o.x_yd, o.y_yd, o.course_deg), Hull.of(o.ship))
                < CLEAR_YD for o in placed):
            d += STEP_YD
            x, y = c.x_yd + d * math.sin(back), c.y_yd + d * math.cos(back)
        if d > 0.0:
            moved[c.name] = d
            c = replace(c, x_yd=x, y_yd=y)
        placed.append(c)
    return tuple(placed), moved
