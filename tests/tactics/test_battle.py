"""The battle driver and the helm, with a transparent test engine (so that each end of a battle and each
helm rule is checked on its own, apart from any rule set's dice)."""

from __future__ import annotations

from dataclasses import replace
from types import MappingProxyType

import numpy as np
import pytest

from campaign.model.ships import find_ship
from campaign.tactics.battle import BattleRun, fight, track_columns
from campaign.tactics.helm import default_helm_rules
from campaign.tactics.kinematics import advance, range_yd
from campaign.tactics.plane.hull import Hull
from campaign.tactics.plane.motion import Body, Plane, as_pilot
from campaign.tactics.protocol import (
    BattleSetup,
    Combatant,
    Condition,
    Setting,
    ShipView,
    TickEvent,
)


class _Instant:
    """A handling that takes the helm's course and speed at once (the test engine's)."""

    def __init__(self, limit_kn: float) -> None:
        self.limit_kn = limit_kn

    def begin(self, body, want, dt_s):
        pass

    def step(self, body, want, h_s):
        v = min(want.speed_kn, self.limit_kn)
        x, y = advance(body.x_yd, body.y_yd, want.course_deg, v, h_s)
        return x, y, want.course_deg, v

    def end(self, body):
        pass


class _Battle:
    """Ships follow the helm at once on the plane; every afloat ship within ``gun_range_yd`` of an enemy
    hits the nearest one for ``damage_per_tick`` of her sinking damage, scaled by her own strength."""

    def __init__(self, setup: BattleSetup, strength: dict[str, float], gun_range_yd: float, damage: float):
        self.t_s = 0.0
        self.s = {c.name: {"c": c, "x": c.x_yd, "y": c.y_yd, "course": c.course_deg, "speed": c.speed_kn,
                           "dmg": c.condition.damage} for c in setup.combatants}
        self.strength = strength
        self.gun = gun_range_yd
        self.damage = damage
        self.plane = Plane(0.125)

    def next_tick_s(self) -> float:
        return 60.0

    def _view(self, n: str) -> ShipView:
        s = self.s[n]
        c = s["c"]
        afloat = s["dmg"] < 1.0
        return ShipView(n, c.side, c.unit, s["x"], s["y"], s["course"], s["speed"], c.max_speed_kn, afloat,
                        afloat, self.gun, self.strength.get(n, 1.0) * (1.0 - s["dmg"]) if afloat else 0.0)

    def views(self):
        return [self._view(n) for n in self.s]

    def step(self, helm, setting):
        bodies = [Body(n, s["c"].side, s["c"].unit, Hull.of(s["c"].ship), s["x"], s["y"], s["course"], s["speed"],
                       _Instant(s["c"].max_speed_kn)) for n, s in self.s.items() if s["dmg"] < 1.0]
        self.plane.move(bodies, as_pilot(helm), self.t_s, 60.0, 10.0)
        for b in bodies:
            s = self.s[b.name]
            s["x"], s["y"], s["course"], s["speed"] = b.x_yd, b.y_yd, b.course_deg, b.speed_kn
        self.t_s += 60.0
        events, hits = [], {}
        afloat = [v for v in self.views() if v.afloat]
        for v in afloat:
            enemies = [e for e in afloat if e.side != v.side]
            if not enemies:
                continue
            e = min(enemies, key=lambda e: range_yd(v.x_yd, v.y_yd, e.x_yd, e.y_yd))
            r = float(range_yd(v.x_yd, v.y_yd, e.x_yd, e.y_yd))
            if r <= self.gun:
                events.append(TickEvent(self.t_s, "fire", v.name, e.name, MappingProxyType({"range_yd": round(r)})))
                hits[e.name] = hits.get(e.name, 0.0) + self.damage * self.strength.get(v.name, 1.0)
        for n, d in hits.items():
            if d <= 0.0:
                continue  # fired on, missed
            self.s[n]["dmg"] = min(1.0, self.s[n]["dmg"] + d)
            events.append(TickEvent(self.t_s, "hit", n, None, MappingProxyType({"damage": d})))
            if self.s[n]["dmg"] >= 1.0:
                events.append(TickEvent(self.t_s, "sunk", n))
        return events

    def condition(self, n):
        d = self.s[n]["dmg"]
        return Condition(damage=d, sunk=d >= 1.0)

    def settled(self):
        return None


