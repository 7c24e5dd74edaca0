"""The shared damage model (campaign/tactics/damage.py) against seed 003's rules and the data file."""

from __future__ import annotations

from dataclasses import replace
from types import MappingProxyType

import numpy as np
import pytest

from campaign.model.ships import find_ship
from campaign.tactics import damage
from campaign.tactics.armament import arc_counts
from campaign.tactics.damage import (
    CriticalEntry,
    DamageBoxes,
    DamageState,
    GunBoxes,
    allocate,
    apply_part,
    gunnery_fraction,
    hull_fraction,
    is_plunging,
    lose_guns,
    penetrates,
    resolve_part,
    speed_fraction,
    state_from_fractions,
)
from tests.tactics.dice import ScriptedRng, within

R = damage.load_rules()


def boxes(primary=0, secondary=0, tertiary=0, hull=4, torpedo=1, belt=None, framed=False) -> DamageBoxes:
    spec = (("primary", 305.0, primary), ("secondary", 152.0, secondary), ("tertiary", 76.0, tertiary))
    guns = tuple(GunBoxes(c, f"{c} gun", cal, n) for c, cal, n in spec if n)
    return DamageBoxes("test", guns, hull, torpedo, belt, framed)


def test_goeben_boxes_by_calibre_class():
    b = DamageBoxes.from_ship(find_ship("Goeben"))
    by_cal = {g.calibre_mm: g for g in b.guns}
    assert [by_cal[c].cls for c in (280.0, 150.0, 88.0)] == ["primary", "secondary", "tertiary"]
    for gun in find_ship("Goeben").guns:  # a box per barrel on the broadside
        assert by_cal[gun.calibre_mm].boxes == arc_counts(gun).broadside
    assert b.hull == 6  # 22,979 t / 4,000 t per box, rounded (stand-in scaled to seed 003's transports)
    assert b.torpedo == 1  # seed 003 8.62: one box whatever the number of tubes
    assert not b.framed  # 76.2 mm deck < 100 mm


def test_classes_are_by_absolute_calibre():
    # seed 003's example: a Beagle-class destroyer has a tertiary factor, so a 4-inch gun is not primary
    assert {g.cls for g in DamageBoxes.from_ship(find_ship("Beagle")).guns} == {"tertiary"}
    glo = DamageBoxes.from_ship(find_ship("Gloucester"))
    assert glo.boxes("primary") == 0 and glo.boxes("secondary") > 0 and glo.boxes("tertiary") > 0
    assert all(g.calibre_mm >= R.tertiary_min_calibre_mm for g in glo.guns)  # the 47 mm left out
    # calibre rank: Regina Elena's 203 mm sit under her 305 mm, so they are secondary
    reg = {g.calibre_mm: g.cls for g in DamageBoxes.from_ship(find_ship("Regina Elena")).guns}
    assert reg[305.0] == "primary" and reg[203.0] == "secondary"


def test_merchant_hull_boxes_one_or_two():
    # seed 003 line 51: transports have one or two hull boxes, no guns, no armour
    for name in ("Transport Oran", "Bogadir", "General"):
        b = DamageBoxes.from_ship(find_ship(name))
        assert 1 <= b.hull <= 2 and not b.has_guns and b.belt_mm is None
    assert DamageBoxes.from_ship(find_ship("Transport Oran")).hull == 2


REDISTRIBUTION = [
    # (boxes kwargs, lost per class, part, penetrating, landed)   seed 003 8.6 / 8.61 / 8.62
    ({"secondary": 2, "tertiary": 4}, {}, "primary", True, "secondary"),   # never had primaries
    ({"tertiary": 4}, {}, "primary", True, "tertiary"),                 # only tertiary: -> tertiary
    ({"tertiary": 4}, {}, "secondary", True, "tertiary"),
    ({"primary": 2, "secondary": 2, "tertiary": 2}, {"primary": 2}, "primary", True, "hull"),  # all destroyed
    ({"primary": 2, "secondary": 2, "tertiary": 2}, {"primary": 2}, "primary", False, "hull"),  # no proviso
    ({"primary": 2, "secondary": 2, "tertiary": 2}, {"secondary": 2}, "secondary", True, "hull"),
    ({"primary": 2, "secondary": 2, "tertiary": 2}, {"secondary": 2}, "secondary", False, "ignored"),
    ({"primary": 2, "secondary": 2, "tertiary": 2}, {"tertiary": 2}, "tertiary", True, "ignored"),
    ({"primary": 2, "secondary": 2}, {}, "tertiary", True, "ignored"),     # 8.61: guns but no tertiary
    ({}, {}, "tertiary", True, "hull"),                               # 8.61: no guns at all
    ({}, {}, "primary", True, "ignored"),
    ({}, {}, "secondary", True, "ignored"),
    ({"primary": 2}, {}, "secondary", True, "ignored"),  # cascades to tertiary, which she never had
    ({"primary": 2, "torpedo": 0}, {}, "torpedo", True, "ignored"),        # 8.62: no tubes
    ({"primary": 2, "torpedo": 1}, {}, "torpedo", True, "torpedo"),
    ({"primary": 2}, {}, "hull", False, "hull"),
]


