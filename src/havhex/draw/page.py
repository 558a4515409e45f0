"""A game move by move: both players' stones after each move, and the
winning structure from the winning move on.

:func:`game_steps` replays a game's moves on a live board (the game's
descriptor's ``new_board``), which knows the rules (whose turn it is, what a
swap does, when the game is won), and keeps what each move changes.
:func:`position_svg` draws one position of it as an SVG document;
:func:`game_page` writes one self-contained HTML page (inline SVG, CSS and
script: nothing is fetched) that steps through the game with buttons and the
arrow keys.

The hexagons, the board's frame and the witness's paths come from the
game's descriptor (its ``pictures``, :class:`havhex.descriptor.Pictures`,
which draws with the game's picture module); this module adds the second
colour and the steps.  In the page, the root element ``#havhex-game`` carries
the state: ``data-move`` (the move shown, 0 for the empty board),
``data-moves`` (the number of moves), ``data-win`` (the winning move, or
empty) and ``data-structure`` (``shown`` from the winning move on, else
``hidden``); each hexagon holding a stone carries ``data-stone`` (its colour)
besides the two data attributes of its cell (the descriptor's
``pictures.coordinates``: ``data-x``/``data-y`` for Havannah,
``data-row``/``data-col`` for Hex).  Moves are counted as
:func:`havhex.records.replay` counts them: swaps are moves, a resignation, a
forfeit or a pass is not.
"""
from __future__ import annotations

from .. import _svg as svg
from .. import games
from ..descriptor import Descriptor
from ..errors import InputError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Callable, Dict, Iterable, List, Optional, Sequence, Tuple, Union

    from .._explanation import Explanation

    _Cell = Tuple[int, int]
    _Size = Union[int, Tuple[int, int]]
    # (cell index, colour): the colour a move leaves on a hexagon ("" none).
    _Change = Tuple[int, str]
    _Step = Tuple[str, Tuple[_Change, ...]]
    _Box = Tuple[float, float, float, float]

    # The games' page limits, found through the descriptors (__getattr__).
    PAGE_HAVANNAH_CELLS_MAX: int
    PAGE_HEX_MAX: int

__all__ = ["GameSteps", "PagePart", "game_steps", "position_svg", "game_page", "NOT_MOVES",
           "PAGE_HAVANNAH_CELLS_MAX", "PAGE_HEX_MAX"]

# A record's moves that put nothing on the board and are not counted.
NOT_MOVES: Tuple[str, str, str] = ("resign", "forfeit", "pass")
_NUMBERS_MAX = 999                  # stones carry their move number up to this many moves

_R = svg.RADIUS


def picture_module_name(name: str) -> Any:
    """A name of a game's picture module (``havannah_svg``,
    ``PAGE_HEX_MAX``...) that havhex.draw and this module offered before
    the games described their pictures, found through the descriptors;
    None for a name no game's pictures export."""
    import importlib

    for game in games.names():
        pictures = games.get(game).pictures
        if pictures is not None and pictures.module and name in pictures.exports:
            return getattr(importlib.import_module(pictures.module), name)
    return None


def __getattr__(name: str) -> Any:
    # The games' page limits this module offered before the games described
    # their pictures (each picture module's now).
    found = picture_module_name(name) if name in __all__ else None
    if found is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return found


def pictured(game: Union[str, Descriptor], cases: bool = False) -> Descriptor:
    """The :class:`~havhex.descriptor.Descriptor` of ``game`` (a game's name
    or its descriptor) when havhex draws it: it has ``pictures``, and with
    ``cases`` pictures of a case of its judge's input too.  Otherwise
    :class:`havhex.InputError`, naming the games drawn."""
    descriptor = game
    if not isinstance(game, Descriptor):
        try:
            descriptor = games.get(game)
        except (TypeError, ValueError):
            raise InputError(f"unknown game {str(game)[:40]!r}: draw {_drawn(cases)}") from None
    if TYPE_CHECKING:
        # The descriptor given, or the one games.get gives.
        assert isinstance(descriptor, Descriptor)
    pictures = descriptor.pictures
    if pictures is None:
        raise InputError(f"{descriptor.title} has no pictures: draw {_drawn(cases)}")
    if cases and (pictures.draw_case is None or descriptor.judge is None):
        raise InputError(f"{descriptor.title} has no pictures of a case: "
                         f"draw {_drawn(cases)}")
    return descriptor


