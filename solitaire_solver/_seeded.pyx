# cython: language_level=3
"""Seeded deals made in C: csrc/pyrandom.c re-implements random.Random(seed).shuffle of the pack
(docs/surveys.md). One deal for any integer seed, or a run of 64-bit seeds made the way the
surveys' batch path (_slots.decide_seeds) makes them; tests/test_survey.py checks both against
Python's shuffle.
"""

from libc.stdint cimport uint8_t, uint32_t

from solitaire_solver.pyrandom cimport ss_mt, ss_mt_seed_words, ss_mt_shuffle, ss_seeded_deals_i64


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
