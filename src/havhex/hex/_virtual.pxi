# Virtual connections for the solver (included by _search.pyx): chains of
# a colour's stones from one of its edges to the other, each link a plain
# adjacency, a bridge (two empty cells beside both ends: the owner answers
# an intrusion into one with the other) or, in a semi-connection, one
# empty "key" cell the owner still has to play.  With the carriers (the
# bridges' cells and the key) all distinct, a chain without a key is won
# for its owner whoever moves, and one with a key is won by the owner to
# move (the key first).  The edges take part as rows of stones: a stone on
# the second row bridges to its edge through the two cells below it.
#
# The search is Dijkstra's over the cells with the carrier's size as the
# cost (a bridge 2, a key 1), so the chain found is one of fewest carrier
# cells: its carrier is a small set the opponent must play in.  A chain
# whose carriers overlap is not claimed (the test after the search): what
# is claimed is sound, what is missed only leaves more to search.

cdef enum:
    STEP_START = 0
    STEP_ADJACENT = 1
    STEP_KEY = 2
    STEP_BRIDGE = 3         # STEP_BRIDGE + k: the bridge between directions k and k + 1

# Per direction, (row, column) steps in order round a cell, each beside the
# next (the board's offsets: up, up-right, right, down, down-left, left).
cdef int32_t STEP_ROW[6]
cdef int32_t STEP_COL[6]
STEP_ROW[:] = [-1, -1, 0, 1, 1, 0]
STEP_COL[:] = [0, 1, 1, 0, -1, -1]


cdef struct Chains:
    int32_t grid_cols       # cols + 2: the grid has a ring of edge cells round the board
    int32_t n_states        # two layers (no key yet, key taken) of the grid
    int32_t* distance
    int32_t* previous
    uint8_t* step
    int32_t* queue          # three rings of buckets (costs are 0, 1 or 2)
    int32_t queue_room      # per bucket
    int32_t* stamp          # per grid cell: the check's mark
    int32_t stamp_now


cdef bint chains_open(Chains* c, int32_t rows, int32_t cols) noexcept nogil:
    cdef int32_t cells = (rows + 2) * (cols + 2)
    c.grid_cols = cols + 2
    c.n_states = 2 * cells
    # Every relaxation pushes once: 12 a state at most.
    c.queue_room = 12 * c.n_states + 8
    c.distance = <int32_t*>malloc(<size_t>c.n_states * sizeof(int32_t))
    c.previous = <int32_t*>malloc(<size_t>c.n_states * sizeof(int32_t))
    c.step = <uint8_t*>malloc(<size_t>c.n_states)
    c.queue = <int32_t*>malloc(<size_t>3 * c.queue_room * sizeof(int32_t))
    c.stamp = <int32_t*>calloc(<size_t>cells, sizeof(int32_t))
    c.stamp_now = 0
    return (c.distance != NULL and c.previous != NULL and c.step != NULL and c.queue != NULL
            and c.stamp != NULL)


cdef void chains_close(Chains* c) noexcept nogil:
    free(c.distance)
    free(c.previous)
    free(c.step)
    free(c.queue)
    free(c.stamp)


cdef inline uint8_t grid_side(const State* s, int32_t row, int32_t col) noexcept nogil:
    """On the board: the stone (EMPTY, RED, BLUE).  Off it: the colour
    whose edge the cell stands for, +4 for the far edge (below, right):
    Red's above and below (the corners too), Blue's left and right."""
    if row < 0:
        return RED
    if row >= s.g.rows:
        return RED + 4
    if col < 0:
        return BLUE
    if col >= s.g.cols:
        return BLUE + 4
    return s.stones[(row + 1) * s.g.width + col]


cdef inline bint is_empty_cell(const State* s, int32_t row, int32_t col) noexcept nogil:
    return (0 <= row < s.g.rows and 0 <= col < s.g.cols
            and s.stones[(row + 1) * s.g.width + col] == EMPTY)


cdef inline void relax(Chains* c, int32_t* counts, int32_t state, int32_t cost,
                       int32_t from_state, uint8_t how) noexcept nogil:
    cdef int32_t bucket
    if cost < c.distance[state]:
        bucket = cost % 3
        if counts[bucket] >= c.queue_room:
            return
        c.distance[state] = cost
        c.previous[state] = from_state
        c.step[state] = how
        c.queue[bucket * c.queue_room + counts[bucket]] = state
        counts[bucket] += 1


