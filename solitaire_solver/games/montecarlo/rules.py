"""Monte Carlo (Weddings) (docs/monte-carlo.md): remove two neighbouring
cards of one rank from a five-by-five layout; `consolidate` closes the gaps and refills from the
stock.

The executable specification: short and slow on purpose. Places are numbered 0..24 row by row;
place p is row p // 5, column p % 5.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Optional

from ...cards import CARD_NAMES, value
from ...deal import Deal
from ...errors import LayoutError
from ...moves import Move
from ..rules import LayoutCards, Rules

SIDE = 5
PLACES = SIDE * SIDE
STOCK = 52 - PLACES
FULL = (1 << 52) - 1
CONSOLIDATE = Move(word="consolidate")

Grid = tuple[Optional[int], ...]


def neighbours(p: int, q: int) -> bool:
    """Places p and q touch across a side or a corner."""
    return p != q and abs(p // SIDE - q // SIDE) <= 1 and abs(p % SIDE - q % SIDE) <= 1


@dataclass(frozen=True)
class MonteCarloPosition:
    grid: Grid                  # the card at each place, None for an empty place
    stock: tuple[int, ...]      # the cards not dealt yet, next first
    removed: int                # bitboard of the removed cards


class MonteCarloRules(Rules):
    """Monte Carlo; `stuck` = True is the variant consolidate=stuck (consolidate only when no
    pair can be removed)."""

    game = "monte-carlo"

    def __init__(self, stuck: bool = False):
        self.stuck = stuck

    def start(self, deal: Deal) -> MonteCarloPosition:
        return MonteCarloPosition(tuple(deal.cards[:PLACES]), tuple(deal.cards[PLACES:]), 0)

    def pairs(self, pos: MonteCarloPosition) -> list[Move]:
        g = pos.grid
        out = [Move.remove([g[p], g[q]]) for p in range(PLACES) for q in range(p + 1, PLACES)
               if g[p] is not None and g[q] is not None and neighbours(p, q)
               and value(g[p]) == value(g[q])]
        return sorted(out, key=lambda m: m.cards)

    def consolidated(self, pos: MonteCarloPosition) -> MonteCarloPosition:
        """The cards moved forward in place order, order kept; the places after them filled
        from the stock while it lasts."""
        cards = [c for c in pos.grid if c is not None]
        take = min(PLACES - len(cards), len(pos.stock))
        cards += pos.stock[:take]
        return MonteCarloPosition(tuple(cards) + (None,) * (PLACES - len(cards)),
                                  pos.stock[take:], pos.removed)

    def moves(self, pos: MonteCarloPosition) -> list[Move]:
        out = self.pairs(pos)
        # There is a gap to close exactly when consolidating changes the layout: a card after
        # an empty place, or an empty place while the stock lasts.
        if self.consolidated(pos) != pos and not (self.stuck and out):
            out.append(CONSOLIDATE)
        return out

    def apply(self, pos: MonteCarloPosition, move: Move) -> MonteCarloPosition:
        if move == CONSOLIDATE:
            return self.consolidated(pos)
        gone = set(move.cards)
        return MonteCarloPosition(tuple(None if c in gone else c for c in pos.grid), pos.stock,
                                  pos.removed | move.mask)

    def won(self, pos: MonteCarloPosition) -> bool:
        return pos.removed == FULL

    def key(self, pos: MonteCarloPosition) -> tuple[int, int, int]:
        # (removed, cards dealt, occupied places). Removals keep the order of the cards in the
        # layout and consolidation keeps it too, appending stock cards in order: the cards in
        # place order are always the cards dealt so far that are not removed, in pack order. So
        # given the deal, the dealt count and which places hold a card fix the whole layout.
        # The removed set and the dealt count alone would not: removing A+B, consolidating,
        # then removing C+D leaves the gaps elsewhere than removing C+D first.
        occupied = sum(1 << p for p, c in enumerate(pos.grid) if c is not None)
        return pos.removed, 52 - len(pos.stock), occupied

    def cards_left(self, pos: MonteCarloPosition) -> int:
        return 52 - bin(pos.removed).count("1")

    def why_illegal(self, pos: MonteCarloPosition, move: Move) -> str:
        pairs = self.pairs(pos)
        if move == CONSOLIDATE:
            if self.consolidated(pos) == pos:
                return "consolidate: there is no gap to close"
            return f"consolidate: a pair can still be removed ({pairs[0]}; consolidate=stuck)"
        if move.word is not None:
            return f"{move} is not a move of Monte Carlo"
        place = {c: p for p, c in enumerate(pos.grid) if c is not None}
        for c in move.cards:
            if pos.removed >> c & 1:
                return f"{move}: {CARD_NAMES[c]} is already removed"
            if c not in place:
                return f"{move}: {CARD_NAMES[c]} is still in the stock"
        if len(move.cards) != 2 or value(move.cards[0]) != value(move.cards[1]):
            return f"{move}: only two cards of the same rank leave together"
        a, b = (place[c] for c in move.cards)
        return (f"{move}: {CARD_NAMES[move.cards[0]]} (row {a // SIDE + 1}, column "
                f"{a % SIDE + 1}) and {CARD_NAMES[move.cards[1]]} (row {b // SIDE + 1}, column "
                f"{b % SIDE + 1}) are not neighbours")

    def render(self, pos: MonteCarloPosition) -> str:
        return layout_text(pos.grid, pos.stock)


def layout_text(grid: Grid, stock: tuple[int, ...]) -> str:
    """Five rows of five places (`..` for an empty place), then `Stock: ...`, next card first."""
    rows = ["  ".join(CARD_NAMES[c] if c is not None else ".." for c in grid[r:r + SIDE])
            for r in range(0, PLACES, SIDE)]
    return "\n".join(rows + [("Stock: " + " ".join(CARD_NAMES[c] for c in stock)).rstrip()])


_SPLIT = re.compile(r"[\s,]+")


def looks_like_layout(text: str) -> bool:
    """A layout text has a `Stock:` line; a pack-order text never does."""
    return any(ln.strip().lower().startswith("stock") for ln in text.splitlines())


def read_layout(text: str) -> Deal:
    """The deal of a starting layout: five rows of five cards, then `Stock: ...` with the other
    27 cards, next first. LayoutError names the line and the card of any problem."""
    lines = [(n, ln.strip()) for n, ln in enumerate(text.splitlines(), start=1) if ln.strip()]
    if not lines or not lines[-1][1].lower().startswith("stock"):
        raise LayoutError("a Monte Carlo layout ends with a line `Stock: ...` (the cards not "
                          "dealt yet)")
    *rows, (n_stock, stock_line) = lines
    if len(rows) != SIDE:
        raise LayoutError(f"a Monte Carlo layout has {SIDE} rows before `Stock:`, "
                          f"this one {len(rows)}")
    layout = LayoutCards()

    def read(n: int, where: str, tokens: list[str]) -> None:
        if ".." in tokens:
            k = tokens.index("..")
            layout.read(n, where, tokens[:k])  # a bad card before it is named first
            raise LayoutError(f"line {n} ({where}), card {k + 1}: a starting layout has no "
                              "empty place")
        layout.read(n, where, tokens)

    for r, (n, ln) in enumerate(rows, start=1):
        if ln.lower().startswith("stock"):
            raise LayoutError(f"line {n}: `Stock:` must be the last line")
        tokens = [t for t in _SPLIT.split(ln) if t]
        if len(tokens) != SIDE:
            raise LayoutError(f"line {n} (row {r}): a row has {SIDE} cards, this one {len(tokens)}")
        read(n, f"row {r}", tokens)
    tokens = [t for t in _SPLIT.split(re.sub(r"^stock\s*:?", "", stock_line, flags=re.IGNORECASE))
              if t]
    if len(tokens) != STOCK:
        raise LayoutError(f"line {n_stock} (stock): the stock holds {STOCK} cards at the start, "
                          f"this one {len(tokens)}")
    read(n_stock, "the stock", tokens)
    return Deal(layout.cards)
