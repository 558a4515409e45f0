"""Pictures: ``havhex draw havannah|hex FILE --case N [-o OUT] [--text]``.

Every SVG is parsed with xml.etree.  The pictures are checked against the
judges' witnesses (``havannah.explain``, ``hex.explain``) and, independently,
against the literal references (tests/support/ref_havannah.py, tests/support/ref_hex.py): the
highlighted hexagons must be exactly the witness, and the witness must be a
real structure of the drawn stones.  Each test writes its pictures into
``tmp_path`` so a failing run can be looked at.
"""
import os
import random
import re
import sys
import xml.etree.ElementTree as ET

import pytest

import ref_havannah as ref
import ref_hex
from conftest import SANITIZED, one_error_line, write
from havhex import InputError, havannah
from havhex import hex as hx
from havhex.draw import draw_command, havannah_svg, havannah_text, hex_svg, hex_text

SVG = "{http://www.w3.org/2000/svg}"
HAV_STEPS = set(ref.NEIGHBOURS)
HEX_STEPS = set(ref_hex.NEIGHBOURS)

# One case for each Havannah answer (found by random search, checked by the
# reference below); some go on after the winning move, which is not drawn.
HAVANNAH_ANSWERS = {
    "bridge": (3, [(3, 5), (2, 4), (1, 3), (2, 2)]),
    "fork": (3, [(5, 3), (5, 4), (4, 2), (4, 4), (4, 5)]),
    "ring": (3, [(3, 1), (4, 2), (2, 1), (4, 3), (2, 2), (3, 3), (5, 5)]),
    "bridge-fork": (3, [(4, 2), (3, 1), (2, 1), (1, 2), (1, 1)]),
    "bridge-ring": (3, [(3, 3), (4, 3), (5, 3), (3, 2), (3, 4), (5, 4), (4, 5), (5, 5)]),
    "fork-ring": (3, [(2, 4), (2, 3), (1, 2), (3, 3), (3, 5), (4, 4), (4, 5), (1, 1)]),
    "bridge-fork-ring": (4, [(2, 1), (3, 2), (4, 6), (4, 2), (1, 1), (3, 5), (2, 2), (1, 2),
                             (3, 6), (2, 5), (3, 3), (4, 7), (4, 5), (5, 4), (5, 3), (2, 4),
                             (4, 4)]),
}

# One board for each Hex answer that a position can have.
HEX_ANSWERS = {
    "nobody": (["B..", ".R.", "..R"], "Nobody wins", None),
    "red": ([".RB", "RB.", "R.B"], "Red wins", None),
    "blue": (["RR.", "BBB", "R.."], "Blue wins", None),
    "counts": (["BB", "BR"], "Impossible", "counts"),
    "loser-moved-last": (["BBB", "RR.", ".RR"], "Impossible", "loser-moved-last"),
    "no-single-last-move": (["RBB.R", "RBB.R", "RBB.R", "RBB.R", "RB..R"], "Impossible",
                            "no-single-last-move"),
}


# ---------------------------------------------------------------------------
# Reading the pictures
# ---------------------------------------------------------------------------

def parse(svg):
    root = ET.fromstring(svg.encode())
    assert root.tag == SVG + "svg"
    return root


def classes(element):
    return set((element.get("class") or "").split())


def cell_elements(root):
    return [e for e in root.iter() if "cell" in classes(e)]


def board(root):
    """The nested <svg> that holds the board (the legend is outside it)."""
    (element,) = [e for e in root.iter(SVG + "svg") if "board" in classes(e)]
    return element


def title(root):
    element = root.find(SVG + "title")
    assert element is not None, "no <title>"
    return element.text


def hav_cells(root, kind=None):
    """{(x, y): element} of the drawn Havannah hexagons (with class ``kind``)."""
    found = {}
    for element in cell_elements(root):
        if kind is None or kind in classes(element):
            cell = (int(element.get("data-x")), int(element.get("data-y")))
            assert cell not in found, f"hexagon {cell} drawn twice"
            found[cell] = element
    return found


def hex_cells(root, kind=None):
    found = {}
    for element in cell_elements(root):
        if kind is None or kind in classes(element):
            cell = (int(element.get("data-row")), int(element.get("data-col")))
            assert cell not in found, f"cell {cell} drawn twice"
            found[cell] = element
    return found


def vertices(d):
    """The vertices of a path made of M, l, h, v and z."""
    tokens = re.findall(r"[MlhvzZ]|-?\d*\.?\d+", d)
    points = []
    x = y = 0.0
    i = 0
    while i < len(tokens):
        command = tokens[i]
        if command == "M":
            x, y = float(tokens[i + 1]), float(tokens[i + 2])
            i += 3
        elif command == "l":
            x, y = x + float(tokens[i + 1]), y + float(tokens[i + 2])
            i += 3
        elif command == "h":
            x += float(tokens[i + 1])
            i += 2
        elif command == "v":
            y += float(tokens[i + 1])
            i += 2
        elif command in "zZ":
            i += 1
            continue
        else:
            raise AssertionError(f"unexpected path data {command!r} in {d!r}")
        points.append((x, y))
    return points


def centre(element):
    points = vertices(element.get("d"))
    assert len(points) == 6, points
    return (sum(p[0] for p in points) / 6, sum(p[1] for p in points) / 6)


def run_cells(runs):
    """The hexagons of row runs [x, first_y, last_y]."""
    return [(x, y) for x, first, last in runs for y in range(first, last + 1)]


