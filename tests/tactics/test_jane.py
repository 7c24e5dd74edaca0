"""Jane's Naval War Game engine (campaign/tactics/jane*.py): the seed's numbers and the engine's invariants.

Figures asserted here are seed 004's (cited by line of seeds/004_4b5429707f084c05.txt) or the data
file's derived table; statistical checks use seeded generators and a 4-sigma binomial tolerance.
"""

from __future__ import annotations

import dataclasses
import itertools
import math
from types import MappingProxyType, SimpleNamespace

import numpy as np
import pytest

from campaign.model.guns import longest_reach_yd
from campaign.model.ships import LT_TO_T, TorpedoTubes, default_ships, find_ship
from campaign.tactics import jane_fire
from campaign.tactics.armament import guns_bearing, load_arcs
from campaign.tactics.jane import JaneEngine, load_rules
from campaign.tactics.jane_motion import move, next_speed
from campaign.tactics.jane_rulebook import (
    armour_grade,
    aspect_fraction,
    derive_hit_chance,
    derive_hit_table,
    fire_interval_moves,
    grade_index,
    hit_chance,
    is_quick_firing,
    penetrates,
    penetration_power,
    raking_weight,
    range_shift_yd,
    sinking_number,
    squares_per_turn,
    strikes_eyes_shut,
    strikes_per_move,
    torpedo_chance_in_six,
)
from campaign.tactics.jane_rules import GRADES
from campaign.tactics.jane_ship import (
    arc_sector,
    disable_mount,
    fighting_value,
    from_combatant,
    gun_range_yd,
)
from campaign.tactics.kinematics import (
    advance,
    angle_diff_deg,
    points_to_deg,
    range_yd,
    relative_bearing_deg,
    yd_per_s,
)
from campaign.tactics.protocol import BattleSetup, Combatant, Condition, HelmOrder, Setting
from campaign.tactics.zoom import default_zoom_rules

RULES = load_rules()
RULES_ARCS = load_arcs()
DAY = Setting()
SIGMAS = 4.0


def combatant(ship, side, x=0.0, y=0.0, course=90.0, speed=12.0, **kw) -> Combatant:
    if isinstance(ship, str):
        ship = find_ship(ship)
    return Combatant(ship, kw.pop("unit", ship.name), side, x, y, course, speed,
                     kw.pop("max_speed_kn", ship.sustained_speed_kn), **kw)


def setup_of(*cs: Combatant, setting: Setting = DAY) -> BattleSetup:
    return BattleSetup(tuple(cs), setting, {c.side: "engage" for c in cs})


def battle_of(*cs: Combatant, seed: int = 0, rules=RULES):
    """A Jane battle of these ships in clear daylight, all sides engaging."""
    return JaneEngine(rules).begin(setup_of(*cs), np.random.default_rng(seed))


def steady(battle, speed=None):
    """Helm orders that hold every afloat ship's course (and speed, or ``speed``)."""
    return {v.name: HelmOrder(v.course_deg, v.speed_kn if speed is None else speed)
            for v in battle.views() if v.afloat}


def run(battle, moves, setting=DAY, speed=None):
    events = []
    for _ in range(moves):
        events += battle.step(steady(battle, speed), setting)
    return events


def hulk(name="Bogadir", **changes):
    """An unarmed ship that cannot be sunk by penetrations (a target for counting hits)."""
    ship = find_ship(name)
    return dataclasses.replace(ship, guns=(), torpedo_tubes=TorpedoTubes(0, None, None),
                               displacement_t=changes.pop("displacement_t", 1e9), **changes)


def within_binomial(hits: int, n: int, p: float) -> bool:
    sd = math.sqrt(n * p * (1 - p))
    return abs(hits - n * p) <= SIGMAS * sd + 1e-9


# ---------------------------------------------------------------------------------------------- zoom


def test_zoom_figures_for_the_driver():
    # seed 004 l.95, l.97: 1,000-yard squares, 10-minute moves, tactical game at 5,000 yards; 1-minute moves.
    assert RULES.battle_start_yd == 5000
    assert RULES.approach_step_min == 10
    assert RULES.approach_square_yd == 1000
    assert battle_of(combatant("Breslau", "G")).next_tick_s() == 60
    zoom = default_zoom_rules().engines["jane"]
    assert (zoom.battle_start_yd, zoom.approach_step_min) == (RULES.battle_start_yd, RULES.approach_step_min)


# ---------------------------------------------------------------------------------------------- torpedoes


@pytest.mark.parametrize("r, in_six", [(100, 5), (299, 5), (300, 3), (399, 3), (400, 2), (499, 2), (500, 1),
                                       (599, 1), (600, 0), (2000, 0)])
def test_torpedo_chance_by_range(r, in_six):
    # "At 500 yards one in six 400 yards two in six 300 yards three in six Under 300 yards five in six" (l.49)
    assert torpedo_chance_in_six(RULES, r) == in_six


@pytest.mark.parametrize("r, in_six", [(250, 5), (350, 3), (450, 2), (550, 1)])
def test_torpedo_hits_in_play_match_the_chances(r, in_six):
    n = 300
    boat = dataclasses.replace(find_ship("Basilisk"), guns=(), torpedo_tubes=TorpedoTubes(n, 533, "deck"))
    battle = battle_of(combatant(boat, "B", 0, 0, 0, 0),
                       combatant(hulk(), "G", r, 0, 0, 0), seed=in_six)
    torps = [e for e in run(battle, n, speed=0) if e.type == "torpedo"]
    assert len(torps) == n and all(e.data["chance_in_six"] == in_six for e in torps)
    hits = sum(e.data["result"] != "miss" for e in torps)
    assert within_binomial(hits, n, in_six / 6)
    assert battle.condition(boat.name).torpedoes_fired == n


def _torpedo_until_hit(target_name, seed=1):
    boat = dataclasses.replace(find_ship("Basilisk"), guns=(), torpedo_tubes=TorpedoTubes(20, 533, "deck"))
    target = dataclasses.replace(find_ship(target_name), guns=())
    battle = battle_of(combatant(boat, "B", 0, 0, 0, 0), combatant(target, "G", 200, 0, 0, 0), seed=seed)
    for _ in range(20):
        events = battle.step(steady(battle, 0), DAY)
        hits = [e for e in events if e.type == "torpedo" and e.data["result"] != "miss"]
        if hits:
            return battle, hits[0]
    raise AssertionError("no torpedo hit in 20 tries at 200 yards")


