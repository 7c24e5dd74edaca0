"""Torpedo tubes (campaign/tactics/tubes.py, data/tactics/tubes.yaml): the layouts, the stand-in layout
rule, which tubes bear at a relative bearing, the tubes' state in a battle, and both engines firing
only from a tube that bears (seed 002 l.51, l.67, l.79-81: 002_8b9da8deb20917a0.txt; seed 004 l.47)."""

from __future__ import annotations

import dataclasses
import math

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from campaign.model.ships import TorpedoTubes, TubeMount, default_ships, find_ship
from campaign.tactics import jane_fire
from campaign.tactics.jane_rules import load_rules as load_jane_rules
from campaign.tactics.jane_ship import above_water_tubes, condition_of, from_combatant
from campaign.tactics.nwc1905 import Nwc1905Engine
from campaign.tactics.nwc1905_rules import load_rules as load_nwc_rules
from campaign.tactics.protocol import BattleSetup, Combatant, Condition, HelmOrder, Setting
from campaign.tactics.tubes import (
    NEVER,
    PORT,
    STARBOARD,
    Tube,
    TubeBank,
    bears_at_setting,
    can_bear,
    load_tube_rules,
    setting_for,
    ship_tubes,
    ships_without_tube_data,
    side_and_off_deg,
    stand_in_mounts,
    tube_mounts,
)

RULES = load_tube_rules()
SHIPS = default_ships()
DAY = Setting()
AIM = RULES.aim_half_arc_deg

BOW = Tube("bow", "bow", 0, True)
STERN = Tube("stern", "stern", 0, True)
STBD_BEAM = Tube("starboard beam", "beam", STARBOARD, True)
PORT_BEAM = Tube("port beam", "beam", PORT, True)
STBD_ABOVE = Tube("starboard beam", "beam", STARBOARD, False)
DECK = Tube("deck", "deck", 0, False)
TUBES = (BOW, STERN, STBD_BEAM, PORT_BEAM, STBD_ABOVE, DECK)


def layout(name: str) -> list[tuple[str, int, bool]]:
    return [(m.position, m.count, m.submerged) for m in tube_mounts(SHIPS[name])[0]]


def with_tubes(name: str, *mounts: TubeMount, guns: bool = False):
    """Ship ``name`` with only these tubes (and no guns, unless ``guns``)."""
    ship = find_ship(name)
    n = sum(m.count for m in mounts)
    return dataclasses.replace(ship, torpedo_tubes=TorpedoTubes(n, 450, "test", tuple(mounts)),
                               **({} if guns else {"guns": ()}))


def target(name: str = "Bogadir"):
    """An unarmed target without tubes that penetrations cannot sink."""
    return dataclasses.replace(find_ship(name), guns=(), torpedo_tubes=TorpedoTubes(0, None, None),
                               displacement_t=1e9)


def xy(rel_deg: float, r_yd: float) -> tuple[float, float]:
    """Where a ship lies ``r_yd`` off, ``rel_deg`` off the bow of a ship at the origin heading north."""
    return r_yd * math.sin(math.radians(rel_deg)), r_yd * math.cos(math.radians(rel_deg))


# ---------------------------------------------------------------------------------------------- the data


def test_times_are_the_1905_rules_five_minutes():
    # "five minutes to change setting" (l.51); "It requires five minutes to reload a torpedo tube" (l.81)
    assert RULES.gyro_change_s == 300 and RULES.reload_s == 300
    assert RULES.beam_abeam_deg == 90  # "set by gyroscope to fire abeam" (l.51)


def test_goeben_has_a_bow_a_stern_and_two_beam_tubes_all_submerged():
    assert layout("Goeben") == [("bow", 1, True), ("beam", 2, True), ("stern", 1, True)] == layout("Moltke")
    labels = sorted(t.label for t in ship_tubes(SHIPS["Goeben"]))
    assert labels == ["bow", "port beam", "starboard beam", "stern"]
    assert all(t.submerged for t in ship_tubes(SHIPS["Goeben"]))


