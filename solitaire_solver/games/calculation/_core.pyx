# cython: language_level=3
"""Core of Calculation: four foundations built by ones..fours regardless of suit, fed from a
one-pass stock through four piles (docs/calculation.md).

A position is the stock's 48 cards (pack order less the four start cards), each with a digit:
0 when it is still in the stock or on a foundation, 1..4 when it lies on pile P1..P4; and the four
foundation heights h1..h4 (1..13). Those fix the position exactly: a pile holds the cards whose
digit names it, in stock order (cards reach a pile only from the stock, one by one); and the
stock's next card is stock[s] with s = 48 - (zero digits) + (h1+h2+h3+h4 - 4), as every zero
digit is a card still in the stock or one of the sum(h) - 4 stock cards on the foundations.
Which suit lies on which foundation plays no part in the rules, so heights say all of them.

Packing, exact and in the engine's two words (aux's bit 63 stays 0):
    aux     = sum(d[k] * 5**k, k < 27)                     < 5**27 < 2**63
    removed = hidx + 28561 * sum(d[k] * 5**(k-27), k >= 27)  < 28561 * 5**21 < 2**64
with hidx = sum((h[f] - 1) * 13**f) < 13**4 = 28561. The deal's start is (0, 0). A move changes
one digit and at most one height, so play() adds and subtracts multiples of powers.

Move modes:
- MODE_ALL: every legal move, in the reference rules' order; no dead() test (certificates).
- MODE_PRUNED: the exact rules below, each argued in docs/calculation.md ("The search") and
  exercised by tests/test_calculation.py, which shows a case each one cuts:
  1. Safe card: a pile's top or the stock's next card of value v that some foundation takes now,
     when no foundation still waiting for a v waits for it later (every foundation not past v
     takes v now): only that card's moves onto the foundations that take it are generated.
  2. Empty piles: the stock's card goes onto the first empty pile only (empty piles are
     interchangeable: nothing in the rules tells piles apart).
  3. dead(): a pile holds a card x such that every foundation still waiting for x's value
     first waits for some value w (one per foundation) all of whose cards off the foundations lie
     in that pile below x: no foundation can take x before a w card, which only x's leaving can
     uncover. The position cannot be won.
  4. dead(), hall_dead(): the cards of a value off the foundations need distinct foundations,
     and a card cannot go to a foundation that first waits for a value whose cards all lie below
     it; dead when some of a value's cards can go to fewer foundations than they are (Hall).
     Tested while the stock holds a card (spec "hall": 1, the default; 2 everywhere; 0 off).
  5. dead(), relax_dead(): the game with the stock's cards set free (each may go up at any
     time, the piles as they are) cannot be won. Searched exactly, free cards going up only as a
     pile card needs them, with a memo of relaxed positions keyed by the foundation heights and
     the piles' values (a RelaxMemo lends one to several searches); where at least spec "relax"
     stock cards are left (RELAX_FROM; 0 off), each relaxed search within spec "relax_nodes"
     new positions (RELAX_NODES; past them no cut).

beam(): the first try's beams (Game.first_try; docs/calculation.md, "Order, the beam and
restarts"): the stock turned one card at a time, the best positions kept after each (by a score,
with beam_noise plus a pseudo-random term), every move one of MODE_PRUNED's. It finds wins; it
proves nothing.
"""

from cpython.exc cimport PyErr_CheckSignals
from libc.stdint cimport uint32_t, uint64_t
from libc.stdlib cimport calloc, free, malloc, qsort, realloc
from libc.string cimport memset

from solitaire_solver.engine._engine cimport (
    Game, State, depth_first, expand_state, game_clear, now, root_of, step_state,
)
from solitaire_solver.engine.ttable cimport (
    tt_clear, tt_contains, tt_free, tt_init, tt_visit, ttable,
)

from solitaire_solver.engine.contract import run_of
from solitaire_solver.moves import MAX_PILE as _MAX_PILE
from solitaire_solver.moves import MAX_PLACE as _MAX_PLACE
from solitaire_solver.moves import PILE_SHIFT as _PILE_SHIFT

MODE_ALL = 0
MODE_PRUNED = 1

DEF NSTOCK = 48
DEF LOW = 27                  # stock cards whose digits are in aux
DEF HSPAN = 28561             # 13**4 height vectors

# The move words' place field (solitaire_solver.moves: F n is MAX_PILE + n, P n is
# MAX_PILE + MAX_PLACE + n, at PILE_SHIFT), read once from there.
cdef int PILE_SHIFT = _PILE_SHIFT
cdef int MAX_PILE = _MAX_PILE
cdef int MAX_PLACE = _MAX_PLACE
cdef uint64_t F_CODE[4]
cdef uint64_t P_CODE[4]
cdef uint64_t POW5[28]
cdef uint64_t POW13[4]
cdef int POS[4][14]           # POS[f][v]: where value v comes on foundation f (0 = start card)
cdef int SEQ[4][13]

cdef int _init() except -1:
    cdef int f, k, v
    for f in range(4):
        F_CODE[f] = (<uint64_t>(MAX_PILE + f + 1)) << PILE_SHIFT
        P_CODE[f] = (<uint64_t>(MAX_PILE + MAX_PLACE + f + 1)) << PILE_SHIFT
        for k in range(13):
            v = ((f + 1) * (k + 1) - 1) % 13 + 1
            SEQ[f][k] = v
            POS[f][v] = k
    POW5[0] = 1
    for k in range(1, 28):
        POW5[k] = POW5[k - 1] * 5
    POW13[0] = 1
    for k in range(1, 4):
        POW13[k] = POW13[k - 1] * 13
    return 0

_init()


