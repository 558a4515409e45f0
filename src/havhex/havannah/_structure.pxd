# cython: language_level=3
"""The Havannah structure tests of the judge and the live board.

A move's six neighbours are bits 0-5 clockwise from twelve o'clock
(docs/conventions.md, Havannah: neighbours), so consecutive bits are adjacent
cells; a group's border mask has bits 0-5 for the corners it holds and 6-11
for the edges it touches (``border_mask`` in _geometry.pxi).
"""
from libc.stdint cimport uint8_t, uint16_t

# The runs of a move's own stones around it, which the ring test walks: both
# games' (the Havannah kernels cimport it from here with the kinds).
from havhex._native.neighbours cimport run_starts

# Kinds of winning structure, as bits; the judge prints them in this order.
cdef enum:
    KIND_BRIDGE = 1
    KIND_FORK = 2
    KIND_RING = 4


cdef inline uint8_t structure_kinds(uint16_t mask) noexcept nogil:
    """The kinds a group's border mask makes: a bridge joins two corners, a
    fork three edges.  Without branches (dropping a lowest set bit leaves
    some only when there were two)."""
    cdef unsigned int corners = mask & 63
    cdef unsigned int edges = (mask >> 6) & 63
    edges &= edges - 1
    return <uint8_t>((KIND_BRIDGE * ((corners & (corners - 1)) != 0))
                     | (KIND_FORK * ((edges & (edges - 1)) != 0)))
