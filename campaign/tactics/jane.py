"""Jane's Naval War Game (seed 004) as a tactical engine: continuous yards, one-minute moves.

Each ``step`` is one of Jane's moves (60 s). Every afloat ship first moves on the battle plane as her
helm steers her, within the rules' speed and turning limits (``jane_motion.JaneHandling``, moved with the
others by ``campaign.tactics.plane.motion``); hulls that meet stop where they touch, and a stem striking a
side or stern at 6 knots or more sinks the ship struck, stem to stem both ("Any rammed ship is sunk. If
ships ram bow to bow both are sunk", l.55; the rammer's own damage, which the umpire settles, is the loss
of her bow waterline, -3 kn: a STAND-IN). Then, at the end of the move, the big guns fire
in the order tickets were dropped (drawn afresh each move), then the quick-firers, then torpedoes
(``jane_fire``). Each strike hits with the chance of the rules' hit table for the target's class at the
range shifted by her speed, turning, the passing speed, light and sea (``jane_rulebook``; the table and its
derivation are in ``data/tactics/jane.yaml``, ``hit``); each hit lands on a part of her (belt, deck,
turret, battery, conning tower, upper works, side), is checked against that part's armour grade for the
projectile, range and angle of impact, and does what the rules say: penetrations of belt or deck count
towards her sinking number (two per 1,000 tons), guns hit are disabled, engines and bow and funnels cost
speed, a pierced conning tower or aft deck stops her steering for three moves. A torpedo leaves only a
loaded tube that bears (``campaign.tactics.tubes``); a torpedo hit sinks a ship under 5,000 tons and
waterlogs a larger one. Fire meant for one ship falls on another in the line of fire, on a coin toss.

The admiral. When a flagship (``Combatant.flagship``) takes heavy fire (a hit by an A, B or C gun) on
her conning tower, where the admiral stands, even chances decide whether he is hors de combat (seed 004
l.19); if he is, an ``admiral_disabled`` event follows and for ``command_lapse_moves`` moves (data file;
the seed's "shifting flag takes full time as directed by the umpire") every ship of his side keeps the
helm order she had before he fell: the engine ignores the helm's new orders for that side (her officer of
the watch still keeps her off other hulls). An admiral whose flagship sinks under him is out of action
likewise. ``command`` tells the helm how signals go under these rules.

Views. ``fighting_value`` is the weight of fire per move (lb) of her working guns that bear on the
broadside, times the fraction of her sinking number left; ``gun_range_yd`` the reach of her longest-ranged
working gun (its mounting's range at its 1914 elevation, ``data/guns.yaml``; the hit table runs beyond
every reach); ``speed_kn`` is negative while she goes astern (the seed's astern moves). Targets are
chosen per gun group (``jane_fire``); ``Condition`` is mapped in and out as ``jane_ship`` describes.

Damage. By default a hit does what Jane's rules say (above). Under ``damage="gwas"`` each shell that hits
is scored by Great War at Sea's damage model instead (``campaign.tactics.jane_gwas``); torpedoes and
ramming stay Jane's.

Public API: ``JaneEngine`` (``name = "jane"``, ``begin(setup, rng) -> JaneBattle``), ``JaneBattle``
(the protocol's ``Battle``: ``t_s``, ``next_tick_s``, ``views``, ``step``, ``condition``, ``settled``),
``load_rules`` and ``JaneRules`` (with the zoom figures the driver reads: ``battle_start_yd``,
``approach_step_min``, ``approach_square_yd``). All randomness comes from the generator given to
``begin``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from types import MappingProxyType

import numpy as np

from campaign.tactics.damage import gunnery_fraction
from campaign.tactics.gwas import DAMAGE_GWAS, DAMAGE_OWN, GwasLedger, check_damage
from campaign.tactics.jane_fire import FireContext, gunfire, sink, torpedoes
from campaign.tactics.jane_gwas import JaneGwas
from campaign.tactics.jane_motion import JaneHandling
from campaign.tactics.jane_rules import RULES_FILE, JaneRules, load_rules
from campaign.tactics.jane_ship import ShipState, condition_of, from_combatant, max_speed_kn, view
from campaign.tactics.kinematics import angle_diff_deg
from campaign.tactics.plane.contact import RAMMED, STEM_TO_STEM, blow, default_contact_rules
from campaign.tactics.plane.hull import Hull
from campaign.tactics.plane.motion import HELM_STEP_S, Body, Contact, Pilot, Plane, as_pilot
from campaign.tactics.protocol import BattleSetup, Command, Condition, HelmOrder, Setting, ShipView, TickEvent

__all__ = ["RULES_FILE", "JaneBattle", "JaneEngine", "JaneRules", "load_rules"]

DIE_FACES = 6


class JaneBattle:
    """One battle under Jane's rules (the protocol's ``Battle``)."""

    def __init__(self, rules: JaneRules, setup: BattleSetup, rng: np.random.Generator,
                 damage: str = DAMAGE_OWN) -> None:
        self.rules = rules
        self.rng = rng
        self.setup = setup
        self.damage = check_damage(damage)
        self.gwas = GwasLedger(setup.combatants) if self.damage == DAMAGE_GWAS else None
        self.t_s = 0.0
        self.move = 0
        self.ships: list[ShipState] = [from_combatant(rules, c) for c in setup.combatants]
        self._by_name = {s.name: s for s in self.ships}
        if len(self._by_name) != len(self.ships):
            raise ValueError("every combatant in a battle needs a distinct name")
        self.admiral_out: dict[str, bool] = {}
        self.command_lapsed_until: dict[str, int] = {}
        self.contact_rules = default_contact_rules()
        self.plane = Plane(self.contact_rules.end_fraction)
        self._hulls = {s.name: Hull.of(s.ship) for s in self.ships}
        self.paths: dict[str, list[tuple[float, float, float]]] = {}

    # -- protocol ------------------------------------------------------------------------------------

    def next_tick_s(self) -> float:
        """One Jane move: a minute (seed 004 l.111)."""
        return self.rules.move_s

    def views(self) -> Sequence[ShipView]:
        return [view(self.rules, s) for s in self.ships]

    def condition(self, name: str) -> Condition:
        """Her damage in the common terms (``jane_ship``); under gwas no more gunnery than the damage
        model's (its fire-control critical)."""
        c = condition_of(self.rules, self._by_name[name])
        if self.gwas is not None and not c.sunk:
            c = replace(c, gunnery=min(c.gunnery, gunnery_fraction(self.gwas.state(name), self.gwas.rules)))
        return c

    def settled(self) -> list[TickEvent] | None:
        """Jane's umpire settles nothing outright: the game is played out (seed 004 l.97)."""
        return None

    def command(self) -> Command:
        """How the admirals command (data file, ``command``): signals a move late, a column following its
        flagship without one, the fleet speed's reserve for squadrons in formation; ramming."""
        return Command(signal_delay_s=self.rules.signal_delay_s, column_head_free=True,
                       reserve_fraction=self.rules.reserve_fraction, reserve_for_all=False, formations=True, ram=True)

    def step(self, helm: Pilot | Mapping[str, HelmOrder], setting: Setting) -> list[TickEvent]:
        """Move every afloat ship on the plane (hulls that meet are rammed or collide), then fire,
        torpedo and damage at the end of the move. ``helm``: the pilot, or plain orders for each ship."""
        self.move += 1
        dt = self.next_tick_s()
        t0 = self.t_s
        contacts = self._move(_Lapse(self, as_pilot(helm)), t0, dt)
        self.t_s += dt
        ctx = FireContext(self.rules, self.rng, self.ships, self.move, self.t_s, setting)
        ctx.on_admiral = lambda flagship, firer, cause: self._admiral(ctx, flagship, firer, cause)
        if self.gwas is not None:
            ctx.gwas_hit = JaneGwas(self.gwas)
        for c in contacts:
            self._meeting(ctx, c)
        order = [self.ships[i] for i in self.rng.permutation(len(self.ships)).tolist()]
        gunfire(ctx, order)
        torpedoes(ctx, order)
        return ctx.events

    # -- moving --------------------------------------------------------------------------------------

    def command_lapsed(self, side: str) -> bool:
        """Whether the side's ships are keeping their last orders this move (their admiral is down)."""
        return self.command_lapsed_until.get(side, -1) >= self.move

    def _move(self, pilot: Pilot, t0: float, dt: float) -> list[Contact]:
        bodies = []
        for s in self.ships:
            if not s.afloat:
                continue
            handling = JaneHandling(self.rules, max_speed_kn(self.rules, s), s.helm_squares_per_turn,
                                    self.move > s.no_steer_until_move)
            bodies.append(Body(s.name, s.side, s.combatant.unit, self._hulls[s.name], s.x_yd, s.y_yd, s.course_deg,
                               s.speed_kn, handling))
        contacts = self.plane.move(bodies, pilot, t0, dt, HELM_STEP_S)
        self.paths = {b.name: b.path for b in bodies}
        for b in bodies:
            s = self._by_name[b.name]
            s.x_yd, s.y_yd, s.course_deg, s.speed_kn = b.x_yd, b.y_yd, b.course_deg, b.speed_kn
            s.engine_turning = b.handling.engine_turning
        return contacts

    def _meeting(self, ctx: FireContext, c: Contact) -> None:
        """Two hulls met (seed 004 l.55): "Any rammed ship is sunk. If ships ram bow to bow both are sunk";
        the rammer's own damage is the umpire's (data file, ``ram``: her bow waterline is lost). A meeting
        slower than the rules' ramming speed, or side by side, only stopped them."""
        a, b = self._by_name[c.a], self._by_name[c.b]
        kind = blow(c, abs(float(angle_diff_deg(a.course_deg, b.course_deg))), self.contact_rules)
        if kind == RAMMED:
            struck, striker = self._by_name[c.struck], self._by_name[c.striker]
            sunk, result = [struck], "struck sunk"
            striker.bow_lost = True
        elif kind == STEM_TO_STEM:
            sunk, result = [a, b], "both sunk"
        else:
            sunk, result = [], "no damage"
        ship, other = (c.striker, c.struck) if c.striker else (c.a, c.b)
        ctx.events.append(TickEvent(c.t_s, c.kind, ship, other, MappingProxyType({
            "blow": kind, "parts": (c.part_a, c.part_b), "closing_kn": round(c.closing_kn, 2),
            "x_yd": round(c.x_yd, 1), "y_yd": round(c.y_yd, 1), "result": result})))
        for s in sunk:
            if s.afloat:
                sink(ctx, s, self._by_name[other if s.name == ship else ship], "rammed")

    # -- the admiral ---------------------------------------------------------------------------------

    def _admiral(self, ctx: FireContext, flagship: ShipState, firer: ShipState | None, cause: str) -> None:
        """Even chances on heavy fire at the flagship's conning tower (seed 004 l.19); certain if she
        sinks under him (data file, ``admiral``)."""
        side = flagship.side
        if self.admiral_out.get(side):
            return
        roll = None
        if cause != "flagship sunk":
            roll = int(self.rng.integers(1, DIE_FACES + 1))
            if roll > round(self.rules.admiral_chance * DIE_FACES):
                return
        self.admiral_out[side] = True
        self.command_lapsed_until[side] = self.move + self.rules.command_lapse_moves
        data = {"side": side, "cause": cause, "roll": roll,
                "command_lapse_moves": self.rules.command_lapse_moves}
        ctx.events.append(TickEvent(ctx.t_s, "admiral_disabled", flagship.name, firer.name if firer else None,
                                    MappingProxyType(data)))