def _drawn(cases: bool) -> str:
    """The names of the games havhex draws (with ``cases``: their cases),
    as ``"a or b"``."""
    drawn: List[str] = []
    for name in games.names():
        try:
            pictures = games.get(name).pictures
        except (ImportError, ValueError):   # an installed game that does not load
            continue
        if pictures is not None and (pictures.draw_case is not None or not cases):
            drawn.append(name)
    return " or ".join(drawn) or "no game"


class GameSteps:
    """A replayed game: the board's hexagons and, per move, what it changed.

    ``game`` the game's name (``"havannah"``, ``"hex"``) and ``descriptor``
    its :class:`~havhex.descriptor.Descriptor`; ``size`` as the game's
    ``pictures.page_size`` gives it (the base S for Havannah, ``(rows,
    cols)`` for Hex); ``cells`` the hexagons in drawing order;
    ``steps`` one ``(label, changes)`` per move, ``changes`` a tuple of
    ``(cell index, colour)`` (colour ``""``: the stone leaves);
    ``win`` the winning move (1-based) or None, ``winner`` its colour;
    ``answer`` what was won (``"bridge in move 6"``, ``"Red wins"``) or None;
    ``marks`` ``{cell index: classes}`` of the winning structure;
    ``winning_cell`` the index of the winning move's hexagon (or None);
    ``illegal`` None or ``(move number, reason)`` of the move the replay
    stopped at; ``start`` the ``(cell index, colour)`` stones on the board
    before the first move (a record's setup); ``ending`` how the record
    ends when its last move is a resignation, a forfeit or a pass
    (``"Black resigns"``), else None.
    """

    game: str
    descriptor: Descriptor
    size: _Size
    cells: List[_Cell]
    index: Dict[_Cell, int]
    steps: List[_Step]
    win: Optional[int]
    winner: Optional[str]
    answer: Optional[str]
    marks: Dict[int, str]
    winning_cell: Optional[int]
    under: List[str]
    over: List[str]
    illegal: Optional[Tuple[int, str]]
    heading: str
    start: Tuple[_Change, ...]
    ending: Optional[str]

    def __init__(self, game: Union[str, Descriptor], size: _Size, cells: List[_Cell],
                 steps: List[_Step], win: Optional[int], winner: Optional[str],
                 answer: Optional[str], marks: Dict[int, str], winning_cell: Optional[int],
                 under: List[str], over: List[str], illegal: Optional[Tuple[int, str]],
                 heading: str, start: Iterable[_Change] = (),
                 ending: Optional[str] = None) -> None:
        self.descriptor = pictured(game)
        self.game = self.descriptor.name
        self.ending = ending
        self.start = tuple(start)
        self.size = size
        self.cells = cells
        self.index = {cell: i for i, cell in enumerate(cells)}
        self.steps = steps
        self.win = win
        self.winner = winner
        self.answer = answer
        self.marks = marks
        self.winning_cell = winning_cell
        self.under = under      # witness markup under the hexagons (fork edges)
        self.over = over        # witness markup over them (paths, chains)
        self.illegal = illegal
        self.heading = heading

    @property
    def players(self) -> Tuple[str, ...]:
        return self.descriptor.players

    def stones(self, move: int) -> List[str]:
        """The colour on each hexagon after ``move`` moves (a list, ``""`` empty)."""
        return _stones_after(self.start, self.steps, len(self.cells), move)

    def numbers(self) -> List[Tuple[int, int, int, Optional[int]]]:
        """``(cell index, move number, first move shown, move it leaves or None)``
        of each stone's number: a swap that changes a stone's colour keeps its
        number, a stone that leaves takes its number with it."""
        shown: Dict[int, int] = {}
        out: List[List[Any]] = []
        for move, (_, changes) in enumerate(self.steps, 1):
            for index, colour in changes:
                if colour == "":
                    if index in shown:
                        out[shown.pop(index)][3] = move
                elif index not in shown:
                    shown[index] = len(out)
                    out.append([index, move, move, None])
        return [tuple(item) for item in out]

    def default_move(self) -> int:
        """The move a picture shows unless told: the winning move, else the last."""
        return self.win if self.win is not None else len(self.steps)

    def summary(self) -> str:
        """One line: the board, the moves and the result as played."""
        if TYPE_CHECKING:
            # Steps are of a game with pictures (pictured).
            assert self.descriptor.pictures is not None
        board = f"{self.descriptor.title} {self.descriptor.pictures.size_text(self.size)}"
        words = [board, f"{len(self.steps)} moves"]
        if self.answer:
            if TYPE_CHECKING:
                # A game with an answer has a winner.
                assert self.winner is not None
            words.append(f"{self.winner.capitalize()} wins: {self.answer}")
        else:
            words.append("no winning structure")
        if self.ending:
            words.append(f"{self.ending} after move {len(self.steps)}")
        if self.illegal:
            words.append(f"move {self.illegal[0]} is illegal ({self.illegal[1]}): "
                         f"the replay stops before it")
        return "; ".join(words)