DEF RELAX_FROM = 4            # rule 5 runs where at least this many stock cards are left
DEF RELAX_NODES = 16384       # rule 5: a relaxed search's new positions, at most (past them: no cut)
DEF TRIE_BITS = 20            # pile ids: below 2**TRIE_BITS
DEF TRIE_SLOTS = 1 << 17      # the trie's hash slots; it holds at most half as many ids
DEF MEMO_SHARE = 16           # the memo of relaxed positions takes memory_bytes / MEMO_SHARE
DEF TRIE_BYTES = TRIE_SLOTS * 8


cdef struct Relax:
    int pile[4][NSTOCK]       # each pile's values, bottom up
    int n[4]                  # cards left on each pile
    int h[4]                  # foundation heights
    int free[14]              # stock cards still to turn, by value (free in the relaxation)
    int left                  # cards left on the piles
    int nodes                 # relaxed positions searched by this call
    int limit                 # at most this many (RELAX_NODES, or spec["relax_nodes"])
    uint32_t ids[4][NSTOCK + 1]  # ids[p][d]: the trie's id of pile p's d lowest values
    # The trie of pile values, bottom up, shared by every call of a search: id 0 is the empty
    # pile, and (parent id, value) -> id is kept in tkey/tid (key (parent << 4 | value) + 1).
    uint32_t *tkey
    uint32_t *tid
    uint32_t tcount
    # The relaxed positions decided so far, keyed by the heights and the piles' ids (sorted:
    # the relaxed game does not tell piles apart), labelled 0 won, 1 lost.
    ttable memo


cdef struct CalcCtx:
    int stock[NSTOCK]         # card index of stock place k
    int val[NSTOCK]           # its value
    int place[64]             # stock place of a card index, -1 for a start card
    int mode
    int hall                  # rule 4: 1 while the stock holds a card (the default), 2 everywhere,
                              # 0 off (spec["hall"]: the tests' switch)
    int loose                 # the order of the piles tried: see calc_moves
    uint64_t shake            # 0, or a seed that perturbs that order (calc_moves)
    int beam_pen              # the beam's score (beam_score): what a buried card costs
    int beam_gap              # 1: a buried card costs by how much later the card above is needed
    int beam_noise            # 0, or the span of a pseudo-random term added to the score (shake's)
    int relax                 # rule 5 from this many stock cards left (spec["relax"]; 0: off)
    Relax *r                  # rule 5's working space, allocated at its first use (relax_free)
    size_t relax_bytes        # the budget of its memo
    int r_lent                # r belongs to a RelaxMemo (spec["memo"]), not to this search
    int relax_nodes           # a relaxed search's limit (spec["relax_nodes"], RELAX_NODES)


cdef struct Look:
    int d[NSTOCK]
    int h[4]
    int s                     # the stock's next place (NSTOCK: empty)
    int top[4]                # stock place of each pile's top, -1 for an empty pile


cdef inline void look(CalcCtx *c, const State *st, Look *o) noexcept nogil:
    cdef uint64_t a = st.aux
    cdef uint64_t r = st.removed
    cdef uint64_t hidx = r % HSPAN
    cdef int k, zeros = 0, sumh = 0, f
    r = r / HSPAN
    for k in range(LOW):
        o.d[k] = <int>(a % 5)
        a = a / 5
    for k in range(LOW, NSTOCK):
        o.d[k] = <int>(r % 5)
        r = r / 5
    for f in range(4):
        o.h[f] = <int>(hidx % 13) + 1
        hidx = hidx / 13
        sumh += o.h[f]
        o.top[f] = -1
    for k in range(NSTOCK):
        if o.d[k] == 0:
            zeros += 1
        else:
            o.top[o.d[k] - 1] = k
    o.s = NSTOCK - zeros + sumh - 4


cdef inline int takes(Look *o, int f, int v) noexcept nogil:
    return o.h[f] < 13 and SEQ[f][o.h[f]] == v


cdef inline int safe(Look *o, int v) noexcept nogil:
    """Rule 1: some foundation takes v now and none still waiting for a v waits for it later."""
    cdef int f, now = 0
    for f in range(4):
        if o.h[f] < POS[f][v]:
            return 0
        if o.h[f] == POS[f][v]:
            now = 1
    return now


cdef inline int up_moves(CalcCtx *c, Look *o, int k, uint64_t *out, int n) noexcept nogil:
    cdef int f
    cdef uint64_t bit = (<uint64_t>1) << c.stock[k]
    for f in range(4):
        if takes(o, f, c.val[k]):
            out[n] = bit | F_CODE[f]
            n += 1
    return n


cdef inline int wait(Look *o, int v) noexcept nogil:
    """How many cards the foundation soonest waiting for value v takes before it (99: none)."""
    cdef int f, w = 99
    for f in range(4):
        if o.h[f] <= POS[f][v] and POS[f][v] - o.h[f] < w:
            w = POS[f][v] - o.h[f]
    return w


cdef inline uint64_t mix(uint64_t a, uint64_t b) noexcept nogil:
    cdef uint64_t x = a * <uint64_t>0x9E3779B97F4A7C15 ^ b * <uint64_t>0xC2B2AE3D27D4EB4F
    x ^= x >> 31
    x *= <uint64_t>0xBF58476D1CE4E5B9
    return x ^ (x >> 29)


