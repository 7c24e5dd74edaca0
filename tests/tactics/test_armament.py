"""Gun arcs: the cited counts, the arc sectors of data/tactics/arcs.yaml and the invariants of guns_bearing."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from campaign.model.ships import Gun, default_ships, find_ship
from campaign.tactics.armament import (
    ARCS_FILE,
    ArcRules,
    arc_counts,
    barrels_bearing,
    barrels_bearing_total,
    fold_bearing_deg,
    guns_bearing,
    load_arcs,
    ships_without_arc_data,
)

SHIPS = default_ships()
WARSHIPS = [s for s in SHIPS.values() if s.guns and not s.is_merchant]
RULES = load_arcs()


def _main(name: str) -> Gun:
    """The ship's heaviest gun group."""
    return max(find_ship(name).guns, key=lambda g: g.calibre_mm)


def _by_label(name: str, label: str) -> Gun:
    return next(g for g in find_ship(name).guns if g.label == label)


# ------------------------------------------------------------------------------------------ cited counts


def test_goeben_main_battery_is_marineblad_10_broadside_6_ahead_4_astern() -> None:
    # Marineblad 1911-12 no.7: 'fire with 10 guns in the broadsides, 6 ahead and 4 afterwards'.
    c = arc_counts(_main("Goeben"))
    assert (c.broadside, c.ahead, c.astern, c.cross_deck, c.from_data) == (10, 6, 4, 2, True)


def test_goeben_fires_ten_only_near_the_beam_and_eight_elsewhere_on_the_broadside() -> None:
    gun = _main("Goeben")
    assert barrels_bearing(gun, 90) == 10
    assert barrels_bearing(gun, 90 + RULES.cross_deck_half_arc_deg) == 10
    assert barrels_bearing(gun, 90 + RULES.cross_deck_half_arc_deg + 1) == 8
    assert barrels_bearing(gun, RULES.end_on_half_arc_deg) == 8


def test_goeben_secondary_battery_bears_on_the_beam_only_and_is_quick_firing() -> None:
    sec = _by_label("Goeben", "15 cm SK L/45")
    assert (sec.broadside, sec.ahead, sec.astern) == (6, 0, 0)
    assert sec.quick_firing is True
    assert _main("Goeben").quick_firing is False  # 28 cm SK: a Jane 'big gun', about 3 rounds/min


@pytest.mark.parametrize("name", ["Indomitable", "Inflexible", "Indefatigable", "New Zealand"])
def test_british_battlecruisers_six_in_any_direction_eight_only_across_the_deck(name: str) -> None:
    # Forum post: 'disposed to allow 6 guns to bear in any direction ... a theoretical 8 gun broadside'.
    gun = _main(name)
    c = arc_counts(gun)
    assert (c.broadside, c.cross_deck, c.ahead, c.astern) == (8, 2, 6, 6)
    assert barrels_bearing(gun, 90) == 8
    assert barrels_bearing(gun, 60) == 6
    assert gun.quick_firing is False


def test_gloucester_two_centreline_6_inch_and_a_five_gun_waist_battery() -> None:
    six, four, three = find_ship("Gloucester").guns
    assert (six.broadside, six.ahead, six.astern) == (2, 1, 1)
    assert (four.broadside, four.ahead, four.astern) == (5, 0, 0)
    assert (three.broadside, three.ahead, three.astern) == (2, 1, 1)
    assert (six.quick_firing, four.quick_firing, three.quick_firing) == (False, False, True)
    assert barrels_bearing_total(find_ship("Gloucester"), 0) == 2
    assert barrels_bearing_total(find_ship("Gloucester"), 90, min_calibre_mm=100) == 7


def test_breslau_two_forecastle_two_quarterdeck_four_a_side() -> None:
    # historyofwar.org: 'two on the forecastle, two on the quarterdeck and four down each side'.
    (gun,) = find_ship("Breslau").guns
    assert (gun.broadside, gun.ahead, gun.astern, gun.quick_firing) == (6, 2, 2, True)


@pytest.mark.parametrize(
    "name, label, counts",
    [
        ("Defence", "BL 9.2-inch Mk XI", (4, 2, 2)),
        ("Defence", "BL 7.5-inch Mk II", (5, 2, 2)),
        ("Warrior", "BL 9.2-inch Mk X", (4, 3, 3)),
        ("Black Prince", "BL 6-inch Mk XI", (5, 0, 0)),
        ("Tegetthoff", "30.5 cm/45 K10", (12, 6, 6)),
        ("Courbet", "305 mm Mle 1910", (10, 8, 8)),
        ("Bouvet", "274 mm (10.8 in)", (1, 2, 2)),
        ("Danton", "240 mm (9.4 in)", (6, 4, 4)),
    ],
)
def test_layout_derived_counts(name: str, label: str, counts: tuple[int, int, int]) -> None:
    g = _by_label(name, label)
    assert (g.broadside, g.ahead, g.astern) == counts


def test_two_turret_battleship_broadside_is_twice_end_on_as_nwc_1905() -> None:
    # seed 002, fleet game: 'broadside battery is twice end-on'.
    for name in ["Danton", "Patrie", "Suffren", "Charlemagne", "Radetzky"]:
        c = arc_counts(_main(name))
        assert c.broadside == 2 * c.ahead == 2 * c.astern


# ------------------------------------------------------------------------------------------ coverage


def test_every_fighting_warship_has_arc_data_for_every_gun_group() -> None:
    assert ships_without_arc_data(SHIPS.values()) == []
    for ship in WARSHIPS:
        for gun in ship.guns:
            assert gun.has_arcs, f"{ship.name}: {gun.label}"
            assert ship.sources.get("guns.arcs"), ship.name


