"""Ammunition in battle: every ship carries her outfit per gun group, spends it under each engine's rule,
never goes below nothing, and a group with no round left does not fire; Jane's change of projectile costs
its reload (seed 004 l.27)."""

from __future__ import annotations

from dataclasses import replace
from types import SimpleNamespace

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from campaign.geo.places import default_places
from campaign.model.guns import default_guns, gun_data
from campaign.model.ships import default_ships, find_ship
from campaign.tactics.ammunition import (
    AMMUNITION_FILE,
    AmmunitionDataError,
    Magazine,
    default_ammunition_rules,
    load_ammunition_rules,
    missing_share,
    outfits,
    rounds_at_entry,
)
from campaign.tactics.battle import BattleRun
from campaign.tactics.engines import get_engine
from campaign.tactics.jane_fire import NO_ROUNDS_MOVE, strikes_loaded
from campaign.tactics.jane_rules import load_rules as load_jane_rules
from campaign.tactics.jane_ship import from_combatant
from campaign.tactics.nwc1905_fire import rounds_per_min
from campaign.tactics.nwc1905_rules import load_rules as load_nwc_rules
from campaign.tactics.protocol import BattleSetup, Combatant, Condition, Setting
from tests.tactics.test_battle_physics import battles

ENGINES = ("nwc1905", "jane", "board")
RULES = default_ammunition_rules()


# ------------------------------------------------------------------------------------------------ data


def test_every_gun_that_fights_has_a_cited_outfit():
    for ship in default_ships().values():
        for g in ship.guns:
            d = gun_data(g)
            assert d.outfit_rounds_per_gun is not None and d.outfit_rounds_per_gun > 0, (ship.name, g.label)
            cite = d.sources["outfit_rounds_per_gun"]
            # the one outfit read in a copy, or a labelled stand-in with its reasoning
            assert cite.startswith(("deWP", "stand-in:")), (g.label, cite)


def test_goebens_outfit_is_81_a_heavy_gun():
    goeben = find_ship("Goeben")
    assert [gun_data(g).outfit_rounds_per_gun for g in goeben.guns] == [81, 150, 200]
    assert outfits(goeben) == (810, 1800, 2400)  # per group: barrels x rounds a gun
    assert gun_data(find_ship("Danton").guns[1]).outfit_rounds_per_gun == 85  # read: deWP 24 cm Mle 1902


def test_the_bases_are_their_navies_own_naval_bases_and_the_germans_have_none():
    places = default_places()
    assert RULES.bases_of("Germany") == ()
    assert "Valletta" in RULES.bases_of("United Kingdom") and "Toulon" in RULES.bases_of("France")
    assert "Pola" in RULES.bases_of("Austria-Hungary") and "Messina" not in RULES.bases_of("Germany")
    for nation, names in RULES.bases.items():
        for name in names:
            p = places.get(name)
            assert p.kind == "naval_base" and p.nation == nation, (nation, name)


def test_a_bad_ammunition_file_is_refused(tmp_path):
    text = AMMUNITION_FILE.read_text(encoding="utf-8").replace("rate: rules", "rate: fast")
    bad = tmp_path / "ammunition.yaml"
    bad.write_text(text, encoding="utf-8")
    with pytest.raises(AmmunitionDataError, match="nwc1905.rate"):
        load_ammunition_rules(bad)


def test_the_1905_rules_rates_are_the_rules_own():
    rules = load_nwc_rules()
    goeben = find_ship("Goeben")
    assert rounds_per_min(rules, goeben.guns[0], "rules") == pytest.approx(8 / 12)  # a 12-inch: once in 1.5 min
    assert rounds_per_min(rules, find_ship("Defence").guns[0], "rules") == pytest.approx(1.0)  # 8-inch: once a minute
    assert rounds_per_min(rules, goeben.guns[0], "guns") == 3.0  # data/guns.yaml, navweaps
    assert rounds_per_min(rules, find_ship("Warrior").guns[2], "rules") == 0.0  # a 3-pounder does not count


# ------------------------------------------------------------------------------------------------ magazine


@given(entry=st.lists(st.integers(0, 50), min_size=1, max_size=4),
       draws=st.lists(st.tuples(st.integers(0, 3), st.floats(0, 30), st.booleans()), max_size=40))
def test_a_magazine_never_goes_below_nothing_and_counts_what_it_spent(entry, draws):
    m = Magazine(tuple(entry))
    fired = [0] * len(entry)
    for i, amount, by_time in draws:
        i %= len(entry)
        n = m.spend_time(i, amount) if by_time else m.spend(i, int(amount))
        assert n >= 0
        fired[i] += n
        assert all(x >= 0 for x in m.left)
    assert m.spent() == tuple(fired)
    assert tuple(e - s for e, s in zip(entry, fired)) == m.rounds_left()


def test_fractions_of_a_round_are_carried_not_lost():
    m = Magazine((100,))
    assert sum(m.spend_time(0, 0.4) for _ in range(10)) == 4  # ten spans of 0.4 of a round: four rounds


