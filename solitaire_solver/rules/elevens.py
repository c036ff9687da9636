"""Elevens: pairs totalling 11 and J-Q-K triples, from nine slots (RULES.md, "Elevens")."""

from __future__ import annotations

from itertools import product

from ..cards import value
from .slots import SlotRules, pairs_totalling


class ElevensRules(SlotRules):
    game = "elevens"
    removal_rule = "only two number cards totalling 11, or a Jack, a Queen and a King, leave together"

    def removals(self, showing: list[int]) -> list[tuple[int, ...]]:
        groups: list[tuple[int, ...]] = list(pairs_totalling(showing, 11, range(1, 11)))
        courts = [[c for c in showing if value(c) == v] for v in (11, 12, 13)]
        groups += [tuple(sorted(t)) for t in product(*courts)]
        return groups
