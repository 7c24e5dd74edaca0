"""The weather's effects in the running world: head seas slow low-freeboard ships, rough seas stop coaling
from a collier.

Every figure comes from its source: the head-sea loss, its angle and the states from ``data/weather.yaml``
(Jane, seed 004: "Low freeboard ships lose 3 knots in a head sea"; coaling alongside only in a quiet sea,
Zimmer 1916), speeds, bunkers and transfer rates from ``data/ships.yaml``. The weather is scripted inline,
so the sea is known exactly where and when it matters.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

import pytest

from campaign.clock import parse_utc
from campaign.geo.earth import distance_nm
from campaign.model.ships import default_ships
from campaign.world.units import STATUSES
from campaign.world.weather import default_params, freeboard_class
from tests.conftest import scenario_dict
from tests.world.helpers import one, records, run_file

SHIPS = default_ships()
RULES = default_params().effects
START = "1914-08-02T00:00Z"
END = "1914-08-04T00:00Z"

# Sea states, from the rules' thresholds: a head sea counts from head_sea_min_state; a collier lies
# alongside up to coaling_max_state.
ROUGH = RULES.head_sea_min_state + 1  # state 5: a head sea, and too rough to coal alongside
GALE = RULES.very_bad_weather_min_state  # Jane's "very bad weather"
CALM = 0  # the bottom of the scale (Beaufort 0, "sea like a mirror")

# A leg due north along a meridian in the open Ionian Sea: one geodesic, course 0 (true) all the way.
SOUTH, NORTH, LON = 34.0, 36.0, 18.0
DUE_NORTH_DEG = 0.0
DIST_NM = distance_nm(SOUTH, LON, NORTH, LON)  # WGS84 geodesic (the records round it to 0.01 nm)

DESTROYER = "Beagle"  # Beagle class: a destroyer, low-freeboard by type
BATTLECRUISER = "Indomitable"  # Invincible class: high-freeboard


def test_the_ships_and_states_are_what_the_tests_assume() -> None:
    assert freeboard_class(SHIPS[DESTROYER], RULES) == "low"
    assert freeboard_class(SHIPS[BATTLECRUISER], RULES) == "high"
    assert RULES.head_sea_loss_kn > 0
    assert CALM < RULES.head_sea_min_state and CALM <= RULES.coaling_max_state
    assert ROUGH > RULES.coaling_max_state and GALE > RULES.coaling_max_state


def at(hours: float) -> str:
    """The UTC time ``hours`` after the scenario's start, as a scenario file writes it."""
    return (parse_utc(START) + timedelta(hours=hours)).strftime("%Y-%m-%dT%H:%MZ")


def sea(start_h: float, state: int, wind_from_deg: float = DUE_NORTH_DEG, end_h: float | None = None) -> dict:
    """A scripted period in every region from ``start_h`` hours after the start (to ``end_h``, or on)."""
    period: dict[str, Any] = {"start": at(start_h), "region": "all", "state": state, "wind_from_deg": wind_from_deg,
                              "barometer": "steady"}
    if end_h is not None:
        period["end"] = at(end_h)
    return period


def t_min_of(when: str | datetime) -> float:
    return (parse_utc(when) - parse_utc(START)).total_seconds() / 60.0


# ------------------------------------------------------------------------------------------- head sea


def steam_north(ships: list[str], speed: str | float, script: list[dict]) -> dict:
    return scenario_dict([{"name": "F", "side": "Entente", "ships": ships, "start": {"lat": SOUTH, "lon": LON},
                           "orders": [{"do": "sail", "to": {"lat": NORTH, "lon": LON}, "speed": speed}]}],
                         start=START, end=END, weather={"script": script})


def leg_hours(dep: dict, arr: dict) -> float:
    assert dep["dist_nm"] == pytest.approx(DIST_NM, abs=0.005)  # the open-sea route is the one geodesic
    return (arr["t_min"] - dep["t_min"]) / 60.0


