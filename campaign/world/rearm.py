"""Filling a ship's outfit at a base that holds her navy's ammunition (``data/ammunition.yaml``: bases, rearm).

A ship whose force comes into port at one of her navy's ammunition bases begins at once to take in what
she lacks of her outfit (``campaign.tactics.ammunition``), every ship of the force in parallel: a whole
outfit in ``rearm.full_outfit_h`` hours, a part in proportion to the part missing (by weight of round,
``ammunition.missing_share``). When the time is up she is full; a ship whose force sails before takes the
share of what she lacked that her time in port gave (each gun group in proportion, rounded down). Her
``rearm`` record says what she took in, where, in how long and why it ended ("full" or "sailed"). A ship
of a navy with no base in the theatre (the Germans) never fills up: she fights on what she carried in.
"""

from __future__ import annotations

import math
from collections.abc import Generator
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

import simpy

from campaign.tactics.ammunition import (
    default_ammunition_rules,
    missing_share,
    outfits,
    rounds_at_entry,
    rounds_left_by_gun,
)
from campaign.world.units import GONE, ForceState, ShipState

if TYPE_CHECKING:
    from campaign.geo.places import Place
    from campaign.world.world import World

FULL = "full"
SAILED = "sailed"


@dataclass(frozen=True)
class Rearming:
    """A ship taking in ammunition: where, since when (min) and how long she needs from then to be full."""

    place: str
    start_min: float
    need_min: float


def is_base_for(place_name: str, nation: str) -> bool:
    """Whether ``place_name`` holds ammunition for ``nation``'s ships (``data/ammunition.yaml``, bases)."""
    return place_name in default_ammunition_rules().bases_of(nation)


def time_to_fill_min(ship: ShipState) -> float:
    """Minutes she needs to fill her outfit from what she has now (0 if full)."""
    left = rounds_at_entry(ship.ship, ship.condition)
    return missing_share(ship.ship, left) * default_ammunition_rules().rearm_full_outfit_h * 60.0


def arrive(world: World, force: ForceState, place: Place) -> None:
    """A force has come into port at ``place``: each of its ships for whose navy the place is an ammunition
    base and who lacks rounds begins to take them in."""
    for ship in force.active_ships():
        if ship.name in world.rearming or not is_base_for(place.name, ship.ship.nation):
            continue
        need = time_to_fill_min(ship)
        if need <= 0.0:
            continue
        r = Rearming(place.name, world.env.now, need)
        world.rearming[ship.name] = r
        world.env.process(_until_full(world, ship, r))


def _until_full(world: World, ship: ShipState, r: Rearming) -> Generator[simpy.Event, Any, None]:
    yield world.env.timeout(r.need_min)
    if world.rearming.get(ship.name) is r:  # she has not sailed meanwhile
        settle(world, ship, FULL)


def leave(world: World, force: ForceState) -> None:
    """A force puts to sea: each of its ships still taking in ammunition keeps what she has taken."""
    for ship in force.ships:
        if ship.name in world.rearming:
            settle(world, ship, SAILED)


def settle(world: World, ship: ShipState, reason: str) -> None:
    """End her rearming now: full (``FULL``), or the share of what she lacked that the time gave her."""
    r = world.rearming.pop(ship.name)
    if ship.status in GONE:
        return
    hours = (world.env.now - r.start_min) / 60.0
    share = 1.0 if reason == FULL else min(1.0, max(0.0, (world.env.now - r.start_min) / r.need_min))
    before = rounds_at_entry(ship.ship, ship.condition)
    full = outfits(ship.ship)
    after = tuple(n + math.floor((cap - n) * share + 1e-9) for n, cap in zip(before, full))
    ship.condition = replace(ship.condition, rounds_left=None if after == full else after)
    world.emit(ship, "rearm", source=r.place, rounds_taken=sum(after) - sum(before), hours=round(hours, 2),
               reason=reason, rounds_left=rounds_left_by_gun(ship.ship, ship.condition))
