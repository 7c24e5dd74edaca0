"""The Zarr store: the batch's shape, chunk-by-chunk writes with a completion mask, resume, no duplicates."""

from __future__ import annotations

import json
import tempfile

import hypothesis.strategies as st
import numpy as np
import pytest
import xarray as xr
from hypothesis import given, settings

from campaign.batch.design import parse_design
from campaign.batch.measures import MEASURE_NAMES
from campaign.batch.plan import BatchPlan, default_chunk
from campaign.batch.seeds import replicate_seeds
from campaign.batch.store import (
    DONE,
    MEASURES_VAR,
    ResultStore,
    StoreMismatch,
    design_of,
    open_results,
    template,
)

N_MEASURES = len(MEASURE_NAMES)


def plan(**kw) -> BatchPlan:
    args = {"scenario": "/s.yaml", "scenario_name": "s", "variants": ("base", "a"), "runs": 7, "seed": 3, "chunk": 3}
    return BatchPlan(**(args | kw))


def values_for(chunk, offset: float = 0.0) -> np.ndarray:
    return np.arange(N_MEASURES * chunk.n, dtype=np.float64).reshape(N_MEASURES, chunk.n) + 100 * chunk.v + offset


def test_default_chunk() -> None:
    assert [default_chunk(n) for n in (1, 32, 33, 100, 640, 641, 10_000)] == [1, 1, 2, 4, 20, 20, 20]


def test_a_new_store_has_the_batchs_shape_seeds_and_nothing_done(tmp_path) -> None:
    p = plan()
    store = ResultStore.open_or_create(tmp_path, p)
    assert store.pending() == p.chunks() and len(p.chunks()) == 6
    ds = open_results(tmp_path)
    assert dict(ds.sizes) == {"variant": 2, "replicate": 7}
    assert list(ds["variant_name"].values) == ["base", "a"]
    assert np.array_equal(ds["seed"].values, replicate_seeds(3, 7))
    assert set(MEASURE_NAMES) <= set(ds.data_vars) and ds["goeben_arrival_h"].attrs["units"] == "h"
    assert np.isnan(ds["battles"].values).all() and not ds[DONE].values.any()
    assert ds["battles"].dims == ("variant", "replicate")
    raw = xr.open_zarr(str(tmp_path / "results.zarr"), consolidated=False)
    # One task, one Zarr chunk of all its measures and one of its mask.
    assert raw[MEASURES_VAR].encoding["chunks"] == (1, 3, N_MEASURES) and raw[DONE].encoding["chunks"] == (1, 3)


def test_making_a_store_builds_no_dask_graph_of_its_tasks(tmp_path) -> None:
    # The template's lazy arrays are never computed: a dask chunk per task would only cost Dask a graph
    # of every task (about half a minute for a million replicates); the store's own chunks still are.
    p = plan(runs=1000, chunk=1)
    made = template(p)
    assert made[MEASURES_VAR].data.npartitions == 1 and made[DONE].data.npartitions == 1
    ResultStore.create(tmp_path, p)
    raw = xr.open_zarr(str(tmp_path / "results.zarr"), consolidated=False)
    assert raw[MEASURES_VAR].encoding["chunks"] == (1, 1, N_MEASURES) and raw[DONE].encoding["chunks"] == (1, 1)


def test_reading_a_store_takes_many_of_its_chunks_a_dask_task(tmp_path) -> None:
    # A dask task per stored chunk made analysing 150,000 replicates take over a minute in Dask's
    # scheduling; the results are read in chunks of dask's own size (array.chunk-size), whole store chunks.
    p = plan(runs=1000, chunk=1)
    ResultStore.create(tmp_path, p)
    ds = open_results(tmp_path)
    assert ds["battles"].data.npartitions == 1 and ds[DONE].data.npartitions == 1
    assert ds["battles"].shape == (2, 1000) and np.isnan(ds["battles"].values).all()


def test_only_an_existing_store_is_opened_and_looking_writes_nothing(tmp_path) -> None:
    p = plan()
    assert ResultStore.existing(tmp_path / "out", p) is None and not (tmp_path / "out").exists()
    ResultStore.create(tmp_path / "out", p)
    assert ResultStore.existing(tmp_path / "out", p).pending() == p.chunks()


def test_a_task_is_written_as_one_file_of_measures_and_one_of_its_mask(tmp_path) -> None:
    # The driver shares the machine with the workers: a file per measure cost it some 35 times as much.
    p = plan()
    store = ResultStore.open_or_create(tmp_path, p)

    def files() -> set:
        return {f for f in (tmp_path / "results.zarr").rglob("*") if f.is_file()}

    before = files()
    store.write(p.chunks()[4], values_for(p.chunks()[4]))
    new = files() - before
    assert len(new) == 2 and {f.relative_to(tmp_path / "results.zarr").parts[0] for f in new} == {MEASURES_VAR, DONE}


