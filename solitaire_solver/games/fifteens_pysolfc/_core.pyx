# cython: language_level=3
"""Core of Fifteens under PySolFC's rules (docs/fifteens.md, "PySolFC"; the reference rules:
solitaire_solver/games/fifteens_pysolfc/rules.py).

A position is kept by card values, not cards: no rule reads a suit, and the sixteen rows are
alike (all the empty ones refill together), so positions that differ only in the suits of cards
of one value, or in the order of the rows, are the same game; the reference rules' key says the
same. What a position holds, by value v:

- lone[v]: rows holding one card of value v;
- the rows holding two cards or more ("piles"): a reserve card dropped back onto a row covers
  the row's top, its partner to 15, so a pile alternates b, 15 - b, b, ... from its bottom b
  (6..9) and is (b, height);
- frozen[v]: the reserve's cards at and under its topmost card of A..5 or T..K: none of them can
  move again before the reserve clears, which depends on their values only, so their order is
  forgotten; free: the 6..9s above, in order (each may go back onto a row);
- k: cards dealt from the pack (the stock's next card is card k of the pack).

Packed: removed = for each value v (1..13), 4 bits at 4 (v - 1) coding (lone[v], frozen[v]) (at
most 4 cards together), and k at bits 52..57; aux = the piles' count (4 bits), each pile in 5
bits ((b - 6) | (height - 2) << 2, ascending), then the free part's length (5 bits) and each of
its values in 2 bits (v - 6), bottom first. Every pile holds two 6..9s or more and the free part
holds 6..9s only, so 5 piles' bits + 2 a free card stay within 40 bits for the sixteen 6..9s:
aux has at most 49 bits. The removed word is not a card set here (the engine reads none: counted
is 0). key_of and position_of turn a packed position into the reference rules' key and back.

A move word is kind << 12 | a << 6 | b, a and b classes of rows: 1..13 the lone cards of that
value, 16 + a pile's 5-bit code. Kinds: PAIR (the tops of a and b, totalling 15, leave), PUSH (the
top of a goes onto the reserve), DROP (the reserve's top goes onto a). Games.fifteens_pysolfc
turns a line of these words into the reference rules' moves (a move whose position has the key
the core's next position has).

Lines can return to a position (a 6 pushed and dropped back onto the 9 it covered), so the game
is cyclic (_engine.pxd): the search's stack is sized from an eighth of the memory budget, and a
line longer than it stops the search at the memory limit.

Pruning (decide, without a certificate; expand lists every legal move; docs/fifteens.md,
"Pruning and sealing", argues each rule, and the spec's switches turn them off for tests):
- dead(): the frozen part can never be part of a clearing set: its cards leave only with the
  whole reserve, which clears only as number cards totalling 15 or exactly T, J, Q, K. So a
  frozen part mixing number and court cards (or Tens), holding two court cards (or Tens) of one
  value, or of number cards totalling 15 or more (15 clears at once when it forms, so a frozen
  part that stays has less) is never emptied, and its cards never leave: no win.
- seal ("seal"): after each move, a free x with no card of value 15 - x in the rows nor above it
  in the reserve never goes back onto a row (nothing is dealt while the reserve holds a card),
  so it and the cards under it join the frozen part: positions differing in their order merge.
- completion ("complete", in dead()): nothing is dealt before the frozen part leaves, so the
  rest of its clearing set must be among the cards in the rows and the free part now.
- groups ("groups", in dead()): every number card leaves in a set totalling 15, so the number
  cards not removed must split into such sets (splits(), memoised over count vectors in SPLIT).
- room ("room", in dead()): a card is dealt only into an empty row with the reserve empty, so
  before each deal the cards in play must fit in fifteen rows (court cards and A..5s one a row);
  relax() plays that relaxed game on value counts, and a position whose relaxed game is lost is
  lost (skipped where court cards cannot crowd ROOM_CROWD rows: a cost choice).
- one set a deal ("turns", with room): between two deals only pairs of 6..9s and one other set
  leave (its A..5s and court cards empty rows, and its clearing refills them: a deal), and the
  deal after it deals a card into each of those rows before anything leaves; turns() plays
  relax()'s game so limited, court cards counted exactly, the reserve's frozen part in the
  first set.
- the bottleneck ("bottleneck", in solve() at the root, not in dead()): where the rows must
  hold twelve court cards when card j is dealt (no T, J, Q, K can form before it), every win
  passes through one of the few positions just after that deal; bottleneck_proof searches each
  (rules 1..6), and none won proves the root lost.
tests/test_fifteens_pysolfc.py checks each against the reference functions (rules.py: sealed,
can_complete, can_split, has_room, has_turns) and the verdicts against the reference search,
which has no pruning; rule 7 by winning lines passing through a listed position and by the
verdicts of the search without it.
"""

from libc.stdint cimport uint64_t
from libc.stdlib cimport calloc, free as c_free
from libc.string cimport memset

from solitaire_solver.engine._engine cimport Game, State, depth_first, depth_first_roots, expand_state, step_state, game_clear

from collections import Counter
from itertools import combinations_with_replacement

from solitaire_solver.engine.contract import CoreRun, run_of

DEF ROWS = 16
DEF MAX_PILES = 8
DEF MAX_FREE = 16
DEF MAX_MOVES = 80

KIND_PAIR = 1
KIND_PUSH = 2
KIND_DROP = 3
DEF K_PAIR = 1
DEF K_PUSH = 2
DEF K_DROP = 3
DEF PILE_CLASS = 16
DEF FRAME_BYTES = 24    # the engine's stack frame: a State and two ints

cdef struct Lay:
    int k
    int lone[14]
    int frozen[14]
    int npiles
    int pb[MAX_PILES]     # bottom value
    int ph[MAX_PILES]     # height, 2 or more
    int nfree
    int free[MAX_FREE]    # values, bottom first

cdef struct Ctx:
    int value[52]         # the value of the card at each pack position
    int seal              # 1: play() seals the reserve's stuck cards (the module doc)
    int complete          # 1: dead() asks that the frozen part can still be completed
    int groups            # 1: dead() asks that the number cards left split into groups of 15
    int room              # 1: dead() asks that every card still to deal can find an empty row
    int turns             # 1: with room, its relaxed game leaves one set of 15 (or T-J-Q-K) a deal
    int crowd             # the room test runs where court cards can hold this many rows
    uint64_t *memo        # room's cache (MEMO_SIZE entries, direct-mapped), or NULL
    long work             # room's work left in the current test
    int rest[53][10]      # rest[k][v]: the cards of value v (1..9) in the pack from card k on

