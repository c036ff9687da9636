"""Baroness and Monte Carlo benchmark: seeded deals, per-deal times, core vs reference search.

    python benchmarks/bench_baroness.py [--quick] [--deals N] [--ref-deals M] [--only G,...]

Every figure comes from this one run: the same seeded deals (random.Random(seed).shuffle of the
pack) go through `ss.solve` with the default limits (structural proof, then the compiled core) and,
for the first M of them, through `ss.solve` again and through the pure-Python fallback
(SOLITAIRE_SOLVER_PURE=1: the same structural proof, then the reference search over the reference
rules), whose verdicts must agree.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import sys
import time
import warnings

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

import solitaire_solver as ss  # noqa: E402
from benchmarks.bench_nestor import wilson  # noqa: E402

#: (label, game, variant, default reference sample). The Baroness reference search averages
#: seconds a deal (no pruning: every reachable position of a blocked deal), so its sample is smaller.
CASES = [
    ("baroness", "baroness", {}, 60),
    ("monte-carlo, consolidate=any", "monte-carlo", {"consolidate": "any"}, 200),
    ("monte-carlo, consolidate=stuck", "monte-carlo", {"consolidate": "stuck"}, 200),
]


def pure_solve(game: str, seed: int, variant: dict) -> ss.Result:
    """ss.solve under the pure-Python fallback (the switch is read at every call)."""
    os.environ["SOLITAIRE_SOLVER_PURE"] = "1"
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            return ss.solve(game, ss.random_deal(seed), **variant)
    finally:
        del os.environ["SOLITAIRE_SOLVER_PURE"]


def bench(game: str, variant: dict, deals: int, ref_deals: int) -> dict:
    won = structural = 0
    ms: list[float] = []
    states: list[int] = []
    table = 0
    verdicts: list[bool] = []
    t0 = time.perf_counter()
    for seed in range(deals):
        t = time.perf_counter()
        r = ss.solve(game, ss.random_deal(seed), **variant)
        ms.append((time.perf_counter() - t) * 1e3)
        if r.status is ss.Status.UNKNOWN:
            raise RuntimeError(f"{game} seed {seed}: UNKNOWN with the default limits ({r.reason})")
        won += r.won
        structural += r.blocked and r.proof.kind == "structural"
        states.append(r.stats.get("states", 0))
        table = max(table, r.stats.get("table_bytes", 0))
        if seed < ref_deals:
            verdicts.append(r.won)
    wall = time.perf_counter() - t0
    # The same first ref_deals deals again, each side in turn, in this run.
    t1 = time.perf_counter()
    for seed in range(ref_deals):
        ss.solve(game, ss.random_deal(seed), **variant)
    ours = time.perf_counter() - t1
    t2 = time.perf_counter()
    for seed in range(ref_deals):
        if pure_solve(game, seed, variant).won != verdicts[seed]:
            raise RuntimeError(f"{game} seed {seed}: core and reference disagree")
    ref = time.perf_counter() - t2
    q = statistics.quantiles(ms, n=100, method="inclusive")
    return {"deals": deals, "won": won, "structural": structural, "wall": wall,
            "median": statistics.median(ms), "p99": q[98], "max": max(ms),
            "states_mean": statistics.fmean(states), "states_median": statistics.median(states),
            "states_max": max(states), "table_mib": table / 2**20, "ref_deals": ref_deals,
            "ours": ours, "ref": ref}


def run(quick: bool = False, deals: int | None = None, ref_deals: int | None = None,
        only: list[str] | None = None) -> str:
    n = deals or (2_000 if quick else 100_000)
    cmd = "python benchmarks/bench_baroness.py" + (" --quick" if quick else "")
    cmd += (f" --deals {n}" if deals else "") + (f" --ref-deals {ref_deals}" if ref_deals else "")
    rows = []
    for label, game, variant, m in CASES:
        if only and game not in only:
            continue
        m = min(ref_deals or (m // 4 if quick else m), n)
        rows.append((label, bench(game, variant, n, m)))
    out = [
        "## Baroness and Monte Carlo",
        "",
        f"Seeded deals 0..{n - 1} (`random.Random(seed).shuffle` of the pack), `ss.solve` with the "
        f"default limits (no UNKNOWN); `{cmd}`. Times are wall-clock per `ss.solve` call "
        "(structural proof, then the core). The reference (pure-Python fallback: structural "
        "proof, then the reference search without pruning) ran on the first deals of each row, "
        "and `ss.solve` ran on the same deals again in the same run for the ratio.",
        "",
        "| game | deals | deals/s | median ms | p99 ms | max ms | states mean | median | max "
        "| largest table | ref deals | ratio ref/ss.solve |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for label, r in rows:
        out.append(
            f"| {label} | {r['deals']:,} | {r['deals'] / r['wall']:,.0f} | {r['median']:.3f} | "
            f"{r['p99']:.1f} | {r['max']:,.0f} | {r['states_mean']:,.0f} | "
            f"{r['states_median']:,.0f} | {r['states_max']:,} | {r['table_mib']:.1f} MiB | "
            f"{r['ref_deals']} | {r['ref'] / max(r['ours'], 1e-9):,.0f}× |")
    out += ["", f"Peak resident memory of the process (ru_maxrss): "
            f"{resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:,.0f} MiB.", "",
            "| game | won | win rate | 95% Wilson | structural blocks |",
            "|---|---:|---:|---|---:|"]
    for label, r in rows:
        lo, hi = wilson(r["won"], r["deals"])
        out.append(f"| {label} | {r['won']:,} | {r['won'] / r['deals']:.2%} | "
                   f"{lo:.2%} – {hi:.2%} | {r['structural']:,} |")
    return "\n".join(out) + "\n"


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--quick", action="store_true")
    p.add_argument("--deals", type=int)
    p.add_argument("--ref-deals", type=int)
    p.add_argument("--only", help="games to run, comma-separated (baroness, monte-carlo)")
    a = p.parse_args(argv)
    print(run(a.quick, a.deals, a.ref_deals, a.only.split(",") if a.only else None))
    return 0


if __name__ == "__main__":
    sys.exit(main())
