"""A duel's odds: runs summed up with their intervals, the same on one process or several."""

from __future__ import annotations

import math

import pytest

from campaign.duels.duel import fight_duel, load_duel
from campaign.duels.duel_odds import duel_statistics, median_interval, run_summaries, run_summary
from campaign.output.duel_report import statistics_table
from campaign.paths import ROOT

DUEL = ROOT / "scenarios" / "duels" / "gloucester_vs_breslau.yaml"


def test_the_runs_are_the_same_on_two_processes_as_on_one():
    duel = load_duel(DUEL)
    one = run_summaries(duel, "board", runs=4, seed=3, workers=1)
    two = run_summaries(duel, "board", runs=4, seed=3, workers=2)
    assert one == two and [s.seed for s in one] == [3, 4, 5, 6]


def test_a_run_counts_each_side_s_hits_by_the_firer_and_its_fire():
    duel = load_duel(DUEL)
    out = fight_duel(duel, "jane", 2, keep_frames=False)
    s = run_summary(duel, "jane", 2)
    german = {"Breslau"}
    assert s.hits["Germany"] == sum(1 for e in out.events if e.type == "hit" and e.target in german)
    assert s.hits["Britain"] == sum(1 for e in out.events if e.type == "hit" and e.target == "Gloucester")
    assert s.fire["Germany"] == sum(1 for e in out.events if e.type == "fire" and e.ship == "Breslau")
    assert s.duration_min == pytest.approx(out.duration_s / 60.0)


def test_every_figure_has_an_interval_that_holds_it():
    duel = load_duel(DUEL)
    st = duel_statistics(duel, "board", runs=12, seed=0)
    figures = [*st.sunk.values(), *st.damage.values(), *st.broke_off.values(), *st.reasons.values(),
               *st.hits.values(), st.duration_min]
    for e in figures:
        assert e.n == 12
        if not math.isnan(e.low):
            assert e.low <= e.value <= e.high
    assert sum(e.value for e in st.reasons.values()) == pytest.approx(1.0)
    text = statistics_table(duel, [st])
    assert "P(Breslau sunk)" in text and "[" in text and "95 % intervals" in text


def test_the_median_s_interval_is_the_order_statistics():
    # n = 100: ranks 50 -+ 1.96 * 10 / 2 = 40.2 .. 59.8, outwards to the 40th and 61st values (1-based).
    e = median_interval(list(range(1, 101)))
    assert e.value == 50.5 and e.low == 40 and e.high == 61
    assert median_interval([7.0]).value == 7.0
