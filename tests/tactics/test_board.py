"""The 'board' engine (campaign/tactics/board.py) against seed 000's combat, hit record and chase rules, and
its ships on the battle plane: moved only by their own speed and course, firing only within reach, escaping
only by the board's roll."""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import replace
from types import SimpleNamespace

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, example, given, settings
from hypothesis import strategies as st

from campaign.model.guns import longest_reach_yd
from campaign.model.ships import default_ships, find_ship
from campaign.tactics import board
from campaign.tactics.battle import BattleRun, fight
from campaign.tactics.board import (
    BoardEngine,
    EnduranceChart,
    assign_targets,
    escapes,
    fire_modifier,
    may_fire_on,
)
from campaign.tactics.helm import default_helm_rules
from campaign.tactics.kinematics import S_PER_H, YD_PER_NM
from campaign.tactics.plane.motion import HELM_STEP_S
from campaign.tactics.protocol import BattleSetup, Combatant, Condition, HelmOrder, Setting
from tests.tactics.dice import ScriptedRng, within

R = board.load_rules()
VIS = Setting(visibility_yd=20000.0)
TICKS = R.ticks_per_round
BOARD_ENDS = {"destroyed", "escaped", "separated", "darkness", "time"}


def cb(name: str, side: str, x: float = 0.0, y: float = 0.0, *, unit: str | None = None, course: float = 90.0,
       speed: float = 15.0, fast: float | None = -1.0, cond: Condition | None = None) -> Combatant:
    s = find_ship(name)
    cond = cond or Condition()
    max_kn = max(0.0, s.sustained_speed_kn - cond.speed_lost_kn)
    return Combatant(s, unit or f"{side}:{name}", side, x, y, course, speed, max_kn,
                     s.sustained_speed_kn if fast == -1.0 else fast, cond)


def setup(*ships: Combatant, intents=None, setting: Setting = VIS) -> BattleSetup:
    sides = dict.fromkeys(c.side for c in ships)
    return BattleSetup(tuple(ships), setting, intents or {s: "engage" for s in sides})


class Orders(dict):
    """Plain helm orders with the sides' intents, as the helm carries them (``Helm.intents``)."""

    def __init__(self, orders, intents) -> None:
        super().__init__(orders)
        self.intents = dict(intents)


def hold(b, intents=None):
    """Every afloat ship keeps her course and speed."""
    orders = {v.name: HelmOrder(v.course_deg, v.speed_kn) for v in b.views() if v.afloat}
    return orders if intents is None else Orders(orders, intents)


def play_round(b, orders=hold, setting: Setting = VIS) -> list:
    """Step ``b`` tick by tick to the end of its present round; every event of the ticks."""
    evs = []
    while True:
        evs += b.step(orders(b), setting)
        if b.tick % TICKS == 0:
            return evs


def events_of(evs, kind):
    return [e for e in evs if e.type == kind]


def range_of(views, a: str, b: str) -> float:
    v = {x.name: x for x in views}
    return math.hypot(v[a].x_yd - v[b].x_yd, v[a].y_yd - v[b].y_yd)


# ---------------------------------------------------------------------------------------------------
# Tables


def test_combat_results_table():
    # seed 000 'Combat'/'CRT': 1 -> 2 hits, 2-3 -> hit, 4-7 -> miss; above the table a miss
    assert [R.hits(d) for d in range(1, 10)] == [2, 1, 1, 0, 0, 0, 0, 0, 0]
    assert R.expected_hits(0) == pytest.approx(4 / 6)
    assert [R.gunnery_level(m) for m in (0, 1, 2, None)] == pytest.approx([1.0, 0.5, 0.25, 0.0])


def test_crt_dice_statistics_in_the_engine():
    # ten dreadnoughts a side (same rank, undamaged, within reach on parallel courses): every die unmodified
    names = ["Viribus Unitis", "Tegetthoff", "Prinz Eugen", "Courbet", "Jean Bart", "France",
             "Dante Alighieri", "Giulio Cesare", "Conte di Cavour", "Leonardo da Vinci"]
    ships = [cb(n, "A", i * 500.0, 0.0) for i, n in enumerate(names[:5])] + \
            [cb(n, "B", i * 500.0, 12000.0) for i, n in enumerate(names[5:])]
    eng = BoardEngine()
    hits = []
    for seed in range(150):
        b = eng.begin(setup(*ships), np.random.default_rng(seed))
        fires = events_of(play_round(b), "fire")
        assert all(e.data["modifier"] == 0 for e in fires)
        hits += [e.data["hits"] for e in fires]
    n = len(hits)
    assert n == 1500
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
    b = BoardEngine().begin(setup(cb("Goeben", "G"), cb("Gloucester", "B", 0, 9000)),
                            np.random.default_rng(1))
    fires = {e.ship: e for e in events_of(play_round(b), "fire")}
    glo = fires["Gloucester"].data
    assert glo["modifier"] == 2 and glo["hits"] == R.hits(glo["roll"] + 2)
    assert fires["Goeben"].data["modifier"] == 0


