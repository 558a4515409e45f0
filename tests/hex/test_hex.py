"""The Hex judge through its Python API, held against the literal reference.

``ref_hex`` (tests/support/ref_hex.py) decides the last-move test the slow, obvious way
(remove each winner stone, search again); the engine uses augmenting paths.
Every test here can fail: answers come from the contest files, the reference,
or boards worked out by hand (the comment says how).
"""
import os
import pickle
import random
import threading

import pytest

import needs
import ref_hex as ref
from boards import snake
from havhex import InputError
from havhex.hex import _judge as hex_engine
from havhex import hex as hx

CELL_STEPS = set(ref.NEIGHBOURS)


def reference(rows):
    status, reason, last_moves = ref.judge(rows)
    return status, reason, last_moves


def engine(rows):
    result = hx.judge(rows)
    return str(result), result.reason, result.last_moves


def check_chain(rows, colour, cells):
    """A chain of ``colour`` stones, each adjacent to the next, side to side."""
    n = len(rows)
    letter = "R" if colour == "red" else "B"
    assert cells, "empty chain"
    assert len(set(cells)) == len(cells)
    assert all(rows[i][j] == letter for i, j in cells)
    for (i, j), (k, m) in zip(cells, cells[1:]):
        assert (k - i, m - j) in CELL_STEPS, (cells, (i, j), (k, m))
    if letter == "R":
        assert cells[0][0] == 0 and cells[-1][0] == n - 1
    else:
        assert cells[0][1] == 0 and cells[-1][1] == n - 1


def check_explanation(rows, explanation):
    result = explanation.result
    assert explanation.red_stones == sum(row.count("R") for row in rows)
    assert explanation.blue_stones == sum(row.count("B") for row in rows)
    for colour, cells in explanation.chains:
        check_chain(rows, colour, cells)
    if result.winner:
        (colour, cells), = explanation.chains
        assert colour == result.winner
        assert result.last_moves <= set(cells)
    elif result.reason == "no-single-last-move":
        (colour_a, a), (colour_b, b) = explanation.chains
        assert colour_a == colour_b
        assert not set(a) & set(b), "chains share a stone"
    elif result.reason == "both-connected":
        assert [colour for colour, _ in explanation.chains] == ["red", "blue"]
    elif result.reason == "loser-moved-last":
        (colour, _), = explanation.chains
        assert colour == ("red" if ref.connected(rows, "R") else "blue")
    else:
        assert explanation.chains == ()


# ---------------------------------------------------------------------------
# Contest data
# ---------------------------------------------------------------------------

CONFORMANCE_NAMES = ["sample", "test-set-1", "test-set-2"]


@pytest.mark.parametrize("name", CONFORMANCE_NAMES)
def test_conformance_file(conformance_dir, name):
    folder = conformance_dir / "hex"
    path = folder / f"{name}.in"
    if not path.is_file():
        needs.missing("conformance", f"{path} not found")
    expected = (folder / f"{name}.out").read_text()
    assert hx.format_results(hx.judge_file(path)) == expected
    assert hx.format_results(hx.judge_file(str(path), threads=3)) == expected
    assert hx.format_results(hx.judge_text(path.read_text())) == expected
    with open(path, "rb") as stream:
        assert hx.format_results(hx.judge_file(stream)) == expected


def test_every_conformance_file_is_checked(conformance_dir):
    """A new official file must not be silently left out."""
    folder = conformance_dir / "hex"
    if not folder.is_dir():
        needs.missing("conformance", f"{folder} not found")
    names = sorted(p.stem for p in folder.glob("*.in"))
    assert names and set(names) <= set(CONFORMANCE_NAMES), names


def test_sample_reasons_and_last_moves(conformance_dir):
    path = conformance_dir / "hex" / "sample.in"
    if not path.is_file():
        needs.missing("conformance", f"{path} not found")
    boards = ref.parse_input(path.read_text())
    results = hx.judge_file(path)
    assert len(results) == len(boards) == 7
    for rows, result in zip(boards, results):
        assert (str(result), result.reason, result.last_moves) == reference(rows)


