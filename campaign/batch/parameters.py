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
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
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


def _sighting(sc: Scenario, value: float) -> Scenario:
    return replace(sc, factors=replace(sc.factors, sighting_range=float(value)))


def _telegraph(sc: Scenario, value: float) -> Scenario:
    return replace(sc, factors=replace(sc.factors, telegraph_delay=float(value)))


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
    Parameter("sighting_range_factor", 0.1, 10.0, "every sighting range times this", _sighting),
    Parameter("telegraph_delay_factor", 0.1, 10.0, "every telegraph delay times this", _telegraph),
    Parameter("goeben_sustained_kn", 1.0, 40.0, "Goeben's sustained speed, kn", _sustained("Goeben")),
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
