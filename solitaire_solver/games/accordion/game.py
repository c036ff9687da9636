"""Accordion: a row of piles, merged leftwards by rank or suit; blocks are proved structurally
(tops that fall into groups sharing no rank or suit) or by an exhaustive search
(docs/accordion.md)."""

from __future__ import annotations

from typing import Any, Optional

from ...deal import Deal, as_deal, deal_text
from ...engine.contract import Limits
from ...errors import VerificationError
from ...moves import Move, from_codes
from ...result import BlockProof, Verification, counted
from ..base import CoreAnswer, Game, PySolFCGame, all_explored
from .rules import (
    AccordionRules,
    canonical,
    certificate_rows,
    check_certificate,
    check_groups,
    deal_piles,
    parse_layout,
    position_of,
    read_piles,
    structural_block,
    structural_sentence,
    tops_of,
)


class Accordion(Game):
    name = "accordion"
    aliases = ("idle-year", "tower-of-babel")
    # PySolFC deals the whole pack in one row by default (its option accordion_deal_all); dealt
    # three at first and then one at a time, the row is the same and so are the lines of play.
    pysolfc = (PySolFCGame(772, "Accordion", piles=52),)
    #: Small searches rarely prove its lost positions lost but often win its won ones: guided
    #: lines play a move they left unproved 1 time in 50 where some are proved winnable
    #: (docs/difficulty.md, "Rare wins").
    guided_unproved = 0.02
    docs = "accordion.md"
    tests = "test_accordion.py"
    summary = ("52 piles in a row; a pile moves onto the pile 1 or 3 places left when their tops "
               "share a rank or a suit; win with one pile")

    def rules(self, variant: dict) -> AccordionRules:
        return AccordionRules()

    layout_note = ("a row of piles is read as it is given: a game in progress too, each pile its "
                   "cards from the bottom to the top joined by /, or its top card alone")

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
    def greedy_score(self, rules: Any, pos: Any, move: Move, after: Any) -> tuple[int, int]:
        """The player's rule of thumb (docs/difficulty.md; every move takes one pile away, so
        the cards left tell no move from another): the move that leaves the most moves, then
        the one furthest left in the row."""
        return len(rules.moves(after)), -pos.tops.index(move.cards[0])

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
        self.claim_holds(proof, check_groups(pos.tops, dict(proof.details)),
                         structural_sentence(dict(proof.details)))

    def block_proof(self, deal: Deal, variant: dict, answer: CoreAnswer) -> BlockProof:
        states = answer.stats.get("states", 0)
        if answer.stats.get("backend") == "reference":
            sentence = all_explored(states) + " and none is won"
        elif answer.certificate is not None:
            sentence = (f"no line of play wins: the search reached {counted(states, 'row')}, none "
                        "won, each explored or lost by its groups, and every row reachable is "
                        "one of them with its ranks and suits renamed (the certificate, "
                        "docs/accordion.md)")
        else:
            sentence = (f"no line of play wins: an exhaustive search explored "
                        f"{counted(states, 'position')}, "
                        "skipping only lines that exact rules show cannot win (docs/accordion.md)")
        return BlockProof(kind="exhaustive", sentence=sentence, states=states,
                          certificate=answer.certificate)

    def reference_answer(self, deal: Deal, variant: dict, objective: str, limits: Limits,
                         certificate: bool, start: Any = None) -> CoreAnswer:
        ans = super().reference_answer(deal, variant, objective, limits, certificate, start)
        if ans.certificate is not None:
            # The plain search's positions prove the block too, but check_certificate reads
            # renamed rows: the certificate is made in its terms, each row needed.
            rules = self.rules(variant)
            ans.certificate = certificate_rows(rules, rules.start(deal) if start is None else start)
        return ans

    def check_proof(self, deal: Deal, variant: dict, proof: BlockProof,
                    max_states: Optional[int], start: Any = None,
                    max_seconds: Optional[float] = None, memory_bytes: int = 0) -> Verification:
        # Accordion's certificate may hold a row for each of its renamings and rows its cut
        # leaves unexpanded: its own check (check_certificate) re-derives both.
        if proof.kind == "exhaustive" and proof.certificate is not None:
            rules = self.rules(variant)
            return check_certificate(rules, rules.start(deal) if start is None else start,
                                     proof.certificate)
        return super().check_proof(deal, variant, proof, max_states, start, max_seconds,
                                   memory_bytes)

    # -- the core ---------------------------------------------------------------------------------
    core = "games.accordion._core"
    picture = "row-of-piles"

    def core_spec(self, deal: Deal, variant: dict, objective: str, certificate: bool) -> dict:
        return {"tops": [p[-1] for p in deal_piles(deal)]}

    def core_position(self, pos: Any, variant: dict) -> tuple[int, int]:
        return position_of(pos.tops), 0

    def certificate_key(self, removed: int, aux: int, variant: dict) -> Any:
        return tops_of(removed)

    def core_line(self, core: Any, spec: dict, deal: Deal, start: Any, path: list) -> list[Move]:
        # The search renames the rows below its root (the "canonical" rule): each word after the
        # first names cards of the renamed row, which sit where the real row's cards do.
        tops = list(start.tops if start is not None else deal_piles(deal) and
                    [p[-1] for p in deal_piles(deal)])
        renamed = spec.get("canonical", True)
        out = []
        for k, m in enumerate(from_codes(path)):
            if m.onto < 0:
                raise VerificationError(f"the core's move {m} is not a move of Accordion")
            row = canonical(tops) if renamed and k else tuple(tops)
            i, j = row.index(m.cards[0]), row.index(m.onto)
            out.append(Move.onto_card(tops[i], tops[j]))
            tops[j] = tops[i]
            del tops[i]
        return out



#: The games this folder serves (the registry reads it: games/__init__.py).
GAMES = (Accordion(),)