def runs_of_cells(cells):
    """Row runs [x, first_y, last_y] of a set of hexagons (written here, not
    taken from the code under test)."""
    runs = []
    for x, y in sorted(cells):
        if runs and runs[-1][0] == x and runs[-1][2] == y - 1:
            runs[-1][2] = y
        else:
            runs.append([x, y, y])
    return runs


def havannah_input(size, moves):
    return f"1\n{size} {len(moves)}\n" + "".join(f"{x} {y}\n" for x, y in moves)


def hex_input(*boards):
    return f"{len(boards)}\n" + "".join(f"{len(rows)}\n" + "\n".join(rows) + "\n"
                                        for rows in boards)


# ---------------------------------------------------------------------------
# Havannah: every answer
# ---------------------------------------------------------------------------

def assert_walk(cells, closed=False):
    walk = list(cells) + (list(cells[:1]) if closed else [])
    for a, b in zip(walk, walk[1:]):
        assert (b[0] - a[0], b[1] - a[1]) in HAV_STEPS, (a, b)


def fork_edge_names(size, cells):
    """The names of the edges the hexagons lie on (corners lie on none)."""
    top = 2 * size - 1
    names = set()
    for x, y in cells:
        on = [name for name, hit in (("x=1", x == 1), ("y-x=S-1", y - x == size - 1),
                                     ("y=2S-1", y == top), ("x=2S-1", x == top),
                                     ("x-y=S-1", x - y == size - 1), ("y=1", y == 1)) if hit]
        if len(on) == 1:
            names |= set(on)
    return names


@pytest.mark.parametrize("answer", sorted(HAVANNAH_ANSWERS))
def test_havannah_picture_of_every_answer(answer, tmp_path):
    size, moves = HAVANNAH_ANSWERS[answer]
    kinds, move = ref.first_win(size, moves)
    assert "-".join(kinds) == answer       # the case is what its name says
    path = write(tmp_path, f"{answer}.in", havannah_input(size, moves))
    svg = draw_command("havannah", str(path), 1)
    write(tmp_path, f"{answer}.svg", svg)
    root = parse(svg)
    assert title(root) == f"{answer} in move {move}" == str(havannah.first_win(size, moves))

    cells = hav_cells(root)
    assert len(cells) == 3 * size * (size - 1) + 1 == len(ref.board_cells(size))
    assert set(cells) == ref.board_cells(size)
    stones = set(moves[:move])
    assert set(hav_cells(root, "stone")) == stones       # nothing after the winning move
    numbers = {cell: int(e.get("data-move")) for cell, e in hav_cells(root, "stone").items()}
    assert numbers == {cell: k for k, cell in enumerate(moves[:move], 1)}
    assert set(hav_cells(root, "winning-move")) == {moves[move - 1]}

    witness = havannah.explain(size, moves).to_dict()
    corners = set(ref.corners(size))
    for kind in ("bridge", "fork", "ring"):
        shown = set(hav_cells(root, kind))
        if kind not in kinds:
            assert not shown, kind
            continue
        assert shown <= stones
        if kind == "bridge":
            path_cells = [tuple(c) for c in witness["bridge"]["path"]]
            assert shown == set(path_cells)
            assert_walk(path_cells)
            assert path_cells[0] in corners and path_cells[-1] in corners
            assert path_cells[0] != path_cells[-1]
        elif kind == "fork":
            fork = {tuple(c) for c in witness["fork"]["cells"]}
            assert shown == fork
            assert len(ref.groups(size, fork)) == 1
            edges = {ref.edge_of(size, c) for c in fork} - {None}
            assert len(edges) >= 3
            assert "edges" not in witness["fork"]      # issue 5: exactly {"cells": [...]}
            marked = {e.get("data-edge") for e in board(root).iter()
                      if "fork-edge" in classes(e)}
            assert marked == fork_edge_names(size, fork)
            assert len(marked) == 3
        else:
            loop = [tuple(c) for c in witness["ring"]["loop"]]
            assert shown == set(loop)
            assert_walk(loop, closed=True)
            enclosed = set(hav_cells(root, "enclosed"))
            assert enclosed == set(run_cells(witness["ring"]["enclosed_runs"]))
            assert enclosed == set(ref.enclosed_empty(size, stones))
            assert enclosed and not enclosed & stones
    if "ring" not in kinds:
        assert not hav_cells(root, "enclosed")


def test_havannah_geometry(tmp_path):
    """Flat tops, (1, 1) at the bottom, (x+1, y+1) straight above, (x, y+1) at
    two o'clock, (x+1, y) at ten o'clock (SVG's y axis points down)."""
    size = 4
    svg = havannah_svg(size, [(1, 1)], havannah.explain(size, [(1, 1)]))
    write(tmp_path, "geometry.svg", svg)
    cells = hav_cells(parse(svg))
    centres = {cell: centre(e) for cell, e in cells.items()}
    lowest = max(centres, key=lambda c: centres[c][1])
    assert lowest == (1, 1)
    assert min(centres, key=lambda c: centres[c][1]) == (2 * size - 1, 2 * size - 1)
    for (x, y), (cx, cy) in centres.items():
        points = vertices(cells[(x, y)].get("d"))
        top = min(p[1] for p in points)
        assert sum(abs(p[1] - top) < 0.01 for p in points) == 2     # a flat top edge
        if (x + 1, y + 1) in centres:
            ux, uy = centres[(x + 1, y + 1)]
            assert abs(ux - cx) < 0.01 and uy < cy                   # twelve o'clock
        if (x, y + 1) in centres:
            ux, uy = centres[(x, y + 1)]
            assert ux > cx + 1 and uy < cy - 1                       # two o'clock
        if (x + 1, y) in centres:
            ux, uy = centres[(x + 1, y)]
            assert ux < cx - 1 and uy < cy - 1                       # ten o'clock
    for a in centres:           # neighbours, and only they, are one step apart
        for b in ((a[0] + 1, a[1]), (a[0], a[1] + 1), (a[0] + 1, a[1] + 1), (a[0] + 2, a[1] + 1)):
            if b in centres:
                distance = ((centres[a][0] - centres[b][0]) ** 2
                            + (centres[a][1] - centres[b][1]) ** 2) ** 0.5
                near = (b[0] - a[0], b[1] - a[1]) in HAV_STEPS
                assert (distance < 18) == near, (a, b, distance)


