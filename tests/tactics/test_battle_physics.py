"""Random battles under every engine obey the physics of the battle plane.

No two hulls ever overlap unless the record says they rammed or collided; no ship covers more ground in a
tick than her speed allows; no gun fires beyond its reach or the visibility, or at a bearing on which it
does not bear; fire meant for one ship falls on another only when she is in the line of fire. The checks
here are the test's own geometry (rectangles of each ship's length and beam), not the engines'.
"""

from __future__ import annotations

import math

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from campaign.model.guns import longest_reach_yd, reach_yd
from campaign.model.ships import find_ship
from campaign.tactics.armament import barrels_bearing
from campaign.tactics.battle import BattleRun
from campaign.tactics.engines import get_engine
from campaign.tactics.helm import default_helm_rules
from campaign.tactics.jane_rulebook import is_armoured, spares_armoured
from campaign.tactics.jane_rules import load_rules as load_jane_rules
from campaign.tactics.nwc1905_rules import load_rules as load_nwc_rules
from campaign.tactics.protocol import BattleSetup, Combatant, Setting

YD_PER_M = 1.0 / 0.9144
YD_PER_NM = 2025.372
SHIPS = ("Goeben", "Breslau", "Indomitable", "Indefatigable", "Defence", "Warrior", "Gloucester", "Dublin",
         "Basilisk", "Beagle", "Courbet", "Edgar Quinet", "Admiral Spaun")


def _corners(x, y, course_deg, ship):
    """The four corners of her hull's rectangle (yd)."""
    half_l, half_b = ship.length_m * YD_PER_M / 2, ship.beam_m * YD_PER_M / 2
    c = math.radians(course_deg)
    fx, fy = math.sin(c), math.cos(c)  # forward
    sx, sy = fy, -fx  # starboard
    return [(x + a * half_l * fx + b * half_b * sx, y + a * half_l * fy + b * half_b * sy)
            for a, b in ((1, 1), (1, -1), (-1, -1), (-1, 1))]


def _overlap(p, q):
    """Whether two convex polygons overlap (separating axis test), touching not counted."""
    for poly in (p, q):
        for i in range(len(poly)):
            (x1, y1), (x2, y2) = poly[i], poly[(i + 1) % len(poly)]
            nx, ny = y2 - y1, x1 - x2
            a = [nx * x + ny * y for x, y in p]
            b = [nx * x + ny * y for x, y in q]
            if max(a) <= min(b) + 1e-6 or max(b) <= min(a) + 1e-6:
                return False
    return True


def _axis_points(x, y, course_deg, ship, n=60):
    """Points along her hull's axis (the stadium's spine, her length less her beam), and its radius."""
    half_axis = max(0.0, (ship.length_m - ship.beam_m) * YD_PER_M / 2)
    c = math.radians(course_deg)
    return ([(x + (2 * i / (n - 1) - 1) * half_axis * math.sin(c), y + (2 * i / (n - 1) - 1) * half_axis * math.cos(c))
             for i in range(n)], ship.beam_m * YD_PER_M / 2)


def _hulls_overlap(pa, ship_a, pb, ship_b, tolerance_yd=3.0):
    """Whether the two stadium hulls overlap by more than ``tolerance_yd`` (sampled spines: the engines'
    own hulls, found independently of their code)."""
    (sa, ra), (sb, rb) = _axis_points(*pa, ship_a), _axis_points(*pb, ship_b)
    if math.hypot(pa[0] - pb[0], pa[1] - pb[1]) > (ship_a.length_m + ship_b.length_m) * YD_PER_M:
        return False
    least = min(math.hypot(x1 - x2, y1 - y2) for x1, y1 in sa for x2, y2 in sb)
    return least < ra + rb - tolerance_yd


def _arc(fx, fy, corners):
    """(least, greatest) bearing (deg) of the corners from (fx, fy), about the first corner's bearing."""
    ref = math.degrees(math.atan2(corners[0][0] - fx, corners[0][1] - fy))
    rel = [(math.degrees(math.atan2(x - fx, y - fy)) - ref + 180) % 360 - 180 for x, y in corners]
    return ref + min(rel), ref + max(rel)


def _in_line(fx, fy, aimed, between):
    """Whether the hull ``between`` (corners) lies nearer the firer than ``aimed`` and across its arc."""
    d = lambda cs: min(math.hypot(x - fx, y - fy) for x, y in cs)  # noqa: E731
    if d(between) >= max(math.hypot(x - fx, y - fy) for x, y in aimed):
        return False
    a_lo, a_hi = _arc(fx, fy, aimed)
    b_lo, b_hi = _arc(fx, fy, between)
    shift = (b_lo - a_lo + 180) % 360 - 180 - (b_lo - a_lo)
    b_lo, b_hi = b_lo + shift, b_hi + shift
    return b_lo <= a_hi + 2.0 and a_lo <= b_hi + 2.0  # two degrees for the engines' round hull ends


