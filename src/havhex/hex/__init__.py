"""Hex: is a position possible, and if so, who has won?

>>> from havhex import hex
>>> result = hex.judge(["BR", "BB"])
>>> str(result), result.reason
('Impossible', 'counts')
>>> result = hex.judge(["BB", "R."])
>>> str(result), sorted(result.last_moves)
('Blue wins', [(0, 0), (0, 1)])

Cell ``(i, j)`` is row ``i`` (0-based, top to bottom), column ``j``.  Red joins
the top row to the bottom row, Blue the left column to the right column; a
corner cell lies on both of its sides.  A position is possible only if the
stone counts differ by at most one, at most one colour has a winning chain,
the winner has at least as many stones as the loser, and some single stone of
the winner lies on every winning chain (that stone was the last move).
Boards may be larger than the statement's N = 100, up to :data:`MAX_SIZE`.
"""

from . import _judge
from .._checks import thread_count
from .._source import encode_text, read_input
from .._explanation import Explanation
from .._frozen import Frozen
from ..errors import InputError, shared_fault_reason, shown_bytes

__all__ = [
    "Result", "Explanation", "judge", "explain", "judge_text", "judge_file",
    "explain_text", "explain_file", "iter_explain_file", "explanation_record",
    "format_results", "STATUSES", "REASONS", "MAX_SIZE", "Board",
]

MAX_SIZE = _judge.MAX_SIZE

# The names of the engine's codes, in the order of its VERDICT_CODES,
# REASON_CODES and COLOUR_CODES.
STATUSES = ("Nobody wins", "Red wins", "Blue wins", "Impossible")
REASONS = ("counts", "both-connected", "loser-moved-last", "no-single-last-move")
_NOBODY_WINS, _RED_WINS, _BLUE_WINS, _IMPOSSIBLE_CODE = _judge.VERDICT_CODES
_STATUS_OF_CODE = dict(zip(_judge.VERDICT_CODES, STATUSES))
_REASON_OF_CODE = dict(zip(_judge.REASON_CODES, REASONS))
_COLOUR_OF_CODE = dict(zip(_judge.COLOUR_CODES, ("red", "blue")))
_IMPOSSIBLE = "Impossible"
_WINS = {"Red wins": "red", "Blue wins": "blue"}

_ERR_TOKEN, _ERR_T, _ERR_N_SMALL, _ERR_N_LARGE, _ERR_ROW_MISSING, _ERR_ROW_LENGTH, \
    _ERR_ROW_CHAR, _ERR_TRAILING, _ERR_MEMORY = _judge.FAULT_CODES


