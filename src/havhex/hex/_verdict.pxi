# Included by _judge.pyx (one extension, no import between the parts): the verdict without witnesses (the judging path).

# --------------------------------------------------------------------------
# Verdict without witnesses (the judging path)
#
# Works on the board (``grid``, or a copy of it) whose spare bits record the
# searches, so a neighbour test is one byte load and one compare, and the
# search loops write their marks without branching: on boards from random
# games the outcome of each neighbour test is a coin toss, which a branch
# would mispredict about half the time.
# --------------------------------------------------------------------------

# Grid bits above the cell bits (COLOUR and the sink flags).
cdef enum:
    GRID_SOURCE = 0x10    # the winner's stone on its first side
    GRID_LABELLED = 0x20  # put in a bypass component (or on the chain)
    GRID_CHAIN = 0x40     # on the chain of the side search
    GRID_SEEN = 0x80      # reached by the side search


cdef int64_t side_search(uint8_t* grid, int64_t n, uint8_t colour, uint64_t* stack,
                         int32_t* link, int32_t* chain) noexcept nogil:
    """Depth-first search of ``colour`` from its first side to its second.

    Writes a chain (first side to second side) to ``chain`` and returns its
    length; 0 when the sides are not joined.  Each stack entry packs the
    stone with the stone that pushed it; ``link`` (one entry per cell) takes
    that parent when the entry is popped, which happens once per stone.  The
    neighbour towards the second side is pushed last, so the search heads
    for it first: on a board of straight lines it walks one line instead of
    sweeping all of them as a breadth-first search would.  ``stack`` needs
    room for one more entry than the colour has stones: a rejected neighbour
    is written at the top and then overwritten.
    """
    cdef int64_t w = n + 1
    cdef int64_t offset[6]
    cdef uint8_t sink = RED_SINK if colour == RED else BLUE_SINK
    cdef int64_t top = 0, k, p, v, u, end = -1, length = 0, until_poll = POLL_STEPS
    cdef uint64_t entry
    cdef uint8_t c, ok
    # Away from the second side first, towards it last.
    if colour == RED:
        set_offsets(offset, n)
    else:
        offset[0] = -1
        offset[1] = w - 1
        offset[2] = -w
        offset[3] = w
        offset[4] = -w + 1
        offset[5] = 1
    for k in range(n - 1, -1, -1):
        p = first_side_cell(colour, n, k)
        c = grid[p]
        if (c & COLOUR) == colour:
            grid[p] = c | GRID_SEEN
            stack[top] = (<uint64_t><uint32_t>-1 << 32) | <uint64_t>p
            top += 1
    while top > 0:
        until_poll -= 1
        if until_poll == 0:
            if cancelled():
                return 0
            until_poll = POLL_STEPS
        top -= 1
        entry = stack[top]
        v = <uint32_t>entry
        link[v] = <int32_t>(entry >> 32)
        if grid[v] & sink:
            end = v
            break
        for k in range(6):
            u = v + offset[k]
            c = grid[u]
            ok = (c & (GRID_SEEN | COLOUR)) == colour
            grid[u] = c | (ok << 7)
            stack[top] = (<uint64_t>v << 32) | <uint64_t>u
            top += ok
    if end < 0:
        return 0
    v = end
    while v >= 0:
        length += 1
        v = link[v]
    v = end
    k = length
    while v >= 0:
        k -= 1
        chain[k] = <int32_t>v
        v = link[v]
    return length


