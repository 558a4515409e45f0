"""The exact solver (havhex.search.solve) against brute force on boards
small enough to solve outright (Hex 3x3 and 4x4, Havannah base 2 and 3,
both ring rules, either player to move), against the known results of
small boards, and every proof it writes checked by the tests' own walk
over the board (proof_check): the winner's one move, every reply of the
loser, each leaf a game the winner has won."""
import sys
import textwrap

import pytest

import solver
from boards import random_position
from interrupt import seconds_to_stop
from havhex.havannah import Board as HavannahBoard
from havhex.hex import Board as HexBoard
from havhex.search import ProofTooLarge, Solver, solve
from proof_check import check_proof

RESULT = {solver.WIN: "win", solver.LOSS: "loss", solver.DRAW: "draw"}
SMALL_TABLE = 1 << 20


def assert_exact(board, solution):
    """The solution agrees with brute force, its move wins (or draws) and
    its proof checks."""
    value = solver.value(board)
    assert solution.result == RESULT[value], board.moves
    assert solution.to_move == board.to_move
    if value == solver.WIN:
        assert solution.winner == board.to_move
        assert solution.move in solver.winning_moves(board)
    elif value == solver.LOSS:
        assert solution.winner not in (None, board.to_move)
        assert solution.move is None
    else:
        assert solution.winner is None
        after = board.copy()
        after.play(solution.move)
        assert solver.value(after) != solver.WIN
    if solution.proof is not None:
        check_proof(board, solution.proof, solution.winner)


HEX_OPENINGS = [(3, (r, c)) for r in range(3) for c in range(3)] + [
    (4, (r, c)) for r in range(4) for c in range(4) if r <= c]


@pytest.mark.parametrize("size, opening", HEX_OPENINGS)
def test_hex_openings_agree_with_brute_force(size, opening):
    board = HexBoard(size)
    board.play(opening)
    assert_exact(board, solve(board, memory=SMALL_TABLE, proof=True))


@pytest.mark.parametrize("seed", range(24))
def test_hex_positions_agree_with_brute_force(seed):
    # Either colour to move: an even count of stones leaves Red to move.
    board = random_position(lambda: HexBoard(4), 2 + seed % 5, seed)
    assert_exact(board, solve(board, memory=SMALL_TABLE, proof=True))


def test_hex_4x4_first_player_wins_only_on_the_short_diagonal():
    # The known result (Gardner 1957): the first player wins 4x4 Hex by
    # opening on the short diagonal and nowhere else.
    winning = set()
    table = Solver(SMALL_TABLE)
    for r in range(4):
        for c in range(4):
            board = HexBoard(4)
            board.play((r, c))
            if table.solve(board).result == "loss":
                winning.add((r, c))
    assert winning == {(0, 3), (1, 2), (2, 1), (3, 0)}


def test_hex_empty_boards_are_first_player_wins():
    for size in (1, 2, 3, 4):
        solution = solve(HexBoard(size), memory=SMALL_TABLE)
        assert (solution.result, solution.winner) == ("win", "red")


@pytest.mark.parametrize("rule", ["official", "contest"])
@pytest.mark.parametrize("stones", [1, 2, 3])
def test_havannah_base_2_agrees_with_brute_force(rule, stones):
    for seed in range(8):
        board = random_position(lambda: HavannahBoard(2, rule=rule), stones, seed)
        assert_exact(board, solve(board, memory=SMALL_TABLE, proof=True))


# Base-3 positions of 13 random stones that brute force finds drawn (found
# by a search over random positions, of which about one in 400 is): the
# inputs only, their values are brute force's.
DRAWN_SOMEWHERE = [
    [(5, 4), (5, 3), (2, 2), (5, 5), (1, 1), (2, 1), (4, 5), (1, 2), (4, 3), (2, 3), (3, 3),
     (3, 2), (1, 3)],
    [(5, 4), (3, 5), (1, 3), (2, 3), (2, 4), (4, 4), (3, 4), (3, 2), (1, 1), (3, 3), (4, 3),
     (1, 2), (4, 5)],
    [(4, 5), (1, 1), (5, 3), (3, 5), (2, 3), (3, 4), (2, 2), (3, 2), (3, 1), (5, 4), (3, 3),
     (2, 1), (1, 2)],
]


@pytest.mark.parametrize("moves", DRAWN_SOMEWHERE)
@pytest.mark.parametrize("played", [11, 12, 13])
def test_havannah_draws_are_told_from_wins_and_losses(moves, played):
    # Both players to move, a move or two before the drawn position: the
    # two passes of the solver tell a draw from a loss as brute force does.
    board = HavannahBoard(3)
    for move in moves[:played]:
        board.play(move)
    assert_exact(board, solve(board, memory=SMALL_TABLE))


