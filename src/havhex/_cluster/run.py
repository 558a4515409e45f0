"""A run on a Dask cluster, as the command line makes one (``--scheduler
ADDRESS``, ``--cluster local:N``): the command's work units
(:mod:`havhex.dask`'s plans and sizes) run through ``dask.distributed``,
the first inputs meanwhile here while the client connects, and each
input's output given back in order, as the command writes it without a
cluster."""
from .. import dask
from .._units import by_file, ordered_results, regular_size
from .client import connect, guarded, ship_units, stop_local_workers, worker_count
from .judge import judge_module, judge_task

__all__ = ["run_outputs"]

# The annotations are for type checkers only, in quotes: a run imports
# nothing more than before.  Dask's objects (client, futures) are Any.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from types import ModuleType
    from typing import Any, Callable, Iterator, List, Optional, Sequence, Tuple

    from .._files import JudgedMeanwhile
    from ..records.run import Summary

    # (parsed, source, exception) of a file judged here.
    _Outcome = Tuple[Any, Optional[str], Optional[BaseException]]


def _release(future: "Any") -> None:
    future.release()


def _judged_meanwhile(command: str, files: "Sequence[str]",
                      ship: bool) -> "Optional[JudgedMeanwhile]":
    """The first input files judged here while the client connects (Dask's
    import and the handshake take a core's half second that would
    otherwise wait), or None where nothing is to be judged here: with
    ``--ship`` (the inputs are for the workers) or for ``replay``
    (:class:`_ReplayedMeanwhile`).  Only files the plan would not cut are
    taken (one large file is the cluster's to share),
    and no more bytes of them than a worker's largest unit: each waits
    here, judged, until its turn to be written, and a local cluster takes
    seconds to start."""
    from .._files import JudgedMeanwhile

    if command == "replay" or ship:
        return None
    module = judge_module(command)
    early = JudgedMeanwhile(files or ["-"], module.FILE_JUDGE.start, _wanted_here())
    early.begin()
    return early


