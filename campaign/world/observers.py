"""Observers ashore: headquarters that overlook places (a consul, a signal station) and telegraph what
arrives there.

A headquarters whose scenario entry names places it ``overlooks`` sees every force that arrives at one
of them; when the force is an enemy of its side, it sends its superior a report naming the ships, the
place and the time, over the signal network like any other message (its headquarters' dispatch, the
telegraph's delays). Nothing is scripted: the report follows from the arrival, wherever and whenever
the run brings the force there. The Admiralty learnt of Goeben's arrival in the Dardanelles that way:
'Information received Dardanelles that "Goeben" and "Breslau" arrived there 8.30pm, 10th August'
(Admiralty to Milne, 11 Aug 1914, quoted at greatwarforum.org topic 306292).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from campaign.command.picture import Report
from campaign.geo.places import place_key

if TYPE_CHECKING:
    from campaign.scenario.model import HeadquartersSpec
    from campaign.world.units import ForceState
    from campaign.world.world import World


class Observers:
    """The headquarters of one world that overlook places, by the places they overlook."""

    def __init__(self, world: World) -> None:
        self.world = world
        self._by_place: dict[str, list[HeadquartersSpec]] = {}
        for hq in world.scenario.headquarters:
            for name in hq.overlooks:
                self._by_place.setdefault(place_key(name), []).append(hq)

    def arrived(self, force: ForceState) -> None:
        """A force has arrived where it now lies: every observer overlooking the place who is its enemy
        reports it to his superior."""
        if not self._by_place or force.place is None or not force.active_ships():
            return
        world = self.world
        net = world.command.net
        now = world.env.now
        for hq in self._by_place.get(place_key(force.place), ()):
            if hq.superior is None or hq.superior not in world.command.nodes or not net.hostile(hq.side, force.side):
                continue
            ships = tuple(s.name for s in force.active_ships())
            about = " & ".join(ships)
            report = Report(about, now, float(force.lat), float(force.lon), None, 0.0, "recognised", ships,
                            len(ships), source=f"seen by {hq.name}", place=force.place)
            when = world.clock.iso(now)
            net.send(hq.name, hq.superior, "report", report.as_content(),
                     f"{hq.name}: {about} arrived at {force.place} {when}")
