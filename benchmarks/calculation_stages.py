"""Each step of Calculation's first try run on its own, deal by deal (docs/calculation.md, "The
first search's cut and the 512-wide beam"): what each step costs and which deals it wins, so
that an order of the steps can be costed without running it.

    nice python benchmarks/calculation_stages.py FIRST LAST OUT.jsonl [NOISY]

For each seed FIRST..LAST-1 one JSON line {"seed", "st": [[step, won, positions, CPU s], ...]}:
the first search (to FIRST_STATES positions); if it did not win, each of the 16 first restarts,
the two beams and the first NOISY noisy beams (default 16), all run whatever the earlier ones
found, in that order, sharing one memo of rule 5 as the first try does.
"""

from __future__ import annotations

import json
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

import solitaire_solver as ss  # noqa: E402
from solitaire_solver.engine.backend import core_module  # noqa: E402
from solitaire_solver.engine.contract import Limits  # noqa: E402
from solitaire_solver.games import get_game  # noqa: E402


def main() -> None:
    first, last, out_path = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
    noisy = int(sys.argv[4]) if len(sys.argv) > 4 else 16
    game = get_game("calculation")[0]
    core = core_module(game.core)
    limits = Limits.of(max_states=2_000_000)
    steps = [("first", 0)] + [("search", t) for t in range(16)] \
        + [("beam", k) for k in range(len(game.BEAMS))] + [("noisy", k) for k in range(noisy)]
    with open(out_path, "a", encoding="utf-8") as out:
        for seed in range(first, last):
            share = core.RelaxMemo.share(limits.memory_bytes)
            base = dict(game.core_spec(ss.random_deal(seed), {}, "decide", False),
                        memo=core.RelaxMemo(share))
            left = limits._replace(memory_bytes=limits.memory_bytes - share)
            rec: dict = {"seed": seed, "st": []}
            for kind, t in steps:
                c0 = time.process_time()
                if kind in ("beam", "noisy"):
                    width, pen, gap, noise = (game.BEAMS[t] + (0,) if kind == "beam"
                                              else game.NOISY)
                    status, _, n = core.beam(dict(base, beam_pen=pen, beam_gap=gap,
                                                  beam_noise=noise, shake=t + 1 if noise else 0),
                                             width, left)
                else:
                    most = game.FIRST_STATES if kind == "first" else game.RESTART_STATES
                    run = core.solve(dict(base, loose=t % 4, shake=0 if t < 4 else t), "decide",
                                     left._replace(max_states=most), False)
                    status, n = run.status, run.stats.get("states", 0)
                rec["st"].append([f"{kind}{t}", status == "won", n,
                                  round(time.process_time() - c0, 5)])
                if kind == "first" and status == "won":
                    break
            out.write(json.dumps(rec) + "\n")
            out.flush()


if __name__ == "__main__":
    main()
