"""havhex.havannah.Board against the literal reference (tests/support),
move by move, and what only Havannah has: rings and the contest rule, its
swap, the exact chances of its playouts, its arrays and pictures.  What both
boards share is tests/contracts/test_board_contract.py's."""
import os
import random

import pytest

import needs
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from havhex import InputError
from havhex.havannah import Board, explain, first_win
from ref_havannah_board import RefBoard

# Random games per test (four tests of one rule and swap option each): the
# reference spends about 40 ms on a game; HAVHEX_BOARD_GAMES plays more.
GAMES = int(os.environ.get("HAVHEX_BOARD_GAMES", "500"))
SETTINGS = settings(max_examples=GAMES, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])


def play_random_game(size, rule, swap, seed, swap_chance=0.5):
    """Play one random game on Board and RefBoard side by side, checking
    every move; returns (board, hashes, copies) of every prefix."""
    rng = random.Random(seed)
    board = Board(size, rule, swap)
    ref = RefBoard(size, rule, swap)
    hashes = [board.hash]
    copies = [board.copy()]
    while not ref.is_over:
        legal = ref.legal_moves()
        assert board.legal_moves() == legal
        if "swap" in legal and rng.random() < swap_chance:
            move = "swap"
        else:
            move = rng.choice([cell for cell in legal if cell != "swap"])
        assert board.play(move) == ref.play(move), (size, rule, swap, ref.moves)
        assert board.winner == ref.winner
        assert board.winning_move == ref.winning_move
        assert board.to_move == ref.to_move
        assert len(board) == len(ref.moves)
        assert board.moves == tuple(ref.moves)
        hashes.append(board.hash)
        copies.append(board.copy())
    assert board.is_over
    assert board.is_draw == (ref.winner is None)
    assert board.legal_moves() == []
    assert board.to_array().tolist() == ref.array()
    return board, hashes, copies


def check_undo_back_to_empty(board, hashes, copies):
    moves = board.moves
    for k in range(len(moves), 0, -1):
        assert board == copies[k] and hash(board) == hash(copies[k])
        assert board.undo() == moves[k - 1]
        assert board.hash == hashes[k - 1]
        assert board.moves == moves[:k - 1]
        assert board == copies[k - 1]
    assert board == Board(board.size, board.rule, board.swap)
    assert board.hash == 0


@pytest.mark.parametrize("rule", ["official", "contest"])
@pytest.mark.parametrize("swap", [False, True])
@SETTINGS
@given(size=st.integers(2, 8), seed=st.integers(0, 2**32))
def test_random_games_against_reference(rule, swap, size, seed):
    board, hashes, copies = play_random_game(size, rule, swap, seed)
    # The copies stay as they were while the board went on.
    for k, snapshot in enumerate(copies):
        assert snapshot.hash == hashes[k] and len(snapshot) == k
    check_undo_back_to_empty(board, hashes, copies)


@SETTINGS
@given(size=st.integers(2, 6), seed=st.integers(0, 2**32), rule=st.sampled_from(["official", "contest"]))
def test_equal_positions_by_other_orders_hash_equal(size, seed, rule):
    """Two move orders reaching the same stones and mover: equal, same hash."""
    rng = random.Random(seed)
    cells = Board(size).legal_moves()
    rng.shuffle(cells)
    white, black = cells[0:2 * size:2], cells[1:2 * size:2]
    first, second = Board(size, rule), Board(size, rule)
    order = list(range(len(white)))
    other = order[:]
    rng.shuffle(other)
    for i, j in zip(order, other):
        for board, k in ((first, i), (second, j)):
            if not board.is_over:
                board.play(white[k])
            if not board.is_over:
                board.play(black[k])
    if first.winner is None and second.winner is None:
        assert first == second
        assert first.hash == second.hash and hash(first) == hash(second)
    else:
        assert first.to_array().tolist() != second.to_array().tolist() or first == second