cdef inline void label_component(uint8_t* grid, int64_t seed, uint8_t colour, uint8_t sink,
                                 const int64_t* offset, const int32_t* position,
                                 int32_t* queue, int32_t* reach, int64_t top) noexcept nogil:
    """Label the off-chain component of ``seed`` (if it is an unlabelled stone
    of ``colour``) and record the step it offers from its lowest index to its
    highest."""
    cdef int64_t head = 0, tail = 1, x, u, j, low = top, high = 0, index
    cdef uint8_t c, d, ok
    d = grid[seed]
    if (d & (GRID_LABELLED | COLOUR)) != colour:
        return
    grid[seed] = d | GRID_LABELLED
    queue[0] = <int32_t>seed
    while head < tail:
        x = queue[head]
        head += 1
        c = grid[x]
        if c & GRID_SOURCE:
            low = 0
        if c & sink:
            high = top
        for j in range(6):
            u = x + offset[j]
            d = grid[u]
            ok = (d & (GRID_LABELLED | COLOUR)) == colour
            grid[u] = d | (ok << 5)
            queue[tail] = <int32_t>u
            tail += ok
            if (d & (GRID_CHAIN | COLOUR)) == (GRID_CHAIN | colour):
                # Rare (next to the chain), so a branch is cheaper here.
                index = position[u]
                if index < low:
                    low = index
                if index > high:
                    high = index
    if low < high and reach[low] < high:
        reach[low] = <int32_t>high


cdef int64_t cut_stones_on_grid(uint8_t* grid, int64_t n, uint8_t colour,
                                const int32_t* chain, int64_t length, int32_t* position,
                                int32_t* queue, int32_t* reach, int32_t* cuts) noexcept nogil:
    """The stones that lie on every winning chain, in chain order.

    Number the first side 0, the chain stones 1..L and the second side L+1.
    A chain stone i is avoidable exactly when some other path steps from an
    index below i to one above it: either directly (two chain stones, or a
    chain stone and a side, adjacent out of turn) or through one component
    of the colour's stones off the chain, which joins every index it
    touches.  So: label those components once, record for each lowest index
    touched the highest one reachable (``reach``), and sweep along the chain;
    the stones no step jumps over are the cut stones.  Linear in the stones
    of the components touching the first side or the chain.

    ``position`` needs one entry per cell (read only on chain stones),
    ``queue`` room for the colour's stones, ``reach`` for L + 1 entries.
    With ``cuts`` NULL only the verdict is wanted: returns 1 at the first
    cut stone found, 0 when there is none.
    """
    cdef int64_t offset[6]
    cdef uint8_t sink = RED_SINK if colour == RED else BLUE_SINK
    cdef int64_t i, j, k, p, u, best, n_cuts = 0
    cdef int64_t top = length + 1
    set_offsets(offset, n)
    for i in range(length):
        grid[chain[i]] |= GRID_CHAIN | GRID_LABELLED
        position[chain[i]] = <int32_t>(i + 1)
        reach[i] = <int32_t>(i + 1)
    reach[length] = <int32_t>top
    for k in range(n):
        p = first_side_cell(colour, n, k)
        if (grid[p] & COLOUR) == colour:
            grid[p] |= GRID_SOURCE
    # Direct steps out of turn (a shortest chain has none; kept so that the
    # test does not depend on how the chain was found).
    for i in range(length):
        p = chain[i]
        if i > 0 and grid[p] & GRID_SOURCE and reach[0] < i + 1:
            reach[0] = <int32_t>(i + 1)
        if i < length - 1 and grid[p] & sink:
            reach[i + 1] = <int32_t>top
        for k in range(6):
            u = p + offset[k]
            if (grid[u] & (GRID_CHAIN | COLOUR)) == (GRID_CHAIN | colour):
                j = position[u]
                if j > reach[i + 1]:
                    reach[i + 1] = <int32_t>j
    # Components off the chain, seeded from the chain's neighbours and from
    # the first side.
    # Once a component joins both sides (two disjoint chains) nothing is a
    # cut stone and the rest need not be labelled.
    for i in range(length):
        if (i & (POLL_STEPS - 1)) == 0 and cancelled():
            return 0
        for k in range(6):
            label_component(grid, chain[i] + offset[k], colour, sink, offset, position,
                            queue, reach, top)
        if reach[0] == top:
            return 0
    for k in range(n):
        label_component(grid, first_side_cell(colour, n, k), colour, sink, offset, position,
                        queue, reach, top)
        if reach[0] == top:
            return 0
    best = 0
    for i in range(1, length + 1):
        if reach[i - 1] > best:
            best = reach[i - 1]
        if best == i:
            if cuts == NULL:
                return 1
            cuts[n_cuts] = chain[i - 1]
            n_cuts += 1
    return n_cuts


