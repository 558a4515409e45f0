# cython: language_level=3
"""The Havannah structure tests of the judge and the live board (the kinds
and the bridge and fork tests are stated in _structure.h).

A move's six neighbours are bits 0-5 clockwise from twelve o'clock
(docs/conventions.md, Havannah: neighbours), so consecutive bits are adjacent
cells; a group's border mask has bits 0-5 for the corners it holds and 6-11
for the edges it touches (``border_mask`` in _geometry.pxi).
"""
from libc.stdint cimport uint8_t, uint16_t

# The runs of a move's own stones around it, which the ring test walks: both
# games' (the Havannah kernels cimport it from here with the kinds).
from havhex._native.neighbours cimport run_starts

cdef extern from "havhex/havannah/_structure.h" nogil:
    # Kinds of winning structure, as bits; the judge prints them in this order.
    enum:
        KIND_BRIDGE "HAVHEX_KIND_BRIDGE"
        KIND_FORK "HAVHEX_KIND_FORK"
        KIND_RING "HAVHEX_KIND_RING"
    # The kinds a group's border mask makes: a bridge joins two corners, a
    # fork three edges.
    uint8_t structure_kinds "havhex_structure_kinds"(uint16_t mask) noexcept
