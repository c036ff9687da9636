"""Clock: the plug-in (game.py) and the reference rules (rules.py); no compiled core, as the game
has no choices (docs/clock.md)."""