cdef int calc_moves(void *ctx, const State *st, uint64_t *out) noexcept nogil:
    cdef CalcCtx *c = <CalcCtx *>ctx
    cdef Look o
    cdef int p, q, n = 0, k, m = 0, wc, t
    cdef int order[4]
    cdef int rank[4]
    cdef bint seen_empty = False
    cdef uint64_t bit
    look(c, st, &o)
    if c.mode == 1:
        for p in range(4):
            k = o.top[p]
            if k >= 0 and safe(&o, c.val[k]):
                return up_moves(c, &o, k, out, 0)
        if o.s < NSTOCK and safe(&o, c.val[o.s]):
            return up_moves(c, &o, o.s, out, 0)
    for p in range(4):
        if o.top[p] >= 0:
            n = up_moves(c, &o, o.top[p], out, n)
    if o.s >= NSTOCK:
        return n
    n = up_moves(c, &o, o.s, out, n)
    bit = (<uint64_t>1) << c.stock[o.s]
    if c.mode == 0:
        for p in range(4):
            out[n] = bit | P_CODE[p]
            n += 1
        return n
    # The pruned search tries the piles in an order that finds wins sooner (any order is
    # exact): first onto a card that leaves after this one (the tightest such first, or with
    # spec["loose"] the loosest), then an empty pile, then onto a card that must leave first
    # (the least urgent first).
    wc = wait(&o, c.val[o.s])
    for p in range(4):
        if o.top[p] < 0:
            if seen_empty:
                continue  # rule 2
            seen_empty = True
            rank[m] = -1 if c.loose & 2 else 1000
        else:
            t = wait(&o, c.val[o.top[p]])
            rank[m] = (100 - (t - wc) if c.loose & 1 else t - wc) if t >= wc else 2000 - t
        if c.shake:
            rank[m] += <int>(mix(st.removed ^ (c.shake * <uint64_t>(p + 1)), st.aux) % 5) * 3
        order[m] = p
        m += 1
        q = m - 1
        while q > 0 and rank[q - 1] > rank[q]:
            rank[q - 1], rank[q] = rank[q], rank[q - 1]
            order[q - 1], order[q] = order[q], order[q - 1]
            q -= 1
    for q in range(m):
        out[n] = bit | P_CODE[order[q]]
        n += 1
    return n


cdef inline void add_digit(State *out, int k, uint64_t d, bint minus) noexcept nogil:
    if k < LOW:
        if minus:
            out.aux -= d * POW5[k]
        else:
            out.aux += d * POW5[k]
    elif minus:
        out.removed -= HSPAN * d * POW5[k - LOW]
    else:
        out.removed += HSPAN * d * POW5[k - LOW]


cdef void calc_play(void *ctx, const State *st, uint64_t move, State *out) noexcept nogil:
    cdef CalcCtx *c = <CalcCtx *>ctx
    cdef int field = <int>(move >> PILE_SHIFT)
    cdef uint64_t cards = move & ((<uint64_t>1 << 52) - 1)
    cdef int card = 0, k, f, d
    while not (cards >> card) & 1:
        card += 1
    k = c.place[card]
    if k < LOW:
        d = <int>((st.aux / POW5[k]) % 5)
    else:
        d = <int>(((st.removed / HSPAN) / POW5[k - LOW]) % 5)
    out.removed = st.removed
    out.aux = st.aux
    if d:
        add_digit(out, k, d, True)          # off its pile
    if field > MAX_PILE + MAX_PLACE:         # onto pile P(field - 20)
        add_digit(out, k, <uint64_t>(field - MAX_PILE - MAX_PLACE), False)
    else:                                    # onto foundation F(field - 16)
        f = field - MAX_PILE - 1
        out.removed += POW13[f]


cdef int calc_won(void *ctx, const State *st) noexcept nogil:
    return st.aux == 0 and st.removed == HSPAN - 1


cdef int calc_dead(void *ctx, const State *st) noexcept nogil:
    """Rule 3: a pile's card x that can never leave: every foundation still waiting for x's
    value first waits for a value all of whose cards off the foundations lie below x."""
    cdef CalcCtx *c = <CalcCtx *>ctx
    cdef Look o
    cdef int off[14]           # cards of each value not on a foundation
    cdef int below[14]         # of them, in this pile below the card looked at
    cdef int p, k, v, w, f, j, stuck
    look(c, st, &o)
    for v in range(1, 14):
        off[v] = 0
        for f in range(4):
            if o.h[f] <= POS[f][v]:
                off[v] += 1
    for p in range(4):
        if o.top[p] < 0:
            continue
        for v in range(14):
            below[v] = 0
        for k in range(o.top[p] + 1):
            if o.d[k] != p + 1:
                continue
            v = c.val[k]
            stuck = 1
            for f in range(4):
                if o.h[f] > POS[f][v]:
                    continue   # past v: it takes no v
                stuck = 0
                for j in range(o.h[f], POS[f][v]):
                    w = SEQ[f][j]
                    if below[w] and below[w] == off[w]:
                        stuck = 1
                        break
                if not stuck:
                    break
            if stuck:
                return 1
            below[v] += 1
    # With the stock empty (where most positions lie) the test costs more time than its cuts
    # save (docs/calculation.md, rule 4); before, it cuts whole endgames.
    if c.hall and (c.hall == 2 or o.s < NSTOCK) and hall_dead(c, &o):
        return 1
    return c.relax and NSTOCK - o.s >= c.relax and relax_dead(c, &o)


cdef inline void relax_key(Relax *r, uint64_t *k0, uint64_t *k1) noexcept nogil:
    """The memo's key of r: its heights and its piles' ids in ascending order (k1's low bit is
    the memo's label)."""
    cdef uint64_t x[4]
    cdef uint64_t t
    cdef int i, j
    for i in range(4):
        x[i] = r.ids[i][r.n[i]]
        j = i
        while j > 0 and x[j - 1] > x[j]:
            t = x[j - 1]
            x[j - 1] = x[j]
            x[j] = t
            j -= 1
    k0[0] = (<uint64_t>(r.h[0] | r.h[1] << 4 | r.h[2] << 8 | r.h[3] << 12)
             | x[0] << 16 | x[1] << (16 + TRIE_BITS))
    k1[0] = (x[2] | x[3] << TRIE_BITS) << 1


