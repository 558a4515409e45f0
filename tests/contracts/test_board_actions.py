"""Both live boards in the batches' integer action ids (written once, run on
havhex.hex.Board and havhex.havannah.Board, as tests/contracts/test_board_contract.py).

Hex: cell (row, col) is ``row * cols + col`` and "swap-pieces" is
``rows * cols``, the last; "swap-sides" has no id.  Havannah: cell (x, y) is
``(x-1) * (2S-1) + (y-1)`` and the swap is the first stone's cell again, as
OpenSpiel numbers them.  ``play_action(a)`` is ``play(move_of(a))``: the same
answer, the same board after, the same exception for a bad action, with
nothing changed.  The legal actions against OpenSpiel's are in
tests/hex/test_hex_board_openspiel.py and
tests/havannah/test_havannah_board_openspiel.py.
"""
import array
import pickle
import random
from dataclasses import dataclass
from typing import Callable, Tuple

import pytest

import needs
from havhex import InputError
from havhex import havannah, hex as hx


@dataclass
class Variant:
    game: str
    board: Callable                  # an empty board
    num_actions: int
    off_board: Tuple[int, ...]       # ids in range that are no cell (Havannah's corners)
    no_id: Tuple[str, ...]           # legal moves without an action id


VARIANTS = {
    "hex": Variant("hex", lambda: hx.Board(4), 17, (), ()),
    "hex-swap": Variant("hex", lambda: hx.Board(4, swap=True), 17, (), ("swap-sides",)),
    "hex-4x6": Variant("hex", lambda: hx.Board(4, 6), 25, (), ()),
    "hex-6x4-swap": Variant("hex", lambda: hx.Board(6, 4, swap=True), 25, (), ("swap-sides",)),
    "hex-1x1": Variant("hex", lambda: hx.Board(1), 2, (), ()),
    "havannah": Variant("havannah", lambda: havannah.Board(3), 25, (3, 4, 9, 15, 20, 21), ()),
    "havannah-swap": Variant("havannah", lambda: havannah.Board(3, swap=True), 25,
                             (3, 4, 9, 15, 20, 21), ()),
    "havannah-contest": Variant("havannah", lambda: havannah.Board(3, rule="contest", swap=True),
                                25, (3, 4, 9, 15, 20, 21), ()),
    "havannah-2": Variant("havannah", lambda: havannah.Board(2, swap=True), 9, (2, 6), ()),
}


@pytest.fixture(params=sorted(VARIANTS))
def variant(request):
    return VARIANTS[request.param]


def state(board):
    return (board.moves, board.hash, board.to_move, board.winner, board.legal_moves(),
            list(board.legal_actions()))


def raises_like_play(board, action, move):
    """``play_action(action)`` raises what ``play(move)`` raises, and both
    leave the board as it was."""
    before = state(board)
    with pytest.raises(Exception) as by_move:
        board.play(move)
    with pytest.raises(type(by_move.value)):
        board.play_action(action)
    assert state(board) == before


def random_games(variant, count, seed):
    """Boards along random games, with every swap the games allow taken in
    some of them; yields each position (the board, not a copy)."""
    rng = random.Random(seed)
    for _ in range(count):
        board = variant.board()
        yield board
        while not board.is_over:
            moves = board.legal_moves()
            swaps = [m for m in moves if isinstance(m, str)]
            move = rng.choice(swaps) if swaps and rng.random() < 0.5 else rng.choice(moves)
            board.play(move)
            yield board


def test_num_actions(variant):
    assert variant.board().num_actions == variant.num_actions


def test_legal_actions_are_the_legal_moves_ids_ascending(variant):
    for board in random_games(variant, 30, 1):
        actions = board.legal_actions()
        assert isinstance(actions, array.array) and actions.itemsize == 4
        ids = [board.action_of(move) for move in board.legal_moves() if move not in variant.no_id]
        assert list(actions) == sorted(ids)
        assert len(set(actions)) == len(actions)
        assert all(0 <= a < board.num_actions for a in actions)
        if board.is_over:
            assert len(actions) == 0


