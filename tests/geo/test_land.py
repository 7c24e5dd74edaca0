"""Land polygons: real coastlines of the campaign area, queried in degrees."""

from __future__ import annotations

import numpy as np
import pytest
import shapely

from campaign.geo import earth
from campaign.geo.land import default_land

LAND = default_land()


@pytest.mark.parametrize("lat, lon, land", [
    (37.75, 14.99, True),    # Mount Etna, Sicily
    (31.0, 12.0, True),      # the Libyan desert, far from the clip edge's great circle
    (41.9, 12.5, True),      # Rome
    (37.0, 18.0, False),     # the Ionian Sea
    (35.0, 18.0, False),     # between Malta and Crete
    (40.80, 27.50, False),   # the Sea of Marmara
    (38.24583, 15.6325, False),  # the Strait of Messina (Wikipedia 'Strait of Messina' reference point)
])
def test_known_points(lat, lon, land) -> None:
    assert LAND.is_land(lat, lon) is land


def test_area_and_arrays() -> None:
    lo0, la0, lo1, la1 = LAND.bounds
    assert lo0 <= -6 and lo1 >= 30 and la0 <= 30 and la1 >= 46  # the lon -6..30, lat 30..46
    out = LAND.is_land(np.array([37.75, 37.0]), np.array([14.99, 18.0]))
    assert out.tolist() == [True, False]


def test_distance_to_land() -> None:
    # Malta lies 47-50 nm south of Capo Passero; a point midway is ~24 nm from either.
    assert LAND.distance_to_land_nm(36.3, 14.8) == pytest.approx(24, abs=6)
    assert LAND.distance_to_land_nm(37.75, 14.99) == 0.0


def test_nearest_sea_point_is_clear_and_close() -> None:
    lat, lon = LAND.nearest_sea_point(38.1833, 15.5667, 0.3)  # Messina's quay
    assert not LAND.is_land(lat, lon)
    assert LAND.distance_to_land_nm(lat, lon) >= 0.3 * 0.999
    from campaign.geo import earth

    assert earth.distance_nm(38.1833, 15.5667, lat, lon) < 1.0


@pytest.mark.parametrize("lat, lon", [(38.19, 15.56), (35.90, 14.51), (37.95, 15.70), (36.70, 15.14),
                                      (40.15, 26.40), (37.10, 25.82), (38.40, 16.40)])
def test_nearest_sea_point_is_the_nearest_clear_water(lat, lon) -> None:
    """The near-first search finds what one wide search finds: the nearest point 2 nm clear of land."""
    land = default_land()
    got = land.nearest_sea_point(lat, lon, 2.0)
    assert not land.is_land(*got) and land.distance_to_land_nm(*got) >= 2.0 * 0.999
    # Brute force: the nearest clear point of a fine grid round the point is no nearer than the answer.
    d_got = earth.distance_nm(lat, lon, *got)
    la, lo = np.meshgrid(lat + np.linspace(-0.6, 0.6, 121), lon + np.linspace(-0.75, 0.75, 151))
    la, lo = la.ravel(), lo.ravel()
    d = earth.distance_nm(np.full(la.size, lat), np.full(la.size, lon), la, lo)
    best = next(float(d[i]) for i in np.argsort(d)
                if not land.is_land(la[i], lo[i]) and land.distance_to_land_nm(la[i], lo[i]) >= 2.0)
    assert d_got <= best + 0.6  # within the grid's spacing (0.6 nm)


def test_nearest_sea_point_gives_the_same_answer_with_the_coasts_merged_before_or_not() -> None:
    """The merged coasts are remembered (a watch off the Strait of Messina asks again and again): the
    answer from the remembered shape is the answer from a fresh merge, to the last bit."""
    land = default_land()
    off_messina = (38.048413991336865, 15.680593109602865)  # asked by a watch on the strait (seed 1)
    land.__dict__.pop("_unions", None)
    fresh = land.nearest_sea_point(*off_messina, 0.4)
    assert land.__dict__["_unions"]  # Sicily's and Calabria's coasts, merged
    assert land.nearest_sea_point(*off_messina, 0.4) == fresh
    assert not land.is_land(*fresh) and land.distance_to_land_nm(*fresh) >= 0.4 * 0.999


@pytest.mark.parametrize("lat, lon", [(38.19, 15.56), (35.90, 14.51), (37.95, 15.70), (36.70, 15.14),
                                      (40.15, 26.40), (37.10, 25.82), (38.40, 16.40)])
def test_the_quick_step_off_shore_is_clear_and_near_the_exact_answer(lat, lon) -> None:
    land = default_land()
    quick = land.step_off_shore(lat, lon, 2.0)
    if quick is None:
        return  # a corner of the coast: the exact search answers
    exact = land.nearest_sea_point(lat, lon, 2.0)
    assert not land.is_land(*quick) and land.distance_to_land_nm(*quick) >= 2.0
    assert earth.distance_nm(lat, lon, *quick) <= earth.distance_nm(lat, lon, *exact) + 2.0 * 0.05 + 0.05


def test_open_water_is_settled_by_the_quick_test_as_the_full_one_settles_it() -> None:
    """The quick test for open water (no shore within the clearance in plane metres stretched) gives what
    the full test gives, near coasts and far from them, for the clearances the command layer asks."""
    land = default_land()
    rng = np.random.default_rng(7)
    lats, lons = rng.uniform(31.0, 45.5, 1500), rng.uniform(-5.5, 35.5, 1500)
    quick_hits = 0
    for lat, lon in zip(lats.tolist(), lons.tolist()):
        for clear_nm in (2.0, 10.0):
            got = land.step_off_shore(lat, lon, clear_nm)
            assert got == land._step_off_shore(lat, lon, clear_nm)
            quick_hits += got == (lat, lon)
    assert quick_hits > 500  # most points lie at sea, clear: the quick answer is used


def test_a_point_asked_again_gets_the_same_step_off_shore() -> None:
    """The full answers are kept by the exact point: asked again, a point close inshore (off the
    Dardanelles, where doctrine watches) gets what the full test gives, and a point a hair away is
    worked out afresh."""
    land = default_land()
    lat, lon = 40.19425897597962, 26.25732273753523
    first = land.step_off_shore(lat, lon, 0.4)
    assert land.step_off_shore(lat, lon, 0.4) == first == land._step_off_shore(lat, lon, 0.4)
    near = land.step_off_shore(lat + 1e-9, lon, 0.4)
    assert near == land._step_off_shore(lat + 1e-9, lon, 0.4)


def test_water_outside_a_neutral_belt_is_near_open_and_kept() -> None:
    """Messina lies in Italy's 6-mile belt (Churchill p.96): the nearest water outside it is outside
    the belt, at sea, within a few miles of the belt's edge (the belt is ~6 nm; the strait is narrow);
    asked again the point gets the same answer, kept; a point outside every area is its own answer."""
    from campaign.geo.regions import territorial_belt

    land = default_land()
    belt = territorial_belt("Italy", 6)
    lat, lon = 38.19, 15.58  # Messina harbour
    got = land.water_outside(lat, lon, (belt,))
    assert got is not None
    assert not shapely.intersects_xy(belt.geometry, got[1], got[0])
    assert not land.is_land(*got)
    assert float(earth.distance_nm(lat, lon, *got)) < 12.0
    assert land.water_outside(lat, lon, (belt,)) == got == land._water_outside(lat, lon, [belt.geometry])
    assert land.water_outside(36.0, 18.0, (belt,)) == (36.0, 18.0)  # the open Ionian Sea
