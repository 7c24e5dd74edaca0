"""The helm: admirals who hold a course, squadrons that keep station and turn in succession or together,
captains who keep their ships clear of one another (campaign/tactics/helm/)."""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np
import pytest

from campaign.model.ships import find_ship
from campaign.tactics.armament import barrels_bearing_total, load_arcs
from campaign.tactics.battle import BattleRun
from campaign.tactics.helm import default_helm_rules
from campaign.tactics.helm.admiral import Aim, alteration_deg, decide, next_mode
from campaign.tactics.kinematics import angle_diff_deg, bearing_deg, range_yd
from campaign.tactics.nwc1905 import Nwc1905Engine
from campaign.tactics.plane.hull import Hull, Pose, clearance_yd
from campaign.tactics.protocol import BattleSetup, Combatant, Setting, ShipView

RULES = default_helm_rules()
DAY = Setting("day", 2, 20000.0, False)


def _v(name, side, x, y, course=0.0, speed=10.0, max_kn=20.0, gun=10000.0):
    return ShipView(name, side, side, x, y, course, speed, max_kn, True, True, gun, 1.0)


def _decide(me, enemy, *, intent="engage", running=(), mode=None, side=None, course=None, pref=7500.0):
    return decide(me, [enemy], intent, set(running), mode, side, me.course_deg if course is None else course, pref,
                  me.gun_range_yd, me.max_speed_kn, RULES)


# -- the admiral's aims ----------------------------------------------------------------------------------


def test_closes_obliquely_keeps_the_range_and_opens_obliquely_with_the_enemy_on_one_side():
    me = _v("a", "A", 0, 0, course=0)
    aim, side = _decide(me, _v("b", "B", 0, 20000, course=90))
    assert aim.mode == "close" and abs(angle_diff_deg(0.0, aim.course_deg)) == pytest.approx(RULES.closing_angle_deg)
    # He keeps the enemy on the side he chose; nearer than the band he opens with him on the quarter.
    near, _ = _decide(me, _v("b", "B", 0, 3000, course=90), mode="hold", side=side)
    brg = 0.0  # the enemy bears north
    assert near.mode == "open"
    assert angle_diff_deg(near.course_deg, brg) == pytest.approx(side * (180.0 - RULES.closing_angle_deg))


def test_holding_the_range_steers_parallel_to_the_enemy_and_only_the_faster_conforms():
    me = _v("a", "A", 0, 0, course=0, speed=18, max_kn=20)
    # Enemy abeam to starboard steaming north: a parallel fight, his course.
    aim, _ = _decide(me, _v("b", "B", 7500, 0, course=10.0, speed=15), mode="hold", side=1.0)
    assert aim.mode == "hold" and aim.course_deg == pytest.approx(10.0)
    # Enemy abeam steaming the opposite way: the slower holds on, parallel to him on the reciprocal...
    slow = _v("a", "A", 0, 0, course=0, speed=12, max_kn=12)
    aim, _ = _decide(slow, _v("b", "B", 7500, 0, course=170.0, speed=15), mode="hold", side=1.0)
    assert aim.course_deg == pytest.approx(350.0)
    # ... the faster conforms to his course, coming round away from him (8 points at a time: the first 8
    # points to port, he being to starboard), so that the range opens rather than closes as she turns.
    aim, _ = _decide(me, _v("b", "B", 7500, 0, course=170.0, speed=15), mode="hold", side=1.0)
    assert aim.course_deg == pytest.approx(270.0)
    # Once round, she holds his course.
    round_ = _v("a", "A", 0, 0, course=175.0, speed=18, max_kn=20)
    aim, _ = _decide(round_, _v("b", "B", 7500, 0, course=170.0, speed=15), mode="hold", side=1.0)
    assert aim.course_deg == pytest.approx(170.0)
    # Enemy steering straight at her: parallel would put him right ahead; she keeps him abeam instead.
    lying = _v("a", "A", 0, 0, course=0, speed=0, max_kn=20)
    aim, _ = _decide(lying, _v("b", "B", 0, 7500, course=180.0, speed=10), mode="hold", side=1.0)
    assert aim.mode == "hold" and aim.course_deg == pytest.approx(270.0)
    # A ship lying still is kept abeam.
    aim, _ = _decide(me, _v("b", "B", 7500, 0, course=123.0, speed=0.0), mode="hold", side=1.0)
    assert aim.course_deg == pytest.approx(0.0)


