"""Accordion: a row of piles; a pile moves onto the pile just left of it or three places left of
it when their top cards share a rank or a suit; won with one pile left (docs/accordion.md).

Also the layout of a game in progress (a row of piles, `AccordionLayout`) and the pure-Python
facts behind the structural proof of a block (`groups`, `check_groups`): they read the tops
alone, so `verify` re-derives every claim here.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Iterable, Optional, Sequence

from ...cards import CARD_NAMES, card_index
from ...deal import Deal
from ...errors import CardError, LayoutError, VerificationError, quoted
from ...moves import Move
from ...result import Verification, certificate_from_json, counted
from ..rules import Rules, pile_cards

#: The distances a pile moves left: onto its neighbour or three places left.
STEPS = (1, 3)
#: Piles of a layout text per line (the text reads back however it is wrapped).
PER_LINE = 13
#: The most piles of a row.
MAX_PILES = 52
_EMPTY = 63

Piles = tuple[tuple[int, ...], ...]


def match(a: int, b: int) -> bool:
    """Two cards of the same rank or the same suit."""
    return a % 13 == b % 13 or a // 13 == b // 13


class AccordionLayout(Deal):
    """A row of piles given as such (a game in progress typed by a user), not a pack to deal.

    Each pile is its cards from the bottom to the top; a pile given by its top card alone is one
    card. It is a Deal so that the generic API carries it unchanged: its `cards` are the piles'
    cards one after the other, then every card the layout does not name (covered cards, whose
    places no longer matter) in index order, 52 distinct cards in all; the rules play `piles`.
    str() is the layout text, which reads back.
    """

    __slots__ = ("piles",)

    def __init__(self, piles: Iterable[Iterable[int]]):
        ps = tuple(tuple(p) for p in piles)
        named = [c for p in ps for c in p]
        rest = sorted(set(range(52)) - set(named))
        super().__init__(named + rest)
        object.__setattr__(self, "piles", ps)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, AccordionLayout) and other.piles == self.piles

    def __hash__(self) -> int:
        return hash(self.piles)

    def __str__(self) -> str:
        return layout_text(self.piles)

    def __repr__(self) -> str:
        return f"AccordionLayout({self.piles!r})"


def deal_piles(deal: Deal) -> Piles:
    """The row a deal starts from: a typed layout as it is, a pack as 52 piles of one card."""
    if isinstance(deal, AccordionLayout):
        return deal.piles
    return tuple((c,) for c in deal.cards)


def pile_text(pile: Sequence[int]) -> str:
    """A pile's cards from the bottom to the top joined by `/`: its last card is the top."""
    return "/".join(CARD_NAMES[c] for c in pile)


def layout_text(piles: Sequence[Sequence[int]]) -> str:
    """The row, PER_LINE piles a line, left to right."""
    words = [pile_text(p) for p in piles]
    return "\n".join(" ".join(words[i: i + PER_LINE]) for i in range(0, len(words), PER_LINE))


_SPLIT = re.compile(r"[\s,]+")


def read_piles(piles: Sequence[Any]) -> Deal:
    """The deal of a row of piles, each a text (`4C/2C/KD`, bottom first) or a sequence of cards
    (names or indexes), or one card. 52 piles of one card are the pack that deals them; any
    other row is an AccordionLayout. LayoutError names the pile (1 = the leftmost) and the card
    place (1 = the bottom) of any problem."""
    if not piles:
        raise LayoutError("an Accordion layout has at least one pile")
    out: list[list[int]] = []
    where: dict[int, tuple[int, int]] = {}
    for p, pile in enumerate(piles, start=1):
        if isinstance(pile, str):
            tokens: list = [t for t in pile.strip().split("/")]
        elif isinstance(pile, (list, tuple)):
            tokens = list(pile)
        else:
            tokens = [pile]
        if not tokens or tokens == [""]:
            raise LayoutError(f"pile {p} has no card")
        out.append(pile_cards(tokens, p, where))
    if len(out) == 52 and all(len(p) == 1 for p in out):
        return Deal([p[0] for p in out])
    return AccordionLayout(out)


def parse_layout(text: str) -> Deal:
    """The deal of a layout text: the piles left to right, parted by spaces, commas or lines."""
    return read_piles([t for t in _SPLIT.split(text.strip()) if t])


@dataclass(frozen=True)
class AccordionPosition:
    piles: Piles  # the row, left to right; each pile from its bottom card to its top card

    @property
    def tops(self) -> tuple[int, ...]:
        return tuple(p[-1] for p in self.piles)

    @property
    def removed(self) -> int:
        """The bitboard of the cards in no pile: none after a deal of the whole pack; a typed
        layout's covered cards that it does not name."""
        held = 0
        for p in self.piles:
            for c in p:
                held |= 1 << c
        return ((1 << 52) - 1) & ~held


