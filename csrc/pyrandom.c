/* Python's random.Random in C: see pyrandom.h. The MT19937 code follows CPython's
 * Modules/_randommodule.c (itself Matsumoto and Nishimura's reference code). */
#include "pyrandom.h"

#include <string.h>

#define N SS_MT_N
#define M 397
#define MATRIX_A 0x9908b0dfu
#define UPPER_MASK 0x80000000u
#define LOWER_MASK 0x7fffffffu

/* init_genrand(19650218), the state init_by_array() starts from whatever the key: computed once
 * (by the loop mt[i] = 1812433253 * (mt[i-1] ^ (mt[i-1] >> 30)) + i) and stored, because it is
 * the same for every seed. tests/test_survey.py would catch a wrong entry: every seed's
 * shuffle is compared with Python's. */
static const uint32_t GENRAND_19650218[N] = {
    0x012bd6aau, 0x82d2ab13u, 0x342096b7u, 0x54846536u, 0x2ae75db7u, 0x826fe838u,
    0x2b03a8e8u, 0x6c2dcb8fu, 0xa8e24d0eu, 0xe7d7d1c5u, 0x3bd2b928u, 0x4f5174d3u,
    0xac6578e6u, 0xcff6b601u, 0xe5cae0d8u, 0xc55ce976u, 0x54cab839u, 0x9a18a629u,
    0xabd39209u, 0xa5ed816au, 0xfaccb61cu, 0x8f137150u, 0x8b8e9770u, 0x9a6bc211u,
    0xe9e4bc97u, 0x48359a7du, 0xb6364f06u, 0xccd250afu, 0x20d9dff8u, 0x4e9914f5u,
    0x7147d862u, 0xd2da5a2eu, 0x7da2a8e1u, 0xbbac8081u, 0x2369ced1u, 0x6c237198u,
    0x48f5b281u, 0x26f5eca5u, 0x0f2daa3fu, 0xa8d8e202u, 0xdc832a28u, 0x7c7da620u,
    0xd261342fu, 0x02792187u, 0xab6c796fu, 0xfcc23d2eu, 0x539a37efu, 0x73486f15u,
    0xb8918714u, 0xac4f11dfu, 0x04cc5163u, 0x39df1742u, 0xb3447f3eu, 0x2cc14ee1u,
    0x2fa187fbu, 0xd85cf93eu, 0xaabafa49u, 0xe7c3e2d0u, 0x7c706879u, 0xbb896f93u,
    0xc2e49d71u, 0xa2922037u, 0x94561227u, 0xb0adf5d8u, 0x7e29a942u, 0xf6d9a2b0u,
    0xd2d3fbe1u, 0xda9c526du, 0x90cb63aau, 0x922b398du, 0xb3c43cb1u, 0x1dccbde6u,
    0x8cb10206u, 0xfa05efddu, 0x08c770e0u, 0xc83768abu, 0x61763294u, 0xf2c6b216u,
    0xd8447f97u, 0xe85889b3u, 0x106d82c0u, 0xa96d5611u, 0xb9b820d1u, 0xb8fade92u,
    0x1204df24u, 0x01524d89u, 0x7bb5e863u, 0xdacf2101u, 0xeb701822u, 0x750a2e5eu,
    0xf86e22d5u, 0x2ff244c9u, 0x3ee3b4a9u, 0xe823b80au, 0x87d36cebu, 0x0211a94cu,
    0xf5a5775cu, 0xcec2efdcu, 0x885ffa5du, 0x17739edeu, 0x20b47bfau, 0x5963b407u,
    0x13d73cc4u, 0x5ccbddbbu, 0x3e2d04cau, 0xf8d8fe1bu, 0x603f17e2u, 0x27e1e7fau,
    0x711b500eu, 0xc2079d58u, 0x51b3c855u, 0x5c6efd93u, 0x647b2d0au, 0x6f00a8c8u,
    0x8f1528bfu, 0x9f513804u, 0x623050d2u, 0xd215ceb4u, 0x693b7da9u, 0xaa4f7bbfu,
    0xd8bef709u, 0xaed1d16bu, 0x47b7cfe7u, 0x61111c39u, 0xd9621a94u, 0xb2104d10u,
    0xad2b0a98u, 0x9cdd9941u, 0xef4752efu, 0x66f8039du, 0x430be90eu, 0x86d4fa6eu,
    0x94fe9920u, 0x90539cefu, 0xf672bf07u, 0x8c9a811bu, 0x3bba5065u, 0x144ac562u,
    0xc2cf5234u, 0x424bdf3eu, 0x7120cb67u, 0xc693d5cbu, 0xae336076u, 0xcc0f2253u,
    0x4b855a20u, 0x8bbf3896u, 0x73c486f6u, 0xbd846f06u, 0x5dc4f128u, 0x47e116c2u,
    0xb4515685u, 0xfd1662dau, 0x14aa2135u, 0x77577782u, 0x6d0c4249u, 0xc546af03u,
    0x718a0b9cu, 0x38f89a8eu, 0xa6acf8a4u, 0x27d8f01du, 0x9de14111u, 0xa136d820u,
    0x353b780cu, 0x2c08c95fu, 0xa8d44a1fu, 0x7a35c316u, 0x063e47b9u, 0xcd034da4u,
    0x3a6d028bu, 0x192b6480u, 0xe667272au, 0x78c664d8u, 0x202ceb49u, 0xf6a1e57au,
    0x43fc4a6bu, 0x97421681u, 0xecb3fd5fu, 0x731d31fdu, 0xb828951eu, 0x4392d0bfu,
    0x17d409aau, 0xdb79cac7u, 0xffebe40au, 0x3d58c944u, 0xe898cc8cu, 0x75aa3c24u,
    0xc75c8853u, 0xa6a4984bu, 0xca6e2689u, 0x15db0f2fu, 0x18d62549u, 0x376fc78cu,
    0x35b7a6fcu, 0x5ab5be2du, 0xcfad941eu, 0x1c89f534u, 0xbb129248u, 0xf6a351f7u,
    0xe2f6ea0au, 0xe0e82754u, 0xc006151bu, 0xb7582b41u, 0xf7c4ed39u, 0x183ba2adu,
    0xe850c40du, 0x252ad853u, 0x85f0c48du, 0x6517143au, 0xad8b8f17u, 0xed34b11au,
    0x2c3f40afu, 0xe75b2cdeu, 0x8805f905u, 0x9fd0ff98u, 0xdb744298u, 0x02c03afeu,
    0xba5b350eu, 0xd8b35a95u, 0x3c570408u, 0xdbb4e003u, 0x9a3c60dcu, 0x77bb0673u,
    0x985a8dd8u, 0x6a99a1e1u, 0x335dbe40u, 0xa28c5021u, 0x2d3359b1u, 0x70191cb8u,
    0x7f5656e1u, 0x51ae2745u, 0x2f94e2bau, 0x1e28fe49u, 0x964064b5u, 0xb24eac1cu,
    0xcff7f6c0u, 0xc337b6dau, 0x61c44589u, 0xe25d3795u, 0xfea0351cu, 0xb97b8d2au,
    0x086119b8u, 0x991a9e89u, 0xa025f0c9u, 0xb661a40au, 0x1186001cu, 0x70b10801u,
    0x6b2028f6u, 0xcc5d596au, 0x538c7865u, 0x9d95046du, 0xde3327c5u, 0xa8e1a819u,
    0x60bac6a3u, 0xe46b10e7u, 0x1083aef2u, 0xdd318879u, 0xf9ea2322u, 0xc8138606u,
    0x288f8dfbu, 0x997b580au, 0x57fe042cu, 0xc0aebbc6u, 0xc5cf82bfu, 0xfaf93133u,
    0xf7f318f8u, 0x7e242f10u, 0x96edabbfu, 0x2ad7e79cu, 0x9764dd98u, 0xbc98d8cfu,
    0x9dee3eefu, 0x8326a990u, 0xa9fe09aau, 0x27fcb859u, 0x9bcb5d2fu, 0xd453d8d4u,
    0x46009ce7u, 0x447efdd3u, 0x84ad86f0u, 0xfe4bc091u, 0xb9ef1cb2u, 0x5a808289u,
    0x6c4648c2u, 0x9600110au, 0x0e5c0144u, 0x9fd5e4f1u, 0x4d8e5ffdu, 0xba6dbb8bu,
    0x33664f2du, 0x2df752e2u, 0x1a1ca64cu, 0x3e60491fu, 0x36f7715fu, 0x48e492a0u,
    0x030d03abu, 0x68c5f69eu, 0x196e64e3u, 0xa2c049b8u, 0x9967a18cu, 0x4e39bc31u,
    0x27ccf01cu, 0xc11db839u, 0x99e6ba10u, 0xe0190c49u, 0x5f7b7462u, 0xafb2e740u,
    0x3a25903cu, 0x4ca604dfu, 0xe02cbacau, 0x491a4382u, 0x0212bee5u, 0xadd0de90u,
    0x0881f2d2u, 0x21f53013u, 0xf0fb23b9u, 0xeb49a39du, 0x5def1c92u, 0xd1a5f23cu,
    0xb8d54b19u, 0x831515e6u, 0xc944a834u, 0xf39ccdf4u, 0xdcd772b5u, 0x585da911u,
    0x5bdd4494u, 0x6412cd0eu, 0x7a90ef31u, 0xb57f0f37u, 0x60b75e31u, 0x1d0fda39u,
    0xf6989ac7u, 0xe063f49fu, 0x859afed8u, 0x987f374fu, 0x3de407afu, 0x7cdcb05au,
    0x93ef4837u, 0xc07edb3au, 0xdfecffcfu, 0x3bf918cfu, 0xf93691ffu, 0xd48b75c1u,
    0x8d5848e0u, 0x5903b481u, 0x098eb7d8u, 0x4c992191u, 0xd6504f2au, 0xfe2b2d88u,
    0x45355c33u, 0x79c22317u, 0x2bf89f0cu, 0xcf882d1bu, 0x1c83a3d8u, 0x4d863d99u,
    0x3c14a65au, 0x45a1cce5u, 0xd9b7db58u, 0xad6a3f4cu, 0xe9edb92cu, 0x672d37f2u,
    0xf36d1f47u, 0xfaa4bb3du, 0x51e40ee0u, 0xaf174930u, 0xa2b9a426u, 0x391107a1u,
    0xc2342cf3u, 0x05322c1fu, 0x2f4100abu, 0x96adc7e8u, 0xa1f21ac4u, 0xb8428791u,
    0x05d22973u, 0x6a3de6d4u, 0x36c7107fu, 0x2bd67a92u, 0x05347f12u, 0x3734c593u,
    0x70929f79u, 0xdd7823d3u, 0x6640728cu, 0x7295a81eu, 0xf8dcecb9u, 0x5aeef0e1u,
    0xd54ce9e0u, 0x79b7c310u, 0xde5b1037u, 0xd7053a07u, 0xe7380918u, 0xd9b80c2cu,
    0x8d6af711u, 0xcef1a706u, 0xa4db9381u, 0xd9274f38u, 0xc485d6d1u, 0xa0822465u,
    0x6ba47d2fu, 0x532502b3u, 0xc6e953c8u, 0x4672b3a6u, 0x8af64173u, 0x12444c26u,
    0xdebc6290u, 0x67189092u, 0xca14b693u, 0x8dcf1865u, 0xe594c139u, 0xefae4779u,
    0x40587ebau, 0x19d91460u, 0x6d2c6b7au, 0xac683c22u, 0xf22cda3cu, 0x1836d378u,
    0x4d14a7f6u, 0x42ca7512u, 0xea0c5d1fu, 0x5078b9adu, 0xfeb24e7eu, 0xc9c4ddf4u,
    0x3b35c317u, 0x2b3e48b8u, 0x01852a3eu, 0x2cd6da1du, 0xde489419u, 0x8e9a59ebu,
    0x9e622b97u, 0x1320f074u, 0xafd8f370u, 0x3afe0fa7u, 0x1e2d8d91u, 0x53b274e4u,
    0x5439ad09u, 0x33928dd9u, 0x33aa194fu, 0x6ed044deu, 0x231f84afu, 0x2e3a01c0u,
    0x54127276u, 0x5fc9d9aau, 0xe7cc652fu, 0x29fc7815u, 0xd1719f03u, 0xc8eabcbbu,
    0xaca2ee54u, 0x1a2e0fabu, 0x8c3bb335u, 0x60f72572u, 0x0eb1531fu, 0x0b4a63fcu,
    0x4fbf502eu, 0xddaccb4eu, 0xf9136c25u, 0xa69402c3u, 0x6d2560ebu, 0x6f027819u,
    0x86e63b40u, 0xe559b4d3u, 0x2fd7a7dau, 0xd7dee4cdu, 0x9d048512u, 0xc16e111du,
    0x5767d0a4u, 0x5b209fe8u, 0x14d1c9bdu, 0xbbe5be62u, 0xc9257db2u, 0x87e551a8u,
    0x49d333e6u, 0x066b1af8u, 0x36785daeu, 0xdf61157du, 0xd43fea8eu, 0xd798007au,
    0x7687f297u, 0x6e8efd09u, 0x6f0b1e04u, 0xb09686d6u, 0x5956a782u, 0x776a338eu,
    0xaf66e04bu, 0x2f9c8faeu, 0xe76acf88u, 0xc70246bau, 0xb6cde9e1u, 0x7a9cc374u,
    0xf8a5bc0fu, 0xff599ea3u, 0x8a9f3708u, 0x9e8b12dbu, 0x09e39287u, 0xa5e4102eu,
    0x80d5ef48u, 0x147c041fu, 0xa3fb3929u, 0xd7e292e6u, 0x0d438349u, 0xbfe3debeu,
    0x0e3d7e1eu, 0xa192d1c9u, 0xb1bf6a0bu, 0x4282a882u, 0x094f98a5u, 0x0d9a8810u,
    0x89384048u, 0x379ef92bu, 0xf93d52f1u, 0x83333d75u, 0x115cf0efu, 0x0123f748u,
    0xd57e1966u, 0x041a13d8u, 0x3dd06e38u, 0x91bf7619u, 0x957b0da9u, 0x5789e97au,
    0x9db8f28bu, 0xa1820312u, 0x215ec756u, 0x9e6bacf5u, 0x0ecc6e7bu, 0x27246b90u,
    0x9fde81dau, 0xd32dd443u, 0xa56aff4cu, 0x68f979d3u, 0xd95c73e8u, 0x8aef80c6u,
    0x31c2b364u, 0xeb8d4c85u, 0x2c5ce8f0u, 0xd7e058c3u, 0xa841c5d4u, 0x45ac9583u,
    0xc7a79060u, 0x2815f426u, 0x455bab16u, 0xcd5ad12cu, 0x2b0fb0a5u, 0xd33c0034u,
    0xa84a86cfu, 0x7325e5feu, 0x940236b9u, 0xf746ace6u, 0xb7abc579u, 0xadd0bea8u,
    0x380a3534u, 0xf6ebd3a7u, 0x98c945d8u, 0xdec03b27u, 0x8f799b5au, 0x0e8463dfu,
    0x62c6c023u, 0xee2a0193u, 0x3c58affau, 0x8d0039cdu, 0xa8af97d7u, 0x885ae636u,
    0xac7aa8b2u, 0x8d7abf9fu, 0xfb43a021u, 0x0b4e619bu, 0x77657759u, 0xcb4e2febu,
    0x3cd410bcu, 0x41c33861u, 0x75d0a016u, 0x359c7a4au, 0x7433db6au, 0xbcced670u,
    0x237b9f34u, 0x7264a5bfu, 0xae9a1432u, 0x24e7a92du, 0x2529d5ffu, 0x7affe6dau,
    0x2d7e49a7u, 0xffce7024u, 0xeb8820a5u, 0xb2b7b9c1u, 0x2d3aa733u, 0x52034464u,
    0x95a70b1fu, 0xf9a4e9b8u, 0x07424c0fu, 0xc0450b34u, 0x50beddfdu, 0x61fd72b7u,
    0x365baa1au, 0x1ee8088fu, 0xee08e9b9u, 0x8aaec2b1u, 0x14099defu, 0x32d9389cu,
    0xab42d3deu, 0xefc2541fu, 0xb3722d60u, 0x7c035bffu, 0x65803b8cu, 0xc850f5f8u,
    0xf971615fu, 0x9059a7a5u, 0xf7a8863du, 0xb90626d1u, 0x5df93e9bu, 0x240c1f1fu,
    0xa348e099u, 0xf4309286u, 0x7335fdd9u, 0x6a0dc099u, 0x97a6565au, 0x553d2b1bu,
    0x82e8eda6u, 0xfc8e8819u, 0x9bc79ea8u, 0x58509579u, 0xae1032c0u, 0x92dbdaf3u,
    0x417f5c7fu, 0xaf30ee21u, 0x94b3b13bu, 0xb94b6eeau, 0x6174ebf6u, 0xad2949e2u,
};

