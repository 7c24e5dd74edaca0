"""The shape of a scenario file, validated with pydantic.

This checks form (fields, types, ranges); ``campaign.scenario.loader`` then checks meaning (ships and
places exist, starts are at sea or in port, order times fall inside the scenario) and resolves names.

A scenario file::

    name: goeben_1914                 # also the default output folder name
    title: ...
    start: 1914-08-02T09:00Z          # UTC
    end: 1914-08-12T21:00Z
    seed: 1914                        # optional; the command line's --seed wins
    sides:
      Central Powers: {nations: [Germany]}
      Entente: {nations: [United Kingdom, France]}
    neutral_notices:                  # optional
      - {port: Messina, nation: Germany, at: 1914-08-05T16:00Z}
    forces:
      - name: Goeben
        side: Central Powers
        ships: [Goeben]
        start: Messina                # a place, or {lat: .., lon: ..}
        coal_t: {Goeben: 2000}        # tonnes per ship (a bare number for a one-ship force)
        orders:
          - {do: sail, to: Philippeville, speed: 16, at: 1914-08-03T00:00Z}
          - {do: coal, until: full}

Optional sections — politics, weather, command, messages — are described with examples in
docs/scenarios.md.
"""

from __future__ import annotations

from datetime import date, datetime
from typing import Annotated, Literal, Union

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, field_validator, model_validator

# The largest seed a run's outputs can hold: tracks.nc and a batch's store keep it as a signed 64-bit
# integer (campaign/batch/seeds.py keeps replicate seeds below it too).
MAX_SEED = 2**63 - 1
# The longest scenario, from start to end: four months, a summer's campaign (the historical one is 11
# days, a replicate of it about half a second); a mistyped year (end: 9999-12-31) is refused rather
# than left to run for hours.
MAX_DURATION_DAYS = 123
NAME_PATTERN = r"^[A-Za-z0-9_-][A-Za-z0-9_.-]*$"  # a name is also a folder's: no '..', no hidden folder
NAME_MAX_CHARS = 100
EXAMPLE_TIME = "1914-08-04T23:00Z"


def _utc_time(v: object) -> object:
    """A time given with its zone, as ISO-8601 text or a YAML timestamp; a fault in words otherwise.
    pydantic would read a bare number as seconds since 1970 and a time without a zone as local time."""
    # ValueError, not TypeError: pydantic reports a validator's ValueError as the field's fault.
    if isinstance(v, (int, float)) and not isinstance(v, bool):
        raise ValueError(f"a UTC time such as {EXAMPLE_TIME} is wanted, not a number")  # noqa: TRY004
    if isinstance(v, datetime):
        if v.tzinfo is None:
            raise ValueError(f"{v.isoformat()} has no time zone: write it in UTC with a Z, such as {EXAMPLE_TIME}")
    elif isinstance(v, date):
        raise ValueError(f"{v.isoformat()} is a date without a time: write a UTC time such as "  # noqa: TRY004
                         f"{v.isoformat()}T00:00Z")
    elif isinstance(v, str):
        text = v.strip()
        try:
            parsed = datetime.fromisoformat(text[:-1] + "+00:00" if text.endswith("Z") else text)
        except ValueError:
            raise ValueError(f"'{v}' is not a UTC time such as {EXAMPLE_TIME}") from None
        if parsed.tzinfo is None:
            raise ValueError(f"'{v}' has no time zone: write it in UTC with a Z, such as {EXAMPLE_TIME}")
    return v


UtcTime = Annotated[datetime | str, BeforeValidator(_utc_time)]


MAX_SPEED_KN = 40.0  # no ship of 1914 made more; the world caps an order at the ship's own speeds
MAX_BELT_NM = 50.0  # a territorial belt's width at most: eight times the 6 miles Italy claimed in 1914
MAX_COAL_T = 100_000.0  # coal in one order: far beyond any bunker or collier's cargo (data/ships.yaml)
# A report every quarter of an hour at most: enciphering and deciphering a wireless message took longer
# (Magdeburg's staff, 12 minutes to decipher one: data/wireless.yaml), and an interval near nothing
# would fill a run with reports.
MIN_REPORT_EVERY_H = 0.25


class _Strict(BaseModel):
    # NaN and infinities are refused by name: no field of a scenario can mean them.
    model_config = ConfigDict(extra="forbid", frozen=True, allow_inf_nan=False)


