"""Tests of the Havannah judge's Python API (havhex.havannah).

Expected answers come from three independent places: the contest's own answer
files (../shared/conformance, skipped when absent), hand-built positions worked
out from the statement, and the literal reference judge tests/support/ref_havannah.py.
Nothing here is a copy of the engine's output.

Coordinates (statement and docs/conventions.md): the neighbours of (x, y), clockwise from
twelve o'clock, are (x+1, y+1), (x, y+1), (x-1, y), (x-1, y-1), (x, y-1), (x+1, y).
Corners of a board of side S: (1, 1), (1, S), (S, 1), (S, 2S-1), (2S-1, S),
(2S-1, 2S-1).  On S = 3 each edge holds one hexagon:
    edge x = 1: (1, 2)     edge y - x = 2: (2, 4)   edge y = 5: (4, 5)
    edge x = 5: (5, 4)     edge x - y = 2: (4, 2)   edge y = 1: (2, 1)
"""
import pickle
import random
from array import array

import pytest

import needs
import ref_havannah as ref
from boards import hex_ring
from havhex import InputError, havannah
from havhex.havannah import Result, enclosed_empty, first_win, format_results, judge_file, judge_text

BIG = 2 ** 30  # the largest board side the project accepts

NEIGHBOURS = ((1, 1), (0, 1), (-1, 0), (-1, -1), (0, -1), (1, 0))


def ring_around(x, y):
    """The six neighbours of (x, y), clockwise from twelve o'clock."""
    return [(x + dx, y + dy) for dx, dy in NEIGHBOURS]




def hex_distance(a, b):
    dx, dy = b[0] - a[0], b[1] - a[1]
    return max(abs(dx), abs(dy)) if dx * dy >= 0 else abs(dx) + abs(dy)


def as_result(ref_answer):
    kinds, move = ref_answer
    return Result(kinds, move)


# ---------------------------------------------------------------------------
# Conformance data (the contest's files; skipped when ../shared is absent)
# ---------------------------------------------------------------------------

def test_conformance_files_through_judge_file_and_judge_text(conformance_dir):
    folder = conformance_dir / "havannah"
    inputs = sorted(folder.glob("*.in"))
    assert folder / "sample.in" in inputs
    for path in inputs:
        expected = path.with_suffix(".out").read_text()
        assert format_results(judge_file(path)) == expected, path.name
        assert format_results(judge_file(str(path), threads=2)) == expected, path.name
        data = path.read_bytes()
        assert format_results(judge_text(data, source=path.name)) == expected, path.name
        assert format_results(judge_text(data.decode())) == expected, path.name
        with open(path, "rb") as stream:
            assert format_results(judge_file(stream)) == expected, path.name


def test_sample_one_result_per_case(conformance_dir):
    folder = conformance_dir / "havannah"
    results = judge_file(folder / "sample.in")
    lines = (folder / "sample.out").read_text().splitlines()
    assert len(results) == len(lines) == 7
    for number, (result, line) in enumerate(zip(results, lines), 1):
        assert isinstance(result, Result)
        assert line == f"Case #{number}: {result}"


def test_small_practice_against_reference(conformance_dir):
    """The reference judge agrees with the contest's answers (and so with the engine)."""
    path = conformance_dir / "havannah" / "small-practice.in"
    text = path.read_text()
    expected = path.with_suffix(".out").read_text().splitlines()
    cases = ref.parse_input(text)[:30]
    for number, (size, moves) in enumerate(cases, 1):
        kinds, move = ref.first_win(size, moves, prune=True)
        assert ref.format_answer(number, kinds, move) == expected[number - 1]
        assert first_win(size, moves) == Result(kinds, move)


# ---------------------------------------------------------------------------
# Hand-built positions, one per answer and more (worked out from the statement)
# ---------------------------------------------------------------------------

