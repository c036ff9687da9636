# cython: language_level=3
"""Core of Pyramid (docs/pyramid-search.md; the reference rules are rules.py beside it).

Packed position (one position, one key):
- removed: the bitboard of the removed cards, pyramid and stock alike.
- aux bits 0..4: k, the split of the stock cards left: in dealt order, the cards left before place
  k are the waste (its top is place k-1), those from k on are the stock (its top the first one).
  Drawing, recycling and removing keep the dealt order, so this describes every position. k is
  kept canonical: after a removal it drops to 1 + the place of the highest card left below it (0
  when the waste is empty), so k is fixed by the waste's top card, as in the reference key.
- aux bit 5: a card was removed since the last recycle (or the deal); see RECYCLE below.
- aux bits 6..7: the pass in which the pyramid was cleared (score objective only, else 0).
- aux bits 8..: the pass being played, 0-based (0 with unlimited passes).

RECYCLE. A recycle after which no card was removed since the previous recycle (or the deal) leads
to the position that followed that previous recycle (or the start), with as many passes or fewer
left: it can never help. With unlimited passes it is what makes the move graph acyclic (the
search requires it): (cards removed, bit 5 clear, k) grows lexicographically with every move.
It stays on when a certificate is asked for with unlimited passes, because the position it skips
is an ancestor of the current one, hence already in the certificate; with a finite number of
passes it is switched off then (the certificate must be closed under every legal move).

KINGS. An available King is removed at once, as the only move (not when a certificate is asked
for). Any line L from the position is matched by K then L without the moves of K (its removal and
any draw of it): every card available along L is still available along the new line (a King
covers or hides cards, it pairs with none), the stock and waste keep their order, and the new line
is no longer than L when L removes K. So a win, and the best score, stay reachable. For the
shortest line with goal `pyramid` a stock or waste King need not be removed at all, so then only
pyramid Kings are forced.

ONLY PARTNER (EARLIEST and SHORTEST, see only_partner): two cards available now, one of them a
card that must go whose one partner left is the other, are removed at once, as the only move: the
same exchange, as every winning line removes that pair (not for certificates, nor for the score).

FREE and EARLIEST (the decide searches, see free_moves, earliest_moves and decide): the stock as
an unordered pool with one key per set of removed cards (exact with unlimited passes, a
relaxation with fewer), and removals made at their first moment with (pass, k) as a label that the
engine compares instead of keying on it; FREE plays the moves taking no pyramid card last (POOL,
see free_moves). docs/pyramid-search.md gives the arguments.

DEAD (the dead() rule, switched off for certificates). A non-King pyramid card whose remaining
complements (value 13 minus its own) all lie in its cover cone (they must go before it is
available) or under it (they are not available while it is there) can never leave, nor can a
card with no complement left; the pyramid, and so the deal, can no longer be cleared.
unmatched() generalises it to a matching per class of values, with FROZEN and DIG on the last
pass (the waste is a stack: see dig()), and DEADLOCK (deadlocked()) follows the order in which
pyramid cards can leave, across the classes.

Files: this module holds the context, the moves of real positions (and the dispatch to FREE and
EARLIEST), the DEAD rule, the decide driver and the Python entry points; the searches' own pieces
are included from _pyramid_free.pxi, _pyramid_earliest.pxi, _pyramid_lower.pxi (shortest) and
_pyramid_score.pxi.
"""

from libc.stdint cimport uint64_t
from libc.stdlib cimport calloc, free
from libc.string cimport memset

from solitaire_solver.engine._engine cimport (
    SEARCH_EXHAUSTED, SEARCH_LIMIT_STATES, SEARCH_LIMIT_TIME, SEARCH_WON, Game, State,
    TextEntry, best_first, best_value, depth_first, expand_state, game_clear, step_state,
)
from solitaire_solver.engine._seeded cimport parse_plain
from solitaire_solver.engine.bitboard cimport (
    BB_FULL_PACK, bb_bit, bb_count, bb_lowest, bb_rank, bb_t, bb_value_of,
)

from solitaire_solver.engine.contract import STATUSES, CoreRun, StartLook

from solitaire_solver.moves import word_code

# The single-word moves (solitaire_solver.moves defines every word).
cdef uint64_t DRAW_WORD = word_code("draw")
cdef uint64_t RECYCLE_WORD = word_code("recycle")

cdef enum:
    FORCE_NONE = 0
    FORCE_PYRAMID = 1
    FORCE_ALL = 2

OBJ_DECIDE = 0
OBJ_SHORTEST = 1
OBJ_SCORE = 2

# SHAPES (see pyr_lower): one pyramid shape's part of the lower bound.
cdef struct LowEntry:
    uint64_t key        # the pyramid cards removed, with bit 63 set (0: an empty slot)
    uint64_t packed     # bits 0..6: k + n - M; bits 8 + 4 * (v - 1) ..: need[v], v = 1..12


cdef struct PyrCtx:
    int pyr[28]
    bb_t pyr_bit[28]
    bb_t stock_bit[24]
    int stock[24]
    bb_t cover[28]      # card bits of the two cards covering place p (0 on the bottom row)
    bb_t block[28]      # card bits of the places that can never leave together with p: its
                        # cone and the places under it (OVERLAP: but for those next to it)
    bb_t comp[28]       # card bits of the complements of the card at p (0 for a King)
    bb_t before[28]     # DEADLOCK: card bits that must leave strictly before the card at p:
                        # its cone (OVERLAP: but for the two cards covering it directly)
    int deadlock        # DEADLOCK (see deadlocked()) is on
    int follow          # and its FOLLOW step (see with_followers())
    int taken           # and TAKEN (see hall_ok())
    int taken_start     # TAKEN at the start of decide() (see search())
    int pool            # POOL (see free_moves) is on
    int partner         # ONLY PARTNER (see only_partner) is on
    bb_t stock_comp[24]
    bb_t stock_from[25]  # card bits of the stock places j.. (j = 0..24)
    int where[52]       # place of each card: 0..27 pyramid, 28 + j stock place j
    bb_t stock_all
    bb_t pyr_all
    bb_t goal
    bb_t kings
    bb_t draw_word
    bb_t recycle_word
    int passes          # 0: unlimited
    int pairs           # stock and waste tops may pair
    int force
    int restrict        # the RECYCLE rule is on
    int score           # keep the pass of clearing in aux
    int goal_all
    int overlap         # OVERLAP below: a card may pair with the one card covering it
    int n_overlap       # the candidate overlap pairs of the deal (values totalling 13)
    bb_t ovl_pair[42]   # card bits of the covered card and of its covering card
    bb_t ovl_free[42]   # card bits that must be gone: the other covering card and the covering
                        # card's own two covers
    int free            # FREE below: the stock is an unordered pool, aux stays 0
    int earliest        # EARLIEST below: moves are removals, aux is the label pass * 32 + k
    int dig             # DIG (see dig()) is on
    bb_t compat[52]     # per card: the cards it is compatible with (see unmatched), but for the
                        # last pass's parts (the waste, FROZEN)
    int sval[24]        # the value of the card at each stock place
    LowEntry *lows      # SHAPES (pyr_lower), goal pyramid, shortest only; else NULL
    int n_lows
    uint64_t hint[52]   # HINT (see decide): per card, the removal of FREE's line taking it, or 0
    int hint_states     # HINT's budget in positions (0: no HINT try)


cdef inline int stock_top(PyrCtx *c, bb_t removed, int k) noexcept nogil:
    while k < 24 and (removed & c.stock_bit[k]):
        k += 1
    return k if k < 24 else -1


cdef inline bb_t available_pyramid(PyrCtx *c, bb_t removed) noexcept nogil:
    cdef bb_t out = 0
    cdef int p
    for p in range(28):
        if not (removed & c.pyr_bit[p]) and not (c.cover[p] & ~removed):
            out |= c.pyr_bit[p]
    return out


cdef inline bb_t tops(PyrCtx *c, int st, int k) noexcept nogil:
    """The stock top (place st, -1 for none) and the waste top (place k - 1), as bits."""
    cdef bb_t sw = 0
    if st >= 0:
        sw |= c.stock_bit[st]
    if k > 0:
        sw |= c.stock_bit[k - 1]
    return sw


