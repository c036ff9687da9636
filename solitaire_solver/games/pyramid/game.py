"""Pyramid: pairs totalling 13 from a pyramid of 28 cards, a stock and a waste (docs/pyramid.md)."""

from __future__ import annotations

import functools
from dataclasses import replace
from itertools import combinations
from typing import Any, Callable, Optional, Union

from ...cards import CARD_NAMES, value
from ...deal import Deal, as_deal
from ...engine.backend import core_module
from ...engine.contract import StartLook
from ...errors import VariantError, VerificationError, quoted
from ...moves import Move
from ...result import BlockProof, counted
from ..base import CoreAnswer, Game, Option, PySolFCGame, parse_bool
from ..rules import replay
from .rules import (
    CLEAR_BONUS,
    PLACES,
    PyramidRules,
    apart,
    cone,
    covering,
    passes_value,
    read_layout,
    row_of,
    under,
)


def parse_passes(text: str) -> Union[int, str]:
    t = text.strip().lower()
    if t in ("unlimited", "inf", "infinite"):
        return "unlimited"
    return int(t)


def _place_name(p: int) -> str:
    r, i = row_of(p)
    return f"row {r + 1} place {i + 1}"


def _where(pos: Any, card: int) -> str:
    if card in pos.pyramid:
        return _place_name(pos.pyramid.index(card))
    return "in the waste" if card in pos.waste else "in the stock"


#: Why two cards can never be available together (_apart): the second covers the first (it must
#: go first), lies under it (hidden while the first is there), or both are stock or waste cards
#: and the variant does not pair those.
COVERS, UNDER, BOTH_STOCK = "covers", "lies under", "stock"


def _apart(rules: PyramidRules, at: dict, x: int, y: int) -> Optional[str]:
    """Why cards x and y can never be available together, from the layout alone, or None when
    nothing keeps them apart. at: the place of each pyramid card left."""
    if x in at and y in at:
        if rules.overlap_pairs and (at[y] in covering(at[x]) or at[x] in covering(at[y])):
            return None  # overlap_pairs: a card may leave with the one card covering it
        if at[y] in cone(at[x]):
            return COVERS
        if at[y] in under(at[x]):
            return UNDER
        return None
    if x not in at and y not in at and not rules.stock_waste_pairs:
        return BOTH_STOCK
    return None


def _left_of_value(pos: Any, v: int) -> list[int]:
    # the four cards of value v are v - 1 + 13 * suit (cards.value), in index order
    return [c for c in range(v - 1, 52, 13) if not (pos.removed >> c) & 1]


def _meets(rules: PyramidRules, pos: Any, at: dict, x: int) -> frozenset:
    """The cards left that x could leave with: value 13 - its own, not kept apart from it."""
    return frozenset(y for y in _left_of_value(pos, 13 - value(x)) if _apart(rules, at, x, y) is None)


def _at(pos: Any) -> dict:
    return {c: p for p, c in enumerate(pos.pyramid) if c is not None}


#: For each overlap_pairs value, each place p: a mask of the places q whose card can never be
#: available together with p's (one covers the other; rules.pyramid.apart). Built once, so the
#: check below, which runs before every search, costs bit tests rather than set lookups.
_APART_PLACES = {ov: tuple(sum(1 << q for q in range(28) if apart(p, q, ov)) for p in range(28))
                 for ov in (False, True)}



def _ones(mask: int) -> int:
    return bin(mask).count("1")