_ENDINGS = {"resign": "resigns", "forfeit": "forfeits", "pass": "passes"}


def _stones_after(start: Iterable[_Change], steps: Sequence[_Step], cells: int,
                  move: Optional[int]) -> List[str]:
    stone = [""] * cells
    for index, colour in start:
        stone[index] = colour
    for _, changes in steps[:move]:
        for index, colour in changes:
            stone[index] = colour
    return stone


def _colour_name(colour: str) -> str:
    return colour.capitalize()


def _cell_of(move: Any) -> Optional[_Cell]:
    """``move`` as a pair of ints, or None when it is no cell."""
    if isinstance(move, (tuple, list)) and len(move) == 2 \
            and all(isinstance(v, int) and not isinstance(v, bool) for v in move):
        return (int(move[0]), int(move[1]))
    return None


def game_steps(game: Union[str, Descriptor], size: _Size, moves: Iterable[Any], *,
               rule: str = "official", swap: bool = True, board: Any = None,
               setup: Iterable[Tuple[str, Tuple[int, int]]] = (), heading: Optional[str] = None,
               source: Optional[str] = None) -> GameSteps:
    """Replay ``moves`` and keep what each changes (a :class:`GameSteps`).

    ``game``: the game's name or its :class:`~havhex.descriptor.Descriptor`,
    whose ``pictures`` draw it (``"havannah"``: ``size`` the base S;
    ``"hex"``: ``size`` N or ``(rows, cols)``).  ``moves``: cells in the
    live board's coordinates, swaps (``"swap"``, ``"swap-pieces"``,
    ``"swap-sides"``), and ``"resign"``, ``"forfeit"``, ``"pass"``, which
    are skipped; ``(letter, move)`` pairs (a record's moves, the letters
    the descriptor's ``records.letters``) are taken too.  ``board``: a
    fresh live board to play on (default: the descriptor's ``new_board`` of
    ``size``, ``rule`` and ``swap``); ``setup``: the ``(letter or colour,
    cell)`` stones on it before the first move (a record's AB[]/AW[], on the
    ``board`` given).  Moves after the winning one are drawn too, the colours alternating; the
    replay stops before an illegal move (kept in ``illegal``).
    """
    descriptor = pictured(game)
    pictures = descriptor.pictures
    if TYPE_CHECKING:
        # pictured gives a descriptor with pictures.
        assert pictures is not None
    size = pictures.page_size(size)
    refusal = pictures.page_refusal(size)
    if refusal is not None:
        raise InputError(refusal, source)
    players = descriptor.players
    if board is None:
        board = descriptor.new_board(size, rule, swap)
    cells = list(pictures.cells(size))
    index = {cell: i for i, cell in enumerate(cells)}
    # A record's letters of the players' moves (SGF's B and W), to colours.
    records = descriptor.records
    letters = dict(zip(records.letters, players)) if records is not None else {}
    stones: Dict[_Cell, str] = {}
    for who, given in setup:
        cell = _cell_of(given)
        if cell is None or cell not in index:
            raise InputError(f"a setup stone {cell} is not on the board", source)
        stones[cell] = letters.get(who, who)
    start = tuple((index[cell], colour) for cell, colour in sorted(stones.items()))
    steps: List[_Step] = []
    win: Optional[int] = None
    winner: Optional[str] = None
    explanation: Optional[Explanation] = None
    winning_cell: Optional[int] = None
    illegal: Optional[Tuple[int, str]] = None
    mover = None            # the colour of the last move
    ending: Optional[str] = None
    for move in moves:
        letter: Optional[str] = None
        if isinstance(move, tuple) and len(move) == 2 and move[0] in letters:
            letter, move = move         # a record's (letter, move)
        if isinstance(move, str) and move in NOT_MOVES:
            who = _colour_name(letters[letter]) if letter else "The player to move"
            ending = f"{who} {_ENDINGS[move]}"
            continue
        ending = None
        number = len(steps) + 1
        cell = _cell_of(move)
        if win is None:
            colour = board.to_move
            try:
                board.play(cell if cell is not None else move)
            except (InputError, TypeError, ValueError) as exc:
                illegal = (number, str(exc))
                break
            if cell is None:
                # A cell by its name ("a1"): the board says which cell it
                # read (a swap it keeps as its word).
                cell = _cell_of(board.moves[-1])
            changes: List[Tuple[_Cell, str]]
            if cell is not None:
                changes = [(cell, colour)]
            else:
                changes = list(pictures.swap_changes(move, stones))
            if board.winner is not None:
                win, winner = number, board.winner
                explanation = board.explain()
                if cell is not None:
                    winning_cell = index[cell]
        else:
            # Played on after the win: the board takes no more moves.
            colour = players[1] if mover == players[0] else players[0]
            if cell is None or cell not in index:
                illegal = (number, f"{move!r} after the game was won is no cell of the board")
                break
            if cell in stones:
                illegal = (number, f"{cell} is taken")
                break
            changes = [(cell, colour)]
        mover = colour
        for c, held in changes:
            if held:
                stones[c] = held
            else:
                stones.pop(c, None)
        label = (f"{_colour_name(colour)} {cell[0]},{cell[1]}" if cell is not None
                 else f"{_colour_name(colour)}: {move}")
        steps.append((label, tuple((index[c], held) for c, held in changes)))

    answer: Optional[str] = None
    # Each marked cell's kinds of structure, then their classes as one string.
    marks: Dict[int, Any] = {}
    under: List[str] = []
    over: List[str] = []
    if explanation is not None:
        # The stones at the win (for Hex's stone counts).
        at_win = {cells[i]: colour
                  for i, colour in enumerate(_stones_after(start, steps, len(cells), win))}
        what, found, drawn_under, drawn_over = pictures.structure(size, explanation, at_win)
        answer = f"{what} in move {win}"
        for cell, kinds in found.items():
            if cell in index:
                marks[index[cell]] = kinds
        under, over = list(drawn_under), list(drawn_over)
        marks = {i: " ".join(kinds) for i, kinds in marks.items()}
        if winning_cell is not None:
            x, y = pictures.centre(cells[winning_cell])
            over = over + [f'<circle class="winning-mark" cx="{svg.number(x)}" '
                           f'cy="{svg.number(y)}" r="{svg.number(0.8 * _R)}"/>']
    if heading is None:
        heading = f"{descriptor.title} game"
    return GameSteps(descriptor, size, cells, steps, win, winner, answer, marks, winning_cell,
                     under, over, illegal, heading, start, ending)