def test_torpedo_sinks_a_ship_under_5000_tons():
    # "ships under 5,000 tons torpedoed are sunk, larger waterlogged" (l.47): Breslau 4,564 t = 4,492 tons
    battle, hit = _torpedo_until_hit("Breslau")
    assert hit.data["result"] == "sunk"
    assert battle.condition("Breslau").sunk
    assert not next(v for v in battle.views() if v.name == "Breslau").afloat


def test_torpedo_waterlogs_a_larger_ship():
    full = next(v for v in battle_of(combatant("Goeben", "G")).views())
    battle, hit = _torpedo_until_hit("Goeben")
    assert hit.data["result"] == "waterlogged"
    cond = battle.condition("Goeben")
    assert cond.waterlogged and not cond.sunk
    view = next(v for v in battle.views() if v.name == "Goeben")
    assert view.afloat
    assert view.max_speed_kn == pytest.approx(full.max_speed_kn * RULES.waterlogged_speed_factor)


def test_only_ships_with_tubes_fire_torpedoes_and_no_more_than_they_have():
    unarmed = dataclasses.replace(find_ship("Basilisk"), guns=(), torpedo_tubes=TorpedoTubes(0, None, None))
    two = dataclasses.replace(find_ship("Basilisk"), guns=())
    battle = battle_of(combatant(unarmed, "B", 0, 0, 0, 0, unit="a"),
                       combatant(dataclasses.replace(two, name="Two"), "B", 0, 50, 0, 0),
                       combatant(hulk(), "G", 250, 0, 0, 0), seed=3)
    torps = [e for e in run(battle, 10, speed=0) if e.type == "torpedo"]
    assert [e.ship for e in torps] == ["Two", "Two"]  # two tubes (data/ships.yaml), one a move


# ---------------------------------------------------------------------------------------------- armour


def test_armour_grades_from_thickness():
    # "aaa=30in iron" (l.39): 30 in of wrought iron = 30 / 2.6 in of Krupp = 293 mm (data file, armour)
    assert 30 / 2.6 * 25.4 == pytest.approx(293, abs=0.5)
    assert armour_grade(RULES, 293) == "aaa"
    assert armour_grade(RULES, 292) == "aa"
    assert armour_grade(RULES, 415) == "aaaa"  # "proof except very close"
    assert armour_grade(RULES, 25) == "f"  # "f thin armour"
    assert armour_grade(RULES, 24) == "none" and armour_grade(RULES, None) == "none"
    assert armour_grade(RULES, 280) == "aa"  # Goeben's belt
    assert armour_grade(RULES, 152) == "a"  # Inflexible's belt
    assert armour_grade(RULES, 152, extra_grades=1) == "aa"  # "coal improves one grade"
    bounds = [RULES.grade_min_mm[g] for g in GRADES[1:]]
    ratios = [b / a for a, b in itertools.pairwise(bounds)]
    assert max(ratios) / min(ratios) < 1.03  # one ratio between grades


def test_deck_slope_counts_double_and_coal_one_grade():
    st = from_combatant(RULES, combatant("Gloucester", "B"))  # no belt, 51 mm deck
    assert st.waterline_grade == armour_grade(RULES, 102) == "b"
    assert st.waterline_grade_coal == "a"
    assert st.deck_grade == "d"


# ---------------------------------------------------------------------------------------------- penetration


def test_penetration_table():
    shot = {c: grade_index(RULES.shot_grade[c]) for c in "ABCDEF"}
    for c in "ABCDEF":
        assert penetration_power(RULES, c, "shot", 5000, 0) == shot[c]
    for c in "ABC":  # "Armour-piercing shell penetrates two grades less with A-C guns" (l.39)
        assert penetration_power(RULES, c, "ap", 5000, 0) == shot[c] - 2
    # "four grades less for A guns, three less for B, two less for C and D, one less for E" (l.41)
    for c, less in {"A": 4, "B": 3, "C": 2, "D": 2, "E": 1}.items():
        assert penetration_power(RULES, c, "he", 5000, 0) == shot[c] - less
    # "Under 1,000 yards solid shot gains a grade" (l.39)
    assert penetration_power(RULES, "A", "shot", 999, 0) == shot["A"] + 1
    assert penetration_power(RULES, "A", "ap", 999, 0) == shot["A"] - 2
    # "impacts over 30 degrees lose one grade, over 60 three" (l.39)
    assert penetration_power(RULES, "B", "shot", 5000, 30) == shot["B"]
    assert penetration_power(RULES, "B", "shot", 5000, 31) == shot["B"] - 1
    assert penetration_power(RULES, "B", "shot", 5000, 61) == shot["B"] - 3


def test_penetration_examples():
    assert not penetrates(RULES, "A", "shot", "aaaa", 1500)  # aaaa: "proof except very close"
    assert penetrates(RULES, "A", "shot", "aaaa", 900)
    assert penetrates(RULES, "A", "he", "aaaa", 700, 80)  # "A guns at 700 yards penetrate everything"
    assert not penetrates(RULES, "A", "he", "b", 701)
    assert not penetrates(RULES, "B", "he", "aaaa", 500)
    assert penetrates(RULES, "F", "he", "none", 5000, 89)  # unarmoured parts are always pierced
    # Goeben's 28 cm AP against Inflexible's 152 mm belt: through at normal impact, not beyond 30 deg
    assert penetrates(RULES, "A", "ap", "a", 6000, 20) and not penetrates(RULES, "A", "ap", "a", 6000, 40)