def test_havannah_none_and_empty():
    for size, moves in ((2, []), (5, [(1, 2), (3, 3)])):
        root = parse(havannah_svg(size, moves, havannah.explain(size, moves)))
        assert title(root) == "none"
        assert len(hav_cells(root)) == 3 * size * (size - 1) + 1
        assert set(hav_cells(root, "stone")) == set(moves)
        for kind in ("bridge", "fork", "ring", "enclosed", "winning-move"):
            assert not hav_cells(root, kind)


def test_havannah_picture_from_a_reference_witness():
    """The drawing follows the witness it is given (built here from the
    reference), not a judgement of its own."""
    size, moves = HAVANNAH_ANSWERS["bridge-ring"]
    kinds, move = ref.first_win(size, moves)
    stones = set(moves[:move])
    group = next(g for g in ref.groups(size, stones) if moves[move - 1] in g)
    explanation = {
        "answer": "made up", "move": move, "kinds": list(kinds),
        "bridge": {"path": [[1, 1]]},
        "ring": {"loop": [list(c) for c in sorted(group)],
                 "enclosed_runs": runs_of_cells(ref.enclosed_empty(size, stones))},
    }
    root = parse(havannah_svg(size, moves, explanation))
    assert title(root) == "made up"
    assert set(hav_cells(root, "bridge")) == {(1, 1)}
    assert set(hav_cells(root, "ring")) == group
    assert set(hav_cells(root, "enclosed")) == set(ref.enclosed_empty(size, stones))


def test_havannah_fork_edges_come_from_the_cells():
    """The fork witness is {"cells": [...]}: the edges marked are those its
    hexagons lie on, whatever else the witness holds."""
    size, moves = HAVANNAH_ANSWERS["fork"]
    witness = havannah.explain(size, moves).to_dict()
    cells = [tuple(c) for c in witness["fork"]["cells"]]
    expected = fork_edge_names(size, cells)
    assert len(expected) == 3
    for fork in ({"cells": witness["fork"]["cells"]},
                 {"cells": witness["fork"]["cells"], "edges": ["x=1", "y=1", "nonsense"]}):
        root = parse(havannah_svg(size, moves, {**witness, "fork": fork}))
        marked = {e.get("data-edge") for e in board(root).iter() if "fork-edge" in classes(e)}
        assert marked == expected
        texts = [e.text or "" for e in root.iter(SVG + "text")]
        listed = texts[texts.index("edges the fork touches:") + 1]
        assert set(listed.split(", ")) == expected


# ---------------------------------------------------------------------------
# Havannah: large boards
# ---------------------------------------------------------------------------

