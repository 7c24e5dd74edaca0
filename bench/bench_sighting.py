"""Benchmark: sighting in the full historical scenario, event-driven against a polling baseline.

    python bench/bench_sighting.py [--seed N] [--step MIN] [--repeat R]

One process, one scenario (``scenarios/goeben_1914.yaml``), figures as ratios measured in the one run:

1. The event-driven model (``campaign.world.sighting``) runs the scenario once, with Jane's miss chance
   set to 0 so that both sides of the comparison see exactly the same ranges (no dice). The time spent
   in sighting is accumulated around its entry points (a motion handed to the model, a prediction
   firing, a change of contact), less the time the world's listeners take to react to a contact (the
   commanders' decisions are not sighting); its distance evaluations are the model's own count.
2. The polling baseline replays the same run's motions (``Contacts.history``, each held from the time
   it was handed to the model until the next) and evaluates every hostile pair every ``--step``
   minutes (default 6) with the same range model: the model's rules, the world's light and visibility
   at the observer, ``SightingModel.level_for``. It knows the truth at its samples and nothing between.
3. Side by side: the contacts each finds (level changes matched by pair and level), the onset errors of
   the baseline against the event-driven onsets, the contacts the baseline misses (those shorter than a
   step, mostly), and the cost of each (ms, distance evaluations).
4. The share of a replicate that sighting costs, over ``--repeat`` replicates of the scenario as it
   ships (miss chance as in the rules), routes and light tables warm as in ``bench_run.py``.

It measures; it does not judge. Where the two see the same model, every change the baseline finds is
one the event-driven model found, no later and less than a step earlier; the changes it misses are
those held for less than a step. A pair-sample at which the two read different levels follows such a
miss: recognition, once made, holds while the target stays in sight, so a baseline that did not see a
brief loss keeps a recognition the event-driven model had to make again. With ``--step 0.5`` the
baseline becomes a fine scan (slow) and checks the event-driven onsets to that step.
"""

from __future__ import annotations

import argparse
import dataclasses
import math
import statistics
import sys
import time
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from campaign.geo import earth
from campaign.geo.routing import default_router
from campaign.scenario.loader import load_scenario
from campaign.world.motion import Motion
from campaign.world.sighting import LEVELS, SightingModel, default_sighting_rules
from campaign.world.world import World

SCENARIO = ROOT / "scenarios" / "goeben_1914.yaml"

Change = tuple[float, int]  # (t_min, level reached)


# -- timing the event-driven model -------------------------------------------------------------------


class SightingClock:
    """Wall time spent inside sighting, counted once however the calls nest, with the time spent in
    the listeners (records, commanders) taken out."""

    def __init__(self) -> None:
        self.seconds = 0.0
        self._depth = 0
        self._since = 0.0

    def inside(self, fn: Callable[..., Any]) -> Callable[..., Any]:
        def timed(*args: Any, **kwargs: Any) -> Any:
            if self._depth == 0:
                self._since = time.perf_counter()
            self._depth += 1
            try:
                return fn(*args, **kwargs)
            finally:
                self._depth -= 1
                if self._depth == 0:
                    self.seconds += time.perf_counter() - self._since
        return timed

    def outside(self, fn: Callable[..., Any]) -> Callable[..., Any]:
        def paused(*args: Any, **kwargs: Any) -> Any:
            if self._depth == 0:
                return fn(*args, **kwargs)
            depth, self._depth = self._depth, 0
            self.seconds += time.perf_counter() - self._since
            try:
                return fn(*args, **kwargs)  # a listener may move a force: that is sighting again
            finally:
                self._depth = depth
                self._since = time.perf_counter()
        return paused


