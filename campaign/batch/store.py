"""The Zarr store of a batch's results, written chunk by chunk as tasks finish.

``DIR/results.zarr`` holds one xarray Dataset:

* dimensions ``variant`` (integer ids; the names are the CF ``flag_meanings`` of the ``variant``
  coordinate, since string arrays upset Zarr 3, and :func:`open_results` gives them back as the
  ``variant_name`` coordinate), ``point`` (design points, only with a design), ``replicate`` and
  ``measure`` (integer ids, the measures' names in its ``flag_meanings`` in the order of
  campaign/batch/measures.py);
* ``seed`` (replicate): the run seed of each replicate, the same for every variant and point;
* one variable per design parameter over ``point`` (its value at each point);
* ``measures`` (float64, the batch's dimensions then ``measure``): every measure of every replicate
  (NaN until written, and where a measure does not exist in a run). :func:`open_results` splits it into
  one variable per measure, with its units and long name;
* ``done`` (bool, the batch's dimensions): the completion mask.

``measures`` and ``done`` are chunked exactly as the batch's tasks (one variant, one point, ``chunk``
replicates, and every measure), and only the driver writes: a finished task's measures are written into
its own chunk of ``measures``, then its cells of ``done``. Two writes a task, each one file: Zarr's cost
is per chunk written (about 1.6 ms here), so a variable per measure on disk would cost the driver, which
shares the machine with the workers, some 35 times as much for every task. A task that ran twice (a
worker died after finishing it, or a resumed batch recomputed a chunk whose measures were written but not
its mask) writes the same values into the same cells: there are no duplicates to remove. A resumed
batch skips the chunks whose cells are all done. The batch's identity (campaign/batch/plan.py
``BatchPlan.identity``, with the SHA-256 of each of the scenario's files the workers load and the software
the batch runs) is kept in the attributes, and a store made by another batch, or by this one before its
scenario's files were edited or its software changed, is refused rather than mixed.
"""

from __future__ import annotations

import json
import warnings
from dataclasses import asdict
from pathlib import Path
from typing import Any

import dask.array as da
import numpy as np
import xarray as xr
import zarr

from campaign.batch.design import Design
from campaign.batch.measures import MEASURE_NAMES, MEASURES
from campaign.batch.parameters import parameter
from campaign.batch.plan import SCENARIO_FILES, SOFTWARE, BatchPlan, Chunk
from campaign.batch.software import changed, these_files

RESULTS = "results.zarr"
DONE = "done"
MEASURES_VAR = "measures"  # every measure, over the batch's dimensions and ``measure``
MEASURE_DIM = "measure"
SOFTWARE_FILES = "software_files"  # {path: SHA-256} of the code and data files the batch began with
DESIGN_OVERRIDES = "design_overrides"  # JSON list of parameters.Override fields: the variants' changes the design replaces


class StoreMismatch(ValueError):
    """The output folder already holds the results of a different batch."""


class StoreUnreadable(ValueError):
    """The output folder's results store cannot be read as a batch's results."""


def results_path(out_dir: str | Path) -> Path:
    return Path(out_dir) / RESULTS


def _chunks(plan: BatchPlan) -> tuple[int, ...]:
    """One Zarr chunk per task: one variant, one point, ``plan.chunk`` replicates."""
    return tuple(1 for _ in plan.dims[:-1]) + (plan.chunk,)


def _measure_chunks(plan: BatchPlan) -> tuple[int, ...]:
    """``measures``' chunk: a task's cells and every measure."""
    return (*_chunks(plan), len(MEASURE_NAMES))


