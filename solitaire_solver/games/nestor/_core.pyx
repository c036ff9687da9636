# cython: language_level=3
"""Core of Nestor (Matrimony), closed and open reserve.

It receives the layout already dealt (rules/nestor.py deals it: one procedure for both sides).
A position is State.removed, the cards removed in pairs, plus State.aux, the stock cards turned so
far (closed reserve; always 0 with the open one). The removed cards of a column are always its
last ones, so a column's height is its length less its removed cards, and its exposed card
follows. This is exactly the reference rules' key (removed, turned).

Pruning (switched off, with `prune=False` or when a certificate is asked for):
- dead(): a per-rank matching count (closed reserve: only with closed_dead=True, see solve()). Two cards of one column are never available together, so
  every card of a rank that must still leave needs a partner of its rank from another column or
  from the stock, each partner used once. See rank_dead() for the exact condition under each
  reserve; it only ever rejects positions that no line of play wins.
- open reserve, a safe move: when every card left of some rank is available, removing two of them
  is played alone. Open availability only grows as cards leave (a column card stays exposed until
  it is removed; stock cards are always available), so from any winning line, moving the removal
  of those two cards to the front (and, with four left, pairing the other two where the line
  first removed cards of that rank) is still legal and still wins.
  No such rule is used with the closed reserve: there, removing cards early can unblock the
  tableau and forbid a stock turn a winning line relied on.
tests/test_nestor.py checks pruned against unpruned searches and against the reference search.
"""

from libc.stdint cimport uint64_t

from solitaire_solver.engine._engine cimport Game, State, depth_first, expand_state, step_state, game_clear, root_of
from solitaire_solver.engine.bitboard cimport (
    BB_FULL_PACK, bb_count, bb_pairs_within, bb_pop_lowest, bb_rank, bb_t,
)

from solitaire_solver.engine.contract import run_of

from solitaire_solver.moves import word_code

cdef enum:
    MAX_COLS = 8

# The move word of a stock card discarded (solitaire_solver.moves defines every word).
cdef uint64_t DISCARD_WORD = word_code("discard")


cdef inline int popc(bb_t x) noexcept nogil:
    """Bits set in x. SWAR instead of bb_count: built without -mpopcnt, __builtin_popcountll is a
    library call, and this module counts many masks per position."""
    x = x - ((x >> 1) & <bb_t>0x5555555555555555ULL)
    x = (x & <bb_t>0x3333333333333333ULL) + ((x >> 2) & <bb_t>0x3333333333333333ULL)
    x = (x + (x >> 4)) & <bb_t>0x0F0F0F0F0F0F0F0FULL
    return <int>((x * <bb_t>0x0101010101010101ULL) >> 56)

cdef struct NestorCtx:
    bb_t colmask[MAX_COLS]      # the cards of each column
    int cards[MAX_COLS][52]     # the cards of each column, first dealt first
    int length[MAX_COLS]
    int stock[52]               # the stock, top first
    int nstock
    bb_t stockmask
    bb_t goal                   # cards that must be removed to win
    bint open
    bint safe                   # use the open reserve's safe move
    int stock_left[53][14]      # [turned][value]: stock cards of that value not yet turned
    bb_t groups[MAX_COLS * 13]  # the cards of one rank in one column, when two or more
    int group_rank[MAX_COLS * 13]
    int ngroups


cdef inline bb_t exposed(NestorCtx *c, bb_t removed) noexcept nogil:
    cdef bb_t out = 0
    cdef int i, h
    for i in range(MAX_COLS):
        h = c.length[i] - popc(c.colmask[i] & removed)
        if h > 0:
            out |= (<bb_t>1) << c.cards[i][h - 1]
    return out


