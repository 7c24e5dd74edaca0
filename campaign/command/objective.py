"""A commander who decides his own moves (standing ``mission: plan``): from his instructions (his plan,
``data/doctrine/<name>.yaml``, and what messages have told him: ``Standing.objective``,
``Standing.may_enter``) and his picture, he chooses among the moves of 1914 — shell a town at the
outbreak of war, make for his objective by a route clear of the superior forces he believes near, coal
where and when he can (a port, a collier), wait for a collier or for leave to enter, run in — and, with a
superior force in sight, holds on at full speed if he can outrun it or evades it if he cannot.

Pure functions of a ``CommandView`` and a ``Plan``: each decision is a ``doctrine.Steer`` whose reason
says why and what in his picture it rests on; the world records it (``orders``). The mode names the move
(``plan shell Philippeville``); he keeps to a move until its orders are done or what he knows changes it.
"""

from __future__ import annotations

import math
from dataclasses import replace
from datetime import datetime, timedelta

from campaign.command import doctrine
from campaign.command.picture import Estimate
from campaign.command.plan_file import Plan, Route, load_plan
from campaign.command.route_choice import choose, is_superior, length_nm, threats
from campaign.command.view import CommandView
from campaign.geo import earth
from campaign.model.orders import Bombard, Coal, CoalFromCollier, Order, Point, Sail, Wait
from campaign.model.ships import find_ship

# He is "at" a place within this, nm.
AT_NM = 5.0
# Put out of a neutral port, he lies within this of it until he decides again, nm (the territorial belt's
# 6 nm and a margin).
PUT_OUT_NM = 10.0
# A contact's listed speed must fall short of his own by this much for him to hold on and outrun it, kn.
OUTRUN_MARGIN_KN = 1.0


def _start(v: CommandView) -> datetime:
    text = v.start_utc
    return datetime.fromisoformat(text[:-1] + "+00:00" if text.endswith("Z") else text)


def _utc(v: CommandView, t_min: float) -> datetime:
    """The date and hour (UTC) of scenario minute ``t_min``: his calendar."""
    return _start(v) + timedelta(minutes=t_min)


def _minutes(v: CommandView, when: datetime) -> float:
    return (when - _start(v)).total_seconds() / 60.0


def _here(v: CommandView) -> tuple[float, float]:
    return v.force.lat, v.force.lon


def _at(v: CommandView, p: Point) -> bool:
    return v.force.place == p.place if p.place and v.force.place else \
        earth.distance_nm(*_here(v), p.lat, p.lon) <= AT_NM


def coal_t(v: CommandView) -> float:
    """The coal of his emptiest ship, t (he plans on her)."""
    return min(v.force.coal_fraction * find_ship(n).coal_capacity_t for n in v.force.ships)


def burn_t(v: CommandView, distance_nm: float, speed_kn: float) -> float:
    """What his hungriest ship burns over ``distance_nm`` at ``speed_kn`` (the navy list's curve of her own
    boilers), t."""
    hours = distance_nm / speed_kn
    return max(find_ship(n).consumption.t_per_h(speed_kn) * hours for n in v.force.ships)


def capacity_t(v: CommandView) -> float:
    return min(find_ship(n).coal_capacity_t for n in v.force.ships)


def _picture_words(dangers: tuple[Estimate, ...]) -> str:
    """What in his picture a decision rests on, in words."""
    if not dangers:
        return "picture: no superior force reported"
    parts = [f"{e.about} reckoned at {e.lat:.1f},{e.lon:.1f} ({e.age_h:.1f} h old)" for e in dangers]
    return "picture: " + "; ".join(parts)


def _route_orders(v: CommandView, plan: Plan, to: str, end: Point, speed: float | str,
                  dangers: tuple[Estimate, ...]) -> tuple[tuple[Order, ...] | None, str]:
    """Orders to reach ``end`` by the first route to ``to`` clear of ``dangers``; None when all are barred."""
    routes = tuple(r for r in plan.routes if r.to == to)
    if not routes:
        return (Sail(end, speed),), "the direct way"
    routes = tuple(Route(r.name, r.to, _onward_via(v, r)) for r in routes)
    route, _, why = choose(_here(v), routes, (end.lat, end.lon), dangers, plan.clear_nm)
    if route is None:
        return None, why
    return (Sail(end, speed, via=route.via),), f"by {route.name}: {why}"


