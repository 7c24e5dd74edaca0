"""Benchmark: the cost of messages on the bundled telegraph and wireless network.

    python bench/bench_signals.py [--ships N] [--messages M] [--light sun|model]

Registers the Admiralty, the Admiralstab and N ships of both sides at random Mediterranean positions,
sends M messages (half headquarters-to-ship, half ship-to-ship) and runs them to delivery. Prints, from
one run: the route search per message, the delivery per message, and both as ratios to a raw SimPy
process doing the same number of timeouts without routing (the floor any SimPy model pays). It measures;
it does not judge.
"""

from __future__ import annotations

import argparse
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import numpy as np
import simpy

from campaign.clock import Clock
from campaign.records import Recorder
from campaign.world.signals import SignalNetwork, default_is_night

SIDES = {"United Kingdom": "Entente", "France": "Entente", "Germany": "Central Powers"}


def sun_only(lat: float, lon: float, when: datetime) -> bool:
    from campaign.output.replay_sun import sun_altitude_deg

    return sun_altitude_deg(lat, lon, when) < -6.0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--ships", type=int, default=40)
    ap.add_argument("--messages", type=int, default=400)
    ap.add_argument("--light", choices=("sun", "model"), default="model",
                    help="judge night by the sun alone or by campaign.world.light (default)")
    args = ap.parse_args()
    rng = np.random.default_rng(1914)
    env, rec = simpy.Environment(), Recorder()
    is_night = default_is_night if args.light == "model" else sun_only
    is_night(35.9, 14.5, datetime(1914, 8, 4, tzinfo=UTC))  # import and warm the light model once
    net = SignalNetwork(env, rec.emit, Clock(datetime(1914, 8, 4, 6, 0, tzinfo=UTC)), rng, is_night=is_night,
                        sides=SIDES)
    net.register("Admiralty", "Entente", "United Kingdom", station="London")
    net.register("Admiralstab", "Central Powers", "Germany", station="Berlin")
    for i in range(args.ships):
        lat, lon, course = rng.uniform(34.0, 39.0), rng.uniform(4.0, 24.0), rng.uniform(0, 360)
        side, nation = ("Entente", "United Kingdom") if i % 2 else ("Central Powers", "Germany")

        def leg(t: float, lat=lat, lon=lon, course=course) -> tuple[float, float]:
            run_nm, rad = 0.25 * t, np.radians(course)  # 15 kn on a plane chart: enough for a benchmark
            return (float(lat + run_nm * np.cos(rad) / 60.0),
                    float(lon + run_nm * np.sin(rad) / (60.0 * np.cos(np.radians(lat)))))

        net.register(f"S{i}", side, nation, leg, wireless="capital" if i % 3 else "light_cruiser")

    def send_all(env: simpy.Environment):
        for k in range(args.messages):
            a = int(rng.integers(args.ships))
            b = int(rng.integers(args.ships - 1))
            b = b + 1 if b >= a else b
            if k % 2:
                hq = "Admiralty" if a % 2 else "Admiralstab"
                net.send(hq, f"S{a}", "order", {"k": k}, "Proceed at once to the rendezvous")
            else:
                net.send(f"S{a}", f"S{b}", "report", {"k": k}, "Enemy in sight steering east")
            yield env.timeout(15)

    searches = {"n": 0}
    plan = net._plan

    def counted_plan(*a, **k):  # count route searches (held messages search again every retry)
        searches["n"] += 1
        return plan(*a, **k)

    net._plan = counted_plan  # type: ignore[method-assign]
    t0 = time.perf_counter()
    env.process(send_all(env))
    env.run(until=args.messages * 15)
    search = time.perf_counter() - t0
    t1 = time.perf_counter()
    env.run(until=args.messages * 15 + 3 * 1440)
    tail = time.perf_counter() - t1
    n_events = len(rec)

    raw_env = simpy.Environment()

    def raw(env: simpy.Environment):
        for _ in range(n_events):
            yield env.timeout(1)

    raw_env.process(raw(raw_env))
    t2 = time.perf_counter()
    raw_env.run()
    floor = time.perf_counter() - t2

    types = {t: sum(1 for r in rec.records if r.type == t) for t in
             ("message_sent", "message_received", "message_lost", "message_rerouted", "intercept")}
    total = search + tail
    print(f"ships {args.ships}, messages {args.messages}, light {args.light}")
    print(f"records: {types}")
    print(f"wall: {total:.3f} s in all, {1000 * total / args.messages:.2f} ms per message, "
          f"{searches['n']} route searches ({1000 * total / searches['n']:.2f} ms each, all costs included)")
    print(f"raw SimPy, {n_events} timeouts: {floor * 1000:.2f} ms; ratio {total / max(floor, 1e-9):.0f}x")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
