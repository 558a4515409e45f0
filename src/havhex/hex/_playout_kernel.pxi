# The nogil kernel of the Hex playouts, included by hex/_board.pyx (through
# _board_playouts.pxi): a random game from a position to its end, as a fill
# of the empty cells and one flood (_flood.pxi).

include "_flood.pxi"


cdef struct PlayoutStart:
    const uint8_t* stones     # the position's cells (padded)
    const int32_t* empty      # its empty cells
    int32_t n_empty
    uint8_t mover
    int32_t swap_cell         # the first stone when a swap may come next, else -1
    int32_t swap_mirror       # its mirror when swap-pieces may come next, else -1


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
