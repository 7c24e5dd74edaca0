"""The 'board' engine (campaign/tactics/board.py) against seed 000's combat, hit record and chase rules."""

from __future__ import annotations

import math
import time
from dataclasses import replace
from types import SimpleNamespace

import numpy as np
import pytest

from campaign.model.ships import find_ship
from campaign.tactics import board
from campaign.tactics.battle import fight
from campaign.tactics.board import (
    BoardEngine,
    EnduranceChart,
    assign_targets,
    escapes,
    fire_modifier,
    may_fire_on,
)
from campaign.tactics.protocol import BattleSetup, Combatant, Condition, HelmOrder, Setting
from tests.tactics.dice import ScriptedRng, within

R = board.load_rules()
VIS = Setting(visibility_yd=20000.0)


def cb(name: str, side: str, x: float = 0.0, y: float = 0.0, *, unit: str | None = None, course: float = 90.0,
       speed: float = 15.0, fast: float | None = -1.0, cond: Condition | None = None) -> Combatant:
    s = find_ship(name)
    cond = cond or Condition()
    max_kn = max(0.0, s.sustained_speed_kn - cond.speed_lost_kn)
    return Combatant(s, unit or f"{side}:{name}", side, x, y, course, speed, max_kn,
                     s.sustained_speed_kn if fast == -1.0 else fast, cond)


def setup(*ships: Combatant, intents=None) -> BattleSetup:
    sides = dict.fromkeys(c.side for c in ships)
    return BattleSetup(tuple(ships), VIS, intents or {s: "engage" for s in sides})


def hold(b) -> dict[str, HelmOrder]:
    """Every afloat ship keeps her course and speed."""
    return {v.name: HelmOrder(v.course_deg, v.speed_kn) for v in b.views() if v.afloat}


def events_of(evs, kind):
    return [e for e in evs if e.type == kind]


# ---------------------------------------------------------------------------------------------------
# Tables


def test_combat_results_table():
    # seed 000 'Combat'/'CRT': 1 -> 2 hits, 2-3 -> hit, 4-7 -> miss; above the table a miss
    assert [R.hits(d) for d in range(1, 10)] == [2, 1, 1, 0, 0, 0, 0, 0, 0]
    assert R.expected_hits(0) == pytest.approx(4 / 6)
    assert [R.gunnery_level(m) for m in (0, 1, 2, None)] == pytest.approx([1.0, 0.5, 0.25, 0.0])


def test_crt_dice_statistics_in_the_engine():
    # ten dreadnoughts a side (same rank, undamaged): every die unmodified
    names = ["Viribus Unitis", "Tegetthoff", "Prinz Eugen", "Courbet", "Jean Bart", "France",
             "Dante Alighieri", "Giulio Cesare", "Conte di Cavour", "Leonardo da Vinci"]
    ships = [cb(n, "A", i * 500.0, 0.0) for i, n in enumerate(names[:5])] + \
            [cb(n, "B", i * 500.0, 12000.0) for i, n in enumerate(names[5:])]
    eng = BoardEngine()
    hits = []
    for seed in range(400):
        b = eng.begin(setup(*ships), np.random.default_rng(seed))
        fires = events_of(b.step(hold(b), VIS), "fire")
        assert all(e.data["modifier"] == 0 for e in fires)
        hits += [e.data["hits"] for e in fires]
    n = len(hits)
    assert n == 4000
    assert within(hits.count(2), n, 1 / 6) and within(hits.count(1), n, 2 / 6)
    assert within(hits.count(0), n, 3 / 6)


def test_fire_modifiers():
    # seed 000 'Combat': +1 per G/P hit, +1 per rank the target is above the firer; towing, coaling +1
    assert fire_modifier(R, 0, R.ranks["LC"], R.ranks["BC"]) == 2
    assert fire_modifier(R, 0, R.ranks["BC"], R.ranks["LC"]) == 0  # firing down: nothing
    assert fire_modifier(R, 0, R.ranks["CA"], R.ranks["BB"]) == 2
    assert fire_modifier(R, 0, R.ranks["BC"], R.ranks["B"]) == 0  # BC and B share a rank
    assert fire_modifier(R, 2, R.ranks["BC"], R.ranks["BB"]) == 3
    assert fire_modifier(R, 0, 2, 2, towed=True) == 1 and fire_modifier(R, 0, 2, 2, coaling=True) == 1


