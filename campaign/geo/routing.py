"""Sea routes: shortest paths between sea points that never cross land.

How a route is found (the parameters, with their reasons, are in ``data/routing.yaml``):

1. Everything happens in the gnomonic plane (``campaign.geo.plane``), where a straight segment is the
   WGS84 geodesic, so "does this leg touch land?" is an exact planar test. The obstacle is the GSHHG
   land buffered by the clearance (scaled by the plane's largest stretch, so the true clearance is
   never less than asked).
2. If the straight leg is clear, that is the route.
3. Otherwise a graph is searched once built per process: nodes on a hexagonal lattice over open water
   plus nodes just off every coastal vertex (so routes can wrap headlands tightly) and along the
   passages the coastline closes (the Corinth Canal, opened only to vessels that fit it); each node
   links to the nearest nodes it can see. Edge weights are geodesic nautical miles.
4. The graph path is pulled taut: from each waypoint the route jumps to the farthest later waypoint
   it can see, which removes the lattice's zig-zag and leaves a chain of geodesics that bends only at
   headlands (the "string pulling" of any-angle path planning).

Areas a force may not enter (a neutral's territorial belt) are obstacles too: nodes inside them and
links through them are dropped, in a graph variant cached per set of areas.
"""

from __future__ import annotations

import functools
import math
from collections import OrderedDict
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import numpy.typing as npt
import shapely
import yaml
from scipy.sparse import coo_matrix, csr_matrix
from scipy.sparse.csgraph import dijkstra
from scipy.spatial import cKDTree
from shapely.geometry import box

from campaign.geo import earth
from campaign.geo.land import Land, default_land
from campaign.paths import DATA_DIR

ROUTING_FILE = DATA_DIR / "routing.yaml"
PASSAGES_FILE = DATA_DIR / "passages.yaml"

# The gnomonic plane stretches distances by at most ~1.22 inside the campaign area (corner at
# lon -7, lat 47); buffering by this factor keeps the true clearance at or above the one asked for.
PLANE_STRETCH_MAX = 1.25


class RouteError(ValueError):
    """No sea route exists (an end on land, outside the data, or inside a forbidden area)."""


@dataclass(frozen=True)
class RoutingParams:
    """Graph-building parameters read from ``data/routing.yaml``."""

    clearance_nm: float
    lattice_km: float
    coastal_offset_m: float
    link_k: int
    link_radius_km: float

    @classmethod
    def load(cls, path: Path = ROUTING_FILE) -> "RoutingParams":
        raw = yaml.safe_load(path.read_text())
        return cls(**{f: raw[f] for f in cls.__dataclass_fields__})


@dataclass(frozen=True)
class Passage:
    """A man-made passage through land (a canal), open to vessels under its beam and draught limits."""

    name: str
    lats: tuple[float, ...]
    lons: tuple[float, ...]
    max_beam_m: float
    max_draught_m: float

    def admits(self, beam_m: float | None, draught_m: float | None) -> bool:
        """True if a vessel of this beam and draught (metres) fits. Unknown sizes are refused."""
        if beam_m is None or draught_m is None:
            return False
        return beam_m < self.max_beam_m and draught_m < self.max_draught_m


def load_passages(path: Path = PASSAGES_FILE) -> tuple[Passage, ...]:
    raw = yaml.safe_load(path.read_text())
    out = []
    for p in raw["passages"]:
        wps = p["waypoints"]
        out.append(Passage(p["name"], tuple(w[0] for w in wps), tuple(w[1] for w in wps),
                           float(p["max_beam_m"]), float(p["max_draught_m"])))
    return tuple(out)


@dataclass(frozen=True)
class AvoidArea:
    """An area a force may not enter, such as a neutral's territorial belt.

    ``key`` identifies the area in caches: two areas with the same key must be the same polygon.
    ``geometry`` is in lon/lat degrees.
    """

    key: str
    geometry: shapely.Geometry = field(compare=False, hash=False)


@dataclass(frozen=True)
class Vessel:
    """What the router needs to know of a ship or squadron: its largest beam and draught, metres."""

    beam_m: float | None = None
    draught_m: float | None = None


