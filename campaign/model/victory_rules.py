"""Victory conditions and the measures' definitions, as typed data: ``data/scoring.yaml``.

Plain data, no SimPy. ``campaign.world.victory`` reads the secret die rolls (``draws``) to make them during
a run; ``campaign.output.scoring`` reads the charts, the advanced game's additional points and the
definitions (what counts as entering the Dardanelles, leaving the Mediterranean, a friendly port, a
delivered division, a town of the North African coast) to score a run and measure it from its records.

Every figure carries its source in the file; the chart values are labelled stand-ins there (the seed's
charts lost their numbers in our copy).
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from functools import cache
from pathlib import Path
from typing import Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from campaign.datafile import load_yaml
from campaign.paths import DATA_DIR

SCORING_FILE = DATA_DIR / "scoring.yaml"

CountKind = Literal["sunk", "exit_west", "entered_dardanelles", "shelled_town", "divisions_delivered",
                    "kept_out_of_dardanelles"]


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Draw(_Frozen):
    """A secret die roll that chooses a side's column of its chart: ``faces`` equally likely numbers,
    drawn at ``at`` (UTC)."""

    player: str
    side: str
    chart: str
    at: datetime
    faces: int = Field(ge=1)
    source: str

    @field_validator("at")
    @classmethod
    def _utc(cls, v: datetime) -> datetime:
        if v.tzinfo is None:
            raise ValueError("needs a time zone (write it in UTC, e.g. 1914-08-03T15:00Z)")
        return v


class RowCount(_Frozen):
    """What a chart row counts: ``kind`` and the filters that kind uses (empty = any)."""

    kind: CountKind
    nations: tuple[str, ...] = ()
    types: tuple[str, ...] = ()
    names: tuple[str, ...] = ()
    towns: str | None = None  # the name of a town list in ``definitions`` (shelled_town)
    side: str | None = None   # whose shelling counts (shelled_town)


class Row(_Frozen):
    name: str
    counts: RowCount
    points: tuple[int, ...]  # points for each thing counted, one value per column (die face 1..n)
    source: str


class Chart(_Frozen):
    player: str
    side: str
    stand_in: str | None = None
    columns: dict[int, str]
    rows: tuple[Row, ...] = Field(min_length=1)

    @model_validator(mode="after")
    def _widths(self) -> Chart:
        n = len(self.columns)
        if sorted(self.columns) != list(range(1, n + 1)):
            raise ValueError(f"columns must be numbered 1..{n}")
        for row in self.rows:
            if len(row.points) != n:
                raise ValueError(f"row '{row.name}': {len(row.points)} points for {n} columns")
        return self


class SinkPoints(_Frozen):
    """Points for sinking ships of these nations, by ship type (the advanced game's BB/B/CA)."""

    nations: tuple[str, ...]
    points_by_type: dict[str, int]
    source: str


class HomePort(_Frozen):
    nation: str
    places: tuple[str, ...] | Literal["any"]


class ShellHomePort(_Frozen):
    """Points for each ship, each time, that shells an enemy home port (advanced game)."""

    ports: tuple[HomePort, ...]
    points: int
    excluded_types: tuple[str, ...] = ()
    except_ships: tuple[str, ...] = ()
    source: str


class Additional(_Frozen):
    sink: SinkPoints
    shell_home_port: ShellHomePort


class ConsideredSunk(_Frozen):
    nations: tuple[str, ...]
    source: str


class VictoryRules(_Frozen):
    """One scoring rule set: its draws, each side's chart, the additional points and the end rule."""

    title: str
    won_on: Literal["points"]
    won_on_source: str
    draws: tuple[Draw, ...] = Field(min_length=1)
    charts: dict[str, Chart]
    additional: Additional
    considered_sunk_at_end: ConsideredSunk
    left_out: tuple[str, ...] = ()

    @model_validator(mode="after")
    def _draws_match_charts(self) -> VictoryRules:
        for d in self.draws:
            chart = self.charts.get(d.chart)
            if chart is None:
                raise ValueError(f"draw for {d.side}: no chart '{d.chart}' (charts: {', '.join(self.charts)})")
            if chart.side != d.side:
                raise ValueError(f"draw for {d.side}: chart '{d.chart}' is the {chart.side}'s")
            if len(chart.columns) != d.faces:
                raise ValueError(f"chart '{d.chart}' has {len(chart.columns)} columns for a {d.faces}-faced draw")
        return self

    def draw_for(self, side: str) -> Draw | None:
        return next((d for d in self.draws if d.side == side), None)


class Dardanelles(_Frozen):
    places: tuple[str, ...]
    restricted_water: str
    source: str


class WestExit(_Frozen):
    lon_deg: float = Field(ge=-180, le=180)
    source: str


class Transports(_Frozen):
    nation: str
    ship_type: str
    destination: str
    deadline: datetime
    corps_divisions: float = Field(gt=0)
    divisions: dict[str, float]
    source: str


class TownList(_Frozen):
    towns: tuple[str, ...]
    source: str


class Definitions(_Frozen):
    dardanelles: Dardanelles
    west_exit: WestExit
    friendly_ports: dict[str, tuple[str, ...] | str]
    transports: Transports
    north_african_coast: TownList
    principal_ships: tuple[str, ...]

    def ports_friendly_to(self, nation: str) -> tuple[str, ...]:
        ports = self.friendly_ports.get(nation, ())
        return ports if isinstance(ports, tuple) else ()

    def town_list(self, name: str) -> tuple[str, ...]:
        lst = getattr(self, name, None)
        if not isinstance(lst, TownList):
            raise KeyError(f"data/scoring.yaml: no town list '{name}' in definitions")
        return lst.towns


class ScoringData(_Frozen):
    rules: dict[str, VictoryRules]
    definitions: Definitions


class ScoringFileError(ValueError):
    """data/scoring.yaml cannot be read; the message names the file, the field and the fault."""


def load_scoring(path: Path | str = SCORING_FILE) -> ScoringData:
    """Read and check a scoring file (``data/scoring.yaml`` by default)."""
    p = Path(path)
    try:
        raw = load_yaml(p.read_text(encoding="utf-8"))
        return ScoringData.model_validate(raw)
    except ValidationError as exc:
        faults = "; ".join(f"{'.'.join(str(x) for x in e['loc'])}: {e['msg']}" for e in exc.errors())
        raise ScoringFileError(f"{p}: {faults}") from None
    except (OSError, yaml.YAMLError) as exc:
        raise ScoringFileError(f"{p}: {exc}") from None


@cache
def default_scoring() -> ScoringData:
    return load_scoring(SCORING_FILE)


def rules_name(spec: object) -> str | None:
    """The name of a scenario's scoring rules from what a scenario or run meta carries: ``"seed000"``,
    ``{"rules": "seed000"}`` or an object with a ``rules`` attribute; None when there are none."""
    if spec is None or spec is False:
        return None
    if isinstance(spec, str):
        return spec or None
    if isinstance(spec, Mapping):
        name = spec.get("rules")
        return str(name) if name else None
    name = getattr(spec, "rules", None)
    return str(name) if name else None


def victory_rules(name: str, data: ScoringData | None = None) -> VictoryRules:
    """The rule set called ``name`` (KeyError naming the known ones when there is none)."""
    data = data or default_scoring()
    try:
        return data.rules[name]
    except KeyError:
        raise KeyError(f"data/scoring.yaml: no scoring rules '{name}' (known: {', '.join(sorted(data.rules))})") from None


def scoring_source() -> Mapping[str, str]:
    """Where the rules come from, for the summary (file and seed)."""
    return {"file": "data/scoring.yaml", "seed": "000_2e4fdd62027ce9ed.txt (The Flight of the Goeben)"}