def test_rank_modifier_in_the_engine():
    b = BoardEngine().begin(setup(cb("Goeben", "G"), cb("Gloucester", "B", 0, 12000)),
                            np.random.default_rng(1))
    fires = {e.ship: e for e in events_of(b.step(hold(b), VIS), "fire")}
    glo = fires["Gloucester"].data
    assert glo["modifier"] == 2 and glo["hits"] == R.hits(glo["roll"] + 2)
    assert fires["Goeben"].data["modifier"] == 0


def test_ranks_of_our_ship_types():
    types = ("dreadnought", "battlecruiser", "battleship", "armoured_cruiser", "light_cruiser")
    assert [R.ranks[R.board_type[t]] for t in types] == [1, 2, 2, 3, 4]


# ---------------------------------------------------------------------------------------------------
# Targets


def ranked(btype: str):
    return SimpleNamespace(btype=btype, rank=R.ranks[btype])


def test_may_not_fire_up_while_a_lower_enemy_remains():
    lc, bc, ca = ranked("LC"), ranked("BC"), ranked("CA")
    assert not may_fire_on(lc, bc, [bc, lc])
    assert may_fire_on(lc, bc, [bc])
    assert not may_fire_on(lc, bc, [bc, ca])  # the CA ranks below the BC: fire on her first
    assert may_fire_on(bc, lc, [bc, lc])  # firing down is always allowed
    s = setup(cb("Goeben", "G"), cb("Breslau", "G", 0, -400), cb("Gloucester", "B", 0, 12000))
    b = BoardEngine().begin(s, np.random.default_rng(0))
    fires = {e.ship: e.target for e in events_of(b.step(hold(b), VIS), "fire")}
    assert fires["Gloucester"] == "Breslau"


def test_fire_distribution_like_type_then_even():
    f = [ranked("BC"), ranked("BC"), ranked("LC")]
    e = [ranked("BC"), ranked("LC")]
    t = assign_targets(f, {id(x): e for x in f})
    assert [id(t[id(x)]) for x in f] == [id(e[0]), id(e[0]), id(e[1])]  # like against like
    four = [ranked("BB") for _ in range(4)]
    two = [ranked("BB"), ranked("BB")]
    t = assign_targets(four, {id(x): two for x in four})
    assert sum(t[id(x)] is two[0] for x in four) == 2  # evenly among similar ships
    cas = [ranked("CA"), ranked("CA")]
    mix = [ranked("LC"), ranked("DD")]
    t = assign_targets(cas, {id(x): mix for x in cas})
    assert {id(t[id(x)]) for x in cas} == {id(m) for m in mix}  # evenly among types


# ---------------------------------------------------------------------------------------------------
# Hit records


def test_hit_record_cards():
    # seed 000 'Hit Records' line 346
    assert R.cards["Goeben"].gp == ("+1", "+2", "NF") and R.cards["Goeben"].speed == ("-FS", "-1", "-2")
    assert R.cards["Moltke"] == R.cards["Goeben"]
    for name in ("Indomitable", "Inflexible", "Indefatigable", "New Zealand"):
        assert R.cards[name].gp == ("+1", "+2", "NF") and R.cards[name].speed == ("-1", "-2")
    assert R.cards["Courbet"].gp == ("+1", "NF") and R.cards["Courbet"].speed == ("-1", "-2")
    assert R.one_square_kn == pytest.approx(22 / 3)


def test_goeben_hit_record_boxes_fill_by_odd_and_even():
    # Indomitable fires 2 hits (die 1) on Goeben; Goeben's die 6 misses. Hit dice: 1 (odd: G/P +1),
    # 4 (even: -FS)
    b = BoardEngine().begin(setup(cb("Goeben", "G"), cb("Indomitable", "B", 0, 12000)),
                            ScriptedRng([6, 1, 1, 4, 1, 1, 2, 1, 3]))
    hits = events_of(b.step(hold(b), VIS), "hit")
    assert [(h.data["part"], h.data["box"]) for h in hits] == [("gunnery", "+1"), ("speed", "-FS")]
    assert hits[0].data["guns_lost"]  # the damage model names the guns lost
    c = b.condition("Goeben")
    assert c.gunnery == pytest.approx(0.5) and c.fast_speed_lost and c.damage == pytest.approx(2 / 6)
    assert c.speed_lost_kn == 0.0
    # next round: Goeben fires at +1, die 1 -> 2 -> one hit (die 2: a speed hit on Indomitable);
    # Indomitable's die 1 -> 2 hits on Goeben: 1 (+2), 3 (NF)
    evs = b.step(hold(b), VIS)
    fires = {e.ship: e.data for e in events_of(evs, "fire")}
    assert fires["Goeben"]["modifier"] == 1
    assert [h.data["box"] for h in events_of(evs, "hit") if h.ship == "Goeben"] == ["+2", "NF"]
    v = {x.name: x for x in b.views()}["Goeben"]
    assert not v.can_fire and v.fighting_value == 0.0 and b.condition("Goeben").gunnery == 0.0


