"""Cards, their text form, values and indexes (docs/notation.md)."""

from __future__ import annotations

from typing import Iterable

from .errors import CardError, quoted

RANKS = "A23456789TJQK"
SUITS = "CDHS"
SUIT_SYMBOLS = {"C": "\u2663", "D": "\u2666", "H": "\u2665", "S": "\u2660"}
_SYMBOL_SUITS = {v: k for k, v in SUIT_SYMBOLS.items()}

#: Canonical text of each card index (AC = 0 ... KS = 51).
CARD_NAMES = tuple(r + s for s in SUITS for r in RANKS)
_BY_NAME = {name: i for i, name in enumerate(CARD_NAMES)}


def card_index(text: str) -> int:
    """Index of a card written as rank then suit (case-insensitive; `10` for `T`, suit symbols)."""
    if not isinstance(text, str):
        raise CardError(f"a card is a name such as 'TD', not {quoted(text)}")
    t = text.strip().upper()
    if t.startswith("10"):
        t = "T" + t[2:]
    if len(t) == 2 and t[1] in _SYMBOL_SUITS:
        t = t[0] + _SYMBOL_SUITS[t[1]]
    try:
        return _BY_NAME[t]
    except KeyError:
        raise CardError(f"not a card: {quoted(text)}") from None


def card_name(index: int) -> str:
    """Canonical text of a card index (0..51): `TD`, `AS`."""
    # A bare CARD_NAMES[index] would wrap negative indexes round to the spades.
    if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < 52:
        raise CardError(f"not a card index: {quoted(index)} (cards are indexes 0..51)")
    return CARD_NAMES[index]


def value(index: int) -> int:
    """A = 1, 2..10 as printed, J = 11, Q = 12, K = 13."""
    return index % 13 + 1


def suit(index: int) -> int:
    """0 = clubs, 1 = diamonds, 2 = hearts, 3 = spades."""
    return index // 13


def rank_char(index: int) -> str:
    return RANKS[index % 13]


#: Each card with a unicode suit symbol: `T♦`.
CARD_PRETTY = tuple(r + SUIT_SYMBOLS[s] for s in SUITS for r in RANKS)


def pretty(index: int) -> str:
    """The card with a unicode suit symbol: `T♦`."""
    return CARD_PRETTY[index]


def mask(indexes: Iterable[int]) -> int:
    """The bitboard of a set of card indexes."""
    m = 0
    for i in indexes:
        m |= 1 << i
    return m


def indexes(bits: int) -> list[int]:
    """The card indexes of a bitboard, ascending."""
    out = []
    while bits:
        low = bits & -bits
        out.append(low.bit_length() - 1)
        bits ^= low
    return out
