"""The board engine's fast chase speeds from seed 000's counters, and Great War at Sea's damage model
(seed 003) in its battles: every hit on a ship with a hit record allocated, redistributed, with its
critical hits and plunging fire, as data/tactics/board.yaml ('damage') fits the two together.

The scripted battles roll their dice in the engine's order: each round the fire dice (one a ship, the
first side's first), then for each hit the board's odd/even die and the model's two location dice (and
the critical's two dice, and a further odd/even die for each box plunging fire or a critical fills)."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest
import yaml

from campaign.model.ships import find_ship
from campaign.tactics import battle_records, board
from campaign.tactics.battle import fight
from campaign.tactics.board import BoardEngine, escapes
from campaign.tactics.damage import load_rules as load_damage_rules
from campaign.tactics.protocol import BattleSetup, Condition, Setting
from tests.tactics.dice import ScriptedRng, within
from tests.tactics.test_board import cb, events_of, play_round, setup
from tests.tactics.test_gwas_engines import assert_model_hit_follows_seed_003

R = board.load_rules()
D = load_damage_rules()
FIRST_CS = ("Defence", "Warrior", "Duke of Edinburgh", "Black Prince")


def ships_of(b) -> dict:
    return {s.name: s for s in b.ships}


# ---------------------------------------------------------------------------------------------------
# Fast chase speeds: the counters seed 000 prints


def test_the_counters_seed_000_prints():
    # 'Unit Counters' line 113: "Indomitable, BC, 22, 2"; line 114: "1st CS, CA, 20, 2" (Troubridge's four)
    assert dict(R.counter_kn) == {"Indomitable": 22.0, **dict.fromkeys(FIRST_CS, 20.0)}
    # the game prints no figure for these: their chase speed is the ships' data
    for name in ("Goeben", "Breslau", "Inflexible", "Indefatigable", "Gloucester"):
        assert name not in R.counter_kn


def test_chase_speeds_in_a_battle():
    b = BoardEngine().begin(
        setup(
            cb("Goeben", "G"),
            cb("Breslau", "G", 400, 0),
            cb("Indomitable", "B", 0, 14000),
            cb("Indefatigable", "B", 400, 14000),
            *[cb(n, "B", 800 + 400 * i, 14000) for i, n in enumerate(FIRST_CS)],
        ),
        np.random.default_rng(0),
    )
    s = ships_of(b)
    assert s["Indomitable"].chase_speed(R) == 22.0
    assert all(s[n].chase_speed(R) == 20.0 for n in FIRST_CS)
    for name in ("Goeben", "Breslau", "Indefatigable"):  # no counter figure: data/ships.yaml
        assert s[name].chase_speed(R) == find_ship(name).sustained_speed_kn
    # her counter's figure is her fastest: without fast speed no more than it, nor than she can make
    b = BoardEngine().begin(
        setup(
            cb("Indomitable", "B", fast=None),
            cb("Defence", "B", 400, 0, fast=None),
            cb("Goeben", "G", 0, 14000),
        ),
        np.random.default_rng(0),
    )
    s = ships_of(b)
    assert s["Indomitable"].chase_speed(R) == min(22.0, find_ship("Indomitable").sustained_speed_kn)
    assert s["Defence"].chase_speed(R) == min(20.0, find_ship("Defence").sustained_speed_kn)


def test_goeben_can_win_an_escape_roll_against_indomitable():
    goeben_kn = find_ship("Goeben").sustained_speed_kn
    assert goeben_kn > 22.0 and escapes(1, goeben_kn, 22.0)  # the counter: a 1 gets her away
    # in a battle: both fire dice miss (6, 6), the escape die is 1
    s = setup(cb("Goeben", "G"), cb("Indomitable", "B", 0, 12000), intents={"G": "break_off", "B": "engage"})
    b = BoardEngine().begin(s, ScriptedRng([6, 6, 1]))
    roll = events_of(play_round(b), "break_off")[0].data
    assert (roll["chased_kn"], roll["chaser_kn"], roll["escaped"]) == (goeben_kn, 22.0, True)
    assert b.ended() == "escaped"
    # seeded: she gets away on a 1 in six of her rolls (difference 1.5 kn; rolls after a speed box
    # slowed either ship left out)
    got = n = 0
    for seed in range(300):
        b = BoardEngine().begin(s, np.random.default_rng(seed))
        rolls = events_of(play_round(b), "break_off")
        if rolls and (rolls[0].data.get("chased_kn"), rolls[0].data.get("chaser_kn")) == (goeben_kn, 22.0):
            n += 1
            got += rolls[0].data["escaped"]
    assert n > 100 and within(got, n, 1 / 6)


def test_the_first_cruiser_squadron_rolls_at_twenty_knots():
    # Goeben runs from Defence: 23.5 - 20 = 3.5, she escapes on 1-3 (the 1st CS counter's 20, not 19)
    s = setup(cb("Goeben", "G"), cb("Defence", "B", 0, 12000), intents={"G": "break_off", "B": "engage"})
    b = BoardEngine().begin(s, ScriptedRng([6, 6, 4]))
    roll = events_of(play_round(b), "break_off")[0].data
    assert roll["chaser_kn"] == 20.0 and not roll["escaped"]
    b = BoardEngine().begin(s, ScriptedRng([6, 6, 3]))
    assert events_of(play_round(b), "break_off")[0].data["escaped"]


def _board_file(tmp_path: Path, change) -> Path:
    raw = yaml.safe_load(board.BOARD_FILE.read_text(encoding="utf-8"))
    change(raw)
    path = tmp_path / "board.yaml"
    path.write_text(yaml.safe_dump(raw), encoding="utf-8")
    return path


@pytest.mark.parametrize(
    "change, fault",
    [
        (
            lambda r: r["counters"]["Indomitable"].update(fast_chase_speed_kn=0),
            "counters.Indomitable.fast_chase_speed_kn",
        ),
        (lambda r: r["counters"]["1st CS"].update(ships=["Defence", "Nonesuch"]), "no ship named 'Nonesuch'"),
        (lambda r: r["counters"]["1st CS"].update(ships=["Indomitable"]), "already on another counter"),
        (lambda r: r["counters"]["1st CS"].update(ships=[]), "counters.1st CS.ships"),
        (lambda r: r["damage"].update(default="jane"), "damage.default"),
        (
            lambda r: r["damage"]["critical_effects"].update(engine_hits="hull"),
            "damage.critical_effects.engine_hits",
        ),
    ],
)
def test_bad_counters_and_damage_settings_are_refused(tmp_path, change, fault):
    path = _board_file(tmp_path, change)
    with pytest.raises(ValueError, match=re.escape(str(path))) as err:
        board.load_rules(path)
    assert fault in str(err.value)


# ---------------------------------------------------------------------------------------------------
# Great War at Sea's damage model in board battles (scripted dice)


def goeben_on_indomitable(dice, range_yd=12000.0, indomitable=None, **kw):
    """Goeben fires first (the first side), Indomitable second."""
    s = setup(cb("Goeben", "G"), indomitable or cb("Indomitable", "B", 0, range_yd), **kw)
    return BoardEngine().begin(s, ScriptedRng(dice))


def hits_on(evs, name):
    return [h.data for h in events_of(evs, "hit") if h.ship == name]


def test_the_board_engine_uses_the_damage_model_by_default():
    assert R.damage_default == "gwas" and BoardEngine().damage == "gwas"
    assert BoardEngine(damage="own").damage == "own"
    with pytest.raises(ValueError, match="gwas"):
        BoardEngine(damage="jane")


def test_every_hit_on_a_hit_record_is_allocated_and_the_card_kept():
    # Goeben 2 hits (die 1); Indomitable misses (6). Hit 1: board die 2 (even: speed -1), location 2+3 = 5,
    # a secondary hit on a ship that never had secondaries: tertiary (8.6), her 4-inch. Hit 2: die 1 (odd:
    # G/P +1), location 4+5 = 9: primary, a 12-inch box.
    b = goeben_on_indomitable([1, 6, 2, 2, 3, 1, 4, 5])
    h1, h2 = hits_on(play_round(b), "Indomitable")
    assert (h1["part"], h1["box"], h1["location_roll"], h1["location"], h1["landed"]) == (
        "speed",
        "-1",
        5,
        "secondary",
        "tertiary",
    )
    label = {g.cls: g.label for g in b.gwas.state("Indomitable").boxes.guns}
    assert (
        h1["guns_lost"] == [label["tertiary"]]
        and h1["damage_model"] == "gwas"
        and h1["firing_class"] == "primary"
    )
    assert (h2["part"], h2["box"], h2["landed"], h2["guns_lost"]) == (
        "gunnery",
        "+1",
        "primary",
        [label["primary"]],
    )
    assert h1["critical"] is None and h1["plunging_hull_boxes"] == 0 and h1["further_boxes"] == []
    st = b.gwas.state("Indomitable")
    assert st.remaining("primary") == 7 and st.remaining("tertiary") == 7 and st.hull_lost == 0
    assert (ships_of(b)["Indomitable"].gp, ships_of(b)["Indomitable"].spd) == (1, 1)


def test_a_hit_on_guns_she_has_lost_goes_to_the_hull_or_is_ignored():
    # Indomitable comes in with every gun box gone (gunnery 0.05: her card NF; she cannot fire). Goeben's
    # die 1: two hits. Location 9 (primary), all primaries destroyed: a hull hit (8.6). Location 5
    # (secondary), which she never had: tertiary, all destroyed: ignored (8.6).
    ind = cb("Indomitable", "B", 0, 12000, cond=Condition(gunnery=0.05))
    b = goeben_on_indomitable([1, 3, 4, 5, 4, 2, 3], indomitable=ind)
    assert b.gwas.state("Indomitable").remaining("primary") == 0
    h1, h2 = hits_on(play_round(b), "Indomitable")
    assert (h1["location"], h1["landed"], h1["hull_boxes_lost"]) == ("primary", "hull", 1)
    assert (h2["location"], h2["landed"], h2["hull_boxes_lost"], h2["guns_lost"]) == (
        "secondary",
        "ignored",
        0,
        [],
    )


def test_one_torpedo_mount_hit_destroys_them_all_then_ignored():
    # seed 003 8.62: location 3 twice
    b = goeben_on_indomitable([1, 6, 2, 1, 2, 4, 2, 1])
    h1, h2 = hits_on(play_round(b), "Indomitable")
    assert (h1["location_roll"], h1["landed"], h2["landed"]) == (3, "torpedo", "ignored")
    assert b.gwas.state("Indomitable").torpedo_lost


def test_a_critical_hit_reached_in_battle_and_its_effect_on_the_next_round():
    # Goeben 1 hit (die 2). Board die 1 (+1). Location 1+1 = 2: hull and a critical; her 28 cm pierce
    # Indomitable's 152 mm belt. Critical dice 3+4 = 7: fire control (above the armour): +1 to her die.
    b = goeben_on_indomitable([2, 6, 1, 1, 1, 3, 4] + [6, 6])
    (h,) = hits_on(play_round(b), "Indomitable")
    assert (h["location_roll"], h["landed"], h["critical"], h["critical_roll"], h["critical_applied"]) == (
        2,
        "hull",
        "fire_control",
        7,
        True,
    )
    assert h["penetrating"] and h["hull_boxes_lost"] == 1
    fires = {e.ship: e.data for e in events_of(play_round(b), "fire")}
    assert fires["Indomitable"]["modifier"] == 1 + R.fire_control_modifier  # +1 box, +1 fire control
    c = b.condition("Indomitable")
    assert c.gunnery == pytest.approx(R.gunnery_level(2)) and c.damage == pytest.approx(max(1 / 5, 1 / 4))


def test_criticals_stopped_by_armour_through_it_where_the_table_says_and_never_from_tertiaries():
    # Defence's 9.2-inch (234 mm) does not pierce Goeben's 280 mm belt. CA on BC: +1, die 1 -> 1 hit.
    # Board die 2 (-FS), location 12: a critical; dice 2+2 = 4, engine room: the armour stops it.
    s = setup(cb("Goeben", "G"), cb("Defence", "B", 0, 12000))
    b = BoardEngine().begin(s, ScriptedRng([6, 1, 2, 6, 6, 2, 2]))
    (h,) = hits_on(play_round(b), "Goeben")
    assert not h["penetrating"] and (h["critical"], h["critical_applied"]) == ("engine_room", False)
    assert h["further_boxes"] == [] and b.gwas.state("Goeben").engine_hits == 0
    # the same, critical dice 3+3 = 6: a fire, above the armour: one more box of her card (board die 3: G/P)
    b = BoardEngine().begin(s, ScriptedRng([6, 1, 2, 6, 6, 3, 3, 3]))
    (h,) = hits_on(play_round(b), "Goeben")
    assert (h["critical"], h["critical_applied"]) == ("fire", True)
    assert h["further_boxes"] == [
        {"cause": "fire", "roll": 3, "redirected": False, "part": "gunnery", "box": "+1"}
    ]
    assert h["hull_boxes_lost"] == 2 and h["hits_taken"] == 2  # the hit's box and the fire's
    # Breslau's 10.5 cm are tertiary guns: location 2 gives no critical (no critical dice are rolled)
    s = setup(cb("Breslau", "G"), cb("Indomitable", "B", 0, 6000))
    b = BoardEngine().begin(s, ScriptedRng([1, 6, 3, 1, 1]))  # LC on BC: +2, die 1 -> 1 hit
    (h,) = hits_on(play_round(b), "Indomitable")
    assert h["firing_class"] == "tertiary" and h["location_roll"] == 2 and h["critical"] is None


def test_plunging_fire_at_long_range_fills_one_more_box():
    # 14,000 yd: long range (damage.yaml plunging, 13,000 yd). Goeben 1 hit; board die 2 (-1); location
    # 4+6 = 10 from her primary guns: one more hull box, one more box of the card (board die 1: +1)
    b = goeben_on_indomitable([2, 6, 2, 4, 6, 1], range_yd=14000.0)
    (h,) = hits_on(play_round(b), "Indomitable")
    assert (h["location_roll"], h["firing_class"], h["plunging_hull_boxes"], h["hull_boxes_lost"]) == (
        10,
        "primary",
        1,
        2,
    )
    assert h["further_boxes"] == [
        {"cause": "plunging fire", "roll": 1, "redirected": False, "part": "gunnery", "box": "+1"}
    ]
    assert (h["box"], h["hits_taken"]) == ("-1", 2)
    # at 12,000 yd the same roll is an ordinary hull hit
    b = goeben_on_indomitable([2, 6, 2, 4, 6], range_yd=12000.0)
    (h,) = hits_on(play_round(b), "Indomitable")
    assert (h["plunging_hull_boxes"], h["hull_boxes_lost"], h["further_boxes"]) == (0, 1, [])


def test_a_magazine_critical_sinks_her():
    b = goeben_on_indomitable([2, 6, 1, 1, 1, 1, 1])  # location 2, critical 2: the magazine
    evs = play_round(b)
    (h,) = hits_on(evs, "Indomitable")
    assert h["critical"] == "magazine" and h["critical_applied"]
    (sunk,) = events_of(evs, "sunk")
    assert (sunk.ship, sunk.data["rule"], sunk.data["hits_taken"]) == ("Indomitable", "magazine critical", 1)
    assert b.condition("Indomitable").sunk


def test_she_sinks_when_the_model_has_taken_every_hull_box():
    # Indomitable: 4 hull boxes, 5 boxes on her card. Four hull hits (location 7) over two rounds fill four
    # boxes of her card and all four hull boxes: the model sinks her with a box of her card still open.
    assert D is not None and b_hull("Indomitable") == 4 and R.cards["Indomitable"].boxes == 5
    b = goeben_on_indomitable([1, 6, 1, 3, 4, 2, 3, 4] + [1, 6, 1, 3, 4, 2, 3, 4])
    play_round(b)
    evs = play_round(b)
    (sunk,) = events_of(evs, "sunk")
    assert sunk.data["rule"] == "every hull box lost" and sunk.data["hits_taken"] == 4
    assert hits_on(evs, "Indomitable")[-1]["hull_boxes_left"] == 0


def b_hull(name: str) -> int:
    from campaign.tactics.damage import DamageBoxes

    return DamageBoxes.from_ship(find_ship(name), D).hull


def test_the_hit_record_alone_when_asked():
    b = BoardEngine(damage="own").begin(
        setup(cb("Goeben", "G"), cb("Indomitable", "B", 0, 12000)), ScriptedRng([2, 6, 1])
    )
    (h,) = hits_on(play_round(b), "Indomitable")
    assert h["damage_model"] == "board" and "location_roll" not in h and h["box"] == "+1"


# ---------------------------------------------------------------------------------------------------
# Seeded battles: criticals and plunging fire reached, and what the records say of them


def _long_range_battles(n: int):
    s = BattleSetup(
        (cb("Goeben", "G"), cb("Indomitable", "B", 0, 15000), cb("Indefatigable", "B", 400, 15000)),
        Setting(visibility_yd=20000.0),
        {"G": "engage", "B": "engage"},
    )
    return [fight(BoardEngine(), s, np.random.default_rng(seed)) for seed in range(n)]


def test_seeded_battles_give_criticals_and_plunging_fire_by_the_rules():
    outs = _long_range_battles(40)
    records = [battle_records.tick_fields(e, 1, None) for out in outs for e in out.events if e.type == "hit"]
    model = [r for r in records if r["damage_model"] == "gwas"]
    assert model and all(r["by"] for r in model)
    assert any(r["critical"] and r["critical_applied"] for r in model)  # a critical that took effect
    assert any(r["plunging_hull_boxes"] for r in model)  # plunging fire's extra box
    for r in model:
        assert_model_hit_follows_seed_003(r)
        # every further box of her card comes from plunging fire or the critical's effect
        applied = D.critical[r["critical_roll"]] if r["critical"] and r["critical_applied"] else None
        wanted = r["plunging_hull_boxes"] + (
            applied.hull_boxes + applied.engine_hits + applied.primary_boxes if applied else 0
        )
        assert (
            len(r["further_boxes"]) == wanted or r["hits_taken"] == r["hits_to_sink"]
        )  # a full card: no more
    # no hit after a ship sank; a ship sunk by the model has its rule
    for out in outs:
        gone: set[str] = set()
        for e in out.events:
            if e.type == "hit":
                assert e.ship not in gone
            if e.type == "sunk":
                gone.add(e.ship)
                assert e.data["rule"] in ("hit record", "magazine critical", "every hull box lost")