# ---------------------------------------------------------------------------
# The board at one move
# ---------------------------------------------------------------------------

def _board(game: GameSteps, move: int, everything: bool) -> Tuple[List[str], _Box]:
    """(markup, box) of the board after ``move`` moves.  ``everything``: also
    the numbers and the structure not shown yet (hidden), for the page's
    script to show."""
    pictures = game.descriptor.pictures
    if TYPE_CHECKING:
        # Steps are of a game with pictures (pictured).
        assert pictures is not None
    stone = game.stones(move)
    won = game.win is not None and move >= game.win
    latest = {i for i, _ in game.steps[move - 1][1]} if move else set()
    out: List[str] = []
    frame, box = pictures.frame(game.size)
    out.extend(frame)
    corners = set(pictures.corners(game.size))
    coords = pictures.coordinates
    # The structure's groups: shown from the winning move on; the page holds
    # them hidden before it, for its script to show.
    structure = won or everything
    hide = "" if won else ' style="display:none"'
    if structure and game.under:
        out.append(f'<g class="structure under"{hide}>' + "".join(game.under) + "</g>")
    for i, cell in enumerate(game.cells):
        classes = ["cell"]
        if cell in corners:
            classes.append("corner")
        if stone[i]:
            classes += ["stone", stone[i]]
        if won and i in game.marks:
            classes.append(game.marks[i])
        if won and i == game.winning_cell:
            classes.append("winning-move")
        if i in latest:
            classes.append("latest")
        held = f' data-stone="{stone[i]}"' if stone[i] else ""
        out.append(f'<path class="{" ".join(classes)}" data-i="{i}" {coords[0]}="{cell[0]}" '
                   f'{coords[1]}="{cell[1]}"{held} d="{pictures.cell_path(cell)}"/>')
    out.extend(pictures.labels(game.size))
    if structure and game.over:
        out.append(f'<g class="structure over"{hide}>' + "".join(game.over) + "</g>")
    if len(game.steps) <= _NUMBERS_MAX:
        numbers: List[str] = []
        for i, number, first, leaves in game.numbers():
            visible = first <= move and (leaves is None or move < leaves)
            if not (visible or everything):
                continue
            x, y = pictures.centre(game.cells[i])
            font = 8 if number < 100 else 6.2
            hidden = "" if visible else ' style="display:none"'
            dark = " dark" if stone[i] == "white" else ""
            numbers.append(f'<text class="num{dark}" data-i="{i}" data-from="{first}" '
                           f'data-until="{leaves or ""}" x="{svg.number(x)}" '
                           f'y="{svg.number(y + font * 0.36)}" font-size="{font}"{hidden}>'
                           f'{number}</text>')
        out.append('<g class="numbers">' + "".join(numbers) + "</g>")
    return out, box