cdef inline int complement_pairs(bb_t x, bb_t avail, uint64_t *out, int n) noexcept nogil:
    """Appends the pairs of cards of x totalling 13 with at least one card of avail, Aces and
    Queens first (x: the cards that could take part, avail: the pyramid's available ones)."""
    cdef bb_t a, b, bb
    cdef int v
    for v in range(1, 7):
        a = x & bb_rank(v)
        b = x & bb_rank(13 - v)
        if not ((a | b) & avail):
            continue
        while a:
            # a card not available itself pairs only with available ones
            bb = b if (a & -a) & avail else b & avail
            while bb:
                out[n] = (a & -a) | (bb & -bb)
                n += 1
                bb &= bb - 1
            a &= a - 1
    return n


cdef inline int stock_pairs(PyrCtx *c, bb_t removed, uint64_t *out, int n) noexcept nogil:
    """Appends the pairs of stock cards left totalling 13 with none left between them in dealt
    order (FREE, EARLIEST: the ones that can be the waste and stock tops together)."""
    cdef int j, prev = -1
    if not c.pairs:
        return n
    for j in range(24):
        if removed & c.stock_bit[j]:
            continue
        if prev >= 0 and bb_value_of(c.stock[j]) + bb_value_of(c.stock[prev]) == 13:
            out[n] = c.stock_bit[j] | c.stock_bit[prev]
            n += 1
        prev = j
    return n


cdef inline int singles(bb_t cards, uint64_t *out, int n) noexcept nogil:
    """Appends one move per card (Kings, removed alone)."""
    while cards:
        out[n] = cards & -cards
        n += 1
        cards &= cards - 1
    return n


cdef inline int overlap_pairs(PyrCtx *c, bb_t removed, uint64_t *out, int n) noexcept nogil:
    """OVERLAP (variant overlap_pairs): appends the pairs of a pyramid card and the one card
    still covering it, that card being available itself, when their values total 13."""
    cdef int i
    for i in range(c.n_overlap):
        if not (removed & c.ovl_pair[i]) and (c.ovl_free[i] & ~removed) == 0:
            out[n] = c.ovl_pair[i]
            n += 1
    return n


include "_free.pxi"
include "_earliest.pxi"


cdef int pyr_moves(void *ctx, const State *s, uint64_t *out) noexcept nogil:
    cdef PyrCtx *c = <PyrCtx *>ctx
    if c.free:
        return free_moves(c, s, out)
    if c.earliest:
        return earliest_moves(c, s, out)
    cdef bb_t removed = s.removed
    cdef int k = s.aux & 31
    cdef int flag = (s.aux >> 5) & 1
    cdef int pass_no = <int>(s.aux >> 8)
    cdef int st = stock_top(c, removed, k)
    cdef bb_t avail = available_pyramid(c, removed)
    cdef bb_t sw = tops(c, st, k), x, kings, a
    cdef int n
    if c.force != FORCE_NONE:
        kings = avail & c.kings
        if c.force == FORCE_ALL:
            kings |= sw & c.kings
        if kings:
            out[0] = kings & -kings
            return 1
    x = avail | sw
    # Move order (the search's only heuristic): pairs with a pyramid card first, as they clear
    # the pyramid, then the pair of the stock and waste tops, then Kings, then draw or recycle.
    n = complement_pairs(x, avail, out, 0)
    n = overlap_pairs(c, removed, out, n)
    if c.pairs and bb_count(sw) == 2:
        a = sw & (sw - 1)
        if bb_value_of(bb_lowest(a)) + bb_value_of(bb_lowest(sw & -sw)) == 13:
            out[n] = sw
            n += 1
    n = singles(x & c.kings, out, n)
    if st >= 0:
        out[n] = c.draw_word
        n += 1
    elif k > 0 and (c.passes == 0 or pass_no < c.passes - 1) and (flag or not c.restrict):
        out[n] = c.recycle_word
        n += 1
    return n


cdef void pyr_play(void *ctx, const State *s, uint64_t move, State *out) noexcept nogil:
    cdef PyrCtx *c = <PyrCtx *>ctx
    cdef bb_t removed = s.removed
    cdef int k = s.aux & 31
    cdef uint64_t flag = (s.aux >> 5) & 1
    if c.free:
        out.removed = removed | move
        out.aux = 0
        return
    if c.earliest:
        earliest_play(c, s, move, out)
        return
    cdef uint64_t cleared = (s.aux >> 6) & 3
    cdef uint64_t pass_no = s.aux >> 8
    if move == c.draw_word:
        k = stock_top(c, removed, k) + 1
    elif move == c.recycle_word:
        k = 0
        flag = 0
        if c.passes:
            pass_no += 1
    else:
        removed |= move
        flag = 1
        while k > 0 and (removed & c.stock_bit[k - 1]):
            k -= 1
        if c.score and cleared == 0 and (removed & c.pyr_all) == c.pyr_all:
            cleared = pass_no + 1
    out.removed = removed
    out.aux = <uint64_t>k | (flag << 5) | (cleared << 6) | (pass_no << 8)


cdef int pyr_won(void *ctx, const State *s) noexcept nogil:
    cdef PyrCtx *c = <PyrCtx *>ctx
    if c.free and c.pool and c.goal_all:
        # POOL (free_moves): the stock's own moves come last
        if (s.removed & c.pyr_all) != c.pyr_all:
            return 0
        return stock_clears(c, s.removed, NULL, NULL)
    return (s.removed & c.goal) == c.goal


cdef int pyr_dead(void *ctx, const State *s) noexcept nogil:
    return unmatched(<PyrCtx *>ctx, s, (<PyrCtx *>ctx).goal_all)


cdef inline int pass_of(PyrCtx *c, const State *s) noexcept nogil:
    return <int>(s.aux >> 5) if c.earliest else <int>(s.aux >> 8)


cdef inline bint hall_ok(PyrCtx *c, bb_t left, bb_t right, bb_t must, bb_t waste,
                         bb_t frozen, bb_t *held) noexcept nogil:
    """Hall's condition for the cards of left that must go (at most four): every set S of them
    has at least |S| partners in right they are compatible with (see unmatched).

    TAKEN, on the way (c.taken): a set S with exactly |S| partners, N(S), leaves with all of
    them in a win (each card of S takes its own), so no other card of left leaves with a card
    of N(S). A pyramid card of left whose stock and waste partners all lie in such sets' N(S)
    (S without it) can leave only with a pyramid card: it is added to held, and DEADLOCK takes
    it as waiting (deadlocked()). Deck 394 of the vectors: 4S and 4D can meet only the stock's
    Nines, 9H and 9S, so 4C waits on 9C. Sound because nb[] holds every partner a card could
    still leave with (only FROZEN cards and the last pass's waste-waste pairs are left out, and
    neither can ever pair) and must holds only cards that must go (on the last pass with DIG's:
    there TAKEN is as sound as FROZEN and DIG; docs/pyramid-search.md)."""
    cdef bb_t nb[4]
    cdef bb_t bits[4]
    cdef bb_t shut[4]
    cdef bb_t x, u
    cdef int n = 0, req = 0, fewest = 5, size, sub, i, count
    while left:
        x = left & -left
        if x & frozen:
            u = 0
        else:
            u = c.compat[bb_lowest(left)] & right & ~frozen
            if x & waste:
                u &= ~waste
        if x & must:
            req |= 1 << n
            size = bb_count(u)
            if size < fewest:
                fewest = size
        nb[n] = u
        bits[n] = x
        shut[n] = 0
        n += 1
        left &= left - 1
    if req == 0:
        return 1
    if fewest == 0:
        return 0
    # Every required card with as many partners as there are required cards: Hall holds, and no
    # set short of them all is tight.
    if fewest >= bb_count(<bb_t>req):
        return 1
    sub = req
    while sub:
        u = 0
        size = 0
        for i in range(n):
            if sub & (1 << i):
                u |= nb[i]
                size += 1
        count = bb_count(u)
        if count < size:
            return 0
        if count == size and c.taken:
            for i in range(n):
                if not (sub & (1 << i)):
                    shut[i] |= u
        sub = (sub - 1) & req
    if c.taken:
        for i in range(n):
            u = nb[i] & c.stock_all
            if bits[i] & c.pyr_all and u and not (u & ~shut[i]):
                held[0] |= bits[i]
    return 1


