"""Hex as the rest of havhex sees it: its :class:`~havhex.descriptor.Descriptor`
(found by :func:`havhex.games.get` as ``"hex"``) and the cell names of its
engines and records.

Every engine family names cells alike: the column letter, then the row
number from 1, ``a1`` top left (SGF Hex's notation); every family's first
player joins top and bottom.
"""
from __future__ import annotations

from .._notation import letters, sgf_number, sgf_plain, split
from ..descriptor import Descriptor, EngineWords, RecordFormat
from ..descriptor import Pictures
from ._names import PLAYERS

# The annotations are for type checkers only: the judges' start-up does not
# import typing.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from types import ModuleType
    from typing import Any, Optional, Sequence, Tuple, Union

__all__ = ["DESCRIPTOR", "cell_name", "parse_cell", "rectangle_text"]


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


def cell_name(size: int, move: Tuple[int, int]) -> str:
    """The name of ``(row, col)`` (the size plays no part)."""
    row, col = move
    return f"{letters(col)}{row + 1}"


def parse_cell(size: int, text: str) -> Tuple[int, int]:
    """The ``(row, col)`` of the name ``text`` on a board of ``size`` x
    ``size``; ValueError off it."""
    col, number = split(text)
    row = number - 1
    if not (0 <= row < size and 0 <= col < size):
        raise ValueError(f"{text!r} is off the {size}x{size} board")
    return (row, col)


def rectangle_text(board: Any) -> str:
    """A board of rows x cols as text (the pictures draw square boards
    only): a row a line, shifted right by its number, R, B and . for red,
    blue and empty; the stones from the moves, in which every move is by
    the seat after the last one's and swap-pieces mirrors the first stone."""
    from .board import SWAP_PIECES

    stones: dict[Tuple[int, int], str] = {}
    for index, move in enumerate(board.moves):
        if move == SWAP_PIECES:
            stones = {(col, row): "B" for (row, col) in stones}
        elif not isinstance(move, str):
            stones[move] = "RB"[index % 2]
    columns = " ".join(letters(col) for col in range(board.cols))
    lines = ["   " + columns]
    for row in range(board.rows):
        cells = " ".join(stones.get((row, col), ".") for col in range(board.cols))
        lines.append(f"{row + 1:>2} " + " " * row + cells)
    return "\n".join(lines)


def _board_text(board: Any) -> str:
    """The board as ``havhex gtp``'s showboard draws it, of any rows x cols:
    the columns' letters, then a row a line, numbered from 1 at both ends
    and shifted half a cell right of the row above, so that cells read as
    moves name them (``a1`` top left); R red, B blue, . empty (the stones
    of the position, setup stones and swaps included); the letters again
    under the last row, then the legend."""
    rows, cols = board.rows, board.cols
    cells = board._rows_text()
    names = [letters(col) for col in range(cols)]
    # Past z the columns have two letters: one letter a heading line.
    depth = len(names[-1])
    margin = len(str(rows)) + 1
    heading = [" ".join(name.rjust(depth)[k] for name in names) for k in range(depth)]
    lines = [" " * margin + line for line in heading]
    for row in range(rows):
        lines.append(f"{row + 1:>{margin - 1}} " + " " * row + " ".join(cells[row])
                     + f" {row + 1}")
    lines += [" " * (margin + rows - 1) + line for line in heading]
    lines.append("R red (joins top and bottom)  B blue (joins left and right)  . empty")
    return "\n".join(lines)


# ---------------------------------------------------------------------------
# Pictures (havhex.draw): the game's picture module, imported when drawn
# ---------------------------------------------------------------------------

def _case_tokens(header: Tuple[int, ...]) -> int:
    # A case is "N" and then its N rows.
    return header[0]


def _draw_case(judge: Any, file: Any, number: int, **options: Any) -> str:
    from .picture import draw_case

    return draw_case(judge, file, number, **options)


def _picture_size(size: Any) -> Tuple[int, int]:
    return size if isinstance(size, tuple) else (size, size)


def _page_refusal(size: Tuple[int, int]) -> Any:
    from .picture import page_refusal

    return page_refusal(size)


def _picture_cells(size: Tuple[int, int]) -> Any:
    rows, cols = size
    return [(i, j) for i in range(rows) for j in range(cols)]


def _centre(cell: Tuple[int, int]) -> Tuple[float, float]:
    from .picture import centre

    return centre(*cell)


def _cell_path(cell: Tuple[int, int]) -> str:
    from .picture import cell_path

    return cell_path(*cell)


def _frame(size: Tuple[int, int]) -> Any:
    from .picture import page_frame

    return page_frame(size)


def _labels(size: Tuple[int, int]) -> Any:
    from .picture import page_labels

    return page_labels(size)


def _swatch(x: float, y: float, classes: str) -> str:
    from .picture import swatch

    return swatch(x, y, classes)


def _style() -> str:
    from .picture import PAGE_STYLE

    return PAGE_STYLE


def _size_text(size: Tuple[int, int]) -> str:
    return f"{size[0]} x {size[1]}"