cdef int32_t find_chain(State* s, Chains* c, uint8_t colour, int32_t keys,
                        int32_t* carrier, int32_t* key) noexcept nogil:
    """A chain of ``colour`` from edge to edge with at most ``keys`` (0 or
    1) key cells and its carriers distinct: the carrier's size, its cells
    (padded indices) in ``carrier``, the key's in ``key`` (-1 without);
    -1 when none is found."""
    cdef int32_t half = c.n_states // 2
    cdef int32_t gc = c.grid_cols
    cdef int32_t counts[3]
    cdef int32_t cost, bucket, k, i, state, vertex, layer, row, col, r2, c2, r3, c3
    cdef int32_t pending, n, cell, finish = -1
    cdef uint8_t side
    for i in range(c.n_states):
        c.distance[i] = 0x7FFFFFFF
    counts[0] = counts[1] = counts[2] = 0
    # The near edge's cells beside the board are the sources.
    if colour == RED:
        for col in range(s.g.cols):
            relax(c, counts, 0 * gc + col + 1, 0, -1, STEP_START)
    else:
        for row in range(s.g.rows):
            relax(c, counts, (row + 1) * gc, 0, -1, STEP_START)
    cost = 0
    pending = counts[0] + counts[1] + counts[2]
    while pending and finish < 0:
        bucket = cost % 3
        while counts[bucket] and finish < 0:
            counts[bucket] -= 1
            state = c.queue[bucket * c.queue_room + counts[bucket]]
            if c.distance[state] != cost:
                continue
            layer = 1 if state >= half else 0
            vertex = state - layer * half
            row = vertex // gc - 1
            col = vertex % gc - 1
            side = grid_side(s, row, col)
            if side == colour + 4:
                finish = state
                break
            for k in range(6):
                r2 = row + STEP_ROW[k]
                c2 = col + STEP_COL[k]
                if r2 < -1 or r2 > s.g.rows or c2 < -1 or c2 > s.g.cols:
                    continue
                side = grid_side(s, r2, c2)
                if side == colour or side == colour + 4:
                    if side == colour and not (0 <= r2 < s.g.rows and 0 <= c2 < s.g.cols):
                        continue
                    relax(c, counts, layer * half + (r2 + 1) * gc + c2 + 1, cost, state,
                          STEP_ADJACENT)
                elif side == EMPTY and layer < keys:
                    relax(c, counts, half + (r2 + 1) * gc + c2 + 1, cost + 1, state, STEP_KEY)
                # The bridge over this direction's cell and the next's.
                r3 = r2 + STEP_ROW[(k + 1) % 6]
                c3 = c2 + STEP_COL[(k + 1) % 6]
                if (is_empty_cell(s, r2, c2)
                        and is_empty_cell(s, row + STEP_ROW[(k + 1) % 6], col + STEP_COL[(k + 1) % 6])
                        and -1 <= r3 <= s.g.rows and -1 <= c3 <= s.g.cols):
                    side = grid_side(s, r3, c3)
                    if side == colour + 4 or (side == colour and 0 <= r3 < s.g.rows
                                              and 0 <= c3 < s.g.cols):
                        relax(c, counts, layer * half + (r3 + 1) * gc + c3 + 1, cost + 2,
                              state, <uint8_t>(STEP_BRIDGE + k))
        pending = counts[0] + counts[1] + counts[2]
        cost += 1
    if finish < 0:
        return -1
    # The carrier, and whether its cells are distinct.
    c.stamp_now += 1
    n = 0
    key[0] = -1
    state = finish
    while c.step[state] != STEP_START:
        vertex = c.previous[state]
        vertex -= (half if vertex >= half else 0)
        row = vertex // gc - 1
        col = vertex % gc - 1
        if c.step[state] == STEP_KEY:
            i = state - half
            cell = (i // gc) * s.g.width + (i % gc - 1)
            key[0] = cell
            if not mark_carrier(c, i):
                return -1
            carrier[n] = cell
            n += 1
        elif c.step[state] >= STEP_BRIDGE:
            k = c.step[state] - STEP_BRIDGE
            for i in range(2):
                r2 = row + STEP_ROW[(k + i) % 6]
                c2 = col + STEP_COL[(k + i) % 6]
                if not mark_carrier(c, (r2 + 1) * gc + c2 + 1):
                    return -1
                carrier[n] = (r2 + 1) * s.g.width + c2
                n += 1
        state = c.previous[state]
    return n


cdef inline bint mark_carrier(Chains* c, int32_t grid_cell) noexcept nogil:
    """Mark a carrier cell; False when it was marked already."""
    if c.stamp[grid_cell] == c.stamp_now:
        return False
    c.stamp[grid_cell] = c.stamp_now
    return True


cdef int32_t game_solver_candidates(State* s, int32_t* out, uint8_t* verdict) noexcept nogil:
    """The solver's moves: a chain of the mover's with at most one key
    wins (the key first, else any carrier cell: EXPAND_WIN, the move in
    ``out[0]``); a chain of the opponent's without a key loses
    (EXPAND_LOST); one with a key leaves its carrier alone (a stone
    elsewhere lets the opponent take the key); else every empty cell."""
    cdef uint8_t mover = s.mover
    cdef uint8_t other = RED + BLUE - mover
    cdef int32_t n, key, k, cell, kept
    if swap_open(s):
        return game_candidates(s, out, verdict)
    verdict[0] = EXPAND_OPEN
    n = find_chain(s, s.chains, mover, 1, out, &key)
    if n > 0:
        if key >= 0:
            out[0] = key
        verdict[0] = EXPAND_WIN
        return 1
    # One search with a key allowed finds the opponent's chains without one
    # too (a chain found without a key loses at once).
    n = find_chain(s, s.chains, other, 1, out, &key)
    if n >= 0 and key < 0:
        verdict[0] = EXPAND_LOST
        return 0
    if n > 0:
        # A cell of the carrier after which the opponent still has a chain
        # with a key loses too: the rest are the moves.
        memcpy(s.threats, out, <size_t>n * sizeof(int32_t))
        kept = 0
        for k in range(n):
            cell = s.threats[k]
            s.stones[cell] = mover
            if find_chain(s, s.chains, other, 1, out, &key) < 0:
                s.threats[kept] = cell
                kept += 1
            s.stones[cell] = EMPTY
        memcpy(out, s.threats, <size_t>kept * sizeof(int32_t))
        if kept == 0:
            verdict[0] = EXPAND_LOST
        elif kept == 1:
            verdict[0] = EXPAND_FORCED
        return kept
    n = game_candidates(s, out, verdict)
    if verdict[0] == EXPAND_OPEN:
        n = leave_dead_out(s, out, n)
        centre_first(s, out, n)
    return n


cdef bint is_dead(const State* s, int32_t cell) noexcept nogil:
    """Whether a stone on the empty ``cell`` changes nothing for either
    colour, by its six neighbours n0..n5 (each beside the next; an edge
    counts as its colour's stones): four in a row of one colour (they are
    joined round the cell, and the other two are beside each other and
    beside the four); or three in a row of one colour and two in a row of
    the other beside them (each colour's neighbours are joined without
    the cell).  A move there is a pass, which never helps in Hex.  The
    edges are read by their geometry (grid_side), not the padded layout,
    whose padding column is both the left edge and the right."""
    cdef uint8_t n[12]
    cdef int k
    cdef int32_t row = cell // s.g.width - 1
    cdef int32_t col = cell - (row + 1) * s.g.width
    cdef int32_t r, c
    for k in range(6):
        r = row + STEP_ROW[k]
        c = col + STEP_COL[k]
        if (r < 0 or r >= s.g.rows) and (c < 0 or c >= s.g.cols):
            # Past a corner: of both edges, or of neither.
            return False
        n[k] = grid_side(s, r, c) & 3
        n[k + 6] = n[k]
    for k in range(6):
        if n[k] == EMPTY or n[k + 1] != n[k] or n[k + 2] != n[k]:
            continue
        if n[k + 3] == n[k]:
            return True
        if n[k + 3] != EMPTY and n[k + 4] == n[k + 3]:
            return True
        if n[k + 4] != EMPTY and n[k + 4] != n[k] and n[k + 5] == n[k + 4]:
            return True
    return False


cdef int32_t leave_dead_out(const State* s, int32_t* cells, int32_t n) noexcept nogil:
    """``cells`` without its dead cells (see is_dead), kept in place; all
    of them when every one is dead."""
    cdef int32_t k, kept = 0
    for k in range(n):
        if not is_dead(s, cells[k]):
            cells[kept] = cells[k]
            kept += 1
    return kept if kept else n


cdef void centre_first(const State* s, int32_t* cells, int32_t n) noexcept nogil:
    """Order ``cells`` by their distance to the board's centre, nearest
    first (an insertion sort: a few dozen cells)."""
    cdef int32_t k, j, cell, d
    cdef int32_t twice_row, twice_col
    for k in range(1, n):
        cell = cells[k]
        d = centre_distance(s, cell)
        j = k - 1
        while j >= 0 and centre_distance(s, cells[j]) > d:
            cells[j + 1] = cells[j]
            j -= 1
        cells[j + 1] = cell


cdef inline int32_t centre_distance(const State* s, int32_t cell) noexcept nogil:
    """Twice the hex distance from the centre (halves for even sizes)."""
    cdef int32_t row = cell // s.g.width - 1
    cdef int32_t col = cell - (row + 1) * s.g.width
    cdef int32_t dr = 2 * row - (s.g.rows - 1)
    cdef int32_t dc = 2 * col - (s.g.cols - 1)
    return (abs(dr) + abs(dc) + abs(dr + dc)) // 2


cdef bint game_solver_open(State* s) noexcept nogil:
    """The solver's scratch beside the search's (False without memory)."""
    s.chains = <Chains*>calloc(1, sizeof(Chains))
    return s.chains != NULL and chains_open(s.chains, s.g.rows, s.g.cols)


cdef void game_solver_close(State* s) noexcept nogil:
    if s.chains != NULL:
        chains_close(s.chains)
        free(s.chains)
        s.chains = NULL
