"""A game in progress: a position named by its deal and the moves played (docs/notation.md),
drawn as text or as data; the next move of a winning line; the move that threw a game away."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Iterable, Optional, Union

from .api import _resolve, replay, solve
from .cards import SUIT_SYMBOLS
from .errors import SolitaireError
from .games import Game, get_game
from .moves import Move, parse_moves
from .result import Result, Status, counted

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


def _start(game: Union[str, Game], deal: Any, after: Moves, variant: dict):
    g, var = _resolve(game, variant)
    d = g.read(deal, var)
    moves = tuple(parse_moves(after)) if after is not None else ()
    return g, var, d, moves


def position(game: Union[str, Game], deal: Any, after: Moves = None, **variant: Any) -> Position:
    """The position after the moves `after` (MoveError naming an illegal move's number)."""
    g, var, d, moves = _start(game, deal, after, variant)
    rules = g.rules(var)
    pos = replay(rules, d, moves)
    won = rules.won(pos)
    return Position(g.name, var, moves, rules.render(pos), won, rules.cards_left(pos),
                    () if won else tuple(rules.moves(pos)), rules.describe(pos))


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


def _winning_objective(kwargs: dict, caller: str) -> None:
    # The score objective answers WON with its best line even when that line leaves cards
    # (docs/pyramid.md): a hint or an analysis built on it would call a lost game winnable.
    objective = kwargs.get("objective", "decide")
    if objective not in ("decide", "shortest"):
        raise SolitaireError(f"{caller} follows a winning line: objective is decide or shortest, "
                             f"not {objective!r}")


def hint(game: Union[str, Game], deal: Any, after: Moves = None, **kwargs: Any) -> Hint:
    """The next move of a winning line from the position after `after`, or the proof that none
    wins. kwargs: solve()'s limits, its objective (decide or shortest) and the game's variant."""
    _winning_objective(kwargs, "hint")
    r = solve(game, deal, after=after, **kwargs)
    return Hint(r.moves[0] if r.won and r.moves else None, r)


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


def analyze(game: Union[str, Game], deal: Any, moves: Moves, **kwargs: Any) -> Analysis:
    """The first move of a line of play after which the game could no longer be won.

    Winnable after k moves implies winnable after every earlier move (a winning line from there
    starts with the moves that led there), so the positions are won up to some move and lost
    after it: a binary search finds the boundary deciding about log2(len) positions. kwargs:
    solve()'s limits, its objective (decide or shortest) and the game's variant; a limit reached
    leaves the answer unknown.
    """
    _winning_objective(kwargs, "analyze")
    options = get_game(game)[0].options
    given = {k: v for k, v in kwargs.items() if k.replace("-", "_") in options}
    opts = {k: v for k, v in kwargs.items() if k not in given}
    g, var, d, line = _start(game, deal, moves, given)
    replay(g.rules(var), d, line)  # every move legal, or MoveError with its number
    results: dict[int, Result] = {}

    def decide(k: int) -> Optional[bool]:
        if k not in results:
            results[k] = solve(g, d, after=line[:k], **opts, **var)
        r = results[k]
        return None if r.status is Status.UNKNOWN else r.won

    def unknown(k: int) -> Analysis:
        return Analysis(g.name, line, None, decided=len(results),
                        reason=f"after {counted(k, 'move')}: {results[k].reason}")

    end = decide(len(line))
    if end is None:
        return unknown(len(line))
    if end:
        return Analysis(g.name, line, True, decided=len(results))
    first = decide(0)
    if first is None:
        return unknown(0)
    if not first:
        return Analysis(g.name, line, False, after=results[0], decided=len(results))
    lo, hi = 0, len(line)  # won after lo moves, lost after hi
    while hi - lo > 1:
        mid = (lo + hi) // 2
        v = decide(mid)
        if v is None:
            return unknown(mid)
        lo, hi = (mid, hi) if v else (lo, mid)
    return Analysis(g.name, line, True, blunder=hi, before=results[lo], after=results[hi],
                    decided=len(results))


__all__ = ["Analysis", "Hint", "Position", "analyze", "ascii_cards", "hint", "position",
           "unicode_cards"]
