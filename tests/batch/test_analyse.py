"""Analysis: Wilson and t intervals against hand-computed values, paired differences on common seeds (zero
for a variant that changes nothing), and analysis.html."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from campaign.batch.analyse import analyse, paired_difference, summarise
from campaign.batch.store import open_results
from campaign.estimate import t_interval, wilson


def test_wilson_interval_by_hand() -> None:
    # 8 successes in 20, z = 1.959964: centre (0.4 + z²/40)/(1 + z²/20) = 0.49603648/1.19207295 = 0.416112,
    # half-width z/(1 + z²/20)·√(0.24/20 + z²/1600) = 1.644165 x 0.120004 = 0.197306: 0.2188 to 0.6134.
    e = wilson(8, 20)
    assert (e.n, e.value) == (20, 0.4)
    assert e.low == pytest.approx(0.218806, abs=2e-6) and e.high == pytest.approx(0.613418, abs=2e-6)
    none, all_ = wilson(0, 20), wilson(20, 20)
    assert none.low == 0.0 and none.high == pytest.approx(0.161125, abs=2e-6)  # z²/(n + z²)
    assert all_.high == 1.0 and all_.low == pytest.approx(1 - 0.161125, abs=2e-6)
    assert math.isnan(wilson(0, 0).value)


def test_t_interval_by_hand() -> None:
    # mean 3, s = 1.58114 (1..5), t(0.975, 4) = 2.776445: 3 ± 1.963243.
    e = t_interval(np.array([1.0, 2.0, 3.0, 4.0, 5.0, np.nan]))
    assert e.n == 5 and e.value == 3.0
    assert e.low == pytest.approx(3 - 1.963243, abs=1e-6) and e.high == pytest.approx(3 + 1.963243, abs=1e-6)
    one = t_interval(np.array([2.0]))
    assert one.value == 2.0 and math.isnan(one.low)
    flat = t_interval(np.array([2.0, 2.0, 2.0]))
    assert (flat.low, flat.high) == (2.0, 2.0)


def test_a_counts_interval_is_cut_at_zero_and_a_quantitys_is_not() -> None:
    """One hit in twelve replicates: the t interval is 1/12 +- 0.1834 (s = 0.288675, t(0.975, 11) =
    2.200985); no count can be below 0, so a count's reads [0, 0.2667]. A quantity (a difference of
    coal, say) keeps its negative bound."""
    from campaign.batch.analyse import estimate

    x = np.array([0.0] * 11 + [1.0])
    t = t_interval(x)
    assert t.low == pytest.approx(1 / 12 - 0.183415, abs=1e-5)
    count = estimate(x, "count")
    assert (count.n, count.value, count.low, count.high) == (12, t.value, 0.0, t.high)
    assert estimate(x, "quantity") == t
    wide = estimate(np.array([20.0, 25.0, 29.0]), "count")  # an interval above 0 is left as it is
    assert wide == t_interval(np.array([20.0, 25.0, 29.0])) and 0.0 < wide.low < 20.0


def test_paired_difference_uses_only_pairs_with_both_values() -> None:
    d = paired_difference(np.array([1.0, 2.0, np.nan, 5.0]), np.array([0.0, 2.0, 1.0, np.nan]))
    assert d.n == 2 and d.value == 0.5


def test_a_variant_identical_to_the_base_gives_zero_paired_differences(reference) -> None:
    rows = summarise(open_results(reference).load(), measures=["battles", "events", "points_entente",
                                                                "goeben_in_action", "hits_on_goeben"])
    same = [r for r in rows if r.variant == "same"]
    assert same and all(r.difference.n == 20 and r.difference.value == 0.0 for r in same)
    assert all((r.difference.low, r.difference.high) == (0.0, 0.0) for r in same)
    faster = [r for r in rows if r.variant == "faster" and r.measure == "events"]
    assert faster[0].difference.value != 0.0  # a real change shows
    assert all(r.difference is None for r in rows if r.variant == "base")


def test_estimates_use_the_right_interval(reference) -> None:
    ds = open_results(reference).load()
    rows = {(r.variant, r.measure): r for r in summarise(ds, ["goeben_in_action", "battles"])}
    flag = rows[("base", "goeben_in_action")]
    k = int(np.nansum(ds["goeben_in_action"].values[0]))
    assert flag.kind == "flag" and flag.estimate == wilson(k, 20)
    assert rows[("base", "battles")].estimate == t_interval(ds["battles"].values[0])


def test_analyse_prints_a_table_per_variant_and_writes_the_page(reference) -> None:
    text, written = analyse(reference)
    assert "== base" in text and "== same" in text and "== faster" in text
    # The what-if that changes nothing is said to, in the text and the page; the one that does is not.
    note = ("note: same gave the base's value of every measure (but events, the run's cost) in every replicate "
            "(20 replicates): its change made no difference to what the batch measures")
    assert note in text and "faster gave" not in text
    assert html_text(reference / "analysis.html").count(note) == 1
    assert "60 of 60 replicates done" in text
    html = html_text(reference / "analysis.html")
    assert html.count("plotly.js v") >= 1 and "Goeben's escape probability by variant" in html
    assert "Paired differences from the base" in html
    data = json.loads((reference / "analysis.json").read_text())
    assert {r["variant"] for r in data} == {"base", "same", "faster"}
    assert {p.name for p in written} == {"analysis.html", "analysis.json"}


def html_text(path) -> str:
    """The page's text with the escapes of its notes undone."""
    import html

    return html.unescape(path.read_text())


