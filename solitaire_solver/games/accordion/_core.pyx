# cython: language_level=3
"""Core of Accordion on the wide engine (engine/_wide.pyx).

A position is the row of tops, left to right (a pile's covered cards never play again): 6 bits a
card, ten cards a word (card k in bits 6 (k mod 10) of word k // 10), the slots past the last
pile holding 63. A search from a row of n piles uses n // 10 + 1 words (so a row always ends in a
63): at most 6 for the 52 piles of a deal. At the Python boundary a position is one int (the
contract's wide form), and a move word is a Move code (`QH>QS`, moves.ONTO_LOW / ONTO_HIGH).

The search's rules, each a spec key (True by default in solve(); expand() lists every legal move
and its real successor unless a key asks otherwise). Each is argued exact in docs/accordion.md:
- "cut": a row whose tops fall into two groups or more that share no rank or suit is lost
  (rules.groups); the search expands no move from it (it stays in a certificate, where the
  checker re-derives the cut).
- "canonical": ranks and suits renamed in the order they first appear in the row (rules.canonical):
  the rules compare ranks only with ranks and suits only with suits, so renamed rows are won or
  lost together, and the table holds one row for all its renamings. A line's later moves are
  then in renamed cards: Game.core_line renames them back.
- "order": the moves in a good order for finding a win first, in attempts of growing budgets
  with the order's noise seeded anew (docs/accordion.md); any order explores the same positions
  when there is no win.
"""

from libc.stdint cimport uint64_t
from libc.string cimport memset

from solitaire_solver.engine._wide cimport (
    WideGame, sort_moves, wide_attempts, wide_clear, wide_depth_first, wide_expand,
    wide_playouts, wide_random_win,
)
from solitaire_solver.engine.contract import run_of
from solitaire_solver.games.accordion.rules import position_of, tops_of, width
from solitaire_solver.moves import ONTO_HIGH as _ONTO_HIGH, ONTO_LOW as _ONTO_LOW

cdef uint64_t ONTO_LOW = _ONTO_LOW
cdef uint64_t ONTO_HIGH = _ONTO_HIGH
cdef uint64_t CARD_BITS = (<uint64_t>1 << 52) - 1

DEF MAXN = 52
DEF EMPTY = 63

cdef struct AccCtx:
    int words
    bint cut
    bint canonical
    bint order
    uint64_t seed      # the attempt's seed of the move order's noise


cdef inline int unpack(const uint64_t *s, int words, int *t) noexcept nogil:
    """The row's tops into t; returns their number."""
    cdef int k = 0, w, j, c
    for w in range(words):
        for j in range(10):
            c = <int>((s[w] >> (6 * j)) & 63)
            if c == EMPTY:
                return k
            t[k] = c
            k += 1
    return k


cdef inline void pack(const int *t, int n, int words, uint64_t *out) noexcept nogil:
    cdef int w, j, k
    cdef uint64_t x
    for w in range(words):
        x = 0
        for j in range(10):
            k = 10 * w + j
            x |= (<uint64_t>(t[k] if k < n else EMPTY)) << (6 * j)
        out[w] = x


# A card's rank and suit, looked up rather than divided (EMPTY's are out of range).
cdef int RANK[64]
cdef int SUIT[64]
for _c in range(64):
    RANK[_c] = _c % 13 if _c < 52 else 13
    SUIT[_c] = _c // 13 if _c < 52 else 4


cdef inline bint match(int a, int b) noexcept nogil:
    return RANK[a] == RANK[b] or SUIT[a] == SUIT[b]


cdef inline void rename(int *t, int n) noexcept nogil:
    """Ranks and suits renamed in the order they first appear (rules.canonical)."""
    cdef int smap[4]
    cdef int rmap[13]
    cdef int ns = 0, nr = 0, i, s, r
    for i in range(4):
        smap[i] = -1
    for i in range(13):
        rmap[i] = -1
    for i in range(n):
        s = SUIT[t[i]]
        r = RANK[t[i]]
        if smap[s] < 0:
            smap[s] = ns
            ns += 1
        if rmap[r] < 0:
            rmap[r] = nr
            nr += 1
        t[i] = smap[s] * 13 + rmap[r]


