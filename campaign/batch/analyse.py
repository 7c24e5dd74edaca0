"""Analysis of a batch: estimates with 95 % confidence intervals per variant, paired differences from the
base, and ``analysis.html`` with Plotly charts.

* A *flag* measure (0/1, campaign/batch/measures.py) is estimated as a proportion with the Wilson score
  interval (Wilson 1927; Agresti and Coull 1998 recommend it over the normal interval for small counts
  and proportions near 0 or 1): centre (p + z²/2n)/(1 + z²/n), half-width z/(1 + z²/n)·√(p(1-p)/n +
  z²/4n²).
* Counts and quantities are estimated as means with Student's t interval: mean ± t(0.975, n-1)·s/√n.
* Paired differences: replicate r of a variant and of the base ran with the same seed (common random
  numbers, campaign/batch/seeds.py), so the difference is taken replicate by replicate (and design point
  by design point) over the replicates where both have the measure, and its mean gets a t interval.
  A variant that changes nothing gives differences of exactly 0.
* With a design: each measure's partial rank correlation with each design parameter, and each what-if's
  differences' (campaign/batch/sensitivity.py), in the tables, the page and ``sensitivity.json``; and a
  note for each what-if whose own change the design replaced (campaign/batch/parameters.py ``overrides``).
* With the replicates' records kept (``--keep-records``) and a record of the scenario (data/record/): each
  event of the record's share of runs within tolerance and median time difference, by variant
  (campaign/record/batch.py), and ``record_check.json``.
* A note for each set of variants that gave the same value of every measure of what happened in every
  replicate (``alike_notes``): their differences of zero say their changes never reached what is measured.

Only replicates marked done in the store count; a measure a run does not have (NaN: an arrival that did
not happen) is left out of that measure's n, which the table shows.
"""

from __future__ import annotations

import html
import json
import math
import warnings
from collections.abc import Sequence
from dataclasses import asdict, dataclass, replace
from pathlib import Path

import numpy as np
import plotly.colors
import plotly.graph_objects as go
import xarray as xr
from plotly.subplots import make_subplots

from campaign.batch.bundle import KEPT, changed_on_disk
from campaign.batch.measures import BY_NAME, COST_MEASURES, COUNT, FLAG, MEASURE_NAMES, SHIP_MEASURES
from campaign.batch.parameters import Override
from campaign.batch.plan import BASE, SCENARIO_FILES, SOFTWARE
from campaign.batch.sensitivity import (
    VALUE,
    SensitivityRow,
    format_sensitivity,
    sensitivity_rows,
    signed,
)
from campaign.batch.software import this_software
from campaign.batch.store import DESIGN_OVERRIDES, DONE, SOFTWARE_FILES, design_of, open_results
from campaign.batch.wording import counted, listed
from campaign.estimate import Estimate, t_interval, wilson
from campaign.output import files
from campaign.record.batch import JSON_FILE as RECORD_FILE
from campaign.record.batch import batch_against_record

# The measures the table shows unless asked for others (``--measures all`` shows every one).
KEY_MEASURES = ("goeben_escaped", "goeben_dardanelles", "goeben_arrival_h", "goeben_coal_t", "goeben_in_action",
                "hits_on_goeben", "goeben_sunk", "contacts_goeben", "breslau_escaped", "breslau_sunk",
                "moltke_escaped", "moltke_sunk", "battles",
                "ships_sunk_central", "ships_sunk_entente", "out_of_coal_central", "out_of_coal_entente",
                "divisions_delivered", "towns_shelled",
                "points_central", "points_entente", "central_wins")
MAX_BINS = 100  # the most bars a histogram of the page has
WHISKERS = (5, 95)  # the percentiles a box's whiskers reach
HTML_FILE = "analysis.html"
JSON_FILE = "analysis.json"
SENSITIVITY_FILE = "sensitivity.json"  # with a design: each PRCC (campaign/batch/sensitivity.py)