cdef int unmatched(PyrCtx *c, const State *s, bint need_all) noexcept nogil:
    """MATCHING: every removal of a card of value v (v = 1..6) takes a card of value 13 - v with
    it, and the two must be available together. So the cards that must still go (the pyramid's,
    and with goal `all` the stock's and waste's too) of the class {v, 13 - v} must be matched
    to distinct partners they are compatible with: two pyramid cards are not when one lies in
    the other's cone (DEAD above); two stock or waste cards are not when stock-waste pairs are
    off, nor on the last pass when both are already in the waste (no recycle will bring one back
    to the stock, and only the waste's top is available there). Pyramid cards and stock cards
    count as compatible (c.compat holds the relation but for the last pass's parts). A required
    set that fails Hall's condition on either side cannot be matched, and by the
    Mendelsohn-Dulmage theorem matchings covering each side's required cards combine, so the
    test is exactly "no matching covers them". A single card with no compatible partner left
    is the DEAD card of the issue. need_all: the stock's and waste's cards must go too. On the
    last pass with goal `pyramid`, FROZEN waste cards pair with nothing and DIG adds the waste
    cards that must go."""
    cdef bb_t removed = s.removed
    cdef int v
    cdef bint last = c.passes != 0 and not c.free and pass_of(c, s) == c.passes - 1
    cdef int k = s.aux & 31
    cdef bb_t waste = 0, frozen = 0, left, right
    cdef bb_t held = 0  # TAKEN (see hall_ok): pyramid cards left to wait on pyramid cards
    cdef bb_t must = BB_FULL_PACK if need_all else c.pyr_all
    if last:
        waste = c.stock_all & ~c.stock_from[k] & ~removed
        # With goal `all` a frozen card is itself a card that must go and has no partner, which
        # the matching already finds; only goal `pyramid` gains from FROZEN and DIG.
        if not need_all:
            frozen = c.stock_all & ~c.stock_from[frozen_below(c, removed, k)]
            if c.dig:
                must |= dig(c, removed, c.stock_from[k] & ~removed, waste & ~frozen)
    for v in range(1, 7):
        left = bb_rank(v) & ~removed
        right = bb_rank(13 - v) & ~removed
        if not ((left | right) & must):
            continue
        if (not hall_ok(c, left, right, must, waste, frozen, &held)
                or not hall_ok(c, right, left, must, waste, frozen, &held)):
            return 1
    return c.deadlock and deadlocked(c, removed, held)


cdef inline bb_t through_waiting(PyrCtx *c, bb_t cards, bb_t waiting, const signed char *at,
                                 const bb_t *pre) noexcept nogil:
    """cards with, for each waiting card among them, the cards known to leave before it
    (transitivity, see deadlocked)."""
    cdef bb_t w = cards & waiting
    while w:
        cards |= pre[at[c.where[bb_lowest(w)]]]
        w &= w - 1
    return cards


cdef inline bb_t closure(PyrCtx *c, int q, bb_t left, bb_t waiting, const signed char *at,
                         const bb_t *pre, const bb_t *cand, const int *xs, int m) noexcept nogil:
    """The cards known to leave strictly before the card at place q (see deadlocked)."""
    if at[q] >= 0:
        return pre[at[q]]
    return with_followers(c, through_waiting(c, c.before[q] & left, waiting, at, pre), waiting,
                          at, pre, cand, xs, m)


cdef inline bb_t with_followers(PyrCtx *c, bb_t cards, bb_t waiting, const signed char *at,
                                const bb_t *pre, const bb_t *cand, const int *xs,
                                int m) noexcept nogil:
    """FOLLOW: cards, the cards known to leave strictly before some card Z, with each waiting
    card whose partners that can still pair with it (cand) all lie in cards: it leaves together
    with one of them, so before Z too (and so does every card before it). The facts only grow,
    so the rounds end. (A card with no such partner never leaves: deadlocked() returns 1 at its
    turn, whatever was added here.)"""
    cdef int j, grew = c.follow
    while grew:
        grew = 0
        for j in range(m):
            if not (cand[j] & ~cards) and not (cards & c.pyr_bit[xs[j]]):
                cards = through_waiting(c, cards | c.pyr_bit[xs[j]] | pre[j], waiting, at, pre)
                grew = 1
    return cards


cdef int deadlocked(PyrCtx *c, bb_t removed, bb_t held) noexcept nogil:
    """DEADLOCK: pyramid cards that wait on each other. Facts "a leaves strictly before b", for
    pyramid cards left (all of them must go in a win, with either goal):
    - a lies in b's cone (OVERLAP: not one of the two cards covering b directly: b may leave
      with one of those, but the cones of both, and the other one, must be gone first);
    - transitivity;
    - b leaves together with a partner, so when no stock or waste card left can be b's
      partner (b is WAITING; an optimistic reading of the stock: any stock or waste card
      counts), or when those left are all taken by other cards (TAKEN: held, from hall_ok()),
      b leaves with a pyramid partner y, and whatever leaves strictly before every
      such y leaves strictly before b. A partner y with y before b, or b before y, cannot pair
      with b;
    - FOLLOW, the same the other way: b leaves strictly before whatever every such y leaves
      strictly before (with_followers; deck 1120 of the vectors: 2S covers 3H, and JD can
      leave only with 2S, so JD leaves before 3H; TS covers JD, so TS leaves before 3H, the
      only Ten 3H can meet).
    A card that must leave before itself, or that has no partner left that can pair with it,
    never leaves: the position cannot be won. The facts only grow, so the rounds end (most
    positions settle in one or two), at the least set of facts the four rules give. MATCHING
    sees each class {v, 13 - v} alone; this follows the order of leaving across the classes (a
    Six whose only Seven is covered by a Six whose Sevens are all covered by the first: seed
    64, docs/pyramid-search.md)."""
    cdef bb_t left = c.pyr_all & ~removed
    cdef bb_t pool = c.stock_all & ~removed
    cdef bb_t waiting = 0, cards, cands, inter, y, new
    cdef signed char at[28]
    cdef int xs[28]
    cdef bb_t pre[28]
    cdef bb_t cand[28]  # per waiting card: its partners that can still pair with it
    cdef bb_t paired
    cdef int m = 0, i, p, changed = 1
    cdef int v
    # the values whose partners are all gone from the stock and the waste
    for v in range(1, 13):
        if not (bb_rank(13 - v) & pool):
            waiting |= bb_rank(v)
    waiting = (waiting | held) & left
    # A single waiting card gains nothing over MATCHING: its pyramid partners' facts are their
    # cones alone, and a partner in its cone, or whose cone holds it, MATCHING sets apart.
    if bb_count(waiting) < 2:
        return 0
    memset(at, -1, sizeof(at))
    cards = waiting
    while cards:
        p = c.where[bb_lowest(cards)]
        cards &= cards - 1
        at[p] = m
        xs[m] = p
        pre[m] = c.before[p] & left
        m += 1
    for i in range(m):
        cand[i] = c.comp[xs[i]] & left & ~pre[i]
    while changed:
        changed = 0
        for i in range(m):
            p = xs[i]
            # (a partner set apart in an earlier round stays apart: the facts only grow)
            cands = cand[i] & ~pre[i]
            inter = ~(<bb_t>0)
            paired = 0
            while cands:
                y = cands & -cands
                cands &= cands - 1
                new = closure(c, c.where[bb_lowest(y)], left, waiting, at, pre, cand, xs, m)
                if new & c.pyr_bit[p]:
                    continue
                inter &= new
                paired |= y
            if not paired:
                return 1
            cand[i] = paired
            new = with_followers(c, through_waiting(c, pre[i] | inter, waiting, at, pre),
                                 waiting, at, pre, cand, xs, m)
            if new & c.pyr_bit[p]:
                return 1
            if new != pre[i]:
                pre[i] = new
                changed = 1
    return 0


cdef inline bb_t dig(PyrCtx *c, bb_t removed, bb_t stock, bb_t waste) noexcept nogil:
    """DIG (last pass, goal pyramid). A waste card leaves only as the waste top, so before one is
    used every waste card above it must leave. A pyramid card whose partners left are all waste
    cards (none in the pyramid it could meet, none in the stock; FROZEN ones excluded: they
    never come up) leaves with one of them, at or below the highest: every waste card above
    that one must go. Returns those cards (the union over such pyramid cards: the waste cards
    above the lowest such highest partner) for the matching to require. stock, waste: the
    stock's cards left and the waste's cards left but the FROZEN ones."""
    cdef int p, h, lowest = 24
    cdef bb_t partners
    cdef bb_t left = c.pyr_all & ~removed & ~c.kings
    while left:
        p = c.where[bb_lowest(left)]
        left &= left - 1
        partners = c.comp[p] & ~removed
        if partners & ((c.pyr_all & ~c.block[p]) | stock):
            continue
        partners &= waste
        if partners:  # (none at all: the matching finds it)
            h = highest_place(c, partners)
            if h < lowest:
                lowest = h
    return waste & c.stock_from[lowest + 1] if lowest < 24 else 0


