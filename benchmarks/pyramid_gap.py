"""Where the shortest objective's lower bound falls short of the shortest line, Pyramid.

    python benchmarks/pyramid_gap.py [--decks 400] [--middle 80]

For the won decks among the first N of tests/data/pyramid-msc-1500 (the `pyramid-msc` preset:
goal pyramid, three passes), the shortest line is found, then replayed under the reference rules.
At the start and at each quarter of the line, the moves still to make are split by kind (the
removals taking pyramid cards, the other removals, draws, recycles) and set beside the bound's
two parts (docs/pyramid.md, Shortest): k + n - M, which the removals taking pyramid cards can
never undercut, and the stock wait W, which with it bounds the whole. Averages over the
`--middle` decks around the median of the positions A* stored, the decks that set the median of
the side-by-side runs in docs/benchmarks.md. No timing: the figures are counts, the same on any
machine.
"""

from __future__ import annotations

import argparse
import os
import statistics

import solitaire_solver as ss
from solitaire_solver.games import get_game
from solitaire_solver.games.pyramid import _core as core

DECKS = os.path.join(os.path.dirname(__file__), "..", "tests", "data", "pyramid-msc-1500",
                     "decks.txt")
KINDS = ("pyramid removals", "other removals", "draws", "recycles")


def kind(move, pyramid: set[int]) -> str:
    if move.word == "draw":
        return "draws"
    if move.word == "recycle":
        return "recycles"
    return "pyramid removals" if set(move.cards) & pyramid else "other removals"


def points(text: str, g, variant) -> tuple[int, list[dict]] | None:
    """The positions stored and, at the start and each quarter of the shortest line, the moves
    left by kind with the bound's parts; None for a deck with no win."""
    deal = g.read(text, variant)
    r = ss.solve("pyramid-msc", deal, objective="shortest")
    if r.status is not ss.Status.WON:
        return None
    rules = g.rules(variant)
    pyramid = set(deal.cards[:28])
    pos = rules.start(deal)
    kinds = [kind(m, pyramid) for m in r.moves]
    at = sorted({q * len(r.moves) // 4 for q in range(4)})
    out = []
    for i, m in enumerate(r.moves):
        if i in at:
            removed, aux = g.core_position(pos, variant)
            kn, wait = core.lower_bound_parts(deal.cards, removed, aux)
            left = {k: kinds[i:].count(k) for k in KINDS}
            out.append({"left": len(r.moves) - i, "k+n-M": kn, "W": wait, **left})
        pos = rules.apply(pos, m)
    assert rules.won(pos)
    return r.stats["states"], out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--decks", type=int, default=400)
    ap.add_argument("--middle", type=int, default=80)
    a = ap.parse_args()
    g, preset = get_game("pyramid-msc")
    variant = g.variant(**preset)
    with open(DECKS, encoding="utf-8") as f:
        texts = f.read().splitlines()[: a.decks]
    won = sorted((p for p in (points(t, g, variant) for t in texts) if p is not None),
                 key=lambda p: p[0])
    lo = max(0, len(won) // 2 - a.middle // 2)
    middle = [pts for _, pts in won[lo: lo + a.middle]]
    print(f"{len(middle)} won decks around the median of positions stored "
          f"({len(won)} won among decks 1..{a.decks}); means of the moves left")
    cols = ["left", "k+n-M", "W", *KINDS, "gap"]
    print("| point of the line | " + " | ".join(cols) + " |")
    print("|---|" + "---:|" * len(cols))
    for q, name in enumerate(("start", "a quarter in", "half way", "three quarters in")):
        rows = [p[q] for p in middle if len(p) > q]
        mean = {c: statistics.fmean(r[c] for r in rows) for c in cols if c != "gap"}
        mean["gap"] = mean["left"] - mean["k+n-M"] - mean["W"]
        print(f"| {name} | " + " | ".join(f"{mean[c]:.1f}" for c in cols) + " |")


if __name__ == "__main__":
    main()
