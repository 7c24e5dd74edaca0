"""A duel's odds: the same duel fought over many seeds under one engine, summed up with 95 % intervals.

Each run is fought alone from its own seed (``seed``, ``seed + 1``, ...), so the runs can be spread over
worker processes (Dask's process scheduler) and still give the same figures as one process. A run is
kept as a ``RunSummary``; ``DuelStatistics`` sums them up:

* proportions (a ship sunk, a side breaking off, how the battle ended) with the Wilson score interval;
* means (damage, ships sunk, hits, fire, rounds) with Student's t interval;
* the median duration with the distribution-free interval of the order statistics (the ranks
  n/2 ∓ z·√n/2, rounded outwards: Conover, *Practical Nonparametric Statistics*, 3rd ed., 1999, §3.2).

``rounds`` counts the rounds an engine's fire events say they fired (their ``rounds`` field), where an
engine records it; ``fire`` counts fire events (a group's or a ship's fire in one move or round).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from campaign.duels.duel import Duel, fight_duel
from campaign.estimate import CONFIDENCE, Estimate, normal_quantile, t_interval, wilson
from campaign.model.ships import find_ship


@dataclass(frozen=True)
class RunSummary:
    """What one run of a duel comes to."""

    seed: int
    sunk: tuple[str, ...]
    damage: dict[str, float]  # ship -> damage fraction at the end
    duration_min: float
    reason: str
    broke_off: tuple[str, ...]  # sides
    hits: dict[str, int]  # side -> hits it scored
    fire: dict[str, int]  # side -> fire events
    rounds: dict[str, int]  # side -> rounds its fire events record


def side_of_ships(duel: Duel) -> dict[str, str]:
    """Each ship's data name -> the name of her side in the duel."""
    return {find_ship(n).name: s.name for s in duel.sides for n in s.ships}


def run_summary(duel: Duel, engine: str, seed: int) -> RunSummary:
    """Fight the duel once from ``seed`` and keep what the odds need."""
    out = fight_duel(duel, engine, seed, keep_frames=False)
    side_of = side_of_ships(duel)
    hits = dict.fromkeys((s.name for s in duel.sides), 0)
    fire = dict(hits)
    rounds = dict(hits)
    for ev in out.events:
        if ev.type == "hit":
            # A hit names the ship struck as ``ship`` and the firer as ``target`` (battle.py's convention);
            # a hit on a consort in the line of fire counts to the firer's side all the same.
            firer_side = side_of.get(ev.target or "")
            if firer_side is not None:
                hits[firer_side] += 1
        elif ev.type == "fire" and ev.ship in side_of:
            fire[side_of[ev.ship]] += 1
            rounds[side_of[ev.ship]] += int(ev.data.get("rounds", 0) or 0)
    return RunSummary(seed, tuple(n for n, c in out.conditions.items() if c.sunk),
                      {n: float(c.damage) for n, c in out.conditions.items()}, out.duration_s / 60.0,
                      out.reason, tuple(out.broke_off), hits, fire, rounds)


def _summaries(duel: Duel, engine: str, seeds: Sequence[int]) -> list[RunSummary]:
    return [run_summary(duel, engine, s) for s in seeds]