cdef inline int highest_place(PyrCtx *c, bb_t cards) noexcept nogil:
    """The highest stock place (dealt order) of some stock cards."""
    cdef int h = -1, j
    while cards:
        j = c.where[bb_lowest(cards)] - 28
        if j > h:
            h = j
        cards &= cards - 1
    return h


cdef inline int frozen_below(PyrCtx *c, bb_t removed, int k) noexcept nogil:
    """FROZEN (last pass). A waste card leaves only as the waste top, so only with a pyramid
    card or the stock top (the other waste cards are under it, or gone before it is the top).
    A non-King waste card with no complement left in the pyramid or the stock never leaves, and
    the waste cards under it never come up: returns the place below which the waste is frozen
    (0 when none is)."""
    cdef int v
    cdef bb_t live = (c.pyr_all | c.stock_from[k]) & ~removed, freezers = 0
    # the waste cards of a value (not a King) whose complements are all gone from live
    for v in range(1, 13):
        if not (bb_rank(13 - v) & live):
            freezers |= bb_rank(v)
    freezers &= c.stock_all & ~c.stock_from[k] & ~removed
    return highest_place(c, freezers) if freezers else 0


cdef inline bint compatible(PyrCtx *c, int a, int b, bint last, int k, int floor) noexcept nogil:
    """Whether the cards at places a and b (0..27 pyramid, 28..51 stock in dealt order) may ever
    be available together (an optimistic answer is safe). On the last pass, k is the split and
    the waste places below floor are FROZEN (see frozen_below): they pair with nothing."""
    if last and ((28 <= a < 28 + floor) or (28 <= b < 28 + floor)):
        return 0
    if a < 28 and b < 28:
        return not (c.block[a] & c.pyr_bit[b])
    if a < 28 or b < 28:
        return 1
    if not c.pairs:
        return 0
    if last and a - 28 < k and b - 28 < k:
        return 0
    return 1


include "_lower.pxi"
include "_score.pxi"


# The shape of the pyramid, the same for every deal (built once: setup() runs per solve call):
# ROW_OF[p] is the 0-based row of place p, BLOCK_PLACES[p] the places in its cone or under it,
# CONE_PLACES[p] those in its cone (the places covering it, directly or not).
cdef int ROW_OF[28]
cdef uint64_t BLOCK_PLACES[28]
cdef uint64_t CONE_PLACES[28]
# APART_PLACES[overlap][p]: the places whose card can never be available together with p's (one
# covers the other, unless overlap_pairs lets p pair with a card covering it directly):
# rules.pyramid.apart, which the tests hold equal (games/pyramid.py keeps its own table).
cdef uint64_t APART_PLACES[2][28]


cdef void shape_tables() noexcept:
    cdef uint64_t cone[28]
    cdef int p, q, r, i
    p = 0
    for r in range(7):
        for i in range(r + 1):
            ROW_OF[p] = r
            p += 1
    for p in range(27, -1, -1):
        cone[p] = 0
        r = ROW_OF[p]
        if r < 6:
            for q in (p + r + 1, p + r + 2):
                cone[p] |= (<uint64_t>1 << q) | cone[q]
    for p in range(28):
        CONE_PLACES[p] = cone[p]
        BLOCK_PLACES[p] = cone[p]
        for q in range(28):
            if cone[q] & (<uint64_t>1 << p):
                BLOCK_PLACES[p] |= <uint64_t>1 << q
    for p in range(28):
        APART_PLACES[0][p] = APART_PLACES[1][p] = BLOCK_PLACES[p]
    for p in range(28):
        r = ROW_OF[p]
        if r < 6:
            for q in (p + r + 1, p + r + 2):
                APART_PLACES[1][p] &= ~(<uint64_t>1 << q)
                APART_PLACES[1][q] &= ~(<uint64_t>1 << p)


shape_tables()


cdef void setup(PyrCtx *c, object cards, int passes, bint goal_all, bint pairs, bint overlap,
                int force, bint restrict, bint score) except *:
    cdef int p, q, r, i, j, v
    cdef int card[52]
    cdef uint64_t places
    if len(cards) != 52:
        raise ValueError(f"a Pyramid deal has 52 cards, not {len(cards)}")
    for p in range(52):
        card[p] = cards[p]
    c.pyr_all = 0
    c.stock_all = 0
    for p in range(28):
        c.pyr[p] = card[p]
        c.pyr_bit[p] = bb_bit(card[p])
        c.where[card[p]] = p
        c.pyr_all |= c.pyr_bit[p]
    for p in range(28):
        r = ROW_OF[p]
        c.cover[p] = 0
        if r < 6:
            c.cover[p] = c.pyr_bit[p + r + 1] | c.pyr_bit[p + r + 2]
        c.before[p] = 0
        places = CONE_PLACES[p]
        while places:
            c.before[p] |= c.pyr_bit[bb_lowest(places)]
            places &= places - 1
        c.block[p] = 0
        places = BLOCK_PLACES[p]
        while places:
            c.block[p] |= c.pyr_bit[bb_lowest(places)]
            places &= places - 1
        v = card[p] % 13 + 1
        c.comp[p] = bb_rank(13 - v) if v != 13 else 0
    c.overlap = overlap
    c.n_overlap = 0
    if overlap:
        for p in range(21):
            r = ROW_OF[p]
            for q, other in ((p + r + 1, p + r + 2), (p + r + 2, p + r + 1)):
                # q and p are next to each other: they may leave together
                c.block[p] &= ~c.pyr_bit[q]
                c.block[q] &= ~c.pyr_bit[p]
                c.before[p] &= ~c.pyr_bit[q]
                if card[p] % 13 + card[q] % 13 + 2 == 13:
                    c.ovl_pair[c.n_overlap] = c.pyr_bit[p] | c.pyr_bit[q]
                    c.ovl_free[c.n_overlap] = c.pyr_bit[other] | c.cover[q]
                    c.n_overlap += 1
    c.stock_from[24] = 0
    for j in range(23, -1, -1):
        c.stock_from[j] = c.stock_from[j + 1] | bb_bit(card[28 + j])
    for j in range(24):
        c.stock_bit[j] = bb_bit(card[28 + j])
        c.stock[j] = card[28 + j]
        c.where[card[28 + j]] = 28 + j
        c.stock_all |= c.stock_bit[j]
        v = card[28 + j] % 13 + 1
        c.stock_comp[j] = bb_rank(13 - v) if v != 13 else 0
    c.goal_all = goal_all
    c.goal = BB_FULL_PACK if goal_all else c.pyr_all
    c.kings = bb_rank(13)
    c.draw_word = DRAW_WORD
    c.recycle_word = RECYCLE_WORD
    c.passes = passes
    c.pairs = pairs
    c.force = force
    c.restrict = restrict
    c.score = score
    c.free = 0
    c.earliest = 0
    c.dig = 1
    c.deadlock = 1
    c.follow = 1
    c.taken = 1
    c.taken_start = 1
    c.pool = 1
    c.partner = 0
    for p in range(28):
        c.compat[card[p]] = (c.pyr_all & ~c.block[p] & ~c.pyr_bit[p]) | c.stock_all
    for j in range(24):
        c.sval[j] = card[28 + j] % 13 + 1
    c.lows = NULL
    c.n_lows = 0
    for j in range(52):
        c.hint[j] = 0
    c.hint_states = HINT_STATES
    for j in range(24):
        c.compat[card[28 + j]] = c.pyr_all | ((c.stock_all & ~c.stock_bit[j]) if pairs else 0)


cdef object merge_stats(object first, object second):
    """Statistics of two searches run one after the other on the same deal."""
    out = dict(second)
    for key in ("states", "moves_generated", "pruned", "dead_ends", "seconds", "table_probes",
                "table_hits", "table_replaced"):
        out[key] = first.get(key, 0) + second.get(key, 0)
    for key in ("table_capacity", "table_bytes", "table_used"):
        out[key] = max(first.get(key, 0), second.get(key, 0))
    return out


cdef inline long long within(long long budget, long long max_states):
    """A first try's budget of positions under the limit max_states (0: none)."""
    return budget if max_states == 0 or max_states > budget else max_states


cdef object remaining(object stats, long long max_states, double max_seconds):
    """The limits left after a search that used stats: (-1 or the status of the limit used up,
    max_states, max_seconds)."""
    if max_states > 0:
        if stats["states"] >= max_states:
            return SEARCH_LIMIT_STATES, 0, 0.0
        max_states -= stats["states"]
    if max_seconds > 0:
        if stats["seconds"] >= max_seconds:
            return SEARCH_LIMIT_TIME, 0, 0.0
        max_seconds -= stats["seconds"]
    return -1, max_states, max_seconds


