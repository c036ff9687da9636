"""Montana: the core's search alone (no first try) in MODE_PLACES and in MODE_GROUPS (the groups of
first-column arrangements, docs/montana.md), the same deals in one run, each within a positions
budget: verdicts (they must agree where both end), positions and CPU seconds per side.

    python benchmarks/montana_groups.py RANKS FIRST LAST STATES [--each]

Seeded deals FIRST..LAST - 1 at `ranks=RANKS`; --each prints every deal's line.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

import solitaire_solver as ss  # noqa: E402
from solitaire_solver.engine.contract import Limits  # noqa: E402
from solitaire_solver.games import get_game  # noqa: E402
from solitaire_solver.games.montana import _core as core  # noqa: E402

SIDES = (("places", core.MODE_PLACES), ("groups", core.MODE_GROUPS))


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("ranks", type=int)
    p.add_argument("first", type=int)
    p.add_argument("last", type=int)
    p.add_argument("states", type=int)
    p.add_argument("--each", action="store_true")
    a = p.parse_args()
    game = get_game("montana")[0]
    var = game.variant(ranks=a.ranks)
    totals = {name: {"states": 0, "cpu": 0.0, "won": 0, "exhausted": 0, "open": 0}
              for name, _ in SIDES}
    differ = []
    for seed in range(a.first, a.last):
        spec = game.core_spec(ss.random_deal(seed), var, "decide", False)
        out = []
        for name, mode in SIDES:
            t = time.process_time()
            run = core.solve(dict(spec, mode=mode), "decide", Limits(max_states=a.states), False)
            cpu = time.process_time() - t
            tot = totals[name]
            tot["states"] += run.stats["states"]
            tot["cpu"] += cpu
            tot[run.status if run.status in ("won", "exhausted") else "open"] += 1
            out.append((run.status, run.stats["states"], round(cpu, 3)))
        if {out[0][0], out[1][0]} == {"won", "exhausted"}:
            differ.append(seed)
        if a.each:
            print(seed, *out, flush=True)
    print(f"ranks={a.ranks}, seeds {a.first}..{a.last - 1}, {a.states:,} positions a deal")
    print("| side | won | blocked | open | positions | CPU s |")
    print("|---|---:|---:|---:|---:|---:|")
    for name, _ in SIDES:
        t = totals[name]
        print(f"| {name} | {t['won']} | {t['exhausted']} | {t['open']} | {t['states']:,} "
              f"| {t['cpu']:.2f} |")
    print("verdicts differ on:", differ or "none")


if __name__ == "__main__":
    main()
