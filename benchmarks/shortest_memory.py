"""Pyramid shortest under smaller memory budgets: what DEEPEN (iterative deepening once A* fills
its budget, docs/pyramid.md) costs, on the vector decks, in one run.

    python benchmarks/shortest_memory.py [--start 1] [--count 300] [--budgets 256,16,4,1]

Each deck is solved at every budget in turn (one process, the same order each time), so a change
of load falls on all budgets alike. Prints per budget the median, mean and max ms, the decks on
which A* handed over to the deepening, and every length that differs from the vectors'.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import solitaire_solver as ss  # noqa: E402

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "data",
                    "pyramid-msc-1500")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--start", type=int, default=1)
    ap.add_argument("--count", type=int, default=300)
    ap.add_argument("--budgets", default="256,16,4,1", help="MiB, comma-separated")
    a = ap.parse_args()
    budgets = [float(b) for b in a.budgets.split(",")]
    with open(os.path.join(DATA, "decks.txt"), encoding="utf-8") as f:
        decks = f.read().split("\n")
    with open(os.path.join(DATA, "shortest-lengths.txt"), encoding="utf-8") as f:
        lengths = [int(x) for x in f.read().split()]
    ms: dict[float, list[float]] = {b: [] for b in budgets}
    handed = {b: 0 for b in budgets}
    wrong = []
    for i in range(a.start, a.start + a.count):
        for b in budgets:
            t = time.perf_counter()
            r = ss.solve("pyramid-msc", decks[i - 1], objective="shortest", memory_mb=b)
            ms[b].append((time.perf_counter() - t) * 1e3)
            handed[b] += "fallback" in r.stats
            got = len(r.moves) if r.won else (0 if r.blocked else None)
            if got != lengths[i - 1]:
                wrong.append(f"deck {i} at {b:g} MiB: {r.status.name} {got}, want {lengths[i - 1]}")
    print(f"decks {a.start}..{a.start + a.count - 1}, shortest, one run\n")
    print("| budget MiB | median ms | mean ms | max ms | A* handed over | mean / first row's |\n"
          "|---:|---:|---:|---:|---:|---:|")
    base = statistics.fmean(ms[budgets[0]])
    for b in budgets:
        mean = statistics.fmean(ms[b])
        print(f"| {b:g} | {statistics.median(ms[b]):.2f} | {mean:.2f} | {max(ms[b]):.0f} | "
              f"{handed[b]} | {mean / base:.2f} |")
    print(f"\n{len(wrong)} lengths differ from the vectors'" + "".join("\n  " + w for w in wrong))


if __name__ == "__main__":
    main()
