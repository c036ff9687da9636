"""Fourteen Puzzle: twelve piles; the order of play matters, so blocks are proved structurally or by
an exhaustive search (docs/fourteen.md)."""

from __future__ import annotations

from typing import Any, Optional

from ...deal import Deal, as_deal, deal_text
from ...result import BlockProof, counted
from ..base import CoreAnswer, Game, PySolFCGame, all_explored
from .rules import (
    FourteenRules,
    check_structural_fact,
    deal_piles,
    looks_like_layout,
    parse_layout,
    read_layout,
    structural_block,
    structural_sentence,
)


class Fourteen(Game):
    name = "fourteen"
    aliases = ("fourteen-out", "take-fourteen", "fourteen-puzzle")
    pysolfc = (PySolFCGame(96, "Fourteen", piles=12),)
    docs = "fourteen.md"
    tests = "test_fourteen.py"
    summary = ("twelve piles dealt round-robin; remove the tops of two piles totalling 14; "
               "win by removing all 52 cards")

    def rules(self, variant: dict) -> FourteenRules:
        return FourteenRules()

    def read_deal(self, deal: Any, variant: dict) -> Deal:
        """A Deal, pack-order text or card list, or the layout: a text of twelve lines (one per
        pile, bottom card first) or a list of twelve piles."""
        deal = deal_text(deal)
        if isinstance(deal, str) and looks_like_layout(deal):
            return parse_layout(deal)
        if isinstance(deal, (list, tuple)) and deal and (
                all(isinstance(p, (list, tuple)) for p in deal)
                or (all(isinstance(p, str) for p in deal)
                    and looks_like_layout("\n".join(deal)))):
            # Piles as lists of cards, or strings one per pile, read as the lines of a layout
            # text would be (read_layout names a wrong count). A list of 52 card names is a pack.
            return read_layout(deal)
        return as_deal(deal)

    # -- proofs -----------------------------------------------------------------------------------
    def structural_proof(self, deal: Deal, variant: dict) -> Optional[BlockProof]:
        details = structural_block(deal_piles(deal.cards))
        if details is None:
            return None
        return BlockProof(kind="structural", sentence=structural_sentence(details),
                          position=self.rules(variant).render(self.rules(variant).start(deal)),
                          details=details)

    def check_structural(self, deal: Deal, variant: dict, proof: BlockProof) -> None:
        # The claim is re-derived from the layout the reference rules deal; the text must be the
        # sentence of that claim, so neither can be tampered with alone.
        pos = self.rules(variant).start(deal)
        self.claim_holds(proof, check_structural_fact(pos.piles, dict(proof.details)),
                         structural_sentence(dict(proof.details)))

    def block_proof(self, deal: Deal, variant: dict, answer: CoreAnswer) -> BlockProof:
        states = answer.stats.get("states", 0)
        if answer.certificate is not None:
            sentence = all_explored(states) + " and none is won"
        else:
            sentence = (f"no line of play wins: an exhaustive search explored "
                        f"{counted(states, 'position')}, "
                        "skipping only lines that exact rules show cannot win (docs/fourteen.md)")
        return BlockProof(kind="exhaustive", sentence=sentence, states=states,
                          certificate=answer.certificate)

    # -- the core ---------------------------------------------------------------------------------
    core = "games.fourteen._core"
    picture = "fanned-piles"

    def core_spec(self, deal: Deal, variant: dict, objective: str, certificate: bool) -> dict:
        return {"cards": list(deal.cards)}

    def certificate_key(self, removed: int, aux: int, variant: dict) -> int:
        # The reference rules key a position by its removed cards (FourteenRules.key); aux is 0.
        return removed


#: The games this folder serves (the registry reads it: games/__init__.py).
GAMES = (Fourteen(),)
