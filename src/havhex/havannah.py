"""Havannah: the first move of one player's sequence that completes a structure.

>>> from havhex import havannah
>>> result = havannah.first_win(2, [(1, 1), (2, 2), (1, 2)])
>>> result.kinds, result.move, str(result)
(('bridge',), 3, 'bridge in move 3')

Boards are the statement's: cells ``(x, y)`` with ``1 <= x, y <= 2S-1`` and
``|x - y| <= S-1``; any ``S`` from 2 to 2**30 works, in memory that follows the
number of moves.
"""
import os
from array import array

from . import _havannah
from .errors import InputError

__all__ = [
    "Result", "first_win", "enclosed_empty", "judge_text", "judge_file",
    "format_results", "MAX_SIZE", "KINDS",
]

MAX_SIZE = 1 << 30
KINDS = ("bridge", "fork", "ring")
_KIND_BITS = (1, 2, 4)

# Error codes of the engine (mirrors the enum in _havannah.pyx).
_ERR_TOKEN, _ERR_T, _ERR_S, _ERR_M, _ERR_OFF_BOARD, _ERR_TRAILING, _ERR_MEMORY = range(1, 8)
_TOKEN_MISSING, _TOKEN_NOT_INTEGER, _TOKEN_TOO_LARGE, _TOKEN_IO_ERROR = range(1, 5)


class Result:
    """The verdict on one sequence of moves: immutable, hashable, comparable.

    ``kinds`` lists the structures completed, in the order bridge, fork,
    ring (empty when nothing was built); ``move`` is the 1-based winning move
    or ``None``.  ``str(result)`` is the judge's wording.
    """

    __slots__ = ("kinds", "move")

    def __init__(self, kinds, move):
        kinds = tuple(kinds)
        if any(kind not in KINDS for kind in kinds) or list(kinds) != sorted(set(kinds), key=KINDS.index):
            raise ValueError(f"kinds must be distinct names from {KINDS}, in that order")
        if (move is None) != (not kinds):
            raise ValueError("a result has kinds exactly when it has a move")
        object.__setattr__(self, "kinds", kinds)
        object.__setattr__(self, "move", move)

    @classmethod
    def _from_engine(cls, bits, move):
        if not bits:
            return _NONE
        self = object.__new__(cls)
        object.__setattr__(self, "kinds", tuple(k for b, k in zip(_KIND_BITS, KINDS) if bits & b))
        object.__setattr__(self, "move", move)
        return self

    def __setattr__(self, name, value):
        raise AttributeError("Result is immutable")

    def __delattr__(self, name):
        raise AttributeError("Result is immutable")

    def __bool__(self):
        """True when a structure was completed."""
        return bool(self.kinds)

    def __str__(self):
        if not self.kinds:
            return "none"
        return f"{'-'.join(self.kinds)} in move {self.move}"

    def __repr__(self):
        return f"Result(kinds={self.kinds!r}, move={self.move!r})"

    def __eq__(self, other):
        if not isinstance(other, Result):
            return NotImplemented
        return self.kinds == other.kinds and self.move == other.move

    def __hash__(self):
        return hash((self.kinds, self.move))

    def __reduce__(self):
        return (Result, (self.kinds, self.move))


_NONE = object.__new__(Result)
object.__setattr__(_NONE, "kinds", ())
object.__setattr__(_NONE, "move", None)


# ---------------------------------------------------------------------------
# Moves from Python objects
# ---------------------------------------------------------------------------

def _check_size(size):
    if not isinstance(size, int) or isinstance(size, bool):
        raise TypeError(f"size must be an int, not {type(size).__name__}")
    if not 2 <= size <= MAX_SIZE:
        raise InputError(f"board size S must be between 2 and {MAX_SIZE}, got {size}")


