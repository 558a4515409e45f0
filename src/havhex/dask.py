"""Judge and replay many files on a Dask cluster (``pip install "havhex[dask]"``).

>>> import havhex.dask                                   # doctest: +SKIP
>>> records = havhex.dask.judge_files(["a.in", "b.in"], "havannah")
>>> records.filter(lambda r: r["move"] is not None).count().compute()

:func:`judge_files` and :func:`replay_files` return a lazy ``dask.bag.Bag``
of the JSON records that ``--format json`` prints (dicts, ``file`` first),
in input order.  The command line's ``--scheduler ADDRESS`` and ``--cluster
local:N`` run the same work units through ``dask.distributed`` and print
what the command prints without them.

Work units (each unit is judged where a worker runs it):

* a file; small files travel together (see UNIT_BYTES_MIN, BATCH_FILES),
  so that a task's work is far above the scheduler's overhead of a few
  milliseconds a task;
* a run of whole cases of a large file: ``havhex._boundaries`` finds where
  cases start without judging, and each run is judged as an input of its
  own (``T`` = its cases) whose case numbers and lines are shifted back to
  the file's.  When the walk meets anything unusual, the cases from its
  last cut on are one run, so that the judge itself names the fault;
* for ``replay``, the units of ``havhex.cli.replay``: batches of small
  record files, and runs of whole games of a large one.

Workers read the files by path (a filesystem they share with the client);
with ``ship=True`` (``--ship``) the client reads them and the bytes travel
with the tasks.  A fault in an input is the same :class:`havhex.InputError`
as a local run raises, with the file's own name and line.
"""
import json
import os

from .errors import InputError

__all__ = ["judge_files", "replay_files", "CONNECT_TIMEOUT", "BATCH_FILES",
           "REPLAY_BATCH_FILES", "REPLAY_UNIT_BYTES", "UNIT_BYTES_MIN", "UNIT_BYTES_MAX"]

# Seconds a client waits for the scheduler before giving up.
CONNECT_TIMEOUT = 5
# A task holds about a quarter of each worker's share of the work, so that
# the workers finish together, within bounds: at least UNIT_BYTES_MIN of
# input (about a quarter of a second of judging, some fifty times the
# scheduler's overhead for a task), at most UNIT_BYTES_MAX (what a worker
# holds for one unit).  A large file is cut into runs of cases of that size;
# small files go together up to that size, or up to BATCH_FILES files (a
# small file costs a quarter of a millisecond to judge) or
# REPLAY_BATCH_FILES record files (about a tenth of a millisecond each).
UNIT_BYTES_MIN = 32 << 20
UNIT_BYTES_MAX = 256 << 20
BATCH_FILES = 1024
REPLAY_BATCH_FILES = 2048
# replay's runs of whole games, and its batches' bytes: 8 MB of records is
# a quarter of a second of replaying or more (havhex replay -j cuts finer:
# handing a task to a local process costs less than through a scheduler).
REPLAY_UNIT_BYTES = 8 << 20
# Tasks in flight per worker for the command line: enough to keep every
# worker busy while results are taken in order, few enough that shipped
# bytes do not pile up on the workers.
TASKS_PER_WORKER = 4

_MISSING = ("havhex.dask needs Dask: install the extra with "
            "pip install \"havhex[dask]\" (dask[bag] and distributed)")


def _require(*modules):
    import importlib

    try:
        return [importlib.import_module(module) for module in modules]
    except ImportError as error:
        raise ImportError(f"{_MISSING} ({error})") from None


def _judge_module(game):
    if game == "havannah":
        from . import havannah

        return havannah
    if game == "hex":
        from . import hex

        return hex
    raise ValueError(f"game must be 'havannah' or 'hex', not {game!r}")


# ---------------------------------------------------------------------------
# Reading on the client
# ---------------------------------------------------------------------------

def _read_whole(file):
    """``(bytes, name)`` of an input read as the judges read it: the same
    name, and the same fault for a file that cannot be opened."""
    from ._source import read_input

    def consume(descriptor):
        pieces = []
        while True:
            piece = os.read(descriptor, 1 << 24)
            if not piece:
                return b"".join(pieces)
            pieces.append(piece)

    return read_input(file, consume)


def _mapped(file):
    """The bytes of a regular file, mapped (read-only) where the system can."""
    import mmap

    with open(file, "rb") as stream:
        try:
            return mmap.mmap(stream.fileno(), 0, access=mmap.ACCESS_READ)
        except (OSError, ValueError):
            return stream.read()