HAND_CASES = [
    # id, S, moves, expected answer text (worked out by hand)
    ("none-no-moves", 5, [], "none"),
    ("none-S2-no-moves", 2, [], "none"),
    ("none-one-stone", 3, [(3, 3)], "none"),
    # S = 2: the seven hexagons are the centre (2, 2) and the six corners.
    # (1, 1), (2, 3) and (3, 2) are pairwise apart: nothing.
    ("none-S2-apart-corners", 2, [(1, 1), (2, 3), (3, 2)], "none"),
    # The corner (1, 1) of S = 3 is walled in by (1, 2), (2, 2), (2, 1), but a
    # border hexagon always touches the outside: no ring (two edges, no fork).
    ("none-walled-border-corner", 3, [(1, 2), (2, 2), (2, 1)], "none"),
    # Six stones round (4, 4) on S = 4, the centre played first by the same
    # player: nothing empty is enclosed, so no ring.
    ("none-loop-round-own-stone", 4, [(4, 4)] + ring_around(4, 4), "none"),
    # A straight line x = 1 .. along y = 1 to the middle: one corner, one edge.
    ("none-line", 4, [(1, 1), (2, 1), (3, 1)], "none"),
    # Two adjacent corners of S = 2: (1, 1) and (1, 2).
    ("bridge-S2-adjacent-corners", 2, [(1, 1), (1, 2)], "bridge in move 2"),
    # The centre of S = 2 joins the three corners (1, 1), (2, 3), (3, 2) at once:
    # more than two corners still count as one bridge.
    ("bridge-S2-three-corners", 2, [(1, 1), (2, 3), (3, 2), (2, 2)], "bridge in move 4"),
    # Along the edge x = 1 of S = 3: corner (1, 1), edge (1, 2), corner (1, 3).
    ("bridge-along-edge", 3, [(1, 1), (1, 3), (1, 2)], "bridge in move 3"),
    # Along the edge y = 1 of S = 5 from (1, 1) to (5, 1), in scrambled order.
    ("bridge-scrambled-line", 5, [(3, 1), (1, 1), (5, 1), (2, 1), (4, 1)], "bridge in move 5"),
    # S = 3: edges x = 1 at (1, 2), y = 1 at (2, 1) and x - y = 2 at (4, 2);
    # (2, 2) joins the first two, (3, 2) touches (2, 2), (2, 1) and (4, 2).
    # The corners (1, 1) and (3, 1) end up walled in, but on the border.
    ("fork-S3", 3, [(1, 2), (2, 1), (4, 2), (2, 2), (3, 2)], "fork in move 5"),
    # S = 3: (2, 3) joins edges (1, 2) and (2, 4); (4, 4) joins edges (4, 5)
    # and (5, 4); the centre (3, 3) touches (2, 3) and (4, 4): four edges at
    # once, still one fork.
    ("fork-four-edges", 3, [(1, 2), (2, 4), (4, 5), (5, 4), (2, 3), (4, 4), (3, 3)],
     "fork in move 7"),
    # Six stones round the empty centre (4, 4) of S = 4, none on the border.
    ("ring-six", 4, ring_around(4, 4), "ring in move 6"),
    # The same six, then the centre: the ring was completed at move 6 and the
    # filling move 7 is ignored.
    ("ring-then-filled", 4, ring_around(4, 4) + [(4, 4)], "ring in move 6"),
    # Six round (2, 2) on S = 3: the loop holds the corner (1, 1) and the edge
    # hexagons (1, 2) and (2, 1); the enclosed (2, 2) is not on the border.
    ("ring-touching-border", 3, ring_around(2, 2), "ring in move 6"),
    # Eight stones round the two empty hexagons (5, 5) and (5, 6) of S = 5.
    ("ring-two-holes", 5,
     [(6, 6), (4, 5), (4, 4), (5, 4), (6, 5), (6, 7), (5, 7), (4, 6)], "ring in move 8"),
    # S = 5: (4, 4) has (5, 5) at twelve o'clock and (3, 4) at eight o'clock,
    # both walled in except through (4, 4), which also touches the empty
    # (4, 3).  Playing (4, 4) last closes two rings at once: still one ring.
    ("ring-two-at-once", 5,
     [(6, 6), (5, 6), (4, 5), (5, 4), (6, 5), (3, 5), (2, 4), (2, 3), (3, 3), (4, 4)],
     "ring in move 10"),
    # The no-ring flower of S = 4 (centre (4, 4) played first), then four
    # stones that with (4, 5) and (5, 5) surround the empty (5, 6); two of
    # them, (6, 7) and (5, 7), lie on the edge y = 7.
    ("ring-after-flower", 4,
     [(4, 4)] + ring_around(4, 4) + [(4, 6), (6, 6), (6, 7), (5, 7)], "ring in move 11"),
    # S = 3: (1, 1), (1, 2), (2, 1), (2, 2) hold the corner (1, 1) and the edges
    # x = 1 and y = 1; apart from them (4, 2) on the edge x - y = 2 and the
    # corner (5, 3).  (3, 2) touches (2, 2), (2, 1) and (4, 2): two corners and
    # three edges at once.  The walled-in corner (3, 1) is on the border: no ring.
    ("bridge-fork", 3, [(1, 1), (1, 2), (2, 1), (2, 2), (4, 2), (5, 3), (3, 2)],
     "bridge-fork in move 7"),
    # S = 3: the corner (3, 1) touches (2, 1) and (3, 2) of the loop round
    # (2, 2).  The loop's last stone is the corner (1, 1): it closes the ring
    # and joins the second corner (edges only x = 1 and y = 1: no fork).
    ("bridge-ring", 3, [(3, 1), (3, 3), (2, 3), (1, 2), (2, 1), (3, 2), (1, 1)],
     "bridge-ring in move 7"),
    # S = 3: the loop round (2, 2) minus (1, 2), plus (4, 2) on the edge
    # x - y = 2 beside (3, 2).  (1, 2) closes the ring and adds the third edge
    # x = 1; the only corner is (1, 1).
    ("fork-ring", 3, [(2, 3), (3, 3), (3, 2), (2, 1), (1, 1), (4, 2), (1, 2)],
     "fork-ring in move 7"),
    # S = 3: the loop round (2, 2) minus (3, 2), then (4, 2) and the corner
    # (5, 3) apart; (3, 2) joins them: two corners, three edges, a ring.
    ("bridge-fork-ring", 3,
     [(2, 1), (1, 1), (1, 2), (2, 3), (3, 3), (4, 2), (5, 3), (3, 2)],
     "bridge-fork-ring in move 8"),
    # Moves after the win are ignored (the later ones even fill the ring).
    ("after-win-ignored", 2, [(1, 1), (1, 2), (2, 2), (3, 3), (2, 1)], "bridge in move 2"),
    # S = 2, the whole board in the order centre first: the centre and the
    # first corner (1, 1) make one corner; (3, 3) the second.
    ("S2-full-board", 2, [(2, 2), (1, 1), (3, 3), (1, 2), (2, 1), (2, 3), (3, 2)],
     "bridge in move 3"),
]

