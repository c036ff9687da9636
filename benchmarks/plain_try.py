"""Would a small first try, with no table and none of the core's rules, win most won Pyramid
deals (issue 18's "fast first try with no table set-up for easy deals")?

    python benchmarks/plain_try.py [--count 400] [BUDGET ...]

Over decks 1..count of tests/data/pyramid-msc-1500 that `ss.solve` wins, a plain depth-first
search under the reference rules (no table, no pruning; removals before draws and recycles,
removals of more pyramid cards first, then the one reaching the highest-numbered place, which
lies lowest on the table) may visit each budget of positions in turn. Prints how many of the
won deals each budget wins. It counts positions only, not time: a first try pays where it wins
in few positions, as a cold call's cost is the memory it touches (docs/benchmarks.md).
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import Optional

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import solitaire_solver as ss  # noqa: E402
from solitaire_solver.games import get_game  # noqa: E402
from solitaire_solver.games.pyramid.rules import PyramidPosition  # noqa: E402

DECKS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "data",
                     "pyramid-msc-1500", "decks.txt")


def plain_try(rules, start: PyramidPosition, budget: int) -> bool:
    """Whether a plain depth-first search wins, visiting at most budget positions."""
    seen = 0

    def order(pos: PyramidPosition, move) -> tuple:
        if move.word:
            return (1,)
        places = [pos.pyramid.index(c) for c in move.cards if c in pos.pyramid]
        return (0, -len(places), -max(places, default=-1))

    def win(pos: PyramidPosition) -> Optional[bool]:  # None: the budget ran out
        nonlocal seen
        seen += 1
        if seen > budget:
            return None
        if rules.won(pos):
            return True
        for move in sorted(rules.moves(pos), key=lambda m: order(pos, m)):
            found = win(rules.apply(pos, move))
            if found is not False:
                return found
        return False

    return win(start) is True


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("budgets", nargs="*", type=int, default=[40, 100, 300, 1000])
    ap.add_argument("--count", type=int, default=400)
    a = ap.parse_args()
    g, fixed = get_game("pyramid-msc")
    variant = g.variant(**fixed)
    rules = g.rules(variant)
    texts = open(DECKS).read().split("\n")[:a.count]
    won = [t for t in texts if ss.solve("pyramid-msc", t).won]
    print(f"pyramid-msc decks 1..{a.count}: {len(won)} won\n")
    print("| budget (positions) | won deals the first try wins |\n|---:|---:|")
    for b in a.budgets:
        n = sum(plain_try(rules, rules.start(g.read(t, variant)), b) for t in won)
        print(f"| {b} | {n} ({100 * n / len(won):.0f}%) |")


if __name__ == "__main__":
    main()
