"""The Havannah picture: an SVG drawing of a board with the witness of its
answer, and a text view for small boards.

Hexagons have flat tops; cell ``(x, y)`` has its centre at
``(1.5 (y - x), -sqrt(3)/2 (x + y))`` hexagon radii (SVG's y axis points
down), so ``(x+1, y+1)`` is straight above, ``(x, y+1)`` at two o'clock,
``(x+1, y)`` at ten o'clock and ``(1, 1)`` is the bottom corner
(docs/conventions.md, "Havannah").  The board's geometry comes from
:mod:`havhex.havannah.geometry`.
"""
from __future__ import annotations

import math

from .. import _svg as svg
from ..errors import InputError
from . import geometry
from ._result import KINDS

# The annotations are for type checkers only: drawing does not import typing.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from types import ModuleType
    from typing import (Any, Callable, Dict, FrozenSet, Iterable, Iterator, List, Mapping,
                        Optional, Sequence, Set, Tuple)

    _Point = Tuple[float, float]
    _Cell = Tuple[int, int]
    _Box = Tuple[float, float, float, float]
    _Range = Tuple[int, int]
    # (x range, y range, y - x range)
    _Region = Tuple[_Range, _Range, _Range]
    _LegendItem = Tuple[Callable[[float, float], str], List[str]]

__all__ = [
    "havannah_svg", "havannah_text",
    "HAVANNAH_TEXT_MAX", "HAVANNAH_SVG_STONES_MAX", "HAVANNAH_EDGES",
    # The pieces the game's page (.page) draws with.
    "STYLE", "centre", "cell_path", "board_outline", "outline_box", "witness",
    "structure_marks", "fork_edge_lines", "structure_paths", "run_cells", "swatch",
    # What havhex.draw takes through the game's descriptor.
    "draw_case", "PAGE_HAVANNAH_CELLS_MAX", "PAGE_STYLE", "page_refusal", "page_frame",
    "page_structure",
]

# What a picture can usefully show.  A text view is read on a terminal, an
# SVG in a browser, which slows down beyond some 10**5 elements.
HAVANNAH_TEXT_MAX: int = 20     # --text: largest side S
HAVANNAH_SVG_STONES_MAX: int = 100_000  # SVG: most stones drawn (any S)
_NUMBERED_MAX = 12          # stones carry their move number up to this S
_FULL_BOARD_CELLS = 5000    # boards up to this many cells are drawn whole
_REGION_CELLS = 30000       # otherwise the region round the stones, cell by cell, up to this
_REGION_MARGIN = 3          # hexagons of margin round the stones
_ENCLOSED_CELLS = 30000     # more enclosed hexagons than this are drawn as runs

# The edges' names, edge k at index k in the engine's numbering: an SVG names
# an edge by its condition (data-edge), never by its number.
HAVANNAH_EDGES: Tuple[str, str, str, str, str, str] = geometry.EDGE_CONDITIONS

_R = svg.RADIUS
_H = _R * svg.SQRT3 / 2     # half the height of a flat-topped hexagon
_SQRT3 = svg.SQRT3


def centre(x: int, y: int) -> _Point:
    """The centre of hexagon ``(x, y)`` in drawing units."""
    return 1.5 * _R * (y - x), -_H * (x + y)


_CELL_TAIL = (f"l{svg.number(_R / 2)}-{svg.number(_H)}h{svg.number(_R)}"
              f"l{svg.number(_R / 2)} {svg.number(_H)}l-{svg.number(_R / 2)} {svg.number(_H)}"
              f"h-{svg.number(_R)}z")


def cell_path(x: int, y: int) -> str:
    """The ``d`` of hexagon ``(x, y)``'s path."""
    cx, cy = centre(x, y)
    return f"M{svg.number(cx - _R)} {svg.number(cy)}{_CELL_TAIL}"


def board_outline(size: int, grow: float) -> List[_Point]:
    """The six vertices of the board's outline, ``grow`` drawing units outside
    the outermost hexagon edges, going round the board (one at each corner,
    in the order of geometry.CORNERS_ROUND)."""
    cx, cy = centre(size, size)
    # Corner centres lie sqrt(3) R (S-1) from the centre; the outermost hexagon
    # vertices lie R beyond the line through them, and pushing a side out by d
    # moves the outline's vertices out by 2d/sqrt(3).
    radius = _SQRT3 * _R * (size - 1) + 2 * (_R + grow) / _SQRT3
    result: List[_Point] = []
    corners = geometry.corners(size)
    for x, y in (corners[k] for k in geometry.CORNERS_ROUND):
        px, py = centre(x, y)
        dx, dy = px - cx, py - cy
        length = math.hypot(dx, dy)
        result.append((cx + dx / length * radius, cy + dy / length * radius))
    return result


