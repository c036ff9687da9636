"""Fifteens under PySolFC's rules (fifteens-pysolfc): where a hard number's positions go
(docs/fifteens.md, "PySolFC's rules: how the core holds a position").

    python benchmarks/fifteens_tail.py N [--limit STATES] [--no-seal] [--without RULE,...]

Walks the search of PySolFC number N depth first (the core's moves through step(), its sealing
of stuck reserve cards through sealed() unless --no-seal, its pruning rules through is_dead(),
less those --without names: complete, groups, room, turns), up to --limit positions, and prints
per count of cards dealt the positions and the distinct sets of rows among them, then the
commonest reserve shapes (cards in the frozen part, cards in the free part) and their positions.
"""

from __future__ import annotations

import argparse
import collections
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

from solitaire_solver.games.fifteens_pysolfc import _core as core  # noqa: E402
from solitaire_solver.pysolfc import pysolfc_deal  # noqa: E402


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("number", type=int)
    p.add_argument("--limit", type=int, default=10 ** 6)
    p.add_argument("--no-seal", action="store_true")
    p.add_argument("--without", default="")
    a = p.parse_args()
    cards = list(pysolfc_deal("fifteens-pysolfc", a.number).cards)
    spec = {"cards": cards}
    off = {rule: False for rule in a.without.split(",") if rule}
    root = core.start(cards)
    seen, stack = {root}, [root]
    by_dealt: collections.Counter = collections.Counter()
    rows_of: dict[int, set] = collections.defaultdict(set)
    reserve: collections.Counter = collections.Counter()
    nodes, cut, won, t0 = 0, 0, False, time.time()
    while stack and nodes < a.limit:
        removed, aux = stack.pop()
        nodes += 1
        won, children = core.step(spec, removed, aux)
        if won:
            break
        dealt, rows, frozen, free = core.key_of(removed, aux)
        by_dealt[dealt] += 1
        rows_of[dealt].add(rows)
        reserve[len(frozen), len(free)] += 1
        for _, r, x in reversed(children):
            if not a.no_seal:
                r, x = core.sealed(r, x)
            if (r, x) in seen:
                continue
            seen.add((r, x))
            if core.is_dead(cards, r, x, **off):
                cut += 1
                continue
            stack.append((r, x))
    end = "won" if won else "exhausted" if not stack else f"stopped at {a.limit:,}"
    print(f"PySolFC number {a.number}: {nodes:,} positions, {end}, {cut:,} cut as dead, "
          f"{time.time() - t0:.1f} s")
    print("cards dealt | positions | sets of rows")
    for k in sorted(by_dealt):
        print(f"{k} | {by_dealt[k]:,} | {len(rows_of[k]):,}")
    print("reserve (frozen, free) | positions")
    for shape, n in reserve.most_common(10):
        print(f"{shape} | {n:,}")


if __name__ == "__main__":
    main()
