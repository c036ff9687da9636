"""Clock: no choices, so the forced line decides the deal; a lost deal's proof is that line, a
structural proof that verify replays (docs/clock.md). No compiled core: the line is at most 52
cards long, and the reference search follows it as fast as a core would be called."""

from __future__ import annotations

from typing import Any, Optional

from ...deal import Deal, as_deal, deal_text
from ...engine.backend import core_module
from ...result import BlockProof
from ..base import Game, PySolFCGame
from .rules import (
    ClockBatch,
    ClockRules,
    block_details,
    block_sentence,
    forced_line,
    looks_like_layout,
    parse_layout,
)


class Clock(Game):
    name = "clock"
    aliases = ("clock-patience", "travellers", "sundial")
    summary = ("thirteen piles of four in a clock; turn the centre's top card, put it under the "
               "pile of its rank and turn that pile's top; win when every card is face up")
    pysolfc = (PySolFCGame(737, "Clock", piles=13),)
    docs = "clock.md"
    tests = "test_clock.py"
    picture = "clock-face"
    #: The outcome does not depend on the order of play: there is one line (docs/proofs.md).
    order_independent = True

    def rules(self, variant: dict) -> ClockRules:
        return ClockRules()

    def read_deal(self, deal: Any, variant: dict) -> Deal:
        """A Deal, pack-order text or card list, or the layout text (docs/clock.md): thirteen
        lines, piles A..Q then the centre, each its four cards from the bottom to the top."""
        deal = deal_text(deal)
        if isinstance(deal, str) and looks_like_layout(deal):
            return parse_layout(deal)
        return as_deal(deal)

    # -- proofs -----------------------------------------------------------------------------------
    def structural_proof(self, deal: Deal, variant: dict) -> Optional[BlockProof]:
        rules = self.rules(variant)
        details = block_details(rules, deal)
        if details is None:
            return None
        line, end = forced_line(rules, deal)
        return BlockProof(kind="structural", sentence=block_sentence(details),
                          position=rules.render(end), moves=tuple(line), details=details)

    def check_structural(self, deal: Deal, variant: dict, proof: BlockProof) -> None:
        # The forced line is replayed under the reference rules; the claim must be its end, and
        # the sentence the sentence of that claim.
        d = block_details(self.rules(variant), deal)
        if d is None:
            wrong = "the forced line wins"
        elif dict(proof.details or {}) != d:
            wrong = (f"the forced line ends with {d['last']} as card {d['turned']}, "
                     f"{d['cards_left']} cards face down, not as claimed")
        else:
            wrong = None
        self.claim_holds(proof, wrong, block_sentence(d) if d else "")


    # -- surveys ----------------------------------------------------------------------------------
    def batch(self, variant: dict) -> Optional[ClockBatch]:
        """The forced line counted without a Deal or a position per card (rules.ClockBatch), on
        seeded deals made by the compiled C shuffle; None without it (solve() per deal)."""
        seeded = core_module("engine._seeded")
        return None if seeded is None else ClockBatch(seeded)


#: The games this folder serves (the registry reads it: games/__init__.py).
GAMES = (Clock(),)
