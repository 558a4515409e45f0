"""Havannah: the first move of one player's sequence that completes a structure.

>>> from havhex import havannah
>>> result = havannah.first_win(2, [(1, 1), (2, 2), (1, 2)])
>>> result.kinds, result.move, str(result)
(('bridge',), 3, 'bridge in move 3')

Boards are the statement's: cells ``(x, y)`` with ``1 <= x, y <= 2S-1`` and
``|x - y| <= S-1``; any ``S`` from 2 to 2**30 works, in memory that follows the
number of moves.
"""
import gc

# ``array`` is imported where it is used: its import brings ``collections``,
# a start-up cost that judging a file never needs.
# The compiled judge has no stub: to a type checker its objects are Any.
from . import _judge, _rings  # type: ignore[attr-defined]
from ._faults import _duplicate_reason, _fault_reason, _judge_parsed
from ._result import KINDS, Result
from .._checks import integer, thread_count
from .._source import encode_text, read_input
from .._explanation import Explanation
from ._explanation import HavannahExplanation
from ..errors import InputError

# The annotations are for type checkers only, in quotes where they name what
# is imported here: a judge run's start-up imports neither typing nor
# __future__.
TYPE_CHECKING = False
if TYPE_CHECKING:
    import os
    from array import array
    from typing import (Any, BinaryIO, Callable, Iterable, Iterator, List, Optional, Sequence,
                        TextIO, Tuple, Union)

    from ..descriptor import FileJudge
    # The board and the batch load on first use (``__getattr__`` below); a
    # type checker sees them as the package's names.
    from .batch import Batch as Batch
    from .board import Board as Board

    _Buffer = object  # collections.abc.Buffer from Python 3.12
    _Cell = Tuple[int, int]
    _Run = Tuple[int, int, int]  # (x, first_y, last_y)
    # An (M, 2) buffer of integers of any dtype and byte order, or of objects
    # that are integers; other dtypes raise TypeError.
    _Moves = Union[Iterable[Sequence[int]], _Buffer]
    _Text = Union[str, bytes, bytearray, memoryview, _Buffer]
    _File = Union[str, bytes, "os.PathLike[str]", "os.PathLike[bytes]", BinaryIO, TextIO]
    _Progress = Optional[Callable[[int, int, int], object]]
    # Interleaved x, y, as the engine takes them.
    _Flat = Union["array[int]", memoryview]

    # How the command line and the cluster judge whole files, made when first
    # asked for (``__getattr__`` below).
    FILE_JUDGE: FileJudge

__all__ = [
    "Result", "first_win", "enclosed_empty", "enclosed_runs", "judge_text", "judge_file",
    "format_results", "Explanation", "explain", "explain_text", "explain_file",
    "iter_explain_file", "MAX_SIZE", "MAX_NUMBER_DIGITS", "KINDS", "Board", "Batch",
]

MAX_SIZE: int = _judge.MAX_SIZE
# The longest number the judge's reader takes, sign aside (longer is
# a fault): what draw's scan of a case's header stops at.
MAX_NUMBER_DIGITS: int = _judge.MAX_NUMBER_DIGITS


# ---------------------------------------------------------------------------
# Moves from Python objects
# ---------------------------------------------------------------------------

def _checked_size(size: int) -> int:
    """``size`` as an ``int`` (anything ``operator.index`` takes but a bool)."""
    size = integer(size, "size")
    if not 2 <= size <= MAX_SIZE:
        raise InputError(f"board size S must be between 2 and {MAX_SIZE}, got {size}")
    return size


