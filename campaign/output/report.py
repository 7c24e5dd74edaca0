"""``report.md``: a run told for a historian, beside its ``summary.json``.

The report has four parts, all from the records (every output is derived from the records: README, "What a run gives you") and the summary built from them:

1. the run: scenario, variant, seed, tactical engine, period and the clock its times are in;
2. how it ended: the historian's measures (``summary["measures"]``, campaign/output/scoring.py) as short
   tables: Goeben and Breslau (got away or not, when, with how much coal, brought to action, hits,
   sightings), the French 19th Corps, towns shelled, ships sunk, hits, where the German ships coaled;
3. the score under the scenario's victory conditions (``summary["scoring"]``), when it has any;
   then the run against the historical record, when the scenario has one (campaign/record);
4. the story: the notable records in time order, a day to a heading, one line each
   (campaign/output/report_story.py), in UTC with the scenario's local time beside it where it declares one.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from datetime import timedelta
from pathlib import Path
from typing import Any

from campaign.clock import parse_utc
from campaign.model.stand_ins import stand_in
from campaign.model.victory_rules import default_scoring
from campaign.output.replay_events import num
from campaign.output.report_story import story
from campaign.output.run_facts import Rec, RunFacts
from campaign.output.scoring import delivered, measures, score
from campaign.record.check import report_section


def write_report(path: Path, events: Iterable[Rec], summary: Mapping[str, Any], meta: Mapping[str, Any]) -> None:
    """Write :func:`build_report` to ``path`` (UTF-8)."""
    path.write_text(build_report(events, summary, meta), encoding="utf-8")


def build_report(events: Iterable[Rec], summary: Mapping[str, Any], meta: Mapping[str, Any]) -> str:
    """The report as Markdown text. ``summary`` is the run's summary (its ``measures`` and ``scoring`` are
    computed from ``events`` when it lacks them); ``meta`` the run's meta (name, title, seed, start, end,
    and where present variant, engine, local time)."""
    events = list(events)
    clock = _LocalClock.of(meta)
    m = summary.get("measures") if "measures" in summary else measures(events, meta)
    sc = summary.get("scoring") if "scoring" in summary else score(events, meta)
    parts = [_header(events, meta, clock), _measures(m or {}, clock), _score(sc),
             report_section(events, meta, table, md), _story(events, clock)]
    parts.insert(-1, _stand_ins(summary))
    return "\n".join(p for p in parts if p).rstrip() + "\n"


# -- time ----------------------------------------------------------------------------------------------


class _LocalClock:
    """UTC times as the report writes them, with the scenario's local time in brackets where declared."""

    def __init__(self, name: str | None, offset_h: float | None) -> None:
        self.name, self.offset_h = name, offset_h

    @classmethod
    def of(cls, meta: Mapping[str, Any]) -> _LocalClock:
        # As the replay reads it (campaign/output/replay.py): a ``local_time`` mapping first, else the flat
        # fields the run's meta carries.
        lt = meta.get("local_time")
        if isinstance(lt, Mapping) and lt.get("name") and lt.get("offset_h") is not None:
            return cls(str(lt["name"]), float(lt["offset_h"]))
        if meta.get("local_time_name") and meta.get("local_time_offset_h") is not None:
            return cls(str(meta["local_time_name"]), float(meta["local_time_offset_h"]))
        return cls(None, None)

    def local(self, iso: Any) -> str:
        if self.offset_h is None or not iso:
            return ""
        t = parse_utc(str(iso)) + timedelta(hours=self.offset_h)
        return f" ({t:%H:%M} {self.name})"

    def when(self, iso: Any) -> str:
        """"10 Aug 17:09 (18:09 CET)"; "—" when there is no time."""
        if not iso:
            return "—"
        t = parse_utc(str(iso))
        return f"{t.day} {t:%b %H:%M}{self.local(iso)}"


# -- the parts -----------------------------------------------------------------------------------------


def _header(events: list[Rec], meta: Mapping[str, Any], clock: _LocalClock) -> str:
    title = meta.get("title") or meta.get("name") or "A run"
    if meta.get("variant"):
        variant = str(meta["variant"]) + (f" — {meta['variant_title']}" if meta.get("variant_title") else "")
    else:
        variant = "none (the scenario as written)"
    engine = meta.get("engine") or next((r.get("engine") for r in events if r.get("type") == "engagement_start"),
                                        None) or "the scenario's"
    period = f"{clock.when(meta.get('start'))} to {clock.when(meta.get('end'))}"
    zone = f"UTC; {clock.name} (UTC{clock.offset_h:+g}) in brackets" if clock.offset_h is not None else "UTC"
    rows = [("Scenario", str(meta.get("name", "?"))), ("Variant", variant), ("Seed", str(meta.get("seed", "?"))),
            ("Tactical engine", str(engine)), ("Period", period), ("Times", zone)]
    return f"# {md(title)}\n\n" + table(("", ""), rows) + "\n"


