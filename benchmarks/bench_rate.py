"""Rating benchmark (docs/difficulty.md): ss.rate per seeded deal of Elevens, Fourteen, Pyramid and
Nestor (or the games named), timed call by call (the verdict, the random player's chance, the
critical positions).

    python benchmarks/bench_rate.py           # seeds 0..499 of each game
    python benchmarks/bench_rate.py --quick   # seeds 0..99
    python benchmarks/bench_rate.py --games accordion,montana-pysolfc --seeds 50 \\
        --max-seconds 2 --no-critical         # the chance alone, each search cut at 2 s
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time

import solitaire_solver as ss

GAMES = ("elevens", "fourteen", "pyramid", "nestor")


def run(quick: bool = False, games: tuple = GAMES, seeds: int = 0, max_seconds: float = 0.0,
        critical: bool = True) -> str:
    n = seeds or (100 if quick else 500)
    rows = []
    for name in games:
        solver = ss.Solver(name, max_seconds=max_seconds or None)
        solver.rate(ss.random_deal(0), critical=critical)  # imports and caches out of the timing
        times, cpu, exact, won = [], [], 0, 0
        for seed in range(n):
            deal = ss.random_deal(seed)
            t0, c0 = time.perf_counter(), time.process_time()
            r = solver.rate(deal, critical=critical)
            times.append(time.perf_counter() - t0)
            cpu.append(time.process_time() - c0)
            exact += r.exact
            won += r.status is ss.Status.WON
        times.sort()
        p99 = times[min(len(times) - 1, int(0.99 * len(times)))]
        rows.append(f"| {name} | {n} | {won} | {exact} | {statistics.median(times) * 1e3:.1f} | "
                    f"{p99 * 1e3:.1f} | {times[-1] * 1e3:.1f} | "
                    f"{statistics.median(cpu) * 1e3:.1f} |")
    head = ("## Ratings\n\nCommand: `python benchmarks/bench_rate.py " + " ".join(sys.argv[1:])
            + "`; one process, `Solver(game).rate(deal)` per seeded deal (seeds 0.."
            + f"{n - 1}), wall times in ms, and the median CPU time of the process (the "
            "figure to read on a shared machine).\n\n"
            "| game | deals | won | exact chance | median | p99 | max | median CPU |\n"
            "|---|---:|---:|---:|---:|---:|---:|---:|")
    return "\n".join([head, *rows]) + "\n"


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--games", default=",".join(GAMES))
    ap.add_argument("--seeds", type=int, default=0)
    ap.add_argument("--max-seconds", type=float, default=0.0, help="each search's time limit")
    ap.add_argument("--no-critical", action="store_true", help="rate without critical positions")
    args = ap.parse_args(argv)
    print(run(args.quick, tuple(args.games.split(",")), args.seeds, args.max_seconds,
              not args.no_critical))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
