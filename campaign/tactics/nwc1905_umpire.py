"""The umpire's settlement of a lingering contact by relative fighting values (seed 002 l.35-37).

"When forces stay within 2,000 yards (armored) or 4,000 yards (unarmored) for over an hour, the
umpire may decide by relative fighting values ... At 2:1 the inferior is removed; at 3:2 the inferior
loses half and the superior is unharmed; at 4:3 the superior is crippled and must withdraw
temporarily. Armored ships cannot be captured by unarmored ones regardless of numbers."

``settle`` is pure: it takes each side's ships in contact with their fighting values and says what
befalls each ship; the battle applies it (``nwc1905``). Readings of what the rules leave open are
STAND-INs in ``data/tactics/nwc1905.yaml`` (what "crippled" means, the inferior's fate at 4:3).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from campaign.tactics.nwc1905_rules import Nwc1905Rules

REMOVED = "removed"
LOSES_HALF = "loses_half"
CRIPPLED = "crippled"


@dataclass(frozen=True)
class InContact:
    """A ship of a force in close contact: her name, fighting value and whether she is armoured."""

    name: str
    fighting_value: float
    armoured: bool


@dataclass(frozen=True)
class Settlement:
    """The umpire's decision: the sides' ``ratio`` (superior over inferior), which side is superior
    and inferior, and each affected ship's fate (``REMOVED``, ``LOSES_HALF`` or ``CRIPPLED``)."""

    ratio: float
    superior: str
    inferior: str
    fates: Mapping[str, str]


def settle(rules: Nwc1905Rules, forces: Mapping[str, Sequence[InContact]]) -> Settlement | None:
    """Settle a contact between exactly two forces (``side -> ships in contact``) by the ratio of
    their summed fighting values; None if there are not two forces or the odds are under 4:3 (the
    rules then give the umpire nothing to decide by and the fight goes on)."""
    sides = [s for s, ships in forces.items() if ships]
    if len(sides) != 2:
        return None
    value = {s: sum(max(0.0, sh.fighting_value) for sh in forces[s]) for s in sides}
    a, b = sides
    superior, inferior = (a, b) if value[a] >= value[b] else (b, a)
    if value[superior] <= 0.0:
        return None
    ratio = float("inf") if value[inferior] <= 0.0 else value[superior] / value[inferior]
    if ratio < rules.settle_cripple_ratio:
        return None
    fates: dict[str, str] = {}
    superior_armoured = any(sh.armoured for sh in forces[superior])
    for sh in forces[inferior]:
        if ratio >= rules.settle_remove_ratio:
            # "Armored ships cannot be captured by unarmored ones regardless of numbers": an armoured
            # ship the unarmoured superior cannot remove loses half instead.
            fates[sh.name] = REMOVED if (superior_armoured or not sh.armoured) else LOSES_HALF
        elif ratio >= rules.settle_halve_ratio or rules.settle_inferior_at_cripple_loses_half:
            fates[sh.name] = LOSES_HALF
    if ratio < rules.settle_halve_ratio:
        for sh in forces[superior]:
            fates[sh.name] = CRIPPLED
    return Settlement(ratio, superior, inferior, fates)
