"""Nestor (Matrimony): pair equal ranks among the exposed cards of eight columns.

docs/nestor.md.

The dealing procedure (`deal_layout`) lives here and only here: the game plug-in hands its result
to the compiled core, so core and reference rules always play the same layout.
"""

from __future__ import annotations

import re
from collections import deque
from dataclasses import dataclass
from functools import lru_cache
from typing import Iterable, Sequence

from ...cards import CARD_NAMES, value
from ...deal import Deal
from ...errors import LayoutError
from ...moves import Move
from ..rules import LayoutCards, Rules

COLUMNS = 8
ROWS = 6
STOCK = 52 - COLUMNS * ROWS
FULL = (1 << 52) - 1
DISCARD = Move(word="discard")

Columns = tuple[tuple[int, ...], ...]


def deal_layout(cards: Sequence[int]) -> tuple[Columns, tuple[int, ...]]:
    """The rectified deal (docs/nestor.md): (columns, first card dealt first; stock, top first).

    Six rows, row by row, left to right. A card whose rank its column already holds goes to the
    bottom of the pack and the next card is tried; when every card left would repeat a rank of
    the column, the next card is dealt there anyway.
    """
    return _deal_layout(tuple(cards))


@lru_cache(maxsize=4096)
def _deal_layout(cards: tuple[int, ...]) -> tuple[Columns, tuple[int, ...]]:
    # Cached: solve() deals once for the structural proof and once for the core.
    pack = deque(cards)
    cols: list[list[int]] = [[] for _ in range(COLUMNS)]
    ranks: list[set[int]] = [set() for _ in range(COLUMNS)]  # card % 13 of each column
    for _row in range(ROWS):
        for col, held in zip(cols, ranks):
            tries = len(pack)
            while pack[0] % 13 in held and tries:
                pack.rotate(-1)  # the top card goes to the bottom of the pack
                tries -= 1
            # With no try left every card went once to the bottom, which leaves the pack in its
            # order before the tries: its top card is "the next card", dealt anyway.
            card = pack.popleft()
            col.append(card)
            held.add(card % 13)
    return tuple(tuple(c) for c in cols), tuple(pack)


class NestorLayout(Deal):
    """A Nestor layout given as such (typed by a user), not as a pack to deal.

    It is a Deal so that the generic API carries it unchanged; its `cards` are the columns one
    after the other, then the stock (52 distinct cards), but they are NOT a pack order: the Nestor
    rules play `columns` and `stock` as given. str() is the layout text, which reads back.
    """

    __slots__ = ("columns", "stock")

    def __init__(self, columns: Iterable[Iterable[int]], stock: Iterable[int]):
        cols = tuple(tuple(c) for c in columns)
        stk = tuple(stock)
        super().__init__([c for col in cols for c in col] + list(stk))
        object.__setattr__(self, "columns", cols)
        object.__setattr__(self, "stock", stk)

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, NestorLayout) and other.columns == self.columns
                and other.stock == self.stock)

    def __hash__(self) -> int:
        return hash((self.columns, self.stock))

    def __str__(self) -> str:
        return layout_text(self.columns, self.stock)

    def __repr__(self) -> str:
        return f"NestorLayout({self.columns!r}, {self.stock!r})"


def layout_of(deal: Deal) -> tuple[Columns, tuple[int, ...]]:
    """The layout a deal gives: a typed layout as it is, a pack through the rectified deal."""
    if isinstance(deal, NestorLayout):
        return deal.columns, deal.stock
    return deal_layout(deal.cards)


def layout_text(columns: Columns, stock: Sequence[int]) -> str:
    """Eight lines, one per column from the first card dealt to the last, then `Stock: ...`."""
    lines = [" ".join(CARD_NAMES[c] for c in col) if col else "-" for col in columns]
    lines.append("Stock: " + " ".join(CARD_NAMES[c] for c in stock))
    return "\n".join(lines).rstrip()


_SPLIT = re.compile(r"[\s,]+")


def parse_layout(text: str) -> NestorLayout:
    """Read a layout text; LayoutError naming the line and card when it is not a Nestor layout.

    A layout that repeats a rank in a column is accepted: it is played as given.
    """
    lines = [(n, ln.strip()) for n, ln in enumerate(text.splitlines(), start=1) if ln.strip()]
    if not lines or not lines[-1][1].lower().startswith("stock:"):
        raise LayoutError("a Nestor layout ends with a line `Stock: ...` (the four stock cards)")
    *col_lines, (stock_no, stock_line) = lines
    if len(col_lines) != COLUMNS:
        raise LayoutError(
            f"a Nestor layout has {COLUMNS} column lines before `Stock:`, this one {len(col_lines)}"
        )
    layout = LayoutCards()

    columns = []
    for i, (line_no, line) in enumerate(col_lines, start=1):
        if line.lower().startswith("stock:"):
            raise LayoutError(f"line {line_no}: `Stock:` must be the last line")
        words = [w for w in _SPLIT.split(line) if w]
        if len(words) != ROWS:
            raise LayoutError(f"line {line_no} (column {i}): a column has {ROWS} cards, "
                              f"this one {len(words)}")
        columns.append(layout.read(line_no, f"column {i}", words))
    words = [w for w in _SPLIT.split(stock_line[len("stock:"):]) if w]
    if len(words) != STOCK:
        raise LayoutError(f"line {stock_no} (stock): the stock has {STOCK} cards, "
                          f"this one {len(words)}")
    stock = layout.read(stock_no, "the stock", words)
    return NestorLayout(columns, stock)