def _onward_via(v: CommandView, route: Route) -> tuple[Point, ...]:
    """The route's waypoints less those behind him: on a way east, those west of where he is."""
    if route.to != "east":
        return route.via
    return tuple(p for p in route.via if p.lon > v.force.lon + 0.5)


def _shelling(v: CommandView, plan: Plan):
    return next((s for s in plan.shell if s.force == v.force.name), None)


def decide(v: CommandView, trigger: str = "review", plan: Plan | None = None) -> list[doctrine.Decision]:
    """His decision now (an empty list: keep to what he is doing). New instructions (``trigger`` "orders")
    end a wait at once."""
    plan = plan or load_plan(v.standing.plan)
    if _put_out(v, plan):
        v = replace(v, force=replace(v.force, orders_done=True))  # his stay there is over: the move is done
    superior_seen = any(e.report.ships and is_superior(v.force.ships, e.report.ships) for e in v.in_sight())
    if trigger == "orders" and v.mode.startswith("plan wait"):
        v = _replace_mode(v, "plan")
    elif trigger == "orders" and v.mode.startswith("plan coal collier"):
        pass  # new instructions while coaling from the collier: he looks whether he has enough
    elif v.mode.startswith("plan") and not v.force.orders_done and not superior_seen:
        return []  # he keeps to the move he is making until it is done or a superior force comes in sight
    mode, orders, reason = choose_move(v, plan)
    if orders is None:
        return []
    if v.mode == mode and not v.force.orders_done:
        return []  # already at it (coaling on: not yet enough)
    return [doctrine.Steer(orders, mode, reason)]


def _replace_mode(v: CommandView, mode: str) -> CommandView:
    return replace(v, mode=mode)


def _put_out(v: CommandView, plan: Plan) -> bool:
    """Has the neutral's time limit put him out of a port where he meant to stay his time (lying off it,
    no longer in port)?"""
    return not v.force.in_port and v.force.speed_kn == 0.0 and any(
        p.stay_out_time and v.mode == f"plan coal {p.point.name}" and
        earth.distance_nm(*_here(v), p.point.lat, p.point.lon) <= PUT_OUT_NM for p in plan.ports)


