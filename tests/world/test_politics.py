"""Politics in the running world: neutral belts and closed straits obeyed, rules of engagement by message."""

from __future__ import annotations

import shapely
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from campaign.geo import earth
from campaign.geo.land import default_land
from campaign.geo.regions import restricted_waters, territorial_belt
from campaign.scenario.loader import load_scenario
from campaign.world.conditions import ClearDay
from campaign.world.world import World
from tests.conftest import scenario_dict

ITALY_6NM = territorial_belt("Italy", 6.0).geometry
DARDANELLES = next(r for r in restricted_waters() if r.name == "Dardanelles").area.geometry

# Italy's belt for the British from the start of the second hour (seed 000 "Italian Neutrality";
# Churchill p.96), and the Straits closed until the Germans are let in.
BELT_AT_1H = [{"at": "1914-08-02T01:00Z", "keep_out": {"who": ["United Kingdom"], "sovereign": "Italy", "width_nm": 6}},
              {"at": "1914-08-02T00:00Z", "war": ["Germany", "France"]}]


def run_world(write_scenario, forces, *, politics=None, command=None, messages=None, end="1914-08-03T12:00Z"):
    content = scenario_dict(forces, start="1914-08-02T00:00Z", end=end)
    for key, value in (("politics", politics), ("command", command), ("messages", messages)):
        if value:
            content[key] = value
    world = World(load_scenario(write_scenario(content)), 0, conditions=ClearDay())
    world.run()
    return world


def recs(world, type_=None, unit=None):
    return [r for r in world.rec.records if (type_ is None or r.type == type_) and (unit is None or r.unit == unit)]


def track_after(world, unit: str, t_min: float) -> shapely.LineString:
    """The unit's track from ``t_min`` on, sampled finely from the records' legs."""
    force = world.forces[unit]
    ts = [t_min + k * 2.0 for k in range(int((world.end_min - t_min) / 2.0))]
    pts = [force.position_at(t)[:2] for t in ts]
    return shapely.LineString([(lon, lat) for lat, lon in pts])


def test_a_force_under_way_replans_round_a_belt_that_closes_ahead_of_it(write_scenario) -> None:
    # Chatham from the Ionian to the Tyrrhenian: the shortest way is the Strait of Messina, Italian
    # waters; an hour after she sails Italy's belt closes to the British and she goes round Sicily.
    w = run_world(write_scenario, [
        {"name": "Chatham", "side": "Entente", "ships": ["Chatham"], "start": {"lat": 37.6, "lon": 16.2},
         "orders": [{"do": "sail", "to": {"lat": 38.5, "lon": 15.3}, "speed": 20}]},
    ], politics=BELT_AT_1H)
    deps = recs(w, "depart", "Chatham")
    first = shapely.LineString([(lon, lat) for lat, lon in deps[0].data["route"]])
    assert first.intersects(ITALY_6NM), "without the belt the way lies through the strait"
    assert [r.data["kind"] for r in recs(w, "politics")] == ["war", "keep_out"]
    replan = recs(w, "course_change", "Chatham")
    assert replan and replan[0].t_min == 60.0 and "belt:Italy:6nm" in replan[0].data["reason"]
    assert replan[0].data["dist_nm"] > 4 * deps[0].data["dist_nm"]  # round Sicily
    assert not track_after(w, "Chatham", 60.0 + 1.0).intersects(ITALY_6NM)
    assert recs(w, "arrive", "Chatham")


def test_a_force_inside_waters_closed_to_it_leaves_them_by_the_nearest_way(write_scenario) -> None:
    # Dublin lies 3 nm off Capo Spartivento (Calabria) when Italy's belt closes to the British at 01:00:
    # she steams straight out of it at once (she does not lie on in it), and at 02:00, ordered to the
    # Tyrrhenian, goes round Sicily, the Strait of Messina being closed, and never re-enters it.
    w = run_world(write_scenario, [
        {"name": "Dublin", "side": "Entente", "ships": ["Dublin"], "start": {"lat": 37.87, "lon": 16.06},
         "orders": [{"do": "sail", "to": {"lat": 38.5, "lon": 15.3}, "speed": 20, "at": "1914-08-02T02:00Z"}]},
    ], politics=BELT_AT_1H, end="1914-08-03T06:00Z")
    assert not recs(w, "order_failed", "Dublin")
    leave, sail = recs(w, "depart", "Dublin")
    assert leave.t_min == 60.0 and leave.data["to"] == "out of belt:Italy:6nm"
    route = leave.data["route"]
    assert shapely.intersects_xy(ITALY_6NM, route[0][1], route[0][0])  # she starts inside
    # Out by the shortest way: about 3 nm to the belt's edge, on a course away from the coast.
    assert leave.data["dist_nm"] < 3.5
    assert not shapely.intersects_xy(ITALY_6NM, route[-1][1], route[-1][0])
    assert sail.t_min == 120.0
    assert_clear_of(sail.data["route"], ITALY_6NM)
    assert sail.data["dist_nm"] > 200  # round Sicily, not through the strait (about 70 nm)
    assert recs(w, "arrive", "Dublin")


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(a=st.tuples(st.floats(36.0, 39.5), st.floats(12.0, 18.5)),
       b=st.tuples(st.floats(36.0, 39.5), st.floats(12.0, 18.5)))
