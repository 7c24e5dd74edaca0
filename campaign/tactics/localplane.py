"""A battle's local plane: a pyproj azimuthal-equidistant projection centred on the fight, in yards."""

from __future__ import annotations

from pyproj import CRS, Transformer

M_PER_YD = 0.9144


class LocalPlane:
    """Converts between WGS84 (lat, lon degrees) and (x_yd east, y_yd north) about ``(lat0, lon0)``."""

    def __init__(self, lat0: float, lon0: float) -> None:
        self.lat0, self.lon0 = float(lat0), float(lon0)
        aeqd = CRS.from_proj4(f"+proj=aeqd +lat_0={self.lat0} +lon_0={self.lon0} +datum=WGS84 +units=m")
        self._fwd = Transformer.from_crs("EPSG:4326", aeqd, always_xy=True)
        self._inv = Transformer.from_crs(aeqd, "EPSG:4326", always_xy=True)

    def to_xy_yd(self, lat: float, lon: float) -> tuple[float, float]:
        x, y = self._fwd.transform(lon, lat)
        return x / M_PER_YD, y / M_PER_YD

    def to_latlon(self, x_yd: float, y_yd: float) -> tuple[float, float]:
        lon, lat = self._inv.transform(x_yd * M_PER_YD, y_yd * M_PER_YD)
        return lat, lon
