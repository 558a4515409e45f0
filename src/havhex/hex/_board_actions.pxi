# The integer action ids of hex/_board.pyx (included there, after the board),
# the batches' ids: cell (row, col) is row * cols + col, and "swap-pieces"
# is rows * cols, the last (as pgx and EnvPool number them).  "swap-sides"
# has no id: a batch has no move that exchanges the players' colours.
from cpython.array cimport array
from cpython.list cimport PyList_New, PyList_SET_ITEM
from cpython.ref cimport Py_INCREF
from havhex._native.actions cimport action_number, new_actions

cdef array _ACTIONS = array("i")

# The (row, col) tuples of every cell by action id, made once per board
# size: legal_moves() and move_of() hand out these instead of a new tuple a
# cell a call.  Boards of more cells make their tuples as they go, and the
# sizes kept are few (a board of 4096 cells holds some 300 KB of them).
cdef Py_ssize_t CELL_TUPLES_MAX_CELLS = 4096
cdef Py_ssize_t CELL_TUPLES_MAX_SIZES = 16
cdef dict _CELL_TUPLES = {}


cdef tuple cell_tuples(BoardCore board):
    """The board's tuple of cell tuples by action id, or None for a board
    of more than CELL_TUPLES_MAX_CELLS cells."""
    cdef Py_ssize_t rows = board.g.rows, cols = board.g.cols
    cdef tuple cells
    if board.cell_tuples is not None:
        return board.cell_tuples
    if rows * cols > CELL_TUPLES_MAX_CELLS:
        return None
    cells = _CELL_TUPLES.get((rows, cols))
    if cells is None:
        if len(_CELL_TUPLES) >= CELL_TUPLES_MAX_SIZES:
            _CELL_TUPLES.clear()
        cells = tuple([(row, col) for row in range(rows) for col in range(cols)])
        _CELL_TUPLES[(rows, cols)] = cells
    board.cell_tuples = cells
    return cells


cdef bint swap_pieces_legal(BoardCore board) noexcept:
    """Whether "swap-pieces" is a legal move now (its mirror cell on the board)."""
    cdef int32_t cell = board._swap_cell()
    return cell >= 0 and board._mirror(cell) >= 0


