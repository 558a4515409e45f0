"""The Hex picture: an SVG drawing of a board with its chains and possible
last moves, and a text view for small boards.

Hexagons have pointed tops; row ``i`` is drawn half a cell right of row
``i - 1``, so the board is a rhombus leaning right (docs/conventions.md,
"Hex").
"""
from __future__ import annotations

from .. import _svg as svg
from ..errors import InputError

# The annotations are for type checkers only: drawing does not import typing.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from types import ModuleType
    from typing import (Any, Callable, Dict, Iterable, List, Mapping, Optional, Sequence, Set,
                        Tuple, Union)

    from .._explanation import Explanation

    _Cell = Tuple[int, int]
    _Box = Tuple[float, float, float, float]
    _Chain = Tuple[Optional[str], List[_Cell]]

__all__ = [
    "hex_svg", "hex_text", "HEX_TEXT_MAX", "HEX_SVG_MAX",
    # The pieces the game's page (.page) draws with.
    "STYLE", "centre", "cell_path", "witness", "sides", "chain_lines", "axis_labels", "swatch",
    # What havhex.draw takes through the game's descriptor.
    "draw_case", "PAGE_HEX_MAX", "PAGE_STYLE", "page_refusal", "page_frame", "page_labels",
    "page_structure",
]

# What a picture can usefully show: every cell is drawn.
HEX_TEXT_MAX: int = 40          # --text: largest side N
HEX_SVG_MAX: int = 200          # SVG: largest side N
_LABELLED_MAX = 40          # the axes are labelled up to this side

_R = svg.RADIUS
_SQRT3 = svg.SQRT3
_W = _SQRT3 * _R            # width of a pointy-topped hexagon


def centre(i: int, j: int) -> Tuple[float, float]:
    """The centre of cell ``(i, j)`` in drawing units."""
    return _W * (j + i / 2), 1.5 * _R * i


_CELL_TAIL = (f"l{svg.number(_W / 2)} {svg.number(_R / 2)}v{svg.number(_R)}"
              f"l-{svg.number(_W / 2)} {svg.number(_R / 2)}"
              f"l-{svg.number(_W / 2)}-{svg.number(_R / 2)}v-{svg.number(_R)}z")


def cell_path(i: int, j: int) -> str:
    """The ``d`` of cell ``(i, j)``'s path."""
    cx, cy = centre(i, j)
    return f"M{svg.number(cx)} {svg.number(cy - _R)}{_CELL_TAIL}"


def witness(rows: Sequence[str],
            explanation: Union[Explanation, Mapping[str, Any]]) -> Dict[str, Any]:
    """A Hex explanation (an Explanation or a dict) as a plain dict: the
    answer, reason, last moves, ``(colour, cells)`` chains and stone counts."""
    red = sum(row.count("R") for row in rows)
    blue = sum(row.count("B") for row in rows)
    letter_of: Dict[Optional[str], str] = {"red": "R", "blue": "B", "R": "R", "B": "B",
                                           "r": "R", "b": "B"}
    if isinstance(explanation, dict):
        answer = str(explanation.get("answer"))
        reason = explanation.get("reason")
        last_moves = svg.cell_pairs(explanation.get("last_moves"))
        winner = letter_of.get(explanation.get("winner"))
        chains: List[_Chain] = []
        if explanation.get("chain"):
            chains.append((winner, svg.cell_pairs(explanation["chain"])))
        for chain in explanation.get("chains") or ():
            if isinstance(chain, dict):
                chains.append((letter_of.get(chain.get("colour") or chain.get("color")),
                               svg.cell_pairs(chain.get("cells"))))
            elif (len(chain) == 2 and isinstance(chain[0], str)):
                chains.append((letter_of.get(chain[0]), svg.cell_pairs(chain[1])))
            else:
                chains.append((None, svg.cell_pairs(chain)))
    else:
        if TYPE_CHECKING:
            # Not a dict: an Explanation.
            assert isinstance(explanation, Explanation)
        result = explanation.result
        answer = str(result)
        reason = result.reason
        last_moves = sorted(result.last_moves)
        chains = [(letter_of.get(colour), svg.cell_pairs(cells)) for colour, cells in explanation.chains]
    # A chain's colour: the stones it runs over.
    chains = [(colour or (rows[cells[0][0]][cells[0][1]] if cells else None), cells)
              for colour, cells in chains]
    winner = {"Red wins": "R", "Blue wins": "B"}.get(answer)
    return {"answer": answer, "reason": reason, "last_moves": last_moves, "chains": chains,
            "red": red, "blue": blue, "winner": winner}