class Result(Frozen):
    """The verdict on one position: immutable, hashable, comparable.

    ``status`` is the judge's wording (also ``str(result)``): ``"Impossible"``,
    ``"Red wins"``, ``"Blue wins"`` or ``"Nobody wins"``.  ``reason`` says why
    a position is impossible (one of :data:`REASONS`, the first check that
    fails) and is ``None`` otherwise.  ``last_moves`` is, for a win, the
    frozenset of the winner's stones ``(row, col)`` that lie on every winning
    chain, i.e. the cells the last move could have been; empty otherwise.
    A result of :func:`judge`, :func:`judge_text` or :func:`judge_file`
    finds them when they are first read (the verdict does not need them),
    and until then keeps its input's boards.
    """

    __slots__ = ("status", "reason", "_last_moves", "_pending")

    def __init__(self, status, reason=None, last_moves=frozenset()):
        if status not in STATUSES:
            raise ValueError(f"status must be one of {STATUSES}, got {status!r}")
        if (status == _IMPOSSIBLE) != (reason is not None):
            raise ValueError("a result has a reason exactly when it is Impossible")
        if reason is not None and reason not in REASONS:
            raise ValueError(f"reason must be one of {REASONS}, got {reason!r}")
        last_moves = frozenset((int(row), int(col)) for row, col in last_moves)
        if (status in _WINS) != bool(last_moves):
            raise ValueError("a result has last moves exactly when somebody wins")
        self._set(status=status, reason=reason, _last_moves=last_moves, _pending=None)

    @classmethod
    def _make(cls, status, reason, last_moves):
        return cls._build(status=status, reason=reason, _last_moves=last_moves, _pending=None)

    @classmethod
    def _win(cls, status, parsed, case):
        """A win whose last moves are found in ``parsed`` when first read."""
        return cls._build(status=status, reason=None, _last_moves=None, _pending=(parsed, case))

    @property
    def last_moves(self):
        """The winner's stones on every winning chain (a frozenset)."""
        # ``_pending`` is read first and cleared last, so a thread that finds
        # it cleared also finds the moves another thread has stored.
        pending = self._pending
        moves = self._last_moves
        if moves is None:
            parsed, case = pending
            moves = frozenset(parsed.last_moves(case))
            self._set(_last_moves=moves)
            self._set(_pending=None)       # lets the input's boards go
        return moves

    @property
    def possible(self):
        """False for an impossible position."""
        return self.status != _IMPOSSIBLE

    @property
    def winner(self):
        """``"red"``, ``"blue"`` or ``None``."""
        return _WINS.get(self.status)

    def __str__(self):
        return self.status

    def __repr__(self):
        if self.reason is not None:
            return f"Result({self.status!r}, reason={self.reason!r})"
        if self.last_moves:
            return f"Result({self.status!r}, last_moves={set(sorted(self.last_moves))!r})"
        return f"Result({self.status!r})"

    def __eq__(self, other):
        if not isinstance(other, Result):
            return NotImplemented
        return (self.status == other.status and self.reason == other.reason
                and self.last_moves == other.last_moves)

    def __hash__(self):
        return hash((self.status, self.reason, self.last_moves))

    def __reduce__(self):
        return (Result, (self.status, self.reason, self.last_moves))


_NOBODY = Result._make(STATUSES[0], None, frozenset())
_IMPOSSIBLE_BY_CODE = {code: Result._make(_IMPOSSIBLE, reason, frozenset())
                       for code, reason in _REASON_OF_CODE.items()}


# ---------------------------------------------------------------------------
# Boards from Python objects
# ---------------------------------------------------------------------------

def _row_bytes(row, number):
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


def _board_rows(rows):
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


# The stone codes of an array such as ``Board.to_array`` gives (0 empty,
# 1 red, 2 blue) as the judge's letters: no character board uses these codes.
_CODE_LETTERS = bytes.maketrans(b"\x00\x01\x02", b".RB")


def _stone_codes(data):
    """``data`` with 0, 1, 2 read as ``.``, ``R``, ``B`` when it holds only those."""
    return data.translate(_CODE_LETTERS) if not data.translate(None, b"\x00\x01\x02") else data


def _string_rows(view, kind, height, width):
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


def _buffer_rows(rows, view):
    """The rows of a 2-D buffer of characters: NumPy strings, character codes
    of any integer type and byte order, or objects (str, bytes or codes)."""
    from .. import _buffers

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
        board = [values[i * width:(i + 1) * width].tolist() for i in range(height)]
    else:
        board = _buffers.object_items(rows, view)
        if board is None:
            raise TypeError(f"a board of {_buffers.describe(rows, view)} must be passed as the "
                            f"array itself, whose items can be read")
    holder = _buffers.describe(rows, view)
    return [b"".join(_cell_bytes(cell, number, column, holder) for column, cell in enumerate(row, 1))
            for number, row in enumerate(board, 1)]


def _cell_bytes(cell, number, column, holder):
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


def _parsed_board(rows):
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


def _cancellable(parsed, work, size):
    """``work()``, compiled work on ``parsed`` of ``size`` cells or bytes: on
    a worker thread while this one waits once it is large enough to matter,
    so that an interrupt cancels it and is raised here at once."""
    from .._threads import run_cancellable

    return run_cancellable(work, parsed.cancel, size >= _WAIT_ON_A_WORKER_FROM)


def judge(rows):
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


def explain(rows):
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


def _explanation(parsed, case, number):
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
    return Explanation._of("hex", result, number, (red, blue, chains))


