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

PySolFC's rules, two spec flags (docs/baroness.md, "PySolFC"):

- "together" (last_deal="together"): the tenth deal also lays pack cards 50 and 51 apart, so
  aux runs 0..9 and the reserve is laid at aux 9 (last_aux). The piles are still fixed by the
  deal, so every argument above holds word for word, and every rule stays on.
- "to_empty": the top card of a pile may move onto an empty pile (move word: the card's bit
  with the pile's number 1..5 at moves.PILE_SHIFT). A card arrives only on an empty pile, and
  while it is there the pile is not empty, so a pile holds at most ONE card not dealt to it, at
  its bottom, under the cards dealt to that pile since; every card dealt to a pile and neither
  removed nor moved away stays there in dealing order. So (removed, deals, the moved card at the
  bottom of each pile or none) is the whole position: aux's bits 4 + 6i .. 9 + 6i hold pile i's
  moved card + 1 (0: none), 4 + 30 bits, clear of bit 63 (_engine.pxd). It is canonical: a card
  moved back onto the pile it was dealt to is in its dealing place again (the pile was empty,
  so every card dealt to it after that card is gone) and is stored as none; a moved card that
  leaves (moved again or removed) clears its field. The reference rules' key is the same tuple.
  A lone card moving elsewhere changes which later cards cover it, so it is a real move, and
  lines can return to a position: Game.cyclic, with max_depth a bound on lines that repeat no
  position. In a run of moves onto empty piles (between two removals or deals) the number of
  non-empty piles never falls and grows with every move from a pile of two cards or more, so
  at most 4 such moves; between them only lone cards move, among at most 5 places: at most
  5 * 5!/1! = 600 positions a run. 39 runs (28 removals and 10 deals between them) make at
  most 39 * 599 + 38 < 24000 moves.
  Pruning under to_empty: the closed-card rule stays, with no exception for the cards beneath
  a card (they can come free while it stays, once it moves): an available card whose partners
  left are all available now must leave with one of them, and the lemma holds (the reordered
  line plays the same moves less those of m's cards, each pile holding the original's cards
  less m's, so an empty pile in the original line is empty in the new one). It shortens a
  shortest winning line by one, so it stays exact on a graph with cycles. Both dead() rules
  assume a pile's cards never meet, which a move onto an empty pile breaks: dead() is off.
  Symmetry: after the last deal nothing tells the piles apart, so positions that differ by
  a renumbering of the piles win alike. A lone card moving to an empty pile gives such a copy
  of the position (so no shortest winning line starts with it), and moving a card onto one
  empty pile or another gives two copies of one position: the pruned search, after the last
  deal, moves only a card with another beneath it, onto the first empty pile. Before it, which
  pile a card lies on decides which cards the deals put on it, and every such move is kept.
  The fresh-deal rule (dead(), to_empty, pruned search; spec "fresh", default on): call a
  position fresh when the card last dealt to each pile lies on it (so it is the pile's top),
  and its class the fresh positions with the same removed cards, the same deals and the same
  piles holding a card under their top. Members differ only in the cards under the tops (the
  "lower parts"; the same cards in all, placed differently). Until some lower card becomes a
  pile's top, members have the same tops, cards left, deals, empty piles and piles of two
  cards or more, which is all the pruned move generator reads; so they have the same pruned
  moves, leading to positions that differ again only in the lower parts. A winning line
  removes every lower card, so it brings one to the top first. So if the pruned search from
  one member (its moves, a visited set: plain reachability, exact on a cyclic graph) reaches
  no position where a lower card is a top and no win, no member is winnable: the pruned search
  is exact (a winnable position has a winning line of pruned moves), and the same line from
  the searched member would bring the same pile's lower card up. The sub-search may skip a
  fresh position whose class is known lost: the matching position of every member lies in that
  class (same removed cards and deals, the lower parts still there, in the same piles). Lost
  and open classes are memoised; a sub-search stops (no cut) after SUB_CAP positions.
  The alike rule (the table's key, Game.key; to_empty, pruned search; spec "alike", default
  on): two positions are alike when they have made the same deals, each pile holds cards of
  the same values in the same order, the cards laid apart left have the same values, and,
  after the last deal, also when the piles are renumbered. The rules read only values and
  places (removals by value, a move onto an empty pile by its top, deals the same cards onto
  the same piles; after the last deal no pile differs from another), so alike positions are
  won alike by lines as short, and the table stores one key for them (alike_key; after the
  last deal with more than COMPACT_CARDS cards on the piles, only the piles of one card are
  renumbered: the key must fit two words). The search expands one position
  a key and stays exact: of the positions it expanded, one with the fewest moves to a win
  would have a pruned move one step along a shortest line, to a position whose key the
  search stored, so some position alike to it, as near to a win, was expanded too.
"""

from libc.stdint cimport uint64_t
from libc.stdlib cimport free, malloc

from solitaire_solver.engine._engine cimport Game, State, depth_first, expand_state, step_state, game_clear, root_of
from solitaire_solver.engine.bitboard cimport BB_FULL_PACK, bb_count, bb_lowest, bb_rank, bb_t, read_pack
from solitaire_solver.engine.ttable cimport tt_clear, tt_contains, tt_free, tt_init, tt_visit, ttable

from solitaire_solver.engine.contract import run_of
from solitaire_solver.moves import PILE_SHIFT, word_code

DEF NPILES = 5
DEF FIVE_DEALS = 10
DEF DEAL_BITS = 4       # aux: the deal moves played, then 6 bits a pile (games/baroness.py)
DEF MOVED_BITS = 6
# A line repeating no position, with to_empty (module docstring).
DEF CYCLIC_DEPTH = 24000

cdef uint64_t DEAL_WORD = word_code("deal")
cdef int TO_PILE_SHIFT = PILE_SHIFT
cdef uint64_t DEAL_MASK = (1 << DEAL_BITS) - 1
cdef uint64_t CARD_BITS = BB_FULL_PACK
# The fresh-deal rule (module docstring): its memo keys a class by (removed, deal moves | piles
# << DEAL_BITS | CLASS_TAG), a class whose search reached no verdict with OPEN_TAG too; one
# sub-search's visited table tells sub-searches apart by a generation in bits GEN_SHIFT.. (aux
# uses bits 0..33).
cdef uint64_t CLASS_TAG = (<uint64_t>1) << 61
cdef uint64_t OPEN_TAG = (<uint64_t>1) << 62
DEF GEN_SHIFT = 34
DEF GEN_LIMIT = 1 << 26
# Positions one sub-search may visit before it gives up (the rule then does not cut).
DEF SUB_CAP = 1 << 16
# The alike rule's key (alike_key): after the last deal, up to this many cards on the piles
# are spelt out by value (4 bits each, a 0 after each pile, two for the cards laid apart:
# 124 bits), tagged by a bit no other key has (aux uses bits 0..33).
DEF COMPACT_CARDS = 24
cdef uint64_t COMPACT_TAG = (<uint64_t>1) << 62
# [card index]: its value less one (index % 13), read where a division a card would cost.
cdef unsigned char VALUE0[52]
for _card in range(52):
    VALUE0[_card] = _card % 13


cdef struct BaronessCtx:
    int card[NPILES][FIVE_DEALS]        # pile i, height j (0 = the bottom): pack card 5j + i
    # The alike rule's key (alike_key) is computed for every position the search generates and
    # reads values, not cards: hval[i][j] is the value of card[i][j] less one, next_val[i][j][v]
    # the first height j' >= j of pile i whose card has value v + 1 (FIVE_DEALS if none).
    unsigned char hval[NPILES][FIVE_DEALS]
    unsigned char next_val[NPILES][FIVE_DEALS + 1][13]
    bb_t prefix[NPILES][FIVE_DEALS + 1]  # the first k cards dealt onto pile i
    bb_t reserve                         # pack cards 50 and 51, laid apart by the eleventh deal
    bint reserve_twins                   # the two have one value (the alike rule)
    bb_t pair_mask[7]                    # [v]: the cards of values v and 13 - v (v = 1..6)
    bb_t partners[52]                    # [card]: the cards that can leave with it
    bb_t beneath[52]                     # [card]: the cards dealt onto its pile before it
    bb_t undealt[FIVE_DEALS + 1]         # [aux]: the cards not on the table after aux deal moves
    int home[52]                         # [card]: the pile it is dealt to, -1 for the two apart
    int last_aux                         # deal moves in a game: 10, or 9 with "together"
    bint prune
    bint to_empty
    # The fresh-deal rule (to_empty, pruned search only; NULL elsewhere): the memo of classes
    # known lost or open, one sub-search's visited positions, its stack (sub_cap each).
    ttable *memo
    ttable *seen
    int *stack                           # indexes into vis
    State *vis
    int sub_cap
    uint64_t gen
    long long sub_positions
    long long sub_given_up
    long long sub_runs


cdef inline int deal_moves(const State *s) noexcept nogil:
    return <int>(s.aux & DEAL_MASK)


cdef inline int moved_card(const State *s, int i) noexcept nogil:
    """The card moved onto pile i, at its bottom, or -1 (to_empty; module docstring)."""
    return <int>((s.aux >> (DEAL_BITS + MOVED_BITS * i)) & ((1 << MOVED_BITS) - 1)) - 1


cdef inline bb_t off_their_piles(BaronessCtx *c, const State *s) noexcept nogil:
    """The cards no longer on the pile they were dealt to: removed, or moved (to_empty)."""
    cdef bb_t gone = s.removed
    cdef int i, m
    if c.to_empty:
        for i in range(NPILES):
            m = moved_card(s, i)
            if m >= 0:
                gone |= (<bb_t>1) << m
    return gone


cdef inline int pile_tops(BaronessCtx *c, const State *s, int *top) noexcept nogil:
    """Each pile's top card (-1 for an empty pile) into top; returns the empty piles' count.
    A pile holds the cards dealt to it that are neither removed nor moved away, in dealing
    order, on top of its moved card if it has one."""
    cdef int d = deal_moves(s) + 1
    cdef int k = d if d < FIVE_DEALS else FIVE_DEALS
    cdef int i, j, empty = 0
    cdef bb_t gone = off_their_piles(c, s), left
    for i in range(NPILES):
        left = c.prefix[i][k] & ~gone
        if left:
            j = k - 1
            while not (left >> c.card[i][j]) & 1:
                j -= 1
            top[i] = c.card[i][j]
        else:
            top[i] = moved_card(s, i) if c.to_empty else -1
            if top[i] < 0:
                empty += 1
    return empty


cdef inline int pile_size(BaronessCtx *c, const State *s, int i) noexcept nogil:
    """The cards on pile i (to_empty)."""
    cdef int d = deal_moves(s) + 1
    cdef int k = d if d < FIVE_DEALS else FIVE_DEALS
    return bb_count(c.prefix[i][k] & ~off_their_piles(c, s)) + (1 if moved_card(s, i) >= 0 else 0)


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
    cdef int k = deal_moves(s) + 1
    cdef int h[NPILES]
    cdef int i
    cdef bint changed = True
    cdef bb_t free, ok = bb_rank(13)
    if k > FIVE_DEALS:
        k = FIVE_DEALS
    free = c.undealt[deal_moves(s)] & left
    if deal_moves(s) >= c.last_aux:
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
    cdef int top[NPILES]
    cdef int empty = pile_tops(c, s, top)
    cdef bb_t avail = 0
    cdef bb_t left = ~s.removed & BB_FULL_PACK
    cdef bb_t a, partners, best_partners = 0, b
    cdef int n = 0, v, card, best = -1, best_n = 99, k, i, t
    cdef bint final
    # The available cards: the pile tops and the cards laid apart.
    for i in range(NPILES):
        if top[i] >= 0:
            avail |= (<bb_t>1) << top[i]
    if deal_moves(s) >= c.last_aux:
        avail |= c.reserve & ~s.removed
    if c.prune:
        # The closed-card rule (module docstring).
        a = avail
        while a:
            card = bb_lowest(a)
            a &= a - 1
            v = VALUE0[card] + 1
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
        v = VALUE0[card] + 1
        if v == 13:
            out[n] = (<bb_t>1) << card
            n += 1
            continue
        b = a & bb_rank(13 - v)     # partners of higher index only: each pair once
        while b:
            out[n] = ((<bb_t>1) << card) | (b & -b)
            n += 1
            b &= b - 1
    if deal_moves(s) < c.last_aux:
        out[n] = DEAL_WORD
        n += 1
    if c.to_empty and 0 < empty < NPILES:
        # Every top card onto every empty pile (a card laid apart never moves), tried after
        # the deal so that lines do not wander among the piles first. After the last
        # deal the pruned search moves only a card that uncovers another, onto the first empty
        # pile: no deal tells the piles apart any more (module docstring, "symmetry").
        final = c.prune and deal_moves(s) >= c.last_aux
        for t in range(NPILES):
            if top[t] < 0:
                for i in range(NPILES):
                    if top[i] >= 0 and not (final and pile_size(c, s, i) < 2):
                        out[n] = ((<bb_t>1) << top[i]) | (<uint64_t>(t + 1) << TO_PILE_SHIFT)
                        n += 1
                if final:
                    break
    return n


cdef inline uint64_t without_moved(const State *s, bb_t cards) noexcept nogil:
    """aux with the moved-card field of every pile whose moved card is in `cards` cleared."""
    cdef uint64_t aux = s.aux
    cdef int i, m
    for i in range(NPILES):
        m = moved_card(s, i)
        if m >= 0 and (cards >> m) & 1:
            aux &= ~((<uint64_t>((1 << MOVED_BITS) - 1)) << (DEAL_BITS + MOVED_BITS * i))
    return aux


cdef void baroness_play(void *ctx, const State *s, uint64_t move, State *out) noexcept nogil:
    cdef BaronessCtx *c = <BaronessCtx *>ctx
    cdef bb_t cards = move & CARD_BITS
    cdef int card, t
    if move == DEAL_WORD:
        out.removed = s.removed
        out.aux = s.aux + 1
    elif move != cards:
        # Onto the empty pile t: the card's old field (if it was a moved card) is cleared, and
        # t's field names it unless t is the pile it was dealt to (canonical: docstring).
        card = bb_lowest(cards)
        t = <int>(move >> TO_PILE_SHIFT) - 1
        out.removed = s.removed
        out.aux = without_moved(s, cards)
        if c.home[card] != t:
            out.aux |= (<uint64_t>(card + 1)) << (DEAL_BITS + MOVED_BITS * t)
    else:
        out.removed = s.removed | move
        out.aux = without_moved(s, cards) if c.to_empty else s.aux


cdef int baroness_won(void *ctx, const State *s) noexcept nogil:
    return s.removed == BB_FULL_PACK


cdef int baroness_dead(void *ctx, const State *s) noexcept nogil:
    cdef BaronessCtx *c = <BaronessCtx *>ctx
    cdef bb_t left = ~s.removed & BB_FULL_PACK
    return unmatched(c, left) or stuck_cards(c, s, left)


cdef inline int fresh_piles(BaronessCtx *c, const State *s) noexcept nogil:
    """-1 unless the card last dealt to each pile lies on it (so it is its top: a "fresh"
    position); else the piles holding another card under it, as bits (to_empty)."""
    cdef int d = deal_moves(s) + 1
    cdef int k = d if d < FIVE_DEALS else FIVE_DEALS
    cdef bb_t gone = off_their_piles(c, s)
    cdef int i, out = 0
    if d < 2:
        return -1
    for i in range(NPILES):
        if (gone >> c.card[i][k - 1]) & 1:
            return -1
        if pile_size(c, s, i) >= 2:
            out |= 1 << i
    return out


cdef inline bint exposed(BaronessCtx *c, int k0, int piles, const State *y) noexcept nogil:
    """Some pile of `piles` holds none of the cards dealt to it from height k0 - 1 on (the
    cards above the cut of the class searched from a fresh position with k0 cards a pile
    dealt): a card under the cut is its top (the fresh-deal rule, module docstring)."""
    cdef int d = deal_moves(y) + 1
    cdef int k = d if d < FIVE_DEALS else FIVE_DEALS
    cdef bb_t gone = off_their_piles(c, y)
    cdef int i
    for i in range(NPILES):
        if (piles >> i) & 1 and (c.prefix[i][k] & ~c.prefix[i][k0 - 1] & ~gone) == 0:
            return True
    return False


cdef inline uint64_t class_key(const State *s, int piles) noexcept nogil:
    return (s.aux & DEAL_MASK) | (<uint64_t>piles << DEAL_BITS) | CLASS_TAG


cdef int fresh_lost(void *ctx, const State *s) noexcept nogil:
    """The fresh-deal rule (module docstring): 1 when the pruned search from the fresh position
    s never brings a card under its class's cut to the top of its pile, nor wins (so every
    position of the class is lost); 0 when it does, when s is no fresh position with a card
    under the cut, or when the sub-search gives up."""
    cdef BaronessCtx *c = <BaronessCtx *>ctx
    cdef State x, y
    cdef uint64_t mv[40]
    cdef int piles = fresh_piles(c, s)
    cdef int k0 = deal_moves(s) + 1
    cdef int n, k, f, sp = 0, nvis = 0
    cdef uint64_t key
    if piles <= 0:
        return 0
    if k0 > FIVE_DEALS:
        k0 = FIVE_DEALS
    key = class_key(s, piles)
    if tt_contains(c.memo, s.removed, key):
        return 1
    if tt_contains(c.memo, s.removed, key | OPEN_TAG):
        return 0
    c.sub_runs += 1
    c.gen += 1
    if c.gen >= GEN_LIMIT:
        # An older search's key would read as visited here and hide a position: start afresh.
        tt_clear(c.seen)
        c.gen = 1
    tt_visit(c.seen, s.removed, s.aux | (c.gen << GEN_SHIFT))
    c.vis[0] = s[0]
    nvis = 1
    c.stack[sp] = 0
    sp += 1
    while sp > 0:
        sp -= 1
        x = c.vis[c.stack[sp]]
        n = baroness_moves(c, &x, mv)
        for k in range(n):
            baroness_play(c, &x, mv[k], &y)
            if y.removed == BB_FULL_PACK or exposed(c, k0, piles, &y):
                c.sub_positions += nvis
                tt_visit(c.memo, s.removed, key | OPEN_TAG)
                return 0
            f = fresh_piles(c, &y)
            if f > 0 and tt_contains(c.memo, y.removed, class_key(&y, f)):
                continue
            if tt_visit(c.seen, y.removed, y.aux | (c.gen << GEN_SHIFT)):
                continue
            if nvis == c.sub_cap:
                c.sub_positions += nvis
                c.sub_given_up += 1
                tt_visit(c.memo, s.removed, key | OPEN_TAG)
                return 0
            c.vis[nvis] = y
            c.stack[sp] = nvis
            nvis += 1
            sp += 1
    c.sub_positions += nvis
    tt_visit(c.memo, s.removed, key)
    return 1


cdef inline bint seq_less(const int *a, int na, const int *b, int nb) noexcept nogil:
    cdef int i
    for i in range(na if na < nb else nb):
        if a[i] != b[i]:
            return a[i] < b[i]
    return na < nb


cdef void compact_key(BaronessCtx *c, const State *s, int k, bb_t moved, const int *bottom,
                      State *key) noexcept nogil:
    """After the last deal, with at most COMPACT_CARDS cards on the piles: the key spells the
    piles' values bottom up in sorted order, each pile ended by a 0, then the values of the
    cards laid apart left, ascending, four bits a value, with COMPACT_TAG (alike_key)."""
    cdef int seq[NPILES][FIVE_DEALS + 1]
    cdef int n[NPILES]
    cdef int order[NPILES]
    cdef int i, j, h, t, p = 0, r0, r1
    cdef bb_t home, apart
    cdef uint64_t w[2]
    for i in range(NPILES):
        n[i] = 0
        if bottom[i] > 0:
            seq[i][0] = bottom[i]
            n[i] = 1
        home = c.prefix[i][k] & ~s.removed & ~moved
        h = 0
        while home:
            if (home >> c.card[i][h]) & 1:
                home ^= (<bb_t>1) << c.card[i][h]
                seq[i][n[i]] = c.hval[i][h] + 1
                n[i] += 1
            h += 1
        j = i
        while j > 0 and seq_less(seq[i], n[i], seq[order[j - 1]], n[order[j - 1]]):
            order[j] = order[j - 1]
            j -= 1
        order[j] = i
    w[0] = w[1] = 0
    for j in range(NPILES):
        t = order[j]
        for i in range(n[t] + 1):
            w[p >> 6] |= (<uint64_t>(seq[t][i] if i < n[t] else 0)) << (p & 63)
            p += 4
    apart = c.reserve & ~s.removed
    r0 = r1 = 0
    if apart:
        r0 = VALUE0[bb_lowest(apart)] + 1
        apart &= apart - 1
        if apart:
            r1 = VALUE0[bb_lowest(apart)] + 1
            if r1 < r0:
                t = r0
                r0 = r1
                r1 = t
    w[p >> 6] |= (<uint64_t>r0) << (p & 63)
    p += 4
    w[p >> 6] |= (<uint64_t>r1) << (p & 63)
    key.removed = w[0]
    key.aux = w[1] | COMPACT_TAG


cdef void alike_key(void *ctx, const State *s, State *key) noexcept nogil:
    """The table's key of s (to_empty, pruned search; the alike rule, module docstring). After
    the last deal with at most COMPACT_CARDS cards on the piles, compact_key. Otherwise a
    position of s's class: each pile's bottom card, moved there or not, stands for any card
    of its value, and the lowest such card not kept below nor taken by a pile before is
    stored as the pile's moved card; the pile's other cards are replaced by the earliest
    cards dealt to it with the same values in the same order; a card laid apart left by the
    lower of the two if they have one value; after the last deal the lone cards' values,
    ascending, go to the piles without two cards or more, ascending."""
    cdef BaronessCtx *c = <BaronessCtx *>ctx
    cdef int d = deal_moves(s)
    cdef int k = d + 1 if d + 1 < FIVE_DEALS else FIVE_DEALS
    cdef bint last = d >= c.last_aux
    cdef int val[NPILES]
    cdef int lone[NPILES]
    cdef int i, j, h, m, v, n = 0
    cdef bb_t moved = 0, kept = 0, dealt = 0, home, free, apart = 0
    cdef uint64_t aux = <uint64_t>d
    for i in range(NPILES):
        m = moved_card(s, i)
        val[i] = VALUE0[m] + 1 if m >= 0 else 0
        if m >= 0:
            moved |= (<bb_t>1) << m
        dealt |= c.prefix[i][k]
    if last:
        for i in range(NPILES):
            n += bb_count(c.prefix[i][k] & ~s.removed & ~moved) + (1 if val[i] else 0)
        if n <= COMPACT_CARDS:
            compact_key(c, s, k, moved, val, key)
            return
        n = 0
    for i in range(NPILES):
        home = c.prefix[i][k] & ~s.removed & ~moved
        if last and bb_count(home) + (1 if val[i] else 0) <= 1:
            # No stack: a lone card (its value kept, ascending) or none.
            if val[i] or home:
                m = val[i] if val[i] else VALUE0[bb_lowest(home)] + 1
                j = n
                while j > 0 and lone[j - 1] > m:
                    lone[j] = lone[j - 1]
                    j -= 1
                lone[j] = m
                n += 1
            val[i] = -1
            continue
        # The earliest cards dealt to pile i whose values spell its own cards', bottom up; the
        # bottom card, when dealt to this pile, goes by its value alone, as a moved one.
        # The heights above the pile's last card left are not read.
        j = 0
        h = -1
        while home:
            h += 1
            if not (home >> c.card[i][h]) & 1:
                continue
            home ^= (<bb_t>1) << c.card[i][h]
            if val[i] == 0:
                val[i] = c.hval[i][h] + 1
                continue
            j = c.next_val[i][j][c.hval[i][h]]
            kept |= (<bb_t>1) << c.card[i][j]
            j += 1
    if last:
        j = 0
        for i in range(NPILES):
            if val[i] < 0:
                val[i] = lone[j] if j < n else 0
                j += 1
        apart = c.reserve & ~s.removed
        if bb_count(apart) == 1 and c.reserve_twins:
            apart = c.reserve & -c.reserve
    key.removed = (dealt | (c.reserve if last else 0)) & ~kept & ~apart
    free = dealt & ~kept
    for i in range(NPILES):
        if val[i] > 0:
            m = bb_lowest(free & bb_rank(val[i]))
            free &= ~((<bb_t>1) << m)
            key.removed &= ~((<bb_t>1) << m)
            aux |= (<uint64_t>(m + 1)) << (DEAL_BITS + MOVED_BITS * i)
    key.aux = aux


cdef void setup(BaronessCtx *c, object cards, bint prune, bint together=False,
                bint to_empty=False) except *:
    cdef int i, j, v
    cdef int pack[52]
    read_pack(cards, pack)
    for i in range(NPILES):
        c.prefix[i][0] = 0
        for j in range(FIVE_DEALS):
            c.card[i][j] = pack[j * NPILES + i]
            c.prefix[i][j + 1] = c.prefix[i][j] | ((<bb_t>1) << c.card[i][j])
    for i in range(NPILES):
        for j in range(FIVE_DEALS):
            c.hval[i][j] = VALUE0[c.card[i][j]]
        for v in range(13):
            c.next_val[i][FIVE_DEALS][v] = FIVE_DEALS
        for j in range(FIVE_DEALS - 1, -1, -1):
            for v in range(13):
                c.next_val[i][j][v] = j if c.hval[i][j] == v else c.next_val[i][j + 1][v]
    c.reserve = ((<bb_t>1) << pack[50]) | ((<bb_t>1) << pack[51])
    c.reserve_twins = pack[50] % 13 == pack[51] % 13
    for i in range(NPILES):
        for j in range(FIVE_DEALS):
            c.beneath[c.card[i][j]] = c.prefix[i][j]
    for j in range(52):
        c.partners[j] = bb_rank(13 - (j % 13 + 1)) if j % 13 != 12 else 0
    c.beneath[<int>cards[50]] = 0
    c.beneath[<int>cards[51]] = 0
    for j in range(52):
        c.home[<int>cards[j]] = j % NPILES if j < NPILES * FIVE_DEALS else -1
        if to_empty:
            # The closed-card rule's exception for the cards beneath a card is void once cards
            # move (module docstring).
            c.beneath[j] = 0
    for j in range(FIVE_DEALS + 1):
        c.undealt[j] = 0
        for i in range(NPILES * (j + 1) if j < FIVE_DEALS else 52, 52):
            c.undealt[j] |= (<bb_t>1) << <int>cards[i]
    c.pair_mask[0] = 0
    for v in range(1, 7):
        c.pair_mask[v] = bb_rank(v) | bb_rank(13 - v)
    c.prune = prune
    c.to_empty = to_empty
    c.memo = c.seen = NULL
    c.stack = NULL
    c.vis = NULL
    c.sub_cap = 0
    c.gen = 0
    c.sub_positions = c.sub_given_up = c.sub_runs = 0
    c.last_aux = FIVE_DEALS - 1 if together else FIVE_DEALS


cdef void make_game(Game *g, BaronessCtx *c, dict spec, bint prune) except *:
    setup(c, spec["cards"], prune, spec.get("together", False), spec.get("to_empty", False))
    game_clear(g)
    g.ctx = c
    g.moves = baroness_moves
    g.play = baroness_play
    g.won = baroness_won
    if prune and not c.to_empty:
        g.dead = baroness_dead
    if prune and c.to_empty and spec.get("alike", True):
        g.key = alike_key
    g.counted = BB_FULL_PACK
    # At most seven cards are available (five tops, two apart): 21 pairs, and a deal; with
    # to_empty, a of the tops onto the 5 - a empty piles adds at most 6 (and fewer pairs).
    g.max_moves = 32
    if c.to_empty:
        g.cyclic = 1
        g.max_depth = CYCLIC_DEPTH
    else:
        # 10 deals and at most 28 removals.
        g.max_depth = 40


cdef void check_aux(BaronessCtx *c, uint64_t aux) except *:
    """ValueError for an aux word that is no position: too many deals, or a moved-card field
    holding no card (or any field without to_empty)."""
    cdef State s
    cdef int i
    s.aux = aux
    if deal_moves(&s) > c.last_aux or aux >> (DEAL_BITS + MOVED_BITS * NPILES):
        raise ValueError(f"no position has aux {aux} (deals after the first, moved cards)")
    for i in range(NPILES):
        if moved_card(&s, i) >= 52 or (moved_card(&s, i) >= 0 and not c.to_empty):
            raise ValueError(f"no position has aux {aux}: pile {i + 1}'s moved card")


def solve(dict spec, str objective, limits, bint certificate):
    """The contract's entry point (solitaire_solver/engine/contract.py). spec: "cards" (52 card indexes,
    pack order) and optionally "prune" (default True; False, or a certificate, searches every
    legal move with no dead() test, as a certificate must be closed under every legal move)."""
    cdef BaronessCtx c
    cdef Game g
    cdef State root
    if objective != "decide":
        raise ValueError(f"baroness has no objective {objective!r}")
    cdef ttable memo, seen
    cdef size_t budget = limits.memory_bytes, share
    make_game(&g, &c, spec, spec.get("prune", True) and not certificate)
    root = root_of(spec)
    if spec.get("root") is not None:
        check_given(&c, root.removed, root.aux)
    # The fresh-deal rule's memory comes out of the budget: an eighth for its memo, a
    # sixteenth for a sub-search's visited table, and its two arrays (at most SUB_CAP positions).
    # A budget too small for them searches without the rule (it only saves work).
    share = budget // 8 + budget // 16
    c.sub_cap = <int>min(<size_t>SUB_CAP, budget // 64 // (sizeof(State) + sizeof(int)))
    if not (c.prune and c.to_empty and spec.get("fresh", True)) or c.sub_cap < 64:
        return run_of(*depth_first(&g, root, limits.max_states, limits.max_seconds,
                                   budget, certificate))
    if tt_init(&memo, budget // 8) != 0:
        raise MemoryError("cannot allocate the fresh-deal rule's memo")
    if tt_init(&seen, budget // 16) != 0:
        tt_free(&memo)
        raise MemoryError("cannot allocate the fresh-deal rule's table")
    c.memo = &memo
    c.seen = &seen
    c.stack = <int *>malloc(sizeof(int) * c.sub_cap)
    c.vis = <State *>malloc(sizeof(State) * c.sub_cap)
    try:
        if c.stack == NULL or c.vis == NULL:
            raise MemoryError("cannot allocate the fresh-deal rule's stack")
        share += (sizeof(State) + sizeof(int)) * c.sub_cap
        g.dead = fresh_lost
        status, path, stats, cert = depth_first(&g, root, limits.max_states, limits.max_seconds,
                                                budget - share if budget > 2 * share else budget // 2,
                                                certificate)
        stats["fresh_searches"] = c.sub_runs
        stats["fresh_positions"] = c.sub_positions
        stats["fresh_given_up"] = c.sub_given_up
        return run_of(status, path, stats, cert)
    finally:
        free(c.stack)
        free(c.vis)
        tt_free(&seen)
        tt_free(&memo)


# -- the contract's expand, step, random_win and playouts (engine/_entries.pxi) ------------------

ctypedef BaronessCtx CoreCtx


cdef int prepare(Game *g, CoreCtx *c, dict spec, bint listing) except -1:
    """The game of expand and step (listing; what they list: spec["prune"] = True (the pruned search's moves)) and of the walks."""
    make_game(g, c, spec, spec.get("prune", False))
    return 0


#: Positions given from Python are checked (engine/contract.py).
CHECKS_POSITIONS = True


cdef int check_given(BaronessCtx *c, uint64_t removed, uint64_t aux) except -1:
    """Refuse a position given from Python that is none of this deal's: its aux (check_aux), a
    removed card the deals have not laid yet, a moved card (to_empty) that is removed, laid
    apart, not dealt yet, on two piles or stored on its own pile (canonical: none there), or
    removed cards that no removals of Kings and pairs totalling 13 make."""
    cdef State s
    cdef bb_t table, moved = 0, bit
    cdef int i, m, v
    check_aux(c, aux)
    s.removed = removed
    s.aux = aux
    table = ~c.undealt[deal_moves(&s)] & BB_FULL_PACK
    if deal_moves(&s) >= c.last_aux:
        table |= c.reserve
    if removed & ~table:
        raise ValueError(f"({removed}, {aux}) is not a Baroness position: it removes a card not "
                         f"dealt after {deal_moves(&s) + 1} deals")
    for i in range(NPILES):
        m = moved_card(&s, i)
        if m < 0:
            continue
        bit = (<bb_t>1) << m
        wrong = ("removed" if bit & removed else "laid apart" if bit & c.reserve
                 else "not dealt yet" if bit & ~table else "on another pile too" if bit & moved
                 else "on the pile it was dealt to (stored as none there)" if c.home[m] == i
                 else None)
        if wrong is not None:
            raise ValueError(f"({removed}, {aux}) is not a Baroness position: pile {i + 1}'s "
                             f"moved card {m} is {wrong}")
        moved |= bit
    for v in range(1, 7):
        if bb_count(removed & bb_rank(v)) != bb_count(removed & bb_rank(13 - v)):
            raise ValueError(f"({removed}, {aux}) is not a Baroness position: the removed cards "
                             f"of values {v} and {13 - v} do not pair up")
    return 0


include "../../engine/_entries.pxi"


def dead_rules(object cards, uint64_t removed, uint64_t aux, bint together=False):
    """The two dead() tests at the position (removed, aux), as (rule 1, rule 2) (for tests)."""
    cdef BaronessCtx c
    cdef State s
    setup(&c, cards, True, together)
    s.removed = removed
    s.aux = aux
    left = ~removed & BB_FULL_PACK
    return bool(unmatched(&c, left)), bool(stuck_cards(&c, &s, left))


def table_key(object cards, uint64_t removed, uint64_t aux, bint together=True):
    """The pruned search's table key of (removed, aux) under to_empty (the alike rule; for
    tests)."""
    cdef BaronessCtx c
    cdef State s, key
    setup(&c, cards, True, together, True)
    check_given(&c, removed, aux)
    s.removed = removed
    s.aux = aux
    alike_key(&c, &s, &key)
    return key.removed, key.aux


#: The tests' switches (tests/test_fuzz.py): the spec keys of this core's search modes, each
#: searched on random input beside core_spec's own.
SEARCH_MODES = ({}, {"prune": False}, {"fresh": False}, {"alike": False})
#: The spec keys that make expand() list the moves of the pruned search instead of every
#: legal move, and whether those are some of the legal ones (else only that it runs is
#: checked).
PRUNED_EXPAND = ({"prune": True}, True)


def fresh_rule(object cards, uint64_t removed, uint64_t aux, bint together=True):
    """The fresh-deal rule at (removed, aux) under to_empty, with a fresh memo (for tests): True
    when it cuts the position (its class is lost)."""
    cdef BaronessCtx c
    cdef ttable memo, seen
    cdef State s
    setup(&c, cards, True, together, True)
    check_given(&c, removed, aux)
    if tt_init(&memo, 1 << 22) != 0:
        raise MemoryError("cannot allocate the fresh-deal rule's tables")
    if tt_init(&seen, 1 << 22) != 0:
        tt_free(&memo)
        raise MemoryError("cannot allocate the fresh-deal rule's tables")
    c.memo = &memo
    c.seen = &seen
    c.sub_cap = SUB_CAP
    c.stack = <int *>malloc(sizeof(int) * c.sub_cap)
    c.vis = <State *>malloc(sizeof(State) * c.sub_cap)
    try:
        if c.stack == NULL or c.vis == NULL:
            raise MemoryError("cannot allocate the fresh-deal rule's stack")
        s.removed = removed
        s.aux = aux
        return bool(fresh_lost(&c, &s))
    finally:
        free(c.stack)
        free(c.vis)
        tt_free(&seen)
        tt_free(&memo)
