"""What every game's reference rules provide."""

from __future__ import annotations

import dataclasses
from abc import ABC, abstractmethod
from collections import deque
from typing import Any, Hashable, Iterable, Iterator

from ..cards import CARD_NAMES, card_index
from ..deal import Deal
from ..errors import CardError, LayoutError, MoveError, quoted
from ..moves import Move


def pile_cards(tokens: Iterable[Any], p: int, where: dict) -> list[int]:
    """The cards of pile p of a typed layout, each a card name or index (LayoutError naming the
    pile and the card's place in it for anything else, or for a card already in `where`, the
    (pile, place) of every card read so far, which it extends)."""
    cards = []
    for i, tok in enumerate(tokens, start=1):
        try:
            if isinstance(tok, bool) or not isinstance(tok, (int, str)):
                raise CardError(repr(tok))
            if isinstance(tok, int):
                if not 0 <= tok < 52:
                    raise CardError(repr(tok))
                c = tok
            else:
                c = card_index(tok)
        except CardError:
            raise LayoutError(f"pile {p}, card {i}: {quoted(tok)} is not a card") from None
        if c in where:
            q, j = where[c]
            raise LayoutError(f"pile {p}, card {i}: {CARD_NAMES[c]} is a duplicate "
                              f"(already pile {q}, card {j})")
        where[c] = (p, i)
        cards.append(c)
    return cards

class Rules(ABC):
    """The rules of one game (with its variant settings fixed)."""

    #: Registry name of the game.
    game: str = ""

    @abstractmethod
    def start(self, deal: Deal) -> Any:
        """The position after the deal."""

    @abstractmethod
    def moves(self, pos: Any) -> list[Move]:
        """Every legal move in pos, in a fixed order."""

    @abstractmethod
    def apply(self, pos: Any, move: Move) -> Any:
        """The position after move, which the caller has checked is legal."""

    @abstractmethod
    def won(self, pos: Any) -> bool:
        """True when pos is won."""

    @abstractmethod
    def render(self, pos: Any) -> str:
        """The position as a person would draw it."""

    @abstractmethod
    def key(self, pos: Any) -> Hashable:
        """Equal keys, equal positions (the key proofs and certificates use)."""

    @abstractmethod
    def cards_left(self, pos: Any) -> int:
        """Cards not yet removed (those that still count against a win)."""

    def moves_bound(self, pos: Any) -> int:
        """A lower bound on the moves of any line that wins from pos (not won): verify() checks a
        claim of the fewest moves by a search that cuts where this bound says no line is short
        enough. 1 unless a game knows better."""
        return 1

    def describe(self, pos: Any) -> dict:
        """The position as plain data for JSON, field by field: card indexes (in tuples, at any
        depth) become card names, None stays (an empty place), the `removed` bitboard becomes
        the list of removed cards, other numbers stay numbers (a pass, a count)."""
        fields = (pos._asdict() if hasattr(pos, "_asdict")
                  else {f.name: getattr(pos, f.name) for f in dataclasses.fields(pos)})
        out = {}
        for name, v in fields.items():
            if name == "removed":
                out[name] = [CARD_NAMES[c] for c in range(52) if v >> c & 1]
            else:
                out[name] = _card_data(v)
        return out

    #: Whether these rules ever move a card to a reserve (`JH>R`) or onto a pile (`QH>3`): a move
    #: of a kind they never play is refused as such, before the position's own reasons.
    reserve_moves: bool = False
    pile_moves: bool = False
    #: Whether they move a card onto a named place: a foundation or tableau pile (`7H>F2`,
    #: `7H>P3`: Calculation).
    place_moves: bool = False
    #: Whether these rules move a pile onto another pile named by its top card (`QH>QS`).
    onto_moves: bool = False

    def unknown_kind(self, move: Move) -> str:
        """Why a move of a kind these rules never play is refused, or "" for the others."""
        if move.reserve and not self.reserve_moves:
            return (f"{move}: these rules move no card to a reserve (elevens and tens do under "
                    "PySolFC's rules: reserves=pysolfc)")
        if move.place and not self.place_moves:
            return (f"{move}: these rules move no card onto a foundation or tableau pile "
                    "(calculation does)")
        if move.place and self.place_moves:
            return ""
        if move.pile and not self.pile_moves:
            return (f"{move}: these rules move no card onto a pile (baroness does under "
                    "to_empty=True, as baroness-pysolfc plays it, fifteens-pysolfc moves "
                    "the reserve's top card onto a row, and montana and montana-pysolfc a Two "
                    "into a row's first place)")
        if move.onto >= 0 and not self.onto_moves:
            return f"{move}: these rules move no pile onto another (accordion does)"
        return ""

    def why_illegal(self, pos: Any, move: Move) -> str:
        """A sentence saying why move is not legal in pos (games give better reasons)."""
        return f"{move} is not a legal move here"

    def legal(self, pos: Any, move: Move) -> bool:
        """Whether move is legal in pos: one of moves(pos). Rules may answer it without listing
        every move, where a line's replay is paid on every solve; the tests hold such an answer
        equal to the listing's on random positions."""
        return move in self.moves(pos)

    def play(self, pos: Any, move: Move) -> Any:
        """The position after move; MoveError when it is not legal in pos."""
        if not self.legal(pos, move):
            raise MoveError(self.unknown_kind(move) or self.why_illegal(pos, move))
        return self.apply(pos, move)


