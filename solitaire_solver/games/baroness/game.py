"""Baroness: five piles fed by deals of five; the order of play matters, so blocks are proved
structurally or by an exhaustive search (docs/baroness.md)."""

from __future__ import annotations

from typing import Any, Optional

from ...cards import CARD_NAMES, card_index, value
from ...deal import Deal, as_deal
from ...errors import DealError, LayoutError, VerificationError, quoted
from ...result import BlockProof, counted
from ..base import CoreAnswer, Game, Option, PySolFCGame, all_explored, parse_bool
from ..fourteen.rules import count_word, rank_word
from .rules import (
    DEAL,
    FIVE_DEALS,
    PILES,
    BaronessPosition,
    BaronessRules,
    full_piles,
    looks_like_layout,
    read_layout,
)

#: The core's aux word (_baroness.pyx): the deal moves played in the low DEAL_BITS, then, with
#: to_empty, MOVED_BITS per pile holding its moved card + 1 (0: none).
DEAL_BITS = 4
MOVED_BITS = 6


def pile_sentence(pile: int, v: int, cards: list[str]) -> str:
    """The sentence of a structural block: pile `pile` (1..5) is dealt `cards`, more than four
    of the eight cards of values v and 13 - v."""
    w = 13 - v
    here = {x: sum(1 for c in cards if value(card_index(c)) == x) for x in (v, w)}
    # Name the value the pile holds fewer of (the lower on a tie): its cards need partners
    # from outside the pile, and fewer than that many lie there.
    short, other = (v, w) if here[v] <= here[w] else (w, v)
    k, outside = here[short], 4 - here[other]
    there = ("there are none" if outside == 0 else
             f"there {'is' if outside == 1 else 'are'} only {count_word(outside)}")
    return (f"pile {pile} is dealt {', '.join(cards[:-1])} and {cards[-1]}, {count_word(len(cards))} "
            f"of the eight {rank_word(v, 2)} and {rank_word(w, 2)}; cards of one pile are never "
            f"available together, so its {count_word(k)} {rank_word(short, k)} can only leave "
            f"with {rank_word(other, 2)} of the other piles or the reserve, and {there}")


def pile_block(piles: tuple[tuple[int, ...], ...]) -> Optional[dict]:
    """The first pile (of the piles as the ten deals of five build them) holding more than four
    cards of two values totalling 13, as proof details, or None."""
    for i, pile in enumerate(piles, start=1):
        for v in range(1, 7):
            cards = [CARD_NAMES[c] for c in pile if value(c) in (v, 13 - v)]
            if len(cards) > 4:
                return {"rule": "pile-pairs", "pile": i, "value": v, "cards": cards}
    return None