def _flat_coordinates(moves):
    """Interleaved x, y as a 1-D buffer the engine takes (int32 or int64)."""
    try:
        view = memoryview(moves)
    except TypeError:
        view = None
    if view is not None:
        if view.ndim == 2 and view.shape[0] == 0 and view.shape[1] == 2:
            return array("q")
        if view.ndim == 1 and view.shape[0] == 0:
            return array("q")
        if view.ndim != 2 or view.shape[1] != 2:
            raise InputError(f"moves must be an (M, 2) buffer, got shape {view.shape}")
        if (view.c_contiguous and view.itemsize in (4, 8)
                and view.format.lstrip("@=<") in ("i", "l", "q")):
            return view.cast("B").cast("i" if view.itemsize == 4 else "q")
        moves = view.tolist()
    try:
        iterator = iter(moves)
    except TypeError:
        raise TypeError(f"moves must be a sequence of (x, y) pairs or an (M, 2) buffer, "
                        f"not {type(moves).__name__}") from None
    flat = array("q")
    for number, move in enumerate(iterator, 1):
        try:
            x, y = move
            flat.append(x)
            flat.append(y)
        except (TypeError, ValueError, OverflowError):
            raise InputError(f"move {number} must be a pair of integers, got {move!r}") from None
    return flat


def _parsed_moves(size, moves):
    _check_size(size)
    parsed = _havannah.from_moves(size, _flat_coordinates(moves))
    if parsed.err_code:
        raise InputError(_fault_reason(parsed))
    return parsed


def first_win(size, moves):
    """Judge one sequence of moves on a board of side ``size``.

    ``moves`` is a sequence of ``(x, y)`` pairs or any C-contiguous ``(M, 2)``
    integer buffer (NumPy int32/int64 arrays included).  Raises
    :class:`havhex.InputError` for a move off the board or a hexagon played twice.
    """
    parsed = _parsed_moves(size, moves)
    parsed.judge()
    bits, move, duplicate = parsed.result(0)
    if duplicate >= 0:
        raise InputError(_duplicate_reason(parsed, 0, duplicate, in_file=False))
    return Result._from_engine(bits, move)


def enclosed_empty(size, stones):
    """Empty hexagons that cannot reach the outside of the board.

    The exact form of the ring rule, for any set of distinct stones: the result
    is non-empty exactly when the stones hold a ring.  Returns a sorted list
    of ``(x, y)``.  Time and memory follow the number of stones (plus the size
    of the answer), not the board.
    """
    parsed = _parsed_moves(size, stones)
    parsed.judge()
    _, _, duplicate = parsed.result(0)
    if duplicate >= 0:
        raise InputError(_duplicate_reason(parsed, 0, duplicate, in_file=False))
    coords = _flat_coordinates(stones) if parsed.n_moves else array("i")
    cells = []
    for x, first, last in _havannah.enclosed_runs(size, array("i", coords)):
        cells.extend((x, y) for y in range(first, last + 1))
    return cells


# ---------------------------------------------------------------------------
# The judge format
# ---------------------------------------------------------------------------

def _field_name(field, case, move):
    return (
        "the number of test cases T",
        f"the board size S of case #{case}",
        f"the number of moves M of case #{case}",
        f"the x of move {move} of case #{case}",
        f"the y of move {move} of case #{case}",
        "the end of the input",
    )[field]


def _fault_reason(parsed):
    code = parsed.err_code
    case = parsed.n_cases + 1
    if code == _ERR_TOKEN:
        what = _field_name(parsed.err_field, case, parsed.err_value)
        status = parsed.err_status
        token = (parsed.err_token or b"").decode("utf-8", "backslashreplace")
        if status == _TOKEN_MISSING:
            return f"input ends before {what}"
        if status == _TOKEN_NOT_INTEGER:
            return f"expected {what} as an integer, found {token!r}"
        if status == _TOKEN_TOO_LARGE:
            return f"{what} is too large: {token!r}"
        return f"cannot read the input: {os.strerror(parsed.err_io_errno)}"
    if code == _ERR_T:
        return f"the number of test cases T must not be negative, got {parsed.err_value}"
    if code == _ERR_S:
        return f"the board size S of case #{case} must be between 2 and {MAX_SIZE}, got {parsed.err_value}"
    if code == _ERR_M:
        size = parsed.err_size
        cells = 3 * size * (size - 1) + 1
        return (f"the number of moves M of case #{case} must be between 0 and {cells} "
                f"(the hexagons of a board with S = {size}), got {parsed.err_value}")
    if code == _ERR_OFF_BOARD:
        where = f" of case #{case}" if parsed.err_line else ""
        return (f"move {parsed.err_value}{where}, ({parsed.err_x}, {parsed.err_y}), "
                f"is off the board of size S = {parsed.err_size}")
    if code == _ERR_TRAILING:
        token = (parsed.err_token or b"").decode("utf-8", "backslashreplace")
        return f"unexpected data after the last test case: {token!r}"
    if code == _ERR_MEMORY:
        return "out of memory while reading the input"
    return f"unknown fault {code}"