def test_a_drawn_position_is_a_draw():
    board = HavannahBoard(3)
    for move in DRAWN_SOMEWHERE[0]:
        board.play(move)
    solution = solve(board, memory=SMALL_TABLE)
    assert solver.value(board) == solver.DRAW
    assert (solution.result, solution.winner) == ("draw", None)


@pytest.mark.parametrize("rule", ["official", "contest"])
def test_havannah_base_3_openings_only_corners_win(rule):
    # The known result (morat's solver, ../shared engines): of the first
    # moves on base 3 only the six corners win for the first player.
    table = Solver(SMALL_TABLE)
    winning = []
    empty = HavannahBoard(3, rule=rule)
    for move in empty.legal_moves():
        board = empty.copy()
        board.play(move)
        solution = table.solve(board, proof=True)
        assert solution.result in ("win", "loss")
        check_proof(board, solution.proof, solution.winner)
        if solution.result == "loss":
            winning.append(move)
    corners = [move for move in empty.legal_moves()
               if sum(1 for other in empty.legal_moves() if _adjacent(move, other)) == 3]
    assert sorted(winning) == sorted(corners) and len(corners) == 6


def _adjacent(a, b):
    dx, dy = b[0] - a[0], b[1] - a[1]
    return (dx, dy) in ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (-1, -1))


@pytest.mark.parametrize("rule", ["official", "contest"])
@pytest.mark.parametrize("seed", range(6))
def test_havannah_base_3_positions_agree_with_brute_force(rule, seed):
    board = random_position(lambda: HavannahBoard(3, rule=rule), 8 + seed % 3, seed)
    assert_exact(board, solve(board, memory=SMALL_TABLE, proof=True))


def test_a_full_table_still_answers_right():
    # A table of 512 entries, filled: entries are given up all the time
    # and the answers stay exact.  (Far smaller tables make df-pn search
    # the same positions again and again: right, but slow.)
    table = Solver(16384)
    for seed in range(10):
        board = random_position(lambda: HexBoard(4), 3, seed)
        solution = table.solve(board)
        assert solution.result == RESULT[solver.value(board)]
    core = table._cores["hex"]
    assert core.stored <= core.capacity and core.capacity * 24 <= 16384
    assert core.stored > core.capacity * 0.9 and core.replaced > 0


def test_limits_give_unknown_and_the_table_resumes():
    board = HexBoard(5)
    board.play((0, 0))
    table = Solver(SMALL_TABLE * 16)
    first = table.solve(board, max_nodes=100)
    assert first.result == "unknown" and first.winner is None and first.move is None
    assert 100 <= first.nodes <= 101
    assert table.solve(board, seconds=0).result == "unknown"
    assert table.solve(board).result == "win"


def test_a_finished_game_is_answered_without_search():
    board = HexBoard(2)
    for move in [(0, 0), (0, 1), (1, 0)]:
        board.play(move)
    assert board.winner == "red"
    solution = solve(board)
    assert (solution.result, solution.winner, solution.nodes) == ("loss", "red", 0)


def test_the_principal_variation_plays_out_the_win():
    board = HexBoard(4)
    board.play((1, 1))
    solution = solve(board, memory=SMALL_TABLE)
    walk = board.copy()
    for move in solution.principal_variation:
        walk.play(move)
    assert walk.is_over and walk.winner == solution.winner
    assert solution.principal_variation[0] == solution.move


def test_the_board_is_left_as_it_was():
    board = random_position(lambda: HavannahBoard(3), 6, 3)
    before = (list(board.moves), board.hash)
    solve(board, memory=SMALL_TABLE, proof=True)
    assert (list(board.moves), board.hash) == before


def test_a_proof_larger_than_its_bound_is_refused():
    board = HexBoard(4)
    board.play((0, 0))
    with pytest.raises(ProofTooLarge):
        solve(board, memory=SMALL_TABLE, proof=True, max_proof_nodes=50)


def test_arguments_are_checked():
    board = HexBoard(3)
    with pytest.raises(ValueError):
        solve(board, memory=10)
    with pytest.raises(ValueError):
        solve(board, seconds=-1)
    with pytest.raises(TypeError):
        solve(board, max_nodes=1.5)
    with pytest.raises(TypeError):
        solve("a board")


CHILD = textwrap.dedent("""
    import sys
    from havhex.{game} import Board
    from havhex.search import solve
    board = Board({size})
    print("ready", flush=True)
    try:
        solve(board, memory=1 << 24)
    except KeyboardInterrupt:
        print("interrupted", flush=True)
        sys.exit(3)
    print("finished", flush=True)
""")


@pytest.mark.skipif(sys.platform == "win32", reason="SIGINT to a child is POSIX")
@pytest.mark.parametrize("game, size", [("hex", 11), ("havannah", 8)])
def test_ctrl_c_stops_a_solve(game, size):
    stopped = seconds_to_stop(CHILD.format(game=game, size=size))
    assert stopped < 0.2, f"the solve took {stopped:.3f} s to stop"
