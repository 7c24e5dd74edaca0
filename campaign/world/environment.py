"""The world's SimPy environment: SimPy's own, with a hook for work held back until it could be seen.

Some of the world's work is wasted when done at once: a force that is given new orders ends its leg
(and the eyes are told it lies still) and, in the same instant and the same process, starts a new leg
(and the eyes are told again). The first telling is never seen by anyone. Work of that kind is handed
to :meth:`WorldEnvironment.on_settle` and done at the last moment at which the order of events could
still depend on it: before any event is scheduled (so every event it schedules keeps its place in
SimPy's order) and at the end of every step.

An event may also keep a place in SimPy's order before its time is known (:meth:`WorldEnvironment.reserve`
and :meth:`WorldEnvironment.event_at`): the sighting model searches ahead in instalments, and a change it
finds late must come, among the events of its instant, where it would have come had it been found at once.
"""

from __future__ import annotations

from collections.abc import Callable, Sized
from typing import Generic, TypeVar

from heapq import heappush

import simpy
from simpy.core import NORMAL, URGENT, EventPriority, SimTime
from simpy.events import Event

T = TypeVar("T")


class WorldEnvironment(simpy.Environment):
    """``simpy.Environment`` that runs its *settle* callbacks before scheduling any event and after
    every step. A callback must be cheap when it has nothing to do, and must not re-enter itself."""

    def __init__(self, initial_time: SimTime = 0) -> None:
        super().__init__(initial_time)
        # (callback, what it has to do): see on_settle.
        self._settle: list[tuple[Callable[[], None], Sized | None]] = []

    def on_settle(self, fn: Callable[[], None], due: Sized | None = None) -> None:
        """Run ``fn`` before every event is scheduled and after every step. ``due``, if given, is a
        container that is empty whenever ``fn`` has nothing to do: it is then not called at all (it is
        asked twice an event, and is idle nearly always)."""
        self._settle.append((fn, due))

    def settle(self) -> None:
        """Do the held-back work now."""
        for fn, due in self._settle:
            if due is None or due:
                fn()

    def schedule(self, event: Event, priority: EventPriority = NORMAL, delay: SimTime = 0) -> None:
        self.settle()
        super().schedule(event, priority, delay)

    def step(self) -> None:
        try:
            super().step()
        finally:
            self.settle()

    def reserve(self) -> int:
        """Take now the place in SimPy's order of events that an event scheduled now would have (its
        event id: SimPy orders the events of one instant by time, priority, then id), for an event
        whose time is found later (:meth:`event_at`). Settles first, as scheduling does."""
        self.settle()
        return next(self._eid)

    def event_at(self, when: SimTime, place: int) -> Event:
        """A triggered event that occurs at ``when`` (not before now) in the ``place`` taken by
        :meth:`reserve`: among the events of its instant, where one scheduled at the reservation
        would come."""
        return self._push(when, NORMAL, place)

    def first_at(self, when: SimTime) -> Event:
        """A triggered event that occurs at ``when`` (not before now) ahead of every ordinary event of
        that instant (SimPy's urgent priority): whoever waits on it may still reserve or schedule a
        place among them."""
        self.settle()
        return self._push(when, URGENT, next(self._eid))

    def _push(self, when: SimTime, priority: EventPriority, place: int) -> Event:
        if when < self._now:
            raise ValueError(f"an event at {when} is in the past (now {self._now})")
        event = Event(self)
        event._ok = True
        event._value = None
        heappush(self._queue, (when, priority, place, event))
        return event


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
            # Nothing held, nothing to do: the environment need not call it (the dict is never replaced).
            on_settle(self.settle, self._due)

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