def _loss(s: Mapping[str, Any], clock: _LocalClock) -> str:
    """A ship lost, as the score counts her: sunk (when, by whom) or considered sunk at the end (where)."""
    kind = str(s.get("type") or "").replace("_", " ")
    who = f"{s['ship']} ({', '.join(x for x in (s.get('nation') or s.get('side'), kind) if x)})"
    if s.get("how") == "considered sunk at the end":
        return (f"{who}, considered sunk at the end ({clock.when(s['t'])}): not got away"
                + (f", at {s['place']}" if s.get("place") else ", at sea"))
    return f"{who}, {clock.when(s['t'])}" + (f", by {s['by']}" if s.get("by") else "")


def _measures(m: Mapping[str, Any], clock: _LocalClock) -> str:
    out = ["## How it ended\n"]
    ships = m.get("ships") or {}
    if ships:
        rows = []
        for name, s in ships.items():
            fate = s.get("fate", "?")
            if s.get("escaped"):
                fate = f"escaped: {s.get('how')}"
            when = s.get("at") or (s.get("sunk") or {}).get("t")
            coal = "—"
            if s.get("coal_t") is not None:
                frac = f" ({num(100 * s['coal_fraction'])} % of {num(s.get('bunker_t'))} t)" if s.get(
                    "coal_fraction") is not None else ""
                coal = f"{num(s['coal_t'])} t{frac}"
            actions = ", ".join(f"battle {a['battle']} {clock.when(a.get('start'))}" for a in s.get("actions", [])) or "no"
            c = (m.get("contacts") or {}).get(name) or {}
            seen = "never"
            if c.get("contacts"):
                seen = (f"{c['contacts']} contact{'s' if c['contacts'] != 1 else ''}, first {clock.when(c['first']['t'])} ({c['first']['observer']}), "
                        f"last {clock.when(c['last']['t'])} ({c['last']['observer']})")
            rows.append((name, fate, clock.when(when), s.get("place") or (s.get("final") or {}).get("place") or "at sea",
                         coal, actions, str(s.get("hits_taken", 0)), seen))
        out.append(table(("Ship", "Fate", "When", "Where", "Coal then", "Brought to action", "Hits taken",
                          "Sighted by the enemy"), rows))
    troops = m.get("troops") or {}
    if troops:
        text = (f"**The French 19th Corps**: {num(troops.get('delivered_by_deadline'))} of "
                f"{num(troops.get('corps_divisions'))} divisions at {troops.get('destination')} by the deadline, "
                f"{clock.when(troops.get('deadline'))}; {num(troops.get('delivered_in_all'))} in all")
        if not troops.get("transports"):
            text += " (no troop transports in this run)"
        arrivals = "; ".join(f"{a['transport']} {clock.when(a['t'])}{'' if a['by_deadline'] else ' (late)'}"
                             for a in troops.get("arrivals", []))
        lost = troops.get("transports_sunk") or []
        out.append(text + (f". Arrivals: {arrivals}" if arrivals else "") + (f". Sunk: {', '.join(lost)}" if lost else "")
                   + ".\n")
    shelled = m.get("towns_shelled") or []
    out.append("**Towns shelled**: " + ("; ".join(
        f"{s['town']} ({s['nation']}) by {', '.join(s['ships'])}, {clock.when(s['t'])}" for s in shelled) or "none")
        + ".\n")
    sunk = (m.get("sunk") or {}).get("ships") or []
    out.append("**Ships sunk**: " + ("; ".join(_loss(s, clock) for s in sunk) or "none") + ".\n")
    dry = (m.get("out_of_coal") or {}).get("ships") or []
    out.append("**Ships out of coal**: " + ("; ".join(
        f"{s['ship']} ({s['nation'] or s['side']}), {clock.when(s['t'])}" for s in dry) or "none") + ".\n")
    hits = m.get("hits") or {}
    out.append("**Hits taken**: " + (", ".join(f"{k} {v}" for k, v in hits.items()) or "none") + ".\n")
    coal = m.get("coal") or {}
    if coal.get("ships"):
        rows = [(name, num(c["from_colliers_t"]), num(c["in_neutral_ports_t"]), num(c["in_friendly_ports_t"]),
                 "; ".join(f"{x['source']} {num(x['taken_t'])} t" for x in c["coalings"]))
                for name, c in coal["ships"].items()]
        tot = coal.get("totals") or {}
        rows.append(("all", num(tot.get("from_colliers_t")), num(tot.get("in_neutral_ports_t")),
                     num(tot.get("in_friendly_ports_t")), ""))
        out.append(f"**Coal taken by the warships of {' and '.join(coal.get('nations', []))}** (t):\n")
        out.append(table(("Ship", "From colliers", "In neutral ports", "In friendly ports", "Where"), rows))
    return "\n".join(out)


