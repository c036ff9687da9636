"""Slot games (Elevens, Block Ten, Tens, ...): a row of slots refilled from the stock.

The layout and the goal come from the game's entry in solitaire_solver.games.slots.tables; each game's
module states its removals in plain Python (removals()), apart from the core's compiled form.
"""

from __future__ import annotations

from typing import NamedTuple, Optional

from ...cards import CARD_PRETTY, mask, pretty, value
from ...deal import Deal
from ...moves import Move
from ...result import counted
from ..rules import Rules
from .tables import SlotTable


class SlotPosition(NamedTuple):
    slots: tuple[Optional[int], ...]  # card index, or None for an empty slot
    stock: tuple[int, ...]            # next card first
    removed: int                      # bitboard of the removed cards

    @property
    def showing(self) -> list[int]:
        return [c for c in self.slots if c is not None]


class SlotRules(Rules):
    """Deal the first `slots` cards face up; after a removal refill the emptied slots from the
    stock, lowest slot first, one card each, while the stock lasts."""

    table: SlotTable

    def __init__(self) -> None:
        self.game = self.table.name
        self.slots = self.table.slots
        self.columns = self.table.columns
        self.removal_rule = self.table.removal_rule
        #: Bitboard of the cards that must be removed to win.
        self.goal = self.table.goal

    def pack_as_dealt(self, cards: tuple[int, ...]) -> tuple[int, ...]:
        """The pack in the order play deals it: the deal itself, unless the game's deal moves
        cards first (Block Elevens sends court cards to the bottom)."""
        return tuple(cards)

    def start(self, deal: Deal) -> SlotPosition:
        cards = self.pack_as_dealt(deal.cards)
        return SlotPosition(tuple(cards[: self.slots]), tuple(cards[self.slots :]), 0)

    def removals(self, showing: list[int]) -> list[tuple[int, ...]]:
        """Every set of showing cards that may leave together."""
        raise NotImplementedError

    def moves(self, pos: SlotPosition) -> list[Move]:
        return [Move.remove(group) for group in self.removals(sorted(pos.showing))]

    def apply(self, pos: SlotPosition, move: Move) -> SlotPosition:
        slots = list(pos.slots)
        stock = list(pos.stock)
        gone = set(move.cards)
        for i, c in enumerate(slots):
            if c in gone:
                slots[i] = stock.pop(0) if stock else None
        return SlotPosition(tuple(slots), tuple(stock), pos.removed | move.mask)

    def won(self, pos: SlotPosition) -> bool:
        return pos.removed & self.goal == self.goal

    def key(self, pos: SlotPosition) -> int:
        # Which slot a card sits in never matters to play; the removed set fixes the rest: the
        # stock has dealt exactly one card per removed card.
        return pos.removed

    def cards_left(self, pos: SlotPosition) -> int:
        return bin(self.goal & ~pos.removed).count("1")

    def why_illegal(self, pos: SlotPosition, move: Move) -> str:
        if move.word is not None:
            return f"{move} is not a move of {self.game}"
        hidden = [c for c in move.cards if c not in pos.showing]
        if hidden:
            return f"{move}: {Move.remove(hidden[:1])} is not showing"
        return f"{move}: {self.removal_rule}"

    def render(self, pos: SlotPosition) -> str:
        cells = [" " + CARD_PRETTY[c] if c is not None else "  ." for c in pos.slots]
        rows = [" ".join(cells[i : i + self.columns]) for i in range(0, len(cells), self.columns)]
        nxt = f", next {pretty(pos.stock[0])}" if pos.stock else ""
        rows.append(f"stock: {counted(len(pos.stock), 'card')}{nxt}")
        return "\n".join(rows)


class ReservePosition(NamedTuple):
    slots: tuple[Optional[int], ...]  # card index, or None for an empty slot
    stock: tuple[int, ...]            # next card first
    removed: int                      # bitboard of the removed cards
    reserve: tuple[int, ...]          # the cards in the reserve, in the order they came

    @property
    def showing(self) -> list[int]:
        return [c for c in self.slots if c is not None]