def test_full_type_passes_hits_to_the_other_and_all_full_sinks():
    b = BoardEngine().begin(setup(cb("Goeben", "G"), cb("Indomitable", "B", 0, 12000)),
                            ScriptedRng([6, 1, 1, 3] + [6, 1, 5, 3] + [1, 2, 4]))
    b.step(hold(b), VIS)  # +1, +2
    evs = b.step(hold(b), VIS)  # die 5: NF, G/P full; die 3 (odd) goes to the speed boxes
    hits = [h.data for h in events_of(evs, "hit") if h.ship == "Goeben"]
    assert hits[0]["box"] == "NF" and hits[1]["box"] == "-FS" and hits[1]["redirected"]
    evs = b.step(hold(b), VIS)  # Goeben cannot fire now; Indomitable: 2 hits -> -1, -2 (both even)
    hits = [h.data for h in events_of(evs, "hit")]
    assert [h["box"] for h in hits] == ["-1", "-2"]
    assert events_of(evs, "sunk")[0].ship == "Goeben" and not b.views()[0].afloat  # all six boxes: sunk


def test_odd_die_is_gp_even_is_speed_statistics():
    eng = BoardEngine()
    n_odd = n = 0
    for seed in range(500):
        b = eng.begin(setup(cb("Goeben", "G"), cb("Moltke", "G", 400, 0), cb("Indomitable", "B", 0, 12000),
                            cb("Inflexible", "B", 400, 12000)), np.random.default_rng(seed))
        for h in events_of(b.step(hold(b), VIS), "hit"):
            if not h.data["redirected"]:
                assert (h.data["part"] == "gunnery") == (h.data["roll"] % 2 == 1)
                n += 1
                n_odd += h.data["roll"] % 2
    assert n > 500 and within(n_odd, n, 0.5)


def test_single_hit_ships_and_excess_hits_lost():
    # Gloucester's die 1 = 2 hits on Breslau: one sinks her, the other is lost; Breslau's die 1 sinks
    # Gloucester too: fire is simultaneous
    b = BoardEngine().begin(setup(cb("Breslau", "G"), cb("Gloucester", "B", 0, 12000)), ScriptedRng([1, 1]))
    evs = b.step(hold(b), VIS)
    assert len(events_of(evs, "hit")) == 2
    assert {e.ship for e in events_of(evs, "sunk")} == {"Breslau", "Gloucester"}
    assert all(e.data["hits"] == 2 for e in events_of(evs, "fire"))
    assert b.condition("Breslau") == Condition(1.0, 0.0, find_ship("Breslau").sustained_speed_kn, False, True)


def test_squadron_battleships_sink_on_one_hit():
    b = BoardEngine().begin(setup(cb("Goeben", "G"), cb("Jean Bart", "F", 0, 12000)), ScriptedRng([2, 6]))
    evs = b.step(hold(b), VIS)
    assert events_of(evs, "sunk")[0].ship == "Jean Bart"  # a squadron ship: not Courbet's card


# ---------------------------------------------------------------------------------------------------
# Chase, escape, endurance


def test_escape_roll_by_speed_difference():
    # seed 000 'Fast Chase Speed': a difference of 2 escapes on 1 or 2
    assert [escapes(d, 24.0, 22.0) for d in range(1, 7)] == [True, True, False, False, False, False]
    assert not any(escapes(d, 22.0, 22.0) for d in range(1, 7))
    assert not any(escapes(d, 20.0, 22.0) for d in range(1, 7))
    assert all(escapes(d, 30.0, 22.0) for d in range(1, 7))