def test_projectile_choice_and_raking():
    gloucester = from_combatant(RULES, combatant("Gloucester", "B"))  # waterline 102 mm (deck slope)
    basilisk = from_combatant(RULES, combatant("Basilisk", "B"))  # unarmoured
    goeben = from_combatant(RULES, combatant("Goeben", "G"))
    defence = from_combatant(RULES, combatant("Defence", "B"))
    sk28, sk15 = goeben.groups[0], goeben.groups[1]
    mk11 = defence.groups[0]
    # Capped AP is Jane's "armour-piercing shell", no longer her solid shot (data file, penetration).
    assert jane_fire.choose_projectile(RULES, sk28, gloucester, 8000) == "ap"  # the 28 cm carries APC only
    assert jane_fire.choose_projectile(RULES, mk11, gloucester, 8000) == "ap"  # lyddite: 84 mm < 102
    assert jane_fire.choose_projectile(RULES, sk15, gloucester, 8000) == "ap"
    assert jane_fire.choose_projectile(RULES, mk11, basilisk, 8000) == "he"
    assert jane_fire.choose_projectile(RULES, sk15, basilisk, 8000) == "he"
    # "common and AP shell count double ...; at 45 degrees shell gets half again and shot three times" (l.51)
    assert [raking_weight(RULES, a) for a in (0, 44, 45, 60, 90)] == [1, 1, 1.5, 2, 2]
    assert raking_weight(RULES, 45, "shot") == 3


def test_conning_tower_pierced_stops_steering_three_moves():
    # "If conning tower is hit and penetrated the ship may not steer for three moves" (l.81)
    rules = dataclasses.replace(_ct_only_rules(), no_steer_moves=RULES.no_steer_moves)
    battle = battle_of(combatant("Goeben", "G", 0, 0, 90, 12),
                       combatant("Breslau", "B", 0, 3000, 90, 12), seed=1, rules=rules)
    for m in range(1, 30):
        events = battle.step(steady(battle), DAY)
        if any(e.type == "hit" and e.ship == "Breslau" and e.data["penetrated"] for e in events):
            break
    else:
        raise AssertionError("no conning tower pierced in 30 moves")
    breslau = next(s for s in battle.ships if s.name == "Breslau")
    assert breslau.no_steer_until_move >= m + RULES.no_steer_moves
    battle.step({"Goeben": HelmOrder(90, 12), "Breslau": HelmOrder(0, 12)}, DAY)
    assert next(v for v in battle.views() if v.name == "Breslau").course_deg == pytest.approx(90)


# ---------------------------------------------------------------------------------------------- rate of fire


def _gun(label, calibre_mm, qf=None):
    return SimpleNamespace(label=label, calibre_mm=calibre_mm, mounting="single", count=1, quick_firing=qf)


def test_quick_firing_flag_and_fallback():
    assert is_quick_firing(RULES, _gun("BL 6-inch Mk XI", 152, qf=True))  # the data's flag wins
    assert not is_quick_firing(RULES, _gun("QF 4-inch", 102, qf=False))
    assert not is_quick_firing(RULES, _gun("BL 6-inch Mk XI", 152))
    assert is_quick_firing(RULES, _gun("QF 12-pounder 18 cwt", 76))
    assert is_quick_firing(RULES, _gun("15 cm SK L/45", 150))
    assert not is_quick_firing(RULES, _gun("28 cm SK L/50", 280))
    assert is_quick_firing(RULES, _gun("120 mm/50", 120)) and not is_quick_firing(RULES, _gun("164 mm", 164))


def test_a_big_gun_strikes_once_and_a_quick_firer_several_times():
    # How often each fires: tests/tactics/test_jane_rates.py. "For each big gun the player strikes once", the
    # quick-firers "in rapid succession" (l.23)
    assert fire_interval_moves(RULES, _gun("QF 6-inch", 152, qf=True)) == 1
    assert strikes_per_move(RULES, _gun("BL 12-inch", 305, qf=False)) == 1
    assert strikes_per_move(RULES, _gun("QF 6-inch", 152, qf=True)) > 1


def test_rates_in_play():
    battle = battle_of(combatant("Gloucester", "B", 0, 0, 90, 12),
                       combatant(hulk(), "G", 0, 4000, 90, 12), seed=5)
    fired: dict[str, list[int]] = {}
    for m in range(1, 11):
        for e in battle.step(steady(battle), DAY):
            if e.type == "fire":
                fired.setdefault(e.data["gun"], []).append(m)
    # single-motion breeches, as fast as the quick-firers of their calibres: every move (data file, rate)
    assert fired["BL 6-inch Mk XI"] == list(range(1, 11))
    assert fired["BL 4-inch Mk VII"] == list(range(1, 11))


# ---------------------------------------------------------------------------------------------- range shifts


def _shift(**kw):
    base = {"target_speed_kn": 12.0, "target_engine_turning": False, "relative_speed_kn": 0.0,
            "light": "day", "sea_state": 2}
    return range_shift_yd(RULES, **{**base, **kw})


def test_range_shifts():
    # "Ships under 6 knots or turning with engines are fired at as 1,000 yards nearer" (l.35)
    assert _shift() == 0
    assert _shift(target_speed_kn=5.9) == -1000 and _shift(target_speed_kn=6.0) == 0
    assert _shift(target_engine_turning=True) == -1000
    # "Ships passing at a combined speed of 30 knots or over ... the target for 1,000 yards greater" (l.37)
    assert _shift(relative_speed_kn=30.0) == 1000 and _shift(relative_speed_kn=29.9) == 0
    # night and rolling: 1,000-2,000 yards farther (l.35, l.91)
    assert _shift(light="moonlit") == 1000 and _shift(light="dark") == 2000
    assert _shift(sea_state=4) == 1000 and _shift(sea_state=7) == 2000
    assert _shift(sea_state=7, light="dark", target_speed_kn=0) == 3000
    # over 10,000 yards, and in very bad weather, the striker's eyes are shut (l.89, l.93)
    assert not strikes_eyes_shut(RULES, 10000, 2) and strikes_eyes_shut(RULES, 10001, 2)
    assert strikes_eyes_shut(RULES, 3000, RULES.eyes_shut_sea_state)


def test_shifts_in_play():
    setups = {"slow": (combatant(hulk(), "G", 0, 5000, 90, 0), 0.0, -1000.0),
              "passing": (combatant(hulk(), "G", 0, 5000, 270, 10), 20.0, 1000.0)}
    for name, (target, own_speed, shift) in setups.items():
        battle = battle_of(combatant("Breslau", "B", 0, 0, 90, own_speed), target)
        fire = [e for e in battle.step(steady(battle), DAY) if e.type == "fire"]
        assert fire, name
        for e in fire:
            assert e.data["shifted_range_yd"] - e.data["range_yd"] == pytest.approx(shift, abs=0.2), name