_SHARED_STYLE = (
    ".cell.enclosed:not(.stone){fill:#bfe9d5}"
    ".cell.stone.bridge,.cell.stone.fork,.cell.stone.ring,.cell.stone.chain"
    "{stroke:#ffd23f;stroke-width:1.8}"
    ".winning-mark{fill:none;stroke:#e0115f;stroke-width:2.4}"
    ".cell.latest{stroke:#e0115f;stroke-width:1.6}"
    ".num{pointer-events:none}"
)


def _status(game: GameSteps, move: int) -> str:
    """What the page and the picture say of the position after ``move``."""
    total = len(game.steps)
    if move == 0:
        text = f"Start: no stones (0 of {total} moves)"
    else:
        text = f"Move {move} of {total}: {game.steps[move - 1][0]}"
    if game.win is not None and move >= game.win:
        if TYPE_CHECKING:
            # A game with a winning move has a winner.
            assert game.winner is not None
        text += f"; {game.winner.capitalize()} wins: {game.answer}"
    if game.illegal and move == total:
        text += f"; move {game.illegal[0]} is illegal: {game.illegal[1]}"
    return text


def _check_move(game: GameSteps, move: Optional[int]) -> int:
    if move is None:
        return game.default_move()
    if not 0 <= move <= len(game.steps):
        raise InputError(f"move {move}: the game has {len(game.steps)} moves")
    return move


def position_svg(game: GameSteps, move: Optional[int] = None, *, over: Sequence[str] = (),
                 legend: Sequence[Tuple[Callable[[float, float], str], Sequence[str]]] = (),
                 style: str = "") -> str:
    """The SVG document of the position after ``move`` moves (default the
    winning move, else the last), the structure highlighted from the
    winning move on; ``over``: SVG elements drawn over the board,
    ``legend`` more rows of the legend (``(swatch(x, y) -> markup,
    lines)``), ``style`` more CSS."""
    move = _check_move(game, move)
    if TYPE_CHECKING:
        # Steps are of a game with pictures (pictured).
        assert game.descriptor.pictures is not None
    board, box = _board(game, move, everything=False)
    board.extend(over)
    players = game.players
    stone = game.stones(move)
    swatch = game.descriptor.pictures.swatch
    # Each row's swatch, drawn at (x, y), and its lines.  (mypy infers no
    # type for a lambda's default, p=p: the player of its row.)
    items: List[Tuple[Callable[[float, float], str], Sequence[str]]] = [
        (lambda x, y, p=p: swatch(x, y, f"cell stone {p}"),  # type: ignore[misc]
         [f"{_colour_name(p)} ({stone.count(p)} stones)"]) for p in players]
    if game.win is not None and move >= game.win:
        items.append((lambda x, y: f'<circle class="winning-mark" cx="{x}" cy="{y}" r="7"/>',
                      [f"the winning move ({game.win})"]))
        items.append((lambda x, y: swatch(x, y, f"cell stone {game.winner} chain"),
                      ["a stone of the winning", "structure"]))
    items.extend(legend)
    drawn_legend, legend_h = svg.legend_rows(items)
    subtitle = [game.summary(), _status(game, move)]
    layout = svg.Layout(box, legend_h, subtitle)
    style = game.descriptor.pictures.style() + _SHARED_STYLE + style
    title = f"{game.heading}, move {move}"
    return svg.document(layout, title, subtitle, style, [], board, drawn_legend,
                        game.summary())


