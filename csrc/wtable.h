/* A bounded table of wide keys: positions of `words` 64-bit words (1..WT_MAX_WORDS), for games
 * whose position does not fit ttable's two words (docs/architecture.md, "Wide positions").
 *
 * Same policy as ttable.h: open addressing with a window of WT_WINDOW slots, starts small and
 * doubles when half full (or a window fills), up to the budget; past the budget a key whose
 * window is full replaces the entry at its home slot, so a search that outgrows the budget keeps
 * running and only re-explores. Keys are stored whole and compared whole: a lookup answers 1
 * only for a key that was stored (never for another key of the same hash). The all-zero key,
 * which marks an empty slot, is kept in a flag of its own. Memory: as many slots as fit the
 * budget with the window's tail (at least WT_MIN_SLOTS); past WT_SMALL_SLOTS the table takes the
 * room of its largest size once and grows in place, as ttable does.
 *
 * A weighted table keeps a word beside each key: the work its search cost (wt_weigh), and at the
 * budget a full window gives up its lightest key, not its home slot's: a key that stood for a
 * large finished subtree saves that subtree each time it is met again, a light one little. The
 * price is a word per slot. */
#ifndef SS_WTABLE_H
#define SS_WTABLE_H

#include <stddef.h>
#include <stdint.h>

#define WT_MAX_WORDS 8
#define WT_TAIL_SLOTS 31

/* The weight of a key whose search is under way: never given up before a finished one. */
#define WT_BUSY UINT64_MAX

typedef struct {
    uint64_t *slots;     /* (homes + WT_TAIL_SLOTS) entries of `entry_words` words: the key's
                            `words` (all zero: an empty slot), then its weight when weighted */
    uint64_t *last;      /* the weight word of the key last visited, or NULL (unweighted, the
                            zero key); valid until the next call that stores or removes a key */
    int words;
    int entry_words;     /* words, and one more when weighted */
    int has_zero;        /* the all-zero key is stored */
    size_t homes;        /* the slots a key's home may be (any number: csrc/slots.h) */
    size_t max_slots;    /* the budget, in slots */
    size_t room;         /* slots allocated (homes, tail and room to double into) */
    size_t used;         /* keys stored */
    uint64_t probes;     /* lookups */
    uint64_t hits;       /* lookups that found the key */
    uint64_t inserts;    /* keys stored in an empty slot */
    uint64_t replaced;   /* keys stored over another key (forgotten) */
    uint64_t moves;      /* growths and removals so far: a slot's address known from before
                            the last of them may hold another key or none now */
} wtable;

/* A table of keys of `words` words within budget_bytes (room for WT_MIN_SLOTS under any budget),
 * weighted or not. Returns 0, or -1 when out of memory or words is out of range. */
int wt_init(wtable *t, int words, size_t budget_bytes, int weighted);
void wt_free(wtable *t);

/* Look the key up; store it when absent (weight 0). Returns 1 when it was there, else 0. */
int wt_visit(wtable *t, const uint64_t *key);

/* Set the weight of a stored key (nothing when it is not stored or the table is unweighted).
 * `seen` may be where the key was last seen (t->last, taken while t->moves was `moves`): when
 * nothing has moved since and the key is still there, no lookup is made. */
void wt_weigh(wtable *t, const uint64_t *key, uint64_t weight, uint64_t *seen, uint64_t moves);

/* 1 when the key is stored, without storing it. */
int wt_contains(const wtable *t, const uint64_t *key);

/* Forget the key (nothing when it is not stored). The keys stored after it in its run of
 * occupied slots are placed again, so every lookup still finds what the table holds. */
void wt_remove(wtable *t, const uint64_t *key);

size_t wt_capacity(const wtable *t);
/* The bytes of the table's slots (its capacity and tail; the room it may double into is
 * counted as it is used). */
size_t wt_bytes(const wtable *t);
/* The bytes the table may reach under its budget. */
size_t wt_max_bytes(const wtable *t);

uint64_t wt_hash(const uint64_t *key, int words);

#endif
