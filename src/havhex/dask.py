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

* a file; small files travel together (see UNIT_BYTES_MIN, BUNDLE_FILES),
  so that a task's work is far above the scheduler's overhead of a few
  milliseconds a task;
* a run of whole cases of a large file, judged as an input of its own
  whose case numbers and lines are the file's (:mod:`havhex._cluster.judge`);
* for ``replay``, the units of ``havhex replay -j`` (one planner,
  :func:`havhex.records.units.plan_replay`): bundles of small record files,
  and runs of whole games of a large one.

The client's side of a run is :mod:`havhex._cluster.client`'s, the command
line's run :mod:`havhex._cluster.run`'s; this module holds the sizes, the
plans with them, and the bag API.

Workers read the files by path (a filesystem they share with the client);
with ``ship=True`` (``--ship``) the client reads them and the bytes travel
with the tasks.  A fault in an input is the same :class:`havhex.InputError`
as a local run raises, with the file's own name and line.
"""
import json
import os

from ._cluster.client import CONNECT_TIMEOUT, default_client, require, shipped, worker_count
from ._cluster import judge as _judge_units
# bundle_files_for and judge_task are re-exported (for type checkers too).
from ._cluster.judge import judge_module, judge_task as judge_task
from ._units import bundle_files_for as bundle_files_for, regular_size, shrinking_units

__all__ = ["judge_files", "replay_files", "CONNECT_TIMEOUT", "BUNDLE_FILES",
           "REPLAY_BUNDLE_FILES", "REPLAY_UNIT_BYTES", "REPLAY_UNIT_BYTES_MIN",
           "UNIT_BYTES_MIN", "UNIT_BYTES_MAX"]

# The annotations are for type checkers only, in quotes: importing this
# module imports nothing more than before.  A bag is Any: Dask is an
# optional extra, which a type checker may not find.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from os import PathLike
    from typing import (Any, Callable, Dict, Iterable, Iterator, List, Literal, Optional,
                        Sequence, Tuple, Union)

    _Unit = Tuple[Any, ...]
    _Plan = Iterator[Tuple[Any, ...]]
    _Values = List[Tuple[str, Any]]

    # Deprecated: BUNDLE_FILES and REPLAY_BUNDLE_FILES, which __getattr__ gives.
    BATCH_FILES: int
    REPLAY_BATCH_FILES: int

# A task holds about a quarter of each worker's share of the work still to
# plan, so that tasks shrink toward the end and the workers finish
# together, within bounds: at least UNIT_BYTES_MIN of input (a tenth to a
# quarter of a second of judging, tens of times the scheduler's overhead
# for a task), at most UNIT_BYTES_MAX (what a worker holds for one unit).
# A large file is cut into runs of cases of that size;
# small files go together up to that size, or up to BUNDLE_FILES files (a
# small file costs a quarter of a millisecond to judge) or
# REPLAY_BUNDLE_FILES record files (about a tenth of a millisecond each).
UNIT_BYTES_MIN = 32 << 20
UNIT_BYTES_MAX = 256 << 20
BUNDLE_FILES = 1024
REPLAY_BUNDLE_FILES = 2048
# replay's runs of whole games, and its bundles' bytes, sized as the
# judges' are between REPLAY_UNIT_BYTES_MIN and REPLAY_UNIT_BYTES: 8 MB of
# records is a quarter of a second of replaying or more, 2 MB the last
# tasks' (havhex replay -j cuts finer: handing a task to a local process
# costs less than through a scheduler).
REPLAY_UNIT_BYTES = 8 << 20
REPLAY_UNIT_BYTES_MIN = 2 << 20
# Tasks in flight per worker for the command line: enough to keep every
# worker busy while results are taken in order, few enough that shipped
# bytes do not pile up on the workers.
TASKS_PER_WORKER = 4


# ---------------------------------------------------------------------------
# Planning, on the client, with the sizes above
# ---------------------------------------------------------------------------

def plan_judge(files: "Sequence[str]", game: str, ship: bool, workers: int) -> "_Plan":
    """The judges' tasks for ``workers`` workers, in input order:
    ``("task", [(file index, unit), ...])`` or ``("fault", file index,
    error)`` for an input the client could not read (``ship``)."""
    sizes = [regular_size(file) for file in files]
    unit = shrinking_units(UNIT_BYTES_MIN, UNIT_BYTES_MAX, workers)
    return _judge_units.plan_judge(files, sizes, game, ship, unit,
                                   bundle_files_for(len(files), workers, BUNDLE_FILES))


def replay_unit_bytes(workers: int) -> "Callable[[int], int]":
    """replay's unit on a cluster of ``workers`` workers, as a function of
    the bytes still to plan (:func:`havhex._units.shrinking_units`)."""
    return shrinking_units(REPLAY_UNIT_BYTES_MIN, REPLAY_UNIT_BYTES, workers)


def plan_replay(files: "Sequence[str]", ship: bool, workers: int) -> "_Plan":
    """replay's tasks, as :func:`plan_judge` gives them; ``files`` as the
    command line names them (folders stand for their record files).  The
    units are ``havhex replay -j``'s, its bundles larger: a task through a
    scheduler costs more than one through a local pool."""
    from .records.runs import record_files

    return plan_record_files(record_files(files), ship, workers)


def plan_record_files(files: "Sequence[str]", ship: bool, workers: int) -> "_Plan":
    """:func:`plan_replay`'s tasks for record files already found (no
    folder among them)."""
    from .records.units import plan_replay as plan

    return plan(files, ship, replay_unit_bytes(workers),
                bundle_files_for(len(files), workers, REPLAY_BUNDLE_FILES))


# ---------------------------------------------------------------------------
# The bag API
# ---------------------------------------------------------------------------

def _records(values: "_Values",
             earlier: "Optional[BaseException]" = None) -> "List[Dict[str, Any]]":
    """The JSON records of a task's values; ``earlier`` is
    :func:`_first_fault`'s answer for the tasks up to this one (a fault in
    it raises here, so that every partition from the first fault on raises
    that fault)."""
    if earlier is not None:
        raise earlier
    records: "List[Dict[str, Any]]" = []
    for status, value in values:
        text = value if isinstance(value, str) else value[0]
        records.extend(json.loads(line) for line in text.splitlines())
    return records


def _fault(values: "_Values") -> "Optional[BaseException]":
    """The first fault among a task's values, or None (a small result,
    computed where the values are)."""
    for status, value in values:
        if status == "fault":
            fault: "BaseException" = value
            return fault
    return None


def _first_fault(earlier: "Optional[BaseException]",
                 fault: "Optional[BaseException]") -> "Optional[BaseException]":
    """The first fault in input order up to a task: the chain of these
    small tasks makes the bag raise the fault of the earliest input, as the
    command line reports it, whichever task fails first in time."""
    if earlier is not None:
        return earlier
    return fault


def _judge_values(game: str, units: "Sequence[_Unit]") -> "_Values":
    return judge_task(game, "json", units)


def _replay_values(rule: str, units: "Sequence[_Unit]") -> "_Values":
    from ._cluster.judge import replay_task
    from .records.game import MAX_CELLS

    return replay_task(rule, "json", None, MAX_CELLS, units)


def judge_records(game: str, units: "Sequence[_Unit]") -> "List[Dict[str, Any]]":
    """The JSON records of a task's units (a bag's partition)."""
    values = _judge_values(game, units)
    return _records(values, _fault(values))


def replay_records(rule: str, units: "Sequence[_Unit]") -> "List[Dict[str, Any]]":
    """replay's JSON records of a task's units (a bag's partition)."""
    values = _replay_values(rule, units)
    return _records(values, _fault(values))


def _workers_here() -> int:
    """The default client's workers, or this machine's cores without one."""
    client = default_client()
    return worker_count(client) if client is not None else (os.cpu_count() or 1)


def _bag(plan: "_Plan", values: "Callable[[str, Sequence[_Unit]], _Values]",
         argument: str) -> "Any":
    dask, bag = require("dask", "dask.bag")
    client = default_client()
    delayed = dask.delayed
    parts: "List[Any]" = []
    earlier = None
    for item in plan:
        if item[0] == "fault":
            # An input the client could not read: a fault in its turn.
            fault = delayed(item[2])
            done = delayed([("fault", item[2])])
        else:
            units = [unit for _, unit in item[1]]
            if shipped(units) and client is not None:
                [units] = client.scatter([units], hash=False)
            done = delayed(values, pure=False)(argument, units)
            fault = delayed(_fault, pure=True)(done)
        earlier = delayed(_first_fault, pure=True)(earlier, fault)
        parts.append(delayed(_records, pure=True)(done, earlier))
    if not parts:
        return bag.from_sequence([], npartitions=1)
    return bag.from_delayed(parts)


def _paths(paths: "Iterable[Union[str, PathLike[str]]]", name: str) -> "List[str]":
    """The list of ``paths``: one path (a str, bytes or path-like) where a
    list is expected would be read as its characters."""
    if isinstance(paths, (str, bytes)) or hasattr(paths, "__fspath__"):
        raise TypeError(f"{name}() takes a list of paths, not one path: {paths!r} "
                        f"(write [{paths!r}])")
    return [os.fspath(path) for path in paths]


def judge_files(paths: "Iterable[Union[str, PathLike[str]]]",
                game: "Literal['havannah', 'hex']", *, ship: bool = False) -> "Any":
    """A lazy ``dask.bag.Bag`` of the records ``havhex GAME --format json
    PATHS`` prints, as dicts, in input order.

    ``game`` is ``"havannah"`` or ``"hex"``.  Workers read the files by
    path; ``ship=True`` reads them here (now) and sends the bytes with the
    tasks (through the default client when there is one).  Large files are
    scanned now for their case boundaries; judging waits for
    ``compute()``, which raises the first fault in input order as the
    :class:`havhex.InputError` a local run raises.
    """
    judge_module(game)
    paths = _paths(paths, "judge_files")
    return _bag(plan_judge(paths, game, ship, _workers_here()), _judge_values, game)


def replay_files(paths: "Iterable[Union[str, PathLike[str]]]", *,
                 rule: "Literal['official', 'contest']" = "official",
                 ship: bool = False) -> "Any":
    """A lazy ``dask.bag.Bag`` of the records ``havhex replay --format json
    PATHS`` prints (folders stand for their record files), as dicts.
    ``rule`` and ``ship`` as for the command line and :func:`judge_files`."""
    if rule not in ("official", "contest"):
        raise ValueError(f"rule must be 'official' or 'contest', not {rule!r}")
    paths = _paths(paths, "replay_files")
    return _bag(plan_replay(paths, ship, _workers_here()), _replay_values, rule)


# The names of before "bundle" was the one word for small files travelling
# together ("batch" is the batched environments'), for one release.
_RENAMED = {"BATCH_FILES": "BUNDLE_FILES", "REPLAY_BATCH_FILES": "REPLAY_BUNDLE_FILES"}


def __getattr__(name: str) -> int:
    new = _RENAMED.get(name)
    if new is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    import warnings

    warnings.warn(f"havhex.dask.{name} is deprecated: use havhex.dask.{new}",
                  DeprecationWarning, stacklevel=2)
    value: int = globals()[new]
    return value
