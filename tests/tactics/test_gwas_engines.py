"""``damage: gwas`` under the jane and nwc1905 engines: their hits scored by Great War at Sea's damage model
(seed 003) instead of their own rules, as data/tactics/damage.yaml ('engines') defines a hit for each; the
records say which model scored each hit; the battle plane's physics hold as under their own damage."""

from __future__ import annotations

import math
from collections import defaultdict
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from campaign.model.ships import find_ship
from campaign.tactics import battle_records
from campaign.tactics.battle import BattleRun, fight
from campaign.tactics.damage import DamageBoxes
from campaign.tactics.damage import load_rules as load_damage_rules
from campaign.tactics.engines import damage_names, engine_names, get_engine
from campaign.tactics.gwas import jane_hit_share
from campaign.tactics.nwc1905_fire import endurance_points
from campaign.tactics.nwc1905_gwas import points_per_hit
from campaign.tactics.nwc1905_rules import load_rules as load_nwc_rules
from campaign.tactics.protocol import BattleSetup, Combatant, Setting
from tests.tactics.test_battle_physics import _check_physics, battles

D = load_damage_rules()
ROOT = Path(__file__).resolve().parents[2]


def cb(name: str, side: str, x: float = 0.0, y: float = 0.0, course: float = 90.0) -> Combatant:
    s = find_ship(name)
    return Combatant(s, side, side, x, y, course, 15.0, s.sustained_speed_kn, s.sustained_speed_kn)


def goeben_and_the_battlecruisers(range_yd: float = 12000.0) -> BattleSetup:
    return BattleSetup(
        (cb("Goeben", "G"), cb("Indomitable", "B", 0, range_yd), cb("Indefatigable", "B", 400, range_yd)),
        Setting(visibility_yd=20000.0),
        {"G": "engage", "B": "engage"},
    )


def model_hits(events) -> list:
    return [
        e
        for e in events
        if e.type == "hit" and e.data.get("model_hit", True) and e.data.get("damage_model") == "gwas"
    ]


def test_the_damage_option():
    assert damage_names() == ("own", "gwas")
    for name in engine_names():
        assert get_engine(name, "gwas").damage == "gwas" and get_engine(name, "own").damage == "own"
    assert (
        get_engine("jane").damage == "own" and get_engine("nwc1905").damage == "own"
    )  # their own by default
    assert get_engine("board").damage == "gwas"
    with pytest.raises(ValueError, match="own, gwas"):
        get_engine("jane", "board")


@pytest.mark.parametrize("engine", ["jane", "nwc1905"])
def test_gwas_changes_the_source_of_the_damage_records(engine):
    s = goeben_and_the_battlecruisers()
    own = fight(get_engine(engine), s, np.random.default_rng(1))
    gwas = fight(get_engine(engine, "gwas"), s, np.random.default_rng(1))
    own_hits = [e for e in own.events if e.type == "hit"]
    gwas_hits = [e for e in gwas.events if e.type == "hit"]
    assert own_hits and {e.data["damage_model"] for e in own_hits} == {engine}
    assert gwas_hits and {e.data["damage_model"] for e in gwas_hits} == {"gwas"}
    assert model_hits(gwas.events)  # some complete a hit of the model, with its fields
    # and the records carry them (the campaign's and the duels' one translation)
    rec = battle_records.tick_fields(model_hits(gwas.events)[0], 1, None)
    assert {"damage_model", "location_roll", "landed", "critical", "plunging_hull_boxes", "by"} <= set(rec)


def assert_model_hits_follow_seed_003(events) -> None:
    """The damage model's rules, read from the hit events alone (damage.yaml; seed 003)."""
    for e in model_hits(events):
        assert_model_hit_follows_seed_003(e.data)
    gone: set[str] = set()
    for e in events:
        if e.type == "hit" and e.data.get("cause", "gunfire") == "gunfire":
            assert e.ship not in gone, e  # no hit on a ship already sunk
        if e.type == "sunk":
            gone.add(e.ship)


def assert_model_hit_follows_seed_003(r) -> None:
    """One hit of the model (an event's data or its record): location, plunging fire and the critical as
    seed 003 and damage.yaml have them."""
    part, critical_row = D.location[r["location_roll"]]
    assert r["location"] == part
    assert bool(r["plunging_hull_boxes"]) == (
        r["location_roll"] == D.plunging_trigger_roll
        and r["firing_class"] == D.plunging_source_class
        and r["range_yd"] >= D.plunging_min_range_yd
    )
    if r["critical"] is not None:
        assert critical_row and r["firing_class"] not in D.no_critical_from
        entry = D.critical[r["critical_roll"]]
        assert entry.name == r["critical"] and r["critical_applied"] == (
            r["penetrating"] or not entry.armour_protects
        )
    else:
        # none on a critical row only from tertiary guns, or when the hit itself sank her (allocate)
        assert not critical_row or r["firing_class"] in D.no_critical_from or r["hull_boxes_left"] == 0


