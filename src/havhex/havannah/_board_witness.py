"""Board.explain(): the judge's witnesses, built from the winner's stones,
plus what two players and the official ring rule add (a flower, opponent
stones inside a loop)."""
from __future__ import annotations

from array import array
from bisect import bisect_left

from ._explanation import HavannahExplanation
from . import _rings
from ._result import KINDS, Result
from .witness import Witness as _Witness

from .geometry import NEIGHBOUR_STEPS

# The annotations are for type checkers only: explaining a board does not
# import typing.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Dict, Iterable, List, Sequence, Set, Tuple

    from .._explanation import Explanation

    # A havhex.havannah.board.Board, not imported: the board imports this
    # module, and an import for the type checker would close a cycle.
    _Board = Any

    _Cell = Tuple[int, int]
    _Run = Tuple[int, int, int]  # (x, first_y, last_y)


def explain_board(board: _Board) -> Explanation:
    """The :class:`havhex.Explanation` of a won board (``case`` None), its
    result numbering the winning move in ``board.moves`` from 1."""
    stones = board._winner_stones()
    n = len(stones)
    flat = array("q", [coordinate for cell in stones for coordinate in cell])
    kinds = [kind for kind in KINDS if kind in board._winning_kinds()]
    if TYPE_CHECKING:
        # The board is won.
        assert board.winning_move is not None
    result = Result(kinds, board.winning_move + 1)
    witness = _Witness(board.size, flat, n)
    bridge = fork = loop = runs = None
    if "bridge" in kinds:
        bridge = _tuples(witness.bridge())
    if "fork" in kinds:
        fork = _tuples(witness.fork())
    if "ring" in kinds:
        own = set(stones)
        cycle = witness.loop()
        if cycle is None:
            cycle = _flower_loop(board.size, own, stones[-1])
        loop = _tuples(cycle)
        runs = _tuples(_enclosed(board, own, flat))
    return HavannahExplanation.of(result, None, (bridge, fork, loop, runs))


def _tuples(cells: Iterable[Sequence[int]]) -> Tuple[Tuple[int, ...], ...]:
    return tuple(map(tuple, cells))


def _on_board(size: int, x: int, y: int) -> bool:
    last = 2 * size - 1
    return 1 <= x <= last and 1 <= y <= last and abs(x - y) <= size - 1


def _flower_loop(size: int, own: Set[_Cell], last_move: _Cell) -> List[List[int]]:
    """The six stones around a stone of the winner's whose neighbours are
    all the winner's (the winning move or one beside it), starting at the
    winning move when it is one of them."""
    x, y = last_move
    for dx, dy in ((0, 0),) + NEIGHBOUR_STEPS:
        cx, cy = x + dx, y + dy
        around = [(cx + ex, cy + ey) for ex, ey in NEIGHBOUR_STEPS]
        if (cx, cy) in own and all(cell in own for cell in around):
            if last_move in around:
                k = around.index(last_move)
                around = around[k:] + around[:k]
            return [list(cell) for cell in around]
    raise AssertionError("a ring with neither a loop nor a flower")


def _enclosed(board: _Board, own: Set[_Cell], flat: array[int]) -> List[List[int]]:
    """Row runs of the cells the winner's stones cut off from the outside:
    any content under the official rule (own stones too), empty ones under
    the contest rule."""
    size = board.size
    runs = list(_rings.enclosed_runs(size, array("i", flat)))   # cells not the winner's
    if board.rule == "contest":
        opponent = 2 if board.winner == "white" else 1
        width = 2 * size + 1
        rows: Dict[int, List[int]] = {}
        for index, held in enumerate(board._cells_bytes()):
            if held == opponent:
                rows.setdefault(index // width, []).append(index % width)
        split: List[_Run] = []
        for x, first, last in runs:
            ys = rows.get(x, ())
            start = first
            for y in ys[bisect_left(ys, first):bisect_left(ys, last + 1)]:
                if y > start:
                    split.append((x, start, y - 1))
                start = y + 1
            if start <= last:
                split.append((x, start, last))
        return [list(run) for run in split]
    by_row: Dict[int, List[Tuple[int, int]]] = {}
    for x, first, last in runs:
        by_row.setdefault(x, []).append((first, last))

    def cut_off(x: int, y: int) -> bool:
        row = by_row.get(x, ())
        k = bisect_left(row, (y + 1,)) - 1
        return k >= 0 and row[k][0] <= y <= row[k][1]

    for x, y in own:
        around = [(x + dx, y + dy) for dx, dy in NEIGHBOUR_STEPS]
        if all(_on_board(size, a, b) and ((a, b) in own or cut_off(a, b)) for a, b in around):
            runs.append((x, y, y))
    return [list(run) for run in sorted(runs)]
