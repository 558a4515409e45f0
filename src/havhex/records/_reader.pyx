# cython: language_level=3
"""The compiled SGF reader: bytes to games, each game's moves as one array.

``scan`` walks a buffer with the scanner of ``sgf.h`` and returns, per game,
its root node's properties (Python objects: a game has a few) and its main
line's moves decoded into rows of four int32 (colour, kind, a, b) in one
``bytes`` (no Python object per move).  What a game is (Hex or Havannah) and
its size come from the root, so each game's moves are decoded right after
its tree is scanned.
"""
from libc.stdint cimport int32_t, int64_t
from libc.string cimport memchr
from cpython.bytes cimport PyBytes_AS_STRING, PyBytes_FromStringAndSize
from cpython.unicode cimport PyUnicode_DecodeASCII

from havhex._native.record_moves cimport *
from havhex.errors import InputError
from array import array

cdef extern from "havhex/records/sgf.h" nogil:
    ctypedef struct sgf_value:
        int64_t name_start, name_stop, start, stop
    ctypedef struct sgf_move:
        int64_t start, stop
        int32_t colour
        int32_t node
    ctypedef struct sgf_scanner:
        int64_t pos, line
        int64_t game_start, game_stop, game_line
        sgf_value* root
        int64_t n_root
        sgf_move* moves
        int64_t n_moves
        int keep_nothing
        int fault
        int64_t fault_at, fault_line
    void sgf_init(sgf_scanner* s, const unsigned char* data, int64_t size, int64_t first_line,
                  int at_start)
    void sgf_free(sgf_scanner* s)
    int sgf_next_game(sgf_scanner* s)
    int64_t sgf_find_cuts(const unsigned char* data, int64_t size, int64_t start,
                          int64_t first_line, int64_t every,
                          int64_t* offsets, int64_t* games_before, int64_t* lines,
                          int64_t capacity, int blocks)
    int sgf_block_walk_available()
    int sgf_decode_move(const unsigned char* data, int64_t start, int64_t stop, int game,
                        int64_t rows, int64_t cols, int32_t* a, int32_t* b)
    enum:
        SGF_NOT_A_TREE, SGF_NO_NODE, SGF_BAD_BYTE, SGF_NO_VALUE, SGF_UNTERMINATED_VALUE
        SGF_UNCLOSED_TREE, SGF_NO_MEMORY, SGF_NUL
        SGF_HEX, SGF_HAVANNAH

# The move kinds, in the order of sgf.h's sgf_move_kind.
MOVE_KINDS = ("cell", "swap", "swap-pieces", "swap-sides", "resign", "forfeit", "pass",
              "off-board", "unreadable")
COLOURS = ("", "B", "W")
# The cell notations the decoder knows, by the name a game's record format
# gives its notation (havhex.descriptor.RecordFormat.notation): SGF Hex's
# column letters and row number on rows x cols, Little Golem's row letter
# and place along the row on a board of base S.
NOTATION_CODES = {"sgf-hex": SGF_HEX, "little-golem": SGF_HAVANNAH}

# A pass is read and not counted: the replay goes on after it.
REPLAY_PASS_CODE = REPLAY_PASS
# A move after a pass is out of turn on the boards (a pass does not change
# whose turn it is there): its message says so.
REPLAY_OUT_OF_TURN_CODE = REPLAY_OUT_OF_TURN
# Why a replay stops at a move (the live boards' _replay returns the code).
REPLAY_REASONS = {
    REPLAY_OCCUPIED: "the cell is occupied",
    REPLAY_OFF_BOARD: "the cell is off the board",
    REPLAY_SWAP_NOT_ALLOWED: "the swap is not allowed here (it answers the first stone, and "
                             "swap-pieces needs the mirrored cell on the board)",
    REPLAY_OUT_OF_TURN: "played out of turn",
    REPLAY_UNREADABLE: "not a cell or a move of this game",
    REPLAY_NOT_THIS_GAME: "not a move of this game",
    REPLAY_PASS: "a pass (the boards have no pass)",
    REPLAY_OVER: "played after the game ended",
}

