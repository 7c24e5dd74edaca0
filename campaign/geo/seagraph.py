"""The sea-route graph: where ships may steam, as obstacles and a graph of sea nodes.

Everything lives in the gnomonic plane (``campaign.geo.plane``), where a straight segment is the WGS84
geodesic, so "does this leg touch land?" is an exact planar test. Parameters, with their reasons, are
in ``data/routing.yaml``.

**Obstacles.** Ships keep a small *clearance* from the shore everywhere, and in open water a larger
*offing*, as steamers stood off headlands. Which water is "open" is decided by the shape of the sea,
not by a list: water from which open water (at least the offing from land) lies within reach is
coastal, and keeps the offing; water with no such water near it is a narrow channel or a narrow bay
(the Straits of Messina and the Dardanelles, the Rion strait, the roads of Toulon), where ships go
with the clearance alone. So narrow passages stay open without being named.

**Graph.** Nodes on a hexagonal lattice over free water, nodes just off every corner of the obstacle
(so that routes can wrap headlands tightly), and nodes along the passages the shoreline closes (the
Corinth Canal, opened only to vessels that fit it); each node links to its nearest visible nodes.
Edge weights are geodesic nautical miles.
"""

from __future__ import annotations

import hashlib
import math
import os
from collections import OrderedDict
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import shapely
from scipy.sparse import coo_matrix, csr_matrix
from scipy.spatial import cKDTree

from campaign.datafile import load_yaml
from campaign.geo import earth
from campaign.geo.land import Land
from campaign.geo.plane import PLANE_STRETCH_MAX
from campaign.paths import DATA_DIR

ROUTING_FILE = DATA_DIR / "routing.yaml"
PASSAGES_FILE = DATA_DIR / "passages.yaml"


# Links a route's start may have (room kept for them in Variant.with_start): an end links to at most
# 48 nodes (campaign/geo/routing.py, Router._links_of).
SPARE_LINKS = 64

# Directions in which each node looks for neighbours beyond its nearest ones (see SeaGraph._links).
YAO_SECTORS = 8


@dataclass(frozen=True)
class RoutingParams:
    """Graph-building parameters read from ``data/routing.yaml``."""

    clearance_nm: float
    offing_nm: float
    approach_radius_nm: float
    lattice_km: float
    coastal_offset_m: float
    link_k: int
    link_radius_km: float

    @classmethod
    def load(cls, path: Path = ROUTING_FILE) -> RoutingParams:
        raw = load_yaml(path.read_text())
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
    raw = load_yaml(path.read_text())
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
class Variant:
    """The graph for one set of forbidden areas and open passages.

    ``obstacle`` is what a route may not cross in open water (land with its offing); ``near`` is land
    with the clearance alone, which binds only a route's approach to its own ends; ``areas`` (None when
    there are none) are the forbidden areas, in the plane, which bind both. They are kept apart and
    tested one after the other, not merged: merging the areas into the whole coast's obstacle cost
    almost a second a variant, and a segment crosses the union of two shapes exactly when it crosses
    either.
    """

    matrix: csr_matrix
    node_ok: np.ndarray
    obstacle: shapely.Geometry
    near: shapely.Geometry
    areas: shapely.Geometry | None = None
    # The arrays with_start writes a route's start into, kept: copying a million links for each search
    # cost more than the search (derived, so not part of the variant's identity).
    _spare: dict = field(default_factory=dict, init=False, repr=False, compare=False)

    def crosses_obstacle(self, lines: np.ndarray) -> np.ndarray:
        """For plane linestrings (an array), True where one crosses the obstacle or a forbidden area."""
        hit = shapely.intersects(self.obstacle, lines)
        if self.areas is not None:
            hit |= shapely.intersects(self.areas, lines)
        return hit

    def crosses_near(self, lines: np.ndarray) -> np.ndarray:
        """For plane linestrings (an array), True where one crosses the clearance band or an area."""
        hit = shapely.intersects(self.near, lines)
        if self.areas is not None:
            hit |= shapely.intersects(self.areas, lines)
        return hit

    def near_xy(self, x: float, y: float) -> bool:
        """Whether the plane point (metres) lies within the clearance band or a forbidden area."""
        return bool(shapely.intersects_xy(self.near, x, y)
                    or (self.areas is not None and shapely.intersects_xy(self.areas, x, y)))

    def near_within(self, window: shapely.Geometry) -> shapely.Geometry:
        """The clearance band and the forbidden areas within ``window`` (a plane polygon)."""
        local = self.near.intersection(window)
        if self.areas is None:
            return local
        return shapely.union_all([local, self.areas.intersection(window)])

    def with_start(self, row: int, cols: np.ndarray, weights_nm: np.ndarray) -> csr_matrix:
        """The matrix with its empty row ``row`` (one of the spare rows at its end, after every row that
        has links) linked to nodes ``cols`` (int32) at ``weights_nm``: the links appended after all the
        others, as ``np.concatenate`` of the arrays would put them. Valid until the next call."""
        m = self.matrix
        nnz, k = m.nnz, len(cols)
        buf = self._spare.get("links")
        if buf is None or len(buf[0]) < nnz + k:
            size = nnz + max(k, SPARE_LINKS)
            data, indices = np.empty(size, dtype=m.data.dtype), np.empty(size, dtype=m.indices.dtype)
            data[:nnz], indices[:nnz] = m.data, m.indices
            buf = self._spare["links"] = (data, indices, m.indptr.copy())
        data, indices, indptr = buf
        data[nnz:nnz + k] = weights_nm
        indices[nnz:nnz + k] = cols
        indptr[row + 1:] = m.indptr[row + 1:] + k
        return csr_matrix((data[:nnz + k], indices[:nnz + k], indptr), shape=m.shape)


