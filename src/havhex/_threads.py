"""Worker threads on the low-level ``_thread`` module.

``threading`` is not imported: with ``_weakrefset`` and ``collections``
behind it, its import adds to the start of every ``havhex ... -j N`` run a
cost that parallel judging of small inputs never wins back.
"""
import _thread

# The annotations are for type checkers only, in quotes: the command line's
# start-up imports neither typing nor __future__.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from queue import SimpleQueue
    from typing import Any, Callable, Generator, Iterable, List, Optional, Tuple, TypeVar

    _R = TypeVar("_R")

try:        # the builtin module behind ``signal``, which costs an import of enum
    from _signal import SIG_BLOCK, SIGINT, SIGTERM, pthread_sigmask  # type: ignore
    _STOPPING_SIGNALS = frozenset({SIGINT, SIGTERM})
except ImportError:     # Windows: a console's Ctrl-C reaches the main thread alone
    pthread_sigmask = None


class Worker:
    """Runs ``function()`` on a new thread once ``start`` is called.

    ``join`` waits for it; ``outcome`` then returns what it returned, or
    raises what it raised, in the calling thread.  Like a daemon thread, a
    worker does not keep the interpreter alive: whoever starts one joins it.
    Keep the worker where a ``finally`` will join it *before* starting it:
    an interrupt during ``start`` may come after the thread is running.

    The thread blocks SIGINT and SIGTERM: the kernel then delivers them to
    the main thread, whose wait they cut short at once, where Python runs
    the handler (raising KeyboardInterrupt) and cancels the work.  Delivered
    to a worker instead, a signal waits for the main thread's next timed
    wake-up, and a worker in compiled code never runs a handler itself.
    """

    __slots__ = ("_function", "_ident", "_finished", "_done", "_result", "_error")

    def __init__(self, function: "Callable[[], Any]") -> None:
        self._function: "Optional[Callable[[], Any]]" = function
        self._ident: "Optional[int]" = None  # set once the thread exists
        self._finished = False      # set by the thread when the function has returned
        self._result: "Any" = None
        self._error: "Optional[BaseException]" = None
        self._done = _thread.allocate_lock()
        self._done.acquire()

    def start(self) -> None:
        self._ident = _thread.start_new_thread(self._run, ())

    def _run(self) -> None:
        try:
            if pthread_sigmask is not None:
                pthread_sigmask(SIG_BLOCK, _STOPPING_SIGNALS)
            # _function is None only once the thread has run it (the finally below).
            self._result = self._function()  # type: ignore[misc]
        except BaseException as exc:  # handed to the joining thread
            self._error = exc
        finally:
            self._function = None
            self._finished = True
            self._done.release()

    def join(self, timeout: "Optional[float]" = None) -> bool:
        """Wait until the function has returned (at most ``timeout``
        seconds); True once it has, or if the thread never started."""
        if self._ident is None or self._finished:
            return True
        if self._done.acquire(timeout=-1 if timeout is None else max(timeout, 0)):
            self._done.release()
            return True
        # (An interrupt between the acquire and the release leaves the lock
        # held; ``_finished``, set by the thread, still answers later joins.)
        return self._finished

    def outcome(self) -> "Any":
        """The function's result, or its exception raised here; call after
        ``join`` has returned True."""
        if self._error is not None:
            raise self._error
        return self._result


def run_workers(work: "Callable[[], object]", threads: int,
                release: "Optional[Callable[[], object]]" = None) -> None:
    """``work()`` on ``threads`` threads at once: this one and ``threads - 1``
    new workers (one thread more than the cores would only make them evict
    each other's data from the caches, so this thread takes a share).
    Returns once all have returned; then the first failure is raised, this
    thread's before the workers'.

    Every worker started is joined, whatever happens here; ``release()``,
    when given, is called first, so that workers that wait on something
    this thread was to do (read the input) stop waiting.
    """
    started: "List[Worker]" = []
    try:
        for _ in range(threads - 1):
            worker = Worker(work)
            started.append(worker)      # joined below even if start is interrupted
            worker.start()
        work()
    finally:
        if release is not None:
            release()
        for worker in started:
            worker.join()
    for worker in started:
        worker.outcome()


def run_interruptibly(function: "Callable[[], _R]", cancel: "Callable[[], object]",
                      report: "Optional[Callable[[], object]]" = None,
                      interval: float = 0.05) -> "_R":
    """``function()`` on a worker thread while this thread waits, calling
    ``report()`` (when given) every ``interval`` seconds; returns what it
    returned or raises what it raised.

    Compiled work holds no GIL but cannot see a signal: Python runs the
    handler (and raises KeyboardInterrupt) only in the main thread, between
    bytecodes.  Waiting here keeps the main thread able to do that.  When the
    wait ends by an exception (an interrupt, or ``report`` failing),
    ``cancel()`` asks the work to stop, the worker is joined (the work polls
    often enough for this to take milliseconds; a second interrupt does not
    cut it short), and the exception goes on.
    """
    runner = Worker(function)
    try:
        runner.start()
        # A timed wait, so that a signal delivered to another thread still
        # reaches its handler here within ``interval``.
        while True:
            if report is not None:
                report()
            if runner.join(interval):
                break
        if report is not None:
            report()
    except BaseException:
        cancel()
        join_through_interrupts(runner)
        raise
    result: "_R" = runner.outcome()
    return result


