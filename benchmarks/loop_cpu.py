"""CPU of a loop of calls in one process: `Solver(game).solve(deal)` or `.rate(deal,
critical=False)` over seeds 0..N-1, timed by `time.process_time` after one call out of the timing.
Run it once per build (PYTHONPATH=TREE) in turn to compare two builds (docs/benchmarks.md,
"Ratings"; the closing notes' Accordion figures).

    PYTHONPATH=OLD_TREE python benchmarks/loop_cpu.py fourteen 200 rate
    python benchmarks/loop_cpu.py accordion 400 solve
"""

from __future__ import annotations

import sys
import time

import solitaire_solver as ss


def main() -> None:
    game, n, call = sys.argv[1], int(sys.argv[2]), sys.argv[3] if len(sys.argv) > 3 else "solve"
    solver = ss.Solver(game)

    def run(deal: ss.Deal) -> object:
        return solver.rate(deal, critical=False) if call == "rate" else solver.solve(deal)

    run(ss.random_deal(0))
    t = time.process_time()
    for seed in range(n):
        run(ss.random_deal(seed))
    print(f"{time.process_time() - t:.2f}")


if __name__ == "__main__":
    main()
