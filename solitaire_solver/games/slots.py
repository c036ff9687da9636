"""Elevens and Block Ten: order-independent slot games, decided and proved by one forced line."""

from __future__ import annotations

import time
from typing import Any, Optional

from ..backend import core_module
from ..cards import CARD_NAMES
from ..deal import Deal
from ..errors import VerificationError
from ..moves import Move
from ..result import BlockProof, Verification
from ..rules.blockten import BlockTenRules
from ..rules.elevens import ElevensRules
from ..rules.slots import SlotPosition, SlotRules
from .base import CoreAnswer, Game

_ENGINE_STATUS = ("won", "exhausted", "limit-states", "limit-time", "limit-memory")


class SlotBatch:
    """The slot core's batch decider bound to one game (Game.batch)."""

    def __init__(self, core: Any, game: str) -> None:
        self.core = core
        self.game = game

    def decide_seeds(self, start: int, count: int, status: Any, left: Any, moves: Any,
                     states: Any) -> None:
        self.core.decide_seeds(self.game, start, count, status, left, moves, states)

    def decide_deals(self, deals: Any, status: Any, left: Any, moves: Any, states: Any) -> None:
        self.core.decide_deals(self.game, deals, status, left, moves, states)

    def tally(self, status: Any, left: Any, states: Any) -> tuple[int, list, list]:
        return self.core.tally(status, left, states)


class SlotGame(Game):
    order_independent = True
    rules_class: type = SlotRules
    #: What "stuck" means, for the proof's sentence.
    stuck_clause = ""

    def rules(self, variant: dict) -> SlotRules:
        return self.rules_class()

    def core_name(self) -> str:
        return "_slots"

    def core_solve(self, core: Any, deal: Deal, variant: dict, objective: str, limits: dict,
                   certificate: bool) -> CoreAnswer:
        if certificate:
            # A certificate lists every position reachable, so search every removal.
            status, path, stats, cert = core.solve(
                self.name, deal.cards, core.MODE_ALL, limits["max_states"],
                limits["max_seconds"], limits["memory_bytes"], True,
            )
            keys = frozenset(self.certificate_key(*k) for k in cert) if cert is not None else None
            return CoreAnswer(_ENGINE_STATUS[status], [Move.from_code(m) for m in path], stats, keys)
        # Confluence (docs/proofs.md): the forced line decides, so no search is needed. It is the
        # engine's MODE_FORCED search without the table; tests/test_slots.py checks both agree.
        t0 = time.perf_counter()
        words, removed, slots = core.forced_line(self.name, deal.cards)
        won = removed & self.rules_class.goal == self.rules_class.goal
        states = len(words) + (0 if won else 1)  # counted as the engine counts: the won one not
        stats = {"states": states, "search": "forced-line", "seconds": time.perf_counter() - t0}
        if limits["max_states"] and states > limits["max_states"]:
            return CoreAnswer("limit-states", [], stats)
        moves = [Move.from_code(w) for w in words]
        if won:
            return CoreAnswer("won", moves, stats)
        # The stock has dealt one card per card removed.
        stock = tuple(deal.cards[9 + bin(removed).count("1"):])
        return CoreAnswer("exhausted", moves, stats, end=(moves, SlotPosition(slots, stock, removed)))

    def certificate_key(self, removed: int, aux: int) -> int:
        return removed

    def batch(self, variant: dict) -> Optional[SlotBatch]:
        # The one-pass decision rests on confluence, as the forced line does (docs/proofs.md).
        core = core_module(self.core_name())
        if core is None or not hasattr(core, "decide_seeds"):
            return None
        return SlotBatch(core, self.name)

    def forced_line(self, deal: Deal) -> tuple[list[Move], SlotPosition]:
        """Play the first legal removal until none is left (reference rules)."""
        rules = self.rules({})
        pos = rules.start(deal)
        line = []
        while not rules.won(pos):
            moves = rules.moves(pos)
            if not moves:
                break
            line.append(moves[0])
            pos = rules.apply(pos, moves[0])
        return line, pos

    def block_proof(self, deal: Deal, variant: dict, answer: CoreAnswer) -> BlockProof:
        # The core's forced line and end position when it played one, else the reference's.
        line, pos = answer.end if answer.end is not None else self.forced_line(deal)
        return self.stuck_proof(line, pos, answer.stats.get("states", len(line) + 1),
                                answer.certificate)

    def stuck_proof(self, line: list[Move], pos: SlotPosition, states: int,
                    certificate: Any = None) -> BlockProof:
        rules = self.rules({})
        left = len(pos.stock)
        sentence = (
            f"stuck after {len(line)} removals: {self.stuck_clause}; "
            f"{left} card{'s' if left != 1 else ''} left in stock"
        )
        return BlockProof(
            kind="forced-line",
            sentence=sentence,
            moves=tuple(line),
            position=rules.render(pos),
            states=states,
            certificate=certificate,
            details={"showing": [CARD_NAMES[c] for c in sorted(pos.showing)],
                     "stock_left": left, "cards_left": rules.cards_left(pos)},
        )

    def check_proof(self, deal: Deal, variant: dict, proof: BlockProof,
                    max_states: Optional[int]) -> Verification:
        if proof.kind == "forced-line":
            self.check_forced_line(deal, proof)
            return Verification(True, f"the forced line of {len(proof.moves)} moves ends stuck")
        return super().check_proof(deal, variant, proof, max_states)

    def check_forced_line(self, deal: Deal, proof: BlockProof) -> None:
        """The line must be legal and end stuck, and the proof's text must describe where."""
        rules = self.rules({})
        pos = rules.start(deal)
        for i, m in enumerate(proof.moves, start=1):
            if m not in rules.moves(pos):
                raise VerificationError(f"proof move {i} ({m}): {rules.why_illegal(pos, m)}")
            pos = rules.apply(pos, m)
        if rules.won(pos):
            raise VerificationError("the proof's line wins the deal")
        if rules.moves(pos):
            raise VerificationError(
                f"the proof's line is not stuck: {rules.moves(pos)[0]} is still legal"
            )
        # The text, the drawn position and the details must be those of the stuck position the
        # line reaches, so none of them can be tampered with alone.
        expected = self.stuck_proof(list(proof.moves), pos, proof.states)
        for part in ("sentence", "position", "details"):
            if getattr(proof, part) != getattr(expected, part):
                raise VerificationError(
                    f"the proof's {part} does not describe the position its line reaches"
                )


class Elevens(SlotGame):
    name = "elevens"
    aliases = ("eleven",)
    summary = ("nine slots; remove two number cards totalling 11 or a J-Q-K set, refill from the "
               "stock; win by removing all 52 cards")
    rules_class = ElevensRules
    stuck_clause = "no two showing cards total 11 and no J-Q-K"


class BlockTen(SlotGame):
    name = "block-ten"
    aliases = ("blockten", "block-10")
    summary = ("nine slots; remove two cards totalling 10 or two equal court cards, refill from the "
               "stock; Tens never leave; win by removing the other 48 cards")
    rules_class = BlockTenRules
    stuck_clause = "no two showing cards total 10 and no two showing court cards match"
