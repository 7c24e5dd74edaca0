"""The replay's chart: land, places, graticule and scale bar as plain Plotly trace dicts.

The chart is a plate carrée (x = longitude, y = latitude, degrees) with the y axis stretched by
1/cos(centre latitude), so that at the centre of the view a nautical mile is as long north-south as
east-west. Plotly's own maps (``scattergeo``, ``scattermap``) fetch their coastlines or tiles from the
network at run time and draw nothing offline (DEPENDENCIES.md), so the land is drawn here from the
project's GSHHG polygons as filled scatter traces.

Every text that reaches Plotly is passed through :func:`plotly_text`: Plotly renders a subset of HTML
in labels and hover boxes, so a name from a scenario file must arrive escaped.
"""

from __future__ import annotations

import html
import math
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import numpy as np
import shapely

from campaign.geo.places import PORT_KINDS, Place

LAND_SIMPLIFY_DEG = 0.01  # ~1 km: the GSHHG intermediate resolution, invisible at the scale of a sea
MIN_ISLAND_DEG2 = 5e-5  # ~0.5 km²: keeps Denusa (~14 km²) and the Aegean islets a ship could anchor behind
COORD_DECIMALS = 3  # 0.001 deg ~ 110 m, finer than a pixel at any sensible zoom
MARGIN_DEG = 1.0
MIN_SPAN_DEG = 3.0

LAND_COLOUR = "#e9e2cc"
COAST_COLOUR = "#8f8060"
SEA_COLOUR = "#d6e6f2"
GRID_COLOUR = "rgba(70, 90, 120, 0.25)"
LABEL_COLOUR = "#4a4a4a"


def plotly_text(text: Any) -> str:
    """Text made safe for Plotly labels and hover boxes (which render a subset of HTML)."""
    return html.escape(str(text), quote=True)


@dataclass(frozen=True)
class Extent:
    """A lon/lat box in degrees."""

    lon0: float
    lon1: float
    lat0: float
    lat1: float

    @property
    def centre(self) -> tuple[float, float]:
        """(lat, lon) of the box's centre."""
        return (self.lat0 + self.lat1) / 2.0, (self.lon0 + self.lon1) / 2.0

    @property
    def aspect(self) -> float:
        """Screen length of a degree of latitude over a degree of longitude at the centre latitude."""
        return 1.0 / math.cos(math.radians(self.centre[0]))

    def within(self, other: Extent) -> Extent:
        """This box cut to ``other`` (unchanged where it already lies inside)."""
        return Extent(max(self.lon0, other.lon0), min(self.lon1, other.lon1), max(self.lat0, other.lat0),
                      min(self.lat1, other.lat1))

    def grown(self, pad_deg: float) -> Extent:
        return Extent(self.lon0 - pad_deg, self.lon1 + pad_deg, max(-89.0, self.lat0 - pad_deg),
                      min(89.0, self.lat1 + pad_deg))


def view_extent(lats: Iterable[float], lons: Iterable[float], margin_deg: float = MARGIN_DEG) -> Extent:
    """The box that holds every position (degrees), plus a margin; at least ``MIN_SPAN_DEG`` wide."""
    la = np.asarray(list(lats), dtype=float)
    lo = np.asarray(list(lons), dtype=float)
    ok = np.isfinite(la) & np.isfinite(lo)
    if not ok.any():
        raise ValueError("no positions to frame the replay on")
    la, lo = la[ok], lo[ok]
    lat0, lat1, lon0, lon1 = la.min(), la.max(), lo.min(), lo.max()
    margin = max(margin_deg, 0.08 * max(lat1 - lat0, lon1 - lon0))
    lat0, lat1, lon0, lon1 = lat0 - margin, lat1 + margin, lon0 - margin, lon1 + margin
    if lat1 - lat0 < MIN_SPAN_DEG:
        mid = (lat0 + lat1) / 2.0
        lat0, lat1 = mid - MIN_SPAN_DEG / 2.0, mid + MIN_SPAN_DEG / 2.0
    if lon1 - lon0 < MIN_SPAN_DEG:
        mid = (lon0 + lon1) / 2.0
        lon0, lon1 = mid - MIN_SPAN_DEG / 2.0, mid + MIN_SPAN_DEG / 2.0
    return Extent(float(lon0), float(lon1), float(max(-89.0, lat0)), float(min(89.0, lat1)))


