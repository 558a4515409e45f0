"""Pictures of one case: an SVG drawing, or a text view for small boards.

``havhex draw GAME FILE --case N [--text]`` calls :func:`draw_command`, which
returns the whole picture as a string.  The drawing functions themselves are
pure: they take the board and the judge's witness (the explanation) and build
the text; they never judge anything.

Havannah hexagons have flat tops, cell ``(x, y)`` has its centre at
``(1.5 (y - x), -sqrt(3)/2 (x + y))`` hexagon radii (SVG's y axis points down),
so ``(x+1, y+1)`` is straight above, ``(x, y+1)`` at two o'clock, ``(x+1, y)``
at ten o'clock and ``(1, 1)`` is the bottom corner.  Hex hexagons have pointed
tops; row ``i`` is drawn half a cell right of row ``i - 1``, so the board is a
rhombus leaning right.

Every drawn hexagon is one ``<path class="cell ...">`` with ``data-x``/``data-y``
(Havannah) or ``data-row``/``data-col`` (Hex); cells of a winning structure
carry its name as a class (``bridge``, ``fork``, ``ring``, ``enclosed``,
``chain``, ``last-move``).  The document's ``<title>`` is the answer.

This module is imported only by the ``draw`` command, never by ``import havhex``.
"""
import math
import os

from ..errors import MAX_NUMBER_DIGITS, InputError

__all__ = [
    "draw_command", "havannah_svg", "havannah_text", "hex_svg", "hex_text",
    "HAVANNAH_TEXT_MAX", "HAVANNAH_SVG_STONES_MAX", "HEX_TEXT_MAX", "HEX_SVG_MAX",
    "HAVANNAH_EDGES",
]

# What a picture can usefully show.  A text view is read on a terminal, an SVG
# in a browser, which slows down beyond some 10**5 elements.  A board beyond
# its size limit is refused from the case's header, before its moves are read;
# the stones a Havannah picture would draw are counted once the case is judged.
HAVANNAH_TEXT_MAX = 20      # --text: largest Havannah side S
HAVANNAH_SVG_STONES_MAX = 100_000   # SVG: most Havannah stones drawn (any S)
HEX_TEXT_MAX = 40           # --text: largest Hex side N
HEX_SVG_MAX = 200           # SVG: largest Hex side N (every cell is drawn)
_NUMBERED_MAX = 12          # Havannah stones carry their move number up to this S
_FULL_BOARD_CELLS = 5000    # Havannah boards up to this many cells are drawn whole
_REGION_CELLS = 30000       # otherwise the region round the stones, cell by cell, up to this
_REGION_MARGIN = 3          # hexagons of margin round the stones
_ENCLOSED_CELLS = 30000     # more enclosed hexagons than this are drawn as runs

_R = 10.0                   # hexagon radius in drawing units
_H = _R * math.sqrt(3) / 2  # half the height of a flat-topped hexagon
_SQRT3 = math.sqrt(3)

KIND_ORDER = ("bridge", "fork", "ring")


# ---------------------------------------------------------------------------
# The command
# ---------------------------------------------------------------------------

def draw_command(game, file, case, as_text=False):
    """The picture of case ``case`` (1-based) of ``file`` (a path or ``"-"``).

    Returns the SVG document (or, with ``as_text``, the text view) as a str.
    Faults in the input, a case the input does not hold and a case beyond what
    a picture can show (see the ``*_MAX`` limits) raise
    :class:`havhex.InputError`; a regular file's case is measured from its
    header before anything else is read.
    """
    if game not in ("havannah", "hex"):
        raise InputError(f"unknown game {game!r}: draw havannah or hex")
    header = _case_header(file, game, case)
    if header is not None:
        _check_board_size(game, header[0], as_text, case, _source_name(file))
    if game == "havannah":
        size, moves, total, explanation, source = _havannah_case(file, case, as_text)
        heading = f"{source}, case #{case}"
        if as_text:
            return havannah_text(size, moves, explanation, heading=heading)
        return havannah_svg(size, moves, explanation, heading=heading, total_moves=total)
    rows, explanation, source = _hex_case(file, case, as_text)
    heading = f"{source}, case #{case}"
    if as_text:
        return hex_text(rows, explanation, heading=heading)
    return hex_svg(rows, explanation, heading=heading)


def _source_name(file):
    from .._source import is_stdin

    return "<stdin>" if is_stdin(file) else os.fsdecode(file)


def _check_board_size(game, size, as_text, case, source):
    """Refuse a board the picture cannot show, naming the case and the limit."""
    name = "S" if game == "havannah" else "N"
    if as_text:
        limit = HAVANNAH_TEXT_MAX if game == "havannah" else HEX_TEXT_MAX
        what, advice = "the text view", " (draw it as SVG instead)"
        if game == "hex" and size > HEX_SVG_MAX:
            advice = ""
    elif game == "hex":
        limit, what, advice = HEX_SVG_MAX, "the picture", ""
    else:
        return      # an SVG shows a Havannah board of any size (see the stones)
    if size > limit:
        raise InputError(f"case #{case} has {name} = {size}: {what} is for boards "
                         f"up to {name} = {limit}{advice}", source)


def _check_case_number(case, n_cases, source):
    if case < 1:
        raise InputError(f"there is no case #{case} (cases are numbered from 1)", source)
    if case > n_cases:
        count = "1 case" if n_cases == 1 else f"{n_cases} cases"
        raise InputError(f"there is no case #{case} (the input has {count})", source)


def _havannah_case(file, case, as_text):
    """(S, drawn moves, moves in the case, explanation, source name) of one
    case of a Havannah input.

    The input is read once (a pipe or ``<(...)`` cannot be read twice) and
    judged as :func:`havhex.havannah.judge_file` judges it, with its faults;
    only the moves drawn (up to the winning move) become Python objects."""
    from .. import havannah
    from ..havannah import _judge as _havannah
    from .._source import read_input

    parsed, source = read_input(file, _havannah.parse_and_judge)
    results = havannah._judge_parsed(parsed, source)     # the proper fault, if any
    _check_case_number(case, len(results), source)
    size = parsed.case_size(case - 1)
    _check_board_size("havannah", size, as_text, case, source)
    result = results[case - 1]
    limit = HAVANNAH_SVG_STONES_MAX
    # The stones drawn, copied only up to one beyond the limit.
    flat = parsed.case_coords(case - 1, min(result.move or limit + 1, limit + 1))
    if len(flat) // 2 > limit:
        if result.move:
            reason = f"case #{case} has {result.move} stones up to its winning move"
        else:
            reason = f"case #{case} has no winning move and over {limit} stones"
        raise InputError(f"{reason}: the picture is for up to {limit} stones", source)
    total = len(parsed.case_coords(case - 1)) // 2 if result.move else len(flat) // 2
    moves = list(zip(flat[0::2], flat[1::2]))
    explanation = havannah._explanation(size, flat, result, None)
    return size, moves, total, explanation, source