def test_ranks_of_our_ship_types():
    types = ("dreadnought", "battlecruiser", "battleship", "armoured_cruiser", "light_cruiser")
    assert [R.ranks[R.board_type[t]] for t in types] == [1, 2, 2, 3, 4]


# ---------------------------------------------------------------------------------------------------
# Targets and reach


def ranked(btype: str):
    return SimpleNamespace(btype=btype, rank=R.ranks[btype])


def test_may_not_fire_up_while_a_lower_enemy_remains():
    lc, bc, ca = ranked("LC"), ranked("BC"), ranked("CA")
    assert not may_fire_on(lc, bc, [bc, lc])
    assert may_fire_on(lc, bc, [bc])
    assert not may_fire_on(lc, bc, [bc, ca])  # the CA ranks below the BC: fire on her first
    assert may_fire_on(bc, lc, [bc, lc])  # firing down is always allowed
    s = setup(cb("Goeben", "G"), cb("Breslau", "G", 0, -400), cb("Gloucester", "B", 0, 9000))
    b = BoardEngine().begin(s, np.random.default_rng(0))
    fires = {e.ship: e.target for e in events_of(play_round(b), "fire")}
    assert fires["Gloucester"] == "Breslau"


def test_the_rank_rule_applies_among_the_enemies_within_reach():
    # Breslau is beyond Gloucester's 15,020 yd, Goeben within it: Gloucester may fire on Goeben
    s = setup(cb("Goeben", "G"), cb("Breslau", "G", 0, -8000), cb("Gloucester", "B", 0, 9000))
    b = BoardEngine().begin(s, np.random.default_rng(0))
    fires = {e.ship: e for e in events_of(play_round(b), "fire")}
    assert fires["Gloucester"].target == "Goeben" and fires["Gloucester"].data["modifier"] == 2
    assert "Breslau" not in fires  # 17,000 yd: beyond her 10.5 cm guns' 13,340


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


def test_gun_reach_is_each_gun_s_own_and_no_fire_beyond_it_or_out_of_sight():
    # The published reach of her longest-ranged gun (data/guns.yaml): Goeben's 28 cm 18,410 yd,
    # Gloucester's 6-inch 15,020 yd.
    b = BoardEngine().begin(setup(cb("Goeben", "G"), cb("Gloucester", "B", 0, 16500)), np.random.default_rng(0))
    reach = {v.name: v.gun_range_yd for v in b.views()}
    assert reach == {"Goeben": longest_reach_yd(find_ship("Goeben")), "Gloucester": longest_reach_yd(find_ship("Gloucester"))}
    assert reach["Gloucester"] < 16500 < reach["Goeben"]
    # 16,500 yd: Goeben reaches Gloucester, Gloucester does not reach Goeben
    b = BoardEngine().begin(setup(cb("Goeben", "G"), cb("Gloucester", "B", 0, 16500)),
                            np.random.default_rng(0))
    assert [e.ship for e in events_of(play_round(b), "fire")] == ["Goeben"]
    # in haze of 8,000 yd nobody fires at 12,000
    haze = Setting(visibility_yd=8000.0)
    b = BoardEngine().begin(setup(cb("Goeben", "G"), cb("Indomitable", "B", 0, 12000), setting=haze),
                            np.random.default_rng(0))
    assert not events_of(play_round(b, setting=haze), "fire")


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
    # 4 (even: -FS). The hit record alone (damage "own"): no damage-model dice between the board's.
    b = BoardEngine(damage="own").begin(setup(cb("Goeben", "G"), cb("Indomitable", "B", 0, 12000)),
                            ScriptedRng([6, 1, 1, 4, 1, 1, 2, 1, 3]))
    hits = events_of(play_round(b), "hit")
    assert [(h.data["part"], h.data["box"]) for h in hits] == [("gunnery", "+1"), ("speed", "-FS")]
    assert hits[0].data["guns_lost"]  # the damage model names the guns lost
    c = b.condition("Goeben")
    assert c.gunnery == pytest.approx(0.5) and c.fast_speed_lost and c.damage == pytest.approx(2 / 6)
    assert c.speed_lost_kn == 0.0
    # next round: Goeben fires at +1, die 1 -> 2 -> one hit (die 2: a speed hit on Indomitable);
    # Indomitable's die 1 -> 2 hits on Goeben: 1 (+2), 3 (NF)
    evs = play_round(b)
    fires = {e.ship: e.data for e in events_of(evs, "fire")}
    assert fires["Goeben"]["modifier"] == 1
    assert [h.data["box"] for h in events_of(evs, "hit") if h.ship == "Goeben"] == ["+2", "NF"]
    v = {x.name: x for x in b.views()}["Goeben"]
    assert not v.can_fire and v.fighting_value == 0.0 and b.condition("Goeben").gunnery == 0.0


