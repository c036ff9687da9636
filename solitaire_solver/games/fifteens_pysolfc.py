"""Fifteens under PySolFC's rules (PySolFC game 597; docs/fifteens.md, "PySolFC"): its own
reference rules and core, since a position holds piles on the rows and an ordered reserve, which
the slot family's rows of single cards cannot."""

from __future__ import annotations

from typing import Any

from ..backend import core_module
from ..contract import Limits
from ..deal import Deal
from ..errors import VariantError
from ..moves import Move
from ..rules.fifteens_pysolfc import FifteensPySolFCRules
from .base import CoreAnswer, Game


class FifteensPySolFC(Game):
    name = "fifteens-pysolfc"
    summary = ("Fifteens as PySolFC plays it: sixteen rows; two tops totalling 15 leave, any top "
               "goes onto one reserve, which clears at number cards totalling 15 or T-J-Q-K, and "
               "its top may go back onto a row it pairs with; rows refill while the reserve is "
               "empty; win by removing all 52 cards")
    core = "_fifteens_pysolfc"
    #: The core's move words name classes of rows by card values, not cards (its module doc):
    #: core_line turns a line of them into the reference rules' moves.
    core_words_are_moves = False

    def __init__(self) -> None:
        self._rules = FifteensPySolFCRules()

    def rules(self, variant: dict) -> FifteensPySolFCRules:
        return self._rules

    def core_spec(self, deal: Deal, variant: dict, objective: str, certificate: bool) -> dict:
        if objective != "decide":
            raise VariantError(f"{self.name} has no objective {objective!r} (it has: decide)")
        return {"cards": deal.cards}

    def core_position(self, pos: Any, variant: dict) -> tuple[int, int]:
        return self._core().position_of(self._rules.key(pos))

    def certificate_key(self, removed: int, aux: int, variant: dict) -> Any:
        return self._core().key_of(removed, aux)

    def core_solve(self, core: Any, deal: Deal, variant: dict, objective: str, limits: Limits,
                   certificate: bool, start: Any = None) -> CoreAnswer:
        spec = self.core_spec(deal, variant, objective, certificate)
        pos = self._rules.start(deal) if start is None else start
        root = self.core_position(pos, variant)
        spec["root"] = root
        run = core.solve(spec, objective, limits, certificate)
        keys = None
        if run.certificate is not None:
            keys = frozenset(core.key_of(r, a) for r, a in run.certificate)
        return CoreAnswer(run.status, self.core_line(core, spec, pos, run.path), run.stats, keys,
                          start=start)

    def core_line(self, core: Any, spec: dict, pos: Any, path: list) -> list[Move]:
        """The reference rules' moves of a line of core words played from pos: at each step a
        legal move leading to the position (by key) the core's word leads to."""
        rules = self._rules
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