class _ReplayedMeanwhile:
    """The first record files replayed in a worker process of this machine
    while the client connects (replay is Python work: a thread here would
    slow the import it overlaps, a process takes the core that would
    otherwise wait).  Only regular files that a plan for two workers would
    not cut are taken, in order, up to twice REPLAY_UNIT_BYTES in all (about
    what a core replays while Dask is imported), at most a quarter of the
    run's bytes (the rest keeps the cluster busy) and at most
    REPLAY_MEANWHILE_FILES files; nothing with ``--ship`` (the inputs are
    for the workers)."""

    def __init__(self, files: "Sequence[str]", ship: bool, rule: str, output_format: str,
                 game: "Optional[str]", max_cells: "Optional[int]") -> None:
        from ..records.runs import record_files

        self.files = record_files(files)
        self.ship = ship
        self.pool: "Any" = None
        self.tickets: "List[Any]" = []
        if ship:
            return
        sizes = [regular_size(file) for file in self.files]
        total = sum(size or 0 for size in sizes)
        room = min(2 * dask.REPLAY_UNIT_BYTES, total // 4)
        largest = 2 * dask.replay_unit_bytes(2)(total)
        chosen: "List[str]" = []
        for file, size in zip(self.files[:REPLAY_MEANWHILE_FILES], sizes):
            if size is None or size > min(largest, room):
                break
            room -= size
            chosen.append(file)
        if not chosen:
            return
        from ..records.run import replay_pool

        self.pool = replay_pool(1, rule, output_format, game, max_cells)
        self.tickets = [self.pool.submit([("path", file)]) for file in chosen]

    def plan(self, workers: int) -> "Iterator[Tuple[Any, ...]]":
        """The plan of the run: the files replayed here first, then the
        cluster's tasks for the rest (their file indices shifted)."""
        taken = len(self.tickets)
        for number, ticket in enumerate(self.tickets):
            yield "started", number, ticket
        if taken == len(self.files):
            return
        for item in dask.plan_record_files(self.files[taken:], self.ship, workers):
            if item[0] == "task":
                yield "task", [(taken + index, unit) for index, unit in item[1]]
            else:
                yield item[0], taken + item[1], *item[2:]

    def close(self) -> None:
        """Stop the worker process (at once: its work is taken or lost)."""
        if self.pool is not None:
            self.pool.close()


# The most record files replayed here while connecting (each a task of its
# own for the worker process; they wait outside the cluster's window of
# tasks in flight).
REPLAY_MEANWHILE_FILES = 64


def _wanted_here() -> "Callable[[str], bool]":
    """Whether to judge a file here while connecting, asked of the files in
    order (:func:`_judged_meanwhile`'s bounds)."""
    room = [dask.UNIT_BYTES_MAX]

    def wanted(file: str) -> bool:
        size = regular_size(file)
        if size is None or size > min(2 * dask.UNIT_BYTES_MIN, room[0]):
            return False
        room[0] -= size
        return True

    return wanted


class _JudgedHere:
    """The future of a file judged here (:func:`_judged_meanwhile`), as
    :func:`havhex._units.ordered_results` takes a task's: its result is
    the file's one unit value."""

    def __init__(self, outcomes: "List[_Outcome]", number: int, module: "ModuleType",
                 output_format: str) -> None:
        self.outcomes = outcomes        # (parsed, source, exception) of each file
        self.number = number
        self.module = module
        self.output_format = output_format

    def result(self) -> "List[Tuple[str, Any]]":
        from .._explanation import json_record
        from ..errors import InputError

        parsed, source, error = self.outcomes[self.number]
        try:
            if error is not None:
                raise error
            if TYPE_CHECKING:
                assert source is not None       # a file judged without a fault
            explain = self.output_format == "json"
            outputs = self.module.FILE_JUDGE.outputs(parsed, source, explain)
            if explain:
                return [("ok", "".join(json_record(source, one) for one in outputs))]
            return [("ok", self.module.format_results(outputs))]
        except InputError as fault:
            return [("fault", fault)]

    def cancel(self) -> None:
        """Nothing: the files judged here are cancelled together."""

    def release(self) -> None:
        """Nothing to let go of on a cluster."""


def run_outputs(command: str, files: "Sequence[str]", output_format: str, *,
                scheduler: "Optional[str]" = None, local_workers: "Optional[int]" = None,
                ship: bool = False, rule: str = "official", game: "Optional[str]" = None,
                max_cells: "Optional[int]" = None,
                summary: "Optional[Summary]" = None) -> "Iterator[Iterator[str]]":
    """For each input, in order, an iterator over its output (one piece),
    as ``havhex COMMAND`` writes it: ``command`` (``"havannah"``, ``"hex"``
    or ``"replay"``) run on the cluster of the scheduler at ``scheduler``,
    or on a local cluster of ``local_workers`` workers.  ``ship`` sends
    the inputs' bytes with the tasks; ``rule``, ``game`` and ``max_cells``
    are replay's, as for :func:`havhex.records.replay`; ``summary`` (a
    :class:`havhex.records.run.Summary`, for replay) counts what was
    replayed."""
    if command == "replay" and max_cells is None:
        from ..records.game import MAX_CELLS as max_cells
    early = _judged_meanwhile(command, files, ship)
    replayed = None
    if command == "replay":
        replayed = _ReplayedMeanwhile(files, ship, rule, output_format, game, max_cells)
    try:
        client, cluster = connect(scheduler, local_workers)
    except BaseException:
        if early is not None:
            early.cancel()
        if replayed is not None:
            replayed.close()
        raise
    results = None

    def submitter(task: "Callable[..., Any]",
                  *task_arguments: "Any") -> "Callable[[List[Tuple[Any, ...]]], Any]":
        return lambda units: client.submit(task, *task_arguments, ship_units(client, units),
                                           pure=False)

    finished = False
    try:
        workers = worker_count(client)
        window = dask.TASKS_PER_WORKER * workers
        if command == "replay":
            from ..records.run import file_outputs
            from .judge import replay_task

            if TYPE_CHECKING:
                # Made above for replay, which the command line gives a summary.
                assert replayed is not None and summary is not None
            plan = replayed.plan(workers)
            results = ordered_results(plan, submitter(replay_task, rule, output_format, game,
                                                      max_cells), window, _release)
            yield from file_outputs(guarded(results), summary)
            finished = True
            return
        files = files or ["-"]
        taken = early.stop() if early is not None else 0
        plan = _after_judged_here(early, taken, files, command, output_format, ship, workers)
        results = ordered_results(plan, submitter(judge_task, command, output_format),
                                  window, _release)
        for values in guarded(by_file(results)):
            yield iter(("".join(values),))
        finished = True
    finally:
        if cluster is not None and not finished:
            # Ctrl-C, SIGTERM or a fault: the busy workers are abandoned
            # first, so that the stop takes a fraction of a second.
            stop_local_workers(cluster)
        if early is not None:
            early.cancel()          # at once, unless every file judged here was taken
        if replayed is not None:
            replayed.close()
        if results is not None:
            results.close()         # cancels the tasks in flight while the client is open
        client.close()
        if cluster is not None:
            cluster.close()


def _after_judged_here(early: "Optional[JudgedMeanwhile]", taken: int, files: "Sequence[str]",
                       command: str, output_format: str, ship: bool,
                       workers: int) -> "Iterator[Tuple[Any, ...]]":
    """The plan of a judge run: the ``taken`` files judged here first, then
    the cluster's tasks for the rest (their file indices shifted)."""
    if taken:
        module = judge_module(command)
        outcomes: "List[_Outcome]" = []

        class Waited(_JudgedHere):
            def result(self) -> "List[Tuple[str, Any]]":
                if TYPE_CHECKING:
                    assert early is not None    # files were taken here
                if not outcomes:    # the first taken: wait for all of them
                    outcomes.extend(_outcomes_of(early))
                return super().result()

        for number in range(taken):
            yield "started", number, Waited(outcomes, number, module, output_format)
    for item in dask.plan_judge(files[taken:], command, ship, workers):
        if item[0] == "task":
            yield "task", [(taken + index, unit) for index, unit in item[1]]
        else:
            yield item[0], taken + item[1], *item[2:]


def _outcomes_of(early: "JudgedMeanwhile") -> "List[_Outcome]":
    """``(parsed, source, exception)`` of each file judged here, once the
    last is done (the wait is interruptible; an interrupt cancels them)."""
    found: "List[_Outcome]" = []
    outcomes = early.outcomes()
    while True:
        try:
            parsed, source = next(outcomes)
        except StopIteration:
            return found
        except Exception as error:
            found.append((None, None, error))
            return found
        found.append((parsed, source, None))
