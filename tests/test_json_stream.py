"""The CLI writes a ring's enclosed cells from runs, in pieces, byte for byte
as json.dumps would."""
import json

from havhex import havannah
from havhex.cli import _json_pieces


def _hexagonal_ring(size, radius):
    centre = size
    x, y = centre - radius, centre - radius
    cells = []
    for dx, dy in ((0, 1), (1, 1), (1, 0), (0, -1), (-1, -1), (-1, 0)):
        for _ in range(radius):
            cells.append((x, y))
            x, y = x + dx, y + dy
    return cells


def test_streamed_json_equals_json_dumps(tmp_path):
    moves = _hexagonal_ring(60, 40)  # encloses 3 * 40 * 39 + 1 - ... cells, thousands
    path = tmp_path / "ring.in"
    path.write_text(f"1\n60 {len(moves)}\n" + "".join(f"{x} {y}\n" for x, y in moves))
    (plain,) = havannah.explain_file(path)
    (lazy,) = havannah.iter_explain_file(path, lazy_cells=True)
    assert isinstance(lazy["ring"]["enclosed"], havannah.EnclosedCells)
    assert lazy["ring"]["enclosed"] == plain["ring"]["enclosed"]
    assert len(lazy["ring"]["enclosed"]) == len(plain["ring"]["enclosed"]) > 4096
    pieces = list(_json_pieces(lazy))
    assert "".join(pieces) == json.dumps(plain, separators=(", ", ": "))
    assert max(len(piece) for piece in pieces) < 4096 * 16  # bounded pieces


def test_enclosed_cells_compare_like_the_list():
    cells = havannah.EnclosedCells([(3, 2, 4), (4, 3, 3)])
    assert list(cells) == [[3, 2], [3, 3], [3, 4], [4, 3]] and len(cells) == 4
    assert cells == [[3, 2], [3, 3], [3, 4], [4, 3]]
    assert cells != [[3, 2], [3, 3], [3, 4]]