def _edge_ends(outline: Sequence[_Point], edge: int) -> Tuple[_Point, _Point]:
    """The outline's vertices at the two ends of ``edge``, in the order
    they come going round the board."""
    first, second = (geometry.CORNERS_ROUND.index(corner) for corner in geometry.EDGE_CORNERS[edge])
    if (first + 1) % 6 != second:
        first, second = second, first
    return outline[first], outline[second]


def _region(size: int, stones: Sequence[_Cell]) -> _Region:
    """(x range, y range, y - x range) round the stones, with a margin, on the board."""
    m = _REGION_MARGIN
    xs = [x for x, _ in stones]
    ys = [y for _, y in stones]
    ds = [y - x for x, y in stones]
    (x_lo, x_hi), (y_lo, y_hi), (d_lo, d_hi) = geometry.bounds(size)
    return ((max(x_lo, min(xs) - m), min(x_hi, max(xs) + m)),
            (max(y_lo, min(ys) - m), min(y_hi, max(ys) + m)),
            (max(d_lo, min(ds) - m), min(d_hi, max(ds) + m)))


def _clamped_sum(lo: int, hi: int, shift: int, cap: int) -> int:
    """sum(min(max(u + shift, 0), cap) for u in range(lo, hi + 1)), in O(1)."""
    if lo > hi or cap <= 0:
        return 0
    # u + shift <= 0 adds nothing; 0 < u + shift < cap adds u + shift; the rest cap.
    rising_lo = max(lo, 1 - shift)
    rising_hi = min(hi, cap - 1 - shift)
    total = 0
    if rising_lo <= rising_hi:
        count = rising_hi - rising_lo + 1
        total += count * (rising_lo + rising_hi + 2 * shift) // 2
    capped_lo = max(lo, cap - shift)
    if capped_lo <= hi:
        total += (hi - capped_lo + 1) * cap
    return total


def _region_cells(region: _Region) -> int:
    """The number of hexagons of the region, in O(1): those of the rectangle
    of x and y less those with y - x below or above its range."""
    (x_lo, x_hi), (y_lo, y_hi), (d_lo, d_hi) = region
    if x_lo > x_hi or y_lo > y_hi or d_lo > d_hi:
        return 0
    height = y_hi - y_lo + 1
    below = _clamped_sum(x_lo, x_hi, d_lo - y_lo, height)      # y <= x + d_lo - 1
    above = _clamped_sum(-x_hi, -x_lo, y_hi - d_hi, height)    # y >= x + d_hi + 1
    return max(0, (x_hi - x_lo + 1) * height - below - above)


def _region_extent(region: _Region) -> Tuple[int, int, int, int]:
    """(least y - x, greatest y - x, least x + y, greatest x + y) over the
    hexagons of a non-empty region, in O(1)."""
    (x_lo, x_hi), (y_lo, y_hi), (d_lo, d_hi) = region
    return (max(d_lo, y_lo - x_hi), min(d_hi, y_hi - x_lo),
            max(x_lo + y_lo, 2 * x_lo + d_lo, 2 * y_lo - d_hi),
            min(x_hi + y_hi, 2 * x_hi + d_hi, 2 * y_hi - d_lo))


def _region_rows(region: _Region) -> Iterator[Tuple[int, int, int]]:
    """Yield (x, first y, last y) of the region's rows (constant x)."""
    (x_lo, x_hi), (y_lo, y_hi), (d_lo, d_hi) = region
    for x in range(x_lo, x_hi + 1):
        first = max(y_lo, x + d_lo)
        last = min(y_hi, x + d_hi)
        if first <= last:
            yield x, first, last


def witness(size: int, explanation: Any) -> Dict[str, Any]:
    """The Havannah explanation (an Explanation or its dict) as plain lists:
    the kinds, the move, the bridge's path, the fork's cells and edges, the
    ring's loop and enclosed runs."""
    explanation = (explanation.to_dict() if hasattr(explanation, "to_dict")
                   else dict(explanation or {}))
    kinds = [kind for kind in KINDS if kind in (explanation.get("kinds") or ())]
    move = explanation.get("move")
    answer = explanation.get("answer")
    if answer is None:
        answer = f"{'-'.join(kinds)} in move {move}" if kinds else "none"
    bridge = svg.cell_pairs((explanation.get("bridge") or {}).get("path"))
    fork_info = explanation.get("fork") or {}
    fork = svg.cell_pairs(fork_info.get("cells"))
    ring_info = explanation.get("ring") or {}
    loop = svg.cell_pairs(ring_info.get("loop"))
    enclosed_runs = sorted((int(x), int(first), int(last))
                           for x, first, last in ring_info.get("enclosed_runs") or ())
    # The edges the fork's hexagons lie on, from its cells alone (the witness
    # names no edges).
    fork_edges = sorted({edge for edge in (geometry.edge_of(size, x, y) for x, y in fork
                                           if geometry.on_board(size, x, y))
                         if edge is not None})
    return {
        "answer": str(answer), "kinds": kinds, "move": move,
        "bridge": bridge, "fork": fork, "fork_edges": fork_edges,
        "loop": loop, "enclosed_runs": enclosed_runs,
        "enclosed_count": sum(last - first + 1 for _, first, last in enclosed_runs),
    }


