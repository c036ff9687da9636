# The search for games whose position is wider than _engine's State (two words): a position is
# `words` 64-bit words (1..WT_MAX_WORDS) that the game packs as it likes; the engine knows
# nothing of their meaning. One-word games keep _engine: nothing here is on their search path
# (their random player is this one, over two words: one_word_random_win below).
from libc.stdint cimport uint64_t

from solitaire_solver.engine._engine cimport Game

ctypedef int (*wgen_fn)(void *ctx, const uint64_t *s, uint64_t *out) noexcept nogil
ctypedef void (*wplay_fn)(void *ctx, const uint64_t *s, uint64_t move, uint64_t *out) noexcept nogil
ctypedef int (*wtest_fn)(void *ctx, const uint64_t *s) noexcept nogil
ctypedef void (*wseed_fn)(void *ctx, int attempt) noexcept nogil

ctypedef struct WideGame:
    void *ctx
    int words           # words of a position (1..WT_MAX_WORDS)
    wgen_fn moves       # writes the legal moves of s into out, returns how many (<= max_moves)
    wplay_fn play       # the position after a legal move (out never aliases s)
    wtest_fn won        # 1 when s is won
    wtest_fn dead       # NULL, or 1 when s provably cannot be won (a pruning rule of the game)
    int max_moves       # bound on moves() of any position
    # 0, or a bound on the positions of a line that repeats none (a game promises it; the
    # search raises past it). Moves may lead back to a position: the search never needs it.
    int max_depth

# A WideGame with every field zero: cores fill in what they use.
cdef void wide_clear(WideGame *g) noexcept nogil

# Depth-first search from root (g.words words). Returns (status, path, stats, certificate) as
# _engine.depth_first does: status a SEARCH_* code of _engine.pxd, path the move words of a win,
# certificate (when asked for, on an exhausted search) the explored positions as (int, 0) pairs
# (pos_int). Exact on move graphs with cycles, also past the memory budget (_wide.pyx).
cdef object wide_depth_first(WideGame *g, const uint64_t *root, long long max_states,
                             double max_seconds, size_t memory_bytes, bint certificate,
                             bint weighted=*)

# wide_depth_first without a certificate, for a game whose moves never lead back to a position
# (the caller promises it): the search runs in attempts, the first cut at `first` positions and
# each next at `growth` times the last, reseed(g.ctx, n) called before attempt n (a game varies
# its move order there). The table is kept from one attempt to the next, less the positions the
# cut attempt had not finished (its line, and the one reached past its cut): without cycles
# every other position it holds was searched to the end without a win, so no attempt searches
# it again, and an exhausted attempt proves a block as one whole search does. max_states and
# max_seconds bound the attempts together; stats["states"] counts them all, stats["attempts"]
# how many ran. keep=False drops the table between attempts instead (for the tests).
# weighted=False (both searches, for the tests): the table forgets its home slot's key past the
# budget instead of its window's lightest (csrc/wtable.h).
cdef object wide_attempts(WideGame *g, const uint64_t *root, long long max_states,
                          double max_seconds, size_t memory_bytes, long long first,
                          double growth, wseed_fn reseed, bint keep=*, bint weighted=*)

# The moves g generates at a position (a Python int, pos_int) and where each leads: the
# contract's expand() of a wide core, as [(word, position int, 0)].
cdef list wide_expand(WideGame *g, object position)

# A position's words as one Python int, word i in bits 64 i .. 64 i + 63 (the contract's form).
cdef object pos_int(const uint64_t *s, int words)
# The words of a position given as that int (ValueError when it does not fit).
cdef int int_pos(object x, int words, uint64_t *out) except -1

# spec["root"] = (int, 0) into out, returning 1; 0 (out untouched) when the spec has none.
cdef int wide_root(dict spec, int words, uint64_t *out) except -1

# The random player (rating.py, docs/difficulty.md), one-word games' too: wide_step is the
# contract's step() of a wide core, as _engine's step_state is a one-word core's
# ((won, wide_expand)); wide_random_win the memoised exact chance from root, (status, chance,
# positions kept) with status 0 exact, 1 past the budget (or the memory or the time), 2 a
# cycle in a graph that fits the budget (the caller solves it by its components);
# wide_playouts (wins, lines): how many of `count` random lines from root win (splitmix64 from
# seed), fewer lines (at least 64) where max_seconds > 0 ran out.
cdef tuple wide_step(WideGame *g, object position)
cdef object wide_random_win(WideGame *g, const uint64_t *root, long long budget,
                            double max_seconds, size_t memory_bytes)
cdef object wide_playouts(WideGame *g, const uint64_t *root, long long count, uint64_t seed,
                          long long max_moves, double max_seconds)
# The same two for a one-word game's Game from (removed, aux) (engine/_entries.pxi).
cdef object one_word_random_win(Game *g, uint64_t removed, uint64_t aux, long long budget,
                                double max_seconds, size_t memory_bytes)
cdef object one_word_playouts(Game *g, uint64_t removed, uint64_t aux, long long count,
                              uint64_t seed, long long max_moves, double max_seconds)

# The moves out[0..n) sorted by key[0..n) (sorted with them), least first, ties in their order:
# a core's order of trial (an insertion sort, for a position's few moves).
cdef inline void sort_moves(uint64_t *out, long long *key, int n) noexcept nogil:
    cdef int i, j
    cdef uint64_t w
    cdef long long x
    for i in range(1, n):
        w = out[i]
        x = key[i]
        j = i - 1
        while j >= 0 and key[j] > x:
            out[j + 1] = out[j]
            key[j + 1] = key[j]
            j -= 1
        out[j + 1] = w
        key[j + 1] = x