def _flat_coordinates(moves: "_Moves") -> "_Flat":
    """Interleaved x, y as a 1-D buffer the engine takes (int32 or int64)."""
    from array import array
    from .. import _buffers

    view = _buffers.view_of(moves, "moves must hold integers")
    if view is None:
        return _flat_pairs(moves)
    kind = _buffers.item_kind(view)
    if kind is None or kind[0] not in (_buffers.INTEGER, _buffers.OBJECT):
        raise TypeError(f"moves must hold integers, not {_buffers.describe(moves, view)}")
    if view.ndim == 2 and view.shape[0] == 0 and view.shape[1] == 2:
        return array("q")
    if view.ndim == 1 and view.shape[0] == 0:
        return array("q")
    if view.ndim != 2 or view.shape[1] != 2:
        raise InputError(f"moves must be an (M, 2) buffer, got shape {view.shape}")
    if kind[0] == _buffers.OBJECT:
        items = _buffers.object_items(moves, view)
        if items is None:
            raise TypeError(f"moves of {_buffers.describe(moves, view)} must be passed as the "
                            f"array itself, whose items can be read")
        return _flat_pairs(items, holder=_buffers.describe(moves, view))
    signed, swapped = _buffers.is_signed(view), kind[2]
    if signed and not swapped and view.c_contiguous and view.itemsize in (4, 8):
        try:
            native: "memoryview[int]" = view.cast("B").cast("i" if view.itemsize == 4 else "q")
            return native
        except (TypeError, ValueError):
            pass  # a format memoryview cannot cast from: converted below
    values = _buffers.native_integers(view, signed, swapped)
    if values is None:
        raise TypeError(f"moves must hold integers of 1, 2, 4 or 8 bytes, not "
                        f"{_buffers.describe(moves, view)}")
    if values.typecode in ("i", "q"):
        return values
    try:
        return array("q", values)
    except OverflowError:  # unsigned 64-bit beyond int64: the pair names the move
        return _flat_pairs(zip(values[0::2], values[1::2]))


def _flat_pairs(pairs: "Any", holder: "Optional[str]" = None) -> "array[int]":
    """Interleaved x, y from an iterable of pairs.  ``holder`` names the
    dtype of an object array, whose items must be integers (TypeError)."""
    from array import array
    from operator import index

    try:
        iterator = iter(pairs)
    except TypeError:
        raise TypeError(f"moves must be a sequence of (x, y) pairs or an (M, 2) buffer, "
                        f"not {type(pairs).__name__}") from None
    flat = array("q")
    for number, move in enumerate(iterator, 1):
        try:
            x, y = move
            if holder is not None:
                x, y = index(x), index(y)
            flat.append(x)
            flat.append(y)
        except TypeError:
            if holder is None:
                raise InputError(f"move {number} must be a pair of integers, got {move!r}") from None
            odd = next((item for item in move if not hasattr(type(item), "__index__")), move)
            raise TypeError(f"moves must hold integers, not {holder} holding "
                            f"{type(odd).__name__} ({odd!r} in move {number})") from None
        except (ValueError, OverflowError):
            raise InputError(f"move {number} must be a pair of integers, got {move!r}") from None
    return flat


def _from_moves(size: int, flat: "_Flat") -> "Any":
    """The engine's case from ``flat`` (int32 or int64 items).  The
    specialization is picked here: Cython's own choice imports NumPy to
    look for arrays, which would make the first call slow."""
    return _judge.from_moves["int32_t" if flat.itemsize == 4 else "int64_t"](size, flat)


def _parsed_moves(size: int, moves: "_Moves") -> "Any":
    """The engine's case of ``moves`` on a board of ``size``, an int."""
    parsed = _from_moves(size, _flat_coordinates(moves))
    if parsed.err_code:
        raise InputError(_fault_reason(parsed))
    return parsed


# Sequences of at least this many moves are judged on a worker thread while
# the caller waits, so that an interrupt stops them at once; shorter ones take
# less time than starting a thread.
_WAIT_ON_A_WORKER_FROM = 1 << 16


def _judge_parsed_moves(parsed: "Any") -> None:
    from .._threads import run_cancellable

    run_cancellable(parsed.judge, parsed.cancel, parsed.n_moves >= _WAIT_ON_A_WORKER_FROM)


def first_win(size: int, moves: "_Moves") -> Result:
    """Judge one sequence of moves on a board of side ``size``.

    ``moves`` is a sequence of ``(x, y)`` pairs or any ``(M, 2)`` buffer of
    integers: NumPy arrays of any integer dtype and byte order, or of dtype
    object holding integers (int32/int64 in this machine's byte order, C
    contiguous, are read in place).  Raises :class:`havhex.InputError` for a
    move off the board or a hexagon played twice, and ``TypeError`` naming
    the dtype for a buffer of anything else (float, str, objects that are not
    integers).
    """
    parsed = _parsed_moves(_checked_size(size), moves)
    _judge_parsed_moves(parsed)
    bits, move, duplicate = parsed.result(0)
    if duplicate >= 0:
        raise InputError(_duplicate_reason(parsed, 0, duplicate, in_file=False))
    return Result._from_engine(bits, move)


