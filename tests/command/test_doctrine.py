"""Doctrine, as pure functions of what a commander knows."""

from __future__ import annotations

import dataclasses
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from campaign.command import doctrine
from campaign.command.picture import Picture, Report
from campaign.command.view import CommandView, OwnForce, Port, Standing
from campaign.geo import earth
from campaign.model.orders import Coal, Sail, Wait

OWN = OwnForce("Gloucester", "Entente", "United Kingdom", 36.0, 18.0, 90.0, 15.0, 25.0, 0.8, "underway",
               False, None, ("Gloucester",), "sail")


def view(reports=(), t=100.0, standing=Standing(on_contact="shadow", report_to="Milne"), light="day",
         mode="script", own=OWN, ports=(), last_report=None, sight_nm=15.0) -> CommandView:
    pic = Picture("Gloucester")
    for r in reports:
        pic.learn(r, t)
    ests = tuple(pic.estimate(r.about, t) for r in pic.reports())
    return CommandView(t, "Gloucester", own, standing, light, pic.reports(), ests, mode, 0.0, last_report, ports,
                       sight_nm=sight_nm)


GOEBEN = Report("Goeben", 100.0, 36.0, 18.2, 90.0, 18.0, "recognised", ("Goeben",), 1, source="seen")


def _station_nm(steer: doctrine.Steer, lat: float = 36.0, lon: float = 18.2, course: float = 90.0,
                speed: float = 18.0) -> float:
    """How far his station lies from where the contact will be when he reaches it, nm."""
    ahead = earth.forward(lat, lon, course, speed * doctrine.SHADOW_LEAD_H)
    (order,) = steer.orders
    return earth.distance_nm(*ahead, order.to.lat, order.to.lon)


YD_PER_NM = 2025.372  # the sea mile of 6,080 ft


def test_a_shadower_keeps_the_distance_of_the_record_on_the_enemys_quarter() -> None:
    # Gloucester, a light cruiser, kept 16,000 yards from Goeben by day (Bolnykh); on a moonlit night
    # every shadower closed in (Kelly; Hough p.11): 3 nm (data/shadowing.yaml). He used to hang at four
    # fifths of the range he saw her at: 12 nm by day, near the edge of sight.
    for light, sight, dist in (("day", 15.0, 16000.0 / YD_PER_NM), ("moonlit_night", 5.0, 3.0)):
        ds = doctrine.decide(view([GOEBEN], light=light, sight_nm=sight), "sighting")
        steer = next(d for d in ds if isinstance(d, doctrine.Steer))
        assert _station_nm(steer) == pytest.approx(dist, abs=0.01)
        # The station that distance astern of where she will be in half an hour, 30 deg off her stern.
        ahead = earth.forward(36.0, 18.2, 90.0, 18.0 * doctrine.SHADOW_LEAD_H)
        to = steer.orders[0].to
        brg = earth.bearing_deg(*ahead, to.lat, to.lon)
        assert min(abs(brg - 240), abs(brg - 300)) < 1.0
        assert steer.mode == "shadow Goeben"
    sends = [d for d in doctrine.decide(view([GOEBEN]), "sighting") if isinstance(d, doctrine.Send)]
    assert sends and sends[0].to == "Milne" and sends[0].content["report"]["about"] == "Goeben"


def test_battlecruisers_follow_goeben_closer_and_every_shadower_closes_to_make_out_smoke() -> None:
    # Indomitable and Indefatigable, of Goeben's own rank, followed her 10,000 yards astern on 4 Aug
    # (Massie ch.2); smoke not yet made out is closed to that distance too, to make it out.
    bcs = dataclasses.replace(OWN, name="Battle Cruisers", ships=("Indomitable", "Indefatigable"))
    steer = next(d for d in doctrine.decide(view([GOEBEN], own=bcs), "sighting") if isinstance(d, doctrine.Steer))
    assert _station_nm(steer) == pytest.approx(10000.0 / YD_PER_NM, abs=0.01)
    smoke = dataclasses.replace(GOEBEN, about="contact Gloucester-1", level="smoke", ships=(), n_ships=None)
    steer = next(d for d in doctrine.decide(view([smoke]), "sighting") if isinstance(d, doctrine.Steer))
    assert _station_nm(steer) == pytest.approx(10000.0 / YD_PER_NM, abs=0.01)


