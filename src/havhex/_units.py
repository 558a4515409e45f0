"""Work units, whoever runs them: the one plan shape of ``havhex replay -j``
and of the cluster, small inputs gathered into bundles, and the units'
results taken back in input order.

A plan yields, in input order, ``("task", [(file index, unit), ...])``,
``("fault", file index, error)`` for an input the planner could not read,
or ``("started", file index, future)`` for a unit under way elsewhere;
a task's result is one ``("ok", value)`` or ``("fault", InputError)`` per
unit (a fault is a value, so that the units before it keep their output
and the fault is raised in its turn).
"""
import os

__all__ = ["regular_size", "bundle_files_for", "shrinking_units", "bytes_after", "unit_for",
           "Bundle", "ordered_results", "by_file"]

# The annotations are for type checkers only, in quotes: the modules that
# load this one import nothing more than before.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import (Any, Callable, Deque, Generator, Iterable, Iterator, List, Optional,
                        Sequence, Tuple, Union)

    # A unit of work, as its planner makes it; a unit's result.
    _Unit = Tuple[Any, ...]
    _Result = Tuple[int, Tuple[str, Any]]


def regular_size(file: str) -> "Optional[int]":
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


def bundle_files_for(files: int, workers: int, most: int) -> int:
    """Files a bundle holds at most: a quarter of each worker's share of the
    files, within 1 and ``most``."""
    return max(1, min(most, files // (4 * max(1, workers))))


def shrinking_units(low: int, high: int, workers: int,
                    parts: int = 4) -> "Callable[[int], int]":
    """The unit size of the task planned next, from the bytes still to plan
    (its own included): ``1 / parts`` of each worker's share of them, within
    ``low`` and ``high`` (``high`` wins).  Tasks shrink as the run nears its
    end, so that the workers finish together: with sizes fixed from the
    total, the last task of a worker could hold a quarter of its share
    while the other workers wait."""
    share = parts * max(1, workers)

    def unit(remaining: int) -> int:
        return min(high, max(low, remaining // share))

    return unit


def bytes_after(sizes: "Sequence[Optional[int]]") -> "List[int]":
    """For each file, the bytes of the files after it (a size of None, a
    file that is not regular, counts none): what a plan has left once it
    has planned that file."""
    after: "List[int]" = []
    total = 0
    for size in reversed(sizes):
        after.append(total)
        total += size or 0
    return after[::-1]


def unit_for(unit: "Union[int, Callable[[int], int]]") -> "Callable[[int], int]":
    """A planner's ``unit`` (a size in bytes, or :func:`shrinking_units`'s
    function of the bytes still to plan) as such a function."""
    return unit if callable(unit) else (lambda remaining: unit)


class Bundle:
    """Small files gathered into one task, up to ``files`` files or
    ``size`` bytes."""

    def __init__(self, files: int, size: int) -> None:
        self.units: "List[Tuple[int, _Unit]]" = []
        self.size = 0
        self.limits = (files, size)

    def add(self, index: int, unit: "_Unit", size: int) -> None:
        self.units.append((index, unit))
        self.size += size

    def full(self) -> bool:
        return len(self.units) >= self.limits[0] or self.size >= self.limits[1]

    def again(self, size: "Optional[int]" = None) -> "Bundle":
        """An empty bundle with the same limits (``size`` bytes, when given)."""
        return Bundle(self.limits[0], self.limits[1] if size is None else size)


def ordered_results(plan: "Iterable[Tuple[Any, ...]]", submit: "Callable[[List[_Unit]], Any]",
                    window: int, release: "Optional[Callable[[Any], object]]" = None
                    ) -> "Generator[_Result, None, None]":
    """``(file index, ("ok", value) | ("fault", error))`` for every unit, in
    plan order, with at most ``window`` tasks submitted and not yet taken
    (units under way elsewhere, the plan's "started" items, wait beside
    them).  ``submit(units)`` starts a task on the units (without their
    indices) and returns its future; ``release(future)``, when given, lets
    a taken result go."""
    from collections import deque

    pending: "Deque[Tuple[Any, ...]]" = deque()
    submitted = 0

    def take() -> "List[_Result]":
        nonlocal submitted
        kind, *rest = pending.popleft()
        if kind == "fault":
            index, error = rest
            return [(index, ("fault", error))]
        future, indices, here = rest
        submitted -= here
        results = future.result()
        if release is not None:
            release(future)
        return list(zip(indices, results))

    try:
        for item in plan:
            if item[0] == "fault":
                pending.append(item)
            elif item[0] == "started":
                # A unit already under way elsewhere: ("started", file
                # index, its future).
                pending.append(("task", item[2], [item[1]], False))
            else:
                units = item[1]
                pending.append(("task", submit([unit for _, unit in units]),
                                [index for index, _ in units], True))
                submitted += 1
            while submitted > window:
                yield from take()
        while pending:
            yield from take()
    except BaseException:
        for item in pending:
            if item[0] == "task":
                item[1].cancel()
        raise


def by_file(results: "Iterable[_Result]") -> "Iterator[List[Any]]":
    """Each file's list of unit values, in order; a fault is raised in its
    turn (after the output of the files before it)."""
    current: "Optional[int]" = None
    values: "List[Any]" = []
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
