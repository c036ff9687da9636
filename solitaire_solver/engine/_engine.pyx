# cython: language_level=3
"""One depth-first search over packed positions for every game.

The search is a reachability search: a position is stored in the transposition table when first
reached and never expanded again, because every position reachable from it was explored the first
time. That is exact for the acyclic move graphs of all our games (every move removes a card or
advances a stock, deal or pass counter). When the table is full an old key is replaced; the search
then stays correct and may only explore that position twice. A game whose moves can lead back to
a position (Game.cyclic: Baroness with to_empty) stays exact too, since a stored position is either
explored to the end or on the line being explored; past the table's budget, a forgotten position
on the line could be entered again, so a line longer than the game's bound on lines that repeat
no position stops the search at the memory limit.
"""

import os

from cpython.exc cimport PyErr_CheckSignals
from libc.stdint cimport uint32_t, uint64_t
from libc.stdlib cimport calloc, free, malloc, realloc

from solitaire_solver.engine.bitboard cimport bb_count
from solitaire_solver.engine.ttable cimport (
    TT_TAIL_SLOTS, tt_capacity, tt_clear, tt_contains, tt_entry, tt_free, tt_init, tt_prefetch,
    tt_visit, ttable,
)

# How often (in new positions) the search looks at the clock and at pending signals: often enough
# that Ctrl-C answers within a few milliseconds, rarely enough to cost nothing.
cdef enum:
    CHECK_EVERY = 1 << 12


cdef int check_signals() except -1 with gil:
    return PyErr_CheckSignals()


cdef inline int over_limit(long long count, long long max_states, double deadline) except -1 nogil:
    """The limit a search has reached once it holds count positions: SEARCH_LIMIT_TIME,
    SEARCH_LIMIT_STATES, or 0 for none (never a search status of its own: SEARCH_WON is no
    limit). Every CHECK_EVERY positions it also lets a pending signal (Ctrl-C) raise. Every
    search calls it once per new position.

    max_states positions may be searched: the limit is reached by the one after them, which the
    search then leaves out of its count. So a search that reports N positions without a limit
    ends the same under max_states=N (before, it stopped at its N-th position), as the
    reference search does (search.py)."""
    if (count & (CHECK_EVERY - 1)) == 0:
        check_signals()
        if deadline > 0 and now() > deadline:
            return SEARCH_LIMIT_TIME
    if max_states > 0 and count > max_states:
        return SEARCH_LIMIT_STATES
    return 0


cdef dict search_stats(long long nodes, long long generated, long long pruned, long long leaves,
                       ttable *tt, double t0):
    """The statistics every table-backed search reports."""
    return {
        "states": nodes,
        "moves_generated": generated,
        "pruned": pruned,
        "dead_ends": leaves,
        "table_capacity": tt_capacity(tt),
        "table_used": tt.used,
        "table_probes": tt.probes,
        "table_hits": tt.hits,
        "table_replaced": tt.replaced,
        "table_improved": tt.improved,
        "table_bytes": tt_capacity(tt) * 16,
        "seconds": now() - t0,
    }


cdef struct Frame:
    State state
    int n       # moves generated at this position
    int next    # index of the next move to try
    size_t base # where its moves start in the walk's move stack
    bint keyed  # the table keys of its children are at keys[base ..] (prefetched)


cdef struct Run:
    long long nodes          # positions expanded (new to the table)
    long long generated      # moves generated
    long long pruned         # positions cut by the game's dead() rule (best_value: its bound)
    int most                 # the most counted cards removed at a position reached
    long long leaves         # positions with no legal move
    int max_depth_reached
    int win_length           # moves in the winning line, on SEARCH_WON
    State *cert
    State *keys              # descend's children keys, parallel to the move stack (or NULL)
    bint keys_failed         # keys could not be had: the walk goes on without them
    size_t cert_len
    size_t cert_cap


# The depth-first walk of run_dfs and best_value: a stack of frames, frame d holding a position
# and its moves at moves[frames[d].base ..], right after the moves of frame d - 1; the move
# tried last at each frame leads to the next, so the frames spell the line of play to the
# position being explored. The buffer has room for max_moves at every depth, but the moves are
# packed: a short search that starts with cold caches touches a line or two per frame instead of
# a fresh line at a max_moves stride for each (docs/notes/benchmarks-history.md).

# descend prefetches the children's slots from a table of this many homes on (16 bytes each:
# past what a core's caches hold); below, the keys' early computation would only cost.
cdef size_t prefetch_homes = 1 << 19


def set_prefetch_homes(size_t homes):
    """Sets the table size (in homes) from which depth-first walks prefetch the children's
    slots (0: always) and returns the previous one: for the tests, which compare walks with and
    without it."""
    global prefetch_homes
    old = prefetch_homes
    prefetch_homes = homes
    return old


cdef enum:
    STEP_END = 0    # the stack is empty: every position reachable was explored
    STEP_NEW = 1    # child is a position new to the table
    STEP_WON = 2    # child is won (only when asked to stop at won positions)


cdef inline const State *table_key(Game *g, const State *s, State *buf) noexcept nogil:
    """The key the table holds for s: s itself when Game.key is NULL, else Game.key's, written
    into buf."""
    if g.key == NULL:
        return s
    g.key(g.ctx, s, buf)
    return buf


cdef inline bint table_visit(Game *g, ttable *tt, const State *s) noexcept nogil:
    """Stores s's key in the table; True if it was there."""
    cdef State buf
    cdef const State *k = table_key(g, s, &buf)
    return tt_visit(tt, k.removed, k.aux)


cdef inline int next_position(Game *g, ttable *tt, Frame *frames, const uint64_t *moves,
                              const State *keys, int *d, bint stop_at_won,
                              State *child) noexcept nogil:
    """Walks on to the next position to explore: drops the frames whose moves are spent, plays
    the top frame's next move into child, and probes the table, until child is new to it. With
    stop_at_won a won child ends the walk first (not stored). The move that led to child is the
    last one tried at frame d[0]."""
    cdef Frame *f
    cdef bint seen
    while d[0] >= 0:
        f = &frames[d[0]]
        if f.next >= f.n:
            d[0] -= 1
            continue
        g.play(g.ctx, &f.state, moves[f.base + f.next], child)
        f.next += 1
        if stop_at_won and g.won(g.ctx, child):
            return STEP_WON
        if f.keyed:
            seen = tt_visit(tt, keys[f.base + f.next - 1].removed, keys[f.base + f.next - 1].aux)
        else:
            seen = table_visit(g, tt, child)
        if not seen:
            return STEP_NEW
    return STEP_END


cdef inline bint keys_ready(Game *g, Run *r) noexcept nogil:
    """Whether r.keys is there, allocating it the first time (only walks whose table grows
    large pay for it)."""
    if r.keys == NULL and not r.keys_failed:
        r.keys = <State *>malloc(sizeof(State) * g.max_moves * (g.max_depth + 1))
        r.keys_failed = r.keys == NULL
    return r.keys != NULL