def _drawn_moves(moves: Optional[Iterable[Sequence[Any]]], move: Optional[int]) -> List[_Cell]:
    """The moves on the board: up to the winning move, else all of them."""
    moves = svg.cell_pairs(moves)
    return moves[:move] if move else moves


STYLE: str = svg.COMMON_STYLE + (
    ".frame{fill:#d9c49b;stroke:#7a6440;stroke-width:1.5}"
    ".cell,.swatch{fill:#f7ecd6;stroke:#a8916a;stroke-width:.7}"
    ".corner{fill:#ecd9b2}"
    ".stone{fill:#3a3a3a;stroke:#1c1c1c}"
    ".enclosed{fill:#bfe9d5}"
    ".bridge{fill:#f29a55}"
    ".ring{fill:#5cc7a1}"
    ".fork{fill:#62b6ea}"
    ".other-stone{fill:#fbfbf8;stroke:#6b6b6b}"
    ".last-move{stroke:#1f4fd1;stroke-width:2.2}"
    ".winning-move{stroke:#e0115f;stroke-width:2.2}"
    ".enclosed-run{fill:#bfe9d5}"
    ".bridge-path{fill:none;stroke:#a33b00;stroke-width:3.2;stroke-linecap:round;"
    "stroke-linejoin:round;opacity:.85}"
    ".ring-loop{fill:none;stroke:#00664a;stroke-width:3.2;stroke-linejoin:round;opacity:.85}"
    ".fork-edge{stroke:#0065a8;stroke-width:6;stroke-linecap:round}"
    ".num{fill:#fff;text-anchor:middle}"
    ".num.marked{fill:#111}"
    ".coord{fill:#9b8763;text-anchor:middle}"
    ".overview-board{fill:#efe3c8;stroke:#7a6440;stroke-width:1}"
    ".overview-view{fill:none;stroke:#e0115f;stroke-width:1.5}"
    ".swatch-line{stroke-width:3.2}"
)


