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


def core_module(name: str) -> Optional[ModuleType]:
    """The compiled module solitaire_solver.<name> (e.g. "games.pyramid._core"), or None (with
    one warning per process, the same whether the core is missing or the fallback was asked
    for) when the fallback runs."""
    if PURE:
        _warn_once("solitaire_solver: SOLITAIRE_SOLVER_PURE is set; using the pure-Python search, "
                   "which is much slower than the compiled core.")
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
