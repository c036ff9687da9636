"""Check a solution file with the reference rules alone (no search involved).

The file holds the deal on its first line (its 52 cards in dealing order) and the moves after
it, or one JSON object per line with the fields "deal" and "moves", as examples/winnable_seeds.py
writes them. (`solitaire-solver solve --json` prints the moves but not the deal: add a "deal"
field to use its output here.)

    python examples/verify_file.py elevens solution.txt
"""

import json
import sys

import solitaire_solver as ss

game, path = sys.argv[1], sys.argv[2]
with open(path, encoding="utf-8") as f:
    text = f.read()

# Exit codes as the CLI's: 0 valid, 1 invalid, 2 not checked (ok is None: a check that needs a
# search stopped at its bound; a line of moves always checks one way or the other).
if text.lstrip().startswith("{"):
    bad = unchecked = 0
    for n, line in enumerate(text.splitlines(), start=1):
        entry = json.loads(line)
        if not isinstance(entry, dict) or "deal" not in entry or "moves" not in entry:
            sys.exit(f"line {n}: a JSON line needs the fields \"deal\" and \"moves\"")
        verdict = ss.verify(game, entry["deal"], entry["moves"])
        if verdict.ok is not True:
            bad += verdict.ok is False
            unchecked += verdict.ok is None
            print(f"line {n}: {verdict.reason}")
    print(f"{bad} bad solutions, {unchecked} not checked" if bad or unchecked
          else "every solution checks")
    sys.exit(1 if bad else 2 if unchecked else 0)

deal_line, _, moves = text.partition("\n")
verdict = ss.verify(game, deal_line, moves)
word = {True: "valid", False: "INVALID", None: "not checked"}[verdict.ok]
print(f"{word}: {verdict.reason}")
sys.exit({True: 0, False: 1, None: 2}[verdict.ok])