def test_full_type_passes_hits_to_the_other_and_all_full_sinks():
    b = BoardEngine(damage="own").begin(setup(cb("Goeben", "G"), cb("Indomitable", "B", 0, 12000)),
                            ScriptedRng([6, 1, 1, 3] + [6, 1, 5, 3] + [1, 2, 4]))
    play_round(b)  # +1, +2
    evs = play_round(b)  # die 5: NF, G/P full; die 3 (odd) goes to the speed boxes
    hits = [h.data for h in events_of(evs, "hit") if h.ship == "Goeben"]
    assert hits[0]["box"] == "NF" and hits[1]["box"] == "-FS" and hits[1]["redirected"]
    evs = play_round(b)  # Goeben cannot fire now; Indomitable: 2 hits -> -1, -2 (both even)
    hits = [h.data for h in events_of(evs, "hit")]
    assert [h["box"] for h in hits] == ["-1", "-2"]
    assert events_of(evs, "sunk")[0].ship == "Goeben" and not b.views()[0].afloat  # all six boxes: sunk


def test_odd_die_is_gp_even_is_speed_statistics():
    eng = BoardEngine()
    n_odd = n = 0
    for seed in range(300):
        b = eng.begin(setup(cb("Goeben", "G"), cb("Moltke", "G", 400, 0), cb("Indomitable", "B", 0, 12000),
                            cb("Inflexible", "B", 400, 12000)), np.random.default_rng(seed))
        for h in events_of(play_round(b), "hit"):
            if not h.data["redirected"]:
                assert (h.data["part"] == "gunnery") == (h.data["roll"] % 2 == 1)
                n += 1
                n_odd += h.data["roll"] % 2
    assert n > 300 and within(n_odd, n, 0.5)


def test_single_hit_ships_and_excess_hits_lost():
    # Gloucester's die 1 = 2 hits on Breslau: one sinks her, the other is lost; Breslau's die 1 sinks
    # Gloucester too: fire is simultaneous
    b = BoardEngine().begin(setup(cb("Breslau", "G"), cb("Gloucester", "B", 0, 6000)), ScriptedRng([1, 1]))
    evs = play_round(b)
    assert len(events_of(evs, "hit")) == 2
    assert {e.ship for e in events_of(evs, "sunk")} == {"Breslau", "Gloucester"}
    assert all(e.data["hits"] == 2 for e in events_of(evs, "fire"))
    # (her rounds left are what her one firing spent: campaign.tactics.ammunition, tests/tactics/test_ammunition.py)
    assert replace(b.condition("Breslau"), rounds_left=None) == Condition(
        1.0, 0.0, find_ship("Breslau").sustained_speed_kn, False, True)


def test_squadron_battleships_sink_on_one_hit():
    b = BoardEngine().begin(setup(cb("Goeben", "G"), cb("Jean Bart", "F", 0, 12000)), ScriptedRng([2, 6]))
    evs = play_round(b)
    assert events_of(evs, "sunk")[0].ship == "Jean Bart"  # a squadron ship: not Courbet's card


# ---------------------------------------------------------------------------------------------------
# Ticks and rounds


def test_the_tick_is_the_motion_step_and_fire_comes_once_a_round():
    assert R.move_step_s == 60.0 and R.round_s == 1800.0 and TICKS == 30
    b = BoardEngine().begin(setup(cb("Goeben", "G"), cb("Indomitable", "B", 0, 12000)),
                            np.random.default_rng(0))
    assert b.next_tick_s() == 60.0
    for k in range(3 * TICKS):
        t0 = b.t_s
        evs = b.step(hold(b), VIS)
        fired = Counter(e.ship for e in events_of(evs, "fire"))
        if k % TICKS:
            assert not fired
        else:  # the round opens with the exchange of fire, where the ships are as it begins
            assert fired == Counter({"Goeben": 1, "Indomitable": 1})
            assert all(e.t_s == t0 == k * 60.0 for e in events_of(evs, "fire"))
    assert b.round == 3


