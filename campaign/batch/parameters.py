"""Scenario parameters a batch's experiment design may vary, and how each changes a loaded scenario.

Each parameter is applied to a resolved ``Scenario`` (after its what-if overlay), so a design point
sets the parameter whatever the variant says:

``sighting_range_factor``
    the scenario's ``factors.sighting_range``: every sighting range of data/sighting.yaml (smoke, hull,
    recognition) times the factor (campaign/world/sighting.py ``SightingRules.scaled``).
``telegraph_delay_factor``
    the scenario's ``factors.telegraph_delay``: every telegraph delay of data/telegraph.yaml (minutes
    per 1,000 nm by day and night, handling at stations, dispatch at headquarters) times the factor
    (campaign/world/signal_data.py ``SignalData.with_telegraph_delay``).
``goeben_sustained_kn``
    Goeben's sustained speed, knots (as a scenario's ``ship_changes`` would set it: the speed she can
    hold, which caps her on passage and in battle). Her design speed is raised to it and her economical
    speed lowered to it where needed, so that design >= sustained >= economical still holds.

A value of 1.0 for a factor, or Goeben's own sustained speed, leaves the run exactly as it was.

Because a design point sets its parameters over the variant's own values, a variant whose change is to
one of them (``goeben_no_fast_speed`` sets Goeben's sustained speed) keeps nothing of that change in a
design that varies it: :func:`overrides` finds such cases when the batch is planned, so that the batch
and its analysis can say so rather than show paired differences of zero without a word.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from types import MappingProxyType

from campaign.scenario.model import Scenario


class ParameterError(ValueError):
    """A parameter that is unknown, out of its range, or that the scenario cannot take."""


@dataclass(frozen=True)
class Parameter:
    """A design parameter: its name (with units), its valid range (inclusive) and what it changes."""

    name: str
    low: float
    high: float
    what: str
    apply: Callable[[Scenario, float], Scenario]
    read: Callable[[Scenario], float | None]  # the value a scenario has (None: it cannot take the parameter)


def _sighting(sc: Scenario, value: float) -> Scenario:
    return replace(sc, factors=replace(sc.factors, sighting_range=float(value)))


def _telegraph(sc: Scenario, value: float) -> Scenario:
    return replace(sc, factors=replace(sc.factors, telegraph_delay=float(value)))


def _sustained_of(ship_name: str) -> Callable[[Scenario], float | None]:
    def read(sc: Scenario) -> float | None:
        return next((sh.sustained_speed_kn for f in sc.forces for sh in f.ships if sh.name == ship_name), None)

    return read


def _sustained(ship_name: str) -> Callable[[Scenario, float], Scenario]:
    def apply(sc: Scenario, value: float) -> Scenario:
        found = False
        forces = []
        for f in sc.forces:
            ships = []
            for sh in f.ships:
                if sh.name == ship_name:
                    found = True
                    sources = dict(sh.sources) | {"speed_kn": "batch design parameter (campaign/batch/parameters.py)"}
                    sh = replace(sh, sustained_speed_kn=float(value),
                                 design_speed_kn=max(sh.design_speed_kn, float(value)),
                                 economical_speed_kn=min(sh.economical_speed_kn, float(value)),
                                 sources=MappingProxyType(sources))
                ships.append(sh)
            forces.append(replace(f, ships=tuple(ships)))
        if not found:
            raise ParameterError(f"the scenario '{sc.name}' has no ship {ship_name}")
        return replace(sc, forces=tuple(forces))

    return apply


# Ranges: factors between a tenth and ten times the sourced rules (the schema's bounds for `factors:`);
# speeds within the schema's bounds for a ship change (0 < kn <= 40, campaign/scenario/schema.py).
PARAMETERS: Mapping[str, Parameter] = MappingProxyType({p.name: p for p in (
    Parameter("sighting_range_factor", 0.1, 10.0, "every sighting range times this", _sighting,
              lambda sc: sc.factors.sighting_range),
    Parameter("telegraph_delay_factor", 0.1, 10.0, "every telegraph delay times this", _telegraph,
              lambda sc: sc.factors.telegraph_delay),
    Parameter("goeben_sustained_kn", 1.0, 40.0, "Goeben's sustained speed, kn", _sustained("Goeben"),
              _sustained_of("Goeben")),
)})


def parameter(name: str) -> Parameter:
    """The parameter called ``name``; ParameterError naming the known ones otherwise."""
    try:
        return PARAMETERS[name]
    except KeyError:
        raise ParameterError(f"unknown parameter '{name}' (known: {', '.join(PARAMETERS)})") from None


def check_value(name: str, value: float) -> None:
    """ParameterError if ``value`` is outside the parameter's valid range."""
    p = parameter(name)
    if not p.low <= value <= p.high:
        raise ParameterError(f"{name}: {value:g} is outside {p.low:g}..{p.high:g}")