def instrumented_world(sc, seed: int, rules=None) -> tuple[World, SightingClock, list]:
    """A world whose sighting is timed, and the log of what was handed to the model:
    (t_min, force, motion or None when gone, the force's ships then). The motions handed over while
    the world was built (at t = 0) head the log."""
    world = World(sc, seed, sighting_rules=rules)
    clock = SightingClock()
    contacts, model = world.contacts, world.contacts.model
    handed: list[tuple[float, str, Motion | None, list]] = [
        (0.0, force, motion, list(contacts.ships_of(force)))
        for force, motions in contacts.history.items() for motion in motions]
    update = model.update

    def logged_update(force: str, motion: Motion | None) -> None:
        handed.append((world.env.now, force, motion, list(contacts.ships_of(force))))
        update(force, motion)

    model.update = clock.inside(logged_update)
    model._predict = clock.inside(model._predict)
    model._change = clock.inside(model._change)
    model.on_change = clock.outside(model.on_change)
    contacts.moved = clock.inside(contacts.moved)
    contacts.gone = clock.inside(contacts.gone)
    return world, clock, handed


def run_world(world: World) -> float:
    t0 = time.perf_counter()
    world.run()
    return time.perf_counter() - t0


def event_changes(world: World) -> dict[tuple[str, str], list[Change]]:
    out: dict[tuple[str, str], list[Change]] = defaultdict(list)
    for r in world.rec.records:
        if r.type == "sighting":
            out[(r.data["observer"], r.data["target"])].append((r.t_min, LEVELS.index(r.data["level"])))
        elif r.type == "contact_lost":
            out[(r.data["observer"], r.data["target"])].append((r.t_min, 0))
    return out


# -- the polling baseline ----------------------------------------------------------------------------


@dataclasses.dataclass
class Poll:
    changes: dict[tuple[str, str], list[Change]]
    seconds: float
    steps: int
    distances: int
    conditions: int


def tracks_from_history(world: World, handed: list) -> dict[str, list[tuple[float, Motion | None, list]]]:
    """Each force's motions from ``Contacts.history``, with the time each was handed to the model (from
    which it holds) and the force's ships then; None from the time the force was gone."""
    tracks: dict[str, list[tuple[float, Motion | None, list]]] = defaultdict(list)
    for force, motions in world.contacts.history.items():
        given = [(t, m, ships) for t, f, m, ships in handed if f == force and m is not None]
        if [m for _, m, _ in given] != [m for m in motions if m is not None]:
            raise RuntimeError(f"{force}: Contacts.history and the motions the model was given differ")
        tracks[force] = list(given)
    for t, force, motion, ships in handed:
        if motion is None:
            tracks[force].append((t, None, ships))
    for track in tracks.values():
        track.sort(key=lambda x: x[0])
    return tracks


def poll(world: World, handed: list, step_min: float) -> Poll:
    """Every hostile pair's level every ``step_min`` minutes, by the model's own range model."""
    model: SightingModel = world.contacts.model
    cond, rules = model.conditions, model.rules
    tracks = tracks_from_history(world, handed)
    names = sorted(tracks)
    pairs = [(a, b) for a in names for b in names if a != b and model.hostile(a, b)]
    level: dict[tuple[str, str], int] = dict.fromkeys(pairs, 0)
    changes: dict[tuple[str, str], list[Change]] = defaultdict(list)
    ranges: dict[tuple, tuple[float, float, float]] = {}
    idx = dict.fromkeys(names, -1)
    n_steps = math.ceil(world.end_min / step_min)
    n_dist = n_cond = 0
    t_start = time.perf_counter()
    for k in range(n_steps):
        t = k * step_min
        where: dict[str, tuple[float, float]] = {}
        ships: dict[str, list] = {}
        for f in names:
            tr = tracks[f]
            while idx[f] + 1 < len(tr) and tr[idx[f] + 1][0] <= t:
                idx[f] += 1
            if idx[f] >= 0 and tr[idx[f]][1] is not None:
                _, m, ships[f] = tr[idx[f]]
                where[f] = m.position(t)
        seen_in: dict[str, tuple[str, float]] = {}
        dist: dict[frozenset, float] = {}
        for key in pairs:
            obs, tgt = key
            if obs not in where or tgt not in where:
                new = 0
            else:
                if obs not in seen_in:
                    lat, lon = where[obs]
                    seen_in[obs] = (cond.light(lat, lon, t), cond.visibility(lat, lon, t))
                    n_cond += 1
                pk = frozenset(key)
                d = dist.get(pk)
                if d is None:
                    (la, lo), (lb, mb) = where[obs], where[tgt]
                    d = dist[pk] = earth.distance_nm(float(la), float(lo), float(lb), float(mb))
                    n_dist += 1
                light, vis = seen_in[obs]
                rk = (tuple(s.name for s in ships[tgt]), light, vis)
                r = ranges.get(rk)
                if r is None:
                    r = ranges[rk] = rules.ranges(ships[tgt], light, vis, False)
                new = model.level_for(d, *r, level[key])
            if new != level[key]:
                changes[key].append((t, new))
                level[key] = new
    return Poll(changes, time.perf_counter() - t_start, n_steps, n_dist, n_cond)


