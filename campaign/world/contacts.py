"""The world's eyes: keeps the sighting model told of every force's motion, and records what is seen.

``Contacts`` turns a force's state into a ``Motion`` snapshot whenever the world changes it, hands it
to the ``SightingModel`` (which predicts and schedules contacts), and writes the model's changes as
``sighting`` and ``contact_lost`` records. Whoever must know what was seen (the command layer) subscribes
with ``listen``; the records are the umpire's, the truth.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from campaign.geo.sightline import SightLines
from campaign.model.ships import Ship
from campaign.world.environment import HeldBack
from campaign.world.motion import Motion
from campaign.world.sighting import LEVELS, Conditions, SightingModel, SightingRules, default_sighting_rules
from campaign.world.units import ForceState, ShipState

if TYPE_CHECKING:
    from campaign.world.world import World

Listener = Callable[[str, str, int, int, Mapping[str, Any]], None]


def motion_of(force: ForceState, version: int, now: float) -> Motion:
    """The motion a force has planned from ``now``: its leg, or lying where it is."""
    leg = force.leg
    if leg is None:
        return Motion(version, now, force.lat, force.lon)
    end_lat, end_lon = leg.route.lats[-1], leg.route.lons[-1]
    return Motion(version, leg.t0_min, end_lat, end_lon, leg.route, leg.speed_kn, leg.offset_nm)


def same_future(old: Motion, new: Motion, now: float) -> bool:
    """True if ``new`` only restates what ``old`` already foretold from ``now`` on (an arrival, or a
    leg restarted where it was at the same speed)."""
    if new.route is None:
        if old.route is not None and old.end_min > now + 1e-6:
            return False
        return abs(old.position(now)[0] - new.lat) < 1e-9 and abs(old.position(now)[1] - new.lon) < 1e-9
    return (old.route is new.route and old.speed_kn == new.speed_kn
            and abs(old.dist_at(now) - new.dist_at(now)) < 1e-9)


class Contacts:
    """Sighting for one world: motions in, records and notifications out."""

    def __init__(self, world: World, conditions: Conditions, rules: SightingRules | None = None) -> None:
        self.world = world
        self.versions: dict[str, int] = {}
        self.current: dict[str, Motion] = {}
        self.crews: dict[str, tuple[str, ...]] = {}  # the ships of each force its motion was told with
        self.leads: dict[str, ShipState] = {}  # each force's lead ship when last it had one afloat
        self.history: dict[str, list[Motion | None]] = {}  # every motion told to the model, for checks
        self.listeners: list[Listener] = []
        rules = (rules or default_sighting_rules()).scaled(world.scenario.factors.sighting_range)
        self.model = SightingModel(world.env, rules, conditions,
                                   world.rng["sighting"], world.end_min, hostile=self.hostile,
                                   ships_of=self.ships_of, on_change=self._on_change,
                                   sight_lines=SightLines(world.router.graph.land))
        # The model is told of a motion when the world settles (before any event is scheduled, at the
        # end of the step): a force that ends its leg and starts another in the same breath has its
        # predictions made once, for the new leg. Telling schedules events and changes no contact, so
        # nothing can have seen the difference.
        self.untold = HeldBack(world.env, self._tell)

    def listen(self, fn: Listener) -> None:
        self.listeners.append(fn)

    # -- from the world -------------------------------------------------------------------------

    def moved(self, force: ForceState) -> None:
        """The force's motion may have changed: tell the model if it has."""
        now = self.world.env.now
        active = force.active_ships()
        if not active:
            self.gone(force)
            return
        self.leads[force.name] = active[0]
        version = self.versions.get(force.name, 0) + 1
        motion = motion_of(force, version, now)
        old = self.current.get(force.name)
        # How far a force is seen depends on its ships (its biggest hull, its smoke): one that lost a
        # ship (detached, out of coal, sunk) is predicted afresh even if its motion goes on unchanged.
        crew = tuple(s.ship.name for s in active)
        if old is not None and same_future(old, motion, now) and self.crews.get(force.name) == crew:
            return
        self.crews[force.name] = crew
        self.versions[force.name] = version
        self.current[force.name] = motion
        self.untold.put(force.name, motion)

    def _tell(self, force: str, motion: Motion) -> None:
        """Hand the model a force's motion (when the world settles: see ``untold``)."""
        self.history.setdefault(force, []).append(motion)
        self.model.update(force, motion)

    def gone(self, force: ForceState) -> None:
        if force.name in self.current:
            self.untold.settle()  # what it did before it went, first
            del self.current[force.name]
            self.model.update(force.name, None)

    def hostile(self, a: str, b: str) -> bool:
        """Forces of two different sides, neither of them neutral, keep watch on each other.

        The answer for two names holds for the whole run (a force keeps its side, and the scenario's
        neutral sides are fixed): the sighting model asks once per pair and remembers it."""
        fa, fb = self.world.forces[a], self.world.forces[b]
        neutral = self.world.scenario.neutral_sides
        return fa.side != fb.side and fa.side not in neutral and fb.side not in neutral

    def ships_of(self, name: str) -> list[Ship]:
        return [s.ship for s in self.world.forces[name].active_ships()] or [s.ship for s in self.world.forces[name].ships]

    # -- to the records and the listeners -------------------------------------------------------

    def _on_change(self, observer: str, target: str, old: int, new: int, info: Mapping[str, Any]) -> None:
        world = self.world
        obs = world.forces[observer]
        # A force whose last ship has just left it (out of coal, detached) loses its contacts as it goes:
        # the record is its last lead's, where she is.
        crew = obs.active_ships() or obs.ships
        lead = crew[0] if crew else self.leads.get(observer)
        if lead is None:
            return
        tgt_ships = self.ships_of(target)
        # A contact lost because a force is gone (sunk, interned) has no range: the record leaves it out.
        r_nm = info["range_nm"]
        data: dict[str, Any] = {"observer": observer, "target": target,
                                "range_nm": None if r_nm != r_nm else round(r_nm, 3)}
        if new == 0:
            world.emit(lead, "contact_lost", **data, previous=LEVELS[old])
        else:
            seen: Any
            if new == 3:
                seen = [f"{s.name} ({s.type.replace('_', ' ')})" for s in tgt_ships]
            elif new == 2:
                seen = f"{len(tgt_ships)} ship{'s' if len(tgt_ships) > 1 else ''}"
            else:
                seen = "smoke"
            world.emit(lead, "sighting", **data, level=LEVELS[new], previous=LEVELS[old], recognised=seen,
                       bearing_deg=round(info.get("bearing_deg", 0.0), 1), light=info.get("light"),
                       visibility=round(info.get("visibility", 1.0), 3))
        for fn in self.listeners:
            fn(observer, target, old, new, info)