# (lone, frozen) pairs with lone + frozen <= 4, and their 4-bit codes.
cdef int PAIR_CODE[5][5]
cdef int PAIR_LONE[16]
cdef int PAIR_FROZEN[16]


cdef void _pair_tables():
    cdef int a, b, n = 0
    for a in range(5):
        for b in range(5):
            PAIR_CODE[a][b] = -1
            if a + b <= 4:
                PAIR_CODE[a][b] = n
                PAIR_LONE[n] = a
                PAIR_FROZEN[n] = b
                n += 1


_pair_tables()


cdef inline int pile_code(int b, int h) noexcept nogil:
    return (b - 6) | (h - 2) << 2


cdef inline int pile_top(int b, int h) noexcept nogil:
    return b if h & 1 else 15 - b


cdef void decode(const State *s, Lay *L) noexcept nogil:
    cdef int v, i, c, at = 4
    cdef uint64_t a = s.aux
    for v in range(1, 14):
        c = (s.removed >> (4 * (v - 1))) & 15
        L.lone[v] = PAIR_LONE[c]
        L.frozen[v] = PAIR_FROZEN[c]
    L.lone[0] = L.frozen[0] = 0
    L.k = (s.removed >> 52) & 63
    L.npiles = a & 15
    for i in range(L.npiles):
        c = (a >> at) & 31
        at += 5
        L.pb[i] = 6 + (c & 3)
        L.ph[i] = 2 + (c >> 2)
    L.nfree = (a >> at) & 31
    at += 5
    for i in range(L.nfree):
        L.free[i] = 6 + ((a >> at) & 3)
        at += 2


cdef void encode(Lay *L, State *s) noexcept nogil:
    """Packs L (its piles sorted by code first, so equal positions pack equally)."""
    cdef int v, i, j, t, at = 4
    cdef int code[MAX_PILES]
    for i in range(L.npiles):
        code[i] = pile_code(L.pb[i], L.ph[i])
    for i in range(1, L.npiles):
        j = i
        while j > 0 and code[j - 1] > code[j]:
            t = code[j - 1]; code[j - 1] = code[j]; code[j] = t
            j -= 1
    s.removed = 0
    for v in range(1, 14):
        s.removed |= (<uint64_t>PAIR_CODE[L.lone[v]][L.frozen[v]]) << (4 * (v - 1))
    s.removed |= (<uint64_t>L.k) << 52
    s.aux = L.npiles
    for i in range(L.npiles):
        s.aux |= (<uint64_t>code[i]) << at
        at += 5
    s.aux |= (<uint64_t>L.nfree) << at
    at += 5
    for i in range(L.nfree):
        s.aux |= (<uint64_t>(L.free[i] - 6)) << at
        at += 2


cdef inline bint reserve_empty(Lay *L) noexcept nogil:
    cdef int v
    if L.nfree:
        return False
    for v in range(1, 14):
        if L.frozen[v]:
            return False
    return True


cdef void refill(Ctx *c, Lay *L) noexcept nogil:
    """Every empty row takes the next card, while the pack lasts (called with the reserve empty)."""
    cdef int v, used = L.npiles
    for v in range(1, 14):
        used += L.lone[v]
    while used < ROWS and L.k < 52:
        L.lone[c.value[L.k]] += 1
        L.k += 1
        used += 1


cdef bint clears(Lay *L) noexcept nogil:
    """The reserve's cards are number cards totalling 15, or exactly T, J, Q, K."""
    cdef int v, total = 0, courts = 0
    for v in range(10, 14):
        courts += L.frozen[v]
    if courts:
        if courts != 4 or L.nfree:
            return False
        for v in range(1, 14):
            if L.frozen[v] != (1 if v >= 10 else 0):
                return False
        return True
    for v in range(1, 10):
        total += v * L.frozen[v]
    for v in range(L.nfree):
        total += L.free[v]
    return total == 15


cdef inline void settle(Ctx *c, Lay *L) noexcept nogil:
    """PySolFC's fillStack after any move: a clearing reserve leaves, then an empty reserve lets
    the empty rows refill."""
    if not reserve_empty(L) and clears(L):
        memset(L.frozen, 0, sizeof(L.frozen))
        L.nfree = 0
    if reserve_empty(L):
        refill(c, L)


cdef void seal(Lay *L) noexcept nogil:
    """Moves into the frozen part every free card at or under the topmost free x with no card
    of value 15 - x in the rows (at any depth) nor above it in the reserve: none of them can go
    back onto a row again (the module doc's sealing rule)."""
    cdef int have[16]
    cdef int i, j, x, cut = -1
    memset(have, 0, sizeof(have))
    for x in range(6, 10):
        have[x] = L.lone[x]
    for i in range(L.npiles):
        have[L.pb[i]] += (L.ph[i] + 1) >> 1
        have[15 - L.pb[i]] += L.ph[i] >> 1
    for i in range(L.nfree - 1, -1, -1):
        x = L.free[i]
        if not have[15 - x]:
            cut = i
            break
        have[x] += 1
    if cut < 0:
        return
    for i in range(cut + 1):
        L.frozen[L.free[i]] += 1
    j = 0
    for i in range(cut + 1, L.nfree):
        L.free[j] = L.free[i]
        j += 1
    L.nfree = j


cdef inline int class_top(Lay *L, int cls) noexcept nogil:
    cdef int i
    if cls < PILE_CLASS:
        return cls
    for i in range(L.npiles):
        if pile_code(L.pb[i], L.ph[i]) == cls - PILE_CLASS:
            return pile_top(L.pb[i], L.ph[i])
    return 0


cdef int take_top(Lay *L, int cls) noexcept nogil:
    """Takes the top card off a row of the class; returns its value."""
    cdef int i, t
    if cls < PILE_CLASS:
        L.lone[cls] -= 1
        return cls
    for i in range(L.npiles):
        if pile_code(L.pb[i], L.ph[i]) == cls - PILE_CLASS:
            t = pile_top(L.pb[i], L.ph[i])
            L.ph[i] -= 1
            if L.ph[i] == 1:
                L.lone[L.pb[i]] += 1
                L.npiles -= 1
                L.pb[i] = L.pb[L.npiles]
                L.ph[i] = L.ph[L.npiles]
            return t
    return 0


cdef void put_on(Lay *L, int cls) noexcept nogil:
    """Puts the reserve's top card onto a row of the class (whose top is its partner)."""
    cdef int i
    L.nfree -= 1
    if cls < PILE_CLASS:
        L.lone[cls] -= 1
        L.pb[L.npiles] = cls
        L.ph[L.npiles] = 2
        L.npiles += 1
        return
    for i in range(L.npiles):
        if pile_code(L.pb[i], L.ph[i]) == cls - PILE_CLASS:
            L.ph[i] += 1
            return