def test_a_destroyer_into_a_head_sea_makes_design_less_the_loss(write_scenario) -> None:
    result = run_file(write_scenario(steam_north([DESTROYER], "design", [sea(0, ROUGH)])))
    dep, arr = one(result, DESTROYER, "depart"), one(result, DESTROYER, "arrive")
    speed_kn = SHIPS[DESTROYER].design_speed_kn - RULES.head_sea_loss_kn
    assert dep["course_deg"] == pytest.approx(DUE_NORTH_DEG, abs=0.1)
    assert dep["speed_kn"] == pytest.approx(speed_kn)
    assert dep["speed_reason"] == "head sea" and dep["sea_state"] == ROUGH
    assert leg_hours(dep, arr) == pytest.approx(DIST_NM / speed_kn, rel=1e-6)
    assert not records(result, DESTROYER, "speed_change")  # the sea does not change under her


@pytest.mark.parametrize("wind_from_deg", [
    DUE_NORTH_DEG + RULES.head_sea_half_angle_deg / 2,  # on the bow: still a head sea
    (DUE_NORTH_DEG + 360.0 - RULES.head_sea_half_angle_deg / 2) % 360.0,  # on the other bow
])
def test_a_sea_on_the_bow_is_a_head_sea(write_scenario, wind_from_deg) -> None:
    result = run_file(write_scenario(steam_north([DESTROYER], "design", [sea(0, ROUGH, wind_from_deg)])))
    dep = one(result, DESTROYER, "depart")
    assert dep["speed_kn"] == pytest.approx(SHIPS[DESTROYER].design_speed_kn - RULES.head_sea_loss_kn)


@pytest.mark.parametrize("wind_from_deg", [
    (DUE_NORTH_DEG + 180.0) % 360.0,  # astern
    DUE_NORTH_DEG + 2 * RULES.head_sea_half_angle_deg,  # on the beam
])
def test_a_destroyer_with_the_sea_astern_or_abeam_keeps_her_speed(write_scenario, wind_from_deg) -> None:
    result = run_file(write_scenario(steam_north([DESTROYER], "design", [sea(0, ROUGH, wind_from_deg)])))
    dep, arr = one(result, DESTROYER, "depart"), one(result, DESTROYER, "arrive")
    speed_kn = SHIPS[DESTROYER].design_speed_kn
    assert dep["speed_kn"] == pytest.approx(speed_kn) and "speed_reason" not in dep
    assert leg_hours(dep, arr) == pytest.approx(DIST_NM / speed_kn, rel=1e-6)


def test_a_battlecruiser_keeps_her_speed_in_a_head_sea(write_scenario) -> None:
    result = run_file(write_scenario(steam_north([BATTLECRUISER], "design", [sea(0, ROUGH)])))
    dep, arr = one(result, BATTLECRUISER, "depart"), one(result, BATTLECRUISER, "arrive")
    speed_kn = SHIPS[BATTLECRUISER].design_speed_kn
    assert dep["speed_kn"] == pytest.approx(speed_kn) and "speed_reason" not in dep
    assert leg_hours(dep, arr) == pytest.approx(DIST_NM / speed_kn, rel=1e-6)


def test_a_squadron_makes_what_its_slowest_ship_can_make_into_the_sea(write_scenario) -> None:
    result = run_file(write_scenario(steam_north([BATTLECRUISER, DESTROYER], "design", [sea(0, ROUGH)])))
    expected = min(SHIPS[BATTLECRUISER].design_speed_kn,
                   SHIPS[DESTROYER].design_speed_kn - RULES.head_sea_loss_kn)
    speeds = {e["unit"]: e["speed_kn"] for e in records(result, type_="depart")}
    assert speeds == {BATTLECRUISER: pytest.approx(expected), DESTROYER: pytest.approx(expected)}


