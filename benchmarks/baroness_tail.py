"""Baroness under PySolFC's rules (baroness-pysolfc): where a hard deal's positions go, and the
per-deal cost over a run of PySolFC numbers (docs/baroness.md, docs/benchmarks.md).

    python benchmarks/baroness_tail.py where N [--limit STATES]
    nice -n 10 python benchmarks/baroness_tail.py survey FIRST LAST [--max-seconds 10] [--out FILE]
    nice -n 10 python benchmarks/baroness_tail.py verdict N [N ...] [--memory-mb M] [--unpruned]
                                                  [--max-seconds S]
    nice -n 10 python benchmarks/baroness_tail.py fresh N [N ...] [--memory-mb M] [--switch KEY]
    nice -n 10 python benchmarks/baroness_tail.py check FIRST LAST [--max-states S]
    python benchmarks/baroness_tail.py cost N [N ...] [--max-states S]

`where` walks the pruned search of PySolFC number N depth first (the core's own moves through
step(): on a blocked deal the positions the core's search explores, in a slightly different
order), up to --limit positions, and
prints per deal count: the positions, the sets of removed cards among them, and how many of the
positions have 0..5 cards moved onto an empty pile and covered since ("buried"). A deal whose
positions per set of removed cards stay constant from one deal to the next walks the same play
once per placement of its buried cards.

`survey` solves each number at the default limits with a --max-seconds cap (a deal reaching it is
UNKNOWN) and prints the unknown numbers and the median, p99 and maximum of time and positions;
--out keeps one JSON line a deal.

`verdict` decides each number with no position limit within --memory-mb and, with --max-seconds,
that many seconds of wall time (ss.solve; with --unpruned the core alone with prune=False, every
legal move: the cross-check of the pruning rules where no certificate fits) and prints one JSON
line each, with the wall and CPU seconds.

`fresh` decides each number with the pruned core twice in one run, without and with the
fresh-deal rule (docs/baroness.md; --switch alike: the alike rule, the same way), no time or
position limit within --memory-mb, and prints one JSON line a run: the verdict, the positions
of the search and of the fresh-deal rule's own searches, and the CPU seconds.

`check` decides each number with the default pruned core (the fresh-deal rule on) and with the
core searching every legal move (prune=False), both within --max-states, and prints every number
where the verdicts differ (there must be none) and the counts of agreeing and skipped numbers
(a limit reached on either side).

`cost` solves each number at the default limits and --max-states (default 8,000,000) and prints
one JSON line each with the positions, the table's probes and the CPU seconds, then the total
CPU: the cost of a position where two builds take the same ones (run it in each build's tree).
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import platform
import statistics
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

import solitaire_solver as ss  # noqa: E402
from solitaire_solver.games.baroness import _core as core  # noqa: E402
from solitaire_solver.pysolfc import pysolfc_deal  # noqa: E402

GAME = "baroness-pysolfc"
DEAL_BITS, MOVED_BITS, PILES, FIVE_DEALS = 4, 6, 5, 10


def spec_of(number: int) -> dict:
    return {"cards": list(pysolfc_deal(GAME, number).cards), "together": True,
            "to_empty": True, "prune": True}


def piles_of(cards: list[int], removed: int, aux: int) -> tuple[int, list[int], list[list[int]]]:
    """(deals made, the moved card of each pile or -1, each pile bottom first)."""
    deals = (aux & 15) + 1
    k = min(deals, FIVE_DEALS)
    moved = [((aux >> (DEAL_BITS + MOVED_BITS * i)) & 63) - 1 for i in range(PILES)]
    gone = {m for m in moved if m >= 0}
    piles = []
    for i in range(PILES):
        p = [moved[i]] if moved[i] >= 0 else []
        p += [cards[PILES * j + i] for j in range(k)
              if not removed >> cards[PILES * j + i] & 1 and cards[PILES * j + i] not in gone]
        piles.append(p)
    return deals, moved, piles


def where(number: int, limit: int) -> None:
    spec = spec_of(number)
    seen = {(0, 0)}
    stack = [(0, 0)]
    by_deal: collections.Counter = collections.Counter()
    sets: dict[int, set] = collections.defaultdict(set)
    buried: collections.Counter = collections.Counter()
    nodes, t0, won = 0, time.time(), False
    while stack and nodes < limit:
        removed, aux = stack.pop()
        nodes += 1
        won, children = core.step(spec, removed, aux)
        if won:
            break
        deals, moved, piles = piles_of(spec["cards"], removed, aux)
        by_deal[deals] += 1
        sets[deals].add(removed)
        buried[deals, sum(1 for i in range(PILES) if moved[i] >= 0 and len(piles[i]) > 1)] += 1
        for _, r, a in reversed(children):
            if (r, a) not in seen:
                seen.add((r, a))
                stack.append((r, a))
    end = "won" if won else "exhausted" if not stack else f"stopped at {limit:,}"
    print(f"PySolFC number {number}: {nodes:,} positions, {end}, {time.time() - t0:.1f} s")
    print("deals | positions | sets of removed cards | positions per set | with 0..5 buried cards")
    for d in sorted(by_deal):
        print(f"{d} | {by_deal[d]:,} | {len(sets[d]):,} | {by_deal[d] / len(sets[d]):.1f} | "
              + " ".join(f"{buried[d, b]:,}" for b in range(PILES + 1)))


def survey(first: int, last: int, max_seconds: float, out: str | None) -> None:
    rows = []
    f = open(out, "a", encoding="utf-8") if out else None
    t0 = time.time()
    for n in range(first, last + 1):
        deal = pysolfc_deal(GAME, n)
        t = time.perf_counter()
        r = ss.solve(GAME, deal, max_seconds=max_seconds)
        ms = (time.perf_counter() - t) * 1000
        row = {"number": n, "status": r.status.name, "ms": round(ms, 3),
               "states": (r.stats or {}).get("states", 0)}
        rows.append(row)
        if f:
            f.write(json.dumps(row) + "\n")
            f.flush()
    if f:
        f.close()
    times = sorted(r["ms"] for r in rows)
    states = sorted(r["states"] for r in rows)

    def p99(xs: list) -> float:
        return xs[min(len(xs) - 1, int(0.99 * len(xs)))]

    count = collections.Counter(r["status"] for r in rows)
    print(json.dumps({
        "game": GAME, "numbers": [first, last], "max_seconds": max_seconds,
        "won": count["WON"], "blocked": count["BLOCKED"], "unknown": count["UNKNOWN"],
        "unknown_numbers": [r["number"] for r in rows if r["status"] == "UNKNOWN"],
        "ms": {"median": statistics.median(times), "p99": p99(times), "max": times[-1]},
        "states": {"median": statistics.median(states), "p99": p99(states), "max": states[-1]},
        "wall_s": round(time.time() - t0, 1), "machine": platform.processor() or platform.machine(),
    }))


def verdict(numbers: list[int], memory_mb: float, unpruned: bool,
            max_seconds: float | None = None) -> None:
    from solitaire_solver.engine.contract import Limits
    for n in numbers:
        t, cpu = time.time(), time.process_time()
        if unpruned:
            spec = dict(spec_of(n), prune=False)
            run = core.solve(spec, "decide", Limits.of(None, max_seconds, memory_mb), False)
            status, states = run.status, run.stats["states"]
        else:
            r = ss.solve(GAME, pysolfc_deal(GAME, n), memory_mb=memory_mb, max_seconds=max_seconds)
            status, states = r.status.name, r.stats.get("states")
        print(json.dumps({"number": n, "unpruned": unpruned, "status": status, "states": states,
                          "seconds": round(time.time() - t, 1),
                          "cpu_s": round(time.process_time() - cpu, 2)}), flush=True)


def fresh(numbers: list[int], memory_mb: float, switch: str) -> None:
    from solitaire_solver.engine.contract import Limits
    for n in numbers:
        for on in (False, True):
            t = time.process_time()
            run = core.solve(dict(spec_of(n), **{switch: on}), "decide",
                             Limits.of(None, None, memory_mb), False)
            print(json.dumps({"number": n, switch: on, "status": run.status,
                              "states": run.stats["states"],
                              "rule_states": run.stats.get("fresh_positions", 0),
                              "rule_searches": run.stats.get("fresh_searches", 0),
                              "cpu_s": round(time.process_time() - t, 2)}), flush=True)


def check(first: int, last: int, max_states: int) -> None:
    from solitaire_solver.engine.contract import Limits
    counts: collections.Counter = collections.Counter()
    t0 = time.time()
    for n in range(first, last + 1):
        on, off = (core.solve(dict(spec_of(n), prune=p), "decide", Limits(max_states=max_states),
                              False).status for p in (True, False))
        if "limit" in on or "limit" in off:
            counts["skipped"] += 1
        elif on == off:
            counts["agree"] += 1
        else:
            counts["differ"] += 1
            print(json.dumps({"number": n, "pruned": on, "unpruned": off}), flush=True)
    print(json.dumps({"numbers": [first, last], "max_states": max_states, **counts,
                      "wall_s": round(time.time() - t0)}))


def cost(numbers: list[int], max_states: int) -> None:
    total = 0.0
    for n in numbers:
        cpu = time.process_time()
        r = ss.solve(GAME, pysolfc_deal(GAME, n), max_states=max_states)
        cpu = time.process_time() - cpu
        total += cpu
        print(json.dumps({"number": n, "status": r.status.name, "states": r.stats.get("states"),
                          "probes": r.stats.get("table_probes"), "cpu_s": round(cpu, 2)}),
              flush=True)
    print(json.dumps({"cpu_s": round(total, 2), "machine": platform.processor()
                      or platform.machine()}))


def main() -> None:
    p = argparse.ArgumentParser()
    sub = p.add_subparsers(dest="cmd", required=True)
    w = sub.add_parser("where")
    w.add_argument("number", type=int)
    w.add_argument("--limit", type=int, default=10 ** 6)
    s = sub.add_parser("survey")
    s.add_argument("first", type=int)
    s.add_argument("last", type=int)
    s.add_argument("--max-seconds", type=float, default=10.0)
    s.add_argument("--out")
    v = sub.add_parser("verdict")
    v.add_argument("numbers", type=int, nargs="+")
    v.add_argument("--memory-mb", type=float, default=256)
    v.add_argument("--unpruned", action="store_true")
    v.add_argument("--max-seconds", type=float)
    f = sub.add_parser("fresh")
    f.add_argument("numbers", type=int, nargs="+")
    f.add_argument("--memory-mb", type=float, default=4096)
    f.add_argument("--switch", default="fresh")
    c = sub.add_parser("check")
    c.add_argument("first", type=int)
    c.add_argument("last", type=int)
    c.add_argument("--max-states", type=int, default=2_000_000)
    o = sub.add_parser("cost")
    o.add_argument("numbers", type=int, nargs="+")
    o.add_argument("--max-states", type=int, default=8_000_000)
    a = p.parse_args()
    if a.cmd == "where":
        where(a.number, a.limit)
    elif a.cmd == "verdict":
        verdict(a.numbers, a.memory_mb, a.unpruned, a.max_seconds)
    elif a.cmd == "fresh":
        fresh(a.numbers, a.memory_mb, a.switch)
    elif a.cmd == "check":
        check(a.first, a.last, a.max_states)
    elif a.cmd == "cost":
        cost(a.numbers, a.max_states)
    else:
        survey(a.first, a.last, a.max_seconds, a.out)


if __name__ == "__main__":
    main()