void ss_mt_seed_words(ss_mt *r, const uint32_t *key, size_t keylen) {
    uint32_t *mt = r->mt;
    uint32_t prev;
    size_t i = 1, j = 0, k;
    memcpy(mt, GENRAND_19650218, sizeof(GENRAND_19650218));
    /* prev carries mt[i - 1] in a register: the loops are one long chain of dependent steps, and
     * reading it back from memory would add a store-to-load delay to every step. */
    prev = mt[0];
    for (k = (N > keylen ? N : keylen); k; k--) {
        prev = (mt[i] ^ ((prev ^ (prev >> 30)) * 1664525u)) + key[j] + (uint32_t)j;
        mt[i] = prev;
        i++;
        j++;
        if (i >= N) {
            mt[0] = prev;
            i = 1;
        }
        if (j >= keylen) j = 0;
    }
    for (k = N - 1; k; k--) {
        prev = (mt[i] ^ ((prev ^ (prev >> 30)) * 1566083941u)) - (uint32_t)i;
        mt[i] = prev;
        i++;
        if (i >= N) {
            mt[0] = prev;
            i = 1;
        }
    }
    mt[0] = 0x80000000u; /* MSB is 1, assuring a non-zero initial array */
    r->index = 0;
    r->fresh = 1;
}

