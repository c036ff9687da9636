"""Block Ten: pairs totalling 10 and pairs of equal court cards; Tens never leave (RULES.md)."""

from __future__ import annotations

from ..cards import value
from .slots import SlotRules, pairs_totalling

TENS = (1 << 9) | (1 << 22) | (1 << 35) | (1 << 48)


class BlockTenRules(SlotRules):
    game = "block-ten"
    goal = ((1 << 52) - 1) & ~TENS
    removal_rule = "only two cards totalling 10, or two Jacks, two Queens or two Kings, leave together"

    def removals(self, showing: list[int]) -> list[tuple[int, ...]]:
        groups = pairs_totalling(showing, 10, range(1, 10))
        for v in (11, 12, 13):
            courts = [c for c in showing if value(c) == v]
            groups += [(a, b) for i, a in enumerate(courts) for b in courts[i + 1 :]]
        return groups
