"""The slot family (a row of slots refilled from the stock): the table of games (tables.py), the
plug-in that serves every entry (game.py), the shared reference rules (rules.py) with one small
module per game, and the compiled core (_core.pyx)."""
