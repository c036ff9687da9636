"""The one game contract, for every game with a core: the core's moves and positions are the
reference rules', and a search from any reachable position agrees with the reference search."""

from __future__ import annotations

import random

import pytest
from lines import keeps_winnable, random_moves

import solitaire_solver as ss
from solitaire_solver.engine.backend import core_module
from solitaire_solver.engine.contract import CoreRun, Limits
from solitaire_solver.engine.search import reference_search
from solitaire_solver.games import GAMES
from solitaire_solver.moves import Move

pytestmark = pytest.mark.core

#: Small variants keep the reference searches short; each game's defaults are included.
CASES = [(g, {}) for g in GAMES if g.core] + [
    (g, {"reserve": "open"}) for g in GAMES if g.name == "nestor"] + [
    (g, {"passes": 1, "goal": "pyramid"}) for g in GAMES if g.name == "pyramid"] + [
    (g, {"passes": 1, "overlap_pairs": True}) for g in GAMES if g.name == "pyramid"] + [
    (g, dict(fixed)) for g in GAMES if g.core for fixed in g.presets.values()
    if fixed.get("reserves") == "pysolfc"] + [
    (g, {"consolidate": "stuck"}) for g in GAMES if g.name == "monte-carlo"] + [
    (g, {"ranks": 5, "redeals": 1}) for g in GAMES if g.name == "montana"]

#: Cases whose reference search decides few random mid-game positions within its budget, both
#: ways: Montana's full game (random play from a deal of thirteen ranks seldom stays winnable
#: within reach; its small ranks above are compared both ways).
ONE_WAY = {"montana"}


#: Plies of random play before the search test's positions, where the default loses too often:
#: a random move in PySolFC's Tens mostly puts a card of a rank not all showing in the reserve.
#: PySolFC's Fifteens plays long (one card at a time to the reserve), and a Calculation deal
#: keeps 48 stock cards to turn: later positions keep the reference searches short.
PLIES = {"tens-quartets=rank-reserves=pysolfc": (0, 4), "fifteens-pysolfc": (20, 60),
         "calculation": (46, 60)}


def ids(case):
    g, var = case
    return g.name + "".join(f"-{k}={v}" for k, v in var.items())


def positions(case, count, plies, rng_seed):
    """(game, variant, rules, core, seed, deal, position) for random mid-game positions."""
    g, given = case
    var = g.variant(**given)
    rules = g.rules(var)
    core = core_module(g.core)
    rng = random.Random(rng_seed)
    for seed in range(count):
        deal = ss.random_deal(seed)
        _, pos = random_moves(rules, rules.start(deal), rng, rng.randrange(*plies),
                              keeps_winnable(rules))
        yield g, var, rules, core, seed, deal, pos


@pytest.mark.parametrize("case", CASES, ids=ids)
def test_core_moves_and_successors_are_the_references(case):
    for g, var, rules, core, seed, deal, pos in positions(case, 40, (0, 20), 11):
        spec = g.core_spec(deal, var, "decide", False)
        removed, aux = g.core_position(pos, var)
        expanded = core.expand(spec, removed, aux)
        want = {m: rules.key(rules.apply(pos, m)) for m in rules.moves(pos)}
        if g.core_words_are_moves:
            have = {Move.from_code(w): g.certificate_key(r, a, var) for w, r, a in expanded}
            assert have == want, (seed, rules.render(pos))
        else:
            # Words by class of rows: the same positions follow, each word once.
            assert len({w for w, _, _ in expanded}) == len(expanded)
            have = {g.certificate_key(r, a, var) for w, r, a in expanded}
            assert have == set(want.values()), (seed, rules.render(pos))


@pytest.mark.parametrize("case", CASES, ids=ids)
def test_search_from_a_midgame_root_agrees_with_the_reference(case):
    compared = {"won": 0, "exhausted": 0}
    for g, var, rules, core, seed, deal, pos in positions(case, 60, PLIES.get(ids(case), (8, 30)),
                                                          5):
        ref = reference_search(rules, pos, max_states=3000)
        if ref.status not in compared:
            continue
        spec = dict(g.core_spec(deal, var, "decide", False), root=g.core_position(pos, var))
        run = core.solve(spec, "decide", Limits(), False)
        assert isinstance(run, CoreRun)
        assert run.status == ref.status, (seed, rules.render(pos))
        compared[run.status] += 1
        if run.status == "won":
            p = pos
            for m in g.core_line(core, spec, deal, pos, run.path):
                p = rules.play(p, m)
            assert rules.won(p), seed
    assert (compared["won"] or ids(case) in ONE_WAY) and compared["exhausted"], compared


def test_make_result_gives_the_result_the_constructor_gives():
    """solve() builds its Result with make_result() (the frozen dataclass's __init__ is slow):
    every field must be set as Result(...) sets it, defaults included, and the Result stay
    frozen."""
    import pickle
    from dataclasses import FrozenInstanceError, fields

    from solitaire_solver.result import Result, Status, _Lazy, make_result

    kw = dict(moves=(Move.from_text("KS"),), stats={"states": 3}, variant={"passes": 1},
              objective="shortest", score=7, reason="r", after=(Move.from_text("draw"),))
    fast, slow = make_result("pyramid", Status.WON, **kw), Result("pyramid", Status.WON, **kw)
    assert fast == slow and repr(fast) == repr(slow) and vars(fast) == vars(slow)
    assert vars(make_result("pyramid", Status.UNKNOWN)) == vars(Result("pyramid", Status.UNKNOWN))
    # a field made when first read (moves, proof: result._Lazy) is kept under "_" + its name
    lazy = {name for name, v in vars(Result).items() if isinstance(v, _Lazy)}
    assert lazy == {"moves", "proof"}
    assert list(vars(fast)) == [("_" if f.name in lazy else "") + f.name for f in fields(Result)]
    assert pickle.loads(pickle.dumps(fast)) == slow
    with pytest.raises(FrozenInstanceError):
        fast.game = "elevens"  # type: ignore[misc]


def test_a_core_with_a_cards_entry_serves_its_solver():
    """A core that offers TextDecider (contract.py) names the spec keys it reads, and a plain
    decide Solver of its game calls it (and answers as Game.answer does: tests/test_pyramid.py);
    no other game's Solver has such an entry."""
    served = []
    for g in GAMES:
        core = core_module(g.core) if g.core else None
        entry = getattr(core, "TextDecider", None)
        if entry is not None:
            assert isinstance(core.DECIDE_KEYS, frozenset), g.name
        solver = ss.Solver(g.name)
        assert (solver._text_entry is not None) == (entry is not None), g.name
        if entry is not None:
            served.append(g.name)
            text = str(ss.random_deal(1))
            r = solver.solve(text)
            general = g.answer(core, ss.Deal(text), g.variant(), "decide", solver.limits, False)
            assert (r.status, r.moves, r.proof) == (general.status, general.moves, general.proof)
    assert served == ["pyramid"]

