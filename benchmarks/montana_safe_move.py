"""Is a run's next card a safe move in Montana? (docs/montana.md, "Cuts considered and not
shipped".) For small deals, the whole move graph under the reference rules; at each position
that can be won, each row's run from its Two followed by a gap is lengthened by its next card,
and the position reached is checked: one that cannot be won is a counterexample.

    python benchmarks/montana_safe_move.py RANKS SEEDS CAP

RANKS 4..6; seeds 0..SEEDS-1, each deal whose graph has at most CAP positions. Prints the deals
walked, the moves tried and how many lose a won position, with the first three examples.
"""

from __future__ import annotations

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "tests"))

from test_montana import move_graph, winnable  # noqa: E402

import solitaire_solver as ss  # noqa: E402
from solitaire_solver.games import get_game  # noqa: E402
from solitaire_solver.games.montana.rules import run_length  # noqa: E402
from solitaire_solver.moves import Move  # noqa: E402


def main() -> None:
    ranks, seeds, cap = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
    game = get_game("montana")[0]
    rules = game.rules(game.variant(ranks=ranks))
    graphs = tried = lost = 0
    for seed in range(seeds):
        graph = move_graph(rules, rules.start(ss.random_deal(seed)), cap)
        if graph is None:
            continue
        graphs += 1
        pos, edges = graph
        win = winnable(edges, [k for k, p in pos.items() if rules.won(p)])
        for k, p in pos.items():
            if k not in win:
                continue
            for r in range(4):
                run = run_length(p.places, r, ranks)
                if run == 0 or run >= ranks - 1 or p.places[r * ranks + run] is not None:
                    continue
                after = rules.apply(p, Move(cards=(p.places[r * ranks] + run,)))
                tried += 1
                if rules.key(after) not in win:
                    lost += 1
                    if lost <= 3:
                        print(f"seed {seed}:\n{rules.render(p)}\nthen\n{rules.render(after)}\n")
    print(f"ranks={ranks}: {graphs} deals, {tried} moves from a won position, {lost} lose it")


if __name__ == "__main__":
    main()
