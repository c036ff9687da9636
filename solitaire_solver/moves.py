"""Moves and their text form (docs/notation.md)."""

from __future__ import annotations

import re
import sys
import types
from dataclasses import dataclass
from typing import Any, Iterable, Optional

from .cards import CARD_NAMES, card_index, indexes, mask
from .errors import CardError, MoveError, quoted

#: The single-word moves, in the order of their flag bits in the core's move words (bit 52 up).
#: This is the one definition: the compiled cores read their words through word_code().
WORDS = ("draw", "recycle", "discard", "deal", "consolidate", "redeal")
_WORD_SHIFT = 52
_CARD_BITS = (1 << 52) - 1
#: The flag of a move that puts one card into a reserve (slot games under PySolFC's rules): the
#: card's bit with this one. The top bit, clear of the words' flags.
RESERVE_FLAG = 1 << 63
_RESERVE_TEXT = re.compile(r"^(\S+?)\s*>\s*R$", re.IGNORECASE)
#: A move of one card onto a pile (Baroness with `to_empty`: an empty pile; Fifteens under
#: PySolFC's rules: a reserve card onto one of the sixteen rows), written `QH>3`: the card's bit
#: with the pile's number (1..MAX_PILE) in the 5-bit field at PILE_SHIFT, clear of the words'
#: flags (bits 52..57) and of RESERVE_FLAG.
PILE_SHIFT = 58
MAX_PILE = 16
_PILE_FIELD = 31 << PILE_SHIFT
_PILE_TEXT = re.compile(r"^(\S+?)\s*>\s*(\S*)$")
#: Named places (Calculation): a card onto foundation n (`7H>F2`) or tableau pile n (`7H>P3`),
#: n = 1..MAX_PLACE. Their codes use the same 5-bit field above the numbered piles: F n is
#: MAX_PILE + n, P n is MAX_PILE + MAX_PLACE + n, so no two moves share a code.
PLACES = ("F", "P")
MAX_PLACE = 4
#: A pile moved onto another pile (Accordion), written `QH>QS`: the moving pile's top card and the
#: top card it goes onto. Its code is both cards' bits with ONTO_LOW when the card of the lower
#: index moves, ONTO_HIGH when the higher one does: the flags of the first two words, which a word
#: never carries with cards.
ONTO_LOW = 1 << _WORD_SHIFT
ONTO_HIGH = 1 << (_WORD_SHIFT + 1)


def word_code(word: str) -> int:
    """The move word (a 64-bit code) of a single-word move such as `draw`."""
    return 1 << (_WORD_SHIFT + WORDS.index(word))


