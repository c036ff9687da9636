"""solitaire_solver: decide addition-family patience deals, with a winning line or a proof.

>>> import solitaire_solver as ss
>>> r = ss.solve("elevens", ss.random_deal(3))
>>> r.status, len(r.moves)
(<Status.WON: 'won'>, 24)
"""

from .api import verify
from .cards import card_index, card_name
from .deal import Deal, random_deal
from .errors import (
    CardError,
    DealError,
    LayoutError,
    MoveError,
    SolitaireError,
    UnknownGameError,
    VariantError,
    VerificationError,
)
from .games import GAMES, Game, get_game
from .moves import Move
from .pictures import render_html, render_svg
from .positions import Analysis, Hint, Position, position
from .pysolfc import PySolFCError, pysolfc_deal
from .rating import Critical, MoveVerdict, RatedDeal, Rating, deals
from .result import BlockProof, Result, Status, Verification
from .solver import Solver, analyze, hint, rate, solve
from .survey.runner import SurveyResult, survey, wilson_interval

__version__ = "0.1.0"

__all__ = [
    "GAMES",
    "Analysis",
    "BlockProof",
    "CardError",
    "Deal",
    "DealError",
    "Game",
    "Hint",
    "LayoutError",
    "Critical",
    "Move",
    "MoveVerdict",
    "MoveError",
    "Position",
    "PySolFCError",
    "RatedDeal",
    "Rating",
    "Result",
    "SolitaireError",
    "Solver",
    "Status",
    "SurveyResult",
    "UnknownGameError",
    "VariantError",
    "Verification",
    "VerificationError",
    "analyze",
    "card_index",
    "card_name",
    "deals",
    "get_game",
    "hint",
    "position",
    "pysolfc_deal",
    "random_deal",
    "rate",
    "render_html",
    "render_svg",
    "solve",
    "survey",
    "verify",
    "wilson_interval",
]
