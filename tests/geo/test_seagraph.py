"""The sea graph: one connected body of water, and a disk cache that gives back the same graph."""

from __future__ import annotations

import numpy as np
from scipy.sparse.csgraph import connected_components

from campaign.geo.land import LAND_FILE, default_land
from campaign.geo.places import default_places
from campaign.geo.routing import Router, default_router
from campaign.geo.seagraph import SeaGraph, cached_graph

GRAPH = default_router().graph


def test_every_port_of_the_gazetteer_is_on_the_main_water() -> None:
    var = GRAPH.variant((), frozenset())
    _, lab = connected_components(var.matrix, directed=False)
    main = np.bincount(lab[: GRAPH.n_base]).argmax()
    router = default_router()
    for place in default_places().ports():
        near, _ = router._links_of(np.array([float(v) for v in GRAPH.land.plane.to_xy(*place.anchorage)]), var)
        assert (lab[near] == main).any(), place.name


def test_the_disk_cache_gives_back_the_same_graph(tmp_path) -> None:
    g = cached_graph(default_land(), LAND_FILE, folder=tmp_path)
    files = list(tmp_path.glob("seagraph-*.npz"))
    assert len(files) == 1
    again = SeaGraph.load(files[0], default_land(), g.params, g.passages)
    for name in ("xy", "edge_i", "edge_j", "edge_w", "pass_edge_i"):
        np.testing.assert_array_equal(getattr(g, name), getattr(again, name))
    a, b = default_places().get("Messina").anchorage, default_places().get("Cape Helles").anchorage
    assert Router(again).route(a, b).length_nm == Router(g).route(a, b).length_nm
    # A damaged file is rebuilt, not trusted.
    files[0].write_bytes(b"not a graph")
    assert cached_graph(default_land(), LAND_FILE, folder=tmp_path).n_base == g.n_base


def test_a_start_written_into_the_kept_arrays_makes_the_matrix_concatenation_makes() -> None:
    """``Variant.with_start`` gives exactly the matrix of the start's links appended to a copy of the
    graph's, call after call (the kept arrays are rewritten, never left holding the last start)."""
    from scipy.sparse import csr_matrix

    graph = default_router().graph
    var = graph.variant((), frozenset(p.name for p in graph.passages))
    m, n = var.matrix, len(graph.xy)
    rng = np.random.default_rng(3)
    for k in (48, 5, 20):
        cols = np.sort(rng.choice(n, size=k, replace=False)).astype(np.int32)
        w = rng.uniform(0.5, 30.0, k)
        indptr = m.indptr.copy()
        indptr[n + 1:] += k
        want = csr_matrix((np.concatenate([m.data, w]), np.concatenate([m.indices, cols]), indptr), shape=m.shape)
        got = var.with_start(n, cols, w)
        assert got.shape == want.shape and got.nnz == want.nnz
        assert np.array_equal(got.indptr, want.indptr) and np.array_equal(got.indices, want.indices)
        assert np.array_equal(got.data, want.data)
    assert var.matrix.nnz == m.nnz and np.array_equal(var.matrix.indptr, m.indptr)  # the graph untouched
