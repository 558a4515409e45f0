"""``havhex replay``: game records replayed, one line or JSON object per game.

Work is cut into units: a file, or a run of whole games of a large file
(cut where a game's tree closes).  With ``-j N`` the units go to N worker
processes (the per-game work is Python as much as compiled code, so threads
would queue on the interpreter); the output is the same, in input order.
With ``-j 1`` the same units are replayed here, one at a time.  A file's
output goes on as its units are replayed (it is never held whole here: the
writer keeps it whole or drops it, spilling to disk as it grows), and a
file's output appears whole or not at all.

The units, their plan and what a unit prints are
:mod:`havhex.records.units`'s, shared with the cluster
(:mod:`havhex.cli.cluster`); this module chooses the sizes, runs the local
worker processes and keeps the summary.
"""
import os

__all__ = ["replay_outputs", "Summary"]

# A file larger than this is cut into runs of whole games of about this
# size: a run of 1 MB is about 1,500 Hex 11x11 games, many times what it
# costs to hand a task to a worker process and take its output back, small
# runs keep both workers busy to the end (docs/performance.md has the
# figures), and a run's output is all that is held at a time.
UNIT_BYTES = 1 << 20


class Summary:
    """Counts for the summary line."""

    def __init__(self):
        self.files = self.games = self.moves = self.wins = 0
        self.flags = {}

    def add(self, counts):
        games, moves, wins, flags = counts
        self.games += games
        self.moves += moves
        self.wins += wins
        for flag, count in flags.items():
            self.flags[flag] = self.flags.get(flag, 0) + count

    def line(self):
        from ..records import FLAGS

        flags = ", ".join(f"{self.flags.get(flag, 0)} {flag}" for flag in FLAGS)
        return (f"replayed {self.files} file{'s' * (self.files != 1)}: {self.games} "
                f"game{'s' * (self.games != 1)}, "
                f"{self.moves} moves, {self.wins} won on the board; {flags}")


def replay_outputs(files, rule, output_format, jobs, summary, game=None, max_cells=None):
    """For each file, in order, an iterator over its output text in pieces
    (a unit's output each); the summary's counts grow as units are replayed.
    ``game`` and ``max_cells`` (None: :data:`havhex.records.MAX_CELLS`) as
    for :func:`havhex.records.replay`."""
    from ..records.runs import record_files
    from ..records.units import plan_replay

    if max_cells is None:
        from ..records.game import MAX_CELLS as max_cells
    task = (rule, output_format, game, max_cells)     # replay_task's arguments before the units
    plan = plan_replay(record_files(files), False, UNIT_BYTES, BATCH_FILES)
    if jobs <= 1:
        yield from _file_outputs(_here(plan, task), summary)
        return
    # This process is one of the N: it plans, takes the answers, writes, and
    # replays tasks itself while it would wait, beside N - 1 workers, so
    # that N cores run N busy processes, not N + 1.
    pool = _Pool(jobs - 1, task)
    try:
        yield from _file_outputs(pool.ordered(plan, TASKS_PER_WORKER), summary)
    finally:
        pool.close()


def _here(plan, task):
    """``(file index, result)`` of every unit of ``plan``, replayed in this
    process one unit at a time."""
    from ..records.units import replay_task

    for item in plan:
        if item[0] == "fault":
            yield item[1], ("fault", item[2])
            continue
        for index, unit in item[1]:
            yield index, replay_task(*task, [unit])[0]


def _file_outputs(results, summary):
    """Each file's output as an iterator over its units' texts, taken from
    ``results`` as the writer asks for them; a fault is raised in its turn
    (after the output of the units before it)."""
    results = iter(results)
    following = None

    def pieces(index, result):
        nonlocal following
        while True:
            status, value = result
            if status == "fault":
                raise value
            text, counts = value
            summary.add(counts)
            yield text
            following = next(results, None)
            if following is None or following[0] != index:
                return
            result = following[1]

    following = next(results, None)
    while following is not None:
        output = pieces(*following)
        following = None
        yield output
        for _ in output:    # what the writer left (it takes all of it)
            pass
        summary.files += 1