def test_fire_only_once_a_round_in_a_whole_battle():
    s = setup(cb("Goeben", "G"), cb("Breslau", "G", 400, -400), cb("Indomitable", "B", 0, 13000),
              cb("Indefatigable", "B", 400, 13000), cb("Gloucester", "B", -2000, 11000))
    for seed in range(2):
        out = fight(BoardEngine(), s, np.random.default_rng(seed))
        fires = events_of(out.events, "fire")
        assert fires
        assert all(e.t_s % R.round_s == 0.0 for e in fires)
        assert max(Counter((e.ship, e.t_s) for e in fires).values()) == 1


def test_ships_steam_at_their_own_speed_and_course_only():
    # two ships on parallel courses 12,000 yd apart fight a round: neither is moved by the other
    b = BoardEngine().begin(setup(cb("Goeben", "G", course=90.0, speed=20.0),
                                  cb("Indomitable", "B", 0, 12000, course=90.0, speed=20.0)),
                            np.random.default_rng(5))
    play_round(b)
    run_yd = 20.0 * YD_PER_NM / S_PER_H * R.round_s
    for v in b.views():
        if v.afloat and v.max_speed_kn >= 20.0:
            assert v.x_yd == pytest.approx(run_yd, rel=1e-9) and v.course_deg == pytest.approx(90.0)


def test_turning_and_gathering_way_follow_the_stand_in_handling():
    # from 10 kn on 000 she is ordered to 180 at 20 kn: 16 points take 200 s (the 1905 fleet card), and she
    # gathers no way while she turns; then a knot in each 30 s
    b = BoardEngine().begin(setup(cb("Goeben", "G", course=0.0, speed=10.0),
                                  cb("Indomitable", "B", 0, 30000)), np.random.default_rng(0))
    for _ in range(5):
        b.step({"Goeben": HelmOrder(180.0, 20.0), "Indomitable": HelmOrder(90.0, 15.0)}, VIS)
    g = {v.name: v for v in b.views()}["Goeben"]
    assert g.course_deg == pytest.approx(180.0)
    # 200 s turning (10 kn -> 7.5 kn on the circle), then 100 s gaining at 1 kn / 30 s
    assert g.speed_kn == pytest.approx(7.5 + 100.0 / 30.0, abs=1e-6)
    path = b.paths["Goeben"]
    assert len(path) == 1 + R.move_step_s / HELM_STEP_S


def test_a_ship_steadying_on_a_wake_still_gathers_way():
    # an order a fraction of a degree off her heading at every step is steadying, not a turn
    class Creeping:
        def want(self, t_s, bodies):
            return {b.name: HelmOrder(b.course_deg + 0.3, 24.0) for b in bodies}

    b = BoardEngine().begin(setup(cb("Indefatigable", "B", course=0.0, speed=9.0),
                                  cb("Goeben", "G", 0, -30000, course=180.0)), np.random.default_rng(0))
    for _ in range(5):
        b.step(Creeping(), VIS)
    assert {v.name: v for v in b.views()}["Indefatigable"].speed_kn == pytest.approx(19.0)


def test_hulls_that_meet_stop_and_the_collision_does_no_damage():
    # Two colliers of the two sides (no guns, no warship to find them) steaming at one another.
    b = BoardEngine().begin(setup(cb("Bogadir", "G", course=0.0, speed=10.0),
                                  cb("Waltraute", "B", 0, 800, course=180.0, speed=10.0)),
                            np.random.default_rng(0))
    evs = []
    for _ in range(3):
        evs += b.step(hold(b), VIS)
    (c,) = events_of(evs, "collision")
    assert c.data["result"] == "no damage" and {c.ship, c.target} == {"Bogadir", "Waltraute"}
    assert c.data["parts"] == ("bow", "bow") and c.data["closing_kn"] > 0.0
    assert not events_of(evs, "ram") and not events_of(evs, "hit") and not events_of(evs, "sunk")
    v = b.views()
    assert all(x.speed_kn == 0.0 and x.afloat for x in v)
    assert range_of(v, "Bogadir", "Waltraute") < 800.0
    assert b.condition("Bogadir") == Condition() and b.condition("Waltraute") == Condition()


# ---------------------------------------------------------------------------------------------------
# Chase, escape, endurance


def test_escape_roll_by_speed_difference():
    # seed 000 'Fast Chase Speed': a difference of 2 escapes on 1 or 2
    assert [escapes(d, 24.0, 22.0) for d in range(1, 7)] == [True, True, False, False, False, False]
    assert not any(escapes(d, 22.0, 22.0) for d in range(1, 7))
    assert not any(escapes(d, 20.0, 22.0) for d in range(1, 7))
    assert all(escapes(d, 30.0, 22.0) for d in range(1, 7))