def test_a_condition_from_another_armament_is_read_as_her_full_outfit():
    goeben = find_ship("Goeben")
    assert rounds_at_entry(goeben, Condition(rounds_left=(1, 2))) == [810, 1800, 2400]
    assert rounds_at_entry(goeben, Condition(rounds_left=(-5, 9999, 7))) == [0, 1800, 7]
    assert missing_share(goeben, outfits(goeben)) == 0.0 and missing_share(goeben, (0, 0, 0)) == 1.0


# ------------------------------------------------------------------------------------------------ battles


def _fight(engine: str, setup: BattleSetup, seed: int, minutes: float) -> BattleRun:
    run = BattleRun(get_engine(engine), setup, np.random.default_rng(seed), keep_frames=False)
    while run.t_s < minutes * 60 and run.advance() is not None:
        pass
    return run


def _fired(engine: str, ev) -> dict[str, int]:
    """Rounds a fire event fired, by gun label."""
    if engine == "jane":
        return {ev.data["gun"]: ev.data["rounds"]}
    return dict(ev.data["rounds_by_gun"])


def _check_rounds(engine: str, run: BattleRun, setup: BattleSetup) -> None:
    """No ship's rounds go negative; what a battle spent is her entry less what is left, group by group,
    and is what her fire events say they fired; a group that came in dry never fires."""
    fired: dict[str, dict[str, int]] = {c.name: {} for c in setup.combatants}
    for ev in run.events:
        if ev.type == "fire":
            assert ev.data["rounds"] == sum(_fired(engine, ev).values()) and ev.data["rounds"] >= 0, ev
            for label, n in _fired(engine, ev).items():
                fired[ev.ship][label] = fired[ev.ship].get(label, 0) + n
    for c in setup.combatants:
        entry = rounds_at_entry(c.ship, c.condition)
        left = rounds_at_entry(c.ship, run.battle.condition(c.name))  # None: her full outfit
        assert len(left) == len(entry)
        assert all(0 <= n <= e for n, e in zip(left, entry)), (engine, c.name, entry, left)
        spent: dict[str, int] = {}
        for g, e, n in zip(c.ship.guns, entry, left):
            spent[g.label] = spent.get(g.label, 0) + e - n
        assert {k: v for k, v in spent.items() if v} == fired[c.name], (engine, c.name)
        for g, e in zip(c.ship.guns, entry):
            if e == 0 and sum(1 for h in c.ship.guns if h.label == g.label) == 1:
                assert g.label not in fired[c.name], (engine, c.name, g.label)


@st.composite
def armed_battles(draw):
    """Random battles whose ships come in with a few rounds, none or their whole outfit per gun group."""
    setup = draw(battles())
    if setup is None:
        return None
    out = []
    for c in setup.combatants:
        left = tuple(draw(st.sampled_from([0, 1, 3, 12, full])) for full in outfits(c.ship))
        out.append(replace(c, condition=Condition(rounds_left=left)))
    return replace(setup, combatants=tuple(out))


@pytest.mark.parametrize("engine", ENGINES)
@given(data=st.data())
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
def test_random_battles_never_spend_more_than_they_carry(engine, data):
    setup = data.draw(armed_battles())
    if setup is None:
        return
    seed = data.draw(st.integers(0, 2**16))
    run = _fight(engine, setup, seed, minutes={"nwc1905": 40.0, "jane": 25.0, "board": 61.0}[engine])
    _check_rounds(engine, run, setup)
    if engine == "jane":
        _check_projectile_changes(run)


def _duel(engine: str, goeben_left: tuple[int, ...] | None, range_yd: float = 9000.0) -> BattleRun:
    goeben, defence = find_ship("Goeben"), find_ship("Defence")
    setup = BattleSetup((
        Combatant(goeben, "G", "Germany", 0.0, 0.0, 90.0, 18.0, 24.0, condition=Condition(rounds_left=goeben_left)),
        Combatant(defence, "D", "Britain", 0.0, range_yd, 90.0, 18.0, 21.0),
    ), Setting("day", 1, 20000.0), {"Germany": "engage", "Britain": "engage"})
    return _fight(engine, setup, 3, minutes=61.0)


@pytest.mark.parametrize("engine", ENGINES)
def test_a_full_outfit_fires_and_an_empty_one_does_not(engine):
    full = _duel(engine, None)
    assert any(e.type == "fire" and e.ship == "Goeben" and e.data["rounds"] > 0 for e in full.events)
    _check_rounds(engine, full, full.setup)
    empty = _duel(engine, (0, 0, 0))
    assert not any(e.type == "fire" and e.ship == "Goeben" for e in empty.events)
    assert empty.battle.condition("Goeben").rounds_left == (0, 0, 0)
    view = next(v for v in empty.battle.views() if v.name == "Goeben")
    assert not view.can_fire and view.fighting_value == 0.0


