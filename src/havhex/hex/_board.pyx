# cython: language_level=3
"""The live Hex board: two players, move by move, with undo and playouts.

Layout (the judge's, for rows x cols): one byte per cell, row stride
W = cols + 1, one empty padding row above and one below, so cell (i, j) sits
at (i + 1) * W + j and the byte after each row separates it from the next.
Every neighbour of a real cell is then a valid index and an off-board
neighbour reads as empty: the neighbours of (i, j) are (i-1, j), (i-1, j+1),
(i, j-1), (i, j+1), (i+1, j-1), (i+1, j), the offsets -W, -W+1, -1, +1,
W-1, +W (kept in the order around the cell: -W, -W+1, +1, +W, W-1, -1).

Connection: a union-find over the padded cells whose roots also record
which of their colour's two sides the set touches (bits beside the size), so
a move has won when its stone's set touches both.  Undo must restore the
forest exactly, and path compression rewrites parents no undo could trace
back, so the forest uses union by size alone (depth at most log2 of the
stones) and every parent write goes to a log of (index, old value) pairs:
undoing a move replays its part of the log backwards.  A move joins at most
three groups (two log entries each), a few stores beside the finds.

Playouts do not use the union-find: a Hex game cannot end in a draw and
filling more cells never undoes a connection, so the winner of a game
continued by uniformly random moves is the winner of the board filled by a
uniformly random split of the empty cells (the mover's share first), which
one flood fill from the top row decides.
"""
from cpython.exc cimport PyErr_CheckSignals
from cpython.long cimport PyLong_AsLongAndOverflow
from libc.stdint cimport int32_t, int64_t, uint8_t, uint32_t, uint64_t
from libc.stdlib cimport free, malloc, realloc
from libc.string cimport memcmp, memcpy, memset

from havhex._native.record_moves cimport *
from havhex._native.random cimport Xoshiro, splitmix64_mix, random_below, xoshiro_seed
from havhex._native.unionfind cimport uf_root
from havhex.hex._cells cimport BLUE, EMPTY, RED

from havhex.errors import InputError

# The players by their codes 1 and 2 (cell bytes, to_array values); Red
# moves first and joins top and bottom.
PLAYERS = ("red", "blue")
SWAP_PIECES = "swap-pieces"
SWAP_SIDES = "swap-sides"
cdef tuple _CHAIN = ("chain",)
cdef tuple _NOTHING = ()
STRUCTURES = _CHAIN

cdef enum:
    VISITED = 3           # a playout's flood fill marks its cells so

cdef enum:
    MOVE_CELL = 0
    MOVE_SWAP_PIECES = 1
    MOVE_SWAP_SIDES = 2

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

# Room a copy leaves for further moves before it must grow.
cdef enum:
    SPARE_MOVES = 4

# Indices are int32 and a root keeps four times its set's size (plus the
# sides) in one: the padded cells stay below this.
MAX_CELLS = 1 << 29

# Hash keys: a cell's key mixes its padded index and colour; the mover and
# the exchanged sides have keys of their own.
cdef uint64_t BLUE_TO_MOVE_KEY = splitmix64_mix(<uint64_t>0x243F6A8885A308D3)
cdef uint64_t SIDES_SWAPPED_KEY = splitmix64_mix(<uint64_t>0x13198A2E03707344)


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
    cdef int32_t sides
    if colour == RED:
        sides = (FIRST_SIDE if row == 0 else 0) | (SECOND_SIDE if row == g.rows - 1 else 0)
    else:
        sides = (FIRST_SIDE if col == 0 else 0) | (SECOND_SIDE if col == g.cols - 1 else 0)
    cdef uint32_t same = 0, starts
    for k in range(6):
        same |= (<uint32_t>(stones[cell + g.offset[k]] == colour)) << k
    stones[cell] = colour
    parent[cell] = -(SIZE_UNIT + sides)
    # Neighbours next to each other around the cell touch, so a run of the
    # colour's stones around it is one group: one find per run, at the
    # run's first stone (the one whose predecessor around the cell is not
    # the colour's).  The mask, not a branch per neighbour: each neighbour
    # is a coin toss a branch would often mispredict.
    starts = same & ~(((same << 1) | (same >> 5)) & 0x3F)
    if same == 0x3F:
        starts = 1                  # one run all around, with no first stone
    while starts:
        k = LOWEST_BIT[starts]
        starts &= starts - 1
        other = uf_root(parent, cell + g.offset[k])
        if other != root:
            root = join_roots(parent, log, used, root, other)
    return ((-parent[root]) & BOTH_SIDES) == BOTH_SIDES


# --------------------------------------------------------------------------
# Playouts
# --------------------------------------------------------------------------

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


cdef int playout_range(const Geometry* g, const PlayoutStart* start, uint64_t seed,
                       int64_t first, int64_t end, int64_t* red_wins) noexcept nogil:
    """Playouts first..end-1 of a run, each on its own stream of the seed;
    adds Red's wins.  Returns -1 when out of memory."""
    cdef PlayoutScratch scratch
    cdef Xoshiro rng
    cdef int64_t i
    scratch.stones = <uint8_t*>malloc(g.padded)
    scratch.order = <int32_t*>malloc((start.n_empty + 1) * sizeof(int32_t))
    scratch.stack = <int32_t*>malloc(g.padded * sizeof(int32_t))
    if scratch.stones == NULL or scratch.order == NULL or scratch.stack == NULL:
        free(scratch.stones)
        free(scratch.order)
        free(scratch.stack)
        return -1
    for i in range(first, end):
        xoshiro_seed(&rng, seed, <uint64_t>i)
        if playout(g, start, &scratch, &rng) == RED:
            red_wins[0] += 1
    free(scratch.stones)
    free(scratch.order)
    free(scratch.stack)
    return 0