@dataclass(frozen=True)
class Move:
    """A removal (its cards, ascending index order), a single-word move such as `draw`, one
    card put into a reserve (`reserve`, written `JH>R`), one card moved onto the pile (or row)
    numbered `pile` (1-based, written `QH>3`), or the pile whose top is `cards[0]` moved onto the
    pile whose top is the card `onto` (written `QH>QS`; -1 for every other kind)."""

    cards: tuple[int, ...] = ()
    word: Optional[str] = None
    reserve: bool = False
    pile: int = 0
    #: "" for a numbered pile (`QH>3`), else the letter of a named place: `F` a foundation
    #: (`7H>F2`), `P` a tableau pile (`7H>P3`), numbered by `pile` (1..MAX_PLACE).
    place: str = ""
    #: The top card of the pile this pile moves onto (`QH>QS`: Accordion); -1 for every other
    #: kind of move.
    onto: int = -1

    @classmethod
    def from_text(cls, text: str) -> Move:
        """Read `5H+6C`, `KS`, `JH>R`, `QH>3`, `QH>QS` or a word; cards in any order and case."""
        if not isinstance(text, str):
            raise MoveError(f"a move is text, not {quoted(text)}")
        t = text.strip()
        if t.lower() in WORDS:
            return cls(word=t.lower())
        to_reserve = _RESERVE_TEXT.match(t)
        if to_reserve:
            try:
                return cls.to_reserve(card_index(to_reserve.group(1)))
            except CardError as e:
                raise MoveError(f"not a move: {quoted(text)} ({e})") from None
        to_pile = _PILE_TEXT.match(t)
        if to_pile:
            where = to_pile.group(2)
            if where[:1].upper() in PLACES:
                return cls._to_place(text, to_pile.group(1), where[:1].upper(), where[1:])
            if not (where.isascii() and where.isdigit()):  # "²" is a digit to isdigit()
                try:
                    target = card_index(where)
                except CardError:
                    raise MoveError(f"not a move: {quoted(text)} (after `>` comes R, a reserve, the "
                                    "number of a pile, F or P and a number, or a card)") from None
                try:
                    return cls.onto_card(card_index(to_pile.group(1)), target)
                except CardError as e:
                    raise MoveError(f"not a move: {quoted(text)} ({e})") from None
            pile = int(where)
            if not 1 <= pile <= MAX_PILE:
                raise MoveError(f"not a move: {quoted(text)} (piles are numbered from 1, at most "
                                f"{MAX_PILE})")
            try:
                return cls.to_pile(card_index(to_pile.group(1)), pile)
            except CardError as e:
                raise MoveError(f"not a move: {quoted(text)} ({e})") from None
        parts = re.split(r"\s*\+\s*", t)
        if not t or any(not p for p in parts):
            raise MoveError(f"not a move: {quoted(text)}")
        try:
            cards = [card_index(p) for p in parts]
        except CardError as e:
            raise MoveError(f"not a move: {quoted(text)} ({e})") from None
        if len(set(cards)) != len(cards):
            raise MoveError(f"not a move: {quoted(text)} names a card twice")
        return cls(cards=tuple(sorted(cards)))

    @classmethod
    def _to_place(cls, text: str, card: str, place: str, number: str) -> Move:
        if not (number.isascii() and number.isdigit()) or not 1 <= int(number) <= MAX_PLACE:
            raise MoveError(f"not a move: {quoted(text)} ({place} is followed by a number 1..{MAX_PLACE})")
        try:
            return cls.to_place(card_index(card), place, int(number))
        except CardError as e:
            raise MoveError(f"not a move: {quoted(text)} ({e})") from None

    @classmethod
    def to_place(cls, card: int, place: str, number: int) -> Move:
        """The move putting `card` onto foundation (`place` "F") or tableau pile ("P") `number`
        (1-based): `7H>F2`, `7H>P3`."""
        _check_card(card)
        if place not in PLACES:
            raise MoveError(f"a place is one of {', '.join(PLACES)}, not {quoted(place)}")
        if (isinstance(number, bool) or not isinstance(number, int)
                or not 1 <= number <= MAX_PLACE):
            raise MoveError(f"{place} is numbered 1..{MAX_PLACE}, not {quoted(number)}")
        return cls(cards=(card,), pile=number, place=place)

    @classmethod
    def remove(cls, cards: Iterable[int]) -> Move:
        """The removal of `cards`: card indexes 0..51, each once, at least one (as from_text)."""
        try:
            cs = tuple(cards)
        except TypeError:
            raise MoveError(f"a removal is a list of card indexes, not {quoted(cards)}") from None
        for c in cs:
            if type(c) is not int or not 0 <= c < 52:
                _check_card(c, f" in the removal {quoted(list(cs))}")
        if not cs:
            raise MoveError("a removal takes at least one card, not none")
        if len(set(cs)) != len(cs):
            twice = next(c for c in cs if cs.count(c) > 1)
            raise MoveError(f"a removal names each card once: {CARD_NAMES[twice]} ({twice}) is "
                            f"twice in {quoted(list(cs))}")
        return cls(cards=tuple(sorted(cs)))

    @classmethod
    def to_reserve(cls, card: int) -> Move:
        """The move putting `card` into a reserve."""
        _check_card(card)
        return cls(cards=(card,), reserve=True)

    @classmethod
    def to_pile(cls, card: int, pile: int) -> Move:
        """The move putting `card` onto the pile (or row) numbered `pile` (1-based)."""
        _check_card(card)
        if isinstance(pile, bool) or not isinstance(pile, int) or not 1 <= pile <= MAX_PILE:
            raise MoveError(f"a pile is numbered 1..{MAX_PILE}, not {quoted(pile)}")
        return cls(cards=(card,), pile=pile)

    @classmethod
    def onto_card(cls, card: int, onto: int) -> Move:
        """The move of the pile whose top is `card` onto the pile whose top is `onto`."""
        _check_card(card)
        _check_card(onto)
        if card == onto:
            raise MoveError(f"a pile does not move onto itself ({CARD_NAMES[card]})")
        return cls(cards=(card,), onto=onto)

    @classmethod
    def from_code(cls, code: int) -> Move:
        """The move of a core move word: card bits 0..51, word flags from bit 52 (MoveError for a
        code that no move has)."""
        if isinstance(code, bool) or not isinstance(code, int):
            raise MoveError(f"a move code is an integer, not {quoted(code)}")
        return _KNOWN_MOVES[code]

    @property
    def code(self) -> int:
        if self.word is not None:
            return word_code(self.word)
        if self.onto >= 0:
            return (mask(self.cards) | 1 << self.onto
                    | (ONTO_LOW if self.cards[0] < self.onto else ONTO_HIGH))
        field = self.pile
        if self.place:
            field += MAX_PILE + MAX_PLACE * PLACES.index(self.place)
        return mask(self.cards) | (RESERVE_FLAG if self.reserve else 0) | field << PILE_SHIFT

    @property
    def mask(self) -> int:
        """The bitboard of the cards the move takes from the layout."""
        return mask(self.cards)

    def __str__(self) -> str:
        if self.word is not None:
            return self.word
        if self.reserve:
            return CARD_NAMES[self.cards[0]] + ">R"
        if self.pile:
            return f"{CARD_NAMES[self.cards[0]]}>{self.place}{self.pile}"
        if self.onto >= 0:
            return f"{CARD_NAMES[self.cards[0]]}>{CARD_NAMES[self.onto]}"
        return "+".join(CARD_NAMES[c] for c in self.cards)

    def __repr__(self) -> str:
        return f"Move.from_text({str(self)!r})"


