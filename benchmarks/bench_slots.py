"""Tens, Block Elevens and Fifteens benchmark: the batch path, ss.solve against the reference.

    python benchmarks/bench_slots.py [--quick]

Every figure comes from this one run on the seeded deals of docs/notation.md. Tens (both quartet rules)
and Block Elevens are order-independent (docs/proofs.md): the batch path (`_slots.decide_seeds`,
the surveys' path) decides them on one core, timed here beside Elevens in the same run. Fifteens
is searched deal by deal: `ss.solve` (compiled core) and, on a subset of the same deals, the
pure-Python reference search over `FifteensRules`. The machine's load average is printed before
and after, since these figures move with it.
"""

from __future__ import annotations

import os
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import solitaire_solver as ss  # noqa: E402
from solitaire_solver.engine.search import reference_search  # noqa: E402
from solitaire_solver.games import get_game  # noqa: E402
from solitaire_solver.games.slots import _core as _slots
from solitaire_solver.survey.runner import wilson_interval  # noqa: E402

BATCH = [("elevens", {}), ("tens", {}), ("tens", {"quartets": "rank"}), ("block-elevens", {}),
         ("block-elevens", {"later": "while"}), ("block-elevens", {"later": "none"})]


def label(game: str, variant: dict) -> str:
    return game + "".join(f" {k}={v}" for k, v in variant.items())


def batch(game: str, variant: dict, n: int) -> tuple[float, float, int]:
    """(deals per CPU second and per wall second of decide_seeds on one core, best of three;
    deals won of seeds 0..n-1). CPU time is the process's own, so it does not count the time
    other work on a shared machine takes the core away; wall time does."""
    g = get_game(game)[0]
    table = g.compiled(_slots, g.variant(**variant))
    bufs = [bytearray(n) for _ in range(4)]
    cpu = wall = float("inf")
    for _ in range(3):
        t0, c0 = time.perf_counter(), time.process_time()
        _slots.decide_seeds(table, 0, n, *bufs)
        cpu = min(cpu, time.process_time() - c0)
        wall = min(wall, time.perf_counter() - t0)
    return n / cpu, n / wall, bufs[0].count(_slots.BATCH_WON)


def load() -> str:
    return ", ".join(f"{x:.2f}" for x in os.getloadavg())


def run(quick: bool = False) -> str:
    big = 200_000 if quick else 1_000_000
    n = 1_000 if quick else 20_000           # Fifteens through ss.solve
    m = 30 if quick else 500                 # of which through the reference search
    before = load()

    rows = [(g, v, *batch(g, v, big)) for g, v in BATCH]

    deals = [ss.random_deal(s) for s in range(n)]
    t0 = time.process_time()
    results = [ss.solve("fifteens", d) for d in deals]
    solve_s = time.process_time() - t0
    states = [r.stats["states"] for r in results]
    core_s = sum(r.stats["seconds"] for r in results)
    won = sum(r.won for r in results)
    unknown = sum(r.status is ss.Status.UNKNOWN for r in results)

    rules = get_game("fifteens")[0].rules({})
    t1 = time.process_time()
    ref = [reference_search(rules, rules.start(d)) for d in deals[:m]]
    ref_s = time.process_time() - t1
    for s, (a, b) in enumerate(zip(results, ref)):
        if a.won != (b.status == "won"):
            raise RuntimeError(f"seed {s}: core and reference disagree")
    t2 = time.process_time()
    for d in deals[:m]:
        ss.solve("fifteens", d)
    solve_m = time.process_time() - t2
    after = load()

    lines = [
        "## Tens, Block Elevens and Fifteens",
        "",
        f"Command: `python benchmarks/bench_slots.py{' --quick' if quick else ''}`; one process. "
        f"Load average (1, 5, 15 min) before: {before}; after: {after}, on "
        f"{os.cpu_count()} cores shared with other work. Rates per CPU second count this "
        "process's own time on its core (what one core does); rates per wall second also "
        "count the time the shared machine gave to other work. Elevens is timed in the same "
        "run as the yardstick.",
        "",
        f"| game | batch path, seeds 0..{big - 1:,}, one core: deals per CPU second "
        "| per wall second | won | win rate | 95% Wilson interval |",
        "|---|---|---|---|---|---|",
    ]
    for g, v, rate, wall, w in rows:
        lo, hi = wilson_interval(w, big)
        lines.append(f"| {label(g, v)} | **{rate:,.0f}** | {wall:,.0f} | {w:,} "
                     f"| {100 * w / big:.3f}% | {100 * lo:.3f}% .. {100 * hi:.3f}% |")
    lines += [
        "",
        "The batch figures are the best of three runs of `decide_seeds` (C shuffle of the seed "
        "and decision); Block Elevens' includes its deal rule (court cards sent to the bottom).",
        "",
        "| Fifteens | value |",
        "|---|---|",
        f"| through `ss.solve`, seeds 0..{n - 1:,} | {n / solve_s:,.0f} deals per CPU second "
        f"({1e3 * solve_s / n:.3f} ms/deal, Python API included; the core's own clock, wall "
        f"time: {1e3 * core_s / n:.3f} ms/deal) |",
        f"| states per deal | median {statistics.median(states):g}, mean "
        f"{statistics.fmean(states):.1f}, max {max(states):,} |",
        f"| won | {won:,} of {n:,} ({100 * won / n:.2f}%), {unknown} unknown |",
        f"| reference search (pure Python), first {m:,} of the same deals | "
        f"{m / ref_s:,.1f} deals per CPU second, median {statistics.median(b.states for b in ref):g} "
        f"states, max {max(b.states for b in ref):,} |",
        f"| `ss.solve` ÷ reference, same {m:,} deals, same run, CPU time | "
        f"**{ref_s / solve_m:,.0f}×** |",
        "",
        "The reference search lists every group of cards totalling 15 and explores each "
        "position reached; the core lists one group per rank multiset (exact: number cards' "
        "suits never matter, docs/fifteens.md), so it explores fewer positions. Both agree on "
        f"every verdict of the {m:,} deals.",
    ]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    print(run(quick="--quick" in sys.argv[1:]))
