"""Commands in the running world: pictures kept from sightings and messages, doctrine carried out.

Every force is a command of its own (its senior officer); headquarters are commands ashore at a
telegraph station (an admiralty) or aboard a force (an admiral). Each holds a ``Picture`` built only
from what its own ships saw and what messages brought it. When something changes it — a sighting, a
contact lost, a report, new orders — or when a force busy shadowing or chasing takes its periodic look,
the world builds a ``CommandView`` (plain values: the commander's own force, his picture, his standing
instructions) and hands it to ``campaign.command.doctrine.decide``; decision code never receives the
world. The decisions are carried out here: new orders for the force, a return to its orders, reports
sent over the signal network, where they take the cable and wireless delays of 1914.
"""

from __future__ import annotations

import bisect
import functools
import math
from collections.abc import Callable, Generator, Mapping
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

import numpy as np
import shapely
import simpy

from campaign.command import doctrine
from campaign.command.picture import Picture, Report
from campaign.command.view import CommandView, OwnForce, Port, Standing, in_sight
from campaign.geo import earth
from campaign.model.orders import Point, Sail
from campaign.scenario.model import HeadquartersSpec, MessageSpec
from campaign.world.environment import HeldBack
from campaign.world.radio_range import Xyz, XyzMemo, beyond
from campaign.world.sighting import LEVELS
from campaign.world.signal_data import default_signal_data
from campaign.world.signals import Message, SignalNetwork

if TYPE_CHECKING:
    from campaign.geo.land import Land
    from campaign.world.units import ForceState, ShipState
    from campaign.world.world import World

# Friendly forces within this distance of a commander are "in company": he sees what they do, nm.
COMPANY_NM = 5.0
DOCTRINE_MODES = ("shadow", "regain", "chase", "evade", "intercept")
# New orders from doctrine a force takes in one instant; more would be a loop of zero time. "One
# instant" is any run of changes each within a minute of the last: no captain alters course and speed
# faster than his helm and engine-room telegraph answer.
MAX_STEERS_AT_ONCE = 3
STEER_SETTLE_MIN = 1.0
# A contact sighted again within this long of being lost, where it could have got to, is taken for
# the same contact (minutes): a lookout who loses smoke in a squall looks for it where it was going.
REFIND_WITHIN_MIN = 60.0
# A doctrine destination nearer than this is where the force already is: it holds its position, nm.
HOLD_NM = 0.5
# Losing a contact, he reports the course and speed she made good on his plot over the last PLOT_MIN
# (from his sightings at least PLOT_SPAN_MIN apart): a ship seen against a coast in failing light is
# plotted, not watched at her helm (a bend of her way round a cape is not her course). STAND-IN: an hour,
# and ten minutes.
PLOT_MIN = 60.0
PLOT_SPAN_MIN = 10.0
# A new course or speed of a contact in sight (her next leg), differing by at least this much from what
# he last made of her, is seen at once by those on it (deg, kn): her bearing opens, her bow wave and smoke
# change. Smaller ones, and the bends of her way round a coast, he sees at his next look. STAND-IN: a
# point of the compass, and a knot.
TURN_SEEN_DEG = 11.25
SPEED_SEEN_KN = 1.0


def _minute_below(ship: ShipState, t_min: float, fraction: float) -> float:
    """The first minute from ``t_min`` (where the ship's coal reaches ``fraction`` of her bunkers, as
    worked out) at which doctrine's own test, coal over bunkers *below* the fraction, holds: the worked
    time can land a hair short of it, and a look then would find the bunkers not yet low."""
    step = math.ulp(t_min)
    for _ in range(128):
        if ship.coal_at(t_min) / ship.ship.coal_capacity_t < fraction:
            break
        t_min += step
        step *= 2.0
    return t_min


def _key(m: MessageSpec) -> tuple[str, str]:
    """A historical message's key: its id and receiver (one copy per receiver). Messages sent together by
    one sender to one receiver are each their own (the Admiralty's three telegrams to Milne of 10:00 on
    9 Aug 1914)."""
    return m.id, m.receiver


def _plain(v: Any) -> Any:
    """A standing-instruction value as plain JSON (ports by name)."""
    if hasattr(v, "name") and hasattr(v, "lat"):
        return v.name
    if isinstance(v, tuple):
        return [_plain(x) for x in v]
    return v


@dataclass
class Node:
    """A command: its place in the chain, its picture, and what its doctrine has it doing."""

    name: str
    side: str
    nation: str
    force: str | None = None  # the force it is (captain) or rides in (admiral aboard)
    hq: HeadquartersSpec | None = None
    standing: Standing = field(default_factory=Standing)
    picture: Picture = field(init=False)
    mode: str = "script"
    mode_since_min: float = 0.0
    last_report_min: float | None = None
    last_steer_min: float | None = None  # when doctrine last gave the force new orders
    steers_now: int = 0  # how many times at that instant
    # The last orders doctrine gave the force: (t_min, the force's order epoch after them, the steer).
    last_steer: tuple[float, int, Any] | None = None
    review_token: int = 0
    coal_token: int = 0
    labels: dict[str, str] = field(default_factory=dict)  # target force -> name of the contact
    # His plot of each contact in sight: target force -> [(t_min, lat, lon)] of his own sightings of it,
    # the last PLOT_MIN (see _made_good).
    plot: dict[str, list[tuple[float, float, float]]] = field(default_factory=dict)
    counter: int = 0

    def __post_init__(self) -> None:
        self.picture = Picture(self.name)


