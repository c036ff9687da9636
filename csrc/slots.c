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