def enclosed_empty(size: int, stones: "_Moves") -> "List[_Cell]":
    """Empty hexagons that cannot reach the outside of the board.

    The exact form of the ring rule, for any set of distinct stones: the result
    is non-empty exactly when the stones hold a ring.  Returns a sorted list
    of ``(x, y)``.  Time and memory follow the number of stones (plus the size
    of the answer), not the board.  ``stones`` takes the forms (and raises
    the errors) of :func:`first_win`'s ``moves``.
    """
    size = _checked_size(size)
    parsed = _parsed_moves(size, stones)
    _judge_parsed_moves(parsed)
    _, _, duplicate = parsed.result(0)
    if duplicate >= 0:
        raise InputError(_duplicate_reason(parsed, 0, duplicate, in_file=False))
    cells: "List[_Cell]" = []
    for x, first, last in _rings.enclosed_runs(size, parsed.case_coords(0)):
        cells.extend((x, y) for y in range(first, last + 1))
    return cells


def enclosed_runs(size: int, stones: "_Moves") -> "List[_Run]":
    """:func:`enclosed_empty` as row runs, for rings of any size.

    Returns a sorted list of ``(x, first_y, last_y)``: the hexagons ``(x, y)``
    with ``first_y <= y <= last_y`` are enclosed, and every run ends just
    before a stone of its row, so there is at most one run per stone.  Time
    and memory follow the number of stones, not the board nor the area
    enclosed (a ring of M stones can enclose on the order of M**2 hexagons).
    ``stones`` as for :func:`enclosed_empty`.
    """
    size = _checked_size(size)
    parsed = _parsed_moves(size, stones)
    parsed.judge()
    _, _, duplicate = parsed.result(0)
    if duplicate >= 0:
        raise InputError(_duplicate_reason(parsed, 0, duplicate, in_file=False))
    return _rings.enclosed_runs(size, parsed.case_coords(0))


# ---------------------------------------------------------------------------
# The judge format
# ---------------------------------------------------------------------------

def judge_text(text: "_Text", *, source: str = "<string>", threads: int = 1) -> "List[Result]":
    """Judge a whole input in the judge format (``str`` or bytes-like).

    Returns one :class:`Result` per case; raises :class:`havhex.InputError`
    (whose text names ``source`` and the line) for the first fault.
    """
    threads = thread_count(threads)
    text = encode_text(text, source)
    return _judge_parsed(_judge.parse_and_judge(text, threads), source)


def judge_file(file: "_File", *, threads: int = 1,
               progress: "_Progress" = None) -> "List[Result]":
    """Judge an input file: a path, ``"-"`` for standard input, or an open
    file (binary; or text, whose characters are read as UTF-8).  Every
    input is streamed through a fixed buffer, never held in memory whole,
    and read no further than its first fault.  ``threads`` > 1 judges on
    that many threads (0: every core).  ``progress(bytes_read, cases_read,
    cases_judged)`` is called about ten times a second when given."""
    threads = thread_count(threads)
    parsed, source = read_input(
        file, lambda data: _judge.parse_and_judge(data, threads, progress=progress))
    return _judge_parsed(parsed, source)


def format_results(results: "Iterable[Result]") -> str:
    """The judge's output for a list of results."""
    return "".join(f"Case #{number}: {result}\n" for number, result in enumerate(results, 1))


# ---------------------------------------------------------------------------
# Witnesses: why the answer is what it is
# ---------------------------------------------------------------------------
#
# The fast engine judges first; witnesses are then computed in Python, only for
# cases with a win and only over the moves up to the winning one.  Cells are
# ints ``x * B + y`` with ``B = 2S + 1``: no on-board key equals the key of an
# off-board neighbour, so neighbours are key offsets.  The winning group (the
# one holding the winning move, where every new structure lies) is numbered
# 0..g-1 in BFS order from the winning move (which is 0) and stored as an
# ``array('i')`` of six neighbour ids per stone (-1: no stone), directions
# clockwise from twelve o'clock as in the engine.