def _score(sc: Mapping[str, Any] | None) -> str:
    if not sc:
        return "## Score\n\nThe scenario has no scoring rules.\n"
    about = ("The victory conditions of the 1914 board game (seed 000), from data/scoring.yaml. Each side's "
             "secret die roll picks a column of its chart; **the charts' values are stand-ins**, as our copy of the "
             "seed lost them. The advanced game's points for French, Austrian and Italian ships sunk and enemy home "
             "ports shelled are the seed's own.\n")
    out = [f"## Score: {md(sc.get('title', ''))}\n", about]
    sides = sc.get("sides") or {}
    out.append(table(("Side", "Player", "Secret draw", "Column rewards", "Points"), [
        (side, s.get("player", ""), f"{s['draw']} ({s.get('chart')})" if s.get("draw") else "not drawn",
         s.get("column") or "—", "—" if s.get("total") is None else _n(s["total"])) for side, s in sides.items()]))
    rows = [(side, r["row"], _n(r["count"]), "—" if r.get("points_each") is None else _n(r["points_each"]),
             "—" if r.get("points") is None else _n(r["points"]))
            for side, s in sides.items() for r in list(s.get("rows", [])) + list(s.get("additional", []))
            if r.get("count")]
    if rows:
        out.append(table(("Side", "For", "Count", "Each", "Points"), rows))
    out.append(f"**Result: {md(sc.get('result', '?'))}.**\n")
    return "\n".join(out)


def _stand_ins(summary: Mapping[str, Any]) -> str:
    """The labelled stand-ins that bore on the run (``summary["stand_ins"]``), each with the battles it bore
    on (or the rearming); nothing when none did (no battle and no rearming)."""
    ids = summary.get("stand_ins") or []
    if not ids:
        return ""
    battles: dict[str, list[str]] = {}
    for b in summary.get("battles") or []:
        for i in b.get("stand_ins", []):
            battles.setdefault(i, []).append(str(b.get("battle")))
    rows = []
    for i in ids:
        nums = battles.get(i)
        where = f"battle{'s' if len(nums) > 1 else ''} {', '.join(nums)}" if nums else "rearming"
        rows.append((i, where, stand_in(i).file, stand_in(i).what))
    return ("## Stand-ins that bore on this run\n\nFigures no source read gives, labelled STAND-IN in their data "
            "files, that decide who wins a battle or how ships refill their outfits:\n\n"
            + table(("Stand-in", "Bore on", "Data file", "What"), rows))


def _n(x: Any) -> str:
    """A count or points: whole numbers plain, fractions (shares of a corps) to two decimals."""
    v = float(x)
    return str(int(v)) if v.is_integer() else f"{v:.2f}"


def _story(events: list[Rec], clock: _LocalClock) -> str:
    out = ["## The story\n"]
    day = None
    for ln in story(events, _marks(events)):
        t = parse_utc(ln.t)
        if t.date() != day:
            day = t.date()
            out.append(f"\n### {t:%A} {t.day} {t:%B %Y}\n")
        out.append(f"- **{t:%H:%M}**{clock.local(ln.t)} {md(ln.text)}")
    return "\n".join(out) + "\n"


def _marks(events: list[Rec]) -> dict[tuple[str, float], str]:
    """Words for the story's arrival lines: into the Dardanelles, out of the Mediterranean, troops landed."""
    d = default_scoring().definitions
    facts = RunFacts.from_events(events, d)
    marks: dict[tuple[str, float], str] = {}
    for ship, rec in facts.entered_dardanelles.items():
        # On the arrival that ends the passage in: the first record inside may be a sighting on the way.
        t_in = float(rec.get("t_min") or 0.0)
        after = [float(a.get("t_min") or 0.0) for a in facts.arrivals.get(ship, ())
                 if float(a.get("t_min") or 0.0) >= t_in]
        marks[(ship, min(after, default=t_in))] = "entered the Dardanelles"
    for ship, rec in facts.exited_west.items():
        marks[(ship, float(rec.get("t_min") or 0.0))] = "out of the Mediterranean"
    t_of = {str(a["transport"]): a for a in delivered(facts, d)}
    for ship, arrivals in facts.arrivals.items():
        for a in arrivals:
            got = t_of.get(ship)
            if got is not None and got["t"] == a.get("t"):
                marks[(ship, float(a.get("t_min") or 0.0))] = (
                    f"{num(got['divisions'])} division{'s' if got['divisions'] != 1 else ''} of the 19th Corps "
                    + ("in time" if got["by_deadline"] else "after the deadline"))
    return marks


# -- Markdown ------------------------------------------------------------------------------------------


def md(text: Any) -> str:
    """Text safe in Markdown: the characters that would start emphasis, code, links or HTML escaped."""
    out = str(text)
    for ch in "\\`*_[]<>":
        out = out.replace(ch, "\\" + ch)
    return out


def table(head: tuple[str, ...], rows: Iterable[tuple[Any, ...]]) -> str:
    """A Markdown table (cells escaped, '|' too)."""
    def cell(x: Any) -> str:
        return md(x).replace("|", "\\|").replace("\n", " ")

    lines = ["| " + " | ".join(cell(h) for h in head) + " |", "|" + "---|" * len(head)]
    lines += ["| " + " | ".join(cell(c) for c in row) + " |" for row in rows]
    return "\n".join(lines) + "\n"
