# cython: language_level=3
"""Core of the slot family (Elevens, Block Ten, ...), compiled from each game's table entry.

A position is the removed-cards bitboard alone: the stock deals one card per card removed, so the
cards showing are the first `slots` + removed cards of the pack, less the removed ones.

spec (the contract, solitaire_solver/engine/contract.py): "table" (a SlotSpec, the compiled table
entry), "cards" (52 card indexes in the order play deals them: a game whose deal moves cards
first, as Block Elevens sends court cards to the bottom, gives the pack so moved; the batch
decider, given the deals themselves, moves them with the table's deal rule), "mode" (below;
MODE_FORCED by default).

Move generation has three modes:
- ALL: every legal removal (what the reference rules list).
- PER_KIND: one removal per kind of removal (a kind is a multiset of ranks, such as 5-6, or the
  J-Q-K set), taking the lowest-index cards of each rank; a suited kind gives one removal per
  suit. Two removals of one unsuited kind leave positions that differ only in the suits of cards
  of the same ranks, and suits play no part for those ranks, so either wins iff the other does.
  A sums kind (any group of cards of ranks R totalling N) gives one removal per rank multiset
  it can take: the same argument, per multiset, since no suited kind uses a rank of R (checked
  when the table is compiled; docs/proofs.md, "Fifteens").
- FORCED: only the first available removal. When no rank takes part in two kinds (the table's
  `confluent`), removals of different kinds never compete for a card, never disable each other,
  and commute; with the suit symmetry above this makes the game confluent (docs/proofs.md):
  every maximal line of play ends in the same position up to suits, and one line decides the
  deal. solve() plays that line without the table; tests/test_slots.py checks it against ALL and
  PER_KIND searches on thousands of deals.
"""

from libc.stdint cimport int64_t, uint8_t, uint32_t, uint64_t
from libc.string cimport memcpy
from posix.time cimport CLOCK_MONOTONIC, clock_gettime, timespec

from solitaire_solver.engine._engine cimport (
    Game, State, depth_first, expand_state, game_clear, root_of, step_state,
)
from solitaire_solver.engine.bitboard cimport BB_FULL_PACK, bb_count, bb_pop_lowest, bb_rank, bb_t
from solitaire_solver.engine.pyrandom cimport ss_seeded_deal_i64, ss_seeded_deals_i64

from solitaire_solver.engine.contract import StuckEnd, run_of
from solitaire_solver.moves import RESERVE_FLAG as _RESERVE_FLAG

MODE_ALL = 0
MODE_PER_KIND = 1
MODE_FORCED = 2

cdef enum:
    ALL = 0
    PER_KIND = 1
    FORCED = 2
    MAX_KINDS = 16
    MAX_SUMS = 4
    MAX_SLOTS = 16
    MAX_SUITED = 4      # suited kinds the batch decider can count (four suits each in one word)
    LATER_NONE = 0
    LATER_ONCE = 1
    LATER_WHILE = 2

# A move putting one card into the reserve: its card bit with this flag (solitaire_solver.moves).
cdef uint64_t RESERVE = <uint64_t>_RESERVE_FLAG
cdef uint64_t CARDS = (<uint64_t>1 << 52) - 1

#: SlotTable.bottom_later's values.
LATER = {"": LATER_NONE, "once": LATER_ONCE, "while": LATER_WHILE}


cdef struct Kind:
    int nranks
    int rank[4]         # distinct ranks, 1..13
    int need[4]         # cards of each rank in the removal
    bint suited
    bb_t suit_cards[4]  # suited: the kind's card of each rank in suit s


cdef struct SumKind:
    int total
    int nranks
    int rank[13]        # distinct ranks, ascending
    bb_t cards          # every card of those ranks


# Reserve slots beside the row (SlotTable.reserve, PySolFC's rules). A position's aux holds the
# reserve's cards (bits 0..51) and, from bit 52, how many emptied slots wait for a refill while
# the stock still has cards (only when slots are not refilled while the reserve holds cards): the
# stock has dealt slots + removed + held - waiting cards.
cdef struct Reserve:
    bint on
    int ranks           # bit r: rank r may go to the reserve
    int size            # cards that fill it; they then leave together
    bint same_rank      # every held card of one rank (else no two of one rank)
    bint refill         # emptied slots refilled at once even while it holds cards
    bb_t cards          # every card of those ranks


# The deal's rule for ranks that may not show in the first layout (SlotTable.bottom).
cdef struct DealRule:
    int slots
    int mask            # bit r: rank r goes to the bottom while it shows in the layout
    int later           # when none went: LATER_NONE, LATER_ONCE (the first one dealt later goes
                        # under, once) or LATER_WHILE (and so does each such card dealt in its place)
    uint8_t bottom[52]  # per card: 1 when its rank is in mask


# The one-pass batch decider's tables, per rank (see decide_pass).
cdef struct Batch:
    uint64_t one[14]
    uint64_t add[14]
    uint64_t carry[14]
    uint64_t dec[14]
    uint64_t gain[14]
    int sk[14]          # suited kind of the rank (index among the suited ones), or -1
    int ssize[MAX_SUITED]
    int goal_count
    int slots
    DealRule deal
    int res_ranks       # a confluent reserve's ranks (bit r), or 0: decide_pass_reserve


