"""Buffers of any item type given to the Python API (issue 16, item 10):
integers of any width and byte order and object arrays holding integers are
converted; anything else is a TypeError naming the dtype."""
import re
import subprocess
import sys
from array import array

import pytest

import needs
from havhex import InputError, havannah, hex as hx

np = needs.module("numpy")

RING = [(2, 3), (3, 4), (4, 4), (4, 3), (3, 2), (2, 2)]          # S = 3: ring in move 6

INTEGER_DTYPES = [">i4", "<i4", ">i8", "<i8", ">i2", "<i2", "i1", "u1", ">u2", "<u4", ">u4",
                  ">u8", "<u8", "=i4"]


def havannah_answers(size, moves):
    return (havannah.first_win(size, moves), havannah.enclosed_empty(size, moves),
            havannah.explain(size, moves))


@pytest.fixture(scope="module")
def ring_answers():
    return havannah_answers(3, RING)


@pytest.mark.parametrize("dtype", INTEGER_DTYPES)
def test_havannah_integer_dtypes_of_any_byte_order(dtype, ring_answers):
    moves = np.array(RING, dtype=dtype)
    assert havannah_answers(3, moves) == ring_answers
    assert havannah_answers(3, memoryview(moves)) == ring_answers
    # Not C-contiguous: every other row of a doubled array, and reversed twice.
    doubled = np.repeat(moves, 2, axis=0)[::2]
    assert havannah_answers(3, doubled) == ring_answers
    assert havannah_answers(3, moves[::-1][::-1]) == ring_answers


def test_havannah_big_endian_off_board_and_duplicate_faults():
    with pytest.raises(InputError, match=r"move 2, \(9, 9\), is off the board"):
        havannah.first_win(3, np.array([(1, 1), (9, 9)], dtype=">i4"))
    with pytest.raises(InputError, match="move 2"):
        havannah.first_win(3, np.array([(1, 1), (1, 1)], dtype=">i8"))


def test_havannah_object_arrays_of_integers(ring_answers):
    plain = np.array(RING, dtype=object)
    assert havannah_answers(3, plain) == ring_answers
    assert havannah_answers(3, memoryview(plain)) == ring_answers
    mixed = np.empty((len(RING), 2), dtype=object)
    for row, (x, y) in enumerate(RING):
        mixed[row] = (np.int16(x), int(y))
    assert havannah_answers(3, mixed) == ring_answers


@pytest.mark.parametrize("moves, named", [
    (np.array(RING, dtype=np.float64), "dtype float64"),
    (np.array(RING, dtype=">f4"), "dtype >f4"),
    (np.array(RING, dtype=np.complex128), "dtype complex128"),
    (np.array(RING, dtype=bool), "dtype bool"),
    (np.array(RING, dtype="U1"), "dtype <U1"),
    (np.array(RING, dtype="S1"), "dtype |S1"),
    (np.array(RING, dtype="M8[s]"), "dtype datetime64[s]"),
    (np.array([(1, 1), (1.0, 2)], dtype=object), "dtype object holding float"),
    (np.array([(1, 1), ("1", 2)], dtype=object), "dtype object holding str"),
    (np.array([(1, 1), (None, 2)], dtype=object), "dtype object holding NoneType"),
])
@pytest.mark.parametrize("function", [havannah.first_win, havannah.explain,
                                      havannah.enclosed_empty])
def test_havannah_other_dtypes_are_a_type_error_naming_them(function, moves, named):
    with pytest.raises(TypeError, match=f"^moves must hold integers, not {re.escape(named)}"):
        function(3, moves)


def test_havannah_part_of_an_object_buffer_is_refused_not_misread():
    # A slice's exporter is the whole array: its items would be the wrong ones.
    view = memoryview(np.array(RING + [(1, 1)], dtype=object))[:6]
    with pytest.raises(TypeError, match="buffer format 'O'"):
        havannah.first_win(3, view)


def test_havannah_plain_buffers_still_read_in_place():
    flat = array("q", [c for move in RING for c in move])
    assert havannah.first_win(3, memoryview(flat).cast("B").cast("q", [6, 2])).move == 6
    with pytest.raises(TypeError, match="buffer format 'd'"):
        havannah.first_win(3, memoryview(array("d", [1, 1])).cast("B").cast("d", [1, 2]))


