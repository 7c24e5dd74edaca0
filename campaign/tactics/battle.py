"""Fighting a battle under any engine: tick by tick, with the ends every rule set shares.

``BattleRun`` drives an engine (``campaign.tactics.protocol``): each tick the helm's admirals decide
(``campaign.tactics.helm``), the engine moves the ships on the plane with the helm steering them step by
step, fires and damages, and the run keeps the frames for the replay and the coal burnt at the speeds
steamed, and checks whether the battle is over. It does no waiting itself, so the world
runs it inside SimPy (one timeout per tick, other forces moving meanwhile) and ``fight`` runs it
straight through for duels and tests.

A battle ends (``BattleOutcome.reason``) when:
  ``settled``      the umpire settles it (NWC 1905 minor contacts);
  ``destroyed``    a side has no ship afloat;
  ``darkness``     night falls and the rules allow no night action;
  ``separated``    no enemy is within the visibility of any ship (a break-off succeeded);
  ``out_of_range`` nobody has fired for ``no_fire_min`` and the sides are beyond gun range;
  ``drawn_off``    a side breaking off has not been gained on for ``drawn_off_min`` and no shot or
                   torpedo has struck for ``drawn_off_quiet_min``;
  ``time``         the safety limit ``max_duration_h`` (data/tactics/helm.yaml).
A side that means to fight breaks off when its fighting value falls below ``break_off_ratio`` of the
enemy's; a ``break_off`` event says so. An engine whose rules end battles otherwise says which of
these ends apply (``Battle.driver_ends``) and gives its own (``Battle.ended``: the board game's escape).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from types import MappingProxyType

import numpy as np

from campaign.tactics.helm import Helm, HelmRules, default_helm_rules
from campaign.tactics.kinematics import range_yd
from campaign.tactics.protocol import BattleSetup, Command, Condition, Engine, Setting, ShipView, TickEvent
from campaign.tactics.searoom import SeaRoom


@dataclass(frozen=True, slots=True)
class Frame:
    """Every ship at the end of a tick: (name, x_yd, y_yd, course_deg, speed_kn, afloat)."""

    t_s: float
    ships: tuple[tuple[str, float, float, float, float, bool], ...]


@dataclass(frozen=True)
class BattleOutcome:
    """What a battle came to. ``broke_off`` lists the sides that broke off, in order; ``coal_t`` the
    coal each ship burnt at the speeds she steamed; ``final`` each ship's last view."""

    engine: str
    reason: str
    duration_s: float
    events: tuple[TickEvent, ...]
    frames: tuple[Frame, ...]
    conditions: Mapping[str, Condition]
    final: Mapping[str, ShipView]
    coal_t: Mapping[str, float]
    broke_off: tuple[str, ...]
    intents: Mapping[str, str]

    def sunk(self) -> tuple[str, ...]:
        return tuple(n for n, c in self.conditions.items() if c.sunk)

    def fighting_values(self) -> dict[str, float]:
        """Each side's fighting value at the end (``side_values`` of the ships' last views)."""
        return side_values(self.final.values())


def side_values(views: Iterable[ShipView]) -> dict[str, float]:
    """Each side's fighting value (the engine's measure): the sum over its ships afloat."""
    value: dict[str, float] = {}
    for v in views:
        if v.afloat:
            value[v.side] = value.get(v.side, 0.0) + v.fighting_value
    return value


def outmatched(value: Mapping[str, float], side: str, ratio: float) -> bool:
    """Is ``side`` outmatched: its fighting value (``side_values``) below ``ratio`` times its enemies'
    together (data/tactics/helm.yaml, break_off), the enemy having any?"""
    enemy = sum(x for s, x in value.items() if s != side)
    return enemy > 0 and value.get(side, 0.0) < ratio * enemy


