"""How often each gun fires under Jane's rules: one reading of seed 004's rate rule and the guns' published
rates (data/tactics/jane.yaml, ``rate``; data/guns.yaml, ``rate_of_fire_rounds_per_min``).

A non-QF gun strikes once every k moves, k the fewest whole moves in which it fires three rounds at its
published rate; the seed's 10-inch nature (the French 240 mm Mle 1902, 2 rounds a minute) comes out at two
moves, and no heavier, slower gun fires more often than a lighter, faster one.
"""

from __future__ import annotations

import math

import pytest

from campaign.model.guns import gun_data
from campaign.model.ships import Gun, default_ships, find_ship
from campaign.tactics.jane_rulebook import fire_interval_moves, gun_class, is_quick_firing, strikes_per_move
from campaign.tactics.jane_rules import load_rules

RULES = load_rules()


def _gun(ship: str, label: str) -> Gun:
    return next(g for g in find_ship(ship).guns if g.label == label)


@pytest.mark.parametrize(("ship", "label", "moves"), [
    ("Indomitable", "BL 12-inch Mk X", 2),       # 1.5 rounds a minute (frWP): every two moves, not every move
    ("Danton", "240 mm (9.4 in)", 2),             # the seed's non-QF 10-inch (l.27), 2 a minute (WP)
    ("Warrior", "BL 9.2-inch Mk X", 2),           # no published rate: class B's slowest, the 240 mm's 2
    ("Defence", "BL 9.2-inch Mk XI", 2),
    ("Gloucester", "BL 6-inch Mk XI", 1),         # single-motion breech, as fast as a QF 6-inch: every move
    ("Goeben", "28 cm SK L/50", 1),               # 3 a minute (navweaps): the seed's big gun of l.111
    ("Patrie", "305 mm Mle 1893/96", 3),          # 1 a minute (WP)
])
def test_a_non_qf_gun_fires_every_k_moves_by_its_published_rate(ship: str, label: str, moves: int) -> None:
    gun = _gun(ship, label)
    assert not is_quick_firing(RULES, gun)
    assert fire_interval_moves(RULES, gun) == moves
    assert strikes_per_move(RULES, gun) == 1  # "for each big gun the player strikes once" (l.23)


def test_the_qf_4_inch_strikes_three_times_every_move() -> None:
    gun = _gun("Inflexible", "4-inch")  # the QF 4-inch of the Invincible class
    assert is_quick_firing(RULES, gun)
    assert fire_interval_moves(RULES, gun) == 1
    assert strikes_per_move(RULES, gun) == RULES.qf_strikes_per_move["E"] == 3


def _non_qf_guns() -> list[Gun]:
    seen: dict[tuple[str, str | None], Gun] = {}
    for ship in default_ships().values():
        for g in ship.guns:
            if not is_quick_firing(RULES, g):
                seen.setdefault((g.label, g.mounting), g)
    return list(seen.values())


def _rate(g: Gun) -> float | None:
    return gun_data(g).rate_of_fire_rounds_per_min


def test_a_slower_loading_gun_never_fires_more_often() -> None:
    rated = [(r, fire_interval_moves(RULES, g), g.label) for g in _non_qf_guns() if (r := _rate(g))]
    assert len(rated) >= 8
    for r1, k1, l1 in rated:
        for r2, k2, l2 in rated:
            if r1 < r2:
                assert k1 >= k2, (l1, r1, k1, l2, r2, k2)


def test_no_gun_strikes_faster_than_a_third_of_its_published_rate() -> None:
    per_min = 60.0 / RULES.move_s
    for g in _non_qf_guns():
        rate = _rate(g) or RULES.unpublished_rate_rounds_per_min[gun_class(RULES, g.calibre_mm)]
        k = fire_interval_moves(RULES, g)
        assert per_min / k <= rate / RULES.published_rounds_per_strike + 1e-9, g.label
        assert k == 1 or per_min / (k - 1) > rate / RULES.published_rounds_per_strike, g.label  # the fewest moves


def test_a_gun_without_a_published_rate_takes_its_class_slowest() -> None:
    # data/tactics/jane.yaml, rate.unpublished_rate_rounds_per_min: the slowest published rate of a non-QF gun
    # of the class in data/guns.yaml (classes A-D have one)
    slowest: dict[str, float] = {}
    for g in _non_qf_guns():
        if (r := _rate(g)) is not None:
            cls = gun_class(RULES, g.calibre_mm)
            slowest[cls] = min(r, slowest.get(cls, math.inf))
    assert set(slowest) == {"A", "B", "C", "D"}
    for cls, rate in slowest.items():
        assert RULES.unpublished_rate_rounds_per_min[cls] == rate, cls
