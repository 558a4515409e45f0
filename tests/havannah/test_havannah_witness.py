"""Witnesses of the Havannah judge (havhex.havannah.explain*, ``--format json``).

Every witness is checked by an independent checker written here from the
statement: adjacency, corners and edges come from tests/support/ref_havannah.py (or
this file), never from the code under test.  ``enclosed`` is compared with the
statement's flood fill: tests/support/ref_havannah.enclosed_empty on small boards, and
on big boards a flood fill bounded by the stones' hull (``cut_off`` below,
itself checked against the reference).

Hexagons are (x, y); neighbours of (x, y), clockwise from twelve o'clock:
(x+1, y+1), (x, y+1), (x-1, y), (x-1, y-1), (x, y-1), (x+1, y).
"""
import json
import random
from collections import deque

import pytest

import ref_havannah as ref
from boards import hex_ring
from conftest import SANITIZED
from havhex import InputError, havannah
from havhex.havannah import first_win, judge_file, judge_text


# The witnesses are checked in their JSON form, the record ``--format json``
# prints (tests/contracts/test_explanation.py checks the Explanation behind it).
def explain(size, moves):
    return havannah.explain(size, moves).to_dict()


def explain_text(text, **options):
    return [explanation.to_dict() for explanation in havannah.explain_text(text, **options)]


def explain_file(file, **options):
    return [explanation.to_dict() for explanation in havannah.explain_file(file, **options)]

NEIGHBOURS = ref.NEIGHBOURS
OFFSETS = set(NEIGHBOURS)

# The witness's edge names and the reference's edge ids (ref.edge_of).

# Boards up to this many hexagons are flooded whole by the reference.
SMALL_BOARD = 5000


def adjacent(a, b):
    return (b[0] - a[0], b[1] - a[1]) in OFFSETS


def cells_of(listed):
    """A witness's ``[[x, y], ...]`` as a list of tuples (checks the shape)."""
    assert isinstance(listed, list)
    cells = []
    for cell in listed:
        assert isinstance(cell, list) and len(cell) == 2, cell
        assert all(type(v) is int for v in cell), cell
        cells.append(tuple(cell))
    return cells


def runs_of(listed):
    """A witness's ``[[x, first_y, last_y], ...]`` as a list of tuples (checks
    the shape: sorted, each run non-empty)."""
    assert isinstance(listed, list)
    runs = []
    for run in listed:
        assert isinstance(run, list) and len(run) == 3, run
        assert all(type(v) is int for v in run), run
        assert run[1] <= run[2], run
        runs.append(tuple(run))
    assert runs == sorted(runs)
    return runs


def cells_of_runs(runs):
    return [(x, y) for x, first, last in runs for y in range(first, last + 1)]


def board_border(size, cell):
    x, y = cell
    last = 2 * size - 1
    return x in (1, last) or y in (1, last) or abs(x - y) == size - 1


def cut_off(size, walls, force_hull=False):
    """Empty hexagons (not in ``walls``) that cannot reach the outside.

    Small boards: the reference's whole-board flood fill.  Big boards: every
    empty hexagon outside the hull ``min <= x, y, x - y <= max`` of the walls
    reaches the border in a straight line away from the walls, so the flood
    runs over the hull plus a margin of one, starting from the margin and from
    the empty border hexagons.
    """
    walls = set(walls)
    if not walls:
        return set()
    if not force_hull and 3 * size * (size - 1) + 1 <= SMALL_BOARD:
        return set(ref.enclosed_empty(size, walls))
    xs = [x for x, _ in walls]
    ys = [y for _, y in walls]
    ds = [x - y for x, y in walls]
    x0, x1, y0, y1, d0, d1 = min(xs), max(xs), min(ys), max(ys), min(ds), max(ds)

    def in_hull(x, y):
        return x0 <= x <= x1 and y0 <= y <= y1 and d0 <= x - y <= d1

    region = set()
    for x in range(x0 - 1, x1 + 2):
        for y in range(max(y0 - 1, x - d1 - 1), min(y1 + 1, x - d0 + 1) + 1):
            if ref.on_board(size, (x, y)) and (x, y) not in walls:
                region.add((x, y))
    reached = {cell for cell in region if not in_hull(*cell) or board_border(size, cell)}
    queue = deque(reached)
    while queue:
        x, y = queue.popleft()
        for dx, dy in NEIGHBOURS:
            other = (x + dx, y + dy)
            if other in region and other not in reached:
                reached.add(other)
                queue.append(other)
    return region - reached


