"""The slot family (Elevens, Block Ten, Tens, ...): one Game class driven by each game's table
entries; an order-independent game is decided and proved by one forced line, the others by an
exhaustive search."""

from __future__ import annotations

import importlib
from typing import Any, Optional, Sequence, Union

from ...cards import CARD_NAMES
from ...deal import Deal
from ...engine.backend import core_module
from ...errors import VariantError, VerificationError
from ...moves import Move
from ...result import BlockProof, Verification, counted
from ..base import CoreAnswer, Game, Option
from ..rules import replay
from .rules import ReservePosition, SlotPosition, SlotRules
from .tables import SLOT_TABLES, SlotTable


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
    """A game of the slot family, described by its entries in tables.py (no code of its own):
    one entry, or one per combination of its variant options' values (Tens: quartets=suit,
    quartets=rank)."""

    core = "games.slots._core"
    picture = "slot-grid"

    def __init__(self, tables: Union[SlotTable, Sequence[SlotTable]]) -> None:
        entries = (tables,) if isinstance(tables, SlotTable) else tuple(tables)
        first = entries[0]
        for t in entries[1:]:
            for part in ("name", "aliases", "summary", "slots", "columns", "docs", "tests", "pysolfc"):
                if getattr(t, part) != getattr(first, part):
                    raise ValueError(f"{first.name}: the entries of one game differ in {part}")
        names = [name for name, _ in first.variant]
        if any([name for name, _ in t.variant] != names for t in entries):
            raise ValueError(f"{first.name}: every entry must name the options {names}")
        #: The entries by their variant values, in the order of the options.
        self.tables = {tuple(v for _, v in t.variant): t for t in entries}
        if len(self.tables) != len(entries):
            raise ValueError(f"{first.name}: two entries play the same variant")
        #: The default variant's entry.
        self.table = first
        self.name = first.name
        self.aliases = first.aliases
        self.summary = first.summary
        self.docs, self.tests, self.pysolfc = first.docs, first.tests, first.pysolfc
        docs = dict(first.variant_doc)
        self.options = {
            name: Option(default=value,
                         choices=tuple(dict.fromkeys(dict(t.variant)[name] for t in entries)),
                         doc=docs.get(name, ""))
            for name, value in first.variant
        }
        # Confluence (docs/proofs.md): then one forced line decides and proves a block. The game
        # claims it when every variant has it; table_of(variant).confluent says it per variant.
        self.order_independent = all(t.confluent for t in entries)
        # PySolFC's own rules, where they differ from our classic rules (docs/pysolfc.md): `<game>-pysolfc`.
        self.presets = {f"{self.name}-pysolfc": dict(t.variant) for t in entries
                        if dict(t.variant).get("reserves") == "pysolfc"}
        self._rules: dict = {}
        self._compiled: dict = {}

    def table_of(self, variant: Optional[dict] = None) -> SlotTable:
        """The entry of a variant (options not given at their defaults)."""
        given = variant or {}
        key = tuple(given.get(name, opt.default) for name, opt in self.options.items())
        try:
            return self.tables[key]
        except KeyError:
            raise VariantError(f"{self.name} has no variant {given}") from None

    def rules(self, variant: dict) -> SlotRules:
        t = self.table_of(variant)
        if t not in self._rules:
            module, cls = t.rules.split(":")
            self._rules[t] = getattr(importlib.import_module(module), cls)()
        return self._rules[t]

    def compiled(self, core: Any, variant: Optional[dict] = None) -> Any:
        """The core's compiled form of the variant's entry (made once)."""
        t = self.table_of(variant)
        if t not in self._compiled:
            res = t.reserve
            self._compiled[t] = core.SlotSpec(
                t.slots, t.kinds, t.suited, t.never, sums=t.sums, bottom=t.bottom,
                bottom_later=t.bottom_later,
                reserve=(res.ranks, res.size, res.same_rank, res.refill_while_held) if res else None)
        return self._compiled[t]

    def pack(self, deal: Deal, variant: dict) -> tuple[int, ...]:
        """The pack as play deals it (the reference rules' pack_as_dealt): what the core plays."""
        return self.rules(variant).pack_as_dealt(deal.cards)

    def core_spec(self, deal: Deal, variant: dict, objective: str, certificate: bool) -> dict:
        # Without a certificate the core plays the forced line, which decides a confluent game;
        # a certificate lists every position reachable, so it needs every removal. An order-
        # dependent game is searched with one removal per rank multiset (PER_KIND), exact by the
        # suit symmetry of the core's module doc.
        core = core_module(self.core)
        mode = core.MODE_FORCED if self.table_of(variant).confluent else core.MODE_PER_KIND
        return {"table": self.compiled(core, variant), "cards": self.pack(deal, variant),
                "mode": mode}

    def certificate_key(self, removed: int, aux: int, variant: dict) -> Any:
        # A game with a reserve keeps it in aux (the reference key is the same pair).
        return (removed, aux) if self.table_of(variant).reserve else removed

    def batch(self, variant: dict) -> Optional[SlotBatch]:
        # The one-pass decision rests on confluence, as the forced line does (docs/proofs.md).
        core = core_module(self.core)
        if core is None or not self.table_of(variant).confluent:
            return None
        return SlotBatch(core, self.compiled(core, variant))

    def forced_line(self, deal: Deal, variant: Optional[dict] = None,
                    start: Any = None) -> tuple[list[Move], Any]:
        """Play the first legal removal until none is left (reference rules), from the deal's
        start or from `start`."""
        rules = self.rules(variant or {})
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
        if not self.table_of(variant).confluent:
            return super().block_proof(deal, variant, answer)
        # The core's forced line and end position when it played one from the deal's start,
        # else the reference's from where the search started.
        if (answer.end is not None and answer.end.slots is not None
                and self.table_of(variant).reserve is None):
            removed, slots = answer.end
            # The stock has dealt one card per card removed.
            stock = self.pack(deal, variant)[self.table_of(variant).slots + bin(removed).count("1"):]
            line, pos = answer.moves, SlotPosition(slots, tuple(stock), removed)
        else:
            line, pos = self.forced_line(deal, variant, answer.start)
        return self.stuck_proof(variant, line, pos, answer.stats.get("states", len(line) + 1),
                                answer.certificate)

    def stuck_proof(self, variant: dict, line: list[Move],
                    pos: Union[SlotPosition, ReservePosition], states: int,
                    certificate: Any = None) -> BlockProof:
        rules = self.rules(variant)
        t = self.table_of(variant)
        left = len(pos.stock)
        # The cards showing are named, in slot order, so a reader sees the clause's claim.
        sentence = (
            f"stuck after {counted(len(line), t.moves_noun[:-1], t.moves_noun)} with "
            f"{' '.join(CARD_NAMES[c] for c in pos.showing)} showing: {t.stuck_clause}; "
            f"{counted(left, 'card')} left in stock"
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
                    max_states: Optional[int], start: Any = None,
                    max_seconds: Optional[float] = None, memory_bytes: int = 0) -> Verification:
        if proof.kind == "forced-line":
            if not self.table_of(variant).confluent:
                raise VerificationError(f"a forced line proves nothing in {self.name}: there the "
                                        "order of play matters")
            self.check_forced_line(deal, variant, proof, start)
            return Verification(True, f"the forced line of {counted(len(proof.moves), 'move')} "
                                      "ends stuck")
        return super().check_proof(deal, variant, proof, max_states, start, max_seconds,
                                   memory_bytes)

    def check_forced_line(self, deal: Deal, variant: dict, proof: BlockProof,
                          start: Any = None) -> None:
        """The line must be legal and end stuck, and the proof's text must describe where."""
        rules = self.rules(variant)
        pos = replay(rules, deal, proof.moves, VerificationError, start, label="proof move {i}")
        if rules.won(pos):
            raise VerificationError("the proof's line wins the deal")
        if rules.moves(pos):
            raise VerificationError(
                f"the proof's line is not stuck: {rules.moves(pos)[0]} is still legal"
            )
        # The text, the drawn position and the details must be those of the stuck position the
        # line reaches, so none of them can be tampered with alone.
        expected = self.stuck_proof(variant, list(proof.moves), pos, proof.states)
        for part in ("sentence", "position", "details"):
            if getattr(proof, part) != getattr(expected, part):
                raise VerificationError(
                    f"the proof's {part} does not describe the position its line reaches"
                )


def slot_games(tables: Sequence[SlotTable]) -> list[SlotGame]:
    """One SlotGame per name in the tables (the entries of a name, in table order)."""
    by_name: dict[str, list[SlotTable]] = {}
    for t in tables:
        by_name.setdefault(t.name, []).append(t)
    return [SlotGame(entries) for entries in by_name.values()]


#: The games this folder serves, one per name in the table (the registry reads it).
GAMES = slot_games(SLOT_TABLES)