def test_escape_rate_and_separation_in_the_engine():
    # Gloucester (fast chase speed 25.5) runs from Goeben (no fast speed: her 23.5 kn): difference 2
    eng = BoardEngine()
    got = tries_n = 0
    s = setup(cb("Gloucester", "B", 0, 12000, fast=25.5), cb("Goeben", "G", fast=None),
              intents={"B": "break_off", "G": "engage"})
    for seed in range(600):
        b = eng.begin(s, np.random.default_rng(seed))
        tries = events_of(b.step(hold(b), VIS), "break_off")
        if not b.views()[0].afloat:  # sunk in the first exchange: no escape to try
            continue
        assert len(tries) == 1 and tries[0].data["chased_kn"] - tries[0].data["chaser_kn"] == 2.0
        tries_n += 1
        got += tries[0].data["escaped"]
        if tries[0].data["escaped"]:
            v = {x.name: x for x in b.views()}
            assert math.hypot(v["Gloucester"].x_yd - v["Goeben"].x_yd,
                              v["Gloucester"].y_yd - v["Goeben"].y_yd) > VIS.visibility_yd
            assert not events_of(b.step(hold(b), VIS), "fire")  # parted: no more fire
    assert tries_n > 200 and within(got, tries_n, 2 / 6)


def test_chase_fastest_first_and_the_slower_fall_behind():
    # Breslau (27.5) runs from Gloucester (25) and Indomitable (23): Gloucester rolls first (6: stays up),
    # then Indomitable (2 <= 4.5: falls behind). Fire dice all 6 (misses).
    s = setup(cb("Breslau", "G"), cb("Indomitable", "B", 0, 12000), cb("Gloucester", "B", 2000, 12000),
              intents={"G": "break_off", "B": "engage"})
    b = BoardEngine().begin(s, ScriptedRng([6, 6, 6, 6, 2]))
    evs = events_of(b.step(hold(b), VIS), "break_off")
    assert [(e.target, e.data["roll"], e.data["escaped"]) for e in evs] == [("Gloucester", 6, False),
                                                                            ("Indomitable", 2, True)]
    idx = {v.name: i for i, v in enumerate(b.views())}
    assert (idx["Breslau"], idx["Indomitable"]) in b.parted
    assert (idx["Breslau"], idx["Gloucester"]) in b.contact


def test_chaser_that_stays_up_keeps_the_range():
    # Breslau runs away north at 27.5 kn, Gloucester follows at 25: Breslau fails to escape, so
    # Gloucester keeps up
    s = setup(cb("Breslau", "G", course=0.0), cb("Gloucester", "B", 0, -12000, course=0.0),
              intents={"G": "break_off", "B": "engage"})
    b = BoardEngine().begin(s, ScriptedRng([6, 6, 6]))
    b.step({"Breslau": HelmOrder(0.0, 27.5), "Gloucester": HelmOrder(0.0, 25.0)}, VIS)
    v = {x.name: x for x in b.views()}
    assert v["Breslau"].y_yd > 10000.0  # she did run
    assert math.hypot(v["Breslau"].x_yd - v["Gloucester"].x_yd, v["Breslau"].y_yd - v["Gloucester"].y_yd) \
        <= max(12000.0, 10000.0) + 1.0


def test_both_sides_running_part_freely():
    s = setup(cb("Goeben", "G"), cb("Indomitable", "B", 0, 12000),
              intents={"G": "break_off", "B": "break_off"})
    b = BoardEngine().begin(s, np.random.default_rng(0))
    evs = b.step(hold(b), VIS)
    assert any(e.type == "break_off" and e.data.get("rule") == "neither side chases" for e in evs)
    v = b.views()
    assert math.hypot(v[0].x_yd - v[1].x_yd, v[0].y_yd - v[1].y_yd) > VIS.visibility_yd


def test_helm_turning_away_counts_as_breaking_off():
    # setup says engage, but the helm steers Gloucester straight away: she tries to escape
    # fire dice 6, 6 (misses), then Gloucester's escape die 6 (fails)
    b = BoardEngine().begin(setup(cb("Goeben", "G"), cb("Gloucester", "B", 0, 12000)), ScriptedRng([6, 6, 6]))
    evs = b.step({"Goeben": HelmOrder(0.0, 20.0), "Gloucester": HelmOrder(0.0, 25.0)}, VIS)
    tries = [(e.ship, e.target, e.data["roll"]) for e in events_of(evs, "break_off")]
    assert tries == [("Gloucester", "Goeben", 6)]
    assert b.running == {"B"}


