"""Checks of the integer arguments every public function shares.

An integer argument is whatever ``operator.index`` takes (``int``, NumPy
integers, any class with ``__index__``), except ``bool``: ``True`` as a size
or a number of threads is a mistake, not a one.
"""
from operator import index as _index

from .errors import InputError

# The annotations are for type checkers only, in quotes: the command line's
# start-up imports neither typing nor __future__.  integer takes any value
# (and raises TypeError for one that is not an integer).
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


def integer(value: "Any", name: str) -> int:
    """``value`` as an ``int``; TypeError naming ``name`` when it is not an
    integer (a float, a str, a bool)."""
    if isinstance(value, bool):
        raise TypeError(f"{name} must be an integer, not bool")
    try:
        return _index(value)
    except TypeError:
        raise TypeError(f"{name} must be an integer, not {type(value).__name__}") from None


# The largest count: the compiled code counts in int64, and the threads'
# claims may run past the count by a chunk each before they stop.
MAX_COUNT = 1 << 62


def count(value: object, name: str) -> int:
    """``value`` as an ``int`` from 0 to ``MAX_COUNT`` (a number of playouts,
    say); :class:`havhex.InputError` when it is negative or larger."""
    value = integer(value, name)
    if value < 0:
        raise InputError(f"{name} must be >= 0, got {value}")
    if value > MAX_COUNT:
        raise InputError(f"{name} must be at most 2**62, got {value}")
    return value


def thread_count(threads: object) -> int:
    """The number of threads for ``threads=``: an integer >= 0, where 0
    means every core, as for the command line's ``-j 0``; a negative one
    raises :class:`havhex.InputError` (a ValueError)."""
    threads = integer(threads, "threads")
    if threads < 0:
        raise InputError(f"threads must be >= 0 (0: every core), got {threads}")
    if threads == 0:
        import os

        return os.cpu_count() or 1
    return threads


def worker_count(threads: object, pieces: int) -> int:
    """The threads to start for ``threads=`` (see :func:`thread_count`) on
    work of ``pieces`` independent pieces: no more than the cores (more
    threads only evict each other's data from the caches) nor the pieces,
    and at least one."""
    import os

    return max(1, min(thread_count(threads), os.cpu_count() or 1, pieces))
