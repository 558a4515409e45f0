"""How a collection of records is cut for workers: the record files a
command line names, and runs of whole games of a large file as byte ranges.

The one plan of record units (:func:`havhex.records.units.plan_replay`)
cuts with these, for ``havhex replay -j`` and :mod:`havhex.dask` alike,
each with its own run size (a task costs more through a scheduler than
through a local process pool): a file the workers read as its runs are
found, bytes read by the planner in pieces of about equal size.  A run is ``(start, stop, first game index, first line)``:
the bytes ``[start, stop)`` hold whole games, the first of which is that
game of the file and starts on that line, so that a reader of the run
numbers games and names lines as a reader of the whole file would.
"""
from __future__ import annotations

import os

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Callable, Iterator, List, Optional, Sequence, Tuple, Union

    # (start, stop, first game index, first line)
    _Run = Tuple[int, int, int, int]
    _Path = Union[str, "os.PathLike[str]"]

    # The registry says them when asked for (__getattr__).
    RECORD_EXTENSIONS: Tuple[str, ...]

__all__ = ["RECORD_EXTENSIONS", "record_files", "runs_of", "runs_as_found",
           "read_range"]


def _extensions(installed: bool) -> Tuple[str, ...]:
    """What a folder given on the command line stands for: SGF files, and
    the files of each game's record format (those it writes and those that
    say its game), the installed games' too with ``installed``."""
    from .game import _SGF, _readable

    found = [_SGF]
    for form in _readable(installed):
        for extension in (form.form.extension, *form.form.implied_by):
            if extension not in found:
                found.append(extension)
    return tuple(found)


def __getattr__(name: str) -> Tuple[str, ...]:
    # The registry says the extensions, when they are asked for: a game
    # registered after this module is imported counts.
    if name.startswith("__"):
        # "from .runs import x" asks for __path__ each time it runs (in a
        # function, each call): answered at once, without the lookups below.
        raise AttributeError(name)
    if name == "RECORD_EXTENSIONS":
        return _extensions(True)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _record_entries(entries: List[str]) -> List[str]:
    """The names of record files among a folder's ``entries``, sorted: the
    installed games' extensions are read only for a name that none of the
    built-in and registered games' takes."""
    known = _extensions(False)
    others = [entry for entry in entries if not entry.lower().endswith(known)]
    if others:
        known = _extensions(True)
    return sorted(entry for entry in entries if entry.lower().endswith(known))


def record_files(names: Optional[Sequence[str]]) -> List[str]:
    """The files to replay: a folder stands for its record files (by
    extension, not recursing), sorted by name; no names is standard input."""
    files = []
    for name in names or ["-"]:
        if name != "-" and os.path.isdir(name):
            found = _record_entries(os.listdir(name))
            files += [os.path.join(name, entry) for entry in found]
        else:
            files.append(name)
    return files


def runs_of(data: Union[bytes, bytearray, memoryview], pieces: int) -> List[_Run]:
    """``pieces`` runs of about equal size over a file's bytes (fewer when
    the file holds fewer games)."""
    # The compiled reader has no stub: what it gives is typed where it is used.
    from . import _reader  # type: ignore[attr-defined]

    cuts: List[Tuple[int, int, int]] = _reader.game_ranges(memoryview(data), pieces)
    return [(start, stop, games + 1, line)
            for (start, games, line), (stop, _, _) in zip(cuts, cuts[1:])]


def _mapped(path: _Path) -> Tuple[memoryview, Callable[[], None], Callable[[int], None]]:
    """The file's bytes through a memory map (not read whole), with what
    closes it and what lets the pages before an offset go."""
    import mmap

    stream = open(path, "rb")
    try:
        mapped = mmap.mmap(stream.fileno(), 0, access=mmap.ACCESS_READ)
    except BaseException:
        stream.close()
        raise
    view = memoryview(mapped)

    def close() -> None:
        view.release()
        mapped.close()
        stream.close()

    def release(stop: int) -> None:
        """Let the pages before ``stop`` go: the cutter never reads them
        again, and a mapped page once read counts in this process's memory
        until it is let go (a file of 200 MB would cost 200 MB)."""
        stop -= stop % mmap.PAGESIZE
        if stop > 0 and hasattr(mapped, "madvise") and hasattr(mmap, "MADV_DONTNEED"):
            try:
                mapped.madvise(mmap.MADV_DONTNEED, 0, stop)
            except OSError:
                pass

    return view, close, release


def runs_as_found(path: _Path, run_bytes: Union[int, Callable[[int], int]]) -> Iterator[_Run]:
    """Runs of a file of about ``run_bytes`` each (a size, or a function of
    the bytes still to cut), one at a time as they are found, so that
    workers start on the first while the rest are looked for."""
    from .._units import unit_for
    # The compiled reader has no stub: what it gives is typed where it is used.
    from . import _reader  # type: ignore[attr-defined]

    view, close, release = _mapped(path)
    size_of = unit_for(run_bytes)
    try:
        start, games, line = 0, 0, 1
        while True:
            cut: Optional[Tuple[int, int, int]] = _reader.next_cut(view, start, line,
                                                                   size_of(len(view) - start))
            if cut is None:
                yield start, len(view), games + 1, line
                return
            offset, found, next_line = cut
            yield start, offset, games + 1, line
            release(offset)
            start, games, line = offset, games + found, next_line
    finally:
        close()


def read_range(path: _Path, start: int, stop: int) -> bytes:
    """The bytes ``[start, stop)`` of a file."""
    with open(path, "rb") as stream:
        stream.seek(start)
        return stream.read(stop - start)
