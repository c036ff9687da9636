"""Montana benchmark: seeded deals of each size (`ranks`) through `ss.solve`, one deal at a time,
with a time limit per deal: how many are won, blocked and left open, and the time and positions a
deal takes, as the size grows.

    python benchmarks/bench_montana.py                       # ranks 4..8, 200 deals each, 2 s
    python benchmarks/bench_montana.py --ranks 13 --deals 20 --seconds 10 [--redeals 2]
    python benchmarks/bench_montana.py --ranks 8 --where 9 97   # where a blocked deal's positions go
    python benchmarks/bench_montana.py --ranks 13 --open 0 1 3 --positions 50000 [--mode 3]

--where SEED ...: the exhaustive search of each seeded deal (it must be blocked) with a
certificate, and how its positions spread: by the cards in the rows' runs, and by the Twos in
first places.

--open SEED ...: where an open deal's search spends its positions: a depth-first walk with the
core's moves of --mode (3: the persistent sets and the locked-cards test; 4: the places
relaxation's) over its first --positions positions, counting those with a gap in a first place
(where the locked-cards test says nothing), those each block test calls dead (locked cards; the
places relaxation), and how the cards in the rows' runs spread.
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
    ap.add_argument("--open", type=int, nargs="*", default=[])
    ap.add_argument("--positions", type=int, default=50_000)
    ap.add_argument("--mode", type=int, default=3)
    args = ap.parse_args()
    if args.where:
        where(args.ranks[0], args.where)
        return
    if args.open:
        open_walk(args.ranks[0], args.open, args.positions, args.mode)
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


def open_walk(ranks: int, seeds: list, positions: int, mode: int) -> None:
    from solitaire_solver.engine.backend import core_module
    from solitaire_solver.games import get_game
    from solitaire_solver.games.montana.rules import run_length

    g = get_game("montana")[0]
    var = g.variant(ranks=ranks)
    core = core_module(g.core)
    for seed in seeds:
        spec = dict(g.core_spec(ss.random_deal(seed), var, "decide", False), mode=mode)
        start = core.start(spec)
        seen, stack = {start}, [iter(core.expand(spec, start, 0))]
        counts = collections.Counter()
        runs = collections.Counter()
        t = time.process_time()
        while stack and len(seen) < positions:
            nxt = next(stack[-1], None)
            if nxt is None:
                stack.pop()
                continue
            x = nxt[1]
            if x in seen:
                continue
            seen.add(x)
            places = g.certificate_key(x, 0, var)[0]
            first_gap = any(places[r * ranks] is None for r in range(4))
            locked = core.dead(dict(spec, mode=2), x)
            relaxed = core.dead(dict(spec, mode=4), x)
            counts["first-place gap"] += first_gap
            counts["locked cards dead"] += locked
            counts["places dead"] += relaxed
            counts["places dead, first-place gap"] += relaxed and first_gap
            runs[sum(run_length(places, r, ranks) for r in range(4))] += 1
            if not (relaxed if mode == 4 else locked):
                stack.append(iter(core.expand(spec, x, 0)))
        n = len(seen)
        print(f"seed {seed} (ranks={ranks}, mode {mode}): {n:,} positions, depth {len(stack):,}, "
              f"{time.process_time() - t:.1f} s CPU")
        print("  " + ", ".join(f"{k}: {v:,} ({100 * v / n:.0f}%)" for k, v in counts.items()))
        print("  cards in runs: " + ", ".join(f"{k}: {v:,}" for k, v in sorted(runs.items())))


if __name__ == "__main__":
    main()
