"""Worker processes that run tasks of work units, and the units' results
taken back in plan order.

The plan is :mod:`havhex._units`'s shape; what a unit is and what a task
does with it are the caller's: ``work(units)``, a function of the units of
one task, returns one result per unit (``("ok", value)`` or ``("fault",
InputError)``), in order.  This module only runs it: in worker processes
(:class:`Pool`), or here one unit at a time (:func:`run_here`).

A small pool of its own rather than concurrent.futures.ProcessPoolExecutor,
whose shutdown waits for the running tasks (Ctrl-C is then seen only when
they end) and which reports a killed worker as a BrokenProcessPool for
every task.  Here each worker reads tasks from one pipe and answers in
order on another; the parent kills the workers at once on any way out.
"""
import os

# The annotations are for type checkers only, in quotes: no run imports
# typing or __future__.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections import deque
    from multiprocessing.connection import Connection
    from multiprocessing.process import BaseProcess
    from typing import (Any, Callable, Generator, Iterable, Iterator, List, Optional,
                        Sequence, Tuple)

    # A unit of work; its result ("ok", value) or ("fault", InputError); a
    # task runs a list of units; a plan's item ("fault", index, error) or
    # (kind, [(index, unit), ...]).
    _Unit = Any
    _Outcome = Tuple[str, Any]
    _Work = Callable[[List[Any]], Sequence[_Outcome]]
    _Pending = Tuple[List[int], Optional["Ticket"], Optional[Sequence[_Outcome]]]

__all__ = ["Pool", "Ticket", "WorkerProcess", "run_here"]


def run_here(plan: "Iterable[Tuple[Any, ...]]",
             work: "_Work") -> "Iterator[Tuple[int, _Outcome]]":
    """``(file index, result)`` of every unit of ``plan``, run in this
    process one unit at a time (``work([unit])``), so that each unit's
    result is taken before the next is run."""
    for item in plan:
        if item[0] == "fault":
            yield item[1], ("fault", item[2])
            continue
        for index, unit in item[1]:
            yield index, work([unit])[0]


def _die_with_parent(parent: int) -> None:
    """Have the kernel kill this worker when the parent dies (Linux
    PR_SET_PDEATHSIG), even by ``kill -9``, which leaves it no time to."""
    import signal
    import sys

    if sys.platform.startswith("linux"):
        try:
            import ctypes

            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(1, int(signal.SIGKILL), 0, 0, 0)  # 1: PR_SET_PDEATHSIG
        except (OSError, AttributeError):
            pass
    if os.getppid() != parent:     # the parent died before the call
        os._exit(1)


def _start_quietly(process: "BaseProcess") -> None:
    """Start ``process`` with SIGINT and SIGTERM blocked, which it unblocks
    once its own handlers are set: a signal in between would otherwise run
    the parent's handler in the worker (a traceback on stderr)."""
    import signal

    mask = getattr(signal, "pthread_sigmask", None)  # POSIX only
    if mask is None:
        process.start()
        return
    previous = mask(signal.SIG_BLOCK, {signal.SIGINT, signal.SIGTERM})
    try:
        process.start()
    finally:
        mask(signal.SIG_SETMASK, previous)


def _worker(tasks: "Connection", answers: "Connection", work: "_Work", parent: int) -> None:
    """A worker process: each task's ``("ok", work(units))`` in order, or
    ``("error", exception)`` for a failure that is no input's fault."""
    import signal

    # First of all (a worker stopped at once, as when the input fails at its
    # first byte, must not run the parent's handlers and print a traceback):
    # Ctrl-C in a terminal reaches the whole process group: the parent
    # handles it (and kills the workers); SIGTERM ends a worker at once.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    # Both arrive blocked (see _start_quietly) until these are set, so that
    # the parent's handlers, inherited by fork, never run here.
    mask = getattr(signal, "pthread_sigmask", None)
    if mask is not None:
        mask(signal.SIG_UNBLOCK, {signal.SIGINT, signal.SIGTERM})
    import _thread
    import gc
    from queue import SimpleQueue

    # What the fork brought is never freed here: out of the collector's
    # sight, its pages are not written (copied) by every collection.
    gc.freeze()
    _die_with_parent(parent)
    waiting: "SimpleQueue[Optional[List[Any]]]" = SimpleQueue()

    def receive() -> None:
        # Tasks are taken from the pipe as they come, so that the parent's
        # sending never waits on a worker busy sending its answer.
        try:
            while True:
                waiting.put(tasks.recv())
        except (EOFError, OSError):
            waiting.put(None)

    def send() -> None:
        # Answers go from a thread of their own: the parent takes them in
        # task order, so an answer larger than the pipe holds waits while
        # the parent reads another worker's; this worker works on.
        try:
            while True:
                answer = outbox.get()
                if answer is None:
                    return
                answers.send(answer)
        except OSError:                 # the parent is gone
            return
        finally:
            sent.release()

    outbox: "SimpleQueue[Optional[Tuple[str, Any]]]" = SimpleQueue()
    sent = _thread.allocate_lock()
    sent.acquire()
    _thread.start_new_thread(receive, ())
    _thread.start_new_thread(send, ())
    while True:
        units = waiting.get()
        if units is None:
            outbox.put(None)
            sent.acquire()              # every answer out before the process ends
            return
        try:
            answer: "Tuple[str, Any]" = ("ok", work(units))
        except Exception as exc:  # handed to the parent, which raises it
            answer = ("error", exc)
        outbox.put(answer)


