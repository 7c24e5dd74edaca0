"""The audit of neutral waters finds every minute a ship spends inside waters barred to her, from the
records alone (campaign/output/belt_audit.py)."""

from __future__ import annotations

from campaign.clock import Clock, parse_utc
from campaign.output.belt_audit import CAUGHT_INSIDE, VIOLATION, audit_belts, count

CLOCK = Clock(parse_utc("1914-08-04T00:00Z"))
INSIDE = (38.0817, 12.3140)   # 3.7 nm off Levanzo: in Italy's belt
OUTSIDE = (38.3, 12.3)        # open water north of the Egadi
BELT_AT = 60.0


def _rec(t_min, type_, unit="Chatham", lat=None, lon=None, status="waiting", **extra):
    r = {"t": CLOCK.iso(t_min), "t_min": t_min, "type": type_, "unit": unit, "side": "Entente", "lat": lat,
         "lon": lon, "status": status, "coal_t": 1000.0, "coal_rate_t_per_h": 0.0, "speed_kn": 0.0}
    r.update(extra)
    return r


def _politics(who=("United Kingdom",)):
    return {"t": CLOCK.iso(BELT_AT), "t_min": BELT_AT, "type": "politics", "unit": None, "side": None, "lat": None,
            "lon": None, "kind": "keep_out", "nations": list(who), "sovereign": "Italy", "width_nm": 6.0}


def _leg(t_min, frm, to, speed_kn):
    return _rec(t_min, "depart", lat=frm[0], lon=frm[1], status="underway", speed_kn=speed_kn,
                route=[list(frm), list(to)], route_offset_nm=0.0)


def test_a_ship_lying_in_a_belt_that_binds_her_is_a_violation_from_the_hour_it_holds() -> None:
    events = [_rec(0.0, "start", lat=INSIDE[0], lon=INSIDE[1]), _politics(), _rec(240.0, "end", lat=INSIDE[0],
                                                                                  lon=INSIDE[1])]
    found = audit_belts(events, CLOCK.iso(0.0), 240.0)
    (v,) = found
    assert v.kind == VIOLATION and v.area == "belt:Italy:6nm" and v.start == CLOCK.iso(BELT_AT)
    assert v.minutes == 181.0 and 3.5 < v.nearest_land_nm < 4.0  # off Levanzo, islets and all
    assert count(found) == (1, 1, 181.0)


def test_a_nation_the_belt_does_not_bind_is_not_counted() -> None:
    events = [_rec(0.0, "start", unit="Goeben", lat=INSIDE[0], lon=INSIDE[1]), _politics(),
              _rec(240.0, "end", unit="Goeben", lat=INSIDE[0], lon=INSIDE[1])]
    assert audit_belts(events, CLOCK.iso(0.0), 240.0) == []


def test_a_ship_caught_inside_that_leaves_at_once_is_told_apart() -> None:
    # At 01:00 the belt closes round her; she steams out at 12 knots, a few miles.
    events = [_rec(0.0, "start", lat=INSIDE[0], lon=INSIDE[1]), _politics(), _leg(BELT_AT, INSIDE, OUTSIDE, 12.0),
              _rec(240.0, "end", lat=OUTSIDE[0], lon=OUTSIDE[1])]
    (c,) = audit_belts(events, CLOCK.iso(0.0), 240.0)
    assert c.kind == CAUGHT_INSIDE and c.minutes < 30.0


def test_a_ship_that_steams_through_a_belt_is_a_violation() -> None:
    # From west of the Egadi to the north of Sicily through Levanzo's waters, after the belt has closed.
    events = [_rec(0.0, "start", lat=38.05, lon=11.9), _politics(), _leg(120.0, (38.05, 11.9), (38.2, 12.6), 20.0),
              _rec(300.0, "end", lat=38.2, lon=12.6)]
    found = audit_belts(events, CLOCK.iso(0.0), 300.0)
    assert found and all(i.kind == VIOLATION for i in found)
