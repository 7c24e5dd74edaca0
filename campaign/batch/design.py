"""Experiment designs over scenario parameters: a full grid or a Latin hypercube, read from a small file.

A design file (YAML)::

    kind: grid                      # grid (every combination) or lhs (a Latin hypercube)
    parameters:                     # names from campaign/batch/parameters.py
      sighting_range_factor: {low: 0.8, high: 1.2, levels: 3}   # grid: levels evenly spaced, ends included
      telegraph_delay_factor: {values: [0.5, 1.0, 2.0]}          # grid: exactly these values
    # for kind: lhs
    points: 20                      # how many design points
    seed: 1                         # the sampler's seed (default 0): the same file gives the same points
    #   parameters: {goeben_sustained_kn: {low: 20, high: 24.5}}   # lhs: each spread over [low, high]

A grid's points run through every combination, the first parameter slowest. A Latin hypercube cuts each
parameter's range into ``points`` equal strata and puts one point in each, every parameter independently
permuted (McKay, Beckman and Conover 1979; ``scipy.stats.qmc.LatinHypercube``, seeded). The points are a
dimension of the batch's Dataset (``point``), with each parameter's value as a variable over it; every
point runs the same replicate seeds (common random numbers, campaign/batch/seeds.py). A design has at
most 100,000 points (``MAX_POINTS``), a grid's combinations counted as a hypercube's points.
"""

from __future__ import annotations

import itertools
import json
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

import numpy as np
from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator
from scipy.stats import qmc

from campaign.batch.parameters import ParameterError, check_value, parameter
from campaign.scenario.schema import MAX_SEED
from campaign.scenario.wording import plain
from campaign.userfile import UserFileError, read_yaml

DEFAULT_LEVELS = 3  # a grid parameter given only low and high: its two ends and the middle
# The most design points a design may have, a grid's combinations as a hypercube's points: already
# 100,000 times the replicates a variant, and what keeps a mistyped grid (three parameters of 1,000
# levels: a billion points) from filling the memory while it is expanded.
MAX_POINTS = 100_000


class DesignError(ValueError):
    """A design file that cannot be used: names the file, the field and the fault."""


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, allow_inf_nan=False)


class RangeModel(_Strict):
    low: float | None = None
    high: float | None = None
    levels: int | None = Field(default=None, ge=2, le=1000)
    values: list[float] | None = Field(default=None, min_length=1)

    @model_validator(mode="after")
    def _given(self) -> RangeModel:
        if self.values is not None:
            if self.low is not None or self.high is not None or self.levels is not None:
                raise ValueError("give either values or low and high (with levels), not both")
        elif self.low is None or self.high is None:
            raise ValueError("give low and high (or, in a grid, values)")
        elif self.high < self.low:
            raise ValueError("high must not be below low")
        return self


class DesignModel(_Strict):
    kind: Literal["grid", "lhs"]
    parameters: dict[str, RangeModel] = Field(min_length=1)
    points: int | None = Field(default=None, ge=1, le=MAX_POINTS)
    seed: int = Field(default=0, ge=0, le=MAX_SEED)


@dataclass(frozen=True)
class Design:
    """Design points: ``names`` of the parameters and ``values`` (points x parameters)."""

    kind: str
    names: tuple[str, ...]
    values: np.ndarray
    seed: int = 0

    @property
    def n_points(self) -> int:
        return int(self.values.shape[0])

    def point(self, i: int) -> dict[str, float]:
        """Design point ``i`` as {parameter: value}."""
        return {n: float(v) for n, v in zip(self.names, self.values[i])}

    def describe(self) -> str:
        """The design as JSON text (stored with the results; two batches with the same text match)."""
        return json.dumps({"kind": self.kind, "seed": self.seed, "names": list(self.names),
                           "values": self.values.tolist()})

    @classmethod
    def from_description(cls, text: str) -> Design:
        d = json.loads(text)
        return cls(d["kind"], tuple(d["names"]), np.array(d["values"], dtype=np.float64).reshape(
            len(d["values"]), len(d["names"])), int(d["seed"]))


def grid(ranges: dict[str, RangeModel]) -> Design:
    """Every combination of each parameter's values (the first parameter slowest)."""
    axes = []
    for r in ranges.values():
        if r.values is not None:
            axes.append([float(v) for v in r.values])
        else:
            axes.append(np.linspace(r.low, r.high, r.levels or DEFAULT_LEVELS).tolist())
    values = np.array(list(itertools.product(*axes)), dtype=np.float64)
    return Design("grid", tuple(ranges), values)


def latin_hypercube(ranges: dict[str, RangeModel], points: int, seed: int) -> Design:
    """``points`` points of a seeded Latin hypercube, each parameter scaled to [low, high]."""
    sampler = qmc.LatinHypercube(d=len(ranges), rng=np.random.default_rng(seed))
    unit = sampler.random(points)
    lows = np.array([r.low for r in ranges.values()], dtype=np.float64)
    highs = np.array([r.high for r in ranges.values()], dtype=np.float64)
    values = lows + unit * (highs - lows)  # qmc.scale refuses a range of zero width; this does not
    return Design("lhs", tuple(ranges), values, seed)


def load_design(path: str | Path) -> Design:
    """Read, check and expand a design file; DesignError naming the file and field on any fault."""
    path = Path(path)
    try:
        raw = read_yaml(path)  # within the limits of a user's file: size, UTF-8, no key twice
    except UserFileError as exc:
        raise DesignError(str(exc)) from None
    return parse_design(raw, str(path))


def parse_design(raw: Any, origin: str = "design") -> Design:
    """Check and expand a design's contents (a mapping as in a design file); ``origin`` names it in
    faults."""
    if not isinstance(raw, dict):
        raise DesignError(f"{origin}: the file must hold a mapping (kind, parameters, ...)")
    try:
        m = DesignModel.model_validate(raw)
    except ValidationError as exc:
        faults = []
        for err in exc.errors():
            field = ".".join(str(p) for p in err["loc"]) or "(file)"
            faults.append(f"{origin}: {field}: {plain(err)}")
        raise DesignError("\n".join(faults)) from None
    faults = []
    for name, r in m.parameters.items():
        try:
            parameter(name)
            for v in (r.values or []) + [x for x in (r.low, r.high) if x is not None]:
                check_value(name, v)
        except ParameterError as exc:
            faults.append(f"{origin}: parameters.{name}: {exc}")
        if m.kind == "lhs" and r.values is not None:
            faults.append(f"{origin}: parameters.{name}: a Latin hypercube needs low and high, not values")
    if m.kind == "lhs" and m.points is None:
        faults.append(f"{origin}: points: a Latin hypercube needs the number of points")
    if m.kind == "grid" and m.points is not None:
        faults.append(f"{origin}: points: a grid's points are every combination; give levels or values instead")
    if m.kind == "grid":
        sizes = [len(r.values) if r.values is not None else r.levels or DEFAULT_LEVELS for r in m.parameters.values()]
        if math.prod(sizes) > MAX_POINTS:
            faults.append(f"{origin}: parameters: the grid has {' x '.join(map(str, sizes))} = {math.prod(sizes):,} "
                          f"points, more than {MAX_POINTS:,}; give fewer levels or values, or a Latin hypercube")
    if faults:
        raise DesignError("\n".join(faults))
    return grid(m.parameters) if m.kind == "grid" else latin_hypercube(m.parameters, m.points or 0, m.seed)
