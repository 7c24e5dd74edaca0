"""The world's SimPy environment: held-back work is done before any event is scheduled and after each
step, so that nothing scheduled can overtake it."""

from __future__ import annotations

import pytest
import simpy
from hypothesis import given, settings
from hypothesis import strategies as st

from campaign.world.environment import HeldBack, WorldEnvironment


def test_settle_runs_before_every_schedule_and_after_every_step() -> None:
    env = WorldEnvironment()
    log: list[str] = []
    held: list[str] = []

    def settle() -> None:
        while held:
            log.append(f"settled {held.pop(0)} at {env.now:g}")

    env.on_settle(settle)

    def proc():
        held.append("a")
        log.append("scheduling")
        yield env.timeout(5)  # scheduling the timeout settles "a" first
        held.append("b")  # nothing is scheduled after this in the step: the step's end settles it
        log.append("done")

    env.process(proc())
    env.run()
    assert log == ["scheduling", "settled a at 0", "done", "settled b at 5"]
    assert env.now == 5


def test_it_is_simpys_environment_otherwise() -> None:
    env = WorldEnvironment()
    seen: list[tuple[float, str]] = []

    def proc(name: str, delay: float):
        yield env.timeout(delay)
        seen.append((env.now, name))

    for name, delay in (("late", 3.0), ("early", 1.0), ("tie-first", 2.0), ("tie-second", 2.0)):
        env.process(proc(name, delay))
    env.run(until=10)
    assert seen == [(1.0, "early"), (2.0, "tie-first"), (2.0, "tie-second"), (3.0, "late")]
    assert env.now == 10


def test_held_back_work_keeps_the_last_for_a_key_and_the_order_of_keys() -> None:
    env = WorldEnvironment()
    done: list[tuple[str, int]] = []
    held = HeldBack(env, lambda key, item: done.append((key, item)))

    def proc():
        held.put("Dublin", 1)
        held.put("Dublin", 2)  # replaces 1: nothing was scheduled between
        held.put("Gloucester", 3)  # another force: Dublin's comes first, as it came first
        held.put("Gloucester", 4)
        yield env.timeout(1)  # scheduling settles Gloucester's 4
        held.put("Dublin", 5)  # settled at the step's end

    env.process(proc())
    env.run()
    assert done == [("Dublin", 2), ("Gloucester", 4), ("Dublin", 5)]


def test_without_a_settling_environment_work_is_done_at_once() -> None:
    done: list[tuple[str, int]] = []
    held = HeldBack(simpy.Environment(), lambda key, item: done.append((key, item)))
    held.put("Dublin", 1)
    held.put("Dublin", 2)
    assert done == [("Dublin", 1), ("Dublin", 2)] and not held.deferred


def test_a_reserved_place_orders_an_event_scheduled_later_among_those_of_its_instant() -> None:
    """An event whose time is found later comes, among the events of its instant, where one scheduled
    at the reservation would have come; an urgent wake-up comes before every ordinary event then."""
    env = WorldEnvironment()
    order: list[str] = []

    def late(env):
        place = env.reserve()  # here an event at t=10 would be scheduled now...
        yield env.timeout(4)
        yield env.first_at(10)  # ...but its time is only found at 10 itself, ahead of the rest
        order.append("woke")
        yield env.event_at(10, place)
        order.append("late")

    def other(env, name, delay):
        yield env.timeout(delay)
        order.append(name)

    env.process(late(env))
    env.process(other(env, "after", 10))  # scheduled after the reservation: comes after it
    env.run()
    assert order == ["woke", "late", "after"]


def test_an_event_cannot_be_put_in_the_past() -> None:
    env = WorldEnvironment()
    env.run(until=5)
    with pytest.raises(ValueError, match="past"):
        env.event_at(4, env.reserve())
    with pytest.raises(ValueError, match="past"):
        env.first_at(4.9)


@settings(max_examples=200, deadline=None)
@given(delays=st.lists(st.tuples(st.sampled_from([0.0, 0.5, 1.0, 2.0]), st.sampled_from([0, 1]),
                                 st.integers(min_value=0, max_value=2)), min_size=1, max_size=12))
def test_scheduling_orders_events_as_simpys_own_scheduling_does(delays: list[tuple[float, int, int]]) -> None:
    """The push written out in ``schedule`` puts every event where ``simpy.Environment.schedule`` puts
    it: the same run of processes, with urgent and normal events and ties, happens in the same order."""
    def run(env: simpy.Environment) -> list[tuple[float, int]]:
        seen: list[tuple[float, int]] = []

        def proc(i: int, delay: float, priority: int, again: int):
            for _ in range(again + 1):
                event = simpy.Event(env)
                event._ok, event._value = True, None
                env.schedule(event, priority, delay)
                yield event
                seen.append((env.now, i))

        for i, (delay, priority, again) in enumerate(delays):
            env.process(proc(i, delay, priority, again))
        env.run()
        return seen

    assert run(WorldEnvironment()) == run(simpy.Environment())


class _AskEveryTime(WorldEnvironment):
    """The long way: every settle callback is called at every settling, idle or not."""

    def on_settle(self, fn, due=None) -> None:  # type: ignore[no-untyped-def]
        super().on_settle(fn)


@settings(max_examples=200, deadline=None)
@given(puts=st.lists(st.tuples(st.sampled_from([0.0, 1.0, 2.0]), st.sampled_from("abc"),
                               st.integers(min_value=0, max_value=2)), min_size=1, max_size=10))
def test_idle_held_back_work_is_not_asked_and_nothing_changes(puts: list[tuple[float, str, int]]) -> None:
    """Held-back work is skipped only while none is held: the work done, its order and its time are
    those of an environment that calls every settle callback every time; work that holds more work
    (held by the other, earlier registered, keeper) is done too."""
    def run(env: WorldEnvironment) -> list[tuple[float, str, str]]:
        log: list[tuple[float, str, str]] = []
        first = HeldBack(env, lambda key, item: log.append((env.now, "first", f"{key}{item}")))

        def second_does(key: str, item: int) -> None:
            log.append((env.now, "second", f"{key}{item}"))
            if item:
                first.put(key, item - 1)  # work that holds work for the keeper settled before it

        second = HeldBack(env, second_does)

        def proc(delay: float, key: str, item: int):
            yield env.timeout(delay)
            second.put(key, item)
            yield env.timeout(0)
            first.put(key, item)

        for delay, key, item in puts:
            env.process(proc(delay, key, item))
        env.run()
        return log

    assert run(WorldEnvironment()) == run(_AskEveryTime())
