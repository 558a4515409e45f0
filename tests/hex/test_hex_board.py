"""havhex.hex.Board against the literal game in tests/support/ref_hex_board.py.

Random two-player games (1x1 to 11x11, square and not, with and without the
swap option) are played move by move on both; after every move the board
must say what the reference says.  Undo, copy, hash and the arrays are
checked on the way.  What both boards share is tests/contracts/test_board_contract.py's.
"""
import os
import pickle
import random
from fractions import Fraction

import pytest

import needs
from hypothesis import HealthCheck, given, settings, strategies as st

import ref_hex_board as ref
from havhex import InputError
from havhex import hex as hx
from havhex.hex import Board


def assert_same(board, game):
    assert board.winner == game.winner
    assert board.winning_move == game.winning_move
    assert board.is_over == (game.winner is not None)
    assert board.to_move == game.to_move
    assert board.sides_swapped == game.sides_swapped
    assert board.moves == tuple(game.moves)
    assert len(board) == len(game.moves)
    assert board.legal_moves() == game.legal_moves()
    stones = list(game.stones.values())
    assert board.stone_counts == (stones.count("red"), stones.count("blue"))


def array_of(board):
    return [list(row) for row in board.to_array().tolist()]


def random_game(rng, rows, cols, swap, board=None, game=None, check=True):
    """Play a whole random game on a board and the reference side by side
    (from their start, or from the position both are given in); returns
    both.  The swaps are drawn often enough to matter."""
    board = Board(rows, cols, swap) if board is None else board
    game = ref.Game(rows, cols, swap) if game is None else game
    while game.winner is None:
        legal = game.legal_moves()
        swaps = [move for move in legal if move in ref.SWAPS]
        move = rng.choice(swaps) if swaps and rng.random() < 0.5 else rng.choice(legal)
        won = game.play(move)
        assert board.play(move) == (("chain",) if won else ())
        if check:
            assert_same(board, game)
    return board, game



# Games per test scale with HAVHEX_BOARD_GAMES (default 500, as for the
# Havannah board's tests): the sanitizer build, ten times slower, plays fewer.
GAMES_SCALE = int(os.environ.get("HAVHEX_BOARD_GAMES", "500")) / 500


def games(count):
    return max(10, round(count * GAMES_SCALE))


sizes = st.tuples(st.integers(1, 11), st.integers(1, 11))