_FAULTS = {
    SGF_NOT_A_TREE: "not an SGF game tree: a game starts with '('",
    SGF_NO_NODE: "a game tree must start with a node (';' after '(')",
    SGF_BAD_BYTE: "unexpected byte inside a game tree",
    SGF_NO_VALUE: "a property without a value ('[...]' after its name)",
    SGF_UNTERMINATED_VALUE: "a property value that is never closed (no ']')",
    SGF_UNCLOSED_TREE: "the file ends inside a game tree (a '(' is never closed)",
    SGF_NUL: "a NUL byte inside a property value (a record is text)",
}


cdef object _fault(sgf_scanner* s, const unsigned char* base, int64_t size):
    """The InputError (no source) of the scanner's fault."""
    if s.fault == SGF_NO_MEMORY:
        return MemoryError("no memory for the game record")
    reason = _FAULTS.get(s.fault, "broken SGF")
    if s.fault in (SGF_BAD_BYTE, SGF_NOT_A_TREE) and s.fault_at < size:
        reason += f": {_shown(PyBytes_FromStringAndSize(<const char*>base + s.fault_at, min(size - s.fault_at, 12)))}"
    return InputError(reason, None, s.fault_line)


cdef bint _ran_out(sgf_scanner* s, int64_t size):
    """Whether the fault is only that the bytes end inside a game (more
    bytes could complete it)."""
    return (s.fault == SGF_UNCLOSED_TREE or s.fault == SGF_UNTERMINATED_VALUE
            or (s.fault == SGF_NO_VALUE and s.fault_at >= size))


def checked_prefix(data, int64_t first_line=1, bint at_start=True, bint at_end=False):
    """How far ``data`` (a piece of a record read in pieces) holds whole
    games whose syntax is sound: ``(stop, line, games, fault, at)``, where
    the bytes before ``stop`` hold ``games`` whole games (and the space after
    them), ``line`` is the line at ``stop``, and ``fault`` None or the
    InputError (no source) of the first fault after them, at byte ``at``.  Bytes that end
    inside a game are a fault only ``at_end`` (the file ends there);
    otherwise the reader reads on from ``stop``.  Nothing is kept but
    counts: memory does not follow the piece."""
    cdef const unsigned char[::1] view = data
    cdef int64_t size = view.shape[0]
    cdef const unsigned char* base = &view[0] if size else <const unsigned char*>b""
    cdef sgf_scanner s
    cdef int status
    cdef int64_t stop, line, games = 0
    sgf_init(&s, base, size, first_line, at_start)
    s.keep_nothing = 1
    stop, line = s.pos, first_line
    try:
        while True:
            with nogil:
                status = sgf_next_game(&s)
            if status == 1:
                games += 1
                stop, line = s.pos, s.line
            elif status == 0:
                return s.pos, s.line, games, None, -1
            elif at_end or not _ran_out(&s, size):
                return stop, line, games, _fault(&s, base, size), s.fault_at
            else:
                return stop, line, games, None, -1
    finally:
        sgf_free(&s)


cdef str _name(const unsigned char* base, int64_t start, int64_t stop):
    """A property's name: its upper-case letters (FF[3] names may hold
    lower-case ones, which do not count)."""
    cdef int64_t k
    cdef bint plain = True
    for k in range(start, stop):
        if not (65 <= base[k] <= 90):
            plain = False
    if plain:
        return PyUnicode_DecodeASCII(<const char*>base + start, stop - start, NULL)
    return bytes([base[k] for k in range(start, stop) if 65 <= base[k] <= 90]).decode("ascii")


_NO_ROWS = memoryview(bytes(16)).cast("i", (1, 4))[0:0]


def decode_move(bytes value, int game, int64_t rows, int64_t cols):
    """``(kind, a, b)`` of one move value (as the reader decodes moves)."""
    cdef int32_t a, b
    cdef const unsigned char* data = value
    cdef int kind = sgf_decode_move(data, 0, len(value), game, rows, cols, &a, &b)
    return kind, a, b


def _shown(bytes token):
    from havhex.errors import shown_bytes

    return shown_bytes(token)