def test_a_side_bound_by_neutrality_never_enters_those_waters(write_scenario, a, b) -> None:
    land = default_land()
    for lat, lon in (a, b):
        if land.is_land(lat, lon) or land.distance_to_land_nm(lat, lon) < 7.0:
            return  # an end inside the belt or ashore: not a question of the belt
    w = run_world(write_scenario, [
        {"name": "Dublin", "side": "Entente", "ships": ["Dublin"], "start": {"lat": a[0], "lon": a[1]},
         "orders": [{"do": "sail", "to": {"lat": b[0], "lon": b[1]}, "speed": 20}]},
    ], politics=[{"at": "1914-08-02T00:00Z", "keep_out": {"who": ["United Kingdom"], "sovereign": "Italy",
                                                           "width_nm": 6}}], end="1914-08-02T18:00Z")
    for dep in recs(w, "depart", "Dublin"):
        assert_clear_of(dep.data["route"], ITALY_6NM)


def assert_clear_of(route: list, area: shapely.Geometry) -> None:
    """Every point of the route's geodesics (every 0.2 nm) lies outside ``area`` but for 0.05 nm: the
    belt's edges are straight in longitude and latitude, the router's in its gnomonic plane."""
    boundary = area.boundary
    for (lat0, lon0), (lat1, lon1) in zip(route, route[1:]):
        lats, lons = earth.points_along(lat0, lon0, lat1, lon1, spacing_nm=0.2)
        inside = shapely.intersects_xy(area, lons, lats)
        for lat, lon in zip(lats[inside], lons[inside]):
            depth_nm = shapely.distance(shapely.Point(lon, lat), boundary) * 60.0
            assert depth_nm < 0.05, (lat, lon, depth_nm, route)


def test_the_dardanelles_are_closed_to_warships_until_the_porte_permits(write_scenario) -> None:
    forces = [
        {"name": "Goeben", "side": "Central Powers", "ships": ["Goeben"], "start": "Dardanelles entrance",
         "orders": [{"do": "sail", "to": "Chanak narrows", "speed": 10},
                    {"do": "sail", "to": "Chanak narrows", "speed": 10, "at": "1914-08-02T06:00Z"}]},
        {"name": "Weymouth", "side": "Entente", "ships": ["Weymouth"], "start": "Dardanelles entrance",
         "orders": [{"do": "sail", "to": "Chanak narrows", "speed": 10, "at": "1914-08-02T07:00Z"}]},
        {"name": "General", "side": "Central Powers", "ships": ["General"], "start": "Dardanelles entrance",
         "orders": [{"do": "sail", "to": "Chanak narrows", "speed": 10}]},
    ]
    w = run_world(write_scenario, forces, politics=[
        {"at": "1914-08-02T00:00Z", "war": ["Germany", "France"]},
        {"at": "1914-08-02T05:00Z", "permit": {"who": ["Germany"], "what": "enter_dardanelles"}}])
    # Ordered in before the leave, Goeben lies off the entrance until it is given (the forts let no
    # foreign warship through without it), then runs in: no failure, no track inside before 05:00.
    assert not recs(w, "order_failed", "Goeben")
    assert recs(w, "arrive", "Goeben") and recs(w, "arrive", "Goeben")[0].t_min > 5 * 60
    assert recs(w, "depart", "Goeben")[0].t_min == 5 * 60
    # Britain never has leave (Weymouth was refused a pilot, Bolnykh); a merchant steamer needs none.
    assert recs(w, "order_failed", "Weymouth") and not recs(w, "arrive", "Weymouth")
    assert recs(w, "arrive", "General")[0].t_min < 2 * 60
    assert not track_after(w, "Weymouth", 0.0).intersects(DARDANELLES)