def test_move_of_and_action_of_are_inverse(variant):
    for board in random_games(variant, 10, 2):
        for action in board.legal_actions():
            move = board.move_of(action)
            assert move in board.legal_moves()
            assert board.action_of(move) == action
        for move in board.legal_moves():
            if move not in variant.no_id:
                assert board.move_of(board.action_of(move)) == move


def test_play_action_is_play_of_move_of(variant):
    rng = random.Random(3)
    for board in random_games(variant, 20, 3):
        for action in rng.sample(list(board.legal_actions()), min(3, len(board.legal_actions()))):
            by_action = board.copy()
            by_move = board.copy()
            assert by_action.play_action(action) == by_move.play(board.move_of(action))
            assert by_action == by_move and by_action.moves == by_move.moves
            assert (by_action.winner, by_action.winning_move, by_action.is_over) == \
                (by_move.winner, by_move.winning_move, by_move.is_over)
            assert pickle.loads(pickle.dumps(by_action)) == by_move


def test_whole_games_by_actions_alone(variant):
    """The loop a tree search runs: legal actions, a random choice, play."""
    rng = random.Random(4)
    for _ in range(30):
        board = variant.board()
        while not board.is_over:
            board.play_action(rng.choice(board.legal_actions()))
        again = variant.board()
        for move in board.moves:
            again.play(move)
        assert again == board and again.winner == board.winner


