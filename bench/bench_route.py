"""Benchmark: how long a sea route takes, computed and from the router's cache.

    python bench/bench_route.py [--pairs N]

Routes between seeded random pairs of sea points of the Mediterranean (at least 1 nm off any shore,
in waters joined to the sea), on the sea graph loaded from its disk cache. Prints the time to load the
graph, the median and 90th-percentile time of a leg computed afresh, the time of a leg found in the
cache, and the cost of one straight-line geodesic (pyproj) for scale, all measured in this run.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402
from scipy.sparse.csgraph import connected_components  # noqa: E402

from campaign.geo import earth  # noqa: E402
from campaign.geo.land import LAND_FILE, default_land  # noqa: E402
from campaign.geo.routing import Router  # noqa: E402
from campaign.geo.seagraph import cached_graph  # noqa: E402


def sea_pairs(router: Router, n: int, seed: int = 1914) -> list[tuple[tuple[float, float], tuple[float, float]]]:
    g = router.graph
    land = g.land
    _, lab = connected_components(g.variant((), frozenset()).matrix, directed=False)
    main = np.bincount(lab[: g.n_base]).argmax()
    rng = np.random.default_rng(seed)
    points: list[tuple[float, float]] = []
    while len(points) < 2 * n:
        lat, lon = float(rng.uniform(30.0, 46.0)), float(rng.uniform(-6.0, 36.5))
        if land.is_land(lat, lon) or land.distance_to_land_nm(lat, lon) < 1.0:
            continue
        x, y = land.plane.to_xy(lat, lon)
        if lab[g.kdtree.query([float(x), float(y)])[1]] == main:
            points.append((lat, lon))
    return list(zip(points[::2], points[1::2]))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=200, help="random pairs to route (default 200)")
    args = parser.parse_args()
    t0 = time.perf_counter()
    graph = cached_graph(default_land(), LAND_FILE)
    load_s = time.perf_counter() - t0
    router = Router(graph)
    pairs = sea_pairs(router, args.pairs)
    router.route(*pairs[0])  # the first query builds the graph variant's matrix
    fresh, lengths = [], []
    for a, b in pairs:
        t0 = time.perf_counter()
        r = router.route(a, b)
        fresh.append(time.perf_counter() - t0)
        lengths.append(r.length_nm)
    cached = []
    for a, b in pairs:
        t0 = time.perf_counter()
        router.route(a, b)
        cached.append(time.perf_counter() - t0)
    t0 = time.perf_counter()
    for a, b in pairs:
        earth.distance_nm(*a, *b)
    geod = (time.perf_counter() - t0) / len(pairs)
    print(f"sea graph       {graph.n_base} nodes, {len(graph.edge_i)} links, loaded in {load_s * 1e3:.0f} ms")
    print(f"pairs           {len(pairs)} random, median route {statistics.median(lengths):.0f} nm")
    print(f"computed leg    median {statistics.median(fresh) * 1e3:.1f} ms, "
          f"90th percentile {np.percentile(fresh, 90) * 1e3:.1f} ms")
    print(f"cached leg      median {statistics.median(cached) * 1e6:.1f} us")
    print(f"one geodesic    {geod * 1e6:.1f} us (pyproj), for scale: a computed leg costs "
          f"{statistics.median(fresh) / geod:.0f} of them")


if __name__ == "__main__":
    main()
