"""Calculation (Broken Intervals): four foundations built by ones, twos, threes and fours regardless
of suit, fed from a one-pass stock through four piles (docs/calculation.md).

The reference rules: the executable specification the core is tested against.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from itertools import combinations
from typing import Optional, Sequence

from ...cards import CARD_NAMES, value
from ...deal import Deal
from ...errors import LayoutError
from ...moves import Move
from ..rules import LayoutCards, Rules

FOUNDATIONS = 4
PILES = 4
STOCK = 52 - FOUNDATIONS


def next_value(last: int, step: int) -> int:
    """The value after `last` on a foundation built by `step`, counted round 13 (K = 13)."""
    return (last + step - 1) % 13 + 1


def sequence(f: int) -> tuple[int, ...]:
    """The thirteen values of foundation f (0-based: F1 builds by ones), its start card first."""
    step = f + 1
    return tuple((step * k - 1) % 13 + 1 for k in range(1, 14))


SEQUENCES = tuple(sequence(f) for f in range(FOUNDATIONS))


def start_cards(cards: Sequence[int], last: bool) -> tuple[int, ...]:
    """The cards that start F1..F4: of each value 1..4 the first card in pack order (the classic
    rules), or the last (`last`: PySolFC's choice)."""
    order = reversed(cards) if last else cards
    found: dict[int, int] = {}
    for c in order:
        v = value(c)
        if v <= FOUNDATIONS and v not in found:
            found[v] = c
    return tuple(found[v] for v in range(1, FOUNDATIONS + 1))


def layout_of(cards: Sequence[int], last: bool = False) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """(the four start cards of F1..F4, the stock of the other 48 in pack order)."""
    bases = start_cards(cards, last)
    gone = set(bases)
    return bases, tuple(c for c in cards if c not in gone)


@dataclass(frozen=True)
class CalculationPosition:
    dealt: tuple[int, ...]                    # the stock's cards turned so far, in order
    stock: tuple[int, ...]                    # the cards still to be turned, the next first
    foundations: tuple[tuple[int, ...], ...]  # F1..F4, each from its start card up
    piles: tuple[tuple[int, ...], ...]        # P1..P4, each from its bottom card to its top

    @property
    def removed(self) -> int:
        """No card leaves the table: the foundations' cards stay in play, in sight (0)."""
        return 0


def heights(pos: CalculationPosition) -> tuple[int, ...]:
    return tuple(len(f) for f in pos.foundations)


def accepts(pos: CalculationPosition, f: int, card: int) -> bool:
    """Foundation f (0-based) takes `card` next."""
    h = len(pos.foundations[f])
    return h < 13 and SEQUENCES[f][h] == value(card)


class CalculationRules(Rules):
    """Turn the stock's cards one at a time, each onto a foundation it fits or onto a pile; a
    pile's top card may go onto a foundation it fits; win with every card on the foundations."""

    game = "calculation"
    place_moves = True

    def __init__(self, last: bool = False) -> None:
        #: PySolFC's choice of start cards: of each value 1..4 the last in pack order.
        self.last = last

    def start(self, deal: Deal) -> CalculationPosition:
        if isinstance(deal, CalculationLayout):
            return deal.position
        bases, stock = layout_of(deal.cards, self.last)
        return CalculationPosition((), stock, tuple((c,) for c in bases), ((),) * PILES)

    def moves(self, pos: CalculationPosition) -> list[Move]:
        out = []
        for pile in pos.piles:
            if pile:
                out += [Move.to_place(pile[-1], "F", f + 1) for f in range(FOUNDATIONS)
                        if accepts(pos, f, pile[-1])]
        if pos.stock:
            c = pos.stock[0]
            out += [Move.to_place(c, "F", f + 1) for f in range(FOUNDATIONS) if accepts(pos, f, c)]
            out += [Move.to_place(c, "P", p + 1) for p in range(PILES)]
        return out

    def apply(self, pos: CalculationPosition, move: Move) -> CalculationPosition:
        c, k = move.cards[0], move.pile - 1
        dealt, stock, piles = pos.dealt, pos.stock, list(pos.piles)
        if stock and stock[0] == c:
            dealt, stock = dealt + (c,), stock[1:]
        else:
            p = next(p for p, pile in enumerate(piles) if pile and pile[-1] == c)
            piles[p] = piles[p][:-1]
        found = list(pos.foundations)
        if move.place == "F":
            found[k] = found[k] + (c,)
        else:
            piles[k] = piles[k] + (c,)
        return CalculationPosition(dealt, stock, tuple(found), tuple(piles))

    def won(self, pos: CalculationPosition) -> bool:
        return all(len(f) == 13 for f in pos.foundations)

    def key(self, pos: CalculationPosition) -> tuple[int, int]:
        return pack(pos)

    def cards_left(self, pos: CalculationPosition) -> int:
        return 52 - sum(heights(pos))

    def render(self, pos: CalculationPosition) -> str:
        return layout_text(pos)

    def why_illegal(self, pos: CalculationPosition, move: Move) -> str:
        if move.word is not None or not move.place or len(move.cards) != 1:
            return f"{move} is not a move of Calculation (a card onto F1..F4 or P1..P4)"
        c = move.cards[0]
        tops = {pile[-1]: p for p, pile in enumerate(pos.piles) if pile}
        if move.place == "P":
            if pos.stock and pos.stock[0] == c:  # pragma: no cover - every such move is legal
                return f"{move} is not a legal move here"
            if c in tops:
                return f"{move}: {CARD_NAMES[c]} lies on pile P{tops[c] + 1}, and a pile's card " \
                       "goes only onto a foundation"
            return f"{move}: only the stock's next card goes onto a pile" + _next(pos)
        if not (pos.stock and pos.stock[0] == c) and c not in tops:
            return f"{move}: {CARD_NAMES[c]} is neither the stock's next card nor a pile's top" \
                   + _next(pos)
        f = move.pile - 1
        h = len(pos.foundations[f])
        if h == 13:
            return f"{move}: F{f + 1} is complete"
        return f"{move}: F{f + 1} takes a {_VALUE_NAMES[SEQUENCES[f][h]]} next, not a " \
               f"{_VALUE_NAMES[value(c)]}"


_VALUE_NAMES = ("", "Ace", "Two", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine", "Ten",
                "Jack", "Queen", "King")


def _a(v: int) -> str:
    """A value's name with its article: "an Ace", "a Two"."""
    return ("an " if v in (1, 8) else "a ") + _VALUE_NAMES[v]


def _next(pos: CalculationPosition) -> str:
    return f" (the stock's next card is {CARD_NAMES[pos.stock[0]]})" if pos.stock else \
        " (the stock is empty)"


# -- a block seen in a position (rules 3 and 4 of docs/calculation.md) ----------------------------
#
# Each foundation takes each value once, so the cards of a value off the foundations are as many
# as the foundations still waiting for it, and a win gives each its own foundation. A card can go
# to a foundation only if that foundation is not past its value and takes no value first whose
# cards off the foundations all lie below the card in its pile. When some cards of one value can
# go, together, to fewer foundations than they are, the position is lost.

PLACE = tuple({v: k for k, v in enumerate(SEQUENCES[f])} for f in range(FOUNDATIONS))


def need(pos: CalculationPosition, card: int) -> int:
    """How soon `card` can go up: the fewest cards a foundation still waiting for its value
    takes before it (13 when none waits)."""
    v = value(card)
    return min((PLACE[f][v] - len(fd) for f, fd in enumerate(pos.foundations)
                if len(fd) < 13 and PLACE[f][v] >= len(fd)), default=13)


def value_block(pos: CalculationPosition) -> Optional[dict]:
    """The facts of a lost position that rule 3 or 4 sees (a structural proof's details), or
    None: the value, its cards that cannot all have a foundation each, the foundations they can
    go to, and for each other foundation still waiting for the value why a card cannot go there
    (the value it takes first, all of whose cards lie below the card in its pile)."""
    h = [len(f) for f in pos.foundations]
    where = {c: (p, i) for p, pile in enumerate(pos.piles) for i, c in enumerate(pile)}
    off: dict[int, list[int]] = {v: [] for v in range(1, 14)}
    for c in list(where) + list(pos.stock):
        off[value(c)].append(c)
    for v in range(1, 14):
        can: dict[int, set[int]] = {}
        why: dict[int, list[tuple[int, int]]] = {}
        for x in off[v]:
            can[x], why[x] = set(), []
            for f in range(FOUNDATIONS):
                if h[f] > PLACE[f][v]:
                    continue  # past v: it takes no v
                first = next((w for w in SEQUENCES[f][h[f]:PLACE[f][v]]
                              if x in where and all(
                                  y in where and where[y][0] == where[x][0]
                                  and where[y][1] < where[x][1] for y in off[w])), None)
                if first is None:
                    can[x].add(f)
                else:
                    why[x].append((f, first))
        for k in range(1, len(off[v]) + 1):
            for group in combinations(off[v], k):
                reach = set().union(*(can[x] for x in group))
                if len(reach) < k:
                    return {"value": _VALUE_NAMES[v],
                            "cards": [CARD_NAMES[x] for x in group],
                            "foundations": [f"F{f + 1}" for f in sorted(reach)],
                            "first": [[CARD_NAMES[x], f"F{f + 1}", _VALUE_NAMES[w],
                                       f"P{where[x][0] + 1}"] for x in group for f, w in why[x]]}
    return None


def value_block_sentence(d: dict) -> str:
    cards, reach = d["cards"], d["foundations"]
    head = (f"{cards[0]} must reach a foundation, and it can reach none" if len(cards) == 1 else
            f"{' and '.join(cards)} must each reach a foundation of its own, and together they "
            f"can reach {' and '.join(reach) if reach else 'none'}"
            + (" only" if reach else ""))
    reasons = "; ".join(f"{fd} takes {_a_name(w)} before {_a_name(d['value'])}, and every {w} "
                        f"off the foundations lies below {c} in {p}" for c, fd, w, p in d["first"])
    return (f"no line wins: {head} ({reasons}; the other foundations hold their "
            f"{d['value']} already). A card leaves a pile only from its top "
            "(docs/calculation.md, rules 3 and 4)")


def _a_name(name: str) -> str:
    return ("an " if name in ("Ace", "Eight") else "a ") + name


#: The most positions relaxed_block searches: past them it claims nothing.
RELAXED_POSITIONS = 200_000


def relaxed_block(pos: CalculationPosition, limit: int = RELAXED_POSITIONS) -> Optional[dict]:
    """Rule 5 (docs/calculation.md) read from the rules: the facts of a position lost even in
    the easier game where every card still in the stock may go onto a foundation at any time
    (the piles as they are, their cards leaving from the top only), or None when that game can
    be won or its search passes `limit` positions. It is searched one card at a time: a
    foundation takes its next value from a pile's top or from the free cards. A position of it
    is its heights and its piles' sizes (the free cards are the cards left elsewhere), and
    every move raises a foundation, so it has no cycle; a lost one is searched whole. The
    facts: the cards set free, the cards off the foundations, the most of them any line of the
    easier game puts up, and its positions."""
    piles = pos.piles
    free = [0] * 14
    for c in pos.stock:
        free[value(c)] += 1
    seen: dict[tuple, bool] = {}
    most = [0]

    def won(h: tuple, n: tuple) -> bool:
        if all(x == 13 for x in h):
            return True
        if (h, n) in seen:
            return seen[h, n]
        if len(seen) >= limit:
            raise OverflowError
        seen[h, n] = False
        most[0] = max(most[0], sum(h))
        for f in range(FOUNDATIONS):
            if h[f] == 13:
                continue
            v, up = SEQUENCES[f][h[f]], h[:f] + (h[f] + 1,) + h[f + 1:]
            for p in range(PILES):
                if n[p] and value(piles[p][n[p] - 1]) == v and won(up, n[:p] + (n[p] - 1,) + n[p + 1:]):
                    seen[h, n] = True
                    return True
            if free[v]:
                free[v] -= 1
                ok = won(up, n)
                free[v] += 1
                if ok:
                    seen[h, n] = True
                    return True
        return False

    start = heights(pos)
    try:
        if won(start, tuple(len(p) for p in piles)):
            return None
    except OverflowError:
        return None
    off = 4 * 13 - sum(start)
    return {"relaxed": True, "free": len(pos.stock), "off": off,
            "most": most[0] - sum(start), "positions": len(seen)}


def relaxed_block_sentence(d: dict) -> str:
    n, free = d["positions"], d["free"]
    count = f"{n:,} position{'' if n == 1 else 's'}"
    head, where = ((f"no line wins, even if each of the {free} cards still in the stock could go "
                    "onto a foundation at any time: the", f"that easier game's {count}")
                   if free else ("no line wins: the stock is turned, the", f"the {count} from here"))
    return (f"{head} piles' cards leave only from their tops, and in that order at most "
            f"{d['most']} of the {d['off']} cards off the foundations can go up ({where}, all "
            "searched; docs/calculation.md, rule 5)")


# -- the position's key ----------------------------------------------------------------------------
#
# Suits play no part once a card is on a foundation, so the heights say all of the foundations.
# Each stock card has a digit: 0 while in the stock or once on a foundation, p when it lies on pile
# Pp. The digits and the heights fix the position: a pile holds the cards of its digit in stock
# order, and the stock's next card is the one after the turned ones, which are the nonzero
# digits and the sum(heights) - 4 stock cards on the foundations. The key packs them as the core
# does (docs/calculation.md, "The search"): the two words of its positions, so that a
# certificate's keys are the core's positions themselves.

LOW = 27           # stock places whose digits go into the second word
HSPAN = 13 ** 4    # height vectors


def pack(pos: CalculationPosition) -> tuple[int, int]:
    """(removed, aux): removed = hidx + 13**4 * (digits 27..47 in base 5), aux = digits 0..26 in
    base 5, hidx = sum((h_f - 1) * 13**f)."""
    order = pos.dealt + pos.stock
    pile_of = {c: p + 1 for p, pile in enumerate(pos.piles) for c in pile}
    digits = [pile_of.get(c, 0) for c in order]
    hidx = sum((len(f) - 1) * 13 ** i for i, f in enumerate(pos.foundations))
    aux = sum(d * 5 ** k for k, d in enumerate(digits[:LOW]))
    high = sum(d * 5 ** k for k, d in enumerate(digits[LOW:]))
    return hidx + HSPAN * high, aux


def unpack(stock: Sequence[int], removed: int, aux: int) -> tuple[int, tuple[int, ...],
                                                                  tuple[tuple[int, ...], ...]]:
    """(cards turned, heights, piles) of a packed position of the deal whose stock is `stock`."""
    hidx, high = removed % HSPAN, removed // HSPAN
    digits = []
    for k in range(STOCK):
        if k == LOW:
            aux = high
        digits.append(aux % 5)
        aux //= 5
    hs = tuple(hidx // 13 ** i % 13 + 1 for i in range(FOUNDATIONS))
    piles = tuple(tuple(c for c, d in zip(stock, digits) if d == p + 1) for p in range(PILES))
    return STOCK - digits.count(0) + sum(hs) - FOUNDATIONS, hs, piles


# -- layout text -----------------------------------------------------------------------------------
#
# Nine lines: F1..F4 (each from its start card up), P1..P4 (bottom card first, `-` when empty),
# then the stock (its next card first). Every position prints so and reads back: at the deal's
# start as the pack that deals it, later in a game as a CalculationLayout.

_LINE = re.compile(r"^\s*(F[1-4]|P[1-4]|stock)\s*:?(.*)$", re.IGNORECASE)
_STEP_NAMES = ("", "ones", "twos", "threes", "fours")


def layout_text(pos: CalculationPosition) -> str:
    lines = [f"F{f + 1}: " + " ".join(CARD_NAMES[c] for c in cards)
             for f, cards in enumerate(pos.foundations)]
    lines += [f"P{p + 1}: " + (" ".join(CARD_NAMES[c] for c in pile) or "-")
              for p, pile in enumerate(pos.piles)]
    lines.append("stock: " + (" ".join(CARD_NAMES[c] for c in pos.stock) or "-"))
    return "\n".join(lines)


class CalculationLayout(Deal):
    """A position later in a game, given as such (a layout text typed by a user), not a pack.

    Its `position` is what the rules play. The cards turned before it are taken to be the
    foundations' cards above their start cards, then the piles' cards, P1 first, each pile from
    its bottom card: any order that leaves the piles as they are gives the same game from here
    (a pile is its cards in the order they came; which foundation card came when plays no part),
    and this one fixes the core's stock order and the position's key. `cards` are the start
    cards, those turned cards and the stock: the 52 once. str() is the layout text, which reads
    back.
    """

    __slots__ = ("position",)

    def __init__(self, foundations: Sequence[Sequence[int]], piles: Sequence[Sequence[int]],
                 stock: Sequence[int]):
        fs = tuple(tuple(f) for f in foundations)
        ps = tuple(tuple(p) for p in piles)
        dealt = tuple(c for f in fs for c in f[1:]) + tuple(c for p in ps for c in p)
        super().__init__([f[0] for f in fs] + list(dealt) + list(stock))
        object.__setattr__(self, "position", CalculationPosition(dealt, tuple(stock), fs, ps))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, CalculationLayout) and other.position == self.position

    def __hash__(self) -> int:
        return hash(self.position)

    def __str__(self) -> str:
        return layout_text(self.position)

    def __repr__(self) -> str:
        return f"CalculationLayout({str(self)!r})"


def looks_like_layout(text: str) -> bool:
    """A text with a line that starts `F1`..`F4`, `P1`..`P4` or `stock` (a pack's text never
    does: no card is written F or P, nor `stock`)."""
    return any(_LINE.match(line) for line in text.splitlines() if line.strip())


def parse_layout(text: str, last: bool = False) -> Deal:
    """The deal of a layout text: lines F1..F4 (each from its start card, an Ace, Two, Three and
    Four, up its sequence), P1..P4 (bottom card first; a pile not given is empty) and `stock`
    (next card first), every card once. At the deal's start (one card a foundation, the piles
    empty) it is the pack that deals it; later in a game, a CalculationLayout. LayoutError names
    the line, the place and the card of any problem."""
    reader = LayoutCards()
    found: dict[str, list[int]] = {}
    line_of: dict[str, int] = {}
    for no, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        m = _LINE.match(line)
        if m is None:
            raise LayoutError(f"line {no}: {line.strip()[:30]!r} is not F1..F4, P1..P4 or stock")
        name = m.group(1).upper() if m.group(1).lower() != "stock" else "stock"
        if name in found:
            raise LayoutError(f"line {no}: {name} is given twice")
        words = [w for w in re.split(r"[\s,]+", m.group(2).strip()) if w and w != "-"]
        found[name] = reader.read(no, name, words)
        line_of[name] = no
    foundations = []
    for f in range(FOUNDATIONS):
        name = f"F{f + 1}"
        if name not in found:
            raise LayoutError(f"the layout has no line {name}")
        cards, no = found[name], line_of[name]
        if not cards:
            raise LayoutError(f"line {no}: {name} is empty; it starts with {_a(f + 1)}")
        if len(cards) > 13:
            raise LayoutError(f"line {no} ({name}): {len(cards)} cards; a foundation holds 13")
        for k, c in enumerate(cards):
            want = SEQUENCES[f][k]
            if value(c) == want:
                continue
            if k == 0:
                raise LayoutError(f"line {no} ({name}), card 1: {name} starts with {_a(f + 1)}, "
                                  f"not {CARD_NAMES[c]}")
            raise LayoutError(f"line {no} ({name}), card {k + 1}: {CARD_NAMES[c]} does not follow "
                              f"{CARD_NAMES[cards[k - 1]]}; {name} builds by {_STEP_NAMES[f + 1]}, "
                              f"{_a(want)} next")
        foundations.append(cards)
    if "stock" not in found:
        raise LayoutError("the layout has no line stock (`stock: -` when it is empty)")
    stock = found["stock"]
    piles = [found.get(f"P{p + 1}", []) for p in range(PILES)]
    missing = [CARD_NAMES[c] for c in range(52) if c not in reader.seen]
    if missing:
        raise LayoutError(f"the layout lacks {' '.join(missing)}: every card is on a foundation, "
                          f"on a pile or in the stock (which holds {len(stock)})")
    if any(piles) or any(len(f) > 1 for f in foundations):
        return CalculationLayout(foundations, piles, stock)
    bases = [f[0] for f in foundations]
    # The start cards go first in the pack (the classic rules take the first of each value) or
    # last (PySolFC's take the last), so the pack made deals this layout under either.
    return Deal(stock + bases if last else bases + stock)