def choose_move(v: CommandView, plan: Plan) -> tuple[str, tuple[Order, ...] | None, str]:
    """(mode, orders, reason) of the move he makes now."""
    now = _utc(v, v.t_min)
    dangers = threats(v.force.ships, v.estimates, plan.threat_fresh_h)
    seen = [e for e in v.in_sight() if e.report.ships and is_superior(v.force.ships, e.report.ships)]
    if seen:
        move = _superior_in_sight(v, plan, seen)
        if move is not None:
            return move
    objective = plan.objective(v.standing.objective)
    speed: float | str = "sustained" if seen else plan.passage_kn
    fast = " fast" if seen else ""
    # 1. The shelling at the outbreak of war, if it is still to come and costs little.
    shell = _shelling(v, plan)
    if shell is not None and now < shell.at + timedelta(hours=shell.hours) and v.mode != f"plan shelled {shell.town}":
        town = plan_point(shell.town)
        hours_off = earth.distance_nm(*_here(v), town.lat, town.lon) / plan.passage_kn
        if v.mode.startswith("plan shell") and v.force.orders_done:
            pass  # the shelling done: on to what comes next
        elif objective is None or hours_off <= plan.shell_if_within_h:
            return _shell_move(v, plan, shell, town, objective)
    # 2. No objective yet: coal where he can and wait for orders.
    if objective is None:
        return _coal_move(v, plan, speed, dangers, "awaiting orders") or ("plan wait", (Wait(v.t_min + plan.wait_h * 60),),
                                                                          "no orders and nowhere to coal: waiting")
    # 3. Off the Straits: in with leave, else wait for it.
    if _at(v, objective.approach) or v.mode == "plan enter":
        if objective.leave in v.standing.may_enter:
            if v.mode == "plan enter" and v.force.orders_done and not _at(v, objective.enter):
                return ("plan pilot", (Wait(v.t_min + plan.pilot_wait_h * 60),),
                        f"off the {objective.leave}: the way not yet open, waiting for the pilot")
            if _at(v, objective.enter):
                return "plan arrived", None, "arrived"
            return ("plan enter", (Sail(objective.enter, 10.0),),
                    (f"leave to enter the {objective.leave}: asking for a pilot, lying off the entrance until "
                     f"the way is open, then running in"))
        return ("plan wait leave", (Wait(v.t_min + plan.pilot_wait_h * 60),),
                f"off the {objective.leave} without leave to enter: waiting for it")
    if v.mode == "plan pilot" and v.force.orders_done:
        return ("plan enter", (Sail(objective.enter, 10.0),), f"asking again for the way into the {objective.leave}")
    # 4. Coal enough to reach the objective with his reserve? Else coal first: a port on the way, a collier.
    dist = length_nm(_here(v), _east_via(plan, v) + ((objective.approach.lat, objective.approach.lon),))
    need = burn_t(v, dist, plan.passage_kn)
    have, cap = coal_t(v), capacity_t(v)
    words = f"coal {have:.0f} t, {dist:.0f} nm to the {objective.approach.name} needs {need:.0f} t"
    # At the collier (coaling, or done), he has coaled from her: new instructions there end the coaling
    # once he has enough.
    coaled_collier = v.mode.startswith("plan coal collier") and (
        v.force.orders_done or any(_at(v, c.point) for c in plan.colliers))
    if have - need < plan.reserve_fraction * cap and not coaled_collier:
        port_move = _coal_move(v, plan, speed, dangers, f"for {objective.name}: {words}", ahead=objective)
        if port_move is not None:
            return port_move
        collier = next(iter(plan.colliers), None)
        if collier is not None:
            return _collier_move(v, plan, collier, objective, dangers, words, speed, fast)
    if have - need < plan.least_reserve_fraction * cap:
        return ("plan wait coal", (Wait(v.t_min + plan.wait_h * 60),),
                f"{words}: too little to go on, and no coal to be had")
    # 5. Without leave to enter, he waits at the collier's anchorage for it; else he makes for the objective.
    may_enter = objective.leave in v.standing.may_enter
    if not may_enter and (coaled_collier or v.mode.startswith("plan wait leave")) \
            and not seen and any(_at(v, c.point) for c in plan.colliers):
        return ("plan wait leave", (Wait(math.inf),),
                f"coaled; no leave yet to enter the {objective.leave}: waiting for it at anchor")
    orders, why = _route_orders(v, plan, "east", objective.approach, speed, dangers)
    if orders is None:
        return ("plan wait route", (Wait(v.t_min + plan.wait_h * 60),),
                f"for {objective.name}: {why}; {_picture_words(dangers)}")
    speed_kn = objective.speed_kn if may_enter else plan.passage_kn
    orders = tuple(Sail(o.to, "sustained" if seen else speed_kn, via=o.via) for o in orders)
    return (f"plan objective{fast}", orders,
            f"for {objective.name}: {words}; {why}; {_picture_words(dangers)}")


def plan_point(name: str) -> Point:
    from campaign.command.plan_file import point

    return point(name)


def _east_via(plan: Plan, v: CommandView) -> tuple[tuple[float, float], ...]:
    """The waypoints of his first way east (for the coal he needs), from where he is."""
    r = next((r for r in plan.routes if r.to == "east"), None)
    if r is None:
        return ()
    pts = [(p.lat, p.lon) for p in r.via]
    # Those already behind him (he is east of them) are dropped.
    return tuple(p for p in pts if p[1] >= v.force.lon - 0.5)


def _shell_move(v, plan, shell, town, objective):
    """Shell the town at its hour; on his first look, coal first at a port of his plan where coal is to be had
    before the war, sailing when that coaling is done."""
    orders: list[Order] = []
    why = f"to shell {shell.town} at first light on the outbreak of war ({shell.at:%d %b %H:%M} UTC)"
    sail_at = None
    if not v.mode.startswith("plan shell"):
        for p in plan.ports:
            t = dict(p.before_war_t).get(v.force.name)
            if t and p.before_war_until is not None and _utc(v, v.t_min) < p.before_war_until:
                until = _minutes(v, p.before_war_until)
                orders += [Sail(p.point, 16.0), Coal(max_t=t, until_min=until)]
                sail_at = until + 30.0
                why += f"; coaling first at {p.point.name} ({t:.0f} t to be had)"
                break
    routes = tuple(r for r in plan.routes if r.to == "Messina")
    via = routes[0].via if routes else ()
    orders += [Sail(town, 16.0, via=via, at_min=sail_at), Bombard(shell.town, hours=shell.hours, at_min=_minutes(v, shell.at))]
    if objective is not None:
        off_h = earth.distance_nm(*_here(v), town.lat, town.lon) / plan.passage_kn
        why += f"; ordered to {objective.name}, the town only {off_h:.1f} h off: shelling it first"
    return f"plan shell {shell.town}", tuple(orders), why


