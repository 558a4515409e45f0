"""Many input files judged side by side, one file on each thread.

One file judged on several threads pays for it: its reading is shared in
turns, its cases are dealt out, and every thread waits for the last case
before the next file begins.  Files side by side pay none of that: each
thread reads and judges a file of its own, as independent processes
would (docs/performance.md, "Parallel runs").  The last file, which nothing
else can be judged beside, gets every thread.
"""
import _thread
import os

from ._source import is_stdin, read_input
from ._threads import join_through_interrupts, run_side_by_side

# The annotations (JudgedMeanwhile's, which the typed cluster run calls) are
# for type checkers only, in quotes: no run imports typing or __future__.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Callable, Dict, Generator, Iterable, Iterator, List, Optional, Tuple, TypeVar

    from ._threads import Worker

    _T = TypeVar("_T")

__all__ = ["judged_side_by_side", "outputs_side_by_side", "JudgedMeanwhile"]


def _stream(file: "Any") -> "Optional[object]":
    """What a second reader of ``file`` would share its reading with (the
    same descriptor, pipe or device), or None when each reader of it reads
    the whole of it (a regular file, opened anew), or when it cannot be
    told (the open will fail)."""
    import stat  # already loaded by os: no start-up cost

    if is_stdin(file):
        try:
            status = os.fstat(0)
        except OSError:
            return "-"
        # Standard input is one descriptor, one offset, whatever it is; a
        # pipe or a device behind it may be named by a path too (/dev/stdin).
        return "-" if stat.S_ISREG(status.st_mode) else (status.st_dev, status.st_ino)
    if not isinstance(file, (str, bytes, os.PathLike)):
        return ("object", id(file))
    try:
        status = os.stat(file)
    except OSError:
        return None
    if stat.S_ISREG(status.st_mode) or stat.S_ISDIR(status.st_mode):
        return None
    return (status.st_dev, status.st_ino)


class _FileJob:
    """One file for :func:`havhex._threads.run_side_by_side`.

    ``after``, when given, is the ``ended`` lock of the job before it that
    reads the same stream (standard input named twice, a pipe): the two
    must not read at once, each taking parts of the other's input, but in
    turn, as one thread would (the second then sees what the first left).
    """
    __slots__ = ("file", "parsed", "consume", "display", "after", "ended", "cancelled")

    def __init__(self, file: "Any", parsed: "Any", consume: "Callable[[Any], object]",
                 display: "Any", after: "Optional[_thread.LockType]" = None) -> None:
        self.file = file
        self.parsed = parsed
        self.consume = consume
        self.display = display
        self.after = after
        self.ended = _thread.allocate_lock()
        self.ended.acquire()
        self.cancelled = False

    def run(self) -> "Tuple[_FileJob, Optional[str]]":
        try:
            if self.after is not None:
                # Timed: the job before may be ended unrun when the run stops,
                # and this one is then cancelled too.
                while not self.after.acquire(timeout=0.05):
                    if self.cancelled:
                        return self, None
                self.after.release()
                if self.cancelled:
                    return self, None
            _, source = read_input(self.file, self.consume)
            return self, source
        finally:
            self.ended.release()

    def cancel(self) -> None:
        self.cancelled = True
        self.parsed.cancel()

    def report(self) -> None:
        if self.display is not None:
            self.display(*self.parsed.progress())

    def close_display(self) -> None:
        if self.display is not None:
            self.display.close()
            self.display = None


def judged_side_by_side(files: "Iterable[Any]", threads: int,
                        start: "Callable[[int], Tuple[Any, Callable[[Any], object]]]",
                        progress_for: "Optional[Callable[[Any], Any]]" = None,
                        ) -> "Generator[Tuple[Any, str], None, None]":
    """``(parsed input, source name)`` of each of ``files``, in order, read
    and judged with up to ``threads`` files at once.

    ``start(threads)`` gives a file's ``(parsed, consume)``: an engine input
    (``cancel()``, ``progress()``) and what reads the file's data (a file
    descriptor or bytes) into it and judges it on that many threads.  A
    file's fault is raised in its turn (after the files before it), and no
    file after it is read further.  ``progress_for(file)``, when given, is
    a progress display (or None) shown while the file is awaited.
    """
    listed = list(files)
    made: "List[_FileJob]" = []
    # stream -> the ``ended`` lock of its last job
    last_reader: "Dict[object, _thread.LockType]" = {}

    def jobs() -> "Iterator[_FileJob]":
        for number, file in enumerate(listed):
            # The last file has every thread: the others are idle once
            # the files before it are judged.
            parsed, consume = start(threads if number == len(listed) - 1 else 1)
            display = progress_for(file) if progress_for is not None else None
            stream = _stream(file)
            job = _FileJob(file, parsed, consume, display, last_reader.get(stream))
            if stream is not None:
                last_reader[stream] = job.ended
            made.append(job)
            yield job

    running = run_side_by_side(jobs(), threads, lambda job: job.report(),
                               0.1 if progress_for is not None else 0.05)
    try:
        for job, source in running:
            job.report()
            job.close_display()
            made.remove(job)        # what it holds goes with the caller
            yield job.parsed, source
    finally:
        running.close()             # cancels and joins now, not when collected
        for job in made:
            job.close_display()


