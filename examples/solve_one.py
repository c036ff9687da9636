"""Solve one deal and print the winning line or the reason it cannot be won.

    python examples/solve_one.py elevens 12345
"""

import sys

import solitaire_solver as ss

game = sys.argv[1] if len(sys.argv) > 1 else "elevens"
seed = int(sys.argv[2]) if len(sys.argv) > 2 else 3

deal = ss.random_deal(seed)
result = ss.solve(game, deal, max_seconds=60)
print(f"{game}, seed {seed}: {result.status.value}")
if result.won:
    print(" ".join(str(m) for m in result.moves))
elif result.blocked:
    print(result.proof.sentence)
    if result.proof.position:
        print(result.proof.position)
else:
    print(result.reason)
