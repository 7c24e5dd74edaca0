"""What the ``duel`` command prints and writes: one battle's account and replay, or many battles' odds."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

from campaign.output.files import write_all, write_json, write_jsonl
from campaign.tactics.battle import BattleOutcome
from campaign.tactics.duel import Duel, duel_statistics
from campaign.tactics.duel_records import fight_duel_records
from campaign.tactics.kinematics import YD_PER_NM


def _mmss(t_s: float) -> str:
    return f"{int(t_s // 60):3d}:{int(t_s % 60):02d}"


def account(duel: Duel, out: BattleOutcome) -> str:
    """The battle in words: who fought, what hit, what sank, how and when it ended."""
    lines = [f"{duel.title} — engine {out.engine}",
             f"  began {duel.when:%Y-%m-%d %H:%M}Z at {duel.lat:.2f}N {duel.lon:.2f}E, range {duel.range_yd:,.0f} yd"]
    for ev in out.events:
        if ev.type in ("hit", "torpedo", "sunk", "break_off", "admiral_disabled"):
            bits = ", ".join(f"{k} {v}" for k, v in ev.data.items() if k in ("range_yd", "damage", "part", "result", "side"))
            if ev.type in ("hit", "sunk"):
                who = f"{ev.ship} by {ev.target}" if ev.target else ev.ship
            else:
                who = f"{ev.ship} -> {ev.target}" if ev.target else ev.ship
            lines.append(f"  {_mmss(ev.t_s)}  {ev.type:<16} {who}{'  (' + bits + ')' if bits else ''}")
    n_fire = sum(1 for ev in out.events if ev.type == "fire")
    lines.append(f"  ended after {out.duration_s / 60:.1f} min: {out.reason}; {n_fire} fire events")
    for name, c in out.conditions.items():
        state = "SUNK" if c.sunk else f"damage {c.damage:.0%}, gunnery {c.gunnery:.0%}, speed -{c.speed_lost_kn:.1f} kn"
        lines.append(f"  {name:<18} {state}; coal burnt {out.coal_t.get(name, 0.0):.1f} t")
    if out.broke_off:
        lines.append(f"  broke off: {', '.join(out.broke_off)}")
    return "\n".join(lines)


def write_duel_once(duel: Duel, engine: str, seed: int, out_dir: Path) -> tuple[str, list[Path]]:
    """Fight once; write events.jsonl (the campaign's battle records: ``campaign.tactics.duel_records``)
    and battle.html (the zoomed replay, drawn from those records); return the account."""
    from campaign.output.replay_battle import battle_html

    out, records = fight_duel_records(duel, engine, seed)
    track = next(r for r in records if r["type"] == "battle_track")
    title = f"{duel.title} ({out.engine}, seed {seed})"
    html = battle_html(track, [r for r in records if r is not track], title)
    written = write_all(out_dir, {
        "events.jsonl": lambda p: write_jsonl(p, records),
        "battle.html": lambda p: p.write_text(html, encoding="utf-8"),
    })
    return account(duel, out), written


def statistics_table(duel: Duel, stats: Sequence) -> str:
    """Each engine's outcomes side by side."""
    ships = list(stats[0].sunk_fraction)
    sides = list(stats[0].side_losses)
    head = f"{'':<28}" + "".join(f"{s.engine:>12}" for s in stats)
    lines = [f"{duel.title}: {stats[0].runs} runs per engine", head]
    for name in ships:
        lines.append(f"{'P(' + name + ' sunk)':<28}" + "".join(f"{s.sunk_fraction[name]:>12.2f}" for s in stats))
    for name in ships:
        lines.append(f"{'mean damage ' + name:<28}" + "".join(f"{s.mean_damage[name]:>12.2f}" for s in stats))
    for side in sides:
        lines.append(f"{'ships sunk, ' + side:<28}" + "".join(f"{s.side_losses[side]:>12.2f}" for s in stats))
    for side in sides:
        lines.append(f"{'broke off, ' + side:<28}" + "".join(f"{s.broke_off[side] / s.runs:>12.2f}" for s in stats))
    lines.append(f"{'duration, median min':<28}" + "".join(f"{s.duration_quartiles_min[1]:>12.1f}" for s in stats))
    reasons = sorted({r for s in stats for r in s.reasons})
    for r in reasons:
        lines.append(f"{'ended: ' + r:<28}" + "".join(f"{s.reasons.get(r, 0) / s.runs:>12.2f}" for s in stats))
    return "\n".join(lines)


def write_duel_statistics(duel: Duel, engines: Sequence[str], runs: int, seed: int,
                          out_dir: Path) -> tuple[str, list[Path]]:
    """Fight ``runs`` times under each engine; write duel.json; return the side-by-side table."""
    from rich.progress import track

    stats = [duel_statistics(duel, e, runs, seed)
             for e in track(engines, description=f"{duel.name}: {runs} runs per engine", transient=True)]
    doc = {"duel": duel.name, "title": duel.title, "runs": runs, "first_seed": seed,
           "range_yd": duel.range_yd, "range_nm": round(duel.range_yd / YD_PER_NM, 2),
           "history": duel.history, "engines": [s.as_dict() for s in stats]}
    written = write_all(out_dir, {"duel.json": lambda p: write_json(p, json.loads(json.dumps(doc)))})
    return statistics_table(duel, stats), written