def estimate(values: np.ndarray, kind: str) -> Estimate:
    """A flag's proportion (Wilson) or a count's or quantity's mean (t). A count's interval is cut at 0,
    which no count can be below: a mean of 1/12 (one hit in twelve replicates) reads [0, 0.27], not
    [-0.10, 0.27]."""
    if kind == FLAG:
        x = np.asarray(values, dtype=np.float64)
        x = x[np.isfinite(x)]
        return wilson(int((x > 0.5).sum()), int(x.size))
    e = t_interval(values)
    if kind == COUNT and e.low < 0.0:
        return replace(e, low=0.0)
    return e


def paired_difference(values: np.ndarray, base: np.ndarray) -> Estimate:
    """Mean of ``values - base`` cell by cell (same seeds) where both are finite, with its t interval."""
    d = np.asarray(values, dtype=np.float64) - np.asarray(base, dtype=np.float64)
    return t_interval(d)


@dataclass(frozen=True)
class Row:
    variant: str
    measure: str
    kind: str
    estimate: Estimate
    difference: Estimate | None  # from the base (None for the base itself)


def _cells(ds: xr.Dataset, name: str, v: int) -> np.ndarray:
    """A measure's values for variant ``v`` over every point and replicate (NaN where not done)."""
    da = ds[name].isel(variant=v).where(ds[DONE].isel(variant=v))
    return np.asarray(da.values, dtype=np.float64).ravel()


def _ships_in(ds: xr.Dataset, v: int) -> set[str]:
    """The principal ships (their measures' prefixes) in variant ``v``'s runs done: a ship not in its
    runs has NaN for every one of her measures, where one that is has her escape flag 0 or 1."""
    return {key for key in set(SHIP_MEASURES.values())
            if f"{key}_escaped" in ds and np.isfinite(_cells(ds, f"{key}_escaped", v)).any()}


def summarise(ds: xr.Dataset, measures: Sequence[str] | None = None) -> list[Row]:
    """Every (variant, measure) estimate and its paired difference from the base; a principal ship's
    measures only for the variants she is in (Moltke only in her what-ifs)."""
    names = list(ds["variant_name"].values)
    chosen = [m for m in (measures or KEY_MEASURES) if m in ds]
    base_v = names.index(BASE) if BASE in names else None
    rows = []
    for v, variant in enumerate(names):
        ships = _ships_in(ds, v)
        for m in chosen:
            if m in SHIP_MEASURES and SHIP_MEASURES[m] not in ships:
                continue
            kind = BY_NAME[m].kind if m in BY_NAME else "quantity"
            x = _cells(ds, m, v)
            diff = None
            if base_v is not None and v != base_v:
                diff = paired_difference(x, _cells(ds, m, base_v))
            rows.append(Row(str(variant), m, kind, estimate(x, kind), diff))
    return rows


def _fmt(x: float, kind: str) -> str:
    if math.isnan(x):
        return "-"
    if kind == FLAG:
        return f"{x:.3f}"
    return f"{x:.4g}" if abs(x) < 1e4 else f"{x:.0f}"


def _ci(e: Estimate, kind: str) -> str:
    if math.isnan(e.low):
        return "-"
    return f"[{_fmt(e.low, kind)}, {_fmt(e.high, kind)}]"


def format_tables(rows: Sequence[Row], ds: xr.Dataset) -> str:
    """The rows as one plain-text table per variant."""
    done = int(np.asarray(ds[DONE].values).sum())
    total = int(np.asarray(ds[DONE].values).size)
    design = json.loads(ds.attrs.get("design_parameters", "[]"))
    lines = [(f"batch of {ds.attrs.get('scenario_name', '?')}: {counted(len(ds['variant']), 'variant')} x "
              f"{counted(ds.sizes.get('point', 1), 'design point')} x {counted(ds.sizes['replicate'], 'replicate')}, "
              f"seed {ds.attrs.get('batch_seed')}; {done} of {counted(total, 'replicate')} done"),
             "estimates: proportions (flags) with Wilson 95 % intervals, means with t 95 % intervals (a "
             "count's cut at 0); "
             "differences from the base paired on common seeds (* : the interval excludes 0; - : none to pair, as "
             "for a ship the base lacks)"
             + (f"; pooled over the design points ({', '.join(design)})" if design else "")]
    width = max((len(r.measure) for r in rows), default=10)
    by_variant: dict[str, list[Row]] = {}
    for r in rows:
        by_variant.setdefault(r.variant, []).append(r)
    for variant, vrows in by_variant.items():
        lines += ["", f"== {variant}",
                  f"{'measure':<{width}} {'n':>6} {'estimate':>10} {'95% CI':>22}   {'vs base':>10} {'95% CI':>22}"]
        for r in vrows:
            e, d = r.estimate, r.difference
            dtext = "" if d is None else f"{_fmt(d.value, 'quantity'):>10} {_ci(d, 'quantity'):>22}" + (
                " *" if d.excludes_zero else "")
            lines.append(f"{r.measure:<{width}} {e.n:>6} {_fmt(e.value, r.kind):>10} {_ci(e, r.kind):>22}   {dtext}")
    return "\n".join(lines)