def test_mode_changes_only_when_the_range_leaves_the_band_by_the_margin():
    pref, band = 7500.0, 750.0
    assert next_mode(None, 9000, pref, band, 2.0) == "close"
    assert next_mode("close", 8200, pref, band, 2.0) == "hold"
    assert next_mode("hold", 8600, pref, band, 2.0) == "hold"  # out of the band, within the margin
    assert next_mode("hold", 9100, pref, band, 2.0) == "close"
    assert next_mode("hold", 5900, pref, band, 2.0) == "open"
    assert next_mode("open", 6800, pref, band, 2.0) == "hold"
    assert next_mode("close", 5000, pref, band, 2.0) == "hold"  # never straight from closing to opening
    assert next_mode("open", 9000, pref, band, 2.0) == "hold"


def test_a_course_is_held_within_the_deadband_and_altered_at_most_8_points_save_in_a_flight():
    engaged = Aim("hold", 0.0, True, True)
    assert alteration_deg(0.0, RULES.course_deadband_deg - 1.0, engaged, RULES) is None
    assert alteration_deg(0.0, 170.0, engaged, RULES) == pytest.approx(RULES.max_engaged_turn_deg)
    assert alteration_deg(0.0, -170.0, Aim("close", 0.0, True, False), RULES) == pytest.approx(270.0)
    assert alteration_deg(0.0, 170.0, Aim("run", 170.0, False, True), RULES) == pytest.approx(170.0)


def test_breaking_off_runs_straight_away_and_the_chaser_cuts_him_off():
    runner, chaser = _v("a", "A", 0, 0, course=0, speed=20), _v("b", "B", 9000, 12000, course=180, max_kn=25)
    aim, _ = _decide(runner, chaser, intent="break_off")
    assert aim.mode == "run" and aim.course_deg == pytest.approx(float(bearing_deg(9000, 12000, 0, 0)))
    aim, _ = _decide(chaser, runner, running={"A"})
    straight = float(bearing_deg(9000, 12000, 0, 0))
    assert aim.mode == "chase" and 0.0 < abs(angle_diff_deg(straight, aim.course_deg)) < 60.0  # leading him
    # Within her preferred range she runs on with him, on his course, not into him.
    near = _v("a", "A", 6000, 8000, course=37, speed=20)  # 5,000 yd from her
    aim, _ = _decide(chaser, near, running={"A"})
    assert aim.mode == "chase" and aim.course_deg == pytest.approx(37.0)


def test_prefers_the_sides_given_range():
    me = _v("a", "A", 0, 0, course=0)
    aim, _ = _decide(me, _v("b", "B", 0, 9000, course=90), pref=9000.0)
    assert aim.mode == "hold"


# -- squadrons on the plane --------------------------------------------------------------------------


def _ship(name, side, x, y, course, speed, unit=None):
    ship = find_ship(name)
    return Combatant(ship, unit or side, side, x, y, course, speed, ship.sustained_speed_kn)


def _column(names, side, x, y, course, speed, unit):
    back = math.radians(course + 180.0)
    return [_ship(n, side, x + i * RULES.spacing_yd * math.sin(back), y + i * RULES.spacing_yd * math.cos(back),
                  course, speed, unit) for i, n in enumerate(names)]


def _run(setup, minutes, engine=None, **kw):
    # Nobody breaks off for being outmatched: these tests are of handling, not of judgement.
    kw.setdefault("rules", replace(RULES, break_off_ratio=0.0))
    run = BattleRun(engine or Nwc1905Engine(), setup, np.random.default_rng(0), keep_paths=True, **kw)
    while run.t_s < minutes * 60 and run.advance() is not None:
        pass
    return run


def _track(run, name):
    return [(x, y) for _, paths in run.paths for x, y, _ in paths.get(name, [])]


