"""Work units of game records: what ``havhex replay`` prints for a unit, and
the one plan of units that ``havhex replay -j`` and the cluster share (each
with its own sizes: a task through a scheduler costs more than one through
a local process pool).

A unit is ``("path", path)``, a record file the worker loads;
``("bytes", data, name)``, one read by the planner; or ``("range", path,
data, name, start, stop, first game, first line)``, a run of whole games
of a large file (read from the path when ``data`` is None).  The plan is
:mod:`havhex._units`'s.
"""
from __future__ import annotations

import json
import os

from .._units import Bundle, bytes_after, regular_size, unit_for
from ..errors import InputError
from .game import MAX_CELLS, load, read_bytes, shown_name

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Callable, Dict, Iterator, List, Optional, Sequence, Tuple, Union

    from .replay import Replay

    # A unit's (games, moves, wins, {flag: games}).
    _Counts = Tuple[int, int, int, Dict[str, int]]
    _Unit = Tuple[Any, ...]

__all__ = ["text_line", "json_line", "size_text", "replay_unit", "replay_task", "unit_name",
           "plan_replay"]


def size_text(size: Any) -> str:
    """A record's board size as the text lines give it: ``4``, ``7x7``."""
    return str(size) if isinstance(size, int) else f"{size[0]}x{size[1]}"


def text_line(name: str, replayed: Replay) -> str:
    """The text line of one game."""
    win = replayed.win
    won = (f"{win.player} won in move {win.move} ({'-'.join(win.kinds)})" if win
           else "no win")
    record = replayed.record
    line = (f"{name} game {record.index}: {record.game} {size_text(record.size)}, "
            f"{replayed.moves} moves, {won}, recorded {replayed.recorded or '-'}, "
            f"ended by {replayed.end}")
    if replayed.illegal:
        line += f", illegal move {replayed.illegal[0]}: {replayed.illegal[1]}"
    if replayed.flags:
        line += f" [{' '.join(replayed.flags)}]"
    return line + "\n"


def json_line(name: str, replayed: Replay) -> str:
    record = replayed.to_dict(witness=True)
    record["file"] = shown_name(name)
    return json.dumps(record, separators=(", ", ": ")) + "\n"


def replay_unit(data: bytes, name: str, rule: str, output_format: str, first_index: int = 1,
                first_line: int = 1, game: Optional[str] = None,
                max_cells: Optional[int] = MAX_CELLS) -> Tuple[str, _Counts]:
    """``(text, counts)`` of the games in ``data`` (bytes of whole games);
    ``game`` and ``max_cells`` as for :func:`havhex.records.replay`."""
    from .replay import replay_games

    line_of = json_line if output_format == "json" else text_line
    pieces = []
    games = moves = wins = 0
    flags: Dict[str, int] = {}
    read = read_bytes(data, name, game, first_index, first_line)
    for replayed in replay_games(read, rule, max_cells):
        pieces.append(line_of(name, replayed))
        games += 1
        moves += replayed.moves
        if replayed.win:
            wins += 1
        for flag in replayed.flags:
            flags[flag] = flags.get(flag, 0) + 1
    return "".join(pieces), (games, moves, wins, flags)


def _run_unit(rule: str, output_format: str, game: Optional[str], max_cells: Optional[int],
              unit: _Unit) -> Tuple[str, _Counts]:
    kind = unit[0]
    if kind == "range":
        from .runs import read_range

        _, path, data, name, start, stop, first_index, first_line = unit
        if data is None:
            data = read_range(path, start, stop)
        return replay_unit(bytes(data), name, rule, output_format, first_index, first_line,
                           game, max_cells)
    if kind == "path":
        data, name = load(unit[1])
    else:
        _, data, name = unit
    return replay_unit(data, name, rule, output_format, game=game, max_cells=max_cells)


def replay_task(rule: str, output_format: str, game: Optional[str], max_cells: Optional[int],
                units: Sequence[_Unit]) -> List[Tuple[str, Any]]:
    """A worker's task: each unit's ``("ok", (text, counts))`` or
    ``("fault", InputError)``, in order; ``game`` and ``max_cells`` as for
    :func:`havhex.records.replay`."""
    done: List[Tuple[str, Any]] = []
    for unit in units:
        try:
            done.append(("ok", _run_unit(rule, output_format, game, max_cells, unit)))
        except InputError as error:
            done.append(("fault", error))
    return done


def unit_name(unit: _Unit) -> str:
    """A unit as a message names it: its file, and where in the file a run
    of games begins."""
    kind = unit[0]
    if kind == "path":
        return os.fsdecode(unit[1])
    if kind == "bytes":
        name: str = unit[2]
        return name
    return f"{unit[3]} from game {unit[6]}"


def plan_replay(files: Sequence[str], ship: bool, unit_bytes: Union[int, Callable[[int], int]],
                bundle_files: int) -> Iterator[Tuple[Any, ...]]:
    """The tasks of replaying ``files`` (a list of record files, as
    :func:`havhex.records.runs.record_files` gives them), in input order.
    ``unit_bytes`` is a size in bytes or a function of the bytes still to
    plan (:func:`havhex._units.shrinking_units`).  A file larger than twice
    the unit is cut into runs of whole games of about that size, each a task
    of its own (as the judges' plan cuts: a smaller one, cut, would give
    runs no more even than itself, and its walk costs the planner, whose
    core the workers may share); smaller files go together, up to
    ``bundle_files`` files or the unit's bytes a task.  Workers read the
    files by path; the planner reads those that are not regular files
    (standard input, a pipe), and with ``ship`` every file, so that the
    bytes travel with the tasks."""
    from .runs import runs_as_found, runs_of

    unit = unit_for(unit_bytes)
    # The sizes up front only where the unit follows the bytes still to
    # plan: a folder of many small files starts at once otherwise.
    sizes: Optional[List[Optional[int]]] = None
    after: Optional[List[int]] = None
    if callable(unit_bytes):
        sizes = [regular_size(file) for file in files]
        after = bytes_after(sizes)
    bundle = Bundle(bundle_files, unit(sum(size or 0 for size in sizes or ())))
    later = 0                               # the bytes of the files after this one

    def flush() -> List[Any]:
        nonlocal bundle
        units, bundle = bundle.units, bundle.again(unit(later))
        return units

    for index, file in enumerate(files):
        size = regular_size(file) if sizes is None else sizes[index]
        later = 0 if after is None else after[index]
        data: Optional[bytes] = None
        name = "<stdin>" if file == "-" else os.fsdecode(file)
        if size is None or ship:
            try:
                data, name = load(file)
            except InputError as error:
                if bundle.units:
                    yield "task", flush()
                yield "fault", index, error
                continue
            size = len(data)
        if size > 2 * unit(size + later):
            if bundle.units:
                yield "task", flush()
            # A file the workers read is cut through a memory map as the
            # runs are found, so that workers start on the first at once.
            runs = (runs_as_found(file, lambda left: unit(later + left)) if data is None
                    else runs_of(data, size // unit(size + later)))
            for start, stop, first_index, line in runs:
                piece = None if data is None else data[start:stop]
                source = file if data is None else None
                yield "task", [(index, ("range", source, piece, name, start, stop,
                                        first_index, line))]
            bundle = bundle.again(unit(later))
            continue
        whole = ("path", file) if data is None else ("bytes", data, name)
        bundle.add(index, whole, size)
        if bundle.full():
            yield "task", flush()
    if bundle.units:
        yield "task", flush()