# ---------------------------------------------------------------------------------------------- motion


def test_acceleration_one_square_per_move():
    # "3 knots = 1 square per move" (l.67); "increase its speed one square every move" (l.73)
    assert next_speed(RULES, 0.0, 20.0, 25.0) == (3.0, 3.0)
    battle = battle_of(combatant("Breslau", "B", 0, 0, 90, 0))
    speeds = []
    for _ in range(8):
        battle.step({"Breslau": HelmOrder(90, 20)}, DAY)
        speeds.append(battle.views()[0].speed_kn)
    assert speeds == [3, 6, 9, 12, 15, 18, 20, 20]
    first = move(RULES, x_yd=0, y_yd=0, course_deg=90, speed_kn=0, wanted_course_deg=90, wanted_speed_kn=20,
                 max_speed_kn=25, length_m=100)
    assert first.x_yd == pytest.approx(float(yd_per_s(3.0)) * 60)  # one square (about 100 yd) the first move


def test_reversing_stops_dead_then_goes_astern():
    # "stops dead in one complete move (a 15-knot ship on the fifth square), then goes astern 1, 2, 3" (l.71)
    m = move(RULES, x_yd=0, y_yd=0, course_deg=0, speed_kn=15, wanted_course_deg=0, wanted_speed_kn=-20,
             max_speed_kn=20, length_m=100)
    assert m.speed_kn == 0 and m.y_yd == pytest.approx(float(yd_per_s(15.0)) * 60)  # five squares run
    speeds, v = [], 0.0
    for _ in range(4):
        v, _ = next_speed(RULES, v, -20.0, 20.0)
        speeds.append(v)
    assert speeds == [-3, -6, -9, -9]


def test_turning():
    # basic piece: four points per two squares of way, the turn counting as a square (l.63)
    m = move(RULES, x_yd=0, y_yd=0, course_deg=0, speed_kn=6, wanted_course_deg=80, wanted_speed_kn=6,
             max_speed_kn=20, length_m=50)
    assert m.turned_deg == pytest.approx(45) and not m.engine_turning
    # one square made good (along the arc; the chord is a little shorter)
    assert math.hypot(m.x_yd, m.y_yd) == pytest.approx(float(yd_per_s(3.0)) * 60, rel=0.05)
    # a long ship turns on a larger circle (fewer points per move)
    big = move(RULES, x_yd=0, y_yd=0, course_deg=0, speed_kn=6, wanted_course_deg=80, wanted_speed_kn=6,
               max_speed_kn=20, length_m=186)
    assert 0 < big.turned_deg < 45
    # "With one engine reversed turn eight points but lose four squares" (l.63)
    e = move(RULES, x_yd=0, y_yd=0, course_deg=0, speed_kn=6, wanted_course_deg=180, wanted_speed_kn=6,
             max_speed_kn=20, length_m=186)
    assert e.engine_turning and e.turned_deg == pytest.approx(90) and (e.x_yd, e.y_yd) == (0, 0)
    # ... to come round more than eight points: for eight points or less her helm does it, however long
    # it takes (data file, turning.engine_turn_above_points).
    h = move(RULES, x_yd=0, y_yd=0, course_deg=0, speed_kn=6, wanted_course_deg=90, wanted_speed_kn=6,
             max_speed_kn=20, length_m=186)
    assert not h.engine_turning and 0 < h.turned_deg < 45


# ---------------------------------------------------------------------------------------------- sinking


def test_sinking_number_two_per_thousand_tons():
    # "Two penetrations of armoured deck or belt per 1,000 tons sink a ship (20 for 10,000 tons)" (l.43)
    ten_thousand = dataclasses.replace(find_ship("Goeben"), displacement_t=10000 * LT_TO_T)
    assert sinking_number(RULES, ten_thousand) == 20
    assert sinking_number(RULES, find_ship("Goeben")) == math.ceil(2 * 22979 / LT_TO_T / 1000) == 46
    assert sinking_number(RULES, find_ship("Gloucester")) == 10  # 4,800 tons: 9.6 -> the tenth sinks her


def test_she_sinks_on_the_penetration_that_reaches_the_number():
    n = sinking_number(RULES, find_ship("Gloucester"))
    carried = Condition(damage=(n - 1) / n)
    for seed in range(3):
        battle = battle_of(combatant("Goeben", "G", 0, 0, 90, 12),
                           combatant("Gloucester", "B", 0, 3000, 90, 12, condition=carried), seed=seed)
        assert battle.condition("Gloucester").damage == pytest.approx((n - 1) / n)
        events = run(battle, 30)
        hits = [e for e in events if e.type in ("hit", "sunk") and e.ship == "Gloucester"]
        sunk_at = next(i for i, e in enumerate(hits) if e.type == "sunk")
        assert all(e.data["penetrations"] < n for e in hits[:sunk_at - 1])
        assert hits[sunk_at - 1].data["penetrations"] >= n and hits[sunk_at].data["cause"] == "penetrations"
        assert battle.condition("Gloucester").sunk and battle.condition("Gloucester").damage == 1.0


# ---------------------------------------------------------------------------------------------- hitting


def test_hit_table_is_the_derivation():
    for shut in (False, True):
        table = RULES.eyes_shut if shut else RULES.eyes_open
        for name, row in derive_hit_table(RULES, shut).items():
            assert row == pytest.approx(list(table.chance[name]), abs=1e-9)
    capital = RULES.target_classes["capital"]
    p = derive_hit_chance(RULES.sigma_yd_per_kyd, capital.length_yd, capital.height_yd, 10000)
    assert p == pytest.approx(RULES.anchor_chance, abs=0.001)
    assert RULES.hit_table_max_yd == 32000  # beyond every reach (tests/tactics/test_gun_reach.py)
    for name in RULES.target_classes:  # chances fall with range
        assert list(RULES.eyes_open.chance[name]) == sorted(RULES.eyes_open.chance[name], reverse=True)


