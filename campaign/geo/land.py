"""Land: the GSHHG polygons of the campaign area, in degrees and in the routing plane.

The polygons are read once per process from ``data/land/mediterranean_land.gpkg`` (see its README
for source, licence and the script that rebuilt it). ``default_land()`` memoises the loaded, immutable
``Land``; there is no other state.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt
import shapely
import shapely.ops
from shapely import STRtree
from shapely.geometry import Point, box

from campaign.geo import earth
from campaign.geo.plane import PLANE_STRETCH_MAX, GnomonicPlane
from campaign.paths import DATA_DIR

LAND_FILE = DATA_DIR / "land" / "mediterranean_land.gpkg"

# Longest polygon edge kept before projecting, degrees (~3 nm): on so short an edge the great
# circle and the straight line in lon/lat differ by metres.
MAX_EDGE_DEG = 0.05

# Segments per quarter circle of a shore band's rounded corners (see Land.shore_band).
SHORE_BAND_QUAD_SEGS = 8
# Answers of the full step off shore kept per Land (a campaign asks a few dozen distinct points).
STEPS_OFF_SHORE_KEPT = 4096
# How far round a point in forbidden waters to look for water a force may use (half a box, degrees:
# about 3, 9 and 30 nm, nearest first), and the step taken beyond the edge of the forbidden waters
# (degrees: about 0.3 nm).
OUTSIDE_SEARCH_DEG = (0.05, 0.15, 0.5)
EDGE_STEP_DEG = 0.005
# Answers of the search for water outside forbidden areas kept per Land (doctrine asks again and again
# of the same few points: a contact lying in a neutral port).
WATERS_OUTSIDE_KEPT = 4096


def read_layer(path: Path, layer: str) -> tuple[list[shapely.Geometry], dict[str, np.ndarray]]:
    """Geometries and attribute columns of one GeoPackage layer (pyogrio, no GeoPandas)."""
    from pyogrio.raw import read

    meta, _fids, wkb, fields = read(path, layer=layer)
    geoms = list(shapely.from_wkb(wkb))
    return geoms, {name: np.asarray(col) for name, col in zip(meta["fields"], fields)}


@dataclass(frozen=True)
class Land:
    """Land polygons in degrees (``lonlat``) and in the gnomonic routing plane (``xy``)."""

    lonlat: shapely.MultiPolygon
    xy: shapely.MultiPolygon
    parts_xy: tuple[shapely.Polygon, ...]
    tree: STRtree
    plane: GnomonicPlane
    bounds: tuple[float, float, float, float]  # lon_min, lat_min, lon_max, lat_max

    @classmethod
    def load(cls, path: Path = LAND_FILE, plane: GnomonicPlane | None = None) -> Land:
        plane = plane or GnomonicPlane()
        geoms, _ = read_layer(path, "land")
        polys = [p for g in geoms for p in shapely.get_parts(g)]
        lonlat = shapely.MultiPolygon(polys)
        # The clip to the data's box leaves edges hundreds of miles long (the parallel of 29.5 N across
        # the Sahara); projected as they are, they would become great circles and cut land away, so
        # they are first split into short pieces. Projection can also fold a pair of near-coincident
        # GSHHG vertices into a self-intersection, which make_valid mends.
        parts_xy = tuple(
            q for p in polys
            for q in shapely.get_parts(shapely.make_valid(plane.transform_geometry(
                shapely.segmentize(p, MAX_EDGE_DEG))))
            if q.geom_type == "Polygon"
        )
        xy = shapely.MultiPolygon(list(parts_xy))
        shapely.prepare(xy)
        for p in parts_xy:
            shapely.prepare(p)
        b = lonlat.bounds
        return cls(lonlat, xy, parts_xy, STRtree(parts_xy), plane, (b[0], b[1], b[2], b[3]))

    def contains_area(self, lat: npt.ArrayLike, lon: npt.ArrayLike) -> np.ndarray:
        """True where a point lies within the bounds the land data covers."""
        la, lo = np.asarray(lat, dtype=float), np.asarray(lon, dtype=float)
        b = self.bounds
        return (lo >= b[0]) & (lo <= b[2]) & (la >= b[1]) & (la <= b[3])

    def is_land(self, lat: npt.ArrayLike, lon: npt.ArrayLike) -> bool | np.ndarray:
        """True where a point (degrees) lies on land (on or inside a shoreline)."""
        scalar = np.ndim(lat) == 0 and np.ndim(lon) == 0
        x, y = self.plane.to_xy(np.atleast_1d(lat), np.atleast_1d(lon))
        hit = shapely.intersects_xy(self.xy, x, y)
        return bool(hit[0]) if scalar else hit

    def distance_to_land_nm(self, lat: float, lon: float) -> float:
        """Geodesic distance in nm from a point to the nearest shore (0 on land)."""
        x, y = self.plane.to_xy(lat, lon)
        p = Point(float(x), float(y))
        if self.xy.intersects(p):
            return 0.0
        idx = self.tree.nearest(p)
        near = shapely.shortest_line(p, self.parts_xy[int(idx)]).coords[-1]
        nlat, nlon = self.plane.to_latlon(near[0], near[1])
        return float(earth.distance_nm(lat, lon, float(nlat), float(nlon)))

    def step_off_shore(self, lat: float, lon: float, clearance_nm: float) -> tuple[float, float] | None:
        """A quick near answer to :meth:`nearest_sea_point` for a point off (or on) a straight stretch of
        coast: straight out from the nearest shore point to a little beyond the clearance, if that is
        clear of all land by the clearance; else None. Within 5 % of the clearance of the exact answer
        there (the point itself when it is already clear)."""
        # Most points asked about lie well out at sea: a point outside the band of the clearance stretched
        # to plane metres is settled at once (plane metres are never more than PLANE_STRETCH_MAX true
        # ones, so the full test would find the point clear too). The point goes into the plane by
        # pyproj's scalar call: ``to_xy``'s computation without its arrays.
        x, y = self.plane.point_xy(lat, lon)
        if not shapely.intersects_xy(self.shore_band(clearance_nm * earth.M_PER_NM * PLANE_STRETCH_MAX), x, y):
            return lat, lon
        # Close inshore the full test costs about a millisecond (the distance to a whole coastline), and
        # doctrine asks again and again about the same few points (a watch off a strait's mouth): the
        # answers are kept, by the exact point, beside the frozen fields.
        memo = self.__dict__.setdefault("_steps_off_shore", {})
        key = (lat, lon, clearance_nm)
        if key not in memo:
            if len(memo) >= STEPS_OFF_SHORE_KEPT:
                memo.clear()
            memo[key] = self._step_off_shore(lat, lon, clearance_nm)
        return memo[key]

    def shore_band(self, reach_m: float) -> shapely.Geometry:
        """Land with every plane point within ``reach_m`` of it (prepared): a point outside lies farther
        than ``reach_m`` from every shore. Built once per reach (about 0.3 s) and kept on this Land."""
        bands = self.__dict__.setdefault("_shore_bands", {})  # beside the frozen fields: derived, immutable
        band = bands.get(reach_m)
        if band is None:
            # GEOS draws the band's rounded corners as chords between points on the arc, inside it: a
            # slightly wider band holds the whole arc (chord sag: cos of a quarter of a segment's angle).
            band = self.xy.buffer(reach_m / math.cos(math.pi / (4 * SHORE_BAND_QUAD_SEGS)),
                                  quad_segs=SHORE_BAND_QUAD_SEGS)
            shapely.prepare(band)
            bands[reach_m] = band
        return band

    def _step_off_shore(self, lat: float, lon: float, clearance_nm: float) -> tuple[float, float] | None:
        """``step_off_shore`` without its quick test for open water."""
        if not self.is_land(lat, lon) and self.distance_to_land_nm(lat, lon) >= clearance_nm:
            return lat, lon
        x, y = (float(v) for v in self.plane.to_xy(lat, lon))
        p = Point(x, y)
        inside = bool(self.xy.intersects(p))
        idx = int(self.tree.nearest(p))
        part = self.parts_xy[idx]
        q = shapely.shortest_line(p, part.boundary if inside else part).coords[-1]
        dx, dy = q[0] - p.x, q[1] - p.y
        norm = math.hypot(dx, dy)
        if norm == 0.0:
            return None
        if not inside:
            dx, dy = -dx, -dy  # away from the shore
        # Plane metres run up to ~1.3 true metres (see below): step a little long, then check.
        step_m = clearance_nm * earth.M_PER_NM * STEP_OFF_FACTOR
        cx, cy = q[0] + dx / norm * step_m, q[1] + dy / norm * step_m
        clat, clon = (float(v) for v in self.plane.to_latlon(cx, cy))
        if self.is_land(clat, clon) or self.distance_to_land_nm(clat, clon) < clearance_nm:
            return None
        if earth.distance_nm(lat, lon, clat, clon) > (clearance_nm * STEP_OFF_FACTOR
                                                      + earth.distance_nm(lat, lon, *self.plane.to_latlon(*q))) * 1.01:
            return None
        return clat, clon

    def segment_xy_clear(self, x0: npt.ArrayLike, y0: npt.ArrayLike, x1: npt.ArrayLike, y1: npt.ArrayLike,
                         obstacle: shapely.Geometry | None = None) -> np.ndarray:
        """For plane segments (vectorised), True where the segment misses ``obstacle`` (default: land)."""
        obstacle = self.xy if obstacle is None else obstacle
        coords = np.stack([np.column_stack([x0, y0]), np.column_stack([x1, y1])], axis=1)
        lines = shapely.linestrings(coords)
        return ~shapely.intersects(obstacle, lines)

    def water_outside(self, lat: float, lon: float, areas: tuple) -> tuple[float, float] | None:
        """The nearest water to (lat, lon) outside ``areas`` (``AvoidArea``s, lon/lat: the point itself
        when it is outside them all); None if there is none within about 30 nm. Looks near first, as
        :meth:`nearest_sea_point` does. Answers inside an area are kept, by the exact point and the
        areas' keys (the clipping costs a few milliseconds)."""
        inside = tuple(a for a in areas if shapely.intersects_xy(a.geometry, lon, lat))
        if not inside:
            return lat, lon
        memo = self.__dict__.setdefault("_waters_outside", {})
        key = (lat, lon, tuple(a.key for a in inside))
        if key not in memo:
            if len(memo) >= WATERS_OUTSIDE_KEPT:
                memo.clear()
            memo[key] = self._water_outside(lat, lon, [a.geometry for a in inside])
        return memo[key]

    def _water_outside(self, lat: float, lon: float, inside: list) -> tuple[float, float] | None:
        here = shapely.Point(lon, lat)
        for half in OUTSIDE_SEARCH_DEG:
            bbox = (lon - half, lat - half, lon + half, lat + half)
            clipped = [shapely.clip_by_rect(g, *bbox) for g in inside]
            barred = clipped[0] if len(clipped) == 1 else shapely.union_all(clipped)
            free = shapely.box(*bbox).difference(barred).difference(shapely.clip_by_rect(self.lonlat, *bbox))
            if free.is_empty:
                continue
            q = shapely.ops.nearest_points(free, here)[0]
            dx, dy = q.x - lon, q.y - lat
            if math.hypot(dx, dy) > half and half != OUTSIDE_SEARCH_DEG[-1]:
                continue  # nearer water may lie beyond this box
            # A step beyond the edge, so that the point is outside and not on the boundary.
            norm = math.hypot(dx, dy) or 1.0
            return q.y + EDGE_STEP_DEG * dy / norm, q.x + EDGE_STEP_DEG * dx / norm
        return None

    def _union_of(self, parts: tuple[int, ...]) -> shapely.Geometry:
        """The land parts numbered ``parts`` (in this order) as one shape, remembered: merging a coast as
        long as Italy's with Sicily's takes milliseconds, and doctrine asks for open water again and again
        off the same few coasts (a watch on the Strait of Messina), in run after run."""
        memo = self.__dict__.setdefault("_unions", {})  # beside the frozen fields: derived, immutable
        local = memo.get(parts)
        if local is None:
            if len(memo) >= UNIONS_KEPT:
                memo.clear()
            geoms = [self.parts_xy[i] for i in parts]
            local = memo[parts] = shapely.union_all(geoms) if len(geoms) > 1 else geoms[0]
        return local

    def nearest_sea_point(self, lat: float, lon: float, clearance_nm: float) -> tuple[float, float]:
        """The nearest point at least ``clearance_nm`` from land (the point itself if it already is).

        Used to move a port's reference point (often on the quay, or inland in a 1 km shoreline) to
        the nearest navigable water. Raises ValueError if nothing is found within 30 nm.
        """
        if not self.is_land(lat, lon) and self.distance_to_land_nm(lat, lon) >= clearance_nm:
            return lat, lon
        x, y = (float(v) for v in self.plane.to_xy(lat, lon))
        p = Point(x, y)
        # Look near first: most points wanted at sea (a shadower's station, a quay) have open water
        # within a mile or two, and buffering a small piece of coast is cheap.
        for reach_nm in SEA_SEARCH_REACHES_NM:
            search_m = (reach_nm + clearance_nm) * earth.M_PER_NM * 1.3
            window = box(x - search_m, y - search_m, x + search_m, y + search_m)
            found = tuple(self.tree.query(window).tolist())
            if not found:
                continue
            local = self._union_of(found)
            # Plane metres are stretched by up to ~1.3 relative to true metres: over-buffer a little,
            # then check the true clearance of the answer.
            for factor in (1.05, 1.3, 1.6):
                blocked = local.intersection(window.buffer(clearance_nm * earth.M_PER_NM * 2.0)).buffer(
                    clearance_nm * earth.M_PER_NM * factor, quad_segs=8)
                free = window.difference(blocked)
                if free.is_empty:
                    continue
                q = shapely.shortest_line(p, free).coords[-1]
                if math.hypot(q[0] - x, q[1] - y) > search_m and reach_nm != SEA_SEARCH_REACHES_NM[-1]:
                    break  # water nearer may lie beyond this window: look wider
                qlat, qlon = (float(v) for v in self.plane.to_latlon(q[0], q[1]))
                if not self.is_land(qlat, qlon) and self.distance_to_land_nm(qlat, qlon) >= clearance_nm * 0.999:
                    return qlat, qlon
        raise ValueError(f"no sea within 30 nm of {lat:.4f}, {lon:.4f}")


# The land shapes nearest_sea_point has merged, by the parts merged: this many at most.
UNIONS_KEPT = 64


# The quick step off a straight shore goes this much beyond the clearance (plane metres are up to a few
# per cent longer than true ones hereabouts; a step just short of the clearance would fail its check).
STEP_OFF_FACTOR = 1.05
# How far nearest_sea_point looks for open water, nearest first (nm): the last is its promise.
SEA_SEARCH_REACHES_NM = (2.0, 8.0, 30.0)


@functools.cache
def default_land() -> Land:
    """The campaign's land polygons, loaded once per process (immutable)."""
    return Land.load()
