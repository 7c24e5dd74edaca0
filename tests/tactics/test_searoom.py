"""The helm keeps its ships off the land (campaign/tactics/searoom.py), on a coast of known shape."""

from __future__ import annotations

import math

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from campaign.tactics.helm import default_helm_rules
from campaign.tactics.protocol import HelmOrder, ShipView
from campaign.tactics.searoom import SeaRoom

SHORE_Y_YD = 1000.0  # land is everything north of this line


def north_shore(x0, y0, x1, y1):
    """A straight shore along y = 1,000 yd: a move is clear if it stays south of it."""
    return (np.asarray(y0) < SHORE_Y_YD) & (np.asarray(y1) < SHORE_Y_YD)


def ship(course_deg=0.0, x=0.0, y=0.0, name="Goeben", afloat=True):
    return ShipView(name, "G", "G", x, y, course_deg, 20.0, 25.0, afloat, True, 20000.0, 1.0)


def room(look=(2000.0, 300.0), clear=north_shore):
    return SeaRoom(clear, look, default_helm_rules().sea_room_step_deg)


def test_a_course_that_keeps_the_sea_is_left_alone():
    orders = {"Goeben": HelmOrder(180.0, 25.0)}
    assert room().steer_clear([ship()], orders) == orders


def test_a_course_towards_the_shore_turns_the_least_that_clears_it_the_side_nearer_her_course_first():
    # 2,000 yd ahead must stay south of a shore 1,000 yd north: cos(course) < 0.5, a turn of more than
    # 60 degrees, 70 in steps of 10, either way; heading 080 she turns to starboard (070), not to port
    # (290), and heading 280 to port.
    out = room().steer_clear([ship(course_deg=80.0)], {"Goeben": HelmOrder(0.0, 25.0)})
    assert out["Goeben"] == HelmOrder(70.0, 25.0)
    out = room().steer_clear([ship(course_deg=280.0)], {"Goeben": HelmOrder(0.0, 25.0)})
    assert out["Goeben"] == HelmOrder(290.0, 25.0)


def test_the_shorter_look_ahead_serves_where_the_longer_leaves_no_way():
    # A channel: every move longer than 1,500 yd runs aground; she keeps her ordered course at 300 yd.
    def channel(x0, y0, x1, y1):
        return np.hypot(np.asarray(x1) - x0, np.asarray(y1) - y0) < 1500.0

    out = room(clear=channel).steer_clear([ship()], {"Goeben": HelmOrder(45.0, 25.0)})
    assert out["Goeben"] == HelmOrder(45.0, 25.0)


def test_a_ship_on_the_land_steers_for_the_nearest_water_ahead():
    # She is 100 yd inside the shore (an engine's turn clipped it): no move clears, so she takes the least
    # turn from her order (north, inland) with water 2,000 yd ahead: 1,100 + 2,000 cos(course) < 1,000,
    # beyond 93 degrees, 100 in steps; heading 080 she turns to starboard.
    def onshore(x0, y0, x1, y1):
        return (np.asarray(y0) < SHORE_Y_YD) & (np.asarray(y1) < SHORE_Y_YD)

    out = room(clear=onshore).steer_clear([ship(course_deg=80.0, y=SHORE_Y_YD + 100.0)],
                                          {"Goeben": HelmOrder(0.0, 25.0)})
    assert out["Goeben"] == HelmOrder(100.0, 25.0)


def test_a_ship_with_no_way_clear_keeps_the_helms_order():
    # On the charts' land already (an engine's turn clipped a point), no move clears: she is not stopped
    # dead there; the world puts her force back at sea when the battle ends.
    orders = {"Goeben": HelmOrder(0.0, 25.0)}
    out = room(clear=lambda x0, y0, x1, y1: np.zeros(len(x0), dtype=bool)).steer_clear([ship(course_deg=30.0)], orders)
    assert out == orders


def test_sunk_and_stopped_ships_are_not_steered():
    orders = {"Goeben": HelmOrder(0.0, 25.0), "Breslau": HelmOrder(0.0, 0.0)}
    out = room().steer_clear([ship(afloat=False), ship(name="Breslau")], orders)
    assert out == orders


@settings(max_examples=200, deadline=None)
@given(want=st.floats(0.0, 359.9), course=st.floats(0.0, 359.9), y=st.floats(-5000.0, 900.0))
def test_whatever_she_is_ordered_the_course_given_keeps_her_look_ahead_at_sea(want, course, y):
    """Invariant: south of the shore, the course the helm is given keeps the first look-ahead clear of it
    (a shore that leaves a half-plane of sea always leaves a way), and turns no more than it must: every
    course turned less from the order runs aground."""
    r = room()
    out = r.steer_clear([ship(course_deg=course, y=y)], {"Goeben": HelmOrder(want, 25.0)})["Goeben"]
    assert out.speed_kn == 25.0
    look = r.look_yd[0]
    assert y + look * math.cos(math.radians(out.course_deg)) < SHORE_Y_YD
    turned = abs((out.course_deg - want + 180.0) % 360.0 - 180.0)
    for k in range(int(turned // r.step_deg)):
        for side in (-1, 1):
            c = want + side * k * r.step_deg
            if abs((c - want + 180.0) % 360.0 - 180.0) < turned - 1e-9:
                assert y + look * math.cos(math.radians(c)) >= SHORE_Y_YD