cdef int relax_win(Relax *r) noexcept nogil:
    """Rule 5's search: 1 when the relaxed game (the stock's cards still to turn free, the
    piles as they are) can be won from r, 0 when it cannot, -1 past r.limit new positions.
    A move plays a pile's top x onto a foundation f, f first taking free cards for every
    value it takes before x's (docs/calculation.md, rule 5: free cards go up only when a pile
    card needs them, which loses no win); with no card left on the piles the free cards finish
    the game. Every move raises a foundation, so the relaxed positions form no cycle, and each
    one searched to the end is kept in the memo with its verdict."""
    cdef uint64_t k0, k1
    cdef int f, p, v, t, j, old, res
    if r.left == 0:
        return 1
    relax_key(r, &k0, &k1)
    if tt_contains(&r.memo, k0, k1 | 1):
        return 1 if tt_contains(&r.memo, k0, k1) else 0
    if r.nodes >= r.limit:
        return -1
    r.nodes += 1
    for p in range(4):
        if r.n[p] == 0:
            continue
        v = r.pile[p][r.n[p] - 1]
        for f in range(4):
            t = POS[f][v]
            if r.h[f] > t:
                continue
            j = r.h[f]
            while j < t and r.free[SEQ[f][j]]:
                j += 1
            if j < t:
                continue
            old = r.h[f]
            for j in range(old, t):
                r.free[SEQ[f][j]] -= 1
            r.h[f] = t + 1
            r.n[p] -= 1
            r.left -= 1
            res = relax_win(r)
            r.h[f] = old
            r.n[p] += 1
            r.left += 1
            for j in range(old, t):
                r.free[SEQ[f][j]] += 1
            if res == 1:
                tt_visit(&r.memo, k0, k1)
            if res:
                return res
    tt_visit(&r.memo, k0, k1 | 1)
    return 0


cdef uint32_t trie_child(Relax *r, uint32_t parent, int v) noexcept nogil:
    """The id of the pile spelled by parent's values and v on top (made when new)."""
    cdef uint32_t key = ((parent << 4) | <uint32_t>v) + 1
    cdef uint32_t slot = (key * <uint32_t>2654435761) & (TRIE_SLOTS - 1)
    while r.tkey[slot]:
        if r.tkey[slot] == key:
            return r.tid[slot]
        slot = (slot + 1) & (TRIE_SLOTS - 1)
    r.tcount += 1
    r.tkey[slot] = key
    r.tid[slot] = r.tcount
    return r.tcount


cdef Relax *relax_new(size_t memo_bytes) noexcept nogil:
    """Rule 5's working space with a memo of memo_bytes, or NULL when it cannot be had."""
    cdef Relax *r = <Relax *>calloc(1, sizeof(Relax))
    if r == NULL:
        return NULL
    r.tkey = <uint32_t *>calloc(TRIE_SLOTS, sizeof(uint32_t))
    r.tid = <uint32_t *>malloc(TRIE_SLOTS * sizeof(uint32_t))
    if r.tkey == NULL or r.tid == NULL or tt_init(&r.memo, memo_bytes) != 0:
        free(r.tkey)
        free(r.tid)
        free(r)
        return NULL
    r.memo.label_bits = 1
    return r


cdef void relax_release(Relax *r) noexcept nogil:
    if r != NULL:
        free(r.tkey)
        free(r.tid)
        tt_free(&r.memo)
        free(r)


cdef int relax_dead(CalcCtx *c, Look *o) noexcept nogil:
    """Rule 5: the position is lost when the relaxed game is (the stock's cards still to turn
    free to go up at any time, the piles' cards only from the top, as in the game). No cut
    when the relaxed search passes its limit (c.relax_nodes) or its space cannot be had."""
    cdef Relax *r = c.r
    cdef int k, p, v, res
    if r == NULL:
        r = c.r = relax_new(c.relax_bytes)
        if r == NULL:
            c.relax = 0
            return 0
    if r.tcount + NSTOCK >= TRIE_SLOTS // 2:
        # The trie is full: start both afresh (the memo's keys name its ids).
        memset(r.tkey, 0, TRIE_SLOTS * sizeof(uint32_t))
        r.tcount = 0
        tt_clear(&r.memo)
    for p in range(4):
        r.n[p] = 0
        r.h[p] = o.h[p]
        r.ids[p][0] = 0
    for v in range(14):
        r.free[v] = 0
    r.left = 0
    for k in range(NSTOCK):
        v = c.val[k]
        if k >= o.s:
            r.free[v] += 1
        elif o.d[k]:
            p = o.d[k] - 1
            r.pile[p][r.n[p]] = v
            r.ids[p][r.n[p] + 1] = trie_child(r, r.ids[p][r.n[p]], v)
            r.n[p] += 1
            r.left += 1
    r.nodes = 0
    r.limit = c.relax_nodes
    res = relax_win(r)
    return res == 0


cdef void relax_free(CalcCtx *c) noexcept nogil:
    """Frees rule 5's working space unless a RelaxMemo lent it (every caller of a search with
    dead() does this when done)."""
    if not c.r_lent:
        relax_release(c.r)
    c.r = NULL


cdef inline size_t relax_share(size_t memory_bytes) noexcept nogil:
    """What rule 5 takes of a search's budget: its trie and memo (0: the rule is off under so
    small a budget)."""
    cdef size_t part = memory_bytes // MEMO_SHARE
    return part if part >= TRIE_BYTES + (64 << 10) else 0


cdef class RelaxMemo:
    """Rule 5's memo, lent to several searches of one call (the first try's restarts and beams:
    a relaxed position's verdict depends on its heights and piles alone, so what one search
    learnt serves the next). It takes `share` bytes, which the caller counts in its budget."""
    cdef Relax *r

    def __cinit__(self, size_t share):
        """share: RelaxMemo.share of the call's budget (0: no memo, the rule off)."""
        self.r = relax_new(share - TRIE_BYTES) if share > TRIE_BYTES else NULL

    def __dealloc__(self):
        relax_release(self.r)

    @staticmethod
    def share(size_t memory_bytes):
        """The memory the rule takes of a search's budget (relax_share)."""
        return relax_share(memory_bytes)


