/* What ttable and wtable share: where a key's home is, how large a table may grow under a
 * budget, and how a table grows in place.
 *
 * Both tables are open addressing with a window of SLOTS_WINDOW slots from a key's home and a
 * tail of SLOTS_TAIL slots past the last home (a window never wraps). An entry of all-zero bytes
 * is an empty slot; an entry is `words` 64-bit words.
 *
 * Homes: a key's home in a table of n homes is the high word of hash * n (multiply-shift), so
 * n need not be a power of two and a table can take the whole of its budget: under a budget
 * between two powers of two, a table of the lower power left up to half of it unused (a
 * Baroness search at the default 256 MiB had 2^23 slots, 128 MiB, of its 204 MiB share;
 * docs/baroness.md, "The table's size"). The home is monotone in the hash, which is what lets
 * a table grow in place by any factor up to 2 (slots_regrow). */
#ifndef SS_SLOTS_H
#define SS_SLOTS_H

#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define SLOTS_WINDOW 32
#define SLOTS_TAIL (SLOTS_WINDOW - 1)

static inline size_t slots_home(uint64_t hash, size_t homes) {
#if defined(__SIZEOF_INT128__)
    return (size_t)(((unsigned __int128)hash * homes) >> 64);
#else
    /* the high word of a 64 x 64-bit product, from 32-bit halves */
    uint64_t a = hash >> 32, b = hash & 0xFFFFFFFFu, c = (uint64_t)homes >> 32,
             d = (uint64_t)homes & 0xFFFFFFFFu;
    uint64_t bd = b * d, ad = a * d, bc = b * c;
    uint64_t mid = (bd >> 32) + (ad & 0xFFFFFFFFu) + (bc & 0xFFFFFFFFu);
    return (size_t)(a * c + (ad >> 32) + (bc >> 32) + (mid >> 32));
#endif
}

/* The most homes a table of entry_bytes entries may have under budget_bytes with its tail
 * (at least floor_homes). Past the largest power of two that fits, the last step must add at
 * least a 32nd (slots_regrow's set-aside buffer is bounded by that). */
size_t slots_max_homes(size_t budget_bytes, size_t entry_bytes, size_t floor_homes);

/* The size a table of `homes` homes grows to under max_homes: double, or max_homes when that is
 * nearer; `homes` itself when the step would add less than a 32nd (the table is then full). */
size_t slots_next(size_t homes, size_t max_homes);

typedef uint64_t (*slots_hash_fn)(const uint64_t *entry, const void *ctx);

/* Zeroed room for *room homes and the tail (entries of `words` words), huge pages advised; where
 * that cannot be had, less, down to n homes (*room tells how much). NULL when not even n. */
uint64_t *slots_alloc(size_t *room, size_t n, size_t words);

/* What a table's growth reads and updates: its array, its homes, the slots allocated (room:
 * the table's, its tail's and room to grow into) and the most homes its budget allows. */
typedef struct {
    uint64_t *slots;
    size_t homes, room, max_homes;
} slots_table;

/* slots_place and slots_regrow are inlined into each table with its entry size and hash, which
 * the compiler then specialises: they run for every key at every growth. */
#if defined(__GNUC__)
#define SLOTS_INLINE static inline __attribute__((always_inline))
#else
#define SLOTS_INLINE static inline
#endif

SLOTS_INLINE int slots_empty(const uint64_t *e, size_t words) {
    for (size_t i = 0; i < words; i++)
        if (e[i]) return 0;
    return 1;
}

/* Place an entry of `words` words in a table of `homes` homes: the first empty slot of its
 * window, else over its home slot. Returns 1 when another entry was overwritten. */
SLOTS_INLINE int slots_place(uint64_t *slots, size_t words, size_t homes, const uint64_t *entry,
                             slots_hash_fn hash, const void *ctx) {
    size_t home = slots_home(hash(entry, ctx), homes);
    for (size_t i = 0; i < SLOTS_WINDOW; i++) {
        uint64_t *s = slots + (home + i) * words;
        if (slots_empty(s, words)) {
            memcpy(s, entry, words * sizeof(uint64_t));
            return 0;
        }
    }
    memcpy(slots + home * words, entry, words * sizeof(uint64_t));
    return 1;
}

