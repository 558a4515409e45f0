# The integer action ids of havannah/_board.pyx (included there, after the
# board), the batches' and OpenSpiel's: cell (x, y) is (x-1) * (2S-1) + (y-1),
# an index into the (2S-1)-square around the hexagon, whose corners off the
# hexagon are never legal.  The swap (the pie rule) is played as OpenSpiel
# plays it: on the first stone's cell, whose action is legal again while the
# swap is.
from cpython.array cimport array
from cpython.list cimport PyList_New, PyList_SET_ITEM
from cpython.ref cimport Py_INCREF
from havhex._native.actions cimport action_number, new_actions

cdef array _ACTIONS = array("i")

# The (x, y) tuples of every cell by action id (None off the hexagon), made
# once per base: legal_moves() and move_of() hand out these instead of a
# new tuple a cell a call.  Larger boards make their tuples as they go, and
# the bases kept are few (base 32, 3969 action ids, holds some 300 KB).
cdef Py_ssize_t CELL_TUPLES_MAX_SIZE = 32
cdef Py_ssize_t CELL_TUPLES_MAX_SIZES = 16
cdef dict _CELL_TUPLES = {}


cdef tuple cell_tuples(BoardCore board):
    """The board's tuple of cell tuples by action id, or None above base
    CELL_TUPLES_MAX_SIZE."""
    cdef Py_ssize_t size = board.position.size, d = 2 * board.position.size - 1
    cdef tuple cells
    if board.cell_tuples is not None:
        return board.cell_tuples
    if size > CELL_TUPLES_MAX_SIZE:
        return None
    cells = _CELL_TUPLES.get(size)
    if cells is None:
        if len(_CELL_TUPLES) >= CELL_TUPLES_MAX_SIZES:
            _CELL_TUPLES.clear()
        cells = tuple([(x, y) if abs(x - y) < size else None
                       for x in range(1, d + 1) for y in range(1, d + 1)])
        _CELL_TUPLES[size] = cells
    board.cell_tuples = cells
    return cells


cdef inline int32_t swap_cell(BoardCore board):
    """The first stone's cell while the swap is legal, else -1."""
    return board.log[0].cell if board._swap_legal() else -1