# -- matching ---------------------------------------------------------------------------------------


@dataclasses.dataclass
class Match:
    kind: str
    found_events: int = 0
    found_poll: int = 0
    matched: int = 0
    errors: list[float] = dataclasses.field(default_factory=list)
    brief: list[tuple[tuple[str, str], float, int, float]] = dataclasses.field(default_factory=list)
    merged: int = 0  # the baseline already held the level: it had missed a brief change in between
    extra: int = 0


def level_at(changes: list[Change], t: float) -> int:
    level = 0
    for s, lvl in changes:
        if s > t:
            break
        level = lvl
    return level


def match(ev: dict, po: dict, end_min: float, step_min: float) -> tuple[Match, Match, int, int]:
    """Each event-driven change of a pair to a level, held until the pair's next change, against the
    baseline: matched if the baseline changes to that level at its first sample in the hold (the error
    is that sample's lateness); brief if no sample falls in the hold (the baseline cannot see it);
    merged if the baseline already held that level there (it missed a brief change in between).
    Also returns the samples at which the two disagree on any pair's level, and the samples compared."""
    onsets, losses = Match("onsets"), Match("losses")
    used: dict[tuple[str, str], set[int]] = defaultdict(set)
    for key, seq in ev.items():
        polled = po.get(key, [])
        at = {s: j for j, (s, _) in enumerate(polled)}
        for i, (t, lvl) in enumerate(seq):
            m = onsets if lvl > 0 else losses
            m.found_events += 1
            until = seq[i + 1][0] if i + 1 < len(seq) else end_min
            sample = math.ceil(t / step_min - 1e-9) * step_min
            if sample >= until or sample >= end_min:
                m.brief.append((key, t, lvl, until - t))
                continue
            j = at.get(sample)
            if j is not None and polled[j][1] == lvl:
                used[key].add(j)
                m.matched += 1
                m.errors.append(sample - t)
            elif level_at(polled, sample) == lvl:
                m.merged += 1
    for key, polled in po.items():
        for j, (_, lvl) in enumerate(polled):
            m = onsets if lvl > 0 else losses
            m.found_poll += 1
            if j not in used[key]:
                m.extra += 1
    differ = compared = 0
    for key in set(ev) | set(po):
        e, q = ev.get(key, []), po.get(key, [])
        for k in range(math.ceil(end_min / step_min)):
            compared += 1
            differ += level_at(e, k * step_min) != level_at(q, k * step_min)
    return onsets, losses, differ, compared


