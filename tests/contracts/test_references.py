"""Tests that the literal reference judges (ref_havannah, ref_hex) are right.

They must reproduce the official answers in ../shared/conformance (skipped
cleanly when that folder is absent, e.g. from an installed wheel) and a few
hand-made positions.
"""

import random

import pytest

import needs
import ref_havannah as hav
import ref_hex as hex_

from conftest import CONFORMANCE


def _read_pair(problem, name):
    folder = CONFORMANCE / problem
    inp = folder / (name + ".in")
    out = folder / (name + ".out")
    if not inp.is_file() or not out.is_file():
        needs.missing("conformance", f"conformance data {problem}/{name} not available")
    return inp.read_text(), out.read_text().splitlines()


# ==========================================================================
# Havannah
# ==========================================================================

@pytest.mark.parametrize("size", [2, 3, 4, 5, 8])
def test_havannah_board_shape(size):
    cells = hav.board_cells(size)
    assert len(cells) == 3 * size * (size - 1) + 1
    corners = hav.corners(size)
    assert len(set(corners)) == 6 and set(corners) <= cells
    # Neighbour relation is symmetric; interior cells have six neighbours.
    for cell in cells:
        for other in hav.neighbours(size, cell):
            assert cell in hav.neighbours(size, other)
    # Each edge holds S-2 hexagons; corners are on no edge.
    per_edge = {}
    for cell in cells:
        e = hav.edge_of(size, cell)
        if e is not None:
            per_edge[e] = per_edge.get(e, 0) + 1
    assert all(hav.edge_of(size, c) is None for c in corners)
    if size > 2:
        assert per_edge == {e: size - 2 for e in range(6)}
    else:
        assert per_edge == {}
    # Border = corners + edge cells = 6(S-1) hexagons.
    border = hav.border_cells(size)
    assert len(border) == 6 * (size - 1)
    assert border == {c for c in cells if c in corners or hav.edge_of(size, c) is not None}


def test_havannah_neighbours_clockwise():
    # Twelve o'clock is the sum of two o'clock (0, 1) and ten o'clock (1, 0).
    assert hav.NEIGHBOURS == ((1, 1), (0, 1), (-1, 0), (-1, -1), (0, -1), (1, 0))


def test_havannah_sample():
    text, expected = _read_pair("havannah", "sample")
    assert hav.judge_text(text) == expected


def test_havannah_small_practice():
    text, expected = _read_pair("havannah", "small-practice")
    # The whole file (S up to 50) with the ring pruning ...
    assert hav.judge_text(text, prune=True) == expected
    # ... and the small boards fully literally.
    cases = hav.parse_input(text)
    checked = 0
    for number, (size, moves) in enumerate(cases, start=1):
        if size <= 12:
            kinds, k = hav.first_win(size, moves)
            assert hav.format_answer(number, kinds, k) == expected[number - 1]
            checked += 1
    assert checked >= 5


def _ring_around(centre):
    x, y = centre
    return [(x + dx, y + dy) for dx, dy in hav.NEIGHBOURS]


def test_havannah_ring_around_empty_cell():
    # S = 5, centre (5, 5); six stones round it, the centre stays empty.
    moves = _ring_around((5, 5))
    assert hav.first_win(5, moves) == (("ring",), 6)
    assert hav.enclosed_empty(5, moves) == frozenset({(5, 5)})


def test_havannah_ring_around_own_stone_is_no_ring():
    moves = [(5, 5)] + _ring_around((5, 5))
    assert hav.first_win(5, moves) == ((), None)
    assert hav.first_win(5, moves, prune=True) == ((), None)
    assert hav.enclosed_empty(5, moves) == frozenset()
    # Filling the centre after the ring is closed does not undo the answer.
    assert hav.first_win(5, _ring_around((5, 5)) + [(5, 5)]) == (("ring",), 6)


def test_havannah_empty_border_cell_is_never_enclosed():
    # Stones round the edge hexagon (1, 3) of S = 5 on all its board sides.
    size = 5
    target = (1, 3)
    assert hav.edge_of(size, target) is not None
    moves = hav.neighbours(size, target)
    assert len(moves) == 4
    assert hav.enclosed_empty(size, moves) == frozenset()
    assert hav.first_win(size, moves) == ((), None)


def test_havannah_bridge_and_fork():
    size = 3
    # (1,1) -> (1,2) -> (1,3): corner, edge 0, corner.
    assert hav.first_win(size, [(1, 1), (1, 3), (1, 2)]) == (("bridge",), 3)
    # A path from edge 0 through the centre to edge 3: two edges, no fork yet.
    path = [(1, 2), (2, 2), (3, 3), (4, 4), (5, 4)]
    assert [hav.edge_of(size, c) for c in path] == [0, None, None, None, 3]
    assert hav.first_win(size, path) == ((), None)
    # (2,1) lies on edge 5 (y = 1) and touches (2,2): third edge, fork.
    assert hav.edge_of(size, (2, 1)) == 5
    assert hav.first_win(size, path + [(2, 1)]) == (("fork",), 6)


def test_havannah_corners_do_not_count_for_fork():
    size = 3
    assert all(hav.edge_of(size, c) is None for c in hav.corners(size))
    # Edge 5, corner (1,1), edge 0, corner (1,3): two edges only -> no fork,
    # but the two corners make a bridge with the last stone.
    moves = [(2, 1), (1, 1), (1, 2), (1, 3)]
    assert hav.first_win(size, moves) == (("bridge",), 4)
    # A group touching edge 0, corner (1,1) and edge 5 only: nothing at all.
    assert hav.kinds_now(size, [(1, 2), (1, 1), (2, 1)]) == ()