class LatLon(_Strict):
    lat: float = Field(ge=-90, le=90)
    lon: float = Field(ge=-180, le=180)
    name: str | None = None


Where = Union[str, LatLon]


class SailOrder(_Strict):
    do: Literal["sail"]
    to: Where
    speed: float | Literal["design", "sustained", "economical"] = "economical"  # knots, at most MAX_SPEED_KN
    via: list[Where] = []
    at: UtcTime | None = None
    until: UtcTime | None = None
    note: str | None = None

    @field_validator("speed")
    @classmethod
    def _positive(cls, v):
        if isinstance(v, (int, float)) and not 0 < v <= MAX_SPEED_KN:
            raise ValueError(f"speed must be positive knots, at most {MAX_SPEED_KN:g} (or design, sustained or "
                             f"economical), not {v:g}")
        return v


class WaitOrder(_Strict):
    do: Literal["wait"]
    until: UtcTime
    at: UtcTime | None = None
    note: str | None = None


class CoalOrder(_Strict):
    do: Literal["coal"]
    until: Literal["full"] | UtcTime = "full"
    max_t: float | None = Field(default=None, gt=0, le=MAX_COAL_T)
    hours: float | None = Field(default=None, gt=0, le=MAX_DURATION_DAYS * 24)
    at: UtcTime | None = None
    note: str | None = None


class CoalFromCollierOrder(_Strict):
    do: Literal["coal_from_collier"]
    collier: str
    until: Literal["full"] | UtcTime = "full"
    max_t: float | None = Field(default=None, gt=0, le=MAX_COAL_T)
    hours: float | None = Field(default=None, gt=0, le=MAX_DURATION_DAYS * 24)
    at: UtcTime | None = None
    note: str | None = None


class DetachOrder(_Strict):
    do: Literal["detach"]
    name: str = Field(min_length=1)
    ships: list[str] = Field(min_length=1)
    orders: list[OrderSpec] = []
    at: UtcTime | None = None
    note: str | None = None


class StopOrder(_Strict):
    do: Literal["stop"]
    at: UtcTime | None = None
    note: str | None = None


class BombardOrder(_Strict):
    """Shell a town (a place of data/places.yaml) until a time or for some hours (seed 000, 'Shelling
    a Town')."""

    do: Literal["bombard"]
    town: str = Field(min_length=1)
    until: UtcTime | None = None
    hours: float | None = Field(default=None, gt=0, le=MAX_DURATION_DAYS * 24)
    at: UtcTime | None = None
    note: str | None = None

    @model_validator(mode="after")
    def _ends(self) -> BombardOrder:
        if self.until is None and self.hours is None:
            raise ValueError("give until (a UTC time) or hours: when the shelling stops")
        return self


OrderSpec = Annotated[
    SailOrder | WaitOrder | CoalOrder | CoalFromCollierOrder | DetachOrder | BombardOrder | StopOrder,
    Field(discriminator="do"),
]
DetachOrder.model_rebuild()


class AvoidWaters(_Strict):
    sovereign: str
    width_nm: float = Field(gt=0, le=MAX_BELT_NM)
    note: str | None = None


class ForceModel(_Strict):
    name: str = Field(min_length=1)
    side: str
    nation: str | None = None  # defaults to the nation of its first ship
    ships: list[str] = Field(min_length=1)
    start: Where
    # When the force comes into the theatre at ``start`` (a reinforcement from outside it, seed 000
    # 'What If?'); before then it is not in the run. Default: there from the scenario's start.
    enters: UtcTime | None = None
    coal_t: float | dict[str, float] | None = None  # default: full bunkers
    cargo_t: float | dict[str, float] | None = None  # colliers: default their full cargo
    avoid_waters: list[AvoidWaters] = []
    orders: list[OrderSpec] = []
    note: str | None = None


class SideModel(_Strict):
    nations: list[str] = Field(min_length=1)
    neutral: bool = False  # a neutral power with forces of its own (Italy in August 1914)
    note: str | None = None


class NeutralNoticeModel(_Strict):
    port: str
    nation: str
    at: UtcTime
    note: str | None = None


class LocalTime(_Strict):
    name: str
    offset_h: float = Field(ge=-12, le=14)
    note: str | None = None


class FireModel(_Strict):
    # "target", not "on": YAML 1.1 reads a bare `on:` key as the boolean true.
    by: str
    target: str


