"""The battle plane: hulls take up room, and ships moved together never pass through one another."""

from __future__ import annotations

import math

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from campaign.model.ships import find_ship
from campaign.tactics.nwc1905_motion import NwcHandling
from campaign.tactics.plane.contact import GLANCING, RAMMED, STEM_TO_STEM, blow, default_contact_rules
from campaign.tactics.plane.hull import BOW, SIDE, STERN, Hull, Pose, clearance_yd, contact_points, part_at
from campaign.tactics.plane.motion import Body, FixedOrders, Plane
from campaign.tactics.protocol import HelmOrder

CRUISER = Hull(150.0, 15.0)
RULES = default_contact_rules()


def body(name, x, y, course, speed, hull=CRUISER, side="A", limit=30.0):
    # A quick handling (16 points in 150 s, 1 kn per 30 s) with no speed lost on the circle.
    return Body(name, side, name, hull, x, y, course, speed, NwcHandling(limit, 150.0, 1.0 / 30.0, 0.0))


# -- hulls -----------------------------------------------------------------------------------------


def test_hull_of_a_ship_is_her_length_and_beam_in_yards():
    goeben = find_ship("Goeben")
    h = Hull.of(goeben)
    assert h.length_yd == pytest.approx(186.6 / 0.9144) and h.beam_yd == pytest.approx(29.4 / 0.9144)
    assert h.reach_yd == pytest.approx(h.length_yd / 2)


def test_clearance_of_hulls_side_by_side_end_to_end_and_crossed():
    # Abeam, 100 yd between centres: 100 less a beam.
    assert clearance_yd(Pose(0, 0, 0), CRUISER, Pose(100, 0, 0), CRUISER) == pytest.approx(85.0)
    # In line ahead, 400 yd between centres: 400 less a length (the round ends meet stem to stern).
    assert clearance_yd(Pose(0, 0, 0), CRUISER, Pose(0, 400, 0), CRUISER) == pytest.approx(250.0)
    # Crossed at right angles through one another.
    assert clearance_yd(Pose(0, 0, 0), CRUISER, Pose(0, 0, 90), CRUISER) < 0


def test_parts_of_a_hull():
    end = RULES.end_fraction
    assert part_at(CRUISER.half_axis_yd, CRUISER, end) == BOW
    assert part_at(-CRUISER.half_axis_yd, CRUISER, end) == STERN
    assert part_at(0.0, CRUISER, end) == SIDE
    # A stem touching another's beam: bow for the one, side for the other.
    a, b = contact_points(Pose(0, 0, 0), CRUISER, Pose(0, 90, 90), CRUISER)
    assert part_at(a, CRUISER, end) == BOW and part_at(b, CRUISER, end) == SIDE


@given(x=st.floats(-300, 300), y=st.floats(-300, 300), c1=st.floats(0, 359), c2=st.floats(0, 359))
@settings(max_examples=200, deadline=None)
def test_clearance_is_symmetric_and_no_more_than_the_centres_apart(x, y, c1, c2):
    a, b = Pose(0, 0, c1), Pose(x, y, c2)
    assert clearance_yd(a, CRUISER, b, CRUISER) == pytest.approx(clearance_yd(b, CRUISER, a, CRUISER), abs=1e-6)
    assert clearance_yd(a, CRUISER, b, CRUISER) <= math.hypot(x, y) - CRUISER.beam_yd + 1e-6


# -- moving together ---------------------------------------------------------------------------------


def test_ships_on_collision_courses_stop_where_they_touch_and_the_meeting_is_recorded():
    plane = Plane(RULES.end_fraction)
    a = body("A", 0, 0, 90, 20)
    b = body("B", 2000, 0, 270, 20, side="B")
    orders = FixedOrders({"A": HelmOrder(90, 20), "B": HelmOrder(270, 20)})
    contacts = []
    for k in range(10):
        contacts += plane.move([a, b], orders, k * 60.0, 60.0, 10.0)
        assert clearance_yd(a.pose, a.hull, b.pose, b.hull) >= -1e-6
    assert len(contacts) == 1  # lying together afterwards is not a new meeting
    c = contacts[0]
    assert c.stem_to_stem and c.closing_kn == pytest.approx(40.0, abs=0.5) and not c.deliberate
    assert blow(c, 180.0, RULES) == STEM_TO_STEM