def test_escape_rate_in_the_engine_and_the_battle_ends_as_escaped():
    # Gloucester (fast chase speed 25.5) runs from Goeben (no fast speed: her 23.5 kn): difference 2
    eng = BoardEngine()
    got = tries_n = 0
    s = setup(cb("Gloucester", "B", 0, 9000, fast=25.5), cb("Goeben", "G", fast=None),
              intents={"B": "break_off", "G": "engage"})
    for seed in range(300):
        b = eng.begin(s, np.random.default_rng(seed))
        tries = events_of(play_round(b), "break_off")
        if not b.views()[0].afloat:  # sunk in the first exchange: no escape to try
            continue
        assert len(tries) == 1 and tries[0].data["chased_kn"] - tries[0].data["chaser_kn"] == 2.0
        tries_n += 1
        got += tries[0].data["escaped"]
        assert b.ended() == ("escaped" if tries[0].data["escaped"] else None)
        if tries[0].data["escaped"]:
            assert not b.step(hold(b), VIS)  # over: nothing more happens
    assert tries_n > 100 and within(got, tries_n, 2 / 6)


def test_an_escape_leaves_every_ship_where_she_is():
    # the same motion, once with a failed roll (6), once with a successful one (1): the same places
    s = setup(cb("Gloucester", "B", 0, 9000, course=0.0, fast=25.5), cb("Goeben", "G", course=0.0, fast=None),
              intents={"B": "break_off", "G": "engage"})
    places = []
    for roll in (6, 1):
        b = BoardEngine().begin(s, ScriptedRng([6, 6, roll]))  # both fire dice miss
        tries = events_of(play_round(b), "break_off")
        assert [e.data["escaped"] for e in tries] == [roll == 1]
        places.append([(v.x_yd, v.y_yd, v.course_deg, v.speed_kn) for v in b.views()])
    assert places[0] == places[1]
    assert range_of(b.views(), "Gloucester", "Goeben") < VIS.visibility_yd  # still in sight: no teleport
    assert b.ended() == "escaped"


def test_chase_fastest_first_and_the_slower_fall_behind():
    # Breslau (27.5) runs from Gloucester (25) and Indomitable (23): Gloucester rolls first (6: stays up),
    # then Indomitable (2 <= 4.5: falls behind). Fire: Indomitable and Gloucester miss (6, 6); Breslau's
    # 10.5 cm guns (13,340 yd) reach neither.
    s = setup(cb("Breslau", "G"), cb("Indomitable", "B", 0, 15000), cb("Gloucester", "B", 2000, 14000),
              intents={"G": "break_off", "B": "engage"})
    b = BoardEngine().begin(s, ScriptedRng([6, 6, 6, 2] + [6, 6]))
    evs = events_of(play_round(b, lambda b: hold(b)), "break_off")
    assert [(e.target, e.data["roll"], e.data["escaped"]) for e in evs] == [("Gloucester", 6, False),
                                                                            ("Indomitable", 2, True)]
    idx = {v.name: i for i, v in enumerate(b.views())}
    assert b.parted == {(idx["Breslau"], idx["Indomitable"])}
    assert b.ended() is None  # Gloucester stays up
    # fallen behind: Indomitable no longer fires on Breslau, though within her reach; Gloucester misses (6)
    # and Breslau rolls against her alone (6: fails)
    evs = play_round(b, lambda b: hold(b))
    assert [(e.target, e.data["roll"]) for e in events_of(evs, "break_off")] == [("Gloucester", 6)]
    assert [(e.ship, e.target) for e in events_of(evs, "fire")] == [("Gloucester", "Breslau")]
    assert range_of(b.views(), "Breslau", "Indomitable") <= longest_reach_yd(find_ship("Indomitable"))


def both_flee(b):
    return hold(b, {"G": "break_off", "B": "break_off"})


def test_both_sides_running_part_freely_where_they_are():
    s = setup(cb("Goeben", "G"), cb("Indomitable", "B", 0, 12000),
              intents={"G": "break_off", "B": "break_off"})
    b = BoardEngine().begin(s, np.random.default_rng(0))
    evs = play_round(b)
    assert any(e.type == "break_off" and e.data.get("rule") == "neither side chases" and e.data["escaped"]
               for e in evs)
    assert b.ended() == "escaped"
    assert range_of(b.views(), "Goeben", "Indomitable") == pytest.approx(12000.0)


