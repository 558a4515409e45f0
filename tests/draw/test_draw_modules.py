"""The draw package's shape (public names only between its modules and
towards the games) and the Havannah edges it shows, in the engine's numbering."""
import ast
import math
import random
from pathlib import Path

import pytest

import ref_havannah as ref
from havhex import havannah
from havhex.draw import HAVANNAH_EDGES, havannah_svg
from havhex.havannah import geometry

from test_draw import HAVANNAH_ANSWERS, board, centre, classes, hav_cells, parse

PACKAGE = Path(__file__).resolve().parents[2] / "src" / "havhex"
DRAW = PACKAGE / "draw"
# The pictures of a position, below the boards (each board draws itself
# through its game's), and what both share.
PICTURES = (PACKAGE / "havannah" / "picture.py", PACKAGE / "hex" / "picture.py",
            PACKAGE / "_svg.py")
# The one private module the drawing modules share: a leaf of the package.
SHARED = "_svg"


def draw_sources():
    sources = sorted(DRAW.glob("*.py"))
    if not sources:
        pytest.skip(f"the package's sources are not at {DRAW}")
    return sources + [path for path in PICTURES if path.is_file()]


def private_uses(path):
    """Private names one draw module takes from another module: names
    imported with a leading underscore, imports of a module whose path has
    one within a game's package, and ``module._name`` on an imported module."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found, modules = [], set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            parts = (node.module or "").split(".")
            in_game = any(part in ("havannah", "hex") for part in parts)
            if in_game and any(part.startswith("_") for part in parts):
                found.append(f"from {node.module} import ...")
            for alias in node.names:
                if alias.name.startswith("_") and alias.name != SHARED:
                    found.append(f"from {node.module} import {alias.name}")
                modules.add(alias.asname or alias.name)
        elif isinstance(node, ast.Import):
            for alias in node.names:
                modules.add((alias.asname or alias.name).split(".")[0])
    for node in ast.walk(tree):
        if (isinstance(node, ast.Attribute) and node.attr.startswith("_")
                and not node.attr.startswith("__")
                and isinstance(node.value, ast.Name) and node.value.id in modules):
            found.append(f"{node.value.id}.{node.attr}")
    return found


def test_draw_uses_only_public_names_across_modules():
    for path in draw_sources():
        assert private_uses(path) == [], path.name


def test_draw_has_one_module_per_concern():
    names = {path.relative_to(PACKAGE).as_posix() for path in draw_sources()}
    assert {"draw/__init__.py", "draw/header.py", "draw/page.py", "_svg.py",
            "havannah/picture.py", "hex/picture.py"} <= names
    for path in draw_sources():
        # Its types: a stub beside it, or, once its package is converted
        # (tests/test_typing.py), annotations inline.
        if path.with_suffix(".pyi").is_file():
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        bare = [node.name for node in ast.walk(tree)
                if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.returns is None]
        assert bare == [], f"{path.name} has no stub and unannotated functions: {', '.join(bare)}"


# ---------------------------------------------------------------------------
# The Havannah edges: the engine's numbering, shown by condition
# ---------------------------------------------------------------------------

CONDITIONS = {
    "x=1": lambda s, x, y: x == 1,
    "y=1": lambda s, x, y: y == 1,
    "x=2S-1": lambda s, x, y: x == 2 * s - 1,
    "y=2S-1": lambda s, x, y: y == 2 * s - 1,
    "y-x=S-1": lambda s, x, y: y - x == s - 1,
    "x-y=S-1": lambda s, x, y: x - y == s - 1,
}


@pytest.mark.parametrize("size", (3, 4, 6))
def test_edge_names_are_the_engines_numbers(size):
    """HAVANNAH_EDGES[k] names edge k of geometry (the engine's numbering):
    its condition holds on exactly the hexagons of that edge."""
    assert HAVANNAH_EDGES == geometry.EDGE_CONDITIONS
    assert sorted(HAVANNAH_EDGES) == sorted(CONDITIONS)
    corners = set(ref.corners(size))
    for edge, name in enumerate(HAVANNAH_EDGES):
        expected = {cell for cell in ref.board_cells(size)
                    if CONDITIONS[name](size, *cell) and cell not in corners}
        assert {cell for cell in ref.board_cells(size)
                if geometry.edge_of(size, *cell) == edge} == expected


def fork_cases():
    cases = [HAVANNAH_ANSWERS[name] for name in sorted(HAVANNAH_ANSWERS) if "fork" in name]
    rng = random.Random(12)
    while len(cases) < 30:
        size = rng.randint(3, 7)
        moves = ref.random_game(rng, size)
        if "fork" in havannah.first_win(size, moves).kinds:
            cases.append((size, moves))
    return cases


def test_fork_bars_lie_along_the_edges_they_name():
    """Each fork bar runs beside the hexagons of the edge its data-edge names
    (by the condition, checked here): the hexagons nearest its middle are of
    that edge, and it runs parallel to them."""
    for size, moves in fork_cases():
        root = parse(havannah_svg(size, moves, havannah.explain(size, moves)))
        centres = {cell: centre(element) for cell, element in hav_cells(root).items()}
        bars = [e for e in board(root).iter() if "fork-edge" in classes(e)]
        assert len(bars) >= 3
        for bar in bars:
            name = bar.get("data-edge")
            x1, y1, x2, y2 = (float(bar.get(key)) for key in ("x1", "y1", "x2", "y2"))
            middle = ((x1 + x2) / 2, (y1 + y2) / 2)
            nearest = min(centres, key=lambda cell: math.dist(centres[cell], middle))
            assert CONDITIONS[name](size, *nearest), (size, name, nearest)
            on_edge = [centres[cell] for cell in centres if CONDITIONS[name](size, *cell)]
            (ax, ay), (bx, by) = on_edge[0], on_edge[-1]
            cross = (x2 - x1) * (by - ay) - (y2 - y1) * (bx - ax)
            sine = abs(cross) / (math.hypot(x2 - x1, y2 - y1) * math.hypot(bx - ax, by - ay))
            assert sine < 0.01, (size, name)       # other sides lie 60 or 120 degrees off
