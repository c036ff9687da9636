"""The games registry: every game the library solves, found by name, alias or preset."""

from __future__ import annotations

import importlib
import pkgutil
from functools import lru_cache
from typing import Any, Union

from ..errors import SolitaireError, UnknownGameError, quoted
from .base import CoreAnswer, Game, Option


def _discovered() -> tuple[Game, ...]:
    """Every game, from the folders below this one (a folder a game, or a family: its game.py
    holds GAMES, the plug-ins it serves): the slot family first, then by folder name. A new game
    is a new folder; nothing here names it."""
    folders = sorted((m.name for m in pkgutil.iter_modules(__path__) if m.ispkg),
                     key=lambda name: (name != "slots", name))
    return tuple(g for name in folders
                 for g in importlib.import_module(f"{__name__}.{name}.game").GAMES)


#: Every game, in the order `solitaire-solver games` lists them.
GAMES: tuple[Game, ...] = _discovered()


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
        raise UnknownGameError(f"a game is named by text, not {quoted(name)}")
    try:
        return _BY_NAME[normalise(name)]
    except KeyError:
        known = ", ".join(g.name for g in GAMES)
        raise UnknownGameError(f"unknown game {quoted(name)} (games: {known})") from None


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
            raise SolitaireError(f"preset {quoted(game)} fixes {name}={value}")
    return g, g.variant(**{**variant, **fixed})


def game_names() -> list[str]:
    return [g.name for g in GAMES]


__all__ = ["GAMES", "CoreAnswer", "Game", "Option", "game_names", "get_game", "resolve"]
