"""The world's SimPy environment: SimPy's own, with a hook for work held back until it could be seen.

Some of the world's work is wasted when done at once: a force that is given new orders ends its leg
(and the eyes are told it lies still) and, in the same instant and the same process, starts a new leg
(and the eyes are told again). The first telling is never seen by anyone. Work of that kind is handed
to :meth:`WorldEnvironment.on_settle` and done at the last moment at which the order of events could
still depend on it: before any event is scheduled (so every event it schedules keeps its place in
SimPy's order) and at the end of every step.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Generic, TypeVar

import simpy
from simpy.core import NORMAL, EventPriority, SimTime
from simpy.events import Event

T = TypeVar("T")


class WorldEnvironment(simpy.Environment):
    """``simpy.Environment`` that runs its *settle* callbacks before scheduling any event and after
    every step. A callback must be cheap when it has nothing to do, and must not re-enter itself."""

    def __init__(self, initial_time: SimTime = 0) -> None:
        super().__init__(initial_time)
        self._settle: list[Callable[[], None]] = []

    def on_settle(self, fn: Callable[[], None]) -> None:
        """Run ``fn`` before every event is scheduled and after every step."""
        self._settle.append(fn)

    def settle(self) -> None:
        """Do the held-back work now."""
        for fn in self._settle:
            fn()

    def schedule(self, event: Event, priority: EventPriority = NORMAL, delay: SimTime = 0) -> None:
        self.settle()
        super().schedule(event, priority, delay)

    def step(self) -> None:
        try:
            super().step()
        finally:
            self.settle()


class HeldBack(Generic[T]):
    """Work per key (a force's name) held back until ``env`` settles, then done by ``do(key, item)``.

    Work put again for a key replaces the held one (only the last can matter); work for another key
    first does all that is held, so that the work is done in the order it came. Without a settling
    environment (a plain ``simpy.Environment``) the work is done at once.
    """

    def __init__(self, env: simpy.Environment, do: Callable[[str, T], None]) -> None:
        self._do = do
        self._due: dict[str, T] = {}
        self._busy = False
        on_settle = getattr(env, "on_settle", None)
        self.deferred = on_settle is not None
        if on_settle is not None:
            on_settle(self.settle)

    def put(self, key: str, item: T) -> None:
        if not self.deferred:
            self._do(key, item)
            return
        if self._due and key not in self._due:
            self.settle()
        self._due[key] = item

    def settle(self) -> None:
        """Do what is held, in the order it came (the work may schedule events: they settle nothing)."""
        if self._busy or not self._due:
            return
        self._busy = True
        try:
            while self._due:
                key = next(iter(self._due))
                self._do(key, self._due.pop(key))
        finally:
            self._busy = False
