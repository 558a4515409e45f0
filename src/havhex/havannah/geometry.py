"""The Havannah board's geometry: which hexagons it holds, their neighbours,
its corners and its edges.

This is the one Python statement of the geometry; the witnesses and the
drawing use it.  The compiled engine states the same rules in its own
``_geometry.pxi`` (its kernel cannot call Python), numbered the same way; the
tests check the two against each other through judged cases.
docs/conventions.md ("Havannah") draws the board with these numbers.

A board of base ``S`` holds the hexagons ``(x, y)`` with ``1 <= x, y <= 2S-1``
and ``|x - y| <= S-1``: ``(1, 1)`` is the bottom corner, ``(x, y+1)`` lies at
two o'clock and ``(x+1, y)`` at ten o'clock.  Every function takes the base
first, as an integer of at least 2 (any size: nothing here is per hexagon).

Corners and edges carry the engine's numbers: corner ``k`` is bit ``k`` of a
group's border mask, edge ``k`` bit ``6 + k``.  Those numbers follow the
contest statement's lists, not the way round the board; :data:`EDGE_CORNERS`
gives the corners at the ends of each edge, and :data:`EDGE_CONDITIONS`
names each edge by the condition that defines it.
"""
from __future__ import annotations

from operator import index

# The annotations are for type checkers only: the geometry does not import
# typing.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Iterator, List, Optional, Tuple

    _Cell = Tuple[int, int]

__all__ = [
    "NEIGHBOUR_STEPS", "EDGE_CONDITIONS", "EDGE_CORNERS", "CORNERS_ROUND",
    "bounds", "cell_count", "on_board", "neighbours", "corners", "corner_of", "edge_of",
    "row_range", "rows",
]

# The six steps to a hexagon's neighbours, clockwise from twelve o'clock, in
# the engine's order.  Entries next to each other (and the last and the first)
# are neighbours of each other too: the ring test walks round a stone in this
# circular order.
NEIGHBOUR_STEPS: Tuple[_Cell, _Cell, _Cell, _Cell, _Cell, _Cell] = (
    (1, 1), (0, 1), (-1, 0), (-1, -1), (0, -1), (1, 0))

# Edge k lies where its condition holds (corners excepted), in the engine's
# numbering: the order the contest statement lists the edges.
EDGE_CONDITIONS: Tuple[str, str, str, str, str, str] = (
    "x=1", "y=1", "x=2S-1", "y=2S-1", "y-x=S-1", "x-y=S-1")

# The two corners (numbers of :func:`corners`) at the ends of edge k.
EDGE_CORNERS: Tuple[_Cell, _Cell, _Cell, _Cell, _Cell, _Cell] = (
    (0, 1), (0, 2), (4, 5), (3, 5), (1, 3), (2, 4))

# The corner numbers going round the board from the bottom corner (1, 1):
# lower right, upper right, top, upper left, lower left.  Two corners next to
# each other here are the ends of one edge.
CORNERS_ROUND: Tuple[int, int, int, int, int, int] = (0, 1, 3, 5, 4, 2)


def _base(size: int) -> int:
    size = index(size)
    if size < 2:
        raise ValueError(f"a Havannah board has base S of at least 2, got {size}")
    return size


def bounds(size: int) -> Tuple[Tuple[int, int], Tuple[int, int], Tuple[int, int]]:
    """``((1, 2S-1), (1, 2S-1), (1-S, S-1))``: the ranges of ``x``, of ``y``
    and of ``y - x``.  The board holds exactly the hexagons with all three in
    range."""
    size = _base(size)
    return (1, 2 * size - 1), (1, 2 * size - 1), (1 - size, size - 1)


def cell_count(size: int) -> int:
    """The number of hexagons of a board of base ``size``: 3S(S-1) + 1."""
    size = _base(size)
    return 3 * size * (size - 1) + 1


def on_board(size: int, x: int, y: int) -> bool:
    """True when hexagon ``(x, y)`` lies on the board of base ``size``."""
    size = _base(size)
    last = 2 * size - 1
    return 1 <= x <= last and 1 <= y <= last and -size < x - y < size


def neighbours(size: int, x: int, y: int) -> List[_Cell]:
    """The neighbours of ``(x, y)`` that lie on the board, clockwise from
    twelve o'clock (see :data:`NEIGHBOUR_STEPS`), as a list of pairs."""
    size = _base(size)
    return [(x + dx, y + dy) for dx, dy in NEIGHBOUR_STEPS if on_board(size, x + dx, y + dy)]


def corners(size: int) -> Tuple[_Cell, _Cell, _Cell, _Cell, _Cell, _Cell]:
    """The six corner hexagons, corner k at index k (the engine's numbers):
    ``(1, 1)``, ``(1, S)``, ``(S, 1)``, ``(S, 2S-1)``, ``(2S-1, S)``,
    ``(2S-1, 2S-1)``."""
    s = _base(size)
    last = 2 * s - 1
    return ((1, 1), (1, s), (s, 1), (s, last), (last, s), (last, last))


def corner_of(size: int, x: int, y: int) -> Optional[int]:
    """The number of the corner ``(x, y)`` is, or None when it is no corner."""
    try:
        return corners(size).index((x, y))
    except ValueError:
        return None


def edge_of(size: int, x: int, y: int) -> Optional[int]:
    """The number of the edge ``(x, y)`` lies on (an index into
    :data:`EDGE_CONDITIONS`), or None for a hexagon inside the board and for
    a corner, which belongs to neither of its two edges.  Raises ValueError
    for a hexagon off the board."""
    size = _base(size)
    last = 2 * size - 1
    difference = x - y
    if 1 < x < last and 1 < y < last and -(size - 1) < difference < size - 1:
        return None
    if not on_board(size, x, y):
        raise ValueError(f"({x}, {y}) is off the board of base S = {size}")
    # A hexagon meeting two conditions is a corner.
    hits = (x == 1, y == 1, x == last, y == last, -difference == size - 1, difference == size - 1)
    if sum(hits) != 1:
        return None
    return hits.index(True)


def row_range(size: int, x: int) -> Tuple[int, int]:
    """``(first_y, last_y)``: the hexagons of row ``x`` are ``(x, y)`` for
    ``first_y <= y <= last_y``.  Raises ValueError for a row off the board."""
    size = _base(size)
    if not 1 <= x <= 2 * size - 1:
        raise ValueError(f"row x = {x} is off the board of base S = {size}")
    return max(1, x - size + 1), min(2 * size - 1, x + size - 1)


def rows(size: int) -> Iterator[Tuple[int, int, int]]:
    """Yield ``(x, first_y, last_y)`` for every row of the board, from x = 1."""
    size = _base(size)
    for x in range(1, 2 * size):
        yield (x,) + row_range(size, x)
