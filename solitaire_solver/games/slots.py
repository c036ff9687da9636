"""Elevens and Block Ten: order-independent slot games, decided and proved by one forced line."""

from __future__ import annotations

from typing import Any

from ..backend import core_module
from ..deal import Deal
from ..errors import VerificationError
from ..moves import Move
from ..result import BlockProof
from ..rules.blockten import BlockTenRules
from ..rules.elevens import ElevensRules
from ..rules.slots import SlotPosition, SlotRules
from .base import CoreAnswer, Game

_ENGINE_STATUS = ("won", "exhausted", "limit-states", "limit-time", "limit-memory")


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
        # A certificate lists every position; the forced line explores one line, so ask the core
        # for every removal then.
        mode = core.MODE_ALL if certificate else core.MODE_FORCED
        status, path, stats, cert = core.solve(
            self.name, deal.cards, mode, limits["max_states"], limits["max_seconds"],
            limits["memory_bytes"], certificate,
        )
        moves = [Move.from_code(m) for m in path]
        keys = frozenset(self.certificate_key(*k) for k in cert) if cert is not None else None
        return CoreAnswer(_ENGINE_STATUS[status], moves, stats, keys)

    def certificate_key(self, removed: int, aux: int) -> int:
        return removed

    def forced_line(self, deal: Deal) -> tuple[list[Move], SlotPosition]:
        """Play the first legal removal until none is left: in the core when it is there, else
        with the reference rules (both give the same line: tests/test_slots.py)."""
        core = core_module(self.core_name())
        if core is not None:
            words, removed, slots = core.forced_line(self.name, deal.cards)
            dealt = 9 + bin(removed).count("1")
            return ([Move.from_code(w) for w in words],
                    SlotPosition(slots, tuple(deal.cards[dealt:]), removed))
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
        line, pos = self.forced_line(deal)
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
            details={"showing": [str(Move.remove([c])) for c in sorted(pos.showing)],
                     "stock_left": left, "cards_left": rules.cards_left(pos)},
        )

    def check_forced_line(self, deal: Deal, proof: BlockProof) -> None:
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
