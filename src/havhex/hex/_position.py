"""One board judged and explained: a board from Python objects (strings,
rows, buffers), the judge's verdict and witness on it.  Below the board,
which explains itself through :func:`explain`, and re-exported by
:mod:`havhex.hex`."""
from ._explanation import HexExplanation
from ..errors import InputError
# The compiled judge has no stub: to a type checker its objects are Any.
from . import _judge  # type: ignore[attr-defined]
from ._faults import _fault_reason
from ._names import CODE_LETTERS
from ._result import (_COLOUR_OF_CODE, _IMPOSSIBLE_BY_CODE, _IMPOSSIBLE_CODE, _NOBODY,
                      _NOBODY_WINS, _STATUS_OF_CODE, Result)

# The annotations are for type checkers only, in quotes where they name what
# is imported here: a judge run's start-up imports neither typing nor
# __future__.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Callable, List, Optional, Sequence, Tuple, TypeVar, Union

    from .._explanation import Explanation

    _T = TypeVar("_T")
    _Buffer = object  # collections.abc.Buffer from Python 3.12
    # A 2-D buffer holds characters (NumPy S/U), character codes (any integer
    # dtype) or objects that are either; other dtypes raise TypeError.
    _Rows = Union[str, bytes, Sequence[Union[str, bytes, Sequence[str]]], memoryview, _Buffer]

__all__ = ["judge", "explain", "Result"]


def _row_bytes(row: "Any", number: int) -> bytes:
    if isinstance(row, str):
        return row.encode("utf-8", "backslashreplace")
    if isinstance(row, (bytes, bytearray, memoryview)):
        return bytes(row)
    try:
        cells = list(row)
    except TypeError:
        raise InputError(f"row {number} must be a string, got {type(row).__name__}") from None
    try:
        return b"".join(c if isinstance(c, bytes) else str(c).encode("utf-8", "backslashreplace")
                        for c in cells)
    except TypeError:
        raise InputError(f"row {number} must be a string or a sequence of characters") from None


_BOARD_WANTED = "a board buffer must hold characters or character codes"


def _board_rows(rows: "Any") -> "List[bytes]":
    """The rows of a board as a list of bytes."""
    from .. import _buffers

    if isinstance(rows, (str, bytes, bytearray)):
        return [_row_bytes(row, number) for number, row in enumerate(rows.split(), 1)]
    view = _buffers.view_of(rows, _BOARD_WANTED)
    if view is not None and view.ndim == 2 and view.itemsize == 1:
        data = _stone_codes(view.tobytes())
        width = view.shape[1]
        return [data[i * width:(i + 1) * width] for i in range(view.shape[0])]
    if view is not None and view.ndim == 1 and view.itemsize == 1:
        return _board_rows(view.tobytes())
    if view is not None and view.ndim == 2:
        return _buffer_rows(rows, view)
    if view is not None and view.ndim == 1:
        kind = _buffers.item_kind(view)
        if kind is not None and kind[0] in (_buffers.TEXT, _buffers.BYTES):
            return _string_rows(view, kind, view.shape[0], 1)
    try:
        return [_row_bytes(row, number) for number, row in enumerate(rows, 1)]
    except NotImplementedError:  # a bare memoryview of items it cannot show
        raise TypeError(f"{_BOARD_WANTED}, not {_buffers.describe(rows, view)}") from None


def _stone_codes(data: bytes) -> bytes:
    """``data`` with 0, 1, 2 read as ``.``, ``R``, ``B`` when it holds only those."""
    return data.translate(CODE_LETTERS) if not data.translate(None, b"\x00\x01\x02") else data


def _string_rows(view: memoryview, kind: "Tuple[Any, int, bool]", height: int,
                 width: int) -> "List[bytes]":
    """Rows of a buffer of NumPy strings (``str`` or ``bytes``), each item
    padded with NULs to the same length, as NumPy stores them."""
    from .. import _buffers

    what, count, swapped = kind
    if what == _buffers.TEXT:
        text = _buffers.text_items(view, count, swapped)
        step = width * count
        return [text[i * step:(i + 1) * step].replace("\0", "").encode("utf-8", "backslashreplace")
                for i in range(height)]
    data = view.tobytes()
    step = width * count
    return [data[i * step:(i + 1) * step].replace(b"\0", b"") for i in range(height)]


def _buffer_rows(rows: "Any", view: memoryview) -> "List[bytes]":
    """The rows of a 2-D buffer of characters: NumPy strings, character codes
    of any integer type and byte order, or objects (str, bytes or codes)."""
    from .. import _buffers

    if TYPE_CHECKING:
        # The callers pass a 2-D view, which has a shape.
        assert view.shape is not None
    height, width = view.shape
    kind = _buffers.item_kind(view)
    if kind is None:
        raise TypeError(f"{_BOARD_WANTED}, not {_buffers.describe(rows, view)}")
    what, _, swapped = kind
    if what in (_buffers.TEXT, _buffers.BYTES):
        return _string_rows(view, kind, height, width)
    if what == _buffers.INTEGER:
        values = _buffers.native_integers(view, _buffers.is_signed(view), swapped)
        if values is None:
            raise TypeError(f"{_BOARD_WANTED}, not {_buffers.describe(rows, view)}")
        if len(values) and min(values) >= 0 and max(values) <= 2:   # a Board.to_array layout
            data = _stone_codes(bytes(values.tolist()))
            return [data[i * width:(i + 1) * width] for i in range(height)]
        board: "List[Any]" = [values[i * width:(i + 1) * width].tolist() for i in range(height)]
    else:
        items = _buffers.object_items(rows, view)
        if items is None:
            raise TypeError(f"a board of {_buffers.describe(rows, view)} must be passed as the "
                            f"array itself, whose items can be read")
        board = items
    holder = _buffers.describe(rows, view)
    return [b"".join(_cell_bytes(cell, number, column, holder) for column, cell in enumerate(row, 1))
            for number, row in enumerate(board, 1)]