void ss_mt_seed_i64(ss_mt *r, int64_t seed) {
    /* abs() through unsigned arithmetic, so INT64_MIN works too. */
    uint64_t a = seed < 0 ? (uint64_t)0 - (uint64_t)seed : (uint64_t)seed;
    uint32_t key[2] = {(uint32_t)a, (uint32_t)(a >> 32)};
    ss_mt_seed_words(r, key, key[1] ? 2 : 1);
}

static void twist(uint32_t *mt) {
    static const uint32_t mag01[2] = {0u, MATRIX_A};
    uint32_t y;
    int kk;
    for (kk = 0; kk < N - M; kk++) {
        y = (mt[kk] & UPPER_MASK) | (mt[kk + 1] & LOWER_MASK);
        mt[kk] = mt[kk + M] ^ (y >> 1) ^ mag01[y & 1u];
    }
    for (; kk < N - 1; kk++) {
        y = (mt[kk] & UPPER_MASK) | (mt[kk + 1] & LOWER_MASK);
        mt[kk] = mt[kk + (M - N)] ^ (y >> 1) ^ mag01[y & 1u];
    }
    y = (mt[N - 1] & UPPER_MASK) | (mt[0] & LOWER_MASK);
    mt[N - 1] = mt[M - 1] ^ (y >> 1) ^ mag01[y & 1u];
}

