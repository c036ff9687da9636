"""One of the Pyramid core's pruning switches on and off, deal by deal, in one process.

    python benchmarks/pyramid_switches.py SWITCH DEALS [--objective O] [option=value ...]

SWITCH is a key of the core's spec that the tests use to switch a rule off (`deadlock`, `follow`,
`taken`, `dig`, `pool`, `partial`, `partner`; `lean_astar`, on by default, leaves FOLLOW out of the shortest
objective's A* search, and off puts it back; `hint_states` is set to 0 for off). DEALS is
`msc:A-B` (decks A..B of tests/data/pyramid-msc-1500, the `pyramid-msc` preset) or `seeds:A-B`
(seeded deals, the `pyramid` game with the options given). Each deal is searched with the rule
on and off, the order alternating from deal to deal, so that a noisy machine slows both alike.
Prints the positions, the seconds in all and the median per deal for each setting, how many
verdicts (and, for `shortest`, lengths) differ, and the slowest deals.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

from solitaire_solver.deal import Deal
from solitaire_solver.engine.backend import core_module
from solitaire_solver.engine.contract import Limits
from solitaire_solver.games import get_game

DECKS = os.path.join(os.path.dirname(__file__), "..", "tests", "data", "pyramid-msc-1500",
                     "decks.txt")
OFF = {"deadlock": False, "follow": False, "taken": False, "lean_astar": False, "dig": False,
       "hint_states": 0, "pool": False, "partial": False, "partner": False}


def deals(which: str, options: list[str]):
    kind, _, span = which.partition(":")
    lo, _, hi = span.partition("-")
    numbers = range(int(lo), int(hi) + 1)
    if kind == "msc":
        g, preset = get_game("pyramid-msc")
        v = g.variant(**preset)
        lines = open(DECKS).read().split("\n")
        return g, v, [(n, g.read(lines[n - 1], v)) for n in numbers]
    g, preset = get_game("pyramid")
    given = dict(o.split("=", 1) for o in options)
    v = g.variant(**preset, **{k: g.options[k].parse(x) for k, x in given.items()})
    return g, v, [(n, Deal.from_seed(n)) for n in numbers]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("switch", choices=sorted(OFF))
    ap.add_argument("deals")
    ap.add_argument("--objective", default="decide", choices=["decide", "shortest"])
    ap.add_argument("options", nargs="*")
    args = ap.parse_args()
    g, v, todo = deals(args.deals, args.options)
    core = core_module(g.core)
    totals = {"on": [0, 0.0], "off": [0, 0.0]}
    differ = 0
    times = []
    for i, (n, deal) in enumerate(todo):
        spec = g.core_spec(deal, v, args.objective, False)
        got = {}
        for side in (("on", "off") if i % 2 else ("off", "on")):
            run_spec = spec if side == "on" else {**spec, args.switch: OFF[args.switch]}
            t = time.perf_counter()
            r = core.solve(run_spec, args.objective, Limits(), False)
            dt = time.perf_counter() - t
            totals[side][0] += r.stats["states"]
            totals[side][1] += dt
            got[side] = (r.status, len(r.path) if args.objective == "shortest" else 0, dt)
        differ += got["on"][:2] != got["off"][:2]
        times.append((got["off"][2], got["on"][2], n))
    for i, side in enumerate(("off", "on")):
        median = statistics.median(t[i] for t in times) * 1000
        print(f"{args.switch} {side}: {totals[side][0]:,} positions, {totals[side][1]:.2f} s, "
              f"median {median:.2f} ms")
    print(f"deals: {len(todo)}, verdicts or lengths that differ: {differ}")
    times.sort(reverse=True)
    print("slowest with it off (deal: off ms -> on ms):",
          ", ".join(f"{n}: {a * 1000:.0f} -> {b * 1000:.0f}" for a, b, n in times[:6]))


if __name__ == "__main__":
    main()