cdef int row_classes(Lay *L, int *cls, int *top) noexcept nogil:
    """The classes of non-empty rows (each once) and their top values."""
    cdef int v, i, j, code, n = 0
    cdef bint seen
    for v in range(1, 14):
        if L.lone[v]:
            cls[n] = v
            top[n] = v
            n += 1
    for i in range(L.npiles):
        code = pile_code(L.pb[i], L.ph[i])
        seen = False
        for j in range(i):
            if pile_code(L.pb[j], L.ph[j]) == code:
                seen = True
        if not seen:
            cls[n] = PILE_CLASS + code
            top[n] = pile_top(L.pb[i], L.ph[i])
            n += 1
    return n


cdef int push_clears(Lay *L, int x) noexcept nogil:
    """1 when pushing a card of value x clears the reserve: clears() of the reserve with it
    (counted as frozen: the test reads values only, and a court card over free 6..9s fails it
    either way)."""
    cdef int r
    L.frozen[x] += 1
    r = clears(L)
    L.frozen[x] -= 1
    return r


cdef int fp_moves(void *ctx, const State *s, uint64_t *out) noexcept nogil:
    # Order (a search heuristic only; every legal move is listed): pairs, then pushes that
    # clear the reserve, drops back onto a row, the other pushes of 6..9s, the other pushes.
    cdef Lay L
    cdef int cls[32]
    cdef int top[32]
    cdef int i, j, t, n = 0, rnd
    cdef int m
    decode(s, &L)
    m = row_classes(&L, cls, top)
    # Pairs of number cards totalling 15 from two rows (6 + 9, 7 + 8: both 6..9, so each row's
    # bottom is a number card too: a pile's bottom is 6..9).
    for i in range(m):
        for j in range(i + 1, m):
            if 6 <= top[i] <= 9 and top[i] + top[j] == 15:
                out[n] = (<uint64_t>K_PAIR) << 12 | (<uint64_t>cls[i]) << 6 | cls[j]
                n += 1
    for i in range(m):
        if push_clears(&L, top[i]):
            out[n] = (<uint64_t>K_PUSH) << 12 | (<uint64_t>cls[i]) << 6
            n += 1
    if L.nfree:
        t = L.free[L.nfree - 1]
        for i in range(m):
            if top[i] + t == 15:
                out[n] = (<uint64_t>K_DROP) << 12 | (<uint64_t>cls[i]) << 6
                n += 1
    for rnd in range(2):
        for i in range(m):
            if push_clears(&L, top[i]) or (6 <= top[i] <= 9) != (rnd == 0):
                continue
            out[n] = (<uint64_t>K_PUSH) << 12 | (<uint64_t>cls[i]) << 6
            n += 1
    return n


cdef void fp_play(void *ctx, const State *s, uint64_t move, State *out) noexcept nogil:
    cdef Ctx *c = <Ctx *>ctx
    cdef Lay L
    cdef int kind = (move >> 12) & 3
    cdef int a = (move >> 6) & 63
    cdef int b = move & 63
    cdef int x, i
    decode(s, &L)
    if kind == K_PAIR:
        # Both tops are read before either leaves (a pile of one class could be both).
        take_top(&L, a)
        take_top(&L, b)
    elif kind == K_PUSH:
        x = take_top(&L, a)
        if 6 <= x <= 9:
            L.free[L.nfree] = x
            L.nfree += 1
        else:
            for i in range(L.nfree):
                L.frozen[L.free[i]] += 1
            L.nfree = 0
            L.frozen[x] += 1
    else:
        put_on(&L, a)
    settle(c, &L)
    if c.seal:
        seal(&L)
    encode(&L, out)


cdef int fp_won(void *ctx, const State *s) noexcept nogil:
    cdef Lay L
    cdef int v
    decode(s, &L)
    if L.k < 52 or L.npiles or not reserve_empty(&L):
        return 0
    for v in range(1, 14):
        if L.lone[v]:
            return 0
    return 1


cdef inline unsigned sums_to_15(int *have) noexcept nogil:
    """The totals up to 15 that some of the number cards counted in have[1..9] make (bit t)."""
    cdef int v, i
    cdef unsigned reach = 1
    for v in range(1, 10):
        for i in range(have[v]):
            reach |= reach << v
    return reach & 0xFFFF


# Whether number cards, counted by value (a base-5 index of the counts of 1..9), split into groups
# totalling 15, in 2 bits an index: 0 not known yet, 1 no, 2 yes. It depends on the counts
# alone, so one table (under 0.5 MiB) serves every deal.
DEF SPLIT_BYTES = 488282  # 5 ** 9 indexes, four a byte
cdef unsigned char SPLIT[SPLIT_BYTES]
cdef int POW5[10]


cdef void _pow5():
    cdef int v
    POW5[1] = 1
    for v in range(2, 10):
        POW5[v] = POW5[v - 1] * 5


_pow5()


cdef bint splits(int *have, int index) noexcept nogil:
    """Whether the number cards counted in have[1..9] (index: their base-5 index) split into
    groups totalling 15: the lowest card's group is each multiset of the others totalling 15
    with it, tried in turn."""
    cdef int v = 1, known
    cdef bint ok
    if index == 0:
        return True
    known = (SPLIT[index >> 2] >> (2 * (index & 3))) & 3
    if known:
        return known == 2
    while not have[v]:
        v += 1
    have[v] -= 1
    ok = group_with(have, index - POW5[v], v, 15 - v)
    have[v] += 1
    SPLIT[index >> 2] |= (2 if ok else 1) << (2 * (index & 3))
    return ok


cdef bint group_with(int *have, int index, int low, int need) noexcept nogil:
    """Whether some cards of value low or more, totalling need, leave the rest splittable
    (values taken in ascending order, so each multiset once)."""
    cdef int w
    cdef bint ok
    for w in range(low, 10):
        if w > need:
            break
        if not have[w]:
            continue
        have[w] -= 1
        if w == need:
            ok = splits(have, index - POW5[w])
        else:
            ok = group_with(have, index - POW5[w], w, need - w)
        have[w] += 1
        if ok:
            return True
    return False


