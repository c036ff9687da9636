# Included by _pyramid.pyx: the lower bound of the moves still needed (the A* heuristic of the
# shortest objective): a largest matching of the cards that must go, plus the stock waits.

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
    (see compatible(): could ever be available together; stock and waste places are taken
    optimistically, last pass off, so the relation never changes during play). The bound is
    k + n - M.

    Admissible: every removal takes one King alone or two cards totalling 13 that are available
    together, hence compatible. In a winning line each King of R leaves alone (k removals), and
    the removals taking two cards of R form a matching of the graph, at most M of them; the
    other n - 2 * (those) cards of R each need a removal of their own. So at least
    k + (number of pair removals) + (n - 2 * pairs) = k + n - pairs >= k + n - M removals remain,
    and draws and recycles only add moves.

    Consistent (h(s) <= 1 + h(t) for a move s -> t): a draw or a recycle changes no card, so h is
    unchanged. A King of R leaving lowers k by one. A removal taking one card of R lowers n by
    one and cannot raise M (deleting a vertex), so h drops by at most one. A removal taking two
    cards u, v of R lowers n by two; u-v is an edge, so any matching of the rest plus u-v is a
    matching before: M_after <= M_before - 1, and h drops by 2 - (M_before - M_after) <= 1.
    Cards never come back, so nothing else changes the graph."""
    cdef PyrCtx *c = <PyrCtx *>ctx
    cdef bb_t req = c.goal & ~s.removed
    cdef bb_t b
    cdef int v, i, j, nl, nr, m = 0, seen
    cdef int lp[4]
    cdef int rp[4]
    cdef int adj[4]
    cdef int match_r[4]
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
        if nl == 0 or nr == 0:
            continue
        for j in range(4):
            match_r[j] = -1
        for i in range(nl):
            adj[i] = 0
            for j in range(nr):
                if compatible(c, lp[i], rp[j], False, 0, 0):
                    adj[i] |= 1 << j
        for i in range(nl):
            seen = 0
            m += augment(i, adj, match_r, &seen)
    m = bb_count(req & c.kings) + bb_count(req & ~c.kings) - m
    if not c.goal_all:
        m += stock_wait(c, s, req)
    return m


cdef int stock_wait(PyrCtx *c, const State *s, bb_t req) noexcept nogil:
    """Goal pyramid: moves that a line needs besides the removals counted by pyr_lower.

    A stock or waste card is USELESS when no required (pyramid) card left is its complement (a
    King always is): it can only leave by a draw, or by a removal taking no required card (a
    King alone, or a pair with another stock or waste card), none of which pyr_lower counts.
    For a required card x, W(x) is 0 when x has a compatible pyramid complement left, else the
    least over its complements y in the stock or waste of e(y). For y in the stock, e(y) = the
    useless cards above it (places k..place(y)-1, still there): before x leaves, y must be the
    stock top (a card reaches the waste only from the top), so each card above y leaves the top
    first by a move of its own (a draw or a removal: each such move moves one stock card), and
    the useless ones by moves pyr_lower did not count. For y in the waste, e(y) = the useless
    waste cards above it (each must be removed first, by an uncounted move), or, when a recycle
    is still allowed and cheaper, 1 (the recycle) + the useless cards that will lie above y in
    the stock after it (the waste cards below y). So pyr_lower + max W(x) is still admissible.

    Consistency: a draw takes the stock top out of the range above every stock y and puts it
    on the waste, above every waste y; the removal of a useless card takes it out of the range
    it is in; either lowers each e(y) by at most one and leaves the removal count unchanged; a recycle costs one and turns the waste option
    "1 + cards below" into the stock count "cards below" (at most one less). A removal taking a required card
    takes no useless card (its partner is a complement of a required card); the required card
    x removed has W(x) = 0 (its partner was available); removals only make more cards useless
    and fewer complements left, so no other W drops; with the removal count dropping by at most
    one the sum drops by at most one. A waste removal moves k down past removed places only, so
    the ranges keep the same cards."""
    cdef bb_t removed = s.removed
    cdef int k = s.aux & 31
    cdef int above[25]
    cdef int j, p, w, best, e, worst = 0
    cdef bb_t x, b, pyr_left = c.pyr_all & ~removed
    cdef int from0[25]
    cdef int useless_waste = 0
    cdef bint can_recycle = c.passes == 0 or <int>(s.aux >> 8) < c.passes - 1
    above[k] = 0
    for j in range(k, 24):
        above[j + 1] = above[j]
        if not (removed & c.stock_bit[j]) and not (c.stock_comp[j] & req):
            above[j + 1] += 1
    from0[0] = 0
    for j in range(k):
        from0[j + 1] = from0[j]
        if not (removed & c.stock_bit[j]) and not (c.stock_comp[j] & req):
            from0[j + 1] += 1
    useless_waste = from0[k]
    x = req & ~c.kings
    while x:
        p = c.where[bb_lowest(x)]
        x &= x - 1
        b = c.comp[p] & ~removed
        if b & pyr_left & ~c.block[p]:
            continue
        best = 99
        while b:
            w = c.where[bb_lowest(b)]
            b &= b - 1
            if w < 28:
                continue
            if w - 28 < k:
                # In the waste: the useless cards above it go first, or a recycle puts it back
                # in the stock under the useless waste cards below it.
                e = useless_waste - from0[w - 28 + 1]
                if can_recycle and 1 + from0[w - 28] < e:
                    e = 1 + from0[w - 28]
            else:
                e = above[w - 28]
            if e < best:
                best = e
        if best < 99 and best > worst:
            worst = best
    return worst
