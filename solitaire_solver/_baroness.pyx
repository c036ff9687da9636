# cython: language_level=3
"""Core of Baroness (docs/baroness.md): five piles fed by deals of five; a King leaves alone, two
available cards totalling 13 leave together.

Packed state: State.removed, the removed cards, and State.aux, the `deal` moves played (0..10;
the first deal is the start's, so the reference rules' deal count is aux + 1). It is canonical:
pile i receives pack cards 5j + i, one per deal, and the eleventh deal lays pack cards 50 and 51
apart; so aux fixes every card that has reached the table, and of those the removed ones are gone
while the others stay in dealing order (a deal puts a card on top, a removal takes one off the
top). Two lines with the same (removed, aux) have the same piles, reserve and stock.

Every move removes cards or adds a deal, so the move graph is acyclic and a line has at most
10 deals + 28 removals (four Kings alone, 24 pairs).

Pruning (the default search; `prune=False` or a certificate searches every legal move):

- Lemma: if a winning line from P contains a removal m that is legal at P, playing m first and
  then the rest of the line also wins. In the reordered line every pile holds the same cards less
  m's, so each pile's top is the same card or, where the top was one of m's cards, a card below
  it: every card available in the original line (other than m's) is available in the new one at
  the same point, and deals do not depend on the cards in play. After m's place in the original
  line the two lines reach the same position.
- Closed card (generation rule): an available card a whose partners left (the cards that can
  leave with it: none for a King, the cards of value 13 - v otherwise), less the cards beneath a
  in its own pile, are all available now. Every winning line removes a, alone or with one of
  those partners (a partner beneath a is covered by a until a leaves), and that removal is legal
  now, so by the lemma some winning line starts with it. Only the removals of one closed card,
  the one with the fewest, are generated (none when it has no partner left: it can never leave).
  So a King on top is removed at once, and a card whose one partner left is available leaves
  with it; `deal` is not generated then.
- dead(), rule 1 (matching): cards of one pile are never available together (only a top is),
  and a pile is every card dealt onto it, now or later. A winning line pairs the n cards left of
  value v with the n left of value 13 - v (v = 1..6) across different piles or the reserve; by
  Hall's theorem that matching exists iff no pile holds more than n cards of the two values (a
  set of v-cards in two piles or more sees every (13 - v)-card). This covers the card whose
  partners all lie beneath it in its own pile: the pile then holds it and all n partners.
- dead(), rule 2 (covers): call the cards on top of a card now its covers; they must all leave
  before it. Let G be the least set of cards such that a card left is in G when its covers are
  all in G and it is a King or has a partner left whose covers are all in G. In a winning line,
  by induction on the order of removal, every card is in G (when it leaves, its covers and its
  partner's covers have left before it, the partner is not beneath it); so a position where G
  misses a card left cannot be won. This catches cycles such as: X covers Y's only partners, and
  Y covers X's. Cards not dealt yet have no covers now (the ones dealt on top later must leave
  too, which G ignores: it is a relaxation, never too strict).
tests/test_baroness.py checks each rule fires and that pruned and unpruned searches agree.
"""

from libc.stdint cimport uint64_t

from solitaire_solver._engine cimport Game, State, depth_first, expand_state, game_clear, root_of
from solitaire_solver.bitboard cimport BB_FULL_PACK, bb_count, bb_lowest, bb_rank, bb_t

from solitaire_solver.contract import run_of
from solitaire_solver.moves import word_code

DEF NPILES = 5
DEF FIVE_DEALS = 10

cdef uint64_t DEAL_WORD = word_code("deal")


cdef struct BaronessCtx:
    int card[NPILES][FIVE_DEALS]        # pile i, height j (0 = the bottom): pack card 5j + i
    bb_t prefix[NPILES][FIVE_DEALS + 1]  # the first k cards dealt onto pile i
    bb_t reserve                         # pack cards 50 and 51, laid apart by the eleventh deal
    bb_t pair_mask[7]                    # [v]: the cards of values v and 13 - v (v = 1..6)
    bb_t partners[52]                    # [card]: the cards that can leave with it
    bb_t beneath[52]                     # [card]: the cards dealt onto its pile before it
    bb_t undealt[FIVE_DEALS + 1]         # [aux]: the cards not on the table after aux deal moves
    bint prune