def outputs_side_by_side(files: "Iterable[Any]", threads: int,
                         start: "Callable[[int], Tuple[Any, Callable[[Any], object]]]",
                         outputs: "Callable[[Any, str], _T]",
                         progress_for: "Optional[Callable[[Any], Any]]" = None,
                         ) -> "Iterator[_T]":
    """``outputs(parsed, source)`` of each of ``files`` judged side by side
    (:func:`judged_side_by_side`), in order; closed early (a fault raised
    by ``outputs``), it cancels the files after."""
    judged = judged_side_by_side(files, threads, start, progress_for)
    try:
        for parsed, source in judged:
            yield outputs(parsed, source)
    finally:
        judged.close()


class JudgedMeanwhile:
    """The first files of a run read and judged here, one after another on
    a worker thread, while this thread does something else: a client
    connecting to its cluster, whose import and handshake leave a core
    idle (docs/performance.md, "Parallel runs").

    ``begin()`` starts; ``stop()`` takes no file more and returns how many
    were taken (judged, or being judged): those are this run's, the rest
    the caller's.  ``outcomes()`` then gives ``(parsed, source)`` of each
    taken file in order, waiting for the last; a file's fault stops the
    taking (nothing after it is wanted) and is raised in its turn.
    ``cancel()`` stops the work at once; ``outcomes`` and ``cancel`` join
    the thread before they return, so call one of them."""

    def __init__(self, files: "Iterable[Any]", start: "Callable[[int], Any]",
                 wanted: "Callable[[Any], bool]") -> None:
        import _thread

        self.files = list(files)
        self.start = start
        self.wanted = wanted            # wanted(file): whether to take it here
        self.lock = _thread.allocate_lock()
        self.taken = 0
        self.stopped = False
        self.current: "Any" = None
        # (parsed, source, exception) in order
        self.done: "List[Tuple[Any, Optional[str], Optional[BaseException]]]" = []
        self.worker: "Optional[Worker]" = None

    def begin(self) -> None:
        from ._threads import Worker

        self.worker = Worker(self._take)
        self.worker.start()

    def _next(self) -> "Optional[Tuple[Any, Any, Callable[[Any], object]]]":
        with self.lock:
            if (self.stopped or self.taken >= len(self.files)
                    or not self.wanted(self.files[self.taken])):
                self.stopped = True
                return None
            file = self.files[self.taken]
            self.taken += 1
            parsed, consume = self.start(1)
            self.current = parsed
            return file, parsed, consume

    def _take(self) -> None:
        while True:
            claimed = self._next()
            if claimed is None:
                return
            file, parsed, consume = claimed
            try:
                _, source = read_input(file, consume)
            except BaseException as exc:   # its turn comes in outcomes()
                self.done.append((parsed, None, exc))
                self.stop()
                return
            self.done.append((parsed, source, None))
            if parsed.err_code:
                self.stop()     # a fault: the files after it are not wanted
                return

    def stop(self) -> int:
        with self.lock:
            self.stopped = True
            return self.taken

    def _join(self) -> None:
        if self.worker is None:
            return
        join_through_interrupts(self.worker)
        self.worker.outcome()

    def cancel(self) -> None:
        with self.lock:
            self.stopped = True
            if self.current is not None:
                self.current.cancel()
        self._join()

    def outcomes(self) -> "Iterator[Tuple[Any, Optional[str]]]":
        self.stop()
        try:
            # Timed, so that a signal is handled here within the interval.
            while self.worker is not None and not self.worker.join(0.05):
                pass
        except BaseException:
            self.cancel()
            raise
        self._join()
        for parsed, source, error in self.done:
            if error is not None:
                raise error
            yield parsed, source
