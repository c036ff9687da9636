# Included by _pyramid.pyx: the lower bound of the moves still needed (the A* heuristic of the
# shortest objective): a largest matching of the cards that must go, plus the stock waits.

cdef enum:
    LOW_SLOTS = 4096    # SHAPES (pyr_lower): about three times the 1,430 shapes, a power of two


cdef int augment(int i, int *adj, int *match_r, int *seen) noexcept nogil:
    """Kuhn's augmenting path from left vertex i (adj: bitmasks of right neighbours)."""
    cdef int j
    for j in range(4):
        if (adj[i] >> j) & 1 and not (seen[0] >> j) & 1:
            seen[0] |= 1 << j
            if match_r[j] < 0 or augment(match_r[j], adj, match_r, seen):
                match_r[j] = i
                return 1
    return 0


cdef int pyr_lower(void *ctx, const State *s) noexcept nogil:
    """LOWER BOUND of the moves still needed to win from s (the A* heuristic of `shortest`).

    Let R be the cards that must still go (goal pyramid: the pyramid's; goal all: every card
    left), k the Kings in R, n the others, and M the size of a largest matching of R's non-King
    cards in which two cards may be matched when their values total 13 and they are compatible
    (see compatible(): could ever leave together; stock and waste places are taken
    optimistically, last pass off, so the relation never changes during play). The bound is
    k + n - M, plus stock_wait() with goal pyramid.

    Admissible: every removal takes one King alone or two cards totalling 13 that may leave
    together, hence compatible. In a winning line each King of R leaves alone (k removals), and
    the removals taking two cards of R form a matching of the graph, at most M of them; the
    other n - 2 * (those) cards of R each need a removal of their own. So at least
    k + (number of pair removals) + (n - 2 * pairs) = k + n - pairs >= k + n - M removals remain,
    and draws and recycles only add moves.

    Consistent (h(s) <= 1 + h(t) for a move s -> t): a draw or a recycle changes no card, so
    k + n - M is unchanged. A King of R leaving lowers k by one. A removal taking one card of R
    lowers n by one and cannot raise M (deleting a vertex), so h drops by at most one. A removal
    taking two cards u, v of R lowers n by two; u-v is an edge, so any matching of the rest plus
    u-v is a matching before: M_after <= M_before - 1, and h drops by 2 - (M_before - M_after)
    <= 1. Cards never come back, so nothing else changes the graph."""
    cdef PyrCtx *c = <PyrCtx *>ctx
    cdef int need[14]
    cdef int m = removals(c, s, need)
    if not c.goal_all:
        m += stock_wait(c, s, c.goal & ~s.removed, need)
    return m if m < 64 else 64  # the engine's range; a lower value stays admissible, consistent


cdef int pyr_removals(void *ctx, const State *s) noexcept nogil:
    """k + n - M alone: the cheap bound of LAZY (shortest with goal pyramid; see best_first),
    pyr_lower being the dear one. Admissible and consistent, as pyr_lower's first part."""
    cdef int need[14]
    return removals(<PyrCtx *>ctx, s, need)


cdef inline int removals(PyrCtx *c, const State *s, int *need) noexcept nogil:
    """k + n - M of pyr_lower, and need[] for stock_wait, through SHAPES when c.lows is set."""
    cdef bb_t req = c.goal & ~s.removed
    cdef int m, v
    cdef uint64_t key, packed
    cdef size_t i
    if c.lows == NULL:
        return removal_part(c, req, need)
    # SHAPES: with goal pyramid, R is the pyramid's cards left, so k + n - M and need[] depend
    # on them alone. The removed places are closed under covering (a card leaves only when
    # uncovered, or with the one card covering it), so a deal has at most 1,430 such sets, the
    # pyramid's shapes, met again and again: each is computed once. A full table (a root that is
    # no shape) only means computing again.
    key = (s.removed & c.pyr_all) | (<uint64_t>1 << 63)
    i = <size_t>((key * <uint64_t>0x9E3779B97F4A7C15) >> 52) & (LOW_SLOTS - 1)
    while c.lows[i].key != 0 and c.lows[i].key != key:
        i = (i + 1) & (LOW_SLOTS - 1)
    if c.lows[i].key == key:
        packed = c.lows[i].packed
        need[13] = 0
        for v in range(1, 13):
            need[v] = <int>((packed >> (4 * v + 4)) & 15)
        return <int>(packed & 127)
    m = removal_part(c, req, need)
    if c.n_lows < LOW_SLOTS * 3 // 4:
        packed = <uint64_t>m
        for v in range(1, 13):
            packed |= <uint64_t>need[v] << (4 * v + 4)
        c.lows[i].key = key
        c.lows[i].packed = packed
        c.n_lows += 1
    return m


