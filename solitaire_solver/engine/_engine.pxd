# The generic search core shared by every game. A game plugs in a Game: a packed position (State),
# a move generator, a move player and a win test; the engine knows nothing about cards.
from libc.stdint cimport uint64_t
from libc.string cimport memset
from posix.time cimport CLOCK_MONOTONIC, clock_gettime, timespec


# Seconds on the monotonic clock.
cdef inline double now() noexcept nogil:
    cdef timespec ts
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return ts.tv_sec + ts.tv_nsec * 1e-9


# A position: a removed-cards bitboard plus one word of small counters (bit 63 of aux must stay 0).
ctypedef struct State:
    uint64_t removed
    uint64_t aux

# A move is one word: bits 0..51 the cards it removes; a single-word move (draw, recycle, ...) is
# one flag above them. The flags are defined once, in solitaire_solver.moves (word_code); a core
# reads the ones it uses from there when it is imported.

ctypedef int (*gen_fn)(void *ctx, const State *s, uint64_t *out) noexcept nogil
ctypedef void (*play_fn)(void *ctx, const State *s, uint64_t move, State *out) noexcept nogil
ctypedef int (*test_fn)(void *ctx, const State *s) noexcept nogil
ctypedef int (*cost_fn)(void *ctx, const State *s, uint64_t move) noexcept nogil
ctypedef void (*key_fn)(void *ctx, const State *s, State *key) noexcept nogil

ctypedef struct Game:
    void *ctx
    gen_fn moves        # writes the legal moves of s into out, returns how many (<= max_moves)
    play_fn play        # the position after a legal move
    test_fn won         # 1 when s is won
    test_fn dead        # NULL, or 1 when s provably cannot be won (a pruning rule of the game)
    # 0, or LABELS: the low label_bits of aux are a label, not part of the position's key.
    # depth_first skips a position reached with a label no lower than the one stored for its
    # key, and searches it again when reached with a lower one. Sound when a lower label never
    # makes a position harder to win, the moves generated include a winning one whenever there
    # is one, and no move leads back to a key on the search path (a game whose every move
    # removes cards): then a skipped key was searched to the end without a win.
    int label_bits
    # 0, or the cards that count toward a win: depth_first then reports in stats["fewest_left"]
    # the fewest of them left at any position it reached (a line of play leaves no more).
    uint64_t counted
    int max_moves       # bound on moves() of any position
    int max_depth       # bound on the length of any line of play (best_first: on its cost)
    # NULL, or best_first's cost of a move (>= 1; NULL: every move costs one), for a game whose
    # one move stands for several of its rules' moves (the length of a line is its cost).
    cost_fn cost
    # 0, or 1 for a game whose moves can lead back to a position (Baroness with to_empty): its
    # max_depth bounds the lines that repeat no position, so depth_first can pass it only after
    # the table, at its memory budget, forgot a position on the line; it then stops at the
    # memory limit instead of raising.
    int cyclic
    # best_first: 1 stores every child of a node it expands (plain A*), 0 (the default) only
    # those with the node's f, taking the node again for the rest (PARTIAL, in best_first).
    int expand_all
    # NULL, or the key depth_first's table stores for a position instead of the position itself:
    # positions with one key must be alike (each winnable exactly when the other is, by lines
    # as short), and different keys may be alike too. The walk then expands one position of a
    # key; that stays exact (a pruned move generator that keeps a move shortening some
    # shortest winning line reaches a win from the one it expands whenever the others have
    # one), on graphs with cycles too. Not read by best_first.
    key_fn key

# A Game with every field zero (NULL hooks, no labels): cores fill in what they use.
cdef inline void game_clear(Game *g) noexcept nogil:
    memset(g, 0, sizeof(Game))


# Status codes of a search.
cdef enum:
    SEARCH_WON = 0
    SEARCH_EXHAUSTED = 1
    SEARCH_LIMIT_STATES = 2
    SEARCH_LIMIT_TIME = 3
    SEARCH_LIMIT_MEMORY = 4

# Depth-first search from root. Returns (status, path, stats, certificate): path is the list of move
# words of a win, certificate the list of (removed, aux) of every position explored (only when
# asked for, and only on an exhausted search).
cdef object depth_first(Game *g, State root, long long max_states, double max_seconds,
                        size_t memory_bytes, bint certificate)

# Depth-first search from each of roots ([(removed, aux)]) in turn, one table for all, so that a
# root's search skips what an earlier root's search proved lost (no certificate, no labels).
# Stops at the first root whose search does not end exhausted. Returns (status, index, path,
# stats): status SEARCH_EXHAUSTED when every root is lost, else the won root's or the limit's;
# index the root reached last (searched, skipped as stored, or stopped at a limit before its
# search); path the won line from roots[index]; stats["roots"] the roots taken (searched, or
# skipped as stored). max_states counts the positions of all the searches together.
cdef object depth_first_roots(Game *g, list roots, long long max_states, double max_seconds,
                              size_t memory_bytes)

# The highest value(s) over every position reachable from root (a player may stop anywhere).
# Won positions are not expanded. bound (NULL or an upper bound of value over every position
# reachable from s, s included) prunes; the search stops early once the best reaches ceiling.
# Returns (status, path, stats, best, cert): status SEARCH_EXHAUSTED when the best is proven
# (also when stopped at the ceiling), else a limit; path is a line reaching the best value;
# cert, with certificate (else None), the (removed, aux) of every position reached, the
# certificate sharing memory_bytes with the table as in depth_first.
cdef object best_value(Game *g, State root, test_fn value, test_fn bound, int ceiling,
                       long long max_states, double max_seconds, size_t memory_bytes,
                       bint certificate)

# A* (best-first) search for a shortest line (every move counts one, or g.cost). lower (NULL: 0)
# is a lower bound of the cost still needed from s to a win; it must be admissible (never above
# the true cost) and consistent (lower(s) <= cost(s, m) + lower(t) for every move m: s -> t), and
# lower(s) <= 64. refine (NULL: none) is a second such bound, no lower than lower and dearer to
# compute: a stored node gets it only when it is taken from the queue (LAZY in _engine.pyx).
# Same limits and return shape as depth_first (the 4th item None): on SEARCH_WON the path is a
# shortest line; a limit reached before the length is proven returns that limit (never a longer
# line). Past the memory budget A* hands over to iterative deepening in the same budget (DEEPEN,
# _engine.pyx), which needs the bounds admissible only, g.max_depth to bound the shortest line's
# cost, and aux below bit 63 - (the bits of g.max_depth), as the cost labels its table keys.
cdef object best_first(Game *g, State root, test_fn lower, long long max_states,
                       double max_seconds, size_t memory_bytes, test_fn refine=*)

# The moves g generates at one position and where each leads: [(word, removed, aux)].
cdef list expand_state(Game *g, uint64_t removed, uint64_t aux)
# (won, expand_state's list) of one position: what a rating walks (contract.py, step).
cdef tuple step_state(Game *g, uint64_t removed, uint64_t aux)
# The random player's chance and playouts (contract.py: random_win, playouts) are _wide's, over
# two words: one_word_random_win, one_word_playouts.

# The position a search starts from: spec["root"] (removed, aux) when given, else the start.
cdef State root_of(dict spec) except *


# A core's prepared decide call given a pack-order text (engine/contract.py, TextDecider). Its
# decide is cpdef, so that solve's plain call (solver.py, compiled) reaches the core through the
# class's C table instead of a Python-level call.
cdef class TextEntry:
    cpdef tuple decide(self, str text)