def test_key_ships_layouts():
    assert layout("Breslau") == [("beam", 2, True)]
    assert layout("Gloucester") == [("beam", 2, True)] == layout("Dublin") == layout("Weymouth")
    assert layout("Indomitable") == [("beam", 4, True), ("stern", 1, True)] == layout("Defence")
    assert layout("Indefatigable") == [("beam", 2, True)]
    assert layout("Warrior") == [("beam", 2, True), ("stern", 1, True)] == layout("Black Prince")
    assert layout("Basilisk") == [("deck", 2, False)]
    assert layout("Viribus Unitis") == [("bow", 1, True), ("beam", 2, True), ("stern", 1, True)]
    assert layout("Suffren") == [("beam", 2, True), ("beam", 2, False)]


def test_every_armed_ship_has_a_layout_of_all_her_tubes():
    for ship in SHIPS.values():
        t = ship.torpedo_tubes
        n = t.count if t is not None else 0
        assert len(ship_tubes(ship)) == n, ship.name
        assert above_water_tubes(ship) == sum(not x.submerged for x in ship_tubes(ship))


def test_ships_without_tube_data_names_the_stand_ins():
    missing = ships_without_tube_data(SHIPS.values())
    assert "Goeben" in missing and "Gloucester" in missing and "Basilisk" in missing
    assert "Viribus Unitis" not in missing and "Suffren" not in missing and "Zrinyi" not in missing
    assert "Bogadir" not in missing and "Charlemagne" not in missing  # no tubes; tubes unknown
    assert all(not tube_mounts(SHIPS[n])[1] for n in missing)


def test_above_water_tubes_are_those_the_mounting_puts_above_water():
    # deck tubes may blow up when hit (seed 004 l.47): Suffren's 2 of 4, Novara's 6, Basilisk's 2, Goeben none
    assert [above_water_tubes(SHIPS[n]) for n in ("Suffren", "Saida", "Basilisk", "Bisson", "Goeben", "Breslau")] \
        == [2, 6, 2, 4, 0, 0]


# ---------------------------------------------------------------------------------------------- the stand-in rule


def _ship(count: int, mounting: str | None, type_: str = "armoured_cruiser"):
    return dataclasses.replace(find_ship("Warrior"), type=type_,
                               torpedo_tubes=TorpedoTubes(count, 450, mounting))


@pytest.mark.parametrize("count, mounting, type_, want", [
    (1, "submerged", "battleship", [("bow", 1, True)]),
    (2, "submerged", "light_cruiser", [("beam", 2, True)]),
    (3, "submerged", "battleship", [("beam", 2, True), ("stern", 1, True)]),
    (4, "submerged", "battlecruiser", [("bow", 1, True), ("beam", 2, True), ("stern", 1, True)]),
    (5, "submerged", "battlecruiser", [("beam", 4, True), ("stern", 1, True)]),
    (6, "submerged", "battleship", [("bow", 1, True), ("beam", 4, True), ("stern", 1, True)]),
    (2, None, "light_cruiser", [("beam", 2, True)]),
    (2, None, "destroyer", [("deck", 2, False)]),
    (4, "2 twin deck mounts", "destroyer", [("deck", 4, False)]),
    (6, "3 twin", "light_cruiser", [("beam", 6, False)]),
    (3, "single", "light_cruiser", [("beam", 2, False), ("deck", 1, False)]),
    (4, "2 submerged, 2 above water", "battleship", [("beam", 2, True), ("beam", 2, False)]),
])
def test_stand_in_layout(count, mounting, type_, want):
    got = [(m.position, m.count, m.submerged) for m in stand_in_mounts(_ship(count, mounting, type_))]
    assert got == want


MOUNTINGS = st.sampled_from([None, "submerged", "deck", "twin", "single", "submerged, beam", "above water",
                             "2 submerged, 2 above water", "1 submerged, 3 above water"])
TYPES = st.sampled_from(["battleship", "armoured_cruiser", "light_cruiser", "destroyer", "torpedo_boat"])


@given(st.integers(1, 40), MOUNTINGS, TYPES)
@settings(max_examples=150, deadline=None)
def test_stand_in_layout_places_every_tube_once(count, mounting, type_):
    mounts = stand_in_mounts(_ship(count, mounting, type_))
    assert sum(m.count for m in mounts) == count
    assert all(m.count % 2 == 0 for m in mounts if m.position == "beam")
    assert all(not m.submerged for m in mounts if m.position == "deck")
    assert sum(m.count for m in mounts if m.position in ("bow", "stern")) <= 2