# -- the report --------------------------------------------------------------------------------------


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=1, help="seed of the compared run (default 1)")
    parser.add_argument("--step", type=float, default=6.0, help="polling step, minutes (default 6)")
    parser.add_argument("--repeat", type=int, default=15, help="replicates for the share (default 15)")
    args = parser.parse_args()

    default_router()
    sc = load_scenario(SCENARIO)
    t0 = time.perf_counter()
    World(sc, 0).run()  # routes, light tables and whatever is kept across runs: warm, as bench_run.py
    cold_s = time.perf_counter() - t0

    # 1-3. One run, miss chance 0, against the polling baseline over its motions.
    no_miss = dataclasses.replace(default_sighting_rules(), miss_chance=0.0)
    world, clock, handed = instrumented_world(sc, args.seed, no_miss)
    run_s = run_world(world)
    model = world.contacts.model
    ev = event_changes(world)
    po = poll(world, handed, args.step)
    onsets, losses, differ, compared = match(ev, po.changes, world.end_min, args.step)

    # 4. The share of a replicate, over replicates as the scenario ships.
    shares, reps, sights = [], [], []
    for seed in range(2, 2 + args.repeat):
        w, c, _ = instrumented_world(sc, seed)
        s = run_world(w)
        reps.append(s)
        sights.append(c.seconds)
        shares.append(c.seconds / s)

    def ms(x: float) -> str:
        return f"{x * 1e3:9.1f} ms"

    pairs = sum(1 for a in world.contacts.history for b in world.contacts.history
                if a != b and model.hostile(a, b))
    print(f"scenario          {SCENARIO.name}, seed {args.seed}, miss chance 0 for both (same ranges)")
    print(f"forces / hostile ordered pairs   {len(world.contacts.history)} / {pairs};"
          f" motions handed to the model {sum(1 for h in handed if h[2] is not None)}")
    print()
    print(f"{'':34s}{'event-driven':>16s}{f'polling {args.step:g} min':>18s}{'ratio poll/event':>20s}")
    print(f"{'sighting cost':34s}{ms(clock.seconds):>16s}{ms(po.seconds):>18s}"
          f"{po.seconds / clock.seconds:>19.1f}x")
    print(f"{'distance evaluations':34s}{model.evaluations:>16d}{po.distances:>18d}"
          f"{po.distances / max(model.evaluations, 1):>19.1f}x")
    print(f"{'light/weather reads (poll)':34s}{'':>16s}{po.conditions:>18d}")
    for m in (onsets, losses):
        label = "sightings (level gained)" if m.kind == "onsets" else "contacts lost"
        print(f"{label:34s}{m.found_events:>16d}{m.found_poll:>18d}")
        print(f"{'  matched by pair and level':34s}{'':>16s}{m.matched:>18d}")
        print(f"{'  missed: held less than a step':34s}{'':>16s}{len(m.brief):>18d}")
        print(f"{'  missed: level already held':34s}{'':>16s}{m.merged:>18d}")
        print(f"{'  found only by the baseline':34s}{'':>16s}{m.extra:>18d}")
        if m.errors:
            print(f"{'  baseline lateness, min':34s}{'':>16s}{statistics.fmean(m.errors):>10.2f} mean"
                  f"{max(m.errors):>6.2f} max{min(m.errors):>6.2f} min")
    episodes_ev = sum(1 for seq in ev.values() for i, (t, lvl) in enumerate(seq)
                      if lvl > 0 and (i == 0 or seq[i - 1][1] == 0))
    episodes_po = sum(1 for seq in po.changes.values() for i, (t, lvl) in enumerate(seq)
                      if lvl > 0 and (i == 0 or seq[i - 1][1] == 0))
    print(f"{'contacts (first sight of approach)':34s}{episodes_ev:>16d}{episodes_po:>18d}")
    print(f"{'pair-samples where levels differ':34s}{differ:>16d}   of {compared} (pairs ever in contact)")
    brief = sorted(onsets.brief + losses.brief, key=lambda x: x[1])
    if brief:
        print(f"\nchanges the baseline cannot see (held less than {args.step:g} min):")
        for (obs, tgt), t, lvl, held in brief[:10]:
            print(f"  {obs} -> {tgt}  t={t:9.2f} min  {LEVELS[lvl]:10s}  held {held:6.2f} min")
        if len(brief) > 10:
            print(f"  ... and {len(brief) - 10} more")
    print()
    print(f"replicate (compared run, timers on)     {ms(run_s)};  sighting {100 * clock.seconds / run_s:5.1f} %")
    print(f"replicate (as shipped), median of {args.repeat:2d}   {ms(statistics.median(reps))};"
          f"  sighting {ms(statistics.median(sights))}"
          f" = {100 * statistics.median(shares):5.1f} % of the replicate (median share)")
    print(f"first replicate in this process         {ms(cold_s)} (routes, light tables computed)")


if __name__ == "__main__":
    main()
