"""The 1905 umpire's settlement of a lingering contact, as a strategic device (seed 002 l.35).

"When forces stay within 2,000 yards (armored) or 4,000 yards (unarmored) for over an hour, the umpire may
decide by relative fighting values": under the ``nwc1905`` rules, two hostile forces that may fire on
each other, one of them meaning to, that stay that close for over an hour without a battle being fought
(the fleet game has no night action, so by night they may: ``data/tactics/zoom.yaml``) are settled at
once by the ratio of their fighting values, each ship's lot (removed, half her endurance lost, crippled)
as the fleet game's own umpire gives it (``campaign.tactics.nwc1905.Nwc1905Battle.settle_contact``). A
superior force left crippled "must withdraw temporarily": its commander stops seeking the action and
shadows instead. ``ContactClock`` times each pair's contact; ``settle`` carries the decision out.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

import numpy as np

from campaign.tactics import nwc1905_fire as fire
from campaign.tactics.nwc1905 import Nwc1905Engine
from campaign.tactics.nwc1905_rules import Nwc1905Rules
from campaign.tactics.nwc1905_umpire import CRIPPLED
from campaign.tactics.protocol import BattleSetup, Combatant, Setting
from campaign.world.units import ForceState

if TYPE_CHECKING:
    from campaign.world.world import World


def close_range_yd(rules: Nwc1905Rules, a: ForceState, b: ForceState) -> float:
    """The distance within which the pair is in close contact: the armoured one if either has an armoured
    ship (battleships, armoured cruisers), else the unarmoured (seed 002 l.35)."""
    armoured = any(fire.kind_of(rules, s.ship) in rules.armoured_types for f in (a, b) for s in f.active_ships())
    return rules.settle_armoured_range_yd if armoured else rules.settle_unarmoured_range_yd


@dataclass
class ContactClock:
    """How long a pair has stayed in close contact without a break: ``since_min`` when it began (None: not
    in close contact at the last look)."""

    since_min: float | None = None

    def look(self, close: bool, now_min: float) -> float:
        """Note a look at ``now_min``; return the minutes the close contact has lasted (0 if broken)."""
        if not close:
            self.since_min = None
            return 0.0
        if self.since_min is None:
            self.since_min = now_min
        return now_min - self.since_min


def settle(world: World, rules: Nwc1905Rules, a: ForceState, b: ForceState, rng: np.random.Generator) -> bool:
    """Settle the pair's contact now: each ship's lot, its records, and a crippled superior's withdrawal.
    False if the odds give the umpire nothing to decide by (the contact goes on)."""
    now = world.env.now
    combatants = []
    for f in (a, b):
        for s in f.active_ships():
            top = max(s.ship.sustained_speed_kn - s.condition.speed_lost_kn, 0.0)
            combatants.append(Combatant(s.ship, f.name, f.side, 0.0, 0.0, f.course_deg, 0.0, top, None,
                                        s.condition))
    battle = Nwc1905Engine(rules).begin(
        BattleSetup(tuple(combatants), Setting(), {a.side: "engage", b.side: "engage"}), rng)
    events = battle.settle_contact()
    if events is None:
        return False
    lots = {e.ship: e.data for e in events}
    superior = next(iter(lots.values()))["superior"]
    world.rec.emit(now, "settlement", None, None, None, None, forces=[a.name, b.name], superior=superior,
                   ratio=next(iter(lots.values()))["ratio"], lots={n: d["settlement"] for n, d in lots.items()},
                   rule="seed 002: forces within 2,000 yd (armoured) or 4,000 yd (unarmoured) for over an hour")
    for f in (a, b):
        for s in f.active_ships():
            if s.name not in lots:
                continue
            s.condition = battle.condition(s.name)
            if s.condition.sunk:
                world.set_status(s, "sunk", 0.0)
            for e in events:
                if e.ship == s.name:
                    world.emit(s, e.type, cause="settlement", **{k: v for k, v in e.data.items() if k != "cause"})
    for f in (a, b):
        node = world.command.nodes.get(f.name)
        crippled = f.side == superior and any(lots.get(s.name, {}).get("settlement") == CRIPPLED for s in f.ships)
        if crippled and node is not None and node.standing.on_contact in ("chase", "engage"):
            node.standing = replace(node.standing, on_contact="shadow")
            world.rec.emit(now, "standing", f.name, f.side, None, None, changes={"on_contact": "shadow"}, by=f.name,
                           reason="crippled in the umpire's settlement, must withdraw temporarily (seed 002)")
        world.moved(f)
        if node is not None and f.active_ships():
            world.command.decide(node, "battle")
    return True
