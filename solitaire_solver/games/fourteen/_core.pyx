# cython: language_level=3
"""Core of the Fourteen Puzzle: twelve piles, remove two tops totalling 14.

A position is the removed-cards bitboard alone (aux = 0): cards leave a pile only from its top, so
the cards left in a pile are its bottom h cards, h = how many of the pile's cards are not removed.
The table key (removed, 0) therefore identifies a position exactly, and equals the reference
rules' key.

Two move modes:
- MODE_ALL: every legal removal, in the reference rules' order; no dead() test. Certificates use it,
  since a certificate must be closed under every legal move.
- MODE_PRUNED: the three exact rules below. Each keeps, for every position, "a win exists" equal to
  "a win exists in the pruned move graph" (by induction on the cards left); tests/test_fourteen.py
  compares both modes and the reference search on many deals, and checks each rule fires.
  1. dead(): the cards left of each pair of complementary ranks must be matchable across piles,
     since two cards of one pile are never both on top. For ranks r, 14-r (r < 7) with n cards of
     each left, Hall's theorem on this "different piles" bipartite graph says a matching exists iff
     no pile holds more than n cards of the two ranks; for the Sevens (m left) iff no pile holds
     more than m/2 of them. A winning line removes the cards left in pairs that form such a
     matching, so a position failing the test cannot be won.
  2. Forced partner: if a top card x has exactly one complement y left outside its own pile, and y
     is on top of its pile, only x+y is generated. Proof: every winning line removes x, necessarily
     with y (the only partner it can ever meet), so x+y is in the line; the moves before it touch
     neither pile (their tops x and y are still there), so x+y can be played first and those moves
     after it, reaching the same position.
  3. Twin piles: two piles with the same height and the same ranks from bottom to top are
     interchangeable (suits play no part in the rules). A removal using pile q is skipped when a
     lower-numbered twin q' of q (not the other pile of the move) exists: the removal with q'
     instead is legal and leads to the same position with q and q' exchanged, so it wins iff the
     skipped one does. Each skip lowers the sum of the pile numbers, so a kept removal always
     stands for every skipped one.
"""

from libc.stdint cimport uint32_t, uint64_t

from solitaire_solver.engine._engine cimport Game, State, depth_first, expand_state, step_state, game_clear, root_of
from solitaire_solver.engine.bitboard cimport BB_FULL_PACK, bb_count, bb_lowest, bb_rank, bb_t

from solitaire_solver.engine.contract import run_of

MODE_ALL = 0
MODE_PRUNED = 1

DEF NPILES = 12

cdef struct FourteenCtx:
    bb_t pile_mask[NPILES]
    int card[NPILES][5]        # card index at height i (0 = the bottom)
    uint32_t ranks[NPILES]     # the pile's values, 4 bits a card, the bottom card in bits 0..3
    bb_t class_mask[7]         # class v-1: the cards of values v and 14-v (class 6: the Sevens)
    int mode


cdef inline int tops(FourteenCtx *c, bb_t left, int *h, int *top, int *val) noexcept nogil:
    """Fills heights, top cards and top values (0 for an empty pile); returns non-empty piles."""
    cdef int p, k = 0
    for p in range(NPILES):
        h[p] = bb_count(left & c.pile_mask[p])
        if h[p]:
            top[p] = c.card[p][h[p] - 1]
            val[p] = top[p] % 13 + 1
            k += 1
        else:
            top[p] = -1
            val[p] = 0
    return k


cdef inline bint twins(FourteenCtx *c, int *h, int a, int b) noexcept nogil:
    """Piles a and b hold the same ranks from the bottom up (rule 3)."""
    if h[a] != h[b]:
        return False
    cdef uint32_t m = (<uint32_t>1 << (4 * h[a])) - 1
    return (c.ranks[a] & m) == (c.ranks[b] & m)