cdef inline bb_t available(BaronessCtx *c, const State *s) noexcept nogil:
    """The top card of each pile and the cards laid apart, as a bitboard."""
    cdef int deals = <int>s.aux + 1
    cdef int k = deals if deals < FIVE_DEALS else FIVE_DEALS
    cdef int i, j
    cdef bb_t out = 0, left
    for i in range(NPILES):
        left = c.prefix[i][k] & ~s.removed
        if left == 0:
            continue
        j = k - 1
        while not (left >> c.card[i][j]) & 1:
            j -= 1
        out |= (<bb_t>1) << c.card[i][j]
    if deals > FIVE_DEALS:
        out |= c.reserve & ~s.removed
    return out


cdef inline bb_t partners_of(bb_t cards) noexcept nogil:
    """The cards that can leave with some card of `cards` (Kings leave alone)."""
    cdef bb_t out = 0
    cdef int v
    for v in range(1, 13):
        if cards & bb_rank(v):
            out |= bb_rank(13 - v)
    return out


cdef inline bint unmatched(BaronessCtx *c, bb_t left) noexcept nogil:
    """Rule 1 of dead(): some pile holds more than n cards of values v and 13 - v."""
    cdef bb_t two
    cdef int v, i, n
    for v in range(1, 7):
        two = left & c.pair_mask[v]
        if two == 0:
            continue
        n = bb_count(two & bb_rank(v))
        for i in range(NPILES):
            if bb_count(two & c.prefix[i][FIVE_DEALS]) > n:
                return True
    return False


cdef inline bint stuck_cards(BaronessCtx *c, const State *s, bb_t left) noexcept nogil:
    """Rule 2 of dead() (module docstring): the least set G of cards such that a card whose
    covers are all in G and which has a partner whose covers are all in G (or is a King) is in
    G; dead when G misses a card left. Each pile is peeled from its top while its top-most card
    outside G qualifies; cards not on the table yet, and the reserve, have no covers."""
    cdef int k = <int>s.aux + 1
    cdef int h[NPILES]
    cdef int i
    cdef bint changed = True
    cdef bb_t free, ok = bb_rank(13)
    if k > FIVE_DEALS:
        k = FIVE_DEALS
    free = c.undealt[s.aux] & left
    if s.aux >= FIVE_DEALS:
        free |= c.reserve & left
    # ok: the cards that have a partner whose covers are all in G (one is "ready").
    ok |= partners_of(free)
    for i in range(NPILES):
        h[i] = k - 1
        while h[i] >= 0 and not (left >> c.card[i][h[i]]) & 1:
            h[i] -= 1
        if h[i] >= 0:
            ok |= c.partners[c.card[i][h[i]]]
    while changed:
        changed = False
        for i in range(NPILES):
            while h[i] >= 0 and (ok >> c.card[i][h[i]]) & 1:
                # The pile's ready card joins G: the next card left below it becomes ready.
                h[i] -= 1
                while h[i] >= 0 and not (left >> c.card[i][h[i]]) & 1:
                    h[i] -= 1
                if h[i] >= 0:
                    ok |= c.partners[c.card[i][h[i]]]
                changed = True
    for i in range(NPILES):
        if h[i] >= 0:
            return True
    return (free & ~ok) != 0


cdef int baroness_moves(void *ctx, const State *s, uint64_t *out) noexcept nogil:
    cdef BaronessCtx *c = <BaronessCtx *>ctx
    cdef bb_t avail = available(c, s)
    cdef bb_t left = ~s.removed & BB_FULL_PACK
    cdef bb_t a, partners, best_partners = 0, b
    cdef int n = 0, v, card, best = -1, best_n = 99, k
    if c.prune:
        # The closed-card rule (module docstring).
        a = avail
        while a:
            card = bb_lowest(a)
            a &= a - 1
            v = card % 13 + 1
            if v == 13:
                out[0] = (<bb_t>1) << card
                return 1
            partners = left & bb_rank(13 - v) & ~c.beneath[card]
            if (partners & ~avail) == 0:
                k = bb_count(partners)
                if k < best_n:
                    best, best_n, best_partners = card, k, partners
        if best >= 0:
            while best_partners:
                out[n] = ((<bb_t>1) << best) | (best_partners & -best_partners)
                n += 1
                best_partners &= best_partners - 1
            return n
    a = avail
    while a:
        card = bb_lowest(a)
        a &= a - 1
        v = card % 13 + 1
        if v == 13:
            out[n] = (<bb_t>1) << card
            n += 1
            continue
        b = a & bb_rank(13 - v)     # partners of higher index only: each pair once
        while b:
            out[n] = ((<bb_t>1) << card) | (b & -b)
            n += 1
            b &= b - 1
    if s.aux < FIVE_DEALS:
        out[n] = DEAL_WORD
        n += 1
    return n


