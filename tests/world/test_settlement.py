"""The 1905 umpire settles a contact that lingers out of battle for over an hour (seed 002 l.35), as a
strategic device: under the nwc1905 rules only, and only where no battle is fought (by night)."""

from __future__ import annotations

from campaign.geo.earth import distance_nm
from campaign.tactics.kinematics import YD_PER_NM
from campaign.tactics.nwc1905_rules import load_rules
from campaign.world.settlement import ContactClock, close_range_yd
from campaign.world.units import ForceState, ShipState
from campaign.model.ships import find_ship
from tests.world.test_engagement import hunter, recs, run_world

GOEBEN_STILL = {"name": "Goeben", "side": "Central Powers", "ships": ["Goeben"], "start": {"lat": 36.0, "lon": 16.0},
                "orders": [{"do": "stop"}]}


class DarkNight:
    """A dark night everywhere, always: the 1905 fleet game fights no battle in it."""

    def light(self, lat: float, lon: float, t_min: float) -> str:
        return "dark_night"

    def visibility(self, lat: float, lon: float, t_min: float) -> float:
        return 1.0

    def next_change(self, motion, t0: float, t1: float) -> float | None:
        return None


def test_the_contact_clock_runs_only_without_a_break():
    clock = ContactClock()
    assert clock.look(True, 10.0) == 0.0 and clock.look(True, 40.0) == 30.0
    assert clock.look(False, 50.0) == 0.0 and clock.look(True, 60.0) == 0.0 and clock.look(True, 130.0) == 70.0


def test_the_close_distance_is_the_armoured_one_if_either_side_is_armoured():
    rules = load_rules()

    def force(name):
        f = ForceState(name, "s", "n")
        f.ships = [ShipState(find_ship(name), "s", f, 100.0, status="waiting")]
        return f

    assert close_range_yd(rules, force("Goeben"), force("Gloucester")) == 2000.0  # seed 002 l.35
    assert close_range_yd(rules, force("Breslau"), force("Gloucester")) == 4000.0


def test_a_cruiser_lingering_by_night_within_2000_yards_of_goeben_is_removed_after_the_hour(write_scenario):
    # Gloucester (one mile off) means to engage; in the dark the 1905 rules fight no battle, and after an
    # hour within 2,000 yards the umpire settles it by fighting values: Goeben outmatches her past 2:1.
    force, standing = hunter(lat=36.0, lon=16.02)
    w = run_world(write_scenario, [GOEBEN_STILL, force], standing, end="1914-08-02T06:00Z", engine="nwc1905",
                  conditions=DarkNight())
    assert not recs(w, "engagement_start")
    (s,) = recs(w, "settlement")
    assert s.data["superior"] == "Central Powers" and s.data["lots"] == {"Gloucester": "removed"}
    sunk = recs(w, "sunk", "Gloucester")
    assert sunk and sunk[0].data["cause"] == "settlement" and w.ships["Gloucester"].status == "sunk"
    # ... at the first look past the hour the two stayed within 2,000 yd.
    g = w.forces["Goeben"]
    assert s.t_min >= 60.0
    assert distance_nm(g.lat, g.lon, sunk[0].lat, sunk[0].lon) * YD_PER_NM <= 2000.0


def test_no_settlement_under_rules_that_fight_by_night(write_scenario):
    force, standing = hunter(lat=36.0, lon=16.02)
    w = run_world(write_scenario, [GOEBEN_STILL, force], standing, end="1914-08-02T03:00Z", engine="jane",
                  conditions=DarkNight())
    assert not recs(w, "settlement")
