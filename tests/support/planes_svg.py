"""The pictures of docs/environments.md: each plane of a batch's observation
drawn from a real batch after a few fixed moves, so that the picture is what
the batch writes (tests/docs/test_docs_environments.py draws them again and
compares).  ``python tests/support/planes_svg.py`` writes them."""
import math
import sys
from pathlib import Path

DOCS = Path(__file__).resolve().parents[2] / "docs"

# The position each picture shows: moves from the empty board.
HEX_SIZE = 5
HEX_MOVES = (12, 6, 18)
HAVANNAH_BASE = 3
HAVANNAH_MOVES = (12, 6, 18)

CELL = 18.0                      # a hexagon's width in the picture
PANEL_GAP = 24.0
TITLE = 52.0
CAPTION = 30.0


def _position(batch, moves):
    import numpy

    batch.reset(seed=0)
    for action in moves:
        batch.step(numpy.array([action]))
    return batch.observation[0]


def hex_observation():
    from havhex.hex.batch import Batch

    return _position(Batch(1, HEX_SIZE, seed=0, autoreset="disabled"), HEX_MOVES)


def havannah_observation():
    from havhex.havannah.batch import Batch

    return _position(Batch(1, HAVANNAH_BASE, seed=0, autoreset="disabled"), HAVANNAH_MOVES)


def _hexagon(cx, cy, radius):
    points = []
    for k in range(6):
        angle = math.pi / 6 + k * math.pi / 3       # pointy tops
        points.append(f"{cx + radius * math.cos(angle):.1f},{cy + radius * math.sin(angle):.1f}")
    return " ".join(points)


def draw(observation, names, title, shift, on_board=None):
    """An SVG of every plane of ``observation`` (H, W, C), side by side:
    row r of the array drawn ``shift`` of a cell to the right of row r-1
    (+1/2 for Hex, -1/2 for Havannah, where (x+1, y+1) neighbours (x, y)),
    cells off the board (where ``on_board`` is False) left out."""
    rows, cols, planes = observation.shape
    radius = CELL / math.sqrt(3)
    step_y = 1.5 * radius
    offsets = [r * shift * CELL for r in range(rows)]
    left = min(0.0, min(offsets))
    width = (cols - 1) * CELL + max(offsets) - left + CELL
    height = (rows - 1) * step_y + 2 * radius
    per_row = 4
    panel_w, panel_h = width + PANEL_GAP, height + CAPTION
    total_w = max(per_row * panel_w + PANEL_GAP, 560.0)
    total_h = TITLE + math.ceil(planes / per_row) * panel_h + 8
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{total_w:.0f}" '
           f'height="{total_h:.0f}" viewBox="0 0 {total_w:.0f} {total_h:.0f}">',
           f"<title>{title}</title>",
           "<style>text{font-family:DejaVu Sans,Verdana,Arial,sans-serif;fill:#222}"
           ".off{fill:#f7ecd6;stroke:#a8916a;stroke-width:1}"
           ".on{fill:#2f6fd0;stroke:#a8916a;stroke-width:1}"
           ".title{font-size:14px;font-weight:bold}.caption{font-size:12px}</style>",
           f'<rect x="0" y="0" width="{total_w:.0f}" height="{total_h:.0f}" fill="#fff"/>',
           f'<text class="title" x="{PANEL_GAP:.0f}" y="22">{title}</text>',
           f'<text class="caption" x="{PANEL_GAP:.0f}" y="40">each plane from the view of '
           'the player to move; blue: True</text>']
    for plane in range(planes):
        x0 = PANEL_GAP + (plane % per_row) * panel_w - left + CELL / 2
        y0 = TITLE + (plane // per_row) * panel_h + radius
        for r in range(rows):
            for c in range(cols):
                if on_board is not None and not on_board[r, c]:
                    continue
                kind = "on" if observation[r, c, plane] else "off"
                out.append(f'<polygon class="{kind}" points="'
                           f'{_hexagon(x0 + c * CELL + offsets[r], y0 + r * step_y, radius)}"/>')
        out.append(f'<text class="caption" x="{x0 + left - CELL / 2:.1f}" '
                   f'y="{y0 + height - radius + 16:.1f}">{plane}: {names[plane]}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def hex_svg():
    from havhex.hex.batch import PLANES

    return draw(hex_observation(), PLANES,
                f"Hex {HEX_SIZE} x {HEX_SIZE} after the actions {', '.join(map(str, HEX_MOVES))}",
                0.5)


def havannah_svg():
    from havhex.havannah.batch import PLANES

    observation = havannah_observation()
    on_board = observation[..., PLANES.index("on_board")] if "on_board" in PLANES else None
    return draw(observation, PLANES,
                f"Havannah base {HAVANNAH_BASE} after the actions "
                f"{', '.join(map(str, HAVANNAH_MOVES))}", -0.5, on_board)


PICTURES = {"environments-hex.svg": hex_svg, "environments-havannah.svg": havannah_svg}


if __name__ == "__main__":
    for name in sys.argv[1:] or PICTURES:
        (DOCS / name).write_text(PICTURES[name](), encoding="utf-8")
        print(f"wrote docs/{name}")
