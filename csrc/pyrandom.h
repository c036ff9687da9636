/* Python's random.Random, re-implemented in C for seeded deals (docs/notation.md, "Deals").
 *
 * A seeded deal is the pack 0..51 shuffled by random.Random(seed).shuffle. CPython's generator is
 * MT19937 seeded by init_by_array() with the 32-bit words of abs(seed), least significant first;
 * shuffle() draws j = _randbelow(i + 1) for i = 51 down to 1, and _randbelow(n) takes
 * getrandbits(n.bit_length()) (the top k bits of one 32-bit output) until the value is below n.
 * The surveys use this to make millions of deals without calling Python per deal;
 * tests/test_survey.py checks it against Python on many seeds (0, negative, huge).
 */
#ifndef SS_PYRANDOM_H
#define SS_PYRANDOM_H

#include <stddef.h>
#include <stdint.h>

#define SS_MT_N 624

typedef struct {
    uint32_t mt[SS_MT_N];
    int index;   /* next output; SS_MT_N means a twist is due */
    int fresh;   /* 1 while the state is the seeded, never-twisted one (see ss_mt_next) */
} ss_mt;

/* random.Random().seed(n) for the integer n whose abs value has these 32-bit words (least
 * significant first; keylen >= 1; zero is one word 0). */
void ss_mt_seed_words(ss_mt *r, const uint32_t *key, size_t keylen);

/* random.Random(seed) for a seed that fits in 64 bits (signed). */
void ss_mt_seed_i64(ss_mt *r, int64_t seed);

/* The next 32-bit output (random.getrandbits(32)). */
uint32_t ss_mt_next(ss_mt *r);

/* random._randbelow(n) for 1 <= n < 2**32. */
uint32_t ss_mt_randbelow(ss_mt *r, uint32_t n);

/* random.shuffle of pack[0..n-1] (n <= 2**32). */
void ss_mt_shuffle(ss_mt *r, uint8_t *pack, int n);

/* The seeded deal of docs/notation.md: 0..51 shuffled by random.Random(seed).shuffle. */
void ss_seeded_deal_i64(int64_t seed, uint8_t out[52]);

/* The seeded deals of start, start + 1, ..., count of them (52 bytes each), many seeds at once:
 * the same deals, made with vector instructions where they are available. */
void ss_seeded_deals_i64(int64_t start, size_t count, uint8_t *out);

#endif
