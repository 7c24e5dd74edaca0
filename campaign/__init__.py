"""A discrete-event simulator of naval campaigns on the real Earth: the Mediterranean, August 1914.

``campaign.run(scenario, seed=...)`` runs one replicate and returns its records, tracks and summary;
``campaign.load_scenario(path)`` validates a scenario file. See README.md and docs/ for a tour.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

__all__ = ["RunResult", "load_scenario", "run"]

if TYPE_CHECKING:
    from campaign.runner import RunResult, run
    from campaign.scenario.loader import load_scenario


def __getattr__(name: str) -> Any:
    # Imported on first use, so that ``import campaign.geo.earth`` stays light.
    if name in ("run", "RunResult"):
        from campaign import runner as _run

        return getattr(_run, name)
    if name == "load_scenario":
        from campaign.scenario.loader import load_scenario

        return load_scenario
    raise AttributeError(name)
