"""Fifteens under PySolFC's rules (fifteens-pysolfc): the core's search with and without its cuts
(docs/fifteens.md, "Pruning and sealing"), deal by deal, the modes alternating.

    python benchmarks/fifteens_cuts.py FIRST LAST [--cap SECONDS] [--numbers N,N,...]
        [--before SWITCH,...]

Searches PySolFC numbers FIRST..LAST (or the listed ones) from the deal's start with the core
alone (no first try), at the default limits with a cap of --cap seconds a search, once as
before the cuts (only the dead-reserve rule: the --before switches off, by default seal,
complete, groups and room; `--before room` measures the room rule alone) and once with all
of them, and prints per mode the verdicts, the positions and CPU seconds (total, max), the
searches over 1 s, and the numbers whose searches ended differently or took over 1 s.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

from solitaire_solver.engine.contract import Limits  # noqa: E402
from solitaire_solver.games.fifteens_pysolfc import _core as core  # noqa: E402
from solitaire_solver.pysolfc import pysolfc_deal  # noqa: E402


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("first", type=int, nargs="?", default=1)
    p.add_argument("last", type=int, nargs="?", default=2000)
    p.add_argument("--cap", type=float, default=10.0)
    p.add_argument("--numbers", default="")
    p.add_argument("--before", default="seal,complete,groups,room")
    a = p.parse_args()
    modes = {"before": {k: False for k in a.before.split(",")}, "after": {}}
    numbers = ([int(x) for x in a.numbers.split(",")] if a.numbers
               else range(a.first, a.last + 1))
    tally = {m: {"won": 0, "exhausted": 0, "unknown": 0, "states": 0, "cpu": 0.0,
                 "max": (0.0, 0, 0), "slow": 0} for m in modes}
    notes = []
    for n in numbers:
        cards = list(pysolfc_deal("fifteens-pysolfc", n).cards)
        ends = {}
        for mode, switches in modes.items():
            t0 = time.process_time()
            run = core.solve({"cards": cards, **switches}, "decide",
                             Limits(max_seconds=a.cap), False)
            cpu = time.process_time() - t0
            t = tally[mode]
            status = run.status if run.status in ("won", "exhausted") else "unknown"
            t[status] += 1
            t["states"] += run.stats["states"]
            t["cpu"] += cpu
            t["max"] = max(t["max"], (cpu, run.stats["states"], n))
            t["slow"] += cpu > 1
            ends[mode] = (status, run.stats["states"], cpu)
        if len({s for s, _, _ in ends.values()} - {"unknown"}) > 1:
            raise SystemExit(f"number {n}: the modes disagree: {ends}")
        if any(cpu > 1 or s == "unknown" for s, _, cpu in ends.values()):
            notes.append(f"{n}: " + "; ".join(f"{m} {s} {k:,} {cpu:.2f} s"
                                             for m, (s, k, cpu) in ends.items()))
    print("mode | won / blocked / unknown | positions | CPU s | max CPU s (positions, #) | "
          "over 1 s")
    for mode, t in tally.items():
        cpu, states, n = t["max"]
        print(f"{mode} | {t['won']} / {t['exhausted']} / {t['unknown']} | {t['states']:,} | "
              f"{t['cpu']:.1f} | {cpu:.2f} ({states:,}, #{n}) | {t['slow']}")
    for line in notes:
        print(line)


if __name__ == "__main__":
    main()
