# cython: language_level=3
"""The depth-first search over wide positions (`words` 64-bit words, _wide.pxd).

A reachability search like _engine.depth_first: a position is stored in the table (csrc/wtable.c,
full keys) when first reached and not expanded again. It is exact on move graphs with cycles,
also past the memory budget, where the table forgets positions:

- The positions of the current line are kept in a set the table's budget never touches (the
  path set below), so a line never enters a position it holds: every line is simple, there are
  finitely many, and the search ends.
- Every position reached is expanded unless the table or the path set holds it, i.e. unless it
  was reached before. So the positions ever reached are closed under moves (a child was either
  reached then, or earlier): they are every position reachable from the root. An exhausted
  search has seen them all without a win; a forgotten position is only searched again.

Which key the table forgets is a matter of speed only: each stored position carries the positions
its search took (set when its frame is popped; busy while it is on the line), and a full window
gives up its lightest key (csrc/wtable.h).

The path set is needed only once the table has forgotten a key: until then every position of the
line is in the table. It is built from the line at the first key forgotten and kept from then on.
Lines may be long (a game with cycles has no small bound on a line that repeats no position): the
stack grows within the memory budget, and a search that cannot grow it stops at the memory limit.
"""

from cpython.exc cimport PyErr_CheckSignals
from libc.stdint cimport uint32_t, uint64_t
from libc.stdlib cimport calloc, free, malloc, realloc
from libc.string cimport memcpy, memset

from solitaire_solver.engine._engine cimport (
    SEARCH_EXHAUSTED, SEARCH_LIMIT_MEMORY, SEARCH_LIMIT_STATES, SEARCH_LIMIT_TIME, SEARCH_WON, Game,
    State, now,
)
from solitaire_solver.engine.wtable cimport (
    WT_BUSY, WT_MAX_WORDS, wt_bytes, wt_capacity, wt_contains, wt_free, wt_hash, wt_init,
    wt_max_bytes, wt_remove, wt_visit, wt_weigh, wtable,
)

cdef enum:
    CHECK_EVERY = 1 << 12   # as _engine's: new positions between looks at the clock and signals
    FIRST_FRAMES = 64       # the stack's first size, in frames
    # What a certificate position costs in Python objects beyond its words here: its int and
    # (int, 0) pair, the game's key in the proof's frozenset and the set's slot.
    CERT_PY_BYTES = 320
    CERT_TABLE_SHARE = 8    # the table's share of the budget with a certificate (_engine's)
    # The table's share of the budget without one, in quarters: the rest is for the stack.
    TABLE_QUARTERS = 3


cdef void wide_clear(WideGame *g) noexcept nogil:
    memset(g, 0, sizeof(WideGame))


cdef int check_signals() except -1 with gil:
    return PyErr_CheckSignals()


cdef inline int over_limit(long long count, long long max_states, double deadline) except -1 nogil:
    """_engine.over_limit's rule: the limit reached once the search holds count positions."""
    if (count & (CHECK_EVERY - 1)) == 0:
        check_signals()
        if deadline > 0 and now() > deadline:
            return SEARCH_LIMIT_TIME
    if max_states > 0 and count > max_states:
        return SEARCH_LIMIT_STATES
    return 0


cdef object pos_int(const uint64_t *s, int words):
    cdef int i
    x = 0
    for i in range(words - 1, -1, -1):
        x = (x << 64) | s[i]
    return x


cdef int int_pos(object x, int words, uint64_t *out) except -1:
    cdef int i
    if isinstance(x, bool) or not isinstance(x, int) or x < 0 or x >> (64 * words):
        raise ValueError(f"a position of {words} words is an int in [0, 2**{64 * words}), "
                         f"not {x!r}")
    for i in range(words):
        out[i] = <uint64_t>((x >> (64 * i)) & 0xFFFFFFFFFFFFFFFF)
    return 0


cdef int wide_root(dict spec, int words, uint64_t *out) except -1:
    root = spec.get("root")
    if root is None:
        return 0
    x, aux = root
    if aux != 0:
        raise ValueError(f"a wide core's position is (int, 0), not {root!r}")
    int_pos(x, words, out)
    return 1


cdef struct Frame:
    int n        # moves generated at this position
    int next     # index of the next move to try
    int path     # 1 while it is in the path set
    long long start  # the positions searched when it was pushed (its weight in the table)
    uint64_t *seen   # where its weight was in the table at its push, NULL: not known
    uint64_t moves   # the table's moves then (wt_weigh)


