"""Peak memory against the budget: heavy deals at several memory_mb, on the core and the pure
fallback, each case in a fresh process (docs/benchmarks.md, "Peak memory against the budget").

    python benchmarks/memory_bound.py [--old DIR] [--core-seconds 60] [--pure-seconds 20]

Each case runs in a child process that imports solitaire_solver from a source tree (this one, and
with --old another checkout with its core built, case by case in turn), reads its peak resident
memory after the import and after the solve (VmHWM on Linux: ru_maxrss there keeps the peak of
the process it was forked from; ru_maxrss elsewhere), and prints the answer. The table gives
the peak and how far past the import it went, against the stated bound: the budget plus
OVERHEAD_MIB past the import.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DECKS = os.path.join(HERE, "tests", "data", "pyramid-msc-1500", "decks.txt")
OVERHEAD_MIB = 4  # tests/test_memory.py

CHILD = """
import json, resource, sys

def peak():
    try:
        with open("/proc/self/status") as f:
            return next(int(line.split()[1]) for line in f if line.startswith("VmHWM:")) << 10
    except OSError:
        unit = 1 if sys.platform == "darwin" else 1024
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * unit

import solitaire_solver as ss
base = peak()
case = json.loads(sys.argv[1])
kind, arg = case.pop("deal")
if kind == "seed":
    deal = ss.random_deal(arg)
elif kind == "pysolfc":
    from solitaire_solver.pysolfc import pysolfc_deal
    deal = pysolfc_deal(case["game"], arg)
else:
    deal = arg
game = case.pop("game")
r = ss.solve(game, deal, **case)
print(json.dumps({"status": r.status.name, "states": r.stats.get("states"),
                  "seconds": r.stats.get("seconds"), "base": base, "peak": peak()}))
"""


def run(tree: str, case: dict, pure: bool) -> dict:
    env = {k: v for k, v in os.environ.items() if k != "SOLITAIRE_SOLVER_PURE"}
    env["PYTHONPATH"] = tree
    if pure:
        env["SOLITAIRE_SOLVER_PURE"] = "1"
    with tempfile.TemporaryDirectory() as cwd:  # not a source tree's directory
        p = subprocess.run([sys.executable, "-W", "ignore", "-c", CHILD, json.dumps(case)],
                           capture_output=True, text=True, env=env, cwd=cwd)
    if p.returncode != 0:
        raise SystemExit(f"{tree}: {case}: {p.stderr[-1500:]}")
    return json.loads(p.stdout)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--old", help="another source tree with its core built, run case by case")
    ap.add_argument("--core-seconds", type=float, default=60.0)
    ap.add_argument("--pure-seconds", type=float, default=20.0)
    ap.add_argument("--budgets", default="16,64,256", help="the core's, MiB")
    ap.add_argument("--pure-budgets", default="16,64")
    a = ap.parse_args()
    with open(DECKS, encoding="utf-8") as f:
        deck171 = f.read().split("\n")[170]
    deals = [
        ("baroness-pysolfc seed 4", {"game": "baroness-pysolfc", "deal": ["seed", 4]}),
        ("fifteens-pysolfc PySolFC 4773", {"game": "fifteens-pysolfc", "deal": ["pysolfc", 4773]}),
        ("pyramid-msc deck 171 shortest", {"game": "pyramid-msc", "deal": ["text", deck171],
                                           "objective": "shortest"}),
    ]
    cases = [(name, "core", {**c, "memory_mb": float(mb), "max_seconds": a.core_seconds})
             for name, c in deals for mb in a.budgets.split(",")]
    cases += [(deals[0][0], "pure", {**deals[0][1], "memory_mb": float(mb),
                                     "max_seconds": a.pure_seconds})
              for mb in a.pure_budgets.split(",")]
    trees = [("old", os.path.abspath(a.old))] if a.old else []
    trees.append(("new", HERE))
    print("| deal | backend | MiB | code | answer | states | s | peak MiB | past import "
          "| bound | within |")
    print("|---|---|---:|---|---|---:|---:|---:|---:|---:|---|")
    for name, backend, case in cases:
        for label, tree in trees:
            out = run(tree, dict(case), backend == "pure")
            mib = case["memory_mb"]
            past = (out["peak"] - out["base"]) / 2**20
            print(f"| {name} | {backend} | {mib:g} | {label} | {out['status']} "
                  f"| {out['states']:,} | {out['seconds']:.1f} | {out['peak'] / 2**20:.1f} "
                  f"| {past:.1f} | {mib + OVERHEAD_MIB:g} "
                  f"| {'yes' if past <= mib + OVERHEAD_MIB else 'no'} |", flush=True)


if __name__ == "__main__":
    main()
