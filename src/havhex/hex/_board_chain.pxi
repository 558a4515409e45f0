# The witness of a win on the live board, compiled into hex/_board.pyx
# (included there): the nogil breadth-first search for a winning chain.

# Cells are never negative and widths never 0: C division is exact here.
@cython.cdivision(True)
cdef int32_t shortest_chain(const Geometry* g, const uint8_t* stones, uint8_t colour,
                            int32_t removed, int32_t* queue, int32_t* came_from) noexcept nogil:
    """Breadth-first search over the colour's stones (``removed`` counts as
    empty) from its first side (top row, left column) to its second; returns
    the chain's end cell, or -1.  ``came_from`` (padded cells, filled with -2
    by the caller) leads back to the first side (-1 there)."""
    cdef int32_t head = 0, tail = 0, cell, next_cell, i, k
    if colour == RED:
        for i in range(g.cols):
            cell = g.width + i
            if stones[cell] == colour and cell != removed:
                came_from[cell] = -1
                queue[tail] = cell
                tail += 1
    else:
        for i in range(g.rows):
            cell = (i + 1) * g.width
            if stones[cell] == colour and cell != removed:
                came_from[cell] = -1
                queue[tail] = cell
                tail += 1
    while head < tail:
        cell = queue[head]
        head += 1
        if colour == RED:
            if cell // g.width == g.rows:
                return cell
        elif cell % g.width == g.cols - 1:
            return cell
        for k in range(6):
            next_cell = cell + g.offset[k]
            if stones[next_cell] == colour and came_from[next_cell] == -2 and next_cell != removed:
                came_from[next_cell] = cell
                queue[tail] = next_cell
                tail += 1
    return -1
