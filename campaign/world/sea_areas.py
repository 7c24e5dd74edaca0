"""Seas and lettered areas of the campaign's waters (seed 000, "Wireless Interception", "How to Search").

The board game divides its map into seven irregular SEAS, each into two or more AREAS identified by
letters; an intercepted transmission tells the enemy the sea and the area the sender is in, and no more.
The game's map is not in our copy of the rules, so ``data/sea_areas.yaml`` draws a stand-in: seven seas
along recognised basin limits (IHO, with the departures listed in the file) cut into areas by meridians
and parallels. Read it with :func:`load_sea_areas`; :func:`default_sea_areas` loads the bundled file once
per process (immutable); :func:`sea_area_at` answers ``(sea, area)`` for a point in degrees.

The polygons are plain lon/lat polygons. They may run over land: a point on land near the coast gets the
sea of its coast (a ship in port is in the sea outside the port). Points off the map (the Atlantic west of
the Strait of Gibraltar, the Dardanelles beyond their mouth, the Sea of Marmara, the Black Sea) are in no
sea: the lookup gives None.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt
import shapely
import yaml
from shapely import STRtree
from shapely.geometry import Polygon, box

from campaign.datafile import load_yaml
from campaign.paths import DATA_DIR

SEA_AREAS_FILE = DATA_DIR / "sea_areas.yaml"

# Shared boundaries are built from the same points, so two seas may touch but never overlap; this much
# (square degrees) is allowed for floating-point noise in the checks.
AREA_TOLERANCE_DEG2 = 1e-9


class SeaAreasError(ValueError):
    """Bad seas-and-areas data; the message names the file and the sea."""


@dataclass(frozen=True)
class Area:
    """One lettered area of a sea: the sea's polygon cut by the area's box (lon/lat degrees)."""

    sea: str
    letter: str
    polygon: shapely.Geometry

    @property
    def key(self) -> tuple[str, str]:
        return self.sea, self.letter


@dataclass(frozen=True, eq=False)
class SeaAreas:
    """The seas (name -> polygon) and their areas, with a spatial index for point lookups."""

    seas: tuple[tuple[str, shapely.Geometry], ...]
    areas: tuple[Area, ...]
    _tree: STRtree = field(init=False, repr=False)
    # Each area's envelope (lon min, lat min, lon max, lat max), degrees: a point outside it is not in it.
    _bounds: tuple[tuple[float, float, float, float], ...] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_tree", STRtree([a.polygon for a in self.areas]))
        bounds = tuple(tuple(float(v) for v in a.polygon.bounds) for a in self.areas)
        object.__setattr__(self, "_bounds", bounds)

    @property
    def sea_names(self) -> tuple[str, ...]:
        return tuple(name for name, _ in self.seas)

    def areas_of(self, sea: str) -> tuple[Area, ...]:
        """The areas of one sea, in letter order; KeyError for an unknown sea."""
        found = tuple(a for a in self.areas if a.sea == sea)
        if not found:
            raise KeyError(f"unknown sea {sea!r}; seas are {', '.join(self.sea_names)}")
        return found

    def index_at(self, lats: npt.ArrayLike, lons: npt.ArrayLike) -> tuple[np.ndarray, np.ndarray]:
        """For many points (degrees): the index into ``areas`` of the area holding each point (-1 for
        none; the first in file order for a point on a shared boundary) and how many areas hold it."""
        la = np.atleast_1d(np.asarray(lats, dtype=float))
        lo = np.atleast_1d(np.asarray(lons, dtype=float))
        points = shapely.points(lo, la)
        hit_point, hit_area = self._tree.query(points, predicate="intersects")
        counts = np.bincount(hit_point, minlength=len(points))
        first = np.full(len(points), len(self.areas), dtype=int)
        np.minimum.at(first, hit_point, hit_area)
        first[counts == 0] = -1
        return first, counts

    def sea_area_at(self, lat: float, lon: float) -> tuple[str, str] | None:
        """``(sea, area letter)`` of the point (degrees), or None off the campaign's waters."""
        if not (math.isfinite(lat) and math.isfinite(lon)):
            return None
        # ``index_at``'s answer for one point without its arrays and tree (every transmission asks): the
        # first area in file order that the point intersects, boundary included. An area whose envelope
        # misses the point cannot hold it, so only the few round it are asked.
        lat, lon = float(lat), float(lon)
        for area, (x0, y0, x1, y1) in zip(self.areas, self._bounds):
            if x0 <= lon <= x1 and y0 <= lat <= y1 and shapely.intersects_xy(area.polygon, lon, lat):
                return area.key
        return None