def test_small_set_against_reference(conformance_dir):
    """Reasons and last moves too, not just the printed status."""
    path = conformance_dir / "hex" / "test-set-1.in"
    if not path.is_file():
        needs.missing("conformance", f"{path} not found")
    boards = ref.parse_input(path.read_text())
    for rows, result, explanation in zip(boards, hx.judge_file(path), hx.explain_file(path)):
        assert (str(result), result.reason, result.last_moves) == reference(rows), rows
        assert explanation.result == result
        check_explanation(rows, explanation)


def test_example_file():
    """examples/hex.in: one case of each kind, answers worked out by hand."""
    path = os.path.join(os.path.dirname(__file__), os.pardir, os.pardir, "examples", "hex.in")
    results = hx.judge_file(path)
    assert [(str(r), r.reason) for r in results] == [
        ("Nobody wins", None),             # the main diagonal is not a chain
        ("Red wins", None),                # (0,1) (1,0) (2,0): every stone needed
        ("Impossible", "counts"),          # 1 red, 3 blue
        ("Blue wins", None),               # the middle row
        ("Red wins", None),                # N = 1
        ("Impossible", "loser-moved-last"),  # Blue joined with 3 stones to 4
        ("Impossible", "no-single-last-move"),  # columns 0 and 4
    ]
    assert results[1].last_moves == {(0, 1), (1, 0), (2, 0)}
    assert results[4].last_moves == {(0, 0)}
    for rows, result in zip(ref.parse_input(open(path).read()), results):
        assert (str(result), result.reason, result.last_moves) == reference(rows)


# ---------------------------------------------------------------------------
# Hand-built positions
# ---------------------------------------------------------------------------

HAND = [
    # N = 1: the one cell lies on all four sides.
    (["."], "Nobody wins", None, set()),
    (["R"], "Red wins", None, {(0, 0)}),
    (["B"], "Blue wins", None, {(0, 0)}),
    # The anti-diagonal joins two corners: top-right (0, 2) lies on Red's top
    # and Blue's right side, bottom-left (2, 0) on Red's bottom and Blue's left.
    (["B.R", ".R.", "RB."], "Red wins", None, {(0, 2), (1, 1), (2, 0)}),
    (["R.B", ".B.", "BR."], "Blue wins", None, {(0, 2), (1, 1), (2, 0)}),
    # The main diagonal is not adjacent in this convention (docs/conventions.md).
    (["R..", ".R.", "..R"], "Impossible", "counts", set()),
    (["RB.", ".R.", "B.R"], "Nobody wins", None, set()),
    # A corner stone alone on a 2x2 board touches one side of each pair only.
    (["R.", ".."], "Nobody wins", None, set()),
    # Counts differ by two or more, whatever the chains.
    (["BBB", "BBB", "RRR"], "Impossible", "counts", set()),
    (["R.B", "RRB", "RR."], "Impossible", "counts", set()),
    # Blue's top row is a chain, but Red has one stone more: Red moved last.
    (["BBB", "R.R", "R.R"], "Impossible", "loser-moved-last", set()),
    # Two full Blue rows: one group, but two stone-disjoint chains.
    (["BBBB", "BBBB", "RRRR", "RRR."], "Impossible", "no-single-last-move", set()),
    # Blue (0, 0) is the only left-column stone and (0, 1) its only Blue
    # neighbour; from (0, 1) two routes reach the right column.
    (["BBBB", ".BBB", "RR..", "RRRR"], "Blue wins", None, {(0, 0), (0, 1)}),
    # Red column 0 is the only chain: every stone is needed.
    (["RB.", "RB.", "R.."], "Red wins", None, {(0, 0), (1, 0), (2, 0)}),
    # (0, 0) -> (1, 0), then (2, 0) directly or via (1, 1) -> (2, 0)/(2, 1).
    (["RBB", "RRB", "RRB"], "Red wins", None, {(0, 0), (1, 0)}),
    # Column 1 is Red's chain; Blue's (1, 0) and (2, 2) do not meet.
    (["BR.", "BR.", ".RB"], "Red wins", None, {(0, 1), (1, 1), (2, 1)}),
]