def test_hit_frequencies_in_play_match_the_table():
    # both lying stopped broadside on at 6,000 yd: the target is struck at as 5,000 yd (under 6 knots)
    battle = battle_of(combatant("Goeben", "G", 0, 0, 90, 0),
                       combatant(hulk(), "B", 0, 6000, 90, 0), seed=11)
    fire = [e for e in run(battle, 150, speed=0) if e.type == "fire"]
    for e in fire:
        table = hit_chance(RULES, "merchant", e.data["shifted_range_yd"], e.data["eyes_shut"])
        assert e.data["aspect_fraction"] == aspect_fraction(RULES, e.data["off_beam_deg"])
        assert e.data["hit_chance"] == pytest.approx(table * e.data["aspect_fraction"], abs=1e-5)
    assert all(e.data["hit_chance"] == pytest.approx(0.099, abs=1e-6) for e in fire)  # the 5,000 yd row
    for cls in ("A", "D", "E"):
        group = [e for e in fire if e.data["gun_class"] == cls]
        n = sum(e.data["strikes"] for e in group)
        mean = sum(e.data["strikes"] * e.data["hit_chance"] for e in group)
        var = sum(e.data["strikes"] * e.data["hit_chance"] * (1 - e.data["hit_chance"]) for e in group)
        hits = sum(e.data["hits"] for e in group)
        assert n > 500 and abs(hits - mean) <= SIGMAS * math.sqrt(var), cls


def test_aspect_near_half_and_quarter():
    # "at 45 degrees only the near half counts, at 60 degrees one quarter" (l.23)
    assert [aspect_fraction(RULES, a) for a in (0, 44.9, 45, 59.9, 60, 90)] == [1, 1, 0.5, 0.5, 0.25, 0.25]
    for course, frac in [(90, 1.0), (30, 0.5), (10, 0.25)]:  # off the beam about 0, 58 and 78 deg
        battle = battle_of(combatant("Goeben", "G", 0, 0, 90, 10),
                           combatant(hulk(), "B", 0, 6000, course, 10))
        e = next(e for e in battle.step(steady(battle), DAY) if e.type == "fire")
        assert e.data["aspect_fraction"] == frac
        assert e.data["hit_chance"] == pytest.approx(
            frac * hit_chance(RULES, "merchant", e.data["shifted_range_yd"]), rel=1e-3)


# ---------------------------------------------------------------------------------------------- determinism


def _events(seed):
    battle = battle_of(combatant("Goeben", "G", 0, 0, 90, 15, flagship=True),
                       combatant("Breslau", "G", -400, 0, 90, 15),
                       combatant("Indomitable", "B", 0, 7000, 90, 15),
                       combatant("Gloucester", "B", -400, 7000, 90, 15), seed=seed)
    return [(e.t_s, e.type, e.ship, e.target, tuple(sorted(e.data.items()))) for e in run(battle, 25)]


def test_same_seed_same_events():
    a, b = _events(42), _events(42)
    assert a == b and any(t == "hit" for _, t, *_ in a)
    assert _events(43) != a


# ---------------------------------------------------------------------------------------------- condition


def test_damage_carried_in_and_out():
    carried = Condition(damage=0.5, gunnery=0.5, speed_lost_kn=3.0, fast_speed_lost=True, waterlogged=True,
                        torpedoes_fired=1)
    fresh = battle_of(combatant("Goeben", "G"))
    battle = battle_of(combatant("Goeben", "G", condition=carried))
    c = battle.condition("Goeben")
    assert c.damage == pytest.approx(0.5) and c.gunnery == pytest.approx(0.5, abs=0.05)
    assert (c.speed_lost_kn, c.waterlogged, c.torpedoes_fired, c.sunk) == (3.0, True, 1, False)
    assert battle.views()[0].fighting_value < 0.5 * fresh.views()[0].fighting_value
    sunk = battle_of(combatant("Goeben", "G", condition=Condition(sunk=True, damage=1.0)))
    assert not sunk.views()[0].afloat and sunk.condition("Goeben").sunk


def test_conditions_chain_across_battles():
    first = battle_of(combatant("Goeben", "G", 0, 0, 90, 12),
                      combatant("Gloucester", "B", 0, 5000, 90, 12), seed=2)
    run(first, 20)
    out = first.condition("Gloucester")
    assert out.damage > 0 or out.gunnery < 1
    # the world takes the speed lost off her maximum before the next battle (protocol.Combatant)
    left_kn = find_ship("Gloucester").sustained_speed_kn - out.speed_lost_kn
    second = battle_of(combatant("Gloucester", "B", condition=out, max_speed_kn=left_kn))
    again = second.condition("Gloucester")
    assert again.damage == pytest.approx(out.damage)
    # Carried in as the same fraction of each group's barrels, rounded to whole barrels: off by at most
    # half a barrel of each group (one of Gloucester's two 6-inch is a fifth of her weight of fire).
    groups = second.ships[0].groups
    total_lb = sum(g.count * g.shell_lb for g in groups)
    assert again.gunnery == pytest.approx(out.gunnery, abs=sum(0.5 * g.shell_lb / total_lb for g in groups))
    assert again.speed_lost_kn == pytest.approx(out.speed_lost_kn)


# ---------------------------------------------------------------------------------------------- outcome


def test_gloucester_loses_to_goeben_at_8000_yards():
    for seed in range(4):
        battle = battle_of(combatant("Goeben", "G", 0, 0, 90, 15),
                           combatant("Gloucester", "B", 0, 8000, 90, 15), seed=seed)
        run(battle, 60, speed=15)
        goeben, gloucester = battle.condition("Goeben"), battle.condition("Gloucester")
        assert goeben.damage == 0.0 and goeben.gunnery > 0.9
        # sunk, or hurt and out-gunned (in seed 1 she has a fifth of her sinking number and lost 15.5 knots)
        assert gloucester.sunk or (gloucester.damage >= 0.2 and gloucester.gunnery < 0.8)
        views = {v.name: v for v in battle.views()}
        assert views["Gloucester"].fighting_value < 0.1 * views["Goeben"].fighting_value


# ---------------------------------------------------------------------------------------------- the admiral


def _ct_only_rules():
    """The rules with every side hit landing on the conning tower (to bring on the admiral's rule),
    and a pierced conning tower not stopping the steering (so the helm test sees only the admiral)."""
    classes = {}
    for name, tc in RULES.target_classes.items():
        shares = {p: 0.0 for p in tc.part_shares} | {"conning_tower": 1.0}
        classes[name] = dataclasses.replace(tc, part_shares=MappingProxyType(shares))
    return dataclasses.replace(RULES, target_classes=MappingProxyType(classes), no_steer_moves=0)


