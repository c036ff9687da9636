"""Games in progress: positions after random lines of play from seeded deals, each solved at the
default limits with a cap of wall time, with or without the game's first try there (until
2026-12-07 a position after moves had none; docs/calculation.md, "A game in progress").

    nice python benchmarks/in_progress.py GAME COUNT CAP SIDE [RNG_SEED] [--only SEED,...]

SIDE: `new` (the library as it is) or `old` (the first try switched off where a game is in
progress, as before). The positions are drawn by random.Random(RNG_SEED) (default 1): a seed
below 10^6, then 3 to 39 random legal moves (tests/lines.py); the same RNG_SEED gives the same
positions on both sides. One JSON line a position: [seed, moves played, status, positions, CPU seconds,
the first try's last step]; then the counts and the CPU in all. --only solves just those
seeds' positions (the others are drawn and skipped, so each keeps its line).
"""

from __future__ import annotations

import collections
import json
import os
import random
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "tests"))

from lines import random_moves  # noqa: E402

import solitaire_solver as ss  # noqa: E402
from solitaire_solver.games import get_game  # noqa: E402


def main() -> None:
    args = sys.argv[1:]
    only = None
    if "--only" in args:
        i = args.index("--only")
        only = {int(x) for x in args[i + 1].split(",")}
        del args[i:i + 2]
    game, count, cap, side = args[0], int(args[1]), float(args[2]), args[3]
    rng = random.Random(int(args[4]) if len(args) > 4 else 1)
    g, variant = get_game(game)
    rules = g.rules(variant)
    if side == "old":
        first_try = type(g).first_try

        def deal_start_only(self, deal, variant, objective, limits, certificate, start=None):
            return None if start is not None else first_try(self, deal, variant, objective,
                                                            limits, certificate)

        type(g).first_try = deal_start_only
    elif side != "new":
        raise SystemExit("SIDE is old or new")
    solver = ss.Solver(game, max_seconds=cap)
    counts: collections.Counter = collections.Counter()
    cpu = 0.0
    for _ in range(count):
        seed = rng.randrange(10**6)
        deal = ss.random_deal(seed)
        line, _ = random_moves(rules, rules.start(deal), rng, rng.randrange(3, 40))
        if only is not None and seed not in only:
            continue
        t = time.process_time()
        r = solver.solve(deal, after=line)
        dt = time.process_time() - t
        counts[r.status.value] += 1
        cpu += dt
        print(json.dumps([seed, len(line), r.status.value, r.stats.get("states"), round(dt, 3),
                          r.stats.get("first_try")]), flush=True)
    print(f"{game} {side}: {dict(counts)}, CPU {cpu:.1f} s")


if __name__ == "__main__":
    main()
