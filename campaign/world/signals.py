"""Messages by cable and wireless inside the SimPy world: routes, delays, queues, jamming, interception.

A *node* is a command that sends and receives: a ship or squadron at sea with a W/T set, or a
headquarters at a telegraph station (a ship in port may be both). :class:`SignalNetwork` joins the nodes
by a graph of hops and delivers :class:`Message` objects along the quickest one:

- **cable and land-line hops** between the telegraph stations of ``data/telegraph.yaml``, timed by the
  1905 rule (seed 002: one hour per 1,000 miles by day, 1.5 hours at night; nautical miles, day or night
  judged at the sending station when the hop begins);
- **wireless hops** between friendly sets in range (``data/wireless.yaml``): a ship's set, another
  friendly ship (a relay, as the steamer General and the station ship Loreley relayed Goeben's traffic),
  or a shore station joined by land line to its telegraph station (shore stations work ships, not each
  other: between shore points the cables carried the traffic). Range is the transmitter's by day or
  night (the light at the transmitter) times the receiver's receive factor;
- **handling** at every vertex as a ``simpy.Resource``, so traffic queues: a headquarters' dispatch (the
  Admiralty's 55 minutes), a station's relay minutes, a ship's enciphering and keying; the addressee
  deciphers. Figures and sources are in the data files.

Route choice is made when a message is sent: a time-dependent Dijkstra search over the vertices, each
relaxation costing the vertex's expected queue wait and handling and the hop's transit at the expected
time, with ships where their legs will put them. The message then travels as a SimPy process
(``transmit``). A wireless hop is checked again when it is keyed: out of range, the message is re-routed
from where it is (``message_rerouted``); jammed, it waits and the operator calls again every
``jam_retry_min`` or as soon as a jammer stops (``message_jammed``). A message with no route is *held* and
the route sought again every ``no_route_retry_min`` (ships move) until ``hold_limit_min``, then recorded
``message_lost``: operators kept a message until they could pass it. An office holding several messages
of one sender for one addressee calls for a route for all of them together, every ``no_route_retry_min``
from when the first was held: when a call finds one, each message takes its own route from there.

**Jamming.** ``set_jamming(node, True)`` puts a node's set to jamming. A jammer hostile to a message
blocks a wireless hop when its own signal at the hop's receiver is at least as strong as the sender's,
strength judged as distance over range: ``d_jam / R_jam <= jam_margin * d_send / R_send`` (and the
receiver within the jammer's range). Both sides jammed in August 1914: British cruisers and shore stations
against Goeben (Lorey, Russian tr. p.6), Goeben against the British cruisers' reports (Hough, The Great War
at Sea).

**Interception.** Every wireless transmission by a node is heard by every hostile node whose set is
within the transmitter's range times the listener's receive factor (and ``intercept_factor``). The
listener learns the sea and area of the sender and nothing else (seed 000; the British had no
direction-finding): ``on_intercept({"sea", "area", "t_min"}, t)`` and a record ``intercept`` at the
listener. Shore stations' transmissions are not reported (their places are known).

Randomness: none; the ``rng`` argument (the world's "signals" generator) is kept for garbles and
failures to come. No module-level mutable state; records are emitted through the world's ``emit``.
"""

from __future__ import annotations

import bisect
import functools
import heapq
import itertools
import math
from collections.abc import Callable, Generator, Iterable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from types import MappingProxyType
from typing import Any

import numpy as np
import simpy

from campaign.clock import Clock
from campaign.geo.earth import M_PER_NM, distance_nm
from campaign.world.radio_range import (
    CHORD_M_PER_NM,
    CHORD_SLACK_M,
    Xyz,
    XyzMemo,
    beyond,
    beyond_chord_m,
    within_chord_m,
    xyz_m,
)
from campaign.world.sea_areas import SeaAreas, default_sea_areas
from campaign.world.signal_data import ANY, SignalData, WirelessSet, default_signal_data

KINDS = ("report", "order", "politics", "info")
HOLD_SLACK_MIN = 1.0 / 60.0  # a held message's remaining time below which the hold is over (min)
DISPATCHED = "dispatched"  # arrival at a station from the originating headquarters (see _arrival)
NIGHT_SUN_ALT_DEG = -6.0  # end of civil twilight, as the replay and the light model take night to begin
NIGHT_MEMO_SIZE = 50_000  # entries of the light memo before it is cleared (memory bound only)
# A bound from where a moving set was last placed rules it out of a hop only this far (m) clear of the
# range: rounding in the chords is a millimetre at most.
BOUND_MARGIN_M = 1.0
IsNight = Callable[[float, float, datetime], bool]
# (lat, lon, when_utc) -> (is it night, seconds either side of when during which it surely stays so there)
NightHold = Callable[[float, float, datetime], tuple[bool, float]]
Position = Callable[[float], tuple[float, float]]
# () -> (stamp, speed_kn): a stamp equal for as long as a node's Position gives the same answers, and
# the fastest it moves meanwhile (knots; 0: it does not move, its Position the same at every minute).
Plan = Callable[[], tuple[Any, float]]


@functools.cache
def _light_at() -> Callable[..., Any] | None:
    try:
        from campaign.world import light
    except ImportError:
        return None
    return getattr(light, "light_at", None)


def _instant_hold(is_night: IsNight) -> NightHold:
    """``is_night`` as a :data:`NightHold` whose answer holds only at the instant asked."""
    return lambda lat, lon, when: (bool(is_night(lat, lon, when)), 0.0)


def default_is_night(lat: float, lon: float, when_utc: datetime) -> bool:
    """True at night at a place (degrees) and UTC time: the light model's moonlit or dark night when
    ``campaign.world.light`` is available, else the sun more than 6 degrees below the horizon."""
    light_at = _light_at()
    if light_at is not None:
        return light_at(lat, lon, when_utc).state in ("moonlit_night", "dark_night")
    from campaign.output.replay_sun import sun_altitude_deg

    return sun_altitude_deg(lat, lon, when_utc) < NIGHT_SUN_ALT_DEG


