"""Block Ten: pairs totalling 10 and pairs of equal court cards; Tens never leave (docs/elevens.md)."""

from __future__ import annotations

from ...cards import value
from .rules import SlotRules, pairs_totalling
from .tables import slot_table


class BlockTenRules(SlotRules):
    table = slot_table("block-ten")

    def removals(self, showing: list[int]) -> list[tuple[int, ...]]:
        groups = pairs_totalling(showing, 10, range(1, 10))
        for v in (11, 12, 13):
            courts = [c for c in showing if value(c) == v]
            groups += [(a, b) for i, a in enumerate(courts) for b in courts[i + 1 :]]
        return groups