class Baroness(Game):
    name = "baroness"
    aliases = ("thirteens-baroness",)
    pysolfc = (PySolFCGame(657, "Baroness", "baroness-pysolfc", rows=(5,), reserves=2),)
    docs = "baroness.md"
    tests = "test_baroness.py"
    summary = ("five piles fed by deals of five cards (the last two cards lie apart); remove a "
               "King alone or two available cards totalling 13; win by removing all 52 cards")
    options = {
        "last_deal": Option("apart", ("apart", "together"), doc=(
            "apart: an eleventh deal lays the last two cards apart (docs/baroness.md); together: the "
            "tenth deal puts five on the piles and lays the last two apart at once (PySolFC)")),
        "to_empty": Option(False, (False, True), parse_bool, doc=(
            "True: the top card of a pile may move onto an empty pile, written QH>3 (PySolFC); "
            "the two cards laid apart never move")),
    }
    presets = {"baroness-pysolfc": {"last_deal": "together", "to_empty": True}}

    def rules(self, variant: dict) -> BaronessRules:
        return BaronessRules(variant.get("last_deal", "apart"), variant.get("to_empty", False))

    def read_deal(self, deal: Any, variant: dict) -> Deal:
        """Pack order (text, list or Deal), or the starting layout: five pile lines of one card
        each, then `Stock: ...` (the other 47 cards, next first)."""
        if isinstance(deal, str) and looks_like_layout(deal):
            return read_layout(deal)
        try:
            return as_deal(deal)
        except DealError as e:
            if isinstance(deal, str) and len([ln for ln in deal.splitlines() if ln.strip()]) == PILES:
                raise LayoutError(f"not a pack ({e}) nor a layout: a Baroness layout has a line "
                                  "`Stock: ...` after the five piles") from None
            raise

    # -- the core ---------------------------------------------------------------------------------
    core = "games.baroness._core"
    picture = "piles-and-apart"

    def core_spec(self, deal: Deal, variant: dict, objective: str, certificate: bool) -> dict:
        return {"cards": list(deal.cards), "together": variant.get("last_deal") == "together",
                "to_empty": bool(variant.get("to_empty"))}

    def core_position(self, pos: BaronessPosition, variant: dict) -> tuple[int, int]:
        # The core counts the deal moves played (aux's low 4 bits); the reference rules count
        # the first deal too. With to_empty, bits 4 + 6i.. hold pile i's moved card + 1 (0: none).
        key = self.rules(variant).key(pos)
        aux = pos.deals - 1
        if len(key) == 3:
            for i, c in enumerate(key[2]):
                if c is not None:
                    aux |= (c + 1) << (DEAL_BITS + MOVED_BITS * i)
        return pos.removed, aux

    def certificate_key(self, removed: int, aux: int, variant: dict) -> tuple:
        deals = (aux & ((1 << DEAL_BITS) - 1)) + 1
        if not variant.get("to_empty"):
            return removed, deals
        fields = [aux >> (DEAL_BITS + MOVED_BITS * i) & ((1 << MOVED_BITS) - 1) for i in range(PILES)]
        return removed, deals, tuple(f - 1 if f else None for f in fields)

    # -- proofs -----------------------------------------------------------------------------------
    def structural_proof(self, deal: Deal, variant: dict) -> Optional[BlockProof]:
        if variant.get("to_empty"):
            return None  # cards of one pile can be available together once one has moved
        d = pile_block(full_piles(deal.cards))
        if d is None:
            return None
        return BlockProof(kind="structural", sentence=pile_sentence(d["pile"], d["value"],
                                                                    d["cards"]), details=d)

    def check_structural(self, deal: Deal, variant: dict, proof: BlockProof) -> None:
        """Re-derive the claim from the piles the reference rules deal (ten deals of five)."""
        d = dict(proof.details or {})
        if variant.get("to_empty"):
            raise VerificationError("baroness with to_empty=True has no structural proofs: a "
                                    "card moved onto an empty pile leaves its own pile's cards "
                                    "free to meet")
        if d.get("rule") != "pile-pairs":
            raise VerificationError(f"unknown structural rule {quoted(d.get('rule'))} for baroness")
        pile, v = d.get("pile"), d.get("value")
        if isinstance(pile, bool) or not isinstance(pile, int) or not 1 <= pile <= PILES:
            raise VerificationError(f"the proof names no pile 1..{PILES} ({quoted(pile)})")
        if isinstance(v, bool) or not isinstance(v, int) or not 1 <= v <= 6:
            raise VerificationError(f"the proof names no value 1..6 ({quoted(v)})")
        rules = self.rules(variant)
        pos = rules.start(deal)
        while pos.deals < FIVE_DEALS:
            pos = rules.apply(pos, DEAL)
        cards = [CARD_NAMES[c] for c in pos.piles[pile - 1] if value(c) in (v, 13 - v)]
        if len(cards) <= 4:
            raise VerificationError(f"pile {pile} is dealt {len(cards)} cards of values {v} and "
                                    f"{13 - v}, not more than four")
        expected = {"rule": "pile-pairs", "pile": pile, "value": v, "cards": cards}
        # The details and the sentence must both be those of this claim, so that neither can be
        # tampered with alone.
        if d != expected or proof.sentence != pile_sentence(pile, v, cards):
            raise VerificationError("the structural proof's sentence or details do not state "
                                    f"its claim (pile {pile}, values {v} and {13 - v})")

    def block_proof(self, deal: Deal, variant: dict, answer: CoreAnswer) -> BlockProof:
        states = answer.stats.get("states", 0)
        if answer.certificate is not None or answer.stats.get("backend") == "reference":
            sentence = all_explored(states)
        elif variant.get("to_empty"):
            fresh = answer.stats.get("fresh_positions", 0)
            sentence = (f"no line of play wins: an exhaustive search explored "
                        f"{counted(states, 'position')}"
                        + (f" (and {fresh} more in the searches of the fresh-deal rule)"
                           if fresh else "")
                        + "; a card whose partners are all available leaves first, and a "
                        "position just dealt whose search never uncovers a card under the "
                        "cards just dealt is lost with every position that differs from it "
                        "only under them; positions with the same values in the same places "
                        "are searched once (proved in docs/baroness.md)")
        else:
            pruned = answer.stats.get("pruned", 0)
            sentence = (f"no line of play wins: an exhaustive search explored "
                        f"{counted(states, 'position')} "
                        f"and cut {pruned} more that no line can win (a pile holding too many "
                        "cards of two values totalling 13, or cards whose partners are all "
                        "covered); a card whose partners are all available leaves first "
                        "(each rule is proved in docs/baroness.md)")
        return BlockProof(kind="exhaustive", sentence=sentence, states=states,
                          certificate=answer.certificate)


#: The games this folder serves (the registry reads it: games/__init__.py).
GAMES = (Baroness(),)
