#include "wtable.h"

#include "slots.h"

#include <stdlib.h>
#include <string.h>

/* The window, the start, the floor and the small tables' limit are ttable.c's, for the same
 * reasons (see there). */
#define WT_WINDOW SLOTS_WINDOW
#define WT_TAIL SLOTS_TAIL
#define WT_START_SLOTS 64
#define WT_MIN_SLOTS 1024
#define WT_SMALL_SLOTS 4096
typedef char wt_tail_is_the_headers[WT_TAIL == WT_TAIL_SLOTS ? 1 : -1];

uint64_t wt_hash(const uint64_t *key, int words) {
    /* splitmix64's finaliser after each word: positions differ in few bits of few words */
    uint64_t h = 0x9E3779B97F4A7C15ULL * (uint64_t)words;
    for (int i = 0; i < words; i++) {
        h ^= key[i];
        h ^= h >> 30;
        h *= 0xBF58476D1CE4E5B9ULL;
        h ^= h >> 27;
        h *= 0x94D049BB133111EBULL;
        h ^= h >> 31;
    }
    return h;
}

static inline int wt_is_zero(const uint64_t *k, int words) {
    for (int i = 0; i < words; i++)
        if (k[i]) return 0;
    return 1;
}

static inline int wt_equal(const uint64_t *a, const uint64_t *b, int words) {
    for (int i = 0; i < words; i++)
        if (a[i] != b[i]) return 0;
    return 1;
}

static inline uint64_t wt_entry_hash(const uint64_t *entry, const void *words) {
    return wt_hash(entry, *(const int *)words);
}

int wt_init(wtable *t, int words, size_t budget_bytes, int weighted) {
    memset(t, 0, sizeof(*t));
    if (words < 1 || words > WT_MAX_WORDS) return -1;
    int ew = words + (weighted ? 1 : 0);
    size_t max = slots_max_homes(budget_bytes, (size_t)ew * sizeof(uint64_t), WT_MIN_SLOTS);
    size_t n = max < WT_START_SLOTS ? max : WT_START_SLOTS;
    t->slots = (uint64_t *)calloc((n + WT_TAIL) * (size_t)ew, sizeof(uint64_t));
    if (t->slots == NULL) return -1;
    t->words = words;
    t->entry_words = ew;
    t->homes = n;
    t->room = n + WT_TAIL;
    t->max_slots = max;
    return 0;
}

void wt_free(wtable *t) {
    free(t->slots);
    t->slots = NULL;
}

size_t wt_capacity(const wtable *t) { return t->homes; }

size_t wt_bytes(const wtable *t) {
    return (t->homes + WT_TAIL) * (size_t)t->entry_words * sizeof(uint64_t);
}

size_t wt_max_bytes(const wtable *t) {
    return (t->max_slots + WT_TAIL) * (size_t)t->entry_words * sizeof(uint64_t);
}

/* Grow as tt_grow does (ttable.c gives the reasons). */
static void wt_grow(wtable *t) {
    int w = t->words;
    slots_table g = {t->slots, t->homes, t->room, t->max_slots};
    size_t lost = slots_grow(&g, (size_t)t->entry_words, WT_SMALL_SLOTS, wt_entry_hash, &w);
    t->slots = g.slots;
    t->homes = g.homes;
    t->room = g.room;
    t->max_slots = g.max_homes;
    t->used -= lost;
    t->replaced += lost;
    t->moves++;
}

/* The slot holding the key, or NULL. */
static uint64_t *wt_find(const wtable *t, const uint64_t *key) {
    int w = t->words, ew = t->entry_words;
    size_t home = slots_home(wt_hash(key, w), t->homes);
    for (size_t i = 0; i < WT_WINDOW; i++) {
        uint64_t *s = t->slots + (home + i) * (size_t)ew;
        if (wt_is_zero(s, w)) return NULL;
        if (wt_equal(s, key, w)) return s;
    }
    return NULL;
}

int wt_visit(wtable *t, const uint64_t *key) {
    int w = t->words, ew = t->entry_words;
    t->probes++;
    t->last = NULL;
    if (wt_is_zero(key, w)) {
        if (t->has_zero) {
            t->hits++;
            return 1;
        }
        t->has_zero = 1;
        t->used++;
        t->inserts++;
        return 0;
    }
    for (;;) {
        size_t home = slots_home(wt_hash(key, w), t->homes);
        uint64_t *lightest = t->slots + home * (size_t)ew;
        for (size_t i = 0; i < WT_WINDOW; i++) {
            uint64_t *s = t->slots + (home + i) * (size_t)ew;
            if (wt_is_zero(s, w)) {
                memcpy(s, key, (size_t)w * sizeof(uint64_t));
                t->used++;
                t->inserts++;
                if (t->used * 2 > t->homes && t->homes < t->max_slots) {
                    wt_grow(t);
                    s = wt_find(t, key); /* NULL when the growth lost it */
                }
                if (ew > w && s != NULL) t->last = s + w;
                return 0;
            }
            if (wt_equal(s, key, w)) {
                t->hits++;
                if (ew > w) t->last = s + w;
                return 1;
            }
            if (ew > w && s[w] < lightest[w]) lightest = s;
        }
        if (t->homes < t->max_slots) {
            wt_grow(t);
            continue;
        }
        /* At the budget: forget a key (the search only re-explores it), the lightest of the
         * window when weighted, else the home slot's. */
        memcpy(lightest, key, (size_t)w * sizeof(uint64_t));
        if (ew > w) {
            lightest[w] = 0;
            t->last = lightest + w;
        }
        t->replaced++;
        return 0;
    }
}

void wt_weigh(wtable *t, const uint64_t *key, uint64_t weight, uint64_t *seen, uint64_t moves) {
    int w = t->words;
    if (t->entry_words == w || wt_is_zero(key, w)) return;
    uint64_t *s = seen != NULL && moves == t->moves ? seen - w : NULL;
    if (s == NULL || !wt_equal(s, key, w)) s = wt_find(t, key);
    if (s != NULL) s[w] = weight;
}

int wt_contains(const wtable *t, const uint64_t *key) {
    if (wt_is_zero(key, t->words)) return t->has_zero;
    return wt_find(t, key) != NULL;
}

void wt_remove(wtable *t, const uint64_t *key) {
    int w = t->words, ew = t->entry_words;
    t->last = NULL;
    if (wt_is_zero(key, w)) {
        if (t->has_zero) {
            t->has_zero = 0;
            t->used--;
        }
        return;
    }
    uint64_t *found = wt_find(t, key);
    if (found == NULL) return;
    t->moves++;
    size_t at = (size_t)(found - t->slots) / (size_t)ew;
    memset(found, 0, (size_t)ew * sizeof(uint64_t));
    t->used--;
    /* A lookup stops at the first empty slot: a key further on in the run may have passed the
     * slot just emptied. Each is taken out and placed again (with its weight); its own slot is
     * empty then and in its window, so it lands there or earlier and no key is lost. */
    uint64_t moved[WT_MAX_WORDS + 1];
    for (size_t j = at + 1; j < t->homes + WT_TAIL; j++) {
        uint64_t *s = t->slots + j * (size_t)ew;
        if (wt_is_zero(s, w)) break;
        memcpy(moved, s, (size_t)ew * sizeof(uint64_t));
        memset(s, 0, (size_t)ew * sizeof(uint64_t));
        slots_place(t->slots, (size_t)ew, t->homes, moved, wt_entry_hash, &w);
    }
}
