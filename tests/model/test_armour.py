"""Armour: every ship that can fight has every part from a source (or a labelled borrowed figure), and a
battle refuses a ship whose armour is unknown instead of reading it as none (data/ships.yaml, ARMOUR)."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import numpy as np
import pytest

from campaign.model.ships import (
    ARMOUR_PARTS,
    Armour,
    ShipDataError,
    UnknownArmourError,
    default_ships,
    find_ship,
    load_ships,
    require_known_armour,
)
from campaign.tactics.engines import engine_names, get_engine
from campaign.tactics.jane_rulebook import armour_grade
from campaign.tactics.jane_rules import load_rules
from campaign.tactics.jane_ship import from_combatant
from campaign.tactics.protocol import BattleSetup, Combatant, Setting

SHIPS = default_ships()
BORROWED = ("sister ", "related ")

# Every figure taken from another ship or reasoned without a source (data/ships.yaml, ARMOUR): (class, part).
EXPECTED_BORROWED = {
    ("Liberte", "barbettes"): "related République",
    ("Edgar Quinet", "barbettes"): "related Jules Michelet",
    ("Ernest Renan", "barbettes"): "related Jules Michelet",
    ("San Giorgio", "barbettes"): "related Pisa",
    ("Pisa", "barbettes"): "sister Georgios Averof",
    ("Radetzky", "barbettes"): "stand-in:",
    ("Dante Alighieri", "barbettes"): "stand-in:",
}


def _combatant(ship, side: str, x: float = 0.0) -> Combatant:
    return Combatant(ship, side, side, x, 0.0, 90.0, 10.0, ship.sustained_speed_kn)


# ---------------------------------------------------------------------------------------- every figure known


@pytest.mark.parametrize("name", sorted(SHIPS))
def test_every_ship_has_every_armour_part_with_a_citation(name: str) -> None:
    ship = SHIPS[name]
    assert ship.armour.unknown_parts() == ()
    for part in ARMOUR_PARTS:
        mm = getattr(ship.armour, part)
        assert mm is not None and mm >= 0, (name, part)
        cite = ship.source_of(f"armour_mm.{part}")
        assert cite and len(cite.strip()) >= 10, (name, part)
        if mm == 0:
            # a 0 is a fact (the part is absent), cited as such - never an unknown written as none
            assert cite.startswith("0, no"), (name, part, cite)
        if cite.startswith(BORROWED):
            assert "not found" in cite, (name, part, cite)


def test_borrowed_and_stand_in_figures_are_the_labelled_few() -> None:
    found = {}
    for ship in SHIPS.values():
        for part in ARMOUR_PARTS:
            cite = ship.source_of(f"armour_mm.{part}") or ""
            if cite.startswith(BORROWED) or "stand-in" in cite:
                assert cite.startswith((*BORROWED, "stand-in:")), (ship.name, part, cite)
                found[(ship.cls, part)] = cite
    assert set(found) == set(EXPECTED_BORROWED)
    for key, label in EXPECTED_BORROWED.items():
        assert found[key].startswith(label), (key, found[key])


def test_sourced_figures() -> None:
    goeben, indomitable = find_ship("Goeben").armour, find_ship("Indomitable").armour
    assert (goeben.belt, goeben.deck, goeben.conning_tower) == (280, 76.2, 350)  # piglix infobox: belt 280-100
    assert indomitable.belt == 152  # WP: belt 4-6 in
    # Duke of Edinburgh class data sheet: decks 0.75-1.5 in, CT 10 in (both null before)
    doe = find_ship("Black Prince").armour
    assert (doe.deck, doe.conning_tower) == (38, 254)
    # Warrior class specifications (sister Cochrane's page): belt 3-6 in, barbettes 3-6 in, turrets 4.5-7.5 in
    warrior = find_ship("Warrior").armour
    assert (warrior.belt, warrior.barbettes, warrior.turrets, warrior.conning_tower) == (152, 152, 191, 254)
    assert find_ship("Danton").armour.barbettes == 280  # fr WP: 'barbettes : 280 mm maximum'
    assert dataclasses.astuple(find_ship("Charlemagne").armour) == (400, 70, 320, 270, 326)
    assert dataclasses.astuple(find_ship("Bouvet").armour) == (400, 70, 380, 310, 300)  # navypedia; Osprey
    assert dataclasses.astuple(find_ship("Giulio Cesare").armour) == (250, 40, 280, 230, 280)  # comandosupremo
    assert dataclasses.astuple(find_ship("Ernest Renan").armour) == (152, 66, 203, 180, 203)
    assert dataclasses.astuple(find_ship("Amalfi").armour) == (200, 50, 160, 180, 180)  # Conway's via ru WP
    assert dataclasses.astuple(find_ship("Admiral Spaun").armour) == (60, 20, 0, 0, 50)  # navypedia


def test_absent_parts_are_zero() -> None:
    # protected cruisers: an armoured deck and no belt (WP 'Town-class cruiser (1910)')
    for name in ("Gloucester", "Weymouth"):
        a = find_ship(name).armour
        assert a.belt == 0 and a.deck == 51
    # shielded single guns: no turrets or barbettes
    for name in ("Breslau", "Gloucester", "Dublin", "Weymouth", "Novara", "Admiral Spaun"):
        a = find_ship(name).armour
        assert (a.turrets, a.barbettes) == (0, 0), name
    # destroyers, the station yacht and the merchants are unarmoured throughout
    for ship in SHIPS.values():
        if ship.type == "destroyer" or ship.is_merchant or ship.name == "Lorelei":
            assert dataclasses.astuple(ship.armour) == (0, 0, 0, 0, 0), ship.name
    # every armoured ship keeps a real belt or deck
    for ship in SHIPS.values():
        if ship.type in ("dreadnought", "battleship", "battlecruiser", "armoured_cruiser"):
            assert min(ship.armour.belt, ship.armour.deck, ship.armour.turrets, ship.armour.conning_tower) > 0


def test_jane_reads_the_filled_deck_and_conning_tower() -> None:
    # Before, the Duke of Edinburghs' null deck and conning tower graded "none": any deck hit pierced and
    # any conning-tower hit got through.
    rules = load_rules()
    st = from_combatant(rules, _combatant(find_ship("Duke of Edinburgh"), "B"))
    assert st.deck_grade == armour_grade(rules, 38) != "none"
    assert st.conning_tower_grade == armour_grade(rules, 254) != "none"


# ---------------------------------------------------------------------------------- unknown armour refused


def _with_unknown(name: str, *parts: str):
    ship = find_ship(name)
    return dataclasses.replace(ship, armour=dataclasses.replace(ship.armour, **{p: None for p in parts}))


def test_a_battle_refuses_a_ship_with_unknown_armour_naming_ship_and_parts() -> None:
    gloucester = _with_unknown("Gloucester", "deck", "conning_tower")
    with pytest.raises(UnknownArmourError) as err:
        BattleSetup((_combatant(find_ship("Breslau"), "G"), _combatant(gloucester, "B", 8000.0)),
                    Setting(), {"G": "engage", "B": "engage"})
    msg = str(err.value)
    assert "Gloucester (deck, conning_tower)" in msg
    assert "Breslau" not in msg  # only the ship at fault is named


def test_every_unknown_ship_is_named() -> None:
    ships = [_with_unknown("Goeben", "turrets"), find_ship("Inflexible"), _with_unknown("Mudros", "belt")]
    with pytest.raises(UnknownArmourError, match=r"Goeben \(turrets\); Mudros \(belt\)"):
        require_known_armour(ships)
    require_known_armour(SHIPS.values())  # the bundled data: every ship may fight


@pytest.mark.parametrize("engine", engine_names())
def test_no_engine_is_handed_a_ship_of_unknown_armour(engine: str) -> None:
    # The check sits in BattleSetup, which every engine (and the world's zoom, settlement and duels) is given:
    # a destroyer, a merchant and a light cruiser, all known, begin under each engine; one unknown part refuses.
    known = (_combatant(find_ship("Basilisk"), "B"), _combatant(find_ship("Mudros"), "G", 3000.0),
             _combatant(find_ship("Breslau"), "G", 6000.0))
    get_engine(engine).begin(BattleSetup(known, Setting(), {"B": "engage", "G": "break_off"}),
                             np.random.default_rng(0))
    with pytest.raises(UnknownArmourError, match=r"Basilisk \(belt\)"):
        BattleSetup((_combatant(_with_unknown("Basilisk", "belt"), "B"), *known[1:]),
                    Setting(), {"B": "engage", "G": "break_off"})


def test_unknown_parts_in_order() -> None:
    assert Armour().unknown_parts() == ARMOUR_PARTS
    assert Armour(belt=0, deck=0, turrets=0, barbettes=0, conning_tower=0).unknown_parts() == ()
    assert Armour(belt=100, conning_tower=50).unknown_parts() == ("deck", "turrets", "barbettes")


# ------------------------------------------------------------------------------------------------ loader

CLASS = """
classes:
  Test:
    nation: Germany
    type: collier
    displacement_t: 4000
    length_m: 100
    beam_m: 13
    draught_m: 6
    speed_kn: {design: 11, sustained: 10, economical: 9}
    coal: {capacity_t: 400}
    consumption: {method: stand_in, fixed_t_per_day: 4, cubic_t_per_day: 14, basis: "stand-in: a test curve"}
    transfer_rate_t_per_h: 70
    crew: 50
    ARMOUR
    sources: {displacement_t: "a source", length_m: "a source", beam_m: "a source", draught_m: "a source",
              speed_kn: "a source", coal: "a source", consumption: "a source", crew: "a source",
              transfer_rate_t_per_h: "a source"SOURCE}
ships:
  Probe: {class: Test}
"""


def _load(tmp_path: Path, armour: str, source: str = ""):
    path = tmp_path / "armour_ships.yaml"
    path.write_text(CLASS.replace("ARMOUR", armour).replace("SOURCE", source), encoding="utf-8")
    return load_ships(path)["Probe"]


def test_loader_accepts_unknown_armour_but_the_battle_does_not(tmp_path: Path) -> None:
    probe = _load(tmp_path, "armour_mm: {belt: 0, deck: null}", ', armour_mm: "0, not armoured: a collier"')
    assert probe.armour.belt == 0 and probe.armour.unknown_parts() == ("deck", "turrets", "barbettes",
                                                                        "conning_tower")
    with pytest.raises(UnknownArmourError, match=r"Probe \(deck, turrets, barbettes, conning_tower\)"):
        require_known_armour([probe])


def test_a_zero_needs_its_citation_like_any_figure(tmp_path: Path) -> None:
    with pytest.raises(ShipDataError, match=r"armour_mm\.belt"):
        _load(tmp_path, "armour_mm: {belt: 0}")
