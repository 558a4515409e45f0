# cython: language_level=3
"""Flat-array union-find shared by both engines.

``parent[i] >= 0`` points towards the root; a root stores minus a count of its
items, so one int32 array carries both the forest and the counts, and a union
keeps the root with the larger count on top (union by size).  The count is
the set's size, except in the Havannah kernel, which hangs some stones as
leaves without counting them.  Either way a root's count at least doubles
each time a tree goes under it, so no item is deeper than log2 of the items
counted, plus one for an uncounted leaf.
"""
from libc.stdint cimport int32_t


cdef inline int32_t uf_find_far(int32_t* parent, int32_t item) noexcept nogil:
    cdef int32_t up = parent[item]
    cdef int32_t above
    # Path halving, the one-pass form of path compression: every other node
    # on the walk is pointed at its grandparent.
    while up >= 0:
        above = parent[up]
        if above < 0:
            return up
        parent[item] = above
        item = above
        up = parent[item]
    return item


cdef inline int32_t uf_find(int32_t* parent, int32_t item) noexcept nogil:
    # Nearly every item is a root or a root's child.  Both end after two
    # loads, the one or the other picked without a branch: a loop's exit
    # there was a coin toss the CPU mispredicted about every third find.
    cdef int32_t up = parent[item]
    cdef int32_t is_root = up >> 31             # all ones when up < 0 (gcc: arithmetic)
    cdef int32_t near = (up & ~is_root) | (item & is_root)
    if parent[near] < 0:
        return near
    return uf_find_far(parent, item)


cdef inline int32_t uf_link(int32_t* parent, int32_t root_a, int32_t root_b) noexcept nogil:
    """Join two distinct roots; return the surviving root (the larger count)."""
    cdef int32_t size_a = parent[root_a]
    cdef int32_t size_b = parent[root_b]
    # Picked with a mask, not a branch: which set is larger is a coin toss.
    cdef int32_t a_smaller = -(size_a > size_b)     # sizes are stored negated
    cdef int32_t larger = (root_b & a_smaller) | (root_a & ~a_smaller)
    parent[larger] = size_a + size_b
    parent[root_a ^ root_b ^ larger] = larger
    return larger