cdef inline int descend(Game *g, ttable *tt, Frame *frames, uint64_t *moves, int *d,
                        const State *s, Run *r) except -1 nogil:
    """Pushes s on the stack as frame d[0] + 1 with its moves; a position without any is a dead
    end, counted and not pushed. Once the table outgrows the caches (prefetch_homes), the
    children's keys are computed here and their slots fetched while the walk goes on."""
    cdef int n, j
    cdef State child, buf
    cdef const State *k
    cdef State *keys
    cdef size_t base = frames[d[0]].base + frames[d[0]].n if d[0] >= 0 else 0
    if d[0] + 1 >= g.max_depth:
        # A game promised lines no longer than max_depth; reaching it means a bug in the game.
        with gil:
            raise RuntimeError("line of play longer than the game's bound")
    n = g.moves(g.ctx, s, &moves[base])
    r.generated += n
    if n == 0:
        r.leaves += 1
        return 0
    d[0] += 1
    frames[d[0]].state = s[0]
    frames[d[0]].n = n
    frames[d[0]].next = 0
    frames[d[0]].base = base
    frames[d[0]].keyed = tt.homes >= prefetch_homes and keys_ready(g, r)
    if frames[d[0]].keyed:
        keys = r.keys
        for j in range(n):
            g.play(g.ctx, s, moves[base + j], &child)
            k = table_key(g, &child, &buf)
            keys[base + j] = k[0]
            tt_prefetch(tt, k.removed, k.aux)
    if d[0] > r.max_depth_reached:
        r.max_depth_reached = d[0]
    return 0


cdef void *grow(void *items, size_t *cap, size_t size, size_t first, size_t *used,
               size_t budget) noexcept nogil:
    """Doubles an array of cap[0] items of `size` bytes (to `first` items when empty), or grows
    it as far as the budget allows when doubling would pass it (so a search near its limit uses
    the whole budget). Returns the new array (cap and used updated), or NULL with the old array
    kept when not one more item fits: the caller then stops at its memory limit."""
    cdef size_t n = cap[0] * 2 if cap[0] else first
    cdef void *grown
    if used[0] > budget:
        return NULL
    if used[0] + (n - cap[0]) * size > budget:
        n = cap[0] + (budget - used[0]) // size
        if n <= cap[0]:
            return NULL
    grown = realloc(items, n * size)
    if grown == NULL:
        return NULL
    used[0] += (n - cap[0]) * size
    cap[0] = n
    return grown


cdef enum:
    # What a certificate position costs in Python objects when the answer is made, beyond its
    # 16 bytes here: its (removed, aux) tuple in the list depth_first returns, then its key in
    # the proof's frozenset (measured at the peak: 171 to 251 bytes, docs/benchmarks.md).
    CERT_PY_BYTES = 256
    # The table's share of the budget when a certificate is kept: a position costs the table
    # 16 to 32 bytes and the certificate 16 + CERT_PY_BYTES, so an eighth of the budget holds
    # about the positions the rest can certify.
    CERT_TABLE_SHARE = 8


cdef int cert_push(Run *r, State s, size_t budget) noexcept nogil:
    cdef size_t used = r.cert_cap * sizeof(State)
    cdef State *grown
    if r.cert_len == r.cert_cap:
        grown = <State *>grow(r.cert, &r.cert_cap, sizeof(State), 4096, &used, budget)
        if grown == NULL:
            return -1
        r.cert = grown
    r.cert[r.cert_len] = s
    r.cert_len += 1
    return 0


cdef int run_dfs(Game *g, State root, ttable *tt, Frame *frames, uint64_t *moves, Run *r,
                 long long max_states, double deadline, bint certificate,
                 size_t cert_budget) except -1 nogil:
    """Returns a status; on SEARCH_WON the moves last tried at frames 0..win_length-1 win."""
    cdef int d = -1
    cdef int step, status
    cdef State child
    cdef bint use_dead = g.dead != NULL and not certificate

    if g.won(g.ctx, &root):
        r.win_length = 0
        return SEARCH_WON
    table_visit(g, tt, &root)
    r.nodes = 1
    r.most = bb_count(root.removed & g.counted)
    if certificate and cert_push(r, root, cert_budget) < 0:
        return SEARCH_LIMIT_MEMORY
    # The root counts as every position does: a limit of one position stops here (it went on to
    # a second one and reported two).
    status = over_limit(r.nodes, max_states, deadline)
    if status:
        return status
    descend(g, tt, frames, moves, &d, &root, r)
    while True:
        step = next_position(g, tt, frames, moves, r.keys, &d, True, &child)
        if step == STEP_END:
            return SEARCH_EXHAUSTED
        if step == STEP_WON:
            r.win_length = d + 1
            if d + 1 > r.max_depth_reached:
                r.max_depth_reached = d + 1
            return SEARCH_WON
        r.nodes += 1
        if bb_count(child.removed & g.counted) > r.most:
            r.most = bb_count(child.removed & g.counted)
        if certificate and cert_push(r, child, cert_budget) < 0:
            return SEARCH_LIMIT_MEMORY
        status = over_limit(r.nodes, max_states, deadline)
        if status:
            if status == SEARCH_LIMIT_STATES:
                r.nodes -= 1  # the position past the limit is not searched (over_limit)
            return status
        if use_dead and g.dead(g.ctx, &child):
            r.pruned += 1
            continue
        if g.cyclic and d + 1 >= g.max_depth:
            return SEARCH_LIMIT_MEMORY  # a forgotten position re-entered (Game.cyclic)
        descend(g, tt, frames, moves, &d, &child, r)


cdef int open_walk(Game *g, ttable *tt, size_t table_budget, Frame **frames, uint64_t **moves,
                   Run *r) except -1:
    """The table, the walk's stack and a fresh Run of a depth-first search (run_dfs): the caller
    frees frames, moves and the table when done. MemoryError when they cannot be had."""
    if tt_init(tt, table_budget) != 0:
        raise MemoryError("cannot allocate the transposition table")
    tt.label_bits = g.label_bits
    frames[0] = <Frame *>malloc(sizeof(Frame) * (g.max_depth + 1))
    moves[0] = <uint64_t *>malloc(sizeof(uint64_t) * g.max_moves * (g.max_depth + 1))
    if frames[0] == NULL or moves[0] == NULL:
        free(frames[0])
        free(moves[0])
        frames[0] = moves[0] = NULL
        tt_free(tt)
        raise MemoryError("cannot allocate the search stack")
    memset(r, 0, sizeof(Run))
    return 0


cdef list win_path(const Frame *frames, const uint64_t *moves, const Run *r):
    """The move words of the win run_dfs found: the move taken at frame i is the last one tried
    there."""
    return [moves[frames[i].base + frames[i].next - 1] for i in range(r.win_length)]


cdef object depth_first(Game *g, State root, long long max_states, double max_seconds,
                        size_t memory_bytes, bint certificate):
    cdef ttable tt
    cdef Run r
    cdef int status = SEARCH_EXHAUSTED
    cdef int i, depth
    cdef double t0, deadline
    cdef size_t table_budget = memory_bytes
    cdef size_t cert_budget = 0
    cdef Frame *frames = NULL
    cdef uint64_t *moves = NULL

    if certificate:
        # Positions kept for the certificate share the budget with the table; the array here
        # may hold the positions whose Python form (CERT_PY_BYTES each) fits the rest.
        table_budget = memory_bytes // CERT_TABLE_SHARE
        cert_budget = ((memory_bytes - table_budget) // (sizeof(State) + CERT_PY_BYTES)
                       * sizeof(State))
    open_walk(g, &tt, table_budget, &frames, &moves, &r)
    t0 = now()
    deadline = t0 + max_seconds if max_seconds > 0 else 0.0
    try:
        with nogil:
            status = run_dfs(g, root, &tt, frames, moves, &r, max_states, deadline,
                             certificate, cert_budget)
        path = win_path(frames, moves, &r) if status == SEARCH_WON else []
        cert = None
        if certificate and status == SEARCH_EXHAUSTED:
            cert = [(r.cert[i].removed, r.cert[i].aux) for i in range(r.cert_len)]
        stats = search_stats(r.nodes, r.generated, r.pruned, r.leaves, &tt, t0)
        stats["max_depth"] = r.max_depth_reached
        if g.counted:
            stats["fewest_left"] = bb_count(g.counted) - r.most
        return status, path, stats, cert
    finally:
        free(frames)
        free(moves)
        free(r.cert)
        free(r.keys)
        tt_free(&tt)


