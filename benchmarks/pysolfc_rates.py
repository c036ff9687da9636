"""Win rates over PySolFC game numbers under each game's PySolFC rules, beside the classic rules
over seeded deals (docs/winnability.md, "PySolFC game numbers").

    nice python benchmarks/pysolfc_rates.py GAME COUNT [--seeds] [--start N] [--workers 2]
        [--max-states N] [--max-seconds S] [--out FILE]

GAME is a registered name or preset (pyramid-pysolfc, nestor-pysolfc, simple-pairs, ...); the
numbers surveyed are START..COUNT (--start, default 1; --seeds: the seeded deals START..COUNT-1,
START default 0). A long survey can so go on, in a later run, from where a summary line of an
earlier one says it stopped, without that run's file. One JSON line of the survey's summary
is printed: game, first deal, variant, deals, won, blocked, unknown, the 95% Wilson
interval, the path (batch or generic), the wall time, positions and milliseconds a deal
(median, p99, max) and the peak memory in MiB. --max-states and --max-seconds limit
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
    p.add_argument("--start", type=int)
    a = p.parse_args()
    start = a.start if a.start is not None else 0 if a.seeds else 1
    which = ({"seeds": range(start, a.count)} if a.seeds
             else {"pysolfc": range(start, a.count + 1)})
    r = ss.survey(a.game, **which, workers=a.workers, max_seconds=a.max_seconds,
                  max_states=a.max_states, out=a.out)
    lo, hi = r.interval
    print(json.dumps({"game": a.game, "what": "seeds" if a.seeds else "pysolfc", "start": start,
                      "variant": r.variant, "deals": r.deals, "won": r.won,
                      "blocked": r.blocked, "unknown": r.unknown, "rate": r.win_rate,
                      "interval": [lo, hi], "path": r.path, "seconds": round(r.seconds, 1),
                      "states": [r.states_median, r.states_p99, r.states_max],
                      "ms": [r.ms_median, r.ms_p99, r.ms_max], "peak_mib": r.peak_mib,
                      "max_seconds": a.max_seconds, "max_states": a.max_states}), flush=True)


if __name__ == "__main__":
    main()