def test_endurance_chart_rolls():
    # seed 000 'Endurance Charts': Goeben 7 squares, squares 4-7 need 1-5, 1-5, 1-4, 1-3; the last repeats
    g = R.charts["Goeben"]
    assert [g.needed(u) for u in range(1, 10)] == [None, None, None, 5, 5, 4, 3, 3, 3]
    assert [R.charts["Indomitable"].needed(u) for u in (5, 6, 7, 8, 9, 10)] == [None, 5, 4, 4, 3, 3]
    assert [R.charts["Moltke"].needed(u) for u in (6, 7, 8, 9)] == [None, 5, 5, 4]
    assert R.charts["New Zealand"] == R.charts["Moltke"]
    assert R.charts["Inflexible"] == R.charts["Indefatigable"]
    assert isinstance(g, EnduranceChart) and R.fast_use_interval_s == 6 * 3600.0


def test_endurance_roll_failure_loses_fast_speed():
    # each round a use of fast speed (interval shortened for the test): Goeben runs from Indomitable;
    # the 4th use needs 1-5 and the die is 6
    rules = replace(R, fast_use_interval_s=R.round_s)
    eng = BoardEngine(rules)
    s = setup(cb("Goeben", "G", fast=30.0), cb("Indomitable", "B", 0, 12000, fast=29.0),
              intents={"G": "break_off", "B": "engage"})
    # per round: 2 fire dice (misses), escape die 6 (fails: difference 1)
    dice = [6, 6, 6] * 3 + [6, 6, 6, 6]  # round 4: fire, fire, endurance 6 (fails), escape 6
    b = eng.begin(s, ScriptedRng(dice))
    for _ in range(3):
        b.step(hold(b), VIS)
    assert not b.condition("Goeben").fast_speed_lost
    evs = events_of(b.step(hold(b), VIS), "break_off")
    assert evs[0].data["endurance"]["Goeben"] == {"use": 4, "roll": 6, "need_at_most": 5, "kept": False}
    assert evs[0].data["chased_kn"] == find_ship("Goeben").sustained_speed_kn  # back to her max speed
    assert b.condition("Goeben").fast_speed_lost


# ---------------------------------------------------------------------------------------------------
# Colliers, conditions, views


def test_collier_sunk_on_contact_and_coaling_penalty():
    s = setup(cb("Goeben", "G", unit="Goeben", speed=0.0),
              cb("Bogadir", "G", 0, -400, unit="Goeben", speed=0.0), cb("Gloucester", "B", 0, 12000))
    b = BoardEngine().begin(s, np.random.default_rng(4))
    evs = b.step(hold(b), VIS)
    assert evs[0].type == "sunk" and evs[0].ship == "Bogadir"
    fires = {e.ship: e.data for e in events_of(evs, "fire")}
    assert fires["Goeben"]["modifier"] == 1  # caught coaling: +1 that turn
    if b.views()[2].afloat:
        assert {e.ship: e.data for e in events_of(b.step(hold(b), VIS), "fire")}["Goeben"]["modifier"] == 0


def test_condition_carried_in_and_out():
    # -1 speed box: one square a turn = 22/3 kn; +1 G/P box: gunnery 0.5
    lost_kn = find_ship("Goeben").sustained_speed_kn - 22 / 3
    carried = Condition(damage=0.5, gunnery=0.5, speed_lost_kn=lost_kn, fast_speed_lost=True)
    b = BoardEngine().begin(setup(cb("Goeben", "G", cond=carried), cb("Indomitable", "B", 0, 12000)),
                            np.random.default_rng(0))
    g = b.ships[0]
    assert (g.gp, g.spd, g.extra) == (1, 2, 0)  # +1; -FS and -1; 3 of 6 boxes = damage 0.5
    c = b.condition("Goeben")
    assert (c.damage, c.gunnery, c.speed_lost_kn) == pytest.approx((0.5, 0.5, lost_kn))
    assert c.fast_speed_lost and not c.sunk
    v = b.views()[0]
    assert v.max_speed_kn == pytest.approx(22 / 3)
    assert v.fighting_value == pytest.approx(R.expected_hits(1) * 3)
    fires = {e.ship: e.data for e in events_of(b.step(hold(b), VIS), "fire")}
    assert fires["Goeben"]["modifier"] == 1
    # a single-hit ship carries her gunnery as a modifier; a sunk ship stays sunk
    b = BoardEngine().begin(setup(cb("Gloucester", "B", cond=Condition(gunnery=0.5)),
                                  cb("Breslau", "G", 0, 12000, cond=Condition(damage=1.0, sunk=True))),
                            np.random.default_rng(0))
    assert not b.views()[1].afloat and b.condition("Breslau").sunk
    assert b.ships[0].modifier(R) == 1 and b.condition("Gloucester") == Condition(gunnery=0.5)