def explain(size: int, moves: "_Moves") -> Explanation:
    """The verdict on one sequence with a witness for each structure built:
    an :class:`Explanation` (``case`` None; see :func:`explain_text` for the
    witnesses).  ``first_win``'s argument rules and faults apply.
    """
    size = _checked_size(size)
    flat = _flat_coordinates(moves)
    parsed = _from_moves(size, flat)
    if parsed.err_code:
        raise InputError(_fault_reason(parsed))
    _judge_parsed_moves(parsed)
    bits, move, duplicate = parsed.result(0)
    if duplicate >= 0:
        raise InputError(_duplicate_reason(parsed, 0, duplicate, in_file=False))
    return _explanation(size, flat, Result._from_engine(bits, move), None)


def explain_text(text: "_Text", *, source: str = "<string>",
                 threads: int = 1) -> "List[Explanation]":
    """Judge a whole input (like :func:`judge_text`) and explain every case.

    One :class:`Explanation` per case (``case`` numbered from 1), whose
    ``result`` is :func:`judge_text`'s.  Witnesses, made of stones played up
    to the winning move, cells as ``(x, y)``, ``None`` for a structure not
    built:

    * ``bridge``: a shortest path of stones, each adjacent to the next, from
      one corner to another, inside the winning group;
    * ``fork``: a small connected tree of stones (three shortest branches
      from one centre stone, the first listed from its edge to the centre,
      the other two from the centre out) holding hexagons of three
      different edges;
    * ``ring``: a closed simple cycle of stones (the last adjacent to the
      first) through the winning move that encloses an empty hexagon, and
      ``enclosed_runs``: every empty hexagon that cannot reach the outside
      after that move, as sorted row runs ``(x, first_y, last_y)`` (see
      :func:`enclosed_runs`), so a witness grows with the stones, never
      with the area they enclose.

    ``explanation.to_dict()`` is the record ``--format json`` prints::

        {"case": n, "answer": "bridge-ring in move 9", "move": 9,
         "kinds": ["bridge", "ring"], "bridge": {"path": [[x, y], ...]},
         "ring": {"loop": [...], "enclosed_runs": [[x, first_y, last_y], ...]}}
    """
    threads = thread_count(threads)
    text = encode_text(text, source)
    return _explain_parsed(_judge.parse_and_judge(text, threads), source)


def explain_file(file: "_File", *, threads: int = 1,
                 progress: "_Progress" = None) -> "List[Explanation]":
    """:func:`explain_text` for a path, ``"-"`` (standard input) or an open
    file, read as :func:`judge_file` reads it (``progress`` too)."""
    return list(iter_explain_file(file, threads=threads, progress=progress))


def iter_explain_file(file: "_File", *, threads: int = 1,
                      progress: "_Progress" = None) -> "Iterator[Explanation]":
    """:func:`explain_file` one case at a time.  The whole input is read and
    judged (and any fault raised) on the first ``next()``; each case's
    witnesses are built only when it is reached, so a caller writing them out
    holds one case's witnesses at a time.  ``progress`` is called while the
    input is read and judged, as for :func:`judge_file`.  The arguments
    are checked at the call."""
    return _iter_explain_file(file, thread_count(threads), progress)


def _iter_explain_file(file: "_File", threads: int,
                       progress: "_Progress") -> "Iterator[Explanation]":
    parsed, source = read_input(
        file, lambda data: _judge.parse_and_judge(data, threads, progress=progress))
    yield from _iter_explanations(parsed, source)


def _file_start(threads: int) -> "Tuple[Any, Callable[[bytes], Any]]":
    """A file's engine input and what reads and judges its data there on
    ``threads`` threads (:mod:`havhex._files`)."""
    parsed = _judge.HavannahInput()
    return parsed, lambda data: parsed.judge(threads, data)


