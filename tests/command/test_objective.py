"""Souchon's decisions (campaign/command/objective.py), as pure functions of his picture and instructions:
the same picture and instructions give the same decision; a changed picture changes it."""

from __future__ import annotations

import dataclasses

from campaign.command import doctrine, objective
from campaign.command.picture import Picture, Report
from campaign.command.plan_file import load_plan
from campaign.command.view import CommandView, OwnForce, Standing
from campaign.geo import earth

START = "1914-08-02T09:00Z"
# 6 Aug 16:00 UTC, scenario minutes: Goeben off Messina, coaled, for Constantinople (Churchill time-table p.107).
T_BREAKOUT = 103 * 60.0
STANDING = Standing(report_to="Admiralstab", mission="plan", plan="souchon", objective="Constantinople")
PLAN = load_plan("souchon")
# Off the southern entrance of the Strait of Messina, put to sea with Messina's coal: ~2,100 t of 3,100 t.
GOEBEN = OwnForce("Goeben", "Central Powers", "Germany", 38.05, 15.62, None, 0.0, 24.0, 2100.0 / 3100.0,
                  "waiting", False, None, ("Goeben",), "wait", orders_done=True)


def view(reports: tuple[Report, ...] = (), t: float = T_BREAKOUT, own: OwnForce = GOEBEN,
         standing: Standing = STANDING, mode: str = "plan coal Messina") -> CommandView:
    pic = Picture("Goeben")
    for r in reports:
        pic.learn(r, r.seen_min)
    ests = tuple(pic.estimate(r.about, t) for r in pic.reports())
    return CommandView(t, "Goeben", own, standing, "day", pic.reports(), ests, mode, 0.0, None,
                       start_utc=START)


def battle_cruisers(lat: float, lon: float, seen_h_ago: float = 3.0) -> Report:
    """Two battle cruisers reported lying at (lat, lon): a force he holds superior to Goeben alone."""
    return Report("Indomitable, Indefatigable", T_BREAKOUT - seen_h_ago * 60.0, lat, lon, None, 0.0, "lost",
                  ("Indomitable", "Indefatigable"), 2, source="report")


def steer(decisions: list[doctrine.Decision]) -> doctrine.Steer:
    (only,) = [d for d in decisions if isinstance(d, doctrine.Steer)]
    return only


def test_the_same_picture_and_instructions_give_the_same_decision() -> None:
    reports = (battle_cruisers(37.2, 16.8),)
    first = objective.decide(view(reports), "review", PLAN)
    second = objective.decide(view(reports), "review", PLAN)
    assert first and first == second
    assert objective.choose_move(view(reports), PLAN) == objective.choose_move(view(reports), PLAN)


def test_with_nothing_reported_he_breaks_out_south_east_for_matapan_to_meet_his_collier() -> None:
    s = steer(objective.decide(view(), "review", PLAN))
    assert s.mode == "plan coal collier"
    assert "by south-east round Matapan" in s.reason and "no superior force reported" in s.reason
    assert [p.name for p in s.orders[0].via][-1] == "Cape Matapan"


def test_a_superior_force_reported_on_his_route_sends_him_another_way() -> None:
    # Two battle cruisers reported on the straight way south-east for Matapan, more than clear_nm from the
    # feint's track by Cape Colonne: he takes the feint.
    near_route = battle_cruisers(37.3, 18.3)
    s = steer(objective.decide(view((near_route,)), "review", PLAN))
    assert "south-east round Matapan" not in s.reason and "by feint for the Adriatic" in s.reason
    assert "Indomitable, Indefatigable reckoned at" in s.reason
    s_free = steer(objective.decide(view(), "review", PLAN))
    assert s.orders != s_free.orders


def test_with_every_route_barred_he_waits_and_looks_again() -> None:
    # The battle cruisers reported just south of the Strait: every way east passes them.
    s = steer(objective.decide(view((battle_cruisers(37.95, 15.7, seen_h_ago=1.0),)), "review", PLAN))
    assert s.mode == "plan wait route"
    assert s.orders[0].until_min == T_BREAKOUT + PLAN.wait_h * 60.0
    assert "every route passes within" in s.reason


def test_an_old_report_no_longer_bars_his_route() -> None:
    stale = battle_cruisers(37.95, 15.7, seen_h_ago=PLAN.threat_fresh_h + 1.0)
    s = steer(objective.decide(view((stale,)), "review", PLAN))
    assert s.mode == "plan coal collier"


def test_without_a_collier_he_runs_on_what_he_has_if_the_least_reserve_allows_else_he_waits() -> None:
    no_collier = dataclasses.replace(PLAN, colliers=())
    # With Messina's coal he can reach the Dardanelles keeping more than his least reserve: he goes straight.
    s = steer(objective.decide(view(), "review", no_collier))
    assert s.mode == "plan objective"
    assert s.orders[0].to.name == "Dardanelles entrance"
    # With too little for even that, and no collier nor port ahead, he waits.
    empty = dataclasses.replace(GOEBEN, coal_fraction=700.0 / 3100.0)
    s = steer(objective.decide(view(own=empty), "review", no_collier))
    assert s.mode == "plan wait coal"
    assert "too little to go on, and no coal to be had" in s.reason
    # The same short coal with his collier: he goes to meet her.
    s = steer(objective.decide(view(own=empty), "review", PLAN))
    assert s.mode == "plan coal collier"


def test_short_of_coal_west_of_messina_he_coals_there_and_without_messina_he_meets_his_collier() -> None:
    # 4 Aug, off Philippeville after the shelling, ordered to Constantinople with 1,330 t (the record's run).
    t = 43 * 60.0 + 15.0
    off_algeria = dataclasses.replace(GOEBEN, lat=36.9, lon=6.9, coal_fraction=1330.0 / 3100.0)
    v = view(own=off_algeria, t=t, mode="plan shelled Philippeville")
    mode, _, reason = objective.choose_move(v, PLAN)
    assert mode == "plan coal Messina" and "to coal at Messina" in reason
    no_port = dataclasses.replace(PLAN, ports=())
    mode, _, reason = objective.choose_move(v, no_port)
    assert mode == "plan coal collier"


def test_without_leave_he_waits_off_the_straits_and_with_it_he_runs_in() -> None:
    at_entrance = dataclasses.replace(GOEBEN, lat=40.0118, lon=26.2061, place="Dardanelles entrance",
                                      coal_fraction=0.5)
    t = 193 * 60.0
    mode, orders, reason = objective.choose_move(view(own=at_entrance, t=t, mode="plan objective"), PLAN)
    assert mode == "plan wait leave" and "without leave" in reason
    leave = dataclasses.replace(STANDING, may_enter=("Dardanelles",))
    mode, orders, reason = objective.choose_move(view(own=at_entrance, t=t, standing=leave, mode="plan objective"),
                                                 PLAN)
    assert mode == "plan enter" and orders[0].to.name == "Chanak narrows"


def test_every_decision_says_what_in_his_picture_it_rests_on() -> None:
    bc = battle_cruisers(37.9, 17.6)
    s = steer(objective.decide(view((bc,)), "review", PLAN))
    e = view((bc,)).estimates[0]
    assert f"{e.lat:.1f},{e.lon:.1f}" in s.reason
    assert earth.distance_nm(37.9, 17.6, e.lat, e.lon) < 1.0
