# Included by _judge.pyx (one extension, no import between the parts): scratch memory, stone counts and the sides' union-find.

# --------------------------------------------------------------------------
# Scratch memory of one worker
# --------------------------------------------------------------------------

cdef struct Scratch:
    int32_t* work        # 2 * cells: the union-find forest, then queues and chain
    int32_t* link        # cells: search parent of each reached stone
    uint8_t* mark        # cells: search marks
    int64_t capacity     # cells


cdef void scratch_free(Scratch* s) noexcept nogil:
    free(s.work)
    free(s.link)
    free(s.mark)
    s.work = NULL
    s.link = NULL
    s.mark = NULL
    s.capacity = 0


cdef bint scratch_reserve(Scratch* s, int64_t cells) noexcept nogil:
    if cells <= s.capacity:
        return True
    scratch_free(s)
    s.work = <int32_t*>malloc(<size_t>(2 * cells) * sizeof(int32_t))
    s.link = <int32_t*>malloc(<size_t>cells * sizeof(int32_t))
    s.mark = <uint8_t*>malloc(<size_t>cells)
    if s.work == NULL or s.link == NULL or s.mark == NULL:
        scratch_free(s)
        return False
    s.capacity = cells
    return True


cdef struct CaseResult:
    uint8_t status
    uint8_t reason
    int64_t red
    int64_t blue
    int32_t* last_moves      # padded cells, in chain order (owned; wins, when asked for)
    int64_t n_last_moves


cdef struct Witness:
    # Up to two chains, each from the colour's first side to its second side.
    int32_t* chain[2]
    int64_t length[2]
    uint8_t colour[2]
    int n_chains


cdef void witness_free(Witness* w) noexcept nogil:
    free(w.chain[0])
    free(w.chain[1])
    w.chain[0] = NULL
    w.chain[1] = NULL
    w.n_chains = 0


# --------------------------------------------------------------------------
# Kernels
#
# Every loop that can run over a whole board polls ``cancelled()`` (every
# POLL_ROWS rows, or POLL_STEPS search steps) and stops early once it is set:
# the result is then meaningless, and discarded by the caller.  Polling
# every row would be a measurable cost on small boards.
# --------------------------------------------------------------------------

cdef enum:
    POLL_STEPS = 1 << 12
    POLL_ROWS = 1 << 6

cdef inline void set_offsets(int64_t* offset, int64_t n) noexcept nogil:
    cdef int64_t w = n + 1
    offset[0] = -w
    offset[1] = -w + 1
    offset[2] = -1
    offset[3] = 1
    offset[4] = w - 1
    offset[5] = w


cdef inline int64_t first_side_cell(uint8_t colour, int64_t n, int64_t k) noexcept nogil:
    """The k-th cell of the colour's first side: row 0 for Red, column 0 for Blue."""
    if colour == RED:
        return n + 1 + k
    return (k + 1) * (n + 1)


cdef void count_stones(const uint8_t* b, int64_t n, int64_t* counts) noexcept nogil:
    """Stones of each colour.  Branch-free over bytes (the compiler vectorizes
    it), so a board that fails the counts never pays for the union-find."""
    cdef int64_t w = n + 1
    cdef int64_t i, j
    cdef uint32_t codes, stones
    cdef const uint8_t* row
    counts[0] = 0
    counts[1] = 0
    counts[2] = 0
    for i in range(n):
        if (i & (POLL_ROWS - 1)) == 0 and cancelled():
            return
        row = b + (i + 1) * w
        codes = 0       # red + 2 * blue; N <= MAX_BOARD_SIZE keeps 2 * N in range
        stones = 0
        for j in range(n):
            codes += row[j] & COLOUR
            stones += (row[j] & COLOUR) != 0
        counts[BLUE] += codes - stones
        counts[RED] += 2 * stones - codes


cdef void join_sides(const uint8_t* b, int64_t n, int32_t* parent,
                     bint* red_joined, bint* blue_joined) noexcept nogil:
    """For each colour, whether a chain of its stones joins its two sides.

    One pass of union-find over the stones.  Only the neighbours already
    scanned are joined: up, up-right and left.  Up and up-right touch each
    other, and so do left and up, so one union per stone usually suffices.
    The two sides of each colour are virtual nodes kept in padding bytes that
    never hold a stone.
    """
    cdef int64_t w = n + 1
    cdef int64_t cells = board_cells(n)
    cdef int32_t red_top = 0
    cdef int32_t red_bottom = <int32_t>(cells - 1)
    cdef int32_t blue_left = <int32_t>(w - 1)
    cdef int32_t blue_right = <int32_t>(cells - w)
    cdef int64_t i, p, end
    cdef int32_t root = -1, other
    cdef uint8_t c
    parent[red_top] = -1
    parent[red_bottom] = -1
    parent[blue_left] = -1
    parent[blue_right] = -1
    for i in range(n):
        if (i & (POLL_ROWS - 1)) == 0 and cancelled():
            break
        p = (i + 1) * w
        end = p + n
        while p < end:
            c = b[p] & COLOUR
            if c:
                # The new stone is a singleton: hang it under its first
                # neighbour's root instead of a full union.  The left
                # neighbour's root is still ``root`` from the previous step.
                if (b[p - 1] & COLOUR) == c:
                    if (b[p - w] & COLOUR) != c and (b[p - w + 1] & COLOUR) == c:
                        other = uf_find(parent, <int32_t>(p - w + 1))
                        if other != root:
                            root = uf_link(parent, root, other)
                elif (b[p - w] & COLOUR) == c:
                    root = uf_find(parent, <int32_t>(p - w))
                elif (b[p - w + 1] & COLOUR) == c:
                    root = uf_find(parent, <int32_t>(p - w + 1))
                else:
                    parent[p] = -1
                    root = <int32_t>p
                    p += 1
                    continue
                parent[root] -= 1
                parent[p] = root
            p += 1
    # The sides (a corner cell lies on both of its sides).
    for i in range(n):
        p = w + i
        if (b[p] & COLOUR) == RED:
            uf_union(parent, <int32_t>p, red_top)
        p = n * w + i
        if (b[p] & COLOUR) == RED:
            uf_union(parent, <int32_t>p, red_bottom)
        p = (i + 1) * w
        if (b[p] & COLOUR) == BLUE:
            uf_union(parent, <int32_t>p, blue_left)
        p = (i + 1) * w + n - 1
        if (b[p] & COLOUR) == BLUE:
            uf_union(parent, <int32_t>p, blue_right)
    red_joined[0] = uf_find(parent, red_top) == uf_find(parent, red_bottom)
    blue_joined[0] = uf_find(parent, blue_left) == uf_find(parent, blue_right)


cdef int start_verdict(const uint8_t* b, int64_t n, Scratch* s, CaseResult* out,
                       int64_t* counts) noexcept nogil:
    """The checks both verdict paths begin with: room, and the stone counts.
    -1 when memory ran out, 0 when the counts decide (Impossible), else 1."""
    out.status = IMPOSSIBLE
    out.reason = REASON_NONE
    out.last_moves = NULL
    out.n_last_moves = 0
    if not scratch_reserve(s, board_cells(n)):
        return -1
    count_stones(b, n, counts)
    out.red = counts[RED]
    out.blue = counts[BLUE]
    if counts[RED] - counts[BLUE] > 1 or counts[BLUE] - counts[RED] > 1:
        out.reason = REASON_COUNTS
        return 0
    return 1