@settings(max_examples=games(600), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(size=sizes, square=st.booleans(), swap=st.booleans(), seed=st.integers(0, 2 ** 32))
def test_random_games_agree_with_the_reference_move_by_move(size, square, swap, seed):
    rows, cols = size
    if square:
        cols = rows
    random_game(random.Random(seed), rows, cols, swap)


def test_thousands_of_random_games_agree_on_every_move():
    """Beside Hypothesis's examples: 2,000 more games, a quarter with a
    swap, sizes spread evenly over 1x1 to 11x11."""
    rng = random.Random(13)
    swaps = {"swap-pieces": 0, "swap-sides": 0}
    for number in range(games(2000)):
        rows = rng.randint(1, 11)
        cols = rows if number % 2 else rng.randint(1, 11)
        board, game = random_game(rng, rows, cols, swap=number % 4 == 0)
        for move in board.moves[1:2]:
            if move in swaps:
                swaps[move] += 1
    # Both swap forms were exercised, in proportion to the games played
    # (about one swap game in ten picks each form).
    assert min(swaps.values()) > games(2000) // 80


@settings(max_examples=games(300), deadline=None)
@given(size=sizes, swap=st.booleans(), seed=st.integers(0, 2 ** 32), data=st.data())
def test_undo_copy_and_hash_on_the_way(size, swap, seed, data):
    rows, cols = size
    rng = random.Random(seed)
    board = Board(rows, cols, swap)
    game = ref.Game(rows, cols, swap)
    empty_hash = board.hash
    seen = []
    while game.winner is None:
        before = board.copy()
        legal = game.legal_moves()
        swaps = [move for move in legal if move in ref.SWAPS]
        move = rng.choice(swaps) if swaps and rng.random() < 0.5 else rng.choice(legal)
        result = board.play(move)
        game.play(move)
        # Undo restores the board exactly, and playing again gives the same.
        after = board.copy()
        assert board.undo() == move
        assert board == before and board.hash == before.hash and hash(board) == hash(before)
        assert board.moves == before.moves and board.winner is None
        assert board.play(move) == result
        assert board == after and board.hash == after.hash
        if data.draw(st.booleans()):
            assert array_of(board) == game.array()
        seen.append(board.copy())
    # A copy is independent of its original.
    twin = seen[0].copy()
    if twin.legal_moves():
        twin.play(twin.legal_moves()[-1])
        assert len(twin) == len(seen[0]) + 1 and twin != seen[0]
    # Undo all the way back: the empty board, equal to a new one.
    while len(board):
        board.undo()
        if len(board):
            assert board == seen[len(board) - 1]
    assert board == Board(rows, cols, swap) and board.hash == empty_hash == 0
    assert board.legal_moves() == ref.Game(rows, cols, swap).legal_moves()


@settings(max_examples=games(300), deadline=None)
@given(size=sizes, seed=st.integers(0, 2 ** 32))
def test_the_same_position_by_other_orders_is_equal_and_hashes_equal(size, seed):
    rows, cols = size
    rng = random.Random(seed)
    _, game = random_game(rng, rows, cols, swap=False, check=False)
    played = game.moves[:rng.randint(0, len(game.moves) - 1)]      # before the win
    red, blue = played[0::2], played[1::2]
    rng.shuffle(red)
    rng.shuffle(blue)
    first, second = Board(rows, cols), Board(rows, cols)
    for move in played:
        first.play(move)
    for k in range(len(played)):
        second.play(red[k // 2] if k % 2 == 0 else blue[k // 2])
    assert first == second and first.hash == second.hash and hash(first) == hash(second)
    if played:
        other = Board(rows, cols)
        for move in played[:-1]:
            other.play(move)
        assert other != first and other.hash != first.hash


def test_hash_tells_apart_positions_that_differ():
    """Hashes of the distinct positions of many random games: no collision,
    and the mover and the exchanged sides are part of the key."""
    rng = random.Random(5)
    hashes = {}
    for _ in range(300):
        board, _ = random_game(rng, 5, 5, swap=True, check=False)
        while True:
            key = (bytes(board.to_array().tobytes()), board.to_move, board.sides_swapped)
            assert hashes.setdefault(board.hash, key) == key
            if not len(board):
                break
            board.undo()
    sides = Board(3, swap=True)
    sides.play((0, 0))
    plain = sides.copy()
    sides.play("swap-sides")
    assert sides.to_move == plain.to_move == "blue" and sides.to_array().tolist() == \
        plain.to_array().tolist()
    assert sides != plain and sides.hash != plain.hash


# ---------------------------------------------------------------------------
# Swaps
# ---------------------------------------------------------------------------

def test_swap_pieces_mirrors_the_stone_and_changes_its_colour():
    board = Board(4, swap=True)
    board.play((0, 2))
    assert "swap-pieces" in board.legal_moves() and "swap-sides" in board.legal_moves()
    assert board.play("swap-pieces") == ()
    assert board.to_array().tolist()[2][0] == 2 and board.to_array().sum() == 2
    assert board.to_move == "red" and not board.sides_swapped
    assert board.moves == ((0, 2), "swap-pieces")
    assert board.undo() == "swap-pieces"
    assert board.to_array().tolist()[0][2] == 1 and board.to_move == "blue"


def test_the_notebook_picture_after_swap_pieces_on_a_start_from_an_array():
    """Red's stone came from from_array, not from a move: the picture still
    rings the blue stone on the mirror cell, as after a played first move."""
    needs.module("numpy")
    start = Board.from_array([[0, 1, 0], [0, 0, 0], [0, 0, 0]], swap=True)
    played = Board(3, swap=True)
    played.play((0, 1))
    for board in (start, played):
        board.play("swap-pieces")
    assert start.to_array().tolist() == played.to_array().tolist()
    picture = start._repr_svg_()
    assert "played-last" in picture.split("</style>")[-1]
    assert picture == played._repr_svg_()


def test_swap_sides_keeps_the_stones_and_blue_moves_next():
    """After swap-sides the first player holds Blue: the stone stays red,
    Blue (the first player now) moves, and a win by "red" is the second
    player's."""
    board = Board(2, swap=True)
    board.play((0, 0))
    board.play("swap-sides")
    assert board.sides_swapped and board.to_move == "blue"
    assert board.legal_moves() == [(0, 1), (1, 0), (1, 1)]
    board.play((0, 1))
    assert board.play((1, 0)) == ("chain",) and board.winner == "red"


def test_swap_pieces_can_win_at_once_on_one_column():
    board = Board(3, 1, swap=True)
    board.play((0, 0))
    assert board.legal_moves() == [(1, 0), (2, 0), "swap-pieces", "swap-sides"]
    assert board.play("swap-pieces") == ("chain",)
    assert board.winner == "blue" and board.winning_move == 1
    board.undo()
    assert board.winner is None and board.to_move == "blue"


def test_swap_pieces_is_left_out_when_the_mirror_is_off_the_board():
    board = Board(2, 4, swap=True)
    board.play((0, 3))
    assert board.legal_moves()[-1:] == ["swap-sides"]
    with pytest.raises(InputError, match="off the 2 x 4 board"):
        board.play("swap-pieces")


# ---------------------------------------------------------------------------
# Bad calls change nothing
# ---------------------------------------------------------------------------

def _unchanged(board, call, error, match):
    before = board.copy()
    moves, hashed, array = board.moves, board.hash, board.to_array().tolist()
    with pytest.raises(error, match=match):
        call()
    assert board == before and board.moves == moves and board.hash == hashed
    assert board.to_array().tolist() == array and board.winner == before.winner


@pytest.mark.parametrize("move, error, match", [
    ((3, 0), InputError, r"\(3, 0\) is off the 3 x 3 board"),
    ((0, -1), InputError, "off the"),
    ((10 ** 30, 0), InputError, "off the"),
    ((0.0, 1), TypeError, "row must be an int, not float"),
    ((True, 1), TypeError, "not bool"),
    (("0", 1), TypeError, "not str"),
    ((0, 1, 2), TypeError, "a move is a cell"),
    (None, TypeError, "a move is a cell"),
    (5, TypeError, "a move is a cell"),
    ("swap", InputError, "not 'swap'"),
    ("swap-pieces", InputError, "swap=False"),
    ("swap-sides", InputError, "swap=False"),
])
def test_bad_moves_raise_and_change_nothing(move, error, match):
    board = Board(3)
    board.play((1, 1))
    _unchanged(board, lambda: board.play(move), error, match)


def test_occupied_after_the_end_and_swap_out_of_turn():
    board = Board(2, swap=True)
    _unchanged(board, lambda: board.play("swap-sides"), InputError, "only as Blue's reply")
    board.play((0, 0))
    _unchanged(board, lambda: board.play((0, 0)), InputError, r"\(0, 0\) is taken by red")
    board.play((0, 1))
    _unchanged(board, lambda: board.play("swap-pieces"), InputError, "only as Blue's reply")
    assert board.play((1, 0)) == ("chain",)
    _unchanged(board, lambda: board.play((1, 1)), InputError, "the game is over: red won in move 3")
    _unchanged(board, lambda: board.play("swap-sides"), InputError, "the game is over")
    assert board.legal_moves() == []
    empty = Board(2)
    _unchanged(empty, empty.undo, InputError, "no move to undo")


@pytest.mark.parametrize("args, error", [
    ((2, 0), InputError), ((2, 2.0), TypeError), ((2, 2, 1), TypeError),
    ((40000, 60000), InputError), ((20000, 30000), InputError),
])
def test_bad_sizes(args, error):
    with pytest.raises(error):
        Board(*args)


# ---------------------------------------------------------------------------
# Sizes
# ---------------------------------------------------------------------------

def test_one_by_one_red_wins_with_the_first_stone():
    board = Board(1, swap=True)
    assert board.legal_moves() == [(0, 0)]
    assert board.play((0, 0)) == ("chain",) and board.winner == "red"
    assert board.playouts(10, 1) == {"red": 10, "blue": 0}


def test_a_thousand_by_a_thousand_board_plays_a_column():
    board = Board(1000, 1000)
    for row in range(1000):
        result = board.play((row, 7))
        if row < 999:
            board.play((row, 500))
    assert result == ("chain",) and board.winner == "red" and board.winning_move == 1998
    assert board.explain().chains == (("red", tuple((row, 7) for row in range(1000))),)
    board.undo()
    assert board.winner is None and len(board) == 1998


# ---------------------------------------------------------------------------
# Arrays, explanations, pictures, pickles
# ---------------------------------------------------------------------------

def test_arrays_round_trip():
    np = needs.module("numpy")
    rng = random.Random(8)
    for _ in range(200):
        rows, cols = rng.randint(1, 9), rng.randint(1, 9)
        board, game = random_game(rng, rows, cols, swap=rng.random() < 0.5, check=False)
        for _ in range(rng.randint(0, len(board))):
            board.undo()
        array = board.to_array()
        assert array.dtype == np.int8 and array.shape == (rows, cols)
        again = Board.from_array(array, swap=board.swap, to_move=board.to_move)
        assert len(again) == 0 and again.winner == board.winner
        if not board.sides_swapped:
            assert again == board and again.hash == board.hash
            assert again.legal_moves() == board.legal_moves()
            for seed in range(3):
                assert again.playout(seed) == board.playout(seed)


def test_from_array_infers_the_mover_and_rejects_what_no_game_reaches():
    np = needs.module("numpy")
    assert Board.from_array(np.zeros((2, 3), np.int8)).to_move == "red"
    assert Board.from_array([[1, 0], [0, 0]]).to_move == "blue"
    assert Board.from_array([[0, 2], [0, 0]]).to_move == "red"
    won = Board.from_array([[1, 2], [1, 2]], to_move=None)
    assert won.winner in ("red", "blue")
    assert won.winner == "red" and won.to_move == "blue" and won.winning_move is None
    with pytest.raises(InputError, match="red has won, so red cannot be to move"):
        Board.from_array([[1, 2], [1, 2]], to_move="red")
    with pytest.raises(InputError, match="cannot be reached"):
        Board.from_array([[1, 1], [0, 0]])
    with pytest.raises(InputError, match="not 3"):
        Board.from_array([[3]])
    with pytest.raises(InputError, match="shape"):
        Board.from_array([1, 0])
    with pytest.raises(TypeError):
        Board.from_array([[0.5]])
    with pytest.raises(InputError):
        Board.from_array([[1, 0]], to_move="green")
    start = Board.from_array([[0, 1], [0, 0]], swap=True)
    assert start.legal_moves()[-2:] == ["swap-pieces", "swap-sides"]
    start.play("swap-pieces")
    assert start.to_array().tolist() == [[0, 0], [2, 0]]
    start.undo()
    with pytest.raises(InputError):
        start.undo()


def test_the_judge_takes_the_boards_arrays():
    needs.module("numpy")
    rng = random.Random(3)
    for _ in range(100):
        n = rng.randint(1, 9)
        board, game = random_game(rng, n, n, swap=False, check=False)
        for _ in range(rng.randint(0, len(board))):
            board.undo()
        text = ["".join(".RB"[v] for v in row) for row in board.to_array().tolist()]
        assert hx.judge(board.to_array()) == hx.judge(text)
        assert hx.judge(board.to_array().astype("int64")) == hx.judge(text)


def test_explain_gives_the_chain_and_the_stones_on_every_chain():
    rng = random.Random(21)
    for _ in range(300):
        rows, cols = rng.randint(1, 9), rng.randint(1, 9)
        board, game = random_game(rng, rows, cols, swap=rng.random() < 0.3, check=False)
        explanation = board.explain()
        assert explanation.result.winner == game.winner
        assert explanation.answer == f"{game.winner.capitalize()} wins"
        ((colour, chain),) = explanation.chains
        assert colour == game.winner
        assert all(game.stones[cell] == game.winner for cell in chain)
        for a, b in zip(chain, chain[1:]):
            assert (b[0] - a[0], b[1] - a[1]) in ref.NEIGHBOURS
        side = 0 if game.winner == "red" else 1
        far = (rows if side == 0 else cols) - 1
        assert chain[0][side] == 0 and chain[-1][side] == far
        assert sorted(explanation.result.last_moves) == game.on_every_chain(game.winner)
        last = game.moves[game.winning_move]
        if last == "swap-pieces":
            last = game.moves[0][::-1]
        assert tuple(last) in explanation.result.last_moves
        board.undo()
        assert board.explain() is None


def test_draw_shows_the_board_and_its_chain():
    board = Board(3)
    for move in [(0, 1), (1, 1), (1, 0), (2, 2), (2, 0)]:
        board.play(move)
    text = board.draw(as_text=True)
    assert text.startswith("Red wins") and text.count("*") == 3 + 1   # the legend has one
    svg = board.draw(heading="a game")
    assert "<svg" in svg and "a game" in svg
    board.undo()
    assert "Nobody wins" in board.draw(as_text=True)
    with pytest.raises(InputError, match="square boards.*2 x 4"):
        Board(2, 4).draw()


def test_a_crafted_pickle_of_a_start_raises_instead_of_reading_astray():
    """_rebuilt and _from_cells take what a pickle brings: cells of the
    wrong length or with no colour's code, sizes no board has, a colour to
    move that is none."""
    from havhex.hex.board import _rebuilt

    assert _rebuilt(Board, 2, 2, False, b"\x01\x00\x00\x00", "blue", ()).stone_counts == (1, 0)
    for crafted in ((2, 2, False, b"\x01", "blue"), (2, 2, False, b"\x00" * 400, "red"),
                    (2, 2, False, b"\x01\x00\x07\x00", "red"), (2, 2, False, b"\xff" * 4, "red"),
                    (0, 2, False, b"", "red"), (-1, -4, False, b"\x00" * 4, "red"),
                    (2 ** 20, 2 ** 20, False, b"", "red"), (2, 2, False, b"\x00" * 4, "green")):
        with pytest.raises(InputError):
            _rebuilt(Board, *crafted, ())
    for crafted in ((2.0, 2, False, b"\x00" * 4), (2, 2, 1, b"\x00" * 4), (2, 2, False, "....")):
        with pytest.raises(TypeError):
            Board._from_cells(*crafted)
    board = Board._from_cells(2, 2, False, b"\x00" * 4)
    for code in (0, 3, -1):
        with pytest.raises(InputError):
            board._start_mover(code)
    assert board.to_move == "red"


def test_pickle_keeps_the_start_of_a_board_made_from_an_array():
    needs.module("numpy")
    start = Board.from_array([[0, 1, 0], [0, 0, 0]], swap=True)
    start.play("swap-sides")
    again = pickle.loads(pickle.dumps(start))
    assert again == start and again.moves == ("swap-sides",)


# ---------------------------------------------------------------------------
# Playouts
# ---------------------------------------------------------------------------

def _red_chance(game, known):
    """Red's exact chance of winning when both players pick uniformly among
    the legal moves (swaps included) from this position."""
    if game.winner is not None:
        return Fraction(game.winner == "red")
    key = (tuple(sorted(game.stones.items())), game.to_move, game.swap_allowed())
    if key not in known:
        legal = game.legal_moves()
        total = Fraction(0)
        for move in legal:
            child = ref.Game(game.rows, game.cols, game.swap)
            for earlier in game.moves:
                child.play(earlier)
            child.play(move)
            total += _red_chance(child, known)
        known[key] = total / len(legal)
    return known[key]


@pytest.mark.parametrize("rows, cols, swap, opening", [
    (2, 2, False, []), (3, 2, False, []), (2, 3, True, [(0, 2)]), (3, 3, True, [(0, 1)]),
    (2, 2, True, [(1, 0)]), (3, 3, False, [(1, 1), (0, 2)]), (3, 3, True, [(0, 0), "swap-sides"]),
])
def test_playouts_follow_uniformly_random_legal_moves(rows, cols, swap, opening):
    board = Board(rows, cols, swap)
    game = ref.Game(rows, cols, swap)
    for move in opening:
        board.play(move)
        game.play(move)
    chance = float(_red_chance(game, {}))
    n = 40000
    wins = board.playouts(n, 11)["red"]
    spread = (chance * (1 - chance) / n) ** 0.5
    assert abs(wins / n - chance) <= 5 * spread + 1e-9
    assert board.moves == tuple(opening) and board.to_move == game.to_move


def test_a_stone_ringed_by_its_own_colour_joins_the_ring():
    """Red fills a cell whose six neighbours are red; the game then goes on
    at random, against the reference, and undoes back to the start."""
    ring = [(2, 2), (2, 3), (3, 3), (4, 2), (4, 1), (3, 1)]
    far = [(0, 0), (0, 6), (6, 6), (6, 0), (0, 4), (5, 6)]
    for seed in range(30):
        board, game = Board(7), ref.Game(7)
        for red, blue in zip(ring, far):
            for move in (red, blue):
                board.play(move)
                game.play(move)
        board.play((3, 2))
        game.play((3, 2))
        before = board.copy()
        random_game(random.Random(seed), 7, 7, False, board=board, game=game)
        assert board.winner is not None
        while len(board) > len(before):
            board.undo()
        assert board == before and board.hash == before.hash
