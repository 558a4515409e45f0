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

# The compiled judge has no stub: to a type checker its objects are Any.
from . import _judge  # type: ignore[attr-defined]
from ._faults import _checked
from ._position import _cancellable, _explanation, _results, explain, judge
from ._result import REASONS, STATUSES, Result
from .._checks import thread_count
from .._source import encode_text, read_input
from .._explanation import Explanation
from ._explanation import HexExplanation

# The annotations are for type checkers only, in quotes where they name what
# is imported here: a judge run's start-up imports neither typing nor
# __future__.
TYPE_CHECKING = False
if TYPE_CHECKING:
    import os
    from typing import (Any, BinaryIO, Callable, Deque, Dict, Iterable, Iterator, List, Optional,
                        TextIO, Tuple, Union)
    from concurrent.futures import Future
    from types import TracebackType

    from ..descriptor import FileJudge
    from ._position import _Rows
    # The board and the batch load on first use (``__getattr__`` below); a
    # type checker sees them as the package's names.
    from .batch import Batch as Batch
    from .board import Board as Board

    _Buffer = object  # collections.abc.Buffer from Python 3.12
    _Text = Union[str, bytes, bytearray, memoryview, _Buffer]
    _File = Union[str, bytes, "os.PathLike[str]", "os.PathLike[bytes]", BinaryIO, TextIO]
    _Progress = Optional[Callable[[int, int, int], object]]

    # How the command line and the cluster judge whole files, made when first
    # asked for (``__getattr__`` below).
    FILE_JUDGE: FileJudge

__all__ = [
    "Result", "Explanation", "judge", "explain", "judge_text", "judge_file",
    "explain_text", "explain_file", "iter_explain_file", "explanation_record",
    "format_results", "STATUSES", "REASONS", "MAX_SIZE", "MAX_NUMBER_DIGITS", "Board", "Batch",
]

MAX_SIZE: int = _judge.MAX_SIZE
# The longest number the judge's reader takes, sign aside (longer is
# a fault): what draw's scan of a case's header stops at.
MAX_NUMBER_DIGITS: int = _judge.MAX_NUMBER_DIGITS


# ---------------------------------------------------------------------------
# The judge format
# ---------------------------------------------------------------------------

def judge_text(text: "_Text", *, source: str = "<string>", threads: int = 1) -> "List[Result]":
    """Judge a whole input in the judge format (``str`` or bytes-like).

    Returns one :class:`Result` per case; raises :class:`havhex.InputError`
    (whose text names ``source`` and the line) for the first fault, before
    judging anything.
    """
    threads = thread_count(threads)
    text = encode_text(text, source)
    parsed = _judge.HexInput()

    def work() -> None:
        _checked(_judge.parse(text, into=parsed), source)
        parsed.judge(threads)

    # encode_text gives the text bytes-like, which has a length.
    _cancellable(parsed, work, len(text))  # type: ignore[arg-type]
    return _results(parsed)


def explain_text(text: "_Text", *, source: str = "<string>",
                 threads: int = 1) -> "List[Explanation]":
    """One :class:`Explanation` per case of a whole input (``case``
    numbered from 1; see :func:`explain`)."""
    threads = thread_count(threads)
    return _explanations(_checked(_judge.parse(encode_text(text, source)), source), threads)


def _parse_file(file: "_File") -> "Tuple[Any, str]":
    """(parsed input, source name) of a path, ``"-"`` or an open file.
    Every input is streamed through a fixed buffer."""
    return read_input(file, _judge.parse)


def judge_file(file: "_File", *, threads: int = 1,
               progress: "_Progress" = None) -> "List[Result]":
    """Judge an input file: a path, ``"-"`` for standard input, or an open
    file (binary; or text, whose characters are read as UTF-8).
    ``threads`` > 1 judges the cases in parallel (0: every core).
    ``progress``, if given, is called about ten times a second as
    ``progress(bytes_read, cases_read, cases_judged)`` while the input is
    read and judged."""
    threads = thread_count(threads)
    return _results(_read(file, progress, lambda parsed: parsed.judge(threads)))


def _read(file: "_File", progress: "_Progress",
          then: "Optional[Callable[[Any], object]]" = None) -> "Any":
    """The parsed input (its fault raised), after ``then(parsed)``.  The
    compiled work runs on a worker thread (reporting ``progress`` when it is
    given) while this one waits, so that an interrupt stops it at once; the
    file is closed once read."""
    from .._threads import run_interruptibly

    parsed = _judge.HexInput()
    report = None if progress is None else (lambda: progress(*parsed.progress()))
    interval = 0.05 if progress is None else 0.1

    def consume(data: bytes) -> "Any":
        run_interruptibly(lambda: _judge.parse(data, into=parsed), parsed.cancel, report, interval)
        return parsed

    _checked(*read_input(file, consume))
    if then is not None:
        run_interruptibly(lambda: then(parsed), parsed.cancel, report, interval)
    return parsed


