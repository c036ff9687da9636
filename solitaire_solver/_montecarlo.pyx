# cython: language_level=3
"""Core of Monte Carlo (Weddings) (docs/monte-carlo.md): remove two neighbouring cards of one rank
from a five-by-five layout; `consolidate` closes the gaps and refills from the stock.

Packed state: State.removed, the removed cards, and State.aux = d | (empty << 8): d (0..27) the
stock cards dealt so far, `empty` (25 bits, place p = bit p) the empty places. It is canonical:
removals leave the other cards where they are and consolidation moves them forward without
changing their order, appending stock cards in stock order; so the cards in the layout, read in
place order, are always the first 25 + d cards of the pack less the removed ones, in pack order.
Given the deal, (removed, d) fixes that sequence and `empty` fixes the places it occupies: the
k-th card of the sequence sits at the k-th place not in `empty`. The start is (0, 0). The
removed set and d alone would not do: removing A+B, consolidating, then removing C+D leaves the
gaps in other places than removing C+D first. The reference rules key positions by (removed,
25 + d, occupied places), the same information (Game.certificate_key translates).

The move graph is acyclic and lines are short: a removal adds cards to `removed`; consolidate is
generated only when it changes the layout (an empty place before a card, or an empty place while
the stock lasts), and then it deals stock cards (d grows) or, with the stock spent, packs the
cards into the first places, after which it stays illegal until a removal makes a new gap. So
there are at most as many consolidations as removals: a line has at most 26 + 26 moves.

No pruning rule: every legal move is generated (docs/monte-carlo.md says which ideas were
examined and why none is used).
"""

from libc.stdint cimport uint64_t

from solitaire_solver._engine cimport Game, State, depth_first, expand_state, game_clear, root_of
from solitaire_solver.bitboard cimport BB_FULL_PACK, bb_count, bb_lowest, bb_t

from solitaire_solver.contract import run_of
from solitaire_solver.moves import word_code

DEF SIDE = 5
DEF PLACES = 25
DEF STOCK = 27
DEF ALL_PLACES = 0x1FFFFFF

cdef uint64_t CONSOLIDATE_WORD = word_code("consolidate")


cdef struct MonteCarloCtx:
    int pack[52]
    bb_t before[52]         # [card]: the cards that come before it in the pack
    int nfwd[PLACES]
    int fwd[PLACES][4]      # the neighbours of a place that come after it in place order
    bint stuck              # consolidate=stuck: only when no pair can be removed


cdef inline int dealt(const State *s) noexcept nogil:
    return <int>(s.aux & 31)


cdef inline uint64_t occupied(const State *s) noexcept nogil:
    return ~(s.aux >> 8) & ALL_PLACES


cdef inline void layout(MonteCarloCtx *c, const State *s, int *grid) noexcept nogil:
    """grid[p]: the card at place p, or -1."""
    cdef uint64_t occ = occupied(s)
    cdef int j, card, p
    for p in range(PLACES):
        grid[p] = -1
    for j in range(PLACES + dealt(s)):
        card = c.pack[j]
        if not (s.removed >> card) & 1:
            p = bb_lowest(occ)
            occ &= occ - 1
            grid[p] = card


cdef inline bint can_consolidate(const State *s) noexcept nogil:
    """Consolidating changes the layout: a card after an empty place, or an empty place while
    the stock lasts."""
    cdef uint64_t occ = occupied(s)
    cdef int m = bb_count(occ)
    if occ != (((<uint64_t>1) << m) - 1):
        return True
    return m < PLACES and dealt(s) < STOCK


cdef int montecarlo_moves(void *ctx, const State *s, uint64_t *out) noexcept nogil:
    """Every legal move. The order only changes how soon a win is found (docs/monte-carlo.md):
    consolidate first (consolidate=any), then the pairs from the last place back."""
    cdef MonteCarloCtx *c = <MonteCarloCtx *>ctx
    cdef int grid[PLACES]
    cdef int p, i, q, n = 0
    cdef bint gap = can_consolidate(s)
    layout(c, s, grid)
    if gap and not c.stuck:
        out[n] = CONSOLIDATE_WORD
        n += 1
    for p in range(PLACES - 1, -1, -1):
        if grid[p] < 0:
            continue
        for i in range(c.nfwd[p] - 1, -1, -1):
            q = c.fwd[p][i]
            if grid[q] >= 0 and grid[q] % 13 == grid[p] % 13:
                out[n] = ((<bb_t>1) << grid[p]) | ((<bb_t>1) << grid[q])
                n += 1
    if gap and c.stuck and n == 0:
        out[n] = CONSOLIDATE_WORD
        n += 1
    return n