# ---------------------------------------------------------------------------
# The page
# ---------------------------------------------------------------------------

_PAGE_STYLE = (
    "body{margin:0;background:#fff;color:#222;"
    "font-family:DejaVu Sans,Verdana,Arial,sans-serif}"
    "#havhex-game{padding:12px 16px;outline:none}"
    "h1{font-size:20px;margin:0 0 4px}"
    ".summary{font-size:13px;color:#444;margin:0 0 8px}"
    ".controls{display:flex;flex-wrap:wrap;gap:6px;align-items:center;margin-bottom:8px}"
    ".controls button{font:inherit;font-size:14px;padding:4px 10px;cursor:pointer}"
    "#status{font-size:14px;margin-left:8px}"
    "#board{display:block;max-width:100%;height:auto}"
    ".keys{font-size:12px;color:#666}"
)

# The page's script: the state lives in the DOM (see the module's docstring).
_SCRIPT = r"""
(function () {
  "use strict";
  var root = document.getElementById("havhex-game");
  var game = JSON.parse(document.getElementById("havhex-steps").textContent);
  var cells = Array.prototype.slice.call(root.querySelectorAll("#board .cell"));
  var numbers = Array.prototype.slice.call(root.querySelectorAll("#board .num"));
  var structures = Array.prototype.slice.call(root.querySelectorAll("#board .structure"));
  var status = document.getElementById("status");
  var buttons = {};
  ["first", "prev", "next", "last"].forEach(function (name) {
    buttons[name] = document.getElementById(name);
  });
  var total = game.steps.length;
  var current = Number(root.getAttribute("data-move"));

  function show(move) {
    move = Math.max(0, Math.min(total, move));
    var stone = [];
    var i, s, k;
    for (i = 0; i < cells.length; i++) stone.push("");
    for (k = 0; k < game.start.length; k++) stone[game.start[k][0]] = game.start[k][1];
    for (s = 0; s < move; s++) {
      var changes = game.steps[s][1];
      for (k = 0; k < changes.length; k++) stone[changes[k][0]] = changes[k][1];
    }
    var won = game.win !== null && move >= game.win;
    var latest = {};
    if (move > 0) game.steps[move - 1][1].forEach(function (c) { latest[c[0]] = true; });
    cells.forEach(function (cell, i) {
      var list = cell.classList;
      game.players.forEach(function (p) { list.toggle(p, stone[i] === p); });
      list.toggle("stone", stone[i] !== "");
      list.toggle("latest", latest[i] === true);
      if (stone[i]) cell.setAttribute("data-stone", stone[i]);
      else cell.removeAttribute("data-stone");
      var marks = game.marks[i];
      if (marks) marks.split(" ").forEach(function (m) { list.toggle(m, won); });
      list.toggle("winning-move", won && i === game.winningCell);
    });
    numbers.forEach(function (text) {
      var first = Number(text.getAttribute("data-from"));
      var until = text.getAttribute("data-until");
      var visible = first <= move && (until === "" || move < Number(until));
      text.style.display = visible ? "" : "none";
      text.classList.toggle("dark", stone[Number(text.getAttribute("data-i"))] === "white");
    });
    structures.forEach(function (g) { g.style.display = won ? "" : "none"; });
    var text = move === 0 ? "Start: no stones (0 of " + total + " moves)"
                          : "Move " + move + " of " + total + ": " + game.steps[move - 1][0];
    if (won) text += "; " + game.winnerName + " wins: " + game.answer;
    if (game.illegal && move === total) text += "; " + game.illegal;
    status.textContent = text;
    root.setAttribute("data-move", String(move));
    root.setAttribute("data-structure", won ? "shown" : "hidden");
    buttons.first.disabled = buttons.prev.disabled = move === 0;
    buttons.next.disabled = buttons.last.disabled = move === total;
    current = move;
    root.dispatchEvent(new CustomEvent("havhex-move", {detail: move}));
  }

  root.addEventListener("havhex-go", function (event) { show(Number(event.detail)); });
  buttons.first.addEventListener("click", function () { show(0); });
  buttons.prev.addEventListener("click", function () { show(current - 1); });
  buttons.next.addEventListener("click", function () { show(current + 1); });
  buttons.last.addEventListener("click", function () { show(total); });
  document.addEventListener("keydown", function (event) {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    var to = {ArrowLeft: current - 1, ArrowRight: current + 1, Home: 0, End: total}[event.key];
    if (to === undefined) return;
    event.preventDefault();
    show(to);
  });
  show(current);
})();
"""


