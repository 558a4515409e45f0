"""The engine's view on the board: each searched cell's win rate, and the
page of a reviewed game with its win-rate curve under the board.

:func:`analysis_svg` draws a position with the win rate the search found
for each move it tried (:class:`havhex.search.Analysis`): the rate in
percent on the cell (``W`` or ``L`` when the search proved the move won or
lost), the cell shaded from red (lost) through yellow to green (won), and
the search's best move outlined.  :func:`review_page` is the page of
:func:`havhex.draw.page.game_page` for a game reviewed by
:func:`havhex.records.review.analyse_record`: under the board, the first
player's win rate after each move as a curve (an inline SVG polyline over
the move numbers, the flagged moves ringed, the move shown marked; a click
on the curve goes to that move) and what the review says of the move
shown; on the board, the search's candidates for the next move.  Both
show the moves the search visited (or proved), the most visited first, at
most ``top`` of them.
"""
from __future__ import annotations

from .. import _svg as svg
from ..search import game_of
from .page import GameSteps, PagePart, game_page, game_steps, position_svg

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

    from ..records.review import GameReview, MoveReview
    from ..search import Analysis

    _Candidate = Tuple[Any, int, float, Optional[str]]

__all__ = ["analysis_svg", "review_page", "rate_label", "rate_colour", "CANDIDATES"]

# The candidates a position shows: enough to see the alternatives to the
# move played, few enough that the board stays readable.
CANDIDATES = 10
# The curve's drawing: its width and height, and the plot's margins.
_CURVE_W, _CURVE_H = 720.0, 150.0
_LEFT, _RIGHT, _TOP, _BOTTOM = 52.0, 10.0, 10.0, 22.0

_STYLE = (
    ".candidate{stroke:#555;stroke-width:.6;fill-opacity:.75;pointer-events:none}"
    ".candidate.best{stroke:#111;stroke-width:2}"
    ".rate{text-anchor:middle;font-size:7px;font-weight:bold;fill:#111;pointer-events:none}"
)
_PAGE_STYLE = (
    "#review-curve{display:block;max-width:100%;height:auto;cursor:pointer}"
    "#review-curve .axis{stroke:#999;stroke-width:1}"
    "#review-curve .even{stroke:#bbb;stroke-width:1;stroke-dasharray:4 3}"
    "#review-curve .curve{fill:none;stroke:#333;stroke-width:1.6}"
    "#review-curve .flagged{fill:#e0115f;stroke:#fff;stroke-width:1}"
    "#review-curve .marker{stroke:#1b64c4;stroke-width:1.5}"
    "#review-curve text{font-size:11px;fill:#444}"
    "#review-move{font-size:14px;margin:4px 0 8px}"
)


def rate_label(rate: float, proven: Optional[str]) -> str:
    """A win rate as a cell shows it: percent, ``W`` or ``L`` when proven."""
    if proven == "win":
        return "W"
    if proven == "loss":
        return "L"
    return f"{rate * 100:.0f}"


def rate_colour(rate: float) -> str:
    """The shade of a win rate: red at 0, yellow at one half, green at 1."""
    return f"hsl({120 * min(max(rate, 0.0), 1.0):.0f},75%,55%)"


def _candidates(analysis: Analysis, cells: Dict[Tuple[int, int], int],
                top: Optional[int]) -> List[_Candidate]:
    """The moves of ``analysis`` a picture shows: cells of the board the
    search visited or proved, the most visited first, at most ``top``."""
    shown = [entry for entry in analysis.moves
             if isinstance(entry[0], tuple) and entry[0] in cells and (entry[1] or entry[3])]
    return shown if top is None else shown[:top]


def _centre_text(pictures: Any, cell: Tuple[int, int]) -> Tuple[str, str]:
    x, y = pictures.centre(cell)
    return svg.number(x), svg.number(y + 7 * 0.36)