class BattleRun:
    """One battle being fought. Call ``advance()`` until it returns None, then ``outcome()``."""

    def __init__(self, engine: Engine, setup: BattleSetup, rng: np.random.Generator, *,
                 rules: HelmRules | None = None, setting_at: Callable[[float], Setting] | None = None,
                 preferred_range_yd: Mapping[str, float] | None = None, preferred_cap_yd: float | None = None,
                 keep_frames: bool = True, sea_room: SeaRoom | None = None, keep_paths: bool = False) -> None:
        self.engine = engine
        self.setup = setup
        self.rules = rules or default_helm_rules()
        self.setting_at = setting_at or (lambda t_s: setup.setting)
        self.setting = self.setting_at(0.0)
        self.preferred_cap = preferred_cap_yd
        self.intents = dict(setup.intents)
        self.battle = engine.begin(setup, rng)
        # The land the battle is fought beside (None: open water all round) is the helm's to keep clear of.
        self.helm = Helm(setup, self.rules, preferred_range_yd, preferred_cap_yd, sea_room)
        self.ships = {c.name: c.ship for c in setup.combatants}
        self.coal_t = {c.name: 0.0 for c in setup.combatants}
        self.events: list[TickEvent] = []
        self.frames: list[Frame] = []
        self.keep_frames = keep_frames
        self.keep_paths = keep_paths
        self.paths: list[tuple[float, dict[str, list[tuple[float, float, float]]]]] = []  # (t_s, sub-step poses)
        self.broke_off: list[str] = []
        self.last_fire_s = 0.0
        self.last_strike_s = -float("inf")
        self.nearest: deque[tuple[float, float]] = deque()  # (t_s, nearest hostile range) while a side runs
        self.reason: str | None = None
        self._views = self.battle.views()  # the ships as they are now: unchanged until the next step
        self._frame(self._views)
        self.reason = self._over(self._views)

    @property
    def t_s(self) -> float:
        return float(self.battle.t_s)

    def _frame(self, views) -> None:
        if self.keep_frames:
            self.frames.append(Frame(self.t_s, tuple(
                (v.name, round(v.x_yd, 1), round(v.y_yd, 1), round(v.course_deg, 1), round(v.speed_kn, 2), v.afloat)
                for v in views)))

    def advance(self) -> float | None:
        """Play one tick; return its length in seconds, or None if the battle is over (see ``reason``)."""
        if self.reason is not None:
            return None
        dt = float(self.battle.next_tick_s())
        self.setting = self.setting_at(self.t_s)
        cap = self.rules.visibility_fraction * self.setting.visibility_yd
        command = self.battle.command() if hasattr(self.battle, "command") else Command()
        t0 = self.t_s
        new = self.helm.plan(t0, self._views, self.intents, command, cap)
        new += self.battle.step(self.helm, self.setting)
        if self.keep_paths:
            self.paths.append((t0, dict(getattr(self.battle, "paths", {}))))
        settled = self.battle.settled()
        views = self._views = self.battle.views()
        for v in views:
            if v.afloat:
                # Going astern burns as going ahead at that speed.
                self.coal_t[v.name] += float(self.ships[v.name].consumption.t_per_h(abs(v.speed_kn))) * dt / 3600.0
        if any(e.type == "fire" for e in new):
            self.last_fire_s = self.t_s
        if any(_strikes(e) for e in new):
            self.last_strike_s = self.t_s
        self.events.extend(new)
        if settled is not None:
            self.events.extend(settled)
            self.reason = "settled"
        self._frame(views)
        if self.reason is None:
            self._maybe_break_off(views)
            self.reason = self._over(views)
        return dt

    def _maybe_break_off(self, views) -> None:
        """A side that means to fight turns away once it is outmatched (data/tactics/helm.yaml)."""
        value = side_values(views)
        for side, intent in list(self.intents.items()):
            if intent != "engage" or side not in value:
                continue
            if outmatched(value, side, self.rules.break_off_ratio):
                enemy = sum(x for s, x in value.items() if s != side)
                self.intents[side] = "break_off"
                self.broke_off.append(side)
                lead = next((v.name for v in views if v.afloat and v.side == side), side)
                self.events.append(TickEvent(self.t_s, "break_off", lead, None, MappingProxyType(
                    {"side": side, "fighting_value": round(value[side], 3), "enemy_value": round(enemy, 3)})))

    def _over(self, views) -> str | None:
        afloat = [v for v in views if v.afloat]
        sides = {v.side for v in afloat}
        allowed = getattr(self.battle, "driver_ends", None)

        def ends(reason: str) -> bool:
            return allowed is None or reason in allowed

        if len(sides) < len(self.setup.sides()) and ends("destroyed"):
            return "destroyed"
        own = self.battle.ended() if hasattr(self.battle, "ended") else None
        if own is not None:
            return own
        if self.setting.light == "dark" and not self.setting.night_action and ends("darkness"):
            return "darkness"
        nearest = min((float(range_yd(a.x_yd, a.y_yd, b.x_yd, b.y_yd))
                       for i, a in enumerate(afloat) for b in afloat[i + 1:] if a.side != b.side),
                      default=float("inf"))
        if nearest > self.setting.visibility_yd and ends("separated"):
            return "separated"
        longest = max((v.gun_range_yd for v in afloat if v.can_fire), default=0.0)
        if nearest > longest and self.t_s - self.last_fire_s >= self.rules.no_fire_min * 60.0 and ends("out_of_range"):
            return "out_of_range"
        if "break_off" in self.intents.values() and ends("drawn_off"):
            near = self.nearest
            near.append((self.t_s, nearest))
            start = self.t_s - self.rules.drawn_off_min * 60.0
            # Keep one entry at or before the window's start: the range the chasers had then.
            while len(near) > 1 and near[1][0] <= start:
                near.popleft()
            quiet = self.t_s - self.last_strike_s > self.rules.drawn_off_quiet_min * 60.0
            if near[0][0] <= start and nearest > near[0][1] - self.rules.drawn_off_gain_yd and quiet:
                return "drawn_off"
        if self.t_s >= self.rules.max_duration_h * 3600.0:
            return "time"
        return None

    def outcome(self) -> BattleOutcome:
        views = self.battle.views()
        return BattleOutcome(
            engine=self.engine.name, reason=self.reason or "unfinished", duration_s=self.t_s,
            events=tuple(self.events), frames=tuple(self.frames),
            conditions=MappingProxyType({c.name: self.battle.condition(c.name) for c in self.setup.combatants}),
            final=MappingProxyType({v.name: v for v in views}),
            coal_t=MappingProxyType({k: round(v, 3) for k, v in self.coal_t.items()}),
            broke_off=tuple(self.broke_off), intents=MappingProxyType(dict(self.intents)))


