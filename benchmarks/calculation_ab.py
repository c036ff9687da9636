"""Calculation's search, two builds on the same seeds in one run: one long-lived worker per source
tree, each deal solved by both (the first alternates), each under the same limit of positions,
so that the verdicts do not hang on the machine's load; each worker times its own call in CPU
seconds.

    nice -n 10 python benchmarks/calculation_ab.py OLD_TREE NEW_TREE SEEDS MAX_STATES OUT.jsonl [GAME]

SEEDS: FIRST..LAST, or a file of seeds (as calculation_beams.py takes them); with GAME
calculation-pysolfc they are PySolFC's game numbers (default: calculation, seeds). Each tree must be
built in place. OUT gets one line a seed (resumed runs append: the seeds it holds are skipped),
each side's [status, positions, CPU seconds, the first try's last step]; then the summary is
printed: verdicts per build, median and total CPU, and every seed whose verdicts differ (won
against blocked would be a wrong answer).
"""

from __future__ import annotations

import collections
import json
import os
import subprocess
import sys

from calculation_beams import seeds_of

WORKER = r"""
import json, sys, time
import solitaire_solver as ss
from solitaire_solver.pysolfc import pysolfc_deal
for line in sys.stdin:
    seed, most, game = json.loads(line)
    deal = pysolfc_deal(game, seed) if game.endswith("-pysolfc") else ss.Deal.from_seed(seed)
    t = time.process_time()
    r = ss.solve(game, deal, max_states=most)
    print(json.dumps([r.status.value, int(r.stats.get("states", 0)), time.process_time() - t,
                      r.stats.get("first_try", "")]), flush=True)
"""


def start(tree: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-c", WORKER], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, text=True, cwd=tree,
                            env=dict(os.environ, PYTHONPATH=tree))


def summary(path: str) -> None:
    with open(path, encoding="utf-8") as f:
        rows = [json.loads(line) for line in f if line.strip()]
    for side in ("old", "new"):
        cpu = sorted(r[side][2] for r in rows)
        counts = dict(collections.Counter(r[side][0] for r in rows))
        print(f"{side}: {len(rows)} deals {counts}, CPU median {cpu[len(cpu) // 2]:.3f} s, "
              f"total {sum(cpu):.1f} s")
    differ = [(r["seed"], r["old"][0], r["new"][0]) for r in rows if r["old"][0] != r["new"][0]]
    print("verdicts differ:", differ or "none")


def main() -> None:
    old_tree, new_tree, seeds_arg, most, out = sys.argv[1:6]
    game = sys.argv[6] if len(sys.argv) > 6 else "calculation"
    done = set()
    if os.path.exists(out):
        with open(out, encoding="utf-8") as f:
            done = {json.loads(line)["seed"] for line in f if line.strip()}
    workers = {"old": start(old_tree), "new": start(new_tree)}
    with open(out, "a", encoding="utf-8") as f:
        for seed in seeds_of(seeds_arg):
            if seed in done:
                continue
            got = {}
            for side in (("old", "new") if seed % 2 == 0 else ("new", "old")):
                p = workers[side]
                p.stdin.write(json.dumps([seed, int(most), game]) + "\n")
                p.stdin.flush()
                got[side] = json.loads(p.stdout.readline())
            f.write(json.dumps({"seed": seed, "old": got["old"], "new": got["new"]}) + "\n")
            f.flush()
    summary(out)


if __name__ == "__main__":
    main()