class FireOnAttackModel(_Strict):
    """Leave to fire on ``target`` once it attacks ``protecting``'s ships of ``ship_types`` (seed 000)."""

    by: str
    target: str
    protecting: str
    ship_types: list[str] = Field(default_factory=lambda: ["transport"], min_length=1)


class WatersModel(_Strict):
    who: list[str] = Field(min_length=1)
    sovereign: str
    width_nm: float | None = Field(default=None, gt=0, le=MAX_BELT_NM)


class PermitModel(_Strict):
    who: list[str] = Field(min_length=1)
    what: str


POLITICAL_KINDS = ("war", "peace", "fire", "hold_fire", "keep_out", "allow_in", "permit", "forbid",
                   "fire_on_attack")


class PoliticalEventModel(_Strict):
    """One line of the political timeline; exactly one of the kinds is given. ``id`` names it for
    what-if overlays (campaign/scenario/overlay.py)."""

    id: str | None = None
    at: UtcTime
    war: list[str] | None = Field(default=None, min_length=2, max_length=2)
    peace: list[str] | None = Field(default=None, min_length=2, max_length=2)
    fire: FireModel | None = None
    hold_fire: FireModel | None = None
    keep_out: WatersModel | None = None
    allow_in: WatersModel | None = None
    permit: PermitModel | None = None
    forbid: PermitModel | None = None
    fire_on_attack: FireOnAttackModel | None = None
    note: str | None = None

    @model_validator(mode="after")
    def _one_kind(self) -> PoliticalEventModel:
        given = [k for k in POLITICAL_KINDS if getattr(self, k) is not None]
        if len(given) != 1:
            raise ValueError("give exactly one of " + ", ".join(POLITICAL_KINDS)
                             + (f" (found {', '.join(given)})" if given else ""))
        if self.keep_out is not None and self.keep_out.width_nm is None:
            raise ValueError("keep_out needs width_nm")
        return self

    @property
    def kind(self) -> str:
        return next(k for k in POLITICAL_KINDS if getattr(self, k) is not None)


class WeatherModel(_Strict):
    """The scenario's weather: stochastic (data/weather.yaml) except where a script says otherwise.

    ``script_file`` names a file of scripted periods (in data/, or relative to the scenario file);
    ``script`` lists periods inline (after the file's). See data/weather_1914.yaml for the fields."""

    script_file: str | None = None
    script: list[dict] = []


class HeadquartersModel(_Strict):
    """A command that is not a force: an admiralty ashore at a telegraph station, or an admiral aboard
    one of his forces."""

    name: str = Field(min_length=1)
    side: str
    nation: str
    station: str | None = None
    aboard: str | None = None
    superior: str | None = None
    relay_to: list[str] = []  # where it passes on the reports it receives
    # Places it overlooks from ashore (a consul, a signal station): it telegraphs to its superior the
    # arrival there of an enemy force.
    overlooks: list[str] = []
    note: str | None = None


class StandingModel(_Strict):
    on_contact: Literal["report", "shadow", "chase", "evade", "engage"] = "report"
    mission: Literal["script", "patrol", "guard", "intercept", "escort", "return", "plan"] = "script"
    report_to: str | None = None
    patrol: list[Where] = []
    guard: Where | None = None
    intercept: str | None = None
    escort: str | None = None
    base: str | None = None
    station: list[Where] = []  # where he patrols (round its points) when his orders are done
    coal_low: float | None = Field(default=None, gt=0, lt=1)
    report_every_h: float = Field(default=2.0, ge=MIN_REPORT_EVERY_H, le=MAX_DURATION_DAYS * 24)
    resume_after_h: float = Field(default=3.0, ge=0, le=MAX_DURATION_DAYS * 24)
    may_fire: bool = False  # whether he believes he may open fire (rules of engagement, by message)
    # Per enemy nation, whether he believes he may fire on it, overriding may_fire for that nation (the
    # Admiralty's mistaken 'Commence hostilities against Austria' of 8 Aug 1914). In a message's
    # standing, these are merged into the force's present ones.
    fire_on: dict[str, bool] = {}
    jam: bool = False  # jam the enemy's wireless while he is in sight
    # Told not to be brought to action by a superior force (the Admiralty to Milne, 30 July 1914): told
    # only to report, he evades a contact he recognises as outranking his own ships (seed 000's ranks).
    avoid_superior: bool = False
    # mission: plan: his plan (data/doctrine/<plan>.yaml), the objective he is ordered to (a name in it) and
    # the waters he has leave to enter (campaign/command/objective.py).
    plan: str | None = Field(default=None, pattern=r"^[A-Za-z0-9_-]+$")  # a name, not a path: data/doctrine/ only
    objective: str | None = None
    may_enter: list[str] = []
    note: str | None = None