static inline uint32_t temper(uint32_t y) {
    y ^= (y >> 11);
    y ^= (y << 7) & 0x9d2c5680u;
    y ^= (y << 15) & 0xefc60000u;
    y ^= (y >> 18);
    return y;
}

uint32_t ss_mt_next(ss_mt *r) {
    uint32_t y;
    int i = r->index;
    if (r->fresh) {
        /* CPython twists the whole state before its first output. Output i < N - M of that twist
         * reads only entries i, i + 1 and i + M, which the twist has not yet rewritten, so it can
         * be computed on its own from the seeded state; a shuffle of 52 cards rarely needs more
         * than a hundred outputs, so the full twist (a third of the work) is mostly skipped. */
        if (i < N - M) {
            const uint32_t *mt = r->mt;
            y = (mt[i] & UPPER_MASK) | (mt[i + 1] & LOWER_MASK);
            y = mt[i + M] ^ (y >> 1) ^ ((y & 1u) ? MATRIX_A : 0u);
            r->index = i + 1;
            return temper(y);
        }
        twist(r->mt);  /* the state is still the seeded one: twist it as CPython did */
        r->fresh = 0;
    } else if (i >= N) {
        twist(r->mt);
        i = 0;
    }
    y = r->mt[i];
    r->index = i + 1;
    return temper(y);
}

