"""Havannah as the rest of havhex sees it: its :class:`~havhex.descriptor.Descriptor`
(found by :func:`havhex.games.get` as ``"havannah"``) and the cell names
of its engines and records.

Cells are havhex's ``(x, y)``, 1-based (docs/conventions.md).  Engines name
them in one of two ways:

* Little Golem's, as havhex's records and ``havhex gtp`` write them: the
  row letter of y, then the place along the row from its start (``A1`` is
  ``(1, 1)``);
* morat's and castro's grid: the column letter of x - 1, then y (``a1`` is
  ``(1, 1)``); its neighbours and cut corners are havhex's
  (tests/match/test_morat.py checks a fork, a bridge and a ring against the
  real program).
"""
from __future__ import annotations

from .._notation import letters, sgf_number, split
from ..descriptor import Descriptor, EngineWords, RecordFormat
from ..descriptor import Pictures
from ._names import KINDS, PLAYERS

# The annotations are for type checkers only: the judges' start-up does not
# import typing.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from types import ModuleType
    from typing import Any, Optional, Sequence, Tuple, Union

__all__ = ["DESCRIPTOR", "golem_cell_name", "golem_parse_cell", "grid_cell_name",
           "grid_parse_cell"]


# The board module, imported when first used (finding the game imports no
# compiled board) and kept: an import statement in a function costs a few
# microseconds a call, more than making a board of a record's game.
_board_module: Optional[ModuleType] = None


def _board() -> ModuleType:
    global _board_module
    if _board_module is None:
        from . import board

        _board_module = board
    return _board_module


# What the match calls a win that completes several structures: the first
# of these it completed.
_REASON_ORDER = ("ring", "bridge", "fork")


def _on_board(size: int, x: int, y: int) -> bool:
    return 1 <= x <= 2 * size - 1 and 1 <= y <= 2 * size - 1 and abs(x - y) <= size - 1


def golem_cell_name(size: int, move: Tuple[int, int]) -> str:
    """Little Golem's name of ``(x, y)`` on a board of base ``size``."""
    x, y = move
    return f"{letters(y - 1).upper()}{x - max(0, y - size)}"


def golem_parse_cell(size: int, text: str) -> Tuple[int, int]:
    """The ``(x, y)`` of Little Golem's name ``text``; ValueError off the board."""
    row, number = split(text)
    y = row + 1
    x = number + max(0, y - size)
    if not _on_board(size, x, y):
        raise ValueError(f"{text!r} is off the Havannah board of base {size}")
    return (x, y)


def grid_cell_name(size: int, move: Tuple[int, int]) -> str:
    """morat's name of ``(x, y)``: column letter x - 1, row number y."""
    x, y = move
    return f"{letters(x - 1)}{y}"


def grid_parse_cell(size: int, text: str) -> Tuple[int, int]:
    """The ``(x, y)`` of morat's name ``text``; ValueError off the board."""
    col, y = split(text)
    x = col + 1
    if not _on_board(size, x, y):
        raise ValueError(f"{text!r} is off the Havannah board of base {size}")
    return (x, y)


def _record_cell_name(size: int, move: Tuple[int, int]) -> str:
    """The records' name of ``(x, y)``: Little Golem's, checked by the
    board's own namer (InputError off the board, TypeError for no cell)."""
    return str(_board().name_of_cell(size, move))


def _read_size(value: Optional[bytes]) -> int:
    """The base S of a record's ``SZ[]`` value (a record must give it)."""
    if value is None:
        raise ValueError("a Havannah record needs SZ[] (the side length)")
    base = sgf_number(value)
    largest = _board().MAX_BOARD_SIZE
    if not 2 <= base <= largest:
        raise ValueError(f"SZ[{base}]: a Havannah board's side is 2 to {largest}")
    return base


def _cells(size: int) -> int:
    return 3 * size * (size - 1) + 1


def _new_board(size: Any, rule: Any = "official", swap: bool = False) -> Any:
    return _board().Board(size, rule, swap)


def _board_size(board: Any) -> int:
    return int(board.size)


def _board_text(board: Any) -> str:
    """The board as ``havhex gtp``'s showboard draws it: a row a line, row A
    (y = 1) at the top, each row's cells in the order Little Golem's names
    count them (the row's letter then 1, 2, ... from its left end: ``A1`` is
    the top left corner), rows shifted half a cell apart as the hexagon
    widens and narrows, the row's letter at both ends; W white, B black,
    . empty, then the legend."""
    size = board.size
    width = 2 * size + 1
    cells = board._cells_bytes()
    last = 2 * size - 1
    margin = len(letters(last - 1))
    lines = []
    for y in range(1, last + 1):
        # Row y holds x from max(1, y - S + 1) to min(2S - 1, y + S - 1).
        row = cells[y + width * max(1, y - size + 1):y + width * min(last, y + size - 1) + 1:
                    width]
        letter = letters(y - 1).upper()
        lines.append(f"{letter:>{margin}} " + " " * abs(size - y)
                     + " ".join(_MARKS[value] for value in row) + f" {letter}")
    lines.append("W white  B black  . empty; a row's cells count from 1 at its left end")
    return "\n".join(lines)