def _results(parsed):
    """The verdicts of a judged input; a win's last moves wait until read."""
    statuses, reasons = parsed.verdict_codes()
    results = []
    append = results.append
    for case, (status, reason) in enumerate(zip(statuses, reasons)):
        if status == _IMPOSSIBLE_CODE:
            append(_IMPOSSIBLE_BY_CODE[reason])
        elif status == _NOBODY_WINS:
            append(_NOBODY)
        else:
            append(Result._win(_STATUS_OF_CODE[status], parsed, case))
    return results


# ---------------------------------------------------------------------------
# The judge format
# ---------------------------------------------------------------------------

def _characters(count):
    return f"{count} character" if count == 1 else f"{count} characters"


def _fault_reason(parsed, in_file=True):
    code = parsed.err_code
    case = parsed.n_cases + 1
    of_case = f" of case #{case}" if in_file else ""
    shared = shared_fault_reason(parsed, lambda field: (
        "the number of test cases T", f"the board size N of case #{case}",
        "the end of the input")[field])
    if shared is not None:
        return shared
    if code == _ERR_T:
        return f"the number of test cases T must not be negative, got {parsed.err_value}"
    if code == _ERR_N_SMALL:
        return f"the board size N{of_case} must be at least 1, got {parsed.err_value}"
    if code == _ERR_N_LARGE:
        return f"the board size N{of_case} must be at most {MAX_SIZE}, got {parsed.err_value}"
    if code == _ERR_ROW_MISSING:
        return f"input ends before row {parsed.err_row}{of_case}"
    if code == _ERR_ROW_LENGTH:
        # The reader stops at a row's character N + 1: a longer row is not
        # read to its end.
        count = (f"more than {_characters(parsed.err_size)}" if parsed.err_length > parsed.err_size
                 else _characters(parsed.err_length))
        return f"row {parsed.err_row}{of_case} has {count}, expected {parsed.err_size}"
    if code == _ERR_ROW_CHAR:
        return (f"row {parsed.err_row}{of_case} has {shown_bytes(parsed.err_token)} at column "
                f"{parsed.err_column}; only B, R and . are allowed")
    return f"unknown fault {code}"


def _checked(parsed, source):
    if parsed.err_code:
        raise InputError(_fault_reason(parsed), source, parsed.err_line)
    return parsed


def judge_text(text, *, source="<string>", threads=1):
    """Judge a whole input in the judge format (``str`` or bytes-like).

    Returns one :class:`Result` per case; raises :class:`havhex.InputError`
    (whose text names ``source`` and the line) for the first fault, before
    judging anything.
    """
    threads = thread_count(threads)
    text = encode_text(text, source)
    parsed = _judge.HexInput()

    def work():
        _checked(_judge.parse(text, into=parsed), source)
        parsed.judge(threads)

    _cancellable(parsed, work, len(text))
    return _results(parsed)


def explain_text(text, *, source="<string>", threads=1):
    """One :class:`Explanation` per case of a whole input (``case``
    numbered from 1; see :func:`explain`)."""
    threads = thread_count(threads)
    return _explanations(_checked(_judge.parse(encode_text(text, source)), source), threads)


def _parse_file(file):
    """(parsed input, source name) of a path, ``"-"`` or an open file.
    Every input is streamed through a fixed buffer."""
    return read_input(file, _judge.parse)


def judge_file(file, *, threads=1, progress=None):
    """Judge an input file: a path, ``"-"`` for standard input, or an open
    file (binary; or text, whose characters are read as UTF-8).
    ``threads`` > 1 judges the cases in parallel (0: every core).
    ``progress``, if given, is called about ten times a second as
    ``progress(bytes_read, cases_read, cases_judged)`` while the input is
    read and judged."""
    threads = thread_count(threads)
    return _results(_read(file, progress, lambda parsed: parsed.judge(threads)))


def _read(file, progress, then=None):
    """The parsed input (its fault raised), after ``then(parsed)``.  The
    compiled work runs on a worker thread (reporting ``progress`` when it is
    given) while this one waits, so that an interrupt stops it at once; the
    file is closed once read."""
    from .._threads import run_interruptibly

    parsed = _judge.HexInput()
    report = None if progress is None else (lambda: progress(*parsed.progress()))
    interval = 0.05 if progress is None else 0.1

    def consume(data):
        run_interruptibly(lambda: _judge.parse(data, into=parsed), parsed.cancel, report, interval)
        return parsed

    _checked(*read_input(file, consume))
    if then is not None:
        run_interruptibly(lambda: then(parsed), parsed.cancel, report, interval)
    return parsed


