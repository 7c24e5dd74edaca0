"""Units: a force's active ships are those not gone, whatever the statuses they carry."""

from __future__ import annotations

import itertools

from campaign.model.ships import default_ships
from campaign.world.units import GONE, STATUSES, ForceState, ShipState

SHIPS = list(default_ships().values())[:3]


def test_the_gone_statuses_are_the_three_that_leave_a_force() -> None:
    # A set (quick to ask of every ship): the statuses it holds, written out the long way.
    assert GONE == {"out_of_coal", "interned", "sunk"} and GONE <= set(STATUSES)


def test_the_active_ships_are_those_whose_status_is_not_gone() -> None:
    force = ForceState("Mittelmeerdivision", "central", "germany")
    force.ships = [ShipState(ship, "central", force, coal_t=100.0) for ship in SHIPS]
    for statuses in itertools.product(STATUSES, repeat=len(SHIPS)):
        for s, status in zip(force.ships, statuses):
            s.status = status
        want = [s for s in force.ships if s.status not in ("out_of_coal", "interned", "sunk")]
        assert force.active_ships() == want, statuses


def test_a_leg_runs_its_distance_and_stops_at_the_route_end() -> None:
    from campaign.geo.route import Route
    from campaign.world.units import Leg

    route = Route.through([37.9, 37.5, 36.8], [15.6, 17.0, 19.5])
    leg = Leg(route, t0_min=60.0, speed_kn=17.5, offset_nm=3.0)
    for t in (0.0, 60.0, 61.5, 300.0, 600.0, 1e4):
        assert leg.dist_at(t) == min(3.0 + 17.5 * (t - 60.0) / 60.0, leg.route.length_nm)
    assert leg.dist_at(1e4) == leg.route.length_nm
