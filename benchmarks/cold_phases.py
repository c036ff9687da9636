"""Where a cold Pyramid decide call goes: each phase of `ss.solve` timed alone after an idle wait.

    python benchmarks/cold_phases.py [--decks 300] [--idle 20]

compare.py's decide worker waits while the peer and our A* search run, so its calls start with
cold caches; benchmarks/cold_calls.py shows the wait alone does that. Here each kind of call is
timed after `--idle` ms asleep, the kinds and decks interleaved in a random order (the same seed
each run), then all of them back to back. The kinds: the whole call; reading the deal; the core's
structural test; the core's search on a ready spec; a bypass doing only the C reader, the
structural test, the search and a Result (every Python layer between skipped: how far trimming
that layer could go); and a lambda calling len (the floor of any call). Medians in microseconds,
decks 1..N of tests/data/pyramid-msc-1500, default settings.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from solitaire_solver.engine._seeded import parse_plain  # noqa: E402

import solitaire_solver as ss  # noqa: E402
from solitaire_solver.api import _limits, _resolve  # noqa: E402
from solitaire_solver.games.pyramid import _core as core
from solitaire_solver.moves import from_codes  # noqa: E402
from solitaire_solver.result import Result, Status  # noqa: E402

DECKS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "data",
                     "pyramid-msc-1500", "decks.txt")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--decks", type=int, default=300)
    ap.add_argument("--idle", type=float, default=20.0, help="milliseconds asleep before a call")
    a = ap.parse_args()
    with open(DECKS, encoding="utf-8") as f:
        decks = f.read().split("\n")[: a.decks]
    g, var = _resolve("pyramid-msc", {})
    limits = _limits(None, None, ss.api.DEFAULT_MEMORY_MB)
    passes, goal_all = var["passes"], var["goal"] == "all"
    swp, overlap = var["stock_waste_pairs"], var["overlap_pairs"]
    specs = [g.core_spec(g.read(d, var), var, "decide", False) for d in decks]

    def bypass(text: str):
        cards = parse_plain(text)
        if core.dead(cards, 0, passes, goal_all, 0, overlap, swp):
            return None
        run = core.solve({"cards": cards, "passes": passes, "goal_all": goal_all,
                          "stock_waste_pairs": swp}, "decide", limits, False)
        return Result("pyramid-msc", Status.WON if run.status == "won" else Status.BLOCKED,
                      moves=tuple(from_codes(run.path)), stats=run.stats, variant=var)

    kinds = {
        "ss.solve": lambda i: ss.solve("pyramid-msc", decks[i]),
        "reading the deal (g.read)": lambda i: g.read(decks[i], var),
        "the structural test (_pyramid.dead)": lambda i: core.dead(
            specs[i]["cards"], 0, passes, goal_all, 0, overlap, swp),
        "the search on a ready spec (_pyramid.solve)": lambda i: core.solve(
            specs[i], "decide", limits, False),
        "the bypass (C reader, dead, search, Result)": lambda i: bypass(decks[i]),
        "a lambda calling len": lambda i: len(decks[i]),
    }
    for i in range(min(20, len(decks))):
        for call in kinds.values():
            call(i)
    cold: dict[str, list[float]] = {k: [] for k in kinds}
    jobs = [(k, i) for k in kinds for i in range(len(decks))]
    random.Random(1).shuffle(jobs)
    for k, i in jobs:
        time.sleep(a.idle / 1e3)
        t = time.perf_counter()
        kinds[k](i)
        cold[k].append((time.perf_counter() - t) * 1e6)
    print(f"{len(decks)} decks, idle {a.idle:g} ms, medians in microseconds\n")
    print("| call | cold | warm (back to back) |\n|---|---:|---:|")
    for k, call in kinds.items():
        warm = []
        for i in range(len(decks)):
            t = time.perf_counter()
            call(i)
            warm.append((time.perf_counter() - t) * 1e6)
        print(f"| {k} | {statistics.median(cold[k]):.1f} | {statistics.median(warm):.1f} |")


if __name__ == "__main__":
    main()