def walk(rules: Rules, deal: Deal, moves: Iterable[Move], error: type = MoveError,
         start: Any = None, label: str = "move {i}") -> Iterator[Any]:
    """The positions a line passes through under the reference rules, from the deal's start (or
    `start`), that one first: every move checked legal, `error` naming the first that is not by
    `label` (its number, 1-based, as {i}) and why. The one replay of a line that every verb,
    check and picture uses."""
    pos = rules.start(deal) if start is None else start
    yield pos
    for i, m in enumerate(moves, start=1):
        where = label.format(i=i)
        if rules.won(pos):
            raise error(f"{where} ({m}) comes after the deal is already won")
        if not rules.legal(pos, m):
            raise error(f"{where} ({m}): {rules.unknown_kind(m) or rules.why_illegal(pos, m)}")
        pos = rules.apply(pos, m)
        yield pos


def replay(rules: Rules, deal: Deal, moves: Iterable[Move], error: type = MoveError,
           start: Any = None, label: str = "move {i}") -> Any:
    """The position a line reaches (walk's last)."""
    return deque(walk(rules, deal, moves, error, start, label), maxlen=1)[0]


def _card_data(v: Any) -> Any:
    if isinstance(v, tuple):
        return [CARD_NAMES[x] if isinstance(x, int) and not isinstance(x, bool) else _card_data(x)
                for x in v]
    return v


class LayoutCards:
    """Reads the cards of a layout text line by line, naming the line, the place and the card of
    whatever is wrong, and refusing a card given twice (the layout readers of every game)."""

    def __init__(self) -> None:
        self.seen: dict[int, str] = {}
        self.cards: list[int] = []

    def read(self, line_no: int, where: str, words: list[str]) -> list[int]:
        """The cards of `words` (line `line_no`, the place `where`), also kept in `cards`."""
        out = []
        for k, w in enumerate(words, start=1):
            try:
                c = card_index(w)
            except CardError:
                raise LayoutError(f"line {line_no} ({where}), card {k}: {quoted(w)} is not a card"
                                  ) from None
            if c in self.seen:
                raise LayoutError(f"line {line_no} ({where}), card {k}: {CARD_NAMES[c]} is a "
                                  f"duplicate (already in {self.seen[c]})")
            self.seen[c] = where
            out.append(c)
        self.cards.extend(out)
        return out