# --------------------------------------------------------------------------
# The witness of a win
# --------------------------------------------------------------------------

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


cdef inline int32_t* _cells_block(int32_t padded) noexcept:
    """One block for the parents and, after them, the stones: a copy
    allocates and copies it at once."""
    return <int32_t*>malloc(padded * (sizeof(int32_t) + 1))


cdef class Board:
    """A Hex board for two players, played move by move.

    >>> from havhex.hex import Board
    >>> board = Board(2)
    >>> board.play((0, 0)), board.play((0, 1)), board.play((1, 0))
    ((), (), ('chain',))
    >>> board.winner, board.winning_move
    ('red', 2)

    ``Board(rows, cols=None, swap=False)``: cells are ``(row, col)``,
    0-based, as the judge writes them, with its neighbours; Red (SGF's
    Black) moves first and joins the top row to the bottom row, Blue the left
    column to the right column.  ``play`` returns ``("chain",)`` for the
    winning move and ``()`` otherwise; a move off the board, on a stone,
    after the end or a swap out of turn raises :class:`havhex.InputError`
    and changes nothing.

    With ``swap=True`` Blue's first move may instead be one of the two pie
    rules of the SGF Hex specification, as separate moves:

    * ``"swap-pieces"``: Red's stone leaves ``(i, j)`` and a blue stone goes
      on its mirror image in the long diagonal, ``(j, i)`` (legal when that
      cell is on the board); Red moves next.  Colours stay with the players.
    * ``"swap-sides"``: the players exchange colours.  The stones are
      unchanged and it is again Blue's turn, but Blue is now the first
      player and Red the second.  Everything the board says is by colour:
      ``to_move``, the stones of :meth:`to_array` and ``winner`` name
      colours, and :attr:`sides_swapped` says that Red's owner is the
      second player (so ``winner == "red"`` then means the second player
      won).  The hash and ``==`` include :attr:`sides_swapped`.

    ``undo`` takes moves back down to the start; equal positions compare
    equal and hash equal whatever the moves behind them.  ``legal_moves``
    lists the empty cells in row-major order, then the swaps allowed.
    ``playout``/``playouts`` play uniformly random legal moves to the end in
    compiled code (no draws in Hex).
    """

    cdef Geometry g
    cdef uint8_t* stones
    cdef int32_t* parent
    cdef Record* records
    cdef int32_t n_moves, records_capacity
    cdef LogEntry* log
    cdef int32_t log_used, log_capacity
    cdef uint8_t mover, winner_code
    cdef int32_t winning_index
    cdef bint swap_allowed, swapped_sides
    cdef int32_t red_count, blue_count
    cdef uint64_t position_hash
    cdef int32_t base_red_cell        # the one red stone of a from_array start, else -1
    cdef object base                  # from_array's stones (bytes, rows*cols) or None
    cdef uint8_t base_mover

    def __cinit__(self):
        # A board made by __new__ alone is an empty 0 x 0 board until
        # __init__ (or a copy) gives it cells.
        self.stones = NULL
        self.parent = NULL
        self.records = NULL
        self.log = NULL
        self.mover = RED
        self.base_mover = RED
        self.winning_index = -1
        self.base_red_cell = -1

    def __dealloc__(self):
        free(self.parent)               # the stones share its block
        free(self.records)
        free(self.log)

    def __init__(self, rows, cols=None, swap=False):
        """An empty ``rows`` x ``cols`` board (``cols`` defaults to ``rows``);
        Red moves first.  ``swap=True`` lets Blue's first move be
        ``"swap-pieces"`` or ``"swap-sides"`` (see :class:`havhex.hex.Board`)."""
        if cols is None:
            cols = rows
        for name, value in (("rows", rows), ("cols", cols)):
            if isinstance(value, bool) or not hasattr(type(value), "__index__"):
                raise TypeError(f"{name} must be an int, not {type(value).__name__}")
        rows = rows.__index__()
        cols = cols.__index__()
        if rows < 1 or cols < 1:
            raise InputError(f"a Hex board has at least 1 row and 1 column, not {rows} x {cols}")
        if (rows + 2) * (cols + 1) + 4 > MAX_CELLS:
            raise InputError(f"a {rows} x {cols} Hex board is too large "
                             f"(at most {MAX_CELLS} padded cells)")
        if not isinstance(swap, bool):
            raise TypeError(f"swap must be True or False, not {type(swap).__name__}")
        self._allocate(rows, cols, 16)
        self.swap_allowed = swap
        self._reset()

    cdef int _allocate(self, int32_t rows, int32_t cols, int32_t moves) except -1:
        cdef int32_t w = cols + 1
        self.g.rows = rows
        self.g.cols = cols
        self.g.width = w
        self.g.padded = (rows + 2) * w + 1
        # In order around the cell: each neighbour touches the next one.
        self.g.offset[0] = -w
        self.g.offset[1] = -w + 1
        self.g.offset[2] = 1
        self.g.offset[3] = w
        self.g.offset[4] = w - 1
        self.g.offset[5] = -1
        free(self.parent)
        free(self.records)
        free(self.log)
        self.parent = _cells_block(self.g.padded)
        self.stones = <uint8_t*>(self.parent + self.g.padded) if self.parent != NULL else NULL
        self.records_capacity = moves
        self.records = <Record*>malloc(moves * sizeof(Record))
        self.log_capacity = LOG_PER_MOVE * moves
        self.log = <LogEntry*>malloc(self.log_capacity * sizeof(LogEntry))
        if self.stones == NULL or self.parent == NULL or self.records == NULL or self.log == NULL:
            raise MemoryError()
        return 0

    cdef void _reset(self) noexcept:
        memset(self.stones, 0, self.g.padded)
        self.n_moves = 0
        self.log_used = 0
        self.mover = RED
        self.winner_code = EMPTY
        self.winning_index = -1
        self.swapped_sides = False
        self.red_count = 0
        self.blue_count = 0
        self.position_hash = 0
        self.base_red_cell = -1
        self.base = None
        self.base_mover = RED

    cdef int _reserve(self) except -1:
        """Room for one more move in the records and the log."""
        cdef int32_t capacity
        cdef void* grown
        if self.n_moves == self.records_capacity:
            capacity = 2 * self.records_capacity
            grown = realloc(self.records, capacity * sizeof(Record))
            if grown == NULL:
                raise MemoryError()
            self.records = <Record*>grown
            self.records_capacity = capacity
        if self.log_used + LOG_PER_MOVE > self.log_capacity:
            capacity = 2 * self.log_capacity
            grown = realloc(self.log, capacity * sizeof(LogEntry))
            if grown == NULL:
                raise MemoryError()
            self.log = <LogEntry*>grown
            self.log_capacity = capacity
        return 0

    # ------------------------------------------------------------------
    # Moves
    # ------------------------------------------------------------------

    cdef int32_t _swap_cell(self) noexcept:
        """The first stone when a swap is a legal move now, else -1: the
        option is on, the game goes on, the board holds one red stone and
        nothing else, Blue moves and the sides have not been exchanged."""
        if not self.swap_allowed or self.winner_code or self.red_count != 1 \
                or self.blue_count or self.mover != BLUE or self.swapped_sides:
            return -1
        if self.n_moves:
            return self.records[self.n_moves - 1].cell
        return self.base_red_cell

    cdef int32_t _mirror(self, int32_t cell) noexcept:
        """The cell's mirror in the long diagonal, (i, j) -> (j, i), or -1
        when it is off the board (a board with more rows than columns, or
        fewer)."""
        cdef int32_t row = cell // self.g.width - 1
        cdef int32_t col = cell - (row + 1) * self.g.width
        if col >= self.g.rows or row >= self.g.cols:
            return -1
        return (col + 1) * self.g.width + row

    cdef tuple _cell_of(self, int32_t cell):
        cdef int32_t row = cell // self.g.width - 1
        return (row, cell - (row + 1) * self.g.width)

    cdef object _move_of(self, int32_t index):
        cdef Record* record = &self.records[index]
        if record.kind == MOVE_CELL:
            return self._cell_of(record.cell)
        return SWAP_PIECES if record.kind == MOVE_SWAP_PIECES else SWAP_SIDES

    cdef int _over(self) except -1:
        if self.winner_code:
            if self.winning_index >= 0:
                raise InputError(f"the game is over: {PLAYERS[self.winner_code - 1]} won "
                                 f"in move {self.winning_index + 1}")
            raise InputError(f"the game is over: {PLAYERS[self.winner_code - 1]} has won")
        return 0

    def play(self, move):
        """Play ``move``, a cell ``(row, col)`` or (with ``swap=True``, as
        Blue's first move) ``"swap-pieces"`` or ``"swap-sides"``, for the
        player to move; returns ``("chain",)`` when it wins, else ``()``."""
        cdef Py_ssize_t row, col
        cdef int32_t cell
        if type(move) is tuple and len(<tuple>move) == 2:
            first = (<tuple>move)[0]
            second = (<tuple>move)[1]
        elif isinstance(move, str):
            return self._play_swap(move)
        elif isinstance(move, (tuple, list)) and len(move) == 2:
            first, second = move
        else:
            raise TypeError(f"a move is a cell (row, col) or a swap, not {_shown(move)}")
        row = _coordinate(first, "row")
        col = _coordinate(second, "col")
        if not (0 <= row < self.g.rows and 0 <= col < self.g.cols):
            raise InputError(f"({row}, {col}) is off the {self.g.rows} x {self.g.cols} board")
        if self.winner_code:
            self._over()
        cell = <int32_t>((row + 1) * self.g.width + col)
        if self.stones[cell]:
            raise InputError(f"({row}, {col}) is taken by {PLAYERS[self.stones[cell] - 1]}")
        return _CHAIN if self._place(cell, <int32_t>row, <int32_t>col) else _NOTHING

    cdef int _place(self, int32_t cell, int32_t row, int32_t col) except -1:
        """The mover's stone on the empty ``cell`` of a game not over; 1 when
        it wins."""
        cdef uint8_t colour = self.mover
        cdef bint won
        if self.n_moves == self.records_capacity or \
                self.log_used + LOG_PER_MOVE > self.log_capacity:
            self._reserve()
        self.records[self.n_moves].cell = cell
        self.records[self.n_moves].log_start = self.log_used
        self.records[self.n_moves].kind = MOVE_CELL
        won = place_stone(&self.g, self.stones, self.parent, self.log, &self.log_used,
                          cell, row, col, colour)
        self.n_moves += 1
        self.mover = RED + BLUE - colour
        self.position_hash ^= stone_key(cell, colour) ^ BLUE_TO_MOVE_KEY
        if colour == RED:
            self.red_count += 1
        else:
            self.blue_count += 1
        if won:
            self.winner_code = colour
            self.winning_index = self.n_moves - 1
            return 1
        return 0

    def _replay(self, const int32_t[:, ::1] rows, Py_ssize_t first=0):
        """Plays a record's moves (rows of colour 1 = B = red, 2 = W = blue,
        kind, row, col, as havhex.records' reader gives them) from row
        ``first`` until one wins, one cannot be played, or a resignation or
        forfeit; returns ``(row reached, outcome, reason)``: outcome 0 all
        played, 1 the row won, 2 the row is illegal (reason: REPLAY_*), 3 the
        row ends the game (resign, forfeit)."""
        cdef Py_ssize_t k, n = rows.shape[0]
        cdef int32_t kind, row, col, cell
        if rows.shape[1] != 4:
            raise ValueError("rows of four int32")
        for k in range(first, n):
            kind = rows[k, 1]
            if self.winner_code:
                return k, 2, REPLAY_OVER
            if kind == SGF_CELL:
                if rows[k, 0] != self.mover:
                    return k, 2, REPLAY_OUT_OF_TURN
                row = rows[k, 2]
                col = rows[k, 3]
                if not (0 <= row < self.g.rows and 0 <= col < self.g.cols):
                    return k, 2, REPLAY_OFF_BOARD
                cell = (row + 1) * self.g.width + col
                if self.stones[cell]:
                    return k, 2, REPLAY_OCCUPIED
                if self._place(cell, row, col):
                    return k, 1, 0
            elif kind == SGF_SWAP_PIECES or kind == SGF_SWAP_SIDES:
                if rows[k, 0] != self.mover:
                    return k, 2, REPLAY_OUT_OF_TURN
                try:
                    won = self._play_swap(SWAP_PIECES if kind == SGF_SWAP_PIECES else SWAP_SIDES)
                except InputError:
                    return k, 2, REPLAY_SWAP_NOT_ALLOWED
                if won:
                    return k, 1, 0
            elif kind == SGF_RESIGN or kind == SGF_FORFEIT:
                return k, 3, 0
            elif kind == SGF_OFF_BOARD:
                return k, 2, REPLAY_OFF_BOARD
            elif kind == SGF_PASS:
                return k, 2, REPLAY_PASS
            elif kind == SGF_SWAP:
                return k, 2, REPLAY_NOT_THIS_GAME
            else:
                return k, 2, REPLAY_UNREADABLE
        return n, 0, 0

    cdef object _play_swap(self, str move):
        cdef int32_t cell, mirror, row
        cdef Record* record
        cdef bint won
        if move != SWAP_PIECES and move != SWAP_SIDES:
            raise InputError(f"the moves that are not cells are {SWAP_PIECES!r} and "
                             f"{SWAP_SIDES!r}, not {move!r}")
        self._over()
        if not self.swap_allowed:
            raise InputError(f"{move} is not allowed: this board was made with swap=False")
        cell = self._swap_cell()
        if cell < 0:
            raise InputError(f"{move} is allowed only as Blue's reply to Red's first stone")
        mirror = self._mirror(cell)
        if move == SWAP_PIECES and mirror < 0:
            raise InputError(f"swap-pieces would put the stone on {self._cell_of(cell)[::-1]}, "
                             f"off the {self.g.rows} x {self.g.cols} board")
        self._reserve()
        record = &self.records[self.n_moves]
        record.cell = cell
        record.log_start = self.log_used
        if move == SWAP_SIDES:
            record.kind = MOVE_SWAP_SIDES
            self.swapped_sides = True
            self.position_hash ^= SIDES_SWAPPED_KEY
            self.n_moves += 1
            return _NOTHING
        record.kind = MOVE_SWAP_PIECES
        # The red stone leaves (its entry logged, for undo: the blue stone
        # may go on the same cell).
        self.log[self.log_used].index = cell
        self.log[self.log_used].old = self.parent[cell]
        self.log_used += 1
        self.stones[cell] = EMPTY
        row = mirror // self.g.width - 1
        won = place_stone(&self.g, self.stones, self.parent, self.log, &self.log_used,
                          mirror, <int32_t>row, mirror - (<int32_t>row + 1) * self.g.width, BLUE)
        self.n_moves += 1
        self.red_count = 0
        self.blue_count = 1
        self.mover = RED
        self.position_hash ^= stone_key(cell, RED) ^ stone_key(mirror, BLUE) ^ BLUE_TO_MOVE_KEY
        if won:
            self.winner_code = BLUE
            self.winning_index = self.n_moves - 1
            return _CHAIN
        return _NOTHING

    def undo(self):
        """Take back the last move and return it; raises
        :class:`havhex.InputError` when no move is left to undo."""
        cdef int32_t index, k, cell, mirror
        cdef Record* record
        cdef uint8_t colour
        if self.n_moves == 0:
            raise InputError("there is no move to undo")
        index = self.n_moves - 1
        record = &self.records[index]
        move = self._move_of(index)
        k = self.log_used
        while k > record.log_start:
            k -= 1
            self.parent[self.log[k].index] = self.log[k].old
        self.log_used = record.log_start
        cell = record.cell
        if record.kind == MOVE_CELL:
            colour = self.stones[cell]
            self.stones[cell] = EMPTY
            self.mover = colour
            self.position_hash ^= stone_key(cell, colour) ^ BLUE_TO_MOVE_KEY
            if colour == RED:
                self.red_count -= 1
            else:
                self.blue_count -= 1
        elif record.kind == MOVE_SWAP_PIECES:
            mirror = self._mirror(cell)
            self.stones[mirror] = EMPTY
            self.stones[cell] = RED
            self.red_count = 1
            self.blue_count = 0
            self.mover = BLUE
            self.position_hash ^= stone_key(cell, RED) ^ stone_key(mirror, BLUE) ^ BLUE_TO_MOVE_KEY
        else:
            self.swapped_sides = False
            self.position_hash ^= SIDES_SWAPPED_KEY
        if self.winning_index == index:
            self.winner_code = EMPTY
            self.winning_index = -1
        self.n_moves = index
        return move

    # ------------------------------------------------------------------
    # State
    # ------------------------------------------------------------------

    @property
    def rows(self):
        return self.g.rows

    @property
    def cols(self):
        return self.g.cols

    @property
    def swap(self):
        """Whether Blue's first move may be a swap."""
        return self.swap_allowed

    @property
    def sides_swapped(self):
        """True after ``"swap-sides"``: the first player now holds Blue."""
        return self.swapped_sides

    @property
    def to_move(self):
        """The colour to move, ``"red"`` or ``"blue"`` (after the game has
        ended, the colour that would move next)."""
        return PLAYERS[self.mover - 1]

    @property
    def winner(self):
        """``"red"``, ``"blue"`` or None while nobody has won."""
        return PLAYERS[self.winner_code - 1] if self.winner_code else None

    @property
    def winning_move(self):
        """Index in :attr:`moves` of the move that won, or None (also for a
        win already on the array a board was made from)."""
        return self.winning_index if self.winning_index >= 0 else None

    @property
    def is_over(self):
        return self.winner_code != EMPTY

    @property
    def moves(self):
        """The moves played, in order: ``(row, col)`` tuples and swaps."""
        return tuple([self._move_of(k) for k in range(self.n_moves)])

    @property
    def hash(self):
        """The 64-bit Zobrist hash of the stones, the mover and whether the
        sides were exchanged (an int in [0, 2**64))."""
        return self.position_hash

    @property
    def stone_counts(self):
        """``(red stones, blue stones)`` on the board."""
        return (self.red_count, self.blue_count)

    def __len__(self):
        return self.n_moves

    def legal_moves(self):
        """The legal moves: the empty cells in row-major order, then
        ``"swap-pieces"`` (when the mirror cell is on the board) and
        ``"swap-sides"`` while a swap is allowed; empty once the game is over."""
        cdef int32_t row, col, base
        cdef list moves = []
        if self.winner_code:
            return moves
        for row in range(self.g.rows):
            base = (row + 1) * self.g.width
            for col in range(self.g.cols):
                if self.stones[base + col] == EMPTY:
                    moves.append((row, col))
        cell = self._swap_cell()
        if cell >= 0:
            if self._mirror(cell) >= 0:
                moves.append(SWAP_PIECES)
            moves.append(SWAP_SIDES)
        return moves

    def __repr__(self):
        cols = "" if self.g.cols == self.g.rows else f", {self.g.cols}"
        swap = ", swap=True" if self.swap_allowed else ""
        state = (f"{self.winner} won" if self.winner_code else f"{self.to_move} to move")
        return f"<havhex.hex.Board {self.g.rows}{cols}{swap}: {self.n_moves} moves, {state}>"

    # ------------------------------------------------------------------
    # Copies, comparison, pickling
    # ------------------------------------------------------------------

    def copy(self):
        """An independent copy (the arrays copied)."""
        cdef Board other
        if self.parent == NULL:
            raise TypeError("this Board was made without __init__")
        other = Board.__new__(Board)
        other.g = self.g
        other.records_capacity = self.n_moves + SPARE_MOVES
        other.log_capacity = self.log_used + LOG_PER_MOVE * SPARE_MOVES
        other.parent = _cells_block(self.g.padded)
        other.stones = <uint8_t*>(other.parent + self.g.padded) if other.parent != NULL else NULL
        other.records = <Record*>malloc(other.records_capacity * sizeof(Record))
        other.log = <LogEntry*>malloc(other.log_capacity * sizeof(LogEntry))
        if other.stones == NULL or other.parent == NULL or other.records == NULL \
                or other.log == NULL:
            raise MemoryError()
        memcpy(other.parent, self.parent, self.g.padded * (sizeof(int32_t) + 1))
        memcpy(other.records, self.records, self.n_moves * sizeof(Record))
        memcpy(other.log, self.log, self.log_used * sizeof(LogEntry))
        other.n_moves = self.n_moves
        other.log_used = self.log_used
        other.mover = self.mover
        other.winner_code = self.winner_code
        other.winning_index = self.winning_index
        other.swap_allowed = self.swap_allowed
        other.swapped_sides = self.swapped_sides
        other.red_count = self.red_count
        other.blue_count = self.blue_count
        other.position_hash = self.position_hash
        other.base_red_cell = self.base_red_cell
        other.base = self.base
        other.base_mover = self.base_mover
        return other

    def __copy__(self):
        return self.copy()

    def __deepcopy__(self, memo):
        return self.copy()

    def __eq__(self, other):
        """Same size, same swap option, same stones, same mover and the same
        sides (the moves that led there do not matter)."""
        cdef Board that
        if not isinstance(other, Board):
            return NotImplemented
        that = <Board>other
        return (self.g.rows == that.g.rows and self.g.cols == that.g.cols
                and self.swap_allowed == that.swap_allowed and self.mover == that.mover
                and self.swapped_sides == that.swapped_sides
                and self.position_hash == that.position_hash
                and memcmp(self.stones, that.stones, self.g.padded) == 0)

    def __ne__(self, other):
        equal = self.__eq__(other)
        return equal if equal is NotImplemented else not equal

    def __hash__(self):
        return <Py_ssize_t>self.position_hash

    def __reduce__(self):
        return (_rebuild, (self.g.rows, self.g.cols, self.swap_allowed, self.base,
                           PLAYERS[self.base_mover - 1], self.moves))

    # ------------------------------------------------------------------
    # Arrays
    # ------------------------------------------------------------------

    cdef bytes _cells(self):
        """The cells row by row, one byte each (0 empty, 1 red, 2 blue)."""
        cdef bytearray cells = bytearray(self.g.rows * self.g.cols)
        cdef uint8_t* out = cells
        cdef int32_t row
        for row in range(self.g.rows):
            memcpy(out + row * self.g.cols, self.stones + (row + 1) * self.g.width, self.g.cols)
        return bytes(cells)

    def to_array(self):
        """The stones as a NumPy ``int8`` array of shape (rows, cols): 0 empty,
        1 red, 2 blue."""
        numpy = _numpy()
        return numpy.frombuffer(bytearray(self._cells()), dtype=numpy.int8).reshape(
            self.g.rows, self.g.cols)

    def _rows_text(self):
        """The rows as the judge writes them (R, B, .)."""
        cells = self._cells().translate(_LETTERS)
        c = self.g.cols
        return [cells[k * c:(k + 1) * c].decode("ascii") for k in range(self.g.rows)]

    @classmethod
    def _from_cells(cls, int32_t rows, int32_t cols, bint swap, bytes cells, mover):
        """A board whose start is ``cells`` (rows*cols bytes 0/1/2, checked by
        the caller) with ``mover`` ("red", "blue" or None to infer) to move."""
        cdef Board board = Board.__new__(Board)
        cdef const uint8_t* data = cells
        cdef int32_t row, col, cell, red = 0, blue = 0, used
        cdef int64_t k
        cdef uint8_t winner = EMPTY
        for k in range(rows * cols):
            if data[k] == RED:
                red += 1
            elif data[k] == BLUE:
                blue += 1
        board._allocate(rows, cols, 16)
        board.swap_allowed = swap
        board._reset()
        # Stones join as they would in play; their log is not kept (they
        # cannot be undone), so it needs room for one stone at a time.
        for row in range(rows):
            for col in range(cols):
                k = row * cols + col
                if data[k]:
                    cell = (row + 1) * board.g.width + col
                    used = 0
                    if place_stone(&board.g, board.stones, board.parent, board.log, &used,
                                   cell, row, col, data[k]):
                        winner = data[k]
                    board.position_hash ^= stone_key(cell, data[k])
                    if data[k] == RED:
                        board.base_red_cell = cell
        board.red_count = red
        board.blue_count = blue
        # (Both colours never join their sides at once: no Hex board allows it.)
        counts = f"{red} red and {blue} blue stones"
        if mover is None:
            if winner:
                mover = PLAYERS[BLUE - winner]
            else:
                mover = "blue" if red == blue + 1 else "red"
        elif mover not in PLAYERS:
            raise InputError(f"to_move must be 'red' or 'blue', not {mover!r}")
        code = PLAYERS.index(mover) + 1
        # Red moves at equal counts and after swap-pieces with one stone
        # fewer; Blue one stone behind, and at equal counts after swap-pieces.
        if not (red == blue or (red == blue + 1 and code == BLUE)
                or (blue == red + 1 and code == RED)):
            raise InputError(f"{counts} cannot be reached with {mover} to move")
        if winner and code == winner:
            raise InputError(f"{PLAYERS[winner - 1]} has won, so {mover} cannot be to move")
        board.mover = code
        board.base_mover = code
        if code == BLUE:
            board.position_hash ^= BLUE_TO_MOVE_KEY
        board.winner_code = winner
        if red != 1 or blue:
            board.base_red_cell = -1
        board.base = cells
        return board

    @classmethod
    def from_array(cls, array, swap=False, to_move=None):
        """A board holding the stones of ``array`` (shape (rows, cols), 0
        empty, 1 red, 2 blue), with no moves behind it: :attr:`moves` is
        empty and :meth:`undo` cannot go below it.  ``to_move`` defaults to
        what the counts say: Blue when Red has one stone more, otherwise Red
        (Red also when Blue has one more, as after swap-pieces), and after
        a win the loser."""
        numpy = _numpy()
        if not isinstance(swap, bool):
            raise TypeError(f"swap must be True or False, not {type(swap).__name__}")
        values = numpy.asarray(array)
        if values.dtype.kind not in "iub":
            raise TypeError(f"a Hex board array holds integers 0, 1, 2, not {values.dtype}")
        if values.ndim != 2 or values.shape[0] < 1 or values.shape[1] < 1:
            raise InputError(f"a Hex board array has shape (rows, cols), not {values.shape}")
        rows, cols = values.shape
        if (rows + 2) * (cols + 1) + 4 > MAX_CELLS:
            raise InputError(f"a {rows} x {cols} Hex board is too large")
        if values.size and (values.min() < 0 or values.max() > 2):
            bad = values[(values < 0) | (values > 2)][0]
            raise InputError(f"a Hex board array holds 0 (empty), 1 (red) and 2 (blue), "
                             f"not {int(bad)}")
        cells = numpy.ascontiguousarray(values, dtype=numpy.uint8).tobytes()
        return cls._from_cells(rows, cols, swap, cells, to_move)

    # ------------------------------------------------------------------
    # Explanations and playouts
    # ------------------------------------------------------------------

    def _witness(self):
        """(winner code, chain cells, cells on every winning chain) by the
        compiled searches, or None before a win."""
        cdef uint8_t colour = self.winner_code
        cdef int32_t* queue
        cdef int32_t* came_from
        cdef int32_t end, cell, length, k
        if not colour:
            return None
        queue = <int32_t*>malloc(self.g.padded * sizeof(int32_t))
        came_from = <int32_t*>malloc(self.g.padded * sizeof(int32_t))
        if queue == NULL or came_from == NULL:
            free(queue)
            free(came_from)
            raise MemoryError()
        try:
            for k in range(self.g.padded):
                came_from[k] = -2
            end = shortest_chain(&self.g, self.stones, colour, -1, queue, came_from)
            chain = []
            cell = end
            while cell >= 0:
                chain.append(cell)
                cell = came_from[cell]
            chain.reverse()
            # A stone lies on every winning chain exactly when the sides come
            # apart without it; such a stone lies on any one chain.
            essential = []
            for cell in chain:
                for k in range(self.g.padded):
                    came_from[k] = -2
                if shortest_chain(&self.g, self.stones, colour, cell, queue, came_from) < 0:
                    essential.append(cell)
            return (colour, [self._cell_of(c) for c in chain],
                    [self._cell_of(c) for c in essential])
        finally:
            free(queue)
            free(came_from)

    def explain(self):
        """The witness of the win as the judge gives it, a
        :class:`havhex.Explanation` (``case`` None): the ``result`` (its
        ``last_moves`` the winner's stones that lie on every winning chain),
        the stone counts and one winning chain from the winner's first side
        (top row, left column) to its second; None before a win."""
        if not self.winner_code:
            return None
        from havhex.hex import _position as judge

        if self.g.rows == self.g.cols:
            explanation = judge.explain(self._rows_text())
            if explanation.result.winner == self.winner:
                return explanation
        # A board the judge cannot take (not square), or a start that no
        # game reaches (two separate winning chains): the board's own search.
        from havhex._explanation import Explanation

        colour, chain, essential = self._witness()
        winner = PLAYERS[colour - 1]
        result = judge.Result(f"{winner.capitalize()} wins", None,
                              frozenset(tuple(cell) for cell in essential))
        red, blue = self.stone_counts
        chains = ((winner, tuple(tuple(cell) for cell in chain)),)
        return Explanation._of("hex", result, None, (red, blue, chains))

    def draw(self, as_text=False, **options):
        """The board as SVG (or as text with ``as_text=True``) through
        :func:`havhex.draw.hex_svg` / :func:`havhex.draw.hex_text`, with the
        winning chain marked; ``options`` go to them (``heading=``).  The
        pictures are of square boards: another raises
        :class:`havhex.InputError`."""
        from havhex.hex import picture as draw

        if self.g.rows != self.g.cols:
            raise InputError(f"the pictures are of square boards (N x N); this one is "
                             f"{self.g.rows} x {self.g.cols}")

        explanation = self.explain() or {"answer": "Nobody wins"}
        function = draw.hex_text if as_text else draw.hex_svg
        return function(self._rows_text(), explanation, **options)

    def playout(self, seed):
        """The winner (``"red"`` or ``"blue"``) of this game continued by
        uniformly random legal moves (swaps included while allowed) under
        ``seed``; the board is unchanged.  Playout 0 of :meth:`playouts`."""
        return PLAYERS[0] if self._playouts(1, seed, 1) == 1 else PLAYERS[1]

    def playouts(self, n, seed, threads=1):
        """Red's and Blue's wins in ``n`` playouts from this position:
        ``{"red": wins, "blue": wins}``.  Playout i draws from its own stream
        of ``seed`` (any int), so the result does not depend on
        ``threads``; the work runs without the GIL."""
        for name, value in (("n", n), ("threads", threads)):
            if isinstance(value, bool) or not hasattr(type(value), "__index__"):
                raise TypeError(f"{name} must be an int, not {type(value).__name__}")
        n = n.__index__()
        threads = threads.__index__()
        if n < 0:
            raise ValueError(f"n must be at least 0, not {n}")
        if threads < 1:
            raise ValueError(f"threads must be at least 1, not {threads}")
        red = self._playouts(n, seed, threads)
        return {PLAYERS[0]: red, PLAYERS[1]: n - red}

    cdef int64_t _playouts(self, int64_t n, seed, int threads) except -1:
        cdef uint64_t seed_bits
        cdef int64_t red = 0
        cdef int status = 0
        cdef int64_t chunk, first
        cdef PlayoutStart start
        cdef int32_t row, col, cell, n_empty = 0
        cdef int32_t* empty
        if isinstance(seed, bool) or not hasattr(type(seed), "__index__"):
            raise TypeError(f"seed must be an int, not {type(seed).__name__}")
        seed_bits = seed.__index__() & 0xFFFFFFFFFFFFFFFF
        if self.winner_code:
            return n if self.winner_code == RED else 0
        if self.parent == NULL:
            raise TypeError("this Board was made without __init__")
        empty = <int32_t*>malloc((self.g.rows * self.g.cols + 1) * sizeof(int32_t))
        if empty == NULL:
            raise MemoryError()
        try:
            for row in range(self.g.rows):
                for col in range(self.g.cols):
                    cell = (row + 1) * self.g.width + col
                    if self.stones[cell] == EMPTY:
                        empty[n_empty] = cell
                        n_empty += 1
            start.stones = self.stones
            start.empty = empty
            start.n_empty = n_empty
            start.mover = self.mover
            start.swap_cell = self._swap_cell()
            start.swap_mirror = self._mirror(start.swap_cell) if start.swap_cell >= 0 else -1
            if threads > 1 and n > 1:
                return self._playouts_threaded(&start, n, seed_bits, threads)
            # Slices between which an interrupt is looked at.
            chunk = max(1, (1 << 22) // (n_empty + 16))
            first = 0
            while first < n and status == 0:
                with nogil:
                    status = playout_range(&self.g, &start, seed_bits, first,
                                           min(n, first + chunk), &red)
                first += chunk
                PyErr_CheckSignals()
            if status:
                raise MemoryError()
            return red
        finally:
            free(empty)

    cdef int64_t _playouts_threaded(self, PlayoutStart* start, int64_t n, uint64_t seed,
                                    int threads) except -1:
        cdef int64_t red = 0, per, extra, first = 0, end
        cdef int t
        cdef _Share share
        from havhex._threads import Worker

        workers = []
        shares = []
        if n < threads:
            threads = <int>n
        per = n // threads
        extra = n % threads
        for t in range(threads):
            end = first + per + (1 if t < extra else 0)
            share = _Share()
            share.g = self.g
            share.start = start[0]
            share.seed = seed
            share.first = first
            share.end = end
            shares.append(share)
            first = end
        try:
            for share in shares:
                worker = Worker(share.run)
                workers.append(worker)
                worker.start()
        finally:
            for worker in workers:
                worker.join()
        for worker in workers:
            worker.outcome()
        for share in shares:
            red += share.red
        return red


cdef class _Share:
    """One thread's playouts of a run."""
    cdef Geometry g
    cdef PlayoutStart start
    cdef uint64_t seed
    cdef int64_t first, end, red

    def run(self):
        cdef int status
        self.red = 0
        with nogil:
            status = playout_range(&self.g, &self.start, self.seed, self.first, self.end,
                                   &self.red)
        if status:
            raise MemoryError()


_LETTERS = bytes.maketrans(b"\x00\x01\x02", b".RB")


def _numpy():
    try:
        import numpy
    except ImportError:
        raise ImportError("havhex.hex.Board.to_array and from_array need NumPy "
                          "(pip install numpy)") from None
    return numpy


def _shown(value):
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


cdef inline Py_ssize_t _coordinate(value, str name) except? -1:
    """A coordinate as an integer; TypeError for anything but an integer (a
    bool is not one); a huge one comes back far off the board."""
    cdef int overflow = 0
    cdef long number
    if type(value) is int:
        number = PyLong_AsLongAndOverflow(value, &overflow)
        if overflow == 0:
            return number
    return _other_coordinate(value, name)


cdef Py_ssize_t _other_coordinate(value, str name) except? -1:
    """_coordinate's rare cases, out of line so that the common one inlines."""
    if type(value) is int:
        return (1 << 40) if value > 0 else -(1 << 40)
    if isinstance(value, bool) or not hasattr(type(value), "__index__"):
        raise TypeError(f"a cell's {name} must be an int, not {type(value).__name__}")
    value = value.__index__()
    if value > (1 << 40):
        return 1 << 40
    if value < -(1 << 40):
        return -(1 << 40)
    return value


def _rebuild(rows, cols, swap, base, base_to_move, moves):
    """Unpickling: the start, then the moves again."""
    if base is None:
        board = Board(rows, cols, swap)
    else:
        board = Board._from_cells(rows, cols, swap, base, base_to_move)
    for move in moves:
        board.play(move)
    return board
