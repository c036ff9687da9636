"""Tens: pairs of number cards totalling 10 and quartets of Tens and court cards, from thirteen
slots (docs/tens.md)."""

from __future__ import annotations

from ..cards import value
from ..slot_tables import slot_table
from .slots import SlotRules, pairs_totalling, suit_quartets


class TensRules(SlotRules):
    """Variant quartets=suit: a Ten, Jack, Queen and King of one suit leave together."""

    table = slot_table("tens", quartets="suit")

    def removals(self, showing: list[int]) -> list[tuple[int, ...]]:
        return pairs_totalling(showing, 10, range(1, 10)) + suit_quartets(showing, (10, 11, 12, 13))


class TensRankRules(SlotRules):
    """Variant quartets=rank: the four Tens, the four Jacks, ... leave together."""

    table = slot_table("tens", quartets="rank")

    def removals(self, showing: list[int]) -> list[tuple[int, ...]]:
        groups: list[tuple[int, ...]] = list(pairs_totalling(showing, 10, range(1, 10)))
        for v in (10, 11, 12, 13):
            four = tuple(c for c in showing if value(c) == v)
            if len(four) == 4:
                groups.append(four)
        return groups
