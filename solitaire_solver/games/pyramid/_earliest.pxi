# Included by _pyramid.pyx: the EARLIEST search of the decide objective (each removal made at
# the first moment its cards are available together, the pass and split as a label; see the
# module doc and docs/pyramid-search.md).

cdef inline int reach(PyrCtx *c, bb_t removed, int k, int pass_no, int j, int *at_k) noexcept nogil:
    """EARLIEST. The first moment the stock card at place j (still there) is available, from the
    stock split k in pass pass_no: returns the pass (-1 when none is left) and sets at_k to the
    split then. It is the stock or waste top now, else the stock top after draws in this pass
    (places >= k) or, in the waste, after a recycle and draws in the next pass."""
    cdef int t = j
    while t > 0 and (removed & c.stock_bit[t - 1]):
        t -= 1
    if t == k or j == k - 1 or j >= k:
        # the stock top now, the waste top now, or the stock top after draws
        at_k[0] = k if (t == k or j == k - 1) else t
        return pass_no
    if c.passes and pass_no >= c.passes - 1:
        return -1
    at_k[0] = t
    return pass_no + 1


cdef inline int earliest_pair(PyrCtx *c, bb_t removed, int k, int pass_no, int j1, int j2,
                              int *at_k) noexcept nogil:
    """EARLIEST. The first moment the stock cards at places j1 < j2, with none left between
    them, are the waste and stock tops together: the split j1 + 1, in this pass when j1 is at
    least the waste top's place (k - 1), else in the next."""
    at_k[0] = j1 + 1
    if j1 >= k - 1:
        return pass_no
    if c.passes and pass_no >= c.passes - 1:
        return -1
    return pass_no + 1


cdef inline int add_move(uint64_t *out, int *label, int n, uint64_t move, int at) noexcept nogil:
    """Insert a move in order of the moment it is made (the search tries the earliest first,
    so that a position is mostly reached first with its lowest label)."""
    cdef int i = n
    while i > 0 and label[i - 1] > at:
        out[i] = out[i - 1]
        label[i] = label[i - 1]
        i -= 1
    out[i] = move
    label[i] = at
    return n + 1


cdef inline uint64_t only_partner(PyrCtx *c, bb_t removed, bb_t avail, bb_t sw) noexcept nogil:
    """ONLY PARTNER: a removal of two cards available now (avail: the pyramid's; sw: the stock
    and waste tops), x and y, where x must go (a pyramid card, or with goal all any card) and y
    is the one card left that x could ever leave with (c.compat, an optimistic relation: the
    stock's cards count wherever they lie); 0 when there is none. Every winning line removes x,
    so it removes x with y. Moved to the front, that removal leaves every later move of the line
    legal and the line no longer: it only uncovers pyramid cards sooner, the other stock and
    waste cards keep their order (a top the line plays is still the top), and the draws of x or
    y drop out. Made now it needs no draw, so it is at its first moment: some shortest line
    starts with it, as KINGS argues for a King, and the searches play it as the only move."""
    cdef bb_t here = avail | sw
    cdef bb_t must = here if c.goal_all else avail
    cdef bb_t a, b, x = 0, p
    cdef int v
    for v in range(1, 7):
        a = here & bb_rank(v)
        b = here & bb_rank(13 - v)
        if a and b:
            x |= (a | b) & must
    while x:
        v = bb_lowest(x)
        p = c.compat[v] & bb_rank(13 - bb_value_of(v)) & ~removed
        if (p & here) and not (p & (p - 1)):
            return (x & -x) | p
        x &= x - 1
    return 0


