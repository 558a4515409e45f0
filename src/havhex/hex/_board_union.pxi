# The board's union-find, compiled into hex/_board.pyx and the search,
# hex/_search.pyx (included there): the cell geometry, the move records and
# the nogil kernels that place a stone and join its groups, logging every
# parent write for undo, and take it back.

# A root's parent entry is minus (size * 4 + sides): bit 0 says the set
# touches its colour's first side (top row, left column), bit 1 its second.
cdef enum:
    FIRST_SIDE = 1
    SECOND_SIDE = 2
    BOTH_SIDES = 3
    SIZE_UNIT = 4


# Parent writes one move may log: three unions (a cell touches at most three
# separate groups of its colour) of two writes each, and a swap's reset.
cdef enum:
    LOG_PER_MOVE = 8


cdef inline uint64_t stone_key(int32_t cell, uint8_t colour) noexcept nogil:
    return splitmix64_mix((<uint64_t>cell << 2) | colour)


cdef struct Record:
    int32_t cell          # the stone placed; for swap-pieces the first stone's cell
    int32_t log_start     # where the move's parent writes begin in the log
    int32_t kind


cdef struct LogEntry:
    int32_t index
    int32_t old


cdef inline int32_t join_roots(int32_t* parent, LogEntry* log, int32_t* used,
                               int32_t root_a, int32_t root_b) noexcept nogil:
    """Union by size of two distinct roots, logging the two parent writes;
    returns the new root, which holds both sets' sides."""
    cdef int32_t larger, smaller
    cdef int32_t a = -parent[root_a], b = -parent[root_b]
    if a >= b:
        larger = root_a
        smaller = root_b
    else:
        larger = root_b
        smaller = root_a
    log[used[0]].index = smaller
    log[used[0]].old = parent[smaller]
    log[used[0] + 1].index = larger
    log[used[0] + 1].old = parent[larger]
    used[0] += 2
    parent[larger] = -(((a | b) & BOTH_SIDES) + ((a >> 2) + (b >> 2)) * SIZE_UNIT)
    parent[smaller] = larger
    return larger


cdef struct Geometry:
    int32_t rows
    int32_t cols
    int32_t width         # cols + 1
    int32_t padded
    int32_t offset[6]


cdef inline void geometry_set(Geometry* g, int32_t rows, int32_t cols) noexcept nogil:
    """A board of ``rows`` x ``cols`` laid out row by row with a padding
    column and a padding row above and below (the live board's layout,
    which the search copies)."""
    cdef int32_t w = cols + 1
    g.rows = rows
    g.cols = cols
    g.width = w
    g.padded = (rows + 2) * w + 1
    # In order around the cell: each neighbour touches the next one.
    g.offset[0] = -w
    g.offset[1] = -w + 1
    g.offset[2] = 1
    g.offset[3] = w
    g.offset[4] = w - 1
    g.offset[5] = -1


cdef inline int32_t cell_sides(const Geometry* g, int32_t row, int32_t col,
                               uint8_t colour) noexcept nogil:
    """The sides of ``colour`` (FIRST_SIDE, SECOND_SIDE bits) a stone of
    it on (row, col) touches."""
    if colour == RED:
        return (FIRST_SIDE if row == 0 else 0) | (SECOND_SIDE if row == g.rows - 1 else 0)
    return (FIRST_SIDE if col == 0 else 0) | (SECOND_SIDE if col == g.cols - 1 else 0)


# The index of the lowest set bit of a 6-bit mask (portable, one load).
cdef uint8_t LOWEST_BIT[64]
LOWEST_BIT[0] = 0
for _mask in range(1, 64):
    LOWEST_BIT[_mask] = (_mask & -_mask).bit_length() - 1


cdef inline bint place_stone(const Geometry* g, uint8_t* stones, int32_t* parent,
                             LogEntry* log, int32_t* used, int32_t cell, int32_t row,
                             int32_t col, uint8_t colour) noexcept nogil:
    """Put a stone on an empty cell and join it to its groups; returns
    whether its group now touches both of the colour's sides (a win)."""
    cdef int k
    cdef int32_t root = cell, other
    cdef int32_t sides = cell_sides(g, row, col, colour)
    cdef uint32_t same = 0, starts
    for k in range(6):
        same |= (<uint32_t>(stones[cell + g.offset[k]] == colour)) << k
    stones[cell] = colour
    parent[cell] = -(SIZE_UNIT + sides)
    # Neighbours next to each other around the cell touch, so a run of the
    # colour's stones around it is one group: one find per run, at the
    # run's first stone (the one whose predecessor around the cell is not
    # the colour's; neighbour 0 when all six are).  The mask, not a branch
    # per neighbour: each neighbour is a coin toss a branch would often
    # mispredict.
    starts = run_starts(same)
    while starts:
        k = LOWEST_BIT[starts]
        starts &= starts - 1
        other = uf_root(parent, cell + g.offset[k])
        if other != root:
            root = join_roots(parent, log, used, root, other)
    return ((-parent[root]) & BOTH_SIDES) == BOTH_SIDES


cdef inline bint stone_would_win(const Geometry* g, const uint8_t* stones, const int32_t* parent,
                                 int32_t cell, uint8_t colour) noexcept nogil:
    """Whether a stone of ``colour`` on the empty ``cell`` would win, asked
    without placing it: the sides its own cell and its neighbours' groups
    touch are the ones place_stone's joined group would hold."""
    cdef int32_t row = cell // g.width - 1
    cdef int32_t sides = cell_sides(g, row, cell - (row + 1) * g.width, colour)
    cdef int k
    for k in range(6):
        if stones[cell + g.offset[k]] == colour:
            sides |= (-parent[uf_root(parent, cell + g.offset[k])]) & BOTH_SIDES
    return sides == BOTH_SIDES


cdef inline void take_back_writes(int32_t* parent, const LogEntry* log, int32_t* used,
                                  int32_t start) noexcept nogil:
    """Undo the parent writes logged since ``start``, latest first."""
    cdef int32_t k = used[0]
    while k > start:
        k -= 1
        parent[log[k].index] = log[k].old
    used[0] = start