def _file_outputs(parsed: "Any", source: str,
                  explain: bool) -> "Union[List[Result], Iterator[Explanation]]":
    """A judged file's list of :class:`Result`, or with ``explain`` an
    iterator over its explanations; its fault is raised here."""
    return _iter_explanations(parsed, source) if explain else _judge_parsed(parsed, source)


def _judge_files(files: "Iterable[_File]", threads: int, explain: bool = False,
                 progress_for: "Any" = None) -> "Iterator[Any]":
    """For each of ``files``, in order: :func:`_file_outputs`; up to
    ``threads`` files are read and judged at once, each on a thread of its
    own (:mod:`havhex._files`).  A file's fault is raised in its turn."""
    from .._files import outputs_side_by_side

    return outputs_side_by_side(files, threads, _file_start,
                                lambda parsed, source: _file_outputs(parsed, source, explain),
                                progress_for)


def _explain_parsed(parsed: "Any", source: str) -> "List[Explanation]":
    return list(_iter_explanations(parsed, source))


def _iter_explanations(parsed: "Any", source: str) -> "Iterator[Explanation]":
    """One explanation at a time (the judging, and its faults, come first):
    a caller that writes each one out holds one case's witnesses at a time."""
    results = _judge_parsed(parsed, source)
    for index, result in enumerate(results):
        flat = None
        if result:
            flat = parsed.case_coords(index, result.move)
        yield _explanation(parsed.case_size(index) if result else 0, flat, result, index + 1)


def _explanation(size: int, flat: "Any", result: Result, case: "Optional[int]") -> Explanation:
    """The :class:`Explanation` of ``result``, with the witnesses of the
    first ``result.move`` moves of ``flat``."""
    if not result:
        return HavannahExplanation.of(result, case, _NO_WITNESSES)
    bridge = fork = loop = runs = None
    # A big group makes millions of small objects (keys, cells) and no cycles:
    # the cyclic collector would rescan them over and over.
    collecting = gc.isenabled()
    gc.disable()
    try:
        from .witness import Witness

        if TYPE_CHECKING:
            # A result that is true has its winning move.
            assert result.move is not None
        witness = Witness(size, flat, result.move)
        if "bridge" in result.kinds:
            bridge = _cell_tuples(witness.bridge())
        if "fork" in result.kinds:
            fork = _cell_tuples(witness.fork())
        if "ring" in result.kinds:
            # The judge's ring encloses an empty hexagon, so it is no flower:
            # a loop runs through the winning move.
            loop = _cell_tuples(witness.loop())  # type: ignore[arg-type]
            runs = _cell_tuples(witness.enclosed_runs())
    finally:
        if collecting:
            gc.enable()
    return HavannahExplanation.of(result, case, (bridge, fork, loop, runs))


_NO_WITNESSES = (None, None, None, None)


def _cell_tuples(cells: "Iterable[Sequence[int]]") -> "Tuple[Tuple[int, ...], ...]":
    return tuple(map(tuple, cells))



def _file_judge() -> "FileJudge":
    """How the command line and the cluster judge whole files
    (``FILE_JUDGE``, the descriptor's ``file_judge()``): made when first
    asked for, so that a judge run's start-up imports none of it."""
    # The compiled case walk has no stub: to a type checker it is Any.  mypy
    # reports a missing module at one of its imports only, which one
    # depending on what it checks: hence unused-ignore.
    from .._boundaries import HAVANNAH  # type: ignore[import-not-found, unused-ignore]
    from ..descriptor import FileJudge

    return FileJudge(_file_start, _file_outputs, _judge_files,
                     explains_side_by_side=True, case_walk=HAVANNAH, empty_case=b"2 0\n",
                     empty_case_lines=1)


def __getattr__(name: str) -> "Any":
    if name == "FILE_JUDGE":
        global FILE_JUDGE
        FILE_JUDGE = _file_judge()
        return FILE_JUDGE
    # The live board (and its compiled engine) loads on first use: judging
    # a file never needs it, and the CLI's start-up stays as it was.
    if name == "Board":
        from .board import Board

        return Board
    if name == "Batch":
        # Batched games for self-play and training (NumPy on first use).
        from .batch import Batch

        return Batch
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