cdef struct Walk:
    WideGame *g
    int w
    wtable tt
    # the stack: frame d's position at pos[d * w], its moves at moves[d * max_moves]
    Frame *frames
    uint64_t *pos
    uint64_t *moves
    size_t cap             # frames allocated
    size_t budget          # bytes the stack (with the path set) may take
    size_t used            # bytes it takes
    # the path set: slot -> frame index + 1 (0: empty), linear probing over pmask + 1 slots
    uint32_t *pslots
    size_t pmask
    bint plive
    long long nodes, generated, pruned, leaves, path_hits
    size_t win             # moves of the winning line, on SEARCH_WON
    int max_depth_reached
    uint64_t *cert
    size_t cert_len, cert_cap, cert_budget
    # Where a search stopped at its limit of positions (wide_attempts): frames 0..top were on
    # the line, and `past`, when pending, was stored in the table but not searched.
    long long top
    bint pending
    uint64_t past[WT_MAX_WORDS]


cdef inline uint64_t *at(Walk *k, size_t d) noexcept nogil:
    return k.pos + d * k.w


cdef inline bint same(const uint64_t *a, const uint64_t *b, int w) noexcept nogil:
    cdef int i
    for i in range(w):
        if a[i] != b[i]:
            return False
    return True


cdef long long path_find(Walk *k, const uint64_t *s) noexcept nogil:
    """The frame holding s on the line, or -1."""
    cdef size_t i = <size_t>wt_hash(s, k.w) & k.pmask
    while k.pslots[i]:
        if same(at(k, k.pslots[i] - 1), s, k.w):
            return k.pslots[i] - 1
        i = (i + 1) & k.pmask
    return -1


cdef void path_add(Walk *k, size_t d) noexcept nogil:
    cdef size_t i = <size_t>wt_hash(at(k, d), k.w) & k.pmask
    while k.pslots[i]:
        i = (i + 1) & k.pmask
    k.pslots[i] = <uint32_t>(d + 1)
    k.frames[d].path = 1


cdef void path_drop(Walk *k, size_t d) noexcept nogil:
    """Removes frame d, the last one added. Emptying its slot is enough: every key still in the
    set was added before it and is removed after it (the line is a stack), so when each of those
    was placed, every slot of its probe run held a key that is still there: none of them runs
    through d's slot, which was empty then, and no backward shift is needed."""
    cdef size_t i = <size_t>wt_hash(at(k, d), k.w) & k.pmask
    while k.pslots[i] != d + 1:
        i = (i + 1) & k.pmask
    k.pslots[i] = 0
    k.frames[d].path = 0


cdef int path_size(Walk *k, size_t slots, long long top) noexcept nogil:
    """(Re)makes the path set with `slots` slots (a power of two) holding frames 0..top, added in
    line order (so removal stays a stack's). Returns -1 when it does not fit the budget."""
    cdef size_t old = (k.pmask + 1) * sizeof(uint32_t) if k.pslots != NULL else 0
    cdef size_t new = slots * sizeof(uint32_t)
    cdef uint32_t *grown
    cdef long long d
    if k.used - old + new > k.budget:
        return -1
    grown = <uint32_t *>calloc(slots, sizeof(uint32_t))
    if grown == NULL:
        return -1
    free(k.pslots)
    k.pslots = grown
    k.pmask = slots - 1
    k.used = k.used - old + new
    for d in range(top + 1):
        path_add(k, <size_t>d)
    return 0


cdef int stack_grow(Walk *k) noexcept nogil:
    """Doubles the stack, or grows it as far as the budget allows; -1 when not one more frame
    fits."""
    cdef size_t n = k.cap * 2
    cdef size_t per = sizeof(Frame) + k.w * sizeof(uint64_t) + k.g.max_moves * sizeof(uint64_t)
    cdef void *p
    if k.used + (n - k.cap) * per > k.budget:
        n = k.cap + (k.budget - k.used) // per if k.budget > k.used else k.cap
        if n <= k.cap:
            return -1
    p = realloc(k.frames, n * sizeof(Frame))
    if p == NULL:
        return -1
    k.frames = <Frame *>p
    p = realloc(k.pos, n * k.w * sizeof(uint64_t))
    if p == NULL:
        return -1
    k.pos = <uint64_t *>p
    p = realloc(k.moves, n * k.g.max_moves * sizeof(uint64_t))
    if p == NULL:
        return -1
    k.moves = <uint64_t *>p
    k.used += (n - k.cap) * per
    k.cap = n
    return 0


cdef int cert_push(Walk *k, const uint64_t *s) noexcept nogil:
    cdef size_t n
    cdef void *p
    if k.cert_len == k.cert_cap:
        n = k.cert_cap * 2 if k.cert_cap else 4096
        if n * k.w * sizeof(uint64_t) > k.cert_budget:
            n = k.cert_budget // (k.w * sizeof(uint64_t))
            if n <= k.cert_cap:
                return -1
        p = realloc(k.cert, n * k.w * sizeof(uint64_t))
        if p == NULL:
            return -1
        k.cert = <uint64_t *>p
        k.cert_cap = n
    memcpy(k.cert + k.cert_len * k.w, s, k.w * sizeof(uint64_t))
    k.cert_len += 1
    return 0