def _swap_changes(move: str, stones: Any) -> Any:
    # swap-pieces moves Red's one stone to its mirror image in the long
    # diagonal as a blue stone; swap-sides leaves the stones.
    if move == "swap-sides" or len(stones) != 1:
        return []
    (cell, _), = stones.items()
    mirror = (cell[1], cell[0])
    if mirror == cell:
        return [(cell, PLAYERS[1])]
    return [(cell, ""), (mirror, PLAYERS[1])]


def _structure(size: Tuple[int, int], explanation: Any, stones: Any) -> Any:
    from .picture import page_structure

    return page_structure(size, explanation, stones)


_PICTURES = Pictures(
    # The picture module's HEX_SVG_MAX and HEX_TEXT_MAX (tests/draw check
    # them against the module's).
    svg_max=200, text_max=40,
    header=1, case_tokens=_case_tokens, draw_case=_draw_case,
    page_size=_picture_size, page_refusal=_page_refusal, cells=_picture_cells,
    coordinates=("data-row", "data-col"), centre=_centre, cell_path=_cell_path, frame=_frame,
    labels=_labels, swatch=_swatch, style=_style, size_text=_size_text,
    swap_changes=_swap_changes, structure=_structure,
    module="havhex.hex.picture",
    exports=("hex_svg", "hex_text", "HEX_TEXT_MAX", "HEX_SVG_MAX", "PAGE_HEX_MAX"),
)


def _new_board(size: Any, rule: Any = "official", swap: bool = False) -> Any:
    """A board of ``size`` x ``size``, or of ``(rows, cols)``."""
    rows, cols = size if isinstance(size, tuple) else (size, size)
    return _board().Board(rows, cols, swap)


def _board_size(board: Any) -> int:
    return int(board.rows)


def _win_reason(kinds: Sequence[str]) -> str:
    return "connection"


def _record_size(size: int) -> Tuple[int, int]:
    return (size, size)


# The size of a record without SZ[]: the SGF Hex specification's default.
_SGF_DEFAULT_SIZE = 11


def _record_cell_name(size: Any, move: Tuple[int, int]) -> str:
    """The records' name of ``(row, col)`` (the size plays no part),
    checked by the board's own namer (InputError for a cell of no board,
    TypeError for no cell)."""
    return str(_board().name_of_cell(move))


def _read_size(value: Optional[bytes]) -> Tuple[int, int]:
    """``(rows, cols)`` of a record's ``SZ[]`` value: ``n``, or
    ``columns:rows`` for a board that is not square."""
    if value is None:
        return (_SGF_DEFAULT_SIZE, _SGF_DEFAULT_SIZE)
    parts = value.split(b":")
    if len(parts) > 2:
        from ..errors import shown_bytes

        raise ValueError(f"SZ is not a board size: {shown_bytes(value)}")
    cols = sgf_number(parts[0])
    rows = sgf_number(parts[-1])
    # The board's bound is on its cells with their padding.
    most = _board().MAX_CELLS
    if rows < 1 or cols < 1 or (rows + 2) * (cols + 1) + 4 > most:
        raise ValueError(f"SZ[{sgf_plain(value)}]: a Hex board has 1 to {most} cells")
    return (rows, cols)


def _cells(size: Tuple[int, int]) -> int:
    return size[0] * size[1]


def _setup_board(size: Tuple[int, int], stones: Sequence[Tuple[str, Tuple[int, int]]],
                 mover: Optional[str]) -> Any:
    """A board of ``(rows, cols)`` that starts with ``stones``, ``(colour,
    (row, col))`` pairs, ``mover`` to move (None: as the stones say)."""
    rows, cols = size
    cells = bytearray(rows * cols)
    for colour, (row, col) in stones:
        cells[row * cols + col] = 1 if colour == PLAYERS[0] else 2
    return _board().Board._from_start(rows, cols, True, bytes(cells), mover)


DESCRIPTOR = Descriptor(
    name="hex", title="Hex", players=PLAYERS, swap_move="swap-pieces",
    size_letter="N", default_size=11, min_size=1,
    # A boardsize line of a few bytes must not allocate a board of
    # gigabytes: 128 a side is far past any played size.
    max_size=128, rectangular=True,
    new_board=_new_board, board_size=_board_size, win_reason=_win_reason,
    record_size=_record_size, board_text=_board_text,
    engines={
        "havhex": EngineWords(PLAYERS, cell_name, parse_cell, "swap-pieces", "swap {}"),
        "morat": EngineWords(("white", "black"), cell_name, parse_cell),
        "benzene": EngineWords(("black", "white"), cell_name, parse_cell, "swap-pieces",
                               "param_game allow_swap {}"),
    },
    # The board's other pie rule has no GTP word: the Hex engines' swap is
    # swap-pieces.
    refused_words={"swap-sides": "the swap is swap-pieces"},
    # SGF Hex: GM[11] (a .hsgf file without it says the game too), cells by
    # column letters and row number, SZ[columns:rows] for a rectangle.
    records=RecordFormat(".sgf", ("B", "W"), lambda size: f"GM[11]SZ[{size}]",
                         _record_cell_name, gm="11", implied_by=(".hsgf",),
                         notation="sgf-hex", read_size=_read_size, cells=_cells,
                         setup_board=_setup_board, win_kinds=("chain",)),
    judge="havhex.hex",
    judge_summary="whether a Hex position is possible, and who has won",
    pictures=_PICTURES,
    batch="havhex.hex.batch",
    search="havhex.hex._search",
)
