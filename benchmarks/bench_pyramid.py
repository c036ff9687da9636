"""Pyramid benchmark: decide and shortest over the 1,500 test-vector decks and 1,500 seeded deals.

python benchmarks/bench_pyramid.py [--quick] [--shortest-states N] [--win-rates N] [--shortest-only]

`shortest` is the best-first (A*) search of the core (docs/pyramid.md); --shortest-only runs just
that row over the 1,500 vector decks, checking every length and replaying every line.
"""

from __future__ import annotations

import math
import os
import resource
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import solitaire_solver as ss  # noqa: E402
from solitaire_solver.deal import Deal  # noqa: E402
from solitaire_solver.engine.contract import Limits  # noqa: E402
from solitaire_solver.engine.search import reference_search  # noqa: E402
from solitaire_solver.games import get_game  # noqa: E402
from solitaire_solver.games.pyramid.rules import PyramidRules  # noqa: E402

DATA = Path(__file__).resolve().parents[1] / "tests" / "data" / "pyramid-msc-1500"  # tests/data/README.md


def vectors() -> tuple[list[list[str]], list[int]]:
    decks = [ln.split() for ln in DATA.joinpath("decks.txt").read_text().splitlines() if ln]
    lengths = [int(x) for x in DATA.joinpath("shortest-lengths.txt").read_text().split()]
    return decks, lengths


def pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    p = k / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return c - h, c + h


def run_set(name: str, deals: list, objective: str, max_states: int = 0,
            expect: list[int] | None = None, replay: bool = False, memory_mb: float = 256,
            **variant) -> tuple[str, dict]:
    ms, states, tables, won, unknown, wrong = [], [], [], 0, 0, 0
    for i, d in enumerate(deals):
        t0 = time.perf_counter()
        r = ss.solve(name, d, objective=objective, max_states=max_states or None,
                     memory_mb=memory_mb, **variant)
        ms.append((time.perf_counter() - t0) * 1e3)
        states.append(r.stats.get("states", 0))
        tables.append(r.stats.get("table_bytes", 0) + r.stats.get("frontier_bytes", 0))
        if r.status is ss.Status.UNKNOWN:
            unknown += 1
            continue
        won += r.won
        ok = True
        if expect is not None:
            ok = r.won == (expect[i] > 0)
            if objective == "shortest" and r.won:
                ok = ok and len(r.moves) == expect[i]
        if replay and r.won:
            # the line replayed (verify's check of a claim of the fewest moves is a search of
            # its own, in pure Python)
            ok = ok and bool(ss.verify(name, d, list(r.moves), **variant).ok)
        wrong += not ok
    row = (f"| {name} {variant or ''} | {objective} | {len(deals)} | {won} | {unknown} | "
           f"{statistics.median(ms):.1f} | {statistics.mean(ms):.1f} | {pct(ms, 0.99):.0f} | "
           f"{max(ms):.0f} | {statistics.median(states):.0f} | {max(states)} | "
           f"{max(tables) / 2**20:.0f} | {'-' if expect is None and not replay else wrong} |")
    return row, {"ms": ms, "won": won, "unknown": unknown, "wrong": wrong}


def reference_ratio(n: int) -> str:
    """Core and reference search on the same mid-game positions (one pass), in one run."""
    import random

    core = __import__("solitaire_solver.games.pyramid._core", fromlist=["solve"])
    rules = PyramidRules(1, "pyramid", True)
    t_core = t_ref = 0.0
    done = 0
    for seed in range(n * 4):
        rng = random.Random(seed)
        deal = Deal.from_seed(seed)
        pos = rules.start(deal)
        for _ in range(12):
            moves = [m for m in rules.moves(pos) if m.word is None] or rules.moves(pos)
            if not moves or rules.won(pos):
                break
            pos = rules.apply(pos, rng.choice(moves))
        t0 = time.perf_counter()
        ref = reference_search(rules, pos, 50000)
        dt_ref = time.perf_counter() - t0
        if ref.status == "limit-states":
            continue
        _, k, _ = rules.key(pos)
        t0 = time.perf_counter()
        core.solve({"cards": deal.cards, "passes": 1, "goal_all": False, "stock_waste_pairs": True,
                    "root": (pos.removed, k | (1 << 5))}, "decide", Limits(memory_bytes=64 << 20),
                   False)
        t_core += time.perf_counter() - t0
        t_ref += dt_ref
        done += 1
        if done >= n:
            break
    return (f"Core vs pure-Python reference search, decide, one pass, goal pyramid, {done} "
            f"mid-game positions (12 random removals in): core {t_core * 1e3:.1f} ms, reference "
            f"{t_ref * 1e3:.0f} ms in total, ratio {t_ref / max(t_core, 1e-9):.0f}x.")


#: The shortest searches' limits: the defaults (no state limit, 256 MiB); the hardest vector
#: deck (171) needs 4.0 million positions (150 MiB).
SHORTEST_STATES = 0
SHORTEST_MB = 256


