"""Without the compiled core the library still answers, with a warning, through the reference search."""

import importlib
import warnings

import pytest

import solitaire_solver as ss
from solitaire_solver import backend


def test_missing_core_warns_once_and_falls_back(monkeypatch):
    monkeypatch.delenv("SOLITAIRE_SOLVER_PURE", raising=False)  # a missing core, not a wish
    real = importlib.import_module

    def no_core(name, *a, **k):
        if name.startswith("solitaire_solver._"):
            raise ImportError(f"No module named {name!r}")
        return real(name, *a, **k)

    monkeypatch.delenv("SOLITAIRE_SOLVER_PURE", raising=False)  # the missing core's warning
    monkeypatch.setattr(backend.importlib, "import_module", no_core)
    monkeypatch.setattr(backend, "_warned", False)
    monkeypatch.setattr(backend, "_loaded", {})
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


def test_the_fallback_switch_is_read_at_each_call(monkeypatch):
    """SOLITAIRE_SOLVER_PURE set, changed or removed while the process runs takes effect at the
    next call (the environment is read through the C library's getenv where the core has it)."""
    for value, pure in (("1", True), ("0", False), ("", False), ("yes", True)):
        monkeypatch.setenv("SOLITAIRE_SOLVER_PURE", value)
        assert backend.pure_requested() is pure, value
    monkeypatch.delenv("SOLITAIRE_SOLVER_PURE")
    assert backend.pure_requested() is False
    monkeypatch.setenv("SOLITAIRE_SOLVER_PURE", "1")
    assert backend.core_module("_engine") is None


@pytest.mark.core
def test_the_compiled_solve_takes_what_api_solve_takes():
    """With the core built, ss.solve is the compiled _quick.solve (plain calls answered in C):
    its own parameters (names, kinds, defaults) must be api.solve's, and it must say so."""
    import inspect

    from solitaire_solver import _quick, api

    assert ss.solve is _quick.solve and ss.solve.__doc__ == api.solve.__doc__

    def plain(f, **kw):
        return [(p.name, p.kind, p.default) for p in inspect.signature(f, **kw).parameters.values()]

    assert plain(_quick.solve, follow_wrapped=False) == plain(api.solve)
    assert inspect.signature(ss.solve) == inspect.signature(api.solve)
