"""The battle audit on small hand-made records whose answers are known."""

from __future__ import annotations

import math

import numpy as np
import pytest
from pyproj import Geod

from campaign.output import battle_audit as ba
from campaign.output.audit_geometry import bearing_off_bow_deg, hull_clearance_yd, segment_segment_yd
from campaign.tactics.localplane import LocalPlane

SIDES = {"Goeben": "Central Powers", "Breslau": "Central Powers", "Gloucester": "Entente"}
DIMS = ba.ship_dims(SIDES)
YD_PER_NM = 1852.0 / 0.9144


def track(ships, t_s, *, battle=1, start_min=0.0, lat=36.0, lon=20.0, reason="separated"):
    """A battle_track record: ``ships`` maps a name to its frames [(x_yd, y_yd, course_deg, afloat), ...]."""
    names = list(ships)
    col = {k: [[f[i] for f in ships[n]] for n in names] for i, k in enumerate(("x_yd", "y_yd", "course_deg", "afloat"))}
    return {"type": "battle_track", "battle": battle, "engine": "test", "reason": reason, "start_min": start_min,
            "lat": lat, "lon": lon, "sides": {n: SIDES[n] for n in names}, "forces": {n: n for n in names},
            "names": names, "t_s": list(t_s), "speed_kn": [[0.0] * len(t_s) for _ in names], **col}


def rec(type_, unit, t_battle_s, battle=1, **kw):
    return {"type": type_, "unit": unit, "battle": battle, "t_battle_s": t_battle_s, **kw}


def audit(*records):
    return ba.audit_run(list(records), DIMS)


# -- geometry -------------------------------------------------------------------------------------------

def test_segment_distance_crossing_apart_and_end_to_end():
    z = np.zeros(())
    assert segment_segment_yd(z - 1, z, z + 1, z, z, z - 1, z, z + 1) == 0.0  # a cross
    assert segment_segment_yd(z, z, z + 10, z, z + 13, z + 4, z + 20, z + 4) == pytest.approx(5.0)  # end to end
    assert segment_segment_yd(z, z, z + 10, z, z + 5, z + 3, z + 5, z + 3) == pytest.approx(3.0)  # to a point
    assert segment_segment_yd(z, z, z + 10, z, z + 2, z + 7, z + 8, z + 7) == pytest.approx(7.0)  # parallel


def test_hull_clearance_of_capsules_abeam_and_bow_to_stern():
    g, b = DIMS["Goeben"], DIMS["Breslau"]
    abeam = (g.beam_yd + b.beam_yd) / 2
    assert hull_clearance_yd((0.0, 0.0, 90.0, g.length_yd, g.beam_yd),
                             (0.0, abeam + 5, 90.0, b.length_yd, b.beam_yd)) == pytest.approx(5.0)
    ahead = (g.length_yd + b.length_yd) / 2
    assert hull_clearance_yd((0.0, 0.0, 0.0, g.length_yd, g.beam_yd),
                             (0.0, ahead + 3, 0.0, b.length_yd, b.beam_yd)) == pytest.approx(3.0)
    # Beam on, her bow nearly touching the other's side: the length is along the course, not across it.
    assert hull_clearance_yd((0.0, 0.0, 0.0, g.length_yd, g.beam_yd),
                             (b.length_yd / 2 + g.beam_yd / 2 + 2, 0.0, 90.0, b.length_yd, b.beam_yd)) == \
        pytest.approx(2.0)


@pytest.mark.parametrize(("tx", "ty", "course", "off_bow"), [
    (0, 1000, 0, 0), (1000, 0, 0, 90), (0, -1000, 0, 180), (-1000, 0, 0, 90), (0, 1000, 350, 10), (1000, 0, 100, 10)])
def test_bearing_off_the_bow(tx, ty, course, off_bow):
    assert bearing_off_bow_deg(0.0, 0.0, course, tx, ty) == pytest.approx(off_bow)


# -- (a) pass-throughs ----------------------------------------------------------------------------------

