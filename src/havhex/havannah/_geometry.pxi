# Included by _judge.pyx and by the live board's _board.pyx (each compiles its own
# copy; the kernels cannot import): the board's geometry.

# Neighbours clockwise from twelve o'clock (docs/conventions.md, Havannah:
# neighbours): consecutive entries are themselves adjacent, which the ring
# test relies on.
cdef int NEIGHBOUR_DX[6]
cdef int NEIGHBOUR_DY[6]
NEIGHBOUR_DX[:] = [1, 0, -1, -1, 0, 1]
NEIGHBOUR_DY[:] = [1, 1, 0, -1, -1, 0]

cdef int64_t LOW32 = 0xFFFFFFFF

# --------------------------------------------------------------------------
# Board geometry
# --------------------------------------------------------------------------

cdef inline bint on_board(int64_t x, int64_t y, int64_t size) noexcept nogil:
    cdef int64_t last = 2 * size - 1
    return 1 <= x <= last and 1 <= y <= last and -(size - 1) <= x - y <= size - 1


cdef inline uint16_t border_mask(int64_t x, int64_t y, int64_t size) noexcept nogil:
    """Bits 0-5: the corner this cell is; bits 6-11: the edge it lies on
    (numbered as in docs/conventions.md, Havannah: corners and edges)."""
    cdef int64_t last = 2 * size - 1
    cdef int64_t d = x - y
    if 1 < x < last and 1 < y < last and -(size - 1) < d < size - 1:
        return 0
    if x == 1 and y == 1:
        return 1
    if x == 1 and y == size:
        return 2
    if x == size and y == 1:
        return 4
    if x == size and y == last:
        return 8
    if x == last and y == size:
        return 16
    if x == last and y == last:
        return 32
    if x == 1:
        return 64
    if y == 1:
        return 128
    if x == last:
        return 256
    if y == last:
        return 512
    if -d == size - 1:
        return 1024
    return 2048