cdef inline bint has_lower_twin(FourteenCtx *c, int *h, int q, int other) noexcept nogil:
    cdef int t
    for t in range(q):
        if t != other and twins(c, h, t, q):
            return True
    return False


cdef int fourteen_moves(void *ctx, const State *s, uint64_t *out) noexcept nogil:
    cdef FourteenCtx *c = <FourteenCtx *>ctx
    cdef bb_t left = ~s.removed & BB_FULL_PACK
    cdef int h[NPILES]
    cdef int top[NPILES]
    cdef int val[NPILES]
    cdef int p, q, n = 0
    cdef bb_t topbits = 0, comp
    tops(c, left, h, top, val)
    if c.mode == 1:
        for p in range(NPILES):
            if h[p]:
                topbits |= (<bb_t>1) << top[p]
        # Rule 2: a top with exactly one partner left outside its pile, itself on top.
        for p in range(NPILES):
            if h[p] == 0:
                continue
            comp = left & bb_rank(14 - val[p]) & ~c.pile_mask[p]
            if comp and (comp & (comp - 1)) == 0 and (comp & topbits):
                out[0] = ((<bb_t>1) << top[p]) | comp
                return 1
    for p in range(NPILES):
        if h[p] == 0:
            continue
        for q in range(p + 1, NPILES):
            if val[q] + val[p] != 14:
                continue
            if c.mode == 1 and (has_lower_twin(c, h, p, q) or has_lower_twin(c, h, q, p)):
                continue
            out[n] = ((<bb_t>1) << top[p]) | ((<bb_t>1) << top[q])
            n += 1
    return n


cdef void fourteen_play(void *ctx, const State *s, uint64_t move, State *out) noexcept nogil:
    out.removed = s.removed | move
    out.aux = 0


cdef int fourteen_won(void *ctx, const State *s) noexcept nogil:
    return s.removed == BB_FULL_PACK


cdef int fourteen_dead(void *ctx, const State *s) noexcept nogil:
    """Rule 1: some pair of complementary ranks cannot be matched across piles."""
    cdef FourteenCtx *c = <FourteenCtx *>ctx
    cdef bb_t left = ~s.removed & BB_FULL_PACK
    cdef bb_t rem
    cdef int v, p, n
    for v in range(1, 8):
        rem = left & c.class_mask[v - 1]
        if rem == 0:
            continue
        # n: the cards left of value v; for the Sevens, twice a pile's share must not exceed it.
        n = bb_count(rem & bb_rank(v))
        for p in range(NPILES):
            if v == 7:
                if 2 * bb_count(rem & c.pile_mask[p]) > n:
                    return 1
            elif bb_count(rem & c.pile_mask[p]) > n:
                return 1
    return 0


cdef void setup(FourteenCtx *c, object cards, int mode) except *:
    cdef int k, p, i, v
    if len(cards) != 52:
        raise ValueError("a deal has 52 cards")
    for p in range(NPILES):
        c.pile_mask[p] = 0
        c.ranks[p] = 0
    for k in range(52):
        p = k % NPILES
        i = k // NPILES
        c.card[p][i] = <int>cards[k]
        c.pile_mask[p] |= (<bb_t>1) << c.card[p][i]
        c.ranks[p] |= (<uint32_t>(c.card[p][i] % 13 + 1)) << (4 * i)
    for v in range(1, 8):
        c.class_mask[v - 1] = bb_rank(v) | bb_rank(14 - v)
    c.mode = mode


def solve(dict spec, str objective, limits, bint certificate):
    """The contract's entry point (solitaire_solver/engine/contract.py). spec: "cards" (52 card indexes,
    pack order) and optionally "mode" (MODE_PRUNED by default; a certificate always searches
    MODE_ALL, as it must be closed under every legal move)."""
    cdef FourteenCtx c
    cdef Game g
    cdef State root
    cdef int mode = spec.get("mode", MODE_PRUNED)
    if objective != "decide":
        raise ValueError(f"fourteen has no objective {objective!r}")
    if mode not in (MODE_ALL, MODE_PRUNED):
        raise ValueError(f"unknown move mode {mode}")
    if certificate:
        mode = MODE_ALL
    make_game(&g, &c, spec["cards"], mode)
    root = root_of(spec)
    if spec.get("root") is not None:
        check_given(&c, root.removed, root.aux)
    return run_of(*depth_first(&g, root, limits.max_states, limits.max_seconds,
                               limits.memory_bytes, certificate))


