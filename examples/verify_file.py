"""Check a solution file with the reference rules alone (no search involved).

The file holds the deal on its first line and the moves after it, e.g. as written by
`solitaire-solver solve elevens --seed 3 --json`, or one JSON object per line as written by
examples/winnable_seeds.py.

    python examples/verify_file.py elevens solution.txt
"""

import json
import sys

import solitaire_solver as ss

game, path = sys.argv[1], sys.argv[2]
with open(path, encoding="utf-8") as f:
    text = f.read()

if text.lstrip().startswith("{"):
    bad = 0
    for n, line in enumerate(text.splitlines(), start=1):
        entry = json.loads(line)
        verdict = ss.verify(game, entry["deal"], entry["moves"])
        if not verdict:
            bad += 1
            print(f"line {n}: {verdict.reason}")
    print(f"{bad} bad solutions" if bad else "every solution checks")
    sys.exit(1 if bad else 0)

deal_line, _, moves = text.partition("\n")
verdict = ss.verify(game, deal_line, moves)
print(("valid: " if verdict else "INVALID: ") + verdict.reason)
sys.exit(0 if verdict else 1)