def test_a_shadower_closes_in_before_the_light_fails_and_never_keeps_beyond_his_fraction_of_sight() -> None:
    # Day now and twilight at his look after next: he keeps the twilight's distance (4 nm) already.
    dusk = dataclasses.replace(view([GOEBEN]), light_then="twilight")
    steer = next(d for d in doctrine.decide(dusk, "sighting") if isinstance(d, doctrine.Steer))
    assert _station_nm(steer) == pytest.approx(4.0, abs=1e-6)
    # In a haze that shows her at 6 nm he keeps four fifths of it, 4.8 nm, not his 16,000 yards.
    haze = dataclasses.replace(view([GOEBEN], sight_nm=15.0), sight_nm_of=(("Goeben", 6.0),))
    steer = next(d for d in doctrine.decide(haze, "sighting") if isinstance(d, doctrine.Steer))
    assert _station_nm(steer) == pytest.approx(doctrine.SHADOW_FRACTION * 6.0, abs=1e-6)


def test_a_shadower_keeps_his_fraction_of_the_range_of_the_contact_he_has_recognised() -> None:
    # Recognised, a contact is seen as far as its own ships are (CommandView.sight_for); the rest at the
    # range of a ship of the reference size.
    v = dataclasses.replace(view([GOEBEN], light="moonlit_night", sight_nm=3.0),
                            sight_nm_of=(("Breslau", 2.0), ("Goeben", 3.2)))
    assert (v.sight_for("Goeben"), v.sight_for("Breslau"), v.sight_for("contact Gloucester-1")) == (3.2, 2.0, 3.0)
    steer = next(d for d in doctrine.decide(v, "sighting") if isinstance(d, doctrine.Steer))
    assert _station_nm(steer) == pytest.approx(doctrine.SHADOW_FRACTION * 3.2, abs=1e-6)


@settings(max_examples=200, deadline=None)
@given(lat=st.floats(35.0, 37.0), lon=st.floats(17.0, 19.0), course=st.floats(0.0, 359.9),
       speed=st.floats(0.0, 24.0), sight=st.floats(3.0, 15.0))
def test_a_shadower_never_reaches_his_station_before_his_next_look(lat, lon, course, speed, sight) -> None:
    # The speed that brings him to his station in SHADOW_LEAD_H, to the hundredth of a knot below, not
    # above: he would lie stopped short of his next look; capped at his sustained speed.
    goeben = dataclasses.replace(GOEBEN, lat=lat, lon=lon, course_deg=course, speed_kn=speed)
    steer = next(d for d in doctrine.decide(view([goeben], sight_nm=sight), "sighting")
                 if isinstance(d, doctrine.Steer))
    (order,) = steer.orders
    need_kn = earth.distance_nm(OWN.lat, OWN.lon, order.to.lat, order.to.lon) / doctrine.SHADOW_LEAD_H
    assert order.speed <= min(need_kn, OWN.sustained_kn)
    assert order.speed > min(need_kn, OWN.sustained_kn) - 0.01


def test_intercept_point_is_where_the_chaser_meets_the_contact() -> None:
    pic = Picture("x")
    pic.learn(Report("Goeben", 0.0, 36.0, 19.0, 90.0, 18.0, "recognised", source="seen"), 0.0)
    est = pic.estimate("Goeben", 0.0)
    lat, lon, hours = doctrine.intercept_point((36.0, 18.0), 25.0, est)
    # At the meeting the chaser has run 25 kn x t and the contact 18 kn x t.
    assert earth.distance_nm(36.0, 18.0, lat, lon) == pytest.approx(25.0 * hours, rel=1e-6)
    goeben_then = earth.forward(36.0, 19.0, 90.0, 18.0 * hours)
    assert earth.distance_nm(*goeben_then, lat, lon) == pytest.approx(0.0, abs=1e-3)
    # A slower chaser behind a faster quarry cannot catch her within a day: he steers for her.
    assert doctrine.intercept_point((36.0, 18.0), 15.0, est)[2] == 0.0


def test_evade_runs_directly_away() -> None:
    ds = doctrine.decide(view([GOEBEN], standing=Standing(on_contact="evade")), "sighting")
    (steer,) = [d for d in ds if isinstance(d, doctrine.Steer)]
    to = steer.orders[0].to
    assert earth.bearing_deg(36.0, 18.0, to.lat, to.lon) == pytest.approx(270.0, abs=1.0)