cdef inline bint split(const int *t, int n) noexcept nogil:
    """The tops fall into two groups or more sharing no rank or suit (rules.groups): the suits
    joined to the first top's suit through ranks they share are not all the suits present."""
    cdef int ranks_of[4]
    cdef int present = 0, suits, ranks, before, i, s
    if n < 2:
        return False
    for s in range(4):
        ranks_of[s] = 0
    for i in range(n):
        ranks_of[SUIT[t[i]]] |= 1 << RANK[t[i]]
        present |= 1 << SUIT[t[i]]
    suits = 1 << SUIT[t[0]]
    before = 0
    while suits != before:
        before = suits
        ranks = 0
        for s in range(4):
            if (suits >> s) & 1:
                ranks |= ranks_of[s]
        for s in range(4):
            if ranks_of[s] & ranks:
                suits |= 1 << s
    return suits != present


cdef extern from *:
    int __builtin_ctzll(unsigned long long) nogil
    int __builtin_clzll(unsigned long long) nogil


cdef inline uint64_t word_of(int a, int b) noexcept nogil:
    """The Move code of the pile topped by a moving onto the pile topped by b."""
    return ((<uint64_t>1) << a) | ((<uint64_t>1) << b) | (ONTO_LOW if a < b else ONTO_HIGH)


cdef inline uint64_t mix(uint64_t x) noexcept nogil:
    x ^= x >> 33
    x *= 0xff51afd7ed558ccdULL
    x ^= x >> 33
    x *= 0xc4ceb9fe1a85ec53ULL
    x ^= x >> 33
    return x


cdef int ordered(AccCtx *c, const int *t, int n, uint64_t *out) noexcept nogil:
    """The moves, those covering a top that shares rank or suit with fewer others than the
    moving top does first, with noise from the attempt's seed (docs/accordion.md, "Move
    order")."""
    cdef int deg[MAXN]
    cdef long long key[2 * MAXN]
    cdef int in_suit[5]
    cdef int in_rank[14]
    cdef int i, k = 0, step
    # A top's partners: the other tops of its suit and of its rank (no other top has both).
    memset(in_suit, 0, sizeof(in_suit))
    memset(in_rank, 0, sizeof(in_rank))
    for i in range(n):
        in_suit[SUIT[t[i]]] += 1
        in_rank[RANK[t[i]]] += 1
    for i in range(n):
        deg[i] = in_suit[SUIT[t[i]]] + in_rank[RANK[t[i]]] - 2
    for i in range(1, n):
        for step in range(3, 0, -2):
            if i >= step and match(t[i], t[i - step]):
                out[k] = word_of(t[i], t[i - step])
                key[k] = ((deg[i - step] - deg[i]) * 64
                          + <long long>(mix(c.seed ^ out[k]) >> 58) * 4)
                k += 1
    sort_moves(out, key, k)
    return k


cdef int acc_moves(void *ctx, const uint64_t *s, uint64_t *out) noexcept nogil:
    cdef AccCtx *c = <AccCtx *>ctx
    cdef int t[MAXN]
    cdef int n = unpack(s, c.words, t), i, k = 0
    if c.cut and split(t, n):
        return 0
    if c.order:
        return ordered(c, t, n, out)
    for i in range(1, n):
        if match(t[i], t[i - 1]):
            out[k] = word_of(t[i], t[i - 1])
            k += 1
        if i >= 3 and match(t[i], t[i - 3]):
            out[k] = word_of(t[i], t[i - 3])
            k += 1
    return k


cdef void acc_play(void *ctx, const uint64_t *s, uint64_t move, uint64_t *out) noexcept nogil:
    cdef AccCtx *c = <AccCtx *>ctx
    cdef int t[MAXN]
    cdef int n = unpack(s, c.words, t), i, a, b, lo, hi, ia = -1, ib = -1
    cdef uint64_t cards = move & CARD_BITS
    lo = __builtin_ctzll(cards)
    hi = 63 - __builtin_clzll(cards)
    if move & ONTO_LOW:
        a, b = lo, hi
    else:
        a, b = hi, lo
    for i in range(n):
        if t[i] == a:
            ia = i
        elif t[i] == b:
            ib = i
    t[ib] = a
    for i in range(ia, n - 1):
        t[i] = t[i + 1]
    n -= 1
    if c.canonical:
        rename(t, n)
    pack(t, n, c.words, out)


