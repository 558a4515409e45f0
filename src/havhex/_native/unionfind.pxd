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


cdef inline int32_t uf_root(const int32_t* parent, int32_t item) noexcept nogil:
    """The root of ``item``'s set, rewriting nothing: the find of a forest
    that an undo must restore exactly (the live boards log every parent
    write, and path compression would make writes no log could trace).
    Any negative word is a root's, whatever else it packs beside the count."""
    while parent[item] >= 0:
        item = parent[item]
    return item


cdef inline int32_t uf_up(int32_t* parent, int32_t item) noexcept nogil:
    """The item's parent, or the item itself when it is a root, picked with
    a mask: whether an item is a root is a coin toss a branch mispredicts."""
    cdef int32_t up = parent[item]
    cdef int32_t is_root = up >> 31             # all ones when up < 0 (gcc: arithmetic)
    return (up & ~is_root) | (item & is_root)


cdef inline int32_t uf_find(int32_t* parent, int32_t item) noexcept nogil:
    # Nearly every item is a root or a root's child: both end after two
    # loads and no branch but this one.
    cdef int32_t near = uf_up(parent, item)
    if parent[near] < 0:
        return near
    return uf_find_far(parent, item)


cdef inline void uf_hang(int32_t* parent, int32_t leaf, int32_t member) noexcept nogil:
    """Add a new item to ``member``'s set without a find, as a leaf under
    ``member``'s parent (under ``member`` when it is a root): no deeper than
    ``member``, at one load.  The root's count is not raised (see above)."""
    parent[leaf] = uf_up(parent, member)


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


cdef inline int32_t uf_union(int32_t* parent, int32_t a, int32_t b) noexcept nogil:
    """Join the sets of ``a`` and ``b``; return the root of the joined set."""
    a = uf_find(parent, a)
    b = uf_find(parent, b)
    if a == b:
        return a
    return uf_link(parent, a, b)
