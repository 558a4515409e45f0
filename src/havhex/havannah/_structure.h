/* The Havannah result kinds and the bridge and fork tests, for the judge
 * and the live board (declared for Cython in _structure.pxd).
 *
 * A group's border mask has bits 0-5 for the corners it holds and bits 6-11
 * for the edges it touches (border_mask in _geometry.pxi): a bridge joins
 * two corners, a fork three edges.  The kinds of a mask are one load from a
 * table of every mask (4 KiB, in the caches on the kernels' paths), which the
 * compiler fills from the rule, in read-only data. */
#ifndef HAVHEX_HAVANNAH_STRUCTURE_H
#define HAVHEX_HAVANNAH_STRUCTURE_H

#include <stdint.h>

/* Kinds of winning structure, as bits; the judge prints them in this order. */
enum {
    HAVHEX_KIND_BRIDGE = 1,
    HAVHEX_KIND_FORK = 2,
    HAVHEX_KIND_RING = 4
};

#define HAVHEX_BITS6(x) (((x) & 1) + ((x) >> 1 & 1) + ((x) >> 2 & 1) \
                         + ((x) >> 3 & 1) + ((x) >> 4 & 1) + ((x) >> 5 & 1))
/* The kinds of the mask with edges e and corners c. */
#define HAVHEX_KINDS_OF(e, c) ((HAVHEX_BITS6(c) >= 2 ? HAVHEX_KIND_BRIDGE : 0) \
                               | (HAVHEX_BITS6(e) >= 3 ? HAVHEX_KIND_FORK : 0))
#define HAVHEX_KINDS8(e, c) HAVHEX_KINDS_OF(e, c), HAVHEX_KINDS_OF(e, (c) + 1), \
    HAVHEX_KINDS_OF(e, (c) + 2), HAVHEX_KINDS_OF(e, (c) + 3), HAVHEX_KINDS_OF(e, (c) + 4), \
    HAVHEX_KINDS_OF(e, (c) + 5), HAVHEX_KINDS_OF(e, (c) + 6), HAVHEX_KINDS_OF(e, (c) + 7)
#define HAVHEX_KINDS64(e) HAVHEX_KINDS8(e, 0), HAVHEX_KINDS8(e, 8), HAVHEX_KINDS8(e, 16), \
    HAVHEX_KINDS8(e, 24), HAVHEX_KINDS8(e, 32), HAVHEX_KINDS8(e, 40), HAVHEX_KINDS8(e, 48), \
    HAVHEX_KINDS8(e, 56)
#define HAVHEX_KINDS512(e) HAVHEX_KINDS64(e), HAVHEX_KINDS64((e) + 1), HAVHEX_KINDS64((e) + 2), \
    HAVHEX_KINDS64((e) + 3), HAVHEX_KINDS64((e) + 4), HAVHEX_KINDS64((e) + 5), \
    HAVHEX_KINDS64((e) + 6), HAVHEX_KINDS64((e) + 7)

/* Indexed by the mask's twelve bits: edges above, corners below. */
static const uint8_t havhex_kinds_of_mask[4096] = {
    HAVHEX_KINDS512(0), HAVHEX_KINDS512(8), HAVHEX_KINDS512(16), HAVHEX_KINDS512(24),
    HAVHEX_KINDS512(32), HAVHEX_KINDS512(40), HAVHEX_KINDS512(48), HAVHEX_KINDS512(56)
};

static inline uint8_t havhex_structure_kinds(uint16_t mask) {
    return havhex_kinds_of_mask[mask & 4095];
}

#endif
