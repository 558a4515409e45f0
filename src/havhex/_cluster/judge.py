"""The judges' work units on a cluster: the plan that cuts the inputs into
units, and a worker's task that judges them into the text the command line
prints.

A unit is a tuple: ("path", path) an input the worker reads; ("bytes",
data, name) an input shipped whole; ("range", path, data, name, start,
stop, cases before, cases, first line) a run of whole cases, read from
the path when data is None.

A large file is cut into runs of whole cases: ``havhex._boundaries`` finds
where cases start without judging, and each run is judged as an input of
its own (``T`` = its cases) whose case numbers and lines are shifted back
to the file's.  When the walk meets anything unusual, the cases from its
last cut on are one run, so that the judge itself names the fault.
"""
import os

from .._explanation import json_record
from .._units import Bundle, bytes_after, unit_for
from ..errors import InputError

# The annotations are for type checkers only, in quotes: a worker imports
# nothing more than before.  A unit is a tuple of the shapes above.
TYPE_CHECKING = False
if TYPE_CHECKING:
    import mmap
    from types import ModuleType
    from typing import Any, Callable, Iterator, List, Optional, Sequence, Tuple, Union

    _Unit = Tuple[Any, ...]

__all__ = ["judge_module", "judge_task", "replay_task", "worker_unit", "plan_judge"]


def judge_module(game: str) -> "ModuleType":
    """The module of ``game``'s contest judge (its descriptor's); ValueError
    for a game that has none, or no game."""
    from ..games import judge_module as judge_of

    return judge_of(game)


# ---------------------------------------------------------------------------
# On a worker
# ---------------------------------------------------------------------------

def _open_regular(path: "Union[str, bytes]", name: str) -> int:
    """A descriptor of ``path``, a regular file, and its size.  A worker
    opens with O_NONBLOCK, as the judges' planner looked at a regular file:
    one that has become a FIFO since would block the open until a writer
    comes (and the worker with it, for the next run too); it is a fault of
    that file instead."""
    import stat

    flags = (os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
             | getattr(os, "O_CLOEXEC", 0))
    try:
        descriptor = os.open(path, flags)
    except OSError as error:
        raise InputError(f"cannot open: {error.strerror}", name) from None
    try:
        mode = os.fstat(descriptor).st_mode
        if stat.S_ISDIR(mode):
            raise InputError("is a directory", name)
        if not stat.S_ISREG(mode):
            raise InputError("not a regular file where the worker reads it (workers read "
                             "only regular files; --ship sends the bytes)", name)
        return descriptor
    except BaseException:
        os.close(descriptor)
        raise


def _read_regular(path: "Union[str, bytes]", name: str, start: int, stop: "Optional[int]",
                  into: "Optional[bytearray]" = None) -> bytearray:
    """The bytes ``[start, stop)`` of the regular file ``path`` (to its end
    when ``stop`` is None), into the bytearray ``into`` when given; fewer
    when the file has shrunk (the reader then reports what is missing)."""
    descriptor = _open_regular(path, name)
    try:
        if stop is None:
            stop = max(start, os.fstat(descriptor).st_size)
        buffer = bytearray(stop - start) if into is None else into
        view = memoryview(buffer)[len(buffer) - (stop - start):]
        at = start
        while view:
            got = os.preadv(descriptor, [view], at) if hasattr(os, "preadv") else None
            if got is None:
                piece = os.pread(descriptor, len(view), at)
                got = len(piece)
                view[:got] = piece
            if not got:
                del buffer[len(buffer) - len(view):]
                break
            view = view[got:]
            at += got
        return buffer
    finally:
        os.close(descriptor)


def worker_unit(unit: "_Unit") -> "_Unit":
    """``unit`` as a worker runs it: a path the judge opens is checked to be
    a regular file first (an InputError of that file otherwise)."""
    if unit[0] == "path":
        os.close(_open_regular(unit[1], os.fsdecode(unit[1])))
    return unit


def _range_input(unit: "_Unit") -> "Tuple[Union[bytes, bytearray], int]":
    """``(input, head)`` of a run: its cases behind a ``T`` line of their
    own, read from the file into one buffer when they were not shipped;
    ``head`` is the length of that line."""
    _, path, data, name, start, stop, _, cases, _ = unit
    head = b"%d\n" % cases
    if data is not None:
        return head + data, len(head)
    buffer = bytearray(len(head) + stop - start)
    buffer[:len(head)] = head
    return _read_regular(path, name, start, stop, buffer), len(head)


