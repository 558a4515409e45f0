# The nogil kernel of the Havannah playouts, included by havannah/_board.pyx
# (through _board_playouts.pxi) and by the search, havannah/_search.pyx: a
# thread's copy of a position and a random game from it, played by the
# board's own move kernel (``place``).

cdef struct Playground:
    # One thread's copy of the position to play out, and its scratch.
    Position position
    char* block
    int32_t* free_cells
    Search search


cdef bint playground_open(Playground* g, const Position* start) noexcept nogil:
    g.position = start[0]
    g.block = <char*>malloc(block_bytes(start.n_slots))
    g.free_cells = <int32_t*>malloc(<size_t>(start.n_empty + 1) * sizeof(int32_t))
    g.search.stamp = <uint32_t*>calloc(<size_t>start.n_slots, sizeof(uint32_t))
    g.search.queue = <int32_t*>malloc(<size_t>start.n_slots * sizeof(int32_t))
    g.search.epoch = 0
    if g.block == NULL or g.free_cells == NULL or g.search.stamp == NULL or g.search.queue == NULL:
        playground_close(g)
        return False
    point_into(&g.position, g.block)
    return True


cdef void playground_close(Playground* g) noexcept nogil:
    free(g.block)
    free(g.free_cells)
    free(g.search.stamp)
    free(g.search.queue)
    g.block = NULL
    g.free_cells = NULL
    g.search.stamp = NULL
    g.search.queue = NULL


cdef uint8_t play_out(Playground* g, const Position* start, const char* start_block,
                      const int32_t* start_free, int32_t swap_cell, Xoshiro* rng) noexcept nogil:
    """One game from ``start`` by uniformly random legal moves: the winner's
    colour, or 0 for a draw.  ``swap_cell`` >= 0: the swap is one of the
    legal first moves (the stone it would take)."""
    cdef Position* p = &g.position
    cdef int32_t* free_cells = g.free_cells
    cdef int32_t n_free = start.n_empty
    cdef int32_t pick, cell
    cdef uint8_t colour
    if start.winner:
        return start.winner
    memcpy(g.block, start_block, block_bytes(start.n_slots))
    memcpy(free_cells, start_free, <size_t>n_free * sizeof(int32_t))
    p.n_empty = start.n_empty
    p.to_move = start.to_move
    colour = start.to_move
    if swap_cell >= 0:
        pick = <int32_t>random_below(rng, <uint32_t>(n_free + 1))
        if pick == n_free:
            p.cells[swap_cell] = BLACK
            colour = WHITE
    while n_free:
        pick = <int32_t>random_below(rng, <uint32_t>n_free)
        cell = free_cells[pick]
        n_free -= 1
        free_cells[pick] = free_cells[n_free]
        if place(p, cell, colour, NULL, &g.search, True):
            return colour
        colour ^= 3
    return 0