# Small files go to the workers in batches of up to this many.
BATCH_FILES = 64
# Tasks in flight per worker process: enough to keep every worker busy
# while results are taken in order, few enough that the output waiting to
# be taken stays small (it waits in the workers).
TASKS_PER_WORKER = 4

# Worker processes: a small pool of our own rather than
# concurrent.futures.ProcessPoolExecutor, whose shutdown waits for the
# running tasks (Ctrl-C is then seen only when they end) and which reports
# a killed worker as a BrokenProcessPool for every task.  Here each worker
# reads tasks from one pipe and answers in order on another; the parent
# kills the workers at once on any way out.


def _die_with_parent(parent):
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


def _start_quietly(process):
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


def _worker(tasks, answers, task, parent):
    """A worker process: each task's ``("ok", results)`` in order, or
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

    from ..records.units import replay_task

    # What the fork brought is never freed here: out of the collector's
    # sight, its pages are not written (copied) by every collection.
    gc.freeze()
    _die_with_parent(parent)
    waiting = SimpleQueue()

    def receive():
        # Tasks are taken from the pipe as they come, so that the parent's
        # sending never waits on a worker busy sending its answer.
        try:
            while True:
                waiting.put(tasks.recv())
        except (EOFError, OSError):
            waiting.put(None)

    def send():
        # Answers go from a thread of their own: the parent takes them in
        # task order, so an answer larger than the pipe holds waits while
        # the parent reads another worker's; this worker replays on.
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

    outbox = SimpleQueue()
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
            answer = ("ok", replay_task(*task, units))
        except Exception as exc:  # handed to the parent, which raises it
            answer = ("error", exc)
        outbox.put(answer)


def _unit_name(unit):
    kind = unit[0]
    if kind == "path":
        return os.fsdecode(unit[1])
    if kind == "bytes":
        return unit[2]
    return f"{unit[3]} from game {unit[6]}"


class _Pool:
    """``jobs`` worker processes replaying tasks of units."""

    def __init__(self, jobs, task):
        import multiprocessing

        self.task = task

        # fork where there is one: a worker starts in milliseconds with the
        # package already imported; elsewhere spawn.
        method = "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"
        context = multiprocessing.get_context(method)
        self.workers = []
        try:
            for _ in range(jobs):
                task_out, task_in = context.Pipe(duplex=False)
                answer_out, answer_in = context.Pipe(duplex=False)
                process = context.Process(
                    target=_worker, args=(task_out, answer_in, task, os.getpid()),
                    daemon=True)
                worker = _Worker(process, task_in, answer_out)
                self.workers.append(worker)
                _start_quietly(process)
                task_out.close()
                answer_in.close()
        except BaseException:
            self.close()
            raise

    def ordered(self, plan, depth):
        """``(file index, result)`` of every unit of ``plan``, in plan
        order.  Each worker is kept ``depth`` tasks ahead; whenever the
        next answer due is not in yet, this process replays the plan's next
        task itself rather than wait, so it shares the work as a worker
        would, and what it does besides (planning, taking answers) takes
        no core from the workers.  Tasks done here wait for the answers
        before them, up to twice ``depth`` tasks a process in all, so that
        a worker's slower task does not stop this process.  At the end of
        the plan this process takes back the tasks the workers have not
        begun (_replay_queued).  A failure that is no input's fault in a
        task replayed here is raised at once, before the output of the
        tasks before it."""
        from collections import deque

        from ..records.units import replay_task

        plan = iter(plan)
        pending = deque()       # (file indices, ticket, or None and the results)
        ahead = 2 * depth * (len(self.workers) + 1)
        left = True

        def next_task():
            """The plan's next item as (file indices, units, or None and
            the results of a fault found in planning); None at the end."""
            nonlocal left
            item = next(plan, None)
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
                    yield from zip(indices, results)
                    continue
                if not left:
                    if not _replay_queued(pending, self.task):
                        pending.popleft()
                        yield from zip(indices, ticket.result())
                    continue
            found = next_task()         # the next answer is not in: work here meanwhile
            if found is not None:
                indices, units, results = found
                if units is not None:
                    results = replay_task(*self.task, units)
                pending.append((indices, None, results))

    def in_flight(self):
        return sum(len(worker.waiting) for worker in self.workers)

    def submit(self, units):
        """Send a task to the least busy worker; its answer comes from the
        ticket returned (tickets are taken in the order of submission)."""
        worker = min(self.workers, key=lambda worker: len(worker.waiting))
        worker.send(units)
        return _Ticket(worker)

    def close(self):
        """Kill the workers (at once: their work is either taken or lost)
        and wait for them to go."""
        for worker in self.workers:
            worker.kill()
        for worker in self.workers:
            worker.wait()
        self.workers = []


def _replay_queued(pending, task):
    """At the end of the plan, rather than wait for a worker: replay here
    the last task that a worker holds behind its oldest, while that one's
    answer has not come in (the worker is on it, so the others are not
    begun), and keep its results in its place.  The worker's answer to it
    is dropped when it comes (_Worker.answer); the worker still replays it
    if it gets that far before the pool kills it, a core's share spent
    only where the worker would otherwise be idle or gone.  A worker whose
    oldest answer is in is left alone (it may be on any of its tasks).
    False when no task is left to take."""
    from ..records.units import replay_task

    for place in range(len(pending) - 1, 0, -1):
        indices, ticket, _ = pending[place]
        if ticket is None:
            continue
        worker = ticket.worker
        ahead_of_it = sum(1 for earlier in range(place) if pending[earlier][1] is not None
                          and pending[earlier][1].worker is worker)
        if ahead_of_it and not worker.answers.poll():
            pending[place] = (indices, None, replay_task(*task, worker.take_back(ahead_of_it)))
            return True
    return False


class _Ticket:
    """A task sent to a worker: ``result()`` is its answer, as
    :func:`havhex._units.ordered_results` takes a future's."""
    __slots__ = ("worker",)

    def __init__(self, worker):
        self.worker = worker

    def ready(self):
        """Whether the answer has begun to come in (the worker's answers
        come in the order of its tasks, and this is its oldest untaken)."""
        return self.worker.answers.poll()

    def result(self):
        status, value = self.worker.answer()
        if status == "error":
            raise value
        return value

    def cancel(self):
        """Nothing to cancel: the pool kills its workers on the way out."""

    def release(self):
        """Nothing to let go of: the answer was taken whole."""


