# cython: language_level=3
"""Core of the slot games Elevens and Block Ten.

A position is the removed-cards bitboard alone: the stock deals one card per card removed, so the
cards showing are the first 9 + removed cards of the pack, less the removed ones.

Move generation has three modes:
- ALL: every legal removal (what the reference rules list).
- PER_KIND: one removal per kind (a kind is a pair of ranks, such as 5-6, or the court set), the
  lowest-index cards of each rank. Two removals of one kind leave positions that differ only in the
  suits of cards of the same ranks, and suits play no part in these games, so either wins iff the
  other does.
- FORCED: only the first available removal. Removals of different kinds use cards of different
  ranks, so they never compete for a card, never disable each other, and commute; with the suit
  symmetry above this makes the game confluent (docs/proofs.md): every maximal line of play ends in
  the same position up to suits, and one line decides the deal.
tests/test_slots_confluence.py checks ALL against FORCED on thousands of deals.
"""

from libc.stdint cimport uint64_t

from solitaire_solver._engine cimport (
    BB_FULL_PACK, Game, State, bb_count, bb_lowest, bb_pop_lowest, bb_rank, bb_t, depth_first,
)

cdef enum:
    ELEVENS = 0
    BLOCK_TEN = 1

# Block Ten's ranks that pair with themselves.
cdef int SAME_RANKS[4]
SAME_RANKS[:] = [5, 11, 12, 13]

MODE_ALL = 0
MODE_PER_KIND = 1
MODE_FORCED = 2

GAMES = {"elevens": ELEVENS, "block-ten": BLOCK_TEN}

cdef struct SlotsCtx:
    bb_t prefix[53]      # prefix[k]: the first k cards of the pack
    bb_t goal            # the cards that must be removed
    int slots
    int kind
    int mode


cdef inline bb_t showing(SlotsCtx *c, bb_t removed) noexcept nogil:
    cdef int dealt = c.slots + bb_count(removed)
    if dealt > 52:
        dealt = 52
    return c.prefix[dealt] & ~removed


cdef inline int add_pairs(SlotsCtx *c, bb_t a, bb_t b, uint64_t *out, int n) noexcept nogil:
    """Removals of one card of a with one of b (a and b disjoint)."""
    cdef bb_t bb
    if a == 0 or b == 0:
        return n
    if c.mode != 0:
        out[n] = (a & -a) | (b & -b)
        return n + 1
    while a:
        bb = b
        while bb:
            out[n] = (a & -a) | (bb & -bb)
            n += 1
            bb = bb_pop_lowest(bb)
        a = bb_pop_lowest(a)
    return n


cdef inline int add_same(SlotsCtx *c, bb_t a, uint64_t *out, int n) noexcept nogil:
    """Removals of two cards of a (cards of one rank)."""
    cdef bb_t rest
    if bb_count(a) < 2:
        return n
    if c.mode != 0:
        out[n] = a & -a
        a = bb_pop_lowest(a)
        out[n] |= a & -a
        return n + 1
    while a:
        rest = bb_pop_lowest(a)
        while rest:
            out[n] = (a & -a) | (rest & -rest)
            n += 1
            rest = bb_pop_lowest(rest)
        a = bb_pop_lowest(a)
    return n


cdef int slots_moves(void *ctx, const State *s, uint64_t *out) noexcept nogil:
    cdef SlotsCtx *c = <SlotsCtx *>ctx
    cdef bb_t show = showing(c, s.removed)
    cdef bb_t j, q, k, qq, kk
    cdef int n = 0
    cdef int v
    if c.kind == ELEVENS:
        for v in range(1, 6):
            n = add_pairs(c, show & bb_rank(v), show & bb_rank(11 - v), out, n)
            if n and c.mode == 2:
                return n
        j = show & bb_rank(11)
        q = show & bb_rank(12)
        k = show & bb_rank(13)
        if j and q and k:
            if c.mode != 0:
                out[n] = (j & -j) | (q & -q) | (k & -k)
                return n + 1
            while j:
                qq = q
                while qq:
                    kk = k
                    while kk:
                        out[n] = (j & -j) | (qq & -qq) | (kk & -kk)
                        n += 1
                        kk = bb_pop_lowest(kk)
                    qq = bb_pop_lowest(qq)
                j = bb_pop_lowest(j)
    else:
        for v in range(1, 5):
            n = add_pairs(c, show & bb_rank(v), show & bb_rank(10 - v), out, n)
            if n and c.mode == 2:
                return n
        for v in range(4):
            n = add_same(c, show & bb_rank(SAME_RANKS[v]), out, n)
            if n and c.mode == 2:
                return n
    return n


cdef void slots_play(void *ctx, const State *s, uint64_t move, State *out) noexcept nogil:
    out.removed = s.removed | move
    out.aux = 0


cdef int slots_won(void *ctx, const State *s) noexcept nogil:
    cdef SlotsCtx *c = <SlotsCtx *>ctx
    return (s.removed & c.goal) == c.goal


cdef void setup(SlotsCtx *c, object cards, int kind, int mode) except *:
    cdef int i
    c.prefix[0] = 0
    for i in range(52):
        c.prefix[i + 1] = c.prefix[i] | ((<bb_t>1) << <int>cards[i])
    c.slots = 9
    c.kind = kind
    c.mode = mode
    c.goal = BB_FULL_PACK
    if kind == BLOCK_TEN:
        c.goal &= ~bb_rank(10)


def solve(str game, object cards, int mode=MODE_FORCED, long long max_states=0,
          double max_seconds=0.0, size_t memory_bytes=256 << 20, bint certificate=False):
    """Search one deal (52 card indexes). Returns (status, move words, stats, certificate)."""
    cdef SlotsCtx c
    cdef Game g
    cdef State root
    if mode not in (MODE_ALL, MODE_PER_KIND, MODE_FORCED):
        raise ValueError(f"unknown move mode {mode}")
    setup(&c, cards, GAMES[game], mode)
    g.ctx = &c
    g.moves = slots_moves
    g.play = slots_play
    g.won = slots_won
    g.dead = NULL
    g.max_moves = 64
    g.max_depth = 32
    root.removed = 0
    root.aux = 0
    return depth_first(&g, root, max_states, max_seconds, memory_bytes, certificate)


def forced_line(str game, object cards):
    """The forced line (first removal each time) to its end: (move words, removed bitboard).

    The fast path of surveys: confluence makes this line decide the deal (see the module doc).
    """
    cdef SlotsCtx c
    cdef State s, t
    cdef uint64_t buf[64]
    setup(&c, cards, GAMES[game], MODE_FORCED)
    s.removed = 0
    s.aux = 0
    line = []
    while not slots_won(&c, &s) and slots_moves(&c, &s, buf) > 0:
        line.append(buf[0])
        slots_play(&c, &s, buf[0], &t)
        s = t
    return line, s.removed