uint32_t ss_mt_randbelow(ss_mt *r, uint32_t n) {
    /* getrandbits(k) with k = n.bit_length() <= 32 is the top k bits of one output. */
    int k = 32 - __builtin_clz(n);
    uint32_t v;
    do {
        v = ss_mt_next(r) >> (32 - k);
    } while (v >= n);
    return v;
}

void ss_mt_shuffle(ss_mt *r, uint8_t *pack, int n) {
    int i;
    uint32_t j;
    uint8_t t;
    for (i = n - 1; i > 0; i--) {
        j = ss_mt_randbelow(r, (uint32_t)i + 1u);
        t = pack[i];
        pack[i] = pack[j];
        pack[j] = t;
    }
}

void ss_seeded_deal_i64(int64_t seed, uint8_t out[52]) {
    ss_mt r;
    int i;
    ss_mt_seed_i64(&r, seed);
    for (i = 0; i < 52; i++) out[i] = (uint8_t)i;
    ss_mt_shuffle(&r, out, 52);
}

/* ---- Many seeds at once ---------------------------------------------------------------------
 * Seeding is two chains of 1247 dependent steps; one seed at a time the processor waits on each
 * step. Here LANES seeds advance together in vector registers (GCC/Clang vector extensions), in
 * GROUPS independent vectors so that their steps overlap. The first K_OUT outputs of each seed
 * are then computed together as well (see ss_mt_next on why no full twist is needed), and each
 * seed's shuffle reads them; a shuffle that needs more (rare) continues with a scalar generator
 * holding that seed's state. */
