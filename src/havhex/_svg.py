"""What both games' pictures share: escaping, numbers, the page's layout,
the document round the board, the legend's rows and the common style.

Lengths are in drawing units; a hexagon has radius :data:`RADIUS`.
"""
import json
import math
import re

__all__ = [
    "RADIUS", "SQRT3", "COMMON_STYLE", "fit_text", "escape", "script_json", "number", "points", "cell_pairs",
    "text_block", "legend_rows", "Layout", "document",
]

# The annotations are for type checkers only, in quotes: drawing imports
# nothing more than before.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Callable, Iterable, List, Optional, Sequence, Tuple

    # (min_x, min_y, max_x, max_y) of the drawing.
    _Box = Tuple[float, float, float, float]

RADIUS = 10.0               # hexagon radius in drawing units
SQRT3 = math.sqrt(3)

COMMON_STYLE = (
    ".page{fill:#fff}"
    "text{font-family:DejaVu Sans,Verdana,Arial,sans-serif;fill:#222}"
    ".heading{font-weight:bold}"
    ".note{fill:#444}"
    ".legend-title{font-weight:bold}"
)


# What XML 1.0 forbids (C0 controls but tab, newline and carriage return;
# lone surrogates; U+FFFE, U+FFFF) and what HTML5's parser reports as an
# error (C1 controls, DEL, the noncharacters of every plane): a player's name
# or a move from a record can hold any of them, and one makes the SVG
# unreadable to an XML parser.
_UNFIT = re.compile(
    "[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff\ufdd0-\ufdef"
    + "".join(f"{chr(plane << 16 | 0xfffe)}{chr(plane << 16 | 0xffff)}" for plane in range(17))
    + "]")


def fit_text(text: object) -> str:
    """``text`` with each character XML 1.0 or HTML5 forbids replaced by
    U+FFFD (the replacement character)."""
    return _UNFIT.sub("\ufffd", str(text))


def escape(text: object) -> str:
    """``text`` safe inside an SVG or HTML element or a double-quoted
    attribute: markup characters escaped, forbidden characters replaced
    (see ``fit_text``)."""
    return (fit_text(text).replace("&", "&amp;").replace("<", "&lt;")
            .replace(">", "&gt;").replace('"', "&quot;"))


# In JSON inside <script>, "<!--" and "<script" would change how HTML reads
# the rest of the element and "</script" would close it: every "<", ">" and
# "&" is written as a \u escape, as are U+2028 and U+2029 (line ends to older
# JavaScript) and DEL (which json leaves as it is, and HTML5 reports).  The
# output is ASCII, so no character of the text can reach the HTML parser.
_SCRIPT_ESCAPES = {ord(c): f"\\u{ord(c):04x}" for c in "<>&\x7f\u2028\u2029"}


def script_json(value: object) -> str:
    """``value`` as JSON that is safe as the whole content of a <script>
    element: ASCII, no ``<``, ``>`` or ``&``; strings pass ``fit_text``
    first, so that lone surrogates become U+FFFD rather than escapes a
    strict JSON reader refuses."""
    return json.dumps(_fit_strings(value), separators=(",", ":"),
                      ensure_ascii=True).translate(_SCRIPT_ESCAPES)


def _fit_strings(value: object) -> object:
    if isinstance(value, str):
        return fit_text(value)
    if isinstance(value, dict):
        return {fit_text(k) if isinstance(k, str) else k: _fit_strings(v)
                for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_fit_strings(v) for v in value]
    return value


def number(value: float) -> str:
    """A coordinate with at most two decimals, no trailing zeros."""
    text = f"{value:.2f}"
    if text.endswith("00"):
        text = text[:-3]
    elif text.endswith("0"):
        text = text[:-1]
    return "0" if text == "-0" else text


def points(pairs: "Iterable[Tuple[float, float]]") -> str:
    """An SVG ``points`` list of (x, y) pairs."""
    return " ".join(f"{number(x)},{number(y)}" for x, y in pairs)


def cell_pairs(seq: "Optional[Iterable[Sequence[Any]]]") -> "List[Tuple[int, int]]":
    """A list of (int, int) from any sequence of pairs (None: empty)."""
    return [(int(a), int(b)) for a, b in (seq or ())]