def _distance_to_track(p, track):
    """The least distance (yd) from ``p`` to the polyline ``track``."""
    best = math.inf
    for (ax, ay), (bx, by) in zip(track, track[1:]):
        dx, dy = bx - ax, by - ay
        seg2 = dx * dx + dy * dy
        t = 0.0 if seg2 == 0 else min(1.0, max(0.0, ((p[0] - ax) * dx + (p[1] - ay) * dy) / seg2))
        best = min(best, math.hypot(ax + t * dx - p[0], ay + t * dy - p[1]))
    return best


def test_a_column_turns_in_succession_every_ship_through_the_leaders_turning_point():
    cruisers = ["Defence", "Warrior", "Duke of Edinburgh", "Black Prince"]
    # An enemy far off on the beam: the admiral closes him obliquely, a turn of the column's head.
    setup = BattleSetup((*_column(cruisers, "B", 0, 0, 0.0, 15.0, "cs1"), _ship("Goeben", "G", 16000, 6000, 0.0, 10.0)),
                        DAY, {"B": "engage", "G": "engage"})
    run = _run(setup, 20)
    leader = _track(run, "Defence")
    # Where the leader began to turn: the first point of her track off the course she came in on.
    turn_at = next(p for p in leader if abs(p[0]) > 5.0)
    for name in cruisers[1:]:
        assert _distance_to_track(turn_at, _track(run, name)) < 40.0, name
        # and she keeps to his track: no point of hers (once past the turn) strays from it
        mine = [p for p in _track(run, name) if p[1] > turn_at[1]]
        assert max(_distance_to_track(p, leader) for p in mine) < 60.0, name


def test_an_end_on_column_brings_its_rear_ships_guns_to_bear_within_the_time_its_rules_allow():
    cruisers = ["Defence", "Warrior", "Duke of Edinburgh", "Black Prince"]
    # Goeben dead ahead at 8,000 yd, within the 1905 fire curve: the rear ships are masked at first.
    setup = BattleSetup((*_column(cruisers, "B", 0, 0, 0.0, 15.0, "cs1"), _ship("Goeben", "G", 0, 8000, 0.0, 0.0)),
                        DAY, {"B": "engage", "G": "engage"})
    speed_yd_per_s = 15.0 / 1.2 * 2025.372 / 3600.0  # the fleet speed keeps the 20 % reserve (seed 002 l.29)
    # The last ship reaches the leader's turning point after the column's length, then turns as he did
    # (at most 8 points at the fleet card's 16 points in 200 s), and fires at the end of that move.
    allowed_s = (len(cruisers) - 1) * RULES.spacing_yd / speed_yd_per_s + 100.0 + 150.0
    run = _run(setup, allowed_s / 60.0 + 3)
    end_on = load_arcs().end_on_half_arc_deg

    def broadside(ev) -> bool:  # her broadside bore when she fired: the target outside the end-on arcs
        frame = next(f for f in run.frames if f.t_s == ev.t_s)
        _, x, y, course, _, _ = next(row for row in frame.ships if row[0] == ev.ship)
        rel = abs(angle_diff_deg(course, float(bearing_deg(x, y, 0.0, 8000.0))))
        return end_on < rel < 180.0 - end_on

    first = next(e for e in run.events if e.type == "fire" and e.ship == "Black Prince" and broadside(e))
    assert first.t_s <= allowed_s
    bp = find_ship("Black Prince")
    assert barrels_bearing_total(bp, 90.0) > barrels_bearing_total(bp, 0.0)  # the broadside outguns the bow


def test_a_squadron_breaking_off_turns_away_together_when_its_signal_executes():
    bcs = ["Indomitable", "Indefatigable"]
    setup = BattleSetup((*_column(bcs, "B", 0, 0, 0.0, 15.0, "bcs"), _ship("Goeben", "G", 0, 12000, 180.0, 10.0)),
                        DAY, {"B": "break_off", "G": "engage"})
    run = _run(setup, 10)
    signal = next(e for e in run.events if e.type == "signal" and e.data["kind"] == "together")
    assert signal.data["executes_at_s"] == signal.t_s + 150.0  # a move late (seed 002 l.3)
    # Before it executes both stand on; after, both steer away from Goeben (south) at once.
    paths = dict(run.paths)
    first = paths[0.0]
    assert all(abs(angle_diff_deg(0.0, c)) < 1.0 for n in bcs for _, _, c in first[n])
    later = [p for t, p in run.paths if t >= signal.data["executes_at_s"] + 150.0][0]
    for n in bcs:
        assert abs(angle_diff_deg(180.0, later[n][-1][2])) < 15.0, n


