"""Sea room in battle: the helm keeps its ships off the land.

A battle is fought on a plane about its centre (``campaign.tactics.localplane``) that knows no coast,
so a ship breaking off towards a shore would steam over it. ``SeaRoom`` gives the helm the charts: each
tick, a ship whose ordered course would bring land within ``look_yd`` ahead of her is turned the least
that clears it, ``step_deg`` at a time (the side nearer her present course first, as a helmsman
turns); where no course clears at the first look-ahead (a strait, a bay) the next, shorter one is
tried. Where none clears at all, she is on the charts' land already (an engine's turn clipped a
point): she steers the least turn that has water that far ahead, and with none the helm's order
stands (the world puts the force back at sea when the battle ends: ``campaign.world.engagement``).
The world supplies ``clear``, which tests straight moves on the plane against the land; the engines
and the duels without a world fight in open water (no ``SeaRoom``).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from campaign.tactics.kinematics import angle_diff_deg
from campaign.tactics.protocol import HelmOrder, ShipView

# (x0, y0, x1, y1) plane yards, arrays of one length -> True where the straight move misses the land.
ClearMoves = Callable[[np.ndarray, np.ndarray, np.ndarray, np.ndarray], np.ndarray]


@dataclass(frozen=True)
class SeaRoom:
    """The land a battle is fought beside, as the helm needs it.

    ``clear`` tests straight moves on the battle's plane; ``look_yd`` the distances ahead a ship keeps
    clear, tried in turn (longest first); ``step_deg`` the turns tried."""

    clear: ClearMoves
    look_yd: tuple[float, ...]
    step_deg: float

    def _turns(self, want_deg: float, course_deg: float) -> list[float]:
        """Courses from ``want_deg`` outwards, ``step_deg`` apart, the side nearer ``course_deg`` first at
        each step, all round."""
        steps = math.ceil(180.0 / self.step_deg)
        out = [want_deg % 360.0]
        for k in range(1, steps + 1):
            turn = min(k * self.step_deg, 180.0)
            left, right = (want_deg - turn) % 360.0, (want_deg + turn) % 360.0
            pair = (left, right) if abs(angle_diff_deg(course_deg, left)) <= abs(angle_diff_deg(course_deg, right)) \
                else (right, left)
            out.extend(c for c in pair if c not in out)
        return out

    def _first_clear(self, v: ShipView, courses: Sequence[float], look_yd: float, *,
                     end_only: bool = False) -> float | None:
        """The first of ``courses`` on which the move ``look_yd`` ahead of her misses the land (``end_only``:
        on which the point that far ahead is at sea, tested as a move of a yard from it)."""
        rad = np.radians(np.asarray(courses, dtype=float))
        n = len(courses)
        x0, y0 = np.full(n, v.x_yd), np.full(n, v.y_yd)
        x1, y1 = x0 + look_yd * np.sin(rad), y0 + look_yd * np.cos(rad)
        if end_only:
            x0, y0 = x1 - np.sin(rad), y1 - np.cos(rad)
        hit = np.flatnonzero(self.clear(x0, y0, x1, y1))
        return float(courses[int(hit[0])]) if hit.size else None

    def steer_clear(self, views: Sequence[ShipView], orders: Mapping[str, HelmOrder]) -> dict[str, HelmOrder]:
        """``orders`` with each afloat ship's course turned the least that keeps land ``look_yd`` ahead of
        her clear (see the module's docstring); orders that clear already are returned unchanged."""
        out = dict(orders)
        for v in views:
            order = orders.get(v.name)
            if order is None or not v.afloat or order.speed_kn <= 0.0:
                continue
            if self._first_clear(v, [order.course_deg], self.look_yd[0]) is not None:
                continue
            courses = self._turns(order.course_deg, v.course_deg)
            for look_yd in self.look_yd:
                course = self._first_clear(v, courses, look_yd)
                if course is not None:
                    out[v.name] = HelmOrder(course, order.speed_kn)
                    break
            else:
                # No move clears even at the shortest look: she is on the charts' land already (an
                # engine's turn clipped a point). She steers for the nearest water ahead, the least turn
                # first; with none in reach the helm's order stands (the world puts her back at sea after).
                for look_yd in self.look_yd:
                    course = self._first_clear(v, courses, look_yd, end_only=True)
                    if course is not None:
                        out[v.name] = HelmOrder(course, order.speed_kn)
                        break
        return out
