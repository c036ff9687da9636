"""Accordion: how often a row of n cards drawn at random is lost, and what its proof costs.

    python benchmarks/accordion_rows.py [--rows 2000] [--most 15]

For each n from 2 to --most, --rows rows of n distinct cards drawn by random.Random(1) (one
generator over the whole run, n ascending) are decided by the compiled core (ss.solve's search,
default limits): the share lost, the share lost although the tops form one group (no structural
proof: the exhaustive search proves them), and the positions of the largest such proof. The table
is docs/accordion.md's.
"""

from __future__ import annotations

import argparse
import random

from solitaire_solver.engine.contract import Limits
from solitaire_solver.games.accordion import _core as core
from solitaire_solver.games.accordion.rules import groups


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rows", type=int, default=2000)
    ap.add_argument("--most", type=int, default=15)
    args = ap.parse_args()
    rng = random.Random(1)
    print("| cards | lost | lost in one group | largest proof (positions) |")
    print("|---:|---:|---:|---:|")
    for n in range(2, args.most + 1):
        lost = searched = largest = 0
        for _ in range(args.rows):
            tops = rng.sample(range(52), n)
            run = core.solve({"tops": tops}, "decide", Limits(), False)
            if run.status == "exhausted":
                lost += 1
                if len(groups(tops)) == 1:
                    searched += 1
                    largest = max(largest, run.stats["states"])
        print(f"| {n} | {100 * lost / args.rows:.1f}% | {100 * searched / args.rows:.1f}% "
              f"| {largest:,} |")


if __name__ == "__main__":
    main()
