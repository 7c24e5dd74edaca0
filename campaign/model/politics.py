"""The political timeline of a scenario: wars, neutral waters, permissions and rules of engagement.

Plain data and pure queries (no SimPy). Times are scenario minutes. A scenario lists events; each
takes effect at its time and holds until a later event undoes it. The world asks ``Politics`` who may
fire on whom, which waters a nation's ships must keep out of, and what a nation is permitted, at any
time; commanders learn of the events only through messages.

Kinds of event:

* ``war``: two nations are at war from then on (``peace`` ends it).
* ``fire``: a nation may open fire on another before war (an exception to the rules of engagement,
  such as the British on German ships attacking a French transport, seed 000); ``hold_fire`` revokes.
* ``keep_out``: a nation's ships must keep out of a sovereign's territorial belt of ``width_nm``
  (Italy's 6 miles for the British from 4 August 1914); ``allow_in`` lifts it. It lapses while the
  nation is at war with the sovereign: the belt kept belligerents out of a neutral's waters (Hague
  Convention XIII, Art. 1-2), and an enemy's waters are not neutral.
* ``permit``: a nation is permitted something named (``enter_dardanelles``); ``forbid`` revokes.
* ``fire_on_attack``: from then on, a nation may open fire on another the moment ships of the second
  attack ships of ``protecting`` of the ``ship_types`` named (seed 000: "British ships can't fire on
  German ships until 1) the Germans attempt to sink a French Transport"). The world grants the leave
  (a ``fire`` event of its own) when the attack happens; ``hold_fire`` revokes either.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from dataclasses import dataclass, field

KINDS = ("war", "peace", "fire", "hold_fire", "keep_out", "allow_in", "permit", "forbid", "fire_on_attack")


@dataclass(frozen=True)
class PoliticalEvent:
    t_min: float
    kind: str
    nations: tuple[str, ...]  # war/peace: the two parties; fire: (shooter, target); others: who is bound
    sovereign: str | None = None  # keep_out/allow_in: whose waters
    width_nm: float | None = None
    what: str | None = None  # permit/forbid: the thing permitted
    note: str | None = None
    protecting: str | None = None  # fire_on_attack: whose ships' attack grants the leave
    ship_types: tuple[str, ...] = ()  # fire_on_attack: of which types (campaign.model.ships types)

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"unknown political event '{self.kind}' (known: {', '.join(KINDS)})")


def _pair(a: str, b: str) -> frozenset[str]:
    return frozenset((a, b))


@dataclass(frozen=True)
class Politics:
    """All the events of a scenario, with queries at any time."""

    events: tuple[PoliticalEvent, ...] = ()
    _sorted: tuple[PoliticalEvent, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_sorted", tuple(sorted(self.events, key=lambda e: e.t_min)))

    def _upto(self, t_min: float) -> Iterable[PoliticalEvent]:
        for e in self._sorted:
            if e.t_min > t_min:
                break
            yield e

    def change_times(self) -> tuple[float, ...]:
        """The times at which anything changes, ascending (worked out once: the events are fixed)."""
        return self._change_times

    @functools.cached_property
    def _change_times(self) -> tuple[float, ...]:
        return tuple(sorted({e.t_min for e in self._sorted}))

    def at_war(self, a: str, b: str, t_min: float) -> bool:
        state = False
        for e in self._upto(t_min):
            if e.kind in ("war", "peace") and _pair(*e.nations) == _pair(a, b):
                state = e.kind == "war"
        return state

    def may_fire(self, shooter: str, target: str, t_min: float) -> bool:
        """At war, or granted leave to fire before it."""
        if self.at_war(shooter, target, t_min):
            return True
        state = False
        for e in self._upto(t_min):
            if e.kind in ("fire", "hold_fire") and e.nations == (shooter, target):
                state = e.kind == "fire"
        return state

    def fire_on_attack(self, t_min: float) -> tuple[PoliticalEvent, ...]:
        """The conditional leaves to fire in force at ``t_min``: each (shooter, target) may fire once the
        target attacks ships of ``protecting`` of ``ship_types``. A later ``hold_fire`` of the same pair
        cancels it."""
        out: dict[tuple[str, ...], PoliticalEvent] = {}
        for e in self._upto(t_min):
            if e.kind == "fire_on_attack":
                out[e.nations] = e
            elif e.kind == "hold_fire":
                out.pop(e.nations, None)
        return tuple(out.values())

    def keep_out(self, nation: str, t_min: float) -> tuple[tuple[str, float], ...]:
        """The (sovereign, width in nm) belts that ``nation``'s ships must keep out of at ``t_min``."""
        belts: dict[str, float] = {}
        for e in self._upto(t_min):
            if nation not in e.nations or e.sovereign is None:
                continue
            if e.kind == "keep_out":
                belts[e.sovereign] = float(e.width_nm or 0.0)
            elif e.kind == "allow_in":
                belts.pop(e.sovereign, None)
        # A sovereign at war with the nation is no longer a neutral whose waters it must respect.
        return tuple(sorted((sov, w) for sov, w in belts.items() if not self.at_war(nation, sov, t_min)))

    def permitted(self, nation: str, what: str, t_min: float) -> bool:
        state = False
        for e in self._upto(t_min):
            if e.what == what and nation in e.nations and e.kind in ("permit", "forbid"):
                state = e.kind == "permit"
        return state

    def wars(self, t_min: float) -> tuple[frozenset[str], ...]:
        """The pairs of nations at war at ``t_min``."""
        out: dict[frozenset[str], bool] = {}
        for e in self._upto(t_min):
            if e.kind in ("war", "peace"):
                out[_pair(*e.nations)] = e.kind == "war"
        return tuple(p for p, w in out.items() if w)