ALL_ANSWERS = {"none", "bridge", "fork", "ring", "bridge-fork", "bridge-ring",
               "fork-ring", "bridge-fork-ring"}


def test_hand_cases_cover_every_answer():
    assert {text.split(" in move")[0] for _, _, _, text in HAND_CASES} == ALL_ANSWERS


@pytest.mark.parametrize("size, moves, text", [case[1:] for case in HAND_CASES],
                         ids=[case[0] for case in HAND_CASES])
def test_hand_built(size, moves, text):
    result = first_win(size, moves)
    assert str(result) == text
    # The reference judge, literally from the statement, agrees.
    kinds, move = ref.first_win(size, moves)
    assert ref.format_answer(1, kinds, move) == f"Case #1: {text}"
    assert result == Result(kinds, move)
    # The same case through the judge format.
    body = f"1\n{size} {len(moves)}\n" + "".join(f"{x} {y}\n" for x, y in moves)
    assert judge_text(body) == [result]


@pytest.mark.parametrize("size, moves, text", [case[1:] for case in HAND_CASES],
                         ids=[case[0] for case in HAND_CASES])
def test_hand_built_every_prefix(size, moves, text):
    """A prefix before the winning move is 'none'; any longer one keeps the answer."""
    final = first_win(size, moves)
    for k in range(len(moves) + 1):
        expected = final if final and k >= final.move else Result((), None)
        assert first_win(size, moves[:k]) == expected, k


def test_hand_built_enclosed():
    assert enclosed_empty(4, ring_around(4, 4)) == [(4, 4)]
    assert enclosed_empty(4, ring_around(4, 4) + [(4, 4)]) == []
    assert enclosed_empty(3, ring_around(2, 2)) == [(2, 2)]
    assert enclosed_empty(3, [(1, 2), (2, 2), (2, 1)]) == []          # corner (1, 1)
    assert enclosed_empty(5, [(6, 6), (4, 5), (4, 4), (5, 4), (6, 5), (6, 7), (5, 7), (4, 6)]) \
        == [(5, 5), (5, 6)]
    assert enclosed_empty(5, [(6, 6), (5, 6), (4, 5), (5, 4), (6, 5), (3, 5), (2, 4), (2, 3),
                              (3, 3), (4, 4)]) == [(3, 4), (5, 5)]
    assert enclosed_empty(2, []) == []
    # S = 2: the six corners enclose the centre.
    assert enclosed_empty(2, ring_around(2, 2)) == [(2, 2)]


@pytest.mark.parametrize("r", [1, 2, 3, 5])
def test_hex_ring_construction(r):
    """The big-ring helper used below, checked against the reference judge."""
    size = r + 2
    centre = (size, size)
    cells = hex_ring(*centre, r)
    assert len(set(cells)) == 6 * r
    assert all(hex_distance(centre, cell) == r for cell in cells)
    assert ref.first_win(size, cells) == (("ring",), 6 * r)
    assert first_win(size, cells) == Result(("ring",), 6 * r)
    inside = sorted(ref.enclosed_empty(size, cells))
    assert len(inside) == 3 * r * (r - 1) + 1
    assert enclosed_empty(size, cells) == inside


# ---------------------------------------------------------------------------
# Moves after the win: ignored, but still validated
# ---------------------------------------------------------------------------

def test_duplicate_after_win_is_an_error():
    with pytest.raises(InputError) as info:
        first_win(2, [(1, 1), (1, 2), (2, 2), (1, 1)])
    assert "(1, 1)" in info.value.reason and "move 4" in info.value.reason
    with pytest.raises(InputError) as info:
        judge_text("1\n2 4\n1 1\n1 2\n2 2\n1 1\n")
    assert info.value.line == 6


def test_off_board_after_win_is_an_error():
    with pytest.raises(InputError) as info:
        first_win(2, [(1, 1), (1, 2), (3, 1)])        # |3 - 1| = 2 > S - 1
    assert "(3, 1)" in info.value.reason
    with pytest.raises(InputError) as info:
        judge_text("1\n2 3\n1 1\n1 2\n0 0\n")
    assert info.value.line == 5


def test_duplicate_far_after_win():
    moves = [(1, 1), (1, 2)] + [(x, 1) for x in range(2, 40)] + [(5, 1)]
    with pytest.raises(InputError) as info:
        first_win(40, moves)
    assert f"move {len(moves)}" in info.value.reason


# ---------------------------------------------------------------------------
# Bad moves through the API
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("size, move", [
    (2, (0, 1)), (2, (1, 0)), (2, (4, 4)), (2, (3, 1)), (2, (1, 3)), (3, (6, 3)),
    (3, (-1, -1)), (BIG, (2 * BIG, BIG)), (BIG, (BIG, 2 * BIG)), (BIG, (2 * BIG - 1, BIG - 1)),
    (BIG, (1, BIG + 1)), (BIG, (-5, 1)),
])
def test_off_board_move(size, move):
    assert not ref.on_board(size, move)
    with pytest.raises(InputError) as info:
        first_win(size, [move])
    assert isinstance(info.value, ValueError)
    assert str(move) in info.value.reason
    with pytest.raises(InputError):
        enclosed_empty(size, [move])


