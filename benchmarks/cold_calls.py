"""`ss.solve` per call back to back, and after the process has been idle: what a harness that
waits between calls measures (the peer harness of docs/benchmarks.md waits for the peer and for
our A* search before each decide call).

    python benchmarks/cold_calls.py [--decks N] [--idle MS] [--rounds R] [--env-ab]

The decks are the first N of tests/data/pyramid-msc-1500 (decide, default settings). Each round
times every deck back to back, then every deck after sleeping MS milliseconds (nothing else is
done in between); a control times `sum(range(2000))` the same two ways. Prints the medians of
each round (microseconds). --env-ab instead times solve in each round with SOLITAIRE_SOLVER_PURE
read through libc's getenv and through os.environ (backend.pure_requested), the order alternating.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

import solitaire_solver as ss
from solitaire_solver.engine import backend

DECKS = os.path.join(os.path.dirname(__file__), "..", "tests", "data", "pyramid-msc-1500",
                     "decks.txt")


def timed(calls, idle: float) -> float:
    """Median microseconds of the calls, each after `idle` seconds asleep (0: back to back)."""
    out = []
    for call in calls:
        if idle:
            time.sleep(idle)
        t = time.perf_counter()
        call()
        out.append((time.perf_counter() - t) * 1e6)
    return statistics.median(out)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--decks", type=int, default=300)
    ap.add_argument("--idle", type=float, default=20.0, help="milliseconds asleep before a call")
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--env-ab", action="store_true",
                    help="getenv against os.environ for the fallback switch")
    a = ap.parse_args()
    with open(DECKS, encoding="utf-8") as f:
        decks = f.read().split("\n")[: a.decks]
    solves = [lambda d=d: ss.solve("pyramid-msc", d) for d in decks]
    control = [lambda: sum(range(2000))] * len(decks)
    for d in decks[:20]:
        ss.solve("pyramid-msc", d)
    idle = a.idle / 1e3
    if a.env_ab:
        env_ab(solves, idle, a.rounds)
        return
    print(f"{len(decks)} decks, idle {a.idle:g} ms, medians in microseconds")
    print("| round | solve, back to back | solve, after idle | control, back to back | "
          "control, after idle |\n|---|---:|---:|---:|---:|")
    for k in range(1, a.rounds + 1):
        print(f"| {k} | {timed(solves, 0):.1f} | {timed(solves, idle):.1f} | "
              f"{timed(control, 0):.1f} | {timed(control, idle):.1f} |")


def env_ab(solves, idle: float, rounds: int) -> None:
    backend.pure_requested()
    c_pure = backend._c[0]
    print("| round | reading | solve, back to back | solve, after idle |\n|---|---|---:|---:|")
    for k in range(1, rounds + 1):
        for side in ("getenv", "os.environ") if k % 2 else ("os.environ", "getenv"):
            backend._c[:] = [c_pure if side == "getenv" else None]
            print(f"| {k} | {side} | {timed(solves, 0):.1f} | {timed(solves, idle):.1f} |")
    backend._c[:] = [c_pure]


if __name__ == "__main__":
    main()
