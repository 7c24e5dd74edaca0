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


def test_a_variant_tests_its_areas_apart_as_the_merged_obstacle_would() -> None:
    """A variant keeps a forbidden area apart from the coast's obstacle and clearance band (merging
    them cost about a second a variant); a segment or point is blocked exactly when it would be by the
    merged shapes, here Italy's 6-mile belt across the Strait of Messina and round Sicily."""
    import shapely

    from campaign.geo.regions import territorial_belt

    graph = default_router().graph
    belt = territorial_belt("Italy", 6)
    var = graph.variant((belt,), frozenset())
    area = graph.land.plane.transform_geometry(belt.geometry)
    obstacle, near = shapely.union_all([graph.obstacle, area]), shapely.union_all([graph.near, area])
    # Segments and points over the strait and the waters round it, in the plane (metres).
    x0, y0 = graph.land.plane.point_xy(38.2, 15.6)
    rng = np.random.default_rng(11)
    a = rng.uniform(-60_000, 60_000, (400, 2)) + (x0, y0)
    b = a + rng.uniform(-25_000, 25_000, (400, 2))
    lines = shapely.linestrings(np.stack([a, b], axis=1))
    crossed = var.crosses_obstacle(lines)
    assert np.array_equal(crossed, shapely.intersects(obstacle, lines))
    assert np.array_equal(var.crosses_near(lines), shapely.intersects(near, lines))
    # The belt blocks segments the coast alone would let through, so the test is not of the coast.
    assert (crossed & ~shapely.intersects(graph.obstacle, lines)).sum() > 20
    assert [var.near_xy(x, y) for x, y in a] == list(shapely.intersects_xy(near, a[:, 0], a[:, 1]))
    window = shapely.box(x0 - 20_000, y0 - 20_000, x0 + 20_000, y0 + 20_000)
    assert var.near_within(window).symmetric_difference(near.intersection(window)).area < 1.0
    # The nodes and links inside the belt are gone from the variant.
    assert not shapely.intersects_xy(area, graph.xy[var.node_ok, 0], graph.xy[var.node_ok, 1]).any()