def corner_distance(size, stones):
    """Fewest steps between two different corners over ``stones`` (or None)."""
    corners = [c for c in ref.corners(size) if c in stones]
    best = None
    for start in corners:
        seen = {start: 0}
        queue = deque([start])
        while queue:
            cell = queue.popleft()
            if cell != start and cell in corners:
                if best is None or seen[cell] < best:
                    best = seen[cell]
                break
            for dx, dy in NEIGHBOURS:
                other = (cell[0] + dx, cell[1] + dy)
                if other in stones and other not in seen:
                    seen[other] = seen[cell] + 1
                    queue.append(other)
    return best


def connected(cells):
    cells = set(cells)
    start = next(iter(cells))
    seen = {start}
    queue = [start]
    for x, y in queue:
        for dx, dy in NEIGHBOURS:
            other = (x + dx, y + dy)
            if other in cells and other not in seen:
                seen.add(other)
                queue.append(other)
    return seen == cells


def check_explanation(size, moves, got, case=None):
    """Assert that ``got`` is a correct explanation of ``moves`` on side ``size``."""
    moves = [tuple(move) for move in moves]
    result = first_win(size, moves)
    kinds = list(result.kinds)
    keys = (["case"] if case is not None else []) + ["answer", "move", "kinds"] + kinds
    assert list(got) == keys
    if case is not None:
        assert got["case"] == case
    assert got["answer"] == str(result)
    assert got["move"] == result.move
    assert got["kinds"] == kinds
    if not result:
        assert got["move"] is None and got["kinds"] == []
        return
    played = set(moves[:result.move])
    winning = moves[result.move - 1]

    if "bridge" in got:
        assert list(got["bridge"]) == ["path"]
        path = cells_of(got["bridge"]["path"])
        assert len(path) >= 2 and len(set(path)) == len(path), path
        assert all(adjacent(a, b) for a, b in zip(path, path[1:])), path
        corners = ref.corners(size)
        assert path[0] in corners and path[-1] in corners and path[0] != path[-1], path
        assert set(path) <= played
        assert len(path) - 1 == corner_distance(size, played), "bridge path is not a shortest one"

    if "fork" in got:
        assert list(got["fork"]) == ["cells"]
        cells = cells_of(got["fork"]["cells"])
        assert len(cells) == len(set(cells)), cells
        assert set(cells) <= played
        assert connected(cells), cells
        touched = {ref.edge_of(size, cell) for cell in cells} - {None}
        assert len(touched) >= 3, ("the fork's cells touch fewer than three edges", cells)

    if "ring" in got:
        assert list(got["ring"]) == ["loop", "enclosed_runs"]
        loop = cells_of(got["ring"]["loop"])
        runs = runs_of(got["ring"]["enclosed_runs"])
        assert len(loop) >= 3 and len(set(loop)) == len(loop), loop
        assert all(adjacent(a, b) for a, b in zip(loop, loop[1:] + loop[:1])), loop
        assert set(loop) <= played
        assert winning in loop
        assert len(runs) <= len(played)         # the witness grows with the stones
        for x, first, last in runs:             # maximal: a stone at each end
            assert (x, first - 1) in played and (x, last + 1) in played, (x, first, last)
        enclosed = cells_of_runs(runs)
        assert enclosed == sorted(enclosed) and len(set(enclosed)) == len(enclosed)
        assert set(enclosed) == cut_off(size, played)
        inside = cut_off(size, loop)
        assert inside & set(enclosed), "the loop encloses no enclosed hexagon"


def judge_format(cases):
    lines = [str(len(cases))]
    for size, moves in cases:
        lines.append(f"{size} {len(moves)}")
        lines.extend(f"{x} {y}" for x, y in moves)
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------------------
# The checker itself
# ---------------------------------------------------------------------------

