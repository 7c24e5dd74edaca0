"""Experiment designs: a grid's every combination, a seeded Latin hypercube's strata and bounds, faults
named by file and field."""

from __future__ import annotations

import numpy as np
import pytest
import yaml

from campaign.batch.design import Design, DesignError, load_design, parse_design
from campaign.paths import ROOT

GRID = {"kind": "grid", "parameters": {
    "sighting_range_factor": {"low": 0.8, "high": 1.2, "levels": 3},
    "telegraph_delay_factor": {"values": [0.5, 2.0]},
}}
LHS = {"kind": "lhs", "points": 10, "seed": 4, "parameters": {
    "sighting_range_factor": {"low": 0.5, "high": 1.5},
    "goeben_sustained_kn": {"low": 18.0, "high": 24.0},
    "telegraph_delay_factor": {"low": 1.0, "high": 3.0},
}}


def test_grid_is_every_combination_first_parameter_slowest() -> None:
    d = parse_design(GRID)
    assert d.kind == "grid" and d.names == ("sighting_range_factor", "telegraph_delay_factor")
    assert d.values.shape == (6, 2)
    assert d.values.tolist() == [[0.8, 0.5], [0.8, 2.0], [1.0, 0.5], [1.0, 2.0], [1.2, 0.5], [1.2, 2.0]]
    assert d.point(3) == {"sighting_range_factor": 1.0, "telegraph_delay_factor": 2.0}


def test_grid_levels_default_to_three() -> None:
    d = parse_design({"kind": "grid", "parameters": {"goeben_sustained_kn": {"low": 20, "high": 24}}})
    assert d.values[:, 0].tolist() == [20.0, 22.0, 24.0]


def test_latin_hypercube_has_one_point_in_each_stratum_of_each_parameter_within_bounds() -> None:
    d = parse_design(LHS)
    assert d.values.shape == (10, 3)
    for j, r in enumerate(LHS["parameters"].values()):
        x = d.values[:, j]
        assert (x >= r["low"]).all() and (x <= r["high"]).all()
        strata = np.floor((x - r["low"]) / (r["high"] - r["low"]) * 10).astype(int)
        assert sorted(strata.tolist()) == list(range(10))  # McKay et al.: each of the 10 strata once


def test_latin_hypercube_is_seeded() -> None:
    assert np.array_equal(parse_design(LHS).values, parse_design(LHS).values)
    assert not np.array_equal(parse_design(LHS).values, parse_design(LHS | {"seed": 5}).values)


def test_description_round_trips() -> None:
    d = parse_design(LHS)
    back = Design.from_description(d.describe())
    assert back.names == d.names and np.array_equal(back.values, d.values) and back.seed == 4


def test_a_design_file_is_read(tmp_path) -> None:
    p = tmp_path / "design.yaml"
    p.write_text(yaml.safe_dump(GRID))
    assert load_design(p).values.shape == (6, 2)


@pytest.mark.parametrize(("raw", "says"), [
    ({"kind": "grid", "parameters": {"sight": {"low": 1, "high": 2}}}, "parameters.sight: unknown parameter 'sight'"),
    ({"kind": "grid", "parameters": {"sighting_range_factor": {"low": 1, "high": 20}}}, "outside 0.1..10"),
    ({"kind": "lhs", "parameters": {"sighting_range_factor": {"low": 1, "high": 2}}}, "points: a Latin hypercube"),
    ({"kind": "lhs", "points": 3, "parameters": {"sighting_range_factor": {"values": [1]}}}, "needs low and high"),
    ({"kind": "grid", "parameters": {"sighting_range_factor": {"low": 2, "high": 1}}}, "high must not be below low"),
    ({"kind": "cube", "parameters": {}}, "kind:"),
    ({"kind": "grid", "parameters": {n: {"low": 1, "high": 2, "levels": 1000} for n in
                                     ("sighting_range_factor", "telegraph_delay_factor")}},
     "parameters: the grid has 1000 x 1000 = 1,000,000 points, more than 100,000"),
    ({"kind": "grid", "parameters": {"sighting_range_factor": {"low": 1, "high": 2}}, "extra": 1}, "extra: unknown field"),
])
def test_faults_name_the_file_and_field(tmp_path, raw, says) -> None:
    p = tmp_path / "d.yaml"
    p.write_text(yaml.safe_dump(raw))
    with pytest.raises(DesignError) as e:
        load_design(p)
    assert str(p) in str(e.value) and says in str(e.value)


def test_the_bundled_design_loads_within_its_bounds() -> None:
    path = ROOT / "scenarios" / "designs" / "goeben_sensitivity.yaml"
    d = load_design(path)
    raw = yaml.safe_load(path.read_text())
    assert d.kind == "lhs" and d.values.shape == (raw["points"], len(raw["parameters"]))
    for j, r in enumerate(raw["parameters"].values()):
        assert r["low"] <= d.values[:, j].min() and d.values[:, j].max() <= r["high"]


def test_a_missing_file_is_named(tmp_path) -> None:
    with pytest.raises(DesignError, match="no such file"):
        load_design(tmp_path / "none.yaml")