cdef void baroness_play(void *ctx, const State *s, uint64_t move, State *out) noexcept nogil:
    if move == DEAL_WORD:
        out.removed = s.removed
        out.aux = s.aux + 1
    else:
        out.removed = s.removed | move
        out.aux = s.aux


cdef int baroness_won(void *ctx, const State *s) noexcept nogil:
    return s.removed == BB_FULL_PACK


cdef int baroness_dead(void *ctx, const State *s) noexcept nogil:
    cdef BaronessCtx *c = <BaronessCtx *>ctx
    cdef bb_t left = ~s.removed & BB_FULL_PACK
    return unmatched(c, left) or stuck_cards(c, s, left)


cdef void setup(BaronessCtx *c, object cards, bint prune) except *:
    cdef int i, j, v
    cdef bb_t seen = 0
    if len(cards) != 52:
        raise ValueError("a deal has 52 cards")
    for j in range(52):
        if not 0 <= cards[j] < 52 or (seen >> <int>cards[j]) & 1:
            raise ValueError("a deal holds each of the 52 cards once")
        seen |= (<bb_t>1) << <int>cards[j]
    for i in range(NPILES):
        c.prefix[i][0] = 0
        for j in range(FIVE_DEALS):
            c.card[i][j] = cards[j * NPILES + i]
            c.prefix[i][j + 1] = c.prefix[i][j] | ((<bb_t>1) << c.card[i][j])
    c.reserve = ((<bb_t>1) << <int>cards[50]) | ((<bb_t>1) << <int>cards[51])
    for i in range(NPILES):
        for j in range(FIVE_DEALS):
            c.beneath[c.card[i][j]] = c.prefix[i][j]
    for j in range(52):
        c.partners[j] = bb_rank(13 - (j % 13 + 1)) if j % 13 != 12 else 0
    c.beneath[<int>cards[50]] = 0
    c.beneath[<int>cards[51]] = 0
    for j in range(FIVE_DEALS + 1):
        c.undealt[j] = 0
        for i in range(NPILES * (j + 1) if j < FIVE_DEALS else 52, 52):
            c.undealt[j] |= (<bb_t>1) << <int>cards[i]
    c.pair_mask[0] = 0
    for v in range(1, 7):
        c.pair_mask[v] = bb_rank(v) | bb_rank(13 - v)
    c.prune = prune


cdef void make_game(Game *g, BaronessCtx *c, dict spec, bint prune) except *:
    setup(c, spec["cards"], prune)
    game_clear(g)
    g.ctx = c
    g.moves = baroness_moves
    g.play = baroness_play
    g.won = baroness_won
    if prune:
        g.dead = baroness_dead
    g.counted = BB_FULL_PACK
    # At most seven cards are available (five tops, two apart): 21 pairs, and a deal.
    g.max_moves = 32
    # 10 deals and at most 28 removals.
    g.max_depth = 40


def solve(dict spec, str objective, limits, bint certificate):
    """The contract's entry point (solitaire_solver/contract.py). spec: "cards" (52 card indexes,
    pack order) and optionally "prune" (default True; False, or a certificate, searches every
    legal move with no dead() test, as a certificate must be closed under every legal move)."""
    cdef BaronessCtx c
    cdef Game g
    cdef State root
    if objective != "decide":
        raise ValueError(f"baroness has no objective {objective!r}")
    make_game(&g, &c, spec, spec.get("prune", True) and not certificate)
    root = root_of(spec)
    if root.aux > FIVE_DEALS:
        raise ValueError(f"no position has {root.aux} deals after the first")
    return run_of(*depth_first(&g, root, limits.max_states, limits.max_seconds,
                               limits.memory_bytes, certificate))


def expand(dict spec, uint64_t removed, uint64_t aux):
    """The contract's expand(): every legal move at (removed, aux) and where it leads; with
    spec["prune"] = True, the moves the pruned search generates instead."""
    cdef BaronessCtx c
    cdef Game g
    make_game(&g, &c, spec, spec.get("prune", False))
    return expand_state(&g, removed, aux)


def dead_rules(object cards, uint64_t removed, uint64_t aux):
    """The two dead() tests at the position (removed, aux), as (rule 1, rule 2) (for tests)."""
    cdef BaronessCtx c
    cdef State s
    setup(&c, cards, True)
    s.removed = removed
    s.aux = aux
    left = ~removed & BB_FULL_PACK
    return bool(unmatched(&c, left)), bool(stuck_cards(&c, &s, left))