def test_cut_off_by_hull_matches_the_reference():
    rng = random.Random(55)
    for _ in range(150):
        size = rng.randint(2, 7)
        stones = ref.wandering_game(rng, size, rng.randint(1, 3 * size * (size - 1)))
        assert cut_off(size, stones, force_hull=True) == set(ref.enclosed_empty(size, stones))


def test_checker_rejects_broken_witnesses():
    moves = [(4, 5), (5, 5), (5, 4), (4, 3), (3, 4), (6, 6), (7, 7), (6, 5), (7, 5),
             (2, 2), (1, 1), (1, 2), (2, 1), (3, 3)]
    good = explain(4, moves)
    check_explanation(4, moves, good)

    def broken(change):
        bad = json.loads(json.dumps(good))
        change(bad)
        with pytest.raises(AssertionError):
            check_explanation(4, moves, bad)

    broken(lambda d: d["bridge"]["path"].pop())                       # ends off a corner
    broken(lambda d: d["bridge"]["path"].pop(3))                      # gap
    broken(lambda d: d["fork"]["cells"].pop())                        # loses an edge
    broken(lambda d: d["fork"].update(edges=["x=1"]))                 # a key too many
    broken(lambda d: d["ring"]["loop"].pop())                         # does not close
    broken(lambda d: d["ring"]["enclosed_runs"].append([4, 1, 1]))    # not enclosed
    broken(lambda d: d["ring"]["enclosed_runs"].clear())
    broken(lambda d: d["ring"]["enclosed_runs"][0].append(4))         # not a run
    broken(lambda d: d["ring"].update(enclosed=[[4, 4]]))             # a key too many
    broken(lambda d: d.update(answer="ring in move 14"))
    broken(lambda d: d.update(kinds=["bridge", "ring", "fork"]))
    broken(lambda d: d.update(ring=d.pop("ring"), fork=d.pop("fork")))  # key order
    # S = 2: corners (1, 1) and (1, 2) joined in move 3; corner (2, 1) is a
    # neighbour of (1, 1) but was never played.
    got = explain(2, [(1, 1), (2, 2), (1, 2)])
    check_explanation(2, [(1, 1), (2, 2), (1, 2)], got)
    got["bridge"]["path"] = [[1, 1], [2, 1]]
    with pytest.raises(AssertionError):
        check_explanation(2, [(1, 1), (2, 2), (1, 2)], got)


# ---------------------------------------------------------------------------
# Hand-built cases with several kinds
# ---------------------------------------------------------------------------



HAND = [
    # S = 3: an arc round (3, 3) holding corner (5, 5); (2, 2) closes the ring
    # and brings in corner (1, 1).
    (3, [(5, 5), (4, 4), (3, 4), (2, 3), (1, 1), (3, 2), (4, 3), (2, 2)],
     "bridge-ring in move 8"),
    # S = 4: an arc round (4, 4) with corner (7, 7) and edge x = 7; (2, 2) with
    # corner (1, 1) and edges x = 1, y = 1; (3, 3) joins them and closes the ring.
    (4, [(4, 5), (5, 5), (5, 4), (4, 3), (3, 4), (6, 6), (7, 7), (6, 5), (7, 5),
         (2, 2), (1, 1), (1, 2), (2, 1), (3, 3)], "bridge-fork-ring in move 14"),
    # The same without the corners.
    (4, [(4, 5), (5, 5), (5, 4), (4, 3), (3, 4), (6, 5), (7, 5), (2, 2), (1, 2),
         (2, 1), (3, 3)], "fork-ring in move 11"),
    # S = 5: the last move has three runs of neighbours, all one group; two
    # pockets, (5, 6) and (4, 4), close at once; (6, 5) still leaks via (7, 5).
    (5, [c for c in hex_ring(5, 5, 2) if c != (7, 5)] + [(6, 6), (4, 5), (5, 4), (5, 5)],
     "ring in move 15"),
    # A ring of radius 3 round the centre of S = 5, played in a shuffled order:
    # 19 hexagons inside.
    (5, random.Random(3).sample(hex_ring(5, 5, 3), 18), "ring in move 18"),
    # Moves after the win are ignored: the ring of S = 4 around (4, 4), then more.
    (4, [(5, 5), (4, 5), (3, 4), (3, 3), (4, 3), (5, 4), (1, 1), (1, 2)], "ring in move 6"),
    (2, [(2, 2)], "none"),
    (2, [], "none"),
]


