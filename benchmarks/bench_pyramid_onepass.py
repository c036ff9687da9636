"""Pyramid's one-pass decisions, two builds side by side in one run (docs/benchmarks.md).

python benchmarks/bench_pyramid_onepass.py --other DIR [--seeds N] [--chunk C]

DIR is another checkout with its core built in place (e.g. `git worktree add /tmp/old main`, then
`python setup.py build_ext --inplace` there). Each variant below is surveyed on seeds 0..N-1
(`ss.survey`, workers=1) by both builds, chunk by chunk in alternation, each chunk in a fresh
process, so that both see the same load; CPU time is the worker's `time.process_time`. The
verdicts of the two builds must be equal deal by deal (the seeds won are compared).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

VARIANTS = [
    {"passes": 1, "goal": "pyramid"},
    {"passes": 1},
    {"passes": 1, "goal": "pyramid", "overlap_pairs": True},
    {},
]


def worker(start: int, stop: int, variant: dict) -> None:
    """Survey seeds start..stop-1 with the solitaire_solver found first on the path."""
    import solitaire_solver as ss

    won: list = []
    t0 = time.process_time()
    r = ss.survey("pyramid", seeds=range(start, stop), workers=1, won_only=won, **variant)
    cpu = time.process_time() - t0
    print(json.dumps({"cpu": cpu, "won": sorted(won), "unknown": r.unknown,
                      "path": os.path.dirname(ss.__file__)}))


def run(root: str, start: int, stop: int, variant: dict) -> dict:
    env = dict(os.environ, PYTHONPATH=root)
    out = subprocess.run([sys.executable, os.path.abspath(__file__), "--worker", str(start),
                          str(stop), json.dumps(variant)], env=env, capture_output=True,
                         text=True, check=True, cwd=root)
    got = json.loads(out.stdout)
    if not got["path"].startswith(os.path.abspath(root)):
        raise SystemExit(f"the worker imported {got['path']}, not the build in {root}")
    return got


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--other", help="another checkout, its core built in place (required)")
    ap.add_argument("--seeds", type=int, default=3000)
    ap.add_argument("--chunk", type=int, default=500)
    ap.add_argument("--worker", nargs=3, help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a.worker:
        worker(int(a.worker[0]), int(a.worker[1]), json.loads(a.worker[2]))
        return
    if not a.other:
        ap.error("--other DIR is required")
    builds = {"other": os.path.abspath(a.other), "this": HERE}
    print(f"seeds 0..{a.seeds - 1}, chunks of {a.chunk}, other = {builds['other']}")
    print("| variant | other CPU s | this CPU s | ratio | won | verdicts equal |")
    print("|---|---|---|---|---|---|")
    for variant in VARIANTS:
        cpu = {"other": 0.0, "this": 0.0}
        won = {"other": [], "this": []}
        unknown = 0
        for start in range(0, a.seeds, a.chunk):
            stop = min(a.seeds, start + a.chunk)
            for name, root in builds.items():
                got = run(root, start, stop, variant)
                cpu[name] += got["cpu"]
                won[name] += got["won"]
                unknown += got["unknown"]
        same = won["other"] == won["this"] and unknown == 0
        name = ", ".join(f"{k}={v}" for k, v in variant.items()) or "defaults (3 passes)"
        print(f"| {name} | {cpu['other']:.1f} | {cpu['this']:.1f} | "
              f"{cpu['other'] / cpu['this']:.2f} | {len(won['this'])} | {same} |", flush=True)
        if not same:
            raise SystemExit("the builds disagree")


if __name__ == "__main__":
    main()