class Pool:
    """``processes`` worker processes running ``work`` on tasks of units.

    ``work(units)`` is the task (a function the worker can be given: with
    the spawn start method it is pickled, so a module's function or a
    ``functools.partial`` of one); ``unit_name(unit)`` names a unit in the
    message of a worker that dies, ``kind`` names the workers there ("a
    {kind} worker process")."""

    def __init__(self, processes: int, work: "_Work",
                 unit_name: "Callable[[Any], str]" = repr, kind: str = "havhex") -> None:
        import multiprocessing

        self.work = work

        # fork where there is one: a worker starts in milliseconds with the
        # package already imported; elsewhere spawn.
        method = "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"
        # Any: typeshed's BaseContext, which get_context returns for a str,
        # has no Process (each start method's context has its own).
        context: "Any" = multiprocessing.get_context(method)
        self.workers: "List[WorkerProcess]" = []
        try:
            for _ in range(processes):
                task_out, task_in = context.Pipe(duplex=False)
                answer_out, answer_in = context.Pipe(duplex=False)
                process = context.Process(
                    target=_worker, args=(task_out, answer_in, work, os.getpid()),
                    daemon=True)
                worker = WorkerProcess(process, task_in, answer_out, unit_name, kind)
                self.workers.append(worker)
                _start_quietly(process)
                task_out.close()
                answer_in.close()
        except BaseException:
            self.close()
            raise

    def ordered(self, plan: "Iterable[Tuple[Any, ...]]",
                depth: int) -> "Generator[Tuple[int, _Outcome], None, None]":
        """``(file index, result)`` of every unit of ``plan``, in plan
        order.  Each worker is kept ``depth`` tasks ahead; whenever the
        next answer due is not in yet, this process runs the plan's next
        task itself rather than wait, so it shares the work as a worker
        would, and what it does besides (planning, taking answers) takes
        no core from the workers.  Tasks done here wait for the answers
        before them, up to twice ``depth`` tasks a process in all, so that
        a worker's slower task does not stop this process.  At the end of
        the plan this process takes back the tasks the workers have not
        begun (_run_queued).  A failure that is no input's fault in a
        task run here is raised at once, before the output of the
        tasks before it."""
        from collections import deque

        items = iter(plan)
        # (file indices, ticket, or None and the results)
        pending: "deque[_Pending]" = deque()
        ahead = 2 * depth * (len(self.workers) + 1)
        left = True

        def next_task(
                ) -> "Optional[Tuple[List[int], Optional[List[Any]], Optional[Sequence[_Outcome]]]]":
            """The plan's next item as (file indices, units, or None and
            the results of a fault found in planning); None at the end."""
            nonlocal left
            item = next(items, None)
            if item is None:
                left = False
                return None
            if item[0] == "fault":
                return [item[1]], None, [("fault", item[2])]
            return [index for index, _ in item[1]], [unit for _, unit in item[1]], None

        while True:
            # One task more per worker a turn, so that this process takes
            # its share from the start (a plan of a few tasks is not all
            # the workers').
            for _ in self.workers:
                if not left or self.in_flight() >= depth * len(self.workers):
                    break
                found = next_task()
                if found is None:
                    break
                indices, units, results = found
                pending.append((indices, None if units is None else self.submit(units), results))
            if not pending and not left:
                return
            if pending:
                indices, ticket, results = pending[0]
                if ticket is None or ticket.ready() or len(pending) >= ahead:
                    pending.popleft()
                    if ticket is not None:
                        results = ticket.result()
                    # results is None only beside a ticket, whose results replaced it.
                    yield from zip(indices, results)  # type: ignore[arg-type]
                    continue
                if not left:
                    if not _run_queued(pending, self.work):
                        pending.popleft()
                        yield from zip(indices, ticket.result())
                    continue
            found = next_task()         # the next answer is not in: work here meanwhile
            if found is not None:
                indices, units, results = found
                if units is not None:
                    results = self.work(units)
                pending.append((indices, None, results))

    def in_flight(self) -> int:
        return sum(len(worker.waiting) for worker in self.workers)

    def submit(self, units: "List[Any]") -> "Ticket":
        """Send a task to the least busy worker; its answer comes from the
        ticket returned (tickets are taken in the order of submission)."""
        worker = min(self.workers, key=lambda worker: len(worker.waiting))
        worker.send(units)
        return Ticket(worker)

    def close(self) -> None:
        """Kill the workers (at once: their work is either taken or lost)
        and wait for them to go."""
        for worker in self.workers:
            worker.kill()
        for worker in self.workers:
            worker.wait()
        self.workers = []


