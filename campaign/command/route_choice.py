"""Which way to go: the routes of a commander's plan, each barred or not by the forces he believes near it.

He judges from his picture only: a contact he has recognised as a superior force (``threats``), where he
reckons it now, within the plan's ``clear_nm`` of a route's track, bars that route."""

from __future__ import annotations

from campaign.command.doctrine import ship_rank
from campaign.command.picture import Estimate
from campaign.command.plan_file import Route
from campaign.geo import earth

SAMPLE_NM = 10.0  # the track is looked at every this many nm


def heavy_count(ships: tuple[str, ...], rank: int) -> int:
    """How many of ``ships`` rank at ``rank`` or higher."""
    return sum(1 for n in ships if (k := ship_rank(n)) is not None and k <= rank)


def is_superior(own_ships: tuple[str, ...], theirs: tuple[str, ...]) -> bool:
    """Does he take ``theirs`` for a superior force: more ships of his own best rank or higher than he has
    (Souchon held two battle cruisers superior to Goeben alone; a light cruiser holds any big ship so)?"""
    ranks = [k for n in own_ships if (k := ship_rank(n)) is not None]
    if not ranks:
        return False
    best = min(ranks)
    return heavy_count(theirs, best) > heavy_count(own_ships, best)


def threats(own_ships: tuple[str, ...], estimates: tuple[Estimate, ...], fresh_h: float) -> tuple[Estimate, ...]:
    """The contacts in his picture he takes for superior forces (recognised), with a place for them and no
    older than ``fresh_h``, in sight or lost."""
    return tuple(e for e in estimates
                 if e.lat is not None and e.report.ships and e.age_h <= fresh_h
                 and is_superior(own_ships, e.report.ships))


def track(start: tuple[float, float], via: tuple[tuple[float, float], ...]) -> list[tuple[float, float]]:
    """Points every ``SAMPLE_NM`` along the great circles from ``start`` through ``via``."""
    out = [start]
    here = start
    for nxt in via:
        d = earth.distance_nm(*here, *nxt)
        steps = max(int(d // SAMPLE_NM), 1)
        course = earth.bearing_deg(*here, *nxt)
        for k in range(1, steps + 1):
            out.append(tuple(map(float, earth.forward(*here, course, d * k / steps))))
        here = nxt
    return out


def length_nm(start: tuple[float, float], via: tuple[tuple[float, float], ...]) -> float:
    """The great-circle length from ``start`` through ``via``, nm."""
    total, here = 0.0, start
    for nxt in via:
        total += float(earth.distance_nm(*here, *nxt))
        here = nxt
    return total


def clearance_nm(start: tuple[float, float], via: tuple[tuple[float, float], ...],
                 dangers: tuple[Estimate, ...]) -> float:
    """How near the track comes to where he reckons any of ``dangers`` now, nm (infinite with none)."""
    if not dangers:
        return float("inf")
    points = track(start, via)
    return min(float(earth.distance_nm(p[0], p[1], e.lat, e.lon)) for p in points for e in dangers)


def choose(start: tuple[float, float], routes: tuple[Route, ...], end: tuple[float, float] | None,
           dangers: tuple[Estimate, ...], clear_nm: float) -> tuple[Route | None, float, str]:
    """The first route (in the plan's order) whose track, on to ``end`` if given, keeps ``clear_nm`` from every
    danger: (route, its clearance, why). None when every route is barred (he waits), with the best's
    clearance."""
    best: tuple[Route | None, float] = (None, -1.0)
    for r in routes:
        via = tuple((p.lat, p.lon) for p in r.via) + ((end,) if end is not None else ())
        c = clearance_nm(start, via, dangers)
        if c >= clear_nm:
            why = "no superior force believed near it" if c == float("inf") else \
                f"clear of every superior force he believes near by {c:.0f} nm"
            return r, c, why
        if c > best[1]:
            best = (r, c)
    return None, best[1], f"every route passes within {clear_nm:g} nm of a superior force he believes there"
