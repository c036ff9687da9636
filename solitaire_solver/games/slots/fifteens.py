"""Fifteens: any group of number cards totalling 15 and suit quartets of Tens and court cards,
from sixteen slots (docs/fifteens.md)."""

from __future__ import annotations

from ...cards import value
from .rules import SlotRules, groups_totalling, suit_quartets
from .tables import slot_table


class FifteensRules(SlotRules):
    table = slot_table("fifteens")

    def removals(self, showing: list[int]) -> list[tuple[int, ...]]:
        numbers = [c for c in showing if value(c) <= 9]
        return groups_totalling(numbers, 15) + suit_quartets(showing, (10, 11, 12, 13))