def havannah_svg(size: int, moves: Iterable[Sequence[int]],
                 explanation: Optional[Mapping[str, Any]], *, heading: Optional[str] = None,
                 total_moves: Optional[int] = None, others: Iterable[Sequence[int]] = (),
                 last_move: Optional[Sequence[int]] = None) -> str:
    """The SVG picture of a Havannah board of side ``size``.

    ``moves``: the sequence of ``(x, y)``; the stones drawn are those up to
    the winning move (``explanation["move"]``), else all of them.
    ``total_moves``: the number of moves of the case when ``moves`` holds only
    those drawn (default ``len(moves)``).
    ``others``: the other player's stones, drawn light and unnumbered (a live
    board shows both players); ``last_move``: a cell to ring as the move
    played last.
    ``explanation``: the witness dict of :func:`havhex.havannah.explain`.
    Memory follows the picture: the stones, the witness and the hexagons
    drawn one by one, never the area a ring encloses.
    """
    w = witness(size, explanation)
    stones = _drawn_moves(moves, w["move"])
    number_of = {cell: k for k, cell in enumerate(stones, 1)}
    others = set(svg.cell_pairs(others)) - set(number_of)
    last_move = tuple(last_move) if last_move is not None else None
    marks = structure_marks(w)
    enclosed = _RunIndex(w["enclosed_runs"])
    corners = set(geometry.corners(size))
    board_cells = geometry.cell_count(size)
    outline = board_outline(size, grow=0.6 * _R)

    # Which hexagons are drawn one by one, and what the view shows.
    if board_cells <= _FULL_BOARD_CELLS:
        mode = "board"
        region = geometry.bounds(size)
        rows = list(geometry.rows(size))
    elif stones:
        # Decided from the region's bounds: its rows are listed only when its
        # hexagons are drawn one by one (a region of spread-out stones on a
        # huge board has billions of rows).
        region = _region(size, stones)
        if _region_cells(region) <= _REGION_CELLS:
            mode, rows = "region", list(_region_rows(region))
        else:
            mode, rows = "stones", []
    else:
        mode, region, rows = "empty", None, []

    if mode in ("board", "empty"):
        box = outline_box(outline)
    else:
        # The extreme centres of the region's hexagons, from its bounds: a
        # centre lies at (1.5 R (y - x), -H (x + y)).
        if TYPE_CHECKING:
            # A view of the stones' region has one.
            assert region is not None
        d_min, d_max, s_min, s_max = _region_extent(region)
        left, right = 1.5 * _R * d_min, 1.5 * _R * d_max
        top, bottom = -_H * s_max, -_H * s_min
        pad = 2 * _R + 0.01 * max(right - left, bottom - top)
        box = (left - pad, top - pad, right + pad, bottom + pad)

    drawn: Set[_Cell] = set()
    board: List[str] = []
    board.append(f'<polygon class="frame" points="{svg.points(outline)}"/>')
    if mode != "board":
        # The grid pattern only where it can be seen: the board cut to the view
        # (a pattern over the whole of a huge board costs renderers dearly).
        grid = _inner_polygon(board_outline(size, grow=0), box)
        if len(grid) >= 3:
            board.append(f'<polygon class="grid" style="fill:url(#hexgrid)" '
                         f'points="{svg.points(grid)}"/>')
    board.extend(fork_edge_lines(size, w))

    def cell_element(cell: _Cell) -> str:
        x, y = cell
        classes = ["cell"]
        if cell in corners:
            classes.append("corner")
        move = number_of.get(cell)
        if move is not None:
            classes.append("stone")
        elif cell in others:
            classes.append("other-stone")
        if cell == last_move:
            classes.append("last-move")
        kinds = marks.get(cell, ())
        # Fill priority through the stylesheet order: enclosed < bridge < ring < fork.
        classes.extend(kinds)
        if cell in enclosed:
            classes.append("enclosed")
        if move is not None and move == w["move"]:
            classes.append("winning-move")
        extra = f' data-move="{move}"' if move is not None else ""
        return (f'<path class="{" ".join(classes)}" data-x="{x}" data-y="{y}"{extra} '
                f'd="{cell_path(x, y)}"/>')

    winning = stones[w["move"] - 1] if w["move"] else None
    late: List[str] = []
    run_shapes: List[Tuple[int, int, int]]
    if mode in ("board", "region"):
        for x, first, last in rows:
            for y in range(first, last + 1):
                cell = (x, y)
                drawn.add(cell)
                if cell == winning:
                    late.append(cell_element(cell))
                else:
                    board.append(cell_element(cell))
        run_shapes = []
    else:
        extra_cells = set(number_of) | set(marks) | others
        if w["enclosed_count"] <= _ENCLOSED_CELLS:
            extra_cells.update(run_cells(w["enclosed_runs"]))
            run_shapes = []
        else:   # too many to draw one by one: one shape per run
            run_shapes = w["enclosed_runs"]
        for cell in sorted(extra_cells):
            drawn.add(cell)
            if cell == winning:
                late.append(cell_element(cell))
            else:
                board.append(cell_element(cell))
    board.extend(_enclosed_run_shapes(run_shapes))
    board.extend(late)

    board.extend(structure_paths(w))

    # Labels: move numbers on the stones, coordinates in the empty hexagons.
    if size <= _NUMBERED_MAX:
        for cell, move in number_of.items():
            cx, cy = centre(*cell)
            font = 8 if move < 100 else 6.5
            marked = " marked" if cell in marks else ""
            board.append(f'<text class="num{marked}" x="{svg.number(cx)}" y="{svg.number(cy + font * 0.36)}" '
                         f'font-size="{font}">{move}</text>')
        for cell in sorted(drawn - set(number_of) - others):
            cx, cy = centre(*cell)
            board.append(f'<text class="coord" x="{svg.number(cx)}" y="{svg.number(cy + 1.2)}" '
                         f'font-size="3.4">{cell[0]},{cell[1]}</text>')

    # The legend.
    legend, legend_h = _legend(size, w, stones, mode, region, outline, box)
    defs = [_grid_pattern(box)] if mode != "board" else []
    total = len(svg.cell_pairs(moves)) if total_moves is None else total_moves
    subtitle = [f"{heading + ': ' if heading else ''}S = {size}, {total} moves"
                + (f", drawn up to the winning move {w['move']}" if w["move"] else "")]
    layout = svg.Layout(box, legend_h, subtitle)
    desc = (f"Havannah board S = {size}; (1,1) is the bottom corner; "
            f"{len(stones)} stones drawn; answer: {w['answer']}")
    style = STYLE
    if layout.scale * _R < 3:
        # Hexagons of a pixel or less: keep the structures and stones visible.
        unit = 1 / layout.scale
        style += (f".board .bridge-path,.board .ring-loop{{stroke-width:{svg.number(2.5 * unit)}}}"
                  f".board .fork-edge{{stroke-width:{svg.number(5 * unit)}}}"
                  f".board .stone{{stroke-width:{svg.number(1.2 * unit)}}}"
                  f".board .winning-move{{stroke-width:{svg.number(3 * unit)}}}"
                  f".winning-mark{{fill:none;stroke:#e0115f;stroke-width:{svg.number(2.5 * unit)}}}")
        if winning is not None:
            cx, cy = centre(*winning)
            board.append(f'<circle class="winning-mark" cx="{svg.number(cx)}" cy="{svg.number(cy)}" '
                         f'r="{svg.number(9 * unit)}"/>')
    return svg.document(layout, w["answer"], subtitle, style, defs, board, legend, desc)