def test_running_is_the_intent_never_a_course_away():
    # the setup says engage and the helm steers Gloucester straight away: she does not roll to escape
    b = BoardEngine().begin(setup(cb("Goeben", "G"), cb("Gloucester", "B", 0, 9000)), ScriptedRng([6, 6]))
    evs = play_round(b, lambda b: {"Goeben": HelmOrder(0.0, 20.0), "Gloucester": HelmOrder(0.0, 25.0)})
    assert not events_of(evs, "break_off") and b.ended() is None
    # the helm's intent says break off (the driver changed it): she rolls (fire dice 6, 6, escape 6)
    b = BoardEngine().begin(setup(cb("Goeben", "G"), cb("Gloucester", "B", 0, 9000)), ScriptedRng([6, 6, 6]))
    evs = play_round(b, lambda b: Orders({"Goeben": HelmOrder(0.0, 20.0), "Gloucester": HelmOrder(0.0, 25.0)},
                                         {"G": "engage", "B": "break_off"}))
    tries = [(e.ship, e.target, e.data["roll"]) for e in events_of(evs, "break_off")]
    assert tries == [("Gloucester", "Goeben", 6)]


def breslau_runs(gloucester_fast: float | None, breslau_fast: float | None, seed: int) -> BattleRun:
    """Breslau (27.5 kn) breaks off from Gloucester (25 kn) 2,000 yd astern of her, who chases to the end
    (no break-off). Neither can fire (NF carried in): nobody is sunk, so the chase alone decides."""
    s = setup(cb("Breslau", "G", 0, 2000, course=0.0, speed=25.0, fast=breslau_fast,
                 cond=Condition(gunnery=0.0)),
              cb("Gloucester", "B", 0, 0, course=0.0, speed=25.0, fast=gloucester_fast,
                 cond=Condition(gunnery=0.0)),
              intents={"G": "break_off", "B": "engage"})
    return BattleRun(BoardEngine(), s, np.random.default_rng(seed),
                     rules=replace(default_helm_rules(), break_off_ratio=0.0))


def rolls_of(out):
    return [e for e in out.events if e.type == "break_off" and "roll" in e.data]


def test_a_faster_runner_pulls_away_and_the_battle_goes_on_without_the_roll():
    # chase speeds 27.5 and 27.2: no die can be low enough, so she never escapes by the roll; she draws
    # out of contact (10,000 yd) and on until out of sight: separated, never drawn off or out of range
    run = breslau_runs(27.2, None, 0)
    ranges = [range_of(run.battle.views(), "Breslau", "Gloucester")]
    while run.advance() is not None:
        ranges.append(range_of(run.battle.views(), "Breslau", "Gloucester"))
    out = run.outcome()
    assert out.reason == "separated"
    assert all(b > a for a, b in zip(ranges, ranges[1:]))  # she pulls away, tick by tick
    rolls = rolls_of(out)
    assert rolls and not any(e.data["escaped"] for e in rolls)
    assert out.duration_s > default_helm_rules().drawn_off_min * 60.0 + R.round_s
    assert ranges[-1] > VIS.visibility_yd and ranges[-2] <= VIS.visibility_yd


def test_a_faster_runner_is_in_the_battle_until_her_roll_succeeds():
    # chase speeds 29.5 and 25: she escapes on 1-4; with these dice two rolls fail and the third succeeds,
    # the battle ending then, as "escaped", with the ships where they are
    run = breslau_runs(None, 29.5, 5)
    ranges = [range_of(run.battle.views(), "Breslau", "Gloucester")]
    while run.advance() is not None:
        ranges.append(range_of(run.battle.views(), "Breslau", "Gloucester"))
    out = run.outcome()
    rolls = rolls_of(out)
    assert out.reason == "escaped" and [e.data["escaped"] for e in rolls] == [False, False, True]
    assert [e.t_s for e in rolls] == [R.round_s, 2 * R.round_s, 3 * R.round_s]
    assert out.duration_s == 3 * R.round_s
    assert all(b > a for a, b in zip(ranges, ranges[1:]))  # pulling away all the while
    assert ranges[-1] > ranges[0] + 2.0 * YD_PER_NM / S_PER_H * out.duration_s * 0.8
    last = {n: (x, y) for n, x, y, *_ in out.frames[-1].ships}
    assert (out.final["Breslau"].x_yd, out.final["Breslau"].y_yd) == pytest.approx(last["Breslau"], abs=0.1)
    assert ranges[-1] < VIS.visibility_yd  # in sight still: the world takes up the chase


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
    # each round a use of fast speed (interval shortened for the test): Goeben runs from Inflexible (no
    # counter figure: her fast speed is the Combatant's); the 4th use needs 1-5 and the die is 6
    rules = replace(R, fast_use_interval_s=R.round_s)
    eng = BoardEngine(rules)
    s = setup(cb("Goeben", "G", fast=30.0), cb("Inflexible", "B", 0, 12000, fast=29.0),
              intents={"G": "break_off", "B": "engage"})
    # per round: 2 fire dice (misses), escape die 6 (fails: difference 1)
    dice = [6, 6, 6] * 3 + [6, 6, 6, 6]  # round 4: fire, fire, endurance 6 (fails), escape 6
    b = eng.begin(s, ScriptedRng(dice))
    for _ in range(3):
        play_round(b)
    assert not b.condition("Goeben").fast_speed_lost
    evs = events_of(play_round(b), "break_off")
    assert evs[0].data["endurance"]["Goeben"] == {"use": 4, "roll": 6, "need_at_most": 5, "kept": False}
    assert evs[0].data["chased_kn"] == find_ship("Goeben").sustained_speed_kn  # back to her max speed
    assert b.condition("Goeben").fast_speed_lost


