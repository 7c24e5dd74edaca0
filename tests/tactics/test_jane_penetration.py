"""Jane's engine decides a hit's penetration by Krupp's formula (data/penetration.yaml) at the hit's true
range and obliquity, keeping the seed's own rules where it speaks (data/tactics/jane.yaml, penetration):
the 9.2-inch no longer pierces Goeben's belt and turrets at battle range; her 28 cm pierces the armoured
cruisers' belts square to the line of fire; A guns at 700 yards, unarmoured parts and coal as the seed
says."""

from __future__ import annotations

import numpy as np
import pytest

from campaign.model.ships import find_ship
from campaign.tactics import jane_fire
from campaign.tactics.jane import JaneEngine, load_rules
from campaign.tactics.jane_rulebook import coal_thickness_mm, grade_ratio, shell_penetrates
from campaign.tactics.jane_ship import from_combatant
from campaign.tactics.protocol import BattleSetup, Combatant, HelmOrder, Setting

RULES = load_rules()
DAY = Setting()


def combatant(name: str, side: str, x: float = 0.0, y: float = 0.0, course: float = 90.0,
              speed: float = 12.0) -> Combatant:
    ship = find_ship(name)
    return Combatant(ship, ship.name, side, x, y, course, speed, ship.sustained_speed_kn)


def state(name: str, side: str = "X"):
    return from_combatant(RULES, combatant(name, side))


GOEBEN, DEFENCE, WARRIOR = state("Goeben", "G"), state("Defence", "B"), state("Warrior", "B")
SK28 = GOEBEN.groups[0]
MK11, MK10 = DEFENCE.groups[0], WARRIOR.groups[0]


def test_the_ships_plates_are_their_armour():
    assert (GOEBEN.waterline_mm, GOEBEN.deck_mm, GOEBEN.conning_tower_mm) == (280, 76.2, 350)
    assert SK28.protection_mm == 230 and MK11.protection_mm == 203
    assert SK28.gun.label == "28 cm SK L/50" and SK28.ap_shell.type == "apc" and SK28.he_shell is None
    assert MK11.ap_shell.type == "ap" and MK11.he_shell.type == "lyddite"
    # "coal improves one grade" (seed 004 l.39): one grade's ratio thicker by the machinery
    assert DEFENCE.waterline_coal_mm == pytest.approx(152 / grade_ratio(RULES))
    assert grade_ratio(RULES) == pytest.approx(0.704, abs=0.001)
    assert coal_thickness_mm(RULES, None, 1) == RULES.grade_min_mm["f"]  # unarmoured side + coal: grade f
    assert coal_thickness_mm(RULES, 100.0, 0) == 100.0


@pytest.mark.parametrize("group", [MK11, MK10], ids=["Mk XI", "Mk X"])
@pytest.mark.parametrize("range_yd", [5000, 8000, 12000, 16000])
def test_the_9_2_inch_no_longer_pierces_goebens_belt_or_turrets(group, range_yd):
    for projectile in ("ap", "he"):
        shell = jane_fire.fired_shell(group, projectile)
        assert not shell_penetrates(RULES, group.cls, shell, projectile, GOEBEN.waterline_mm, range_yd)
        assert not shell_penetrates(RULES, group.cls, shell, projectile, SK28.protection_mm, range_yd)


def test_goebens_28cm_pierces_the_cruisers_belts_square_to_the_fire():
    for r in (8000, 12000, 16000):
        assert shell_penetrates(RULES, "A", SK28.ap_shell, "ap", DEFENCE.waterline_mm, r)
    assert shell_penetrates(RULES, "A", SK28.ap_shell, "ap", DEFENCE.waterline_mm, 10000, plan_deg=40)
    assert not shell_penetrates(RULES, "A", SK28.ap_shell, "ap", DEFENCE.waterline_mm, 10000, plan_deg=60)
    # the deck: 90 deg less the angle of fall - glancing at 10,000 yd (7 deg), through at 16,000 (18 deg)
    assert not shell_penetrates(RULES, "A", SK28.ap_shell, "ap", DEFENCE.deck_mm, 10000, deck=True)
    assert shell_penetrates(RULES, "A", SK28.ap_shell, "ap", DEFENCE.deck_mm, 16000, deck=True)


def test_the_seeds_own_rules_are_kept():
    # "A guns at 700 yards penetrate everything" (l.39)
    assert shell_penetrates(RULES, "A", SK28.ap_shell, "ap", 415, 700, plan_deg=80)
    assert not shell_penetrates(RULES, "A", SK28.ap_shell, "ap", 415, 701)
    assert not shell_penetrates(RULES, "B", MK11.ap_shell, "ap", 415, 500)
    # unarmoured parts, and plates under the thinnest grade, are always pierced
    light = find_ship("Goeben").guns[2]
    assert light.label == "8.8 cm SK L/45"
    sk88 = GOEBEN.groups[2].he_shell
    for plate in (None, 0.0, 24.9):
        assert shell_penetrates(RULES, "E", sk88, "he", plate, 12000, plan_deg=80)
    assert not shell_penetrates(RULES, "E", sk88, "he", 25.0, 12000)
    # a gun without shell figures: Jane's graded table, as the rules give it (A: shot aaa, AP shell two
    # grades less, a, which takes a 200 mm plate; HE four less, c, not a 300 mm one)
    assert shell_penetrates(RULES, "A", None, "ap", 200, 5000)
    assert not shell_penetrates(RULES, "A", None, "he", 300, 5000)


def test_projectiles_are_janes_shell_columns():
    basilisk = state("Basilisk", "B")
    assert jane_fire.choose_projectile(RULES, SK28, DEFENCE, 10000) == "ap"
    assert jane_fire.choose_projectile(RULES, MK11, GOEBEN, 10000) == "ap"
    assert jane_fire.choose_projectile(RULES, MK11, basilisk, 10000) == "he"
    assert jane_fire.fired_shell(MK11, "he") is MK11.he_shell
    assert jane_fire.fired_shell(MK11, "ap") is MK11.ap_shell


def test_in_battle_the_9_2_inch_hits_glance_off_goeben():
    """Goeben and Defence on parallel courses 8,000 yards apart: every 9.2-inch hit on Goeben's belt or
    turrets fails; her 28 cm shells are fired as AP shell, never as Jane's solid shot."""
    setup = BattleSetup((combatant("Goeben", "G", 0, 8000, 90, 12), combatant("Defence", "B", 0, 0, 90, 12)),
                        DAY, {"G": "engage", "B": "engage"})
    battle = JaneEngine(RULES).begin(setup, np.random.default_rng(3))
    events = []
    for _ in range(40):
        orders = {v.name: HelmOrder(v.course_deg, v.speed_kn) for v in battle.views() if v.afloat}
        events += battle.step(orders, DAY)
    hits = [e for e in events if e.type == "hit"]
    nine = [e for e in hits if e.ship == "Goeben" and e.data["gun"] == "BL 9.2-inch Mk XI"
            and e.data["part"] in ("belt", "turret")]
    assert nine and not any(e.data["penetrated"] for e in nine)
    fired = {e.data["projectile"] for e in events if e.type == "fire" and e.ship == "Goeben"}
    assert "shot" not in fired and "ap" in fired
