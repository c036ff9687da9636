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

from solitaire_solver._engine cimport Game, State, depth_first, game_clear
from solitaire_solver.bitboard cimport (
    BB_FULL_PACK, bb_count, bb_pairs_across, bb_pairs_within, bb_pop_lowest, bb_rank, bb_t,
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
    if a == 0 or b == 0:
        return n
    if c.mode != 0:
        out[n] = (a & -a) | (b & -b)
        return n + 1
    return bb_pairs_across(a, b, out, n)


cdef inline int add_same(SlotsCtx *c, bb_t a, uint64_t *out, int n) noexcept nogil:
    """Removals of two cards of a (cards of one rank)."""
    if bb_count(a) < 2:
        return n
    if c.mode != 0:
        out[n] = a & -a
        a = bb_pop_lowest(a)
        out[n] |= a & -a
        return n + 1
    return bb_pairs_within(a, out, n)


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
    game_clear(&g)
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
    """The forced line (first removal each time) to its end.

    Returns (move words, removed bitboard, slots): slots holds the card in each of the nine slots
    at the end (None when empty), refilled lowest slot first as the rules say. Confluence makes
    this line decide the deal (see the module doc), so it is also the proof of a block.
    """
    cdef SlotsCtx c
    cdef State s, t
    cdef uint64_t buf[64]
    cdef int slot[9]
    cdef int i, nxt = 9
    setup(&c, cards, GAMES[game], MODE_FORCED)
    for i in range(9):
        slot[i] = <int>cards[i]
    s.removed = 0
    s.aux = 0
    line = []
    while not slots_won(&c, &s) and slots_moves(&c, &s, buf) > 0:
        line.append(buf[0])
        for i in range(9):
            if slot[i] >= 0 and (buf[0] >> slot[i]) & 1:
                slot[i] = <int>cards[nxt] if nxt < 52 else -1
                nxt += 1
        slots_play(&c, &s, buf[0], &t)
        s = t
    return line, s.removed, tuple(slot[i] if slot[i] >= 0 else None for i in range(9))


# ---------------------------------------------------------------------------------------------
# Batch decisions for surveys: many deals in one call, no Python per deal.
#
# Confluence (module doc) lets one pass over the pack decide a deal. Keep the count of each rank
# showing and the number of empty slots; deal the next card into an empty slot, and after each
# card dealt make the removal it enables, if any. Invariant: after each card, no removal is
# available among the cards showing (before it none was, so any new removal uses the new card,
# and making it leaves none: the new card's rank, or its partner's, is then absent again). Each
# removal is legal in the real game at that point, where every refill is made at once: the real
# game has then dealt at least as many cards, and dealing never hides a card. When the pass ends
# (no empty slot, or no stock) the position is the real game's stuck or won position, so
# the verdict, the cards left and the number of removals equal the forced line's.
# tests/test_survey.py checks all three against solve() on thousands of deals.

from libc.stdint cimport uint8_t, uint32_t
from posix.time cimport CLOCK_MONOTONIC, clock_gettime, timespec

from solitaire_solver.pyrandom cimport ss_seeded_deal_i64, ss_seeded_deals_i64

cdef enum:
    WON = 0
    BLOCKED = 1

BATCH_WON = WON
BATCH_BLOCKED = BLOCKED

cdef enum:
    CHUNK = 1024    # deals shuffled per call to ss_seeded_deals_i64 (52 KiB of cards)


# The pass keeps the count of each rank showing in one 64-bit word, four bits per rank (rank r at
# bits 4r..4r+3; at most four cards of a rank, so no count spills into the next), and makes the
# removal a new card enables without a branch: the processor cannot guess whether a card finds its
# partner, and a wrong guess costs more than the arithmetic. Per kind and rank: TEST, the bits
# that show a partner (the partner rank's count, or for a rank pairing with itself the count's
# bits for 2 and up); DEC, what the removal takes off the counts; GAIN, the cards it removes.
# Elevens' courts go by COURTS instead: a J, Q and K all showing.
cdef uint64_t TEST[2][14]
cdef uint64_t DEC[2][14]
cdef uint64_t GAIN[2][14]
cdef uint64_t COURT[2][14]
cdef uint64_t COURTS = (<uint64_t>0x111) << 44


cdef void fill_tables():
    cdef int k, r, c
    for k in range(2):
        for r in range(14):
            TEST[k][r] = DEC[k][r] = GAIN[k][r] = COURT[k][r] = 0
    for r in range(1, 14):
        if r <= 10:
            c = 11 - r
            TEST[ELEVENS][r] = (<uint64_t>0xF) << (4 * c)
            DEC[ELEVENS][r] = ((<uint64_t>1) << (4 * r)) + ((<uint64_t>1) << (4 * c))
            GAIN[ELEVENS][r] = 2
        else:
            COURT[ELEVENS][r] = 1
            DEC[ELEVENS][r] = COURTS
            GAIN[ELEVENS][r] = 3
        if r == 10:
            continue
        if r in (5, 11, 12, 13):
            TEST[BLOCK_TEN][r] = (<uint64_t>0xE) << (4 * r)
            DEC[BLOCK_TEN][r] = (<uint64_t>2) << (4 * r)
        else:
            c = 10 - r
            TEST[BLOCK_TEN][r] = (<uint64_t>0xF) << (4 * c)
            DEC[BLOCK_TEN][r] = ((<uint64_t>1) << (4 * r)) + ((<uint64_t>1) << (4 * c))
        GAIN[BLOCK_TEN][r] = 2


fill_tables()


cdef inline int decide_pass(int kind, const uint8_t *cards, uint8_t *moves_out,
                            uint8_t *left_out) noexcept nogil:
    """Decide one deal (card indexes in dealing order); returns 0 won, 1 blocked."""
    cdef uint64_t cnt = 0
    cdef uint64_t y, h
    cdef int empty = 9
    cdef int nxt = 0
    cdef int removed = 0
    cdef int moves = 0
    cdef int r, goal
    while empty > 0 and nxt < 52:
        r = cards[nxt] % 13 + 1
        nxt += 1
        cnt += (<uint64_t>1) << (4 * r)
        y = cnt >> 44
        h = ((cnt & TEST[kind][r]) != 0) | \
            (COURT[kind][r] & (((y | (y >> 1) | (y >> 2)) & 0x111) == 0x111))
        cnt -= DEC[kind][r] & (<uint64_t>0 - h)
        h = GAIN[kind][r] & (<uint64_t>0 - h)
        empty += <int>h - 1
        removed += <int>h
        moves += h != 0
    goal = 52 if kind == ELEVENS else 48
    moves_out[0] = <uint8_t>moves
    left_out[0] = <uint8_t>(goal - removed)
    return 0 if removed == goal else 1


cdef inline long long now_ns() noexcept nogil:
    cdef timespec ts
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return ts.tv_sec * 1000000000LL + ts.tv_nsec


cdef inline void record(int kind, const uint8_t *deal, Py_ssize_t i, uint8_t[::1] status,
                        uint8_t[::1] left, uint8_t[::1] moves, uint8_t[::1] states) noexcept nogil:
    cdef int st = decide_pass(kind, deal, &moves[i], &left[i])
    status[i] = <uint8_t>st
    # What solve() reports: positions reached; a won line does not count its won position.
    states[i] = <uint8_t>(moves[i] + st) if moves[i] > 0 else 1


def decide_seeds(str game, long long start, Py_ssize_t count, uint8_t[::1] status,
                 uint8_t[::1] left, uint8_t[::1] moves, uint8_t[::1] states,
                 uint32_t[::1] ns=None):
    """Decide the seeded deals start .. start+count-1 (seeds must fit in 64 bits).

    Fills status (BATCH_WON / BATCH_BLOCKED), cards left, removals and states (as solve() counts
    them) at index seed - start; ns, when given, gets each deal's time (shuffle + decision).
    """
    cdef int kind = GAMES[game]
    cdef uint8_t deal[52]
    cdef Py_ssize_t i
    cdef long long t0 = 0
    cdef bint timing = ns is not None
    if count < 0 or status.shape[0] < count or left.shape[0] < count or \
            moves.shape[0] < count or states.shape[0] < count or (timing and ns.shape[0] < count):
        raise ValueError("decide_seeds: output arrays shorter than count")
    if count and (start > 0 and start + (count - 1) < start):
        raise OverflowError("decide_seeds: seeds beyond 64 bits")
    cdef uint8_t[::1] buf
    cdef Py_ssize_t base, m
    if timing:
        # Each deal timed on its own (shuffle + decision), one seed at a time.
        with nogil:
            for i in range(count):
                t0 = now_ns()
                ss_seeded_deal_i64(start + i, deal)
                record(kind, deal, i, status, left, moves, states)
                ns[i] = <uint32_t>(now_ns() - t0)
        return
    # Shuffle a chunk of seeds together (pyrandom.c makes many at once), then decide them.
    buf = bytearray(52 * CHUNK)
    with nogil:
        base = 0
        while base < count:
            m = count - base if count - base < CHUNK else CHUNK
            ss_seeded_deals_i64(start + base, <size_t>m, &buf[0])
            for i in range(m):
                record(kind, &buf[52 * i], base + i, status, left, moves, states)
            base += m


def tally(const uint8_t[::1] status, const uint8_t[::1] left, const uint8_t[::1] states):
    """Counts of a decided chunk, for the survey's summary: (won, cards-left histogram of the
    blocked deals, states histogram), the histograms as lists indexed by value (0..255)."""
    cdef Py_ssize_t n = status.shape[0]
    cdef Py_ssize_t i
    cdef long long won = 0
    cdef long long left_hist[256]
    cdef long long states_hist[256]
    if left.shape[0] < n or states.shape[0] < n:
        raise ValueError("tally: arrays of different lengths")
    for i in range(256):
        left_hist[i] = 0
        states_hist[i] = 0
    with nogil:
        for i in range(n):
            if status[i] == WON:
                won += 1
            else:
                left_hist[left[i]] += 1
            states_hist[states[i]] += 1
    return won, [left_hist[i] for i in range(256)], [states_hist[i] for i in range(256)]


def decide_deals(str game, const uint8_t[:, ::1] deals, uint8_t[::1] status, uint8_t[::1] left,
                 uint8_t[::1] moves, uint8_t[::1] states):
    """Decide deals given as rows of 52 card indexes (checked: each row one full pack)."""
    cdef int kind = GAMES[game]
    cdef Py_ssize_t n = deals.shape[0]
    cdef Py_ssize_t i
    cdef int j
    cdef uint64_t seen
    if deals.shape[1] != 52:
        raise ValueError("decide_deals: each deal is a row of 52 card indexes")
    if status.shape[0] < n or left.shape[0] < n or moves.shape[0] < n or states.shape[0] < n:
        raise ValueError("decide_deals: output arrays shorter than the deals")
    for i in range(n):
        seen = 0
        for j in range(52):
            if deals[i, j] < 52:
                seen |= (<uint64_t>1) << deals[i, j]
        if seen != BB_FULL_PACK:
            raise ValueError(f"decide_deals: deal {i} is not one full pack")
    with nogil:
        for i in range(n):
            record(kind, &deals[i, 0], i, status, left, moves, states)
