"""Pyramid: pairs totalling 13 from a pyramid of 28 cards, a stock and a waste (docs/pyramid.md)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any, Optional, Union

from ..cards import CARD_NAMES, value
from ..deal import Deal, as_deal
from ..errors import VariantError, VerificationError
from ..moves import Move
from ..result import BlockProof
from ..rules.pyramid import (
    PLACES,
    PyramidRules,
    complements,
    cone,
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


def dead_cards(deal: Deal) -> list[tuple[int, int, list[tuple[int, str]]]]:
    """Pyramid cards that can never leave, from the layout alone: (place, card, [(complement,
    where)]) with every complement in the pyramid covering the card or covered by it."""
    cards = deal.cards
    at = {c: p for p, c in enumerate(cards[:PLACES])}
    out = []
    for p in range(PLACES):
        comps = complements(cards[p])
        if not comps:
            continue
        cover, below = cone(p), under(p)
        where = []
        for c in comps:
            q = at.get(c)
            if q is None or (q not in cover and q not in below):
                break
            where.append((c, "covering it" if q in cover else "under it"))
        else:
            out.append((p, cards[p], where))
    return out


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
    }
    presets = {"pyramid": {}, "pyramid-msc": {"passes": 3, "goal": "pyramid"}}
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
                            variant["stock_waste_pairs"])

    def read_deal(self, deal: Any, variant: dict) -> Deal:
        """Pack order (text, list or Deal), or the layout text: seven rows then `Stock: ...`."""
        if isinstance(deal, str) and "stock" in deal.lower():
            return read_layout(deal)
        return as_deal(deal)

    core = "_pyramid"
    picture = "pyramid"

    def core_spec(self, deal: Deal, variant: dict, objective: str, certificate: bool) -> dict:
        passes = passes_value(variant["passes"])
        if objective == "score" and not 1 <= passes <= 3:
            raise VariantError("the competitive score is defined for 1 to 3 passes, not "
                               f"{variant['passes']}")
        return {"cards": deal.cards, "passes": passes, "goal_all": variant["goal"] == "all",
                "stock_waste_pairs": variant["stock_waste_pairs"]}

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
        dead = dead_cards(deal)
        if not dead:
            return None
        p, card, where = dead[0]
        listed = ", ".join(f"{CARD_NAMES[c]} {w}" for c, w in where)
        sentence = (f"{CARD_NAMES[card]} ({_place_name(p)}) can never be removed: it pairs only "
                    f"with a {_rank_word(13 - value(card))}, and all four lie in the pyramid where "
                    f"they cannot be available together with it ({listed})")
        return BlockProof(kind="structural", sentence=sentence,
                          details={"card": CARD_NAMES[card], "place": p,
                                   "complements": {CARD_NAMES[c]: w for c, w in where}})

    def check_structural(self, deal: Deal, variant: dict, proof: BlockProof) -> None:
        """Re-derive the dead card with the reference rules' cover relation."""
        name = proof.details.get("card")
        cards = deal.cards
        try:
            card = CARD_NAMES.index(name)
        except ValueError:
            raise VerificationError(f"the proof names no card ({name!r})") from None
        if card not in cards[:PLACES]:
            raise VerificationError(f"{name} is not in the pyramid")
        p = cards.index(card)
        comps = complements(card)
        if not comps:
            raise VerificationError(f"{name} is a King: it leaves alone")
        cover, below = cone(p), under(p)
        for c in comps:
            q = cards.index(c)
            if q >= PLACES:
                raise VerificationError(f"{CARD_NAMES[c]}, a complement of {name}, is in the stock")
            if q not in cover and q not in below:
                raise VerificationError(
                    f"{CARD_NAMES[c]} ({_place_name(q)}) can be available together with {name}")

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
