"""Calculation deals built to be hard, for the search for a blocked deal (docs/calculation.md,
"Proofs of a block"): the pack starts A 2 3 4 of clubs (the foundations' first cards), then the
other low cards and the Kings in a random order, then all sixteen Nines, Tens, Jacks and Queens
in a random order, so that every foundation waits for the last sixteen cards in an order of its
own while the low cards it needs between them wait in the piles.

    python benchmarks/calculation_adversary.py SEED COUNT MAX_STATES [OUT]
    python benchmarks/calculation_adversary.py --from FILE MAX_STATES [OUT]

Solves COUNT such deals (drawn with random.Random(SEED)), or the packs of FILE, under MAX_STATES
positions each and prints each verdict; OUT, if given, collects the undecided deals, one pack a
line (so that a larger limit can take them up again with --from).
"""

from __future__ import annotations

import random
import sys
import time

import solitaire_solver as ss

HIGH = (9, 10, 11, 12)


def adversary_pack(rng: random.Random) -> list[int]:
    """One deal of the family: card index = suit * 13 + value - 1 (docs/notation.md)."""
    bases = [0, 1, 2, 3]  # AC 2C 3C 4C
    rest = [c for c in range(52) if c not in bases]
    high = [c for c in rest if c % 13 + 1 in HIGH]
    low = [c for c in rest if c % 13 + 1 not in HIGH]
    rng.shuffle(low)
    rng.shuffle(high)
    return bases + low + high


def main(argv: list[str]) -> int:
    if argv[0] == "--from":
        with open(argv[1]) as f:
            deals = [ss.Deal(line) for line in f if line.strip()]
    else:
        rng = random.Random(int(argv[0]))
        deals = [ss.Deal(adversary_pack(rng)) for _ in range(int(argv[1]))]
    cap = int(argv[2])  # SEED COUNT MAX or --from FILE MAX: the limit is third either way
    out = open(argv[3], "a") if len(argv) > 3 else None
    tally: dict[str, int] = {}
    for i, deal in enumerate(deals):
        t0 = time.process_time()
        r = ss.solve("calculation", deal, max_states=cap)
        name = r.status.name.lower()
        tally[name] = tally.get(name, 0) + 1
        print(i, name, r.stats.get("states"), f"{time.process_time() - t0:.1f} s", flush=True)
        if out and name == "unknown":
            out.write(f"{deal}\n")
    print(tally)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
