"""solitaire_solver.solve with the compiled core: a plain decide call (a game's name, a
pack-order text, every default) answered in C, every other call passed to api.solve
(docs/architecture.md).

A decide call that starts with cold caches is mostly its Python layers, not its search: each
bytecode, frame and keyword dictionary touches memory the call must fetch (docs/benchmarks.md,
"Where a cold decide call goes"). This module takes the same steps as the general path, with
the same objects (the game's plan, the core's solve, api._answer), and returns the same Result;
tests/test_pyramid.py holds the two equal. Even the Python function api.solve, entered only to
find that a call is plain, was a tenth of such a call: as msgpack does, the package's solve is
this compiled one where it is built, with api.solve's signature and answers.
"""

from cpython.object cimport PyObject_GenericSetAttr

from . import api
from .backend import _c_pure, pure_requested
from .deal import Deal
from .games.base import CoreAnswer
from .moves import from_codes
from .result import Result, Status, make_result

#: Per game name: (game, variant, core module, C pack reader, core spec), or None where the
#: general path answers every call (api._quick_plan; at most 256 names, as api._resolve_plain
#: keeps).
cdef dict _PLANS = {}
#: backend.pure_requested, in C on POSIX (a lookup in os.environ's own mapping)
cdef object _pure = _c_pure() or pure_requested
cdef object _LIMITS = api._DEFAULT_LIMITS
cdef object _MEMORY_MB = api.DEFAULT_MEMORY_MB
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
        return tuple(from_codes(self.codes))


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
    if _pure():
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
                       CoreAnswer(status, from_codes(path), stats, None, run[4],
                                  end), True, ())


def solve(game, deal, *, objective="decide", max_states=None, max_seconds=None,
          memory_mb=api.DEFAULT_MEMORY_MB, certificate=False, check=False, after=None,
          **variant):
    if (type(deal) is str and type(game) is str and not variant and objective == "decide"
            and certificate is False and check is False and after is None and max_states is None
            and max_seconds is None and memory_mb == _MEMORY_MB):
        quick = decide(game, deal)
        if quick is not None:
            return quick
    return api.solve(game, deal, objective=objective, max_states=max_states,
                     max_seconds=max_seconds, memory_mb=memory_mb, certificate=certificate,
                     check=check, after=after, **variant)


solve.__doc__ = api.solve.__doc__
solve.__wrapped__ = api.solve  # inspect.signature gives api.solve's, with its annotations