cdef int acc_won(void *ctx, const uint64_t *s) noexcept nogil:
    return ((s[0] >> 6) & 63) == EMPTY


def words_for(int n):
    """The words of a search from a row of n piles."""
    return n // 10 + 1


cdef void make_game(WideGame *g, AccCtx *c, int words, bint cut, bint canonical,
                    bint order) noexcept:
    c.words = words
    c.cut = cut
    c.canonical = canonical
    c.order = order
    wide_clear(g)
    g.ctx = c
    g.words = words
    g.moves = acc_moves
    g.play = acc_play
    g.won = acc_won
    g.max_moves = 2 * MAXN
    g.max_depth = MAXN + 1


#: Positions given from Python are checked (engine/contract.py).
CHECKS_POSITIONS = True


cdef object checked_tops(object position, object aux):
    """The row of tops of a position given from Python, refusing one that is none (ValueError):
    aux not 0, a field that is no card, no end, not packed as position_of packs it (63 in every
    slot past the last pile), more words than a search from 52 piles keeps (the wide engine's
    buffers hold a few), or a card on two piles (a move would look for the one it covers and
    find no place for it)."""
    if aux != 0:
        raise ValueError(f"a wide core's position is (int, 0), not {(position, aux)!r}")
    if isinstance(position, bool) or not isinstance(position, int) or position < 0:
        raise ValueError(f"a position is a nonnegative int, not {position!r}")
    if width(position) > words_for(MAXN):
        raise ValueError(f"not a row of tops: {width(position)} words, a row keeps at most "
                         f"{words_for(MAXN)}")
    tops = tops_of(position)
    if position != position_of(tops, width(position)):
        raise ValueError(f"not a row of tops: {position!r}")
    if len(set(tops)) != len(tops):
        raise ValueError(f"not a row of tops: a card on two piles in {position!r}")
    return tops


cdef int _root(dict spec, int *t) except -1:
    """The root row into t and its number of piles: spec["root"] (an int) or spec["tops"]."""
    root = spec.get("root")
    if root is not None:
        x, aux = root
        tops = checked_tops(x, aux)
    else:
        tops = spec["tops"]
    n = len(tops)
    if not 1 <= n <= MAXN:
        raise ValueError(f"a row has 1..{MAXN} piles, not {n}")
    for i in range(n):
        x = tops[i]
        if not 0 <= x < 52:
            raise ValueError(f"a row's tops are cards 0..51, not {list(tops)!r}")
        t[i] = x
    if len(set(tops)) != n:
        raise ValueError(f"a row's tops are distinct cards, not {list(tops)!r}")
    return n


#: The first attempt's budget of positions and its growth from one attempt to the next
#: (docs/accordion.md, "Move order and attempts"). Small steps: a won deal's search has a heavy
#: tail over the noise's seeds, so many short attempts find its win sooner than a few long ones,
#: and the table kept between attempts spares them the positions already searched.
FIRST_BUDGET = 100
GROWTH = 1.1


cdef void reseed(void *ctx, int attempt) noexcept nogil:
    (<AccCtx *>ctx).seed = mix(<uint64_t>attempt)


def solve(dict spec, str objective, limits, bint certificate):
    """The contract's entry point (solitaire_solver/engine/contract.py). spec: "tops" (the start
    row's top cards, left to right), optionally "root" (a position int, 0) and the rules' keys
    "cut", "canonical", "order" and "keep" (each True unless given; "keep" False drops the
    table between attempts, for the tests).

    With "order" and no certificate the search runs in attempts (the engine's wide_attempts:
    a move lowers the number of piles, so no line comes back to a position), each a depth-first
    search with the move order's noise seeded anew and a budget of positions growing by GROWTH,
    the positions searched to the end kept from one to the next: an attempt that wins or
    exhausts its tree decides (the order changes which positions are reached first, never which
    are reachable); one that spends its budget gives way to the next. The limits bound the
    attempts together."""
    cdef AccCtx c
    cdef WideGame g
    cdef int t[MAXN]
    cdef uint64_t root[8]
    cdef int n
    if objective != "decide":
        raise ValueError(f"accordion has no objective {objective!r}")
    n = _root(spec, t)
    order = bool(spec.get("order", True))
    make_game(&g, &c, words_for(n), spec.get("cut", True), spec.get("canonical", True), order)
    pack(t, n, c.words, root)
    if certificate or not order:
        return run_of(*wide_depth_first(&g, root, limits.max_states, limits.max_seconds,
                                        limits.memory_bytes, certificate))
    return run_of(*wide_attempts(&g, root, limits.max_states, limits.max_seconds,
                                 limits.memory_bytes, FIRST_BUDGET, GROWTH, reseed,
                                 spec.get("keep", True)))