def _range_fault(module: "ModuleType", game: str, data: "Union[bytes, memoryview]", name: str,
                 before: int, cases: int, first_line: int) -> "Optional[InputError]":
    """The fault of a run as the whole file reports it.  The run is judged
    again behind ``before`` empty cases, so that the judge's own words
    name the file's case numbers; its line is then moved to the file's."""
    files = module.FILE_JUDGE
    empty, lines_each = files.empty_case, files.empty_case_lines
    text = b"%d\n" % (before + cases) + empty * before + data
    try:
        module.judge_text(text, source=name)
    except InputError as error:
        line = error.line
        if line is not None:
            line += first_line - (2 + before * lines_each)
        return InputError(error.reason, error.source, line)
    return None


def _run_range(module: "ModuleType", game: str, output_format: str, unit: "_Unit") -> str:
    _, _, _, name, _, _, before, cases, first_line = unit
    text, head = _range_input(unit)
    try:
        if output_format == "json":
            explanations = module.explain_text(text, source=name)
            return "".join(json_record(name, explanation, before)
                           for explanation in explanations)
        results = module.judge_text(text, source=name)
    except InputError as error:
        data = memoryview(text)[head:]
        raise _range_fault(module, game, data, name, before, cases, first_line) or error
    return "".join(f"Case #{before + number}: {result}\n"
                   for number, result in enumerate(results, 1))


def _run_judge_unit(module: "ModuleType", game: str, output_format: str,
                    unit: "_Unit") -> str:
    """The output text of one unit (what the CLI prints for it)."""
    kind = unit[0]
    if kind == "range":
        return _run_range(module, game, output_format, unit)
    if kind == "path":
        file = unit[1]
        source = os.fsdecode(file)
    else:
        _, data, source = unit
    if output_format == "json":
        if kind == "path":
            explanations = module.iter_explain_file(file)
        else:
            explanations = module.explain_text(data, source=source)
        return "".join(json_record(source, explanation) for explanation in explanations)
    if kind == "path":
        text: str = module.format_results(module.judge_file(file))
        return text
    text = module.format_results(module.judge_text(data, source=source))
    return text


def judge_task(game: str, output_format: str,
               units: "Sequence[_Unit]") -> "List[Tuple[str, Any]]":
    """A worker's task: each unit's ``("ok", text)`` or ``("fault",
    InputError)``, in order (a fault is a value, so that the units before
    it keep their output and the client reports it in its turn)."""
    module = judge_module(game)
    done: "List[Tuple[str, Any]]" = []
    for unit in units:
        try:
            done.append(("ok", _run_judge_unit(module, game, output_format, worker_unit(unit))))
        except InputError as error:
            done.append(("fault", error))
    return done


def replay_task(rule: str, output_format: str, game: "Optional[str]", max_cells: int,
                units: "Sequence[_Unit]") -> "List[Tuple[str, Any]]":
    """:func:`havhex.records.units.replay_task` on a worker: each record
    file, and each run of one, read through the regular-file check of
    :func:`worker_unit`."""
    from ..records.units import replay_task as replay

    done: "List[Tuple[str, Any]]" = []
    for unit in units:
        try:
            kind = unit[0]
            if kind == "path":
                name = os.fsdecode(unit[1])
                unit = ("bytes", bytes(_read_regular(unit[1], name, 0, None)), name)
            elif kind == "range" and unit[2] is None:
                _, path, _, name, start, stop, *rest = unit
                unit = ("range", path, bytes(_read_regular(path, name, start, stop)), name,
                        start, stop, *rest)
        except InputError as error:
            done.append(("fault", error))
            continue
        done.extend(replay(rule, output_format, game, max_cells, [unit]))
    return done


# ---------------------------------------------------------------------------
# On the client
# ---------------------------------------------------------------------------

def _read_whole(file: "Union[str, bytes]") -> "Tuple[bytes, str]":
    """``(bytes, name)`` of an input read as the judges read it: the same
    name, and the same fault for a file that cannot be opened."""
    from .._source import read_input

    def consume(descriptor: int) -> bytes:
        pieces: "List[bytes]" = []
        while True:
            piece = os.read(descriptor, 1 << 24)
            if not piece:
                return b"".join(pieces)
            pieces.append(piece)

    return read_input(file, consume)


