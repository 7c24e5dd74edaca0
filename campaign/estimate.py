"""An estimate with its confidence interval: what the batch analysis gives for every figure it reports
(a proportion, a mean, a paired difference: campaign/batch/analyse.py; a partial rank correlation:
campaign/batch/sensitivity.py; a duel's odds: campaign/duels/duel_odds.py)."""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy import stats

CONFIDENCE = 0.95  # of every interval the analysis reports


@dataclass(frozen=True)
class Estimate:
    """An estimate from ``n`` values with its confidence interval (NaN where it cannot be had)."""

    n: int
    value: float
    low: float
    high: float

    @property
    def excludes_zero(self) -> bool:
        return not (math.isnan(self.low) or math.isnan(self.high)) and (self.low > 0 or self.high < 0)


def normal_quantile(confidence: float = CONFIDENCE) -> float:
    """z of a two-sided normal interval of ``confidence`` (1.96 for 95 %)."""
    return float(stats.norm.ppf(0.5 + confidence / 2.0))


def wilson(successes: int, n: int, confidence: float = CONFIDENCE) -> Estimate:
    """A proportion ``successes``/``n`` with its Wilson score interval."""
    if n == 0:
        return Estimate(0, math.nan, math.nan, math.nan)
    z = normal_quantile(confidence)
    p = successes / n
    denom = 1.0 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z / denom * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    # The interval always holds p; the clamps keep rounding (2.8e-17 at p = 0) from saying otherwise.
    return Estimate(n, p, max(0.0, min(p, centre - half)), min(1.0, max(p, centre + half)))


def t_interval(values: np.ndarray, confidence: float = CONFIDENCE) -> Estimate:
    """The mean of the finite ``values`` with Student's t interval (a single value: no interval)."""
    x = np.asarray(values, dtype=np.float64)
    x = x[np.isfinite(x)]
    n = int(x.size)
    if n == 0:
        return Estimate(0, math.nan, math.nan, math.nan)
    mean = float(x.mean())
    if n == 1:
        return Estimate(1, mean, math.nan, math.nan)
    sd = float(x.std(ddof=1))
    half = float(stats.t.ppf(0.5 + confidence / 2.0, n - 1)) * sd / math.sqrt(n) if sd > 0 else 0.0
    return Estimate(n, mean, mean - half, mean + half)
