"""Montana benchmark: seeded deals of each size (`ranks`) through `ss.solve`, one deal at a time,
with a time limit per deal: how many are won, blocked and left open, and the time and positions a
deal takes, as the size grows.

    python benchmarks/bench_montana.py                       # ranks 4..8, 200 deals each, 2 s
    python benchmarks/bench_montana.py --ranks 13 --deals 20 --seconds 10 [--redeals 2]
    python benchmarks/bench_montana.py --ranks 8 --where 9 97   # where a blocked deal's positions go

--where SEED ...: the exhaustive search of each seeded deal (it must be blocked) with a
certificate, and how its positions spread: by the cards in the rows' runs, and by the Twos in
first places.
"""

from __future__ import annotations

import argparse
import collections
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
    ap.add_argument("--where", type=int, nargs="*", default=[])
    args = ap.parse_args()
    if args.where:
        where(args.ranks[0], args.where)
        return
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


def where(ranks: int, seeds: list) -> None:
    from solitaire_solver.engine.backend import core_module
    from solitaire_solver.engine.contract import Limits
    from solitaire_solver.games import get_game
    from solitaire_solver.games.montana.rules import run_length

    g = get_game("montana")[0]
    var = g.variant(ranks=ranks)
    core = core_module(g.core)
    for seed in seeds:
        spec = g.core_spec(ss.random_deal(seed), var, "decide", True)
        run = core.solve(spec, "decide", Limits(), True)
        if run.certificate is None:
            print(f"seed {seed}: {run.status}, not an exhaustive search with its certificate")
            continue
        places = [g.certificate_key(x, 0, var)[0] for x, _ in run.certificate]
        runs = collections.Counter(sum(run_length(p, r, ranks) for r in range(4)) for p in places)
        twos = collections.Counter(sum(1 for r in range(4) if p[r * ranks] is not None
                                       and p[r * ranks] % 13 == 1) for p in places)
        print(f"seed {seed} (ranks={ranks}): {len(places):,} positions, depth "
              f"{run.stats['max_depth']:,}")
        print("  cards in runs: " + ", ".join(f"{k}: {v:,}" for k, v in sorted(runs.items())))
        print("  Twos in first places: " + ", ".join(f"{k}: {v:,}"
                                                    for k, v in sorted(twos.items())))


if __name__ == "__main__":
    main()
