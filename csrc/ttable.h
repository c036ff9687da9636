/* A bounded transposition table: open addressing over a fixed memory budget.
 *
 * The table stores 128-bit keys (a removed-cards bitboard plus a word of game counters). It starts
 * small, so that the many tiny searches of a survey stay cheap, and doubles when it is half full
 * (or, rarely, a key's probe window of 32 slots fills), up to the budget, whose last step may be
 * less than a doubling (csrc/slots.h). Past the budget it does not grow: when the probe window
 * of a key is full, the entry at the key's home slot is replaced, so a search that outgrows the
 * budget keeps running and only re-explores some positions. Its memory stays within the budget
 * (as many slots as fit with the window's tail, at least 1024 slots): tables of up to 64 KiB
 * double into a new array, so the old one is freed only after it (at most 64 KiB more), larger
 * ones grow in place. */
#ifndef SS_TTABLE_H
#define SS_TTABLE_H

#include <stddef.h>
#include <stdint.h>

/* Slots a table holds past its last home, for the windows that start there: a table of n
 * homes holds n + TT_TAIL_SLOTS slots. */
#define TT_TAIL_SLOTS 31

typedef struct {
    uint64_t k0, k1; /* k0 == 0 && k1 == 0 marks an empty slot; keys are stored with k1 | TT_USED */
} tt_entry;

typedef struct {
    tt_entry *slots;
    size_t homes;        /* the slots a key's home may be (any number: csrc/slots.h) */
    size_t max_slots;    /* the budget, in homes: the table grows up to it, never beyond */
    size_t room;         /* slots allocated: the table's, its tail's and room to double into */
    size_t used;         /* occupied slots */
    uint64_t probes;     /* lookups */
    uint64_t hits;       /* lookups that found the key */
    uint64_t inserts;    /* keys stored in an empty slot */
    uint64_t replaced;   /* keys stored over another key */
    uint64_t improved;   /* stored labels lowered (label_bits > 0) */
    int label_bits;      /* the low label_bits of k1 are a label, not part of the key (0: none) */
} ttable;

/* A table of at most budget_bytes (but room for 1024 slots under any budget, while memory can be
 * had: a table that cannot grow stays as it is and replaces keys), starting with 64 slots.
 * Returns 0, or -1 when out of memory. */
int tt_init(ttable *t, size_t budget_bytes);
void tt_free(ttable *t);
void tt_clear(ttable *t);

/* Look the key up; store it when absent. Returns 1 when it was already there, else 0.
 * With label_bits > 0 the low label_bits of k1 are a label (a lower one dominates) and the rest
 * of k1 with k0 is the key: it returns 1 when the key is stored with a label as low or lower,
 * else stores this label and returns 0. */
int tt_visit(ttable *t, uint64_t k0, uint64_t k1);

/* Asks the processor to fetch the key's home slot, for a visit soon after. */
void tt_prefetch(const ttable *t, uint64_t k0, uint64_t k1);

/* 1 when the key is stored (with a label as low or lower), without storing it. */
int tt_contains(const ttable *t, uint64_t k0, uint64_t k1);

size_t tt_capacity(const ttable *t);

#endif
