/* Card bitboards: a 64-bit mask over card indexes (suit * 13 + value - 1; AC = 0, KS = 51). */
#ifndef SS_BITBOARD_H
#define SS_BITBOARD_H

#include <stdint.h>

typedef uint64_t bb_t;

#define BB_FULL_PACK ((bb_t)0xFFFFFFFFFFFFFULL) /* bits 0..51 */

static inline int bb_count(bb_t b) { return __builtin_popcountll(b); }

/* Index of the lowest set bit; b must not be 0. */
static inline int bb_lowest(bb_t b) { return __builtin_ctzll(b); }

static inline bb_t bb_pop_lowest(bb_t b) { return b & (b - 1); }

static inline bb_t bb_bit(int i) { return (bb_t)1 << i; }

/* The four cards of one value (1..13), one per suit. */
static inline bb_t bb_rank(int value) {
    bb_t one = bb_bit(value - 1);
    return one | (one << 13) | (one << 26) | (one << 39);
}

/* The thirteen cards of one suit (0 = clubs .. 3 = spades). */
static inline bb_t bb_suit(int suit) { return (bb_t)0x1FFF << (13 * suit); }

static inline int bb_value_of(int index) { return index % 13 + 1; }

/* Append to out[n..] every two-card removal of one card of a and one of b (a, b disjoint);
 * returns the new count. */
static inline int bb_pairs_across(bb_t a, bb_t b, uint64_t *out, int n) {
    for (; a; a = bb_pop_lowest(a))
        for (bb_t bb = b; bb; bb = bb_pop_lowest(bb)) out[n++] = (a & -a) | (bb & -bb);
    return n;
}

/* Append to out[n..] every two-card removal of two cards of a; returns the new count. */
static inline int bb_pairs_within(bb_t a, uint64_t *out, int n) {
    for (; a; a = bb_pop_lowest(a))
        for (bb_t rest = bb_pop_lowest(a); rest; rest = bb_pop_lowest(rest))
            out[n++] = (a & -a) | (rest & -rest);
    return n;
}

#endif