cdef class SlotSpec:
    """A slot game's table entry compiled for the core: slots, kinds of removal (each a tuple of
    ranks), suited kinds, the ranks that never leave; sums ((N, ranks), ...): any group of cards
    of those ranks totalling N; bottom, bottom_later: the deal's rule; reserve: (ranks, size,
    same_rank, refill_while_held) or None (SlotTable)."""

    cdef int slots
    cdef int nkinds
    cdef Kind kinds[MAX_KINDS]
    cdef int nsums
    cdef SumKind sums[MAX_SUMS]
    cdef bb_t goal
    cdef int max_moves          # bound on the removals of a position, every one listed (ALL)
    cdef int max_moves_kind     # the same with one removal per rank multiset (PER_KIND)
    cdef int max_depth
    cdef bint confluent
    cdef Batch batch
    cdef Reserve reserve

    def __init__(self, int slots, kinds, suited, never, sums=(), bottom=(), str bottom_later="",
                 reserve=None):
        cdef int i, j, s, r
        cdef Kind *k
        groups = [(tuple(g), False) for g in kinds] + [(tuple(g), True) for g in suited]
        sums = [(int(n), tuple(sorted(set(rs)))) for n, rs in sums]
        if not 1 <= slots <= MAX_SLOTS or len(groups) > MAX_KINDS or len(sums) > MAX_SUMS:
            raise ValueError("a slot table of 1..16 slots, at most 16 kinds of removal and at "
                             "most 4 sums")
        self.slots = slots
        self.nkinds = len(groups)
        self.goal = BB_FULL_PACK
        for r in never:
            self.goal &= ~bb_rank(r)
        self.max_moves = 1
        ranks_used = set(never)
        self.confluent = True
        fewest = 52     # the fewest cards a removal takes
        for i, (group, is_suited) in enumerate(groups):
            k = &self.kinds[i]
            counts = {r: group.count(r) for r in sorted(set(group))}
            if len(counts) > 4 or any(not 1 <= r <= 13 or n > 4 for r, n in counts.items()):
                raise ValueError(f"a removal of ranks {group} does not fit the core")
            if ranks_used & set(counts):
                self.confluent = False
            ranks_used |= set(counts)
            k.nranks = len(counts)
            k.suited = is_suited
            for j, (r, n) in enumerate(counts.items()):
                k.rank[j] = r
                k.need[j] = n
            for s in range(4):
                k.suit_cards[s] = 0
                if is_suited:
                    for r in counts:
                        k.suit_cards[s] |= (<bb_t>1) << (13 * s + r - 1)
            # At most four cards of a rank: C(4, n) <= 6 choices of n of them.
            choices = 4 if is_suited else 1
            if not is_suited:
                for n in counts.values():
                    choices *= (1, 4, 6, 4, 1)[n]
            self.max_moves += choices
            fewest = min(fewest, len(group))
        self.max_moves_kind = self.max_moves
        self.nsums = len(sums)
        suited_ranks = {r for g, is_suited in groups if is_suited for r in g}
        for i, (total, ranks) in enumerate(sums):
            if not ranks or any(not 1 <= r <= 13 for r in ranks) or total < 1:
                raise ValueError(f"a sum of ranks {ranks} totalling {total} does not fit the core")
            # PER_KIND's one removal per rank multiset is exact only if suits play no part for
            # these ranks (module doc): no suited kind may use them.
            if suited_ranks & set(ranks):
                raise ValueError(f"a sum of ranks {ranks} shares a rank with a suited kind")
            # A sum's groups compete for cards of its ranks, as two kinds sharing a rank do.
            self.confluent = False
            ranks_used |= set(ranks)
            self.sums[i].total = total
            self.sums[i].nranks = len(ranks)
            self.sums[i].cards = 0
            for j, r in enumerate(ranks):
                self.sums[i].rank[j] = r
                self.sums[i].cards |= bb_rank(r)
            every, multisets, least = sum_bounds(total, ranks, slots)
            if not multisets:
                raise ValueError(f"no group of ranks {ranks} totals {total}")
            self.max_moves += every
            self.max_moves_kind += multisets
            fewest = min(fewest, least)
        self.fill_batch(groups, never)
        self.fill_deal(bottom, bottom_later)
        self.fill_reserve(reserve, ranks_used, suited_ranks)
        if self.reserve.on:
            fewest = 1
            # ALL lists each showing card of a reserve rank, PER_KIND one per rank.
            self.max_moves += min(slots, 4 * bin(self.reserve.ranks).count("1"))
            self.max_moves_kind += bin(self.reserve.ranks).count("1")
        # Every removal takes `fewest` cards or more, so a line has at most 52 // fewest moves.
        self.max_depth = 52 // fewest + 2

    cdef void fill_reserve(self, reserve, ranks_used, suited_ranks) except *:
        cdef Reserve *v = &self.reserve
        cdef int r
        v.on = reserve is not None
        v.ranks = v.size = v.same_rank = v.refill = 0
        v.cards = 0
        self.batch.res_ranks = 0
        if not v.on:
            return
        if self.batch.deal.mask:
            raise ValueError("a slot table with both a reserve and a deal rule")
        ranks, size, same_rank, refill = reserve
        ranks = set(ranks)
        if not ranks or any(not 1 <= r <= 13 for r in ranks) or \
                not 1 <= size <= (4 if same_rank else len(ranks)):
            raise ValueError(f"a reserve of ranks {sorted(ranks)} cannot fill {size} slots")
        # PER_KIND holds one card per rank, the lowest index: exact only if suits play no part
        # for these ranks, and no other removal takes them.
        if ranks & (set(ranks_used) | suited_ranks):
            raise ValueError(f"reserve ranks {sorted(ranks)} also leave otherwise")
        for r in ranks:
            v.ranks |= 1 << r
            v.cards |= bb_rank(r)
        v.size = size
        v.same_rank = same_rank
        v.refill = refill
        # Holding a card disables holding another only within its rank, one card per rank and
        # refilled at once (docs/proofs.md, "PySolFC's Elevens"); then the batch pass applies.
        if same_rank or not refill or size != len(ranks):
            self.confluent = False
        elif self.confluent:
            self.batch.res_ranks = v.ranks

    cdef void fill_deal(self, bottom, str later) except *:
        cdef DealRule *d = &self.batch.deal
        cdef int r
        if later not in LATER or (later and not bottom):
            raise ValueError(f"bottom_later {later!r}: '', 'once' or 'while', with bottom ranks")
        d.slots = self.slots
        d.mask = 0
        d.later = LATER[later]
        for r in bottom:
            if not 1 <= r <= 13:
                raise ValueError(f"bottom rank {r} is not 1..13")
            d.mask |= 1 << r
        for r in range(52):
            d.bottom[r] = (d.mask >> (r % 13 + 1)) & 1
        # The layout is filled only if enough cards are of other ranks; then no card sent to the
        # bottom comes back to the layout while the layout is dealt (deal_as_played).
        if 4 * len(set(bottom)) > 52 - self.slots:
            raise ValueError("the bottom ranks have more cards than the stock")

    cdef void fill_batch(self, list groups, never):
        """The batch decider's tables (used only when the table is confluent)."""
        cdef Batch *b = &self.batch
        cdef int r, n, q = 0
        cdef uint64_t add, carry, dec
        for r in range(14):
            b.one[r] = (<uint64_t>1) << (4 * r)
            b.add[r] = b.carry[r] = b.dec[r] = b.gain[r] = 0
            b.sk[r] = -1
        b.slots = self.slots
        b.goal_count = bb_count(self.goal)
        for group, is_suited in groups:
            counts = {r: group.count(r) for r in set(group)}
            if is_suited:
                if q < MAX_SUITED:
                    b.ssize[q] = len(counts)
                    for r in counts:
                        b.sk[r] = q
                        b.gain[r] = len(counts)
                else:
                    self.confluent = False  # more than the decider counts: no batch path
                q += 1
                continue
            add = carry = dec = 0
            for r, n in counts.items():
                add += (<uint64_t>(8 - n)) << (4 * r)
                carry += (<uint64_t>8) << (4 * r)
                dec += (<uint64_t>n) << (4 * r)
            for r in counts:
                b.add[r] = add
                b.carry[r] = carry
                b.dec[r] = dec
                b.gain[r] = len(group)

    @property
    def confluent(self):
        return self.confluent

    @property
    def max_moves(self):
        """(bound listing every removal, bound with one removal per rank multiset)"""
        return self.max_moves, self.max_moves_kind


