"""Elevens: pairs totalling 11 and J-Q-K triples, from nine slots (docs/elevens.md)."""

from __future__ import annotations

from itertools import product

from ..cards import value
from ..slot_tables import slot_table
from .slots import SlotRules, pairs_totalling


class ElevensRules(SlotRules):
    table = slot_table("elevens")

    def removals(self, showing: list[int]) -> list[tuple[int, ...]]:
        groups: list[tuple[int, ...]] = list(pairs_totalling(showing, 11, range(1, 11)))
        courts = [[c for c in showing if value(c) == v] for v in (11, 12, 13)]
        groups += [tuple(sorted(t)) for t in product(*courts)]
        return groups