# The room rule's relaxed game (docs/fifteens.md, "Pruning and sealing", rule 5). Its states,
# before card j is dealt: the number cards in play by value (m[1..9], base-5 index as in SPLIT)
# and the court cards in play beyond the T, J, Q, K quartets they could have made (ct[0..3]). A
# state's answer is cached (2 bits: 1 open, 2 lost) in a direct-mapped table; a test that
# outgrows ROOM_WORK answers "unknown" (not cached), which prunes nothing.
DEF MEMO_SIZE = 1 << 16
DEF ROOM_WORK = 200000
DEF ROOM_CROWD = 9
DEF R_OPEN = 1
DEF R_LOST = 2
DEF R_UNKNOWN = 3


cdef inline int pair_rows(int a, int b) noexcept nogil:
    """The fewest rows holding a cards of value x and b of 15 - x (6..9): a row holds one card,
    or a pile alternating x and 15 - x."""
    if a > b:
        return a - b
    if b > a:
        return b - a
    return 1 if a else 0


cdef inline uint64_t memo_key(int j, int index, int *ct) noexcept nogil:
    """The relaxed games' memo key: the cards dealt, the counts of A..9 (their index) and of T..K
    (rule 6 adds its own bits above bit 38)."""
    return (<uint64_t>j) | (<uint64_t>index) << 6 | (<uint64_t>ct[0]) << 27 | (
        <uint64_t>ct[1]) << 30 | (<uint64_t>ct[2]) << 33 | (<uint64_t>ct[3]) << 36


cdef inline size_t memo_slot(uint64_t key) noexcept nogil:
    return <size_t>((key * <uint64_t>0x9E3779B97F4A7C15) >> 48) & (MEMO_SIZE - 1)


cdef inline int add_card(int x, int *counts, int index, int *courts) noexcept nogil:
    """The relaxed games' step when a card of value x is dealt: a number card to the counts of
    A..9 and their index (base 5), a Ten or court card to the counts of T..K. Returns the index."""
    if x <= 9:
        counts[x] += 1
        return index + POW5[x]
    courts[x - 10] += 1
    return index


cdef int relax(Ctx *c, int j, int *m, int index, int *ct) noexcept nogil:
    """R_LOST if the relaxed game from this state is lost, R_OPEN if not, R_UNKNOWN when the
    work runs out first."""
    cdef uint64_t key, entry
    cdef size_t slot
    cdef int stuck = ct[0] + ct[1] + ct[2] + ct[3], r
    cdef int sub[10]
    if j == 52:
        return R_OPEN if splits(m, index) else R_LOST
    key = memo_key(j, index, ct)
    slot = memo_slot(key)
    entry = c.memo[slot]
    if entry >> 2 == key:
        return <int>(entry & 3)
    if c.work <= 0:
        return R_UNKNOWN
    memset(sub, 0, sizeof(sub))
    r = keep(c, j, m, index, ct, stuck, sub, 9, 0, 0)
    if r != R_UNKNOWN:
        c.memo[slot] = key << 2 | r
    return r


cdef int keep(Ctx *c, int j, int *m, int index, int *ct, int stuck, int *sub, int v, int subindex,
              int rows) noexcept nogil:
    """Chooses sub[v], then the lower values' (most first): the cards kept in the rows before
    card j is dealt, the rest leaving in groups of 15; R_OPEN as soon as one choice is, R_LOST
    if every choice is."""
    cdef int n, r, x, low, i, unknown = 0
    cdef int rest[10]
    cdef int nxt[10]
    cdef int ct2[4]
    if v == 5:
        # sub[6..9] are chosen: their rows.
        rows += pair_rows(sub[6], sub[9]) + pair_rows(sub[7], sub[8])
    if rows + stuck > 15:
        return R_LOST
    if v == 0:
        c.work -= 1
        if c.work < 0:
            return R_UNKNOWN
        for i in range(1, 10):
            rest[i] = m[i] - sub[i]
        if not splits(rest, index - subindex):
            return R_LOST
        for i in range(10):
            nxt[i] = sub[i]
        for i in range(4):
            ct2[i] = ct[i]
        x = c.value[j]
        subindex = add_card(x, nxt, subindex, ct2)
        if x > 9:
            low = ct2[0]
            for i in range(1, 4):
                if ct2[i] < low:
                    low = ct2[i]
            for i in range(4):
                ct2[i] -= low
        return relax(c, j + 1, nxt, subindex, ct2)
    for n in range(m[v], -1, -1):
        sub[v] = n
        r = keep(c, j, m, index, ct, stuck, sub, v - 1, subindex + n * POW5[v],
                 rows + (n if v <= 5 else 0))
        if r == R_OPEN:
            sub[v] = 0
            return R_OPEN
        unknown |= r == R_UNKNOWN
    sub[v] = 0
    return R_UNKNOWN if unknown else R_LOST


# Rule 6 (docs/fifteens.md, "Pruning and sealing"): rule 5's game where between two deals the
# cards that leave are pairs of 6..9s and at most one other set: number cards totalling 15 (with
# an A..5: a set of 6..9s totalling 15 is a pair) or a T, J, Q, K. GROUP lists every multiset of
# number cards totalling 15 (at most four of a value) by counts.
DEF MAX_GROUPS = 128
cdef int NGROUPS = 0
cdef int GROUP[MAX_GROUPS][10]
cdef int GROUP_INDEX[MAX_GROUPS]
cdef int GROUP_SMALL[MAX_GROUPS]


def _groups():
    global NGROUPS
    out = []

    def build(v, left, counts):
        if left == 0:
            out.append(list(counts))
            return
        for w in range(v, min(left, 9) + 1):
            if counts[w] < 4:
                counts[w] += 1
                build(w, left - w, counts)
                counts[w] -= 1

    build(1, 15, [0] * 10)
    assert len(out) <= MAX_GROUPS
    for i, g in enumerate(out):
        GROUP_INDEX[i] = 0
        for v in range(10):
            GROUP[i][v] = g[v]
            if v:
                GROUP_INDEX[i] += g[v] * POW5[v]
        GROUP_SMALL[i] = g[1] + g[2] + g[3] + g[4] + g[5] > 0
    NGROUPS = len(out)


_groups()


