# cython: language_level=3
"""Core of Montana (Gaps), on the wide search (engine/_wide.pyx): a position is the card in each
place, which does not fit one word.

Position: place p (row by row, 4 x ranks places) in bits 6 p .. 6 p + 5 of the words read as
one bit string (five words for 52 places), as the card's index + 1 (0: a gap); with redeals, one
more word: the redeals played (bits 0..3) and
the cards each gathered (6 bits each from bit 4), which with the deal's generator fix the next
redeal's shuffle. The contract's position is that as one int (contract.py).

Spec keys: "cards" (the dealt cards of the game, 4 x ranks card indexes in place order, the Aces
among them), "ranks", "redeals", "rng" (the deal's generator where its deal left it, for the
redeals: None, ("seed", state, index) for random.Random's shuffle, ("mt", state, index) for
PySolFC's Mersenne Twister, ("ms", x, seed) for its FreeCell generator), "mode", and "root";
for solve() alone "order" (try each position's moves best child first, order_moves), and for
beam() "shake".

Move words are Move codes: a card into the gap right of the card below it (its bit), a Two into
the first place of a row (its bit with the row at moves.PILE_SHIFT), `redeal`. MODE_GROUPS's
moves are a group's (group_moves): a Three's bit with a row is the Three into that row's
second place behind its Two, put in the row's first place first; a Two filling the first
column's last gap carries the other Twos' order in the Aces' bits (game.py, core_line, plays
them out as single moves).

Modes: MODE_ALL generates every legal move in place order (certificates use it); MODE_ORDERED
the same moves, those that lengthen a row's run first and the Twos that leave a first place last:
an order of trial, no move left out (docs/montana.md, "The search"); MODE_LOCKED MODE_ORDERED's
moves and the block test of locked cards (montana_dead; docs/montana.md, "Locked cards");
MODE_REDUCED that and, at each position, only a persistent set of its moves (reduce_moves;
docs/montana.md, "Independent moves"); MODE_PLACES MODE_REDUCED with the places
relaxation (reach()) in place of the locked cards: its movable cards in the persistent sets and
its block test (docs/montana.md, "Where each card can go"); MODE_GROUPS (the default) that, with
a position keyed by its group's representative and a group's moves generated at once
(docs/montana.md, "Groups of first-column arrangements"). The cuts are proved there, and apply
only with no redeal left.
"""

from cpython.exc cimport PyErr_CheckSignals
from libc.stdint cimport uint8_t, uint32_t, uint64_t
from libc.stdlib cimport free, malloc
from libc.string cimport memcpy, memset

from solitaire_solver.engine._engine cimport now
from solitaire_solver.engine._wide cimport (
    WideGame, int_pos, sort_moves, wide_clear, wide_depth_first, wide_expand, wide_playouts,
    wide_random_win, wide_root, wide_step,
)
from solitaire_solver.engine.pyrandom cimport ss_mt, ss_mt_next, ss_mt_shuffle
from solitaire_solver.engine.wtable cimport wt_free, wt_init, wt_visit, wtable

from solitaire_solver.engine.contract import run_of
from solitaire_solver.moves import PILE_SHIFT, word_code

cdef enum:
    M_ALL = 0
    M_ORDERED = 1
    M_LOCKED = 2     # M_ORDERED's moves, and the block test of locked cards (dead())
    M_REDUCED = 3    # M_LOCKED, and only a persistent set of moves (reduce_moves)
    M_PLACES = 4     # M_REDUCED on the places relaxation: its movable cards and its block test
    M_GROUPS = 5     # M_PLACES, and the first column's Twos and gaps kept in one order (groups)

MODE_ALL = M_ALL
MODE_ORDERED = M_ORDERED
MODE_LOCKED = M_LOCKED
MODE_REDUCED = M_REDUCED
MODE_PLACES = M_PLACES
MODE_GROUPS = M_GROUPS

DEF ROWS = 4
DEF MAXP = 52
DEF MAX_REDEALS = 8
DEF TWO_IDS = 52                  # reduce_moves: a Two's move into a row, after the cards' moves
DEF ALL_IDS = TWO_IDS + 16
DEF MAX_MOVES = 9 + 3 + 24        # the most moves of a position: make_game's max_moves

cdef uint64_t REDEAL_WORD = word_code("redeal")
cdef int TO_ROW_SHIFT = PILE_SHIFT
cdef uint64_t CARD_BITS = (<uint64_t>1 << 52) - 1
# The Aces' bits, never a move's card in Montana: a group move that fills the first column's
# last gap names there how the other Twos stand (group_moves)
cdef uint64_t ACE_BITS = (<uint64_t>1) | (<uint64_t>1 << 13) | (<uint64_t>1 << 26) | (<uint64_t>1 << 39)

cdef enum:
    RNG_NONE = 0
    RNG_SEED = 1     # random.Random(seed).shuffle
    RNG_MT = 2       # PySolFC's Mersenne Twister: int(random() * (n + 1))
    RNG_MS = 3       # PySolFC's FreeCell generator


cdef struct Ctx:
    int ranks
    int places
    int words        # words of the places; with redeals one more (aux)
    int redeals
    int mode
    uint8_t start[MAXP]   # the dealt position: card + 1 per place (0: a gap)
    int rng
    ss_mt mt              # RNG_SEED, RNG_MT: the generator where the deal left it
    uint64_t ms_x         # RNG_MS: its state, and the seed that chooses its output
    uint64_t ms_seed
    # movable()'s last answer and the position it was for (dead() then moves() on each new
    # position of the search: the second reads it here)
    uint64_t seen[8]
    bint seen_valid
    uint8_t seen_pl[MAXP]
    int seen_where[52]
    uint8_t seen_mov[52]
    uint64_t seen_loc[52]   # M_PLACES: reach()'s places of each card
    uint64_t first_mask     # the places of the first column, and of the last
    uint64_t last_mask
    uint64_t shake          # the beam's seed for its ties (spec "shake")
    bint order              # solve(): the moves tried best child first (spec "order")


cdef inline int get(const uint64_t *s, int p) noexcept nogil:
    # place p is bits 6 p .. 6 p + 5 of the words read as one bit string (a field may cross a
    # word's end: 52 places fit five words)
    cdef int b = 6 * p, w = b >> 6, o = b & 63
    cdef uint64_t v = s[w] >> o
    if o > 58:
        v |= s[w + 1] << (64 - o)
    return <int>(v & 63)


cdef inline void put(uint64_t *s, int p, int v) noexcept nogil:
    cdef int b = 6 * p, w = b >> 6, o = b & 63
    s[w] = (s[w] & ~((<uint64_t>63) << o)) | ((<uint64_t>v) << o)
    if o > 58:
        s[w + 1] = (s[w + 1] & ~((<uint64_t>63) >> (64 - o))) | ((<uint64_t>v) >> (64 - o))


cdef inline int value(int card) noexcept nogil:
    return card % 13 + 1


cdef inline int used_redeals(Ctx *c, const uint64_t *s) noexcept nogil:
    return <int>(s[c.words - 1] & 15) if c.redeals else 0


# -- groups (M_GROUPS; docs/montana.md, "Groups of first-column arrangements") ------------------