def _box(bounds: list[float | None]) -> Polygon:
    big = 1000.0
    lo_min, la_min, lo_max, la_max = (
        -big if bounds[0] is None else bounds[0], -big if bounds[1] is None else bounds[1],
        big if bounds[2] is None else bounds[2], big if bounds[3] is None else bounds[3],
    )
    return box(lo_min, la_min, lo_max, la_max)


def _sea_polygon(path: Path, name: str, boundary: Any) -> Polygon:
    try:
        ring = [(float(p[0]), float(p[1])) for p in boundary]
    except (TypeError, ValueError, IndexError):
        raise SeaAreasError(f"{path}: sea {name!r}: boundary must be a list of [lon, lat] pairs") from None
    if len(ring) < 3:
        raise SeaAreasError(f"{path}: sea {name!r}: boundary needs at least three points")
    poly = Polygon(ring)
    if not poly.is_valid:
        raise SeaAreasError(f"{path}: sea {name!r}: boundary is not a simple polygon ({shapely.is_valid_reason(poly)})")
    return poly


def load_sea_areas(path: Path | str = SEA_AREAS_FILE) -> SeaAreas:
    """Read and check a seas-and-areas file (the schema of ``data/sea_areas.yaml``).

    Raises :class:`SeaAreasError` naming the file and the sea when a boundary is not a simple polygon,
    two seas overlap, a sea's area boxes overlap or leave part of the sea out, or an area is empty.
    """
    path = Path(path)
    try:
        raw = load_yaml(path.read_text(encoding="utf-8"))
    except yaml.YAMLError as exc:
        raise SeaAreasError(f"{path}: not valid YAML: {exc}") from None
    if not isinstance(raw, dict) or not isinstance(raw.get("seas"), list) or not raw["seas"]:
        raise SeaAreasError(f"{path}: expected a non-empty 'seas' list at the top level")
    seas: list[tuple[str, shapely.Geometry]] = []
    areas: list[Area] = []
    for entry in raw["seas"]:
        name = str(entry.get("name", "")).strip()
        if not name or name in {s for s, _ in seas}:
            raise SeaAreasError(f"{path}: every sea needs a unique name (got {name!r})")
        poly = _sea_polygon(path, name, entry.get("boundary"))
        for other, other_poly in seas:
            if poly.intersection(other_poly).area > AREA_TOLERANCE_DEG2:
                raise SeaAreasError(f"{path}: sea {name!r} overlaps sea {other!r}")
        seas.append((name, poly))
        cut = []
        for spec in entry.get("areas") or []:
            letter = str(spec.get("area", "")).strip()
            bounds = spec.get("box")
            if not letter or not isinstance(bounds, list) or len(bounds) != 4:
                raise SeaAreasError(f"{path}: sea {name!r}: each area needs a letter and a 4-item box")
            piece = poly.intersection(_box(bounds))
            if piece.area <= AREA_TOLERANCE_DEG2:
                raise SeaAreasError(f"{path}: sea {name!r}: area {letter!r} does not meet the sea")
            if any(piece.intersection(p.polygon).area > AREA_TOLERANCE_DEG2 for p in cut):
                raise SeaAreasError(f"{path}: sea {name!r}: area {letter!r} overlaps another area")
            cut.append(Area(name, letter, piece))
        if len(cut) < 2:
            raise SeaAreasError(f"{path}: sea {name!r}: a sea has two or more areas (seed 000)")
        if abs(sum(a.polygon.area for a in cut) - poly.area) > AREA_TOLERANCE_DEG2 * 1e3:
            raise SeaAreasError(f"{path}: sea {name!r}: the area boxes leave part of the sea out")
        for a in cut:
            shapely.prepare(a.polygon)
        areas.extend(cut)
    return SeaAreas(tuple(seas), tuple(areas))


@functools.cache
def default_sea_areas() -> SeaAreas:
    """The bundled ``data/sea_areas.yaml``, loaded once per process (immutable)."""
    return load_sea_areas(SEA_AREAS_FILE)


def sea_area_at(lat: float, lon: float) -> tuple[str, str] | None:
    """``(sea, area letter)`` of a point in degrees on the bundled map, or None off the campaign's waters.

    >>> sea_area_at(35.9, 14.5)  # Malta
    ('Strait of Sicily', 'B')
    """
    return default_sea_areas().sea_area_at(lat, lon)
