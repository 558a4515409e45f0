"""A replay run: record files cut into units, the units replayed here or
beside worker processes, each file's output in input order, and the counts
of what was replayed (what ``havhex replay`` prints and sums up).

Work is cut into units: a file, or a run of whole games of a large file
(cut where a game's tree closes).  With ``jobs`` N the units go to N worker
processes (the per-game work is Python as much as compiled code, so threads
would queue on the interpreter); the output is the same, in input order.
With one job the same units are replayed here, one at a time.  A file's
output goes on as its units are replayed (it is never held whole here: the
writer keeps it whole or drops it, spilling to disk as it grows), and a
file's output appears whole or not at all.

The units, their plan and what a unit prints are :mod:`.units`'s, shared
with the cluster (:mod:`havhex._cluster.run`); this module chooses the
sizes, runs the local worker processes (:mod:`havhex._pool`) and keeps the
summary.
"""
from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Callable, Dict, Iterable, Iterator, List, Optional, Sequence, Tuple

    from .._pool import Pool

    # A unit's (games, moves, wins, {flag: games}).
    _Counts = Tuple[int, int, int, Dict[str, int]]
    # A task of units, each unit's ("ok", (text, counts)) or ("fault", error).
    _Task = Callable[[Sequence[Tuple[Any, ...]]], List[Tuple[str, Any]]]

__all__ = ["replay_outputs", "replay_pool", "file_outputs", "Summary"]

# A file larger than this is cut into runs of whole games of about this
# size: a run of 1 MB is about 1,500 Hex 11x11 games, many times what it
# costs to hand a task to a worker process and take its output back, small
# runs keep both workers busy to the end (docs/performance.md has the
# figures), and a run's output is all that is held at a time.
UNIT_BYTES = 1 << 20


class Summary:
    """Counts for the summary line."""

    files: int
    games: int
    moves: int
    wins: int
    flags: Dict[str, int]

    def __init__(self) -> None:
        self.files = self.games = self.moves = self.wins = 0
        self.flags = {}

    def add(self, counts: _Counts) -> None:
        games, moves, wins, flags = counts
        self.games += games
        self.moves += moves
        self.wins += wins
        for flag, count in flags.items():
            self.flags[flag] = self.flags.get(flag, 0) + count

    def line(self) -> str:
        from .replay import FLAGS

        flags = ", ".join(f"{self.flags.get(flag, 0)} {flag}" for flag in FLAGS)
        return (f"replayed {self.files} file{'s' * (self.files != 1)}: {self.games} "
                f"game{'s' * (self.games != 1)}, "
                f"{self.moves} moves, {self.wins} won on the board; {flags}")


def replay_outputs(files: Sequence[str], rule: str, output_format: str, jobs: int,
                   summary: Summary, game: Optional[str] = None,
                   max_cells: Optional[int] = None) -> Iterator[Iterator[str]]:
    """For each file, in order, an iterator over its output text in pieces
    (a unit's output each); the summary's counts grow as units are replayed.
    ``game`` and ``max_cells`` (None: :data:`havhex.records.MAX_CELLS`) as
    for :func:`havhex.records.replay`."""
    from .._pool import run_here
    from .runs import record_files
    from .units import plan_replay

    plan = plan_replay(record_files(files), False, UNIT_BYTES, BUNDLE_FILES)
    if jobs <= 1:
        yield from file_outputs(run_here(plan, _work(rule, output_format, game, max_cells)),
                                 summary)
        return
    # This process is one of the N: it plans, takes the answers, writes, and
    # replays tasks itself while it would wait, beside N - 1 workers, so
    # that N cores run N busy processes, not N + 1.
    pool = replay_pool(jobs - 1, rule, output_format, game, max_cells)
    try:
        yield from file_outputs(pool.ordered(plan, TASKS_PER_WORKER), summary)
    finally:
        pool.close()


def _work(rule: str, output_format: str, game: Optional[str],
          max_cells: Optional[int]) -> _Task:
    """A task of replay units, as a worker runs it: replay_task looked up
    now (not where this module is imported), so that it is the one the
    workers fork with."""
    from functools import partial

    from . import units
    from .game import MAX_CELLS

    if max_cells is None:
        max_cells = MAX_CELLS
    return partial(units.replay_task, rule, output_format, game, max_cells)


def replay_pool(processes: int, rule: str, output_format: str, game: Optional[str] = None,
                max_cells: Optional[int] = None) -> Pool:
    """A :class:`havhex._pool.Pool` of ``processes`` worker processes
    replaying tasks of units (:func:`.units.replay_task`'s, with these
    arguments before the units); a task's answer is each unit's ``("ok",
    (text, counts))`` or ``("fault", InputError)``."""
    from .._pool import Pool
    from .units import unit_name

    return Pool(processes, _work(rule, output_format, game, max_cells), unit_name, "replay")


def file_outputs(results: Iterable[Tuple[int, Tuple[str, Any]]],
                 summary: Summary) -> Iterator[Iterator[str]]:
    """Each file's output as an iterator over its units' texts, taken from
    ``results`` (``(file index, ("ok", (text, counts)) | ("fault",
    error))`` of each unit, in order, from wherever the units ran) as the
    writer asks for them, the counts added to ``summary``; a fault is
    raised in its turn (after the output of the units before it)."""
    results = iter(results)
    following: Optional[Tuple[int, Tuple[str, Any]]] = None

    def pieces(index: int, result: Tuple[str, Any]) -> Iterator[str]:
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


# Small files go to the workers in bundles of up to this many.
BUNDLE_FILES = 64
# Tasks in flight per worker process: enough to keep every worker busy
# while results are taken in order, few enough that the output waiting to
# be taken stays small (it waits in the workers).
TASKS_PER_WORKER = 4
