"""The garbage collector of a worker process, set for long runs of replicates.

A replicate allocates a few hundred thousand short-lived objects, and the worker keeps far more that live
as long as it does: the sea graph, the remembered routes, light tables and scenarios. CPython's cyclic
collector walks every one of those again at each full collection, which cost about 60 ms a replicate of
the historical campaign (measured with ``gc.callbacks``: 44 ms of it in full collections).

Before each chunk the worker moves what is alive into the collector's permanent generation
(``gc.freeze``: they are never walked again, and still freed by reference counting), and collects the
youngest generation less often. Measured the same way this left about 20 ms a replicate; measured again
in December 2026 (30 replicates, one a task), the collection before each task took about 29 ms, most of
it freeing the last replicate's world, and the young collections about 12 ms a replicate
(docs/performance.md, "The garbage collector"). Nothing a replicate computes depends on when the
collector runs, so results are the same either way.
"""

from __future__ import annotations

import gc

# Allocations less deallocations between collections of the youngest generation (CPython's default is
# 700): a replicate's temporaries die young by reference counting, so collecting them every 700 finds
# little and costs a walk each time.
YOUNG_THRESHOLD = 20_000
# Young collections between middle ones, and middle between full ones (defaults 10 and 10).
MIDDLE_THRESHOLD = 50
OLD_THRESHOLD = 1_000


def settle_collector() -> None:
    """Collect once, freeze what survives, and set the thresholds: call between chunks of replicates,
    when what is alive is what the worker keeps (its caches), not a replicate's half-made state."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(YOUNG_THRESHOLD, MIDDLE_THRESHOLD, OLD_THRESHOLD)