# ---------------------------------------------------------------------------
# The judges' units, run on a worker
# ---------------------------------------------------------------------------
#
# A unit is a tuple: ("path", path) an input the worker reads; ("bytes",
# data, name) an input shipped whole; ("range", path, data, name, start,
# stop, cases before, cases, first line) a run of whole cases, read from
# the path when data is None.

def _json_line(source, explanation, case_offset=0):
    from .cli import _json_record

    return _json_record(source, explanation, case_offset)


def _range_input(unit):
    """``(input, head)`` of a run: its cases behind a ``T`` line of their
    own, read from the file into one buffer when they were not shipped;
    ``head`` is the length of that line."""
    _, path, data, _, start, stop, _, cases, _ = unit
    head = b"%d\n" % cases
    if data is not None:
        return head + data, len(head)
    buffer = bytearray(len(head) + stop - start)
    buffer[:len(head)] = head
    with open(path, "rb") as stream:
        stream.seek(start)
        view = memoryview(buffer)[len(head):]
        while view:
            got = stream.readinto(view)
            if not got:
                break           # the file shrank: the judge reports what is missing
            view = view[got:]
    return buffer, len(head)


def _range_fault(module, game, data, name, before, cases, first_line):
    """The fault of a run as the whole file reports it.  The run is judged
    again behind ``before`` empty cases, so that the judge's own words
    name the file's case numbers; its line is then moved to the file's."""
    empty, lines_each = (b"2 0\n", 1) if game == "havannah" else (b"1\n.\n", 2)
    text = b"%d\n" % (before + cases) + empty * before + data
    try:
        module.judge_text(text, source=name)
    except InputError as error:
        line = error.line
        if line is not None:
            line += first_line - (2 + before * lines_each)
        return InputError(error.reason, error.source, line)
    return None


def _run_range(module, game, output_format, unit):
    _, _, _, name, _, _, before, cases, first_line = unit
    text, head = _range_input(unit)
    try:
        if output_format == "json":
            explanations = module.explain_text(text, source=name)
            return "".join(_json_line(name, explanation, before)
                           for explanation in explanations)
        results = module.judge_text(text, source=name)
    except InputError as error:
        data = memoryview(text)[head:]
        raise _range_fault(module, game, data, name, before, cases, first_line) or error
    return "".join(f"Case #{before + number}: {result}\n"
                   for number, result in enumerate(results, 1))


def _run_judge_unit(module, game, output_format, unit):
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
        return "".join(_json_line(source, explanation) for explanation in explanations)
    if kind == "path":
        return module.format_results(module.judge_file(file))
    return module.format_results(module.judge_text(data, source=source))


def judge_task(game, output_format, units):
    """A worker's task: each unit's ``("ok", text)`` or ``("fault",
    InputError)``, in order (a fault is a value, so that the units before
    it keep their output and the client reports it in its turn)."""
    module = _judge_module(game)
    done = []
    for unit in units:
        try:
            done.append(("ok", _run_judge_unit(module, game, output_format, unit)))
        except InputError as error:
            done.append(("fault", error))
    return done


# ---------------------------------------------------------------------------
# replay's units, run on a worker
# ---------------------------------------------------------------------------
#
# ("path", path) a record file the worker loads; ("bytes", data, name) one
# shipped; ("range", path, data, name, start, stop, first game, first line)
# a run of whole games.

def _run_replay_unit(rule, output_format, unit):
    from .cli.replay import replay_unit

    kind = unit[0]
    if kind == "range":
        from .records.runs import read_range

        _, path, data, name, start, stop, first_index, first_line = unit
        if data is None:
            data = read_range(path, start, stop)
        return replay_unit(bytes(data), name, rule, output_format, first_index, first_line)
    if kind == "path":
        from .records.game import load

        data, name = load(unit[1])
    else:
        _, data, name = unit
    return replay_unit(data, name, rule, output_format)


def replay_task(rule, output_format, units):
    """A worker's task for replay: each unit's ``("ok", (text, counts))`` or
    ``("fault", InputError)``."""
    done = []
    for unit in units:
        try:
            done.append(("ok", _run_replay_unit(rule, output_format, unit)))
        except InputError as error:
            done.append(("fault", error))
    return done


# ---------------------------------------------------------------------------
# Planning, on the client
# ---------------------------------------------------------------------------