cdef int nestor_moves(void *ctx, const State *s, uint64_t *out) noexcept nogil:
    cdef NestorCtx *c = <NestorCtx *>ctx
    cdef bb_t avail = exposed(c, s.removed)
    cdef bb_t a, rem
    cdef int n = 0
    cdef int v, top
    if c.open:
        avail |= c.stockmask & ~s.removed
        if c.safe:
            for v in range(1, 14):
                rem = bb_rank(v) & ~s.removed
                if rem and (rem & ~avail) == 0:
                    out[0] = (rem & -rem)
                    rem = bb_pop_lowest(rem)
                    out[0] |= rem & -rem
                    return 1
    for v in range(1, 14):
        a = avail & bb_rank(v)
        if a & (a - 1):
            n = bb_pairs_within(a, out, n)
    if n or c.open or <int>s.aux >= c.nstock:
        return n
    # Closed reserve, tableau blocked: the top stock card is turned and pairs at once if it can.
    top = c.stock[s.aux]
    a = avail & bb_rank(top % 13 + 1)
    while a:
        out[n] = (a & -a) | ((<bb_t>1) << top)
        n += 1
        a = bb_pop_lowest(a)
    if n == 0:
        out[0] = DISCARD_WORD
        n = 1
    return n


cdef void nestor_play(void *ctx, const State *s, uint64_t move, State *out) noexcept nogil:
    cdef NestorCtx *c = <NestorCtx *>ctx
    out.aux = s.aux
    if (move >> 52) != 0:                       # discard
        out.removed = s.removed
        out.aux = s.aux + 1
        return
    out.removed = s.removed | move
    if not c.open and (move & c.stockmask) != 0:
        out.aux = s.aux + 1


cdef int nestor_won(void *ctx, const State *s) noexcept nogil:
    cdef NestorCtx *c = <NestorCtx *>ctx
    return (s.removed & c.goal) == c.goal


cdef inline bint rank_dead(NestorCtx *c, const State *s, int v, int g) noexcept nogil:
    """No matching can remove the cards of value v that must leave (see the module doc).

    t: cards of the rank left in the tableau, g: the most of them in one column, k: stock cards
    of the rank still usable (closed: not yet turned; open: not yet removed).
    Closed: the t tableau cards must all leave; k' <= k of them with stock cards (a stock card
    pairs only with a tableau card), the other t - k' in pairs of two different columns, so
    t - k' is even, k' <= t, and the g cards of the fullest column need g distinct partners from
    the t - g others and the k' stock cards: 2g <= t + k'. Dead when no k' fits.
    Open: all t + k cards must leave, stock cards pair with anything: dead when 2g > t + k.
    """
    cdef bb_t rank = bb_rank(v)
    cdef int t = popc(c.goal & ~c.stockmask & rank & ~s.removed)
    cdef int k, kk
    if t == 0:
        return False
    if c.open:
        return 2 * g > t + popc(c.stockmask & rank & ~s.removed)
    k = c.stock_left[s.aux][v]
    for kk in range(0, k + 1):
        if kk <= t and (t - kk) % 2 == 0 and 2 * g <= t + kk:
            return False
    return True


cdef int nestor_dead(void *ctx, const State *s) noexcept nogil:
    cdef NestorCtx *c = <NestorCtx *>ctx
    cdef int v, i, x
    cdef int g[14]
    # g (the most cards of a rank left in one column) is 1 or 0 except for the few (column,
    # rank) groups of two or more cards that setup() listed; t = 0 makes g irrelevant.
    for v in range(14):
        g[v] = 1
    for i in range(c.ngroups):
        x = popc(c.groups[i] & ~s.removed)
        if x > g[c.group_rank[i]]:
            g[c.group_rank[i]] = x
    if c.open:
        # With g = 1 the open test never fires (t + k is even and at least 2 when t > 0).
        for i in range(c.ngroups):
            v = c.group_rank[i]
            if g[v] >= 2 and rank_dead(c, s, v, g[v]):
                return 1
        return 0
    for v in range(1, 14):
        if rank_dead(c, s, v, g[v]):
            return 1
    return 0