def sum_bounds(int total, tuple ranks, int slots):
    """For a sums kind: (how many groups of at most `slots` cards of the whole pack total
    `total` -- a bound on the removals any position offers --, how many rank multisets of at
    most `slots` cards do, the fewest cards of any group). Counted by size and total, rank by
    rank: a rank gives n of its four cards in C(4, n) ways."""
    # ways[t][m]: groups of m cards totalling t (over the ranks so far); kinds[t][m]: multisets.
    ways = [[0] * (slots + 1) for _ in range(total + 1)]
    kinds = [[0] * (slots + 1) for _ in range(total + 1)]
    ways[0][0] = kinds[0][0] = 1
    for r in ranks:
        new_ways = [[0] * (slots + 1) for _ in range(total + 1)]
        new_kinds = [[0] * (slots + 1) for _ in range(total + 1)]
        for t in range(total + 1):
            for m in range(slots + 1):
                if not kinds[t][m]:
                    continue
                for n in range(5):
                    if t + n * r > total or m + n > slots:
                        break
                    new_ways[t + n * r][m + n] += ways[t][m] * (1, 4, 6, 4, 1)[n]
                    new_kinds[t + n * r][m + n] += kinds[t][m]
        ways, kinds = new_ways, new_kinds
    sizes = [m for m in range(slots + 1) if kinds[total][m]]
    return sum(ways[total]), sum(kinds[total]), (min(sizes) if sizes else 52)


cdef struct SlotsCtx:
    bb_t prefix[53]      # prefix[k]: the first k cards of the pack
    bb_t goal            # the cards that must be removed
    const Reserve *res
    int slots
    int nkinds
    const Kind *kinds
    int nsums
    const SumKind *sums
    int mode
    int max_moves        # room in a move buffer (the engine's max_moves)


cdef inline bb_t showing(SlotsCtx *c, const State *s) noexcept nogil:
    cdef bb_t gone = s.removed | (s.aux & CARDS)
    cdef int dealt = c.slots + bb_count(gone) - <int>(s.aux >> 52)
    if dealt > 52:
        dealt = 52
    return c.prefix[dealt] & ~gone


cdef inline int kind_moves(SlotsCtx *c, const Kind *k, bb_t show, uint64_t *out,
                           int n) noexcept nogil:
    """Appends the removals of kind k among the showing cards (as the mode says)."""
    cdef bb_t avail[4]
    cdef bb_t opts[4][6]
    cdef int cnt[4]
    cdef int idx[4]
    cdef bb_t a, sub, m
    cdef int i, j, s
    if k.suited:
        for s in range(4):
            if (show & k.suit_cards[s]) == k.suit_cards[s]:
                out[n] = k.suit_cards[s]
                n += 1
                if c.mode == FORCED:
                    return n
        return n
    for i in range(k.nranks):
        avail[i] = show & bb_rank(k.rank[i])
        if bb_count(avail[i]) < k.need[i]:
            return n
    if c.mode != ALL:
        m = 0
        for i in range(k.nranks):
            a = avail[i]
            for j in range(k.need[i]):
                m |= a & (0 - a)
                a = bb_pop_lowest(a)
        out[n] = m
        return n + 1
    # Every choice: need[i] cards of each rank i (subsets in ascending order), combined.
    for i in range(k.nranks):
        cnt[i] = 0
        sub = 0
        while True:
            sub = (sub - avail[i]) & avail[i]
            if sub == 0:
                break
            if bb_count(sub) == k.need[i]:
                opts[i][cnt[i]] = sub
                cnt[i] += 1
        idx[i] = 0
    while True:
        m = 0
        for i in range(k.nranks):
            m |= opts[i][idx[i]]
        out[n] = m
        n += 1
        i = k.nranks - 1
        while i >= 0:
            idx[i] += 1
            if idx[i] < cnt[i]:
                break
            idx[i] = 0
            i -= 1
        if i < 0:
            return n


