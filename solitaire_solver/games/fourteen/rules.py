"""Fourteen Puzzle: twelve piles, remove two tops totalling 14 (docs/fourteen.md).

Also the pure-Python facts behind the structural proofs of a block (`structural_block`,
`check_structural_fact`): they read the layout alone, so `verify` re-derives every claim here.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Optional, Sequence

from ...cards import CARD_NAMES, card_index, value
from ...deal import Deal
from ...errors import LayoutError, quoted
from ...moves import Move
from ..rules import Rules, pile_cards

PILES = 12
FULL = (1 << 52) - 1
#: Cards per pile at the start: pack position k goes onto pile k mod 12.
PILE_SIZES = tuple(len(range(p, 52, PILES)) for p in range(PILES))

RANK_WORDS = ("Ace", "Two", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine", "Ten",
              "Jack", "Queen", "King")
_NUMBER_WORDS = ("no", "one", "two", "three", "four", "five")


def rank_word(v: int, n: int = 1) -> str:
    """`Ace`, or `Aces` when n != 1."""
    w = RANK_WORDS[v - 1]
    return w if n == 1 else (w + "es" if w == "Six" else w + "s")


def count_word(n: int) -> str:
    return _NUMBER_WORDS[n] if 0 <= n < len(_NUMBER_WORDS) else str(n)


def deal_piles(cards: Sequence[int]) -> tuple[tuple[int, ...], ...]:
    """The twelve piles of a pack, each from its bottom card to its top card."""
    return tuple(tuple(cards[p::PILES]) for p in range(PILES))


def pack_order(piles: Sequence[Sequence[int]]) -> list[int]:
    """The pack that deals `piles` (the inverse of deal_piles)."""
    return [piles[k % PILES][k // PILES] for k in range(52)]


def layout_text(piles: Sequence[Sequence[int]]) -> str:
    """Twelve lines, one per pile, from the bottom card to the top; `-` for an empty pile."""
    return "\n".join(" ".join(CARD_NAMES[c] for c in pile) or "-" for pile in piles)


_SPLIT = re.compile(r"[\s,]+")


def read_layout(piles: Sequence[Any]) -> Deal:
    """The deal of a layout: twelve piles, each a text line or a sequence of cards, bottom first.

    LayoutError names the pile (0..11) and the card place (1 = bottom) of any problem.
    """
    if len(piles) != PILES:
        raise LayoutError(f"a Fourteen layout has {PILES} piles, this one {len(piles)}")
    out: list[list[int]] = []
    where: dict[int, tuple[int, int]] = {}
    for p, pile in enumerate(piles):
        if isinstance(pile, str):
            tokens: list = [t for t in _SPLIT.split(pile.strip()) if t]
        else:
            tokens = list(pile)
        if len(tokens) != PILE_SIZES[p]:
            raise LayoutError(
                f"pile {p} has {len(tokens)} cards; piles 0..3 hold five cards and piles 4..11 four"
            )
        out.append(pile_cards(tokens, p, where))
    return Deal(pack_order(out))


def looks_like_layout(text: str) -> bool:
    """True for a text set out as piles: twelve non-blank lines, or several lines of at most five
    cards (a pile's most), not all of one card. A pack-order text is read otherwise: on one line,
    on lines of more than five cards, or one card a line. So a layout with a pile too many or too
    few is called a layout, and parse_layout names the count."""
    rows = [[t for t in _SPLIT.split(line.strip()) if t] for line in text.splitlines()
            if line.strip()]
    if len(rows) == PILES:
        return True
    return (len(rows) > 1 and all(len(r) <= max(PILE_SIZES) for r in rows)
            and any(len(r) > 1 for r in rows))


def parse_layout(text: str) -> Deal:
    """The deal of a layout text: twelve non-blank lines, one per pile, bottom card first."""
    return read_layout([line for line in text.splitlines() if line.strip()])


@dataclass(frozen=True)
class FourteenPosition:
    piles: tuple[tuple[int, ...], ...]  # the cards left in each pile, bottom first
    removed: int                        # bitboard of the removed cards


class FourteenRules(Rules):
    """Remove the top cards of two different piles whose values total 14; win with all 52 gone."""

    game = "fourteen"

    def start(self, deal: Deal) -> FourteenPosition:
        return FourteenPosition(deal_piles(deal.cards), 0)

    def moves(self, pos: FourteenPosition) -> list[Move]:
        tops = [pile[-1] for pile in pos.piles if pile]
        out = []
        for i, a in enumerate(tops):
            for b in tops[i + 1 :]:
                if value(a) + value(b) == 14:
                    out.append(Move.remove((a, b)))
        return out

    def apply(self, pos: FourteenPosition, move: Move) -> FourteenPosition:
        gone = set(move.cards)
        piles = tuple(pile[:-1] if pile and pile[-1] in gone else pile for pile in pos.piles)
        return FourteenPosition(piles, pos.removed | move.mask)

    def won(self, pos: FourteenPosition) -> bool:
        return pos.removed == FULL

    def key(self, pos: FourteenPosition) -> int:
        # Cards leave a pile only from its top, so the removed set fixes every pile's height and
        # with it the whole position.
        return pos.removed

    def cards_left(self, pos: FourteenPosition) -> int:
        return 52 - bin(pos.removed).count("1")

    def render(self, pos: FourteenPosition) -> str:
        return layout_text(pos.piles)

    def why_illegal(self, pos: FourteenPosition, move: Move) -> str:
        if move.word is not None:
            return f"{move} is not a move of Fourteen"
        if len(move.cards) != 2:
            return f"{move}: a move removes exactly two cards"
        tops = {pile[-1]: p for p, pile in enumerate(pos.piles) if pile}
        for c in move.cards:
            if c not in tops:
                return f"{move}: {CARD_NAMES[c]} is not on top of a pile"
        a, b = move.cards
        if value(a) + value(b) != 14:
            return f"{move}: the values total {value(a) + value(b)}, not 14"
        return f"{move} is not a legal move here"  # pragma: no cover - every case is named above


# -- structural proofs of a block -----------------------------------------------------------------
#
# Two cards of one pile are never both on top, so they never leave together: every card must leave
# with a complement (values totalling 14) from ANOTHER pile. For a pair of ranks r and 14-r (r < 7)
# with n cards of each left, a pile holding more than n cards of the two ranks has, say, a of rank r
# and b of rank 14-r with a + b > n: its a cards of rank r need a partners among the n - b cards of
# rank 14-r outside the pile, and a > n - b. (Hall's theorem: for these "different piles" graphs
# that per-pile count is also the exact condition for a cross-pile matching to exist.) The Sevens
# pair among themselves: with m left, a pile holding more than m/2 of them leaves too few partners
# outside it.


def structural_block(piles: Sequence[Sequence[int]]) -> Optional[dict]:
    """The first structural reason the layout `piles` cannot be won, as proof details, or None."""
    counts = [[0] * 14 for _ in piles]  # counts[p][v]: cards of value v in pile p
    totals = [0] * 14
    for p, pile in enumerate(piles):
        for c in pile:
            counts[p][value(c)] += 1
            totals[value(c)] += 1
    for v in (7, 1, 2, 3, 4, 5, 6):
        w = 14 - v
        for p, pile in enumerate(piles):
            a, b = counts[p][v], counts[p][w]
            if v == 7:
                m = totals[7]
                if 2 * a > m:
                    return {"rule": "sevens", "pile": p, "rank": 7, "count": a, "total": m,
                            "cards": _named(pile, (7,))}
                continue
            n = totals[v]
            if a + b <= n:
                continue
            # a + b > n means both a > n - b and b > n - a: either rank runs short of partners.
            # Name a lone card when one rank lies here entirely.
            short, mine, theirs = (w, b, a) if a == n else (v, a, b)
            if theirs == n:
                card = next(c for c in pile if value(c) == short)
                return {"rule": "alone", "pile": p, "card": CARD_NAMES[card], "rank": short,
                        "partner_rank": 14 - short, "total": n}
            return {"rule": "matching", "pile": p, "rank": short, "count": mine,
                    "partner_rank": 14 - short, "partners_here": theirs, "total": n,
                    "cards": _named(pile, (v, w))}
    return None


def _named(pile: Sequence[int], values: Sequence[int]) -> list[str]:
    """The names of the pile's cards of these values, bottom first: the cards a claim is about."""
    return [CARD_NAMES[c] for c in pile if value(c) in values]


def structural_sentence(d: dict) -> str:
    """The one human sentence of a structural proof's details."""
    p = d["pile"]
    if d["rule"] == "sevens":
        return (f"{count_word(d['count'])} of the {count_word(d['total'])} Sevens lie in pile {p} "
                f"({' '.join(d['cards'])}): "
                "two cards of one pile never leave together, so one of them has no partner")
    if d["rule"] == "alone":
        pr = d["partner_rank"]
        return (f"{d['card']} in pile {p} has no partner: all {count_word(d['total'])} "
                f"{rank_word(pr, 2)} lie in pile {p} too, and two cards of one pile never leave "
                "together")
    r, pr, n = d["rank"], d["partner_rank"], d["total"]
    outside = n - d["partners_here"]
    return (f"pile {p} holds {count_word(d['count'])} {rank_word(r, d['count'])} and "
            f"{count_word(d['partners_here'])} {rank_word(pr, d['partners_here'])} "
            f"({' '.join(d['cards'])}): its "
            f"{rank_word(r, 2)} need partners from other piles, where only "
            f"{count_word(outside)} {rank_word(pr, outside)} lie, since two cards of one pile "
            "never leave together")


def check_structural_fact(piles: Sequence[Sequence[int]], d: dict) -> Optional[str]:
    """None when the claim `d` holds in the layout `piles` and proves a block, else the fault."""
    try:
        rule, p = d["rule"], d["pile"]
        if isinstance(p, bool) or not isinstance(p, int) or not 0 <= p < len(piles):
            return f"there is no pile {quoted(p)}"
        pile = piles[p]

        def count(cards: Sequence[int], v: int) -> int:
            return sum(1 for c in cards if value(c) == v)

        def total(v: int) -> int:
            return sum(count(q, v) for q in piles)

        if rule == "sevens":
            here, m = count(pile, 7), total(7)
            if (d["count"], d["total"]) != (here, m):
                return f"pile {p} holds {here} of the {m} Sevens, not {d['count']} of {d['total']}"
            if 2 * here <= m:
                return f"pile {p} holds {here} of the {m} Sevens: enough partners lie elsewhere"
            if d["cards"] != _named(pile, (7,)):
                return f"the Sevens of pile {p} are {' '.join(_named(pile, (7,)))}, not {d['cards']}"
            return None
        if rule == "alone":
            c = card_index(d["card"])
            if c not in pile:
                return f"{d['card']} is not in pile {p}"
            r, pr = value(c), 14 - value(c)
            if (d["rank"], d["partner_rank"]) != (r, pr) or r == 7:
                return f"the ranks claimed do not match {d['card']}"
            if d["total"] != total(pr):
                return f"{total(pr)} {rank_word(pr, 2)} are left, not {d['total']}"
            elsewhere = total(pr) - count(pile, pr)
            if elsewhere:
                return f"{elsewhere} {rank_word(pr, elsewhere)} lie outside pile {p}"
            return None
        if rule == "matching":
            r, pr = d["rank"], d["partner_rank"]
            if r + pr != 14 or r == 7 or not 1 <= r <= 13:
                return "the ranks claimed are not complements"
            mine, theirs, n = count(pile, r), count(pile, pr), total(pr)
            if (d["count"], d["partners_here"], d["total"]) != (mine, theirs, n):
                return (f"pile {p} holds {mine} {rank_word(r, mine)} and {theirs} "
                        f"{rank_word(pr, theirs)} of {n}, not what the proof says")
            if mine <= n - theirs:
                return f"the {rank_word(r, 2)} of pile {p} have enough partners in other piles"
            if d["cards"] != _named(pile, (r, pr)):
                return (f"the {rank_word(r, 2)} and {rank_word(pr, 2)} of pile {p} are "
                        f"{' '.join(_named(pile, (r, pr)))}, not {d['cards']}")
            return None
        return f"unknown structural rule {quoted(rule)}"
    except (KeyError, TypeError, ValueError) as e:
        return f"malformed proof details ({e})"