# ---------------------------------------------------------------------------------------------- charts


def variant_colours(variants: Sequence[str]) -> dict[str, str]:
    """A colour for each variant, the same in every chart of the page: Plotly's ten, or for more
    variants (the historical scenario has fifteen) Plotly's Dark24, so that no two share one; past 24 they
    repeat."""
    palette = plotly.colors.qualitative.Plotly
    if len(variants) > len(palette):
        palette = plotly.colors.qualitative.Dark24
    return {str(v): palette[i % len(palette)] for i, v in enumerate(variants)}


def _values_by_variant(ds: xr.Dataset, name: str) -> dict[str, np.ndarray]:
    out = {}
    for v, variant in enumerate(ds["variant_name"].values):
        x = _cells(ds, name, v)
        out[str(variant)] = x[np.isfinite(x)]
    return out


def _histogram(ds: xr.Dataset, name: str, title: str) -> go.Figure | None:
    """A histogram per variant on the same bins (numpy's ``auto`` rule on every variant's values, at most
    :data:`MAX_BINS`), binned here: the page carries the counts, not every replicate's value, so that it
    stays small and opens quickly however large the batch (a replicate a value made a page of 8 MB for
    150,000 replicates, of hundreds for millions)."""
    data = {v: x for v, x in _values_by_variant(ds, name).items() if len(x)}
    if not data:
        return None
    edges = np.histogram_bin_edges(np.concatenate(list(data.values())), bins="auto")
    if len(edges) - 1 > MAX_BINS:
        edges = np.linspace(edges[0], edges[-1], MAX_BINS + 1)
    centres, widths = (edges[:-1] + edges[1:]) / 2, np.diff(edges)
    colour = variant_colours([str(v) for v in ds["variant_name"].values])
    fig = go.Figure([go.Bar(x=centres, y=np.histogram(x, bins=edges)[0], width=widths, name=v, opacity=0.55,
                            marker={"color": colour[v]}) for v, x in data.items()])
    m = BY_NAME[name]
    fig.update_layout(barmode="overlay", bargap=0, title=title, xaxis_title=f"{name} ({m.units})",
                      yaxis_title="replicates", legend_title="variant")
    return fig


def _spread(ds: xr.Dataset, name: str, title: str) -> go.Figure | None:
    """A box per variant, one under another: quartiles and median, whiskers at the :data:`WHISKERS`
    percentiles, the mean marked; worked out here (Plotly's boxes from precomputed statistics), so that
    many variants stay readable where overlaid histograms do not, and the page carries five numbers a
    variant."""
    data = {v: x for v, x in _values_by_variant(ds, name).items() if len(x)}
    if not data:
        return None
    colour = variant_colours([str(v) for v in ds["variant_name"].values])
    fig = go.Figure()
    for v, x in data.items():
        low, q1, median, q3, high = np.percentile(x, [WHISKERS[0], 25, 50, 75, WHISKERS[1]])
        fig.add_trace(go.Box(y=[v], q1=[q1], median=[median], q3=[q3], lowerfence=[low], upperfence=[high],
                             mean=[float(np.mean(x))], orientation="h", name=v, marker={"color": colour[v]},
                             showlegend=False))
    m = BY_NAME[name]
    fig.update_layout(title=f"{title} (box: quartiles; whiskers: {WHISKERS[0]}th and {WHISKERS[1]}th "
                            "percentiles; dashed: mean)", xaxis_title=f"{name} ({m.units})",
                      yaxis={"autorange": "reversed"}, height=150 + 28 * len(data))
    return fig


