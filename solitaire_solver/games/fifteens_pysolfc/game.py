"""Fifteens under PySolFC's rules (PySolFC game 597; docs/fifteens.md, "PySolFC"): its own
reference rules and core, since a position holds piles on the rows and an ordered reserve, which
the slot family's rows of single cards cannot."""

from __future__ import annotations

from typing import Any, Optional

from ...cards import value
from ...deal import Deal
from ...engine.backend import core_module
from ...engine.contract import Limits
from ...errors import VariantError, quoted
from ...moves import Move
from ..base import CoreAnswer, Game
from .rules import FifteensPySolFCRules


class FifteensPySolFC(Game):
    name = "fifteens-pysolfc"
    docs = "fifteens.md"
    tests = "test_fifteens_pysolfc.py"
    summary = ("Fifteens as PySolFC plays it: sixteen rows; two tops totalling 15 leave, any top "
               "goes onto one reserve, which clears at number cards totalling 15 or T-J-Q-K, and "
               "its top may go back onto a row it pairs with; rows refill while the reserve is "
               "empty; win by removing all 52 cards")
    core = "games.fifteens_pysolfc._core"
    picture = "rows-and-reserve"
    #: The core's move words name classes of rows by card values, not cards (its module doc):
    #: core_line turns a line of them into the reference rules' moves.
    core_words_are_moves = False

    def __init__(self) -> None:
        self._rules = FifteensPySolFCRules()

    def rules(self, variant: dict) -> FifteensPySolFCRules:
        return self._rules

    def core_spec(self, deal: Deal, variant: dict, objective: str, certificate: bool) -> dict:
        if objective != "decide":
            raise VariantError(f"{self.name} has no objective {quoted(objective)} (it has: decide)")
        return {"cards": deal.cards}

    def core_position(self, pos: Any, variant: dict) -> tuple[int, int]:
        return self._core().position_of(self._rules.key(pos))

    def certificate_key(self, removed: int, aux: int, variant: dict) -> Any:
        return self._core().key_of(removed, aux)

    def core_root(self, deal: Deal, variant: dict, start: Any) -> tuple[int, int]:
        # The core packs positions by card values: even the deal's start is given as a root.
        return self.core_position(self._rules.start(deal) if start is None else start, variant)

    def first_try(self, deal: Deal, variant: dict, objective: str, limits: Limits,
                  certificate: bool, start: Any = None) -> Optional[CoreAnswer]:
        """Our Fifteens' search, whose wins are wins here (docs/fifteens.md, "Why it is won more
        often"): each group goes onto the empty reserve card by card (two cards totalling 15
        leave from the rows as a pair), no part of a group totals 15 before the whole, and the
        rows refill after it as our slots do. The line is replayed under the reference rules
        before it is given. None with a certificate (it must list this game's positions) and
        in a game in progress (our Fifteens' positions are not this game's)."""
        from .. import get_game

        if certificate or objective != "decide" or start is not None:
            return None
        classic, _ = get_game("fifteens")
        var = classic.variant()
        core = core_module(classic.core)
        ans = (classic.core_solve(core, deal, var, "decide", limits, False) if core is not None
               else classic.reference_answer(deal, var, "decide", limits, False))
        stats = {"states": ans.stats.get("states", 0), "seconds": ans.stats.get("seconds", 0.0),
                 "first_try": f"fifteens: {ans.status}"}
        if ans.status != "won":
            return CoreAnswer(ans.status, [], stats)
        rules = self._rules
        pos = rules.start(deal)
        line: list[Move] = []
        for group in ans.moves:
            numbers = all(value(c) <= 9 for c in group.cards)
            steps = ([group] if numbers and len(group.cards) == 2
                     else [Move.to_reserve(c) for c in group.cards])
            for m in steps:
                pos = rules.play(pos, m)  # a MoveError here would be a bug: never a wrong line
            line.extend(steps)
        if not rules.won(pos):
            raise RuntimeError(f"{self.name}: a win of fifteens did not win here")
        stats["backend"] = "core" if core is not None else "reference"
        return CoreAnswer("won", line, stats)

    def core_line(self, core: Any, spec: dict, deal: Deal, start: Any, path: list) -> list[Move]:
        """The reference rules' moves of a line of core words played from `start` (None: the
        deal's start): at each step a legal move leading to the position (by key) the core's
        word leads to."""
        rules = self._rules
        pos = rules.start(deal) if start is None else start
        state = self.core_position(pos, {})
        out = []
        for i, word in enumerate(path, start=1):
            child = next(((r, a) for w, r, a in core.expand(spec, *state) if w == word), None)
            want = None if child is None else core.key_of(*child)
            for m in rules.moves(pos):
                after = rules.apply(pos, m)
                if rules.key(after) == want:
                    break
            else:
                raise RuntimeError(f"{self.name}: the core's move {i} has no reference move")
            out.append(m)
            pos, state = after, child
        return out

    def _core(self) -> Any:
        core = core_module(self.core)
        if core is None:
            raise RuntimeError(f"{self.name}: the compiled core is not available")
        return core


#: The games this folder serves (the registry reads it: games/__init__.py).
GAMES = (FifteensPySolFC(),)
