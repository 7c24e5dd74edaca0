"""Jane's game with Great War at Sea's damage model (``damage: gwas``; ``campaign.tactics.gwas``).

Jane's fire is kept: which groups fire, at whom, how many of their shells hit (seed 004). Each shell that
hits counts its share of a hit of the damage model (seed 003; ``gwas.jane_hit_share``: a heavy shell half
a hit on a large ship, an 8.8 cm shell a 40th), and each whole hit the shells of one gun group complete on
one target is allocated by the model, of the group's calibre at the true range. Every shell that strikes
has its hit record (``model_hit`` says whether it completed a hit of the model; one record for each it
completed). The model's effects become Jane's bookkeeping (``data/tactics/damage.yaml``, ``engines``):

* hull boxes lost count towards her sinking number in the same share (a ship with 6 hull boxes and a
  sinking number of 46 gains 46 / 6 penetrations for each), so her ``damage`` is the model's hull and she
  sinks when her sinking number is reached or the model sinks her (every hull box, a magazine critical);
* a gun group that loses boxes keeps working only the same share of its barrels;
* engine and boiler criticals take their share of her speed (``ShipState.speed_factor``), a fire-control
  critical halves her chance to hit (``ShipState.fire_factor``), a bridge critical stops her steering for
  the moves a pierced conning tower does (seed 004 l.79), and with her admiral aboard is heavy fire on his
  bridge (seed 004 l.19: even chances that he is out of action);
* torpedo mounts destroyed (8.62): her tubes are gone, counted as fired so that they stay empty after
  the battle (Jane's game reloads none).

Torpedo hits and ramming remain Jane's own.
"""

from __future__ import annotations

import math

from campaign.tactics.damage import speed_fraction
from campaign.tactics.gwas import DAMAGE_GWAS, GwasLedger, jane_hit_share
from campaign.tactics.jane_fire import FireContext, sink
from campaign.tactics.jane_ship import GunGroup, ShipState, damage_fraction, keep_barrels

_EPS = 1e-9


class JaneGwas:
    """Scores a Jane battle's gunfire hits by the damage model: ``FireContext.gwas_hit``."""

    def __init__(self, ledger: GwasLedger) -> None:
        self.ledger = ledger

    def __call__(self, ctx: FireContext, firer: ShipState, target: ShipState, group: GunGroup,
                 true_range_yd: float) -> None:
        """One shell of ``group`` hits ``target``: its share of a hit of the model, and each whole hit
        completed allocated (``_model_hit``); its hit events."""
        calibre = group.gun.calibre_mm
        share = jane_hit_share(self.ledger.rules, calibre, self.ledger.state(target.name).boxes,
                               target.ship.displacement_t)
        whole = self.ledger.owe((firer.name, group.gun.label, target.name), share)
        if not whole:
            ctx.emit("hit", target.name, firer.name, damage_model=DAMAGE_GWAS, model_hit=False,
                     hit_share=round(share, 5), gun=group.gun.label, calibre_mm=calibre, effects=(),
                     penetrations=round(target.penetrations, 3), sinking_number=target.sinking_number,
                     damage=round(damage_fraction(target), 4))
        for _ in range(whole):
            if not target.afloat:
                break  # the rest of the shell's hits are lost on a sunk ship
            self._model_hit(ctx, firer, target, group, true_range_yd, share)

    def _model_hit(self, ctx: FireContext, firer: ShipState, target: ShipState, group: GunGroup,
                   true_range_yd: float, share: float) -> None:
        """One whole hit of the model: allocated, carried into her bookkeeping, recorded."""
        rules, dr = ctx.rules, self.ledger.rules
        h = self.ledger.score(target.name, firer.name, group.gun.calibre_mm, true_range_yd, ctx.rng)
        effects: list[str] = []
        boxes = {g.label: g.boxes for g in h.after.boxes.guns}
        for label in dict.fromkeys(h.guns_lost):
            left = sum(g.boxes - lost for g, lost in zip(h.after.boxes.guns, h.after.guns_lost)
                       if g.label == label)
            for g in target.groups:
                if g.gun.label == label and g.count:
                    keep = math.floor(g.count * left / boxes[label] + 0.5)
                    if keep < g.working():
                        effects.append(f"{g.working() - keep} x {label} disabled")
                        keep_barrels(target, g, keep)
        if h.hull_boxes_lost:
            target.penetrations += h.hull_boxes_lost * target.sinking_number / h.after.boxes.hull
        if h.engine_hits:
            target.speed_factor = speed_fraction(h.after, dr)
            effects.append(f"engines: {target.speed_factor:.0%} of her speed left")
        if h.after.fire_control and not h.before.fire_control:
            target.fire_factor = dr.fire_control_factor
            effects.append("fire control lost")
        bridge = h.after.bridge and not h.before.bridge
        if bridge:
            target.no_steer_until_move = max(target.no_steer_until_move, ctx.move + rules.no_steer_moves)
            effects.append(f"bridge hit: no steering for {rules.no_steer_moves} moves")
        if h.torpedo_mounts_lost and target.tubes_left() > 0:
            target.tubes_fired = target.tubes_total
            target.above_water_loaded = 0
            if target.tubes is not None:
                target.tubes.empty(len(target.tubes.tubes))
            effects.append("torpedo tubes destroyed")
        ctx.emit("hit", target.name, firer.name, **h.fields(), model_hit=True, hit_share=round(share, 5),
                 part=h.result.landed, gun=group.gun.label,
                 effects=tuple(effects), penetrations=round(target.penetrations, 3),
                 sinking_number=target.sinking_number, damage=round(damage_fraction(target), 4))
        if bridge and target.flagship and ctx.on_admiral:
            ctx.on_admiral(target, firer, "bridge critical")
        if target.afloat and (h.sunk or target.penetrations >= target.sinking_number - _EPS):
            sink(ctx, target, firer, "magazine critical" if h.after.magazine else "hull boxes")