cdef int turns(Ctx *c, int j, int *m, int index, int *ct, int *need, int owe) noexcept nogil:
    """Rule 6's relaxed game before card j is dealt (m: the number cards in play by value, index
    their base-5 index; ct: the Tens, Jacks, Queens and Kings in play): R_LOST, R_OPEN, or
    R_UNKNOWN when the work runs out. need: the counts (1..13) of the reserve's frozen part,
    which the set leaving before this deal must hold (the first deal only), or NULL. owe: the
    cards still to deal, after this one, before anything may leave (the rows the last set
    emptied are refilled together)."""
    cdef uint64_t key = 0, entry
    cdef size_t slot = 0
    cdef int left[10]
    cdef int nxt[10]
    cdef int lct[4]
    cdef int nct[4]
    cdef int v, at, gi, p, q, r, rows, small, courts, x, lindex, nindex, emptied, unknown = 0
    cdef bint fits
    if j == 52:
        return R_OPEN if splits(m, index) else R_LOST
    # Rule 4 inside the game: the cards in play and still to come must split into 15s.
    nindex = 0
    for v in range(1, 10):
        nxt[v] = m[v] + c.rest[j][v]
        nindex += nxt[v] * POW5[v]
    if not splits(nxt, nindex):
        return R_LOST
    if need == NULL:
        key = memo_key(j, index, ct) | (<uint64_t>1) << 39 | (<uint64_t>owe) << 40
        slot = memo_slot(key)
        entry = c.memo[slot]
        if entry >> 2 == key:
            return <int>(entry & 3)
    if c.work <= 0:
        return R_UNKNOWN
    # The set that leaves: a T, J, Q, K (-1), GROUP[gi], or none (-2), the most first (an open
    # game is found sooner so); none while cards are owed.
    for at in range(NGROUPS + 1 if owe else 0, NGROUPS + 2):
        gi = at - 1 if at <= NGROUPS else -2
        for v in range(10):
            left[v] = m[v]
        for v in range(4):
            lct[v] = ct[v]
        lindex = index
        emptied = 0
        if gi == -2:
            if need != NULL:
                continue
        elif gi == -1:
            if not (ct[0] and ct[1] and ct[2] and ct[3]):
                continue
            if need != NULL:
                fits = True
                for v in range(1, 10):
                    fits = fits and not need[v]
                for v in range(10, 14):
                    fits = fits and need[v] <= 1
                if not fits:
                    continue
            for v in range(4):
                lct[v] -= 1
            emptied = 4
        else:
            if need == NULL and not GROUP_SMALL[gi]:
                continue
            fits = True
            for v in range(1, 10):
                fits = fits and GROUP[gi][v] <= m[v] and (need == NULL or need[v] <= GROUP[gi][v])
            if need != NULL:
                for v in range(10, 14):
                    fits = fits and not need[v]
            if not fits:
                continue
            for v in range(1, 10):
                left[v] -= GROUP[gi][v]
            lindex -= GROUP_INDEX[gi]
            emptied = GROUP[gi][1] + GROUP[gi][2] + GROUP[gi][3] + GROUP[gi][4] + GROUP[gi][5]
        courts = lct[0] + lct[1] + lct[2] + lct[3]
        small = left[1] + left[2] + left[3] + left[4] + left[5]
        for p in range(min(left[6], left[9]) if not owe else 0, -1, -1):
            for q in range(min(left[7], left[8]) if not owe else 0, -1, -1):
                rows = small + pair_rows(left[6] - p, left[9] - p) + pair_rows(left[7] - q,
                                                                              left[8] - q)
                if rows + courts > 15:
                    continue
                c.work -= 1
                if c.work < 0:
                    return R_UNKNOWN
                for v in range(10):
                    nxt[v] = left[v]
                nxt[6] -= p
                nxt[9] -= p
                nxt[7] -= q
                nxt[8] -= q
                nindex = lindex - p * (POW5[6] + POW5[9]) - q * (POW5[7] + POW5[8])
                for v in range(4):
                    nct[v] = lct[v]
                nindex = add_card(c.value[j], nxt, nindex, nct)
                r = turns(c, j + 1, nxt, nindex, nct, NULL,
                          owe - 1 if owe else (emptied - 1 if emptied else 0))
                if r == R_OPEN:
                    if need == NULL:
                        c.memo[slot] = key << 2 | R_OPEN
                    return R_OPEN
                unknown |= r == R_UNKNOWN
    if unknown:
        return R_UNKNOWN
    if need == NULL:
        c.memo[slot] = key << 2 | R_LOST
    return R_LOST


cdef bint no_room(Ctx *c, Lay *L) noexcept nogil:
    """The room rule: the relaxed game from this position is lost (rule 6's game with turns)."""
    cdef int m[10]
    cdef int ct[4]
    cdef int need[14]
    cdef int exact[4]
    cdef int v, i, j, r, index = 0, low, held = 0
    if L.k >= 52 or not c.room:
        return False
    memset(m, 0, sizeof(m))
    for v in range(1, 10):
        m[v] = L.lone[v] + L.frozen[v]
    for i in range(L.npiles):
        m[L.pb[i]] += (L.ph[i] + 1) >> 1
        m[15 - L.pb[i]] += L.ph[i] >> 1
    for i in range(L.nfree):
        m[L.free[i]] += 1
    for v in range(1, 10):
        index += m[v] * POW5[v]
    low = 4
    for v in range(10, 14):
        ct[v - 10] = L.lone[v] + L.frozen[v]
        if ct[v - 10] < low:
            low = ct[v - 10]
    if c.turns:
        # The frozen part leaves in the first set, before the next deal; a lone 6..9 there might
        # leave in a pair, which need not be that one set: it asks nothing then.
        for v in range(14):
            need[v] = L.frozen[v]
            held += L.frozen[v]
        if held == 1:
            for v in range(6, 10):
                if need[v]:
                    held = 0
    for v in range(4):
        ct[v] -= low
    if not crowded(c, L.k, ct):
        # Where court cards leave most rows free the relaxed game is rarely lost, and playing
        # it costs more than it cuts: the test is skipped (which prunes nothing).
        return False
    if c.memo == NULL:
        c.memo = <uint64_t *>calloc(MEMO_SIZE, sizeof(uint64_t))
        if c.memo == NULL:
            return False
    c.work = ROOM_WORK
    if c.turns:
        for v in range(4):
            exact[v] = ct[v] + low
        r = turns(c, L.k, m, index, exact, need if held else NULL, 0)
        if r != R_UNKNOWN:
            return r == R_LOST
        # Out of work: rule 5's game, which rule 6's refines, may still answer.
        c.work = ROOM_WORK
    return relax(c, L.k, m, index, ct) == R_LOST


cdef bint crowded(Ctx *c, int k, int *ct) noexcept nogil:
    """Whether court cards will hold ROOM_CROWD rows or more before some deal from card k on
    (the fewest they can hold: those in play and dealt, beyond their quartets)."""
    cdef int courts[4]
    cdef int v, j, low, stuck
    for v in range(4):
        courts[v] = ct[v]
    for j in range(k, 52):
        low = courts[0]
        stuck = 0
        for v in range(4):
            stuck += courts[v]
            if courts[v] < low:
                low = courts[v]
        if stuck - 4 * low >= c.crowd:
            return True
        v = c.value[j]
        if v >= 10:
            courts[v - 10] += 1
    return False


