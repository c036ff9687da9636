# Declarations of csrc/pyrandom.h (Python's random.Random in C, for seeded deals).
from libc.stdint cimport int64_t, uint8_t, uint32_t


cdef extern from "pyrandom.h" nogil:
    enum: SS_MT_N
    ctypedef struct ss_mt:
        uint32_t mt[624]
        int index
        int fresh
    void ss_mt_seed_words(ss_mt *r, const uint32_t *key, size_t keylen)
    void ss_mt_seed_i64(ss_mt *r, int64_t seed)
    uint32_t ss_mt_next(ss_mt *r)
    uint32_t ss_mt_randbelow(ss_mt *r, uint32_t n)
    void ss_mt_shuffle(ss_mt *r, uint8_t *pack, int n)
    void ss_seeded_deal_i64(int64_t seed, uint8_t *out)
    void ss_seeded_deals_i64(int64_t start, size_t count, uint8_t *out)