# ---------------------------------------------------------------------------------------------------
# Colliers, conditions, views, command


def test_collier_sunk_on_contact_and_coaling_penalty():
    s = setup(cb("Goeben", "G", unit="Goeben", speed=0.0),
              cb("Bogadir", "G", 0, -400, unit="Goeben", speed=0.0),
              cb("Gloucester", "B", 0, 9000, speed=0.0))
    b = BoardEngine().begin(s, np.random.default_rng(4))
    evs = play_round(b)  # the first tick: found at once, before the round's fire
    assert (evs[0].type, evs[0].ship, evs[0].target) == ("sunk", "Bogadir", "Gloucester")
    fires = {e.ship: e.data for e in events_of(evs, "fire")}
    assert fires["Goeben"]["modifier"] == 1  # caught coaling: +1 that turn
    if b.views()[2].afloat:
        assert {e.ship: e.data for e in events_of(play_round(b), "fire")}["Goeben"]["modifier"] == 0


def test_a_collier_out_of_reach_is_not_found():
    s = setup(cb("Bogadir", "G", speed=0.0), cb("Gloucester", "B", 0, 16000))  # beyond her 15,020 yd
    b = BoardEngine().begin(s, np.random.default_rng(0))
    assert not b.step(hold(b), VIS) and b.views()[0].afloat


def test_condition_carried_in_and_out():
    # -1 speed box: one square a turn = 22/3 kn; +1 G/P box: gunnery 0.5
    lost_kn = find_ship("Goeben").sustained_speed_kn - 22 / 3
    carried = Condition(damage=0.5, gunnery=0.5, speed_lost_kn=lost_kn, fast_speed_lost=True)
    b = BoardEngine().begin(setup(cb("Goeben", "G", cond=carried, speed=7.0),
                                  cb("Indomitable", "B", 0, 12000)), np.random.default_rng(0))
    g = b.ships[0]
    assert (g.gp, g.spd, g.extra) == (1, 2, 0)  # +1; -FS and -1; 3 of 6 boxes = damage 0.5
    c = b.condition("Goeben")
    assert (c.damage, c.gunnery, c.speed_lost_kn) == pytest.approx((0.5, 0.5, lost_kn))
    assert c.fast_speed_lost and not c.sunk
    v = b.views()[0]
    assert v.max_speed_kn == pytest.approx(22 / 3)
    assert v.fighting_value == pytest.approx(R.expected_hits(1) * 3)
    fires = {e.ship: e.data for e in events_of(play_round(b), "fire")}
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
    assert v["Goeben"].fighting_value == pytest.approx(4 / 6 * 6) and v["Goeben"].gun_range_yd == longest_reach_yd(find_ship("Goeben"))
    assert v["Gloucester"].fighting_value == pytest.approx(4 / 6)
    assert not v["Bogadir"].can_fire and v["Bogadir"].fighting_value == 0.0
    assert b.next_tick_s() == 60.0 and b.settled() is None and b.ended() is None


def test_command_and_the_driver_ends_the_board_allows():
    b = BoardEngine().begin(setup(cb("Goeben", "G"), cb("Gloucester", "B", 0, 12000)),
                            np.random.default_rng(0))
    c = b.command()
    got = (c.signal_delay_s, c.column_head_free, c.reserve_fraction, c.reserve_for_all, c.formations, c.ram)
    assert got == (0.0, True, 0.2, False, True, False)
    assert b.driver_ends == frozenset({"destroyed", "separated", "darkness", "time"})


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
    for seed in range(100):
        b = eng.begin(setup(cb("Goeben", "G"), cb("Gloucester", "B", 0, 9000)), np.random.default_rng(seed))
        for _ in range(12):
            play_round(b)
            if not all(v.afloat for v in b.views()):
                break
        glo += b.condition("Gloucester").sunk
        goe += b.condition("Goeben").sunk
    assert glo >= 95 and goe <= 3