cdef enum:
    FREE = 1
    EARLIEST = 2


cdef object search_as(Game *g, PyrCtx *c, int mode, State root, long long max_states,
                      double max_seconds, size_t memory_bytes):
    """depth_first over the FREE or the EARLIEST description: (status, path, stats). Their moves
    are removals only, so a line has at most 52; EARLIEST compares positions by label."""
    cdef int depth = g.max_depth
    c.free = mode == FREE
    c.earliest = mode == EARLIEST
    g.max_depth = 64
    g.label_bits = 24 if mode == EARLIEST else 0
    try:
        status, path, stats, cert = depth_first(g, root, max_states, max_seconds, memory_bytes,
                                                False)
    finally:
        c.free = c.earliest = 0
        g.max_depth = depth
        g.label_bits = 0
    return status, path, stats


#: The EARLIEST search's first try, in positions (decide, two passes or more), and its try
#: guided by FREE's line (HINT): see decide().
cdef enum:
    PROBE_STATES = 1000
    HINT_STATES = 3000


cdef object decide(Game *g, PyrCtx *c, State root, long long max_states, double max_seconds,
                   size_t memory_bytes):
    """The decide objective without a certificate: (status, path, stats, relaxed).

    With unlimited passes the FREE search is the game itself. With two passes or more the
    EARLIEST search (exact for the variant) first gets PROBE_STATES positions: most won deals
    end there, in fewer positions than FREE needs (FREE's line may not fit the passes, and then
    EARLIEST runs anyway: deck 19 of the vectors, 72,489 positions before, 1,336 now). Then FREE
    runs: its "no win" holds with fewer passes too
    (relaxed is then True), and its win is kept when its line can be played within the passes.
    When FREE's line does not fit the passes, HINT: the EARLIEST search first gets HINT_STATES
    positions with the removals of that line tried first wherever they can be made (an order
    only: the same moves, so its answer is exact, blocked included). A won deal often has a
    line close to FREE's: deck 41 of the vectors took 357,093 positions, 5,337 with HINT. The
    plain order (each removal at its earliest moment first) is kept for the rest, as it finds
    positions at their lowest labels first: HINT alone made exhaustive searches larger (over
    seeds 0..399 with two passes, 12.5 -> 14.4 million positions). With the try, decks 1..600 of
    pyramid-msc take 3.50 -> 2.73 million positions; seeds 0..599, all cards, 6.61 -> 4.86
    million (docs/pyramid-search.md).
    Else, and at once with one pass (where the FREE search rarely proves a block: most one-pass
    blocks can be won with more passes, docs/pyramid-search.md), the EARLIEST search decides. The limits bound the searches together."""
    cdef bint fits
    cdef int i, j
    cdef uint64_t tail[24]
    cdef bb_t gone
    cdef int blocked
    if not c.taken and c.taken_start and c.deadlock:
        # TAKEN is left out of this search (see search()); the start alone gets it, so that a
        # deal its structural proof blocks ends here, as with the other rules (a search of a
        # dead start stops within a few dozen positions).
        c.taken = 1
        blocked = pyr_dead(c, &root)
        c.taken = 0
        if blocked:
            return SEARCH_EXHAUSTED, [], {"states": 1, "moves_generated": 0, "pruned": 1,
                                          "dead_ends": 0, "seconds": 0.0, "max_depth": 0,
                                          "fewest_left": bb_count(c.goal & ~root.removed)}, False
    stats = {"states": 0, "seconds": 0.0}
    if c.passes > 1:
        # Under a smaller limit the probe still comes first, within the limit: the searches
        # then run in the same order as without one, so a limit above the count a search
        # reports without it gives the same answer (tests/test_review_regressions.py).
        status, path, pstats = earliest(g, c, root, within(PROBE_STATES, max_states),
                                        max_seconds, memory_bytes)
        if status == SEARCH_WON:
            return status, path, pstats, False
        if status != SEARCH_LIMIT_STATES:
            return status, [], pstats, False
        stats = pstats
        used_up, max_states, max_seconds = remaining(stats, max_states, max_seconds)
        if used_up >= 0:
            return used_up, [], stats, False
    if c.passes != 1:
        status, path, fstats = search_as(g, c, FREE, root, max_states, max_seconds,
                                         memory_bytes)
        own = fstats  # the limits left already exclude the probe's share
        fstats = merge_stats(stats, fstats) if stats["states"] else fstats
        if status == SEARCH_EXHAUSTED:
            if c.passes or (c.pool and c.goal_all):
                # Its positions may need more passes than there are: their cards left say
                # nothing of this variant's best line. POOL with goal all: they keep the
                # stock's own moves for the end, so their cards left overstate it.
                fstats.pop("fewest_left", None)
            return status, [], fstats, c.passes != 0
        if status != SEARCH_WON:
            return status, [], fstats, False
        stats = fstats
        line = path
        if c.pool and c.goal_all:
            gone = root.removed
            for move in path:
                gone |= <bb_t>move
            stock_clears(c, gone, tail, &j)
            path = list(path) + [tail[i] for i in range(j)]
        path = realize(c, path, root, &fits)
        if fits:
            return status, path, stats, False
        used_up, max_states, max_seconds = remaining(own, max_states, max_seconds)
        if used_up >= 0:
            return used_up, [], stats, False
        if c.hint_states:
            for move in line:
                c.hint[bb_lowest(<bb_t>move)] = move
            try:
                status, path, hstats = earliest(g, c, root,
                                                within(c.hint_states, max_states),
                                                max_seconds, memory_bytes)
            finally:
                for j in range(52):
                    c.hint[j] = 0
            stats = merge_stats(stats, hstats)
            if status != SEARCH_LIMIT_STATES:
                return status, path, stats, False
            used_up, max_states, max_seconds = remaining(hstats, max_states, max_seconds)
            if used_up >= 0:
                return used_up, [], stats, False
    status, path, estats = earliest(g, c, root, max_states, max_seconds, memory_bytes)
    return status, path, merge_stats(stats, estats), False


cdef object earliest(Game *g, PyrCtx *c, State root, long long max_states, double max_seconds,
                     size_t memory_bytes):
    """The EARLIEST search from root (a real position), its won line played out: (status,
    path, stats)."""
    cdef bint fits
    cdef State eroot
    eroot.removed = root.removed
    eroot.aux = (root.aux & 31) | ((root.aux >> 8) << 5)
    status, path, stats = search_as(g, c, EARLIEST, eroot, max_states, max_seconds, memory_bytes)
    if status == SEARCH_WON:
        path = realize(c, path, root, &fits)
        if not fits:
            raise RuntimeError("pyramid core: an EARLIEST line needs more passes than it has")
    return status, path, stats


cdef object shortest(Game *g, PyrCtx *c, State root, long long max_states, double max_seconds,
                     size_t memory_bytes):
    """SHORTEST: best_first over the EARLIEST moves (each removal at its first moment, keyed by
    its cards, split and pass: no label), each costing the real moves it stands for (pyr_cost),
    then played out by realize(). (status, path, stats)."""
    cdef State eroot, s, t
    cdef bint fits
    cdef long long cost = 0
    eroot.removed = root.removed
    eroot.aux = (root.aux & 31) | ((root.aux >> 8) << 5)
    if not c.goal_all:
        c.lows = <LowEntry *>calloc(LOW_SLOTS, sizeof(LowEntry))
    c.earliest = 1
    g.cost = pyr_cost
    try:
        if c.goal_all:
            status, path, stats, _ = best_first(g, eroot, pyr_lower, max_states, max_seconds,
                                                memory_bytes)
        else:
            # LAZY: the stock-wait term only for the nodes taken from the queue
            status, path, stats, _ = best_first(g, eroot, pyr_removals, max_states,
                                                max_seconds, memory_bytes, pyr_lower)
        s = eroot
        for move in path:
            cost += pyr_cost(c, &s, move)
            earliest_play(c, &s, move, &t)
            s = t
    finally:
        c.earliest = 0
        g.cost = NULL
        free(c.lows)
        c.lows = NULL
    if status == SEARCH_WON:
        path = realize(c, path, root, &fits)
        if not fits or len(path) != cost:
            raise RuntimeError("pyramid core: a SHORTEST line does not play out at its cost")
    return status, path, stats


OBJECTIVES = {"decide": OBJ_DECIDE, "shortest": OBJ_SHORTEST, "score": OBJ_SCORE}


