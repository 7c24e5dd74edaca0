"""The zoom: hostile forces that close are handed to a tactical engine, fought tick by tick, and handed back.

Whenever two hostile forces come in sight, a watcher checks their range at the engine's approach step
(the 1905 umpire's 15-minute moves, Jane's 10-minute moves: ``data/tactics/zoom.yaml``; sooner when they
close fast, and just after the light changes when the dark alone keeps them apart) for as long as either
sees the other. When fire is allowed between them by the political timeline (one side may fire on
the other; the other then fires back, seed 000), at least one commander means to engage (his standing
instructions: leave to fire and ``on_contact`` chase or engage), both are at sea, the light allows, and
the nearest ships are within the engine's battle range, the battle begins: both forces stop their
strategic business, the fight is projected onto a pyproj azimuthal-equidistant plane centred on it, and
``campaign.tactics.battle.BattleRun`` plays it one SimPy timeout per tick, so that forces elsewhere keep
moving and messages keep flowing. When it ends, damage, speed lost, coal burnt at the speeds steamed and
the final positions flow back, sunk ships leave their forces, a ship that can no longer move is left
behind as a force of her own, and the commanders decide again (a side that broke off may be chased):
``campaign.world.zoom_out``.

Records: ``engagement_start`` and ``engagement_end`` (every ship in it), and from the engine's ticks
``fire``, ``hit``, ``torpedo``, ``ram``, ``collision``, ``sunk``, ``break_off``, ``admiral_disabled``,
``signal``; then ``battle_track``.
"""

from __future__ import annotations

import math
from collections.abc import Generator
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

import numpy as np
import simpy

from campaign.geo.earth import distance_nm
from campaign.tactics.battle import BattleOutcome, BattleRun
from campaign.tactics.battle_records import row_latlon, tick_fields
from campaign.tactics.engines import get_engine
from campaign.tactics.helm import default_helm_rules
from campaign.tactics.kinematics import YD_PER_NM
from campaign.tactics.localplane import LocalPlane
from campaign.tactics.nwc1905_rules import load_rules as load_nwc1905_rules
from campaign.tactics.plane.layout import clear_layout
from campaign.tactics.protocol import BattleSetup, Combatant, Setting, tactical_light
from campaign.tactics.searoom import SeaRoom
from campaign.tactics.zoom import default_zoom_rules
from campaign.world import steaming
from campaign.world.settlement import ContactClock, close_range_yd, settle
from campaign.world.station import ship_latlon
from campaign.world.units import ForceState, ShipState
from campaign.world.zoom_out import zoom_out

if TYPE_CHECKING:
    from campaign.world.world import World

# The shortest wait between two looks at an approaching pair (min): a helm's answer (command.py); and the
# span over which their closing rate is measured.
MIN_LOOK_MIN = 1.0
# The shortest wait for a pair closing on the range at which their battle begins (min): 3 s, in which two
# ships closing at 45 knots run 76 yards. By a dark night their hulls are seen at 1,000 yards or less
# (seed 004), which such a pair closes in 40 s: a look a minute on would open the battle with their hulls
# already run through one another.
NEAREST_LOOK_MIN = 0.05
# How long after a change of light a pair held apart by the dark is looked at again (min): 6 s, well beyond
# the tolerance of the change's time (campaign.world.light.CROSSING_TOL, 0.25 s), so the look finds the
# new light.
AFTER_CHANGE_MIN = 0.1
# Records written from the engine's tick events.
TICK_RECORDS = {"fire", "hit", "torpedo", "ram", "collision", "sunk", "break_off", "admiral_disabled", "signal"}


@dataclass
class Fight:
    """A battle in progress in the world, and what the replay needs of it afterwards."""

    number: int
    forces: list[ForceState]
    plane: LocalPlane
    start_min: float
    done: simpy.Event
    outcome: BattleOutcome | None = None
    names: dict[str, str] = field(default_factory=dict)  # ship -> force
    # Each force's speed (knots) on the leg it was steaming when the battle began (0 lying still): its
    # ships go into action at it. The legs end as the battle begins, so it is kept here.
    speeds_kn: dict[str, float] = field(default_factory=dict)
    # The ships as the battle opens, where each is on the plane.
    combatants: tuple[Combatant, ...] = ()


