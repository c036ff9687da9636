"""The peer harness (compare.py of the peers folder) with two builds of solitaire_solver side by
side in one run: per deck the peer once, then each build's shortest call followed by its decide
call, the builds taking turns to go first. So both builds meet the same machine, and each decide
call starts with cold caches after a shortest search, as in the harness.

    python benchmarks/compare_ab.py PEERS_DIR OLD_TREE NEW_TREE [--start 1] [--count 1500]

PEERS_DIR holds compare.py, server.lisp and pyramid-solver/ (the harness's folder); each TREE is a
source tree built in place (`python setup.py build_ext --inplace`), imported by its worker through
PYTHONPATH. Prints the harness's table for the peer and both builds, the ratios peer / ours, and
every deck whose answer differs from the shortest lengths.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import statistics
import sys


def load_harness(folder: str):
    spec = importlib.util.spec_from_file_location("peer_compare", os.path.join(folder, "compare.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("peers")
    ap.add_argument("old")
    ap.add_argument("new")
    ap.add_argument("--start", type=int, default=1)
    ap.add_argument("--count", type=int, default=1500)
    ap.add_argument("--memory-mb", type=float, default=256)
    a = ap.parse_args()
    h = load_harness(os.path.abspath(a.peers))
    decks = open(os.path.join(h.DATA, "decks.txt")).read().splitlines()
    lengths = [int(x) for x in open(os.path.join(h.DATA, "shortest-lengths.txt")).read().split()]
    peer = h.Server(["sbcl", "--dynamic-space-size", "8192", "--noinform", "--non-interactive",
                     "--load", os.path.join(h.HERE, "server.lisp")],
                    dict(os.environ, PYRAMID_SOLVER_DIR=os.path.join(h.HERE, "pyramid-solver")))
    builds = {}
    for name, tree in (("old", a.old), ("new", a.new)):
        env = dict(os.environ, PYTHONPATH=os.path.abspath(tree))
        builds[name] = {obj: h.Server([sys.executable, "-c", h.WORKER, obj, str(a.memory_mb)], env)
                        for obj in ("shortest", "decide")}
    t: dict[str, list[float]] = {"peer": [], **{f"{b} {o}": [] for b in builds
                                                for o in ("shortest", "decide")}}
    wrong = []
    for i in range(a.start, a.start + a.count):
        deck, want = decks[i - 1], lengths[i - 1]
        n, ms = peer.ask(deck)
        t["peer"].append(float(ms))
        if int(n) != want:
            wrong.append(f"deck {i}: peer {n}, want {want}")
        order = ("old", "new") if i % 2 else ("new", "old")
        for b in order:
            st, n, ms = builds[b]["shortest"].ask(deck)
            t[f"{b} shortest"].append(float(ms))
            if (int(n) if st == "WON" else 0) != want:
                wrong.append(f"deck {i}: {b} shortest {st} {n}, want {want}")
            st, n, ms = builds[b]["decide"].ask(deck)
            t[f"{b} decide"].append(float(ms))
            if (st == "WON") != (want > 0):
                wrong.append(f"deck {i}: {b} decide {st}, want {'WON' if want else 'BLOCKED'}")
    print(f"decks {a.start}..{a.start + a.count - 1}, one run; old {a.old}, new {a.new}\n")
    print("| side | median ms | mean ms | p99 ms | max ms | total s | peak MiB |\n"
          "|---|---|---|---|---|---|---|")
    print(h.row("mchung94/pyramid-solver (A*, optimal)", t["peer"], peer.peak_mib()))
    for b, servers in builds.items():
        for o, s in servers.items():
            print(h.row(f"solitaire_solver {o} ({b})", t[f"{b} {o}"], s.peak_mib()))
    for side in t:
        if side != "peer":
            ratio = statistics.median(t["peer"]) / statistics.median(t[side])
            print(f"\npeer / {side}: median {ratio:.1f}x, "
                  f"total {sum(t['peer']) / sum(t[side]):.1f}x; median {statistics.median(t[side]):.4f} ms")
    print(f"\n{len(wrong)} answers differ from the shortest lengths" + "".join("\n  " + w for w in wrong))


if __name__ == "__main__":
    main()
