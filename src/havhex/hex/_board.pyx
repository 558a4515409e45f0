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
cimport cython
from cpython.long cimport PyLong_AsLongAndOverflow
from cpython.object cimport Py_TYPE
from cpython.ref cimport PyObject
from libc.stdint cimport int32_t, int64_t, uint8_t, uint32_t, uint64_t
from libc.stdlib cimport free, malloc, realloc
from libc.string cimport memcmp, memcpy, memset

from havhex._native.record_moves cimport *
from havhex._native.move_names cimport SGF_HEX, cell_name, decode_name
from havhex._native.cancel cimport cancel_requested, request_cancel
from havhex._native.portable cimport fetch_add
from havhex._native.random cimport Xoshiro, splitmix64_mix, random_below, xoshiro_seed
from havhex._native.neighbours cimport run_starts
from havhex._native.unionfind cimport uf_root
from havhex.hex._cells cimport BLUE, EMPTY, RED

from havhex._checks import count, integer, worker_count
from havhex._threads import run_shared
from havhex.errors import InputError
from havhex.hex._names import PLAYERS

SWAP_PIECES = "swap-pieces"
SWAP_SIDES = "swap-sides"
cdef tuple _CHAIN = ("chain",)
cdef tuple _NOTHING = ()
STRUCTURES = _CHAIN

cdef enum:
    MOVE_CELL = 0
    MOVE_SWAP_PIECES = 1
    MOVE_SWAP_SIDES = 2

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


UNMADE = "this Board was made without __init__"


cdef int _unmade() except -1:
    """A board made by __new__ alone (or by a subclass that skips
    __init__) has no arrays: every entry point but repr refuses it."""
    raise TypeError(UNMADE)


cdef int _initialised_already() except -1:
    raise TypeError("this Board is initialised already: __init__ runs once per board")


include "_board_union.pxi"
include "_board_chain.pxi"


cdef inline int32_t* _cells_block(int32_t padded) noexcept:
    """One block for the parents and, after them, the stones: a copy
    allocates and copies it at once."""
    return <int32_t*>malloc(padded * (sizeof(int32_t) + 1))


cdef class PlayoutRun


