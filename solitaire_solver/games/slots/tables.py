"""The slot family as data: one table entry per game (docs/architecture.md).

A slot game deals the first cards of the pack face up into a row of slots; a removal takes a group
of showing cards that the game allows, and each emptied slot is refilled from the stock. What
differs between the games is only the data below. The reference rules (solitaire_solver.games.rules)
read a game's layout and goal from it and state its removals in plain Python; the compiled core
(_slots.pyx) compiles the same entry into its own move generator and batch decider. The two stay
independent implementations of the removal rule, which the tests compare.

A new slot game: one entry here, its reference module (rules/<game>.py), tests and a docs page.
A game with a variant option has one entry per value of the option (Tens: `quartets`).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache, cached_property
from itertools import chain
from typing import Optional

from ..base import PySolFCGame

RANK_VALUES = range(1, 14)


@cache
def sum_groups(total: int, ranks: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """Every multiset of ranks from `ranks` (at most four cards of a rank) whose values total
    `total`, each as a sorted tuple: the rank multisets a `sums` removal can take."""
    ranks = tuple(sorted(set(ranks)))
    out: list[tuple[int, ...]] = []

    def extend(i: int, left: int, group: tuple[int, ...]) -> None:
        if left == 0:
            out.append(group)
            return
        if left > 4 * sum(ranks[i:]):
            return          # even every card of the ranks left falls short
        r = ranks[i]
        for n in range(min(4, left // r), -1, -1):
            extend(i + 1, left - n * r, group + (r,) * n)

    extend(0, total, ())
    return tuple(sorted(out))


@dataclass(frozen=True)
class ReserveRule:
    """Reserve slots beside the row (PySolFC's rules, docs/elevens.md, docs/tens.md).

    A showing card of a rank in `ranks` may be moved to the reserve, which holds `size` cards at
    most; when it is full, its cards leave together. same_rank: every held card is of one rank
    (Tens); else no two are (Elevens). refill_while_held: emptied slots are refilled at once even
    while the reserve holds cards (Elevens); else only while it is empty, and the slots emptied
    meanwhile wait until it empties (Tens)."""

    ranks: tuple[int, ...]
    size: int
    same_rank: bool
    refill_while_held: bool

    @property
    def confluent(self) -> bool:
        """True when holding a card never disables holding another: one card per rank, refilled
        at once (docs/proofs.md, "PySolFC's Elevens")."""
        return not self.same_rank and self.refill_while_held and self.size == len(self.ranks)


@dataclass(frozen=True)
class SlotTable:
    """One slot game.

    kinds: the removals, each a multiset of ranks (values 1..13) that leave together, one card
    per listed rank: (5, 6) is a Five and a Six, (5, 5) two Fives, (13,) a King alone.
    suited: removals of one card of each listed rank, all of one suit.
    sums: removals of any group of showing cards whose ranks are all in R and whose values total
    N, written ((N, R), ...): (15, range(1, 10)) is any group of number cards A..9 totalling 15.
    never: ranks whose cards never leave; the game is won when every other card is removed.
    bottom, bottom_later: the deal's rule for cards that may not stay in the first layout. While
    the layout shows a card of a rank in `bottom`, slot by slot, that card goes to the bottom of
    the pack and the slot is dealt the next card; when no card went so, with bottom_later="once"
    the first such card dealt later goes to the bottom once (the next card is dealt whatever it
    is), with "while" so does each such card dealt in its place, with "" none goes. The pack is
    then played as so dealt
    (the reference rules' pack_as_dealt states it in Python; the core compiles it for the batch
    decider).
    reserve: a ReserveRule, or None: reserve slots beside the row (PySolFC's rules).
    variant: the variant option values this entry plays, ((option, value), ...). Entries of one
    name are one game, one entry per combination of values, the first the default; they share
    name, aliases, summary, slots and columns.
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
    sums: tuple[tuple[int, tuple[int, ...]], ...] = ()
    never: tuple[int, ...] = ()
    bottom: tuple[int, ...] = ()
    bottom_later: str = ""
    reserve: Optional[ReserveRule] = None
    variant: tuple[tuple[str, str], ...] = ()
    #: One line per variant option, for `solitaire-solver games`: ((option, text), ...).
    variant_doc: tuple[tuple[str, str], ...] = ()
    #: How the proof's sentence counts the moves of a forced line (a plural; the singular, for
    #: one move, is it without its last letter).
    moves_noun: str = "removals"
    #: The game's page in docs/ and its test file in tests/ (Game.docs, Game.tests).
    docs: str = ""
    tests: str = ""
    #: The PySolFC games it plays (Game.pysolfc), the same in every entry of one game.
    pysolfc: tuple[PySolFCGame, ...] = ()

    def __post_init__(self) -> None:
        for group in chain(self.kinds, self.suited):
            if not group or any(r not in RANK_VALUES for r in group):
                raise ValueError(f"{self.name}: a removal of ranks {group} is not of ranks 1..13")
        for group in self.suited:
            if len(set(group)) != len(group):
                raise ValueError(f"{self.name}: a suited removal names a rank twice: {group}")
        for total, ranks in self.sums:
            if not ranks or any(r not in RANK_VALUES for r in ranks) or not sum_groups(total,
                                                                                     ranks):
                raise ValueError(f"{self.name}: no group of ranks {tuple(ranks)} totals {total}")
        if any(r not in RANK_VALUES for r in chain(self.never, self.bottom)):
            raise ValueError(f"{self.name}: never/bottom name a rank outside 1..13")
        if self.bottom_later not in ("", "once", "while"):
            raise ValueError(f"{self.name}: bottom_later is '', 'once' or 'while'")
        if self.bottom_later and not self.bottom:
            raise ValueError(f"{self.name}: bottom_later without bottom ranks")
        if 4 * len(set(self.bottom)) > 52 - self.slots:
            raise ValueError(f"{self.name}: the bottom ranks have more cards than the stock")
        res = self.reserve
        if res is not None:
            if not res.ranks or any(r not in RANK_VALUES for r in res.ranks) or not (
                    1 <= res.size <= (4 if res.same_rank else len(set(res.ranks)))):
                raise ValueError(f"{self.name}: a reserve of ranks {res.ranks} cannot fill "
                                 f"{res.size} slots")
            if set(res.ranks) & ({r for g in self.groups for r in g} | set(self.never)):
                raise ValueError(f"{self.name}: a reserve rank also leaves otherwise")
        listed = (set(self.never) | {r for g in self.groups for r in g}
                  | set(res.ranks if res else ()))
        if listed != set(RANK_VALUES):
            missing = sorted(set(RANK_VALUES) - listed)
            raise ValueError(f"{self.name}: ranks {missing} neither leave nor are listed as never")

    @cached_property
    def groups(self) -> list[tuple[int, ...]]:
        """Every rank multiset a removal may take: the kinds, the suited kinds' ranks, and each
        multiset a sums removal allows."""
        out = [tuple(g) for g in chain(self.kinds, self.suited)]
        for total, ranks in self.sums:
            out += sum_groups(total, tuple(sorted(ranks)))
        return out

    @property
    def goal(self) -> int:
        """Bitboard of the cards that must be removed to win."""
        out = 0
        for c in range(52):
            if c % 13 + 1 not in self.never:
                out |= 1 << c
        return out

    @cached_property
    def confluent(self) -> bool:
        """True when no rank takes part in two kinds of removal (nor leaves and never leaves).

        Then removals of different kinds use cards of different ranks, so they never compete for
        a card and commute, and two removals of one kind differ only in which cards of a rank
        they take, which matters only through suits (and no removal that sees suits uses those
        ranks); so every maximal line of play ends in the
        same position up to suits, and one forced line decides the deal (docs/proofs.md).

        A sums removal counts as one kind per rank multiset it allows, so one that allows two
        (as any group totalling 15 does) is never confluent: its groups compete for cards."""
        if self.reserve is not None and not self.reserve.confluent:
            return False
        seen: set[int] = set(self.never)
        for group in self.groups:
            if seen & set(group):
                return False
            seen |= set(group)
        return True


TENS_PAIRS = ((1, 9), (2, 8), (3, 7), (4, 6), (5, 5))
TENS_SUMMARY = ("thirteen slots; remove two number cards totalling 10 or four tens or court "
                "cards (variant quartets), refill from the stock; win by removing all 52 cards")
ELEVENS_DOC = (("reserves", "none: a J-Q-K set leaves from the slots (docs/elevens.md); pysolfc: each "
                            "Jack, Queen or King waits in a reserve of three, one per rank, its "
                            "slot refilled at once (PySolFC's Elevens, preset elevens-pysolfc)"),)
TENS_DOC = (("quartets", "suit: a Ten, Jack, Queen and King of one suit leave together; rank: "
                         "four Tens, Jacks, Queens or Kings"),
            ("reserves", "none: quartets leave from the slots (docs/tens.md); pysolfc: four reserves "
                         "gather four cards of one rank, Ten..King, one at a time, and emptied "
                         "slots wait until they empty (PySolFC's Tens, with quartets=rank; "
                         "preset tens-pysolfc)"))

#: PySolFC's Tens, which every entry of Tens plays.
TENS_PYSOLFC = (PySolFCGame(916, "Tens", "tens-pysolfc", rows=(7, 6), reserves=4),)

SLOT_TABLES: tuple[SlotTable, ...] = (
    *(SlotTable(
        name="elevens",
        pysolfc=(PySolFCGame(594, "Elevens", "elevens-pysolfc", rows=(3, 3, 3), reserves=3),),
        docs="elevens.md",
        tests="test_slots.py",
        aliases=("eleven",),
        summary=("nine slots; remove two number cards totalling 11 or a J-Q-K set, refill from "
                 "the stock; win by removing all 52 cards"),
        slots=9,
        columns=3,
        variant=(("reserves", value),),
        variant_doc=ELEVENS_DOC,
        **parts,
    ) for value, parts in (
        ("none", dict(
            kinds=((1, 10), (2, 9), (3, 8), (4, 7), (5, 6), (11, 12, 13)),
            rules="solitaire_solver.games.slots.elevens:ElevensRules",
            stuck_clause="no two showing cards total 11 and no J-Q-K",
            removal_rule=("only two number cards totalling 11, or a Jack, a Queen and a King, "
                          "leave together"))),
        ("pysolfc", dict(
            kinds=((1, 10), (2, 9), (3, 8), (4, 7), (5, 6)),
            reserve=ReserveRule((11, 12, 13), 3, same_rank=False, refill_while_held=True),
            moves_noun="moves",
            rules="solitaire_solver.games.slots.elevens:ElevensPySolFCRules",
            stuck_clause=("no two showing cards total 11 and no showing court card has its "
                          "rank's reserve free"),
            removal_rule=("only two number cards totalling 11 leave together; a Jack, Queen or "
                          "King goes to the reserve if it holds no card of that rank"))),
    )),
    SlotTable(
        name="block-ten",
        pysolfc=(PySolFCGame(829, "Block Ten", rows=(3, 3, 3)),),
        docs="elevens.md",
        tests="test_slots.py",
        aliases=("blockten", "block-10"),
        summary=("nine slots; remove two cards totalling 10 or two equal court cards, refill from "
                 "the stock; Tens never leave; win by removing the other 48 cards"),
        slots=9,
        columns=3,
        kinds=((1, 9), (2, 8), (3, 7), (4, 6), (5, 5), (11, 11), (12, 12), (13, 13)),
        never=(10,),
        rules="solitaire_solver.games.slots.blockten:BlockTenRules",
        stuck_clause="no two showing cards total 10 and no two showing court cards match",
        removal_rule=("only two cards totalling 10, or two Jacks, two Queens or two Kings, leave "
                      "together"),
    ),
    SlotTable(
        name="tens",
        pysolfc=TENS_PYSOLFC,
        docs="tens.md",
        tests="test_tens_fifteens.py",
        aliases=("ten",),
        summary=TENS_SUMMARY,
        slots=13,
        columns=7,
        kinds=TENS_PAIRS,
        suited=((10, 11, 12, 13),),
        variant=(("quartets", "suit"), ("reserves", "none")),
        variant_doc=TENS_DOC,
        rules="solitaire_solver.games.slots.tens:TensRules",
        stuck_clause=("no two showing number cards total 10 and no Ten, Jack, Queen and King of "
                      "one suit show"),
        removal_rule=("only two number cards (A..9) totalling 10, or a Ten, Jack, Queen and King "
                      "of one suit, leave together"),
    ),
    SlotTable(
        name="tens",
        pysolfc=TENS_PYSOLFC,
        docs="tens.md",
        tests="test_tens_fifteens.py",
        aliases=("ten",),
        summary=TENS_SUMMARY,
        slots=13,
        columns=7,
        kinds=TENS_PAIRS + ((10, 10, 10, 10), (11, 11, 11, 11), (12, 12, 12, 12),
                            (13, 13, 13, 13)),
        variant=(("quartets", "rank"), ("reserves", "none")),
        variant_doc=TENS_DOC,
        rules="solitaire_solver.games.slots.tens:TensRankRules",
        stuck_clause=("no two showing number cards total 10 and no four Tens, Jacks, Queens or "
                      "Kings show"),
        removal_rule=("only two number cards (A..9) totalling 10, or the four Tens, Jacks, Queens "
                      "or Kings, leave together"),
    ),
    SlotTable(
        name="tens",
        pysolfc=TENS_PYSOLFC,
        docs="tens.md",
        tests="test_tens_fifteens.py",
        aliases=("ten",),
        summary=TENS_SUMMARY,
        slots=13,
        columns=7,
        kinds=TENS_PAIRS,
        reserve=ReserveRule((10, 11, 12, 13), 4, same_rank=True, refill_while_held=False),
        moves_noun="moves",
        variant=(("quartets", "rank"), ("reserves", "pysolfc")),
        variant_doc=TENS_DOC,
        rules="solitaire_solver.games.slots.tens:TensPySolFCRules",
        stuck_clause=("no two showing number cards total 10 and no showing Ten or court card "
                      "can join the reserve"),
        removal_rule=("only two number cards (A..9) totalling 10 leave together; a Ten, Jack, "
                      "Queen or King goes to the reserve if it holds none of another rank"),
    ),
    SlotTable(
        name="fifteens",
        pysolfc=(PySolFCGame(597, "Fifteens", "fifteens-pysolfc", rows=(4, 4, 4, 4),
                             reserves=1),),
        docs="fifteens.md",
        tests="test_tens_fifteens.py",
        aliases=("fifteen",),
        summary=("sixteen slots; remove any group of number cards totalling 15 or a Ten, Jack, "
                 "Queen and King of one suit, refill from the stock; win by removing all 52 "
                 "cards"),
        slots=16,
        columns=4,
        kinds=(),
        sums=((15, (1, 2, 3, 4, 5, 6, 7, 8, 9)),),
        suited=((10, 11, 12, 13),),
        rules="solitaire_solver.games.slots.fifteens:FifteensRules",
        stuck_clause=("no group of showing number cards totals 15 and no Ten, Jack, Queen and "
                      "King of one suit show"),
        removal_rule=("only number cards (A..9) totalling 15, or a Ten, Jack, Queen and King of "
                      "one suit, leave together"),
    ),
    SlotTable(
        name="simple-pairs",
        pysolfc=(PySolFCGame(91, "Simple Pairs", rows=(3, 3, 3)),),
        docs="simple-pairs.md",
        tests="test_simple_pairs_thirteens.py",
        aliases=("simplepairs", "jamestown"),
        summary=("nine slots; remove two cards of the same rank, refill from the stock; win by "
                 "removing all 52 cards"),
        slots=9,
        columns=3,
        kinds=tuple((v, v) for v in range(1, 14)),
        rules="solitaire_solver.games.slots.simplepairs:SimplePairsRules",
        stuck_clause="no two showing cards have the same rank",
        removal_rule="only two cards of the same rank leave together",
    ),
    SlotTable(
        name="thirteens",
        pysolfc=(PySolFCGame(593, "Thirteens", rows=(5, 5)),),
        docs="thirteens.md",
        tests="test_simple_pairs_thirteens.py",
        aliases=("thirteen",),
        summary=("ten slots in two rows of five; remove two cards totalling 13 or a King alone, "
                 "refill from the stock; win by removing all 52 cards"),
        slots=10,
        columns=5,
        kinds=((1, 12), (2, 11), (3, 10), (4, 9), (5, 8), (6, 7), (13,)),
        rules="solitaire_solver.games.slots.thirteens:ThirteensRules",
        stuck_clause="no two showing cards total 13 and no King shows",
        removal_rule="only two cards totalling 13, or a King alone, leave",
    ),
    *(SlotTable(
        name="block-elevens",
        docs="block-elevens.md",
        tests="test_tens_fifteens.py",
        aliases=("blockelevens", "block-eleven"),
        summary=("twelve piles; court cards in the first layout go to the bottom of the pack; "
                 "cover two number cards totalling 11 with the next cards, a court card blocks "
                 "its pile; win by dealing the whole pack"),
        slots=12,
        columns=4,
        kinds=((1, 10), (2, 9), (3, 8), (4, 7), (5, 6)),
        never=(11, 12, 13),
        bottom=(11, 12, 13),
        bottom_later=later,
        variant=(("later", value),),
        variant_doc=(("later", "when the first layout shows no court card, once: the first "
                               "court card dealt later goes to the bottom, once (docs/block-elevens.md); "
                               "while: so does each court card dealt in its place; none: no "
                               "card goes"),),
        moves_noun="covering moves",
        rules=f"solitaire_solver.games.slots.blockelevens:{cls}",
        stuck_clause="no two number cards on top of the piles total 11",
        removal_rule="only two number cards on top of the piles totalling 11 can be covered",
    ) for value, later, cls in (("once", "once", "BlockElevensRules"),
                                ("while", "while", "BlockElevensWhileRules"),
                                ("none", "", "BlockElevensLayoutRules"))),
)


def slot_table(name: str, **variant: str) -> SlotTable:
    """The table entry of the slot game `name` (its registry name) for the variant values given
    (the others at their defaults: the first entry of the name that matches)."""
    for t in SLOT_TABLES:
        if t.name == name and all(dict(t.variant).get(k) == v for k, v in variant.items()):
            return t
    raise KeyError(name if not variant else f"{name} {variant}")


def slot_entries(name: str) -> tuple[SlotTable, ...]:
    """Every entry of the slot game `name`, the default first."""
    out = tuple(t for t in SLOT_TABLES if t.name == name)
    if not out:
        raise KeyError(name)
    return out