@pytest.mark.parametrize("size", [1, 0, -3, BIG + 1, 10 ** 30])
def test_bad_size(size):
    with pytest.raises(InputError):
        first_win(size, [])
    with pytest.raises(InputError):
        enclosed_empty(size, [])


def test_duplicate_move():
    with pytest.raises(InputError) as info:
        first_win(5, [(3, 3), (4, 4), (3, 3)])
    assert "move 3" in info.value.reason and "move 1" in info.value.reason
    with pytest.raises(InputError):
        enclosed_empty(5, [(3, 3), (3, 3)])


@pytest.mark.parametrize("moves", [[(1, 1, 1)], [(1,)], [(1, "a")], [(1.5, 2)], [(2 ** 70, 1)]])
def test_malformed_moves(moves):
    with pytest.raises(InputError):
        first_win(3, moves)


@pytest.mark.parametrize("moves", [5, None])
def test_moves_not_iterable(moves):
    # A non-sequence is a caller's type error (or bad input), never an internal error.
    with pytest.raises((TypeError, InputError)):
        first_win(3, moves)


# ---------------------------------------------------------------------------
# The largest boards, a million moves, and buffer input
# ---------------------------------------------------------------------------

def far_corner_ring(size):
    """Six stones round (2S-2, 2S-2): the corner (2S-1, 2S-1), the edge
    hexagons (2S-2, 2S-1) and (2S-1, 2S-2), and three inner ones."""
    n = 2 * size - 1
    return ring_around(n - 1, n - 1)


def test_far_corner_ring_small_board_with_reference():
    # The same geometry on S = 4, where the reference can judge it.
    moves = far_corner_ring(4)
    assert (7, 7) in moves and ref.edge_of(4, (6, 7)) is not None
    assert ref.first_win(4, moves) == (("ring",), 6)
    assert first_win(4, moves) == Result(("ring",), 6)


def test_largest_board():
    n = 2 * BIG - 1
    corners = [(1, 1), (1, BIG), (BIG, 1), (BIG, n), (n, BIG), (n, n)]
    assert first_win(BIG, corners) == Result((), None)
    # Lone stones: the edge hexagons beside the corners (1, 1) and (2S-1, 2S-1),
    # and the centre.
    assert first_win(BIG, [(1, 2), (2, 1), (BIG, BIG), (n, n - 1), (n - 1, n)]) == Result((), None)
    # Corner (1, 1) with its neighbours (1, 2) and (2, 1): one corner, two edges.
    assert first_win(BIG, [(1, 1), (1, 2), (2, 1)]) == Result((), None)
    ring = far_corner_ring(BIG)                   # holds the corner (n, n)
    assert first_win(BIG, corners[:5] + ring) == Result(("ring",), 11)
    assert enclosed_empty(BIG, ring) == [(n - 1, n - 1)]
    assert enclosed_empty(BIG, ring_around(2, 2)) == [(2, 2)]
    assert first_win(BIG, ring_around(2, 2)) == Result(("ring",), 6)
    # Around the centre of the board.
    assert first_win(BIG, ring_around(BIG, BIG)) == Result(("ring",), 6)
    text = f"1\n{BIG} {len(ring)}\n" + "".join(f"{x} {y}\n" for x, y in ring)
    assert judge_text(text) == [Result(("ring",), 6)]


def test_largest_board_corner_bridge_needs_the_whole_edge():
    # Corner (1, 1) and its neighbour (1, 2) on the edge: no bridge on S = 2**30,
    # a bridge on S = 3 where (1, 3) is the next corner.
    moves = [(1, 1), (1, 2), (1, 3)]
    assert first_win(BIG, moves) == Result((), None)
    assert first_win(3, moves) == Result(("bridge",), 3)


def test_million_moves_big_ring_buffer():
    """A hexagonal loop of radius 166 666 round the centre of S = 2**30, in a
    shuffled order, then four moves inside it: the ring is complete exactly
    when its last stone is played (any 6r - 1 of its stones leave a gap)."""
    r = 166_666
    loop = hex_ring(BIG, BIG, r)
    random.Random(2012).shuffle(loop)
    moves = loop + [(BIG, BIG), (BIG + 1, BIG), (BIG, BIG + 1), (BIG - 1, BIG - 1)]
    assert len(moves) == 1_000_000
    flat = array("q")
    for x, y in moves:
        flat.append(x)
        flat.append(y)
    buffer = memoryview(flat).cast("B").cast("q", [len(moves), 2])
    assert first_win(BIG, buffer) == Result(("ring",), 6 * r)
    # Without the last loop stone there is no ring at all.
    assert first_win(BIG, loop[:-1]) == Result((), None)


def test_million_moves_line_judge_text():
    """S = 10**6: the edge y = 1 from (2, 1) to (S-1, 1) in shuffled order,
    then the corners (1, 1) and (S, 1): one edge only, and the bridge comes
    with the very last of the 10**6 moves."""
    size = 10 ** 6
    xs = list(range(2, size))
    random.Random(3).shuffle(xs)
    moves = [(x, 1) for x in xs] + [(1, 1), (size, 1)]
    assert len(moves) == 1_000_000
    text = f"1\n{size} {len(moves)}\n" + "".join(f"{x} {y}\n" for x, y in moves)
    assert judge_text(text.encode()) == [Result(("bridge",), 1_000_000)]
    assert first_win(size, moves[:-1]) == Result((), None)


