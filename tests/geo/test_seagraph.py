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
