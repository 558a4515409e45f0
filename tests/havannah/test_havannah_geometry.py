"""havhex.havannah.geometry against the compiled engine (through judged
cases: the engine's border masks and neighbours are only seen in its answers)
and against the literal reference (tests/support/ref_havannah.py)."""
import itertools

import pytest

import ref_havannah as ref
from havhex import havannah
from havhex.havannah import geometry

SIZES = (2, 3, 4, 5, 7)


def distance_from_centre(size, cell):
    dx, dy = cell[0] - size, cell[1] - size
    return max(abs(dx), abs(dy), abs(dx - dy))


# ---------------------------------------------------------------------------
# Against the reference
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("size", SIZES)
def test_board_and_rows_match_the_reference(size):
    cells = ref.board_cells(size)
    assert geometry.cell_count(size) == len(cells)
    for x in range(-1, 2 * size + 2):
        for y in range(-1, 2 * size + 2):
            assert geometry.on_board(size, x, y) == ((x, y) in cells), (x, y)
    from_rows = {(x, y) for x, first, last in geometry.rows(size) for y in range(first, last + 1)}
    assert from_rows == cells
    assert [x for x, _, _ in geometry.rows(size)] == list(range(1, 2 * size))
    (x_lo, x_hi), (y_lo, y_hi), (d_lo, d_hi) = geometry.bounds(size)
    assert {(x, y) for x in range(x_lo, x_hi + 1) for y in range(y_lo, y_hi + 1)
            if d_lo <= y - x <= d_hi} == cells
    for x in (0, 2 * size):
        with pytest.raises(ValueError):
            geometry.row_range(size, x)


@pytest.mark.parametrize("size", SIZES)
def test_neighbours_match_the_reference(size):
    assert geometry.NEIGHBOUR_STEPS == ref.NEIGHBOURS
    for x, y in sorted(ref.board_cells(size)):
        assert geometry.neighbours(size, x, y) == ref.neighbours(size, (x, y))


@pytest.mark.parametrize("size", SIZES)
def test_corners_and_edges_match_the_reference(size):
    assert list(geometry.corners(size)) == ref.corners(size)   # the statement's order
    for number, (x, y) in enumerate(geometry.corners(size)):
        assert geometry.corner_of(size, x, y) == number
    # The reference numbers the edges round the board; the engine (and
    # geometry) as the statement lists them.  The same hexagons, by condition.
    by_condition = {"x=1": 0, "y-x=S-1": 1, "y=2S-1": 2, "x=2S-1": 3, "x-y=S-1": 4, "y=1": 5}
    for x, y in sorted(ref.board_cells(size)):
        edge = geometry.edge_of(size, x, y)
        expected = ref.edge_of(size, (x, y))
        if expected is None:
            assert edge is None, (x, y)
        else:
            assert by_condition[geometry.EDGE_CONDITIONS[edge]] == expected, (x, y)
        if (x, y) not in ref.corners(size):
            assert geometry.corner_of(size, x, y) is None
    border = {(x, y) for x, y in ref.board_cells(size)
              if geometry.edge_of(size, x, y) is not None or geometry.corner_of(size, x, y) is not None}
    assert border == ref.border_cells(size)
    with pytest.raises(ValueError):
        geometry.edge_of(size, 0, 0)


@pytest.mark.parametrize("size", SIZES)
def test_edge_corners_are_the_ends_of_each_edge(size):
    """EDGE_CORNERS[k]: the two corners next to the hexagons of edge k."""
    corners = geometry.corners(size)
    for edge, ends in enumerate(geometry.EDGE_CORNERS):
        cells = [(x, y) for x, y in ref.board_cells(size) if geometry.edge_of(size, x, y) == edge]
        assert len(cells) == size - 2
        line = cells + [corners[k] for k in ends]
        # The edge and its two corners lie on one straight side of S hexagons.
        dx = {x for x, _ in line}
        dy = {y for _, y in line}
        dd = {x - y for x, y in line}
        assert len(line) == size and 1 in (len(dx), len(dy), len(dd)), (edge, line)
    # Going round the board, each corner and the next are the ends of one edge.
    round_trip = geometry.CORNERS_ROUND + geometry.CORNERS_ROUND[:1]
    assert sorted(geometry.CORNERS_ROUND) == list(range(6))
    assert ({tuple(sorted(pair)) for pair in zip(round_trip, round_trip[1:])}
            == set(geometry.EDGE_CORNERS))