cdef inline bint table_holds(Game *g, ttable *tt, const State *s) noexcept nogil:
    """Whether the table holds s's key, without storing it."""
    cdef State buf
    cdef const State *k = table_key(g, s, &buf)
    return tt_contains(tt, k.removed, k.aux)


cdef object depth_first_roots(Game *g, list roots, long long max_states, double max_seconds,
                              size_t memory_bytes):
    cdef ttable tt
    cdef Run r
    cdef int status = SEARCH_EXHAUSTED
    cdef int i, at = -1, taken = 0
    cdef long long nodes = 0, left
    cdef double t0, deadline
    cdef State root
    cdef Frame *frames = NULL
    cdef uint64_t *moves = NULL

    if g.label_bits:
        # A stored label says a key was searched at that label, not that it is lost at a lower.
        raise ValueError("depth_first_roots takes no labelled game")
    open_walk(g, &tt, memory_bytes, &frames, &moves, &r)
    t0 = now()
    deadline = t0 + max_seconds if max_seconds > 0 else 0.0
    try:
        for i in range(len(roots)):
            root.removed, root.aux = roots[i]
            at = i
            # A root the table holds was reached by an earlier root's search, which ended
            # without a win: every position an exhausted search stored is lost.
            if table_holds(g, &tt, &root):
                taken += 1
                continue
            # A root's own search looks at the clock only every CHECK_EVERY positions.
            check_signals()
            if deadline > 0 and now() > deadline:
                status = SEARCH_LIMIT_TIME
                break
            if max_states > 0:
                left = max_states - nodes
                if left <= 0:
                    status = SEARCH_LIMIT_STATES
                    break
            else:
                left = 0
            # A won root returns before run_dfs counts it: no count of the last root stays.
            r.nodes = 0
            taken += 1
            with nogil:
                status = run_dfs(g, root, &tt, frames, moves, &r, left, deadline, False, 0)
            nodes += r.nodes
            if status != SEARCH_EXHAUSTED:
                break
        path = win_path(frames, moves, &r) if status == SEARCH_WON else []
        stats = search_stats(nodes, r.generated, r.pruned, r.leaves, &tt, t0)
        stats["max_depth"] = r.max_depth_reached
        stats["roots"] = taken
        return status, at, path, stats
    finally:
        free(frames)
        free(moves)
        free(r.keys)
        tt_free(&tt)


# -- best value over reachable positions (score objectives) ----------------------------------------

cdef object best_value(Game *g, State root, test_fn value, test_fn bound, int ceiling,
                       long long max_states, double max_seconds, size_t memory_bytes,
                       bint certificate):
    """Depth-first reachability like depth_first, evaluating every new position. A position
    whose bound is no better than the best so far is not expanded: the best only grows, so the
    cut stays valid when the same position is reached again through the table. A certificate
    keeps every position reached: each one expanded has all its children in it, and each one
    cut has a bound no more than the best."""
    cdef ttable tt
    cdef Frame *frames = NULL
    cdef uint64_t *moves = NULL
    cdef uint64_t *best_path = NULL
    cdef int best, best_len = 0, d = -1, v, i, limit, status = SEARCH_EXHAUSTED
    cdef int mm = g.max_moves
    cdef Run r
    cdef State child
    cdef double t0 = now()
    cdef double deadline = t0 + max_seconds if max_seconds > 0 else 0.0
    cdef size_t table_budget = memory_bytes
    cdef size_t cert_budget = 0

    if certificate:
        # As in depth_first: the certificate shares the budget with the table.
        table_budget = memory_bytes // 2
        cert_budget = memory_bytes - table_budget
    if tt_init(&tt, table_budget) != 0:
        raise MemoryError("cannot allocate the transposition table")
    r.cert = NULL
    r.keys = NULL
    r.keys_failed = False
    r.cert_len = r.cert_cap = 0
    frames = <Frame *>malloc(sizeof(Frame) * (g.max_depth + 1))
    moves = <uint64_t *>malloc(sizeof(uint64_t) * mm * (g.max_depth + 1))
    best_path = <uint64_t *>malloc(sizeof(uint64_t) * (g.max_depth + 1))
    if frames == NULL or moves == NULL or best_path == NULL:
        free(frames)
        free(moves)
        free(best_path)
        tt_free(&tt)
        raise MemoryError("cannot allocate the search stack")
    r.nodes = 1
    r.generated = r.pruned = r.leaves = 0
    r.max_depth_reached = 0
    try:
        with nogil:
            best = value(g.ctx, &root)
            table_visit(g, &tt, &root)
            if certificate and cert_push(&r, root, cert_budget) < 0:
                status = SEARCH_LIMIT_MEMORY
            elif best < ceiling and not g.won(g.ctx, &root):
                descend(g, &tt, frames, moves, &d, &root, &r)
            while (status == SEARCH_EXHAUSTED
                   and next_position(g, &tt, frames, moves, r.keys, &d, False, &child) == STEP_NEW):
                r.nodes += 1
                if certificate and cert_push(&r, child, cert_budget) < 0:
                    status = SEARCH_LIMIT_MEMORY
                    break
                v = value(g.ctx, &child)
                if v > best:
                    best = v
                    for i in range(d + 1):
                        best_path[i] = moves[frames[i].base + frames[i].next - 1]
                    best_len = d + 1
                    if best >= ceiling:
                        break
                limit = over_limit(r.nodes, max_states, deadline)
                if limit:
                    if limit == SEARCH_LIMIT_STATES:
                        r.nodes -= 1  # over_limit
                    status = limit
                    break
                if g.won(g.ctx, &child):
                    continue
                if bound != NULL and bound(g.ctx, &child) <= best:
                    r.pruned += 1
                    continue
                descend(g, &tt, frames, moves, &d, &child, &r)
        path = [best_path[i] for i in range(best_len)]
        stats = search_stats(r.nodes, r.generated, r.pruned, r.leaves, &tt, t0)
        cert = None
        if certificate and status == SEARCH_EXHAUSTED:
            cert = [(r.cert[i].removed, r.cert[i].aux) for i in range(r.cert_len)]
        return status, path, stats, best, cert
    finally:
        free(frames)
        free(moves)
        free(best_path)
        free(r.cert)
        free(r.keys)
        tt_free(&tt)


# -- A* best-first search (shortest lines with a lower bound) ---------------------------------------


# 24 bytes: the nodes are most of the search's memory. The move from the parent is not stored;
# the line is rebuilt at the end by replaying each parent's moves until one gives the child.
cdef struct ANode:
    State state
    uint32_t parent     # index of the parent node (the root is its own parent)
    uint32_t ghc        # g, the fewest moves known from the root (bits 0-21: G_MAX is checked
                        # against the game's depth bound); bit 22: expanded in part (PARTIAL);
                        # bit 23: h is refine's (LAZY); h, the game's lower bound of the moves
                        # still needed, raised by PARTIAL (bits 24-30); bit 31: expanded with
                        # its final g and every child stored


cdef enum:
    G_MAX = 0x3FFFFF
    PARTIAL = 0x400000
    REFINED = 0x800000
    H_FIELD = 0x7F      # the largest h a node keeps (when a raised h would not fit, PARTIAL
                        # stores every child at once)


cdef inline int n_g(const ANode *n) noexcept nogil:
    return <int>(n.ghc & G_MAX)


cdef inline int n_h(const ANode *n) noexcept nogil:
    return <int>((n.ghc >> 24) & 0x7F)


cdef inline bint n_closed(const ANode *n) noexcept nogil:
    return (n.ghc >> 31) != 0