def test_the_pursuit_forces_are_armed_and_covered() -> None:
    names = ["Goeben", "Breslau", "Indomitable", "Inflexible", "Indefatigable", "Defence", "Black Prince",
             "Duke of Edinburgh", "Warrior", "Gloucester", "Dublin", "Chatham", "Weymouth", "Beagle"]
    for name in names:
        ship = find_ship(name)
        assert ship.guns and all(arc_counts(g).from_data for g in ship.guns), name
        assert all(g.quick_firing is not None for g in ship.guns), name


def test_guns_with_unknown_rate_are_only_the_italian_120mm() -> None:
    unknown = {(s.cls, g.label) for s in WARSHIPS for g in s.guns if g.quick_firing is None}
    assert unknown == {("Dante Alighieri", "120 mm/50"), ("Conte di Cavour", "120 mm/50")}


def test_heavy_guns_are_never_quick_firing_and_light_guns_always_are() -> None:
    for ship in WARSHIPS:
        for g in ship.guns:
            if g.calibre_mm >= 190:
                assert g.quick_firing is False, (ship.name, g.label)
            if g.calibre_mm <= 76.2:
                assert g.quick_firing is True, (ship.name, g.label)


# ------------------------------------------------------------------------------------------ the sectors


@pytest.mark.parametrize("ship", WARSHIPS, ids=[s.name for s in WARSHIPS])
def test_beam_bow_and_stern_give_the_broadside_ahead_and_astern_counts(ship) -> None:
    for bearing, field in [(90, "broadside"), (-90, "broadside"), (0, "ahead"), (180, "astern"), (-180, "astern")]:
        got = {id(g): n for g, n in guns_bearing(ship, bearing)}
        for g in ship.guns:
            assert got.get(id(g), 0) == getattr(arc_counts(g), field), (bearing, g.label)


def test_sector_edges_follow_the_arcs_file() -> None:
    gun = _main("Goeben")
    e = RULES.end_on_half_arc_deg
    assert barrels_bearing(gun, e - 0.01) == 6
    assert barrels_bearing(gun, e) == 8
    assert barrels_bearing(gun, 180 - e) == 8
    assert barrels_bearing(gun, 180 - e + 0.01) == 4


def test_arcs_file_figures_and_citations() -> None:
    assert RULES.end_on_half_arc_deg == 30  # turrets trained ~150 deg either way from their axis
    assert RULES.cross_deck_half_arc_deg == 15  # stand-in: a 'narrow' arc
    assert load_arcs() is load_arcs()
    assert ARCS_FILE.name == "arcs.yaml"


def test_bad_arcs_file_is_refused(tmp_path: Path) -> None:
    text = ARCS_FILE.read_text(encoding="utf-8")
    bad = tmp_path / "arcs.yaml"
    bad.write_text(text.replace("end_on_half_arc_deg: 30", "end_on_half_arc_deg: 95"), encoding="utf-8")
    with pytest.raises(ValueError, match="end_on_half_arc_deg"):
        ArcRules.load(bad)
    bad.write_text(text.replace("  cross_deck_half_arc_deg: >-", "  other: >-"), encoding="utf-8")
    with pytest.raises(ValueError, match="cross_deck_half_arc_deg has no source"):
        ArcRules.load(bad)


def test_fallback_rule_is_labelled_and_used_only_without_data() -> None:
    turret = Gun(8, 305, "test", "twin turret")
    other = Gun(10, 102, "test", "single")
    assert arc_counts(turret) == arc_counts(turret, RULES)
    assert (arc_counts(turret).broadside, arc_counts(turret).ahead, arc_counts(turret).astern) == (8, 4, 4)
    assert (arc_counts(other).broadside, arc_counts(other).ahead, arc_counts(other).astern) == (5, 3, 2)
    assert not arc_counts(turret).from_data
    assert getattr(other, "quick_firing", None) is None


def test_non_finite_bearing_is_refused() -> None:
    with pytest.raises(ValueError):
        fold_bearing_deg(float("nan"))


# ------------------------------------------------------------------------------------------ invariants

bearings = st.floats(min_value=-720, max_value=720, allow_nan=False, allow_infinity=False)


@given(st.sampled_from(WARSHIPS), bearings)
@settings(max_examples=300, deadline=None)
def test_counts_never_exceed_the_group_and_sides_are_symmetric(ship, bearing: float) -> None:
    out = guns_bearing(ship, bearing)
    for gun, n in out:
        assert 0 < n <= gun.count
        assert n <= max(arc_counts(gun).broadside, arc_counts(gun).ahead, arc_counts(gun).astern)
    assert [n for _, n in out] == [n for _, n in guns_bearing(ship, -bearing)]
    assert [n for _, n in out] == [n for _, n in guns_bearing(ship, bearing + 360)]
    assert 0 <= fold_bearing_deg(bearing) <= 180


@given(st.sampled_from(WARSHIPS), st.floats(min_value=0, max_value=180, allow_nan=False))
@settings(max_examples=200, deadline=None)
def test_no_bearing_beats_the_beam_for_broadside_groups(ship, bearing: float) -> None:
    for gun in ship.guns:
        c = arc_counts(gun)
        assert barrels_bearing(gun, bearing) <= max(c.broadside, c.ahead, c.astern)
        assert barrels_bearing(gun, 90) == c.broadside


@given(
    st.integers(1, 16).flatmap(
        lambda n: st.tuples(st.just(n), st.integers(0, n), st.integers(0, n), st.integers(0, n))
    ),
    bearings,
)
def test_any_valid_group_stays_within_its_barrels(counts: tuple[int, int, int, int], bearing: float) -> None:
    n, b, a, s = counts
    gun = Gun(n, 150, "test", "single", broadside=b, ahead=a, astern=s, cross_deck=b // 2)
    assert 0 <= barrels_bearing(gun, bearing) <= n
