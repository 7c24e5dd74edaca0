"""Partial rank correlation: Spearman's with one parameter, the partial correlation of the ranks (from the
inverse of their correlation matrix) with several, Fisher intervals that cover zero as often as they
should, and exact zeros where common seeds leave a measure untouched by the design."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

from campaign.batch.sensitivity import SensitivityRow, format_sensitivity, prcc
from campaign.estimate import Estimate


def partial_by_precision(x: np.ndarray, y: np.ndarray) -> list[float]:
    """The partial correlations of y's ranks with each of x's, from the inverse of the ranks' correlation
    matrix: -P[j, y] / sqrt(P[j, j] P[y, y]) (a different route from prcc's least squares)."""
    ranks = np.column_stack([stats.rankdata(c) for c in (*x.T, y)])
    p = np.linalg.inv(np.corrcoef(ranks, rowvar=False))
    k = x.shape[1]
    return [-p[j, k] / math.sqrt(p[j, j] * p[k, k]) for j in range(k)]


def test_with_one_parameter_it_is_spearmans_rank_correlation() -> None:
    rng = np.random.default_rng(3)
    x = rng.uniform(0, 1, 200)
    y = np.exp(3 * x) + rng.normal(0, 4, 200)
    (c,) = prcc(x[:, None], y)
    assert c.value == pytest.approx(stats.spearmanr(x, y).statistic, abs=1e-12)
    assert c.n == 200 and c.low < c.value < c.high


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), k=st.integers(2, 4), n=st.integers(12, 200))
def test_with_several_it_is_the_partial_correlation_of_the_ranks(seed, k, n) -> None:
    rng = np.random.default_rng(seed)
    x = rng.uniform(0, 1, (n, k))
    y = x @ rng.normal(0, 1, k) + rng.normal(0, 0.5, n)
    got = [c.value for c in prcc(x, y)]
    assert got == pytest.approx(partial_by_precision(x, y), abs=1e-9)
    assert all(-1 <= r <= 1 for r in got)


def test_a_monotonic_effect_shows_and_an_absent_one_does_not() -> None:
    rng = np.random.default_rng(11)
    x = rng.uniform(0, 1, (300, 2))
    y = np.log1p(10 * x[:, 0]) + rng.normal(0, 0.2, 300)  # rises with the first parameter only
    strong, none = prcc(x, y)
    assert strong.value > 0.9 and strong.excludes_zero
    assert abs(none.value) < 0.2


def test_the_interval_of_an_absent_effect_covers_zero_about_95_times_in_100() -> None:
    """Fisher's interval for the partial correlation (n - 3 - g degrees of freedom): over 400 seeded
    samples of 40 where y ignores both parameters, it covers 0 in 95 % of them (binomial 99.9 % bounds)."""
    rng = np.random.default_rng(2024)
    covered = 0
    for _ in range(400):
        x = rng.uniform(0, 1, (40, 2))
        c = prcc(x, rng.normal(0, 1, 40))[0]
        covered += c.low <= 0 <= c.high
    low, high = stats.binom.ppf([0.0005, 0.9995], 400, 0.95)
    assert low <= covered <= high


def test_common_seeds_give_exact_zeros_to_a_measure_the_design_does_not_touch() -> None:
    """Every point runs the same seeds: a measure that depends on the seed alone has the same values at
    every point, so its correlation with any parameter is nil."""
    rng = np.random.default_rng(5)
    points, runs = 7, 30
    x = np.repeat(rng.uniform(0, 1, (points, 2)), runs, axis=0)
    y = np.tile(rng.normal(0, 1, runs), points)
    assert all(abs(c.value) < 1e-12 and not c.excludes_zero for c in prcc(x, y))


def test_what_cannot_be_had_is_nan_and_left_out_of_the_table() -> None:
    x = np.column_stack([np.linspace(0, 1, 20), np.full(20, 2.0)])
    flat = prcc(x, np.ones(20))  # a measure that does not vary
    assert all(math.isnan(c.value) for c in flat)
    y = np.linspace(0, 1, 20) ** 2
    y[3] = np.nan  # a replicate not done, or without the measure
    moving, single_level = prcc(x, y)
    assert moving.n == 19 and moving.value == pytest.approx(1.0) and math.isnan(single_level.value)
    table = format_sensitivity([SensitivityRow("base", "arrival", "speed", moving),
                                SensitivityRow("base", "escaped", "speed", flat[0]),
                                SensitivityRow("slow", "escaped", "speed", flat[0])])
    assert "arrival" in table and "+1.00" in table and "escaped" not in table
    assert "== sensitivity: slow\nno measure varies" in table
    assert format_sensitivity([]) == ""
    assert "-0.00" not in format_sensitivity([SensitivityRow("b", "m", "p", Estimate(50, -1e-17, -0.3, 0.3))])