cdef int relax_options(CalcCtx *c, dict spec) except -1:
    """Rule 5's options of a spec: "relax", "relax_nodes", and "memo", a RelaxMemo whose working
    space the search uses instead of one of its own."""
    cdef RelaxMemo m
    cdef object memo = spec.get("memo")
    c.relax = <int>spec.get("relax", RELAX_FROM)
    c.relax_nodes = <int>spec.get("relax_nodes", RELAX_NODES)
    if memo is None:
        return 0
    m = <RelaxMemo?>memo
    c.r = m.r
    c.r_lent = 1
    if m.r == NULL:
        c.relax = 0
    return 0


cdef int hall_dead(CalcCtx *c, Look *o) noexcept nogil:
    """Rule 4: the cards of one value off the foundations go to distinct foundations (each takes
    one card of each value, and there are as many such cards as foundations still waiting for
    the value). Card x can go to foundation f only if f is not past x's value and no value w
    that f takes before it has every card off the foundations below x in x's pile. Dead when
    some set of a value's cards can go to fewer foundations than it has cards (Hall)."""
    cdef int cnt[14]
    cdef int cards[14][4]
    cdef int one_pile[14]      # the pile holding every card of the value off the foundations, or 0
    cdef int highest[14]       # the highest stock place among them
    cdef int mask[4]
    cdef int k, v, n, i, x, px, f, j, w, ok, sub, u, m
    for v in range(14):
        cnt[v] = 0
        one_pile[v] = -1
        highest[v] = -1
    for k in range(NSTOCK):
        if o.d[k] or k >= o.s:
            v = c.val[k]
            cards[v][cnt[v]] = k
            cnt[v] += 1
            if k >= o.s:
                one_pile[v] = 0          # one in the stock: below no pile card
            elif one_pile[v] == -1:
                one_pile[v] = o.d[k]
            elif one_pile[v] != o.d[k]:
                one_pile[v] = 0
            highest[v] = k               # places rise with k
    for v in range(1, 14):
        n = cnt[v]
        if n == 0:
            continue
        for i in range(n):
            x = cards[v][i]
            px = o.d[x] if x < o.s else 0
            m = 0
            for f in range(4):
                if o.h[f] > POS[f][v]:
                    continue
                ok = 1
                if px:
                    for j in range(o.h[f], POS[f][v]):
                        w = SEQ[f][j]
                        if one_pile[w] == px and highest[w] < x:
                            ok = 0
                            break
                if ok:
                    m |= 1 << f
            if m == 0:
                return 1
            mask[i] = m
        for sub in range(3, 1 << n):
            if not (sub & (sub - 1)):
                continue                 # one card: its mask is not empty
            u = 0
            m = 0
            for i in range(n):
                if (sub >> i) & 1:
                    u |= mask[i]
                    m += 1
            if (u & 1) + ((u >> 1) & 1) + ((u >> 2) & 1) + ((u >> 3) & 1) < m:
                return 1
    return 0


cdef void setup(CalcCtx *c, object stock, int mode, int loose=0, uint64_t shake=0,
                int hall=1) except *:
    cdef int k
    if len(stock) != NSTOCK:
        raise ValueError("a Calculation stock has 48 cards")
    for k in range(64):
        c.place[k] = -1
    for k in range(NSTOCK):
        c.stock[k] = <int>stock[k]
        c.val[k] = c.stock[k] % 13 + 1
        c.place[c.stock[k]] = k
    c.mode = mode
    c.hall = hall
    c.loose = loose
    c.shake = shake
    c.beam_pen = 8
    c.beam_gap = 0
    c.beam_noise = 0
    c.relax = RELAX_FROM
    c.r = NULL
    c.r_lent = 0
    c.relax_nodes = RELAX_NODES
    c.relax_bytes = 1 << 20


cdef void make_game(Game *g, CalcCtx *c, object stock, int mode, int loose=0,
                    uint64_t shake=0, int hall=1) except *:
    setup(c, stock, mode, loose, shake, hall)
    game_clear(g)
    g.ctx = c
    g.moves = calc_moves
    g.play = calc_play
    g.won = calc_won
    if mode == MODE_PRUNED:
        g.dead = calc_dead
    g.max_moves = 24          # four tops onto four foundations, the stock's card onto eight places
    g.max_depth = 100         # 48 cards turned, at most 48 lifted off the piles


def solve(dict spec, str objective, limits, bint certificate):
    """The contract's entry point (solitaire_solver/engine/contract.py). spec: "stock" (the 48
    stock cards, next first; the start cards are the game's, outside the core), optionally "mode"
    (MODE_PRUNED by default; a certificate always searches MODE_ALL, closed under every legal
    move), "hall" (rule 4: 1 while the stock holds a card, the default; 2 everywhere; 0 off),
    "loose" (1: the other order of piles, calc_moves), "relax" and "relax_nodes" (rule 5),
    "memo" (a RelaxMemo lent for rule 5; the caller counts its memory) and "root"."""
    cdef CalcCtx c
    cdef Game g
    cdef State root
    cdef int mode = spec.get("mode", MODE_PRUNED)
    if objective != "decide":
        raise ValueError(f"calculation has no objective {objective!r}")
    if mode not in (MODE_ALL, MODE_PRUNED):
        raise ValueError(f"unknown move mode {mode}")
    if certificate:
        mode = MODE_ALL
    make_game(&g, &c, spec["stock"], mode, <int>spec.get("loose", 0) & 3, spec.get("shake", 0),
              <int>spec.get("hall", 1))
    root = root_of(spec)
    relax_options(&c, spec)
    try:
        if spec.get("root") is not None:
            check_given(&c, root.removed, root.aux)
        return run_of(*depth_first(&g, root, limits.max_states, limits.max_seconds,
                                   relax_budget(&c, limits.memory_bytes), certificate))
    finally:
        relax_free(&c)


