from datetime import UTC, datetime

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from campaign.clock import Clock, parse_utc


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


@settings(max_examples=500, deadline=None)
@given(start=st.datetimes(min_value=datetime(1000, 1, 1), max_value=datetime(9000, 1, 1)),
       t_min=st.floats(min_value=0.0, max_value=60.0 * 24 * 365, allow_nan=False))
def test_iso_is_the_strftime_text(start: datetime, t_min: float) -> None:
    """The formatted fields give exactly what ``strftime`` gives, seconds truncated as it truncates them."""
    clock = Clock(parse_utc(start))
    assert clock.iso(t_min) == clock.utc(t_min).strftime("%Y-%m-%dT%H:%M:%SZ")


def test_iso_before_the_year_1000_goes_the_long_way() -> None:
    clock = Clock(parse_utc(datetime(999, 12, 31, 23, 59, 30)))
    assert clock.iso(0.25) == clock.utc(0.25).strftime("%Y-%m-%dT%H:%M:%SZ")