# A cell's byte (0 empty, 1 white, 2 black) as showboard draws it.
_MARKS = ".WB"


def _win_reason(kinds: Sequence[str]) -> str:
    for kind in _REASON_ORDER:
        if kind in kinds:
            return kind
    return kinds[0] if kinds else KINDS[1]


# ---------------------------------------------------------------------------
# Pictures (havhex.draw): the game's picture module, imported when drawn
# ---------------------------------------------------------------------------

def _case_tokens(header: Tuple[int, ...]) -> int:
    # A case is "S M" and then M moves of two numbers.
    return 2 * header[1]


def _draw_case(judge: Any, file: Any, number: int, **options: Any) -> str:
    from .picture import draw_case

    return draw_case(judge, file, number, **options)


def _picture_size(size: int) -> int:
    return size


def _page_refusal(size: int) -> Any:
    from .picture import page_refusal

    return page_refusal(size)


def _picture_cells(size: int) -> Any:
    from .geometry import rows

    return [(x, y) for x, first, last in rows(size) for y in range(first, last + 1)]


def _centre(cell: Tuple[int, int]) -> Tuple[float, float]:
    from .picture import centre

    return centre(*cell)


def _cell_path(cell: Tuple[int, int]) -> str:
    from .picture import cell_path

    return cell_path(*cell)


def _frame(size: int) -> Any:
    from .picture import page_frame

    return page_frame(size)


def _corners(size: int) -> Any:
    from .geometry import corners

    return corners(size)


def _swatch(x: float, y: float, classes: str) -> str:
    from .picture import swatch

    return swatch(x, y, classes)


def _style() -> str:
    from .picture import PAGE_STYLE

    return PAGE_STYLE


def _size_text(size: int) -> str:
    return f"S = {size}"


def _swap_changes(move: str, stones: Any) -> Any:
    # The swap gives White's one stone to Black, where it stands.
    if len(stones) != 1:
        return []
    (cell, _), = stones.items()
    return [(cell, PLAYERS[1])]


def _structure(size: int, explanation: Any, stones: Any) -> Any:
    from .picture import page_structure

    return page_structure(size, explanation, stones)


_PICTURES = Pictures(
    # The picture module's HAVANNAH_SVG_STONES_MAX bounds an SVG instead
    # (tests/draw check these against the module's).
    svg_max=None, text_max=20,
    header=2, case_tokens=_case_tokens, draw_case=_draw_case,
    page_size=_picture_size, page_refusal=_page_refusal, cells=_picture_cells,
    coordinates=("data-x", "data-y"), centre=_centre, cell_path=_cell_path, frame=_frame,
    corners=_corners, swatch=_swatch, style=_style, size_text=_size_text,
    swap_changes=_swap_changes, structure=_structure,
    module="havhex.havannah.picture",
    exports=("havannah_svg", "havannah_text", "HAVANNAH_TEXT_MAX", "HAVANNAH_SVG_STONES_MAX",
             "HAVANNAH_EDGES", "PAGE_HAVANNAH_CELLS_MAX"),
)


DESCRIPTOR = Descriptor(
    name="havannah", title="Havannah", players=PLAYERS, swap_move="swap",
    size_letter="S", default_size=8, min_size=2,
    # A boardsize line of a few bytes must not allocate a board of
    # gigabytes: 64 is far past any played size.
    max_size=64,
    rules=("official", "contest"),
    new_board=_new_board, board_size=_board_size, win_reason=_win_reason,
    board_text=_board_text,
    engines={
        "havhex": EngineWords(PLAYERS, golem_cell_name, golem_parse_cell, "swap", "swap {}"),
        "morat": EngineWords(("white", "black"), grid_cell_name, grid_parse_cell),
        # castro is put in its grid coordinates (morat's), whichever of its
        # two systems it starts in.
        "castro": EngineWords(("white", "black"), grid_cell_name, grid_parse_cell, "swap",
                              "swap {}", setup=("gridcoords",)),
    },
    colour_words={"benzene": ("black", "white")},
    # Little Golem's records: no GM[] (a .hgf file says the game), cells by
    # row letter and place along the row; its RU[LG] records name the loser.
    records=RecordFormat(".hgf", ("W", "B"), lambda size: f"SZ[{size}]", _record_cell_name,
                         gm=None, implied_by=(".hgf",), notation="little-golem",
                         read_size=_read_size, cells=_cells, little_golem=True),
    judge="havhex.havannah",
    judge_summary="the first move that completes a ring, a bridge or a fork",
    pictures=_PICTURES,
    batch="havhex.havannah.batch",
    search="havhex.havannah._search",
    # Matches of Havannah 8 against morat (docs/engine.md) put the best k
    # near 1,000 at a tenth of a second a move (about 6,500 simulations)
    # and at 100,000 or more at one second (about 65,000).
    rave_reference=6500.0,
)
