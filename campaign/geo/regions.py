"""Regions of the sea: territorial belts of the 1914 sovereigns.

A belt is the water within ``width_nm`` of a sovereign's coast, measured on the WGS84 ellipsoid to
within about 1 % (the buffer is drawn in an azimuthal equidistant projection centred on that coast).
The coasts are every sovereign's GSHHG shores, islands and islets (layer ``coasts_1914`` of
``data/land/mediterranean_land.gpkg``, tagged by ``data/nations_1914.yaml``): a belt runs round every
island, however small.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np
import shapely
from pyproj import Transformer

from campaign.datafile import load_yaml
from campaign.geo import earth
from campaign.geo.land import LAND_FILE, read_layer
from campaign.geo.routing import AvoidArea, RouteError
from campaign.paths import DATA_DIR

if TYPE_CHECKING:
    from campaign.model.politics import Politics


@functools.cache
def sovereigns() -> dict[str, shapely.Geometry]:
    """1914 sovereign -> its land area (lon/lat), from the bundled GeoPackage."""
    geoms, cols = read_layer(LAND_FILE, "sovereignty_1914")
    return {str(name): g for name, g in zip(cols["sovereign"], geoms)}


@functools.cache
def _coasts() -> dict[str, shapely.Geometry]:
    geoms, cols = read_layer(LAND_FILE, "coasts_1914")
    return {str(name): g for name, g in zip(cols["sovereign"], geoms)}


@functools.cache
def coast_of(sovereign: str) -> shapely.Geometry:
    """The land ``sovereign``'s belt is measured from (lon/lat): its GSHHG shores with every island and
    islet that was its own, down to GSHHG's full resolution (layer ``coasts_1914``, built by
    tools/build_land.py). Raises KeyError for an unknown sovereign."""
    table = sovereigns()
    if sovereign not in table:
        raise KeyError(f"unknown sovereign '{sovereign}'; known: {', '.join(sorted(table))}")
    return _coasts()[sovereign]


@functools.cache
def territorial_belt(sovereign: str, width_nm: float) -> AvoidArea:
    """The waters within ``width_nm`` nautical miles of ``sovereign``'s coasts, as an AvoidArea.

    Italy's 6-mile belt, which the Admiralty ordered respected on 4 August 1914 ("no ship within 6 miles
    of the Italian coast", Churchill, The World Crisis vol.1 p.96), is ``territorial_belt("Italy", 6)``.
    """
    land = coast_of(sovereign)
    c = land.centroid
    aeqd = f"+proj=aeqd +lat_0={c.y} +lon_0={c.x} +datum=WGS84 +units=m +no_defs"
    fwd = Transformer.from_crs("EPSG:4326", aeqd, always_xy=True)
    inv = Transformer.from_crs(aeqd, "EPSG:4326", always_xy=True)
    local = shapely.transform(land, lambda xy: np.column_stack(fwd.transform(xy[:, 0], xy[:, 1])))
    # Each island's belt drawn on its own and the belts then merged: the same water as one buffer of the
    # whole coast, forty times sooner (GEOS merges the pieces of a many-part buffer slowly).
    belt = shapely.union_all(shapely.buffer(shapely.get_parts(local), width_nm * earth.M_PER_NM, quad_segs=8))
    belt_ll = shapely.transform(belt, lambda xy: np.column_stack(inv.transform(xy[:, 0], xy[:, 1])))
    belt_ll = shapely.make_valid(belt_ll)
    shapely.prepare(belt_ll)
    return AvoidArea(key=f"belt:{sovereign}:{width_nm:g}nm", geometry=belt_ll)


RESTRICTED_FILE = DATA_DIR / "restricted_waters.yaml"


@dataclass(frozen=True)
class RestrictedWater:
    """Waters closed to foreign warships unless ``sovereign`` grants ``permit`` (data/restricted_waters.yaml)."""

    name: str
    sovereign: str
    permit: str
    area: AvoidArea


@functools.cache
def restricted_waters() -> tuple[RestrictedWater, ...]:
    """The restricted waters of data/restricted_waters.yaml (the Dardanelles)."""
    doc = load_yaml(RESTRICTED_FILE.read_text(encoding="utf-8"))
    out = []
    for e in doc["restricted_waters"]:
        poly = shapely.Polygon([(float(lon), float(lat)) for lon, lat in e["polygon"]])
        shapely.prepare(poly)
        out.append(RestrictedWater(e["name"], e["sovereign"], e["permit"],
                                   AvoidArea(key=f"restricted:{e['name']}", geometry=poly)))
    return tuple(out)


def barred_waters(politics: Politics, nation: str, warships: bool, t_min: float) -> tuple[AvoidArea, ...]:
    """The waters the political timeline bars to ships of ``nation`` at ``t_min``: the neutrals' belts
    it must keep out of (``Politics.keep_out``), then, for a force with warships in a scenario with a
    timeline, the restricted waters whose sovereign has not permitted it (data/restricted_waters.yaml).
    The one rule for the world's routes and for the audit of a run's tracks."""
    belts = tuple(territorial_belt(sov, width) for sov, width in politics.keep_out(nation, t_min))
    closed = tuple(rw.area for rw in restricted_waters() if politics.events and warships
                   and nation != rw.sovereign and not politics.permitted(nation, rw.permit, t_min))
    return belts + closed


# A way out of forbidden waters ends this far beyond their edge (nm: a cable's length), so that the rest
# of the route starts clear of them and not on the edge, where rounding could put it either side.
EXIT_MARGIN_NM = 0.1
# How far (nm) the way out is sought: farther than any point of a belt (12 nm wide at most in 1914) or of
# a closed strait (the Dardanelles are 6 nm across) lies from its edge.
EXIT_SEARCH_NM = 60.0


def way_out(areas: tuple[AvoidArea, ...], lat: float, lon: float) -> tuple[float, float] | None:
    """The nearest point (lat, lon, degrees) at least ``EXIT_MARGIN_NM`` outside every one of ``areas``
    from a point inside some of them; None if the point lies in none. Distances are measured in an
    azimuthal equidistant projection centred on the point (true distances from it), so the way out is
    the shortest on the ellipsoid; taking the nearest point of the waters shrunk by the margin, not a
    step past the nearest edge, it never ends in a notch where two belts meet. The point may be on
    someone else's land (a strait narrower than a belt): the route from it then says so.
    Raises RouteError when nothing within ``EXIT_SEARCH_NM`` lies outside them."""
    if not any(shapely.intersects_xy(a.geometry, lon, lat) for a in areas):
        return None
    search_m = EXIT_SEARCH_NM * earth.M_PER_NM
    # The areas are cut to a window in degrees round the point before projecting: twice the search's
    # half-width in degrees of latitude (60 nm to a degree), widened by 1/cos(lat) for longitude, holds
    # the search's square whatever the projection's curvature that far out.
    half_deg = 2.0 * EXIT_SEARCH_NM / 60.0 / math.cos(math.radians(lat))
    window = shapely.box(lon - half_deg, lat - half_deg, lon + half_deg, lat + half_deg)
    aeqd = f"+proj=aeqd +lat_0={lat} +lon_0={lon} +datum=WGS84 +units=m +no_defs"
    fwd = Transformer.from_crs("EPSG:4326", aeqd, always_xy=True)
    inv = Transformer.from_crs(aeqd, "EPSG:4326", always_xy=True)
    closed = shapely.union_all([
        shapely.transform(shapely.intersection(a.geometry, window),
                          lambda xy: np.column_stack(fwd.transform(xy[:, 0], xy[:, 1])))
        for a in areas])
    free = shapely.box(-search_m, -search_m, search_m, search_m).difference(
        closed.buffer(EXIT_MARGIN_NM * earth.M_PER_NM))
    if free.is_empty:
        raise RouteError(f"{lat:.4f},{lon:.4f}: no way out of {', '.join(a.key for a in areas)} "
                         f"within {EXIT_SEARCH_NM:g} nm")
    x, y = shapely.shortest_line(shapely.Point(0.0, 0.0), free).coords[-1]
    out_lon, out_lat = inv.transform(x, y)
    return float(out_lat), float(out_lon)
