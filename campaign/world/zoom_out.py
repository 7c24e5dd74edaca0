"""The zoom out: a battle's results flow back into the strategic world (``campaign.world.engagement``).

Damage, speed lost and coal burnt go to the ships; a sunk ship leaves her force; ``engagement_end`` for
every ship and the ``battle_track``; every ship leaves the battle where the plane has her, her force
resuming from its leader's position and its other ships steaming back to station
(``campaign.world.station``); a ship that can no longer steam is left behind where she lies; and each
commander decides again on what he has just seen (``after_battle``).
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any

from campaign.model.orders import Detach, Stop
from campaign.tactics.ammunition import rounds_left_by_gun
from campaign.tactics.battle import BattleOutcome, outmatched, track_columns
from campaign.tactics.helm import default_helm_rules
from campaign.world.politics import leave_if_inside
from campaign.world.station import set_offset
from campaign.world.units import ForceState

if TYPE_CHECKING:
    from campaign.world.command import Node
    from campaign.world.engagement import Fight
    from campaign.world.world import World


def zoom_out(w: World, fight: Fight, out: BattleOutcome) -> None:
    """The battle's results flow back into the world: damage, coal, sinkings, the records of its end and
    its track, every ship where she left it, the disabled left behind, and each commander's decision."""
    now = w.env.now
    sunk = set(out.sunk())
    # Where every ship afloat leaves the battle, on the Earth (the plane's own projection).
    where = {n: (*fight.plane.to_latlon(v.x_yd, v.y_yd), v.course_deg)
             for n, v in out.final.items() if n not in sunk}
    for f in fight.forces:
        ships = [s for s in f.ships if s.name in out.final]
        for s in ships:
            s.condition = out.conditions[s.name]
            s.settle(now)
            burnt = min(out.coal_t.get(s.name, 0.0), s.coal_t)
            s.coal_t -= burnt
            s.burnt_t += burnt
            if s.name in sunk and s.status != "sunk":
                w.set_status(s, "sunk", 0.0)
            elif s.name not in sunk:
                w.set_status(s, "waiting")
        f.battle = None
    for f in fight.forces:
        for s in [s for s in f.ships if s.name in out.final]:
            c = s.condition
            w.emit(s, "engagement_end", battle=fight.number, engine=out.engine, reason=out.reason,
                   duration_min=round(out.duration_s / 60.0, 1), damage=round(c.damage, 3),
                   gunnery=round(c.gunnery, 3), speed_lost_kn=round(c.speed_lost_kn, 2), sunk=c.sunk,
                   coal_burnt_t=round(out.coal_t.get(s.name, 0.0), 1), rounds_left=rounds_left_by_gun(s.ship, c),
                   broke_off=list(out.broke_off))
    sides = {s.name: (s.side, f.name) for f in fight.forces for s in f.ships if s.name in out.final}
    w.rec.emit(now, "battle_track", None, None, fight.plane.lat0, fight.plane.lon0, battle=fight.number,
               engine=out.engine, reason=out.reason, start_min=round(fight.start_min, 4),
               sides={n: v[0] for n, v in sides.items()}, forces={n: v[1] for n, v in sides.items()},
               **track_columns(out.frames))
    for f in list(fight.forces):
        for left in leave_behind_the_disabled(w, f):
            resume_from(w, left, where)
            w.moved(left)  # its sightings from where she lies, not where her squadron was
        resume_from(w, f, where)
    fight.done.succeed()
    for f in fight.forces:
        w.moved(f)
    for f in fight.forces:
        node = w.command.nodes.get(f.name)
        if node is None or not f.active_ships():
            continue
        changes = after_battle(f, fight, node, out)
        if changes is not None:
            fields, why = changes
            node.standing = replace(node.standing, **fields)
            w.rec.emit(now, "standing", f.name, f.side, None, None,
                       changes={k: list(v) if isinstance(v, tuple) else v for k, v in fields.items()},
                       by=f.name, reason=f"{why} battle {fight.number}")
        w.command.decide(node, "battle")
    for f in fight.forces:
        # A force the battle left lying in waters barred to it (a neutral's belt) steams out of them.
        leave_if_inside(w, f, f"left by battle {fight.number}")


def after_battle(force: ForceState, fight: Fight, node: Node, out: BattleOutcome
                 ) -> tuple[dict[str, Any], str] | None:
    """What a commander makes of a battle his force came out of, his own decision on what he has just
    seen: (the standing instructions he changes, why), or None to keep them.

    One who broke off, outmatched, does not seek the same fight again: he shadows (keeps touch at a
    safe range and reports). One told only to report, who never meant to fight and was brought to
    action all the same by a force that outmatches his (as the helm measures it: ``outmatched``),
    keeps away from the contacts that fought him, as his picture names them (he evades them when he
    sees them), rather than go back to his station or his course and be fought there again. The 1st
    Cruiser Squadron was "not to be brought to action against a superior force" (Admiralty to
    Milne, 30 July 1914: Churchill; the scenario's note); when its watch lay at its station while
    the Austrian fleet came back to it, one run fought it there fourteen times in a day."""
    side, standing = force.side, node.standing
    if side in out.broke_off and standing.on_contact in ("chase", "engage"):
        return {"on_contact": "shadow"}, "broke off, outmatched, from"
    if standing.on_contact == "report" and side not in out.broke_off and out.intents.get(side) == "break_off" \
            and outmatched(out.fighting_values(), side, default_helm_rules().break_off_ratio):
        seen = {node.labels[f.name] for f in fight.forces if f.side != side and f.name in node.labels}
        keep = tuple(sorted(seen | set(standing.keep_away_from)))
        if keep != standing.keep_away_from:
            return {"keep_away_from": keep}, "brought to action against his instructions in"
    return None


def resume_from(w: World, force: ForceState, where: dict[str, tuple[float, float, float]]) -> None:
    """The force takes up its strategic business from where its ships left the battle: its position is
    its leader's (its first ship afloat), its course hers; each other ship is reckoned where she is,
    out of station until she has steamed back to it (``campaign.world.station``)."""
    active = [s for s in force.active_ships() if s.name in where]
    if not active:
        return
    lat, lon, course = where[active[0].name]
    land = w.router.graph.land
    if land.is_land(lat, lon):
        # The plane knows no coast of its own (the helm keeps off the charts' land, but an engine's turn
        # can clip a point): a leader left ashore is put back at sea as far out as the routes keep from
        # the shore (data/routing.yaml), so that the force can sail on from there.
        lat, lon = land.nearest_sea_point(lat, lon, w.router.graph.params.clearance_nm)
    force.lat, force.lon, force.course_deg = lat, lon, course
    active[0].offset = None
    for s in active[1:]:
        set_offset(s, where[s.name][0], where[s.name][1], w.env.now)


def leave_behind_the_disabled(w: World, force: ForceState) -> list[ForceState]:
    """A ship that can no longer steam is left where she lies as a force of her own; the rest of the
    squadron goes on at the speed of its slowest ship (DESIGN.md 4: squadrons move at the slowest).
    Returns the forces left behind."""
    active = force.active_ships()
    stopped = [s for s in active if s.ship.sustained_speed_kn - s.condition.speed_lost_kn <= 0.0]
    if not stopped:
        return []
    if len(stopped) == len(active):
        force.orders = (Stop(),)
        force.order_epoch += 1
        return []
    left = []
    for s in stopped:
        name = f"{s.name} (disabled)"
        w.detach(force, Detach(ships=(s.name,), name=name, orders=(Stop(),),
                                        note="left behind, unable to steam"))
        left.append(w.forces[name])
    return left
