"""Accordion: a row of piles, merged leftwards by rank or suit; blocks are proved structurally
(tops that fall into groups sharing no rank or suit) or by an exhaustive search
(docs/accordion.md)."""

from __future__ import annotations

from typing import Any, Optional

from ...deal import Deal, as_deal, deal_text
from ...errors import VerificationError
from ...result import BlockProof, counted
from ..base import CoreAnswer, Game, PySolFCGame, all_explored
from .rules import (
    AccordionRules,
    check_groups,
    deal_piles,
    parse_layout,
    read_piles,
    structural_block,
    structural_sentence,
)


class Accordion(Game):
    name = "accordion"
    aliases = ("idle-year", "tower-of-babel")
    # PySolFC deals the whole pack in one row by default (its option accordion_deal_all); dealt
    # three at first and then one at a time, the row is the same and so are the lines of play.
    pysolfc = (PySolFCGame(772, "Accordion", piles=52),)
    docs = "accordion.md"
    tests = "test_accordion.py"
    summary = ("52 piles in a row; a pile moves onto the pile 1 or 3 places left when their tops "
               "share a rank or a suit; win with one pile")

    def rules(self, variant: dict) -> AccordionRules:
        return AccordionRules()

    def read_deal(self, deal: Any, variant: dict) -> Deal:
        """A Deal, pack-order text or card list (the 52 piles of the start), or a row of piles
        of a game in progress: a text of piles parted by spaces (`4C/2C/KD` a pile from its
        bottom card to its top; a pile given by its top alone is one card), or a list of piles
        (each a card or a list of cards), fewer than 52 or some of several cards."""
        deal = deal_text(deal)
        if isinstance(deal, Deal):
            return deal
        if isinstance(deal, str):
            words = deal.split()
            if "/" in deal or 0 < len(words) < 52 and not ("," in deal and len(words) == 1):
                return parse_layout(deal)
            return as_deal(deal)
        if isinstance(deal, (list, tuple)) and deal and (
                len(deal) != 52 or any(isinstance(p, (list, tuple)) or
                                       (isinstance(p, str) and "/" in p) for p in deal)):
            return read_piles(deal)
        return as_deal(deal)

    # -- proofs -----------------------------------------------------------------------------------
    def structural_proof(self, deal: Deal, variant: dict) -> Optional[BlockProof]:
        piles = deal_piles(deal)
        details = structural_block([p[-1] for p in piles])
        if details is None:
            return None
        rules = self.rules(variant)
        return BlockProof(kind="structural", sentence=structural_sentence(details),
                          position=rules.render(rules.start(deal)), details=details)

    def check_structural(self, deal: Deal, variant: dict, proof: BlockProof) -> None:
        # The claim is re-derived from the row the reference rules deal; the text must be the
        # sentence of that claim, so neither can be tampered with alone.
        pos = self.rules(variant).start(deal)
        wrong = check_groups(pos.tops, dict(proof.details))
        if wrong is not None:
            raise VerificationError(f"the structural proof does not hold: {wrong}")
        if proof.sentence != structural_sentence(dict(proof.details)):
            raise VerificationError("the structural proof's sentence does not state its claim")

    def block_proof(self, deal: Deal, variant: dict, answer: CoreAnswer) -> BlockProof:
        states = answer.stats.get("states", 0)
        if answer.certificate is not None or answer.stats.get("backend") == "reference":
            sentence = all_explored(states) + " and none is won"
        else:
            sentence = (f"no line of play wins: an exhaustive search explored "
                        f"{counted(states, 'position')}, "
                        "skipping only lines that exact rules show cannot win (docs/accordion.md)")
        return BlockProof(kind="exhaustive", sentence=sentence, states=states,
                          certificate=answer.certificate)

    picture = "row-of-piles"


#: The games this folder serves (the registry reads it: games/__init__.py).
GAMES = (Accordion(),)