def test_a_speed_ordered_below_what_the_sea_allows_stands(write_scenario) -> None:
    ordered_kn = SHIPS[DESTROYER].design_speed_kn - 2 * RULES.head_sea_loss_kn
    dep = one(run_file(write_scenario(steam_north([DESTROYER], ordered_kn, [sea(0, ROUGH)]))), DESTROYER, "depart")
    assert dep["speed_kn"] == pytest.approx(ordered_kn) and "speed_reason" not in dep


def test_the_loss_begins_exactly_when_the_sea_gets_up_mid_leg(write_scenario) -> None:
    rise_h = 2.0
    result = run_file(write_scenario(steam_north([DESTROYER], "design", [sea(0, CALM), sea(rise_h, ROUGH)])))
    dep, arr = one(result, DESTROYER, "depart"), one(result, DESTROYER, "arrive")
    change = one(result, DESTROYER, "speed_change")
    design_kn = SHIPS[DESTROYER].design_speed_kn
    slow_kn = design_kn - RULES.head_sea_loss_kn
    assert dep["speed_kn"] == pytest.approx(design_kn)
    assert change["t_min"] == pytest.approx(rise_h * 60.0)
    assert change["speed_kn"] == pytest.approx(slow_kn) and change["reason"] == "head sea"
    assert change["sea_state"] == ROUGH
    run_nm = design_kn * rise_h
    assert change["route_offset_nm"] == pytest.approx(run_nm, abs=1e-3)
    assert arr["t_min"] == pytest.approx(rise_h * 60.0 + (DIST_NM - run_nm) / slow_kn * 60.0, abs=1e-3)
    # Coal: the curve at each speed, for the time at each.
    burn = SHIPS[DESTROYER].consumption
    burnt_t = burn.t_per_h(design_kn) * rise_h + burn.t_per_h(slow_kn) * (arr["t_min"] / 60.0 - rise_h)
    assert dep["coal_t"] - arr["coal_t"] == pytest.approx(burnt_t, abs=0.02)
    assert one(result, DESTROYER, "end")["run_nm"] == pytest.approx(DIST_NM, abs=0.01)


def test_the_loss_ends_exactly_when_the_sea_goes_down_mid_leg(write_scenario) -> None:
    ease_h = 2.0
    result = run_file(write_scenario(steam_north([DESTROYER], "design", [sea(0, ROUGH), sea(ease_h, CALM)])))
    dep, arr = one(result, DESTROYER, "depart"), one(result, DESTROYER, "arrive")
    change = one(result, DESTROYER, "speed_change")
    design_kn = SHIPS[DESTROYER].design_speed_kn
    slow_kn = design_kn - RULES.head_sea_loss_kn
    assert dep["speed_kn"] == pytest.approx(slow_kn)
    assert change["t_min"] == pytest.approx(ease_h * 60.0) and change["reason"] == "head sea eased"
    assert change["speed_kn"] == pytest.approx(design_kn)
    run_nm = slow_kn * ease_h
    assert arr["t_min"] == pytest.approx(ease_h * 60.0 + (DIST_NM - run_nm) / design_kn * 60.0, abs=1e-3)


def test_a_change_of_weather_that_leaves_the_speed_alone_writes_nothing(write_scenario) -> None:
    # The sea rises astern: the weather changes mid-leg, the destroyer's speed does not.
    astern = (DUE_NORTH_DEG + 180.0) % 360.0
    script = [sea(0, CALM, astern), sea(2.0, ROUGH, astern)]
    result = run_file(write_scenario(steam_north([DESTROYER], "design", script)))
    assert not records(result, DESTROYER, "speed_change")
    assert one(result, DESTROYER, "depart")["speed_kn"] == pytest.approx(SHIPS[DESTROYER].design_speed_kn)


def test_the_tracks_follow_the_slowed_leg(write_scenario) -> None:
    rise_h = 2.0
    result = run_file(write_scenario(steam_north([DESTROYER], "design", [sea(0, CALM), sea(rise_h, ROUGH)])))
    tracks = result.tracks.sel(unit=DESTROYER)
    slow_kn = SHIPS[DESTROYER].design_speed_kn - RULES.head_sea_loss_kn
    underway = tracks.status == STATUSES.index("underway")
    after = tracks.where((tracks.t_min > rise_h * 60.0) & underway, drop=True)
    assert after.sizes["time"] > 0
    assert float(after.speed_kn.max()) == pytest.approx(slow_kn)


