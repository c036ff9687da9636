"""solitaire_solver.solve with the compiled core: a plain decide call (a game's name, a
pack-order text, every default) answered in C, every other call passed to api.solve
(docs/architecture.md).

A decide call that starts with cold caches is mostly its Python layers, not its search: each
bytecode, frame and keyword dictionary touches memory the call must fetch (docs/benchmarks.md,
"Where a cold decide call goes"). This module takes the same steps as the general path, with
the same objects (the game's plan, the core's decide run through its C entry QUICK_DECIDE,
Game.later_proof, api._answer), and returns the same Result; tests/test_pyramid.py holds the
two equal. Even the Python function api.solve, entered only to find that a call is plain, was
a tenth of such a call: as msgpack does, the package's solve is this compiled one where it is
built, with api.solve's signature and answers.
"""

from cpython.object cimport PyObject_GenericSetAttr
from cpython.pycapsule cimport PyCapsule_GetPointer, PyCapsule_IsValid

from ._engine cimport quick_decide_name, quick_fn

from . import api
from .backend import _c_pure, pure_requested
from .deal import Deal
from .games.base import CoreAnswer
from .moves import from_codes
from .result import Result, Status, make_result

#: Per game name: its _Plan, or None where the general path answers every call (at most 256
#: names, as api._resolve_plain keeps).
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


cdef class _Plan:
    """What a game's plain calls need, found at its first one (api._quick_plan): its game,
    variant, C pack reader, the core's spec but for the cards, and the core's QUICK_DECIDE."""

    cdef object game, name, var, parse, spec
    cdef quick_fn decide
    cdef long long max_states
    cdef double max_seconds
    cdef size_t memory_bytes


cdef object _plan(str game):
    """game's _Plan, or None where the general path answers its plain calls: the game has no
    quick_decide, its core no QUICK_DECIDE, or its spec a key that QUICK_DECIDE does not read
    (the core's QUICK_KEYS). Found once per game name, as its flags are then."""
    found = api._quick_plan(game)
    if found is None:
        return None
    g, var, core, parse, spec = found
    capsule = getattr(core, "QUICK_DECIDE", None)
    if not g.structural_after_search or not PyCapsule_IsValid(capsule, quick_decide_name()):
        return None
    spec = {k: v for k, v in spec.items() if k != "cards"}
    if not set(spec) <= getattr(core, "QUICK_KEYS", frozenset()):
        return None
    cdef _Plan plan = _Plan.__new__(_Plan)
    plan.game, plan.name, plan.var, plan.parse, plan.spec = g, g.name, var, parse, spec
    plan.decide = <quick_fn>PyCapsule_GetPointer(capsule, quick_decide_name())
    plan.max_states, plan.max_seconds, plan.memory_bytes = _LIMITS
    return plan


cdef object _deal(object cards):
    """Deal(cards) for cards the C reader made (a pack), without checking them again."""
    d = Deal.__new__(Deal)
    d._cards = cards
    return d


cdef class _Line:
    """A won line's moves from the core's move codes, made when Result.moves is first read
    (result._Lazy): a caller that only wants the verdict does not pay for them."""

    cdef list codes

    def __call__(self):
        return tuple(from_codes(self.codes))


cdef class _Later:
    """A structural proof the core's run shows to exist (QUICK_DECIDE's last answer), made by
    Game.later_proof when Result.proof is first read."""

    cdef object game, cards, var, end

    def __call__(self):
        made = self.game.later_proof(_deal(self.cards), self.var, self.end)
        if made is None:
            raise RuntimeError(f"{self.game.name}: the core shows a structural proof that "
                               "later_proof does not give")
        return made()


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
        found = _PLANS[game]
    except KeyError:
        found = _plan(game)
        if len(_PLANS) < 256:
            _PLANS[game] = found
    if found is None:
        return None
    cdef _Plan plan = <_Plan>found
    cards = plan.parse(text)
    if cards is None:
        return None
    status, path, stats, end, ready = <tuple>plan.decide(cards, <dict>plan.spec, plan.max_states,
                                                        plan.max_seconds, plan.memory_bytes)
    cdef _Line line
    cdef _Later later
    if status == "won":
        stats["backend"] = "core"
        line = _Line.__new__(_Line)
        line.codes = path
        return _result(plan.name, _WON, line, None, stats, (<dict>plan.var).copy())
    if ready:
        # as api._structural answers: no search was needed for the proof
        later = _Later.__new__(_Later)
        later.game, later.cards, later.var, later.end = plan.game, cards, plan.var, end
        return _result(plan.name, _BLOCKED, (), later, {"states": 0}, (<dict>plan.var).copy())
    stats["backend"] = "core"
    return api._answer(plan.game, _deal(cards), (<dict>plan.var).copy(), "decide", _LIMITS,
                       CoreAnswer(status, from_codes(path), stats, None, None, end), True, ())


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