def _file_start(threads: int) -> "Tuple[Any, Callable[[bytes], None]]":
    """A file's engine input and what reads and judges its data there on
    ``threads`` threads (:mod:`havhex._files`)."""
    parsed = _judge.HexInput()

    def consume(data: bytes) -> None:
        _judge.parse(data, into=parsed)
        if not parsed.err_code:
            parsed.judge(threads)

    return parsed, consume


def _file_outputs(parsed: "Any", source: str,
                  explain: bool) -> "Union[List[Result], Iterator[Explanation]]":
    """A judged file's list of :class:`Result`, or with ``explain`` an
    iterator over its explanations (built here, one at a time); its fault
    is raised here."""
    _checked(parsed, source)
    if explain:
        return (_explanation(parsed, case, case + 1) for case in range(parsed.n_cases))
    return _results(parsed)


def _judge_files(files: "Iterable[_File]", threads: int,
                 progress_for: "Any" = None) -> "Iterator[Any]":
    """For each of ``files``, in order: its list of :class:`Result`; up to
    ``threads`` files are read and judged at once, each on a thread of its
    own (:mod:`havhex._files`).  A file's fault is raised in its turn.
    (Explanations are not built here: :func:`iter_explain_file` builds a
    file's on every thread, which judging files side by side would lose.)"""
    from .._files import outputs_side_by_side

    return outputs_side_by_side(files, threads, _file_start,
                                lambda parsed, source: _file_outputs(parsed, source, False),
                                progress_for)


def explain_file(file: "_File", *, threads: int = 1,
                 progress: "_Progress" = None) -> "List[Explanation]":
    """One :class:`Explanation` per case of an input file, read as
    :func:`judge_file` reads it (``progress`` too)."""
    threads = thread_count(threads)
    # With a progress line, judging first (quick beside explaining) lets it
    # count cases judged, as it does for Havannah.
    return _explanations(_read(file, progress, None if progress is None else (
        lambda parsed: parsed.judge(threads))), threads)


def _explanations(parsed: "Any", threads: int) -> "List[Explanation]":
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


def iter_explain_file(file: "_File", *, threads: int = 1,
                      progress: "_Progress" = None) -> "Iterator[Explanation]":
    """:func:`explain_file` one case at a time (``to_dict()`` of each is
    the record ``--format json`` prints).  ``threads`` > 1 explains cases
    side by side, a few ahead of the one handed out, so memory stays
    bounded whatever the number of cases.
    ``progress`` is called while the input is read and judged, as for
    :func:`judge_file`.  The arguments are checked at the call."""
    return _iter_explain_file(file, thread_count(threads), progress)


def _iter_explain_file(file: "_File", threads: int,
                       progress: "_Progress") -> "Iterator[Explanation]":
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
        pending: "Deque[Future[Explanation]]" = deque()
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

    def __init__(self, parsed: "Any") -> None:
        self.parsed = parsed

    def __enter__(self) -> "_cancelled_on_leaving":
        return self

    def __exit__(self, kind: "Optional[type]", value: "Optional[BaseException]",
                 traceback: "Optional[TracebackType]") -> None:
        if kind is not None:
            self.parsed.cancel()


def explanation_record(explanation: Explanation,
                       case: "Optional[int]" = None) -> "Dict[str, Any]":
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
        explanation = HexExplanation.of(explanation.result, case, explanation._evidence)
    return explanation.to_dict()


def format_results(results: "Iterable[Result]") -> str:
    """The judge's output for a list of results."""
    return "".join(f"Case #{number}: {result}\n" for number, result in enumerate(results, 1))


def _file_judge() -> "FileJudge":
    """How the command line and the cluster judge whole files
    (``FILE_JUDGE``, the descriptor's ``file_judge()``): made when first
    asked for, so that a judge run's start-up imports none of it."""
    # The compiled case walk has no stub: to a type checker it is Any.  mypy
    # reports a missing module at one of its imports only, which one
    # depending on what it checks: hence unused-ignore.
    from .._boundaries import HEX  # type: ignore[import-not-found, unused-ignore]
    from ..descriptor import FileJudge

    return FileJudge(_file_start, _file_outputs, _judge_files,
                     explains_side_by_side=False, case_walk=HEX, empty_case=b"1\n.\n",
                     empty_case_lines=2)


def __getattr__(name: str) -> "Any":
    if name == "FILE_JUDGE":
        global FILE_JUDGE
        FILE_JUDGE = _file_judge()
        return FILE_JUDGE
    # The live board (a compiled module of its own) loads on first use:
    # judging a file never needs it.
    if name == "Board":
        from .board import Board

        return Board
    if name == "Batch":
        from .batch import Batch

        return Batch
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
