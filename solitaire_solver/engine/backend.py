"""Which search runs: the compiled core, or the pure-Python reference search as a fallback.

Chosen once, when this module is first imported, as msgpack chooses its extension: the
fallback runs where SOLITAIRE_SOLVER_PURE is set (not "" or "0") or where the compiled core is
missing. A process that wants the other backend is started with the variable set (the test
suite runs once per backend).
"""

from __future__ import annotations

import importlib
import os
import warnings
from types import ModuleType
from typing import Optional

#: SOLITAIRE_SOLVER_PURE, read at import.
PURE: bool = os.environ.get("SOLITAIRE_SOLVER_PURE", "") not in ("", "0")

_warned = False
_loaded: dict[str, Optional[ModuleType]] = {}


def pure_requested() -> bool:
    """Whether SOLITAIRE_SOLVER_PURE was set when the package was imported."""
    return PURE


def _warn_once(message: str) -> None:
    global _warned
    if not _warned:
        _warned = True
        warnings.warn(message, RuntimeWarning, stacklevel=4)


def fallback_runs() -> None:
    """Say, once per process, that a search runs on the fallback because it was asked for (a
    missing core says so when core_module first looks for it)."""
    if PURE:
        _warn_once("solitaire_solver: SOLITAIRE_SOLVER_PURE is set; using the pure-Python search, "
                   "which is much slower than the compiled core.")


def core_module(name: str) -> Optional[ModuleType]:
    """The compiled module solitaire_solver.<name> (e.g. "games.pyramid._core"), or None when
    the fallback runs: asked for (SOLITAIRE_SOLVER_PURE), or the core missing (with one warning
    per process)."""
    if PURE:
        return None
    if name in _loaded:
        return _loaded[name]
    try:
        module = importlib.import_module(f"solitaire_solver.{name}")
    except ImportError as e:
        _warn_once(f"solitaire_solver: the compiled core is missing ({e}); using the pure-Python "
                   "search, which is much slower. Reinstall with `pip install .` to build it.")
        module = None
    _loaded[name] = module
    return module


def has_core() -> bool:
    return core_module("engine._engine") is not None
