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


# A deal's 52 card indexes in pack order, checked (each of the pack once) and copied to out:
# the cores' one reading of spec["cards"]. ValueError otherwise.
cdef inline int read_pack(object cards, int *out) except -1:
    cdef int j, c
    cdef bb_t seen = 0
    if len(cards) != 52:
        raise ValueError("a deal has 52 cards")
    for j in range(52):
        x = cards[j]  # compared as a Python object first: a huge int is an error, not an overflow
        if not 0 <= x < 52 or (seen >> <int>x) & 1:
            raise ValueError("a deal holds each of the 52 cards once")
        c = x
        seen |= (<bb_t>1) << c
        out[j] = c
    return 0
