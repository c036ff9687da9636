"""Montana benchmark: seeded deals of each size (`ranks`) through `ss.solve`, one deal at a time,
with a time limit per deal: how many are won, blocked and left open, and the time and positions a
deal takes, as the size grows.

    python benchmarks/bench_montana.py                       # ranks 4..8, 200 deals each, 2 s
    python benchmarks/bench_montana.py --ranks 13 --deals 20 --seconds 10 [--redeals 2]
"""

from __future__ import annotations

import argparse
import math
import statistics
import time

import solitaire_solver as ss


def p99(xs: list) -> float:
    s = sorted(xs)
    return s[math.ceil(0.99 * len(s)) - 1]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--ranks", type=int, nargs="+", default=[4, 5, 6, 7, 8])
    ap.add_argument("--deals", type=int, default=200)
    ap.add_argument("--seconds", type=float, default=2.0)
    ap.add_argument("--redeals", type=int, default=0)
    args = ap.parse_args()
    print("| ranks | redeals | deals | won | blocked | unknown | median ms | p99 ms | max ms "
          "| median states | max states |")
    print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for ranks in args.ranks:
        solver = ss.Solver("montana", ranks=ranks, redeals=args.redeals,
                           max_seconds=args.seconds)
        counts = {s: 0 for s in ss.Status}
        ms, states = [], []
        for seed in range(args.deals):
            t = time.perf_counter()
            r = solver.solve(ss.random_deal(seed))
            ms.append((time.perf_counter() - t) * 1000)
            states.append(r.stats.get("states", 0))
            counts[r.status] += 1
        print(f"| {ranks} | {args.redeals} | {args.deals} | {counts[ss.Status.WON]} "
              f"| {counts[ss.Status.BLOCKED]} | {counts[ss.Status.UNKNOWN]} "
              f"| {statistics.median(ms):,.1f} | {p99(ms):,.0f} | {max(ms):,.0f} "
              f"| {statistics.median(states):,.0f} | {max(states):,} |", flush=True)


if __name__ == "__main__":
    main()