@dataclass(frozen=True)
class Route:
    """A sea route: waypoints joined by geodesics.

    ``lats``/``lons`` include both ends. ``cum_nm[i]`` is the distance run from the start to
    waypoint i. ``passages`` names the canals the route uses.
    """

    lats: tuple[float, ...]
    lons: tuple[float, ...]
    cum_nm: tuple[float, ...]
    passages: tuple[str, ...] = ()

    @property
    def length_nm(self) -> float:
        return self.cum_nm[-1]

    @property
    def waypoints(self) -> list[tuple[float, float]]:
        return list(zip(self.lats, self.lons))

    @classmethod
    def through(cls, lats: npt.ArrayLike, lons: npt.ArrayLike, passages: tuple[str, ...] = ()) -> "Route":
        la = np.asarray(lats, dtype=float)
        lo = np.asarray(lons, dtype=float)
        seg = earth.distance_nm(la[:-1], lo[:-1], la[1:], lo[1:]) if la.size > 1 else np.zeros(0)
        cum = np.concatenate([[0.0], np.cumsum(np.atleast_1d(seg))])
        return cls(tuple(la.tolist()), tuple(lo.tolist()), tuple(cum.tolist()), passages)

    def position_at(self, dist_nm: float) -> tuple[float, float, float]:
        """(lat, lon, course in degrees) after ``dist_nm`` along the route (clamped to its ends)."""
        cum = self.cum_nm
        if len(cum) < 2 or cum[-1] <= 0.0:
            return self.lats[0], self.lons[0], 0.0
        d = min(max(dist_nm, 0.0), cum[-1])
        i = int(np.searchsorted(cum, d, side="right")) - 1
        i = min(max(i, 0), len(cum) - 2)
        while i < len(cum) - 2 and cum[i + 1] - cum[i] <= 0.0:
            i += 1
        az, _ = earth.inverse(self.lats[i], self.lons[i], self.lats[i + 1], self.lons[i + 1])
        lat, lon = earth.forward(self.lats[i], self.lons[i], az, d - cum[i])
        # The course at that point is the forward azimuth there, not the initial one.
        course, _ = earth.inverse(lat, lon, self.lats[i + 1], self.lons[i + 1]) if d < cum[i + 1] else (az, 0.0)
        return float(lat), float(lon), float(course)


@dataclass(frozen=True)
class _Variant:
    """The graph with some areas removed: its matrix, its usable nodes and its obstacle."""

    matrix: csr_matrix
    node_ok: np.ndarray
    obstacle: shapely.Geometry
    obstacle_parts: tuple[shapely.Geometry, ...]


