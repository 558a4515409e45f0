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
from ._faults import _checked
from ._position import _cancellable, _explanation, _results, explain, judge
from ._result import REASONS, STATUSES, Result
from .._checks import thread_count
from .._source import encode_text, read_input
from .._explanation import Explanation
from ._explanation import HexExplanation

__all__ = [
    "Result", "Explanation", "judge", "explain", "judge_text", "judge_file",
    "explain_text", "explain_file", "iter_explain_file", "explanation_record",
    "format_results", "STATUSES", "REASONS", "MAX_SIZE", "MAX_NUMBER_DIGITS", "Board", "Batch",
]

MAX_SIZE = _judge.MAX_SIZE
# The longest number the judge's reader takes, sign aside (longer is
# a fault): what draw's scan of a case's header stops at.
MAX_NUMBER_DIGITS = _judge.MAX_NUMBER_DIGITS


# ---------------------------------------------------------------------------
# The judge format
# ---------------------------------------------------------------------------

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


def _file_start(threads):
    """A file's engine input and what reads and judges its data there on
    ``threads`` threads (:mod:`havhex._files`)."""
    parsed = _judge.HexInput()

    def consume(data):
        _judge.parse(data, into=parsed)
        if not parsed.err_code:
            parsed.judge(threads)

    return parsed, consume


def _file_outputs(parsed, source, explain):
    """A judged file's list of :class:`Result`, or with ``explain`` an
    iterator over its explanations (built here, one at a time); its fault
    is raised here."""
    _checked(parsed, source)
    if explain:
        return (_explanation(parsed, case, case + 1) for case in range(parsed.n_cases))
    return _results(parsed)


def _judge_files(files, threads, progress_for=None):
    """For each of ``files``, in order: its list of :class:`Result`; up to
    ``threads`` files are read and judged at once, each on a thread of its
    own (:mod:`havhex._files`).  A file's fault is raised in its turn.
    (Explanations are not built here: :func:`iter_explain_file` builds a
    file's on every thread, which judging files side by side would lose.)"""
    from .._files import outputs_side_by_side

    return outputs_side_by_side(files, threads, _file_start,
                                lambda parsed, source: _file_outputs(parsed, source, False),
                                progress_for)


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
        explanation = HexExplanation.of(explanation.result, case, explanation._evidence)
    return explanation.to_dict()


def format_results(results):
    """The judge's output for a list of results."""
    return "".join(f"Case #{number}: {result}\n" for number, result in enumerate(results, 1))


def _file_judge():
    """How the command line and the cluster judge whole files
    (``FILE_JUDGE``, the descriptor's ``file_judge()``): made when first
    asked for, so that a judge run's start-up imports none of it."""
    from .._boundaries import HEX
    from ..descriptor import FileJudge

    return FileJudge(_file_start, _file_outputs, _judge_files,
                     explains_side_by_side=False, case_walk=HEX, empty_case=b"1\n.\n",
                     empty_case_lines=2)


def __getattr__(name):
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