cdef inline void n_set(ANode *n, int g, int h, bint closed) noexcept nogil:
    n.ghc = (<uint32_t>g | (<uint32_t>h << 24) | (<uint32_t>closed << 31)
             | (n.ghc & (REFINED | PARTIAL)))


cdef struct Bucket:
    uint32_t *items
    size_t n
    size_t cap


cdef extern from *:
    void __builtin_prefetch(const void *addr) noexcept nogil


cdef inline size_t key_hash(const State *s) noexcept nogil:
    cdef uint64_t x = s.removed * <uint64_t>0x9E3779B97F4A7C15 ^ s.aux * <uint64_t>0xC2B2AE3D27D4EB4F
    x ^= x >> 31
    x *= <uint64_t>0xBF58476D1CE4E5B9
    x ^= x >> 29
    return <size_t>x


cdef struct AStar:
    ANode *nodes
    size_t count
    size_t cap
    uint32_t *slots     # open addressing: node index + 1, 0 empty; see a_add for the fill
    size_t mask
    Bucket **rows       # by f, a row of H_SPAN buckets by h, allocated when first used (a
                        # game with many passes has a large depth bound and few f values used)
    size_t *queued      # entries queued for each f
    int nb              # values of f
    size_t bytes        # memory held by the three arrays
    size_t budget


cdef int a_grow_slots(AStar *a) noexcept nogil:
    """Doubles the hash slots and re-inserts every node; -1 when over the budget."""
    cdef size_t n = (a.mask + 1) * 2, i, j
    cdef uint32_t *s
    if a.bytes + n * sizeof(uint32_t) > a.budget:
        return -1
    s = <uint32_t *>calloc(n, sizeof(uint32_t))
    if s == NULL:
        return -1
    for i in range(a.count):
        j = key_hash(&a.nodes[i].state) & (n - 1)
        while s[j]:
            j = (j + 1) & (n - 1)
        s[j] = <uint32_t>(i + 1)
    a.bytes += n * sizeof(uint32_t) - (a.mask + 1) * sizeof(uint32_t)
    free(a.slots)
    a.slots = s
    a.mask = n - 1
    return 0


cdef long long a_find(AStar *a, const State *s, size_t *slot) noexcept nogil:
    """The node index of s, or -1 (then *slot is where it goes)."""
    cdef size_t j = key_hash(s) & a.mask
    cdef uint32_t v
    while True:
        v = a.slots[j]
        if v == 0:
            slot[0] = j
            return -1
        if a.nodes[v - 1].state.removed == s.removed and a.nodes[v - 1].state.aux == s.aux:
            return v - 1
        j = (j + 1) & a.mask


cdef enum:
    H_SPAN = 65     # lower bounds are 0..64
    H_NONE = 0x7FFFFFFF
    # PARTIAL stores a node's children with f up to its key + PEA_DELTA: a small delta stores
    # fewer positions but takes a node again more often (docs/pyramid-search.md has the choice).
    PEA_DELTA = 3


cdef int a_push(AStar *a, int f, int h, uint32_t idx) noexcept nogil:
    cdef Bucket *b
    cdef uint32_t *grown
    if a.rows[f] == NULL:
        if a.bytes + H_SPAN * sizeof(Bucket) > a.budget:
            return -1
        a.rows[f] = <Bucket *>calloc(H_SPAN, sizeof(Bucket))
        if a.rows[f] == NULL:
            return -1
        a.bytes += H_SPAN * sizeof(Bucket)
    b = &a.rows[f][h if h < H_SPAN else H_SPAN - 1]  # h raised by PARTIAL: ties only
    if b.n == b.cap:
        grown = <uint32_t *>grow(b.items, &b.cap, sizeof(uint32_t), 256, &a.bytes, a.budget)
        if grown == NULL:
            return -1
        b.items = grown
    b.items[b.n] = idx
    b.n += 1
    a.queued[f] += 1
    return 0


cdef long long a_add(AStar *a, const State *s, size_t slot, uint32_t parent, int g,
                     int h) noexcept nogil:
    """Stores a new node at the free slot found by a_find; its index, or -1 over the budget."""
    cdef ANode *grown
    cdef long long idx
    if a.count == a.cap:
        if a.cap * 2 >= <size_t>0xFFFFFFF0:  # node indexes are 32-bit
            return -1
        grown = <ANode *>grow(a.nodes, &a.cap, sizeof(ANode), 1024, &a.bytes, a.budget)
        if grown == NULL:
            return -1
        a.nodes = grown
    idx = <long long>a.count
    a.nodes[idx].state = s[0]
    a.nodes[idx].parent = parent
    a.nodes[idx].ghc = 0    # n_set keeps the REFINED bit: a new node has none
    n_set(&a.nodes[idx], g, h, False)
    a.slots[slot] = <uint32_t>(idx + 1)
    a.count += 1
    # The map is kept at most half full; when doubling it would pass the budget it may fill to
    # three quarters (longer probes, same answers) before the search stops at its limit.
    if a.count * 2 > a.mask + 1 and a_grow_slots(a) < 0 and a.count * 4 > (a.mask + 1) * 3:
        return -1
    return idx


cdef uint64_t move_between(Game *g, const State *parent, const State *child, int cost,
                           uint64_t *buf) except? 0:
    """A move that takes parent to child (the node did not keep it): one costing `cost` (the
    difference of their g) when there is one, as two moves between the same positions may cost
    differently (a graph's parallel edges)."""
    cdef State t
    cdef uint64_t first = 0
    cdef int k, n = g.moves(g.ctx, parent, buf)
    for k in range(n):
        g.play(g.ctx, parent, buf[k], &t)
        if t.removed == child.removed and t.aux == child.aux:
            if move_cost(g, parent, buf[k]) == cost:
                return buf[k]
            if first == 0:
                first = buf[k]
    if first != 0:
        return first
    raise RuntimeError("best-first search: no move leads from a parent to its child")


cdef inline long long move_cost(Game *g, const State *s, uint64_t move) noexcept nogil:
    return g.cost(g.ctx, s, move) if g.cost != NULL else 1


cdef object best_first(Game *g, State root, test_fn lower, long long max_states,
                       double max_seconds, size_t memory_bytes, test_fn refine=NULL):
    """A* (a_star) and, when its tables reach the memory budget, DEEPEN (deepening): the search
    goes on in bounded memory from the least f A* had left, slower but as exact, instead of
    stopping at the memory limit. stats["fallback"] = "deepening" says it ran."""
    cdef int floor = 0
    cdef double t0 = now()
    cdef long long states_left = 0
    cdef double seconds_left = 0.0
    status, path, stats, _ = a_star(g, root, lower, max_states, max_seconds, memory_bytes,
                                    refine, &floor)
    if status != SEARCH_LIMIT_MEMORY:
        return status, path, stats, None
    # The limits bound the two searches together.
    if max_states > 0:
        states_left = max_states - <long long>stats["states"]
        if states_left <= 0:
            return SEARCH_LIMIT_STATES, [], stats, None
    if max_seconds > 0:
        seconds_left = max_seconds - (now() - t0)
        if seconds_left <= 0:
            return SEARCH_LIMIT_TIME, [], stats, None
    status, path, deep = deepening(g, root, refine if refine != NULL else lower, floor,
                                   states_left, seconds_left, memory_bytes)
    stats["fallback"] = "deepening"
    stats["astar_states"] = stats["states"]
    stats["states"] += deep["states"]
    for key, value in deep.items():
        stats["deepening_" + key] = value
    stats["seconds"] = now() - t0
    return status, path, stats, None


cdef struct Level:
    State pos           # the position at this depth of the line walked
    int cost            # its cost from the root
    int kept            # its children within the threshold, least f first, in the arrays below
    int at              # the next of them to walk
    uint64_t *moves     # (g.max_moves entries each, allocated when the depth is first reached)
    State *kids
    int *costs
    int *fs