cdef class Scanned:
    """One game as the scanner read it (internal: the records facade wraps it)."""
    cdef readonly int64_t line, start, stop
    cdef readonly object properties      # name -> list of raw bytes values
    cdef readonly bytes moves            # rows of int32 (colour, kind, a, b)
    cdef readonly object raw             # row -> the raw value, for rows that are no cell
    cdef readonly int64_t n_rows
    cdef readonly int64_t n_stones       # rows that put or swap a stone
    cdef readonly int last_kind          # the last row's kind, -1 without rows
    cdef readonly int game_code          # the notation's code (NOTATION_CODES)
    cdef readonly int64_t rows, cols     # the board: rows x cols, or a base and 0

    @staticmethod
    def _from_parts(int64_t line, properties, bytes moves, raw, int game_code,
                    int64_t rows, int64_t cols):
        """A game rebuilt from its parts (unpickling)."""
        cdef Scanned game = Scanned.__new__(Scanned)
        cdef const int32_t[:, ::1] table
        cdef Py_ssize_t k
        game.line = line
        game.properties = properties
        game.moves = moves
        game.raw = raw
        game.game_code = game_code
        game.rows = rows
        game.cols = cols
        game.n_rows = len(moves) // 16
        game.n_stones = 0
        game.last_kind = -1
        if game.n_rows:
            table = memoryview(moves).cast("i", (game.n_rows, 4))
            for k in range(game.n_rows):
                if table[k, 1] != SGF_RESIGN and table[k, 1] != SGF_FORFEIT and table[k, 1] != SGF_PASS:
                    game.n_stones += 1
            game.last_kind = table[game.n_rows - 1, 1]
        return game

    def table(self):
        """The moves as a (rows, 4) int32 memoryview, for the boards' _replay."""
        return memoryview(self.moves).cast("i", (self.n_rows, 4)) if self.n_rows else _NO_ROWS

    def __repr__(self):
        return f"<Scanned line={self.line} moves={self.n_rows}>"


cdef class Scan:
    """The games of ``data``, in order, as :class:`Scanned`, one at a time
    (memory follows one game, not the file).

    ``decide(properties, line)`` is called with each game's root properties
    (a dict of name -> list of raw bytes values) and returns ``(notation,
    rows, cols)``: the code of the notation its moves are decoded in (a
    value of NOTATION_CODES) and the board, rows x cols, or for a notation
    of a board with one size (Little Golem's) the base in ``rows`` and
    ``cols`` 0.  It raises InputError for a game it cannot take.
    A syntax fault raises ``InputError(reason, None, line)`` when the
    iteration reaches it."""
    cdef sgf_scanner s
    cdef object data                  # keeps the buffer alive
    cdef const unsigned char[::1] view
    cdef const unsigned char* base
    cdef int64_t size
    cdef object decide
    cdef bint done

    def __cinit__(self, data, decide, int64_t first_line=1, bint at_start=True):
        self.data = data
        self.view = data
        self.size = self.view.shape[0]
        self.base = &self.view[0] if self.size else <const unsigned char*>b""
        self.decide = decide
        sgf_init(&self.s, self.base, self.size, first_line, at_start)

    def __dealloc__(self):
        sgf_free(&self.s)

    def __iter__(self):
        return self

    def __next__(self):
        cdef sgf_scanner* s = &self.s
        cdef const unsigned char* base = self.base
        cdef int status, kind, game_kind
        cdef int64_t k, n, i, stones, board_rows, board_cols
        cdef int32_t a, b
        cdef bytes rows_bytes
        cdef int32_t* rows
        cdef Scanned game
        if self.done:
            raise StopIteration
        status = sgf_next_game(s)
        if status == 0:
            self.done = True
            sgf_free(s)
            raise StopIteration
        if status < 0:
            self.done = True
            raise _fault(s, base, self.size)
        properties = {}
        for k in range(s.n_root):
            name = _name(base, s.root[k].name_start, s.root[k].name_stop)
            if not name:
                continue                # a name of lower-case letters only: not FF[4]
            value = PyBytes_FromStringAndSize(<const char*>base + s.root[k].start,
                                              s.root[k].stop - s.root[k].start)
            values = properties.get(name)
            if values is None:
                properties[name] = [value]
            else:
                values.append(value)
        game_kind, board_rows, board_cols = self.decide(properties, s.game_line)
        game = Scanned.__new__(Scanned)
        game.line = s.game_line
        game.start = s.game_start
        game.stop = s.game_stop
        game.properties = properties
        game.raw = None
        n = s.n_moves
        stones = 0
        # A fresh bytes filled in place (it is not shared until returned).
        rows_bytes = PyBytes_FromStringAndSize(NULL, <Py_ssize_t>(n * 4 * sizeof(int32_t)))
        rows = <int32_t*>PyBytes_AS_STRING(rows_bytes)
        for i in range(n):
            kind = sgf_decode_move(base, s.moves[i].start, s.moves[i].stop, game_kind,
                                   board_rows, board_cols, &a, &b)
            rows[4 * i] = 1 if s.moves[i].colour == 66 else 2
            rows[4 * i + 1] = kind
            rows[4 * i + 2] = a
            rows[4 * i + 3] = b
            if kind != SGF_RESIGN and kind != SGF_FORFEIT and kind != SGF_PASS:
                stones += 1
            if kind >= SGF_OFF_BOARD:
                if game.raw is None:
                    game.raw = {}
                game.raw[i] = PyBytes_FromStringAndSize(<const char*>base + s.moves[i].start,
                                                        s.moves[i].stop - s.moves[i].start)
        game.moves = rows_bytes
        game.game_code = game_kind
        game.rows = board_rows
        game.cols = board_cols
        game.n_rows = n
        game.n_stones = stones
        game.last_kind = rows[4 * (n - 1) + 1] if n else -1
        return game