_NAME: Dict[Optional[str], str] = {"R": "Red", "B": "Blue"}


def _stones(count: int) -> str:
    return "1 stone" if count == 1 else f"{count} stones"


def _reason_text(w: Mapping[str, Any]) -> Optional[str]:
    reason = w["reason"]
    if reason == "counts":
        return (f"Red has {_stones(w['red'])} and Blue {w['blue']}: "
                f"the counts may differ by at most one")
    if reason == "both-connected":
        return "both Red and Blue join their sides: the game ends at the first win"
    if reason == "loser-moved-last":
        winner = w["chains"][0][0] if w["chains"] else None
        if winner in _NAME:
            loser = "B" if winner == "R" else "R"
            return (f"{_NAME[winner]} joins its sides with fewer stones than {_NAME[loser]}: "
                    f"{_NAME[loser]} moved after the game had ended")
        return "the winner has fewer stones: the loser moved after the game had ended"
    if reason == "no-single-last-move":
        winner = w["chains"][0][0] if w["chains"] else None
        who = _NAME.get(winner, "the winner's")
        return (f"two {who} chains share no stone: no single last move "
                f"can have completed the win")
    return None


STYLE: str = svg.COMMON_STYLE + (
    ".side-red,.red{fill:#d7263d}"
    ".side-blue,.blue{fill:#1b64c4}"
    ".cell,.swatch{fill:#f4ecdc;stroke:#6e6250;stroke-width:.8}"
    ".cell.red,.swatch.red{fill:#d7263d}"
    ".cell.blue,.swatch.blue{fill:#1b64c4}"
    ".chain-line{fill:none;stroke:#ffd23f;stroke-width:3.2;stroke-linecap:round;"
    "stroke-linejoin:round}"
    ".chain-line.second{stroke:#fff;stroke-dasharray:5 3}"
    ".last-move-mark{fill:#fff;stroke:#111;stroke-width:1.6}"
    ".played-last{fill:none;stroke:#f5d90a;stroke-width:2.4}"
    ".label{fill:#555;text-anchor:middle}"
)