@st.composite
def battles(draw):
    n = draw(st.integers(2, 6))
    names = draw(st.lists(st.sampled_from(SHIPS), min_size=n, max_size=n, unique=True))
    cut = draw(st.integers(1, n - 1))
    combatants, placed = [], []
    for i, name in enumerate(names):
        side = "A" if i < cut else "B"
        unit = f"{side}{draw(st.integers(0, 1))}"
        ship = find_ship(name)
        for _ in range(50):
            x = draw(st.floats(-6000, 6000)) + (0 if side == "A" else draw(st.floats(2000, 9000)))
            y = draw(st.floats(-6000, 6000))
            course = draw(st.floats(0, 359.9))
            hull = _corners(x, y, course, ship)
            if all(not _overlap(hull, h) and math.hypot(x - px, y - py) > 300 for h, px, py in placed):
                break
        else:
            continue
        placed.append((hull, x, y))
        speed = draw(st.floats(0, ship.sustained_speed_kn))
        combatants.append(Combatant(ship, unit, side, x, y, course, speed, ship.sustained_speed_kn,
                                    flagship=not any(c.unit == unit for c in combatants)))
    if len({c.side for c in combatants}) < 2:
        return None
    light = draw(st.sampled_from(["day", "day", "twilight", "moonlit", "dark"]))
    vis = {"day": 20000.0, "twilight": 12000.0, "moonlit": 9000.0, "dark": 1500.0}[light]
    intents = {"A": draw(st.sampled_from(["engage", "break_off"])), "B": draw(st.sampled_from(["engage", "break_off"]))}
    return BattleSetup(tuple(combatants), Setting(light, draw(st.integers(0, 4)), vis, True), intents)


def _fight(engine: str, setup: BattleSetup, seed: int, minutes: float = 30.0) -> BattleRun:
    run = BattleRun(get_engine(engine), setup, np.random.default_rng(seed), keep_paths=True)
    views = [run.battle.views()]
    while run.t_s < minutes * 60 and run.advance() is not None:
        views.append(run.battle.views())
    run.views_by_tick = views
    return run


def _check_physics(engine: str, run: BattleRun, setup: BattleSetup) -> None:
    ships = {c.name: c.ship for c in setup.combatants}
    side = {c.name: c.side for c in setup.combatants}
    met: dict[frozenset, float] = {}
    for e in run.events:
        if e.type in ("ram", "collision"):
            met.setdefault(frozenset((e.ship, e.target)), e.t_s)
    # Hulls never overlap, sub-step by sub-step, unless they met (and then only from that moment).
    for k, (t0, paths) in enumerate(run.paths):
        names = list(paths)
        dt = run.frames[k + 1].t_s - t0 if k + 1 < len(run.frames) else 0.0
        for i, a in enumerate(names):
            for b in names[i + 1:]:
                for j, (pa, pb) in enumerate(zip(paths[a], paths[b])):
                    t = t0 + dt * j / max(1, len(paths[a]) - 1)
                    if _hulls_overlap(pa, ships[a], pb, ships[b]):
                        when = met.get(frozenset((a, b)))
                        assert when is not None and when <= t + 1e-6, (engine, a, b, t)
    # No ship covers more ground in a tick than her speed allows.
    for k, (t0, paths) in enumerate(run.paths):
        dt = run.frames[k + 1].t_s - t0
        before = {v.name: v for v in run.views_by_tick[k]}
        for name, path in paths.items():
            run_yd = sum(math.hypot(x2 - x1, y2 - y1) for (x1, y1, _), (x2, y2, _) in zip(path, path[1:]))
            top_kn = max(before[name].max_speed_kn, abs(before[name].speed_kn))
            assert run_yd <= top_kn * YD_PER_NM / 3600 * dt + 1e-6, (engine, name, k)
    # Fire: within reach and sight, from guns that bear, on the ship aimed at or one in the line of fire.
    frames = {fr.t_s: {row[0]: row for row in fr.ships} for fr in run.frames}
    jane, nwc = load_jane_rules(), load_nwc_rules()
    for e in run.events:
        if e.type != "fire":
            continue
        r = e.data["range_yd"]
        setting = run.setting_at(e.t_s)
        assert r <= setting.visibility_yd + 1.0, (engine, e)
        if engine == "jane":
            firer = frames[e.t_s][e.ship]
            target = frames[e.t_s][e.target]
            rel = abs((math.degrees(math.atan2(target[1] - firer[1], target[2] - firer[2])) - firer[3] + 180) % 360 - 180)
            gun = next(g for g in ships[e.ship].guns if g.label == e.data["gun"])
            assert r <= reach_yd(gun) + 1.0, e  # no gun fires beyond its own reach (data/guns.yaml)
            # the light quick-firers never strike an armoured ship
            assert not (spares_armoured(jane, e.data["gun_class"]) and is_armoured(jane, ships[e.target])), e
            assert barrels_bearing(gun, rel) > 0, (e, rel)
            aimed = e.data["aimed_at"]
            if aimed != e.target:
                fa, ft = frames[e.t_s][aimed], frames[e.t_s][e.target]
                assert _in_line(firer[1], firer[2], _corners(fa[1], fa[2], fa[3], ships[aimed]),
                                _corners(ft[1], ft[2], ft[3], ships[e.target])), e
        elif engine == "nwc1905":
            assert r <= min(nwc.gun_range_yd, longest_reach_yd(ships[e.ship])) + 1.0, e
            assert side[e.ship] != side[e.target]
    # Own-side hits only come by the line of fire (checked above, on the fire that carried them).
    for e in run.events:
        if e.type == "hit" and e.target is not None and side.get(e.target) == side[e.ship]:
            assert engine == "jane", e


@given(setup=battles(), seed=st.integers(0, 2**16))
@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
def test_random_nwc1905_battles_keep_to_the_plane(setup, seed):
    if setup is None:
        return
    _check_physics("nwc1905", _fight("nwc1905", setup, seed), setup)


@given(setup=battles(), seed=st.integers(0, 2**16))
@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
def test_random_jane_battles_keep_to_the_plane(setup, seed):
    if setup is None:
        return
    _check_physics("jane", _fight("jane", setup, seed, minutes=20.0), setup)


def test_the_helms_rules_are_loaded():
    assert default_helm_rules().spacing_yd == 400.0  # seed 002 l.31
