"""Pictures (docs/pictures.md): a position as one standalone SVG, an answer as one offline HTML
page to step through.

The drawing reads the reference rules' positions (positions.py replays the moves); each game
names its shape in `Game.picture` (shapes.py), so generic code never asks which game it draws.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Iterable, Optional, Union

from ..errors import MoveError, SolitaireError, VariantError, quoted
from ..games import Game, resolve
from ..games.rules import replay
from ..moves import Move, parse_moves
from ..result import Result, Status, counted
from .shapes import SHAPES, draw

Moves = Union[Iterable[Union[str, Move]], str, None]


def _options(variant: Any) -> dict:
    """The variant options given as a dict; the game's variant() then checks names and values,
    as solve() does with its keyword options."""
    if variant is None:
        return {}
    if not isinstance(variant, Mapping):
        raise VariantError(f"variant is a dict of the game's options, e.g. {{'passes': 1}}, not "
                           f"{quoted(variant)}")
    for name in variant:
        if not isinstance(name, str):
            raise VariantError(f"variant option names are text, not {quoted(name)}")
    return dict(variant)


def render_svg(game: Union[str, Game], deal: Any, variant: Optional[dict] = None,
               after: Moves = None, mark: Union[str, Move, None] = None) -> str:
    """The position the moves `after` reach, drawn as one standalone SVG document.

    variant: the game's options (a dict, e.g. {"passes": 1}); mark: a legal move whose cards are
    outlined, as the page marks the cards a move is about to remove. MoveError names an illegal
    move by its number.
    """
    g, var = resolve(game, _options(variant))
    rules = g.rules(var)
    d = g.read(deal, var)
    moves = tuple(parse_moves(after)) if after is not None else ()
    pos = replay(rules, d, moves)
    marked: tuple[int, ...] = ()
    if mark is not None:
        if isinstance(mark, Move):
            m = mark
        else:
            given = parse_moves(mark)
            if len(given) != 1:
                raise MoveError(f"mark is one move, not {len(given)}: {quoted(mark)}")
            m = given[0]
        replay(rules, d, (m,), MoveError, pos, "mark")  # legal here, or MoveError saying why
        marked = m.cards
    title = f"{g.name} after {counted(len(moves), 'move')}" if moves else f"{g.name}: the deal"
    return draw(g, rules, pos, marked, title).to_svg()


def render_html(game: Union[str, Game], deal: Any, result: Any,
                variant: Optional[dict] = None) -> str:
    """One self-contained HTML page (no external references) of an answer: the deal, the
    verdict, and the positions of its line to step through, the cards each move removes
    marked before they go; for a block the stuck position and the proof sentence.

    result: a Result of solve() for this deal; variant: its variant (default: the result's).
    """
    from .html import page

    if not isinstance(result, Result):
        raise SolitaireError(f"result is what solve() returned for this deal, not {quoted(result)}")
    if not isinstance(result.status, Status):
        # The page reads the status's value into its markup, and its verdict from it.
        raise SolitaireError(f"the result's status is a Status (WON, BLOCKED or UNKNOWN), not "
                             f"{result.status!r:.60}")
    # The game first: another game's result has variant options this game may not have.
    g, _ = resolve(game, {})
    if result.game != g.name:
        raise SolitaireError(f"the result is for {result.game}, not {g.name}")
    g, var = resolve(game, _options(result.variant if variant is None else variant))
    return page(g, var, g.read(deal, var), result)


__all__ = ["SHAPES", "draw", "render_html", "render_svg"]