def hex_svg(rows: Sequence[str], explanation: Union[Explanation, Mapping[str, Any]], *,
            heading: Optional[str] = None, last_move: Optional[Sequence[int]] = None) -> str:
    """The SVG picture of a Hex board (``rows``: N strings of ``R``, ``B``, ``.``).

    ``explanation``: :func:`havhex.hex.explain`'s Explanation, or a dict with
    ``answer``, ``reason``, ``winner``, ``chain``/``chains`` and ``last_moves``.
    ``last_move``: a cell ``(row, col)`` to ring as the move played last (a
    live board knows it).
    """
    rows = [str(row) for row in rows]
    n = len(rows)
    if n > HEX_SVG_MAX:
        raise InputError(f"the picture is for boards up to N = {HEX_SVG_MAX}; "
                         f"this one has N = {n}")
    w = witness(rows, explanation)
    chain_of: Dict[_Cell, int] = {}
    for index, (_, cells) in enumerate(w["chains"]):
        for cell in cells:
            chain_of.setdefault(cell, index)
    last = set(w["last_moves"])

    labels = n <= _LABELLED_MAX
    board, box = sides(n, n, labels)
    for i, row in enumerate(rows):
        for j, ch in enumerate(row):
            classes = ["cell"]
            if ch == "R":
                classes.append("red")
            elif ch == "B":
                classes.append("blue")
            cell = (i, j)
            if cell in chain_of:
                classes.append("chain")
                if chain_of[cell]:
                    classes.append("second")
            if cell in last:
                classes.append("last-move")
            board.append(f'<path class="{" ".join(classes)}" data-row="{i}" data-col="{j}" '
                         f'd="{cell_path(i, j)}"/>')
    board.extend(chain_lines(w["chains"]))
    if last_move is not None:
        cx, cy = centre(*last_move)
        board.append(f'<circle class="played-last" cx="{svg.number(cx)}" cy="{svg.number(cy)}" '
                     f'r="6"/>')
    for i, j in sorted(last):
        cx, cy = centre(i, j)
        board.append(f'<circle class="last-move-mark" cx="{svg.number(cx)}" cy="{svg.number(cy)}" r="3.6"/>')
    if labels:
        board.extend(axis_labels(n, n))

    items: List[Tuple[Callable[[float, float], str], List[str]]] = [
        (lambda x, y: swatch(x, y, "red"), [f"Red stone ({w['red']})"]),
        (lambda x, y: swatch(x, y, "blue"), [f"Blue stone ({w['blue']})"]),
        (lambda x, y: swatch(x, y, ""), ["empty cell"]),
        (lambda x, y: f'<rect class="side-red" x="{x - 9}" y="{y - 4}" width="18" height="8"/>',
         ["Red joins the top and", "bottom rows"]),
        (lambda x, y: f'<rect class="side-blue" x="{x - 9}" y="{y - 4}" width="18" height="8"/>',
         ["Blue joins the left and", "right columns"]),
    ]
    if w["chains"]:
        first_label = {"both-connected": "Red's chain", "no-single-last-move": "a winning chain",
                       "loser-moved-last": f"{_NAME.get(w['chains'][0][0], 'the')} chain"
                                           " joining its sides"}
        items.append((lambda x, y: f'<line class="chain-line" x1="{x - 9}" y1="{y}" '
                                   f'x2="{x + 9}" y2="{y}"/>',
                      [first_label.get(w["reason"], "the winning chain")]))
    if len(w["chains"]) > 1:
        second_label = {"both-connected": "Blue's chain"}.get(
            w["reason"], "a second chain, sharing no stone")
        items.append((lambda x, y: f'<rect x="{x - 10}" y="{y - 4}" width="20" height="8" '
                                   f'fill="#888"/><line class="chain-line second" x1="{x - 9}" '
                                   f'y1="{y}" x2="{x + 9}" y2="{y}"/>',
                      [second_label]))
    if last_move is not None:
        items.append((lambda x, y: f'<circle class="played-last" cx="{x}" cy="{y}" r="5"/>',
                      ["the move played last"]))
    if last:
        items.append((lambda x, y: f'<circle class="last-move-mark" cx="{x}" cy="{y}" r="5"/>',
                      [f"possible last move ({len(last)})"]))
    legend, legend_h = svg.legend_rows(items)
    notes = ["rows from the top, columns", "from the left, from 0"]
    reason = _reason_text(w)
    legend.extend(svg.text_block(0, legend_h + 4, notes, size=12))
    legend_h += 4 + len(notes) * 16
    subtitle = [(f"{heading}: " if heading else "") + f"N = {n}"]
    if reason:
        subtitle.append(f"{w['reason']}: {reason}")
    layout = svg.Layout(box, legend_h, subtitle)
    desc = f"Hex board N = {n}; answer: {w['answer']}" + (f" ({w['reason']})" if w["reason"] else "")
    return svg.document(layout, w["answer"], subtitle, STYLE, [], board, legend, desc)


_FRAME = 0.55 * _R          # the coloured sides' width beyond the hexagons
_D = _R + _FRAME


