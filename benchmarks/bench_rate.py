"""Rating benchmark (docs/difficulty.md): ss.rate per seeded deal of Elevens, Fourteen, Pyramid and
Nestor, timed call by call (the verdict, the random player's chance, the critical positions).

    python benchmarks/bench_rate.py           # seeds 0..499 of each game
    python benchmarks/bench_rate.py --quick   # seeds 0..99
"""

from __future__ import annotations

import statistics
import sys
import time

import solitaire_solver as ss

GAMES = ("elevens", "fourteen", "pyramid", "nestor")


def run(quick: bool = False) -> str:
    n = 100 if quick else 500
    rows = []
    for name in GAMES:
        solver = ss.Solver(name)
        solver.rate(ss.random_deal(0))  # imports and caches out of the timed calls
        times, cpu, exact, won = [], [], 0, 0
        for seed in range(n):
            deal = ss.random_deal(seed)
            t0, c0 = time.perf_counter(), time.process_time()
            r = solver.rate(deal)
            times.append(time.perf_counter() - t0)
            cpu.append(time.process_time() - c0)
            exact += r.exact
            won += r.status is ss.Status.WON
        times.sort()
        p99 = times[min(len(times) - 1, int(0.99 * len(times)))]
        rows.append(f"| {name} | {n} | {won} | {exact} | {statistics.median(times) * 1e3:.1f} | "
                    f"{p99 * 1e3:.1f} | {times[-1] * 1e3:.1f} | "
                    f"{statistics.median(cpu) * 1e3:.1f} |")
    head = ("## Ratings\n\nCommand: `python benchmarks/bench_rate.py" + (" --quick" if quick else "")
            + "`; one process, `Solver(game).rate(deal)` per seeded deal (seeds 0.."
            + f"{n - 1}), wall times in ms, and the median CPU time of the process (the "
            "figure to read on a shared machine).\n\n"
            "| game | deals | won | exact chance | median | p99 | max | median CPU |\n"
            "|---|---:|---:|---:|---:|---:|---:|---:|")
    return "\n".join([head, *rows]) + "\n"


if __name__ == "__main__":
    print(run("--quick" in sys.argv[1:]))