cdef size_t relax_budget(CalcCtx *c, size_t memory_bytes) noexcept:
    """Rule 5 takes memory_bytes / MEMO_SHARE (its trie and memo) unless a RelaxMemo was lent
    (its caller counted it); returns what is left for the search. A budget too small for the
    trie and a little memo turns the rule off."""
    cdef size_t share = relax_share(memory_bytes)
    if not c.relax or c.r_lent:
        return memory_bytes
    if share == 0:
        c.relax = 0
        return memory_bytes
    c.relax_bytes = share - TRIE_BYTES
    return memory_bytes - share


# -- the beam: a first try that does not get lost early (Game.first_try) --------------------------
#
# A depth-first search revises its last choices first: a mistake made early in the stock is
# revised only after every line below it was tried, so a won deal whose first line errs early
# stays undecided. The beam goes through the stock one card at a time and keeps the `width` best
# positions after each card: from each kept position, the pile tops played up in every way the
# pruned search allows, then the stock card's every move, ranked by beam_score. With the stock
# empty it plays the tops up in every way (the endgame, whole). Every move is one of the pruned
# search's, so a line it finds is a line of play (replayed under the reference rules as any);
# finding none proves nothing, and the search goes on.

cdef enum:
    BEAM_WON = 0
    BEAM_ENDED = 1            # every line of the beam ended without a win: proves nothing
    BEAM_STATES = 2
    BEAM_TIME = 3
    BEAM_MEMORY = 4
    BEAM_GO = 5               # no limit reached


cdef struct BRec:             # one move of a beam line; prev: the record of the move before it
    int prev
    uint64_t move


cdef struct BClos:            # a position reached from a kept position by pile-top moves
    State s
    int node                  # the kept position it came from
    int prev                  # the closure entry before it (-1: the kept position itself)
    uint64_t move


cdef struct BCand:            # a position after the stock's card: a candidate for the next beam
    State s
    int clos                  # the closure entry the card was played from
    int score
    int node                  # the rank of the kept position it came from
    int m                     # the rank of its move among the search's (calc_moves)
    int idx
    uint64_t move


cdef struct Beam:
    BRec *recs
    size_t nrecs, cap_recs
    BClos *clos
    size_t nclos, cap_clos
    BCand *cand
    size_t ncand, cap_cand
    int *todo                 # the closure entries still to expand, the last first
    size_t ntodo, cap_todo
    State *node               # the kept positions and the record of each one's last move
    int *node_rec
    int win_rec               # on a win: the record of its last move
    size_t used               # bytes of the growing arrays
    size_t budget


cdef int beam_score(CalcCtx *c, const State *st) noexcept nogil:
    """Higher is better: 8 a card on the foundations, less beam_pen a pile card that lies below
    a card needed later (beam_gap: times how much later). A card's need is the fewest cards a
    foundation still waiting for its value takes before it. With beam_noise, plus a term below
    it from a hash of the position and shake, which breaks near-ties otherwise in each beam."""
    cdef Look o
    cdef int need[14]
    cdef int most[4]
    cdef int v, f, k, p, n, pen = 0, up = 0
    look(c, st, &o)
    for v in range(1, 14):
        need[v] = 99
        for f in range(4):
            if o.h[f] <= POS[f][v] and POS[f][v] - o.h[f] < need[v]:
                need[v] = POS[f][v] - o.h[f]
    for f in range(4):
        up += o.h[f]
        most[f] = -1
    for k in range(NSTOCK - 1, -1, -1):    # each pile from its top down
        p = o.d[k] - 1
        if p >= 0:
            n = need[c.val[k]]
            if most[p] > n:
                pen += most[p] - n if c.beam_gap else 1
            else:
                most[p] = n
    if c.beam_noise:
        return up * 8 - pen * c.beam_pen + <int>(mix(st.removed ^ c.shake, st.aux)
                                                   % <uint64_t>c.beam_noise)
    return up * 8 - pen * c.beam_pen


cdef int cand_order(const void *a, const void *b) noexcept nogil:
    """The better score first; among equal ones, from the better kept position, then by the
    search's order of moves, then as generated."""
    cdef const BCand *x = <const BCand *>a
    cdef const BCand *y = <const BCand *>b
    if x.score != y.score:
        return -1 if x.score > y.score else 1
    if x.node != y.node:
        return -1 if x.node < y.node else 1
    if x.m != y.m:
        return -1 if x.m < y.m else 1
    return -1 if x.idx < y.idx else (1 if x.idx > y.idx else 0)


cdef int beam_grow(void **items, size_t *cap, size_t size, Beam *b) noexcept nogil:
    """Doubles a growing array within the budget; -1 when it does not fit."""
    cdef size_t n = cap[0] * 2 if cap[0] else 1024
    cdef void *grown
    if b.used + (n - cap[0]) * size > b.budget:
        return -1
    grown = realloc(items[0], n * size)
    if grown == NULL:
        return -1
    b.used += (n - cap[0]) * size
    cap[0] = n
    items[0] = grown
    return 0


cdef int beam_clos(Beam *b, const State *s, int node, int prev, uint64_t move) noexcept nogil:
    """Appends a closure entry, to be expanded next (depth first: with the stock empty, the
    endgame's first won line comes soon); -1 past the memory budget."""
    if b.nclos == b.cap_clos and beam_grow(<void **>&b.clos, &b.cap_clos, sizeof(BClos), b) < 0:
        return -1
    if b.ntodo == b.cap_todo and beam_grow(<void **>&b.todo, &b.cap_todo, sizeof(int), b) < 0:
        return -1
    b.clos[b.nclos].s = s[0]
    b.clos[b.nclos].node = node
    b.clos[b.nclos].prev = prev
    b.clos[b.nclos].move = move
    b.todo[b.ntodo] = <int>b.nclos
    b.nclos += 1
    b.ntodo += 1
    return 0