@pytest.mark.parametrize("rows, status, reason, last_moves", HAND)
def test_hand_built(rows, status, reason, last_moves):
    assert engine(rows) == (status, reason, frozenset(last_moves))
    assert reference(rows) == (status, reason, frozenset(last_moves))
    check_explanation(rows, hx.explain(rows))


def test_hand_cases_cover_every_verdict():
    seen = {(status, reason) for _, status, reason, _ in HAND}
    for status in ("Nobody wins", "Red wins", "Blue wins"):
        assert (status, None) in seen
    for reason in ("counts", "loser-moved-last", "no-single-last-move"):
        assert ("Impossible", reason) in seen


def ladder(n, lanes_from, lanes_to):
    """Red column 0, except that rows lanes_from..lanes_to also have column 1
    red: a second lane there, so those rows of column 0 are not cut stones.
    (i, 1) touches (i+1, 0) and (i-1, 1)/(i+1, 1); (i, 0) touches (i, 1).)"""
    grid = [["."] * n for _ in range(n)]
    for i in range(n):
        grid[i][0] = "R"
    for i in range(lanes_from, lanes_to + 1):
        grid[i][1] = "R"
    red = n + lanes_to - lanes_from + 1
    # Blue: stones that cannot reach column 0 (all red), same count as red.
    placed = 0
    for j in range(n - 1, 1, -1):
        for i in range(n):
            if placed < red and grid[i][j] == ".":
                grid[i][j] = "B"
                placed += 1
    assert placed == red
    return ["".join(row) for row in grid]


@pytest.mark.parametrize("n, lanes_from, lanes_to", [(6, 1, 3), (8, 0, 4), (8, 3, 7), (12, 2, 9)])
def test_cut_stones_around_a_bypass(n, lanes_from, lanes_to):
    """Column 0 with a parallel lane in column 1 on rows a..b: column 0's
    stones a+1..b are bypassed ((a, 0)-(a, 1)-...-(b, 1)-(b+1, 0)); every other
    stone of column 0 is on every chain (worked out from the adjacency)."""
    rows = ladder(n, lanes_from, lanes_to)
    expected = {(i, 0) for i in range(n) if not lanes_from < i <= lanes_to}
    if lanes_to == n - 1:
        # The lane reaches the bottom row itself: (b, 0) is bypassed too.
        expected.discard((n - 1, 0))
    if lanes_from == 0:
        # The lane starts on the top row: (0, 0) is bypassed as well.
        expected.discard((0, 0))
    result = hx.judge(rows)
    assert (str(result), result.reason) == ("Red wins", None)
    assert result.last_moves == expected
    assert reference(rows) == ("Red wins", None, frozenset(expected))


# ---------------------------------------------------------------------------
# Random positions against the reference
# ---------------------------------------------------------------------------