def expand(dict spec, object position, object aux):
    """The contract's expand(): every legal move at a position and its real successor; the
    spec's keys "cut", "canonical", "order" (False unless given) list what the search does."""
    cdef AccCtx c
    cdef WideGame g
    tops = checked_tops(position, aux)
    make_game(&g, &c, max(words_for(len(tops)), width(position)), spec.get("cut", False),
              spec.get("canonical", False), spec.get("order", False))
    return wide_expand(&g, position)


def step(dict spec, object position, object aux):
    """The contract's step(): (won, expand(spec, position, aux)) in one call (every successor
    at the position's own width, as expand keeps it: one walk meets each row under one int)."""
    moves = expand(spec, position, aux)
    return ((position >> 6) & 63) == EMPTY, moves


cdef int _walk_game(WideGame *g, AccCtx *c, dict spec, object position, object aux,
                    uint64_t *root) except -1:
    """The game of random_win and playouts from a position: every legal move, its rows renamed
    and split rows left without moves unless spec["canonical"] / spec["cut"] is False. Both
    are exact for the random player (docs/difficulty.md): a renamed row has the same chance
    (its moves correspond one to one), a split row is lost (chance 0)."""
    cdef int t[MAXN]
    cdef int n = _root(dict(spec, root=(position, aux)), t)
    make_game(g, c, words_for(n), spec.get("cut", True), spec.get("canonical", True), False)
    pack(t, n, c.words, root)
    return 0


def random_win(dict spec, object position, object aux, long long budget, double max_seconds,
               size_t memory_bytes):
    """The contract's random_win(): the random player's exact chance (engine/_wide.pyx). Every
    move removes a pile: no cycles."""
    cdef AccCtx c
    cdef WideGame g
    cdef uint64_t root[8]
    _walk_game(&g, &c, spec, position, aux, root)
    return wide_random_win(&g, root, budget, max_seconds, memory_bytes)


def playouts(dict spec, object position, object aux, long long count, uint64_t seed,
             long long max_moves, double max_seconds=0.0):
    """The contract's playouts(): (wins, lines), how many random lines win, fewer lines
    where max_seconds > 0 runs out (engine/_wide.pyx)."""
    cdef AccCtx c
    cdef WideGame g
    cdef uint64_t root[8]
    _walk_game(&g, &c, spec, position, aux, root)
    return wide_playouts(&g, root, count, seed, max_moves, max_seconds)


def is_split(tops):
    """The "cut" rule at a row of tops (for tests)."""
    cdef int t[MAXN]
    cdef int i
    for i in range(len(tops)):
        t[i] = tops[i]
    return bool(split(t, len(tops)))


def canonical(tops):
    """The row renamed as the "canonical" rule renames it (for tests)."""
    cdef int t[MAXN]
    cdef int i, n = len(tops)
    for i in range(n):
        t[i] = tops[i]
    rename(t, n)
    return tuple(t[i] for i in range(n))


#: The tests' switches (tests/test_fuzz.py): the spec keys of this core's search modes.
SEARCH_MODES = ({}, {"cut": False, "canonical": False, "order": False}, {"cut": False},
                {"canonical": False}, {"order": False}, {"keep": False})
#: The spec keys that make expand() list the moves of the search (its cut and order, without the
#: renaming, so that its successors are the real ones), and that those are legal moves.
PRUNED_EXPAND = ({"cut": True, "order": True}, True)