def _buffer(moves, code):
    flat = array(code, [c for move in moves for c in move])
    return memoryview(flat).cast("B").cast(code, [len(moves), 2])


@pytest.mark.parametrize("code", ["i", "l", "q"])
def test_buffer_input(code):
    for _, size, moves, text in HAND_CASES:
        if not moves:
            continue
        assert str(first_win(size, _buffer(moves, code))) == text
        assert enclosed_empty(size, _buffer(moves, code)) == sorted(ref.enclosed_empty(size, moves))


def test_buffer_input_errors():
    with pytest.raises(InputError):
        first_win(2, _buffer([(1, 1), (1, 1)], "q"))
    with pytest.raises(InputError):
        first_win(2, _buffer([(1, 1), (9, 1)], "i"))
    # Not an (M, 2) buffer.
    with pytest.raises(InputError):
        first_win(3, memoryview(array("q", [1, 1, 1, 2])))
    flat = array("q", [1, 1, 1, 1, 2, 2])
    with pytest.raises(InputError):
        first_win(3, memoryview(flat).cast("B").cast("q", [2, 3]))


def test_empty_buffer():
    assert first_win(3, array("q")) == Result((), None)
    assert first_win(3, memoryview(array("i"))) == Result((), None)
    assert enclosed_empty(3, array("q")) == []


def test_numpy_empty_buffer():
    # An (0, 2) array is an (M, 2) buffer with M = 0: no moves, no win.
    np = needs.module("numpy")
    for dtype in (np.int32, np.int64):
        assert first_win(3, np.zeros((0, 2), dtype=dtype)) == Result((), None)
        assert enclosed_empty(3, np.zeros((0, 2), dtype=dtype)) == []


def test_numpy_input():
    np = needs.module("numpy")
    for _, size, moves, text in HAND_CASES:
        if not moves:
            continue  # see test_numpy_empty_buffer
        for dtype in (np.int32, np.int64):
            grid = np.array(moves, dtype=dtype).reshape(-1, 2)
            assert str(first_win(size, grid)) == text
            assert enclosed_empty(size, grid) == sorted(ref.enclosed_empty(size, moves))
    # A non-contiguous view (every second move) is still judged correctly.
    moves = [(1, 1), (3, 3), (1, 2), (3, 4)]
    grid = np.array(moves, dtype=np.int64)[::2]
    assert first_win(2, grid) == Result(("bridge",), 2)
    big = np.array(far_corner_ring(BIG), dtype=np.int64)
    assert first_win(BIG, big) == Result(("ring",), 6)


# ---------------------------------------------------------------------------
# The reference against the engine on random games
# ---------------------------------------------------------------------------

def _interior_cells(size):
    return sorted(ref.board_cells(size) - ref.border_cells(size))


def _interior_wandering(rng, size, n_moves):
    """A wandering game on the inner hexagons only: no bridge or fork can form,
    so the engine's first win is exactly its first ring."""
    cells = _interior_cells(size)
    inner = set(cells)
    played, taken = [], set()
    while len(played) < min(n_moves, len(cells)):
        move = None
        if played and rng.random() < 0.85:
            x, y = rng.choice(played)
            free = [c for c in ring_around(x, y) if c in inner and c not in taken]
            if free:
                move = rng.choice(free)
        if move is None:
            move = rng.choice([c for c in cells if c not in taken])
        played.append(move)
        taken.add(move)
    return played


def _random_games(seed, count):
    rng = random.Random(seed)
    for number in range(count):
        size = rng.randint(2, 8)
        cells = 3 * size * (size - 1) + 1
        kind = number % 4
        if kind == 0:
            yield size, ref.random_game(rng, size)
        elif kind == 1:
            yield size, ref.wandering_game(rng, size, rng.randint(0, cells))
        elif kind == 2:
            yield size, ref.random_game(rng, size, cells)              # full board
        else:
            yield size, ref.wandering_game(rng, size, cells, p_adjacent=rng.random())


def test_random_games_first_win():
    for size, moves in _random_games(20120, 400):
        expected = as_result(ref.first_win(size, moves))
        assert first_win(size, moves) == expected, (size, moves)


def test_random_games_judge_text_many_cases():
    """Many cases in one input, judged on one and on two threads."""
    games = list(_random_games(7, 120))
    text = f"{len(games)}\n" + "".join(
        f"{size} {len(moves)}\n" + "".join(f"{x} {y}\n" for x, y in moves)
        for size, moves in games)
    expected = "".join(line + "\n" for line in ref.judge_text(text))
    assert format_results(judge_text(text)) == expected
    assert format_results(judge_text(text, threads=2)) == expected


def _first_enclosing(size, moves):
    """(first move k whose prefix holds an enclosed empty hexagon, or None),
    checking the engine's exact form against the reference's flood fill on
    every prefix along the way."""
    first = None
    for k in range(len(moves) + 1):
        expected = ref.enclosed_empty(size, moves[:k])
        got = enclosed_empty(size, moves[:k])
        assert got == sorted(expected), (size, moves[:k])
        if expected and first is None:
            first = k
    return first