def outline_box(outline: Sequence[_Point]) -> _Box:
    """The drawing's box round a whole board's outline."""
    xs = [p[0] for p in outline]
    ys = [p[1] for p in outline]
    pad = 1.2 * _R
    return (min(xs) - pad, min(ys) - pad, max(xs) + pad, max(ys) + pad)


def structure_marks(w: Mapping[str, Any]) -> Dict[_Cell, List[str]]:
    """The kinds (bridge, fork, ring) each hexagon of the witness ``w``
    (:func:`witness`'s dict) belongs to: {cell: [kind, ...]}."""
    marks: Dict[_Cell, List[str]] = {}
    for kind, cells in (("bridge", w["bridge"]), ("fork", w["fork"]), ("ring", w["loop"])):
        for cell in cells:
            marks.setdefault(cell, []).append(kind)
    return marks


def fork_edge_lines(size: int, w: Mapping[str, Any]) -> List[str]:
    """Markup of a bar along each side the fork touches, short of the
    corners (drawn under the hexagons)."""
    out: List[str] = []
    inner = board_outline(size, grow=0.3 * _R)
    for edge in w["fork_edges"]:
        (ax, ay), (bx, by) = _edge_ends(inner, edge)
        cut = min(0.5, 1.6 * _R / max(math.hypot(bx - ax, by - ay), 1e-9))
        p = (ax + (bx - ax) * cut, ay + (by - ay) * cut)
        q = (bx + (ax - bx) * cut, by + (ay - by) * cut)
        out.append(f'<line class="fork-edge" data-edge="{HAVANNAH_EDGES[edge]}" '
                   f'x1="{svg.number(p[0])}" y1="{svg.number(p[1])}" '
                   f'x2="{svg.number(q[0])}" y2="{svg.number(q[1])}"/>')
    return out


def structure_paths(w: Mapping[str, Any]) -> List[str]:
    """Markup of the bridge's path and the ring's loop through the hexagon
    centres (drawn over the hexagons)."""
    out: List[str] = []
    if len(w["bridge"]) > 1 and _walk(w["bridge"]):
        out.append(f'<polyline class="bridge-path" points="'
                   f'{svg.points(centre(x, y) for x, y in w["bridge"])}"/>')
    if len(w["loop"]) > 2 and _walk(w["loop"] + w["loop"][:1]):
        out.append(f'<polygon class="ring-loop" points="'
                   f'{svg.points(centre(x, y) for x, y in w["loop"])}"/>')
    return out


_STEPS: FrozenSet[_Cell] = frozenset(geometry.NEIGHBOUR_STEPS)


def _walk(cells: Sequence[_Cell]) -> bool:
    """Is each hexagon a neighbour of the next (a path that can be drawn as a line)?"""
    return all((c[0] - a[0], c[1] - a[1]) in _STEPS for a, c in zip(cells, cells[1:]))


class _RunIndex:
    """Membership in row runs ``(x, first y, last y)`` without a set of cells."""

    def __init__(self, runs: Iterable[Tuple[int, int, int]]) -> None:
        self.rows: Dict[int, List[Tuple[int, int]]] = {}
        for x, first, last in runs:
            self.rows.setdefault(x, []).append((first, last))

    def __contains__(self, cell: _Cell) -> bool:
        import bisect

        x, y = cell
        row = self.rows.get(x)
        if not row:
            return False
        index = bisect.bisect_right(row, (y, float("inf"))) - 1
        return index >= 0 and row[index][0] <= y <= row[index][1]


def run_cells(runs: Iterable[Sequence[int]]) -> List[_Cell]:
    return [(x, y) for x, first, last in runs for y in range(first, last + 1)]