def test_jane_shells_count_their_share_of_a_hit():
    # a 12-inch shell half a hit on a battlecruiser, an 8.8 cm one a 40th or so (damage.yaml engines.jane)
    ind = find_ship("Indomitable")
    boxes = DamageBoxes.from_ship(ind, D)
    assert jane_hit_share(D, 305.0, boxes, ind.displacement_t) == pytest.approx(0.5)
    assert jane_hit_share(D, 88.0, boxes, ind.displacement_t) == pytest.approx((88 / 305) ** 3 / 2)
    small = find_ship("Basilisk")  # one hull box of under 4,000 t: each shell counts for more
    sb = DamageBoxes.from_ship(small, D)
    assert jane_hit_share(D, 102.0, sb, small.displacement_t) == pytest.approx(
        (102 / 305) ** 3 / 2 * 4000 / small.displacement_t
    )
    # in battle: per gun group and target, the model hits completed are the whole shares reached
    for seed in range(4):
        out = fight(get_engine("jane", "gwas"), goeben_and_the_battlecruisers(), np.random.default_rng(seed))
        shares: dict[tuple, list] = defaultdict(list)
        for e in out.events:
            if e.type == "hit" and "hit_share" in e.data:  # a shell of under a whole hit: one record each
                shares[(e.target, e.data["gun"], e.ship)].append(e.data)
        assert_model_hits_follow_seed_003(out.events)
        sunk = {n for n, c in out.conditions.items() if c.sunk}
        for (firer, gun, target), recs in shares.items():
            total = sum(r["hit_share"] for r in recs)
            whole = sum(r["model_hit"] for r in recs)
            assert whole <= math.floor(total + 1e-3), (firer, gun, target)
            assert target in sunk or whole >= math.floor(total - 1e-3), (firer, gun, target)


def test_jane_carries_the_model_into_its_bookkeeping():
    for seed in range(6):
        run = BattleRun(
            get_engine("jane", "gwas"), goeben_and_the_battlecruisers(), np.random.default_rng(seed)
        )
        while run.advance() is not None:
            pass
        b = run.battle
        for s in b.ships:
            st = b.gwas.state(s.name)
            # her damage is the model's hull share (nothing carried in)
            assert s.penetrations == pytest.approx(st.hull_lost * s.sinking_number / st.boxes.hull)
            # each gun group keeps working no more than its share of boxes left
            for g in s.groups:
                mine = [
                    (gb, lost) for gb, lost in zip(st.boxes.guns, st.guns_lost) if gb.label == g.gun.label
                ]
                if mine and g.count:
                    left = sum(gb.boxes - lost for gb, lost in mine) / sum(gb.boxes for gb, _ in mine)
                    assert g.working() <= math.floor(g.count * left + 0.5)
            assert s.fire_factor == (D.fire_control_factor if st.fire_control else 1.0)
            if st.sunk or s.penetrations >= s.sinking_number - 1e-9:
                assert not s.afloat


def test_nwc1905_points_make_hits_of_the_model():
    rules = load_nwc_rules()
    goeben = find_ship("Goeben")
    per_hit = points_per_hit(
        endurance_points(rules, goeben), DamageBoxes.from_ship(goeben, D).hull, D.part_odds()["hull"]
    )
    assert per_hit == pytest.approx(endurance_points(rules, goeben) * 21 / 36 / 6)
    for seed in range(4):
        out = fight(
            get_engine("nwc1905", "gwas"), goeben_and_the_battlecruisers(), np.random.default_rng(seed)
        )
        assert_model_hits_follow_seed_003(out.events)
        scored: dict[tuple, float] = defaultdict(float)
        whole: dict[tuple, int] = defaultdict(int)
        for e in out.events:
            if e.type == "fire":
                scored[(e.ship, e.target)] += e.data["points"]
            if e.type == "hit" and e.data.get("cause") == "gunfire":
                whole[(e.target, e.ship)] += e.data["model_hit"]
        for key, n in whole.items():
            ship = find_ship(key[1])
            per = points_per_hit(
                endurance_points(rules, ship), DamageBoxes.from_ship(ship, D).hull, D.part_odds()["hull"]
            )
            assert n <= math.floor(scored[key] / per + 1e-3), key  # a hit for every whole share, none more
        # the condition reads the model: a ship afloat has damage short of her whole
        for c in out.conditions.values():
            assert c.sunk or 0.0 <= c.damage < 1.0


