#if defined(__linux__)
#define _DEFAULT_SOURCE /* madvise under -std=c99 */
#include <sys/mman.h>
#endif

#include "slots.h"

size_t slots_max_homes(size_t budget_bytes, size_t entry_bytes, size_t floor_homes) {
    size_t fit = budget_bytes / entry_bytes;
    fit = fit > SLOTS_TAIL ? fit - SLOTS_TAIL : 0;
    if (fit <= floor_homes) return floor_homes;
    size_t power = floor_homes;
    while (power <= fit / 2) power *= 2;
    return (fit - power) * 32 < power ? power : fit;
}

size_t slots_next(size_t homes, size_t max_homes) {
    size_t to = homes <= max_homes / 2 ? homes * 2 : max_homes;
    return to > homes && (to - homes) * 32 >= homes ? to : homes;
}

uint64_t *slots_alloc(size_t *room, size_t n, size_t words) {
    size_t r = *room;
    uint64_t *a = (uint64_t *)calloc((r + SLOTS_TAIL) * words, sizeof(uint64_t));
    /* Where the whole budget cannot be had, less room: the table then stops there. */
    while (a == NULL && r > n) {
        r = r / 2 > n ? r / 2 : n;
        a = (uint64_t *)calloc((r + SLOTS_TAIL) * words, sizeof(uint64_t));
    }
    if (a == NULL) return NULL;
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    /* Fresh pages cost a fault each as the table fills them, where a heap's reused memory cost
     * none (docs/benchmarks.md, "Peak memory against the budget"); huge pages, where the system
     * allows them, take one fault for 512 of those. */
    if (r > n) {
        uintptr_t b = ((uintptr_t)a + 4095) & ~(uintptr_t)4095;
        uintptr_t e = (uintptr_t)(a + (r + SLOTS_TAIL) * words) & ~(uintptr_t)4095;
        if (e > b) madvise((void *)b, e - b, MADV_HUGEPAGE);
    }
#endif
    *room = r;
    return a;
}