cdef int subsets_totalling(const int *vals, const int *rest, const bb_t *bits, int m, int start,
                           int left, bb_t acc, uint64_t *out, int n, int room) noexcept nogil:
    """Appends every set of the cards start..m-1 (values ascending; rest[i]: the total of cards
    i..m-1) totalling `left`, each with the cards `acc`: a set is built in list order, so none
    is listed twice."""
    cdef int i
    if rest[start] < left:
        return n                # even all the cards left fall short
    for i in range(start, m):
        if vals[i] > left or n >= room:
            break               # the values ascend: no later card fits either
        if vals[i] == left:
            out[n] = acc | bits[i]
            n += 1
        else:
            n = subsets_totalling(vals, rest, bits, m, i + 1, left - vals[i], acc | bits[i], out,
                                  n, room)
    return n


cdef int multisets_totalling(const int *rank, const int *rest, const bb_t *avail, int nr, int i,
                             int left, bb_t acc, uint64_t *out, int n, int room) noexcept nogil:
    """Appends one set per rank multiset totalling `left` from ranks i..nr-1 (avail: the
    showing cards of each; rest[i]: their total from rank i on), taking the lowest-index cards
    of each rank."""
    cdef bb_t a, take
    cdef int j
    if left == 0:
        if n < room:
            out[n] = acc
            n += 1
        return n
    if i == nr or n >= room or rest[i] < left:
        return n
    n = multisets_totalling(rank, rest, avail, nr, i + 1, left, acc, out, n, room)
    a = avail[i]
    take = 0
    j = 1
    while a and j * rank[i] <= left:
        take |= a & (0 - a)
        a = bb_pop_lowest(a)
        n = multisets_totalling(rank, rest, avail, nr, i + 1, left - j * rank[i], acc | take,
                                out, n, room)
        j += 1
    return n


cdef inline int sum_moves(SlotsCtx *c, const SumKind *k, bb_t show, uint64_t *out,
                          int n) noexcept nogil:
    """Appends the removals of a sums kind among the showing cards (as the mode says)."""
    cdef int vals[52]
    cdef int rest[53]
    cdef bb_t bits[52]
    cdef bb_t avail[13]
    cdef int rank[13]
    cdef int m = 0
    cdef int i, room
    cdef bb_t a
    room = n + 1 if c.mode == FORCED else c.max_moves
    if c.mode != ALL:
        for i in range(k.nranks):
            a = show & bb_rank(k.rank[i])
            if a:
                rank[m] = k.rank[i]
                avail[m] = a
                m += 1
        rest[m] = 0
        for i in range(m - 1, -1, -1):
            rest[i] = rest[i + 1] + rank[i] * bb_count(avail[i])
        return multisets_totalling(rank, rest, avail, m, 0, k.total, 0, out, n, room)
    # The cards by value, ascending (ranks ascend, and each rank's cards in index order).
    for i in range(k.nranks):
        a = show & bb_rank(k.rank[i])
        while a:
            vals[m] = k.rank[i]
            bits[m] = a & (0 - a)
            m += 1
            a = bb_pop_lowest(a)
    rest[m] = 0
    for i in range(m - 1, -1, -1):
        rest[i] = rest[i + 1] + vals[i]
    return subsets_totalling(vals, rest, bits, m, 0, k.total, 0, out, n, room)


cdef int slots_moves(void *ctx, const State *s, uint64_t *out) noexcept nogil:
    cdef SlotsCtx *c = <SlotsCtx *>ctx
    cdef bb_t show = showing(c, s)
    cdef int n = 0
    cdef int i
    for i in range(c.nkinds):
        n = kind_moves(c, &c.kinds[i], show, out, n)
        if n and c.mode == FORCED:
            return n
    for i in range(c.nsums):
        n = sum_moves(c, &c.sums[i], show, out, n)
        if n and c.mode == FORCED:
            return n
    if c.res.on:
        n = reserve_moves(c, s, show, out, n)
    return n


cdef inline int reserve_moves(SlotsCtx *c, const State *s, bb_t show, uint64_t *out,
                              int n) noexcept nogil:
    """Appends the moves putting a showing card into the reserve (as the mode says)."""
    cdef const Reserve *v = c.res
    cdef bb_t held = s.aux & CARDS
    cdef bb_t a
    cdef int r, held_rank = 0
    if bb_count(held) >= v.size:
        return n
    if held:
        held_rank = bb_count((held & (0 - held)) - 1) % 13 + 1
    for r in range(1, 14):
        if not (v.ranks >> r) & 1:
            continue
        if v.same_rank and held and r != held_rank:
            continue
        if not v.same_rank and held & bb_rank(r):
            continue
        a = show & bb_rank(r)
        while a:
            out[n] = (a & (0 - a)) | RESERVE
            n += 1
            if c.mode != ALL:
                break   # one card per rank: the others differ by suit alone
            a = bb_pop_lowest(a)
        if n and c.mode == FORCED:
            return n
    return n


