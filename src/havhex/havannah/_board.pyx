# cython: language_level=3, auto_pickle=False
"""The live Havannah board for two players: the compiled core of
``havhex.havannah.Board`` (board.py adds the Python-level extras).

The board is a dense square of ``(2S+1)**2`` cells, the judge's ``(x, y)``
at index ``x * (2S+1) + y``, with a frame of off-board cells around the
hexagon, so that a neighbour is an index offset and needs no bounds test.

Groups are a union-find over the cells, by size and WITHOUT path compression,
so that every move changes only the roots it joins (at most three) and the
new stone: the move log saves those roots' words, and ``undo`` writes them
back, exactly.  The price is a find of up to log2(stones) steps instead of
nearly one; a stone with one run of neighbours and no border hangs beside
its neighbour with no find at all, which is most moves.
"""
from cpython.object cimport Py_TYPE
from cpython.ref cimport PyObject
from libc.stdint cimport int32_t, int64_t, uint8_t, uint16_t, uint32_t, uint64_t
from libc.stdlib cimport calloc, free, malloc, realloc
from libc.string cimport memcpy, memset
from cpython.tuple cimport PyTuple_GET_SIZE

from havhex._native.unionfind cimport uf_find, uf_root
from havhex._native.record_moves cimport *
from havhex._native.move_names cimport SGF_HAVANNAH, cell_name, decode_name
from havhex._native.random cimport Xoshiro, random_below, splitmix64_mix, xoshiro_seed
from havhex._native.portable cimport ctz32, fetch_add
from havhex._native.cancel cimport cancel_requested, request_cancel
from havhex.havannah._structure cimport (
    KIND_BRIDGE, KIND_FORK, KIND_RING, run_starts, structure_kinds,
)

from havhex._checks import count, integer, worker_count
from havhex._threads import run_shared
from havhex.errors import InputError
from havhex.havannah._names import KINDS, PLAYERS


# Neighbours clockwise from twelve o'clock, corner and edge masks: the judge's.
include "_geometry.pxi"

RULES = ("official", "contest")
SWAP = "swap"
# The largest base: cell indices are int32.
MAX_BOARD_SIZE = 16384

# play()'s answers by kinds bitmask, in the judge's order of kinds.
cdef tuple KINDS_BY_BITS = tuple(
    tuple(name for bit, name in zip((KIND_BRIDGE, KIND_FORK, KIND_RING), KINDS) if bits & bit)
    for bits in range(8))

cdef tuple _NO_ARGS = ()

UNMADE = "this Board was made without __init__"


cdef int _unmade() except -1:
    """A board made by __new__ alone (or by a subclass that skips
    __init__) has no cells: every entry point but repr refuses it."""
    raise TypeError(UNMADE)


cdef int _initialised_already() except -1:
    raise TypeError("this Board is initialised already: __init__ runs once per board")


# Empty boards by size (their arrays as bytes), copied by Board().
EMPTY_BOARDS = {}
cdef int TEMPLATE_MAX_SIZE = 64


include "_board_position.pxi"
include "_board_enclosure.pxi"
include "_board_place.pxi"


# --------------------------------------------------------------------------
# The board
# --------------------------------------------------------------------------

cdef class PlayoutRun