class CommandModel(_Strict):
    headquarters: list[HeadquartersModel] = []
    standing: dict[str, StandingModel] = {}


class MessageModel(_Strict):
    """A historical message, sent at its time; its orders take effect when it reaches the force.

    ``to`` is one command or a list (a general message: one copy to each). ``orders`` and ``standing``
    (new standing instructions: only the fields given change) are for the force or forces
    ``orders_for``; without it, for each receiver that is a force. A headquarters that receives orders
    for other forces passes them on to each. ``id`` names it for what-if overlays.
    """

    id: str | None = None
    at: UtcTime
    sender: str = Field(alias="from")
    to: str | list[str]
    text: str
    orders_for: str | list[str] | None = None
    orders: list[OrderSpec] = []
    standing: StandingModel | None = None
    note: str | None = None


class TacticsModel(_Strict):
    """How the scenario's battles are fought: ``engine`` one of nwc1905 (NWC 1905 fleet game, seed 002),
    jane (Jane's game, seed 004) or board (the 1914 board game's combat table, seed 000); ``damage`` how
    their hits do damage, own (the engine's rules) or gwas (Great War at Sea's damage model,
    campaign.tactics.gwas), absent for each engine's default (the board's gwas, the others' own). The
    command line's ``--engine`` and ``--damage`` override them for one run."""

    engine: Literal["nwc1905", "jane", "board"] = "nwc1905"
    damage: Literal["own", "gwas"] | None = None


class ShipSpeedChange(_Strict):
    design: float | None = Field(default=None, gt=0, le=40)
    sustained: float | None = Field(default=None, gt=0, le=40)
    economical: float | None = Field(default=None, gt=0, le=40)


class ShipChangeModel(_Strict):
    """A scenario's change to one ship's data (data/ships.yaml) for this scenario only: a what-if such
    as 'Goeben with Moltke's endurance'. ``note`` says why and on what source; it is required."""

    speed_kn: ShipSpeedChange | None = None
    coal_capacity_t: float | None = Field(default=None, gt=0)
    # Her boilers' coal per unit of steam relative to her calibrated curve (data/ships.yaml,
    # consumption.condition_factor): 1.0 is the class's published endurance.
    consumption_factor: float | None = Field(default=None, gt=0, le=3)
    note: str = Field(min_length=1)


class ScoringModel(_Strict):
    """How the run is scored: ``seed000`` = the victory conditions and points of the 1914 board game
    (data/scoring.yaml)."""

    rules: Literal["seed000"] = "seed000"


class FactorsModel(_Strict):
    """Multipliers on whole rule tables, for sensitivity studies (campaign.scenario.model.Factors): 1.0
    is the rules as sourced. ``sighting_range`` scales every sighting range (data/sighting.yaml);
    ``telegraph_delay`` every telegraph delay (data/telegraph.yaml)."""

    sighting_range: float = Field(default=1.0, gt=0, le=10)
    telegraph_delay: float = Field(default=1.0, gt=0, le=10)
    note: str | None = None


class ScenarioModel(_Strict):
    name: str = Field(pattern=NAME_PATTERN, max_length=NAME_MAX_CHARS)
    title: str = ""
    description: str = ""
    start: UtcTime
    end: UtcTime
    seed: int | None = Field(default=None, ge=0, le=MAX_SEED)
    local_time: LocalTime | None = None
    sides: dict[str, SideModel] = Field(min_length=1)
    neutral_notices: list[NeutralNoticeModel] = []
    politics: list[PoliticalEventModel] = []
    weather: WeatherModel = WeatherModel()
    command: CommandModel = CommandModel()
    tactics: TacticsModel = TacticsModel()
    messages: list[MessageModel] = []
    forces: list[ForceModel] = Field(min_length=1)
    sources: list[str] = []
    ship_changes: dict[str, ShipChangeModel] = {}
    scoring: ScoringModel | None = None
    factors: FactorsModel = FactorsModel()