cdef struct Deep:
    Game *g
    test_fn lower       # NULL: 0
    ttable tt
    Level *levels       # the walk's stack, grown as lines get longer: the walk is a loop, so a
    size_t n_levels     # long line takes heap, never C stack
    size_t level_bytes
    size_t level_budget # the levels' share of the memory budget
    size_t budget       # the whole budget (the table's and the levels')
    int win_depth       # the moves of the winning line, once found
    int threshold
    int next            # the least f above the threshold met in this iteration (H_NONE: none)
    int label_bits
    long long nodes
    long long max_states
    long long generated
    long long pruned
    double deadline
    int status          # why the walk stopped: a limit, or a DEEP_ error below


cdef enum:
    DEEP_BAD_BOUND = -1     # a win cheaper than the threshold: the bound was not admissible
    DEEP_WIDE_AUX = -2      # aux leaves no room for the cost label in the table's key
    DEEP_TOO_LONG = -3      # a line of more moves than the game's bound on its cost
    DEEP_MIN_STACK = 1 << 18    # the walk's stack under a small budget (Pyramid's takes 84 KiB)

DEEP_ERRORS = {
    DEEP_BAD_BOUND: "the game's lower bound is not admissible",
    DEEP_WIDE_AUX: "deepening: aux leaves no room for the cost label",
    DEEP_TOO_LONG: "line of play longer than the game's bound",
}


cdef inline int deep_h(Deep *d, const State *s) noexcept nogil:
    return d.lower(d.g.ctx, s) if d.lower != NULL else 0


cdef void deep_share(Deep *d, size_t memory_bytes) noexcept nogil:
    """The table may grow to max_slots (and its window's tail): the stack gets the rest, so that
    the two stay within the budget (past the floor of a small one), or takes room the table has
    not used (deep_fits)."""
    d.budget = memory_bytes
    d.level_budget = DEEP_MIN_STACK
    if memory_bytes > (d.tt.max_slots + TT_TAIL_SLOTS) * sizeof(tt_entry) + DEEP_MIN_STACK:
        d.level_budget = memory_bytes - (d.tt.max_slots + TT_TAIL_SLOTS) * sizeof(tt_entry)


