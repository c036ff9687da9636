"""Random lines of legal play under the reference rules, shared by the tests: mid-game positions
to compare the core with the reference from, lines to replay, draw and analyse."""

from __future__ import annotations

import random
from typing import Any, Callable, Optional

from solitaire_solver.games.fifteens_pysolfc.rules import can_clear
from solitaire_solver.games.rules import Rules
from solitaire_solver.moves import Move

#: Narrows the moves random play picks from in a position (an empty answer keeps them all).
Prefer = Callable[[Any, list], list]


def random_line(rules: Rules, pos: Any, rng: random.Random, plies: int,
                prefer: Optional[Prefer] = None) -> list[tuple[Move, Any]]:
    """Up to `plies` random legal moves from pos, each with the position after it; play stops
    where no move is left or the deal is won."""
    out = []
    for _ in range(plies):
        moves = [] if rules.won(pos) else rules.moves(pos)
        if not moves:
            break
        m = rng.choice((prefer(pos, moves) if prefer else None) or moves)
        pos = rules.apply(pos, m)
        out.append((m, pos))
    return out


def random_moves(rules: Rules, pos: Any, rng: random.Random, plies: int,
                 prefer: Optional[Prefer] = None) -> tuple[list[Move], Any]:
    """random_line's moves and the position they reach."""
    line = random_line(rules, pos, rng, plies, prefer)
    return [m for m, _ in line], (line[-1][1] if line else pos)


#: Move words that random play takes only when nothing else is legal: a Baroness deal played at
#: random buries the cards in play, and random positions would (almost) never be winnable.
LAST_RESORT = {"baroness": "deal"}


def removing_first(rules: Rules) -> Prefer:
    """PySolFC's Fifteens: a move that removes cards whenever there is one (a random push mostly
    leaves the reserve a set that can never clear), failing that one after which the reserve
    may still clear."""
    def prefer(pos: Any, moves: list) -> list:
        return ([m for m in moves if rules.apply(pos, m).removed != pos.removed]
                or [m for m in moves if can_clear(rules.apply(pos, m).reserve)])
    return prefer


def keeps_winnable(rules: Rules) -> Optional[Prefer]:
    """The preference that keeps random play of this game from throwing it away at once, or None
    (LAST_RESORT's moves last; removing_first for PySolFC's Fifteens)."""
    if rules.game == "fifteens-pysolfc":
        return removing_first(rules)
    if rules.game == "calculation":
        # A card onto a foundation whenever one fits (random play otherwise buries them all).
        return lambda pos, moves: [m for m in moves if m.place == "F"]
    word = LAST_RESORT.get(rules.game)
    if word is not None:
        return lambda pos, moves: [m for m in moves if m.word != word]
    return None
