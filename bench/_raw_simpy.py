"""Raw SimPy, the yardstick of the benchmarks: a process yielding as many timeouts as a replicate has
events. Kept apart from the campaign's modules so that a process measuring it alone loads SimPy only."""

from __future__ import annotations

import simpy


def ticking(n_events: int) -> simpy.Environment:
    """A SimPy environment whose one process yields ``n_events`` timeouts: raw SimPy's cost for as many
    events as a replicate, once run."""
    env = simpy.Environment()

    def ticker(env):
        for _ in range(n_events):
            yield env.timeout(1)

    env.process(ticker(env))
    return env
