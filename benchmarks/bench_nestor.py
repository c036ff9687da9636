"""Nestor benchmark: seeded deals under both reserves, core vs reference search, win rates.

    python benchmarks/bench_nestor.py [--quick] [--deals N] [--ref-deals M]

Every figure comes from this one run: the same seeded deals (random.Random(seed).shuffle of the
pack) go through `ss.solve` (structural proof, then the compiled core) and, for the first M of
them, through the pure-Python reference search over the reference rules.
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
import time

import solitaire_solver as ss
from solitaire_solver.engine.search import reference_search
from solitaire_solver.games import get_game


def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of k successes in n trials."""
    if n == 0:
        return 0.0, 1.0
    p = k / n
    d = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / d
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return max(0.0, centre - half), min(1.0, centre + half)


def bench_reserve(reserve: str, deals: int, ref_deals: int) -> dict:
    game, _ = get_game("nestor")
    rules = game.rules(game.variant(reserve=reserve))
    won = structural = 0
    states: list[int] = []
    first: list[bool] = []
    core_s = 0.0
    t0 = time.perf_counter()
    for seed in range(deals):
        r = ss.solve("nestor", ss.random_deal(seed), reserve=reserve)
        if r.status is ss.Status.UNKNOWN:
            raise RuntimeError(f"seed {seed}: no answer without limits")
        won += r.won
        if seed < ref_deals:
            first.append(r.won)
        structural += r.blocked and r.proof.kind == "structural"
        states.append(r.stats.get("states", 0))
        core_s += r.stats.get("seconds", 0.0)
    wall = time.perf_counter() - t0
    # The same first ref_deals deals, solved again by each side in turn.
    t1 = time.perf_counter()
    for seed in range(ref_deals):
        ss.solve("nestor", ss.random_deal(seed), reserve=reserve)
    ours = time.perf_counter() - t1
    t2 = time.perf_counter()
    ref_states = 0
    for seed in range(ref_deals):
        d = ss.random_deal(seed)
        pos = rules.start(d)
        out = reference_search(rules, pos)
        ref_states += out.states
        if (out.status == "won") != first[seed]:
            raise RuntimeError(f"seed {seed}: core and reference disagree")
    ref = time.perf_counter() - t2
    return {
        "reserve": reserve, "deals": deals, "won": won, "structural": structural,
        "blocked": deals - won, "wall": wall, "core_s": core_s,
        "states_mean": statistics.fmean(states), "states_median": statistics.median(states),
        "states_max": max(states), "ref_deals": ref_deals, "ours": ours, "ref": ref,
        "ref_states": ref_states / max(ref_deals, 1),
    }


def run(quick: bool = False, deals: int | None = None, ref_deals: int | None = None) -> str:
    n = deals or (2_000 if quick else 100_000)
    m = ref_deals or (100 if quick else 1_000)
    m = min(m, n)
    cmd = "python benchmarks/bench_nestor.py" + (" --quick" if quick else "")
    if deals or ref_deals:
        cmd += (f" --deals {n}" if deals else "") + (f" --ref-deals {m}" if ref_deals else "")
    rows = [bench_reserve(res, n, m) for res in ("closed", "open")]
    out = [
        "## Nestor",
        "",
        f"Seeded deals 0..{n - 1} (`random.Random(seed).shuffle` of the pack), rectified deal, "
        f"each reserve; `{cmd}`.",
        "The reference search (pure Python, reference rules, no pruning) ran on the first "
        f"{m} deals, and `ss.solve` ran on the same {m} deals again in the same run for the ratio.",
        "",
        "| reserve | deals | deals/s (ss.solve) | core search s/deal | states/deal mean | median "
        "| max | ref states/deal | ratio ref/ss.solve | ratio ref/core search |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in rows:
        core_per = r["core_s"] / r["deals"]
        ours_per = r["ours"] / r["ref_deals"]
        ref_per = r["ref"] / r["ref_deals"]
        out.append(
            f"| {r['reserve']} | {r['deals']:,} | {r['deals'] / r['wall']:,.0f} | "
            f"{core_per * 1e6:,.1f} µs | {r['states_mean']:,.1f} | {r['states_median']:,.0f} | "
            f"{r['states_max']:,} | {r['ref_states']:,.1f} | {ref_per / ours_per:,.0f}× | "
            f"{ref_per / core_per:,.0f}× |"
        )
    out += ["", "| reserve | won | win rate | 95% Wilson | blocked | structural blocks "
            "| share of blocks | 95% Wilson |", "|---|---:|---:|---|---:|---:|---:|---|"]
    for r in rows:
        lo, hi = wilson(r["won"], r["deals"])
        b, s = r["blocked"], r["structural"]
        slo, shi = wilson(s, b)
        out.append(
            f"| {r['reserve']} | {r['won']:,} | {r['won'] / r['deals']:.2%} | "
            f"{lo:.2%} – {hi:.2%} | {b:,} | {s:,} | {s / max(b, 1):.3%} | {slo:.3%} – {shi:.3%} |"
        )
    return "\n".join(out) + "\n"


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--quick", action="store_true")
    p.add_argument("--deals", type=int)
    p.add_argument("--ref-deals", type=int)
    a = p.parse_args(argv)
    print(run(a.quick, a.deals, a.ref_deals))
    return 0


if __name__ == "__main__":
    sys.exit(main())
