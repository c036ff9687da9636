"""Pyramid's score objective (issue 18) over the test-vector decks: time, positions, and how far
the best score lies under the search's bound at the start.

    python benchmarks/bench_pyramid_score.py [--start 1] [--count 300] [--max-seconds 60]

Per deck (pyramid-msc, one process, one deck at a time): `ss.solve(..., objective="score")`
timed around the call (wall ms), its positions, the best score, and the bound of that score at the
start: 50 (the pyramid cleared in pass 1 with nothing left), or -1 when the core's DEAD rule shows
at the start that the pyramid can never be cleared (docs/pyramid.md, score). Every line is
replayed and its score recomputed under the reference rules (the game's `score`; `ss.verify`
would also re-prove in Python that no line scores more, which takes far longer than the core's
search). Prints one Markdown table for docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import solitaire_solver as ss  # noqa: E402
from solitaire_solver.deal import Deal  # noqa: E402
from solitaire_solver.games import get_game  # noqa: E402
from solitaire_solver.games.pyramid import _core as _pyramid

GAME, PRESET = get_game("pyramid-msc")
VARIANT = GAME.variant(**PRESET)
DECKS = Path(__file__).resolve().parents[1] / "tests" / "data" / "pyramid-msc-1500" / "decks.txt"


def start_bound(deal: Deal) -> int:
    """The score search's bound at the start (pyr_bound in _pyramid_score.pxi)."""
    return -1 if _pyramid.dead(deal.cards, 0, 3, False, 0) else 50


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--start", type=int, default=1, help="first deck (1-based)")
    ap.add_argument("--count", type=int, default=300)
    ap.add_argument("--max-seconds", type=float, default=60.0, help="per deck")
    a = ap.parse_args()
    lines = [ln for ln in DECKS.read_text().splitlines() if ln.strip()]
    rows = []
    for i in range(a.start, min(a.start + a.count, len(lines) + 1)):
        deal = Deal(lines[i - 1])
        t = time.perf_counter()
        r = ss.solve("pyramid-msc", deal, objective="score", max_seconds=a.max_seconds)
        ms = (time.perf_counter() - t) * 1e3
        ok = r.status is not ss.Status.WON or GAME.score(deal, VARIANT, list(r.moves)) == r.score
        rows.append((i, r.status.name, ms, r.stats.get("states", 0), r.score, start_bound(deal),
                     ok))
        print(f"deck {i}: {r.status.name} score {r.score} bound {rows[-1][5]} {ms:.1f} ms "
              f"{rows[-1][3]} positions{'' if ok else ' DOES NOT CHECK'}", file=sys.stderr,
              flush=True)
    done = [r for r in rows if r[1] == "WON"]
    ms = sorted(r[2] for r in rows)
    gaps = sorted(r[5] - r[4] for r in done)
    print(f"decks {a.start}..{rows[-1][0]} of tests/data/pyramid-msc-1500, max_seconds="
          f"{a.max_seconds:g} per deck")
    print()
    print("| decks | proven | unknown | median ms | mean ms | max ms (deck) | median positions "
          "| max positions | best score median | at the bound | bound - best: median, max | "
          "lines that do not check |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    worst = max(rows, key=lambda r: r[2])
    print(f"| {len(rows)} | {len(done)} | {len(rows) - len(done)} | "
          f"{statistics.median(ms):.1f} | {statistics.fmean(ms):.1f} | "
          f"{worst[2]:,.0f} ({worst[0]}) | {statistics.median(r[3] for r in rows):,.0f} | "
          f"{max(r[3] for r in rows):,} | {statistics.median(r[4] for r in done):g} | "
          f"{sum(g == 0 for g in gaps)} | {statistics.median(gaps):g}, {gaps[-1]} | "
          f"{sum(not r[6] for r in rows)} |")


if __name__ == "__main__":
    main()