def _run_queued(pending: "deque[_Pending]", work: "_Work") -> bool:
    """At the end of the plan, rather than wait for a worker: run here
    the last task that a worker holds behind its oldest, while that one's
    answer has not come in (the worker is on it, so the others are not
    begun), and keep its results in its place.  The worker's answer to it
    is dropped when it comes (WorkerProcess.answer); the worker still runs
    it if it gets that far before the pool kills it, a core's share spent
    only where the worker would otherwise be idle or gone.  A worker whose
    oldest answer is in is left alone (it may be on any of its tasks).
    False when no task is left to take."""
    for place in range(len(pending) - 1, 0, -1):
        indices, ticket, _ = pending[place]
        if ticket is None:
            continue
        worker = ticket.worker
        # Each earlier ticket named once, so that its "is not None" narrows it.
        ahead_of_it = sum(1 for other in (pending[earlier][1] for earlier in range(place))
                          if other is not None and other.worker is worker)
        if ahead_of_it and not worker.answers.poll():
            pending[place] = (indices, None, work(worker.take_back(ahead_of_it)))
            return True
    return False


class Ticket:
    """A task sent to a worker: ``result()`` is its answer, as
    :func:`havhex._units.ordered_results` takes a future's."""
    __slots__ = ("worker",)

    def __init__(self, worker: "WorkerProcess") -> None:
        self.worker = worker

    def ready(self) -> bool:
        """Whether the answer has begun to come in (the worker's answers
        come in the order of its tasks, and this is its oldest untaken)."""
        return self.worker.answers.poll()

    def result(self) -> "Sequence[_Outcome]":
        status, value = self.worker.answer()
        if status == "error":
            raise value
        results: "Sequence[_Outcome]" = value
        return results

    def cancel(self) -> None:
        """Nothing to cancel: the pool kills its workers on the way out."""

    def release(self) -> None:
        """Nothing to let go of: the answer was taken whole."""


class WorkerProcess:
    """One worker of a :class:`Pool`: its process, its two pipes, and the
    units of each task sent to it and not answered yet."""
    __slots__ = ("process", "tasks", "answers", "waiting", "unit_name", "kind")

    def __init__(self, process: "BaseProcess", tasks: "Connection", answers: "Connection",
                 unit_name: "Callable[[Any], str]" = repr, kind: str = "havhex") -> None:
        from collections import deque

        self.process = process
        self.tasks = tasks
        self.answers = answers
        self.unit_name = unit_name      # these two for the message of its death
        self.kind = kind
        # The units of each task sent and not answered (None: taken back).
        self.waiting: "deque[Optional[List[Any]]]" = deque()

    def send(self, units: "List[Any]") -> None:
        self.waiting.append(units)
        try:
            self.tasks.send(units)
        except OSError:
            raise self._died(self.lost()) from None

    def answer(self) -> "Tuple[str, Any]":
        """The answer to the oldest task still wanted; those to tasks taken
        back are read and dropped."""
        while True:
            try:
                answer: "Tuple[str, Any]" = self.answers.recv()
            except (EOFError, OSError):
                raise self._died(self.lost()) from None
            if self.waiting.popleft() is not None:
                return answer

    def take_back(self, place: int) -> "List[Any]":
        """The units of the task after the ``place`` oldest still wanted,
        whose answer will be dropped: the parent runs them itself."""
        for index, units in enumerate(self.waiting):
            if units is not None:
                if place == 0:
                    self.waiting[index] = None
                    return units
                place -= 1
        raise IndexError(place)

    def lost(self) -> str:
        """What is lost if this worker dies now, for the message: the units
        of its tasks not yet answered (and not taken back)."""
        found = [self.unit_name(unit) for units in self.waiting if units is not None
                 for unit in units]
        unique = list(dict.fromkeys(found))
        shown = ", ".join(unique[:4])
        if len(unique) > 4:
            shown += f" and {len(unique) - 4} more"
        return shown

    def _died(self, lost: str) -> Exception:
        from .errors import InputError

        self.process.join(1)
        code = self.process.exitcode
        if code is not None and code < 0:
            import signal

            try:
                how = f"was killed by {signal.Signals(-code).name}"
            except ValueError:
                how = f"was killed by signal {-code}"
        else:
            how = "ended" if code is None else f"ended with status {code}"
        return InputError(f"a {self.kind} worker process (pid {self.process.pid}) {how}; "
                          f"lost the output of {lost}")

    def kill(self) -> None:
        if self.process.pid is not None and self.process.exitcode is None:
            try:
                self.process.kill()
            except OSError:
                pass

    def wait(self) -> None:
        if self.process.pid is not None:
            self.process.join()
        for connection in (self.tasks, self.answers):
            connection.close()
