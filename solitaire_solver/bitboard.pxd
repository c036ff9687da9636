# Declarations of csrc/bitboard.h (card bitboards), for every module that cimports them.
from libc.stdint cimport uint64_t


cdef extern from "bitboard.h" nogil:
    ctypedef uint64_t bb_t
    bb_t BB_FULL_PACK
    int bb_count(bb_t b)
    int bb_lowest(bb_t b)
    bb_t bb_pop_lowest(bb_t b)
    bb_t bb_bit(int i)
    bb_t bb_rank(int value)
    bb_t bb_suit(int suit)
    int bb_value_of(int index)
    int bb_pairs_across(bb_t a, bb_t b, uint64_t *out, int n)
    int bb_pairs_within(bb_t a, uint64_t *out, int n)