def _hex_case(file, case, as_text):
    """(rows, explanation, source name) of one case of a Hex input (read once)."""
    from .. import hex as hx

    parsed, source = hx._parse_file(file)
    hx._checked(parsed, source)
    _check_case_number(case, parsed.n_cases, source)
    _check_board_size("hex", parsed.case_size(case - 1), as_text, case, source)
    rows = parsed.board(case - 1)
    return rows, hx.explain(rows), source


# ---------------------------------------------------------------------------
# Measuring a case from its header
# ---------------------------------------------------------------------------

_SPACE = b" \t\n\r\x0b\x0c"                 # the readers' white space
_MARKS = bytes(32 if byte in _SPACE else 120 for byte in range(256))   # b" " or b"x"
_LONGEST_NUMBER = MAX_NUMBER_DIGITS        # the readers' rule: a longer token is no number


class _Tokens:
    """White-space separated tokens of a regular file from ``offset``, read
    with ``pread`` (the descriptor's offset stays where it is).  Tokens are
    taken only as far as a number can go: a longer one ends the scan."""

    CHUNK = 1 << 20

    def __init__(self, descriptor, offset):
        import re

        self.spaces = re.compile(b"[" + _SPACE + b"]*")
        self.letters = re.compile(b"[^" + _SPACE + b"]*")
        self.descriptor = descriptor
        self.offset = offset
        self.buffer = b""
        self.pos = 0

    def _fill(self):
        """Read on, dropping what was passed over; False at the end."""
        data = os.pread(self.descriptor, self.CHUNK, self.offset)
        self.offset += len(data)
        self.buffer = self.buffer[self.pos:] + data
        self.pos = 0
        return bool(data)

    def word(self):
        """The next token, b"" at the end of the input, None when it is too
        long for a number (then the position is inside it)."""
        while True:
            self.pos = self.spaces.match(self.buffer, self.pos).end()
            if self.pos < len(self.buffer):
                break
            if not self._fill():
                return b""
        token = b""
        while True:
            end = self.letters.match(self.buffer, self.pos).end()
            token += self.buffer[self.pos:end]
            self.pos = end
            if len(token) > _LONGEST_NUMBER:
                return None
            if end < len(self.buffer) or not self._fill():
                return token

    def number(self):
        """The next token as an int, or None when it is not a plain decimal
        number (or the input ends): then the reader is left to say why."""
        token = self.word()
        return int(token) if token and token.isdigit() else None

    def skip(self, count):
        """Pass over ``count`` tokens; False when the input ends first or a
        token is too long."""
        previous = b" "             # the scan never stops inside a token
        while count > 0:
            if self.pos >= len(self.buffer) and not self._fill():
                return False
            span = min(len(self.buffer) - self.pos, 64 + 32 * count)
            marks = previous + self.buffer[self.pos:self.pos + span].translate(_MARKS)
            starts = marks.count(b" x")
            if starts >= count:
                index = -1
                for _ in range(count):
                    index = marks.find(b" x", index + 1)
                self.pos += index   # the last token's first byte (marks has one byte more)
                return bool(self.word())
            count -= starts
            previous = marks[-1:]
            self.pos += span
        return True


def _case_header(file, game, case):
    """The header numbers of case ``case`` (``(S, M)`` or ``(N,)``) read from
    the start of a regular file, or None when the input is no regular file or
    does not plainly reach that header (its reader then says why)."""
    import stat

    from .._source import is_stdin

    descriptor = None
    try:
        if is_stdin(file):
            import sys

            stdin = sys.stdin
            if stdin is None:
                return None
            descriptor = stdin.fileno()
            offset = os.lseek(descriptor, 0, os.SEEK_CUR)
            opened = False
        elif isinstance(file, (str, bytes, os.PathLike)):
            # Opened only when regular: a reader opening and closing a named
            # pipe could make its writer fail.
            if not stat.S_ISREG(os.stat(file).st_mode):
                return None
            descriptor = os.open(file, os.O_RDONLY)
            offset, opened = 0, True
        else:
            return None
        try:
            if not stat.S_ISREG(os.fstat(descriptor).st_mode):
                return None
            return _scan_to_case(_Tokens(descriptor, offset), game, case)
        finally:
            if opened:
                os.close(descriptor)
    except (OSError, ValueError, AttributeError):
        return None


def _scan_to_case(tokens, game, case):
    count = tokens.number()
    if count is None or not 1 <= case <= count:
        return None
    for _ in range(case - 1):
        size = tokens.number()
        if size is None:
            return None
        if game == "havannah":
            moves = tokens.number()
            if moves is None or not tokens.skip(2 * moves):
                return None
        elif not tokens.skip(size):
            return None
    # A size no board can have is the reader's fault to report.
    size = tokens.number()
    if game == "havannah":
        from ..havannah import MAX_SIZE

        moves = tokens.number()
        return None if size is None or moves is None or size > MAX_SIZE else (size, moves)
    from ..hex import MAX_SIZE

    return None if size is None or size > MAX_SIZE else (size,)


# ---------------------------------------------------------------------------
# Small helpers
# ---------------------------------------------------------------------------

def _esc(text):
    return (str(text).replace("&", "&amp;").replace("<", "&lt;")
            .replace(">", "&gt;").replace('"', "&quot;"))


def _n(value):
    """A coordinate with at most two decimals, no trailing zeros."""
    text = f"{value:.2f}"
    if text.endswith("00"):
        text = text[:-3]
    elif text.endswith("0"):
        text = text[:-1]
    return "0" if text == "-0" else text


def _cells(seq):
    """A list of (int, int) from any sequence of pairs."""
    return [(int(a), int(b)) for a, b in (seq or ())]