def random_positions(seed, count):
    rng = random.Random(seed)
    for number in range(count):
        n = rng.choice([1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 8, 9, 11])
        kind = number % 6
        if kind == 0:
            position = ref.random_game_position(rng, n, "any")
            yield "stopped", position.rows, position
        elif kind == 1:
            position = ref.random_game_position(rng, n, "win")
            yield "win", position.rows, position
        elif kind == 2:
            position = ref.random_game_position(rng, n, "past")
            yield "past", position.rows, position
        elif kind == 3:
            # A game position with one stone changed (colour, emptied or added).
            position = ref.random_game_position(rng, n, rng.choice(["any", "win", "past"]))
            grid = [list(row) for row in position.rows]
            i, j = rng.randrange(n), rng.randrange(n)
            grid[i][j] = rng.choice([c for c in "RB." if c != grid[i][j]])
            yield "changed", ["".join(row) for row in grid], None
        elif kind == 4:
            weights = (rng.randint(1, 5), rng.randint(1, 5), rng.randint(0, 3))
            yield "fill", ref.random_fill(rng, n, weights), None
        else:
            # Near-balanced fills: counts pass, so the chain tests decide.
            cells = [(i, j) for i in range(n) for j in range(n)]
            rng.shuffle(cells)
            stones = rng.randint(n * n // 2, n * n)
            grid = [["."] * n for _ in range(n)]
            first = rng.choice("RB")
            for k, (i, j) in enumerate(cells[:stones]):
                grid[i][j] = first if k % 2 == 0 else ("B" if first == "R" else "R")
            yield "balanced", ["".join(row) for row in grid], None


def test_random_positions_against_reference():
    kinds = {}
    for kind, rows, position in random_positions(2013, 900):
        expected = reference(rows)
        assert engine(rows) == expected, (kind, rows)
        if position is not None and position.expected is not None:
            assert expected[0] == position.expected
        if kind == "win":
            assert position.winning_move in expected[2]
        kinds[(kind, expected[0], expected[1])] = kinds.get((kind, expected[0], expected[1]), 0) + 1
    # The generator must really reach every verdict the rules allow.
    verdicts = {(status, reason) for _, status, reason in kinds}
    assert verdicts >= {("Nobody wins", None), ("Red wins", None), ("Blue wins", None),
                        ("Impossible", "counts"), ("Impossible", "loser-moved-last"),
                        ("Impossible", "no-single-last-move")}, verdicts


def test_random_explanations():
    for kind, rows, _ in random_positions(1337, 400):
        explanation = hx.explain(rows)
        assert explanation.result == hx.judge(rows)
        check_explanation(rows, explanation)


def test_random_positions_as_one_text_with_threads():
    boards = [rows for _, rows, _ in random_positions(99, 300)]
    text = f"{len(boards)}\n" + "".join(f"{len(rows)}\n" + "\n".join(rows) + "\n" for rows in boards)
    expected = [hx.judge(rows) for rows in boards]
    assert hx.judge_text(text) == expected
    assert hx.judge_text(text, threads=4) == expected
    assert hx.format_results(expected) == "".join(
        line + "\n" for line in ref.judge_text(text))
    assert [e.result for e in hx.explain_text(text)] == expected


def test_every_prefix_of_a_game():
    """Along one game: nobody, nobody, ..., then the winner at the winning move,
    whose cell is a possible last move; the reference agrees at each step."""
    rng = random.Random(5)
    n = 7
    moves = ref.random_full_game(rng, n)
    win_at = ref.first_win_index(n, moves)
    for k in range(0, min(len(moves), win_at + 4) + 1):
        rows = ref.rows_from_moves(n, moves[:k])
        result = hx.judge(rows)
        assert (str(result), result.reason, result.last_moves) == reference(rows)
        if k < win_at:
            assert str(result) == "Nobody wins"
        elif k == win_at:
            assert result.winner == ("red" if moves[k - 1][0] == "R" else "blue")
            assert moves[k - 1][1] in result.last_moves


# ---------------------------------------------------------------------------
# Large boards
# ---------------------------------------------------------------------------

def alternating_rows(n, first="B"):
    other = "R" if first == "B" else "B"
    return [(first if i % 2 == 0 else other) * n for i in range(n)]


def test_large_alternating_rows_impossible():
    rows = alternating_rows(400)
    explanation = hx.explain(rows)
    assert (str(explanation.result), explanation.result.reason) == ("Impossible", "no-single-last-move")
    check_explanation(rows, explanation)


@pytest.mark.parametrize("n, samples", [(61, 150), (201, 25)])
def test_snake_cut_stones(n, samples):
    """Hundreds of cut stones along a long chain: the incremental search must
    find each; removal (the definition) decides a sample of stones."""
    rows = snake(n)
    red = sum(row.count("R") for row in rows)
    blue = sum(row.count("B") for row in rows)
    assert red - blue == 1 and ref.connected(rows, "R") and not ref.connected(rows, "B")
    result = hx.judge(rows)
    assert str(result) == "Red wins"
    # Row 1 is entered only at (1, 0) and left only at (1, n-1).
    assert {(1, j) for j in range(n)} | {(0, 0), (2, n - 1)} <= result.last_moves
    # (3, n-1) is bypassed: (2, n-1) also touches (3, n-2).
    assert (3, n - 1) not in result.last_moves
    stones = sorted((i, j) for i in range(n) for j in range(n) if rows[i][j] == "R")
    rng = random.Random(n)
    sample = rng.sample(stones, samples) + rng.sample(sorted(result.last_moves), samples // 3)
    for cell in sample:
        assert (cell in result.last_moves) == (not ref.connected(rows, "R", removed=cell)), cell
    explanation = hx.explain(rows)
    check_explanation(rows, explanation)


def _traced_peak(function, *args):
    """(function's return value, peak bytes of Python memory while it ran)."""
    import tracemalloc

    tracemalloc.start()
    try:
        value = function(*args)
        return value, tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_plain_judging_builds_no_last_moves(tmp_path):
    """The plain verdict pays nothing for the witness: a snake of N = 301 has
    45,151 possible last moves, which as (row, col) tuples in a frozenset
    take over 2.5 MB of Python memory (56 bytes a tuple at the least).
    Judging must stay far below that beyond what a 1 x 1 board takes (the
    file reader's buffer): the moves are found only when read."""
    n = 301
    rows = snake(n)
    text = ("1\n%d\n%s\n" % (n, "\n".join(rows))).encode()
    path = tmp_path / "snake.in"
    path.write_bytes(text)
    (tmp_path / "one.in").write_bytes(b"1\n1\nR\n")
    small = {hx.judge_text: b"1\n1\nR\n", hx.judge_file: tmp_path / "one.in", hx.judge: ["R"]}
    # The flow search of explain (tested against the reference above).
    expected = hx.explain(rows).result.last_moves
    assert len(expected) == 45151
    tuple_bytes = 56 * len(expected)
    for function, argument in ((hx.judge_text, text), (hx.judge_file, path), (hx.judge, rows)):
        fixed = _traced_peak(function, small[function])[1]
        result, peak = _traced_peak(function, argument)
        result = result if isinstance(result, hx.Result) else result[0]
        assert str(result) == "Red wins"
        assert peak - fixed < tuple_bytes // 8, (function.__name__, peak, fixed)
        # Read afterwards, they are explain's.
        assert result.last_moves == expected
        assert result == hx.Result("Red wins", None, expected)


def test_last_moves_read_from_many_threads():
    """Threads that read a result's last moves at once all get them."""
    rows = snake(101)
    expected = hx.explain(rows).result.last_moves
    for _ in range(5):
        result = hx.judge_text("1\n101\n" + "\n".join(rows) + "\n")[0]
        seen = []
        start = threading.Barrier(4)

        def read():
            start.wait()
            seen.append(result.last_moves)

        threads = [threading.Thread(target=read) for _ in range(4)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert seen == [expected] * 4
        assert hash(result) == hash(hx.Result("Red wins", None, expected))


def test_boards_beyond_the_statement_limit():
    """N = 2000 through the text path (the statement stops at 100).  Red has
    the even rows, Blue the odd ones: Red misses the bottom row (Blue's), and
    Blue's 1000 full rows are 1000 stone-disjoint chains."""
    n = 2000
    rows = alternating_rows(n, "R")
    text = f"2\n{n}\n" + "\n".join(rows) + "\n3\nB..\n.R.\n..R\n"
    results = hx.judge_text(text)
    assert [(str(r), r.reason) for r in results] == [
        ("Impossible", "no-single-last-move"), ("Nobody wins", None)]


def test_random_game_large_board_winning_move():
    """A random game on N = 60 up to its win (found with the engine, checked
    with the reference): the winning move is a possible last move, and each
    possible last move disconnects the winner when removed."""
    rng = random.Random(8)
    n = 60
    moves = ref.random_full_game(rng, n)

    def position(k):
        return ref.rows_from_moves(n, moves[:k])

    low, high = 0, len(moves)         # nobody joined after ``low``, somebody after ``high``
    while high - low > 1:
        middle = (low + high) // 2
        if str(hx.judge(position(middle))) == "Nobody wins":
            low = middle
        else:
            high = middle
    colour, cell = moves[high - 1]
    rows = position(high)
    assert ref.connected(rows, colour)
    assert not ref.connected(position(high - 1), "R") and not ref.connected(position(high - 1), "B")
    result = hx.judge(rows)
    assert result.winner == ("red" if colour == "R" else "blue")
    assert cell in result.last_moves
    for stone in result.last_moves:
        assert not ref.connected(rows, colour, removed=stone)
    others = sorted(ref.stones_of(rows, colour) - result.last_moves)
    for stone in rng.sample(others, min(30, len(others))):
        assert ref.connected(rows, colour, removed=stone)


# ---------------------------------------------------------------------------
# The Result type
# ---------------------------------------------------------------------------

def test_result_wording_is_exact():
    assert [str(hx.judge(rows)) for rows in (["."], ["R"], ["B"], ["BR", "BB"])] == [
        "Nobody wins", "Red wins", "Blue wins", "Impossible"]
    assert hx.STATUSES == ("Nobody wins", "Red wins", "Blue wins", "Impossible")
    assert hx.REASONS == ("counts", "both-connected", "loser-moved-last", "no-single-last-move")


def test_result_properties():
    win = hx.judge(["R"])
    assert (win.status, win.reason, win.last_moves, win.winner, win.possible) == (
        "Red wins", None, frozenset({(0, 0)}), "red", True)
    impossible = hx.judge(["BR", "BB"])
    assert (impossible.winner, impossible.possible, impossible.last_moves) == (None, False, frozenset())
    assert hx.judge(["."]).winner is None
    assert isinstance(win.last_moves, frozenset)


def test_result_immutable_hashable_picklable():
    result = hx.judge(["BB", "R."])
    with pytest.raises(AttributeError):
        result.status = "Red wins"
    with pytest.raises(AttributeError):
        result.last_moves = frozenset()
    with pytest.raises(AttributeError):
        del result.reason
    with pytest.raises(AttributeError):
        result.extra = 1
    assert pickle.loads(pickle.dumps(result)) == result
    assert hash(result) == hash(hx.Result("Blue wins", None, [(0, 0), (0, 1)]))
    assert result != hx.Result("Blue wins", None, [(0, 0)])
    assert result != "Blue wins"
    assert len({result, hx.judge(["BB", "R."])}) == 1
    explanation = hx.explain(["BB", "R."])
    assert pickle.loads(pickle.dumps(explanation)) == explanation
    with pytest.raises(AttributeError):
        explanation.chains = ()
    assert "Blue wins" in repr(result) and "counts" in repr(hx.judge(["BR", "BB"]))


@pytest.mark.parametrize("args", [
    ("impossible", "counts", ()),          # wording is case-sensitive
    ("Impossible", None, ()),              # an impossible result needs its reason
    ("Impossible", "why", ()),
    ("Red wins", "counts", [(0, 0)]),
    ("Red wins", None, ()),                # a win has possible last moves
    ("Nobody wins", None, [(0, 0)]),
])
def test_result_validation(args):
    with pytest.raises(ValueError):
        hx.Result(*args)


def test_format_results():
    results = hx.judge_text("3\n1\n.\n1\nR\n2\nBR\nBB\n")
    assert hx.format_results(results) == (
        "Case #1: Nobody wins\nCase #2: Red wins\nCase #3: Impossible\n")
    assert hx.format_results([]) == ""


# ---------------------------------------------------------------------------
# Board forms accepted by judge()
# ---------------------------------------------------------------------------

def test_board_forms():
    expected = hx.judge(["BB", "R."])
    assert str(expected) == "Blue wins"
    assert hx.judge([b"BB", b"R."]) == expected
    assert hx.judge(("BB", bytearray(b"R."))) == expected
    assert hx.judge("BB\nR.\n") == expected
    assert hx.judge(b"  BB  R. ") == expected
    assert hx.judge([["B", "B"], ["R", "."]]) == expected
    assert hx.judge([[b"B", b"B"], [b"R", b"."]]) == expected
    assert hx.judge(iter(["BB", "R."])) == expected
    assert hx.judge(memoryview(b"BBR.").cast("B", (2, 2))) == expected


def test_numpy_boards():
    np = needs.module("numpy")
    expected = hx.judge(["BB", "R."])
    assert hx.judge(np.array([list("BB"), list("R.")])) == expected                 # <U1
    assert hx.judge(np.array([list("BB"), list("R.")], dtype="S1")) == expected     # S1
    assert hx.judge(np.frombuffer(b"BBR.", dtype=np.uint8).reshape(2, 2)) == expected
    assert hx.judge(np.array(["BB", "R."])) == expected                             # 1-D of str


@pytest.mark.parametrize("rows, reason", [
    ([], "a board needs at least one row"),
    ("", "a board needs at least one row"),
    (["BB", "R"], "row 2 has 1 character, expected 2"),
    (["BBB", "R.."], "row 1 has more than 2 characters, expected 2"),
    (["BX", "R."], "row 1 has 'X' at column 2; only B, R and . are allowed"),
    (["BB", "r."], "row 2 has 'r' at column 1; only B, R and . are allowed"),
    (["B R", "...", "..."], "row 1 has ' ' at column 2; only B, R and . are allowed"),
    (["Bé", ".."], "row 1 has 'é' at column 2; only B, R and . are allowed"),
    ([1, 2], "row 1 must be a string, got int"),
])
def test_bad_boards(rows, reason):
    with pytest.raises(InputError) as caught:
        hx.judge(rows)
    assert str(caught.value) == reason
    with pytest.raises(InputError):
        hx.explain(rows)


# ---------------------------------------------------------------------------
# The judge format: faults
# ---------------------------------------------------------------------------

BAD_TEXTS = [
    ("", 1, "input ends before the number of test cases T"),
    ("x\n", 1, "expected the number of test cases T as an integer, found 'x'"),
    ("1.5\n", 1, "expected the number of test cases T as an integer, found '1.5'"),
    ("-1\n", 1, "the number of test cases T must not be negative, got -1"),
    ("1\n", 1, "input ends before the board size N of case #1"),
    ("2\n1\nR\n", 3, "input ends before the board size N of case #2"),
    ("1\nabc\n", 2, "expected the board size N of case #1 as an integer, found 'abc'"),
    ("2\n1\n.\nN\n", 4, "expected the board size N of case #2 as an integer, found 'N'"),
    ("1\n0\n", 2, "the board size N of case #1 must be at least 1, got 0"),
    ("2\n1\nB\n-3\n", 4, "the board size N of case #2 must be at least 1, got -3"),
    ("1\n30001\n", 2, "the board size N of case #1 must be at most 30000, got 30001"),
    ("1\n99999999999999999999\n", 2,
     "the board size N of case #1 is too long: '99999999999999999999' "
     "(a number has at most 18 digits)"),
    ("1\n3\nBR.\n", 3, "input ends before row 2 of case #1"),
    ("1\n3\n", 2, "input ends before row 1 of case #1"),
    ("2\n1\n.\n4\nBBBB\nRRRR\nBBB\n", 7, "row 3 of case #2 has 3 characters, expected 4"),
    ("1\n2\nBB\nRRR\n", 4, "row 2 of case #1 has more than 2 characters, expected 2"),
    ("1\n2\nB\n", 3, "row 1 of case #1 has 1 character, expected 2"),
    ("2\n1\n.\n4\nBBBB\nRRRR\nBXBB\n", 7,
     "row 3 of case #2 has 'X' at column 2; only B, R and . are allowed"),
    ("1\n2\nBB\n.b\n", 4, "row 2 of case #1 has 'b' at column 2; only B, R and . are allowed"),
    ("1\n2\nBBX\n..\n", 3, "row 1 of case #1 has 'X' at column 3; only B, R and . are allowed"),
    ("1\n2\nB\u00e9\n..\n", 3, "row 1 of case #1 has 'é' at column 2; only B, R and . are allowed"),
    # Too few rows: the next case's N is read as a row.
    ("2\n2\nBB\n1\nR\n", 4, "row 2 of case #1 has '1' at column 1; only B, R and . are allowed"),
    ("1\n1\n.\nextra\n", 4, "unexpected data after the last test case: 'extra'"),
    ("1\n1\n.\n.\n", 4, "unexpected data after the last test case: '.'"),
    ("0\n1\n", 2, "unexpected data after the last test case: '1'"),
]


@pytest.mark.parametrize("text, line, reason", BAD_TEXTS)
def test_bad_text(text, line, reason):
    with pytest.raises(InputError) as caught:
        hx.judge_text(text, source="in.txt")
    assert (caught.value.source, caught.value.line, caught.value.reason) == ("in.txt", line, reason)
    assert str(caught.value) == f"in.txt:{line}: {reason}"
    with pytest.raises(InputError):
        hx.explain_text(text)


@pytest.mark.parametrize("chunk", [1, 2, 3, 5, 64])
def test_streaming_chunks_give_the_same_answers_and_faults(tmp_path, chunk):
    """Rows and bad characters split across read() chunks."""
    rng = random.Random(chunk)
    boards = [ref.random_fill(rng, rng.randint(1, 7)) for _ in range(30)]
    good = f"{len(boards)}\r\n" + "".join(f"{len(b)}\n" + "\n".join(b) + "\n" for b in boards)
    for text, fault in [(good, None)] + [(t, (line, reason)) for t, line, reason in BAD_TEXTS]:
        path = tmp_path / "in.txt"
        path.write_bytes(text.encode())
        descriptor = os.open(path, os.O_RDONLY)
        try:
            parsed = hex_engine.parse(descriptor, chunk)
        finally:
            os.close(descriptor)
        if fault is None:
            assert not parsed.err_code
            parsed.judge()
            assert hx._results(parsed) == [hx.judge(b) for b in boards]
            assert [parsed.board(case) for case in range(parsed.n_cases)] == boards
        else:
            with pytest.raises(InputError) as caught:
                hx._checked(parsed, "in.txt")
            assert (caught.value.line, caught.value.reason) == fault


def test_claimed_size_does_not_allocate_the_board():
    """N = 30000 announced, one short row given: a fault, at once (memory
    follows the rows read, not N * N = 900 MB)."""
    with pytest.raises(InputError) as caught:
        hx.judge_text("1\n30000\nBR\n")
    assert caught.value.reason == "row 1 of case #1 has 2 characters, expected 30000"


def test_fault_wins_over_judging_and_no_partial_results():
    text = "2\n1\nR\n2\nBR\n"
    with pytest.raises(InputError) as caught:
        hx.judge_text(text)
    assert caught.value.line == 5


def test_judge_file_errors(tmp_path):
    with pytest.raises(InputError) as caught:
        hx.judge_file(tmp_path / "missing.in")
    assert str(caught.value).startswith(f"{tmp_path / 'missing.in'}: cannot open")
    path = tmp_path / "bad.in"
    path.write_text("1\n2\nBB\n")
    with pytest.raises(InputError) as caught:
        hx.judge_file(path)
    assert str(caught.value) == f"{path}:3: input ends before row 2 of case #1"


def test_windows_line_endings_and_blank_lines():
    text = "2\r\n\r\n1\r\nR\r\n\r\n2\r\nBB\r\nR.\r\n"
    assert [str(r) for r in hx.judge_text(text)] == ["Red wins", "Blue wins"]
    assert [str(r) for r in hx.judge_text(text.encode())] == ["Red wins", "Blue wins"]
    assert hx.judge_text("0\n") == []


def test_threads_share_cases():
    rng = random.Random(3)
    boards = [ref.random_game_position(rng, rng.randint(1, 9), "win").rows for _ in range(80)]
    boards.append(alternating_rows(200))
    text = f"{len(boards)}\n" + "".join(f"{len(b)}\n" + "\n".join(b) + "\n" for b in boards)
    single = hx.judge_text(text)
    outcomes = []
    workers = [threading.Thread(target=lambda: outcomes.append(hx.judge_text(text, threads=3)))
               for _ in range(3)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    assert outcomes == [single] * 3
