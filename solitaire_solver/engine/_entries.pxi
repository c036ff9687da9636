# The contract's expand, step, random_win and playouts (engine/contract.py) of a one-word core,
# written once for every core and included by each. Before `include`, the core cimports Game,
# expand_state and step_state from _engine, and declares:
#
#   ctypedef <its context struct> CoreCtx
#   cdef int prepare(Game *g, CoreCtx *c, dict spec, bint listing) except -1
#       fills g and c for spec; listing is True for expand and step, which may list the moves of
#       a search mode the spec names (the core's docstring says which key), False for the walks
#       of random_win and playouts
#   cdef int check_given(CoreCtx *c, uint64_t removed, uint64_t aux) except -1
#       raises ValueError for a position that is none of the deal's where the core checks
#       (CHECKS_POSITIONS; its solve checks spec["root"] with it too); else
#       returns 0, trusting its caller

from solitaire_solver.engine._wide cimport one_word_playouts, one_word_random_win


def expand(dict spec, uint64_t removed, uint64_t aux):
    """The contract's expand(): the core's moves at (removed, aux) and where each leads."""
    cdef CoreCtx c
    cdef Game g
    prepare(&g, &c, spec, True)
    check_given(&c, removed, aux)
    return expand_state(&g, removed, aux)


def step(dict spec, uint64_t removed, uint64_t aux):
    """The contract's step(): (won, expand(spec, removed, aux)) in one call."""
    cdef CoreCtx c
    cdef Game g
    prepare(&g, &c, spec, True)
    check_given(&c, removed, aux)
    return step_state(&g, removed, aux)


def random_win(dict spec, uint64_t removed, uint64_t aux, long long budget, double max_seconds,
               size_t memory_bytes):
    """The contract's random_win(): the random player's exact chance (engine/_wide.pyx)."""
    cdef CoreCtx c
    cdef Game g
    prepare(&g, &c, spec, False)
    check_given(&c, removed, aux)
    return one_word_random_win(&g, removed, aux, budget, max_seconds, memory_bytes)


def playouts(dict spec, uint64_t removed, uint64_t aux, long long count, uint64_t seed,
             long long max_moves, double max_seconds=0.0):
    """The contract's playouts(): (wins, lines), how many random lines win, fewer lines
    where max_seconds > 0 runs out (engine/_wide.pyx)."""
    cdef CoreCtx c
    cdef Game g
    prepare(&g, &c, spec, False)
    check_given(&c, removed, aux)
    return one_word_playouts(&g, removed, aux, count, seed, max_moves, max_seconds)