def _points(points):
    return " ".join(f"{_n(x)},{_n(y)}" for x, y in points)


def _text_block(x, y, lines, size=12, cls="note"):
    out = []
    for number, line in enumerate(lines):
        out.append(f'<text class="{cls}" x="{_n(x)}" y="{_n(y + number * (size + 4))}" '
                   f'font-size="{size}">{_esc(line)}</text>')
    return out


class _Layout:
    """The page: a title, the board (a nested <svg> in drawing units) and a legend column."""

    PAD = 16
    LEGEND_W = 250

    def __init__(self, box, legend_h, subtitle_lines=(), board_px=720, min_radius_px=4.0,
                 max_px=3000):
        self.TITLE_H = 42 + 16 * len(subtitle_lines)
        min_x, min_y, max_x, max_y = box
        self.box = box
        width, height = max_x - min_x, max_y - min_y
        longest = max(width, height, 1.0)
        scale = min(3.0, board_px / longest)
        if scale * _R < min_radius_px:
            scale = min(min_radius_px / _R, max_px / longest)
        self.scale = scale
        self.board_w = width * scale
        self.board_h = height * scale
        self.width = max(self.PAD * 3 + self.board_w + self.LEGEND_W,
                         self.PAD * 2 + 7 * max((len(line) for line in subtitle_lines), default=0))
        self.height = self.TITLE_H + max(self.board_h, legend_h) + self.PAD
        self.legend_x = self.PAD * 2 + self.board_w

    def open_board(self):
        min_x, min_y, max_x, max_y = self.box
        return (f'<svg class="board" x="{_n(self.PAD)}" y="{_n(self.TITLE_H)}" '
                f'width="{_n(self.board_w)}" height="{_n(self.board_h)}" '
                f'viewBox="{_n(min_x)} {_n(min_y)} {_n(max_x - min_x)} {_n(max_y - min_y)}">')


def _document(layout, title, subtitle_lines, style, defs, board, legend, desc=None):
    out = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<svg xmlns="http://www.w3.org/2000/svg" version="1.1" '
        f'width="{_n(layout.width)}" height="{_n(layout.height)}" '
        f'viewBox="0 0 {_n(layout.width)} {_n(layout.height)}">',
        f"<title>{_esc(title)}</title>",
    ]
    if desc:
        out.append(f"<desc>{_esc(desc)}</desc>")
    out.append(f"<style>{style}</style>")
    if defs:
        out.append("<defs>" + "".join(defs) + "</defs>")
    out.append(f'<rect class="page" x="0" y="0" width="{_n(layout.width)}" '
               f'height="{_n(layout.height)}"/>')
    out.append(f'<text class="heading" x="{layout.PAD}" y="28" font-size="20">{_esc(title)}</text>')
    out.extend(_text_block(layout.PAD, 48, subtitle_lines, size=12, cls="note"))
    out.append(layout.open_board())
    out.extend(board)
    out.append("</svg>")
    out.append(f'<g class="legend" transform="translate({_n(layout.legend_x)},{_n(layout.TITLE_H)})">')
    out.extend(legend)
    out.append("</g>")
    out.append("</svg>")
    return "\n".join(out) + "\n"


_COMMON_STYLE = (
    ".page{fill:#fff}"
    "text{font-family:DejaVu Sans,Verdana,Arial,sans-serif;fill:#222}"
    ".heading{font-weight:bold}"
    ".note{fill:#444}"
    ".legend-title{font-weight:bold}"
)


# ---------------------------------------------------------------------------
# Havannah
# ---------------------------------------------------------------------------

def _hav_centre(x, y):
    return 1.5 * _R * (y - x), -_H * (x + y)


_HAV_CELL_TAIL = f"l{_n(_R / 2)}-{_n(_H)}h{_n(_R)}l{_n(_R / 2)} {_n(_H)}l-{_n(_R / 2)} {_n(_H)}h-{_n(_R)}z"


def _hav_cell_d(x, y):
    cx, cy = _hav_centre(x, y)
    return f"M{_n(cx - _R)} {_n(cy)}{_HAV_CELL_TAIL}"


def _hav_on_board(size, x, y):
    top = 2 * size - 1
    return 1 <= x <= top and 1 <= y <= top and abs(x - y) <= size - 1


def _hav_corners(size):
    s = size
    return ((1, 1), (1, s), (s, 2 * s - 1), (2 * s - 1, 2 * s - 1), (2 * s - 1, s), (s, 1))


# The six edges going round the board from the bottom corner (1, 1); edge k lies
# between corner k and corner k + 1 of _hav_corners.
HAVANNAH_EDGES = ("x=1", "y-x=S-1", "y=2S-1", "x=2S-1", "x-y=S-1", "y=1")


def _hav_edge(size, x, y):
    """Index into HAVANNAH_EDGES of the edge a hexagon lies on, or None
    (interior hexagons and corners)."""
    s = size
    top = 2 * s - 1
    hits = [x == 1, y - x == s - 1, y == top, x == top, x - y == s - 1, y == 1]
    if sum(hits) != 1:      # interior (none) or corner (two)
        return None
    return hits.index(True)


def _hav_outline(size, grow):
    """The six vertices of the board's outline, ``grow`` drawing units outside
    the outermost hexagon edges (in the order of _hav_corners)."""
    cx, cy = _hav_centre(size, size)
    # Corner centres lie sqrt(3) R (S-1) from the centre; the outermost hexagon
    # vertices lie R beyond the line through them, and pushing a side out by d
    # moves the outline's vertices out by 2d/sqrt(3).
    radius = _SQRT3 * _R * (size - 1) + 2 * (_R + grow) / _SQRT3
    result = []
    for x, y in _hav_corners(size):
        px, py = _hav_centre(x, y)
        dx, dy = px - cx, py - cy
        length = math.hypot(dx, dy)
        result.append((cx + dx / length * radius, cy + dy / length * radius))
    return result


def _hav_region(size, stones):
    """(x range, y range, y - x range) round the stones, with a margin, on the board."""
    m = _REGION_MARGIN
    xs = [x for x, _ in stones]
    ys = [y for _, y in stones]
    ds = [y - x for x, y in stones]
    top = 2 * size - 1
    return ((max(1, min(xs) - m), min(top, max(xs) + m)),
            (max(1, min(ys) - m), min(top, max(ys) + m)),
            (max(1 - size, min(ds) - m), min(size - 1, max(ds) + m)))