@pytest.mark.parametrize("size, moves, answer", HAND)
def test_hand_built(size, moves, answer):
    assert ref.format_answer(1, *ref.first_win(size, moves)) == f"Case #1: {answer}"
    got = explain(size, moves)
    assert got["answer"] == answer
    check_explanation(size, moves, got)


def test_hand_built_shortest_loop_and_enclosed():
    size, moves, _ = HAND[3]
    got = explain(size, moves)
    assert got["ring"]["enclosed_runs"] == [[4, 4, 4], [5, 6, 6]]
    assert len(got["ring"]["loop"]) == 6


def test_corners_of_the_largest_board():
    big = 2 ** 30
    last = 2 * big - 1
    # A ring round (last - 2, last - 2), closed by the stone next to corner
    # (last, last) (played before, with the edge stone (last - 1, last)).
    around = [(last - 2 + dx, last - 2 + dy) for dx, dy in NEIGHBOURS]
    moves = around[1:] + [(last, last), (last - 1, last), around[0]]
    got = explain(big, moves)
    assert got["answer"] == "ring in move 8"
    check_explanation(big, moves, got)
    assert got["ring"]["enclosed_runs"] == [[last - 2, last - 2, last - 2]]
    # A ring round (2, 2), closed on corner (1, 1).
    moves = [(3, 3), (2, 3), (1, 2), (2, 1), (3, 2), (1, 1)]
    got = explain(big, moves)
    assert got["answer"] == "ring in move 6"
    check_explanation(big, moves, got)
    assert got["ring"]["enclosed_runs"] == [[2, 2, 2]]


# ---------------------------------------------------------------------------
# Random games
# ---------------------------------------------------------------------------

def hex_distance(a, b):
    dx, dy = b[0] - a[0], b[1] - a[1]
    return max(abs(dx), abs(dy)) if dx * dy >= 0 else abs(dx) + abs(dy)


def loop_game(rng, size):
    """A hexagonal loop (maybe touching the border) with stones grown from it,
    all in a shuffled order: rings that often come with bridges and forks."""
    radius = rng.randint(1, size - 2)
    centre = rng.choice([c for c in ref.board_cells(size)
                         if hex_distance(c, (size, size)) <= size - 1 - radius])
    stones = hex_ring(*centre, radius)
    taken = set(stones)
    for _ in range(rng.randint(0, 4 * size)):
        free = [c for c in ref.neighbours(size, rng.choice(stones)) if c not in taken]
        if free:
            cell = rng.choice(free)
            stones.append(cell)
            taken.add(cell)
    rng.shuffle(stones)
    return stones