def hex_ring(centre_cell, radius):
    cx, cy = centre_cell
    return [(cx + dx, cy + dy)
            for dx in range(-radius, radius + 1) for dy in range(-radius, radius + 1)
            if (abs(dx) + abs(dy) + abs(dx - dy)) // 2 == radius]


def test_havannah_large_board_stays_small(cli, tmp_path):
    """S = 3000, 10^4 stones: 8200 lone stones, then a ring of 1800 whose last
    stone encloses ~270 000 hexagons.  Drawn: the region round the stones."""
    size = 3000
    lone = [(2000 + 2 * a, 2400 + 2 * b) for a in range(82) for b in range(100)]
    ring = hex_ring((3600, 3600), 300)
    moves = lone + ring
    assert len(moves) == 10 ** 4 and len(set(moves)) == 10 ** 4
    source = write(tmp_path, "large.in", havannah_input(size, moves))
    out = tmp_path / "large.svg"
    process = cli("draw", "havannah", source, "--case", "1", "-o", out)
    assert process.returncode == 0, process.stderr.decode()
    assert process.stdout == b"" and process.stderr == b""
    assert out.stat().st_size < 3 * 2 ** 20, out.stat().st_size
    root = parse(out.read_text(encoding="utf-8"))
    assert title(root) == "ring in move 10000"
    assert set(hav_cells(root, "stone")) == set(moves)
    assert set(hav_cells(root, "ring")) == set(ring)
    # The enclosed hexagons, too many to draw one by one, come as runs of constant x.
    runs = [e for e in root.iter() if "enclosed-run" in classes(e)]
    covered = sum(int(e.get("data-y2")) - int(e.get("data-y1")) + 1 for e in runs)
    assert covered == 3 * 300 * 299 + 1 == len(run_cells(havannah.explain(size, moves).to_dict()["ring"]["enclosed_runs"]))
    assert len(runs) == 2 * 300 - 1
    outline = [e for e in root.iter() if "frame" in classes(e)]
    assert len(outline) == 1 and outline[0].tag == SVG + "polygon"


def test_havannah_medium_board_draws_the_region_round_the_stones(tmp_path):
    size = 100
    moves = [(120, 100), (121, 101), (121, 102), (120, 102), (119, 101), (119, 100),
             (80, 60), (81, 62)]
    explanation = havannah.explain(size, moves).to_dict()
    assert explanation["answer"] == "ring in move 6"
    svg = havannah_svg(size, moves, explanation)
    write(tmp_path, "medium.svg", svg)
    root = parse(svg)
    drawn = set(hav_cells(root))
    stones = moves[:6]
    assert set(hav_cells(root, "stone")) == set(stones)
    assert set(hav_cells(root, "enclosed")) == {(120, 101)}

    def distance(a, b):
        dx, dy = a[0] - b[0], a[1] - b[1]
        return (abs(dx) + abs(dy) + abs(dx - dy)) // 2

    near = {cell for cell in ref.board_cells(size) if min(distance(cell, s) for s in stones) <= 3}
    assert near <= drawn < ref.board_cells(size)
    for low, high, value in ((119, 121, lambda c: c[0]), (100, 102, lambda c: c[1]),
                             (-20, -18, lambda c: c[1] - c[0])):
        assert all(low - 3 <= value(cell) <= high + 3 for cell in drawn)


def test_havannah_large_board_spread_stones(tmp_path):
    size = 3000
    rng = random.Random(7)
    stones = set()
    while len(stones) < 10 ** 4:
        x, y = rng.randint(1, 2 * size - 1), rng.randint(1, 2 * size - 1)
        if abs(x - y) <= size - 1:
            stones.add((x, y))
    moves = sorted(stones)
    explanation = havannah.explain(size, moves).to_dict()
    svg = havannah_svg(size, moves, explanation)
    write(tmp_path, "spread.svg", svg)
    assert len(svg.encode()) < 3 * 2 ** 20
    root = parse(svg)
    assert title(root) == explanation["answer"]
    drawn = set(hav_cells(root))
    assert set(moves[:explanation["move"] or len(moves)]) <= drawn


def run_limited(args, memory=2 ** 30, timeout=120, **kwargs):
    """``python -m havhex`` with its address space capped (where the platform
    can), so a drawing that eats memory fails quickly instead of swapping."""
    import subprocess
    import time

    def cap():
        import resource
        resource.setrlimit(resource.RLIMIT_AS, (memory, memory))

    # Under the sanitizers ASan's shadow memory exceeds any such cap: the
    # run keeps its time limit and its checks of the output.
    limit = cap if sys.platform.startswith("linux") and not SANITIZED else None
    start = time.perf_counter()
    process = subprocess.run([sys.executable, "-m", "havhex", *map(str, args)],
                             capture_output=True, preexec_fn=limit, timeout=timeout, **kwargs)
    return process, time.perf_counter() - start


@pytest.mark.not_under_sanitizers("caps the address space (RLIMIT_AS), which ASan's shadow memory exceeds")
@pytest.mark.parametrize("size", [2 ** 30, 3 * 10 ** 6])
def test_havannah_huge_board_stones_at_the_corners(tmp_path, size):
    """One stone at each corner: the region round the stones is the whole board
    (billions of hexagons).  The drawing mode and the view come from the
    region's bounds; its rows are never listed."""
    s = size
    moves = [(1, 1), (1, s), (s, 2 * s - 1), (2 * s - 1, 2 * s - 1), (2 * s - 1, s), (s, 1)]
    source = write(tmp_path, "corners.in", havannah_input(size, moves))
    out = tmp_path / "corners.svg"
    process, seconds = run_limited(["draw", "havannah", source, "-o", out])
    assert process.returncode == 0, process.stderr.decode()
    assert process.stderr == b""
    assert seconds < 5, seconds
    assert out.stat().st_size < 20000, out.stat().st_size
    root = parse(out.read_text(encoding="utf-8"))
    assert title(root) == "none"
    stones = hav_cells(root, "stone")
    assert set(stones) == set(hav_cells(root)) == set(moves)      # the stones, one by one
    # The view holds every stone and is about the board's size (3 S hexagon
    # radii across, sqrt(3) (2 S - 1) high).
    left, top, width, height = map(float, board(root).get("viewBox").split())
    for element in stones.values():
        cx, cy = centre(element)
        assert left < cx < left + width and top < cy < top + height
    assert 3 * (s - 1) * 10 < width < 3.2 * s * 10
    assert 3 ** 0.5 * (2 * s - 2) * 10 < height < 3.6 * s * 10


def test_havannah_region_cells_by_formula():
    """The region's hexagon count and extent (from its bounds) agree with its rows."""
    from havhex.havannah.picture import (_region_cells as _hav_region_cells,
                                         _region_extent as _hav_region_extent,
                                         _region_rows as _hav_region_rows)

    rng = random.Random(5)
    for _ in range(3000):
        region = tuple(tuple(sorted((rng.randint(-9, 9), rng.randint(-9, 9)))) for _ in range(3))
        cells = [(x, y) for x, first, last in _hav_region_rows(region)
                 for y in range(first, last + 1)]
        assert _hav_region_cells(region) == len(cells), region
        if cells:
            assert _hav_region_extent(region) == (
                min(y - x for x, y in cells), max(y - x for x, y in cells),
                min(x + y for x, y in cells), max(x + y for x, y in cells)), region
    big = ((1, 2 ** 31 - 1), (1, 2 ** 31 - 1), (1 - 2 ** 30, 2 ** 30 - 1))
    assert _hav_region_cells(big) == 3 * 2 ** 30 * (2 ** 30 - 1) + 1


# ---------------------------------------------------------------------------
# Limits: a case beyond them is refused before the work; memory follows the picture
# ---------------------------------------------------------------------------

SMALL_MEMORY = 256 * 2 ** 20    # the interpreter and a picture, not a board of millions


def run_small(args, **kwargs):
    """``run_limited`` with SMALL_MEMORY; a run past its time fails the test."""
    import subprocess

    try:
        process, _ = run_limited(args, memory=SMALL_MEMORY, **kwargs)
    except subprocess.TimeoutExpired:
        pytest.fail(f"havhex {' '.join(map(str, args))} did not finish in time")
    return process


def hex_disc_runs(cx, cy, radius):
    """Row runs of the hexagons less than ``radius`` steps from (cx, cy)."""
    r = radius - 1
    return [[cx + dx, cy + max(-r, dx - r), cy + min(r, dx + r)] for dx in range(-r, r + 1)]


def test_hex_disc_runs_are_the_reference_ring_inside():
    for radius in (1, 2, 3, 4):
        size = radius + 2
        ring = hex_ring((size, size), radius)
        assert run_cells(hex_disc_runs(size, size, radius)) == sorted(ref.enclosed_empty(size, ring))


def walked_ring(centre_cell, radius):
    """The hexagons ``radius`` steps from a centre, walked round (as
    ``hex_ring``, in time that follows the ring, not its area)."""
    x, y = centre_cell[0], centre_cell[1] - radius
    cells = []
    for dx, dy in ref.NEIGHBOURS:
        for _ in range(radius):
            cells.append((x, y))
            x, y = x + dx, y + dy
    return cells


def test_walked_ring_is_hex_ring():
    for radius in (1, 2, 5):
        assert sorted(walked_ring((9, 8), radius)) == sorted(hex_ring((9, 8), radius))


def big_ring(radius):
    """A hexagonal ring round millions of hexagons at S = 2**30, closed by its last stone."""
    size = 2 ** 30
    centre = (size + 3, size - 4)
    return size, centre, walked_ring(centre, radius)


@pytest.mark.parametrize("n, case", [(3000, 1), (6000, 3)])
def test_hex_picture_beyond_its_limit_is_refused_before_reading(tmp_path, n, case):
    boards = [["R"], ["B.", ".R"]][:case - 1] + [["." * n] * n]
    path = write(tmp_path, "big.in", hex_input(*boards))
    out = tmp_path / "big.svg"
    process = run_small(["draw", "hex", path, "--case", case, "-o", out])
    assert_one_error_line(process, f"havhex: {path}: case #{case} has N = {n}: "
                                   f"the picture is for boards up to N = 200\n")
    assert not out.exists()
    process = run_small(["draw", "hex", path, "--case", case, "--text"])
    assert_one_error_line(process, f"havhex: {path}: case #{case} has N = {n}: "
                                   f"the text view is for boards up to N = 40\n")
    # From a pipe, the board is read (the bytes are what they are) but never
    # turned into rows or judged.
    process = run_small(["draw", "hex", "-", "--case", case], input=path.read_bytes())
    assert_one_error_line(process, f"havhex: <stdin>: case #{case} has N = {n}: "
                                   f"the picture is for boards up to N = 200\n")


def test_board_size_limits_come_first(tmp_path):
    """The size is read from the header of the case asked for: a board beyond
    the limit is refused before its rows are read, even when they are broken."""
    path = write(tmp_path, "claims.in", "2\n1\nR\n20000\nRX\n")
    assert_one_error_line(run_small(["draw", "hex", path, "--case", 2]),
                          f"havhex: {path}: case #2 has N = 20000: the picture is for "
                          f"boards up to N = 200\n")
    # A size no board can have is the reader's fault.
    wrong = write(tmp_path, "wrong.in", "1\n100000\nRX\n")
    assert_one_error_line(run_small(["draw", "hex", wrong]), f"havhex: {wrong}:2: the board size N")
    # A case that fits is judged: the fault of the input is the reader's.
    assert_one_error_line(run_small(["draw", "hex", path, "--case", 1]), f"havhex: {path}:5: ")


def test_havannah_text_view_of_a_huge_board_is_refused_before_reading(tmp_path):
    size, _, ring = big_ring(2500)
    path = write(tmp_path, "ring.in", havannah_input(size, ring))
    process = run_small(["draw", "havannah", path, "--text"])
    assert_one_error_line(process, f"havhex: {path}: case #1 has S = {size}: the text view "
                                   f"is for boards up to S = 20 (draw it as SVG instead)\n")


def test_havannah_picture_of_a_ring_round_a_huge_area(tmp_path):
    """15 000 stones round 18.7 million hexagons: the picture, and the memory
    drawing it, follow the stones; the enclosed hexagons are the disc's rows."""
    radius = 2500
    size, centre, ring = big_ring(radius)
    path = write(tmp_path, "ring.in", havannah_input(size, ring))
    out = tmp_path / "ring.svg"
    process = run_small(["draw", "havannah", path, "-o", out])
    assert process.returncode == 0, process.stderr.decode()
    assert process.stdout == b"" and process.stderr == b""
    assert out.stat().st_size < 400 * len(ring), out.stat().st_size
    root = parse(out.read_text(encoding="utf-8"))
    assert title(root) == f"ring in move {len(ring)}"
    assert set(hav_cells(root, "stone")) == set(hav_cells(root, "ring")) == set(ring)
    runs = [[int(e.get(key)) for key in ("data-x", "data-y1", "data-y2")]
            for e in root.iter() if "enclosed-run" in classes(e)]
    assert sorted(runs) == hex_disc_runs(*centre, radius)
    assert sum(last - first + 1 for _, first, last in runs) == 3 * radius * (radius - 1) + 1


def test_havannah_picture_beyond_its_stones_is_refused(tmp_path):
    size, _, ring = big_ring(16_667)
    assert len(ring) > 100_000
    path = write(tmp_path, "ring.in", havannah_input(size, ring))
    process = run_small(["draw", "havannah", path])
    assert_one_error_line(process, f"havhex: {path}: case #1 has {len(ring)} stones up to its "
                                   f"winning move: the picture is for up to 100000 stones\n")


def test_havannah_long_case_with_an_early_win_is_drawn(tmp_path):
    """The limit is on the stones drawn: moves after the win are not drawn."""
    size = 2 ** 20
    ring = walked_ring((20, 20), 1)
    moves = ring + [(99 + a, 99 + b) for a in range(400) for b in range(300)]
    path = write(tmp_path, "long.in", havannah_input(size, moves))
    out = tmp_path / "long.svg"
    process = run_small(["draw", "havannah", path, "-o", out])
    assert process.returncode == 0, process.stderr.decode()
    root = parse(out.read_text(encoding="utf-8"))
    assert title(root) == str(havannah.first_win(size, moves)) == "ring in move 6"
    assert set(hav_cells(root, "stone")) == set(ring)
    assert set(hav_cells(root, "enclosed")) == {(20, 20)}
    assert any(f"{len(moves)} moves, drawn up to the winning move 6" in (e.text or "")
               for e in root.iter())


def test_case_header_scan(tmp_path, monkeypatch):
    """The header scan finds the reader's sizes, whatever the spacing and
    wherever its reads end; it gives up (None) where the reader faults."""
    from havhex.havannah import _judge as havannah_engine
    from havhex.draw.header import Tokens as _Tokens, case_header as _case_header

    rng = random.Random(16)
    spaces = [" ", "\n", "\r\n", "\t", "  \r", "\x0b", "\x0c\n"]
    cases = []
    for _ in range(12):
        size = rng.randint(2, 30)
        cells = sorted(ref.board_cells(size))
        cases.append((size, rng.sample(cells, rng.randint(0, min(40, len(cells))))))
    tokens = [str(len(cases))]
    for size, moves in cases:
        tokens += [str(size), str(len(moves))] + [str(v) for move in moves for v in move]
    text = "".join(token + rng.choice(spaces) for token in tokens)
    path = write(tmp_path, "many.in", "\n\n" + text)
    parsed = havannah_engine.parse_and_judge(path.read_bytes())
    for chunk in (1, 2, 3, 7, 64, 1 << 20):
        monkeypatch.setattr(_Tokens, "CHUNK", chunk)
        for number, (size, moves) in enumerate(cases, 1):
            assert _case_header(str(path), "havannah", number) == (size, len(moves))
            assert parsed.case_size(number - 1) == size
        assert _case_header(str(path), "havannah", len(cases) + 1) is None
        boards = [["." * n] * n for n in (1, 5, 3, 17)]
        hex_path = write(tmp_path, "many.hex", hex_input(*boards).replace("\n", "\r\n"))
        for number, rows in enumerate(boards, 1):
            assert _case_header(str(hex_path), "hex", number) == (len(rows),)
    for text in ("", "x", "-1\n", "1\n3", "1\n3 x\n", "2\n2 1\n1\n", "1\n" + "9" * 40 + "\n",
                 "2\n2 2\n1 1 1 " + "1" * 30 + "\n2 0\n"):
        assert _case_header(str(write(tmp_path, "bad.in", text)), "havannah", 2 if text.startswith("2") else 1) is None, text
    assert _case_header("/dev/null", "hex", 1) is None
    assert _case_header(str(tmp_path / "missing.in"), "hex", 1) is None


# ---------------------------------------------------------------------------
# Hex
# ---------------------------------------------------------------------------

@pytest.mark.parametrize("name", sorted(HEX_ANSWERS))
def test_hex_picture_of_every_answer(name, tmp_path):
    rows, answer, reason = HEX_ANSWERS[name]
    status, ref_reason, last_moves = ref_hex.judge(rows)
    assert (status, ref_reason) == (answer, reason)     # the board is what its name says
    path = write(tmp_path, f"{name}.in", hex_input(["R"], rows))
    svg = draw_command("hex", str(path), 2)
    write(tmp_path, f"{name}.svg", svg)
    root = parse(svg)
    assert title(root) == answer
    n = len(rows)
    cells = hex_cells(root)
    assert len(cells) == n * n
    assert set(hex_cells(root, "red")) == ref_hex.stones_of(rows, "R")
    assert set(hex_cells(root, "blue")) == ref_hex.stones_of(rows, "B")
    assert set(hex_cells(root, "last-move")) == set(last_moves)
    explanation = hx.explain(rows)
    chains = [cells for _, cells in explanation.chains]
    assert set(hex_cells(root, "chain")) == {c for chain in chains for c in chain}
    for colour, chain in explanation.chains:      # the witness is a real chain
        letter = "R" if colour == "red" else "B"
        assert all(rows[i][j] == letter for i, j in chain)
        for a, b in zip(chain, chain[1:]):
            assert (b[0] - a[0], b[1] - a[1]) in HEX_STEPS
        if letter == "R":
            assert chain[0][0] == 0 and chain[-1][0] == n - 1
        else:
            assert chain[0][1] == 0 and chain[-1][1] == n - 1
    if reason == "no-single-last-move":
        assert len(chains) == 2 and not set(chains[0]) & set(chains[1])
    if answer in ("Red wins", "Blue wins"):
        assert last_moves and set(last_moves) <= set(hex_cells(root, "chain"))
    desc = root.find(SVG + "desc").text
    assert (reason or "") in desc
    sides = {e.get("data-side"): classes(e) for e in root.iter() if "side" in classes(e)}
    assert "side-red" in sides["top"] and "side-red" in sides["bottom"]
    assert "side-blue" in sides["left"] and "side-blue" in sides["right"]


def test_hex_both_connected_from_a_witness():
    """Both colours joined cannot happen on a real board (their chains would
    cross); the picture of such a witness still shows both chains."""
    rows = ["R.B", "RBB", "R.."]
    explanation = {"answer": "Impossible", "reason": "both-connected",
                   "chains": [[[0, 0], [1, 0], [2, 0]], [[1, 1], [1, 2]]]}
    root = parse(hex_svg(rows, explanation))
    assert title(root) == "Impossible"
    assert set(hex_cells(root, "chain")) == {(0, 0), (1, 0), (2, 0), (1, 1), (1, 2)}
    assert set(hex_cells(root, "second")) == {(1, 1), (1, 2)}
    assert "both Red and Blue" in hex_text(rows, explanation)


def test_hex_geometry_leans_right(tmp_path):
    rows = ["R...", "....", "....", "...B"]
    svg = hex_svg(rows, hx.explain(rows))
    write(tmp_path, "lean.svg", svg)
    cells = hex_cells(parse(svg))
    centres = {cell: centre(e) for cell, e in cells.items()}
    width = centres[(0, 1)][0] - centres[(0, 0)][0]
    assert width > 1
    for (i, j), (cx, cy) in centres.items():
        if (i, j + 1) in centres:       # a row runs left to right, level
            assert abs(centres[(i, j + 1)][0] - cx - width) < 0.01
            assert abs(centres[(i, j + 1)][1] - cy) < 0.01
        if (i + 1, j) in centres:       # the next row: lower, half a cell to the right
            nx, ny = centres[(i + 1, j)]
            assert abs(nx - cx - width / 2) < 0.01 and ny > cy + 1
    assert min(centres, key=lambda c: (centres[c][1], centres[c][0])) == (0, 0)
    assert max(centres, key=lambda c: (centres[c][1], centres[c][0])) == (3, 3)


def test_hex_record_dict_is_drawn_like_the_explanation():
    rows = HEX_ANSWERS["no-single-last-move"][0]
    explanation = hx.explain(rows)
    record = hx.explanation_record(explanation)
    from_record = parse(hex_svg(rows, record))
    from_explanation = parse(hex_svg(rows, explanation))
    for kind in ("chain", "last-move", "red", "blue"):
        assert set(hex_cells(from_record, kind)) == set(hex_cells(from_explanation, kind))


# ---------------------------------------------------------------------------
# Text views
# ---------------------------------------------------------------------------

def test_havannah_text(cli, tmp_path):
    # The ring of the statement's size-3 board round (3, 3), then a 7th move
    # after the win that is not shown.  Row r of the view holds x + y = r.
    moves = [(2, 2), (3, 2), (4, 3), (4, 4), (3, 4), (2, 3), (5, 5)]
    path = write(tmp_path, "ring.in", havannah_input(3, moves))
    process = cli("draw", "havannah", path, "--text")
    assert process.returncode == 0, process.stderr.decode()
    lines = process.stdout.decode().splitlines()
    assert lines[0] == f"{path}, case #1: ring in move 6"
    assert lines[1:10] == [
        "    .",
        "  .   .",
        ".   #   .",
        "  #   #",
        ".   *   .",
        "  #   #",
        ".   #   .",
        "  .   .",
        "    .",
    ]
    assert lines[10].startswith(". empty  o stone  # stone of the winning structure")
    assert len(lines) == 11


def test_havannah_text_plain_stones():
    text = havannah_text(2, [(1, 1), (3, 3)], havannah.explain(2, [(1, 1), (3, 3)]))
    assert text.splitlines()[:6] == ["none", "  o", ".   .", "  .", ".   .", "  o"]


def test_hex_text(cli, tmp_path):
    rows = HEX_ANSWERS["loser-moved-last"][0]
    path = write(tmp_path, "hex.in", hex_input(rows))
    process = cli("draw", "hex", path, "--text")
    assert process.returncode == 0, process.stderr.decode()
    assert process.stdout.decode().splitlines()[:5] == [
        f"{path}, case #1: Impossible (loser-moved-last)",
        "  0 1 2",
        "0 b b b",
        "1  R R .",
        "2   . R R",
    ]


def test_hex_text_marks_chain_and_last_moves():
    rows = ["RR.", "R.B", "RBB"]
    explanation = hx.explain(rows)
    assert str(explanation.result) == "Red wins"
    lines = hex_text(rows, explanation).splitlines()
    chain = set(explanation.chains[0][1])
    for i in range(3):
        shown = lines[2 + i][2 + i:].split(" ")
        for j, ch in enumerate(shown):
            if (i, j) in explanation.result.last_moves:
                assert ch == "*"
            elif (i, j) in chain:
                assert ch == rows[i][j].lower()
            else:
                assert ch == rows[i][j]


def test_hex_picture_refuses_huge_boards():
    rows = ["." * 201] * 201
    with pytest.raises(InputError, match="up to N = 200"):
        hex_svg(rows, hx.explain(rows))


def test_text_views_refuse_large_boards(cli, tmp_path):
    path = write(tmp_path, "big.in", havannah_input(21, [(1, 1)]))
    process = cli("draw", "havannah", path, "--text")
    assert_one_error_line(process, f"havhex: {path}: case #1 has S = 21: "
                                   f"the text view is for boards up to S = 20")
    process = cli("draw", "havannah", path)        # the SVG is fine
    assert process.returncode == 0
    path = write(tmp_path, "bighex.in", hex_input(["." * 41] * 41))
    process = cli("draw", "hex", path, "--text")
    assert_one_error_line(process, f"havhex: {path}: case #1 has N = 41: "
                                   f"the text view is for boards up to N = 40")
    with pytest.raises(InputError, match="the text view is for boards up to S = 20"):
        havannah_text(21, [(1, 1)], havannah.explain(21, [(1, 1)]))


# ---------------------------------------------------------------------------
# The command line
# ---------------------------------------------------------------------------

def assert_one_error_line(process, prefix):
    err = one_error_line(process)
    assert err.startswith(prefix), err
    return err


def test_cli_output_file(cli, tmp_path):
    size, moves = HAVANNAH_ANSWERS["fork"]
    path = write(tmp_path, "fork.in", havannah_input(size, moves))
    out = tmp_path / "board.svg"
    process = cli("draw", "havannah", path, "--case", "1", "-o", out)
    assert process.returncode == 0, process.stderr.decode()
    assert process.stdout == b"" and process.stderr == b""
    root = parse(out.read_text(encoding="utf-8"))
    assert title(root) == "fork in move 5"
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []
    # Standard output and standard input.
    process = cli("draw", "havannah", "-", stdin=havannah_input(size, moves).encode())
    assert process.returncode == 0, process.stderr.decode()
    from_stdin = parse(process.stdout.decode())
    assert title(from_stdin) == "fork in move 5"
    assert hav_cells(from_stdin, "fork").keys() == hav_cells(root, "fork").keys()
    assert any((e.text or "").startswith("<stdin>, case #1") for e in from_stdin.iter())
    rows = HEX_ANSWERS["blue"][0]
    process = cli("draw", "hex", "-", "-o", tmp_path / "hex.svg", stdin=hex_input(rows).encode())
    assert process.returncode == 0, process.stderr.decode()
    assert title(parse((tmp_path / "hex.svg").read_text(encoding="utf-8"))) == "Blue wins"


@pytest.mark.parametrize("game", ["havannah", "hex"])
@pytest.mark.parametrize("name", ["-", "/dev/stdin"])
def test_cli_reads_a_pipe_once(game, name):
    """A pipe can be read only once: on standard input ("-") and as a path
    (/dev/stdin, or a shell's <(...))."""
    import subprocess

    if name != "-" and not os.path.exists(name):
        pytest.skip(f"no {name}")
    if game == "havannah":
        size, moves = HAVANNAH_ANSWERS["fork"]
        text = "2\n2 1\n1 1\n" + havannah_input(size, moves).split("\n", 1)[1]
        answer = "fork in move 5"
    else:
        text, answer = hex_input(["R"], HEX_ANSWERS["blue"][0]), "Blue wins"
    process = subprocess.Popen([sys.executable, "-m", "havhex", "draw", game, name, "--case", "2"],
                               stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE)
    out, err = process.communicate(text.encode(), timeout=120)
    assert process.returncode == 0, err.decode()
    assert err == b""
    assert title(parse(out.decode())) == answer
    # Faults in a piped input are the judge's, with their line.
    bad = "1\n3 2\n1 1\n9 9\n" if game == "havannah" else "1\n2\nRX\n..\n"
    process = subprocess.run([sys.executable, "-m", "havhex", "draw", game, name],
                             input=bad.encode(), capture_output=True, timeout=120)
    source = "<stdin>" if name == "-" else name
    line = 4 if game == "havannah" else 3
    assert_one_error_line(process, f"havhex: {source}:{line}: ")


@pytest.mark.parametrize("game", ["havannah", "hex"])
def test_cli_bad_case_numbers(cli, tmp_path, game):
    text = (havannah_input(2, [(1, 1)]).replace("1\n", "3\n", 1) + "2 0\n2 0\n"
            if game == "havannah" else hex_input(["R"], ["B"], ["."]))
    path = write(tmp_path, "three.in", text)
    assert cli("draw", game, path, "--case", "3").returncode == 0
    assert_one_error_line(cli("draw", game, path, "--case", "7"),
                          f"havhex: {path}: there is no case #7 (the input has 3 cases)")
    # A case number below 1 is a usage error, refused before the input is read.
    process = cli("draw", game, path, "--case", "0", "-o", tmp_path / "x.svg")
    assert (process.returncode, process.stdout) == (2, b"")
    assert process.stderr.decode().splitlines()[1] == (
        "havhex: error: argument --case: must be at least 1, got 0")
    assert not (tmp_path / "x.svg").exists()


def test_cli_faults_in_the_input(cli, tmp_path):
    path = write(tmp_path, "bad.in", "1\n3 2\n1 1\n9 9\n")
    assert_one_error_line(cli("draw", "havannah", path), f"havhex: {path}:4: ")
    path = write(tmp_path, "twice.in", "1\n3 2\n1 1\n1 1\n")
    assert_one_error_line(cli("draw", "havannah", path), f"havhex: {path}:4: ")
    path = write(tmp_path, "bad.hex", "1\n2\nRX\n..\n")
    assert_one_error_line(cli("draw", "hex", path), f"havhex: {path}:3: ")
    assert_one_error_line(cli("draw", "hex", tmp_path / "missing.in"),
                          f"havhex: {tmp_path / 'missing.in'}: cannot open")
    with pytest.raises(InputError, match="there is no case #2"):
        draw_command("hex", str(write(tmp_path, "one.in", hex_input(["R"]))), 2)


def test_import_havhex_stays_light(cli):
    code = ("import sys, havhex, havhex.havannah, havhex.hex, havhex.cli; "
            "sys.exit('havhex.draw' in sys.modules)")
    import subprocess
    assert subprocess.run([sys.executable, "-c", code]).returncode == 0