@pytest.mark.parametrize("kw, lost, part, pen, landed", REDISTRIBUTION)
def test_redistribution_truth_table(kw, lost, part, pen, landed):
    b = boxes(**kw)
    s = DamageState.fresh(b)
    s = replace(s, guns_lost=tuple(lost.get(g.cls, 0) for g in b.guns))
    assert resolve_part(s, part, pen) == landed


def test_one_torpedo_hit_destroys_all_mounts_then_ignored():
    s = DamageState.fresh(DamageBoxes.from_ship(find_ship("Goeben")))  # four tubes
    s, landed, _ = apply_part(s, "torpedo")
    assert landed == "torpedo" and s.torpedo_lost
    s2, landed2, _ = apply_part(s, "torpedo")
    assert landed2 == "ignored" and s2 == s


def test_gun_hit_takes_the_group_with_most_left():
    groups = (GunBoxes("secondary", "a", 150.0, 2), GunBoxes("secondary", "b", 150.0, 3))
    b = DamageBoxes("t", groups, 2, 0, None, False)
    s = DamageState.fresh(b)
    s, _, label = apply_part(s, "secondary")
    assert label == "b"
    s, _, label = apply_part(s, "secondary")
    assert label == "a"  # a tie goes to the first group
    s, _, label = apply_part(s, "secondary")
    assert label == "b" and s.remaining("secondary") == 2


def test_hull_hits_sink_when_boxes_gone():
    s = DamageState.fresh(boxes(primary=2, hull=2))
    s, _, _ = apply_part(s, "hull")
    assert hull_fraction(s) == 0.5 and not s.sunk
    s, _, _ = apply_part(s, "hull")
    assert s.sunk and hull_fraction(s) == 1.0 and gunnery_fraction(s) == 0.0


def test_location_table_odds():
    odds = R.part_odds()
    assert sum(odds.values()) == pytest.approx(1.0)
    rng = np.random.default_rng(3)
    fresh = DamageState.fresh(boxes(primary=8, secondary=8, tertiary=8, hull=50))
    counts = {p: 0 for p in damage.PARTS}
    n = 6000
    for _ in range(n):
        _, hits, _ = allocate(fresh, 1, rng, source="secondary")
        counts[hits[0].part] += 1
    for part, p in odds.items():
        assert within(counts[part], n, p), (part, counts[part], n * p)


def test_critical_rate_and_no_critical_from_tertiary():
    rng = np.random.default_rng(5)
    fresh = DamageState.fresh(boxes(primary=8, secondary=8, tertiary=8, hull=50))
    p_crit = sum(damage._dice_probability(k, 2) for k, (_, c) in R.location.items() if c)
    assert p_crit == pytest.approx(2 / 36)
    n, crit = 6000, 0
    for _ in range(n):
        _, hits, crits = allocate(fresh, 1, rng, source="primary")
        crit += len(crits)
        assert len(crits) == sum(h.critical for h in hits)
    assert within(crit, n, p_crit)
    for _ in range(2000):  # seed 003 line 11: tertiary hits cause no critical damage
        _, hits, crits = allocate(fresh, 1, rng, source="tertiary")
        assert not crits and not any(h.critical for h in hits)


def _one_critical(entry: CriticalEntry) -> damage.DamageRules:
    return replace(R, critical=MappingProxyType({k: entry for k in R.critical}))


def test_armour_stops_criticals_unless_the_table_says_otherwise():
    armoured = DamageState.fresh(boxes(primary=4, hull=6, belt=250.0))
    protected = _one_critical(CriticalEntry("magazine", sinks=True, armour_protects=True))
    open_ = _one_critical(CriticalEntry("fire", hull_boxes=1, armour_protects=False))
    # location roll 1+1 = 2 (a hull row with a critical result), then the critical roll 3+3
    s, _, crits = allocate(armoured, 1, ScriptedRng([1, 1, 3, 3]), penetrating=False, rules=protected)
    assert crits[0].applied is False and not s.sunk and s.hull_lost == 1
    s, _, crits = allocate(armoured, 1, ScriptedRng([1, 1, 3, 3]), penetrating=True, rules=protected)
    assert crits[0].applied and s.sunk
    s, _, crits = allocate(armoured, 1, ScriptedRng([1, 1, 3, 3]), penetrating=False, rules=open_)
    assert crits[0].applied and s.hull_lost == 2 and s.criticals == ("fire",)
    unarmoured = DamageState.fresh(boxes(primary=4, hull=6))
    s, _, crits = allocate(unarmoured, 1, ScriptedRng([1, 1, 3, 3]), penetrating=False, rules=protected)
    assert crits[0].applied and s.sunk


