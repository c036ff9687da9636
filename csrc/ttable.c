#include "ttable.h"

#include "slots.h"

#include <stdlib.h>
#include <string.h>

/* Bit 63 of k1 marks a used slot, so an all-zero key (the start of most games) is storable.
 * Games keep their counters below bit 63. */
#define TT_USED ((uint64_t)1 << 63)
/* A key lives in the first empty slot of the TT_WINDOW slots from its home. With a window of 8,
 * some window filled up when a table of 2^24 slots was only 10% full (linear probing clusters),
 * and every full window below the budget doubled the table: tables grew to 8..16 times the slots
 * their keys needed, reached the budget early and then replaced keys. With 32 the first full
 * window comes near 45% full, so growth follows the load (half full) as intended; a lookup still
 * stops at the first empty slot, which at that load is a slot or two away. */
#define TT_WINDOW SLOTS_WINDOW
#define TT_TAIL SLOTS_TAIL
typedef char tt_tail_is_the_headers[TT_TAIL == TT_TAIL_SLOTS ? 1 : -1];

static inline uint64_t tt_hash(uint64_t k0, uint64_t k1) {
    /* splitmix64 finaliser over both words: removed-card sets differ in few bits */
    uint64_t h = k0 ^ (k1 * 0x9E3779B97F4A7C15ULL);
    h ^= h >> 30;
    h *= 0xBF58476D1CE4E5B9ULL;
    h ^= h >> 27;
    h *= 0x94D049BB133111EBULL;
    h ^= h >> 31;
    return h;
}

/* A table starts with 64 slots (1 KiB), not its floor of 1024: a Pyramid decide call's search
 * often keeps some 30 positions, and zeroing 16 KiB it never uses fills the cache of a call
 * that starts with cold caches (docs/notes/benchmarks-history.md). Doubling from 64 costs
 * a larger search four extra rehashes of a small table. */
#define TT_START_SLOTS 64
#define TT_MIN_SLOTS 1024

static inline uint64_t tt_label_mask(const ttable *t) {
    return t->label_bits ? (((uint64_t)1 << t->label_bits) - 1) : 0;
}

/* Tables up to this many slots (64 KiB) grow as small arrays do, into a new array; the first
 * growth past it allocates room for the largest table the budget allows at once, and the table
 * then grows inside that room (slots_grow). A growth never holds an old table beside the new
 * one, where doubling into a new array held one and a half times the budget at its last
 * doubling. Moving into new arrays while old and new fit the budget was tried: the heap keeps
 * the smaller tables a search has left (their sizes never fit the next), which passed the budget
 * by a third after A*'s tables had gone to the heap (DEEPEN, at 16 MiB). */
#define TT_SMALL_SLOTS 4096

/* An entry as slots.h sees it: two words, k0 and k1. */
typedef char tt_entry_is_two_words[sizeof(tt_entry) == 2 * sizeof(uint64_t) ? 1 : -1];
#define TT_WORDS 2

static inline uint64_t tt_entry_hash(const uint64_t *e, const void *lmask) {
    return tt_hash(e[0], e[1] & ~TT_USED & ~*(const uint64_t *)lmask);
}

int tt_init(ttable *t, size_t budget_bytes) {
    size_t max = slots_max_homes(budget_bytes, sizeof(tt_entry), TT_MIN_SLOTS);
    size_t n = max < TT_START_SLOTS ? max : TT_START_SLOTS;
    memset(t, 0, sizeof(*t));
    t->slots = (tt_entry *)calloc(n + TT_TAIL, sizeof(tt_entry));
    if (t->slots == NULL) return -1;
    t->homes = n;
    t->room = n + TT_TAIL;
    t->max_slots = max;
    return 0;
}

static void tt_grow(ttable *t) {
    uint64_t lmask = tt_label_mask(t);
    slots_table g = {(uint64_t *)t->slots, t->homes, t->room, t->max_slots};
    size_t lost = slots_grow(&g, TT_WORDS, TT_SMALL_SLOTS, tt_entry_hash, &lmask);
    t->slots = (tt_entry *)g.slots;
    t->homes = g.homes;
    t->room = g.room;
    t->max_slots = g.max_homes;
    t->used -= lost;
    t->replaced += lost; /* a key overwritten while rehashing is forgotten like any other */
}

void tt_free(ttable *t) {
    free(t->slots);
    t->slots = NULL;
}

void tt_clear(ttable *t) {
    memset(t->slots, 0, (t->homes + TT_TAIL) * sizeof(tt_entry));
    t->used = 0;
    t->probes = t->hits = t->inserts = t->replaced = t->improved = 0;
}

size_t tt_capacity(const ttable *t) { return t->homes; }

int tt_visit(ttable *t, uint64_t k0, uint64_t k1) {
    uint64_t tag = k1 | TT_USED;
    uint64_t lmask = tt_label_mask(t);
    t->probes++;
    for (;;) {
        size_t home = slots_home(tt_hash(k0, k1 & ~lmask), t->homes);
        for (size_t i = 0; i < TT_WINDOW; i++) {
            tt_entry *e = &t->slots[home + i];
            if (e->k1 == 0) {
                e->k0 = k0;
                e->k1 = tag;
                t->used++;
                t->inserts++;
                if (t->used * 2 > t->homes && t->homes < t->max_slots) tt_grow(t);
                return 0;
            }
            if (e->k0 == k0 && ((e->k1 ^ tag) & ~lmask) == 0) {
                if ((tag & lmask) < (e->k1 & lmask)) {
                    e->k1 = tag;
                    t->improved++;
                    return 0;
                }
                t->hits++;
                return 1;
            }
        }
        if (t->homes < t->max_slots) {
            tt_grow(t); /* a full window while the budget allows more room: make room */
            continue;
        }
        /* At the budget: forget the key at the home slot; the search stays correct, it may
         * only explore that position again. */
        t->slots[home].k0 = k0;
        t->slots[home].k1 = tag;
        t->replaced++;
        return 0;
    }
}

void tt_prefetch(const ttable *t, uint64_t k0, uint64_t k1) {
    size_t home = slots_home(tt_hash(k0, k1 & ~tt_label_mask(t)), t->homes);
    __builtin_prefetch(&t->slots[home], 1, 3);
}

int tt_contains(const ttable *t, uint64_t k0, uint64_t k1) {
    uint64_t tag = k1 | TT_USED;
    uint64_t lmask = tt_label_mask(t);
    size_t home = slots_home(tt_hash(k0, k1 & ~lmask), t->homes);
    for (size_t i = 0; i < TT_WINDOW; i++) {
        const tt_entry *e = &t->slots[home + i];
        if (e->k1 == 0) return 0;
        if (e->k0 == k0 && ((e->k1 ^ tag) & ~lmask) == 0) return (e->k1 & lmask) <= (tag & lmask);
    }
    return 0;
}
