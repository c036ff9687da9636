# Included by _pyramid.pyx: the FREE search of the decide objective (the stock as an unordered
# pool, see the module doc and docs/pyramid-search.md) and realize(), which plays a line of removals out
# as a line of real moves (FREE and EARLIEST lines alike).

cdef int free_moves(PyrCtx *c, const State *s, uint64_t *out) noexcept nogil:
    """FREE. With unlimited passes the split k of the stock does not matter: from (removed, k)
    draws and recycles reach (removed, k') for every k' (a recycle needs a non-empty waste, and
    with an empty waste and stock there is no stock card to place). So the position is the
    removed cards alone, any stock card left can be brought to the top, and two stock cards can
    be the waste and stock tops together exactly when no stock card left lies between them in
    dealt order. This is the game with unlimited passes, exactly, on 1/48 of the keys or fewer;
    with p passes every line of play is also a line here, so no win here proves no win there.

    POOL (c.pool): no pair of two stock cards and no stock King. Here a stock card pairs with
    an available pyramid card whatever cards are left around it in the stock, and a pair of two
    stock cards stays legal once legal (the cards between them never come back), so a winning
    line can play every move taking no pyramid card after all the others, in the same order:
    each move taking a pyramid card finds the same pyramid cards available and its stock card
    still there, and each of the others the same stock cards gone between its two. With goal
    pyramid those last moves can be dropped; with goal all the position whose pyramid is
    cleared is won exactly when its stock can then be cleared alone (stock_clears)."""
    cdef bb_t removed = s.removed
    cdef bb_t avail = available_pyramid(c, removed)
    cdef bb_t x = avail | (c.stock_all & ~removed)
    cdef bb_t kings = x & c.kings
    cdef bint pool = c.pool
    cdef int n
    if pool:
        kings &= avail
    if kings and c.force != FORCE_NONE:
        out[0] = kings & -kings
        return 1
    n = complement_pairs(x, avail, out, 0)
    n = overlap_pairs(c, removed, out, n)
    if not pool:
        n = stock_pairs(c, removed, out, n)
    return singles(kings, out, n)


cdef bint stock_clears(PyrCtx *c, bb_t removed, uint64_t *out, int *n) noexcept nogil:
    """POOL with goal all: whether the stock cards left can all be removed by themselves
    (Kings alone, and pairs of stock cards with none left between them in dealt order); if out
    is not NULL, the moves that do it are written there (n[0] of them, 24 at most). Removing a
    pair joins its neighbours, as cancelling x and its inverse joins the letters around them in
    a word of a free group (here the inverse of value v is 13 - v, never v itself, and a King is
    no letter): such cancelling ends in one word whatever the order, so removing the first pair
    met, with a stack, clears the stock exactly when some order does."""
    cdef int stack[24]
    cdef int top = 0, j, k = 0
    cdef bb_t left = c.stock_all & ~removed
    for j in range(24):
        if not (left & c.stock_bit[j]):
            continue
        if c.stock_bit[j] & c.kings:
            if out != NULL:
                out[k] = c.stock_bit[j]
                k += 1
        elif c.pairs and top and c.sval[stack[top - 1]] + c.sval[j] == 13:
            top -= 1
            if out != NULL:
                out[k] = c.stock_bit[stack[top]] | c.stock_bit[j]
                k += 1
        else:
            stack[top] = j
            top += 1
    if n != NULL:
        n[0] = k
    return top == 0


cdef list realize(PyrCtx *c, list path, State root, bint *fits):
    """A FREE line (removals only) as a line of play from root: before each removal, draw (or
    recycle when the stock is empty) until its stock cards are the stock or waste tops. Waiting
    for the first moment the cards are available never costs a pass later (the stock only moves
    forward), so fits says whether the line keeps to the passes of the variant."""
    cdef State s = root, t
    cdef bb_t move, need, sw
    cdef int k, st, steps
    cdef list out = []
    fits[0] = True
    for move in path:
        need = move & c.stock_all
        steps = 0
        while True:
            k = s.aux & 31
            st = stock_top(c, s.removed, k)
            sw = tops(c, st, k)
            if (need & sw) == need:
                break
            steps += 1
            if steps > 60:
                raise RuntimeError("pyramid core: a FREE line cannot be played out")
            if st >= 0:
                out.append(c.draw_word)
                pyr_play(c, &s, c.draw_word, &t)
            else:
                if c.passes and <int>(s.aux >> 8) >= c.passes - 1:
                    fits[0] = False
                out.append(c.recycle_word)
                pyr_play(c, &s, c.recycle_word, &t)
            s = t
        out.append(move)
        pyr_play(c, &s, move, &t)
        s = t
    return out