cdef int group_of(Ctx *c, const uint64_t *s, int *rows, int *twos, int *gaps) noexcept nogil:
    """The rows whose first place holds a Two or a gap, ascending, into rows; the fields of
    their Twos, ascending (suit order), into twos; how many of the rows have a gap into gaps[0].
    Returns how many rows."""
    cdef int r, v, n = 0, k = 0, i
    gaps[0] = 0
    for r in range(ROWS):
        v = get(s, r * c.ranks)
        if v == 0:
            rows[n] = r
            n += 1
            gaps[0] += 1
        elif value(v - 1) == 2:
            rows[n] = r
            n += 1
            i = k
            while i > 0 and twos[i - 1] > v:
                twos[i] = twos[i - 1]
                i -= 1
            twos[i] = v
            k += 1
    return n


cdef inline bint in_group(Ctx *c, const uint64_t *s) noexcept nogil:
    """M_GROUPS, no redeal left, and a gap and a Two in first places: the position's group
    holds every arrangement of those among their rows."""
    cdef int r, v
    cdef bint gap = False, two = False
    if c.mode != M_GROUPS or not no_redeal_left(c, s):
        return False
    for r in range(ROWS):
        v = get(s, r * c.ranks)
        if v == 0:
            gap = True
        elif value(v - 1) == 2:
            two = True
    return gap and two


cdef void canonical(Ctx *c, uint64_t *s) noexcept nogil:
    """s as its group's representative: the group's Twos in suit order in its first rows, then
    its gaps (no change outside a group)."""
    cdef int rows[ROWS]
    cdef int twos[ROWS]
    cdef int gaps, n, i
    if not in_group(c, s):
        return
    n = group_of(c, s, rows, twos, &gaps)
    for i in range(n):
        put(s, rows[i] * c.ranks, twos[i] if i < n - gaps else 0)


cdef inline int factorial(int m) noexcept nogil:
    cdef int f = 1, i
    for i in range(2, m + 1):
        f *= i
    return f


cdef void nth_order(int k, int m, int *order) noexcept nogil:
    """order[0..m-1]: the k-th (0 <= k < m!) ordering of 0..m-1 (the factorial number system;
    the Python side decodes it the same way: game.py, _nth_order)."""
    cdef int pool[ROWS]
    cdef int i, j, t, f
    for i in range(m):
        pool[i] = i
    for i in range(m):
        f = factorial(m - 1 - i)
        j = k // f
        k = k % f
        order[i] = pool[j]
        for t in range(j, m - 1 - i):
            pool[t] = pool[t + 1]


cdef inline uint64_t order_bits(int k) noexcept nogil:
    # k (0..5) in the bits of the Aces of clubs, diamonds and hearts
    return ((<uint64_t>(k & 1)) | ((<uint64_t>((k >> 1) & 1)) << 13)
            | ((<uint64_t>((k >> 2) & 1)) << 26))


cdef inline int order_of(uint64_t move) noexcept nogil:
    return <int>((move & 1) | (((move >> 13) & 1) << 1) | (((move >> 26) & 1) << 2))


