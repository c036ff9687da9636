"""Thirteens: pairs totalling 13 and lone Kings, from ten slots (docs/thirteens.md)."""

from __future__ import annotations

from ...cards import value
from .rules import SlotRules, pairs_totalling
from .tables import slot_table


class ThirteensRules(SlotRules):
    table = slot_table("thirteens")

    def removals(self, showing: list[int]) -> list[tuple[int, ...]]:
        kings: list[tuple[int, ...]] = [(c,) for c in showing if value(c) == 13]
        return list(pairs_totalling(showing, 13, range(1, 13))) + kings
