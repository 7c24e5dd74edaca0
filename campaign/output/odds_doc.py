"""The duels' odds as a section of ``docs/battles.md``: for each duel, every engine's outcomes with their
95 % intervals beside what happened (or what contemporaries judged would happen), and a sentence per
engine saying whether it agrees.

An engine *favours* the side whose ships come off better: the lower mean damage over its ships (a ship
sunk counts as damage 1), by more than ``MARGIN``; within it, neither. The duel file's ``record.favoured``
names the side the record or the judgement favours (null: neither); where it gives ``record.sunk``, a
second sentence names the ships the engine sinks in most runs and the record does not, or spares and the
record sinks. The section lies between ``BEGIN`` and
``END`` and is rewritten whole by ``tools/battle_odds.py``; the rest of the page is left as it is.
"""

from __future__ import annotations

from collections.abc import Sequence

from campaign.duels.duel import Duel
from campaign.duels.duel_odds import DuelStatistics, side_of_ships
from campaign.model.ships import find_ship
from campaign.output.duel_report import statistics_rows

BEGIN = "<!-- odds: begin; rewritten by tools/battle_odds.py, edit that, not this -->"
END = "<!-- odds: end -->"
MARGIN = 0.05  # mean damage a side must be better by for an engine to favour it


def side_damage(duel: Duel, st: DuelStatistics) -> dict[str, float]:
    """Each side's mean damage over its ships."""
    side_of = side_of_ships(duel)
    out: dict[str, float] = {}
    for side in (s.name for s in duel.sides):
        values = [st.damage[n].value for n, sd in side_of.items() if sd == side]
        out[side] = sum(values) / len(values)
    return out


def favoured_by(duel: Duel, st: DuelStatistics) -> str | None:
    """The side an engine's outcomes favour, or None (see the module's docstring)."""
    dmg = side_damage(duel, st)
    a, b = (s.name for s in duel.sides)
    if abs(dmg[a] - dmg[b]) <= MARGIN:
        return None
    return a if dmg[a] < dmg[b] else b


def sinkings(duel: Duel, st: DuelStatistics) -> str:
    """Where the engine's sinkings (a ship sunk in most runs) differ from the record's, or ``""``."""
    if duel.record is None or duel.record.sunk is None:
        return ""
    names = {n: find_ship(n).name for side in duel.sides for n in side.ships}
    wanted = {names[n] for n in duel.record.sunk}
    sinks = [f"{n} ({e.value:.2f})" for n, e in st.sunk.items() if e.value > 0.5 and n not in wanted]
    spares = [f"{n} ({e.value:.2f})" for n, e in st.sunk.items() if e.value <= 0.5 and n in wanted]
    if not sinks and not spares:
        return ""
    record = ", ".join(sorted(wanted)) or "no ship"
    bits = ([f"sinks {', '.join(sinks)}"] if sinks else []) + ([f"spares {', '.join(spares)}"] if spares else [])
    return f" The record has {record} sunk; this engine {' and '.join(bits)} in most runs."


def verdict(duel: Duel, st: DuelStatistics) -> str:
    """One sentence on which side the engine favours, by how much, and whether the record agrees; another
    where its sinkings differ from the record's."""
    dmg = side_damage(duel, st)
    side = favoured_by(duel, st)
    figures = " against ".join(f"{s} {dmg[s]:.2f}" for s in dmg)
    said = f"favours {side}" if side else "favours neither side"
    text = f"**{st.engine}** {said} (mean damage a ship: {figures})"
    if duel.record is None:
        return text + "."
    wanted = duel.record.favoured
    if side == wanted:
        return text + ", as the record does." + sinkings(duel, st)
    record = f"the record favours {wanted}" if wanted else "the record favours neither"
    return text + f"; {record}: this engine differs." + sinkings(duel, st)


def duel_section(duel: Duel, stats: Sequence[DuelStatistics]) -> str:
    """A duel's table (a row per figure, a column per engine) with the record and the verdicts."""
    rows = statistics_rows(stats)
    first, runs = stats[0].first_seed, stats[0].runs
    where = (f"`{duel.path.name if duel.path else duel.name}`: {duel.range_yd:,.0f} yd, "
             f"{duel.when:%d %B %Y %H:%M} UT; {runs:,} runs per engine, seeds {first}–{first + runs - 1}.")
    lines = [f"### {duel.title}", "", where, "",
             "| | " + " | ".join(s.engine for s in stats) + " |",
             "|---|" + "---|" * len(stats)]
    lines += [f"| {label} | " + " | ".join(cells) + " |" for label, cells in rows]
    lines.append("")
    if duel.record is not None:
        kind = "What happened" if duel.record.kind == "fought" else "What was judged (not fought)"
        lines += [f"{kind}: {duel.record.text.strip()} ({duel.record.source.strip()})", ""]
    lines += [f"- {verdict(duel, st)}" for st in stats]
    return "\n".join(lines)


def odds_block(sections: Sequence[str], command: str) -> str:
    """The whole section between the markers."""
    head = (f"Every figure with its 95 % interval in brackets (proportions: Wilson; means: Student's t; the "
            f"median: the order statistics). Regenerate with `{command}`.")
    return "\n".join([BEGIN, head, "", *("\n\n".join(sections).splitlines()), END])


def replace_block(page: str, block: str) -> str:
    """``page`` with the text between the markers (inclusive) replaced by ``block``; appended under a
    heading of its own if the page has no markers yet."""
    if BEGIN in page and END in page:
        start, end = page.index(BEGIN), page.index(END) + len(END)
        return page[:start] + block + page[end:]
    return page.rstrip("\n") + "\n\n## The odds\n\n" + block + "\n"