def test_evade_offers_headings_nearest_straight_away_for_when_land_lies_across_it() -> None:
    # Directly away from Goeben (to the east of him) is 270; then 10 degrees either way, the side nearer
    # his present course (090: either side is as near, so the turn to the right first), up to 90.
    ds = doctrine.decide(view([GOEBEN], standing=Standing(on_contact="evade")), "sighting")
    (steer,) = [d for d in ds if isinstance(d, doctrine.Steer)]
    legs = (steer.orders,) + steer.instead
    bearings = [round(earth.bearing_deg(36.0, 18.0, leg[0].to.lat, leg[0].to.lon)) % 360 for leg in legs]
    assert bearings[:5] == [270, 280, 260, 290, 250] and len(legs) == 19
    assert set(bearings) == set(range(180, 360, 10)) | {0}
    for leg in legs:
        assert earth.distance_nm(36.0, 18.0, leg[0].to.lat, leg[0].to.lon) == pytest.approx(doctrine.EVADE_RUN_NM)


def test_a_reporter_told_to_avoid_a_superior_force_evades_what_outranks_him_and_reports_the_rest() -> None:
    # Seed 000's ranks (data/tactics/board.yaml): Goeben, a battlecruiser (2), outranks the armoured
    # cruisers of the 1st Cruiser Squadron (3); Breslau, a light cruiser (4), does not.
    troubridge = dataclasses.replace(OWN, name="1st Cruiser Squadron", ships=("Defence", "Warrior"))
    told = Standing(on_contact="report", report_to="Milne", avoid_superior=True)
    breslau = dataclasses.replace(GOEBEN, about="Breslau", ships=("Breslau",))
    ds = doctrine.decide(view([GOEBEN], standing=told, own=troubridge), "sighting")
    steer = next(d for d in ds if isinstance(d, doctrine.Steer))
    assert steer.mode == "evade Goeben"
    assert any(isinstance(d, doctrine.Send) for d in ds)  # he reports it all the same
    for v in (view([breslau], standing=told, own=troubridge),
              view([GOEBEN], standing=dataclasses.replace(told, avoid_superior=False), own=troubridge),
              view([dataclasses.replace(GOEBEN, ships=(), level="ships")], standing=told, own=troubridge)):
        assert not any(isinstance(d, doctrine.Steer) for d in doctrine.decide(v, "sighting"))
    # Gloucester, a light cruiser, is outranked by Goeben, not by Breslau, another light cruiser.
    assert not doctrine.superior(view(), breslau) and doctrine.superior(view(), GOEBEN)


def test_coal_when_low_runs_to_the_nearest_friendly_port() -> None:
    low = dataclasses.replace(OWN, coal_fraction=0.1)
    ports = (Port("Valletta", 35.9, 14.5), Port("Alexandria", 31.2, 29.8))
    ds = doctrine.decide(view([], own=low, ports=ports, standing=Standing(coal_low=0.2)), "coal")
    (steer,) = ds
    assert steer.orders[0].to.name == "Valletta" and isinstance(steer.orders[1], Coal)


def test_contact_lost_sends_the_shadower_to_where_the_enemy_should_be() -> None:
    lost = dataclasses.replace(GOEBEN, level="lost", seen_min=90.0)
    ds = doctrine.decide(view([lost], mode="shadow Goeben", t=100.0), "lost")
    assert any(isinstance(d, doctrine.Send) and "lost" in d.text for d in ds)
    steer = next(d for d in ds if isinstance(d, doctrine.Steer))
    assert steer.mode == "regain Goeben"
    # Where he meets Goeben on her last course and speed, at his sustained speed.
    est = Picture("Gloucester")
    est.learn(lost, 100.0)
    meet = doctrine.intercept_point((36.0, 18.0), OWN.sustained_kn, est.estimate("Goeben", 100.0))
    assert (steer.orders[0].to.lat, steer.orders[0].to.lon) == pytest.approx(meet[:2])