def apply_parameters(sc: Scenario, values: Mapping[str, float]) -> Scenario:
    """The scenario with each named parameter set to its value (in the order given)."""
    for name, value in values.items():
        check_value(name, value)
        sc = parameter(name).apply(sc, value)
    return sc


@dataclass(frozen=True)
class Override:
    """A variant's own value of a design parameter, which the design replaces at every point."""

    variant: str
    parameter: str
    variant_value: float
    base_value: float
    nothing_else: bool  # at every point the variant is the base scenario (paired differences nil)

    def describe(self) -> str:
        """One sentence for the batch's and the analysis's notes."""
        rest = ("so at every point it runs as the base does: its paired differences are zero by construction"
                if self.nothing_else else "so at each point it keeps only its other changes")
        return (f"{self.variant}: the design sets {self.parameter} at every point, in place of the variant's own "
                f"{self.variant_value:g} (the base's {self.base_value:g}), {rest}")

    def describe_set(self) -> str:
        """One sentence for a single run given the parameter with ``--set``."""
        rest = ("so this run is the base scenario's at that value" if self.nothing_else
                else "so the run keeps only the variant's other changes")
        return (f"--set {self.parameter} replaces {self.variant}'s own {self.variant_value:g} (the base's "
                f"{self.base_value:g}), {rest}")


# Fields that say where a scenario's facts come from or what it is called, not how it runs: two scenarios
# equal but for them run alike.
PROVENANCE_FIELDS = frozenset({"title", "description", "summary", "path", "variant", "sources", "note", "notes"})


Proven = dict[tuple[int, int], tuple[object, object]]  # pairs of objects found alike, by their ids


def _alike(a: object, b: object, known: Proven, learnt: Proven) -> bool:
    """Are ``a`` and ``b`` equal but for the provenance fields of the dataclasses in them?

    ``known`` holds pairs of objects already found alike (keyed by their ids, and holding them so that
    the ids stay theirs); those found now go into ``learnt`` (which may be ``known`` itself). A scenario
    with a design point's values applied shares nearly all its parts with the scenario as loaded, so
    that each further point compares only the few parts it made."""
    if a is b:
        return True
    key = (id(a), id(b))
    if key in known or key in learnt:
        return True
    if dataclasses.is_dataclass(a) and not isinstance(a, type):
        same = type(a) is type(b) and all(_alike(getattr(a, f.name), getattr(b, f.name), known, learnt)
                                          for f in dataclasses.fields(a) if f.name not in PROVENANCE_FIELDS)
    elif isinstance(a, Mapping):
        same = (isinstance(b, Mapping) and a.keys() == b.keys()
                and all(_alike(a[k], b[k], known, learnt) for k in a))
    elif isinstance(a, (list, tuple)):
        same = (isinstance(b, (list, tuple)) and len(a) == len(b)
                and all(_alike(x, y, known, learnt) for x, y in zip(a, b)))
    else:
        try:
            same = bool(a == b)
        except (TypeError, ValueError):  # an array's elementwise answer: not known alike
            same = False
    if same:
        learnt[key] = (a, b)
    return same


def runs_alike(a: Scenario, b: Scenario, known: Proven | None = None, learnt: Proven | None = None) -> bool:
    """Are ``a`` and ``b`` the same scenario but for their own names and citations (the scenario's
    ``name``, which a variant's carries, and :data:`PROVENANCE_FIELDS` throughout)? ``known``: pairs of
    parts found alike before (see :func:`_alike`), which those found now join unless ``learnt`` is given."""
    known = {} if known is None else known
    return _alike(replace(a, name=""), replace(b, name=""), known, known if learnt is None else learnt)


def overrides(variant: str, sc: Scenario, base: Scenario, names: Sequence[str],
              points: Sequence[Mapping[str, float]]) -> tuple[Override, ...]:
    """The design parameters ``names`` whose value in variant ``variant`` (scenario ``sc``) differs from the
    base's: the design's ``points`` replace that change of the variant's. ``nothing_else`` when, at every
    point, the variant with the point's values runs as the base with them."""
    own = [(n, parameter(n).read(sc), parameter(n).read(base)) for n in names]
    changed = [(n, v, b) for n, v, b in own if v is not None and b is not None and v != b]
    if not changed:
        return ()
    # The pairs the first point proves alike (every part of the scenario) serve every later point; what a
    # later point proves of its own new parts is forgotten with it, so that memory does not grow with the
    # design's points.
    known: Proven = {}
    same = all(runs_alike(apply_parameters(sc, p), apply_parameters(base, p), known, None if i == 0 else {})
               for i, p in enumerate(points))
    return tuple(Override(variant, n, float(v), float(b), same) for n, v, b in changed)