def run_summaries(duel: Duel, engine: str, runs: int, seed: int = 0, workers: int = 1,
                  advance: Callable[[int], None] | None = None) -> list[RunSummary]:
    """The runs ``seed`` .. ``seed + runs - 1``, in seed order, on ``workers`` processes; ``advance(n)``
    is told of every ``n`` runs done (a progress bar: campaign/progress.py)."""
    seeds = list(range(seed, seed + runs))
    if workers <= 1 or runs < 2:
        out = []
        for s in seeds:
            out.append(run_summary(duel, engine, s))
            if advance is not None:
                advance(1)
        return out
    import dask
    from dask.callbacks import Callback

    # A few tasks a worker, each a slice of consecutive seeds; the results come back in seed order.
    n_tasks = min(runs, workers * 4)
    bounds = [runs * k // n_tasks for k in range(n_tasks + 1)]
    tasks = [dask.delayed(_summaries)(duel, engine, seeds[a:b]) for a, b in itertools.pairwise(bounds)]

    class Told(Callback):
        def _posttask(self, key, result, dsk, state, worker_id) -> None:
            if advance is not None and isinstance(result, list):
                advance(len(result))

    with Told():
        parts = dask.compute(*tasks, scheduler="processes", num_workers=workers)
    return [s for part in parts for s in part]


def median_interval(values: Sequence[float], confidence: float = CONFIDENCE) -> Estimate:
    """The median with the order-statistic interval (see the module's docstring)."""
    x = np.sort(np.asarray(values, dtype=np.float64))
    n = int(x.size)
    if n == 0:
        return Estimate(0, math.nan, math.nan, math.nan)
    half = normal_quantile(confidence) * math.sqrt(n) / 2.0
    lo = max(0, math.floor(n / 2.0 - half) - 1)  # 0-based rank, rounded outwards
    hi = min(n - 1, math.ceil(n / 2.0 + half))
    return Estimate(n, float(np.median(x)), float(x[lo]), float(x[hi]))


def bounded(values: np.ndarray, high: float = math.inf) -> Estimate:
    """The mean's t interval cut to what the figure can be: never below 0 (damage, hits, ships), never
    above ``high`` (damage: 1)."""
    e = t_interval(values)
    if math.isnan(e.low):
        return e
    return Estimate(e.n, e.value, max(0.0, e.low), min(high, e.high))


@dataclass(frozen=True)
class DuelStatistics:
    """Outcomes of one duel over many seeds under one engine, each with its 95 % interval."""

    engine: str
    runs: int
    first_seed: int
    sunk: dict[str, Estimate]  # ship -> proportion of runs she was sunk
    damage: dict[str, Estimate]  # ship -> mean damage fraction
    side_losses: dict[str, Estimate]  # side -> mean ships sunk
    broke_off: dict[str, Estimate]  # side -> proportion of runs it broke off
    hits: dict[str, Estimate]  # side -> mean hits scored
    fire: dict[str, Estimate]  # side -> mean fire events
    rounds: dict[str, Estimate]  # side -> mean rounds recorded
    duration_min: Estimate  # median
    mean_duration_min: float
    reasons: dict[str, Estimate]  # how it ended -> proportion

    def as_dict(self) -> dict:
        def est(e: Estimate) -> dict:  # NaN, an interval of one run, as null (strict JSON)
            return {k: v if math.isfinite(v) else None for k, v in (("value", e.value), ("low", e.low),
                                                                     ("high", e.high))}

        def table(d: dict[str, Estimate]) -> dict:
            return {k: est(v) for k, v in d.items()}

        return {"engine": self.engine, "runs": self.runs, "first_seed": self.first_seed,
                "sunk": table(self.sunk), "damage": table(self.damage), "ships_sunk": table(self.side_losses),
                "broke_off": table(self.broke_off), "hits": table(self.hits), "fire": table(self.fire),
                "rounds": table(self.rounds), "median_duration_min": est(self.duration_min),
                "mean_duration_min": self.mean_duration_min if math.isfinite(self.mean_duration_min) else None,
                "ended": table(self.reasons)}


def summarise_runs(duel: Duel, engine: str, summaries: Sequence[RunSummary]) -> DuelStatistics:
    """Sum the runs up (``summaries`` of one duel under one engine)."""
    n = len(summaries)
    if n == 0:
        raise ValueError("no runs to sum up")
    side_of = side_of_ships(duel)
    sides = [s.name for s in duel.sides]
    ships = list(side_of)
    reasons = sorted({s.reason for s in summaries})

    def per_side(field: str) -> dict[str, Estimate]:
        return {side: bounded(np.array([getattr(s, field)[side] for s in summaries], float)) for side in sides}

    return DuelStatistics(
        engine, n, min(s.seed for s in summaries),
        {name: wilson(sum(name in s.sunk for s in summaries), n) for name in ships},
        {name: bounded(np.array([s.damage.get(name, 0.0) for s in summaries]), 1.0) for name in ships},
        {side: bounded(np.array([sum(side_of[x] == side for x in s.sunk) for s in summaries], float))
         for side in sides},
        {side: wilson(sum(side in s.broke_off for s in summaries), n) for side in sides},
        per_side("hits"), per_side("fire"), per_side("rounds"),
        median_interval([s.duration_min for s in summaries]),
        float(np.mean([s.duration_min for s in summaries])),
        {r: wilson(sum(s.reason == r for s in summaries), n) for r in reasons})


def duel_statistics(duel: Duel, engine: str, runs: int, seed: int = 0, workers: int = 1,
                    advance: Callable[[int], None] | None = None) -> DuelStatistics:
    """Fight the duel ``runs`` times (seeds ``seed`` .. ``seed + runs - 1``) and sum up; ``advance``, as
    for :func:`run_summaries`."""
    return summarise_runs(duel, engine, run_summaries(duel, engine, runs, seed, workers, advance))