cdef int group_moves(Ctx *c, const uint64_t *s, uint64_t *out) noexcept nogil:
    """M_GROUPS at a position in a group: the legal moves of every arrangement of the group,
    one for each group of positions they lead to: a Three into the place after any of the
    group's Twos (the row in its code: the Two stands there first); every other card's move
    outside the group's first two places; a Two from outside the first column into a gap of
    the group, and where that fills the column's last gap, once for each arrangement the
    column then has (the Two's row in the code, the others' order in the Aces' bits). Never a
    Two moved within the group: that stays in the group. The order of trial, as MODE_ORDERED's:
    first the moves that lengthen a run some arrangement has (a Three not already behind a Two
    of the group, a card right of such a run), then the others, a Three that leaves a place
    behind a Two of the group last but one, and the last gap's arrangements last, those that
    put more Twos before their Threes first."""
    cdef int N = c.ranks, p, q, r, i, j, k, t, n = 0, nl = 0, nr, gaps, m, f, two, rt = 0
    cdef int left, v, best, sc
    cdef int rows[ROWS]
    cdef int twos[ROWS]
    cdef int run[ROWS]
    cdef int order[ROWS]
    cdef int score[24]
    cdef uint64_t fill[24]
    cdef uint64_t later[16]
    cdef uint8_t pl[MAXP]
    cdef int where[52]
    cdef bint grow[ROWS]
    cdef bint member[53]
    nr = group_of(c, s, rows, twos, &gaps)
    m = nr - gaps
    for r in range(ROWS):
        grow[r] = False
    for v in range(53):
        member[v] = False
    for j in range(m):
        member[twos[j]] = True
    for i in range(nr):
        grow[rows[i]] = True
        if get(s, rows[i] * N) == 0:
            rt = rows[i]
    read_places(c, s, pl, where)
    for r in range(ROWS):
        # the run some arrangement gives the row: from a Three behind a first place of the
        # group whose Two is in the group (a row outside the group starts with another card)
        run[r] = 0
        v = pl[r * N + 1]
        if grow[r] and v and value(v - 1) == 3 and member[v - 1]:
            k = 2
            while k < N and pl[r * N + k] == v + k - 1:
                k += 1
            run[r] = k
    for i in range(nr):
        r = rows[i]
        if pl[r * N + 1] == 0:
            for j in range(m):
                # twos[j] is the Two's field (its index + 1), so the Three's index
                q = where[twos[j]]
                if q % N == 1 and grow[q // N]:
                    later[nl] = (<uint64_t>1) << twos[j] | (<uint64_t>(r + 1)) << TO_ROW_SHIFT
                    nl += 1
                else:
                    out[n] = (<uint64_t>1) << twos[j] | (<uint64_t>(r + 1)) << TO_ROW_SHIFT
                    n += 1
    j = n
    for p in range(c.places):
        if pl[p] or p % N == 0 or (p % N == 1 and grow[p // N]):
            continue
        left = pl[p - 1]
        if left and value(left - 1) < N:
            out[n] = (<uint64_t>1) << left
            if run[p // N] == p % N:
                out[n] = out[j]
                out[j] = (<uint64_t>1) << left
                j += 1
            n += 1
    for i in range(nl):
        out[n] = later[i]
        n += 1
    for t in range(4):
        two = 13 * t + 1
        if where[two] % N == 0:
            continue  # in the group
        if gaps > 1:
            out[n] = (<uint64_t>1) << two | (<uint64_t>(rt + 1)) << TO_ROW_SHIFT
            n += 1
            continue
        f = factorial(m)
        nl = 0
        for i in range(nr):
            for k in range(f):
                fill[nl] = ((<uint64_t>1) << two | (<uint64_t>(rows[i] + 1)) << TO_ROW_SHIFT
                            | order_bits(k))
                # how many of the column's Twos then stand before their Threes
                nth_order(k, m, order)
                sc = 1 if pl[rows[i] * N + 1] == two + 2 else 0
                q = 0
                for j in range(nr):
                    if j != i:
                        if pl[rows[j] * N + 1] == twos[order[q]] + 1:
                            sc += 1
                        q += 1
                score[nl] = sc
                nl += 1
        for i in range(nl):
            best = i
            for j in range(i + 1, nl):
                if score[j] > score[best]:
                    best = j
            out[n] = fill[best]
            n += 1
            fill[best] = fill[i]
            score[best] = score[i]
    return n


cdef int first_gaps(Ctx *c, const uint64_t *s) noexcept nogil:
    cdef int r, n = 0
    for r in range(ROWS):
        if get(s, r * c.ranks) == 0:
            n += 1
    return n


cdef int montana_moves(void *ctx, const uint64_t *s, uint64_t *out) noexcept nogil:
    """Every legal move: by place (MODE_ALL), or (MODE_ORDERED) the same moves with those that
    lengthen a row's run first and Twos leaving a first place last, then the redeal."""
    cdef Ctx *c = <Ctx *>ctx
    cdef int p, left, t, n = 0, N = c.ranks, r, k, first = 0
    cdef uint64_t later[ROWS * 4]
    cdef uint64_t m
    cdef int nl = 0
    cdef uint8_t pl[MAXP]
    cdef bint ordered = c.mode != M_ALL
    cdef bint lengthens
    cdef uint64_t two_first = 0   # ORDERED: the Twos in a first place, as bits of their index
    if in_group(c, s):
        return order_moves(c, s, out, group_moves(c, s, out))
    for p in range(c.places):
        pl[p] = <uint8_t>get(s, p)
        if ordered and p % N == 0 and pl[p] and value(pl[p] - 1) == 2:
            two_first |= (<uint64_t>1) << (pl[p] - 1)
    for p in range(c.places):
        if pl[p]:
            continue
        if p % N == 0:
            for t in range(4):
                m = (<uint64_t>1) << (13 * t + 1) | ((<uint64_t>(p // N + 1)) << TO_ROW_SHIFT)
                if two_first >> (13 * t + 1) & 1:
                    later[nl] = m  # a Two that leaves a first place: tried last
                    nl += 1
                else:
                    out[n] = m
                    n += 1
            continue
        left = pl[p - 1]
        # left - 1 is the card; its successor's index is left
        if left and value(left - 1) < N:
            m = (<uint64_t>1) << left
            lengthens = False
            if ordered:
                # the place right of a run from the row's Two: the run is whole up to p - 1
                r = p - p % N
                k = pl[r]
                lengthens = k != 0 and value(k - 1) == 2 and left == k + p % N - 1
                if lengthens:
                    for t in range(r + 1, p):
                        if pl[t] != k + (t - r):
                            lengthens = False
                            break
            if lengthens:
                out[n] = out[first]
                out[first] = m
                first += 1
            else:
                out[n] = m
            n += 1
    for k in range(nl):
        out[n] = later[k]
        n += 1
    if c.redeals and used_redeals(c, s) < c.redeals:
        out[n] = REDEAL_WORD
        n += 1
    if c.mode >= M_REDUCED:
        n = reduce_moves(c, s, out, n)
    return order_moves(c, s, out, n)


cdef inline uint64_t mix(uint64_t x) noexcept nogil:
    # splitmix64's finaliser
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL
    return x ^ (x >> 31)


cdef inline int find(Ctx *c, const uint64_t *s, int v) noexcept nogil:
    cdef int p
    for p in range(c.places):
        if get(s, p) == v:
            return p
    return -1


cdef inline int run_length(Ctx *c, const uint64_t *s, int row) noexcept nogil:
    cdef int N = c.ranks, first = get(s, row * N), k = 1
    if first == 0 or value(first - 1) != 2:
        return 0
    while k < N and get(s, row * N + k) == first + k:
        k += 1
    return k


cdef void montana_play(void *ctx, const uint64_t *s, uint64_t move, uint64_t *out) noexcept nogil:
    cdef Ctx *c = <Ctx *>ctx
    cdef int card, row, src, dst, v
    cdef int i
    for i in range(c.words):
        out[i] = s[i]
    if move == REDEAL_WORD:
        redeal(c, s, out)
        canonical(c, out)  # after the last redeal, a group's representative
        return
    card = <int>__builtin_ctzll(move & CARD_BITS & ~ACE_BITS)
    row = <int>(move >> TO_ROW_SHIFT) & 31
    if c.mode == M_GROUPS and row and no_redeal_left(c, s):
        if value(card) != 2 or first_gaps(c, s) == 1:
            group_play(c, s, card, row - 1, move, out)
            canonical(c, out)
            return
    src = dst = -1
    for i in range(c.places):
        v = get(s, i)
        if v == card + 1:
            src = i
        elif v == card and not row:
            dst = i + 1  # right of card - 1 (whose value + 1 is card)
    if row:
        dst = (row - 1) * c.ranks
    put(out, dst, card + 1)
    put(out, src, 0)
    canonical(c, out)


cdef void group_play(Ctx *c, const uint64_t *s, int card, int r, uint64_t move,
                     uint64_t *out) noexcept nogil:
    """out (a copy of s): group_moves' Three into row r behind its Two (the Two first put in
    row r's first place, in exchange with what stands there), or its Two that fills the first
    column's last gap, in row r, the group's other Twos in the order the move names."""
    cdef int N = c.ranks, i, j, nr, gaps, src, q = -1, m
    cdef int rows[ROWS]
    cdef int twos[ROWS]
    cdef int order[ROWS]
    cdef uint8_t pl[MAXP]
    cdef int where[52]
    for i in range(52):
        where[i] = -1
    read_places(c, s, pl, where)
    src = where[card]
    if value(card) != 2 and where[card - 1] >= 0 and where[card - 1] % N == 0:
        q = where[card - 1]
    if src < 0 or (value(card) != 2 and q < 0):
        return  # not a move group_moves makes here (out stays s): never read past the places
    if value(card) != 2:
        # card - 1 is its Two, in the first place q of the group's rows
        put(out, q, get(s, r * N))
        put(out, r * N, card)
        put(out, r * N + 1, card + 1)
        put(out, src, 0)
        return
    nr = group_of(c, s, rows, twos, &gaps)
    m = nr - gaps
    nth_order(order_of(move), m, order)
    j = 0
    for i in range(nr):
        if rows[i] != r:
            put(out, rows[i] * N, twos[order[j]])
            j += 1
    put(out, r * N, card + 1)
    put(out, src, 0)


cdef extern from *:
    int __builtin_ctzll(unsigned long long) nogil


cdef inline uint32_t ms_randint(Ctx *c, uint64_t *x, uint32_t n) noexcept nogil:
    """PySolFC's FreeCell generator's randint(0, n) (pysolfc.py, _FreeCellRandom)."""
    cdef uint64_t r
    x[0] = (x[0] * 214013 + 2531011) & ((<uint64_t>1 << 33) - 1)
    if c.ms_seed < (<uint64_t>1 << 32):
        r = (x[0] >> 16) & 0x7FFF
        if c.ms_seed >= (<uint64_t>1 << 31):
            r |= 0x8000
    else:
        r = ((x[0] >> 16) & 0xFFFF) + 1
    return <uint32_t>(r % (n + 1))


cdef inline uint32_t mt_randint(ss_mt *r, uint32_t n) noexcept nogil:
    """PySolFC's Mersenne Twister randint(0, n): int(random() * (n + 1)), random() as CPython."""
    cdef uint32_t a = ss_mt_next(r) >> 5
    cdef uint32_t b = ss_mt_next(r) >> 6
    cdef double x = (a * 67108864.0 + b) * (1.0 / 9007199254740992.0)
    return <uint32_t>(x * (n + 1))


cdef void pysolfc_shuffle(Ctx *c, ss_mt *r, uint64_t *x, uint8_t *cards, int n) noexcept nogil:
    cdef int i
    cdef uint32_t j
    cdef uint8_t t
    for i in range(n - 1, 0, -1):
        j = mt_randint(r, i) if c.rng == RNG_MT else ms_randint(c, x, i)
        t = cards[i]
        cards[i] = cards[j]
        cards[j] = t


cdef void redeal(Ctx *c, const uint64_t *s, uint64_t *out) noexcept nogil:
    """The redeal (docs/montana.md, "Variants"): runs kept, the rest gathered, shuffled by the deal's generator
    (continued past the deal and the earlier redeals) and dealt after the runs."""
    cdef int N = c.ranks, r, k, n = 0, i, used = used_redeals(c, s), j
    cdef int runs[ROWS]
    cdef uint8_t cards[MAXP]
    cdef uint8_t dummy[MAXP]
    cdef ss_mt mt
    cdef uint64_t x = c.ms_x
    cdef uint64_t aux = s[c.words - 1]
    for r in range(ROWS):
        runs[r] = run_length(c, s, r)
        for k in range(runs[r], N):
            if get(s, r * N + k):
                cards[n] = <uint8_t>get(s, r * N + k)
                n += 1
    if c.rng == RNG_SEED or c.rng == RNG_MT:
        memcpy(&mt, &c.mt, sizeof(ss_mt))
    for i in range(used):
        j = <int>((aux >> (4 + 6 * i)) & 63)
        if c.rng == RNG_SEED:
            ss_mt_shuffle(&mt, dummy, j)
        else:
            pysolfc_shuffle(c, &mt, &x, dummy, j)
    if c.rng == RNG_SEED:
        ss_mt_shuffle(&mt, cards, n)
    else:
        pysolfc_shuffle(c, &mt, &x, cards, n)
        # PySolFC deals from its talon's top: the shuffled list's end first
        for i in range(n // 2):
            cards[i], cards[n - 1 - i] = cards[n - 1 - i], cards[i]
    i = 0
    for r in range(ROWS):
        put(out, r * N + runs[r], 0)
        for k in range(runs[r] + 1, N):
            put(out, r * N + k, cards[i])
            i += 1
    out[c.words - 1] = (aux & ~(<uint64_t>15)) | <uint64_t>(used + 1) | (
        (<uint64_t>n) << (4 + 6 * used))


cdef int montana_won(void *ctx, const uint64_t *s) noexcept nogil:
    cdef Ctx *c = <Ctx *>ctx
    cdef int r
    for r in range(ROWS):
        if run_length(c, s, r) != c.ranks - 1:
            return 0
    return 1


cdef int movable(Ctx *c, const uint8_t *pl, const int *where, uint8_t *mov) noexcept nogil:
    """The cards that may ever move (mov[card] = 1), a least set M closed under: a card whose
    predecessor is in M, or whose predecessor's right neighbour (same row) is a gap or in M; a
    Two when a first place other than its own is a gap or holds a card of M. Every other card
    never moves again in the one-deal game (docs/montana.md, "Locked cards"). Returns |M|."""
    cdef int N = c.ranks, p, x, y, t, ns = 0, nm = 0
    cdef int stack[52]
    for x in range(52):
        mov[x] = 0
    for p in range(c.places):
        if pl[p]:
            continue
        if p % N == 0:
            # a gap in a first place: every Two may move, so every card may
            for x in range(52):
                mov[x] = 1
            return 4 * (N - 1)
        # the gap's own move: the successor of the card left of it
        if pl[p - 1] and value(pl[p - 1] - 1) < N and not mov[pl[p - 1]]:
            mov[pl[p - 1]] = 1
            stack[ns] = pl[p - 1]
            ns += 1
    while ns:
        ns -= 1
        x = stack[ns]
        nm += 1
        p = where[x]
        # its successor may follow it; the card left of its place may take a successor there
        if value(x) < N and not mov[x + 1]:
            mov[x + 1] = 1
            stack[ns] = x + 1
            ns += 1
        if p % N:
            y = pl[p - 1]
            if y and value(y - 1) < N and not mov[y]:
                mov[y] = 1
                stack[ns] = y
                ns += 1
        else:
            for t in range(4):
                y = 13 * t + 1
                if y != x and not mov[y]:
                    mov[y] = 1
                    stack[ns] = y
                    ns += 1
    return nm


cdef int reach(Ctx *c, const uint8_t *pl, const int *where, uint8_t *mov,
               uint64_t *loc) noexcept nogil:
    """The places relaxation (docs/montana.md, "Where each card can go"): loc[card], a bit a
    place, holds the places the card may ever stand in, the least sets such that a card's own
    place is in its set; a place right of a place of its predecessor's set, in the same row, that
    may ever be a gap is in it (for a Two: a first place that may ever be a gap); and a place
    may ever be a gap when it is one or its card's set holds another place. mov[card] = 1 when
    the card may move (its set holds another place). Returns how many may."""
    cdef int N = c.ranks, p, t, x, nm = 0
    cdef uint64_t gaps = 0, may, grown, keep = ~c.last_mask
    # One chain of sets a suit, each set from its predecessor's: the four chains depend on one
    # another only through `may`, so they are walked side by side (the processor overlaps them).
    cdef uint64_t l0, l1, l2, l3, o0, o1, o2, o3
    for p in range(c.places):
        if not pl[p]:
            gaps |= (<uint64_t>1) << p
    may = gaps
    while True:
        # A pass up the suits gives every set from its predecessor's and `may`, which takes in
        # at once each place found to be one that may be a gap (the sets and `may` only grow, so
        # this ends, at the least sets): a pass that adds nothing to `may` computed every set
        # from the final `may`.
        grown = may
        o0 = (<uint64_t>1) << where[1]
        o1 = (<uint64_t>1) << where[14]
        o2 = (<uint64_t>1) << where[27]
        o3 = (<uint64_t>1) << where[40]
        l0 = o0 | (c.first_mask & may)
        l1 = o1 | (c.first_mask & may)
        l2 = o2 | (c.first_mask & may)
        l3 = o3 | (c.first_mask & may)
        loc[1] = l0
        loc[14] = l1
        loc[27] = l2
        loc[40] = l3
        may |= (o0 if l0 != o0 else 0) | (o1 if l1 != o1 else 0) | (o2 if l2 != o2 else 0) \
            | (o3 if l3 != o3 else 0)
        for x in range(2, N):
            o0 = (<uint64_t>1) << where[x]
            o1 = (<uint64_t>1) << where[13 + x]
            o2 = (<uint64_t>1) << where[26 + x]
            o3 = (<uint64_t>1) << where[39 + x]
            l0 = o0 | (((l0 & keep) << 1) & may)
            l1 = o1 | (((l1 & keep) << 1) & may)
            l2 = o2 | (((l2 & keep) << 1) & may)
            l3 = o3 | (((l3 & keep) << 1) & may)
            loc[x] = l0
            loc[13 + x] = l1
            loc[26 + x] = l2
            loc[39 + x] = l3
            may |= (o0 if l0 != o0 else 0) | (o1 if l1 != o1 else 0) \
                | (o2 if l2 != o2 else 0) | (o3 if l3 != o3 else 0)
        if grown == may:
            break
    for x in range(52):
        mov[x] = 0
    for t in range(4):
        for x in range(13 * t + 1, 13 * t + N):
            if loc[x] != (<uint64_t>1) << where[x]:
                mov[x] = 1
                nm += 1
    return nm


cdef extern from *:
    int __builtin_popcount(unsigned int) nogil


cdef int places_dead(Ctx *c, const uint64_t *loc) noexcept nogil:
    """1 when no won position fits reach()'s sets: a won position has each suit's card of value
    v in place v - 1 (counted from 1) of one row, the four suits in four rows; so each suit needs
    a row where every card's set holds its place, and the suits distinct rows (Hall's condition
    over the 4 x 4 choices)."""
    cdef int N = c.ranks, t, x, j, m, r, u, k, S
    cdef uint64_t l
    cdef int rows[ROWS]
    for t in range(4):
        m = 15
        for x in range(13 * t + 1, 13 * t + N):
            l = loc[x] >> (value(x) - 2)
            r = 0
            for j in range(ROWS):
                r |= <int>((l >> (j * N)) & 1) << j
            m &= r
        if m == 0:
            return 1
        rows[t] = m
    for S in range(3, 16):
        u = 0
        k = 0
        for t in range(4):
            if S >> t & 1:
                u |= rows[t]
                k += 1
        if k > 1 and __builtin_popcount(<unsigned int>u) < k:
            return 1
    return 0


cdef inline bint no_redeal_left(Ctx *c, const uint64_t *s) noexcept nogil:
    return not c.redeals or used_redeals(c, s) >= c.redeals


cdef inline void read_places(Ctx *c, const uint64_t *s, uint8_t *pl, int *where) noexcept nogil:
    cdef int p
    for p in range(c.places):
        pl[p] = <uint8_t>get(s, p)
        if pl[p]:
            where[pl[p] - 1] = p


cdef void locked_view(Ctx *c, const uint64_t *s) noexcept nogil:
    """c.seen_pl, seen_where and seen_mov for s (read_places, then movable(), or with M_PLACES
    reach(), which fills seen_loc too), kept for the next call on the same position."""
    cdef int i
    if c.seen_valid:
        for i in range(c.words):
            if c.seen[i] != s[i]:
                break
        else:
            return
    read_places(c, s, c.seen_pl, c.seen_where)
    if c.mode >= M_PLACES:
        reach(c, c.seen_pl, c.seen_where, c.seen_mov, c.seen_loc)
    else:
        movable(c, c.seen_pl, c.seen_where, c.seen_mov)
    for i in range(c.words):
        c.seen[i] = s[i]
    c.seen_valid = True


cdef int montana_dead(void *ctx, const uint64_t *s) noexcept nogil:
    """1 when a locked card (not in movable()'s set) stands where no won position has it: off
    its column (a card of value v belongs in column v - 1 of its row, counted from 1) or not
    right of its predecessor (docs/montana.md, "Locked cards"); with M_PLACES, when no won
    position fits reach()'s places (places_dead; docs/montana.md, "Where each card can go").
    Only with no redeal left: a redeal moves every card outside the runs."""
    cdef Ctx *c = <Ctx *>ctx
    cdef int N = c.ranks, p, x, t, k
    cdef const uint8_t *mov
    cdef const int *where
    if not no_redeal_left(c, s):
        return 0
    if c.mode >= M_PLACES:
        locked_view(c, s)
        return places_dead(c, c.seen_loc)
    for k in range(ROWS):
        if get(s, k * N) == 0:
            return 0  # a gap in a first place: every card may move (movable())
    locked_view(c, s)
    mov = c.seen_mov
    where = c.seen_where
    for t in range(4):
        for x in range(13 * t + 1, 13 * t + N):
            if mov[x]:
                break  # M holds every card of the suit above one it holds
            p = where[x]
            if p % N != value(x) - 2:
                return 1
            if value(x) > 2 and where[x - 1] != p - 1:
                return 1
    return 0


cdef inline void t_add(uint8_t *inT, int *stack, int *ns, int id) noexcept nogil:
    if not inT[id]:
        inT[id] = 1
        stack[ns[0]] = id
        ns[0] += 1


cdef inline void t_add_card(Ctx *c, const uint8_t *mov, uint8_t *inT, int *stack, int *ns,
                            int card) noexcept nogil:
    """Adds the moves of `card` that may ever be played: a Two's into each row, another card's
    one move; none for a locked card."""
    cdef int r
    if not mov[card]:
        return
    if value(card) == 2:
        for r in range(ROWS):
            t_add(inT, stack, ns, TWO_IDS + 4 * (card // 13) + r)
    else:
        t_add(inT, stack, ns, card)


cdef int reduce_moves(Ctx *c, const uint64_t *s, uint64_t *out, int n) noexcept nogil:
    """MODE_REDUCED: with no redeal left, keeps of the n moves in out (in their order) only a
    persistent set: the fewest enabled moves of a set closed as below, over each move as its
    seed (docs/montana.md, "Independent moves"). A move's id: a card's own index for a card other
    than a Two, TWO_IDS + 4 suit + row for a Two into a row. Returns how many are kept."""
    cdef int N = c.ranks, i, j, x, y, q, r, ns, ne, best = n + 1, bestseed = -1, card, row
    cdef const uint8_t *pl
    cdef const int *where
    cdef const uint8_t *mov
    cdef uint8_t inT[ALL_IDS]
    cdef uint8_t on[ALL_IDS]
    cdef uint8_t keep[ALL_IDS]
    cdef int ids[ROWS * 4 + 1]
    cdef int stack[ALL_IDS]
    cdef int seed_of[ALL_IDS]    # [id]: the first seed with that id, n + 1 for none
    cdef bint dominated
    if n < 2 or not no_redeal_left(c, s):
        return n
    locked_view(c, s)
    pl = c.seen_pl
    where = c.seen_where
    mov = c.seen_mov
    for x in range(ALL_IDS):
        on[x] = 0
        seed_of[x] = n + 1
    for i in range(n):
        card = __builtin_ctzll(out[i] & CARD_BITS)
        row = <int>(out[i] >> TO_ROW_SHIFT) & 31
        ids[i] = TWO_IDS + 4 * (card // 13) + row - 1 if row else card
        on[ids[i]] = 1
        if seed_of[ids[i]] > i:
            seed_of[ids[i]] = i
    for i in range(n):
        if best == 1:
            break  # no set is smaller
        memset(inT, 0, ALL_IDS)
        ns = 0
        t_add(inT, stack, &ns, ids[i])
        ne = 0
        dominated = False
        while ns and ne < best:
            ns -= 1
            x = stack[ns]
            if on[x] and seed_of[x] < i:
                # The set closed from an earlier seed x lies within this one and has no more
                # enabled moves, and ties keep the earlier seed: this one cannot be kept.
                dominated = True
                break
            if x >= TWO_IDS:
                # a Two into a row
                card = 13 * ((x - TWO_IDS) // 4) + 1
                r = (x - TWO_IDS) % 4
                if on[x]:
                    ne += 1
                    # the same Two into another row, another Two into this row, its Three
                    for j in range(ROWS):
                        t_add(inT, stack, &ns, TWO_IDS + 4 * ((card - 1) // 13) + j)
                        if mov[13 * j + 1]:
                            t_add(inT, stack, &ns, TWO_IDS + 4 * j + r)
                    t_add_card(c, mov, inT, stack, &ns, card + 1)
                else:
                    # the row's first place holds a card: it must move first
                    t_add_card(c, mov, inT, stack, &ns, pl[r * N] - 1)
            elif on[x]:
                ne += 1
                # the moves that do not commute with x's: its predecessor's and successor's
                t_add_card(c, mov, inT, stack, &ns, x - 1)
                if value(x) < N:
                    t_add_card(c, mov, inT, stack, &ns, x + 1)
            else:
                # what must move before x can: its predecessor, or the card right of it
                t_add_card(c, mov, inT, stack, &ns, x - 1)
                q = where[x - 1]
                if not (c.last_mask >> q) & 1:
                    y = pl[q + 1] - 1
                    if y >= 0 and y != x:
                        t_add_card(c, mov, inT, stack, &ns, y)
        if not dominated and ns == 0 and ne < best:
            best = ne
            bestseed = i
            for x in range(ALL_IDS):
                keep[x] = inT[x]
    if bestseed < 0 or best >= n:
        return n
    j = 0
    for i in range(n):
        if keep[ids[i]]:
            out[j] = out[i]
            j += 1
    return j


cdef void setup(Ctx *c, dict spec, int mode) except *:
    cdef int p, N, card
    N = spec.get("ranks", 13)
    if not 4 <= N <= 13:
        raise ValueError(f"ranks is 4..13, not {N}")
    cards = spec["cards"]
    if len(cards) != ROWS * N:
        raise ValueError(f"a deal of ranks={N} has {ROWS * N} cards, not {len(cards)}")
    c.ranks = N
    c.places = ROWS * N
    c.redeals = spec.get("redeals", 0)
    if not 0 <= c.redeals <= MAX_REDEALS:
        raise ValueError(f"redeals is 0..{MAX_REDEALS}, not {c.redeals}")
    c.words = (6 * c.places + 63) // 64 + (1 if c.redeals else 0)
    c.mode = mode
    c.shake = <uint64_t>spec.get("shake", 0)
    c.order = False  # solve() alone reads spec["order"]
    c.seen_valid = False
    c.first_mask = c.last_mask = 0
    for p in range(ROWS):
        c.first_mask |= (<uint64_t>1) << (p * N)
        c.last_mask |= (<uint64_t>1) << (p * N + N - 1)
    for p in range(c.places):
        card = cards[p]
        if not 0 <= card < 52 or value(card) > N:
            raise ValueError(f"card {card!r} is not in a game of ranks={N}")
        c.start[p] = 0 if value(card) == 1 else card + 1
    c.rng = RNG_NONE
    rng = spec.get("rng")
    if rng is not None:
        kind = rng[0]
        if kind in ("seed", "mt"):
            c.rng = RNG_SEED if kind == "seed" else RNG_MT
            state, index = rng[1], rng[2]
            for p in range(624):
                c.mt.mt[p] = state[p]
            c.mt.index = index
            c.mt.fresh = 0
        elif kind == "ms":
            c.rng = RNG_MS
            c.ms_x, c.ms_seed = rng[1], rng[2]
        else:
            raise ValueError(f"unknown generator {kind!r}")
    elif c.redeals:
        raise ValueError("redeals need the deal's generator (spec['rng'])")


cdef void make_game(WideGame *g, Ctx *c, dict spec, int mode) except *:
    setup(c, spec, mode)
    wide_clear(g)
    g.ctx = c
    g.words = c.words
    g.moves = montana_moves
    g.play = montana_play
    g.won = montana_won
    g.max_moves = 4 * 4 + 1    # four gaps, each taking four Twos at most, and the redeal
    if c.mode == M_GROUPS:
        # group_moves: Threes behind three Twos in three rows, three other cards, and the
        # 4! orders of the column a last Two makes
        g.max_moves = MAX_MOVES
    if c.mode >= M_LOCKED:
        g.dead = montana_dead


cdef void start_position(Ctx *c, uint64_t *s) noexcept nogil:
    cdef int p
    for p in range(c.words):
        s[p] = 0
    for p in range(c.places):
        put(s, p, c.start[p])


#: Positions given from Python are checked (engine/contract.py).
CHECKS_POSITIONS = True


cdef int check_position(Ctx *c, object position, uint64_t *s) except -1:
    """Unpack a position given from Python into s, refusing one that is not a placement of
    this game's cards (a place's field indexes the card tables: a stray value would read past
    them)."""
    cdef int p, v, gaps = 0
    cdef uint8_t seen[52]
    int_pos(position, c.words, s)
    for p in range(52):
        seen[p] = 0
    for p in range(c.places):
        v = get(s, p)
        if v == 0:
            gaps += 1
            continue
        if v > 52 or value(v - 1) == 1 or value(v - 1) > c.ranks or seen[v - 1]:
            raise ValueError(f"place {p} holds {v}: not a card of this game, or one seen before")
        seen[v - 1] = 1
    if gaps != ROWS:
        raise ValueError(f"a position has {ROWS} gaps, not {gaps}")
    if used_redeals(c, s) > c.redeals:
        raise ValueError(f"a position with {used_redeals(c, s)} redeals played, of {c.redeals}")
    return 0


def solve(dict spec, str objective, limits, bint certificate):
    """The contract's entry point (solitaire_solver/engine/contract.py); spec as the module
    docstring says. A certificate searches MODE_ALL (closed under every legal move)."""
    cdef Ctx c
    cdef WideGame g
    cdef uint64_t root[8]
    cdef int mode = spec.get("mode", MODE_GROUPS)
    if objective != "decide":
        raise ValueError(f"montana has no objective {objective!r}")
    if mode not in (MODE_ALL, MODE_ORDERED, MODE_LOCKED, MODE_REDUCED, MODE_PLACES, MODE_GROUPS):
        raise ValueError(f"unknown move mode {mode}")
    if certificate:
        mode = MODE_ALL
    make_game(&g, &c, spec, mode)
    # the order of trial of the depth-first search alone: the walks, playouts and beams of the
    # other entry points keep the generator's order
    c.order = bool(spec.get("order", False)) and not certificate
    if spec.get("root") is None:
        start_position(&c, root)
    else:
        wide_root(spec, c.words, root)
        check_position(&c, spec["root"][0], root)
    canonical(&c, root)
    return run_of(*wide_depth_first(&g, root, limits.max_states, limits.max_seconds,
                                    limits.memory_bytes, certificate))


cdef int given(WideGame *g, Ctx *c, dict spec, object position, object aux, int mode,
               uint64_t *s) except -1:
    """The game of the contract's entries below, for a position given from Python (checked,
    unpacked into s)."""
    if aux != 0:
        raise ValueError("a wide core's position is (int, 0)")
    make_game(g, c, spec, mode)
    check_position(c, position, s)
    return 0


def expand(dict spec, object position, object aux=0):
    """The contract's expand() for a wide core: every legal move at the position (one int,
    contract.py) and where it leads, in the order spec["mode"] generates them."""
    cdef Ctx c
    cdef WideGame g
    cdef uint64_t s[8]
    given(&g, &c, spec, position, aux, spec.get("mode", MODE_ALL), s)
    return wide_expand(&g, position)


def step(dict spec, object position, object aux=0):
    """The contract's step(): (won, expand(spec, position, aux)) in one call."""
    cdef Ctx c
    cdef WideGame g
    cdef uint64_t s[8]
    given(&g, &c, spec, position, aux, spec.get("mode", MODE_ALL), s)
    return wide_step(&g, position)


def random_win(dict spec, object position, object aux, long long budget, double max_seconds,
               size_t memory_bytes):
    """The contract's random_win(): the random player's exact chance (engine/_wide.pyx). The
    move graph has cycles (a Two moved between first places and back, docs/difficulty.md):
    where the walk meets one within the budget it says so (status 2) and rating.py solves the
    graph by its components."""
    cdef Ctx c
    cdef WideGame g
    cdef uint64_t s[8]
    given(&g, &c, spec, position, aux, MODE_ALL, s)
    return wide_random_win(&g, s, budget, max_seconds, memory_bytes)


def playouts(dict spec, object position, object aux, long long count, uint64_t seed,
             long long max_moves, double max_seconds=0.0):
    """The contract's playouts(): (wins, lines), how many random lines win, fewer lines
    where max_seconds > 0 runs out (engine/_wide.pyx)."""
    cdef Ctx c
    cdef WideGame g
    cdef uint64_t s[8]
    given(&g, &c, spec, position, aux, MODE_ALL, s)
    return wide_playouts(&g, s, count, seed, max_moves, max_seconds)


def start(dict spec):
    """The dealt position as the contract's int."""
    cdef Ctx c
    cdef uint64_t s[8]
    setup(&c, spec, MODE_ALL)
    start_position(&c, s)
    return as_int(&c, s)


cdef object as_int(Ctx *c, const uint64_t *s):
    """The position s as the contract's int (its words, the first the lowest)."""
    x = 0
    for i in range(c.words - 1, -1, -1):
        x = (x << 64) | s[i]
    return x


#: The tests' switches (tests/test_fuzz.py): the spec keys of this core's search modes.
SEARCH_MODES = ({}, {"mode": MODE_ALL}, {"mode": MODE_ORDERED}, {"mode": MODE_LOCKED},
                {"mode": MODE_REDUCED}, {"mode": MODE_PLACES}, {"mode": MODE_GROUPS})
#: The spec keys that make expand() list a pruned search's moves, and whether those are some of
#: the legal ones: MODE_PLACES's (the default MODE_GROUPS lists a group's moves, which need the
#: Twos arranged first: test_montana.py checks them against whole move graphs).
PRUNED_EXPAND = ({"mode": MODE_PLACES}, True)


def group_key(dict spec, object position):
    """The representative of the position's group under MODE_GROUPS (the position itself
    outside a group; for tests): the first column's Twos in suit order, then its gaps."""
    cdef Ctx c
    cdef uint64_t s[8]
    setup(&c, spec, M_GROUPS)
    check_position(&c, position, s)
    canonical(&c, s)
    return as_int(&c, s)


def dead(dict spec, object position):
    """The search's block test (montana_dead) at a position (the contract's int): with
    spec["mode"] MODE_PLACES (the default) the places relaxation's, True when no won position
    fits the places each card may ever reach; else the locked cards', True when some card that
    can never move again stands where no won position has it."""
    cdef Ctx c
    cdef uint64_t s[8]
    setup(&c, spec, M_PLACES if spec.get("mode", MODE_PLACES) in (MODE_PLACES, MODE_GROUPS)
          else M_LOCKED)
    check_position(&c, position, s)
    return bool(montana_dead(&c, s))


def places(dict spec, object position):
    """reach()'s sets at a position (the contract's int): for each card index, the places it
    may ever stand in, a bit a place (0 for an Ace and for a card the pack lacks)."""
    cdef Ctx c
    cdef uint64_t s[8]
    setup(&c, spec, M_PLACES)
    check_position(&c, position, s)
    memset(c.seen_loc, 0, sizeof(c.seen_loc))  # reach() sets only the pack's cards
    locked_view(&c, s)
    return [c.seen_loc[x] for x in range(52)]


cdef int check_signals() except -1 with gil:
    return PyErr_CheckSignals()


# -- the beam: the best positions of each depth, by a score ----------------------------------------

cdef extern from "stdlib.h":
    void qsort(void *base, size_t n, size_t size, int (*cmp)(const void *, const void *)) nogil


cdef int by_key_down(const void *a, const void *b) noexcept nogil:
    cdef uint64_t x = (<const uint64_t *>a)[0], y = (<const uint64_t *>b)[0]
    return -1 if x > y else (1 if x < y else 0)


cdef inline void heap_swap(uint64_t *hp, long long i, long long j) noexcept nogil:
    # entries of four words: the key, the move, the parent, the slot
    cdef uint64_t t[4]
    memcpy(t, hp + 4 * i, 32)
    memcpy(hp + 4 * i, hp + 4 * j, 32)
    memcpy(hp + 4 * j, t, 32)


cdef inline void heap_sift_down(uint64_t *hp, long long n, long long i) noexcept nogil:
    # a min-heap by the first of each entry's four words
    cdef long long m, l
    while True:
        m = i
        l = 2 * i + 1
        if l < n and hp[4 * l] < hp[4 * m]:
            m = l
        if l + 1 < n and hp[4 * (l + 1)] < hp[4 * m]:
            m = l + 1
        if m == i:
            return
        heap_swap(hp, i, m)
        i = m


cdef inline void heap_push(uint64_t *hp, long long n, uint64_t key, uint64_t move,
                           uint64_t parent, uint64_t slot) noexcept nogil:
    # adds an entry to the heap of n entries (room for it given)
    cdef long long i = n, up
    hp[4 * i] = key
    hp[4 * i + 1] = move
    hp[4 * i + 2] = parent
    hp[4 * i + 3] = slot
    while i > 0:
        up = (i - 1) // 2
        if hp[4 * up] <= hp[4 * i]:
            return
        heap_swap(hp, i, up)
        i = up


cdef inline void heap_replace_min(uint64_t *hp, long long n, uint64_t key, uint64_t move,
                                  uint64_t parent) noexcept nogil:
    # the least entry gives way to a greater key, keeping its slot
    hp[0] = key
    hp[1] = move
    hp[2] = parent
    heap_sift_down(hp, n, 0)


cdef struct Weights:
    int runs      # a card in a row's run from its Two
    int dead      # a gap right of a King: nothing enters it until the King moves
    int open      # a gap that takes a run's next card (right of the run, or a first place
                  # of a row without a Two's run)
    int pairs     # a card right of its predecessor anywhere


#: The search's order of trial with spec["order"]: the first try's first weights.
cdef Weights ORDER_WEIGHTS = Weights(16, 8, 4, 1)


cdef inline long long beam_score(Ctx *c, const uint64_t *s, Weights *wt) noexcept nogil:
    cdef int N = c.ranks, p, r, k, v, runs = 0, dead = 0, opened = 0, pairs = 0
    cdef uint8_t pl[MAXP]
    cdef int run[ROWS]
    for p in range(c.places):
        pl[p] = <uint8_t>get(s, p)
    for r in range(ROWS):
        k = 0
        v = pl[r * N]
        if v and value(v - 1) == 2:
            k = 1
            while k < N and pl[r * N + k] == v + k:
                k += 1
        run[r] = k
        runs += k
    for p in range(c.places):
        v = pl[p]
        if v == 0:
            if p % N == 0:
                opened += 1
            elif pl[p - 1] and value(pl[p - 1] - 1) == N:
                dead += 1
            elif run[p // N] == p % N:
                opened += 1
        elif p % N and pl[p - 1] == v - 1 and value(v - 1) > 2:
            pairs += 1
    return (1 << 20) + wt.runs * runs - wt.dead * dead + wt.open * opened + wt.pairs * pairs


cdef int order_moves(Ctx *c, const uint64_t *s, uint64_t *out, int n) noexcept nogil:
    """With spec["order"], the moves sorted by their child's beam score (ORDER_WEIGHTS), best
    first, ties in the generator's order: the order of trial alone, after the persistent set
    is chosen (docs/montana.md, "The search after the first try")."""
    cdef uint64_t child[8]
    cdef long long key[MAX_MOVES]
    cdef int i
    if not c.order or n < 2:
        return n
    for i in range(n):
        if out[i] == REDEAL_WORD:
            key[i] = 1  # a redeal last: its child is the shuffle's, not a placement to score
            continue
        montana_play(c, s, out[i], child)
        key[i] = -beam_score(c, child, &ORDER_WEIGHTS)
    sort_moves(out, key, n)
    return n


def beam(dict spec, int width, long long max_nodes, double max_seconds, size_t memory_bytes,
         tuple weights=(16, 8, 4, 1)):
    """A first try: a beam search from the deal's start (or spec["root"]). Each round expands
    every kept position by the moves of spec["mode"] (MODE_PLACES by default, so a won position
    stays reachable; MODE_GROUPS keeps a group's representative and plays the group's moves,
    whose line Montana.core_line plays out), skips the positions seen before (a table of full keys) and those the block
    test calls dead, and keeps the `width` best of the new ones by a score (`weights`: per card
    in a row's run, less per gap right of a King, per gap that takes a run's next card, per card
    right of its predecessor); ties by a hash of the position and spec["shake"]. It proves
    nothing when it fails. Returns (path of move words or None, positions expanded, seconds)."""
    cdef Ctx c
    cdef WideGame g
    cdef wtable tt
    cdef Weights wt
    cdef int w, i, nm
    cdef long long nodes = 0, kept = 0, cap, found = -1, ncur = 0, ncand = 0, nnew = 0, j, ci
    cdef long long score
    cdef uint64_t key
    cdef uint64_t *cur = NULL       # the kept positions of this round, and their node numbers
    cdef long long *cur_id = NULL
    cdef uint64_t *cand = NULL      # the best `width` new positions of this round so far
    cdef uint64_t *cand_key = NULL  # their min-heap: key, move, parent, slot in cand
    cdef uint64_t *child
    cdef uint32_t *parents = NULL   # every kept node's parent and move, for the line
    cdef uint64_t *moves_of = NULL
    cdef uint64_t buf[MAX_MOVES]
    cdef uint64_t h
    cdef double t0 = now(), deadline
    cdef int mode = spec.get("mode", MODE_PLACES)
    if mode not in (MODE_ALL, MODE_ORDERED, MODE_LOCKED, MODE_REDUCED, MODE_PLACES, MODE_GROUPS):
        raise ValueError(f"unknown move mode {mode}")
    if width < 1:
        raise ValueError(f"a beam is at least 1 wide, not {width}")
    wt.runs, wt.dead, wt.open, wt.pairs = weights
    make_game(&g, &c, spec, mode)
    w = c.words
    deadline = t0 + max_seconds if max_seconds > 0 else 0.0
    # the table half the memory; the rest the two rounds' best positions and the kept nodes'
    # links (a round's new positions pass through a heap of its best `width`, so a wide beam
    # needs no room for every new position of a round)
    cap = (<long long>(memory_bytes // 2) - width * (w * 8 + 8) - width * (w * 8 + 32)
           - g.max_moves * w * 8) // 12
    if max_nodes > 0 and cap > max_nodes * width:
        cap = max_nodes * width
    if cap < width:
        return None, 0, now() - t0  # the beam does not fit its share of the memory
    if cap > 0xFFFFFFFE:
        cap = 0xFFFFFFFE
    if wt_init(&tt, w, memory_bytes // 2, 0) != 0:
        raise MemoryError("cannot allocate the table")
    cur = <uint64_t *>malloc(width * w * sizeof(uint64_t))
    cur_id = <long long *>malloc(width * sizeof(long long))
    cand = <uint64_t *>malloc((width + g.max_moves) * w * sizeof(uint64_t))
    cand_key = <uint64_t *>malloc(width * 4 * sizeof(uint64_t))
    parents = <uint32_t *>malloc((cap + 1) * sizeof(uint32_t))
    moves_of = <uint64_t *>malloc((cap + 1) * sizeof(uint64_t))
    try:
        if (cur == NULL or cur_id == NULL or cand == NULL or cand_key == NULL or parents == NULL
                or moves_of == NULL):
            raise MemoryError("cannot allocate the beam")
        if not wide_root(spec, w, cur):
            start_position(&c, cur)
        if montana_won(&c, cur):
            return [], 0, now() - t0
        wt_visit(&tt, cur)
        cur_id[0] = 0
        parents[0] = 0
        moves_of[0] = 0
        kept = 1
        ncur = 1
        with nogil:
            while ncur and found < 0:
                ncand = 0
                nnew = 0
                for j in range(ncur):
                    if max_nodes > 0 and nodes >= max_nodes:
                        break
                    if (nodes & 1023) == 0:
                        check_signals()
                        if deadline > 0 and now() > deadline:
                            break
                    nodes += 1
                    nm = montana_moves(&c, cur + j * w, buf)
                    for i in range(nm):
                        # a new position is played into the spare slot after the heap's
                        child = cand + (width + i) * w
                        montana_play(&c, cur + j * w, buf[i], child)
                        if wt_visit(&tt, child):
                            continue
                        if montana_won(&c, child):
                            if kept <= cap:
                                parents[kept] = <uint32_t>cur_id[j]
                                moves_of[kept] = buf[i]
                                found = kept
                            break
                        if g.dead != NULL and g.dead(&c, child):
                            continue
                        score = beam_score(&c, child, &wt)
                        h = c.shake
                        for ci in range(w):
                            h = mix(h ^ child[ci])
                        # the key: the score, then the hash's top byte, then the number of the
                        # new position in the round (no two keys are equal)
                        key = ((<uint64_t>score) << 40) | ((h >> 56) << 32) | <uint64_t>nnew
                        nnew += 1
                        if ncand < width:
                            memcpy(cand + ncand * w, child, w * sizeof(uint64_t))
                            heap_push(cand_key, ncand, key, buf[i], <uint64_t>cur_id[j],
                                      <uint64_t>ncand)
                            ncand += 1
                        elif key > cand_key[0]:
                            # better than the worst kept: it takes that one's slot
                            memcpy(cand + cand_key[3] * w, child, w * sizeof(uint64_t))
                            heap_replace_min(cand_key, ncand, key, buf[i],
                                             <uint64_t>cur_id[j])
                    if found >= 0:
                        break
                if found >= 0 or ncand == 0 or (max_nodes > 0 and nodes >= max_nodes) or (
                        deadline > 0 and now() > deadline):
                    break
                qsort(cand_key, ncand, 4 * sizeof(uint64_t), by_key_down)
                if kept + ncand > cap:
                    break  # the links outgrew their share of the memory
                for j in range(ncand):
                    ci = <long long>cand_key[4 * j + 3]
                    memcpy(cur + j * w, cand + ci * w, w * sizeof(uint64_t))
                    moves_of[kept] = cand_key[4 * j + 1]
                    parents[kept] = <uint32_t>cand_key[4 * j + 2]
                    cur_id[j] = kept
                    kept += 1
                ncur = ncand
        if found < 0:
            return None, nodes, now() - t0
        path = []
        ci = found
        while ci != 0:
            path.append(moves_of[ci])
            ci = parents[ci]
        path.reverse()
        return path, nodes, now() - t0
    finally:
        free(cur)
        free(cur_id)
        free(cand)
        free(cand_key)
        free(parents)
        free(moves_of)
        wt_free(&tt)