class JaneEngine:
    """Jane's Naval War Game (seed 004); ``rules`` default to ``data/tactics/jane.yaml``."""

    name = "jane"

    def __init__(self, rules: JaneRules | None = None, damage: str | None = None) -> None:
        """``damage``: "own" (Jane's rules, the default) or "gwas" (module docstring)."""
        self.rules = rules or load_rules()
        self.damage = check_damage(damage or DAMAGE_OWN)

    def begin(self, setup: BattleSetup, rng: np.random.Generator) -> JaneBattle:
        return JaneBattle(self.rules, setup, rng, self.damage)


class _Lapse:
    """The helm as a side whose admiral is down obeys it (seed 004 l.19): its ships keep the orders they
    last had, though their officers of the watch still keep them off other hulls."""

    def __init__(self, battle: JaneBattle, inner: Pilot) -> None:
        self.battle, self.inner = battle, inner

    def want(self, t_s: float, bodies) -> Mapping[str, HelmOrder]:
        inner = self.inner
        orders = getattr(inner, "orders", None)
        wants = dict(orders(t_s, bodies) if callable(orders) else inner.want(t_s, bodies))
        for b in bodies:
            s = self.battle._by_name[b.name]
            if self.battle.command_lapsed(s.side):
                wants[b.name] = s.last_order or HelmOrder(s.course_deg, s.speed_kn)
            elif b.name in wants:
                s.last_order = wants[b.name]
        watch = getattr(inner, "watch", None)
        return watch(bodies, wants) if callable(watch) else wants