class AccordionRules(Rules):
    """A pile moves onto the pile 1 or 3 places left of it when their tops share a rank or a
    suit; the moving pile's top stays on top and the row closes up. Won with one pile."""

    game = "accordion"

    def start(self, deal: Deal) -> AccordionPosition:
        return AccordionPosition(deal_piles(deal))

    def moves(self, pos: AccordionPosition) -> list[Move]:
        tops = pos.tops
        out = []
        for i in range(1, len(tops)):
            # Each pile's jump before its step: the reference search follows this order, which
            # finds wins sooner than steps first on seeded deals (the core orders its own).
            for step in (3, 1):
                if i >= step and match(tops[i], tops[i - step]):
                    out.append(Move.onto_card(tops[i], tops[i - step]))
        return out

    def apply(self, pos: AccordionPosition, move: Move) -> AccordionPosition:
        tops = pos.tops
        i, j = tops.index(move.cards[0]), tops.index(move.onto)
        piles = list(pos.piles)
        piles[j] = piles[j] + piles[i]
        del piles[i]
        return AccordionPosition(tuple(piles))

    def won(self, pos: AccordionPosition) -> bool:
        return len(pos.piles) == 1

    def key(self, pos: AccordionPosition) -> tuple[int, ...]:
        # A pile's covered cards never play again: the tops, in order, are the whole position.
        return pos.tops

    def cards_left(self, pos: AccordionPosition) -> int:
        # The cards still in play are the tops; a win leaves one.
        return len(pos.piles)

    def moves_bound(self, pos: AccordionPosition) -> int:
        # Each move takes one pile away, and a win leaves one.
        return max(1, len(pos.piles) - 1)

    def render(self, pos: AccordionPosition) -> str:
        return layout_text(pos.piles)

    onto_moves = True

    def why_illegal(self, pos: AccordionPosition, move: Move) -> str:
        if move.onto < 0:
            return (f"{move} is not a move of Accordion (a move is a pile's top card and the top "
                    "card it goes onto: QH>QS)")
        tops = pos.tops
        a, b = move.cards[0], move.onto
        for c in (a, b):
            if c not in tops:
                return f"{move}: {CARD_NAMES[c]} is not on top of a pile"
        i, j = tops.index(a), tops.index(b)
        if j > i:
            return f"{move}: a pile moves left, and {CARD_NAMES[b]} is right of {CARD_NAMES[a]}"
        if i - j not in STEPS:
            return (f"{move}: {CARD_NAMES[b]} is {i - j} places left of {CARD_NAMES[a]}; a pile "
                    "moves 1 or 3 places")
        if not match(a, b):
            return f"{move}: {CARD_NAMES[a]} and {CARD_NAMES[b]} share neither rank nor suit"
        return f"{move} is not a legal move here"  # pragma: no cover - every case is named above


# -- the structural proof of a block --------------------------------------------------------------
#
# Join two tops when they share a rank or a suit. A move covers a top v with a top u joined to it,
# and u stays: the tops lose v, and no top is ever added. Taking a vertex out of a graph never
# joins two of its groups (connected components), so the number of groups never falls. A win
# leaves one top, one group: a row whose tops fall into two groups or more is lost. A top that
# shares rank and suit with no other top (a dead card) is a group of its own.


def groups(tops: Sequence[int]) -> list[list[int]]:
    """The groups of tops joined by shared ranks or suits (each in row order), ordered by their
    first top."""
    n = len(tops)
    seen = [False] * n
    out = []
    for s in range(n):
        if seen[s]:
            continue
        seen[s] = True
        todo, group = [s], [s]
        while todo:
            i = todo.pop()
            for j in range(n):
                if not seen[j] and match(tops[i], tops[j]):
                    seen[j] = True
                    todo.append(j)
                    group.append(j)
        out.append([tops[i] for i in sorted(group)])
    return out


