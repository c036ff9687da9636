# cython: language_level=3
"""Seeded deals made in C: csrc/pyrandom.c re-implements random.Random(seed).shuffle of the pack
(docs/surveys.md). One deal for any integer seed, or a run of 64-bit seeds made the way the
surveys' batch path (_slots.decide_seeds) makes them; tests/test_survey.py checks both against
Python's shuffle.
"""

from libc.stdint cimport uint8_t, uint32_t

from solitaire_solver.engine.pyrandom cimport ss_mt, ss_mt_seed_words, ss_mt_shuffle, ss_seeded_deals_i64


def seeded_deal(object seed):
    """The seeded deal (random.Random(seed).shuffle of the pack) made by the C generator (any
    integer seed)."""
    cdef uint8_t pack[52]
    cdef ss_mt r
    cdef int i
    cdef object a = abs(int(seed))
    cdef uint32_t word
    cdef uint32_t[::1] key
    if a <= 0xFFFFFFFF:
        # One key word, as random.seed makes of a seed below 2^32: the common case, on the stack.
        word = a
        ss_mt_seed_words(&r, &word, 1)
    else:
        words = []
        while a:
            words.append(a & 0xFFFFFFFF)
            a >>= 32
        key = array_u32(words)
        ss_mt_seed_words(&r, &key[0], len(words))
    for i in range(52):
        pack[i] = <uint8_t>i
    ss_mt_shuffle(&r, pack, 52)
    return [pack[i] for i in range(52)]


def array_u32(words):
    import array
    return array.array("I", words)


def seeded_deals(long long start, Py_ssize_t count) -> bytes:
    """The seeded deals start .. start+count-1 as the batch path makes them (52 bytes each)."""
    if count < 0 or (count and start > 0 and start + (count - 1) < start):
        raise ValueError("seeded_deals: bad range")
    out = bytearray(52 * count)
    cdef uint8_t[::1] buf = out
    if count:
        with nogil:
            ss_seeded_deals_i64(start, <size_t>count, &buf[0])
    return bytes(out)


# The value - 1 (rank) and the suit of each ASCII letter or digit of a card name, -1 for none.
cdef signed char RANK_OF[256]
cdef signed char SUIT_OF[256]
for _i in range(256):
    RANK_OF[_i] = SUIT_OF[_i] = -1
for _i, _ch in enumerate("A23456789TJQK"):
    RANK_OF[ord(_ch)] = RANK_OF[ord(_ch.lower())] = _i
for _i, _ch in enumerate("CDHS"):
    SUIT_OF[ord(_ch)] = SUIT_OF[ord(_ch.lower())] = _i


cdef inline bint parts(unsigned char ch) noexcept:
    return ch == 32 or ch == 44 or ch == 9 or ch == 10 or ch == 13   # space , tab LF CR


cpdef object parse_plain(str text):
    """The card indexes of a pack written in the plain two-character names (`AS`, `td`, either
    case; cards.CARD_NAMES: index = 13 * suit + value - 1), parted by spaces or commas, each of
    the 52 cards once; None for anything else, which deal.py then reads (or refuses, saying
    why). solve() parses a deal on every call: in Python the split and the lookups were most of
    a cold call's reading time."""
    cdef bytes raw
    try:
        raw = text.encode("ascii")
    except UnicodeEncodeError:
        return None
    cdef const unsigned char *p = raw
    cdef Py_ssize_t i = 0, n = len(raw)
    cdef int r, s, k = 0, card
    cdef uint8_t seen[52]
    cdef uint8_t out[52]
    for i in range(52):
        seen[i] = 0
    i = 0
    while True:
        while i < n and parts(p[i]):
            i += 1
        if i >= n:
            break
        if k == 52 or i + 1 >= n:
            return None
        r = RANK_OF[p[i]]
        s = SUIT_OF[p[i + 1]]
        if r < 0 or s < 0 or (i + 2 < n and not parts(p[i + 2])):
            return None
        i += 2
        card = 13 * s + r
        if seen[card]:
            return None
        seen[card] = 1
        out[k] = <uint8_t>card
        k += 1
    if k != 52:
        return None
    return tuple([out[i] for i in range(52)])