def template(plan: BatchPlan) -> xr.Dataset:
    """The Dataset a new store of ``plan`` is made from: its coordinates, seeds and design parameters,
    and its results as lazy arrays that are never computed (only their metadata is written)."""
    dims, shape = plan.dims, plan.shape
    coords: dict[str, Any] = {
        "variant": ("variant", np.arange(len(plan.variants), dtype=np.int64),
                    {"long_name": "variant id", "flag_values": list(range(len(plan.variants))),
                     "flag_meanings": " ".join(plan.variants)}),
        "replicate": ("replicate", np.arange(plan.runs, dtype=np.int64), {"long_name": "replicate number"}),
        MEASURE_DIM: (MEASURE_DIM, np.arange(len(MEASURES), dtype=np.int64),
                      {"long_name": "measure id", "flag_values": list(range(len(MEASURES))),
                       "flag_meanings": " ".join(MEASURE_NAMES)}),
    }
    data: dict[str, Any] = {
        "seed": ("replicate", plan.seeds(), {"long_name": "run seed of the replicate, the same in every "
                                                          "variant and point (common random numbers)"}),
    }
    if plan.design is not None:
        coords["point"] = ("point", np.arange(plan.n_points, dtype=np.int64), {"long_name": "design point"})
        for i, name in enumerate(plan.design.names):
            data[name] = ("point", plan.design.values[:, i].copy(),
                          {"long_name": parameter(name).what, "design_parameter": 1})
    # The results are lazy (dask) arrays, never computed: creating the store writes their metadata only,
    # and a chunk not yet written reads as the fill value (NaN; False for ``done``). Each is one dask chunk
    # (the store's chunks are set by the encoding): a dask chunk per task would make Dask build a graph of
    # every task's chunk only to be dropped, about half a minute for a batch of a million replicates.
    data[MEASURES_VAR] = ((*dims, MEASURE_DIM), da.full((*shape, len(MEASURES)), np.nan, chunks=-1),
                          {"long_name": "the replicate's measures (campaign/batch/measures.py)"})
    data[DONE] = (dims, da.zeros(shape, dtype=bool, chunks=-1), {"long_name": "replicate written"})
    attrs = {"title": f"batch of {plan.scenario_name}", **plan.identity(),
             # Each file's digest, to name those that change (the identity has only their digest).
             SOFTWARE_FILES: json.dumps(these_files()) if plan.software is not None else "",
             # The variants' changes the design replaces (campaign/batch/parameters.py), for analyse's notes.
             DESIGN_OVERRIDES: json.dumps([asdict(o) for o in plan.overrides]),
             "rerun": "python run_campaign.py SCENARIO --variant VARIANT --seed SEED (SCENARIO: the copy in the "
                      "batch's scenario/ folder; base: no --variant; a design point: --set PARAMETER=VALUE for "
                      "each of its parameters)"}
    return xr.Dataset(data, coords=coords, attrs=attrs)


