"""The games registry: every game the library solves, found by name, alias or preset."""

from __future__ import annotations

from functools import lru_cache
from typing import Any, Union

from ..errors import SolitaireError, UnknownGameError
from .baroness.game import Baroness
from .base import CoreAnswer, Game, Option
from .fifteens_pysolfc.game import FifteensPySolFC
from .fourteen.game import Fourteen
from .montecarlo.game import MonteCarlo
from .nestor.game import Nestor
from .pyramid.game import Pyramid
from .slots.game import slot_games
from .slots.tables import SLOT_TABLES

#: Every game, in the order `solitaire-solver games` lists them. A new game adds its import
#: above and one line here. The slot games come from their table entries (slot_tables.py).
GAMES: tuple[Game, ...] = (
    *slot_games(SLOT_TABLES),
    FifteensPySolFC(),
    Fourteen(),
    Nestor(),
    Pyramid(),
    Baroness(),
    MonteCarlo(),
)


def _index() -> dict[str, tuple[Game, dict]]:
    out: dict[str, tuple[Game, dict]] = {}
    for g in GAMES:
        for name in (g.name, *g.aliases):
            out[name] = (g, {})
        for preset, fixed in g.presets.items():
            out[preset] = (g, dict(fixed))
    return out


_BY_NAME = _index()


def normalise(name: str) -> str:
    return name.strip().lower().replace("_", "-").replace(" ", "-")


def get_game(name: str) -> tuple[Game, dict]:
    """The game called `name` (name, alias or preset) and the options a preset fixes."""
    if isinstance(name, Game):
        return name, {}
    if not isinstance(name, str):
        raise UnknownGameError(f"a game is named by text, not {name!r}")
    try:
        return _BY_NAME[normalise(name)]
    except KeyError:
        known = ", ".join(g.name for g in GAMES)
        raise UnknownGameError(f"unknown game {name!r} (games: {known})") from None


def resolve(game: Union[str, Game], variant: dict[str, Any]) -> tuple[Game, dict]:
    """The game (a Game, or its name, alias or preset) and its full variant: the options given,
    a preset's fixed ones and the defaults (VariantError, UnknownGameError, or SolitaireError for
    an option that contradicts the preset). Plain names are cached: surveys and apps resolve
    millions of them."""
    if not variant and isinstance(game, str):
        g, var = _resolve_plain(game)
        return g, dict(var)
    return _resolve(game, variant)


@lru_cache(maxsize=256)
def _resolve_plain(game: str) -> tuple[Game, dict]:
    return _resolve(game, {})


def _resolve(game: Union[str, Game], variant: dict) -> tuple[Game, dict]:
    g, fixed = get_game(game)
    for name, value in fixed.items():
        if name in variant and g.variant(**{name: variant[name]})[name] != value:
            raise SolitaireError(f"preset {game!r} fixes {name}={value}")
    return g, g.variant(**{**variant, **fixed})


def game_names() -> list[str]:
    return [g.name for g in GAMES]


__all__ = ["GAMES", "CoreAnswer", "Game", "Option", "game_names", "get_game", "resolve"]