def test_unknown_measures_are_refused(reference) -> None:
    with pytest.raises(ValueError, match="unknown measure"):
        analyse(reference, ["nope"])


def _design_results(tmp_path, raw_design: dict):
    """A finished two-variant store over ``raw_design`` whose goeben_coal_t is 1000 x the sighting-range
    factor + the telegraph-delay factor at every point (5 more in the second variant)."""
    from campaign.batch.design import parse_design
    from campaign.batch.measures import MEASURE_NAMES
    from campaign.batch.plan import BatchPlan
    from campaign.batch.store import ResultStore

    d = parse_design(raw_design)
    p = BatchPlan("/s.yaml", "s", ("base", "a"), 2, 3, 2, d)
    store = ResultStore.open_or_create(tmp_path, p)
    for c in p.chunks():
        values = np.ones((len(MEASURE_NAMES), c.n))
        at = d.point(c.p)
        values[MEASURE_NAMES.index("goeben_coal_t")] = (1000 * at["sighting_range_factor"]
                                                         + at["telegraph_delay_factor"] + 5 * c.v)
        store.write(c, values)
    return open_results(tmp_path)


def test_a_grids_sensitivity_is_each_levels_mean_over_the_other_parameters(tmp_path) -> None:
    from campaign.batch.analyse import _sensitivity

    ds = _design_results(tmp_path, {"kind": "grid", "parameters": {
        "sighting_range_factor": {"values": [0.5, 1.0]}, "telegraph_delay_factor": {"values": [1.0, 2.0, 3.0]}}})
    fig = _sensitivity(ds, ["sighting_range_factor", "telegraph_delay_factor"], ["goeben_coal_t"])
    by = {(t.name, t.xaxis): t for t in fig.data}
    assert by[("base", "x")].x.tolist() == [0.5, 1.0] and by[("base", "x")].y.tolist() == [502.0, 1002.0]
    assert by[("a", "x2")].x.tolist() == [1.0, 2.0, 3.0] and by[("a", "x2")].y.tolist() == [756.0, 757.0, 758.0]
    assert {t.mode for t in fig.data} == {"lines+markers"}
    # One colour per variant, the same in every panel.
    colours = {(t.name, t.line.color) for t in fig.data} | {(t.name, t.marker.color) for t in fig.data}
    assert len(colours) == 2 and len({c for _, c in colours}) == 2


def test_a_hypercubes_sensitivity_is_its_points_not_a_line_through_them(tmp_path) -> None:
    from campaign.batch.analyse import _sensitivity

    ds = _design_results(tmp_path, {"kind": "lhs", "points": 5, "seed": 2, "parameters": {
        "sighting_range_factor": {"low": 0.5, "high": 1.5}, "telegraph_delay_factor": {"low": 1.0, "high": 3.0}}})
    fig = _sensitivity(ds, ["sighting_range_factor", "telegraph_delay_factor"], ["goeben_coal_t"])
    assert {t.mode for t in fig.data} == {"markers"} and "Latin hypercube" in fig.layout.title.text
    base = next(t for t in fig.data if t.name == "base" and t.xaxis == "x")
    assert len(base.x) == 5 and list(base.x) == sorted(base.x)
    s, t = ds["sighting_range_factor"].values, ds["telegraph_delay_factor"].values
    order = np.argsort(s)
    assert np.allclose(base.y, 1000 * s[order] + t[order])


