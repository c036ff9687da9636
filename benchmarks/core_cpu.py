"""CPU time of one game's compiled core alone over seeded deals, to compare two builds.

    PYTHONPATH=TREE python benchmarks/core_cpu.py GAME N [option=value ...]

Runs the core's contract entry point (no structural proof, no Python result objects) on the
seeded deals 0..N-1 with the default limits and prints one JSON line: CPU seconds
(`time.process_time`), positions, wins, the search table's size (largest and mean MiB over the
deals, and the keys it replaced), and the tree imported. Run it for an old and a new build
(two checkouts, each built in place) alternately in one session: equal positions and wins show
the same search, and the CPU times give the ratio.
"""

from __future__ import annotations

import json
import sys
import time

import solitaire_solver as ss
from solitaire_solver.api import _limits
from solitaire_solver.engine.backend import core_module
from solitaire_solver.games import get_game


def main(argv: list[str]) -> None:
    game, n = argv[0], int(argv[1])
    g, preset = get_game(game)
    options = dict(a.split("=", 1) for a in argv[2:])
    var = g.variant(**preset, **{k: g.options[k].parse(v) for k, v in options.items()})
    core = core_module(g.core)
    if core is None:
        raise SystemExit(f"{game}: no compiled core in {ss.__file__}")
    limits = _limits(None, None, ss.api.DEFAULT_MEMORY_MB)
    specs = [g.core_spec(ss.random_deal(s), var, "decide", False) for s in range(n)]
    t = time.process_time()
    states = won = replaced = 0
    table = []
    for spec in specs:
        run = core.solve(dict(spec), "decide", limits, False)
        states += run.stats["states"]
        won += run.status == "won"
        table.append(run.stats.get("table_bytes", 0))
        replaced += run.stats.get("table_replaced", 0)
    cpu = time.process_time() - t
    print(json.dumps({"game": game, "variant": var, "deals": n,
                      "cpu_s": round(cpu, 4), "states": states, "won": won,
                      "table_mib_max": max(table) / 2**20,
                      "table_mib_mean": round(sum(table) / len(table) / 2**20, 3),
                      "table_replaced": replaced,
                      "tree": ss.__file__.rsplit("/solitaire_solver/", 1)[0]}))


if __name__ == "__main__":
    main(sys.argv[1:])