# ---------------------------------------------------------------------------------------------- bearing


@pytest.mark.parametrize("rel, bearing", [
    (0, {"bow"}), (AIM, {"bow"}), (-AIM, {"bow"}), (12, set()), (-12, set()),
    (30, {"deck"}), (-30, {"deck"}), (34, {"starboard beam", "deck"}), (-34, {"port beam", "deck"}),
    (45, {"starboard beam", "starboard above", "deck"}), (90, {"starboard beam", "starboard above", "deck"}),
    (-90, {"port beam", "deck"}), (135, {"starboard beam", "starboard above", "deck"}), (150, {"deck"}),
    (160, set()), (170, {"stern"}), (180, {"stern"}), (-170, {"stern"}), (-180, {"stern"}),
])
def test_which_tubes_can_bear(rel, bearing):
    names = {BOW: "bow", STERN: "stern", STBD_BEAM: "starboard beam", PORT_BEAM: "port beam",
             STBD_ABOVE: "starboard above", DECK: "deck"}
    assert {names[t] for t in TUBES if can_bear(t, rel, RULES)} == bearing


def test_a_gyro_set_beam_tube_bears_within_the_aim_arc_of_its_setting():
    assert bears_at_setting(STBD_BEAM, 90, 90, RULES) and bears_at_setting(STBD_BEAM, 90 + AIM, 90, RULES)
    assert not bears_at_setting(STBD_BEAM, 60, 90, RULES) and not bears_at_setting(STBD_BEAM, -90, 90, RULES)
    assert bears_at_setting(STBD_BEAM, 60, setting_for(60, RULES), RULES)
    assert setting_for(20, RULES) == 45 and setting_for(-170, RULES) == 135 and setting_for(-100, RULES) == 100


@given(st.floats(-720, 720, allow_nan=False), st.sampled_from(TUBES), st.floats(45, 135))
@settings(max_examples=300, deadline=None)
@example(0.0, STBD_BEAM, 90.0)
@example(180.0, STERN, 90.0)
def test_bearing_is_symmetric_periodic_and_a_setting_never_widens_the_arc(rel, tube, setting_deg):
    mirror = {STBD_BEAM: PORT_BEAM, PORT_BEAM: STBD_BEAM}.get(tube, tube)
    if tube is not STBD_ABOVE:
        assert can_bear(tube, rel, RULES) == can_bear(mirror, -rel, RULES)
    assert can_bear(tube, rel, RULES) == can_bear(tube, rel + 360.0, RULES)
    if bears_at_setting(tube, rel, setting_deg, RULES):
        assert can_bear(tube, rel, RULES)
    side, off = side_and_off_deg(rel)
    assert 0.0 <= off <= 180.0 and (side == 0) == (off in (0.0, 180.0))


# ---------------------------------------------------------------------------------------------- state


def test_a_fired_tube_reloads_in_five_minutes_or_never():
    bank = TubeBank((STBD_BEAM, DECK), RULES)
    assert bank.first_bearing(90, 0.0, gyro=True) == 0
    bank.fire(0, 10.0, RULES.reload_s)
    assert bank.first_bearing(90, 10.0, gyro=True) == 1  # the deck tube still bears
    bank.fire(1, 10.0, None)
    assert bank.first_bearing(90, 309.0, gyro=True) is None
    assert bank.first_bearing(90, 310.0, gyro=True) == 0
    assert bank.ready_s[1] == NEVER and bank.loaded_count() == 1
    with pytest.raises(ValueError):
        bank.fire(1, 400.0, None)


def test_a_new_gyro_setting_takes_five_minutes():
    bank = TubeBank((STBD_BEAM,), RULES)
    assert bank.first_bearing(50, 0.0, gyro=True) is None  # set abeam: misses a target 50 deg off the bow
    assert bank.first_bearing(50, 0.0, gyro=False) == 0   # (Jane's game: no setting time)
    assert bank.needs_setting(0, 50, 0.0) and not bank.needs_setting(0, 90, 0.0)
    assert not bank.needs_setting(0, -50, 0.0) and not bank.needs_setting(0, 10, 0.0)  # other side; beyond reach
    assert bank.set_gyro(0, 50, 100.0, RULES.gyro_change_s) == 50
    assert not bank.needs_setting(0, 70, 200.0)  # being re-set
    assert bank.first_bearing(50, 399.0, gyro=True) is None
    assert bank.first_bearing(50, 400.0, gyro=True) == 0
    assert bank.first_bearing(90, 400.0, gyro=True) is None  # no longer abeam