cdef void make_game(Game *g, FourteenCtx *c, object cards, int mode) except *:
    setup(c, cards, mode)
    game_clear(g)
    g.ctx = c
    g.moves = fourteen_moves
    g.play = fourteen_play
    g.won = fourteen_won
    if mode == MODE_PRUNED:
        g.dead = fourteen_dead
    g.counted = BB_FULL_PACK
    g.max_moves = 66          # pairs of twelve piles
    g.max_depth = 28          # 26 removals win


# -- the contract's expand, step, random_win and playouts (engine/_entries.pxi) ------------------

ctypedef FourteenCtx CoreCtx


cdef int prepare(Game *g, CoreCtx *c, dict spec, bint listing) except -1:
    """The game of expand and step (listing; what they list: spec["mode"] = MODE_PRUNED (the pruned search's moves)) and of the walks."""
    make_game(g, c, spec["cards"], spec.get("mode", MODE_ALL))
    return 0


#: Positions given from Python are checked (engine/contract.py).
CHECKS_POSITIONS = True


cdef int check_given(FourteenCtx *c, uint64_t removed, uint64_t aux) except -1:
    """Refuse a position given from Python that is none of this deal's: aux not 0, a card
    beyond the pack, a pile whose cards left are not its bottom ones (the packing reads a pile's
    top from its count of cards left alone), or removed cards that no removals of pairs
    totalling 14 make (as many of each value v as of 14 - v, the Sevens in pairs)."""
    cdef bb_t left = ~removed & BB_FULL_PACK, bottom
    cdef int p, i, v
    if aux or removed & ~BB_FULL_PACK:
        raise ValueError(f"({removed}, {aux}) is not a Fourteen position: aux is 0 and removed "
                         "holds cards 0..51")
    for p in range(NPILES):
        bottom = 0
        for i in range(bb_count(left & c.pile_mask[p])):
            bottom |= (<bb_t>1) << c.card[p][i]
        if left & c.pile_mask[p] != bottom:
            raise ValueError(f"({removed}, {aux}) is not a Fourteen position: pile {p + 1} has a "
                             "card removed under one left")
    for v in range(1, 7):
        if bb_count(removed & bb_rank(v)) != bb_count(removed & bb_rank(14 - v)):
            raise ValueError(f"({removed}, {aux}) is not a Fourteen position: the removed cards "
                             f"of values {v} and {14 - v} do not pair up")
    if bb_count(removed & bb_rank(7)) & 1:
        raise ValueError(f"({removed}, {aux}) is not a Fourteen position: an odd number of "
                         "Sevens removed")
    return 0


include "../../engine/_entries.pxi"


def is_dead(object cards, uint64_t removed):
    """Rule 1 in a position (for tests)."""
    cdef FourteenCtx c
    cdef State s
    setup(&c, cards, MODE_PRUNED)
    s.removed = removed
    s.aux = 0
    return bool(fourteen_dead(&c, &s))


#: The tests' switches (tests/test_fuzz.py): the spec keys of this core's search modes, each
#: searched on random input beside core_spec's own.
SEARCH_MODES = ({}, {"mode": MODE_ALL}, {"mode": MODE_PRUNED})
#: The spec keys that make expand() list the moves of the pruned search instead of every
#: legal move, and whether those are some of the legal ones (else only that it runs is
#: checked).
PRUNED_EXPAND = ({"mode": MODE_PRUNED}, True)