def _arrival_results(tmp_path, runs: int = 5000):
    """A finished two-variant store whose goeben_arrival_h is normal (mean 100 h, 110 h in the second
    variant; sd 20 h), with ten replicates a chunk that never got away (NaN); the results and each
    variant's values."""
    from campaign.batch.measures import MEASURE_NAMES
    from campaign.batch.plan import BatchPlan
    from campaign.batch.store import ResultStore

    p = BatchPlan("/s.yaml", "s", ("base", "a"), runs, 3, 1000)
    store = ResultStore.open_or_create(tmp_path, p)
    rng = np.random.default_rng(1)
    arrival: dict[int, list] = {}
    row = MEASURE_NAMES.index("goeben_arrival_h")
    for c in p.chunks():
        values = rng.random((len(MEASURE_NAMES), c.n))
        values[row] = rng.normal(100 + 10 * c.v, 20, c.n)
        values[row, :10] = np.nan
        arrival.setdefault(c.v, []).append(values[row])
        store.write(c, values)
    finite = {v: np.concatenate(xs)[np.isfinite(np.concatenate(xs))] for v, xs in arrival.items()}
    return open_results(tmp_path).load(), finite


def test_the_pages_histograms_carry_counts_on_shared_bins_not_every_replicate(tmp_path) -> None:
    from campaign.batch.analyse import MAX_BINS, _histogram

    ds, values = _arrival_results(tmp_path)
    fig = _histogram(ds, "goeben_arrival_h", "t")
    assert [t.name for t in fig.data] == ["base", "a"]
    for t, v in zip(fig.data, (0, 1)):
        assert len(t.x) <= MAX_BINS  # not one value per replicate
        assert list(t.x) == list(fig.data[0].x)  # the same bins for every variant
        assert sum(t.y) == len(values[v]) == 5000 - 50  # every replicate with a value, once
        half = t.width[0] / 2
        inside = (values[v] >= t.x[0] - half) & (values[v] < t.x[0] + half)
        assert t.y[0] == inside.sum()  # the first bin counts the values in it


def test_the_pages_boxes_are_each_variants_quartiles_percentiles_and_mean(tmp_path) -> None:
    from campaign.batch.analyse import WHISKERS, _spread

    ds, values = _arrival_results(tmp_path)
    fig = _spread(ds, "goeben_arrival_h", "t")
    assert [t.name for t in fig.data] == ["base", "a"]
    for t, v in zip(fig.data, (0, 1)):
        x = values[v]
        assert t.q1[0] == pytest.approx(np.percentile(x, 25)) and t.q3[0] == pytest.approx(np.percentile(x, 75))
        assert t.median[0] == pytest.approx(np.median(x)) and t.mean[0] == pytest.approx(x.mean())
        assert t.lowerfence[0] == pytest.approx(np.percentile(x, WHISKERS[0]))
        assert t.upperfence[0] == pytest.approx(np.percentile(x, WHISKERS[1]))
    # Normal arrivals, mean 100 h and 110 h, sd 20 h: the medians where the sampling puts them.
    assert fig.data[0].median[0] == pytest.approx(100, abs=1.5) and fig.data[1].median[0] == pytest.approx(110, abs=1.5)


def test_every_variant_has_its_own_colour_in_every_chart(tmp_path) -> None:
    import plotly.colors

    from campaign.batch.analyse import _histogram, _spread, variant_colours

    fifteen = [f"v{i}" for i in range(15)]  # the historical scenario's variants: more than Plotly's ten colours
    assert len(set(variant_colours(fifteen).values())) == 15
    assert list(variant_colours(["base", "a"]).values()) == plotly.colors.qualitative.Plotly[:2]
    ds, _ = _arrival_results(tmp_path, runs=1000)
    for fig in (_histogram(ds, "goeben_arrival_h", "t"), _spread(ds, "goeben_arrival_h", "t")):
        assert {t.name: t.marker.color for t in fig.data} == variant_colours(["base", "a"])


def test_a_variants_change_the_design_replaced_is_noted_in_the_tables_and_the_page(tmp_path) -> None:
    from campaign.batch.design import parse_design
    from campaign.batch.measures import MEASURE_NAMES
    from campaign.batch.parameters import Override
    from campaign.batch.plan import BatchPlan
    from campaign.batch.store import ResultStore

    d = parse_design({"kind": "grid", "parameters": {"goeben_sustained_kn": {"values": [20.0, 22.0]}}})
    o = Override("a", "goeben_sustained_kn", 24.5, 23.5, True)
    p = BatchPlan("/s.yaml", "s", ("base", "a"), 2, 3, 2, d, overrides=(o,))
    store = ResultStore.open_or_create(tmp_path, p)
    for c in p.chunks():
        store.write(c, np.ones((len(MEASURE_NAMES), c.n)))
    text, _ = analyse(tmp_path)
    assert f"note: {o.describe()}" in text
    assert "a: the design sets goeben_sustained_kn" in (tmp_path / "analysis.html").read_text().replace("&#x27;", "'")
    # A batch whose design replaced nothing has no such note.
    other = tmp_path / "other"
    p = BatchPlan("/s.yaml", "s", ("base", "a"), 2, 3, 2, d)
    store = ResultStore.open_or_create(other, p)
    for c in p.chunks():
        store.write(c, np.ones((len(MEASURE_NAMES), c.n)))
    assert "the design sets" not in analyse(other)[0]