cdef int beam_rec(Beam *b, int prev, uint64_t move) noexcept nogil:
    """Appends a record: its index, or -2 past the memory budget."""
    if b.nrecs == b.cap_recs and beam_grow(<void **>&b.recs, &b.cap_recs, sizeof(BRec), b) < 0:
        return -2
    b.recs[b.nrecs].prev = prev
    b.recs[b.nrecs].move = move
    b.nrecs += 1
    return <int>(b.nrecs - 1)


cdef int beam_line(Beam *b, int j, uint64_t move) noexcept nogil:
    """Records the line to closure entry j (after its kept position's own line), then move:
    the record of move, or -2 past the memory budget."""
    cdef uint64_t chain[NSTOCK]   # a closure line lifts pile cards only, at most 48
    cdef int n = 0, r
    while b.clos[j].prev >= 0:
        chain[n] = b.clos[j].move
        n += 1
        j = b.clos[j].prev
    r = b.node_rec[b.clos[j].node]
    while n > 0:
        n -= 1
        r = beam_rec(b, r, chain[n])
        if r == -2:
            return r
    return beam_rec(b, r, move)


cdef int check_signals() except -1 with gil:
    return PyErr_CheckSignals()


cdef int beam_limit(long long count, long long max_states, double deadline) except -1 nogil:
    """The limit reached at count positions, else BEAM_GO (every 4096 a pending Ctrl-C raises)."""
    if (count & 4095) == 0:
        check_signals()
        if deadline > 0 and now() > deadline:
            return BEAM_TIME
    if max_states > 0 and count > max_states:
        return BEAM_STATES
    return BEAM_GO


cdef int beam_layers(Game *g, CalcCtx *c, ttable *tt, int width, long long max_states,
                     double deadline, Beam *b, long long *count) except -1 nogil:
    cdef uint64_t moves[24]
    cdef int nnode = 1, n, i, m, r, status
    cdef int j
    cdef State child
    cdef Look o
    cdef uint64_t stock_bit
    while nnode:
        tt_clear(tt)
        b.nclos = b.ncand = b.ntodo = 0
        for i in range(nnode - 1, -1, -1):      # the best kept position first
            tt_visit(tt, b.node[i].removed, b.node[i].aux)
            if beam_clos(b, &b.node[i], i, -1, 0) < 0:
                return BEAM_MEMORY
        while b.ntodo:
            b.ntodo -= 1
            j = b.todo[b.ntodo]
            look(c, &b.clos[j].s, &o)
            stock_bit = (<uint64_t>1) << c.stock[o.s] if o.s < NSTOCK else 0
            n = g.moves(g.ctx, &b.clos[j].s, moves)
            for m in range(n - 1, -1, -1):       # the search's first move expanded first
                g.play(g.ctx, &b.clos[j].s, moves[m], &child)
                count[0] += 1
                status = beam_limit(count[0], max_states, deadline)
                if status != BEAM_GO:
                    if status == BEAM_STATES:
                        count[0] -= 1   # the position past the limit is not searched
                    return status
                if g.won(g.ctx, &child):
                    b.win_rec = beam_line(b, <int>j, moves[m])
                    return BEAM_MEMORY if b.win_rec == -2 else BEAM_WON
                if tt_visit(tt, child.removed, child.aux) or g.dead(g.ctx, &child):
                    continue
                if moves[m] & stock_bit:
                    if b.ncand == b.cap_cand and beam_grow(<void **>&b.cand, &b.cap_cand,
                                                           sizeof(BCand), b) < 0:
                        return BEAM_MEMORY
                    b.cand[b.ncand].s = child
                    b.cand[b.ncand].clos = <int>j
                    b.cand[b.ncand].move = moves[m]
                    b.cand[b.ncand].score = beam_score(c, &child)
                    b.cand[b.ncand].node = b.clos[j].node
                    b.cand[b.ncand].m = m
                    b.cand[b.ncand].idx = <int>b.ncand
                    b.ncand += 1
                elif beam_clos(b, &child, b.clos[j].node, <int>j, moves[m]) < 0:
                    return BEAM_MEMORY
        qsort(b.cand, b.ncand, sizeof(BCand), cand_order)
        nnode = <int>(b.ncand if b.ncand < <size_t>width else <size_t>width)
        # The records of the new beam's lines first, then the positions (a record reads the
        # closure, which the positions' array does not share).
        for i in range(nnode):
            r = beam_line(b, b.cand[i].clos, b.cand[i].move)
            if r == -2:
                return BEAM_MEMORY
            b.cand[i].idx = r
        for i in range(nnode):
            b.node[i] = b.cand[i].s
            b.node_rec[i] = b.cand[i].idx
    return BEAM_ENDED