def _clamped_sum(lo, hi, shift, cap):
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


def _hav_region_cells(region):
    """The number of hexagons of the region, in O(1): those of the rectangle
    of x and y less those with y - x below or above its range."""
    (x_lo, x_hi), (y_lo, y_hi), (d_lo, d_hi) = region
    if x_lo > x_hi or y_lo > y_hi or d_lo > d_hi:
        return 0
    height = y_hi - y_lo + 1
    below = _clamped_sum(x_lo, x_hi, d_lo - y_lo, height)      # y <= x + d_lo - 1
    above = _clamped_sum(-x_hi, -x_lo, y_hi - d_hi, height)    # y >= x + d_hi + 1
    return max(0, (x_hi - x_lo + 1) * height - below - above)


def _hav_region_extent(region):
    """(least y - x, greatest y - x, least x + y, greatest x + y) over the
    hexagons of a non-empty region, in O(1)."""
    (x_lo, x_hi), (y_lo, y_hi), (d_lo, d_hi) = region
    return (max(d_lo, y_lo - x_hi), min(d_hi, y_hi - x_lo),
            max(x_lo + y_lo, 2 * x_lo + d_lo, 2 * y_lo - d_hi),
            min(x_hi + y_hi, 2 * x_hi + d_hi, 2 * y_hi - d_lo))


def _hav_region_rows(region):
    """Yield (x, first y, last y) of the region's rows (constant x)."""
    (x_lo, x_hi), (y_lo, y_hi), (d_lo, d_hi) = region
    for x in range(x_lo, x_hi + 1):
        first = max(y_lo, x + d_lo)
        last = min(y_hi, x + d_hi)
        if first <= last:
            yield x, first, last


def _havannah_witness(size, stones, explanation):
    """Normalise the Havannah explanation to plain sets and lists."""
    explanation = dict(explanation or {})
    kinds = [kind for kind in KIND_ORDER if kind in (explanation.get("kinds") or ())]
    move = explanation.get("move")
    answer = explanation.get("answer")
    if answer is None:
        answer = f"{'-'.join(kinds)} in move {move}" if kinds else "none"
    bridge = _cells((explanation.get("bridge") or {}).get("path"))
    fork_info = explanation.get("fork") or {}
    fork = _cells(fork_info.get("cells"))
    ring_info = explanation.get("ring") or {}
    loop = _cells(ring_info.get("loop"))
    enclosed_runs = sorted((int(x), int(first), int(last))
                           for x, first, last in ring_info.get("enclosed_runs") or ())
    # The edges the fork's hexagons lie on, from its cells alone (the witness
    # names no edges).
    fork_edges = sorted({edge for edge in (_hav_edge(size, x, y) for x, y in fork)
                         if edge is not None})
    return {
        "answer": str(answer), "kinds": kinds, "move": move,
        "bridge": bridge, "fork": fork, "fork_edges": fork_edges,
        "loop": loop, "enclosed_runs": enclosed_runs,
        "enclosed_count": sum(last - first + 1 for _, first, last in enclosed_runs),
    }


def _drawn_moves(moves, move):
    """The moves on the board: up to the winning move, else all of them."""
    moves = _cells(moves)
    return moves[:move] if move else moves


