"""Gun reach in the engines (data/guns.yaml, campaign/model/guns.py): each gun fires to its own mounting's
reach, never beyond; the Jane hit table runs beyond every reach; the light quick-firers (Jane's class F:
12- and 3-pounders) hold their fire at armoured ships."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from campaign.model.guns import default_guns, longest_reach_yd, reach_yd
from campaign.model.ships import default_ships, find_ship
from campaign.tactics import nwc1905_fire as nwc_fire
from campaign.tactics.jane import JaneEngine, load_rules
from campaign.tactics.jane_rulebook import is_armoured, spares_armoured
from campaign.tactics.jane_ship import from_combatant
from campaign.tactics.nwc1905_rules import load_rules as load_nwc_rules
from campaign.tactics.protocol import BattleSetup, Combatant, HelmOrder, Setting

RULES = load_rules()
NWC = load_nwc_rules()
DAY = Setting(visibility_yd=25000.0)


def _combatant(name: str, side: str, x: float = 0.0, y: float = 0.0, course: float = 90.0,
               hulk: bool = False) -> Combatant:
    """A ship lying stopped; ``hulk``: unarmed and too big to sink (a target to count fire at)."""
    ship = find_ship(name)
    if hulk:
        ship = dataclasses.replace(ship, guns=(), displacement_t=1e9)
    return Combatant(ship, name, side, x, y, course, 0.0, ship.sustained_speed_kn)


def _fire_events(*cs: Combatant, moves: int = 6, seed: int = 0) -> list:
    """Fire events of a Jane battle of these ships lying stopped on their courses."""
    battle = JaneEngine(RULES).begin(BattleSetup(tuple(cs), DAY, {c.side: "engage" for c in cs}),
                                     np.random.default_rng(seed))
    events = []
    for _ in range(moves):
        orders = {v.name: HelmOrder(v.course_deg, 0.0) for v in battle.views() if v.afloat}
        events += [e for e in battle.step(orders, DAY) if e.type == "fire"]
    return events


def test_jane_groups_take_their_mountings_reach():
    goeben = from_combatant(RULES, _combatant("Goeben", "G"))
    defence = from_combatant(RULES, _combatant("Defence", "B"))
    assert {g.gun.label: g.max_range_yd for g in goeben.groups} == {
        "28 cm SK L/50": 18410, "15 cm SK L/45": 16400, "8.8 cm SK L/45": 9490}
    nine_two = next(g for g in defence.groups if g.gun.label == "BL 9.2-inch Mk XI")
    assert nine_two.max_range_yd == 16200  # WP 'Minotaur-class cruiser (1906)'


def test_breslau_fires_at_the_11500_yards_of_7_august():
    """Breslau's 10.5 cm reaches 12,200 m (the class cap of 10,000 yd kept her silent at 11,500)."""
    events = _fire_events(_combatant("Breslau", "G"), _combatant("Gloucester", "B", 0.0, 11500.0))
    mine = [e for e in events if e.ship == "Breslau"]
    assert mine and all(e.data["gun"] == "10.5 cm SK L/45" for e in mine)
    assert mine[0].data["range_yd"] == pytest.approx(11500, abs=1)


def test_goeben_outranges_the_first_cruiser_squadron():
    """At 17,000 yd Goeben's 28 cm (18,410 yd at 13.5 deg) fire; Defence's 9.2-inch (16,200 yd) cannot."""
    assert reach_yd(next(g for g in find_ship("Goeben").guns if g.label == "28 cm SK L/50")) > max(
        longest_reach_yd(find_ship(n)) for n in ("Defence", "Warrior", "Duke of Edinburgh", "Black Prince"))
    events = _fire_events(_combatant("Goeben", "G"), _combatant("Defence", "B", 0.0, 17000.0))
    assert {e.ship for e in events} == {"Goeben"}
    assert {e.data["gun"] for e in events} == {"28 cm SK L/50"}


def test_light_quick_firers_spare_armoured_ships_but_not_destroyers():
    """3-pounders (Warrior) and 12-pounders (Defence) strike an armoured cruiser never, a destroyer still."""
    assert spares_armoured(RULES, "F") and not spares_armoured(RULES, "E")  # 12- and 3-pdrs; not 8.8 cm
    assert is_armoured(RULES, find_ship("Edgar Quinet")) and not is_armoured(RULES, find_ship("Basilisk"))
    assert not is_armoured(RULES, find_ship("Breslau"))  # a light cruiser's 60 mm belt
    for firer, light in (("Warrior", "QF 3-pounder"), ("Defence", "QF 12-pounder 18 cwt")):
        for target, spared in (("Edgar Quinet", True), ("Black Prince", True), ("Basilisk", False)):
            events = _fire_events(_combatant(firer, "B"), _combatant(target, "F", 0.0, 3000.0, hulk=True))
            fired = {e.data["gun"] for e in events if e.ship == firer}
            assert len(fired) >= 2, (firer, target, fired)  # her other guns fire at her
            assert (light not in fired) == spared, (firer, target, fired)


def test_jane_hit_table_runs_beyond_every_reach_and_shift():
    """No shifted range can fall beyond the table: the longest reach plus the greatest shifts of light,
    sea and passing (data/tactics/jane.yaml) is within its last row."""
    longest = max(g.max_range_yd for g in default_guns().entries.values())
    shifts = max(RULES.light_shift_yd.values()) + max(yd for _, yd in RULES.sea_shift) + RULES.passing_shift_yd
    assert longest + shifts <= RULES.hit_table_max_yd
    fighting = [s for s in default_ships().values() if s.guns and not s.is_merchant]
    assert max(longest_reach_yd(s) for s in fighting) <= longest


def test_nwc1905_counts_a_gun_only_within_its_reach():
    """Basilisk's 12-pounders (9,490 yd at 20 deg) drop out beyond their reach, her 4-inch (11,190) not."""
    basilisk = find_ship("Basilisk")
    battery = nwc_fire.Battery(NWC, basilisk)
    near_w, near_guns = battery.at(90.0, 5000.0)
    far_w, far_guns = battery.at(90.0, 10000.0)
    four_inch = [(g, n) for g, n in nwc_fire.guns_in_reach(basilisk, 90.0, 0.0) if g.label == "BL 4-inch"]
    assert far_guns == pytest.approx(nwc_fire.value_8in(NWC, four_inch))
    assert 0.0 < far_guns < near_guns and 0.0 < far_w < near_w == battery.broadside_weight
    assert battery.at(90.0, 12000.0) == (0.0, 0.0)  # beyond every gun she has
    assert battery.longest_reach_yd == longest_reach_yd(basilisk) == 11190
