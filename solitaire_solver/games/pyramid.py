"""Pyramid: pairs totalling 13 from a pyramid of 28 cards, a stock and a waste (docs/pyramid.md)."""

from __future__ import annotations

import functools
from dataclasses import replace
from itertools import combinations
from typing import Any, Optional, Union

from ..backend import core_module
from ..cards import CARD_NAMES, value
from ..deal import Deal, as_deal
from ..errors import VariantError, VerificationError
from ..moves import Move
from ..result import BlockProof
from ..rules.pyramid import (
    PyramidRules,
    apart,
    cone,
    covering,
    passes_value,
    read_layout,
    row_of,
    under,
)
from .base import CoreAnswer, Game, Option, parse_bool


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


def _partners_proof(rules: PyramidRules, pos: Any, cards: list[int]) -> BlockProof:
    """The structural proof that cards (short_of_partners) cannot all leave. Its sentence and
    details are written when first read (they take longer than deciding the deal)."""
    met = functools.cache(lambda: partners(rules, pos, cards))
    return BlockProof(kind="structural",
                      sentence=lambda: partners_sentence(rules, pos, cards, met()),
                      details=lambda: {"rule": "partners", "cards": [CARD_NAMES[c] for c in cards],
                                       "partners": [CARD_NAMES[c] for c in met()]})


def _before(rules: PyramidRules, p: int) -> frozenset[int]:
    """The places whose cards must leave strictly before the card at place p: its cone
    (overlap_pairs: but for the two places covering it directly, either of which it may leave
    with)."""
    return cone(p) - frozenset(covering(p)) if rules.overlap_pairs else cone(p)


def _waiting(pos: Any) -> list[int]:
    """The pyramid cards (not Kings), in reading order, with no partner left in the stock or
    the waste: each can leave only with a pyramid card."""
    others = {*pos.stock, *pos.waste}
    return [x for x in pos.pyramid if x is not None and value(x) != 13
            and not others.intersection(_left_of_value(pos, 13 - value(x)))]


def waiting_cycle(rules: PyramidRules, pos: Any) -> Optional[list[int]]:
    """The DEADLOCK rule of the core (_pyramid.pyx) in its plainest form, on the layout alone:
    pyramid cards x1 .. xk (k >= 2), none with a partner left in the stock or the waste, where
    x(i+1) covers every partner x(i) can meet (and x1 every partner xk can meet), not directly
    with overlap_pairs. Each then leaves after the next one, so none can leave first. The
    shortest such cycle, starting with the first of its cards in reading order, or None."""
    waiting = _waiting(pos)
    if len(waiting) < 2:
        return None
    at = _at(pos)
    # after[x]: the waiting cards that must leave before x (they cover all its partners)
    after: dict[int, list[int]] = {}
    for x in waiting:
        meet = _meets(rules, pos, at, x)
        if meet:
            common = frozenset.intersection(*(_before(rules, at[y]) for y in meet))
            after[x] = [z for z in waiting if at[z] in common]
    best: Optional[list[int]] = None
    for start in waiting:
        # breadth first from start: the shortest cycle through it
        came: dict[int, Optional[int]] = {start: None}
        frontier = [start]
        while frontier and (best is None or len(came) < 28):
            nxt = []
            for u in frontier:
                for z in after.get(u, ()):
                    if z == start:
                        cycle = [u]
                        while came[cycle[-1]] is not None:
                            cycle.append(came[cycle[-1]])  # type: ignore[arg-type]
                        cycle.reverse()
                        if best is None or len(cycle) < len(best):
                            best = cycle
                        nxt = []
                        break
                    if z not in came:
                        came[z] = u
                        nxt.append(z)
                else:
                    continue
                break
            frontier = nxt
    return best