cdef int push(Walk *k, long long *d, const uint64_t *s) except -2 nogil:
    """Pushes s as frame d + 1 with its moves (a position without any is a dead end, counted
    and not pushed). Returns 0, or SEARCH_LIMIT_MEMORY when the stack cannot grow."""
    cdef long long e = d[0] + 1
    cdef int n
    if k.g.max_depth and e >= k.g.max_depth:
        with gil:
            raise RuntimeError("line of play longer than the game's bound")
    if <size_t>e >= k.cap and stack_grow(k) < 0:
        return SEARCH_LIMIT_MEMORY
    n = k.g.moves(k.g.ctx, s, k.moves + e * k.g.max_moves)
    k.generated += n
    if n == 0:
        k.leaves += 1
        return 0
    memcpy(at(k, e), s, k.w * sizeof(uint64_t))
    k.frames[e].n = n
    k.frames[e].next = 0
    k.frames[e].path = 0
    k.frames[e].start = k.nodes
    k.frames[e].seen = k.tt.last  # s was the table's last visit (run's order)
    k.frames[e].moves = k.tt.moves
    if k.tt.last != NULL:
        k.tt.last[0] = WT_BUSY
    d[0] = e
    if e > k.max_depth_reached:
        k.max_depth_reached = <int>e
    if k.plive:
        if <size_t>(e + 1) * 2 > k.pmask + 1 and path_size(k, (k.pmask + 1) * 2, e - 1) < 0:
            return SEARCH_LIMIT_MEMORY
        path_add(k, e)
    return 0


cdef int run(Walk *k, const uint64_t *root, long long max_states, double deadline,
             bint certificate) except -2 nogil:
    """Returns a status; on SEARCH_WON the moves last tried at frames 0..k.win - 1 win."""
    cdef WideGame *g = k.g
    cdef long long d = -1
    cdef int status
    cdef Frame *f
    cdef uint64_t child[WT_MAX_WORDS]
    cdef bint use_dead = g.dead != NULL and not certificate
    cdef bint seen

    k.top = -1
    k.pending = False
    if g.won(g.ctx, root):
        return SEARCH_WON
    wt_visit(&k.tt, root)
    k.nodes = 1
    if certificate and cert_push(k, root) < 0:
        return SEARCH_LIMIT_MEMORY
    status = over_limit(k.nodes, max_states, deadline)
    if status:
        return status
    status = push(k, &d, root)
    if status:
        return status
    while d >= 0:
        f = &k.frames[d]
        if f.next >= f.n:
            if f.path:
                path_drop(k, <size_t>d)
            wt_weigh(&k.tt, at(k, <size_t>d), <uint64_t>(k.nodes - f.start + 1), f.seen,
                     f.moves)
            d -= 1
            continue
        g.play(g.ctx, at(k, <size_t>d), k.moves[d * g.max_moves + f.next], child)
        f.next += 1
        if g.won(g.ctx, child):
            k.win = <size_t>(d + 1)
            if d + 1 > k.max_depth_reached:
                k.max_depth_reached = <int>(d + 1)
            return SEARCH_WON
        # The path set is needed once the table has forgotten a key (module docstring): a key
        # forgotten by this very visit is not child's (a growth that loses child itself is
        # caught all the same: child is pushed, and so enters the path set).
        seen = k.plive and path_find(k, child) >= 0
        if wt_visit(&k.tt, child):
            continue
        if seen:
            k.path_hits += 1
            continue
        if not k.plive and k.tt.replaced:
            k.plive = True
            if path_size(k, 64, -1) < 0:
                return SEARCH_LIMIT_MEMORY
            while k.pmask + 1 < <size_t>(d + 2) * 2:
                if path_size(k, (k.pmask + 1) * 2, -1) < 0:
                    return SEARCH_LIMIT_MEMORY
            path_size(k, k.pmask + 1, d)
        k.nodes += 1
        if certificate and cert_push(k, child) < 0:
            return SEARCH_LIMIT_MEMORY
        status = over_limit(k.nodes, max_states, deadline)
        if status:
            if status == SEARCH_LIMIT_STATES:
                k.nodes -= 1  # the position past the limit is not searched (_engine's rule)
                k.top = d
                k.pending = True
                memcpy(k.past, child, k.w * sizeof(uint64_t))
            return status
        if use_dead and g.dead(g.ctx, child):
            k.pruned += 1
            continue
        status = push(k, &d, child)
        if status:
            return status
    return SEARCH_EXHAUSTED


