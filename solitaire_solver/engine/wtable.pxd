# Declarations of csrc/wtable.h (the bounded table of wide keys).
from libc.stdint cimport uint64_t


cdef extern from "wtable.h" nogil:
    enum: WT_MAX_WORDS
    enum: WT_TAIL_SLOTS
    uint64_t WT_BUSY
    ctypedef struct wtable:
        uint64_t *slots
        uint64_t *last
        int words
        int entry_words
        int has_zero
        size_t homes
        size_t max_slots
        size_t used
        uint64_t probes
        uint64_t hits
        uint64_t inserts
        uint64_t replaced
        uint64_t moves
    int wt_init(wtable *t, int words, size_t budget_bytes, int weighted)
    void wt_free(wtable *t)
    int wt_visit(wtable *t, const uint64_t *key)
    void wt_weigh(wtable *t, const uint64_t *key, uint64_t weight, uint64_t *seen,
                  uint64_t moves)
    int wt_contains(const wtable *t, const uint64_t *key)
    void wt_remove(wtable *t, const uint64_t *key)
    size_t wt_capacity(const wtable *t)
    size_t wt_bytes(const wtable *t)
    size_t wt_max_bytes(const wtable *t)
    uint64_t wt_hash(const uint64_t *key, int words)
