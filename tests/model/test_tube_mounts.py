"""Torpedo tube layouts in the ship data: the sourced mounts, their citations and the loader's checks."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from campaign.model.ships import (
    TUBE_MOUNTS_SOURCE_KEY,
    ShipDataError,
    TubeMount,
    default_ships,
    load_ships,
)
from tests.model.test_ships import GOOD_CLASS

SHIPS = default_ships()

# The test class of tests/model/test_ships.py, with sources for its tubes and their layout.
CLASS = GOOD_CLASS.replace('crew: "a source"}', 'crew: "a source",\n              torpedo_tubes: "a source", '
                           'torpedo_tubes.mounts: "a layout source"}') + "ships:\n"


def _load(tmp_path: Path, ship_yaml: str):
    path = tmp_path / "bad_ships.yaml"
    path.write_text(CLASS + ship_yaml, encoding="utf-8")
    return load_ships(path)


def _mounts(name: str) -> list[tuple[str, int, bool]]:
    return [(m.position, m.count, m.submerged) for m in SHIPS[name].torpedo_tubes.mounts]


# ------------------------------------------------------------------------------------------ the data


def test_sourced_layouts():
    # "one each in the bow, stern and on each broadside" (WP 'SMS Tegetthoff (1912)')
    assert _mounts("Viribus Unitis") == [("bow", 1, True), ("beam", 2, True), ("stern", 1, True)]
    # "one on each broadside and one in the stern" (WP 'SMS Zrinyi')
    assert _mounts("Zrinyi") == [("beam", 2, True), ("stern", 1, True)]
    # navypedia: "4 x 450 TT (beam, 2 sub, 2 aw)"
    assert _mounts("Suffren") == [("beam", 2, True), ("beam", 2, False)]
    # navypedia: "3 - 450 TT sub (1 fwd, 2 beam)"
    assert _mounts("San Marco") == [("bow", 1, True), ("beam", 2, True)]
    assert _mounts("Roma") == [("beam", 2, True)] == _mounts("Victor Hugo")
    # navypedia: "2 - 533 TT (beam, sub)"; dreadnoughtproject: "Two 21-in submerged broadside tubes"
    assert _mounts("Dublin") == [("beam", 2, True)] == _mounts("Chatham") == _mounts("Weymouth")


def test_every_layout_adds_up_and_carries_its_own_citation():
    laid = [s for s in SHIPS.values() if s.torpedo_tubes is not None and s.torpedo_tubes.mounts]
    assert len(laid) >= 10
    for ship in laid:
        t = ship.torpedo_tubes
        assert sum(m.count for m in t.mounts) == t.count, ship.name
        assert all(m.count % 2 == 0 for m in t.mounts if m.position == "beam"), ship.name
        assert len(ship.sources.get(TUBE_MOUNTS_SOURCE_KEY, "")) > 20, ship.name


def test_ships_without_a_layout_leave_it_empty():
    assert SHIPS["Goeben"].torpedo_tubes.count == 4 and SHIPS["Goeben"].torpedo_tubes.mounts == ()
    assert SHIPS["Bogadir"].torpedo_tubes.mounts == ()


# ------------------------------------------------------------------------------------------ the loader


def test_a_layout_loads(tmp_path: Path):
    ships = _load(tmp_path, """  Probe:
    class: Test
    torpedo_tubes: {count: 4, calibre_mm: 500, mounting: submerged, mounts: [
      {position: bow, count: 1, submerged: true}, {position: beam, count: 2, submerged: true},
      {position: stern, count: 1, submerged: true}]}
""")
    assert ships["Probe"].torpedo_tubes.mounts == (TubeMount("bow", 1, True), TubeMount("beam", 2, True),
                                                   TubeMount("stern", 1, True))


@pytest.mark.parametrize("mounts, fault", [
    ("[{position: bow, count: 1, submerged: true}, {position: beam, count: 2, submerged: true}]",
     "mounts hold 3 tubes (bow 1, beam 2) but count is 4"),
    ("[{position: beam, count: 3, submerged: true}, {position: bow, count: 1, submerged: true}]",
     "need an even count, got 3"),
    ("[{position: deck, count: 4, submerged: true}]", "cannot be submerged"),
    ("[{position: amidships, count: 4, submerged: true}]", "torpedo_tubes.mounts.0.position"),
    ("[{position: bow, count: 4}]", "torpedo_tubes.mounts.0.submerged"),
    ("[{position: bow, count: 0, submerged: true}, {position: beam, count: 4, submerged: true}]",
     "torpedo_tubes.mounts.0.count"),
])
def test_a_bad_layout_is_refused_naming_file_ship_field_and_fault(tmp_path: Path, mounts: str, fault: str):
    with pytest.raises(ShipDataError) as err:
        _load(tmp_path, f"  Probe: {{class: Test, torpedo_tubes: {{count: 4, mounts: {mounts}}}}}\n")
    msg = str(err.value)
    assert "bad_ships.yaml" in msg and "'Probe'" in msg and "torpedo_tubes" in msg and fault in msg


def test_a_layout_without_its_citation_is_refused(tmp_path: Path):
    text = CLASS.replace(', torpedo_tubes.mounts: "a layout source"', "")
    path = tmp_path / "bad_ships.yaml"
    path.write_text(text + "  Probe: {class: Test, torpedo_tubes: {count: 2, mounts: "
                    "[{position: beam, count: 2, submerged: true}]}}\n", encoding="utf-8")
    with pytest.raises(ShipDataError) as err:
        load_ships(path)
    msg = str(err.value)
    assert "bad_ships.yaml" in msg and "'Probe'" in msg and "torpedo_tubes.mounts" in msg and "source" in msg


POSITIONS = st.sampled_from(["bow", "stern", "beam", "deck"])
MOUNT = st.tuples(POSITIONS, st.integers(1, 6), st.booleans())


@given(st.lists(MOUNT, min_size=1, max_size=4), st.integers(0, 3))
@settings(max_examples=60, deadline=None)
def test_a_layout_loads_exactly_when_it_is_consistent(tmp_path_factory, mounts, extra):
    total = sum(n for _, n, _ in mounts)
    count = total + extra
    listed = ", ".join(f"{{position: {p}, count: {n}, submerged: {str(sub).lower()}}}" for p, n, sub in mounts)
    consistent = (extra == 0 and all(n % 2 == 0 for p, n, _ in mounts if p == "beam")
                  and not any(p == "deck" and sub for p, _, sub in mounts))
    tmp = tmp_path_factory.mktemp("ships")
    try:
        ships = _load(tmp, f"  Probe: {{class: Test, torpedo_tubes: {{count: {count}, mounts: [{listed}]}}}}\n")
    except ShipDataError as err:
        assert not consistent, str(err)
        assert "'Probe'" in str(err) and "torpedo_tubes" in str(err)
    else:
        assert consistent
        assert sum(m.count for m in ships["Probe"].torpedo_tubes.mounts) == count