_HAV_STYLE = _COMMON_STYLE + (
    ".frame{fill:#d9c49b;stroke:#7a6440;stroke-width:1.5}"
    ".cell,.swatch{fill:#f7ecd6;stroke:#a8916a;stroke-width:.7}"
    ".corner{fill:#ecd9b2}"
    ".stone{fill:#3a3a3a;stroke:#1c1c1c}"
    ".enclosed{fill:#bfe9d5}"
    ".bridge{fill:#f29a55}"
    ".ring{fill:#5cc7a1}"
    ".fork{fill:#62b6ea}"
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


def havannah_svg(size, moves, explanation, *, heading=None, total_moves=None):
    """The SVG picture of a Havannah board of side ``size``.

    ``moves``: the sequence of ``(x, y)``; the stones drawn are those up to
    the winning move (``explanation["move"]``), else all of them.
    ``total_moves``: the number of moves of the case when ``moves`` holds only
    those drawn (default ``len(moves)``).
    ``explanation``: the witness dict of :func:`havhex.havannah.explain`.
    Memory follows the picture: the stones, the witness and the hexagons
    drawn one by one, never the area a ring encloses.
    """
    w = _havannah_witness(size, moves, explanation)
    stones = _drawn_moves(moves, w["move"])
    number_of = {cell: k for k, cell in enumerate(stones, 1)}
    marks = {}
    for kind, cells in (("bridge", w["bridge"]), ("fork", w["fork"]), ("ring", w["loop"])):
        for cell in cells:
            marks.setdefault(cell, []).append(kind)
    enclosed = _RunIndex(w["enclosed_runs"])
    corners = set(_hav_corners(size))
    board_cells = 3 * size * (size - 1) + 1
    outline = _hav_outline(size, grow=0.6 * _R)

    # Which hexagons are drawn one by one, and what the view shows.
    if board_cells <= _FULL_BOARD_CELLS:
        mode = "board"
        region = ((1, 2 * size - 1), (1, 2 * size - 1), (1 - size, size - 1))
        rows = list(_hav_region_rows(region))
    elif stones:
        # Decided from the region's bounds: its rows are listed only when its
        # hexagons are drawn one by one (a region of spread-out stones on a
        # huge board has billions of rows).
        region = _hav_region(size, stones)
        if _hav_region_cells(region) <= _REGION_CELLS:
            mode, rows = "region", list(_hav_region_rows(region))
        else:
            mode, rows = "stones", []
    else:
        mode, region, rows = "empty", None, []

    if mode in ("board", "empty"):
        xs = [p[0] for p in outline]
        ys = [p[1] for p in outline]
        pad = 1.2 * _R
        box = (min(xs) - pad, min(ys) - pad, max(xs) + pad, max(ys) + pad)
    else:
        # The extreme centres of the region's hexagons, from its bounds: a
        # centre lies at (1.5 R (y - x), -H (x + y)).
        d_min, d_max, s_min, s_max = _hav_region_extent(region)
        left, right = 1.5 * _R * d_min, 1.5 * _R * d_max
        top, bottom = -_H * s_max, -_H * s_min
        pad = 2 * _R + 0.01 * max(right - left, bottom - top)
        box = (left - pad, top - pad, right + pad, bottom + pad)

    drawn = set()
    board = []
    board.append(f'<polygon class="frame" points="{_points(outline)}"/>')
    if mode != "board":
        # The grid pattern only where it can be seen: the board cut to the view
        # (a pattern over the whole of a huge board costs renderers dearly).
        grid = _inner_polygon(_hav_outline(size, grow=0), box)
        if len(grid) >= 3:
            board.append(f'<polygon class="grid" style="fill:url(#hexgrid)" '
                         f'points="{_points(grid)}"/>')
    # Fork edges: a bar along each side the fork touches, short of the corners.
    inner = _hav_outline(size, grow=0.3 * _R)
    for edge in w["fork_edges"]:
        (ax, ay), (bx, by) = inner[edge], inner[(edge + 1) % 6]
        cut = min(0.5, 1.6 * _R / max(math.hypot(bx - ax, by - ay), 1e-9))
        p = (ax + (bx - ax) * cut, ay + (by - ay) * cut)
        q = (bx + (ax - bx) * cut, by + (ay - by) * cut)
        board.append(f'<line class="fork-edge" data-edge="{HAVANNAH_EDGES[edge]}" '
                     f'x1="{_n(p[0])}" y1="{_n(p[1])}" x2="{_n(q[0])}" y2="{_n(q[1])}"/>')

    def cell_element(cell):
        x, y = cell
        classes = ["cell"]
        if cell in corners:
            classes.append("corner")
        move = number_of.get(cell)
        if move is not None:
            classes.append("stone")
        kinds = marks.get(cell, ())
        # Fill priority through the stylesheet order: enclosed < bridge < ring < fork.
        classes.extend(kinds)
        if cell in enclosed:
            classes.append("enclosed")
        if move is not None and move == w["move"]:
            classes.append("winning-move")
        extra = f' data-move="{move}"' if move is not None else ""
        return (f'<path class="{" ".join(classes)}" data-x="{x}" data-y="{y}"{extra} '
                f'd="{_hav_cell_d(x, y)}"/>')

    winning = stones[w["move"] - 1] if w["move"] else None
    late = []
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
        extra_cells = set(number_of) | set(marks)
        if w["enclosed_count"] <= _ENCLOSED_CELLS:
            extra_cells.update(_run_cells(w["enclosed_runs"]))
            run_shapes = []
        else:   # too many to draw one by one: one shape per run
            run_shapes = w["enclosed_runs"]
        for cell in sorted(extra_cells):
            drawn.add(cell)
            if cell == winning:
                late.append(cell_element(cell))
            else:
                board.append(cell_element(cell))
    board.extend(_hav_enclosed_runs(run_shapes))
    board.extend(late)

    # The paths of the structures, through the centres.
    if len(w["bridge"]) > 1 and _hav_walk(w["bridge"]):
        board.append(f'<polyline class="bridge-path" points="'
                     f'{_points(_hav_centre(x, y) for x, y in w["bridge"])}"/>')
    if len(w["loop"]) > 2 and _hav_walk(w["loop"] + w["loop"][:1]):
        board.append(f'<polygon class="ring-loop" points="'
                     f'{_points(_hav_centre(x, y) for x, y in w["loop"])}"/>')

    # Labels: move numbers on the stones, coordinates in the empty hexagons.
    if size <= _NUMBERED_MAX:
        for cell, move in number_of.items():
            cx, cy = _hav_centre(*cell)
            font = 8 if move < 100 else 6.5
            marked = " marked" if cell in marks else ""
            board.append(f'<text class="num{marked}" x="{_n(cx)}" y="{_n(cy + font * 0.36)}" '
                         f'font-size="{font}">{move}</text>')
        for cell in sorted(drawn - set(number_of)):
            cx, cy = _hav_centre(*cell)
            board.append(f'<text class="coord" x="{_n(cx)}" y="{_n(cy + 1.2)}" '
                         f'font-size="3.4">{cell[0]},{cell[1]}</text>')

    # The legend.
    legend, legend_h = _hav_legend(size, w, stones, mode, region, outline, box)
    defs = [_hav_grid_pattern(box)] if mode != "board" else []
    total = len(_cells(moves)) if total_moves is None else total_moves
    subtitle = [f"{heading + ': ' if heading else ''}S = {size}, {total} moves"
                + (f", drawn up to the winning move {w['move']}" if w["move"] else "")]
    layout = _Layout(box, legend_h, subtitle)
    desc = (f"Havannah board S = {size}; (1,1) is the bottom corner; "
            f"{len(stones)} stones drawn; answer: {w['answer']}")
    style = _HAV_STYLE
    if layout.scale * _R < 3:
        # Hexagons of a pixel or less: keep the structures and stones visible.
        unit = 1 / layout.scale
        style += (f".board .bridge-path,.board .ring-loop{{stroke-width:{_n(2.5 * unit)}}}"
                  f".board .fork-edge{{stroke-width:{_n(5 * unit)}}}"
                  f".board .stone{{stroke-width:{_n(1.2 * unit)}}}"
                  f".board .winning-move{{stroke-width:{_n(3 * unit)}}}"
                  f".winning-mark{{fill:none;stroke:#e0115f;stroke-width:{_n(2.5 * unit)}}}")
        if winning is not None:
            cx, cy = _hav_centre(*winning)
            board.append(f'<circle class="winning-mark" cx="{_n(cx)}" cy="{_n(cy)}" '
                         f'r="{_n(9 * unit)}"/>')
    return _document(layout, w["answer"], subtitle, style, defs, board, legend, desc)


_HAV_STEPS = frozenset(((1, 1), (0, 1), (-1, 0), (-1, -1), (0, -1), (1, 0)))


def _hav_walk(cells):
    """Is each hexagon a neighbour of the next (a path that can be drawn as a line)?"""
    return all((c[0] - a[0], c[1] - a[1]) in _HAV_STEPS for a, c in zip(cells, cells[1:]))


class _RunIndex:
    """Membership in row runs ``(x, first y, last y)`` without a set of cells."""

    def __init__(self, runs):
        self.rows = {}
        for x, first, last in runs:
            self.rows.setdefault(x, []).append((first, last))

    def __contains__(self, cell):
        import bisect

        x, y = cell
        row = self.rows.get(x)
        if not row:
            return False
        index = bisect.bisect_right(row, (y, float("inf"))) - 1
        return index >= 0 and row[index][0] <= y <= row[index][1]


def _run_cells(runs):
    return [(x, y) for x, first, last in runs for y in range(first, last + 1)]


def _hav_enclosed_runs(runs):
    """One shape per run of enclosed hexagons (constant x, consecutive y)."""
    out = []
    for x, first, last in runs:
        a = _hav_centre(x, first)
        b = _hav_centre(x, last)
        # Hexagon vertices: V3 (-R, 0), V2 (-R/2, -H), V1 (R/2, -H), V0 (R, 0),
        # V5 (R/2, H), V4 (-R/2, H) in SVG coordinates; the run's outline is
        # cut straight from the first hexagon's V2 to the last one's V1.
        points = [(a[0] - _R, a[1]), (a[0] - _R / 2, a[1] - _H), (b[0] + _R / 2, b[1] - _H),
                  (b[0] + _R, b[1]), (b[0] + _R / 2, b[1] + _H), (a[0] - _R / 2, a[1] + _H)]
        out.append(f'<polygon class="enclosed-run" data-x="{x}" data-y1="{first}" '
                   f'data-y2="{last}" points="{_points(points)}"/>')
    return out


def _inner_polygon(polygon, box):
    """The part of a convex polygon inside a rectangle (Sutherland-Hodgman)."""
    min_x, min_y, max_x, max_y = box
    for inside, cut in (
            (lambda p: p[0] >= min_x, lambda p, q: _cut_x(p, q, min_x)),
            (lambda p: p[0] <= max_x, lambda p, q: _cut_x(p, q, max_x)),
            (lambda p: p[1] >= min_y, lambda p, q: _cut_y(p, q, min_y)),
            (lambda p: p[1] <= max_y, lambda p, q: _cut_y(p, q, max_y))):
        result = []
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


def _cut_x(p, q, x):
    t = (x - p[0]) / (q[0] - p[0])
    return (x, p[1] + t * (q[1] - p[1]))


def _cut_y(p, q, y):
    t = (y - p[1]) / (q[1] - p[1])
    return (p[0] + t * (q[0] - p[0]), y)


def _hav_grid_pattern(box):
    """A tile of the hexagon grid (3R by sqrt(3) R), aligned with the cell centres.

    The tile's origin is a cell centre next to the view (renderers lose
    precision far from it)."""
    w, h = 3 * _R, 2 * _H
    x0 = math.floor(box[0] / w) * w
    y0 = math.floor(box[1] / h) * h
    d = []
    for cx, cy in ((0, 0), (w, 0), (0, h), (w, h), (w / 2, -_H), (w / 2, _H), (w / 2, 3 * _H)):
        d.append(f"M{_n(cx - _R)} {_n(cy)}{_HAV_CELL_TAIL}")
    return (f'<pattern id="hexgrid" patternUnits="userSpaceOnUse" x="{_n(x0)}" y="{_n(y0)}" '
            f'width="{_n(w)}" height="{_n(h)}">'
            f'<rect width="{_n(w)}" height="{_n(h)}" fill="#f7ecd6"/>'
            f'<path d="{"".join(d)}" fill="none" stroke="#b8a47f" stroke-width=".7"/></pattern>')


def _swatch_hex(x, y, classes, r=9.0):
    h = r * _SQRT3 / 2
    points = [(x - r, y), (x - r / 2, y - h), (x + r / 2, y - h), (x + r, y),
              (x + r / 2, y + h), (x - r / 2, y + h)]
    return f'<polygon class="{("swatch " + classes).strip()}" points="{_points(points)}"/>'


def _legend_rows(items, y0=0):
    """Legend rows: (swatch markup builder, label lines); returns (markup, height)."""
    out = [f'<text class="legend-title" x="0" y="{y0 + 14}" font-size="14">Legend</text>']
    y = y0 + 36
    for swatch, lines in items:
        out.append(swatch(12, y))
        for number, line in enumerate(lines):
            out.append(f'<text x="30" y="{_n(y + 4 + number * 14)}" font-size="12">{_esc(line)}</text>')
        y += 14 * max(len(lines), 1) + 12
    return out, y


def _hav_legend(size, w, stones, mode, region, outline, box):
    kinds = w["kinds"]
    items = [
        (lambda x, y: _swatch_hex(x, y, "stone"),
         [f"stone ({len(stones)} drawn)", "numbered by move" if size <= _NUMBERED_MAX else
          "move numbers omitted (S > 12)"]),
    ]
    if w["move"]:
        items.append((lambda x, y: _swatch_hex(x, y, "stone winning-move"),
                      [f"the winning move ({w['move']})"]))
    if "bridge" in kinds:
        items.append((lambda x, y: _swatch_hex(x, y, "stone bridge")
                      + f'<line class="bridge-path" x1="{x - 9}" y1="{y}" x2="{x + 9}" y2="{y}"/>',
                      ["bridge: a path joining", "two corners"]))
    if "fork" in kinds:
        names = ", ".join(HAVANNAH_EDGES[e] for e in w["fork_edges"])
        items.append((lambda x, y: _swatch_hex(x, y, "stone fork"),
                      ["fork: stones joining", "three edges"]))
        items.append((lambda x, y: f'<line class="fork-edge" x1="{x - 9}" y1="{y}" '
                                   f'x2="{x + 9}" y2="{y}"/>',
                      ["edges the fork touches:", names]))
    if "ring" in kinds:
        items.append((lambda x, y: _swatch_hex(x, y, "stone ring")
                      + f'<line class="ring-loop" x1="{x - 9}" y1="{y}" x2="{x + 9}" y2="{y}"/>',
                      ["ring: a loop of stones"]))
        items.append((lambda x, y: _swatch_hex(x, y, "enclosed"),
                      [f"enclosed empty hexagon ({w['enclosed_count']})"]))
    items.append((lambda x, y: _swatch_hex(x, y, ""),
                  ["empty hexagon" + (" (x,y)" if size <= _NUMBERED_MAX else "")]))
    items.append((lambda x, y: _swatch_hex(x, y, "corner"), ["corner hexagon"]))
    out, y = _legend_rows(items)
    notes = ["(1,1) is the bottom corner;", "(x, y+1) is at two o'clock,", "(x+1, y) at ten o'clock."]
    if mode in ("region", "stones"):
        (x_lo, x_hi), (y_lo, y_hi), _ = region
        notes += ["", "Shown: the region round the", f"stones, x {x_lo}..{x_hi}, y {y_lo}..{y_hi};",
                  "the grid elsewhere is a pattern."]
    out.extend(_text_block(0, y + 4, notes, size=12))
    y += 4 + len(notes) * 16
    if mode in ("region", "stones"):
        # An overview of the whole board with the shown region.
        xs = [p[0] for p in outline]
        ys = [p[1] for p in outline]
        span = max(max(xs) - min(xs), max(ys) - min(ys))
        k = 160 / span
        ox, oy = 20 - min(xs) * k, y + 10 - min(ys) * k
        pts = [(ox + px * k, oy + py * k) for px, py in outline]
        out.append(f'<polygon class="overview-board" points="{_points(pts)}"/>')
        x0, y0, x1, y1 = box
        out.append(f'<rect class="overview-view" x="{_n(ox + x0 * k)}" y="{_n(oy + y0 * k)}" '
                   f'width="{_n(max((x1 - x0) * k, 1.5))}" height="{_n(max((y1 - y0) * k, 1.5))}"/>')
        y += 10 + (max(ys) - min(ys)) * k + 10
    return out, y


# ---------------------------------------------------------------------------
# Havannah as text
# ---------------------------------------------------------------------------

def havannah_text(size, moves, explanation, *, heading=None):
    """The board as rows of text (top row first): ``.`` empty, ``o`` stone,
    ``#`` stone of the winning structure, ``*`` enclosed empty hexagon."""
    if size > HAVANNAH_TEXT_MAX:
        raise InputError(f"the text view is for boards up to S = {HAVANNAH_TEXT_MAX}; "
                         f"this one has S = {size} (draw it as SVG instead)")
    w = _havannah_witness(size, moves, explanation)
    stones = set(_drawn_moves(moves, w["move"]))
    structure = set(w["bridge"]) | set(w["fork"]) | set(w["loop"])
    enclosed = set(_run_cells(w["enclosed_runs"]))
    top = 2 * size - 1
    lines = [f"{heading}: {w['answer']}" if heading else w["answer"]]
    # Row r holds the hexagons with x + y = r; column 2 (y - x + S - 1).
    for r in range(2 * top, 1, -1):
        line = [" "] * (2 * (2 * size - 2) + 1)
        for x in range(max(1, r - top), min(top, r - 1) + 1):
            y = r - x
            if not _hav_on_board(size, x, y):
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
# Hex
# ---------------------------------------------------------------------------

_W = _SQRT3 * _R            # width of a pointy-topped hexagon


def _hex_centre(i, j):
    return _W * (j + i / 2), 1.5 * _R * i


_HEX_CELL_TAIL = (f"l{_n(_W / 2)} {_n(_R / 2)}v{_n(_R)}l-{_n(_W / 2)} {_n(_R / 2)}"
                  f"l-{_n(_W / 2)}-{_n(_R / 2)}v-{_n(_R)}z")


def _hex_cell_d(i, j):
    cx, cy = _hex_centre(i, j)
    return f"M{_n(cx)} {_n(cy - _R)}{_HEX_CELL_TAIL}"


def _hex_witness(rows, explanation):
    """Normalise a Hex explanation (an Explanation or a dict) to a plain dict."""
    red = sum(row.count("R") for row in rows)
    blue = sum(row.count("B") for row in rows)
    letter_of = {"red": "R", "blue": "B", "R": "R", "B": "B", "r": "R", "b": "B"}
    if isinstance(explanation, dict):
        answer = str(explanation.get("answer"))
        reason = explanation.get("reason")
        last_moves = _cells(explanation.get("last_moves"))
        winner = letter_of.get(explanation.get("winner"))
        chains = []
        if explanation.get("chain"):
            chains.append((winner, _cells(explanation["chain"])))
        for chain in explanation.get("chains") or ():
            if isinstance(chain, dict):
                chains.append((letter_of.get(chain.get("colour") or chain.get("color")),
                               _cells(chain.get("cells"))))
            elif (len(chain) == 2 and isinstance(chain[0], str)):
                chains.append((letter_of.get(chain[0]), _cells(chain[1])))
            else:
                chains.append((None, _cells(chain)))
    else:
        result = explanation.result
        answer = str(result)
        reason = result.reason
        last_moves = sorted(result.last_moves)
        chains = [(letter_of.get(colour), _cells(cells)) for colour, cells in explanation.chains]
    # A chain's colour: the stones it runs over.
    chains = [(colour or (rows[cells[0][0]][cells[0][1]] if cells else None), cells)
              for colour, cells in chains]
    winner = {"Red wins": "R", "Blue wins": "B"}.get(answer)
    return {"answer": answer, "reason": reason, "last_moves": last_moves, "chains": chains,
            "red": red, "blue": blue, "winner": winner}


_NAME = {"R": "Red", "B": "Blue"}


def _stones(count):
    return "1 stone" if count == 1 else f"{count} stones"


def _hex_reason_text(w):
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


_HEX_STYLE = _COMMON_STYLE + (
    ".side-red,.red{fill:#d7263d}"
    ".side-blue,.blue{fill:#1b64c4}"
    ".cell,.swatch{fill:#f4ecdc;stroke:#6e6250;stroke-width:.8}"
    ".cell.red,.swatch.red{fill:#d7263d}"
    ".cell.blue,.swatch.blue{fill:#1b64c4}"
    ".chain-line{fill:none;stroke:#ffd23f;stroke-width:3.2;stroke-linecap:round;"
    "stroke-linejoin:round}"
    ".chain-line.second{stroke:#fff;stroke-dasharray:5 3}"
    ".last-move-mark{fill:#fff;stroke:#111;stroke-width:1.6}"
    ".label{fill:#555;text-anchor:middle}"
)


def hex_svg(rows, explanation, *, heading=None):
    """The SVG picture of a Hex board (``rows``: N strings of ``R``, ``B``, ``.``).

    ``explanation``: :func:`havhex.hex.explain`'s Explanation, or a dict with
    ``answer``, ``reason``, ``winner``, ``chain``/``chains`` and ``last_moves``.
    """
    rows = [str(row) for row in rows]
    n = len(rows)
    if n > HEX_SVG_MAX:
        raise InputError(f"the picture is for boards up to N = {HEX_SVG_MAX}; "
                         f"this one has N = {n}")
    w = _hex_witness(rows, explanation)
    chain_of = {}
    for index, (_, cells) in enumerate(w["chains"]):
        for cell in cells:
            chain_of.setdefault(cell, index)
    last = set(w["last_moves"])

    frame = 0.55 * _R
    d = _R + frame
    corners = {
        "tl": (_hex_centre(0, 0), (-_SQRT3 * d, -d)),
        "tr": (_hex_centre(0, n - 1), (d / _SQRT3, -d)),
        "br": (_hex_centre(n - 1, n - 1), (_SQRT3 * d, d)),
        "bl": (_hex_centre(n - 1, 0), (-d / _SQRT3, d)),
    }
    outer = {k: (c[0] + v[0], c[1] + v[1]) for k, (c, v) in corners.items()}
    mid = ((outer["tl"][0] + outer["br"][0]) / 2, (outer["tl"][1] + outer["br"][1]) / 2)
    labels = n <= 40
    label_room = 2.2 * _R if labels else 0
    xs = [p[0] for p in outer.values()]
    ys = [p[1] for p in outer.values()]
    box = (min(xs) - 4 - label_room, min(ys) - 4 - label_room, max(xs) + 4, max(ys) + 4)

    board = []
    for side, a, b, colour in (("top", "tl", "tr", "red"), ("right", "tr", "br", "blue"),
                               ("bottom", "br", "bl", "red"), ("left", "bl", "tl", "blue")):
        board.append(f'<polygon class="side side-{colour}" data-side="{side}" '
                     f'points="{_points((outer[a], outer[b], mid))}"/>')
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
                         f'd="{_hex_cell_d(i, j)}"/>')
    for index, (_, cells) in enumerate(w["chains"]):
        second = " second" if index else ""
        if len(cells) == 1:
            cx, cy = _hex_centre(*cells[0])
            board.append(f'<circle class="chain-line{second}" cx="{_n(cx)}" cy="{_n(cy)}" r="3"/>')
        elif cells:
            board.append(f'<polyline class="chain-line{second}" points="'
                         f'{_points(_hex_centre(i, j) for i, j in cells)}"/>')
    for i, j in sorted(last):
        cx, cy = _hex_centre(i, j)
        board.append(f'<circle class="last-move-mark" cx="{_n(cx)}" cy="{_n(cy)}" r="3.6"/>')
    if labels:
        for j in range(n):
            cx, _ = _hex_centre(0, j)
            board.append(f'<text class="label" x="{_n(cx)}" y="{_n(-_R - frame - 4)}" '
                         f'font-size="7">{j}</text>')
        for i in range(n):
            cx, cy = _hex_centre(i, 0)
            x = cx - _W / 2 - 2 * d / _SQRT3 - 6
            board.append(f'<text class="label" x="{_n(x)}" y="{_n(cy + 2.5)}" '
                         f'font-size="7">{i}</text>')

    items = [
        (lambda x, y: _swatch_hex_pointy(x, y, "red"), [f"Red stone ({w['red']})"]),
        (lambda x, y: _swatch_hex_pointy(x, y, "blue"), [f"Blue stone ({w['blue']})"]),
        (lambda x, y: _swatch_hex_pointy(x, y, ""), ["empty cell"]),
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
    if last:
        items.append((lambda x, y: f'<circle class="last-move-mark" cx="{x}" cy="{y}" r="5"/>',
                      [f"possible last move ({len(last)})"]))
    legend, legend_h = _legend_rows(items)
    notes = ["rows from the top, columns", "from the left, from 0"]
    reason = _hex_reason_text(w)
    legend.extend(_text_block(0, legend_h + 4, notes, size=12))
    legend_h += 4 + len(notes) * 16
    subtitle = [(f"{heading}: " if heading else "") + f"N = {n}"]
    if reason:
        subtitle.append(f"{w['reason']}: {reason}")
    layout = _Layout(box, legend_h, subtitle)
    desc = f"Hex board N = {n}; answer: {w['answer']}" + (f" ({w['reason']})" if w["reason"] else "")
    return _document(layout, w["answer"], subtitle, _HEX_STYLE, [], board, legend, desc)


def _swatch_hex_pointy(x, y, classes, r=9.0):
    half = r * _SQRT3 / 2
    points = [(x, y - r), (x + half, y - r / 2), (x + half, y + r / 2), (x, y + r),
              (x - half, y + r / 2), (x - half, y - r / 2)]
    return f'<polygon class="{("swatch " + classes).strip()}" points="{_points(points)}"/>'


def hex_text(rows, explanation, *, heading=None):
    """The board as a rhombus leaning right: ``R``/``B``/``.``, the chain in
    lower case, ``*`` for the possible last moves."""
    rows = [str(row) for row in rows]
    n = len(rows)
    if n > HEX_TEXT_MAX:
        raise InputError(f"the text view is for boards up to N = {HEX_TEXT_MAX}; "
                         f"this one has N = {n} (draw it as SVG instead)")
    w = _hex_witness(rows, explanation)
    chain = {cell for _, cells in w["chains"] for cell in cells}
    last = set(w["last_moves"])
    answer = w["answer"] + (f" ({w['reason']})" if w["reason"] else "")
    lines = [f"{heading}: {answer}" if heading else answer]
    width = len(str(n - 1))
    lines.append(" " * (width + 1) + " ".join(str(j % 10) for j in range(n)))
    for i, row in enumerate(rows):
        cells = []
        for j, ch in enumerate(row):
            if (i, j) in last:
                ch = "*"
            elif (i, j) in chain:
                ch = ch.lower()
            cells.append(ch)
        lines.append(f"{i:>{width}} " + " " * i + " ".join(cells))
    reason = _hex_reason_text(w)
    if reason:
        lines.append(reason)
    lines.append("R red  B blue  . empty  r/b chain  * possible last move;"
                 " Red joins top and bottom, Blue left and right")
    return "\n".join(lines) + "\n"