def _check_card(card: object, where: str = "") -> None:
    if isinstance(card, bool) or not isinstance(card, int) or not 0 <= card < 52:
        raise MoveError(f"not a card index: {quoted(card)}{where} (cards are indexes 0..51)")


def _from_code(code: int) -> Move:
    """The move whose code is `code`; MoveError when no move has it."""
    if not 0 <= code < 1 << 64:
        raise MoveError(f"not a move code: {quoted(code)} (codes are unsigned 64-bit words)")
    move = _decode(code)
    # Decoding reads only some fields, so a code with stray bits (two words, a word with cards,
    # a pile number and the reserve flag, a pile onto itself) would pass for another move: the
    # move's own code and shape must agree.
    one_card = move.reserve or move.pile or move.onto >= 0
    if (move.code != code or move.pile > (MAX_PLACE if move.place else MAX_PILE)
            or (move.word is None and not move.cards) or (one_card and len(move.cards) != 1)
            or (move.onto >= 0 and move.cards == (move.onto,))):
        raise MoveError(f"not a move code: {code} ({code:#x}): no move has it")
    return move


def _decode(code: int) -> Move:
    if code & RESERVE_FLAG:
        return Move(cards=tuple(indexes(code & _CARD_BITS)), reserve=True)
    flags = code & ~_CARD_BITS
    if flags in (ONTO_LOW, ONTO_HIGH) and bin(code & _CARD_BITS).count("1") == 2:
        low, high = indexes(code & _CARD_BITS)
        return Move(cards=(low,), onto=high) if flags == ONTO_LOW else Move(cards=(high,), onto=low)
    if code & _PILE_FIELD:
        field = (code & _PILE_FIELD) >> PILE_SHIFT
        cards = tuple(indexes(code & _CARD_BITS))
        if MAX_PILE < field <= MAX_PILE + MAX_PLACE * len(PLACES):
            k, n = divmod(field - MAX_PILE - 1, MAX_PLACE)
            return Move(cards=cards, pile=n + 1, place=PLACES[k])
        return Move(cards=cards, pile=field)
    flags = (code >> _WORD_SHIFT) & ((1 << len(WORDS)) - 1)
    if flags:
        return Move(word=WORDS[flags.bit_length() - 1])
    return Move(cards=tuple(indexes(code & _CARD_BITS)))


class _KnownMoves(dict):
    """Moves by code, made once: the same few thousand removals recur across deals, and Moves
    are immutable. A line's moves are looked up in C (dict.__getitem__), without the Python
    frame an lru_cache's wrapper adds to each (docs/notes/benchmarks-history.md)."""

    def __missing__(self, code: int) -> Move:
        if len(self) >= 1 << 16:
            self.clear()  # bounded
        move = self[code] = _from_code(code)
        return move


_KNOWN_MOVES = _KnownMoves()


def from_codes(codes: Iterable[int]) -> list[Move]:
    """The moves of a core's line of move words (Move.from_code of each)."""
    return list(map(_KNOWN_MOVES.__getitem__, codes))


def _split_moves(text: str) -> list[str]:
    # "QC + KH" and "JH > R" are one move each (from_text allows spaces around + and >);
    # other spaces and commas part moves
    return [m for m in re.split(r"[\s,]+", re.sub(r"\s*([+>])\s*", r"\1", text.strip())) if m]


def parse_moves(moves: Iterable) -> list[Move]:
    """Moves from Move objects or text; a string, alone or as an item of the list, may hold
    several moves separated by spaces or commas (`"QC+KH+JS 7D+4H"`)."""
    if isinstance(moves, str):
        moves = _split_moves(moves)  # "" or spaces: no moves
    elif isinstance(moves, (bytes, bytearray)):
        # a list of ints to Python, which would read as move codes: say what was given
        raise MoveError(f"moves are text or a list of moves, not bytes ({quoted(moves)})")
    try:
        items = list(moves)
    except TypeError:
        raise MoveError(f"moves are text or a list of moves, not {quoted(moves)}") from None
    out = []
    for m in items:
        if isinstance(m, Move):
            out.append(m)
            continue
        for t in (_split_moves(m) or [m]) if isinstance(m, str) else [m]:
            try:
                out.append(Move.from_text(t))
            except MoveError as e:
                raise MoveError(f"move {len(out) + 1}: {e}") from None
    return out


class _CallableModule(types.ModuleType):
    """This module, which called is the verdict of every legal move: `ss.moves(game, deal,
    after=...)` (solver.moves, docs/difficulty.md). The issue names the call ss.moves, and the
    package's attribute `moves` is this module: called, the module answers it, and
    `ss.moves.Move`, `import solitaire_solver.moves` keep working."""

    def __call__(self, game: Any, deal: Any, after: Any = None, **options: Any) -> list:
        from .solver import moves
        return moves(game, deal, after, **options)


sys.modules[__name__].__class__ = _CallableModule