def test_the_base_is_checked():
    for function in (geometry.cell_count, geometry.corners):
        with pytest.raises(ValueError):
            function(1)
        with pytest.raises(TypeError):
            function(2.0)


# ---------------------------------------------------------------------------
# Against the compiled engine
# ---------------------------------------------------------------------------

def judged(size, cases):
    """The engine's answers for several move lists on one board."""
    text = f"{len(cases)}\n" + "".join(
        f"{size} {len(moves)}\n" + "".join(f"{x} {y}\n" for x, y in moves) for moves in cases)
    return havannah.judge_text(text)


def expected_by_geometry(size, moves, first):
    """The answer the engine must give for ``moves`` when the first ``first``
    moves fill the inside (one group, no structure, nothing empty inside) and
    the rest are border hexagons joining it: the bridge and fork of the
    corners and edges that geometry names."""
    corners_seen, edges_seen = set(), set()
    for number, (x, y) in enumerate(moves[first:], first + 1):
        corner = geometry.corner_of(size, x, y)
        edge = geometry.edge_of(size, x, y)
        if corner is not None:
            corners_seen.add(corner)
        if edge is not None:
            edges_seen.add(edge)
        kinds = (["bridge"] if len(corners_seen) >= 2 else []) + (["fork"] if len(edges_seen) >= 3 else [])
        if kinds:
            return f"{'-'.join(kinds)} in move {number}"
    return "none"


@pytest.mark.parametrize("size", (3, 4, 5))
def test_corners_and_edges_match_the_engines_border_masks(size):
    """Every pair and triple of border hexagons joined to the filled inside:
    the engine finds a bridge or a fork exactly where geometry's corners and
    edges say (a hexagon of a wrong edge, or a corner counted on an edge,
    changes an answer)."""
    inside = [(x, y) for x, first, last in geometry.rows(size) for y in range(first, last + 1)
              if distance_from_centre(size, (x, y)) <= size - 2]
    # The filled inside alone makes nothing: it touches no corner or edge, and
    # only border hexagons are left empty, which nothing encloses.
    assert str(havannah.first_win(size, inside)) == "none"
    border = sorted(ref.border_cells(size))
    cases = [inside + list(chosen) for count in (2, 3)
             for chosen in itertools.permutations(border, count)
             if count == 2 or chosen[0] < chosen[1] < chosen[2]]
    answers = [str(result) for result in judged(size, cases)]
    expected = [expected_by_geometry(size, moves, len(inside)) for moves in cases]
    assert answers == expected
    assert {"none", f"bridge in move {len(inside) + 2}", f"fork in move {len(inside) + 3}"} <= set(answers)


@pytest.mark.parametrize("size", (3, 4, 6))
def test_neighbours_match_the_engine(size):
    """The six neighbours of an inner hexagon enclose it for the engine (a
    ring on the sixth stone), five of them do not; each neighbour pair of the
    walk round it joins two stones into one group, so leaving one out of the
    stones round a corner-to-corner path breaks the bridge."""
    for x, first, last in geometry.rows(size):
        for y in range(first, last + 1):
            around = geometry.neighbours(size, x, y)
            if len(around) < 6:
                continue
            assert havannah.enclosed_empty(size, around) == [(x, y)]
            assert "ring" in havannah.first_win(size, around).kinds
            assert havannah.enclosed_empty(size, around[1:]) == []
    # A path from corner 0 to corner 1 along edge 0, each step a geometry neighbour.
    corners = geometry.corners(size)
    path = [(1, y) for y in range(1, size + 1)]
    assert all(b in geometry.neighbours(size, *a) for a, b in zip(path, path[1:]))
    assert path[0] == corners[0] and path[-1] == corners[1]
    assert str(havannah.first_win(size, path)) == f"bridge in move {size}"