def _freeze(value: Any) -> Any:
    if isinstance(value, Mapping):
        return MappingProxyType({k: _freeze(v) for k, v in value.items()})
    if isinstance(value, (list, tuple)):
        return tuple(_freeze(v) for v in value)
    if isinstance(value, set):
        return frozenset(_freeze(v) for v in value)
    return value


@dataclass(frozen=True)
class Message:
    """A message: ``content`` holds the structured facts the world acts on, ``text`` the sentence."""

    id: str
    sender: str
    receiver: str
    kind: str
    content: Mapping[str, Any]
    text: str
    sent_min: float


@dataclass(eq=False)
class _Vertex:
    key: str  # "T:<station>", "W:<shore station>", "N:<node>"
    label: str
    kind: str  # "telegraph" | "shore" | "node"
    nation: str | None
    position: Position
    resource: simpy.Resource
    handling_min: float = 0.0  # a telegraph station's relay minutes
    set: WirelessSet | None = None
    serves: tuple[str, ...] = ()
    side: str | None = None
    station: str | None = None  # node: the telegraph station it stands at
    on_receive: Callable[[Message, float], None] | None = None
    on_intercept: Callable[[dict[str, Any], float], None] | None = None
    jamming: bool = False
    # (to key, kind, length_nm, transit by day or night whichever is quicker in min, a through circuit's
    # minutes or None)
    lines: list[tuple[str, str, float, float, float | None]] = field(default_factory=list)
    fixed: tuple[float, float] | None = None  # (lat, lon) of a vertex that never moves: a station, an HQ ashore
    plan: Plan | None = None  # a moving node's plan: see Plan
    xyz: Xyz | None = None  # its Earth-centred place (m), when fixed
    index: int = 0  # order of addition: a route search tries hops in this order (it breaks ties)
    stand_in: str | None = None  # a shore station: what of its figures is a stand-in


@dataclass(frozen=True)
class _Reach:
    """What a message from one node to another may use: it depends only on the vertices registered."""

    usable: frozenset[str]  # keys of the vertices it may pass through or end at (see _usable)
    # Ends of its wireless hops, in vertex order: usable sets, a ship only if friendly to the sender or
    # the addressee. With what the search reads of each (fixed for a vertex): (vertex, key, fixed place,
    # its Earth-centred point, receive factor, shore station?).
    radios: tuple[tuple[_Vertex, str, tuple[float, float] | None, Xyz | None, float, bool], ...]
    # The radios but the shore stations', in the same order: the ends a shore station may work.
    ship_radios: tuple[tuple[_Vertex, str, tuple[float, float] | None, Xyz | None, float, bool], ...]
    # The usable shore stations of the sender's own nation (see SignalNetwork._nearest_station).
    own_shore: tuple[_Vertex, ...] = ()


@dataclass(eq=False)
class _Call:
    """An office's calls for the messages it holds of one sender for one addressee (having come the same
    way): one route search every ``no_route_retry_min`` for all of them. ``found`` succeeds at a call
    that finds a route (and is then replaced)."""

    held: list[Message]  # waiting, oldest first: the search is made for the oldest
    found: simpy.Event


@dataclass(frozen=True)
class _Hop:
    src: str
    dst: str
    by: str  # "cable" | "land_line" | "wireless" | "local"
    length_nm: float = 0.0
    transit_min: float | None = None  # a through circuit's minutes (None: the 1905 rule by length)


