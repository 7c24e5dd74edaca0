"""The stand-ins that decide who wins a battle, as their data files label them, for the outputs to announce.

A figure no source gave is labelled STAND-IN where it stands; the few that decide outcomes are also listed,
machine-readably, under ``stand_ins:`` in their data file (``STAND_IN_FILES``), each with

    id        a short name, unique over the files;
    what      the figure and where it lives (one sentence);
    why       how it bears on who wins (one sentence);
    engines   the tactical engines whose battles it decides (``ENGINES``);
    scope     ``battle`` (default): it bears on every battle fought under those engines; ``rearm``: on a run
              in which ships filled their outfits at a base;
    damage    optional: it bears only on a battle whose hits that damage model scored (``gwas``).

The duel's odds, a run's ``summary.json`` and ``report.md`` and ``docs/battles.md`` name the ones that bore
on their result (``bearing_on_battle``, ``bearing_on_rearm``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import yaml

from campaign.datafile import load_yaml
from campaign.paths import DATA_DIR, ROOT

#: The data files that label outcome-deciding stand-ins, in the order they are announced.
STAND_IN_FILES: tuple[Path, ...] = (
    DATA_DIR / "ammunition.yaml",
    DATA_DIR / "tactics" / "helm.yaml",
    DATA_DIR / "tactics" / "jane.yaml",
    DATA_DIR / "tactics" / "nwc1905.yaml",
    DATA_DIR / "tactics" / "board.yaml",
    DATA_DIR / "tactics" / "damage.yaml",
)
#: The tactical engines (``campaign.tactics.engines``; kept here, as the model does not import the tactics).
ENGINES = ("nwc1905", "jane", "board")
SCOPES = ("battle", "rearm")
DAMAGE_MODELS = ("own", "gwas")
_KEYS = frozenset({"id", "what", "why", "engines", "scope", "damage"})


class StandInError(ValueError):
    """A ``stand_ins`` list is malformed; the message names the file, the entry and the field."""


@dataclass(frozen=True)
class StandIn:
    """One labelled stand-in that decides outcomes (module docstring); ``file`` is its data file's path in
    the repository (``data/...``)."""

    id: str
    what: str
    why: str
    engines: tuple[str, ...]
    file: str
    scope: str = "battle"
    damage: str | None = None

    def bears_on_battle(self, engine: str, damage_models: Iterable[str] = ()) -> bool:
        """Whether it decides a battle fought under ``engine`` whose hits were scored by ``damage_models``."""
        return (self.scope == "battle" and engine in self.engines
                and (self.damage is None or self.damage in set(damage_models)))


def _text(entry: Mapping[str, Any], key: str, where: str) -> str:
    value = entry.get(key)
    if not isinstance(value, str) or len(value.strip()) < 10:
        raise StandInError(f"{where}: field {key}: a sentence is needed")
    return " ".join(value.split())


def parse_stand_ins(raw: Any, file: str) -> list[StandIn]:
    """The ``stand_ins`` list of one data file's parsed YAML ``raw`` (none if it has no such list)."""
    entries = (raw or {}).get("stand_ins") if isinstance(raw, Mapping) else None
    if entries is None:
        return []
    if not isinstance(entries, list):
        raise StandInError(f"{file}: stand_ins: a list is needed")
    out: list[StandIn] = []
    for i, entry in enumerate(entries):
        where = f"{file}: stand_ins[{i}]"
        if not isinstance(entry, Mapping):
            raise StandInError(f"{where}: a mapping is needed")
        unknown = set(entry) - _KEYS
        if unknown:
            raise StandInError(f"{where}: unknown fields {sorted(unknown)}")
        sid = entry.get("id")
        if not isinstance(sid, str) or not sid.replace("_", "").isalnum() or not sid.islower():
            raise StandInError(f"{where}: field id: a lower-case name of letters, digits and '_' is needed")
        engines = entry.get("engines")
        if not isinstance(engines, list) or not engines or not set(engines) <= set(ENGINES):
            raise StandInError(f"{where} ({sid}): field engines: a list of {', '.join(ENGINES)} is needed")
        scope = entry.get("scope", "battle")
        if scope not in SCOPES:
            raise StandInError(f"{where} ({sid}): field scope: one of {', '.join(SCOPES)}")
        damage = entry.get("damage")
        if damage is not None and damage not in DAMAGE_MODELS:
            raise StandInError(f"{where} ({sid}): field damage: one of {', '.join(DAMAGE_MODELS)}, or none")
        out.append(StandIn(sid, _text(entry, "what", where), _text(entry, "why", where),
                           tuple(e for e in ENGINES if e in engines), file, scope, damage))
    return out


def load_stand_ins(paths: Sequence[Path] = STAND_IN_FILES) -> tuple[StandIn, ...]:
    """Every labelled stand-in of ``paths``; ``StandInError`` for a malformed entry or an id used twice."""
    found: list[StandIn] = []
    for path in paths:
        try:
            raw = load_yaml(Path(path).read_text(encoding="utf-8"))
        except (OSError, yaml.YAMLError) as exc:
            raise StandInError(f"{path}: cannot read: {exc}") from exc
        name = Path(path).resolve()
        label = str(name.relative_to(ROOT)) if name.is_relative_to(ROOT) else str(path)
        found += parse_stand_ins(raw, label)
    seen: dict[str, str] = {}
    for s in found:
        if s.id in seen:
            raise StandInError(f"stand-in id {s.id!r} is used in {seen[s.id]} and in {s.file}")
        seen[s.id] = s.file
    return tuple(found)


@cache
def default_stand_ins() -> tuple[StandIn, ...]:
    """The stand-ins labelled in the bundled data files, read once."""
    return load_stand_ins()


def stand_in(sid: str) -> StandIn:
    """The labelled stand-in ``sid``; KeyError if no data file labels one so."""
    for s in default_stand_ins():
        if s.id == sid:
            return s
    raise KeyError(f"no stand-in labelled {sid!r} in {', '.join(str(p.relative_to(ROOT)) for p in STAND_IN_FILES)}")


def bearing_on_battle(engine: str, damage_models: Iterable[str] = ()) -> tuple[StandIn, ...]:
    """The stand-ins that decide a battle under ``engine`` whose hits ``damage_models`` scored."""
    models = tuple(damage_models)
    return tuple(s for s in default_stand_ins() if s.bears_on_battle(engine, models))


def bearing_on_rearm() -> tuple[StandIn, ...]:
    """The stand-ins that decide how ships fill their outfits at a base (when a run rearmed any)."""
    return tuple(s for s in default_stand_ins() if s.scope == "rearm")


def announce(stand_ins: Sequence[StandIn], engines: Sequence[str] | None = None,
             heading: str = "Stand-ins that bear on this result") -> str:
    """The short list the duel prints: a heading, then one line a stand-in (id, the engines of ``engines``
    it bears on, or all of its own, its file, what it is); "" for none."""
    if not stand_ins:
        return ""
    lines = [f"{heading} (labelled STAND-IN in their data files):"]
    for s in stand_ins:
        on = [e for e in s.engines if engines is None or e in engines]
        lines.append(f"  - {s.id} ({', '.join(on)}; {s.file}): {s.what}")
    return "\n".join(lines)