def short_of_partners(rules: PyramidRules, pos: Any) -> Optional[list[int]]:
    """The MATCHING rule of the core (_pyramid.pyx) on the layout alone: a smallest set of cards
    of one value v (not a King) that must all leave, each with its own card of value 13 - v
    available together with it, while fewer such cards can ever meet any of them (Hall's
    condition fails). The cards, in the order a reader meets them, or None."""
    at = _at(pos)
    by_value: dict[int, list[int]] = {v: [] for v in range(1, 14)}
    # The order a reader meets the cards: the pyramid row by row, then the stock and the waste.
    for c in (*pos.pyramid, *pos.stock, *pos.waste):
        if c is not None:
            by_value[value(c)].append(c)
    apart_of = _APART_PLACES[bool(rules.overlap_pairs)]
    stock_apart = not rules.stock_waste_pairs
    # meets[x]: the cards of value 13 - v that can ever be available together with x (the
    # relation of _apart, which partners_sentence states), as bits: a pyramid card by its place
    # (0..27), a stock or waste card by 28 + its rank in by_value.
    meets: dict[int, int] = {}
    for v in range(1, 13):
        in_pyramid = in_stock = 0
        for j, y in enumerate(by_value[13 - v]):
            if y in at:
                in_pyramid |= 1 << at[y]
            else:
                in_stock |= 1 << (28 + j)
        from_stock = in_pyramid if stock_apart else in_pyramid | in_stock
        for x in by_value[v]:
            if x in at:
                meets[x] = (in_pyramid & ~apart_of[at[x]]) | in_stock
            elif rules.goal == "all":  # goal=pyramid: a stock or waste card need not leave
                meets[x] = from_stock
    # Hall's condition fails for a group of k cards when their partners number fewer than k: so
    # each card of such a group meets fewer than k, and only those cards need be combined. The
    # groups are tried in the order of combinations over all the cards of the value, so the group
    # named is the same as with every card tried.
    short = {v: [(c, n) for c in by_value[v] if c in meets and (n := _ones(meets[c])) < 4]
             for v in range(1, 13)}
    for size in (1, 2, 3, 4):
        for v in range(1, 13):
            few = [c for c, n in short[v] if n < size]
            if size == 1:
                if few:  # the common case, and the cheap one: a card no partner can ever meet
                    return few[:1]
                continue
            for group in combinations(few, size):
                union = 0
                for c in group:
                    union |= meets[c]
                if _ones(union) < size:
                    return list(group)
    return None


def partners(rules: PyramidRules, pos: Any, cards: list[int]) -> list[int]:
    """The cards left of value 13 - v that can meet at least one of cards (all of value v)."""
    at = _at(pos)
    return sorted(frozenset().union(*(_meets(rules, pos, at, x) for x in cards)))


def partners_sentence(rules: PyramidRules, pos: Any, cards: list[int],
                      meet: Optional[list[int]] = None) -> str:
    """The one sentence of the claim: the cards, their place, the partners they can meet (meet:
    partners(rules, pos, cards), when already known), and where every other card of the
    partners' rank lies."""
    names = [f"{CARD_NAMES[c]} ({_where(pos, c)})" for c in cards]
    rank = _rank_word(13 - value(cards[0]))
    a = "an" if rank in ("Ace", "8") else "a"
    if meet is None:
        meet = partners(rules, pos, cards)
    n = len(cards)
    if n == 1:
        head = f"{names[0]} can never be removed: it leaves only with {a} {rank}"
    else:
        joined = ", ".join(names[:-1]) + " and " + names[-1]
        head = (f"{joined} cannot {'both' if n == 2 else 'all'} be removed: each leaves only "
                f"with {a} {rank} of its own")
    them = "it" if n == 1 else ("either" if n == 2 else "any of them")
    if meet:
        listed = ", ".join(CARD_NAMES[c] for c in meet)
        found = (f"the only {rank}{'s' if len(meet) > 1 else ''} that can be available "
                 f"together with {them} {'are' if len(meet) > 1 else 'is'} {listed}")
    else:
        found = f"no {rank} left can ever be available together with {them}"
    reasons = []
    at = _at(pos)
    for y in _left_of_value(pos, 13 - value(cards[0])):
        if y in meet:
            continue
        by: dict[str, list[str]] = {}
        for x in cards:
            by.setdefault(_apart(rules, at, x, y) or "", []).append(CARD_NAMES[x])
        parts = []
        for why, xs in by.items():
            if why == BOTH_STOCK:
                parts.append(f"is, like {' and '.join(xs)}, a stock or waste card (two of "
                             "those never pair in this variant)")
            else:
                parts.append(f"{why} {' and '.join(xs)}")
        reasons.append(f"{CARD_NAMES[y]} {', '.join(parts)}")
    gone = 4 - len(_left_of_value(pos, 13 - value(cards[0])))
    if gone:
        reasons.append(f"{gone} already removed")
    return head + ", and " + found + (": " + "; ".join(reasons) if reasons else "")