def _enclosed_run_shapes(runs: Iterable[Tuple[int, int, int]]) -> List[str]:
    """One shape per run of enclosed hexagons (constant x, consecutive y)."""
    out: List[str] = []
    for x, first, last in runs:
        a = centre(x, first)
        b = centre(x, last)
        # Hexagon vertices: V3 (-R, 0), V2 (-R/2, -H), V1 (R/2, -H), V0 (R, 0),
        # V5 (R/2, H), V4 (-R/2, H) in SVG coordinates; the run's outline is
        # cut straight from the first hexagon's V2 to the last one's V1.
        points = [(a[0] - _R, a[1]), (a[0] - _R / 2, a[1] - _H), (b[0] + _R / 2, b[1] - _H),
                  (b[0] + _R, b[1]), (b[0] + _R / 2, b[1] + _H), (a[0] - _R / 2, a[1] + _H)]
        out.append(f'<polygon class="enclosed-run" data-x="{x}" data-y1="{first}" '
                   f'data-y2="{last}" points="{svg.points(points)}"/>')
    return out


def _inner_polygon(polygon: List[_Point], box: _Box) -> List[_Point]:
    """The part of a convex polygon inside a rectangle (Sutherland-Hodgman)."""
    min_x, min_y, max_x, max_y = box
    # Each edge's test of a point and its cut of a side, typed so that the
    # lambdas are.
    edges: Tuple[Tuple[Callable[[_Point], bool], Callable[[_Point, _Point], _Point]], ...] = (
        (lambda p: p[0] >= min_x, lambda p, q: _cut_x(p, q, min_x)),
        (lambda p: p[0] <= max_x, lambda p, q: _cut_x(p, q, max_x)),
        (lambda p: p[1] >= min_y, lambda p, q: _cut_y(p, q, min_y)),
        (lambda p: p[1] <= max_y, lambda p, q: _cut_y(p, q, max_y)))
    for inside, cut in edges:
        result: List[_Point] = []
        for index, p in enumerate(polygon):
            q = polygon[index - 1]
            if inside(p):
                if not inside(q):
                    result.append(cut(q, p))
                result.append(p)
            elif inside(q):
                result.append(cut(q, p))
        polygon = result
        if not polygon:
            break
    return polygon


def _cut_x(p: _Point, q: _Point, x: float) -> _Point:
    t = (x - p[0]) / (q[0] - p[0])
    return (x, p[1] + t * (q[1] - p[1]))


def _cut_y(p: _Point, q: _Point, y: float) -> _Point:
    t = (y - p[1]) / (q[1] - p[1])
    return (p[0] + t * (q[0] - p[0]), y)


def _grid_pattern(box: _Box) -> str:
    """A tile of the hexagon grid (3R by sqrt(3) R), aligned with the cell centres.

    The tile's origin is a cell centre next to the view (renderers lose
    precision far from it)."""
    w, h = 3 * _R, 2 * _H
    x0 = math.floor(box[0] / w) * w
    y0 = math.floor(box[1] / h) * h
    d: List[str] = []
    for cx, cy in ((0, 0), (w, 0), (0, h), (w, h), (w / 2, -_H), (w / 2, _H), (w / 2, 3 * _H)):
        d.append(f"M{svg.number(cx - _R)} {svg.number(cy)}{_CELL_TAIL}")
    return (f'<pattern id="hexgrid" patternUnits="userSpaceOnUse" x="{svg.number(x0)}" y="{svg.number(y0)}" '
            f'width="{svg.number(w)}" height="{svg.number(h)}">'
            f'<rect width="{svg.number(w)}" height="{svg.number(h)}" fill="#f7ecd6"/>'
            f'<path d="{"".join(d)}" fill="none" stroke="#b8a47f" stroke-width=".7"/></pattern>')


def swatch(x: float, y: float, classes: str, r: float = 9.0) -> str:
    h = r * _SQRT3 / 2
    points = [(x - r, y), (x - r / 2, y - h), (x + r / 2, y - h), (x + r, y),
              (x + r / 2, y + h), (x - r / 2, y + h)]
    return f'<polygon class="{("swatch " + classes).strip()}" points="{svg.points(points)}"/>'