cdef int judge_board_fast(uint8_t* b, int64_t n, Scratch* s, CaseResult* out,
                          bint keep_last_moves) noexcept nogil:
    """Verdict on one padded board, without chains (see ``explain_board``
    for the checks and their order; the verdicts are the same).  The
    possible last moves of a win are kept only with ``keep_last_moves``:
    the verdict needs to know only that there is one.

    Judging (one worker per case) marks the board's spare bits itself and
    clears them before returning, so it needs no copy of the board; the
    last moves are asked for by readers of results, possibly several
    threads on one case at once, so each of those searches its own copy.
    """
    cdef int64_t cells = board_cells(n)
    cdef int64_t counts[3]
    cdef uint8_t* grid
    cdef int64_t p
    cdef int status = start_verdict(b, n, s, out, counts)

    if status <= 0:
        return status
    if keep_last_moves:
        grid = s.mark
        memcpy(grid, b, <size_t>cells)
    else:
        grid = b
    status = verdict_on_grid(grid, n, s, out, counts, keep_last_moves)
    if grid == b:
        for p in range(cells):
            b[p] &= COLOUR | RED_SINK | BLUE_SINK
    return status


cdef int verdict_on_grid(uint8_t* grid, int64_t n, Scratch* s, CaseResult* out,
                         const int64_t* counts, bint keep_last_moves) noexcept nogil:
    """The searches of ``judge_board_fast`` on a board whose spare bits are
    free for their marks."""
    cdef int64_t cells = board_cells(n)
    cdef int64_t half = cells // 2
    cdef uint8_t winner, loser
    cdef int64_t length, n_cuts
    cdef int32_t* chain
    # From here a colour has at most (N*N + 1) / 2 stones, fewer than half
    # the padded cells: the first ``cells`` int32 of ``work`` hold the search
    # stack (int64 entries) and later a queue and the cut stones, the rest
    # the chain and the reach table.
    chain = s.work + cells
    # Two chains that join opposite sides would cross, and on the hex grid
    # crossing chains share a cell; so once one colour is joined the other
    # is not, and its search is skipped.  The colour with more stones is
    # searched first: a winner who moved last has at least as many.
    winner = BLUE if counts[BLUE] > counts[RED] else RED
    length = side_search(grid, n, winner, <uint64_t*>s.work, s.link, chain)
    if length == 0:
        winner = RED if winner == BLUE else BLUE
        length = side_search(grid, n, winner, <uint64_t*>s.work, s.link, chain)
        if length == 0:
            out.status = NOBODY_WINS
            return 0
    loser = BLUE if winner == RED else RED
    if counts[winner] < counts[loser]:
        out.reason = REASON_LOSER_MOVED_LAST
        return 0
    n_cuts = cut_stones_on_grid(grid, n, winner, chain, length, s.link, s.work,
                                chain + half, s.work + half if keep_last_moves else NULL)
    if n_cuts == 0:
        out.reason = REASON_NO_SINGLE_LAST_MOVE
        return 0
    out.status = RED_WINS if winner == RED else BLUE_WINS
    if not keep_last_moves:
        return 0
    out.last_moves = <int32_t*>malloc(<size_t>n_cuts * sizeof(int32_t))
    if out.last_moves == NULL:
        return -1
    memcpy(out.last_moves, s.work + half, <size_t>n_cuts * sizeof(int32_t))
    out.n_last_moves = n_cuts
    return 0


cdef int judge_board(uint8_t* b, int64_t n, Scratch* s, CaseResult* out,
                     Witness* w) noexcept nogil:
    """Verdict on one padded board; with ``w``, also its witness chains (the
    flow search, which yields two disjoint chains when there are) and its
    possible last moves."""
    if w == NULL:
        return judge_board_fast(b, n, s, out, False)
    return explain_board(b, n, s, out, w)