def explain_file(file, *, threads=1, progress=None):
    """One :class:`Explanation` per case of an input file, read as
    :func:`judge_file` reads it (``progress`` too)."""
    threads = thread_count(threads)
    # With a progress line, judging first (quick beside explaining) lets it
    # count cases judged, as it does for Havannah.
    return _explanations(_read(file, progress, None if progress is None else (
        lambda parsed: parsed.judge(threads))), threads)


def _explanations(parsed, threads):
    """Explanations of every case; the engine releases the GIL, so threads
    explain cases side by side."""
    cases = range(parsed.n_cases)
    if threads <= 1 or parsed.n_cases <= 1:
        return [_explanation(parsed, case, case + 1) for case in cases]
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(min(threads, parsed.n_cases)) as pool:
        try:
            return list(pool.map(lambda case: _explanation(parsed, case, case + 1), cases))
        except BaseException:
            parsed.cancel()         # leaving the pool waits for its work
            raise


def iter_explain_file(file, *, threads=1, progress=None):
    """:func:`explain_file` one case at a time (``to_dict()`` of each is
    the record ``--format json`` prints).  ``threads`` > 1 explains cases
    side by side, a few ahead of the one handed out, so memory stays
    bounded whatever the number of cases.
    ``progress`` is called while the input is read and judged, as for
    :func:`judge_file`.  The arguments are checked at the call."""
    return _iter_explain_file(file, thread_count(threads), progress)


def _iter_explain_file(file, threads, progress):
    # With a progress line, judging here (quick beside explaining) lets it
    # count cases judged, as it does for Havannah.
    parsed = _read(file, progress, None if progress is None else (lambda p: p.judge(threads)))
    if threads <= 1 or parsed.n_cases <= 1:
        for case in range(parsed.n_cases):
            yield _explanation(parsed, case, case + 1)
        return
    from collections import deque
    from concurrent.futures import ThreadPoolExecutor

    workers = min(threads, parsed.n_cases)
    with ThreadPoolExecutor(workers) as pool, _cancelled_on_leaving(parsed):
        pending = deque()
        for case in range(parsed.n_cases):
            pending.append(pool.submit(_explanation, parsed, case, case + 1))
            if len(pending) > 2 * workers:
                yield pending.popleft().result()
        while pending:
            yield pending.popleft().result()


class _cancelled_on_leaving:
    """A context that cancels the compiled work on ``parsed`` when left by
    an exception (an interrupt, or a generator closed early), so that a pool
    exited after it does not wait for cases nobody will read."""

    def __init__(self, parsed):
        self.parsed = parsed

    def __enter__(self):
        return self

    def __exit__(self, kind, value, traceback):
        if kind is not None:
            self.parsed.cancel()


def explanation_record(explanation, case=None):
    """``explanation.to_dict()``, its case number replaced by ``case`` when
    given: the record ``--format json`` prints.  Kept for callers written
    before :meth:`Explanation.to_dict`.

    Wins: ``winner`` ("red" or "blue", as :attr:`Result.winner`), one
    winning ``chain`` and every possible ``last_moves``; Impossible: the
    ``reason``, and for "no-single-last-move" the two stone-disjoint
    ``chains``; Nobody wins: the answer alone.  Cells are ``[row, column]``,
    0-based.
    """
    if case is not None and case != explanation.case:
        explanation = Explanation._of("hex", explanation.result, case, explanation._evidence)
    return explanation.to_dict()


def format_results(results):
    """The judge's output for a list of results."""
    return "".join(f"Case #{number}: {result}\n" for number, result in enumerate(results, 1))


def __getattr__(name):
    # The live board (a compiled module of its own) loads on first use:
    # judging a file never needs it.
    if name == "Board":
        from .board import Board

        return Board
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