def _partners_proof(start: Callable[[], tuple[PyramidRules, Any]],
                    cards: list[int]) -> BlockProof:
    """The structural proof that cards (short_of_partners) cannot all leave; start() gives the
    rules and the position. Its sentence and details are written when first read (they take
    longer than deciding the deal), and the position is made then too (solve() answers a
    blocked deal without it)."""
    start = functools.cache(start)
    met = functools.cache(lambda: partners(*start(), cards))
    return BlockProof(kind="structural",
                      sentence=lambda: partners_sentence(*start(), cards, met()),
                      details=lambda: {"rule": "partners", "cards": [CARD_NAMES[c] for c in cards],
                                       "partners": [CARD_NAMES[c] for c in met()]})


Taking = tuple  # (cards S, the cards N(S) they take): see _taken


def _taken(rules: PyramidRules, pos: Any) -> dict[int, list[Taking]]:
    """TAKEN (the core finds it in hall_ok): each pyramid card (not a King) whose partners in
    the stock and the waste all leave with other cards, with the sets that take them: cards S
    of its value that must all go and can meet only N(S), no more cards than S, so that every
    card of N(S) leaves with a card of S."""
    at = _at(pos)
    others = {*pos.stock, *pos.waste}
    out: dict[int, list[Taking]] = {}
    for v in range(1, 13):
        cards = [c for c in _left_of_value(pos, v) if c in at or rules.goal == "all"]
        meets = {c: _meets(rules, pos, at, c) for c in cards}
        sets = [(list(group), sorted(union))
                for size in range(1, len(cards))
                for group in combinations(cards, size)
                if len(union := frozenset().union(*(meets[c] for c in group))) <= size]
        for x in cards:
            pool = others.intersection(meets[x])
            if x not in at or not pool:
                continue
            # the smallest sets first, each only if it takes a partner the ones before it did not
            used, left = [], set(pool)
            for group, union in sets:
                if x not in group and left.intersection(union):
                    used.append((group, union))
                    left -= set(union)
            if not left:
                out[x] = used
    return out


def _waiting(pos: Any, taken: dict[int, list[Taking]]) -> list[int]:
    """The pyramid cards (not Kings), in reading order, that can leave only with a pyramid
    card (WAITING): no partner left in the stock or the waste, or all of those taken (taken:
    _taken's answer)."""
    others = {*pos.stock, *pos.waste}
    return [x for x in pos.pyramid if x is not None and value(x) != 13
            and (x in taken or not others.intersection(_left_of_value(pos, 13 - value(x))))]


class _Order:
    """Facts "a leaves strictly before b" about the pyramid cards of a position, as the DEADLOCK
    rule of the core (_pyramid.pyx, deadlocked) derives them: a card's cone (with overlap_pairs,
    but for the two cards covering it directly) leaves before it; transitivity; and the steps
    of a waiting card (add(), and FOLLOW: add_after())."""

    def __init__(self, rules: PyramidRules, pos: Any) -> None:
        self.rules, self.pos, self.at = rules, pos, _at(pos)
        self.taken = _taken(rules, pos)
        self.waiting = _waiting(pos, self.taken)
        self.before: dict[int, set[int]] = {}
        for x, p in self.at.items():
            places = cone(p) - frozenset(covering(p)) if rules.overlap_pairs else cone(p)
            self.before[x] = {pos.pyramid[q] for q in places if pos.pyramid[q] is not None}

    def partners(self, x: int) -> list[int]:
        """The cards x can leave with, in index order: those it can meet (_meets) that are not
        known to leave before it or after it."""
        return sorted(y for y in _meets(self.rules, self.pos, self.at, x)
                      if y in self.at and y not in self.before[x] and x not in self.before[y])

    def common(self, x: int) -> set[int]:
        """The cards known to leave before every partner of x (partners() not empty)."""
        return set.intersection(*(self.before[y] for y in self.partners(x)))

    def leads(self, x: int, z: int) -> bool:
        """Every partner of x (waiting, partners() not empty) leaves before z, a pyramid card
        left: x leaves with one of them, so before z too (FOLLOW)."""
        return z in self.before and all(y in self.before[z] for y in self.partners(x))

    def follows(self, x: int, cards: set[int]) -> list[int]:
        """The cards of cards, in index order, that x leads (leads()) and is not yet known to
        leave before."""
        return sorted(z for z in cards if x not in self.before[z] and self.leads(x, z))

    def add_after(self, x: int, later: list[int]) -> None:
        """x leaves before each card of later (follows()), and so does every card before x."""
        for z in later:
            self.before[z] |= {x}
        self.add(x, set())

    def add(self, x: int, cards: set[int]) -> None:
        """x, waiting, leaves with one of its partners: cards, which leave before each of them,
        leave before x, and so before every card x leaves before."""
        self.before[x] |= cards
        changed = True
        while changed:
            changed = False
            for known in self.before.values():
                more = set().union(*(self.before[a] for a in known)) - known
                if more:
                    known |= more
                    changed = True

    def stuck(self, x: int) -> bool:
        return x in self.before[x] or not self.partners(x)


