"""The slot family (Elevens, Block Ten, ...): one Game class driven by each game's table entry;
an order-independent game is decided and proved by one forced line."""

from __future__ import annotations

import importlib
from typing import Any, Optional

from ..backend import core_module
from ..cards import CARD_NAMES
from ..deal import Deal
from ..errors import VerificationError
from ..moves import Move
from ..result import BlockProof, Verification
from ..rules.slots import SlotPosition, SlotRules
from ..slot_tables import SlotTable
from .base import CoreAnswer, Game


class SlotBatch:
    """The slot core's batch decider bound to one game's compiled table (Game.batch)."""

    def __init__(self, core: Any, table: Any) -> None:
        self.core = core
        self.table = table

    def decide_seeds(self, start: int, count: int, status: Any, left: Any, moves: Any,
                     states: Any) -> None:
        self.core.decide_seeds(self.table, start, count, status, left, moves, states)

    def decide_deals(self, deals: Any, status: Any, left: Any, moves: Any, states: Any) -> None:
        self.core.decide_deals(self.table, deals, status, left, moves, states)

    def tally(self, status: Any, left: Any, states: Any) -> tuple[int, list, list]:
        return self.core.tally(status, left, states)


class SlotGame(Game):
    """A game of the slot family, described by its entry in slot_tables (no code of its own)."""

    core = "_slots"

    def __init__(self, table: SlotTable) -> None:
        self.table = table
        self.name = table.name
        self.aliases = table.aliases
        self.summary = table.summary
        # Confluence (docs/proofs.md): then one forced line decides and proves a block.
        self.order_independent = table.confluent
        module, cls = table.rules.split(":")
        self.rules_class = getattr(importlib.import_module(module), cls)
        self._compiled: Any = None

    def rules(self, variant: dict) -> SlotRules:
        return self.rules_class()

    def compiled(self, core: Any) -> Any:
        """The core's compiled form of the table (made once)."""
        if self._compiled is None:
            t = self.table
            self._compiled = core.SlotSpec(t.slots, t.kinds, t.suited, t.never)
        return self._compiled

    def core_spec(self, deal: Deal, variant: dict, objective: str, certificate: bool) -> dict:
        # Without a certificate the core plays the forced line, which decides a confluent game;
        # a certificate lists every position reachable, so it needs every removal.
        core = core_module(self.core)
        mode = core.MODE_FORCED if self.order_independent else core.MODE_PER_KIND
        return {"table": self.compiled(core), "cards": deal.cards, "mode": mode}

    def certificate_key(self, removed: int, aux: int, variant: dict) -> int:
        return removed

    def batch(self, variant: dict) -> Optional[SlotBatch]:
        # The one-pass decision rests on confluence, as the forced line does (docs/proofs.md).
        core = core_module(self.core)
        if core is None or not self.order_independent:
            return None
        return SlotBatch(core, self.compiled(core))

    def forced_line(self, deal: Deal, start: Optional[SlotPosition] = None
                    ) -> tuple[list[Move], SlotPosition]:
        """Play the first legal removal until none is left (reference rules), from the deal's
        start or from `start`."""
        rules = self.rules({})
        pos = rules.start(deal) if start is None else start
        line = []
        while not rules.won(pos):
            moves = rules.moves(pos)
            if not moves:
                break
            line.append(moves[0])
            pos = rules.apply(pos, moves[0])
        return line, pos

    def block_proof(self, deal: Deal, variant: dict, answer: CoreAnswer) -> BlockProof:
        if not self.order_independent:
            return super().block_proof(deal, variant, answer)
        # The core's forced line and end position when it played one from the deal's start,
        # else the reference's from where the search started.
        if answer.end is not None and answer.end[1] is not None:
            removed, slots = answer.end
            # The stock has dealt one card per card removed.
            stock = tuple(deal.cards[self.table.slots + bin(removed).count("1"):])
            line, pos = answer.moves, SlotPosition(slots, stock, removed)
        else:
            line, pos = self.forced_line(deal, answer.start)
        return self.stuck_proof(line, pos, answer.stats.get("states", len(line) + 1),
                                answer.certificate)

    def stuck_proof(self, line: list[Move], pos: SlotPosition, states: int,
                    certificate: Any = None) -> BlockProof:
        rules = self.rules({})
        left = len(pos.stock)
        sentence = (
            f"stuck after {len(line)} removals: {self.table.stuck_clause}; "
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
                    max_states: Optional[int], start: Any = None) -> Verification:
        if proof.kind == "forced-line":
            if not self.order_independent:
                raise VerificationError(f"a forced line proves nothing in {self.name}: there the "
                                        "order of play matters")
            self.check_forced_line(deal, proof, start)
            return Verification(True, f"the forced line of {len(proof.moves)} moves ends stuck")
        return super().check_proof(deal, variant, proof, max_states, start)

    def check_forced_line(self, deal: Deal, proof: BlockProof, start: Any = None) -> None:
        """The line must be legal and end stuck, and the proof's text must describe where."""
        rules = self.rules({})
        pos = rules.start(deal) if start is None else start
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
