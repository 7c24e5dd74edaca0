"""The helm of every ship in a battle: admirals, signals, station keeping, rams and the watch.

Each strategic force in the battle is a squadron under its flagship (the first of its ships). Every
tick (``plan``) each admiral looks at the enemy (``admiral.decide``) and alters his squadron's course or
speed when the situation calls for it: a column led by its flagship alters in succession at once, as the
1905 rules allow; anything else (a turn together, a change of speed, an alteration by a column that
another ship leads) is a signal, executed when the engine's rules say (``Command.signal_delay_s``).
Between ticks, at every step of the plane's motion (``want``), the leader steers the squadron's course,
the others keep station on her (``station``), a captain who can ram an enemy steers to, and the officer
of the watch alters for any hull she would otherwise meet (``avoid``). A ship alone, one that can no
longer keep up with her squadron, and every ship in the 1905 melee is handled by her own captain with the
same judgement as an admiral. The land is kept clear by ``campaign.tactics.searoom``.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType

from campaign.tactics.helm.admiral import Aim, alteration_deg, decide, intercept_course_deg
from campaign.tactics.helm.avoid import avoid, made_good_kn
from campaign.tactics.helm.rules import HelmRules
from campaign.tactics.helm.station import Wake, follow_wake, keep_bearing, speed_to_regain_kn
from campaign.tactics.kinematics import angle_diff_deg, range_yd
from campaign.tactics.plane.motion import Body
from campaign.tactics.protocol import BattleSetup, Command, HelmOrder, ShipView, TickEvent
from campaign.tactics.searoom import SeaRoom

COLUMN, LINE_OF_BEARING = "column", "line_of_bearing"
#: A change of squadron speed smaller than this (kn) is not signalled (nor one flying replaced).
SPEED_SIGNAL_KN = 0.5
#: The wake is kept this far behind the last ship's place (yd), beyond what station keeping needs.
WAKE_SPARE_YD = 600.0


@dataclass(frozen=True)
class Signal:
    """A signal hoisted by an admiral: ``kind`` in_succession, together or speed."""

    kind: str
    course_deg: float
    speed_kn: float
    hoisted_s: float
    executes_s: float


@dataclass
class Squadron:
    """One force's ships in formation, leader first, and what its admiral has ordered."""

    unit: str
    side: str
    members: list[str]
    course_deg: float
    speed_kn: float
    wake: Wake
    formation: str = COLUMN
    offsets: dict[str, tuple[float, float]] = field(default_factory=dict)
    mode: str | None = None
    enemy_side: float | None = None
    altered_s: float = -math.inf
    pending_course: Signal | None = None
    pending_speed: Signal | None = None
    hints: dict[str, int] = field(default_factory=dict)

    @property
    def leader(self) -> str:
        return self.members[0]


@dataclass
class Captain:
    """A ship handled alone: what her captain has ordered."""

    name: str
    course_deg: float
    speed_kn: float
    mode: str | None = None
    enemy_side: float | None = None
    altered_s: float = -math.inf