def test_havannah_several_kinds_at_once():
    # S = 2: the six corners surround the centre (2, 2), the only interior
    # hexagon.  Three pairwise non-adjacent corners, then a fourth joins two
    # of them: a bridge, but no ring yet (empty corners touch the outside).
    size = 2
    order = [(1, 1), (2, 3), (3, 2), (1, 2), (2, 1), (3, 3)]
    for cell in order[:3]:
        for other in order[:3]:
            assert cell == other or other not in hav.neighbours(size, cell)
    assert hav.first_win(size, order) == (("bridge",), 4)
    # All six corners enclose the empty centre: bridge and ring together.
    assert hav.kinds_now(size, hav.corners(size)) == ("bridge", "ring")
    assert hav.judge_text("1\n2 6\n1 1\n1 2\n2 1\n2 3\n3 2\n3 3\n") == [
        "Case #1: bridge in move 2"
    ]


def test_havannah_prune_agrees_with_literal_on_random_games():
    rng = random.Random(20240601)
    seen = set()
    for _ in range(400):
        size = rng.randint(2, 7)
        if rng.random() < 0.5:
            moves = hav.random_game(rng, size)
        else:
            moves = hav.wandering_game(rng, size, rng.randint(0, 3 * size * size))
        assert len(set(moves)) == len(moves)
        assert set(moves) <= hav.board_cells(size)
        literal = hav.first_win(size, moves)
        assert hav.first_win(size, moves, prune=True) == literal
        seen.update(literal[0])
    assert seen == {"bridge", "fork", "ring"}


def test_havannah_judge_text_format():
    text = "2\n5 0\n2 2\n1 1\n1 2\n"
    assert hav.judge_text(text) == ["Case #1: none", "Case #2: bridge in move 2"]


# ==========================================================================
# Hex
# ==========================================================================

def test_hex_sample():
    text, expected = _read_pair("hex", "sample")
    assert hex_.judge_text(text) == expected


def test_hex_test_set_1():
    text, expected = _read_pair("hex", "test-set-1")
    assert hex_.judge_text(text) == expected


def test_hex_test_set_2():
    text, expected = _read_pair("hex", "test-set-2")
    # The literal version takes most of a minute here; the shortcut only
    # tries the stones of one winning chain (same answer, see below).
    assert hex_.judge_text(text, shortcut=True) == expected


def test_hex_neighbour_orientation():
    # (0,1) and (1,0) touch; (0,0) and (1,1) do not.
    assert hex_.judge([".R", "RB"])[:2] == ("Red wins", None)
    assert hex_.judge(["RB", ".R"])[:2] == ("Nobody wins", None)
    assert hex_.judge([".B", "BR"])[:2] == ("Blue wins", None)
    assert hex_.judge(["BR", ".B"])[:2] == ("Nobody wins", None)


def test_hex_corners_count_for_both_sides():
    assert hex_.judge(["R"]) == ("Red wins", None, frozenset({(0, 0)}))
    assert hex_.judge(["B"]) == ("Blue wins", None, frozenset({(0, 0)}))
    assert hex_.judge(["."]) == ("Nobody wins", None, frozenset())
    # Red down the left column uses the two left corners (also Blue's side).
    status, reason, last = hex_.judge(["RB.", "RB.", "R.."])
    assert (status, reason) == ("Red wins", None)
    assert last == {(0, 0), (1, 0), (2, 0)}
    # Blue along the top row uses the two top corners (also Red's side).
    status, reason, last = hex_.judge(["BBB", "RR.", "..."])
    assert (status, reason, last) == ("Blue wins", None, frozenset({(0, 0), (0, 1), (0, 2)}))


def test_hex_impossible_reasons():
    assert hex_.judge(["RR", ".."])[:2] == ("Impossible", "counts")
    # Blue joined but Red has more stones: Red moved last.
    assert hex_.judge(["BBB", "RR.", "RR."])[:2] == ("Impossible", "loser-moved-last")
    # Two stone-disjoint blue chains in one group: no single last move.
    assert hex_.judge(["BBBB", "BBBB", "RRRR", "RRRR"])[:2] == ("Impossible", "no-single-last-move")
    # Two separate winning chains, equal counts.
    assert hex_.judge(["BBBB", "RRRR", "BBBB", "RRRR"])[:2] == ("Impossible", "no-single-last-move")
    # Only the stones on every chain are possible last moves.
    assert hex_.judge(["BBB", "BRB", "RRR"]) == ("Blue wins", None, frozenset({(0, 1), (0, 2)}))


def test_hex_connected_removed():
    rows = ["RB.", "RB.", "R.."]
    assert hex_.connected(rows, "R")
    assert not hex_.connected(rows, "R", removed=(1, 0))
    assert not hex_.connected(rows, "B")
    assert hex_.connected(rows, "R", removed=[(0, 1)])


def test_hex_random_games():
    rng = random.Random(7)
    for _ in range(400):
        n = rng.randint(1, 9)
        stop = rng.choice(["any", "win", "past"])
        pos = hex_.random_game_position(rng, n, stop=stop)
        status, reason, last = hex_.judge(pos.rows)
        assert hex_.judge(pos.rows, shortcut=True) == (status, reason, last)
        if pos.expected is not None:
            assert status == pos.expected, (pos.rows, stop)
            if status != "Nobody wins":
                assert pos.winning_move in last
        if stop == "win":
            assert status in ("Red wins", "Blue wins")


def test_hex_random_fills_shortcut_agrees_and_no_double_win():
    rng = random.Random(11)
    for _ in range(600):
        n = rng.randint(1, 7)
        rows = hex_.random_fill(rng, n, weights=(3, 3, 1))
        literal = hex_.judge(rows)
        assert hex_.judge(rows, shortcut=True) == literal
        # Hex: two crossing chains would share a cell, so never both joined.
        assert literal[1] != "both-connected"