def test_views_fighting_value_and_gun_range():
    s = setup(cb("Goeben", "G"), cb("Gloucester", "B", 0, 12000), cb("Bogadir", "G", 0, -400))
    b = BoardEngine().begin(s, np.random.default_rng(0))
    v = {x.name: x for x in b.views()}
    assert v["Goeben"].fighting_value == pytest.approx(4 / 6 * 6) and v["Goeben"].gun_range_yd == 16000.0
    assert v["Gloucester"].fighting_value == pytest.approx(4 / 6)
    assert not v["Bogadir"].can_fire and v["Bogadir"].fighting_value == 0.0
    assert b.next_tick_s() == 1800.0 and b.settled() is None


def test_min_range_kept_on_the_plane():
    s = setup(cb("Goeben", "G", course=0.0), cb("Indomitable", "B", 0, 12000, course=180.0))
    b = BoardEngine().begin(s, ScriptedRng([6, 6] * 4))
    for _ in range(3):
        b.step({"Goeben": HelmOrder(0.0, 24.0), "Indomitable": HelmOrder(180.0, 23.0)}, VIS)
        v = b.views()
        assert math.hypot(v[0].x_yd - v[1].x_yd, v[0].y_yd - v[1].y_yd) >= R.min_range_yd - 1.0


# ---------------------------------------------------------------------------------------------------
# Whole battles


def test_deterministic():
    s = setup(cb("Goeben", "G"), cb("Breslau", "G", 0, -400), cb("Indomitable", "B", 0, 14000),
              cb("Indefatigable", "B", 400, 14000), cb("Gloucester", "B", -2000, 12000))
    a = fight(BoardEngine(), s, np.random.default_rng(7))
    b = fight(BoardEngine(), s, np.random.default_rng(7))
    c = fight(BoardEngine(), s, np.random.default_rng(8))
    assert a.events == b.events and a.conditions == b.conditions and a.frames == b.frames
    assert a.events != c.events


def test_outgunned_side_loses():
    eng = BoardEngine()
    glo = goe = 0
    for seed in range(200):
        b = eng.begin(setup(cb("Goeben", "G"), cb("Gloucester", "B", 0, 12000)), np.random.default_rng(seed))
        for _ in range(16):
            b.step(hold(b), VIS)
            if not all(v.afloat for v in b.views()):
                break
        glo += b.condition("Gloucester").sunk
        goe += b.condition("Goeben").sunk
    assert glo >= 180 and goe <= 5


def test_driver_runs_a_board_battle():
    s = setup(cb("Goeben", "G"), cb("Indomitable", "B", 0, 14000), cb("Indefatigable", "B", 400, 14000))
    out = fight(BoardEngine(), s, np.random.default_rng(3))
    assert out.reason in ("destroyed", "separated", "time") and out.engine == "board"
    assert all(e.type in ("fire", "hit", "sunk", "break_off") for e in out.events)


def test_ten_ship_round_is_fast():
    a = ["Goeben", "Breslau", "Viribus Unitis", "Tegetthoff", "Prinz Eugen"]
    bb = ["Indomitable", "Indefatigable", "Inflexible", "Defence", "Warrior"]
    s = setup(*[cb(n, "G", i * 400.0, 0.0) for i, n in enumerate(a)],
              *[cb(n, "B", i * 400.0, 14000.0) for i, n in enumerate(bb)])
    eng, spent, rounds = BoardEngine(), 0.0, 0
    for seed in range(30):
        b = eng.begin(s, np.random.default_rng(seed))
        for _ in range(4):
            h = hold(b)
            t0 = time.perf_counter()
            b.step(h, VIS)
            b.views()
            spent += time.perf_counter() - t0
            rounds += 1
    assert spent / rounds < 0.005
