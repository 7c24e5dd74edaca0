"""What the ``duel`` command prints and writes: one battle's account and replay, or many battles' odds."""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from pathlib import Path

from campaign.duels.duel import Duel
from campaign.duels.duel_odds import DuelStatistics, duel_statistics
from campaign.duels.duel_records import fight_duel_records
from campaign.estimate import Estimate
from campaign.model.stand_ins import StandIn, announce, bearing_on_battle
from campaign.output.files import write_all, write_json, write_jsonl
from campaign.tactics.battle import BattleOutcome
from campaign.tactics.engines import get_engine
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


def duel_stand_ins(duel: Duel, engines: Sequence[str]) -> dict[str, tuple[StandIn, ...]]:
    """The labelled stand-ins that bear on the duel's result under each engine fought, by its damage model
    (the duel's ``damage``, else the engine's default): ``campaign.model.stand_ins``."""
    return {e: bearing_on_battle(e, (get_engine(e, duel.damage).damage,)) for e in engines}


def stand_ins_text(by_engine: dict[str, tuple[StandIn, ...]]) -> str:
    """The short list printed under a duel's result: each stand-in once, with the engines it bears on."""
    seen: dict[str, StandIn] = {}
    for found in by_engine.values():
        for s in found:
            seen.setdefault(s.id, s)
    return announce(list(seen.values()), engines=list(by_engine))


def write_duel_once(duel: Duel, engine: str, seed: int, out_dir: Path) -> tuple[str, list[Path]]:
    """Fight once; write events.jsonl (the campaign's battle records: ``campaign.duels.duel_records``)
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
    return account(duel, out) + "\n" + stand_ins_text(duel_stand_ins(duel, (engine,))), written


def _cell(e: Estimate, digits: int = 2) -> str:
    """``value [low, high]``; a figure without an interval (one run, or none varied) stands alone."""
    if math.isnan(e.value):
        return "-"
    if math.isnan(e.low) or math.isnan(e.high):
        return f"{e.value:.{digits}f}"
    return f"{e.value:.{digits}f} [{e.low:.{digits}f}, {e.high:.{digits}f}]"


def statistics_rows(stats: Sequence[DuelStatistics]) -> list[tuple[str, list[str]]]:
    """Each row's label and its cell per engine: every figure with its 95 % interval."""
    ships, sides = list(stats[0].sunk), list(stats[0].side_losses)
    rows: list[tuple[str, list[str]]] = []
    rows += [(f"P({n} sunk)", [_cell(s.sunk[n]) for s in stats]) for n in ships]
    rows += [(f"mean damage {n}", [_cell(s.damage[n]) for s in stats]) for n in ships]
    rows += [(f"ships sunk, {d}", [_cell(s.side_losses[d]) for s in stats]) for d in sides]
    rows += [(f"broke off, {d}", [_cell(s.broke_off[d]) for s in stats]) for d in sides]
    rows += [(f"hits scored, {d}", [_cell(s.hits[d], 1) for s in stats]) for d in sides]
    if any(s.rounds[d].value > 0 for s in stats for d in sides):
        rows += [(f"rounds fired, {d}", [_cell(s.rounds[d], 0) for s in stats]) for d in sides]
    rows.append(("duration, median min", [_cell(s.duration_min, 0) for s in stats]))
    none = Estimate(0, 0.0, math.nan, math.nan)
    for r in sorted({r for s in stats for r in s.reasons}):
        rows.append((f"ended: {r}", [_cell(s.reasons.get(r, none)) for s in stats]))
    return rows


def statistics_table(duel: Duel, stats: Sequence[DuelStatistics]) -> str:
    """Each engine's outcomes side by side, each with its 95 % interval in brackets."""
    rows = statistics_rows(stats)
    width = max(len(c) for _, cells in rows for c in cells) + 2
    lines = [f"{duel.title}: {stats[0].runs} runs per engine (95 % intervals in brackets)",
             f"{'':<28}" + "".join(f"{s.engine:>{width}}" for s in stats)]
    lines += [f"{label:<28}" + "".join(f"{c:>{width}}" for c in cells) for label, cells in rows]
    return "\n".join(lines)


def write_duel_statistics(duel: Duel, engines: Sequence[str], runs: int, seed: int,
                          out_dir: Path, workers: int = 1) -> tuple[str, list[Path]]:
    """Fight ``runs`` times under each engine (on ``workers`` processes); write duel.json; return the
    side-by-side table."""
    from campaign.progress import counted

    with counted(f"{duel.name}: {runs:,} runs under {', '.join(engines)}", runs * len(engines)) as advance:
        stats = [duel_statistics(duel, e, runs, seed, workers, advance) for e in engines]
    stand_ins = duel_stand_ins(duel, engines)
    doc = {"duel": duel.name, "title": duel.title, "runs": runs, "first_seed": seed,
           "range_yd": duel.range_yd, "range_nm": round(duel.range_yd / YD_PER_NM, 2),
           "history": duel.history, "engines": [s.as_dict() for s in stats],
           "stand_ins": {e: [s.id for s in found] for e, found in stand_ins.items()}}
    written = write_all(out_dir, {"duel.json": lambda p: write_json(p, json.loads(json.dumps(doc)))})
    return statistics_table(duel, stats) + "\n\n" + stand_ins_text(stand_ins), written
