"""solve(game, text) for a pack-order text and every default, compiled: the steps of api.solve's
plain decide call, in C (docs/architecture.md).

A decide call that starts with cold caches is mostly its Python layers, not its search: each
bytecode, frame and keyword dictionary touches memory the call must fetch (docs/benchmarks.md,
"Where a cold decide call goes"). This module takes the same steps as the general path, with
the same objects (the game's plan, the core's solve, api._answer), and returns the same Result;
tests/test_pyramid.py holds the two equal. It runs only with the compiled core, so the
pure-Python fallback never needs it.
"""

from cpython.object cimport PyObject_GenericSetAttr

from . import api
from ._engine import pure_requested
from .deal import Deal
from .games.base import CoreAnswer
from .moves import _KNOWN_MOVES
from .result import Result, Status, make_result

#: Per game name: (game, variant, core module, C pack reader, core spec), or None where the
#: general path answers every call (api._quick_plan; at most 256 names, as api keeps).
cdef dict _PLANS = {}
cdef object _LIMITS = api._DEFAULT_LIMITS
cdef object _WON = Status.WON
cdef object _BLOCKED = Status.BLOCKED
#: The instance dictionary make_result makes, which _result copies: the same fields, with the
#: same defaults.
cdef dict _FIELDS = make_result("", _WON).__dict__


cdef class _Line:
    """A won line's moves from the core's move codes, made when Result.moves is first read
    (result._Lazy): a caller that only wants the verdict does not pay for them."""

    cdef list codes

    def __call__(self):
        return tuple([_KNOWN_MOVES[c] for c in self.codes])


cdef object _result(object game, object status, object moves, object proof, dict stats,
                    dict variant):
    """make_result(game, status, moves=, proof=, stats=, variant=), without a Python call."""
    cdef dict fields = _FIELDS.copy()
    fields["game"] = game
    fields["status"] = status
    fields["_moves"] = moves
    fields["_proof"] = proof
    fields["stats"] = stats
    fields["variant"] = variant
    out = Result.__new__(Result)
    PyObject_GenericSetAttr(out, "__dict__", fields)
    return out


def decide(str game, str text):
    """solve(game, text)'s Result, or None where the general path must answer: the fallback
    was asked for, the game has no quick plan, or the text is not 52 plain card names."""
    if pure_requested():
        return None
    try:
        plan = _PLANS[game]
    except KeyError:
        plan = api._quick_plan(game)
        if len(_PLANS) < 256:
            _PLANS[game] = plan
    if plan is None:
        return None
    g, var, core, parse, spec = <tuple>plan
    cards = parse(text)
    if cards is None or not g.structural_after_search:
        return None
    spec = (<dict>spec).copy()
    spec["cards"] = cards
    run = core.solve(spec, "decide", _LIMITS, False)
    status, path, stats, end = run[0], run[1], run[2], run[5]
    cdef _Line line
    if status == "won":
        stats["backend"] = "core"
        line = _Line.__new__(_Line)
        line.codes = path
        return _result(g.name, _WON, line, None, stats, (<dict>var).copy())
    d = Deal.__new__(Deal)
    d._cards = cards
    later = g.later_proof(d, var, end)
    if later is not None:
        # as api._structural answers: no search was needed for the proof
        return _result(g.name, _BLOCKED, (), later, {"states": 0}, (<dict>var).copy())
    stats["backend"] = "core"
    return api._answer(g, d, (<dict>var).copy(), "decide", _LIMITS,
                       CoreAnswer(status, [_KNOWN_MOVES[c] for c in path], stats, None, run[4],
                                  end), True, ())
