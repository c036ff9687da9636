"""Montana: two checkouts of the library side by side on the same seeded deals, one deal at a time
and each deal on both sides in turn (so that both see the same load): won / blocked / unknown and
median, p99 and max time and positions per side, under a time limit or a positions budget
(--states: the same work on both sides, whatever the load; the CPU time then says what a
position costs).

    nice -n 10 python benchmarks/montana_before_after.py BEFORE_DIR AFTER_DIR --ranks 13 \\
        --deals 50 --seconds 10
    nice -n 10 python benchmarks/montana_before_after.py BEFORE_DIR AFTER_DIR --ranks 8 \\
        --deals 200 --seconds 0 --states 1000000
    nice -n 10 python benchmarks/montana_before_after.py BEFORE_DIR AFTER_DIR --ranks 8 \\
        --seeds 22701 21085 --seconds 600

BEFORE_DIR and AFTER_DIR are checkouts with their extensions built in place.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import subprocess
import sys

WORKER = r"""
import json, sys, time
import solitaire_solver as ss
solvers = {}
for line in sys.stdin:
    ranks, seed, seconds, states = line.split()
    key = (int(ranks), float(seconds), int(states))
    if key not in solvers:
        solvers[key] = ss.Solver("montana", ranks=key[0], max_seconds=key[1] or None,
                                 max_states=key[2] or None)
    t, cpu = time.perf_counter(), time.process_time()
    r = solvers[key].solve(ss.random_deal(int(seed)))
    print(json.dumps({"status": r.status.name.lower(), "ms": (time.perf_counter() - t) * 1000,
                      "cpu_ms": (time.process_time() - cpu) * 1000,
                      "states": r.stats.get("states", 0)}), flush=True)
"""


def p99(xs: list) -> float:
    s = sorted(xs)
    return s[math.ceil(0.99 * len(s)) - 1]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("before")
    ap.add_argument("after")
    ap.add_argument("--ranks", type=int, default=13)
    ap.add_argument("--deals", type=int, default=50)
    ap.add_argument("--first", type=int, default=0)
    ap.add_argument("--seeds", type=int, nargs="+", default=None,
                    help="these seeds instead of --first and --deals")
    ap.add_argument("--seconds", type=float, default=10.0, help="a deal's time limit (0: none)")
    ap.add_argument("--states", type=int, default=0, help="a deal's positions budget (0: none)")
    ap.add_argument("--jsonl", default=None)
    args = ap.parse_args()
    sides = {}
    for name, path in (("before", args.before), ("after", args.after)):
        sides[name] = subprocess.Popen([sys.executable, "-c", WORKER], cwd=path, text=True,
                                       stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    rows = {name: [] for name in sides}
    out = open(args.jsonl, "w") if args.jsonl else None
    seeds = args.seeds or list(range(args.first, args.first + args.deals))
    for seed in seeds:
        for name, proc in sides.items():
            proc.stdin.write(f"{args.ranks} {seed} {args.seconds} {args.states}\n")
            proc.stdin.flush()
            rec = json.loads(proc.stdout.readline())
            rows[name].append(rec)
            if out:
                out.write(json.dumps(dict(rec, side=name, seed=seed)) + "\n")
                out.flush()
        b, a = rows["before"][-1]["status"], rows["after"][-1]["status"]
        if "unknown" not in (a, b) and a != b:
            raise SystemExit(f"seed {seed}: the answers differ ({b} before, {a} after)")
    named = (" ".join(map(str, seeds)) if args.seeds
             else f"{args.first}..{args.first + args.deals - 1}")
    print(f"ranks={args.ranks}, seeds {named}, "
          f"{args.seconds:g} s and {args.states:,} positions a deal (0: no limit)")
    print("| side | won | blocked | unknown | median ms | max ms | median CPU ms | total CPU s "
          "| median positions | p99 positions | max positions |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for name, recs in rows.items():
        n = {s: sum(1 for r in recs if r["status"] == s) for s in ("won", "blocked", "unknown")}
        ms = [r["ms"] for r in recs]
        cpu = [r["cpu_ms"] for r in recs]
        st = [r["states"] for r in recs]
        print(f"| {name} | {n['won']} | {n['blocked']} | {n['unknown']} "
              f"| {statistics.median(ms):,.0f} | {max(ms):,.0f} | {statistics.median(cpu):,.0f} "
              f"| {sum(cpu) / 1000:,.1f} | {statistics.median(st):,.0f} | {p99(st):,} "
              f"| {max(st):,} |")
    for proc in sides.values():
        proc.stdin.close()
        proc.wait()


if __name__ == "__main__":
    main()