cdef void slots_play(void *ctx, const State *s, uint64_t move, State *out) noexcept nogil:
    cdef SlotsCtx *c = <SlotsCtx *>ctx
    cdef bb_t held
    cdef uint64_t waiting
    if not c.res.on:
        out.removed = s.removed | move
        out.aux = 0
        return
    held = s.aux & CARDS
    waiting = s.aux >> 52
    out.removed = s.removed
    if move & RESERVE:
        held |= move & CARDS
        if bb_count(held) == c.res.size:
            out.removed |= held     # a full reserve leaves; the waiting slots are refilled
            held = 0
    else:
        out.removed |= move
    if held and not c.res.refill:
        waiting += bb_count(move & CARDS)
    else:
        waiting = 0
    # Once the stock is dealt out, nothing waits (one form per position).
    if c.slots + bb_count(out.removed | held) - <int>waiting >= 52:
        waiting = 0
    out.aux = held | (waiting << 52)


cdef int slots_won(void *ctx, const State *s) noexcept nogil:
    cdef SlotsCtx *c = <SlotsCtx *>ctx
    return (s.removed & c.goal) == c.goal


cdef void setup(SlotsCtx *c, SlotSpec spec, object cards, int mode) except *:
    cdef int i
    if mode not in (ALL, PER_KIND, FORCED):
        raise ValueError(f"unknown move mode {mode}")
    c.prefix[0] = 0
    for i in range(52):
        c.prefix[i + 1] = c.prefix[i] | ((<bb_t>1) << <int>cards[i])
    c.slots = spec.slots
    c.nkinds = spec.nkinds
    c.kinds = spec.kinds
    c.nsums = spec.nsums
    c.sums = spec.sums
    c.goal = spec.goal
    c.res = &spec.reserve
    c.mode = mode
    c.max_moves = spec.max_moves if mode == ALL else spec.max_moves_kind


cdef void make_game(Game *g, SlotsCtx *c, SlotSpec spec) noexcept:
    game_clear(g)
    g.ctx = c
    g.moves = slots_moves
    g.play = slots_play
    g.won = slots_won
    g.max_moves = c.max_moves
    g.max_depth = spec.max_depth


def solve(dict spec, str objective, limits, bint certificate):
    """The contract's entry point (solitaire_solver/engine/contract.py); the spec's keys are in the
    module doc. MODE_FORCED without a certificate plays the forced line (no table); a
    certificate searches MODE_ALL, as it must list every position reachable."""
    cdef SlotsCtx c
    cdef Game g
    cdef State root
    cdef SlotSpec table = spec["table"]
    cdef int mode = spec.get("mode", FORCED)
    if objective != "decide":
        raise ValueError(f"a slot game has no objective {objective!r}")
    if certificate:
        mode = ALL
    setup(&c, table, spec["cards"], mode)
    root = root_of(spec)
    if spec.get("root") is not None:
        check_given(&c, root.removed, root.aux)
    if mode == FORCED:
        return forced_line(&c, spec["cards"], root, spec.get("root") is None,
                           limits.max_states)
    make_game(&g, &c, table)
    return run_of(*depth_first(&g, root, limits.max_states, limits.max_seconds,
                               limits.memory_bytes, certificate))


cdef object forced_line(SlotsCtx *c, object cards, State root, bint from_start,
                        long long max_states):
    """The forced line (first removal each time) from `removed` to its end, as a CoreRun whose
    end, when blocked, is a StuckEnd (contract.py): the removed bitboard and the card in each
    slot or None, refilled lowest slot first as the rules say (slots None when the line did not
    start at the deal, whose slots only the moves played so far fix). Confluence makes this line decide, so it is the proof."""
    cdef State s, t
    cdef uint64_t buf[8]
    cdef int slot[MAX_SLOTS]
    cdef int i, nxt = c.slots
    cdef double t0 = now_ns()
    for i in range(c.slots):
        slot[i] = <int>cards[i]
    s = root
    line = []
    while not slots_won(c, &s) and slots_moves(c, &s, buf) > 0:
        if max_states and len(line) + 1 > max_states:
            # Stop at the limit as the engine does (states = the limit), rather than play the
            # line out and only then call it UNKNOWN.
            return run_of(2, [], {"states": max_states, "search": "forced-line",
                                  "seconds": (now_ns() - t0) * 1e-9})
        line.append(buf[0])
        for i in range(c.slots):
            if from_start and slot[i] >= 0 and (buf[0] >> slot[i]) & 1:
                slot[i] = <int>cards[nxt] if nxt < 52 else -1
                nxt += 1
        slots_play(c, &s, buf[0], &t)
        s = t
    won = slots_won(c, &s)
    # Counted as the engine counts: the positions reached, a won one not.
    states = len(line) + (0 if won else 1)
    stats = {"states": states, "search": "forced-line", "seconds": (now_ns() - t0) * 1e-9}
    if max_states and states > max_states:
        stats["states"] = max_states
        return run_of(2, [], stats)     # SEARCH_LIMIT_STATES
    if won:
        return run_of(0, line, stats)
    end = StuckEnd(s.removed, tuple(slot[i] if slot[i] >= 0 else None for i in range(c.slots))
                   if from_start else None)
    return run_of(1, line, stats, None, None, end)


#: Positions given from Python are checked (engine/contract.py).
CHECKS_POSITIONS = True


