"""Monte Carlo (Weddings): pairs of neighbours in a five-by-five layout, consolidation from a
stock; blocks are proved structurally (no move at all) or by an exhaustive search
(docs/monte-carlo.md)."""

from __future__ import annotations

from typing import Any, Optional

from ...deal import Deal, as_deal
from ...engine.contract import Limits
from ...errors import DealError, LayoutError, VerificationError, quoted
from ...result import BlockProof
from ..base import CoreAnswer, Game, Option, PySolFCGame, all_explored
from .rules import (
    PLACES,
    SIDE,
    MonteCarloPosition,
    MonteCarloRules,
    looks_like_layout,
    neighbours,
    read_layout,
)

#: Every pair of neighbouring places (p < q).
_NEIGHBOUR_PLACES = tuple((p, q) for p in range(PLACES) for q in range(p + 1, PLACES)
                          if neighbours(p, q))

NO_MOVE = ("no two neighbouring cards of the layout share a rank, and a full layout has no gap "
           "for `consolidate` to close: no move is legal at the start")


class MonteCarlo(Game):
    name = "monte-carlo"
    aliases = ("weddings", "monte-carlo-solitaire")
    pysolfc = (PySolFCGame(89, "Monte Carlo", rows=(5,) * 5),)
    docs = "monte-carlo.md"
    tests = "test_montecarlo.py"
    summary = ("twenty-five cards in five rows of five and a stock; remove two neighbouring cards "
               "of one rank; consolidate closes the gaps and refills from the stock; win by "
               "removing all 52 cards")
    options = {
        "consolidate": Option("any", ("any", "stuck"),
                              doc="any: whenever there is a gap; stuck: only when no pair of "
                              "neighbours can be removed"),
    }

    def rules(self, variant: dict) -> MonteCarloRules:
        return MonteCarloRules(stuck=variant.get("consolidate", "any") == "stuck")

    def read_deal(self, deal: Any, variant: dict) -> Deal:
        """Pack order (text, list or Deal), or the starting layout: five rows of five cards, then
        `Stock: ...` (the other 27 cards, next first)."""
        if isinstance(deal, str) and looks_like_layout(deal):
            return read_layout(deal)
        try:
            return as_deal(deal)
        except DealError as e:
            if isinstance(deal, str) and len([ln for ln in deal.splitlines() if ln.strip()]) == SIDE:
                raise LayoutError(f"not a pack ({e}) nor a layout: a Monte Carlo layout has a "
                                  "line `Stock: ...` after the five rows") from None
            raise

    # -- the core ---------------------------------------------------------------------------------
    core = "games.montecarlo._core"
    picture = "grid-and-stock"

    def core_spec(self, deal: Deal, variant: dict, objective: str, certificate: bool) -> dict:
        return {"cards": list(deal.cards), "stuck": variant["consolidate"] == "stuck"}

    def core_position(self, pos: MonteCarloPosition, variant: dict) -> tuple[int, int]:
        # aux: the stock cards dealt (bits 0..4) and the empty places (bits 8..32), so that the
        # start is (0, 0) (see _montecarlo.pyx).
        removed, dealt, occupied = self.rules(variant).key(pos)
        return removed, (dealt - PLACES) | ((~occupied & ((1 << PLACES) - 1)) << 8)

    def certificate_key(self, removed: int, aux: int, variant: dict) -> tuple[int, int, int]:
        return removed, PLACES + (aux & 31), ~(aux >> 8) & ((1 << PLACES) - 1)

    #: The restarts are its own exact search in other orders: one that ends without a win
    #: is the answer.
    first_try_exact = True
    #: The first try (first_try): the search in each order of trial, then shaken, each cut at
    #: RESTART_STATES positions.
    RESTARTS = 8
    RESTART_STATES = 40_000

    def first_try(self, deal: Deal, variant: dict, objective: str, limits: Limits,
                  certificate: bool, start: Any = None) -> Optional[CoreAnswer]:
        """Restarts (Game.restarts) in the orders of trial (spec "order" and "shake",
        docs/monte-carlo.md "Move order"), each cut at RESTART_STATES positions: the default
        order first, so that a deal it decides within them takes nothing more."""
        return self.restarts(deal, variant, objective, limits, certificate,
                             [({"order": t % 4, "shake": t // 4}, self.RESTART_STATES)
                              for t in range(self.RESTARTS)], start)

    # -- proofs -----------------------------------------------------------------------------------
    def structural_proof(self, deal: Deal, variant: dict) -> Optional[BlockProof]:
        cards = deal.cards
        if any(cards[p] % 13 == cards[q] % 13 for p, q in _NEIGHBOUR_PLACES):
            return None
        return BlockProof(kind="structural", sentence=NO_MOVE, details={"rule": "no-move"})

    def check_structural(self, deal: Deal, variant: dict, proof: BlockProof) -> None:
        """The start must have no legal move under the reference rules."""
        if dict(proof.details or {}) != {"rule": "no-move"}:
            raise VerificationError(f"unknown structural claim {quoted(proof.details)} for monte-carlo")
        rules = self.rules(variant)
        pos = rules.start(deal)
        moves = rules.moves(pos)
        if moves:
            raise VerificationError(f"the start has a legal move ({moves[0]})")
        self.claim_holds(proof, None, NO_MOVE)

    def block_proof(self, deal: Deal, variant: dict, answer: CoreAnswer) -> BlockProof:
        # The core prunes nothing: its search explores every reachable position.
        states = answer.stats.get("states", 0)
        return BlockProof(kind="exhaustive",
                          sentence=all_explored(states),
                          states=states, certificate=answer.certificate)


#: The games this folder serves (the registry reads it: games/__init__.py).
GAMES = (MonteCarlo(),)