def _mapped(file: "Union[str, bytes]") -> "Union[mmap.mmap, bytes]":
    """The bytes of a regular file, mapped (read-only) where the system can."""
    import mmap

    with open(file, "rb") as stream:
        try:
            return mmap.mmap(stream.fileno(), 0, access=mmap.ACCESS_READ)
        except (OSError, ValueError):
            return stream.read()


def plan_judge(files: "Sequence[str]", sizes: "Sequence[Optional[int]]", game: str, ship: bool,
               unit: "Union[int, Callable[[int], int]]",
               bundle_files: int) -> "Iterator[Tuple[Any, ...]]":
    """The judges' tasks, in input order (:mod:`havhex._units`'s plan):
    ``("fault", file index, error)`` for an input the client could not read
    (``ship``).  ``sizes`` are the files' :func:`~havhex._units.regular_size`;
    ``unit`` is a size in bytes or a function of the bytes still to plan
    (:func:`~havhex._units.shrinking_units`).  A file larger than twice the
    unit is cut into runs of cases of about that size, smaller ones go
    together up to ``bundle_files`` files or the unit's bytes.  Files are
    read, and large ones scanned, as the plan is consumed."""
    unit_bytes = unit_for(unit)
    bundle = Bundle(bundle_files, unit_bytes(sum(size or 0 for size in sizes)))
    for index, (file, size, later) in enumerate(zip(files, sizes, bytes_after(sizes))):
        data = None
        name = "<stdin>" if file == "-" else os.fsdecode(file)
        if size is None or ship:
            try:
                data, name = _read_whole(file)
            except InputError as error:
                if size is None and not ship:
                    # Not a regular file and not readable here: the worker
                    # tries it (and reports it as the judge does).
                    data = None
                else:
                    if bundle.units:
                        yield "task", bundle.units
                        bundle = bundle.again(unit_bytes(later))
                    yield "fault", index, error
                    continue
            if data is not None:
                size = len(data)
        if size is not None and size > 2 * unit_bytes(size + later):
            runs = _runs(file, data, name, game, lambda left: unit_bytes(later + left))
            first = next(runs, None)
            if first is not None:
                if bundle.units:
                    yield "task", bundle.units
                yield "task", [(index, first)]
                for run in runs:
                    yield "task", [(index, run)]
                bundle = bundle.again(unit_bytes(later))
                continue
        whole = ("path", file) if data is None else ("bytes", data, name)
        bundle.add(index, whole, size or 0)
        if bundle.full():
            yield "task", bundle.units
            bundle = bundle.again(unit_bytes(later))
    if bundle.units:
        yield "task", bundle.units


def _runs(file: "Union[str, bytes]", data: "Optional[bytes]", name: str, game: str,
          unit_bytes: "Callable[[int], int]") -> "Iterator[_Unit]":
    """The range units of a large input, each yielded as soon as the walk
    has found its end (so that workers judge while the rest is walked);
    nothing when the input is to be judged whole.  ``unit_bytes(left)`` is
    the size of the run that starts with ``left`` bytes of the input still
    to cut.  When the walk meets
    anything unusual after a cut, the cases from that cut to the end are
    one last run, whose judging reports the fault as the whole file's
    would (the same case numbers and lines)."""
    from .._boundaries import CaseWalk

    buffer = _mapped(file) if data is None else data
    walk = None
    try:
        walk = CaseWalk(buffer, judge_module(game).FILE_JUDGE.case_walk)
        start = walk.next_cut(unit_bytes(len(buffer)))
        if start is None:
            return

        def run(begin: "Tuple[int, int, int]", stop: int, cases: int) -> "_Unit":
            offset, before, line = begin
            piece = None if data is None else data[offset:stop]
            return ("range", file, piece, name, offset, stop, before, cases, line)

        while True:
            cut = walk.next_cut(unit_bytes(len(buffer) - start[0]))
            if cut is None:
                yield run(start, len(buffer), walk.cases - start[1])
                return
            yield run(start, cut[0], cut[1] - start[1])
            if cut[1] == walk.cases:
                return
            start = cut
    finally:
        walk = None             # its view of the mapping goes first
        if data is None and hasattr(buffer, "close"):
            buffer.close()
