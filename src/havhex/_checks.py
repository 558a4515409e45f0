"""Checks of the integer arguments every public function shares.

An integer argument is whatever ``operator.index`` takes (``int``, NumPy
integers, any class with ``__index__``), except ``bool``: ``True`` as a size
or a number of threads is a mistake, not a one.
"""
from operator import index as _index


def integer(value, name):
    """``value`` as an ``int``; TypeError naming ``name`` when it is not an
    integer (a float, a str, a bool)."""
    if isinstance(value, bool):
        raise TypeError(f"{name} must be an integer, not bool")
    try:
        return _index(value)
    except TypeError:
        raise TypeError(f"{name} must be an integer, not {type(value).__name__}") from None


def thread_count(threads):
    """The number of threads for ``threads=``: an integer >= 0, where 0
    means every core, as for the command line's ``-j 0``."""
    threads = integer(threads, "threads")
    if threads < 0:
        raise ValueError(f"threads must be >= 0 (0: every core), got {threads}")
    if threads == 0:
        import os

        return os.cpu_count() or 1
    return threads