def test_a_shadower_keeps_steering_for_his_lost_contact_at_each_look_while_his_sight_of_it_is_fresh() -> None:
    # He used to steer once and lie at the interception point for hours while the enemy steamed on
    # (Gloucester, 6 August at dusk). At each review he steers anew for where she should be by now;
    # once his last sight of her is older than resume_after_h (3 h) he goes back to his orders.
    lost = dataclasses.replace(GOEBEN, level="lost", seen_min=90.0)
    first, later = (next(d for d in doctrine.decide(view([lost], mode="regain Goeben", t=t), "review")
                         if isinstance(d, (doctrine.Steer, doctrine.Resume))) for t in (120.0, 150.0))
    assert first.mode == later.mode == "regain Goeben"
    assert later.orders[0].to.lon > first.orders[0].to.lon  # she steams east: the point moves with her
    stale = doctrine.decide(view([lost], mode="regain Goeben", t=90.0 + 3.1 * 60.0), "review")
    assert stale == [doctrine.Resume("no enemy in sight")]
    # A chaser still makes once for the interception point and carries on.
    hunter = Standing(on_contact="chase")
    (steer,) = [d for d in doctrine.decide(view([lost], mode="chase Goeben", t=100.0, standing=hunter), "lost")
                if isinstance(d, doctrine.Steer)]
    assert steer.mode == "intercept Goeben"
    assert doctrine.decide(view([lost], mode="intercept Goeben", t=130.0, standing=hunter), "review") == []


def test_a_shadower_at_the_point_where_his_lost_contact_should_be_follows_its_reckoned_track() -> None:
    # He reaches where Goeben should be by now and she is not there. He used to be sent to that same
    # point again, lying stopped on it until his next look (Gloucester, 6 August at dusk, half an hour
    # at a time). Now, when he would meet her sooner than his next look, he steers for where she should
    # be at that look, at the speed that brings him there then: he sweeps along her reckoned track.
    lost = dataclasses.replace(GOEBEN, level="lost", seen_min=90.0)
    t = 120.0
    dr = earth.forward(36.0, 18.2, 90.0, 18.0 * (t - 90.0) / 60.0)  # where she should be now
    here = dataclasses.replace(OWN, lat=float(dr[0]), lon=float(dr[1]), speed_kn=0.0)
    (steer,) = [d for d in doctrine.decide(view([lost], mode="regain Goeben", t=t, own=here), "review")
                if isinstance(d, doctrine.Steer)]
    look_h = Standing().review_min / 60.0
    then = earth.forward(*dr, 90.0, 18.0 * look_h)  # on from where she should be now, on her last course
    (order,) = steer.orders
    assert steer.mode == "regain Goeben"
    assert (order.to.lat, order.to.lon) == pytest.approx(then)
    assert order.speed == pytest.approx(18.0, abs=0.02) and order.speed <= 18.0
    # Far astern of where she should be, he still steers to meet her, at his sustained speed.
    astern = dataclasses.replace(OWN, lat=36.0, lon=17.6)
    (steer,) = [d for d in doctrine.decide(view([lost], mode="regain Goeben", t=t, own=astern), "review")
                if isinstance(d, doctrine.Steer)]
    pic = Picture("Gloucester")
    pic.learn(lost, t)
    meet = doctrine.intercept_point((36.0, 17.6), OWN.sustained_kn, pic.estimate("Goeben", t))
    assert meet[2] > look_h
    assert (steer.orders[0].to.lat, steer.orders[0].to.lon) == pytest.approx(meet[:2])
    assert steer.orders[0].speed == "sustained"