def test_numpy_integers_are_actions(variant):
    np = needs.module("numpy")
    board = variant.board()
    actions = np.frombuffer(board.legal_actions(), dtype=np.int32)    # no copy
    first = actions[len(actions) // 2]
    assert isinstance(first, np.int32)
    expected = variant.board()
    assert board.move_of(np.int64(first)) == expected.move_of(int(first))
    assert board.play_action(first) == expected.play(expected.move_of(int(first)))
    assert board == expected


def test_legal_mask_agrees(variant):
    np = needs.module("numpy")
    for board in random_games(variant, 10, 5):
        mask = board.legal_mask()
        assert mask.dtype == np.bool_ and mask.shape == (board.num_actions,)
        assert list(np.flatnonzero(mask)) == list(board.legal_actions())


def test_bad_actions_raise_what_play_raises_and_change_nothing(variant):
    board = variant.board()
    first = board.legal_actions()[0]
    board.play_action(first)
    n = board.num_actions
    # Out of range: play is given a cell off the board.
    off = (-1, -1) if variant.game == "hex" else (0, 0)
    for action in (-1, n, n + 1, 10 ** 30, -10 ** 30):
        raises_like_play(board, action, off)
    for action in variant.off_board:
        raises_like_play(board, action, off)
    # On a stone (the swap aside, whose id Havannah shares with the stone).
    if first not in board.legal_actions():
        raises_like_play(board, first, board.moves[0])
    for action in (True, False, 1.0, None, "1", (0, 0), [0]):
        before = state(board)
        with pytest.raises(TypeError):
            board.play_action(action)
        with pytest.raises(TypeError):
            board.move_of(action)
        assert state(board) == before
    for action in (-1, n, 10 ** 30, *variant.off_board):
        with pytest.raises(InputError):
            board.move_of(action)


def test_actions_after_the_end_raise_what_play_raises(variant):
    rng = random.Random(6)
    for _ in range(10):
        board = variant.board()
        while not board.is_over:
            board.play_action(rng.choice(board.legal_actions()))
        assert len(board.legal_actions()) == 0
        for action in range(board.num_actions):
            if action in variant.off_board:
                continue
            move = board.move_of(action)
            raises_like_play(board, action, move)


def test_a_board_made_without_init_refuses_the_actions():
    for cls in (hx.Board, havannah.Board):
        board = cls.__new__(cls)
        for call in (lambda: board.play_action(0), board.legal_actions, board.legal_mask,
                     lambda: board.action_of((1, 1)), lambda: board.move_of(0),
                     lambda: board.num_actions):
            with pytest.raises(TypeError, match="without __init__"):
                call()


def test_legal_moves_hands_out_the_same_cell_tuples_each_call(variant):
    """One tuple per cell of a board size, made once: a call costs no tuple
    per empty cell."""
    board = variant.board()
    first = board.legal_moves()
    board.play(first[0])
    second = board.legal_moves()
    assert all(a is b for a, b in zip(first[1:], second))
    other = variant.board()
    assert all(a is b for a, b in zip(first, other.legal_moves()))
    assert all(board.move_of(board.action_of(m)) is m for m in second if m not in variant.no_id)


@pytest.mark.parametrize("board", [lambda: hx.Board(70, 65), lambda: havannah.Board(40)],
                         ids=["hex-70x65", "havannah-40"])
def test_boards_beyond_the_cached_sizes_still_give_the_moves(board):
    rng = random.Random(7)
    board = board()
    for _ in range(200):
        board.play_action(rng.choice(board.legal_actions()))
    moves = board.legal_moves()
    assert list(board.legal_actions()) == sorted(board.action_of(m) for m in moves)
    assert [board.move_of(board.action_of(m)) for m in moves] == moves


# ---- what one game has --------------------------------------------------------

def test_hex_swap_pieces_is_the_last_id_and_swap_sides_has_none():
    board = hx.Board(3, swap=True)
    assert board.action_of("swap-pieces") == 9 and board.move_of(9) == "swap-pieces"
    raises_like_play(board, 9, "swap-pieces")           # not before Red's first stone
    board.play_action(board.action_of((0, 2)))
    assert "swap-sides" in board.legal_moves() and list(board.legal_actions())[-1] == 9
    with pytest.raises(InputError, match="swap-sides"):
        board.action_of("swap-sides")
    assert board.play_action(9) == ()
    assert board.moves == ((0, 2), "swap-pieces") and board.stone_counts == (0, 1)
    assert board.legal_moves()[:3] == [(0, 0), (0, 1), (0, 2)]    # the stone is on (2, 0)
    assert 6 not in board.legal_actions()
    raises_like_play(board, 9, "swap-pieces")           # once


def test_hex_swap_pieces_has_no_legal_id_when_the_mirror_is_off_the_board():
    board = hx.Board(2, 4, swap=True)
    board.play((1, 3))                                  # its mirror (3, 1) is off the board
    assert board.legal_moves()[-1] == "swap-sides" and "swap-pieces" not in board.legal_moves()
    assert 8 not in board.legal_actions()
    raises_like_play(board, 8, "swap-pieces")


def test_havannah_swap_is_the_first_stones_cell_while_it_is_legal():
    board = havannah.Board(4, swap=True)
    first = board.action_of((2, 3))
    with pytest.raises(InputError, match="swap"):
        board.action_of("swap")
    board.play_action(first)
    assert first in board.legal_actions()
    assert board.move_of(first) == "swap" and board.action_of("swap") == first
    assert board.play_action(first) == ()
    assert board.moves == ((2, 3), "swap") and board.to_move == "white"
    assert first not in board.legal_actions() and board.move_of(first) == (2, 3)
    raises_like_play(board, first, (2, 3))              # now a stone like any other


def test_havannah_without_swap_the_first_stones_cell_is_taken():
    board = havannah.Board(4)
    board.play((2, 3))
    raises_like_play(board, board.action_of((2, 3)), (2, 3))


def test_havannah_draws_end_the_actions():
    """A full board: no legal action, and play_action raises as play does
    (about one random game in a thousand on base 3 is a draw)."""
    rng = random.Random(8)
    for _ in range(20000):
        board = havannah.Board(3)
        while not board.is_over:
            board.play_action(rng.choice(board.legal_actions()))
        if board.is_draw:
            break
    assert board.is_draw and len(board.legal_actions()) == 0
    raises_like_play(board, 0, (1, 1))


def test_only_legal_mask_needs_numpy(monkeypatch, tmp_path, variant):
    """Without NumPy the action ids all work; legal_mask says what to install."""
    # A numpy whose import fails, first on the path, in place of the real one
    # (put back after the test).
    (tmp_path / "numpy").mkdir()
    (tmp_path / "numpy" / "__init__.py").write_text("raise ImportError('no numpy here')\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(__import__("sys").modules, "numpy", raising=False)
    board = variant.board()
    actions = board.legal_actions()
    assert board.move_of(actions[-1]) in board.legal_moves()
    board.play_action(actions[0])
    with pytest.raises(ImportError, match="pip install numpy"):
        board.legal_mask()