def _marks(steps: GameSteps, analysis: Analysis, top: Optional[int]) -> List[str]:
    """SVG elements over the hexagons: each candidate's shade and rate."""
    pictures = steps.descriptor.pictures
    if TYPE_CHECKING:
        # Steps are of a game with pictures.
        assert pictures is not None
    out: List[str] = []
    for move, _, rate, proven in _candidates(analysis, steps.index, top):
        best = " best" if move == analysis.best_move else ""
        x, y = _centre_text(pictures, move)
        out.append(f'<path class="candidate{best}" style="fill:{rate_colour(rate)}" '
                   f'd="{pictures.cell_path(move)}"/>')
        out.append(f'<text class="rate" x="{x}" y="{y}">{rate_label(rate, proven)}</text>')
    return out


def analysis_svg(board: Any, analysis: Analysis, *, top: Optional[int] = None,
                 heading: Optional[str] = None) -> str:
    """The SVG document of ``board`` (a live board; its position is its
    ``moves`` played from the empty board) with ``analysis`` (a search of
    it) on the cells: each move's win rate for the player to move, in
    percent (``W``, ``L`` when proven), the cell shaded by it, the best
    move outlined; the most visited ``top`` moves (None: every move
    visited or proven)."""
    descriptor = game_of(board)
    size = descriptor.board_size(board)
    fresh = descriptor.new_board(size, getattr(board, "rule", "official"), board.swap)
    steps = game_steps(descriptor, size, board.moves, board=fresh,
                       heading=heading or f"{descriptor.title}: the search's win rates")
    pictures = steps.descriptor.pictures
    if TYPE_CHECKING:
        # Steps are of a game with pictures.
        assert pictures is not None
    return position_svg(steps, len(steps.steps), over=_marks(steps, analysis, top),
                        legend=_legend(pictures.swatch, board.to_move), style=_STYLE)


def _shaded(swatch: Callable[[float, float, str], str], rate: float,
            classes: str = "candidate") -> Callable[[float, float], str]:
    """A legend's swatch of ``rate``'s shade: the game's swatch (a
    polygon, as each game draws it) with a style, which wins over the fill
    of its classes; another shape keeps its own fill."""
    def draw(x: float, y: float) -> str:
        return swatch(x, y, classes).replace("<polygon ",
                                             f'<polygon style="fill:{rate_colour(rate)}" ', 1)
    return draw


def _legend(swatch: Callable[[float, float, str], str], mover: str
            ) -> List[Tuple[Callable[[float, float], str], List[str]]]:
    """The legend's rows of the win rates' shades, for ``mover``."""
    who = mover.capitalize()
    return [(_shaded(swatch, 1.0), [f"{who} wins: 100 (W: proven)"]),
            (_shaded(swatch, 0.5), ["an even game: 50"]),
            (_shaded(swatch, 0.0), [f"{who} loses: 0 (L: proven)"]),
            (_shaded(swatch, 0.5, "candidate best"), ["the search's move"])]


# ---------------------------------------------------------------------------
# The page of a reviewed game
# ---------------------------------------------------------------------------