cdef bint deep_fits(Deep *d, size_t more) noexcept nogil:
    """Whether the walk's stack may take `more` bytes: within its share of the budget, or else
    beside the table as it is now, whose largest size is then lowered to leave the stack room
    (a smaller table only replaces sooner)."""
    cdef size_t need = d.level_bytes + more
    cdef size_t entry = sizeof(tt_entry)
    cdef size_t now_slots = tt_capacity(&d.tt) + TT_TAIL_SLOTS
    if need <= d.level_budget:
        return True
    if need + now_slots * entry > d.budget:
        return False
    # The table's largest size comes down to what leaves the stack room, never below its size
    # now (the test above): a table may have any number of slots (csrc/slots.h), where halving
    # a size between two powers of two went below the table and let the two pass the budget.
    if need + (d.tt.max_slots + TT_TAIL_SLOTS) * entry > d.budget:
        d.tt.max_slots = max(tt_capacity(&d.tt), (d.budget - need) // entry - TT_TAIL_SLOTS)
    d.level_budget = d.budget - (d.tt.max_slots + TT_TAIL_SLOTS) * entry
    return need <= d.level_budget


cdef int deep_level(Deep *d, size_t depth) noexcept nogil:
    """Makes depth a level of the stack, with its arrays; -1 over the levels' share of the
    budget or out of memory."""
    cdef size_t mm = <size_t>d.g.max_moves, cap, each = mm * (sizeof(uint64_t) + sizeof(State)
                                                              + 2 * sizeof(int))
    cdef Level *grown
    cdef Level *lv
    if depth >= d.n_levels:
        cap = d.n_levels * 2 if d.n_levels else 64
        if not deep_fits(d, (cap - d.n_levels) * sizeof(Level)):
            return -1
        grown = <Level *>realloc(d.levels, cap * sizeof(Level))
        if grown == NULL:
            return -1
        memset(&grown[d.n_levels], 0, (cap - d.n_levels) * sizeof(Level))
        d.level_bytes += (cap - d.n_levels) * sizeof(Level)
        d.levels = grown
        d.n_levels = cap
    lv = &d.levels[depth]
    if lv.moves == NULL:
        if not deep_fits(d, each):
            return -1
        lv.moves = <uint64_t *>malloc(sizeof(uint64_t) * mm)
        lv.kids = <State *>malloc(sizeof(State) * mm)
        lv.costs = <int *>malloc(sizeof(int) * mm)
        lv.fs = <int *>malloc(sizeof(int) * mm)
        d.level_bytes += each
        if lv.moves == NULL or lv.kids == NULL or lv.costs == NULL or lv.fs == NULL:
            return -1
    return 0


cdef int deep_expand(Deep *d, Level *lv, size_t depth) noexcept nogil:
    """Fills the level's children within the threshold, least f first (so that the last
    iteration meets its line early), and lowers d.next with those above it: 1 when a child wins
    at exactly the threshold (the line's last move is then lv.moves[lv.at - 1]), 0 else, -1
    when the walk must stop (d.status)."""
    cdef Game *g = d.g
    cdef uint64_t *mv = lv.moves
    cdef int n, k, j, c, f
    cdef State st
    cdef uint64_t word
    lv.kept = 0
    lv.at = 0
    if g.dead != NULL and g.dead(g.ctx, &lv.pos):
        d.pruned += 1
        return 0
    n = g.moves(g.ctx, &lv.pos, mv)
    d.generated += n
    for k in range(n):
        word = mv[k]
        g.play(g.ctx, &lv.pos, word, &st)
        c = lv.cost + <int>move_cost(g, &lv.pos, word)
        if g.won(g.ctx, &st):
            if c < d.threshold:
                d.status = DEEP_BAD_BOUND
                return -1
            if c == d.threshold:
                mv[0] = word
                lv.at = 1
                d.win_depth = <int>depth + 1
                return 1
            if c < d.next:
                d.next = c
            continue
        f = c + deep_h(d, &st)
        if f > d.threshold:
            if f < d.next:
                d.next = f
            continue
        # insertion by f; the moves already read lie at k and below, kept <= k
        j = lv.kept
        while j > 0 and lv.fs[j - 1] > f:
            mv[j] = mv[j - 1]
            lv.kids[j] = lv.kids[j - 1]
            lv.costs[j] = lv.costs[j - 1]
            lv.fs[j] = lv.fs[j - 1]
            j -= 1
        mv[j] = word
        lv.kids[j] = st
        lv.costs[j] = c
        lv.fs[j] = f
        lv.kept += 1
    return 0


cdef int deep_walk(Deep *d, State root) except -4 nogil:
    """One iteration of DEEPEN: walks depth-first every line from root whose f stays within
    d.threshold. 1 when a line of cost exactly the threshold wins (d.levels[i].moves[at - 1]
    for i below d.win_depth), 0 when none does, -1 when the walk stopped (d.status)."""
    cdef size_t depth = 0
    cdef int r
    cdef Level *lv
    cdef State st
    if deep_level(d, 0) < 0:
        d.status = SEARCH_LIMIT_MEMORY
        return -1
    d.levels[0].pos = root
    d.levels[0].cost = 0
    r = deep_expand(d, &d.levels[0], 0)
    while r == 0:
        lv = &d.levels[depth]
        if lv.at == lv.kept:
            if depth == 0:
                return 0
            depth -= 1
            continue
        st = lv.kids[lv.at]
        if st.aux >> (63 - d.label_bits):
            d.status = DEEP_WIDE_AUX
            return -1
        # The table holds each position with the least cost it was walked at in this
        # iteration: reached again at no lower cost, its walk could only repeat a part of the
        # first one (the same threshold leaves it no more room).
        if tt_visit(&d.tt, st.removed, (st.aux << d.label_bits) | <uint64_t>lv.costs[lv.at]):
            lv.at += 1
            continue
        d.nodes += 1
        r = over_limit(d.nodes, d.max_states, d.deadline)
        if r:
            if r == SEARCH_LIMIT_STATES:
                d.nodes -= 1  # over_limit
            d.status = r
            return -1
        if depth + 1 > <size_t>d.g.max_depth:
            d.status = DEEP_TOO_LONG
            return -1
        if deep_level(d, depth + 1) < 0:
            d.status = SEARCH_LIMIT_MEMORY
            return -1
        lv = &d.levels[depth]   # deep_level may have moved the stack
        lv.at += 1
        depth += 1
        d.levels[depth].pos = st
        d.levels[depth].cost = lv.costs[lv.at - 1]
        r = deep_expand(d, &d.levels[depth], depth)
    return r


cdef object deepening(Game *g, State root, test_fn lower, int floor, long long max_states,
                      double max_seconds, size_t memory_bytes):
    """DEEPEN: iterative deepening on f = cost + lower, from `floor` (a lower bound of every
    winning line's cost, A*'s least f), in the memory budget.

    Each iteration walks depth-first every line whose f stays within the threshold T and finds
    a win of cost exactly T if there is one; else T becomes the least f above it that the walk
    met. Exact: no line costs less than the first T (a lower bound), and none costs less than
    a later T: a shortest line C <= T' would keep f (lower is admissible) within T', and the
    iteration at the old T would have met an f in (T, C] on it and set T' no higher. A position
    reached again at no lower cost within one iteration is skipped (its first walk had as much
    room); a position the full table forgot is walked again, so the table's size changes the
    time, not the answer. The threshold never passes g.max_depth, the game's bound on a line's
    cost. The table takes the budget (at least 1,024 slots), and the walk's stack what the
    table's largest size leaves of it, at least 256 KiB, or more while the table is smaller
    (which then stops growing short of the budget); past that, the memory limit. Returns
    (status, path, stats)."""
    cdef Deep d
    cdef int t, r = 0, iterations = 0
    cdef double t0 = now()
    cdef long long replaced = 0
    cdef size_t i
    memset(&d, 0, sizeof(Deep))
    d.g = g
    d.lower = lower
    d.max_states = max_states
    d.deadline = t0 + max_seconds if max_seconds > 0 else 0.0
    while (1 << d.label_bits) <= g.max_depth:
        d.label_bits += 1
    if root.aux >> (63 - d.label_bits):
        raise RuntimeError(DEEP_ERRORS[DEEP_WIDE_AUX])
    if tt_init(&d.tt, memory_bytes) != 0:
        raise MemoryError("cannot allocate the transposition table")
    d.tt.label_bits = d.label_bits
    deep_share(&d, memory_bytes)
    t = floor
    try:
        status = SEARCH_EXHAUSTED
        path = []
        if g.won(g.ctx, &root):
            status = SEARCH_WON
        else:
            t = max(t, deep_h(&d, &root))
        while status == SEARCH_EXHAUSTED and t <= g.max_depth:
            replaced += <long long>d.tt.replaced
            tt_clear(&d.tt)
            d.threshold = t
            d.next = H_NONE
            iterations += 1
            tt_visit(&d.tt, root.removed, root.aux << d.label_bits)
            d.nodes += 1
            with nogil:
                r = deep_walk(&d, root)
            if r == 1:
                status = SEARCH_WON
                path = [d.levels[i].moves[d.levels[i].at - 1] for i in range(<size_t>d.win_depth)]
            elif r < 0:
                if d.status in DEEP_ERRORS:
                    raise RuntimeError(DEEP_ERRORS[d.status])
                status = d.status
            elif d.next == H_NONE:
                break
            else:
                t = d.next
        stats = {
            "iterations": iterations,
            "from": floor,
            "to": t,
            "states": d.nodes,
            "moves_generated": d.generated,
            "pruned": d.pruned,
            "table_capacity": tt_capacity(&d.tt),
            "table_replaced": replaced + <long long>d.tt.replaced,
            "stack_bytes": d.level_bytes,
            "seconds": now() - t0,
        }
        return status, path, stats
    finally:
        for i in range(d.n_levels):
            free(d.levels[i].moves)
            free(d.levels[i].kids)
            free(d.levels[i].costs)
            free(d.levels[i].fs)
        free(d.levels)
        tt_free(&d.tt)


cdef object a_star(Game *g, State root, test_fn lower, long long max_states,
                   double max_seconds, size_t memory_bytes, test_fn refine, int *floor):
    """A* with a bucket queue on f = g + h, ties going to the lowest h (the deepest node: the
    last layer, f = the shortest length, is then walked depth-first). Each position is stored once (the hash map keeps its
    best g and the parent it was reached from). Won positions are not stored: a won child sets
    the best length found, U; nodes with f >= U are not queued, and the search ends when the
    lowest f in the queue reaches U. Since h never overestimates, every line shorter than U would
    keep a node with f < U in the queue, so U is then the shortest length. With a consistent h a
    node's g is final when it is expanded; should a shorter line to an expanded node still turn up
    (an inconsistent h), the node is reopened, which keeps the answer exact. PARTIAL (unless
    g.expand_all): an expansion stores only the children near the node's f and queues the node
    again for the rest (see the loop, and docs/pyramid-search.md)."""
    cdef AStar a
    cdef uint64_t *buf = NULL
    cdef State *kids = NULL
    cdef long long generated = 0, pruned = 0, leaves = 0, expanded = 0, refined = 0, j
    cdef long long best = -1, cost
    cdef uint32_t win_parent = 0, idx
    cdef uint64_t win_move = 0
    cdef int n, k, fmin = 0, f, cg, hv, limit, status = SEARCH_EXHAUSTED, max_f = 0, nextf, keep
    cdef long long reexpanded = 0
    cdef bint again
    cdef int *cgs = NULL
    cdef int *hs = NULL
    cdef size_t slot, i
    cdef State child
    cdef ANode *nd
    cdef Bucket *bk
    cdef double t0 = now()
    cdef double deadline = t0 + max_seconds if max_seconds > 0 else 0.0
    cdef bint use_dead = g.dead != NULL

    if g.max_depth >= G_MAX:
        raise ValueError("best-first search: the game's depth bound exceeds its node field")
    a.count = 0
    a.cap = 4096
    a.mask = 8191
    a.nb = g.max_depth + 66
    a.budget = memory_bytes
    a.nodes = <ANode *>malloc(a.cap * sizeof(ANode))
    a.slots = <uint32_t *>calloc(a.mask + 1, sizeof(uint32_t))
    a.rows = <Bucket **>calloc(a.nb, sizeof(Bucket *))
    a.queued = <size_t *>calloc(a.nb, sizeof(size_t))
    buf = <uint64_t *>malloc(sizeof(uint64_t) * g.max_moves)
    kids = <State *>malloc(sizeof(State) * g.max_moves)
    cgs = <int *>malloc(sizeof(int) * g.max_moves)
    hs = <int *>malloc(sizeof(int) * g.max_moves)
    a.bytes = (a.cap * sizeof(ANode) + (a.mask + 1) * sizeof(uint32_t)
               + <size_t>a.nb * (sizeof(Bucket *) + sizeof(size_t)))
    try:
        if (a.nodes == NULL or a.slots == NULL or a.rows == NULL or a.queued == NULL
                or buf == NULL or kids == NULL or cgs == NULL or hs == NULL):
            raise MemoryError("cannot allocate the search tables")
        with nogil:
            if g.won(g.ctx, &root):
                best = 0
            else:
                hv = lower(g.ctx, &root) if lower != NULL else 0
                if hv < 0 or hv >= H_SPAN:
                    with gil:
                        raise RuntimeError("lower bound out of 0..64")
                a_find(&a, &root, &slot)
                a_add(&a, &root, slot, 0, 0, hv)
                fmin = hv
                if a_push(&a, fmin, hv, 0) < 0:
                    status = SEARCH_LIMIT_MEMORY
                while status == SEARCH_EXHAUSTED:
                    while fmin < a.nb and a.queued[fmin] == 0:
                        fmin += 1
                    if fmin >= a.nb or (best >= 0 and fmin >= best):
                        break
                    bk = a.rows[fmin]
                    while bk.n == 0:
                        bk += 1
                    bk.n -= 1
                    a.queued[fmin] -= 1
                    idx = bk.items[bk.n]
                    nd = &a.nodes[idx]
                    if n_closed(nd) or n_g(nd) + n_h(nd) != fmin:
                        continue    # a stale entry: the node was queued again with a lower f
                    if refine != NULL and not (nd.ghc & REFINED):
                        # LAZY: a node is stored with the cheap bound and gets the dear one when
                        # first taken from the queue; a higher f queues it again (or drops it when
                        # it reaches the best length found). Every key in the queue is still a
                        # lower bound of its node's cost, which is all A*'s exactness needs, and
                        # the nodes never taken (f at or above the answer) never pay for it.
                        nd.ghc |= REFINED
                        refined += 1
                        hv = refine(g.ctx, &nd.state)
                        if hv < 0 or hv >= H_SPAN:
                            with gil:
                                raise RuntimeError("lower bound out of 0..64")
                        if hv > n_h(nd):
                            n_set(nd, n_g(nd), hv, False)
                            f = n_g(nd) + hv
                            if best >= 0 and f >= best:
                                continue
                            if a_push(&a, f, hv, idx) < 0:
                                status = SEARCH_LIMIT_MEMORY
                                break
                            continue
                    n_set(nd, n_g(nd), n_h(nd), True)
                    again = (nd.ghc & PARTIAL) != 0
                    # The game's dead test runs when a node is taken from the queue, not when it
                    # is stored: most stored nodes are never taken (the search ends when the
                    # lowest f reaches the answer's length), and a dead node is not expanded
                    # either way, as it leads to no win. A node taken again (PARTIAL) passed it.
                    if not again and use_dead and g.dead(g.ctx, &nd.state):
                        pruned += 1
                        continue
                    if again:
                        reexpanded += 1
                    else:
                        expanded += 1
                    if fmin > max_f:
                        max_f = fmin
                    n = g.moves(g.ctx, &nd.state, buf)
                    if not again:
                        generated += n
                        if n == 0:
                            leaves += 1
                    # PARTIAL: only the children with f <= fmin (the node's key) + PEA_DELTA are
                    # stored now; the node is queued again at the least f of the others, the f
                    # its next child can have (a node taken again counts in "reexpanded", and
                    # its moves are not counted again in "moves_generated"). Every key stays a lower bound of a line through its node,
                    # so the answer is A*'s; most children lie above the answer's length and are
                    # never stored (seeds and vectors: tests/test_pyramid.py). The children's f
                    # (with the cheap bound) come first, and only the kept ones are looked up:
                    # a skipped child already stored with a higher g keeps a key above this f,
                    # so the node, queued at most at f, improves it before it is taken.
                    nextf = H_NONE
                    for k in range(n):
                        g.play(g.ctx, &a.nodes[idx].state, buf[k], &kids[k])
                        cgs[k] = n_g(&a.nodes[idx]) + <int>move_cost(g, &a.nodes[idx].state,
                                                                      buf[k])
                        if cgs[k] > g.max_depth:
                            with gil:
                                raise RuntimeError("line of play longer than the game's bound")
                        if g.won(g.ctx, &kids[k]):
                            hs[k] = -1
                            continue
                        hv = lower(g.ctx, &kids[k]) if lower != NULL else 0
                        if hv < 0 or hv >= H_SPAN:
                            with gil:
                                raise RuntimeError("lower bound out of 0..64")
                        hs[k] = hv
                        f = cgs[k] + hv
                        if f > fmin + PEA_DELTA and not g.expand_all:
                            if f < nextf:
                                nextf = f
                            continue
                        __builtin_prefetch(&a.slots[key_hash(&kids[k]) & a.mask])
                    # The raised h must fit the node's field (else every child is stored now).
                    keep = fmin + PEA_DELTA if nextf - n_g(&a.nodes[idx]) <= H_FIELD else H_NONE
                    for k in range(n):
                        cg = cgs[k]
                        child = kids[k]
                        if hs[k] < 0:
                            if best < 0 or cg < best:
                                best = cg
                                win_parent = idx
                                win_move = buf[k]
                            continue
                        if not g.expand_all and cg + hs[k] > keep:
                            continue
                        j = a_find(&a, &child, &slot)
                        if j >= 0:
                            nd = &a.nodes[j]
                            if n_g(nd) <= cg:
                                continue
                            if nd.ghc & PARTIAL:
                                # its raised h held for its old g only: back to the plain bound
                                nd.ghc &= ~(<uint32_t>(PARTIAL | REFINED))
                                n_set(nd, cg, hs[k], False)
                            else:
                                n_set(nd, cg, n_h(nd), False)
                            nd.parent = idx
                            f = cg + n_h(nd)
                            if best >= 0 and f >= best:
                                continue
                            if a_push(&a, f, n_h(nd), <uint32_t>j) < 0:
                                status = SEARCH_LIMIT_MEMORY
                                break
                            if f < fmin:
                                fmin = f
                            continue
                        hv = hs[k]
                        f = cg + hv
                        if best >= 0 and f >= best:
                            continue
                        j = a_add(&a, &child, slot, idx, cg, hv)
                        if j < 0 or a_push(&a, f, hv, <uint32_t>j) < 0:
                            status = SEARCH_LIMIT_MEMORY
                            break
                        if f < fmin:
                            fmin = f    # only with an inconsistent h
                        limit = over_limit(<long long>a.count, max_states, deadline)
                        if limit:
                            status = limit
                            break
                    if (status == SEARCH_EXHAUSTED and keep != H_NONE and nextf != H_NONE
                            and (best < 0 or nextf < best)):
                        nd = &a.nodes[idx]
                        n_set(nd, n_g(nd), nextf - n_g(nd), False)
                        nd.ghc |= PARTIAL
                        if a_push(&a, nextf, nextf - n_g(nd), idx) < 0:
                            status = SEARCH_LIMIT_MEMORY
        # With an admissible h a shortest line keeps a node queued, or being expanded (key
        # fmin), whose key is no higher than its length: fmin bounds the shortest length from
        # below (DEEPEN starts there).
        floor[0] = fmin
        path = []
        if status == SEARCH_EXHAUSTED and best >= 0:
            status = SEARCH_WON
            if best > 0:
                path.append(win_move)
                cost = move_cost(g, &a.nodes[win_parent].state, win_move)
                i = win_parent
                while i != 0:
                    win_move = move_between(g, &a.nodes[a.nodes[i].parent].state,
                                            &a.nodes[i].state,
                                            n_g(&a.nodes[i]) - n_g(&a.nodes[a.nodes[i].parent]),
                                            buf)
                    path.append(win_move)
                    cost += move_cost(g, &a.nodes[a.nodes[i].parent].state, win_move)
                    i = a.nodes[i].parent
                    if <long long>len(path) > best:
                        raise RuntimeError("broken parent links in the best-first search")
                path.reverse()
                if cost != best:
                    raise RuntimeError("the game's lower bound is not consistent")
        stats = {
            # over_limit: the position past a state limit is queued but not counted
            "states": a.count - (status == SEARCH_LIMIT_STATES),
            "expanded": expanded,
            "reexpanded": reexpanded,
            "refined": refined,
            "moves_generated": generated,
            "pruned": pruned,
            "dead_ends": leaves,
            "max_depth": max_f,
            "table_capacity": a.mask + 1,
            "table_used": a.count,
            "table_bytes": a.bytes,
            "seconds": now() - t0,
        }
        return status, path, stats, None
    finally:
        free(buf)
        free(kids)
        free(cgs)
        free(hs)
        if a.rows != NULL:
            for i in range(<size_t>a.nb):
                if a.rows[i] != NULL:
                    for k in range(H_SPAN):
                        free(a.rows[i][k].items)
                    free(a.rows[i])
        free(a.rows)
        free(a.queued)
        free(a.slots)
        free(a.nodes)


def table_ops(list ops, int label_bits=0, size_t budget_bytes=1 << 20):
    """Run ("visit" | "contains", k0, k1) operations on a fresh table, and ("stack", bytes, 0):
    a DEEPEN walk's stack beside it asks for that many bytes more (deep_fits; 1 when granted);
    their results and the final statistics (for the tests of csrc/ttable.c and of the budget's
    split)."""
    cdef Deep d
    cdef bint granted
    memset(&d, 0, sizeof(Deep))
    if tt_init(&d.tt, budget_bytes) != 0:
        raise MemoryError("cannot allocate the transposition table")
    d.tt.label_bits = label_bits
    deep_share(&d, budget_bytes)
    out = []
    try:
        for op, k0, k1 in ops:
            if op == "visit":
                out.append(tt_visit(&d.tt, k0, k1))
            elif op == "contains":
                out.append(tt_contains(&d.tt, k0, k1))
            elif op == "stack":
                granted = deep_fits(&d, k0)
                if granted:
                    d.level_bytes += k0
                out.append(int(granted))
            else:
                raise ValueError(f"unknown table operation {op!r}")
        return out, {"used": d.tt.used, "capacity": tt_capacity(&d.tt), "improved": d.tt.improved,
                     "replaced": d.tt.replaced, "hits": d.tt.hits, "max_slots": d.tt.max_slots,
                     "stack_bytes": d.level_bytes}
    finally:
        tt_free(&d.tt)


cdef list expand_state(Game *g, uint64_t removed, uint64_t aux):
    """The moves g generates at (removed, aux) and where each leads: [(word, removed, aux)]. The
    contract's expand() of every core (contract.py)."""
    cdef State s, t
    cdef int n, i
    cdef uint64_t *buf = <uint64_t *>malloc(sizeof(uint64_t) * g.max_moves)
    if buf == NULL:
        raise MemoryError("cannot allocate the move buffer")
    s.removed = removed
    s.aux = aux
    try:
        n = g.moves(g.ctx, &s, buf)
        out = []
        for i in range(n):
            g.play(g.ctx, &s, buf[i], &t)
            out.append((buf[i], t.removed, t.aux))
        return out
    finally:
        free(buf)


cdef tuple step_state(Game *g, uint64_t removed, uint64_t aux):
    """(won, moves): whether g's win test holds at (removed, aux), and expand_state's list of
    its moves and where each leads. The contract's step() of every core (contract.py)."""
    cdef State s
    s.removed = removed
    s.aux = aux
    return (g.won(g.ctx, &s) != 0, expand_state(g, removed, aux))


cdef State root_of(dict spec) except *:
    """The position a search starts from: spec["root"] = (removed, aux) when given (a position
    mid-game, contract.py), else the deal's start (nothing removed, aux 0)."""
    cdef State s
    root = spec.get("root")
    s.removed = 0
    s.aux = 0
    if root is not None:
        s.removed, s.aux = root
    return s


# -- a weighted graph as a game, for the tests of best_first ----------------------------------------

cdef struct Graph:
    int *first      # node v's edges are first[v] .. first[v + 1] - 1
    int *to
    int *weight
    int *h
    int target


cdef int graph_moves(void *ctx, const State *s, uint64_t *out) noexcept nogil:
    cdef Graph *gr = <Graph *>ctx
    cdef int v = <int>s.removed, e
    for e in range(gr.first[v], gr.first[v + 1]):
        out[e - gr.first[v]] = <uint64_t>(e + 1)
    return gr.first[v + 1] - gr.first[v]


cdef void graph_play(void *ctx, const State *s, uint64_t move, State *out) noexcept nogil:
    out.removed = <uint64_t>(<Graph *>ctx).to[move - 1]
    out.aux = 0


cdef int graph_won(void *ctx, const State *s) noexcept nogil:
    return s.removed == <uint64_t>(<Graph *>ctx).target


cdef int graph_cost(void *ctx, const State *s, uint64_t move) noexcept nogil:
    return (<Graph *>ctx).weight[move - 1]


cdef int graph_lower(void *ctx, const State *s) noexcept nogil:
    return (<Graph *>ctx).h[s.removed]


def graph_shortest(list edges, list h, int target, bint expand_all=False,
                   size_t memory_bytes=1 << 24):
    """best_first over a directed graph from node 0 to target: edges (u, v, weight >= 1), h[v]
    the lower bound at node v (admissible or not: the tests give admissible, often inconsistent,
    bounds); memory_bytes: its budget (a few bytes leave A* no room: DEEPEN does the search).
    Returns (status code, edges of the line found as indexes into edges, stats)."""
    cdef Game g
    cdef Graph gr
    cdef State root
    cdef int n = len(h), i, most = 1, wmax = 1
    if not 0 <= target < n or any(not (0 <= u < n and 0 <= v < n and 1 <= w <= 63)
                                  for u, v, w in edges) or any(not 0 <= x <= 64 for x in h):
        raise ValueError("nodes 0..len(h)-1, weights 1..63, bounds 0..64")
    order = sorted(range(len(edges)), key=lambda e: edges[e][0])
    gr.first = <int *>calloc(n + 1, sizeof(int))
    gr.to = <int *>calloc(len(edges) + 1, sizeof(int))
    gr.weight = <int *>calloc(len(edges) + 1, sizeof(int))
    gr.h = <int *>calloc(n, sizeof(int))
    try:
        if gr.first == NULL or gr.to == NULL or gr.weight == NULL or gr.h == NULL:
            raise MemoryError("cannot allocate the graph")
        for i, e in enumerate(order):
            u, v, w = edges[e]
            gr.first[u + 1] += 1
            gr.to[i] = v
            gr.weight[i] = w
            wmax = max(wmax, w)
        for i in range(n):
            most = max(most, gr.first[i + 1])
            gr.first[i + 1] += gr.first[i]
            gr.h[i] = h[i]
        gr.target = target
        game_clear(&g)
        g.ctx = &gr
        g.moves = graph_moves
        g.play = graph_play
        g.won = graph_won
        g.cost = graph_cost
        g.max_moves = most
        g.max_depth = n * wmax  # a line of the search tree repeats no node
        g.expand_all = expand_all
        root.removed = 0
        root.aux = 0
        status, path, stats, _ = best_first(&g, root, graph_lower, 0, 0.0, memory_bytes)
        return status, [order[m - 1] for m in path], stats
    finally:
        free(gr.first)
        free(gr.to)
        free(gr.weight)
        free(gr.h)


cdef class TextEntry:
    """The base of a core's TextDecider (engine/contract.py): decide(text) is its prepared decide
    run for the deal a pack-order text gives."""

    cpdef tuple decide(self, str text):
        raise NotImplementedError
