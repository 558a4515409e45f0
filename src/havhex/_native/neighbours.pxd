# cython: language_level=3
"""The six neighbours of a cell as six bits, for both games' boards.

Bit k is neighbour k in the order round the cell, so that consecutive bits
(and bit 5 with bit 0) are cells next to each other: the stones of a run of
set bits touch one another and are one group.
"""


cdef inline unsigned int run_starts(unsigned int around) noexcept nogil:
    """The set neighbours (``around``, 6 bits) that start a run of set
    neighbours in the order round the cell: those whose predecessor is not
    set.  All six set make one run, started at neighbour 0."""
    cdef unsigned int starts = around & ~(((around << 1) | (around >> 5)) & 63)
    if not starts:
        return around & 1           # all six set, or none: rare, so a branch
    return starts