def test_tubes_emptied_and_lost():
    bank = TubeBank.of(SHIPS["Suffren"])  # 2 submerged, 2 above water
    assert bank.loaded_above_water() == 2
    assert bank.lose_above_water() and bank.loaded_above_water() == 1
    bank.empty(2)
    assert bank.loaded_count() == 1 and bank.loaded_above_water() == 1


# ---------------------------------------------------------------------------------------------- the engines
# Jane's torpedoes are fired in her fire phase (``jane_fire.torpedoes``), played here on ships that lie still
# where they are put; the NWC battle is stepped with every ship stopped.


def combatant(ship, side, x=0.0, y=0.0, course=0.0, speed=0.0):
    return Combatant(ship, ship.name, side, x, y, course, speed, ship.sustained_speed_kn)


class JaneFire:
    """Jane's torpedo phase, move after move, on ships that do not move."""

    def __init__(self, *cs: Combatant, seed: int = 0) -> None:
        self.rules = load_jane_rules()
        self.ships = [from_combatant(self.rules, c) for c in cs]
        self.rng = np.random.default_rng(seed)
        self.move = 0

    def step(self) -> list:
        self.move += 1
        ctx = jane_fire.FireContext(self.rules, self.rng, self.ships, self.move, 60.0 * self.move, DAY)
        jane_fire.torpedoes(ctx, list(self.ships))
        return ctx.events

    def condition(self, name: str):
        return condition_of(self.rules, next(s for s in self.ships if s.name == name))


class NwcMoves:
    """An NWC 1905 battle whose ships stay stopped."""

    def __init__(self, *cs: Combatant, seed: int = 0) -> None:
        setup = BattleSetup(tuple(cs), DAY, {c.side: "engage" for c in cs})
        self.battle = NWC.begin(setup, np.random.default_rng(seed))

    def step(self) -> list:
        b = self.battle
        return b.step({v.name: HelmOrder(v.course_deg, 0.0) for v in b.views() if v.afloat}, DAY)


def battle(engine: str, *cs: Combatant, seed: int = 0):
    return JaneFire(*cs, seed=seed) if engine == "jane" else NwcMoves(*cs, seed=seed)


def run(b, moves: int) -> list:
    events = []
    for _ in range(moves):
        events += b.step()
    return events


def torpedoes(events):
    return [e for e in events if e.type == "torpedo"]


NWC = Nwc1905Engine(load_nwc_rules())
BEAM_ONLY = (TubeMount("beam", 2, True),)
RANGE_YD = {"jane": 250.0, "nwc1905": 1500.0}  # inside each game's torpedo range


@pytest.mark.parametrize("engine", ["jane", "nwc1905"])
def test_an_enemy_dead_ahead_of_a_ship_with_only_beam_tubes_is_never_torpedoed(engine):
    firer = with_tubes("Gloucester", *BEAM_ONLY)
    b = battle(engine, combatant(firer, "uk"), combatant(target(), "de", *xy(0.0, RANGE_YD[engine])))
    assert not torpedoes(run(b, 12))


@pytest.mark.parametrize("engine", ["jane", "nwc1905"])
@pytest.mark.parametrize("rel, tube", [(90.0, "starboard beam"), (-90.0, "port beam")])
def test_an_enemy_abeam_is_torpedoed_from_the_beam_tube_on_her_side(engine, rel, tube):
    firer = with_tubes("Gloucester", *BEAM_ONLY)
    b = battle(engine, combatant(firer, "uk"), combatant(target(), "de", *xy(rel, RANGE_YD[engine])))
    fired = torpedoes(run(b, 1))
    assert [e.data["tube"] for e in fired] == [tube]
    assert fired[0].data["rel_bearing_deg"] == pytest.approx(rel, abs=0.1)


