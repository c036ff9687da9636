"""Pyramid (docs/pyramid.md): pair cards totalling 13 from a pyramid of 28, a stock and a waste.

The executable specification: short and slow on purpose. Places are numbered row by row from the
apex, 0..27; the place of row r (0-based), position i is r*(r+1)/2 + i and it is covered by the
places r+1, i and r+1, i+1.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from typing import Optional, Union

from ...cards import CARD_NAMES, card_index, value
from ...deal import Deal
from ...errors import CardError, LayoutError, quoted
from ...moves import Move
from ..rules import Rules

ROWS = 7
PLACES = 28
STOCK = 24
#: The bonus for clearing the pyramid during pass 1, 2, 3 (competitive score).
CLEAR_BONUS = {1: 50, 2: 35, 3: 20}


def place(row: int, i: int) -> int:
    """The place number of row `row` (0-based from the apex), position `i`."""
    return row * (row + 1) // 2 + i


def row_of(p: int) -> tuple[int, int]:
    """(row, position) of a place, both 0-based."""
    r = 0
    while place(r + 1, 0) <= p:
        r += 1
    return r, p - place(r, 0)


@cache
def covering(p: int) -> tuple[int, ...]:
    """The places that cover place p directly (none on the bottom row)."""
    r, i = row_of(p)
    return () if r == ROWS - 1 else (place(r + 1, i), place(r + 1, i + 1))


@cache
def cone(p: int) -> frozenset[int]:
    """Every place that covers p, directly or not: they must all go before p is available."""
    out: set[int] = set()
    todo = list(covering(p))
    while todo:
        q = todo.pop()
        if q not in out:
            out.add(q)
            todo.extend(covering(q))
    return frozenset(out)


@cache
def under(p: int) -> frozenset[int]:
    """Every place that p covers, directly or not: none is available while p is there."""
    return frozenset(q for q in range(PLACES) if p in cone(q))


def apart(p: int, q: int, overlap_pairs: bool = False) -> bool:
    """Whether the cards at places p and q can never leave together: one covers the other,
    directly or not, unless overlap_pairs lets a card pair with the one card covering it."""
    if q not in cone(p) and p not in cone(q):
        return False
    return not (overlap_pairs and (q in covering(p) or p in covering(q)))


def complements(card: int) -> list[int]:
    """The cards whose value totals 13 with card's (none for a King)."""
    v = 13 - value(card)
    return [] if v == 0 else [c for c in range(52) if value(c) == v]


@dataclass(frozen=True)
class PyramidPosition:
    pyramid: tuple[Optional[int], ...]  # card at each place, None once removed
    stock: tuple[int, ...]              # top first
    waste: tuple[int, ...]              # bottom first, top last
    pass_no: int                        # the pass being played, 1-based
    removed: int                        # bitboard of the removed cards
    deck: tuple[int, ...]               # the 24 stock cards as dealt (for the key)
    cleared_in: int = 0                 # the pass in which the pyramid was cleared, 0 if not yet