def _strikes(e: TickEvent) -> bool:
    """Whether a tick event is a shot, torpedo or ram that struck (for ``drawn_off``)."""
    if e.type in ("hit", "ram"):
        return e.data.get("cause") != "settlement"
    return e.type == "torpedo" and e.data.get("result") not in (None, "miss")


def track_columns(frames: tuple[Frame, ...]) -> dict:
    """The frames as columns for a record or a file: ``names``, ``t_s`` and per ship (in ``names``
    order) lists of ``x_yd``, ``y_yd``, ``course_deg``, ``speed_kn`` and ``afloat``."""
    if not frames:
        return {"names": [], "t_s": [], "x_yd": [], "y_yd": [], "course_deg": [], "speed_kn": [], "afloat": []}
    names = [row[0] for row in frames[0].ships]
    cols = {k: [[] for _ in names] for k in ("x_yd", "y_yd", "course_deg", "speed_kn", "afloat")}
    for fr in frames:
        for i, (_, x, y, c, v, a) in enumerate(fr.ships):
            cols["x_yd"][i].append(x)
            cols["y_yd"][i].append(y)
            cols["course_deg"][i].append(c)
            cols["speed_kn"][i].append(v)
            cols["afloat"][i].append(bool(a))
    return {"names": names, "t_s": [round(fr.t_s, 1) for fr in frames], **cols}


def fight(engine: Engine, setup: BattleSetup, rng: np.random.Generator, **kw) -> BattleOutcome:
    """Fight a battle straight through (no SimPy): for duels, tests and benchmarks."""
    run = BattleRun(engine, setup, rng, **kw)
    while run.advance() is not None:
        pass
    return run.outcome()