def test_a_stem_into_a_side_is_a_ram_when_the_helm_meant_it():
    plane = Plane(RULES.end_fraction)
    a = body("A", 0, -1000, 0, 15)  # steaming north at B's beam
    b = body("B", 0, 0, 90, 0, side="B")
    contacts = []
    for k in range(6):
        contacts += plane.move([a, b], FixedOrders({"A": HelmOrder(0, 15, ram_target="B")}), k * 60.0, 60.0, 10.0)
    (c,) = contacts
    assert c.kind == "ram" and c.striker == "A" and c.struck == "B" and c.closing_kn == pytest.approx(15.0, abs=0.5)
    assert blow(c, 90.0, RULES) == RAMMED


def test_a_slow_meeting_is_only_a_collision():
    plane = Plane(RULES.end_fraction)
    a = body("A", 0, -200, 0, 4)
    b = body("B", 0, 0, 90, 0, side="B")
    contacts = []
    for k in range(5):
        contacts += plane.move([a, b], FixedOrders({"A": HelmOrder(0, 4)}), k * 60.0, 60.0, 10.0)
    (c,) = contacts
    assert c.kind == "collision" and blow(c, 90.0, RULES) == GLANCING


@given(xb=st.floats(-3000, 3000), yb=st.floats(-3000, 3000), ca=st.floats(0, 359), cb=st.floats(0, 359),
       va=st.floats(0, 30), vb=st.floats(0, 30), wa=st.floats(0, 359), wb=st.floats(0, 359))
@settings(max_examples=150, deadline=None)
@example(xb=0.0, yb=2000.0, ca=0.0, cb=180.0, va=30.0, vb=30.0, wa=0.0, wb=180.0)
@example(xb=1000.0, yb=1000.0, ca=90.0, cb=0.0, va=25.0, vb=25.0, wa=90.0, wb=270.0)
def test_no_hull_passes_through_another_whatever_the_orders(xb, yb, ca, cb, va, vb, wa, wb):
    plane = Plane(RULES.end_fraction)
    a = body("A", 0.0, 0.0, ca, va)
    b = body("B", xb, yb, cb, vb, side="B")
    if clearance_yd(a.pose, a.hull, b.pose, b.hull) <= 0.0:
        return
    orders = FixedOrders({"A": HelmOrder(wa, 30), "B": HelmOrder(wb, 30)})
    met = 0
    for k in range(8):
        met += len(plane.move([a, b], orders, k * 60.0, 60.0, 15.0))
        for (xa, ya, pa), (xb_, yb_, pb) in zip(a.path, b.path):
            assert clearance_yd(Pose(xa, ya, pa), a.hull, Pose(xb_, yb_, pb), b.hull) >= -1e-6
    assert met <= 1


@given(course=st.floats(0, 359), want=st.floats(0, 359), v0=st.floats(0, 30), want_v=st.floats(0, 40))
@settings(max_examples=100, deadline=None)
def test_no_ship_covers_more_ground_in_a_tick_than_her_speed_allows(course, want, v0, want_v):
    plane = Plane(RULES.end_fraction)
    a = body("A", 0.0, 0.0, course, min(v0, 25.0), limit=25.0)
    plane.move([a], FixedOrders({"A": HelmOrder(want, want_v)}), 0.0, 150.0, 15.0)
    assert a.run_yd <= 25.0 * 2025.372 / 3600.0 * 150.0 + 1e-6
    assert math.hypot(a.x_yd, a.y_yd) <= a.run_yd + 1e-6


def test_a_ship_behind_the_firer_is_never_in_her_line_of_fire():
    from campaign.tactics.plane.hull import in_line_of_fire

    # Goeben far ahead to the north; Breslau close astern of the firer, lying across the line's reciprocal
    # (her ends' bearings straddle the bearing exactly opposite the target's).
    target, behind = Pose(997.2, 8053.8, 21.6), Pose(4288.9, -2486.3, 201.6)
    assert not in_line_of_fire(3901.7, -1143.9, target, Hull(204.0, 32.0), behind, Hull(152.0, 14.8))
    assert not in_line_of_fire(0.0, 0.0, Pose(0.0, 8000.0, 90.0), CRUISER, Pose(0.0, -1000.0, 90.0), CRUISER)
    assert in_line_of_fire(0.0, 0.0, Pose(0.0, 8000.0, 90.0), CRUISER, Pose(0.0, 1000.0, 90.0), CRUISER)
