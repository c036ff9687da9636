"""Accordion's attempts (docs/accordion.md, "Move order and attempts"): the same deals decided by
the core's search under several schedules of attempts (the first attempt's budget of positions,
the growth from one attempt to the next, and whether the table is kept between attempts), each
deal under every schedule in turn, in one run.

    nice -n 10 python benchmarks/accordion_attempts.py --start 1000000 --count 20000 \
        --schedules 500:1.5:drop,100:1.2:drop,100:1.2:keep
    python benchmarks/accordion_attempts.py --pysolfc 69589,89691,97199 \
        --schedules 500:1.5:drop,100:1.2:keep

Prints, per schedule, the positions per deal (median, p99, p99.9, max; how many deals took more
than 100,000 and 300,000), all positions, and the CPU seconds in all and for the slowest deal.
Positions do not depend on the load; CPU seconds do.
"""

from __future__ import annotations

import argparse
import statistics
import time

import solitaire_solver as ss
from solitaire_solver.engine.contract import DEFAULT_LIMITS
from solitaire_solver.games import resolve
from solitaire_solver.games.accordion import _core as core


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--start", type=int, default=1_000_000, help="the first seed")
    ap.add_argument("--count", type=int, default=2000)
    ap.add_argument("--pysolfc", default="", help="PySolFC game numbers instead of seeds, a,b,c")
    ap.add_argument("--schedules", default="500:1.5:drop,100:1.2:keep",
                    metavar="FIRST:GROWTH:keep|drop,...")
    a = ap.parse_args()
    schedules = [(int(f), float(g), k) for f, g, k in (s.split(":") for s in a.schedules.split(","))]
    game, variant = resolve("accordion", {})
    if a.pysolfc:
        deals = [(f"#{n}", ss.pysolfc_deal("accordion", int(n))) for n in a.pysolfc.split(",")]
    else:
        deals = [(f"seed {s}", ss.random_deal(s)) for s in range(a.start, a.start + a.count)]
    states: dict = {s: [] for s in schedules}
    cpu: dict = {s: [] for s in schedules}
    for name, deal in deals:
        verdicts = set()
        spec = game.core_spec(deal, variant, "decide", False)
        for s in schedules:
            core.FIRST_BUDGET, core.GROWTH = s[:2]
            t = time.process_time()
            run = core.solve(dict(spec, keep=s[2] == "keep"), "decide", DEFAULT_LIMITS, False)
            cpu[s].append(time.process_time() - t)
            states[s].append(run.stats["states"])
            verdicts.add(run.status)
        if len(verdicts) != 1:
            raise SystemExit(f"{name}: the schedules disagree: {verdicts}")
        if a.pysolfc:
            print(name, " ".join(f"{st[-1]:,}" for st in states.values()), flush=True)
    print(f"\n{len(deals)} deals ({a.pysolfc or f'seeds {a.start}..{a.start + a.count - 1}'})\n")
    print("| first:growth:table | median | p99 | p99.9 | max | over 100,000 | over 300,000 | positions "
          "in all | CPU s in all | slowest CPU s |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for s in schedules:
        st, n = sorted(states[s]), len(states[s])
        print(f"| {s[0]}:{s[1]}:{s[2]} | {statistics.median(st):,.0f} | {st[int(0.99 * (n - 1))]:,} | "
              f"{st[int(0.999 * (n - 1))]:,} | {st[-1]:,} | {sum(x > 100_000 for x in st)} | "
              f"{sum(x > 300_000 for x in st)} | {sum(st):,} | {sum(cpu[s]):.1f} | "
              f"{max(cpu[s]):.2f} |")


if __name__ == "__main__":
    main()