Step = tuple  # (x, cards) or (x, cards, later): see waiting_steps


def waiting_steps(rules: PyramidRules, pos: Any) -> Optional[list[Step]]:
    """The DEADLOCK rule of the core on the layout alone, as steps: (x, cards) says that x,
    waiting, can leave only with its partners, and that the cards leave before each of those,
    so before x; (x, cards, later) says as well that each of those leaves before every card of
    later, so x does too (FOLLOW). The last step's card then leaves before itself or has no
    partner left. Only cards that are waiting or partners of waiting cards are named (no other
    fact is used later). The steps, or None when the rule does not fire."""
    order = _Order(rules, pos)
    if len(order.waiting) < 2:  # one waiting card alone: MATCHING says all (as in the core)
        return None
    named = set(order.waiting).union(*(_left_of_value(pos, 13 - value(x))
                                       for x in order.waiting)).intersection(order.at)
    steps: list[Step] = []
    changed = True
    while changed:
        changed = False
        for x in order.waiting:
            # end as soon as any card is left without a partner (the shortest proof)
            for w in order.waiting:
                if not order.partners(w):
                    return [*steps, (w, [])]
            new = (order.common(x) & named) - order.before[x]
            later = order.follows(x, named)
            if new or later:
                order.add(x, new)
                order.add_after(x, later)
                steps.append((x, sorted(new), later) if later else (x, sorted(new)))
                changed = True
                if order.stuck(x):
                    return steps
    return None