def _cell_bytes(cell: "Any", number: int, column: int, holder: str) -> bytes:
    """One cell of a buffer: a character (str or bytes) or a character code."""
    if isinstance(cell, str):
        return cell.encode("utf-8", "backslashreplace")
    if isinstance(cell, (bytes, bytearray)):
        return bytes(cell)
    if hasattr(type(cell), "__index__") and not isinstance(cell, bool):
        code = cell.__index__()
        if 0 <= code <= 255:
            return bytes((code,))
        raise InputError(f"row {number} has the code {code} at column {column}; "
                         f"only B, R and . are allowed")
    raise TypeError(f"{_BOARD_WANTED}, not {holder} holding {type(cell).__name__} "
                    f"({cell!r} in row {number})")


def _parsed_board(rows: "_Rows") -> "Any":
    rows = _board_rows(rows)
    if not rows:
        raise InputError("a board needs at least one row")
    parsed = _judge.from_rows(rows)
    if parsed.err_code:
        raise InputError(_fault_reason(parsed, in_file=False))
    return parsed


# Boards of at least this many cells, and inputs in memory of at least this
# many bytes, are judged on a worker thread while the caller waits, so that an
# interrupt stops them at once; smaller ones take less time than starting a
# thread.
_WAIT_ON_A_WORKER_FROM = 1 << 18


def _cancellable(parsed: "Any", work: "Callable[[], _T]", size: int) -> "_T":
    """``work()``, compiled work on ``parsed`` of ``size`` cells or bytes: on
    a worker thread while this one waits once it is large enough to matter,
    so that an interrupt cancels it and is raised here at once."""
    from .._threads import run_cancellable

    return run_cancellable(work, parsed.cancel, size >= _WAIT_ON_A_WORKER_FROM)


def judge(rows: "_Rows") -> Result:
    """Judge one board.

    ``rows`` is a list of N strings (or bytes) of N characters ``B``, ``R``
    and ``.``; a string with the rows separated by white space; or a 2-D
    buffer of characters: NumPy ``S``/``U`` strings, character codes of any
    integer dtype and byte order (``uint8``, ``>i4``...), or dtype object
    holding str, bytes or codes; an integer array holding only 0, 1 and 2
    is read as :meth:`Board.to_array` writes it (empty, red, blue).  Raises :class:`havhex.InputError` for a
    malformed board and ``TypeError`` naming the dtype for a buffer of
    anything else (float...).
    """
    parsed = _parsed_board(rows)
    _cancellable(parsed, parsed.judge, parsed.case_size(0) ** 2)
    return _results(parsed)[0]


def explain(rows: "_Rows") -> "Explanation":
    """Judge one board and return its :class:`Explanation` (``case`` None):
    the ``result``, the counts ``red_stones`` and ``blue_stones``, and the
    ``chains``, ``(colour, cells)`` pairs, ``colour`` ``"red"`` or
    ``"blue"`` and ``cells`` a tuple of ``(row, col)``, each adjacent to the
    next, from the colour's first side (top row, left column) to its second:

    * a win: one winning chain (``result.last_moves`` are on it);
    * ``"no-single-last-move"``: two stone-disjoint winning chains;
    * ``"both-connected"``: Red's chain, then Blue's;
    * ``"loser-moved-last"``: the winner's chain;
    * otherwise none.

    Slower than :func:`judge` only by the witness work."""
    return _explanation(_parsed_board(rows), 0, None)


def _explanation(parsed: "Any", case: int, number: "Optional[int]") -> "Explanation":
    """The :class:`Explanation` of case ``case`` of ``parsed`` (0-based),
    numbered ``number`` (None for a board on its own)."""
    status, reason, red, blue, last_moves, chains = _cancellable(
        parsed, lambda: parsed.explain(case), parsed.case_size(case) ** 2)
    if status == _IMPOSSIBLE_CODE:
        result = _IMPOSSIBLE_BY_CODE[reason]
    elif status == _NOBODY_WINS:
        result = _NOBODY
    else:
        result = Result._make(_STATUS_OF_CODE[status], None, frozenset(last_moves))
    chains = tuple((_COLOUR_OF_CODE[colour], tuple(cells)) for colour, cells in chains)
    return HexExplanation.of(result, number, (red, blue, chains))


def _results(parsed: "Any") -> "List[Result]":
    """The verdicts of a judged input; a win's last moves wait until read."""
    statuses, reasons = parsed.verdict_codes()
    results: "List[Result]" = []
    append = results.append
    for case, (status, reason) in enumerate(zip(statuses, reasons)):
        if status == _IMPOSSIBLE_CODE:
            append(_IMPOSSIBLE_BY_CODE[reason])
        elif status == _NOBODY_WINS:
            append(_NOBODY)
        else:
            append(Result._win(_STATUS_OF_CODE[status], parsed, case))
    return results