def test_admiral_disabled_and_his_ships_keep_their_orders():
    rules = _ct_only_rules()
    battle = battle_of(combatant("Goeben", "G", 0, 0, 90, 12, flagship=True),
                       combatant("Breslau", "G", -400, 0, 90, 12),
                       combatant("Inflexible", "B", 0, 3000, 90, 12), seed=4, rules=rules)
    fallen = None
    for _ in range(40):
        events = battle.step(steady(battle), DAY)
        fallen = next((e for e in events if e.type == "admiral_disabled"), None)
        if fallen:
            break
    assert fallen is not None and fallen.ship == "Goeben" and fallen.data["side"] == "G"
    assert fallen.data["roll"] <= 3  # even chances (l.19)
    lapse = fallen.data["command_lapse_moves"]
    assert lapse == rules.command_lapse_moves
    turn_away = {"Goeben": HelmOrder(180, 12), "Breslau": HelmOrder(180, 12), "Inflexible": HelmOrder(45, 12)}
    for _ in range(lapse):
        battle.step(turn_away, DAY)
        views = {v.name: v for v in battle.views()}
        assert views["Breslau"].course_deg == pytest.approx(90)  # keeps her last order
    assert views["Inflexible"].course_deg == pytest.approx(45)  # the other side obeys its helm
    battle.step(turn_away, DAY)
    assert {v.name: v for v in battle.views()}["Breslau"].course_deg != pytest.approx(90)


def test_admiral_throw_is_even_chances():
    # one throw per heavy hit on the flagship's conning tower: about half the first such hits disable him
    rules = _ct_only_rules()
    disabled, n = 0, 120
    for seed in range(n):
        battle = battle_of(combatant("Goeben", "G", 0, 0, 90, 12, flagship=True),
                           combatant(find_ship("Inflexible"), "B", 0, 2000, 90, 12), seed=seed, rules=rules)
        for _ in range(20):
            events = battle.step(steady(battle), DAY)
            heavy = [e for e in events
                     if e.type == "hit" and e.ship == "Goeben" and e.data["gun_class"] in "ABC"]
            if heavy:
                first_heavy = events.index(heavy[0])
                follow = events[first_heavy + 1] if first_heavy + 1 < len(events) else None
                disabled += bool(follow is not None and follow.type == "admiral_disabled")
                break
        else:
            raise AssertionError("no heavy hit at 2,000 yards in 20 moves")
    assert within_binomial(disabled, n, 0.5)


# ---------------------------------------------------------------------------------------------- views


def test_views_keep_sunk_ships_and_gun_range():
    battle, _ = _torpedo_until_hit("Breslau")
    views = {v.name: v for v in battle.views()}
    assert set(views) == {"Basilisk", "Breslau"} and not views["Breslau"].afloat
    armed = battle_of(combatant("Goeben", "G"), combatant("Basilisk", "B", 0, 9000))
    v = {x.name: x for x in armed.views()}
    assert v["Goeben"].gun_range_yd == longest_reach_yd(find_ship("Goeben")) == 18410  # her 28 cm
    assert v["Basilisk"].gun_range_yd == longest_reach_yd(find_ship("Basilisk")) == 11190  # her 4-inch
    assert v["Goeben"].can_fire and v["Goeben"].fighting_value > v["Basilisk"].fighting_value > 0
    assert float(range_yd(0, 0, v["Basilisk"].x_yd, v["Basilisk"].y_yd)) == pytest.approx(9000)


def test_line_of_fire_finds_the_ship_between():
    a, b, c = (from_combatant(RULES, combatant(n, s, x, 0)) for n, s, x in
               [("Goeben", "G", 0), ("Breslau", "G", 3000), ("Indomitable", "B", 6000)])
    assert jane_fire.in_line_of_fire([a, b, c], a, c) is b
    b.y_yd = 500.0
    assert jane_fire.in_line_of_fire([a, b, c], a, c) is None


def test_a_ship_masked_by_a_consort_holds_her_fire():
    # Breslau lies across Goeben's line to Indomitable, 3,000 yd on: Goeben does not fire through her
    # consort (she has no other target); Breslau, unmasked, does.
    masked = battle_of(combatant("Goeben", "G", 0, 0, course=0.0), combatant("Breslau", "G", 3000, 0, course=0.0),
                       combatant("Indomitable", "B", 6000, 0, course=0.0))
    fire = [e for e in masked.step(steady(masked), DAY) if e.type == "fire"]
    assert not [e for e in fire if e.ship == "Goeben"] and [e for e in fire if e.ship == "Breslau"]
    # Clear of the line, Goeben fires.
    clear = battle_of(combatant("Goeben", "G", 0, 0, course=0.0), combatant("Breslau", "G", 3000, 800, course=0.0),
                      combatant("Indomitable", "B", 6000, 0, course=0.0))
    assert [e for e in clear.step(steady(clear), DAY) if e.type == "fire" and e.ship == "Goeben"]


# ---------------------------------------------------------------------------------------------- kept figures
# The engine keeps what does not change (a gun's arcs, a ship's strength until she is damaged, the
# geometry of a fire phase) and spells out some arithmetic; each is checked here against the direct way.

BRITISH_SQUADRON = ("Indomitable", "Indefatigable", "Inflexible", "Defence", "Warrior")
CENTRAL_SQUADRON = ("Goeben", "Breslau", "Viribus Unitis", "Tegetthoff", "Zrinyi")


def _squadrons(seed=0, moves=30):
    """Two lines of five, 12,000 yards apart, fought ``moves`` moves with every ship turning a little."""
    cs = [combatant(name, side, -i * 400.0, y, 90.0 + 7.0 * i, 15.0)
          for side, names, y in (("E", BRITISH_SQUADRON, 0.0), ("C", CENTRAL_SQUADRON, 12000.0))
          for i, name in enumerate(names)]
    battle = battle_of(*cs, seed=seed)
    for m in range(moves):
        battle.step({v.name: HelmOrder((v.course_deg + 5.0 * (m % 3 - 1)) % 360.0, 15.0 + m % 4)
                     for v in battle.views() if v.afloat}, DAY)
    return battle