cdef list board_legal_moves(BoardCore board):
    """The empty cells' moves (their shared tuples), then the swap."""
    cdef array actions = legal_action_array(board, False)
    cdef const int* ids = actions.data.as_ints
    cdef Py_ssize_t k, n = len(actions), d = 2 * board.position.size - 1
    cdef tuple cells = cell_tuples(board)
    cdef bint swap = n and board._swap_legal()
    cdef list moves = PyList_New(n + swap)
    for k in range(n):
        move = cells[ids[k]] if cells is not None else (ids[k] // d + 1, ids[k] % d + 1)
        Py_INCREF(move)
        PyList_SET_ITEM(moves, k, move)
    if swap:
        Py_INCREF(SWAP)
        PyList_SET_ITEM(moves, n, SWAP)
    return moves


cdef array board_legal_actions(BoardCore board):
    return legal_action_array(board, True)


cdef array legal_action_array(BoardCore board, bint with_swap):
    """The legal actions, ascending; the swap's (the first stone's cell)
    among them when ``with_swap`` and the swap is legal."""
    if board.block == NULL:
        _unmade()
    cdef Position* p = &board.position
    cdef Py_ssize_t x, j, lo, hi, first, w = p.width, size = p.size, last = 2 * p.size - 1
    cdef Py_ssize_t n = 0, k = 0, swap = -1
    cdef array actions
    cdef int* out
    # In a local: a store through ``out`` could otherwise be the field's,
    # for all the compiler knows, and reload it at every cell.
    cdef const uint8_t* cells = p.cells
    cdef const uint8_t* line
    if not p.winner and p.n_empty:
        if with_swap and board._swap_legal():
            swap = board.log[0].cell
            swap = (swap // w - 1) * last + swap % w - 1
        n = p.n_empty + (swap >= 0)
    actions = new_actions(_ACTIONS, n, last)
    out = actions.data.as_ints
    if n == 0:
        return actions
    for x in range(1, last + 1):
        # n_empty says how many cells are empty; whatever it says, a row
        # starting at most at n stays in the array's room.
        if k > n:
            k = n
        lo = max(1, x - size + 1)
        hi = min(last, x + size - 1)
        line = cells + x * w + lo
        first = (x - 1) * last + lo - 1
        for j in range(hi - lo + 1):
            # Without a branch: the empty cells follow no pattern a
            # predictor learns.
            out[k] = <int>(first + j)
            k += line[j] == EMPTY
    if swap >= 0 and k < n:
        # The swap's action, a stone's cell, in its place among the empty ones.
        while k > 0 and out[k - 1] > swap:
            out[k] = out[k - 1]
            k -= 1
        out[k] = <int>swap
    return actions


def _numpy_for(what):
    try:
        import numpy
    except ImportError:
        raise ImportError(f"havhex.havannah.Board.{what} needs NumPy (pip install numpy)") from None
    return numpy


cdef object board_legal_mask(BoardCore board):
    if board.block == NULL:
        _unmade()
    np = _numpy_for("legal_mask")
    cdef Py_ssize_t d = 2 * board.position.size - 1
    cdef bytearray mask = bytearray(d * d)
    cdef char* out = mask
    cdef array actions = board_legal_actions(board)
    cdef Py_ssize_t k
    for k in range(len(actions)):
        out[actions.data.as_ints[k]] = 1
    return np.frombuffer(mask, dtype=np.bool_)


cdef int32_t action_cell(BoardCore board, action) except -1:
    """The cell of an action id on the hexagon; InputError for any other."""
    cdef Py_ssize_t number = action_number(action)
    cdef Py_ssize_t d = 2 * board.position.size - 1
    cdef int32_t cell
    if 0 <= number < d * d:
        cell = <int32_t>((number // d + 1) * board.position.width + number % d + 1)
        if board.position.cells[cell] != OFF_BOARD:
            return cell
        raise InputError(f"action {action} is cell {(number // d + 1, number % d + 1)}, off the "
                         f"board of size S = {board.position.size}")
    raise InputError(f"action {action} is not one of the {d * d} actions of the board of "
                     f"size S = {board.position.size} (0 to {d * d - 1})")


cdef object board_play_action(BoardCore board, action):
    """What ``play(move_of(action))`` does (same answers, same errors)."""
    if board.block == NULL:
        _unmade()
    cdef int32_t cell = action_cell(board, action)
    if board.position.winner or board.position.n_empty == 0:
        board._check_not_over()
    if cell == swap_cell(board):
        cell = -1
    return board._move(cell, board.position.to_move)


cdef object board_move_of(BoardCore board, action):
    if board.block == NULL:
        _unmade()
    cdef int32_t cell = action_cell(board, action)
    cdef int32_t w = board.position.width, d = 2 * board.position.size - 1
    cdef tuple cells
    if cell == swap_cell(board):
        return SWAP
    cells = cell_tuples(board)
    if cells is not None:
        return cells[(cell // w - 1) * d + cell % w - 1]
    return (cell // w, cell % w)


cdef Py_ssize_t board_action_of(BoardCore board, move) except -1:
    if board.block == NULL:
        _unmade()
    cdef int32_t cell = board._cell_of(move)
    cdef int32_t w = board.position.width, d = 2 * board.position.size - 1
    if cell < 0:
        cell = swap_cell(board)
        if cell < 0:
            raise InputError("'swap' has an action id (the first stone's cell) only while "
                             "it is legal: as the second player's first move, on a board "
                             "made with swap=True")
    return <Py_ssize_t>(cell // w - 1) * d + cell % w - 1
