# Declarations of csrc/ttable.h (the bounded transposition table).
from libc.stdint cimport uint64_t


cdef extern from "ttable.h" nogil:
    enum: TT_TAIL_SLOTS
    ctypedef struct tt_entry:
        uint64_t k0
        uint64_t k1
    ctypedef struct ttable:
        tt_entry *slots
        size_t homes
        size_t max_slots
        size_t used
        uint64_t probes
        uint64_t hits
        uint64_t inserts
        uint64_t replaced
        uint64_t improved
        int label_bits
    int tt_init(ttable *t, size_t budget_bytes)
    void tt_free(ttable *t)
    void tt_clear(ttable *t)
    int tt_visit(ttable *t, uint64_t k0, uint64_t k1)
    void tt_prefetch(const ttable *t, uint64_t k0, uint64_t k1)
    int tt_contains(const ttable *t, uint64_t k0, uint64_t k1)
    size_t tt_capacity(const ttable *t)