cdef int check_given(SlotsCtx *c, uint64_t removed, uint64_t aux) except -1:
    """Refuse a position given from Python that none of this deal's lines reaches in a way the
    move generator relies on: every card gone (removed or held) is among those the stock has
    dealt, so that no more cards show than there are slots (the move buffer's bound)."""
    cdef bb_t held = aux & CARDS
    cdef bb_t gone = removed | held
    cdef int waiting = <int>(aux >> 52)
    cdef int dealt = c.slots + bb_count(gone) - waiting
    if (removed & ~CARDS or (aux and not c.res.on) or held & removed
            or (held and (held & ~c.res.cards or bb_count(held) >= c.res.size))
            or waiting > c.slots or dealt < bb_count(gone)
            or gone & ~c.prefix[52 if dealt > 52 else dealt]):
        raise ValueError(f"({removed}, {aux}) is not a position of this deal")
    return 0


# -- the contract's expand, step, random_win and playouts (engine/_entries.pxi) ------------------

ctypedef SlotsCtx CoreCtx


cdef int prepare(Game *g, CoreCtx *c, dict spec, bint listing) except -1:
    """The game of expand and step (listing; what they list: spec["expand_mode"] (a search mode's list: the tests compare the generators)) and of the walks."""
    setup(c, spec["table"], spec["cards"], spec.get("expand_mode", ALL))
    make_game(g, c, spec["table"])
    return 0


include "../../engine/_entries.pxi"


def dealt_pack(SlotSpec table, cards):
    """The pack in the order play deals it, by the table's deal rule as the batch decider applies
    it (compare with the reference rules' pack_as_dealt)."""
    cdef uint8_t pack[52]
    cdef uint8_t out[52]
    cdef int i
    if sorted(cards) != list(range(52)):
        raise ValueError("dealt_pack: the 52 card indexes of one full pack")
    for i in range(52):
        pack[i] = <uint8_t>cards[i]
    deal_as_played(&table.batch.deal, pack, out)
    return [out[i] for i in range(52)]


# ---------------------------------------------------------------------------------------------
# Batch decisions for surveys: many deals in one call, no Python per deal.
#
# Confluence (module doc) lets one pass over the pack decide a deal. Keep the count of each rank
# showing and the number of empty slots; deal the next card into an empty slot, and after each
# card dealt make the removal it enables, if any. Invariant: after each card, no removal is
# available among the cards showing. Before it none was, so a removal now available is of the
# new card's kind (each rank is in one kind) and the new card's rank was one card short of it;
# making it leaves that rank with none to spare, so the kind is unavailable again. Each removal
# is legal in the real game at that point, where every refill is made at once: the real game has
# then dealt at least as many cards, and dealing never hides a card. When the pass ends (no empty
# slot, or no stock) the position is the real game's stuck or won position, so the verdict, the
# cards left and the number of removals equal the forced line's.
# tests/test_survey.py checks all three against solve() on thousands of deals.

cdef enum:
    WON = 0
    BLOCKED = 1

BATCH_WON = WON
BATCH_BLOCKED = BLOCKED

cdef enum:
    CHUNK = 1024    # deals shuffled per call to ss_seeded_deals_i64 (52 KiB of cards)


# The pass keeps the count of each rank showing in one 64-bit word, four bits per rank (rank r at
# bits 4r..4r+3; at most four cards of a rank, so no count spills into the next), and makes the
# removal a new card enables without a branch: the processor cannot guess whether a card finds its
# partner, and a wrong guess costs more than the arithmetic. A kind needing n_s cards of each of
# its ranks s is available when every count c_s >= n_s: adding 8 - n_s to each nibble (at most
# 4 + 7 = 11, no carry out) sets bit 3 of nibble s exactly then, so the test is one add and one
# mask (ADD, CARRY); DEC takes the removal off the counts, GAIN is the cards it removes. Ranks
# that never leave have CARRY 0 and GAIN 0: the test holds, but nothing is removed. Suited kinds
# are counted per suit in a second word (4 bits a suit, one group of four per suited kind) and
# leave when their suit's count reaches the kind's size.

