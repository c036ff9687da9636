"""Keep only winnable deals: the seeds in a range whose deal can be won, with the solution.

A card app can store these and deal only games a player can finish.

    python examples/winnable_seeds.py elevens 0 1000 > winnable.jsonl
"""

import json
import sys

import solitaire_solver as ss

game = sys.argv[1] if len(sys.argv) > 1 else "elevens"
start = int(sys.argv[2]) if len(sys.argv) > 2 else 0
stop = int(sys.argv[3]) if len(sys.argv) > 3 else 1000

kept = unknown = 0
for seed in range(start, stop):
    deal = ss.random_deal(seed)
    result = ss.solve(game, deal, max_seconds=10)
    if result.won:
        kept += 1
        print(json.dumps({"seed": seed, "deal": str(deal), "moves": [str(m) for m in result.moves]}))
    elif result.status is ss.Status.UNKNOWN:
        unknown += 1  # not proved either way in 10 s: left out, but not called unwinnable
total = stop - start
print(f"{kept} of {total} deal{' is' if total == 1 else 's are'} winnable"
      + (f" ({unknown} undecided in 10 s a deal)" if unknown else ""), file=sys.stderr)
