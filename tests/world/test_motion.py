"""Motion: a remembered position is the one worked out afresh, and the memory stays bounded."""

from __future__ import annotations

from campaign.geo.route import Route
from campaign.world import motion as motion_mod
from campaign.world.motion import Motion


def _leg() -> Motion:
    route = Route.through([37.9, 37.5, 36.8], [15.6, 17.0, 19.5])  # Messina, out into the Ionian
    return Motion(version=3, t0_min=120.0, lat=36.8, lon=19.5, route=route, speed_kn=18.0, offset_nm=4.0)


def _fresh(m: Motion, t_min: float) -> tuple[float, float]:
    """The position worked out afresh (``locate`` remembers nothing)."""
    return m.locate(t_min)


def test_a_remembered_position_is_the_one_worked_out_afresh() -> None:
    m = _leg()
    times = [100.0, 120.0, 120.0 + 1e-9, 200.0, 333.25, 900.0, 5000.0]
    first = [m.position(t) for t in times]
    again = [m.position(t) for t in times]  # now read from the memory
    assert first == again == [_fresh(m, t) for t in times]
    assert m.positions(times)[0].tolist() == [p[0] for p in first]


def test_the_memory_is_emptied_when_full_and_still_answers_the_same(monkeypatch) -> None:
    monkeypatch.setattr(motion_mod, "POSITIONS_KEPT", 4)
    m = _leg()
    times = [150.0 + 10.0 * i for i in range(10)]
    got = [m.position(t) for t in times]
    assert len(m.__dict__["_positions"]) <= 4
    assert got == [_fresh(m, t) for t in times]
    assert [m.position(t) for t in times] == got


def test_locate_remembers_nothing() -> None:
    m = _leg()
    m.locate(250.0)
    assert "_positions" not in m.__dict__


def test_a_force_lying_still_keeps_no_memory() -> None:
    m = Motion(version=1, t0_min=0.0, lat=35.9, lon=14.5)
    assert m.position(10.0) == (35.9, 14.5)
    assert "_positions" not in m.__dict__


def test_the_memory_does_not_make_motions_unequal() -> None:
    a, b = _leg(), _leg()
    a.position(200.0)
    assert a == b and hash(a) == hash(b) and a.geometry == b.geometry