#if defined(__GNUC__) && (defined(__x86_64__) || defined(__aarch64__))
#define SS_VECTOR 1
#define LANES 8
#define GROUPS 4
#define BLOCK (LANES * GROUPS)
#define K_OUT 112

typedef uint32_t vu32 __attribute__((vector_size(4 * LANES)));

typedef struct {
    vu32 mt[N][GROUPS];
    vu32 out[K_OUT][GROUPS];
} seed_block;

#if defined(__x86_64__) && defined(__linux__) && !defined(__clang__)
/* An AVX2 copy chosen at run time where the processor has it (8 lanes per instruction). */
__attribute__((target_clones("avx2", "default")))
#endif
static void block_seed(seed_block *b, const uint32_t *add_even, const uint32_t *add_odd) {
    vu32 prev[GROUPS], ae[GROUPS], ao[GROUPS], y;
    int i, g, l;
    for (g = 0; g < GROUPS; g++) {
        for (l = 0; l < LANES; l++) {
            ae[g][l] = add_even[g * LANES + l];
            ao[g][l] = add_odd[g * LANES + l];
        }
        prev[g] = (vu32){0} + GENRAND_19650218[0];
    }
    /* init_by_array, first loop: step s (j = s mod keylen) writes mt[s + 1], then wraps. */
    for (i = 1; i < N; i++)
        for (g = 0; g < GROUPS; g++) {
            prev[g] = (((vu32){0} + GENRAND_19650218[i]) ^ ((prev[g] ^ (prev[g] >> 30)) * 1664525u))
                      + ((i - 1) & 1 ? ao[g] : ae[g]);
            b->mt[i][g] = prev[g];
        }
    for (g = 0; g < GROUPS; g++) {
        b->mt[0][g] = prev[g];
        prev[g] = (b->mt[1][g] ^ ((prev[g] ^ (prev[g] >> 30)) * 1664525u)) + ao[g]; /* s = 623 */
        b->mt[1][g] = prev[g];
    }
    /* Second loop: mt[2..623], wrap, mt[1]. */
    for (i = 2; i < N; i++)
        for (g = 0; g < GROUPS; g++) {
            prev[g] = (b->mt[i][g] ^ ((prev[g] ^ (prev[g] >> 30)) * 1566083941u)) - (uint32_t)i;
            b->mt[i][g] = prev[g];
        }
    for (g = 0; g < GROUPS; g++) {
        b->mt[0][g] = prev[g];
        prev[g] = (b->mt[1][g] ^ ((prev[g] ^ (prev[g] >> 30)) * 1566083941u)) - 1u;
        b->mt[1][g] = prev[g];
        b->mt[0][g] = (vu32){0} + 0x80000000u;
    }
    /* The first K_OUT outputs of the first twist, tempered. */
    for (i = 0; i < K_OUT; i++)
        for (g = 0; g < GROUPS; g++) {
            y = (b->mt[i][g] & UPPER_MASK) | (b->mt[i + 1][g] & LOWER_MASK);
            y = b->mt[i + M][g] ^ (y >> 1) ^ (((vu32){0} - (y & 1u)) & MATRIX_A);
            y ^= (y >> 11);
            y ^= (y << 7) & 0x9d2c5680u;
            y ^= (y << 15) & 0xefc60000u;
            y ^= (y >> 18);
            b->out[i][g] = y;
        }
}