class PagePart:
    """What a page may show besides the game: ``html`` under the board,
    ``style`` (CSS) and ``script`` (JavaScript, run after the page's own).
    The page's root element ``#havhex-game`` sends the event
    ``havhex-move`` (``detail`` the move shown) each time it shows a move,
    and shows move N when sent ``havhex-go`` with ``detail`` N; a part's
    script starts from the root's ``data-move``."""

    __slots__ = ("html", "style", "script")

    def __init__(self, html: str = "", style: str = "", script: str = "") -> None:
        self.html = html
        self.style = style
        self.script = script


def game_page(game: GameSteps, move: Optional[int] = None, *,
              parts: Sequence[PagePart] = ()) -> str:
    """The HTML page stepping through ``game`` (a :class:`GameSteps`),
    opened at ``move`` (default the winning move, else the last), with
    ``parts`` (each a :class:`PagePart`) under the board."""
    move = _check_move(game, move)
    if TYPE_CHECKING:
        # Steps are of a game with pictures (pictured).
        assert game.descriptor.pictures is not None
    board, box = _board(game, move, everything=True)
    min_x, min_y, max_x, max_y = box
    width, height = max_x - min_x, max_y - min_y
    scale = min(3.0, 760 / max(width, height, 1.0))
    data = {
        "players": list(game.players),
        "start": [list(stone) for stone in game.start],
        "steps": [[label, [list(change) for change in changes]] for label, changes in game.steps],
        "win": game.win,
        "winnerName": game.winner.capitalize() if game.winner else None,
        "answer": game.answer,
        "marks": {str(i): classes for i, classes in game.marks.items()},
        "winningCell": game.winning_cell,
        "illegal": (f"move {game.illegal[0]} is illegal: {game.illegal[1]}"
                    if game.illegal else None),
    }
    won = game.win is not None and move >= game.win
    title = svg.escape(game.heading)
    return "\n".join([
        "<!DOCTYPE html>",
        '<html lang="en">',
        "<head>",
        '<meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{title}</title>",
        f"<style>{_PAGE_STYLE}{game.descriptor.pictures.style()}{_SHARED_STYLE}"
        f"{''.join(part.style for part in parts)}</style>",
        "</head>",
        "<body>",
        f'<main id="havhex-game" data-game="{game.game}" data-move="{move}" '
        f'data-moves="{len(game.steps)}" data-win="{game.win or ""}" '
        f'data-structure="{"shown" if won else "hidden"}">',
        f"<h1>{title}</h1>",
        f'<p class="summary">{svg.escape(game.summary())}</p>',
        '<div class="controls">',
        '<button type="button" id="first" title="the empty board (Home)">&#171; First</button>',
        '<button type="button" id="prev" title="one move back (Left)">&#8249; Back</button>',
        '<button type="button" id="next" title="one move on (Right)">Next &#8250;</button>',
        '<button type="button" id="last" title="the last move (End)">Last &#187;</button>',
        f'<span id="status" aria-live="polite">{svg.escape(_status(game, move))}</span>',
        "</div>",
        f'<svg id="board" class="board" xmlns="http://www.w3.org/2000/svg" '
        f'width="{svg.number(width * scale)}" height="{svg.number(height * scale)}" '
        f'viewBox="{svg.number(min_x)} {svg.number(min_y)} {svg.number(width)} '
        f'{svg.number(height)}">',
        *board,
        "</svg>",
        *(part.html for part in parts if part.html),
        '<p class="keys">Keys: Left and Right step one move, Home and End go to the '
        "start and the end.</p>",
        f'<script type="application/json" id="havhex-steps">{svg.script_json(data)}</script>',
        f"<script>{_SCRIPT}</script>",
        *(f"<script>{part.script}</script>" for part in parts if part.script),
        "</main>",
        "</body>",
        "</html>",
    ]) + "\n"