# ------------------------------------------------------------------------------------------- coaling

COLLIER = "Bogadir"
RATE_T_PER_H = SHIPS[COLLIER].transfer_rate_t_per_h
RENDEZVOUS = "Denusa anchorage"  # an open anchorage in the Aegean, where the historical collier met Goeben


def coal_at(place: str, cargo_t: float, coal_t: float, script: list[dict], **order: Any) -> dict:
    """Goeben and the collier lying together at ``place`` from the start; Goeben coals from her."""
    forces = [{"name": COLLIER, "side": "Central Powers", "ships": [COLLIER], "start": place, "cargo_t": cargo_t,
               "orders": [{"do": "stop"}]},
              {"name": "Goeben", "side": "Central Powers", "ships": ["Goeben"], "start": place, "coal_t": coal_t,
               "orders": [{"do": "coal_from_collier", "collier": COLLIER, **order}]}]
    return scenario_dict(forces, start=START, end=END, weather={"script": script})


def test_coaling_at_sea_waits_for_the_calm_then_takes_the_same_coal(write_scenario) -> None:
    cargo_t, calm_h = 500.0, 18.0
    calm = run_file(write_scenario(coal_at(RENDEZVOUS, cargo_t, 1000.0, [sea(0, CALM)])))
    rough = run_file(write_scenario(coal_at(RENDEZVOUS, cargo_t, 1000.0, [sea(0, ROUGH), sea(calm_h, CALM)])))
    assert not records(calm, "Goeben", "coal_delayed")
    delayed = one(rough, "Goeben", "coal_delayed")
    assert delayed["t_min"] == 0.0 and delayed["sea_state"] == ROUGH and delayed["status"] == "waiting"
    assert delayed["source"] == COLLIER
    start, end = one(rough, "Goeben", "coal_start"), one(rough, "Goeben", "coal_end")
    assert start["t_min"] == pytest.approx(calm_h * 60.0)
    assert start["rate_t_per_h"] == pytest.approx(RATE_T_PER_H)
    assert end["reason"] == "collier empty"
    assert end["taken_t"] == pytest.approx(one(calm, "Goeben", "coal_end")["taken_t"], abs=0.02)
    assert end["taken_t"] == pytest.approx(cargo_t, abs=0.02)
    assert (end["t_min"] - start["t_min"]) / 60.0 == pytest.approx(cargo_t / RATE_T_PER_H, rel=1e-6)
    # Waiting, stopped at sea, she burnt her fixed load (data/ships.yaml, consumption at 0 kn).
    fixed_t = SHIPS["Goeben"].consumption.t_per_h(0.0) * calm_h
    assert start["coal_t"] == pytest.approx(1000.0 - fixed_t, abs=0.02)


def test_a_gale_stops_the_transfer_at_the_change_and_it_resumes_in_the_calm(write_scenario) -> None:
    cargo_t, gale_h, calm_h = 800.0, 3.0, 9.0
    script = [sea(0, CALM), sea(gale_h, GALE), sea(calm_h, CALM)]
    result = run_file(write_scenario(coal_at(RENDEZVOUS, cargo_t, 1000.0, script)))
    starts, ends = records(result, "Goeben", "coal_start"), records(result, "Goeben", "coal_end")
    assert [s["t_min"] for s in starts] == pytest.approx([0.0, calm_h * 60.0])
    assert ends[0]["t_min"] == pytest.approx(gale_h * 60.0)
    assert ends[0]["reason"] == "weather" and ends[0]["sea_state"] == GALE and ends[0]["status"] == "waiting"
    assert ends[0]["taken_t"] == pytest.approx(RATE_T_PER_H * gale_h, abs=0.02)
    assert ends[1]["reason"] == "collier empty"
    assert ends[1]["taken_t"] == pytest.approx(cargo_t - RATE_T_PER_H * gale_h, abs=0.02)
    assert ends[1]["t_min"] == pytest.approx(calm_h * 60.0 + (cargo_t / RATE_T_PER_H - gale_h) * 60.0, abs=1e-3)
    assert not records(result, "Goeben", "coal_delayed")  # the coal_end said why
    # The collier stops giving at the gale and gives again in the calm; she gives what Goeben took.
    transfer_ends = records(result, COLLIER, "transfer_end")
    assert transfer_ends[0]["t_min"] == pytest.approx(gale_h * 60.0)
    assert one(result, COLLIER, "end")["given_t"] == pytest.approx(cargo_t, abs=0.02)


