"""Territorial belts of the 1914 sovereigns."""

from __future__ import annotations

import pytest
import shapely

from campaign.geo import earth
from campaign.geo.land import default_land
from campaign.geo.regions import sovereigns, territorial_belt


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