def test_without_a_political_timeline_nobody_asks_leave(write_scenario) -> None:
    w = run_world(write_scenario, [
        {"name": "Weymouth", "side": "Entente", "ships": ["Weymouth"], "start": "Dardanelles entrance",
         "orders": [{"do": "sail", "to": "Chanak narrows", "speed": 10}]}])
    assert recs(w, "arrive", "Weymouth") and not recs(w, "order_failed")


GOEBEN_EAST = {"name": "Goeben", "side": "Central Powers", "ships": ["Goeben"], "start": {"lat": 36.0, "lon": 16.0},
               "orders": [{"do": "sail", "to": {"lat": 36.0, "lon": 21.0}, "speed": 14}]}


def test_a_commander_who_may_not_fire_shadows_until_the_war_telegram_reaches_him(write_scenario) -> None:
    w = run_world(write_scenario, [
        GOEBEN_EAST,
        {"name": "Indomitable", "side": "Entente", "ships": ["Indomitable"], "start": {"lat": 36.15, "lon": 16.2},
         "orders": [{"do": "stop"}]},
    ], politics=[{"at": "1914-08-02T00:00Z", "war": ["Germany", "France"]},
                 {"at": "1914-08-02T03:00Z", "war": ["United Kingdom", "Germany"]}],
        command={"headquarters": [{"name": "Admiralty", "side": "Entente", "nation": "United Kingdom",
                                   "station": "London"}],
                 "standing": {"Indomitable": {"on_contact": "engage"}}},
        messages=[{"at": "1914-08-02T03:00Z", "from": "Admiralty", "to": ["Indomitable"],
                   "text": "Commence hostilities against Germany.", "standing": {"may_fire": True}}],
        end="1914-08-02T09:00Z")
    orders = recs(w, "orders", "Indomitable")
    got = next(r for r in recs(w, "message_received") if r.data.get("receiver") == "Indomitable")
    changed = recs(w, "standing", "Indomitable")
    assert changed and changed[0].t_min == got.t_min and changed[0].data["changes"] == {"may_fire": True}
    before = [o.data["reason"] for o in orders if o.t_min < got.t_min]
    after = [o.data["reason"] for o in orders if o.t_min >= got.t_min]
    assert before and all(r.startswith("holding") for r in before), before
    assert after and after[0].startswith("chasing"), after
    # The telegram took the time of the cables and the wireless: the war began three hours in.
    assert got.t_min > 3 * 60


def test_a_headquarters_passes_orders_on_to_each_force_with_its_own_delay(write_scenario) -> None:
    w = run_world(write_scenario, [
        {"name": "Inflexible", "side": "Entente", "ships": ["Inflexible"], "start": "Valletta", "orders": [{"do": "stop"}]},
        {"name": "Dublin", "side": "Entente", "ships": ["Dublin"], "start": {"lat": 36.5, "lon": 17.0}, "orders": []},
        {"name": "Chatham", "side": "Entente", "ships": ["Chatham"], "start": "Valletta", "orders": []},
    ], command={"headquarters": [
        {"name": "Admiralty", "side": "Entente", "nation": "United Kingdom", "station": "London"},
        {"name": "Milne", "side": "Entente", "nation": "United Kingdom", "aboard": "Inflexible"}]},
        messages=[{"at": "1914-08-02T02:00Z", "from": "Admiralty", "to": "Milne", "text": "Concentrate at Malta.",
                   "orders_for": ["Dublin", "Chatham", "Inflexible"],
                   "orders": [{"do": "sail", "to": "Valletta", "speed": 14}],
                   "standing": {"on_contact": "shadow", "report_to": "Milne"}}])
    got = {r.data["receiver"]: r for r in recs(w, "message_received")}
    assert set(got) == {"Milne", "Dublin", "Chatham"}
    # Milne is aboard Inflexible: she obeys when he reads it; the others when his copies reach them.
    assert recs(w, "orders", "Inflexible")[0].t_min == got["Milne"].t_min
    for name in ("Dublin", "Chatham"):
        assert got[name].t_min > got["Milne"].t_min
        assert got[name].data["sender"] == "Milne"
        assert recs(w, "orders", name)[0].t_min == got[name].t_min
        assert w.command.nodes[name].standing.on_contact == "shadow"
    assert recs(w, "arrive", "Dublin")