class SignalNetwork:
    """Cable and wireless messages between registered command nodes inside one SimPy environment.

    ``emit(t_min, type_, unit=None, side=None, lat=None, lon=None, **fields)`` records an event (the
    world's ``rec.emit``); ``clock`` converts minutes to UTC; ``is_night(lat, lon, when_utc)`` judges the
    light (default :func:`default_is_night`), unless ``night_hold(lat, lon, when_utc)`` is given, which also
    says how long the answer holds at that place (:func:`campaign.world.light.night_and_hold`);
    ``sides`` maps nations to sides and ``neutral_sides`` lists
    sides at war with no one (two sides are hostile when both are known, differ and neither is neutral);
    ``data`` and ``sea_areas`` default to the bundled files.
    """

    def __init__(self, env: simpy.Environment, emit: Callable[..., Any], clock: Clock,
                 rng: np.random.Generator | None = None, *, is_night: IsNight = default_is_night,
                 night_hold: NightHold | None = None,
                 data: SignalData | None = None, sea_areas: SeaAreas | None = None,
                 sides: Mapping[str, str] | None = None, neutral_sides: Iterable[str] = ()) -> None:
        self.env, self.emit, self.clock, self.rng = env, emit, clock, rng
        # One way of asking the light: a plain ``is_night`` is a hold that promises nothing beyond its instant.
        self.night_hold: NightHold = night_hold or _instant_hold(is_night)
        self.data = data or default_signal_data()
        self.sea_areas = sea_areas or default_sea_areas()
        self.sides = dict(sides or {})
        self.neutral_sides = frozenset(neutral_sides)
        self._vertices: dict[str, _Vertex] = {}
        self._ids = itertools.count(1)
        self._jam_changed = env.event()
        # The last answer of ``night_hold`` at each place: (t_min, night, minutes it holds either side).
        self._night_held: dict[tuple[float, float], tuple[float, bool, float]] = {}
        self._xyz = XyzMemo()
        # Indexes of the vertices, kept up to date by _add and set_station (the route search reads them):
        self._radios: tuple[_Vertex, ...] = ()  # the vertices with a W/T set, in order; replaced, never
        # changed in place, so a loop over it is not disturbed by a node registered meanwhile
        self._at_station: dict[str, list[_Vertex]] = {}  # station -> nodes standing at it, in order
        self._reach_memo: dict[tuple[str, str], _Reach] = {}  # (sender, addressee) keys -> _Reach
        # Where each moving node with a plan was last placed: key -> (stamp, t_min, Earth-centred point,
        # metres it may move per minute, ((lat, lon), Earth-centred point)), for bounds on where it can be
        # since (_out_of_reach), and the place itself for a node that cannot have moved since (_place).
        self._placed: dict[str, tuple[Any, float, Xyz, float, tuple[tuple[float, float], Xyz]]] = {}
        # within_chord_m of each range (nm) a route search has asked: the ranges are the sets' times their
        # receive factors, a few dozen at most.
        self._within_chord: dict[float, float] = {}
        # The calls under way for held messages: (vertex, sender, addressee, how they came) -> _Call.
        self._calls: dict[tuple[str, str, str, str | None], _Call] = {}
        for st in self.data.stations:
            self._add(_Vertex(f"T:{st.name}", st.name, "telegraph", st.nation, _fixed(st.lat, st.lon),
                              simpy.Resource(env, st.capacity), handling_min=st.handling_min,
                              fixed=(st.lat, st.lon)))
        for link in self.data.links:
            self._join(f"T:{link.a}", f"T:{link.b}", link.kind, link.length_nm)
        for c in self.data.circuits:  # worked through: every two of its stations in the circuit's minutes
            for i, a in enumerate(c.stations):
                for b in c.stations[i + 1:]:
                    sa, sb = self.data.station(a), self.data.station(b)
                    self._join(f"T:{a}", f"T:{b}", "cable", float(distance_nm(sa.lat, sa.lon, sb.lat, sb.lon)),
                               c.transit_min)
        land = self.data.telegraph.land_line_routing_factor
        for sh in self.data.shore_stations:
            self._add(_Vertex(f"W:{sh.name}", sh.name, "shore", sh.nation, _fixed(sh.lat, sh.lon),
                              simpy.Resource(env, 1), set=sh.set, serves=sh.serves, fixed=(sh.lat, sh.lon),
                              stand_in=sh.stand_in))
            tele = self.data.station(sh.telegraph)
            self._join(f"W:{sh.name}", f"T:{tele.name}", "land_line",
                       float(distance_nm(sh.lat, sh.lon, tele.lat, tele.lon)) * land)

    # -- set-up ---------------------------------------------------------------------------------

    def _add(self, v: _Vertex) -> None:
        v.index = len(self._vertices)
        if v.fixed is not None:
            v.xyz = xyz_m(*v.fixed)
        self._vertices[v.key] = v
        if v.set is not None:
            self._radios = (*self._radios, v)
        if v.station is not None:
            self._at_station.setdefault(v.station, []).append(v)
        self._reach_memo.clear()  # a new vertex may be used by any message

    def _join(self, a: str, b: str, kind: str, length_nm: float, transit_min: float | None = None) -> None:
        """A line between vertices ``a`` and ``b``: timed by the 1905 rule over ``length_nm``, or, on a
        through circuit, its ``transit_min`` day and night."""
        tele = self.data.telegraph
        fastest = transit_min if transit_min is not None else min(tele.line_min(length_nm, night=False),
                                                                  tele.line_min(length_nm, night=True))
        self._vertices[a].lines.append((b, kind, length_nm, fastest, transit_min))
        self._vertices[b].lines.append((a, kind, length_nm, fastest, transit_min))

    def register(self, node: str, side: str, nation: str, position: Position | None = None, *,
                 station: str | None = None, wireless: str | None = None,
                 on_receive: Callable[[Message, float], None] | None = None,
                 on_intercept: Callable[[dict[str, Any], float], None] | None = None,
                 plan: Plan | None = None) -> None:
        """Add a command node: ``position(t_min) -> (lat, lon)`` in degrees (a headquarters may omit it
        and stand at its ``station``), the telegraph ``station`` it can hand messages to, the key of its
        W/T set class in ``data/wireless.yaml`` (see :meth:`SignalData.set_for`), and its callbacks.

        ``plan() -> (stamp, speed_kn)``, for a node that moves: a stamp that stays equal for as long as
        ``position`` gives the same answers, and the fastest the node moves meanwhile. With it a route
        search rules out, from where the node was last placed, the sets it cannot be within range of,
        without placing it again (the answers are the same; only the cost differs)."""
        key = f"N:{node}"
        if key in self._vertices:
            raise ValueError(f"node {node!r} is already registered")
        if wireless is not None and wireless not in self.data.sets:
            raise KeyError(f"unknown W/T set {wireless!r}; sets are {', '.join(self.data.sets)}")
        st = self.data.station(station) if station is not None else None
        fixed = None
        if position is None:
            if st is None:
                raise ValueError(f"node {node!r} needs a position or a station")
            position, fixed = _fixed(st.lat, st.lon), (st.lat, st.lon)
        capacity = 1 if wireless is not None else self.data.telegraph.hq_capacity
        self._add(_Vertex(key, node, "node", nation, position, simpy.Resource(self.env, capacity),
                          set=self.data.sets[wireless] if wireless else None, side=side,
                          station=st.name if st else None, on_receive=on_receive, on_intercept=on_intercept,
                          fixed=fixed, plan=plan if fixed is None else None))

    def set_station(self, node: str, station: str | None) -> None:
        """Put a node at a telegraph station (a ship entering port) or take it away (None)."""
        v = self._node(node)
        name = self.data.station(station).name if station is not None else None
        if name == v.station:
            return
        if v.station is not None:
            self._at_station[v.station].remove(v)
        v.station = name
        if name is not None:
            bisect.insort(self._at_station.setdefault(name, []), v, key=lambda u: u.index)

    def _node(self, node: str) -> _Vertex:
        try:
            return self._vertices[f"N:{node}"]
        except KeyError:
            raise KeyError(f"unknown node {node!r}; register it first") from None

    def can_jam(self, node: str) -> bool:
        """Has the node a W/T set of its own to jam with?"""
        v = self._vertices.get(f"N:{node}")
        return v is not None and v.set is not None

    def set_jamming(self, node: str, active: bool) -> None:
        """Start or stop jamming with a node's set; records ``jamming_start`` / ``jamming_end``."""
        v = self._node(node)
        if v.set is None:
            raise ValueError(f"node {node!r} has no W/T set to jam with")
        if v.jamming == active:
            return
        v.jamming = active
        lat, lon = v.position(self.env.now)
        self.emit(self.env.now, "jamming_start" if active else "jamming_end", v.label, v.side, lat, lon)
        changed, self._jam_changed = self._jam_changed, self.env.event()
        changed.succeed()

    # -- relations ------------------------------------------------------------------------------

    def _side_of(self, v: _Vertex) -> str | None:
        return v.side if v.kind == "node" else self.sides.get(v.nation or "")

    def hostile(self, a: str | None, b: str | None) -> bool:
        """True when sides ``a`` and ``b`` are at war: both known, different, neither neutral."""
        return (a is not None and b is not None and a != b
                and a not in self.neutral_sides and b not in self.neutral_sides)

    def _usable(self, v: _Vertex, sender: _Vertex, target: _Vertex) -> bool:
        """May a message of ``sender`` pass through ``v`` (or end there)?"""
        if v is sender or v is target:
            return True
        if v.kind == "telegraph":
            return not self.hostile(sender.side, self._side_of(v))
        if v.kind == "shore":
            return ANY in v.serves or sender.nation in v.serves or any(
                self.sides.get(n) == sender.side and sender.side is not None for n in v.serves)
        return v.set is not None and self._relays_for(v, sender)  # a friendly ship relays

    def _relays_for(self, v: _Vertex, sender: _Vertex) -> bool:
        """Does ship ``v`` relay ``sender``'s traffic: her own navy's, or her side's (the rules' ``relay_for``)?"""
        if self.data.wireless.relay_for == "nation":
            return v.nation == sender.nation
        return v.side == sender.side

    def _reach(self, sender: _Vertex, target: _Vertex) -> _Reach:
        """The vertices a message from ``sender`` to ``target`` may use, and the ends of its wireless hops
        (memoised: a held message asks again every few minutes; forgotten when a vertex is added)."""
        memo_key = (sender.key, target.key)
        reach = self._reach_memo.get(memo_key)
        if reach is None:
            usable = frozenset(v.key for v in self._vertices.values() if self._usable(v, sender, target))
            # A hop may end at any set but an enemy's or a neutral's ship (the addressee aside).
            radios = tuple((u, u.key, u.fixed, u.xyz, u.set.receive_factor, u.kind == "shore")
                           for u in self._radios if u.set is not None and u.key in usable
                           and (u.kind != "node" or u is target or self._relays_for(u, sender)))
            # The sender's own navy's shore stations: of these only the nearest to a ship keys to her.
            own = tuple(u for u in self._radios if u.kind == "shore" and u.key in usable
                        and u.nation == sender.nation)
            reach = self._reach_memo[memo_key] = _Reach(usable, radios, tuple(r for r in radios if not r[5]), own)
        return reach

    # -- timing ---------------------------------------------------------------------------------

    def _where(self, v: _Vertex, t: float) -> tuple[float, float]:
        """(lat, lon) of a vertex at ``t`` (degrees): a fixed one without calling its position."""
        return v.fixed if v.fixed is not None else v.position(t)

    def _night(self, v: _Vertex, t: float) -> bool:
        """Night at a vertex at minute ``t``: the last answer at the same place stands while ``t`` is
        within its hold (stations, and ships lying still, are asked at every route search, and the sun
        takes hours to reach the threshold). Keyed by the position, so a changed leg is never judged by
        a stale place; bounded."""
        return self._night_at(self._where(v, t), t)

    def _night_at(self, at: tuple[float, float], t: float) -> bool:
        """:meth:`_night` at a vertex known to be at ``at`` (lat, lon, degrees) at minute ``t``: a route
        search has placed it already."""
        lat, lon = at
        place = (lat, lon)
        held = self._night_held.get(place)
        if held is not None and abs(t - held[0]) <= held[2]:
            return held[1]
        night, hold_s = self.night_hold(lat, lon, self.clock.utc(t))
        if len(self._night_held) > NIGHT_MEMO_SIZE:
            self._night_held.clear()
        self._night_held[place] = (t, night, hold_s / 60.0)
        return night

    def _range(self, tx: _Vertex, rx: _Vertex, t: float) -> float:
        assert tx.set is not None and rx.set is not None
        return tx.set.range_nm(self._night(tx, t)) * rx.set.receive_factor

    def _handling(self, v: _Vertex, wireless: bool, key_min: float, came_by: str | None) -> float:
        """Minutes ``v`` spends on a message before a hop (by wireless or not) when keying the message
        takes ``key_min`` (:meth:`WirelessRules.transmit_min`); ``came_by`` None at the message's origin."""
        w = self.data.wireless
        if v.kind == "telegraph":
            return 0.0 if came_by == DISPATCHED else v.handling_min  # the HQ's dispatch put it on the wire
        if v.kind == "shore":
            return key_min
        if came_by is None:
            if wireless:
                return w.encipher_min + key_min
            return self.data.telegraph.dispatch_min
        return key_min  # a ship relays by re-keying the groups

    def _transit(self, hop: _Hop, src: _Vertex, t: float) -> float:
        if hop.transit_min is not None:
            return hop.transit_min  # a through circuit
        if hop.by in ("cable", "land_line"):
            return self.data.telegraph.line_min(hop.length_nm, self._night(src, t))
        return 0.0

    @staticmethod
    def _queue_share(v: _Vertex) -> float:
        """Messages ahead of a new one at ``v`` per server: times its handling, the expected wait (min)."""
        backlog = v.resource.count + len(v.resource.queue) + 1 - v.resource.capacity
        return max(0, backlog) / v.resource.capacity

    def _in_range(self, tx: _Vertex, rx: _Vertex, t: float) -> bool:
        """Is ``rx`` within range of ``tx``'s set at ``t``?"""
        return self._within(tx, self._where(tx, t), rx, self._where(rx, t), t)

    def _within(self, tx: _Vertex, tx_at: tuple[float, float], rx: _Vertex, rx_at: tuple[float, float],
                t: float) -> bool:
        """``_in_range`` given the places (lat, lon) of ``tx`` and ``rx`` at ``t``: a route search works
        out each place once (and has already ruled out, by the chord, the sets beyond range)."""
        assert tx.set is not None and rx.set is not None
        (la1, lo1), (la2, lo2) = tx_at, rx_at
        if la1 == la2 and lo1 == lo2:
            return True  # the same place (ships in one port): no distance, within any range
        rf = rx.set.receive_factor
        day, night = tx.set.day_nm * rf, tx.set.night_nm * rf
        d = float(distance_nm(la1, lo1, la2, lo2))
        if d <= min(day, night):
            return True  # in range whatever the light: no need to ask it
        if d > max(day, night):
            return False
        return d <= tx.set.range_nm(self._night_at(tx_at, t)) * rf  # _range, at the place known

    # -- routing --------------------------------------------------------------------------------

    def _plan(self, msg: Message, start: _Vertex, t0: float, came_by: str | None) -> tuple[list[_Hop], float] | None:
        """Quickest route from ``start`` to the receiver leaving at ``t0``: (hops, expected arrival).

        A time-dependent Dijkstra search. The hops out of a vertex are tried in a fixed order (its lines;
        its station, or the nodes standing at it; then the sets in range), which settles ties. A set keying
        at the place and minute of one tried already that reaches as far is not tried (:func:`_covered`)."""
        sender, target = self._node(msg.sender), self._node(msg.receiver)
        reach = self._reach(sender, target)
        usable, radios, ship_radios = reach.usable, reach.radios, reach.ship_radios
        vertices, at_station, line_min = self._vertices, self._at_station, self.data.telegraph.line_min
        key_min = self.data.wireless.transmit_min(msg.text)  # the same at every set: computed once
        best: dict[str, float] = {start.key: t0}
        back: dict[str, tuple[str, str, float, float | None]] = {}  # vertex -> (from, by, length_nm, circuit
        # minutes) of its best hop in
        heap: list[tuple[float, int, str, str | None]] = [(t0, 0, start.key, came_by)]
        order = itertools.count(1)
        done: set[str] = set()
        # Where the moving vertices are ((lat, lon), Earth-centred point), by minute then vertex: the search
        # asks again for a vertex at a minute it asked before (senders leaving at the same minute), and
        # nothing moves while it runs.
        places: dict[float, dict[str, tuple[tuple[float, float], Xyz]]] = {}
        same_plan: set[str] = set()  # moving sets found still on the plan they were last placed on
        # The sets whose hops were tried, by minute of keying and place: (day nm, night nm, shore station?).
        tried: dict[tuple[float, tuple[float, float]], list[tuple[float, float, bool]]] = {}
        push, inf, dist = heapq.heappush, math.inf, math.dist
        within_chord = self._within_chord
        while heap:
            t, _, key, via = heapq.heappop(heap)
            if key in done:
                continue
            done.add(key)
            if key == target.key:
                return _hops_back(back, start.key, key), t + self.data.wireless.decipher_min
            v = vertices[key]
            if v.kind == "node" and v is not start and v is not target and v.set is None:
                continue  # headquarters are ends, not relays
            # Handling and queue are the vertex's; they differ by hop only between wireless and not.
            queued = self._queue_share(v)
            handling = self._handling(v, False, key_min, via)
            t_dep = t + queued * handling + handling
            night: bool | None = None  # the light at v at t_dep, asked once for all its lines
            for dst, by, length_nm, fastest, through in v.lines:
                if dst in done or dst not in usable:
                    continue
                bar = best.get(dst, inf) - 1e-9
                if t_dep + fastest >= bar:
                    continue  # cannot improve whatever the light: no need to ask it
                if through is not None:
                    t_arr = t_dep + through
                else:
                    if night is None:
                        night = self._night(v, t_dep)
                    t_arr = t_dep + line_min(length_nm, night)
                if t_arr < bar:
                    best[dst] = t_arr
                    back[dst] = (key, by, length_nm, through)
                    push(heap, (t_arr, next(order), dst, by))
            if v.kind == "node":
                ends: Iterable[str] = () if v.station is None else (f"T:{v.station}",)
            elif v.kind == "telegraph":
                ends = [u.key for u in at_station.get(v.label, ()) if u is target or u.set is not None]
            else:
                ends = ()
            arrival = DISPATCHED if via is None else "local"  # see _arrival
            for dst in ends:  # local hops take no time
                if dst in done or dst not in usable:
                    continue
                if t_dep < best.get(dst, inf) - 1e-9:
                    best[dst] = t_dep
                    back[dst] = (key, "local", 0.0, None)
                    push(heap, (t_dep, next(order), dst, arrival))
            if v.set is None or not radios:
                continue
            handling = self._handling(v, True, key_min, via)
            t_dep = t + queued * handling + handling
            now = places.setdefault(t_dep, {})
            at, xyz = v.fixed, v.xyz
            if at is None:
                at, xyz = self._place(now, v, t_dep)
            # Chord (m) per unit of receive factor beyond which a set is out of range by day and by night
            # (radio_range.beyond, inlined: it is asked of every set tried).
            v_set = v.set
            shore = v.kind == "shore"
            own_station = shore and v.nation == sender.nation and len(reach.own_shore) > 1
            tried_here = tried.setdefault((t_dep, at), [])
            if _covered(tried_here, v_set, shore):
                continue  # (ships lying in one port: the flagship's hops are every other's)
            tried_here.append((v_set.day_nm, v_set.night_nm, shore))
            reach_m = max(v_set.day_nm, v_set.night_nm) * CHORD_M_PER_NM
            sure_nm, far_nm = min(v_set.day_nm, v_set.night_nm), max(v_set.day_nm, v_set.night_nm)
            far_at_night = v_set.night_nm > v_set.day_nm  # which light gives the longer range
            # Shore stations worked ships; between shore points the cables carried traffic.
            for u, u_key, u_at, u_xyz, rf, _ in (ship_radios if shore else radios):
                if u is v or u_key in done:
                    continue
                if shore and u.station is not None and f"T:{u.station}" in usable:
                    continue  # she lies at a telegraph station the message may use: the wire reaches her
                bar = best.get(u_key, inf) - 1e-9
                if t_dep >= bar:
                    continue  # reached as soon by another hop: whether this one carries cannot matter
                limit_m = reach_m * rf + CHORD_SLACK_M
                if u_at is None:
                    got = now.get(u_key)
                    if got is None:
                        if self._out_of_reach(u, xyz, t_dep, limit_m, same_plan):
                            continue  # it cannot have come within range since it was last placed
                        got = self._place(now, u, t_dep)
                    u_at, u_xyz = got
                chord_m = dist(xyz, u_xyz)
                if chord_m > limit_m:
                    continue  # beyond range whatever the light: no need of the geodesic
                sure_chord_m = within_chord.get(sure_nm * rf)
                if sure_chord_m is None:
                    sure_chord_m = within_chord[sure_nm * rf] = within_chord_m(sure_nm * rf)
                if chord_m > sure_chord_m:  # (a chord that short is within range whatever the light)
                    far_chord_m = within_chord.get(far_nm * rf)
                    if far_chord_m is None:
                        far_chord_m = within_chord[far_nm * rf] = within_chord_m(far_nm * rf)
                    if beyond_chord_m(sure_nm * rf) < chord_m <= far_chord_m:
                        # Surely beyond the shorter range and within the longer: the light alone decides,
                        # as in _within (which asks it just when the geodesic lies between them).
                        if self._night_at(at, t_dep) != far_at_night:
                            continue
                    elif not self._within(v, at, u, u_at, t_dep):
                        continue  # the chord cannot tell: the geodesic does
                if own_station and not self._nearest_station(v, u, u_at, u_xyz, chord_m, t_dep, reach.own_shore):
                    continue  # a nearer station of the sender's navy keys to her
                best[u_key] = t_dep
                back[u_key] = (key, "wireless", 0.0, None)
                push(heap, (t_dep, next(order), u_key, "wireless"))
        return None

    def _nearest_station(self, v: _Vertex, u: _Vertex, u_at: tuple[float, float], u_xyz: Xyz, chord_m: float,
                         t: float, own: tuple[_Vertex, ...]) -> bool:
        """Is shore station ``v`` (``chord_m`` from ship ``u``, at ``u_at``, Earth-centred ``u_xyz``) the one
        of ``own``, its navy's stations, that keys to her at minute ``t``: the nearest that reaches her (the
        earlier listed of two as near)? The wire carried a navy's traffic to its station nearest the ship,
        and wireless only the last leg (data/wireless.yaml, rules)."""
        assert u.set is not None
        rf = u.set.receive_factor
        for w in own:
            if w is v or w.xyz is None or w.fixed is None or w.set is None:
                continue
            d = math.dist(w.xyz, u_xyz)
            if d > chord_m or (d == chord_m and w.index > v.index):
                continue  # farther from her than v: v's hop stands
            # The chords settle most: beyond the longer range, or within the shorter, whatever the light.
            if d > beyond_chord_m(max(w.set.day_nm, w.set.night_nm) * rf):
                continue
            if d <= within_chord_m(min(w.set.day_nm, w.set.night_nm) * rf) or self._within(w, w.fixed, u, u_at, t):
                return False
        return True

    def _place(self, places: dict[str, tuple[tuple[float, float], Xyz]], v: _Vertex, t: float
               ) -> tuple[tuple[float, float], Xyz]:
        """Where a moving vertex is at minute ``t``, (lat, lon) and its Earth-centred point, remembered in
        ``places`` (one route search's, for that minute).

        A node with a plan still the one it was last placed on is not asked again when that placing was
        at ``t`` too, or when the plan does not move it (speed 0: it lies in port or waits at sea): its
        ``position`` gives the same answers as then (see :data:`Plan`), so the same place."""
        key = v.key
        got = places.get(key)
        if got is None:
            if v.plan is None:
                at = v.position(t)
                got = places[key] = (at, self._xyz(at))
                return got
            stamp, speed_kn = v.plan()
            last = self._placed.get(key)
            if last is not None and last[0] == stamp and (last[1] == t or last[3] == 0.0):
                got = places[key] = last[4]
                return got
            at = v.position(t)
            got = places[key] = (at, self._xyz(at))
            self._placed[key] = (stamp, t, got[1], speed_kn * M_PER_NM / 60.0, got)
        return got

    def _out_of_reach(self, u: _Vertex, xyz: Xyz, t: float, limit_m: float,
                      same_plan: set[str] | None = None) -> bool:
        """True if moving node ``u`` is surely more than ``limit_m`` (chord, m) from ``xyz`` at ``t``:
        where it was last placed is farther than that by more than it can have moved since, on the
        plan it had then (and still has). False when that cannot be told: place it.

        ``same_plan``: the nodes already found on the plan they were placed on, kept by one route
        search (no time passes while it runs, so a plan found unchanged stays so)."""
        last = self._placed.get(u.key)
        if last is None or u.plan is None:
            return False
        stamp, t_r, xyz_r, m_per_min, _ = last
        # A chord is never longer than the geodesic steamed along the route, so the node is within
        # m_per_min * |t - t_r| (chord) of where it was placed.
        if math.dist(xyz, xyz_r) - m_per_min * abs(t - t_r) <= limit_m + BOUND_MARGIN_M:
            return False
        if same_plan is not None and u.key in same_plan:
            return True
        if u.plan()[0] != stamp:
            return False
        if same_plan is not None:
            same_plan.add(u.key)
        return True

    def _route_record(self, hops: list[_Hop]) -> tuple[dict[str, str], ...]:
        """The route as the records give it; a hop keyed by a shore station whose figures are in part
        stand-ins says so (``stand_in``), as the message's passage may rest on them."""
        out = []
        for h in hops:
            src = self._vertices[h.src]
            hop = {"from": src.label, "to": self._vertices[h.dst].label, "by": h.by}
            if h.by == "wireless" and src.stand_in:
                hop["stand_in"] = src.stand_in
            out.append(hop)
        return tuple(out)

    # -- sending --------------------------------------------------------------------------------

    def send(self, sender: str, receiver: str, kind: str, content: Mapping[str, Any], text: str) -> Message:
        """Send a message now; records ``message_sent`` and starts its delivery process."""
        if kind not in KINDS:
            raise ValueError(f"message kind {kind!r}; kinds are {', '.join(KINDS)}")
        src, dst = self._node(sender), self._node(receiver)
        if src is dst:
            raise ValueError(f"node {sender!r} cannot send a message to itself")
        now = self.env.now
        msg = Message(f"M{next(self._ids):04d}", sender, receiver, kind, _freeze(dict(content)), text, now)
        plan = self._plan(msg, src, now, None)
        lat, lon = src.position(now)
        self.emit(now, "message_sent", src.label, src.side, lat, lon, id=msg.id, sender=sender,
                  receiver=receiver, kind=kind, text=text,
                  route=self._route_record(plan[0]) if plan else None,
                  expected_delay_min=round(plan[1] - now, 3) if plan else None, held=plan is None)
        self.env.process(self.transmit(msg, src, dst, plan))
        return msg

    def transmit(self, msg: Message, src: _Vertex, dst: _Vertex,
                 plan: tuple[list[_Hop], float] | None) -> Generator[simpy.Event, Any, None]:
        """The message's journey: handled and passed on hop by hop, re-routed, held or jammed as needed."""
        here, came_by = src, None
        taken: list[_Hop] = []
        hops = plan[0] if plan else None
        while here is not dst:
            if hops is None:
                hops = yield from self._hold(msg, here, came_by)
                if hops is None:
                    return
            hop = hops[0]
            nxt = self._vertices[hop.dst]
            if here.kind == "telegraph" and came_by == DISPATCHED:
                # Handed in by the message's headquarters: its dispatch covered the handling.
                ok = hop.by != "local" or nxt.kind != "node" or nxt.station == here.label
            else:
                with here.resource.request() as req:
                    yield req
                    yield self.env.timeout(self._handling(here, hop.by == "wireless",
                                                          self.data.wireless.transmit_min(msg.text), came_by))
                    ok = yield from self._key(msg, here, nxt, hop, src)
            if not ok:  # enciphered and keyed in vain: from here on it needs only re-keying
                came_by = came_by or "rekey"
                plan = self._plan(msg, here, self.env.now, came_by)
                hops = plan[0] if plan else None
                lat, lon = here.position(self.env.now)
                self.emit(self.env.now, "message_rerouted", here.label, self._side_of(here), lat, lon, id=msg.id,
                          at=here.label, reason="out of range" if hop.by == "wireless" else "left port",
                          route=self._route_record(hops) if hops else None)
                continue
            transit = self._transit(hop, here, self.env.now)
            if transit > 0:
                yield self.env.timeout(transit)
            taken.append(hop)
            here, came_by, hops = nxt, _arrival(hop, came_by), hops[1:]
        yield self.env.timeout(self.data.wireless.decipher_min)
        now = self.env.now
        lat, lon = dst.position(now)
        self.emit(now, "message_received", dst.label, dst.side, lat, lon, id=msg.id, sender=msg.sender,
                  receiver=msg.receiver, kind=msg.kind, delay_min=round(now - msg.sent_min, 3),
                  route=self._route_record(taken))
        if dst.on_receive is not None:
            dst.on_receive(msg, now)

    def _hold(self, msg: Message, here: _Vertex,
              came_by: str | None) -> Generator[simpy.Event, Any, list[_Hop] | None]:
        """No route: wait for the office's calls (:meth:`_calling`), every ``no_route_retry_min``, until
        one finds a route this message can take or ``hold_limit_min`` has passed, then lost."""
        env, w = self.env, self.data.wireless
        deadline = env.now + w.hold_limit_min
        key = (here.key, msg.sender, msg.receiver, came_by)
        call = self._calls.get(key)
        if call is None:
            call = self._calls[key] = _Call([], env.event())
            env.process(self._calling(key, call, here, came_by))
        call.held.append(msg)
        try:
            # A remainder below a second is rounding, not time: waiting it would not move the clock.
            while deadline - env.now > HOLD_SLACK_MIN:
                found = call.found
                yield env.any_of([found, env.timeout(deadline - env.now)])
                if not found.triggered:
                    continue  # the limit: the loop ends
                plan = self._plan(msg, here, env.now, came_by)
                if plan is not None:
                    lat, lon = here.position(env.now)
                    self.emit(env.now, "message_rerouted", here.label, self._side_of(here), lat, lon, id=msg.id,
                              at=here.label, reason="route found after holding", route=self._route_record(plan[0]))
                    return plan[0]
        finally:
            call.held.remove(msg)
        lat, lon = here.position(env.now)
        self.emit(env.now, "message_lost", here.label, self._side_of(here), lat, lon, id=msg.id,
                  sender=msg.sender, receiver=msg.receiver, reason="no route",
                  held_min=round(env.now - deadline + w.hold_limit_min, 3))
        return None

    def _calling(self, key: tuple[str, str, str, str | None], call: _Call, here: _Vertex,
                 came_by: str | None) -> Generator[simpy.Event, Any, None]:
        """The office's calls for what it holds under ``key``: every ``no_route_retry_min``, a route search
        for the oldest message held; one found wakes them all (each then takes its own route). Ends, and
        forgets ``key``, when nothing is held any longer."""
        env, retry = self.env, self.data.wireless.no_route_retry_min
        try:
            while True:
                yield env.timeout(retry)
                if not call.held:
                    return
                if self._plan(call.held[0], here, env.now, came_by) is not None:
                    found, call.found = call.found, env.event()
                    found.succeed()
        finally:
            del self._calls[key]

    # -- keying a wireless hop: range, jamming, interception -------------------------------------

    def _key(self, msg: Message, tx: _Vertex, rx: _Vertex, hop: _Hop,
             sender: _Vertex) -> Generator[simpy.Event, Any, bool]:
        """Key a hop now; for a wireless hop wait out jamming. False if the receiver is out of range, or
        is a ship no longer at the telegraph station that was to hand it to her (she has sailed)."""
        if hop.by == "local" and tx.kind == "telegraph" and rx.kind == "node":
            return rx.station == tx.label
        if hop.by != "wireless":
            return True
        jammed_since: float | None = None
        while True:
            if not self._in_range(tx, rx, self.env.now):
                return False
            jammers = self._jammers(tx, rx, sender)
            if not jammers:
                break
            if jammed_since is None:
                jammed_since = self.env.now
                lat, lon = tx.position(self.env.now)
                self.emit(self.env.now, "message_jammed", tx.label, self._side_of(tx), lat, lon, id=msg.id,
                          hop={"from": tx.label, "to": rx.label}, jammers=tuple(j.label for j in jammers))
            yield self.env.any_of([self.env.timeout(self.data.wireless.jam_retry_min), self._jam_changed])
        if tx.kind == "node":
            self._intercepted(tx)
        return True

    def _jammers(self, tx: _Vertex, rx: _Vertex, sender: _Vertex) -> list[_Vertex]:
        now = self.env.now
        out = []
        send: tuple[float, float, float, float] | None = None  # the hop measured, once a set may jam it
        for j in self._radios:  # only a set jams
            if not (j.jamming and j.set is not None and self.hostile(j.side, sender.side)):
                continue
            if send is None:
                # (Most hops go unjammed: a commander jams only while the enemy is in sight.)
                rlat, rlon = rx.position(now)
                tlat, tlon = tx.position(now)
                send = rlat, rlon, float(distance_nm(tlat, tlon, rlat, rlon)), self._range(tx, rx, now)
            rlat, rlon, d_send, r_send = send
            jlat, jlon = j.position(now)
            d_jam = float(distance_nm(jlat, jlon, rlat, rlon))
            r_jam = self._range(j, rx, now)
            if d_jam <= r_jam and d_jam / r_jam <= self.data.wireless.jam_margin * d_send / r_send:
                out.append(j)
        return out

    def _intercepted(self, tx: _Vertex) -> None:
        """Tell every hostile node within hearing the sea and area of a transmission, and record it."""
        now = self.env.now
        tlat, tlon = tx.position(now)
        # The sender's sea and area, looked up once someone hears it (about half the transmissions go unheard).
        heard: tuple[str, str] | tuple[None, None] | None = None
        factor = self.data.wireless.intercept_factor
        xyz = self._xyz((tlat, tlon))
        for v in self._radios:  # a snapshot: a listener's callback may register a node
            if v.kind != "node" or v is tx or v.set is None or not self.hostile(v.side, tx.side):
                continue
            assert tx.set is not None
            rf = v.set.receive_factor
            # Hearing is the range by day or by night (times the factor): a chord beyond both settles it.
            hearing_nm = max(tx.set.day_nm * rf * factor, tx.set.night_nm * rf * factor)
            # A listener that a route search placed, on the plan it still has, farther from here then than
            # that chord and all it can have steamed since, is beyond it now: not placed again (about half
            # of them in the historical campaign).
            if self._out_of_reach(v, xyz, now, beyond_chord_m(hearing_nm)):
                continue
            llat, llon = v.position(now)
            if beyond(xyz, self._xyz((llat, llon)), hearing_nm):
                continue
            if float(distance_nm(tlat, tlon, llat, llon)) <= self._range(tx, v, now) * factor:
                if heard is None:
                    heard = self.sea_areas.sea_area_at(tlat, tlon) or (None, None)
                sea, area = heard
                self.emit(now, "intercept", v.label, v.side, llat, llon, sea=sea, area=area)
                if v.on_intercept is not None:
                    v.on_intercept({"sea": sea, "area": area, "t_min": now}, now)


