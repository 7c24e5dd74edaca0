"""When two hulls meet, what the blow was: the rule books' tests, shared by the engines that have them.

A ramming blow is a stem striking the side or stern of another hull (seed 002 l.55) at least
``min_closing_kn`` faster than the other moves along the striker's heading (seed 004 l.55: "at least 6
knots superiority of speed is needed to ram"). Stem to stem, or hulls meeting on opposite courses, is the
1905 rules' draw and Jane's "bow to bow". Figures: ``data/tactics/contact.yaml``. Whether the helm meant
it (a ram, not a collision) does not change what the blow does: a consort's stem sinks a friend as
surely (HMS Victoria, rammed by Camperdown, 22 June 1893).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from pathlib import Path

from campaign.datafile import load_yaml
from campaign.paths import DATA_DIR
from campaign.tactics.plane.hull import BOW, SIDE, STERN
from campaign.tactics.plane.motion import Contact

CONTACT_FILE = DATA_DIR / "tactics" / "contact.yaml"

#: What a meeting of two hulls came to.
RAMMED, STEM_TO_STEM, GLANCING = "rammed", "stem_to_stem", "glancing"


@dataclass(frozen=True)
class ContactRules:
    """``data/tactics/contact.yaml``."""

    end_fraction: float
    min_closing_kn: float
    opposite_courses_deg: float

    @classmethod
    def load(cls, path: Path = CONTACT_FILE) -> ContactRules:
        raw = load_yaml(Path(path).read_text(encoding="utf-8"))
        try:
            return cls(float(raw["hull"]["end_fraction"]), float(raw["ram"]["min_closing_kn"]),
                       float(raw["ram"]["opposite_courses_deg"]))
        except (KeyError, TypeError, ValueError) as exc:
            raise ValueError(f"{path}: missing or malformed field: {exc}") from exc


@functools.cache
def default_contact_rules() -> ContactRules:
    return ContactRules.load()


def blow(contact: Contact, courses_apart_deg: float, rules: ContactRules) -> str:
    """RAMMED (a stem into a side or stern fast enough), STEM_TO_STEM (stems meeting, or the hulls on
    opposite courses, fast enough) or GLANCING (anything slower or side by side)."""
    if contact.closing_kn < rules.min_closing_kn:
        return GLANCING
    if contact.stem_to_stem or (courses_apart_deg >= rules.opposite_courses_deg and contact.striker is not None
                                and BOW in (contact.part_a, contact.part_b)):
        return STEM_TO_STEM
    if contact.striker is not None:
        struck_part = contact.part_b if contact.striker == contact.a else contact.part_a
        if struck_part in (SIDE, STERN):
            return RAMMED
    return GLANCING