class Engagements:
    """Every battle of one world: the watchers, the zoom in, the fight, the zoom out."""

    def __init__(self, world: World, engine: str) -> None:
        self.world = world
        self.engine_name = engine
        self.engine = get_engine(engine, world.scenario.damage)  # the scenario's damage option, if any
        self.zoom = default_zoom_rules()
        self.rules = self.zoom.engines[engine]
        self.rng = world.rng["combat"]
        self.watching: set[frozenset[str]] = set()
        # The 1905 umpire settles contacts that linger out of battle (seed 002 l.35): under his rules only.
        self.umpire = load_nwc1905_rules() if engine == "nwc1905" else None
        self.fights: list[Fight] = []
        world.contacts.listen(self.on_contact)

    # -- who may fight ---------------------------------------------------------------------------

    def fire_allowed(self, a: ForceState, b: ForceState) -> bool:
        """May shots pass between the two forces now? Either may fire on the other by the political
        timeline; the other then fires back (seed 000: 'the Germans can't fire on the British until the
        British fire on them')."""
        w = self.world
        one_way = w.may_fire(a.nation, b.nation) or w.may_fire(b.nation, a.nation)
        return one_way if self.zoom.fire_back else (w.may_fire(a.nation, b.nation) and w.may_fire(b.nation, a.nation))

    def means_to_engage(self, force: ForceState, enemy: ForceState) -> bool:
        """Does the force's commander mean to fight this enemy? Only warships, only with leave to fire by
        the political timeline AND in the commander's own belief about the enemy's nation (he may not
        yet know of a war; he may believe, wrongly, that he may fire on a nation he is not at war with,
        and then he still may not: ``Standing.believes_may_fire``), and only if his instructions on
        meeting the enemy are to chase or engage."""
        if all(s.ship.is_merchant for s in force.active_ships()):
            return False
        if not self.world.may_fire(force.nation, enemy.nation):
            return False
        node = self.world.command.nodes.get(force.name)
        st = node.standing if node is not None else None
        return st is not None and st.believes_may_fire(enemy.nation) and st.on_contact in ("chase", "engage")

    # -- watching an approach --------------------------------------------------------------------

    def on_contact(self, observer: str, target: str, old: int, new: int, info: Any) -> None:
        if new == 0:
            return
        key = frozenset((observer, target))
        if key in self.watching:
            return
        self.watching.add(key)
        self.world.env.process(self._watch(observer, target, key))

    def _close(self, a: ForceState, b: ForceState, range_yd: float) -> bool:
        """Are the pair in the 1905 umpire's close contact: within his distance, out of battle, able to fire
        on each other and one of them meaning to (``campaign.world.settlement``)?"""
        if a.battle is not None or b.battle is not None or a.in_port or b.in_port or a.interned or b.interned:
            return False
        if range_yd > close_range_yd(self.umpire, a, b) or not self.fire_allowed(a, b):
            return False
        return self.means_to_engage(a, b) or self.means_to_engage(b, a)

    def _in_contact(self, a: str, b: str) -> bool:
        pairs = self.world.contacts.model.pairs
        return any((st := pairs.get(k)) is not None and st.level > 0 for k in ((a, b), (b, a)))

    def _range_yd(self, a: ForceState, b: ForceState) -> float:
        now = self.world.env.now
        la, lo, _ = a.position_at(now)
        lb, lob, _ = b.position_at(now)
        return distance_nm(la, lo, lb, lob) * YD_PER_NM

    def _next_look_min(self, a: ForceState, b: ForceState, step_min: float,
                       start_yd: float | None = None, range_yd: float | None = None) -> float:
        """Minutes to the next look at the pair: the approach step, or sooner, when at their present
        courses and speeds the range will have fallen to ``start_yd`` (default the battle range; after a
        battle, the range the chasers must get inside to fight again). Two forces closing at 40 kn run
        13 nm in a 15-minute step: looking only at the step would let a battle open well inside its
        range, at torpedo range (the umpire shortens the moves as forces close: seed 002). ``range_yd``:
        the pair's range now, when the caller has measured it. Nearer than the battle range, the range
        at which their hulls come in sight (by night, in haze) is looked for the same way."""
        now = self.world.env.now
        start_yd = self.rules.battle_start_yd if start_yd is None else min(start_yd, self.rules.battle_start_yd)
        r_now = self._range_yd(a, b) if range_yd is None else range_yd
        if r_now <= start_yd:
            start_yd = min(start_yd, self._hull_range_yd(a, b))
        if r_now <= start_yd:
            return step_min
        # The closing rate now (over the next minute: a leg may end, and the force be steered anew,
        # within the step).
        la, lo, _ = a.position_at(now + MIN_LOOK_MIN)
        lb, lob, _ = b.position_at(now + MIN_LOOK_MIN)
        r_next = distance_nm(la, lo, lb, lob) * YD_PER_NM
        if r_next >= r_now:
            return step_min
        rate_yd_per_min = (r_now - r_next) / MIN_LOOK_MIN
        return min(step_min, max((r_now - start_yd) / rate_yd_per_min, NEAREST_LOOK_MIN))

    def _ready(self, a: ForceState, b: ForceState, *, light: bool = True, range_yd: float | None = None) -> bool:
        """May the pair's battle begin now? (``light`` False: whatever the light and the weather let them
        see; ``range_yd``: the pair's range now, when the caller has measured it.)"""
        for f in (a, b):
            if not f.active_ships() or f.in_port or f.interned or f.battle is not None:
                return False
        # The range first: a pair in sight is mostly beyond battle range, and it is the cheapest to ask.
        if (self._range_yd(a, b) if range_yd is None else range_yd) > self.rules.battle_start_yd:
            return False
        if not self.fire_allowed(a, b):
            return False
        if not (self.means_to_engage(a, b) or self.means_to_engage(b, a)):
            return False
        if not light:
            return True
        if self._held_by_dark(a):
            return False
        # Nor before the hulls are in sight of each other (smoke may be seen far beyond): a battle begun
        # out of sight would end at once, separated, and begin again at the next look. Like the dark, it
        # is the light and weather that hold them apart. Nor across land, which hides them from each other.
        if (self._range_yd(a, b) if range_yd is None else range_yd) > self._hull_range_yd(a, b):
            return False
        return not self._land_between(a, b)

    def _land_between(self, a: ForceState, b: ForceState) -> bool:
        """Whether land lies between the two forces now (``campaign.geo.sightline``)."""
        sight = self.world.contacts.model.sight_lines
        if sight is None:
            return False
        now = self.world.env.now
        la, lo, _ = a.position_at(now)
        lb, lob, _ = b.position_at(now)
        return sight.blocked(la, lo, lb, lob)

    def _hull_range_yd(self, a: ForceState, b: ForceState) -> float:
        """How far their hulls are seen now, in the light and weather where ``a`` is (yd): the battle's
        visibility (``_setting_at``)."""
        w = self.world
        now = min(w.env.now, w.end_min)
        model = w.contacts.model
        lat, lon, _ = a.position_at(now)
        light = model.conditions.light(lat, lon, now)
        vis = model.conditions.visibility(lat, lon, now)
        ships = [s.ship for f in (a, b) for s in f.active_ships()]
        if not ships:
            return 0.0  # nothing left afloat to be seen
        return model.rules.ranges(ships, light, vis, False)[1] * YD_PER_NM

    def _held_by_dark(self, a: ForceState) -> bool:
        """Is it dark where the force is, under rules that allow no night action?"""
        if self.rules.night_action:
            return False
        now = self.world.env.now
        lat, lon, _ = a.position_at(now)
        return tactical_light(self.world.contacts.model.conditions.light(lat, lon, now)) == "dark"

    def _wait_min(self, a: ForceState, b: ForceState, step_min: float, start_yd: float | None = None,
                  range_yd: float | None = None) -> float:
        """Minutes to the next look at the pair: :meth:`_next_look_min`, or sooner, just after the light
        next changes where ``a`` is if darkness alone holds them apart (else two forces in contact in the
        dark close unchecked until the next step, and the battle opens at moonrise or dawn at whatever
        range they have reached by the step, once at 145 yards). ``range_yd``: the pair's range now, when
        the caller has measured it."""
        wait = self._next_look_min(a, b, step_min, start_yd, range_yd)
        if (self.rules.night_action or not self._ready(a, b, light=False, range_yd=range_yd)
                or not self._held_by_dark(a)):
            return wait
        model = self.world.contacts.model
        motion = model.motions.get(a.name)
        if motion is None:
            return wait
        now = self.world.env.now
        change = model.conditions.next_change(motion, now, now + wait)
        if change is None:
            return wait
        return min(wait, change - now + AFTER_CHANGE_MIN)

    def _watch(self, a_name: str, b_name: str, key: frozenset[str]) -> Generator[simpy.Event, Any, None]:
        """Check the pair's range at the approach step while either sees the other."""
        w = self.world
        step = self.rules.approach_step_min
        gain = default_helm_rules().drawn_off_gain_yd
        rearm_yd = math.inf  # after a battle, the range the chasers must get inside to fight again
        clock = ContactClock()  # the 1905 umpire's: how long they have stayed close without a battle
        try:
            while w.env.now < w.end_min:
                a, b = w.forces[a_name], w.forces[b_name]
                if not a.active_ships() or not b.active_ships():
                    return
                # Measured once for the look: nothing moves until it yields.
                range_yd = self._range_yd(a, b)
                if self._ready(a, b, range_yd=range_yd) and range_yd < rearm_yd:
                    fight = self._begin(a, b)
                    yield from self._fight(fight)
                    # A battle that ended with the sides still in range (one drew off, or the clock ran
                    # out) is not fought again until the chase has gained on the runner: meanwhile the
                    # campaign's doctrine chases or shadows at the strategic level.
                    if a.active_ships() and b.active_ships():
                        rearm_yd = self._range_yd(a, b) - gain
                    yield w.env.timeout(0)  # the commanders' orders after the battle take effect first
                    # The next look as on the approach: at the step, or sooner if the chase will have
                    # gained that much by then (once, the step alone let the chasers close from the
                    # battle's last range to none, and the next battle open at torpedo range).
                    yield w.env.timeout(self._wait_min(a, b, step, rearm_yd))
                    continue
                if range_yd > self.rules.battle_start_yd:
                    rearm_yd = math.inf  # they have drawn apart: a new approach is a new battle
                wait = self._wait_min(a, b, step, rearm_yd, range_yd)
                if self.umpire is not None:
                    lasted = clock.look(self._close(a, b, range_yd), w.env.now)
                    if lasted > self.umpire.settle_duration_s / 60.0:
                        clock.look(False, w.env.now)
                        settle(w, self.umpire, a, b, self.rng)
                        continue
                    if clock.since_min is not None:  # look again when the hour is up
                        wait = min(wait, max(self.umpire.settle_duration_s / 60.0 - lasted, 0.0) + MIN_LOOK_MIN)
                if not self._in_contact(a_name, b_name) and a.battle is None and b.battle is None:
                    return
                yield w.env.timeout(wait)
        finally:
            self.watching.discard(key)

    # -- the zoom in -----------------------------------------------------------------------------

    def _joining(self, a: ForceState, b: ForceState) -> list[ForceState]:
        """The two forces and any other force of either side at sea within battle range of one of them."""
        out = [a, b]
        for f in self.world.forces.values():
            if f in out or f.side not in (a.side, b.side) or not f.active_ships():
                continue
            if f.in_port or f.interned or f.battle is not None:
                continue
            enemy = b if f.side == a.side else a
            if self.fire_allowed(f, enemy) and self._range_yd(f, enemy) <= self.rules.battle_start_yd:
                out.append(f)
        return out

    def _begin(self, a: ForceState, b: ForceState) -> Fight:
        w = self.world
        now = w.env.now
        forces = self._joining(a, b)
        speeds_kn = {f.name: 0.0 if f.leg is None else f.leg.speed_kn for f in forces}
        for f in forces:
            steaming.account_distance(w, f)  # the leg ends where the force is now
            f.lat, f.lon, _ = f.position_at(now)
        lat0 = sum(f.lat for f in forces) / len(forces)
        lon0 = sum(f.lon for f in forces) / len(forces)
        fight = Fight(len(self.fights) + 1, forces, LocalPlane(lat0, lon0), now, w.env.event(),
                      speeds_kn=speeds_kn)
        self.fights.append(fight)
        self.grant_on_attack(fight)
        for f in forces:
            f.battle = fight
            f.orders = tuple(f.orders[f.order_index:])  # what it was doing, taken up again afterwards
            f.order_index = 0  # (its first: a commander's decision at the battle's end reads it at once)
            f.order_epoch += 1
            w.interrupt(f, "new orders")
            for s in f.active_ships():
                fight.names[s.name] = f.name
        # Every ship where she is; where the point forces met hull to hull, one is laid back along her
        # course to where she was the moment before (campaign.tactics.plane.layout), and her record says so.
        fight.combatants, laid_back = clear_layout(self._combatants(fight))
        for f in forces:
            for s in f.active_ships():
                w.set_status(s, "in_action", 0.0)
                yd = laid_back.get(s.name)
                w.emit(s, "engagement_start", battle=fight.number, engine=self.engine_name,
                       forces=[x.name for x in forces], laid_back_yd=None if yd is None else round(yd, 1))
        return fight

    def grant_on_attack(self, fight: Fight) -> None:
        """A conditional leave to fire comes true: ships of its target nation have attacked ships of the
        protected nation of the named types (seed 000: the Germans attacking a French transport free the
        British to fire). The leave is granted at once (a ``politics`` record), and every force of the
        shooter nation that has the attacker in sight sees the attack and knows it may fire (a
        ``standing`` record): the others learn it as they learn any rules of engagement, by message."""
        w = self.world
        now = w.env.now
        for rule in w.scenario.politics.fire_on_attack(now):
            shooter, target = rule.nations
            if (shooter, target) in w.fire_granted:
                continue
            attackers = [f for f in fight.forces if f.nation == target]
            victims = [f for f in fight.forces if f.nation == rule.protecting
                       and any(s.ship.type in rule.ship_types for s in f.active_ships())]
            if not any(self.means_to_engage(a, v) for a in attackers for v in victims):
                continue
            w.fire_granted.add((shooter, target))
            w.rec.emit(now, "politics", kind="fire", nations=[shooter, target],
                       note=f"{target} attacked {rule.protecting} {'/'.join(rule.ship_types)} ships "
                            f"({', '.join(v.name for v in victims)}), battle {fight.number}")
            for f in w.forces.values():
                node = w.command.nodes.get(f.name)
                if f.nation != shooter or node is None or node.standing.may_fire or not f.active_ships():
                    continue
                if any(self._in_contact(f.name, a.name) for a in attackers):
                    node.standing = replace(node.standing, may_fire=True)
                    w.rec.emit(now, "standing", f.name, f.side, None, None, changes={"may_fire": True},
                               by=f.name, reason=f"saw {', '.join(a.name for a in attackers)} attack "
                                                 f"{', '.join(v.name for v in victims)}")
                    w.command.decide(node, "orders")

    def _combatants(self, fight: Fight) -> tuple[Combatant, ...]:
        """The ships of every force where they are: its leader at the force's position, the others on their
        stations in column astern of her, or, scattered by an earlier battle, where they have steamed to
        since (``campaign.world.station``); on the force's course at the speed it was steaming when the
        battle began (at most what each ship can make now)."""
        out: list[Combatant] = []
        spacing = default_helm_rules().spacing_yd
        now = self.world.env.now
        for f in fight.forces:
            speed = fight.speeds_kn.get(f.name, 0.0)
            barred = self.world.avoid_areas(f)  # a station in a neutral's belt is kept at its edge
            for i, s in enumerate(f.active_ships()):
                x, y = fight.plane.to_xy_yd(*ship_latlon(f, s, now, spacing, barred))
                cond = s.condition
                max_speed_kn = max(s.ship.sustained_speed_kn - cond.speed_lost_kn, 0.0)
                out.append(Combatant(
                    ship=s.ship, unit=f.name, side=f.side, x_yd=x, y_yd=y,
                    course_deg=f.course_deg, speed_kn=min(speed, max_speed_kn),
                    max_speed_kn=max_speed_kn,
                    fast_speed_kn=None if cond.fast_speed_lost else s.ship.sustained_speed_kn,
                    condition=cond, flagship=(i == 0)))
        return tuple(out)

    def _setting_at(self, fight: Fight):
        """The light, sea and visibility at the centre of the fight, ``t_s`` seconds into it, and where
        the light comes from (``campaign.world.battle_light``; none under a clear day's stand-in sky)."""
        from campaign.world.battle_light import light_direction
        from campaign.world.conditions import WorldConditions

        w = self.world
        cond = w.contacts.model.conditions
        model = w.contacts.model
        ships = [s.ship for f in fight.forces for s in f.active_ships()]
        lat0, lon0 = fight.plane.lat0, fight.plane.lon0
        real_sky = isinstance(cond, WorldConditions)  # ClearDay is day everywhere: no sun to place

        def setting(t_s: float) -> Setting:
            t_min = fight.start_min + t_s / 60.0
            light = cond.light(lat0, lon0, min(t_min, w.end_min))
            vis = cond.visibility(lat0, lon0, min(t_min, w.end_min))
            hull_nm = model.rules.ranges(ships, light, vis, False)[1]
            sea = w.weather.at(lat0, lon0, w.clock.utc(min(t_min, w.end_min))).state
            direction = None
            if real_sky:
                direction = light_direction(lat0, lon0, w.clock.utc(min(t_min, w.end_min)), light,
                                            lambda state: model.rules.ranges(ships, state, vis, False)[1])
            return Setting(tactical_light(light), int(sea), hull_nm * YD_PER_NM, self.rules.night_action,
                           direction)

        return setting

    def _sea_room(self, fight: Fight) -> SeaRoom:
        """The coast the fight's plane lacks: moves on it are tested against the charts' land (the sea
        graph's), looking ahead as far as the offing routes keep in open water, then the clearance
        (data/routing.yaml); the turns are the helm's (data/tactics/helm.yaml, sea_room)."""
        land = self.world.router.graph.land
        params = self.world.router.graph.params
        plane = fight.plane

        def clear(x0: np.ndarray, y0: np.ndarray, x1: np.ndarray, y1: np.ndarray) -> np.ndarray:
            lat0, lon0 = plane.to_latlon(x0, y0)
            lat1, lon1 = plane.to_latlon(x1, y1)
            ax, ay = land.plane.to_xy(lat0, lon0)
            bx, by = land.plane.to_xy(lat1, lon1)
            return land.segment_xy_clear(ax, ay, bx, by)

        return SeaRoom(clear, (params.offing_nm * YD_PER_NM, params.clearance_nm * YD_PER_NM),
                       default_helm_rules().sea_room_step_deg)

    # -- the fight -------------------------------------------------------------------------------

    def _fight(self, fight: Fight) -> Generator[simpy.Event, Any, None]:
        w = self.world
        intents = {}
        for f in fight.forces:
            enemies = [e for e in fight.forces if e.side != f.side]
            if any(self.means_to_engage(f, e) for e in enemies):
                intents[f.side] = "engage"
            else:
                intents.setdefault(f.side, "break_off")
        setup = BattleSetup(fight.combatants, self._setting_at(fight)(0.0), intents)
        run = BattleRun(self.engine, setup, self.rng, setting_at=self._setting_at(fight),
                        preferred_cap_yd=self.rules.preferred_range_cap_yd, sea_room=self._sea_room(fight))
        seen = 0
        while True:
            dt = run.advance()
            if dt is None:
                break
            # The tick is played at its start; its events are written when the tick has run, in order.
            limit = w.end_min - w.env.now
            yield w.env.timeout(min(dt / 60.0, max(limit, 0.0)))
            seen = self._write(fight, run, seen)
            if w.env.now >= w.end_min:
                break
        self._write(fight, run, seen)
        fight.outcome = run.outcome()
        self._end(fight, fight.outcome)

    def _ship(self, name: str) -> ShipState:
        return self.world.ships[name]

    def _write(self, fight: Fight, run: BattleRun, seen: int) -> int:
        """Write the tick events not yet written as records (``campaign.tactics.battle_records``, as a
        duel writes them), each ship where the tick's last frame has her; sinkings take effect at once."""
        w = self.world
        frame = run.frames[-1] if run.frames else None
        rows = {row[0]: row for row in frame.ships} if frame else {}
        for ev in run.events[seen:]:
            if ev.type not in TICK_RECORDS:
                continue
            ship = self._ship(ev.ship) if ev.ship in w.ships else None
            row = rows.get(ev.ship)
            fields = tick_fields(ev, fight.number, row)
            if ship is None:
                of_side = fields.get("of_side")
                w.rec.emit(w.env.now, ev.type, None, of_side, **fields)
                continue
            if ev.type == "sunk" and ship.status != "sunk":
                w.set_status(ship, "sunk", 0.0)
            lat, lon = row_latlon(row, fight.plane) if row is not None else (fight.plane.lat0, fight.plane.lon0)
            if row is None:
                fields = {"speed_kn": 0.0, "course_deg": None, **fields}
            # The fields every record of a ship carries (campaign.world.world.World.emit), so that tracks
            # follow her through the battle: the coal burnt in it is booked when it ends.
            w.rec.emit(w.env.now, ev.type, ship.name, ship.side, lat, lon, force=fight.names.get(ship.name),
                       status=ship.status, coal_t=round(ship.coal_at(w.env.now), 2), coal_rate_t_per_h=0.0,
                       **fields)
        return len(run.events)

    # -- the zoom out ----------------------------------------------------------------------------

    def _end(self, fight: Fight, out: BattleOutcome) -> None:
        zoom_out(self.world, fight, out)
