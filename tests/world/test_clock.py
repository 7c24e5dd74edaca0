from datetime import UTC, datetime

import pytest

from campaign.world.clock import Clock, parse_utc


def test_minutes_and_utc_round_trip() -> None:
    clock = Clock(parse_utc("1914-08-02T09:00Z"))
    assert clock.iso(0) == "1914-08-02T09:00:00Z"
    assert clock.iso(60 * 24 + 30) == "1914-08-03T09:30:00Z"
    assert clock.t_min("1914-08-04T23:00Z") == pytest.approx((2 * 24 + 14) * 60)
    assert clock.utc(90) == datetime(1914, 8, 2, 10, 30, tzinfo=UTC)


def test_parse_utc_accepts_offsets_and_naive_times() -> None:
    assert parse_utc("1914-08-05T00:00+01:00") == parse_utc("1914-08-04T23:00Z")
    assert parse_utc("1914-08-04T23:00") == parse_utc("1914-08-04T23:00Z")
    with pytest.raises(ValueError):
        parse_utc("the fourth of August")