cdef int fp_dead(void *ctx, const State *s) noexcept nogil:
    """The frozen part can never leave, or a number card left can be in no group of 15 (the
    module doc's pruning rules)."""
    cdef Ctx *c = <Ctx *>ctx
    cdef Lay L
    cdef int v, i, numbers = 0, total = 0, courts = 0
    cdef int have[14]
    decode(s, &L)
    for v in range(1, 10):
        numbers += L.frozen[v]
        total += v * L.frozen[v]
    for v in range(10, 14):
        courts += L.frozen[v]
        if L.frozen[v] > 1:
            return 1
    if courts:
        if numbers > 0:
            return 1
    elif total >= 15:
        return 1
    if c == NULL:
        return 0
    if c.room and no_room(c, &L):
        return 1
    if not (c.complete or c.groups):
        return 0
    # The cards in the rows and in the reserve's free part.
    for v in range(1, 14):
        have[v] = L.lone[v]
    for i in range(L.npiles):
        have[L.pb[i]] += (L.ph[i] + 1) >> 1
        have[15 - L.pb[i]] += L.ph[i] >> 1
    for i in range(L.nfree):
        have[L.free[i]] += 1
    # Completion: no card is dealt before the frozen part leaves, so the cards that leave with
    # it are in the rows or the reserve's free part now.
    if c.complete and courts:
        for v in range(10, 14):
            if not L.frozen[v] and not have[v]:
                return 1
    elif c.complete and numbers:
        if not (sums_to_15(have) >> (15 - total)) & 1:
            return 1
    if not c.groups:
        return 0
    # Groups: every number card leaves in a group totalling 15 (a pair, or a clearing reserve)
    # made of cards not removed yet: in the rows, the reserve or the pack still to deal.
    i = 0
    for v in range(1, 10):
        have[v] += L.frozen[v] + c.rest[L.k][v]
        i += have[v] * POW5[v]
    return not splits(have, i)


cdef void setup(Ctx *c, object cards) except *:
    cdef int k, v
    if len(cards) != 52:
        raise ValueError("a deal has 52 cards")
    for k in range(52):
        c.value[k] = <int>cards[k] % 13 + 1
    memset(c.rest, 0, sizeof(c.rest))
    for k in range(51, -1, -1):
        for v in range(10):
            c.rest[k][v] = c.rest[k + 1][v]
        if c.value[k] <= 9:
            c.rest[k][c.value[k]] += 1


cdef State start_of(Ctx *c):
    cdef Lay L
    cdef State s
    memset(&L, 0, sizeof(Lay))
    refill(c, &L)
    encode(&L, &s)
    return s


cdef void make_game(Game *g, Ctx *c, object cards, bint prune) except *:
    setup(c, cards)
    c.seal = prune
    c.complete = prune
    c.groups = prune
    c.room = 0
    c.turns = 0
    c.crowd = ROOM_CROWD
    c.memo = NULL
    game_clear(g)
    g.ctx = c
    g.moves = fp_moves
    g.play = fp_play
    g.won = fp_won
    if prune:
        g.dead = fp_dead
    g.max_moves = MAX_MOVES
    g.max_depth = 1000
    g.cyclic = 1


def solve(dict spec, str objective, limits, bint certificate):
    """The contract's entry point (solitaire_solver/engine/contract.py). spec: "cards" (52 card indexes,
    pack order); "root" (removed, aux) when searching from mid-game; the switches of
    SEARCH_MODES; "crowd": the rows court cards must be able to hold for the room test to run
    (ROOM_CROWD; 0 runs it everywhere: for measurements). A certificate searches every legal move
    (no pruning rule), as it must be closed under them; key_of gives its positions in the
    reference rules' keys. Where rule 7 applies (bottleneck_card), a search of "first" positions
    (BOTTLENECK_FIRST; 0: none, for tests) comes first, then rule 7's proof, then, if neither
    decided, the search again with the limits they left; its stats count all of them
    (stats["bottleneck"]: the listed positions rule 7 took). Spec "shared": bottleneck_proof."""
    cdef Ctx c
    cdef State s
    if objective != "decide":
        raise ValueError(f"fifteens-pysolfc has no objective {objective!r}")
    setup(&c, spec["cards"])
    root = spec.get("root")
    if root is not None:
        check_given(&c, root[0], root[1])
    else:
        s = start_of(&c)
        root = (s.removed, s.aux)
    if certificate or not (spec.get("prune", True) and spec.get("bottleneck", True)) or (
            bottleneck_at(&c, root[0], root[1]) < 0):
        return search(spec, limits, certificate)
    spent = {"states": 0, "seconds": 0.0}
    first = spec.get("first", BOTTLENECK_FIRST)
    if first:
        run = search(spec, limits._replace(max_states=min(limits.max_states or first, first)),
                     False)
        if run.status != "limit-states" or limits.max_states and limits.max_states <= first:
            return run
        spent = dict(run.stats)
    proof = bottleneck_proof(spec, root, limits, spent)
    if proof is None:
        spent["bottleneck"] = spent.pop("roots", 0)
        if limits.used_up(spent):
            return CoreRun(limits.used_up(spent), [], spent)
        run = search(spec, limits.less(spent), False)
        run.stats.update(states=run.stats["states"] + spent["states"],
                         seconds=run.stats["seconds"] + spent["seconds"],
                         bottleneck=spent["bottleneck"])
        return run
    return proof