@pytest.mark.parametrize("engine", ENGINES)
def test_a_group_with_no_round_left_does_not_fire_while_the_others_do(engine):
    run = _duel(engine, (0, 1800, 2400))
    goeben_fire = [e for e in run.events if e.type == "fire" and e.ship == "Goeben"]
    assert goeben_fire, "the 15 cm should fire"
    assert all("28 cm SK L/50" not in _fired(engine, e) for e in goeben_fire)
    assert run.battle.condition("Goeben").rounds_left[0] == 0


@pytest.mark.parametrize("engine", ENGINES)
def test_the_last_rounds_are_fired_and_no_more(engine):
    run = _duel(engine, (5, 1800, 2400))
    fired = sum(_fired(engine, e).get("28 cm SK L/50", 0) for e in run.events if e.type == "fire" and e.ship == "Goeben")
    assert fired == 5 and run.battle.condition("Goeben").rounds_left[0] == 0


def test_goeben_spends_her_guns_at_the_1905_rules_rate():
    # A fleet move is 150 s. Abeam, her ten 28 cm (a 12-inch of the rules: once in 1.5 min), six 15 cm
    # (6-inch: 8/6 a minute) and six 8.8 cm (4-inch: 2 a minute) bear; fractions carry from move to move.
    run = _duel("nwc1905", None)
    battle = run.battle.__class__(run.setup, np.random.default_rng(0), load_nwc_rules())
    s = battle._ships["Goeben"]
    moves = [battle._spend(s, 90.0, 5000.0, frozenset(), 1.0, 150.0) for _ in range(3)]
    assert [m[0] for m in moves] == [16, 17, 17]  # 16 2/3 a move
    assert [m[1] for m in moves] == [20, 20, 20] and [m[2] for m in moves] == [30, 30, 30]
    half = battle._spend(s, 90.0, 5000.0, frozenset(), 0.5, 150.0)  # her offensive power halved (l.71)
    assert half[1] == 10
    assert battle._spend(s, 90.0, 5000.0, frozenset({0}), 1.0, 150.0).get(0) is None  # a dry group fires nothing


# ------------------------------------------------------------------------------------------------ Jane's tickets


def _jane_goeben():
    rules = load_jane_rules()
    goeben = find_ship("Goeben")
    return from_combatant(rules, Combatant(goeben, "G", "Germany", 0.0, 0.0, 90.0, 18.0, 24.0))


def test_changing_projectile_costs_the_guns_their_reload():
    st_ = _jane_goeben()
    g = st_.groups[0]  # the 28 cm
    ctx = SimpleNamespace(move=5)
    assert strikes_loaded(ctx, st_, g, "shot", 10) == 10 and g.loaded == "shot"
    assert strikes_loaded(ctx, st_, g, "shot", 10) == 10
    left = st_.magazine.left[0]
    # another projectile: no fire this move, ready with it after the loading interval, no round spent
    assert strikes_loaded(ctx, st_, g, "he", 10) == 0
    assert g.loaded == "he" and g.projectile_changes == 1
    assert g.next_fire_move == 5 + g.interval_moves and st_.magazine.left[0] == left
    assert strikes_loaded(SimpleNamespace(move=6), st_, g, "he", 10) == 10


def test_a_slow_nature_reloads_for_two_moves():
    rules = load_jane_rules()
    danton = from_combatant(rules, Combatant(find_ship("Danton"), "F", "France", 0.0, 0.0, 0.0, 10.0, 19.0))
    g = danton.groups[1]  # the 240 mm, the non-QF 10-inch nature that fires every two moves (l.27; 2 a minute)
    assert g.interval_moves == 2
    strikes_loaded(SimpleNamespace(move=1), danton, g, "he", 6)
    assert strikes_loaded(SimpleNamespace(move=3), danton, g, "shot", 6) == 0 and g.next_fire_move == 5


def test_a_dry_group_is_passed_over_for_the_rest_of_the_battle():
    st_ = _jane_goeben()
    st_.magazine.left[0] = 2
    g = st_.groups[0]
    assert strikes_loaded(SimpleNamespace(move=1), st_, g, "shot", 10) == 2
    assert strikes_loaded(SimpleNamespace(move=2), st_, g, "shot", 10) == 0 and g.next_fire_move == NO_ROUNDS_MOVE


def _check_projectile_changes(run: BattleRun) -> None:
    """Two fires of one group with different projectiles lie at least two loading intervals apart: the
    change cost it the move it wanted the new one (seed 004 l.27)."""
    last: dict[tuple[str, str], tuple[float, str]] = {}
    for e in run.events:
        if e.type != "fire":
            continue
        key = (e.ship, e.data["gun"])
        if key in last and last[key][1] != e.data["projectile"]:
            assert e.t_s - last[key][0] >= 2 * 60.0 - 1e-6, e
        last[key] = (e.t_s, e.data["projectile"])


def test_a_jane_battle_changes_projectile_only_with_a_reload():
    run = _duel("jane", None, range_yd=7000.0)
    _check_projectile_changes(run)


def test_the_guns_file_and_ammunition_file_agree_on_every_outfit():
    table = default_guns()
    for g in table.entries.values():
        assert g.outfit_rounds_per_gun is not None and g.outfit_rounds_per_gun == int(g.outfit_rounds_per_gun)