def _legend(size: int, w: Mapping[str, Any], stones: Sequence[_Cell], mode: str,
            region: Optional[_Region], outline: Sequence[_Point],
            box: _Box) -> Tuple[List[str], float]:
    kinds = w["kinds"]
    items: List[_LegendItem] = [
        (lambda x, y: swatch(x, y, "stone"),
         [f"stone ({len(stones)} drawn)", "numbered by move" if size <= _NUMBERED_MAX else
          "move numbers omitted (S > 12)"]),
    ]
    if w["move"]:
        items.append((lambda x, y: swatch(x, y, "stone winning-move"),
                      [f"the winning move ({w['move']})"]))
    if "bridge" in kinds:
        items.append((lambda x, y: swatch(x, y, "stone bridge")
                      + f'<line class="bridge-path" x1="{x - 9}" y1="{y}" x2="{x + 9}" y2="{y}"/>',
                      ["bridge: a path joining", "two corners"]))
    if "fork" in kinds:
        names = ", ".join(HAVANNAH_EDGES[e] for e in w["fork_edges"])
        items.append((lambda x, y: swatch(x, y, "stone fork"),
                      ["fork: stones joining", "three edges"]))
        items.append((lambda x, y: f'<line class="fork-edge" x1="{x - 9}" y1="{y}" '
                                   f'x2="{x + 9}" y2="{y}"/>',
                      ["edges the fork touches:", names]))
    if "ring" in kinds:
        items.append((lambda x, y: swatch(x, y, "stone ring")
                      + f'<line class="ring-loop" x1="{x - 9}" y1="{y}" x2="{x + 9}" y2="{y}"/>',
                      ["ring: a loop of stones"]))
        items.append((lambda x, y: swatch(x, y, "enclosed"),
                      [f"enclosed empty hexagon ({w['enclosed_count']})"]))
    items.append((lambda x, y: swatch(x, y, ""),
                  ["empty hexagon" + (" (x,y)" if size <= _NUMBERED_MAX else "")]))
    items.append((lambda x, y: swatch(x, y, "corner"), ["corner hexagon"]))
    out, y = svg.legend_rows(items)
    notes = ["(1,1) is the bottom corner;", "(x, y+1) is at two o'clock,", "(x+1, y) at ten o'clock."]
    if mode in ("region", "stones"):
        if TYPE_CHECKING:
            # A view of the stones' region has one.
            assert region is not None
        (x_lo, x_hi), (y_lo, y_hi), _ = region
        notes += ["", "Shown: the region round the", f"stones, x {x_lo}..{x_hi}, y {y_lo}..{y_hi};",
                  "the grid elsewhere is a pattern."]
    out.extend(svg.text_block(0, y + 4, notes, size=12))
    y += 4 + len(notes) * 16
    if mode in ("region", "stones"):
        # An overview of the whole board with the shown region.
        xs = [p[0] for p in outline]
        ys = [p[1] for p in outline]
        span = max(max(xs) - min(xs), max(ys) - min(ys))
        k = 160 / span
        ox, oy = 20 - min(xs) * k, y + 10 - min(ys) * k
        pts = [(ox + px * k, oy + py * k) for px, py in outline]
        out.append(f'<polygon class="overview-board" points="{svg.points(pts)}"/>')
        x0, y0, x1, y1 = box
        out.append(f'<rect class="overview-view" x="{svg.number(ox + x0 * k)}" y="{svg.number(oy + y0 * k)}" '
                   f'width="{svg.number(max((x1 - x0) * k, 1.5))}" '
                   f'height="{svg.number(max((y1 - y0) * k, 1.5))}"/>')
        y += 10 + (max(ys) - min(ys)) * k + 10
    return out, y


# ---------------------------------------------------------------------------
# Havannah as text
# ---------------------------------------------------------------------------

def havannah_text(size: int, moves: Iterable[Sequence[int]],
                  explanation: Optional[Mapping[str, Any]], *,
                  heading: Optional[str] = None) -> str:
    """The board as rows of text (top row first): ``.`` empty, ``o`` stone,
    ``#`` stone of the winning structure, ``*`` enclosed empty hexagon."""
    if size > HAVANNAH_TEXT_MAX:
        raise InputError(f"the text view is for boards up to S = {HAVANNAH_TEXT_MAX}; "
                         f"this one has S = {size} (draw it as SVG instead)")
    w = witness(size, explanation)
    stones = set(_drawn_moves(moves, w["move"]))
    structure = set(w["bridge"]) | set(w["fork"]) | set(w["loop"])
    enclosed = set(run_cells(w["enclosed_runs"]))
    top = 2 * size - 1
    lines = [f"{heading}: {w['answer']}" if heading else w["answer"]]
    # Row r holds the hexagons with x + y = r; column 2 (y - x + S - 1).
    for r in range(2 * top, 1, -1):
        line = [" "] * (2 * (2 * size - 2) + 1)
        for x in range(max(1, r - top), min(top, r - 1) + 1):
            y = r - x
            if not geometry.on_board(size, x, y):
                continue
            cell = (x, y)
            if cell in stones:
                ch = "#" if cell in structure else "o"
            elif cell in enclosed:
                ch = "*"
            else:
                ch = "."
            line[2 * (y - x + size - 1)] = ch
        lines.append("".join(line).rstrip())
    lines.append(". empty  o stone  # stone of the winning structure  * enclosed empty hexagon;"
                 " (1,1) is the bottom corner, (x,y+1) up right, (x+1,y) up left")
    return "\n".join(lines) + "\n"