cdef int removal_part(PyrCtx *c, bb_t req, int *need) noexcept nogil:
    """k + n - M of pyr_lower, and need[v] (v = 1..13) for stock_wait."""
    cdef bb_t b
    cdef int v, i, j, nl, nr, m = 0, seen, mv
    cdef int lp[4]
    cdef int rp[4]
    cdef int adj[4]
    cdef int match_r[4]
    for v in range(14):
        need[v] = 0
    for v in range(1, 7):
        nl = 0
        b = req & bb_rank(v)
        while b:
            lp[nl] = c.where[bb_lowest(b)]
            nl += 1
            b &= b - 1
        nr = 0
        b = req & bb_rank(13 - v)
        while b:
            rp[nr] = c.where[bb_lowest(b)]
            nr += 1
            b &= b - 1
        mv = 0
        if nl and nr:
            for j in range(4):
                match_r[j] = -1
            for i in range(nl):
                adj[i] = 0
                for j in range(nr):
                    if compatible(c, lp[i], rp[j], False, 0, 0):
                        adj[i] |= 1 << j
            for i in range(nl):
                seen = 0
                mv += augment(i, adj, match_r, &seen)
        m += mv
        # goal pyramid: at least this many cards of R of value v (13 - v) leave with a stock or
        # waste card of value 13 - v (v), whatever pairs the line makes inside the pyramid
        need[13 - v] = nl - mv
        need[v] = nr - mv
    return bb_count(req & c.kings) + bb_count(req & ~c.kings) - m


cdef inline int reached(PyrCtx *c, int *cnt, int *rcnt, const int *need, int *over,
                        int j) noexcept nogil:
    """STOCK WAIT: counts the stock card at place j among the cards X that leave the stock top
    (or the waste) before some card y: returns 1 when the discount d(X) grows by one (see
    stock_wait: X's cards that may leave with a card of R, less the pyramid pairs each one
    past the unmatched cards of its class breaks)."""
    cdef int v = c.sval[j]
    cdef int cl
    cnt[v] += 1
    if v == 13 or cnt[v] > rcnt[13 - v]:
        return 0
    cl = v if v < 7 else 13 - v
    if cnt[v] - need[v] > over[cl]:
        over[cl] += 1
        return 0
    return 1