def unit_bytes_for(total_bytes, workers):
    """The size of a large file's runs: a quarter of each worker's share of
    the work, within UNIT_BYTES_MIN and UNIT_BYTES_MAX."""
    share = total_bytes // (4 * max(1, workers))
    return max(UNIT_BYTES_MIN, min(UNIT_BYTES_MAX, share))


def _regular_size(file):
    """The size of a regular file, or None (standard input, a pipe, a
    device, a file that cannot be looked at: read as the judge reads it)."""
    import stat

    if file == "-":
        return None
    try:
        status = os.stat(file)
    except (OSError, ValueError):
        return None
    return status.st_size if stat.S_ISREG(status.st_mode) else None


def batch_files_for(files, workers, most):
    """Files a batch holds at most: a quarter of each worker's share of the
    files, within 1 and ``most``."""
    return max(1, min(most, files // (4 * max(1, workers))))


class _Batch:
    """Small files gathered into one task, up to ``files`` files or
    ``size`` bytes."""

    def __init__(self, files, size):
        self.units = []
        self.size = 0
        self.limits = (files, size)

    def add(self, index, unit, size):
        self.units.append((index, unit))
        self.size += size

    def full(self):
        return len(self.units) >= self.limits[0] or self.size >= self.limits[1]

    def again(self):
        return _Batch(*self.limits)


def plan_judge(files, game, ship, workers):
    """The judges' tasks, in input order: ``("task", [(file index, unit),
    ...])`` or ``("fault", file index, error)`` for an input the client
    could not read (``ship``).  Files are read, and large ones scanned,
    as the plan is consumed."""
    sizes = [_regular_size(file) for file in files]
    unit = unit_bytes_for(sum(size or 0 for size in sizes), workers)
    batch = _Batch(batch_files_for(len(files), workers, BATCH_FILES), unit)
    for index, (file, size) in enumerate(zip(files, sizes)):
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
                    if batch.units:
                        yield "task", batch.units
                        batch = batch.again()
                    yield "fault", index, error
                    continue
            if data is not None:
                size = len(data)
        if size is not None and size > 2 * unit:
            runs = _runs(file, data, name, game, unit)
            first = next(runs, None)
            if first is not None:
                if batch.units:
                    yield "task", batch.units
                    batch = batch.again()
                yield "task", [(index, first)]
                for run in runs:
                    yield "task", [(index, run)]
                continue
        whole = ("path", file) if data is None else ("bytes", data, name)
        batch.add(index, whole, size or 0)
        if batch.full():
            yield "task", batch.units
            batch = batch.again()
    if batch.units:
        yield "task", batch.units


def _runs(file, data, name, game, unit):
    """The range units of a large input, each yielded as soon as the walk
    has found its end (so that workers judge while the rest is walked);
    nothing when the input is to be judged whole.  When the walk meets
    anything unusual after a cut, the cases from that cut to the end are
    one last run, whose judging reports the fault as the whole file's
    would (the same case numbers and lines)."""
    from ._boundaries import HAVANNAH, HEX, CaseWalk

    buffer = _mapped(file) if data is None else data
    walk = None
    try:
        walk = CaseWalk(buffer, HAVANNAH if game == "havannah" else HEX)
        start = walk.next_cut(unit)
        if start is None:
            return

        def run(begin, stop, cases):
            offset, before, line = begin
            piece = None if data is None else data[offset:stop]
            return ("range", file, piece, name, offset, stop, before, cases, line)

        while True:
            cut = walk.next_cut(unit)
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


def plan_replay(files, ship, workers):
    """replay's tasks, as :func:`plan_judge` gives them; ``files`` as the
    command line names them (folders stand for their record files).  The
    units are ``havhex replay -j``'s, its batches larger: a task through a
    scheduler costs more than one through a local pool."""
    from .records.game import load
    from .records.runs import file_runs, record_files, runs_of

    files = record_files(files)
    batch = _Batch(batch_files_for(len(files), workers, REPLAY_BATCH_FILES), REPLAY_UNIT_BYTES)

    def flush():
        nonlocal batch
        units, batch = batch.units, batch.again()
        return units

    for index, file in enumerate(files):
        size = _regular_size(file)
        data = None
        name = "<stdin>" if file == "-" else os.fsdecode(file)
        if size is None or ship:
            try:
                data, name = load(file)
            except InputError as error:
                if batch.units:
                    yield "task", flush()
                yield "fault", index, error
                continue
            size = len(data)
        if size > REPLAY_UNIT_BYTES:
            if batch.units:
                yield "task", flush()
            pieces = size // REPLAY_UNIT_BYTES
            # A file the workers read: cut through a memory map, not read here.
            units = file_runs(file, pieces) if data is None else runs_of(data, pieces)
            for start, stop, first_index, line in units:
                piece = None if data is None else data[start:stop]
                source = file if data is None else None
                yield "task", [(index, ("range", source, piece, name, start, stop,
                                        first_index, line))]
            continue
        whole = ("path", file) if data is None else ("bytes", data, name)
        batch.add(index, whole, size)
        if batch.full():
            yield "task", flush()
    if batch.units:
        yield "task", flush()


# ---------------------------------------------------------------------------
# The command line's runs
# ---------------------------------------------------------------------------

def _quiet_logging():
    """Dask's log lines (a worker restarted, a connection retried) would
    be lines on stderr that the same command does not print without Dask."""
    import logging

    os.environ.setdefault("DASK_LOGGING__DISTRIBUTED", "critical")
    _require("distributed")         # sets up its loggers, some with levels of their own
    top = logging.getLogger("distributed")
    for handler in top.handlers:
        handler.setLevel(logging.CRITICAL)
    for name in list(logging.root.manager.loggerDict):
        if name == "distributed" or name.startswith("distributed."):
            logging.getLogger(name).setLevel(logging.CRITICAL)


def connect(scheduler=None, local_workers=None):
    """``(client, cluster)``: a client of the scheduler at ``scheduler``, or
    of a local cluster of ``local_workers`` single-threaded worker
    processes (``cluster`` is None for a scheduler).  A scheduler that
    does not answer within CONNECT_TIMEOUT seconds is an InputError."""
    _quiet_logging()
    (distributed,) = _require("distributed")
    if scheduler is not None:
        try:
            client = distributed.Client(scheduler, timeout=f"{CONNECT_TIMEOUT}s",
                                        set_as_default=False)
        except Exception as error:      # OSError, TimeoutError, ValueError for an address
            why = str(error).splitlines()[0] if str(error) else type(error).__name__
            raise InputError(f"cannot reach the Dask scheduler at {scheduler}: {why}") from None
        return client, None
    import logging

    cluster = distributed.LocalCluster(n_workers=local_workers, threads_per_worker=1,
                                       # a free port: the scheduler serves HTTP
                                       # even without a dashboard, and warns on
                                       # stderr when 8787 is taken
                                       processes=True, dashboard_address=":0",
                                       silence_logs=logging.CRITICAL)
    try:
        client = distributed.Client(cluster, set_as_default=False)
    except BaseException:
        cluster.close()
        raise
    return client, cluster


def _worker_count(client):
    try:
        return max(1, len(client.scheduler_info()["workers"]))
    except Exception:
        return 1


def _ship_units(client, units):
    """Shipped bytes go to the workers by ``scatter``, not inside the task
    graph (where Dask warns about large objects and the scheduler holds
    them)."""
    if not any(unit[0] == "bytes" or (unit[0] == "range" and unit[2] is not None)
               for _, unit in units):
        return [unit for _, unit in units]
    [future] = client.scatter([[unit for _, unit in units]], hash=False)
    return future


def _ordered_results(client, plan, task, arguments, window):
    """``(file index, ("ok", value) | ("fault", error))`` for every unit, in
    plan order, with at most ``window`` tasks in flight."""
    from collections import deque

    pending = deque()

    def take():
        kind, *rest = pending.popleft()
        if kind == "fault":
            index, error = rest
            return [(index, ("fault", error))]
        future, indices = rest
        results = future.result()
        future.release()
        return list(zip(indices, results))

    try:
        for item in plan:
            if item[0] == "fault":
                pending.append(item)
            else:
                units = item[1]
                future = client.submit(task, *arguments, _ship_units(client, units),
                                       pure=False)
                pending.append(("task", future, [index for index, _ in units]))
            while len(pending) > window:
                yield from take()
        while pending:
            yield from take()
    except BaseException:
        for item in pending:
            if item[0] == "task":
                item[1].cancel()
        raise


def _by_file(results):
    """Each file's list of unit values, in order; a fault is raised in its
    turn (after the output of the files before it)."""
    current, values = None, []
    for index, (status, value) in results:
        if index != current:
            if current is not None:
                yield values
            current, values = index, []
        if status == "fault":
            raise value
        values.append(value)
    if current is not None:
        yield values


def _lost(error):
    """A task Dask gave up on (its workers died too often)."""
    return InputError(f"the Dask cluster could not finish the run: {type(error).__name__}: "
                      f"{str(error).splitlines()[0] if str(error) else ''}".rstrip(": "))


def cli_outputs(arguments, summary=None):
    """For each input, in order, an iterator over its output (one piece),
    as ``havhex.cli`` writes it: the command of ``arguments`` run on the
    cluster that ``--scheduler`` or ``--cluster`` names."""
    local = None
    if arguments.cluster is not None:
        local = int(arguments.cluster.partition(":")[2])
    client, cluster = connect(arguments.scheduler, local)
    results = None
    try:
        workers = _worker_count(client)
        window = TASKS_PER_WORKER * workers
        if arguments.command == "replay":
            plan = plan_replay(arguments.files, arguments.ship, workers)
            results = _ordered_results(client, plan, replay_task,
                                       (arguments.rule, arguments.format), window)
            for values in _guarded(_by_file(results)):
                for _, counts in values:
                    summary.add(counts)
                summary.files += 1
                yield iter(("".join(text for text, _ in values),))
            return
        plan = plan_judge(arguments.files or ["-"], arguments.command, arguments.ship, workers)
        results = _ordered_results(client, plan, judge_task,
                                   (arguments.command, arguments.format), window)
        for values in _guarded(_by_file(results)):
            yield iter(("".join(values),))
    finally:
        if results is not None:
            results.close()         # cancels the tasks in flight while the client is open
        client.close()
        if cluster is not None:
            cluster.close()


def _guarded(files):
    """Dask's own failures (a task whose workers kept dying, a scheduler
    gone) as one line."""
    (distributed,) = _require("distributed")
    try:
        yield from files
    except (InputError, OSError, MemoryError, KeyboardInterrupt):
        raise
    except (distributed.client.FutureCancelledError, distributed.scheduler.KilledWorker,
            TimeoutError) as error:
        raise _lost(error) from None


# ---------------------------------------------------------------------------
# The bag API
# ---------------------------------------------------------------------------

def _records(values):
    records = []
    for status, value in values:
        if status == "fault":
            raise value
        text = value if isinstance(value, str) else value[0]
        records.extend(json.loads(line) for line in text.splitlines())
    return records


def judge_records(game, units):
    """The JSON records of a task's units (a bag's partition)."""
    return _records(judge_task(game, "json", units))


def replay_records(rule, units):
    """replay's JSON records of a task's units (a bag's partition)."""
    return _records(replay_task(rule, "json", units))


def _default_client():
    try:
        from distributed import default_client

        return default_client()
    except (ImportError, ValueError):
        return None


def _workers_here():
    """The default client's workers, or this machine's cores without one."""
    client = _default_client()
    return _worker_count(client) if client is not None else (os.cpu_count() or 1)


def _bag(plan, records, argument):
    dask, bag = _require("dask", "dask.bag")
    client = _default_client()
    parts = []
    for item in plan:
        if item[0] == "fault":
            raise item[2]
        units = [unit for _, unit in item[1]]
        shipped = any(unit[0] == "bytes" or (unit[0] == "range" and unit[2] is not None)
                      for unit in units)
        if shipped and client is not None:
            [units] = client.scatter([units], hash=False)
        parts.append(dask.delayed(records, pure=False)(argument, units))
    if not parts:
        return bag.from_sequence([], npartitions=1)
    return bag.from_delayed(parts)


def judge_files(paths, game, *, ship=False):
    """A lazy ``dask.bag.Bag`` of the records ``havhex GAME --format json
    PATHS`` prints, as dicts, in input order.

    ``game`` is ``"havannah"`` or ``"hex"``.  Workers read the files by
    path; ``ship=True`` reads them here (now) and sends the bytes with the
    tasks (through the default client when there is one).  Large files are
    scanned now for their case boundaries; judging waits for
    ``compute()``, which raises the first fault in input order as the
    :class:`havhex.InputError` a local run raises.
    """
    _judge_module(game)
    paths = [os.fspath(path) for path in paths]
    return _bag(plan_judge(paths, game, ship, _workers_here()), judge_records, game)


def replay_files(paths, *, rule="official", ship=False):
    """A lazy ``dask.bag.Bag`` of the records ``havhex replay --format json
    PATHS`` prints (folders stand for their record files), as dicts.
    ``rule`` and ``ship`` as for the command line and :func:`judge_files`."""
    if rule not in ("official", "contest"):
        raise ValueError(f"rule must be 'official' or 'contest', not {rule!r}")
    paths = [os.fspath(path) for path in paths]
    return _bag(plan_replay(paths, ship, _workers_here()), replay_records, rule)