def run(quick: bool = False, shortest_states: int = SHORTEST_STATES, win_rates: int = 0) -> str:
    n = 100 if quick else 1500
    decks, lengths = vectors()
    seeded = [Deal.from_seed(s) for s in range(n)]
    lines = [
        "## Pyramid",
        "",
        f"Command: `python benchmarks/bench_pyramid.py{' --quick' if quick else ''}`. One "
        "process, one core, per-deal wall time of `ss.solve` (ms); states = positions stored; "
        "table MiB = the largest search table (the A* node array, hash map and queue for "
        "shortest) of any deal. Last column: answers that disagree with the vectors' lengths "
        "or whose line does not replay (ss.verify); - where neither is checked.",
        "",
        "| deals | objective | n | won | unknown | median ms | mean ms | p99 ms | max ms | "
        "median states | max states | table MiB | wrong |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    row, _ = run_set("pyramid-msc", decks[:n], "decide", expect=lengths[:n])
    lines.append(row.replace("pyramid-msc", "vectors pyramid-msc", 1))
    row, _ = run_set("pyramid-msc", seeded, "decide")
    lines.append(row.replace("pyramid-msc", "seeds pyramid-msc", 1))
    row, _ = run_set("pyramid", seeded, "decide")
    lines.append(row.replace("pyramid", "seeds pyramid (defaults)", 1))
    ns = 50 if quick else n
    row, _ = run_set("pyramid-msc", decks[:ns], "shortest", shortest_states, expect=lengths[:ns],
                     replay=True, memory_mb=SHORTEST_MB)
    lines.append(row.replace("pyramid-msc", "vectors pyramid-msc", 1))
    row, _ = run_set("pyramid-msc", seeded[:ns], "shortest", shortest_states, replay=True,
                     memory_mb=SHORTEST_MB)
    lines.append(row.replace("pyramid-msc", "seeds pyramid-msc", 1))
    row, _ = run_set("pyramid", seeded[:ns], "shortest", shortest_states, replay=True,
                     memory_mb=SHORTEST_MB)
    lines.append(row.replace("pyramid", "seeds pyramid (defaults)", 1))
    lines.append("")
    lines.append(f"Peak resident memory of the process: "
                 f"{resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MiB. "
                 f"shortest ran with max_states={shortest_states} and memory_mb={SHORTEST_MB} "
                 "(unknown = a limit reached).")
    lines.append("")
    lines.append(reference_ratio(10 if quick else 30))
    if win_rates:
        lines += ["", f"Win rates over seeds 0..{win_rates - 1} (95% Wilson interval):", ""]
        for passes in (1, 3, "unlimited"):
            for goal in ("all", "pyramid"):
                k = sum(ss.solve("pyramid", Deal.from_seed(s), passes=passes, goal=goal).won
                        for s in range(win_rates))
                lo, hi = wilson(k, win_rates)
                lines.append(f"- passes {passes}, goal {goal}: {k}/{win_rates} = "
                             f"{100 * k / win_rates:.2f}% [{100 * lo:.2f}, {100 * hi:.2f}]")
    get_game("pyramid")
    return "\n".join(lines)


def run_shortest(quick: bool = False, shortest_states: int = SHORTEST_STATES) -> str:
    """The shortest objective alone over the vector decks: lengths checked, lines replayed."""
    n = 100 if quick else 1500
    decks, lengths = vectors()
    row, info = run_set("pyramid-msc", decks[:n], "shortest", shortest_states,
                        expect=lengths[:n], replay=True, memory_mb=SHORTEST_MB)
    agree = n - info["unknown"] - info["wrong"]
    return "\n".join([
        f"Command: `python benchmarks/bench_pyramid.py --shortest-only{' --quick' if quick else ''}"
        f" --shortest-states {shortest_states}`",
        "",
        "| deals | objective | n | won | unknown | median ms | mean ms | p99 ms | max ms | "
        "median states | max states | table MiB | wrong |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|",
        row.replace("pyramid-msc", "vectors pyramid-msc", 1),
        "",
        f"{agree} of {n} decks answered and equal to shortest-lengths.txt (0 = no win), every "
        f"line replayed by ss.verify; {info['unknown']} unknown (limit reached), "
        f"{info['wrong']} disagreeing. Peak resident memory "
        f"{resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MiB.",
    ])


if __name__ == "__main__":
    args = sys.argv[1:]
    if "--help" in args or "-h" in args:
        print(__doc__)
        sys.exit(0)
    states = (int(args[args.index("--shortest-states") + 1]) if "--shortest-states" in args
              else SHORTEST_STATES)
    rates = int(args[args.index("--win-rates") + 1]) if "--win-rates" in args else 0
    if "--shortest-only" in args:
        print(run_shortest("--quick" in args, states))
    else:
        print(run("--quick" in args, states, rates))
