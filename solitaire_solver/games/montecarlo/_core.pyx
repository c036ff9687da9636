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

from solitaire_solver.engine._engine cimport Game, State, depth_first, expand_state, step_state, game_clear, root_of
from solitaire_solver.engine.bitboard cimport BB_FULL_PACK, bb_count, bb_lowest, bb_rank, bb_t, read_pack

from solitaire_solver.engine.contract import run_of
from solitaire_solver.moves import word_code

DEF SIDE = 5
DEF PLACES = 25
DEF STOCK = 27
DEF ALL_PLACES = 0x1FFFFFF

cdef uint64_t CONSOLIDATE_WORD = word_code("consolidate")
# Places (bit p) off the last and off the first column of the five-by-five grid.
cdef uint64_t NOT_LAST_COLUMN = sum(1 << p for p in range(PLACES) if p % SIDE != SIDE - 1)
cdef uint64_t NOT_FIRST_COLUMN = sum(1 << p for p in range(PLACES) if p % SIDE != 0)


cdef extern from *:
    int clz64 "__builtin_clzll"(unsigned long long) nogil


cdef struct MonteCarloCtx:
    int pack[52]
    int rank[52]            # [card]: its rank, 0..12
    bb_t before[52]         # [card]: the cards that come before it in the pack
    bint stuck              # consolidate=stuck: only when no pair can be removed
    int order               # the order of trial (spec "order"): the ORDER_ bits below
    uint64_t shake          # nonzero: the pairs rotated by a hash of the position and this


cdef inline int dealt(const State *s) noexcept nogil:
    return <int>(s.aux & 31)


cdef inline uint64_t occupied(const State *s) noexcept nogil:
    return ~(s.aux >> 8) & ALL_PLACES


cdef inline void layout(MonteCarloCtx *c, const State *s, int *card_at,
                        uint64_t *of_rank) noexcept nogil:
    """card_at[p]: the card at place p (32 entries: index 31 takes the writes of removed
    cards); of_rank[r]: the places holding a card of rank r (13 masks, zeroed by the caller)."""
    cdef uint64_t occ = occupied(s)
    cdef uint64_t left = ~s.removed
    cdef uint64_t keep
    cdef int j, card, p
    for j in range(PLACES + dealt(s)):
        card = c.pack[j]
        # Branch-free: whether a pack card is still there is unpredictable. A card left takes
        # the lowest free place; a removed one writes to the spare entry and takes none.
        keep = (left >> card) & 1
        p = bb_lowest(occ | ((<uint64_t>1) << 31)) if keep else 31
        card_at[p] = card
        of_rank[c.rank[card]] |= keep << p
        occ &= occ - keep


cdef inline bint can_consolidate(const State *s) noexcept nogil:
    """Consolidating changes the layout: a card after an empty place, or an empty place while
    the stock lasts."""
    cdef uint64_t occ = occupied(s)
    cdef int m = bb_count(occ)
    if occ != (((<uint64_t>1) << m) - 1):
        return True
    return m < PLACES and dealt(s) < STOCK


#: The orders of trial (spec "order"; 0, the default: the pairs from the first place on, then
#: consolidate): bit 0, consolidate before the pairs (under consolidate=any); bit 1, the pairs
#: from the last place back. The same moves in every order: only how soon a win is found
#: changes (docs/monte-carlo.md, "Move order").
cdef enum:
    ORDER_CONSOLIDATE_FIRST = 1
    ORDER_PAIRS_BACK = 2


cdef inline uint64_t mix(uint64_t x) noexcept nogil:
    # splitmix64's finaliser: a hash of the position for the shaken orders
    x = (x ^ (x >> 30)) * <uint64_t>0xbf58476d1ce4e5b9
    x = (x ^ (x >> 27)) * <uint64_t>0x94d049bb133111eb
    return x ^ (x >> 31)


cdef int montecarlo_moves(void *ctx, const State *s, uint64_t *out) noexcept nogil:
    """Every legal move, in the order of trial c.order (ORDER_ bits above) and c.shake."""
    cdef MonteCarloCtx *c = <MonteCarloCtx *>ctx
    cdef int card_at[32]
    cdef uint64_t of_rank[13]
    cdef uint64_t x, right = 0, down_left = 0, down = 0, down_right = 0, start
    cdef int p, r, n = 0, first, k
    cdef uint64_t tmp[40]
    cdef bb_t here
    cdef bint gap = can_consolidate(s)
    for r in range(13):
        of_rank[r] = 0
    layout(c, s, card_at, of_rank)
    if gap and not c.stuck and c.order & ORDER_CONSOLIDATE_FIRST:
        out[n] = CONSOLIDATE_WORD
        n += 1
    first = n
    # The places p whose card pairs with its neighbour p + 1 (right), p + 4 (below left),
    # p + 5 (below), p + 6 (below right), for all ranks at once: places of one rank shifted onto
    # each other, less the shifts that wrap around a row's end.
    for r in range(13):
        x = of_rank[r]
        right |= x & (x >> 1)
        down_left |= x & (x >> 4)
        down |= x & (x >> 5)
        down_right |= x & (x >> 6)
    right &= NOT_LAST_COLUMN
    down_right &= NOT_LAST_COLUMN
    down_left &= NOT_FIRST_COLUMN
    start = right | down_left | down | down_right
    while start:
        p = 63 - clz64(start) if c.order & ORDER_PAIRS_BACK else bb_lowest(start)
        start ^= (<uint64_t>1) << p
        here = (<bb_t>1) << card_at[p]
        if (down_right >> p) & 1:
            out[n] = here | ((<bb_t>1) << card_at[p + 6])
            n += 1
        if (down >> p) & 1:
            out[n] = here | ((<bb_t>1) << card_at[p + 5])
            n += 1
        if (down_left >> p) & 1:
            out[n] = here | ((<bb_t>1) << card_at[p + 4])
            n += 1
        if (right >> p) & 1:
            out[n] = here | ((<bb_t>1) << card_at[p + 1])
            n += 1
    if c.shake and n - first > 1:
        k = <int>(mix(s.removed ^ (s.aux * <uint64_t>0x9e3779b97f4a7c15) ^ c.shake)
                  % <uint64_t>(n - first))
        for r in range(n - first):
            tmp[r] = out[first + (r + k) % (n - first)]
        for r in range(n - first):
            out[first + r] = tmp[r]
    if gap and (n == 0 if c.stuck else not (c.order & ORDER_CONSOLIDATE_FIRST)):
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