/* The shuffles of one block. One seed's draws form a chain: which output step i reads depends
 * on how many outputs earlier steps rejected. Done as "draw until accepted, then swap", the
 * processor mispredicts the rejection branch and waits on the swaps' loads and stores. So the
 * shuffle is split in two passes:
 * 1. Walk each seed's outputs in order, WAYS seeds side by side, without branches: output o is
 *    the draw for the current step i; it is accepted when its top k bits are below n = i + 1,
 *    that is when o < n << (32 - k) (NORM[i]), and then i moves down. The output is written to
 *    jl[i] either way: the step's rejected draws come before its accepted one, so the last write
 *    to jl[i] is the accepted one. Nothing in this pass reads memory it writes.
 * 2. Play the swaps pack[i] <-> pack[j] for i = 51 down to 1, j = jl[i] >> (32 - k).
 * A seed that would read past the K_OUT outputs computed (rare) stops at its current step and
 * finishes with a scalar generator holding its state. */
#define WAYS 8
#define NM(n) , (uint32_t)(n) << __builtin_clz(n)
#define SH(n) , (uint8_t)__builtin_clz(n)
/* Index i is the step that shuffles pack[0..i]: n = i + 1. Step 0 does not exist: NORM[0] = 0
 * accepts nothing, so a finished seed stays at i = 0 while its neighbours go on. */
static const uint32_t NORM[52] = {0 NM(2) NM(3) NM(4) NM(5) NM(6) NM(7) NM(8) NM(9) NM(10) NM(11)
    NM(12) NM(13) NM(14) NM(15) NM(16) NM(17) NM(18) NM(19) NM(20) NM(21) NM(22) NM(23) NM(24)
    NM(25) NM(26) NM(27) NM(28) NM(29) NM(30) NM(31) NM(32) NM(33) NM(34) NM(35) NM(36) NM(37)
    NM(38) NM(39) NM(40) NM(41) NM(42) NM(43) NM(44) NM(45) NM(46) NM(47) NM(48) NM(49) NM(50)
    NM(51) NM(52)};
