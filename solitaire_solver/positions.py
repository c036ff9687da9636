"""A game in progress: a position named by its deal and the moves played (docs/notation.md),
drawn as text or as data; the next move of a winning line; the move that threw a game away."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Iterable, Optional, Union

from .cards import SUIT_SYMBOLS
from .games import Game, resolve
from .games.rules import replay
from .moves import Move, parse_moves
from .result import Result, counted

Moves = Union[Iterable[Union[str, Move]], str, None]

_CARD = re.compile(r"\b([A2-9TJQK])([CDHS])\b")


_PRETTY = re.compile("([A2-9TJQK])([" + "".join(SUIT_SYMBOLS.values()) + "])")
_LETTER = {v: k for k, v in SUIT_SYMBOLS.items()}


def unicode_cards(text: str) -> str:
    """Card names in a text with suit symbols instead of letters: `TD` becomes `T♦`."""
    return _CARD.sub(lambda m: m.group(1) + SUIT_SYMBOLS[m.group(2)], text)


def ascii_cards(text: str) -> str:
    """Card names in a text with suit letters instead of symbols: `T♦` becomes `TD`."""
    return _PRETTY.sub(lambda m: m.group(1) + _LETTER[m.group(2)], text)


@dataclass(frozen=True)
class Position:
    """The position a deal reaches after the moves `after` (reference rules)."""

    game: str
    variant: dict
    after: tuple[Move, ...]
    text: str
    won: bool
    cards_left: int
    legal: tuple[Move, ...]
    layout: dict = field(default_factory=dict)

    @property
    def unicode(self) -> str:
        """The text with suit symbols."""
        return unicode_cards(self.text)

    @property
    def ascii(self) -> str:
        """The text with suit letters."""
        return ascii_cards(self.text)

    def to_dict(self) -> dict:
        """Everything an app needs to draw the position, as JSON-ready data."""
        return {"game": self.game, "variant": self.variant,
                "after": [str(m) for m in self.after], "won": self.won,
                "cards_left": self.cards_left, "legal": [str(m) for m in self.legal],
                "layout": self.layout, "text": self.text}

    def __str__(self) -> str:
        return self.text

    def _repr_svg_(self) -> Optional[str]:
        # Jupyter: the position drawn (pictures/notebook.py), where position() kept the deal.
        from .pictures.notebook import position_svg
        return position_svg(self)


def _start(game: Union[str, Game], deal: Any, after: Moves, variant: dict):
    g, var = resolve(game, variant)
    d = g.read(deal, var)
    moves = tuple(parse_moves(after)) if after is not None else ()
    return g, var, d, moves


def position(game: Union[str, Game], deal: Any, after: Moves = None, **variant: Any) -> Position:
    """The position after the moves `after` (MoveError naming an illegal move's number)."""
    g, var, d, moves = _start(game, deal, after, variant)
    rules = g.rules(var)
    pos = replay(rules, d, moves)
    won = rules.won(pos)
    out = Position(g.name, var, moves, rules.render(pos), won, rules.cards_left(pos),
                   () if won else tuple(rules.moves(pos)), rules.describe(pos))
    out.__dict__["_deal"] = d  # for its picture (not a field: equal positions stay equal)
    return out


@dataclass(frozen=True)
class Hint:
    """The next move of a winning line (`move`), or None: the position is already won, or no
    line wins from it (`result.proof` says why), or a limit was reached (`result.reason`)."""

    move: Optional[Move]
    result: Result

    def __str__(self) -> str:
        if self.move is not None:
            n = len(self.result.moves)
            return f"play {self.move} ({counted(n, 'move')} win{'s' if n == 1 else ''} from here)"
        if self.result.won:
            return "the position is already won"
        return str(self.result)


@dataclass(frozen=True)
class Analysis:
    """Where a line of play went wrong.

    blunder: the number (1-based) of the first move after which the game could no longer be won,
    or None (the line stays winnable, or the deal never was: see `winnable`). before: a winning
    line from the position just before the blunder; after: the proof of a block for the position
    just after it. decided: how many positions were decided.
    """

    game: str
    moves: tuple[Move, ...]
    winnable: Optional[bool]
    blunder: Optional[int] = None
    before: Optional[Result] = None
    after: Optional[Result] = None
    decided: int = 0
    reason: str = ""

    def __str__(self) -> str:
        if self.winnable is None:
            return f"unknown: {self.reason}"
        if not self.winnable:
            return "the deal could never be won: " + (self.after.proof.sentence
                                                       if self.after and self.after.proof else "")
        if self.blunder is None:
            return f"the line of {counted(len(self.moves), 'move')} stays winnable"
        assert self.before is not None and self.after is not None
        m = self.moves[self.blunder - 1]
        better = self.before.moves[0] if self.before.moves else None
        return (f"move {self.blunder} ({m}) lost the game; {better} would have kept it winnable"
                f" ({' '.join(str(x) for x in self.before.moves)})")


__all__ = ["Analysis", "Hint", "Position", "ascii_cards", "position",
           "unicode_cards"]