cdef int walk_open(Walk *k, WideGame *g, size_t memory_bytes, bint certificate,
                   bint weighted=True) except -1:
    """A search's table and stack within memory_bytes (the certificate's share apart)."""
    cdef int w = g.words
    cdef size_t table_budget, rest
    if w < 1 or w > WT_MAX_WORDS:
        raise ValueError(f"a wide position has 1..{WT_MAX_WORDS} words, not {w}")
    memset(k, 0, sizeof(Walk))
    k.g = g
    k.w = w
    if certificate:
        table_budget = memory_bytes // CERT_TABLE_SHARE
    else:
        table_budget = memory_bytes // 4 * TABLE_QUARTERS
    if wt_init(&k.tt, w, table_budget, weighted) != 0:
        raise MemoryError("cannot allocate the transposition table")
    rest = memory_bytes - min(memory_bytes, wt_max_bytes(&k.tt))
    if certificate:
        # The stack takes what the table leaves of a quarter; the certificate the rest, at its
        # Python cost per position.
        k.budget = max(memory_bytes // 4, wt_max_bytes(&k.tt)) - wt_max_bytes(&k.tt)
        k.cert_budget = ((rest - min(rest, k.budget)) // (w * 8 + CERT_PY_BYTES) * (w * 8))
    else:
        k.budget = rest
    k.cap = FIRST_FRAMES
    k.frames = <Frame *>malloc(k.cap * sizeof(Frame))
    k.pos = <uint64_t *>malloc(k.cap * w * sizeof(uint64_t))
    k.moves = <uint64_t *>malloc(k.cap * g.max_moves * sizeof(uint64_t))
    k.used = k.cap * (sizeof(Frame) + w * sizeof(uint64_t) + g.max_moves * sizeof(uint64_t))
    if k.budget < k.used:
        k.budget = k.used  # the first frames under any budget, as the table's floor
    if k.frames == NULL or k.pos == NULL or k.moves == NULL:
        walk_close(k)
        raise MemoryError("cannot allocate the search stack")
    return 0


cdef void walk_close(Walk *k) noexcept:
    free(k.frames)
    free(k.pos)
    free(k.moves)
    free(k.pslots)
    free(k.cert)
    wt_free(&k.tt)
    k.frames = NULL
    k.pslots = NULL
    k.cert = NULL
    k.pos = NULL
    k.moves = NULL


cdef object walk_answer(Walk *k, int status, long long states, double t0):
    """(status, path, stats): a search's answer from its walk, `states` positions searched."""
    path = []
    if status == SEARCH_WON:
        # The move taken at frame i is the last one tried there.
        path = [k.moves[i * k.g.max_moves + k.frames[i].next - 1] for i in range(k.win)]
    stats = {
        "states": states,
        "moves_generated": k.generated,
        "pruned": k.pruned,
        "dead_ends": k.leaves,
        "table_capacity": wt_capacity(&k.tt),
        "table_used": k.tt.used,
        "table_probes": k.tt.probes,
        "table_hits": k.tt.hits,
        "table_replaced": k.tt.replaced,
        "table_improved": 0,
        "table_bytes": wt_bytes(&k.tt),
        "seconds": now() - t0,
        "max_depth": k.max_depth_reached,
        "path_hits": k.path_hits,
        "stack_bytes": k.used,
    }
    return status, path, stats


cdef object wide_depth_first(WideGame *g, const uint64_t *root, long long max_states,
                             double max_seconds, size_t memory_bytes, bint certificate,
                             bint weighted=True):
    cdef Walk k
    cdef int status
    cdef size_t i
    cdef double t0, deadline
    walk_open(&k, g, memory_bytes, certificate, weighted)
    try:
        t0 = now()
        deadline = t0 + max_seconds if max_seconds > 0 else 0.0
        with nogil:
            status = run(&k, root, max_states, deadline, certificate)
        status, path, stats = walk_answer(&k, status, k.nodes, t0)
        cert = None
        if certificate and status == SEARCH_EXHAUSTED:
            cert = [(pos_int(k.cert + i * k.w, k.w), 0) for i in range(k.cert_len)]
        return status, path, stats, cert
    finally:
        walk_close(&k)


cdef void forget_line(Walk *k) noexcept nogil:
    """After a search stopped at its limit of positions: take out of the table the positions
    it had not finished (the line's and the one reached past the limit), and drop the path
    set (the next search builds its own when it needs one)."""
    cdef long long d
    for d in range(k.top + 1):
        wt_remove(&k.tt, at(k, <size_t>d))
    if k.pending:
        wt_remove(&k.tt, k.past)
    if k.pslots != NULL:
        k.used -= (k.pmask + 1) * sizeof(uint32_t)
        free(k.pslots)
        k.pslots = NULL
        k.pmask = 0
    k.plive = False


cdef object wide_attempts(WideGame *g, const uint64_t *root, long long max_states,
                          double max_seconds, size_t memory_bytes, long long first,
                          double growth, wseed_fn reseed, bint keep=True,
                          bint weighted=True):
    cdef Walk k
    cdef size_t table_budget = memory_bytes // 4 * TABLE_QUARTERS
    cdef int status, attempt = 0
    cdef long long spent = 0, budget = first, cap
    cdef double t0, deadline
    if first < 1 or growth <= 1.0:
        raise ValueError(f"attempts need a first budget >= 1 and a growth > 1, not {first}, "
                         f"{growth}")
    walk_open(&k, g, memory_bytes, False, weighted)
    try:
        t0 = now()
        deadline = t0 + max_seconds if max_seconds > 0 else 0.0
        while True:
            attempt += 1
            reseed(g.ctx, attempt)
            cap = budget if not max_states else min(budget, max_states - spent)
            with nogil:
                status = run(&k, root, cap, deadline, False)
            spent += k.nodes
            if status != SEARCH_LIMIT_STATES or (max_states and spent >= max_states):
                break
            # Every other position the table holds was searched to the end without a win: on
            # a graph without cycles no child of a position is on the line above it, so each
            # position left behind had all its children searched or already lost.
            with nogil:
                forget_line(&k)
            if not keep:
                wt_free(&k.tt)
                if wt_init(&k.tt, k.w, table_budget, weighted) != 0:
                    raise MemoryError("cannot allocate the transposition table")
            budget = <long long>(budget * growth) + 1
        status, path, stats = walk_answer(&k, status, spent, t0)
        stats["attempts"] = attempt
        return status, path, stats, None
    finally:
        walk_close(&k)


cdef list wide_expand(WideGame *g, object position):
    cdef uint64_t s[WT_MAX_WORDS]
    cdef uint64_t t[WT_MAX_WORDS]
    cdef int n, i
    cdef uint64_t *buf
    int_pos(position, g.words, s)
    buf = <uint64_t *>malloc(sizeof(uint64_t) * g.max_moves)
    if buf == NULL:
        raise MemoryError("cannot allocate the move buffer")
    try:
        n = g.moves(g.ctx, s, buf)
        out = []
        for i in range(n):
            g.play(g.ctx, s, buf[i], t)
            out.append((buf[i], pos_int(t, g.words), 0))
        return out
    finally:
        free(buf)


def table_ops(list ops, int words, size_t budget_bytes=1 << 20, bint weighted=False):
    """Run ("visit" | "contains" | "remove", key) and ("weigh", key, weight) operations (key: a
    tuple of `words` ints) on a fresh wide table; their results (None for a removal or a
    weight) and the final statistics (for the tests of csrc/wtable.c)."""
    cdef wtable tt
    cdef uint64_t key[WT_MAX_WORDS]
    cdef int i
    if wt_init(&tt, words, budget_bytes, weighted) != 0:
        raise ValueError(f"cannot make a table of {words} words")
    out = []
    try:
        for op, k, *weight in ops:
            for i in range(words):
                key[i] = k[i]
            if op == "visit":
                out.append(wt_visit(&tt, key))
            elif op == "contains":
                out.append(wt_contains(&tt, key))
            elif op == "remove":
                wt_remove(&tt, key)
                out.append(None)
            elif op == "weigh":
                wt_weigh(&tt, key, weight[0], NULL, 0)
                out.append(None)
            else:
                raise ValueError(f"unknown table operation {op!r}")
        return out, {"used": tt.used, "capacity": wt_capacity(&tt), "replaced": tt.replaced,
                     "hits": tt.hits, "bytes": wt_bytes(&tt), "max_bytes": wt_max_bytes(&tt)}
    finally:
        wt_free(&tt)


# -- a directed graph as a wide game, for the tests of the search ---------------------------------

cdef struct Graph:
    int *first      # node v's successors are succ[first[v] .. first[v + 1] - 1]
    int *succ
    int words
    int target      # the won node (-1: none)
    int most        # the most successors of a node


cdef inline int graph_node(Graph *gr, const uint64_t *s) noexcept nogil:
    # A node's key: its number in the last word, spread over the others so that keys differ in
    # every word and agree on their low bits (full keys, not a word or a hash, tell them apart).
    return <int>s[gr.words - 1]


cdef void graph_key(Graph *gr, int v, uint64_t *out) noexcept nogil:
    cdef int i
    for i in range(gr.words - 1):
        out[i] = (<uint64_t>v * 0x9E3779B97F4A7C15ULL) << 20
    out[gr.words - 1] = <uint64_t>v


cdef int graph_moves(void *ctx, const uint64_t *s, uint64_t *out) noexcept nogil:
    cdef Graph *gr = <Graph *>ctx
    cdef int v = graph_node(gr, s), i, n = 0
    for i in range(gr.first[v], gr.first[v + 1]):
        out[n] = <uint64_t>gr.succ[i]
        n += 1
    return n


cdef void graph_play(void *ctx, const uint64_t *s, uint64_t move, uint64_t *out) noexcept nogil:
    graph_key(<Graph *>ctx, <int>move, out)


cdef int graph_won(void *ctx, const uint64_t *s) noexcept nogil:
    cdef Graph *gr = <Graph *>ctx
    return graph_node(gr, s) == gr.target


cdef void graph_reseed(void *ctx, int attempt) noexcept nogil:
    pass  # a graph's successors come in one order


def graph_search(list succ, int root, int target, int words=3, long long max_states=0,
                 size_t memory_bytes=1 << 20, bint certificate=False, tuple attempts=None,
                 bint weighted=True):
    """The wide search on a directed graph (succ[v]: v's successors; cycles allowed) from root
    for target (-1: none), each node a key of `words` words: (status, path of nodes, stats,
    certificate as node numbers), for the tests of the search. attempts=(first, growth, keep):
    wide_attempts instead (for a graph without cycles). weighted=False: a table that forgets
    the home slot's key (csrc/wtable.h), which forgets the line's keys too."""
    cdef Graph gr
    cdef WideGame g
    cdef uint64_t start[WT_MAX_WORDS]
    cdef int v, i = 0
    cdef int nv = len(succ)
    if not 1 <= words <= WT_MAX_WORDS:
        raise ValueError("words out of range")
    gr.first = <int *>malloc((nv + 1) * sizeof(int))
    gr.succ = <int *>malloc((sum(len(x) for x in succ) + 1) * sizeof(int))
    try:
        gr.most = 1
        for v in range(nv):
            gr.first[v] = i
            for u in succ[v]:
                gr.succ[i] = u
                i += 1
            gr.most = max(gr.most, len(succ[v]))
        gr.first[nv] = i
        gr.words = words
        gr.target = target
        wide_clear(&g)
        g.ctx = &gr
        g.words = words
        g.moves = graph_moves
        g.play = graph_play
        g.won = graph_won
        g.max_moves = gr.most
        graph_key(&gr, root, start)
        if attempts is not None:
            first, growth, keep = attempts
            status, path, stats, cert = wide_attempts(&g, start, max_states, 0.0, memory_bytes,
                                                      first, growth, graph_reseed, keep,
                                                      weighted)
        else:
            status, path, stats, cert = wide_depth_first(&g, start, max_states, 0.0,
                                                         memory_bytes, certificate, weighted)
        if cert is not None:
            cert = [x & 0xFFFFFFFFFFFFFFFF if words == 1 else x >> (64 * (words - 1))
                    for x, _ in cert]
        return status, [int(m) for m in path], stats, cert
    finally:
        free(gr.first)
        free(gr.succ)


# -- the random player (rating.py, docs/difficulty.md) on wide positions ----------------------------

cdef inline uint64_t _mix(uint64_t x) noexcept nogil:
    # splitmix64's finaliser: spreads a position's words over the random player's slots
    x ^= x >> 30
    x *= 0xbf58476d1ce4e5b9ULL
    x ^= x >> 27
    x *= 0x94d049bb133111ebULL
    x ^= x >> 31
    return x


cdef inline size_t _slot_of(const uint64_t *s, int words, size_t mask) noexcept nogil:
    cdef uint64_t h = 0x9e3779b97f4a7c15ULL
    cdef int i
    for i in range(words):
        h = _mix(h ^ s[i])
    return <size_t>h & mask


cdef inline bint _same(const uint64_t *a, const uint64_t *b, int words) noexcept nogil:
    cdef int i
    for i in range(words):
        if a[i] != b[i]:
            return False
    return True


cdef void *_grow(void *p, size_t nbytes) except NULL:
    cdef void *q = realloc(p, nbytes)
    if q == NULL:
        raise MemoryError("cannot grow the random player's stack")
    return q


ctypedef struct _RFrame:
    int n               # its moves, kept in the move stack from `base`
    int i               # the next move to follow
    double acc          # the sum of the chances of the moves followed
    size_t slot         # its slot in the table
    size_t base


cdef tuple wide_step(WideGame *g, object position):
    cdef uint64_t s[WT_MAX_WORDS]
    int_pos(position, g.words, s)
    return (g.won(g.ctx, s) != 0, wide_expand(g, position))


ctypedef struct Hooks:
    # The random player's view of a game: a wide one (w), or a one-word one (g, not NULL). A
    # one-word position is two words, removed then aux (a State, checked at import below), so
    # its words are handed to g's hooks as they lie: the hooks live in another module, past an
    # indirect call, and copying the words into a State and back was measurably slower
    # (docs/benchmarks.md, "Ratings").
    WideGame *w
    Game *g


cdef State _probe
if (sizeof(State) != 2 * sizeof(uint64_t)
        or <char *>&_probe.aux - <char *>&_probe.removed != sizeof(uint64_t)):
    raise ImportError("a State is not two words, removed then aux")


cdef inline int h_moves(Hooks *h, const uint64_t *s, uint64_t *out) noexcept nogil:
    if h.g != NULL:
        return h.g.moves(h.g.ctx, <const State *>s, out)
    return h.w.moves(h.w.ctx, s, out)


cdef inline void h_play(Hooks *h, const uint64_t *s, uint64_t move, uint64_t *out) noexcept nogil:
    if h.g != NULL:
        h.g.play(h.g.ctx, <const State *>s, move, <State *>out)
    else:
        h.w.play(h.w.ctx, s, move, out)


cdef inline int h_won(Hooks *h, const uint64_t *s) noexcept nogil:
    if h.g != NULL:
        return h.g.won(h.g.ctx, <const State *>s)
    return h.w.won(h.w.ctx, s)


cdef object random_walk(Hooks *h, int W, int max_moves, const uint64_t *root, long long budget,
                        double max_seconds, size_t memory_bytes):
    """The chance that a player picking uniformly among the game's moves wins from root (W words,
    at most max_moves moves a position): a won position
    1, one without moves 0, else the mean over its moves, memoised by position. (status, chance,
    positions kept): status 0 exact, 1 the positions outgrew `budget` (or the memory, or the
    time), 2 a move led back to a position on the line being walked and the whole graph fits
    `budget` (a cycle: the caller solves such a graph otherwise). Once a cycle is met the walk
    goes on counting positions only, so that a graph too large for the caller's exact sum is
    known as such here, at the core's speed."""
    cdef int n, cyclic = 0, status = 0
    cdef size_t row = <size_t>W * sizeof(uint64_t)
    cdef size_t cap = 4096, max_cap = 1024, mask, slot, depth = 0, stack_cap = 64, mv_cap, top
    cdef size_t k, j
    cdef uint64_t *keys = NULL
    cdef double *vals = NULL
    cdef unsigned char *tags = NULL      # 0 empty, 1 on the line being walked, 2 done
    cdef _RFrame *stack = NULL
    cdef uint64_t *line = NULL           # the line's positions, W words a frame
    cdef uint64_t *mv = NULL
    cdef uint64_t *nk
    cdef double *nv
    cdef unsigned char *nt
    cdef _RFrame *f
    cdef uint64_t t[WT_MAX_WORDS]
    cdef long long count = 0, ticks = 0
    cdef double t0 = now(), v = 0.0
    if h_won(h, root):
        return (0, 1.0, 1)
    # The table starts small and doubles as it fills, up to the room for `budget` positions at
    # half load within memory_bytes (each slot W words, a chance and a tag).
    while max_cap < 2 * <size_t>budget and max_cap * (row + 9) * 2 <= memory_bytes:
        max_cap *= 2
    if <size_t>budget > max_cap // 2:
        budget = max_cap // 2
    if cap > max_cap:
        cap = max_cap
    mask = cap - 1
    mv_cap = <size_t>max_moves * 64
    keys = <uint64_t *>malloc(cap * row)
    vals = <double *>malloc(cap * sizeof(double))
    tags = <unsigned char *>calloc(cap, 1)
    stack = <_RFrame *>malloc(stack_cap * sizeof(_RFrame))
    line = <uint64_t *>malloc(stack_cap * row)
    mv = <uint64_t *>malloc(mv_cap * sizeof(uint64_t))
    try:
        if not (keys and vals and tags and stack and line and mv):
            raise MemoryError("cannot allocate the random player's table")
        n = h_moves(h, root, mv)
        if n == 0:
            return (0, 0.0, 1)
        slot = _slot_of(root, W, mask)
        memcpy(keys + slot * W, root, row)
        tags[slot] = 1
        count = 1
        memcpy(line, root, row)
        stack[0].n = n
        stack[0].i = 0
        stack[0].acc = 0.0
        stack[0].slot = slot
        stack[0].base = 0
        depth = 1
        while depth:
            f = &stack[depth - 1]
            if f.i < f.n:
                h_play(h, line + (depth - 1) * W, mv[f.base + f.i], t)
                f.i += 1
                slot = _slot_of(t, W, mask)
                while tags[slot] and not _same(keys + slot * W, t, W):
                    slot = (slot + 1) & mask
                if tags[slot] == 2:
                    f.acc += vals[slot]
                    continue
                if tags[slot] == 1:
                    # A cycle: the sum does not hold here, but the walk goes on to count the
                    # positions, so that the caller learns whether the graph fits its budget.
                    cyclic = 1
                    continue
                if count >= budget:
                    status = 1
                    break
                ticks += 1
                if (ticks & 1023) == 0:
                    PyErr_CheckSignals()
                    if max_seconds > 0 and now() - t0 > max_seconds:
                        status = 1
                        break
                if <size_t>count * 2 >= cap:
                    nk = <uint64_t *>malloc(2 * cap * row)
                    nv = <double *>malloc(2 * cap * sizeof(double))
                    nt = <unsigned char *>calloc(2 * cap, 1)
                    if not (nk and nv and nt):
                        free(nk)
                        free(nv)
                        free(nt)
                        raise MemoryError("cannot grow the random player's table")
                    for k in range(cap):
                        if tags[k]:
                            j = _slot_of(keys + k * W, W, 2 * cap - 1)
                            while nt[j]:
                                j = (j + 1) & (2 * cap - 1)
                            memcpy(nk + j * W, keys + k * W, row)
                            nv[j] = vals[k]
                            nt[j] = tags[k]
                    free(keys)
                    free(vals)
                    free(tags)
                    keys, vals, tags = nk, nv, nt
                    cap *= 2
                    mask = cap - 1
                    for k in range(depth):
                        j = _slot_of(line + k * W, W, mask)
                        while not tags[j] or not _same(keys + j * W, line + k * W, W):
                            j = (j + 1) & mask
                        stack[k].slot = j
                    f = &stack[depth - 1]
                    slot = _slot_of(t, W, mask)
                    while tags[slot]:
                        slot = (slot + 1) & mask
                memcpy(keys + slot * W, t, row)
                count += 1
                if h_won(h, t):
                    tags[slot] = 2
                    vals[slot] = 1.0
                    f.acc += 1.0
                    continue
                top = f.base + <size_t>f.n
                if top + <size_t>max_moves > mv_cap:
                    mv_cap *= 2
                    mv = <uint64_t *>_grow(mv, mv_cap * sizeof(uint64_t))
                n = h_moves(h, t, mv + top)
                if n == 0:
                    tags[slot] = 2
                    vals[slot] = 0.0
                    continue
                tags[slot] = 1
                if depth == stack_cap:
                    stack_cap *= 2
                    stack = <_RFrame *>_grow(stack, stack_cap * sizeof(_RFrame))
                    line = <uint64_t *>_grow(line, stack_cap * row)
                f = &stack[depth]
                memcpy(line + depth * W, t, row)
                f.n = n
                f.i = 0
                f.acc = 0.0
                f.slot = slot
                f.base = top
                depth += 1
            else:
                v = f.acc / f.n
                tags[f.slot] = 2
                vals[f.slot] = v
                depth -= 1
                if depth:
                    stack[depth - 1].acc += v
        if status:
            return (status, 0.0, count)
        if cyclic:
            return (2, 0.0, count)
        return (0, v, count)
    finally:
        free(keys)
        free(vals)
        free(tags)
        free(stack)
        free(line)
        free(mv)


cdef object random_lines(Hooks *h, int W, int most_moves, const uint64_t *root, long long count,
                         uint64_t seed, long long max_moves, double max_seconds):
    """(wins, lines): of `count` lines of uniformly random moves from root, drawn with
    splitmix64 from `seed`, how many win (a line longer than max_moves counts as not won). With
    max_seconds > 0 the lines stop once that time has passed, at least 64 of them played: the
    lines played are the first ones of the run without a limit, the same stream."""
    cdef uint64_t s[WT_MAX_WORDS]
    cdef uint64_t t[WT_MAX_WORDS]
    cdef uint64_t *mv = <uint64_t *>malloc(sizeof(uint64_t) * most_moves)
    cdef uint64_t x = seed
    cdef size_t row = <size_t>W * sizeof(uint64_t)
    cdef long long wins = 0, k, j, lines = 0
    cdef int n
    cdef double deadline = now() + max_seconds if max_seconds > 0 else 0.0
    if mv == NULL:
        raise MemoryError("cannot allocate the move buffer")
    try:
        with nogil:
            for k in range(count):
                memcpy(s, root, row)
                for j in range(max_moves):
                    if h_won(h, s):
                        wins += 1
                        break
                    n = h_moves(h, s, mv)
                    if n == 0:
                        break
                    x += 0x9e3779b97f4a7c15ULL
                    h_play(h, s, mv[_mix(x) % <uint64_t>n], t)
                    memcpy(s, t, row)
                lines = k + 1
                if (k & 63) == 63:
                    check_signals()
                    if deadline > 0 and now() > deadline:
                        break
        return wins, lines
    finally:
        free(mv)


cdef object wide_random_win(WideGame *g, const uint64_t *root, long long budget,
                            double max_seconds, size_t memory_bytes):
    cdef Hooks h
    h.w = g
    h.g = NULL
    return random_walk(&h, g.words, g.max_moves, root, budget, max_seconds, memory_bytes)


cdef object wide_playouts(WideGame *g, const uint64_t *root, long long count, uint64_t seed,
                          long long max_moves, double max_seconds):
    cdef Hooks h
    h.w = g
    h.g = NULL
    return random_lines(&h, g.words, g.max_moves, root, count, seed, max_moves, max_seconds)


cdef inline void one_word(Hooks *h, Game *g, uint64_t removed, uint64_t aux,
                          uint64_t *root) noexcept nogil:
    h.w = NULL
    h.g = g
    root[0] = removed
    root[1] = aux


cdef object one_word_random_win(Game *g, uint64_t removed, uint64_t aux, long long budget,
                                double max_seconds, size_t memory_bytes):
    cdef Hooks h
    cdef uint64_t root[2]
    one_word(&h, g, removed, aux, root)
    return random_walk(&h, 2, g.max_moves, root, budget, max_seconds, memory_bytes)


cdef object one_word_playouts(Game *g, uint64_t removed, uint64_t aux, long long count,
                              uint64_t seed, long long max_moves, double max_seconds):
    cdef Hooks h
    cdef uint64_t root[2]
    one_word(&h, g, removed, aux, root)
    return random_lines(&h, 2, g.max_moves, root, count, seed, max_moves, max_seconds)
