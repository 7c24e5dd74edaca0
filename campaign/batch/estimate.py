"""An estimate with its confidence interval: what the batch analysis gives for every figure it reports
(a proportion, a mean, a paired difference: campaign/batch/analyse.py; a partial rank correlation:
campaign/batch/sensitivity.py)."""

from __future__ import annotations

import math
from dataclasses import dataclass

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