cdef inline int place_of(MonteCarloCtx *c, const State *s, int card) noexcept nogil:
    """The place of a card in the layout: the k-th occupied place, k the cards left before it
    in the pack (all of them are in the layout, since the stock comes after it)."""
    cdef uint64_t occ = occupied(s)
    cdef int k = bb_count(c.before[card] & ~s.removed)
    while k:
        occ &= occ - 1
        k -= 1
    return bb_lowest(occ)


cdef void montecarlo_play(void *ctx, const State *s, uint64_t move, State *out) noexcept nogil:
    cdef MonteCarloCtx *c = <MonteCarloCtx *>ctx
    cdef int m, take, a, b
    cdef uint64_t empty
    if move == CONSOLIDATE_WORD:
        m = bb_count(occupied(s))
        take = PLACES - m
        if take > STOCK - dealt(s):
            take = STOCK - dealt(s)
        empty = ~(((<uint64_t>1) << (m + take)) - 1) & ALL_PLACES
        out.removed = s.removed
        out.aux = <uint64_t>(dealt(s) + take) | (empty << 8)
        return
    a = bb_lowest(move)
    b = bb_lowest(move & (move - 1))
    empty = (s.aux >> 8) | ((<uint64_t>1) << place_of(c, s, a)) | ((<uint64_t>1) << place_of(c, s, b))
    out.removed = s.removed | move
    out.aux = <uint64_t>dealt(s) | (empty << 8)


cdef int montecarlo_won(void *ctx, const State *s) noexcept nogil:
    return s.removed == BB_FULL_PACK


cdef void setup(MonteCarloCtx *c, object cards, bint stuck) except *:
    cdef int j, p, q
    cdef bb_t seen = 0
    if len(cards) != 52:
        raise ValueError("a deal has 52 cards")
    for j in range(52):
        if not 0 <= cards[j] < 52 or (seen >> <int>cards[j]) & 1:
            raise ValueError("a deal holds each of the 52 cards once")
        c.pack[j] = cards[j]
        c.before[c.pack[j]] = seen
        seen |= (<bb_t>1) << c.pack[j]
    for p in range(PLACES):
        c.nfwd[p] = 0
        for q in (p + 1, p + SIDE - 1, p + SIDE, p + SIDE + 1):
            if q < PLACES and abs(q // SIDE - p // SIDE) <= 1 and abs(q % SIDE - p % SIDE) <= 1:
                c.fwd[p][c.nfwd[p]] = q
                c.nfwd[p] += 1
    c.stuck = stuck


cdef void make_game(Game *g, MonteCarloCtx *c, dict spec) except *:
    setup(c, spec["cards"], spec.get("stuck", False))
    game_clear(g)
    g.ctx = c
    g.moves = montecarlo_moves
    g.play = montecarlo_play
    g.won = montecarlo_won
    g.counted = BB_FULL_PACK
    # Pairs of neighbours of one rank among 25 cards: at most 36 (six ranks of four in 2x2
    # squares), and consolidate.
    g.max_moves = 40
    # 26 removals and at most as many consolidations.
    g.max_depth = 54


def solve(dict spec, str objective, limits, bint certificate):
    """The contract's entry point (solitaire_solver/contract.py). spec: "cards" (52 card indexes,
    pack order), "stuck" (consolidate=stuck)."""
    cdef MonteCarloCtx c
    cdef Game g
    cdef State root
    if objective != "decide":
        raise ValueError(f"monte-carlo has no objective {objective!r}")
    make_game(&g, &c, spec)
    root = root_of(spec)
    if (root.aux & 31) > STOCK or (root.aux >> 33) != 0 or (root.aux & 0xE0) != 0:
        raise ValueError(f"aux {root.aux:#x} is not a Monte Carlo position")
    return run_of(*depth_first(&g, root, limits.max_states, limits.max_seconds,
                               limits.memory_bytes, certificate))


def expand(dict spec, uint64_t removed, uint64_t aux):
    """The contract's expand(): every legal move at (removed, aux) and where it leads."""
    cdef MonteCarloCtx c
    cdef Game g
    make_game(&g, &c, spec)
    return expand_state(&g, removed, aux)
