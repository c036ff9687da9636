"""The reference rules: pure Python, one module per game, the executable specification.

Each game's rules object turns a deal into a start position and answers, for any position, its
legal moves, the position after a move, whether it is won, its text and its key (positions with
one key are the same position). The fast core is checked against these.
"""

from .base import Rules

__all__ = ["Rules"]
