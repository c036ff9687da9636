"""Where Calculation's search spends its positions: a depth-first walk over the core's pruned
moves (expand() with MODE_PRUNED, in the core's order, rule 3 cutting as in the search), from a
deal's start, counting the positions by the stock cards still to turn, how many of them rule 4
(Hall's condition, everywhere) would cut, and how many are a position met before with its piles
renamed (which a canonical order of the piles would merge).

    nice -n 10 python benchmarks/calculation_positions.py POSITIONS SEED [SEED ...]
"""

from __future__ import annotations

import collections
import sys

import solitaire_solver as ss
from solitaire_solver.games import get_game
from solitaire_solver.games.calculation import _core as core
from solitaire_solver.games.calculation.rules import unpack


def census(seed: int, most: int) -> tuple[collections.Counter, collections.Counter, int]:
    game, _ = get_game("calculation")
    spec = dict(game.core_spec(ss.Deal.from_seed(seed), game.variant(), "decide", False),
                mode=core.MODE_PRUNED)
    stock = spec["stock"]
    place = {c: k for k, c in enumerate(stock)}
    seen, stack = set(), [(0, 0)]
    renamed: set = set()
    again = 0
    where: collections.Counter = collections.Counter()
    cut: collections.Counter = collections.Counter()
    while stack and sum(where.values()) < most:
        pos = stack.pop()
        if pos in seen or core.is_dead(stock, *pos, hall=False):
            seen.add(pos)
            continue
        seen.add(pos)
        turned, heights, piles = unpack(stock, *pos)
        left = 48 - turned
        where[left] += 1
        # the piles in the order of their bottom cards: equal for a position and its renamings
        name = (heights, turned, tuple(sorted((p for p in piles if p), key=lambda p: place[p[0]])))
        again += name in renamed
        renamed.add(name)
        if core.is_dead(stock, *pos):
            cut[left] += 1
            continue
        stack.extend((r, a) for _, r, a in reversed(core.expand(spec, *pos)))
    return where, cut, again


def main() -> None:
    most = int(sys.argv[1])
    for seed in map(int, sys.argv[2:]):
        where, cut, again = census(seed, most)
        few = sum(n for left, n in where.items() if left <= 3)
        print(f"seed {seed}: {sum(where.values())} positions: {where[0]} with the stock empty, "
              f"{few} with at most 3 cards in it; rule 4 cuts {sum(cut.values())} "
              f"({cut[0]} with the stock empty); {again} met before with the piles renamed")


if __name__ == "__main__":
    main()