class Helm:
    """The helm of one battle (a ``campaign.tactics.plane.motion.Pilot``)."""

    def __init__(self, setup: BattleSetup, rules: HelmRules, preferred_range_yd: Mapping[str, float] | None = None,
                 preferred_cap_yd: float | None = None, sea_room: SeaRoom | None = None) -> None:
        self.rules = rules
        self.preferred = dict(preferred_range_yd or {})
        self.preferred_cap_yd = preferred_cap_yd
        self.sea_room = sea_room
        self.intents: dict[str, str] = dict(setup.intents)
        self.command = Command()
        self.squadrons: dict[str, Squadron] = {}
        self.captains: dict[str, Captain] = {}
        self.flagship: dict[str, str] = {}
        self.ships = {c.name: c.ship for c in setup.combatants}
        self.views: dict[str, ShipView] = {}
        self.steer_course: dict[str, float] = {}  # leader's or lone ship's course after the sea-room check
        self.rams: dict[str, str] = {}
        self.avoid_sides: dict[str, float] = {}
        self.cap_yd: float | None = None
        units: dict[str, list] = {}
        for c in setup.combatants:
            units.setdefault(c.unit, []).append(c)
        for unit, cs in units.items():
            lead = cs[0]
            self.flagship[unit] = next((c.name for c in cs if c.flagship), lead.name)
            if len(cs) == 1:
                self.captains[lead.name] = Captain(lead.name, lead.course_deg, lead.speed_kn)
                continue
            behind = len(cs) * rules.spacing_yd + WAKE_SPARE_YD
            self.squadrons[unit] = Squadron(unit, lead.side, [c.name for c in cs], lead.course_deg, lead.speed_kn,
                                            Wake(lead.x_yd, lead.y_yd, lead.course_deg, behind))

    # -- each tick: the admirals ------------------------------------------------------------------

    def plan(self, t_s: float, views: Sequence[ShipView], intents: Mapping[str, str], command: Command,
             cap_yd: float | None = None) -> list[TickEvent]:
        """The admirals' and captains' decisions for the coming tick; returns the signals hoisted."""
        self.command = command
        self.intents = dict(intents)
        self.views = {v.name: v for v in views}
        self.cap_yd = cap_yd
        self._muster()
        events: list[TickEvent] = []
        for sq in list(self.squadrons.values()):
            if command.formations:
                events += self._admiral(t_s, sq)
                continue
            for name in sq.members:  # in the melee every captain handles his own ship
                if name not in self.captains:
                    v = self.views[name]
                    self.captains[name] = Captain(name, v.course_deg, v.speed_kn, sq.mode, sq.enemy_side)
        for cap in self.captains.values():
            if self._alone(cap.name):
                self._captain(t_s, cap)
        self._plan_rams()
        return events

    def _alone(self, name: str) -> bool:
        return not any(name in sq.members for sq in self.squadrons.values()) or not self.command.formations

    def _muster(self) -> None:
        """Drop from each squadron the ships sunk and the ships that cannot keep up (they go on alone)."""
        v = self.views
        for unit, sq in list(self.squadrons.items()):
            leader = sq.members[0] if sq.members else None
            sq.members = [n for n in sq.members if n in v and v[n].afloat]
            while len(sq.members) >= 2:
                slow = [n for n in sq.members
                        if v[n].max_speed_kn <= 0.0 or v[n].max_speed_kn < self.rules.keep_up_fraction * min(
                            v[o].max_speed_kn for o in sq.members if o != n)]
                if not slow:
                    break
                worst = min(slow, key=lambda n: v[n].max_speed_kn)
                sq.members.remove(worst)
                self.captains[worst] = Captain(worst, v[worst].course_deg, v[worst].speed_kn)
            if len(sq.members) <= 1:
                for n in sq.members:
                    self.captains[n] = Captain(n, v[n].course_deg, v[n].speed_kn, sq.mode, sq.enemy_side)
                del self.squadrons[unit]
                continue
            if sq.members[0] != leader:
                lead = v[sq.members[0]]
                sq.wake = Wake(lead.x_yd, lead.y_yd, lead.course_deg, len(sq.members) * self.rules.spacing_yd
                               + WAKE_SPARE_YD)
                sq.hints.clear()

    def _enemies(self, side: str) -> list[ShipView]:
        return [e for e in self.views.values() if e.afloat and e.side != side]

    def _running(self) -> set[str]:
        return {s for s, i in self.intents.items() if i == "break_off"}

    def _pref_yd(self, side: str, gun_range_yd: float) -> float:
        pref = self.preferred.get(side)
        if not pref:
            pref = self.rules.preferred_range_fraction * gun_range_yd
            for cap in (self.cap_yd, self.preferred_cap_yd):
                if cap is not None:
                    pref = min(pref, cap)
        return pref

    def _speeds(self, names: Sequence[str], aim: Aim, squadron: bool) -> float:
        best = min(self.views[n].max_speed_kn for n in names)
        c = self.command
        if c.reserve_fraction > 0.0 and (c.reserve_for_all or (squadron and aim.fleet_speed)):
            return best / (1.0 + c.reserve_fraction)
        return best

    def _aim(self, lead: ShipView, names: Sequence[str], mode: str | None, side: float | None, course_deg: float
             ) -> tuple[Aim, float | None, float]:
        gun = max((self.views[n].gun_range_yd for n in names if self.views[n].can_fire), default=lead.gun_range_yd)
        best = min(self.views[n].max_speed_kn for n in names)
        aim, side = decide(lead, self._enemies(lead.side), self.intents.get(lead.side, "engage"), self._running(),
                           mode, side, course_deg, self._pref_yd(lead.side, gun), gun, best, self.rules)
        return aim, side, self._speeds(names, aim, len(names) > 1)

    def _admiral(self, t_s: float, sq: Squadron) -> list[TickEvent]:
        """The admiral's alterations of course and speed for his squadron: a turn in succession of a
        column his flagship leads is made at once (the head of the column turns, the rest follow in her
        wake); a turn together, an alteration by a column another ship leads, and a change of speed are
        signals, executed when the rules say. A signal flying is replaced only by one that differs by
        more than the deadband (of course) or half a knot (of speed)."""
        lead = self.views[sq.leader]
        aim, sq.enemy_side, speed = self._aim(lead, sq.members, sq.mode, sq.enemy_side, sq.course_deg)
        sq.mode = aim.mode
        events: list[TickEvent] = []
        planned = sq.pending_course.course_deg if sq.pending_course else sq.course_deg
        course = self._alteration(t_s, sq.altered_s, planned, aim)
        if course is not None:
            sq.altered_s = t_s
            turn = float(angle_diff_deg(sq.course_deg, course))
            together = aim.mode == "run" and (abs(turn) > self.rules.turn_away_together_deg
                                              or sq.formation == LINE_OF_BEARING)
            kind = "together" if together else "in_succession"
            free = (kind == "in_succession" and sq.formation == COLUMN and self.command.column_head_free
                    and sq.leader == self.flagship[sq.unit])
            events.append(self._hoist(t_s, sq, Signal(kind, course, sq.speed_kn, t_s,
                                                     t_s + (0.0 if free else self.command.signal_delay_s)), free))
        planned_kn = sq.pending_speed.speed_kn if sq.pending_speed else sq.speed_kn
        if abs(speed - planned_kn) >= SPEED_SIGNAL_KN:
            events.append(self._hoist(t_s, sq, Signal("speed", sq.course_deg, speed, t_s,
                                                     t_s + self.command.signal_delay_s), False))
        self.steer_course[sq.leader] = self._clear_of_land(lead, sq.course_deg, sq.speed_kn)
        return events

    def _hoist(self, t_s: float, sq: Squadron, sig: Signal, free: bool) -> TickEvent:
        """Hoist a signal (or, ``free`` or with no delay, carry it out at once) and record it."""
        if sig.executes_s <= t_s:
            if sig.kind == "speed":
                sq.pending_speed = None
            else:
                sq.pending_course = None
            self._execute(sq, sig, None)
        elif sig.kind == "speed":
            sq.pending_speed = sig
        else:
            sq.pending_course = sig
        flag = self.flagship[sq.unit]
        return TickEvent(t_s, "signal", flag if flag in sq.members else sq.leader, None, MappingProxyType({
            "unit": sq.unit, "kind": sig.kind, "signalled": not free, "ships": tuple(sq.members),
            "course_deg": round(sig.course_deg, 1), "speed_kn": round(sig.speed_kn, 2),
            "executes_at_s": round(sig.executes_s, 1), "mode": sq.mode}))

    def _captain(self, t_s: float, cap: Captain) -> None:
        v = self.views[cap.name]
        if not v.afloat:
            return
        aim, cap.enemy_side, speed = self._aim(v, [cap.name], cap.mode, cap.enemy_side, cap.course_deg)
        cap.mode = aim.mode
        course = self._alteration(t_s, cap.altered_s, cap.course_deg, aim)
        if course is not None:
            cap.course_deg, cap.altered_s = course, t_s
        cap.speed_kn = speed
        self.steer_course[cap.name] = self._clear_of_land(v, cap.course_deg, cap.speed_kn)

    def _alteration(self, t_s: float, altered_s: float, current_deg: float, aim: Aim) -> float | None:
        """The new course to order, or None to hold the present one (``admiral.alteration_deg``); an
        alteration is held ``min_hold_s`` before the next, save in a flight or a chase."""
        if aim.mode not in ("run", "chase") and t_s - altered_s < self.rules.min_hold_s:
            return None
        return alteration_deg(current_deg, aim.course_deg, aim, self.rules)

    def _clear_of_land(self, v: ShipView, course_deg: float, speed_kn: float) -> float:
        if self.sea_room is None:
            return course_deg
        return self.sea_room.steer_clear([v], {v.name: HelmOrder(course_deg, speed_kn)})[v.name].course_deg

    def _plan_rams(self) -> None:
        """A captain whose side means to fight rams an enemy within range that he can overtake by the
        rules' margin (seed 004 l.55), where the rules know ramming, if she is of the kinds the period's
        captains rammed and less than the rules' fraction of his ship's size (data file, ``ram``)."""
        self.rams.clear()
        if not self.command.ram:
            return
        r = self.rules
        for v in self.views.values():
            if not v.afloat or self.intents.get(v.side) != "engage" or v.max_speed_kn <= 0.0:
                continue
            mine = self.ships[v.name]
            near = [(float(range_yd(v.x_yd, v.y_yd, e.x_yd, e.y_yd)), e) for e in self._enemies(v.side)
                    if self.ships[e.name].type in r.ram_types
                    and self.ships[e.name].displacement_t <= r.ram_size_fraction * mine.displacement_t]
            near = [(d, e) for d, e in near if d <= r.ram_range_yd
                    and v.max_speed_kn >= max(0.0, e.speed_kn) + r.ram_speed_superiority_kn]
            if near:
                self.rams[v.name] = min(near, key=lambda p: p[0])[1].name

    # -- signals ----------------------------------------------------------------------------------

    def _execute(self, sq: Squadron, sig: Signal, bodies: Mapping[str, Body] | None) -> None:
        """Carry out a signal: a turn in succession (forming column on the leading ship if the squadron was
        in line of bearing), a turn together (every ship at once; a line of bearing, led by whichever ship
        is then ahead), or a change of speed."""
        if sig.kind == "speed":
            sq.speed_kn = sig.speed_kn
            return
        turn = float(angle_diff_deg(sq.course_deg, sig.course_deg))
        sq.course_deg = sig.course_deg
        if sig.kind == "in_succession" and sq.formation == COLUMN:
            return
        pos = {n: ((bodies[n].x_yd, bodies[n].y_yd) if bodies and n in bodies
                   else (self.views[n].x_yd, self.views[n].y_yd)) for n in sq.members}
        c = math.radians(sig.course_deg)
        if sig.kind == "in_succession" or abs(turn) > 90.0:
            # The ship now farthest ahead on the new course leads (after a turn together of more than
            # eight points the rear ship is the van).
            sq.members.sort(key=lambda n: -(pos[n][0] * math.sin(c) + pos[n][1] * math.cos(c)))
        lx, ly = pos[sq.leader]
        if sig.kind == "in_succession":
            sq.formation = COLUMN
            sq.offsets.clear()
        else:
            sq.formation = LINE_OF_BEARING
            sq.offsets = {n: (pos[n][0] - lx, pos[n][1] - ly) for n in sq.members}
        sq.wake = Wake(lx, ly, sig.course_deg, len(sq.members) * self.rules.spacing_yd + WAKE_SPARE_YD)
        sq.hints.clear()

    # -- every step of the motion -----------------------------------------------------------------

    def want(self, t_s: float, bodies: Sequence[Body]) -> dict[str, HelmOrder]:
        """Every ship's course and speed at ``t_s`` (``campaign.tactics.plane.motion.Pilot``): the orders,
        then the watch."""
        return self.watch(bodies, self.orders(t_s, bodies))

    def watch(self, bodies: Sequence[Body], wants: Mapping[str, HelmOrder]) -> dict[str, HelmOrder]:
        """The officers of the watch: ``wants`` altered where a ship would otherwise meet another hull."""
        return avoid(bodies, wants, self.rules, self.avoid_sides)

    def orders(self, t_s: float, bodies: Sequence[Body]) -> dict[str, HelmOrder]:
        """Every ship's course and speed at ``t_s`` as her admiral, her station and her captain would have
        them, before the watch: signals due are executed first."""
        by = {b.name: b for b in bodies}
        wants: dict[str, HelmOrder] = {}
        for sq in self.squadrons.values():
            for slot in ("pending_course", "pending_speed"):
                sig = getattr(sq, slot)
                if sig is not None and t_s >= sig.executes_s - 1e-9:
                    setattr(sq, slot, None)
                    self._execute(sq, sig, by)
                    lead = self.views.get(sq.leader)
                    if lead is not None:
                        self.steer_course[sq.leader] = self._clear_of_land(lead, sq.course_deg, sq.speed_kn)
            if self.command.formations:
                wants.update(self._station(sq, by))
        for name, cap in self.captains.items():
            if name in by and self._alone(name):
                wants[name] = HelmOrder(self.steer_course.get(name, cap.course_deg), cap.speed_kn)
        for name, target in self.rams.items():
            me, it = by.get(name), by.get(target)
            if me is None or it is None:
                continue
            full = self.views[name].max_speed_kn
            course = intercept_course_deg(me.x_yd, me.y_yd, full, _view_of(it, self.views[target]))
            wants[name] = HelmOrder(course, full, target)
        return wants

    def _station(self, sq: Squadron, by: Mapping[str, Body]) -> dict[str, HelmOrder]:
        """The leader steers the squadron's course; in column each other ship follows the leader's wake
        ``spacing_yd`` astern of her next ahead, at her speed and what it takes to regain her distance; in
        line of bearing each keeps her place about the leader."""
        lead = by.get(sq.leader)
        out: dict[str, HelmOrder] = {}
        if lead is None:
            return out
        sq.wake.add(lead.x_yd, lead.y_yd)
        out[sq.leader] = HelmOrder(self.steer_course.get(sq.leader, sq.course_deg), sq.speed_kn)
        r = self.rules
        ahead_s, ahead_kn = sq.wake.head_s, made_good_kn(lead)
        for name in sq.members[1:]:
            b = by.get(name)
            if b is None:
                continue
            top = self.views[name].max_speed_kn
            if sq.formation == COLUMN:
                course, s, seg = follow_wake(sq.wake, b.x_yd, b.y_yd, r.lookahead_yd, lead.course_deg,
                                             sq.hints.get(name))
                sq.hints[name] = seg
                speed = speed_to_regain_kn(ahead_kn, ahead_s - r.spacing_yd - s, r.station_time_s)
                ahead_s, ahead_kn = s, made_good_kn(b)
            else:
                dx, dy = sq.offsets.get(name, (0.0, 0.0))
                course, speed = keep_bearing(b.x_yd, b.y_yd, lead.x_yd + dx, lead.y_yd + dy, sq.course_deg,
                                             lead.speed_kn, r.station_time_s)
            out[name] = HelmOrder(course, max(0.0, min(top, speed)))
        cut = sq.wake.trim(len(sq.members) * r.spacing_yd + r.lookahead_yd + WAKE_SPARE_YD)
        if cut:
            sq.hints = {n: max(0, h - cut) for n, h in sq.hints.items()}
        return out


def _view_of(b: Body, v: ShipView) -> ShipView:
    """A ship's view with the plane's present place, course and speed."""
    return ShipView(v.name, v.side, v.unit, b.x_yd, b.y_yd, b.course_deg, b.speed_kn, v.max_speed_kn, v.afloat,
                    v.can_fire, v.gun_range_yd, v.fighting_value)