@pytest.mark.parametrize("engine", ["jane", "nwc1905"])
@given(setup=battles(), seed=st.integers(0, 2**16))
@settings(
    max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much]
)
def test_random_gwas_battles_keep_to_the_plane(engine, setup, seed):
    # every invariant of tests/tactics/test_battle_physics.py, with the damage model scoring the hits
    if setup is None:
        return
    run = BattleRun(get_engine(engine, "gwas"), setup, np.random.default_rng(seed), keep_paths=True)
    views = [run.battle.views()]
    while run.t_s < 30 * 60 and run.advance() is not None:
        views.append(run.battle.views())
    run.views_by_tick = views
    _check_physics(engine, run, setup)
    assert_model_hits_follow_seed_003(run.events)
    assert all(
        e.data.get("damage_model") == "gwas"
        for e in run.events
        if e.type == "hit" and e.data.get("cause", "gunfire") == "gunfire"
    )


# ---------------------------------------------------------------------------------------------------
# Where the option is read: duel files, the scenario's tactics, the command line; the replay's words


def test_cli_damage_choices_are_the_models():
    from campaign import cli
    from campaign.tactics.gwas import DAMAGE_CHOICES

    assert cli.DAMAGE_CHOICES == DAMAGE_CHOICES and cli.ENGINE_CHOICES == engine_names()


def _duel_file(tmp_path, **change) -> Path:
    import yaml

    raw = yaml.safe_load(
        (ROOT / "scenarios" / "duels" / "gloucester_vs_breslau.yaml").read_text(encoding="utf-8")
    )
    raw.update(change)
    path = tmp_path / "duel.yaml"
    path.write_text(yaml.safe_dump(raw, sort_keys=False), encoding="utf-8")
    return path


def test_a_duel_file_asks_for_the_damage_model(tmp_path):
    from campaign.duels.duel import fight_duel, load_duel
    from campaign.scenario.loader import ScenarioError

    duel = load_duel(_duel_file(tmp_path, damage="gwas"))
    assert duel.damage == "gwas"
    out = fight_duel(duel, "nwc1905", seed=0, keep_frames=False)
    hits = [e for e in out.events if e.type == "hit" and e.data.get("cause") == "gunfire"]
    assert hits and {e.data["damage_model"] for e in hits} == {"gwas"}
    assert load_duel(_duel_file(tmp_path)).damage is None  # absent: each engine's default
    with pytest.raises(ScenarioError, match="damage"):
        load_duel(_duel_file(tmp_path, damage="jane"))


def test_the_command_line_damage_option(tmp_path, capsys):
    import json

    from campaign.cli import main

    path = _duel_file(tmp_path)
    assert (
        main(["duel", str(path), "--engine", "jane", "--damage", "gwas", "--out", str(tmp_path / "o")]) == 0
    )
    recs = [json.loads(line) for line in (tmp_path / "o" / "events.jsonl").read_text().splitlines()]
    hits = [r for r in recs if r["type"] == "hit"]
    assert hits and {r["damage_model"] for r in hits} == {"gwas"}
    with pytest.raises(SystemExit):
        main(["duel", str(path), "--damage", "nwc1905"])


def test_the_scenario_sets_the_damage_of_its_battles():
    from dataclasses import replace

    from campaign.scenario.loader import load_scenario
    from campaign.scenario.schema import TacticsModel
    from campaign.world.world import World

    assert TacticsModel(damage="gwas").damage == "gwas" and TacticsModel().damage is None
    sc = load_scenario(ROOT / "scenarios" / "goeben_1914.yaml")
    assert sc.damage is None and World(sc, 0).engagements.engine.damage == "own"
    assert World(replace(sc, damage="gwas"), 0).engagements.engine.damage == "gwas"
    assert World(sc, 0, engine="board").engagements.engine.damage == "gwas"  # the board's default


def test_the_replay_words_plunging_fire_and_criticals():
    from campaign.output.replay_events import sentence

    base = {
        "t": "1914-08-04T10:30:00Z",
        "t_min": 0.0,
        "unit": "Indomitable",
        "side": "Entente",
        "type": "hit",
        "by": "Goeben",
        "part": "hull",
        "damage": 0.25,
    }
    assert (
        sentence({**base, "plunging_hull_boxes": 1, "critical": "fire_control", "critical_applied": True})
        == "Indomitable is hit by Goeben (hull), damage 25 %; plunging fire: 1 more hull box; "
        "critical hit, fire control"
    )
    assert sentence({**base, "critical": "engine_room", "critical_applied": False}).endswith(
        "critical hit, engine room (stopped by her armour)"
    )