def solve(dict spec, str objective, limits, bint certificate):
    """The contract's entry point (solitaire_solver/engine/contract.py). spec: "cards" (52 card indexes,
    pack order), "passes" (0 unlimited), "goal_all", "stock_waste_pairs", "overlap_pairs" (optional,
    False by default); "shortest_real_moves" (for the tests and benchmarks: the shortest objective
    searches real positions, one move each, instead of SHORTEST's EARLIEST moves); "root", for the tests:
    (removed, aux) to search from instead of the deal's start. A certificate is kept for the
    decide and score objectives."""
    cdef int obj
    try:
        obj = OBJECTIVES[objective]
    except KeyError:
        raise ValueError(f"pyramid has no objective {objective!r}") from None
    if len(spec) <= 4 or (len(spec) == 5 and "overlap_pairs" in spec):
        # The four keys every spec has, and overlap_pairs: no root and every switch of the tests
        # at its default, not looked up one by one (a decide call is short, and each lookup
        # touches memory that a call starting with cold caches has to fetch: docs/notes/benchmarks-history.md).
        status, path, stats, cert, best = search(
            spec["cards"], spec["passes"], spec["goal_all"], spec["stock_waste_pairs"],
            spec.get("overlap_pairs", False), obj, False, limits.max_states,
            limits.max_seconds, limits.memory_bytes, certificate, None, True)
    else:
        status, path, stats, cert, best = search(
            spec["cards"], spec["passes"], spec["goal_all"], spec["stock_waste_pairs"],
            spec.get("overlap_pairs", False), obj, spec.get("shortest_real_moves", False),
            limits.max_states, limits.max_seconds, limits.memory_bytes, certificate,
            spec.get("root"), spec.get("dig", True), spec.get("hint_states", HINT_STATES),
            spec.get("deadlock", True), spec.get("pool", True), spec.get("partial", True),
            spec.get("follow", True), spec.get("taken", True), spec.get("lean_astar", True),
            spec.get("partner", True), True)
    end = None
    if obj == OBJ_DECIDE and not certificate and status == SEARCH_EXHAUSTED:
        end = decide_end(spec["cards"], spec["passes"], spec["goal_all"],
                         spec["stock_waste_pairs"], spec.get("overlap_pairs", False),
                         spec.get("root"))
    return tuple.__new__(CoreRun, (STATUSES[status], path, stats, cert, best, end))


cdef object decide_end(object cards, int passes, bint goal_all, bint pairs, bint overlap,
                       object root):
    """A decide run's end when its search (no certificate) is exhausted: what the structural
    proof needs, found here in C (games/pyramid.py uses it): for a blocked deal, making it in
    Python from the deal was most of a call that starts with cold caches (docs/notes/benchmarks-history.md).
    For a root with nothing removed and at most one card drawn (a deal's start, or PySolFC's,
    one draw in), where the layout is the deal's; solve() asks for the proof only at a deal's
    start. Else None."""
    removed, aux = root or (0, 0)
    if removed == 0 and aux & 31 <= 1:
        return at_start(cards, passes, goal_all, pairs, overlap, aux & 31)
    return None


cdef class TextDecider(TextEntry):
    """solve()'s decide run, prepared once for a spec (without its cards) and limits, where
    spec holds no key but DECIDE_KEYS (contract.py); decide(text) runs it, without a
    certificate, for the deal a pack-order text gives."""

    cdef int passes
    cdef bint goal_all, pairs, overlap
    cdef object root
    cdef long long max_states
    cdef double max_seconds
    cdef size_t memory_bytes

    def __init__(self, dict spec, long long max_states, double max_seconds,
                 size_t memory_bytes):
        self.passes = spec["passes"]
        self.goal_all = spec["goal_all"]
        self.pairs = spec["stock_waste_pairs"]
        self.overlap = spec.get("overlap_pairs", False)
        self.root = spec.get("root")  # PySolFC's rules start one draw in
        if self.root is not None:
            check_start(self.root, self.passes, self.goal_all, self.pairs, self.overlap)
        self.max_states, self.max_seconds, self.memory_bytes = (max_states, max_seconds,
                                                                memory_bytes)

    cpdef tuple decide(self, str text):
        """None where the text is not 52 plain card names (read by the C reader), else
        (status, path, stats, end, ready, cards): status, path, stats and end as in a CoreRun,
        ready whether end shows a structural proof (the DEAD rule fires at the start and
        short_group found its cards: Pyramid.structural_after makes it), cards the deal's card
        indexes."""
        cards = parse_plain(text)
        if cards is None:
            return None
        status, path, stats, _, _ = search(cards, self.passes, self.goal_all, self.pairs,
                                           self.overlap, OBJ_DECIDE, False, self.max_states,
                                           self.max_seconds, self.memory_bytes, False,
                                           self.root, True)
        end = None
        cdef bint ready = False
        if status == SEARCH_EXHAUSTED:
            end = decide_end(cards, self.passes, self.goal_all, self.pairs, self.overlap,
                             self.root)
            ready = end is not None and end.blocked and end.group is not None
        return STATUSES[status], path, stats, end, ready, cards


cdef int check_start(object root, int passes, bint goal_all, bint pairs,
                     bint overlap) except -1:
    """Refuse a TextDecider's root that is no deal's start (check_given): it is given without
    the deal's cards, so it must remove none, and then the deal plays no part in the check."""
    cdef PyrCtx c
    removed, aux = root
    if removed != 0:
        raise ValueError(f"a prepared decide run starts at a deal's start: its root {root!r} "
                         "removes cards")
    setup(&c, range(52), passes, goal_all, pairs, overlap, FORCE_ALL, True, False)
    check_given(&c, 0, aux)
    return 0


#: The spec keys TextDecider reads (but "cards").
DECIDE_KEYS = frozenset({"passes", "goal_all", "stock_waste_pairs", "overlap_pairs", "root"})