cdef void setup(MonteCarloCtx *c, object cards, bint stuck, int order=0,
                uint64_t shake=0) except *:
    cdef int j
    cdef bb_t seen = 0
    read_pack(cards, c.pack)
    for j in range(52):
        c.rank[c.pack[j]] = c.pack[j] % 13
        c.before[c.pack[j]] = seen
        seen |= (<bb_t>1) << c.pack[j]
    c.stuck = stuck
    c.order = order
    c.shake = shake


cdef void make_game(Game *g, MonteCarloCtx *c, dict spec) except *:
    setup(c, spec["cards"], spec.get("stuck", False), spec.get("order", 0),
          spec.get("shake", 0))
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
    """The contract's entry point (solitaire_solver/engine/contract.py). spec: "cards" (52 card indexes,
    pack order), "stuck" (consolidate=stuck); for the first try (games/montecarlo/game.py),
    "order" (0..3: ORDER_CONSOLIDATE_FIRST | ORDER_PAIRS_BACK) and "shake" (a seed)."""
    cdef MonteCarloCtx c
    cdef Game g
    cdef State root
    if objective != "decide":
        raise ValueError(f"monte-carlo has no objective {objective!r}")
    make_game(&g, &c, spec)
    root = root_of(spec)
    if spec.get("root") is not None:
        check_given(&c, root.removed, root.aux)
    return run_of(*depth_first(&g, root, limits.max_states, limits.max_seconds,
                               limits.memory_bytes, certificate))


# -- the contract's expand, step, random_win and playouts (engine/_entries.pxi) ------------------

ctypedef MonteCarloCtx CoreCtx


cdef int prepare(Game *g, CoreCtx *c, dict spec, bint listing) except -1:
    """The game of expand and step (listing; what they list: no key: every legal move) and of the walks."""
    make_game(g, c, spec)
    return 0


#: Positions given from Python are checked (engine/contract.py).
CHECKS_POSITIONS = True


cdef int check_given(MonteCarloCtx *c, uint64_t removed, uint64_t aux) except -1:
    """Refuse a position given from Python that is none of this deal's (the layout is read off
    the pack by d: a d past the stock reads past it, and more cards than places would place
    one off the grid): aux with bits but d's (0..27) and the 25 places', a removed card the
    stock has not dealt, empty places that are not one per card gone from the layout, or a
    rank with an odd number of cards removed (cards leave in pairs of one rank)."""
    cdef int d = <int>(aux & 31), r
    cdef uint64_t empty = aux >> 8
    cdef bb_t dealt
    if d > STOCK or aux & 0xE0 or empty >> PLACES:
        raise ValueError(f"aux {aux:#x} is not a Monte Carlo position: d (bits 0..4) is 0..{STOCK} "
                         f"and the empty places are bits 8..{8 + PLACES - 1}")
    dealt = BB_FULL_PACK if PLACES + d >= 52 else c.before[c.pack[PLACES + d]]
    if removed & ~dealt:
        raise ValueError(f"({removed}, {aux}) is not a Monte Carlo position: it removes a card "
                         f"beyond the {PLACES + d} dealt")
    if bb_count(~empty & ALL_PLACES) != PLACES + d - bb_count(removed):
        raise ValueError(f"({removed}, {aux}) is not a Monte Carlo position: "
                         f"{bb_count(~empty & ALL_PLACES)} places are taken by "
                         f"{PLACES + d - bb_count(removed)} cards")
    for r in range(1, 14):
        if bb_count(removed & bb_rank(r)) & 1:
            raise ValueError(f"({removed}, {aux}) is not a Monte Carlo position: an odd number of "
                             "cards of one rank removed")
    return 0


include "../../engine/_entries.pxi"


#: The tests' switches (tests/test_fuzz.py): the spec keys of this core's search modes, each
#: searched on random input beside core_spec's own.
SEARCH_MODES = ({},)