def test_a_design_batch_is_analysed_for_sensitivity_in_the_tables_the_page_and_sensitivity_json(tmp_path) -> None:
    """goeben_coal_t rises with both parameters of the grid (1000 x sighting + telegraph): its PRCC with
    each is near 1 and its interval excludes 0; a measure the design leaves alone is not tabulated."""
    ds = _design_results(tmp_path, {"kind": "grid", "parameters": {
        "sighting_range_factor": {"values": [0.5, 1.0]}, "telegraph_delay_factor": {"values": [1.0, 2.0, 3.0]}}})
    text, written = analyse(tmp_path)
    assert "sensitivity.json" in {p.name for p in written}
    section = text.split("== sensitivity: base", 1)[1].split("== sensitivity: a", 1)[0]
    coal = next(line for line in section.splitlines() if line.startswith("goeben_coal_t"))
    assert coal.count("*") == 2 and "battles" not in section  # every battles value is 1: no correlation
    data = json.loads((tmp_path / "sensitivity.json").read_text())
    got = {(r["variant"], r["measure"], r["parameter"]): r["prcc"] for r in data if r["of"] == "value"}
    for p in ("sighting_range_factor", "telegraph_delay_factor"):
        assert got[("a", "goeben_coal_t", p)]["value"] > 0.9 and got[("a", "goeben_coal_t", p)]["low"] > 0
    assert got[("base", "battles", "sighting_range_factor")]["value"] is None
    assert "Sensitivity (PRCC)" in (tmp_path / "analysis.html").read_text()
    assert len(ds["point"]) == 6


def test_a_what_ifs_effect_that_grows_with_a_parameter_shows_in_its_differences_sensitivity(tmp_path) -> None:
    """Coal on arrival: the base's follows the telegraph delay; the what-if's adds 10 x the sighting-range
    factor and noise from the seed. Its own coal correlates with both parameters; its difference from the
    base, replicate by replicate, with the sighting range alone."""
    from campaign.batch.design import parse_design
    from campaign.batch.measures import MEASURE_NAMES
    from campaign.batch.plan import BatchPlan
    from campaign.batch.sensitivity import DIFFERENCE, VALUE, sensitivity_rows
    from campaign.batch.store import ResultStore

    d = parse_design({"kind": "lhs", "points": 12, "seed": 4, "parameters": {
        "sighting_range_factor": {"low": 0.5, "high": 1.5}, "telegraph_delay_factor": {"low": 1.0, "high": 3.0}}})
    p = BatchPlan("/s.yaml", "s", ("base", "a"), 10, 3, 10, d)
    store = ResultStore.open_or_create(tmp_path, p)
    noise = np.random.default_rng(8).normal(0, 0.5, 10)  # the seed's: the same in both variants
    for c in p.chunks():
        at = d.point(c.p)
        values = np.ones((len(MEASURE_NAMES), c.n))
        values[MEASURE_NAMES.index("goeben_coal_t")] = (
            100 * at["telegraph_delay_factor"] + noise[c.r0:c.r1] + 10 * at["sighting_range_factor"] * c.v)
        store.write(c, values)
    ds = open_results(tmp_path).load()
    rows = {(r.variant, r.of, r.parameter): r.prcc for r in
            sensitivity_rows(ds, ["goeben_coal_t"], ["sighting_range_factor", "telegraph_delay_factor"])}
    # (The seed's noise cancels in the differences to the last bits, which break the ties at a point.)
    assert rows[("a", DIFFERENCE, "sighting_range_factor")].value > 0.99
    assert not rows[("a", DIFFERENCE, "telegraph_delay_factor")].excludes_zero
    assert rows[("a", VALUE, "telegraph_delay_factor")].excludes_zero
    assert not any(of == DIFFERENCE for v, of, _ in rows if v == "base")
    text, _ = analyse(tmp_path, ["goeben_coal_t"])
    assert "goeben_coal_t - base" in text.split("== sensitivity: a", 1)[1]
    assert "goeben_coal_t - base" not in text.split("== sensitivity: base", 1)[1].split("== sensitivity: a")[0]
    data = json.loads((tmp_path / "sensitivity.json").read_text())
    assert {r["of"] for r in data} == {VALUE, DIFFERENCE}