def test_a_shadower_who_has_lost_his_contact_seeks_it_rather_than_turn_to_a_lesser_one_in_sight() -> None:
    # Gloucester loses Goeben at dusk with Breslau's smoke still in sight, not yet made out: she seeks
    # Goeben where she should be by now (she used to turn to the smoke, lose it too and follow its
    # reckoned track), and reports the smoke. A contact in sight that she takes for at least as
    # important (recognised, a ship of Goeben's rank or higher), or that may be Goeben, draws her; one
    # of lower rank does not.
    lost = dataclasses.replace(GOEBEN, level="lost", seen_min=95.0)
    smoke = Report("contact Gloucester-2", 100.0, 36.1, 18.1, 330.0, 17.0, "smoke", source="seen")
    ds = doctrine.decide(view([lost, smoke], mode="shadow Goeben", t=100.0), "sighting")
    (steer,) = [d for d in ds if isinstance(d, doctrine.Steer)]
    assert steer.mode == "regain Goeben"
    assert [d.content["report"]["about"] for d in ds if isinstance(d, doctrine.Send)] == ["contact Gloucester-2"]
    breslau = dataclasses.replace(smoke, about="Breslau", level="recognised", ships=("Breslau",))
    (steer,) = [d for d in doctrine.decide(view([lost, breslau], mode="regain Goeben", t=100.0), "review")
                if isinstance(d, doctrine.Steer)]
    assert steer.mode == "regain Goeben"
    moltke = dataclasses.replace(breslau, about="Moltke", ships=("Moltke",))
    (steer,) = [d for d in doctrine.decide(view([lost, moltke], mode="regain Goeben", t=100.0), "review")
                if isinstance(d, doctrine.Steer)]
    assert steer.mode == "shadow Moltke"
    # Smoke where Goeben may be by now (within his radius of doubt: picture.MAX_ENEMY_SPEED_KN times the
    # age of his last sight, an hour) may be Goeben herself: he takes it.
    an_hour_ago = dataclasses.replace(lost, seen_min=40.0)
    est = Picture("Gloucester")
    est.learn(an_hour_ago, 100.0)
    g = est.estimate("Goeben", 100.0)
    assert earth.distance_nm(g.lat, g.lon, smoke.lat, smoke.lon) < g.radius_nm
    (steer,) = [d for d in doctrine.decide(view([an_hour_ago, smoke], mode="regain Goeben", t=100.0), "review")
                if isinstance(d, doctrine.Steer)]
    assert steer.mode == "shadow contact Gloucester-2"
    collier = dataclasses.replace(smoke, about="Bogadir", level="recognised", ships=("Bogadir",))
    (steer,) = [d for d in doctrine.decide(view([an_hour_ago, collier], mode="regain Goeben", t=100.0), "review")
                if isinstance(d, doctrine.Steer)]
    assert steer.mode == "regain Goeben"  # recognised as another ship, it is not Goeben
    # Once his last sight of Goeben is stale (resume_after_h, 3 h), he takes the contact in sight.
    stale = dataclasses.replace(lost, seen_min=100.0 - 3.1 * 60.0)
    (steer,) = [d for d in doctrine.decide(view([stale, smoke], mode="regain Goeben", t=100.0), "review")
                if isinstance(d, doctrine.Steer)]
    assert steer.mode == "shadow contact Gloucester-2"


def test_outranks() -> None:
    goeben, breslau = GOEBEN, dataclasses.replace(GOEBEN, about="Breslau", ships=("Breslau",))
    smoke = Report("contact Gloucester-2", 100.0, 36.1, 18.1, 330.0, 17.0, "smoke", source="seen")
    assert doctrine.outranks(goeben, breslau) and not doctrine.outranks(breslau, goeben)
    assert doctrine.outranks(goeben, goeben)  # as important
    assert doctrine.outranks(breslau, smoke) and not doctrine.outranks(smoke, breslau)
    assert not doctrine.outranks(smoke, smoke)


def test_an_evader_at_the_end_of_his_run_runs_on_while_his_sight_of_the_enemy_is_fresh() -> None:
    # He used to lie stopped at the end of his 60-nm run until resume_after_h had passed since he began
    # it, wherever the enemy he ran from might then be. Stopped there with the enemy out of sight, he runs
    # on from where it should be by now (dead reckoning from his last sight of it); under way on his run
    # he keeps to it; once his last sight is older than resume_after_h he goes back to his orders.
    lost = dataclasses.replace(GOEBEN, level="lost", seen_min=90.0)
    stopped = dataclasses.replace(OWN, status="waiting", course_deg=None, speed_kn=0.0)
    (steer,) = doctrine.decide(view([lost], mode="evade Goeben", t=200.0, own=stopped,
                                    standing=Standing(on_contact="evade")), "review")
    assert isinstance(steer, doctrine.Steer) and steer.mode == "evade Goeben"
    est = Picture("Gloucester")
    est.learn(lost, 200.0)
    goeben = est.estimate("Goeben", 200.0)
    to = steer.orders[0].to
    away = earth.bearing_deg(goeben.lat, goeben.lon, OWN.lat, OWN.lon)
    assert earth.bearing_deg(OWN.lat, OWN.lon, to.lat, to.lon) == pytest.approx(away, abs=0.01)
    assert doctrine.decide(view([lost], mode="evade Goeben", t=150.0, standing=Standing(on_contact="evade")),
                           "review") == []  # still on his run, begun 150 minutes ago: he keeps to it
    stale = doctrine.decide(view([lost], mode="evade Goeben", t=90.0 + 3.1 * 60.0, own=stopped,
                                 standing=Standing(on_contact="evade")), "review")
    assert stale == [doctrine.Resume("no enemy in sight")]


