"""What every tactical engine takes and gives (DESIGN.md section 5: "one protocol, several rule sets").

A battle is fought on a local plane in yards (x east, y north; the world projects it with a pyproj
azimuthal-equidistant projection centred on the fight). Courses are degrees clockwise from north.

The world hands an engine a ``BattleSetup``: the ships (``Combatant``) with their positions, courses,
speeds, the most they can make now and the damage they carry from earlier fights (``Condition``),
the setting (light, sea state, visibility) and each side's intent. The engine keeps its own state
(its rules' bookkeeping: points received, penetrations, hit boxes) and, tick by tick, takes the helm
orders of ``campaign.tactics.helm`` (desired course and speed per ship), moves the ships within its
rules' limits, fires, and returns what happened as ``TickEvent``s. At the end ``condition`` maps its
bookkeeping back onto the common ``Condition`` so that the next battle, under any engine, starts from
the same damage and the same rounds left.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Protocol

import numpy as np

from campaign.model.ships import Ship, require_known_armour

LIGHTS = ("day", "twilight", "moonlit", "dark")
# The world's light states (campaign.world.light.STATES: from the sun and moon) in the rules' words: its
# two night states are the rules' moonlit and dark (Jane's night shifts, the 1905 rules' darkness).
WORLD_LIGHTS = MappingProxyType({"day": "day", "twilight": "twilight", "moonlit_night": "moonlit",
                                 "dark_night": "dark"})
INTENTS = ("engage", "break_off")
EVENT_TYPES = ("fire", "hit", "torpedo", "ram", "collision", "sunk", "break_off", "signal", "admiral_disabled")


@dataclass(frozen=True)
class Condition:
    """A ship's battle damage in terms every engine can read and write.

    ``damage`` is the fraction of what it takes to sink her (0 undamaged, 1 sunk): NWC 1905 points
    received over fighting endurance, Jane penetrations over her sinking number, board hits over her
    hit boxes. ``gunnery`` is the fraction of her offensive power left (1 full, 0 cannot fire).
    ``speed_lost_kn`` is what damage takes off the most she can make. ``fast_speed_lost`` is the board
    game's "-FS" (she can no longer make her fast chase speed). ``torpedoes_fired`` counts tubes
    emptied. ``waterlogged`` is Jane's state of a large ship torpedoed but afloat. ``rounds_left`` is her
    ammunition: the rounds left per gun group, in the order of ``Ship.guns`` (all the group's barrels
    together), ``None`` for her full outfit (``campaign.tactics.ammunition``).
    """

    damage: float = 0.0
    gunnery: float = 1.0
    speed_lost_kn: float = 0.0
    fast_speed_lost: bool = False
    sunk: bool = False
    waterlogged: bool = False
    torpedoes_fired: int = 0
    rounds_left: tuple[int, ...] | None = None


@dataclass(frozen=True)
class Combatant:
    """One ship as she enters a battle.

    ``unit`` is the strategic force she belongs to; ``max_speed_kn`` the most she can make now (her
    sustained speed less damage and weather); ``fast_speed_kn`` the board game's fast chase speed
    (seed 000 "Fast Chase Speed"), None if she has none; ``flagship`` marks the admiral's ship.
    """

    ship: Ship
    unit: str
    side: str
    x_yd: float
    y_yd: float
    course_deg: float
    speed_kn: float
    max_speed_kn: float
    fast_speed_kn: float | None = None
    condition: Condition = Condition()
    flagship: bool = False

    @property
    def name(self) -> str:
        return self.ship.name


def off_bearing_deg(a_deg: float, b_deg: float) -> float:
    """The angle between two true bearings, degrees in [0, 180] (the same either way round)."""
    d = abs(a_deg - b_deg) % 360.0
    return 360.0 - d if d > 180.0 else d


@dataclass(frozen=True)
class LightDirection:
    """Where the light comes from at the fight now: the sun's true azimuth and geometric altitude
    (degrees, of its centre; below 0 under the horizon), from ephem at the fight's place and time
    (``campaign.world.battle_light``). In twilight the sky is bright on the sun's side: a ship whose
    bearing lies within ``bright_sky_half_angle_deg`` of the sun's azimuth stands against the bright
    sky and is seen ``bright_sky_visibility_yd`` off, one against the dark rest ``dark_sky_visibility_yd``
    (the world's sighting ranges, data/sighting.yaml ``twilight_by_direction``); both None outside
    twilight. Engines whose rules know the sun read the rest (Jane: ``jane_rulebook.light_shift_yd``)."""

    sun_azimuth_deg: float
    sun_altitude_deg: float
    bright_sky_half_angle_deg: float = 90.0
    bright_sky_visibility_yd: float | None = None
    dark_sky_visibility_yd: float | None = None

    def __post_init__(self) -> None:
        if (self.bright_sky_visibility_yd is None) != (self.dark_sky_visibility_yd is None):
            raise ValueError("give both the bright and the dark sky's visibility, or neither")
        if not 0.0 <= self.bright_sky_half_angle_deg <= 180.0:
            raise ValueError("bright_sky_half_angle_deg is an angle off the sun's azimuth, 0..180")

    def off_sun_deg(self, bearing_deg: float) -> float:
        """The angle between a true bearing and the sun's azimuth, degrees in [0, 180]."""
        return off_bearing_deg(bearing_deg, self.sun_azimuth_deg)

    def sun_off_sight_deg(self, bearing_deg: float) -> float:
        """The angle between the sun and a line of sight along the horizon on ``bearing_deg`` (degrees,
        0..180): the sun's angular distance from the point of the horizon looked at."""
        c = (math.cos(math.radians(self.sun_altitude_deg))
             * math.cos(math.radians(self.off_sun_deg(bearing_deg))))
        return math.degrees(math.acos(max(-1.0, min(1.0, c))))

    def against_bright_sky(self, bearing_deg: float) -> bool:
        """Whether a ship on this bearing stands against the sun's side of the sky."""
        return self.off_sun_deg(bearing_deg) <= self.bright_sky_half_angle_deg


@dataclass(frozen=True)
class Setting:
    """The conditions of the fight: ``light`` one of LIGHTS, ``sea_state`` on Jane's 0-9 scale,
    ``visibility_yd`` how far a ship can be seen (the world's sighting range for the light and
    weather), ``night_action`` whether the rules let the fight go on in the dark, ``light_direction``
    where the light comes from (None: nowhere in particular, no directional effect)."""

    light: str = "day"
    sea_state: int = 2
    visibility_yd: float = 20000.0
    night_action: bool = False
    light_direction: LightDirection | None = None

    def __post_init__(self) -> None:
        # A light the rules do not name would silently count as none of theirs (no night shift, no
        # darkness): once the world's "dark_night" reached the engines so, and night never fell in battle.
        if self.light not in LIGHTS:
            raise ValueError(f"light {self.light!r} is not one of the rules' {', '.join(LIGHTS)} "
                             "(tactical_light converts the world's)")

    @property
    def directional_visibility(self) -> bool:
        """Whether how far a ship is seen depends on her bearing (twilight with its direction known)."""
        d = self.light_direction
        return d is not None and d.bright_sky_visibility_yd is not None

    def visibility_toward_yd(self, bearing_deg: float) -> float:
        """How far a ship on this true bearing from the observer is seen: in twilight farther against the
        bright sky than against the dark (``LightDirection``), else ``visibility_yd`` every way."""
        d = self.light_direction
        if d is None or d.bright_sky_visibility_yd is None or d.dark_sky_visibility_yd is None:
            return self.visibility_yd
        return d.bright_sky_visibility_yd if d.against_bright_sky(bearing_deg) else d.dark_sky_visibility_yd

    def farthest_visibility_yd(self) -> float:
        """The farthest a ship is seen on any bearing."""
        d = self.light_direction
        if d is None or d.bright_sky_visibility_yd is None or d.dark_sky_visibility_yd is None:
            return self.visibility_yd
        return max(d.bright_sky_visibility_yd, d.dark_sky_visibility_yd)


def tactical_light(world_light: str) -> str:
    """The rules' light (one of LIGHTS) for one of the world's light states (campaign.world.light)."""
    try:
        return WORLD_LIGHTS[world_light]
    except KeyError:
        raise ValueError(f"unknown light state {world_light!r} (known: {', '.join(WORLD_LIGHTS)})") from None


@dataclass(frozen=True)
class BattleSetup:
    """Everything an engine needs to begin: the ships, the setting and each side's intent
    (``intents[side]`` one of INTENTS)."""

    combatants: tuple[Combatant, ...]
    setting: Setting
    intents: Mapping[str, str]

    def __post_init__(self) -> None:
        # Every engine starts here: a part of unknown armour would be read as none (never a silent guess).
        require_known_armour(c.ship for c in self.combatants)

    def sides(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(c.side for c in self.combatants))


@dataclass(frozen=True)
class ShipView:
    """What the helm and the driver may read of a ship in battle (all in yards, degrees, knots)."""

    name: str
    side: str
    unit: str
    x_yd: float
    y_yd: float
    course_deg: float
    speed_kn: float
    max_speed_kn: float
    afloat: bool
    can_fire: bool
    gun_range_yd: float
    fighting_value: float  # the engine's measure of her remaining strength, comparable within an engine


@dataclass(frozen=True)
class HelmOrder:
    """The course (deg) and speed (kn) the helm wants of a ship now; the engine turns and changes
    speed towards them at its rules' rates. ``ram_target`` names the enemy she is steering to ram, if
    any (a meeting with her is then a ram, not a collision)."""

    course_deg: float
    speed_kn: float
    ram_target: str | None = None


@dataclass(frozen=True)
class Command:
    """How an engine's rules let an admiral command his squadron now (the helm reads it every tick).

    ``signal_delay_s``: a signal (a turn together, a change of speed) is executed this long after it is
    hoisted. ``column_head_free``: a column led by its flagship alters course in succession without a
    signal (seed 002 l.31). ``reserve_fraction``: the fleet speed keeps this reserve over the slowest
    ship's best, for station keeping (seed 002 l.29); ``reserve_for_all`` applies it to ships alone and to
    chases and flights too (the 1905 fleet game: "each vessel of the fleet"), else only to a squadron
    keeping station while it fights. ``formations``: False when every ship is handled by her own captain
    (the 1905 melee, seed 002 l.59). ``ram``: whether the rules know ramming."""

    signal_delay_s: float = 0.0
    column_head_free: bool = True
    reserve_fraction: float = 0.0
    reserve_for_all: bool = False
    formations: bool = True
    ram: bool = False


@dataclass(frozen=True)
class TickEvent:
    """Something that happened in a tick. ``type`` one of EVENT_TYPES; ``ship`` the actor (the firer,
    the ship hit, the ship sunk); ``target`` the other ship where there is one (for a hit or a sinking:
    the firer; the world's records call it ``by``); ``data`` the rest
    (``range_yd``, ``calibre_mm``, ``points``, ``hits``, ``damage``, ``roll``...)."""

    t_s: float
    type: str
    ship: str
    target: str | None = None
    data: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))


class Engine(Protocol):
    """A tactical rule set. An engine object is reusable: ``begin`` returns a fresh battle."""

    name: str

    def begin(self, setup: BattleSetup, rng: np.random.Generator) -> Battle:
        """Set up a battle from ``setup``; all its randomness comes from ``rng``."""
        ...


class Battle(Protocol):
    """One battle in progress under an engine's rules."""

    t_s: float  # seconds since the battle began

    def next_tick_s(self) -> float:
        """Length of the next tick in seconds (the rules' move: 150 s NWC fleet game, 30 s duel game,
        60 s Jane); may change as the ships close."""
        ...

    def views(self) -> Sequence[ShipView]:
        """Every ship, afloat or not, as the helm may see her now."""
        ...

    def step(self, helm: Mapping[str, HelmOrder], setting: Setting) -> list[TickEvent]:
        """Play one tick: move the ships towards their helm orders within the rules, fire, torpedo,
        take damage; advance ``t_s``; return what happened in time order."""
        ...

    def condition(self, name: str) -> Condition:
        """The ship's damage now, in the common terms."""
        ...

    def settled(self) -> list[TickEvent] | None:
        """An umpire's settlement that ends the battle at once (NWC 1905 minor contacts), or None."""
        ...
