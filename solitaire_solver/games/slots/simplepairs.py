"""Simple Pairs: pairs of equal rank from nine slots (docs/simple-pairs.md)."""

from __future__ import annotations

from ...cards import value
from .rules import SlotRules
from .tables import slot_table


class SimplePairsRules(SlotRules):
    table = slot_table("simple-pairs")

    def removals(self, showing: list[int]) -> list[tuple[int, ...]]:
        return [(a, b) for i, a in enumerate(showing) for b in showing[i + 1 :]
                if value(a) == value(b)]
