# The names and coordinates of hex/_board.pyx (included there, after the
# board): cell names for the records, and the checks of a cell's numbers.

def name_of_cell(cell):
    """The SGF Hex name of a Hex cell ``(row, col)`` (from 0): ``(0, 0)`` is
    ``a1``, ``(2, 27)`` is ``ab3``.  :class:`havhex.InputError` for a cell
    on no board (a negative coordinate, or beyond the largest board),
    TypeError for anything but a pair of integers."""
    if not isinstance(cell, (tuple, list)) or len(cell) != 2:
        raise TypeError(f"a cell is a (row, col) pair of ints, not {_shown(cell)}")
    row = integer(cell[0], "row")
    col = integer(cell[1], "col")
    # The cell is on the smallest board that holds it, (row + 1) x (col + 1),
    # when that board is allowed (see Board's size check).
    if row < 0 or col < 0 or (row + 3) * (col + 2) + 4 > MAX_CELLS:
        raise InputError(f"({row}, {col}) is on no Hex board")
    return cell_name(SGF_HEX, 0, row, col)


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
