"""Fifteens as PySolFC plays it (game 597; docs/fifteens.md, "PySolFC"): the executable
specification, short and slow on purpose.

Sixteen rows, each a pile, dealt one card each from the pack; one reserve holding any number of
cards in order. Moves:

- `6C+9H`: the top cards of two rows, number cards totalling 15, leave (PySolFC drops a row's
  top card on another row's: a pair, both to the foundation).
- `6C>R`: the top card of a row goes onto the reserve. When the reserve's cards are number cards
  totalling 15, or exactly a Ten, Jack, Queen and King (any suits), they all leave.
- `6C>3`: the reserve's top card goes onto row 3 (1..16) when it pairs to 15 with that row's top
  card: it stays there, covering it (PySolFC moves a reserve card to a row as a plain move).

A row accepts a card only when the card and the row's bottom card are number cards (A..9) and
the card totals 15 with the row's top. Empty rows are refilled from the pack, in row order,
whenever the reserve is empty (at once, if it is). Won when all 52 cards have left.
"""

from __future__ import annotations

from functools import cache, lru_cache
from itertools import product
from typing import NamedTuple

from ...cards import CARD_NAMES, CARD_PRETTY, mask, pretty, value
from ...deal import Deal
from ...moves import Move
from ...result import counted
from ..rules import Rules

ROWS = 16
COLUMNS = 4
FULL = (1 << 52) - 1
QUARTET = [10, 11, 12, 13]


class RowsPosition(NamedTuple):
    rows: tuple[tuple[int, ...], ...]  # each row's cards, bottom first (top last)
    reserve: tuple[int, ...]           # the reserve's cards, bottom first (top last)
    stock: tuple[int, ...]             # the pack not dealt yet, next card first
    removed: int                       # bitboard of the removed cards


def clears(reserve: tuple[int, ...]) -> bool:
    """PySolFC's Fifteens.fillStack: number cards totalling 15, or exactly T, J, Q, K."""
    values = sorted(value(c) for c in reserve)
    if values and values[-1] >= 10:
        return values == QUARTET
    return sum(values) == 15