cdef int stock_wait(PyrCtx *c, const State *s, bb_t req, int *need) noexcept nogil:
    """STOCK WAIT, goal pyramid: moves that a line needs besides the k + n - M of pyr_lower.

    need[w] (from pyr_lower) cards of value w in the stock or waste must become available: in
    the class {v, 13 - v} a matching inside the pyramid pairs at most M_v of R's cards, so at
    least u(w) = (R's cards of value 13 - w) - M_v of them leave with a stock or waste card of
    value w, each with its own. For a stock or waste card y, X is a set of cards that must all
    leave the stock top (or the waste top) before y is available, each by a move of its own:
    - y in the stock: the cards above it (places k.. up to y, still there);
    - y in the waste: the cards above it in the waste (a waste card leaves only as the waste
      top); or, when a recycle is still allowed, every stock card left and every waste card
      below y (the stock must be empty to recycle, and those cards come back above y), plus
      the recycle itself.
    e(y) = |X| - d(X) (+1 for the recycle) bounds the moves a line makes before y is available,
    beyond those k + n - M counts. A line makes k + n - P removals taking cards of R, P being
    its pairs of two cards of R; of X's moves, q take a card of R, the others are more moves.
    So it makes at least k + n - P + |X| - q moves. Per class, if X's cards pair with qL of
    R's cards of value v and qR of value 13 - v, those cards are in no pair of R: P_v <=
    min(M_v, L - qL, H - qR) (L, H: R's cards of each value), and q_v = qL + qR. So each X card
    paired with a card of R that the matching pairs inside the pyramid (past the u unmatched
    ones) costs that pair (BROKEN): the total is at least k + n - M + |X| - d(X), where d(X) =
    the sum over classes of min(qL + qR, qR + uL, qL + uR) at the largest qL, qR X and R allow
    (min(X's cards of value 13 - v, L), and so on: the expression only grows with them; Kings
    never pair). reached() builds d(X) card by card, `over` holding each class's
    max(0, qL - uL, qR - uR) so far. Reaching need[w] distinct cards of value w needs at least
    the need[w]-th smallest e(y) among them (the costliest one reached costs no less), and W =
    the largest over w, added to k + n - M, is admissible.

    Consistent, with k + n - M: a draw moves the stock top out of every X of the stock cards
    below it (|X| falls by one, d(X) by at most one: each term of its min by at most one) and
    into the X of the waste cards (where e cannot fall); a recycle (one move) turns the waste
    option 1 + |X'| - d(X') into the stock's |X'| - d(X'). So each e(y), and each order
    statistic, drops by at most one. A removal inside the pyramid (an edge, so M_v falls by one
    or two): by one, k + n - M falls by one, u stays and qL, qR can only fall, so no e falls;
    by two, k + n - M stays, uL and uR rise by one and qL, qR fall by at most one, so d rises
    by at most one and need can only rise. A removal of a card x of R with an available stock
    or waste card s (e(s) = 0, the least of its list): if M_v stays, k + n - M falls by one, and
    in the X holding s, |X|, q and u fall together (e stays), elsewhere u falls with q falling
    by at most one (e cannot fall); need of s's value falls by one while s leaves its list, so
    that order statistic does not fall. If M_v falls, k + n - M stays and each e falls by at
    most one, need can only rise. A removal taking no card of R (a King, a stock and waste pair)
    lowers each e by at most one and leaves the rest. So h drops by at most one a move."""
    cdef bb_t removed = s.removed
    cdef int k = s.aux & 31
    cdef int cnt[14]
    cdef int rcnt[14]
    cdef int over[7]
    cdef int e[24]
    cdef int j, v, a, m, worst = 0, t, best, w, n
    cdef int vals[4]
    cdef bb_t b
    cdef bint can_recycle = c.passes == 0 or pass_of(c, s) < c.passes - 1
    for w in range(1, 13):
        if need[w] > 0:
            break
    else:
        return 0    # no stock or waste card is needed: nothing to wait for
    for v in range(14):
        rcnt[v] = bb_count(req & bb_rank(v)) if v else 0
        cnt[v] = 0
    for v in range(7):
        over[v] = 0
    # the stock, from its top down
    a = m = 0
    for j in range(k, 24):
        if removed & c.stock_bit[j]:
            continue
        e[j] = a - m
        a += 1
        m += reached(c, cnt, rcnt, need, over, j)
    if can_recycle:
        # the stock left, then the waste from its bottom up (X' of each waste card)
        for j in range(k):
            if removed & c.stock_bit[j]:
                continue
            e[j] = 1 + a - m
            a += 1
            m += reached(c, cnt, rcnt, need, over, j)
    for v in range(14):
        cnt[v] = 0
    for v in range(7):
        over[v] = 0
    # the waste, from its top down
    a = m = 0
    for j in range(k - 1, -1, -1):
        if removed & c.stock_bit[j]:
            continue
        if not can_recycle or a - m < e[j]:
            e[j] = a - m
        a += 1
        m += reached(c, cnt, rcnt, need, over, j)
    for w in range(1, 13):
        t = need[w]
        if t <= 0:
            continue
        n = 0
        b = c.stock_all & bb_rank(w) & ~removed
        while b:
            vals[n] = e[c.where[bb_lowest(b)] - 28]
            n += 1
            b &= b - 1
        if n == 0:
            continue  # DEAD: no line wins; any bound is admissible
        if t > n:
            t = n
        # the t-th smallest of n <= 4 values
        for j in range(t):
            best = j
            for v in range(j + 1, n):
                if vals[v] < vals[best]:
                    best = v
            vals[j], vals[best] = vals[best], vals[j]
        if vals[t - 1] > worst:
            worst = vals[t - 1]
    return worst