def _clear(a: np.ndarray, b: np.ndarray, obstacle: shapely.Geometry) -> np.ndarray:
    """For plane segments a->b (arrays of shape (n, 2)), True where they miss the obstacle."""
    if len(a) == 0:
        return np.zeros(0, dtype=bool)
    lines = shapely.linestrings(np.stack([a, b], axis=1))
    tree = shapely.STRtree(lines)
    hit = np.zeros(len(lines), dtype=bool)
    for part in shapely.get_parts(obstacle):
        hit[tree.query(part, predicate="intersects")] = True
    return ~hit


class _Builder:
    """The steps of building a ``SeaGraph``: area, obstacles, nodes and links, in the plane."""

    def __init__(self, land: Land, params: RoutingParams) -> None:
        self.land = land
        self.params = params
        self.area_xy = self._area()
        self.near, self.obstacle = self._obstacles()
        for g in (self.near, self.obstacle, self.area_xy):
            shapely.prepare(g)

    def nodes(self) -> np.ndarray:
        """Lattice and coastal nodes in free water, plane metres, shape (n, 2)."""
        xy = np.vstack([self.lattice(self.params.lattice_km * 1000.0), self.coastal(self.params.coastal_offset_m)])
        keep = shapely.intersects_xy(self.area_xy, xy[:, 0], xy[:, 1]) & ~shapely.intersects_xy(
            self.obstacle, xy[:, 0], xy[:, 1])
        return xy[keep]

    def _area(self) -> shapely.Polygon:
        """The charted area (the land data's lon/lat box) as a polygon in the plane."""
        b = self.land.bounds
        lat_edge = np.linspace(b[1], b[3], 60)
        lon_edge = np.linspace(b[0], b[2], 90)
        ring_lon = np.concatenate([lon_edge, np.full(60, b[2]), lon_edge[::-1], np.full(60, b[0])])
        ring_lat = np.concatenate([np.full(90, b[1]), lat_edge, np.full(90, b[3]), lat_edge[::-1]])
        return shapely.Polygon(np.column_stack(self.land.plane.to_xy(ring_lat, ring_lon)))

    def _obstacles(self) -> tuple[shapely.Geometry, shapely.Geometry]:
        """(near, obstacle): land with the clearance, and land with the offing in open water."""
        p = self.params
        c = p.clearance_nm * earth.M_PER_NM * PLANE_STRETCH_MAX
        o = p.offing_nm * earth.M_PER_NM * PLANE_STRETCH_MAX
        near = self.land.xy.buffer(c, quad_segs=4)
        if o <= c:
            return near, near
        far = self.land.xy.buffer(o, quad_segs=4)
        open_water = self.area_xy.difference(far)
        # Water within (o - c) of open water is coastal water beside the open sea; what the free water
        # of the clearance leaves beyond it lies in channels and bays narrower than twice the offing.
        coastal = open_water.buffer(o - c + 1.0, quad_segs=4)
        narrow = self.area_xy.difference(near).difference(coastal)
        obstacle = shapely.union_all([near, far.difference(narrow.buffer(o, quad_segs=4))])
        return near, obstacle

    def lattice(self, spacing_m: float) -> np.ndarray:
        x0, y0, x1, y1 = self.area_xy.bounds
        dy = spacing_m * math.sqrt(3.0) / 2.0
        ys = np.arange(y0, y1 + dy, dy)
        xs = np.arange(x0, x1 + spacing_m, spacing_m)
        gx, gy = np.meshgrid(xs, ys)
        gx = gx + (np.arange(len(ys))[:, None] % 2) * spacing_m / 2.0
        return np.column_stack([gx.ravel(), gy.ravel()])

    def coastal(self, offset_m: float) -> np.ndarray:
        ring = self.obstacle.buffer(offset_m, quad_segs=2)
        # Corners only: the taut route bends at vertices of the obstacle. Simplifying by 40 % of the
        # offset keeps the nodes clear of it.
        ring = ring.simplify(offset_m * 0.4, preserve_topology=True)
        coords = shapely.get_coordinates(shapely.boundary(ring))
        return np.unique(np.round(coords, 1), axis=0)

    def links(self, xy: np.ndarray, k: int, radius_m: float) -> tuple[np.ndarray, np.ndarray]:
        """Visible links from each node to its k nearest, and to the two nearest in each of eight
        directions (a Yao graph): nearest-only links leave dense coastal clusters joined to nothing
        across open water, while one link per direction keeps every stretch of water connected."""
        tree = cKDTree(xy)
        n = len(xy)
        kq = min(max(4 * k, 48), n)
        _, idx = tree.query(xy, k=kq, distance_upper_bound=radius_m)
        valid = idx < n
        src = np.repeat(np.arange(n), kq).reshape(n, kq)
        safe = np.where(valid, idx, 0)
        d = xy[safe] - xy[:, None, :]
        sector = ((np.arctan2(d[..., 1], d[..., 0]) + np.pi) / (2 * np.pi) * YAO_SECTORS).astype(int) % YAO_SECTORS
        sector = np.where(valid & (safe != src), sector, -1)
        # The query returns neighbours by distance, so the first two of each sector are its nearest.
        rank = np.zeros_like(sector)
        for s_ in range(YAO_SECTORS):
            in_s = sector == s_
            rank[in_s] = (np.cumsum(in_s, axis=1) - 1)[in_s]
        pick = (sector >= 0) & ((rank < 2) | (np.arange(kq)[None, :] <= k))
        a, b = src[pick], safe[pick]
        lo, hi = np.minimum(a, b), np.maximum(a, b)
        code = np.unique(lo.astype(np.int64) * n + hi)
        pairs = np.column_stack([code // n, code % n])
        pairs = pairs[pairs[:, 0] != pairs[:, 1]]
        pairs = pairs[_clear(xy[pairs[:, 0]], xy[pairs[:, 1]], self.obstacle)]
        return pairs[:, 0].astype(np.int64), pairs[:, 1].astype(np.int64)


def _visible(tree: cKDTree, xy: np.ndarray, p: np.ndarray, k: int, radius_m: float,
             obstacle: shapely.Geometry, node_ok: np.ndarray | None = None) -> np.ndarray:
    """Indices of up to k nodes of ``tree`` within radius that point p sees past the obstacle."""
    k = min(k, tree.n)
    dist, idx = tree.query(p, k=k, distance_upper_bound=radius_m)
    idx = np.atleast_1d(idx)[np.isfinite(np.atleast_1d(dist))]
    if node_ok is not None:
        idx = idx[node_ok[idx]]
    if len(idx) == 0:
        return idx
    lines = shapely.linestrings(np.stack([np.broadcast_to(p, (len(idx), 2)), xy[idx]], axis=1))
    return idx[~shapely.intersects(obstacle, lines)]


class SeaGraph:
    """The sea-route graph of the campaign area.

    Build it with ``SeaGraph.build`` (seconds), or load a copy saved by ``save`` (``graph_cache``
    does both, keyed on the inputs); ``routing.default_router`` keeps one per process.
    """

    def __init__(self, land: Land, params: RoutingParams, passages: tuple[Passage, ...], *,
                 area_xy: shapely.Geometry, near: shapely.Geometry, obstacle: shapely.Geometry,
                 xy: np.ndarray, n_base: int, edge_i: np.ndarray, edge_j: np.ndarray, edge_w: np.ndarray,
                 pass_edge_i: np.ndarray, pass_edge_j: np.ndarray, pass_edge_w: np.ndarray) -> None:
        self.land = land
        self.params = params
        self.passages = passages
        self.area_xy, self.near, self.obstacle = area_xy, near, obstacle
        for g in (self.near, self.obstacle, self.area_xy):
            shapely.prepare(g)
        self.xy = xy
        self.n_base = n_base
        self.lat, self.lon = land.plane.to_latlon(xy[:, 0], xy[:, 1])
        self.kdtree = cKDTree(xy[:n_base])
        self.edge_i, self.edge_j, self.edge_w = edge_i, edge_j, edge_w
        self.pass_edge_i, self.pass_edge_j, self.pass_edge_w = pass_edge_i, pass_edge_j, pass_edge_w
        names = []
        for p in passages:
            names += [p.name] * (len(p.lats) - 1)
        self.pass_edge_name = tuple(names)
        self.pass_node_owner = {int(k): name for a, b, name in zip(pass_edge_i, pass_edge_j, names)
                                for k in (a, b)}
        self._edge_tree: shapely.STRtree | None = None
        self._variants: OrderedDict[tuple, Variant] = OrderedDict()

    @classmethod
    def build(cls, land: Land, params: RoutingParams, passages: tuple[Passage, ...]) -> SeaGraph:
        """Build the graph from the land, the parameters and the passages (a few seconds)."""
        b = _Builder(land, params)
        base = b.nodes()
        n_base = len(base)
        # Passage nodes sit after the base nodes; links through them exist only in variants that
        # open the passage.
        pass_xy, pass_i, pass_j = [], [], []
        for p in passages:
            px, py = land.plane.to_xy(np.array(p.lats), np.array(p.lons))
            start = n_base + sum(len(a) for a in pass_xy)
            pass_xy.append(np.column_stack([px, py]))
            pass_i += [start + k for k in range(len(p.lats) - 1)]
            pass_j += [start + k + 1 for k in range(len(p.lats) - 1)]
        xy = np.vstack([base] + pass_xy) if pass_xy else base
        lat, lon = land.plane.to_latlon(xy[:, 0], xy[:, 1])
        i, j = b.links(base, params.link_k, params.link_radius_km * 1000.0)
        tree = cKDTree(base)
        extra_i: list[int] = []
        extra_j: list[int] = []
        for p_idx, p in enumerate(passages):
            first = n_base + sum(len(a) for a in pass_xy[:p_idx])
            for end in (first, first + len(p.lats) - 1):
                near = _visible(tree, base, xy[end], 24, 20_000.0, b.obstacle)
                extra_i += [end] * len(near)
                extra_j += list(near)
        edge_i = np.concatenate([i, np.asarray(extra_i, dtype=np.int64)])
        edge_j = np.concatenate([j, np.asarray(extra_j, dtype=np.int64)])
        pi, pj = np.asarray(pass_i, dtype=np.int64), np.asarray(pass_j, dtype=np.int64)

        def w(a: np.ndarray, c: np.ndarray) -> np.ndarray:
            if len(a) == 0:
                return np.zeros(0)
            return np.atleast_1d(earth.distance_nm(lat[a], lon[a], lat[c], lon[c]))

        return cls(land, params, passages, area_xy=b.area_xy, near=b.near, obstacle=b.obstacle, xy=xy,
                   n_base=n_base, edge_i=edge_i, edge_j=edge_j, edge_w=w(edge_i, edge_j),
                   pass_edge_i=pi, pass_edge_j=pj, pass_edge_w=w(pi, pj))

    def save(self, path: Path) -> None:
        """Write the graph's arrays and obstacles to ``path`` (an .npz file)."""
        np.savez(path, xy=self.xy, n_base=np.array(self.n_base), edge_i=self.edge_i, edge_j=self.edge_j,
                 edge_w=self.edge_w, pass_edge_i=self.pass_edge_i, pass_edge_j=self.pass_edge_j,
                 pass_edge_w=self.pass_edge_w,
                 shapes=np.array([shapely.to_wkb(g) for g in (self.area_xy, self.near, self.obstacle)],
                                 dtype=object))

    @classmethod
    def load(cls, path: Path, land: Land, params: RoutingParams, passages: tuple[Passage, ...]) -> SeaGraph:
        """Read a graph written by ``save`` for the same land, parameters and passages."""
        with np.load(path, allow_pickle=True) as z:
            area_xy, near, obstacle = (shapely.from_wkb(b) for b in z["shapes"])
            return cls(land, params, passages, area_xy=area_xy, near=near, obstacle=obstacle, xy=z["xy"],
                       n_base=int(z["n_base"]), edge_i=z["edge_i"], edge_j=z["edge_j"], edge_w=z["edge_w"],
                       pass_edge_i=z["pass_edge_i"], pass_edge_j=z["pass_edge_j"],
                       pass_edge_w=z["pass_edge_w"])

    def visible_nodes(self, p: np.ndarray, k: int, radius_m: float, obstacle: shapely.Geometry,
                      node_ok: np.ndarray | None = None) -> np.ndarray:
        """Indices of up to k base nodes within radius that a point sees past the obstacle."""
        return _visible(self.kdtree, self.xy, p, k, radius_m, obstacle, node_ok)

    # -- variants -------------------------------------------------------------------------------

    def variant(self, avoid: tuple[AvoidArea, ...], open_passages: frozenset[str]) -> Variant:
        """The graph without nodes and links inside ``avoid``, with the given passages open (cached)."""
        key = (tuple(sorted(a.key for a in avoid)), tuple(sorted(open_passages)))
        hit = self._variants.get(key)
        if hit is not None:
            self._variants.move_to_end(key)
            return hit
        n = len(self.xy)
        node_ok = np.ones(n, dtype=bool)
        edge_ok = np.ones(len(self.edge_i), dtype=bool)
        extra = None
        if avoid:
            extra = shapely.union_all([self.land.plane.transform_geometry(a.geometry) for a in avoid])
            shapely.prepare(extra)
            node_ok &= ~shapely.intersects_xy(extra, self.xy[:, 0], self.xy[:, 1])
            tree = self._edges()
            for g in shapely.get_parts(extra):
                edge_ok[tree.query(g, predicate="intersects")] = False
        for k_node, owner in self.pass_node_owner.items():
            if owner not in open_passages:
                node_ok[k_node] = False
        keep_pass = np.array([name in open_passages for name in self.pass_edge_name], dtype=bool)
        ei = np.concatenate([self.edge_i[edge_ok], self.pass_edge_i[keep_pass]])
        ej = np.concatenate([self.edge_j[edge_ok], self.pass_edge_j[keep_pass]])
        w = np.concatenate([self.edge_w[edge_ok], self.pass_edge_w[keep_pass]])
        ok = node_ok[ei] & node_ok[ej]
        ei, ej, w = ei[ok], ej[ok], w[ok]
        # Two spare rows and columns for a query's start and end points.
        m = coo_matrix((np.concatenate([w, w]), (np.concatenate([ei, ej]), np.concatenate([ej, ei]))),
                       shape=(n + 2, n + 2)).tocsr()
        var = Variant(m, node_ok, self.obstacle, self.near, extra)
        self._variants[key] = var
        if len(self._variants) > 32:
            self._variants.popitem(last=False)
        return var

    def _edges(self) -> shapely.STRtree:
        if self._edge_tree is None:
            lines = shapely.linestrings(np.stack([self.xy[self.edge_i], self.xy[self.edge_j]], axis=1))
            self._edge_tree = shapely.STRtree(lines)
        return self._edge_tree


# -- a cache on disk ------------------------------------------------------------------------------

CACHE_FORMAT = 1


def cache_dir() -> Path:
    """Where built graphs are kept: $NAVAL_CAMPAIGN_CACHE, else $XDG_CACHE_HOME/naval-campaign, else
    ~/.cache/naval-campaign."""
    env = os.environ.get("NAVAL_CAMPAIGN_CACHE")
    if env:
        return Path(env)
    base = os.environ.get("XDG_CACHE_HOME")
    return (Path(base) if base else Path.home() / ".cache") / "naval-campaign"


def graph_key(*files: Path) -> str:
    """A digest of everything a graph is built from: the data files and this module's code."""
    h = hashlib.sha256(f"seagraph-v{CACHE_FORMAT}".encode())
    for f in (*files, Path(__file__)):
        h.update(f.read_bytes())
    return h.hexdigest()[:20]


def cached_graph(land: Land, land_file: Path, routing_file: Path = ROUTING_FILE,
                 passages_file: Path = PASSAGES_FILE, folder: Path | None = None) -> SeaGraph:
    """The sea graph for these inputs, loaded from the cache when built before, else built and saved.

    The cache is only a speed-up: if it cannot be read or written the graph is built in memory.
    """
    params = RoutingParams.load(routing_file)
    passages = load_passages(passages_file)
    folder = folder or cache_dir()
    path = folder / f"seagraph-{graph_key(land_file, routing_file, passages_file)}.npz"
    if path.exists():
        try:
            return SeaGraph.load(path, land, params, passages)
        except Exception:  # noqa: BLE001 - any damaged or partial file is rebuilt, never trusted
            pass
    graph = _build_with_status(land, params, passages, path)
    tmp = path.with_suffix(".partial.npz")
    try:
        folder.mkdir(parents=True, exist_ok=True)
        graph.save(tmp)
        os.replace(tmp, path)
    except OSError:
        tmp.unlink(missing_ok=True)
    except BaseException:  # interrupted while saving: no half-written copy is left
        tmp.unlink(missing_ok=True)
        raise
    return graph


def _build_with_status(land: Land, params: RoutingParams, passages: tuple[Passage, ...], path: Path) -> SeaGraph:
    import sys

    words = f"building the sea-route graph once (several seconds; kept in {path.parent})"
    if not sys.stderr.isatty():  # a log or a pipe: one line, so that the wait is explained
        print(f"{words}...", file=sys.stderr, flush=True)
        return SeaGraph.build(land, params, passages)
    from rich.console import Console

    with Console(stderr=True).status(words):
        return SeaGraph.build(land, params, passages)
