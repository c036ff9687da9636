"""Win rates over PySolFC game numbers under each game's PySolFC rules, beside the classic rules
over seeded deals (docs/winnability.md, "PySolFC game numbers").

    nice python benchmarks/pysolfc_rates.py GAME COUNT [--seeds] [--workers 2]
        [--max-states N] [--max-seconds S] [--out FILE]

GAME is a registered name or preset (pyramid-pysolfc, nestor-pysolfc, simple-pairs, ...); the
numbers surveyed are 1..COUNT (--seeds: the seeded deals 0..COUNT-1 instead). One JSON line of
the survey's summary is printed: game, variant, deals, won, blocked, unknown, the 95% Wilson
interval, the path (batch or generic) and the wall time. --max-states and --max-seconds limit
each deal (a deal reaching one counts unknown); --out keeps one JSON line a deal and resumes.
"""

from __future__ import annotations

import argparse
import json

import solitaire_solver as ss


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("game")
    p.add_argument("count", type=int)
    p.add_argument("--seeds", action="store_true")
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--max-seconds", type=float)
    p.add_argument("--max-states", type=int)
    p.add_argument("--out")
    a = p.parse_args()
    which = ({"seeds": range(a.count)} if a.seeds else {"pysolfc": range(1, a.count + 1)})
    r = ss.survey(a.game, **which, workers=a.workers, max_seconds=a.max_seconds,
                  max_states=a.max_states, out=a.out)
    lo, hi = r.interval
    print(json.dumps({"game": a.game, "what": "seeds" if a.seeds else "pysolfc",
                      "variant": r.variant, "deals": r.deals, "won": r.won,
                      "blocked": r.blocked, "unknown": r.unknown, "rate": r.win_rate,
                      "interval": [lo, hi], "path": r.path, "seconds": round(r.seconds, 1),
                      "max_seconds": a.max_seconds, "max_states": a.max_states}), flush=True)


if __name__ == "__main__":
    main()
