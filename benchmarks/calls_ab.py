"""`ss.solve` per call, two builds side by side: one long-lived worker per source tree, the same
deals in turn, one deal at a time (so a change of load falls on both alike).

    python benchmarks/calls_ab.py OLD_TREE NEW_TREE GAME [--decks FILE | --seeds N] [option=value ...]

Each tree must be built in place (`python setup.py build_ext --inplace`). Every deal goes to the
old worker, then to the new; each worker times its own `ss.solve` call (wall clock, in ms). Prints
median, mean, p99 and max per side, the ratios old / new, and any deal whose verdicts differ.

--flush MIB: before each call, another process reads and copies a buffer of MIB MiB twice, so
that every call starts with cold caches, as a decide call in ../shared/peers/compare.py does after
the peer's and the A* search's calls (a stand-in for them, without their minutes).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys

import solitaire_solver as ss

WORKER = r"""
import json, sys, time, solitaire_solver as ss
game, variant = sys.argv[1], json.loads(sys.argv[2])
print("READY", flush=True)
for line in sys.stdin:
    t = time.perf_counter()
    r = ss.solve(game, line.strip(), **variant)
    print(r.status.name, "%.4f" % ((time.perf_counter() - t) * 1e3), flush=True)
"""


def start(tree: str, game: str, variant: str) -> subprocess.Popen:
    env = dict(os.environ, PYTHONPATH=tree)
    p = subprocess.Popen([sys.executable, "-c", WORKER, game, variant], stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE, text=True, bufsize=1, env=env, cwd="/")
    if p.stdout.readline().strip() != "READY":
        raise SystemExit(f"the worker for {tree} did not start")
    return p


FLUSHER = r"""
import sys
buf = bytearray(int(sys.argv[1]) << 20)
print("READY", flush=True)
for line in sys.stdin:
    for _ in range(2):
        bytes(buf)
    print("ok", flush=True)
"""


def flusher(mib: int) -> subprocess.Popen:
    p = subprocess.Popen([sys.executable, "-c", FLUSHER, str(mib)], stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE, text=True, bufsize=1, cwd="/")
    if p.stdout.readline().strip() != "READY":
        raise SystemExit("the flushing process did not start")
    return p


def flush(p: subprocess.Popen | None) -> None:
    if p is not None:
        p.stdin.write("\n")
        p.stdin.flush()
        p.stdout.readline()


def ask(p: subprocess.Popen, deal: str) -> tuple[str, float]:
    p.stdin.write(deal + "\n")
    p.stdin.flush()
    status, ms = p.stdout.readline().split()
    return status, float(ms)


def summary(ms: list[float]) -> tuple[float, float, float, float]:
    s = sorted(ms)
    return statistics.median(s), statistics.fmean(s), s[int(0.99 * (len(s) - 1))], s[-1]


def main() -> None:
    import json

    ap = argparse.ArgumentParser()
    ap.add_argument("old")
    ap.add_argument("new")
    ap.add_argument("game")
    ap.add_argument("options", nargs="*", metavar="option=value")
    ap.add_argument("--decks", help="a file of deals, one pack-order text per line")
    ap.add_argument("--seeds", type=int, default=1000)
    ap.add_argument("--flush", type=int, default=0, metavar="MIB",
                    help="touch this many MiB in another process before each call (cold calls)")
    a = ap.parse_args()
    variant = json.dumps(dict(o.split("=", 1) for o in a.options))
    if a.decks:
        with open(a.decks, encoding="utf-8") as f:
            deals = [ln.strip() for ln in f if ln.strip()]
    else:
        deals = [str(ss.random_deal(s)) for s in range(a.seeds)]
    old, new = start(a.old, a.game, variant), start(a.new, a.game, variant)
    cold = flusher(a.flush) if a.flush > 0 else None
    times: dict[str, list[float]] = {"old": [], "new": []}
    differ = []
    for i, deal in enumerate(deals):
        flush(cold)
        s_old, t_old = ask(old, deal)
        flush(cold)
        s_new, t_new = ask(new, deal)
        times["old"].append(t_old)
        times["new"].append(t_new)
        if s_old != s_new:
            differ.append(f"deal {i + 1}: {s_old} vs {s_new}")
    print(f"{a.game} {variant}, {len(deals)} deals, one at a time, old then new"
          + (f", {a.flush} MiB touched before each call" if cold else ""))
    print("| build | median ms | mean ms | p99 ms | max ms |")
    print("|---|---:|---:|---:|---:|")
    for side, tree in (("old", a.old), ("new", a.new)):
        print(f"| {side} ({tree}) | " + " | ".join(f"{x:.3f}" for x in summary(times[side])) + " |")
    o, n = summary(times["old"]), summary(times["new"])
    print(f"old / new: median {o[0] / n[0]:.2f}, mean {o[1] / n[1]:.2f}")
    print("verdicts differ: " + ("; ".join(differ) if differ else "none"))


if __name__ == "__main__":
    main()
