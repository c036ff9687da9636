# Included by _pyramid.pyx: the score objective's value of a position and its upper bound.

cdef int BONUS[4]
BONUS[:] = [0, 50, 35, 20]


cdef int pyr_value(void *ctx, const State *s) noexcept nogil:
    cdef PyrCtx *c = <PyrCtx *>ctx
    cdef int cleared = (s.aux >> 6) & 3
    if cleared:
        return BONUS[cleared] - bb_count(c.stock_all & ~s.removed)
    return -bb_count(BB_FULL_PACK & ~s.removed)


cdef int pyr_pass_bound(void *ctx, const State *s) noexcept nogil:
    """pyr_bound without DEAD: the bonus of the clearing pass, or of the current one, as the
    reference rules' score_bound (a score certificate is checked with it)."""
    cdef int cleared = (s.aux >> 6) & 3
    return BONUS[cleared] if cleared else BONUS[(s.aux >> 8) + 1]


cdef int pyr_bound(void *ctx, const State *s) noexcept nogil:
    """An upper bound of the score of any line through s: the bonus of the clearing pass (or of
    the current pass, the earliest the pyramid can still be cleared) with nothing left; -1 when
    the pyramid can never be cleared (DEAD), since then a card at least stays."""
    cdef PyrCtx *c = <PyrCtx *>ctx
    cdef int cleared = (s.aux >> 6) & 3
    if cleared:
        return BONUS[cleared]
    if unmatched(c, s, False):
        return -1
    return BONUS[(s.aux >> 8) + 1]