class _Engine:
    name = "test"

    def __init__(self, strength=None, gun_range_yd=10000.0, damage=0.05):
        self.strength = strength or {}
        self.gun = gun_range_yd
        self.damage = damage

    def begin(self, setup, rng):
        return _Battle(setup, self.strength, self.gun, self.damage)


def _c(name, side, x, y, course, speed, max_kn=None):
    ship = find_ship(name)
    return Combatant(ship, side, side, x, y, course, speed, max_kn if max_kn is not None else ship.sustained_speed_kn)


DAY = Setting("day", 2, 20000.0, False)


def test_a_side_that_loses_every_ship_ends_the_battle_destroyed():
    setup = BattleSetup((_c("Goeben", "G", 0, 0, 90, 10), _c("Gloucester", "B", 0, 8000, 90, 10)),
                        DAY, {"G": "engage", "B": "engage"})
    out = fight(_Engine({"Goeben": 10.0}), setup, np.random.default_rng(0))
    assert out.reason == "destroyed"
    assert out.conditions["Gloucester"].sunk and not out.conditions["Goeben"].sunk
    assert out.sunk() == ("Gloucester",)


def test_the_outmatched_side_breaks_off_at_the_helm_ratio_and_a_faster_ship_gets_away():
    ratio = default_helm_rules().break_off_ratio
    setup = BattleSetup((_c("Defence", "B", 0, 0, 90, 15), _c("Goeben", "G", 0, 9000, 90, 15)),
                        Setting("day", 2, 15000.0, False), {"G": "engage", "B": "engage"})
    out = fight(_Engine({"Goeben": 1.0, "Defence": ratio * 0.9}, damage=0.01), setup, np.random.default_rng(0))
    assert out.broke_off == ("B",)
    ev = next(e for e in out.events if e.type == "break_off")
    assert ev.data["fighting_value"] < ratio * ev.data["enemy_value"]
    # Defence (19 kn) cannot outrun Goeben: the battle is fought to a finish or to the time limit.
    assert out.reason in ("destroyed", "time")

    setup2 = BattleSetup((_c("Breslau", "G", 0, 0, 90, 20), _c("Indomitable", "B", 0, 9000, 90, 20)),
                         Setting("day", 2, 15000.0, False), {"G": "engage", "B": "engage"})
    # Evenly matched and doing no damage: nobody breaks off, the safety limit ends it.
    out2 = fight(_Engine(damage=0.0), setup2, np.random.default_rng(0))
    assert out2.reason == "time" and out2.broke_off == ()
    # Outmatched from the first: Breslau (27.5 kn) turns away at once and runs beyond sight of
    # Indomitable (23 kn).
    out3 = fight(_Engine({"Indomitable": 10.0}, damage=0.0),
                 replace(setup2, setting=Setting("day", 2, 11000.0, False)), np.random.default_rng(0))
    assert out3.broke_off == ("G",) and out3.reason == "separated"
    assert out3.final["Breslau"].speed_kn == pytest.approx(find_ship("Breslau").sustained_speed_kn)


def test_night_ends_a_battle_unless_the_rules_allow_a_night_action():
    setup = BattleSetup((_c("Goeben", "G", 0, 0, 90, 10), _c("Gloucester", "B", 0, 30000, 90, 10)),
                        Setting("day", 2, 40000.0, False), {"G": "engage", "B": "engage"})

    def dusk(night_action):
        return lambda t_s: Setting("day" if t_s < 600 else "dark", 2, 40000.0, night_action)

    out = fight(_Engine(damage=0.0, gun_range_yd=5000), setup, np.random.default_rng(0), setting_at=dusk(False))
    assert out.reason == "darkness" and 600 <= out.duration_s <= 720
    out2 = fight(_Engine(damage=0.0, gun_range_yd=5000), setup, np.random.default_rng(0), setting_at=dusk(True))
    assert out2.reason != "darkness"