class PyramidRules(Rules):
    """Pyramid with its variants: passes (an int, or 0 for unlimited), goal "all" or "pyramid",
    whether the stock top and the waste top may pair with each other, and whether a pyramid card
    may pair with the one card still covering it (overlap_pairs)."""

    game = "pyramid"

    def __init__(self, passes: int = 3, goal: str = "all", stock_waste_pairs: bool = True,
                 first_to_waste: bool = False, overlap_pairs: bool = False):
        self.passes = passes
        self.goal = goal
        self.stock_waste_pairs = stock_waste_pairs
        #: PySolFC deals the first stock card onto the waste before play starts.
        self.first_to_waste = first_to_waste
        self.overlap_pairs = overlap_pairs

    def start(self, deal: Deal) -> PyramidPosition:
        cards = deal.cards
        pos = PyramidPosition(tuple(cards[:PLACES]), tuple(cards[PLACES:]), (), 1, 0,
                              tuple(cards[PLACES:]))
        return self.apply(pos, Move(word="draw")) if self.first_to_waste else pos

    def available_places(self, pos: PyramidPosition) -> list[int]:
        return [p for p in range(PLACES) if pos.pyramid[p] is not None
                and all(pos.pyramid[q] is None for q in covering(p))]

    def available(self, pos: PyramidPosition) -> list[tuple[int, str]]:
        """(card, where) for every available card; where is "pyramid", "stock" or "waste"."""
        out = [(pos.pyramid[p], "pyramid") for p in self.available_places(pos)]
        if pos.stock:
            out.append((pos.stock[0], "stock"))
        if pos.waste:
            out.append((pos.waste[-1], "waste"))
        return out  # type: ignore[return-value]

    def overlaps(self, pos: PyramidPosition) -> list[tuple[int, int]]:
        """overlap_pairs: (covered card, covering card) for every pyramid card covered by one
        card only, that card being available itself (docs/pyramid.md)."""
        if not self.overlap_pairs:
            return []
        out = []
        for p in range(PLACES):
            left = [q for q in covering(p) if pos.pyramid[q] is not None]
            if pos.pyramid[p] is not None and len(left) == 1 and all(
                    pos.pyramid[r] is None for r in covering(left[0])):
                out.append((pos.pyramid[p], pos.pyramid[left[0]]))
        return out  # type: ignore[return-value]

    def moves(self, pos: PyramidPosition) -> list[Move]:
        avail = self.available(pos)
        out = [Move.remove([c]) for c, _ in avail if value(c) == 13]
        for i, (a, wa) in enumerate(avail):
            for b, wb in avail[i + 1 :]:
                if value(a) + value(b) != 13:
                    continue
                if {wa, wb} == {"stock", "waste"} and not self.stock_waste_pairs:
                    continue
                out.append(Move.remove([a, b]))
        out += [Move.remove([a, b]) for a, b in self.overlaps(pos) if value(a) + value(b) == 13]
        out.sort(key=lambda m: m.cards)
        if pos.stock:
            out.append(Move(word="draw"))
        elif pos.waste and (self.passes == 0 or pos.pass_no < self.passes):
            # A recycle of an empty waste would change nothing but the pass: it is not a move.
            out.append(Move(word="recycle"))
        return out

    def apply(self, pos: PyramidPosition, move: Move) -> PyramidPosition:
        if move.word == "draw":
            return PyramidPosition(pos.pyramid, pos.stock[1:], pos.waste + pos.stock[:1],
                                   pos.pass_no, pos.removed, pos.deck, pos.cleared_in)
        if move.word == "recycle":
            # The waste turned over: its bottom card becomes the stock's top, order kept.
            return PyramidPosition(pos.pyramid, pos.waste, (), pos.pass_no + 1, pos.removed,
                                   pos.deck, pos.cleared_in)
        gone = set(move.cards)
        pyramid = tuple(None if c in gone else c for c in pos.pyramid)
        stock = pos.stock[1:] if pos.stock and pos.stock[0] in gone else pos.stock
        waste = pos.waste[:-1] if pos.waste and pos.waste[-1] in gone else pos.waste
        cleared = pos.cleared_in
        if not cleared and all(c is None for c in pyramid):
            cleared = pos.pass_no
        return PyramidPosition(pyramid, stock, waste, pos.pass_no, pos.removed | move.mask,
                               pos.deck, cleared)

    def won(self, pos: PyramidPosition) -> bool:
        if self.goal == "pyramid":
            return all(c is None for c in pos.pyramid)
        return pos.removed == (1 << 52) - 1

    def key(self, pos: PyramidPosition) -> tuple[int, int, int]:
        # The removed set fixes which cards are left; the stock and the waste keep the dealt order,
        # so the waste's top card fixes the split between them: k = 1 + the dealt place of the
        # waste top (0 for an empty waste). The pass is kept (0 with unlimited passes, where it
        # plays no part).
        k = pos.deck.index(pos.waste[-1]) + 1 if pos.waste else 0
        return pos.removed, k, pos.pass_no if self.passes else 0

    def cards_left(self, pos: PyramidPosition) -> int:
        left = sum(c is not None for c in pos.pyramid)
        return left if self.goal == "pyramid" else left + len(pos.stock) + len(pos.waste)

    def why_illegal(self, pos: PyramidPosition, move: Move) -> str:
        if move.word == "draw":
            return "draw: the stock is empty"
        if move.word == "recycle":
            if pos.stock:
                return "recycle: the stock is not empty"
            if not pos.waste:
                return "recycle: the waste is empty"
            return f"recycle: no pass is left (pass {pos.pass_no} of {self.passes})"
        if move.word is not None:
            return f"{move} is not a move of Pyramid"
        where = dict((c, w) for c, w in self.available(pos))
        if len(move.cards) == 2 and any(set(move.cards) == {a, b} for a, b in self.overlaps(pos)):
            return f"{move}: only two cards totalling 13, or a King alone, leave together"
        for c in move.cards:
            if c not in where:
                return f"{move}: {CARD_NAMES[c]} is not available"
        if len(move.cards) == 1:
            return f"{move}: only a King leaves alone"
        if len(move.cards) == 2 and {where[move.cards[0]], where[move.cards[1]]} == {
                "stock", "waste"} and not self.stock_waste_pairs:
            return f"{move}: the stock and the waste tops may not pair in this variant"
        return f"{move}: only two cards totalling 13, or a King alone, leave together"

    def render(self, pos: PyramidPosition) -> str:
        lines = []
        for r in range(ROWS):
            cells = [CARD_NAMES[c] if c is not None else ".."
                     for c in pos.pyramid[place(r, 0) : place(r, 0) + r + 1]]
            lines.append(" " * 2 * (ROWS - 1 - r) + "  ".join(cells))
        lines.append("Stock: " + " ".join(CARD_NAMES[c] for c in pos.stock))
        if pos.waste or pos.pass_no > 1 or pos.removed:
            lines.append("Waste: " + " ".join(CARD_NAMES[c] for c in pos.waste))
            total = self.passes if self.passes else "unlimited"
            lines.append(f"Pass: {pos.pass_no} of {total}")
        return "\n".join(lines)

    def score(self, pos: PyramidPosition) -> int:
        """The competitive score of play ending in pos (docs/pyramid.md)."""
        if pos.cleared_in:
            return CLEAR_BONUS[pos.cleared_in] - len(pos.stock) - len(pos.waste)
        return -(sum(c is not None for c in pos.pyramid) + len(pos.stock) + len(pos.waste))

    def moves_bound(self, pos: PyramidPosition) -> int:
        """The removals a win still needs (Rules.moves_bound): a King leaves alone; every other
        card leaves in a pair with a card of the complementary value, one of each. With goal
        all every card left must go, so a pair of values (v, 13 - v) with a and b cards left
        needs max(a, b) removals; with goal pyramid only the pyramid's cards must, and as many
        as max(a, b) of them again (each pair takes at most one of each value)."""
        cards = [c for c in pos.pyramid if c is not None]
        if self.goal != "pyramid":
            cards += pos.stock
            cards += pos.waste
        count = [0] * 14
        for c in cards:
            count[value(c)] += 1
        return count[13] + sum(max(count[v], count[13 - v]) for v in range(1, 7))

    def score_bound(self, pos: PyramidPosition) -> int:
        """No line of play through pos scores more: the bonus of the pass the pyramid was cleared
        in, or of the current pass (the earliest it can still be cleared; a pyramid never cleared
        scores below zero)."""
        if not 1 <= self.passes <= 3:
            raise ValueError("the competitive score is defined for 1 to 3 passes")
        return CLEAR_BONUS[pos.cleared_in or pos.pass_no]