def _reference_target(ctx, firer, g):
    """The nearest enemy a group bears on, worked out afresh (ranges, bearings and arcs at every ask)."""
    reach = min(g.max_range_yd, ctx.setting.visibility_yd)
    best = None
    for s in ctx.ships:
        if not s.afloat or s.side == firer.side or (g.spares_armoured and s.armoured):
            continue
        r = jane_fire.distance_yd(firer, s)
        if r > reach or (best is not None and r >= best[0]):
            continue
        rel = float(relative_bearing_deg(firer.course_deg, firer.x_yd, firer.y_yd, s.x_yd, s.y_yd))
        n = g.scaled(next((k for gun, k in guns_bearing(firer.ship, rel) if gun is g.gun), 0), ctx.move)
        if n > 0:
            best = (r, s, n)
    return (best[1], best[2]) if best else None


def test_arc_sectors_give_the_barrels_bearing():
    edges = (RULES_ARCS.end_on_half_arc_deg, 180.0 - RULES_ARCS.end_on_half_arc_deg,
             90.0 - RULES_ARCS.cross_deck_half_arc_deg, 90.0 + RULES_ARCS.cross_deck_half_arc_deg)
    bearings = [float(b) for b in range(0, 181, 3)] + [e + d for e in edges for d in (-1e-9, 0.0, 1e-9)]
    bearings += [-b for b in bearings] + [b + 360.0 for b in bearings]
    for ship in default_ships().values():
        if not ship.guns:
            continue
        st = from_combatant(RULES, combatant(ship, "A"))
        for rel in bearings:
            sector = arc_sector(rel)
            bearing = {id(gun): k for gun, k in reversed(guns_bearing(ship, rel))}  # the first of a gun's
            for g in st.groups:
                assert g.barrels_by_sector[sector] == bearing.get(id(g.gun), 0), (ship.name, g.gun.label, rel)


def test_scalar_relative_bearing_is_kinematics():
    rng = np.random.default_rng(5)
    for _ in range(20000):
        course, x1, y1, x2, y2 = rng.uniform(-400, 400), *rng.uniform(-3e4, 3e4, 4)
        want = float(relative_bearing_deg(course, x1, y1, x2, y2))
        assert jane_fire.scalar_relative_bearing_deg(course, x1, y1, x2, y2) == want
        assert jane_fire.scalar_relative_bearing_deg(np.float64(course), x1, y1, x2, y2) == want
    for course in (0.0, 90.0, 180.0, 270.0, -180.0):  # the line to the target right astern: 180, not -180
        want = float(relative_bearing_deg(course, 0.0, 0.0, 0.0, -1000.0))
        assert jane_fire.scalar_relative_bearing_deg(course, 0.0, 0.0, 0.0, -1000.0) == want


def test_passing_is_the_relative_speed_against_the_limit():
    limit = RULES.passing_kn
    a, b = (from_combatant(RULES, combatant("Goeben", s)) for s in "AB")
    ctx = jane_fire.FireContext(RULES, np.random.default_rng(0), [a, b], 1, 60.0, DAY)
    rng = np.random.default_rng(6)
    cases = [(rng.uniform(-9, 30), rng.uniform(0, 360), rng.uniform(-9, 30), rng.uniform(0, 360))
             for _ in range(5000)]
    # on the limit: opposite courses at speeds that add up to it, one overtaking the other by it, abeam
    cases += [(v, c, limit - v + d, c + 180.0) for v in (10.0, 12.5, 15.0, 17.3) for c in (0.0, 33.3, 90.0)
              for d in (-1e-9, -1e-13, 0.0, 1e-13, 1e-9)]
    cases += [(v + limit + d, c, v, c)
              for v in (0.0, 4.0) for c in (12.0, 200.0) for d in (-1e-12, 0.0, 1e-12)]
    cases += [(limit * math.cos(math.radians(30)), 0.0, limit * math.sin(math.radians(30)), 90.0)]
    for a.speed_kn, a.course_deg, b.speed_kn, b.course_deg in cases:
        ctx._passing.clear()
        ctx._velocities_kn.clear()
        want = jane_fire.relative_speed_kn(a, b) >= limit
        assert ctx.passing(a, b) == want == ctx.passing(b, a)


def test_fire_phase_keeps_what_direct_geometry_gives():
    battle = _squadrons()
    ships = battle.ships
    ships[6].afloat = False  # a sunk ship is no one's target
    for between, (a, b) in ((1, (0, 5)), (7, (5, 2)), (8, (3, 9))):  # some across the lines of fire
        ships[between].x_yd = (ships[a].x_yd + ships[b].x_yd) / 2
        ships[between].y_yd = (ships[a].y_yd + ships[b].y_yd) / 2
    ctx = jane_fire.FireContext(RULES, np.random.default_rng(0), ships, battle.move + 1, battle.t_s, DAY)
    targets = crossings = 0
    for firer in ships:
        entries = ctx.hostiles_by_range(firer)
        enemies = [s for s in ships if s.afloat and s.side != firer.side]
        assert [e[jane_fire.ENEMY_SLOT] for e in entries] == sorted(
            enemies, key=lambda s: (jane_fire.distance_yd(firer, s), ships.index(s))) or not firer.afloat
        for e in entries:
            assert e[jane_fire.RANGE_SLOT] == jane_fire.distance_yd(firer, e[jane_fire.ENEMY_SLOT])
        for g in firer.groups:
            found = jane_fire._target_for(ctx, firer, g)
            got = (found[0][jane_fire.ENEMY_SLOT], found[1]) if found else None
            assert got == _reference_target(ctx, firer, g)
            targets += got is not None
        for target in ships:
            if target is firer:
                continue
            between = ctx.in_line_of_fire(firer, target)
            assert between is jane_fire.in_line_of_fire(ships, firer, target)
            crossings += between is not None
            sight, aim = ctx.aim(firer, target)
            sc = jane_fire.strike_chance(RULES, firer, target, DAY)
            assert sight.range_yd == jane_fire.distance_yd(firer, target)
            assert (aim.chance, aim.eyes_shut, aim.aspect_fraction) == (
                sc.chance, sc.eyes_shut, sc.aspect_fraction)
            assert (aim.range_rounded_yd, aim.shifted_range_rounded_yd, aim.off_beam_rounded_deg,
                    aim.chance_rounded) == (round(sight.range_yd, 1), round(sc.shifted_range_yd, 1),
                                            round(sc.off_beam_deg, 2), round(sc.chance, 6))
    assert targets > 10 and crossings >= 6
    assert ctx.nearest_hostile_yd() == min(e[jane_fire.RANGE_SLOT] for s in ships
                                           for e in ctx.hostiles_by_range(s))