def sides(n_rows: int, n_cols: int, labels: bool) -> Tuple[List[str], _Box]:
    """The four coloured sides of an ``n_rows`` x ``n_cols`` board (Red's
    top and bottom, Blue's left and right) as markup, and the drawing's box
    (with room for the labels when ``labels``)."""
    d = _D
    corners = {
        "tl": (centre(0, 0), (-_SQRT3 * d, -d)),
        "tr": (centre(0, n_cols - 1), (d / _SQRT3, -d)),
        "br": (centre(n_rows - 1, n_cols - 1), (_SQRT3 * d, d)),
        "bl": (centre(n_rows - 1, 0), (-d / _SQRT3, d)),
    }
    outer = {k: (c[0] + v[0], c[1] + v[1]) for k, (c, v) in corners.items()}
    mid = ((outer["tl"][0] + outer["br"][0]) / 2, (outer["tl"][1] + outer["br"][1]) / 2)
    label_room = 2.2 * _R if labels else 0
    xs = [p[0] for p in outer.values()]
    ys = [p[1] for p in outer.values()]
    box = (min(xs) - 4 - label_room, min(ys) - 4 - label_room, max(xs) + 4, max(ys) + 4)
    out: List[str] = []
    for side, a, b, colour in (("top", "tl", "tr", "red"), ("right", "tr", "br", "blue"),
                               ("bottom", "br", "bl", "red"), ("left", "bl", "tl", "blue")):
        out.append(f'<polygon class="side side-{colour}" data-side="{side}" '
                   f'points="{svg.points((outer[a], outer[b], mid))}"/>')
    return out, box


def chain_lines(chains: Iterable[Tuple[Optional[str], Sequence[_Cell]]]) -> List[str]:
    """Markup of the chains, ``(colour, cells)`` pairs, through the hexagon
    centres; the second and later ones dashed."""
    out: List[str] = []
    for index, (_, cells) in enumerate(chains):
        second = " second" if index else ""
        if len(cells) == 1:
            cx, cy = centre(*cells[0])
            out.append(f'<circle class="chain-line{second}" cx="{svg.number(cx)}" '
                       f'cy="{svg.number(cy)}" r="3"/>')
        elif cells:
            out.append(f'<polyline class="chain-line{second}" points="'
                       f'{svg.points(centre(i, j) for i, j in cells)}"/>')
    return out


def axis_labels(n_rows: int, n_cols: int) -> List[str]:
    """The column numbers above the board and the row numbers left of it."""
    out: List[str] = []
    for j in range(n_cols):
        cx, _ = centre(0, j)
        out.append(f'<text class="label" x="{svg.number(cx)}" y="{svg.number(-_R - _FRAME - 4)}" '
                   f'font-size="7">{j}</text>')
    for i in range(n_rows):
        cx, cy = centre(i, 0)
        x = cx - _W / 2 - 2 * _D / _SQRT3 - 6
        out.append(f'<text class="label" x="{svg.number(x)}" y="{svg.number(cy + 2.5)}" '
                   f'font-size="7">{i}</text>')
    return out


def swatch(x: float, y: float, classes: str, r: float = 9.0) -> str:
    half = r * _SQRT3 / 2
    points = [(x, y - r), (x + half, y - r / 2), (x + half, y + r / 2), (x, y + r),
              (x - half, y + r / 2), (x - half, y - r / 2)]
    return f'<polygon class="{("swatch " + classes).strip()}" points="{svg.points(points)}"/>'


def hex_text(rows: Sequence[str], explanation: Union[Explanation, Mapping[str, Any]], *,
             heading: Optional[str] = None) -> str:
    """The board as a rhombus leaning right: ``R``/``B``/``.``, the chain in
    lower case, ``*`` for the possible last moves."""
    rows = [str(row) for row in rows]
    n = len(rows)
    if n > HEX_TEXT_MAX:
        raise InputError(f"the text view is for boards up to N = {HEX_TEXT_MAX}; "
                         f"this one has N = {n} (draw it as SVG instead)")
    w = witness(rows, explanation)
    chain = {cell for _, cells in w["chains"] for cell in cells}
    last = set(w["last_moves"])
    answer = w["answer"] + (f" ({w['reason']})" if w["reason"] else "")
    lines = [f"{heading}: {answer}" if heading else answer]
    width = len(str(n - 1))
    lines.append(" " * (width + 1) + " ".join(str(j % 10) for j in range(n)))
    for i, row in enumerate(rows):
        cells: List[str] = []
        for j, ch in enumerate(row):
            if (i, j) in last:
                ch = "*"
            elif (i, j) in chain:
                ch = ch.lower()
            cells.append(ch)
        lines.append(f"{i:>{width}} " + " " * i + " ".join(cells))
    reason = _reason_text(w)
    if reason:
        lines.append(reason)
    lines.append("R red  B blue  . empty  r/b chain  * possible last move;"
                 " Red joins top and bottom, Blue left and right")
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------------------
# What havhex.draw takes through the game's descriptor (its ``pictures``)
# ---------------------------------------------------------------------------

