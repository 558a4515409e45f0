# The nogil kernel of the Hex playouts, included by hex/_board.pyx (through
# _board_playouts.pxi) and by the search, hex/_search.pyx: a random game
# from a position to its end, as a fill of the empty cells and one flood.

cdef enum:
    VISITED = 3           # a playout's flood fill marks its cells so


cdef struct PlayoutStart:
    const uint8_t* stones     # the position's cells (padded)
    const int32_t* empty      # its empty cells
    int32_t n_empty
    uint8_t mover
    int32_t swap_cell         # the first stone when a swap may come next, else -1
    int32_t swap_mirror       # its mirror when swap-pieces may come next, else -1


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


cdef uint8_t playout(const Geometry* g, const PlayoutStart* start, PlayoutScratch* scratch,
                     Xoshiro* rng) noexcept nogil:
    """The winner of one game continued by uniformly random legal moves."""
    cdef int32_t n = start.n_empty
    cdef uint8_t mover = start.mover
    cdef uint8_t other
    cdef int32_t k, pick, held, choices
    cdef uint8_t* stones = scratch.stones
    cdef int32_t* order = scratch.order
    memcpy(stones, start.stones, g.padded)
    memcpy(order, start.empty, n * sizeof(int32_t))
    if start.swap_cell >= 0:
        # The first reply is uniform over the cells and the swaps.
        choices = n + 1 + (start.swap_mirror >= 0)
        pick = random_below(rng, <uint32_t>choices)
        if pick == n + 1 or (pick == n and start.swap_mirror < 0):
            pass                                  # swap-sides: the stones stay, Blue moves
        elif pick == n:
            stones[start.swap_cell] = EMPTY
            stones[start.swap_mirror] = BLUE
            mover = RED
            if start.swap_mirror != start.swap_cell:
                for k in range(n):
                    if order[k] == start.swap_mirror:
                        order[k] = start.swap_cell
                        break
    other = RED + BLUE - mover
    # The mover takes a uniform ceil(n / 2) of the empty cells.
    held = (n + 1) // 2
    for k in range(held):
        pick = k + <int32_t>random_below(rng, <uint32_t>(n - k))
        stones[order[pick]] = mover
        order[pick] = order[k]
    for k in range(held, n):
        stones[order[k]] = other
    return RED if red_joins(g, stones, scratch.stack) else BLUE
