"""Pictures (docs/pictures.md): a position as one standalone SVG, an answer as one offline HTML
page to step through.

The drawing reads the reference rules' positions (positions.py replays the moves); each game
names its shape in `Game.picture` (shapes.py), so generic code never asks which game it draws.
"""

from __future__ import annotations

from typing import Any, Iterable, Optional, Union

from ..api import _resolve, replay
from ..errors import MoveError, SolitaireError
from ..games import Game
from ..moves import Move, parse_moves
from .shapes import SHAPES, draw

Moves = Union[Iterable[Union[str, Move]], str, None]


def render_svg(game: Union[str, Game], deal: Any, variant: Optional[dict] = None,
               after: Moves = None, mark: Union[str, Move, None] = None) -> str:
    """The position the moves `after` reach, drawn as one standalone SVG document.

    variant: the game's options (a dict, e.g. {"passes": 1}); mark: a legal move whose cards are
    outlined, as the page marks the cards a move is about to remove. MoveError names an illegal
    move by its number.
    """
    g, var = _resolve(game, dict(variant or {}))
    rules = g.rules(var)
    d = g.read(deal, var)
    moves = tuple(parse_moves(after)) if after is not None else ()
    pos = replay(rules, d, moves)
    marked: tuple[int, ...] = ()
    if mark is not None:
        m = mark if isinstance(mark, Move) else parse_moves(mark)[0]
        if m not in rules.moves(pos):
            raise MoveError(f"mark {m}: {rules.why_illegal(pos, m)}")
        marked = m.cards
    title = f"{g.name} after {len(moves)} moves" if moves else f"{g.name}: the deal"
    return draw(g, rules, pos, marked, title).to_svg()


def render_html(game: Union[str, Game], deal: Any, result: Any,
                variant: Optional[dict] = None) -> str:
    """One self-contained HTML page (no external references) of an answer: the deal, the
    verdict, and the positions of its line to step through, the cards each move removes
    marked before they go; for a block the stuck position and the proof sentence.

    result: a Result of solve() for this deal; variant: its variant (default: the result's).
    """
    from .html import page

    # The game first: another game's result has variant options this game may not have.
    g, _ = _resolve(game, {})
    if result.game != g.name:
        raise SolitaireError(f"the result is for {result.game}, not {g.name}")
    g, var = _resolve(game, dict(result.variant if variant is None else variant))
    return page(g, var, g.read(deal, var), result)


__all__ = ["SHAPES", "draw", "render_html", "render_svg"]