# ---------------------------------------------------------------------------
# Hex boards as 2-D buffers
# ---------------------------------------------------------------------------

BOARD = ["BB", "R."]
CODES = [[ord(c) for c in row] for row in BOARD]


@pytest.fixture(scope="module")
def board_result():
    return hx.judge(BOARD)


@pytest.mark.parametrize("dtype", INTEGER_DTYPES)
def test_hex_character_codes_of_any_integer_dtype(dtype, board_result):
    board = np.array(CODES, dtype=dtype)
    assert hx.judge(board) == board_result
    assert hx.judge(memoryview(board)) == board_result
    assert hx.explain(board) == hx.explain(BOARD)


@pytest.mark.parametrize("board", [
    np.array([list(row) for row in BOARD]),                     # <U1
    np.array([list(row) for row in BOARD], dtype=">U1"),
    np.array([list(row) for row in BOARD], dtype="U3"),         # padded with NULs
    np.array([list(row) for row in BOARD], dtype="S1"),
    np.array([list(row) for row in BOARD], dtype="S2"),
    np.array([list(row) for row in BOARD], dtype=object),       # str
    np.array([[c.encode() for c in row] for row in BOARD], dtype=object),
    np.array(CODES, dtype=object),
    np.array(BOARD),                                            # 1-D of str: rows
    np.array(BOARD, dtype=">U2"),
])
def test_hex_strings_and_objects(board, board_result):
    assert hx.judge(board) == board_result
    assert hx.judge(memoryview(board)) == board_result


def test_hex_memoryview_of_wide_items_is_read():
    # Iterating a 2-D memoryview raises NotImplementedError: never rely on it.
    view = memoryview(array("i", [c for row in CODES for c in row])).cast("B").cast("i", [2, 2])
    assert hx.judge(view) == hx.judge(BOARD)


@pytest.mark.parametrize("board, named", [
    (np.array(CODES, dtype=np.float64), "dtype float64"),
    (np.array(CODES, dtype=">f8"), "dtype >f8"),
    (np.array(CODES, dtype="M8[s]"), "dtype datetime64[s]"),
    (np.array([[66, 66], [82, 46.0]], dtype=object), "dtype object holding float"),
    (np.array([["B", "B"], ["R", None]], dtype=object), "dtype object holding NoneType"),
])
def test_hex_other_dtypes_are_a_type_error_naming_them(board, named):
    with pytest.raises(TypeError, match=f"^a board buffer must hold characters or character "
                                        f"codes, not {re.escape(named)}"):
        hx.judge(board)


def test_hex_codes_beyond_a_byte_are_an_input_error():
    with pytest.raises(InputError, match="row 2 has the code 300 at column 1"):
        hx.judge(np.array([[66, 66], [300, 46]], dtype=">i4"))
    with pytest.raises(InputError, match="row 1 has the code -1 at column 2"):
        hx.judge(np.array([[66, -1], [82, 46]], dtype=object))


def test_the_api_does_not_import_numpy():
    # Not on import, and not when judging lists or plain buffers either (the
    # engine's typed-buffer dispatch would import it to look for arrays).
    code = ("import sys\n"
            "from array import array\n"
            "from havhex import havannah, hex\n"
            "print('numpy' in sys.modules)\n"
            "havannah.first_win(2, [(1, 1), (1, 2)])\n"
            "havannah.explain(2, [(1, 1), (1, 2)])\n"
            "havannah.enclosed_empty(2, [(1, 1), (1, 2)])\n"
            "flat = array('i', [1, 1, 1, 2])\n"
            "havannah.first_win(2, memoryview(flat).cast('B').cast('i', [2, 2]))\n"
            "hex.judge(memoryview(b'BBR.').cast('B', [2, 2]))\n"
            "hex.judge(memoryview(array('i', list(b'BBR.'))).cast('B').cast('i', [2, 2]))\n"
            "print('numpy' in sys.modules)\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout == "False\nFalse\n"