def _and(names: list[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def waiting_sentence(rules: PyramidRules, pos: Any, steps: list[Step]) -> str:
    """The sentence of the claim of waiting_steps: one clause a step, in order."""
    order = _Order(rules, pos)
    cards = list(dict.fromkeys(step[0] for step in steps))
    taken = order.taken
    plain = [x for x in cards if x not in taken]
    parts = [f"{_and([f'{CARD_NAMES[x]} ({_where(pos, x)})' for x in plain])} "
             f"{'has' if len(plain) == 1 else 'have'} no partner left in the stock or the waste"
             ] if plain else []
    others = {*pos.stock, *pos.waste}
    for x in cards:
        if x in taken:
            pool = sorted(others.intersection(_meets(rules, pos, order.at, x)))
            why = "; ".join(f"{_and([CARD_NAMES[c] for c in group])} can meet only "
                            f"{_and([CARD_NAMES[c] for c in union])}"
                            for group, union in taken[x])
            they = "it is" if len(pool) == 1 else "they are"
            parts.append(f"{CARD_NAMES[x]} ({_where(pos, x)}) has "
                         f"{_and([CARD_NAMES[c] for c in pool])} left in the stock or the waste, "
                         f"but {they} taken ({why})")
    head = (", and ".join(parts) + ", so each leaves with a pyramid card after the cards covering "
            "it and its partner's, and they wait on each other: ")
    clauses = []
    for x, new, *rest in steps:
        later = rest[0] if rest else []
        name = CARD_NAMES[x]
        meet = order.partners(x)
        if not meet:
            # (its stock and waste partners, if any, are taken: the head says so)
            can = sorted(y for y in _meets(rules, pos, order.at, x) if y in order.at)
            early = [CARD_NAMES[y] for y in can if y in order.before[x]]
            late = [CARD_NAMES[y] for y in can if y not in order.before[x]]
            if not can:
                clauses.append(f"{name} can meet no pyramid card, so {name} can never leave")
                break
            if early and late:
                why = f": {_and(early)} must leave before {name} and {_and(late)} after it"
            else:
                why = f", which must leave {'before' if early else 'after'} {name}"
            clauses.append(f"{name} can meet only {_and([CARD_NAMES[y] for y in can])}{why}, so "
                           f"{name} can never leave")
            break
        them = "it" if len(meet) == 1 else "each of them"
        clause = f"{name} can leave only with {' or '.join(CARD_NAMES[y] for y in meet)}"
        if new:
            clause += (f", and {_and([CARD_NAMES[c] for c in new])} must leave before {them}, "
                       f"so before {name}")
        if later:
            who = CARD_NAMES[meet[0]] if new and len(meet) == 1 else them
            clause += (f", and {who} must leave before {_and([CARD_NAMES[c] for c in later])}, "
                       f"so {name} must too")
        clauses.append(clause)
        order.add(x, set(new))
        order.add_after(x, later)
        if x in order.before[x]:
            clauses[-1] += f": {name} must leave before itself"
    return head + "; ".join(clauses)


def _check_waiting(rules: PyramidRules, pos: Any, steps: Any, proof: BlockProof) -> None:
    """Re-derive each step of a waiting proof from the reference rules' cover relation: the
    step's card is waiting, every card it names leaves before each partner the card has left,
    and the last step ends with a card that leaves before itself or has no partner."""
    if not isinstance(steps, list) or not steps:
        raise VerificationError(f"a waiting proof lists its steps ({quoted(steps)})")
    order = _Order(rules, pos)
    decoded: list[Step] = []
    for i, step in enumerate(steps):
        try:
            if not 2 <= len(step) <= 3:
                raise ValueError
            x, cards = CARD_NAMES.index(step[0]), [CARD_NAMES.index(c) for c in step[1]]
            later = [CARD_NAMES.index(c) for c in step[2]] if len(step) == 3 else []
            if len(step) == 3 and not later:
                raise ValueError
        except (ValueError, TypeError, IndexError, KeyError):
            raise VerificationError(f"step {i + 1} is not a card and one or two lists of cards "
                                    f"({quoted(step)})") from None
        decoded.append((x, cards, later) if later else (x, cards))
        if x not in order.waiting:
            raise VerificationError(f"{step[0]} is not a pyramid card (not a King) without a "
                                    "partner in the stock or the waste (none left, or all of "
                                    "them taken)")
        if order.partners(x):
            late = sorted(set(cards) - order.common(x))
            if late:
                raise VerificationError(f"{', '.join(CARD_NAMES[c] for c in late)} need not "
                                        f"leave before every partner of {step[0]}")
            order.add(x, set(cards))
            early = [z for z in later if not order.leads(x, z)]
            if early:
                raise VerificationError(f"not every partner of {step[0]} must leave before "
                                        f"{', '.join(CARD_NAMES[c] for c in early)}")
            order.add_after(x, later)
        elif later:
            raise VerificationError(f"{step[0]} has no partner left, so no card must leave "
                                    "after it")
        if order.stuck(x):
            if i != len(steps) - 1:
                raise VerificationError(f"the proof goes on after step {i + 1}, which ends it")
            break
    else:
        raise VerificationError("the steps end with no card that can never leave")
    if proof.sentence != waiting_sentence(rules, pos, decoded):
        raise VerificationError("the proof's sentence does not state its claim")


def _waiting_proof(rules: PyramidRules, pos: Any, steps: list[Step]) -> BlockProof:
    """The structural proof that the cards of waiting_steps wait on each other."""
    return BlockProof(kind="structural",
                      sentence=lambda: waiting_sentence(rules, pos, steps),
                      details=lambda: {"rule": "waiting",
                                       "steps": [[CARD_NAMES[x]] + [[CARD_NAMES[c] for c in cs]
                                                                    for cs in rest]
                                                 for x, *rest in steps]})


def _structural(rules: PyramidRules, pos: Any, cards: Optional[list[int]]) -> Optional[BlockProof]:
    """The structural proof at the start: the partners proof of cards (short_of_partners'
    group, or None), else the waiting cards' steps (DEADLOCK, about 1 deal in 100), else None."""
    if cards is not None:
        return _partners_proof(lambda: (rules, pos), cards)
    steps = waiting_steps(rules, pos)
    return None if steps is None else _waiting_proof(rules, pos, steps)


def _at_start(end: Any) -> Optional[StartLook]:
    """What the core saw at the deal's start (whether DEAD fires there, short_group's cards or
    None) from the end of its decide run, or None where the core did not look."""
    return end if isinstance(end, StartLook) else None


class Pyramid(Game):
    name = "pyramid"
    aliases = ("pyramid-solitaire",)
    pysolfc = (
        PySolFCGame(38, "Pyramid", "pyramid-pysolfc", rows=tuple(range(1, 8)), centred=True,
                    waste=1),
        PySolFCGame(193, "Relaxed Pyramid", "relaxed-pyramid-pysolfc", rows=tuple(range(1, 8)),
                    centred=True, waste=1),
    )
    docs = "pyramid.md"
    tests = "test_pyramid.py"
    summary = ("a pyramid of 28 cards, a stock and a waste; remove two available cards totalling "
               "13 or a King alone; three passes; win by removing all 52 cards")
    options = {
        "passes": Option(3, parse=parse_passes, doc="passes through the stock: 1, 2, 3 ... or "
                         "unlimited", samples=(1, "unlimited")),
        "goal": Option("all", choices=("all", "pyramid"),
                       doc="all: every card must go; pyramid: the 28 pyramid cards"),
        "stock_waste_pairs": Option(True, choices=(True, False), parse=parse_bool,
                                    doc="the stock top and the waste top may pair"),
        "first_to_waste": Option(False, choices=(True, False), parse=parse_bool,
                                 doc="play starts with the first stock card drawn onto the "
                                     "waste (PySolFC)"),
        "overlap_pairs": Option(False, choices=(True, False), parse=parse_bool,
                                doc="a pyramid card may pair with the one card still covering it"),
    }
    presets = {"pyramid": {}, "pyramid-msc": {"passes": 3, "goal": "pyramid"},
               # PySolFC's Pyramid (38) and Relaxed Pyramid (193): docs/pyramid.md, PySolFC
               "pyramid-pysolfc": {"passes": 3, "goal": "all", "first_to_waste": True},
               "relaxed-pyramid-pysolfc": {"passes": 3, "goal": "pyramid",
                                           "first_to_waste": True}}
    objectives = ("decide", "shortest", "score")

    def variant(self, **given: Any) -> dict:
        out = super().variant(**given)
        p = out["passes"]
        if p != "unlimited" and (isinstance(p, bool) or not isinstance(p, int) or
                                 not 1 <= p <= 10000):
            raise VariantError(f"variant passes: {quoted(p)} is not 1..10000 or 'unlimited'")
        return out

    def rules(self, variant: dict) -> PyramidRules:
        return PyramidRules(passes_value(variant["passes"]), variant["goal"],
                            variant["stock_waste_pairs"],
                            first_to_waste=variant.get("first_to_waste", False),
                            overlap_pairs=variant.get("overlap_pairs", False))

    def read_deal(self, deal: Any, variant: dict) -> Deal:
        """Pack order (text, list or Deal), or the layout text: seven rows then `Stock: ...`."""
        if isinstance(deal, str) and "stock" in deal.lower():
            return read_layout(deal, variant.get("first_to_waste", False),
                               passes_value(variant["passes"]) if "passes" in variant else None)
        return as_deal(deal)

    core = "games.pyramid._core"
    picture = "pyramid"
    #: The core's decide search applies the same DEAD rule: on the vectors' 410 deals that the
    #: proof blocks it stops within 25 positions (tests/test_pyramid.py).
    structural_after_search = True

    def core_spec(self, deal: Deal, variant: dict, objective: str, certificate: bool) -> dict:
        passes = passes_value(variant["passes"])
        if objective == "score" and not 1 <= passes <= 3:
            raise VariantError("the competitive score is defined for 1 to 3 passes, not "
                               f"{variant['passes']}")
        spec = {"cards": deal.cards, "passes": passes, "goal_all": variant["goal"] == "all",
                "stock_waste_pairs": variant["stock_waste_pairs"],
                "overlap_pairs": variant.get("overlap_pairs", False)}
        if variant.get("first_to_waste"):
            # Play starts one draw in: the core searches from that position (its aux: one card
            # drawn, pass 1, RECYCLE's bit set as for any position given without its history).
            spec["root"] = (0, 1 | (1 << 5))
        return spec

    def rating_core(self, variant: dict) -> bool:
        # With unlimited passes the core's moves skip a recycle that can never help (RECYCLE,
        # docs/pyramid-search.md), which a random player does play: the rules walk those graphs.
        return passes_value(variant["passes"]) != 0

    def core_position(self, pos: Any, variant: dict) -> tuple[int, int]:
        # aux: the stock cards drawn (bits 0..4), the pass (bits 8 up); bit 5 set, as a position
        # given without its history may recycle (docs/pyramid-search.md, RECYCLE).
        _, k, pass_no = self.rules(variant).key(pos)
        passes = passes_value(variant["passes"])
        return pos.removed, k | (1 << 5) | ((pass_no - 1 if passes else 0) << 8)

    def certificate_key(self, removed: int, aux: int, variant: dict) -> tuple[int, int, int]:
        """The reference key (removed, k, pass) of a core position (pass 0 when unlimited)."""
        passes = passes_value(variant["passes"])
        return removed, aux & 31, ((aux >> 8) + 1) if passes else 0

    def core_certificate(self, cert: list, deal: Deal, variant: dict,
                         objective: str) -> frozenset:
        """For the score objective each position with its score, (removed, k, pass, score): the
        reference state of proofs.check_score_certificate (the pass the pyramid was cleared in,
        aux bits 6..7, and the cards left give the score)."""
        if objective != "score":
            return super().core_certificate(cert, deal, variant, objective)
        stock = 0
        for c in deal.cards[PLACES:]:
            stock |= 1 << c
        out = set()
        for removed, aux in cert:
            cleared = (aux >> 6) & 3
            score = (CLEAR_BONUS[cleared] - (stock & ~removed).bit_count() if cleared
                     else removed.bit_count() - 52)
            out.add((*self.certificate_key(removed, aux, variant), score))
        return frozenset(out)

    def structural_proof(self, deal: Deal, variant: dict) -> Optional[BlockProof]:
        """The core's MATCHING rule at the start, stated with its cards (docs/pyramid-search.md, DEAD):
        cards of one value that must leave, and too few partners that can ever meet them."""
        core = core_module(self.core)
        if core is None:
            return self.derive_structural(deal, variant)
        # The core's DEAD rule (MATCHING in C) keeps no fewer pairs of cards apart than
        # short_of_partners, and tries every group: where it sees no block at the start, neither
        # does this rule. So a deal it passes (every won deal) is spared the derivation below,
        # most of an easy deal's time in solve() (tests/test_pyramid.py checks the implication).
        # The core's look at the start, which its decide run reports in its end too: the DEAD
        # rule, then short_of_partners in C (the tests hold the two equal) on the start's layout.
        found = _at_start(core.start_look(
            deal.cards, passes_value(variant["passes"]), variant["goal"] == "all",
            variant["stock_waste_pairs"], variant.get("overlap_pairs", False),
            1 if variant.get("first_to_waste") else 0))
        return self._start_proof(deal, variant, found.group) if found and found.blocked else None

    def structural_after(self, deal: Deal, variant: dict, answer: CoreAnswer) -> Optional[BlockProof]:
        """structural_proof() from what the core's decide search found at the deal's start when
        it did not win (answer.end: a StartLook of whether DEAD fires and the group, the same dead() and
        short_group() in C): making it here was most of a blocked deal's time in a call that
        starts with cold caches (docs/notes/benchmarks-history.md)."""
        found = _at_start(answer.end)
        if found is None:
            return self.structural_proof(deal, variant)
        return self._start_proof(deal, variant, found.group) if found.blocked else None

    def _start_proof(self, deal: Deal, variant: dict,
                     group: Optional[list[int]]) -> Optional[BlockProof]:
        """The structural proof of a deal whose start the DEAD rule blocks: the partners proof of
        short_group's group (the reference start made only when its sentence is read), else
        the waiting cards' steps."""
        if group is not None:
            # a copy: the variant given may be the Result's, which its reader may change
            variant = dict(variant)
            return _partners_proof(lambda: (rules := self.rules(variant), rules.start(deal)),
                                   group)
        rules = self.rules(variant)
        return _structural(rules, rules.start(deal), None)

    def derive_structural(self, deal: Deal, variant: dict) -> Optional[BlockProof]:
        """structural_proof() from the reference rules alone."""
        rules = self.rules(variant)
        pos = rules.start(deal)
        return _structural(rules, pos, short_of_partners(rules, pos))

    def check_structural(self, deal: Deal, variant: dict, proof: BlockProof) -> None:
        """Re-derive the claim with the reference rules' cover relation. Partners: the cards
        named must all leave, have one value (not a King), and fewer partners that can meet
        them; the partners and the sentence must be the ones that claim gives. Waiting: each
        step replays (_check_waiting)."""
        d = proof.details
        if not isinstance(d, dict) or d.get("rule") not in ("partners", "waiting"):
            raise VerificationError(f"unknown structural rule for pyramid ({quoted(d)})")
        rules = self.rules(variant)
        pos = rules.start(deal)
        if d["rule"] == "waiting":
            return _check_waiting(rules, pos, d.get("steps"), proof)
        named = d.get("cards")
        if not isinstance(named, list) or not named or not all(isinstance(n, str) for n in named):
            raise VerificationError(f"the proof names no cards ({quoted(named)})")
        try:
            cards = [CARD_NAMES.index(n) for n in named]
        except ValueError:
            raise VerificationError(f"the proof names a card that does not exist ({named})") from None
        if len(set(cards)) != len(cards) or len({value(c) for c in cards}) != 1:
            raise VerificationError(f"the cards named are not distinct cards of one rank ({named})")
        if value(cards[0]) == 13:
            raise VerificationError(f"{named[0]} is a King: it leaves alone")
        for c, n in zip(cards, named):
            if rules.goal == "pyramid" and c not in pos.pyramid:
                raise VerificationError(f"{n} is not in the pyramid: with goal pyramid it may stay")
        meet = partners(rules, pos, cards)
        if len(meet) >= len(cards):
            raise VerificationError(
                f"{', '.join(named)} can meet {len(meet)} partners "
                f"({', '.join(CARD_NAMES[c] for c in meet)}): enough for each")
        if d.get("partners") != [CARD_NAMES[c] for c in meet]:
            raise VerificationError("the partners the proof lists are not those that can meet "
                                    f"{', '.join(named)}")
        if proof.sentence != partners_sentence(rules, pos, cards):
            raise VerificationError("the proof's sentence does not state its claim")

    def block_proof(self, deal: Deal, variant: dict, answer: CoreAnswer) -> BlockProof:
        """An exhaustive proof; the core may have found it with unlimited passes (FREE search in
        docs/pyramid.md), which proves the block with any number of passes."""
        proof = super().block_proof(deal, variant, answer)
        if not answer.stats.get("relaxed"):
            return proof
        return replace(proof, sentence=(
            f"no line of play wins even with unlimited passes: a search of "
            f"{counted(proof.states, 'set')} of removed cards found none (docs/pyramid.md, FREE)"))

    def score(self, deal: Deal, variant: dict, moves: list[Move]) -> Optional[int]:
        """The competitive score of the line (docs/pyramid.md): replayed with the reference rules."""
        rules = self.rules(variant)
        return rules.score(replay(rules, deal, moves, VerificationError))


def _rank_word(v: int) -> str:
    return {1: "Ace", 11: "Jack", 12: "Queen", 13: "King"}.get(v, str(v))


#: The games this folder serves (the registry reads it: games/__init__.py).
GAMES = (Pyramid(),)
