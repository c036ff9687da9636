"""The compiled cores called through the contract (solitaire_solver/engine/contract.py) the way the
tests call them: a core's solve() with a move mode or a start position of the test's choosing,
its result as (status code, path, stats, certificate[, best]) with the engine's codes (0 won,
1 blocked, 2 state limit, 3 time limit, 4 memory limit)."""

from __future__ import annotations

from solitaire_solver.engine.contract import STATUSES, Limits

OBJECTIVES = ("decide", "shortest", "score")


def coded(run, with_best=False):
    out = (STATUSES.index(run.status), run.path, run.stats, run.certificate)
    return out + (run.best,) if with_best else out


def fourteen_search(cards, mode, certificate=False):
    from solitaire_solver.games.fourteen import _core as _fourteen
    return coded(_fourteen.solve({"cards": cards, "mode": mode}, "decide", Limits(), certificate))


def fourteen_moves(cards, removed, mode):
    """The move words the Fourteen core generates in a position, in one move mode."""
    from solitaire_solver.games.fourteen import _core as _fourteen
    return [w for w, _, _ in _fourteen.expand({"cards": cards, "mode": mode}, removed, 0)]


def nestor_search(columns, stock, open_reserve, **spec):
    from solitaire_solver.games.nestor import _core as _nestor
    return coded(_nestor.solve({"columns": columns, "stock": stock, "open": open_reserve, **spec},
                               "decide", Limits(), False))


def pyramid_search(cards, passes=3, goal_all=True, stock_waste_pairs=True, objective=0,
                   max_states=0, max_seconds=0.0, memory_bytes=256 << 20, certificate=False,
                   root_position=None, overlap_pairs=False):
    from solitaire_solver.games.pyramid import _core as _pyramid
    spec = {"cards": cards, "passes": passes, "goal_all": goal_all,
            "stock_waste_pairs": stock_waste_pairs, "root": root_position,
            "overlap_pairs": overlap_pairs}
    return coded(_pyramid.solve(spec, OBJECTIVES[objective],
                                Limits(max_states, max_seconds, memory_bytes), certificate),
                 with_best=True)


def pyramid_expand(cards, removed, aux, passes=3, goal_all=True, stock_waste_pairs=True,
                   all_moves=True, overlap_pairs=False):
    from solitaire_solver.games.pyramid import _core as _pyramid
    spec = {"cards": cards, "passes": passes, "goal_all": goal_all,
            "stock_waste_pairs": stock_waste_pairs, "all_moves": all_moves,
            "overlap_pairs": overlap_pairs}
    return _pyramid.expand(spec, removed, aux)


def refused_everywhere(core, spec, removed, aux, match):
    """Every contract entry that takes a position refuses (removed, aux) with a ValueError whose
    message matches `match`: expand, step, random_win, playouts and solve's spec["root"]."""
    import pytest

    asks = (lambda: core.expand(spec, removed, aux), lambda: core.step(spec, removed, aux),
            lambda: core.random_win(spec, removed, aux, 100, 0.0, 1 << 20),
            lambda: core.playouts(spec, removed, aux, 2, 1, 100),
            lambda: core.solve(dict(spec, root=(removed, aux)), "decide", Limits(100), False))
    for ask in asks:
        with pytest.raises(ValueError, match=match):
            ask()
