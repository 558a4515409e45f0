"""Little Golem's Havannah cells in havhex's (x, y), as docs/records.md
states them: row letter r (a = 0), number n, c = n - 1, plus r + 1 - S for
the rows past the middle, (x, y) = (c + 1, r + 1).  Checked against the
board's geometry, not against the reader's own formula: every cell of the
board is named exactly once, corners land on corners, and neighbours in
Little Golem's rows are neighbours on the board."""
import pytest

from havhex import records
from havhex.havannah import geometry
from sgf_names import column_letters


def row_name(r):
    """Little Golem's row letters, continued past z the way SGF Hex names
    columns (aa, ab, ...)."""
    return column_letters(r)


def little_golem_cells(size):
    """Every Little Golem cell name of base ``size``, row by row: row r holds
    S + r cells up to the middle row and 3S - 2 - r after it."""
    names = []
    for r in range(2 * size - 1):
        length = size + r if r < size else 3 * size - 2 - r
        names.extend(f"{row_name(r)}{n}" for n in range(1, length + 1))
    return names


def read_cells(size, names, upper=False):
    moves = "".join(f";{'WB'[k % 2]}[{name.upper() if upper else name}]"
                    for k, name in enumerate(names))
    data = f"(;FF[4]SZ[{size}]RU[LG]{moves})".encode()
    game, = records.read(data, game="havannah")
    return [move for _, move in game.moves]


@pytest.mark.parametrize("size", [2, 3, 4, 8, 10, 14, 20])
def test_every_cell_is_named_once(size):
    names = little_golem_cells(size)
    cells = read_cells(size, names, upper=size == 8)
    assert all(isinstance(cell, tuple) for cell in cells), cells
    assert len(set(cells)) == len(cells) == geometry.cell_count(size)
    assert all(geometry.on_board(size, x, y) for x, y in cells)


def test_the_worked_example_of_the_docs():
    cells = dict(zip(little_golem_cells(3), read_cells(3, little_golem_cells(3))))
    assert [cells[name] for name in ("a1", "a3", "c1", "c5", "e1", "e3")] == \
        [(1, 1), (3, 1), (1, 3), (5, 3), (3, 5), (5, 5)]
    assert cells["d1"] == (2, 4) and cells["e1"] == (3, 5) and cells["c3"] == (3, 3)
    assert sorted(geometry.corners(3)) == sorted(
        cells[name] for name in ("a1", "a3", "c1", "c5", "e1", "e3"))
    around = [cells[name] for name in ("b2", "b3", "c2", "c4", "d2", "d3")]
    assert sorted(around) == sorted(geometry.neighbours(3, 3, 3))


@pytest.mark.parametrize("size", [3, 6, 10])
def test_little_golem_rows_are_lines_of_the_board(size):
    """Cells next to each other in a Little Golem row are neighbours, one
    step of (1, 0) apart; a row's first cells lie on the board's border."""
    names = little_golem_cells(size)
    cells = dict(zip(names, read_cells(size, names)))
    for r in range(2 * size - 1):
        row = [cells[name] for name in names if name.rstrip("0123456789") == row_name(r)]
        for (x1, y1), (x2, y2) in zip(row, row[1:]):
            assert (x2 - x1, y2 - y1) == (1, 0)
        assert all(y == r + 1 for _, y in row)
        first, last = row[0], row[-1]
        assert geometry.edge_of(size, *first) is not None or geometry.corner_of(size, *first) is not None
        assert geometry.edge_of(size, *last) is not None or geometry.corner_of(size, *last) is not None


def test_a_number_past_the_row_is_off_the_board():
    # Row a of base 3 has 3 cells; a4 is not one; e0 numbers nothing.
    game, = records.read(b"(;FF[4]SZ[3];W[a4];B[e0];W[f1])", game="havannah")
    assert [move for _, move in game.moves] == ["a4", "e0", "f1"]


def test_little_golem_result_names_the_loser():
    loser_black = b"(;FF[4]SZ[4]RU[LG]RE[B];W[a1];B[b2];W[c3];B[resign])"
    loser_white = b"(;FF[4]SZ[4]RU[LG]RE[W];W[a1];B[b2];W[resign])"
    assert next(records.read(loser_black, game="havannah")).recorded == "W"
    assert next(records.read(loser_white, game="havannah")).recorded == "B"
    r = next(records.replay(loser_black, game="havannah"))
    assert (r.end, r.recorded, r.moves) == ("resign", "W", 3)


def test_swap_hands_the_first_stone_to_black():
    # W[c3] (the centre (3, 3) of base 3), B[swap]: the stone is Black's and
    # White moves; W[a1], B[c1] ... as usual after that.
    r = next(records.replay(b"(;FF[4]SZ[3]RU[LG];W[c3];B[swap];W[a1])", game="havannah"))
    assert r.moves == 3 and "illegal" not in r.flags
    board = r.board()
    assert board.moves == ((3, 3), "swap", (1, 1))
    stones = board.to_array()
    assert stones[2][2] == 2 and stones[0][0] == 1     # black on the centre, white on (1, 1)


def test_the_table_of_the_docs_is_what_the_reader_reads():
    """docs/records.md's table of base 3, row by row, against the reader."""
    import re
    from pathlib import Path

    docs = Path(__file__).resolve().parents[2] / "docs" / "records.md"
    if not docs.is_file():
        pytest.skip("docs/records.md is not beside the tests (installed package)")
    rows = re.findall(r"^\| `([a-z])` \| (\d+) \| `([a-z0-9 ]+)` \| `([0-9(), ]+)` \|$",
                      docs.read_text(encoding="utf-8"), re.M)
    assert [row[0] for row in rows] == list("abcde")
    for letter, r, names, cells in rows:
        assert int(r) == ord(letter) - ord("a")
        shown = [tuple(map(int, pair)) for pair in re.findall(r"\((\d+),(\d+)\)", cells)]
        assert read_cells(3, names.split()) == shown, letter