def test_critical_effects_on_condition_fractions():
    s = DamageState.fresh(boxes(primary=4, secondary=4, hull=6))
    fc = _one_critical(CriticalEntry("fire_control", fire_control=True, armour_protects=False))
    s2, _, _ = allocate(s, 1, ScriptedRng([6, 6, 1, 1]), rules=fc)
    assert gunnery_fraction(s2) == pytest.approx(R.fire_control_factor)
    eng = _one_critical(CriticalEntry("engine_room", engine_hits=1))
    s3, _, _ = allocate(s, 1, ScriptedRng([6, 6, 1, 1]), rules=eng)
    assert speed_fraction(s3) == pytest.approx(1 - R.speed_loss_per_engine_hit)
    tur = _one_critical(CriticalEntry("turret", primary_boxes=1))
    s4, _, _ = allocate(s, 1, ScriptedRng([6, 6, 1, 1]), rules=tur)
    assert s4.remaining("primary") == 3


def test_plunging_fire_adds_a_hull_box_on_a_ten():
    # seed 003 line 15: primary guns at long range, a 10 on the damage table: one more hull box
    b = boxes(primary=4, hull=6)
    s, hits, _ = allocate(DamageState.fresh(b), 1, ScriptedRng([4, 6]), plunging=True, source="primary")
    assert hits[0].roll == 10 and hits[0].plunging_boxes == 1 and s.hull_lost == 2
    s, hits, _ = allocate(DamageState.fresh(b), 1, ScriptedRng([4, 6]), plunging=False, source="primary")
    assert hits[0].plunging_boxes == 0 and s.hull_lost == 1
    s, hits, _ = allocate(DamageState.fresh(b), 1, ScriptedRng([4, 6]), plunging=True, source="secondary")
    assert hits[0].plunging_boxes == 0
    framed = boxes(primary=4, hull=6, framed=True)  # framed hull boxes: no extra damage
    s, hits, _ = allocate(DamageState.fresh(framed), 1, ScriptedRng([4, 6]), plunging=True, source="primary")
    assert hits[0].plunging_boxes == 0 and s.hull_lost == 1
    s, hits, _ = allocate(DamageState.fresh(b), 1, ScriptedRng([3, 6]), plunging=True, source="primary")
    assert hits[0].roll == 9 and hits[0].plunging_boxes == 0  # only the trigger roll


def test_plunging_rate_and_range():
    rng = np.random.default_rng(11)
    fresh = DamageState.fresh(boxes(primary=8, secondary=8, tertiary=8, hull=80))
    n = 6000
    extra = sum(allocate(fresh, 1, rng, plunging=True, source="primary")[1][0].plunging_boxes
                for _ in range(n))
    assert within(extra, n, 3 / 36)
    assert is_plunging("primary", R.plunging_min_range_yd)
    assert not is_plunging("primary", R.plunging_min_range_yd - 1)
    assert not is_plunging("secondary", 30000.0)


def test_penetration_stand_in():
    belt = DamageBoxes.from_ship(find_ship("Goeben"))  # 280 mm belt
    assert penetrates(305.0, belt) and not penetrates(152.0, belt)
    assert penetrates(76.0, DamageBoxes.from_ship(find_ship("Gloucester")))  # no belt


def test_gunnery_fraction_weighs_by_calibre_cubed():
    b = DamageBoxes.from_ship(find_ship("Goeben"))
    s = DamageState.fresh(b)
    assert gunnery_fraction(s) == 1.0
    s = replace(s, guns_lost=tuple(g.boxes if g.cls == "primary" else 0 for g in b.guns))
    w = {g.calibre_mm: g.boxes * g.calibre_mm ** 3 for g in b.guns}
    assert gunnery_fraction(s) == pytest.approx((w[150.0] + w[88.0]) / sum(w.values()))
    assert gunnery_fraction(DamageState.fresh(DamageBoxes.from_ship(find_ship("Bogadir")))) == 1.0


def test_lose_guns_reaches_the_level_and_is_deterministic():
    b = DamageBoxes.from_ship(find_ship("Goeben"))
    a, lost_a = lose_guns(DamageState.fresh(b), 0.5, np.random.default_rng(2))
    c, lost_c = lose_guns(DamageState.fresh(b), 0.5, np.random.default_rng(2))
    assert lost_a == lost_c and a == c
    assert gunnery_fraction(a) <= 0.5 and len(lost_a) == sum(a.guns_lost)
    z, _ = lose_guns(a, 0.0, np.random.default_rng(2))
    assert gunnery_fraction(z) == 0.0 and all(g.boxes == n for g, n in zip(b.guns, z.guns_lost))


def test_state_from_fractions():
    b = DamageBoxes.from_ship(find_ship("Goeben"))
    s = state_from_fractions(b, 0.5, 0.5)
    assert s.hull_lost == 3 and hull_fraction(s) == 0.5
    assert gunnery_fraction(s) == pytest.approx(0.5, abs=0.1)
    assert state_from_fractions(b, 0.0, 1.0) == DamageState.fresh(b)


def test_allocate_is_deterministic_and_stops_at_sinking():
    b = DamageBoxes.from_ship(find_ship("Gloucester"))
    one = allocate(DamageState.fresh(b), 20, np.random.default_rng(9))
    two = allocate(DamageState.fresh(b), 20, np.random.default_rng(9))
    assert one == two
    s, hits, _ = one
    assert s.sunk and len(hits) < 20  # hits on a sunk ship are lost