/* Grow a table of `from` homes into `to` homes (from < to <= 2 * from, to - from >= from / 32)
 * where it lies: the array must hold to + SLOTS_TAIL slots, those past from + SLOTS_TAIL empty.
 * Returns the entries lost to full windows, or (size_t)-1 (the table untouched) when the small
 * set-aside buffer cannot be allocated.
 *
 * Each entry is taken out and placed again, from the last slot down. Let an entry sit in slot
 * i, within the window of its old home h (h <= i <= h + 31). Its new home is
 * floor(x * to / 2^64) >= floor(h * to / from) for its hash x, so it is at least i as soon as
 * (i - 31) * (to - from) >= 31 * from. Such an entry lands at or above i, where every slot holds
 * an entry already placed for good or is empty: its window is final. The few entries whose new
 * home may lie below their slot, all in the first 32 + 31 * from / (to - from) slots, are set
 * aside and placed last, when every other entry is final. */
SLOTS_INLINE size_t slots_regrow(uint64_t *slots, size_t words, size_t from, size_t to,
                                 slots_hash_fn hash, const void *ctx) {
    size_t cap = 32 + (31 * from + (to - from) - 1) / (to - from), aside = 0, lost = 0;
    uint64_t *buffer = (uint64_t *)malloc((cap + 1) * words * sizeof(uint64_t));
    if (buffer == NULL) return (size_t)-1;
    uint64_t *e = buffer + cap * words; /* the entry in hand */
    for (size_t i = from + SLOTS_TAIL; i-- > 0;) {
        uint64_t *s = slots + i * words;
        if (slots_empty(s, words)) continue;
        memcpy(e, s, words * sizeof(uint64_t));
        memset(s, 0, words * sizeof(uint64_t));
        if (slots_home(hash(e, ctx), to) < i && aside < cap) {
            memcpy(buffer + aside++ * words, e, words * sizeof(uint64_t));
            continue;
        }
        lost += (size_t)slots_place(slots, words, to, e, hash, ctx);
    }
    for (size_t k = 0; k < aside; k++)
        lost += (size_t)slots_place(slots, words, to, buffer + k * words, hash, ctx);
    free(buffer);
    return lost;
}

/* Grow a table to slots_next's size: in place when its room has space (slots_regrow), else into
 * a new array, of the size itself for a table of up to small_homes homes (small tables grow as
 * arrays do), else of room for the largest table its budget allows, which later growths fill in
 * place. calloc's large blocks are fresh pages that the system maps when first written, so the
 * room costs memory only as the table fills it, and no growth past small_homes holds an old
 * table beside the new one: the table stays within its budget. When memory cannot be had the
 * table stays as it is (max_homes becomes its size; the search goes on, replacing). Returns the
 * entries lost to full windows while placing. */
SLOTS_INLINE size_t slots_grow(slots_table *t, size_t words, size_t small_homes,
                               slots_hash_fn hash, const void *ctx) {
    size_t n = slots_next(t->homes, t->max_homes), lost = 0;
    if (n == t->homes) {
        t->max_homes = n;
        return 0;
    }
    if (n + SLOTS_TAIL <= t->room) {
        lost = slots_regrow(t->slots, words, t->homes, n, hash, ctx);
        if (lost == (size_t)-1) {
            t->max_homes = t->homes;
            return 0;
        }
    } else {
        size_t room = n > small_homes ? t->max_homes : n;
        uint64_t *grown = slots_alloc(&room, n, words);
        if (grown == NULL) {
            t->max_homes = t->homes;
            return 0;
        }
        if (room > n) t->max_homes = room;
        for (size_t i = 0; i < t->room; i++)
            if (!slots_empty(t->slots + i * words, words))
                lost += (size_t)slots_place(grown, words, n, t->slots + i * words, hash, ctx);
        free(t->slots);
        t->slots = grown;
        t->room = room + SLOTS_TAIL;
    }
    t->homes = n;
    return lost;
}

#endif