cdef object search(object cards, int passes, bint goal_all, bint stock_waste_pairs,
                   bint overlap, int objective, bint real_moves, long long max_states, double max_seconds,
                   size_t memory_bytes, bint certificate, object root_position, bint dig_rule,
                   int hint_states=HINT_STATES, bint deadlock=True, bint pool=True,
                   bint partial=True, bint follow=True, bint taken_rule=True,
                   bint lean_astar=True, bint partner_rule=True, bint given=False):
    """Search one deal (52 card indexes, pack order); passes 0 means unlimited.
    root_position: (removed, aux) to search from instead of the deal's start (for the tests),
    checked (check_given) when given (a root from solve()'s spec; a TextDecider checks its own
    once, and the plain decide path has none).

    Returns (status, move words, stats, certificate or None, score or None)."""
    cdef PyrCtx c
    cdef Game g
    cdef State root
    cdef int force = FORCE_ALL
    cdef bint restrict = True
    if objective not in (OBJ_DECIDE, OBJ_SHORTEST, OBJ_SCORE):
        raise ValueError(f"unknown objective {objective}")
    if objective == OBJ_SCORE and not 1 <= passes <= 3:
        raise ValueError("the competitive score is defined for 1 to 3 passes")
    if passes < 0 or passes > 10000:
        raise ValueError(f"passes must be 0 (unlimited) or 1..10000, not {passes}")
    if certificate:
        certificate = objective == OBJ_DECIDE or objective == OBJ_SCORE
    if certificate:
        force = FORCE_NONE
        restrict = passes == 0
    elif objective == OBJ_SHORTEST and not goal_all:
        force = FORCE_PYRAMID
    setup(&c, cards, passes, goal_all, stock_waste_pairs, overlap, force, restrict,
          objective == OBJ_SCORE)
    c.dig = dig_rule
    c.hint_states = hint_states
    c.deadlock = deadlock
    c.follow = follow
    # TAKEN pays in the searches with goal pyramid and two passes or more (vector decks 1..1500:
    # 2.32 -> 1.03 million positions). With goal all, or one pass, it cuts fewer positions than
    # its test costs (DEADLOCK runs with more waiting cards on every position):
    # docs/pyramid-search.md. The structural proof at the start (dead()) always uses it.
    c.taken = taken_rule and not goal_all and passes != 1
    c.taken_start = taken_rule
    c.pool = pool
    # ONLY PARTNER keeps a winning line and a shortest one. It lives in the EARLIEST move
    # generator, which certificates and the score (real positions) never use; the switch says
    # so here too, so that a later use of EARLIEST there does not inherit it unargued.
    c.partner = partner_rule and force != FORCE_NONE and objective != OBJ_SCORE
    game_clear(&g)
    g.ctx = &c
    g.moves = pyr_moves
    g.play = pyr_play
    g.won = pyr_won
    g.dead = pyr_dead
    g.counted = c.goal
    g.expand_all = not partial
    g.max_moves = 96
    # Removals: at most 52. Between two removals: at most 24 draws, a recycle and 24 draws with
    # unlimited passes (RECYCLE); with p passes at most 24 draws a pass and p - 1 recycles.
    g.max_depth = 52 * 50 + 64 if passes == 0 else 52 + 25 * passes + 8
    root.removed = 0
    root.aux = 0
    if root_position is not None:
        # A position without its history: bit 5 (RECYCLE) set, as any recycle may help there
        # (the rule's argument needs the position after the previous recycle to be an ancestor).
        root.removed, root.aux = root_position
        if given:
            check_given(&c, root.removed, root.aux)
        root.aux |= 1 << 5
    if objective == OBJ_SHORTEST:
        # A deal with no win at all would make the best-first search visit every position it
        # can reach; the decide search (Kings all forced: safe for a yes/no answer, see KINGS)
        # settles that much faster. Only its "no win" answer is used: its line is not shortest.
        c.force = FORCE_ALL
        status, path, stats, relaxed = decide(&g, &c, root, max_states, max_seconds, memory_bytes)
        if status == SEARCH_EXHAUSTED:
            if relaxed:
                stats["relaxed"] = "unlimited passes"
            return status, [], stats, None, None
        decided = stats
        c.force = force
        if lean_astar:
            # LEAN: the A* search leaves FOLLOW out. It tests each position it keeps, and there
            # the step costs more than it cuts (1% more positions, the same lengths:
            # docs/pyramid-search.md, Shortest). TAKEN stays: deck 1238, 1.03 million -> 404,000.
            c.follow = 0
        # The limits bound the two searches together.
        used_up, max_states, max_seconds = remaining(decided, max_states, max_seconds)
        if used_up >= 0:
            return used_up, [], decided, None, None
        if real_moves:
            status, path, stats, _ = best_first(&g, root, pyr_lower, max_states, max_seconds,
                                                memory_bytes)
        else:
            status, path, stats = shortest(&g, &c, root, max_states, max_seconds, memory_bytes)
        # `states` is what max_states counts, the two searches together (a call that reports
        # N ends the same under max_states=N); the decide search's part is also given apart.
        stats["decide_states"] = decided["states"]
        stats["states"] += decided["states"]
        stats["seconds"] += decided["seconds"]
        return status, path, stats, None, None
    if objective == OBJ_SCORE:
        # A certificate is checked with the reference rules' bound (proofs.py), so the search
        # that collects it cuts with that bound alone, and plays every move (FORCE_NONE above).
        status, path, stats, best, cert = best_value(
            &g, root, pyr_value, pyr_pass_bound if certificate else pyr_bound, 50, max_states,
            max_seconds, memory_bytes, certificate)
        return status, path, stats, cert, best
    if not certificate:
        status, path, stats, relaxed = decide(&g, &c, root, max_states, max_seconds, memory_bytes)
        if relaxed:
            stats["relaxed"] = "unlimited passes"
        return status, path, stats, None, None
    status, path, stats, cert = depth_first(&g, root, max_states, max_seconds, memory_bytes,
                                            certificate)
    return status, path, stats, cert, None


def dead(object cards, uint64_t removed, int passes=3, bint goal_all=True,
         uint64_t aux=0, bint overlap_pairs=False, bint stock_waste_pairs=True,
         bint dig_rule=True, bint deadlock=True, bint follow=True, bint taken=True) -> bool:
    """The DEAD rule on a position with these cards removed, aux as in solve() (the tests, and
    the structural proof's quick look at a deal's start: games/pyramid.py; dig_rule=False
    leaves DIG out)."""
    return dead_at(cards, removed, passes, goal_all, aux, overlap_pairs, stock_waste_pairs,
                   dig_rule, deadlock, follow, taken)


cdef bint dead_at(object cards, uint64_t removed, int passes, bint goal_all, uint64_t aux,
                  bint overlap_pairs, bint stock_waste_pairs, bint dig_rule=True,
                  bint deadlock=True, bint follow=True, bint taken=True) except -1:
    cdef PyrCtx c
    cdef State s
    setup(&c, cards, passes, goal_all, stock_waste_pairs, overlap_pairs, FORCE_NONE, False,
          False)
    c.dig = dig_rule
    c.deadlock = deadlock
    c.follow = follow
    c.taken = taken
    s.removed = removed
    s.aux = aux
    return pyr_dead(&c, &s) != 0


def start_look(object cards, int passes, bint goal_all, bint stock_waste_pairs, bint overlap,
               int drawn):
    """at_start() for games/pyramid.py's structural_proof, which asks it of a deal's start."""
    return at_start(cards, passes, goal_all, stock_waste_pairs, overlap, drawn)


cdef object at_start(object cards, int passes, bint goal_all, bint stock_waste_pairs,
                     bint overlap, int drawn):
    """What the structural proof of a deal needs (games/pyramid.py, Pyramid.structural_proof,
    which computes the same with dead() and short_group()): a StartLook (contract.py) of
    whether the DEAD rule fires at the deal's start and the group of short_group() on the
    layout with `drawn` stock cards on the waste (1 where play starts with a draw), or None."""
    cdef int pyr[28]
    cdef int others[24]
    cdef int j, x
    cdef uint64_t seen = 0
    for j in range(52):
        # group_of counts at most four cards of a value: a spec's cards that are not a pack
        # (the contract's callers may give any) get no answer rather than a write past its arrays
        x = cards[j]
        if not 0 <= x < 52 or seen >> x & 1:
            return None
        seen |= (<uint64_t>1) << x
    if not dead_at(cards, 0, passes, goal_all, 0, overlap, stock_waste_pairs):
        return look(False, None)
    for j in range(28):
        pyr[j] = cards[j]
    for j in range(24):
        # the stock's cards, then the waste's
        others[j] = cards[28 + drawn + j] if j < 24 - drawn else cards[28 + j - 24 + drawn]
    return look(True, group_of(pyr, others, 24, APART_PLACES[1 if overlap else 0], goal_all,
                               stock_waste_pairs))


cdef inline object look(bint blocked, object group):
    """StartLook(blocked, group), made as the tuple it is: its class's __new__ is a Python
    function, code a call that starts with cold caches would fetch."""
    return tuple.__new__(StartLook, (blocked, group))


def short_group(object pyramid, object others, object apart_of, bint goal_all,
                bint stock_waste_pairs):
    """The structural proof's cards (games/pyramid.py short_of_partners, the reference, which
    this follows step for step and must equal: tests/test_pyramid.py): the first group of cards
    of one value that must all leave while fewer partners can ever meet them, or None.
    pyramid: the 28 places (a card index or None); others: the stock's then the waste's cards;
    apart_of: per place, the mask of the places kept apart from it."""
    cdef int pyr[28]
    cdef int rest[52]
    cdef uint64_t apart[28]
    cdef int p, n = 0
    cdef uint64_t seen = 0
    for p in range(28):
        apart[p] = apart_of[p]
        card = pyramid[p]
        if card is not None and not 0 <= card < 52:
            raise ValueError(f"{card!r} is not a card")
        pyr[p] = -1 if card is None else card
    for card in others:
        if n == 52:
            raise ValueError("more than 52 other cards")
        rest[n] = card
        n += 1
    for card in (*[x for x in pyr[:28] if x >= 0], *[x for x in rest[:n]]):
        if not 0 <= card < 52 or seen >> card & 1:
            raise ValueError(f"{card} is not a card, or is there twice")
        seen |= (<uint64_t>1) << card
    return group_of(pyr, rest, n, apart, goal_all, stock_waste_pairs)