def test_ships_that_meet_head_on_alter_and_pass_clear():
    # Two light cruisers of opposite sides steering straight at one another, both meaning to fight at
    # a range inside their distance (each would close): the watch keeps their hulls apart.
    setup = BattleSetup((_ship("Gloucester", "B", 0, 0, 0.0, 20.0), _ship("Breslau", "G", 30, 3000, 180.0, 20.0)),
                        DAY, {"B": "engage", "G": "engage"})
    run = _run(setup, 15, preferred_range_yd={"B": 100.0, "G": 100.0})
    hulls = {n: Hull.of(find_ship(n)) for n in ("Gloucester", "Breslau")}
    for _, paths in run.paths:
        for (xa, ya, ca), (xb, yb, cb) in zip(paths["Gloucester"], paths["Breslau"]):
            assert clearance_yd(Pose(xa, ya, ca), hulls["Gloucester"], Pose(xb, yb, cb), hulls["Breslau"]) > 0.0
    assert not [e for e in run.events if e.type in ("ram", "collision")]


def test_an_admiral_does_not_hunt():
    # The 1905 rules' "more than 8 points in one move halves the fire" (seed 002 l.21) seldom applies: the
    # helm holds its course and alters at most 8 points at a time while engaged.
    cruisers = ["Defence", "Warrior", "Duke of Edinburgh", "Black Prince"]
    setup = BattleSetup((*_column(cruisers, "B", 0, 0, 90.0, 15.0, "cs1"), _ship("Goeben", "G", 0, 9000, 270.0, 15.0)),
                        DAY, {"B": "engage", "G": "engage"})
    rules = replace(RULES, break_off_ratio=0.0)
    run = BattleRun(Nwc1905Engine(), setup, np.random.default_rng(0), rules=rules)
    while run.t_s < 3600 and run.advance() is not None:
        pass
    fire = [e for e in run.events if e.type == "fire"]
    assert fire and sum(e.data["turning_halved"] for e in fire) / len(fire) < 0.1
    turns = [e for e in run.events if e.type == "signal" and e.data["kind"] != "speed"]
    assert all(b.t_s - a.t_s >= RULES.min_hold_s for a, b in zip(turns, turns[1:]))  # each held five minutes
    course, steps = 90.0, []
    for e in turns:
        steps.append((e.t_s, float(angle_diff_deg(course, e.data["course_deg"]))))
        course = e.data["course_deg"]
    assert all(abs(d) <= RULES.max_engaged_turn_deg + 1e-6 for _, d in steps)
    # An alteration of more than 4 points undone by the next within five minutes is hunting.
    hunting = [(a, b) for a, b in zip(steps, steps[1:])
               if abs(a[1]) > 45 and abs(b[1]) > 45 and a[1] * b[1] < 0 and b[0] - a[0] <= 300]
    assert len(hunting) <= 1


def test_range_is_kept_near_the_preferred_range_once_reached():
    setup = BattleSetup((_ship("Gloucester", "B", 0, 0, 90.0, 20.0), _ship("Breslau", "G", 0, 12000, 90.0, 20.0)),
                        DAY, {"B": "engage", "G": "engage"})
    run = _run(setup, 40, preferred_range_yd={"B": 8000.0, "G": 8000.0})
    views = {v.name: v for v in run.battle.views()}
    r = float(range_yd(views["Gloucester"].x_yd, views["Gloucester"].y_yd, views["Breslau"].x_yd, views["Breslau"].y_yd))
    assert 8000.0 * (1 - 3 * RULES.hold_band_fraction) <= r <= 8000.0 * (1 + 3 * RULES.hold_band_fraction)