cdef object search(dict spec, limits, bint certificate, list roots=None):
    """The search proper (rules 1..6) from spec's root or the deal's start; with roots
    ([(removed, aux)], no certificate), from each in turn with one table (depth_first_roots):
    the CoreRun of the first not lost, or exhausted when all are."""
    cdef Ctx c
    cdef Game g
    cdef State root
    cdef size_t stack
    make_game(&g, &c, spec["cards"], not certificate and spec.get("prune", True))
    c.seal = c.seal and spec.get("seal", True)
    c.complete = c.complete and spec.get("complete", True)
    c.groups = c.groups and spec.get("groups", True)
    c.room = not certificate and spec.get("prune", True) and spec.get("room", True)
    c.turns = spec.get("turns", True)
    c.crowd = spec.get("crowd", ROOM_CROWD)
    root = start_of(&c)
    if spec.get("root") is not None:
        root.removed, root.aux = spec["root"]
        check_given(&c, root.removed, root.aux)
    # The stack's share of the budget (the module doc: lines may return to a position).
    stack = limits.memory_bytes // 8
    g.max_depth = max(1000, <int>min(stack // (FRAME_BYTES + 8 * MAX_MOVES), 1 << 24))
    # The room rule's cache (allocated when first needed) comes out of the budget; a budget
    # too small for it goes without.
    c.room = c.room and limits.memory_bytes - stack > 4 * MEMO_SIZE * 8
    table = limits.memory_bytes - stack - (MEMO_SIZE * 8 if c.room else 0)
    try:
        if roots is not None:
            for r in roots:
                check_given(&c, r[0], r[1])
            # The path of a win starts at the root it won from: no caller here reads it.
            status, _, path, stats = depth_first_roots(&g, roots, limits.max_states,
                                                       limits.max_seconds, table)
            return run_of(status, path, stats)
        return run_of(*depth_first(&g, root, limits.max_states, limits.max_seconds, table,
                                   certificate))
    finally:
        c_free(c.memo)


# Rule 7 (docs/fifteens.md, "Pruning and sealing"): a bottleneck. While no T, J, Q, K can form
# (one value has no card in play nor dealt yet), every court card stays in its row; where twelve
# do when a card is dealt, at most four rows hold the number cards then, and the positions just
# after that deal are few enough to list and search one by one.
# The court cards the rows must hold when a card is dealt for rule 7 to list the positions
# (a cost choice: twelve leave four rows, whose fillings number a few hundred).
DEF BOTTLENECK_COURTS = 12
#: The positions rule 7's searches may take together; past them it proves nothing and the search
#: proper runs (a cost choice, bounding its cost where a listed position is won or hard).
BOTTLENECK_STATES = 4_000_000
#: The search's positions before rule 7's proof (a cost choice: most deals rule 7 applies to are
#: won, and most wins come within them).
BOTTLENECK_FIRST = 100_000
# A row of number cards: one card, or a pile b, 15 - b, b, ... on a 6..9 (at most eight cards).
ROW_SHAPES = [(v,) for v in range(1, 10)] + [
    tuple(b if i % 2 == 0 else 15 - b for i in range(h)) for b in range(6, 10) for h in range(2, 9)]


def numbers_split(object counts):
    """Whether number cards counted by value (counts[v] for v in 1..9, each at most four) split
    into groups totalling 15 (rule 4's test)."""
    cdef int have[14]
    cdef int v, index = 0
    memset(have, 0, sizeof(have))
    for v in range(1, 10):
        have[v] = counts[v]
        index += have[v] * POW5[v]
    return bool(splits(have, index))


cdef int bottleneck_at(Ctx *c, uint64_t removed, uint64_t aux) noexcept:
    """Rule 7's card at a packed position: the first card (0-based) still to deal when the rows
    must hold BOTTLENECK_COURTS court cards or more, or -1. Court cards are lone rows or frozen."""
    cdef State s
    cdef Lay L
    cdef int v, j, held[14]
    s.removed = removed
    s.aux = aux
    decode(&s, &L)
    for v in range(10, 14):
        held[v] = L.lone[v] + L.frozen[v]
    for j in range(L.k, 52):
        if (held[10] + held[11] + held[12] + held[13] >= BOTTLENECK_COURTS
                and min(held[10], held[11], held[12], held[13]) == 0):
            return j
        if c.value[j] >= 10:
            held[c.value[j]] += 1
    return -1


def bottleneck_card(object cards, uint64_t removed, uint64_t aux):
    """Rule 7 at a packed position: None, or (j, have) for the first card j (0-based) still to
    deal when the rows must hold BOTTLENECK_COURTS court cards or more (have: the values in play
    or dealt before j, counted)."""
    cdef Ctx c
    cdef int j
    setup(&c, cards)
    j = bottleneck_at(&c, removed, aux)
    if j < 0:
        return None
    k, rows, frozen, free = key_of(removed, aux)
    have = (Counter(v for row in rows for v in row) + Counter(frozen) + Counter(free)
            + Counter(c.value[i] for i in range(k, j)))
    return j, have


def bottleneck_roots(object cards, uint64_t removed, uint64_t aux):
    """Rule 7: every packed position that can follow the refill dealing bottleneck_card's card
    j (reserve empty; the court cards in play or dealt before j each in a row; the cards of
    that refill from j on one a row; the number cards in play or dealt before j in the other
    rows, each row one card or a pile; the number cards left splitting into 15s): a line that
    wins passes through one of them. None where bottleneck_card is None."""
    found = bottleneck_card(cards, removed, aux)
    if found is None:
        return None
    j, have = found
    values = [card % 13 + 1 for card in cards]
    courts = [(v,) for v in range(10, 14) for _ in range(have[v])]
    roots = []
    for last in range(j, 52):
        new = values[j:last + 1]
        room = ROWS - len(courts) - len(new)
        if room < 0:
            break
        stock = Counter(v for v in values[last + 1:] if v <= 9) + Counter(v for v in new if v <= 9)
        # Rows are full after a refill but the last, which may leave some empty.
        for size in range(room + 1) if last == 51 else (room,):
            for old in combinations_with_replacement(ROW_SHAPES, size):
                counts = Counter(v for row in old for v in row)
                if any(n > have[v] for v, n in counts.items()):
                    continue
                counts += stock
                if not numbers_split([counts[v] for v in range(10)]):
                    continue
                roots.append(position_of((last + 1, tuple(sorted(
                    courts + [(v,) for v in new] + list(old))), (), ())))
    return roots


def bottleneck_proof(dict spec, object root, limits, dict spent):
    """Rule 7 from root (removed, aux): the CoreRun of a block when every position
    bottleneck_roots lists is lost (searched with rules 1..6: search()), else None. spent (the
    stats of the searches before) adds up theirs (the largest table and depth for those keys),
    spent["roots"] counts the listed positions taken (searched or found stored); they take at
    most BOTTLENECK_STATES positions together, and the limits count spent's too. The listed
    positions share one table (spec "shared", default on; off, each has its own, for
    measurements and tests): a position an earlier one's search stored is lost, since that
    search ended without a win."""
    roots = bottleneck_roots(spec["cards"], *root)
    groups = [roots] if spec.get("shared", True) else [[packed] for packed in roots]
    spent["roots"] = 0
    before = spent["states"]
    for group in groups:
        left = BOTTLENECK_STATES - (spent["states"] - before)
        if limits.max_states:
            left = min(left, limits.max_states - spent["states"])
        if left <= 0:
            return None
        run = search(spec, limits.less(spent)._replace(max_states=left), False, group)
        for key, n in run.stats.items():
            if key in ("table_capacity", "table_bytes", "max_depth"):
                spent[key] = max(spent.get(key, 0), n)
            else:
                spent[key] = spent.get(key, 0) + n
        if run.status != "exhausted":
            return None
    return CoreRun("exhausted", [], dict(spent, bottleneck=spent.pop("roots")))


#: Positions given from Python are checked (engine/contract.py).
CHECKS_POSITIONS = True


cdef int check_given(Ctx *c, uint64_t removed, uint64_t aux) except -1:
    """Refuse a packed position given from Python that is none of this deal's (its counts
    index fixed arrays): the fields in range, key_of's key packing back to it, and no value with
    more than four cards in play and in the stock still to deal (a deal would make a fifth)."""
    cdef int n = aux & 15, i, nfree
    if n > MAX_PILES:
        raise ValueError(f"({removed}, {aux}) is not a packed position of fifteens-pysolfc")
    nfree = (aux >> (4 + 5 * n)) & 31
    # decode() reads the free part's bits up to 9 + 5 n + 2 nfree: past 64 it would shift a word
    # by more than its width.
    if nfree > MAX_FREE or 9 + 5 * n + 2 * nfree > 64 or removed >> 58 or (
            position_of(key_of(removed, aux)) != (removed, aux)):
        raise ValueError(f"({removed}, {aux}) is not a packed position of fifteens-pysolfc")
    k, rows, frozen, free = key_of(removed, aux)
    counts = [0] * 14
    for v in [*(v for row in rows for v in row), *frozen, *free]:
        counts[v] += 1
    for i in range(k, 52):
        counts[c.value[i]] += 1
    if max(counts) > 4:
        raise ValueError(f"({removed}, {aux}) holds more cards of a value than this deal has")
    return 0


# -- the contract's expand, step, random_win and playouts (engine/_entries.pxi) ------------------

ctypedef Ctx CoreCtx


cdef int prepare(Game *g, CoreCtx *c, dict spec, bint listing) except -1:
    """The game of expand and step (listing; what they list: no key: every legal move) and of the walks."""
    make_game(g, c, spec["cards"], False)
    return 0


include "../../engine/_entries.pxi"


def start(object cards):
    """The packed position at the deal's start."""
    cdef Ctx c
    setup(&c, cards)
    s = start_of(&c)
    return s.removed, s.aux


def is_dead(object cards, uint64_t removed, uint64_t aux, bint complete=True,
            bint groups=True, bint room=True, bint turns=True, int crowd=-1):
    """The pruning rules at a packed position of the deal (for tests; complete=False: without
    the completion test, groups=False: without the groups test, room=False: without the room
    test, turns=False: rule 5's relaxed game instead of rule 6's; crowd: as solve()'s spec)."""
    cdef State s
    cdef Ctx c
    setup(&c, cards)
    c.complete = complete
    c.groups = groups
    c.room = room
    c.turns = turns
    c.crowd = ROOM_CROWD if crowd < 0 else crowd
    c.memo = NULL
    s.removed = removed
    s.aux = aux
    try:
        return bool(fp_dead(&c, &s))
    finally:
        c_free(c.memo)


def sealed(uint64_t removed, uint64_t aux):
    """The packed position with its reserve's stuck cards sealed into the frozen part, as the
    search's play() keeps it (for tests and benchmarks)."""
    cdef State s
    cdef Lay L
    s.removed = removed
    s.aux = aux
    decode(&s, &L)
    seal(&L)
    encode(&L, &s)
    return s.removed, s.aux


def key_of(uint64_t removed, uint64_t aux):
    """The reference rules' key of a packed position: (cards dealt, the rows' values sorted,
    the frozen part's values sorted, the free part's values bottom first)."""
    cdef Lay L
    cdef State s
    cdef int v, i, j
    s.removed = removed
    s.aux = aux
    decode(&s, &L)
    rows = []
    for v in range(1, 14):
        rows.extend([(v,)] * L.lone[v])
    for i in range(L.npiles):
        rows.append(tuple(L.pb[i] if j % 2 == 0 else 15 - L.pb[i] for j in range(L.ph[i])))
    frozen = []
    for v in range(1, 14):
        frozen.extend([v] * L.frozen[v])
    return (L.k, tuple(sorted(rows)), tuple(frozen), tuple(L.free[i] for i in range(L.nfree)))


def position_of(key):
    """The packed position of a reference key (key_of's inverse); ValueError for a key that is
    no position of the game."""
    cdef Lay L
    cdef State s
    cdef int v
    memset(&L, 0, sizeof(Lay))
    try:
        k, rows, frozen, free = key
    except (TypeError, ValueError):
        raise ValueError(f"not a position key: {key!r}") from None
    if not 0 <= k <= 52 or len(rows) > ROWS or len(free) > MAX_FREE:
        raise ValueError(f"not a position key: {key!r}")
    for row in rows:
        if len(row) == 1 and 1 <= row[0] <= 13:
            L.lone[row[0]] += 1
        elif (2 <= len(row) <= 9 and 6 <= row[0] <= 9 and L.npiles < MAX_PILES
              and all(x == (row[0] if j % 2 == 0 else 15 - row[0]) for j, x in enumerate(row))):
            L.pb[L.npiles] = row[0]
            L.ph[L.npiles] = len(row)
            L.npiles += 1
        else:
            raise ValueError(f"not a row of fifteens-pysolfc: {row!r}")
    for v in frozen:
        if not 1 <= v <= 13:
            raise ValueError(f"not a card value: {v!r}")
        L.frozen[v] += 1
    for i, v in enumerate(free):
        if not 6 <= v <= 9:
            raise ValueError(f"a card above the reserve's frozen part is 6..9, not {v!r}")
        L.free[i] = v
    L.nfree = len(free)
    counts = [L.lone[v] + L.frozen[v] for v in range(14)]
    for row in rows:
        if len(row) > 1:
            for v in row:
                counts[v] += 1
    for v in free:
        counts[v] += 1
    for v in range(1, 14):
        if counts[v] > 4:
            raise ValueError(f"more than four cards of value {v}")
    L.k = k
    encode(&L, &s)
    return s.removed, s.aux


#: The tests' switches (tests/test_fuzz.py): the spec keys of this core's search modes, each
#: searched on random input beside core_spec's own.
SEARCH_MODES = ({}, {"seal": False}, {"complete": False}, {"groups": False}, {"room": False},
                {"turns": False}, {"bottleneck": False}, {"prune": False})