# ---------------------------------------------------------------------------
# What havhex.draw takes through the game's descriptor (its ``pictures``)
# ---------------------------------------------------------------------------

def draw_case(judge: ModuleType, file: Any, number: int, *, as_text: bool = False,
              heading: Optional[Callable[[str], str]] = None,
              check_size: Optional[Callable[[int, str], object]] = None) -> str:
    """The picture of case ``number`` (1-based) of a judge-format input
    ``file`` (a path or ``"-"``): the SVG document, or with ``as_text`` the
    text view.

    The input is read once (a pipe or ``<(...)`` cannot be read twice) and
    judged as :func:`havhex.havannah.judge_file` judges it, with its faults;
    only the moves drawn (up to the winning move) become Python objects, and
    those are judged again with ``judge.explain`` (``judge`` the module
    :mod:`havhex.havannah`) for their witnesses: the first win is the same,
    the moves before it being the same.  ``heading(source)`` the picture's
    heading; ``check_size(size, source)`` is called before the moves are
    read."""
    from .cases import read_cases

    judged = read_cases(file)
    source = judged.source
    result = judged.result(number)          # (a case the input lacks raises here)
    size = judged.size(number)
    if check_size is not None:
        check_size(size, source)
    limit = HAVANNAH_SVG_STONES_MAX
    # The stones drawn, copied only up to one beyond the limit.
    moves = judged.moves(number, min(result.move or limit + 1, limit + 1))
    if len(moves) > limit:
        if result.move:
            reason = f"case #{number} has {result.move} stones up to its winning move"
        else:
            reason = f"case #{number} has no winning move and over {limit} stones"
        raise InputError(f"{reason}: the picture is for up to {limit} stones", source)
    total = judged.move_count(number) if result.move else len(moves)
    explanation = judge.explain(size, moves)
    title = heading(source) if heading is not None else None
    if as_text:
        return havannah_text(size, moves, explanation, heading=title)
    return havannah_svg(size, moves, explanation, heading=title, total_moves=total)


# Every hexagon of the board is an element of the page.
PAGE_HAVANNAH_CELLS_MAX: int = 5000     # S = 41 has 4,921

# The page's CSS of the hexagons and stones: both colours of stone.
PAGE_STYLE: str = STYLE + (
    ".cell.stone.white{fill:#fbfaf5;stroke:#4a4a4a;stroke-width:.9}"
    ".cell.stone.black{fill:#262626;stroke:#000;stroke-width:.9}"
    ".num.dark{fill:#222}"
)


def page_refusal(size: int) -> Optional[str]:
    """Why a page of the game will not draw a board of base ``size`` (None:
    it draws it)."""
    if geometry.cell_count(size) > PAGE_HAVANNAH_CELLS_MAX:
        return (f"S = {size}: the game's pictures are for boards of up to "
                f"{PAGE_HAVANNAH_CELLS_MAX} hexagons (S = 41)")
    return None


def page_frame(size: int) -> Tuple[List[str], _Box]:
    """``(markup, box)`` of a page's board of base ``size``: its frame, drawn
    under the hexagons, and the drawing's box."""
    outline = board_outline(size, grow=0.6 * _R)
    return [f'<polygon class="frame" points="{svg.points(outline)}"/>'], outline_box(outline)


def page_structure(size: int, explanation: Any, stones: Mapping[_Cell, str]
                   ) -> Tuple[str, Dict[_Cell, List[str]], List[str], List[str]]:
    """``(what, marks, under, over)`` of the winning structure the live
    board's ``explain()`` gives: its kinds (``"bridge-fork"``), ``{cell:
    [classes]}`` of the hexagons of the structure and of those it encloses,
    the fork's edges (under the hexagons) and the bridge's path and the
    ring's loop (over them).  ``stones`` plays no part: the witness has the
    cells."""
    w = witness(size, explanation)
    marks = dict(structure_marks(w))
    for cell in run_cells(w["enclosed_runs"]):
        marks.setdefault(cell, []).append("enclosed")
    return "-".join(w["kinds"]), marks, fork_edge_lines(size, w), structure_paths(w)