def frozen_and_free(reserve: tuple[int, ...]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The reserve split at its topmost card that can never come back to a row (A..5, T..K):
    that card and those under it stay until the reserve clears, so their order never matters
    again; the 6..9s above it may each go back onto a row."""
    cut = max((i + 1 for i, c in enumerate(reserve) if not 6 <= value(c) <= 9), default=0)
    return reserve[:cut], reserve[cut:]


def can_clear(reserve: tuple[int, ...]) -> bool:
    """Whether the reserve may still clear: its frozen part must be part of a clearing set
    (number cards totalling less than 15, or Tens and court cards of different values)."""
    values = [value(c) for c in frozen_and_free(reserve)[0]]
    if any(v >= 10 for v in values):
        return all(v >= 10 for v in values) and len(set(values)) == len(values)
    return sum(values) < 15


def sealed(pos: RowsPosition) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """frozen_and_free with the stuck 6..9s sealed too (docs/fifteens.md, "Cards that can never
    go back"): a 6..9 x of the reserve with no card of value 15 - x in the rows (at any depth)
    nor above it in the reserve never goes back onto a row, so it and the cards under it stay
    until the reserve clears."""
    in_rows = [value(c) for r in pos.rows for c in r]
    cut = 0
    for i in range(len(pos.reserve) - 1, -1, -1):
        x = value(pos.reserve[i])
        above = [value(c) for c in pos.reserve[i + 1:]]
        if not 6 <= x <= 9 or 15 - x not in in_rows + above:
            cut = i + 1
            break
    return pos.reserve[:cut], pos.reserve[cut:]


def sealed_key(pos: RowsPosition) -> tuple:
    """The key of FifteensPySolFCRules with the reserve split by sealed() (the core's search
    keeps positions so)."""
    frozen, free = sealed(pos)
    return (52 - len(pos.stock),
            tuple(sorted(tuple(value(c) for c in r) for r in pos.rows if r)),
            tuple(sorted(value(c) for c in frozen)), tuple(value(c) for c in free))


@lru_cache(maxsize=1 << 14)
def split_into_fifteens(values: tuple[int, ...]) -> bool:
    """Whether number cards (their values, sorted) split into groups each totalling 15."""
    if not values:
        return True
    # The lowest card's group: every multiset of the other values totalling 15 with it.
    low, rest = values[0], list(values[1:])
    groups: set[tuple[int, ...]] = {()}
    for v in rest:
        groups |= {g + (v,) for g in groups if low + sum(g) + v <= 15}
    for g in groups:
        if low + sum(g) == 15:
            left = list(rest)
            for v in g:
                left.remove(v)
            if split_into_fifteens(tuple(left)):
                return True
    return False


def can_complete(pos: RowsPosition) -> bool:
    """Whether the reserve's frozen part (as sealed() splits it) can still leave: it must be
    part of a clearing set (number cards totalling 15, or T, J, Q, K), and since no card is dealt
    while it is held, the rest of that set must be in the rows or the reserve's free part now."""
    frozen, free = sealed(pos)
    values = sorted(value(c) for c in frozen)
    others = [value(c) for r in pos.rows for c in r] + [value(c) for c in free]
    if not values:
        return True
    if values[-1] >= 10:
        return (values[0] >= 10 and len(set(values)) == len(values)
                and all(v in values or v in others for v in QUARTET))
    sums = {0}
    for v in others:
        if v <= 9:  # a Ten or court card never joins number cards in a clearing set
            sums |= {t + v for t in sums if t + v <= 15}
    return 15 - sum(values) in sums


def can_split(pos: RowsPosition) -> bool:
    """Whether the number cards not removed yet (rows, reserve, stock) split into groups each
    totalling 15, as every number card leaves in one (a pair, or a clearing reserve)."""
    left = [c for r in pos.rows for c in r] + list(pos.reserve) + list(pos.stock)
    return split_into_fifteens(tuple(sorted(value(c) for c in left if value(c) <= 9)))


def rows_needed(numbers: tuple[int, ...]) -> int:
    """The fewest rows that can hold these number cards: an A..5 lies alone in its row (nothing
    is ever put on it, nor it on anything), and a row of 6..9s is one card or a pile
    alternating x and 15 - x, so its xs and 15 - xs differ by one at most."""
    small = sum(1 for v in numbers if v <= 5)
    piles = 0
    for x in (6, 7):
        a, b = numbers.count(x), numbers.count(15 - x)
        piles += abs(a - b) if a != b else min(a, 1)
    return small + piles


def has_room(pos: RowsPosition) -> bool:
    """Whether the relaxed game of docs/fifteens.md ("Pruning and sealing", rule 5) is open:
    before each card still to deal, the rows (the reserve is empty then) must hold every card
    dealt and not gone in at most fifteen rows, the court cards one a row and fewer by four for
    each T, J, Q, K they could make, the number cards as rows_needed says; between two deals,
    number cards leave in any groups of 15 of those then in play."""
    if not pos.stock:
        return True
    stock = [value(c) for c in pos.stock]
    table = [value(c) for r in pos.rows for c in r] + [value(c) for c in pos.reserve]

    @cache
    def open_from(j: int, numbers: tuple[int, ...], courts: tuple[int, ...]) -> bool:
        if j == len(stock):
            return split_into_fifteens(numbers)
        stuck = sum(courts) - 4 * min(courts)
        counts = [numbers.count(v) for v in range(1, 10)]
        for kept_counts in product(*(range(n, -1, -1) for n in counts)):
            kept = tuple(v for v, n in zip(range(1, 10), kept_counts) for _ in range(n))
            if rows_needed(kept) + stuck > 15:
                continue
            gone = list(numbers)
            for v in kept:
                gone.remove(v)
            if not split_into_fifteens(tuple(gone)):
                continue
            v = stock[j]
            if v <= 9:
                after, more = tuple(sorted(kept + (v,))), courts
            else:
                after, more = kept, tuple(n + (w == v) for w, n in zip(QUARTET, courts))
            if open_from(j + 1, after, more):
                return True
        return False

    return open_from(0, tuple(sorted(v for v in table if v <= 9)),
                     tuple(table.count(v) for v in QUARTET))


@cache
def fifteens() -> tuple[tuple[int, ...], ...]:
    """Every multiset of number cards totalling 15 (at most four of a value), as counts of
    A..9 (index 0 the Aces)."""
    out: list[tuple[int, ...]] = []

    def build(v: int, left: int, counts: list[int]) -> None:
        if left == 0:
            out.append(tuple(counts))
            return
        for w in range(v, min(left, 9) + 1):
            if counts[w - 1] < 4:
                counts[w - 1] += 1
                build(w, left - w, counts)
                counts[w - 1] -= 1

    build(1, 15, [0] * 9)
    return tuple(out)


def has_turns(pos: RowsPosition) -> bool:
    """Whether the relaxed game of docs/fifteens.md ("Pruning and sealing", rule 6) is open:
    rule 5's game (has_room) where, between two deals, the cards that leave are pairs of 6..9s
    totalling 15 and at most one other set: number cards totalling 15 holding an A..5, or a T,
    J, Q, K. That set's A..5s and court cards leave empty rows, which the deal after it fills:
    so many cards are dealt before anything leaves again. Court cards fill a row each until
    they leave. Before the first deal the one set holds the reserve's frozen part (as sealed()
    splits it), unless that part is a lone 6..9, which may leave in a pair."""
    if not pos.stock:
        return True
    stock = [value(c) for c in pos.stock]
    table = [value(c) for r in pos.rows for c in r] + [value(c) for c in pos.reserve]
    frozen = [value(c) for c in sealed(pos)[0]]
    if len(frozen) == 1 and 6 <= frozen[0] <= 9:
        frozen = []

    def numbers_of(counts: tuple[int, ...]) -> tuple[int, ...]:
        return tuple(v for v in range(1, 10) for _ in range(counts[v - 1]))

    def sets(numbers: tuple[int, ...], courts: tuple[int, ...], need: list[int]) -> list:
        """The one set that may leave (counts of A..9, of T..K), holding the cards of need; the
        empty set too when need is empty."""
        out = []
        if all(courts) and all(v >= 10 for v in need) and len(set(need)) == len(need):
            out.append(((0,) * 9, (1, 1, 1, 1)))
        for g in fifteens():
            if not all(n <= m for n, m in zip(g, numbers)):
                continue
            if need:
                if all(v <= 9 and g[v - 1] >= need.count(v) for v in need):
                    out.append((g, (0, 0, 0, 0)))
            elif any(g[:5]):
                out.append((g, (0, 0, 0, 0)))  # not two 6..9s: those are a pair
        if not need:
            out.append(((0,) * 9, (0, 0, 0, 0)))
        return out

    @cache
    def open_from(j: int, numbers: tuple[int, ...], courts: tuple[int, ...], owe: int) -> bool:
        # owe: cards still to deal into rows emptied by the last set before anything leaves.
        if j == len(stock):
            return split_into_fifteens(numbers_of(numbers))
        if not split_into_fifteens(tuple(sorted(numbers_of(numbers) + tuple(
                v for v in stock[j:] if v <= 9)))):
            return False
        choices = [(numbers, courts, 0)] if owe else [
            (kept, tuple(c - d for c, d in zip(courts, q)), sum(g[:5]) + sum(q))
            for g, q in sets(numbers, courts, frozen if j == 0 else [])
            for kept in pairs_left(tuple(m - n for m, n in zip(numbers, g)))]
        for kept, held, emptied in choices:
            if rows_needed(numbers_of(kept)) + sum(held) > 15:
                continue
            v = stock[j]
            after = tuple(n + (v == w) for w, n in zip(range(1, 10), kept))
            more = tuple(n + (v == w) for w, n in zip(QUARTET, held))
            if open_from(j + 1, after, more, owe - 1 if owe else max(emptied - 1, 0)):
                return True
        return False

    return open_from(0, tuple(table.count(v) for v in range(1, 10)),
                     tuple(table.count(v) for v in QUARTET), 0)


def pairs_left(counts: tuple[int, ...]) -> list[tuple[int, ...]]:
    """The counts of A..9 left after any number of 6 + 9 and 7 + 8 pairs leave."""
    out = []
    for p in range(min(counts[5], counts[8]) + 1):
        for q in range(min(counts[6], counts[7]) + 1):
            kept = list(counts)
            kept[5] -= p
            kept[8] -= p
            kept[6] -= q
            kept[7] -= q
            out.append(tuple(kept))
    return out


class FifteensPySolFCRules(Rules):
    game = "fifteens-pysolfc"
    reserve_moves = True
    pile_moves = True

    def start(self, deal: Deal) -> RowsPosition:
        cards = deal.cards
        return RowsPosition(tuple((c,) for c in cards[:ROWS]), (), tuple(cards[ROWS:]), 0)

    @staticmethod
    def accepts(row: tuple[int, ...], card: int) -> bool:
        """Fifteens_RowStack.acceptsCards: the card and the row's bottom are number cards and the
        card totals 15 with the row's top."""
        return (bool(row) and value(card) <= 9 and value(row[0]) <= 9
                and value(card) + value(row[-1]) == 15)

    def moves(self, pos: RowsPosition) -> list[Move]:
        # In the order a search does best to try them (any order is legal): pairs, pushes that
        # clear the reserve, drops back onto a row, pushes of 6..9s, other pushes, low values
        # first.
        tops = [(i, r[-1], value(r[-1])) for i, r in enumerate(pos.rows) if r]
        # The sum is what accepts asks first: asked once a pair here, a line is checked at
        # the cost of its pairs that total 15 (Game.first_try replays every line it gives).
        out = [Move.remove((a, b)) for k, (i, a, x) in enumerate(tops)
               for j, b, y in tops[k + 1:]
               if x + y == 15 and self.accepts(pos.rows[j], a) and self.accepts(pos.rows[i], b)]
        pushes = sorted((c for _, c, _ in tops), key=value)
        clearing = [c for c in pushes if clears(pos.reserve + (c,))]
        out += [Move.to_reserve(c) for c in clearing]
        if pos.reserve:
            t = pos.reserve[-1]
            out += [Move.to_pile(t, i + 1) for i, _, _ in tops if self.accepts(pos.rows[i], t)]
        rest = [c for c in pushes if c not in clearing]
        out += [Move.to_reserve(c) for c in rest if 6 <= value(c) <= 9]
        out += [Move.to_reserve(c) for c in rest if not 6 <= value(c) <= 9]
        return out

    def legal(self, pos: RowsPosition, move: Move) -> bool:
        # moves(pos) without listing them (a first try's line is replayed on every solve):
        # tests/test_fifteens_pysolfc.py holds the two equal on random positions.
        if move.word is not None or move.place or move.onto >= 0:
            return False
        if move.pile:
            # moves() numbers the rows 1..ROWS: no other pile (nor a negative index) is one.
            if type(move.pile) is not int or not 1 <= move.pile <= ROWS:
                return False
            return (not move.reserve and bool(pos.reserve) and move.cards == pos.reserve[-1:]
                    and self.accepts(pos.rows[move.pile - 1], move.cards[0]))
        where = {r[-1]: i for i, r in enumerate(pos.rows) if r}
        if move.reserve:
            return len(move.cards) == 1 and move.cards[0] in where
        if len(move.cards) != 2 or not all(c in where for c in move.cards):
            return False
        a, b = move.cards
        if not a < b:  # moves() lists a pair in index order, as Move.remove makes it
            return False
        return self.accepts(pos.rows[where[b]], a) and self.accepts(pos.rows[where[a]], b)

    def apply(self, pos: RowsPosition, move: Move) -> RowsPosition:
        rows = [list(r) for r in pos.rows]
        reserve = list(pos.reserve)
        removed = pos.removed
        if move.pile:
            rows[move.pile - 1].append(reserve.pop())
        else:
            for r in rows:
                if r and r[-1] in move.cards:
                    r.pop()
            if move.reserve:
                reserve.append(move.cards[0])
            else:
                removed |= move.mask
        if reserve and clears(tuple(reserve)):
            removed |= mask(reserve)
            reserve = []
        stock = list(pos.stock)
        if not reserve:
            for r in rows:
                if not r and stock:
                    r.append(stock.pop(0))
        return RowsPosition(tuple(tuple(r) for r in rows), tuple(reserve), tuple(stock), removed)

    def won(self, pos: RowsPosition) -> bool:
        return pos.removed == FULL

    def key(self, pos: RowsPosition) -> tuple:
        # No rule reads a suit, and the rows are alike (all that are empty refill together): a
        # position is fixed, up to the suits of cards of one value, by the cards dealt, the
        # values of each row (in any order of rows) and of the reserve, whose frozen part is a
        # set (frozen_and_free). The removed cards are the dealt ones not in play.
        frozen, free = frozen_and_free(pos.reserve)
        return (52 - len(pos.stock),
                tuple(sorted(tuple(value(c) for c in r) for r in pos.rows if r)),
                tuple(sorted(value(c) for c in frozen)),
                tuple(value(c) for c in free))

    def cards_left(self, pos: RowsPosition) -> int:
        return 52 - bin(pos.removed).count("1")

    def why_illegal(self, pos: RowsPosition, move: Move) -> str:
        tops = [r[-1] for r in pos.rows if r]
        if move.word is not None:
            return f"{move} is not a move of {self.game}"
        if move.pile:
            if not pos.reserve or move.cards[:1] != pos.reserve[-1:]:
                return f"{move}: only the reserve's top card goes back onto a row"
            if move.pile > ROWS:
                return f"{move}: the rows are numbered 1..{ROWS}"
            return (f"{move}: a row takes a card only when both it and the row's bottom card "
                    "are number cards and the card totals 15 with the row's top card")
        hidden = [c for c in move.cards if c not in tops]
        if hidden:
            return f"{move}: {CARD_NAMES[hidden[0]]} is not the top card of a row"
        if move.reserve:
            return f"{move} is not a legal move here"
        return f"{move}: only two number cards totalling 15 leave together from the rows"

    def render(self, pos: RowsPosition) -> str:
        cells = [" " + "/".join(CARD_PRETTY[c] for c in r) if r else "  ." for r in pos.rows]
        width = max(len(c) for c in cells)
        lines = [" ".join(c.ljust(width) for c in cells[i:i + COLUMNS]).rstrip()
                 for i in range(0, ROWS, COLUMNS)]
        held = " ".join(CARD_PRETTY[c] for c in pos.reserve) or "empty"
        lines.append(f"reserve: {held}")
        nxt = f", next {pretty(pos.stock[0])}" if pos.stock else ""
        lines.append(f"stock: {counted(len(pos.stock), 'card')}{nxt}")
        return "\n".join(lines)
