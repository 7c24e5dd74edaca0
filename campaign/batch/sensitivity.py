"""Sensitivity of a batch's measures to its design parameters: partial rank correlation coefficients.

For each variant and measure, every replicate done is a sample: the design point's parameter values and
the replicate's measure. The *partial rank correlation coefficient* (PRCC) of the measure with parameter
``j`` is the correlation, after both are replaced by their ranks, of what is left of each once the other
parameters' ranks are accounted for by least squares (Iman and Conover 1980, "Small sample sensitivity
analysis techniques for computer models", Commun. Statist. A9; Marino, Hogue, Ray and Kirschner 2008, "A
methodology for performing global uncertainty and sensitivity analysis in systems biology", J. Theor.
Biol. 254, which recommends it for Latin hypercube samples). It runs from -1 to 1: how steadily the
measure rises (or falls) as the parameter does, whatever the others, for any monotonic relation, not
only a straight line. With one parameter it is Spearman's rank correlation.

Its interval is Fisher's: ``tanh(atanh(r) ± z / sqrt(n - 3 - g))`` with ``g`` the parameters accounted
for (Fisher 1924, "The distribution of the partial correlation coefficient", Metron 3). Replicates of
one point share its parameter values, so their ranks tie; the measure's own noise across replicates only
weakens the correlation, as it should.

A measure that does not vary in a variant (Goeben escapes in every replicate) has no correlation: NaN.

For a what-if, the same is asked of its paired differences from the base (replicate by replicate, at the
same point and seed): does the what-if's effect grow or shrink with a parameter (does Troubridge's
engaging cost Goeben more hits in clearer air)? A what-if whose effect is the same everywhere, or nil,
has no such correlation.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import xarray as xr
from scipy import stats

from campaign.batch.plan import BASE
from campaign.estimate import CONFIDENCE, Estimate, normal_quantile

# Below this spread of what is left of a rank after least squares (a fraction of its own spread), it is
# taken as none: a parameter that the others determine, or one with a single level, has no partial
# correlation of its own.
FLAT_RESIDUAL = 1e-9
VALUE = "value"  # a row of the measure itself
DIFFERENCE = "difference from the base"  # a row of a what-if's paired differences from the base


@dataclass(frozen=True)
class SensitivityRow:
    variant: str
    measure: str
    parameter: str
    prcc: Estimate
    of: str = VALUE  # VALUE or DIFFERENCE

    @property
    def label(self) -> str:
        """The measure's name, and " - base" after it for a row of differences."""
        return self.measure if self.of == VALUE else f"{self.measure} - {BASE}"


def _residual(target: np.ndarray, others: np.ndarray) -> np.ndarray:
    """What is left of ``target`` after least squares on ``others`` (columns) and a constant."""
    a = np.column_stack([np.ones(len(target)), others])
    coef, *_ = np.linalg.lstsq(a, target, rcond=None)
    return target - a @ coef


def _fisher(r: float, n: int, controlled: int, confidence: float) -> Estimate:
    dof = n - 3 - controlled
    if math.isnan(r) or dof <= 0:
        return Estimate(n, r, math.nan, math.nan)
    if abs(r) >= 1.0:
        return Estimate(n, r, r, r)
    half = normal_quantile(confidence) / math.sqrt(dof)
    z = math.atanh(r)
    return Estimate(n, r, math.tanh(z - half), math.tanh(z + half))


def prcc(x: np.ndarray, y: np.ndarray, confidence: float = CONFIDENCE) -> list[Estimate]:
    """The partial rank correlation of ``y`` (n samples) with each column of ``x`` (n x k parameters),
    with Fisher intervals; samples where ``y`` is not finite are left out."""
    x = np.asarray(x, dtype=np.float64).reshape(len(y), -1)
    y = np.asarray(y, dtype=np.float64)
    keep = np.isfinite(y)
    x, y = x[keep], y[keep]
    n, k = x.shape
    if n < 2 or np.ptp(y) == 0:
        return [Estimate(n, math.nan, math.nan, math.nan) for _ in range(k)]
    rx = np.column_stack([stats.rankdata(x[:, j]) for j in range(k)])
    ry = stats.rankdata(y)
    out = []
    for j in range(k):
        others = np.delete(rx, j, axis=1)
        ex, ey = _residual(rx[:, j], others), _residual(ry, others)
        sx, sy = float(np.std(ex)), float(np.std(ey))
        if sx <= FLAT_RESIDUAL * max(float(np.std(rx[:, j])), 1.0) or sy <= FLAT_RESIDUAL * float(np.std(ry)):
            out.append(Estimate(n, math.nan, math.nan, math.nan))
            continue
        r = float(np.clip(np.mean((ex - ex.mean()) * (ey - ey.mean())) / (sx * sy), -1.0, 1.0))
        out.append(_fisher(r, n, k - 1, confidence))
    return out