cdef void setup(NestorCtx *c, object columns, object stock, bint open_reserve,
                bint safe) except *:
    cdef int i, j
    cdef bb_t seen = 0
    cdef bb_t bit
    if len(columns) > MAX_COLS or len(stock) > 52:
        raise ValueError(f"at most {MAX_COLS} columns")
    c.nstock = len(stock)
    c.stockmask = 0
    c.goal = 0
    for i in range(MAX_COLS):
        c.colmask[i] = 0
        c.length[i] = 0
    for i, col in enumerate(columns):
        c.length[i] = len(col)
        for j, card in enumerate(col):
            c.cards[i][j] = card
            bit = (<bb_t>1) << <int>card
            if seen & bit:
                raise ValueError(f"card {card} appears twice")
            seen |= bit
            c.colmask[i] |= bit
        c.goal |= c.colmask[i]
    for j, card in enumerate(stock):
        c.stock[j] = card
        bit = (<bb_t>1) << <int>card
        if seen & bit:
            raise ValueError(f"card {card} appears twice")
        seen |= bit
        c.stockmask |= bit
    if seen != BB_FULL_PACK:
        raise ValueError("the layout does not hold the 52 cards")
    c.open = open_reserve
    c.safe = safe and open_reserve
    for i in range(c.nstock, -1, -1):
        for j in range(14):
            c.stock_left[i][j] = 0 if i == c.nstock else c.stock_left[i + 1][j]
        if i < c.nstock:
            c.stock_left[i][c.stock[i] % 13 + 1] += 1
    c.ngroups = 0
    for i in range(MAX_COLS):
        for j in range(1, 14):
            bit = c.colmask[i] & bb_rank(j)
            if popc(bit) >= 2:
                c.groups[c.ngroups] = bit
                c.group_rank[c.ngroups] = j
                c.ngroups += 1
    if open_reserve:
        c.goal |= c.stockmask


def solve(dict spec, str objective, limits, bint certificate):
    """The contract's entry point (solitaire_solver/engine/contract.py). spec: "columns" (card indexes,
    first dealt first), "stock" (top first), "open" (the open reserve); for the tests, "prune"
    (default True; False, or a certificate, searches every legal move with no pruning) and
    "closed_dead" (the matching rule under the closed reserve too: exact, but on seeded deals
    it costs more time than the positions it saves (docs/notes/benchmarks-history.md), so it is off by
    default)."""
    cdef NestorCtx c
    cdef Game g
    cdef State root
    cdef bint prune = spec.get("prune", True) and not certificate
    if objective != "decide":
        raise ValueError(f"nestor has no objective {objective!r}")
    make_game(&g, &c, spec, prune)
    root = root_of(spec)
    if spec.get("root") is not None:
        check_given(&c, root.removed, root.aux)
    return run_of(*depth_first(&g, root, limits.max_states, limits.max_seconds,
                               limits.memory_bytes, certificate))


cdef void make_game(Game *g, NestorCtx *c, dict spec, bint prune) except *:
    cdef bint open_reserve = spec["open"]
    setup(c, spec["columns"], spec["stock"], open_reserve, prune)
    game_clear(g)
    g.ctx = c
    g.moves = nestor_moves
    g.play = nestor_play
    g.won = nestor_won
    g.dead = NULL
    g.counted = c.goal
    if prune and (open_reserve or spec.get("closed_dead", False)):
        g.dead = nestor_dead
    # At most 12 cards are available at once (8 exposed, 4 stock): 3 ranks of 4 give 18 pairs.
    g.max_moves = 32
    # Every move removes two cards or turns a stock card: at most 26 + 4 moves.
    g.max_depth = 40


#: Positions given from Python are checked (engine/contract.py).
CHECKS_POSITIONS = True


cdef int check_given(NestorCtx *c, uint64_t removed, uint64_t aux) except -1:
    """Refuse a position given from Python that indexes past the deal's tables: a card beyond
    the pack, or more stock cards turned than the stock holds."""
    if removed >> 52 or aux > <uint64_t>c.nstock:
        raise ValueError(f"({removed}, {aux}) is not a position of this Nestor deal")
    return 0


# -- the contract's expand, step, random_win and playouts (engine/_entries.pxi) ------------------

ctypedef NestorCtx CoreCtx


cdef int prepare(Game *g, CoreCtx *c, dict spec, bint listing) except -1:
    """The game of expand and step (listing; what they list: no key: every legal move) and of the walks."""
    make_game(g, c, spec, False)
    return 0


include "../../engine/_entries.pxi"


#: The tests' switches (tests/test_fuzz.py): the spec keys of this core's search modes, each
#: searched on random input beside core_spec's own.
SEARCH_MODES = ({}, {"prune": False}, {"closed_dead": True})