def canonical(tops: Sequence[int]) -> tuple[int, ...]:
    """The row with its suits and ranks renamed in the order they first appear (the first suit
    seen becomes clubs, the first rank the Ace, ...). The rules compare a rank only with a rank
    and a suit only with a suit, so two rows of the same canonical form are won or lost together,
    and a move of one is a move of the other at the same places."""
    suits: dict[int, int] = {}
    ranks: dict[int, int] = {}
    return tuple(suits.setdefault(c // 13, len(suits)) * 13 + ranks.setdefault(c % 13, len(ranks))
                 for c in tops)


def structural_block(tops: Sequence[int]) -> Optional[dict]:
    """The proof details when the tops fall into two groups or more, else None."""
    gs = groups(tops)
    if len(gs) < 2:
        return None
    return {"rule": "groups", "groups": [[CARD_NAMES[c] for c in g] for g in gs]}


def structural_sentence(d: dict) -> str:
    gs = d["groups"]
    alone = [g[0] for g in gs if len(g) == 1]
    shown = "; ".join(" ".join(g) for g in gs)
    head = (f"{alone[0]} shares neither rank nor suit with any other top, so no pile ever covers "
            "it and it never moves: " if len(alone) == 1 and len(gs) == 2 else "")
    return (f"{head}the tops fall into {len(gs)} groups that share no rank or suit ({shown}); "
            "a move covers a top only with one of its own group, so every group keeps a pile "
            "to the end")


def check_groups(tops: Sequence[int], d: dict) -> Optional[str]:
    """None when the claim `d` holds for these tops and proves a block, else the fault."""
    try:
        if d["rule"] != "groups":
            return f"unknown structural rule {quoted(d['rule'])}"
        claimed = [[card_index(c) for c in g] for g in d["groups"]]
    except (KeyError, TypeError, AttributeError, CardError) as e:
        return f"malformed proof details ({e})"
    actual = groups(tops)
    if claimed != actual:
        return (f"the tops fall into the groups "
                f"{'; '.join(' '.join(CARD_NAMES[c] for c in g) for g in actual)}, not those "
                "claimed")
    if len(actual) < 2:
        return "the tops form one group"
    return None


# -- the core's position as one int (its wide form, docs/architecture.md) --------------------------
#
# 6 bits a top, ten a 64-bit word (top k in bits 64 (k // 10) + 6 (k mod 10)), the slots past the
# last pile holding 63, over n // 10 + 1 words for a row of n piles (so a row always ends in 63).

def position_of(tops: Sequence[int], words: int = 0) -> int:
    """The core's position int of a row of tops, over n // 10 + 1 words or `words` if more (a
    search keeps its root's width for every row it reaches)."""
    n = len(tops)
    if not 1 <= n <= MAX_PILES:
        raise ValueError(f"a row has 1..{MAX_PILES} piles, not {n}")
    x = 0
    for k in range(10 * max(n // 10 + 1, words)):
        c = tops[k] if k < n else _EMPTY
        x |= c << (64 * (k // 10) + 6 * (k % 10))
    return x


def width(x: int) -> int:
    """The words of a core's position int."""
    return max(1, (x.bit_length() + 63) // 64)


def tops_of(x: int) -> tuple[int, ...]:
    """The row of tops of a core's position int (position_of's inverse)."""
    out: list[int] = []
    while len(out) <= MAX_PILES:
        for j in range(10):
            c = (x >> (6 * j)) & 63
            if c == _EMPTY:
                return tuple(out)
            if c >= 52:
                raise ValueError(f"not a row of tops: {c} is no card")
            out.append(c)
        x >>= 64
    raise ValueError("not a row of tops: no end")


# -- the certificate of an exhaustive proof ---------------------------------------------------------

def certificate_rows(rules: Rules, start: AccordionPosition) -> frozenset:
    """The certificate check_certificate reads, made by the reference rules: the start's tops and
    the renamed rows reached from it, a row in groups not expanded. Every row in it but the start
    is reached from a row of it that is not in groups, so none can be left out (the pure-Python
    backend's certificate; the core's search collects the same kind of rows)."""
    first = start.tops
    rows = {first}
    todo = [first]
    while todo:
        k = todo.pop()
        if len(groups(k)) > 1:
            continue
        pos = AccordionPosition(tuple((c,) for c in k))
        for m in rules.moves(pos):
            child = canonical(rules.apply(pos, m).tops)
            if child not in rows:
                rows.add(child)
                todo.append(child)
    return frozenset(rows)


def check_certificate(rules: Rules, start: AccordionPosition, cert: Any) -> Verification:
    """Every row the certificate lists is lost, and so is the start: the start's canonical form
    is one of theirs, and each listed row is not won and either falls into groups (its tops share
    no rank or suit across them: lost, docs/accordion.md) or every move from it leads to a row
    whose canonical form is listed. By induction on the piles left, every row whose canonical form
    is listed is lost (renamed rows are won or lost together). VerificationError otherwise."""
    keys = certificate_from_json(cert)
    rows = []
    for k in keys:
        if (not isinstance(k, tuple) or not 1 <= len(k) <= MAX_PILES or len(set(k)) != len(k)
                or not all(type(c) is int and 0 <= c < 52 for c in k)):
            raise VerificationError(f"the certificate holds {k!r:.60}, which is no row of tops")
        rows.append(k)
    forms = {canonical(k) for k in rows}
    if canonical(start.tops) not in forms:
        raise VerificationError("the certificate does not contain the start position")
    cut = 0
    for k in rows:
        pos = AccordionPosition(tuple((c,) for c in k))
        if rules.won(pos):
            raise VerificationError("the certificate contains a won position")
        if len(groups(k)) > 1:
            cut += 1
            continue
        for m in rules.moves(pos):
            if canonical(rules.apply(pos, m).tops) not in forms:
                raise VerificationError(f"the move {m} leads out of the certificate (from the "
                                        f"row {' '.join(CARD_NAMES[c] for c in k)})")
    return Verification(True, f"the certificate is closed: {counted(len(rows), 'position')}, "
                              f"none won ({cut} lost by their groups)")
