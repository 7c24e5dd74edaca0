"""Duels: a battle set up directly from a small file, fought many times under any engine.

A duel file (``scenarios/duels/*.yaml``) names the ships of each side, where and when they meet (the light
comes from the real sun and moon there and then, and changes as the fight goes on), the sea and the
visibility, the range and bearing between the leading ships, their courses, speeds and intents. It is
checked like a scenario file: every fault names the file and the field, and the command exits with status
2. ``fight_duel`` fights it once; ``campaign.duels.duel_odds`` fights it over many seeds and sums up;
``campaign.duels.duel_records`` writes one fight as the campaign's battle records.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any, Literal

import numpy as np
from pydantic import Field

from campaign.clock import parse_utc
from campaign.geo.land import default_land
from campaign.model.ships import default_ships, find_ship
from campaign.scenario.loader import Fault, ScenarioError, read_yaml, validate_form
from campaign.scenario.schema import NAME_MAX_CHARS, NAME_PATTERN, UtcTime, _Strict
from campaign.tactics.battle import BattleOutcome, fight
from campaign.tactics.battle_records import fight_written
from campaign.tactics.engines import get_engine
from campaign.tactics.helm import default_helm_rules
from campaign.tactics.kinematics import YD_PER_NM
from campaign.tactics.protocol import BattleSetup, Combatant, Engine, Setting, tactical_light
from campaign.tactics.zoom import default_zoom_rules

# A duel opens with the sides in sight of each other: the longest sighting of a hull on the clearest day
# (data/sighting.yaml) is well inside this; so is every gun's reach (data/guns.yaml).
MAX_RANGE_YD = 60_000.0
MAX_VISIBILITY_NM = 50.0  # beyond any sighting range of data/sighting.yaml, so the same as clear


class DuelSide(_Strict):
    name: str = Field(min_length=1)
    ships: list[str] = Field(min_length=1)
    intent: Literal["engage", "break_off"] = "engage"
    course_deg: float = Field(ge=0, lt=360)
    speed_kn: float = Field(ge=0, le=40)
    bearing_deg: float | None = Field(default=None, ge=0, lt=360)  # of this side's leader from the first side's
    preferred_range_yd: float | None = Field(default=None, gt=0, le=MAX_RANGE_YD)
    note: str | None = None


class DuelWhere(_Strict):
    lat: float = Field(ge=-90, le=90)
    lon: float = Field(ge=-180, le=180)


class DuelWeather(_Strict):
    sea_state: int = Field(default=2, ge=0, le=9)
    visibility_nm: float = Field(default=10.0, gt=0, le=MAX_VISIBILITY_NM)


class DuelRecord(_Strict):
    """What happened, or what was judged of a fight that never happened, to set the odds beside."""

    kind: Literal["fought", "judged"]  # the battle happened; or contemporaries judged how it would go
    text: str = Field(min_length=1)
    source: str = Field(min_length=1)
    favoured: str | None = None  # the side the record or the judgement favours; null: neither
    sunk: list[str] | None = None  # the ships the record has sunk (or the judgement expected); null: it says not


class DuelModel(_Strict):
    name: str = Field(pattern=NAME_PATTERN, max_length=NAME_MAX_CHARS)  # also its output folder's name
    title: str = ""
    description: str = ""
    engine: Literal["nwc1905", "jane", "board"] = "nwc1905"
    # How hits do damage: "own" (the engine's rules) or "gwas" (Great War at Sea's damage model,
    # campaign.tactics.gwas); absent: the engine's default (the board's gwas, the others' own).
    damage: Literal["own", "gwas"] | None = None
    when: UtcTime
    where: DuelWhere
    weather: DuelWeather = DuelWeather()
    range_yd: float = Field(gt=0, le=MAX_RANGE_YD)
    sides: list[DuelSide] = Field(min_length=2, max_length=2)
    history: str = ""
    record: DuelRecord | None = None
    sources: list[str] = []


@dataclass(frozen=True)
class Duel:
    """A resolved duel file."""

    name: str
    title: str
    engine: str
    when: datetime
    lat: float
    lon: float
    sea_state: int
    visibility_nm: float
    range_yd: float
    sides: tuple[DuelSide, ...]
    history: str
    path: Path | None = None
    record: DuelRecord | None = None
    damage: str | None = None  # "own", "gwas" or None (each engine's default): ``get_engine``


def load_duel(path: str | Path) -> Duel:
    """Read and check a duel file; ``ScenarioError`` names the file, field and fault of every problem."""
    path = Path(path)
    m: DuelModel = validate_form(path, read_yaml(path), DuelModel)
    faults: list[Fault] = []
    ships = default_ships()
    seen: set[str] = set()
    for i, side in enumerate(m.sides):
        for j, name in enumerate(side.ships):
            try:
                ship = find_ship(name, ships)
            except KeyError:
                faults.append(Fault(f"sides[{i}].ships[{j}]", f"no ship named '{name}' in data/ships.yaml"))
                continue
            if ship.name in seen:
                faults.append(Fault(f"sides[{i}].ships[{j}]", f"'{name}' is already in the duel"))
            seen.add(ship.name)
    try:
        when = parse_utc(m.when)
    except (TypeError, ValueError):
        faults.append(Fault("when", f"'{m.when}' is not a UTC time such as 1914-08-07T04:30Z"))
        when = None
    land = default_land()
    if land.is_land(m.where.lat, m.where.lon):
        faults.append(Fault("where", f"{m.where.lat:.4f},{m.where.lon:.4f} is on land"))
    if m.sides[0].name == m.sides[1].name:
        faults.append(Fault("sides[1].name", "the two sides need different names"))
    if m.record is not None and m.record.favoured not in (None, m.sides[0].name, m.sides[1].name):
        faults.append(Fault("record.favoured", f"'{m.record.favoured}' is not a side of the duel "
                                               f"({m.sides[0].name} or {m.sides[1].name}), nor null"))
    in_duel = {n for side in m.sides for n in side.ships}
    for k, name in enumerate((m.record.sunk or []) if m.record is not None else []):
        if name not in in_duel:
            faults.append(Fault(f"record.sunk[{k}]", f"'{name}' is not a ship of the duel"))
    if faults:
        raise ScenarioError(path, faults)
    return Duel(m.name, m.title, m.engine, when, m.where.lat, m.where.lon, m.weather.sea_state,
                m.weather.visibility_nm, m.range_yd, tuple(m.sides), m.history, path, m.record, m.damage)


def duel_setup(duel: Duel, engine: str) -> tuple[BattleSetup, dict[str, float]]:
    """The duel's ships in line ahead (``data/tactics/helm.yaml`` spacing, 400 yd: seed 002 l.31), the
    second side's leader ``range_yd`` from the first's on its bearing, and the setting at the start."""
    spacing = default_helm_rules().spacing_yd
    ships = default_ships()
    combatants: list[Combatant] = []
    preferred: dict[str, float] = {}
    for k, side in enumerate(duel.sides):
        brg = 0.0 if k == 0 else (side.bearing_deg if side.bearing_deg is not None else 90.0)
        x0 = 0.0 if k == 0 else duel.range_yd * math.sin(math.radians(brg))
        y0 = 0.0 if k == 0 else duel.range_yd * math.cos(math.radians(brg))
        back = math.radians(side.course_deg + 180.0)
        if side.preferred_range_yd is not None:
            preferred[side.name] = side.preferred_range_yd
        for i, name in enumerate(side.ships):
            ship = find_ship(name, ships)
            combatants.append(Combatant(
                ship=ship, unit=side.name, side=side.name,
                x_yd=x0 + i * spacing * math.sin(back), y_yd=y0 + i * spacing * math.cos(back),
                course_deg=side.course_deg, speed_kn=min(side.speed_kn, ship.sustained_speed_kn),
                max_speed_kn=ship.sustained_speed_kn, fast_speed_kn=ship.sustained_speed_kn, flagship=(i == 0)))
    setting = duel_setting(duel, engine, tuple(combatants))(0.0)
    return BattleSetup(tuple(combatants), setting, {s.name: s.intent for s in duel.sides}), preferred


def duel_setting(duel: Duel, engine: str, combatants: Sequence[Combatant]):
    """The setting ``t_s`` seconds into the duel: the light at the place from ephem and where it comes
    from (``campaign.world.battle_light``), the visibility as the world's sighting rules give it for the
    smallest ship's hull in that light and weather."""
    from campaign.world.battle_light import light_direction
    from campaign.world.light import light_at
    from campaign.world.sighting import default_sighting_rules

    rules = default_sighting_rules()
    night_action = default_zoom_rules().engines[engine].night_action
    factor = min(1.0, duel.visibility_nm / 10.0)  # data/weather.yaml reference: Jane's clear-day 10 nm
    ships = [c.ship for c in combatants]

    def hull_nm(light: str) -> float:
        return min(rules.ranges([s], light, factor, False)[1] for s in ships)

    def setting(t_s: float) -> Setting:
        when = duel.when + timedelta(seconds=t_s)
        light = light_at(duel.lat, duel.lon, when).state
        return Setting(tactical_light(light), duel.sea_state, hull_nm(light) * YD_PER_NM, night_action,
                       light_direction(duel.lat, duel.lon, when, light, hull_nm))

    return setting