@pytest.mark.parametrize("engine", ["jane", "nwc1905"])
@pytest.mark.parametrize("rel, tube", [(0.0, "bow"), (180.0, "stern"), (90.0, "starboard beam")])
def test_goeben_fires_from_the_tube_that_bears(engine, rel, tube):
    goeben = dataclasses.replace(find_ship("Goeben"), guns=())
    b = battle(engine, combatant(goeben, "de"), combatant(target("Mudros"), "uk", *xy(rel, RANGE_YD[engine])))
    assert [e.data["tube"] for e in torpedoes(run(b, 1))] == [tube]


@given(st.floats(-180.0, 180.0, allow_nan=False), st.sampled_from(["Gloucester", "Goeben", "Basilisk", "Suffren"]),
       st.sampled_from(["jane", "nwc1905"]))
@settings(max_examples=80, deadline=None)
@example(0.0, "Gloucester", "jane")
@example(0.0, "Gloucester", "nwc1905")
@example(60.0, "Goeben", "nwc1905")
@example(-170.0, "Basilisk", "jane")
def test_a_torpedo_leaves_only_a_tube_that_bears(rel, name, engine):
    firer = dataclasses.replace(find_ship(name), guns=())
    b = battle(engine, combatant(firer, "a"), combatant(target(), "b", *xy(rel, RANGE_YD[engine])))
    fired = torpedoes(run(b, 3))
    tubes = ship_tubes(firer)
    if not any(can_bear(t, rel, RULES) for t in tubes):
        assert not fired
    for e in fired:
        assert e.data["rel_bearing_deg"] == pytest.approx(rel, abs=0.06) or abs(rel) > 179.9
        assert any(t.label == e.data["tube"] and can_bear(t, e.data["rel_bearing_deg"], RULES) for t in tubes)
    if engine == "jane" and any(can_bear(t, rel, RULES) for t in tubes):
        assert fired  # Jane's game lays a tube at once


def test_nwc1905_a_beam_tube_set_abeam_needs_five_minutes_to_be_set_for_a_target_forward():
    # A target 50 deg off the starboard bow: the starboard tube is set abeam (l.51); it is re-set at the end
    # of the first move and fires only once the five minutes are up.
    firer = with_tubes("Gloucester", *BEAM_ONLY)
    b = battle("nwc1905", combatant(firer, "uk"), combatant(target(), "de", *xy(50.0, 2500.0)))
    times = [e.t_s for e in torpedoes(run(b, 6))]
    first_move_s = NWC.rules.fleet_move_s
    assert times and times[0] == first_move_s + RULES.gyro_change_s
    abeam = battle("nwc1905", combatant(firer, "uk"), combatant(target(), "de", *xy(95.0, 2500.0)))
    assert [e.t_s for e in torpedoes(run(abeam, 1))] == [first_move_s]  # within the abeam setting's arc


def test_jane_sets_no_gyro_time_and_each_tube_fires_once():
    firer = with_tubes("Gloucester", *BEAM_ONLY)
    b = battle("jane", combatant(firer, "uk"), combatant(target(), "de", *xy(50.0, 250.0)))
    fired = torpedoes(run(b, 5))
    assert [e.data["tube"] for e in fired] == ["starboard beam"]  # the port tube never bears
    assert b.condition(firer.name).torpedoes_fired == 1


def test_jane_carries_in_the_tubes_fired_and_loses_a_tube_that_blew_up():
    firer = with_tubes("Gloucester", TubeMount("beam", 2, False), TubeMount("deck", 1, False))
    c = dataclasses.replace(combatant(firer, "uk"), condition=Condition(torpedoes_fired=1))
    # Layout order: starboard beam, port beam, deck. The tube fired in an earlier battle is the first
    # (starboard); a tube blown up is the last loaded one above water (deck): the port tube is left.
    b = JaneFire(c, combatant(target(), "de", *xy(-90.0, 250.0)))
    st_ = b.ships[0]
    assert (st_.tubes_left(), st_.above_water_loaded, st_.tubes.loaded_count()) == (2, 2, 2)
    st_.above_water_loaded -= 1  # what ``resolve_hit`` does when a loaded deck tube blows up (seed 004 l.121)
    st_.tubes_fired += 1
    fired = torpedoes(run(b, 3))
    assert [e.data["tube"] for e in fired] == ["port beam"] and b.condition(firer.name).torpedoes_fired == 3
    assert st_.tubes.loaded_count() == 0 and st_.above_water_loaded == 0