def waiting_sentence(rules: PyramidRules, pos: Any, cards: list[int]) -> str:
    """The one sentence of the claim of waiting_cycle: each card's place, the partners it can
    meet, and the card covering them all."""
    at = _at(pos)
    names = [f"{CARD_NAMES[c]} ({_where(pos, c)})" for c in cards]
    head = (f"{', '.join(names[:-1])} and {names[-1]} wait on each other, so "
            f"{'neither' if len(cards) == 2 else 'none of them'} can be removed: ")
    steps = []
    for i, x in enumerate(cards):
        nxt = CARD_NAMES[cards[(i + 1) % len(cards)]]
        rank = _rank_word(13 - value(x))
        meet = sorted(_meets(rules, pos, at, x))
        if meet:
            listed = " or ".join(CARD_NAMES[y] for y in meet)
            steps.append(f"{CARD_NAMES[x]} can leave only with {listed} (no {rank} is left in the "
                         f"stock or the waste), and {nxt} covers "
                         f"{'it' if len(meet) == 1 else 'each of them'}")
        else:
            steps.append(f"{CARD_NAMES[x]} can leave with no {rank} left")
    order = ", ".join(f"{CARD_NAMES[cards[(i + 1) % len(cards)]]} must leave before "
                      f"{CARD_NAMES[x]}" for i, x in enumerate(cards))
    last = "neither" if len(cards) == 2 else "none"
    return head + "; ".join(steps) + f"; so {order}, and {last} can leave first"


def _check_waiting(rules: PyramidRules, pos: Any, cards: list[int], proof: BlockProof) -> None:
    """Re-derive the claim of waiting_cycle from the reference rules' cover relation."""
    named = [CARD_NAMES[c] for c in cards]
    if len(cards) < 2 or len(set(cards)) != len(cards):
        raise VerificationError(f"a cycle of waiting cards names two distinct cards or more ({named})")
    waiting = _waiting(pos)
    for c, n in zip(cards, named):
        if c not in waiting:
            raise VerificationError(f"{n} is not a pyramid card (not a King) without a partner in "
                                    "the stock or the waste")
    at = _at(pos)
    for i, x in enumerate(cards):
        z = cards[(i + 1) % len(cards)]
        for y in _meets(rules, pos, at, x):
            if at[z] not in _before(rules, at[y]):
                raise VerificationError(f"{CARD_NAMES[x]} can leave with {CARD_NAMES[y]}, which "
                                        f"{CARD_NAMES[z]} does not cover")
    if proof.sentence != waiting_sentence(rules, pos, cards):
        raise VerificationError("the proof's sentence does not state its claim")


def _waiting_proof(rules: PyramidRules, pos: Any, cards: list[int]) -> BlockProof:
    """The structural proof that the cards of waiting_cycle wait on each other."""
    return BlockProof(kind="structural",
                      sentence=lambda: waiting_sentence(rules, pos, cards),
                      details=lambda: {"rule": "waiting", "cards": [CARD_NAMES[c] for c in cards]})


