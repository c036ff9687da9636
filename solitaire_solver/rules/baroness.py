"""Baroness (docs/baroness.md): five piles fed by deals of five cards;
remove a King alone or two available cards totalling 13.

The executable specification: short and slow on purpose. Piles are numbered 1..5 in text.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Sequence

from ..cards import CARD_NAMES, value
from ..deal import Deal
from ..errors import LayoutError
from ..moves import Move
from .base import LayoutCards, Rules

PILES = 5
#: Deals of five cards (the first one made at the start); the eleventh lays the last two apart.
FIVE_DEALS = 10
DEALS = FIVE_DEALS + 1
FULL = (1 << 52) - 1
DEAL = Move(word="deal")


@dataclass(frozen=True)
class BaronessPosition:
    piles: tuple[tuple[int, ...], ...]  # the cards left in each pile, bottom first (top last)
    reserve: tuple[int, ...]            # the cards laid apart by the eleventh deal, still there
    stock: tuple[int, ...]              # the cards not dealt yet, next first
    deals: int                          # deals made, 1..11 (the first at the start)
    removed: int                        # bitboard of the removed cards

    @property
    def available(self) -> list[int]:
        """The top card of each pile, then the cards laid apart."""
        return [p[-1] for p in self.piles if p] + list(self.reserve)


class BaronessRules(Rules):
    game = "baroness"

    def start(self, deal: Deal) -> BaronessPosition:
        cards = deal.cards
        return BaronessPosition(tuple((c,) for c in cards[:PILES]), (), tuple(cards[PILES:]), 1, 0)

    def moves(self, pos: BaronessPosition) -> list[Move]:
        avail = pos.available
        out = [Move.remove([c]) for c in avail if value(c) == 13]
        out += [Move.remove([a, b]) for i, a in enumerate(avail) for b in avail[i + 1:]
                if value(a) + value(b) == 13]
        out.sort(key=lambda m: m.cards)
        if pos.stock:
            out.append(DEAL)
        return out

    def apply(self, pos: BaronessPosition, move: Move) -> BaronessPosition:
        if move == DEAL:
            if pos.deals == FIVE_DEALS:
                # The eleventh deal: the last two cards lie apart, both available.
                return BaronessPosition(pos.piles, pos.stock, (), pos.deals + 1, pos.removed)
            # One card on each pile, empty piles too, pile 1 first.
            piles = tuple(p + (c,) for p, c in zip(pos.piles, pos.stock[:PILES]))
            return BaronessPosition(piles, pos.reserve, pos.stock[PILES:], pos.deals + 1,
                                    pos.removed)
        gone = set(move.cards)
        piles = tuple(p[:-1] if p and p[-1] in gone else p for p in pos.piles)
        reserve = tuple(c for c in pos.reserve if c not in gone)
        return BaronessPosition(piles, reserve, pos.stock, pos.deals, pos.removed | move.mask)

    def won(self, pos: BaronessPosition) -> bool:
        return pos.removed == FULL

    def key(self, pos: BaronessPosition) -> tuple[int, int]:
        # The deals made fix which cards have reached each pile (pile i holds pack cards
        # 5j + i, j < deals) and whether the two cards lie apart; of those, the removed ones are
        # gone and the others stay in dealing order. So (removed, deals) is the whole position.
        return pos.removed, pos.deals

    def cards_left(self, pos: BaronessPosition) -> int:
        return 52 - bin(pos.removed).count("1")

    def why_illegal(self, pos: BaronessPosition, move: Move) -> str:
        if move.word == "deal":
            return "deal: the pack is spent (all eleven deals are made)"
        if move.word is not None:
            return f"{move} is not a move of Baroness"
        avail = pos.available
        for c in move.cards:
            if pos.removed >> c & 1:
                return f"{move}: {CARD_NAMES[c]} is already removed"
            if c in avail:
                continue
            if c in pos.stock:
                return f"{move}: {CARD_NAMES[c]} is not dealt yet"
            pile = next(i for i, p in enumerate(pos.piles, start=1) if c in p)
            return f"{move}: {CARD_NAMES[c]} is covered in pile {pile}"
        if len(move.cards) == 1:
            return f"{move}: only a King leaves alone"
        if len(move.cards) == 2:
            a, b = move.cards
            return f"{move}: the values total {value(a) + value(b)}, not 13"
        return f"{move}: only two cards totalling 13, or a King alone, leave together"

    def render(self, pos: BaronessPosition) -> str:
        return layout_text(pos.piles, pos.stock, pos.reserve, pos.deals)


def layout_text(piles: Sequence[Sequence[int]], stock: Sequence[int], reserve: Sequence[int] = (),
                deals: int = 1) -> str:
    """Five lines, one per pile from its bottom card to its top (`-` when empty), then
    `Stock: ...` (the cards not dealt yet, next first) and, once the eleventh deal is made,
    `Reserve: ...` (the cards laid apart that are still there)."""
    lines = [" ".join(CARD_NAMES[c] for c in p) or "-" for p in piles]
    lines.append(("Stock: " + " ".join(CARD_NAMES[c] for c in stock)).rstrip())
    if deals == DEALS:
        lines.append(("Reserve: " + " ".join(CARD_NAMES[c] for c in reserve)).rstrip())
    return "\n".join(lines)


_SPLIT = re.compile(r"[\s,]+")


def looks_like_layout(text: str) -> bool:
    """A layout text has a `Stock:` line; a pack-order text never does."""
    return any(ln.strip().lower().startswith("stock") for ln in text.splitlines())


def read_layout(text: str) -> Deal:
    """The deal of a starting layout: five pile lines of one card each, then `Stock: ...` with
    the other 47 cards, next first (an empty `Reserve:` line may follow). LayoutError names the
    line and the card of any problem."""
    lines = [(n, ln.strip()) for n, ln in enumerate(text.splitlines(), start=1) if ln.strip()]
    piles: list[tuple[int, str]] = []
    stock: list[tuple[int, str]] = []
    for n, ln in lines:
        low = ln.lower()
        if low.startswith("reserve"):
            if _SPLIT.split(re.sub(r"^reserve\s*:?", "", ln, flags=re.IGNORECASE).strip()) != [""]:
                raise LayoutError(f"line {n}: the reserve is empty at the start (the eleventh "
                                  "deal lays the last two cards apart)")
            continue
        if low.startswith("stock"):
            stock.append((n, re.sub(r"^stock\s*:?", "", ln, flags=re.IGNORECASE)))
        elif stock:
            raise LayoutError(f"line {n}: the `Stock:` line must come after the five piles")
        else:
            piles.append((n, ln))
    if len(stock) != 1:
        raise LayoutError("a Baroness layout has one line `Stock: ...` (the cards not dealt yet)")
    if len(piles) != PILES:
        raise LayoutError(f"a Baroness layout has {PILES} pile lines before `Stock:`, "
                          f"this one {len(piles)}")
    layout = LayoutCards()

    for i, (n, ln) in enumerate(piles, start=1):
        tokens = [t for t in _SPLIT.split(ln) if t]
        if len(tokens) != 1:
            raise LayoutError(f"line {n} (pile {i}): a pile holds one card at the start, "
                              f"this one {len(tokens)}")
        layout.read(n, f"pile {i}", tokens)
    n, ln = stock[0]
    tokens = [t for t in _SPLIT.split(ln) if t]
    if len(tokens) != 52 - PILES:
        raise LayoutError(f"line {n} (stock): the stock holds {52 - PILES} cards at the start, "
                          f"this one {len(tokens)}")
    layout.read(n, "the stock", tokens)
    return Deal(layout.cards)


def full_piles(cards: Sequence[int]) -> tuple[tuple[int, ...], ...]:
    """Every card each pile will have received after the tenth deal, bottom first."""
    return tuple(tuple(cards[j * PILES + i] for j in range(FIVE_DEALS)) for i in range(PILES))