def _proportion_bars(rows: Sequence[Row], name: str, title: str) -> go.Figure | None:
    rs = [r for r in rows if r.measure == name and r.estimate.n > 0]
    if not rs:
        return None
    y = [r.estimate.value for r in rs]
    fig = go.Figure(go.Bar(
        x=[r.variant for r in rs], y=y,
        error_y={"type": "data", "symmetric": False, "array": [r.estimate.high - r.estimate.value for r in rs],
                 "arrayminus": [r.estimate.value - r.estimate.low for r in rs]}))
    fig.update_layout(title=title, yaxis_title=f"{name} (proportion, Wilson 95 % CI)", yaxis_range=[0, 1.05])
    return fig


def _differences(rows: Sequence[Row], names: Sequence[str]) -> go.Figure | None:
    names = [n for n in names if any(r.measure == n and r.difference is not None and r.difference.n for r in rows)]
    if not names:
        return None
    fig = make_subplots(rows=1, cols=len(names), subplot_titles=names, shared_yaxes=True)
    for i, n in enumerate(names, start=1):
        rs = [r for r in rows if r.measure == n and r.difference is not None and r.difference.n]
        d = [r.difference for r in rs]
        fig.add_trace(go.Scatter(
            x=[e.value for e in d], y=[r.variant for r in rs], mode="markers", name=n, showlegend=False,
            error_x={"type": "data", "symmetric": False,
                     "array": [0 if math.isnan(e.high) else e.high - e.value for e in d],
                     "arrayminus": [0 if math.isnan(e.low) else e.value - e.low for e in d]}), row=1, col=i)
        fig.add_vline(x=0, line_dash="dot", row=1, col=i)
    fig.update_layout(title="Paired differences from the base (common seeds, t 95 % CI)",
                      height=150 + 28 * len({r.variant for r in rows}))
    return fig


def _sensitivity(ds: xr.Dataset, params: Sequence[str], names: Sequence[str]) -> go.Figure | None:
    """Each measure against each design parameter, a colour per variant (the same in every panel).

    A grid's parameters vary independently, so each level's mean over the other parameters' levels is
    that parameter's main effect, drawn as a line. A Latin hypercube's points differ in every parameter
    at once: a line joining them in one parameter's order would draw the others' effects as its wiggles,
    so its points' means are drawn as points only."""
    names = [n for n in names if n in ds and np.isfinite(ds[n].where(ds[DONE]).values).any()]
    if not params or not names or "point" not in ds.dims:
        return None
    design = design_of(ds)
    grid = design is not None and design.kind == "grid"
    fig = make_subplots(rows=len(names), cols=len(params), shared_xaxes=False,
                        row_titles=list(names), column_titles=list(params))
    done = ds[DONE]
    colours = variant_colours([str(v) for v in ds["variant_name"].values])
    for i, n in enumerate(names, start=1):
        mean = ds[n].where(done).mean("replicate", skipna=True)  # (variant, point)
        for j, p in enumerate(params, start=1):
            x = np.asarray(ds[p].values)
            for v, variant in enumerate(ds["variant_name"].values):
                y = np.asarray(mean.isel(variant=v).values)
                if grid:
                    xs = np.unique(x)
                    with warnings.catch_warnings():  # a level with no replicate done yet: NaN, not a warning
                        warnings.simplefilter("ignore", category=RuntimeWarning)
                        ys = np.array([np.nanmean(y[x == level]) for level in xs])
                else:
                    order = np.argsort(x, kind="stable")
                    xs, ys = x[order], y[order]
                colour = colours[str(variant)]
                fig.add_trace(go.Scatter(x=xs, y=ys, mode="lines+markers" if grid else "markers",
                                         name=str(variant), legendgroup=str(variant),
                                         line={"color": colour}, marker={"color": colour},
                                         showlegend=(i == 1 and j == 1)), row=i, col=j)
    fig.update_layout(title=("Sensitivity: each measure's mean at each level of each parameter, over the other "
                             "parameters' levels (main effects of the grid)") if grid else
                      ("Sensitivity: each measure's mean at each design point of the Latin hypercube, against "
                       "each parameter"), height=280 * len(names))
    return fig