def text_block(x: float, y: float, lines: "Iterable[str]", size: int = 12,
               cls: str = "note") -> "List[str]":
    """One ``<text>`` per line from ``(x, y)`` down."""
    out: "List[str]" = []
    for index, line in enumerate(lines):
        out.append(f'<text class="{cls}" x="{number(x)}" y="{number(y + index * (size + 4))}" '
                   f'font-size="{size}">{escape(line)}</text>')
    return out


def legend_rows(items: "Iterable[Tuple[Callable[[float, float], str], Sequence[str]]]",
                y0: float = 0) -> "Tuple[List[str], float]":
    """Legend rows from ``(swatch(x, y) -> markup, label lines)`` items;
    returns (markup, height)."""
    out = [f'<text class="legend-title" x="0" y="{y0 + 14}" font-size="14">Legend</text>']
    y = y0 + 36
    for swatch, lines in items:
        out.append(swatch(12, y))
        for index, line in enumerate(lines):
            out.append(f'<text x="30" y="{number(y + 4 + index * 14)}" font-size="12">'
                       f'{escape(line)}</text>')
        y += 14 * max(len(lines), 1) + 12
    return out, y


class Layout:
    """The page: a title, the board (a nested <svg> showing ``box`` of the
    drawing) and a legend column ``legend_h`` high."""

    PAD = 16
    LEGEND_W = 250

    def __init__(self, box: "_Box", legend_h: float, subtitle_lines: "Sequence[str]" = (),
                 board_px: float = 720, min_radius_px: float = 4.0, max_px: float = 3000) -> None:
        self.TITLE_H: float = 42 + 16 * len(subtitle_lines)
        min_x, min_y, max_x, max_y = box
        self.box = box
        width, height = max_x - min_x, max_y - min_y
        longest = max(width, height, 1.0)
        scale = min(3.0, board_px / longest)
        if scale * RADIUS < min_radius_px:
            scale = min(min_radius_px / RADIUS, max_px / longest)
        self.scale = scale
        self.board_w = width * scale
        self.board_h = height * scale
        self.width = max(self.PAD * 3 + self.board_w + self.LEGEND_W,
                         self.PAD * 2 + 7 * max((len(line) for line in subtitle_lines), default=0))
        self.height = self.TITLE_H + max(self.board_h, legend_h) + self.PAD
        self.legend_x = self.PAD * 2 + self.board_w

    def open_board(self) -> str:
        """The opening tag of the board's nested <svg>."""
        min_x, min_y, max_x, max_y = self.box
        return (f'<svg class="board" x="{number(self.PAD)}" y="{number(self.TITLE_H)}" '
                f'width="{number(self.board_w)}" height="{number(self.board_h)}" '
                f'viewBox="{number(min_x)} {number(min_y)} {number(max_x - min_x)} '
                f'{number(max_y - min_y)}">')


def document(layout: Layout, title: str, subtitle_lines: "Sequence[str]", style: str,
             defs: "Sequence[str]", board: "Sequence[str]", legend: "Sequence[str]",
             desc: "Optional[str]" = None) -> str:
    """The whole SVG document: ``board`` and ``legend`` are lists of markup."""
    out = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<svg xmlns="http://www.w3.org/2000/svg" version="1.1" '
        f'width="{number(layout.width)}" height="{number(layout.height)}" '
        f'viewBox="0 0 {number(layout.width)} {number(layout.height)}">',
        f"<title>{escape(title)}</title>",
    ]
    if desc:
        out.append(f"<desc>{escape(desc)}</desc>")
    out.append(f"<style>{style}</style>")
    if defs:
        out.append("<defs>" + "".join(defs) + "</defs>")
    out.append(f'<rect class="page" x="0" y="0" width="{number(layout.width)}" '
               f'height="{number(layout.height)}"/>')
    out.append(f'<text class="heading" x="{layout.PAD}" y="28" font-size="20">{escape(title)}</text>')
    out.extend(text_block(layout.PAD, 48, subtitle_lines, size=12, cls="note"))
    out.append(layout.open_board())
    out.extend(board)
    out.append("</svg>")
    out.append(f'<g class="legend" transform="translate({number(layout.legend_x)},'
               f'{number(layout.TITLE_H)})">')
    out.extend(legend)
    out.append("</g>")
    out.append("</svg>")
    return "\n".join(out) + "\n"