class ResultStore:
    """A batch's results on disk: create or reopen, see what is done, write a finished chunk."""

    def __init__(self, path: Path, plan: BatchPlan) -> None:
        self.path = path
        self.plan = plan
        group = zarr.open_group(str(path), mode="r+")
        self._measures, self._done = group[MEASURES_VAR], group[DONE]  # opened once: writes are many

    @classmethod
    def open_or_create(cls, out_dir: str | Path, plan: BatchPlan) -> ResultStore:
        """The store of ``plan`` in ``out_dir``: a new one, or the one an earlier run of the same batch
        left (to resume). StoreMismatch if ``out_dir`` holds another batch's results."""
        return cls.existing(out_dir, plan) or cls.create(out_dir, plan)

    @classmethod
    def existing(cls, out_dir: str | Path, plan: BatchPlan) -> ResultStore | None:
        """The store an earlier run of ``plan`` left in ``out_dir`` (to resume), None if there is none;
        StoreMismatch if ``out_dir`` holds another batch's results. Writes nothing."""
        path = results_path(out_dir)
        if not path.exists():
            return None
        try:
            group = zarr.open_group(str(path), mode="r")
        except (ValueError, OSError) as exc:  # not a Zarr group at all (zarr's errors are both)
            raise StoreUnreadable(f"{path}: cannot read it as a batch's results ({exc}); give another --out, "
                                  "or remove it to start again") from None
        if MEASURES_VAR not in group:
            raise StoreMismatch(f"{path} was written by an earlier version of this program (a variable per "
                                "measure): give another --out, or remove it to start again")
        attrs: dict[str, Any] = dict(group.attrs)
        want = plan.identity()
        differ = [k for k, v in want.items() if attrs.get(k) != v]
        if SCENARIO_FILES not in attrs or SOFTWARE not in attrs:
            raise StoreMismatch(f"{path} was written by an earlier version of this program (it does not record "
                                "the scenario's files and the software it ran): give another --out, or remove it to "
                                "start again")
        if differ and set(differ) <= {SCENARIO_FILES, SOFTWARE} and all(want[k] and attrs[k] for k in differ):
            what = []
            if SCENARIO_FILES in differ:
                then, now = json.loads(attrs[SCENARIO_FILES] or "{}"), json.loads(want[SCENARIO_FILES])
                what.append(f"the scenario's files ({', '.join(changed(then, now))})")
            if SOFTWARE in differ:
                assert plan.software is not None
                change = plan.software.change_since(json.loads(attrs[SOFTWARE]),
                                                    json.loads(attrs.get(SOFTWARE_FILES) or "{}"))
                what.append(f"the software ({change})")
            raise StoreMismatch(f"{path} holds this batch's results, but {' and '.join(what)} changed since it "
                                "began; resuming would put two versions of the model into one Dataset: go back to "
                                "them, or give another --out")
        if differ:
            raise StoreMismatch(f"{path} holds the results of another batch (it differs in "
                                f"{', '.join(differ)}); give another --out, or remove it to start again")
        return cls(path, plan)

    @classmethod
    def create(cls, out_dir: str | Path, plan: BatchPlan) -> ResultStore:
        """A new, empty store of ``plan`` in ``out_dir`` (which must not hold one)."""
        path = results_path(out_dir)
        path.parent.mkdir(parents=True, exist_ok=True)
        encoding = {MEASURES_VAR: {"chunks": _measure_chunks(plan)}, DONE: {"chunks": _chunks(plan)}}
        with warnings.catch_warnings():
            # Zarr 3 marks its consolidated metadata as outside the spec; we do not use it.
            warnings.simplefilter("ignore", category=UserWarning)
            template(plan).to_zarr(str(path), mode="w-", encoding=encoding, consolidated=False, compute=False)
        return cls(path, plan)

    def done(self) -> np.ndarray:
        """The completion mask (bool, the batch's shape)."""
        return np.asarray(self._done[...], dtype=bool)

    def pending(self) -> list[Chunk]:
        """The batch's chunks not yet wholly written, told from which of ``done``'s chunks are on disk.

        :meth:`write` writes a chunk of ``done`` once, all True, after its measures, and Zarr stores no
        chunk that is all its fill value (False), so a chunk on disk is a finished task. One listing of the
        folder, rather than reading the mask, which opens a file a task, present or not (the times of both,
        for 100,000 tasks: docs/performance.md)."""
        on_disk = {f.relative_to(self._done_dir).as_posix() for f in self._done_dir.rglob("*") if f.is_file()}
        key = self._done.metadata.encode_chunk_key
        return [c for c in self.plan.chunks() if key(self._chunk_coords(c)) not in on_disk]

    @property
    def _done_dir(self) -> Path:
        return self.path / DONE

    def _chunk_coords(self, c: Chunk) -> tuple[int, ...]:
        """The coordinates of task ``c``'s chunk in the grid of ``done``'s chunks (:func:`_chunks`)."""
        return (c.v, c.p, c.r0 // self.plan.chunk) if self.plan.design is not None else (c.v, c.r0 // self.plan.chunk)

    def write(self, chunk: Chunk, values: np.ndarray) -> None:
        """Write a finished chunk: ``values`` is measures x replicates (MEASURE_NAMES order). The
        measures first, then the mask, so that a crash in between leaves the chunk to be rerun."""
        if values.shape != (len(MEASURE_NAMES), chunk.n):
            raise ValueError(f"chunk {chunk}: expected {len(MEASURE_NAMES)} x {chunk.n} values, got {values.shape}")
        idx = self.plan.index(chunk)
        self._measures[idx] = values.T  # replicates x measures: the chunk's one file
        self._done[idx] = np.ones(chunk.n, dtype=bool)


def open_results(out_dir: str | Path) -> xr.Dataset:
    """A batch's results as an xarray Dataset (lazy, Dask-backed): one variable per measure over the
    batch's dimensions, with its units and long name; the variant names as the ``variant_name``
    coordinate; the design parameters' names in ``attrs['design_parameters']``."""
    path = results_path(out_dir)
    if not path.exists():
        raise FileNotFoundError(f"{out_dir}: no batch results here (no {RESULTS})")
    try:
        return _read_results(path)
    except (KeyError, ValueError, OSError) as exc:
        # Not this program's store (or a damaged one): zarr's and xarray's own words say what is wrong.
        why = exc.args[0] if isinstance(exc, KeyError) and exc.args else exc
        raise StoreUnreadable(f"{path}: cannot read it as a batch's results ({why})") from None


def _read_results(path: Path) -> xr.Dataset:
    # Dask chunks of about 128 MiB (dask's array.chunk-size), each whole chunks of the store: a chunk a task,
    # as stored, made a graph of hundreds of thousands of tasks for a large batch (analysing 150,000
    # replicates took over a minute, nearly all in Dask's scheduling).
    ds = xr.open_zarr(str(path), consolidated=False, chunks="auto")
    names = str(ds["variant"].attrs.get("flag_meanings", "")).split()
    ds = ds.assign_coords(variant_name=("variant", np.array(names, dtype=object)))
    # The measures as the store names them (the order it was written in), each a variable of its own.
    measure_names = str(ds[MEASURE_DIM].attrs.get("flag_meanings", "")).split()
    split = ds[MEASURES_VAR].assign_coords({MEASURE_DIM: measure_names}).to_dataset(dim=MEASURE_DIM)
    known = {m.name: m for m in MEASURES}
    for name in measure_names:
        m = known.get(name)
        split[name].attrs = {"units": m.units, "long_name": m.long_name, "kind": m.kind} if m else {}
    params = [k for k, v in ds.data_vars.items() if v.attrs.get("design_parameter")]
    design = design_of(ds)
    if design is not None:  # the design file's order, not the store's listing (which varies)
        params.sort(key=lambda k: design.names.index(k) if k in design.names else len(design.names))
    ds = xr.merge([ds.drop_vars([MEASURES_VAR, MEASURE_DIM]), split], combine_attrs="override")
    ds = ds[["seed", *params, *measure_names, DONE]]  # a stable order: the store lists them as it likes
    ds.attrs["design_parameters"] = json.dumps(params)
    return ds


def design_of(ds: xr.Dataset) -> Design | None:
    """The design a batch's results were made with, or None."""
    text = ds.attrs.get("design") or ""
    return Design.from_description(text) if text else None