cdef int earliest_moves(PyrCtx *c, const State *s, uint64_t *out) noexcept nogil:
    """EARLIEST (decide with a finite number of passes). A move is a removal, made at the first
    moment its cards are available together, with the draws and the recycle it needs implied;
    the label of a position is pass * 32 + k, and a lower label is never worse (engine LABELS):
    draws and a recycle a pass reach every later split. The moves kept include a winning one
    whenever there is one: a winning line's first removal, made at its first moment instead,
    leaves the same cards at a label no higher (a removal keeps the split, or moves it down past
    removed places only, the same way whether the stock card removed was the stock top or,
    later, the waste top). KINGS holds for the Kings available now (no draw is implied).
    docs/pyramid-search.md gives the whole argument."""
    cdef bb_t removed = s.removed
    cdef int k = s.aux & 31
    cdef int pass_no = <int>(s.aux >> 5)
    cdef bb_t avail = available_pyramid(c, removed)
    cdef bb_t x = avail | (c.stock_all & ~removed)
    cdef bb_t kings = avail & c.kings
    cdef bb_t sw = 0
    cdef uint64_t forced
    cdef uint64_t cand[96]
    cdef int label[96]
    cdef int n = 0, m, i, at, when
    if c.force == FORCE_ALL or c.partner:
        sw = tops(c, stock_top(c, removed, k), k)
    if c.force == FORCE_ALL:
        kings |= sw & c.kings
    if kings and c.force != FORCE_NONE:
        out[0] = kings & -kings
        return 1
    if c.partner:
        forced = only_partner(c, removed, avail, sw)
        if forced:
            out[0] = forced
            return 1
    m = complement_pairs(x, avail, cand, 0)
    m = overlap_pairs(c, removed, cand, m)
    m = stock_pairs(c, removed, cand, m)
    m = singles(x & c.kings, cand, m)
    for i in range(m):
        when = moment(c, removed, k, pass_no, cand[i], &at)
        if when >= 0:
            if c.hint[bb_lowest(cand[i])] == cand[i]:
                when -= 64     # HINT (see decide): the removals of FREE's line first
            n = add_move(out, label, n, cand[i], when * 32 + at)
    return n


cdef inline int moment(PyrCtx *c, bb_t removed, int k, int pass_no, uint64_t move,
                       int *at_k) noexcept nogil:
    """EARLIEST. The first moment the cards of a removal are available together: the pass (-1
    when none is left) and, in at_k, the split then."""
    cdef bb_t in_stock = move & c.stock_all
    cdef int j1, j2
    if not in_stock:
        at_k[0] = k
        return pass_no
    j1 = c.where[bb_lowest(in_stock)] - 28
    in_stock &= in_stock - 1
    if not in_stock:
        return reach(c, removed, k, pass_no, j1, at_k)
    j2 = c.where[bb_lowest(in_stock)] - 28
    if j2 < j1:
        j1, j2 = j2, j1
    return earliest_pair(c, removed, k, pass_no, j1, j2, at_k)


cdef void earliest_play(PyrCtx *c, const State *s, uint64_t move, State *out) noexcept nogil:
    cdef bb_t removed = s.removed | move
    cdef int k
    cdef int pass_no = moment(c, s.removed, s.aux & 31, <int>(s.aux >> 5), move, &k)
    while k > 0 and (removed & c.stock_bit[k - 1]):
        k -= 1
    if c.passes == 0:
        pass_no = 0  # with unlimited passes the pass plays no part (SHORTEST keys on it)
    out.removed = removed
    out.aux = <uint64_t>k | (<uint64_t>pass_no << 5)


cdef int pyr_cost(void *ctx, const State *s, uint64_t move) noexcept nogil:
    """SHORTEST. The moves of the real game one EARLIEST move stands for: the draws (and the
    recycle) that bring its cards together at their first moment, then the removal. Between two
    removals the real game has one line only (draw while the stock has cards, else recycle), so
    these are the fewest real moves that make this removal next."""
    cdef PyrCtx *c = <PyrCtx *>ctx
    cdef bb_t removed = s.removed
    cdef int k = s.aux & 31
    cdef int at = k
    cdef int pass_no = <int>(s.aux >> 5)
    cdef int when = moment(c, removed, k, pass_no, move, &at)
    if when == pass_no:
        return 1 + bb_count(c.stock_from[k] & ~c.stock_from[at] & ~removed)
    return (2 + bb_count(c.stock_from[k] & ~removed)
            + bb_count(c.stock_all & ~c.stock_from[at] & ~removed))
