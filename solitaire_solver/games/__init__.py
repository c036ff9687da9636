"""The games registry: every game the library solves, found by name, alias or preset."""

from __future__ import annotations

from ..errors import UnknownGameError
from ..slot_tables import SLOT_TABLES
from .baroness import Baroness
from .base import CoreAnswer, Game, Option
from .fifteens_pysolfc import FifteensPySolFC
from .fourteen import Fourteen
from .montecarlo import MonteCarlo
from .nestor import Nestor
from .pyramid import Pyramid
from .slots import slot_games

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


def game_names() -> list[str]:
    return [g.name for g in GAMES]


__all__ = ["GAMES", "CoreAnswer", "Game", "Option", "game_names", "get_game"]