class ReserveSlotRules(SlotRules):
    """A slot game with reserve slots beside the row, as PySolFC plays it: besides the removals,
    a showing card may go to the reserve (may_reserve says which); when the reserve is full its
    cards leave together. Emptied slots are refilled, lowest first, at once or (refill_while_held
    False) only while the reserve is empty."""

    reserve_moves = True

    #: How many cards fill the reserve (its cards then leave).
    reserve_size: int
    refill_while_held: bool

    def may_reserve(self, reserve: tuple[int, ...], card: int) -> bool:
        """True when `card` may join the cards `reserve` holds (the reserve is not full)."""
        raise NotImplementedError

    def start(self, deal: Deal) -> ReservePosition:
        pos = super().start(deal)
        return ReservePosition(pos.slots, pos.stock, 0, ())

    def moves(self, pos: ReservePosition) -> list[Move]:
        showing = sorted(pos.showing)
        out = [Move.remove(group) for group in self.removals(showing)]
        return out + [Move.to_reserve(c) for c in showing if self.may_reserve(pos.reserve, c)]

    def apply(self, pos: ReservePosition, move: Move) -> ReservePosition:
        slots = [None if c in move.cards else c for c in pos.slots]
        stock = list(pos.stock)
        removed, reserve = pos.removed, pos.reserve
        if move.reserve:
            reserve += move.cards
            if len(reserve) == self.reserve_size:
                removed |= mask(reserve)
                reserve = ()
        else:
            removed |= move.mask
        if self.refill_while_held or not reserve:
            for i, c in enumerate(slots):
                if c is None and stock:
                    slots[i] = stock.pop(0)
        return ReservePosition(tuple(slots), tuple(stock), removed, reserve)

    def key(self, pos: ReservePosition) -> tuple[int, int]:
        # The core's packed position: removed, and in aux the reserve's cards and (bits 52 up)
        # the slots waiting for a refill while cards remain in the stock; with the removed and
        # held cards this fixes how many cards the stock has dealt.
        waiting = pos.slots.count(None) if pos.stock else 0
        return pos.removed, mask(pos.reserve) | waiting << 52

    def why_illegal(self, pos: ReservePosition, move: Move) -> str:
        if move.reserve and move.cards[0] in pos.showing:
            return f"{move}: the reserve does not take it ({self.removal_rule})"
        return super().why_illegal(pos, move)

    def render(self, pos: ReservePosition) -> str:
        rows = super().render(pos).split("\n")
        held = " ".join(CARD_PRETTY[c] for c in pos.reserve) or "empty"
        return "\n".join(rows[:-1] + [f"reserve: {held}", rows[-1]])


def pairs_totalling(showing: list[int], total: int, values: range) -> list[tuple[int, int]]:
    """Every pair of showing cards with values in `values` totalling `total`."""
    out = []
    for i, a in enumerate(showing):
        for b in showing[i + 1 :]:
            if value(a) in values and value(b) in values and value(a) + value(b) == total:
                out.append((a, b))
    return out


def groups_totalling(cards: list[int], total: int) -> list[tuple[int, ...]]:
    """Every set of the given cards whose values total `total`, each set once: a set is built
    from cards in list order, so no set is reached twice."""
    out: list[tuple[int, ...]] = []

    def extend(start: int, left: int, group: tuple[int, ...]) -> None:
        if left == 0:
            out.append(group)
            return
        for i in range(start, len(cards)):
            if value(cards[i]) <= left:
                extend(i + 1, left - value(cards[i]), group + (cards[i],))

    extend(0, total, ())
    return out


def suit_quartets(showing: list[int], values: tuple[int, ...]) -> list[tuple[int, ...]]:
    """For each suit whose cards of all the given values show, those cards."""
    out = []
    for s in range(4):
        group = tuple(13 * s + v - 1 for v in values)
        if all(c in showing for c in group):
            out.append(group)
    return out