class Pyramid(Game):
    name = "pyramid"
    aliases = ("pyramid-solitaire",)
    summary = ("a pyramid of 28 cards, a stock and a waste; remove two available cards totalling "
               "13 or a King alone; three passes; win by removing all 52 cards")
    options = {
        "passes": Option(3, parse=parse_passes, doc="passes through the stock: 1, 2, 3 ... or "
                         "unlimited"),
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
            raise VariantError(f"variant passes: {p!r} is not 1..10000 or 'unlimited'")
        return out

    def rules(self, variant: dict) -> PyramidRules:
        return PyramidRules(passes_value(variant["passes"]), variant["goal"],
                            variant["stock_waste_pairs"],
                            first_to_waste=variant.get("first_to_waste", False),
                            overlap_pairs=variant.get("overlap_pairs", False))

    def read_deal(self, deal: Any, variant: dict) -> Deal:
        """Pack order (text, list or Deal), or the layout text: seven rows then `Stock: ...`."""
        if isinstance(deal, str) and "stock" in deal.lower():
            return read_layout(deal, variant.get("first_to_waste", False))
        return as_deal(deal)

    core = "_pyramid"
    picture = "pyramid"

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

    def core_position(self, pos: Any, variant: dict) -> tuple[int, int]:
        # aux: the stock cards drawn (bits 0..4), the pass (bits 8 up); bit 5 set, as a position
        # given without its history may recycle (docs/pyramid.md, RECYCLE).
        _, k, pass_no = self.rules(variant).key(pos)
        passes = passes_value(variant["passes"])
        return pos.removed, k | (1 << 5) | ((pass_no - 1 if passes else 0) << 8)

    def certificate_key(self, removed: int, aux: int, variant: dict) -> tuple[int, int, int]:
        """The reference key (removed, k, pass) of a core position (pass 0 when unlimited)."""
        passes = passes_value(variant["passes"])
        return removed, aux & 31, ((aux >> 8) + 1) if passes else 0

    def structural_proof(self, deal: Deal, variant: dict) -> Optional[BlockProof]:
        """The core's MATCHING rule at the start, stated with its cards (docs/pyramid.md, DEAD):
        cards of one value that must leave, and too few partners that can ever meet them."""
        core = core_module(self.core)
        if core is None:
            return self.derive_structural(deal, variant)
        # The core's DEAD rule (MATCHING in C) keeps no fewer pairs of cards apart than
        # short_of_partners, and tries every group: where it sees no block at the start, neither
        # does this rule. So a deal it passes (every won deal) is spared the derivation below,
        # most of an easy deal's time in solve() (tests/test_pyramid.py checks the implication).
        if not core.dead(deal.cards, 0, passes_value(variant["passes"]),
                         variant["goal"] == "all", 0, variant.get("overlap_pairs", False),
                         variant["stock_waste_pairs"]):
            return None
        rules = self.rules(variant)
        pos = rules.start(deal)
        # short_of_partners in C (the tests hold the two equal): the group search was most of
        # a structurally blocked deal's time in solve().
        cards = core.short_group(pos.pyramid, (*pos.stock, *pos.waste),
                                 _APART_PLACES[bool(rules.overlap_pairs)], rules.goal == "all",
                                 rules.stock_waste_pairs)
        if cards is not None:
            return _partners_proof(rules, pos, cards)
        # DEADLOCK fired (about 1 deal in 100): its plainest form, when it explains the block
        cards = waiting_cycle(rules, pos)
        return None if cards is None else _waiting_proof(rules, pos, cards)

    def derive_structural(self, deal: Deal, variant: dict) -> Optional[BlockProof]:
        """structural_proof() from the reference rules alone."""
        rules = self.rules(variant)
        pos = rules.start(deal)
        cards = short_of_partners(rules, pos)
        if cards is not None:
            return _partners_proof(rules, pos, cards)
        cards = waiting_cycle(rules, pos)
        return None if cards is None else _waiting_proof(rules, pos, cards)

    def check_structural(self, deal: Deal, variant: dict, proof: BlockProof) -> None:
        """Re-derive the claim with the reference rules' cover relation: the cards named must
        all leave, have one value (not a King), and fewer partners that can meet them; the
        partners and the sentence must be the ones that claim gives."""
        d = proof.details
        if not isinstance(d, dict) or d.get("rule") not in ("partners", "waiting"):
            raise VerificationError(f"unknown structural rule for pyramid ({d!r})")
        named = d.get("cards")
        if not isinstance(named, list) or not named or not all(isinstance(n, str) for n in named):
            raise VerificationError(f"the proof names no cards ({named!r})")
        try:
            cards = [CARD_NAMES.index(n) for n in named]
        except ValueError:
            raise VerificationError(f"the proof names a card that does not exist ({named})") from None
        rules = self.rules(variant)
        pos = rules.start(deal)
        if d["rule"] == "waiting":
            return _check_waiting(rules, pos, cards, proof)
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
            f"no line of play wins even with unlimited passes: a search of {proof.states} sets "
            "of removed cards found none (docs/pyramid.md, FREE)"))

    def score(self, deal: Deal, variant: dict, moves: list[Move]) -> Optional[int]:
        """The competitive score of the line (docs/pyramid.md): replayed with the reference rules."""
        rules = self.rules(variant)
        pos = rules.start(deal)
        for i, m in enumerate(moves, start=1):
            if m not in rules.moves(pos):
                raise VerificationError(f"move {i} ({m}): {rules.why_illegal(pos, m)}")
            pos = rules.apply(pos, m)
        return rules.score(pos)


def _rank_word(v: int) -> str:
    return {1: "Ace", 11: "Jack", 12: "Queen", 13: "King"}.get(v, str(v))