def test_no_enemy_in_sight_and_the_script_resumes() -> None:
    ds = doctrine.decide(view([], mode="intercept Goeben", t=1000.0), "review")
    assert ds == [doctrine.Resume("no enemy in sight")]


def test_missions() -> None:
    patrol = Standing(mission="patrol", patrol=((36.5, 15.0), (36.5, 16.0)))
    (steer,) = doctrine.decide(view([], standing=patrol), "start")
    assert [o.to.name for o in steer.orders[:3]] == ["patrol point 1", "patrol point 2", "patrol point 1"]
    ret = Standing(mission="return", base=Port("Valletta", 35.9, 14.5))
    (steer,) = doctrine.decide(view([], standing=ret), "start")
    assert isinstance(steer.orders[0], Sail) and steer.orders[0].to.name == "Valletta"


def test_a_commander_told_to_jam_jams_while_the_enemy_is_in_sight() -> None:
    jammer = Standing(on_contact="shadow", jam=True)
    ds = doctrine.decide(view([GOEBEN], standing=jammer), "sighting")
    assert doctrine.Jam(True) in ds
    lost = dataclasses.replace(GOEBEN, level="lost")
    assert doctrine.Jam(False) in doctrine.decide(view([lost], standing=jammer), "lost")
    assert not any(isinstance(d, doctrine.Jam) for d in doctrine.decide(view([GOEBEN]), "sighting"))


def test_a_chase_is_at_the_fast_chase_speed_the_ships_could_hold_in_1914() -> None:
    # Seed 000: the chase is at the "actual maximum effort" of the time, the sustained speed of
    # data/ships.yaml (Gloucester 25 kn here), not a trial speed the ships could not hold.
    ds = doctrine.decide(view([GOEBEN], standing=Standing(on_contact="chase")), "sighting")
    steer = next(d for d in ds if isinstance(d, doctrine.Steer))
    (order,) = steer.orders
    assert order.speed == "sustained" and steer.mode == "chase Goeben"
    est = Picture("x")
    est.learn(GOEBEN, 100.0)
    lat, lon, _ = doctrine.intercept_point((OWN.lat, OWN.lon), OWN.sustained_kn, est.estimate("Goeben", 100.0))
    assert (order.to.lat, order.to.lon) == pytest.approx((lat, lon))


CHATHAM = OwnForce("Chatham", "Entente", "United Kingdom", 36.02, 18.03, 90.0, 12.0, 23.0, 0.8, "underway",
                   False, None, ("Chatham",), "sail")


@pytest.mark.parametrize("mission", ["script", "patrol", "guard", "intercept", "escort", "return"])
@pytest.mark.parametrize("escort", [None, "Chatham"])
@pytest.mark.parametrize("trigger", ["start", "review", "sighting", "orders"])
@pytest.mark.parametrize("seen", [False, True])
def test_company_is_read_only_where_needs_company_says(mission: str, escort: str | None, trigger: str,
                                                       seen: bool) -> None:
    """The world gathers a commander's company only when ``needs_company`` says his doctrine reads it:
    for every other commander, what he decides with his company is what he decides without it."""
    standing = Standing(mission=mission, escort=escort, guard=(36.5, 18.5), patrol=((36.5, 18.5), (36.0, 19.0)),
                        intercept="Goeben", base=Port("Valletta", 35.9, 14.5), on_contact="shadow",
                        report_to="Milne")
    full = dataclasses.replace(view([GOEBEN] if seen else [], standing=standing), company=(CHATHAM,))
    bare = dataclasses.replace(full, company=())
    if doctrine.needs_company(standing):
        if not seen:  # with no enemy in sight he keeps with the force he escorts: he reads his company
            assert doctrine.decide(full, trigger) != doctrine.decide(bare, trigger)
    else:
        assert doctrine.decide(full, trigger) == doctrine.decide(bare, trigger)