def test_driver_runs_a_board_battle():
    s = setup(cb("Goeben", "G"), cb("Indomitable", "B", 0, 14000), cb("Indefatigable", "B", 400, 14000))
    out = fight(BoardEngine(), s, np.random.default_rng(3))
    assert out.reason in BOARD_ENDS and out.engine == "board"
    assert all(e.type in ("fire", "hit", "sunk", "break_off", "collision", "signal") for e in out.events)


# ---------------------------------------------------------------------------------------------------
# Any board battle, on the plane


SHIPS = tuple(sorted(default_ships()))
PLACE = st.tuples(st.sampled_from(SHIPS), st.integers(0, 1), st.floats(-8000, 8000), st.floats(-8000, 8000),
                  st.floats(0, 359.9), st.floats(0.0, 1.0), st.booleans())


@given(placed=st.lists(PLACE, min_size=2, max_size=6, unique_by=lambda p: p[0]),
       intents=st.tuples(st.sampled_from(("engage", "break_off")), st.sampled_from(("engage", "break_off"))),
       visibility_yd=st.floats(8000, 25000), seed=st.integers(0, 2**16))
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@example(placed=[("Goeben", 0, 0.0, 0.0, 80.0, 0.85, True),
                 ("Indomitable", 1, -3420.0, 9397.0, 260.0, 0.85, True),
                 ("Indefatigable", 1, -3026.0, 9466.0, 260.0, 0.85, True)],
         intents=("engage", "engage"), visibility_yd=20000.0, seed=1)
@example(placed=[("Breslau", 0, 0.0, 5000.0, 0.0, 1.0, False), ("Gloucester", 1, 0.0, 0.0, 0.0, 1.0, False)],
         intents=("break_off", "engage"), visibility_yd=20000.0, seed=3)
def test_any_board_battle_moves_fires_and_ends_by_the_rules(placed, intents, visibility_yd, seed):
    ships = default_ships()
    combatants = []
    for k, (name, side_k, x, y, course, speed_frac, squadron) in enumerate(placed):
        ship = ships[name]
        side = ("A", "B")[k if k < 2 else side_k]  # the first two ships on either side: two sides
        combatants.append(Combatant(ship, side if squadron else f"{side}:{name}", side, x, y, course,
                                    speed_frac * ship.sustained_speed_kn, ship.sustained_speed_kn,
                                    ship.sustained_speed_kn if speed_frac > 0.5 else None))
    assume(all(math.hypot(a.x_yd - b.x_yd, a.y_yd - b.y_yd) >= 500.0
               for i, a in enumerate(combatants) for b in combatants[i + 1:]))  # hulls clear of one another
    setting = Setting(visibility_yd=visibility_yd)
    s = BattleSetup(tuple(combatants), setting, {"A": intents[0], "B": intents[1]})
    rules = replace(default_helm_rules(), max_duration_h=3.0)
    run = BattleRun(BoardEngine(), s, np.random.default_rng(seed), rules=rules, keep_paths=True)
    reach = {v.name: v.gun_range_yd for v in run.battle.views()}
    while True:
        limit_kn = {v.name: v.max_speed_kn for v in run.battle.views()}
        dt = run.advance()
        if dt is None:
            break
        # (a) nobody covers more ground in a tick than the most she can make allows
        _, paths = run.paths[-1]
        for name, path in paths.items():
            ground = sum(math.hypot(x1 - x0, y1 - y0) for (x0, y0, _), (x1, y1, _) in zip(path, path[1:]))
            assert ground <= limit_kn[name] * YD_PER_NM / S_PER_H * dt + 1e-6, name
    out = run.outcome()
    # (b) fire only within the firer's reach and in sight, once a round
    for e in events_of(out.events, "fire"):
        assert e.data["range_yd"] <= min(reach[e.ship], visibility_yd) + 0.05
        assert e.t_s % R.round_s == 0.0
    # (c) the board's ends; escaped only on a successful roll (or when nobody chases), at the very end
    assert out.reason in BOARD_ENDS
    got_away = [e for e in events_of(out.events, "break_off") if e.data.get("escaped")]
    if out.reason == "escaped":
        assert got_away and got_away[-1].t_s == out.duration_s
        assert "roll" in got_away[-1].data or got_away[-1].data.get("rule") == "neither side chases"
    else:
        assert not any(e.target is None for e in got_away)  # no side parted freely without the battle ending