class CommandRuntime:
    """The commands of one world, and the signal network between them."""

    def __init__(self, world: World) -> None:
        from campaign.world.light import night_and_hold

        self.world = world
        sc = world.scenario
        sides = {n: side for side, nations in sc.sides.items() for n in nations}

        self.net = SignalNetwork(world.env, world.rec.emit, world.clock, world.rng["signals"],
                                 night_hold=night_and_hold,
                                 sides=sides, neutral_sides=sc.neutral_sides,
                                 data=default_signal_data().with_telegraph_delay(sc.factors.telegraph_delay))
        self.nodes: dict[str, Node] = {}
        self._ports_memo: dict[tuple, tuple[Port, ...]] = {}
        # Earth-centred points of the places forces are asked about (for the company's chord test).
        self._xyz = XyzMemo()
        # Forces whose bunkers are to be watched again once the world settles (see coal_watch).
        self._coal_due: HeldBack[ForceState] = HeldBack(world.env, lambda _, force: self._watch_coal(force))
        # Forces whose motion changed, for their enemies' eyes once the world settles (see seen_moving).
        self._turns_due: HeldBack[ForceState] = HeldBack(world.env, lambda _, force: self._notice_turn(force))
        for hq in sc.headquarters:
            node = Node(hq.name, hq.side, hq.nation, force=hq.aboard, hq=hq)
            self.nodes[hq.name] = node
            position = None if hq.aboard is None else self._position_of(hq.aboard)
            self.net.register(hq.name, hq.side, hq.nation, position, station=hq.station,
                              wireless=None if hq.aboard is None else self._set_of(hq.aboard, sc),
                              on_receive=self._receiver(hq.name), on_intercept=self._interceptor(hq.name),
                              plan=None if hq.aboard is None else self._plan_of(hq.aboard))
        world.contacts.listen(self.on_sighting)
        for m in sc.messages:
            world.env.process(self._historical(m))

    # -- nodes ----------------------------------------------------------------------------------

    def _position_of(self, force_name: str) -> Callable[[float], tuple[float, float]]:
        def where(t_min: float) -> tuple[float, float]:
            lat, lon, _ = self.world.forces[force_name].position_at(t_min)
            return lat, lon

        return where

    def _plan_of(self, force_name: str) -> Callable[[], tuple[Any, float]]:
        """The force's plan as the signals see it: a stamp equal for as long as its position at any
        time to come stays the same (the leg it steams, or where it lies), and its speed on it (knots)."""
        def plan() -> tuple[Any, float]:
            force = self.world.forces[force_name]
            leg = force.leg
            if leg is None:
                return (None, force.lat, force.lon), 0.0
            return (leg.route, leg.t0_min, leg.speed_kn, leg.offset_nm), leg.speed_kn

        return plan

    def _set_of(self, force_name: str, sc=None) -> str | None:
        """The best wireless set among a force's ships (by the fit rules of data/wireless.yaml)."""
        world = self.world
        force = world.forces.get(force_name)
        ships = [s.ship for s in force.ships] if force is not None else [
            sh for f in (sc or world.scenario).forces if f.name == force_name for sh in f.ships]
        sets = [self.net.data.set_for(sh.nation, sh.type) for sh in ships]
        sets = [s for s in sets if s is not None]
        if not sets:
            return None
        return max(sets, key=lambda k: self.net.data.sets[k].day_nm)

    def add_force(self, force: ForceState, parent: ForceState | None = None) -> None:
        """A force has come into being (at the start, or detached from ``parent``): it is a command too. A
        detached force keeps the standing instructions its parent's commander holds now (his base and
        station, and what messages have told him since), unless the scenario gives it its own."""
        if force.name in self.nodes:
            return
        held = self.nodes.get(parent.name) if parent is not None else None
        standing = self.world.scenario.standing.get(force.name) or (
            held.standing if held is not None else self._inherited(force))
        node = Node(force.name, force.side, force.nation, force=force.name, standing=standing)
        self.nodes[force.name] = node
        self.net.register(force.name, force.side, force.nation, self._position_of(force.name),
                          wireless=self._set_of(force.name), on_receive=self._receiver(force.name),
                          on_intercept=self._interceptor(force.name), plan=self._plan_of(force.name))
        if standing.mission != "script":
            self.world.env.process(self._start_mission(node))

    def _start_mission(self, node: Node) -> Generator[simpy.Event, Any, None]:
        yield self.world.env.timeout(0)  # once every force is in place
        self.decide(node, "start")

    def _inherited(self, force: ForceState) -> Standing:
        """A detached force keeps the standing instructions of the force it came from."""
        for name, st in self.world.scenario.standing.items():
            parent = self.world.forces.get(name)
            if parent is not None and any(s.force is force for s in parent.ships):
                return st
        return Standing()

    def in_port(self, force: ForceState, place: str | None) -> None:
        """A force in port can hand messages to the telegraph there."""
        station = None
        if place is not None:
            try:
                station = self.net.data.station(place).name
            except KeyError:
                station = None
        for node in (n for n in self.nodes.values() if n.force == force.name):
            self.net.set_station(node.name, station)

    # -- what the commands learn ----------------------------------------------------------------

    def learn(self, node: Node, report: Report) -> bool:
        """A command takes a report into its picture; what it now believes is recorded as ``picture``
        (the replay shows each side's picture beside the truth)."""
        now = self.world.env.now
        if not node.picture.learn(report, now):
            return False
        data = {"node": node.name, "about": report.about, "seen": self.world.clock.iso(report.seen_min),
                "level": report.level, "source": report.source}
        if report.course_deg is not None:
            data["course_deg"] = round(report.course_deg, 1)
        if report.speed_kn is not None:
            data["speed_kn"] = round(report.speed_kn, 2)
        if report.sea:
            data.update(sea=report.sea, area=report.area)
        if report.ships:
            data["ships"] = list(report.ships)
        if report.replaces:
            data["replaces"] = report.replaces  # the earlier label of a contact now recognised
        if report.place:
            data["place"] = report.place
        self.world.rec.emit(now, "picture", None, node.side, report.lat, report.lon, **data)
        return True

    def on_sighting(self, observer: str, target: str, old: int, new: int, info: Mapping[str, Any]) -> None:
        """A force's lookouts saw something (or lost it): its commands learn it at once."""
        world = self.world
        node = self.nodes.get(observer)
        if node is None:
            return
        now = world.env.now
        tgt = world.forces[target]
        lat, lon, course = tgt.position_at(now)
        speed = tgt.leg.speed_kn if tgt.leg is not None else 0.0
        ships = tuple(s.name for s in (tgt.active_ships() or tgt.ships))
        replaces = None
        if new == 3:
            about = " & ".join(ships)
            old_label = node.labels.get(target)
            replaces = old_label if old_label and old_label != about else None
            node.labels[target] = about
            if replaces is not None and replaces in node.standing.keep_away_from:
                # A contact he keeps away from, recognised: he keeps away from it under its new name.
                node.standing = replace(node.standing, keep_away_from=tuple(sorted(
                    {*node.standing.keep_away_from, about})))
        else:
            about = node.labels.get(target)
            if about is None:
                about = self._refound(node, now, float(lat), float(lon))
            if about is None:
                node.counter += 1
                about = f"contact {observer}-{node.counter}"
            node.labels[target] = about
        level = "lost" if new == 0 else LEVELS[new]
        # He names the ships he sees once he recognises them, and goes on naming those he has lost sight
        # of after recognising them (what he seeks, and how much it matters, is still known to him).
        named = new == 3 or (new == 0 and old == 3)
        course_deg = float(course) if tgt.leg is not None else None
        self._plot(node, target, now, float(lat), float(lon))
        if new == 0:
            course_deg, speed = self._made_good(node, target, course_deg, float(speed))
        report = Report(about, now, float(lat), float(lon), course_deg,
                        float(speed), level, ships if named else (), len(ships) if new >= 2 or named else None,
                        source=f"seen by {observer}", replaces=replaces,
                        place=tgt.place if tgt.in_port else None)
        if new == 0:
            node.labels.pop(target, None)
            node.plot.pop(target, None)
        trigger = "sighting" if old == 0 else ("lost" if new == 0 else "report")
        for n in [node] + [h for h in self.nodes.values() if h.hq is not None and h.force == observer]:
            self.learn(n, report)
            self.decide(n, trigger)

    @staticmethod
    def _plot(node: Node, target: str, t_min: float, lat: float, lon: float) -> None:
        """Put a sighting of ``target`` on his plot, and drop what is older than ``PLOT_MIN``."""
        points = node.plot.setdefault(target, [])
        points.append((t_min, lat, lon))
        while points[0][0] < t_min - PLOT_MIN:
            points.pop(0)

    @staticmethod
    def _made_good(node: Node, target: str, course_deg: float | None, speed_kn: float) -> tuple[float | None, float]:
        """The course and speed ``target`` made good on his plot, from his earliest sighting of it in the last
        ``PLOT_MIN`` to his last, if they are ``PLOT_SPAN_MIN`` apart or more and she moved; else the course
        and speed given (what he saw of her at his last sighting)."""
        points = node.plot.get(target, [])
        if len(points) < 2 or points[-1][0] - points[0][0] < PLOT_SPAN_MIN:
            return course_deg, speed_kn
        (t0, lat0, lon0), (t1, lat1, lon1) = points[0], points[-1]
        run_nm = earth.distance_nm(lat0, lon0, lat1, lon1)
        if course_deg is None or run_nm <= 0.0:
            return course_deg, speed_kn
        return float(earth.bearing_deg(lat0, lon0, lat1, lon1)), run_nm / ((t1 - t0) / 60.0)

    @staticmethod
    def _refound(node: Node, now: float, lat: float, lon: float) -> str | None:
        """The contact this new sighting, not yet recognised, probably is: one lost within the hour (named
        or not) whose dead-reckoned position, with its radius of doubt, covers where this one is seen (the
        observer's inference from his own picture; the truth is not consulted)."""
        best, best_d = None, math.inf
        for r in node.picture.reports():
            if r.level != "lost" or now - r.seen_min > REFIND_WITHIN_MIN:
                continue
            est = node.picture.estimate(r.about, now)
            if est is None or est.lat is None:
                continue
            d = earth.distance_nm(est.lat, est.lon, lat, lon)
            if d <= est.radius_nm and d < best_d:
                best, best_d = r.about, d
        return best

    def _receiver(self, name: str) -> Callable[[Message, float], None]:
        def receive(msg: Message, t_min: float) -> None:
            self.on_message(self.nodes[name], msg)

        return receive

    def _interceptor(self, name: str) -> Callable[[dict, float], None]:
        def intercept(info: dict, t_min: float) -> None:
            node = self.nodes[name]
            sea, area = info.get("sea"), info.get("area")
            # Outside the charted sea areas (the Dardanelles, the Marmara) he hears only that someone sent.
            label = f"wireless in sea {sea} area {area}" if sea else "wireless, area unknown"
            self.learn(node, Report(label, t_min, None, None, level="intercept", sea=info.get("sea"),
                                    area=info.get("area"), source="intercepted wireless"))

        return intercept

    def on_message(self, node: Node, msg: Message) -> None:
        content = msg.content
        if "report" in content:
            report = Report.from_content(dict(content), f"message {msg.id} from {msg.sender}")
            if self.learn(node, report):
                for to in (node.hq.relay_to if node.hq is not None else ()):
                    if to != msg.sender and to in self.nodes:  # (a force not yet in the theatre hears none)
                        self.net.send(node.name, to, "report", dict(content), f"{node.name} passes on: {msg.text}")
                if node.hq is None:
                    self.decide(node, "report")
        for target in content.get("orders_for", ()):
            if target == node.name or node.force == target:
                self._obey(target, msg)
            elif target in self.nodes:
                # A headquarters passes the orders on to each force they are for.
                self.net.send(node.name, target, "order", dict(content, orders_for=[target]),
                              f"{node.name} passes on: {msg.text}")

    def _obey(self, force_name: str, msg: Message) -> None:
        """Orders and new standing instructions reach the force they are for: they take effect now."""
        world = self.world
        force = world.forces.get(force_name)
        if force is None or not force.active_ships():
            return
        spec = self._messages[msg.content["orders_key"]]
        node = self.nodes[force_name]
        if spec.standing:
            changes = dict(spec.standing)
            if "fire_on" in changes:  # the nations it names change; the others are kept
                changes["fire_on"] = node.standing.with_fire_on(changes["fire_on"])
            node.standing = replace(node.standing, **changes)
            world.rec.emit(world.env.now, "standing", force_name, force.side, None, None,
                           changes={k: dict(v) if k == "fire_on" else _plain(v) for k, v in spec.standing},
                           by=msg.sender, message=msg.id)
        orders = spec.orders.get(force_name, ())
        if orders:
            node.mode, node.mode_since_min = "script", world.env.now
            force.script = ()
            world.give_orders(force, orders, why=msg.text, by=msg.sender)
        else:
            self.decide(node, "orders")

    @functools.cached_property
    def _messages(self) -> dict[tuple[str, str], MessageSpec]:
        return {_key(m): m for m in self.world.scenario.messages}

    def _historical(self, m: MessageSpec) -> Generator[simpy.Event, Any, None]:
        if m.t_min > self.world.env.now:
            yield self.world.env.timeout(m.t_min - self.world.env.now)
        content: dict[str, Any] = {"text": m.text}
        if m.orders_for:
            content.update(orders_for=list(m.orders_for), orders_key=_key(m))
        if m.note:
            content["note"] = m.note
        kind = "order" if m.orders_for else "info"
        self.net.send(m.sender, m.receiver, kind, content, m.text)

    # -- deciding -------------------------------------------------------------------------------

    def _refresh(self, node: Node) -> None:
        """What the force's lookouts have in sight now, they see now: fresh positions in its picture."""
        world = self.world
        now = world.env.now
        model = world.contacts.model
        obs = node.force
        if not node.labels:
            return  # only a contact he has a name for can be refreshed: he has none
        for target, st in model.watched_by(obs):
            if st.level == 0 or target not in world.forces:
                continue
            about = node.labels.get(target)
            old = node.picture.get(about) if about else None
            if old is None or old.seen_min >= now:
                continue
            tgt = world.forces[target]
            lat, lon, course = tgt.position_at(now)
            self._plot(node, target, now, float(lat), float(lon))
            node.picture.learn(Report(about, now, float(lat), float(lon),
                                      float(course) if tgt.leg is not None else None,
                                      tgt.leg.speed_kn if tgt.leg is not None else 0.0, old.level, old.ships,
                                      old.n_ships, source=f"seen by {obs}",
                                      place=tgt.place if tgt.in_port else None), now)

    def coal_watch(self, force: ForceState) -> None:
        """Schedule the commander's look at his bunkers for when the emptiest ship will fall below
        his threshold at the present rates (exact, and re-scheduled whenever the force's motion changes).

        Worked out when the world settles: a leg is begun (or ended) before its ships' coal rates are
        set, and the look must be timed by the rates the ships will burn at, not the ones they had."""
        self._coal_due.put(force.name, force)

    def _watch_coal(self, force: ForceState) -> None:
        node = self.nodes.get(force.name)
        if node is None or node.standing.coal_low is None or node.mode.startswith("coal"):
            return
        now = self.world.env.now
        t_low = math.inf
        for s in force.active_ships():
            floor = node.standing.coal_low * s.ship.coal_capacity_t
            coal = s.coal_at(now)
            if coal <= floor:
                t_low = now
            elif s.rate_t_per_h < 0:
                t_low = min(t_low, _minute_below(s, now + (coal - floor) / -s.rate_t_per_h * 60.0,
                                                node.standing.coal_low))
        if t_low < self.world.end_min:
            node.coal_token += 1
            self.world.env.process(self._coal_check(node, node.coal_token, t_low))

    def _coal_check(self, node: Node, token: int, t_low: float) -> Generator[simpy.Event, Any, None]:
        yield self.world.env.timeout(max(t_low - self.world.env.now, 0.0))
        if token == node.coal_token:
            self.decide(node, "coal")

    def orders_done(self, force: ForceState) -> None:
        """Nothing is left of a force's orders (carried out, or impossible): its commander looks again, once
        the force lies still (``doctrine.orders_done``). One whose doctrine has him shadowing, chasing or
        the like looks again on arriving (``on_arrival``)."""
        node = self.nodes.get(force.name)
        if node is not None and node.hq is None and node.mode.split(" ")[0] not in DOCTRINE_MODES:
            self.world.env.process(self._look_again(node, force.order_epoch, "orders done"))

    def _look_again(self, node: Node, epoch: int, trigger: str) -> Generator[simpy.Event, Any, None]:
        yield self.world.env.timeout(0)
        force = self.world.forces.get(node.force)
        if force is not None and force.order_epoch == epoch:  # (no one has given it orders meanwhile)
            self.decide(node, trigger)

    def seen_moving(self, force: ForceState) -> None:
        """A force's motion changed: its enemies who have it in sight and are on it (shadowing, chasing,
        evading it) see her alter course or speed, and look again (a shadower turns with her) once the world
        settles. Worked out then: a leg is begun before the eyes are told of it."""
        self._turns_due.put(force.name, force)

    def _notice_turn(self, force: ForceState) -> None:
        if force.name not in self.world.forces or not force.active_ships():
            return
        now = self.world.env.now
        pairs = self.world.contacts.model.pairs
        for node in self.nodes.values():
            kind, _, about = node.mode.partition(" ")
            if node.hq is not None or kind not in ("shadow", "chase", "evade") or node.labels.get(force.name) != about:
                continue
            st = pairs.get((node.force, force.name))
            old = node.picture.get(about)
            own = self.world.forces.get(node.force)
            if st is None or st.level == 0 or old is None or own is None:
                continue
            _, _, course = force.position_at(now)
            speed = force.leg.speed_kn if force.leg is not None else 0.0
            turned = force.leg is not None and old.course_deg is not None \
                and abs((course - old.course_deg + 180.0) % 360.0 - 180.0) >= TURN_SEEN_DEG
            if turned or abs(speed - (old.speed_kn or 0.0)) >= SPEED_SEEN_KN:
                self.world.env.process(self._look_again(node, own.order_epoch, "report"))

    def on_arrival(self, force: ForceState) -> None:
        """A force reached the point its doctrine sent it to: its commander looks again."""
        node = self.nodes.get(force.name)
        # Not again at the instant it was steered: a point it is already at is reached at once.
        if node is not None and node.mode.split(" ")[0] in DOCTRINE_MODES \
                and node.last_steer_min != self.world.env.now:
            self.decide(node, "review")

    def view(self, node: Node) -> CommandView:
        """What the commander of ``node``'s force knows: plain values only."""
        world = self.world
        now = world.env.now
        force = world.forces[node.force]
        self._refresh(node)
        own = self._own(force, now)
        model = world.contacts.model
        light = model.conditions.light(own.lat, own.lon, now)
        reports = node.picture.reports()
        estimates = tuple(e for r in reports if (e := node.picture.estimate(r.about, now)) is not None)
        lights: tuple[str, ...] = (light,)
        light_then = None
        seen = in_sight(estimates)
        if seen:  # (his ranges are read only of contacts in sight: the light is dear to ask)
            # The light where he is at the look after next: a station he steers for now he reaches
            # doctrine.SHADOW_LEAD_H on and keeps until he looks again. The sun's and moon's times are in
            # his almanac; the weather he takes as it is. He judges his ranges by the worse of the two, so
            # that a shadower closes in before the light fails at dusk instead of keeping a daylight
            # distance into the dark.
            ahead_min = doctrine.SHADOW_LEAD_H * 60.0 + node.standing.review_min
            light_then = model.conditions.light(own.lat, own.lon, now + ahead_min)
            if light_then != light:
                lights = (light, light_then)
        # How far he sees: read only of a contact in sight (``doctrine.shadow``), so judged only then (the
        # weather where he is is dear to ask); NaN, never read, while nothing is in sight.
        sight_nm, sight_nm_of = math.nan, ()
        if seen:
            rules = model.rules
            visibility = model.conditions.visibility(own.lat, own.lon, now)
            sight_nm = min(max(rules.smoke_range_nm[lt], rules.hull_range_nm[lt]) for lt in lights) * visibility
            # A recognised contact is seen as far as its own ships are: a light cruiser nearer than a
            # battlecruiser, by night (data/sighting.yaml's size factor).
            sight_nm_of = tuple((e.about, min(max(rules.ranges([world.ships[n].ship for n in e.report.ships], lt,
                                                               visibility, False)[:2]) for lt in lights))
                                for e in estimates
                                if e.report.ships and all(n in world.ships for n in e.report.ships))
        # Only a commander whose doctrine looks at his company has it gathered: the rest would never
        # read what every friendly force was measured for.
        company: tuple[OwnForce, ...] = ()
        if doctrine.needs_company(node.standing):
            here = self._xyz((own.lat, own.lon))
            company = tuple(self._own(f, now) for f in world.forces.values()
                            if f is not force and f.side == force.side and f.active_ships()
                            and self._in_company(own, here, f, now))
        return CommandView(now, node.name, own, node.standing, light, reports, estimates, node.mode,
                           node.mode_since_min, node.last_report_min, self._ports(force), company,
                           sight_nm=sight_nm, sight_nm_of=sight_nm_of,
                           cipher_min=self.net.data.wireless.encipher_min, light_then=light_then,
                           start_utc=world.clock.iso(0.0))

    def _in_company(self, own: OwnForce, here: Xyz, force: ForceState, now: float) -> bool:
        """Is ``force`` within ``COMPANY_NM`` of the commander's own force (at ``own``; ``here`` its
        Earth-centred point, m) at ``now``? Most friends are far off: a chord between the two longer than
        the distance proves the geodesic longer too (``radio_range.beyond``), and only the rest are
        measured along the geodesic, which alone decides."""
        lat, lon, _ = force.position_at(now)
        if beyond(here, self._xyz((lat, lon)), COMPANY_NM):
            return False
        return earth.distance_nm(own.lat, own.lon, lat, lon) <= COMPANY_NM

    def _own(self, force: ForceState, now: float) -> OwnForce:
        lat, lon, course = force.position_at(now)
        ships = force.active_ships() or force.ships
        return OwnForce(
            force.name, force.side, force.nation, float(lat), float(lon),
            float(course) if force.leg is not None else None,
            force.leg.speed_kn if force.leg is not None else 0.0,
            max(min(s.ship.sustained_speed_kn - s.condition.speed_lost_kn for s in ships), 0.0),
            min(s.coal_at(now) / s.ship.coal_capacity_t for s in ships), ships[0].status, force.in_port,
            force.place, tuple(s.name for s in ships), force.current_order,
            orders_done=force.order_index >= len(force.orders))

    def _ports(self, force: ForceState) -> tuple[Port, ...]:
        """The ports the force may coal at: its own nation's and its allies'. They change only when
        the politics do, so they are kept per nation and political epoch."""
        changes = self.world.scenario.politics.change_times()
        key = (force.nation, force.side, bisect.bisect_right(changes, self.world.env.now))
        cached = self._ports_memo.get(key)
        if cached is not None:
            return cached
        out = []
        for p in self.world.places.ports():
            if p.coaling is None or p.coaling.facility == "none":
                continue
            if self.world.relation(force, p.nation) in ("own", "friendly"):
                out.append(Port(p.name, p.anchorage_lat, p.anchorage_lon))
        self._ports_memo[key] = tuple(out)
        return self._ports_memo[key]

    def decide(self, node: Node, trigger: str) -> None:
        """Let the commander of a force decide, and carry out what he decides."""
        if node.force is None or node.hq is not None:
            return
        force = self.world.forces.get(node.force)
        if force is None or not force.active_ships() or force.interned:
            return
        if force.battle is not None:  # in action the helm has her (campaign.tactics.helm); he decides after
            return
        for d in doctrine.decide(self.view(node), trigger):
            self._apply(node, force, d)

    def _apply(self, node: Node, force: ForceState, d: doctrine.Decision) -> None:
        world = self.world
        now = world.env.now
        if isinstance(d, doctrine.Jam):
            if self.net.can_jam(node.name):
                self.net.set_jamming(node.name, d.active)
        elif isinstance(d, doctrine.Send):
            if d.to not in self.nodes:
                return  # his superior is a force not yet in the theatre (ForceSpec.enters_min)
            self.net.send(node.name, d.to, "report", d.content, d.text)
            node.last_report_min = now
        elif isinstance(d, doctrine.Steer):
            areas = world.avoid_areas(force)  # the same waters for both: nothing changes between them
            d = self._open_way(force, self._watch_if_barred(node, force, d, areas), areas)
            orders = self._at_sea(force, d.orders, areas)
            if orders is None:
                # Nowhere better to go just now (he is at the nearest water he may use): he holds on and
                # looks again at his next review.
                if d.mode.split(" ")[0] in DOCTRINE_MODES:
                    node.mode = d.mode
                    self._schedule_review(node)
                return
            d = doctrine.Steer(orders, d.mode, d.reason)
            last = node.last_steer
            if last is not None and last[0] == now and last[1] == force.order_epoch and last[2] == d:
                # He decides again in the same instant (two contacts seen at once) on the very orders he
                # has just given, and no one has given others since: the force is already on them.
                return
            if not self._may_steer(node, now):
                return
            if node.mode == "script" and not force.script:
                force.script = force.orders[force.order_index:]
            node.mode, node.mode_since_min = d.mode, now
            world.give_orders(force, d.orders, why=d.reason, by=node.name)
            node.last_steer = (now, force.order_epoch, d)
            if d.mode.split(" ")[0] in DOCTRINE_MODES:
                self._schedule_review(node)
        elif isinstance(d, doctrine.Resume):
            if not self._may_steer(node, now):
                return
            script, force.script = force.script, ()
            script = self._onward(force, script)
            node.mode, node.mode_since_min = "script", now
            world.give_orders(force, script, why=d.reason, by=node.name)

    def _onward(self, force: ForceState, script: tuple) -> tuple:
        """The orders a force returns to, less the waypoints of its interrupted leg that it has already
        passed: a waypoint farther from the destination than the force now is lies behind it."""
        if not script or not isinstance(script[0], Sail) or not script[0].via:
            return script
        first = script[0]
        lat, lon, _ = force.position_at(self.world.env.now)
        here = earth.distance_nm(lat, lon, first.to.lat, first.to.lon)
        via = list(first.via)
        while via and earth.distance_nm(via[0].lat, via[0].lon, first.to.lat, first.to.lon) > here:
            via.pop(0)
        return (replace(first, via=tuple(via)),) + tuple(script[1:])

    @staticmethod
    def _may_steer(node: Node, now: float) -> bool:
        """A commander changes his mind at most a few times in one instant: a new course can change
        what his lookouts see at once, which must not send him round a circle of zero time."""
        quick = node.last_steer_min is not None and now - node.last_steer_min < STEER_SETTLE_MIN
        node.steers_now = node.steers_now + 1 if quick else 1
        node.last_steer_min = now
        return node.steers_now <= MAX_STEERS_AT_ONCE

    def _watch_if_barred(self, node: Node, force: ForceState, d: doctrine.Steer,
                         areas: tuple) -> doctrine.Steer:
        """A contact in waters the force may not enter (a neutral's belt, a closed strait: ``areas``, the
        force's ``World.avoid_areas`` now) is watched from the nearest water the force may use: it neither
        shadows nor intercepts it there."""
        kind, _, about = d.mode.partition(" ")
        if kind not in ("shadow", "regain", "chase", "intercept") or not about:
            return d
        est = node.picture.estimate(about, self.world.env.now)
        if est is None or est.lat is None:
            return d
        if not any(shapely.intersects_xy(a.geometry, est.lon, est.lat) for a in areas):
            return d
        # Where the contact will be when the force can be abreast of it (the shadower's lead time),
        # watched from the nearest water the force may use (``_at_sea`` moves the point there).
        r = est.report
        lat, lon = est.lat, est.lon
        if r.course_deg is not None and r.speed_kn:
            lat, lon = earth.forward(est.lat, est.lon, r.course_deg, r.speed_kn * doctrine.SHADOW_LEAD_H)
        watch = doctrine.Steer((Sail(Point(float(lat), float(lon), f"watching {about}"), "sustained"),), d.mode,
                               f"watching {about} from outside waters closed to {force.nation}")
        if kind != "shadow":
            return watch
        # A shadower keeps abreast of her there at the speed that brings him to the point as she comes
        # abreast of it: steaming at his best to it and lying stopped there, he fell astern and lost her at
        # dusk.
        moved = self._at_sea(force, watch.orders, areas)
        if moved is None:
            return watch
        now = self.world.env.now
        here = force.position_at(now)[:2]
        knots = doctrine.station_speed_kn(here, moved[0].to.lat, moved[0].to.lon, self._own(force, now).sustained_kn)
        return replace(watch, orders=(replace(moved[0], speed=knots),))

    def _open_way(self, force: ForceState, d: doctrine.Steer, areas: tuple) -> doctrine.Steer:
        """Of a steer's orders and its ``instead`` (in order of preference), the first whose first leg runs
        straight from where the force is to its point over open water on the charts (no land across it,
        the point outside ``areas``, the waters closed to the force). When none does (a force in a bay or
        at the mouth of a strait), the one with the longest run of open water before the land, cut short
        the offing routes keep from the land in open water (``data/routing.yaml``) before it: a point
        inland would be moved to the nearest water and reached by a route round the coast, which may lead
        back past the enemy he is running from. A steer without ``instead`` is kept as it is."""
        if not d.instead:
            return d
        options = (d.orders,) + d.instead
        lat, lon, _ = force.position_at(self.world.env.now)
        lats = [o[0].to.lat for o in options]
        lons = [o[0].to.lon for o in options]
        land = self.world.router.graph.land
        x0, y0 = land.plane.point_xy(lat, lon)
        x1, y1 = land.plane.to_xy(lats, lons)
        clear = land.segment_xy_clear([x0] * len(options), [y0] * len(options), x1, y1)
        for a in areas:
            clear &= ~shapely.intersects_xy(a.geometry, lons, lats)
        if clear.any():
            return doctrine.Steer(options[int(clear.argmax())], d.mode, d.reason)
        return doctrine.Steer(self._most_room(land, (x0, y0), options, x1, y1, areas), d.mode, d.reason)

    def _most_room(self, land: Land, start_xy: tuple[float, float], options: tuple, x1: np.ndarray,
                   y1: np.ndarray, areas: tuple) -> tuple:
        """Of ``options`` (orders whose first legs' points, in the plane, are ``x1``, ``y1``), the one whose
        straight run from ``start_xy`` goes farthest before the land, its first point moved back along
        the run to the offing short of the land, and that point outside ``areas`` (the waters closed to
        the force); the first option, as it is, when none has that much room (``_at_sea`` then finds it
        water). Ties go to the earlier option. The offing is taken in plane metres, which differ from
        true ones by the plane's small stretch."""
        x0, y0 = start_xy
        lines = shapely.linestrings(np.stack([np.column_stack([np.full(len(x1), x0), np.full(len(y1), y0)]),
                                              np.column_stack([x1, y1])], axis=1))
        # Plane metres to the first land on each run: the nearest point of its part on land (a run that
        # misses the land, barred only by its point's being in closed waters, has its whole length).
        lengths_m = shapely.length(lines)
        room_m = shapely.distance(shapely.points(x0, y0), shapely.intersection(lines, land.xy))
        room_m = np.where(np.isnan(room_m), lengths_m, room_m)
        offing_m = self.world.router.graph.params.offing_nm * earth.M_PER_NM
        frac = np.where(lengths_m > 0.0, (room_m - offing_m) / np.where(lengths_m > 0.0, lengths_m, 1.0), 0.0)
        lats, lons = land.plane.to_latlon(x0 + frac * (x1 - x0), y0 + frac * (y1 - y0))
        lats, lons = np.atleast_1d(lats), np.atleast_1d(lons)
        ok = frac > 0.0
        for a in areas:
            ok &= ~shapely.intersects_xy(a.geometry, lons, lats)
        if not ok.any():
            return options[0]
        best = int(np.argmax(np.where(ok, room_m, -np.inf)))
        first = options[best][0]
        return (replace(first, to=replace(first.to, lat=float(lats[best]), lon=float(lons[best]))),) \
            + options[best][1:]

    def _at_sea(self, force: ForceState, orders: tuple, areas: tuple) -> tuple | None:
        """Doctrine steers for points worked out at sea from the picture (a shadowing station, an
        interception point); one that falls on land, close inshore or in waters the force may not enter
        (``areas``, its ``World.avoid_areas`` now) is moved to the nearest open water it may use. None: no
        such water within reach, or the force is there already (it holds its position)."""
        land = self.world.router.graph.land
        # Twice the routing clearance: clear of the band the router keeps off every shore.
        clear_nm = 2.0 * self.world.router.graph.params.clearance_nm
        out = []
        for o in orders:
            if isinstance(o, Sail) and o.to.place is None:
                moved = land.water_outside(o.to.lat, o.to.lon, areas)
                if moved is None:
                    return None
                quick = land.step_off_shore(*moved, clear_nm)
                try:
                    lat, lon = quick if quick is not None else land.nearest_sea_point(*moved, clear_nm)
                except ValueError:
                    return None
                if (lat, lon) != (o.to.lat, o.to.lon):
                    o = replace(o, to=replace(o.to, lat=float(lat), lon=float(lon)))
            out.append(o)
        first = out[0] if out else None
        if isinstance(first, Sail) and len(out) == 1:
            lat, lon, _ = force.position_at(self.world.env.now)
            if earth.distance_nm(lat, lon, first.to.lat, first.to.lon) < HOLD_NM:
                return None
        return tuple(out)

    def _schedule_review(self, node: Node) -> None:
        node.review_token += 1
        self.world.env.process(self._review(node, node.review_token))

    def _review(self, node: Node, token: int) -> Generator[simpy.Event, Any, None]:
        yield self.world.env.timeout(node.standing.review_min)
        if token != node.review_token or node.mode.split(" ")[0] not in DOCTRINE_MODES:
            return
        self.decide(node, "review")
        if token == node.review_token and node.mode.split(" ")[0] in DOCTRINE_MODES:
            self._schedule_review(node)