@dataclass(frozen=True)
class NestorPosition:
    columns: Columns            # cards left in each column, first dealt first; the last is exposed
    stock: tuple[int, ...]      # the stock cards as dealt, top first (whatever became of them)
    turned: int                 # closed reserve: stock cards turned so far (paired or discarded)
    removed: int                # bitboard of the cards removed in pairs

    @property
    def exposed(self) -> list[int]:
        return [col[-1] for col in self.columns if col]


class NestorRules(Rules):
    """Nestor with the closed reserve (default) or the open one (`open_reserve`)."""

    game = "nestor"

    def __init__(self, open_reserve: bool = False):
        self.open = open_reserve

    def start(self, deal: Deal) -> NestorPosition:
        columns, stock = layout_of(deal)
        return NestorPosition(columns, stock, 0, 0)

    def available(self, pos: NestorPosition) -> list[int]:
        """Cards that may take part in a pair now (the closed stock card aside)."""
        out = pos.exposed
        if self.open:
            out += [s for s in pos.stock if not pos.removed >> s & 1]
        return out

    def moves(self, pos: NestorPosition) -> list[Move]:
        avail = self.available(pos)
        pairs = [Move.remove((a, b)) for i, a in enumerate(avail) for b in avail[i + 1:]
                 if value(a) == value(b)]
        if self.open or pairs:
            return pairs
        if pos.turned == len(pos.stock):
            return []
        # The tableau is blocked: the top stock card is turned; it pairs at once if it can.
        s = pos.stock[pos.turned]
        with_stock = [Move.remove((s, e)) for e in avail if value(e) == value(s)]
        return with_stock or [DISCARD]

    def apply(self, pos: NestorPosition, move: Move) -> NestorPosition:
        gone = set(move.cards)
        columns = tuple(col[:-1] if col and col[-1] in gone else col for col in pos.columns)
        turned = pos.turned
        if not self.open and (move == DISCARD or (turned < len(pos.stock)
                                                  and pos.stock[turned] in gone)):
            turned += 1
        return NestorPosition(columns, pos.stock, turned, pos.removed | move.mask)

    def won(self, pos: NestorPosition) -> bool:
        if self.open:
            return pos.removed == FULL
        return not any(pos.columns)

    def key(self, pos: NestorPosition) -> tuple[int, int]:
        # The removed cards of a column are always its last ones, so `removed` fixes the columns;
        # `turned` fixes which stock cards are gone (the unpaired ones were discarded).
        return (pos.removed, pos.turned)

    def cards_left(self, pos: NestorPosition) -> int:
        if self.open:
            return 52 - bin(pos.removed).count("1")
        return sum(len(col) for col in pos.columns)

    def turned_card(self, pos: NestorPosition):
        """Closed reserve: the stock card turned up now (the tableau is blocked), else None."""
        if self.open or pos.turned == len(pos.stock):
            return None
        ex = pos.exposed
        if len({value(c) for c in ex}) < len(ex):
            return None
        return pos.stock[pos.turned]

    def why_illegal(self, pos: NestorPosition, move: Move) -> str:
        legal = self.moves(pos)
        up = self.turned_card(pos)
        if move.word is not None:
            if move.word != "discard" or self.open:
                return f"{move} is not a move of Nestor with the {self.reserve} reserve"
            if up is not None:
                return f"discard: the turned stock card {CARD_NAMES[up]} pairs ({legal[0]})"
            if legal:
                return f"discard: the stock is not turned while the tableau has a pair ({legal[0]})"
            return "discard: the stock is spent"
        for c in move.cards:
            if pos.removed >> c & 1:
                return f"{move}: {CARD_NAMES[c]} is already removed"
        if len(move.cards) != 2 or value(move.cards[0]) != value(move.cards[1]):
            return f"{move}: only two cards of the same rank leave together"
        avail = self.available(pos)
        for c in move.cards:
            if c in avail or c == up:
                continue
            if c in pos.stock[: pos.turned]:
                return f"{move}: {CARD_NAMES[c]} was discarded"
            if c in pos.stock:
                return f"{move}: {CARD_NAMES[c]} is in the stock and not turned up"
            col = next(i for i, cs in enumerate(pos.columns, start=1) if c in cs)
            return f"{move}: {CARD_NAMES[c]} is covered in column {col}"
        if up is not None:
            return f"{move}: the tableau is blocked; the turned stock card {CARD_NAMES[up]} plays"
        return f"{move} is not a legal move here"

    @property
    def reserve(self) -> str:
        return "open" if self.open else "closed"

    def render(self, pos: NestorPosition) -> str:
        if self.open:
            stock = [s for s in pos.stock if not pos.removed >> s & 1]
            return layout_text(pos.columns, stock)
        text = layout_text(pos.columns, pos.stock[pos.turned:])
        gone = [s for s in pos.stock[: pos.turned] if not pos.removed >> s & 1]
        if gone:
            text += "\nDiscarded: " + " ".join(CARD_NAMES[c] for c in gone)
        return text