class _Worker:
    __slots__ = ("process", "tasks", "answers", "waiting")

    def __init__(self, process, tasks, answers):
        from collections import deque

        self.process = process
        self.tasks = tasks
        self.answers = answers
        # The units of each task sent and not answered (None: taken back).
        self.waiting = deque()

    def send(self, units):
        self.waiting.append(units)
        try:
            self.tasks.send(units)
        except OSError:
            raise self._died(self._lost()) from None

    def answer(self):
        """The answer to the oldest task still wanted; those to tasks taken
        back are read and dropped."""
        while True:
            try:
                answer = self.answers.recv()
            except (EOFError, OSError):
                raise self._died(self._lost()) from None
            if self.waiting.popleft() is not None:
                return answer

    def take_back(self, place):
        """The units of the task after the ``place`` oldest still wanted,
        whose answer will be dropped: the parent replays them itself."""
        for index, units in enumerate(self.waiting):
            if units is not None:
                if place == 0:
                    self.waiting[index] = None
                    return units
                place -= 1
        raise IndexError(place)

    def _lost(self):
        """What was lost when this worker dies, for the message: the units
        of its tasks not yet answered (and not taken back)."""
        found = [_unit_name(unit) for units in self.waiting if units is not None
                 for unit in units]
        unique = list(dict.fromkeys(found))
        shown = ", ".join(unique[:4])
        if len(unique) > 4:
            shown += f" and {len(unique) - 4} more"
        return shown

    def _died(self, lost):
        from ..errors import InputError

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
        return InputError(f"a replay worker process (pid {self.process.pid}) {how}; "
                          f"lost the output of {lost}")

    def kill(self):
        if self.process.pid is not None and self.process.exitcode is None:
            try:
                self.process.kill()
            except OSError:
                pass

    def wait(self):
        if self.process.pid is not None:
            self.process.join()
        for connection in (self.tasks, self.answers):
            connection.close()