# The part's script: the state is the page's (see PagePart), the figures
# are in #havhex-review.
_SCRIPT = r"""
(function () {
  "use strict";
  var root = document.getElementById("havhex-game");
  var review = JSON.parse(document.getElementById("havhex-review").textContent);
  var board = document.getElementById("board");
  var curve = document.getElementById("review-curve");
  var marker = document.getElementById("review-marker");
  var dot = document.getElementById("review-dot");
  var said = document.getElementById("review-move");
  var svgNS = "http://www.w3.org/2000/svg";
  var layer = document.createElementNS(svgNS, "g");
  layer.setAttribute("class", "candidates");
  board.appendChild(layer);

  function element(name, attributes) {
    var made = document.createElementNS(svgNS, name);
    Object.keys(attributes).forEach(function (key) { made.setAttribute(key, attributes[key]); });
    layer.appendChild(made);
    return made;
  }

  function show(move) {
    while (layer.firstChild) layer.removeChild(layer.firstChild);
    (review.candidates[move] || []).forEach(function (c) {
      var cell = board.querySelector('.cell[data-i="' + c[0] + '"]');
      element("path", {"class": c[5] ? "candidate best" : "candidate",
                       "style": "fill:" + c[4], "d": cell.getAttribute("d")});
      element("text", {"class": "rate", "x": c[1], "y": c[2]}).textContent = c[3];
    });
    var x = review.x[move];
    marker.setAttribute("x1", x);
    marker.setAttribute("x2", x);
    var y = review.y[move];
    dot.style.display = y === null ? "none" : "";
    if (y !== null) {
      dot.setAttribute("cx", x);
      dot.setAttribute("cy", y);
    }
    said.textContent = review.texts[move];
  }

  curve.addEventListener("click", function (event) {
    var box = curve.getBoundingClientRect();
    var at = (event.clientX - box.left) / box.width * review.width;
    var move = Math.round((at - review.x[0]) / review.step);
    move = Math.max(0, Math.min(review.x.length - 1, move));
    root.dispatchEvent(new CustomEvent("havhex-go", {detail: move}));
  });
  root.addEventListener("havhex-move", function (event) { show(Number(event.detail)); });
  show(Number(root.getAttribute("data-move")));
})();
"""


def _curve_point(review: GameReview, index: int, step: float) -> Tuple[float, float]:
    """Where position ``index`` (after ``index`` moves) of the curve is drawn."""
    plot_h = _CURVE_H - _TOP - _BOTTOM
    return _LEFT + index * step, _TOP + (1.0 - review.curve[index]) * plot_h


def _curve_svg(steps: GameSteps, review: GameReview, step: float) -> str:
    """The curve's SVG: the first player's win rate after each move."""
    first, second = (player.capitalize() for player in review.players[:2])
    points = [_curve_point(review, index, step) for index in range(len(review.curve))]
    flagged = [f'<circle class="flagged" cx="{svg.number(x)}" cy="{svg.number(y)}" r="4">'
               f'<title>move {move.number}: loses {move.loss:.3f}</title></circle>'
               for move in review.flagged() for x, y in [points[move.number]]]
    bottom, middle = _CURVE_H - _BOTTOM, _TOP + (_CURVE_H - _TOP - _BOTTOM) / 2
    right = _LEFT + len(steps.steps) * step
    return "".join([
        f'<svg id="review-curve" xmlns="http://www.w3.org/2000/svg" width="{_CURVE_W:g}" '
        f'height="{_CURVE_H:g}" viewBox="0 0 {_CURVE_W:g} {_CURVE_H:g}" role="img" '
        f'aria-label="{svg.escape(first)}\'s win rate after each move">',
        f'<line class="axis" x1="{_LEFT:g}" y1="{_TOP:g}" x2="{_LEFT:g}" y2="{bottom:g}"/>',
        f'<line class="axis" x1="{_LEFT:g}" y1="{bottom:g}" x2="{svg.number(right)}" '
        f'y2="{bottom:g}"/>',
        f'<line class="even" x1="{_LEFT:g}" y1="{middle:g}" x2="{svg.number(right)}" '
        f'y2="{middle:g}"/>',
        f'<text x="4" y="{_TOP + 9:g}">{svg.escape(first)}</text>',
        f'<text x="4" y="{middle + 4:g}">even</text>',
        f'<text x="4" y="{bottom:g}">{svg.escape(second)}</text>',
        f'<text x="{_LEFT:g}" y="{_CURVE_H - 6:g}">move 0</text>',
        f'<text x="{svg.number(right)}" y="{_CURVE_H - 6:g}" text-anchor="end">'
        f'{len(steps.steps)}</text>',
        f'<line id="review-marker" class="marker" x1="{_LEFT:g}" y1="{_TOP:g}" '
        f'x2="{_LEFT:g}" y2="{bottom:g}"/>',
        f'<polyline class="curve" points="{svg.points(points)}"/>',
        *flagged,
        f'<circle id="review-dot" class="marker" r="3.5" cx="{_LEFT:g}" cy="{bottom:g}" '
        f'fill="#1b64c4"/>',
        "</svg>",
    ])