def test_an_intercept_mission_acts_only_on_a_fresh_report_of_the_contact_at_sea() -> None:
    # Dead reckoning days old would send a squadron across the sea after a ship long since turned or in
    # port: he intercepts while the report is no older than he keeps after a lost contact
    # (resume_after_h), and keeps to his orders after that.
    hunter = Standing(mission="intercept", intercept="Goeben", resume_after_h=3.0)
    (steer,) = doctrine.decide(view([GOEBEN], t=100.0 + 2.9 * 60.0, standing=hunter), "review")
    assert isinstance(steer, doctrine.Steer) and steer.mode == "intercept Goeben"
    stale = view([GOEBEN], t=100.0 + 3.1 * 60.0, standing=hunter, mode="intercept Goeben")
    assert doctrine.decide(stale, "review") == [doctrine.Resume("no fresh report of Goeben at sea")]
    assert doctrine.decide(dataclasses.replace(stale, mode="script"), "review") == []
    in_port = dataclasses.replace(GOEBEN, place="Messina", speed_kn=0.0, course_deg=None)
    assert doctrine.decide(view([in_port], t=110.0, standing=hunter), "review") == []


VALLETTA = Port("Valletta", 35.9, 14.5)


def test_his_orders_done_at_sea_he_asks_for_more_and_returns_to_his_base_to_coal() -> None:
    # Chatham used to lie stopped at sea for a week once her last order was carried out. Now he reports
    # where he is and asks his superior for orders, and makes for his base and coals there.
    done = dataclasses.replace(OWN, orders_done=True, status="waiting", speed_kn=0.0, order="")
    told = Standing(on_contact="shadow", report_to="Milne", base=VALLETTA)
    ask, steer = doctrine.decide(view([], own=done, standing=told), "orders done")
    assert isinstance(ask, doctrine.Send) and ask.to == "Milne" and ask.content["request"] == "orders"
    assert "request orders" in ask.text
    assert steer.mode == "return" and steer.reason == "orders carried out: returning to Valletta to coal"
    assert steer.orders[0].to.place == "Valletta" and isinstance(steer.orders[1], Coal)
    # Without a station or a base he lies where his orders left him, as before; with orders still to
    # carry out he keeps to them.
    assert doctrine.decide(view([], own=done, standing=Standing(report_to="Milne")), "orders done") == []
    assert doctrine.decide(view([], standing=told), "orders done") == []
    # Once on his way he does not ask again; in port, with no station, he awaits orders there.
    assert doctrine.decide(view([], own=done, standing=told, mode="return"), "orders done")[0].mode == "return"
    moored = dataclasses.replace(done, in_port=True, place="Valletta")
    assert doctrine.decide(view([], own=moored, standing=told, mode="return"), "orders done") == []


def test_his_orders_done_he_patrols_his_station_and_coals_before_going_out_to_it() -> None:
    done = dataclasses.replace(OWN, orders_done=True, status="waiting", speed_kn=0.0, order="")
    told = Standing(report_to="Milne", base=VALLETTA, station=((38.5, 10.0), (37.6, 10.0)))
    ask, steer = doctrine.decide(view([], own=done, standing=told), "orders done")
    assert isinstance(ask, doctrine.Send) and steer.mode == "station"
    legs = [(o.to.lat, o.to.lon) for o in steer.orders]
    assert legs[:4] == [(38.5, 10.0), (37.6, 10.0)] * 2 and len(legs) == 2 * doctrine.STATION_ROUNDS
    assert all(o.speed == "economical" for o in steer.orders)
    # His rounds done, he patrols on without asking again; a patrol is not a script to go back to.
    (steer,) = doctrine.decide(view([], own=done, standing=told, mode="station"), "orders done")
    assert steer.mode == "station"
    assert doctrine.decide(view([], standing=told, mode="station"), "review") == []
    # In port he coals first; a one-point station he lies at.
    moored = dataclasses.replace(done, in_port=True, place="Valletta", coal_fraction=0.6)
    one = dataclasses.replace(told, station=((37.88, 15.52),))
    (steer,) = doctrine.decide(view([], own=moored, standing=one, ports=(VALLETTA,)), "orders done")
    assert isinstance(steer.orders[0], Coal) and steer.orders[1].to.lat == 37.88
    assert steer.orders[2] == Wait(math.inf)