def test_ring_hot_path_against_exact_form():
    rng = random.Random(123)
    checked = 0
    for _ in range(70):
        size = rng.randint(2, 7)
        moves = ref.wandering_game(rng, size, 3 * size * (size - 1) + 1, p_adjacent=0.7)
        first = _first_enclosing(size, moves)
        result = first_win(size, moves)
        # The first win is no later than the first ring, and it is a ring
        # exactly when it happens at that move.
        if first is not None:
            assert result and result.move <= first
            checked += 1
        assert ("ring" in result.kinds) == (first is not None and result.move == first)
        # Every prefix: nothing before the win, the win from then on.
        for k in range(len(moves) + 1):
            prefix = first_win(size, moves[:k])
            assert prefix == (result if result and k >= result.move else Result((), None))
    assert checked > 30


def test_ring_hot_path_interior_games():
    """Only inner hexagons: the engine's first win must be the first ring."""
    rng = random.Random(321)
    rings = 0
    for _ in range(80):
        size = rng.randint(3, 8)
        moves = _interior_wandering(rng, size, len(_interior_cells(size)))
        first = _first_enclosing(size, moves)
        result = first_win(size, moves)
        if first is None:
            assert result == Result((), None)
        else:
            rings += 1
            assert result == Result(("ring",), first), (size, moves)
    assert rings > 40


def test_enclosed_empty_random_stone_sets():
    rng = random.Random(99)
    non_empty = 0
    for number in range(400):
        size = rng.randint(2, 8)
        if number % 2:
            stones = ref.random_game(rng, size)
        else:
            stones = ref.wandering_game(rng, size, rng.randint(0, 3 * size * (size - 1) + 1))
        expected = ref.enclosed_empty(size, stones)
        got = enclosed_empty(size, stones)
        assert isinstance(got, list)
        assert got == sorted(expected), (size, stones)
        assert all(isinstance(cell, tuple) for cell in got)
        non_empty += bool(expected)
    assert non_empty > 50


try:
    import hypothesis
    from hypothesis import given, settings
    from hypothesis import strategies as st
except ImportError:  # hypothesis is a test extra; the seeded tests above still run
    hypothesis = None

if hypothesis is not None:

    @st.composite
    def games(draw):
        size = draw(st.integers(2, 6))
        cells = sorted(ref.board_cells(size))
        order = draw(st.permutations(cells))
        n = draw(st.integers(0, len(cells)))
        return size, list(order[:n])

    @settings(max_examples=150, deadline=None)
    @given(games())
    def test_hypothesis_games_against_reference(game):
        size, moves = game
        assert first_win(size, moves) == as_result(ref.first_win(size, moves))
        assert enclosed_empty(size, moves) == sorted(ref.enclosed_empty(size, moves))


# ---------------------------------------------------------------------------
# Result
# ---------------------------------------------------------------------------

KIND_SETS = [(), ("bridge",), ("fork",), ("ring",), ("bridge", "fork"), ("bridge", "ring"),
             ("fork", "ring"), ("bridge", "fork", "ring")]


def test_result_wording():
    words = {
        (): "none",
        ("bridge",): "bridge in move 7",
        ("fork",): "fork in move 7",
        ("ring",): "ring in move 7",
        ("bridge", "fork"): "bridge-fork in move 7",
        ("bridge", "ring"): "bridge-ring in move 7",
        ("fork", "ring"): "fork-ring in move 7",
        ("bridge", "fork", "ring"): "bridge-fork-ring in move 7",
    }
    for kinds in KIND_SETS:
        result = Result(kinds, 7 if kinds else None)
        assert str(result) == words[kinds]
        assert f"Case #3: {result}" == ref.format_answer(3, kinds, 7)
        assert bool(result) == bool(kinds)
        assert eval(repr(result), {"Result": Result}) == result


def test_format_results():
    results = [Result(("bridge",), 2), Result((), None), Result(("fork", "ring"), 10)]
    assert format_results(results) == (
        "Case #1: bridge in move 2\nCase #2: none\nCase #3: fork-ring in move 10\n")
    assert format_results([]) == ""


def test_result_kinds_order_and_validation():
    for kinds in KIND_SETS[1:]:
        if len(kinds) > 1:
            with pytest.raises(ValueError):
                Result(tuple(reversed(kinds)), 1)
    for bad in [("bridge", "bridge"), ("loop",), ("Bridge",)]:
        with pytest.raises(ValueError):
            Result(bad, 1)
    with pytest.raises(ValueError):
        Result(("ring",), None)
    with pytest.raises(ValueError):
        Result((), 3)
    assert Result(["fork", "ring"], 4).kinds == ("fork", "ring")   # any iterable, kept a tuple


def test_result_immutable():
    result = first_win(2, [(1, 1), (1, 2)])
    with pytest.raises(AttributeError):
        result.move = 3
    with pytest.raises(AttributeError):
        result.kinds = ("ring",)
    with pytest.raises(AttributeError):
        del result.move
    with pytest.raises(AttributeError):
        result.extra = 1
    assert isinstance(result.kinds, tuple)
    assert result == Result(("bridge",), 2)
    none = first_win(2, [])
    with pytest.raises(AttributeError):
        none.move = 1
    assert none == Result((), None)