def _duplicate_reason(parsed, case, move_index, in_file=True):
    first = parsed.first_played(case, move_index)
    (x, y) = parsed.case_moves(case)[move_index]
    where = f" of case #{case + 1}" if in_file else ""
    return f"move {move_index + 1}{where} plays ({x}, {y}) again (first played in move {first + 1})"


def _judge_parsed(parsed, source):
    """Results of a judged input, or the InputError of its first fault."""
    bits, moves, duplicate = parsed.results()
    if duplicate is not None:
        case, move_index = duplicate
        raise InputError(_duplicate_reason(parsed, case, move_index), source,
                         parsed.move_line(case, move_index))
    if parsed.err_code:
        repeat = parsed.partial_duplicate()
        if repeat is not None:
            move_index, first, x, y, line = repeat
            raise InputError(f"move {move_index + 1} of case #{parsed.n_cases + 1} plays ({x}, {y}) "
                             f"again (first played in move {first + 1})", source, line)
        raise InputError(_fault_reason(parsed), source, parsed.err_line)
    from_engine = Result._from_engine
    return [from_engine(b, m) for b, m in zip(bits, moves)]


def judge_text(text, *, source="<string>", threads=1):
    """Judge a whole input in the judge format (``str`` or bytes-like).

    Returns one :class:`Result` per case; raises :class:`havhex.InputError`
    (whose text names ``source`` and the line) for the first fault.
    """
    if isinstance(text, str):
        try:
            text = text.encode()
        except UnicodeEncodeError as exc:
            raise InputError(f"the input is not valid text: {exc.reason}", source) from None
    return _judge_parsed(_havannah.parse_and_judge(text, threads), source)


def judge_file(file, *, threads=1, progress=None):
    """Judge an input file: a path, ``"-"`` for standard input, or an open
    binary file.  Paths and standard input are streamed through a fixed
    buffer, never held in memory whole.  ``progress(bytes_read, cases_read,
    cases_judged)`` is called about ten times a second when given."""
    if isinstance(file, (str, bytes, os.PathLike)) and os.fspath(file) in ("-", b"-"):
        return _judge_source(_open_stdin(), "<stdin>", threads, progress)
    if isinstance(file, (str, bytes, os.PathLike)):
        source = os.fsdecode(file)
        try:
            descriptor = os.open(file, os.O_RDONLY)
        except OSError as exc:
            raise InputError(f"cannot open: {exc.strerror}", source) from None
        try:
            return _judge_source(descriptor, source, threads, progress)
        finally:
            os.close(descriptor)
    return _judge_source(file.read(), getattr(file, "name", "<stream>"), threads, progress)


def _open_stdin():
    """Standard input as a descriptor when it has one, else as bytes."""
    import sys

    try:
        return sys.stdin.fileno()
    except (AttributeError, OSError, ValueError):
        return sys.stdin.buffer.read()


def _judge_source(source_data, source, threads, progress=None):
    return _judge_parsed(_havannah.parse_and_judge(source_data, threads, progress=progress),
                         source)


def format_results(results):
    """The judge's output for a list of results."""
    return "".join(f"Case #{number}: {result}\n" for number, result in enumerate(results, 1))
