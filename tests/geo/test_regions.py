"""Territorial belts of the 1914 sovereigns."""

from __future__ import annotations

import numpy as np
import pytest
import shapely

from campaign.geo import earth
from campaign.geo.land import default_land
from campaign.geo.places import default_places
from campaign.geo.regions import EXIT_MARGIN_NM, restricted_waters, sovereigns, territorial_belt, way_out


def test_the_1914_sovereigns() -> None:
    names = set(sovereigns())
    assert {"Italy", "France", "Austria-Hungary", "Greece", "Ottoman Empire", "United Kingdom", "Spain"} <= names


@pytest.mark.parametrize("bearing", [160.0, 180.0, 200.0])
def test_italys_belt_is_six_miles_wide(bearing) -> None:
    belt = territorial_belt("Italy", 6.0).geometry
    land = default_land()
    # Out to sea from Capo Spartivento (Calabria): a point is in the belt exactly when it lies within
    # 6 nm of the coast (to the buffer's polygon approximation, 0.1 nm).
    for dist in (4.0, 5.7, 5.9, 6.1, 6.3, 8.0):
        lat, lon = earth.forward(37.93, 16.06, bearing, dist)
        d = land.distance_to_land_nm(lat, lon)
        if abs(d - 6.0) > 0.1:
            assert bool(shapely.intersects_xy(belt, lon, lat)) == (d < 6.0), (bearing, dist, d)


def test_belts_follow_1914_frontiers() -> None:
    italy = territorial_belt("Italy", 6.0).geometry
    austria = territorial_belt("Austria-Hungary", 3.0).geometry
    assert shapely.intersects_xy(italy, 13.3, 32.95)      # off Tripoli: Italian since 1912
    assert shapely.intersects_xy(italy, 28.2, 36.35)      # off Rhodes: the Dodecanese, occupied 1912
    assert shapely.intersects_xy(austria, 13.80, 44.84)   # 1 nm off Pola
    assert not shapely.intersects_xy(italy, 13.80, 44.84)  # Istria was not Italian in 1914
    with pytest.raises(KeyError, match="unknown sovereign"):
        territorial_belt("Ruritania", 3.0)


def test_the_dardanelles_are_closed_from_inside_the_entrance_to_the_marmara() -> None:
    (dard,) = [r for r in restricted_waters() if r.name == "Dardanelles"]
    assert dard.sovereign == "Ottoman Empire" and dard.permit == "enter_dardanelles"
    g = dard.area.geometry
    places = default_places()
    inside = places.get("Chanak narrows")
    outside = places.get("Dardanelles entrance")
    assert shapely.intersects_xy(g, inside.lon, inside.lat)
    assert not shapely.intersects_xy(g, outside.lon, outside.lat)
    # Its water is one piece: the strait, none of the Aegean or the Marmara beyond it.
    land = default_land()
    sea = g.difference(land.lonlat)
    assert sea.geom_type == "Polygon"
    for lat, lon in ((40.10, 26.10), (40.22, 26.22), (40.52, 26.50), (40.50, 26.90), (39.95, 26.10)):
        assert not shapely.intersects_xy(g, lon, lat)
    # The ring's sides run over land except the entrance and Marmara chords.
    ring = list(g.exterior.coords)
    wet_sides = 0
    for (x0, y0), (x1, y1) in zip(ring, ring[1:]):
        ts = np.linspace(0.0, 1.0, 100)
        wet = sum(not land.is_land(y0 + (y1 - y0) * t, x0 + (x1 - x0) * t) for t in ts)
        wet_sides += wet > 0
    assert wet_sides <= 3  # the entrance chord, and the Gallipoli - Lapseki chord (two sides)


ITALY_6NM = territorial_belt("Italy", 6.0)


def _nearest_outside_nm(area: shapely.Geometry, lat: float, lon: float) -> float:
    """The distance (nm) to the nearest point outside ``area`` found along 72 bearings in steps of
    0.05 nm: an upper bound on the true nearest, within a step."""
    best = np.inf
    for bearing in np.arange(0.0, 360.0, 5.0):
        for d in np.arange(0.05, 20.0, 0.05):
            la, lo = earth.forward(lat, lon, bearing, d)
            if not shapely.intersects_xy(area, lo, la):
                best = min(best, d)
                break
    return float(best)


