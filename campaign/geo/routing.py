"""Sea routes: the shortest way between two sea points that never crosses land.

How a route is found, on the graph of ``campaign.geo.seagraph``:

1. If the straight leg (a geodesic) is clear of the obstacle, that is the route.
2. Otherwise each end links to the graph nodes it can see, Dijkstra finds the shortest path of
   geodesic legs, and the path is pulled taut: from each waypoint the route jumps to the farthest
   later waypoint in sight, which removes the lattice's zig-zag and leaves a chain of geodesics that
   bends only at headlands (the "string pulling" of any-angle path planning).
3. A route's own ends may lie close inshore (a port's anchorage): within ``approach_radius_nm`` of its
   ends a route keeps only the clearance, not the offing, as a ship entering or leaving harbour does.

Areas a force may not enter (a neutral's territorial belt) are obstacles too, in a graph variant cached
per set of areas. Routes are remembered (a bounded cache), so a campaign's repeated legs cost
microseconds after the first.
"""

from __future__ import annotations

import functools
from collections import OrderedDict

import numpy as np
import shapely
from scipy.sparse.csgraph import dijkstra
from shapely.geometry import box

from campaign.geo import earth
from campaign.geo.land import LAND_FILE, default_land
from campaign.geo.route import Route
from campaign.geo.seagraph import (
    AvoidArea,
    Passage,
    RoutingParams,
    SeaGraph,
    Variant,
    Vessel,
    cached_graph,
    load_passages,
)

__all__ = ["AvoidArea", "Passage", "Route", "RouteError", "Router", "RoutingParams", "SeaGraph", "Vessel",
           "default_router", "load_passages"]


class RouteError(ValueError):
    """No sea route exists (an end on land, outside the data, or inside a forbidden area)."""