# No cycle can pass through a board (its object fields hold bytes, tuples of
# ints or None): left out of the garbage collector, a copy costs no tracking.
@cython.no_gc
cdef class BoardCore:
    """The compiled part of :class:`havhex.hex.Board` (see there)."""

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
    cdef tuple cell_tuples            # the cells' tuples by action id, or None (made on first need)

    def __cinit__(self):
        # A board made by __new__ alone (or by a subclass that skips
        # __init__) has no arrays until __init__ (or a copy) gives it some;
        # until then every entry point but repr raises TypeError (_unmade).
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
        ``"swap-pieces"`` or ``"swap-sides"`` (see :class:`havhex.hex.Board`).
        Once per board: another call raises TypeError (threads may be
        using the arrays it would replace)."""
        if self.parent != NULL:
            _initialised_already()
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
        """The arrays of a board made by __new__, all at once: without
        memory, MemoryError leaves it as it was (made without __init__)."""
        cdef int32_t w = cols + 1
        cdef int32_t padded = (rows + 2) * w + 1
        cdef int32_t* parent
        cdef Record* records
        cdef LogEntry* log
        if self.parent != NULL:
            _initialised_already()
        parent = _cells_block(padded)
        records = <Record*>malloc(moves * sizeof(Record))
        log = <LogEntry*>malloc(LOG_PER_MOVE * moves * sizeof(LogEntry))
        if parent == NULL or records == NULL or log == NULL:
            free(parent)
            free(records)
            free(log)
            raise MemoryError(f"no memory for a {rows} x {cols} Hex board")
        geometry_set(&self.g, rows, cols)
        self.parent = parent
        self.stones = <uint8_t*>(parent + padded)
        self.records_capacity = moves
        self.records = records
        self.log_capacity = LOG_PER_MOVE * moves
        self.log = log
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
        if self.parent == NULL:
            _unmade()
        cdef Py_ssize_t row, col
        cdef int32_t cell
        if type(move) is tuple and len(<tuple>move) == 2:
            first = (<tuple>move)[0]
            second = (<tuple>move)[1]
        elif isinstance(move, str):
            if move == SWAP_PIECES or move == SWAP_SIDES:
                return self._play_swap(move)
            return self.play(self._named(move))
        elif isinstance(move, (tuple, list)) and len(move) == 2:
            first, second = move
        else:
            raise TypeError(f"a move is a cell (row, col), its name or a swap, not {_shown(move)}")
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

    cdef object _named(self, str name):
        """The move a name names: a cell in SGF Hex's notation (``"a1"`` is
        (0, 0), ``"c2"`` (1, 2): the column's letters, then the row from 1,
        as the records write them) or a swap."""
        cdef int32_t row = 0, col = 0
        cdef int kind = decode_name(name, SGF_HEX, self.g.rows, self.g.cols, &row, &col)
        if kind == SGF_CELL:
            return (row, col)
        if kind == SGF_SWAP_PIECES:
            return SWAP_PIECES
        if kind == SGF_SWAP_SIDES:
            return SWAP_SIDES
        if kind == SGF_OFF_BOARD:
            raise InputError(f"{name!r} is off the {self.g.rows} x {self.g.cols} board")
        raise InputError(f"a move is a cell such as 'a1' or {SWAP_PIECES!r} or "
                         f"{SWAP_SIDES!r}, not {_shown(name)}")

    def cell_name(self, move):
        """The name of ``move`` in the records' notation (SGF Hex's:
        ``(0, 0)`` is ``"a1"``); a swap's name is itself.  ``play`` takes
        either."""
        if self.parent == NULL:
            _unmade()
        if isinstance(move, str):
            move = self._named(move)
            if isinstance(move, str):
                return move
        elif not isinstance(move, (tuple, list)) or len(move) != 2:
            raise TypeError(f"a move is a cell (row, col), its name or a swap, not {_shown(move)}")
        row = _coordinate(move[0], "row")
        col = _coordinate(move[1], "col")
        if not (0 <= row < self.g.rows and 0 <= col < self.g.cols):
            raise InputError(f"({row}, {col}) is off the {self.g.rows} x {self.g.cols} board")
        return cell_name(SGF_HEX, 0, row, col)

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
        if self.parent == NULL:
            _unmade()
        cdef Py_ssize_t k, n = rows.shape[0]
        cdef int32_t kind, row, col, cell
        if rows.shape[1] != 4:
            raise ValueError("rows of four int32")
        if not 0 <= first <= n:
            raise InputError(f"first must be a row from 0 to {n}, got {first}")
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
        if self.parent == NULL:
            _unmade()
        cdef int32_t index, cell, mirror
        cdef Record* record
        cdef uint8_t colour
        if self.n_moves == 0:
            raise InputError("there is no move to undo")
        index = self.n_moves - 1
        record = &self.records[index]
        move = self._move_of(index)
        take_back_writes(self.parent, self.log, &self.log_used, record.log_start)
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
        if self.parent == NULL:
            _unmade()
        return self.g.rows

    @property
    def cols(self):
        if self.parent == NULL:
            _unmade()
        return self.g.cols

    @property
    def swap(self):
        """Whether Blue's first move may be a swap."""
        if self.parent == NULL:
            _unmade()
        return self.swap_allowed

    @property
    def sides_swapped(self):
        """True after ``"swap-sides"``: the first player now holds Blue."""
        if self.parent == NULL:
            _unmade()
        return self.swapped_sides

    @property
    def to_move(self):
        """The colour to move, ``"red"`` or ``"blue"`` (after the game has
        ended, the colour that would move next)."""
        if self.parent == NULL:
            _unmade()
        return PLAYERS[self.mover - 1]

    @property
    def winner(self):
        """``"red"``, ``"blue"`` or None while nobody has won."""
        if self.parent == NULL:
            _unmade()
        return PLAYERS[self.winner_code - 1] if self.winner_code else None

    @property
    def winning_move(self):
        """Index in :attr:`moves` of the move that won, or None (also for a
        win already on the array a board was made from)."""
        if self.parent == NULL:
            _unmade()
        return self.winning_index if self.winning_index >= 0 else None

    @property
    def is_over(self):
        if self.parent == NULL:
            _unmade()
        return self.winner_code != EMPTY

    @property
    def moves(self):
        """The moves played, in order: ``(row, col)`` tuples and swaps."""
        if self.parent == NULL:
            _unmade()
        return tuple([self._move_of(k) for k in range(self.n_moves)])

    @property
    def hash(self):
        """The 64-bit Zobrist hash of the stones, the mover and whether the
        sides were exchanged (an int in [0, 2**64))."""
        if self.parent == NULL:
            _unmade()
        return self.position_hash

    @property
    def stone_counts(self):
        """``(red stones, blue stones)`` on the board."""
        if self.parent == NULL:
            _unmade()
        return (self.red_count, self.blue_count)

    def __len__(self):
        if self.parent == NULL:
            _unmade()
        return self.n_moves

    def legal_moves(self):
        """The legal moves: the empty cells in row-major order, then
        ``"swap-pieces"`` (when the mirror cell is on the board) and
        ``"swap-sides"`` while a swap is allowed; empty once the game is over."""
        return board_legal_moves(self)

    # ---- action ids (the batches'; see _board_actions.pxi) ----

    @property
    def num_actions(self):
        """``rows * cols + 1``: the cells' action ids, then "swap-pieces"."""
        if self.parent == NULL:
            _unmade()
        return <Py_ssize_t>self.g.rows * self.g.cols + 1

    def play_action(self, action):
        """``play(move_of(action))``, without the move: the same answer, the same errors."""
        return board_play_action(self, action)

    def legal_actions(self):
        """The legal moves' action ids, ascending, as an ``array.array("i")``
        ("swap-sides" has none); empty once the game is over."""
        return board_legal_actions(self)

    def legal_mask(self):
        """A NumPy bool array of :attr:`num_actions`: True at each legal action."""
        return board_legal_mask(self)

    def action_of(self, move):
        """The action id of ``move`` (a cell, its name or "swap-pieces")."""
        return board_action_of(self, move)

    def move_of(self, action):
        """The move of action id ``action``: a cell ``(row, col)`` or "swap-pieces"."""
        return board_move_of(self, action)

    # ------------------------------------------------------------------
    # Copies, comparison, pickling
    # ------------------------------------------------------------------

    def copy(self):
        """An independent copy (the arrays copied)."""
        cdef BoardCore other
        if self.parent == NULL:
            _unmade()
        # The type's own slot, called directly (BoardCore.__new__(type(self))
        # would look the method up and build its arguments): the facade adds
        # no state of its own.
        other = <BoardCore>Py_TYPE(self).tp_new(type(self), <PyObject*>_NOTHING, NULL)
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
        other.cell_tuples = self.cell_tuples
        return other

    def __copy__(self):
        return self.copy()

    def __deepcopy__(self, memo):
        return self.copy()

    def __eq__(self, other):
        """Same size, same swap option, same stones, same mover and the same
        sides (the moves that led there do not matter)."""
        cdef BoardCore that
        if not isinstance(other, BoardCore):
            return NotImplemented
        that = <BoardCore>other
        if self.parent == NULL or that.parent == NULL:
            _unmade()
        return (self.g.rows == that.g.rows and self.g.cols == that.g.cols
                and self.swap_allowed == that.swap_allowed and self.mover == that.mover
                and self.swapped_sides == that.swapped_sides
                and self.position_hash == that.position_hash
                and memcmp(self.stones, that.stones, self.g.padded) == 0)

    def __ne__(self, other):
        equal = self.__eq__(other)
        return equal if equal is NotImplemented else not equal

    def __hash__(self):
        if self.parent == NULL:
            _unmade()
        return <Py_ssize_t>self.position_hash

    # ------------------------------------------------------------------
    # Arrays
    # ------------------------------------------------------------------

    def _initialised(self):
        """Whether __init__ (or a copy, or unpickling) gave this board its
        arrays; repr asks, as the one entry point that answers either way."""
        return self.parent != NULL

    def _base(self):
        """from_array's stones (rows*cols bytes) or None: the start of the moves."""
        if self.parent == NULL:
            _unmade()
        return self.base

    def _base_mover(self):
        """The colour to move at the start of the moves."""
        if self.parent == NULL:
            _unmade()
        return PLAYERS[self.base_mover - 1]

    def _cells_bytes(self):
        """The cells row by row, one byte each (0 empty, 1 red, 2 blue)."""
        if self.parent == NULL:
            _unmade()
        return self._cells()

    cdef bytes _cells(self):
        """The cells row by row, one byte each (0 empty, 1 red, 2 blue)."""
        cdef bytearray cells = bytearray(self.g.rows * self.g.cols)
        cdef uint8_t* out = cells
        cdef int32_t row
        for row in range(self.g.rows):
            memcpy(out + row * self.g.cols, self.stones + (row + 1) * self.g.width, self.g.cols)
        return bytes(cells)

    @classmethod
    def _from_cells(cls, rows, cols, swap, bytes cells):
        """A board whose start is ``cells`` (rows*cols bytes 0/1/2), Red to
        move until :meth:`_start_mover` says otherwise.  The arguments are
        checked here too: a pickle can bring any."""
        cdef BoardCore board
        cdef const uint8_t* data
        cdef int32_t row, col, cell, used
        cdef int64_t k
        for name, value in (("rows", rows), ("cols", cols)):
            if type(value) is not int:
                raise TypeError(f"{name} must be an int, not {type(value).__name__}")
        if not isinstance(swap, bool):
            raise TypeError(f"swap must be True or False, not {type(swap).__name__}")
        if rows < 1 or cols < 1 or (rows + 2) * (cols + 1) + 4 > MAX_CELLS:
            raise InputError(f"a Hex board cannot be {rows} x {cols}")
        if len(cells) != rows * cols:
            raise InputError(f"a {rows} x {cols} board has {rows * cols} cells, not {len(cells)}")
        if cells.translate(None, b"\x00\x01\x02"):
            raise InputError("a Hex board's cells are 0 (empty), 1 (red) and 2 (blue)")
        board = BoardCore.__new__(cls)
        data = cells
        board._allocate(rows, cols, 16)
        board.swap_allowed = swap
        board._reset()
        # Stones join as they would in play; their log is not kept (they
        # cannot be undone), so it needs room for one stone at a time.  (Both
        # colours never join their sides at once: no Hex board allows it.)
        for row in range(rows):
            for col in range(cols):
                k = row * cols + col
                if data[k]:
                    cell = (row + 1) * board.g.width + col
                    used = 0
                    if place_stone(&board.g, board.stones, board.parent, board.log, &used,
                                   cell, row, col, data[k]):
                        board.winner_code = data[k]
                    board.position_hash ^= stone_key(cell, data[k])
                    if data[k] == RED:
                        board.red_count += 1
                        board.base_red_cell = cell
                    else:
                        board.blue_count += 1
        if board.red_count != 1 or board.blue_count:
            board.base_red_cell = -1
        board.base = cells
        return board

    def _start_mover(self, int code):
        """Make colour ``code`` (1 red, 2 blue) the one to move at the start
        of a board made by :meth:`_from_cells`."""
        if self.parent == NULL:
            _unmade()
        if code != RED and code != BLUE:
            raise InputError(f"the colour to move is 1 (red) or 2 (blue), not {code}")
        if code == BLUE and self.mover != BLUE:
            self.position_hash ^= BLUE_TO_MOVE_KEY
        self.mover = <uint8_t>code
        self.base_mover = <uint8_t>code

    # ------------------------------------------------------------------
    # Witness and playouts
    # ------------------------------------------------------------------

    def _chain(self, removed=None):
        """One shortest chain of the winner's stones, as cells, from its
        first side (top row, left column) to its second, avoiding the cell
        ``removed``; None when there is none."""
        if self.parent == NULL:
            _unmade()
        cdef int32_t* queue
        cdef int32_t* came_from
        cdef int32_t cell, k, gone = -1
        if removed is not None:
            gone = (<int32_t>removed[0] + 1) * self.g.width + <int32_t>removed[1]
        queue = <int32_t*>malloc(self.g.padded * sizeof(int32_t))
        came_from = <int32_t*>malloc(self.g.padded * sizeof(int32_t))
        if queue == NULL or came_from == NULL:
            free(queue)
            free(came_from)
            raise MemoryError()
        try:
            for k in range(self.g.padded):
                came_from[k] = -2
            cell = shortest_chain(&self.g, self.stones, self.winner_code, gone, queue, came_from)
            if cell < 0:
                return None
            chain = []
            while cell >= 0:
                chain.append(self._cell_of(cell))
                cell = came_from[cell]
            chain.reverse()
            return chain
        finally:
            free(queue)
            free(came_from)

    def playout(self, seed):
        """The winner (``"red"`` or ``"blue"``) of this game continued by
        uniformly random legal moves (swaps included while allowed) under
        ``seed``; the board is unchanged.  Playout 0 of :meth:`playouts`."""
        if self.parent == NULL:
            _unmade()
        cdef PlayoutRun run = PlayoutRun(self, 1, integer(seed, "seed"))
        run.work()
        return PLAYERS[0] if run.red == 1 else PLAYERS[1]

    def playouts(self, n, seed, threads=1):
        """Red's and Blue's wins in ``n`` playouts from this position:
        ``{"red": wins, "blue": wins}``.  Playout i draws from its own stream
        of ``seed`` (any int), so the result does not depend on
        ``threads`` (0: every core); the work runs without the GIL, and
        Ctrl-C stops it between batches of some 2**16 cell steps (one game
        on a larger board)."""
        if self.parent == NULL:
            _unmade()
        cdef PlayoutRun run
        n = count(n, "n")
        seed = integer(seed, "seed")
        run = PlayoutRun(self, n, seed)
        threads = worker_count(threads, run.pieces())
        if n and not self.winner_code:
            run_shared(run.work, run.cancel, threads, run.large)
        return {PLAYERS[0]: run.red, PLAYERS[1]: n - run.red}


include "_board_playouts.pxi"


include "_board_names.pxi"


include "_board_actions.pxi"