/* getrandbits(k) is the output shifted right by 32 - k = clz(n). */
static const uint8_t SHIFT[52] = {31 SH(2) SH(3) SH(4) SH(5) SH(6) SH(7) SH(8) SH(9) SH(10) SH(11)
    SH(12) SH(13) SH(14) SH(15) SH(16) SH(17) SH(18) SH(19) SH(20) SH(21) SH(22) SH(23) SH(24)
    SH(25) SH(26) SH(27) SH(28) SH(29) SH(30) SH(31) SH(32) SH(33) SH(34) SH(35) SH(36) SH(37)
    SH(38) SH(39) SH(40) SH(41) SH(42) SH(43) SH(44) SH(45) SH(46) SH(47) SH(48) SH(49) SH(50)
    SH(51) SH(52)};
#undef NM
#undef SH

static void shuffle_finish(seed_block *b, int lane, uint8_t *pack, int from, int p) {
    const int g = lane / LANES, l = lane % LANES;
    int i, k, idx;
    uint32_t n, v;
    uint8_t t;
    ss_mt r;
    for (idx = 0; idx < N; idx++) r.mt[idx] = b->mt[idx][g][l];
    r.index = p;
    r.fresh = 1;
    for (i = from; i > 0; i--) {
        n = (uint32_t)i + 1u;
        k = 32 - __builtin_clz(n);
        do {
            v = (r.index < K_OUT ? b->out[r.index++][g][l] : ss_mt_next(&r)) >> (32 - k);
        } while (v >= n);
        t = pack[i];
        pack[i] = pack[v];
        pack[v] = t;
    }
}

static void block_shuffle(seed_block *b, uint8_t *packs) {
    enum { STRIDE = GROUPS * LANES }; /* uint32 words from one output of a seed to its next */
    int lane0, w, t, c, live;
    uint32_t i[WAYS], o, ii, j;
    const uint32_t *base[WAYS];
    uint32_t jl[WAYS][52]; /* whole outputs: the shift to a draw is left to pass 2 */
    uint8_t *pack, x;
    for (lane0 = 0; lane0 < BLOCK; lane0 += WAYS) {
        for (w = 0; w < WAYS; w++) {
            base[w] = (const uint32_t *)&b->out[0][(lane0 + w) / LANES] + (lane0 + w) % LANES;
            i[w] = 51;
        }
        for (t = 0; t < K_OUT; t++) {
            live = 0;
#pragma GCC unroll 8
            for (w = 0; w < WAYS; w++) {
                o = base[w][(size_t)t * STRIDE];
                ii = i[w];
                jl[w][ii] = o;
                i[w] = ii - (o < NORM[ii]);
                live |= (int)i[w];
            }
            if (!live) break;
        }
        for (w = 0; w < WAYS; w++) {
            pack = packs + (lane0 + w) * 52;
            for (c = 0; c < 52; c++) pack[c] = (uint8_t)c;
            for (c = 51; c > (int)i[w]; c--) {
                j = jl[w][c] >> SHIFT[c];
                x = pack[c];
                pack[c] = pack[j];
                pack[j] = x;
            }
            if (i[w]) shuffle_finish(b, lane0 + w, pack, (int)i[w], K_OUT);
        }
    }
}
#endif

void ss_seeded_deals_i64(int64_t start, size_t count, uint8_t *out) {
    size_t done = 0;
#ifdef SS_VECTOR
    seed_block block; /* 94 KB on the stack: vector types get their alignment there */
    seed_block *blk = &block;
    uint32_t add_even[BLOCK], add_odd[BLOCK];
    int l;
    for (; count - done >= BLOCK; done += BLOCK) {
        for (l = 0; l < BLOCK; l++) {
            /* The seed as its words: a 32-bit abs value is one word (j stays 0), a larger one
             * two words (j alternates 0, 1: key[1] + 1 on odd steps). */
            int64_t s = (int64_t)((uint64_t)start + done + (uint64_t)l);
            uint64_t a = s < 0 ? (uint64_t)0 - (uint64_t)s : (uint64_t)s;
            add_even[l] = (uint32_t)a;
            add_odd[l] = (a >> 32) ? (uint32_t)(a >> 32) + 1u : (uint32_t)a;
        }
        block_seed(blk, add_even, add_odd);
        block_shuffle(blk, out + done * 52);
    }
#endif
    for (; done < count; done++)
        ss_seeded_deal_i64((int64_t)((uint64_t)start + done), out + done * 52);
}