cdef inline uint64_t deal_one(const Batch *b, int card, uint64_t *cnt,
                             uint64_t *scnt) noexcept nogil:
    """Count one card dealt and make the removal it enables; returns the cards removed."""
    cdef uint64_t h, gain
    cdef int r = card % 13 + 1
    cdef int q = b.sk[r]
    cdef int sh
    if q >= 0:
        sh = 4 * (4 * q + card // 13)
        scnt[0] += (<uint64_t>1) << sh
        gain = <uint64_t>b.ssize[q] if ((scnt[0] >> sh) & 0xF) == <uint64_t>b.ssize[q] else 0
        scnt[0] -= gain << sh
    else:
        cnt[0] += b.one[r]
        h = ((cnt[0] + b.add[r]) & b.carry[r]) == b.carry[r]
        cnt[0] -= b.dec[r] & (<uint64_t>0 - h)
        gain = b.gain[r] & (<uint64_t>0 - h)
    return gain


cdef inline int decide_pass(const Batch *b, const uint8_t *cards, uint8_t *moves_out,
                            uint8_t *left_out) noexcept nogil:
    """Decide one deal (card indexes in dealing order); returns 0 won, 1 blocked."""
    cdef uint64_t cnt = 0
    cdef uint64_t scnt = 0
    cdef uint64_t gain
    cdef int empty = b.slots
    cdef int nxt = 0
    cdef int removed = 0
    cdef int moves = 0
    while empty > 0 and nxt < 52:
        gain = deal_one(b, cards[nxt], &cnt, &scnt)
        nxt += 1
        empty += <int>gain - 1
        removed += <int>gain
        moves += gain != 0
    moves_out[0] = <uint8_t>moves
    left_out[0] = <uint8_t>(b.goal_count - removed)
    return 0 if removed == b.goal_count else 1


cdef inline int decide_pass_dealt(const Batch *b, const uint8_t *cards, uint8_t *moves_out,
                                  uint8_t *left_out) noexcept nogil:
    """decide_pass on the pack as the table's deal rule deals it (deal_as_played), without
    making that pack: the layout is the first `slots` cards of other ranks (a card sent under is
    replaced by the pack's next card), the rest of the pack follows (less the cards the `later`
    rule sends under, if any), then the cards sent under. The layout comes in pack order,
    not slot by slot, which changes nothing here: the pass's end is the same whatever the order
    of the cards dealt before it (its invariant, above), and so are the removals it counts, each
    kind taking a fixed number of cards."""
    cdef const DealRule *d = &b.deal
    cdef uint8_t under[52]
    cdef uint64_t cnt = 0
    cdef uint64_t scnt = 0
    cdef uint64_t gain
    cdef int empty = b.slots
    cdef int nxt = 0
    cdef int laid = 0
    cdef int k = 0
    cdef int i = 0
    cdef int removed = 0
    cdef int moves = 0
    cdef int card
    cdef int pending            # 1: looking for the later rule's card, 2: sending a run of them
    while laid < b.slots:       # the table leaves enough cards for the layout (fill_deal)
        card = cards[nxt]
        nxt += 1
        if d.bottom[card]:
            under[k] = <uint8_t>card
            k += 1
            continue
        laid += 1
        gain = deal_one(b, card, &cnt, &scnt)
        empty += <int>gain - 1
        removed += <int>gain
        moves += gain != 0
    pending = 1 if d.later != LATER_NONE and k == 0 else 0
    while empty > 0 and (nxt < 52 or i < k):
        if nxt < 52:
            card = cards[nxt]
            nxt += 1
            if pending:
                if d.bottom[card]:
                    under[k] = <uint8_t>card
                    k += 1
                    pending = 2 if d.later == LATER_WHILE else 0
                    continue
                if pending == 2:
                    pending = 0
        else:
            card = under[i]
            i += 1
        gain = deal_one(b, card, &cnt, &scnt)
        empty += <int>gain - 1
        removed += <int>gain
        moves += gain != 0
    moves_out[0] = <uint8_t>moves
    left_out[0] = <uint8_t>(b.goal_count - removed)
    return 0 if removed == b.goal_count else 1


cdef inline int decide_pass_reserve(const Batch *b, const uint8_t *cards, uint8_t *moves_out,
                                    uint8_t *left_out) noexcept nogil:
    """decide_pass for a table with a confluent reserve (one card of each of its ranks, slots
    refilled at once: PySolFC's Elevens). A card of a reserve rank dealt goes to the reserve if
    it holds none of its rank (its slot is dealt the next card), else it stays showing; when the
    reserve is full its cards leave and a showing card of each of its ranks takes the free place,
    which may fill it again. The invariant of decide_pass holds: after each card no move is
    available, since a showing card of a reserve rank means its rank is held."""
    cdef uint64_t cnt = 0
    cdef uint64_t scnt = 0
    cdef uint64_t gain
    cdef int full = b.res_ranks
    cdef int held = 0           # bit r: the reserve holds a card of rank r
    cdef int waiting[14]        # showing cards of each reserve rank
    cdef int empty = b.slots
    cdef int nxt = 0
    cdef int removed = 0
    cdef int moves = 0
    cdef int card, r, q
    for r in range(14):
        waiting[r] = 0
    while empty > 0 and nxt < 52:
        card = cards[nxt]
        nxt += 1
        r = card % 13 + 1
        if not (full >> r) & 1:
            gain = deal_one(b, card, &cnt, &scnt)
            empty += <int>gain - 1
            removed += <int>gain
            moves += gain != 0
            continue
        if (held >> r) & 1:
            waiting[r] += 1
            empty -= 1
        else:
            held |= 1 << r
            moves += 1
        while held == full:
            held = 0
            for q in range(1, 14):
                if (full >> q) & 1:
                    removed += 1
                    if waiting[q]:
                        waiting[q] -= 1
                        held |= 1 << q
                        moves += 1
                        empty += 1
    moves_out[0] = <uint8_t>moves
    left_out[0] = <uint8_t>(b.goal_count - removed)
    return 0 if removed == b.goal_count else 1


cdef void deal_as_played(const DealRule *d, const uint8_t *cards, uint8_t *out) noexcept nogil:
    """The pack in the order play deals it (SlotTable.bottom): slot by slot, while the slot shows
    a bottom rank, that card goes to the bottom of the pack and the slot takes the pack's next
    card; if none went, with LATER_ONCE the first bottom-rank card of the rest of the pack goes
    to the bottom once, with LATER_WHILE so do the bottom-rank cards right after it. The table
    has fewer bottom-rank cards than the stock has cards
    (SlotSpec.fill_deal), so the layout is filled before the pack's next card would be one sent
    under: the refills are the deal's own cards after the layout, in order, and the cards sent
    under follow the rest of the pack in the order they went."""
    cdef uint8_t under[52]
    cdef int k = 0
    cdef int p = d.slots
    cdef int i
    cdef uint8_t c
    if d.mask == 0:
        memcpy(out, cards, 52)
        return
    for i in range(d.slots):
        c = cards[i]
        while d.bottom[c]:
            under[k] = c
            k += 1
            c = cards[p]
            p += 1
        out[i] = c
    if k == 0 and d.later != LATER_NONE:
        for i in range(d.slots, 52):
            if d.bottom[cards[i]]:
                p = i + 1
                while d.later == LATER_WHILE and p < 52 and d.bottom[cards[p]]:
                    p += 1
                # cards i..p-1 go under
                memcpy(out + d.slots, cards + d.slots, i - d.slots)
                memcpy(out + i, cards + p, 52 - p)
                memcpy(out + i + 52 - p, cards + i, p - i)
                return
    memcpy(out + d.slots, cards + p, 52 - p)
    memcpy(out + d.slots + 52 - p, under, k)


cdef inline long long now_ns() noexcept nogil:
    cdef timespec ts
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return ts.tv_sec * 1000000000LL + ts.tv_nsec


cdef inline void record(const Batch *b, const uint8_t *deal, Py_ssize_t i, uint8_t[::1] status,
                        uint8_t[::1] left, uint8_t[::1] moves, uint8_t[::1] states) noexcept nogil:
    cdef int st
    if b.res_ranks:
        st = decide_pass_reserve(b, deal, &moves[i], &left[i])
    elif b.deal.mask:
        st = decide_pass_dealt(b, deal, &moves[i], &left[i])
    else:
        st = decide_pass(b, deal, &moves[i], &left[i])
    status[i] = <uint8_t>st
    # What solve() reports: positions reached; a won line does not count its won position.
    states[i] = <uint8_t>(moves[i] + st) if moves[i] > 0 else 1


cdef const Batch *batch_of(SlotSpec table) except NULL:
    if not table.confluent:
        raise ValueError("the batch decider needs a game whose outcome does not depend on the "
                         "order of play")
    return &table.batch


def decide_seeds(SlotSpec table, long long start, Py_ssize_t count, uint8_t[::1] status,
                 uint8_t[::1] left, uint8_t[::1] moves, uint8_t[::1] states,
                 uint32_t[::1] ns=None):
    """Decide the seeded deals start .. start+count-1 (seeds must fit in 64 bits).

    Fills status (BATCH_WON / BATCH_BLOCKED), cards left, removals and states (as solve() counts
    them) at index seed - start; ns, when given, gets each deal's time (shuffle + decision).
    """
    cdef const Batch *b = batch_of(table)
    cdef uint8_t deal[52]
    cdef Py_ssize_t i
    cdef long long t0 = 0
    cdef bint timing = ns is not None
    if count < 0 or status.shape[0] < count or left.shape[0] < count or \
            moves.shape[0] < count or states.shape[0] < count or (timing and ns.shape[0] < count):
        raise ValueError("decide_seeds: output arrays shorter than count")
    if count and (start > 0 and start + (count - 1) < start):
        raise OverflowError("decide_seeds: seeds beyond 64 bits")
    cdef uint8_t[::1] buf
    cdef Py_ssize_t base, m
    if timing:
        # Each deal timed on its own (shuffle + decision), one seed at a time.
        with nogil:
            for i in range(count):
                t0 = now_ns()
                ss_seeded_deal_i64(start + i, deal)
                record(b, deal, i, status, left, moves, states)
                ns[i] = <uint32_t>(now_ns() - t0)
        return
    # Shuffle a chunk of seeds together (pyrandom.c makes many at once), then decide them.
    buf = bytearray(52 * CHUNK)
    with nogil:
        base = 0
        while base < count:
            m = count - base if count - base < CHUNK else CHUNK
            ss_seeded_deals_i64(start + base, <size_t>m, &buf[0])
            for i in range(m):
                record(b, &buf[52 * i], base + i, status, left, moves, states)
            base += m


def tally(const uint8_t[::1] status, const uint8_t[::1] left, const uint8_t[::1] states):
    """Counts of a decided chunk, for the survey's summary: (won, cards-left histogram of the
    blocked deals, states histogram), the histograms as lists indexed by value (0..255)."""
    cdef Py_ssize_t n = status.shape[0]
    cdef Py_ssize_t i
    cdef long long won = 0
    cdef long long left_hist[256]
    cdef long long states_hist[256]
    if left.shape[0] < n or states.shape[0] < n:
        raise ValueError("tally: arrays of different lengths")
    for i in range(256):
        left_hist[i] = 0
        states_hist[i] = 0
    with nogil:
        for i in range(n):
            if status[i] == WON:
                won += 1
            else:
                left_hist[left[i]] += 1
            states_hist[states[i]] += 1
    return won, [left_hist[i] for i in range(256)], [states_hist[i] for i in range(256)]


def decide_deals(SlotSpec table, const uint8_t[:, ::1] deals, uint8_t[::1] status,
                 uint8_t[::1] left, uint8_t[::1] moves, uint8_t[::1] states):
    """Decide deals given as rows of 52 card indexes (checked: each row one full pack)."""
    cdef const Batch *b = batch_of(table)
    cdef Py_ssize_t n = deals.shape[0]
    cdef Py_ssize_t i
    cdef int j
    cdef uint64_t seen
    if deals.shape[1] != 52:
        raise ValueError("decide_deals: each deal is a row of 52 card indexes")
    if status.shape[0] < n or left.shape[0] < n or moves.shape[0] < n or states.shape[0] < n:
        raise ValueError("decide_deals: output arrays shorter than the deals")
    for i in range(n):
        seen = 0
        for j in range(52):
            if deals[i, j] < 52:
                seen |= (<uint64_t>1) << deals[i, j]
        if seen != BB_FULL_PACK:
            raise ValueError(f"decide_deals: deal {i} is not one full pack")
    with nogil:
        for i in range(n):
            record(b, &deals[i, 0], i, status, left, moves, states)


#: The tests' switches (tests/test_fuzz.py): the spec keys of this core's search modes, each
#: searched on random input beside core_spec's own.
SEARCH_MODES = ({}, {"mode": MODE_ALL}, {"mode": MODE_PER_KIND}, {"mode": MODE_FORCED})