def _coal_move(v, plan, speed, dangers, why, ahead=None):
    """Coal at the nearest port of his plan he can reach by a clear route and use now (in port: coal there
    until full or until the neutral's time limit puts him out); None if none."""
    now = _utc(v, v.t_min)
    for p in sorted(plan.ports, key=lambda p: earth.distance_nm(*_here(v), p.point.lat, p.point.lon)):
        if _at(v, p.point) and v.force.in_port:
            if v.mode.startswith("plan coal") and v.force.orders_done:
                return None  # coaled here already (full, or put out by the time limit)
            wait = (Wait(_minutes(v, p.ready)),) if now < p.ready else ()
            stay = (Wait(math.inf),) if p.stay_out_time else ()
            return (f"plan coal {p.point.name}", wait + (Coal(max_t=dict(p.max_t).get(v.force.name)),) + stay,
                    f"{why}: coaling at {p.point.name} until full or the neutral's time limit"
                    + (f" (the steamers' coal from {p.ready:%d %b %H:%M} UTC)" if wait else "")
                    + ("; then resting the crew there until the time limit puts him out" if stay else ""))
        if v.mode.startswith("plan coal") and v.force.orders_done:
            return None
        if ahead is not None and earth.distance_nm(p.point.lat, p.point.lon, ahead.approach.lat, ahead.approach.lon) \
                > earth.distance_nm(*_here(v), ahead.approach.lat, ahead.approach.lon):
            continue  # not on his way: he does not turn back for coal
        orders, route_why = _route_orders(v, plan, p.point.place or p.point.name, p.point, speed, dangers)
        if orders is None:
            continue
        return (f"plan coal {p.point.name}" + (" fast" if speed == "sustained" else ""),
                orders + ((Wait(_minutes(v, p.ready)),) if now < p.ready else ())
                + (Coal(max_t=dict(p.max_t).get(v.force.name)),) + ((Wait(math.inf),) if p.stay_out_time else ()),
                f"{why}: to coal at {p.point.name} {route_why}; {_picture_words(dangers)}")
    return None


def _collier_move(v, plan, collier, objective, dangers, words, speed, fast):
    """Meet the collier at her rendezvous: by a clear route to the waiting point (at sea, away from the
    enemy), on to the rendezvous timed to arrive as she does, and coal from her."""
    wait_at = collier.wait_at or collier.point
    orders, why = _route_orders(v, plan, "east", wait_at, speed, dangers)
    if orders is None:
        return ("plan wait route", (Wait(v.t_min + plan.wait_h * 60),),
                f"to meet {collier.collier}: {why}; {_picture_words(dangers)}")
    run_h = earth.distance_nm(wait_at.lat, wait_at.lon, collier.point.lat, collier.point.lon) / plan.passage_kn
    leave = _minutes(v, collier.at) - run_h * 60.0
    out = orders + (Sail(collier.point, plan.passage_kn, at_min=leave if leave > v.t_min else None),
                    CoalFromCollier(collier.collier))
    return (f"plan coal collier{fast}", out,
            (f"{words}: short of his reserve ({plan.reserve_fraction:.0%} of his bunkers at the "
             f"{objective.approach.name}); to meet {collier.collier} at {collier.point.name} "
             f"({collier.at:%d %b %H:%M} UTC), waiting at sea {wait_at.name}, {why}; {_picture_words(dangers)}"))


def _superior_in_sight(v: CommandView, plan: Plan, seen: list[Estimate]):
    """A superior force in sight: if every ship of it is slower than his force by the navy lists, he holds on
    (at full speed: the caller marks the move fast); else he evades it."""
    theirs = [find_ship(n).sustained_speed_kn for e in seen for n in e.report.ships]
    if theirs and v.force.sustained_kn >= max(theirs) + OUTRUN_MARGIN_KN:
        return None
    near = min(seen, key=lambda e: earth.distance_nm(*_here(v), e.lat, e.lon))
    steer = doctrine.evade(v, near)
    return (steer.mode, steer.orders,
            f"{steer.reason}: a superior force he cannot outrun ({', '.join(near.report.ships)})")
