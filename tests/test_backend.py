"""Without the compiled core the library still answers, with a warning, through the reference search."""

import importlib
import importlib.util
import os
import warnings

import pytest

import solitaire_solver as ss
from solitaire_solver import solver
from solitaire_solver.engine import backend


def test_missing_core_warns_once_and_falls_back(monkeypatch):
    monkeypatch.delenv("SOLITAIRE_SOLVER_PURE", raising=False)  # a missing core, not a wish
    real = importlib.import_module

    def no_core(name, *a, **k):
        if name.startswith("solitaire_solver.") and name.rsplit(".", 1)[1].startswith("_"):
            raise ImportError(f"No module named {name!r}")
        return real(name, *a, **k)

    monkeypatch.delenv("SOLITAIRE_SOLVER_PURE", raising=False)  # the missing core's warning
    monkeypatch.setattr(backend.importlib, "import_module", no_core)
    monkeypatch.setattr(backend, "_warned", False)
    monkeypatch.setattr(backend, "_loaded", {})
    monkeypatch.setattr(backend, "PURE", False)
    monkeypatch.setattr(solver, "_SOLVERS", {})
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        r1 = ss.solve("elevens", ss.random_deal(3))
        r2 = ss.solve("elevens", ss.random_deal(2))
    assert [str(w.message) for w in caught if w.category is RuntimeWarning][0].startswith(
        "solitaire_solver: the compiled core is missing")
    assert sum(w.category is RuntimeWarning for w in caught) == 1
    assert r1.stats["backend"] == r2.stats["backend"] == "reference"
    assert r1.won and r2.blocked
    assert ss.verify("elevens", ss.random_deal(3), r1).ok
    assert ss.verify("elevens", ss.random_deal(2), r2).ok


@pytest.mark.core
def test_core_is_used_by_default():
    assert backend.has_core()
    assert ss.solve("elevens", ss.random_deal(3)).stats["backend"] == "core"


def test_the_backend_is_chosen_once_at_import(monkeypatch):
    """SOLITAIRE_SOLVER_PURE is read when the package is imported (as msgpack chooses its
    extension), not at each call: a process sees the backend it started with."""
    import subprocess
    import sys

    # The child imports the package the tests import, not a source tree in the working directory.
    home = str(os.path.dirname(os.path.dirname(ss.__file__)))
    for value, pure in (("1", True), ("0", False), ("", False), ("yes", True)):
        env = {**os.environ, "SOLITAIRE_SOLVER_PURE": value, "PYTHONPATH": home}
        out = subprocess.run([sys.executable, "-W", "ignore", "-c",
                              "from solitaire_solver.engine import backend; "
                              "print(backend.pure_requested(), "
                              "backend.core_module('engine._engine') is None)"],
                             env=env, capture_output=True, text=True, check=True,
                             cwd=os.path.expanduser("~")).stdout.split()
        built = importlib.util.find_spec("solitaire_solver.engine._engine") is not None
        assert out == [str(pure), str(pure or not built)], value
    before = backend.pure_requested()
    monkeypatch.setenv("SOLITAIRE_SOLVER_PURE", "" if before else "1")
    assert backend.pure_requested() is before


def test_solve_takes_the_solvers_options():
    """ss.solve(game, deal, **kw) is Solver(game, **options).solve(deal, ...): its keyword
    parameters are the Solver's and Solver.solve's, with the same defaults."""
    import inspect

    def params(f):
        return {p.name: p.default for p in inspect.signature(f).parameters.values()
                if p.kind is inspect.Parameter.KEYWORD_ONLY}

    assert params(ss.solve) == {**params(ss.Solver), **params(ss.Solver.solve)}