def sensitivity_rows(ds: xr.Dataset, measures: Sequence[str], params: Sequence[str],
                     done: str = "done") -> list[SensitivityRow]:
    """The PRCC of each measure with each design parameter, variant by variant, over every replicate
    done at every point (a batch's results as ``campaign.batch.store.open_results`` gives them); for each
    what-if, then, that of its paired differences from the base (rows ``of`` DIFFERENCE)."""
    if not params or "point" not in ds.dims:
        return []
    x_point = np.column_stack([np.asarray(ds[p].values, dtype=np.float64) for p in params])  # points x k
    runs = ds.sizes["replicate"]
    x = np.repeat(x_point, runs, axis=0)  # (point, replicate) order, as the measures ravel
    names = [str(v) for v in ds["variant_name"].values]

    def cells(v: int, m: str) -> np.ndarray:
        """Variant ``v``'s values of ``m`` in (point, replicate) order, NaN where not done."""
        mask = np.asarray(ds[done].isel(variant=v).transpose("point", "replicate").values).ravel()
        y = np.asarray(ds[m].isel(variant=v).transpose("point", "replicate").values, dtype=np.float64).ravel()
        return np.where(mask, y, np.nan)

    chosen = [m for m in measures if m in ds]
    base = {m: cells(names.index(BASE), m) for m in chosen} if BASE in names else None
    rows = []
    for v, variant in enumerate(names):
        values = base if variant == BASE and base is not None else {m: cells(v, m) for m in chosen}
        for m, y in values.items():
            rows += [SensitivityRow(variant, m, p, c) for p, c in zip(params, prcc(x, y))]
        if base is not None and variant != BASE:
            for m, y in values.items():
                rows += [SensitivityRow(variant, m, p, c, DIFFERENCE) for p, c in zip(params, prcc(x, y - base[m]))]
    return rows


def signed(x: float, places: int = 2) -> str:
    """``x`` to ``places`` decimals with its sign; a value that rounds to zero is +0.00 (a measure the
    parameters do not touch has a PRCC of exactly 0 with common seeds, give or take the last bit)."""
    text = f"{x:+.{places}f}"
    return text if float(text) != 0.0 else f"{0.0:+.{places}f}"


def _cell(c: Estimate) -> str:
    if math.isnan(c.value):
        return "-"
    ci = "" if math.isnan(c.low) else f" [{signed(c.low)}, {signed(c.high)}]"
    return signed(c.value) + ci + (" *" if c.excludes_zero else "")


def format_sensitivity(rows: Sequence[SensitivityRow]) -> str:
    """The rows as one plain-text table per variant (a column per parameter), leaving out the measures
    that do not vary in it; empty without rows."""
    if not rows:
        return ""
    params = list(dict.fromkeys(r.parameter for r in rows))
    lines = [("sensitivity: partial rank correlation (PRCC) of each measure with each design parameter, "
             f"-1 to +1, with Fisher 95 % intervals (* : the interval excludes 0); 'M - {BASE}': of a what-if's "
             "paired differences from the base (does its effect grow or shrink with the parameter?); measures "
             "that do not vary are left out")]
    width = max(len(r.label) for r in rows)
    col = max(24, *(len(p) for p in params))
    by_variant: dict[str, dict[str, dict[str, Estimate]]] = {}
    for r in rows:
        by_variant.setdefault(r.variant, {}).setdefault(r.label, {})[r.parameter] = r.prcc
    for variant, measures in by_variant.items():
        varying = {m: cs for m, cs in measures.items() if any(not math.isnan(c.value) for c in cs.values())}
        lines += ["", f"== sensitivity: {variant}"]
        if not varying:
            lines.append("no measure varies")
            continue
        lines.append(f"{'measure':<{width}} " + " ".join(f"{p:>{col}}" for p in params))
        for m, cs in varying.items():
            lines.append(f"{m:<{width}} " + " ".join(f"{_cell(cs[p]):>{col}}" for p in params))
    return "\n".join(lines)