def test_written_chunks_are_done_and_skipped_on_reopening(tmp_path) -> None:
    p = plan()
    store = ResultStore.open_or_create(tmp_path, p)
    first, last = p.chunks()[0], p.chunks()[-1]
    store.write(first, values_for(first))
    store.write(last, values_for(last))
    again = ResultStore.open_or_create(tmp_path, p)
    assert again.pending() == p.chunks()[1:-1]
    ds = open_results(tmp_path).load()
    assert ds[DONE].values.sum() == first.n + last.n
    assert ds["goeben_escaped"].values[0, :3].tolist() == values_for(first)[0].tolist()
    assert ds["events"].values[1, 6:].tolist() == values_for(last)[-1].tolist()


@settings(max_examples=25, deadline=None)
@given(runs=st.integers(1, 12), chunk=st.integers(1, 5), with_design=st.booleans(), data=st.data())
def test_the_pending_tasks_are_those_whose_mask_is_not_written(runs, chunk, with_design, data) -> None:
    # Told from the listing of the mask's chunks on disk (not by reading them): whatever the chunking (a
    # last task shorter than the others), with a design's point dimension or without, a reopened store's
    # pending tasks are exactly those not written, in the plan's order, and agree with the mask as read.
    d = parse_design({"kind": "grid", "parameters": {"sighting_range_factor": {"values": [0.5, 1.0]}}})
    p = plan(runs=runs, chunk=chunk, design=d if with_design else None)
    chunks = p.chunks()
    written = data.draw(st.sets(st.sampled_from(range(len(chunks)))))
    with tempfile.TemporaryDirectory() as out:
        store = ResultStore.create(out, p)
        for i in sorted(written):
            store.write(chunks[i], values_for(chunks[i]))
        again = ResultStore.existing(out, p)
        pending = again.pending()
        mask = again.done()
    assert pending == [c for i, c in enumerate(chunks) if i not in written]
    assert pending == [c for c in chunks if not mask[p.index(c)].all()]


def test_a_chunk_written_twice_keeps_one_copy(tmp_path) -> None:
    p = plan()
    store = ResultStore.open_or_create(tmp_path, p)
    c = p.chunks()[1]
    store.write(c, values_for(c))
    before = open_results(tmp_path).load()
    store.write(c, values_for(c))  # a retried task: the same values into the same cells
    after = open_results(tmp_path).load()
    assert after.identical(before)
    assert int(after[DONE].values.sum()) == c.n


def test_a_chunk_of_the_wrong_shape_is_refused(tmp_path) -> None:
    p = plan()
    store = ResultStore.open_or_create(tmp_path, p)
    with pytest.raises(ValueError, match="expected"):
        store.write(p.chunks()[0], np.zeros((N_MEASURES, 1)))


@pytest.mark.parametrize("change", [{"seed": 4}, {"runs": 8}, {"variants": ("base", "b")}, {"chunk": 2}])
def test_another_batchs_store_is_refused(tmp_path, change) -> None:
    ResultStore.open_or_create(tmp_path, plan())
    with pytest.raises(StoreMismatch, match="another batch"):
        ResultStore.open_or_create(tmp_path, plan(**change))


def test_a_design_adds_the_point_dimension_and_its_parameters(tmp_path) -> None:
    d = parse_design({"kind": "grid", "parameters": {"sighting_range_factor": {"values": [0.5, 1.0, 2.0]}}})
    p = plan(design=d)
    store = ResultStore.open_or_create(tmp_path, p)
    assert len(p.chunks()) == 2 * 3 * 3
    c = next(c for c in p.chunks() if c.p == 2 and c.v == 1)
    store.write(c, values_for(c))
    ds = open_results(tmp_path).load()
    assert ds["battles"].dims == ("variant", "point", "replicate") and dict(ds.sizes)["point"] == 3
    assert ds["sighting_range_factor"].values.tolist() == [0.5, 1.0, 2.0]
    assert ds[DONE].values[1, 2, c.r0:c.r1].all() and ds[DONE].values.sum() == c.n
    assert design_of(ds).values.tolist() == d.values.tolist()


