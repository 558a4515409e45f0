"""Rules the docs state where peers differ, played as the docs state them
(issue 36): the two-player contest ring rule of docs/conventions.md (E11),
and which of pgx and EnvPool the Hex batch follows after an illegal swap
as the first move, in docs/environments.md (E10)."""
import re
from pathlib import Path

import pytest

import needs

ROOT = Path(__file__).resolve().parents[2]


def _page(name):
    path = ROOT / "docs" / name
    if not path.is_file():
        pytest.skip("docs/ is not beside the tests (installed package)")
    return " ".join(path.read_text(encoding="utf-8").split())


def _contest_example():
    """The example of conventions.md: the base, Black's stone, White's loop."""
    text = _page("conventions.md")
    found = re.search(r"on a board of base (\d+) where Black holds \((\d+), (\d+)\), White's six "
                      r"stones around it, ((?:\(\d+, \d+\),? (?:and )?){6})make a ring under "
                      r'`rule="official"` and none under `rule="contest"`', text)
    assert found, "docs/conventions.md states the two-player contest rule with its example"
    base, x, y = (int(found.group(k)) for k in (1, 2, 3))
    loop = [(int(a), int(b)) for a, b in re.findall(r"\((\d+), (\d+)\)", found.group(4))]
    assert len(loop) == 6
    return base, (x, y), loop


def _game(base, inside, loop):
    """White's loop around Black's stone, Black's other moves each a group
    of one stone (none next to another of Black's), so that Black makes no
    structure."""
    from havhex.havannah import Board

    steps = ((1, 0), (1, 1), (0, 1), (-1, 0), (-1, -1), (0, -1))
    black = [inside]
    for cell in Board(base).legal_moves():
        if len(black) == len(loop) - 1:
            break
        near = {(cell[0] + dx, cell[1] + dy) for dx, dy in steps} | {cell}
        if cell not in loop and not near & set(black):
            black.append(cell)
    moves = []
    for k, cell in enumerate(loop):
        moves.append(cell)
        if k < len(black):
            moves.append(black[k])
    return moves


def test_the_contest_rule_of_two_players_is_the_docs():
    needs.module("numpy")
    import numpy as np

    from havhex.havannah import Board
    from havhex.havannah.batch import STRUCTURES, Batch

    base, inside, loop = _contest_example()
    moves = _game(base, inside, loop)
    width = 2 * base - 1
    for rule, ring in (("official", True), ("contest", False)):
        board = Board(base, rule)
        for move in moves[:-1]:
            assert board.play(move) == ()
        assert board.play(moves[-1]) == (("ring",) if ring else ())
        assert board.is_over == ring
        batch = Batch(1, base, rule=rule, seed=0)
        for x, y in moves:
            batch.step(np.array([(x - 1) * width + (y - 1)]))
        assert bool(batch.terminated[0]) == ring
        assert bool(batch.structures[0] & (1 << STRUCTURES.index("ring"))) == ring


def test_an_illegal_first_swap_leaves_the_board_empty_as_envpool():
    np = needs.module("numpy")
    from havhex.hex import Batch

    text = _page("environments.md")
    assert re.search(r"havhex follows \*\*EnvPool\*\*: the board stays empty", text)
    assert "pgx's `hex` then leaves a stone of that player at (0, 0)" in text
    batch = Batch(8, 5, seed=3, autoreset="disabled")
    mover = batch.current_player.copy()
    batch.step(np.full(8, batch.num_actions - 1))          # the swap, with no stone yet
    assert batch.terminated.all()
    assert np.array_equal(batch.winner, 1 - mover)
    assert not batch.stones().any()
    assert not batch.observation[..., :2].any()
