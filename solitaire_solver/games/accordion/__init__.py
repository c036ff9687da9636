"""Accordion: the plug-in (game.py), the reference rules (rules.py) and the compiled core
(_core.pyx), docs/accordion.md."""
