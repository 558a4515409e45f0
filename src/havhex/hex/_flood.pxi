# The flood that finds a filled Hex board's winner, included by
# _playout_kernel.pxi (the boards' playouts) and by the search,
# hex/_search.pyx, whose playouts fill the board their own way.

cdef enum:
    VISITED = 3           # a playout's flood fill marks its cells so


# A playout's working board (padded), its order of cells and the flood's
# stack.
cdef struct PlayoutScratch:
    uint8_t* stones
    int32_t* order
    int32_t* stack


cdef bint red_joins(const Geometry* g, uint8_t* stones, int32_t* stack) noexcept nogil:
    """Does Red join top and bottom?  A depth-first flood fill from the top
    row that marks the cells it reaches (the board is scratch)."""
    cdef int32_t stack_size = 0
    cdef int32_t first = g.width, last_row = g.rows * g.width
    cdef int32_t cell, next_cell, j
    cdef int k
    for j in range(g.cols):
        if stones[first + j] == RED:
            stones[first + j] = VISITED
            stack[stack_size] = first + j
            stack_size += 1
    while stack_size:
        stack_size -= 1
        cell = stack[stack_size]
        if cell >= last_row:
            return True
        for k in range(6):
            next_cell = cell + g.offset[k]
            if stones[next_cell] == RED:
                stones[next_cell] = VISITED
                stack[stack_size] = next_cell
                stack_size += 1
    return False