class SeaGraph:
    """The sea-route graph of the campaign area. Build once per process: see ``default_router``."""

    def __init__(self, land: Land, params: RoutingParams, passages: tuple[Passage, ...]) -> None:
        self.land = land
        self.params = params
        self.passages = passages
        plane = land.plane
        clearance_m = params.clearance_nm * earth.M_PER_NM * PLANE_STRETCH_MAX
        self.obstacle = land.xy.buffer(clearance_m, quad_segs=4)
        shapely.prepare(self.obstacle)
        self.obstacle_parts = tuple(shapely.get_parts(self.obstacle))
        b = land.bounds
        lat_edge = np.linspace(b[1], b[3], 60)
        lon_edge = np.linspace(b[0], b[2], 90)
        ring_lon = np.concatenate([lon_edge, np.full(60, b[2]), lon_edge[::-1], np.full(60, b[0])])
        ring_lat = np.concatenate([np.full(90, b[1]), lat_edge, np.full(90, b[3]), lat_edge[::-1]])
        self.area_xy = shapely.Polygon(np.column_stack(plane.to_xy(ring_lat, ring_lon)))
        shapely.prepare(self.area_xy)

        lattice = self._lattice(params.lattice_km * 1000.0)
        coastal = self._coastal(params.coastal_offset_m)
        xy = np.vstack([lattice, coastal])
        keep = shapely.intersects_xy(self.area_xy, xy[:, 0], xy[:, 1]) & ~shapely.intersects_xy(
            self.obstacle, xy[:, 0], xy[:, 1])
        xy = xy[keep]
        # Passage nodes sit at the end of the node array, flagged so that links through them are
        # added only for vessels that fit.
        pass_xy, pass_edges, pass_names = [], [], []
        n0 = len(xy)
        for p in passages:
            px, py = plane.to_xy(np.array(p.lats), np.array(p.lons))
            start = n0 + sum(len(a) for a in pass_xy)
            pass_xy.append(np.column_stack([px, py]))
            for k in range(len(p.lats) - 1):
                pass_edges.append((start + k, start + k + 1, p.name))
            pass_names.append(p.name)
        self.n_base = n0
        self.xy = np.vstack([xy] + pass_xy) if pass_xy else xy
        self.lat, self.lon = plane.to_latlon(self.xy[:, 0], self.xy[:, 1])
        self.kdtree = cKDTree(self.xy[:n0])

        i, j = self._links(self.xy[:n0], params.link_k, params.link_radius_km * 1000.0)
        # Passage ends join the ordinary graph through visible neighbours.
        extra_i, extra_j = [], []
        for p_idx, p in enumerate(passages):
            first = n0 + sum(len(a) for a in pass_xy[:p_idx])
            last = first + len(p.lats) - 1
            for end in (first, last):
                near = self._visible_nodes(self.xy[end], 24, 20_000.0, self.obstacle)
                extra_i += [end] * len(near)
                extra_j += list(near)
        self.edge_i = np.concatenate([i, np.asarray(extra_i, dtype=np.int64)])
        self.edge_j = np.concatenate([j, np.asarray(extra_j, dtype=np.int64)])
        self.edge_w = earth.distance_nm(self.lat[self.edge_i], self.lon[self.edge_i],
                                        self.lat[self.edge_j], self.lon[self.edge_j])
        self.pass_edge_i = np.array([e[0] for e in pass_edges], dtype=np.int64)
        self.pass_edge_j = np.array([e[1] for e in pass_edges], dtype=np.int64)
        self.pass_edge_name = tuple(e[2] for e in pass_edges)
        self.pass_edge_w = earth.distance_nm(self.lat[self.pass_edge_i], self.lon[self.pass_edge_i],
                                             self.lat[self.pass_edge_j], self.lon[self.pass_edge_j])
        self.pass_node_owner = {int(k): name for a, b_, name in pass_edges for k in (a, b_)}
        self._edge_lines: shapely.STRtree | None = None
        self._variants: OrderedDict[tuple, _Variant] = OrderedDict()

    # -- building -------------------------------------------------------------------------------

    def _lattice(self, spacing_m: float) -> np.ndarray:
        x0, y0, x1, y1 = self.area_xy.bounds
        dy = spacing_m * math.sqrt(3.0) / 2.0
        ys = np.arange(y0, y1 + dy, dy)
        xs = np.arange(x0, x1 + spacing_m, spacing_m)
        gx, gy = np.meshgrid(xs, ys)
        gx = gx + (np.arange(len(ys))[:, None] % 2) * spacing_m / 2.0
        return np.column_stack([gx.ravel(), gy.ravel()])

    def _coastal(self, offset_m: float) -> np.ndarray:
        ring = self.obstacle.buffer(offset_m, quad_segs=2)
        # Keep corners only: a straight run of shore needs no node, and the taut route bends only at
        # vertices of the obstacle. Simplifying by a third of the offset keeps nodes clear of it.
        ring = ring.simplify(offset_m / 3.0, preserve_topology=True)
        coords = shapely.get_coordinates(shapely.boundary(ring))
        return np.unique(np.round(coords, 1), axis=0)

    def _links(self, xy: np.ndarray, k: int, radius_m: float) -> tuple[np.ndarray, np.ndarray]:
        tree = cKDTree(xy)
        dist, idx = tree.query(xy, k=k + 1, distance_upper_bound=radius_m)
        src = np.repeat(np.arange(len(xy)), k + 1)
        dst = idx.ravel()
        ok = (dst < len(xy)) & (dst != src)
        src, dst = src[ok], dst[ok]
        lo, hi = np.minimum(src, dst), np.maximum(src, dst)
        code = np.unique(lo.astype(np.int64) * len(xy) + hi)
        pairs = np.column_stack([code // len(xy), code % len(xy)])
        clear = self._clear(xy[pairs[:, 0]], xy[pairs[:, 1]], self.obstacle_parts, self.obstacle)
        pairs = pairs[clear]
        return pairs[:, 0].astype(np.int64), pairs[:, 1].astype(np.int64)

    @staticmethod
    def _clear(a: np.ndarray, b: np.ndarray, parts: tuple[shapely.Geometry, ...],
               obstacle: shapely.Geometry) -> np.ndarray:
        """For plane segments a->b (arrays of shape (n, 2)), True where they miss the obstacle."""
        if len(a) == 0:
            return np.zeros(0, dtype=bool)
        lines = shapely.linestrings(np.stack([a, b], axis=1))
        hit = np.zeros(len(lines), dtype=bool)
        tree = shapely.STRtree(lines)
        for part in parts:
            idx = tree.query(part, predicate="intersects")
            hit[idx] = True
        return ~hit

    def _visible_nodes(self, p: np.ndarray, k: int, radius_m: float, obstacle: shapely.Geometry,
                       node_ok: np.ndarray | None = None) -> np.ndarray:
        """Indices of up to k base nodes within radius that a point sees past the obstacle."""
        k = min(k, self.n_base)
        dist, idx = self.kdtree.query(p, k=k, distance_upper_bound=radius_m)
        idx = idx[np.isfinite(dist)]
        if node_ok is not None:
            idx = idx[node_ok[idx]]
        if len(idx) == 0:
            return idx
        lines = shapely.linestrings(np.stack([np.broadcast_to(p, (len(idx), 2)), self.xy[idx]], axis=1))
        return idx[~shapely.intersects(obstacle, lines)]

    # -- variants -------------------------------------------------------------------------------

    def variant(self, avoid: tuple[AvoidArea, ...], open_passages: frozenset[str]) -> _Variant:
        """The graph without nodes and links inside ``avoid``, with the given passages open."""
        key = (tuple(sorted(a.key for a in avoid)), tuple(sorted(open_passages)))
        hit = self._variants.get(key)
        if hit is not None:
            self._variants.move_to_end(key)
            return hit
        n = len(self.xy)
        node_ok = np.ones(n, dtype=bool)
        obstacle, parts = self.obstacle, self.obstacle_parts
        edge_ok = np.ones(len(self.edge_i), dtype=bool)
        if avoid:
            areas_xy = [self.land.plane.transform_geometry(a.geometry) for a in avoid]
            extra = shapely.union_all(areas_xy)
            obstacle = shapely.union_all([self.obstacle, extra])
            shapely.prepare(obstacle)
            parts = self.obstacle_parts + tuple(shapely.get_parts(extra))
            node_ok &= ~shapely.intersects_xy(extra, self.xy[:, 0], self.xy[:, 1])
            tree = self._edge_tree()
            for g in shapely.get_parts(extra):
                edge_ok[tree.query(g, predicate="intersects")] = False
        keep_pass = np.array([name in open_passages for name in self.pass_edge_name], dtype=bool)
        for k_node, owner in self.pass_node_owner.items():
            if owner not in open_passages:
                node_ok[k_node] = False
        ei = np.concatenate([self.edge_i[edge_ok], self.pass_edge_i[keep_pass]])
        ej = np.concatenate([self.edge_j[edge_ok], self.pass_edge_j[keep_pass]])
        w = np.concatenate([self.edge_w[edge_ok], self.pass_edge_w[keep_pass]])
        ok = node_ok[ei] & node_ok[ej]
        ei, ej, w = ei[ok], ej[ok], w[ok]
        # Two spare rows and columns for the query's start and end points.
        m = coo_matrix((np.concatenate([w, w]), (np.concatenate([ei, ej]), np.concatenate([ej, ei]))),
                       shape=(n + 2, n + 2)).tocsr()
        var = _Variant(m, node_ok, obstacle, parts)
        self._variants[key] = var
        if len(self._variants) > 32:
            self._variants.popitem(last=False)
        return var

    def _edge_tree(self) -> shapely.STRtree:
        if self._edge_lines is None:
            lines = shapely.linestrings(np.stack([self.xy[self.edge_i], self.xy[self.edge_j]], axis=1))
            self._edge_lines = shapely.STRtree(lines)
        return self._edge_lines


class Router:
    """Finds sea routes on a ``SeaGraph``; remembers the routes it has found (bounded LRU)."""

    CACHE_SIZE = 4096

    def __init__(self, graph: SeaGraph) -> None:
        self.graph = graph
        self._cache: OrderedDict[tuple, Route] = OrderedDict()

    def route(self, start: tuple[float, float], end: tuple[float, float], *,
              avoid: tuple[AvoidArea, ...] = (), vessel: Vessel | None = None) -> Route:
        """The shortest sea route from ``start`` to ``end`` (each (lat, lon) in degrees).

        ``avoid``: areas the route may not enter. ``vessel``: beam and draught, which decide the
        canals open to it (none if unknown). Raises ``RouteError`` when no route exists.
        """
        vessel = vessel or Vessel()
        open_passages = frozenset(p.name for p in self.graph.passages if p.admits(vessel.beam_m, vessel.draught_m))
        key = (round(start[0], 6), round(start[1], 6), round(end[0], 6), round(end[1], 6),
               tuple(sorted(a.key for a in avoid)), tuple(sorted(open_passages)))
        hit = self._cache.get(key)
        if hit is not None:
            self._cache.move_to_end(key)
            return hit
        route = self._find(start, end, avoid, open_passages)
        self._cache[key] = route
        if len(self._cache) > self.CACHE_SIZE:
            self._cache.popitem(last=False)
        return route

    # -- the search -----------------------------------------------------------------------------

    def _endpoint(self, name: str, lat: float, lon: float, var: _Variant,
                  avoid: tuple[AvoidArea, ...]) -> tuple[np.ndarray, list[np.ndarray]]:
        """Plane position of an end, and the short legs that take it out of the clearance band."""
        g = self.graph
        if not (g.land.contains_area(lat, lon)):
            raise RouteError(f"{name} {lat:.4f},{lon:.4f} lies outside the charted area {g.land.bounds}")
        if g.land.is_land(lat, lon):
            raise RouteError(f"{name} {lat:.4f},{lon:.4f} is on land")
        for a in avoid:
            if shapely.intersects_xy(a.geometry, lon, lat):
                raise RouteError(f"{name} {lat:.4f},{lon:.4f} lies inside the forbidden area '{a.key}'")
        x, y = (float(v) for v in g.land.plane.to_xy(lat, lon))
        p = np.array([x, y])
        if not shapely.intersects_xy(var.obstacle, x, y):
            return p, []
        # Within the clearance band (a port's anchorage, a point close inshore): step straight out to
        # the nearest clear water, provided that step itself does not cross land.
        local = box(x - 20_000, y - 20_000, x + 20_000, y + 20_000)
        free = local.difference(var.obstacle.intersection(local.buffer(1_000.0)).buffer(1.0))
        if free.is_empty:
            raise RouteError(f"{name} {lat:.4f},{lon:.4f} has no open water within 10 nm")
        q = np.array(shapely.shortest_line(shapely.Point(x, y), free).coords[-1])
        step = shapely.LineString([p, q])
        if step.intersects(g.land.xy):
            raise RouteError(f"{name} {lat:.4f},{lon:.4f} cannot reach open water without crossing land")
        return q, [p]

    def _find(self, start: tuple[float, float], end: tuple[float, float], avoid: tuple[AvoidArea, ...],
              open_passages: frozenset[str]) -> Route:
        g = self.graph
        var = g.variant(avoid, open_passages)
        a, a_pre = self._endpoint("start", start[0], start[1], var, avoid)
        b, b_post = self._endpoint("end", end[0], end[1], var, avoid)
        if self._segment_clear(a, b, var):
            chain = [a_pre + [a, b] + b_post[::-1]]
            return self._assemble(chain, [])
        n = len(g.xy)
        near_a, w_a = self._links_of(a, var)
        near_b, w_b = self._links_of(b, var)
        # The start becomes row n of the matrix (its spare last rows are empty, so its links append
        # at the end of the CSR arrays); the end is reached through its visible nodes.
        m = var.matrix
        k = len(near_a)
        indptr = m.indptr.copy()
        indptr[n + 1:] += k
        q = csr_matrix((np.concatenate([m.data, w_a]), np.concatenate([m.indices, near_a]), indptr),
                       shape=m.shape)
        direct_nm = float(earth.distance_nm(start[0], start[1], end[0], end[1]))
        # A search bounded to 1.6 x the direct distance (+60 nm) settles almost every leg; its answer is
        # exact whenever it is within the bound, and otherwise the unbounded search runs.
        for limit in (1.6 * direct_nm + 60.0, np.inf):
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
        pts = {n: a, n + 1: b}
        chains: list[list[np.ndarray]] = [[*a_pre]]
        used: list[str] = []
        for k, node in enumerate(path):
            chains[-1].append(pts.get(node, g.xy[node] if node < n else None))
            nxt = path[k + 1] if k + 1 < len(path) else None
            if nxt is not None and node in g.pass_node_owner and nxt in g.pass_node_owner:
                name = g.pass_node_owner[node]
                if not used or used[-1] != name:
                    used.append(name)
                chains.append([g.xy[node]])
        chains[-1].extend(b_post[::-1])
        return self._assemble(chains, used, var)

    def _links_of(self, p: np.ndarray, var: _Variant) -> tuple[np.ndarray, np.ndarray]:
        """Base nodes a free point sees (searching wider until some are found), with distances in nm."""
        g = self.graph
        for radius in (40_000.0, 100_000.0, 250_000.0):
            near = g._visible_nodes(p, 32, radius, var.obstacle, var.node_ok)
            if len(near):
                plat, plon = g.land.plane.to_latlon(p[0], p[1])
                w = earth.distance_nm(np.full(len(near), float(plat)), np.full(len(near), float(plon)),
                                      g.lat[near], g.lon[near])
                return near.astype(np.int32), np.atleast_1d(w)
        raise RouteError("no sea route: an end sees no open water within 135 nm")

    def _segment_clear(self, a: np.ndarray, b: np.ndarray, var: _Variant) -> bool:
        return not shapely.LineString([a, b]).intersects(var.obstacle)

    def _pull(self, pts: list[np.ndarray], var: _Variant) -> list[np.ndarray]:
        """String pulling: from each kept point jump to the farthest later point in sight."""
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
                lines = shapely.linestrings(np.stack([np.broadcast_to(arr[i], (len(cand), 2)), arr[cand]], axis=1))
                ok = ~shapely.intersects(var.obstacle, lines)
                if ok.any():
                    best = max(best, int(cand[ok].max()))
                if hi == n or not ok[-1]:
                    break
                lo = hi
            out.append(arr[best])
            i = best
        return out

    def _assemble(self, chains: list[list[np.ndarray]], passages: list[str], var: _Variant | None = None) -> Route:
        g = self.graph
        xy: list[np.ndarray] = []
        for c in chains:
            c = [p for p in c if p is not None]
            pulled = self._pull(c, var) if var is not None else c
            for p in pulled:
                if not xy or not np.allclose(xy[-1], p):
                    xy.append(np.asarray(p))
        arr = np.asarray(xy)
        lat, lon = g.land.plane.to_latlon(arr[:, 0], arr[:, 1])
        return Route.through(lat, lon, tuple(passages))


@functools.cache
def default_router() -> Router:
    """The process's router on the bundled land data (the graph is built on first use, ~seconds)."""
    return Router(SeaGraph(default_land(), RoutingParams.load(), load_passages()))