def crossing(**kw):
    """Goeben steams east and Gloucester north through the same point, both on it at 60 s."""
    return track({"Goeben": [(-300, 0, 90, True), (0, 0, 90, True), (300, 0, 90, True)],
                  "Gloucester": [(0, -300, 0, True), (0, 0, 0, True), (0, 300, 0, True)]}, [0, 60, 120], **kw)


def test_two_hulls_crossing_are_one_pass_through():
    a = audit(crossing())
    (b,) = a.battles
    assert [(p.ship_a, p.ship_b, p.t_s) for p in b.pass_throughs] == [("Goeben", "Gloucester", 60.0)]
    assert b.enemy_clearance_yd < 0 and b.consort_clearance_yd is None
    assert ba.summarise([a]).pass_throughs == 1


@pytest.mark.parametrize("kind", ["ram", "collision"])
def test_a_ram_or_collision_record_naming_both_explains_the_overlap(kind):
    assert audit(crossing(), rec(kind, "Gloucester", 60.0, target="Goeben")).battles[0].pass_throughs == ()
    assert audit(crossing(), rec(kind, "Goeben", 30.0, target="Gloucester")).battles[0].pass_throughs == ()


def test_a_ram_after_the_overlap_or_of_another_pair_does_not():
    assert len(audit(crossing(), rec("ram", "Goeben", 120.0, target="Gloucester")).battles[0].pass_throughs) == 1
    assert len(audit(crossing(), rec("ram", "Goeben", 0.0, target="Breslau")).battles[0].pass_throughs) == 1
    assert len(audit(crossing(battle=2), rec("ram", "Goeben", 0.0, target="Gloucester")).battles[0].pass_throughs) == 1


def test_hulls_close_but_clear_and_a_sunk_ship_are_no_pass_through():
    g, b = DIMS["Goeben"], DIMS["Breslau"]
    gap = (g.beam_yd + b.beam_yd) / 2
    close = track({"Goeben": [(0, 0, 90, True), (100, 0, 90, True)],
                   "Breslau": [(0, gap + 4, 90, True), (100, gap + 4, 90, True)]}, [0, 60])
    (x,) = audit(close).battles
    assert x.pass_throughs == () and x.consort_clearance_yd == pytest.approx(4.0, abs=0.01)
    assert x.enemy_clearance_yd is None
    wreck = track({"Goeben": [(0, 0, 90, True), (0, 0, 90, True)],
                   "Gloucester": [(0, 0, 0, False), (0, 0, 0, False)]}, [0, 60])
    assert audit(wreck).battles[0].pass_throughs == ()


# -- (b) own-side hits -----------------------------------------------------------------------------------

def test_a_hit_by_a_consort_is_an_own_side_hit():
    t = track({n: [(i * 5000, 0, 0, True), (i * 5000, 0, 0, True)] for i, n in enumerate(SIDES)}, [0, 60])
    a = audit(t, rec("hit", "Breslau", 60, by="Goeben"), rec("hit", "Gloucester", 60, by="Goeben"),
              rec("hit", "Goeben", 60, by="Gloucester"), rec("fire", "Goeben", 60, target="Breslau"))
    s = ba.summarise([a])
    assert (s.own_side_hits, s.hits) == (1, 3) and s.own_side_share == pytest.approx(1 / 3)


# -- (c) speed -------------------------------------------------------------------------------------------

def test_a_move_beyond_her_sustained_speed_is_counted_with_its_ratio():
    allowed = 23.5 * YD_PER_NM / 60  # Goeben's sustained 23.5 kn for a minute
    t = track({"Goeben": [(0, 0, 0, True), (0, 700, 0, True), (0, 1600, 0, True), (0, 1600 + allowed + 2, 0, True)],
               "Gloucester": [(9000, 0, 0, False), (0, 0, 0, False), (9000, 0, 0, False), (0, 0, 0, False)]},
              [0, 60, 120, 180])
    (b,) = audit(t).battles
    assert b.over_speed_moves == 1  # the 900-yard minute; within the tolerance the last; a wreck not at all
    assert b.speed_ratio == pytest.approx(900 / allowed)


# -- (d) re-laid ships ------------------------------------------------------------------------------------