def flower(centre):
    x, y = centre
    return [(x + dx, y + dy) for dx, dy in ((1, 1), (0, 1), (-1, 0), (-1, -1), (0, -1), (1, 0))]


def play_alone(board, cells, player="white"):
    results = []
    for cell in cells:
        results.append(board._play_as(cell, player))
    return results


def test_flower_is_a_ring_under_the_official_rule_only():
    """Six stones around a seventh of the same player: the last petal, with
    one run of own stones around it, closes no loop around a free cell."""
    order = [(5, 5)] + flower((5, 5))
    official = play_alone(Board(5), order)
    contest = play_alone(Board(5, "contest"), order)
    assert official[-1] == ("ring",) and not any(official[:-1])
    assert not any(contest)
    # Around an empty centre the petals make a ring under both rules.
    for rule in ("official", "contest"):
        assert play_alone(Board(5, rule), flower((5, 5)))[-1] == ("ring",)


def test_ring_around_an_opponent_stone():
    """Official: a loop around any cell is a ring; contest: only around an
    empty one."""
    for rule, expected in (("official", ("ring",)), ("contest", ())):
        board = Board(5, rule)
        board._play_as((5, 5), "black")
        assert play_alone(board, flower((5, 5)))[-1] == expected


def test_contest_ring_around_empty_and_opponent_cells():
    board = Board(6, "contest")
    board._play_as((6, 6), "black")
    # A loop around (6, 6) and (6, 7): the second is empty.
    loop = [(7, 7), (7, 8), (6, 8), (5, 7), (5, 6), (5, 5), (6, 5), (7, 6)]
    results = play_alone(board, loop)
    assert results[-1] == ("ring",) and not any(results[:-1])
    assert board.explain().enclosed_runs == ((6, 7, 7),)
    board = Board(6)
    board._play_as((6, 6), "black")
    play_alone(board, loop)
    assert board.explain().enclosed_runs == ((6, 6, 7),)


def test_flower_explained():
    board = Board(4)
    play_alone(board, [(4, 4)] + flower((4, 4)))
    explanation = board.explain()
    assert explanation.result.kinds == ("ring",)
    assert explanation.ring[0] == (5, 4)      # the winning move first
    assert sorted(explanation.ring) == sorted(flower((4, 4)))
    assert explanation.enclosed_runs == ((4, 4, 4),)


def test_swap():
    board = Board(4, swap=True)
    board.play((2, 3))
    assert board.legal_moves()[-1] == "swap"
    assert board.play("swap") == ()
    assert board.to_move == "white"
    assert board.to_array()[1, 2] == 2
    assert "swap" not in board.legal_moves()
    board.play((4, 4))
    assert board.moves == ((2, 3), "swap", (4, 4))
    with pytest.raises(InputError, match="swap"):
        board.play("swap")
    assert board.undo() == (4, 4)
    assert board.undo() == "swap"
    assert board.to_array()[1, 2] == 1 and board.to_move == "black"
    plain = Board(4)
    plain.play((2, 3))
    with pytest.raises(InputError, match="swap"):
        plain.play("swap")
    first = Board(4, swap=True)
    with pytest.raises(InputError, match="swap"):
        first.play("swap")


def unchanged_after(board, call, error):
    before = (board.hash, board.moves, board.to_move, board.winner, board.to_array().tolist())
    with pytest.raises(error):
        call()
    assert (board.hash, board.moves, board.to_move, board.winner,
            board.to_array().tolist()) == before


