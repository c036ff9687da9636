"""ss.Solver: a game, its variant, an objective and limits prepared once, then many deals."""

import pytest

import solitaire_solver as ss
from solitaire_solver.games import GAMES


@pytest.mark.parametrize("name", sorted({n for g in GAMES for n in (g.name, *g.presets)}))
def test_a_prepared_solver_answers_as_solve_does(name):
    """ss.Solver works for every game and preset: prepared once, it answers deal after deal as
    ss.solve does, its answers verify, and its hint follows its own answer."""
    solver = ss.Solver(name, max_states=3000)
    for seed in range(3):
        deal = ss.random_deal(seed)
        r = solver.solve(deal)
        again = ss.solve(name, deal, max_states=3000)
        assert (r.status, r.moves, r.proof) == (again.status, again.moves, again.proof), seed
        if r.status is not ss.Status.UNKNOWN:
            assert solver.verify(deal, r, after=r.after).ok is not False, seed
            h = solver.hint(deal)
            assert h.move == (r.moves[0] if r.won and r.moves else None), seed


def test_a_solver_refuses_what_solve_refuses():
    """The Solver checks its game, objective, limits and variant once, when it is made."""
    with pytest.raises(ss.UnknownGameError):
        ss.Solver("twelves")
    with pytest.raises(ss.SolitaireError, match="objective"):
        ss.Solver("elevens", objective="shortest")
    with pytest.raises(ss.SolitaireError, match="max_states"):
        ss.Solver("elevens", max_states=0)
    with pytest.raises(ss.VariantError):
        ss.Solver("pyramid", passes="x")
    with pytest.raises(ss.SolitaireError, match="hint follows a winning line"):
        ss.Solver("pyramid", objective="score").hint(ss.random_deal(1))


def test_a_solver_says_what_it_was_prepared_with():
    s = ss.Solver("pyramid-msc", max_seconds=5)
    assert repr(s).startswith("Solver('pyramid', objective='decide', max_seconds=5, memory_mb=256")
    assert s.game.name == "pyramid" and s.variant["goal"] == "pyramid"


def test_analyze_bounds_the_whole_call_by_max_seconds(monkeypatch):
    """Solver.analyze: max_seconds bounds the whole call, each position's search given the time
    left (strictly less for each later one); before, each had the whole limit."""
    solver = ss.Solver("fourteen", max_seconds=100)
    deal = ss.random_deal(2)
    first = next(v.move for v in ss.Solver("fourteen").moves(deal)
                 if v.status is ss.Status.BLOCKED)  # a move that loses a won deal
    seen = []
    real = solver.game.answer

    def spy(core, d, var, objective, limits, *rest):
        seen.append(limits.max_seconds)
        return real(core, d, var, objective, limits, *rest)

    monkeypatch.setattr(solver.game, "answer", spy)
    a = solver.analyze(deal, [first])
    assert a.winnable is True and a.blunder == 1 and len(seen) == 2
    assert 0 < seen[1] < seen[0] <= 100
