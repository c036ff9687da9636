"""Which search runs: the compiled core, or the pure-Python reference search as a fallback.

Set SOLITAIRE_SOLVER_PURE=1 to force the fallback (the test suite runs against both).
"""

from __future__ import annotations

import importlib
import os
import warnings
from types import ModuleType
from typing import Callable, Optional

_warned = False
_loaded: dict[str, ModuleType] = {}


def _c_pure() -> Optional[Callable[[], bool]]:
    """The core's pure_requested, which looks the variable up in os.environ's own mapping from
    C, on POSIX, else None. os.environ.get runs four functions of the os module, and a solve()
    call asks more than once (docs/benchmarks.md has what it saved)."""
    if os.name != "posix":
        return None
    try:
        from ._engine import pure_requested as c_pure
    except ImportError:
        return None
    return c_pure  # type: ignore[no-any-return]


#: _c_pure(), found at the first call (importing the package loads no compiled module).
_c: list = []


def pure_requested() -> bool:
    """Whether SOLITAIRE_SOLVER_PURE is set (and not "" or "0"): the pure-Python fallback."""
    if not _c:
        _c.append(_c_pure())
    if _c[0] is not None:
        return _c[0]()  # type: ignore[no-any-return]
    return os.environ.get("SOLITAIRE_SOLVER_PURE", "") not in ("", "0")


def _warn_once(message: str) -> None:
    global _warned
    if not _warned:
        _warned = True
        warnings.warn(message, RuntimeWarning, stacklevel=4)


def core_module(name: str) -> Optional[ModuleType]:
    """The compiled module solitaire_solver.<name>, or None (with one warning per process, the
    same whether the core is missing or the fallback was asked for) when the fallback runs."""
    if pure_requested():
        _warn_once("solitaire_solver: SOLITAIRE_SOLVER_PURE is set; using the pure-Python search, "
                   "which is much slower than the compiled core.")
        return None
    if name in _loaded:
        return _loaded[name]
    try:
        module = _loaded[name] = importlib.import_module(f"solitaire_solver.{name}")
        return module
    except ImportError as e:
        _warn_once(f"solitaire_solver: the compiled core is missing ({e}); using the pure-Python "
                   "search, which is much slower. Reinstall with `pip install .` to build it.")
        return None


def has_core() -> bool:
    return core_module("_engine") is not None
