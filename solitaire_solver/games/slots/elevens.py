"""Elevens: pairs totalling 11 and J-Q-K triples, from nine slots (docs/elevens.md)."""

from __future__ import annotations

from itertools import product

from ...cards import value
from .rules import ReserveSlotRules, SlotRules, pairs_totalling
from .tables import slot_table


class ElevensRules(SlotRules):
    table = slot_table("elevens")

    def removals(self, showing: list[int]) -> list[tuple[int, ...]]:
        groups: list[tuple[int, ...]] = list(pairs_totalling(showing, 11, range(1, 11)))
        courts = [[c for c in showing if value(c) == v] for v in (11, 12, 13)]
        groups += [tuple(sorted(t)) for t in product(*courts)]
        return groups


class ElevensPySolFCRules(ReserveSlotRules):
    """PySolFC's Elevens (its pysollib/games/pyramid.py, Elevens and Elevens_Reserve): pairs
    totalling 11 leave from the slots; a Jack, Queen or King goes to one of three reserves if
    none holds a card of its rank, and its slot is refilled at once; when all three hold a card,
    the three leave."""

    table = slot_table("elevens", reserves="pysolfc")
    reserve_size = 3
    refill_while_held = True

    def removals(self, showing: list[int]) -> list[tuple[int, ...]]:
        return list(pairs_totalling(showing, 11, range(1, 11)))

    def may_reserve(self, reserve: tuple[int, ...], card: int) -> bool:
        return value(card) in (11, 12, 13) and all(value(c) != value(card) for c in reserve)