def test_result_equality_and_hash():
    a = first_win(2, [(1, 1), (1, 2)])
    b = Result(("bridge",), 2)
    assert a == b and hash(a) == hash(b)
    assert not (a != b)
    assert a != Result(("bridge",), 3)
    assert a != Result(("fork",), 2)
    assert a != Result(("bridge", "fork"), 2)
    assert a != Result((), None)
    assert a != (("bridge",), 2) and a != "bridge in move 2"
    assert len({a, b, Result(("ring",), 2), Result((), None), first_win(3, [])}) == 3
    assert {a: 1}[b] == 1
    assert pickle.loads(pickle.dumps(a)) == a
    assert pickle.loads(pickle.dumps(Result((), None))) == Result((), None)


def test_engine_results_have_kinds_in_order():
    for _, size, moves, text in HAND_CASES:
        result = first_win(size, moves)
        assert list(result.kinds) == [k for k in havannah.KINDS if k in result.kinds]
        assert (result.move is None) == (not result.kinds)


# ---------------------------------------------------------------------------
# Judge format through the API: faults and their lines
# ---------------------------------------------------------------------------

GOOD = "2 2\n1 1\n1 2\n"   # a valid case (bridge in move 2), lines 2-4 after T

BAD_TEXTS = [
    # id, text, line of the fault
    ("T-not-integer", "x\n", 1),
    ("T-negative", "-1\n", 1),
    ("empty-input", "", 1),
    ("move-not-integer", "2\n" + GOOD + "3 2\n1 1\n2 y\n", 7),
    ("S-not-integer", "2\n" + GOOD + "3.0 1\n1 1\n", 5),
    ("truncated-case", "2\n" + GOOD + "3 3\n1 1\n", 6),
    ("truncated-pair", "2\n" + GOOD + "3 2\n1 1\n2\n", 7),
    ("truncated-header", "2\n" + GOOD + "3\n", 5),
    ("missing-case", "3\n" + GOOD + "3 0\n", 5),
    ("S-below-2", "2\n" + GOOD + "1 0\n", 5),
    ("S-negative", "2\n" + GOOD + "-4 0\n", 5),
    ("S-above-2**30", "2\n" + GOOD + f"{BIG + 1} 0\n", 5),
    ("S-huge-token", "2\n" + GOOD + "99999999999999999999999 0\n", 5),
    ("M-negative", "2\n" + GOOD + "3 -1\n", 5),
    # S = 2 has 7 hexagons; all of them and one more follow the header.
    ("M-above-board", "2\n" + GOOD + "2 8\n"
     + "".join(f"{x} {y}\n" for x, y in [(2, 2)] + ring_around(2, 2) + [(1, 1)]), 5),
    ("off-board", "2\n" + GOOD + "3 2\n1 1\n4 1\n", 7),
    ("off-board-zero", "2\n" + GOOD + "3 2\n1 1\n0 0\n", 7),
    ("off-board-after-win", "2\n" + GOOD + "2 3\n1 1\n1 2\n3 1\n", 8),
    ("duplicate", "2\n" + GOOD + "3 3\n1 1\n2 2\n1 1\n", 8),
    ("duplicate-after-win", "2\n" + GOOD + "3 4\n1 1\n1 2\n1 3\n1 2\n", 9),
    ("duplicate-first-case", "2\n2 2\n1 1\n1 1\n" + GOOD, 4),
    ("trailing-token", "2\n" + GOOD + "3 0\n7\n", 6),
    ("trailing-same-line", "1\n2 1\n1 1 5\n", 3),
    ("trailing-after-blank-lines", "1\n2 0\n\n\nx\n", 5),
]


@pytest.mark.parametrize("text, line", [case[1:] for case in BAD_TEXTS],
                         ids=[case[0] for case in BAD_TEXTS])
def test_bad_text(text, line):
    with pytest.raises(InputError) as info:
        judge_text(text, source="input.txt")
    error = info.value
    assert isinstance(error, ValueError)
    assert error.source == "input.txt"
    assert error.line == line
    assert error.reason and "\n" not in error.reason
    assert str(error) == f"input.txt:{line}: {error.reason}"
    # Bytes give the same fault.
    with pytest.raises(InputError) as again:
        judge_text(text.encode(), source="input.txt")
    assert (again.value.line, again.value.reason) == (line, error.reason)


def test_bad_text_reasons_name_the_fault():
    reasons = {}
    for name, text, _ in BAD_TEXTS:
        with pytest.raises(InputError) as info:
            judge_text(text)
        reasons[name] = info.value.reason
    assert "'y'" in reasons["move-not-integer"]
    assert "-1" in reasons["T-negative"]
    assert "-1" in reasons["M-negative"]
    assert str(BIG + 1) in reasons["S-above-2**30"]
    assert "(4, 1)" in reasons["off-board"]
    assert "(3, 1)" in reasons["off-board-after-win"]
    assert "(1, 1)" in reasons["duplicate"]
    assert "'7'" in reasons["trailing-token"]
    assert "'5'" in reasons["trailing-same-line"]
    assert reasons["truncated-case"] != reasons["truncated-pair"]
    classes = ["move-not-integer", "truncated-case", "T-negative", "S-below-2", "M-negative",
               "M-above-board", "off-board", "duplicate", "trailing-token"]
    assert len({reasons[name] for name in classes}) == len(classes)