def layout_text(deal: Deal) -> str:
    """The layout text of a deal: seven rows, then `Stock:` from its top down."""
    return PyramidRules().render(PyramidRules().start(deal))


def read_layout(text: str, first_to_waste: bool = False, passes: Optional[int] = None) -> Deal:
    """A deal from a layout text: seven rows of 1..7 cards, then `Stock: ...` of 24 cards, as
    `show` prints a start (its `Waste:` and `Pass: 1 of N` lines may follow, N the variant's
    `passes`, 0 for unlimited, when given). With first_to_waste (PySolFC's start) the waste holds
    the first stock card: `Waste: X` and a stock of 23, or the stock of 24 with an empty
    waste."""
    lines = [(n, ln.strip()) for n, ln in enumerate(text.splitlines(), start=1) if ln.strip()]

    def labelled(word: str) -> list[tuple[int, str]]:
        return [(n, ln) for n, ln in lines if ln.lower().startswith(word)]

    stock, waste, pass_lines = labelled("stock"), labelled("waste"), labelled("pass")
    rows = [(n, ln) for n, ln in lines if not ln.lower().startswith(("stock", "waste", "pass"))]
    if len(rows) != ROWS:
        raise LayoutError(f"a Pyramid layout has {ROWS} rows, this one {len(rows)}")
    if len(stock) != 1 or len(waste) > 1 or len(pass_lines) > 1:
        raise LayoutError("a Pyramid layout has one line `Stock: ...` (and at most one `Waste:` "
                          "and one `Pass:` line)")
    n_stock, stock_line = stock[0]
    if n_stock < rows[-1][0]:
        raise LayoutError(f"line {n_stock}: the `Stock:` line must come after the seven rows")
    for n, ln in pass_lines:
        m = re.fullmatch(r"pass\s*:?\s*(\d+)(?:\s+of\s+(\d+|unlimited))?", ln, re.IGNORECASE)
        if not m:
            raise LayoutError(f"line {n}: {quoted(ln)} is not a `Pass: 1 of N` line")
        if m.group(1) != "1":
            raise LayoutError(f"line {n}: {quoted(ln)} is not the start: a layout is read in "
                              "pass 1")
        total = m.group(2)
        if total is not None and passes is not None:
            want = str(passes) if passes else "unlimited"
            if total.lower() != want:
                raise LayoutError(f"line {n}: {quoted(ln)} does not match this game's "
                                  f"passes, {want} (the option passes=)")
    where: dict[int, int] = {}
    cards: list[int] = []

    def add(token: str, n: int) -> None:
        c = _card(token, n)
        if c in where:
            raise LayoutError(f"line {n}: {CARD_NAMES[c]} appears twice in the layout "
                              f"(also on line {where[c]})")
        where[c] = n
        cards.append(c)

    for r, (n, ln) in enumerate(rows):
        tokens = [t for t in re.split(r"[\s,]+", ln) if t]
        if len(tokens) != r + 1:
            raise LayoutError(f"line {n}: row {r + 1} has {r + 1} cards, this one {len(tokens)}")
        for t in tokens:
            add(t, n)
    on_waste = _listed(waste[0][1], "waste") if waste else []
    n_waste = waste[0][0] if waste else 0
    if on_waste and not first_to_waste:
        raise LayoutError(f"line {n_waste}: the waste holds {' '.join(on_waste)}: that is a "
                          "position after a draw (a start's waste is empty)")
    if len(on_waste) > 1:
        raise LayoutError(f"line {n_waste}: PySolFC's start has one card on the waste, this "
                          f"layout {len(on_waste)}")
    for t in on_waste:
        add(t, n_waste)
    tokens = _listed(stock_line, "stock")
    if len(tokens) != STOCK - len(on_waste):
        raise LayoutError(f"line {n_stock}: the stock has {STOCK - len(on_waste)} cards, this one "
                          f"{len(tokens)}")
    for t in tokens:
        add(t, n_stock)
    return Deal(cards)


def _listed(line: str, word: str) -> list[str]:
    """The cards of a `Stock: ...` or `Waste: ...` line."""
    m = re.match(word + r"\s*:?(.*)$", line, re.IGNORECASE)
    return [t for t in re.split(r"[\s,]+", m.group(1) if m else "") if t]


def _card(token: str, line: int) -> int:
    try:
        return card_index(token)
    except CardError:
        raise LayoutError(f"line {line}: {quoted(token)} is not a card") from None


def passes_value(passes: Union[int, str]) -> int:
    """The number of passes as the rules and core take it: 0 for unlimited."""
    return 0 if passes == "unlimited" else int(passes)