def _covered(tried: Iterable[tuple[float, float, bool]], v_set: WirelessSet, shore: bool) -> bool:
    """Can a set's wireless hops improve no route a search has found, the hops of ``tried`` having been
    tried from the same place at the same minute of keying? ``tried``: (day nm, night nm, shore station?)
    of those sets; ``shore``: is the set a shore station's.

    So it is when one of them reaches at least as far by day and by night, and tried every end this one
    may try (a shore station tries only ships' sets, a ship's set every set). At one place and minute the
    light and every other set's place are the same, so whatever this set reaches that one reached, at
    the same minute: no end would be reached sooner. The search's answer is the same either way; only the
    cost differs (ships lying in one port, or in company, reached together, try their hops once)."""
    return any(day_nm >= v_set.day_nm and night_nm >= v_set.night_nm and (shore or not tried_shore)
               for day_nm, night_nm, tried_shore in tried)


def _arrival(hop: _Hop, came_by: str | None) -> str:
    """How a message reached ``hop.dst``: by the hop's medium, or DISPATCHED when the originating
    headquarters handed it to its own telegraph station (its dispatch minutes put it on the wire)."""
    return DISPATCHED if hop.by == "local" and came_by is None else hop.by


def _hops_back(back: Mapping[str, tuple[str, str, float, float | None]], start: str, end: str) -> list[_Hop]:
    """The hops of a route search's best path from ``start`` to ``end``, from its back links
    (vertex -> (from, by, length_nm, circuit minutes)): hops are built only for the route taken."""
    hops: list[_Hop] = []
    key = end
    while key != start:
        src, by, length_nm, through = back[key]
        hops.append(_Hop(src, key, by, length_nm, through))
        key = src
    return hops[::-1]


def _fixed(lat: float, lon: float) -> Position:
    return lambda _t: (lat, lon)