def scan(data, decide, int64_t first_line=1, bint at_start=True):
    """All the games of ``data`` (see :class:`Scan`), as a list."""
    return list(Scan(data, decide, first_line, at_start))


def line_of(const unsigned char[::1] data, int64_t offset, int64_t first_line=1):
    """The line of byte ``offset`` (counting from ``first_line``)."""
    cdef int64_t line = first_line, k = 0
    cdef const unsigned char* p
    cdef const unsigned char* end
    if offset > data.shape[0]:
        offset = data.shape[0]
    if offset == 0:
        return line
    p = &data[0]
    end = p + offset
    while True:
        p = <const unsigned char*>memchr(p, 10, end - p)
        if p == NULL:
            return line
        line += 1
        p += 1
        if p >= end:
            return line


# Cuts are found passing over blocks of 16 bytes where the CPU allows, or by
# the byte walk alone (set_block_walk).
cdef bint block_walk = sgf_block_walk_available()


def set_block_walk(bint wanted):
    """Find cuts passing over blocks of bytes (where the CPU allows) or by
    the byte walk alone; returns whether blocks are now passed.  For tests."""
    global block_walk
    block_walk = wanted and sgf_block_walk_available()
    return block_walk


def game_ranges(const unsigned char[::1] data, int64_t pieces):
    """Where to cut ``data`` between games into about ``pieces`` ranges of
    similar size, for the workers of ``-j``: a list of ``(offset, games
    before it, its line)``, from ``(0, 0, 1)`` to ``(len, -1, -1)``.  A cut
    lands where a tree closes at depth 0; syntax is left to the readers of
    the ranges (see sgf_find_cuts)."""
    cdef int64_t size = data.shape[0]
    cdef int64_t every, n, k
    cdef int64_t[::1] offsets, games, lines
    if size == 0 or pieces <= 1:
        return [(0, 0, 1), (size, -1, -1)]
    every = size // pieces + 1
    offsets = array("q", bytes(8 * pieces))
    games = array("q", bytes(8 * pieces))
    lines = array("q", bytes(8 * pieces))
    with nogil:
        n = sgf_find_cuts(&data[0], size, 0, 1, every, &offsets[0], &games[0], &lines[0], pieces,
                          block_walk)
    return ([(0, 0, 1)] + [(offsets[k], games[k], lines[k]) for k in range(n)]
            + [(size, -1, -1)])


def next_cut(const unsigned char[::1] data, int64_t start, int64_t first_line, int64_t every):
    """The first cut at least ``every`` bytes after ``start`` (a point where
    a game may begin, on line ``first_line``): ``(offset, games since start,
    line)``, or None when no tree closes there before the end."""
    cdef int64_t offset, games, line, n
    if start >= data.shape[0]:
        return None
    with nogil:
        n = sgf_find_cuts(&data[0], data.shape[0], start, first_line, every,
                          &offset, &games, &line, 1, block_walk)
    return (offset, games, line) if n else None