def _table_html(rows: Sequence[Row]) -> str:
    head = ("<tr><th>variant</th><th>measure</th><th>n</th><th>estimate</th><th>95% CI</th>"
            "<th>vs base</th><th>95% CI</th></tr>")
    body = []
    for r in rows:
        e, d = r.estimate, r.difference
        cells = [r.variant, r.measure, str(e.n), _fmt(e.value, r.kind), _ci(e, r.kind),
                 "" if d is None else _fmt(d.value, "quantity") + (" *" if d.excludes_zero else ""),
                 "" if d is None else _ci(d, "quantity")]
        body.append("<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in cells) + "</tr>")
    return f"<table>{head}{''.join(body)}</table>"


def _prcc_chart(prccs: Sequence[SensitivityRow], variants: Sequence[str]) -> go.Figure | None:
    """Each measure's PRCC with each design parameter (a panel a parameter) as bars grouped by measure, a
    colour per variant, with its interval; measures that vary in no variant left out."""
    prccs = [r for r in prccs if r.of == VALUE]  # the what-ifs' differences: in the tables only
    varying = [m for m in dict.fromkeys(r.measure for r in prccs)
               if any(r.measure == m and not math.isnan(r.prcc.value) for r in prccs)]
    if not varying:
        return None
    params = list(dict.fromkeys(r.parameter for r in prccs))
    colours = variant_colours(variants)
    fig = make_subplots(rows=1, cols=len(params), subplot_titles=params, shared_yaxes=True)
    for j, p in enumerate(params, start=1):
        for variant in variants:
            rs = [r for r in prccs if r.parameter == p and r.variant == variant and r.measure in varying
                  and not math.isnan(r.prcc.value)]
            c = [r.prcc for r in rs]
            fig.add_trace(go.Bar(
                x=[e.value for e in c], y=[r.measure for r in rs], orientation="h", name=variant,
                legendgroup=variant, marker={"color": colours[variant]}, showlegend=(j == 1),
                error_x={"type": "data", "symmetric": False,
                         "array": [0 if math.isnan(e.high) else e.high - e.value for e in c],
                         "arrayminus": [0 if math.isnan(e.low) else e.value - e.low for e in c]}), row=1, col=j)
        fig.add_vline(x=0, line_dash="dot", row=1, col=j)
        fig.update_xaxes(range=[-1.05, 1.05], row=1, col=j)
    fig.update_layout(title="Sensitivity: partial rank correlation (PRCC) of each measure with each design "
                            "parameter, Fisher 95 % CI", barmode="group",
                      yaxis={"categoryorder": "array", "categoryarray": varying[::-1]},
                      height=200 + 12 * len(varying) * max(len(variants), 2))
    return fig


def _prcc_table_html(prccs: Sequence[SensitivityRow]) -> str:
    head = "<tr><th>variant</th><th>measure</th><th>parameter</th><th>n</th><th>PRCC</th><th>95% CI</th></tr>"
    body = []
    for r in prccs:
        c = r.prcc
        if math.isnan(c.value):
            continue
        cells = [r.variant, r.label, r.parameter, str(c.n), signed(c.value, 3) + (" *" if c.excludes_zero else ""),
                 "-" if math.isnan(c.low) else f"[{signed(c.low, 3)}, {signed(c.high, 3)}]"]
        body.append("<tr>" + "".join(f"<td>{html.escape(x)}</td>" for x in cells) + "</tr>")
    return f"<table>{head}{''.join(body)}</table>"


def html_page(ds: xr.Dataset, rows: Sequence[Row], summary: str, prccs: Sequence[SensitivityRow] = ()) -> str:
    """``analysis.html``: the charts (Plotly, its script inline: the page opens from disk without a
    network) and the tables (with a design, its PRCCs: campaign/batch/sensitivity.py)."""
    params = json.loads(ds.attrs.get("design_parameters", "[]"))
    figs = [f for f in (
        _histogram(ds, "goeben_arrival_h", "When Goeben got away (hours after the start), by variant"),
        _spread(ds, "goeben_arrival_h", "When Goeben got away, by variant"),
        _histogram(ds, "goeben_coal_t", "Goeben's coal when she got away (t), by variant"),
        _spread(ds, "goeben_coal_t", "Goeben's coal when she got away, by variant"),
        _proportion_bars(rows, "goeben_escaped", "Goeben's escape probability by variant"),
        _differences(rows, ("goeben_escaped", "goeben_arrival_h", "goeben_coal_t", "battles")),
        _sensitivity(ds, params, ("goeben_escaped", "goeben_arrival_h", "goeben_coal_t")),
        _prcc_chart(prccs, [str(v) for v in ds["variant_name"].values]) if prccs else None,
    ) if f is not None]
    parts = [f.to_html(full_html=False, include_plotlyjs=(i == 0)) for i, f in enumerate(figs)]
    style = ("body{font-family:sans-serif;margin:2em} pre{white-space:pre-wrap} "
             "table{border-collapse:collapse;font-size:13px}"
             "td,th{border:1px solid #ccc;padding:2px 6px;text-align:right} td:nth-child(-n+2){text-align:left}")
    return (f"<!DOCTYPE html><html><head><meta charset='utf-8'><title>Batch analysis: "
            f"{html.escape(str(ds.attrs.get('scenario_name', '')))}</title><style>{style}</style></head><body>"
            f"<h1>Batch analysis: {html.escape(str(ds.attrs.get('scenario_name', '')))}</h1>"
            f"<pre>{html.escape(summary)}</pre>" + "".join(parts) + "<h2>Estimates</h2>" + _table_html(rows)
            + ("<h2>Sensitivity (PRCC)</h2>" + _prcc_table_html(prccs) if prccs else "") + "</body></html>")


def _plain(e: Estimate) -> dict[str, float | int | None]:
    """An estimate for JSON (NaN and infinities, which JSON lacks, as null: an interval of one run)."""
    return {k: (None if isinstance(v, float) and not math.isfinite(v) else v) for k, v in asdict(e).items()}


def design_notes(ds: xr.Dataset) -> list[str]:
    """A note for each variant's change that the batch's design replaced at every point (its store's
    attributes; campaign/batch/parameters.py ``overrides``): without it, a variant's paired differences of
    zero would say the change does nothing."""
    return [f"note: {o.describe()}" for o in _overrides(ds)]


def _overrides(ds: xr.Dataset) -> list[Override]:
    """The variants' changes the batch's design replaced (its store's attributes)."""
    return [Override(**o) for o in json.loads(ds.attrs.get(DESIGN_OVERRIDES) or "[]")]


def alike_notes(ds: xr.Dataset, skip: Sequence[str] = ()) -> list[str]:
    """A note for each set of variants that gave exactly the same value of every measure of what happened
    (all but ``COST_MEASURES``) in every replicate they have all done (at every design point), the base
    among them or not. Without it an analyst would read their differences of zero as a finding, where the
    change never reached what the batch measures (a scouting station off the enemy's road, a ship that
    never meets anyone); a rerun of one of their replicates, with its replay, shows why. ``skip``:
    variants whose sameness a design note already explains (:func:`design_notes`)."""
    names = [str(v) for v in ds["variant_name"].values]
    measures = [m for m in MEASURE_NAMES if m in ds and m not in COST_MEASURES]
    if len(names) < 2 or not measures:
        return []
    done = np.asarray(ds[DONE].values, dtype=bool)
    values = np.stack([np.asarray(ds[m].values, dtype=np.float64) for m in measures], axis=-1)
    groups: list[list[int]] = []  # variants alike, each group's first the one the others matched
    for v in range(len(names)):
        if names[v] in skip or not done[v].any():
            continue
        for members in groups:
            both = done[members[0]] & done[v]
            if both.any() and np.array_equal(values[members[0]][both], values[v][both], equal_nan=True):
                members.append(v)
                break
        else:
            groups.append([v])
    notes = []
    every = f"every measure (but {listed(COST_MEASURES)}, the run's cost)" if COST_MEASURES else "every measure"
    for members in (g for g in groups if len(g) > 1):
        who = [names[v] for v in members]
        n = counted(int(np.logical_and.reduce([done[v] for v in members]).sum()), "replicate")
        if BASE in who:
            others = [w for w in who if w != BASE]
            change = "its change" if len(others) == 1 else "their changes"
            notes.append(f"note: {listed(others)} gave the base's value of {every} in every replicate ({n}): "
                         f"{change} made no difference to what the batch measures")
        else:
            notes.append(f"note: {listed(who)} gave the same value of {every} as one another in every "
                         f"replicate ({n}): what sets them apart made no difference to what the batch measures")
    return notes


def _rerun_notes(ds: xr.Dataset) -> str:
    """Notes when what the batch ran has changed since, so that a replicate rerun now is no longer that
    batch's: the scenario's files on disk (their SHA-256s in its attributes; its folder keeps those it
    ran), or this process's software. Empty otherwise."""
    notes = []
    recorded = json.loads(ds.attrs.get(SCENARIO_FILES) or "{}")
    differ = changed_on_disk(ds.attrs.get("scenario", ""), recorded) if recorded else []
    if differ:
        notes.append(f"note: {', '.join(differ)} changed since this batch ran (beside {ds.attrs['scenario']}): a "
                     f"replicate rerun from them will not be the batch's; its folder keeps the files it ran, in "
                     f"{KEPT}/")
    then = json.loads(ds.attrs.get(SOFTWARE) or "{}")
    now = this_software()
    if then and then != now.as_dict():
        change = now.change_since(then, json.loads(ds.attrs.get(SOFTWARE_FILES) or "{}"))
        notes.append(f"note: the software changed since this batch ran ({change}): a replicate rerun with it "
                     "will not be the batch's")
    return "".join(f"\n\n{n}" for n in notes)


def analyse(out_dir: str | Path, measures: Sequence[str] | None = None) -> tuple[str, list[Path]]:
    """Analyse the batch in ``out_dir``: the tables as text, and the files written (analysis.html and
    analysis.json, in ``out_dir``)."""
    out = Path(out_dir)
    ds = open_results(out).load()
    if measures is not None:
        unknown = [m for m in measures if m not in MEASURE_NAMES]
        if unknown:
            raise ValueError(f"--measures: unknown measure {', '.join(unknown)} (known: {', '.join(MEASURE_NAMES)})")
    rows = summarise(ds, measures)
    params = json.loads(ds.attrs.get("design_parameters", "[]"))
    prccs = sensitivity_rows(ds, list(dict.fromkeys(r.measure for r in rows)), params, DONE)
    notes = design_notes(ds)
    notes += alike_notes(ds, skip=[o.variant for o in _overrides(ds) if o.nothing_else])
    text = format_tables(rows, ds) + (f"\n\n{format_sensitivity(prccs)}" if prccs else "")
    text += "".join(f"\n\n{n}" for n in notes) + _rerun_notes(ds)
    # Each event of the historical record over the runs the batch kept (campaign/record/batch.py).
    record_text, record_rows = batch_against_record(out, str(ds.attrs.get("scenario_name", "")),
                                                    [str(v) for v in ds["variant_name"].values])
    if record_text:
        text += f"\n\n{record_text}"
    summary_line = text.split("\n", 2)
    page = html_page(ds, rows, "\n".join(summary_line[:2] + notes), prccs)
    table = json.dumps([{"variant": r.variant, "measure": r.measure, "kind": r.kind,
                         "estimate": _plain(r.estimate), "difference": _plain(r.difference) if r.difference else None}
                        for r in rows], indent=1, allow_nan=False) + "\n"
    outputs = {HTML_FILE: lambda p: p.write_text(page, encoding="utf-8"),
               JSON_FILE: lambda p: p.write_text(table, encoding="utf-8")}
    if record_rows:
        outputs[RECORD_FILE] = lambda p: p.write_text(json.dumps(record_rows, indent=1, allow_nan=False) + "\n", encoding="utf-8")
    if prccs:
        prcc_table = json.dumps([{"variant": r.variant, "measure": r.measure, "of": r.of, "parameter": r.parameter,
                                  "prcc": _plain(r.prcc)} for r in prccs], indent=1, allow_nan=False) + "\n"
        outputs[SENSITIVITY_FILE] = lambda p: p.write_text(prcc_table, encoding="utf-8")
    # All the files or none: a page and tables from different analyses would disagree.
    written = files.write_all(out, outputs)
    return text, written