def random_games(seed, count):
    """Seeded games on S = 2..8: uniform, wandering and loop games."""
    rng = random.Random(seed)
    games = []
    for number in range(count):
        size = rng.randint(2, 8)
        cells = 3 * size * (size - 1) + 1
        if number % 4 == 0:
            moves = ref.random_game(rng, size)
        elif number % 4 == 1 and size >= 3:
            moves = loop_game(rng, size)
        else:
            moves = ref.wandering_game(rng, size, rng.randint(cells // 4, cells),
                                       p_adjacent=rng.choice((0.7, 0.85, 0.95, 1.0)))
        games.append((size, moves))
    return games


def test_random_games():
    games = random_games(2012, 450)
    seen = set()
    for size, moves in games:
        got = explain(size, moves)
        check_explanation(size, moves, got)
        seen.add(tuple(got["kinds"]))
    # The games reach every kind, and several at once.
    assert {("bridge",), ("fork",), ("ring",), ("bridge", "fork")} <= seen
    assert any(len(kinds) >= 2 and "ring" in kinds for kinds in seen)


def test_random_games_through_explain_text_and_explain_file(tmp_path):
    games = random_games(2013, 120)
    for start in range(0, len(games), 20):
        chunk = games[start:start + 20]
        text = judge_format(chunk)
        got = explain_text(text)
        assert len(got) == len(chunk)
        for number, ((size, moves), explanation) in enumerate(zip(chunk, got), 1):
            check_explanation(size, moves, explanation, case=number)
            assert explanation == {"case": number, **explain(size, moves)}
        path = tmp_path / "games.in"
        path.write_text(text)
        assert explain_file(path) == got
        assert explain_file(str(path), threads=3) == got
        with open(path, "rb") as stream:
            assert explain_file(stream) == got
        assert explain_text(text.encode(), threads=2) == got


# ---------------------------------------------------------------------------
# Enclosed hexagons as row runs
# ---------------------------------------------------------------------------

def test_enclosed_runs_are_the_enclosed_cells():
    """havannah.enclosed_runs against the reference's flood fill, and against
    enclosed_empty (its cells), on random stone sets and rings."""
    rng = random.Random(16)
    sets = [(size, loop_game(rng, size)) for size in (3, 4, 5, 6, 7, 8) for _ in range(15)]
    sets += [(size, ref.wandering_game(rng, size, rng.randint(1, 3 * size * (size - 1))))
             for size in (2, 3, 4, 5, 6, 7) for _ in range(25)]
    rings = 0
    for size, stones in sets:
        runs = havannah.enclosed_runs(size, stones)
        assert all(type(run) is tuple for run in runs)
        listed = runs_of([list(run) for run in runs])
        expected = sorted(ref.enclosed_empty(size, stones))
        assert cells_of_runs(listed) == expected == havannah.enclosed_empty(size, stones)
        assert len(runs) <= len(stones)
        for x, first, last in runs:
            assert (x, first - 1) in stones and (x, last + 1) in stones
        rings += bool(runs)
    assert rings > 50


def hex_disc_runs(cx, cy, radius):
    """Row runs of the hexagons less than ``radius`` steps from (cx, cy)."""
    r = radius - 1
    return [(cx + dx, cy + max(-r, dx - r), cy + min(r, dx + r)) for dx in range(-r, r + 1)]


def test_hex_disc_runs_match_the_reference():
    for radius in (1, 2, 3, 4):
        size = radius + 2
        ring = hex_ring(size, size, radius)
        assert cells_of_runs(hex_disc_runs(size, size, radius)) == \
            sorted(ref.enclosed_empty(size, ring))


def run_limited(args, memory=2 ** 30, timeout=120):
    """``python -m havhex`` with its address space capped (where the platform
    can) and a time limit, so a witness that grows with the area enclosed
    fails the test instead of filling the machine."""
    import subprocess
    import sys

    def cap():
        import resource
        resource.setrlimit(resource.RLIMIT_AS, (memory, memory))

    # Under the sanitizers ASan's shadow memory exceeds any such cap: the
    # run keeps its time limit and its checks of the output.
    limit = cap if sys.platform.startswith("linux") and not SANITIZED else None
    try:
        return subprocess.run([sys.executable, "-m", "havhex", *map(str, args)],
                              capture_output=True, preexec_fn=limit, timeout=timeout)
    except subprocess.TimeoutExpired:
        pytest.fail(f"havhex {' '.join(map(str, args))} took over {timeout} s")


@pytest.mark.parametrize("radius", [1000, 2500])
def test_cli_json_of_a_ring_round_a_huge_area(tmp_path, radius):
    """S = 2**30: a hexagonal ring of 6 r stones encloses 3 r (r - 1) + 1
    hexagons (millions); its JSON line grows with the stones, not the area,
    and its runs are the disc's rows."""
    size = 2 ** 30
    centre = size - 5
    ring = hex_ring(centre, centre + 7, radius)
    path = tmp_path / "ring.in"
    path.write_text(judge_format([(size, ring)]))
    process = run_limited(["havannah", "--format", "json", path])
    assert process.returncode == 0, process.stderr.decode()[-2000:]
    assert len(process.stdout) < 64 * len(ring), len(process.stdout)
    (line,) = process.stdout.decode().splitlines()
    got = json.loads(line)
    assert got["answer"] == f"ring in move {len(ring)}"
    assert got["ring"]["enclosed_runs"] == [list(run) for run in
                                            hex_disc_runs(centre, centre + 7, radius)]
    loop = cells_of(got["ring"]["loop"])
    assert set(loop) == set(ring)
    assert all(adjacent(a, b) for a, b in zip(loop, loop[1:] + loop[:1]))


# ---------------------------------------------------------------------------
# The contest's files
# ---------------------------------------------------------------------------

def test_conformance_files(conformance_dir):
    inputs = sorted((conformance_dir / "havannah").glob("*.in"))
    assert inputs
    for path in inputs:
        cases = ref.parse_input(path.read_text())
        got = explain_file(path)
        expected = path.with_suffix(".out").read_text().splitlines()
        assert [f"Case #{d['case']}: {d['answer']}" for d in got] == expected, path.name
        assert [d["answer"] for d in got] == [str(r) for r in judge_file(path)]
        for number, ((size, moves), explanation) in enumerate(zip(cases, got), 1):
            check_explanation(size, moves, explanation, case=number)


# ---------------------------------------------------------------------------
# The command line
# ---------------------------------------------------------------------------

def test_cli_json_lines(cli, tmp_path):
    games = random_games(7, 17) + [(size, moves) for size, moves, _ in HAND[:3]]
    path = tmp_path / "mixed.in"
    path.write_text(judge_format(games))
    expected = explain_file(path)
    process = cli("havannah", "--format", "json", path)
    assert process.returncode == 0, process.stderr.decode()
    assert process.stderr == b""
    lines = process.stdout.decode().splitlines()
    assert len(lines) == len(games)
    parsed = [json.loads(line) for line in lines]
    assert all(type(d) is dict for d in parsed)
    assert [d.pop("file") for d in parsed] == [str(path)] * len(games)
    assert [d["case"] for d in parsed] == list(range(1, len(games) + 1))
    assert parsed == expected
    assert lines == [json.dumps({"file": str(path), **d}, separators=(", ", ": "))
                     for d in expected]
    for (size, moves), explanation in zip(games, parsed):
        check_explanation(size, moves, explanation, case=explanation["case"])
    # Standard input and -j give the same lines, from "<stdin>".
    piped = cli("havannah", "--format", "json", "-j", "2", "-", stdin=path.read_bytes())
    assert piped.returncode == 0
    assert piped.stdout.decode() == process.stdout.decode().replace(
        json.dumps(str(path)), '"<stdin>"')


def test_cli_json_conformance(cli, conformance_dir):
    path = conformance_dir / "havannah" / "sample.in"
    process = cli("havannah", "--format", "json", path)
    assert process.returncode == 0, process.stderr.decode()
    lines = process.stdout.decode().splitlines()
    assert [json.loads(line) for line in lines] == [{"file": str(path), **d}
                                                    for d in explain_file(path)]
    assert [f"Case #{n}: {json.loads(line)['answer']}" for n, line in enumerate(lines, 1)] \
        == path.with_suffix(".out").read_text().splitlines()


# ---------------------------------------------------------------------------
# Faults are the judge's
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("text", [
    "1\n3 2\n1 1\n9 9\n",            # off the board
    "1\n2 4\n1 1\n1 2\n2 2\n1 1\n",  # played twice, after the win
    "2\n2 1\n1 1\n",                 # a case missing
])
def test_faults_match_the_plain_judge(text, tmp_path, cli):
    with pytest.raises(InputError) as plain:
        judge_text(text)
    with pytest.raises(InputError) as explained:
        explain_text(text)
    assert str(explained.value) == str(plain.value)
    path = tmp_path / "bad.in"
    path.write_text(text)
    with pytest.raises(InputError):
        explain_file(path)
    process = cli("havannah", "--format", "json", path)
    assert process.returncode == 1 and process.stdout == b""
    assert process.stderr.decode().count("\n") == 1