def _alike_results(tmp_path, variants: tuple[str, ...], same_as: dict[str, str],
                   done_chunks: dict[str, int] | None = None):
    """A store of ``variants`` with random measures, those of each key of ``same_as`` copied from the
    variant it names (all but ``events``, which always differs); of a variant in ``done_chunks``, only
    that many of its chunks written."""
    from campaign.batch.measures import MEASURE_NAMES
    from campaign.batch.plan import BatchPlan
    from campaign.batch.store import ResultStore

    p = BatchPlan("/s.yaml", "s", variants, 12, 3, 4)
    store = ResultStore.open_or_create(tmp_path, p)
    rng = np.random.default_rng(7)
    events = MEASURE_NAMES.index("events")
    by_chunk = {}
    for c in p.chunks():
        if c.r0 >= (done_chunks or {}).get(variants[c.v], 3) * c.n:
            continue
        source = variants.index(same_as.get(variants[c.v], variants[c.v]))
        values = by_chunk.get((source, c.r0))
        if values is None:
            values = by_chunk[(source, c.r0)] = rng.integers(0, 3, (len(MEASURE_NAMES), c.n)).astype(float)
            values[0, 0] = np.nan  # a measure a run lacks is alike when both lack it
        mine = values.copy()
        mine[events] = rng.integers(1000, 2000, c.n)  # what a run cost: never compared
        store.write(c, mine)
    return open_results(tmp_path).load()


def test_variants_that_gave_the_same_outcomes_are_noted(tmp_path) -> None:
    from campaign.batch.analyse import alike_notes

    ds = _alike_results(tmp_path, ("base", "a", "b", "c", "d"), {"b": "base", "d": "c"})
    assert alike_notes(ds) == [
        ("note: b gave the base's value of every measure (but events, the run's cost) in every replicate "
        "(12 replicates): its change made no difference to what the batch measures"),
        ("note: c and d gave the same value of every measure (but events, the run's cost) as one another in every "
        "replicate (12 replicates): what sets them apart made no difference to what the batch measures")]
    # One a design note has explained is left to it.
    assert alike_notes(ds, skip=("b",))[0].startswith("note: c and d")
    assert len(alike_notes(ds, skip=("b",))) == 1


def test_a_single_differing_value_sets_variants_apart(tmp_path) -> None:
    from campaign.batch.analyse import alike_notes
    from campaign.batch.measures import MEASURE_NAMES

    ds = _alike_results(tmp_path, ("base", "a"), {"a": "base"})
    assert len(alike_notes(ds)) == 1
    m = MEASURE_NAMES[3]
    ds[m].values[1, 11] += 1.0  # variant a, the last replicate
    assert alike_notes(ds) == []


def test_only_the_replicates_both_have_done_are_compared(tmp_path) -> None:
    from campaign.batch.analyse import alike_notes

    ds = _alike_results(tmp_path, ("base", "a", "b"), {"a": "base"}, done_chunks={"a": 2, "b": 1})
    assert alike_notes(ds) == [
        ("note: a gave the base's value of every measure (but events, the run's cost) in every replicate "
        "(8 replicates): its change made no difference to what the batch measures")]


def test_a_ships_measures_are_shown_only_for_the_variants_she_is_in(tmp_path) -> None:
    # Moltke is in the what-if that brings her and not in the base: her rows are the what-if's alone,
    # with no difference from a base that has no value to pair with.
    from campaign.batch.analyse import summarise
    from campaign.batch.measures import MEASURE_NAMES, SHIP_MEASURES
    from campaign.batch.plan import BatchPlan
    from campaign.batch.store import ResultStore

    p = BatchPlan("/s.yaml", "s", ("base", "moltke"), 6, 3, 4)
    store = ResultStore.open_or_create(tmp_path, p)
    hers = [i for i, n in enumerate(MEASURE_NAMES) if SHIP_MEASURES.get(n) == "moltke"]
    for c in p.chunks():
        values = np.ones((len(MEASURE_NAMES), c.n))
        if c.v == 0:
            values[hers] = np.nan
        store.write(c, values)
    rows = summarise(open_results(tmp_path).load(), ["moltke_escaped", "moltke_sunk", "battles"])
    assert [(r.variant, r.measure) for r in rows] == [
        ("base", "battles"), ("moltke", "moltke_escaped"), ("moltke", "moltke_sunk"), ("moltke", "battles")]
    escaped = rows[1]
    assert escaped.estimate.n == 6 and escaped.estimate.value == 1.0 and escaped.difference.n == 0