def test_strength_follows_damage():
    battle = battle_of(combatant("Goeben", "G"), combatant("Breslau", "B", 0, 9000))
    goeben = battle.ships[0]

    def fresh():
        return fighting_value(RULES, goeben), gun_range_yd(goeben) if goeben.afloat else 0.0

    def viewed():
        v = battle.views()[0]
        return v.fighting_value, v.gun_range_yd

    assert viewed() == fresh()
    for g in goeben.groups:  # every gun put out, mount by mount
        for mount in g.mounts:
            before = viewed()
            disable_mount(goeben, mount)
            assert viewed() == fresh() != before
    assert viewed() == (0.0, 0.0)
    goeben.penetrations = 3.0
    goeben.waterlogged_now = True
    assert viewed() == fresh()
    goeben.afloat = False
    assert viewed() == (0.0, 0.0)


def test_part_draw_is_the_generators_choice():
    rules = dataclasses.replace(RULES, deck_share=tuple(0.0 for _ in RULES.deck_share))  # always a part
    for name in ("Goeben", "Breslau", "Basilisk"):
        target = from_combatant(rules, combatant(name, "B"))
        parts = [p for p, _ in target.part_shares]
        shares = np.array([s for _, s in target.part_shares])
        for seed in range(300):
            ctx = jane_fire.FireContext(rules, np.random.default_rng(seed), [target], 1, 60.0, DAY)
            reference = np.random.default_rng(seed)
            reference.random()  # the deck's throw
            want = parts[int(reference.choice(len(parts), p=shares / shares.sum()))]
            assert jane_fire._draw_part(ctx, target, 5000.0) == want
            assert ctx.rng.random() == reference.random()  # and the dice go on alike


def _reference_move(rules, *, x_yd, y_yd, course_deg, speed_kn, wanted_course_deg, wanted_speed_kn,
                    max_speed_kn, length_m, can_steer=True, dt_s=None):
    """A move stepped six times with ``kinematics.advance`` and the builtins' ``min``/``max``: the helm
    turns her at most four points per ``squares_per_turn`` squares of way, as the way comes, until she
    is on the course wanted; or she turns eight points on her engines through the move."""
    dt = rules.move_s if dt_s is None else dt_s
    kps = rules.knots_per_square
    wanted = max(-rules.astern_max_squares * kps, min(wanted_speed_kn, max_speed_kn, rules.max_squares * kps))
    gain = rules.gain_squares_per_move * kps
    if speed_kn > 0.0 and wanted < speed_kn:
        new_speed, run_speed = max(wanted, 0.0), speed_kn
    elif speed_kn < 0.0 and wanted > speed_kn:
        new_speed, run_speed = min(wanted, 0.0), speed_kn
    elif wanted > speed_kn:
        new_speed = run_speed = min(wanted, speed_kn + gain)
    elif wanted < speed_kn:
        new_speed = run_speed = max(wanted, speed_kn - gain)
    else:
        new_speed = run_speed = speed_kn
    squares = abs(run_speed) / kps * dt / rules.move_s
    per_turn = points_to_deg(rules.points_per_turn)
    k = squares_per_turn(rules, length_m) + (rules.astern_extra_squares_per_turn if run_speed < 0 else 0.0)
    want = float(angle_diff_deg(course_deg, wanted_course_deg)) if can_steer else 0.0
    helm_cap = per_turn * squares / k
    engine_turn = points_to_deg(rules.engine_turn_points)
    engine_turning = (abs(want) > helm_cap and abs(want) >= engine_turn and helm_cap < engine_turn
                      and abs(want) > points_to_deg(rules.engine_turn_above_points))
    x, y, c, turned = x_yd, y_yd, course_deg, 0.0
    for _ in range(6):
        if engine_turning:
            turn, lost = math.copysign(engine_turn, want) / 6, rules.engine_turn_lost_squares / 6
        else:
            left = float(angle_diff_deg(c, wanted_course_deg)) if can_steer else 0.0
            turn = max(-helm_cap / 6, min(helm_cap / 6, left))
            lost = abs(turn) / per_turn
        run = max(0.0, squares / 6 - lost) / (squares / 6) if squares > 0 else 0.0
        x, y = advance(x, y, c + turn / 2, run_speed * run, dt / 6)
        c, turned = (c + turn) % 360.0, turned + turn
    return (float(x), float(y), c % 360.0, new_speed, turned, engine_turning)


def test_moves_are_the_stepwise_path():
    rng = np.random.default_rng(7)
    speeds = (-9.0, -3.0, -0.0, 0.0, 3.0, 6.0, 14.5, 21.0, 27.0, 40.0)
    for _ in range(3000):
        course = float(rng.choice([0.0, -0.0, 90.0, float(rng.uniform(0, 360))]))
        wanted = float(rng.choice([course, course + 3.0, course - 100.0, rng.uniform(0, 360)]))
        args = {"x_yd": float(rng.uniform(-5e4, 5e4)), "y_yd": float(rng.uniform(-5e4, 5e4)),
                "course_deg": course, "speed_kn": float(rng.choice(speeds)), "wanted_course_deg": wanted,
                "wanted_speed_kn": float(rng.choice(speeds)),
                "max_speed_kn": float(rng.choice([0.0, 12.0, 25.0])),
                "length_m": float(rng.uniform(60, 220)), "can_steer": bool(rng.random() < 0.9)}
        m = move(RULES, **args)
        want = _reference_move(RULES, **args)
        got = (m.x_yd, m.y_yd, m.course_deg, m.speed_kn, m.turned_deg, m.engine_turning)
        assert got[:3] == pytest.approx(want[:3], abs=1e-6) and got[3:] == pytest.approx(want[3:], abs=1e-9), args