def test_the_corners_of_the_square_are_off_the_board_and_a_bridge_ends_the_game():
    board = Board(3)
    board.play((2, 2))
    for move in [(1, 4), (5, 1)]:
        unchanged_after(board, lambda: board.play(move), InputError)
    board.play((3, 3))
    board.play((1, 1))
    board.play((3, 4))
    assert board.play((1, 2)) == () and board.play((3, 5)) == ()
    assert board.play((1, 3)) == ("bridge",)
    unchanged_after(board, lambda: board.play((5, 5)), InputError)
    assert Board(3).legal_moves() == [(x, y) for x in range(1, 6) for y in range(1, 6)
                                      if abs(x - y) <= 2]
    for args, error in (((1,), InputError), ((3, "x"), InputError), ((3, 1), TypeError),
                        ((3, "official", 1), TypeError)):
        with pytest.raises(error):
            Board(*args)


def test_arrays_round_trip():
    np = needs.module("numpy")
    board, _, _ = play_random_game(5, "official", False, 7)
    while board.winner is not None:
        board.undo()
    array = board.to_array()
    assert array.dtype == np.int8 and array.shape == (9, 9)
    rebuilt = Board.from_array(array)
    assert rebuilt == board and rebuilt.hash == board.hash
    assert np.array_equal(Board.from_array(np.where(array < 0, 0, array)).to_array(), array)
    with pytest.raises(InputError):
        Board.from_array(np.zeros((4, 4), np.int8))
    bad = array.copy()
    bad[0, 8] = 1
    with pytest.raises(InputError):
        Board.from_array(bad)
    with pytest.raises(TypeError):
        Board.from_array(array.astype(float))
    won = np.zeros((3, 3), np.int8)
    won[0, 0] = won[0, 1] = 1
    won[2, 2] = 2
    with pytest.raises(InputError, match="winning structure"):
        Board.from_array(won)


# ---------------------------------------------------------------------------
# One player's stones alone under the contest rule: first_win's answer
# ---------------------------------------------------------------------------

def test_contest_rule_alone_gives_first_win_on_conformance_files(conformance_dir):
    from havhex.havannah import _judge

    checked = 0
    for path in sorted((conformance_dir / "havannah").glob("*.in")):
        parsed = _judge.parse(path.read_bytes())
        for case in range(parsed.n_cases):
            size = parsed.case_size(case)
            moves = parsed.case_moves(case)
            expected = first_win(size, moves)
            board = Board(size, "contest")
            kinds = ()
            for move in moves:
                kinds = board._play_as(move, "white")
                if kinds:
                    break
            assert kinds == expected.kinds, (path.name, case)
            assert (board.winning_move + 1 if kinds else None) == expected.move, (path.name, case)
            if kinds and size <= 50:
                explained = board.explain()
                judged = explain(size, moves)
                assert explained == judged
            checked += 1
    assert checked == 227


def test_contest_rule_alone_gives_first_win_on_random_games():
    rng = random.Random(12)
    for _ in range(300):
        size = rng.randint(2, 7)
        cells = Board(size).legal_moves()
        rng.shuffle(cells)
        board = Board(size, "contest")
        kinds = ()
        for move in cells:
            kinds = board._play_as(move, "white")
            if kinds:
                break
        expected = first_win(size, cells)
        assert kinds == expected.kinds
        assert board.winning_move == expected.move - 1


# ---------------------------------------------------------------------------
# Playouts
# ---------------------------------------------------------------------------

def outcome_chances(ref_moves, size, rule, swap):
    """Exact chances of each outcome of uniformly random play from the
    reference position reached by ``ref_moves`` (small positions only)."""
    ref = RefBoard(size, rule, swap)
    for move in ref_moves:
        ref.play(move)
    if ref.is_over:
        return {ref.winner: 1.0}
    chances = {}
    legal = ref.legal_moves()
    for move in legal:
        for outcome, chance in outcome_chances(ref_moves + [move], size, rule, swap).items():
            chances[outcome] = chances.get(outcome, 0.0) + chance / len(legal)
    return chances