def _battle(duel: Duel, engine: str, seed: int
            ) -> tuple[Engine, BattleSetup, np.random.Generator, dict[str, Any]]:
    """What the duel is fought with: the engine, the setup, the dice from ``seed`` and the driver's options."""
    setup, preferred = duel_setup(duel, engine)
    rng = np.random.default_rng(np.random.SeedSequence(seed).spawn(3)[2])  # the run's "combat" stream
    return get_engine(engine, duel.damage), setup, rng, {
        "setting_at": duel_setting(duel, engine, setup.combatants), "preferred_range_yd": preferred,
        "preferred_cap_yd": default_zoom_rules().engines[engine].preferred_range_cap_yd}


def fight_duel(duel: Duel, engine: str | None = None, seed: int = 0, keep_frames: bool = True) -> BattleOutcome:
    """Fight the duel once under ``engine`` (default: the file's), all dice from ``seed``."""
    eng, setup, rng, kw = _battle(duel, engine or duel.engine, seed)
    return fight(eng, setup, rng, keep_frames=keep_frames, **kw)


def fight_duel_written(duel: Duel, engine: str | None = None, seed: int = 0
                       ) -> tuple[BattleOutcome, tuple[int, ...]]:
    """``fight_duel`` (the same outcome), with the frame each event is written with
    (``campaign.tactics.battle_records.fight_written``): what its records need."""
    eng, setup, rng, kw = _battle(duel, engine or duel.engine, seed)
    return fight_written(eng, setup, rng, **kw)