def test_a_transfer_stopped_by_the_sea_resumes_only_within_the_orders_time(write_scenario) -> None:
    gale_h, until_h, calm_h = 3.0, 6.0, 9.0
    script = [sea(0, CALM), sea(gale_h, GALE), sea(calm_h, CALM)]
    result = run_file(write_scenario(coal_at(RENDEZVOUS, 800.0, 1000.0, script, until=at(until_h))))
    end = one(result, "Goeben", "coal_end")
    assert end["reason"] == "weather" and end["t_min"] == pytest.approx(gale_h * 60.0)
    assert len(records(result, "Goeben", "coal_start")) == 1
    assert not records(result, "Goeben", "order_failed")


def test_hours_count_from_when_the_coal_begins_to_flow(write_scenario) -> None:
    hours, calm_h = 2.0, 6.0
    result = run_file(write_scenario(coal_at(RENDEZVOUS, 800.0, 1000.0, [sea(0, ROUGH), sea(calm_h, CALM)],
                                             hours=hours)))
    start, end = one(result, "Goeben", "coal_start"), one(result, "Goeben", "coal_end")
    assert start["t_min"] == pytest.approx(calm_h * 60.0)
    assert end["reason"] == "ordered time" and end["t_min"] == pytest.approx((calm_h + hours) * 60.0)
    assert end["taken_t"] == pytest.approx(RATE_T_PER_H * hours, abs=0.02)


def test_a_sea_that_never_allows_it_fails_the_order_at_its_time(write_scenario) -> None:
    until_h = 6.0
    result = run_file(write_scenario(coal_at(RENDEZVOUS, 800.0, 1000.0, [sea(0, ROUGH)], until=at(until_h))))
    assert one(result, "Goeben", "coal_delayed")["t_min"] == 0.0
    assert not records(result, "Goeben", "coal_start")
    failed = one(result, "Goeben", "order_failed")
    assert failed["t_min"] == pytest.approx(until_h * 60.0) and "sea" in failed["reason"]


def test_a_ship_waiting_for_the_sea_runs_dry_where_her_fixed_load_says(write_scenario) -> None:
    calm_h, dry_h = 18.0, 6.0
    coal_t = SHIPS["Goeben"].consumption.t_per_h(0.0) * dry_h
    result = run_file(write_scenario(coal_at(RENDEZVOUS, 800.0, coal_t, [sea(0, ROUGH), sea(calm_h, CALM)])))
    assert one(result, "Goeben", "out_of_coal")["t_min"] == pytest.approx(dry_h * 60.0, abs=1e-3)
    assert not records(result, "Goeben", "coal_start")


def test_coaling_from_a_collier_in_port_ignores_the_sea(write_scenario) -> None:
    result = run_file(write_scenario(coal_at("Piraeus", 500.0, 1000.0, [sea(0, GALE)])))
    assert not records(result, "Goeben", "coal_delayed")
    assert one(result, "Goeben", "coal_start")["t_min"] == 0.0
    assert one(result, "Goeben", "coal_end")["taken_t"] == pytest.approx(500.0, abs=0.02)