def _ring_xy(ring: shapely.LinearRing) -> tuple[list[float | None], list[float | None]]:
    c = np.round(np.asarray(ring.coords), COORD_DECIMALS)
    keep = np.ones(len(c), dtype=bool)
    keep[1:] = np.any(np.diff(c, axis=0) != 0, axis=1)
    c = c[keep]
    return c[:, 0].tolist() + [None], c[:, 1].tolist() + [None]


def land_trace(land: shapely.Geometry, box: Extent) -> dict[str, Any]:
    """The land inside ``box`` as one filled scatter trace (polygons separated by gaps).

    Lakes (polygon holes) are not cut out: at sea scale they do not matter and it halves the points.
    """
    clip = shapely.clip_by_rect(land, box.lon0, box.lat0, box.lon1, box.lat1)
    simple = shapely.simplify(clip, LAND_SIMPLIFY_DEG, preserve_topology=True)
    xs: list[float | None] = []
    ys: list[float | None] = []
    for poly in shapely.get_parts(simple):
        if poly.geom_type != "Polygon" or poly.is_empty or poly.area < MIN_ISLAND_DEG2:
            continue
        x, y = _ring_xy(poly.exterior)
        xs += x
        ys += y
    return {
        "type": "scatter", "mode": "lines", "name": "land", "x": xs, "y": ys,
        "fill": "toself", "fillcolor": LAND_COLOUR, "line": {"color": COAST_COLOUR, "width": 0.6},
        "hoverinfo": "skip", "showlegend": False,
    }


def outside_trace(coverage: Extent, box: Extent) -> dict[str, Any]:
    """Grey strips over the part of ``box`` beyond ``coverage``, the area the land data covers:
    beyond it the chart would show sea where there is land."""
    strips = []
    if box.lat1 > coverage.lat1:
        strips.append((box.lon0, box.lon1, coverage.lat1, box.lat1))
    if box.lat0 < coverage.lat0:
        strips.append((box.lon0, box.lon1, box.lat0, coverage.lat0))
    lat0, lat1 = max(box.lat0, coverage.lat0), min(box.lat1, coverage.lat1)
    if box.lon0 < coverage.lon0:
        strips.append((box.lon0, coverage.lon0, lat0, lat1))
    if box.lon1 > coverage.lon1:
        strips.append((coverage.lon1, box.lon1, lat0, lat1))
    xs: list[float | None] = []
    ys: list[float | None] = []
    for x0, x1, y0, y1 in strips:
        xs += [_r(x0), _r(x1), _r(x1), _r(x0), _r(x0), None]
        ys += [_r(y0), _r(y0), _r(y1), _r(y1), _r(y0), None]
    return {"type": "scatter", "mode": "lines", "name": "outside the chart data", "x": xs, "y": ys,
            "fill": "toself", "fillcolor": "#d4d4d4", "line": {"width": 0}, "hoverinfo": "skip",
            "showlegend": False}


def places_traces(places: Iterable[Place], box: Extent) -> list[dict[str, Any]]:
    """Ports and naval bases labelled; capes, straits, islands and stations as small dots with hover."""
    ports = [p for p in places if p.kind in PORT_KINDS and _inside(p, box)]
    others = [p for p in places if p.kind not in PORT_KINDS and _inside(p, box)]
    traces = []
    if ports:
        traces.append({
            "type": "scatter", "mode": "markers+text", "name": "ports",
            "x": [round(p.lon, COORD_DECIMALS) for p in ports],
            "y": [round(p.lat, COORD_DECIMALS) for p in ports],
            "text": [plotly_text(p.name) for p in ports],
            "hovertext": [plotly_text(f"{p.name} ({p.kind.replace('_', ' ')}, {p.nation or 'no sovereign'})")
                          for p in ports],
            "hoverinfo": "text", "textposition": "top center",
            "textfont": {"size": 10, "color": LABEL_COLOUR},
            "marker": {"symbol": "square", "size": 4, "color": LABEL_COLOUR}, "showlegend": False,
        })
    if others:
        traces.append({
            "type": "scatter", "mode": "markers", "name": "places",
            "x": [round(p.lon, COORD_DECIMALS) for p in others],
            "y": [round(p.lat, COORD_DECIMALS) for p in others],
            "hovertext": [plotly_text(f"{p.name} ({p.kind.replace('_', ' ')})") for p in others],
            "hoverinfo": "text", "marker": {"symbol": "circle", "size": 3, "color": "#8a8a8a"},
            "showlegend": False,
        })
    return traces


