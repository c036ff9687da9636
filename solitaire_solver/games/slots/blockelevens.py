"""Block Elevens: cover two number cards totalling 11 on twelve piles; court cards block their
pile, and the deal sends court cards to the bottom of the pack first (docs/block-elevens.md).

As a slot game: covering a card is removing it (the pile's next card is the slot's refill), and
the deal is won when all 40 number cards are covered, which is when the whole pack is dealt.
"""

from __future__ import annotations

from ...cards import value
from .rules import SlotRules, pairs_totalling
from .tables import slot_table

COURTS = (11, 12, 13)


def pack_as_dealt(cards: tuple[int, ...], piles: int = 12, later: str = "once"
                  ) -> tuple[int, ...]:
    """The pack in the order play deals it (docs/block-elevens.md).

    Pile by pile, while a pile shows a court card, that card goes to the bottom of the pack and
    the pile gets the next card. If no court card went so, the first court card that play would
    deal later (the first one in the rest of the pack) goes to the bottom: with later="once" it
    alone, the card after it dealt in its place whatever it is; with "while" also each court
    card dealt in its place; with "none" no card goes. Play never changes the order the pack
    deals in, so this is the same whatever the order of play."""
    layout = list(cards[:piles])
    pack = list(cards[piles:])
    moved = False
    for i in range(piles):
        while value(layout[i]) in COURTS:
            pack.append(layout[i])
            layout[i] = pack.pop(0)
            moved = True
    if not moved and later != "none":
        first = next(i for i, c in enumerate(pack) if value(c) in COURTS)
        end = first + 1
        # "while": the court cards dealt in its place, one after another, go too (up to the
        # cards already under, which are the bottom)
        while later == "while" and end < len(pack) and value(pack[end]) in COURTS:
            end += 1
        pack = pack[:first] + pack[end:] + pack[first:end]
    return tuple(layout + pack)


class BlockElevensRules(SlotRules):
    """Variant later=once, the default (docs/block-elevens.md)."""

    table = slot_table("block-elevens", later="once")
    later = "once"

    def pack_as_dealt(self, cards: tuple[int, ...]) -> tuple[int, ...]:
        return pack_as_dealt(cards, self.slots, self.later)

    def removals(self, showing: list[int]) -> list[tuple[int, ...]]:
        return pairs_totalling(showing, 11, range(1, 11))


class BlockElevensWhileRules(BlockElevensRules):
    """Variant later=while."""

    table = slot_table("block-elevens", later="while")
    later = "while"


class BlockElevensLayoutRules(BlockElevensRules):
    """Variant later=none: only the first layout's court cards go to the bottom."""

    table = slot_table("block-elevens", later="none")
    later = "none"
