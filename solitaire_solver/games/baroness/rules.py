"""Baroness (docs/baroness.md): five piles fed by deals of five cards;
remove a King alone or two available cards totalling 13.

The executable specification: short and slow on purpose. Piles are numbered 1..5 in text.
Two options give PySolFC's rules (preset baroness-pysolfc): `last_deal="together"` deals the
last five cards and lays the last two apart in one deal; `to_empty=True` lets the top card of a
pile move onto an empty pile (`QH>3`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Sequence

from ...cards import CARD_NAMES, value
from ...deal import Deal
from ...errors import LayoutError, VariantError, quoted
from ...moves import Move
from ..rules import LayoutCards, Rules

PILES = 5
#: Deals of five cards (the first one made at the start); with last_deal="apart" an eleventh
#: deal lays the last two apart, with "together" the tenth does.
FIVE_DEALS = 10
APART = 2
LAST_DEALS = ("apart", "together")
FULL = (1 << 52) - 1
DEAL = Move(word="deal")


@dataclass(frozen=True)
class BaronessPosition:
    piles: tuple[tuple[int, ...], ...]  # the cards left in each pile, bottom first (top last)
    reserve: tuple[int, ...]            # the cards laid apart by the eleventh deal, still there
    stock: tuple[int, ...]              # the cards not dealt yet, next first
    deals: int                          # deals made, 1..11 (the first at the start)
    removed: int                        # bitboard of the removed cards
    pack: tuple[int, ...] = ()          # the deal, pack order: which pile each card is dealt to

    @property
    def available(self) -> list[int]:
        """The top card of each pile, then the cards laid apart."""
        return [p[-1] for p in self.piles if p] + list(self.reserve)


class BaronessRules(Rules):
    pile_moves = True  # its own why_illegal names to_empty
    game = "baroness"

    def __init__(self, last_deal: str = "apart", to_empty: bool = False):
        if last_deal not in LAST_DEALS:
            raise VariantError(f"last_deal is one of {', '.join(LAST_DEALS)}, not {quoted(last_deal)}")
        self.together = last_deal == "together"
        self.to_empty = bool(to_empty)
        #: Deals in a game, the first (made at the start) included.
        self.total_deals = FIVE_DEALS if self.together else FIVE_DEALS + 1

    def start(self, deal: Deal) -> BaronessPosition:
        cards = deal.cards
        return BaronessPosition(tuple((c,) for c in cards[:PILES]), (), tuple(cards[PILES:]), 1, 0,
                                tuple(cards))

    def moves(self, pos: BaronessPosition) -> list[Move]:
        avail = pos.available
        out = [Move.remove([c]) for c in avail if value(c) == 13]
        out += [Move.remove([a, b]) for i, a in enumerate(avail) for b in avail[i + 1:]
                if value(a) + value(b) == 13]
        out.sort(key=lambda m: m.cards)
        if self.to_empty:
            # The top card of a pile onto an empty pile (never a card laid apart: docs/baroness.md).
            out += [Move.to_pile(p[-1], t) for t, q in enumerate(pos.piles, start=1) if not q
                    for p in pos.piles if p]
        if pos.stock:
            out.append(DEAL)
        return out

    def apply(self, pos: BaronessPosition, move: Move) -> BaronessPosition:
        if move == DEAL:
            if len(pos.stock) == APART:
                # The eleventh deal: the last two cards lie apart, both available.
                return BaronessPosition(pos.piles, pos.stock, (), pos.deals + 1, pos.removed,
                                        pos.pack)
            # One card on each pile, empty piles too, pile 1 first; with last_deal="together"
            # the deal that finds seven cards left lays the last two apart as well.
            piles = tuple(p + (c,) for p, c in zip(pos.piles, pos.stock[:PILES]))
            rest = pos.stock[PILES:]
            if self.together and len(rest) == APART:
                return BaronessPosition(piles, rest, (), pos.deals + 1, pos.removed, pos.pack)
            return BaronessPosition(piles, pos.reserve, rest, pos.deals + 1, pos.removed,
                                    pos.pack)
        if move.pile:
            card, to = move.cards[0], move.pile - 1
            piles = tuple((card,) if i == to else p[:-1] if p and p[-1] == card else p
                          for i, p in enumerate(pos.piles))
            return BaronessPosition(piles, pos.reserve, pos.stock, pos.deals, pos.removed,
                                    pos.pack)
        gone = set(move.cards)
        piles = tuple(p[:-1] if p and p[-1] in gone else p for p in pos.piles)
        reserve = tuple(c for c in pos.reserve if c not in gone)
        return BaronessPosition(piles, reserve, pos.stock, pos.deals, pos.removed | move.mask,
                                pos.pack)

    def won(self, pos: BaronessPosition) -> bool:
        return pos.removed == FULL

    def key(self, pos: BaronessPosition) -> tuple:
        # The deals made fix which cards have reached each pile (pile i holds pack cards
        # 5j + i, j < deals) and whether the two cards lie apart; of those, the removed ones are
        # gone and the others stay in dealing order. So (removed, deals) is the whole position.
        if not self.to_empty:
            return pos.removed, pos.deals
        # With to_empty a pile also holds, at its bottom, at most one card that was not dealt to
        # it (a card arrives only on an empty pile, which it then keeps from being empty): that
        # card, per pile, completes the position (docs/baroness.md, "The packed state").
        home = {c: i for i, c in enumerate(pos.pack[:PILES * FIVE_DEALS])}
        return pos.removed, pos.deals, tuple(
            p[0] if p and home[p[0]] % PILES != i else None for i, p in enumerate(pos.piles))

    def describe(self, pos: BaronessPosition) -> dict:
        out = super().describe(pos)
        del out["pack"]  # the deal itself, not part of the position a player sees
        return out

    def cards_left(self, pos: BaronessPosition) -> int:
        return 52 - bin(pos.removed).count("1")

    def why_illegal(self, pos: BaronessPosition, move: Move) -> str:
        if move.word == "deal":
            return f"deal: the pack is spent (all {self.total_deals} deals are made)"
        if move.word is not None or move.reserve:
            return f"{move} is not a move of Baroness"
        if move.pile:
            return self._why_not_to_pile(pos, move)
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

    def _why_not_to_pile(self, pos: BaronessPosition, move: Move) -> str:
        c, to = move.cards[0], move.pile
        if not self.to_empty:
            return (f"{move}: a card moves onto an empty pile only under to_empty=True "
                    "(preset baroness-pysolfc)")
        if to > PILES:
            return f"{move}: Baroness has piles 1 to {PILES}, not {to}"
        if pos.piles[to - 1]:
            return (f"{move}: pile {to} is not empty (its top card is "
                    f"{CARD_NAMES[pos.piles[to - 1][-1]]}); a card moves only onto an empty pile")
        if pos.removed >> c & 1:
            return f"{move}: {CARD_NAMES[c]} is already removed"
        if c in pos.reserve:
            return (f"{move}: {CARD_NAMES[c]} lies apart, and the cards laid apart never move "
                    "onto a pile (docs/baroness.md)")
        if c in pos.stock:
            return f"{move}: {CARD_NAMES[c]} is not dealt yet"
        pile = next(i for i, p in enumerate(pos.piles, start=1) if c in p)
        return f"{move}: {CARD_NAMES[c]} is covered in pile {pile}"

    def render(self, pos: BaronessPosition) -> str:
        return layout_text(pos.piles, pos.stock, pos.reserve)


def layout_text(piles: Sequence[Sequence[int]], stock: Sequence[int],
                reserve: Sequence[int] = ()) -> str:
    """Five lines, one per pile from its bottom card to its top (`-` when empty), then
    `Stock: ...` (the cards not dealt yet, next first) and, once the last deal has laid two cards
    apart (the stock is then spent), `Reserve: ...` (the cards laid apart that are still there)."""
    lines = [" ".join(CARD_NAMES[c] for c in p) or "-" for p in piles]
    lines.append(("Stock: " + " ".join(CARD_NAMES[c] for c in stock)).rstrip())
    if not stock:
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