cdef object group_of(const int *pyramid, const int *others, int n_others,
                     const uint64_t *apart, bint goal_all, bint stock_waste_pairs):
    """short_group() on C arrays: pyramid[p] a card index or -1."""
    cdef int cards[14][8]
    cdef int places[14][8]
    cdef int count[14]
    cdef uint64_t meets[13][4]
    cdef int short_card[13][4]
    cdef int n_short[13]
    cdef int v, j, p, x, size, n_few, i0, i1, i2, i3
    cdef uint64_t in_pyramid, in_stock, from_stock, m, union
    cdef int few_card[4]
    cdef uint64_t few_meets[4]
    for v in range(14):
        count[v] = 0
    for p in range(28):
        x = pyramid[p]
        if x >= 0:
            v = x % 13 + 1
            cards[v][count[v]] = x
            places[v][count[v]] = p
            count[v] += 1
    for j in range(n_others):
        x = others[j]
        v = x % 13 + 1
        cards[v][count[v]] = x
        places[v][count[v]] = -1
        count[v] += 1
    for v in range(1, 13):
        n_short[v] = 0
        in_pyramid = in_stock = 0
        for j in range(count[13 - v]):
            if places[13 - v][j] >= 0:
                in_pyramid |= (<uint64_t>1) << places[13 - v][j]
            else:
                in_stock |= (<uint64_t>1) << (28 + j)
        from_stock = in_pyramid if not stock_waste_pairs else in_pyramid | in_stock
        for j in range(count[v]):
            p = places[v][j]
            if p >= 0:
                m = (in_pyramid & ~apart[p]) | in_stock
            elif goal_all:
                m = from_stock
            else:
                continue
            if m == 0:
                return [cards[v][j]]
            if bb_count(m) < 4:
                short_card[v][n_short[v]] = cards[v][j]
                meets[v][n_short[v]] = m
                n_short[v] += 1
    # The groups in itertools.combinations' order over the cards meeting fewer than size.
    for size in range(2, 5):
        for v in range(1, 13):
            n_few = 0
            for j in range(n_short[v]):
                if bb_count(meets[v][j]) < size:
                    few_card[n_few] = short_card[v][j]
                    few_meets[n_few] = meets[v][j]
                    n_few += 1
            if n_few < size:
                continue
            for i0 in range(n_few):
                for i1 in range(i0 + 1, n_few):
                    if size == 2:
                        if bb_count(few_meets[i0] | few_meets[i1]) < 2:
                            return [few_card[i0], few_card[i1]]
                        continue
                    for i2 in range(i1 + 1, n_few):
                        if size == 3:
                            if bb_count(few_meets[i0] | few_meets[i1] | few_meets[i2]) < 3:
                                return [few_card[i0], few_card[i1], few_card[i2]]
                            continue
                        for i3 in range(i2 + 1, n_few):
                            union = few_meets[i0] | few_meets[i1] | few_meets[i2] | few_meets[i3]
                            if bb_count(union) < 4:
                                return [few_card[i0], few_card[i1], few_card[i2], few_card[i3]]
    return None


cdef void rules_game(PyrCtx *c, Game *g, dict spec) except *:
    """The Game of the rules' moves for expand, step, random_win and playouts: every legal move,
    unless spec["all_moves"] is False (then the moves the decide search generates)."""
    cdef int passes = spec["passes"]
    cdef bint all_moves = spec.get("all_moves", True)
    setup(c, spec["cards"], passes, spec["goal_all"], spec["stock_waste_pairs"],
          spec.get("overlap_pairs", False), FORCE_NONE if all_moves else FORCE_ALL,
          passes == 0 or not all_moves, False)
    game_clear(g)
    g.ctx = c
    g.moves = pyr_moves
    g.play = pyr_play
    g.won = pyr_won
    g.max_moves = 96


# -- the contract's expand, step, random_win and playouts (engine/_entries.pxi) ------------------

ctypedef PyrCtx CoreCtx


cdef int prepare(Game *g, CoreCtx *c, dict spec, bint listing) except -1:
    """The game of expand and step (listing; what they list: spec["all_moves"] = False (the decide search's moves)) and of the walks."""
    rules_game(c, g, spec)
    return 0


#: Positions given from Python are checked (engine/contract.py).
CHECKS_POSITIONS = True


cdef int check_given(PyrCtx *c, uint64_t removed, uint64_t aux) except -1:
    """Refuse a position given from Python that is none of this deal's (the split k indexes
    the stock's places): a card beyond the pack; k past the 24 stock places, or not canonical
    (the waste's top, place k - 1, removed); a pass beyond the variant's (0 with unlimited
    passes); a cleared pass (bits 6..7) while pyramid cards are left, or later than the pass
    played; a pyramid card removed while a card covering it is left; or removed cards that no
    removals of Kings and pairs totalling 13 make."""
    cdef int k = <int>(aux & 31), p, v
    cdef uint64_t pass_no = aux >> 8, cleared = (aux >> 6) & 3
    if removed & ~BB_FULL_PACK:
        raise ValueError(f"({removed}, {aux}) is not a Pyramid position: removed holds cards "
                         "0..51")
    if k > 24 or (k > 0 and removed & c.stock_bit[k - 1]):
        raise ValueError(f"({removed}, {aux}) is not a Pyramid position: the split k = {k} is "
                         "0..24, with the waste's top (place k - 1) not removed")
    if (pass_no >= <uint64_t>c.passes) if c.passes else pass_no != 0:
        raise ValueError(f"({removed}, {aux}) is not a Pyramid position: pass {pass_no} "
                         f"(0-based) of {c.passes} (0: unlimited, where the pass is always 0)")
    if cleared and ((removed & c.pyr_all) != c.pyr_all or cleared > pass_no + 1):
        raise ValueError(f"({removed}, {aux}) is not a Pyramid position: the pyramid cleared in "
                         f"pass {cleared}")
    for p in range(28):
        if removed & c.pyr_bit[p] and c.cover[p] & ~removed:
            raise ValueError(f"({removed}, {aux}) is not a Pyramid position: pyramid place "
                             f"{p + 1} is removed while a card covering it is left")
    for v in range(1, 7):
        if bb_count(removed & bb_rank(v)) != bb_count(removed & bb_rank(13 - v)):
            raise ValueError(f"({removed}, {aux}) is not a Pyramid position: the removed cards "
                             f"of values {v} and {13 - v} do not pair up")
    return 0


include "../../engine/_entries.pxi"


def only_partner_move(object cards, uint64_t removed, int k, bint goal_all=False,
                      bint overlap_pairs=False, bint stock_waste_pairs=True) -> int:
    """The removal ONLY PARTNER forces when `removed` are gone and the stock is split at place k
    (a move word), or 0 (for the tests)."""
    cdef PyrCtx c
    if not 0 <= k <= 24:
        raise ValueError(f"the stock's split is a place 0..24, not {k}")
    setup(&c, cards, 3, goal_all, stock_waste_pairs, overlap_pairs, FORCE_ALL, False, False)
    return only_partner(&c, removed, available_pyramid(&c, removed),
                        tops(&c, stock_top(&c, removed, k), k))


def lower_bound(object cards, uint64_t removed, uint64_t aux, int passes=3,
                bint goal_all=True, bint stock_waste_pairs=True,
                bint overlap_pairs=False) -> int:
    """The shortest objective's lower bound of the moves left from a position (for the tests)."""
    cdef PyrCtx c
    cdef State s
    setup(&c, cards, passes, goal_all, stock_waste_pairs, overlap_pairs, FORCE_NONE, False,
          False)
    s.removed = removed
    s.aux = aux
    return pyr_lower(&c, &s)


def lower_bound_parts(object cards, uint64_t removed, uint64_t aux, int passes=3,
                      bint stock_waste_pairs=True) -> tuple:
    """Goal pyramid: the two parts of the shortest objective's lower bound, (k + n - M, the stock
    wait W), whose sum is lower_bound's (for benchmarks/pyramid_gap.py and the tests)."""
    cdef PyrCtx c
    cdef State s
    cdef int need[14]
    cdef int m
    setup(&c, cards, passes, False, stock_waste_pairs, False, FORCE_NONE, False, False)
    s.removed = removed
    s.aux = aux
    m = removal_part(&c, c.goal & ~s.removed, need)
    return m, stock_wait(&c, &s, c.goal & ~s.removed, need)


def lower_bounds_by_shape(object cards, list positions, int passes=3,
                          bint stock_waste_pairs=True) -> list:
    """The shortest objective's lower bound, goal pyramid, of each (removed, aux) position as
    the search computes it: through the SHAPES table (pyr_lower), each position twice, so that
    the second reads what the first stored (for the tests)."""
    cdef PyrCtx c
    cdef State s
    setup(&c, cards, passes, False, stock_waste_pairs, False, FORCE_NONE, False, False)
    c.lows = <LowEntry *>calloc(LOW_SLOTS, sizeof(LowEntry))
    if c.lows == NULL:
        raise MemoryError
    out = []
    try:
        for _ in range(2):
            for removed, aux in positions:
                s.removed = removed
                s.aux = aux
                out.append(pyr_lower(&c, &s))
    finally:
        free(c.lows)
    return out


#: The tests' switches (tests/test_fuzz.py): the spec keys of this core's search modes, each
#: searched on random input beside core_spec's own.
SEARCH_MODES = ({},)
#: The spec keys that make expand() list the moves of the pruned search instead of every
#: legal move, and whether those are some of the legal ones (else only that it runs is
#: checked).
PRUNED_EXPAND = ({"all_moves": False}, False)