def test_ships_in_sight_but_out_of_gun_range_without_firing_end_out_of_range():
    no_fire_s = default_helm_rules().no_fire_min * 60
    setup = BattleSetup((_c("Goeben", "G", 0, 0, 90, 5, max_kn=5), _c("Gloucester", "B", 0, 12000, 90, 5, max_kn=5)),
                        Setting("day", 2, 40000.0, False), {"G": "break_off", "B": "break_off"})
    out = fight(_Engine(gun_range_yd=5000), setup, np.random.default_rng(0))
    assert out.reason == "out_of_range"
    assert out.duration_s == pytest.approx(no_fire_s, abs=60)


def test_coal_burnt_is_the_consumption_curve_at_the_speeds_steamed():
    setup = BattleSetup((_c("Goeben", "G", 0, 0, 90, 18, max_kn=18), _c("Gloucester", "B", 0, 12000, 90, 18, max_kn=18)),
                        Setting("day", 2, 40000.0, False), {"G": "break_off", "B": "break_off"})
    out = fight(_Engine(gun_range_yd=5000), setup, np.random.default_rng(0))
    goeben = find_ship("Goeben")
    assert out.coal_t["Goeben"] == pytest.approx(goeben.consumption.t_per_h(18.0) * out.duration_s / 3600, rel=1e-3)


def test_frames_keep_every_tick_and_turn_into_columns():
    setup = BattleSetup((_c("Goeben", "G", 0, 0, 90, 10), _c("Gloucester", "B", 0, 8000, 90, 10)),
                        DAY, {"G": "engage", "B": "engage"})
    run = BattleRun(_Engine({"Goeben": 10.0}), setup, np.random.default_rng(0))
    n = 0
    while run.advance() is not None:
        n += 1
    out = run.outcome()
    assert len(out.frames) == n + 1 and out.frames[0].t_s == 0.0
    cols = track_columns(out.frames)
    assert cols["names"] == ["Goeben", "Gloucester"]
    assert len(cols["t_s"]) == len(cols["x_yd"][0]) == n + 1
    assert cols["afloat"][1][-1] is False and cols["afloat"][0][-1] is True


def test_a_running_side_the_enemy_cannot_gain_on_has_drawn_off_once_no_shot_strikes():
    # Equal speeds, a stern chase at 6,000 yd: the chasers never gain. Missing every shot, after
    # drawn_off_min the battle ends and the chase is left to the campaign; hitting, the sides are still
    # fighting and the runner has not drawn off (the safety limit ends it here).
    rules = default_helm_rules()
    window_s = rules.drawn_off_min * 60
    setup = BattleSetup((_c("Defence", "G", 0, 0, 0, 18, max_kn=18), _c("Warrior", "B", 0, -6000, 0, 18, max_kn=18)),
                        Setting("day", 2, 40000.0, False), {"G": "break_off", "B": "engage"})
    out = fight(_Engine(damage=0.0, gun_range_yd=8000), setup, np.random.default_rng(0))
    assert out.reason == "drawn_off"
    assert window_s <= out.duration_s <= window_s + 120
    hitting = fight(_Engine(damage=1e-6, gun_range_yd=8000), setup, np.random.default_rng(0),
                    rules=replace(rules, max_duration_h=2.0))
    assert hitting.reason == "time"


def test_outmatched_is_below_the_helm_ratio_of_the_enemies_together():
    from campaign.tactics.battle import outmatched

    ratio = default_helm_rules().break_off_ratio
    assert ratio == 0.5  # data/tactics/helm.yaml: the 1905 umpire removes a force outmatched 2:1 (seed 002)
    assert outmatched({"A": 0.49, "B": 0.6, "C": 0.4}, "A", ratio)  # B and C together: 1.0
    assert not outmatched({"A": 0.5, "B": 1.0}, "A", ratio)
    assert not outmatched({"A": 0.0}, "A", ratio)  # no enemy afloat
    assert outmatched({"B": 1.0}, "A", ratio)  # none of his own afloat