def beam(dict spec, int width, limits):
    """The beam (above), `width` positions wide, from spec's root: (status, path, positions):
    "won" with the line's move words, else "given-up" (every line of the beam ended, which
    proves nothing) or the limit reached ("limit-states", "limit-time", "limit-memory").
    spec: as solve's ("mode" plays no part: the beam plays the pruned search's moves), and
    "beam_pen", "beam_gap" (beam_score's weights), "beam_noise" (0, or the span of a
    pseudo-random term added to each score, seeded by "shake": the first try's noisy beams,
    each keeping other positions among near-equal ones)."""
    cdef CalcCtx c
    cdef Game g
    cdef Beam b
    cdef ttable tt
    cdef State root = root_of(spec)
    cdef size_t memory
    cdef long long count = 0
    cdef long long max_states = limits.max_states
    cdef int status, r
    cdef double deadline = now() + limits.max_seconds if limits.max_seconds > 0 else 0.0
    if width < 1:
        raise ValueError("a beam is at least one position wide")
    make_game(&g, &c, spec["stock"], MODE_PRUNED, 0, 0, <int>spec.get("hall", 1))
    c.beam_pen = <int>spec.get("beam_pen", c.beam_pen)
    c.beam_gap = <int>spec.get("beam_gap", c.beam_gap)
    c.beam_noise = <int>spec.get("beam_noise", 0)
    c.shake = <uint64_t>spec.get("shake", 0)
    relax_options(&c, spec)
    if c.beam_noise < 0:
        raise ValueError("beam_noise is a span, at least 0")
    if g.won(g.ctx, &root):
        return "won", [], 0
    memset(&b, 0, sizeof(Beam))
    memory = relax_budget(&c, <size_t>limits.memory_bytes)
    # A quarter of the budget for the table of one layer's positions, the rest for the arrays.
    b.budget = memory - memory // 4
    b.used = width * (sizeof(State) + sizeof(int))
    if b.used > b.budget or tt_init(&tt, memory // 4) != 0:
        return "limit-memory", [], 0
    b.node = <State *>malloc(sizeof(State) * width)
    b.node_rec = <int *>malloc(sizeof(int) * width)
    try:
        if b.node == NULL or b.node_rec == NULL:
            return "limit-memory", [], 0
        b.node[0] = root
        b.node_rec[0] = -1
        with nogil:
            status = beam_layers(&g, &c, &tt, width, max_states, deadline, &b, &count)
        path = []
        if status == BEAM_WON:
            r = b.win_rec
            while r >= 0:
                path.append(b.recs[r].move)
                r = b.recs[r].prev
            path.reverse()
            return "won", path, count
        return ("given-up", "given-up", "limit-states", "limit-time",
                "limit-memory")[status], [], count
    finally:
        free(b.recs)
        free(b.clos)
        free(b.cand)
        free(b.todo)
        free(b.node)
        free(b.node_rec)
        tt_free(&tt)
        relax_free(&c)


# -- the contract's expand, step, random_win and playouts (engine/_entries.pxi) ------------------

ctypedef CalcCtx CoreCtx


cdef int prepare(Game *g, CoreCtx *c, dict spec, bint listing) except -1:
    """The game of expand and step (listing; what they list: spec["mode"] = MODE_PRUNED (the pruned search's moves; the walks play every legal move)) and of the walks."""
    make_game(g, c, spec["stock"], spec.get("mode", MODE_ALL) if listing else MODE_ALL)
    return 0


#: Positions given from Python are checked (engine/contract.py).
CHECKS_POSITIONS = True


cdef int check_given(CalcCtx *c, uint64_t removed, uint64_t aux) except -1:
    """Refuse a position given from Python that is none of this deal's: digits past the 48
    stock places (aux from 5**27 up, removed from 13**4 * 5**21 up), more cards turned than the
    stock holds, a card still in the stock lying on a pile, or stock cards on the foundations
    that are not the values their heights hold (the turned cards with digit 0 must be exactly
    the values each foundation holds above its start card)."""
    cdef State st
    cdef Look o
    cdef int need[14]
    cdef int f, j, k, v
    if aux >= POW5[LOW] or removed >= HSPAN * POW5[NSTOCK - LOW]:
        raise ValueError(f"({removed}, {aux}) is not a Calculation position: its digits run past "
                         f"the {NSTOCK} stock places")
    st.removed = removed
    st.aux = aux
    look(c, &st, &o)
    if o.s > NSTOCK:
        raise ValueError(f"({removed}, {aux}) is not a Calculation position: {o.s} cards turned, "
                         f"of a stock of {NSTOCK}")
    for k in range(o.s, NSTOCK):
        if o.d[k]:
            raise ValueError(f"({removed}, {aux}) is not a Calculation position: stock place "
                             f"{k + 1}, not turned yet, lies on pile P{o.d[k]}")
    for v in range(14):
        need[v] = 0
    for f in range(4):
        for j in range(1, o.h[f]):
            need[SEQ[f][j]] += 1
    for k in range(o.s):
        if o.d[k] == 0:
            need[c.val[k]] -= 1
            if need[c.val[k]] < 0:
                raise ValueError(f"({removed}, {aux}) is not a Calculation position: stock "
                                 f"place {k + 1} (value {c.val[k]}) is turned and on no pile, "
                                 "but the foundations' heights hold no more of that value")
    return 0


include "../../engine/_entries.pxi"


def is_dead(object stock, uint64_t removed, uint64_t aux, bint hall=True, bint relax=False):
    """Rules 3 and 4 (rule 3 alone with hall=False; with relax, rule 5 after them) in a
    position, with or without its stock (for tests)."""
    cdef CalcCtx c
    cdef State s
    setup(&c, stock, MODE_PRUNED, 0, 0, 2 if hall else 0)
    c.relax = 1 if relax else 0
    s.removed = removed
    s.aux = aux
    try:
        return bool(calc_dead(&c, &s))
    finally:
        relax_free(&c)


#: The tests' switches (tests/test_fuzz.py): the spec keys of this core's search modes, each
#: searched on random input beside core_spec's own.
SEARCH_MODES = ({}, {"mode": MODE_ALL}, {"mode": MODE_PRUNED}, {"mode": MODE_PRUNED, "hall": 0},
                {"mode": MODE_PRUNED, "hall": 2}, {"mode": MODE_PRUNED, "relax": 0},
                {"mode": MODE_PRUNED, "relax": 1}, {"mode": MODE_PRUNED, "relax_nodes": 8})
#: The spec keys that make expand() list the moves of the pruned search instead of every legal
#: move, and whether those are some of the legal ones.
PRUNED_EXPAND = ({"mode": MODE_PRUNED}, True)