@pytest.mark.parametrize("lat, lon", [
    (37.87, 16.06),      # off Capo Spartivento, Calabria: straight out to sea
    (38.0158, 15.441),   # off Sicily below the Strait of Messina, where the two shores' belts meet
    (37.982, 16.2482),   # a cable inside the edge
    (38.1798, 15.575),   # Messina: the strait is Italian from shore to shore
])
def test_the_way_out_of_a_belt_is_the_nearest_water_outside_it(lat, lon) -> None:
    out = way_out((ITALY_6NM,), lat, lon)
    assert out is not None
    # Outside, by the margin: never in the notch where two shores' belts meet.
    assert not shapely.intersects_xy(ITALY_6NM.geometry, out[1], out[0])
    depth_nm = shapely.distance(shapely.Point(out[1], out[0]), ITALY_6NM.geometry.boundary) * 60.0
    assert depth_nm > EXIT_MARGIN_NM * 0.5
    # And the nearest such water: no farther than the nearest found along any bearing, plus the margin.
    d = float(earth.distance_nm(lat, lon, *out))
    assert d <= _nearest_outside_nm(ITALY_6NM.geometry, lat, lon) + EXIT_MARGIN_NM + 0.06


def test_no_way_out_is_needed_outside_the_areas() -> None:
    assert way_out((ITALY_6NM,), 36.0, 15.0) is None
    assert way_out((), 37.87, 16.06) is None


# -- a belt round every island -----------------------------------------------------------------------

@pytest.mark.parametrize("lat, lon, what", [
    (38.8181, 8.3817, "2.7 nm off Isola del Toro (SW Sardinia), where the French fleet passed"),
    (38.0990, 12.3090, "4.8 nm off Levanzo (Egadi), where Chatham lay"),
    (38.0817, 12.3140, "3.7 nm off Levanzo"),
    (40.4800, 14.2300, "4 nm south of Capri"),
    (38.6000, 15.2000, "5.7 nm off Panarea (Aeolian islands)"),
    (35.5000, 12.3200, "3 nm off Lampione (Pelagie)"),
])
def test_every_italian_island_and_islet_has_its_own_belt(lat, lon, what) -> None:
    # Natural Earth's 1:10m countries leave out some two hundred islands (Levanzo, Capri, the Aeolians)
    # and GSHHG's intermediate shore leaves out the islets (Isola del Toro, Lampione): each is Italian
    # all the same, and the belt runs round it (layer coasts_1914).
    assert shapely.intersects_xy(ITALY_6NM.geometry, lon, lat), what


def test_no_land_is_left_without_a_sovereign() -> None:
    from campaign.geo.regions import coast_of

    coasts = shapely.STRtree([coast_of(s) for s in sovereigns()])
    parts = shapely.get_parts(default_land().lonlat)
    held = np.zeros(len(parts), dtype=bool)
    held[coasts.query(parts, predicate="intersects")[0]] = True
    assert held.all(), [p.representative_point().coords[0] for p in parts[~held]][:5]


def test_a_belt_is_drawn_island_by_island_as_one_buffer_of_the_whole_coast_would_be() -> None:
    from pyproj import Transformer

    from campaign.geo.regions import coast_of

    # Malta's belt (3 nm), drawn the slow way: one buffer of the whole coast in the same projection.
    land = coast_of("United Kingdom").intersection(shapely.box(14.0, 35.7, 14.7, 36.2))
    c = coast_of("United Kingdom").centroid
    aeqd = f"+proj=aeqd +lat_0={c.y} +lon_0={c.x} +datum=WGS84 +units=m +no_defs"
    fwd = Transformer.from_crs("EPSG:4326", aeqd, always_xy=True)
    inv = Transformer.from_crs(aeqd, "EPSG:4326", always_xy=True)
    local = shapely.transform(land, lambda xy: np.column_stack(fwd.transform(xy[:, 0], xy[:, 1])))
    whole = local.buffer(3.0 * earth.M_PER_NM, quad_segs=8)
    whole = shapely.transform(whole, lambda xy: np.column_stack(inv.transform(xy[:, 0], xy[:, 1])))
    belt = territorial_belt("United Kingdom", 3.0).geometry.intersection(shapely.box(13.5, 35.3, 15.2, 36.6))
    assert belt.symmetric_difference(whole).area < 1e-9