def two_battles(offset_nm, gap_min=60.0):
    """Goeben ends battle 1 at 2,000 yd east of its centre and begins battle 2, ``gap_min`` later, 2,000 yd
    west of its centre, ``offset_nm`` east of where she ended."""
    first = track({"Goeben": [(0, 0, 90, True), (2000, 0, 90, True)]}, [0, 600], lat=36.0, lon=20.0)
    lat, lon = LocalPlane(36.0, 20.0).to_latlon(2000, 0)
    lon2, lat2, _ = Geod(ellps="WGS84").fwd(lon, lat, 90.0, offset_nm * 1852 + 2000 * 0.9144)
    second = track({"Goeben": [(-2000, 0, 90, True), (0, 0, 90, True)]}, [0, 60], battle=2,
                   start_min=10.0 + gap_min, lat=lat2, lon=lon2)
    return audit(first, second)


def test_a_ship_moved_5_nm_further_than_she_could_steam_between_battles_is_one_jump():
    a = two_battles(23.5 + 5.0)
    (r,) = a.relays
    assert (r.ship, r.from_battle, r.to_battle) == ("Goeben", 1, 2)
    assert r.allowed_yd == pytest.approx(23.5 * YD_PER_NM)
    s = ba.summarise([a])
    assert s.jumps == 1 and s.worst_jump_yd == pytest.approx(5.0 * YD_PER_NM, abs=2.0)


def test_a_ship_within_her_steaming_between_battles_is_no_jump():
    s = ba.summarise([two_battles(20.0)])
    assert s.relays == 1 and s.jumps == 0 and s.worst_jump_yd == 0.0
    assert ba.summarise([two_battles(0.0, gap_min=0.0)]).jumps == 0


# -- (e) ends ----------------------------------------------------------------------------------------------

def ends(reason, duration_s, hit_at_s=None):
    t = track({"Goeben": [(0, 0, 0, True)] * 2, "Gloucester": [(9000, 0, 0, True)] * 2}, [0, duration_s],
              reason=reason)
    hits = [] if hit_at_s is None else [rec("hit", "Gloucester", hit_at_s, by="Goeben")]
    return audit(t, *hits).battles[0]


def test_drawn_off_with_a_hit_in_its_last_ten_minutes():
    assert ends("drawn_off", 1800, 1300).late_hit_drawn_off
    assert not ends("drawn_off", 1800, 1100).late_hit_drawn_off
    assert not ends("separated", 1800, 1700).late_hit_drawn_off
    assert not ends("drawn_off", 1800).late_hit_drawn_off


@pytest.mark.parametrize(("reason", "duration_s", "early"), [
    ("separated", 240, True), ("drawn_off", 300, True), ("separated", 330, False), ("destroyed", 60, False)])
def test_separated_or_drawn_off_in_the_first_five_minutes(reason, duration_s, early):
    assert ends(reason, duration_s).ended_early is early


# -- (f) torpedoes ----------------------------------------------------------------------------------------

def test_torpedoes_fired_end_on_are_counted():
    t = track({"Goeben": [(0, 0, 0, True), (0, 0, 0, True), (0, 0, 90, True)],
               "Gloucester": [(0, 3000, 0, True), (3000, 0, 0, True), (-100, -3000, 0, True)]}, [0, 60, 120])
    a = audit(t, *(rec("torpedo", "Goeben", s, target="Gloucester") for s in (0.0, 60.0, 90.0, 120.0)))
    off = a.battles[0].torpedo_off_bow_deg
    # at 90 s the frame is the last before it (60 s); at 120 s she has turned east and the target is abeam
    assert off == pytest.approx((0.0, 90.0, 90.0, 90.0 + math.degrees(math.atan2(100, 3000))), abs=1e-6)
    s = ba.summarise([a])
    assert (s.torpedoes, s.torpedoes_end_on) == (4, 1)


def test_a_stern_shot_is_end_on_too():
    t = track({"Goeben": [(0, 0, 0, True)], "Gloucester": [(-100, -3000, 0, True)]}, [0])
    s = ba.summarise([audit(t, rec("torpedo", "Goeben", 0.0, target="Gloucester"))])
    assert (s.torpedoes, s.torpedoes_end_on) == (1, 1)