class Router:
    """Finds sea routes on a ``SeaGraph``; remembers the routes it has found (bounded LRU)."""

    CACHE_SIZE = 4096

    def __init__(self, graph: SeaGraph) -> None:
        self.graph = graph
        self._cache: OrderedDict[tuple, Route] = OrderedDict()
        # What is worked out about each end (bounded LRUs): a port, or a ship's place, is the end of many
        # routes to different places. Its plane point and step out of the clearance band, by the variant's
        # key and the end's exact (lat, lon); the nodes it sees, by the variant's key and its plane point.
        self._points: OrderedDict[tuple, tuple[np.ndarray, list[np.ndarray]]] = OrderedDict()
        self._links: OrderedDict[tuple, tuple[np.ndarray, np.ndarray]] = OrderedDict()
        self._approach_m = graph.params.approach_radius_nm * earth.M_PER_NM

    def route(self, start: tuple[float, float], end: tuple[float, float], *,
              avoid: tuple[AvoidArea, ...] = (), vessel: Vessel | None = None) -> Route:
        """The shortest sea route from ``start`` to ``end`` (each (lat, lon) in degrees).

        ``avoid``: areas the route may not enter. ``vessel``: beam and draught, which decide the
        canals open to it (none if unknown). Raises ``RouteError`` when no route exists.
        """
        vessel = vessel or Vessel()
        open_passages = frozenset(p.name for p in self.graph.passages if p.admits(vessel.beam_m, vessel.draught_m))
        # Exact ends in the key: a route remembered for a point a hair away from this one (within any
        # rounding) would start there, and what a run gets would depend on what ran before it.
        key = (float(start[0]), float(start[1]), float(end[0]), float(end[1]),
               tuple(sorted(a.key for a in avoid)), tuple(sorted(open_passages)))
        hit = self._cache.get(key)
        if hit is not None:
            self._cache.move_to_end(key)
            return hit
        xy, passages = self._find(start, end, avoid, open_passages)
        # The ends are given exactly as asked (through the plane and back they would not be), so only the
        # waypoints between them go back to degrees.
        lats, lons = [start[0]], [start[1]]
        if len(xy) > 2:
            lat, lon = self.graph.land.plane.to_latlon(xy[1:-1, 0], xy[1:-1, 1])
            lats += np.atleast_1d(lat).tolist()
            lons += np.atleast_1d(lon).tolist()
        lats.append(end[0])
        lons.append(end[1])
        route = Route.through(lats, lons, passages)
        self._cache[key] = route
        if len(self._cache) > self.CACHE_SIZE:
            self._cache.popitem(last=False)
        return route

    # -- ends -----------------------------------------------------------------------------------

    def _end_point(self, name: str, lat: float, lon: float, var: Variant, var_key: tuple,
                   avoid: tuple[AvoidArea, ...]) -> tuple[np.ndarray, list[np.ndarray]]:
        """``_endpoint``, remembered by the variant's key and the end's exact (lat, lon) in degrees (an end
        that raises is not remembered). The arrays are shared between searches, so they are made
        read-only."""
        key = (var_key, float(lat), float(lon))
        hit = self._points.get(key)
        if hit is not None:
            self._points.move_to_end(key)
            return hit
        p, pre = self._endpoint(name, lat, lon, var, avoid)
        for v in (p, *pre):
            v.setflags(write=False)
        self._points[key] = p, pre
        if len(self._points) > self.CACHE_SIZE:
            self._points.popitem(last=False)
        return p, pre

    def _endpoint(self, name: str, lat: float, lon: float, var: Variant,
                  avoid: tuple[AvoidArea, ...]) -> tuple[np.ndarray, list[np.ndarray]]:
        """Plane position of an end, and the short step that takes it out of the clearance band."""
        g = self.graph
        west, south, east, north = g.land.bounds
        if not (west <= lon <= east and south <= lat <= north):
            raise RouteError(f"{name} {lat:.4f},{lon:.4f} lies outside the charted area {g.land.bounds}")
        # The plane point once, for the land test (Land.is_land's own test) and for the search.
        x, y = g.land.plane.point_xy(lat, lon)
        if shapely.intersects_xy(g.land.xy, x, y):
            raise RouteError(f"{name} {lat:.4f},{lon:.4f} is on land")
        for a in avoid:
            if shapely.intersects_xy(a.geometry, lon, lat):
                raise RouteError(f"{name} {lat:.4f},{lon:.4f} lies inside the forbidden area '{a.key}'")
        p = np.array([x, y])
        if not var.near_xy(x, y):
            return p, []
        # Closer to the shore than the clearance (a quay, a point close inshore): step straight out to
        # the nearest water that is clear, provided the step itself does not cross land.
        local = box(x - 20_000, y - 20_000, x + 20_000, y + 20_000)
        free = local.difference(var.near_within(local.buffer(1_000.0)).buffer(1.0))
        if free.is_empty:
            raise RouteError(f"{name} {lat:.4f},{lon:.4f} has no open water within 10 nm")
        q = np.array(shapely.shortest_line(shapely.Point(x, y), free).coords[-1])
        if shapely.LineString([p, q]).intersects(g.land.xy):
            raise RouteError(f"{name} {lat:.4f},{lon:.4f} cannot reach open water without crossing land")
        return q, [p]

    def _sees(self, p: np.ndarray, targets: np.ndarray, var: Variant, p_is_end: bool,
              target_is_end: np.ndarray | bool = False) -> np.ndarray:
        """Which segments p->target are clear: of the obstacle, or, for a route's approach to its own
        ends, of the clearance band alone within the approach radius."""
        lines = shapely.linestrings(_segments(p, targets))
        ok = ~var.crosses_obstacle(lines)
        end_ok = np.asarray(target_is_end) | p_is_end
        if np.any(end_ok & ~ok):
            short = np.hypot(*(targets - p).T) <= self._approach_m
            ok |= end_ok & short & ~var.crosses_near(lines)
        return ok

    def _end_links(self, p: np.ndarray, var: Variant, var_key: tuple) -> tuple[np.ndarray, np.ndarray]:
        """``_links_of``, remembered by the variant's key and the end's exact plane point (metres).

        The arrays are shared between searches, so they are made read-only.
        """
        key = (var_key, float(p[0]), float(p[1]))
        hit = self._links.get(key)
        if hit is not None:
            self._links.move_to_end(key)
            return hit
        idx, w = self._links_of(p, var)
        idx.setflags(write=False)
        w.setflags(write=False)
        self._links[key] = idx, w
        if len(self._links) > self.CACHE_SIZE:
            self._links.popitem(last=False)
        return idx, w

    def _links_of(self, p: np.ndarray, var: Variant) -> tuple[np.ndarray, np.ndarray]:
        """Base nodes an end sees (searching wider until some are found), with distances in nm."""
        g = self.graph
        for radius in (40_000.0, 100_000.0, 250_000.0):
            k = min(48, g.n_base)
            dist, idx = g.kdtree.query(p, k=k, distance_upper_bound=radius)
            idx = idx[np.isfinite(dist)]
            idx = idx[var.node_ok[idx]]
            if len(idx):
                seen = idx[self._sees(p, g.xy[idx], var, True)]
                idx = seen if len(seen) else self._past_the_offing(p, idx, var)
            if len(idx):
                plat, plon = g.land.plane.point_latlon(p[0], p[1])
                w = earth.distance_nm(np.full(len(idx), plat), np.full(len(idx), plon),
                                      g.lat[idx], g.lon[idx])
                return idx.astype(np.int32), np.atleast_1d(w)
        raise RouteError("no sea route: an end sees no open water within 135 nm")

    def _past_the_offing(self, p: np.ndarray, idx: np.ndarray, var: Variant) -> np.ndarray:
        """Nodes an end inside the offing reaches when none lies within the approach radius.

        Coastal nodes sit only off the obstacle's corners, so along a straight open coast the nearest
        node can be farther than ``approach_radius_nm`` from an end close inshore. The approach leg
        then goes on, still clear of the clearance band, to the nearest nodes it sees, and to those
        no more than the approach radius beyond them, so that it is no longer than it must be.
        """
        xy = self.graph.xy[idx]
        lines = shapely.linestrings(_segments(p, xy))
        ok = ~var.crosses_near(lines)
        if not ok.any():
            return idx[:0]
        d_m = np.hypot(*(xy - p).T)
        return idx[ok & (d_m <= d_m[ok].min() + self._approach_m)]

    # -- the search -----------------------------------------------------------------------------

    def _find(self, start: tuple[float, float], end: tuple[float, float], avoid: tuple[AvoidArea, ...],
              open_passages: frozenset[str]) -> tuple[np.ndarray, tuple[str, ...]]:
        """The route's points in the plane (metres, ends included) and the passages it takes."""
        g = self.graph
        var = g.variant(avoid, open_passages)
        # The variant's key (as SeaGraph.variant makes it): what is remembered about an end is by it.
        var_key = (tuple(sorted(x.key for x in avoid)), tuple(sorted(open_passages)))
        a, a_pre = self._end_point("start", start[0], start[1], var, var_key, avoid)
        b, b_post = self._end_point("end", end[0], end[1], var, var_key, avoid)
        if self._sees(a, b[None, :], var, True, True)[0]:
            return self._assemble([a_pre + [a, b] + b_post[::-1]], [], None)
        n = len(g.xy)
        near_a, w_a = self._end_links(a, var, var_key)
        near_b, w_b = self._end_links(b, var, var_key)
        # The start becomes row n of the matrix (its spare last rows are empty, so its links append
        # at the end of the CSR arrays); the end is reached through its visible nodes.
        q = var.with_start(n, near_a, w_a)
        direct_nm = float(earth.distance_nm(start[0], start[1], end[0], end[1]))
        # A search bounded to 1.05 x the direct distance (+10 nm) settles most legs (in the historical
        # campaign, seeds 1-8 after a warm-up, 222 of the 247 that came to a graph search: most legs are
        # nearly straight), one bounded to 1.6 x (+60 nm) almost every other leg, and otherwise the
        # unbounded search runs. A search settles every node within its bound, so a tight first bound
        # pays: the same searches with 1.1 x (+20 nm) first settled 231 and took 17.1 ms a replicate
        # against 13.4. A bounded answer is exact whenever it is within the bound: scipy settles nodes
        # in the order of (distance, index), so those within the bound get the same distances and
        # predecessors whatever the bound beyond.
        for limit in (1.05 * direct_nm + 10.0, 1.6 * direct_nm + 60.0, np.inf):
            dist, pred = dijkstra(q, directed=True, indices=n, return_predecessors=True, limit=limit)
            total = dist[near_b] + w_b
            best = int(np.argmin(total))
            if total[best] <= limit:
                break
        if not np.isfinite(total[best]):
            raise RouteError("no sea route joins these points (separate waters, or the way is forbidden)")
        path = [n + 1, int(near_b[best])]
        while path[-1] != n:
            path.append(int(pred[path[-1]]))
        path.reverse()
        # Split at canal links: each stretch of open water is pulled taut on its own.
        ends = {n: a, n + 1: b}
        chains: list[list[np.ndarray]] = [[]]
        used: list[str] = []
        for k, node in enumerate(path):
            chains[-1].append(ends.get(node, g.xy[node] if node < n else None))
            nxt = path[k + 1] if k + 1 < len(path) else None
            if nxt is not None and node in g.pass_node_owner and nxt in g.pass_node_owner:
                name = g.pass_node_owner[node]
                if not used or used[-1] != name:
                    used.append(name)
                chains.append([g.xy[node]])
        chains[0] = a_pre + chains[0]
        chains[-1] = chains[-1] + b_post[::-1]
        return self._assemble(chains, used, var, first=len(a_pre), last_from_end=len(b_post))

    def _pull(self, pts: list[np.ndarray], var: Variant, start_end: int | None, end_end: int | None) -> list[np.ndarray]:
        """String pulling: from each kept point jump to the farthest later point in sight.

        ``start_end``/``end_end``: indices of the route's own ends in ``pts`` (their approach legs
        keep only the clearance), or None when this stretch starts or ends at a canal.
        """
        if len(pts) <= 2:
            return pts
        arr = np.asarray(pts)
        out = [arr[0]]
        i, n = 0, len(arr)
        window = 48
        while i < n - 1:
            best = i + 1
            lo = i + 1
            while lo < n:
                hi = min(n, lo + window)
                cand = np.arange(lo, hi)
                ok = self._sees(arr[i], arr[cand], var, i == start_end,
                                cand == end_end if end_end is not None else False)
                if ok.any():
                    best = max(best, int(cand[ok].max()))
                if hi == n or not ok[-1]:
                    break
                lo = hi
            out.append(arr[best])
            i = best
        return out

    def _assemble(self, chains: list[list[np.ndarray]], passages: list[str], var: Variant | None,
                  first: int = 0, last_from_end: int = 0) -> tuple[np.ndarray, tuple[str, ...]]:
        """The route's plane points (metres; chains pulled taut when ``var`` is given, repeated points
        dropped, at least two) and its passages."""
        xy: list[np.ndarray] = []
        for k, c in enumerate(chains):
            c = [p for p in c if p is not None]
            if var is not None:
                start_end = first if k == 0 else None
                end_end = len(c) - 1 - last_from_end if k == len(chains) - 1 else None
                c = self._pull(c, var, start_end, end_end)
            for p in c:
                if not xy or not _close(xy[-1], p):
                    xy.append(np.asarray(p))
        if len(xy) == 1:  # a route from a point to itself
            xy.append(xy[0])
        return np.asarray(xy), tuple(passages)


def _segments(p: np.ndarray, targets: np.ndarray) -> np.ndarray:
    """The plane segments from p to each target (metres) as ``shapely.linestrings`` takes them, shape
    (n, 2, 2): filled in place, which costs less than stacking a broadcast copy of p."""
    seg = np.empty((len(targets), 2, 2))
    seg[:, 0] = p
    seg[:, 1] = targets
    return seg


def _close(a: np.ndarray, b: np.ndarray) -> bool:
    """``np.allclose(a, b)`` for two plane points (metres), without numpy's cost for two numbers:
    each coordinate within 1e-8 + 1e-5 * |b| (numpy's default tolerances)."""
    return (abs(float(a[0]) - float(b[0])) <= 1e-8 + 1e-5 * abs(float(b[0]))
            and abs(float(a[1]) - float(b[1])) <= 1e-8 + 1e-5 * abs(float(b[1])))


@functools.cache
def default_router() -> Router:
    """The process's router on the bundled land data.

    The graph is built on first use (several seconds) and kept on disk (``seagraph.cache_dir``), so
    later processes load it in a fraction of a second.
    """
    return Router(cached_graph(default_land(), LAND_FILE))
