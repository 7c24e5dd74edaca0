"""Doctrine: how a commander turns his picture into orders, by his standing instructions.

Pure functions of a ``CommandView``: they see what the commander knows and nothing else, and return
decisions — new orders for his force, a return to the orders he was given, a report to send. The world
carries them out (``campaign.world.command``).

Behaviours: shadow (hold contact at a safe range on the enemy's quarter and report), regain (a
shadower's search for a lost contact, steering anew at each look for where it should be by now), chase
(steer to cut the enemy off at the best speed), evade (steer away at the best speed, over open water,
running on from where the enemy should be by now while his last sight of it is fresh),
intercept (go to where a reported contact should be by now, while the report is at sea and no older
than ``resume_after_h``), keep away from a superior force (``avoid_superior``), patrol (round a set of
points), guard (lie at a point), escort (keep with a friendly force), coal when low (run to the nearest
friendly port), return to base; and, his orders done, ask for more and patrol his station or return to
his base and coal (``orders_done``).
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass

from campaign.command.picture import Estimate, Report
from campaign.command.shadowing import default_shadow_rules
from campaign.command.view import CommandView, Standing
from campaign.geo import earth
from campaign.model.orders import Coal, Order, Point, Sail, Wait
from campaign.model.ships import find_ship
from campaign.tactics.board_rules import load_rules as load_board_rules

# How far ahead a shadower aims for his station on the enemy's quarter, hours: far enough that he
# steers for where the enemy will be, near enough that a turn is soon noticed.
SHADOW_LEAD_H = 0.5
# The quarter he takes, degrees off the enemy's stern, and the most of his range of sight he keeps
# (data/shadowing.yaml, with the distances of the record by light).
SHADOW_QUARTER_DEG = default_shadow_rules().quarter_deg
SHADOW_FRACTION = default_shadow_rules().fraction_of_sight
# An evading force runs this far from the enemy before it reconsiders, nm.
EVADE_RUN_NM = 60.0
# Where land lies across the run straight away, it turns this many degrees at a time, either way, to
# find open water, but never more than a right angle: beyond that it would run back towards the enemy.
EVADE_TURN_STEP_DEG = 10.0
EVADE_TURN_MAX_DEG = 90.0
# The standing instructions on contact under which a commander pursues it (holds, chases or engages it).
PURSUING = ("shadow", "chase", "engage")
# A guarding force lies within this distance of its post, nm.
GUARD_SLACK_NM = 2.0
# What a commander does of his own accord once his orders are done: patrol his station, or return to his
# base (``orders_done``). In these he keeps on, as under his orders, until someone gives him others.
IDLE_MODES = ("station", "return")
# How many rounds of his station's points one order to patrol it gives (he patrols on when they are done).
STATION_ROUNDS = 10


@dataclass(frozen=True)
class Steer:
    """Replace the force's orders with ``orders``; ``mode`` names what it is now doing. ``instead``: other
    orders, in order of preference, for when the way to the first leg's point is not open water (his
    charts show land across it, or the point in waters closed to him): the world takes the first that
    is (``campaign.world.command``)."""

    orders: tuple[Order, ...]
    mode: str
    reason: str
    instead: tuple[tuple[Order, ...], ...] = ()


@dataclass(frozen=True)
class Resume:
    """Go back to the orders the force was given (its script or its superior's last orders)."""

    reason: str


@dataclass(frozen=True)
class Send:
    """Send a message: a report to ``to``."""

    to: str
    content: dict
    text: str


@dataclass(frozen=True)
class Jam:
    """Jam (or stop jamming) the enemy's wireless with the force's own set."""

    active: bool


Decision = Steer | Resume | Send | Jam


def _here(v: CommandView) -> tuple[float, float]:
    return v.force.lat, v.force.lon


def _point(lat: float, lon: float, name: str) -> Point:
    return Point(float(lat), float(lon), name)


def intercept_point(own: tuple[float, float], speed_kn: float, est: Estimate) -> tuple[float, float, float]:
    """(lat, lon, hours) where a force at ``own`` steaming ``speed_kn`` meets a contact on its estimated
    course and speed: the first time t at which the contact's position is t x speed away (bisection on
    the geodesic distance); the contact's present estimate if it cannot be caught within a day."""
    r = est.report
    if est.lat is None or r.course_deg is None or not r.speed_kn:
        return est.lat, est.lon, 0.0  # type: ignore[return-value]

    def gap(t: float) -> float:
        lat, lon = earth.forward(est.lat, est.lon, r.course_deg, r.speed_kn * t)
        return earth.distance_nm(own[0], own[1], lat, lon) - speed_kn * t

    lo, hi = 0.0, 24.0
    if gap(hi) > 0:
        return est.lat, est.lon, 0.0
    for _ in range(50):
        mid = (lo + hi) / 2.0
        if gap(mid) > 0:
            lo = mid
        else:
            hi = mid
    lat, lon = earth.forward(est.lat, est.lon, r.course_deg, r.speed_kn * hi)
    return float(lat), float(lon), hi


def _hundredths_below(speed_kn: float) -> float:
    """``speed_kn`` rounded down to the hundredth of a knot (orders give speeds to the hundredth), never
    above it even where the product by 100 rounds up to a whole number."""
    knots = math.floor(speed_kn * 100.0) / 100.0
    return knots - 0.01 if knots > speed_kn else knots


def shadow_distance_nm(v: CommandView, est: Estimate) -> float:
    """How far he keeps from the contact, nm: the distance of the record for the worse of the light now
    and at his look after next, and for whether he takes it for a superior force (``superior``; one not yet
    made out he closes to make out), never beyond ``SHADOW_FRACTION`` of the range at which he sees it
    (``CommandView.sight_for``: the haze, a small quarry). data/shadowing.yaml."""
    lights = (v.light,) if v.light_then is None else (v.light, v.light_then)
    kept = default_shadow_rules().station(lights, superior(v, est.report))
    return min(kept, SHADOW_FRACTION * v.sight_for(est.about))


def station_speed_kn(here: tuple[float, float], lat: float, lon: float, sustained_kn: float) -> float:
    """The speed that brings a shadower from ``here`` to his station at (lat, lon) in ``SHADOW_LEAD_H``, as
    the enemy reaches her own point: not sooner (he would lie stopped and fall astern: rounded up, he would
    reach it a moment before his next look and lie stopped until it), not faster than he can hold."""
    need = earth.distance_nm(*here, lat, lon) / SHADOW_LEAD_H
    return _hundredths_below(min(need, sustained_kn))


def shadow(v: CommandView, est: Estimate) -> Steer:
    """Take station on the enemy's quarter at the shadowing distance (``shadow_distance_nm``), aiming for
    where he will be in half an hour, at the speed that gets there then (gaining on him if he is drawing
    away, up to the force's sustained speed)."""
    r = est.report
    course = r.course_deg if r.course_deg is not None else earth.bearing_deg(*_here(v), est.lat, est.lon)
    speed = r.speed_kn or 0.0
    ahead = earth.forward(est.lat, est.lon, course, speed * SHADOW_LEAD_H)
    d = shadow_distance_nm(v, est)
    # Of the two quarters, the nearer.
    options = [earth.forward(ahead[0], ahead[1], (course + 180.0 + s * SHADOW_QUARTER_DEG) % 360.0, d)
               for s in (-1, 1)]
    lat, lon = min(options, key=lambda p: earth.distance_nm(*_here(v), p[0], p[1]))
    knots = station_speed_kn(_here(v), lat, lon, v.force.sustained_kn)
    return Steer((Sail(_point(lat, lon, f"station on {r.about}"), knots),),
                 f"shadow {r.about}", f"holding {r.about} at {d:g} nm")


def chase(v: CommandView, est: Estimate) -> Steer:
    """Steer to cut the enemy off at the force's fast chase speed: seed 000's "actual maximum effort
    these ships were able to produce at this time" (Fast Chase Speed, "Chase"), which is each ship's
    sustained speed of August 1914 in data/ships.yaml, not her trial speed; the slowest ship sets it.
    The chase wears endurance as the rule says ("all ships expend coal at the fast speed rate"): the
    coal curve charges that speed's burn."""
    lat, lon, _ = intercept_point(_here(v), v.force.sustained_kn, est)
    return Steer((Sail(_point(lat, lon, f"cutting off {est.about}"), "sustained"),),
                 f"chase {est.about}", f"chasing {est.about} at full speed")


def evade(v: CommandView, est: Estimate) -> Steer:
    """Run from the contact at the force's sustained speed, ``EVADE_RUN_NM`` straight away from it; where
    the charts show land across that run, on the heading nearest it that is open water for the whole
    run (``Steer.instead``: turns of ``EVADE_TURN_STEP_DEG`` either way, the side nearer his present
    course first, up to ``EVADE_TURN_MAX_DEG``), rather than for a point inland, which the world moves
    to the nearest water and the route reaches round the coast, as like as not past the enemy."""
    here = _here(v)
    away = (earth.bearing_deg(est.lat, est.lon, *here)) % 360.0
    course = v.force.course_deg if v.force.course_deg is not None else away
    turns = [0.0]
    for k in range(1, int(EVADE_TURN_MAX_DEG // EVADE_TURN_STEP_DEG) + 1):
        pair = (k * EVADE_TURN_STEP_DEG, -k * EVADE_TURN_STEP_DEG)
        near = abs((away + pair[0] - course + 180.0) % 360.0 - 180.0) <= abs((away + pair[1] - course + 180.0) % 360.0 - 180.0)
        turns.extend(pair if near else pair[::-1])
    legs = []
    for turn in turns:
        lat, lon = earth.forward(*here, (away + turn) % 360.0, EVADE_RUN_NM)
        legs.append((Sail(_point(lat, lon, f"away from {est.about}"), "sustained"),))
    return Steer(legs[0], f"evade {est.about}", f"steering away from {est.about}", instead=tuple(legs[1:]))


def intercept(v: CommandView, est: Estimate) -> Steer:
    lat, lon, _ = intercept_point(_here(v), v.force.sustained_kn, est)
    return Steer((Sail(_point(lat, lon, f"interception of {est.about}"), "sustained"),),
                 f"intercept {est.about}", f"intercepting {est.about} where reported")


def regain(v: CommandView, est: Estimate) -> Steer:
    """A shadower who has lost his contact steers to meet it where it should be by now (``intercept``'s
    point, at his sustained speed), as a chaser does; but he looks again at each review and on getting
    there, and steers anew (mode ``regain``), for as long as his last sight of it is fresh
    (``Standing.resume_after_h``), instead of lying at the point while the enemy steams on. Where he
    would meet it before his next look, he follows its reckoned track to where it should be then."""
    here = _here(v)
    lat, lon, hours = intercept_point(here, v.force.sustained_kn, est)
    speed: float | str = "sustained"
    r = est.report
    look_h = v.standing.review_min / 60.0
    if hours < look_h and r.course_deg is not None and r.speed_kn:
        # He would meet it before his next look (he is about where it should be, and it is not there), or
        # cannot catch it within a day (intercept_point then gives its present place, hours 0): he steers
        # for where it should be at that look, at the speed that brings him there then (at most his
        # sustained), sweeping along its reckoned track, rather than lie stopped on a point until he looks
        # again.
        lat, lon = earth.forward(est.lat, est.lon, r.course_deg, r.speed_kn * look_h)
        speed = _hundredths_below(min(earth.distance_nm(*here, lat, lon) / look_h, v.force.sustained_kn))
    return Steer((Sail(_point(lat, lon, f"interception of {est.about}"), speed),),
                 f"regain {est.about}", f"regaining {est.about} where he should be by now")


def coal_run(v: CommandView) -> Steer | None:
    if not v.ports:
        return None
    port = min(v.ports, key=lambda p: earth.distance_nm(*_here(v), p.lat, p.lon))
    return Steer((Sail(Point(port.lat, port.lon, port.name, port.name), "economical"), Coal()),
                 f"coal at {port.name}", f"coal low ({v.force.coal_fraction:.0%}): to {port.name}")


def _estimate(v: CommandView, about: str) -> Estimate | None:
    """His estimate of where the contact ``about`` is (None when he has no place for it)."""
    return next((e for e in v.estimates if e.about == about and e.lat is not None), None)


def _fresh_at_sea(v: CommandView, about: str) -> Estimate | None:
    """His estimate of the contact ``about`` if it was last known at sea, not in port, and that is no older
    than he keeps a lost contact (``Standing.resume_after_h``): dead reckoning days old would send him
    across the sea after a ship long since turned or in port."""
    est = _estimate(v, about)
    if est is None or est.report.place is not None or est.age_h > v.standing.resume_after_h:
        return None
    return est


def mission(v: CommandView) -> Decision | None:
    """Orders for the force's mission when no enemy is in sight (None: keep the present orders)."""
    s = v.standing
    want = {"patrol": "patrol", "guard": "guard", "escort": f"escort {s.escort}", "return": "return",
            "intercept": f"intercept {s.intercept}"}.get(s.mission)
    if s.mission == "plan":
        return None  # his own moves: campaign/command/objective.py
    if s.mission == "script" or want is None:
        return Resume("no enemy in sight") if v.mode not in ("script", *IDLE_MODES) else None
    if s.mission == "patrol" and s.patrol:
        if v.mode == "patrol":
            return None
        orders = tuple(Sail(_point(lat, lon, f"patrol point {i + 1}"), "economical")
                       for i, (lat, lon) in enumerate(s.patrol))
        return Steer(orders * 10, "patrol", "patrolling")
    if s.mission == "guard" and s.guard:
        if earth.distance_nm(*_here(v), *s.guard) <= GUARD_SLACK_NM and v.mode == "guard":
            return None
        return Steer((Sail(_point(*s.guard, "guard post"), "economical"), Wait(math.inf)), "guard", "to the guard post")
    if s.mission == "return" and s.base:
        if v.mode == "return":
            return None
        return Steer((Sail(Point(s.base.lat, s.base.lon, s.base.name, s.base.name), "economical"),),
                     "return", f"returning to {s.base.name}")
    if s.mission == "intercept" and s.intercept:
        est = _fresh_at_sea(v, s.intercept)
        if est is not None:
            return intercept(v, est)
        # No report of it at sea fresher than he keeps after a lost contact: he keeps to his orders.
        return Resume(f"no fresh report of {s.intercept} at sea") if v.mode != "script" else None
    if s.mission == "escort" and s.escort:
        friend = next((f for f in v.company if f.name == s.escort), None)
        if friend is None:
            return None
        return Steer((Sail(_point(friend.lat, friend.lon, f"with {friend.name}"), min(v.force.sustained_kn, max(friend.speed_kn, 1.0))),),
                     f"escort {friend.name}", f"keeping with {friend.name}")
    return None


@functools.cache
def _listed_nation(ship_name: str) -> str | None:
    """The navy a ship of that name belongs to by the lists of the world's navies (data/ships.yaml, the
    Jane's and Brassey's of the day); None for a name not on them."""
    try:
        return find_ship(ship_name).nation
    except KeyError:
        return None


def contact_nations(r: Report) -> tuple[str, ...]:
    """The nations a commander takes a contact to be of: those of its recognised ships, as he knows them
    from the navy lists. Empty while it is not recognised (smoke, ships, an intercept): a report carries
    no nation or side of its own, only what was recognised."""
    out: list[str] = []
    for name in r.ships:
        nation = _listed_nation(name)
        if nation is not None and nation not in out:
            out.append(nation)
    return tuple(out)


@functools.cache
def ship_rank(ship_name: str) -> int | None:
    """A ship's rank by seed 000 ('Combat': BB, then BC and older B, CA, LC; data/tactics/board.yaml, with
    its stand-in ranks below them), 1 the highest, from her type in the navy lists; None for a name not
    on them."""
    try:
        ship_type = find_ship(ship_name).type
    except KeyError:
        return None
    rules = load_board_rules()
    return rules.ranks[rules.board_type[ship_type]]


def superior(v: CommandView, r: Report) -> bool:
    """Does the commander take a contact for a superior force: recognised, with a ship that outranks every
    ship of his own (seed 000's ranks: battlecruisers and battleships over armoured cruisers, those over
    light cruisers)? How an admiral of 1914 judged it: Troubridge held Goeben, one battlecruiser, a
    superior force to his four armoured cruisers."""
    theirs, ours = _ranks(r.ships), _ranks(v.force.ships)
    return bool(theirs) and bool(ours) and min(theirs) < min(ours)


def _ranks(ship_names: tuple[str, ...]) -> list[int]:
    """The ranks (``ship_rank``) of the ships of those names that are on the navy lists."""
    return [k for k in map(ship_rank, ship_names) if k is not None]


def _may_be(seen: Estimate, sought: Estimate) -> bool:
    """May the contact ``seen`` be the one ``sought``, lost: is it not recognised as other ships, and does
    it lie within his radius of doubt of where that one should be by now?"""
    if seen.report.ships and not set(seen.report.ships) & set(sought.report.ships):
        return False
    return (seen.lat is not None and sought.lat is not None
            and earth.distance_nm(seen.lat, seen.lon, sought.lat, sought.lon) <= sought.radius_nm)


def outranks(a: Report, b: Report) -> bool:
    """Does a commander take contact ``a`` for at least as important as ``b``: ``a`` recognised, with a
    ship ranked (seed 000's ranks, as ``superior``) as high as any of ``b``'s, or ``b`` not recognised?"""
    theirs = _ranks(a.ships)
    if not theirs:
        return False
    ours = _ranks(b.ships)
    return not ours or min(theirs) <= min(ours)


def believes_may_fire_on(s: Standing, r: Report) -> bool:
    """Does the commander believe he may open fire on this contact? For a recognised contact, by his
    belief about its nation (``Standing.believes_may_fire``; of a squadron of several nations, about any
    of them); for one not yet recognised, by his general leave (``may_fire``)."""
    nations = contact_nations(r)
    if not nations:
        return s.may_fire
    return any(s.believes_may_fire(n) for n in nations)


def report(v: CommandView, r: Report, why: str) -> Send | None:
    if not v.standing.report_to:
        return None
    where = (f"in {r.place}" if r.place else f"at {r.lat:.2f},{r.lon:.2f}") if r.lat is not None \
        else f"in sea {r.sea} area {r.area}"
    what = ", ".join(r.ships) if r.ships else (f"{r.n_ships} ships" if r.n_ships else
                                               "smoke" if r.level == "smoke" else r.about)
    course = f" course {r.course_deg:.0f} speed {r.speed_kn:.0f} kn" if r.course_deg is not None and r.speed_kn else ""
    return Send(v.standing.report_to, r.as_content(), f"{v.node}: {why} {what} {where}{course}")


def needs_company(s: Standing) -> bool:
    """Does a commander under standing instructions ``s`` look at the friendly forces in company with
    him (``CommandView.company``)? Only one told to escort a force does (``_mission``): the world, which
    must measure every friendly force to gather them, gathers them for him alone."""
    return s.mission == "escort" and bool(s.escort)


def decide(v: CommandView, trigger: str = "review") -> list[Decision]:
    """The commander's decisions now. ``trigger`` is what woke him: "sighting", "lost", "report",
    "orders", "review" (his own periodic look). A commander told to jam does so while the enemy is in
    sight (both sides jammed in August 1914: Lorey, Russian tr. p.6; Hough, The Great War at Sea)."""
    out = _decide(v, trigger)
    if v.standing.mission == "plan" and v.standing.plan:
        # He decides his own moves (campaign/command/objective.py); doctrine's reports stand.
        from campaign.command import objective

        out = [d for d in out if not isinstance(d, (Steer, Resume))] + objective.decide(v, trigger)
    if v.standing.jam:
        out.append(Jam(bool(v.in_sight())))
    return out


def _decide(v: CommandView, trigger: str) -> list[Decision]:
    out: list[Decision] = []
    s = v.standing
    seen = v.in_sight()
    kind = v.mode.split(" ")[0]  # what his doctrine has him doing: "script", "shadow", "evade", ...
    if v.force.coal_fraction < (s.coal_low or -1.0) and not v.force.in_port and not v.mode.startswith("coal"):
        run = coal_run(v)
        if run is not None:
            out.append(run)
            return out
    if seen:
        # Ships lying in port are reported, not pursued: a port is watched only by orders to watch it.
        at_sea = [e for e in seen if e.report.place is None]
        # He keeps to the contact he is already on while it is in sight; else he takes the nearest.
        _, _, current = v.mode.partition(" ")
        target = next((e for e in at_sea if e.about == current), None) or \
            min(at_sea or seen, key=lambda e: earth.distance_nm(*_here(v), e.lat, e.lon))
        recent = v.last_report_min is not None and v.t_min - v.last_report_min < v.cipher_min
        if (trigger == "sighting" and not recent) or (v.last_report_min is not None and
                                                       v.t_min - v.last_report_min >= s.report_every_h * 60.0):
            rep = report(v, target.report, "enemy in sight:")
            if rep is not None:
                out.append(rep)
        if kind in ("shadow", "regain") and target.about != current and s.on_contact in PURSUING:
            # The contact he is on is out of sight a short while: he goes on seeking it rather than turn
            # to another he has in sight, unless he takes that one for the more important, or it may be
            # the one he seeks (it lies where that one should be, within his doubt: smoke on the horizon
            # where he reckons his quarry). (Gloucester, losing Goeben at dusk on 6 August with Breslau's
            # smoke still in sight, used to turn to Breslau, lose her too and follow her reckoned track
            # up the Strait of Messina.)
            held = _fresh_at_sea(v, current)
            if held is not None and not any(outranks(e.report, held.report) or _may_be(e, held) for e in seen):
                out.append(regain(v, held))
                return out
        if not at_sea:
            if kind in ("shadow", "regain", "chase", "evade"):
                out.append(Resume(f"{target.about} lies in {target.report.place}"))
            return out
        if s.on_contact == "report" and (s.keep_away_from or s.avoid_superior):
            # Told only to report, he keeps away from the enemy who has brought him to action once, and,
            # told not to be brought to action by a superior force, from one he recognises as such (the
            # nearest such contact); any other he reports, going on with what he was doing.
            threats = [e for e in at_sea if e.about in s.keep_away_from
                       or s.avoid_superior and superior(v, e.report)]
            if threats:
                out.append(evade(v, min(threats, key=lambda e: earth.distance_nm(*_here(v), e.lat, e.lon))))
                return out
            if kind == "evade" and v.t_min - v.mode_since_min < s.resume_after_h * 60.0:
                return out  # the threat out of sight a short while: he keeps running for now
        if s.on_contact == "shadow" or (s.on_contact == "engage" and not believes_may_fire_on(s, target.report)):
            # A commander who may not yet open fire (seed 000, "British Ultimatum") holds contact
            # instead, ready to engage when his rules of engagement change; what he believes of the
            # contact's nation decides (he may be free to fire on one navy and not on another).
            out.append(shadow(v, target))
        elif s.on_contact in ("chase", "engage"):
            out.append(chase(v, target))
        elif s.on_contact == "evade":
            out.append(evade(v, target))
        elif kind in ("shadow", "regain", "chase", "evade"):
            out.append(Resume("ordered to report only"))  # his instructions changed while in contact
        return out
    if trigger == "lost" and not (v.last_report_min is not None and v.t_min - v.last_report_min < v.cipher_min):
        lost = max((e for e in v.estimates if e.report.level == "lost"), key=lambda e: e.report.seen_min,
                   default=None)
        if lost is not None:
            rep = report(v, lost.report, "lost sight of")
            if rep is not None:
                out.append(rep)
    pursuing = s.on_contact in PURSUING
    if kind in ("shadow", "regain") and pursuing:
        # A shadower who has lost his contact steers for where it should be by now, and again at each
        # look, until his last sight of it is older than he keeps a lost contact. (He used to steer once
        # and lie at the point: Gloucester lost Goeben at dusk on 6 August and waited three hours where
        # she had meant to meet her while Goeben steamed on.)
        est = _fresh_at_sea(v, v.mode.split(" ", 1)[1])
        if est is not None:
            out.append(regain(v, est))
            return out
    elif kind == "evade" and v.force.status == "waiting" and not v.force.in_port:
        # At the end of his run, the enemy out of sight: while his last sight of it is fresh he runs on
        # from where it should be by now, rather than lie stopped at sea where it may come on him; then
        # he goes back to his orders.
        est = _fresh_at_sea(v, v.mode.split(" ", 1)[1])
        if est is not None:
            out.append(evade(v, est))
            return out
    elif kind in ("chase", "evade", "intercept") and v.t_min - v.mode_since_min < s.resume_after_h * 60.0 \
            and (pursuing or kind != "chase"):
        if kind == "chase":
            # Contact lost a short while ago: make for where the enemy should be by now.
            est = _estimate(v, v.mode.split(" ", 1)[1])
            if est is not None:
                out.append(intercept(v, est))
        return out  # evading, or searching where he went: carry on for now
    m = mission(v)
    if m is not None:
        out.append(m)
    elif v.force.orders_done:
        out.extend(orders_done(v))
    return out


def orders_done(v: CommandView) -> list[Decision]:
    """His orders carried out (or impossible) and no enemy to pursue: what the navy did. At sea he reports
    where he is and his coal and asks his superior for orders (once, on finding them done), then patrols
    his station at economical speed, round its points (or lies at its one point), or, without one, returns
    to his base and coals; in port he coals and goes out to his station, or, without one, awaits orders
    there. Only a commander given a station or a base (``Standing.station``, ``Standing.base``) does: the
    rest lie where their orders left them, as before."""
    s = v.standing
    if not s.station and s.base is None:
        return []
    if v.force.in_port and not s.station:
        return []  # in port, with no station to go out to: he awaits orders there
    out: list[Decision] = []
    if v.mode == "script" and s.report_to and not v.force.in_port:
        f = v.force
        out.append(Send(s.report_to, {"request": "orders", "lat": round(f.lat, 2), "lon": round(f.lon, 2),
                                      "coal": round(f.coal_fraction, 2)},
                        f"{v.node}: orders carried out; at {f.lat:.2f},{f.lon:.2f}, coal {f.coal_fraction:.0%}; "
                        f"request orders"))
    if s.station:
        legs: tuple[Order, ...] = tuple(Sail(_point(lat, lon, f"station point {i + 1}"), "economical")
                                        for i, (lat, lon) in enumerate(s.station))
        legs = legs + (Wait(math.inf),) if len(legs) == 1 else legs * STATION_ROUNDS
        if v.force.in_port and v.force.coal_fraction < 1.0 and any(p.name == v.force.place for p in v.ports):
            legs = (Coal(),) + legs  # he coals before he goes out again
        out.append(Steer(legs, "station", "orders carried out: to his station"))
    else:
        b = s.base
        out.append(Steer((Sail(Point(b.lat, b.lon, b.name, b.name), "economical"), Coal()), "return",
                         f"orders carried out: returning to {b.name} to coal"))
    return out
