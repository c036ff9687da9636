"""The core and the reference rules played side by side, in the pyroaring manner: a hypothesis
state machine per game makes random legal moves on both and, after every step, compares the legal
moves, the position and the verdict."""

from __future__ import annotations

import pytest
from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

from solitaire_solver.deal import Deal
from solitaire_solver.engine.backend import core_module
from solitaire_solver.engine.contract import Limits
from solitaire_solver.engine.search import reference_search
from solitaire_solver.errors import VariantError
from solitaire_solver.games import GAMES
from solitaire_solver.moves import Move

pytestmark = pytest.mark.core

#: Values to try for options that list no choices (a new such option must add its own here).
def variant_cases() -> list:
    """Every game with a core under its defaults, under each other value of each option (one
    option at a time) and under each preset, where the game has that variant (Tens' PySolFC
    reserves go with rank quartets only): a game or option added to the registry is covered
    without a line here."""
    cases = []
    for g in GAMES:
        if not g.core:
            continue
        given = [{}]
        for name, opt in g.options.items():
            values = opt.choices if opt.choices is not None else opt.samples
            given += [{name: v} for v in values if v != opt.default]
        given += [dict(p) for p in g.presets.values() if p]
        seen = []
        for gv in given:
            var = g.variant(**gv)
            try:
                g.rules(var)
            except VariantError:
                continue
            if var not in seen:
                seen.append(var)
                cases.append((g, gv))
    return cases


CASES = variant_cases()

#: The verdicts are compared where the reference search ends within this many positions.
REFERENCE_BUDGET = 400


def machine_for(game, given):
    var = game.variant(**given)
    rules = game.rules(var)
    core = core_module(game.core)

    class SideBySide(RuleBasedStateMachine):
        """Both implementations hold the same position: the reference one as a position object,
        the core's as its packed (removed, aux)."""

        # Montana's redeals shuffle with the deal's own generator: a seeded deal carries it.
        @initialize(deal=st.integers(0, 1 << 64).map(Deal.from_seed) if game.name == "montana"
                    else st.permutations(range(52)).map(Deal))
        def deal(self, deal):
            self.pos = rules.start(deal)
            self.spec = game.core_spec(deal, var, "decide", False)
            self.packed = game.core_position(self.pos, var)

        def core_moves(self):
            return {Move.from_code(w): (r, a) for w, r, a in core.expand(self.spec, *self.packed)}

        @rule(pick=st.integers(min_value=0))
        def play(self, pick):
            moves = [] if rules.won(self.pos) else rules.moves(self.pos)
            if not moves:
                return  # the game is over: the invariants keep holding
            move = moves[pick % len(moves)]
            self.pos = rules.apply(self.pos, move)
            if game.core_words_are_moves:
                self.packed = self.core_moves()[move]
            else:
                # Words by class of rows (fifteens-pysolfc): the core's successor of that key.
                after = {game.certificate_key(r, a, var): (r, a)
                         for _, r, a in core.expand(self.spec, *self.packed)}
                self.packed = after[rules.key(self.pos)]

        @invariant()
        def same_moves_and_position(self):
            want = {m: rules.key(rules.apply(self.pos, m)) for m in rules.moves(self.pos)}
            if game.core_words_are_moves:
                have = {m: game.certificate_key(r, a, var)
                        for m, (r, a) in self.core_moves().items()}
                assert have == want, rules.render(self.pos)
            else:
                have = {game.certificate_key(r, a, var)
                        for _, r, a in core.expand(self.spec, *self.packed)}
                assert have == set(want.values()), rules.render(self.pos)
            assert game.certificate_key(*self.packed, var) == rules.key(self.pos)

        @invariant()
        def same_verdict(self):
            ref = reference_search(rules, self.pos, max_states=REFERENCE_BUDGET)
            if ref.status not in ("won", "exhausted"):
                return
            spec = dict(self.spec, root=game.core_position(self.pos, var))
            run = core.solve(spec, "decide", Limits(), False)
            assert run.status == ref.status, rules.render(self.pos)

    SideBySide.__name__ = f"SideBySide_{game.name}"
    return SideBySide


@pytest.mark.parametrize("case", CASES,
                         ids=lambda c: c[0].name + "".join(f"-{k}={v}" for k, v in c[1].items()))
def test_core_and_reference_side_by_side(case):
    machine = machine_for(*case)
    machine.TestCase.settings = settings(max_examples=6, stateful_step_count=10, deadline=None)
    machine.TestCase().runTest()
