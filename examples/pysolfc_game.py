"""The game open in PySolFC, by its game number: check the layout, then learn whether it can be
won, what to play next, and, given the moves made so far, where the game was lost.

    python examples/pysolfc_game.py pyramid 123456
    python examples/pysolfc_game.py elevens 42 "AS+TS" "KS>R"

The answer is under the rules PySolFC plays (docs/pysolfc.md), so it holds for the game on its
screen. Moves are written as in docs/notation.md.
"""

import sys

import solitaire_solver as ss
from solitaire_solver.pysolfc import layout_text, pysolfc_layout, pysolfc_preset

game = sys.argv[1] if len(sys.argv) > 1 else "pyramid"
number = sys.argv[2] if len(sys.argv) > 2 else "1"
played = sys.argv[3:]

try:
    print(layout_text(pysolfc_layout(game, number)))
    rules = pysolfc_preset(game) or game
    deal = ss.pysolfc_deal(game, number)
    if played:
        # Where did it go wrong? The first move after which no line wins any more.
        print(ss.analyze(rules, deal, played, max_seconds=60))
    print(ss.hint(rules, deal, after=played or None, max_seconds=60))
except ss.SolitaireError as e:
    # A game PySolFC lacks, a number it does not deal, an illegal move: one line, exit status 1.
    sys.exit(f"pysolfc_game: {e}")
