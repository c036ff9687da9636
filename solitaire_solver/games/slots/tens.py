"""Tens: pairs of number cards totalling 10 and quartets of Tens and court cards, from thirteen
slots (docs/tens.md)."""

from __future__ import annotations

from ...cards import value
from .rules import ReserveSlotRules, SlotRules, pairs_totalling, suit_quartets
from .tables import slot_table


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


class TensPySolFCRules(ReserveSlotRules):
    """PySolFC's Tens (its pysollib/games/pyramid.py, Tens and Tens_Reserve, refilling as
    ElevensToo does): pairs of number cards totalling 10 leave from the slots; a Ten, Jack, Queen
    or King goes to one of four reserves if they hold no card of another rank; when all four
    hold a card, the four leave. Emptied slots are refilled only while the reserves are empty:
    those emptied while they hold cards wait until the four leave."""

    table = slot_table("tens", quartets="rank", reserves="pysolfc")
    reserve_size = 4
    refill_while_held = False

    def removals(self, showing: list[int]) -> list[tuple[int, ...]]:
        return pairs_totalling(showing, 10, range(1, 10))

    def may_reserve(self, reserve: tuple[int, ...], card: int) -> bool:
        return value(card) in (10, 11, 12, 13) and all(value(c) == value(card) for c in reserve)