def test_first_fault_wins_duplicate_before_off_board():
    """A hexagon played twice, then a move off the board in the same case:
    the duplicate comes first in the file and must be the fault reported
    (the reference judge also stops at the duplicate)."""
    text = "1\n3 3\n1 1\n1 1\n9 9\n"
    with pytest.raises(ValueError, match="played twice"):
        ref.judge_text(text)
    with pytest.raises(InputError) as info:
        judge_text(text)
    assert info.value.line == 4, str(info.value)
    assert "(1, 1)" in info.value.reason


def test_judge_text_valid_variants():
    # Any white space separates tokens; a sign is allowed; no final newline.
    assert judge_text("1 2 2 1 1 1 2") == [Result(("bridge",), 2)]
    assert judge_text("1\r\n2 2\r\n1 1\r\n1 2\r\n") == [Result(("bridge",), 2)]
    assert judge_text("\t1\n\n2\t2\n 1 1\n1 2\n\n") == [Result(("bridge",), 2)]
    assert judge_text("0\n") == []
    assert judge_text(b"1\n3 0\n") == [Result((), None)]
    assert judge_text(bytearray(b"1\n2 1\n2 2\n")) == [Result((), None)]
    assert judge_text(memoryview(b"1\n2 1\n2 2\n")) == [Result((), None)]


# ---------------------------------------------------------------------------
# No input crashes the interpreter
# ---------------------------------------------------------------------------

def _judge_or_fault(data):
    """Results or InputError, nothing else; results are checked against the
    reference when the boards are small."""
    try:
        results = judge_text(data)
    except InputError as error:
        assert isinstance(error.reason, str) and error.reason
        assert error.line is None or error.line >= 1
        return None
    assert all(isinstance(result, Result) for result in results)
    text = data.decode("ascii") if isinstance(data, bytes) else data
    cases = ref.parse_input(text)
    assert len(cases) == len(results)
    if all(2 <= size <= 12 for size, _ in cases):
        expected = "".join(line + "\n" for line in ref.judge_text(text))
        assert format_results(results) == expected
    return results


def _mutate(rng, data):
    data = bytearray(data)
    for _ in range(rng.randint(1, 4)):
        op = rng.randrange(6)
        pos = rng.randint(0, len(data))
        if op == 0 and data:
            del data[pos:pos + rng.randint(1, 4)]
        elif op == 1:
            data[pos:pos] = rng.choice([b"-", b"0", b"9", b" ", b"\n", b"x", b"\x00",
                                        b"99999999999999999999", b"1073741825", b"+",
                                        b"\xff", b"2147483648", b"-1"])
        elif op == 2 and data:
            data[min(pos, len(data) - 1)] = rng.randrange(256)
        elif op == 3:
            data = data[:pos]
        elif op == 4:
            start = rng.randint(0, len(data))
            data[pos:pos] = data[start:start + rng.randint(1, 12)]
        else:
            data[pos:pos] = str(rng.randint(-3, 40)).encode()
    return bytes(data)


def _valid_input(rng):
    games = [(size, ref.wandering_game(rng, size, rng.randint(0, 8)))
             for size in (rng.randint(2, 5) for _ in range(rng.randint(1, 3)))]
    return (f"{len(games)}\n" + "".join(
        f"{size} {len(moves)}\n" + "".join(f"{x} {y}\n" for x, y in moves)
        for size, moves in games)).encode()


def test_fuzz_mutated_inputs_seeded():
    rng = random.Random(2024)
    valid = 0
    for _ in range(3000):
        data = _valid_input(rng)
        assert _judge_or_fault(data) is not None
        if _judge_or_fault(_mutate(rng, data)) is not None:
            valid += 1
    assert valid > 50   # some mutations stay valid and are checked against the reference


def test_fuzz_random_bytes_seeded():
    rng = random.Random(77)
    alphabet = b"0123456789 \n-+\t\rx\x00\xff"
    for _ in range(3000):
        n = rng.randint(0, 60)
        if rng.random() < 0.5:
            data = bytes(rng.choice(alphabet) for _ in range(n))
        else:
            data = bytes(rng.randrange(256) for _ in range(n))
        _judge_or_fault(data)


if hypothesis is not None:

    @settings(max_examples=300, deadline=None)
    @given(st.binary(max_size=300))
    def test_hypothesis_random_bytes(data):
        _judge_or_fault(data)

    @settings(max_examples=300, deadline=None)
    @given(st.text(alphabet=st.sampled_from("0123456789 \n-+\t"), max_size=120))
    def test_hypothesis_token_soup(text):
        _judge_or_fault(text)

    @settings(max_examples=300, deadline=None)
    @given(st.randoms(use_true_random=False))
    def test_hypothesis_mutated_inputs(rng):
        data = _valid_input(rng)
        _judge_or_fault(_mutate(rng, data))


def test_too_many_moves_names_the_limit_that_applies():
    """On a board with more hexagons than a case may have moves, the message
    gives the moves limit, not the hexagon count."""
    with pytest.raises(InputError) as raised:
        judge_text("1\n30000 2147483647\n")
    assert "between 0 and 2147483646 (the most a case may have), got 2147483647" in str(raised.value)
    with pytest.raises(InputError) as raised:
        judge_text("1\n3 20\n")
    assert "between 0 and 19 (the hexagons of a board with S = 3), got 20" in str(raised.value)
