"""The tactical engines by name, as scenarios and ``--engine`` name them, and their damage options
(``damage:``, ``--damage``)."""

from __future__ import annotations

import importlib

from campaign.tactics.gwas import DAMAGE_CHOICES, check_damage
from campaign.tactics.protocol import Engine

#: engine name -> (module, class): NWC 1905 fleet game (seed 002), Jane's game (seed 004), the 1914
#: board game's combat table (seed 000).
ENGINES: dict[str, tuple[str, str]] = {
    "nwc1905": ("campaign.tactics.nwc1905", "Nwc1905Engine"),
    "jane": ("campaign.tactics.jane", "JaneEngine"),
    "board": ("campaign.tactics.board", "BoardEngine"),
}
DEFAULT_ENGINE = "nwc1905"


def engine_names() -> tuple[str, ...]:
    return tuple(ENGINES)


def damage_names() -> tuple[str, ...]:
    """The damage options (``get_engine``'s ``damage``)."""
    return DAMAGE_CHOICES


def get_engine(name: str, damage: str | None = None) -> Engine:
    """A fresh engine object of the named rule set; KeyError naming the choices if unknown. ``damage``:
    how its hits do damage, ``"own"`` (its rules') or ``"gwas"`` (Great War at Sea's damage model,
    ``campaign.tactics.gwas``); None: the engine's default (the board's data file says gwas, the others
    their own); ValueError naming the choices if unknown."""
    if name not in ENGINES:
        raise KeyError(f"unknown tactical engine '{name}': choose one of {', '.join(ENGINES)}")
    if damage is not None:
        check_damage(damage)
    module, cls = ENGINES[name]
    return getattr(importlib.import_module(module), cls)(damage=damage)