@pytest.mark.parametrize("rule", ["official", "contest"])
def test_playouts_follow_the_exact_chances(rule):
    rng = random.Random(5)
    tested = 0
    while tested < 12:
        size = rng.choice([2, 3])
        board = Board(size, rule)
        cells = board.legal_moves()
        rng.shuffle(cells)
        for cell in cells:
            if board.is_over or len(board.legal_moves()) <= 4:
                break
            board.play(cell)
        if board.is_over:
            continue
        chances = outcome_chances(list(board.moves), size, rule, False)
        n = 4000
        counts = board.playouts(n, seed=tested)
        assert sum(counts.values()) == n
        for outcome, key in ((None, "draw"), ("white", "white"), ("black", "black")):
            p = chances.get(outcome, 0.0)
            spread = 5 * (n * p * (1 - p)) ** 0.5 + 1
            assert abs(counts[key] - n * p) <= spread, (board.moves, chances, counts)
        tested += 1


def test_playouts_with_swap_follow_the_exact_chances():
    board = Board(2, swap=True)
    board.play((2, 2))
    chances = outcome_chances([(2, 2)], 2, "official", True)
    n = 6000
    counts = board.playouts(n, seed=9)
    for outcome in ("white", "black"):
        p = chances.get(outcome, 0.0)
        assert abs(counts[outcome] - n * p) <= 5 * (n * p * (1 - p)) ** 0.5 + 1


# ---------------------------------------------------------------------------
# Sizes
# ---------------------------------------------------------------------------

def test_base_1000():
    board = Board(1000)
    last = 1999
    assert board.play((1, 1)) == ()
    assert board.play((last, last)) == ()
    for y in range(2, 1001):
        kinds = board.play((1, y))
        if kinds:
            break
        board.play((last, last - y + 1))
    assert kinds == ("bridge",) and board.winner == "white"
    assert board.copy() == board
    while len(board):
        board.undo()
    assert board.hash == 0


def test_random_playouts_big_board():
    board = Board(60, "contest")
    counts = board.playouts(4, seed=1, threads=2)
    assert sum(counts.values()) == 4


# ---------------------------------------------------------------------------
# Pictures
# ---------------------------------------------------------------------------

def test_draw_a_won_board_and_one_in_progress():
    board = Board(3)
    for move in [(3, 3), (1, 1), (2, 2), (1, 2), (2, 3), (1, 3)]:
        board.play(move)
    text = board.draw(as_text=True)
    assert text.splitlines()[0] == "bridge in move 6"
    assert text.count("#") - text.splitlines()[-1].count("#") == 3     # the black path
    svg = board.draw(heading="game")
    assert svg.startswith("<svg") or svg.startswith("<?xml")
    assert "bridge" in svg
    board.undo()
    text = board.draw(as_text=True)
    assert text.splitlines()[0] == "none"
    stones = sum(line.count("o") for line in text.splitlines()[1:-1])
    assert stones == 2          # black's stones: black is to move
    white = board.draw(as_text=True, player="white")
    assert sum(line.count("o") for line in white.splitlines()[1:-1]) == 3
    with pytest.raises(InputError):
        board.draw(player="red")


def test_a_crafted_pickle_raises_instead_of_playing_astray():
    """_rebuilt takes what a pickle brings: each move needs its player, 0
    (white) or 1 (black)."""
    from havhex.havannah.board import _rebuilt

    again = _rebuilt(Board, 3, "official", False, ((1, 1), (3, 3)), (0, 1))
    assert again.moves == ((1, 1), (3, 3)) and again.to_move == "white"
    for moves, players in ((((1, 1), (3, 3)), (0,)), (((1, 1),), (2,)), (((1, 1),), (-1,)),
                           (((1, 1),), (True,)), (((1, 1),), (0.0,)), ([(1, 1)], [0])):
        with pytest.raises(InputError):
            _rebuilt(Board, 3, "official", False, moves, players)
    for move in ((0, 0), (1, 5), (2 ** 63, 1)):
        with pytest.raises(InputError):
            _rebuilt(Board, 3, "official", False, (move,), (0,))
