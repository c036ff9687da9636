"""Where a Pyramid decide call goes when it starts with cold caches, layer by layer, and for one
or more builds side by side.

    python benchmarks/cold_layers.py [--decks 400] [--flush 64] TREE:KIND [TREE:KIND ...]

Each TREE:KIND is a long-lived worker importing solitaire_solver from TREE (built in place) and
timing one kind of call per deck of tests/data/pyramid-msc-1500 (decks 1..N, decide, default
settings):

- solve: `ss.solve("pyramid-msc", text)`;
- compare: `r = ss.solve("pyramid-msc", text, objective="decide", memory_mb=256.0)`, as
  ../shared/peers/compare.py calls it: r's status and moves are read after the clock, and r is
  kept until the next call, so that its release falls in the next call's time, as there;
- quick: the prepared plain call without the package's solve entry: `Solver("pyramid-msc")`'s
  solve(text), made once (in a tree from before the package's folders, `_quick.decide`, builds
  from 0b50bec on);
- read: solve, then `r.moves` and `r.proof` read, which the call makes when first read (a won
  line's moves, a structural proof the core's run shows): solve's cost for a caller who wants
  the line or the proof object;
- bypass: only the steps an answer needs (the C reader, the core's solve on a spec dict, the
  moves and a Result): how far trimming the Python layers could go;
- bare: the C reader, a spec dict and the core's solve, nothing else;
- core: the core's solve on a spec made before the clock starts;
- floor: a Python function with solve's signature that makes solve's first test (which
  arguments take the quick path) and returns: the floor of any Python-level solve call;
- len: `len(text)`, the floor of any call.

Before each call another process (calls_ab.py's flusher) reads and copies a buffer of --flush
MiB twice, so that every call starts with cold caches, as a decide call in compare.py does after
the peer's and our A* search's calls. The workers take each deck in turn. Prints each worker's
median and mean (ms), its medians by the deck's answer (found once, in this process, before
the timed calls): won; blocked with a structural proof (the core's short search at the start is
answered by the proof, whose stats say 0 positions); blocked by a search; and the share of
each answer's calls under --under ms.

The flusher evicts the shared last-level cache; a worker's own L1 and L2 keep what its previous
call left unless the flusher ran on the same core.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys

from calls_ab import flush, flusher

import solitaire_solver as ss

DECKS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "data",
                     "pyramid-msc-1500", "decks.txt")

WORKER = r"""
import sys, time
sys.path.insert(0, sys.argv[1])
import solitaire_solver as ss
try:
    from solitaire_solver.engine._seeded import parse_plain
    from solitaire_solver.games.pyramid import _core as core
    from solitaire_solver.engine.contract import DEFAULT_LIMITS as LIMITS, DEFAULT_MEMORY_MB
except ImportError:  # a tree from before the package's folders (0e31e4d and older)
    from solitaire_solver._seeded import parse_plain
    from solitaire_solver import _pyramid as core
    from solitaire_solver.api import _DEFAULT_LIMITS as LIMITS, DEFAULT_MEMORY_MB
from solitaire_solver.moves import from_codes
from solitaire_solver.result import Status, make_result
if hasattr(ss, "Solver"):
    quick = ss.Solver("pyramid-msc").solve
else:
    try:
        from solitaire_solver._quick import decide
        quick = lambda text: decide("pyramid-msc", text)
    except ImportError:
        quick = None
kind, decks = sys.argv[2], open(sys.argv[3]).read().split("\n")
plain = {"passes": 3, "goal_all": False, "stock_waste_pairs": True, "overlap_pairs": False}

def spec(text):
    return dict(plain, cards=parse_plain(text))

def bypass(text):
    run = core.solve(spec(text), "decide", LIMITS, False)
    return make_result("pyramid-msc", Status.WON if run.status == "won" else Status.BLOCKED,
                       moves=tuple(from_codes(run.path)), stats=run.stats)

def floor(game, deal, *, objective="decide", max_states=None, max_seconds=None,
          memory_mb=DEFAULT_MEMORY_MB, certificate=False, check=False, after=None, **variant):
    return (type(deal) is str and type(game) is str and not variant and objective == "decide"
            and certificate is False and check is False and after is None and max_states is None
            and max_seconds is None and memory_mb == DEFAULT_MEMORY_MB)

