"""Jane's Naval War Game (seed 004) as a tactical engine: continuous yards, one-minute moves.

Each ``step`` is one of Jane's moves (60 s). Every afloat ship first moves towards her helm order within
the rules' speed and turning limits (``jane_motion``); then, at the end of the move, the big guns fire
in the order tickets were dropped (drawn afresh each move), then the quick-firers, then torpedoes
(``jane_fire``). Each strike hits with the chance of the rules' hit table for the target's class at the
range shifted by her speed, turning, the passing speed, light and sea (``jane_rulebook``; the table and its
derivation are in ``data/tactics/jane.yaml``, ``hit``); each hit lands on a part of her (belt, deck,
turret, battery, conning tower, upper works, side), is checked against that part's armour grade for the
projectile, range and angle of impact, and does what the rules say: penetrations of belt or deck count
towards her sinking number (two per 1,000 tons), guns hit are disabled, engines and bow and funnels cost
speed, a pierced conning tower or aft deck stops her steering for three moves. A torpedo hit sinks a ship
under 5,000 tons and waterlogs a larger one.

The admiral. When a flagship (``Combatant.flagship``) takes heavy fire (a hit by an A, B or C gun) on
her conning tower, where the admiral stands, even chances decide whether he is hors de combat (seed 004
l.19); if he is, an ``admiral_disabled`` event follows and for ``command_lapse_moves`` moves (data file;
the seed's "shifting flag takes full time as directed by the umpire") every ship of his side keeps the
helm order she had before he fell: the engine ignores the helm's new orders for that side. An admiral
whose flagship sinks under him is out of action likewise.

Views. ``fighting_value`` is the weight of fire per move (lb) of her working guns that bear on the
broadside, times the fraction of her sinking number left; ``gun_range_yd`` the reach of her longest
working gun class (``guns.max_range_yd`` in the data file, never beyond the hit table's last row,
16,000 yd); ``speed_kn`` is negative while she goes astern (the seed's astern moves). Targets are
chosen per gun group (``jane_fire``); ``Condition`` is mapped in and out as ``jane_ship`` describes.

Public API: ``JaneEngine`` (``name = "jane"``, ``begin(setup, rng) -> JaneBattle``), ``JaneBattle``
(the protocol's ``Battle``: ``t_s``, ``next_tick_s``, ``views``, ``step``, ``condition``, ``settled``),
``load_rules`` and ``JaneRules`` (with the zoom figures the driver reads: ``battle_start_yd``,
``approach_step_min``, ``approach_square_yd``). All randomness comes from the generator given to
``begin``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from types import MappingProxyType

import numpy as np

from campaign.tactics.jane_fire import FireContext, gunfire, torpedoes
from campaign.tactics.jane_motion import motion
from campaign.tactics.jane_rules import RULES_FILE, JaneRules, load_rules
from campaign.tactics.jane_ship import ShipState, condition_of, from_combatant, max_speed_kn, view
from campaign.tactics.protocol import BattleSetup, Condition, HelmOrder, Setting, ShipView, TickEvent

__all__ = ["RULES_FILE", "JaneBattle", "JaneEngine", "JaneRules", "load_rules"]

DIE_FACES = 6


class JaneBattle:
    """One battle under Jane's rules (the protocol's ``Battle``)."""

    def __init__(self, rules: JaneRules, setup: BattleSetup, rng: np.random.Generator) -> None:
        self.rules = rules
        self.rng = rng
        self.setup = setup
        self.t_s = 0.0
        self.move = 0
        self.ships: list[ShipState] = [from_combatant(rules, c) for c in setup.combatants]
        self._by_name = {s.name: s for s in self.ships}
        if len(self._by_name) != len(self.ships):
            raise ValueError("every combatant in a battle needs a distinct name")
        self.admiral_out: dict[str, bool] = {}
        self.command_lapsed_until: dict[str, int] = {}

    # -- protocol ------------------------------------------------------------------------------------

    def next_tick_s(self) -> float:
        """One Jane move: a minute (seed 004 l.111)."""
        return self.rules.move_s

    def views(self) -> Sequence[ShipView]:
        return [view(self.rules, s) for s in self.ships]

    def condition(self, name: str) -> Condition:
        return condition_of(self.rules, self._by_name[name])

    def settled(self) -> list[TickEvent] | None:
        """Jane's umpire settles nothing outright: the game is played out (seed 004 l.97)."""
        return None

    def step(self, helm: Mapping[str, HelmOrder], setting: Setting) -> list[TickEvent]:
        """Move every afloat ship, then fire, torpedo and damage at the end of the move."""
        self.move += 1
        dt = self.next_tick_s()
        for s in self.ships:
            if s.afloat:
                self._move_ship(s, self._order_for(s, helm), dt)
        self.t_s += dt
        ctx = FireContext(self.rules, self.rng, self.ships, self.move, self.t_s, setting)
        ctx.on_admiral = lambda flagship, firer, cause: self._admiral(ctx, flagship, firer, cause)
        order = [self.ships[i] for i in self.rng.permutation(len(self.ships)).tolist()]
        gunfire(ctx, order)
        torpedoes(ctx, order)
        return ctx.events

    # -- moving --------------------------------------------------------------------------------------

    def command_lapsed(self, side: str) -> bool:
        """Whether the side's ships are keeping their last orders this move (their admiral is down)."""
        return self.command_lapsed_until.get(side, -1) >= self.move

    def _order_for(self, s: ShipState, helm: Mapping[str, HelmOrder]) -> HelmOrder:
        keep = s.last_order or HelmOrder(s.course_deg, s.speed_kn)
        if self.command_lapsed(s.side):
            return keep
        order = helm.get(s.name, keep)
        s.last_order = order
        return order

    def _move_ship(self, s: ShipState, order: HelmOrder, dt: float) -> None:
        # ``jane_motion.move`` in its positional, tuple-returning form: every afloat ship, every move.
        s.x_yd, s.y_yd, s.course_deg, s.speed_kn, _, s.engine_turning = motion(
            self.rules, s.x_yd, s.y_yd, s.course_deg, s.speed_kn, order.course_deg, order.speed_kn,
            max_speed_kn(self.rules, s), s.helm_squares_per_turn, self.move > s.no_steer_until_move, dt)

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

    def __init__(self, rules: JaneRules | None = None) -> None:
        self.rules = rules or load_rules()

    def begin(self, setup: BattleSetup, rng: np.random.Generator) -> JaneBattle:
        return JaneBattle(self.rules, setup, rng)
