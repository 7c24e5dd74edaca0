"""The 1905 rules' two readings offered as settings: where scoring stops (the tables' 8,450 yards or the
fleet game's 6,000-yard wand) and whether target resistance (the main belt) enters."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from campaign.model.ships import find_ship
from campaign.tactics import nwc1905_fire as fire
from campaign.tactics.nwc1905 import Nwc1905Engine
from campaign.tactics.nwc1905_rules import RULES_FILE, RulesError, load_rules
from campaign.tactics.protocol import BattleSetup, Combatant, HelmOrder, Setting

RULES = load_rules()
WAND = dataclasses.replace(RULES, last_range="wand")
ARMOUR = dataclasses.replace(RULES, target_resistance="armour")


def test_the_default_scores_to_the_tables_last_range_and_the_wand_to_6000_yards():
    assert RULES.last_range == "tables" and RULES.gun_range_yd == 8450  # seed 002 l.43
    assert WAND.gun_range_yd == 6000  # l.47
    assert fire.curve_points(RULES, 7000) > 0.0
    assert fire.curve_points(WAND, 7000) == 0.0
    assert fire.curve_points(WAND, 5500) == fire.curve_points(RULES, 5500)


def test_target_resistance_is_off_by_default_and_by_the_belt_when_on():
    goeben, indomitable, defence = (find_ship(n) for n in ("Goeben", "Indomitable", "Defence"))
    assert RULES.target_resistance == "none"
    assert {fire.resistance_factor(RULES, s) for s in (goeben, indomitable, defence)} == {1.0}
    # Battleship type: USS Maine's 279 mm belt over her own; armoured cruisers: USS Pennsylvania's 152 mm.
    assert fire.resistance_factor(ARMOUR, goeben) == pytest.approx(279 / goeben.armour.belt)
    assert fire.resistance_factor(ARMOUR, indomitable) == pytest.approx(279 / 152)
    assert fire.resistance_factor(ARMOUR, defence) == pytest.approx(152 / defence.armour.belt)
    assert fire.resistance_factor(ARMOUR, find_ship("Gloucester")) == 1.0  # a protected cruiser: as printed


def _points_received(rules, target: str) -> float:
    firer = find_ship("Indomitable")
    ship = find_ship(target)
    cs = (Combatant(firer, "I", "Britain", 0.0, 0.0, 0.0, 10.0, firer.sustained_speed_kn),
          Combatant(ship, "T", "Germany", 5000.0, 0.0, 0.0, 10.0, ship.sustained_speed_kn))
    b = Nwc1905Engine(rules).begin(BattleSetup(cs, Setting(), {"Britain": "engage", "Germany": "engage"}),
                                   np.random.default_rng(1))
    events = b.step({v.name: HelmOrder(v.course_deg, v.speed_kn) for v in b.views()}, Setting())
    return sum(e.data["points"] for e in events if e.type == "fire" and e.ship == firer.name)


def test_under_armour_resistance_goeben_takes_what_her_belt_gives_and_a_thin_belted_ship_more():
    assert _points_received(ARMOUR, "Goeben") == pytest.approx(
        _points_received(RULES, "Goeben") * 279 / find_ship("Goeben").armour.belt, abs=2e-3)  # events round
    assert _points_received(ARMOUR, "Indefatigable") > _points_received(RULES, "Indefatigable")


@pytest.mark.parametrize("field, value, words", [
    ("last_range: tables", "last_range: ruler", "fire.last_range"),
    ("target_resistance: none", "target_resistance: maybe", "fire.target_resistance"),
])
def test_a_bad_setting_is_refused_naming_its_field(tmp_path, field, value, words):
    text = RULES_FILE.read_text(encoding="utf-8")
    assert field in text
    path = tmp_path / "nwc1905.yaml"
    path.write_text(text.replace(field, value), encoding="utf-8")
    with pytest.raises(RulesError, match=words):
        load_rules(path)