cdef class BoardCore:
    """The compiled part of :class:`havhex.havannah.Board` (see there)."""
    cdef Position position
    cdef char* block
    cdef MoveRecord* log
    cdef int64_t n_moves
    cdef int64_t log_capacity
    cdef Search search              # contest rule only, made on first need
    cdef bint swap_option
    cdef int64_t winning_index      # -1 while no one has won
    cdef tuple cell_tuples          # the cells' tuples by action id, or None (made on first need)

    def __cinit__(self):
        # A board made by __new__ alone (or by a subclass that skips
        # __init__) has no cells until __init__ (or a copy) gives it some;
        # until then every entry point but repr raises TypeError (_unmade).
        # The fields still hold a valid player and rule.
        self.position.to_move = WHITE
        self.position.official = 1
        self.winning_index = -1

    def __dealloc__(self):
        free(self.block)
        free(self.log)
        free(self.search.stamp)
        free(self.search.queue)

    def __init__(self, size, rule="official", swap=False):
        # Once per board: threads may be using the arrays another call
        # would replace.
        cdef char* block
        cdef Position laid
        if self.block != NULL:
            _initialised_already()
        if type(size) is not int:
            if isinstance(size, bool) or not hasattr(type(size), "__index__"):
                raise TypeError(f"size must be an int, not {type(size).__name__}")
            size = size.__index__()
        if not 2 <= size <= MAX_BOARD_SIZE:
            raise InputError(f"board size S must be between 2 and {MAX_BOARD_SIZE}, got {size}")
        if not isinstance(rule, str):
            raise TypeError(f"rule must be a str, not {type(rule).__name__}")
        if rule not in RULES:
            raise InputError(f"rule must be 'official' or 'contest', got {rule!r}")
        if not isinstance(swap, bool):
            raise TypeError(f"swap must be a bool, not {type(swap).__name__}")
        # The board is laid out in memory of its own first: without memory,
        # MemoryError leaves this one as it was (made without __init__).
        laid = self.position
        laid.size = size
        laid.width = 2 * size + 1
        laid.n_slots = laid.width * laid.width
        laid.official = rule == "official"
        block = <char*>malloc(block_bytes(laid.n_slots))
        if block == NULL:
            raise MemoryError(f"no memory for a board of size {size}")
        point_into(&laid, block)
        cdef int32_t base = size
        cdef const unsigned char[::1] template
        if size <= TEMPLATE_MAX_SIZE:
            # Boards are made often (a game each): the empty board is copied.
            laid_out = EMPTY_BOARDS.get(size)
            if laid_out is None:
                lay_out(&laid, base)
                try:
                    laid_out = EMPTY_BOARDS[size] = block[:block_bytes(laid.n_slots)]
                except BaseException:
                    free(block)
                    raise
            else:
                template = laid_out
                memcpy(block, &template[0], block_bytes(laid.n_slots))
                lay_out_counts(&laid, base)
        else:
            with nogil:
                lay_out(&laid, base)
        self.position = laid
        self.swap_option = swap
        self.block = block

    cdef int _ensure_search(self) except -1:
        if self.search.stamp == NULL:
            self.search.stamp = <uint32_t*>calloc(<size_t>self.position.n_slots, sizeof(uint32_t))
            self.search.queue = <int32_t*>malloc(<size_t>self.position.n_slots * sizeof(int32_t))
            if self.search.stamp == NULL or self.search.queue == NULL:
                raise MemoryError("no memory for the ring search")
        return 0

    cdef int _grow_log(self) except -1:
        cdef int64_t capacity = self.log_capacity * 2 if self.log_capacity else 64
        cdef MoveRecord* grown = <MoveRecord*>realloc(self.log, <size_t>capacity * sizeof(MoveRecord))
        if grown == NULL:
            raise MemoryError("no memory for the move log")
        self.log = grown
        self.log_capacity = capacity
        return 0

    cdef int32_t _cell_of(self, move) except -2:
        """The index of ``move``'s cell, or -1 for the swap; raises for
        anything else, changing nothing."""
        cdef long long x = 0, y = 0
        cdef int overflow = 0
        cdef int32_t cell
        cdef int32_t last = 2 * self.position.size - 1
        if type(move) is tuple and PyTuple_GET_SIZE(move) == 2:
            a = (<tuple>move)[0]
            b = (<tuple>move)[1]
        elif isinstance(move, str):
            named = self._named(move)
            if named is None:
                return -1
            a, b = named
        elif isinstance(move, (tuple, list)) and len(move) == 2:
            a, b = move
        else:
            raise TypeError(f"a move is an (x, y) pair of ints or 'swap', not {type(move).__name__}")
        if type(a) is not int or type(b) is not int:
            for value in (a, b):
                if isinstance(value, bool) or not hasattr(type(value), "__index__"):
                    raise TypeError(f"a move's coordinates must be ints, got {move!r}")
            a = a.__index__()
            b = b.__index__()
        try:
            x = a
            y = b
        except OverflowError:
            overflow = 1
        if overflow or not (1 <= x <= last and 1 <= y <= last):
            raise InputError(f"({a}, {b}) is off the board of size S = {self.position.size}")
        cell = <int32_t>(x * self.position.width + y)
        if self.position.cells[cell] == OFF_BOARD:
            raise InputError(f"({a}, {b}) is off the board of size S = {self.position.size}")
        return cell

    cdef object _named(self, str name):
        """The cell ``(x, y)`` a name names in Little Golem's notation, as
        the records write it: the row's letter (``A`` the row of ``y = 1``),
        then the place along it from the board's left edge (``"A1"`` is
        (1, 1)); None for the swap."""
        cdef int32_t x = 0, y = 0
        cdef int kind = decode_name(name, SGF_HAVANNAH, self.position.size, 0, &x, &y)
        if kind == SGF_CELL:
            return (x, y)
        if kind == SGF_SWAP:
            return None
        if kind == SGF_OFF_BOARD:
            raise InputError(f"{name!r} is off the board of size S = {self.position.size}")
        raise InputError(f"a move is an (x, y) pair, a cell's name such as 'A1' or 'swap', "
                         f"got {name[:40]!r}")

    def cell_name(self, move):
        """The name of ``move`` in the records' notation (Little Golem's:
        ``(1, 1)`` is ``"A1"``); the swap's name is itself.  ``play`` takes
        either."""
        if self.block == NULL:
            _unmade()
        cdef int32_t cell = self._cell_of(move)
        cdef int32_t w = self.position.width
        if cell < 0:
            return SWAP
        return cell_name(SGF_HAVANNAH, self.position.size, cell // w, cell % w)

    cdef int _check_not_over(self) except -1:
        if self.position.winner:
            raise InputError(f"the game is over: {PLAYERS[self.position.winner - 1]} won "
                             f"in move {self.winning_index + 1}")
        if self.position.n_empty == 0:
            raise InputError("the game is over: the board is full (a draw)")
        return 0

    cdef bint _swap_legal(self):
        return (self.swap_option and self.n_moves == 1 and not self.log[0].is_swap
                and self.log[0].colour == WHITE and self.position.to_move == BLACK
                and not self.position.winner)

    cdef tuple _move(self, int32_t cell, uint8_t colour):
        """Play a checked move; its kinds as play() returns them."""
        if cell >= 0 and self.position.cells[cell] != EMPTY:
            w = self.position.width
            raise InputError(f"({cell // w}, {cell % w}) is occupied")
        return KINDS_BY_BITS[self._move_bits(cell, colour)]

    cdef int _move_bits(self, int32_t cell, uint8_t colour) except -1:
        """Play a checked move (on an empty cell, or -1 for the swap); the
        bits of the kinds it completed."""
        cdef MoveRecord* record
        cdef uint8_t kinds
        if self.n_moves == self.log_capacity:
            self._grow_log()
        if not self.position.official:
            self._ensure_search()
        record = &self.log[self.n_moves]
        if cell < 0:
            cell = self.log[0].cell
            recolour(&self.position, cell, WHITE, BLACK)
            record.cell = cell
            record.colour = colour
            record.kinds = 0
            record.is_swap = 1
            record.n_saved = 0
            self.n_moves += 1
            set_mover(&self.position, colour ^ 3)
            return 0
        kinds = place(&self.position, cell, colour, record, &self.search, False)
        record.cell = cell
        record.colour = colour
        record.kinds = kinds
        record.is_swap = 0
        self.n_moves += 1
        set_mover(&self.position, colour ^ 3)
        if kinds:
            self.position.winner = colour
            self.winning_index = self.n_moves - 1
        return kinds

    def _replay(self, const int32_t[:, ::1] rows, Py_ssize_t first=0):
        """Plays a record's moves (rows of colour 1 = B = black, 2 = W =
        white, kind, x, y, as havhex.records' reader gives them) from row
        ``first`` until one wins, one cannot be played, or a resignation or
        forfeit; returns ``(row reached, outcome, detail)``: outcome 0 all
        played, 1 the row won (detail: the kinds), 2 the row is illegal
        (detail: REPLAY_*), 3 the row ends the game (resign, forfeit)."""
        if self.block == NULL:
            _unmade()
        cdef Py_ssize_t k, n = rows.shape[0]
        cdef int32_t kind, x, y, cell
        cdef int32_t last = 2 * self.position.size - 1
        cdef uint8_t colour
        cdef int kinds
        if rows.shape[1] != 4:
            raise ValueError("rows of four int32")
        if not 0 <= first <= n:
            raise InputError(f"first must be a row from 0 to {n}, got {first}")
        for k in range(first, n):
            kind = rows[k, 1]
            if self.position.winner or self.position.n_empty == 0:
                return k, 2, REPLAY_OVER
            colour = <uint8_t>(3 - rows[k, 0])
            if kind == SGF_CELL:
                if colour != self.position.to_move:
                    return k, 2, REPLAY_OUT_OF_TURN
                x = rows[k, 2]
                y = rows[k, 3]
                if not (1 <= x <= last and 1 <= y <= last):
                    return k, 2, REPLAY_OFF_BOARD
                cell = x * self.position.width + y
                if self.position.cells[cell] == OFF_BOARD:
                    return k, 2, REPLAY_OFF_BOARD
                if self.position.cells[cell] != EMPTY:
                    return k, 2, REPLAY_OCCUPIED
                kinds = self._move_bits(cell, colour)
                if kinds:
                    return k, 1, KINDS_BY_BITS[kinds]
            elif kind == SGF_SWAP:
                if colour != self.position.to_move:
                    return k, 2, REPLAY_OUT_OF_TURN
                if not self._swap_legal():
                    return k, 2, REPLAY_SWAP_NOT_ALLOWED
                self._move_bits(-1, colour)
            elif kind == SGF_RESIGN or kind == SGF_FORFEIT:
                return k, 3, 0
            elif kind == SGF_OFF_BOARD:
                return k, 2, REPLAY_OFF_BOARD
            elif kind == SGF_PASS:
                return k, 2, REPLAY_PASS
            elif kind == SGF_SWAP_PIECES or kind == SGF_SWAP_SIDES:
                return k, 2, REPLAY_NOT_THIS_GAME
            else:
                return k, 2, REPLAY_UNREADABLE
        return n, 0, 0

    def play(self, move):
        """Place the mover's stone on ``move`` (an ``(x, y)`` pair), or swap;
        returns the kinds of structure the move completed, e.g. ``("ring",)``."""
        if self.block == NULL:
            _unmade()
        cdef int32_t cell = self._cell_of(move)
        if self.position.winner or self.position.n_empty == 0:
            self._check_not_over()
        if cell < 0 and not self._swap_legal():
            raise InputError("'swap' is allowed only as the second player's first move, "
                             "on a board made with swap=True")
        return self._move(cell, self.position.to_move)

    def _play_as(self, move, player):
        """Tests: play ``move`` for ``player`` whoever is to move (the other
        player moves next), to judge one player's stones alone."""
        if self.block == NULL:
            _unmade()
        cdef int32_t cell = self._cell_of(move)
        if cell < 0:
            raise InputError("'swap' is played with play()")
        self._check_not_over()
        return self._move(cell, PLAYERS.index(player) + 1)

    def undo(self):
        """Take back the last move; returns it (as in :attr:`moves`)."""
        if self.block == NULL:
            _unmade()
        cdef MoveRecord* record
        if self.n_moves == 0:
            raise InputError("there is no move to undo")
        record = &self.log[self.n_moves - 1]
        move = self._move_object(record)
        if record.is_swap:
            recolour(&self.position, record.cell, BLACK, WHITE)
        else:
            take_back(&self.position, record)
        self.n_moves -= 1
        set_mover(&self.position, record.colour)
        if self.winning_index == self.n_moves:
            self.winning_index = -1
            self.position.winner = 0
        return move

    cdef object _move_object(self, const MoveRecord* record):
        if record.is_swap:
            return SWAP
        return (record.cell // self.position.width, record.cell % self.position.width)

    def copy(self):
        """An independent board in the same state (arrays copied)."""
        # The type's own slot, called directly (BoardCore.__new__(type(self))
        # would look the method up and build its arguments): the facade adds
        # no state of its own.
        cdef BoardCore other
        cdef size_t n_bytes = block_bytes(self.position.n_slots)
        if self.block == NULL:
            _unmade()
        other = <BoardCore>Py_TYPE(self).tp_new(type(self), <PyObject*>_NO_ARGS, NULL)
        other.block = <char*>malloc(n_bytes)
        if other.block == NULL:
            raise MemoryError("no memory for a copy of the board")
        if self.n_moves:
            other.log = <MoveRecord*>malloc(<size_t>self.n_moves * sizeof(MoveRecord))
            if other.log == NULL:
                raise MemoryError("no memory for a copy of the board")
            memcpy(other.log, self.log, <size_t>self.n_moves * sizeof(MoveRecord))
            other.log_capacity = self.n_moves
        memcpy(other.block, self.block, n_bytes)
        other.position = self.position
        point_into(&other.position, other.block)
        other.n_moves = self.n_moves
        other.swap_option = self.swap_option
        other.winning_index = self.winning_index
        other.cell_tuples = self.cell_tuples
        return other

    def __copy__(self):
        return self.copy()

    def __deepcopy__(self, memo):
        return self.copy()

    # ---- state ----------------------------------------------------------

    @property
    def size(self):
        """The base S: cells (x, y) with 1 <= x, y <= 2S-1 and |x - y| <= S-1."""
        if self.block == NULL:
            _unmade()
        return self.position.size

    @property
    def rule(self):
        """The ring rule: "official" or "contest"."""
        if self.block == NULL:
            _unmade()
        return RULES[0 if self.position.official else 1]

    @property
    def swap(self):
        """Whether the second player may swap as their first move."""
        if self.block == NULL:
            _unmade()
        return self.swap_option

    @property
    def to_move(self):
        """The player to move, ``"white"`` or ``"black"`` (after the game
        has ended, the player who would move next)."""
        if self.block == NULL:
            _unmade()
        return PLAYERS[self.position.to_move - 1]

    @property
    def winner(self):
        """``"white"``, ``"black"`` or None while nobody has won."""
        if self.block == NULL:
            _unmade()
        return PLAYERS[self.position.winner - 1] if self.position.winner else None

    @property
    def winning_move(self):
        """Index in :attr:`moves` of the move that won, or None."""
        if self.block == NULL:
            _unmade()
        return self.winning_index if self.winning_index >= 0 else None

    @property
    def is_over(self):
        """Whether the game has ended: a player has won or the board is full."""
        if self.block == NULL:
            _unmade()
        return bool(self.position.winner) or self.position.n_empty == 0

    @property
    def is_draw(self):
        """Whether the game has ended in a draw: the board is full and
        nobody has won."""
        if self.block == NULL:
            _unmade()
        return not self.position.winner and self.position.n_empty == 0

    @property
    def moves(self):
        """The moves played, in order: (x, y) tuples and "swap"."""
        if self.block == NULL:
            _unmade()
        cdef int64_t i
        return tuple([self._move_object(&self.log[i]) for i in range(self.n_moves)])

    @property
    def hash(self):
        """64-bit Zobrist hash of the stones and the player to move."""
        if self.block == NULL:
            _unmade()
        return self.position.hash

    def __hash__(self):
        if self.block == NULL:
            _unmade()
        return <Py_hash_t>(self.position.hash >> 1)

    def __len__(self):
        if self.block == NULL:
            _unmade()
        return self.n_moves

    def _initialised(self):
        """Whether __init__ (or a copy) gave this board its cells; repr
        asks, as the one entry point that answers either way."""
        return self.block != NULL

    def _winning_kinds(self):
        """The kinds the winning move completed (() before a win)."""
        if self.block == NULL:
            _unmade()
        if self.winning_index < 0:
            return ()
        return KINDS_BY_BITS[self.log[self.winning_index].kinds]

    def _players(self):
        """The colour index (0 white, 1 black) of each move's mover."""
        if self.block == NULL:
            _unmade()
        cdef int64_t i
        return [self.log[i].colour - 1 for i in range(self.n_moves)]

    def __eq__(self, other):
        cdef BoardCore that
        if not isinstance(other, BoardCore):
            return NotImplemented
        that = <BoardCore>other
        if self.block == NULL or that.block == NULL:
            _unmade()
        return (self.position.size == that.position.size
                and self.position.official == that.position.official
                and self.swap_option == that.swap_option
                and self.position.to_move == that.position.to_move
                and self.position.hash == that.position.hash
                and self.position.n_empty == that.position.n_empty
                and memcmp_cells(self.position.cells, that.position.cells, self.position.n_slots))

    def __ne__(self, other):
        result = self.__eq__(other)
        return result if result is NotImplemented else not result

    def legal_moves(self):
        """The empty cells in (x, y) order, then "swap" when it is legal;
        empty once the game is over."""
        return board_legal_moves(self)

    # ---- action ids (the batches' and OpenSpiel's; see _board_actions.pxi) ----

    @property
    def num_actions(self):
        """``(2S-1)**2``: a cell's action id is ``(x-1) * (2S-1) + (y-1)``."""
        if self.block == NULL:
            _unmade()
        d = 2 * self.position.size - 1
        return d * d

    def play_action(self, action):
        """``play(move_of(action))``, without the move: the same answer, the same errors."""
        return board_play_action(self, action)

    def legal_actions(self):
        """The legal moves' action ids, ascending, as an ``array.array("i")``
        (the swap's is the first stone's cell); empty once the game is over."""
        return board_legal_actions(self)

    def legal_mask(self):
        """A NumPy bool array of :attr:`num_actions`: True at each legal action."""
        return board_legal_mask(self)

    def action_of(self, move):
        """The action id of ``move`` (a cell, its name, or "swap" while it is legal)."""
        return board_action_of(self, move)

    def move_of(self, action):
        """The move of action id ``action``: a cell ``(x, y)``, or "swap" for
        the first stone's cell while the swap is legal."""
        return board_move_of(self, action)

    def _cells_bytes(self):
        """The cells of the padded square, row by row (x), as bytes."""
        if self.block == NULL:
            _unmade()
        return (<char*>self.position.cells)[:self.position.n_slots]

    # ---- playouts --------------------------------------------------------

    def playout(self, seed):
        """Play uniformly random legal moves from here to the end; the
        winner ("white", "black"), or None for a draw.  The board is
        unchanged; the same seed gives the same game (``playouts(1, seed)``'s)."""
        if self.block == NULL:
            _unmade()
        counts = self.playouts(1, seed)
        for name in PLAYERS:
            if counts[name]:
                return name
        return None

    def playouts(self, n, seed, threads=1):
        """``n`` random games from here: ``{"white": wins, "black": wins,
        "draw": draws}``.  Playout i draws from its own stream of ``seed``,
        so the result does not depend on ``threads`` (0: every core); the
        GIL is released, and Ctrl-C stops the games between batches of some
        2**16 cell steps (one game on a larger board)."""
        if self.block == NULL:
            _unmade()
        cdef PlayoutRun run
        n = count(n, "n")
        seed = integer(seed, "seed")
        run = PlayoutRun(self, n, seed)
        threads = worker_count(threads, run.pieces())
        if n:
            run_shared(run.work, run.cancel, threads, run.large)
        return {"white": run.wins[WHITE], "black": run.wins[BLACK], "draw": run.wins[0]}


include "_board_playouts.pxi"
include "_board_actions.pxi"


def name_of_cell(size, cell):
    """Little Golem's name of Havannah cell ``(x, y)`` on the board of base
    ``size``: the row letter of ``r = y - 1`` and the number ``c + 1``, where
    ``c = x - 1``, less ``r + 1 - size`` in the rows past the middle.
    :class:`havhex.InputError` for a size out of range or a cell off that
    board, TypeError for anything but integers."""
    size = integer(size, "size")
    if not 2 <= size <= MAX_BOARD_SIZE:
        raise InputError(f"board size S must be between 2 and {MAX_BOARD_SIZE}, got {size}")
    if not isinstance(cell, (tuple, list)) or len(cell) != 2:
        raise TypeError(f"a cell is an (x, y) pair of ints, not {type(cell).__name__}")
    x = integer(cell[0], "x")
    y = integer(cell[1], "y")
    if not (1 <= x <= 2 * size - 1 and 1 <= y <= 2 * size - 1 and abs(x - y) <= size - 1):
        raise InputError(f"({x}, {y}) is off the board of size S = {size}")
    return cell_name(SGF_HAVANNAH, size, x, y)


cdef bint memcmp_cells(const uint8_t* a, const uint8_t* b, int32_t n) noexcept nogil:
    cdef int32_t i
    for i in range(n):
        if a[i] != b[i]:
            return False
    return True
