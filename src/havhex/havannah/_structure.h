/* The Havannah result kinds and the bridge and fork tests, for the judge
 * and the live board (declared for Cython in _structure.pxd).
 *
 * A group's border mask has bits 0-5 for the corners it holds and bits 6-11
 * for the edges it touches (border_mask in _geometry.pxi): a bridge joins
 * two corners, a fork three edges.  The kinds of a mask are two table loads,
 * one for its corners and one for its edges; both tables are filled by the
 * compiler from the rule, in read-only data. */
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
#define HAVHEX_CORNERS_KINDS(x) (HAVHEX_BITS6(x) >= 2 ? HAVHEX_KIND_BRIDGE : 0)
#define HAVHEX_EDGES_KINDS(x) (HAVHEX_BITS6(x) >= 3 ? HAVHEX_KIND_FORK : 0)
#define HAVHEX_ROW8(f, x) f(x), f((x) + 1), f((x) + 2), f((x) + 3), \
                          f((x) + 4), f((x) + 5), f((x) + 6), f((x) + 7)
#define HAVHEX_TABLE64(f) HAVHEX_ROW8(f, 0), HAVHEX_ROW8(f, 8), HAVHEX_ROW8(f, 16), \
                          HAVHEX_ROW8(f, 24), HAVHEX_ROW8(f, 32), HAVHEX_ROW8(f, 40), \
                          HAVHEX_ROW8(f, 48), HAVHEX_ROW8(f, 56)

static const uint8_t havhex_corners_kinds[64] = { HAVHEX_TABLE64(HAVHEX_CORNERS_KINDS) };
static const uint8_t havhex_edges_kinds[64] = { HAVHEX_TABLE64(HAVHEX_EDGES_KINDS) };

static inline uint8_t havhex_structure_kinds(uint16_t mask) {
    return (uint8_t)(havhex_corners_kinds[mask & 63] | havhex_edges_kinds[(mask >> 6) & 63]);
}

#endif