def _inside(p: Place, box: Extent) -> bool:
    return box.lon0 <= p.lon <= box.lon1 and box.lat0 <= p.lat <= box.lat1


def _tick_step(span_deg: float) -> int:
    for step in (1, 2, 5, 10):
        if span_deg / step <= 12:
            return step
    return 20


def _deg_label(v: int, pos: str, neg: str) -> str:
    return "0°" if v == 0 else f"{abs(v)}°{pos if v > 0 else neg}"


def graticule_axes(view: Extent, box: Extent) -> tuple[dict[str, Any], dict[str, Any]]:
    """Plotly x and y axis dicts: grid lines every 1, 2 or 5 degrees, labelled 15°E, 38°N."""
    def ticks(lo: float, hi: float, step: int, pos: str, neg: str) -> tuple[list[int], list[str]]:
        vals = list(range(int(math.floor(lo / step) * step), int(math.ceil(hi / step) * step) + 1, step))
        return vals, [_deg_label(v, pos, neg) for v in vals]

    xv, xt = ticks(box.lon0, box.lon1, _tick_step(view.lon1 - view.lon0), "E", "W")
    yv, yt = ticks(box.lat0, box.lat1, _tick_step(view.lat1 - view.lat0), "N", "S")
    common = {"showgrid": True, "gridcolor": GRID_COLOUR, "zeroline": False, "showline": True,
              "linecolor": "#777", "mirror": True, "ticks": "outside", "tickfont": {"size": 10}}
    xaxis = {**common, "range": [view.lon0, view.lon1], "tickvals": xv, "ticktext": xt,
             "constrain": "range"}
    yaxis = {**common, "range": [view.lat0, view.lat1], "tickvals": yv, "ticktext": yt,
             "scaleanchor": "x", "scaleratio": round(view.aspect, 6), "constrain": "range"}
    return xaxis, yaxis


def _nice_nm(target_nm: float) -> int:
    for nm in (10, 20, 25, 50, 100, 200, 250, 500, 1000):
        if nm >= target_nm * 0.7:
            return nm
    return 1000


def scale_bar_traces(view: Extent) -> list[dict[str, Any]]:
    """A bar of a round number of nautical miles near the lower left of the view (60 nm to a degree
    of latitude; a degree of longitude is 60 cos(lat) nm)."""
    lat = view.lat0 + 0.05 * (view.lat1 - view.lat0)
    lon0 = view.lon0 + 0.03 * (view.lon1 - view.lon0)
    nm_per_deg_lon = 60.0 * math.cos(math.radians(lat))
    length_nm = _nice_nm((view.lon1 - view.lon0) * nm_per_deg_lon / 6.0)
    lon1 = lon0 + length_nm / nm_per_deg_lon
    tick = 0.012 * (view.lat1 - view.lat0)
    x = [lon0, lon0, None, lon0, lon1, None, lon1, lon1]
    y = [lat - tick, lat + tick, None, lat, lat, None, lat - tick, lat + tick]
    return [
        {"type": "scatter", "mode": "lines", "name": "scale", "x": [_r(v) for v in x],
         "y": [_r(v) for v in y],
         "line": {"color": "#333", "width": 2}, "hoverinfo": "skip", "showlegend": False},
        {"type": "scatter", "mode": "text", "name": "scale label", "x": [_r((lon0 + lon1) / 2)],
         "y": [_r(lat + 2.5 * tick)], "text": [f"{length_nm} nm"], "textfont": {"size": 11, "color": "#333"},
         "hoverinfo": "skip", "showlegend": False},
    ]


def _r(v: float | None) -> float | None:
    return None if v is None else round(v, 4)
