"""Monte Carlo's order of trial, old against new in one run (docs/monte-carlo.md, "Move order"):
per deal, the old order (`consolidate` first, the pairs from the last place back, no first try)
and today's (the default order and the first try's restarts), alternating, with the verdicts
held equal.

    PYTHONPATH=. python benchmarks/montecarlo_orders.py pysolfc 1 3001 any
    PYTHONPATH=. python benchmarks/montecarlo_orders.py seeds 0 3000 any
"""

from __future__ import annotations

import statistics
import sys
import time

import solitaire_solver as ss
from solitaire_solver.games.base import Game
from solitaire_solver.games.montecarlo.game import MonteCarlo

#: The old order in the core's terms: `consolidate` first, the pairs from the last place back.
OLD_ORDER = 3


def main(argv: list[str]) -> int:
    source, a, b = argv[0], int(argv[1]), int(argv[2])
    rule = argv[3] if len(argv) > 3 else "any"
    new_first_try, new_spec = MonteCarlo.first_try, MonteCarlo.core_spec

    def old_spec(self: MonteCarlo, *args: object, **kw: object) -> dict:
        return dict(new_spec(self, *args, **kw), order=OLD_ORDER)

    sides = {"old": (Game.first_try, old_spec), "new": (new_first_try, new_spec)}
    runs: dict = {name: [] for name in sides}
    try:
        for n in range(a, b):
            deal = ss.pysolfc_deal("monte-carlo", n) if source == "pysolfc" else ss.random_deal(n)
            for name, (first_try, spec) in sides.items():
                MonteCarlo.first_try, MonteCarlo.core_spec = first_try, spec
                t0 = time.process_time()
                r = ss.solve("monte-carlo", deal, consolidate=rule)
                runs[name].append((time.process_time() - t0, r.stats.get("states", 0),
                                   r.status.value, n))
    finally:
        MonteCarlo.first_try, MonteCarlo.core_spec = new_first_try, new_spec
    for name, rows in runs.items():
        cpu = sorted(x[0] for x in rows)
        states = sorted(x[1] for x in rows)
        worst = max(rows, key=lambda x: x[1])
        print(f"{name}: positions in all {sum(states):,}, median {statistics.median(states):,.0f}, "
              f"p99 {states[int(0.99 * (len(states) - 1))]:,}, max {worst[1]:,} ({source} "
              f"{worst[3]}); CPU in all {sum(cpu):.1f} s, max {1e3 * cpu[-1]:.1f} ms")
    verdicts = [[x[2] for x in rows] for rows in runs.values()]
    if verdicts[0] != verdicts[1]:
        print("VERDICTS DIFFER")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