def test_the_design_parameters_come_in_the_design_files_order_whatever_the_process(tmp_path) -> None:
    # The store lists its variables in an order that changes with the process's string hashing; the
    # tables, the charts' columns and the analysis file follow the design file instead.
    import os
    import subprocess
    import sys

    from campaign.paths import ROOT

    names = ["telegraph_delay_factor", "goeben_sustained_kn", "sighting_range_factor"]
    d = parse_design({"kind": "grid", "parameters": {n: {"values": [1.0]} for n in names}})
    ResultStore.open_or_create(tmp_path, plan(design=d))
    read = ("import sys; from campaign.batch.store import open_results; "
            "print(open_results(sys.argv[1]).attrs['design_parameters'])")
    seen = {subprocess.run([sys.executable, "-c", read, str(tmp_path)], cwd=ROOT, capture_output=True, text=True,
                           check=True, env=os.environ | {"PYTHONHASHSEED": str(h)}).stdout.strip()
            for h in range(4)}
    assert seen == {json.dumps(names)}


def test_a_missing_store_is_reported(tmp_path) -> None:
    with pytest.raises(FileNotFoundError, match="no batch results"):
        open_results(tmp_path)


def test_a_store_of_the_earlier_layout_is_refused_not_mixed(tmp_path) -> None:
    import zarr

    group = zarr.open_group(str(tmp_path / "results.zarr"), mode="w")
    group.create_array("battles", shape=(2, 7), dtype="f8")  # a variable per measure, as stores once were
    with pytest.raises(StoreMismatch, match="earlier version"):
        ResultStore.open_or_create(tmp_path, plan())


@pytest.mark.parametrize("attr", ["scenario_files", "software"])
def test_a_store_that_does_not_record_its_scenarios_files_or_software_is_refused_not_mixed(tmp_path, attr) -> None:
    # Stores made before the scenario's files and the software were part of a batch's identity cannot
    # say whether they changed since: resuming one could mix two versions of the model.
    import zarr

    ResultStore.open_or_create(tmp_path, plan())
    group = zarr.open_group(str(tmp_path / "results.zarr"), mode="r+")
    del group.attrs[attr]
    with pytest.raises(StoreMismatch, match="does not record the scenario's files and the software it ran"):
        ResultStore.open_or_create(tmp_path, plan())


def test_a_store_of_other_software_names_what_changed(tmp_path) -> None:
    from dataclasses import replace

    from campaign.batch.software import this_software

    mine = this_software()
    ResultStore.open_or_create(tmp_path, plan(software=mine))
    assert ResultStore.open_or_create(tmp_path, plan(software=mine))  # the same: resumes
    newer = replace(mine, versions=tuple((n, "99.0" if n == "numpy" else v) for n, v in mine.versions))
    with pytest.raises(StoreMismatch, match=rf"the software \(numpy 99\.0 now, {np.__version__} then\) changed"):
        ResultStore.open_or_create(tmp_path, plan(software=newer))
    # The files are named from the digests the store keeps of them.
    import zarr

    group = zarr.open_group(str(tmp_path / "results.zarr"), mode="r+")
    kept = json.loads(group.attrs["software_files"])
    kept["campaign/world/sighting.py"] = "0" * 64
    group.attrs["software_files"] = json.dumps(kept)
    with pytest.raises(StoreMismatch, match=r"the software \(campaign/world/sighting\.py\) changed"):
        ResultStore.open_or_create(tmp_path, plan(software=replace(mine, code="1" * 64)))


def test_a_store_made_without_software_is_another_batchs_to_one_with_it(tmp_path) -> None:
    # (A plan made by hand, without make_plan, records none.)
    from campaign.batch.software import this_software

    ResultStore.open_or_create(tmp_path, plan())
    with pytest.raises(StoreMismatch, match="holds the results of another batch"):
        ResultStore.open_or_create(tmp_path, plan(software=this_software()))


def test_a_store_of_other_versions_of_the_scenarios_files_names_those_that_changed(tmp_path) -> None:
    from campaign.batch.bundle import ScenarioFiles

    def files(**digests: str) -> ScenarioFiles:
        sha = tuple(sorted((k.replace("__", "/") + ".yaml", v) for k, v in digests.items()))
        return ScenarioFiles("s.yaml", (), sha)

    ResultStore.open_or_create(tmp_path, plan(files=files(s="1", variants__a="2")))
    assert ResultStore.open_or_create(tmp_path, plan(files=files(s="1", variants__a="2")))  # the same: resumes
    with pytest.raises(StoreMismatch, match=r"the scenario.s files \(variants/a\.yaml\) changed since it began"):
        ResultStore.open_or_create(tmp_path, plan(files=files(s="1", variants__a="3")))
    with pytest.raises(StoreMismatch, match="another batch"):  # other files and another seed
        ResultStore.open_or_create(tmp_path, plan(files=files(s="1", variants__a="3"), seed=9))