if kind == "quick" and quick is None:
    raise SystemExit("this tree has no prepared plain call (builds from 0b50bec on)")
for text in decks[1400:1450]:
    ss.solve("pyramid-msc", text)
    ss.solve("pyramid-msc", text, objective="decide", memory_mb=256.0)
    bypass(text)
    floor("pyramid-msc", text)
    if quick is not None:
        quick(text)
print("READY", flush=True)
for line in sys.stdin:
    text = decks[int(line)]
    ready = spec(text)
    t = time.perf_counter()
    if kind == "solve":
        ss.solve("pyramid-msc", text)
    elif kind == "compare":
        r = ss.solve("pyramid-msc", text, objective="decide", memory_mb=256.0)
    elif kind == "quick":
        quick(text)
    elif kind == "bare":
        core.solve(spec(text), "decide", LIMITS, False)
    elif kind == "read":
        r = ss.solve("pyramid-msc", text)
        r.moves, r.proof
    elif kind == "bypass":
        bypass(text)
    elif kind == "floor":
        floor("pyramid-msc", text)
    elif kind == "core":
        core.solve(ready, "decide", LIMITS, False)
    else:
        len(text)
    ms = (time.perf_counter() - t) * 1e3
    if kind == "compare":
        # as compare.py: the answer is read after the clock, and kept until the next call
        # replaces it (inside the clock, as there)
        r.status.name, len(r.moves) if r.moves else 0
    print("%.4f" % ms, flush=True)
"""

KINDS = ("solve", "compare", "quick", "read", "bypass", "bare", "core", "floor", "len")


def start(args: list[str]) -> subprocess.Popen:
    p = subprocess.Popen([sys.executable, "-c", *args], stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE, text=True, bufsize=1, cwd="/")
    if p.stdout.readline().strip() != "READY":
        raise SystemExit(f"a worker ({args[1:3]}) did not start")
    return p


def ask(p: subprocess.Popen, line: str) -> str:
    p.stdin.write(line + "\n")
    p.stdin.flush()
    return p.stdout.readline().strip()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("workers", nargs="+", metavar="TREE:KIND")
    ap.add_argument("--decks", type=int, default=400)
    ap.add_argument("--flush", type=int, default=64, metavar="MIB")
    ap.add_argument("--under", type=float, default=0.1, metavar="MS",
                    help="also print the share of each verdict's calls under MS (issue 18's target)")
    a = ap.parse_args()
    workers = []
    for w in a.workers:
        tree, _, kind = w.rpartition(":")
        if kind not in KINDS:
            raise SystemExit(f"{w}: the kind is one of {', '.join(KINDS)}")
        workers.append((w, start([WORKER, os.path.abspath(tree), kind, DECKS])))
    verdicts = ("won", "structural", "searched")
    texts = open(DECKS).read().split("\n")
    answer = []
    for text in texts[:a.decks]:
        r = ss.solve("pyramid-msc", text)
        answer.append("won" if r.won else "structural" if r.stats["states"] == 0 else "searched")
    cold = flusher(a.flush)
    times: dict[str, list[float]] = {w: [] for w, _ in workers}
    for i in range(a.decks):
        for w, p in workers:
            flush(cold)
            times[w].append(float(ask(p, str(i))))
    print(f"decks 1..{a.decks} of pyramid-msc, decide, {a.flush} MiB touched before each call\n")
    counts = [answer.count(k) for k in verdicts]
    print("| worker | median ms | mean ms | "
          + " | ".join(f"median ms, {k} ({n})" for k, n in zip(verdicts, counts))
          + " | " + " | ".join(f"{k} under {a.under} ms" for k in verdicts)
          + " |\n|---|---:|---:|" + "---:|" * 2 * len(verdicts))
    for w, ms in times.items():
        of = [[m for m, v in zip(ms, answer) if v == k] for k in verdicts]
        by = [f"{statistics.median(x):.4f}" if x else "-" for x in of]
        under = [f"{100 * sum(m < a.under for m in x) / len(x):.0f}%" if x else "-" for x in of]
        print(f"| {w} | {statistics.median(ms):.4f} | {statistics.fmean(ms):.4f} | "
              + " | ".join(by + under) + " |")


if __name__ == "__main__":
    main()