cdef list board_legal_moves(BoardCore board):
    """The legal actions' moves (the cells' shared tuples), then the swaps."""
    cdef array actions = board_legal_actions(board)
    cdef const int* ids = actions.data.as_ints
    cdef Py_ssize_t k, n = len(actions), cells_n = <Py_ssize_t>board.g.rows * board.g.cols
    cdef tuple cells = cell_tuples(board)
    cdef bint sides = board._swap_cell() >= 0
    cdef list moves = PyList_New(n + sides)
    for k in range(n):
        if ids[k] == cells_n:
            move = SWAP_PIECES
        elif cells is not None:
            move = cells[ids[k]]
        else:
            move = (ids[k] // board.g.cols, ids[k] % board.g.cols)
        Py_INCREF(move)
        PyList_SET_ITEM(moves, k, move)
    if sides:
        Py_INCREF(SWAP_SIDES)
        PyList_SET_ITEM(moves, n, SWAP_SIDES)
    return moves


cdef array board_legal_actions(BoardCore board):
    if board.parent == NULL:
        _unmade()
    cdef Py_ssize_t row, col, first, n = 0, k = 0
    cdef Py_ssize_t rows = board.g.rows, cols = board.g.cols, width = board.g.width
    cdef bint swap = False
    cdef array actions
    cdef int* out
    # In a local: a store through ``out`` could otherwise be the field's,
    # for all the compiler knows, and reload it at every cell.
    cdef const uint8_t* stones = board.stones
    cdef const uint8_t* line
    if not board.winner_code:
        swap = swap_pieces_legal(board)
        n = rows * cols - board.red_count - board.blue_count + swap
    actions = new_actions(_ACTIONS, n, cols)
    out = actions.data.as_ints
    if n == 0:
        return actions
    for row in range(rows):
        # The counts say how many cells are empty; whatever they say, a row
        # starting at most at n stays in the array's room.
        if k > n:
            k = n
        line = stones + (row + 1) * width
        first = row * cols
        for col in range(cols):
            # Without a branch: the empty cells follow no pattern a
            # predictor learns.
            out[k] = <int>(first + col)
            k += line[col] == EMPTY
    if swap and k < n:
        out[k] = <int>(rows * cols)
    return actions


def _numpy_for(what):
    try:
        import numpy
    except ImportError:
        raise ImportError(f"havhex.hex.Board.{what} needs NumPy (pip install numpy)") from None
    return numpy


cdef object board_legal_mask(BoardCore board):
    if board.parent == NULL:
        _unmade()
    np = _numpy_for("legal_mask")
    cdef Py_ssize_t n = <Py_ssize_t>board.g.rows * board.g.cols
    cdef bytearray mask = bytearray(n + 1)
    cdef char* out = mask
    cdef array actions = board_legal_actions(board)
    cdef Py_ssize_t k
    for k in range(len(actions)):
        out[actions.data.as_ints[k]] = 1
    return np.frombuffer(mask, dtype=np.bool_)


cdef object board_play_action(BoardCore board, action):
    """What ``play(move_of(action))`` does (same answers, same errors)."""
    if board.parent == NULL:
        _unmade()
    cdef Py_ssize_t number = action_number(action)
    cdef Py_ssize_t n = <Py_ssize_t>board.g.rows * board.g.cols
    cdef int32_t row, col, cell
    if not 0 <= number < n:
        if number == n:
            return board._play_swap(SWAP_PIECES)
        _bad_action(board, action)
    row = <int32_t>(number // board.g.cols)
    col = <int32_t>(number - <Py_ssize_t>row * board.g.cols)
    if board.winner_code:
        board._over()
    cell = (row + 1) * board.g.width + col
    if board.stones[cell]:
        raise InputError(f"({row}, {col}) is taken by {PLAYERS[board.stones[cell] - 1]}")
    return _CHAIN if board._place(cell, row, col) else _NOTHING


cdef int _bad_action(BoardCore board, action) except -1:
    raise InputError(f"action {action} is not one of the {board.g.rows * board.g.cols + 1} "
                     f"actions of the {board.g.rows} x {board.g.cols} board (0 to "
                     f"{board.g.rows * board.g.cols})")


cdef object board_move_of(BoardCore board, action):
    if board.parent == NULL:
        _unmade()
    cdef Py_ssize_t number = action_number(action)
    cdef Py_ssize_t n = <Py_ssize_t>board.g.rows * board.g.cols
    cdef tuple cells
    if not 0 <= number < n:
        if number == n:
            return SWAP_PIECES
        _bad_action(board, action)
    cells = cell_tuples(board)
    if cells is not None:
        return cells[number]
    return (number // board.g.cols, number % board.g.cols)


cdef Py_ssize_t board_action_of(BoardCore board, move) except -1:
    if board.parent == NULL:
        _unmade()
    cdef Py_ssize_t row, col
    if isinstance(move, str):
        if move != SWAP_PIECES and move != SWAP_SIDES:
            move = board._named(move)
        if move == SWAP_PIECES:
            return <Py_ssize_t>board.g.rows * board.g.cols
        if move == SWAP_SIDES:
            raise InputError(f"{SWAP_SIDES} has no action id (the batches have no such "
                             f"move): play it with play()")
    elif not isinstance(move, (tuple, list)) or len(move) != 2:
        raise TypeError(f"a move is a cell (row, col), its name or a swap, not {_shown(move)}")
    row = _coordinate(move[0], "row")
    col = _coordinate(move[1], "col")
    if not (0 <= row < board.g.rows and 0 <= col < board.g.cols):
        raise InputError(f"({row}, {col}) is off the {board.g.rows} x {board.g.cols} board")
    return row * board.g.cols + col