_PROOFS = {"win": "won (proven)", "loss": "lost (proven)"}


def _chance(rate: float, proven: Optional[str]) -> str:
    return _PROOFS[proven] if proven else f"{rate:.3f}"


def _move_text(move: MoveReview) -> str:
    """What the page says of a reviewed move."""
    who = move.colour.capitalize()
    text = (f"Move {move.number}, {who} {move.name}: {who}'s win rate "
            f"{_chance(move.before, move.proven_before)} before, "
            f"{_chance(move.after, move.proven_after)} after (loses {move.loss:.3f}); "
            f"the search's move {move.best_name}")
    return text + ("; flagged" if move.flagged else "")


def _texts(steps: GameSteps, review: GameReview) -> List[str]:
    """What the page says under the curve at each move, 0 to the last."""
    players = review.players
    start = (f"Start: {players[0].capitalize()}'s win rate {review.curve[0]:.3f}"
             if review.curve else "Start")
    texts = [start] + [_move_text(move) for move in review.moves]
    for number in range(len(texts), len(steps.steps) + 1):
        texts.append(f"Move {number}: not reviewed")
    return texts


def _page_candidates(steps: GameSteps, review: GameReview,
                     top: Optional[int]) -> List[List[List[Any]]]:
    """Each position's candidates, as the page's script draws them:
    ``[cell index, x, y, label, shade, best]``."""
    pictures = steps.descriptor.pictures
    if TYPE_CHECKING:
        # Steps are of a game with pictures.
        assert pictures is not None
    analyses = [move.analysis for move in review.moves] + [review.final]
    found: List[List[List[Any]]] = []
    for analysis in analyses:
        shown: List[List[Any]] = []
        if analysis is not None:
            for move, _, rate, proven in _candidates(analysis, steps.index, top):
                x, y = _centre_text(pictures, move)
                shown.append([steps.index[move], x, y, rate_label(rate, proven),
                              rate_colour(rate), int(move == analysis.best_move)])
        found.append(shown)
    return found


_KEY = ("The curve: the first player's win rate after each move, a dot on each flagged "
        "move; click it to go to a move.  On the board: the win rate, in percent, of each "
        "move the search tried for the player to move (W, L: proven), the search's move "
        "outlined.")


def review_page(steps: GameSteps, review: GameReview, move: Optional[int] = None, *,
                top: Optional[int] = CANDIDATES) -> str:
    """The page stepping through ``steps`` (a game's
    :class:`~havhex.draw.page.GameSteps`) reviewed as ``review`` (its
    :class:`~havhex.records.review.GameReview`), opened at ``move``: under
    the board the first player's win rate after each move, on the board
    the search's ``top`` candidates for the next move."""
    positions = max(len(steps.steps), 1)
    step = (_CURVE_W - _LEFT - _RIGHT) / positions
    xs = [svg.number(_LEFT + index * step) for index in range(len(steps.steps) + 1)]
    ys: List[Optional[str]] = [svg.number(_curve_point(review, index, step)[1])
                               for index in range(len(review.curve))]
    ys += [None] * (len(xs) - len(ys))
    data = {"x": xs, "y": ys, "step": step, "width": _CURVE_W,
            "texts": _texts(steps, review),
            "candidates": _page_candidates(steps, review, top)}
    html = (_curve_svg(steps, review, step) + '<p id="review-move" aria-live="polite"></p>'
            f'<p class="keys">{_KEY}</p><script type="application/json" id="havhex-review">'
            f"{svg.script_json(data)}</script>")
    part = PagePart(html, _STYLE + _PAGE_STYLE, _SCRIPT)
    return game_page(steps, move, parts=[part])