def draw_case(judge: ModuleType, file: Any, number: int, *, as_text: bool = False,
              heading: Optional[Callable[[str], str]] = None,
              check_size: Optional[Callable[[int, str], object]] = None) -> str:
    """The picture of case ``number`` (1-based) of a judge-format input
    ``file`` (a path or ``"-"``, read once): the SVG document, or with
    ``as_text`` the text view, the witness from ``judge.explain``
    (``judge`` the module :mod:`havhex.hex`).  ``heading(source)`` the
    picture's heading; ``check_size(size, source)`` is called before the
    rows are read."""
    from .cases import read_boards

    boards = read_boards(file)
    size = boards.size(number)              # (a case the input lacks raises here)
    if check_size is not None:
        check_size(size, boards.source)
    rows = boards.rows(number)
    explanation = judge.explain(rows)
    title = heading(boards.source) if heading is not None else None
    if as_text:
        return hex_text(rows, explanation, heading=title)
    return hex_svg(rows, explanation, heading=title)


PAGE_HEX_MAX: int = HEX_SVG_MAX     # a page's longest side

# The page's CSS of the hexagons and stones: the stones' numbers in white.
PAGE_STYLE: str = STYLE + ".num{fill:#fff;text-anchor:middle}"


def page_refusal(size: Tuple[int, int]) -> Optional[str]:
    """Why a page of the game will not draw a board of ``(rows, cols)``
    (None: it draws it)."""
    if max(size) > PAGE_HEX_MAX:
        return (f"a {size[0]} x {size[1]} board: the game's pictures are for "
                f"boards up to {PAGE_HEX_MAX} x {PAGE_HEX_MAX}")
    return None


def page_frame(size: Tuple[int, int]) -> Tuple[List[str], _Box]:
    """``(markup, box)`` of a page's board of ``(rows, cols)``: its coloured
    sides, drawn under the hexagons, and the drawing's box."""
    rows, cols = size
    return sides(rows, cols, max(rows, cols) <= _LABELLED_MAX)


def page_labels(size: Tuple[int, int]) -> List[str]:
    """The axes' labels of a page's board of ``(rows, cols)``, over the
    hexagons (none on a board too large for them)."""
    if max(size) <= _LABELLED_MAX:
        return axis_labels(*size)
    return []


def page_structure(size: Tuple[int, int], explanation: Any, stones: Mapping[_Cell, str]
                   ) -> Tuple[str, Dict[_Cell, List[str]], List[str], List[str]]:
    """``(what, marks, under, over)`` of the winning chains the live board's
    ``explain()`` gives, with ``stones`` (``{cell: colour}``) at the win for
    the stone counts: ``"a chain"``, ``{cell: [classes]}`` of the chains'
    hexagons (a cell of two chains is the first one's), nothing under the
    hexagons and the chains' lines over them."""
    letter: Dict[Optional[str], str] = {"red": "R", "blue": "B"}
    rows = ["".join(letter.get(stones.get((i, j)), ".") for j in range(size[1]))
            for i in range(size[0])]
    w = witness(rows, explanation)
    marks: Dict[_Cell, List[str]] = {}
    for number, (_, chain) in enumerate(w["chains"]):
        for cell in chain:
            marks.setdefault(cell, ["chain"] + (["second"] if number else []))
    return "a chain", marks, [], chain_lines(w["chains"])
