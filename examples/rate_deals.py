"""How hard is a deal: rate it, warn before the moves that lose, and pick deals by tier
(docs/difficulty.md). In Jupyter, a Rating, a Result and a Position show themselves as pictures:
end a cell with `rating`, `ss.solve(...)` or `ss.position(...)`; `--html PATH` writes the
rating's picture to a file here.

    python examples/rate_deals.py fourteen 1
    python examples/rate_deals.py fourteen 1 --html rating.html
"""

import sys

import solitaire_solver as ss

args = [a for a in sys.argv[1:] if not a.startswith("--")]
game = args[0] if args else "fourteen"
seed = int(args[1]) if len(args) > 1 else 1
deal = ss.random_deal(seed)

rating = ss.rate(game, deal)
print(f"{game}, seed {seed}:")
print(rating)

# What an app shows before a move: every legal move at the start, with its verdict.
for verdict in ss.moves(game, deal):
    print(" ", verdict)

# Three more deals of the same tier, from the next seed on (a game with a tier table).
if rating.tier is not None:
    found = ss.deals(game, tier=rating.tier, count=3, start=seed + 1)
    print(f"more {rating.tier} deals: seeds", ", ".join(str(d.number) for d in found))

if "--html" in sys.argv:
    path = sys.argv[sys.argv.index("--html") + 1]
    with open(path, "w", encoding="utf-8") as f:
        f.write(rating._repr_html_())
    print(f"wrote {path}")