def join_through_interrupts(worker: Worker) -> None:
    """Join ``worker`` whatever comes meanwhile: a second interrupt while
    cancelled work winds down is dropped, and the first one goes on."""
    while True:
        try:
            worker.join()
            return
        except BaseException:
            pass


def run_cancellable(function: "Callable[[], _R]", cancel: "Callable[[], object]",
                    large: bool) -> "_R":
    """``function()``: on a worker thread while this one waits
    (:func:`run_interruptibly`) when the work is ``large``, else here, where
    starting a thread would cost more than the work."""
    if not large:
        return function()
    return run_interruptibly(function, cancel)


def run_shared(work: "Callable[[], object]", cancel: "Callable[[], object]", threads: int,
               large: bool) -> None:
    """``work()`` on ``threads`` threads at once (:func:`run_workers`), the
    work sharing one object whose ``cancel()`` makes every thread stop soon;
    while this thread waits when the work is ``large``
    (:func:`run_cancellable`), so that Ctrl-C stops it and returns only
    once every thread has let go of the shared object."""
    run_cancellable(lambda: run_workers(work, threads), cancel, large)


class _Done:
    """A job's end, which the thread taking the outcomes waits for."""
    __slots__ = ("lock", "result", "error")

    def __init__(self) -> None:
        self.lock = _thread.allocate_lock()
        self.lock.acquire()
        self.result: "Any" = None
        self.error: "Optional[BaseException]" = None


def _run_jobs(todo: "SimpleQueue[Optional[Tuple[Any, _Done]]]", stopping: "List[bool]") -> None:
    """A side-by-side worker: the jobs of ``todo`` (a queue) in the order
    they come, until a None; once ``stopping`` holds anything, a job taken
    is ended unrun."""
    while True:
        item = todo.get()
        if item is None:
            return
        job, done = item
        try:
            if not stopping:
                done.result = job.run()
        except BaseException as exc:  # handed to the thread taking the outcomes
            done.error = exc
        finally:
            done.lock.release()


def run_side_by_side(jobs: "Iterable[Any]", threads: int,
                     report: "Optional[Callable[[Any], object]]" = None,
                     interval: float = 0.05) -> "Generator[Any, None, None]":
    """Each job's ``run()`` return value, in the order of ``jobs``, with up to
    ``threads`` jobs running at once on worker threads: the way to keep
    every core busy on many inputs, each judged on one thread, without the
    joins and the serial reading of one input judged on several.

    A job has ``run()`` (on a worker: compiled work that releases the GIL)
    and ``cancel()`` (from this thread: makes ``run`` return soon).  Jobs
    are taken from ``jobs`` as workers free up, at most ``2 * threads``
    ahead of the one whose outcome is awaited, so that a worker never waits
    on the caller taking an outcome while memory stays bounded.  A job's
    exception is raised in its turn.  ``report(job)``, when given, is
    called every ``interval`` seconds with the job awaited.

    Leaving early (an exception here or in the caller, or the generator
    closed) cancels every job begun and joins the workers before the
    exception goes on: no worker outlives the call.
    """
    from collections import deque
    from queue import SimpleQueue

    queued = iter(jobs)
    todo: "SimpleQueue[Optional[Tuple[Any, _Done]]]" = SimpleQueue()
    pending: "deque[Tuple[Any, _Done]]" = deque()
    workers: "List[Worker]" = []
    stopping: "List[bool]" = []
    window = 2 * threads
    finished = False

    def take_more() -> None:
        while len(pending) < window:
            job = next(queued, None)
            if job is None:
                return
            done = _Done()
            pending.append((job, done))
            todo.put((job, done))

    try:
        for _ in range(threads):
            worker = Worker(lambda: _run_jobs(todo, stopping))
            workers.append(worker)          # joined below even if start is interrupted
            worker.start()
        take_more()
        while pending:
            job, done = pending[0]
            # Timed, so that a signal meant for this thread is handled within
            # ``interval`` wherever the kernel delivered it.
            while not done.lock.acquire(timeout=interval):
                if report is not None:
                    report(job)
            pending.popleft()
            take_more()
            if done.error is not None:
                raise done.error
            yield done.result
        finished = True
    finally:
        if not finished:
            stopping.append(True)
            for job, _ in pending:
                job.cancel()
        for _ in workers:
            todo.put(None)
        for worker in workers:
            join_through_interrupts(worker)
