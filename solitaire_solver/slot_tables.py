"""The slot family as data: one table entry per game (docs/architecture.md).

A slot game deals the first cards of the pack face up into a row of slots; a removal takes a group
of showing cards that the game allows, and each emptied slot is refilled from the stock. What
differs between the games is only the data below. The reference rules (solitaire_solver.rules)
read a game's layout and goal from it and state its removals in plain Python; the compiled core
(_slots.pyx) compiles the same entry into its own move generator and batch decider. The two stay
independent implementations of the removal rule, which the tests compare.

A new slot game: one entry here, its reference module (rules/<game>.py), tests and a docs page.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import chain

RANK_VALUES = range(1, 14)


@dataclass(frozen=True)
class SlotTable:
    """One slot game.

    kinds: the removals, each a multiset of ranks (values 1..13) that leave together, one card
    per listed rank: (5, 6) is a Five and a Six, (5, 5) two Fives, (13,) a King alone.
    suited: removals of one card of each listed rank, all of one suit.
    never: ranks whose cards never leave; the game is won when every other card is removed.
    """

    name: str
    aliases: tuple[str, ...]
    summary: str
    slots: int
    columns: int
    kinds: tuple[tuple[int, ...], ...]
    #: "module:Class" of the reference rules (read lazily: the rules import this module).
    rules: str
    #: What "stuck" means, for the sentence of a block's proof.
    stuck_clause: str
    #: Why a group that is not a removal cannot leave, for error messages.
    removal_rule: str
    suited: tuple[tuple[int, ...], ...] = ()
    never: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        for group in chain(self.kinds, self.suited):
            if not group or any(r not in RANK_VALUES for r in group):
                raise ValueError(f"{self.name}: a removal of ranks {group} is not of ranks 1..13")
        for group in self.suited:
            if len(set(group)) != len(group):
                raise ValueError(f"{self.name}: a suited removal names a rank twice: {group}")
        listed = set(self.never) | {r for g in chain(self.kinds, self.suited) for r in g}
        if listed != set(RANK_VALUES):
            missing = sorted(set(RANK_VALUES) - listed)
            raise ValueError(f"{self.name}: ranks {missing} neither leave nor are listed as never")

    @property
    def goal(self) -> int:
        """Bitboard of the cards that must be removed to win."""
        out = 0
        for c in range(52):
            if c % 13 + 1 not in self.never:
                out |= 1 << c
        return out

    @property
    def confluent(self) -> bool:
        """True when no rank takes part in two kinds of removal (nor leaves and never leaves).

        Then removals of different kinds use cards of different ranks, so they never compete for
        a card and commute, and two removals of one kind differ only in which cards of a rank
        they take, which matters only through suits (and no removal that sees suits uses those
        ranks); so every maximal line of play ends in the
        same position up to suits, and one forced line decides the deal (docs/proofs.md)."""
        seen: set[int] = set(self.never)
        for group in chain(self.kinds, self.suited):
            if seen & set(group):
                return False
            seen |= set(group)
        return True


SLOT_TABLES: tuple[SlotTable, ...] = (
    SlotTable(
        name="elevens",
        aliases=("eleven",),
        summary=("nine slots; remove two number cards totalling 11 or a J-Q-K set, refill from "
                 "the stock; win by removing all 52 cards"),
        slots=9,
        columns=3,
        kinds=((1, 10), (2, 9), (3, 8), (4, 7), (5, 6), (11, 12, 13)),
        rules="solitaire_solver.rules.elevens:ElevensRules",
        stuck_clause="no two showing cards total 11 and no J-Q-K",
        removal_rule=("only two number cards totalling 11, or a Jack, a Queen and a King, leave "
                      "together"),
    ),
    SlotTable(
        name="block-ten",
        aliases=("blockten", "block-10"),
        summary=("nine slots; remove two cards totalling 10 or two equal court cards, refill from "
                 "the stock; Tens never leave; win by removing the other 48 cards"),
        slots=9,
        columns=3,
        kinds=((1, 9), (2, 8), (3, 7), (4, 6), (5, 5), (11, 11), (12, 12), (13, 13)),
        never=(10,),
        rules="solitaire_solver.rules.blockten:BlockTenRules",
        stuck_clause="no two showing cards total 10 and no two showing court cards match",
        removal_rule=("only two cards totalling 10, or two Jacks, two Queens or two Kings, leave "
                      "together"),
    ),
)


def slot_table(name: str) -> SlotTable:
    """The table entry of the slot game `name` (its registry name)."""
    for t in SLOT_TABLES:
        if t.name == name:
            return t
    raise KeyError(name)
